//! The layout editor screen: add, select, move, turn, resize and delete terrain pieces of every
//! category and the objective markers, choose the deployment map, snap to the 0.5" grid and
//! 15° steps, edit in 180° mirror mode, undo and redo, save and open layouts in `scenes/`
//! (a layout file changed on disk reloads through Bevy's asset hot reload), validation shown
//! live, and the sight analysis with its heatmap drawn over the table.
//!
//! The editing itself is [`crate::design`]; this module only turns input into its calls and
//! draws.

use crate::data::source::shipped;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;

use bevy::asset::io::Reader;
use bevy::asset::{AssetLoader, LoadContext, RenderAssetUsages};
use bevy::image::ImageSampler;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::window::PrimaryWindow;
use bevy_egui::input::{egui_wants_any_keyboard_input, egui_wants_any_pointer_input};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::camera::OrbitCamera;
use super::menu::{Screen, data_files, short_name};
use super::overlay::cursor_on_plane;
use super::ui::PanelInsets;
use crate::data::layout::{LayoutFile, PieceSpec};
use crate::design::analysis::{Analysis, AnalysisInput, analyze, work};
use crate::design::edit::{
    History, NEW_RUIN_FLOOR_HEIGHT_INCHES, Side, footprint_size, new_piece, put_objective,
    put_piece, remove_objective, remove_piece, resized, snap_point, snap_rotation, with_floor,
    with_height, with_opening, with_wall, without_openings, without_wall,
};
use crate::design::mirror::{Half, mirror_layout, partner, unmatched};
use crate::design::validate::{Problem, validate};
use crate::design::{Design, ROTATION_SNAP_DEGREES, normalize_degrees, picture};
use crate::geometry::{Point, TerrainCategory, Vec2, polygon};
use crate::rules::constants::OBJECTIVE_MARKER_RADIUS_INCHES;
use crate::rules::mission::ObjectiveMarker;
use crate::sim::ActiveScene;
use crate::sim::battle::ActiveGame;

const RED: egui::Color32 = egui::Color32::from_rgb(235, 90, 80);
const GREEN: egui::Color32 = egui::Color32::from_rgb(90, 200, 110);

/// Asset source id of the scenes folder, watched for changes.
pub const SCENES_SOURCE: &str = "scenes";

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
        let handle = std::thread::spawn(move || analyze(&job_input, cell, &job_done));
        self.running = Some(RunningAnalysis {
            done,
            total,
            handle,
            input,
        });
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

/// A layout file's text, loaded through the asset server so that changes on disk are seen
/// (hot reload).
#[derive(Asset, TypePath, Debug)]
pub struct LayoutText(pub String);

/// Loads [`LayoutText`].
#[derive(Default, TypePath)]
pub struct LayoutTextLoader;

impl AssetLoader for LayoutTextLoader {
    type Asset = LayoutText;
    type Settings = ();
    type Error = std::io::Error;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _: &Self::Settings,
        _: &mut LoadContext<'_>,
    ) -> Result<LayoutText, std::io::Error> {
        use bevy::tasks::futures_lite::AsyncReadExt;
        let mut bytes = Vec::new();
        // At most one byte past the limit is read, so a huge or endless file stays bounded.
        reader
            .take(crate::data::source::MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .await?;
        if bytes.len() as u64 > crate::data::source::MAX_FILE_BYTES {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "the layout is over {} bytes, the limit for data files",
                    crate::data::source::MAX_FILE_BYTES
                ),
            ));
        }
        String::from_utf8(bytes)
            .map(LayoutText)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
    }

    fn extensions(&self) -> &[&str] {
        &["ron"]
    }
}

/// Registers the scenes folder as a watched asset source. Must run before the asset plugin
/// (before `DefaultPlugins`).
pub fn register_source(app: &mut App, scenes_dir: &Path) {
    let dir = std::fs::canonicalize(scenes_dir).unwrap_or_else(|_| scenes_dir.to_path_buf());
    app.register_asset_source(
        SCENES_SOURCE,
        bevy::asset::io::AssetSourceBuilder::platform_default(&dir.to_string_lossy(), None),
    );
}

/// Registers the editor's systems.
pub fn plugin(app: &mut App) {
    app.init_asset::<LayoutText>()
        .init_asset_loader::<LayoutTextLoader>()
        .add_systems(OnEnter(Screen::Editor), enter)
        .add_systems(
            Update,
            (
                keys.run_if(not(egui_wants_any_keyboard_input)),
                mouse.run_if(not(egui_wants_any_pointer_input)),
                show,
                watch,
                poll_analysis,
                draw,
            )
                .chain()
                .run_if(in_state(Screen::Editor).and_then(resource_exists::<Editor>)),
        )
        .add_systems(
            EguiPrimaryContextPass,
            panels.run_if(in_state(Screen::Editor).and_then(resource_exists::<Editor>)),
        );
}

