//! Unit Coherency: which models break it, and which to remove at the end of a turn.
//!
//! Core Rules: Unit Coherency. Each model must be within 2" horizontally and 5" vertically of
//! at least one other model of its unit (two others when the unit has 7 or more models), and
//! the unit must form one group. At the end of a turn, models are removed until a single
//! coherent group remains.

use super::constants::{COHERENCY_HORIZONTAL_INCHES, COHERENCY_VERTICAL_INCHES, TENTH};
use super::ruleset::Edition;
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

/// Neighbours required by a unit of `models` models (10th edition).
pub fn neighbours_required(models: usize) -> usize {
    neighbours_required_in(&TENTH, models)
}

/// Neighbours required by a unit of `models` models under `edition`: two from 7 models in
/// 10th, always one in 11th (11th Core Rules 03.03).
pub fn neighbours_required_in(edition: &Edition, models: usize) -> usize {
    match edition.coherency_two_neighbours_from_models {
        Some(from) if models >= from => 2,
        _ => 1,
    }
}

/// For each model, the other models it is not within the edition's coherency span of (11th
/// Core Rules 03.03: 9" horizontally and 5" vertically of every model of its unit); empty
/// lists when the edition has no span.
fn beyond_span(edition: &Edition, models: &[ModelSolid]) -> Vec<Vec<usize>> {
    let Some(span) = edition.coherency_span_inches else {
        return vec![Vec::new(); models.len()];
    };
    (0..models.len())
        .map(|i| {
            (0..models.len())
                .filter(|&j| {
                    j != i
                        && (horizontal_distance(&models[i], &models[j]) > span
                            || vertical_distance(&models[i], &models[j])
                                > COHERENCY_VERTICAL_INCHES)
                })
                .collect()
        })
        .collect()
}

/// A unit's models as the coherency rules see them: who is within 2" of whom, and who is
/// beyond the span of whom.
struct Links<'e> {
    edition: &'e Edition,
    adjacency: Vec<Vec<usize>>,
    beyond: Vec<Vec<usize>>,
}

