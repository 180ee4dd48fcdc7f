//! The main menu's window: a new game (layout, deployment map, mission, armies, seed,
//! opponent), the saves to load, the layout editor and the way back to the game.

use bevy::prelude::*;
use bevy_egui::egui;

use super::{Hud, RED};
use crate::app::editor::Editor;
use crate::app::screens::Screen;
use crate::app::screens::editor::OpenEditor;
use crate::app::screens::menu::{data_files, short_name};
use crate::app::screens::table::{StartGame, load_game, start_new_game};

/// Draws the main menu's window.
pub(super) fn menu_window(ctx: &egui::Context, hud: &mut Hud) {
    egui::Window::new("wartable")
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .collapsible(false)
        .resizable(false)
        .default_width(520.0)
        .show(ctx, |ui| {
            ui.heading("New hot-seat game");
            let form = &mut *hud.form;
            let combo = |ui: &mut egui::Ui, label: &str, value: &mut String, folder: &str| {
                egui::ComboBox::from_label(label)
                    .selected_text(short_name(value).to_string())
                    .show_ui(ui, |ui| {
                        for f in data_files(folder) {
                            let name = short_name(&f).to_string();
                            ui.selectable_value(value, f, name);
                        }
                    });
            };
            combo(ui, "Layout", &mut form.layout, "scenes/layouts/");
            combo(
                ui,
                "Deployment map",
                &mut form.deployment,
                "scenes/deployments/",
            );
            combo(ui, "Mission", &mut form.mission, "scenes/missions/");
            combo(ui, "Player 1 army", &mut form.armies[0], "scenes/armies/");
            combo(ui, "Player 2 army", &mut form.armies[1], "scenes/armies/");
            ui.horizontal(|ui| {
                ui.checkbox(&mut form.random_seed, "Random dice seed");
                ui.add_enabled(
                    !form.random_seed,
                    egui::DragValue::new(&mut form.seed).prefix("seed "),
                );
            });
            ui.horizontal(|ui| {
                ui.label("Opponent");
                for (value, label) in [
                    (0u8, "hot-seat (two people)"),
                    (2, "the computer as player 2"),
                    (1, "the computer as player 1"),
                ] {
                    ui.radio_value(&mut form.computer, value, label);
                }
            });
            if ui.button("Start game").clicked() {
                let random = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64);
                match start_new_game(form, &hud.saves.0, random) {
                    Ok(started) => {
                        let computer = form.computer;
                        hud.commands.write_message(StartGame {
                            started,
                            computer,
                            view: None,
                        });
                        hud.selection.unit = None;
                    }
                    Err(e) => hud.log.lines.push(format!("cannot start: {e}")),
                }
            }
            ui.separator();
            ui.heading("Load game");
            if hud.save_list.0.is_empty() {
                ui.weak(format!("No saves in {}", hud.saves.0.display()));
            }
            egui::ScrollArea::vertical()
                .max_height(200.0)
                .show(ui, |ui| {
                    for entry in &hud.save_list.0 {
                        let name = entry
                            .path
                            .file_name()
                            .map(|n| n.to_string_lossy().to_string())
                            .unwrap_or_default();
                        if ui
                            .add_enabled(entry.ok, egui::Button::new(&name))
                            .on_hover_text(&entry.label)
                            .clicked()
                        {
                            match load_game(&entry.path) {
                                Ok(started) => {
                                    hud.commands.write_message(StartGame {
                                        started,
                                        computer: 0,
                                        view: None,
                                    });
                                    hud.selection.unit = None;
                                }
                                Err(e) => hud.log.lines.push(format!("cannot load: {e}")),
                            }
                        }
                        ui.weak(&entry.label);
                    }
                });
            ui.separator();
            ui.horizontal(|ui| {
                if ui
                    .button("Layout editor")
                    .on_hover_text("Design a layout from the chosen layout and deployment map")
                    .clicked()
                {
                    let (layout, deployment) = (form.layout.clone(), form.deployment.clone());
                    match crate::design::Design::open(
                        &crate::data::source::shipped(&layout),
                        &crate::data::source::shipped(&deployment),
                    ) {
                        Ok(design) => {
                            let watched =
                                Some(std::path::PathBuf::from(&layout)).filter(|p| p.exists());
                            let editor =
                                Editor::new(design, std::path::PathBuf::from("scenes"), watched);
                            hud.commands.write_message(OpenEditor(editor));
                        }
                        Err(e) => hud.log.lines.push(format!("cannot open the editor: {e}")),
                    }
                }
                if hud.active.game.is_some() && ui.button("Back to the game").clicked() {
                    hud.next_screen.set(Screen::Table);
                }
            });
            if let Some(last) = hud.log.lines.last().filter(|l| l.starts_with("cannot")) {
                ui.colored_label(RED, last);
            }
        });
}
