//! Bevy plugins that work headless (MinimalPlugins + StatesPlugin): components for what is on
//! the table, and spawning a loaded scene as entities.

pub mod components;
pub mod scene;

use bevy::prelude::*;

pub use scene::{ActiveScene, SceneErrors};

/// Every headless simulation plugin.
pub fn plugin(app: &mut App) {
    app.add_plugins(scene::plugin);
}
