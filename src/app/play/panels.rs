//! Which order panels a unit gets at this moment of the game.

use crate::game::Game;
use crate::rules::phase::{Phase, Stage};

/// Which order panels a unit gets now.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Panels {
    /// Declare Reserves (setup).
    pub reserves: bool,
    /// Deploy (deployment, the unit not yet deployed and its player deploying).
    pub deploy: bool,
    /// Move, Advance, Fall Back, Remain Stationary.
    pub movement: bool,
    /// Choose weapons and targets, see the odds, shoot.
    pub shooting: bool,
    /// Declare a charge, see the odds; then the charge move.
    pub charge: bool,
    /// Pile In, Fight, Consolidate.
    pub fight: bool,
}

/// The order panels shown for the unit (`army`, `unit`) at this moment of `game`: only the
/// acting player's units get any, and only those the phase lets act.
pub fn panels(game: &Game, army: usize, unit: usize) -> Panels {
    let mut p = Panels::default();
    let player = game.player_of(army);
    let root = game.combined(army, unit)[0];
    let state = &game.units[army][root];
    match game.stage {
        Stage::Setup => {
            p.reserves = true;
            p.deploy = player == game.active_player;
        }
        Stage::Deployment => {
            p.deploy =
                player == game.active_player && state.location == crate::game::Location::NotDeployed
        }
        Stage::Scouts => {
            p.movement = player == game.active_player
                && state.moved.is_none()
                && game.scouts_inches(army, root).is_some()
                && !game.live_models(army, root).is_empty();
        }
        Stage::Battle => {
            let on_table = !game.live_models(army, root).is_empty();
            if player == game.active_player && on_table {
                match game.phase {
                    Phase::Movement => p.movement = state.moved.is_none(),
                    Phase::Shooting => p.shooting = !state.shot,
                    Phase::Charge => {
                        p.charge = !state.declared_charge
                            || game
                                .charge
                                .as_ref()
                                .is_some_and(|c| c.army == army && c.unit == root)
                    }
                    _ => {}
                }
            }
            if game.phase == Phase::Fight && on_table {
                let current = game
                    .fight
                    .as_ref()
                    .and_then(|f| f.current)
                    .is_some_and(|(a, u, _)| a == army && u == root);
                let may_pick = game.next_to_fight().is_some_and(|(picker, ids)| {
                    picker == player && ids.iter().any(|id| id == game.unit_id(army, root))
                });
                p.fight = current || may_pick;
            }
        }
        Stage::GameOver => {}
    }
    p
}
