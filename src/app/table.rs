//! What the table looks like: the board, lights, and meshes for the entities the simulation
//! spawns (terrain, walls, floors, objectives, deployment zones, models).

use std::collections::HashMap;

use bevy::prelude::*;

use super::figures;
use super::mesh::prism;
use crate::geometry::{TerrainCategory, Vec2, to_vecs};
use crate::rules::constants::{
    BOARD_DEPTH_INCHES, BOARD_WIDTH_INCHES, OBJECTIVE_MARKER_RADIUS_INCHES,
};
use crate::sim::ActiveScene;
use crate::sim::components::{
    DeploymentZone, Model, ModelBody, ObjectiveMarker, RuinFloor, TableModel, TerrainFeature,
    WallSolid,
};
use crate::sim::scene::OBJECTIVE_MARKER_HEIGHT_INCHES;

use crate::geometry::base::BASE_THICKNESS_INCHES;

/// The board surface; clicking it clears the selection.
#[derive(Component, Debug, Clone, Copy)]
pub struct Board;

/// The body mesh of a model (a child of the model entity), tinted by selection.
#[derive(Component, Debug, Clone, Copy)]
pub struct BodyMesh {
    /// Player number of the model.
    pub player: u8,
}

/// Materials shared by many meshes.
#[derive(Resource, Debug, Clone)]
pub struct Palette {
    /// Model bodies by player (index 0 = player 1).
    pub bodies: [Handle<StandardMaterial>; 2],
    /// Model bases by player.
    pub bases: [Handle<StandardMaterial>; 2],
    /// Bodies of the selected unit.
    pub selected: Handle<StandardMaterial>,
    /// Enemy bodies tinted by the line-of-sight tool: fully visible, visible, not visible.
    pub sight: [Handle<StandardMaterial>; 3],
    walls: Handle<StandardMaterial>,
    floors: Handle<StandardMaterial>,
    objective: Handle<StandardMaterial>,
    zones: [Handle<StandardMaterial>; 2],
    terrain: HashMap<TerrainCategory, Handle<StandardMaterial>>,
}

/// Player colours (index 0 = player 1): blue and red.
pub const PLAYER_COLOURS: [Color; 2] = [Color::srgb(0.22, 0.42, 0.9), Color::srgb(0.85, 0.2, 0.17)];

/// The colour a terrain category's footprint is drawn in (the legend shows the same).
pub fn terrain_colour(category: TerrainCategory) -> Color {
    match category {
        TerrainCategory::Ruin => Color::srgb(0.3, 0.3, 0.32),
        TerrainCategory::LowFootprint => Color::srgba(0.16, 0.46, 0.5, 0.8),
        TerrainCategory::Woods => Color::srgba(0.18, 0.42, 0.16, 0.8),
        TerrainCategory::Crater => Color::srgb(0.36, 0.28, 0.2),
        TerrainCategory::Barricade => Color::srgb(0.55, 0.48, 0.36),
        TerrainCategory::Hill => Color::srgb(0.4, 0.45, 0.28),
        TerrainCategory::Debris => Color::srgb(0.45, 0.4, 0.36),
    }
}

/// Registers the board, lights and the observers that give spawned entities their meshes.
pub fn plugin(app: &mut App) {
    app.add_systems(Startup, (make_palette, spawn_board).chain())
        .add_observer(dress_terrain)
        .add_observer(dress_wall)
        .add_observer(dress_floor)
        .add_observer(dress_objective)
        .add_observer(dress_zone)
        .add_observer(dress_model);
}

fn make_palette(mut commands: Commands, mut materials: ResMut<Assets<StandardMaterial>>) {
    let mut m = |color: Color, alpha: bool| {
        materials.add(StandardMaterial {
            base_color: color,
            perceptual_roughness: 0.85,
            alpha_mode: if alpha {
                AlphaMode::Blend
            } else {
                AlphaMode::Opaque
            },
            ..default()
        })
    };
    let darker = |c: Color| c.mix(&Color::BLACK, 0.55);
    let palette = Palette {
        bodies: PLAYER_COLOURS.map(|c| m(c, false)),
        bases: PLAYER_COLOURS.map(|c| m(darker(c), false)),
        selected: m(Color::srgb(1.0, 0.85, 0.2), false),
        sight: [
            m(Color::srgb(0.25, 0.9, 0.35), false),
            m(Color::srgb(0.95, 0.6, 0.15), false),
            m(Color::srgb(0.3, 0.3, 0.32), false),
        ],
        walls: m(Color::srgb(0.74, 0.71, 0.66), false),
        floors: m(Color::srgb(0.56, 0.53, 0.49), false),
        objective: m(Color::srgb(0.95, 0.78, 0.2), false),
        zones: PLAYER_COLOURS.map(|c| {
            let mut z = StandardMaterial::from(c.with_alpha(0.22));
            z.alpha_mode = AlphaMode::Blend;
            z.unlit = true;
            materials.add(z)
        }),
        terrain: HashMap::new(),
    };
    let mut palette = palette;
    for category in TerrainCategory::ALL {
        let c = terrain_colour(category);
        let alpha = c.alpha() < 1.0;
        palette.terrain.insert(
            category,
            materials.add(StandardMaterial {
                base_color: c,
                perceptual_roughness: 0.9,
                alpha_mode: if alpha {
                    AlphaMode::Blend
                } else {
                    AlphaMode::Opaque
                },
                ..default()
            }),
        );
    }
    commands.insert_resource(palette);
}

