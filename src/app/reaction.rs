//! The defender's answer in the desktop game: when an enemy unit has selected its targets and
//! the defending player could use Go to Ground or Smokescreen on one of them, the game waits
//! ([`Game::pending_shot`]) and this window offers each Stratagem the engine would accept and
//! "No reaction" ([`Command::Pass`]), which resolves the attacks. Core Rules: Core Stratagems
//! (Go to Ground, Smokescreen: just after an enemy unit has selected its targets).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::computer::Computer;
use super::play::{self, Drafting, HandOver};
use super::screens::Screen;
use crate::game::{Command, Game};
use crate::rules::phase::opponent;
use crate::sim::battle::{ActiveGame, BattleState, GameCommand};

/// Registers the reaction window: on the table, during the battle rounds only
/// ([`BattleState::Battle`], the only stage in which attacks wait for a reaction).
pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        reaction_window.run_if(in_state(Screen::Table).and_then(in_state(BattleState::Battle))),
    );
}

/// What the defending player may answer now, each with its button label: the engine's
/// [`Game::reaction_options`], then "No reaction". Empty when no attacks wait.
pub fn reaction_choices(game: &Game) -> Vec<(String, Command)> {
    let Some(pending) = &game.pending_shot else {
        return Vec::new();
    };
    let player = opponent(pending.player);
    let mut out: Vec<(String, Command)> = game
        .reaction_options()
        .into_iter()
        .filter_map(|c| match &c {
            Command::UseStratagem {
                stratagem, unit, ..
            } => Some((
                format!("{} on {unit} ({} CP)", stratagem.name(), stratagem.cost()),
                c.clone(),
            )),
            _ => None,
        })
        .collect();
    out.push((
        "No reaction: resolve the attacks".to_string(),
        Command::Pass { player },
    ));
    out
}

fn reaction_window(
    mut contexts: EguiContexts,
    active: Res<ActiveGame>,
    computer: Option<Res<Computer>>,
    mut drafting: ResMut<Drafting>,
    handover: Res<HandOver>,
    mut writer: MessageWriter<GameCommand>,
) -> Result {
    let Some(game) = &active.game else {
        return Ok(());
    };
    let Some(pending) = &game.pending_shot else {
        return Ok(());
    };
    let defender = opponent(pending.player);
    if computer.is_some_and(|c| c.player == defender) || handover.to.is_some() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let choices = reaction_choices(game);
    egui::Window::new(format!("Player {defender}: react?"))
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 40.0))
        .collapsible(false)
        .resizable(false)
        .show(&ctx, |ui| {
            ui.label(format!(
                "'{}' has selected its targets: {}. You have {} CP.",
                pending.unit,
                pending.targets().join(", "),
                game.cp_of(defender)
            ));
            for (label, c) in choices {
                if ui.button(label).clicked() {
                    play::issue(&mut writer, &mut drafting, c);
                }
            }
        });
    Ok(())
}
