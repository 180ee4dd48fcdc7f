//! Before the battle: declaring Reserves and deploying units, players alternating.
//!
//! Core Rules: Deploy Armies (wholly within the player's deployment zone), Strategic Reserves (at
//! most 25% of the army's points), Deep Strike (units with the ability only); Chapter Approved
//! 2025-26: Declare Battle Formations (all Reserves, Deep Strike included, at most half the
//! army's units and half its points).

use super::command::{Placement, ReserveKind};
use super::event::GameEvent;
use super::rejection::{Rejection, Rule, reject};
use super::state::{Game, Location};
use crate::geometry::measure::{horizontal_distance, outline_distance};
use crate::rules::CoreAbility;
use crate::rules::constants::{
    RESERVES_MAX_POINTS_PERCENT, RESERVES_MAX_UNITS_PERCENT, STRATEGIC_RESERVES_MAX_POINTS_PERCENT,
};
use crate::rules::phase::{Stage, opponent};

impl Game {
    /// Under an edition whose AIRCRAFT start in Strategic Reserves (11th Core Rules 23), puts
    /// every AIRCRAFT unit there before deployment, as its owner must.
    pub(super) fn aircraft_to_reserves(&mut self, ev: &mut Vec<GameEvent>) {
        if !self.scene.edition().aircraft_from_reserves {
            return;
        }
        for army in 0..self.units.len() {
            for root in self.unit_roots(army) {
                if self.units[army][root].location == Location::NotDeployed
                    && self.has_keyword(army, root, "AIRCRAFT")
                {
                    let kind = ReserveKind::StrategicReserves;
                    self.for_combined(army, root, |s| s.location = Location::Reserves(kind));
                    ev.push(GameEvent::ReservesDeclared {
                        player: self.player_of(army),
                        unit: self.unit_id(army, root).to_string(),
                        kind,
                    });
                }
            }
        }
    }

    /// True when unit `u` of `army` is an AIRCRAFT that the edition puts in Strategic
    /// Reserves itself: it does not count against the Reserves limits.
    fn reserves_by_rule(&self, army: usize, u: usize) -> bool {
        self.scene.edition().aircraft_from_reserves
            && self.scene.armies[army].units[u]
                .datasheet
                .has_keyword("AIRCRAFT")
    }

    pub(super) fn declare_reserves(
        &mut self,
        player: u8,
        id: &str,
        kind: ReserveKind,
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        if self.stage != Stage::Setup {
            return reject(
                Rule::Reserves,
                "Reserves are declared before the first unit is deployed",
            );
        }
        let (army, root) = self.own_root(player, id)?;
        if self.units[army][root].location != Location::NotDeployed {
            return reject(Rule::Reserves, format!("'{id}' is already in Reserves"));
        }
        if kind == ReserveKind::DeepStrike
            && !self.combined(army, root).iter().all(|&u| {
                self.scene.armies[army].units[u]
                    .datasheet
                    .has_core(&CoreAbility::DeepStrike)
            })
        {
            return reject(
                Rule::DeepStrike,
                format!("'{id}' does not have the Deep Strike ability"),
            );
        }
        // Points are summed wide: no army's points can overflow them.
        let points = |u: usize| u64::from(self.scene.armies[army].units[u].points.unwrap_or(0));
        let total: u64 = (0..self.units[army].len()).map(points).sum();
        let waiting = |k: Option<ReserveKind>| -> Vec<usize> {
            (0..self.units[army].len())
                .filter(|&u| match self.units[army][u].location {
                    Location::Reserves(r) => {
                        k.is_none_or(|k| k == r) && !self.reserves_by_rule(army, u)
                    }
                    _ => false,
                })
                .collect()
        };
        let this_units = self.combined(army, root);
        let this: u64 = this_units.iter().map(|&u| points(u)).sum();
        // Core Rules: Strategic Reserves hold at most a quarter of the army's points.
        if kind == ReserveKind::StrategicReserves {
            let already: u64 = waiting(Some(ReserveKind::StrategicReserves))
                .into_iter()
                .map(points)
                .sum();
            if (already + this) * 100 > total * u64::from(STRATEGIC_RESERVES_MAX_POINTS_PERCENT) {
                return reject(
                    Rule::Reserves,
                    format!(
                        "at most {STRATEGIC_RESERVES_MAX_POINTS_PERCENT}% of the army's {total} points may start in Strategic Reserves; '{id}' would make it {}",
                        already + this
                    ),
                );
            }
        }
        // Chapter Approved 2025-26: all Reserves, Deep Strike included, hold at most half the
        // army's units and half its points.
        let reserved = waiting(None);
        let already: u64 = reserved.iter().map(|&u| points(u)).sum();
        if (already + this) * 100 > total * u64::from(RESERVES_MAX_POINTS_PERCENT) {
            return reject(
                Rule::Reserves,
                format!(
                    "at most {RESERVES_MAX_POINTS_PERCENT}% of the army's {total} points may start in Reserves (Deep Strike included); '{id}' would make it {}",
                    already + this
                ),
            );
        }
        let units = self.units[army].len() as u64;
        let in_reserves = (reserved.len() + this_units.len()) as u64;
        if in_reserves * 100 > units * u64::from(RESERVES_MAX_UNITS_PERCENT) {
            return reject(
                Rule::Reserves,
                format!(
                    "at most {RESERVES_MAX_UNITS_PERCENT}% of the army's {units} units may start in Reserves (Deep Strike included); '{id}' would make it {in_reserves}"
                ),
            );
        }
        self.for_combined(army, root, |s| s.location = Location::Reserves(kind));
        ev.push(GameEvent::ReservesDeclared {
            player,
            unit: self.unit_id(army, root).to_string(),
            kind,
        });
        Ok(())
    }