fn spawn_board(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let (w, d) = (BOARD_WIDTH_INCHES, BOARD_DEPTH_INCHES);
    commands.spawn((
        Board,
        Mesh3d(meshes.add(Cuboid::new(w, d, 0.5))),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color: Color::srgb(0.46, 0.47, 0.42),
            perceptual_roughness: 0.95,
            ..default()
        })),
        Transform::from_xyz(w / 2.0, d / 2.0, -0.25),
    ));
    // Faint 6" grid lines to judge distances at a glance.
    let line = materials.add(StandardMaterial {
        base_color: Color::srgb(0.4, 0.41, 0.37),
        unlit: true,
        ..default()
    });
    let mut x = 6.0;
    while x < w {
        commands.spawn((
            Mesh3d(meshes.add(Cuboid::new(0.06, d, 0.01))),
            MeshMaterial3d(line.clone()),
            Transform::from_xyz(x, d / 2.0, 0.003),
        ));
        x += 6.0;
    }
    let mut y = 4.0;
    while y < d {
        commands.spawn((
            Mesh3d(meshes.add(Cuboid::new(w, 0.06, 0.01))),
            MeshMaterial3d(line.clone()),
            Transform::from_xyz(w / 2.0, y, 0.003),
        ));
        y += 6.0;
    }
    commands.spawn((
        DirectionalLight {
            illuminance: 9000.0,
            shadow_maps_enabled: true,
            ..default()
        },
        Transform::from_xyz(w / 2.0 - 20.0, d / 2.0 - 30.0, 60.0)
            .looking_at(Vec3::new(w / 2.0, d / 2.0, 0.0), Vec3::Z),
    ));
    commands.insert_resource(GlobalAmbientLight {
        color: Color::WHITE,
        brightness: 500.0,
        ..default()
    });
    commands.insert_resource(ClearColor(Color::srgb(0.13, 0.14, 0.16)));
}

/// A terrain piece gets its footprint prism (flat under a ruin's walls).
fn dress_terrain(
    add: On<Add, TerrainFeature>,
    mut commands: Commands,
    scene: Res<ActiveScene>,
    palette: Res<Palette>,
    mut meshes: ResMut<Assets<Mesh>>,
    features: Query<&TerrainFeature>,
) {
    let Some(scene) = &scene.0 else { return };
    let Ok(feature) = features.get(add.entity) else {
        return;
    };
    let Some(piece) = scene.layout.pieces.get(feature.index) else {
        return;
    };
    // Ruins show their footprint flat under the walls; other pieces their own body.
    let (height, lift) = match piece.category {
        TerrainCategory::Ruin => (0.0, 0.02),
        _ => (piece.height.max(0.05), 0.0),
    };
    commands.entity(add.entity).insert((
        Mesh3d(meshes.add(prism(&piece.footprint, height))),
        MeshMaterial3d(palette.terrain[&piece.category].clone()),
        Transform::from_xyz(0.0, 0.0, lift),
    ));
}

/// A solid part of a ruin wall gets its box.
fn dress_wall(
    add: On<Add, WallSolid>,
    mut commands: Commands,
    palette: Res<Palette>,
    mut meshes: ResMut<Assets<Mesh>>,
    walls: Query<&WallSolid>,
) {
    let Ok(wall) = walls.get(add.entity) else {
        return;
    };
    let size = wall.half_extents * 2.0;
    commands.entity(add.entity).insert((
        Mesh3d(meshes.add(Cuboid::new(size.x, size.y, size.z))),
        MeshMaterial3d(palette.walls.clone()),
    ));
}

/// An upper floor of a ruin gets its slab.
fn dress_floor(
    add: On<Add, RuinFloor>,
    mut commands: Commands,
    palette: Res<Palette>,
    mut meshes: ResMut<Assets<Mesh>>,
    floors: Query<&RuinFloor>,
) {
    let Ok(floor) = floors.get(add.entity) else {
        return;
    };
    commands.entity(add.entity).insert((
        Mesh3d(meshes.add(prism(
            &floor.area,
            crate::geometry::terrain::FLOOR_THICKNESS_INCHES,
        ))),
        MeshMaterial3d(palette.floors.clone()),
    ));
}

