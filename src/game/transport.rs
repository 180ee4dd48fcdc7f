//! A destroyed TRANSPORT: its Deadly Demise is rolled first (by the caller), then, before it
//! is removed, its passengers disembark around it (wholly within 3", else an emergency
//! disembarkation wholly within 6") and roll a D6 per model: each 1 (each 1-3 after an
//! emergency disembarkation) inflicts 1 mortal wound on that unit, allocated as any mortal
//! wound is; a unit that cannot be set up at all is destroyed.
//!
//! Under 11th every passenger makes an Emergency Disembark instead: wholly within 6" as close
//! as it fits, a hazard roll per model, models with no room destroyed, the unit Battle-shocked.
//!
//! Core Rules: Transports (Destroyed Transport, Emergency Disembarkation), Deadly Demise;
//! shared/RULES.md (whose "losing a model" per failure is read as 1 mortal wound per failure);
//! 11th Core Rules 18.05.

use super::command::Placement;
use super::event::{GameEvent, SetUpHow};
use super::state::{Game, Location};
use crate::game::sight::{ModelRef, model_solid};
use crate::geometry::measure::{model_distance, wholly_within};
use crate::geometry::{ModelSolid, Vec2, bases_overlap};
use crate::rules::constants::{
    BASE_CONTACT_INCHES, COHERENCY_HORIZONTAL_INCHES, COHERENCY_TWO_NEIGHBOURS_FROM_MODELS,
    DISEMBARK_RANGE_INCHES,
};
use crate::rules::ruleset::DisembarkRule;

/// Spacing of the candidate positions tried around a destroyed TRANSPORT (inches).
const PLACEMENT_GRID_INCHES: f32 = 0.5;

impl Game {
    /// Every unit embarked in the TRANSPORT `transport` (army `army`), whose last model has
    /// just been destroyed (and its Deadly Demise rolled), disembarks before the TRANSPORT is
    /// removed: wholly within 3", then a D6 per model and 1 mortal wound on the unit for each
    /// 1; or else wholly within 6" (emergency disembarkation), 1 mortal wound for each 1-3.
    /// The mortal wounds are allocated to the unit as any mortal wounds are (Feel No Pain
    /// applies; excess is not lost between models). A unit that cannot be set up either way is destroyed. The engine sets
    /// the models up itself, as close to the hull as they fit, in Unit Coherency and out of
    /// Engagement Range.
    pub(super) fn disembark_from_destroyed(
        &mut self,
        army: usize,
        transport: usize,
        ev: &mut Vec<GameEvent>,
    ) {
        let hull: Vec<ModelSolid> = (0..self.units[army][transport].models.len())
            .map(|m| {
                model_solid(
                    &self.scene,
                    ModelRef {
                        army,
                        unit: transport,
                        model: m,
                    },
                )
            })
            .collect();
        let passengers: Vec<usize> = (0..self.units[army].len())
            .filter(|&u| {
                self.units[army][u].location == Location::Embarked(transport)
                    && self.units[army][u].leading.is_none()
            })
            .collect();
        let player = self.player_of(army);
        if let DisembarkRule::Modes {
            combat_range_inches,
        } = self.scene.edition().disembark
        {
            for root in passengers {
                self.emergency_disembark(army, root, &hull, combat_range_inches, ev);
            }
            return;
        }
        let DisembarkRule::Tenth {
            destroyed_fails_up_to,
            emergency_range_inches,
            emergency_fails_up_to,
        } = self.scene.edition().disembark
        else {
            return;
        };
        for root in passengers {
            let tries = [
                (DISEMBARK_RANGE_INCHES, destroyed_fails_up_to, false),
                (emergency_range_inches, emergency_fails_up_to, true),
            ];
            let placed = tries.iter().find_map(|&(range, fails, emergency)| {
                let placements = self.around_hull(army, root, &hull, range, false)?;
                let planned = self
                    .plan_disembark(army, root, &placements, &hull, range, &[])
                    .ok()?;
                Some((planned, fails, emergency))
            });
            let id = self.unit_id(army, root).to_string();
            let Some((planned, fails_up_to, emergency)) = placed else {
                self.passengers_lost(army, root, ev);
                continue;
            };
            self.place(&planned);
            self.for_combined(army, root, |s| s.location = Location::OnTable);
            ev.push(GameEvent::SetUp {
                player,
                unit: id.clone(),
                how: if emergency {
                    SetUpHow::EmergencyDisembarkation
                } else {
                    SetUpHow::DestroyedTransport
                },
            });
            let dice: Vec<u8> = self
                .live_models(army, root)
                .iter()
                .map(|_| self.rng.d6())
                .collect();
            let mortal_wounds = dice.iter().filter(|d| **d <= fails_up_to).count() as u32;
            self.passenger_rolls(army, root, (dice, fails_up_to, mortal_wounds), ev);
        }
    }

