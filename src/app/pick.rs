//! Picking through the colliders the simulation puts on the table: a `bevy_picking` backend
//! that casts each pointer's ray through rapier's query pipeline, so the `Pointer<Over>`,
//! `<Out>`, `<Click>` and `<Drag…>` observers on model entities and on the [`Board`] fire for
//! the model bases, walls, floors, objective markers and table surface the rules see.
//!
//! Rapier is set up only to answer scene queries: there are no rigid bodies and gravity is
//! zero. Its physics step still runs each frame because that step is what refreshes the
//! broad-phase tree the query pipeline reads (colliders spawned or moved since the last frame).
//! Egui keeps blocking picking under its panels: its own backend reports its hits at a higher
//! order than ours.

use bevy::ecs::system::SystemParam;
use bevy::picking::PickingSystems;
use bevy::picking::backend::ray::RayMap;
use bevy::picking::backend::{HitData, PointerHits};
use bevy::prelude::*;
use bevy_rapier3d::prelude::{
    Collider, NoUserData, QueryFilter, RapierConfiguration, RapierContext,
    RapierContextInitialization, RapierPhysicsPlugin, ReadRapierContext,
};

use super::table::Board;
use crate::geometry::TerrainCategory;
use crate::sim::components::{TerrainFeature, WallSolid};
use crate::sim::scene::TableSurface;

/// How far a picking ray reaches (inches); far beyond any camera distance from the table.
pub const PICK_REACH_INCHES: f32 = 10_000.0;

/// Registers rapier (for scene queries only) and the picking backend.
pub fn plugin(app: &mut App) {
    app.add_plugins(colliders_plugin).add_systems(
        PreUpdate,
        update_hits
            .in_set(PickingSystems::Backend)
            .run_if(super::ui::pointer_on_table),
    );
}

/// Rapier set up to mirror the table's colliders for scene queries and nothing else: gravity
/// zero, no rigid bodies. Headless apps add this alone to query the colliders without the
/// picking backend.
pub fn colliders_plugin(app: &mut App) {
    let mut rapier_configuration = RapierConfiguration::new(1.0);
    rapier_configuration.gravity = Vec3::ZERO;
    app.add_plugins(
        RapierPhysicsPlugin::<NoUserData>::default().with_custom_initialization(
            RapierContextInitialization::InitializeDefaultRapierContext {
                integration_parameters: default(),
                rapier_configuration,
            },
        ),
    );
}

/// Where a picking ray first meets the table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TableHit {
    /// The entity hit: a model, a wall solid, a ruin floor, an objective marker, a non-ruin
    /// terrain piece, or the [`Board`] (the [`TableSurface`] when no board is spawned).
    pub entity: Entity,
    /// Distance from the ray's origin to the hit (inches).
    pub distance_inches: f32,
    /// The hit point, in table coordinates (inches, z up).
    pub point: Vec3,
    /// The outward normal of the surface at the hit (unit length).
    pub normal: Vec3,
}

/// Casts picking rays through rapier against the colliders a player can see and click.
///
/// Left out: a ruin's footprint prism (the rules' area volume; the ruin is drawn as a flat
/// footprint with walls and floors, so models inside it stay pickable) and hidden entities
/// (destroyed, embarked or Reserves models). A hit on the [`TableSurface`] is reported on the
/// [`Board`] when the app has spawned one, so the board's click observer fires.
#[derive(SystemParam)]
pub struct TablePicker<'w, 's> {
    rapier: ReadRapierContext<'w, 's>,
    terrain: Query<'w, 's, &'static TerrainFeature>,
    visibility: Query<'w, 's, &'static Visibility>,
    surfaces: Query<'w, 's, (), With<TableSurface>>,
    boards: Query<'w, 's, Entity, With<Board>>,
    walls: Query<'w, 's, (), With<WallSolid>>,
}

impl TablePicker<'_, '_> {
    /// Whether a picking ray may stop on `entity`'s collider.
    fn pickable(&self, entity: Entity) -> bool {
        let ruin = self
            .terrain
            .get(entity)
            .is_ok_and(|t| t.category == TerrainCategory::Ruin);
        let hidden = self.visibility.get(entity) == Ok(&Visibility::Hidden);
        !ruin && !hidden
    }

    /// The first pickable collider `ray` meets within [`PICK_REACH_INCHES`], or `None` when it
    /// meets nothing (or rapier's context is not set up yet).
    pub fn cast(&self, ray: Ray3d) -> Option<TableHit> {
        let context = self.rapier.single().ok()?;
        let pickable = |e: Entity| self.pickable(e);
        let filter = QueryFilter {
            predicate: Some(&pickable),
            ..default()
        };
        let (entity, hit) = context.cast_ray_and_get_normal(
            ray.origin,
            *ray.direction,
            PICK_REACH_INCHES,
            true,
            filter,
        )?;
        let entity = if self.surfaces.contains(entity) {
            self.boards.iter().next().unwrap_or(entity)
        } else {
            entity
        };
        Some(TableHit {
            entity,
            distance_inches: hit.time_of_impact,
            point: hit.point,
            normal: hit.normal,
        })
    }

    /// The wall solids that `solid` (a model's base collider) would overlap standing at
    /// `position` turned by `rotation` (table inches, z up), for warning while a model is
    /// dragged. Empty when rapier's context is not set up yet.
    pub fn walls_touching(&self, solid: &Collider, position: Vec3, rotation: Quat) -> Vec<Entity> {
        let Ok(context) = self.rapier.single() else {
            return Vec::new();
        };
        walls_touching(&context, solid, position, rotation, |e| {
            self.walls.contains(e)
        })
    }
}

/// The colliders accepted by `is_wall` (wall solids) that `solid` overlaps standing at
/// `position` turned by `rotation` (table inches, z up), found by a rapier intersection query.
pub fn walls_touching(
    context: &RapierContext,
    solid: &Collider,
    position: Vec3,
    rotation: Quat,
    is_wall: impl Fn(Entity) -> bool,
) -> Vec<Entity> {
    let mut walls = Vec::new();
    let predicate = |e: Entity| is_wall(e);
    let filter = QueryFilter {
        predicate: Some(&predicate),
        ..default()
    };
    context.intersect_shape(position, rotation, &*solid.raw, filter, |e| {
        walls.push(e);
        true
    });
    walls
}

/// The picking backend: each pointer's ray (from Bevy picking's [`RayMap`]) is cast through
/// rapier and its first hit, if any, written as [`PointerHits`] at its camera's order. It does
/// not run while the pointer is over an egui panel or window, so a button clicked on a window
/// over the table does not also select the model behind it (found playing by hand: "Into base
/// contact" on the Move window selected the Ork Trukk under it).
fn update_hits(
    ray_map: Res<RayMap>,
    cameras: Query<&Camera>,
    picker: TablePicker,
    mut hits: MessageWriter<PointerHits>,
) {
    for (&ray_id, &ray) in ray_map.iter() {
        let Ok(camera) = cameras.get(ray_id.camera) else {
            continue;
        };
        let Some(hit) = picker.cast(ray) else {
            continue;
        };
        let data = HitData::new(
            ray_id.camera,
            hit.distance_inches,
            Some(hit.point),
            Some(hit.normal),
        );
        hits.write(PointerHits::new(
            ray_id.pointer,
            vec![(hit.entity, data)],
            camera.order as f32,
        ));
    }
}
