//! The scene format (`Scene(...)`): a layout, a deployment map, a mission and two armies,
//! optionally with model positions.

use serde::{Deserialize, Serialize};

use crate::rules::mission::ObjectiveMarker;
use crate::rules::ruleset::Ruleset;
use crate::rules::secondary::SecondaryMode;

/// Position of one model: table inches, facing in degrees counter-clockwise.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelPose {
    /// x (inches).
    pub x: f32,
    /// y (inches).
    pub y: f32,
    /// Height of the underside of the base above the table (inches).
    #[serde(default)]
    pub z: f32,
    /// Facing (degrees counter-clockwise from +x).
    #[serde(default)]
    pub facing: f32,
}

/// Model positions for one unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Placement", deny_unknown_fields)]
pub struct Placement {
    /// Unit id in the army.
    pub unit: String,
    /// One pose per model, in order.
    pub models: Vec<ModelPose>,
}

/// One player's army in a scene.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename = "SceneArmy", deny_unknown_fields)]
pub struct SceneArmy {
    /// Player number: 1 or 2.
    pub player: u8,
    /// Army file, relative to the scene file.
    pub army: String,
    /// Model positions; units left out are set up automatically in the player's zone.
    #[serde(default)]
    pub placements: Vec<Placement>,
    /// How the player uses the mission's secondary deck (Tactical unless two Fixed cards are
    /// named); ignored when the mission has no deck.
    #[serde(default, skip_serializing_if = "SecondaryMode::is_tactical")]
    pub secondaries: SecondaryMode,
    /// The army is Battle Ready (painted and based): it scores the mission's Battle Ready VP
    /// at the end of the battle.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub battle_ready: bool,
}

/// Table conventions a scene plays under.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Options", deny_unknown_fields)]
pub struct SceneOptions {
    /// Openings in ruin walls below the first floor count as solid (tournament convention).
    #[serde(default)]
    pub ground_floor_windows_closed: bool,
    /// The edition of the core rules the game is played under: `Tenth` (the default) or
    /// `Eleventh` (shared/RULES-11e.md). `--ruleset 10|11` overrides it.
    #[serde(default, skip_serializing_if = "Ruleset::is_default")]
    pub ruleset: Ruleset,
}

/// A scene file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Scene", deny_unknown_fields)]
pub struct SceneFile {
    /// Scene name.
    pub name: String,
    /// Layout file, relative to the scene file.
    pub layout: String,
    /// Deployment map file, relative to the scene file.
    pub deployment: String,
    /// Mission file, relative to the scene file.
    pub mission: String,
    /// The two armies.
    pub armies: Vec<SceneArmy>,
    /// Conventions.
    #[serde(default)]
    pub options: SceneOptions,
    /// Objective markers the scene places itself; when present they are the markers in play,
    /// in place of the layout's, the mission's or the deployment map's (a scene that plays a
    /// mission's scoring on a deployment card whose markers that mission does not list).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objectives: Vec<ObjectiveMarker>,
}
