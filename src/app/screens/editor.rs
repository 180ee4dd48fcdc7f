//! Entering the layout editor screen: from the menu or the command line, with the camera
//! nearly straight over the table. The editor itself is [`crate::app::editor`].

use bevy::prelude::*;

use super::Screen;
use crate::app::camera::OrbitCamera;
use crate::app::editor::Editor;
use crate::sim::battle::{ActiveGame, CloseGame};

/// Asks to leave for the layout editor, open on this editor state (from the menu or the
/// command line).
#[derive(Message)]
pub struct OpenEditor(pub Editor);

/// The editor the command line asked for, opened at startup (inserted before the app runs,
/// consumed by a Startup system that sends it as an [`OpenEditor`]).
#[derive(Resource)]
pub struct EditorAtLaunch(pub Editor);

/// Registers [`OpenEditor`] and what happens on entering the editor.
pub fn plugin(app: &mut App) {
    app.add_message::<OpenEditor>()
        .add_systems(Startup, open_at_launch)
        .add_systems(Update, open_editors.run_if(on_message::<OpenEditor>))
        .add_systems(OnEnter(Screen::Editor), enter);
}

fn open_at_launch(world: &mut World) {
    if let Some(EditorAtLaunch(editor)) = world.remove_resource::<EditorAtLaunch>() {
        world.write_message(OpenEditor(editor));
    }
}

/// Opens the editor on each [`OpenEditor`] (the last one stays).
fn open_editors(world: &mut World) {
    let opened: Vec<OpenEditor> = world
        .resource_mut::<Messages<OpenEditor>>()
        .drain()
        .collect();
    for OpenEditor(editor) in opened {
        open_editor(world, editor);
    }
}

/// Opens the editor on `design`: the editor resource and the editor screen.
pub fn open_editor(world: &mut World, editor: Editor) {
    world.insert_resource(editor);
    world
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Editor);
}

/// Pitch (radians above the table) and distance (inches) of the editor's camera: nearly
/// straight down, the whole table in the view between the panels.
pub const EDITOR_VIEW: (f32, f32) = (1.3, 84.0);

fn enter(
    active: Res<ActiveGame>,
    mut close: MessageWriter<CloseGame>,
    mut editor: ResMut<Editor>,
    mut cameras: Query<&mut OrbitCamera>,
) {
    for mut orbit in &mut cameras {
        *orbit = OrbitCamera {
            pitch: EDITOR_VIEW.0,
            distance: EDITOR_VIEW.1,
            ..OrbitCamera::default()
        };
    }
    // The game in progress is in its autosave; the table now shows the design.
    if active.game.is_some() {
        close.write(CloseGame);
        editor
            .log
            .push("The game in progress stays in its autosave (Load game in the menu).".into());
    }
    editor.show_again();
}
