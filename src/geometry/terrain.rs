//! Terrain pieces on the table: footprints, ruin walls with window openings, and floors.
//!
//! Core Rules: Terrain Features (Ruins, Woods, Craters and Rubble, Barricades and Fuel Pipes,
//! Hills, Battlefield Debris). Everything here is in table coordinates: inches, x along the 60"
//! edge, y along the 44" edge, z up.

use parry3d::math::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

/// Thickness of an upper floor slab (inches).
pub const FLOOR_THICKNESS_INCHES: f32 = 0.15;

/// Height above the table of a ruin's first floor when a layout does not give one (inches):
/// a fact of the terrain model, kept here so geometry needs no rules. Openings below it are
/// "ground-floor windows" for the tournament convention that closes them. The rules' list of
/// numbers (`rules::constants`) re-exports it.
pub const DEFAULT_FIRST_FLOOR_HEIGHT_INCHES: f32 = 3.0;

/// The kind of terrain feature, which selects the rules that apply to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TerrainCategory {
    /// Ruins: walls and floors; no sight over or through the footprint (Core Rules: Ruins).
    Ruin,
    /// A low ruin footprint ("2 inches or less") used by tournament layouts: blocks sight
    /// through its footprint like a ruin, models move over it.
    LowFootprint,
    /// Woods (Core Rules: Woods).
    Woods,
    /// Craters and Rubble (Core Rules: Craters and Rubble).
    Crater,
    /// Barricades and Fuel Pipes (Core Rules: Barricades and Fuel Pipes).
    Barricade,
    /// Hills (Core Rules: Hills).
    Hill,
    /// Battlefield Debris and Statuary (Core Rules: Battlefield Debris and Statuary).
    Debris,
}

impl TerrainCategory {
    /// The category in words, as the editor's buttons and lists show it ("low footprint").
    pub fn label(self) -> &'static str {
        match self {
            TerrainCategory::Ruin => "ruin",
            TerrainCategory::LowFootprint => "low footprint",
            TerrainCategory::Woods => "woods",
            TerrainCategory::Crater => "crater",
            TerrainCategory::Barricade => "barricade",
            TerrainCategory::Hill => "hill",
            TerrainCategory::Debris => "debris",
        }
    }

    /// Every category, in declaration order.
    pub const ALL: [TerrainCategory; 7] = [
        TerrainCategory::Ruin,
        TerrainCategory::LowFootprint,
        TerrainCategory::Woods,
        TerrainCategory::Crater,
        TerrainCategory::Barricade,
        TerrainCategory::Hill,
        TerrainCategory::Debris,
    ];
}

/// The 11th edition category of a terrain feature (11th Core Rules 13.02-13.05; shared/RULES-11e.md,
/// Terrain model): what moves through it, whether its area is Obscuring, whether models in its
/// area may be Hidden. Ordered from the least to the most obstructive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum FeatureCategory {
    /// Craters, razorwire, scattered debris: every model moves through; no Obscuring.
    Exposed,
    /// Barricades, low walls, statuary: every model moves through; its area is Obscuring.
    Light,
    /// Buildings, ruins, containers, woods: infantry through walls and floors, others only
    /// through sections 2" tall or less; its area is Obscuring; its low gaps are Solid.
    Dense,
}

impl FeatureCategory {
    /// The category in words ("dense").
    pub fn label(self) -> &'static str {
        match self {
            FeatureCategory::Exposed => "exposed",
            FeatureCategory::Light => "light",
            FeatureCategory::Dense => "dense",
        }
    }
}

impl TerrainCategory {
    /// The 11th edition category a piece of this 10th edition kind has unless its layout says
    /// otherwise: ruins (low footprints included) and woods Dense, barricades Light, craters,
    /// hills and battlefield debris Exposed (shared/RULES-11e.md, Terrain model: debris is
    /// "scattered debris"; a hill stands in no 11th list and obscures nothing by itself, its
    /// body still blocks sight lines).
    pub fn default_feature_category(self) -> FeatureCategory {
        match self {
            TerrainCategory::Ruin | TerrainCategory::LowFootprint | TerrainCategory::Woods => {
                FeatureCategory::Dense
            }
            TerrainCategory::Barricade => FeatureCategory::Light,
            TerrainCategory::Crater | TerrainCategory::Hill | TerrainCategory::Debris => {
                FeatureCategory::Exposed
            }
        }
    }
}

