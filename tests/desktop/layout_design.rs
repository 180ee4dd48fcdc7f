//! The layout designer: mirror mode keeps a layout its own 180° image, save → load round trip,
//! analysis figures on small layouts whose answers can be worked out by hand, validation.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicUsize;

use proptest::prelude::*;
use wartable::data::layout::{LayoutFile, PieceSpec, Shape};
use wartable::data::load_scene;
use wartable::data::write::Overwrite;
use wartable::design::analysis::{
    AnalysisInput, LANE_SPACING_INCHES, VEHICLE_PROBE, analyze, work,
};
use wartable::design::edit::{
    History, new_piece, put_objective, put_piece, remove_objective, remove_piece, resized,
    snap_point, snap_rotation,
};
use wartable::design::mirror::{Half, is_symmetric, mirror_layout, rotate_point, unmatched};
use wartable::design::validate::{ProblemKind, validate};
use wartable::design::{Design, input_of, picture};
use wartable::geometry::heatmap::zone_grid;
use wartable::geometry::{Point, TerrainCategory, Vec2};
use wartable::rules::mission::ObjectiveMarker;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wartable-design-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let p = entry.unwrap().path();
        let dest = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_tree(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).unwrap();
        }
    }
}

fn open_layout(n: u32) -> Design {
    Design::open(
        &root().join(format!("scenes/layouts/layout-{n}.ron")),
        &root().join("scenes/deployments/search-and-destroy.ron"),
    )
    .unwrap()
}

fn empty_layout() -> LayoutFile {
    LayoutFile {
        name: "test".into(),
        source: String::new(),
        pieces: Vec::new(),
        objectives: Vec::new(),
        areas: Vec::new(),
        categories: Default::default(),
    }
}

/// A solid block (debris) of `w` x `d` inches, 12" tall, centred at (`x`, `y`).
fn block(id: &str, x: f32, y: f32, w: f32, d: f32) -> PieceSpec {
    PieceSpec {
        id: id.into(),
        category: TerrainCategory::Debris,
        at: Point(x, y),
        rotation: 0.0,
        footprint: Shape::Rect(w, d),
        height: 12.0,
        walls: Vec::new(),
        floors: Vec::new(),
    }
}

/// Hammer and Anvil zones: x < 18 and x > 42, the whole depth.
fn hammer_and_anvil(pieces: &[PieceSpec], objectives: Vec<ObjectiveMarker>) -> AnalysisInput {
    let rect = |x0: f32, x1: f32| {
        vec![
            Vec2::new(x0, 0.0),
            Vec2::new(x1, 0.0),
            Vec2::new(x1, 44.0),
            Vec2::new(x0, 44.0),
        ]
    };
    AnalysisInput {
        layout: "hand-made".into(),
        deployment: "Hammer and Anvil".into(),
        pieces: pieces.iter().map(PieceSpec::resolve).collect(),
        zones: vec![
            (1, "Attacker".into(), rect(0.0, 18.0)),
            (2, "Defender".into(), rect(42.0, 60.0)),
        ],
        objectives,
        ground_floor_windows_closed: true,
    }
}

fn objective(id: &str, x: f32, y: f32) -> ObjectiveMarker {
    ObjectiveMarker {
        id: id.into(),
        at: Point(x, y),
        z: 0.0,
    }
}

/// All eight layouts are point-symmetric, layout 7 included (its file notes how the diagram's
/// 0.95" slip on three pieces was split).
#[test]
fn every_chapter_approved_layout_is_its_own_180_degree_image() {
    for n in 1..=8 {
        let d = open_layout(n);
        let missing = unmatched(&d.layout);
        assert!(missing.is_empty(), "layout {n}: {missing:?}");
    }
}

#[test]
fn mirroring_half_a_layout_gives_its_own_180_degree_image() {
    for n in [1, 7] {
        let d = open_layout(n);
        for half in [Half::West, Half::East, Half::South, Half::North] {
            let m = mirror_layout(&d.layout, half);
            assert!(is_symmetric(&m), "layout {n} {half:?}: {:?}", unmatched(&m));
            // Every kept piece is there unchanged; the rest are images.
            for p in d.layout.pieces.iter().filter(|p| half.holds(p.at.vec())) {
                assert!(m.pieces.contains(p));
            }
        }
    }
    // Layout 1 is symmetric already: mirroring its west half gives back the same pieces.
    let d = open_layout(1);
    let m = mirror_layout(&d.layout, Half::West);
    assert_eq!(m.pieces.len(), d.layout.pieces.len());
}

