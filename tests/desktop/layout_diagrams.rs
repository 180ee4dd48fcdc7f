//! The eight Chapter Approved 2025-26 terrain layouts (`scenes/layouts/layout-N.ron`) against
//! the published diagrams: every footprint and every wall measured from a diagram
//! (`tests/data/layout-diagrams.ron`) has its piece or wall in the layout file within half an
//! inch, and the layout file has nothing the diagram does not draw. The one allowed difference
//! is a doorway: where a drawn wall would cross the 40 mm disc of an objective marker of a
//! pairing the Tournament Companion allows (`scenes/chapter-approved/`), the layout cuts the wall
//! just wide enough for the marker.

use std::path::PathBuf;

use serde::Deserialize;
use wartable::data::Layout;
use wartable::data::resolve::{load_layout, load_scene};
use wartable::geometry::{TerrainCategory, Vec2};
use wartable::rules::constants::OBJECTIVE_MARKER_RADIUS_INCHES;

/// How far (inches) a layout corner or wall end may lie from the diagram's.
const TOLERANCE_INCHES: f32 = 0.5;

/// Tall ruin (grey hatched) or low footprint (blue) in a diagram.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
enum Kind {
    Tall,
    Low,
}

/// A footprint measured from a diagram, in table inches.
#[derive(Debug, Deserialize)]
#[serde(rename = "Footprint", deny_unknown_fields)]
struct Footprint {
    kind: Kind,
    /// Centre (inches).
    at: (f32, f32),
    /// Width along the footprint's own x, depth along its y (inches).
    size: (f32, f32),
    /// Degrees counter-clockwise.
    rotation: f32,
}

/// A wall measured from a diagram: its centre line's ends in table inches.
#[derive(Debug, Deserialize)]
#[serde(rename = "Wall", deny_unknown_fields)]
struct DiagramWall {
    from: (f32, f32),
    to: (f32, f32),
}

/// One layout's diagram.
#[derive(Debug, Deserialize)]
#[serde(rename = "LayoutDiagram", deny_unknown_fields)]
struct LayoutDiagram {
    layout: u32,
    footprints: Vec<Footprint>,
    walls: Vec<DiagramWall>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn diagrams() -> Vec<LayoutDiagram> {
    let text = std::fs::read_to_string(root().join("tests/data/layout-diagrams.ron")).unwrap();
    ron::from_str(&text).unwrap()
}

fn diagram(n: u32) -> LayoutDiagram {
    diagrams().into_iter().find(|d| d.layout == n).unwrap()
}

impl Footprint {
    /// The four corners in table inches.
    fn corners(&self) -> Vec<Vec2> {
        let (s, c) = self.rotation.to_radians().sin_cos();
        let (hw, hd) = (self.size.0 / 2.0, self.size.1 / 2.0);
        [(-hw, -hd), (hw, -hd), (hw, hd), (-hw, hd)]
            .iter()
            .map(|&(u, v)| Vec2::new(self.at.0 + u * c - v * s, self.at.1 + u * s + v * c))
            .collect()
    }
}

/// Largest distance from a corner of `a` to the nearest corner of `b` and back (inches).
fn corner_offset(a: &[Vec2], b: &[Vec2]) -> f32 {
    let one_way = |a: &[Vec2], b: &[Vec2]| {
        a.iter()
            .map(|p| b.iter().map(|q| p.distance(*q)).fold(f32::MAX, f32::min))
            .fold(0.0, f32::max)
    };
    one_way(a, b).max(one_way(b, a))
}

/// Distance from `p` to the segment `a`-`b` (inches).
fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
    p.distance(a + ab * t)
}

/// Whether the stretch `gap` (inches along the drawn wall `a`-`b`) left out of the layout is a
/// doorway for an objective marker: a marker whose 40 mm disc the drawn wall (of `thickness`)
/// would cross, with the gap no wider than it takes to clear that disc (plus the tolerance at
/// each side).
fn doorway(a: Vec2, b: Vec2, gap: (f32, f32), thickness: f32, markers: &[Vec2]) -> bool {
    let length = a.distance(b);
    let direction = (b - a) / length;
    let clear = thickness / 2.0 + OBJECTIVE_MARKER_RADIUS_INCHES;
    markers.iter().any(|&m| {
        if distance_to_segment(m, a, b) >= clear {
            return false;
        }
        let foot = (m - a).dot(direction);
        let off_line = (m - a).perp_dot(direction).abs();
        let half = (clear * clear - off_line * off_line).max(0.0).sqrt();
        gap.0 >= foot - half - TOLERANCE_INCHES && gap.1 <= foot + half + TOLERANCE_INCHES
    })
}

