//! Reactions in the opponent's turn: when an enemy unit has selected its targets, Go to Ground
//! (INFANTRY), Smokescreen (SMOKE) or a Detachment Stratagem that changes attacks at the unit
//! (Armour of Contempt) on the targeted unit that would save the most, if the saving is worth
//! a Command point. Core Rules: Core Stratagems (Go to Ground, Smokescreen:
//! used just after an enemy unit has selected its targets).
//!
//! The saving is exact: the expected points of models destroyed by the declared attacks
//! ([`Game::preview_attacks`]) without and with the Stratagem, worked out on a copy of the
//! game whose dice are scripted, so no roll to come is seen.

use super::{trial, value_per_model};
use crate::game::{Command, Game};

/// Smallest expected saving (points of models not destroyed) for which [`super::Ai`] spends
/// a Command point on Go to Ground or Smokescreen.
pub const SHROUD_MIN_POINTS_SAVED: f64 = 5.0;

/// The smaller saving `normal` and `hard` settle for while they hold the CP they keep for
/// reactions ([`super::tactics::CP_RESERVE`]): this is what those CP are kept for, and the
/// Stratagem also covers the unit against the rest of the phase's attacks, which the saving
/// leaves out.
pub const SHROUD_MIN_POINTS_SAVED_SPARE_CP: f64 = 2.5;

/// The saving a Go to Ground or Smokescreen must be worth to `player` now: `easy` always asks
/// [`SHROUD_MIN_POINTS_SAVED`]; `normal` and `hard` ask [`SHROUD_MIN_POINTS_SAVED_SPARE_CP`]
/// while they hold at least [`super::tactics::CP_RESERVE`] CP.
pub fn shroud_threshold(game: &Game, player: u8, level: super::Level) -> f64 {
    if level > super::Level::Easy && game.cp_of(player) >= super::tactics::CP_RESERVE {
        SHROUD_MIN_POINTS_SAVED_SPARE_CP
    } else {
        SHROUD_MIN_POINTS_SAVED
    }
}

/// Expected points of the target's models destroyed by the shooting `command` in `game`.
fn expected_points_lost(game: &Game, command: &Command, target: &str, army: usize) -> f64 {
    let Command::Shoot {
        player,
        unit,
        weapons,
    } = command
    else {
        return 0.0;
    };
    let Some(u) = game.find_unit(army, target) else {
        return 0.0;
    };
    game.preview_attacks(*player, unit, weapons, false)
        .map(|previews| {
            previews
                .iter()
                .filter(|p| p.target == target)
                .map(|p| p.distribution.expected_models_destroyed)
                .sum::<f64>()
                * value_per_model(game, army, u)
        })
        .unwrap_or(0.0)
}

/// `player`'s answer to the enemy attacks waiting with their targets selected
/// ([`Game::pending_shot`]): Go to Ground or Smokescreen on one of the units they target, the
/// one that saves the most expected points, when that saving is at least `min_saved` points
/// ([`shroud_threshold`]) and the engine would accept the Stratagem (CP, once per phase,
/// keywords, Battle-shock). None when nothing waits, when the attacks are `player`'s own, or
/// when no Stratagem is worth it (then the answer is [`Command::Pass`]).
pub fn shroud_reaction(game: &Game, player: u8, min_saved: f64) -> Option<Command> {
    let pending = game.pending_shot.as_ref()?;
    let command = &Command::Shoot {
        player: pending.player,
        unit: pending.unit.clone(),
        weapons: pending.weapons.clone(),
    };
    if pending.player == player || game.cp_of(player) == 0 {
        return None;
    }
    let army = game.army_of(player)?;
    let mut best: Option<(f64, Command)> = None;
    for c in game.reaction_options() {
        let target = match &c {
            Command::UseStratagem { unit, .. } | Command::UseRuleStratagem { unit, .. } => unit,
            _ => continue,
        };
        let before = expected_points_lost(game, command, target, army);
        if before < min_saved {
            continue;
        }
        let Some(after) = trial(game, &c) else {
            continue;
        };
        let saved = before - expected_points_lost(&after, command, target, army);
        if saved >= min_saved && best.as_ref().is_none_or(|(b, _)| saved > *b) {
            best = Some((saved, c));
        }
    }
    best.map(|(_, c)| c)
}

/// The computer's order of losses for the first of its units (with two models or more) that
/// has none chosen yet ([`crate::game::allocation::computer_order`]), as the command that sets
/// it; none once every unit has one.
pub fn order_of_losses(game: &Game, player: u8) -> Option<Command> {
    let army = game.army_of(player)?;
    (0..game.units[army].len()).find_map(|u| {
        let state = &game.units[army][u];
        if !state.allocation_order.is_empty() || state.models.iter().filter(|m| m.alive).count() < 2
        {
            return None;
        }
        let data = &game.scene.armies[army].units[u];
        let order = crate::game::allocation::computer_order(data);
        Some(Command::AllocationOrder {
            player,
            unit: data.id.clone(),
            models: order.iter().map(|i| format!("{}#{i}", data.id)).collect(),
        })
    })
}
