//! The main menu's window: a new game (tournament pairings or a free choice of layout,
//! deployment map and mission; armies; secondary missions; seed; opponent), the saves to load,
//! the layout editor and the way back to the game.

use bevy::prelude::*;
use bevy_egui::egui;

use std::sync::Arc;

use super::{Hud, RED};
use crate::app::editor::Editor;
use crate::app::pairings::{check_secondaries, default_fixed, fixed_choices, mission_deck};
use crate::app::play::Seats;
use crate::app::screens::Screen;
use crate::app::screens::editor::OpenEditor;
use crate::app::screens::menu::{NewGameForm, short_name};
use crate::app::screens::table::{StartGame, load_game, seats_for_save, start_new_game};
use crate::rules::secondary::{SecondaryDeck, SecondaryMode};

/// The "Import army..." panel: paste a roster or give a file's path, name the army file and
/// choose the player it is for; the army written is chosen for that player and stays listed
/// for either player (it is a file in `scenes/armies/`).
fn import_panel(
    ui: &mut egui::Ui,
    import: &mut crate::app::screens::menu::ArmyImport,
    form: &mut NewGameForm,
) {
    if ui.button("Import army...").clicked() {
        import.open = !import.open;
    }
    if !import.open {
        return;
    }
    ui.group(|ui| {
        ui.label(
            "Paste the Warhammer 40,000 app's text export (or a .ros / New Recruit JSON), \
             or give a roster file's path (.ros, .rosz, .json, .txt):",
        );
        if let Some(file) = import.browse.take() {
            import.path = file.display().to_string();
        }
        ui.horizontal(|ui| {
            ui.label("File");
            ui.text_edit_singleline(&mut import.path);
            let open = import.browse.is_open();
            if ui
                .add_enabled(!open, egui::Button::new("Browse..."))
                .on_hover_text("Choose the roster file in the system's file dialog")
                .clicked()
            {
                import.browse.open(
                    "Choose an army roster",
                    "Army rosters",
                    &["ros", "rosz", "json", "txt"],
                    &std::env::current_dir().unwrap_or_default(),
                );
            }
        });
        egui::ScrollArea::vertical()
            .max_height(120.0)
            .show(ui, |ui| {
                ui.add(
                    egui::TextEdit::multiline(&mut import.text)
                        .desired_rows(5)
                        .hint_text("paste the roster here"),
                );
            });
        ui.horizontal(|ui| {
            ui.label("Save as");
            ui.add(
                egui::TextEdit::singleline(&mut import.name)
                    .hint_text("the roster's name")
                    .desired_width(180.0),
            );
            ui.label("for");
            ui.radio_value(&mut import.player, 0, "player 1");
            ui.radio_value(&mut import.player, 1, "player 2");
        });
        ui.checkbox(
            &mut import.allow_partial,
            "Leave out units that cannot be resolved",
        );
        ui.checkbox(&mut import.replace, "Replace an army file of the same name");
        if ui.button("Import").clicked() {
            match import.import(&form.disk) {
                Ok(file) => {
                    let player = import.player.min(1);
                    import.message = format!(
                        "written {file}: chosen for player {}; it is listed for either player",
                        player + 1
                    );
                    form.armies[player] = file;
                    import.text.clear();
                    import.name.clear();
                }
                Err(e) => import.message = e,
            }
        }
        if !import.message.is_empty() {
            ui.label(&import.message);
        }
    });
}

/// The army's Leaders, each with the unit it leads (a choice among the units its datasheet
/// allows; Core Rules: Leader), folded under the army's row; a change rewrites the army file.
fn leaders_panel(
    ui: &mut egui::Ui,
    import: &mut crate::app::screens::menu::ArmyImport,
    path: &str,
    player: usize,
) {
    let choices = match import.leaders(path) {
        Ok(c) if c.is_empty() => return,
        Ok(c) => c.clone(),
        Err(_) => return,
    };
    let attached = choices.iter().filter(|c| c.leads.is_some()).count();
    let mut change: Option<(String, Option<String>)> = None;
    egui::CollapsingHeader::new(format!("Leaders: {attached} of {} attached", choices.len()))
        .id_salt(("leaders", player))
        .default_open(import.show_leaders)
        .show(ui, |ui| {
            for c in &choices {
                let shown = c
                    .leads
                    .as_ref()
                    .and_then(|l| c.eligible.iter().find(|(id, _)| id == l))
                    .map_or("(leads no unit)".to_string(), |(_, n)| n.clone());
                ui.horizontal(|ui| {
                    ui.label(format!("{} leads", c.name));
                    egui::ComboBox::from_id_salt(("leader", player, &c.leader))
                        .selected_text(shown)
                        .show_ui(ui, |ui| {
                            if ui
                                .selectable_label(c.leads.is_none(), "(leads no unit)")
                                .clicked()
                            {
                                change = Some((c.leader.clone(), None));
                            }
                            for (id, name) in &c.eligible {
                                let on = c.leads.as_deref() == Some(id.as_str());
                                if ui.selectable_label(on, name).clicked() {
                                    change = Some((c.leader.clone(), Some(id.clone())));
                                }
                            }
                        });
                });
            }
        });
    if let Some((leader, body)) = change {
        import.message = match import.set_leader(path, &leader, body.as_deref()) {
            Ok(()) => format!("{path}: saved"),
            Err(e) => e,
        };
    }
}