/// The objective markers of every pairing scene (`scenes/chapter-approved/layout-N-*.ron`) that
/// sets up layout `n`, in table inches.
fn markers(n: u32) -> Vec<Vec2> {
    let dir = root().join("scenes/chapter-approved");
    let prefix = format!("layout-{n}-");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with(&prefix) && name.ends_with(".ron") {
            let scene = load_scene(&path).unwrap();
            out.extend(scene.objectives.iter().map(|o| o.at.vec()));
        }
    }
    out
}

fn kind_of(category: TerrainCategory) -> Kind {
    match category {
        TerrainCategory::Ruin => Kind::Tall,
        TerrainCategory::LowFootprint => Kind::Low,
        other => panic!("no diagram kind for {other:?}"),
    }
}

fn load(n: u32) -> Layout {
    load_layout(&root().join(format!("scenes/layouts/layout-{n}.ron"))).unwrap()
}

/// Every way `layout` differs from `diagram` by more than the tolerance, one line each.
fn differences(diagram: &LayoutDiagram, layout: &Layout, markers: &[Vec2]) -> Vec<String> {
    let mut problems = Vec::new();
    // Footprints: a one-to-one matching, each diagram footprint to the closest unused layout piece
    // of its kind (pieces are well apart, so greedy matching is exact).
    let mut used = vec![false; layout.pieces.len()];
    for f in &diagram.footprints {
        let corners = f.corners();
        let best = layout
            .pieces
            .iter()
            .enumerate()
            .filter(|(i, p)| !used[*i] && kind_of(p.category) == f.kind)
            .map(|(i, p)| (corner_offset(&corners, &p.footprint), i))
            .min_by(|a, b| a.0.total_cmp(&b.0));
        match best {
            Some((offset, i)) if offset <= TOLERANCE_INCHES => used[i] = true,
            Some((offset, i)) => problems.push(format!(
                "{:?} footprint at {:?} is {offset:.2}\" from the nearest piece, {}",
                f.kind, f.at, layout.pieces[i].id
            )),
            None => problems.push(format!("{:?} footprint at {:?} has no piece", f.kind, f.at)),
        }
    }
    for (p, _) in layout.pieces.iter().zip(&used).filter(|(_, u)| !**u) {
        problems.push(format!("piece {} is not in the diagram", p.id));
    }
    // Walls, both ways: every drawn wall is covered by layout walls lying along it, except for
    // doorways cut for objective markers; every layout wall lies along a drawn wall.
    let drawn: Vec<(Vec2, Vec2)> = diagram
        .walls
        .iter()
        .map(|w| (Vec2::new(w.from.0, w.from.1), Vec2::new(w.to.0, w.to.1)))
        .collect();
    let built: Vec<(String, Vec2, Vec2, f32)> = layout
        .pieces
        .iter()
        .flat_map(|p| {
            p.walls
                .iter()
                .map(|w| (p.id.clone(), w.start, w.end, w.thickness))
        })
        .collect();
    for &(a, b) in &drawn {
        let length = a.distance(b);
        let along = |p: Vec2| (p - a).dot((b - a) / length);
        let mut covered: Vec<(f32, f32, f32)> = built
            .iter()
            .filter(|w| {
                distance_to_segment(w.1, a, b) <= TOLERANCE_INCHES
                    && distance_to_segment(w.2, a, b) <= TOLERANCE_INCHES
            })
            .map(|w| {
                let (s, e) = (along(w.1), along(w.2));
                (s.min(e), s.max(e), w.3)
            })
            .collect();
        covered.sort_by(|x, y| x.0.total_cmp(&y.0));
        let thickness = covered.iter().map(|c| c.2).fold(0.0, f32::max);
        let mut gaps = Vec::new();
        let mut reached = 0.0_f32;
        for &(s, e, _) in &covered {
            if s > reached {
                gaps.push((reached, s));
            }
            reached = reached.max(e);
        }
        if reached < length {
            gaps.push((reached, length));
        }
        for (s, e) in gaps.into_iter().filter(|g| g.1 - g.0 > TOLERANCE_INCHES) {
            if !doorway(a, b, (s, e), thickness, markers) {
                problems.push(format!(
                    "diagram wall {:?} has no layout wall from {s:.2}\" to {e:.2}\" along it",
                    (a, b)
                ));
            }
        }
    }
    for (id, a, b, _) in &built {
        let along_some = drawn.iter().any(|&(s, e)| {
            distance_to_segment(*a, s, e) <= TOLERANCE_INCHES
                && distance_to_segment(*b, s, e) <= TOLERANCE_INCHES
        });
        if !along_some {
            problems.push(format!(
                "wall of {id} {a:?}-{b:?} does not lie along any diagram wall"
            ));
        }
    }
    problems
}

