//! What the play tools draw on the table: dragging models into a draft, the ghost of the draft
//! (green when the engine accepts it, red when not), range rings, the measuring tape, the
//! line-of-sight report with its witness lines, the ruin walls a drafted base would stand in
//! (found through rapier's query pipeline on the base colliders), and the hover text naming the
//! blocker.

use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_rapier3d::prelude::Collider;

use super::camera::OrbitCamera;
use super::pick::TablePicker;
use super::play::{
    self, Drafting, LosReport, SightStatus, SightTools, TableTools, TargetSight, Verdict,
};
use super::screens::Screen;
use super::selection::Selection;
use crate::game::Game;
use crate::game::sight::ModelRef;
use crate::rules::constants::{COHERENCY_HORIZONTAL_INCHES, ENGAGEMENT_RANGE_HORIZONTAL_INCHES};
use crate::sim::battle::ActiveGame;
use crate::sim::components::{TableModel, Unit, WallSolid};

/// Which units the threat overlay draws (the logic lives with the play state).
pub use super::play::threat_units;

/// Shortest time between two line-of-sight reports while a draft is being dragged.
pub const LOS_REFRESH_WHILE_DRAGGING: Duration = Duration::from_millis(100);

/// A drag in progress: the model grabbed, where the cursor met the table at the start, and
/// whether only that model moves.
#[derive(Resource, Debug, Clone, Default)]
pub struct Grab {
    /// The grabbed model and the table point under the cursor when grabbed.
    pub model: Option<(ModelRef, Vec3)>,
    /// Ctrl was held: move one model.
    pub single: bool,
    /// Shift was held: the drag starts a new leg from the drafted ends (a waypoint).
    pub new_leg: bool,
    /// The draft before this drag.
    pub before: Option<play::Draft>,
    /// Degrees turned with Q/E during this drag.
    pub turn: f32,
}

/// Degrees one press of Q or E turns the dragged models.
pub const TURN_STEP_DEGREES: f32 = 15.0;

/// The ruin wall solids that the drafted models' bases would overlap at their drafted ends,
/// found by a rapier intersection query with each model's base collider
/// ([`TablePicker::walls_touching`]) and outlined while the draft stands.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct WallContacts {
    /// The wall solid entities touched, each once.
    pub walls: Vec<Entity>,
}

/// Registers dragging, the LOS report upkeep and the gizmos, run while a game is on the table
/// ([`Screen::Table`]).
pub fn plugin(app: &mut App) {
    app.init_resource::<Grab>()
        .init_resource::<WallContacts>()
        .add_observer(observe_model)
        .add_systems(
            Update,
            (
                drag.run_if(super::ui::pointer_on_table),
                follow_placement.run_if(super::ui::pointer_on_table),
                touch_walls.run_if(resource_changed::<Drafting>),
                refresh_report,
                draw,
                draw_wall_contacts,
            )
                .chain()
                .run_if(in_state(Screen::Table)),
        );
}

/// A model entity just spawned gets its pointer observers: a primary drag grabs it (unless the
/// tape is on), hovering names it for the line-of-sight hover text.
fn observe_model(add: On<Add, TableModel>, mut commands: Commands, models: Query<&TableModel>) {
    let Ok(&TableModel(r)) = models.get(add.entity) else {
        return;
    };
    commands
        .entity(add.entity)
        .observe(
            move |start: On<Pointer<DragStart>>,
                  keys: Res<ButtonInput<KeyCode>>,
                  tools: Res<TableTools>,
                  drafting: Res<Drafting>,
                  mut grab: ResMut<Grab>| {
                if start.button != PointerButton::Primary || tools.tape.is_some() {
                    return;
                }
                let hit = start.hit.position.unwrap_or_default();
                grab.model = Some((r, hit));
                grab.single = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
                grab.new_leg = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
                // A new leg starts from the drafted ends, which become waypoints.
                grab.before = drafting.draft.as_ref().map(|d| {
                    if grab.new_leg {
                        d.with_new_leg()
                    } else {
                        d.clone()
                    }
                });
            },
        )
        .observe(move |_: On<Pointer<Over>>, mut sight: ResMut<SightTools>| {
            sight.hovered = Some(r);
        })
        .observe(move |_: On<Pointer<Out>>, mut sight: ResMut<SightTools>| {
            sight.hovered = None;
        });
}

