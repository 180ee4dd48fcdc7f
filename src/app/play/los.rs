//! The line-of-sight report of the selected unit: how well it sees every enemy model, why
//! not better, and the Benefit of Cover.

use crate::game::Game;
use crate::game::sight::ModelRef;
use crate::geometry::Vec3 as TableVec3;
use crate::geometry::sight::{Blocker, Sampling, SeeThrough};

/// How well a model can see an enemy model (Core Rules: Determining Visibility).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SightStatus {
    /// Every part facing the observer can be seen.
    FullyVisible,
    /// Some part can be seen.
    Visible,
    /// No part can be seen.
    NotVisible,
}

/// One enemy model as seen by the selected unit.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetSight {
    /// The enemy model.
    pub model: ModelRef,
    /// The best sight any model of the selected unit has of it.
    pub status: SightStatus,
    /// A clear sight line (observer point, target point), when visible.
    pub witness: Option<[TableVec3; 2]>,
    /// Why it is not visible, or not fully visible (the blocker or rule), if so.
    pub reason: Option<String>,
    /// Why it has the Benefit of Cover against the selected unit, if it does.
    pub cover: Option<String>,
}

/// The line-of-sight report of one unit: every enemy model on the table.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LosReport {
    /// Observing unit (army, unit).
    pub observer: Option<(usize, usize)>,
    /// Each enemy model's sight.
    pub targets: Vec<TargetSight>,
}

impl LosReport {
    /// The sight of `model`, if it is in the report.
    pub fn of(&self, model: ModelRef) -> Option<&TargetSight> {
        self.targets.iter().find(|t| t.model == model)
    }
}

/// The line-of-sight report of the unit (`army`, `unit`): for every enemy model on the table,
/// the best sight any of the unit's models has (fully visible, visible, not visible), a witness
/// line, the blocker or rule when sight is short, and the Benefit of Cover reason. Core Rules:
/// Determining Visibility, Benefit of Cover; Rules Commentary: ruins (sight through footprints).
pub fn los_report(game: &Game, army: usize, unit: usize) -> LosReport {
    let sight = game.sight();
    let root = game.combined(army, unit)[0];
    let observers = game.entries_of(&sight, army, root);
    let sampling = Sampling::FAST;
    let index = &sight.index;
    let mut targets = Vec::new();
    let mut unit_cover: std::collections::HashMap<(usize, usize), Option<String>> =
        std::collections::HashMap::new();
    for (t, r) in sight.models.iter().enumerate() {
        if r.army == army {
            continue;
        }
        let mut best: Option<(SightStatus, Option<[TableVec3; 2]>, Option<Blocker>)> = None;
        let mut first_block: Option<Blocker> = None;
        for &o in &observers {
            let v = index.model_visibility(o, t, SeeThrough::OwnUnit, &sampling);
            let status = if v.fully_visible {
                SightStatus::FullyVisible
            } else if v.visible {
                SightStatus::Visible
            } else {
                SightStatus::NotVisible
            };
            if first_block.is_none() {
                first_block = v.blocked_by.clone();
            }
            let better = best
                .as_ref()
                .is_none_or(|(s, _, _)| rank(status) > rank(*s));
            if better {
                best = Some((status, v.witness, v.not_fully_because.clone()));
            }
            if status == SightStatus::FullyVisible {
                break;
            }
        }
        let (status, witness, not_fully) = best.unwrap_or((SightStatus::NotVisible, None, None));
        let reason = match status {
            SightStatus::FullyVisible => None,
            SightStatus::Visible => not_fully.map(|b| b.to_string()),
            SightStatus::NotVisible => first_block.map(|b| b.to_string()),
        };
        let cover = if status == SightStatus::NotVisible {
            None
        } else if index.eleventh() {
            // 11th: the whole target unit's cover, against each attacking model.
            let key = (r.army, game.combined(r.army, r.unit)[0]);
            unit_cover
                .entry(key)
                .or_insert_with(|| {
                    let theirs = game.entries_of(&sight, key.0, key.1);
                    observers
                        .iter()
                        .find_map(|&o| index.cover_against(o, &theirs, &sampling))
                })
                .clone()
        } else {
            index.benefit_of_cover(t, &observers, &sampling)
        };
        targets.push(TargetSight {
            model: *r,
            status,
            witness,
            reason,
            cover,
        });
    }
    LosReport {
        observer: Some((army, root)),
        targets,
    }
}

fn rank(s: SightStatus) -> u8 {
    match s {
        SightStatus::NotVisible => 0,
        SightStatus::Visible => 1,
        SightStatus::FullyVisible => 2,
    }
}
