//! `wartable simulate`: AI-vs-AI games headless in parallel (rayon), with a progress bar
//! (indicatif, on standard error), reporting win rates, mean VP and mean points destroyed.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::ai::{Ai, GameRecord, play_game};
use crate::data::load_scene;

/// Arguments of `simulate`.
#[derive(Debug, Clone, clap::Args)]
pub struct SimulateArgs {
    /// Scene file ("default" for the built-in default scene).
    pub scene: PathBuf,
    /// Games to play.
    #[arg(long, default_value_t = 10)]
    pub games: u64,
    /// Dice seed of the first game (game k uses seed + k).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// The summary of a batch of games.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// Scene name.
    pub scene: String,
    /// Games played.
    pub games: u64,
    /// Share of games won by players 1 and 2, and drawn.
    pub win_rate: [f64; 2],
    /// Share of games drawn.
    pub draw_rate: f64,
    /// Mean VP of players 1 and 2.
    pub mean_vp: [f64; 2],
    /// Mean points of each player's own units destroyed by the end (player 1's first).
    pub mean_points_lost: [f64; 2],
    /// Commands the engine refused over all games (0 expected).
    pub rejected_commands: usize,
    /// Mean reactions per game (Go to Ground, Smokescreen in the opponent's turn).
    pub mean_reactions: f64,
    /// Wall-clock seconds and games per second.
    pub seconds: f64,
    /// Games per second.
    pub games_per_second: f64,
    /// Worker threads used.
    pub threads: usize,
}

/// Runs `simulate`.
pub fn run(scene_file: &Path, args: &SimulateArgs) -> ExitCode {
    let scene = match load_scene(scene_file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = args.threads {
        builder = builder.num_threads(t.max(1));
    }
    let pool = match builder.build() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("cannot start the worker threads: {e}");
            return ExitCode::FAILURE;
        }
    };
    let bar = if args.quiet {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new(args.games).with_style(
            indicatif::ProgressStyle::with_template("games {bar:40} {pos}/{len} {elapsed}")
                .expect("valid template"),
        )
    };
    let started = Instant::now();
    let records: Vec<GameRecord> = pool.install(|| {
        (0..args.games)
            .into_par_iter()
            .map(|k| {
                let (mut a, mut b) = (Ai::new(), Ai::new());
                let r = play_game(scene.clone(), args.seed + k, [&mut a, &mut b]).1;
                bar.inc(1);
                r
            })
            .collect()
    });
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let n = records.len().max(1) as f64;
    let share =
        |f: &dyn Fn(&GameRecord) -> bool| records.iter().filter(|r| f(r)).count() as f64 / n;
    let mean =
        |f: &dyn Fn(&GameRecord) -> u32| records.iter().map(|r| f64::from(f(r))).sum::<f64>() / n;
    let summary = Summary {
        scene: scene.name.clone(),
        games: args.games,
        win_rate: [
            share(&|r| r.winner == Some(1)),
            share(&|r| r.winner == Some(2)),
        ],
        draw_rate: share(&|r| r.winner.is_none()),
        mean_vp: [mean(&|r| r.vp[0]), mean(&|r| r.vp[1])],
        mean_points_lost: [
            mean(&|r| r.destroyed_points[0]),
            mean(&|r| r.destroyed_points[1]),
        ],
        rejected_commands: records.iter().map(|r| r.rejected.len()).sum(),
        mean_reactions: records.iter().map(|r| r.reactions as f64).sum::<f64>()
            / records.len().max(1) as f64,
        seconds,
        games_per_second: args.games as f64 / seconds.max(1e-9),
        threads: pool.current_num_threads(),
    };
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&summary).expect("plain data serializes")
        );
    } else {
        println!(
            "{}: {} games, P1 wins {:.0}%, P2 wins {:.0}%, draws {:.0}%; mean VP {:.1} - {:.1}; mean points lost {:.0} - {:.0}; {} refused commands; {:.1} reactions per game; {:.2} games/s on {} thread(s)",
            summary.scene,
            summary.games,
            summary.win_rate[0] * 100.0,
            summary.win_rate[1] * 100.0,
            summary.draw_rate * 100.0,
            summary.mean_vp[0],
            summary.mean_vp[1],
            summary.mean_points_lost[0],
            summary.mean_points_lost[1],
            summary.rejected_commands,
            summary.mean_reactions,
            summary.games_per_second,
            summary.threads
        );
    }
    ExitCode::SUCCESS
}
