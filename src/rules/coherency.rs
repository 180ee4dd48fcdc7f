//! Unit Coherency: which models break it, and which to remove at the end of a turn.
//!
//! Core Rules: Unit Coherency. Each model must be within 2" horizontally and 5" vertically of
//! at least one other model of its unit (two others when the unit has 7 or more models), and
//! the unit must form one group. At the end of a turn, models are removed until a single
//! coherent group remains.

use super::constants::{
    COHERENCY_HORIZONTAL_INCHES, COHERENCY_TWO_NEIGHBOURS_FROM_MODELS, COHERENCY_VERTICAL_INCHES,
};
use crate::geometry::body::ModelSolid;
use crate::geometry::measure::{horizontal_distance, vertical_distance};

/// The coherency report of a unit.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CoherencyReport {
    /// True when the unit is in Unit Coherency.
    pub coherent: bool,
    /// Models (indices) with too few neighbours or cut off from the main group.
    pub breaking_models: Vec<usize>,
}

/// True when models `a` and `b` are within coherency distance of each other.
pub fn in_coherency_range(a: &ModelSolid, b: &ModelSolid) -> bool {
    horizontal_distance(a, b) <= COHERENCY_HORIZONTAL_INCHES
        && vertical_distance(a, b) <= COHERENCY_VERTICAL_INCHES
}

/// Neighbours required by a unit of `models` models.
pub fn neighbours_required(models: usize) -> usize {
    if models >= COHERENCY_TWO_NEIGHBOURS_FROM_MODELS {
        2
    } else {
        1
    }
}

/// For each model, the indices of the others within coherency range.
pub fn neighbours(models: &[ModelSolid]) -> Vec<Vec<usize>> {
    (0..models.len())
        .map(|i| {
            (0..models.len())
                .filter(|&j| j != i && in_coherency_range(&models[i], &models[j]))
                .collect()
        })
        .collect()
}

fn components(n: usize, adjacency: &[Vec<usize>], alive: &[bool]) -> Vec<Vec<usize>> {
    let mut seen = vec![false; n];
    let mut out = Vec::new();
    for start in 0..n {
        if seen[start] || !alive[start] {
            continue;
        }
        let mut group = vec![start];
        seen[start] = true;
        let mut i = 0;
        while i < group.len() {
            for &j in &adjacency[group[i]] {
                if alive[j] && !seen[j] {
                    seen[j] = true;
                    group.push(j);
                }
            }
            i += 1;
        }
        group.sort_unstable();
        out.push(group);
    }
    out
}

fn report(adjacency: &[Vec<usize>], alive: &[bool]) -> CoherencyReport {
    let n = adjacency.len();
    let count = alive.iter().filter(|a| **a).count();
    if count <= 1 {
        return CoherencyReport {
            coherent: true,
            breaking_models: Vec::new(),
        };
    }
    let required = neighbours_required(count);
    let mut breaking: Vec<usize> = (0..n)
        .filter(|&i| alive[i] && adjacency[i].iter().filter(|&&j| alive[j]).count() < required)
        .collect();
    let mut groups = components(n, adjacency, alive);
    if groups.len() > 1 {
        // The largest group (first on ties) is the unit; the others are cut off.
        groups.sort_by(|a, b| b.len().cmp(&a.len()).then(a[0].cmp(&b[0])));
        breaking.extend(groups[1..].iter().flatten());
        breaking.sort_unstable();
        breaking.dedup();
    }
    CoherencyReport {
        coherent: breaking.is_empty(),
        breaking_models: breaking,
    }
}

/// Checks a unit's coherency (Core Rules: Unit Coherency).
pub fn check(models: &[ModelSolid]) -> CoherencyReport {
    report(&neighbours(models), &vec![true; models.len()])
}

/// The models to remove at the end of a turn so that one coherent group remains: models
/// outside the largest group first, then, one at a time, the model with the fewest neighbours
/// (the last such on ties), until the rest is coherent.
pub fn models_to_remove(models: &[ModelSolid]) -> Vec<usize> {
    let adjacency = neighbours(models);
    let n = models.len();
    let mut alive = vec![true; n];
    let mut removed = Vec::new();
    loop {
        let r = report(&adjacency, &alive);
        if r.coherent {
            break;
        }
        let mut groups = components(n, &adjacency, &alive);
        if groups.len() > 1 {
            groups.sort_by(|a, b| b.len().cmp(&a.len()).then(a[0].cmp(&b[0])));
            for i in groups[1..].iter().flatten() {
                alive[*i] = false;
                removed.push(*i);
            }
            continue;
        }
        let degree = |i: usize| adjacency[i].iter().filter(|&&j| alive[j]).count();
        let worst = *r
            .breaking_models
            .iter()
            .min_by(|&&a, &&b| degree(a).cmp(&degree(b)).then(b.cmp(&a)))
            .expect("an incoherent unit has a breaking model");
        alive[worst] = false;
        removed.push(worst);
    }
    removed.sort_unstable();
    removed
}