/// Where the cursor meets the horizontal plane at height `z` (table inches).
pub fn cursor_on_plane(
    window: &Window,
    camera: &Camera,
    transform: &GlobalTransform,
    z: f32,
) -> Option<Vec3> {
    let cursor = window.cursor_position()?;
    let ray = camera.viewport_to_world(transform, cursor).ok()?;
    let t = ray.intersect_plane(Vec3::new(0.0, 0.0, z), InfinitePlane3d::new(Vec3::Z))?;
    Some(ray.get_point(t))
}

fn drag(
    buttons: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    mut grab: ResMut<Grab>,
    mut drafting: ResMut<Drafting>,
    active: Res<ActiveGame>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<OrbitCamera>>,
) {
    let Some((r, anchor)) = grab.model else {
        return;
    };
    if !buttons.pressed(MouseButton::Left) {
        *grab = Grab::default();
        return;
    }
    let Some(game) = &active.game else { return };
    let (camera, transform) = *camera;
    let Some(at) = cursor_on_plane(&window, camera, transform, anchor.z) else {
        return;
    };
    // Q / E turn the dragged models (the camera keeps still while a model is held).
    let turned = if keys.just_pressed(KeyCode::KeyQ) {
        TURN_STEP_DEGREES
    } else if keys.just_pressed(KeyCode::KeyE) {
        -TURN_STEP_DEGREES
    } else {
        0.0
    };
    if turned != 0.0 {
        grab.turn += turned;
    }
    let delta = Vec3::new(at.x - anchor.x, at.y - anchor.y, 0.0);
    if delta.length() < 0.05 && turned == 0.0 {
        return;
    }
    let mut draft = if grab.single {
        let start = grab
            .before
            .as_ref()
            .and_then(|d| d.ends.iter().find(|(m, _)| *m == r).map(|(_, e)| *e))
            .unwrap_or_else(|| play::model_position(game, r));
        play::drag_model(game, grab.before.as_ref(), r, start + delta)
    } else {
        play::drag_unit(game, grab.before.as_ref(), r.army, r.unit, delta)
    };
    draft.turn = grab.before.as_ref().map_or(0.0, |d| d.turn) + grab.turn;
    if drafting.draft.as_ref() != Some(&draft) {
        drafting.draft = Some(draft);
    }
}

/// While a unit is being placed from off the table ([`Drafting::placing`]), its drafted block
/// follows the cursor over the table, so the verdict and the limits update as it moves.
fn follow_placement(
    mut drafting: ResMut<Drafting>,
    active: Res<ActiveGame>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<OrbitCamera>>,
) {
    let Some((army, unit)) = drafting.placing else {
        return;
    };
    let Some(game) = &active.game else { return };
    let (camera, transform) = *camera;
    let Some(at) = cursor_on_plane(&window, camera, transform, 0.0) else {
        return;
    };
    let moved = drafting.draft.as_ref().is_none_or(|d| {
        d.army != army
            || d.ends.first().is_none_or(|_| {
                let n = d.ends.len() as f32;
                let c = d.ends.iter().fold(Vec3::ZERO, |a, (_, p)| a + *p) / n;
                c.truncate().distance(at.truncate()) > 0.05
            })
    });
    if moved {
        drafting.draft = Some(play::placement_draft(
            game,
            army,
            unit,
            Vec3::new(at.x, at.y, 0.0),
        ));
    }
}

