//! Unit-level visibility, the Benefit of Cover and Plunging Fire.
//!
//! Rules Commentary: Unit Visible, Unit Fully Visible; Core Rules: Benefit of Cover (ruins and
//! woods: wholly within, or not fully visible to an attacking model because of them; craters:
//! INFANTRY wholly within; barricades: within 3" and not fully visible; debris, hills: not fully
//! visible), Plunging Fire (an attacker wholly within a ruin, 6" or more up, shooting a unit
//! whose models are all on the ground improves AP by 1); shared/RULES.md.

use super::constants::{COVER_BARRICADE_RANGE_INCHES, PLUNGING_FIRE_MIN_HEIGHT_INCHES};
use crate::geometry::measure::outline_distance;
use crate::geometry::sight::{Blocker, ModelVisibility, Sampling, SeeThrough, SightIndex};
use crate::geometry::{TerrainCategory, Vec3};

/// The answer for an observing unit (or model) and a target unit (or model).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct UnitVisibility {
    /// Some target model is visible to some observer model.
    pub unit_visible: bool,
    /// Every target model is fully visible to every observer model, seeing through the target
    /// unit (Rules Commentary: Unit Fully Visible, to an observing unit).
    pub unit_fully_visible: bool,
    /// Every visible target model has the Benefit of Cover against the observers.
    pub benefit_of_cover: bool,
    /// Plunging Fire applies for some observer model that can see the target.
    pub plunging_fire: bool,
    /// A clear sight line, if any.
    pub witness: Option<[Vec3; 2]>,
    /// What blocks sight when nothing is visible (from the first observer to the first target).
    pub blocked_by: Option<Blocker>,
}

impl SightIndex {
    /// Why model `target` has the Benefit of Cover against the `attackers` (model indices),
    /// if it does: the terrain piece and the clause.
    pub fn benefit_of_cover(
        &self,
        target: usize,
        attackers: &[usize],
        sampling: &Sampling,
    ) -> Option<String> {
        let t = &self.models()[target];
        for category in [TerrainCategory::Ruin, TerrainCategory::Woods] {
            if let Some(p) = self.wholly_within_category(target, category) {
                return Some(format!("wholly within {}", self.piece_id(p)));
            }
        }
        if t.infantry
            && let Some(p) = self.wholly_within_category(target, TerrainCategory::Crater)
        {
            return Some(format!(
                "INFANTRY wholly within crater {}",
                self.piece_id(p)
            ));
        }
        for &a in attackers {
            if !self.model_visible(a, target, SeeThrough::OwnUnit, sampling) {
                continue;
            }
            // "Because of terrain": the target is not fully visible even with every model
            // taken off the table, so a model hiding another part cannot mask the terrain.
            let v = self.model_visibility(a, target, SeeThrough::AllModels, sampling);
            if v.fully_visible {
                continue;
            }
            if let Some(reason) = self.cover_reason(target, &v) {
                return Some(reason);
            }
        }
        None
    }

    fn cover_reason(&self, target: usize, v: &ModelVisibility) -> Option<String> {
        let blocker = v.not_fully_because.as_ref()?;
        let piece = blocker.piece()?;
        let index = self.piece_by_id(piece)?;
        let category = self.piece_category(index);
        let grants = match category {
            TerrainCategory::Barricade => {
                let t = &self.models()[target];
                // Within 3": the closest points of base and footprint (0 when they overlap).
                outline_distance(&t.solid.outline(), self.piece_footprint(index))
                    <= COVER_BARRICADE_RANGE_INCHES
            }
            TerrainCategory::Crater => false,
            _ => true,
        };
        grants.then(|| format!("not fully visible because of {blocker}"))
    }

    /// 11th edition: why the target unit (its models `targets`) has the Benefit of Cover
    /// against the attacking model `attacker`, if it does: every target model is INFANTRY,
    /// BEASTS or SWARM within a terrain area, or is not fully visible to the attacker because of
    /// terrain (features and Obscuring areas; models taken off the table) (11th Core Rules
    /// 13.08, decided per attacking model).
    pub fn cover_against(
        &self,
        attacker: usize,
        targets: &[usize],
        sampling: &Sampling,
    ) -> Option<String> {
        if targets.is_empty() {
            return None;
        }
        let mut hidden_by = None;
        for &t in targets {
            if self.covered_by_area(t) {
                continue;
            }
            let v = self.model_visibility(attacker, t, SeeThrough::AllModels, sampling);
            if v.fully_visible {
                return None;
            }
            hidden_by = hidden_by.or(v.not_fully_because);
        }
        Some(match hidden_by {
            Some(b) => format!("every model within a terrain area or not fully visible ({b})"),
            None => "every model INFANTRY, BEASTS or SWARM within a terrain area".into(),
        })
    }

