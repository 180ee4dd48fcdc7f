//! The egui overlay of the game: main menu, phase bar, armies list, unit card with status, order
//! panels (deploy, move, shoot with the odds, charge with the odds, fight), Stratagems, dice
//! log, draft feedback, hand-over screen and the F1 help. Panels write commands through
//! [`play::issue`]; the engine answers through the battle plugin.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::menu::{
    NewGameForm, SaveList, SavesDir, Screen, data_files, load_game, put_on_table, short_name,
    start_new_game,
};
use super::play::{
    self, GameOrigin, PlayState, SightStatus, Verdict, allowance, draft_distance, panels,
};
use super::selection::Selection;
use super::ui::{PanelInsets, unit_card, unit_label};
use crate::game::preview::AttackPreview;
use crate::game::{Command, Game, RerollRoll, ReserveKind, WeaponTarget};
use crate::rules::attack::exact::AttackDistribution;
use crate::rules::constants::CHARGE_RANGE_INCHES;
use crate::rules::movement::{MoveMode, Moved};
use crate::rules::phase::{Phase, Stage};
use crate::rules::stratagem::Stratagem;
use crate::sim::battle::{ActiveGame, GameCommand};
use crate::sim::components::Unit;
use crate::sim::{ActiveScene, SceneErrors};

const RED: egui::Color32 = egui::Color32::from_rgb(235, 90, 80);
const GREEN: egui::Color32 = egui::Color32::from_rgb(90, 200, 110);
const AMBER: egui::Color32 = egui::Color32::from_rgb(235, 190, 70);

/// Registers the overlay.
pub fn plugin(app: &mut App) {
    app.init_resource::<PanelInsets>()
        .init_resource::<PreviewCache>()
        .add_systems(EguiPrimaryContextPass, overlay)
        .add_systems(Update, keys.run_if(not(in_state(Screen::Editor))));
}

/// The attack previews of the shooting / fight panel, kept until the assignment or the game
/// changes (each is an exact distribution).
#[derive(Resource, Default)]
pub struct PreviewCache {
    key: Option<PreviewKey>,
    /// The previews, or the rejection the assignment would get.
    pub result: Option<Result<Vec<AttackPreview>, String>>,
    targets_key: Option<(String, String)>,
    /// Each weapon row of the selected unit ("weapon - profile"), its legal targets and the
    /// assignment it makes (target left empty).
    pub targets: Vec<(String, Vec<String>, WeaponTarget)>,
}

/// What a preview was computed for: the game's state hash, the unit and its weapon choices.
type PreviewKey = (String, String, Vec<(String, Option<String>)>);

#[derive(SystemParam)]
struct Hud<'w, 's> {
    scene: Res<'w, ActiveScene>,
    errors: Res<'w, SceneErrors>,
    selection: ResMut<'w, Selection>,
    insets: ResMut<'w, PanelInsets>,
    units: Query<'w, 's, (Entity, &'static Unit)>,
    active: ResMut<'w, ActiveGame>,
    origin: Res<'w, GameOrigin>,
    play: ResMut<'w, PlayState>,
    writer: MessageWriter<'w, GameCommand>,
    screen: Res<'w, State<Screen>>,
    next_screen: ResMut<'w, NextState<Screen>>,
    form: ResMut<'w, NewGameForm>,
    saves: Res<'w, SavesDir>,
    save_list: Res<'w, SaveList>,
    cache: ResMut<'w, PreviewCache>,
    commands: Commands<'w, 's>,
}

fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut play: ResMut<PlayState>,
    mut active: ResMut<ActiveGame>,
    origin: Res<GameOrigin>,
    mut writer: MessageWriter<GameCommand>,
) {
    if keys.just_pressed(KeyCode::F1) {
        play.help = !play.help;
    }
    if keys.just_pressed(KeyCode::KeyL) {
        play.los = !play.los;
    }
    if keys.just_pressed(KeyCode::KeyT) {
        play.tape = if play.tape.is_some() {
            None
        } else {
            Some(play::Tape::default())
        };
    }
    if keys.just_pressed(KeyCode::KeyV)
        && let Some(eye) = play.eye.as_mut()
    {
        eye.full = !eye.full;
    }
    if keys.just_pressed(KeyCode::Escape) {
        play.draft = None;
        play.eye = None;
    }
    if keys.just_pressed(KeyCode::Enter)
        && play.verdict.as_ref().is_some_and(Verdict::is_legal)
        && let (Some(game), Some(draft)) = (&active.game, &play.draft)
        && let Ok(c) = play::draft_command(game, draft, play.move_mode)
    {
        play::issue(&mut writer, &mut play, c);
    }
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    if ctrl
        && keys.just_pressed(KeyCode::KeyZ)
        && let Some(origin) = &origin.0
    {
        match play::undo(&mut active, origin) {
            Ok(c) => play.log.push(format!("UNDONE {}", c.kind())),
            Err(e) => play.log.push(format!("cannot undo: {e}")),
        }
        play.draft = None;
    }
}

