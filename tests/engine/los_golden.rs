//! Golden cases for the pure geometry: true line of sight with the terrain rules (ruins, low
//! footprints, woods, models in the way), the Benefit of Cover, Plunging Fire, measuring,
//! Engagement Range, objective control and Unit Coherency.
//!
//! Every case is a tiny hand-made layout (one or two pieces) where the answer is unambiguous
//! with [`Sampling::FAST`]: sight lines stay well clear of footprint edges, wall ends and base
//! outlines. Rules: shared/RULES.md (Geometry words, Visibility, Terrain categories), Core
//! Rules (seeds/003) and Rules Commentary (seeds/000).
//!
//! Units: inches; x along the 60" edge, y along the 44" edge, z up. Infantry stand on 32 mm
//! round bases, 1.6" tall; vehicles are 6" x 3.5" hulls, 3" tall.

use wartable::geometry::base::BASE_THICKNESS_INCHES;
use wartable::geometry::sight::{
    Blocker, ModelVisibility, Sampling, SeeThrough, SightIndex, SightModel,
};
use wartable::geometry::{
    Base, Floor, ModelSolid, TerrainCategory, TerrainPiece, Vec2, Vec3, Wall, Window, measure,
};
use wartable::rules::coherency;
use wartable::rules::cover::UnitVisibility;
use wartable::rules::engagement::{self, Control};

// ---------------------------------------------------------------------------------------------
// Builders
// ---------------------------------------------------------------------------------------------

const INFANTRY_BASE: Base = Base::Round(32.0);
const INFANTRY_HEIGHT: f32 = 1.6;
const VEHICLE_HULL: Base = Base::Hull {
    length: 6.0,
    width: 3.5,
};
const VEHICLE_HEIGHT: f32 = 3.0;
/// Radius of a 32 mm base (inches).
const R32: f32 = 32.0 / 25.4 / 2.0;