/// Opens the editor on `design` (from the menu or the command line).
pub fn open_editor(world: &mut World, editor: Editor) {
    world.insert_resource(editor);
    world
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Editor);
}

/// Pitch (radians above the table) and distance (inches) of the editor's camera: nearly
/// straight down, the whole table in the view between the panels.
pub const EDITOR_VIEW: (f32, f32) = (1.3, 84.0);

fn enter(
    mut active: ResMut<ActiveGame>,
    mut editor: ResMut<Editor>,
    mut cameras: Query<&mut OrbitCamera>,
) {
    for mut orbit in &mut cameras {
        *orbit = OrbitCamera {
            pitch: EDITOR_VIEW.0,
            distance: EDITOR_VIEW.1,
            ..OrbitCamera::default()
        };
    }
    // The game in progress is in its autosave; the table now shows the design.
    if active.game.take().is_some() {
        editor
            .log
            .push("The game in progress stays in its autosave (Load game in the menu).".into());
    }
    editor.shown = None;
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

/// Loads the watched layout file through the asset server and applies changes made on disk.
fn watch(
    mut editor: ResMut<Editor>,
    server: Res<AssetServer>,
    texts: Res<Assets<LayoutText>>,
    mut events: MessageReader<AssetEvent<LayoutText>>,
) {
    if editor.handle.is_none()
        && let Some(path) = editor.watched.clone()
    {
        let root = std::fs::canonicalize(&editor.scenes_dir).unwrap_or_default();
        let file = std::fs::canonicalize(&path).unwrap_or_default();
        if let Ok(rel) = file.strip_prefix(&root) {
            let asset = format!(
                "{SCENES_SOURCE}://{}",
                rel.to_string_lossy().replace('\\', "/")
            );
            editor.handle = Some(server.load(asset));
        }
    }
    let Some(handle) = editor.handle.clone() else {
        return;
    };
    for event in events.read() {
        if !event.is_modified(handle.id()) {
            continue;
        }
        let (Some(text), Some(path)) = (texts.get(&handle), editor.watched.clone()) else {
            continue;
        };
        match crate::data::source::parse::<LayoutFile>(&path, &text.0) {
            Ok(layout) => {
                let problems = crate::data::check::layout(&path, &layout);
                if let Some(first) = problems.first() {
                    editor.log.push(format!("not reloaded: {first}"));
                } else if layout != editor.design.layout {
                    editor.edit(|d| d.layout = layout);
                    let line = format!("reloaded {} (changed on disk)", path.display());
                    info!("{line}");
                    editor.log.push(line);
                }
            }
            Err(e) => editor.log.push(format!("not reloaded: {e}")),
        }
    }
}

fn poll_analysis(
    mut editor: ResMut<Editor>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut commands: Commands,
    overlay: Query<Entity, With<HeatmapOverlay>>,
    mut last: Local<Option<(HeatmapView, usize)>>,
) {
    if editor
        .running
        .as_ref()
        .is_some_and(|r| r.handle.is_finished())
    {
        let run = editor.running.take().expect("checked");
        match run.handle.join() {
            Ok(mut a) => {
                a.asymmetry.unmatched = unmatched(&editor.design.layout);
                editor.log.push(format!(
                    "analysed: P1 sees {:.0}%, P2 {:.0}% (infantry); {} open lanes; asymmetry {:.3}",
                    a.zones.first().map_or(0.0, |z| z.infantry_visible_share * 100.0),
                    a.zones.get(1).map_or(0.0, |z| z.infantry_visible_share * 100.0),
                    a.lanes.count,
                    a.asymmetry.score
                ));
                editor.analysis = Some((a, run.input));
                if editor.heatmap == HeatmapView::Off {
                    editor.heatmap = HeatmapView::Infantry;
                }
                *last = None;
            }
            Err(_) => editor.log.push("the analysis failed".into()),
        }
    }
    let generation = editor
        .analysis
        .as_ref()
        .map_or(0, |(a, _)| a.grid.0 * 7 + a.lanes.lines);
    let key = (editor.heatmap, generation);
    if *last == Some(key) {
        return;
    }
    *last = Some(key);
    for e in &overlay {
        commands.entity(e).despawn();
    }
    let kind = match editor.heatmap {
        HeatmapView::Off => return,
        HeatmapView::Infantry => 0,
        HeatmapView::Vehicle => 1,
    };
    let Some((a, _)) = &editor.analysis else {
        return;
    };
    let Some(first) = a.maps.first() else { return };
    let (cols, rows) = (first[kind].cols, first[kind].rows);
    let mut data = Vec::with_capacity(cols * rows * 4);
    for r in (0..rows).rev() {
        for c in 0..cols {
            let i = r * cols + c;
            let seen = |z: usize| a.maps.get(z).is_some_and(|m| m[kind].visible[i]);
            let class = picture::seen_class(seen(0), seen(1));
            let [red, green, blue] = picture::SEEN_COLOURS[class];
            data.extend([red, green, blue, if class == 0 { 200 } else { 150 }]);
        }
    }
    let mut image = Image::new(
        Extent3d {
            width: cols as u32,
            height: rows as u32,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    image.sampler = ImageSampler::nearest();
    let material = materials.add(StandardMaterial {
        base_color_texture: Some(images.add(image)),
        unlit: true,
        alpha_mode: AlphaMode::Blend,
        ..default()
    });
    let (w, d) = (
        crate::rules::constants::BOARD_WIDTH_INCHES,
        crate::rules::constants::BOARD_DEPTH_INCHES,
    );
    commands.spawn((
        HeatmapOverlay,
        Mesh3d(meshes.add(Rectangle::new(w, d))),
        MeshMaterial3d(material),
        Transform::from_xyz(w / 2.0, d / 2.0, 0.03),
    ));
}

/// The heatmap drawn over the table.
#[derive(Component)]
pub struct HeatmapOverlay;

/// What is under table point `at`: the last piece whose footprint holds it, else an
/// objective within its radius.
fn pick_at(design: &Design, at: Vec2) -> Option<Picked> {
    let radius = OBJECTIVE_MARKER_RADIUS_INCHES;
    if let Some(k) = design
        .layout
        .objectives
        .iter()
        .position(|o| o.at.vec().distance(at) <= radius + 0.2)
    {
        return Some(Picked::Objective(k));
    }
    let pieces = design.resolved().pieces;
    pieces
        .iter()
        .rposition(|p| polygon::contains(&p.footprint, at))
        .map(Picked::Piece)
}

fn mouse(
    buttons: Res<ButtonInput<MouseButton>>,
    mut editor: ResMut<Editor>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<OrbitCamera>>,
) {
    let (camera, transform) = *camera;
    let Some(at) = cursor_on_plane(&window, camera, transform, 0.0) else {
        return;
    };
    let at = Vec2::new(at.x, at.y);
    if buttons.just_pressed(MouseButton::Left) {
        let picked = pick_at(&editor.design, at);
        editor.picked = picked;
        editor.drag = picked.map(|target| {
            let origin = match target {
                Picked::Piece(i) => editor.design.layout.pieces[i].at.vec(),
                Picked::Objective(i) => editor.design.layout.objectives[i].at.vec(),
            };
            Drag {
                target,
                offset: at - origin,
                before: editor.design.clone(),
                moved: false,
            }
        });
        return;
    }
    if !buttons.pressed(MouseButton::Left) {
        if let Some(drag) = editor.drag.take()
            && drag.moved
        {
            editor.history.record(&drag.before);
        }
        return;
    }
    let Some(drag) = editor.drag.as_ref() else {
        return;
    };
    let (target, offset) = (drag.target, drag.offset);
    let mut to = Point(at.x - offset.x, at.y - offset.y);
    if editor.snap {
        to = snap_point(to);
    }
    let (snap_mirror, design) = (editor.mirror, &mut editor.design);
    let changed = match target {
        Picked::Piece(i) if i < design.layout.pieces.len() => {
            let mut p = design.layout.pieces[i].clone();
            let moved = p.at != to;
            p.at = to;
            if moved {
                let i = put_piece(&mut design.layout, Some(i), p, snap_mirror);
                editor.picked = Some(Picked::Piece(i));
            }
            moved
        }
        Picked::Objective(i) if i < design.layout.objectives.len() => {
            let mut o = design.layout.objectives[i].clone();
            let moved = o.at != to;
            o.at = to;
            if moved {
                let i = put_objective(&mut design.layout, Some(i), o, snap_mirror);
                editor.picked = Some(Picked::Objective(i));
            }
            moved
        }
        _ => false,
    };
    if changed && let Some(d) = editor.drag.as_mut() {
        d.moved = true;
    }
}

/// Turns the selected piece by `degrees` (one undoable step).
fn turn(editor: &mut Editor, degrees: f32) {
    let (snap, mirror) = (editor.snap, editor.mirror);
    if let Some(Picked::Piece(i)) = editor.picked {
        editor.edit(|d| {
            let mut p = d.layout.pieces[i].clone();
            p.rotation = if snap {
                snap_rotation(p.rotation + degrees)
            } else {
                normalize_degrees(p.rotation + degrees)
            };
            put_piece(&mut d.layout, Some(i), p, mirror);
        });
    }
}

/// Deletes the selection (one undoable step).
fn delete(editor: &mut Editor) {
    let mirror = editor.mirror;
    match editor.picked.take() {
        Some(Picked::Piece(i)) => editor.edit(|d| remove_piece(&mut d.layout, i, mirror)),
        Some(Picked::Objective(i)) => editor.edit(|d| remove_objective(&mut d.layout, i, mirror)),
        None => {}
    }
}

/// Undoes (`back`) or redoes one step.
fn step(editor: &mut Editor, back: bool) {
    let Editor {
        history, design, ..
    } = editor;
    let moved = if back {
        history.undo(design)
    } else {
        history.redo(design)
    };
    if moved {
        editor
            .log
            .push(if back { "undone" } else { "redone" }.into());
    }
    editor.clamp_pick();
}

fn undo(editor: &mut Editor) {
    step(editor, true);
}

fn redo(editor: &mut Editor) {
    step(editor, false);
}

fn save(editor: &mut Editor) {
    match editor.design.save(&editor.scenes_dir, &editor.name) {
        Ok((scene, layout)) => {
            editor.log.push(format!(
                "saved {} and {}",
                scene.display(),
                layout.display()
            ));
            editor.watched = Some(layout);
            editor.handle = None;
        }
        Err(e) => editor.log.push(format!("not saved: {e}")),
    }
}

fn keys(keys: Res<ButtonInput<KeyCode>>, mut editor: ResMut<Editor>) {
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    let step = if editor.snap {
        ROTATION_SNAP_DEGREES
    } else {
        1.0
    };
    if keys.just_pressed(KeyCode::BracketRight) {
        turn(&mut editor, -step);
    }
    if keys.just_pressed(KeyCode::BracketLeft) {
        turn(&mut editor, step);
    }
    if keys.any_just_pressed([KeyCode::Delete, KeyCode::Backspace]) {
        delete(&mut editor);
    }
    if ctrl && keys.just_pressed(KeyCode::KeyZ) {
        if shift {
            redo(&mut editor)
        } else {
            undo(&mut editor)
        }
    }
    if ctrl && keys.just_pressed(KeyCode::KeyY) {
        redo(&mut editor);
    }
    if ctrl && keys.just_pressed(KeyCode::KeyS) {
        save(&mut editor);
    }
    if keys.just_pressed(KeyCode::KeyM) && !ctrl {
        editor.mirror = !editor.mirror;
    }
    if keys.just_pressed(KeyCode::KeyG) && !ctrl {
        editor.snap = !editor.snap;
    }
    if keys.just_pressed(KeyCode::Escape) {
        editor.picked = None;
    }
}

/// Outlines: the selection (yellow), its 180° image in mirror mode (cyan), pieces with a
/// problem (red), the centre of the rotation.
fn draw(editor: Res<Editor>, mut gizmos: Gizmos) {
    let lift = 0.08;
    let ring = |pts: &[Vec2]| -> Vec<Vec3> {
        pts.iter()
            .chain(pts.first())
            .map(|p| Vec3::new(p.x, p.y, lift))
            .collect()
    };
    let pieces = editor.design.resolved().pieces;
    for p in &editor.problems {
        for id in &p.ids {
            if let Some(piece) = pieces.iter().find(|q| &q.id == id) {
                gizmos.linestrip(ring(&piece.footprint), Color::srgb(0.95, 0.2, 0.2));
            }
        }
    }
    let radius = OBJECTIVE_MARKER_RADIUS_INCHES + 0.15;
    let circle = |c: Vec2| -> Vec<Vec2> {
        (0..24)
            .map(|i| {
                let a = std::f32::consts::TAU * i as f32 / 24.0;
                c + Vec2::new(a.cos(), a.sin()) * radius
            })
            .collect()
    };
    let outline_of = |pick: Picked| -> Option<Vec<Vec2>> {
        match pick {
            Picked::Piece(i) => pieces.get(i).map(|p| p.footprint.clone()),
            Picked::Objective(i) => editor
                .design
                .layout
                .objectives
                .get(i)
                .map(|o| circle(o.at.vec())),
        }
    };
    // Selection outlines stand 0.3" outside the footprint, clear of the problem outlines.
    let grow = |pts: Vec<Vec2>| -> Vec<Vec2> {
        let c = polygon::centroid(&pts);
        pts.iter()
            .map(|p| *p + (*p - c).normalize_or_zero() * 0.3)
            .collect()
    };
    let outline_of = |pick: Picked| outline_of(pick).map(grow);
    if let Some(pick) = editor.picked {
        if let Some(o) = outline_of(pick) {
            gizmos.linestrip(ring(&o), Color::srgb(1.0, 0.85, 0.2));
        }
        if editor.mirror {
            let image = match pick {
                Picked::Piece(i) => partner(&editor.design.layout, i).map(Picked::Piece),
                Picked::Objective(i) => {
                    crate::design::mirror::objective_partner(&editor.design.layout.objectives, i)
                        .map(Picked::Objective)
                }
            };
            if let Some(o) = image.filter(|p| *p != pick).and_then(outline_of) {
                gizmos.linestrip(ring(&o), Color::srgb(0.3, 0.9, 0.95));
            }
        }
    }
    if editor.mirror {
        let c = crate::design::mirror::table_centre();
        gizmos.circle(
            Isometry3d::from_translation(Vec3::new(c.x, c.y, lift)),
            0.6,
            Color::srgb(0.3, 0.9, 0.95),
        );
        gizmos.line(
            Vec3::new(c.x, 0.0, lift),
            Vec3::new(c.x, 2.0 * c.y, lift),
            Color::srgba(0.3, 0.9, 0.95, 0.4),
        );
    }
}

/// The templates: the 8 Chapter Approved layouts and an empty table.
fn templates() -> Vec<(String, Option<String>)> {
    let mut v: Vec<(String, Option<String>)> = data_files("scenes/layouts/")
        .into_iter()
        .map(|p| (short_name(&p).to_string(), Some(p)))
        .collect();
    v.push(("empty table".into(), None));
    v
}

/// Scene files in the scenes folder on disk.
fn scene_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron") && p.is_file())
        .collect();
    v.sort();
    v
}

fn panels(
    mut contexts: EguiContexts,
    mut editor: ResMut<Editor>,
    mut insets: ResMut<PanelInsets>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let mut covered = PanelInsets::default();
    let mut root = egui::Ui::new(
        ctx.clone(),
        "wartable-editor".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    covered.top = egui::Panel::top("editor-bar")
        .show(&mut root, |ui| top_bar(ui, &mut editor, &mut next))
        .response
        .rect
        .height();
    covered.left = egui::Panel::left("editor-tools")
        .resizable(true)
        .default_size(290.0)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| tools(ui, &mut editor));
        })
        .response
        .rect
        .width();
    covered.right = egui::Panel::right("editor-analysis")
        .resizable(true)
        .default_size(330.0)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| analysis_panel(ui, &mut editor));
        })
        .response
        .rect
        .width();
    insets.set_if_neq(covered);
    Ok(())
}