fn overlay(mut contexts: EguiContexts, mut hud: Hud) -> Result {
    if *hud.screen.get() == Screen::Editor {
        // The editor draws its own panels.
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let mut covered = PanelInsets::default();
    let mut root = egui::Ui::new(
        ctx.clone(),
        "wartable-overlay".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    covered.top = egui::Panel::top("phase-bar")
        .show(&mut root, |ui| phase_bar(ui, &mut hud))
        .response
        .rect
        .height();
    if hud.active.game.is_some() {
        covered.bottom = egui::Panel::bottom("dice-log")
            .resizable(true)
            .default_size(120.0)
            .show(&mut root, |ui| dice_log(ui, &hud.play))
            .response
            .rect
            .height();
    }
    covered.left = egui::Panel::left("armies")
        .resizable(true)
        .default_size(250.0)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| armies(ui, &mut hud));
        })
        .response
        .rect
        .width();
    if hud.selection.unit.is_some() {
        covered.right = egui::Panel::right("unit-card")
            .resizable(true)
            .default_size(360.0)
            .show(&mut root, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| right_panel(ui, &mut hud));
            })
            .response
            .rect
            .width();
    }
    hud.insets.set_if_neq(covered);
    draft_window(&ctx, &mut hud);
    tape_window(&ctx, &mut hud);
    los_hover(&ctx, &hud);
    if *hud.screen.get() == Screen::Menu {
        menu_window(&ctx, &mut hud);
    }
    if let Some(player) = hud.play.handover {
        egui::Area::new("handover".into())
            .fixed_pos(egui::pos2(0.0, 0.0))
            .order(egui::Order::Foreground)
            .show(&ctx, |ui| {
                let rect = ctx.viewport_rect();
                ui.painter()
                    .rect_filled(rect, 0.0, egui::Color32::from_black_alpha(235));
                ui.scope_builder(egui::UiBuilder::new().max_rect(rect), |ui| {
                    ui.vertical_centered(|ui| {
                        ui.add_space(rect.height() * 0.35);
                        ui.heading(format!("Hand the table to player {player}"));
                        if let Some(g) = &hud.active.game {
                            ui.label(g.describe_now());
                        }
                        ui.add_space(12.0);
                        if ui
                            .button("I am player ".to_string() + &player.to_string())
                            .clicked()
                        {
                            hud.play.handover = None;
                        }
                    });
                });
            });
    }
    if hud.play.help {
        egui::Window::new("Help (F1)")
            .collapsible(false)
            .default_width(460.0)
            .show(&ctx, help);
    }
    if !hud.errors.0.is_empty() {
        egui::Window::new("Scene errors")
            .default_width(520.0)
            .show(&ctx, |ui| {
                ui.label("The scene could not be loaded; fix these and reopen it:");
                for e in &hud.errors.0 {
                    ui.colored_label(RED, e);
                }
            });
    }
    Ok(())
}