fn v2(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// An axis-aligned rectangle, counter-clockwise.
fn rect(x0: f32, y0: f32, x1: f32, y1: f32) -> Vec<Vec2> {
    vec![v2(x0, y0), v2(x1, y0), v2(x1, y1), v2(x0, y1)]
}

/// A bare piece: footprint only, no walls or floors.
fn piece(id: &str, category: TerrainCategory, footprint: Vec<Vec2>) -> TerrainPiece {
    TerrainPiece {
        id: id.to_string(),
        category,
        footprint,
        height: 0.0,
        walls: Vec::new(),
        floors: Vec::new(),
    }
}

/// A ruin footprint without walls (the footprint rule alone).
fn ruin(id: &str, x0: f32, y0: f32, x1: f32, y1: f32) -> TerrainPiece {
    piece(id, TerrainCategory::Ruin, rect(x0, y0, x1, y1))
}

/// A solid wall, 0.2" thick.
fn wall(x0: f32, y0: f32, x1: f32, y1: f32, height: f32) -> Wall {
    Wall {
        start: v2(x0, y0),
        end: v2(x1, y1),
        height,
        thickness: 0.2,
        windows: Vec::new(),
    }
}

/// The same wall with an opening `start..end` along it, `bottom..top` above the table.
fn window(mut w: Wall, start: f32, end: f32, bottom: f32, top: f32) -> Wall {
    w.windows.push(Window {
        start,
        end,
        bottom,
        top,
    });
    w
}

fn with_walls(mut p: TerrainPiece, walls: Vec<Wall>) -> TerrainPiece {
    p.walls = walls;
    p
}

/// The piece with an upper floor over its whole footprint.
fn with_floor(mut p: TerrainPiece, height: f32) -> TerrainPiece {
    p.floors.push(Floor {
        height,
        area: p.footprint.clone(),
    });
    p
}

/// The ruin 10..16 x 10..16 with 5" walls on its west and east sides, each with a wide
/// ground-floor window (y 11..15, 0.3"..2.8" up): a sight line along y = 13 at model height
/// physically passes through both windows.
fn windowed_ruin() -> TerrainPiece {
    with_walls(
        ruin("ruin-1", 10.0, 10.0, 16.0, 16.0),
        vec![
            window(wall(10.0, 10.0, 10.0, 16.0, 5.0), 1.0, 5.0, 0.3, 2.8),
            window(wall(16.0, 10.0, 16.0, 16.0, 5.0), 1.0, 5.0, 0.3, 2.8),
        ],
    )
}

/// A model of `unit` with the given solid and no special keywords.
fn model(unit: usize, base: Base, x: f32, y: f32, z: f32, facing: f32, height: f32) -> SightModel {
    SightModel {
        unit,
        solid: ModelSolid::new(base, Vec3::new(x, y, z), facing, height),
        towering: false,
        aircraft: false,
        infantry: false,
    }
}

/// An INFANTRY model on the table.
fn infantry(unit: usize, x: f32, y: f32) -> SightModel {
    infantry_at(unit, x, y, 0.0)
}

/// An INFANTRY model standing `z` inches up (on a floor).
fn infantry_at(unit: usize, x: f32, y: f32, z: f32) -> SightModel {
    SightModel {
        infantry: true,
        ..model(unit, INFANTRY_BASE, x, y, z, 0.0, INFANTRY_HEIGHT)
    }
}

/// A VEHICLE (hull) on the table.
fn vehicle(unit: usize, x: f32, y: f32, facing: f32) -> SightModel {
    model(unit, VEHICLE_HULL, x, y, 0.0, facing, VEHICLE_HEIGHT)
}

/// A TOWERING model: 100 mm base, 6" tall.
fn towering(unit: usize, x: f32, y: f32) -> SightModel {
    SightModel {
        towering: true,
        ..model(unit, Base::Round(100.0), x, y, 0.0, 0.0, 6.0)
    }
}

fn aircraft(m: SightModel) -> SightModel {
    SightModel {
        aircraft: true,
        ..m
    }
}

fn index_with(
    pieces: &[TerrainPiece],
    windows_closed: bool,
    models: Vec<SightModel>,
) -> SightIndex {
    let mut index = SightIndex::new(pieces, windows_closed);
    index.set_models(models);
    index
}

fn index(pieces: &[TerrainPiece], models: Vec<SightModel>) -> SightIndex {
    index_with(pieces, false, models)
}

/// Model `target` as seen by model `observer` (seeing through the observer's own unit).
fn look(index: &SightIndex, observer: usize, target: usize) -> ModelVisibility {
    index.model_visibility(observer, target, SeeThrough::OwnUnit, &Sampling::FAST)
}

fn units(index: &SightIndex, observers: &[usize], targets: &[usize]) -> UnitVisibility {
    index.unit_visibility(observers, targets, &Sampling::FAST)
}

fn footprint(piece: &str, category: TerrainCategory) -> Option<Blocker> {
    Some(Blocker::Footprint {
        piece: piece.to_string(),
        category,
    })
}

fn ruin_footprint(piece: &str) -> Option<Blocker> {
    footprint(piece, TerrainCategory::Ruin)
}

fn wall_of(piece: &str) -> Option<Blocker> {
    Some(Blocker::Terrain {
        piece: piece.to_string(),
        part: "wall",
    })
}

fn model_blocker(model: usize, unit: usize) -> Option<Blocker> {
    Some(Blocker::Model { model, unit })
}

fn assert_visible(v: &ModelVisibility) {
    assert!(v.visible, "expected visible: {v:?}");
    assert!(
        v.witness.is_some(),
        "a visible target has a witness line: {v:?}"
    );
    assert_eq!(v.blocked_by, None, "{v:?}");
}

fn assert_hidden(v: &ModelVisibility, blocker: Option<Blocker>) {
    assert!(!v.visible, "expected not visible: {v:?}");
    assert!(!v.fully_visible, "{v:?}");
    assert_eq!(v.witness, None, "{v:?}");
    assert_eq!(v.blocked_by, blocker, "{v:?}");
}

fn assert_close(actual: f32, expected: f32, tolerance: f32) {
    assert!(
        (actual - expected).abs() <= tolerance,
        "expected {expected} ± {tolerance}, got {actual}"
    );
}

fn solid(base: Base, x: f32, y: f32, z: f32, facing: f32, height: f32) -> ModelSolid {
    ModelSolid::new(base, Vec3::new(x, y, z), facing, height)
}

fn round32(x: f32, y: f32) -> ModelSolid {
    solid(INFANTRY_BASE, x, y, 0.0, 0.0, INFANTRY_HEIGHT)
}

// ---------------------------------------------------------------------------------------------
// Ruins
// ---------------------------------------------------------------------------------------------

#[test]
fn ruin_footprint_blocks_sight_through_even_where_a_window_is_open() {
    // Observer and target outside the ruin, on either side; every line crosses the footprint
    // and physically passes through the two open windows.
    let idx = index(
        &[windowed_ruin()],
        vec![infantry(1, 4.0, 13.0), infantry(2, 22.0, 13.0)],
    );
    assert_hidden(&look(&idx, 0, 1), ruin_footprint("ruin-1"));
    // The same pair seen the other way round.
    assert_hidden(&look(&idx, 1, 0), ruin_footprint("ruin-1"));
}

#[test]
fn ruin_footprint_blocks_sight_over_a_ruin_without_walls() {
    let idx = index(
        &[ruin("ruin-1", 10.0, 10.0, 16.0, 16.0)],
        vec![infantry(1, 4.0, 13.0), infantry(2, 22.0, 13.0)],
    );
    assert_hidden(&look(&idx, 0, 1), ruin_footprint("ruin-1"));
}

#[test]
fn ruin_footprint_does_not_block_a_line_that_passes_beside_it() {
    // The same ruin, the pair moved 3" clear of its north edge.
    let idx = index(
        &[ruin("ruin-1", 10.0, 10.0, 16.0, 16.0)],
        vec![infantry(1, 4.0, 19.0), infantry(2, 22.0, 19.0)],
    );
    let v = look(&idx, 0, 1);
    assert_visible(&v);
    assert!(v.fully_visible, "{v:?}");
}

#[test]
fn model_wholly_within_a_ruin_sees_out_of_it() {
    let idx = index(
        &[ruin("ruin-1", 10.0, 10.0, 16.0, 16.0)],
        vec![infantry(1, 13.0, 13.0), infantry(2, 22.0, 13.0)],
    );
    let v = look(&idx, 0, 1);
    assert_visible(&v);
    assert!(v.fully_visible, "nothing physical in the way: {v:?}");
}

#[test]
fn model_partly_within_a_ruin_does_not_see_out_through_its_footprint() {
    // The observer's base straddles the east edge (x 15.17..16.43); the target is west of the
    // ruin, so every line from the observer crosses the footprint.
    let idx = index(
        &[ruin("ruin-1", 10.0, 10.0, 16.0, 16.0)],
        vec![infantry(1, 15.8, 13.0), infantry(2, 4.0, 13.0)],
    );
    assert_hidden(&look(&idx, 0, 1), ruin_footprint("ruin-1"));
}

#[test]
fn model_partly_within_a_ruin_can_be_seen_from_outside() {
    // Sight into a ruin is normal: the target straddles the far (east) edge, so every line
    // crosses the whole footprint.
    let idx = index(
        &[ruin("ruin-1", 10.0, 10.0, 16.0, 16.0)],
        vec![infantry(1, 4.0, 13.0), infantry(2, 15.8, 13.0)],
    );
    let v = look(&idx, 0, 1);
    assert_visible(&v);
    assert!(
        v.fully_visible,
        "seen normally, nothing physical in the way: {v:?}"
    );
}

#[test]
fn model_wholly_within_a_ruin_can_be_seen_through_its_open_window() {
    let idx = index(
        &[windowed_ruin()],
        vec![infantry(1, 4.0, 13.0), infantry(2, 13.0, 13.0)],
    );
    assert_visible(&look(&idx, 0, 1));
}

#[test]
fn solid_ruin_wall_blocks_sight_to_a_model_within_the_ruin() {
    // The footprint does not hide a target within it, but the west wall does.
    let walled = with_walls(
        ruin("ruin-1", 10.0, 10.0, 16.0, 16.0),
        vec![wall(10.0, 10.0, 10.0, 16.0, 5.0)],
    );
    let idx = index(
        &[walled],
        vec![infantry(1, 4.0, 13.0), infantry(2, 13.0, 13.0)],
    );
    assert_hidden(&look(&idx, 0, 1), wall_of("ruin-1"));
}

#[test]
fn tall_freestanding_wall_blocks_sight_between_models_in_the_open() {
    // Statuary-like piece: no footprint rule, only its 5" wall.
    let statue = with_walls(
        piece(
            "wall-1",
            TerrainCategory::Debris,
            rect(14.8, 5.0, 15.2, 21.0),
        ),
        vec![wall(15.0, 5.0, 15.0, 21.0, 5.0)],
    );
    let idx = index(
        &[statue],
        vec![infantry(1, 10.0, 13.0), infantry(2, 20.0, 13.0)],
    );
    assert_hidden(&look(&idx, 0, 1), wall_of("wall-1"));
}

#[test]
fn low_freestanding_wall_leaves_the_target_visible_but_not_fully_visible() {
    // A 1" wall hides the lower part of the target only.
    let low = with_walls(
        piece(
            "wall-1",
            TerrainCategory::Debris,
            rect(14.8, 5.0, 15.2, 21.0),
        ),
        vec![wall(15.0, 5.0, 15.0, 21.0, 1.0)],
    );
    let idx = index(
        &[low],
        vec![infantry(1, 4.0, 13.0), infantry(2, 16.5, 13.0)],
    );
    let v = look(&idx, 0, 1);
    assert_visible(&v);
    assert!(!v.fully_visible);
    assert_eq!(v.not_fully_because, wall_of("wall-1"));
}

#[test]
fn model_on_an_upper_floor_wholly_within_a_ruin_cannot_see_over_another_ruin() {
    let tower = with_floor(ruin("ruin-1", 0.0, 10.0, 6.0, 16.0), 3.0);
    let other = ruin("ruin-2", 10.0, 10.0, 16.0, 16.0);
    let models = vec![infantry_at(1, 5.0, 13.0, 3.0), infantry(2, 22.0, 13.0)];
    let idx = index(&[tower.clone(), other], models.clone());
    assert_hidden(&look(&idx, 0, 1), ruin_footprint("ruin-2"));
    // Without the second ruin, the same observer sees out of its own ruin.
    assert_visible(&look(&index(&[tower], models), 0, 1));
}

#[test]
fn model_on_an_upper_floor_partly_within_a_ruin_cannot_see_over_another_ruin() {
    // 3" up, base overhanging the east edge of its ruin (x 5.57..6.83).
    let tower = with_floor(ruin("ruin-1", 0.0, 10.0, 6.0, 16.0), 3.0);
    let other = ruin("ruin-2", 10.0, 10.0, 16.0, 16.0);
    let models = vec![infantry_at(1, 6.2, 13.0, 3.0), infantry(2, 22.0, 13.0)];
    let idx = index(&[tower.clone(), other], models.clone());
    assert_hidden(&look(&idx, 0, 1), ruin_footprint("ruin-2"));
    // Without the second ruin, the part of the base outside its own ruin sees the target.
    assert_visible(&look(&index(&[tower], models), 0, 1));
}

/// The ruin 10..16 x 10..16 closed by 5" walls, with one ground-floor window (y 12..14,
/// 0.2"..2.5" up) in the west wall, and a first floor at 3".
fn closed_ruin_with_one_window(bottom: f32, top: f32) -> TerrainPiece {
    with_floor(
        with_walls(
            ruin("ruin-1", 10.0, 10.0, 16.0, 16.0),
            vec![
                window(wall(10.0, 10.0, 10.0, 16.0, 5.0), 2.0, 4.0, bottom, top),
                wall(10.0, 16.0, 16.0, 16.0, 5.0),
                wall(16.0, 16.0, 16.0, 10.0, 5.0),
                wall(16.0, 10.0, 10.0, 10.0, 5.0),
            ],
        ),
        3.0,
    )
}

#[test]
fn ground_floor_window_open_lets_sight_into_the_ruin() {
    let models = vec![infantry(1, 4.0, 13.0), infantry(2, 13.0, 13.0)];
    let idx = index_with(&[closed_ruin_with_one_window(0.2, 2.5)], false, models);
    assert_visible(&look(&idx, 0, 1));
}

#[test]
fn ground_floor_windows_closed_convention_blocks_that_window() {
    let models = vec![infantry(1, 4.0, 13.0), infantry(2, 13.0, 13.0)];
    let idx = index_with(&[closed_ruin_with_one_window(0.2, 2.5)], true, models);
    assert_hidden(&look(&idx, 0, 1), wall_of("ruin-1"));
}

#[test]
fn ground_floor_windows_closed_convention_leaves_upper_floor_windows_open() {
    // Window 3.2"..5" up (above the 3" first floor); the target stands on the first floor.
    let models = vec![infantry(1, 4.0, 13.0), infantry_at(2, 13.0, 13.0, 3.0)];
    for closed in [false, true] {
        let idx = index_with(
            &[closed_ruin_with_one_window(3.2, 5.0)],
            closed,
            models.clone(),
        );
        assert_visible(&look(&idx, 0, 1));
    }
    // With the window bricked up entirely the wall hides it (the window is the only way in).
    let bricked = with_floor(
        with_walls(
            ruin("ruin-1", 10.0, 10.0, 16.0, 16.0),
            vec![
                wall(10.0, 10.0, 10.0, 16.0, 5.0),
                wall(10.0, 16.0, 16.0, 16.0, 5.0),
                wall(16.0, 16.0, 16.0, 10.0, 5.0),
                wall(16.0, 10.0, 10.0, 10.0, 5.0),
            ],
        ),
        3.0,
    );
    assert!(!look(&index(&[bricked], models), 0, 1).visible);
}

#[test]
fn towering_model_partly_within_a_ruin_sees_out_of_it() {
    // 100 mm base straddling the east edge (x 13.53..17.47); the target is west of the ruin.
    let r = ruin("ruin-1", 10.0, 10.0, 16.0, 16.0);
    let tall = towering(1, 15.5, 13.0);
    let idx = index(
        std::slice::from_ref(&r),
        vec![tall.clone(), infantry(2, 4.0, 13.0)],
    );
    assert_visible(&look(&idx, 0, 1));
    // The same model without TOWERING does not.
    let plain = SightModel {
        towering: false,
        ..tall
    };
    let idx = index(&[r], vec![plain, infantry(2, 4.0, 13.0)]);
    assert_hidden(&look(&idx, 0, 1), ruin_footprint("ruin-1"));
}

#[test]
fn towering_model_outside_a_ruin_cannot_see_through_its_footprint() {
    let idx = index(
        &[ruin("ruin-1", 10.0, 10.0, 16.0, 16.0)],
        vec![towering(1, 4.0, 13.0), infantry(2, 22.0, 13.0)],
    );
    assert_hidden(&look(&idx, 0, 1), ruin_footprint("ruin-1"));
}

#[test]
fn aircraft_observer_ignores_ruin_footprints() {
    let idx = index(
        &[windowed_ruin()],
        vec![aircraft(infantry(1, 4.0, 13.0)), infantry(2, 22.0, 13.0)],
    );
    assert_visible(&look(&idx, 0, 1));
}

#[test]
fn aircraft_target_ignores_ruin_footprints() {
    let idx = index(
        &[windowed_ruin()],
        vec![infantry(1, 4.0, 13.0), aircraft(infantry(2, 22.0, 13.0))],
    );
    assert_visible(&look(&idx, 0, 1));
}

#[test]
fn aircraft_still_cannot_see_through_solid_walls() {
    let walled = with_walls(
        ruin("ruin-1", 10.0, 10.0, 16.0, 16.0),
        vec![wall(10.0, 10.0, 10.0, 16.0, 5.0)],
    );
    let idx = index(
        &[walled],
        vec![aircraft(infantry(1, 4.0, 13.0)), infantry(2, 22.0, 13.0)],
    );
    assert_hidden(&look(&idx, 0, 1), wall_of("ruin-1"));
}

// ---------------------------------------------------------------------------------------------
// Low footprints
// ---------------------------------------------------------------------------------------------

fn low_ruin() -> TerrainPiece {
    piece(
        "low-1",
        TerrainCategory::LowFootprint,
        rect(10.0, 10.0, 16.0, 16.0),
    )
}

#[test]
fn low_footprint_blocks_sight_through_it_like_a_ruin() {
    let idx = index(
        &[low_ruin()],
        vec![infantry(1, 4.0, 13.0), infantry(2, 22.0, 13.0)],
    );
    assert_hidden(
        &look(&idx, 0, 1),
        footprint("low-1", TerrainCategory::LowFootprint),
    );
}

#[test]
fn model_within_a_low_footprint_can_be_seen() {
    let idx = index(
        &[low_ruin()],
        vec![infantry(1, 4.0, 13.0), infantry(2, 13.0, 13.0)],
    );
    let v = look(&idx, 0, 1);
    assert_visible(&v);
    assert!(v.fully_visible, "{v:?}");
}

// ---------------------------------------------------------------------------------------------
// Woods
// ---------------------------------------------------------------------------------------------

fn woods() -> TerrainPiece {
    piece(
        "woods-1",
        TerrainCategory::Woods,
        rect(10.0, 10.0, 16.0, 16.0),
    )
}

#[test]
fn model_wholly_within_woods_is_visible_but_never_fully_visible() {
    let idx = index(
        &[woods()],
        vec![infantry(1, 4.0, 13.0), infantry(2, 13.0, 13.0)],
    );
    let v = look(&idx, 0, 1);
    assert_visible(&v);
    assert!(!v.fully_visible);
    assert_eq!(
        v.not_fully_because,
        Some(Blocker::WhollyWithinWoods {
            piece: "woods-1".into()
        })
    );
}

#[test]
fn model_partly_within_woods_with_a_clear_view_is_fully_visible() {
    // Base 0.23" over the near (west) edge: lines to the facing side do not cross the woods.
    let idx = index(
        &[woods()],
        vec![infantry(1, 4.0, 13.0), infantry(2, 9.6, 13.0)],
    );
    let v = look(&idx, 0, 1);
    assert_visible(&v);
    assert!(v.fully_visible, "{v:?}");
}

#[test]
fn sight_line_through_woods_is_visible_but_not_fully_visible() {
    let idx = index(
        &[woods()],
        vec![infantry(1, 4.0, 13.0), infantry(2, 22.0, 13.0)],
    );
    let v = look(&idx, 0, 1);
    assert_visible(&v);
    assert!(!v.fully_visible);
    assert_eq!(
        v.not_fully_because,
        Some(Blocker::Woods {
            piece: "woods-1".into()
        })
    );
}

#[test]
fn towering_observer_is_exempt_from_the_woods_rules() {
    for target in [13.0, 22.0] {
        let idx = index(
            &[woods()],
            vec![towering(1, 4.0, 13.0), infantry(2, target, 13.0)],
        );
        let v = look(&idx, 0, 1);
        assert!(v.visible && v.fully_visible, "target at x={target}: {v:?}");
    }
}

#[test]
fn aircraft_target_is_exempt_from_the_woods_rules() {
    for target in [13.0, 22.0] {
        let idx = index(
            &[woods()],
            vec![infantry(1, 4.0, 13.0), aircraft(infantry(2, target, 13.0))],
        );
        let v = look(&idx, 0, 1);
        assert!(v.visible && v.fully_visible, "target at x={target}: {v:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Models in the way
// ---------------------------------------------------------------------------------------------

#[test]
fn observer_sees_through_models_of_its_own_unit() {
    // A vehicle of the observer's own unit stands squarely between.
    let idx = index(
        &[],
        vec![
            infantry(1, 4.0, 13.0),
            infantry(2, 14.0, 13.0),
            vehicle(1, 9.0, 13.0, 90.0),
        ],
    );
    let v = look(&idx, 0, 1);
    assert_visible(&v);
    assert!(v.fully_visible, "{v:?}");
}

#[test]
fn model_of_a_third_unit_that_hides_the_whole_target_blocks_sight() {
    // A 6" x 3.5" hull side-on (y 10..16, 3" tall) between two 32 mm infantry models.
    let idx = index(
        &[],
        vec![
            infantry(1, 4.0, 13.0),
            infantry(2, 14.0, 13.0),
            vehicle(3, 9.0, 13.0, 90.0),
        ],
    );
    assert_hidden(&look(&idx, 0, 1), model_blocker(2, 3));
}

/// Observer (unit 1) at (4, 13), target (unit 2) at (14, 13), and a hull of `unit`, 3" tall,
/// at (9, 15) along x: it covers y 13.25..16.75, hiding the north side of the target only.
fn half_hidden_by_a_hull(unit: usize) -> SightIndex {
    index(
        &[],
        vec![
            infantry(1, 4.0, 13.0),
            infantry(2, 14.0, 13.0),
            vehicle(unit, 9.0, 15.0, 0.0),
        ],
    )
}

#[test]
fn model_of_a_third_unit_partly_in_the_way_leaves_the_target_visible_but_not_fully() {
    let v = look(&half_hidden_by_a_hull(3), 0, 1);
    assert_visible(&v);
    assert!(!v.fully_visible);
    assert_eq!(v.not_fully_because, model_blocker(2, 3));
}

#[test]
fn model_fully_visible_does_not_see_through_the_target_units_other_models() {
    // The hull belongs to the target's unit: for one model, it still blocks.
    let idx = half_hidden_by_a_hull(2);
    let v = idx.model_visibility(0, 1, SeeThrough::OwnUnit, &Sampling::FAST);
    assert!(v.visible && !v.fully_visible, "{v:?}");
    assert_eq!(v.not_fully_because, model_blocker(2, 2));
}

#[test]
fn unit_fully_visible_sees_through_the_target_units_other_models() {
    let idx = half_hidden_by_a_hull(2);
    let v = idx.model_visibility(0, 1, SeeThrough::OwnAndTargetUnit, &Sampling::FAST);
    assert!(v.visible && v.fully_visible, "{v:?}");
    let u = units(&idx, &[0], &[1, 2]);
    assert!(u.unit_visible);
    assert!(u.unit_fully_visible, "{u:?}");
}

#[test]
fn unit_fully_visible_needs_no_third_unit_model_in_the_way() {
    let idx = half_hidden_by_a_hull(3);
    let u = units(&idx, &[0], &[1]);
    assert!(u.unit_visible);
    assert!(!u.unit_fully_visible, "{u:?}");
}

#[test]
fn unit_is_visible_when_one_of_its_models_is_visible() {
    // Target unit 2: one model behind a tall wall, one in the open.
    let statue = with_walls(
        piece(
            "wall-1",
            TerrainCategory::Debris,
            rect(14.8, 10.0, 15.2, 16.0),
        ),
        vec![wall(15.0, 10.0, 15.0, 16.0, 5.0)],
    );
    let idx = index(
        &[statue],
        vec![
            infantry(1, 10.0, 13.0),
            infantry(2, 20.0, 13.0),
            infantry(2, 20.0, 22.0),
        ],
    );
    assert!(!look(&idx, 0, 1).visible);
    assert!(look(&idx, 0, 2).visible);
    let u = units(&idx, &[0], &[1, 2]);
    assert!(u.unit_visible);
    assert!(!u.unit_fully_visible);
    assert!(u.witness.is_some());
    assert_eq!(u.blocked_by, None);
    // The hidden model alone: the unit is not visible, and the wall is the evidence.
    let u = units(&idx, &[0], &[1]);
    assert!(!u.unit_visible);
    assert_eq!(u.blocked_by, wall_of("wall-1"));
}

#[test]
fn unit_fully_visible_to_an_observing_unit_needs_every_observer_model() {
    // Observer unit 1: one model with a clear view, one behind a tall wall.
    let statue = with_walls(
        piece(
            "wall-1",
            TerrainCategory::Debris,
            rect(14.8, 10.0, 15.2, 16.0),
        ),
        vec![wall(15.0, 10.0, 15.0, 16.0, 5.0)],
    );
    let idx = index(
        &[statue],
        vec![
            infantry(1, 20.0, 22.0),
            infantry(1, 10.0, 13.0),
            infantry(2, 20.0, 13.0),
        ],
    );
    assert!(look(&idx, 0, 2).fully_visible);
    assert!(!look(&idx, 1, 2).visible);
    assert!(units(&idx, &[0], &[2]).unit_fully_visible);
    let u = units(&idx, &[0, 1], &[2]);
    assert!(u.unit_visible);
    assert!(
        !u.unit_fully_visible,
        "not fully visible to every observing model: {u:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Benefit of Cover
// ---------------------------------------------------------------------------------------------

#[test]
fn model_wholly_within_a_ruin_has_the_benefit_of_cover() {
    let idx = index(
        &[ruin("ruin-1", 10.0, 10.0, 16.0, 16.0)],
        vec![infantry(1, 4.0, 13.0), infantry(2, 13.0, 13.0)],
    );
    let v = look(&idx, 0, 1);
    assert!(v.visible && v.fully_visible, "{v:?}");
    let reason = idx.benefit_of_cover(1, &[0], &Sampling::FAST);
    assert_eq!(reason.as_deref(), Some("wholly within ruin-1"));
    assert!(units(&idx, &[0], &[1]).benefit_of_cover);
}

#[test]
fn model_partly_within_a_ruin_and_fully_visible_has_no_cover() {
    let idx = index(
        &[ruin("ruin-1", 10.0, 10.0, 16.0, 16.0)],
        vec![infantry(1, 4.0, 13.0), infantry(2, 15.8, 13.0)],
    );
    assert_eq!(idx.benefit_of_cover(1, &[0], &Sampling::FAST), None);
    assert!(!units(&idx, &[0], &[1]).benefit_of_cover);
}

#[test]
fn model_behind_a_ruin_not_fully_visible_because_of_it_has_the_benefit_of_cover() {
    // Target in the open just past the north-east corner of the ruin, the line running along
    // its north edge: the top is seen over y = 16.2, the lower south side only through the
    // footprint.
    let idx = index(
        &[ruin("ruin-1", 10.0, 10.0, 16.0, 16.0)],
        vec![infantry(1, 4.0, 16.2), infantry(2, 18.0, 16.2)],
    );
    let v = look(&idx, 0, 1);
    assert_visible(&v);
    assert!(!v.fully_visible);
    assert_eq!(v.not_fully_because, ruin_footprint("ruin-1"));
    let reason = idx
        .benefit_of_cover(1, &[0], &Sampling::FAST)
        .expect("cover");
    assert!(reason.contains("ruin-1"), "{reason}");
    assert!(units(&idx, &[0], &[1]).benefit_of_cover);
}

#[test]
fn model_in_the_open_and_fully_visible_has_no_cover() {
    let idx = index(
        &[ruin("ruin-1", 10.0, 10.0, 16.0, 16.0)],
        vec![infantry(1, 4.0, 20.0), infantry(2, 22.0, 20.0)],
    );
    assert!(look(&idx, 0, 1).fully_visible);
    assert_eq!(idx.benefit_of_cover(1, &[0], &Sampling::FAST), None);
    let u = units(&idx, &[0], &[1]);
    assert!(
        u.unit_visible && u.unit_fully_visible && !u.benefit_of_cover,
        "{u:?}"
    );
}

#[test]
fn model_partly_hidden_only_by_another_model_has_no_cover() {
    let idx = half_hidden_by_a_hull(3);
    let v = look(&idx, 0, 1);
    assert!(v.visible && !v.fully_visible, "{v:?}");
    assert_eq!(idx.benefit_of_cover(1, &[0], &Sampling::FAST), None);
    assert!(!units(&idx, &[0], &[1]).benefit_of_cover);
}

#[test]
fn infantry_wholly_within_a_crater_has_the_benefit_of_cover() {
    let crater = piece(
        "crater-1",
        TerrainCategory::Crater,
        rect(10.0, 10.0, 16.0, 16.0),
    );
    let idx = index(
        &[crater],
        vec![infantry(1, 4.0, 13.0), infantry(2, 13.0, 13.0)],
    );
    assert!(look(&idx, 0, 1).fully_visible, "a crater hides nothing");
    assert_eq!(
        idx.benefit_of_cover(1, &[0], &Sampling::FAST).as_deref(),
        Some("INFANTRY wholly within crater crater-1")
    );
}

#[test]
fn non_infantry_wholly_within_a_crater_has_no_cover() {
    let crater = piece(
        "crater-1",
        TerrainCategory::Crater,
        rect(10.0, 10.0, 16.0, 16.0),
    );
    let not_infantry = SightModel {
        infantry: false,
        ..infantry(2, 13.0, 13.0)
    };
    let idx = index(&[crater], vec![infantry(1, 4.0, 13.0), not_infantry]);
    assert_eq!(idx.benefit_of_cover(1, &[0], &Sampling::FAST), None);
}

#[test]
fn infantry_only_partly_within_a_crater_has_no_cover() {
    let crater = piece(
        "crater-1",
        TerrainCategory::Crater,
        rect(10.0, 10.0, 16.0, 16.0),
    );
    let idx = index(
        &[crater],
        vec![infantry(1, 4.0, 13.0), infantry(2, 10.1, 13.0)],
    );
    assert_eq!(idx.benefit_of_cover(1, &[0], &Sampling::FAST), None);
}

#[test]
fn model_wholly_within_woods_has_the_benefit_of_cover() {
    let idx = index(
        &[woods()],
        vec![infantry(1, 4.0, 13.0), infantry(2, 13.0, 13.0)],
    );
    assert_eq!(
        idx.benefit_of_cover(1, &[0], &Sampling::FAST).as_deref(),
        Some("wholly within woods-1")
    );
}

#[test]
fn model_seen_only_through_woods_has_the_benefit_of_cover() {
    let idx = index(
        &[woods()],
        vec![infantry(1, 4.0, 13.0), infantry(2, 22.0, 13.0)],
    );
    let reason = idx
        .benefit_of_cover(1, &[0], &Sampling::FAST)
        .expect("cover");
    assert!(reason.contains("woods-1"), "{reason}");
}

/// A barricade across y 10..16 at x 11..11.4 with a 1" wall.
fn barricade() -> TerrainPiece {
    with_walls(
        piece(
            "barricade-1",
            TerrainCategory::Barricade,
            rect(11.0, 10.0, 11.4, 16.0),
        ),
        vec![Wall {
            thickness: 0.4,
            ..wall(11.2, 10.0, 11.2, 16.0, 1.0)
        }],
    )
}

#[test]
fn model_within_3_inches_of_a_barricade_and_not_fully_visible_has_the_benefit_of_cover() {
    let idx = index(
        &[barricade()],
        vec![infantry(1, 4.0, 13.0), infantry(2, 12.5, 13.0)],
    );
    let v = look(&idx, 0, 1);
    assert_visible(&v);
    assert_eq!(v.not_fully_because, wall_of("barricade-1"));
    let reason = idx
        .benefit_of_cover(1, &[0], &Sampling::FAST)
        .expect("cover");
    assert!(reason.contains("barricade-1"), "{reason}");
}

#[test]
fn model_more_than_3_inches_from_a_barricade_has_no_cover_from_it() {
    // Still partly hidden by the barricade, but 4.97" from it.
    let idx = index(
        &[barricade()],
        vec![infantry(1, 4.0, 13.0), infantry(2, 17.0, 13.0)],
    );
    let v = look(&idx, 0, 1);
    assert_visible(&v);
    assert_eq!(v.not_fully_because, wall_of("barricade-1"));
    assert_eq!(idx.benefit_of_cover(1, &[0], &Sampling::FAST), None);
}

#[test]
fn unit_has_cover_only_when_every_visible_model_has_it() {
    // One target model wholly within a ruin, the other in the open.
    let idx = index(
        &[ruin("ruin-1", 10.0, 10.0, 16.0, 16.0)],
        vec![
            infantry(1, 4.0, 13.0),
            infantry(2, 13.0, 13.0),
            infantry(2, 13.0, 20.0),
        ],
    );
    assert!(idx.benefit_of_cover(1, &[0], &Sampling::FAST).is_some());
    assert!(idx.benefit_of_cover(2, &[0], &Sampling::FAST).is_none());
    assert!(!units(&idx, &[0], &[1, 2]).benefit_of_cover);
    assert!(units(&idx, &[0], &[1]).benefit_of_cover);
}

#[test]
fn terrain_hiding_part_of_the_target_gives_cover_even_when_a_model_hides_another_part() {
    // A third-unit hull hides the target's north side (upper points first in sampling order);
    // a 1" debris wall in front of its south half hides the lower south side.
    let low = with_walls(
        piece(
            "wall-1",
            TerrainCategory::Debris,
            rect(12.7, 10.0, 12.9, 12.9),
        ),
        vec![wall(12.8, 10.0, 12.8, 12.9, 1.0)],
    );
    let idx = index(
        &[low],
        vec![
            infantry(1, 4.0, 13.0),
            infantry(2, 14.0, 13.0),
            vehicle(3, 9.0, 15.0, 0.0),
        ],
    );
    let v = look(&idx, 0, 1);
    assert!(v.visible && !v.fully_visible, "{v:?}");
    let terrain_only = idx.model_visibility(0, 1, SeeThrough::AllModels, &Sampling::FAST);
    assert_eq!(terrain_only.not_fully_because, wall_of("wall-1"));
    let reason = idx
        .benefit_of_cover(1, &[0], &Sampling::FAST)
        .expect("cover");
    assert!(reason.contains("wall-1"), "{reason}");
}

/// A wall-less piece of `category` over x 14..16, y 10..16, `height` tall.
fn body(id: &str, category: TerrainCategory, height: f32) -> TerrainPiece {
    TerrainPiece {
        height,
        ..piece(id, category, rect(14.0, 10.0, 16.0, 16.0))
    }
}

#[test]
fn hill_body_blocks_sight_like_a_solid() {
    let idx = index(
        &[body("hill-1", TerrainCategory::Hill, 3.0)],
        vec![infantry(1, 10.0, 13.0), infantry(2, 20.0, 13.0)],
    );
    assert_hidden(
        &look(&idx, 0, 1),
        Some(Blocker::Terrain {
            piece: "hill-1".into(),
            part: "body",
        }),
    );
}

#[test]
fn concave_debris_body_does_not_fill_its_notch() {
    // An L-shaped 3" statue base; the line along y = 15 runs through the notch.
    let l_shape = vec![
        v2(14.0, 10.0),
        v2(20.0, 10.0),
        v2(20.0, 12.0),
        v2(16.0, 12.0),
        v2(16.0, 18.0),
        v2(14.0, 18.0),
    ];
    let statue = TerrainPiece {
        height: 3.0,
        ..piece("debris-1", TerrainCategory::Debris, l_shape)
    };
    let idx = index(
        &[statue],
        vec![
            infantry(1, 18.0, 30.0),
            infantry(2, 18.0, 15.0),
            infantry(2, 10.0, 11.0),
        ],
    );
    // Seen from the north, the target in the notch is in the open.
    assert!(look(&idx, 0, 1).fully_visible);
    // From the west, the target behind the long arm is hidden by the body.
    let v = idx.model_visibility(2, 1, SeeThrough::AllModels, &Sampling::FAST);
    assert!(!v.visible, "{v:?}");
}

#[test]
fn debris_body_partly_hiding_the_target_gives_cover() {
    let idx = index(
        &[body("debris-1", TerrainCategory::Debris, 1.0)],
        vec![infantry(1, 4.0, 13.0), infantry(2, 17.0, 13.0)],
    );
    let v = look(&idx, 0, 1);
    assert_visible(&v);
    assert!(!v.fully_visible);
    let reason = idx
        .benefit_of_cover(1, &[0], &Sampling::FAST)
        .expect("cover");
    assert!(reason.contains("debris-1"), "{reason}");
}

#[test]
fn woods_with_a_height_still_never_block_visible() {
    let idx = index(
        &[body("woods-1", TerrainCategory::Woods, 4.0)],
        vec![infantry(1, 10.0, 13.0), infantry(2, 20.0, 13.0)],
    );
    let v = look(&idx, 0, 1);
    assert_visible(&v);
    assert!(!v.fully_visible);
}

// ---------------------------------------------------------------------------------------------
// Plunging Fire
// ---------------------------------------------------------------------------------------------

/// Ruin 0..6 x 10..16 with floors at 3" and 6"; ruin 30..36 x 10..16 with a floor at 3".
fn plunging_layout() -> Vec<TerrainPiece> {
    vec![
        with_floor(with_floor(ruin("ruin-1", 0.0, 10.0, 6.0, 16.0), 3.0), 6.0),
        with_floor(ruin("ruin-2", 30.0, 10.0, 36.0, 16.0), 3.0),
    ]
}

#[test]
fn plunging_fire_from_6_inches_up_wholly_within_a_ruin_at_a_ground_level_target() {
    let idx = index(
        &plunging_layout(),
        vec![infantry_at(1, 3.0, 13.0, 6.0), infantry(2, 20.0, 13.0)],
    );
    assert!(idx.plunging_fire(0, &[1]));
    let u = units(&idx, &[0], &[1]);
    assert!(u.unit_visible && u.plunging_fire, "{u:?}");
}

#[test]
fn no_plunging_fire_from_3_inches_up() {
    let idx = index(
        &plunging_layout(),
        vec![infantry_at(1, 3.0, 13.0, 3.0), infantry(2, 20.0, 13.0)],
    );
    assert!(!idx.plunging_fire(0, &[1]));
    assert!(!units(&idx, &[0], &[1]).plunging_fire);
}

#[test]
fn no_plunging_fire_at_a_unit_with_a_model_on_an_upper_floor() {
    let idx = index(
        &plunging_layout(),
        vec![
            infantry_at(1, 3.0, 13.0, 6.0),
            infantry(2, 20.0, 13.0),
            infantry_at(2, 33.0, 13.0, 3.0),
        ],
    );
    assert!(!idx.plunging_fire(0, &[2]));
    assert!(
        !idx.plunging_fire(0, &[1, 2]),
        "every target model must be at ground level"
    );
}

#[test]
fn no_plunging_fire_from_a_model_only_partly_within_the_ruin() {
    let idx = index(
        &plunging_layout(),
        vec![infantry_at(1, 6.2, 13.0, 6.0), infantry(2, 20.0, 13.0)],
    );
    assert!(!idx.plunging_fire(0, &[1]));
}

// ---------------------------------------------------------------------------------------------
// Measuring
// ---------------------------------------------------------------------------------------------

#[test]
fn distance_between_round_bases_is_between_their_closest_points() {
    let d = measure::model_distance(&round32(10.0, 10.0), &round32(13.0, 10.0));
    assert_close(d.horizontal, 3.0 - 32.0 / 25.4, 1e-5);
    assert_close(d.distance, 3.0 - 32.0 / 25.4, 1e-5);
    assert_eq!(d.vertical, 0.0);
}

#[test]
fn vertical_distance_is_the_gap_between_the_bases() {
    let low = round32(10.0, 10.0);
    let high = solid(INFANTRY_BASE, 13.0, 14.0, 4.0, 0.0, INFANTRY_HEIGHT);
    let d = measure::model_distance(&low, &high);
    let h = 5.0 - 2.0 * R32;
    let v = 4.0 - BASE_THICKNESS_INCHES;
    assert_close(d.horizontal, h, 1e-5);
    assert_close(d.vertical, v, 1e-5);
    assert_close(d.distance, (h * h + v * v).sqrt(), 1e-5);
    // Bases at the same level have no vertical gap.
    let d = measure::model_distance(&low, &high.moved(Vec3::new(0.0, 0.0, -4.0)));
    assert_eq!(d.vertical, 0.0);
}

#[test]
fn a_hull_is_measured_over_its_whole_height() {
    // A model without a base is measured to its hull: a model on a 4" floor above a 3" tall
    // vehicle is 1" above it, not 4".
    let tank = solid(
        Base::Hull {
            length: 6.0,
            width: 3.5,
        },
        10.0,
        10.0,
        0.0,
        0.0,
        3.0,
    );
    let above = solid(INFANTRY_BASE, 15.0, 10.0, 4.0, 0.0, INFANTRY_HEIGHT);
    assert_close(measure::vertical_distance(&tank, &above), 1.0, 1e-5);
}

#[test]
fn oval_base_distance_follows_its_facing() {
    // Oval(60, 35): half axes 1.181" along the facing and 0.689" across it.
    let (long, short) = (30.0 / 25.4, 17.5 / 25.4);
    let oval = |x: f32, facing: f32| solid(Base::Oval(60.0, 35.0), x, 10.0, 0.0, facing, 2.0);
    let end_to_end = measure::horizontal_distance(&oval(10.0, 0.0), &oval(15.0, 0.0));
    let side_to_side = measure::horizontal_distance(&oval(10.0, 90.0), &oval(15.0, 90.0));
    let mixed = measure::horizontal_distance(&oval(10.0, 0.0), &oval(15.0, 90.0));
    assert_close(end_to_end, 5.0 - 2.0 * long, 1e-3);
    assert_close(side_to_side, 5.0 - 2.0 * short, 1e-3);
    assert_close(mixed, 5.0 - long - short, 1e-3);
}

#[test]
fn oval_to_round_distance_is_between_their_closest_points() {
    let oval = solid(Base::Oval(60.0, 35.0), 10.0, 10.0, 0.0, 0.0, 2.0);
    let d = measure::model_distance(&oval, &round32(14.0, 10.0));
    assert_close(d.horizontal, 4.0 - 30.0 / 25.4 - R32, 1e-3);
    let d = measure::model_distance(&round32(10.0, 14.0), &oval);
    assert_close(d.horizontal, 4.0 - 17.5 / 25.4 - R32, 1e-3);
}

#[test]
fn hull_distance_is_measured_edge_to_edge() {
    let hull = |x: f32, y: f32, facing: f32| solid(VEHICLE_HULL, x, y, 0.0, facing, 3.0);
    // Nose to tail: 10 - 3 - 3.
    assert_close(
        measure::horizontal_distance(&hull(0.0, 0.0, 0.0), &hull(10.0, 0.0, 0.0)),
        4.0,
        1e-4,
    );
    // Nose to flank: 10 - 3 - 1.75.
    assert_close(
        measure::horizontal_distance(&hull(0.0, 0.0, 0.0), &hull(10.0, 0.0, 90.0)),
        5.25,
        1e-4,
    );
    // Flank to flank: 5 - 3.5.
    assert_close(
        measure::horizontal_distance(&hull(0.0, 0.0, 0.0), &hull(0.0, 5.0, 0.0)),
        1.5,
        1e-4,
    );
    // Corner to corner: (3, 1.75) to (5, 4.25).
    assert_close(
        measure::horizontal_distance(&hull(0.0, 0.0, 0.0), &hull(8.0, 6.0, 0.0)),
        (4.0f32 + 6.25).sqrt(),
        1e-4,
    );
}

#[test]
fn hull_to_round_distance_is_measured_to_the_hull_edge() {
    let hull = solid(VEHICLE_HULL, 0.0, 0.0, 0.0, 0.0, 3.0);
    assert_close(
        measure::horizontal_distance(&hull, &round32(5.0, 0.0)),
        2.0 - R32,
        1e-4,
    );
    assert_close(
        measure::horizontal_distance(&round32(0.0, 4.0), &hull),
        2.25 - R32,
        1e-4,
    );
    // Beyond a corner: to the corner (3, 1.75).
    assert_close(
        measure::horizontal_distance(&hull, &round32(6.0, 5.75)),
        5.0 - R32,
        1e-4,
    );
}

#[test]
fn bases_overlap_only_when_they_share_area_at_the_same_height() {
    let a = round32(10.0, 10.0);
    assert!(measure::bases_overlap(&a, &round32(11.2, 10.0)));
    assert!(!measure::bases_overlap(&a, &round32(11.3, 10.0)));
    // Touching exactly is allowed.
    assert!(!measure::bases_overlap(
        &a,
        &round32(10.0 + 2.0 * R32, 10.0)
    ));
    // One above the other: no overlap.
    let above = solid(INFANTRY_BASE, 10.0, 10.0, 3.0, 0.0, INFANTRY_HEIGHT);
    assert!(!measure::bases_overlap(&a, &above));
    // A hull and a round base.
    let hull = solid(VEHICLE_HULL, 0.0, 0.0, 0.0, 0.0, 3.0);
    assert!(measure::bases_overlap(&hull, &round32(3.5, 0.0)));
    assert!(!measure::bases_overlap(&hull, &round32(3.7, 0.0)));
}

#[test]
fn within_and_wholly_within_a_footprint_follow_the_base() {
    let area = rect(10.0, 10.0, 16.0, 16.0);
    assert!(measure::within_footprint(&round32(13.0, 13.0), &area));
    assert!(measure::wholly_within_footprint(
        &round32(13.0, 13.0),
        &area
    ));
    assert!(
        measure::within_footprint(&round32(9.6, 13.0), &area),
        "base edge 0.23\" over"
    );
    assert!(!measure::wholly_within_footprint(
        &round32(10.5, 13.0),
        &area
    ));
    assert!(!measure::within_footprint(&round32(9.3, 13.0), &area));
    // A thousandth of an inch short of the edge is not within.
    assert!(!measure::within_footprint(
        &round32(10.0 - R32 - 1e-3, 13.0),
        &area
    ));
}

// ---------------------------------------------------------------------------------------------
// Engagement Range and objectives
// ---------------------------------------------------------------------------------------------

#[test]
fn engagement_range_is_1_inch_horizontally() {
    let a = round32(10.0, 10.0);
    let gap = |g: f32| round32(10.0 + 2.0 * R32 + g, 10.0);
    assert!(engagement::within_engagement_range(&a, &gap(0.99), &[]));
    assert!(!engagement::within_engagement_range(&a, &gap(1.01), &[]));
}

#[test]
fn engagement_range_is_5_inches_vertically() {
    // The other model right above, its base 5" / 5.1" over the first one's base.
    let a = solid(INFANTRY_BASE, 10.0, 10.0, 0.0, 0.0, 2.0);
    let above = |z: f32| solid(INFANTRY_BASE, 10.5, 10.0, z, 0.0, 2.0);
    assert!(engagement::within_engagement_range(
        &a,
        &above(5.0 + BASE_THICKNESS_INCHES),
        &[]
    ));
    assert!(!engagement::within_engagement_range(
        &a,
        &above(5.1 + BASE_THICKNESS_INCHES),
        &[]
    ));
}

#[test]
fn engagement_range_is_2_inches_across_a_barricade() {
    let wall = rect(11.2, 8.0, 11.5, 12.0);
    let a = round32(10.0, 10.0);
    let b = round32(10.0 + 2.0 * R32 + 1.5, 10.0);
    assert!(engagement::within_engagement_range(
        &a,
        &b,
        std::slice::from_ref(&wall)
    ));
    assert!(engagement::within_engagement_range(
        &b,
        &a,
        std::slice::from_ref(&wall)
    ));
    assert!(!engagement::within_engagement_range(&a, &b, &[]));
    // 2.1" across the barricade is too far.
    let c = round32(10.0 + 2.0 * R32 + 2.1, 10.0);
    assert!(!engagement::within_engagement_range(&a, &c, &[wall]));
}

#[test]
fn barricade_not_between_the_models_does_not_extend_engagement_range() {
    let aside = rect(11.2, 14.0, 11.5, 18.0);
    let a = round32(10.0, 10.0);
    let b = round32(10.0 + 2.0 * R32 + 1.5, 10.0);
    assert!(!engagement::within_engagement_range(&a, &b, &[aside]));
}

#[test]
fn objective_is_in_range_within_3_inches_horizontally_of_the_marker() {
    let marker = Vec3::new(20.0, 20.0, 0.0);
    let marker_radius = 20.0 / 25.4;
    let at = |gap: f32| round32(20.0 + marker_radius + R32 + gap, 20.0);
    assert!(engagement::in_objective_range(&at(2.9), marker));
    assert!(!engagement::in_objective_range(&at(3.1), marker));
}

#[test]
fn objective_is_in_range_within_5_inches_vertically() {
    let marker = Vec3::new(20.0, 20.0, 0.0);
    let up = |z: f32| solid(INFANTRY_BASE, 20.0, 20.0, z, 0.0, INFANTRY_HEIGHT);
    assert!(engagement::in_objective_range(&up(4.9), marker));
    assert!(engagement::in_objective_range(&up(5.0), marker));
    assert!(!engagement::in_objective_range(&up(5.5), marker));
}

#[test]
fn level_of_control_decides_who_controls_an_objective() {
    // Player 1: OC 2 in range, OC 5 out of range; player 2: OC 1 in range.
    assert_eq!(
        engagement::level_of_control([(1, 2, true), (1, 5, false), (2, 1, true)]),
        ([2, 1], Control::Player(1))
    );
    assert_eq!(
        engagement::level_of_control([(1, 1, true), (2, 1, true), (2, 2, true)]),
        ([1, 3], Control::Player(2))
    );
}

#[test]
fn equal_levels_of_control_contest_an_objective() {
    assert_eq!(
        engagement::level_of_control([(1, 2, true), (2, 1, true), (2, 1, true)]),
        ([2, 2], Control::Contested)
    );
    assert_eq!(
        engagement::level_of_control([(1, 0, true), (2, 0, true), (2, 4, false)]),
        ([0, 0], Control::Uncontrolled)
    );
    assert_eq!(
        engagement::level_of_control([]),
        ([0, 0], Control::Uncontrolled)
    );
}

// ---------------------------------------------------------------------------------------------
// Unit Coherency
// ---------------------------------------------------------------------------------------------

/// `n` 32 mm models in a line along x, `gap` inches between neighbouring bases.
fn chain(n: usize, gap: f32) -> Vec<ModelSolid> {
    (0..n)
        .map(|i| round32(10.0 + i as f32 * (2.0 * R32 + gap), 10.0))
        .collect()
}

#[test]
fn six_models_in_a_chain_with_1_9_inch_gaps_are_coherent() {
    let r = coherency::check(&chain(6, 1.9));
    assert!(r.coherent, "{r:?}");
    assert!(r.breaking_models.is_empty());
}

#[test]
fn chain_gap_over_2_inches_breaks_coherency() {
    let mut models = chain(4, 1.9);
    // Move the last model away: 2.1" from its neighbour.
    models[3] = models[3].moved(Vec3::new(0.2, 0.0, 0.0));
    let r = coherency::check(&models);
    assert!(!r.coherent);
    assert_eq!(r.breaking_models, vec![3]);
}

#[test]
fn seven_models_in_a_chain_are_not_coherent_the_ends_have_one_neighbour() {
    let r = coherency::check(&chain(7, 1.9));
    assert!(!r.coherent);
    assert_eq!(r.breaking_models, vec![0, 6]);
}

#[test]
fn seven_models_in_two_ranks_are_coherent() {
    // Front rank of 4 with 1.9" gaps; rear rank of 3 behind the gaps, 2" back.
    let step = 2.0 * R32 + 1.9;
    let mut models: Vec<ModelSolid> = (0..4)
        .map(|i| round32(10.0 + i as f32 * step, 10.0))
        .collect();
    models.extend((0..3).map(|i| round32(10.0 + (i as f32 + 0.5) * step, 12.0)));
    let r = coherency::check(&models);
    assert!(r.coherent, "{r:?}");
    let neighbours = coherency::neighbours(&models);
    assert!(neighbours.iter().all(|n| n.len() >= 2), "{neighbours:?}");
}

#[test]
fn coherency_is_5_inches_vertically() {
    // Models 1" apart horizontally; the second's base 5" / 5.5" above the first's base.
    let a = solid(INFANTRY_BASE, 10.0, 10.0, 0.0, 0.0, 2.0);
    let up = |z: f32| solid(INFANTRY_BASE, 11.0 + 2.0 * R32, 10.0, z, 0.0, 2.0);
    assert!(coherency::check(&[a, up(5.0 + BASE_THICKNESS_INCHES)]).coherent);
    let r = coherency::check(&[a, up(5.5 + BASE_THICKNESS_INCHES)]);
    assert!(!r.coherent);
    assert_eq!(r.breaking_models, vec![0, 1]);
}

#[test]
fn single_model_unit_is_always_coherent() {
    assert!(coherency::check(&[round32(10.0, 10.0)]).coherent);
    assert!(coherency::models_to_remove(&[round32(10.0, 10.0)]).is_empty());
}

#[test]
fn two_separate_groups_are_not_coherent_and_the_smaller_group_is_removed() {
    // Group A (indices 0, 2, 4) chained near x = 10; group B (1, 3) 20" away.
    let step = 2.0 * R32 + 1.5;
    let models = vec![
        round32(10.0, 10.0),
        round32(30.0, 10.0),
        round32(10.0 + step, 10.0),
        round32(30.0 + step, 10.0),
        round32(10.0 + 2.0 * step, 10.0),
    ];
    let r = coherency::check(&models);
    assert!(!r.coherent);
    assert_eq!(r.breaking_models, vec![1, 3]);
    assert_eq!(coherency::models_to_remove(&models), vec![1, 3]);
}

#[test]
fn seven_model_chain_loses_one_end_model_to_become_coherent() {
    let models = chain(7, 1.9);
    let removed = coherency::models_to_remove(&models);
    assert_eq!(removed.len(), 1, "{removed:?}");
    assert!(removed[0] == 0 || removed[0] == 6, "{removed:?}");
    let rest: Vec<ModelSolid> = (0..7)
        .filter(|i| !removed.contains(i))
        .map(|i| models[i])
        .collect();
    assert!(coherency::check(&rest).coherent);
}

#[test]
fn model_wholly_within_woods_sees_out_of_them_fully() {
    // The observer stands in the middle of the woods; the target is in the open to the east.
    let idx = index(
        &[woods()],
        vec![infantry(1, 13.0, 13.0), infantry(2, 24.0, 13.0)],
    );
    let v = look(&idx, 0, 1);
    assert_visible(&v);
    assert!(v.fully_visible, "{v:?}");
    // The other way round, the line runs through the woods to a model wholly within them.
    let back = look(&idx, 1, 0);
    assert_visible(&back);
    assert!(!back.fully_visible);
}

#[test]
fn a_hulls_long_side_faces_an_observer_beside_it() {
    // A third-unit model hides part of the long side of a hull seen from the side: the hull is
    // not fully visible (the facing side is sampled along its whole length).
    let hull = model(
        2,
        Base::Hull {
            length: 10.0,
            width: 4.0,
        },
        20.0,
        20.0,
        0.0,
        0.0,
        3.0,
    );
    let observer = infantry(1, 20.0, 30.0);
    let screen = model(3, Base::Round(32.0), 18.25, 23.0, 0.0, 0.0, 3.5);
    let idx = index(&[], vec![observer.clone(), hull.clone()]);
    assert!(look(&idx, 0, 1).fully_visible, "in the open");
    let idx = index(&[], vec![observer, hull, screen]);
    let v = look(&idx, 0, 1);
    assert_visible(&v);
    assert!(!v.fully_visible, "{v:?}");
}

/// Equal layouts share one terrain part of the sight index, which answers rays as a fresh build.
#[test]
fn equal_layouts_share_one_terrain_part() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let scene = wartable::data::load_scene(&root.join("scenes/default.ron")).unwrap();
    let pieces = &scene.layout.pieces;
    let a = wartable::geometry::sight::SightIndex::new(pieces, true);
    let b = wartable::geometry::sight::SightIndex::new(&pieces.clone(), true);
    assert!(std::sync::Arc::ptr_eq(a.terrain(), b.terrain()));
    assert!(std::sync::Arc::ptr_eq(a.terrain(), a.clone().terrain()));
    // Another window convention is another terrain.
    let open = wartable::geometry::sight::SightIndex::new(pieces, false);
    assert!(!std::sync::Arc::ptr_eq(a.terrain(), open.terrain()));
    assert!(open.terrain().is_for(pieces, false) && !open.terrain().is_for(pieces, true));
    // The shared part answers as one built afresh.
    let fresh = wartable::geometry::sight::SightIndex::on_terrain(std::sync::Arc::new(
        wartable::geometry::sight::TerrainSight::build(pieces, true),
    ));
    for i in 0..200 {
        let t = i as f32;
        let from =
            wartable::geometry::Vec3::new((t * 7.3) % 60.0, (t * 3.1) % 44.0, (t * 0.37) % 3.0);
        let to =
            wartable::geometry::Vec3::new((t * 5.9 + 11.0) % 60.0, (t * 8.3 + 5.0) % 44.0, 1.5);
        assert_eq!(
            a.cast_terrain_ray(from, to),
            fresh.cast_terrain_ray(from, to),
            "ray {i}"
        );
    }
}
