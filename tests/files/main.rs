//! Files and the command line: data files, BSData conversion, roster import, the CLI, hostile and
//! fuzzed inputs.
//!
//! One test binary of a few (each links the engine and Bevy once); each module was a test
//! file of its own.
mod army_rules_cli;
#[path = "../common/battle.rs"]
mod battle;
mod bsdata_convert;
mod cli_attack;
mod data_files;
mod deploy_everywhere;
mod fidelity3_cli;
mod fuzz_inputs;
mod hostile_cli;
mod hostile_data;
mod hostile_files;
mod hostile_round2;
mod roster_import;
mod ruleset_cli;
