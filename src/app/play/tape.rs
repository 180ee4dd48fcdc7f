//! The measuring tape's ends and what it reads: from a model, a point on the table, a terrain
//! piece or an objective marker to another, the closest distance (Core Rules: Measuring
//! Distances: between the closest points of bases, footprints and markers), horizontal and
//! vertical, and whether a model is within range of an objective marker.

use crate::game::Game;
use crate::game::sight::ModelRef;
use crate::geometry::{Vec2, Vec3, polygon};
use crate::rules::constants::OBJECTIVE_MARKER_RADIUS_INCHES;

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

/// An end as the tape measures it: an outline on the table (one point for a point or an
/// objective marker's centre), a radius around that outline (the marker's), its lowest and
/// highest z (inches; a model's as the engine measures it) and its name.
struct Shape {
    outline: Vec<Vec2>,
    radius: f32,
    z: (f32, f32),
    name: String,
}

fn shape(game: &Game, end: &TapeEnd) -> Option<Shape> {
    Some(match end {
        TapeEnd::Model(r) => {
            let s = game.solid(*r);
            let u = &game.scene.armies[r.army].units[r.unit];
            Shape {
                outline: s.outline(),
                radius: 0.0,
                z: s.measured_range(),
                name: format!("{} #{}", u.name, r.model),
            }
        }
        TapeEnd::Point(p) => Shape {
            outline: vec![p.truncate()],
            radius: 0.0,
            z: (p.z, p.z),
            name: format!("the point ({:.1}\", {:.1}\")", p.x, p.y),
        },
        TapeEnd::Terrain(i) => {
            let piece = game.scene.layout.pieces.get(*i)?;
            let top = piece
                .walls
                .iter()
                .map(|w| w.height)
                .fold(piece.height, f32::max);
            Shape {
                outline: piece.footprint.clone(),
                radius: 0.0,
                z: (0.0, top),
                name: piece.id.clone(),
            }
        }
        TapeEnd::Objective(id) => {
            let o = game.scene.objectives.iter().find(|o| &o.id == id)?;
            Shape {
                outline: vec![o.at.vec()],
                radius: OBJECTIVE_MARKER_RADIUS_INCHES,
                z: (o.z, o.z),
                name: format!("objective {id}"),
            }
        }
    })
}

/// The marker of an objective end, as the rules place it (centre and height).
fn marker(game: &Game, end: &TapeEnd) -> Option<Vec3> {
    let TapeEnd::Objective(id) = end else {
        return None;
    };
    let o = game.scene.objectives.iter().find(|o| &o.id == id)?;
    Some(o.at.vec().extend(o.z))
}

/// What the tape reads from `a` to `b`; None when an end is not in the game (a terrain index
/// or objective id it lacks). Two models are measured by the engine's own
/// [`model_distance`](crate::geometry::measure::model_distance), and a model's range of an
/// objective is the engine's [`in_objective_range`](crate::rules::engagement::in_objective_range).
pub fn measure(game: &Game, a: &TapeEnd, b: &TapeEnd) -> Option<Measure> {
    let (sa, sb) = (shape(game, a)?, shape(game, b)?);
    let (gap, pa, pb) = polygon::closest_points(&sa.outline, &sb.outline);
    // The closest points moved out to the markers' edges.
    let towards =
        |from: Vec2, to: Vec2, by: f32| from + (to - from).normalize_or_zero() * by.min(gap);
    let (pa, pb) = (towards(pa, pb, sa.radius), towards(pb, pa, sb.radius));
    let (mut horizontal, mut vertical) = (
        (gap - sa.radius - sb.radius).max(0.0),
        (sa.z.0 - sb.z.1).max(sb.z.0 - sa.z.1).max(0.0),
    );
    if let (TapeEnd::Model(x), TapeEnd::Model(y)) = (a, b) {
        let d = crate::geometry::measure::model_distance(&game.solid(*x), &game.solid(*y));
        (horizontal, vertical) = (d.horizontal, d.vertical);
    }
    let in_objective_range = match (a, b) {
        (TapeEnd::Model(r), o) | (o, TapeEnd::Model(r)) => marker(game, o)
            .map(|m| crate::rules::engagement::in_objective_range(&game.solid(*r), m)),
        _ => None,
    };
    Some(Measure {
        distance: (horizontal * horizontal + vertical * vertical).sqrt(),
        horizontal,
        vertical,
        line: [pa.extend(sa.z.0), pb.extend(sb.z.0)],
        in_objective_range,
    })
}

/// The name of an end, as the tape's window writes it.
pub fn end_name(game: &Game, end: &TapeEnd) -> String {
    shape(game, end).map_or_else(|| "(gone)".into(), |s| s.name)
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
