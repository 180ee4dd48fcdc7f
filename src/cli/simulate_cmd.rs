//! `wartable simulate`: AI-vs-AI games headless in parallel (rayon), with a progress bar
//! (indicatif, on standard error), reporting win rates, mean VP and mean points destroyed.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::ai::{Ai, GameRecord, play_game};
use crate::data::load_scene;

/// Most games `--games` accepts in one run.
pub const MAX_GAMES: u64 = 1_000_000;

/// Most worker threads `--threads` accepts.
pub const MAX_THREADS: usize = 256;

/// Arguments of `simulate`.
#[derive(Debug, Clone, clap::Args)]
pub struct SimulateArgs {
    /// Scene file ("default" for the built-in default scene).
    pub scene: PathBuf,
    /// Games to play (1 to 1,000,000).
    #[arg(long, default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    pub games: u64,
    /// Dice seed of the first game (game k uses seed + k; the last seed must fit in 64 bits).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads, 1 to 256 (default: one per core).
    #[arg(long,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new()
              .range(1..=MAX_THREADS as u64))]
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

/// What is kept of the games played so far: sums, so memory does not grow with the games.
#[derive(Debug, Clone, Copy, Default)]
struct Totals {
    games: u64,
    wins: [u64; 2],
    draws: u64,
    vp: [u64; 2],
    points_lost: [u64; 2],
    rejected: usize,
    reactions: usize,
}

impl Totals {
    fn add(mut self, r: &GameRecord) -> Self {
        self.games += 1;
        match r.winner {
            Some(1) => self.wins[0] += 1,
            Some(2) => self.wins[1] += 1,
            Some(_) => {}
            None => self.draws += 1,
        }
        for p in 0..2 {
            self.vp[p] += u64::from(r.vp[p]);
            self.points_lost[p] += u64::from(r.destroyed_points[p]);
        }
        self.rejected += r.rejected.len();
        self.reactions += r.reactions;
        self
    }

    fn merge(mut self, o: Self) -> Self {
        self.games += o.games;
        self.draws += o.draws;
        for p in 0..2 {
            self.wins[p] += o.wins[p];
            self.vp[p] += o.vp[p];
            self.points_lost[p] += o.points_lost[p];
        }
        self.rejected += o.rejected;
        self.reactions += o.reactions;
        self
    }
}

/// The seed of the last of `games` games from `seed` (game k uses seed + k), or an error when
/// it does not fit in 64 bits.
///
/// # Errors
/// `seed + games - 1` overflows `u64`.
pub fn last_seed(seed: u64, games: u64) -> Result<u64, String> {
    seed.checked_add(games.saturating_sub(1)).ok_or_else(|| {
        format!(
            "--seed {seed} with --games {games}: game seeds would pass {}; use a seed of at \
             most {}",
            u64::MAX,
            u64::MAX - games.saturating_sub(1)
        )
    })
}

/// Runs `simulate`.
pub fn run(scene_file: &Path, args: &SimulateArgs) -> ExitCode {
    if args.games == 0 || args.games > MAX_GAMES {
        eprintln!("--games must be from 1 to {MAX_GAMES}, got {}", args.games);
        return ExitCode::FAILURE;
    }
    if let Err(e) = last_seed(args.seed, args.games) {
        eprintln!("{e}");
        return ExitCode::FAILURE;
    }
    let scene = match load_scene(scene_file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = args.threads {
        builder = builder.num_threads(t.clamp(1, MAX_THREADS));
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
    // Each game is folded into running sums as it ends: nothing is kept per game.
    let totals: Totals = pool.install(|| {
        (0..args.games)
            .into_par_iter()
            .map(|k| {
                let (mut a, mut b) = (Ai::new(), Ai::new());
                // In range: last_seed checked seed + games - 1 above.
                let r = play_game(scene.clone(), args.seed + k, [&mut a, &mut b]).1;
                bar.inc(1);
                Totals::default().add(&r)
            })
            .reduce(Totals::default, Totals::merge)
    });
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let n = totals.games.max(1) as f64;
    let summary = Summary {
        scene: scene.name.clone(),
        games: args.games,
        win_rate: [totals.wins[0] as f64 / n, totals.wins[1] as f64 / n],
        draw_rate: totals.draws as f64 / n,
        mean_vp: [totals.vp[0] as f64 / n, totals.vp[1] as f64 / n],
        mean_points_lost: [
            totals.points_lost[0] as f64 / n,
            totals.points_lost[1] as f64 / n,
        ],
        rejected_commands: totals.rejected,
        mean_reactions: totals.reactions as f64 / n,
        seconds,
        games_per_second: args.games as f64 / seconds.max(1e-9),
        threads: pool.current_num_threads(),
    };
    let out = if args.json {
        serde_json::to_string_pretty(&summary).expect("plain data serializes")
    } else {
        format!(
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
        )
    };
    super::print_then(&out, ExitCode::SUCCESS)
}
