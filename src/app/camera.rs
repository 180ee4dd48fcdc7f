//! Orbit, pan and zoom camera over the table (z up).
//!
//! Right-drag orbits, middle-drag (or shift + right-drag) pans, the wheel zooms; WASD/arrows
//! pan, Q/E turn, R/F tilt, Home resets.

use bevy::camera::visibility::RenderLayers;
use bevy::camera::{CameraOutputMode, Viewport};
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::render::render_resource::BlendState;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiGlobalSettings, PrimaryEguiContext};

use super::ui::PanelInsets;
use super::ui::{keys_free, pointer_on_table};

use crate::rules::constants::{BOARD_DEPTH_INCHES, BOARD_WIDTH_INCHES};

/// The orbit camera's state: it looks at `focus` from `distance` inches away, turned `yaw`
/// radians about z and tilted `pitch` radians above the table.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct OrbitCamera {
    /// Point looked at (inches).
    pub focus: Vec3,
    /// Turn about the vertical axis (radians).
    pub yaw: f32,
    /// Angle above the table plane (radians).
    pub pitch: f32,
    /// Distance from the focus (inches).
    pub distance: f32,
}

impl Default for OrbitCamera {
    /// The whole table seen from player 1's edge.
    fn default() -> Self {
        OrbitCamera {
            focus: Vec3::new(
                BOARD_WIDTH_INCHES / 2.0,
                BOARD_DEPTH_INCHES / 2.0 + 1.0,
                0.0,
            ),
            yaw: -std::f32::consts::FRAC_PI_2,
            pitch: 1.0,
            distance: 68.0,
        }
    }
}

/// How far from the centre (normalised device coordinates) [`OrbitCamera::framing`] keeps the
/// table's corners.
pub const FRAMING_NDC: f32 = 0.95;

impl OrbitCamera {
    /// The default view (player 1's edge, [`OrbitCamera::default`]'s angles) from just far
    /// enough that the whole table fits a viewport of `aspect` (width / height): the view Home
    /// gives in the part of the window the panels leave to the table.
    pub fn framing(aspect: f32) -> OrbitCamera {
        let corners = [
            Vec3::ZERO,
            Vec3::new(BOARD_WIDTH_INCHES, 0.0, 0.0),
            Vec3::new(BOARD_WIDTH_INCHES, BOARD_DEPTH_INCHES, 0.0),
            Vec3::new(0.0, BOARD_DEPTH_INCHES, 0.0),
        ];
        let mut orbit = OrbitCamera {
            distance: 20.0,
            ..OrbitCamera::default()
        };
        while orbit.distance < 200.0
            && !corners.iter().all(|&c| {
                project(&orbit, aspect, c).is_some_and(|n| n.abs().max_element() <= FRAMING_NDC)
            })
        {
            orbit.distance += 1.0;
        }
        orbit
    }

    /// The camera transform for this state.
    pub fn transform(&self) -> Transform {
        let dir = Vec3::new(
            self.pitch.cos() * self.yaw.cos(),
            self.pitch.cos() * self.yaw.sin(),
            self.pitch.sin(),
        );
        Transform::from_translation(self.focus + dir * self.distance)
            .looking_at(self.focus, Vec3::Z)
    }
}

/// Spawns the camera and registers its controls.
pub fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_camera).add_systems(
        Update,
        (
            mouse_controls.run_if(pointer_on_table),
            keyboard_controls.run_if(keys_free),
            follow_selection,
            apply_orbit,
            fit_viewport,
        )
            .chain(),
    );
}

/// How far from the centre (in normalised device coordinates, 1 = the viewport's edge) the
/// selected unit's models may be before the camera follows it.
pub const KEEP_IN_VIEW_NDC: f32 = 0.8;

/// The camera's vertical field of view (Bevy's default perspective, radians).
const FOV_Y: f32 = std::f32::consts::FRAC_PI_4;

/// Where `p` (table inches) appears in a viewport of `aspect` (width / height) seen by
/// `orbit`: normalised device coordinates (x right, y up, -1..1 inside), None behind the
/// camera.
pub fn project(orbit: &OrbitCamera, aspect: f32, p: Vec3) -> Option<Vec2> {
    let view = orbit.transform().to_matrix().inverse();
    let clip = Mat4::perspective_rh(FOV_Y, aspect.max(0.01), 0.1, 1000.0) * view * p.extend(1.0);
    (clip.w > 0.0).then(|| Vec2::new(clip.x, clip.y) / clip.w)
}

