//! The measuring tape's ends and what it reads: from a model, a point on the table, a terrain
//! piece or an objective marker to another, the closest distance (Core Rules: Measuring
//! Distances: between the closest points of bases, footprints and markers), horizontal and
//! vertical, and whether a model is within range of an objective marker.

use crate::game::Game;
use crate::game::sight::ModelRef;
use crate::geometry::{Vec2, Vec3, polygon};
use crate::rules::constants::{
    OBJECTIVE_MARKER_RADIUS_INCHES, OBJECTIVE_RANGE_HORIZONTAL_INCHES,
    OBJECTIVE_RANGE_VERTICAL_INCHES,
};

/// One end of the tape.
#[derive(Debug, Clone, PartialEq)]
pub enum TapeEnd {
    /// A model (its base).
    Model(ModelRef),
    /// A point on the table or a terrain surface (inches).
    Point(Vec3),
    /// A terrain piece (its footprint), by index in the layout.
    Terrain(usize),
    /// An objective marker (40 mm), by id.
    Objective(String),
}

/// What the tape reads between two ends.
#[derive(Debug, Clone, PartialEq)]
pub struct Measure {
    /// Closest distance (inches).
    pub distance: f32,
    /// Its horizontal part (inches).
    pub horizontal: f32,
    /// Its vertical part (inches).
    pub vertical: f32,
    /// The closest points of the two ends (for drawing the tape), on the table plane at the
    /// ends' heights.
    pub line: [Vec3; 2],
    /// A model and an objective marker: whether the model is within range of it (3"
    /// horizontally and 5" vertically).
    pub in_objective_range: Option<bool>,
}

/// An end as a shape: its outline on the table (one point for a point), its lowest and
/// highest z (inches), and its name.
fn shape(game: &Game, end: &TapeEnd) -> Option<(Vec<Vec2>, f32, f32, String)> {
    match end {
        TapeEnd::Model(r) => {
            let s = game.solid(*r);
            let u = &game.scene.armies[r.army].units[r.unit];
            Some((
                s.outline(),
                s.z,
                s.z + s.height,
                format!("{} #{}", u.name, r.model),
            ))
        }
        TapeEnd::Point(p) => Some((
            vec![p.truncate()],
            p.z,
            p.z,
            format!("the point ({:.1}\", {:.1}\")", p.x, p.y),
        )),
        TapeEnd::Terrain(i) => {
            let piece = game.scene.layout.pieces.get(*i)?;
            let top = piece
                .walls
                .iter()
                .map(|w| w.height)
                .fold(piece.height, f32::max);
            Some((piece.footprint.clone(), 0.0, top, piece.id.clone()))
        }
        TapeEnd::Objective(id) => {
            let o = game.scene.objectives.iter().find(|o| &o.id == id)?;
            let c = o.at.vec();
            let outline = (0..24)
                .map(|k| {
                    let a = k as f32 / 24.0 * std::f32::consts::TAU;
                    c + Vec2::new(a.cos(), a.sin()) * OBJECTIVE_MARKER_RADIUS_INCHES
                })
                .collect();
            Some((outline, o.z, o.z, format!("objective {id}")))
        }
    }
}

/// The closest points of two outlines and their distance (0 when they overlap).
fn closest(a: &[Vec2], b: &[Vec2]) -> (f32, Vec2, Vec2) {
    let overlaps =
        |x: &[Vec2], y: &[Vec2]| y.len() >= 3 && x.iter().any(|&p| polygon::contains(y, p));
    if overlaps(a, b)
        || overlaps(b, a)
        || (a.len() >= 3 && b.len() >= 3 && polygon::polygons_intersect(a, b))
    {
        let p = a
            .iter()
            .find(|&&p| b.len() >= 3 && polygon::contains(b, p))
            .or_else(|| b.iter().find(|&&p| a.len() >= 3 && polygon::contains(a, p)))
            .copied()
            .unwrap_or(a[0]);
        return (0.0, p, p);
    }
    let mut best = (f32::INFINITY, a[0], b[0]);
    let mut try_side = |points: &[Vec2], other: &[Vec2], flip: bool| {
        for &p in points {
            let candidates: Vec<Vec2> = if other.len() == 1 {
                vec![other[0]]
            } else {
                polygon::edges(other)
                    .map(|(s, e)| {
                        let d = e - s;
                        let t = ((p - s).dot(d) / d.length_squared().max(1e-9)).clamp(0.0, 1.0);
                        s + d * t
                    })
                    .collect()
            };
            for q in candidates {
                let d = p.distance(q);
                if d < best.0 {
                    best = if flip { (d, q, p) } else { (d, p, q) };
                }
            }
        }
    };
    try_side(a, b, false);
    try_side(b, a, true);
    best
}

/// What the tape reads from `a` to `b`; None when an end is not in the game (a terrain index
/// or objective id it lacks).
pub fn measure(game: &Game, a: &TapeEnd, b: &TapeEnd) -> Option<Measure> {
    let (oa, za0, za1, _) = shape(game, a)?;
    let (ob, zb0, zb1, _) = shape(game, b)?;
    let (horizontal, pa, pb) = if let (TapeEnd::Model(x), TapeEnd::Model(y)) = (a, b) {
        // Two bases: the engine's own measure (the same as every rule uses).
        let d = crate::geometry::measure::model_distance(&game.solid(*x), &game.solid(*y));
        let (_, pa, pb) = closest(&oa, &ob);
        (d.horizontal, pa, pb)
    } else {
        closest(&oa, &ob)
    };
    let vertical = (za0 - zb1).max(zb0 - za1).max(0.0);
    let objective_model = matches!(
        (a, b),
        (TapeEnd::Model(_), TapeEnd::Objective(_)) | (TapeEnd::Objective(_), TapeEnd::Model(_))
    );
    Some(Measure {
        distance: (horizontal * horizontal + vertical * vertical).sqrt(),
        horizontal,
        vertical,
        line: [pa.extend(za0), pb.extend(zb0)],
        in_objective_range: objective_model.then_some(
            horizontal <= OBJECTIVE_RANGE_HORIZONTAL_INCHES
                && vertical <= OBJECTIVE_RANGE_VERTICAL_INCHES,
        ),
    })
}

/// The name of an end, as the tape's window writes it.
pub fn end_name(game: &Game, end: &TapeEnd) -> String {
    shape(game, end).map_or_else(|| "(gone)".into(), |s| s.3)
}

/// The tape's reading in words: "Nobz #0 to objective centre: 4.2" (horizontal 4.2",
/// vertical 0.0"), not within range".
pub fn tape_text(game: &Game, a: &TapeEnd, b: &TapeEnd) -> String {
    let Some(m) = measure(game, a, b) else {
        return "That end is no longer on the table".into();
    };
    let mut s = format!(
        "{} to {}: {:.1}\" (horizontal {:.1}\", vertical {:.1}\")",
        end_name(game, a),
        end_name(game, b),
        m.distance,
        m.horizontal,
        m.vertical
    );
    if let Some(within) = m.in_objective_range {
        s.push_str(if within {
            ", within range of the objective"
        } else {
            ", not within range of the objective"
        });
    }
    s
}
