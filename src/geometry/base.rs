//! Model bases and hulls on the table.
//!
//! Core Rules: a model's base is part of the model; distances are measured between the closest
//! points of bases, or of the hull for a model without a base (seeds/003, seeds/002 "hull").

use std::f32::consts::TAU;

use parry3d::math::Vec2;
use serde::{Deserialize, Serialize};

use super::polygon;
use super::units::MM_PER_INCH;

/// Thickness of a model's base (inches): vertical distances are measured between bases.
pub const BASE_THICKNESS_INCHES: f32 = 0.16;

/// Segments used to outline a round or oval base as a polygon.
pub const BASE_OUTLINE_SEGMENTS: usize = 32;

/// The cosine and sine of each outline point's angle ([`BASE_OUTLINE_SEGMENTS`] even steps
/// from 0), worked out once.
fn unit_circle() -> &'static [(f32, f32); BASE_OUTLINE_SEGMENTS] {
    static TABLE: std::sync::LazyLock<[(f32, f32); BASE_OUTLINE_SEGMENTS]> =
        std::sync::LazyLock::new(|| {
            std::array::from_fn(|i| {
                let a = TAU * i as f32 / BASE_OUTLINE_SEGMENTS as f32;
                (a.cos(), a.sin())
            })
        });
    &TABLE
}

/// A model's base: round or oval in millimetres (as bases are sold), or a hull in inches for a
/// model without a base. The long axis of an oval or hull points along the model's facing.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Base {
    /// Round base: diameter in millimetres (e.g. `Round(32)`).
    Round(f32),
    /// Oval base: major and minor diameters in millimetres (e.g. `Oval(75, 42)`).
    Oval(f32, f32),
    /// No base: a rectangular hull footprint, length along the facing and width, in inches.
    Hull {
        /// Length along the facing, inches.
        length: f32,
        /// Width across the facing, inches.
        width: f32,
    },
}

impl Base {
    /// Half extents of the footprint in inches: (along facing, across facing).
    pub fn half_extents_inches(&self) -> Vec2 {
        match *self {
            Base::Round(d) => Vec2::splat(d / MM_PER_INCH / 2.0),
            Base::Oval(major, minor) => Vec2::new(major, minor) / MM_PER_INCH / 2.0,
            Base::Hull { length, width } => Vec2::new(length, width) / 2.0,
        }
    }

    /// Radius of the smallest circle around the centre holding the whole footprint (inches).
    pub fn bounding_radius_inches(&self) -> f32 {
        let h = self.half_extents_inches();
        match self {
            Base::Hull { .. } => h.length(),
            _ => h.x.max(h.y),
        }
    }

    /// The base in words: "32 mm round", "75 x 42 mm oval", "4.5 x 3.0 inch hull".
    pub fn describe(&self) -> String {
        match *self {
            Base::Round(d) => format!("{d} mm round base"),
            Base::Oval(a, b) => format!("{a} x {b} mm oval base"),
            Base::Hull { length, width } => format!("{length:.1} x {width:.1} inch hull"),
        }
    }

    /// How far the footprint reaches from its centre along the unit direction `dir` (inches),
    /// for a model facing `facing_degrees`: its support distance (a hull's half length and half
    /// width projected, an oval's radius in that direction).
    pub fn extent_along(&self, facing_degrees: f32, dir: Vec2) -> f32 {
        let h = self.half_extents_inches();
        let (s, c) = facing_degrees.to_radians().sin_cos();
        let along = dir.x * c + dir.y * s;
        let across = -dir.x * s + dir.y * c;
        match self {
            Base::Round(_) => h.x,
            Base::Oval(..) => ((h.x * along).powi(2) + (h.y * across).powi(2)).sqrt(),
            Base::Hull { .. } => h.x * along.abs() + h.y * across.abs(),
        }
    }

    /// True for a round base (exact circle tests apply).
    pub fn is_round(&self) -> bool {
        matches!(self, Base::Round(_))
    }

