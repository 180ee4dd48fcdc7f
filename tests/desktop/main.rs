//! The desktop without a window: play panels, drafts, the dice log, headless Bevy apps, the mission
//! menu and the layout designer.
//!
//! One test binary of a few (each links the engine and Bevy once); each module was a test
//! file of its own.
#[path = "../common/battle.rs"]
mod battle;
mod desktop_play;
mod headless;
mod layout_design;
mod layout_diagrams;
mod menu_files;
mod mission_menu;
mod newcomer;
