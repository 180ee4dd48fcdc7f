//! Puts a loaded [`Scene`] on the table as entities: the table surface, units and models with
//! base colliders, terrain pieces with wall and floor colliders, objective markers and
//! deployment zones.

use bevy::prelude::*;
use bevy_rapier3d::prelude::Collider;

use super::components::*;
use crate::data::Scene;
use crate::game::sight::ModelRef;
use crate::geometry::terrain::FLOOR_THICKNESS_INCHES;
use crate::geometry::{Vec2, polygon};
use crate::rules::constants::{
    BOARD_DEPTH_INCHES, BOARD_WIDTH_INCHES, OBJECTIVE_MARKER_RADIUS_INCHES,
};

/// Height of an objective marker's collider (inches).
pub const OBJECTIVE_MARKER_HEIGHT_INCHES: f32 = 0.12;

/// Thickness of the table surface's collider, under z = 0 (inches).
pub const TABLE_SURFACE_THICKNESS_INCHES: f32 = 0.5;

/// The table surface: a box collider of the whole board (`BOARD_WIDTH_INCHES` along x,
/// `BOARD_DEPTH_INCHES` along y), its top at z = 0, so a picking ray that meets no model or
/// terrain stops on the table.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableSurface;

/// The scene on the table, if one loaded.
#[derive(Resource, Debug, Clone, Default)]
pub struct ActiveScene(pub Option<Scene>);

/// Problems met loading the last scene, one line each (shown in the app's error panel).
#[derive(Resource, Debug, Clone, Default)]
pub struct SceneErrors(pub Vec<String>);

/// Registers the scene resources and the system that (re)spawns entities when the active
/// scene changes.
pub fn plugin(app: &mut App) {
    app.init_resource::<ActiveScene>()
        .init_resource::<SceneErrors>()
        .add_systems(
            PreUpdate,
            spawn_active_scene.run_if(resource_changed::<ActiveScene>),
        );
}

fn spawn_active_scene(
    mut commands: Commands,
    scene: Res<ActiveScene>,
    old: Query<Entity, With<SceneEntity>>,
) {
    // Children go with their parents, so some entities may be gone already.
    for e in &old {
        commands.entity(e).try_despawn();
    }
    if let Some(scene) = &scene.0 {
        spawn_scene(&mut commands, scene);
    }
}

/// A prism collider: `outline` (table inches, relative to the entity) from z = 0 to `height`.
pub fn prism_collider(outline: &[Vec2], height: f32) -> Option<Collider> {
    let tris = polygon::triangulate(outline);
    let prism = |pts: &[Vec2]| {
        let points: Vec<Vec3> = pts
            .iter()
            .flat_map(|p| [Vec3::new(p.x, p.y, 0.0), Vec3::new(p.x, p.y, height)])
            .collect();
        Collider::convex_hull(&points)
    };
    if tris.len() <= 1 || polygon::is_convex(outline) {
        return prism(outline);
    }
    let parts: Vec<_> = tris
        .iter()
        .filter_map(|t| prism(&[outline[t[0]], outline[t[1]], outline[t[2]]]))
        .map(|c| (Vec3::ZERO, Quat::IDENTITY, c))
        .collect();
    (!parts.is_empty()).then(|| Collider::compound(parts))
}