fn top_bar(ui: &mut egui::Ui, editor: &mut Editor, next: &mut NextState<Screen>) {
    ui.horizontal_wrapped(|ui| {
        ui.strong("Layout editor");
        ui.separator();
        ui.label("Name");
        ui.add(egui::TextEdit::singleline(&mut editor.name).desired_width(220.0));
        if ui.button("Save (Ctrl+S)").clicked() {
            save(editor);
        }
        ui.separator();
        let (u, r) = editor.history.depth();
        if ui.add_enabled(u > 0, egui::Button::new("Undo")).clicked() {
            undo(editor);
        }
        if ui.add_enabled(r > 0, egui::Button::new("Redo")).clicked() {
            redo(editor);
        }
        ui.separator();
        ui.checkbox(&mut editor.snap, "Snap 0.5\" / 15° (G)");
        let mirror = ui.checkbox(&mut editor.mirror, "Mirror 180° (M)");
        if editor.mirror {
            mirror.on_hover_text("The 180° image of every edited piece or marker follows it");
        }
        ui.separator();
        if ui.button("Menu").clicked() {
            next.set(Screen::Menu);
        }
    });
    if let Some(last) = editor.log.last() {
        let colour = if last.starts_with("not ") { RED } else { GREEN };
        ui.colored_label(colour, last);
    }
}