fn check(n: u32) {
    let problems = differences(&diagram(n), &load(n), &markers(n));
    assert!(
        problems.is_empty(),
        "layout {n} differs from its diagram:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_data_file_has_all_eight_layouts() {
    let all = diagrams();
    let numbers: Vec<u32> = all.iter().map(|d| d.layout).collect();
    assert_eq!(numbers, (1..=8).collect::<Vec<_>>());
    for d in &all {
        assert!(d.footprints.len() >= 16, "layout {}", d.layout);
        assert!(d.walls.len() >= 16, "layout {}", d.layout);
    }
}

#[test]
fn layout_1_matches_its_diagram() {
    check(1);
}

#[test]
fn layout_2_matches_its_diagram() {
    check(2);
}

#[test]
fn layout_3_matches_its_diagram() {
    check(3);
}

#[test]
fn layout_4_matches_its_diagram() {
    check(4);
}

#[test]
fn layout_5_matches_its_diagram() {
    check(5);
}

#[test]
fn layout_6_matches_its_diagram() {
    check(6);
}

#[test]
fn layout_7_matches_its_diagram() {
    check(7);
}

#[test]
fn layout_8_matches_its_diagram() {
    check(8);
}

/// The check can fail: a piece moved by 1", a wall end moved by 1", an extra piece and a missing
/// piece are each reported.
#[test]
fn a_layout_off_its_diagram_fails() {
    let d = diagram(1);
    let markers = markers(1);
    let moved = |dx: f32| {
        let mut l = load(1);
        for v in l.pieces[0].footprint.iter_mut() {
            v.x += dx;
        }
        l
    };
    assert!(differences(&d, &moved(0.0), &markers).is_empty());
    assert!(!differences(&d, &moved(1.0), &markers).is_empty());

    let mut wall_moved = load(1);
    let ruin = wall_moved
        .pieces
        .iter_mut()
        .find(|p| !p.walls.is_empty())
        .unwrap();
    ruin.walls[0].end.y += 1.0;
    assert!(!differences(&d, &wall_moved, &markers).is_empty());

    let mut extra = load(1);
    let copy = extra.pieces[0].clone();
    extra.pieces.push(copy);
    assert!(!differences(&d, &extra, &markers).is_empty());

    let mut missing = load(1);
    missing.pieces.pop();
    assert!(!differences(&d, &missing, &markers).is_empty());
}

/// Doorways are allowed only for markers: layout 1's cut walls fail without the Hammer and Anvil
/// markers, a gap cut where no marker stands fails, and a doorway widened by 1" fails.
#[test]
fn a_doorway_needs_a_marker_and_no_more_room_than_it() {
    let d = diagram(1);
    let markers = markers(1);
    let layout = load(1);
    assert!(differences(&d, &layout, &markers).is_empty());
    let without = differences(&d, &layout, &[]);
    assert!(
        without.iter().any(|p| p.contains("has no layout wall")),
        "{without:?}"
    );

    // A 2" gap in the middle of the first wall of the first ruin, far from any marker.
    let mut gap = load(1);
    let ruin = gap.pieces.iter_mut().find(|p| !p.walls.is_empty()).unwrap();
    let wall = ruin.walls[0].clone();
    let middle = (wall.start + wall.end) / 2.0;
    let direction = (wall.end - wall.start).normalize();
    let mut first = wall.clone();
    first.end = middle - direction;
    first.windows.clear();
    let mut second = wall.clone();
    second.start = middle + direction;
    second.windows.clear();
    ruin.walls.splice(0..1, [first, second]);
    assert!(!differences(&d, &gap, &markers).is_empty());

    // Ruin-2's doorway for the attacker-home marker at (10, 22) made 1" wider.
    let mut wider = load(1);
    let ruin = wider.pieces.iter_mut().find(|p| p.id == "ruin-2").unwrap();
    let marker = Vec2::new(10.0, 22.0);
    let cut = ruin
        .walls
        .iter_mut()
        .min_by(|a, b| {
            a.start
                .distance(marker)
                .total_cmp(&b.start.distance(marker))
        })
        .unwrap();
    cut.start += (cut.end - cut.start).normalize();
    assert!(!differences(&d, &wider, &markers).is_empty());
}