fn phase_bar(ui: &mut egui::Ui, hud: &mut Hud) {
    ui.horizontal_wrapped(|ui| {
        let Some(game) = hud.active.game.as_ref() else {
            if let Some(s) = &hud.scene.0 {
                ui.strong(&s.name);
                ui.separator();
            }
            ui.weak(
                "No game: open the menu to start one.  Right-drag: orbit  Wheel: zoom  F1: help",
            );
            return;
        };
        let stage = match game.stage {
            Stage::Battle => format!(
                "Round {} | Player {} | {}{}",
                game.battle_round,
                game.active_player,
                game.phase.name(),
                game.fight
                    .as_ref()
                    .map(|f| format!(" ({:?}, player {} selects)", f.step, f.picker))
                    .unwrap_or_default()
            ),
            _ => game.describe_now(),
        };
        ui.strong(stage);
        ui.separator();
        for p in [1u8, 2] {
            let c = super::table::PLAYER_COLOURS[usize::from(p - 1)].to_srgba();
            ui.colored_label(
                egui::Color32::from_rgb(
                    (c.red * 255.0) as u8,
                    (c.green * 255.0) as u8,
                    (c.blue * 255.0) as u8,
                ),
                format!(
                    "P{p}: {} CP {} VP",
                    game.cp_of(p),
                    game.vp[usize::from(p - 1)]
                ),
            );
        }
        ui.separator();
        let acting = game.acting_player().unwrap_or(game.active_player);
        if game.stage == Stage::Battle
            && ui
                .button(format!("End {}", game.phase.name()))
                .on_hover_text("Ends the phase (its end steps run first)")
                .clicked()
        {
            let c = Command::EndPhase {
                player: game.active_player,
            };
            play::issue(&mut hud.writer, &mut hud.play, c);
        }
        if game.stage == Stage::GameOver {
            ui.colored_label(
                AMBER,
                match game.winner {
                    Some(w) => format!("Player {w} wins"),
                    None => "A draw".into(),
                },
            );
        } else {
            ui.label(format!("Player {acting} to act"));
        }
        if let Some(e) = &hud.play.autosave_error {
            ui.colored_label(RED, "Autosave failed")
                .on_hover_text(format!("{e}\nThe game goes on; it is not being saved."));
        }
        if ui.button("Undo").on_hover_text("Ctrl+Z").clicked()
            && let Some(origin) = &hud.origin.0
        {
            let r = play::undo(&mut hud.active, origin);
            hud.play.log.push(match r {
                Ok(c) => format!("UNDONE {}", c.kind()),
                Err(e) => format!("cannot undo: {e}"),
            });
            hud.play.draft = None;
        }
        ui.separator();
        ui.toggle_value(&mut hud.play.los, "LOS (L)");
        let mut tape = hud.play.tape.is_some();
        if ui.toggle_value(&mut tape, "Tape (T)").changed() {
            hud.play.tape = tape.then(play::Tape::default);
        }
        for (i, name) in ["Move", "Weapons", "ER", "Coherency"].iter().enumerate() {
            ui.toggle_value(&mut hud.play.rings[i], *name);
        }
        if ui.button("Menu").clicked() {
            hud.next_screen.set(Screen::Menu);
        }
        ui.toggle_value(&mut hud.play.help, "F1");
    });
}

fn dice_log(ui: &mut egui::Ui, play: &PlayState) {
    if let Some((kind, r)) = &play.rejection {
        ui.colored_label(RED, format!("{kind} refused - {r}"));
    }
    egui::ScrollArea::vertical()
        .stick_to_bottom(true)
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for line in &play.log {
                if line.starts_with("REJECTED") {
                    ui.colored_label(RED, line);
                } else {
                    ui.monospace(line);
                }
            }
        });
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

fn armies(ui: &mut egui::Ui, hud: &mut Hud) {
    let Some(scene) = hud.scene.0.as_ref() else {
        return;
    };
    let mut sorted: Vec<(Entity, Unit)> = hud.units.iter().map(|(e, u)| (e, u.clone())).collect();
    sorted.sort_by_key(|(_, u)| (u.army, u.index));
    for (ai, army) in scene.armies.iter().enumerate() {
        let points: u32 = army.units.iter().filter_map(|u| u.points).sum();
        ui.heading(format!("Player {}", army.player));
        ui.label(format!("{} ({}, {points} pts)", army.name, army.faction));
        for (entity, unit) in sorted.iter().filter(|(_, u)| u.army == ai) {
            let Some(data) = army.units.get(unit.index) else {
                continue;
            };
            let mut label = unit_label(scene, ai, data);
            if let Some(game) = &hud.active.game {
                let st = unit_status(game, ai, unit.index);
                if !st.is_empty() {
                    label.push_str(&format!("  [{}]", st.join(", ")));
                }
            }
            let chosen = hud.selection.unit == Some(*entity);
            if ui.selectable_label(chosen, label).clicked() {
                hud.selection.unit = if chosen { None } else { Some(*entity) };
            }
        }
        ui.separator();
    }
}

fn right_panel(ui: &mut egui::Ui, hud: &mut Hud) {
    let Some((_, unit)) = hud.selection.unit.and_then(|e| hud.units.get(e).ok()) else {
        return;
    };
    let unit = unit.clone();
    if let Some(game) = hud.active.game.clone() {
        orders(ui, hud, &game, unit.army, unit.index);
        ui.separator();
        wounds_and_status(ui, &game, unit.army, unit.index);
        if hud.play.los && hud.play.report.observer.is_some() {
            los_summary(ui, hud, &game);
        }
        eye_controls(ui, hud, &game);
        stratagems(ui, hud, &game, unit.army, unit.index);
        ui.separator();
    }
    if let Some(data) = hud
        .scene
        .0
        .as_ref()
        .and_then(|s| s.armies.get(unit.army))
        .and_then(|a| a.units.get(unit.index))
    {
        unit_card(ui, unit.player, data);
    }
}