#[test]
fn an_edit_without_mirror_mode_breaks_symmetry_and_with_it_keeps_it() {
    let mut d = open_layout(1);
    let i = 0;
    let mut moved = d.layout.pieces[i].clone();
    moved.at = Point(moved.at.0 + 1.5, moved.at.1 - 0.5);
    let mut plain = d.layout.clone();
    put_piece(&mut plain, Some(i), moved.clone(), false);
    assert!(!is_symmetric(&plain));
    put_piece(&mut d.layout, Some(i), moved, true);
    assert!(is_symmetric(&d.layout), "{:?}", unmatched(&d.layout));
    assert_eq!(d.layout.pieces.len(), open_layout(1).layout.pieces.len());
}

#[derive(Debug, Clone)]
enum Op {
    Add(usize, f32, f32),
    Move(usize, f32, f32),
    Turn(usize, f32),
    Resize(usize, f32, f32),
    Remove(usize),
    AddObjective(f32, f32),
    MoveObjective(usize, f32, f32),
    RemoveObjective(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0..7usize, 2.0f32..58.0, 2.0f32..42.0).prop_map(|(c, x, y)| Op::Add(c, x, y)),
        (0..40usize, -8.0f32..8.0, -8.0f32..8.0).prop_map(|(i, x, y)| Op::Move(i, x, y)),
        (0..40usize, -180.0f32..180.0).prop_map(|(i, a)| Op::Turn(i, a)),
        (0..40usize, 1.0f32..12.0, 1.0f32..12.0).prop_map(|(i, w, d)| Op::Resize(i, w, d)),
        (0..40usize).prop_map(Op::Remove),
        (2.0f32..58.0, 2.0f32..42.0).prop_map(|(x, y)| Op::AddObjective(x, y)),
        (0..8usize, -6.0f32..6.0, -6.0f32..6.0).prop_map(|(i, x, y)| Op::MoveObjective(i, x, y)),
        (0..8usize).prop_map(Op::RemoveObjective),
    ]
}