fn tools(ui: &mut egui::Ui, editor: &mut Editor) {
    ui.heading("Start from");
    ui.horizontal_wrapped(|ui| {
        for (name, path) in templates() {
            if ui.small_button(&name).clicked() {
                let deployment = editor.design.deployment_file.clone();
                let opened = match &path {
                    Some(p) => Design::open(&shipped(p), &deployment),
                    None => Design::open(&shipped("scenes/layouts/layout-1.ron"), &deployment).map(
                        |mut d| {
                            d.layout.pieces.clear();
                            d.layout.name = "New layout".into();
                            d.layout.source = String::new();
                            d
                        },
                    ),
                };
                match opened {
                    Ok(d) => {
                        let watched = path.map(PathBuf::from).filter(|p| p.exists());
                        editor.open(d, watched);
                        editor.log.push(format!("opened {name}"));
                    }
                    Err(e) => editor.log.push(format!("not opened: {e}")),
                }
            }
        }
    });
    let files = scene_files(&editor.scenes_dir);
    ui.collapsing(format!("Open a scene ({})", files.len()), |ui| {
        for f in files {
            let label = f
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().to_string());
            if ui.small_button(&label).clicked() {
                match Design::open_scene(&f) {
                    Ok(d) => {
                        let layout = crate::data::source::load::<crate::data::scene::SceneFile>(&f)
                            .ok()
                            .map(|s| crate::data::source::sibling(&f, &s.layout));
                        editor.open(d, layout);
                        editor.log.push(format!("opened {label}"));
                    }
                    Err(e) => editor.log.push(format!("not opened: {e}")),
                }
            }
        }
    });
    ui.horizontal(|ui| {
        ui.label("Deployment");
        let current = editor.design.deployment_file.to_string_lossy().to_string();
        egui::ComboBox::from_id_salt("deployment")
            .selected_text(short_name(&current.replace('\\', "/")).to_string())
            .show_ui(ui, |ui| {
                for f in data_files("scenes/deployments/") {
                    if ui
                        .selectable_label(current.ends_with(&f), short_name(&f))
                        .clicked()
                    {
                        let mut d = editor.design.clone();
                        match d.set_deployment(&shipped(&f)) {
                            Ok(()) => editor.edit(|x| *x = d),
                            Err(e) => editor.log.push(format!("not changed: {e}")),
                        }
                    }
                }
            });
    });
    ui.separator();
    ui.heading("Add");
    ui.horizontal_wrapped(|ui| {
        for category in TerrainCategory::ALL {
            if ui.button(format!("{category:?}")).clicked() {
                let mirror = editor.mirror;
                let stem = format!("{category:?}").to_lowercase();
                let id = crate::design::mirror::unique_id(
                    &stem,
                    editor.design.layout.pieces.iter().map(|p| p.id.as_str()),
                );
                let piece = new_piece(category, id, Point(22.0, 16.0));
                let mut index = 0;
                editor.edit(|d| index = put_piece(&mut d.layout, None, piece, mirror));
                editor.picked = Some(Picked::Piece(index));
            }
        }
        if ui.button("Objective").clicked() {
            let mirror = editor.mirror;
            let objectives = editor.design.objectives();
            let id = crate::design::mirror::unique_id(
                "objective",
                objectives.iter().map(|o| o.id.as_str()),
            );
            let mut index = 0;
            editor.edit(|d| {
                // The first marker the layout places takes over from the card's: copy them.
                if d.layout.objectives.is_empty() {
                    d.layout.objectives = objectives.clone();
                }
                let o = ObjectiveMarker {
                    id,
                    at: Point(24.0, 16.0),
                    z: 0.0,
                };
                index = put_objective(&mut d.layout, None, o, mirror);
            });
            editor.picked = Some(Picked::Objective(index));
        }
    });
    if editor.design.layout.objectives.is_empty() {
        ui.weak("Objectives come from the deployment card until you add one.");
    } else if ui.small_button("Use the card's objectives").clicked() {
        editor.edit(|d| d.layout.objectives.clear());
    }
    ui.horizontal(|ui| {
        ui.label("Make symmetric from the");
        for (label, half) in [("west", Half::West), ("south", Half::South)] {
            if ui.small_button(format!("{label} half")).clicked() {
                editor.edit(|d| d.layout = mirror_layout(&d.layout, half));
                editor
                    .log
                    .push(format!("the {label} half now also stands turned 180°"));
            }
        }
    });
    ui.separator();
    selected(ui, editor);
    ui.separator();
    ui.heading("Pieces");
    let pieces: Vec<(String, TerrainCategory)> = editor
        .design
        .layout
        .pieces
        .iter()
        .map(|p| (p.id.clone(), p.category))
        .collect();
    for (i, (id, category)) in pieces.iter().enumerate() {
        let on = editor.picked == Some(Picked::Piece(i));
        if ui
            .selectable_label(on, format!("{id} ({category:?})"))
            .clicked()
        {
            editor.picked = Some(Picked::Piece(i));
        }
    }
    ui.separator();
    ui.weak("Left-drag a piece or marker to move it; [ and ] turn it; Delete removes it; Ctrl+Z / Ctrl+Y undo and redo. Right-drag orbits, the wheel zooms.");
}