fn wounds_and_status(ui: &mut egui::Ui, game: &Game, army: usize, unit: usize) {
    let st = unit_status(game, army, unit);
    if !st.is_empty() {
        ui.colored_label(AMBER, st.join(" | "));
    }
    let u = &game.scene.armies[army].units[unit];
    let wounds: Vec<String> = game.units[army][unit]
        .models
        .iter()
        .map(|m| {
            if m.alive {
                m.wounds.to_string()
            } else {
                "x".into()
            }
        })
        .collect();
    ui.label(format!(
        "Wounds left per model (W{}): {}",
        u.datasheet.wounds,
        wounds.join(" ")
    ));
}

fn orders(ui: &mut egui::Ui, hud: &mut Hud, game: &Game, army: usize, unit: usize) {
    let p = panels(game, army, unit);
    let player = game.player_of(army);
    let root = game.combined(army, unit)[0];
    let id = game.unit_id(army, root).to_string();
    if p.reserves {
        ui.strong("Setup");
        ui.horizontal(|ui| {
            for (label, kind) in [
                ("Deep Strike", ReserveKind::DeepStrike),
                ("Strategic Reserves", ReserveKind::StrategicReserves),
            ] {
                if ui.button(label).clicked() {
                    let c = Command::DeclareReserves {
                        player,
                        unit: id.clone(),
                        reserve: kind,
                    };
                    play::issue(&mut hud.writer, &mut hud.play, c);
                }
            }
        });
    }
    if p.deploy {
        ui.strong("Deployment");
        ui.label("Drag the unit (Ctrl-drag one model) within your zone, then Confirm; or:");
        if ui.button("Deploy where it stands").clicked() {
            let c = Command::Deploy {
                player,
                unit: id.clone(),
                models: Vec::new(),
                transport: None,
            };
            play::issue(&mut hud.writer, &mut hud.play, c);
        }
    }
    if p.movement {
        ui.strong("Movement");
        ui.horizontal(|ui| {
            ui.radio_value(&mut hud.play.move_mode, MoveMode::Normal, "Normal");
            ui.radio_value(&mut hud.play.move_mode, MoveMode::Advance, "Advance");
            ui.radio_value(&mut hud.play.move_mode, MoveMode::FallBack, "Fall Back");
        });
        ui.label("Drag the unit (Ctrl-drag one model), then Enter / Confirm.");
        if ui.button("Remain Stationary").clicked() {
            let c = Command::RemainStationary {
                player,
                unit: id.clone(),
            };
            play::issue(&mut hud.writer, &mut hud.play, c);
        }
    }
    if p.shooting {
        ui.strong("Shooting");
        attack_panel(ui, hud, game, player, &id, false);
    }
    if p.charge {
        ui.strong("Charge");
        charge_panel(ui, hud, game, army, root, &id);
    }
    if p.fight {
        ui.strong("Fight");
        fight_panel(ui, hud, game, player, army, root, &id);
    }
    if game.stage == Stage::Battle
        && game.phase == Phase::Fight
        && let Some((picker, ids)) = game.next_to_fight()
    {
        ui.colored_label(
            AMBER,
            format!(
                "Player {picker} selects a unit to fight: {}",
                ids.join(", ")
            ),
        );
    }
}

