//! The desktop app: window, camera, table meshes, picking and the egui overlay.

pub mod camera;
pub mod mesh;
pub mod screenshot;
pub mod selection;
pub mod table;
pub mod ui;

use std::process::ExitCode;

use bevy::picking::mesh_picking::MeshPickingPlugin;
use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_egui::EguiPlugin;

use crate::cli::{PlayArgs, scene_path};
use crate::data::load_scene;
use crate::sim::{ActiveScene, SceneErrors};

/// What to print when no graphics adapter is found, instead of a backtrace.
pub const NO_GPU_HELP: &str = "wartable could not find a graphics adapter (Vulkan, Metal, DX12 or OpenGL).\n\
Install a driver; on Debian/Ubuntu without a GPU, software rendering works:\n  \
sudo apt-get install -y mesa-vulkan-drivers libvulkan1 libgl1-mesa-dri\n\
Headless commands (validate, scene --json) need no graphics.";

/// Opens the desktop app on the scene named by `args` (the built-in default scene when none).
/// A scene that fails to load opens an empty table with an error panel.
pub fn run(args: PlayArgs) -> ExitCode {
    install_no_gpu_hook();
    let path = scene_path(args.scene.as_deref());
    let (scene, errors) = match load_scene(&path) {
        Ok(s) => (Some(s), Vec::new()),
        Err(e) => {
            for err in &e.0 {
                eprintln!("{err}");
            }
            (None, e.0.iter().map(ToString::to_string).collect())
        }
    };
    let title = scene
        .as_ref()
        .map_or("wartable".to_string(), |s| format!("wartable - {}", s.name));
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title,
            resolution: WindowResolution::new(1280, 720),
            ..default()
        }),
        ..default()
    }))
    .add_plugins((EguiPlugin::default(), MeshPickingPlugin))
    .add_plugins((
        crate::sim::plugin,
        camera::plugin,
        table::plugin,
        selection::plugin,
        ui::plugin,
        screenshot::plugin,
    ))
    .insert_resource(ActiveScene(scene))
    .insert_resource(SceneErrors(errors));
    if let Some(unit) = args.select {
        app.insert_resource(selection::SelectAtStart(unit));
    }
    if let Some(path) = args.screenshot {
        app.insert_resource(screenshot::ScreenshotPlan::new(path, args.frames));
    }
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

/// Replaces Bevy's "Unable to find a GPU" panic with instructions.
fn install_no_gpu_hook() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        if text.contains("Unable to find a GPU") || text.contains("No suitable adapter") {
            eprintln!("{NO_GPU_HELP}");
            std::process::exit(2);
        }
        default(info);
    }));
}
