//! The egui overlay of the game: main menu, phase bar, armies list, unit card with status, order
//! panels (deploy, move, shoot with the odds, charge with the odds, fight), Stratagems, the
//! unit's abilities and army rules with the referee override, dice log, draft feedback,
//! hand-over screen and the F1 help, one panel per file. Panels write commands through
//! [`play::issue`]; the engine answers through the battle plugin.

mod abilities;
mod armies;
mod army_rules;
mod attack;
mod charge;
mod dice_log;
mod draft;
mod eye_controls;
mod fight;
mod handover;
mod help;
pub mod labels;
mod los_hover;
mod los_summary;
pub mod losses;
mod menu;
mod orders;
pub mod phase_bar;
mod preview_chart;
mod scene_errors;
mod stratagems;
mod summary;
mod tape;
mod unit_panel;

use std::sync::Arc;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::play::{
    self, DiceLog, Drafting, HandOver, OrderPanels, SightTools, TableTools, Verdict,
};
use super::screens::Screen;
use super::screens::menu::{NewGameForm, SaveList, SavesDir};
use super::selection::Selection;
use super::ui::PanelInsets;
use crate::game::Game;
use crate::sim::battle::{ActiveGame, GameCommand, InputSystems, UndoRequested};
use crate::sim::components::Unit;
use crate::sim::{ActiveScene, SceneErrors};

pub use crate::app::play::unit_status;
pub use attack::PreviewCache;
pub use preview_chart::preview_chart;

const RED: egui::Color32 = egui::Color32::from_rgb(235, 90, 80);
const GREEN: egui::Color32 = egui::Color32::from_rgb(90, 200, 110);
const AMBER: egui::Color32 = egui::Color32::from_rgb(235, 190, 70);

/// Player `p`'s table colour (1 or 2) with each sRGB channel `x` (0 to 1) mapped by `f`.
fn shade(p: u8, f: impl Fn(f32) -> f32) -> egui::Color32 {
    let c = crate::app::table::PLAYER_COLOURS[usize::from(p.clamp(1, 2) - 1)].to_srgba();
    let ch = |x: f32| (f(x) * 255.0) as u8;
    egui::Color32::from_rgb(ch(c.red), ch(c.green), ch(c.blue))
}

/// Player `p`'s table colour as it is (the phase bar's CP and VP).
fn table_colour(p: u8) -> egui::Color32 {
    shade(p, |x| x)
}

/// A dark shade of player `p`'s colour: the phase bar's fill while that side acts in a solo
/// game.
fn acting_tint(p: u8) -> egui::Color32 {
    shade(p, |x| (x * 70.0 + 12.0) / 255.0)
}

/// Player `p`'s table colour lightened, for text on the overlay's dark panels.
fn player_colour(p: u8) -> egui::Color32 {
    shade(p, |x| x * 0.6 + 0.4)
}

/// Registers the overlay, drawn on the menu and the table (the editor draws its own panels).
pub fn plugin(app: &mut App) {
    app.init_resource::<PanelInsets>()
        .add_plugins(attack::plugin)
        .add_systems(
            EguiPrimaryContextPass,
            overlay.run_if(not(in_state(Screen::Editor))),
        )
        .add_systems(
            Update,
            keys.run_if(not(in_state(Screen::Editor)))
                .run_if(crate::app::ui::keys_free)
                .in_set(InputSystems),
        );
}

