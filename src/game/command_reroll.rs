//! Stratagems used just after a roll, on a player's standing instruction: Command Re-roll (set
//! for one roll of a unit, used when that roll fails) and Insane Bravery (set for a unit's
//! Battle-shock test, used when it fails). Nothing is paid when the instruction is given: the
//! Stratagem is used, its CP paid and its once per phase (and Insane Bravery's once per battle)
//! spent, only when the roll calls for it; an instruction not used lapses at the end of the
//! phase ([`Game::begin_phase`](super::Game)).
//!
//! Here: the Battle-shock and Desperate Escape tests, the Advance roll and the attack rolls'
//! accounts. (A Charge roll, and an Advance roll already made, are re-rolled when the
//! Stratagem is used; attack rolls through [`crate::rules::attack::CommandRerolls`].)
//!
//! Core Stratagems: Command Re-roll (just after a roll), Insane Bravery (just after a failed
//! Battle-shock test, once per battle); Core Rules: Stratagems (each once per phase);
//! Rules Commentary: Re-rolls (re-rolling 2D6 re-rolls both dice; never twice).

use super::command::RerollRoll;
use super::event::GameEvent;
use super::state::Game;
use crate::game::sight::ModelRef;
use crate::rules::attack::CommandReroll;
use crate::rules::attack::events::AttackEvent;
use crate::rules::constants::DESPERATE_ESCAPE_FAILS_UP_TO;
use crate::rules::rng::{LeadershipTest, leadership_test_on};
use crate::rules::stratagem::Stratagem;

/// The highest Advance roll a standing Command Re-roll re-rolls: below the D6's average (3.5).
const ADVANCE_REROLL_UP_TO: u8 = 3;

impl Game {
    /// Whether the Stratagem `stratagem` can be used now by the player owning army `army` on
    /// the unit `unit`: not yet used by that player this phase, enough CP, and the unit not
    /// Battle-shocked (Core Rules: Stratagems; Battle-shock).
    fn stratagem_affordable(&self, army: usize, unit: usize, stratagem: Stratagem) -> bool {
        let player = self.player_of(army);
        !self.stratagems_used.contains(&(player, stratagem))
            && self.cp_of(player) >= stratagem.cost_in(self.scene.edition())
            && !self.units[army][unit].battle_shocked
    }

    /// The roll the unit (`army`, `unit`) has a Command Re-roll set for, when the Stratagem can
    /// be used now (see [`RerollRoll`]).
    pub(super) fn command_reroll_ready(&self, army: usize, unit: usize) -> Option<RerollRoll> {
        self.units[army][unit]
            .command_reroll
            .filter(|_| self.stratagem_affordable(army, unit, Stratagem::CommandReroll))
    }

    /// Uses the Command Re-roll set for the unit (`army`, `unit`) now that its roll calls for
    /// it: pays its CP, marks it used this phase and logs it. Every other Command Re-roll its
    /// player had set lapses (once per phase).
    pub(super) fn spend_command_reroll(
        &mut self,
        army: usize,
        unit: usize,
        ev: &mut Vec<GameEvent>,
    ) {
        self.pay_stratagem(army, unit, Stratagem::CommandReroll, ev);
        for u in &mut self.units[army] {
            u.command_reroll = None;
        }
    }

    /// Uses the unit's Command Re-roll set for `roll`, if it has one and the Stratagem can be
    /// used now; true when it was used (the caller re-rolls). Call it only for a roll that
    /// calls for the re-roll (failed, or below average).
    pub(super) fn take_command_reroll(
        &mut self,
        army: usize,
        unit: usize,
        roll: RerollRoll,
        ev: &mut Vec<GameEvent>,
    ) -> bool {
        if self.command_reroll_ready(army, unit) != Some(roll) {
            return false;
        }
        self.spend_command_reroll(army, unit, ev);
        true
    }

    /// After the attacks of the unit `attacker` (army, unit) at the unit `defender` were
    /// rolled with the Command Re-rolls `held`: uses (and pays) each side's Command Re-roll
    /// that the attack `log` shows was spent. A held re-roll the dice never called for stays
    /// set.
    pub(super) fn settle_attack_rerolls(
        &mut self,
        attacker: (usize, usize),
        defender: (usize, usize),
        held: (CommandReroll, bool),
        log: &[AttackEvent],
        ev: &mut Vec<GameEvent>,
    ) {
        let attacker_used = held.0 != CommandReroll::None
            && log.iter().any(|e| match e {
                AttackEvent::HitRoll { rerolled_by, .. }
                | AttackEvent::WoundRoll { rerolled_by, .. } => {
                    *rerolled_by == Some("Command Re-roll")
                }
                AttackEvent::CommandReroll { of, .. } => of != "saving throw",
                _ => false,
            });
        let defender_used = held.1
            && log.iter().any(
                |e| matches!(e, AttackEvent::CommandReroll { of, .. } if of == "saving throw"),
            );
        if attacker_used {
            self.spend_command_reroll(attacker.0, attacker.1, ev);
        }
        if defender_used {
            self.spend_command_reroll(defender.0, defender.1, ev);
        }
    }