/// Draws the main menu's window.
pub(super) fn menu_window(ctx: &egui::Context, hud: &mut Hud) {
    // Within the window however small it is: the form scrolls instead of running off the
    // screen, and the window stays put (anchored, not movable).
    let room = ctx.viewport_rect().height() - 24.0;
    egui::Window::new("wartable")
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .collapsible(false)
        .resizable(false)
        .movable(false)
        .default_width(520.0)
        .max_height(room)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical()
                .max_height(room - 40.0)
                .min_scrolled_height((room - 40.0).min(640.0))
                .show(ui, |ui| menu_body(ui, hud));
        });
}

/// The menu's contents: the new-game form, the saves, the editor.
fn menu_body(ui: &mut egui::Ui, hud: &mut Hud) {
    ui.heading("New game");
    let form = &mut *hud.form;
    let armies = form.army_choices();
    let combo = |ui: &mut egui::Ui, label: &str, value: &mut String| {
        egui::ComboBox::from_label(label)
            .selected_text(short_name(value).to_string())
            .show_ui(ui, |ui| {
                for f in &armies {
                    let name = short_name(f).to_string();
                    ui.selectable_value(value, f.clone(), name);
                }
            });
    };
    ui.horizontal(|ui| {
        ui.label("Rules:");
        for r in crate::rules::Ruleset::ALL {
            ui.selectable_value(&mut form.ruleset, r, format!("{} edition", r.label()))
                .on_hover_text(match r {
                    crate::rules::Ruleset::Tenth => "10th edition core rules (the default)",
                    crate::rules::Ruleset::Eleventh => {
                        "11th edition core rules: the table (terrain areas, Obscuring, Hidden, \
                         cover as -1 BS, 2\" engagement, 9\" coherency span, 8\" set-up); \
                         the phases are still 10th's"
                    }
                });
        }
    });
    if ui
        .checkbox(&mut form.tournament, "Tournament pairings only")
        .on_hover_text(
            "Only the Tournament Companion's pairings of layout, deployment map and \
             primary mission (Chapter Approved 2025-26)",
        )
        .changed()
    {
        form.settle(true);
    }
    let (paired, rest) = form.layout_choices();
    let other =
        "other layouts (change the deployment map; your own leave the tournament pairings):";
    if let Some(l) = pick(ui, "Layout", &form.layout, &paired, &rest, other) {
        form.choose_layout(l);
    }
    let (paired, rest) = form.deployment_choices();
    let other = "other deployment maps (change the layout):";
    if let Some(d) = pick(
        ui,
        "Deployment map",
        &form.deployment,
        &paired,
        &rest,
        other,
    ) {
        form.choose_deployment(d);
    }
    let missions = form.mission_choices();
    if let Some(m) = pick(ui, "Mission", &form.mission, &missions, &[], "") {
        form.mission = m;
    }
    for (i, label) in ["Player 1 army", "Player 2 army"].into_iter().enumerate() {
        ui.horizontal(|ui| {
            combo(ui, label, &mut form.armies[i]);
            ui.weak(hud.import.summary(&form.armies[i]).to_string());
        });
        leaders_panel(ui, hud.import.as_mut(), &form.armies[i], i);
    }
    import_panel(ui, hud.import.as_mut(), form);
    let ready = secondaries(ui, form);
    ui.horizontal(|ui| {
        ui.checkbox(&mut form.random_seed, "Random dice seed");
        ui.add_enabled(
            !form.random_seed,
            egui::DragValue::new(&mut form.seed).prefix("seed "),
        );
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("Players");
        for value in [
            Seats::HotSeat,
            Seats::Solo,
            Seats::Computer(2),
            Seats::Computer(1),
        ] {
            ui.radio_value(&mut form.seats, value, value.label());
        }
    });
    // Shown always, usable once a computer opponent is chosen.
    ui.add_enabled_ui(form.seats.computer().is_some(), |ui| {
        ui.horizontal(|ui| {
            ui.label("Computer level");
            for level in crate::ai::Level::ALL {
                ui.radio_value(&mut form.computer_level, level, level.name());
            }
        });
    });
    if ui
        .add_enabled(ready, egui::Button::new("Start game"))
        .clicked()
    {
        let random = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64);
        match start_new_game(form, &hud.saves.0, random) {
            Ok(started) => {
                hud.commands.write_message(StartGame {
                    started,
                    seats: form.seats,
                    level: form.computer_level,
                    view: None,
                });
                hud.selection.unit = None;
            }
            Err(e) => hud.log.menu_error = Some(format!("cannot start: {e}")),
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
                    let loaded = load_game(&entry.path).and_then(|started| {
                        let (seats, level) = seats_for_save(
                            &started.save,
                            &entry.path,
                            form.seats,
                            form.computer_level,
                        )?;
                        Ok((started, seats, level))
                    });
                    match loaded {
                        Ok((started, seats, level)) => {
                            hud.commands.write_message(StartGame {
                                started,
                                seats,
                                level,
                                view: None,
                            });
                            hud.selection.unit = None;
                        }
                        Err(e) => hud.log.menu_error = Some(format!("cannot load: {e}")),
                    }
                }
                ui.weak(&entry.label);
            }
        });
    ui.separator();
    ui.horizontal(|ui| {
        // The size of every panel and its text (egui's zoom; Ctrl +/- and Ctrl 0 too).
        let mut zoom = ui.ctx().zoom_factor();
        if ui
            .add(egui::Slider::new(&mut zoom, 0.75..=2.0).text("UI scale"))
            .changed()
        {
            ui.ctx().set_zoom_factor(zoom);
        }
    });
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
                    let watched = Some(std::path::PathBuf::from(&layout)).filter(|p| p.exists());
                    let editor = Editor::new(design, std::path::PathBuf::from("scenes"), watched);
                    hud.commands.write_message(OpenEditor(editor));
                }
                Err(e) => hud.log.menu_error = Some(format!("cannot open the editor: {e}")),
            }
        }
        if hud.active.game.is_some() && ui.button("Back to the game").clicked() {
            hud.next_screen.set(Screen::Table);
        }
    });
    if let Some(last) = &hud.log.menu_error {
        ui.colored_label(RED, last);
    }
}

