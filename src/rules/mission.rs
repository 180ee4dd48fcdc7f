//! Missions as data: objective markers, scoring rules and battle rounds.
//!
//! Core Rules: Objective Markers (Objective Control, Level of Control); the Only War mission.

use serde::{Deserialize, Serialize};

use crate::geometry::Point;

/// An objective marker (40 mm round) placed by its centre.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Objective", deny_unknown_fields)]
pub struct ObjectiveMarker {
    /// Identifier, unique in the mission (e.g. "centre").
    pub id: String,
    /// Centre on the table (inches).
    pub at: Point,
    /// Height of the marker above the table (inches).
    #[serde(default)]
    pub z: f32,
}

/// When a scoring rule is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ScoringTiming {
    /// At the end of the active player's Command phase.
    EndOfCommandPhase,
    /// At the end of the active player's turn.
    EndOfTurn,
    /// At the end of the battle round.
    EndOfBattleRound,
}

/// A scoring rule of a mission, as data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ScoringRule {
    /// `vp_per_objective` VP for each objective the player controls, at most `max_per_turn` VP
    /// each time, from battle round `from_round`.
    HoldObjectives {
        /// Victory points per controlled objective.
        vp_per_objective: u32,
        /// Most VP scored by this rule each time it is checked.
        max_per_turn: u32,
        /// First battle round in which it scores.
        from_round: u8,
        /// When it is checked.
        timing: ScoringTiming,
    },
    /// `vp` VP when the player controls more objectives than the opponent.
    HoldMore {
        /// Victory points scored.
        vp: u32,
        /// First battle round in which it scores.
        from_round: u8,
        /// When it is checked.
        timing: ScoringTiming,
    },
}

/// A mission: battle rounds, objective markers and scoring.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mission {
    /// Mission name.
    pub name: String,
    /// Where the mission comes from.
    #[serde(default)]
    pub source: String,
    /// Number of battle rounds (5 in matched play).
    #[serde(default = "default_rounds")]
    pub battle_rounds: u8,
    /// Objective markers; empty means the deployment map's markers are used.
    #[serde(default)]
    pub objectives: Vec<ObjectiveMarker>,
    /// Scoring rules.
    #[serde(default)]
    pub scoring: Vec<ScoringRule>,
}

fn default_rounds() -> u8 {
    super::constants::BATTLE_ROUNDS
}