fn refresh_targets(
    cache: &mut PreviewCache,
    game: &Game,
    state: &str,
    player: u8,
    id: &str,
    melee: bool,
) {
    let key = (state.to_string(), format!("{id}/{melee}"));
    if cache.targets_key.as_ref() == Some(&key) {
        return;
    }
    let Ok((army, root)) = game.own_root(player, id) else {
        return;
    };
    // One row per weapon of the unit's legal loadout (each model's guns or pistols, one
    // melee weapon plus EXTRA ATTACKS), and per profile of a weapon with several; only one
    // profile row of a weapon may be given a target.
    let mut rows: Vec<(String, Vec<String>, WeaponTarget)> = Vec::new();
    for o in game.weapon_options(army, root, melee) {
        for label in o.labels() {
            let profile = label.strip_prefix(&format!("{} - ", o.weapon));
            let template = o.at("", profile);
            // The enemy units this row's models can attack (one preview each).
            let targets: Vec<String> = game
                .army_of(crate::rules::phase::opponent(player))
                .map(|enemy| {
                    game.unit_roots(enemy)
                        .into_iter()
                        .filter(|&u| !game.live_models(enemy, u).is_empty())
                        .map(|u| game.unit_id(enemy, u).to_string())
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
                .into_iter()
                .filter(|t| {
                    let wt = WeaponTarget {
                        target: t.clone(),
                        ..template.clone()
                    };
                    game.preview_attacks(player, id, &[wt], melee).is_ok()
                })
                .collect();
            rows.push((label, targets, template));
        }
    }
    cache.targets = rows;
    cache.targets_key = Some(key);
}

fn attack_panel(ui: &mut egui::Ui, hud: &mut Hud, game: &Game, player: u8, id: &str, melee: bool) {
    // One hash of the game per frame keys both caches.
    let state = game.state_hash();
    refresh_targets(&mut hud.cache, game, &state, player, id, melee);
    let weapons = hud.cache.targets.clone();
    hud.play
        .weapon_targets
        .retain(|(w, _)| weapons.iter().any(|(x, ..)| x == w));
    let mut given: Vec<String> = Vec::new();
    for (w, targets, template) in &weapons {
        if !hud.play.weapon_targets.iter().any(|(x, _)| x == w) {
            // By default the first profile of each weapon gets the first legal target.
            let first = !given.contains(&template.weapon);
            given.push(template.weapon.clone());
            hud.play
                .weapon_targets
                .push((w.clone(), targets.first().filter(|_| first).cloned()));
        }
    }
    for (w, targets, _) in &weapons {
        let slot = hud
            .play
            .weapon_targets
            .iter_mut()
            .find(|(x, _)| x == w)
            .expect("added above");
        ui.horizontal(|ui| {
            ui.label(w);
            egui::ComboBox::from_id_salt(format!("target-{w}"))
                .selected_text(slot.1.clone().unwrap_or("(none)".into()))
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut slot.1, None, "(none)");
                    for t in targets {
                        ui.selectable_value(&mut slot.1, Some(t.clone()), t);
                    }
                });
            if targets.is_empty() {
                ui.weak("no legal target");
            }
        });
    }
    let assigned: Vec<WeaponTarget> = hud
        .play
        .weapon_targets
        .iter()
        .filter_map(|(w, t)| {
            let (_, _, template) = weapons.iter().find(|(x, ..)| x == w)?;
            t.as_ref().map(|t| WeaponTarget {
                target: t.clone(),
                ..template.clone()
            })
        })
        .collect();
    let key = (state, id.to_string(), hud.play.weapon_targets.clone());
    if hud.cache.key.as_ref() != Some(&key) {
        hud.cache.result = (!assigned.is_empty()).then(|| {
            game.preview_attacks(player, id, &assigned, melee)
                .map_err(|r| r.to_string())
        });
        hud.cache.key = Some(key);
    }
    match &hud.cache.result {
        Some(Ok(previews)) => {
            for p in previews {
                preview_chart(ui, p);
            }
        }
        Some(Err(e)) => {
            ui.colored_label(RED, e);
        }
        None => {
            ui.weak("Assign a weapon to a target to see the odds.");
        }
    }
    let label = if melee {
        "Fight (roll)"
    } else {
        "Shoot (roll)"
    };
    // While declared attacks wait for the defender's answer, nobody else may shoot or fight.
    let waiting = game.pending_shot.is_some();
    if waiting {
        ui.weak("Waiting for the defending player's answer (Go to Ground, Smokescreen or none).");
    }
    if ui
        .add_enabled(!assigned.is_empty() && !waiting, egui::Button::new(label))
        .clicked()
    {
        let c = if melee {
            Command::Fight {
                player,
                unit: id.to_string(),
                weapons: assigned,
            }
        } else {
            Command::Shoot {
                player,
                unit: id.to_string(),
                weapons: assigned,
            }
        };
        play::issue(&mut hud.writer, &mut hud.play, c);
        hud.play.weapon_targets.clear();
    }
}

