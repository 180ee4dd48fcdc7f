//! ECS components for what stands on the table. Transforms are in table coordinates: one unit
//! is one inch, x along the 60" edge, y along the 44" edge, z up.

use bevy::prelude::*;

use crate::game::sight::ModelRef;
use crate::geometry::{Base, TerrainCategory};

/// A unit: player, its id in the army list, and where it sits in the loaded scene.
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// Player number: 1 or 2.
    pub player: u8,
    /// Identifier in its army list.
    pub id: String,
    /// Index of its army in `Scene::armies`.
    pub army: usize,
    /// Index of the unit in its army.
    pub index: usize,
}

/// A model of a unit. Its `Transform` is the centre of the underside of its base.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Model {
    /// Index of the model in its unit (0-based).
    pub index: usize,
    /// Player number: 1 or 2.
    pub player: u8,
}

/// Which model of the game a model entity is: its army, unit and model indices in the scene,
/// set when the scene is spawned. Systems and observers read it instead of working it out from
/// [`Model`], [`ModelOf`] and the [`Unit`].
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableModel(pub ModelRef);

/// The unit a model belongs to.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
#[relationship(relationship_target = UnitModels)]
pub struct ModelOf(pub Entity);

/// The models of a unit (kept by Bevy from [`ModelOf`]).
#[derive(Component, Debug, Default, Clone, PartialEq, Eq)]
#[relationship_target(relationship = ModelOf, linked_spawn)]
pub struct UnitModels(Vec<Entity>);

impl UnitModels {
    /// The model entities.
    pub fn entities(&self) -> &[Entity] {
        &self.0
    }
}

/// A model's base (or hull) and its body height above the base, in inches; the model's
/// collider is this prism (Core Rules: the base is part of the model).
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct ModelBody {
    /// Base or hull.
    pub base: Base,
    /// Height of the body above the table surface it stands on (inches).
    pub height: f32,
}

/// A terrain piece; its collider is the footprint prism, its walls and floors are children.
#[derive(Component, Debug, Clone, PartialEq)]
pub struct TerrainFeature {
    /// Identifier in the layout.
    pub id: String,
    /// Terrain category.
    pub category: TerrainCategory,
    /// Index of the piece in the layout.
    pub index: usize,
}

/// A solid part of a ruin wall (between or around its openings): a box centred on the entity,
/// turned with it about z.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct WallSolid {
    /// Half extents (inches): along the wall, across it, up.
    pub half_extents: Vec3,
}

/// An upper floor of a ruin; the slab's underside is at the entity's z.
#[derive(Component, Debug, Clone, PartialEq)]
pub struct RuinFloor {
    /// Height of the walking surface (inches).
    pub height: f32,
    /// Outline on the table (inches).
    pub area: Vec<crate::geometry::Vec2>,
}

/// An objective marker.
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct ObjectiveMarker {
    /// Identifier in the mission.
    pub id: String,
}

/// A deployment zone.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeploymentZone {
    /// The player who deploys here.
    pub player: u8,
}

/// Marks every entity spawned from the loaded scene, so a new scene can replace it.
#[derive(Component, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SceneEntity;