fn selected(ui: &mut egui::Ui, editor: &mut Editor) {
    let mirror = editor.mirror;
    match editor.picked {
        Some(Picked::Piece(i)) => {
            let Some(p) = editor.design.layout.pieces.get(i).cloned() else {
                return;
            };
            ui.heading(format!("{} ({:?})", p.id, p.category));
            let mut q = p.clone();
            let (mut w, mut d) = footprint_size(&p);
            let mut height = p.walls.first().map_or(p.height, |w| w.height);
            egui::Grid::new("piece").num_columns(2).show(ui, |ui| {
                ui.label("id");
                ui.text_edit_singleline(&mut q.id);
                ui.end_row();
                ui.label("category");
                egui::ComboBox::from_id_salt("category")
                    .selected_text(format!("{:?}", q.category))
                    .show_ui(ui, |ui| {
                        for c in TerrainCategory::ALL {
                            ui.selectable_value(&mut q.category, c, format!("{c:?}"));
                        }
                    });
                ui.end_row();
                ui.label("centre x, y (in)");
                ui.horizontal(|ui| table_point(ui, &mut q.at));
                ui.end_row();
                ui.label("rotation (°)");
                ui.add(egui::DragValue::new(&mut q.rotation).speed(1.0));
                ui.end_row();
                ui.label("width x depth (in)");
                ui.horizontal(|ui| {
                    ui.add(egui::DragValue::new(&mut w).speed(0.1).range(0.5..=30.0));
                    ui.add(egui::DragValue::new(&mut d).speed(0.1).range(0.5..=30.0));
                });
                ui.end_row();
                ui.label(if p.walls.is_empty() {
                    "height (in)"
                } else {
                    "wall height (in)"
                });
                ui.add(
                    egui::DragValue::new(&mut height)
                        .speed(0.1)
                        .range(0.0..=12.0),
                );
                ui.end_row();
            });
            let (w0, d0) = footprint_size(&p);
            if (w - w0).abs() > 1e-4 || (d - d0).abs() > 1e-4 {
                q = resized(&q, w, d);
            }
            let h0 = p.walls.first().map_or(p.height, |w| w.height);
            if (height - h0).abs() > 1e-4 {
                q = with_height(&q, height);
            }
            if editor.snap {
                q.at = snap_point(q.at);
                if (q.rotation - p.rotation).abs() > 1e-4 {
                    q.rotation = snap_rotation(q.rotation);
                }
            }
            q.rotation = normalize_degrees(q.rotation);
            if q != p && !q.id.is_empty() {
                editor.edit(|d| {
                    put_piece(&mut d.layout, Some(i), q, mirror);
                });
            }
            if (p.category == TerrainCategory::Ruin || !p.walls.is_empty())
                && let Some(c) = ruin_controls(ui, &p)
            {
                editor.edit(|d| {
                    put_piece(&mut d.layout, Some(i), c, mirror);
                });
            }
            ui.horizontal(|ui| {
                if ui.button("Turn 15° ([)").clicked() {
                    turn(editor, ROTATION_SNAP_DEGREES);
                }
                if ui.button("Delete").clicked() {
                    delete(editor);
                }
            });
        }
        Some(Picked::Objective(i)) => {
            let Some(o) = editor.design.layout.objectives.get(i).cloned() else {
                return;
            };
            ui.heading(format!("objective {}", o.id));
            let mut q = o.clone();
            ui.horizontal(|ui| {
                ui.label("id");
                ui.text_edit_singleline(&mut q.id);
            });
            ui.horizontal(|ui| {
                ui.label("x, y (in)");
                table_point(ui, &mut q.at);
            });
            if editor.snap {
                q.at = snap_point(q.at);
            }
            if q != o && !q.id.is_empty() {
                editor.edit(|d| {
                    put_objective(&mut d.layout, Some(i), q, mirror);
                });
            }
            if ui.button("Delete").clicked() {
                delete(editor);
            }
        }
        None => {
            ui.weak("Click a piece or a marker the layout placed to select it.");
        }
    }
}

