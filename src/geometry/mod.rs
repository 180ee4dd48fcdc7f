//! Pure geometry on the table, in inches (x along the 60" edge, y along the 44" edge, z up).
//! No Bevy here: bases, polygons, terrain solids.

pub mod base;
pub mod body;
pub mod heatmap;
pub mod measure;
pub mod polygon;
pub mod sight;
pub mod terrain;
pub mod units;

pub use base::{Base, bases_overlap};
pub use body::{ModelSolid, SolidsBox};
pub use parry3d::math::{Vec2, Vec3};
pub use terrain::{
    FeatureCategory, Floor, SolidBox, TerrainArea, TerrainCategory, TerrainPiece, Wall, Window,
};

/// Rotates the local point `local` by `degrees` counter-clockwise and moves it to `origin`.
pub fn place(local: Vec2, origin: Vec2, degrees: f32) -> Vec2 {
    let (s, c) = degrees.to_radians().sin_cos();
    origin + Vec2::new(local.x * c - local.y * s, local.x * s + local.y * c)
}

/// A point on the table as written in data files: `(x, y)` in inches.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Point(pub f32, pub f32);

impl Point {
    /// As a vector.
    pub fn vec(self) -> Vec2 {
        Vec2::new(self.0, self.1)
    }
}

impl From<Vec2> for Point {
    fn from(v: Vec2) -> Self {
        Point(v.x, v.y)
    }
}

/// Converts a list of data-file points into vectors.
pub fn to_vecs(points: &[Point]) -> Vec<Vec2> {
    points.iter().map(|p| p.vec()).collect()
}
