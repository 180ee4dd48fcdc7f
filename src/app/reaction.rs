//! The defender's answer in the desktop game: when an enemy unit has selected its targets and
//! the defending player could use Go to Ground or Smokescreen on one of them, the game waits
//! ([`Game::pending_shot`]) and this window offers each Stratagem the engine would accept, the
//! targets' order of losses ([`Command::AllocationOrder`]), and "No reaction"
//! ([`Command::Pass`]), which resolves the attacks. Core Rules: Core Stratagems
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
    app.init_resource::<ReactionsMuted>().add_systems(
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
                format!(
                    "{} on {} ({} CP)",
                    stratagem.name_in(game.scene.edition()),
                    play::unit_name(game, player, unit),
                    stratagem.cost_in(game.scene.edition())
                ),
                c.clone(),
            )),
            // A Detachment Stratagem that answers attacks ('Ard as Nails, Armour of Contempt).
            Command::UseRuleStratagem {
                stratagem, unit, ..
            } => {
                let army = game.army_of(player)?;
                let cp = game.scene.armies[army].rules.stratagem(stratagem)?.cp;
                Some((
                    format!(
                        "{stratagem} on {} ({cp} CP)",
                        play::unit_name(game, player, unit)
                    ),
                    c.clone(),
                ))
            }
            _ => None,
        })
        .collect();
    // With nothing (left) to use, the one way forward is to let the attacks go ahead.
    let go_on = if out.is_empty() {
        "Resolve the attacks"
    } else {
        "No reaction: resolve the attacks"
    };
    out.push((go_on.to_string(), Command::Pass { player }));
    out
}

/// "Don't ask again this phase": the (battle round, active player, phase) in which the
/// defending player chose to let every attack go ahead without the reaction window, and the
/// game state (hash) the last such pass was given in, so each waiting attack gets one.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct ReactionsMuted {
    /// The phase muted.
    pub phase: Option<(u8, u8, crate::rules::phase::Phase)>,
    /// The state hash of the game when the last automatic pass was given.
    pub passed: Option<String>,
}

/// The moment [`ReactionsMuted`] compares with.
fn this_phase(game: &Game) -> (u8, u8, crate::rules::phase::Phase) {
    (game.battle_round, game.active_player, game.phase)
}

fn reaction_window(
    mut contexts: EguiContexts,
    active: Res<ActiveGame>,
    computer: Option<Res<Computer>>,
    mut drafting: ResMut<Drafting>,
    handover: Res<HandOver>,
    mut writer: MessageWriter<GameCommand>,
    mut muted: ResMut<ReactionsMuted>,
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
    if muted.phase == Some(this_phase(game)) {
        // Once per waiting attack: the pass is applied by the next frame's game update.
        let at = game.state_hash();
        if muted.passed.as_ref() != Some(&at) {
            muted.passed = Some(at);
            play::issue(
                &mut writer,
                &mut drafting,
                Command::Pass { player: defender },
            );
        }
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let choices = reaction_choices(game);
    let targets: Vec<String> = pending
        .targets()
        .iter()
        .map(|t| play::unit_name(game, defender, t))
        .collect();
    egui::Window::new(format!("Player {defender}: react?"))
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 40.0))
        .collapsible(false)
        .resizable(false)
        .show(&ctx, |ui| {
            ui.label(format!(
                "{} has selected its targets: {}. You have {} CP.",
                play::unit_name(game, pending.player, &pending.unit),
                targets.join(", "),
                game.cp_of(defender)
            ));
            for (label, c) in choices {
                if ui.button(label).clicked() {
                    play::issue(&mut writer, &mut drafting, c);
                }
            }
            // The order the targets lose their models in: the defender may set it now.
            for (k, t) in pending.targets().into_iter().enumerate() {
                let Ok((army, unit)) = game.own_unit(defender, t) else {
                    continue;
                };
                egui::CollapsingHeader::new(format!(
                    "Order of losses: {}",
                    play::unit_name(game, defender, t)
                ))
                .id_salt(("reaction-losses", army, unit))
                .default_open(k == 0)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical()
                        .id_salt(("reaction-losses-scroll", army, unit))
                        .max_height(180.0)
                        .show(ui, |ui| {
                            let asked = crate::app::hud::losses::order_of_losses(
                                ui,
                                game,
                                (army, unit),
                                true,
                            );
                            if let Some(c) = asked {
                                play::issue(&mut writer, &mut drafting, c);
                            }
                        });
                });
            }
            if ui
                .button("Don't ask again this phase")
                .on_hover_text("Every other attack this phase goes ahead without a reaction")
                .clicked()
            {
                muted.phase = Some(this_phase(game));
                muted.passed = None;
            }
        });
    Ok(())
}