/// A combo box offering `paired` and, after a separator and the note `other`, `rest`; the
/// file picked this frame, if one was.
fn pick(
    ui: &mut egui::Ui,
    label: &str,
    current: &str,
    paired: &[String],
    rest: &[String],
    other: &str,
) -> Option<String> {
    let mut picked = None;
    egui::ComboBox::from_label(label)
        .selected_text(short_name(current).to_string())
        .show_ui(ui, |ui| {
            for f in paired {
                if ui.selectable_label(f == current, short_name(f)).clicked() {
                    picked = Some(f.clone());
                }
            }
            if !rest.is_empty() {
                ui.separator();
                ui.weak(other);
                for f in rest {
                    if ui.selectable_label(false, short_name(f)).clicked() {
                        picked = Some(f.clone());
                    }
                }
            }
        });
    picked
}

/// The mission's secondary deck, loaded once per mission file and kept in egui's memory.
#[derive(Clone)]
struct DeckCache(String, Arc<Result<Option<SecondaryDeck>, String>>);

fn deck_of(ui: &egui::Ui, mission: &str) -> Arc<Result<Option<SecondaryDeck>, String>> {
    let id = egui::Id::new("wartable-menu-secondary-deck");
    if let Some(DeckCache(m, deck)) = ui.data(|d| d.get_temp::<DeckCache>(id))
        && m == mission
    {
        return deck;
    }
    let deck = Arc::new(mission_deck(mission));
    ui.data_mut(|d| d.insert_temp(id, DeckCache(mission.to_string(), deck.clone())));
    deck
}

/// Each player's secondary missions (Tactical, or two Fixed cards), shown when the mission has
/// a secondary deck. False when a choice is not allowed (the game cannot start).
fn secondaries(ui: &mut egui::Ui, form: &mut NewGameForm) -> bool {
    let deck = deck_of(ui, &form.mission);
    let deck = match deck.as_ref() {
        Ok(Some(deck)) => deck,
        Ok(None) => return true,
        Err(e) => {
            ui.colored_label(RED, format!("mission: {e}"));
            return false;
        }
    };
    let choices = fixed_choices(deck, form.tournament);
    let mut ready = true;
    for (i, mode) in form.secondaries.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            ui.label(format!("Player {} secondaries", i + 1));
            let tactical = mode.is_tactical();
            if ui.radio(tactical, "Tactical").clicked() {
                *mode = SecondaryMode::Tactical;
            }
            if ui
                .radio(!tactical, "Fixed")
                .on_hover_text("Two cards with the Fixed symbol, kept all battle")
                .clicked()
                && tactical
            {
                *mode = default_fixed(deck, form.tournament);
            }
            if let SecondaryMode::Fixed(a, b) = mode {
                for (j, card) in [a, b].into_iter().enumerate() {
                    egui::ComboBox::from_id_salt(("fixed-card", i, j))
                        .selected_text(card.as_str())
                        .show_ui(ui, |ui| {
                            for c in &choices {
                                ui.selectable_value(card, c.clone(), c);
                            }
                        });
                }
            }
        });
        if let Err(e) = check_secondaries(deck, form.tournament, mode) {
            ui.colored_label(RED, format!("Player {}: {e}", i + 1));
            ready = false;
        }
    }
    ready
}