    pub(super) fn deploy(
        &mut self,
        player: u8,
        id: &str,
        placements: &[Placement],
        transport: Option<&str>,
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        if !matches!(self.stage, Stage::Setup | Stage::Deployment) {
            return reject(Rule::Deployment, "deployment is over");
        }
        if player != self.active_player {
            return reject(
                Rule::Deployment,
                format!(
                    "player {} deploys next, not player {player}",
                    self.active_player
                ),
            );
        }
        let (army, root) = self.own_root(player, id)?;
        if self.units[army][root].location != Location::NotDeployed {
            return reject(
                Rule::Deployment,
                format!("'{id}' is not waiting to be deployed"),
            );
        }
        let embarked_in = match transport {
            Some(t) => {
                let t = self.find_transport(army, root, t)?;
                self.for_combined(army, root, |s| s.location = Location::Embarked(t));
                Some(self.unit_id(army, t).to_string())
            }
            None => {
                let zone = self.scene.deployment.zone_of(player).unwrap_or_default();
                let set_up = if placements.is_empty() {
                    // The scene's positions.
                    self.live_models_anywhere(army, root)
                        .into_iter()
                        .map(|r| {
                            let m = &self.scene.armies[army].units[r.unit].models[r.model];
                            crate::game::Placement {
                                model: r.model,
                                unit: Some(self.unit_id(army, r.unit).to_string()),
                                x: m.position.x,
                                y: m.position.y,
                                z: m.position.z,
                                facing: m.facing,
                            }
                        })
                        .collect()
                } else {
                    placements.to_vec()
                };
                let planned = self.plan_set_up(army, root, &set_up)?;
                let infiltrators = self.combined(army, root).iter().all(|&u| {
                    self.scene.armies[army].units[u]
                        .datasheet
                        .has_core(&CoreAbility::Infiltrators)
                });
                let enemy_zone = self
                    .scene
                    .deployment
                    .zone_of(opponent(player))
                    .unwrap_or_default();
                let enemies: Vec<crate::geometry::ModelSolid> = self.enemy_solids(army);
                let barricades = self.scene.barricade_footprints();
                for (r, at, facing) in &planned {
                    let s = self.solid_at(*r, *at, *facing);
                    let name = self.model_name(*r);
                    if !crate::geometry::measure::wholly_within_footprint(&s, &zone) {
                        if !infiltrators {
                            return reject(
                                Rule::Deployment,
                                format!(
                                    "{name} must be set up wholly within player {player}'s deployment zone"
                                ),
                            );
                        }
                        // Infiltrators: anywhere more than 9" (11th: 8") from the enemy
                        // deployment zone and from every enemy model (Core Rules:
                        // Infiltrators; 11th Core Rules 24.20).
                        let apart = self.scene.edition().infiltrators_distance_inches;
                        let from_zone = outline_distance(&s.outline(), &enemy_zone);
                        let from_enemy = enemies
                            .iter()
                            .map(|e| horizontal_distance(&s, e))
                            .fold(f32::INFINITY, f32::min);
                        if from_zone.min(from_enemy) <= apart {
                            return reject(
                                Rule::Infiltrators,
                                format!(
                                    "{name} must be set up more than {apart}\" from the enemy deployment zone and every enemy model ({:.2}\")",
                                    from_zone.min(from_enemy)
                                ),
                            );
                        }
                    }
                    if enemies.iter().any(|e| {
                        crate::rules::engagement::within_engagement_range_in(
                            self.scene.edition(),
                            &s,
                            e,
                            &barricades,
                        )
                    }) {
                        return reject(
                            Rule::EngagementRange,
                            format!(
                                "{name} cannot be set up within Engagement Range of an enemy model"
                            ),
                        );
                    }
                }
                self.place(&planned);
                self.for_combined(army, root, |s| s.location = Location::OnTable);
                None
            }
        };
        ev.push(GameEvent::Deployed {
            player,
            unit: self.unit_id(army, root).to_string(),
            embarked_in,
        });
        self.stage = Stage::Deployment;
        let waiting = |g: &Game, p: u8| {
            let a = g.army_of(p).expect("two armies");
            g.units[a]
                .iter()
                .any(|u| u.location == Location::NotDeployed)
        };
        if waiting(self, opponent(player)) {
            self.active_player = opponent(player);
        } else if !waiting(self, player) {
            self.after_deployment(ev);
        }
        Ok(())
    }

    /// Puts models where a set-up placed them.
    pub(super) fn place(
        &mut self,
        planned: &[(crate::game::sight::ModelRef, crate::geometry::Vec3, f32)],
    ) {
        for (r, at, facing) in planned {
            let m = &mut self.scene.armies[r.army].units[r.unit].models[r.model];
            m.position = *at;
            m.facing = *facing;
        }
    }
}