/// Refreshes [`WallContacts`] for the current draft: each drafted model's base collider is set
/// at its drafted end (turned to its facing) and asked which wall solids it overlaps.
fn touch_walls(
    drafting: Res<Drafting>,
    picker: TablePicker,
    models: Query<(&TableModel, &Collider, &Transform)>,
    mut contacts: ResMut<WallContacts>,
) {
    let mut walls = Vec::new();
    if let Some(d) = &drafting.draft {
        for (model, collider, transform) in &models {
            let Some((_, end)) = d.ends.iter().find(|(r, _)| *r == model.0) else {
                continue;
            };
            for wall in picker.walls_touching(collider, *end, transform.rotation) {
                if !walls.contains(&wall) {
                    walls.push(wall);
                }
            }
        }
    }
    contacts.set_if_neq(WallContacts { walls });
}

/// The game with a draft's models standing at their drafted ends (for sight while dragging).
pub fn with_draft(game: &Game, draft: Option<&play::Draft>) -> Game {
    let mut g = game.clone();
    if let Some(d) = draft {
        for (r, end) in &d.ends {
            g.scene.armies[r.army].units[r.unit].models[r.model].position = *end;
        }
    }
    g
}

fn refresh_report(
    mut sight: ResMut<SightTools>,
    drafting: Res<Drafting>,
    active: Res<ActiveGame>,
    selection: Res<Selection>,
    units: Query<&Unit>,
    mut last: Local<Option<Instant>>,
) {
    let observer = selection
        .unit
        .and_then(|e| units.get(e).ok())
        .map(|u| (u.army, u.index));
    let (Some(game), Some((army, unit)), true) = (&active.game, observer, sight.los) else {
        if sight.report.observer.is_some() {
            sight.report = play::LosReport::default();
        }
        return;
    };
    let root = game.combined(army, unit)[0];
    let stale = sight.report.observer != Some((army, root))
        || active.is_changed()
        || selection.is_changed()
        || drafting
            .draft
            .as_ref()
            .is_some_and(|d| d.army == army && d.unit == root);
    if !stale || game.live_models(army, root).is_empty() {
        return;
    }
    let dragging = drafting.draft.is_some();
    if dragging
        && sight.report.observer == Some((army, root))
        && last.is_some_and(|t| t.elapsed() < LOS_REFRESH_WHILE_DRAGGING)
    {
        return;
    }
    let table = with_draft(game, drafting.draft.as_ref());
    let report = play::los_report(&table, army, unit);
    *last = Some(Instant::now());
    if sight.report != report {
        sight.report = report;
    }
}

/// The hover text for the model under the cursor: its unit's label (name, player, models and
/// wounds left, status: [`play::unit_strip`]), then, with the line-of-sight tool on, its sight
/// status for the selected unit, the blocker or rule, and the Benefit of Cover.
pub fn hover_text(sight: &SightTools, game: Option<&Game>) -> Option<String> {
    let game = game?;
    let r = sight.hovered?;
    let label = play::unit_strip(game, r.army, r.unit);
    let name = game.scene.armies[r.army].units[r.unit].model_label(r.model);
    let Some(t) = sight.report.of(r).filter(|_| sight.los) else {
        return Some(label);
    };
    let mut text = format!(
        "{label}\n{name}: {}",
        match t.status {
            SightStatus::FullyVisible => "fully visible",
            SightStatus::Visible => "visible, not fully",
            SightStatus::NotVisible => "not visible",
        }
    );
    if let Some(reason) = &t.reason {
        let player = game.player_of(r.army);
        text.push_str(&format!("\n{}", play::readable(game, player, reason)));
    }
    if let Some(c) = &t.cover {
        text.push_str(&format!("\nBenefit of Cover: {c}"));
    }
    Some(text)
}

fn colour_of(verdict: Option<&Verdict>) -> Color {
    match verdict {
        Some(Verdict::Legal { .. }) => Color::srgb(0.3, 0.95, 0.4),
        Some(_) => Color::srgb(1.0, 0.25, 0.2),
        None => Color::srgb(0.8, 0.8, 0.8),
    }
}

