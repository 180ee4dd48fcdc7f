//! The eight Chapter Approved 2025-26 terrain layouts (`scenes/layouts/layout-N.ron`) against
//! the published diagrams: every footprint and every wall measured from a diagram
//! (`tests/data/layout-diagrams.ron`) has its piece or wall in the layout file within half an
//! inch, and the layout file has nothing the diagram does not draw.

use std::path::PathBuf;

use serde::Deserialize;
use wartable::data::Layout;
use wartable::data::resolve::load_layout;
use wartable::geometry::{TerrainCategory, Vec2};

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

/// Larger end distance between two segments, taking their ends in either order (inches).
fn wall_offset(a: (Vec2, Vec2), b: (Vec2, Vec2)) -> f32 {
    let same = a.0.distance(b.0).max(a.1.distance(b.1));
    let swapped = a.0.distance(b.1).max(a.1.distance(b.0));
    same.min(swapped)
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
fn differences(diagram: &LayoutDiagram, layout: &Layout) -> Vec<String> {
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
    // Walls, both ways.
    let drawn: Vec<(Vec2, Vec2)> = diagram
        .walls
        .iter()
        .map(|w| (Vec2::new(w.from.0, w.from.1), Vec2::new(w.to.0, w.to.1)))
        .collect();
    let built: Vec<(String, Vec2, Vec2)> = layout
        .pieces
        .iter()
        .flat_map(|p| p.walls.iter().map(|w| (p.id.clone(), w.start, w.end)))
        .collect();
    for &w in &drawn {
        let nearest = built
            .iter()
            .map(|b| wall_offset(w, (b.1, b.2)))
            .fold(f32::MAX, f32::min);
        if nearest > TOLERANCE_INCHES {
            problems.push(format!(
                "diagram wall {w:?} is {nearest:.2}\" from the nearest layout wall"
            ));
        }
    }
    for (id, a, b) in &built {
        let nearest = drawn
            .iter()
            .map(|&w| wall_offset(w, (*a, *b)))
            .fold(f32::MAX, f32::min);
        if nearest > TOLERANCE_INCHES {
            problems.push(format!(
                "wall of {id} {a:?}-{b:?} is {nearest:.2}\" from the nearest diagram wall"
            ));
        }
    }
    problems
}

fn check(n: u32) {
    let problems = differences(&diagram(n), &load(n));
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
    let moved = |dx: f32| {
        let mut l = load(1);
        for v in l.pieces[0].footprint.iter_mut() {
            v.x += dx;
        }
        l
    };
    assert!(differences(&d, &moved(0.0)).is_empty());
    assert!(!differences(&d, &moved(1.0)).is_empty());

    let mut wall_moved = load(1);
    let ruin = wall_moved
        .pieces
        .iter_mut()
        .find(|p| !p.walls.is_empty())
        .unwrap();
    ruin.walls[0].end.y += 1.0;
    assert!(!differences(&d, &wall_moved).is_empty());

    let mut extra = load(1);
    let copy = extra.pieces[0].clone();
    extra.pieces.push(copy);
    assert!(!differences(&d, &extra).is_empty());

    let mut missing = load(1);
    missing.pieces.pop();
    assert!(!differences(&d, &missing).is_empty());
}
