//! The desktop app: window, camera, table meshes, picking and the egui overlay, one plugin per
//! feature module (`fn plugin(app: &mut App)`), composed by [`plugin`]. The screens (menu,
//! table, editor) are in [`screens`], the egui panels in [`hud`], the play logic without
//! drawing in [`play`]; [`run`] opens the window.

pub mod args;
pub mod camera;
pub mod computer;
pub mod editor;
pub mod eye;
pub mod figures;
pub mod hud;
mod launch;
pub mod mesh;
pub mod newcomer;
pub mod overlay;
pub mod pairings;
pub mod pick;
pub mod play;
pub mod reaction;
pub mod scenario;
pub mod screens;
pub mod screenshot;
pub mod selection;
pub mod table;
pub mod ui;

pub use args::{PlayArgs, scene_path};
pub use launch::{NO_GPU_HELP, run};
/// The main menu's module under its former path (`app::menu`), for callers not yet moved to
/// [`screens::menu`].
pub use screens::menu;

use bevy::prelude::*;

/// Every feature plugin of the desktop app, with the headless simulation under them (the
/// window, egui and picking plugins are added by [`run`]).
pub fn plugin(app: &mut App) {
    app.add_plugins((
        crate::sim::plugin,
        camera::plugin,
        table::plugin,
        selection::plugin,
        screens::plugin,
        play::plugin,
        hud::plugin,
        overlay::plugin,
        eye::plugin,
        screenshot::plugin,
        editor::plugin,
        computer::plugin,
        reaction::plugin,
    ));
}
