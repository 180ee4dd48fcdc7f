//! The model's-eye view: a second camera at the observer model's eye, looking at the target
//! model, shown picture-in-picture in the corner of the table view or over all of it (V).

use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::camera::{set_viewport, table_area};
use super::play::{EyeView, SightTools};
use super::screens::Screen;
use super::ui::PanelInsets;
use crate::game::Game;
use crate::sim::battle::ActiveGame;
use crate::sim::components::TableModel;

/// Share of the table view's width the picture-in-picture takes.
pub const PIP_WIDTH_SHARE: f32 = 0.6;
/// Render layer of the observer's own unit: the table camera draws it, the eye camera does not
/// (a unit's own models never block its sight).
pub const OWN_UNIT_LAYER: usize = 1;
/// Eye height as a share of the model's height.
pub const EYE_HEIGHT_SHARE: f32 = 0.9;

/// Marks the model's-eye camera.
#[derive(Component, Debug, Clone, Copy)]
pub struct EyeCamera;

/// Spawns the (inactive) eye camera and keeps it on the chosen models while a game is on the
/// table ([`Screen::Table`]); leaving the table turns it off.
pub fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn)
        .add_systems(
            Update,
            (follow, hide_own_unit).run_if(in_state(Screen::Table)),
        )
        .add_systems(OnExit(Screen::Table), turn_off);
}

/// Turns the eye camera off on leaving the table (`follow` turns it on again on return).
fn turn_off(mut cameras: Query<&mut Camera, With<EyeCamera>>) {
    for mut camera in &mut cameras {
        if camera.is_active {
            camera.is_active = false;
        }
    }
}

fn spawn(mut commands: Commands) {
    commands.spawn((
        EyeCamera,
        Camera3d::default(),
        Camera {
            order: 1,
            is_active: false,
            ..default()
        },
        Projection::Perspective(PerspectiveProjection {
            fov: 55f32.to_radians(),
            near: 0.05,
            ..default()
        }),
        Transform::default(),
        RenderLayers::layer(0),
    ));
}

/// Puts the meshes of the observer's unit on [`OWN_UNIT_LAYER`] while the eye view is open.
fn hide_own_unit(
    mut commands: Commands,
    sight: Res<SightTools>,
    active: Res<ActiveGame>,
    models: Query<(&TableModel, &Children)>,
    layers: Query<&RenderLayers>,
) {
    if !(sight.is_changed() || active.is_changed()) {
        return;
    }
    let observer = sight.eye.as_ref().and_then(|e| {
        let game = active.game.as_ref()?;
        Some((
            e.observer.army,
            game.combined(e.observer.army, e.observer.unit)[0],
        ))
    });
    for (&TableModel(r), children) in &models {
        let root = active
            .game
            .as_ref()
            .map_or(r.unit, |g| g.combined(r.army, r.unit)[0]);
        let hidden = observer == Some((r.army, root));
        let want = RenderLayers::layer(if hidden { OWN_UNIT_LAYER } else { 0 });
        for child in children.iter() {
            if layers.get(child).ok() != Some(&want) {
                commands.entity(child).insert(want.clone());
            }
        }
    }
}

/// The eye camera's transform for `eye`: at the observer's eye height over its base centre,
/// looking at the middle of the target.
pub fn eye_transform(game: &Game, eye: &EyeView) -> Transform {
    let o = game.solid(eye.observer);
    let t = game.solid(eye.target);
    let from = o.centre.extend(o.z + o.height * EYE_HEIGHT_SHARE);
    let to = t.centre.extend(t.z + t.height * 0.5);
    let dir = (to - from).truncate().normalize_or_zero();
    // Step to the front edge of the observer's own body so it does not fill the view.
    let step = o.base.bounding_radius_inches() * 0.9;
    Transform::from_translation(from + dir.extend(0.0) * step).looking_at(to, Vec3::Z)
}

fn follow(
    sight: Res<SightTools>,
    active: Res<ActiveGame>,
    insets: Res<PanelInsets>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut cameras: Query<(&mut Camera, &mut Transform), With<EyeCamera>>,
) {
    let Ok((mut camera, mut transform)) = cameras.single_mut() else {
        return;
    };
    let view = match (&sight.eye, &active.game) {
        (Some(eye), Some(game)) if game.on_table(eye.observer) && game.on_table(eye.target) => {
            Some((eye_transform(game, eye), eye.full))
        }
        _ => None,
    };
    let Some((t, full)) = view else {
        if camera.is_active {
            camera.is_active = false;
        }
        return;
    };
    if *transform != t {
        *transform = t;
    }
    let Some((origin, area)) = table_area(&insets, &window) else {
        return;
    };
    if area.x < 8 || area.y < 8 {
        return;
    }
    let (position, size) = if full {
        (origin, area)
    } else {
        let w = (area.x as f32 * PIP_WIDTH_SHARE) as u32;
        let h = ((w as f32 * 0.62) as u32).min(area.y);
        (
            origin + area - UVec2::new(w + 4, h + 4).min(area),
            UVec2::new(w, h),
        )
    };
    set_viewport(&mut camera, position, size);
    if !camera.is_active {
        camera.is_active = true;
    }
}
