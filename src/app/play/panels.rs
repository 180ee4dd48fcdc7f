//! Which order panels a unit gets at this moment of the game, its status words, its one-line
//! strip, and the side panels' starting widths.

use crate::game::{Game, UnitOptions};
use crate::rules::movement::{MoveMode, Moved};

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

impl Panels {
    /// The panels for a unit whose orders open now are `o` ([`Game::unit_options`]).
    pub fn from_options(o: &UnitOptions) -> Panels {
        Panels {
            reserves: !o.reserves.is_empty(),
            deploy: o.deploy,
            movement: o.can_move(),
            shooting: o.shoot,
            charge: o.charge || o.charge_move,
            fight: o.fight.is_some(),
            arrive: o.arrive,
            disembark: o.disembark,
            embark: !o.embark.is_empty(),
        }
    }
}

/// The order panels shown for the unit (`army`, `unit`) at this moment of `game`: those of
/// the orders the engine offers it ([`Game::unit_options`]).
pub fn panels(game: &Game, army: usize, unit: usize) -> Panels {
    Panels::from_options(&game.unit_options(army, unit))
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
/// `window_width` wide: about a seventh and a fifth of it, so the table keeps well over half
/// the width at 1280 x 720 and at 1920 x 1080. Both panels stay resizable, the armies list
/// can be hidden and the card folded to a strip.
pub fn panel_widths(window_width: f32) -> (f32, f32) {
    (
        (window_width * 0.14).clamp(150.0, 280.0),
        (window_width * 0.21).clamp(250.0, 440.0),
    )
}

/// Default height (logical pixels) of the dice log for a window `window_height` high: about a
/// sixth of it (resizable).
pub fn dice_log_height(window_height: f32) -> f32 {
    (window_height * 0.16).clamp(90.0, 280.0)
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
    } else if s.location == crate::game::Location::OnTable
        && game.scene.edition().battle_shock_at_half_strength
        && game.at_or_below_half_strength(army, root)
    {
        out.push("At Half-strength");
    }
    out
}
