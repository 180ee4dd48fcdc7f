//! Scout moves: after deployment and the roll-off for the first turn, before the first battle
//! round, each unit whose models all have Scouts X" may make a Normal move of up to X inches
//! (the lowest value in an Attached unit), ending more than 9" horizontally from every enemy
//! model; the player taking the first turn moves first.
//!
//! Core Rules: Scouts; Rules Commentary: Duplicated Core Abilities (Scouts with two values).

use super::command::ModelPath;
use super::event::GameEvent;
use super::rejection::{Rejection, Rule, reject};
use super::state::Game;
use super::table::MoveKind;
use crate::geometry::measure::horizontal_distance;
use crate::rules::constants::MEASURE_TOLERANCE_INCHES;
use crate::rules::movement::{MoveMode, Moved};

impl Game {
    /// The Scout move distance of the combined unit (inches): the lowest Scouts value among
    /// its units, if every one of them has Scouts (Rules Commentary: Duplicated Core
    /// Abilities, an Attached unit with Scouts 6" and 9" moves 6").
    pub fn scouts_inches(&self, army: usize, unit: usize) -> Option<f32> {
        self.combined(army, unit)
            .iter()
            .map(|&u| self.scene.armies[army].units[u].datasheet.scouts_inches())
            .try_fold(f32::INFINITY, |lo, x| x.map(|x| lo.min(x)))
    }

    pub(super) fn scout_move(
        &mut self,
        player: u8,
        id: &str,
        mode: MoveMode,
        paths: &[ModelPath],
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        if player != self.active_player {
            return reject(
                Rule::Scouts,
                format!("player {} makes Scout moves now", self.active_player),
            );
        }
        if mode != MoveMode::Normal {
            return reject(Rule::Scouts, "a Scout move is a Normal move");
        }
        let (army, root) = self.own_root(player, id)?;
        let Some(inches) = self.scouts_inches(army, root) else {
            return reject(
                Rule::Scouts,
                format!("every model of '{id}' needs the Scouts ability to make a Scout move"),
            );
        };
        if self.live_models(army, root).is_empty() {
            return reject(Rule::Scouts, format!("'{id}' is not on the battlefield"));
        }
        if self.units[army][root].moved.is_some() {
            return reject(
                Rule::Scouts,
                format!("'{id}' has already made its Scout move"),
            );
        }
        let planned = self.plan_move(army, root, paths, &|_| inches, MoveKind::Normal)?;
        self.apply_planned(&planned);
        let enemies: Vec<_> = self.enemy_solids(army);
        for r in self.live_models(army, root) {
            let s = self.solid(r);
            let near = enemies
                .iter()
                .map(|e| horizontal_distance(&s, e))
                .fold(f32::INFINITY, f32::min);
            let apart = self.scene.edition().scouts_enemy_distance_inches;
            if near <= apart + MEASURE_TOLERANCE_INCHES {
                return reject(
                    Rule::Scouts,
                    format!(
                        "{} would end {near:.2}\" from an enemy model; a Scout move ends more than {apart}\" away",
                        self.model_name(r)
                    ),
                );
            }
        }
        self.for_combined(army, root, |s| {
            s.moved = Some(Moved::Moved(MoveMode::Normal))
        });
        ev.push(GameEvent::Moved {
            player,
            unit: self.unit_id(army, root).to_string(),
            mode,
            advance_roll: None,
            longest_inches: planned.longest,
        });
        Ok(())
    }
}
