//! The Stratagems the selected unit's player may use in this phase, with their targets or the
//! roll to re-roll.

use bevy_egui::egui;

use super::Hud;
use crate::app::play;
use crate::game::{Command, Game, RerollRoll};
use crate::rules::phase::Stage;
use crate::rules::stratagem::Stratagem;

/// Draws the Stratagems section.
pub(super) fn stratagems(ui: &mut egui::Ui, hud: &mut Hud, game: &Game, army: usize, unit: usize) {
    if game.stage != Stage::Battle {
        return;
    }
    let player = game.player_of(army);
    let id = game.unit_id(army, game.combined(army, unit)[0]).to_string();
    let usable: Vec<Stratagem> = Stratagem::ALL
        .into_iter()
        .filter(|s| s.usable_in(game.phase, player, game.active_player))
        .collect();
    ui.separator();
    egui::CollapsingHeader::new(format!(
        "Stratagems for player {player} ({} CP)",
        game.cp_of(player)
    ))
    .default_open(false)
    .show(ui, |ui| {
        if usable.is_empty() {
            ui.weak("None usable in this phase.");
        }
        let enemy = game.army_of(if player == 1 { 2 } else { 1 });
        for s in usable {
            let used = game.stratagems_used.contains(&(player, s));
            let afford = game.cp_of(player) >= s.cost();
            ui.horizontal(|ui| {
                let label = format!("{} ({} CP)", s.name(), s.cost());
                let needs_target = matches!(
                    s,
                    Stratagem::Grenade
                        | Stratagem::TankShock
                        | Stratagem::FireOverwatch
                        | Stratagem::HeroicIntervention
                );
                let enabled = !used && afford;
                if needs_target {
                    ui.menu_button(label, |ui| {
                        if let Some(enemy) = enemy {
                            for u in game.unit_roots(enemy) {
                                if game.live_models(enemy, u).is_empty() {
                                    continue;
                                }
                                let tid = game.unit_id(enemy, u).to_string();
                                if ui.add_enabled(enabled, egui::Button::new(&tid)).clicked() {
                                    let c = Command::UseStratagem {
                                        player,
                                        stratagem: s,
                                        unit: id.clone(),
                                        target: Some(tid),
                                        reroll: None,
                                    };
                                    play::issue(&mut hud.writer, &mut hud.drafting, c);
                                    ui.close();
                                }
                            }
                        }
                    });
                } else if s == Stratagem::CommandReroll {
                    ui.menu_button(label, |ui| {
                        for r in [
                            RerollRoll::Hit,
                            RerollRoll::Wound,
                            RerollRoll::SavingThrow,
                            RerollRoll::Damage,
                            RerollRoll::Attacks,
                            RerollRoll::Hazardous,
                            RerollRoll::Advance,
                            RerollRoll::Charge,
                            RerollRoll::BattleShock,
                            RerollRoll::DesperateEscape,
                        ] {
                            if ui
                                .add_enabled(enabled, egui::Button::new(r.name()))
                                .clicked()
                            {
                                let c = Command::UseStratagem {
                                    player,
                                    stratagem: s,
                                    unit: id.clone(),
                                    target: None,
                                    reroll: Some(r),
                                };
                                play::issue(&mut hud.writer, &mut hud.drafting, c);
                                ui.close();
                            }
                        }
                    });
                } else if ui.add_enabled(enabled, egui::Button::new(label)).clicked() {
                    let c = Command::UseStratagem {
                        player,
                        stratagem: s,
                        unit: id.clone(),
                        target: None,
                        reroll: None,
                    };
                    play::issue(&mut hud.writer, &mut hud.drafting, c);
                }
                if used {
                    ui.weak("used this phase");
                } else if !afford {
                    ui.weak("not enough CP");
                }
            });
        }
    });
}