/// The expected damage and the models-destroyed distribution of one target, as a bar chart.
pub fn preview_chart(ui: &mut egui::Ui, p: &AttackPreview) {
    let d: &AttackDistribution = &p.distribution;
    ui.label(format!(
        "At {}: {} bearers, expected {:.2} wounds, {:.2} of {} models destroyed{}",
        p.target,
        p.bearers,
        d.expected_wounds_lost,
        d.expected_models_destroyed,
        p.target_models,
        if p.benefit_of_cover {
            " (Benefit of Cover)"
        } else {
            ""
        }
    ));
    let bars = &d.models_destroyed;
    let n = bars.len().max(1);
    let (rect, _) = ui.allocate_exact_size(
        egui::vec2(ui.available_width().min(330.0), 90.0),
        egui::Sense::hover(),
    );
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, egui::Color32::from_gray(30));
    let w = rect.width() / n as f32;
    let top = bars.iter().copied().fold(0.0f64, f64::max).max(1e-9);
    for (k, &pk) in bars.iter().enumerate() {
        let h = (pk / top) as f32 * (rect.height() - 16.0);
        let x0 = rect.left() + k as f32 * w;
        let bar = egui::Rect::from_min_max(
            egui::pos2(x0 + 1.0, rect.bottom() - 14.0 - h),
            egui::pos2(x0 + w - 1.0, rect.bottom() - 14.0),
        );
        painter.rect_filled(bar, 1.0, egui::Color32::from_rgb(90, 150, 230));
        painter.text(
            egui::pos2(x0 + w / 2.0, rect.bottom() - 7.0),
            egui::Align2::CENTER_CENTER,
            k.to_string(),
            egui::FontId::proportional(10.0),
            egui::Color32::LIGHT_GRAY,
        );
        if pk >= 0.005 {
            painter.text(
                egui::pos2(x0 + w / 2.0, bar.top() - 6.0),
                egui::Align2::CENTER_CENTER,
                format!("{:.0}%", pk * 100.0),
                egui::FontId::proportional(9.0),
                egui::Color32::WHITE,
            );
        }
    }
    ui.weak("Models destroyed: probability of each count");
    if !p.excluded.is_empty() {
        ui.weak(format!("Not attacking: {}", p.excluded.join("; ")));
    }
}

fn charge_panel(ui: &mut egui::Ui, hud: &mut Hud, game: &Game, army: usize, root: usize, id: &str) {
    let player = game.player_of(army);
    if let Some(c) = game
        .charge
        .as_ref()
        .filter(|c| c.army == army && c.unit == root)
    {
        ui.label(format!(
            "Charge roll {} - drag the models into Engagement Range of every target, then Confirm.",
            c.distance()
        ));
        if ui
            .button("Make no charge move (the charge fails)")
            .clicked()
        {
            let cmd = Command::ChargeMove {
                player,
                unit: id.to_string(),
                paths: Vec::new(),
            };
            play::issue(&mut hud.writer, &mut hud.play, cmd);
        }
        return;
    }
    let Some(enemy) = game.army_of(if player == 1 { 2 } else { 1 }) else {
        return;
    };
    let mut any = false;
    for u in game.unit_roots(enemy) {
        if game.live_models(enemy, u).is_empty() {
            continue;
        }
        let d = game.unit_distance((army, root), (enemy, u));
        if d > CHARGE_RANGE_INCHES {
            continue;
        }
        any = true;
        let tid = game.unit_id(enemy, u).to_string();
        let mut ticked = hud.play.charge_targets.contains(&tid);
        if ui
            .checkbox(&mut ticked, format!("{tid} ({d:.1}\")"))
            .changed()
        {
            if ticked {
                hud.play.charge_targets.insert(tid);
            } else {
                hud.play.charge_targets.remove(&tid);
            }
        }
    }
    if !any {
        ui.weak(format!("No enemy unit within {CHARGE_RANGE_INCHES}\"."));
        return;
    }
    let targets: Vec<String> = hud.play.charge_targets.iter().cloned().collect();
    if targets.is_empty() {
        return;
    }
    match game.charge_odds(player, id, &targets) {
        Ok(o) => {
            ui.label(format!(
                "Needs {}+ on 2D6 ({:.1}\" away): {:.0}% to succeed",
                o.needed,
                o.distance,
                o.probability * 100.0
            ));
        }
        Err(e) => {
            ui.colored_label(RED, e.to_string());
        }
    }
    if ui.button("Declare charge (roll 2D6)").clicked() {
        let c = Command::DeclareCharge {
            player,
            unit: id.to_string(),
            targets,
        };
        play::issue(&mut hud.writer, &mut hud.play, c);
        hud.play.charge_targets.clear();
    }
}

fn fight_panel(
    ui: &mut egui::Ui,
    hud: &mut Hud,
    game: &Game,
    player: u8,
    army: usize,
    root: usize,
    id: &str,
) {
    let current = game
        .fight
        .as_ref()
        .and_then(|f| f.current)
        .filter(|&(a, u, _)| a == army && u == root);
    match current {
        None => {
            ui.label("Select this unit: drag to Pile In (3\"), then Confirm; or:");
            if ui.button("Pile In without moving").clicked() {
                let c = Command::PileIn {
                    player,
                    unit: id.to_string(),
                    paths: Vec::new(),
                };
                play::issue(&mut hud.writer, &mut hud.play, c);
            }
        }
        Some((_, _, false)) => attack_panel(ui, hud, game, player, id, true),
        Some((_, _, true)) => {
            ui.label("Drag to Consolidate (3\"), then Confirm; or:");
            if ui.button("Consolidate without moving").clicked() {
                let c = Command::Consolidate {
                    player,
                    unit: id.to_string(),
                    paths: Vec::new(),
                };
                play::issue(&mut hud.writer, &mut hud.play, c);
            }
        }
    }
}

