//! The battle engine and the rules: attacks and their exact distributions, phases, saves and
//! replays, the engine API and its options, geometry, line of sight, missions, the Rules Commentary
//! examples and the layering of the code.
//!
//! One test binary of a few (each links the engine and Bevy once); each module was a test
//! file of its own.
mod army_rules;
mod attack_distribution;
#[path = "../common/battle.rs"]
mod battle;
mod battle_phases;
mod battle_props;
mod battle_saves;
#[path = "../common/mod.rs"]
mod common;
mod effect_primitives;
mod eleventh_game;
mod eleventh_table;
mod eleventh_units;
mod engine_api;
mod engine_options;
mod fidelity3_allocation;
mod fidelity3_reserves;
mod fidelity3_stratagems;
mod fidelity3_transport;
mod geometry_props;
mod hostile_dice;
mod layering;
mod los_golden;
mod missions;
mod rules_commentary;
mod rules_fidelity;
