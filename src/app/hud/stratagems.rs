//! The Stratagems the selected unit's player may use in this phase, with their targets or the
//! roll to re-roll: the engine's options ([`Game::stratagem_options`]), each button enabled
//! only when the engine accepts it, its reason shown otherwise.

use bevy::ecs::change_detection::Tick;
use bevy::prelude::DetectChanges;
use bevy_egui::egui;

use super::Hud;
use crate::app::play;
use crate::game::{Game, StratagemOption};
use crate::rules::phase::Stage;
use crate::rules::stratagem::Stratagem;

/// The Stratagem options of one unit, kept until the game or the unit changes (each is an
/// engine check on a copy of the game).
#[derive(Debug, Clone, Default)]
pub struct StratagemCache {
    key: Option<(Tick, usize, usize)>,
    options: Vec<StratagemOption>,
}

/// Draws the Stratagems section.
pub(super) fn stratagems(ui: &mut egui::Ui, hud: &mut Hud, game: &Game, army: usize, unit: usize) {
    // The game's change tick: any accepted command, undo or load renews the options.
    let key = (hud.active.last_changed(), army, unit);
    if hud.cache.stratagems.key.as_ref() != Some(&key) {
        hud.cache.stratagems.options = game.stratagem_options(army, unit);
        hud.cache.stratagems.key = Some(key);
    }
    let options = hud.cache.stratagems.options.clone();
    if game.stage != Stage::Battle {
        return;
    }
    let player = game.player_of(army);
    ui.separator();
    egui::CollapsingHeader::new(format!(
        "Stratagems for player {player} ({} CP)",
        game.cp_of(player)
    ))
    .default_open(false)
    .show(ui, |ui| {
        if options.is_empty() {
            ui.weak("None usable in this phase.");
        }
        let mut shown: Vec<Stratagem> = Vec::new();
        for o in &options {
            if !shown.contains(&o.stratagem) {
                shown.push(o.stratagem);
            }
        }
        for s in shown {
            let uses: Vec<&StratagemOption> = options.iter().filter(|o| o.stratagem == s).collect();
            let any = uses.iter().any(|o| o.verdict.is_ok());
            // Why the first use is refused, when none is accepted.
            let why = uses
                .iter()
                .find_map(|o| o.verdict.as_ref().err())
                .filter(|_| !any)
                .map(|r| r.reason.clone());
            ui.horizontal(|ui| {
                let edition = game.scene.edition();
                let label = format!("{} ({} CP)", s.name_in(edition), s.cost_in(edition));
                if uses.len() == 1 && uses[0].target().is_none() && uses[0].reroll().is_none() {
                    if ui.add_enabled(any, egui::Button::new(label)).clicked() {
                        let c = uses[0].command.clone();
                        play::issue(&mut hud.writer, &mut hud.drafting, c);
                    }
                } else {
                    ui.add_enabled_ui(any, |ui| {
                        ui.menu_button(label, |ui| {
                            for o in &uses {
                                let text = match (o.target(), o.reroll()) {
                                    (Some(t), _) => t.to_string(),
                                    (_, Some(r)) => r.name().to_string(),
                                    // Epic Challenge: the unit, or one CHARACTER model.
                                    _ => o.command.unit().unwrap_or(s.name()).to_string(),
                                };
                                let button =
                                    ui.add_enabled(o.verdict.is_ok(), egui::Button::new(text));
                                let button = match &o.verdict {
                                    Err(r) => button.on_disabled_hover_text(r.reason.clone()),
                                    Ok(()) => button,
                                };
                                if button.clicked() {
                                    play::issue(
                                        &mut hud.writer,
                                        &mut hud.drafting,
                                        o.command.clone(),
                                    );
                                    ui.close();
                                }
                            }
                        });
                    });
                }
                if let Some(why) = why {
                    ui.weak(why);
                }
            });
        }
    });
}
