//! A model's solid on the table: its base (or hull) outline extruded upwards by its height.
//!
//! Core Rules: a model's base is part of the model; models without a base are measured to their
//! hull (seeds/003, seeds/002). The body is a vertical prism over the base outline, from the
//! underside of the base (`z`) to `z + height`.

use super::{Base, Vec2, Vec3};

/// A model's solid: base, centre and facing on the table, and the height range it fills.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelSolid {
    /// Base or hull.
    pub base: Base,
    /// Centre of the base on the table (inches).
    pub centre: Vec2,
    /// Facing (degrees counter-clockwise from +x).
    pub facing: f32,
    /// Height of the underside of the base above the table (inches).
    pub z: f32,
    /// Height of the model, base included (inches).
    pub height: f32,
}

impl ModelSolid {
    /// A model standing at `position` (centre of the underside of the base, inches).
    pub fn new(base: Base, position: Vec3, facing: f32, height: f32) -> Self {
        ModelSolid {
            base,
            centre: position.truncate(),
            facing,
            z: position.z,
            height,
        }
    }

    /// The base outline on the table (convex, counter-clockwise).
    pub fn outline(&self) -> Vec<Vec2> {
        self.base.outline(self.centre, self.facing)
    }

    /// The height range distances are measured from (inches): the base for a model with one,
    /// the whole hull for a model without (Core Rules: measure between the closest points of
    /// the bases, or of the hull).
    pub fn measured_range(&self) -> (f32, f32) {
        match self.base {
            super::Base::Hull { .. } => (self.z, self.top()),
            _ => (
                self.z,
                self.z + super::base::BASE_THICKNESS_INCHES.min(self.height),
            ),
        }
    }

    /// Height of the top of the model above the table (inches).
    pub fn top(&self) -> f32 {
        self.z + self.height
    }

    /// The same model moved by `offset` (inches).
    pub fn moved(&self, offset: Vec3) -> Self {
        ModelSolid {
            centre: self.centre + offset.truncate(),
            z: self.z + offset.z,
            ..*self
        }
    }
}

/// The box round the centres of some models' solids, with their widest bounding radius: a
/// broad phase for "could this other model's base come within `reach` inches of any of
/// theirs?" (Engagement Range, overlaps, the end spots of a move), so such checks look only at
/// the models nearby instead of every model on the table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SolidsBox {
    lo: Vec2,
    hi: Vec2,
    widest: f32,
}

impl SolidsBox {
    /// The box round `solids`; None when there are none.
    pub fn of<'a>(solids: impl IntoIterator<Item = &'a ModelSolid>) -> Option<Self> {
        solids.into_iter().fold(None, |b: Option<SolidsBox>, s| {
            let r = s.base.bounding_radius_inches();
            Some(match b {
                None => SolidsBox {
                    lo: s.centre,
                    hi: s.centre,
                    widest: r,
                },
                Some(b) => SolidsBox {
                    lo: b.lo.min(s.centre),
                    hi: b.hi.max(s.centre),
                    widest: b.widest.max(r),
                },
            })
        })
    }

    /// False only when `other`'s base is certainly farther than `reach` inches (horizontally)
    /// from every base in the box: its centre lies outside the box widened by the widest
    /// bounding radius, `other`'s own and `reach`.
    pub fn may_reach(&self, other: &ModelSolid, reach: f32) -> bool {
        let m = self.widest + other.base.bounding_radius_inches() + reach;
        other.centre.x >= self.lo.x - m
            && other.centre.x <= self.hi.x + m
            && other.centre.y >= self.lo.y - m
            && other.centre.y <= self.hi.y + m
    }
}
