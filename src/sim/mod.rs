//! Bevy plugins that work headless (MinimalPlugins + StatesPlugin): components for what is on
//! the table, spawning a loaded scene as entities, and the battle engine's game as states and
//! messages. Line of sight is the game's own index ([`crate::game::Game::sight`]).

pub mod battle;
pub mod components;
pub mod scene;

use bevy::prelude::*;

pub use scene::{ActiveScene, SceneErrors};

/// Every headless simulation plugin.
pub fn plugin(app: &mut App) {
    app.add_plugins((scene::plugin, battle::plugin));
}