    /// The Battle-shock test of the combined unit (`army`, `unit`) after its first roll
    /// `test` against Leadership `leadership`: a failure is re-rolled (both D6) when the unit
    /// has a Command Re-roll set for it, which is used only then.
    pub(super) fn command_reroll_battle_shock(
        &mut self,
        army: usize,
        unit: usize,
        leadership: u8,
        test: LeadershipTest,
        ev: &mut Vec<GameEvent>,
    ) -> LeadershipTest {
        if test.passed || !self.take_command_reroll(army, unit, RerollRoll::BattleShock, ev) {
            return test;
        }
        ev.push(GameEvent::CommandRerolled {
            player: self.player_of(army),
            unit: self.unit_id(army, unit).to_string(),
            roll: RerollRoll::BattleShock,
            replaced: test.dice.iter().copied().chain(test.third).collect(),
        });
        let dice = if test.third.is_some() { 3 } else { 2 };
        leadership_test_on(&mut self.rng, leadership, dice)
    }

    /// A failed Battle-shock test of the combined unit (`army`, `unit`): when Insane Bravery is
    /// set for it and can be used now (not yet used this battle, enough CP), it is used (paid,
    /// its once per battle spent) and the test is passed instead; true then. Any other Insane
    /// Bravery its player had set lapses.
    pub(super) fn insane_bravery_on_failure(
        &mut self,
        army: usize,
        unit: usize,
        ev: &mut Vec<GameEvent>,
    ) -> bool {
        let i = usize::from(self.player_of(army) - 1);
        let set = self
            .combined(army, unit)
            .iter()
            .any(|&x| self.units[army][x].insane_bravery);
        if !set
            || self.insane_bravery_used[i]
            || !self.stratagem_affordable(army, unit, Stratagem::InsaneBravery)
        {
            return false;
        }
        self.pay_stratagem(army, unit, Stratagem::InsaneBravery, ev);
        self.insane_bravery_used[i] = true;
        for u in &mut self.units[army] {
            u.insane_bravery = false;
        }
        true
    }

    /// The Desperate Escape D6 of model `r` of the combined unit (`army`, `unit`) after its
    /// first roll `roll`: a failure is re-rolled when the unit has a Command Re-roll set for
    /// it (once: the first failed test of the Fall Back).
    pub(super) fn command_reroll_desperate_escape(
        &mut self,
        army: usize,
        unit: usize,
        r: ModelRef,
        roll: u8,
        ev: &mut Vec<GameEvent>,
    ) -> u8 {
        if roll > DESPERATE_ESCAPE_FAILS_UP_TO
            || !self.take_command_reroll(army, unit, RerollRoll::DesperateEscape, ev)
        {
            return roll;
        }
        ev.push(GameEvent::CommandRerolled {
            player: self.player_of(army),
            unit: self.model_name(r),
            roll: RerollRoll::DesperateEscape,
            replaced: vec![roll],
        });
        self.rng.d6()
    }

    /// The Advance roll of the unit (`army`, `unit`) rolled as it moves: a D6, re-rolled when
    /// it is below the D6's average and a rule of the unit re-rolls it
    /// ([`crate::rules::effect::Modifier::RerollAdvance`]) or it has a Command Re-roll set.
    pub(super) fn advance_die(&mut self, army: usize, unit: usize, ev: &mut Vec<GameEvent>) -> u8 {
        let first = self.rng.d6();
        if first > ADVANCE_REROLL_UP_TO {
            return first;
        }
        if self.unit_may(army, unit, &crate::rules::effect::Modifier::RerollAdvance) {
            ev.push(GameEvent::RuleRerolled {
                player: self.player_of(army),
                unit: self.unit_id(army, unit).to_string(),
                roll: RerollRoll::Advance,
                replaced: vec![first],
            });
            return self.rng.d6();
        }
        if !self.take_command_reroll(army, unit, RerollRoll::Advance, ev) {
            return first;
        }
        ev.push(GameEvent::CommandRerolled {
            player: self.player_of(army),
            unit: self.unit_id(army, unit).to_string(),
            roll: RerollRoll::Advance,
            replaced: vec![first],
        });
        self.rng.d6()
    }

    /// The Advance roll with the rules' modifier ('Ere We Go: +2), never below 0.
    pub(super) fn advance_roll_total(
        &mut self,
        army: usize,
        unit: usize,
        ev: &mut Vec<GameEvent>,
    ) -> u8 {
        let die = self.advance_die(army, unit, ev);
        let bonus = self.unit_bonus(army, unit, &crate::rules::effect::Modifier::AdvanceRoll(0));
        (i32::from(die) + bonus).clamp(0, 255) as u8
    }
}
