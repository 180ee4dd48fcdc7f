//! Which order panels a unit gets at this moment of the game, its status words, its one-line
//! strip, and the side panels' starting widths.

use crate::game::Game;
use crate::rules::movement::{MoveMode, Moved};
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
    /// Arrive from Reserves (placed by a click on the table).
    pub arrive: bool,
    /// Disembark from its TRANSPORT (placed by a click on the table).
    pub disembark: bool,
    /// Embark in a friendly TRANSPORT on the table.
    pub embark: bool,
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
                    Phase::Movement => {
                        p.movement = state.moved.is_none();
                        // Only INFANTRY embark, in a friendly TRANSPORT on the table.
                        p.embark = !transports(game, army).is_empty()
                            && game.combined(army, root).iter().all(|&u| {
                                game.scene.armies[army].units[u]
                                    .datasheet
                                    .has_keyword("INFANTRY")
                            });
                    }
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
            if player == game.active_player && game.phase == Phase::Movement {
                p.arrive = matches!(state.location, crate::game::Location::Reserves(_));
                p.disembark = matches!(state.location, crate::game::Location::Embarked(_))
                    && !game.live_models_anywhere(army, root).is_empty();
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

/// The unit card folded to one line: name, player, models left of its Starting Strength,
/// wounds left per model, and its status words, e.g. "Boyz (shoota mob) · P2 · 9/10 models ·
/// wounds 2 1 1 1 1 1 1 1 1 · moved".
pub fn unit_strip(game: &Game, army: usize, unit: usize) -> String {
    let data = &game.scene.armies[army].units[unit];
    let state = &game.units[army][unit];
    let alive = state.models.iter().filter(|m| m.alive).count();
    let wounds: Vec<String> = state
        .models
        .iter()
        .filter(|m| m.alive)
        .map(|m| m.wounds.to_string())
        .collect();
    let mut parts = vec![
        data.name.clone(),
        format!("P{}", game.player_of(army)),
        format!("{alive}/{} models", state.models.len()),
    ];
    if !wounds.is_empty() {
        parts.push(format!("wounds {}", wounds.join(" ")));
    }
    let status = unit_status(game, army, unit);
    if !status.is_empty() {
        parts.push(status.join(", "));
    }
    parts.join(" · ")
}

/// Default widths (logical pixels) of the armies list and the unit card for a window
/// `window_width` wide: about a sixth and a quarter of it, so the table keeps more than half
/// the width at 1280 x 720 and at 1920 x 1080. Both panels stay resizable.
pub fn panel_widths(window_width: f32) -> (f32, f32) {
    (
        (window_width * 0.16).clamp(170.0, 300.0),
        (window_width * 0.25).clamp(280.0, 480.0),
    )
}

/// The friendly TRANSPORT units of `army` on the table (unit indices), for the Embark buttons.
pub fn transports(game: &Game, army: usize) -> Vec<usize> {
    (0..game.units[army].len())
        .filter(|&u| {
            let sheet = &game.scene.armies[army].units[u].datasheet;
            sheet.has_keyword("TRANSPORT")
                && sheet.transport_capacity.is_some()
                && !game.live_models(army, u).is_empty()
        })
        .collect()
}

/// Status words of a unit: Battle-shocked, Advanced, Fell Back, charged, in Engagement Range...
pub fn unit_status(game: &Game, army: usize, unit: usize) -> Vec<&'static str> {
    let root = game.combined(army, unit)[0];
    let s = &game.units[army][root];
    let mut out = Vec::new();
    match s.location {
        crate::game::Location::NotDeployed => out.push("not deployed"),
        crate::game::Location::Reserves(_) => out.push("in Reserves"),
        crate::game::Location::Embarked(_) => out.push("embarked"),
        crate::game::Location::Destroyed => return vec!["destroyed"],
        crate::game::Location::OnTable => {}
    }
    if game.live_models_anywhere(army, root).is_empty() {
        return vec!["destroyed"];
    }
    if s.battle_shocked {
        out.push("Battle-shocked");
    }
    match s.moved {
        Some(Moved::Moved(MoveMode::Advance)) => out.push("Advanced"),
        Some(Moved::Moved(MoveMode::FallBack)) => out.push("Fell Back"),
        Some(Moved::Moved(MoveMode::Normal)) => out.push("moved"),
        Some(Moved::Stationary) => out.push("Remained Stationary"),
        Some(Moved::SetUp) => out.push("set up"),
        None => {}
    }
    if s.shot {
        out.push("shot");
    }
    if s.charged {
        out.push("charged");
    }
    if s.fought {
        out.push("fought");
    }
    if !game.live_models(army, root).is_empty() && game.engaged(army, root) {
        out.push("in Engagement Range");
    }
    if s.location == crate::game::Location::OnTable && game.below_half_strength(army, root) {
        out.push("Below Half-strength");
    }
    out
}