    /// The combined unit `root`, embarked in a destroyed TRANSPORT, finds no room to
    /// disembark: every model is destroyed.
    fn passengers_lost(&mut self, army: usize, root: usize, ev: &mut Vec<GameEvent>) {
        ev.push(GameEvent::TransportPassengersLost {
            player: self.player_of(army),
            unit: self.unit_id(army, root).to_string(),
            reason: "no room to disembark around the destroyed TRANSPORT".into(),
        });
        for r in self.live_models_anywhere(army, root) {
            self.units[army][r.unit].location = Location::OnTable;
            self.destroy_model(r, ev);
        }
    }

    /// The rolls of the combined unit `root` after it disembarked from a destroyed TRANSPORT
    /// (`dice`, failing up to `fails_up_to`, costing `mortal_wounds`): the mortal wounds go
    /// through the normal allocation, and their events follow the rolls' event, which reports
    /// the models they cost.
    fn passenger_rolls(
        &mut self,
        army: usize,
        root: usize,
        (dice, fails_up_to, mortal_wounds): (Vec<u8>, u8, u32),
        ev: &mut Vec<GameEvent>,
    ) {
        let player = self.player_of(army);
        let before = self.live_models(army, root).len();
        let mut after = Vec::new();
        if mortal_wounds > 0 {
            self.mortal_wounds(player, (army, root), Vec::new(), mortal_wounds, &mut after);
        }
        let models_lost = before.saturating_sub(self.live_models_anywhere(army, root).len());
        ev.push(GameEvent::DestroyedTransportRolls {
            player,
            unit: self.unit_id(army, root).to_string(),
            dice,
            fails_up_to,
            mortal_wounds,
            models_lost: models_lost as u32,
        });
        ev.extend(after);
    }

    /// 11th edition Emergency Disembark (11th Core Rules 18.05) of the combined unit `root`
    /// from a destroyed TRANSPORT whose models are `hull`: its models set up wholly within
    /// `range` inches, as close as they fit; a model with no room is destroyed; then a hazard
    /// roll per model set up, each failure costing the unit mortal wounds; the unit is
    /// Battle-shocked and cannot charge this turn.
    fn emergency_disembark(
        &mut self,
        army: usize,
        root: usize,
        hull: &[ModelSolid],
        range: f32,
        ev: &mut Vec<GameEvent>,
    ) {
        let placements = self
            .around_hull(army, root, hull, range, true)
            .unwrap_or_default();
        let models = self.live_models_anywhere(army, root);
        self.for_combined(army, root, |s| s.location = Location::OnTable);
        // The models with no room are destroyed before the others are set up.
        let unplaced: Vec<_> = models
            .iter()
            .filter(|r| {
                !placements.iter().any(|p| {
                    p.model == r.model && p.unit.as_deref() == Some(self.unit_id(army, r.unit))
                })
            })
            .copied()
            .collect();
        let planned = if unplaced.len() == models.len() {
            None
        } else {
            for r in &unplaced {
                self.destroy_model(*r, ev);
            }
            self.plan_disembark(army, root, &placements, hull, range, &[])
                .ok()
        };
        let Some(planned) = planned else {
            self.passengers_lost(army, root, ev);
            return;
        };
        self.place(&planned);
        ev.push(GameEvent::SetUp {
            player: self.player_of(army),
            unit: self.unit_id(army, root).to_string(),
            how: SetUpHow::EmergencyDisembarkation,
        });
        let (dice, mortal_wounds) = self.hazard_dice(army, root);
        let fails_up_to = self.scene.edition().hazard.fails_up_to();
        self.passenger_rolls(army, root, (dice, fails_up_to, mortal_wounds), ev);
        self.for_combined(army, root, |s| {
            s.battle_shocked = true;
            s.no_charge = true;
        });
    }

