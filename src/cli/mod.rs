//! The command line: `play` (the desktop app, the default), `validate`, `scene --json`, the
//! geometry questions (`los`, `measure`, `coherency`), `attack` and `png-check`. Headless
//! commands print to stdout and return an exit code.
//!
//! Standard output is written through [`write_stdout`]: a command whose output cannot be
//! written does not panic. A closed pipe (`wartable ... | head -1`) ends it quietly with exit
//! status [`BROKEN_PIPE_EXIT`] (141, what a shell reports for a process killed by SIGPIPE);
//! any other write error (`> /dev/full`) prints one line to stderr and exits with 1.

pub mod agent_cmd;
pub mod analyze_cmd;
pub mod attack_cmd;
pub mod datasheets_cmd;
pub mod game_cmds;
pub mod geometry_cmds;
pub mod import_cmd;
pub mod json;
pub mod png_check;
pub mod report;
pub mod rules_cmd;
pub mod simulate_cmd;

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The arguments of `play` and the scene path rule, which belong to the app.
pub use crate::app::{PlayArgs, scene_path};

use crate::data;
use crate::game::sight::UnitSelector;
use crate::rules::Ruleset;

/// wartable: a 3D tabletop simulator for Warhammer 40,000 (10th edition).
#[derive(Debug, Parser)]
#[command(name = "wartable", version, about)]
pub struct Cli {
    /// What to do; without a command, the app opens the default scene.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Open a scene in the desktop app (default: the built-in default scene).
    Play(PlayArgs),
    /// Check data files (datasheets, army, layout, deployment map, mission, scene).
    Validate {
        /// Files to check.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Print a scene with everything resolved.
    Scene {
        /// Scene file ("default" for the built-in default scene).
        scene: PathBuf,
        /// Ruleset to play under, overriding the scene's: 10 (10th edition) or 11.
        #[arg(long)]
        ruleset: Option<Ruleset>,
        /// Print JSON (the only format for now).
        #[arg(long)]
        json: bool,
    },
    /// Line of sight between two units or models: visible, fully visible, Benefit of Cover,
    /// Plunging Fire, with the witness line or the blocker.
    Los {
        /// Scene file ("default" for the built-in default scene).
        scene: PathBuf,
        /// Ruleset to play under, overriding the scene's: 10 (10th edition) or 11.
        #[arg(long)]
        ruleset: Option<Ruleset>,
        /// Observing unit, or one model: UNIT or UNIT#N (N from 0); 1:UNIT picks player 1's.
        #[arg(long)]
        observer: UnitSelector,
        /// Target unit or model, written like --observer.
        #[arg(long)]
        target: UnitSelector,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Closest distance between two models (or the closest models of two units).
    Measure {
        /// Scene file ("default" for the built-in default scene).
        scene: PathBuf,
        /// Ruleset to play under, overriding the scene's: 10 (10th edition) or 11.
        #[arg(long)]
        ruleset: Option<Ruleset>,
        /// First unit or model (UNIT or UNIT#N).
        #[arg(long)]
        from: UnitSelector,
        /// Second unit or model (UNIT or UNIT#N).
        #[arg(long)]
        to: UnitSelector,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Unit Coherency of a unit: which models break it, which to remove at the end of a turn.
    Coherency {
        /// Scene file ("default" for the built-in default scene).
        scene: PathBuf,
        /// Ruleset to play under, overriding the scene's: 10 (10th edition) or 11.
        #[arg(long)]
        ruleset: Option<Ruleset>,
        /// The unit (UNIT).
        #[arg(long)]
        unit: UnitSelector,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Exact distribution of wounds lost and models destroyed when a unit attacks another with
    /// one weapon; with --roll, one seeded resolution and its event log.
    Attack(attack_cmd::AttackArgs),
    /// Play a list of commands headless on a scene, reporting each as accepted or rejected
    /// with the rule broken; `--save` autosaves after every accepted command.
    Run(game_cmds::RunArgs),
    /// Replay a save file and print the game's state (`--json`: battle round, phase, active
    /// player, CP, VP, units alive and the state hash).
    Replay {
        /// The save file.
        save: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Take back the last command of a save file.
    Undo {
        /// The save file.
        save: PathBuf,
    },
    /// Layout analysis of a scene's terrain: share of the table each deployment zone sees
    /// (infantry and vehicle-sized models), open lanes between the zones, who sees each
    /// objective, asymmetry under the 180° rotation, layout problems; `--heatmap` draws it.
    Analyze(analyze_cmd::AnalyzeArgs),
    /// AI-vs-AI games headless in parallel: win rates, mean VP and mean points destroyed.
    Simulate(simulate_cmd::SimulateArgs),
    /// The built-in computer as an agent: it plays one side over the agent protocol (JSON
    /// lines on standard input and output; docs/agent.md), for `simulate --p1-agent`.
    Agent(agent_cmd::AgentArgs),
    /// Datasheets for every faction from a checkout of the BSData wh40k-10e catalogues: one
    /// RON file per faction, with base sizes from the base-size table.
    Datasheets(datasheets_cmd::DatasheetsArgs),
    /// Import a roster (BattleScribe .ros/.rosz, New Recruit JSON, or the official app's text
    /// export) as an army file, resolved against the datasheets.
    Import(import_cmd::ImportArgs),
    /// Every ability, army rule, Detachment rule, Enhancement and Stratagem of an army (or of
    /// every converted faction with --all) with its status: applied by the engine, by hand
    /// (the referee override), or list-building; and the totals.
    Rules(rules_cmd::RulesArgs),
    /// Check that a PNG exists and is not blank (near-zero pixel variance); for CI.
    PngCheck {
        /// The PNG file.
        file: PathBuf,
        /// Smallest acceptable standard deviation of pixel brightness (0-255 scale).
        #[arg(long, default_value_t = png_check::BLANK_STDDEV,
              value_parser = finite_f64_in(0.0, 255.0))]
        min_stddev: f64,
    },
}

/// Exit status of a command whose standard output is a closed pipe (nothing else is reported):
/// 128 + SIGPIPE, as a shell shows for a process the signal ended.
pub const BROKEN_PIPE_EXIT: u8 = 141;

/// Writes `text` and a newline to standard output through one locked handle, and flushes it.
///
/// # Errors
/// Standard output cannot be written (a closed pipe, a full disk): see [`output_failed`].
pub fn write_stdout(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    writeln!(out, "{text}")?;
    out.flush()
}

/// The exit code of a command whose output failed: [`BROKEN_PIPE_EXIT`] without a word for a
/// closed pipe, otherwise 1 after one line on stderr.
pub fn output_failed(e: &io::Error) -> ExitCode {
    if e.kind() == io::ErrorKind::BrokenPipe {
        ExitCode::from(BROKEN_PIPE_EXIT)
    } else {
        // Standard error may be unwritable too: nothing more can be reported then.
        let _ = writeln!(io::stderr(), "wartable: cannot write standard output: {e}");
        ExitCode::FAILURE
    }
}

/// Prints `text` (and a newline) and returns `code`, or the code of the output failure.
pub fn print_then(text: &str, code: ExitCode) -> ExitCode {
    match write_stdout(text) {
        Ok(()) => code,
        Err(e) => output_failed(&e),
    }
}

/// A command-line parser for an `f32` that is finite and within `min..=max`.
pub fn finite_f32_in(
    min: f32,
    max: f32,
) -> impl Fn(&str) -> Result<f32, String> + Clone + Send + Sync + 'static {
    move |s: &str| {
        let v: f32 = s.trim().parse().map_err(|e| format!("{e}"))?;
        if v.is_finite() && (min..=max).contains(&v) {
            Ok(v)
        } else {
            Err(format!("{v} is not a number from {min} to {max}"))
        }
    }
}

/// A command-line parser for an `f64` that is finite and within `min..=max`.
pub fn finite_f64_in(
    min: f64,
    max: f64,
) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync + 'static {
    move |s: &str| {
        let v: f64 = s.trim().parse().map_err(|e| format!("{e}"))?;
        if v.is_finite() && (min..=max).contains(&v) {
            Ok(v)
        } else {
            Err(format!("{v} is not a number from {min} to {max}"))
        }
    }
}

/// Runs a headless command; `None` means the app should run with these play arguments.
pub fn run(cli: Cli) -> Result<ExitCode, Box<PlayArgs>> {
    match cli.command {
        None => Err(Box::default()),
        Some(Command::Play(args)) => Err(Box::new(args)),
        Some(Command::Validate { files }) => Ok(validate(&files)),
        Some(Command::Datasheets(args)) => Ok(datasheets_cmd::run(&args)),
        Some(Command::Import(args)) => Ok(import_cmd::run(&args)),
        Some(Command::Rules(args)) => Ok(rules_cmd::run(&args)),
        Some(Command::Scene {
            scene,
            ruleset,
            json: _,
        }) => Ok(scene_json(&scene_path(Some(&scene)), ruleset)),
        Some(Command::PngCheck { file, min_stddev }) => Ok(png_check::run(&file, min_stddev)),
        Some(Command::Run(args)) => Ok(game_cmds::run(&args)),
        Some(Command::Replay { save, json }) => Ok(game_cmds::replay_cmd(&save, json)),
        Some(Command::Undo { save }) => Ok(game_cmds::undo(&save)),
        Some(Command::Agent(args)) => Ok(agent_cmd::run(&args)),
        Some(Command::Simulate(args)) => {
            Ok(simulate_cmd::run(&scene_path(Some(&args.scene)), &args))
        }
        Some(Command::Analyze(args)) => Ok(analyze_cmd::run(&scene_path(Some(&args.scene)), &args)),
        Some(Command::Attack(args)) => Ok(attack_cmd::run(&scene_path(Some(&args.scene)), &args)),
        Some(Command::Los {
            scene,
            ruleset,
            observer,
            target,
            json,
        }) => Ok(geometry_cmds::los(
            &scene_path(Some(&scene)),
            ruleset,
            &observer,
            &target,
            json,
        )),
        Some(Command::Measure {
            scene,
            ruleset,
            from,
            to,
            json,
        }) => Ok(geometry_cmds::measure(
            &scene_path(Some(&scene)),
            ruleset,
            &from,
            &to,
            json,
        )),
        Some(Command::Coherency {
            scene,
            ruleset,
            unit,
            json,
        }) => Ok(geometry_cmds::coherency(
            &scene_path(Some(&scene)),
            ruleset,
            &unit,
            json,
        )),
    }
}

fn validate(files: &[PathBuf]) -> ExitCode {
    let mut failed = 0;
    for f in files {
        match data::validate_file(f) {
            Ok(v) => {
                if let Err(e) = write_stdout(&format!("{}: ok: {}", f.display(), v.summary)) {
                    return output_failed(&e);
                }
                for w in &v.warnings {
                    stderr_line!("{}: warning: {w}", f.display());
                }
            }
            Err(errors) => {
                failed += 1;
                stderr_line!("{errors}");
            }
        }
    }
    if failed > 0 {
        stderr_line!("{failed} of {} files failed", files.len());
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn scene_json(path: &Path, ruleset: Option<Ruleset>) -> ExitCode {
    match data::load_scene_under(path, ruleset) {
        Ok(scene) => {
            let view = json::SceneJson::from(&scene);
            print_then(
                &serde_json::to_string_pretty(&view).expect("plain data serializes"),
                ExitCode::SUCCESS,
            )
        }
        Err(errors) => {
            stderr_line!("{errors}");
            ExitCode::FAILURE
        }
    }
}
