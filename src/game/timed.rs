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
                self.timed_effects(army, unit, edge, ev);
            }
        }
    }

    /// The rule effects (`crate::rules::effect`) of a unit on the battlefield that happen at
    /// `edge` of the current phase, their conditions holding: `RegainWounds` for each model,
    /// and `MortalWounds`: a D6 for each enemy unit within range, each roll of `on` or more
    /// inflicting `amount` mortal wounds.
    fn timed_effects(&mut self, army: usize, unit: usize, edge: Edge, ev: &mut Vec<GameEvent>) {
        use crate::rules::effect::{Modifier, When};
        if self.units[army][unit].location != super::state::Location::OnTable
            || self.live_models(army, unit).is_empty()
        {
            return;
        }
        let (phase, active, owner) = (self.phase, self.active_player, self.player_of(army));
        let due: Vec<(String, Modifier)> = self
            .unit_effects(army, unit)
            .into_iter()
            .filter(|s| match (s.effect.when, edge) {
                (When::PhaseStart(p, t), Edge::Start) | (When::PhaseEnd(p, t), Edge::End) => {
                    p == phase && t.allows(owner, active)
                }
                _ => false,
            })
            .filter(|s| self.effect_holds(army, s))
            .flat_map(|s| {
                s.effect
                    .does
                    .iter()
                    .map(move |m| (s.source.to_string(), m.clone()))
            })
            .collect();
        for (source, m) in due {
            match m {
                Modifier::RegainWounds(n) => self.regain_wounds(army, unit, &source, n, ev),
                Modifier::MortalWounds { on, amount, within } => {
                    let enemy = 1 - army;
                    for e in self.unit_roots(enemy) {
                        let mine = self.live_models(army, unit);
                        let theirs = self.live_models(enemy, e);
                        let close = mine.iter().any(|a| {
                            theirs.iter().any(|b| {
                                crate::geometry::measure::model_distance(
                                    &self.solid(*a),
                                    &self.solid(*b),
                                )
                                .distance
                                    <= within + crate::rules::constants::MEASURE_TOLERANCE_INCHES
                            })
                        });
                        if !close {
                            continue;
                        }
                        let roll = self.rng.d6();
                        let wounds = if roll >= on {
                            amount.roll(&mut self.rng).value.max(0) as u32
                        } else {
                            0
                        };
                        self.mortal_wounds(owner, (enemy, e), vec![roll], wounds, ev);
                    }
                }
                _ => {}
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
