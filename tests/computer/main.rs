//! The computer opponent: its commands, levels and measured play.
//!
//! One test binary of a few (each links the engine and Bevy once); each module was a test
//! file of its own.
mod agent;
mod ai;
mod ai_army_rules;
mod ai_levels;
#[path = "../common/battle.rs"]
mod battle;
mod blind_spots;
