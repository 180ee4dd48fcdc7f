//! The JSON shape of `wartable scene --json`: a resolved scene for scripts and the other
//! commands. Points are `[x, y]` / `[x, y, z]` in inches.

use serde::Serialize;

use crate::data::{Scene, Unit};
use crate::geometry::{Base, TerrainCategory, TerrainPiece, Vec2, Window};
use crate::rules::WeaponProfile;
use crate::rules::deployment::Zone;
use crate::rules::mission::{Mission, ObjectiveMarker};

fn xy(v: Vec2) -> [f32; 2] {
    [v.x, v.y]
}

/// How many of each thing the scene holds.
#[derive(Debug, Serialize)]
pub struct Counts {
    /// Units, both armies.
    pub units: usize,
    /// Models, both armies.
    pub models: usize,
    /// Terrain pieces.
    pub terrain_pieces: usize,
    /// Wall segments.
    pub walls: usize,
    /// Objective markers.
    pub objectives: usize,
}

/// A wall in JSON.
#[derive(Debug, Serialize)]
pub struct WallJson {
    start: [f32; 2],
    end: [f32; 2],
    height: f32,
    thickness: f32,
    windows: Vec<Window>,
}

/// A floor in JSON.
#[derive(Debug, Serialize)]
pub struct FloorJson {
    height: f32,
    area: Vec<[f32; 2]>,
}

/// A terrain piece in JSON.
#[derive(Debug, Serialize)]
pub struct PieceJson {
    id: String,
    category: TerrainCategory,
    footprint: Vec<[f32; 2]>,
    height: f32,
    walls: Vec<WallJson>,
    floors: Vec<FloorJson>,
}

impl From<&TerrainPiece> for PieceJson {
    fn from(p: &TerrainPiece) -> Self {
        PieceJson {
            id: p.id.clone(),
            category: p.category,
            footprint: p.footprint.iter().map(|v| xy(*v)).collect(),
            height: p.height,
            walls: p
                .walls
                .iter()
                .map(|w| WallJson {
                    start: xy(w.start),
                    end: xy(w.end),
                    height: w.height,
                    thickness: w.thickness,
                    windows: w.windows.clone(),
                })
                .collect(),
            floors: p
                .floors
                .iter()
                .map(|f| FloorJson {
                    height: f.height,
                    area: f.area.iter().map(|v| xy(*v)).collect(),
                })
                .collect(),
        }
    }
}

/// A unit's characteristics in JSON (datasheet names as keys).
#[derive(Debug, Serialize)]
#[allow(non_snake_case)]
pub struct CharacteristicsJson {
    M: f32,
    T: u8,
    Sv: u8,
    invulnerable_save: Option<u8>,
    W: u8,
    Ld: u8,
    OC: u8,
    feel_no_pain: Option<u8>,
}

/// A model in JSON.
#[derive(Debug, Serialize)]
pub struct ModelJson {
    index: usize,
    position: [f32; 3],
    facing: f32,
    base: Base,
    height: f32,
    weapons: Vec<String>,
}

/// A unit in JSON.
#[derive(Debug, Serialize)]
pub struct UnitJson {
    id: String,
    player: u8,
    name: String,
    datasheet: String,
    points: Option<u32>,
    attached_to: Option<String>,
    characteristics: CharacteristicsJson,
    keywords: Vec<String>,
    faction_keywords: Vec<String>,
    weapons: Vec<WeaponProfile>,
    models: Vec<ModelJson>,
}

impl UnitJson {
    fn new(player: u8, u: &Unit) -> Self {
        let d = &u.datasheet;
        UnitJson {
            id: u.id.clone(),
            player,
            name: u.name.clone(),
            datasheet: d.name.clone(),
            points: u.points,
            attached_to: u.attached_to.clone(),
            characteristics: CharacteristicsJson {
                M: d.movement,
                T: d.toughness,
                Sv: d.save,
                invulnerable_save: d.invulnerable_save,
                W: d.wounds,
                Ld: d.leadership,
                OC: d.objective_control,
                feel_no_pain: d.feel_no_pain,
            },
            keywords: d.keywords.clone(),
            faction_keywords: d.faction_keywords.clone(),
            weapons: d
                .weapons()
                .filter(|w| u.models.iter().any(|m| m.weapons.contains(&w.name)))
                .cloned()
                .collect(),
            models: u
                .models
                .iter()
                .enumerate()
                .map(|(i, m)| ModelJson {
                    index: i,
                    position: m.position.to_array(),
                    facing: m.facing,
                    base: m.characteristics.base,
                    height: m.characteristics.height,
                    weapons: m.weapons.to_vec(),
                })
                .collect(),
        }
    }
}

/// A deployment map in JSON.
#[derive(Debug, Serialize)]
pub struct DeploymentJson {
    name: String,
    source: String,
    zones: Vec<Zone>,
}

/// An army's summary in JSON.
#[derive(Debug, Serialize)]
pub struct ArmyJson {
    player: u8,
    name: String,
    faction: String,
    points: u32,
}

/// `wartable scene --json`.
#[derive(Debug, Serialize)]
pub struct SceneJson {
    /// The edition the scene is played under ("Tenth" or "Eleventh").
    ruleset: crate::rules::Ruleset,
    name: String,
    file: String,
    counts: Counts,
    layout: String,
    terrain: Vec<PieceJson>,
    deployment: DeploymentJson,
    mission: Mission,
    objectives: Vec<ObjectiveMarker>,
    options: crate::data::scene::SceneOptions,
    armies: Vec<ArmyJson>,
    units: Vec<UnitJson>,
}

impl From<&Scene> for SceneJson {
    fn from(s: &Scene) -> Self {
        let units: Vec<UnitJson> = s
            .armies
            .iter()
            .flat_map(|a| a.units.iter().map(|u| UnitJson::new(a.player, u)))
            .collect();
        SceneJson {
            ruleset: s.ruleset(),
            name: s.name.clone(),
            file: s.file.display().to_string(),
            counts: Counts {
                units: units.len(),
                models: units.iter().map(|u| u.models.len()).sum(),
                terrain_pieces: s.layout.pieces.len(),
                walls: s.layout.pieces.iter().map(|p| p.walls.len()).sum(),
                objectives: s.objectives.len(),
            },
            layout: s.layout.name.clone(),
            terrain: s.layout.pieces.iter().map(PieceJson::from).collect(),
            deployment: DeploymentJson {
                name: s.deployment.name.clone(),
                source: s.deployment.source.clone(),
                zones: s.deployment.zones.clone(),
            },
            mission: (*s.mission).clone(),
            objectives: s.objectives.clone(),
            options: s.options,
            armies: s
                .armies
                .iter()
                .map(|a| ArmyJson {
                    player: a.player,
                    name: a.name.clone(),
                    faction: a.faction.clone(),
                    points: a.units.iter().filter_map(|u| u.points).sum(),
                })
                .collect(),
            units,
        }
    }
}
