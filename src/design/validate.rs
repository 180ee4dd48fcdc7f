//! Layout validation for the designer: pieces off the table, footprints that overlap, and
//! objective markers inside walls, each problem naming the pieces or markers concerned.

use serde::Serialize;

use crate::data::check::on_board;
use crate::geometry::{TerrainPiece, Vec2, polygon};
use crate::rules::constants::OBJECTIVE_MARKER_RADIUS_INCHES;
use crate::rules::mission::ObjectiveMarker;

/// Footprints must share more than this area (square inches) to count as overlapping, so
/// that pieces placed edge to edge do not.
pub const OVERLAP_AREA_TOLERANCE_SQ_INCHES: f32 = 0.01;

/// What is wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ProblemKind {
    /// Part of a piece's footprint lies off the 60" x 44" table.
    OffBoard,
    /// Two pieces' footprints overlap.
    Overlap,
    /// An objective marker stands in a wall.
    ObjectiveInWall,
    /// An objective marker is off the table.
    ObjectiveOffBoard,
}

/// One problem found in a layout.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Problem {
    /// What is wrong.
    pub kind: ProblemKind,
    /// The pieces and markers concerned, by id.
    pub ids: Vec<String>,
    /// A sentence for the user, naming them.
    pub message: String,
}

/// Every problem of `pieces` (table coordinates) with the `objectives` in play.
pub fn validate(pieces: &[TerrainPiece], objectives: &[ObjectiveMarker]) -> Vec<Problem> {
    let mut out = Vec::new();
    for p in pieces {
        let off: Vec<Vec2> = p
            .footprint
            .iter()
            .copied()
            .filter(|v| !on_board(*v))
            .collect();
        if let Some(v) = off.first() {
            out.push(Problem {
                kind: ProblemKind::OffBoard,
                ids: vec![p.id.clone()],
                message: format!(
                    "piece '{}' ({}) lies partly off the table: its corner ({:.1}, {:.1}) is outside 60\" x 44\"",
                    p.id,
                    p.category.label(),
                    v.x,
                    v.y
                ),
            });
        }
    }
    for (i, a) in pieces.iter().enumerate() {
        for b in &pieces[i + 1..] {
            let area = overlap_area(&a.footprint, &b.footprint);
            if area > OVERLAP_AREA_TOLERANCE_SQ_INCHES {
                out.push(Problem {
                    kind: ProblemKind::Overlap,
                    ids: vec![a.id.clone(), b.id.clone()],
                    message: format!(
                        "pieces '{}' and '{}' overlap ({area:.1} sq. in. of their footprints)",
                        a.id, b.id
                    ),
                });
            }
        }
    }
    let radius = OBJECTIVE_MARKER_RADIUS_INCHES;
    for o in objectives {
        let at = o.at.vec();
        if !on_board(at) {
            out.push(Problem {
                kind: ProblemKind::ObjectiveOffBoard,
                ids: vec![o.id.clone()],
                message: format!(
                    "objective '{}' at ({:.1}, {:.1}) is off the table",
                    o.id, at.x, at.y
                ),
            });
        }
        for p in pieces {
            let hit = p.walls.iter().enumerate().find_map(|(k, w)| {
                let (distance, clear) = w.disc_clearance(at, radius);
                (distance < clear).then_some((k, distance, clear))
            });
            if let Some((k, distance, clear)) = hit {
                out.push(Problem {
                    kind: ProblemKind::ObjectiveInWall,
                    ids: vec![o.id.clone(), p.id.clone()],
                    message: format!(
                        "objective '{}' at ({:.1}, {:.1}) stands in wall {} of piece '{}' \
                         ({distance:.2}\" from the wall's centre line; the marker needs {clear:.2}\")",
                        o.id,
                        at.x,
                        at.y,
                        k + 1,
                        p.id
                    ),
                });
            }
        }
    }
    out
}

/// Area shared by two simple polygons (square inches): the sum over the triangles of each of
/// the clipped convex pieces (Sutherland-Hodgman clipping of each triangle of `a` by each
/// triangle of `b`).
pub fn overlap_area(a: &[Vec2], b: &[Vec2]) -> f32 {
    let tris = |p: &[Vec2]| -> Vec<Vec<Vec2>> {
        polygon::triangulate(p)
            .into_iter()
            .map(|t| t.iter().map(|&k| p[k]).collect())
            .collect()
    };
    let (ta, tb) = (tris(a), tris(b));
    let mut total = 0.0;
    for s in &ta {
        for c in &tb {
            total += polygon::signed_area(&polygon::clip_to_convex(s, c)).abs();
        }
    }
    total
}