impl<'e> Links<'e> {
    fn of(edition: &'e Edition, models: &[ModelSolid]) -> Self {
        Links {
            edition,
            adjacency: neighbours(models),
            beyond: beyond_span(edition, models),
        }
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

fn report(links: &Links<'_>, alive: &[bool]) -> CoherencyReport {
    let adjacency = &links.adjacency;
    let n = adjacency.len();
    let count = alive.iter().filter(|a| **a).count();
    if count <= 1 {
        return CoherencyReport {
            coherent: true,
            breaking_models: Vec::new(),
        };
    }
    let required = neighbours_required_in(links.edition, count);
    let mut breaking: Vec<usize> = (0..n)
        .filter(|&i| {
            alive[i]
                && (adjacency[i].iter().filter(|&&j| alive[j]).count() < required
                    || links.beyond[i].iter().any(|&j| alive[j]))
        })
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

/// Checks a unit's coherency under 10th edition (Core Rules: Unit Coherency).
pub fn check(models: &[ModelSolid]) -> CoherencyReport {
    check_in(&TENTH, models)
}

/// Checks a unit's coherency under `edition` (10th Core Rules: Unit Coherency; 11th Core Rules
/// 03.03, with the 9" span: a model beyond the span of another breaks it, and so does that
/// other).
pub fn check_in(edition: &Edition, models: &[ModelSolid]) -> CoherencyReport {
    report(&Links::of(edition, models), &vec![true; models.len()])
}

/// The models to remove at the end of a turn so that one coherent group remains, every model
/// worth the same: see [`models_to_remove_keeping`].
pub fn models_to_remove(models: &[ModelSolid]) -> Vec<usize> {
    models_to_remove_keeping(models, &vec![1.0; models.len()])
}

/// The models the owner removes at the end of a turn so that one coherent group remains
/// (Core Rules: Unit Coherency, the owner picks), `keep[i]` being what keeping model `i` is
/// worth to them. Two ways are tried and the one losing the least worth is taken (ties: fewer
/// models, then the first): removing models one at a time (the groups but the one worth the
/// most, then the breaking model worth the least); and, for a unit of 7 or more models, first
/// removing the models worth the least until fewer than 7 remain (each then needs only one
/// neighbour), then the same. So two Boyz go rather than the Warboss that two neighbours
/// would otherwise cost. Returns model indices in increasing order.
pub fn models_to_remove_keeping(models: &[ModelSolid], keep: &[f64]) -> Vec<usize> {
    models_to_remove_keeping_in(&TENTH, models, keep)
}

/// [`models_to_remove_keeping`] under `edition`: in 11th a model beyond the 9" span of others
/// is removed like one with too few neighbours (the one beyond the span of the most models
/// first, among those worth the least), and no unit needs two neighbours (11th Core Rules
/// 03.03, End of Turn step).
pub fn models_to_remove_keeping_in(
    edition: &Edition,
    models: &[ModelSolid],
    keep: &[f64],
) -> Vec<usize> {
    let links = Links::of(edition, models);
    let adjacency = &links.adjacency;
    let n = models.len();
    let worth = |i: usize| keep.get(i).copied().unwrap_or(0.0);
    let one_at_a_time = remove_one_at_a_time(&links, vec![true; n], &worth);
    if report(&links, &vec![true; n]).coherent {
        return one_at_a_time;
    }
    let mut best = one_at_a_time;
    if let Some(two_from) = edition.coherency_two_neighbours_from_models
        && n >= two_from
    {
        let degree = |i: usize| adjacency[i].len();
        let mut cheapest: Vec<usize> = (0..n).collect();
        cheapest.sort_by(|&a, &b| {
            worth(a)
                .total_cmp(&worth(b))
                .then(degree(a).cmp(&degree(b)))
                .then(b.cmp(&a))
        });
        let mut alive = vec![true; n];
        let shed = n + 1 - two_from;
        for &i in &cheapest[..shed] {
            alive[i] = false;
        }
        let mut shrunk = remove_one_at_a_time(&links, alive, &worth);
        shrunk.extend_from_slice(&cheapest[..shed]);
        shrunk.sort_unstable();
        let lost = |set: &[usize]| set.iter().map(|&i| worth(i)).sum::<f64>();
        if lost(&shrunk)
            .total_cmp(&lost(&best))
            .then(shrunk.len().cmp(&best.len()))
            .is_lt()
        {
            best = shrunk;
        }
    }
    best
}

/// Removes models one at a time from those `alive` until one coherent group remains: every
/// group but the one worth the most (ties: the larger, then the one with the first model),
/// then the breaking model worth the least (ties: the fewest neighbours, then the last).
/// Returns the models removed, in increasing order.
fn remove_one_at_a_time(
    links: &Links<'_>,
    mut alive: Vec<bool>,
    worth: &impl Fn(usize) -> f64,
) -> Vec<usize> {
    let adjacency = &links.adjacency;
    let n = adjacency.len();
    let mut removed = Vec::new();
    loop {
        let r = report(links, &alive);
        if r.coherent {
            break;
        }
        let mut groups = components(n, adjacency, &alive);
        if groups.len() > 1 {
            let total = |g: &Vec<usize>| g.iter().map(|&i| worth(i)).sum::<f64>();
            groups.sort_by(|a, b| {
                total(b)
                    .total_cmp(&total(a))
                    .then(b.len().cmp(&a.len()))
                    .then(a[0].cmp(&b[0]))
            });
            for i in groups[1..].iter().flatten() {
                alive[*i] = false;
                removed.push(*i);
            }
            continue;
        }
        let degree = |i: usize| adjacency[i].iter().filter(|&&j| alive[j]).count();
        let far = |i: usize| links.beyond[i].iter().filter(|&&j| alive[j]).count();
        let worst = *r
            .breaking_models
            .iter()
            .min_by(|&&a, &&b| {
                worth(a)
                    .total_cmp(&worth(b))
                    .then(far(b).cmp(&far(a)))
                    .then(degree(a).cmp(&degree(b)))
                    .then(b.cmp(&a))
            })
            .expect("an incoherent unit has a breaking model");
        alive[worst] = false;
        removed.push(worst);
    }
    removed.sort_unstable();
    removed
}