fn stratagems(ui: &mut egui::Ui, hud: &mut Hud, game: &Game, army: usize, unit: usize) {
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
                                    play::issue(&mut hud.writer, &mut hud.play, c);
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
                                play::issue(&mut hud.writer, &mut hud.play, c);
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
                    play::issue(&mut hud.writer, &mut hud.play, c);
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

fn los_summary(ui: &mut egui::Ui, hud: &mut Hud, game: &Game) {
    ui.separator();
    ui.strong("Line of sight (L)");
    let report = hud.play.report.clone();
    let Some((army, _)) = report.observer else {
        return;
    };
    let Some(enemy) = game.army_of(if game.player_of(army) == 1 { 2 } else { 1 }) else {
        return;
    };
    for u in game.unit_roots(enemy) {
        let models: Vec<_> = report
            .targets
            .iter()
            .filter(|t| game.combined(enemy, u).contains(&t.model.unit))
            .collect();
        if models.is_empty() {
            continue;
        }
        let fully = models
            .iter()
            .filter(|t| t.status == SightStatus::FullyVisible)
            .count();
        let visible = models
            .iter()
            .filter(|t| t.status != SightStatus::NotVisible)
            .count();
        let cover = models.iter().filter(|t| t.cover.is_some()).count();
        let colour = if fully > 0 {
            GREEN
        } else if visible > 0 {
            AMBER
        } else {
            egui::Color32::GRAY
        };
        ui.horizontal(|ui| {
            ui.colored_label(
                colour,
                format!(
                    "{}: {visible}/{} visible, {fully} fully",
                    game.unit_id(enemy, u),
                    models.len()
                ),
            );
            if cover > 0 {
                ui.colored_label(AMBER, "[Cover]").on_hover_text(
                    models
                        .iter()
                        .filter_map(|t| t.cover.clone())
                        .next()
                        .unwrap_or_default(),
                );
            }
            if visible > 0
                && ui
                    .small_button("eye")
                    .on_hover_text("Model's-eye view of this unit")
                    .clicked()
                && let Some(target) = models.iter().find(|t| t.status != SightStatus::NotVisible)
                && let Some(observer) = game
                    .live_models(army, report.observer.expect("checked").1)
                    .first()
                    .copied()
            {
                hud.play.eye = Some(play::EyeView {
                    observer,
                    target: target.model,
                    full: false,
                });
            }
        });
    }
}

fn eye_controls(ui: &mut egui::Ui, hud: &mut Hud, game: &Game) {
    let Some(eye) = hud.play.eye else { return };
    ui.horizontal_wrapped(|ui| {
        ui.colored_label(
            AMBER,
            format!(
                "Model's-eye view: {} looking at {}",
                game.model_name(eye.observer),
                game.model_name(eye.target)
            ),
        );
        if ui
            .small_button(if eye.full {
                "Picture-in-picture (V)"
            } else {
                "Full view (V)"
            })
            .clicked()
            && let Some(e) = hud.play.eye.as_mut()
        {
            e.full = !e.full;
        }
        if ui.small_button("Close (Esc)").clicked() {
            hud.play.eye = None;
        }
    });
}

fn tape_window(ctx: &egui::Context, hud: &mut Hud) {
    let (Some(tape), Some(game)) = (&hud.play.tape, &hud.active.game) else {
        return;
    };
    let text = match tape.picks[..] {
        [a, b] => super::overlay::tape_text(game, a, b),
        [a] => format!("From {}: click a second model", game.model_name(a)),
        _ => "Click two models to measure between their bases".into(),
    };
    egui::Window::new("Measuring tape (T)")
        .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(260.0, -140.0))
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label(text);
        });
}

