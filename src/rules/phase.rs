//! The order of a battle: battle rounds, turns and phases, and the sub-steps the engine tracks.
//!
//! Core Rules: the battle round (each player takes a turn of five phases: Command, Movement,
//! Shooting, Charge, Fight). The Bevy states in `sim::battle` mirror these types.

use serde::{Deserialize, Serialize};

/// A phase of a player's turn, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// Command phase: command points, then the Battle-shock step.
    Command,
    /// Movement phase: moving units, then Reinforcements.
    Movement,
    /// Shooting phase.
    Shooting,
    /// Charge phase.
    Charge,
    /// Fight phase: Fights First units, then the remaining combats.
    Fight,
}

impl Phase {
    /// The phases of a turn, in order.
    pub const ORDER: [Phase; 5] = [
        Phase::Command,
        Phase::Movement,
        Phase::Shooting,
        Phase::Charge,
        Phase::Fight,
    ];

    /// The phase after this one in the same turn, or `None` after the Fight phase.
    pub fn next(self) -> Option<Phase> {
        let i = Self::ORDER.iter().position(|p| *p == self)?;
        Self::ORDER.get(i + 1).copied()
    }

    /// The phase's name as players say it ("Movement phase").
    pub fn name(self) -> &'static str {
        match self {
            Phase::Command => "Command phase",
            Phase::Movement => "Movement phase",
            Phase::Shooting => "Shooting phase",
            Phase::Charge => "Charge phase",
            Phase::Fight => "Fight phase",
        }
    }
}

/// Where the game is, from setting up to the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Stage {
    /// Declaring Reserves (before the first unit is deployed).
    Setup,
    /// Players alternate setting up units in their deployment zones.
    Deployment,
    /// After deployment and the roll-off for the first turn, before the first battle round:
    /// units with Scouts may make their Scout move, the first player's first (Core Rules:
    /// Scouts).
    Scouts,
    /// Battle rounds.
    Battle,
    /// The battle is over.
    GameOver,
}

/// The two steps of the Fight phase (Core Rules: Fight phase).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FightStep {
    /// Units with Fights First (e.g. those that charged this turn) fight first.
    FightsFirst,
    /// Then every other eligible unit.
    RemainingCombats,
    /// 11th edition: before any unit fights, every eligible unit may Pile In, the active
    /// player's first (11th Core Rules 12.02).
    PileIn,
    /// 11th edition: after all fighting, every unit that fought Consolidates, the active
    /// player's first (11th Core Rules 12.07).
    Consolidate,
}

impl FightStep {
    /// The step's name as the Core Rules write it: "Fights First", "Remaining Combats", or
    /// under 11th "Pile In" and "Consolidate".
    pub fn name(self) -> &'static str {
        match self {
            FightStep::FightsFirst => "Fights First",
            FightStep::RemainingCombats => "Remaining Combats",
            FightStep::PileIn => "Pile In",
            FightStep::Consolidate => "Consolidate",
        }
    }
}

/// The other player (players are 1 and 2).
pub fn opponent(player: u8) -> u8 {
    if player == 1 { 2 } else { 1 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_run_command_to_fight_then_end() {
        let mut p = Phase::Command;
        let mut seen = vec![p];
        while let Some(n) = p.next() {
            seen.push(n);
            p = n;
        }
        assert_eq!(seen, Phase::ORDER);
        assert_eq!(opponent(1), 2);
        assert_eq!(opponent(2), 1);
    }
}
