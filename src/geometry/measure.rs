//! Measuring between models and against terrain footprints.
//!
//! Core Rules: distances are measured between the closest points of the bases (or hulls);
//! horizontal and vertical parts are measured separately where a rule asks for them (Engagement
//! Range, Unit Coherency). Rules Commentary: Within and Wholly Within.

use super::body::ModelSolid;
use super::polygon;
use super::{Base, Vec2};

/// The closest distance between two models and its parts (inches).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct ModelDistance {
    /// Straight-line distance between the closest points of the two solids.
    pub distance: f32,
    /// Horizontal distance between the base outlines (0 when they overlap seen from above).
    pub horizontal: f32,
    /// Vertical gap between the two bases (hulls for models without one; 0 when level).
    pub vertical: f32,
}

/// Horizontal distance between two base outlines (inches): exact for round bases, and for a
/// round base against any outline; other pairs use the polygon outlines.
pub fn horizontal_distance(a: &ModelSolid, b: &ModelSolid) -> f32 {
    match (a.base, b.base) {
        (Base::Round(_), Base::Round(_)) => {
            let r = a.base.half_extents_inches().x + b.base.half_extents_inches().x;
            (a.centre.distance(b.centre) - r).max(0.0)
        }
        (Base::Round(_), _) => point_to_outline(a.centre, &b.outline(), a.base),
        (_, Base::Round(_)) => point_to_outline(b.centre, &a.outline(), b.base),
        _ => outline_distance(&a.outline(), &b.outline()),
    }
}

fn point_to_outline(centre: Vec2, outline: &[Vec2], round: Base) -> f32 {
    if polygon::contains(outline, centre) {
        return 0.0;
    }
    (polygon::distance_to_boundary(outline, centre) - round.half_extents_inches().x).max(0.0)
}

/// Distance between two outlines (0 when they overlap or touch); either may be concave.
pub fn outline_distance(a: &[Vec2], b: &[Vec2]) -> f32 {
    if polygon::polygons_intersect(a, b) {
        return 0.0;
    }
    let one_way = |p: &[Vec2], q: &[Vec2]| {
        p.iter()
            .map(|v| polygon::distance_to_boundary(q, *v))
            .fold(f32::INFINITY, f32::min)
    };
    one_way(a, b).min(one_way(b, a))
}

/// Vertical gap between two models (inches): between their bases, or hulls for models
/// without a base (see [`ModelSolid::measured_range`]).
pub fn vertical_distance(a: &ModelSolid, b: &ModelSolid) -> f32 {
    let (a0, a1) = a.measured_range();
    let (b0, b1) = b.measured_range();
    (a0 - b1).max(b0 - a1).max(0.0)
}

/// The closest distance between two models (Core Rules: Measuring Distances).
pub fn model_distance(a: &ModelSolid, b: &ModelSolid) -> ModelDistance {
    let horizontal = horizontal_distance(a, b);
    let vertical = vertical_distance(a, b);
    ModelDistance {
        distance: (horizontal * horizontal + vertical * vertical).sqrt(),
        horizontal,
        vertical,
    }
}

/// True when the two models are within `inches` of each other.
pub fn within(a: &ModelSolid, b: &ModelSolid, inches: f32) -> bool {
    model_distance(a, b).distance <= inches
}

/// True when every point of `a`'s base is within `inches` of some point of `b`'s base,
/// measured horizontally (Rules Commentary: Wholly Within).
pub fn wholly_within(a: &ModelSolid, b: &ModelSolid, inches: f32) -> bool {
    let target = b.outline();
    a.outline().iter().all(|p| {
        polygon::contains(&target, *p) || polygon::distance_to_boundary(&target, *p) <= inches
    })
}

/// True when any part of the model's base is over `footprint` (Core Rules: within a terrain
/// feature).
pub fn within_footprint(model: &ModelSolid, footprint: &[Vec2]) -> bool {
    let outline = model.outline();
    polygon::polygons_intersect(&outline, footprint)
        && (polygon::contains(footprint, model.centre)
            || outline_overlaps_interior(&outline, footprint))
}

fn outline_overlaps_interior(outline: &[Vec2], footprint: &[Vec2]) -> bool {
    // Touching the edge from outside does not count: some point of the outline (or of the
    // footprint) must be strictly inside the other.
    outline.iter().any(|p| {
        polygon::contains(footprint, *p) && polygon::distance_to_boundary(footprint, *p) > 1e-4
    }) || footprint.iter().any(|p| {
        polygon::contains(outline, *p) && polygon::distance_to_boundary(outline, *p) > 1e-4
    }) || polygon::edges(outline)
        .any(|(a, b)| polygon::edges(footprint).any(|(c, d)| polygon::segments_cross(a, b, c, d)))
}

/// True when every part of the model's base is over `footprint` (Core Rules: wholly within a
/// terrain feature).
pub fn wholly_within_footprint(model: &ModelSolid, footprint: &[Vec2]) -> bool {
    model
        .base
        .wholly_within(model.centre, model.facing, footprint)
}

/// True when the two models' bases overlap (touching is allowed): they stand at the same level
/// and their outlines share area.
pub fn bases_overlap(a: &ModelSolid, b: &ModelSolid) -> bool {
    (a.z - b.top()).max(b.z - a.top()) < 0.0
        && super::bases_overlap((&a.base, a.centre, a.facing), (&b.base, b.centre, b.facing))
}
