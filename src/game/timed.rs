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
                Modifier::Reanimate(amount) => {
                    let n = amount.roll(&mut self.rng).value.max(0) as u32;
                    self.reanimate(army, unit, &source, n, ev);
                }
                Modifier::MortalWounds { on, amount, within } => {
                    let enemy = 1 - army;
                    for e in self.unit_roots(enemy) {
                        let close = self.models_within(
                            &self.live_models(army, unit),
                            &self.live_models(enemy, e),
                            within,
                        );
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

    /// The unit reanimates `n` wounds, one at a time (Necrons' Reanimation Protocols): each
    /// heals the model that has lost the most wounds, or, when none has, returns one destroyed
    /// model of the unit with 1 wound, set up where it stood if that is still legal, else next
    /// to a model of its unit: on the battlefield, on no other model, outside every wall,
    /// within 2" of its unit (Unit Coherency) and outside Engagement Range of enemy models.
    /// Wounds with no model to heal or return, or no room, are lost.
    pub(super) fn reanimate(
        &mut self,
        army: usize,
        unit: usize,
        ability: &str,
        n: u32,
        ev: &mut Vec<GameEvent>,
    ) {
        self.restore(army, unit, ability, n, true, ev);
    }

    /// The passed Battle-shock test of a unit whose rules restore it
    /// ([`crate::rules::effect::Modifier::RestoreOnPassedBattleShock`]; Daemonic
    /// Manifestation): a BATTLELINE unit gets up to `n` destroyed models back, another unit's
    /// most wounded model regains up to `n` lost wounds.
    pub(super) fn restore_on_passed_test(
        &mut self,
        army: usize,
        root: usize,
        ability: &str,
        n: u32,
        ev: &mut Vec<GameEvent>,
    ) {
        if self.has_keyword(army, root, "BATTLELINE") {
            self.restore(army, root, ability, n, false, ev);
            return;
        }
        let full = |g: &Game, m: usize| {
            g.scene.armies[army].units[root].models[m]
                .characteristics
                .wounds
        };
        let wounded = (0..self.units[army][root].models.len())
            .filter(|&m| {
                let s = &self.units[army][root].models[m];
                s.alive && s.wounds < full(self, m)
            })
            .max_by_key(|&m| full(self, m) - self.units[army][root].models[m].wounds);
        if let Some(m) = wounded {
            let lost = full(self, m) - self.units[army][root].models[m].wounds;
            let regained = lost.min(n.min(255) as u8);
            self.units[army][root].models[m].wounds += regained;
            let r = ModelRef {
                army,
                unit: root,
                model: m,
            };
            ev.push(GameEvent::WoundsRegained {
                player: self.player_of(army),
                model: self.model_name(r),
                ability: ability.to_string(),
                regained,
                wounds: self.units[army][root].models[m].wounds,
            });
        }
    }

    /// Restores `n` wounds to the unit: with `heal`, each heals the most wounded model first;
    /// then (or without `heal`, only) each returns a destroyed model with 1 wound.
    fn restore(
        &mut self,
        army: usize,
        unit: usize,
        ability: &str,
        n: u32,
        heal: bool,
        ev: &mut Vec<GameEvent>,
    ) {
        let player = self.player_of(army);
        let mut healed: Vec<(usize, u8)> = Vec::new();
        for _ in 0..n {
            let full = |g: &Game, m: usize| {
                g.scene.armies[army].units[unit].models[m]
                    .characteristics
                    .wounds
            };
            let wounded = (0..self.units[army][unit].models.len())
                .filter(|&m| {
                    let s = &self.units[army][unit].models[m];
                    s.alive && s.wounds < full(self, m)
                })
                .max_by_key(|&m| full(self, m) - self.units[army][unit].models[m].wounds);
            if let Some(m) = wounded.filter(|_| heal) {
                self.units[army][unit].models[m].wounds += 1;
                match healed.iter_mut().find(|(x, _)| *x == m) {
                    Some((_, k)) => *k += 1,
                    None => healed.push((m, 1)),
                }
                continue;
            }
            let Some(m) = (0..self.units[army][unit].models.len())
                .find(|&m| !self.units[army][unit].models[m].alive)
            else {
                break;
            };
            let r = ModelRef {
                army,
                unit,
                model: m,
            };
            let Some((at, facing)) = self.return_spot(r) else {
                break;
            };
            self.place(&[(r, at, facing)]);
            let s = &mut self.units[army][unit].models[m];
            s.alive = true;
            s.wounds = 1;
            s.allocated_this_phase = false;
            ev.push(GameEvent::ModelReturned {
                player,
                model: self.model_name(r),
                ability: ability.to_string(),
                at: (at.x, at.y, at.z),
            });
        }
        for (m, regained) in healed {
            let r = ModelRef {
                army,
                unit,
                model: m,
            };
            ev.push(GameEvent::WoundsRegained {
                player,
                model: self.model_name(r),
                ability: ability.to_string(),
                regained,
                wounds: self.units[army][unit].models[m].wounds,
            });
        }
    }

    /// Where a destroyed model `r` can be set up again beside its unit: its last position if
    /// still legal, else the first legal point of rings around the unit's models.
    fn return_spot(&self, r: ModelRef) -> Option<(crate::geometry::Vec3, f32)> {
        use crate::geometry::Vec3;
        use crate::geometry::measure::model_distance;
        use crate::rules::constants::{COHERENCY_HORIZONTAL_INCHES, MEASURE_TOLERANCE_INCHES};
        let model = &self.scene.armies[r.army].units[r.unit].models[r.model];
        let (last, facing) = (model.position, model.facing);
        let unit = self.live_models(r.army, r.unit);
        if unit.is_empty() {
            return None;
        }
        let others: Vec<_> = self
            .all_live_models()
            .iter()
            .map(|x| self.solid(*x))
            .collect();
        let enemies = self.enemy_solids(r.army);
        let barricades = self.scene.barricade_footprints();
        let mine: Vec<_> = unit.iter().map(|x| self.solid(*x)).collect();
        let name = self.model_name(r);
        let legal = |at: Vec3| {
            let s = self.solid_at(r, at, facing);
            self.check_on_board(&s, &name).is_ok()
                && self.check_standing(r, at, &name).is_ok()
                && self.wall_crossed(&s).is_none()
                && !others.iter().any(|o| {
                    crate::geometry::bases_overlap(
                        (&s.base, s.centre, s.facing),
                        (&o.base, o.centre, o.facing),
                    )
                })
                && !enemies.iter().any(|e| {
                    crate::rules::engagement::within_engagement_range_in(
                        self.scene.edition(),
                        &s,
                        e,
                        &barricades,
                    )
                })
                && mine.iter().any(|o| {
                    model_distance(&s, o).distance
                        <= COHERENCY_HORIZONTAL_INCHES - MEASURE_TOLERANCE_INCHES
                })
        };
        if legal(last) {
            return Some((last, facing));
        }
        let own = self.solid(r);
        for o in &mine {
            let reach = own.base.bounding_radius_inches() + o.base.bounding_radius_inches();
            for gap in [0.25_f32, 1.0] {
                for k in 0..16 {
                    let a = k as f32 * std::f32::consts::TAU / 16.0;
                    let d = reach + gap;
                    let at = Vec3::new(o.centre.x + d * a.cos(), o.centre.y + d * a.sin(), o.z);
                    if legal(at) {
                        return Some((at, facing));
                    }
                }
            }
        }
        None
    }
}
