//! Bevy plugins that work headless (MinimalPlugins + StatesPlugin): components for what is on
//! the table, spawning a loaded scene as entities, and the sight index that follows them.

pub mod battle;
pub mod components;
pub mod scene;
pub mod sight;

use bevy::prelude::*;

pub use scene::{ActiveScene, SceneErrors};

/// Every headless simulation plugin.
pub fn plugin(app: &mut App) {
    app.add_plugins((scene::plugin, sight::plugin, battle::plugin));
}
