//! The end-of-game summary: the winner, each player's VP after every battle round (for the
//! chart), and each side's casualties by unit against its Starting Strength.

use super::ActionLog;
use crate::game::Game;
use crate::game::state::Location;

/// One unit's losses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitLosses {
    /// The unit's name as its card shows it.
    pub name: String,
    /// Models it started with (its Starting Strength).
    pub starting_strength: usize,
    /// Models destroyed.
    pub models_lost: usize,
    /// Wounds lost by its models still in play (a damaged vehicle or character).
    pub wounds_lost: u32,
    /// Every model destroyed (or it never arrived from Reserves).
    pub destroyed: bool,
    /// Its points, if the army list gives them.
    pub points: Option<u32>,
}

/// What the end-of-game screen shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSummary {
    /// The winner (None: a draw, or the game is not over).
    pub winner: Option<u8>,
    /// Final VP of players 1 and 2.
    pub vp: [u32; 2],
    /// VP of players 1 and 2 at the end of each battle round (index 0: round 1), as the log
    /// scored them.
    pub vp_by_round: Vec<[u32; 2]>,
    /// Players 1 and 2's units that lost models or wounds, destroyed units first, then most
    /// models lost.
    pub casualties: [Vec<UnitLosses>; 2],
    /// Points destroyed of players 1 and 2's armies (units wholly destroyed).
    pub points_lost: [u32; 2],
}

impl GameSummary {
    /// The summary of `game` with the VP history of `log` (its entries' rounds and the VP
    /// totals its events carried).
    pub fn of(game: &Game, log: &ActionLog) -> GameSummary {
        let mut casualties: [Vec<UnitLosses>; 2] = Default::default();
        let mut points_lost = [0u32; 2];
        for (army, units) in game.units.iter().enumerate() {
            let player = game.player_of(army);
            let side = usize::from(player.clamp(1, 2) - 1);
            for (u, state) in units.iter().enumerate() {
                let data = &game.scene.armies[army].units[u];
                let lost = state.models.iter().filter(|m| !m.alive).count();
                let wounds_lost: u32 = state
                    .models
                    .iter()
                    .zip(&data.models)
                    .filter(|(m, _)| m.alive)
                    .map(|(m, d)| u32::from(d.characteristics.wounds.saturating_sub(m.wounds)))
                    .sum();
                let destroyed = state.location == Location::Destroyed
                    || (lost == state.models.len() && !state.models.is_empty());
                if lost == 0 && !destroyed && wounds_lost == 0 {
                    continue;
                }
                if destroyed {
                    points_lost[side] += data.points.unwrap_or(0);
                }
                casualties[side].push(UnitLosses {
                    name: data.name.clone(),
                    starting_strength: state.models.len(),
                    models_lost: if destroyed { state.models.len() } else { lost },
                    wounds_lost: if destroyed { 0 } else { wounds_lost },
                    destroyed,
                    points: data.points,
                });
            }
        }
        for c in &mut casualties {
            c.sort_by(|a, b| {
                b.destroyed
                    .cmp(&a.destroyed)
                    .then(b.models_lost.cmp(&a.models_lost))
            });
        }
        GameSummary {
            winner: game.winner,
            vp: game.vp,
            vp_by_round: log.vp_by_round.clone(),
            casualties,
            points_lost,
        }
    }
}