/// Spawns every entity of `scene`, each tagged [`SceneEntity`].
pub fn spawn_scene(commands: &mut Commands, scene: &Scene) {
    let (w, d) = (BOARD_WIDTH_INCHES, BOARD_DEPTH_INCHES);
    let half = TABLE_SURFACE_THICKNESS_INCHES / 2.0;
    commands.spawn((
        SceneEntity,
        TableSurface,
        Transform::from_xyz(w / 2.0, d / 2.0, -half),
        Collider::cuboid(w / 2.0, d / 2.0, half),
    ));
    for (index, piece) in scene.layout.pieces.iter().enumerate() {
        let height = piece.height.max(0.05);
        let mut entity = commands.spawn((
            SceneEntity,
            TerrainFeature {
                id: piece.id.clone(),
                category: piece.category,
                index,
            },
            Transform::IDENTITY,
            Visibility::default(),
        ));
        if let Some(c) = prism_collider(&piece.footprint, height) {
            entity.insert(c);
        }
        entity.with_children(|parent| {
            for solid in piece.wall_solids(scene.options.ground_floor_windows_closed) {
                parent.spawn((
                    WallSolid {
                        half_extents: solid.half_extents,
                    },
                    Transform::from_translation(solid.centre)
                        .with_rotation(Quat::from_rotation_z(solid.yaw_radians)),
                    Collider::cuboid(
                        solid.half_extents.x,
                        solid.half_extents.y,
                        solid.half_extents.z,
                    ),
                ));
            }
            for floor in &piece.floors {
                if let Some(c) = prism_collider(&floor.area, FLOOR_THICKNESS_INCHES) {
                    parent.spawn((
                        RuinFloor {
                            height: floor.height,
                            area: floor.area.clone(),
                        },
                        Transform::from_xyz(0.0, 0.0, floor.height - FLOOR_THICKNESS_INCHES),
                        c,
                    ));
                }
            }
        });
    }
    for objective in &scene.objectives {
        commands.spawn(objective_bundle(objective));
    }
    for zone in &scene.deployment.zones {
        commands.spawn((
            SceneEntity,
            DeploymentZone {
                player: zone.player,
            },
            Transform::IDENTITY,
        ));
    }
    for (army_index, army) in scene.armies.iter().enumerate() {
        for (unit_index, unit) in army.units.iter().enumerate() {
            let unit_entity = commands
                .spawn((
                    SceneEntity,
                    Unit {
                        player: army.player,
                        id: unit.id.clone(),
                        army: army_index,
                        index: unit_index,
                    },
                ))
                .id();
            for (i, model) in unit.models.iter().enumerate() {
                let body = ModelBody {
                    base: model.characteristics.base,
                    height: model.characteristics.height,
                };
                let outline = body.base.outline(Vec2::ZERO, 0.0);
                let collider = prism_collider(&outline, body.height).expect("bases have area");
                commands.spawn((
                    SceneEntity,
                    Model {
                        index: i,
                        player: army.player,
                    },
                    ModelOf(unit_entity),
                    TableModel(ModelRef {
                        army: army_index,
                        unit: unit_index,
                        model: i,
                    }),
                    body,
                    Transform::from_translation(model.position)
                        .with_rotation(Quat::from_rotation_z(model.facing.to_radians())),
                    Visibility::default(),
                    collider,
                ));
            }
        }
    }
}

/// The components of an objective marker's entity: the marker, where it stands, and its 40 mm
/// disc collider (Core Rules: Objective Markers).
pub fn objective_bundle(
    objective: &crate::rules::mission::ObjectiveMarker,
) -> (SceneEntity, ObjectiveMarker, Transform, Collider) {
    (
        SceneEntity,
        ObjectiveMarker {
            id: objective.id.clone(),
        },
        Transform::from_xyz(objective.at.0, objective.at.1, objective.z),
        Collider::convex_hull(&disc_points(
            OBJECTIVE_MARKER_RADIUS_INCHES,
            OBJECTIVE_MARKER_HEIGHT_INCHES,
        ))
        .expect("a disc has volume"),
    )
}

fn disc_points(radius: f32, height: f32) -> Vec<Vec3> {
    (0..24)
        .flat_map(|i| {
            let a = std::f32::consts::TAU * i as f32 / 24.0;
            let (s, c) = a.sin_cos();
            [
                Vec3::new(radius * c, radius * s, 0.0),
                Vec3::new(radius * c, radius * s, height),
            ]
        })
        .collect()
}