/// Outlines in orange the wall solids in [`WallContacts`].
fn draw_wall_contacts(
    mut gizmos: Gizmos,
    contacts: Res<WallContacts>,
    walls: Query<(&WallSolid, &GlobalTransform)>,
) {
    for (solid, at) in contacts.walls.iter().filter_map(|e| walls.get(*e).ok()) {
        let (_, rotation, centre) = at.to_scale_rotation_translation();
        let outline = Transform::from_translation(centre)
            .with_rotation(rotation)
            .with_scale(solid.half_extents * 2.0 + Vec3::splat(0.1));
        gizmos.cube(outline, Color::srgb(1.0, 0.45, 0.1));
    }
}

fn draw(
    mut gizmos: Gizmos,
    drafting: Res<Drafting>,
    sight: Res<SightTools>,
    tools: Res<TableTools>,
    active: Res<ActiveGame>,
    selection: Res<Selection>,
    units: Query<&Unit>,
) {
    let Some(game) = &active.game else { return };
    let lift = Vec3::Z * 0.08;
    if let Some(d) = &drafting.draft {
        let colour = colour_of(drafting.verdict.as_ref());
        for (r, end) in &d.ends {
            let start = play::model_position(game, *r);
            let solid = game.solid(*r);
            let outline = solid.base.outline(end.truncate(), d.facing_of(game, *r));
            let pts: Vec<Vec3> = outline.iter().map(|p| p.extend(end.z) + lift).collect();
            gizmos.linestrip(pts.iter().copied().chain(pts.first().copied()), colour);
            // The path leg by leg, each waypoint marked (none for a unit set up from off the
            // table).
            let path = d.path_of(*r).unwrap_or_else(|| vec![*end]);
            if !matches!(
                game.units[r.army][r.unit].location,
                crate::game::Location::OnTable
            ) {
                continue;
            }
            // Each leg in its own colour when the move has legs: green up to the first leg
            // the engine refuses, that leg red, the rest grey.
            let first_bad = drafting.leg_verdicts.iter().position(|v| !v.is_legal());
            let mut from = start;
            for (k, &to) in path.iter().enumerate() {
                let leg_colour = match first_bad {
                    _ if drafting.leg_verdicts.is_empty() => colour,
                    Some(b) if k == b => Color::srgb(1.0, 0.25, 0.2),
                    Some(b) if k > b => Color::srgb(0.6, 0.6, 0.6),
                    _ => Color::srgb(0.3, 0.95, 0.4),
                };
                gizmos.line(from + lift, to + lift, leg_colour.with_alpha(0.8));
                from = to;
            }
            for w in &path[..path.len() - 1] {
                gizmos.circle(Isometry3d::from_translation(*w + lift), 0.2, colour);
            }
        }
    }
    let observer = selection
        .unit
        .and_then(|e| units.get(e).ok())
        .map(|u| (u.army, u.index));
    if let Some((army, unit)) = observer {
        for r in game.live_models(army, game.combined(army, unit)[0]) {
            let rings = rings_of(game, r, &tools.rings);
            let solid = game.solid(r);
            let radius = solid.base.bounding_radius_inches();
            for (distance, colour) in &rings {
                gizmos
                    .circle(
                        Isometry3d::from_translation(solid.centre.extend(solid.z) + lift),
                        radius + distance,
                        *colour,
                    )
                    .resolution(48);
            }
        }
    }
    if let Some(d) = &drafting.draft {
        draw_set_up_limits(&mut gizmos, game, d.army, d.unit);
    }
    draw_threats(&mut gizmos, game, &tools, observer);
    if sight.los {
        // The terrain piece that hides the hovered model, outlined (the hover text names it).
        for piece in blocking_pieces(game, &sight.report, sight.hovered) {
            let pts: Vec<Vec3> = piece
                .footprint
                .iter()
                .map(|p| p.extend(0.0) + Vec3::new(0.0, 0.0, 0.12))
                .collect();
            gizmos.linestrip(
                pts.iter().copied().chain(pts.first().copied()),
                Color::srgb(1.0, 0.2, 0.9),
            );
        }
        for t in witness_lines(&sight.report, sight.hovered) {
            if let Some([a, b]) = t.witness {
                let c = match t.status {
                    SightStatus::FullyVisible => Color::srgb(0.3, 0.95, 0.4),
                    _ => Color::srgb(0.95, 0.75, 0.2),
                };
                gizmos.line(a, b, c.with_alpha(0.6));
            }
        }
    }
    if let Some(tape) = &tools.tape
        && let [a, b] = &tape.picks[..]
        && let Some(m) = crate::app::play::measure(game, a, b)
    {
        // The tape between the closest points, lifted a little off the table.
        let lift = Vec3::new(0.0, 0.0, 0.05);
        // Cyan: apart from the yellow objective markers and the selection.
        let tape = Color::srgb(0.2, 1.0, 1.0);
        gizmos.line(m.line[0] + lift, m.line[1] + lift, tape);
        for p in m.line {
            gizmos.sphere(Isometry3d::from_translation(p + lift), 0.2, tape);
        }
    }
}

