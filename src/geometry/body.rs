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
