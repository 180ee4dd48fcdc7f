//! The layout editor screen: add, select, move, turn, resize and delete terrain pieces of every
//! category and the objective markers, choose the deployment map, snap to the 0.5" grid and
//! 15° steps, edit in 180° mirror mode, undo and redo, save and open layouts in `scenes/`
//! (a layout file changed on disk reloads through Bevy's asset hot reload), validation shown
//! live, and the sight analysis with its heatmap drawn over the table.
//!
//! The editing itself is [`crate::design`]; this module only turns input into its calls and
//! draws.
//!
//! One file per concern: [`hot_reload`] (the watched layout file), `input` (mouse and keys),
//! `actions` (turn, delete, undo, redo, save), [`heatmap`] (the analysis and its picture on the
//! table), `gizmos` (outlines), the panels (`panels`, `tools`, `selected`, `analysis_panel`)
//! and [`scenario()`] (scripted starts).

mod actions;
mod analysis_panel;
mod gizmos;
pub mod heatmap;
pub mod hot_reload;
mod input;
mod panels;
pub mod scenario;
mod selected;
mod tools;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::thread::JoinHandle;

use bevy::prelude::*;
use bevy_egui::input::{egui_wants_any_keyboard_input, egui_wants_any_pointer_input};
use bevy_egui::{EguiPrimaryContextPass, egui};

use super::screens::Screen;
use crate::design::Design;
use crate::design::analysis::{Analysis, AnalysisInput, analyze_under, work};
use crate::design::edit::History;
use crate::design::validate::{Problem, validate};
use crate::geometry::Vec2;
use crate::sim::ActiveScene;

pub use heatmap::HeatmapOverlay;
pub use hot_reload::{LayoutText, LayoutTextLoader, SCENES_SOURCE, register_source};
pub use scenario::scenario;

const RED: egui::Color32 = egui::Color32::from_rgb(235, 90, 80);
const GREEN: egui::Color32 = egui::Color32::from_rgb(90, 200, 110);

/// What is selected in the editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Picked {
    /// A terrain piece, by index in the layout.
    Piece(usize),
    /// One of the layout's own objective markers, by index.
    Objective(usize),
}

/// Which heatmap is drawn over the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HeatmapView {
    /// None.
    #[default]
    Off,
    /// The infantry probe's.
    Infantry,
    /// The vehicle probe's.
    Vehicle,
}

/// A running analysis: its progress counter, the work it will do and the thread.
pub struct RunningAnalysis {
    /// Units of work done.
    pub done: Arc<AtomicUsize>,
    /// Units of work in all.
    pub total: usize,
    handle: JoinHandle<Analysis>,
    input: AnalysisInput,
}

struct Drag {
    target: Picked,
    offset: Vec2,
    before: Design,
    moved: bool,
}

/// The editor's state.
#[derive(Resource)]
pub struct Editor {
    /// The design being edited.
    pub design: Design,
    /// Undo and redo.
    pub history: History<Design>,
    /// The selection.
    pub picked: Option<Picked>,
    /// Snap to the 0.5" grid and 15° steps.
    pub snap: bool,
    /// Mirror mode: the 180° image follows every edit.
    pub mirror: bool,
    /// Name the layout is saved under.
    pub name: String,
    /// The scenes folder layouts are saved into.
    pub scenes_dir: PathBuf,
    /// The layout file on disk that reloads when it changes.
    pub watched: Option<PathBuf>,
    /// Messages for the user, newest last.
    pub log: Vec<String>,
    /// The name whose save was refused because its files exist: Save pressed again under
    /// it replaces them.
    pub replace_confirmed: Option<String>,
    /// The name whose save was held back because the layout has [`Editor::problems`]: Save
    /// pressed again under it saves the layout as it is.
    pub problems_confirmed: Option<String>,
    /// The system's file dialog for a scene to open ("Open a scene file..."), while it is open.
    pub browse: crate::app::ui::FilePick,
    /// Validation problems of the current design.
    pub problems: Vec<Problem>,
    /// The last analysis, with the input it was made from.
    pub analysis: Option<(Analysis, AnalysisInput)>,
    /// The analysis under way.
    pub running: Option<RunningAnalysis>,
    /// Heatmap cell for the analysis (inches).
    pub cell: f32,
    /// Which heatmap is drawn.
    pub heatmap: HeatmapView,
    drag: Option<Drag>,
    handle: Option<Handle<LayoutText>>,
    shown: Option<Design>,
}

