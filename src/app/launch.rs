//! Opening the desktop app from the command line: the window, the game, menu or editor the
//! arguments ask for, and a readable message when no graphics adapter is found.

use std::path::PathBuf;
use std::process::ExitCode;

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_egui::EguiPlugin;

use super::{PlayArgs, editor, scenario, scene_path, screens, screenshot, selection};
use crate::sim::{ActiveScene, SceneErrors};

/// What to print when no graphics adapter is found, instead of a backtrace.
pub const NO_GPU_HELP: &str = "wartable could not find a graphics adapter (Vulkan, Metal, DX12 or OpenGL).\n\
Install a driver; on Debian/Ubuntu without a GPU, software rendering works:\n  \
sudo apt-get install -y mesa-vulkan-drivers libvulkan1 libgl1-mesa-dri\n\
Headless commands (validate, scene --json) need no graphics.";

/// Opens the desktop app. With a scene (or `--load`), a game starts on it at once, hot-seat
/// unless `--solo` or `--computer` says otherwise (`--scenario` plays a scripted start); with
/// only `--solo` or `--computer`, it starts on the built-in default scene; with none of them,
/// or with `--menu`, the main menu opens over the default scene. A save that recorded the
/// computer's seat goes on against it unless `--solo` or `--computer` asks otherwise. A scene
/// or save that fails to load opens the table with an error panel.
pub fn run(args: PlayArgs) -> ExitCode {
    install_no_gpu_hook();
    let saves = if args.saves.as_os_str().is_empty() {
        PathBuf::from("saves")
    } else {
        args.saves.clone()
    };
    let wants_game = args.starts_game();
    let mut errors: Vec<String> = Vec::new();
    let mut started = None;
    let mut menu_scene = None;
    if wants_game {
        let result = match &args.load {
            Some(save) => screens::table::load_game(save),
            None => screens::table::start_on_scene_under(
                &scene_path(args.scene.as_deref()),
                &saves,
                (args.seed, args.ruleset),
            ),
        };
        match result {
            Ok(s) => started = Some(s),
            Err(e) => errors.extend(e.lines().map(str::to_string)),
        }
    } else {
        match crate::data::load_scene_under(&scene_path(args.scene.as_deref()), args.ruleset) {
            Ok(s) => menu_scene = Some(s),
            Err(e) => errors.extend(e.0.iter().map(ToString::to_string)),
        }
    }
    let mut view = None;
    if let (Some(name), Some(st), false) = (&args.scenario, started.as_mut(), args.editor) {
        match scenario::prepare(name, st) {
            Ok(v) => view = Some(v),
            Err(e) => errors.push(format!("scenario {name}: {e}")),
        }
        if let Some(path) = &st.autosave.to_str().map(PathBuf::from)
            && let Err(e) = crate::game::save::write_save(path, &st.save)
        {
            errors.push(e.to_string());
        }
    }
    for e in &errors {
        stderr_line!("{e}");
    }
    let title = started
        .as_ref()
        .map(|s| s.origin.name.clone())
        .or(menu_scene.as_ref().map(|s| s.name.clone()))
        .map_or("wartable".to_string(), |n| format!("wartable - {n}"));
    let mut editor = None;
    if args.editor {
        let scene = scene_path(args.scene.as_deref());
        match crate::design::Design::open_scene(&scene) {
            Ok(design) => {
                let layout = crate::data::source::load::<crate::data::scene::SceneFile>(&scene)
                    .ok()
                    .map(|s| crate::data::source::sibling(&scene, &s.layout))
                    .filter(|p| p.exists());
                let mut e = editor::Editor::new(design, PathBuf::from("scenes"), layout);
                e.mirror = args.mirror;
                if let Some(name) = &args.scenario
                    && let Err(err) = editor::scenario(&mut e, name)
                {
                    errors.push(format!("scenario {name}: {err}"));
                }
                editor = Some(e);
            }
            Err(e) => errors.extend(e.0.iter().map(ToString::to_string)),
        }
    }
    let mut app = App::new();
    editor::register_source(&mut app, std::path::Path::new("scenes"));
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title,
            // `cargo run` with no arguments leaves the size unset: 1280 x 720.
            resolution: if args.window.0 == 0 {
                WindowResolution::new(1280, 720)
            } else {
                WindowResolution::new(args.window.0, args.window.1)
            },
            ..default()
        }),
        ..default()
    }))
    .add_plugins((EguiPlugin::default(), super::pick::plugin))
    .add_plugins(super::plugin)
    .insert_resource(screens::menu::SavesDir(saves))
    .insert_resource(ActiveScene(menu_scene))
    .insert_resource(SceneErrors(errors));
    // `--menu --scenario import`: the menu with its army import panel open, for a screenshot.
    if args.menu && args.scenario.as_deref() == Some(super::scenario::MENU_IMPORT) {
        app.insert_resource(screens::menu::ArmyImport {
            open: true,
            path: "tests/rosters/space-wolves-1990.txt".into(),
            message: "scenes/armies/space-wolves.ron: already exists and is kept; nothing \
                      written (--force, or the menu's Replace, replaces it)"
                .into(),
            ..Default::default()
        });
    }
    // `--menu --scenario newcomer-menu`: the form with both imported sample lists chosen.
    if args.menu && args.scenario.as_deref() == Some(super::newcomer::MENU_STAGE) {
        let saves = app.world().resource::<screens::menu::SavesDir>().0.clone();
        match super::newcomer::newcomer_form(&saves) {
            Ok(form) => {
                app.insert_resource(form);
                // Its armies' Leaders folded out: who leads whom before the game.
                app.insert_resource(screens::menu::ArmyImport {
                    show_leaders: true,
                    ..Default::default()
                });
            }
            Err(e) => stderr_line!("scenario {}: {e}", super::newcomer::MENU_STAGE),
        }
    }
    if let Some(st) = started {
        let asked = args.seats();
        let file = args.load.as_deref().unwrap_or(&st.autosave);
        let (seats, level) = screens::table::seats_for_save(&st.save, file, asked, args.ai)
            .unwrap_or_else(|e| {
                stderr_line!("{e}");
                (asked, args.ai)
            });
        app.insert_resource(screens::table::GameAtLaunch(screens::table::StartGame {
            started: st,
            seats,
            level,
            view: view.as_mut().map(|v| std::mem::take(&mut v.play)),
        }));
    }
    if let Some(e) = editor {
        app.insert_resource(screens::editor::EditorAtLaunch(e));
    }
    if let Some(sel) = view.and_then(|v| v.select) {
        app.insert_resource(selection::SelectAtStart(sel));
    }
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
            stderr_line!("{NO_GPU_HELP}");
            std::process::exit(2);
        }
        default(info);
    }));
}