fn apply(layout: &mut LayoutFile, op: &Op, mirror: bool) {
    let n = layout.pieces.len();
    match *op {
        Op::Add(c, x, y) => {
            let id = format!("new-{}", layout.pieces.len());
            let p = new_piece(TerrainCategory::ALL[c], id, snap_point(Point(x, y)));
            put_piece(layout, None, p, mirror);
        }
        Op::Move(i, dx, dy) if n > 0 => {
            let mut p = layout.pieces[i % n].clone();
            p.at = snap_point(Point(p.at.0 + dx, p.at.1 + dy));
            put_piece(layout, Some(i % n), p, mirror);
        }
        Op::Turn(i, a) if n > 0 => {
            let mut p = layout.pieces[i % n].clone();
            p.rotation = snap_rotation(p.rotation + a);
            put_piece(layout, Some(i % n), p, mirror);
        }
        Op::Resize(i, w, d) if n > 0 => {
            let p = resized(&layout.pieces[i % n], w, d);
            put_piece(layout, Some(i % n), p, mirror);
        }
        Op::Remove(i) if n > 0 => remove_piece(layout, i % n, mirror),
        Op::AddObjective(x, y) => {
            let id = format!("o{}", layout.objectives.len());
            put_objective(layout, None, objective(&id, x, y), mirror);
        }
        Op::MoveObjective(i, dx, dy) if !layout.objectives.is_empty() => {
            let k = i % layout.objectives.len();
            let mut o = layout.objectives[k].clone();
            o.at = Point(o.at.0 + dx, o.at.1 + dy);
            put_objective(layout, Some(k), o, mirror);
        }
        Op::RemoveObjective(i) if !layout.objectives.is_empty() => {
            let k = i % layout.objectives.len();
            remove_objective(layout, k, mirror);
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Any sequence of edits in mirror mode, from layout 1 or an empty table, leaves a
    /// layout that is its own 180° image; undoing every edit gives back the start.
    #[test]
    fn mirror_mode_keeps_the_layout_its_own_image(
        ops in proptest::collection::vec(op(), 1..12),
        from_empty in any::<bool>(),
    ) {
        let start = if from_empty { empty_layout() } else { open_layout(1).layout };
        let mut layout = start.clone();
        let mut history = History::default();
        for op in &ops {
            history.record(&layout);
            apply(&mut layout, op, true);
            prop_assert!(is_symmetric(&layout), "after {:?}: {:?}", op, unmatched(&layout));
        }
        while history.undo(&mut layout) {}
        prop_assert_eq!(layout, start);
    }
}

#[test]
fn undo_and_redo_step_through_the_edits() {
    let mut layout = empty_layout();
    let mut h = History::default();
    let steps: Vec<LayoutFile> = (0..3)
        .map(|k| {
            h.record(&layout);
            apply(&mut layout, &Op::Add(k, 10.0 + 5.0 * k as f32, 10.0), false);
            layout.clone()
        })
        .collect();
    assert!(h.undo(&mut layout));
    assert_eq!(layout, steps[1]);
    assert!(h.undo(&mut layout));
    assert!(h.redo(&mut layout));
    assert_eq!(layout, steps[1]);
    assert!(h.redo(&mut layout));
    assert_eq!(layout, steps[2]);
    assert!(!h.redo(&mut layout));
    assert_eq!(h.depth(), (3, 0));
}

#[test]
fn a_saved_design_loads_back_the_same() {
    let dir = temp_dir("save");
    copy_tree(&root().join("scenes"), &dir);
    let mut d = Design::open(
        &dir.join("layouts/layout-3.ron"),
        &dir.join("deployments/hammer-and-anvil.ron"),
    )
    .unwrap();
    d.layout.name = "My Test Layout".into();
    let ruin = new_piece(TerrainCategory::Ruin, "ruin-new".into(), Point(30.0, 8.5));
    put_piece(&mut d.layout, None, ruin, true);
    put_objective(&mut d.layout, None, objective("mine", 20.5, 11.0), true);
    let (scene, layout) = d
        .save(&dir, &d.layout.name.clone(), Overwrite::Refuse)
        .unwrap();
    assert_eq!(scene, dir.join("my-test-layout.ron"));
    assert_eq!(layout, dir.join("layouts/my-test-layout.ron"));
    // Saving over it again needs the player's confirmation (Overwrite::Replace).
    let before = std::fs::read_to_string(&layout).unwrap();
    let mut moved = d.clone();
    put_objective(
        &mut moved.layout,
        None,
        objective("again", 40.5, 11.0),
        true,
    );
    let refused = moved
        .save(&dir, &d.layout.name.clone(), Overwrite::Refuse)
        .unwrap_err();
    assert!(refused.to_string().contains("already exists"), "{refused}");
    assert_eq!(std::fs::read_to_string(&layout).unwrap(), before);
    moved
        .save(&dir, &d.layout.name.clone(), Overwrite::Replace)
        .unwrap();
    assert_ne!(std::fs::read_to_string(&layout).unwrap(), before);
    d.save(&dir, &d.layout.name.clone(), Overwrite::Replace)
        .unwrap();
    let back = Design::open_scene(&scene).unwrap();
    assert_eq!(back.layout, d.layout);
    assert_eq!(back.deployment, d.deployment);
    // The scene plays: both armies set up, the layout's objectives in play.
    let loaded = load_scene(&scene).unwrap();
    assert_eq!(loaded.armies.len(), 2);
    let ids: Vec<&str> = loaded.objectives.iter().map(|o| o.id.as_str()).collect();
    assert_eq!(ids, ["mine", "mine-m"]);
    assert_eq!(loaded.layout.pieces.len(), d.layout.pieces.len());
    // `validate` accepts both files.
    for f in [&scene, &layout] {
        wartable::data::validate_file(f).unwrap();
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_empty_table_is_one_open_lane_seen_everywhere() {
    let input = hammer_and_anvil(&[], vec![objective("centre", 30.0, 22.0)]);
    let a = analyze(&input, 1.0, &AtomicUsize::new(0));
    for z in &a.zones {
        assert_eq!(z.infantry_visible_share, 1.0);
        assert_eq!(z.vehicle_visible_share, 1.0);
        // 9 columns x 22 rows of 2" points in an 18" x 44" zone.
        assert_eq!(z.observers, 9 * 22);
    }
    assert_eq!(a.lanes.count, 1);
    assert_eq!(a.lanes.lines, (9 * 22) * (9 * 22));
    assert_eq!(a.lanes.clear_lines, a.lanes.lines);
    assert_eq!(a.objectives[0].seen_from, vec![(1, 1.0), (2, 1.0)]);
    assert_eq!(a.asymmetry.score, 0.0);
    assert!(a.problems.is_empty());
}

#[test]
fn a_wall_across_the_table_halves_what_each_zone_sees() {
    // A 12" tall block 1" thick at x = 29.5..30.5, longer than the table is deep (so no
    // sight line passes round its ends).
    let input = hammer_and_anvil(
        &[block("wall", 30.0, 22.0, 1.0, 48.0)],
        vec![objective("home", 10.0, 22.0)],
    );
    let cell = 1.0;
    let done = AtomicUsize::new(0);
    let a = analyze(&input, cell, &done);
    assert_eq!(done.into_inner(), work(&input, cell));
    // Infantry (32 mm, 0.63" radius): a probe is seen when its near side is west of the
    // block: centres at x < 30, i.e. 30 of 60 columns.
    assert_eq!(a.zones[0].infantry_visible_share, 30.0 / 60.0);
    // Vehicles: the hull's sampled points reach 0.98 of its half length (2.35") back towards
    // the zone; a hull is seen while that point is west of x = 29.5.
    let reach = VEHICLE_PROBE.base.half_extents_inches().x * 0.98;
    let columns = (0..60)
        .filter(|c| (*c as f32 + 0.5) * cell - reach < 29.5)
        .count();
    assert_eq!(columns, 32);
    assert_eq!(a.zones[0].vehicle_visible_share, columns as f32 / 60.0);
    // Symmetric, so zone 2 sees the mirror image.
    assert_eq!(a.zones[1].infantry_visible_share, 0.5);
    assert_eq!(a.asymmetry.score, 0.0);
    assert_eq!(a.lanes.count, 0);
    assert_eq!(a.lanes.clear_lines, 0);
    assert_eq!(a.objectives[0].seen_from, vec![(1, 1.0), (2, 0.0)]);
}

#[test]
fn a_block_in_the_middle_leaves_two_lanes_and_one_sided_terrain_is_asymmetric() {
    // 2" x 28" block, y = 8..36: open lines pass north or south of it, never both.
    let input = hammer_and_anvil(&[block("middle", 30.0, 22.0, 2.0, 28.0)], Vec::new());
    let a = analyze(&input, 2.0, &AtomicUsize::new(0));
    assert_eq!(a.lanes.count, 2);
    assert!(a.lanes.clear_lines > 0 && a.lanes.clear_lines < a.lanes.lines);
    assert_eq!(a.asymmetry.score, 0.0);
    // The same block moved 8" west is no longer its own image.
    let input = hammer_and_anvil(&[block("middle", 22.0, 22.0, 2.0, 28.0)], Vec::new());
    let b = analyze(&input, 2.0, &AtomicUsize::new(0));
    assert!(b.asymmetry.score > 0.0);
    // Right behind the block (x = 21..23) from zone 1, (23, 22) is hidden from every point of
    // zone 1 (the lines from x < 18 all cross x = 21..23 between y = 8 and 36), while its
    // image (37, 22) stands in the open before zone 2.
    let cell = |m: &wartable::geometry::heatmap::Heatmap, x: f32, y: f32| {
        m.visible[(y / m.cell) as usize * m.cols + (x / m.cell) as usize]
    };
    assert!(!cell(&b.maps[0][0], 23.0, 22.0));
    assert!(cell(&b.maps[1][0], 37.0, 22.0));
}

#[test]
fn lane_grids_are_each_others_image() {
    let zone = vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(18.0, 0.0),
        Vec2::new(18.0, 44.0),
        Vec2::new(0.0, 44.0),
    ];
    let image: Vec<Vec2> = zone.iter().map(|p| rotate_point(*p)).collect();
    let a: Vec<Vec2> = zone_grid(&zone, LANE_SPACING_INCHES)
        .iter()
        .map(|g| rotate_point(g.2))
        .collect();
    let b: Vec<Vec2> = zone_grid(&image, LANE_SPACING_INCHES)
        .iter()
        .map(|g| g.2)
        .collect();
    assert_eq!(a.len(), b.len());
    assert!(a.iter().all(|p| b.iter().any(|q| p.distance(*q) < 1e-4)));
}

#[test]
fn validation_names_pieces_off_the_table_overlapping_and_objectives_in_walls() {
    let ruin = new_piece(TerrainCategory::Ruin, "ruin-a".into(), Point(20.0, 20.0));
    let off = block("edge", 1.0, 10.0, 4.0, 2.0);
    let over = block("over", 24.0, 21.0, 3.0, 3.0);
    let apart = block("apart", 45.0, 30.0, 2.0, 2.0);
    let touching = block("touching", 47.0, 30.0, 2.0, 2.0);
    let pieces: Vec<_> = [ruin.clone(), off, over, apart, touching]
        .iter()
        .map(PieceSpec::resolve)
        .collect();
    // The new ruin's north wall runs along y = 22.875.
    let objectives = vec![
        objective("in-wall", 20.0, 22.9),
        objective("clear", 30.0, 35.0),
    ];
    let problems = validate(&pieces, &objectives);
    let kinds: Vec<(ProblemKind, Vec<String>)> =
        problems.iter().map(|p| (p.kind, p.ids.clone())).collect();
    assert_eq!(
        kinds,
        vec![
            (ProblemKind::OffBoard, vec!["edge".to_string()]),
            (
                ProblemKind::Overlap,
                vec!["ruin-a".to_string(), "over".to_string()]
            ),
            (
                ProblemKind::ObjectiveInWall,
                vec!["in-wall".to_string(), "ruin-a".to_string()]
            ),
        ]
    );
    assert!(problems[0].message.contains("'edge'"));
    assert!(problems[1].message.contains("'ruin-a' and 'over'"));
    assert!(problems[2].message.contains("wall 1 of piece 'ruin-a'"));
    // Moving the objective out of the wall clears that problem.
    let fixed = validate(&pieces, &[objective("in-wall", 20.0, 20.0)]);
    assert!(fixed.iter().all(|p| p.kind != ProblemKind::ObjectiveInWall));
}

#[test]
fn the_heatmap_picture_colours_cells_by_the_zones_that_see_them() {
    let input = hammer_and_anvil(&[block("wall", 30.0, 22.0, 1.0, 44.0)], Vec::new());
    let a = analyze(&input, 1.0, &AtomicUsize::new(0));
    let img = picture::render(&input, &a, 0);
    let s = picture::PIXELS_PER_INCH;
    let px = |x: f32, y: f32| {
        img.get_pixel(
            8 + (x * s as f32) as u32,
            8 + ((44.0 - y) * s as f32) as u32,
        )
        .0
    };
    // West of the wall only zone 1 sees; east only zone 2; nothing sees both.
    assert_eq!(
        px(25.0, 30.5),
        picture::SEEN_COLOURS[picture::seen_class(true, false)]
    );
    assert_eq!(
        px(35.0, 30.5),
        picture::SEEN_COLOURS[picture::seen_class(false, true)]
    );
    let dir = temp_dir("png");
    let file = dir.join("heat.png");
    picture::write_png(&file, &input, &a, 0).unwrap();
    assert_eq!(image::open(&file).unwrap().width(), img.width());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_analysis_of_a_chapter_approved_scene_is_symmetric_and_plausible() {
    let scene = load_scene(&root().join("scenes/layout-1.ron")).unwrap();
    let a = analyze(&input_of(&scene), 2.0, &AtomicUsize::new(0));
    assert_eq!(a.asymmetry.score, 0.0);
    assert_eq!(
        a.zones[0].infantry_visible_share,
        a.zones[1].infantry_visible_share
    );
    for z in &a.zones {
        assert!(z.infantry_visible_share > 0.2 && z.infantry_visible_share < 1.0);
    }
    assert!(a.lanes.count >= 1);
    // Each home objective is seen from its own zone more than from the far one.
    let home = a
        .objectives
        .iter()
        .find(|o| o.id == "attacker-home")
        .unwrap();
    assert!(home.seen_from[0].1 > home.seen_from[1].1);
}

#[test]
fn ruin_walls_openings_and_floors_can_be_added_and_removed() {
    use wartable::design::edit::{
        Side, with_floor, with_opening, with_wall, without_openings, without_wall,
    };
    let ruin = new_piece(TerrainCategory::Ruin, "r".into(), Point(20.0, 20.0));
    assert_eq!(ruin.walls.len(), 2);
    let walled = with_wall(&ruin, Side::West);
    assert_eq!(walled.walls.len(), 3);
    let opened = with_opening(&walled, 0);
    let w = &opened.walls[0];
    assert_eq!(w.windows.len(), 4);
    // The new ground opening does not overlap the old one and lies in the wall.
    let length = w.from.vec().distance(w.to.vec());
    let ground: Vec<_> = w.windows.iter().filter(|o| o.bottom < 1.0).collect();
    assert_eq!(ground.len(), 2);
    assert!(ground[1].start >= ground[0].end || ground[0].start >= ground[1].end);
    assert!(w.windows.iter().all(|o| o.start >= 0.0 && o.end <= length));
    // Every step stays a valid layout piece.
    let mut layout = empty_layout();
    for p in [
        &walled,
        &opened,
        &without_openings(&opened, 0),
        &without_wall(&opened, 2),
        &with_floor(&opened, None),
    ] {
        layout.pieces = vec![p.clone()];
        let errors = wartable::data::check::layout(Path::new("t.ron"), &layout);
        assert!(errors.is_empty(), "{errors:?}");
    }
    assert!(with_floor(&opened, None).floors.is_empty());
    assert_eq!(without_openings(&opened, 0).walls[0].windows.len(), 0);
    // A short wall with no room for another 1.5" opening is left as it is.
    let small = resized(&ruin, 2.0, 2.0);
    let full = with_opening(&small, 0);
    assert_eq!(full.walls[0].windows, small.walls[0].windows);
}

/// Issue 49: a new piece is put where it overlaps nothing and lies on the table (its image too
/// in mirror mode), near the point asked for; the editor's buttons name categories in words.
#[test]
fn a_new_piece_goes_to_the_nearest_free_spot() {
    use wartable::design::edit::free_spot;
    use wartable::design::validate::{OVERLAP_AREA_TOLERANCE_SQ_INCHES, overlap_area};
    let d = open_layout(1);
    let preferred = Point(22.0, 16.0);
    let piece = new_piece(TerrainCategory::Ruin, "ruin-new".into(), preferred);
    let crowded = d
        .layout
        .pieces
        .iter()
        .any(|p| overlap_area(&p.resolve().footprint, &piece.resolve().footprint) > 0.01);
    assert!(
        crowded,
        "layout 1 has terrain at the preferred point; the test shows nothing"
    );
    for mirror in [false, true] {
        let at = free_spot(&d.layout, &piece, preferred, mirror);
        let mut placed = piece.clone();
        placed.at = at;
        let footprint = placed.resolve().footprint;
        for other in &d.layout.pieces {
            assert!(
                overlap_area(&footprint, &other.resolve().footprint)
                    <= OVERLAP_AREA_TOLERANCE_SQ_INCHES,
                "mirror {mirror}: at {at:?} it overlaps {}",
                other.id
            );
        }
        assert!(
            footprint
                .iter()
                .all(|v| wartable::data::check::on_board(*v))
        );
        assert!(
            at.vec().distance(preferred.vec()) < 20.0,
            "mirror {mirror}: {at:?} is near the point asked for"
        );
    }
    assert_eq!(TerrainCategory::LowFootprint.label(), "low footprint");
}

/// Issue 49: the missing 180° images are added, which makes a layout its own image.
#[test]
fn complete_images_makes_a_layout_its_own_image() {
    use wartable::design::mirror::complete_images;
    let mut d = open_layout(2);
    assert!(is_symmetric(&d.layout));
    d.layout.pieces.truncate(d.layout.pieces.len() - 2);
    d.layout.objectives.push(objective("lonely", 10.5, 10.5));
    assert!(!is_symmetric(&d.layout));
    let added = complete_images(&mut d.layout);
    assert!(added >= 3, "{added}");
    assert!(is_symmetric(&d.layout), "{:?}", unmatched(&d.layout));
    assert_eq!(complete_images(&mut d.layout), 0, "nothing left to add");
}

#[test]
fn a_design_under_the_eleventh_edition_analyses_with_its_hidden_layer() {
    use std::sync::atomic::AtomicUsize;
    use wartable::design::analysis::analyze_under;
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenes/eleventh-sight.ron");
    let mut design = wartable::design::Design::open_scene(&file).unwrap();
    assert_eq!(design.options.ruleset, wartable::rules::Ruleset::Eleventh);
    let run = |d: &wartable::design::Design| {
        analyze_under(
            &d.analysis_input(),
            &d.to_scene().terrain_rules(),
            2.0,
            &AtomicUsize::new(0),
        )
    };
    assert!(run(&design).hidden_share.is_some_and(|h| h > 0.0));
    design.options.ruleset = wartable::rules::Ruleset::Tenth;
    assert_eq!(run(&design).hidden_share, None);
}