impl Editor {
    /// An editor on `design`, saving into `scenes_dir`, watching `watched`.
    pub fn new(design: Design, scenes_dir: PathBuf, watched: Option<PathBuf>) -> Self {
        Editor {
            name: design.layout.name.clone(),
            design,
            history: History::default(),
            picked: None,
            snap: true,
            mirror: false,
            scenes_dir,
            watched,
            log: Vec::new(),
            replace_confirmed: None,
            problems_confirmed: None,
            browse: crate::app::ui::FilePick::default(),
            problems: Vec::new(),
            analysis: None,
            running: None,
            cell: 1.0,
            heatmap: HeatmapView::Off,
            drag: None,
            handle: None,
            shown: None,
        }
    }

    /// Applies `edit` to the design as one undoable step.
    pub fn edit(&mut self, edit: impl FnOnce(&mut Design)) {
        let before = self.design.clone();
        edit(&mut self.design);
        if self.design != before {
            self.history.record(&before);
        }
        self.clamp_pick();
    }

    fn clamp_pick(&mut self) {
        self.picked = match self.picked {
            Some(Picked::Piece(i)) if i < self.design.layout.pieces.len() => self.picked,
            Some(Picked::Objective(i)) if i < self.design.layout.objectives.len() => self.picked,
            _ => None,
        };
    }

    /// Starts the analysis of the current design in a background thread.
    pub fn start_analysis(&mut self) {
        let input = self.design.analysis_input();
        let done = Arc::new(AtomicUsize::new(0));
        let total = work(&input, self.cell);
        let (job_input, job_done, cell) = (input.clone(), done.clone(), self.cell);
        let rules = self.design.to_scene().terrain_rules();
        let handle = std::thread::spawn(move || analyze_under(&job_input, &rules, cell, &job_done));
        self.running = Some(RunningAnalysis {
            done,
            total,
            handle,
            input,
        });
    }

    /// Forgets which design the table shows, so the design is put on the table again (on
    /// entering the editor, after the table showed something else).
    pub fn show_again(&mut self) {
        self.shown = None;
    }

    /// Replaces the design by one opened from disk (an undoable step).
    fn open(&mut self, design: Design, watched: Option<PathBuf>) {
        self.edit(|d| *d = design);
        self.name = self.design.layout.name.clone();
        self.watched = watched;
        self.handle = None;
        self.picked = None;
    }
}

/// Registers the editor's systems (entering the editor is [`crate::app::screens::editor`]).
pub fn plugin(app: &mut App) {
    app.init_asset::<LayoutText>()
        .init_asset_loader::<LayoutTextLoader>()
        .add_systems(
            Update,
            (
                input::keys.run_if(not(egui_wants_any_keyboard_input)),
                input::mouse.run_if(not(egui_wants_any_pointer_input)),
                show,
                hot_reload::watch,
                heatmap::poll_analysis,
                gizmos::draw,
            )
                .chain()
                .run_if(in_state(Screen::Editor).and_then(resource_exists::<Editor>)),
        )
        .add_systems(
            EguiPrimaryContextPass,
            panels::panels.run_if(in_state(Screen::Editor).and_then(resource_exists::<Editor>)),
        );
}

