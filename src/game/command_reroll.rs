//! Kept Command Re-rolls spent on the tests the battle makes outside the attack sequence:
//! Battle-shock and Desperate Escape. (Advance and Charge rolls are re-rolled where they are
//! made; attack rolls through [`crate::rules::attack::CommandRerolls`].)
//!
//! Core Stratagems: Command Re-roll (used just after a roll; here the unit keeps it from the
//! Stratagem for its next roll of that kind, and spends it on a failed test); Rules
//! Commentary: Re-rolls (re-rolling 2D6 re-rolls both dice; never twice).

use super::command::RerollRoll;
use super::event::GameEvent;
use super::state::Game;
use crate::game::sight::ModelRef;
use crate::rules::constants::DESPERATE_ESCAPE_FAILS_UP_TO;
use crate::rules::rng::{LeadershipTest, leadership_test};

impl Game {
    /// The Battle-shock test of the combined unit (`army`, `unit`) after its first roll
    /// `test` against Leadership `leadership`: a failure is re-rolled (both D6) when the unit
    /// kept a Command Re-roll for it, unless Insane Bravery (`bravery`) already passes it.
    pub(super) fn command_reroll_battle_shock(
        &mut self,
        army: usize,
        unit: usize,
        leadership: u8,
        test: LeadershipTest,
        bravery: bool,
        ev: &mut Vec<GameEvent>,
    ) -> LeadershipTest {
        if test.passed || bravery || !self.take_command_reroll(army, unit, RerollRoll::BattleShock)
        {
            return test;
        }
        ev.push(GameEvent::CommandRerolled {
            player: self.player_of(army),
            unit: self.unit_id(army, unit).to_string(),
            roll: RerollRoll::BattleShock,
            replaced: test.dice.to_vec(),
        });
        leadership_test(&mut self.rng, leadership)
    }

    /// The Desperate Escape D6 of model `r` of the combined unit (`army`, `unit`) after its
    /// first roll `roll`: a failure is re-rolled when the unit kept a Command Re-roll for it
    /// (once: the first failed test of the Fall Back).
    pub(super) fn command_reroll_desperate_escape(
        &mut self,
        army: usize,
        unit: usize,
        r: ModelRef,
        roll: u8,
        ev: &mut Vec<GameEvent>,
    ) -> u8 {
        if roll > DESPERATE_ESCAPE_FAILS_UP_TO
            || !self.take_command_reroll(army, unit, RerollRoll::DesperateEscape)
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
}