fn draft_window(ctx: &egui::Context, hud: &mut Hud) {
    let Some(game) = hud.active.game.clone() else {
        return;
    };
    let Some(draft) = hud.play.draft.clone() else {
        return;
    };
    let used = draft_distance(&game, &draft);
    let limit = allowance(&game, &draft, hud.play.move_mode);
    egui::Window::new("Move")
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 40.0))
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            let distance = match limit {
                Some(l) => format!("{used:.1}\" used of {l:.1}\" ({:.1}\" left)", l - used),
                None => format!("{used:.1}\" used"),
            };
            ui.label(format!(
                "{} - {distance}",
                game.unit_id(draft.army, draft.unit)
            ));
            match &hud.play.verdict {
                Some(Verdict::Legal {
                    advance_roll_needed,
                }) => {
                    let mut text = "Legal".to_string();
                    if let Some(n) = advance_roll_needed {
                        text.push_str(&format!(
                            " if the Advance roll is {n}+ ({:.0}%)",
                            (7 - (*n).min(7)) as f64 / 6.0 * 100.0
                        ));
                    }
                    ui.colored_label(GREEN, text);
                }
                Some(Verdict::Illegal(r)) => {
                    ui.colored_label(RED, format!("Refused - {r}"));
                }
                Some(Verdict::Nothing(why)) => {
                    ui.colored_label(RED, why);
                }
                None => {}
            }
            ui.horizontal(|ui| {
                let legal = hud.play.verdict.as_ref().is_some_and(Verdict::is_legal);
                if ui
                    .add_enabled(legal, egui::Button::new("Confirm (Enter)"))
                    .clicked()
                    && let Ok(c) = play::draft_command(&game, &draft, hud.play.move_mode)
                {
                    play::issue(&mut hud.writer, &mut hud.play, c);
                }
                // Charge, Pile-in and Consolidation moves: models that can touch an enemy
                // model must; offer the same move with them sent into base contact.
                if let Ok(c) = play::draft_command(&game, &draft, hud.play.move_mode)
                    && game.missed_base_contact(&c).is_some()
                    && ui
                        .button("Into base contact")
                        .on_hover_text(
                            "The same move, each model that can reach an enemy model touching it",
                        )
                        .clicked()
                {
                    play::issue(&mut hud.writer, &mut hud.play, game.with_base_contact(&c));
                }
                if ui.button("Cancel (Esc)").clicked() {
                    hud.play.draft = None;
                }
            });
        });
}

fn los_hover(ctx: &egui::Context, hud: &Hud) {
    let Some(text) = super::overlay::hover_text(&hud.play, hud.active.game.as_ref()) else {
        return;
    };
    if let Some(pos) = ctx.pointer_latest_pos() {
        egui::Area::new("los-hover".into())
            .fixed_pos(pos + egui::vec2(16.0, 16.0))
            .order(egui::Order::Tooltip)
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.label(text);
                });
            });
    }
}

fn menu_window(ctx: &egui::Context, hud: &mut Hud) {
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
                        hud.commands.queue(move |world: &mut World| {
                            super::menu::put_on_table_against(world, started, computer)
                        });
                        hud.selection.unit = None;
                    }
                    Err(e) => hud.play.log.push(format!("cannot start: {e}")),
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
                                    hud.commands.queue(move |world: &mut World| {
                                        put_on_table(world, started)
                                    });
                                    hud.selection.unit = None;
                                }
                                Err(e) => hud.play.log.push(format!("cannot load: {e}")),
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
                            let editor = super::editor::Editor::new(
                                design,
                                std::path::PathBuf::from("scenes"),
                                watched,
                            );
                            hud.commands.queue(move |world: &mut World| {
                                super::editor::open_editor(world, editor)
                            });
                        }
                        Err(e) => hud.play.log.push(format!("cannot open the editor: {e}")),
                    }
                }
                if hud.active.game.is_some() && ui.button("Back to the game").clicked() {
                    hud.next_screen.set(Screen::Table);
                }
            });
            if let Some(last) = hud.play.log.last().filter(|l| l.starts_with("cannot")) {
                ui.colored_label(RED, last);
            }
        });
}

fn help(ui: &mut egui::Ui) {
    egui::Grid::new("help-keys").striped(true).show(ui, |ui| {
        for (k, v) in [
            (
                "Left-click a model",
                "select its unit (card and orders on the right)",
            ),
            ("Left-drag a model", "draft a move of its whole unit"),
            ("Ctrl + left-drag", "draft a move of one model"),
            ("Enter / Esc", "confirm / cancel the drafted move"),
            ("Right-drag", "orbit the camera"),
            ("Middle-drag, Shift+right-drag", "pan"),
            ("Wheel", "zoom"),
            ("WASD / arrows, Q/E, R/F", "pan, turn, tilt"),
            ("Home", "reset the view"),
            ("L", "line-of-sight tool for the selected unit"),
            ("T", "measuring tape: click two models"),
            ("V", "model's-eye view: picture-in-picture / full"),
            ("Ctrl+Z", "undo the last command"),
            ("F1", "this help"),
        ] {
            ui.strong(k);
            ui.label(v);
            ui.end_row();
        }
    });
    ui.label("Green ghost: the engine accepts the move. Red: refused, with the rule broken.");
    ui.label("LOS tint: green fully visible, amber visible, grey not visible. Hover an enemy model for the reason.");
}