/// The terrain pieces the sight report names as what hides (or only partly shows) the hovered
/// model, to outline on the table.
pub fn blocking_pieces<'a>(
    game: &'a Game,
    report: &LosReport,
    hovered: Option<ModelRef>,
) -> Vec<&'a crate::geometry::TerrainPiece> {
    let Some(reason) = hovered
        .and_then(|h| report.of(h))
        .and_then(|t| t.reason.as_ref())
    else {
        return Vec::new();
    };
    game.scene
        .layout
        .pieces
        .iter()
        .filter(|p| play::names_word(reason, &p.id))
        .collect()
}

/// The sight lines the line-of-sight tool draws: to every model of the enemy unit under the
/// cursor when one is hovered; otherwise one per enemy unit (its first model seen fully, else
/// seen), so that a unit facing a whole army is not lost in a tangle of lines.
pub fn witness_lines(report: &LosReport, hovered: Option<ModelRef>) -> Vec<&TargetSight> {
    let seen = |t: &&TargetSight| t.witness.is_some();
    if let Some(h) = hovered
        && report
            .targets
            .iter()
            .any(|t| t.model.army == h.army && t.model.unit == h.unit)
    {
        return report
            .targets
            .iter()
            .filter(|t| t.model.army == h.army && t.model.unit == h.unit)
            .filter(seen)
            .collect();
    }
    let mut out: Vec<&TargetSight> = Vec::new();
    for t in report.targets.iter().filter(seen) {
        let same = out
            .iter()
            .position(|o| o.model.army == t.model.army && o.model.unit == t.model.unit);
        match same {
            None => out.push(t),
            Some(i)
                if out[i].status != SightStatus::FullyVisible
                    && t.status == SightStatus::FullyVisible =>
            {
                out[i] = t;
            }
            Some(_) => {}
        }
    }
    out
}