/// Walls, their openings and the upper floor of a ruin; returns the changed piece.
fn ruin_controls(ui: &mut egui::Ui, p: &PieceSpec) -> Option<PieceSpec> {
    let mut change = None;
    ui.label("Walls (local frame; openings 1.5\" wide, ground and upper)");
    for (k, w) in p.walls.iter().enumerate() {
        ui.horizontal(|ui| {
            ui.label(format!(
                "{}: {:.1}\" long, {} openings",
                k + 1,
                w.from.vec().distance(w.to.vec()),
                w.windows.len()
            ));
            if ui.small_button("+ opening").clicked() {
                change = Some(with_opening(p, k));
            }
            if ui.small_button("close").clicked() {
                change = Some(without_openings(p, k));
            }
            if ui.small_button("remove").clicked() {
                change = Some(without_wall(p, k));
            }
        });
    }
    ui.horizontal(|ui| {
        ui.label("add a wall on the");
        for side in Side::ALL {
            if ui.small_button(format!("{side:?}")).clicked() {
                change = Some(with_wall(p, side));
            }
        }
    });
    ui.horizontal(|ui| {
        let mut on = !p.floors.is_empty();
        if ui.checkbox(&mut on, "upper floor at").changed() {
            change = Some(with_floor(p, on.then_some(NEW_RUIN_FLOOR_HEIGHT_INCHES)));
        }
        if let Some(first) = p.floors.first() {
            let mut h = first.height;
            if ui
                .add(
                    egui::DragValue::new(&mut h)
                        .speed(0.1)
                        .range(0.5..=11.0)
                        .suffix("\""),
                )
                .changed()
            {
                let mut c = p.clone();
                for f in &mut c.floors {
                    f.height = h;
                }
                change = Some(c);
            }
        }
    });
    change
}