/// The focus that keeps every point of `points` within [`KEEP_IN_VIEW_NDC`] of the centre of
/// a viewport of `aspect`, moving the camera as little as it can along the table towards
/// their centre (turn, tilt and zoom unchanged); None when they are in view already (or there
/// are none). A unit wider than the view is centred.
pub fn keep_in_view(orbit: &OrbitCamera, aspect: f32, points: &[Vec3]) -> Option<Vec3> {
    if points.is_empty() {
        return None;
    }
    let inside = |o: &OrbitCamera| {
        points.iter().all(|&p| {
            project(o, aspect, p).is_some_and(|n| n.abs().max_element() <= KEEP_IN_VIEW_NDC)
        })
    };
    if inside(orbit) {
        return None;
    }
    let centre = points.iter().copied().sum::<Vec3>() / points.len() as f32;
    let target = Vec3::new(centre.x, centre.y, orbit.focus.z);
    let at = |t: f32| OrbitCamera {
        focus: orbit.focus.lerp(target, t),
        ..*orbit
    };
    if !inside(&at(1.0)) {
        return Some(target);
    }
    let (mut lo, mut hi) = (0.0f32, 1.0f32);
    for _ in 0..20 {
        let mid = (lo + hi) / 2.0;
        if inside(&at(mid)) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(at(hi).focus)
}

/// When a unit is selected, or the panels change the table's part of the window, moves the
/// camera along the table just enough to keep the unit's models in view ([`keep_in_view`]).
fn follow_selection(
    selection: Res<super::selection::Selection>,
    insets: Res<PanelInsets>,
    window: Single<&Window, With<PrimaryWindow>>,
    units: Query<&crate::sim::components::UnitModels>,
    models: Query<&GlobalTransform, Without<crate::sim::battle::OffTable>>,
    mut cameras: Query<&mut OrbitCamera>,
) {
    if !selection.is_changed() && !insets.is_changed() {
        return;
    }
    let Some(unit) = selection.unit else { return };
    let Some((_, size)) = table_area(&insets, &window) else {
        return;
    };
    let Ok(members) = units.get(unit) else { return };
    let points: Vec<Vec3> = members
        .iter()
        .filter_map(|m| models.get(m).ok())
        .map(GlobalTransform::translation)
        .collect();
    let aspect = size.x as f32 / size.y as f32;
    for mut orbit in &mut cameras {
        if let Some(focus) = keep_in_view(&orbit, aspect, &points) {
            orbit.focus = focus;
        }
    }
}

fn spawn_camera(mut commands: Commands, mut egui_settings: ResMut<EguiGlobalSettings>) {
    let orbit = OrbitCamera::default();
    commands.spawn((
        Camera3d::default(),
        orbit.transform(),
        orbit,
        RenderLayers::from_layers(&[0, super::eye::OWN_UNIT_LAYER]),
    ));
    // The overlay gets its own camera over the whole window, so the 3D camera's viewport can
    // shrink to the space the panels leave free.
    egui_settings.auto_create_primary_context = false;
    commands.spawn((
        PrimaryEguiContext,
        Camera2d,
        RenderLayers::none(),
        Camera {
            // After the table (0) and the model's-eye view (1).
            order: 2,
            output_mode: CameraOutputMode::Write {
                blend_state: Some(BlendState::ALPHA_BLENDING),
                clear_color: ClearColorConfig::None,
            },
            clear_color: ClearColorConfig::Custom(Color::NONE),
            ..default()
        },
    ));
}

fn mouse_controls(
    buttons: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    mut cameras: Query<&mut OrbitCamera>,
) {
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    for mut orbit in &mut cameras {
        let d = motion.delta;
        let pan =
            buttons.pressed(MouseButton::Middle) || (shift && buttons.pressed(MouseButton::Right));
        if pan {
            let scale = orbit.distance * 0.0015;
            let right = Vec3::new(-orbit.yaw.sin(), orbit.yaw.cos(), 0.0);
            let forward = Vec3::new(-orbit.yaw.cos(), -orbit.yaw.sin(), 0.0);
            orbit.focus += (-right * d.x + forward * d.y) * scale;
        } else if buttons.pressed(MouseButton::Right) {
            orbit.yaw -= d.x * 0.005;
            orbit.pitch = (orbit.pitch + d.y * 0.005).clamp(0.05, 1.55);
        }
        let lines = match scroll.unit {
            MouseScrollUnit::Line => scroll.delta.y,
            MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
        };
        if lines != 0.0 {
            orbit.distance = (orbit.distance * 0.9f32.powf(lines)).clamp(3.0, 200.0);
        }
    }
}

fn keyboard_controls(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    grab: Option<Res<super::overlay::Grab>>,
    insets: Option<Res<PanelInsets>>,
    window: Option<Single<&Window, With<PrimaryWindow>>>,
    mut cameras: Query<&mut OrbitCamera>,
) {
    // The table's part of the window, whose shape Home frames the table in.
    let aspect = match (&insets, &window) {
        (Some(insets), Some(window)) => table_area(insets, window)
            .map_or(16.0 / 9.0, |(_, size)| size.x as f32 / size.y.max(1) as f32),
        _ => 16.0 / 9.0,
    };
    // While a model is dragged, Q and E turn it instead of the camera.
    let holding = grab.is_some_and(|g| g.model.is_some());
    let dt = time.delta_secs();
    for mut orbit in &mut cameras {
        if keys.just_pressed(KeyCode::Home) {
            *orbit = OrbitCamera::framing(aspect);
        }
        let right = Vec3::new(-orbit.yaw.sin(), orbit.yaw.cos(), 0.0);
        let forward = Vec3::new(-orbit.yaw.cos(), -orbit.yaw.sin(), 0.0);
        let speed = orbit.distance * 0.8 * dt;
        let mut pan = Vec3::ZERO;
        for (key, alt, dir) in [
            (KeyCode::KeyW, KeyCode::ArrowUp, forward),
            (KeyCode::KeyS, KeyCode::ArrowDown, -forward),
            (KeyCode::KeyD, KeyCode::ArrowRight, right),
            (KeyCode::KeyA, KeyCode::ArrowLeft, -right),
        ] {
            if keys.pressed(key) || keys.pressed(alt) {
                pan += dir;
            }
        }
        orbit.focus += pan * speed;
        if keys.pressed(KeyCode::KeyQ) && !holding {
            orbit.yaw += 1.5 * dt;
        }
        if keys.pressed(KeyCode::KeyE) && !holding {
            orbit.yaw -= 1.5 * dt;
        }
        if keys.pressed(KeyCode::KeyR) {
            orbit.pitch = (orbit.pitch + dt).min(1.55);
        }
        if keys.pressed(KeyCode::KeyF) {
            orbit.pitch = (orbit.pitch - dt).max(0.05);
        }
    }
}

fn apply_orbit(mut cameras: Query<(&OrbitCamera, &mut Transform), Changed<OrbitCamera>>) {
    for (orbit, mut transform) in &mut cameras {
        *transform = orbit.transform();
    }
}

/// The part of the window the overlay's panels leave free for the table (physical pixels:
/// position and size), if any.
pub fn table_area(insets: &PanelInsets, window: &Window) -> Option<(UVec2, UVec2)> {
    let scale = window.scale_factor();
    let size = window.physical_size();
    let px = |logical: f32| (logical * scale) as u32;
    let width = size.x.saturating_sub(px(insets.left) + px(insets.right));
    let height = size.y.saturating_sub(px(insets.top) + px(insets.bottom));
    (width > 0 && height > 0).then(|| {
        (
            UVec2::new(px(insets.left), px(insets.top)),
            UVec2::new(width, height),
        )
    })
}

/// Sets a camera's viewport, touching it only when it changes.
pub fn set_viewport(camera: &mut Camera, position: UVec2, size: UVec2) {
    let same = camera
        .viewport
        .as_ref()
        .is_some_and(|v| v.physical_position == position && v.physical_size == size);
    if !same {
        camera.viewport = Some(Viewport {
            physical_position: position,
            physical_size: size,
            ..default()
        });
    }
}

/// Renders the 3D view in the part of the window the overlay's panels leave free. While the
/// player has not moved the camera from its starting view (or from the last such framing),
/// the view is framed again for the new shape ([`OrbitCamera::framing`]), so the whole table
/// shows beside the panels.
fn fit_viewport(
    insets: Res<PanelInsets>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut cameras: Query<(&mut Camera, &mut OrbitCamera)>,
    mut framed: Local<Option<OrbitCamera>>,
) {
    let Some((position, size)) = table_area(&insets, &window) else {
        return;
    };
    for (mut camera, mut orbit) in &mut cameras {
        set_viewport(&mut camera, position, size);
        let untouched = *orbit == OrbitCamera::default() || Some(*orbit) == *framed;
        if untouched {
            let fit = OrbitCamera::framing(size.x as f32 / size.y.max(1) as f32);
            if *orbit != fit {
                *orbit = fit;
            }
            *framed = Some(fit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 20, layout: a unit the narrowed view leaves out is brought in by the smallest
    /// slide of the camera along the table; a unit in view does not move it.
    #[test]
    fn the_camera_keeps_the_selected_unit_in_view() {
        let orbit = OrbitCamera::default();
        // The table's centre is in view: no move.
        let centre = [Vec3::new(30.0, 22.0, 0.0), Vec3::new(31.0, 22.0, 0.0)];
        assert_eq!(keep_in_view(&orbit, 16.0 / 9.0, &centre), None);
        // A corner of the table, in a narrow view (the card and armies list open).
        let corner = [Vec3::new(58.0, 42.0, 0.0), Vec3::new(57.0, 41.0, 0.0)];
        let aspect = 0.9;
        assert!(
            corner.iter().any(
                |&p| project(&orbit, aspect, p).unwrap().abs().max_element() > KEEP_IN_VIEW_NDC
            )
        );
        let focus = keep_in_view(&orbit, aspect, &corner).expect("the camera moves");
        let moved = OrbitCamera { focus, ..orbit };
        for &p in &corner {
            let n = project(&moved, aspect, p).unwrap();
            assert!(n.abs().max_element() <= KEEP_IN_VIEW_NDC + 1e-3, "{n}");
        }
        assert_eq!(focus.z, orbit.focus.z, "it slides along the table");
        // Not all the way to the unit: just enough.
        let all_the_way = Vec3::new(57.5, 41.5, orbit.focus.z);
        assert!(focus.distance(orbit.focus) < all_the_way.distance(orbit.focus));
        assert_eq!(keep_in_view(&moved, aspect, &corner), None, "then it stays");
    }

    #[test]
    fn default_view_looks_down_at_the_table_centre_from_player_one() {
        let orbit = OrbitCamera::default();
        let t = orbit.transform();
        assert!(t.translation.z > 30.0, "above the table");
        assert!(t.translation.y < 0.0, "behind player 1's edge");
        let forward = t.forward();
        assert!(forward.z < 0.0 && forward.y > 0.0);
    }

    #[test]
    fn home_frames_the_whole_table_in_a_narrow_view_and_no_further() {
        let corners = [
            Vec3::ZERO,
            Vec3::new(BOARD_WIDTH_INCHES, 0.0, 0.0),
            Vec3::new(BOARD_WIDTH_INCHES, BOARD_DEPTH_INCHES, 0.0),
            Vec3::new(0.0, BOARD_DEPTH_INCHES, 0.0),
        ];
        for aspect in [0.9, 1.3, 16.0 / 9.0, 2.4] {
            let orbit = OrbitCamera::framing(aspect);
            let fits = |o: &OrbitCamera| {
                corners.iter().all(|&c| {
                    project(o, aspect, c).is_some_and(|n| n.abs().max_element() <= FRAMING_NDC)
                })
            };
            assert!(fits(&orbit), "aspect {aspect}");
            let closer = OrbitCamera {
                distance: orbit.distance - 1.0,
                ..orbit
            };
            assert!(!fits(&closer), "aspect {aspect}: no further than needed");
        }
        // A narrow view needs the camera further back than a wide one.
        assert!(OrbitCamera::framing(0.9).distance > OrbitCamera::framing(2.4).distance);
    }
}