    /// True when every model of the combined unit `root` finds a spot wholly within `range`
    /// inches of the `hull` ([`Self::around_hull`]): under 11th, a unit that fits within 3"
    /// may not make a Combat Disembark (11th Core Rules 18.04).
    pub(super) fn fits_around_hull(
        &self,
        army: usize,
        root: usize,
        hull: &[ModelSolid],
        range: f32,
    ) -> bool {
        self.around_hull(army, root, hull, range, false).is_some()
    }

    /// Placements for every model of the combined unit `root` wholly within `range` inches of
    /// the `hull`, clear of it, of other models, walls and enemies' Engagement Range, each
    /// model next to one already placed: the closest free spot to the hull first. None when
    /// some model finds no spot, unless `partial`: then the models that find none are left
    /// out.
    fn around_hull(
        &self,
        army: usize,
        root: usize,
        hull: &[ModelSolid],
        range: f32,
        partial: bool,
    ) -> Option<Vec<Placement>> {
        let models = self.live_models_anywhere(army, root);
        let others: Vec<ModelSolid> = self
            .all_live_models()
            .iter()
            .filter(|r| !models.contains(r))
            .map(|r| self.solid(*r))
            .collect();
        let enemies: Vec<ModelSolid> = self.enemy_solids(army);
        let barricades = self.scene.barricade_footprints();
        let (lo, hi) = hull.iter().fold(
            (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
            |(lo, hi), h| {
                let r = h.base.bounding_radius_inches();
                (lo.min(h.centre - r), hi.max(h.centre + r))
            },
        );
        let mut grid = Vec::new();
        let mut x = lo.x - range;
        while x <= hi.x + range {
            let mut y = lo.y - range;
            while y <= hi.y + range {
                grid.push(Vec2::new(x, y));
                y += PLACEMENT_GRID_INCHES;
            }
            x += PLACEMENT_GRID_INCHES;
        }
        let overlaps = |a: &ModelSolid, b: &ModelSolid| {
            bases_overlap((&a.base, a.centre, a.facing), (&b.base, b.centre, b.facing))
        };
        // Unit Coherency: each model placed next to one placed before it, or two for a unit
        // of 7 or more models (so every model ends with enough neighbours).
        let neighbours = if models.len() >= COHERENCY_TWO_NEIGHBOURS_FROM_MODELS {
            2
        } else {
            1
        };
        let mut placed: Vec<ModelSolid> = Vec::new();
        let mut out = Vec::new();
        for r in &models {
            let facing = self.scene.armies[army].units[r.unit].models[r.model].facing;
            let mut best: Option<(f32, ModelSolid)> = None;
            for &c in &grid {
                let s = self.solid_at(*r, c.extend(0.0), facing);
                let gap = hull
                    .iter()
                    .map(|h| model_distance(&s, h).distance)
                    .fold(f32::INFINITY, f32::min);
                if gap < BASE_CONTACT_INCHES || best.as_ref().is_some_and(|(g, _)| *g <= gap) {
                    continue;
                }
                let friends = placed
                    .iter()
                    .filter(|p| {
                        model_distance(&s, p).distance <= COHERENCY_HORIZONTAL_INCHES - 0.25
                    })
                    .count();
                let near_friend = friends >= placed.len().min(neighbours);
                if !near_friend
                    || !hull.iter().any(|h| wholly_within(&s, h, range))
                    || hull
                        .iter()
                        .chain(&others)
                        .chain(&placed)
                        .any(|o| overlaps(&s, o))
                    || enemies.iter().any(|e| {
                        crate::rules::engagement::within_engagement_range_in(
                            self.scene.edition(),
                            &s,
                            e,
                            &barricades,
                        )
                    })
                    || self.wall_crossed(&s).is_some()
                {
                    continue;
                }
                best = Some((gap, s));
            }
            let Some((_, s)) = best else {
                if partial {
                    continue;
                }
                return None;
            };
            out.push(Placement {
                model: r.model,
                unit: Some(self.unit_id(army, r.unit).to_string()),
                x: s.centre.x,
                y: s.centre.y,
                z: 0.0,
                facing,
            });
            placed.push(s);
        }
        Some(out)
    }
}