/// An 11th edition terrain area (11th Core Rules 13.01): a flat outline on the table holding
/// one or more features. Its categories are its features' ones.
#[derive(Debug, Clone, PartialEq)]
pub struct TerrainArea {
    /// Identifier, unique in the layout: the piece id for a piece's own footprint.
    pub id: String,
    /// Outline on the table (inches).
    pub outline: Vec<Vec2>,
    /// The ids of the pieces it holds.
    pub pieces: Vec<String>,
    /// The most obstructive category among its features.
    pub category: FeatureCategory,
    /// The objective marker (its id) this area is, when the layout says so: under 11th a model
    /// within the area is in range of that objective (11th Core Rules 14.01).
    pub objective: Option<String>,
}

impl TerrainArea {
    /// True when the area holds a Light or Dense feature: it is Obscuring (11th Core Rules
    /// 13.10) and models within it may be Hidden (13.09, as the app text of 9 August 2026
    /// reads it: shared/RULES-11e.md, open question 4).
    pub fn obscuring(&self) -> bool {
        self.category >= FeatureCategory::Light
    }
}

/// An opening in a wall: `start`..`end` inches along the wall from its first end point,
/// `bottom`..`top` inches above the table.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Window {
    /// Distance along the wall where the opening starts (inches).
    pub start: f32,
    /// Distance along the wall where the opening ends (inches).
    pub end: f32,
    /// Height of the sill above the table (inches).
    pub bottom: f32,
    /// Height of the lintel above the table (inches).
    pub top: f32,
}

/// A wall segment standing on the table from `start` to `end`, `height` tall and `thickness`
/// thick (centred on the segment), with window openings.
#[derive(Debug, Clone, PartialEq)]
pub struct Wall {
    /// First end point (inches).
    pub start: Vec2,
    /// Second end point (inches).
    pub end: Vec2,
    /// Height above the table (inches).
    pub height: f32,
    /// Thickness (inches).
    pub thickness: f32,
    /// Openings, not overlapping each other.
    pub windows: Vec<Window>,
}

/// An upper floor: a horizontal slab whose top is `height` inches above the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Floor {
    /// Height of the walking surface above the table (inches).
    pub height: f32,
    /// Outline on the table (inches).
    pub area: Vec<Vec2>,
}

/// A box-shaped solid: centre, half extents along (wall direction, across, up), and the yaw
/// of the wall direction (radians counter-clockwise from +x).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SolidBox {
    /// Centre (inches).
    pub centre: Vec3,
    /// Half extents (inches): along the wall, across it, up.
    pub half_extents: Vec3,
    /// Rotation about z (radians).
    pub yaw_radians: f32,
}

/// A terrain piece resolved onto the table.
#[derive(Debug, Clone, PartialEq)]
pub struct TerrainPiece {
    /// Identifier, unique in the layout (e.g. "ruin-3").
    pub id: String,
    /// Which terrain rules apply.
    pub category: TerrainCategory,
    /// Footprint on the table (inches).
    pub footprint: Vec<Vec2>,
    /// Height of the piece's own body above the table for pieces without walls (inches).
    pub height: f32,
    /// Wall segments (ruins).
    pub walls: Vec<Wall>,
    /// Upper floors (ruins).
    pub floors: Vec<Floor>,
}

impl Wall {
    /// Length of the wall (inches).
    pub fn length(&self) -> f32 {
        self.start.distance(self.end)
    }

    /// How far the disc centred at `centre` (table inches) stands from the wall's centre line,
    /// and how far it must stand to clear the wall: `radius` plus half the wall's thickness.
    /// The disc crosses the wall when the first is less than the second (an objective marker
    /// standing in a wall).
    pub fn disc_clearance(&self, centre: Vec2, radius: f32) -> (f32, f32) {
        (
            super::polygon::distance_to_segment(centre, self.start, self.end),
            self.thickness / 2.0 + radius,
        )
    }