/// Everything the overlay's panels read and write.
#[derive(SystemParam)]
struct Hud<'w, 's> {
    scene: Res<'w, ActiveScene>,
    errors: Res<'w, SceneErrors>,
    selection: ResMut<'w, Selection>,
    insets: ResMut<'w, PanelInsets>,
    cameras: Query<
        'w,
        's,
        (&'static Camera, &'static GlobalTransform),
        With<super::camera::OrbitCamera>,
    >,
    units: Query<'w, 's, (Entity, &'static Unit)>,
    active: Res<'w, ActiveGame>,
    drafting: ResMut<'w, Drafting>,
    sight: ResMut<'w, SightTools>,
    tools: ResMut<'w, TableTools>,
    log: ResMut<'w, DiceLog>,
    handover: ResMut<'w, HandOver>,
    auto_deploy: ResMut<'w, play::AutoDeploy>,
    orders: ResMut<'w, OrderPanels>,
    writer: MessageWriter<'w, GameCommand>,
    undo: MessageWriter<'w, UndoRequested>,
    screen: Res<'w, State<Screen>>,
    next_screen: ResMut<'w, NextState<Screen>>,
    form: ResMut<'w, NewGameForm>,
    import: ResMut<'w, crate::app::screens::menu::ArmyImport>,
    saves: Res<'w, SavesDir>,
    save_list: Res<'w, SaveList>,
    cache: ResMut<'w, PreviewCache>,
    commands: Commands<'w, 's>,
    /// A shared copy of the game the panels draw from, renewed only when the game changes
    /// (the panels need the game and the rest of the HUD at once).
    game_copy: Local<'s, Option<(bevy::ecs::change_detection::Tick, Option<Arc<Game>>)>>,
}

impl Hud<'_, '_> {
    /// The game as it stands, shared with the panels: a copy made when the game has changed
    /// since the last copy (by its change tick), not every frame.
    fn game(&mut self) -> Option<Arc<Game>> {
        let changed = self.active.last_changed();
        if self.game_copy.as_ref().is_none_or(|(t, _)| *t != changed) {
            *self.game_copy = Some((changed, self.active.game.clone().map(Arc::new)));
        }
        self.game_copy.as_ref().and_then(|(_, g)| g.clone())
    }
}

/// The game's keys: F1 help, L line of sight, T tape, H threat overlay, C unit card or strip,
/// V eye view, Esc, Enter, Ctrl+Z.
fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut drafting: ResMut<Drafting>,
    mut sight: ResMut<SightTools>,
    mut tools: ResMut<TableTools>,
    active: Res<ActiveGame>,
    mut writer: MessageWriter<GameCommand>,
    mut undo: MessageWriter<UndoRequested>,
) {
    if keys.just_pressed(KeyCode::F1) {
        tools.help = !tools.help;
    }
    if keys.just_pressed(KeyCode::KeyL) {
        sight.los = !sight.los;
    }
    if keys.just_pressed(KeyCode::KeyH) {
        tools.threat = tools.threat.next();
    }
    if keys.just_pressed(KeyCode::KeyC) {
        tools.card_strip = !tools.card_strip;
    }
    if keys.just_pressed(KeyCode::KeyN) {
        tools.labels_hidden = !tools.labels_hidden;
    }
    if keys.just_pressed(KeyCode::KeyT) {
        tools.tape = if tools.tape.is_some() {
            None
        } else {
            Some(play::Tape::default())
        };
    }
    if keys.just_pressed(KeyCode::KeyV)
        && let Some(eye) = sight.eye.as_mut()
    {
        eye.full = !eye.full;
    }
    if keys.just_pressed(KeyCode::Escape) {
        drafting.draft = None;
        sight.eye = None;
    }
    if keys.just_pressed(KeyCode::Enter)
        && drafting.verdict.as_ref().is_some_and(Verdict::is_legal)
        && let (Some(game), Some(draft)) = (&active.game, &drafting.draft)
        && let Ok(c) = play::draft_command(game, draft, drafting.move_mode)
    {
        play::issue(&mut writer, &mut drafting, c);
    }
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    if ctrl && keys.just_pressed(KeyCode::KeyZ) {
        undo.write(UndoRequested);
    }
}