fn analysis_panel(ui: &mut egui::Ui, editor: &mut Editor) {
    ui.heading("Problems");
    if editor.problems.is_empty() {
        ui.colored_label(
            GREEN,
            "No pieces off the table, overlapping, or objectives in walls.",
        );
    }
    for p in &editor.problems {
        ui.colored_label(RED, &p.message);
    }
    let missing = unmatched(&editor.design.layout);
    if missing.is_empty() {
        ui.colored_label(GREEN, "The layout is its own 180° image.");
    } else {
        ui.label(format!("Without a 180° image: {}", missing.join(", ")));
    }
    ui.separator();
    ui.heading("Analysis");
    ui.horizontal(|ui| {
        ui.label("cell");
        for cell in [0.5, 1.0, 2.0] {
            ui.radio_value(&mut editor.cell, cell, format!("{cell}\""));
        }
    });
    match &editor.running {
        Some(run) => {
            let f = run.done.load(Ordering::Relaxed) as f32 / run.total.max(1) as f32;
            ui.add(
                egui::ProgressBar::new(f.min(1.0))
                    .show_percentage()
                    .text("analysing"),
            );
        }
        None => {
            if ui.button("Analyse sight").clicked() {
                editor.start_analysis();
            }
        }
    }
    ui.horizontal(|ui| {
        ui.label("heatmap");
        ui.radio_value(&mut editor.heatmap, HeatmapView::Off, "off");
        ui.radio_value(&mut editor.heatmap, HeatmapView::Infantry, "infantry");
        ui.radio_value(&mut editor.heatmap, HeatmapView::Vehicle, "vehicle");
    });
    let Some((a, input)) = &editor.analysis else {
        ui.weak("Analyse to see what each deployment zone sees.");
        return;
    };
    // The analysis keeps the pieces it was made from.
    if editor.design.resolved().pieces != input.pieces {
        ui.weak("(made before the last edits)");
    }
    for (k, colour) in [(1, "blue"), (2, "red"), (3, "purple"), (0, "dark")] {
        let [r, g, b] = picture::SEEN_COLOURS[k];
        let text = match k {
            0 => "seen from neither zone",
            1 => "seen from player 1's zone only",
            2 => "seen from player 2's zone only",
            _ => "seen from both zones",
        };
        ui.colored_label(
            egui::Color32::from_rgb(r, g, b),
            format!("■ {text} ({colour})"),
        );
    }
    egui::Grid::new("zones").striped(true).show(ui, |ui| {
        ui.strong("zone");
        ui.strong("infantry");
        ui.strong("vehicle");
        ui.end_row();
        for z in &a.zones {
            ui.label(format!("P{} {}", z.player, z.name));
            ui.label(format!("{:.1}%", z.infantry_visible_share * 100.0));
            ui.label(format!("{:.1}%", z.vehicle_visible_share * 100.0));
            ui.end_row();
        }
    });
    ui.label(format!(
        "Open lanes: {} ({} of {} lines clear)",
        a.lanes.count, a.lanes.clear_lines, a.lanes.lines
    ));
    ui.label(format!(
        "Asymmetry: {:.3} (infantry {:.3}, vehicle {:.3})",
        a.asymmetry.score, a.asymmetry.infantry, a.asymmetry.vehicle
    ));
    egui::Grid::new("objectives").striped(true).show(ui, |ui| {
        ui.strong("objective");
        ui.strong("seen from");
        ui.end_row();
        for o in &a.objectives {
            ui.label(&o.id);
            ui.label(
                o.seen_from
                    .iter()
                    .map(|(p, s)| format!("P{p} {:.0}%", s * 100.0))
                    .collect::<Vec<_>>()
                    .join("  "),
            );
            ui.end_row();
        }
    });
}

