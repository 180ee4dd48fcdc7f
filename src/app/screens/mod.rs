//! The app's screens: the main menu over the table, a game on the table, and the layout
//! editor. Each screen's module says how the app enters it.

pub mod editor;
pub mod menu;
pub mod table;

use bevy::prelude::*;

/// Which screen the app shows.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Screen {
    /// The main menu over the table.
    #[default]
    Menu,
    /// A game on the table.
    Table,
    /// The layout editor.
    Editor,
}

/// Registers the screen state and the screens.
pub fn plugin(app: &mut App) {
    app.init_state::<Screen>()
        .add_plugins((menu::plugin, table::plugin, editor::plugin));
}