    /// The footprint as a convex polygon on the table, counter-clockwise, for a model centred
    /// at `centre` (inches) facing `facing_degrees` counter-clockwise from +x.
    pub fn outline(&self, centre: Vec2, facing_degrees: f32) -> Vec<Vec2> {
        let h = self.half_extents_inches();
        let (s, c) = facing_degrees.to_radians().sin_cos();
        let place = |v: Vec2| centre + Vec2::new(v.x * c - v.y * s, v.x * s + v.y * c);
        match self {
            Base::Hull { .. } => [(1., 1.), (-1., 1.), (-1., -1.), (1., -1.)]
                .iter()
                .rev()
                .map(|&(x, y)| place(Vec2::new(x * h.x, y * h.y)))
                .collect(),
            _ => unit_circle()
                .iter()
                .map(|&(cos, sin)| place(Vec2::new(h.x * cos, h.y * sin)))
                .collect(),
        }
    }

    /// True when this base at (`centre`, `facing_degrees`) lies wholly within `area`
    /// (Core Rules: wholly within; a round base is tested exactly).
    pub fn wholly_within(&self, centre: Vec2, facing_degrees: f32, area: &[Vec2]) -> bool {
        if let Base::Round(_) = self {
            let r = self.half_extents_inches().x;
            return polygon::contains(area, centre)
                && polygon::distance_to_boundary(area, centre) >= r - 1e-4;
        }
        polygon::polygon_wholly_within(&self.outline(centre, facing_degrees), area)
    }
}

/// True when two placed bases overlap (touching is allowed). Round pairs are tested exactly.
pub fn bases_overlap(a: (&Base, Vec2, f32), b: (&Base, Vec2, f32)) -> bool {
    let (ra, rb) = (a.0.bounding_radius_inches(), b.0.bounding_radius_inches());
    let d = a.1.distance(b.1);
    if d >= ra + rb {
        return false;
    }
    if a.0.is_round() && b.0.is_round() {
        return d < ra + rb - 1e-4;
    }
    polygon::convex_overlap(&a.0.outline(a.1, a.2), &b.0.outline(b.1, b.2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_sizes_convert_from_millimetres() {
        let r = Base::Round(25.4 * 2.0).half_extents_inches();
        assert!((r.x - 1.0).abs() < 1e-6);
        let hull = Base::Hull {
            length: 6.0,
            width: 4.0,
        };
        assert_eq!(hull.bounding_radius_inches(), 13f32.sqrt());
    }

    #[test]
    fn round_bases_touching_do_not_overlap() {
        let b = Base::Round(25.4);
        assert!(!bases_overlap(
            (&b, Vec2::ZERO, 0.0),
            (&b, Vec2::new(1.0, 0.0), 0.0)
        ));
        assert!(bases_overlap(
            (&b, Vec2::ZERO, 0.0),
            (&b, Vec2::new(0.99, 0.0), 0.0)
        ));
    }

    #[test]
    fn rotated_hull_fits_where_unrotated_does_not() {
        let hull = Base::Hull {
            length: 6.0,
            width: 2.0,
        };
        let corridor = [(0., 0.), (3., 0.), (3., 10.), (0., 10.)].map(|(x, y)| Vec2::new(x, y));
        let c = Vec2::new(1.5, 5.0);
        assert!(!hull.wholly_within(c, 0.0, &corridor));
        assert!(hull.wholly_within(c, 90.0, &corridor));
    }

    #[test]
    fn round_base_wholly_within_uses_its_radius() {
        let b = Base::Round(50.8);
        let sq = [(0., 0.), (4., 0.), (4., 4.), (0., 4.)].map(|(x, y)| Vec2::new(x, y));
        assert!(b.wholly_within(Vec2::new(1.0, 2.0), 0.0, &sq));
        assert!(!b.wholly_within(Vec2::new(0.9, 2.0), 0.0, &sq));
    }
}