/// Puts the design on the table when it changes, and revalidates it.
fn show(mut editor: ResMut<Editor>, mut scene: ResMut<ActiveScene>) {
    if editor.shown.as_ref() == Some(&editor.design) {
        return;
    }
    scene.0 = Some(editor.design.to_scene());
    let resolved = editor.design.resolved();
    editor.problems = validate(&resolved.pieces, &editor.design.objectives());
    editor.shown = Some(editor.design.clone());
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::actions::{delete, redo, save, set_mirror, turn, undo};
    use super::input::{pick_at, pick_preferring};
    use super::*;
    use crate::design::ROTATION_SNAP_DEGREES;
    use crate::design::edit::put_objective;
    use crate::design::mirror::is_symmetric;
    use crate::geometry::{Point, Vec2};
    use crate::rules::mission::ObjectiveMarker;

    fn editor() -> Editor {
        let design = Design::open(
            Path::new("scenes/layouts/layout-1.ron"),
            Path::new("scenes/deployments/search-and-destroy.ron"),
        )
        .unwrap();
        Editor::new(design, PathBuf::from("scenes"), None)
    }

    #[test]
    fn a_click_picks_the_piece_or_marker_under_it() {
        let mut e = editor();
        let first = e.design.layout.pieces[0].at.vec();
        assert_eq!(pick_at(&e.design, first), Some(Picked::Piece(0)));
        assert_eq!(pick_at(&e.design, Vec2::new(0.2, 0.2)), None);
        e.edit(|d| {
            put_objective(
                &mut d.layout,
                None,
                ObjectiveMarker {
                    id: "x".into(),
                    at: Point(first.x, first.y),
                    z: 0.0,
                },
                false,
            );
        });
        // A marker is picked before the piece it stands on.
        assert_eq!(pick_at(&e.design, first), Some(Picked::Objective(0)));
    }

    #[test]
    fn turning_deleting_and_undoing_in_mirror_mode() {
        let mut e = editor();
        let start = e.design.clone();
        e.mirror = true;
        e.picked = Some(Picked::Piece(0));
        turn(&mut e, ROTATION_SNAP_DEGREES);
        assert_eq!(e.design.layout.pieces[0].rotation, 15.0);
        assert!(is_symmetric(&e.design.layout));
        delete(&mut e);
        assert_eq!(e.design.layout.pieces.len(), start.layout.pieces.len() - 2);
        assert!(is_symmetric(&e.design.layout));
        undo(&mut e);
        undo(&mut e);
        assert_eq!(e.design, start);
        redo(&mut e);
        assert_eq!(e.design.layout.pieces[0].rotation, 15.0);
    }

    #[test]
    fn the_designer_scenario_moves_a_piece_and_its_image_and_analyses() {
        let mut e = editor();
        e.mirror = true;
        scenario(&mut e, "designer").unwrap();
        assert!(is_symmetric(&e.design.layout));
        let (a, _) = e.analysis.as_ref().unwrap();
        assert_eq!(a.asymmetry.score, 0.0);
        assert_eq!(e.heatmap, HeatmapView::Infantry);
        assert!(scenario(&mut e, "nope").is_err());
    }

    #[test]
    fn a_layout_with_problems_is_saved_only_when_save_is_pressed_again() {
        let dir = std::env::temp_dir().join(format!("wartable-editor-save-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut e = editor();
        e.scenes_dir = dir.clone();
        e.name = "Crowded Table".into();
        // The second piece moved onto the first: their footprints overlap.
        let first = e.design.layout.pieces[0].at;
        e.edit(|d| d.layout.pieces[1].at = first);
        let resolved = e.design.resolved();
        e.problems = crate::design::validate::validate(&resolved.pieces, &e.design.objectives());
        assert!(!e.problems.is_empty(), "the test needs an overlap");
        let layout = dir.join("layouts/crowded-table.ron");
        save(&mut e);
        assert!(!layout.exists(), "held back at the first press");
        let said = e.log.last().unwrap();
        assert!(
            said.contains("problem") && said.contains("Save again"),
            "{said}"
        );
        save(&mut e);
        assert!(layout.exists(), "saved at the second press: {:?}", e.log);
        let text = std::fs::read_to_string(&layout).unwrap();
        assert!(
            text.contains("\"Crowded Table\""),
            "saved under its new name"
        );
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_press_on_the_selected_piece_grabs_it_even_under_another() {
        let mut e = editor();
        // Piece 1 moved onto piece 0: at piece 0's centre, piece 1 is drawn on top.
        let first = e.design.layout.pieces[0].at;
        e.edit(|d| d.layout.pieces[1].at = first);
        let at = first.vec();
        assert_eq!(
            pick_at(&e.design, at),
            Some(Picked::Piece(1)),
            "the topmost"
        );
        assert_eq!(
            pick_preferring(&e.design, at, Some(Picked::Piece(0))),
            Some(Picked::Piece(0)),
            "the selected one is grabbed"
        );
        assert_eq!(pick_preferring(&e.design, at, None), Some(Picked::Piece(1)));
    }

    #[test]
    fn turning_mirror_on_adds_the_missing_images() {
        let mut e = editor();
        let before = e.design.layout.pieces.len();
        e.edit(|d| {
            d.layout.pieces.remove(0);
        });
        assert!(!is_symmetric(&e.design.layout));
        set_mirror(&mut e, true);
        assert!(e.mirror);
        assert!(is_symmetric(&e.design.layout), "{:?}", e.log);
        assert_eq!(
            e.design.layout.pieces.len(),
            before,
            "the lost image is back"
        );
        // One undo takes the added images away again, mirror mode stays on.
        undo(&mut e);
        assert!(!is_symmetric(&e.design.layout));
        assert!(e.mirror);
    }
}
