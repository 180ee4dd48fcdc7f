//! What happened in a game, counted from its events for `wartable simulate --json`: points
//! destroyed, charges, Command points, Stratagems, objectives held, units that never acted.

use std::collections::{BTreeMap, HashSet};

use serde::Serialize;

use crate::game::{Game, GameEvent};

/// Counts of one game, per player (index 0: player 1).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct GameStats {
    /// Share (0 to 1) of each player's own army points destroyed by the end.
    pub share_destroyed: [f64; 2],
    /// Charges declared (Heroic Interventions included).
    pub charges_declared: [u32; 2],
    /// Charges that ended with a charge move.
    pub charges_made: [u32; 2],
    /// Command points gained, the starting CP included.
    pub cp_gained: [u32; 2],
    /// Command points spent on Stratagems.
    pub cp_spent: [u32; 2],
    /// Stratagems used, by name: how many times each player used each.
    pub stratagems: BTreeMap<String, [u32; 2]>,
    /// Objective markers each player controlled at the end of each battle round.
    pub objectives_per_round: Vec<[u32; 2]>,
    /// Victory points of each player at the end of each battle round.
    pub vp_per_round: Vec<[u32; 2]>,
    /// Each player's victory points at the end by source: primary, secondary, Battle Ready.
    pub vp_by_source: [[u32; 3]; 2],
    /// Units (Attached units count once) that never moved, arrived, embarked, shot,
    /// declared a charge, fought or started an action.
    pub units_never_acted: [u32; 2],
    #[serde(skip)]
    acted: HashSet<(u8, String)>,
    #[serde(skip)]
    round: u8,
}

impl GameStats {
    /// Counts the events of one accepted command; `game` is the game after it.
    pub fn record(&mut self, game: &Game, events: &[GameEvent]) {
        for e in events {
            // The whole Attached unit acts: a Leader whose Bodyguard is destroyed later
            // stands alone, and has acted with it.
            let mut acted = |player: u8, unit: &str| {
                self.acted.insert((player, unit.to_string()));
                let Some(army) = game.army_of(player) else {
                    return;
                };
                if let Some(u) = game.find_unit(army, unit) {
                    for m in game.combined(army, u) {
                        self.acted
                            .insert((player, game.unit_id(army, m).to_string()));
                    }
                }
            };
            match e {
                GameEvent::Moved { player, unit, .. }
                | GameEvent::SetUp { player, unit, .. }
                | GameEvent::Embarked { player, unit, .. }
                | GameEvent::Attacked { player, unit, .. }
                | GameEvent::PiledIn { player, unit, .. }
                | GameEvent::ActionStarted { player, unit, .. } => acted(*player, unit),
                GameEvent::ChargeDeclared { player, unit, .. } => {
                    acted(*player, unit);
                    self.charges_declared[usize::from(player - 1)] += 1;
                }
                GameEvent::ChargeMoved { player, .. } => {
                    self.charges_made[usize::from(player - 1)] += 1;
                }
                GameEvent::CommandPointsGained { player, gained, .. } => {
                    self.cp_gained[usize::from(player - 1)] += gained;
                }
                GameEvent::StratagemUsed {
                    player,
                    stratagem,
                    cost,
                    ..
                } => {
                    let i = usize::from(player - 1);
                    self.cp_spent[i] += cost;
                    self.stratagems
                        .entry(stratagem.name_in(game.scene.edition()).to_string())
                        .or_default()[i] += 1;
                }
                // Detachment Stratagems and army rule actions paid in tokens (Battle Focus).
                GameEvent::RuleStratagemUsed {
                    player,
                    stratagem,
                    cp,
                    ..
                } => {
                    let i = usize::from(player - 1);
                    self.cp_spent[i] += cp;
                    self.stratagems.entry(stratagem.clone()).or_default()[i] += 1;
                }
                _ => {}
            }
        }
        // A battle round ended: a new one began, or the game is over.
        let over = game.winner.is_some() || game.acting_player().is_none();
        if game.battle_round > self.round || (over && self.round > 0) {
            if self.round > 0 && self.objectives_per_round.len() < usize::from(self.round) {
                let held = |p: u8| game.objectives.iter().filter(|c| **c == Some(p)).count() as u32;
                self.objectives_per_round.push([held(1), held(2)]);
                self.vp_per_round.push(game.vp);
            }
            self.round = game.battle_round;
        }
    }

    /// The counts that need the end of the game: points destroyed and units that never acted.
    pub fn finish(&mut self, game: &Game) {
        for player in [1u8, 2] {
            let i = usize::from(player - 1);
            let Some(army) = game.army_of(player) else {
                continue;
            };
            let units = &game.scene.armies[army].units;
            let total: u32 = units.iter().map(|u| u.points.unwrap_or(0)).sum();
            let destroyed: u32 = (0..units.len())
                .filter(|&u| game.live_models_anywhere(army, u).is_empty())
                .map(|u| units[u].points.unwrap_or(0))
                .sum();
            self.share_destroyed[i] = f64::from(destroyed) / f64::from(total.max(1));
            self.vp_by_source[i] = [
                game.mission.primary_vp[i],
                game.mission.secondary_vp[i],
                game.mission.battle_ready_vp[i],
            ];
            self.units_never_acted[i] = game
                .unit_roots(army)
                .into_iter()
                .filter(|&u| {
                    !game.combined(army, u).iter().any(|&m| {
                        self.acted
                            .contains(&(player, game.unit_id(army, m).to_string()))
                    })
                })
                .count() as u32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::movement::MoveMode;

    /// A Leader that moved with its Bodyguard has acted, also once the Bodyguard is gone and
    /// the Leader stands alone (it was counted as never acting).
    #[test]
    fn a_leader_left_alone_has_acted_with_its_bodyguard() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let scene = crate::data::load_scene(&root.join("scenes/default.ron")).unwrap();
        let (mut game, _) = Game::start(scene, 1);
        let army = game.army_of(1).unwrap();
        let captain = game.find_unit(army, "captain").unwrap();
        let intercessors = game.find_unit(army, "intercessors").unwrap();
        assert_eq!(game.units[army][captain].leading, Some(intercessors));
        let mut stats = GameStats::default();
        let moved = GameEvent::Moved {
            player: 1,
            unit: "intercessors".to_string(),
            mode: MoveMode::Normal,
            advance_roll: None,
            longest_inches: 5.0,
        };
        stats.record(&game, &[moved]);
        // The Bodyguard is destroyed: the Captain is a unit of its own.
        game.units[army][captain].leading = None;
        stats.finish(&game);
        let roots = game.unit_roots(army).len() as u32;
        assert_eq!(stats.units_never_acted[0], roots - 2);
    }
}