/// Scripted editor starts for screenshots (`play <scene> --editor --scenario NAME`):
/// `designer` moves the first piece 3" east and 1" south (its image follows in mirror mode),
/// selects it, and shows the analysis at 2" cells with the infantry heatmap.
///
/// # Errors
/// An unknown scenario name, or a layout with no pieces.
pub fn scenario(editor: &mut Editor, name: &str) -> Result<(), String> {
    if name != "designer" {
        return Err(format!(
            "unknown editor scenario '{name}' (known: designer)"
        ));
    }
    let mirror = editor.mirror;
    let Some(first) = editor.design.layout.pieces.first().cloned() else {
        return Err("the layout has no pieces".into());
    };
    let mut moved = first;
    moved.at = snap_point(Point(moved.at.0 + 3.0, moved.at.1 - 1.0));
    editor.edit(|d| {
        put_piece(&mut d.layout, Some(0), moved, mirror);
    });
    editor.picked = Some(Picked::Piece(0));
    editor.cell = 2.0;
    let input = editor.design.analysis_input();
    let mut a = analyze(&input, editor.cell, &AtomicUsize::new(0));
    a.asymmetry.unmatched = unmatched(&editor.design.layout);
    editor.analysis = Some((a, input));
    editor.heatmap = HeatmapView::Infantry;
    Ok(())
}

/// Two drag fields for a point on the table (inches), kept on the board.
fn table_point(ui: &mut egui::Ui, at: &mut crate::geometry::Point) {
    use crate::rules::constants::{BOARD_DEPTH_INCHES, BOARD_WIDTH_INCHES};
    ui.add(
        egui::DragValue::new(&mut at.0)
            .speed(0.1)
            .range(0.0..=BOARD_WIDTH_INCHES),
    );
    ui.add(
        egui::DragValue::new(&mut at.1)
            .speed(0.1)
            .range(0.0..=BOARD_DEPTH_INCHES),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::mirror::is_symmetric;

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
}
