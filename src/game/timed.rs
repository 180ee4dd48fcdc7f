//! Timed abilities: datasheet abilities that happen by themselves at the start or the end of a
//! phase (the datasheet's `timed_abilities`), such as the Trukk's Grot Riggers.
//!
//! Rules Commentary: Start of the battle round/turn/phase and The Turn/the Phase (a rule for
//! "the Command phase" happens in both players' Command phases; "your Command phase" only in
//! the owner's).

use super::event::GameEvent;
use super::state::Game;
use crate::game::sight::ModelRef;
use crate::rules::abilities::{Edge, Effect, TimedAbility};

impl Game {
    /// Applies every timed ability of the units on the battlefield that happens at `edge` of
    /// the current phase in the active player's turn, army by army in list order (Rules
    /// Commentary: Start of the battle round/turn/phase, The Turn/the Phase).
    pub(super) fn timed_abilities(&mut self, edge: Edge, ev: &mut Vec<GameEvent>) {
        let (phase, active) = (self.phase, self.active_player);
        for army in 0..self.units.len() {
            let owner = self.player_of(army);
            for unit in 0..self.units[army].len() {
                let due: Vec<TimedAbility> = self.scene.armies[army].units[unit]
                    .datasheet
                    .timed_abilities
                    .iter()
                    .filter(|a| a.when.applies(edge, phase, owner, active))
                    .cloned()
                    .collect();
                for ability in due {
                    match ability.effect {
                        Effect::RegainWounds(n) => {
                            self.regain_wounds(army, unit, &ability.name, n, ev)
                        }
                    }
                }
            }
        }
    }

    /// Each model of the unit on the battlefield that has lost wounds regains up to `n` of
    /// them, never above its Wounds characteristic.
    fn regain_wounds(
        &mut self,
        army: usize,
        unit: usize,
        ability: &str,
        n: u8,
        ev: &mut Vec<GameEvent>,
    ) {
        for model in 0..self.units[army][unit].models.len() {
            let full = self.scene.armies[army].units[unit].models[model]
                .characteristics
                .wounds;
            let r = ModelRef { army, unit, model };
            if !self.on_table(r) {
                continue;
            }
            let m = &mut self.units[army][unit].models[model];
            let regained = n.min(full.saturating_sub(m.wounds));
            if regained == 0 {
                continue;
            }
            m.wounds += regained;
            let wounds = m.wounds;
            ev.push(GameEvent::WoundsRegained {
                player: self.player_of(army),
                model: self.model_name(r),
                ability: ability.to_string(),
                regained,
                wounds,
            });
        }
    }
}
