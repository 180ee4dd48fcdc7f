//! How strongly the computer plays: the difficulty levels of [`super::Ai`].

use serde::{Deserialize, Serialize};

use crate::game::save::ComputerSeat;

/// A difficulty level of the computer opponent (`--ai easy|normal|hard`, the menu's
/// "Computer level").
///
/// - `Easy`: the first opponent: it holds objectives, shoots and fights at the best expected
///   target, charges on good odds, and answers shooting with Go to Ground or Smokescreen.
/// - `Normal`: the whole game: roles (melee units seek combat within their Move + 12",
///   shooting units keep their range), charges weighed by expected melee value, charge,
///   Pile-in and Consolidation moves made model by model, Fall Back when staying loses more,
///   Advance when a Normal move falls short and nothing is in reach, no charge that leaves an
///   objective only the charging unit holds, units matched to objective markers so that the
///   most are reached soonest, Deep Strike, Strategic Reserves (where only the home marker
///   is within a unit's first move and no melee unit rides a TRANSPORT),
///   transports (an empty one holds objective markers), VEHICLE and MONSTER moves measured
///   round ruin walls (no dead ends) with hulls turned to face where they go, and every
///   Core Stratagem at its trigger when it pays.
/// - `Hard`: `Normal` with lookahead: each unit's move towards the enemy is scored against
///   the opponent's best reply (the exact expected damage the enemy can deal there next
///   turn; a move onto an objective marker goes there regardless), targets are
///   chosen to destroy whole units, objectives are weighed by what the mission scores,
///   Pile In and Consolidate keep objectives the unit alone holds, and spare CP go on
///   Command Re-rolls (a short Advance roll, the Wound roll of a unit's shots).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Default,
    Serialize,
    Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// The first opponent (objectives, best targets, safe charges).
    Easy,
    /// The whole game: roles, reserves, transports, every Core Stratagem.
    Normal,
    /// Normal with lookahead on the opponent's best reply.
    #[default]
    Hard,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Normal, Level::Hard];

    /// The level's name as the CLI and the menu spell it: "easy", "normal", "hard".
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }
}

impl Level {
    /// The computer's seat a save records for a game where it plays `player` at this level.
    pub fn seat(self, player: u8) -> ComputerSeat {
        ComputerSeat {
            player,
            level: self.name().to_string(),
        }
    }

    /// The player and level a save's computer seat names.
    ///
    /// # Errors
    /// The player is not 1 or 2, or the level is not easy, normal or hard.
    pub fn of_seat(seat: &ComputerSeat) -> Result<(u8, Level), String> {
        if !(1..=2).contains(&seat.player) {
            return Err(format!("player {} is not 1 or 2", seat.player));
        }
        Ok((seat.player, seat.level.parse()?))
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Level {
    type Err = String;

    /// Parses "easy", "normal" or "hard" (any case).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("unknown computer level '{s}': use easy, normal or hard"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_levels_are_refused() {
        for l in Level::ALL {
            assert_eq!(l.name().parse::<Level>(), Ok(l));
            assert_eq!(l.to_string().to_uppercase().parse::<Level>(), Ok(l));
        }
        let e = "expert".parse::<Level>().unwrap_err();
        assert!(e.contains("expert") && e.contains("hard"), "{e}");
    }
}