/// Draws the game's overlay: the bars and side panels first (the space they cover is written
/// to [`PanelInsets`] so the 3D view fits beside them), then the windows over the table.
fn overlay(mut contexts: EguiContexts, mut hud: Hud) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let mut covered = PanelInsets::default();
    let mut root = egui::Ui::new(
        ctx.clone(),
        "wartable-overlay".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    // In a solo game the bar takes the acting side's colour (one person plays both).
    let mut bar = egui::Frame::side_top_panel(root.style());
    if hud.handover.seats == play::Seats::Solo
        && let Some(game) = &hud.active.game
        && game.stage != crate::rules::phase::Stage::GameOver
    {
        let p = game.acting_player().unwrap_or(game.active_player);
        bar = bar
            .fill(acting_tint(p))
            .stroke(egui::Stroke::new(2.0, player_colour(p)));
    }
    covered.top = egui::Panel::top("phase-bar")
        .frame(bar)
        .show(&mut root, |ui| phase_bar::phase_bar(ui, &mut hud))
        .response
        .rect
        .height();
    if hud.active.game.is_some() {
        let log_height = play::dice_log_height(ctx.viewport_rect().height());
        covered.bottom = egui::Panel::bottom("dice-log")
            .resizable(true)
            .default_size(log_height)
            .show(&mut root, |ui| dice_log::dice_log(ui, &mut hud.log))
            .response
            .rect
            .height();
    }
    // The side panels start at a share of the window (resizable; the table keeps more than
    // half the width), and the unit card folds to a strip under the phase bar.
    let width = ctx.viewport_rect().width();
    let (left, right) = play::panel_widths(width);
    if hud.selection.unit.is_some() && hud.tools.card_strip {
        covered.top += egui::Panel::top("unit-strip")
            .show(&mut root, |ui| unit_panel::unit_strip(ui, &mut hud))
            .response
            .rect
            .height();
    }
    if !hud.tools.armies_hidden {
        covered.left = egui::Panel::left("armies")
            .resizable(true)
            .default_size(left)
            .size_range(120.0..=width * 0.35)
            .show(&mut root, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| armies::armies(ui, &mut hud));
            })
            .response
            .rect
            .width();
    }
    if hud.selection.unit.is_some() && !hud.tools.card_strip {
        covered.right = egui::Panel::right("unit-card")
            .resizable(true)
            .default_size(right)
            .size_range(220.0..=width * 0.5)
            .show(&mut root, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| unit_panel::unit_panel(ui, &mut hud));
            })
            .response
            .rect
            .width();
    }
    // egui measures in its points; the window in logical pixels, zoom factor times larger.
    let zoom = ctx.zoom_factor();
    covered.left *= zoom;
    covered.right *= zoom;
    covered.top *= zoom;
    covered.bottom *= zoom;
    hud.insets.set_if_neq(covered);
    if !hud.tools.labels_hidden
        && *hud.screen.get() == Screen::Table
        && let Some(game) = hud.active.game.as_ref()
        && let Ok(camera) = hud.cameras.single()
    {
        labels::unit_labels(&ctx, game, camera, &hud.insets);
    }
    draft::draft_window(&ctx, &mut hud);
    tape::tape_window(&ctx, &mut hud);
    los_hover::los_hover(&ctx, &hud);
    if *hud.screen.get() == Screen::Menu {
        menu::menu_window(&ctx, &mut hud);
    }
    if hud
        .active
        .game
        .as_ref()
        .is_some_and(|g| g.stage == crate::rules::phase::Stage::GameOver)
        && !hud.tools.summary_hidden
        && *hud.screen.get() == Screen::Table
    {
        summary::summary_window(&ctx, &mut hud);
    }
    if let Some(player) = hud.handover.to {
        handover::handover_screen(&ctx, &mut hud, player);
    }
    if hud.tools.legend && *hud.screen.get() == Screen::Table {
        let mut open = true;
        egui::Window::new("Legend")
            .open(&mut open)
            .collapsible(false)
            .default_width(360.0)
            .show(&ctx, help::legend);
        hud.tools.legend = open;
    }
    if hud.tools.help {
        egui::Window::new("Help (F1)")
            .collapsible(false)
            .default_width(460.0)
            .show(&ctx, help::help);
    }
    if !hud.errors.0.is_empty() {
        scene_errors::scene_errors(&ctx, &hud.errors.0);
    }
    Ok(())
}