    /// The wall as solid boxes, split around its openings. Openings whose sill is below
    /// `closed_below` inches (the "ground-floor windows closed" convention) are left solid.
    pub fn solid_boxes(&self, closed_below: Option<f32>) -> Vec<SolidBox> {
        let length = self.length();
        if length <= 0.0 || self.height <= 0.0 {
            return Vec::new();
        }
        let dir = (self.end - self.start) / length;
        let yaw = dir.y.atan2(dir.x);
        let mut open: Vec<Window> = self
            .windows
            .iter()
            .filter(|w| closed_below.is_none_or(|h| w.bottom >= h))
            .map(|w| Window {
                start: w.start.clamp(0.0, length),
                end: w.end.clamp(0.0, length),
                bottom: w.bottom.clamp(0.0, self.height),
                top: w.top.clamp(0.0, self.height),
            })
            .filter(|w| w.end > w.start && w.top > w.bottom)
            .collect();
        open.sort_by(|a, b| a.start.total_cmp(&b.start));
        let mut cuts: Vec<f32> = vec![0.0, length];
        for w in &open {
            cuts.push(w.start);
            cuts.push(w.end);
        }
        cuts.sort_by(f32::total_cmp);
        cuts.dedup_by(|a, b| (*a - *b).abs() < 1e-5);
        let mut boxes = Vec::new();
        for span in cuts.windows(2) {
            let (a, b) = (span[0], span[1]);
            let mid = (a + b) / 2.0;
            // Vertical solid intervals at this span: the full height minus the openings here.
            let mut solid: Vec<(f32, f32)> = vec![(0.0, self.height)];
            for w in open.iter().filter(|w| w.start <= mid && mid <= w.end) {
                solid = solid
                    .into_iter()
                    .flat_map(|(lo, hi)| [(lo, hi.min(w.bottom)), (lo.max(w.top), hi)])
                    .filter(|(lo, hi)| hi - lo > 1e-5)
                    .collect();
            }
            for (lo, hi) in solid {
                let centre2 = self.start + dir * mid;
                boxes.push(SolidBox {
                    centre: Vec3::new(centre2.x, centre2.y, (lo + hi) / 2.0),
                    half_extents: Vec3::new((b - a) / 2.0, self.thickness / 2.0, (hi - lo) / 2.0),
                    yaw_radians: yaw,
                });
            }
        }
        boxes
    }
}

impl TerrainPiece {
    /// Height of the lowest upper floor, or the default first-floor height (inches); openings
    /// below it are ground-floor windows.
    pub fn first_floor_height(&self) -> f32 {
        self.floors
            .iter()
            .map(|f| f.height)
            .fold(None, |m: Option<f32>, h| Some(m.map_or(h, |m| m.min(h))))
            .unwrap_or(DEFAULT_FIRST_FLOOR_HEIGHT_INCHES)
    }

    /// All solids of the piece's walls, honouring the ground-floor-windows-closed convention.
    pub fn wall_solids(&self, ground_floor_windows_closed: bool) -> Vec<SolidBox> {
        let closed_below = ground_floor_windows_closed.then(|| self.first_floor_height());
        self.walls
            .iter()
            .flat_map(|w| w.solid_boxes(closed_below))
            .collect()
    }

    /// Tallest point of the piece (inches).
    pub fn top_height(&self) -> f32 {
        self.walls
            .iter()
            .map(|w| w.height)
            .chain(self.floors.iter().map(|f| f.height))
            .fold(self.height, f32::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wall_with_window() -> Wall {
        Wall {
            start: Vec2::new(0.0, 0.0),
            end: Vec2::new(6.0, 0.0),
            height: 5.0,
            thickness: 0.2,
            windows: vec![Window {
                start: 2.0,
                end: 4.0,
                bottom: 1.0,
                top: 2.5,
            }],
        }
    }

    fn volume(boxes: &[SolidBox]) -> f32 {
        boxes
            .iter()
            .map(|b| 8.0 * b.half_extents.x * b.half_extents.y * b.half_extents.z)
            .sum()
    }

    #[test]
    fn window_is_cut_out_of_the_wall() {
        let boxes = wall_with_window().solid_boxes(None);
        // Left pier, right pier, below the sill, above the lintel.
        assert_eq!(boxes.len(), 4);
        let expected = 0.2 * (6.0 * 5.0 - 2.0 * 1.5);
        assert!((volume(&boxes) - expected).abs() < 1e-4);
    }

    #[test]
    fn closed_ground_floor_window_stays_solid() {
        let boxes = wall_with_window().solid_boxes(Some(3.0));
        assert!((volume(&boxes) - 0.2 * 30.0).abs() < 1e-4);
    }

    #[test]
    fn rotated_wall_boxes_follow_its_direction() {
        let mut w = wall_with_window();
        w.end = Vec2::new(0.0, 6.0);
        let boxes = w.solid_boxes(None);
        assert!(
            boxes
                .iter()
                .all(|b| (b.yaw_radians - std::f32::consts::FRAC_PI_2).abs() < 1e-6)
        );
        assert!(boxes.iter().all(|b| b.centre.x.abs() < 1e-5));
    }
}