/// An objective marker gets its disc.
fn dress_objective(
    add: On<Add, ObjectiveMarker>,
    mut commands: Commands,
    palette: Res<Palette>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    let radius = OBJECTIVE_MARKER_RADIUS_INCHES;
    let disc: Vec<Vec2> = (0..32)
        .map(|i| {
            let a = std::f32::consts::TAU * i as f32 / 32.0;
            Vec2::new(radius * a.cos(), radius * a.sin())
        })
        .collect();
    commands.entity(add.entity).insert((
        Mesh3d(meshes.add(prism(&disc, OBJECTIVE_MARKER_HEIGHT_INCHES))),
        MeshMaterial3d(palette.objective.clone()),
    ));
}

/// A deployment zone gets its tinted area, in its player's colour.
fn dress_zone(
    add: On<Add, DeploymentZone>,
    mut commands: Commands,
    scene: Res<ActiveScene>,
    palette: Res<Palette>,
    mut meshes: ResMut<Assets<Mesh>>,
    zones: Query<&DeploymentZone>,
) {
    let Some(scene) = &scene.0 else { return };
    let Ok(zone) = zones.get(add.entity) else {
        return;
    };
    let Some(area) = scene
        .deployment
        .zones
        .iter()
        .find(|z| z.player == zone.player)
        .map(|z| to_vecs(&z.area))
    else {
        return;
    };
    let i = usize::from(zone.player.clamp(1, 2) - 1);
    commands.entity(add.entity).insert((
        Mesh3d(meshes.add(prism(&area, 0.0))),
        MeshMaterial3d(palette.zones[i].clone()),
        Transform::from_xyz(0.0, 0.0, 0.012),
    ));
}

/// The ring around a model's base that shows its line-of-sight state (its body keeps the
/// player's colour); hidden while the line-of-sight tool is off.
#[derive(Component, Debug, Clone, Copy)]
pub struct SightRing;

/// A model gets its base, its figure by keyword ([`figures::silhouette`]: infantry, vehicle,
/// walker, monster; tinted when selected) and its line-of-sight ring, as child meshes. The
/// figure faces the model's facing (gun, barrel, arms and head forward).
fn dress_model(
    add: On<Add, Model>,
    mut commands: Commands,
    palette: Res<Palette>,
    scene: Res<ActiveScene>,
    mut meshes: ResMut<Assets<Mesh>>,
    models: Query<(&Model, &ModelBody, Option<&TableModel>)>,
) {
    let entity = add.entity;
    let Ok((model, body, at)) = models.get(entity) else {
        return;
    };
    let i = usize::from(model.player.clamp(1, 2) - 1);
    let outline = body.base.outline(Vec2::ZERO, 0.0);
    let keywords = at
        .and_then(|t| {
            let s = scene.0.as_ref()?;
            Some(
                s.armies
                    .get(t.0.army)?
                    .units
                    .get(t.0.unit)?
                    .datasheet
                    .keywords
                    .clone(),
            )
        })
        .unwrap_or_default();
    let kind = figures::silhouette(&keywords, &body.base);
    let hull = matches!(body.base, crate::geometry::Base::Hull { .. });
    let base_mesh = meshes.add(prism(
        &outline,
        if hull { 0.05 } else { BASE_THICKNESS_INCHES },
    ));
    let body_mesh = meshes.add(figures::figure_mesh(
        kind,
        &body.base,
        (body.height - BASE_THICKNESS_INCHES).max(0.1),
    ));
    let ring_radius = body.base.bounding_radius_inches() + 0.12;
    let ring = meshes.add(
        Mesh::from(Torus::new(ring_radius - 0.07, ring_radius + 0.07)).transformed_by(
            Transform::from_rotation(Quat::from_rotation_x(std::f32::consts::FRAC_PI_2)),
        ),
    );
    commands.entity(entity).with_children(|parent| {
        parent.spawn((Mesh3d(base_mesh), MeshMaterial3d(palette.bases[i].clone())));
        parent.spawn((
            BodyMesh {
                player: model.player,
            },
            Mesh3d(body_mesh),
            MeshMaterial3d(palette.bodies[i].clone()),
            Transform::from_xyz(0.0, 0.0, BASE_THICKNESS_INCHES),
        ));
        parent.spawn((
            SightRing,
            Mesh3d(ring),
            MeshMaterial3d(palette.sight[2].clone()),
            Transform::from_xyz(0.0, 0.0, 0.08),
            Visibility::Hidden,
        ));
    });
}
