//! The terrain layout format (`Layout(...)`): pieces in their own local frame, placed by
//! centre and rotation, resolved into table coordinates.

use serde::{Deserialize, Serialize};

use std::collections::BTreeMap;

use crate::geometry::{
    FeatureCategory, Floor, Point, TerrainArea, TerrainCategory, TerrainPiece, Vec2, Wall, Window,
    place, polygon, to_vecs,
};
use crate::rules::mission::ObjectiveMarker;

/// Default wall thickness (inches).
pub const DEFAULT_WALL_THICKNESS_INCHES: f32 = 0.25;

/// A shape in a piece's local frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Shape {
    /// Rectangle centred on the local origin: width along local x, depth along local y.
    Rect(f32, f32),
    /// Polygon in local coordinates.
    Polygon(Vec<Point>),
}

impl Shape {
    /// Local vertices.
    pub fn vertices(&self) -> Vec<Vec2> {
        match self {
            Shape::Rect(w, d) => {
                let (hx, hy) = (w / 2.0, d / 2.0);
                vec![
                    Vec2::new(-hx, -hy),
                    Vec2::new(hx, -hy),
                    Vec2::new(hx, hy),
                    Vec2::new(-hx, hy),
                ]
            }
            Shape::Polygon(points) => to_vecs(points),
        }
    }
}

/// A wall in a piece's local frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Wall", deny_unknown_fields)]
pub struct WallSpec {
    /// First end point (local inches).
    pub from: Point,
    /// Second end point (local inches).
    pub to: Point,
    /// Height (inches).
    pub height: f32,
    /// Thickness (inches).
    #[serde(default = "default_thickness")]
    pub thickness: f32,
    /// Openings.
    #[serde(default)]
    pub windows: Vec<Window>,
}

fn default_thickness() -> f32 {
    DEFAULT_WALL_THICKNESS_INCHES
}

/// An upper floor in a piece's local frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Floor", deny_unknown_fields)]
pub struct FloorSpec {
    /// Height of the walking surface (inches).
    pub height: f32,
    /// Area; the whole footprint when absent.
    #[serde(default)]
    pub area: Option<Shape>,
}

/// A terrain piece as written in a layout file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Piece", deny_unknown_fields)]
pub struct PieceSpec {
    /// Identifier, unique in the layout.
    pub id: String,
    /// Terrain category.
    pub category: TerrainCategory,
    /// Centre of the footprint on the table (inches).
    pub at: Point,
    /// Rotation, degrees counter-clockwise.
    #[serde(default)]
    pub rotation: f32,
    /// Footprint in the local frame.
    pub footprint: Shape,
    /// Height of the piece's body (inches), for pieces without walls.
    #[serde(default)]
    pub height: f32,
    /// Walls in the local frame.
    #[serde(default)]
    pub walls: Vec<WallSpec>,
    /// Upper floors in the local frame.
    #[serde(default)]
    pub floors: Vec<FloorSpec>,
}

/// A terrain layout file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Layout", deny_unknown_fields)]
pub struct LayoutFile {
    /// Layout name.
    pub name: String,
    /// Where it comes from.
    #[serde(default)]
    pub source: String,
    /// The pieces.
    pub pieces: Vec<PieceSpec>,
    /// Objective markers placed by the layout designer; when present they are the markers in
    /// play, in place of the mission's or the deployment map's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objectives: Vec<ObjectiveMarker>,
    /// 11th edition terrain areas that hold several pieces (11th Core Rules 13.01); every piece
    /// in none of them is an area of its own, its footprint.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub areas: Vec<AreaSpec>,
    /// 11th edition categories of pieces that differ from their kind's default (piece id to
    /// category; [`TerrainCategory::default_feature_category`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub categories: BTreeMap<String, FeatureCategory>,
}

/// An 11th edition terrain area as written in a layout file: the pieces it holds, and its
/// outline on the table (inches) when it is not simply the outline around their footprints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Area", deny_unknown_fields)]
pub struct AreaSpec {
    /// Identifier, unique among the layout's areas and pieces.
    pub id: String,
    /// Ids of the pieces it holds.
    pub pieces: Vec<String>,
    /// Outline in table inches; absent: the convex hull of the pieces' footprints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outline: Option<Vec<Point>>,
    /// The objective marker in play (its id) that this area is: under 11th a model within the
    /// area is in range of it (11th Core Rules 14.01, terrain objectives).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objective: Option<String>,
}

impl LayoutFile {
    /// The 11th edition category of a piece: the layout's override, else its kind's default.
    pub fn feature_category(&self, piece: &PieceSpec) -> FeatureCategory {
        self.categories
            .get(&piece.id)
            .copied()
            .unwrap_or_else(|| piece.category.default_feature_category())
    }

    /// The layout's terrain areas in table coordinates (11th Core Rules 13.01): its own areas,
    /// then one per piece in none of them (the piece's footprint, with the piece's id). Pieces
    /// an area names that the layout lacks are left out (validation reports them).
    pub fn resolved_areas(&self) -> Vec<TerrainArea> {
        let mut out = Vec::new();
        let mut claimed = std::collections::HashSet::new();
        for a in &self.areas {
            let held: Vec<&PieceSpec> = a
                .pieces
                .iter()
                .filter_map(|id| self.pieces.iter().find(|p| &p.id == id))
                .collect();
            claimed.extend(held.iter().map(|p| p.id.as_str()));
            let outline = match &a.outline {
                Some(points) => to_vecs(points),
                None => {
                    polygon::convex_hull(held.iter().flat_map(|p| p.resolve().footprint).collect())
                }
            };
            out.push(TerrainArea {
                id: a.id.clone(),
                outline,
                pieces: held.iter().map(|p| p.id.clone()).collect(),
                category: held
                    .iter()
                    .map(|p| self.feature_category(p))
                    .max()
                    .unwrap_or(FeatureCategory::Exposed),
                objective: a.objective.clone(),
            });
        }
        for p in self
            .pieces
            .iter()
            .filter(|p| !claimed.contains(p.id.as_str()))
        {
            out.push(TerrainArea {
                id: p.id.clone(),
                outline: p.resolve().footprint,
                pieces: vec![p.id.clone()],
                category: self.feature_category(p),
                objective: None,
            });
        }
        out
    }
}

impl PieceSpec {
    /// This piece in table coordinates.
    pub fn resolve(&self) -> TerrainPiece {
        let at = self.at.vec();
        let to_table = |v: Vec2| place(v, at, self.rotation);
        let footprint: Vec<Vec2> = self
            .footprint
            .vertices()
            .into_iter()
            .map(to_table)
            .collect();
        TerrainPiece {
            id: self.id.clone(),
            category: self.category,
            footprint: footprint.clone(),
            height: self.height,
            walls: self
                .walls
                .iter()
                .map(|w| Wall {
                    start: to_table(w.from.vec()),
                    end: to_table(w.to.vec()),
                    height: w.height,
                    thickness: w.thickness,
                    windows: w.windows.clone(),
                })
                .collect(),
            floors: self
                .floors
                .iter()
                .map(|f| Floor {
                    height: f.height,
                    area: f.area.as_ref().map_or_else(
                        || footprint.clone(),
                        |s| s.vertices().into_iter().map(to_table).collect(),
                    ),
                })
                .collect(),
        }
    }
}