    /// Plunging Fire for `observer` shooting at the `targets` (model indices): 10th, wholly
    /// within a ruin 6" or more up at a unit all on the ground; 11th (22.05), standing 3" or
    /// more up, or TOWERING within 12" of the target, at a unit with a model on the ground,
    /// AIRCRAFT neither way.
    pub fn plunging_fire(&self, observer: usize, targets: &[usize]) -> bool {
        let o = &self.models()[observer];
        if self.eleventh() {
            use super::constants::{
                ELEVENTH_PLUNGING_FIRE_MIN_HEIGHT_INCHES, ELEVENTH_PLUNGING_FIRE_TOWERING_INCHES,
            };
            let ts = || targets.iter().map(|&t| &self.models()[t]);
            return !o.aircraft
                && !ts().any(|t| t.aircraft)
                && ts().any(|t| t.solid.z <= 1e-3)
                && (o.solid.z >= ELEVENTH_PLUNGING_FIRE_MIN_HEIGHT_INCHES
                    || (o.towering
                        && ts().any(|t| {
                            crate::geometry::measure::model_distance(&o.solid, &t.solid).distance
                                <= ELEVENTH_PLUNGING_FIRE_TOWERING_INCHES
                        })));
        }
        self.wholly_within_category(observer, TerrainCategory::Ruin)
            .is_some()
            && o.solid.z >= PLUNGING_FIRE_MIN_HEIGHT_INCHES
            && targets.iter().all(|&t| self.models()[t].solid.z <= 1e-3)
    }

    /// Visibility, cover and plunging fire of the `targets` (model indices of one unit) to
    /// the `observers` (model indices of one unit, or one model).
    pub fn unit_visibility(
        &self,
        observers: &[usize],
        targets: &[usize],
        sampling: &Sampling,
    ) -> UnitVisibility {
        let mut witness = None;
        let mut blocked_by = None;
        let mut visible_targets = Vec::new();
        // Sight alone (stopping at the first clear line) for every pair; the traced answer,
        // with "fully visible" worked out, only for the pair that gives the witness and the
        // one that gives the blocker.
        for &t in targets {
            for &o in observers {
                if self.model_visible(o, t, SeeThrough::OwnUnit, sampling) {
                    if witness.is_none() {
                        witness = self
                            .model_visibility(o, t, SeeThrough::OwnUnit, sampling)
                            .witness;
                    }
                    visible_targets.push(t);
                    break;
                }
                if blocked_by.is_none() {
                    blocked_by = self
                        .model_visibility(o, t, SeeThrough::OwnUnit, sampling)
                        .blocked_by;
                }
            }
        }
        let unit_fully_visible = !observers.is_empty()
            && observers.iter().all(|&o| {
                targets.iter().all(|&t| {
                    self.model_visibility(o, t, SeeThrough::OwnAndTargetUnit, sampling)
                        .fully_visible
                })
            });
        let benefit_of_cover = !visible_targets.is_empty()
            && if self.eleventh() {
                // Against every observer that sees the unit.
                observers
                    .iter()
                    .filter(|&&o| {
                        targets
                            .iter()
                            .any(|&t| self.model_visible(o, t, SeeThrough::OwnUnit, sampling))
                    })
                    .all(|&o| self.cover_against(o, targets, sampling).is_some())
            } else {
                visible_targets
                    .iter()
                    .all(|&t| self.benefit_of_cover(t, observers, sampling).is_some())
            };
        let plunging_fire = !visible_targets.is_empty()
            && observers.iter().any(|&o| {
                self.plunging_fire(o, targets)
                    && visible_targets.iter().any(|&t| {
                        self.model_visibility(o, t, SeeThrough::OwnUnit, sampling)
                            .visible
                    })
            });
        UnitVisibility {
            unit_visible: !visible_targets.is_empty(),
            unit_fully_visible,
            benefit_of_cover,
            plunging_fire,
            witness,
            blocked_by: if visible_targets.is_empty() {
                blocked_by
            } else {
                None
            },
        }
    }
}