/// The limits drawn while a unit is placed from off the table: for Reserves, a ring 9" out
/// from every enemy base (arrivals stay outside) and, for Strategic Reserves, the line 6" in
/// from each battlefield edge (arrivals stay wholly between it and the edge); for an embarked
/// unit, a ring 3" out from its TRANSPORT's bases (Core Rules: Reserves, Strategic Reserves,
/// Transports).
fn draw_set_up_limits(gizmos: &mut Gizmos, game: &Game, army: usize, unit: usize) {
    use crate::rules::constants::{
        BOARD_DEPTH_INCHES, BOARD_WIDTH_INCHES, DISEMBARK_RANGE_INCHES,
        RESERVES_ENEMY_DISTANCE_INCHES, STRATEGIC_RESERVES_EDGE_INCHES,
    };
    let lift = Vec3::Z * 0.07;
    let ring = |gizmos: &mut Gizmos, r: ModelRef, inches: f32, colour: Color| {
        let s = game.solid(r);
        gizmos
            .circle(
                Isometry3d::from_translation(s.centre.extend(s.z) + lift),
                s.base.bounding_radius_inches() + inches,
                colour,
            )
            .resolution(48);
    };
    match game.units[army][unit].location {
        crate::game::Location::Reserves(kind) => {
            let purple = Color::srgb(0.75, 0.35, 1.0);
            for e in game.enemy_models(army) {
                ring(gizmos, e, RESERVES_ENEMY_DISTANCE_INCHES, purple);
            }
            if kind == crate::game::ReserveKind::StrategicReserves {
                let (e, w, d) = (
                    STRATEGIC_RESERVES_EDGE_INCHES,
                    BOARD_WIDTH_INCHES,
                    BOARD_DEPTH_INCHES,
                );
                let inner = [
                    Vec3::new(e, e, 0.0),
                    Vec3::new(w - e, e, 0.0),
                    Vec3::new(w - e, d - e, 0.0),
                    Vec3::new(e, d - e, 0.0),
                    Vec3::new(e, e, 0.0),
                ];
                gizmos.linestrip(inner.map(|p| p + lift), Color::srgb(0.3, 0.9, 1.0));
            }
        }
        crate::game::Location::Embarked(t) => {
            for r in game.live_models(army, t) {
                ring(
                    gizmos,
                    r,
                    DISEMBARK_RANGE_INCHES,
                    Color::srgb(0.3, 0.9, 1.0),
                );
            }
        }
        _ => {}
    }
}

/// Draws the threat overlay: the outline of the selected unit's charge reach (red) and
/// shooting reach (orange), or of every enemy unit's charge reach (their shooting reach covers
/// most of the table and would hide the rest).
fn draw_threats(
    gizmos: &mut Gizmos,
    game: &Game,
    tools: &TableTools,
    selected: Option<(usize, usize)>,
) {
    let lift = Vec3::Z * 0.06;
    for (army, unit) in threat_units(game, tools.threat, selected) {
        let reach = play::reach(game, army, unit);
        let mut outlines = vec![(reach.charge_inches, Color::srgb(1.0, 0.25, 0.2))];
        if let Some(s) = reach.shooting_inches
            && tools.threat == play::ThreatOverlay::Selected
        {
            outlines.push((s, Color::srgb(1.0, 0.6, 0.15)));
        }
        for (inches, colour) in outlines {
            let pts: Vec<Vec3> = play::threat_outline(game, army, unit, inches)
                .into_iter()
                .map(|p| p.extend(0.0) + lift)
                .collect();
            gizmos.linestrip(pts.iter().copied().chain(pts.first().copied()), colour);
        }
    }
}

/// The range rings' colours, in the order of [`TableTools::rings`]: Move (blue), the longest
/// ranged weapon (orange), Engagement Range (red), Unit Coherency (white).
pub const RING_COLOURS: [Color; 4] = [
    Color::srgb(0.3, 0.7, 1.0),
    Color::srgb(1.0, 0.5, 0.2),
    Color::srgb(1.0, 0.2, 0.2),
    Color::srgb(0.9, 0.9, 0.9),
];

/// The rings drawn around model `r` of the selected unit: (distance beyond the base in
/// inches, colour) for its own Move ([`Game::model_move_inches`]), its unit's longest weapon,
/// Engagement Range and Unit Coherency, as toggled.
pub fn rings_of(game: &Game, r: ModelRef, on: &[bool; 4]) -> Vec<(f32, Color)> {
    let data = &game.scene.armies[r.army].units[r.unit];
    let longest = data
        .datasheet
        .weapons()
        .filter_map(|w| w.range)
        .fold(0.0f32, |a, r| a.max(r));
    let all = [
        game.model_move_inches(r),
        longest,
        ENGAGEMENT_RANGE_HORIZONTAL_INCHES,
        COHERENCY_HORIZONTAL_INCHES,
    ]
    .into_iter()
    .zip(RING_COLOURS);
    all.into_iter()
        .zip(on)
        .filter(|(_, on)| **on)
        .map(|(r, _)| r)
        .filter(|(d, _)| *d > 0.0)
        .collect()
}
