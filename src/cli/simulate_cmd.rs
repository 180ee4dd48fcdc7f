//! `wartable simulate`: AI-vs-AI games headless in parallel (rayon), with a progress bar
//! (indicatif, on standard error), reporting win rates (with 95% intervals), mean VP, points
//! destroyed and what the computer players did (charges, Command points, Stratagems by name,
//! objectives held per round, units that never acted), per seat and per computer player
//! when they swap seats (`--alternate`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::ai::agent::AgentBrain;
use crate::ai::{Ai, Brain, GameRecord, Level, play_game};
use crate::data::load_scene_under;

/// Most games `--games` accepts in one run.
pub const MAX_GAMES: u64 = 1_000_000;

/// Most worker threads `--threads` accepts.
pub const MAX_THREADS: usize = 256;

/// Arguments of `simulate`.
#[derive(Debug, Clone, clap::Args)]
pub struct SimulateArgs {
    /// Scene file ("default" for the built-in default scene).
    pub scene: PathBuf,
    /// Ruleset to play under, overriding the scene's: 10 (10th edition) or 11.
    #[arg(long)]
    pub ruleset: Option<crate::rules::Ruleset>,
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
    /// Level of both computer players (easy, normal or hard); `--p1-ai` and `--p2-ai` set
    /// one each.
    #[arg(long, value_enum, default_value_t = Level::Hard)]
    pub ai: Level,
    /// Level of the computer player that starts as player 1 (default: `--ai`).
    #[arg(long, value_enum)]
    pub p1_ai: Option<Level>,
    /// Level of the computer player that starts as player 2 (default: `--ai`).
    #[arg(long, value_enum)]
    pub p2_ai: Option<Level>,
    /// Swap the two computer players' seats every other game (game k odd: the `--p1-ai`
    /// player plays player 2), so that neither keeps the first seat's advantage.
    #[arg(long)]
    pub alternate: bool,
    /// Draw the results as a PNG: win rates with their 95% intervals and mean victory points
    /// per battle round of each computer player.
    #[arg(long, value_name = "PNG")]
    pub report: Option<PathBuf>,
    /// An outside program plays computer player A instead of the `--p1-ai` level: the
    /// command line (run by `sh -c`, one process per game) speaks the agent protocol
    /// (docs/agent.md), e.g. `--p1-agent "wartable agent --ai hard"`.
    #[arg(long, value_name = "CMD")]
    pub p1_agent: Option<String>,
    /// An outside program plays computer player B instead of the `--p2-ai` level.
    #[arg(long, value_name = "CMD")]
    pub p2_agent: Option<String>,
    /// Write each game as a save file in this folder (`game-SEED.ron`, replayable with
    /// `wartable replay` and loadable at the desktop); the folder is made when missing and
    /// no existing file is replaced.
    #[arg(long, value_name = "DIR")]
    pub save_games: Option<PathBuf>,
}

impl SimulateArgs {
    /// The levels of the computer players A (`--p1-ai`) and B (`--p2-ai`).
    pub fn levels(&self) -> [Level; 2] {
        [self.p1_ai.unwrap_or(self.ai), self.p2_ai.unwrap_or(self.ai)]
    }
}

/// The summary of a batch of games.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// Scene name.
    pub scene: String,
    /// Games played.
    pub games: u64,
    /// Share of games won by players 1 and 2 (by seat).
    pub win_rate: [f64; 2],
    /// Share of games drawn.
    pub draw_rate: f64,
    /// Mean VP of players 1 and 2.
    pub mean_vp: [f64; 2],
    /// Mean points of each player's own units destroyed by the end (player 1's first).
    pub mean_points_lost: [f64; 2],
    /// Commands the engine refused over all games (0 expected).
    pub rejected_commands: usize,
    /// The first refused commands, with the rule and the moment (at most 10).
    pub rejected_examples: Vec<String>,
    /// Mean reactions per game (Stratagems in the opponent's turn, Reserves declared then).
    pub mean_reactions: f64,
    /// Wall-clock seconds and games per second.
    pub seconds: f64,
    /// Games per second.
    pub games_per_second: f64,
    /// Mean milliseconds of one game on one thread (seconds x threads / games).
    pub ms_per_game: f64,
    /// Worker threads used.
    pub threads: usize,
    /// The seats swapped every other game (`--alternate`).
    pub alternate: bool,
    /// The two computer players, A (`--p1-ai`, player 1 in even games) and B, whatever seat
    /// they had.
    pub players: [PlayerSummary; 2],
    /// Stratagems used over all games, by name: uses by A and by B.
    pub stratagems: BTreeMap<String, [u64; 2]>,
}

/// What one computer player did over the games of a [`Summary`].
#[derive(Debug, Clone, Serialize)]
pub struct PlayerSummary {
    /// Its level.
    pub level: Level,
    /// The outside program that played instead of the level (`--p1-agent`, `--p2-agent`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// Share of all games it won.
    pub win_rate: f64,
    /// Share of the decided games (not drawn) it won.
    pub decided_win_rate: f64,
    /// 95% Wilson interval of `decided_win_rate`.
    pub decided_win_rate_95: [f64; 2],
    /// Mean share (0 to 1) of its army's points it destroyed (the opponent's army lost).
    pub mean_share_destroyed: f64,
    /// Mean charges declared per game.
    pub mean_charges_declared: f64,
    /// Mean charges made (ended with a charge move) per game.
    pub mean_charges_made: f64,
    /// Mean Command points gained per game (the starting CP included).
    pub mean_cp_gained: f64,
    /// Mean Command points spent per game.
    pub mean_cp_spent: f64,
    /// CP spent over CP gained, over all games.
    pub cp_spent_share: f64,
    /// Mean objective markers it controlled at the end of each battle round.
    pub mean_objectives_per_round: Vec<f64>,
    /// Mean victory points it had at the end of each battle round.
    pub mean_vp_per_round: Vec<f64>,
    /// Mean units per game that never acted.
    pub mean_units_never_acted: f64,
    /// Mean victory points per game by source: primary, secondary, Battle Ready.
    pub mean_vp_by_source: [f64; 3],
}

impl PlayerSummary {
    /// Its level, or the agent's command line in quotes.
    pub fn name(&self) -> String {
        match &self.agent {
            Some(cmd) => format!("agent '{cmd}'"),
            None => self.level.to_string(),
        }
    }
}

/// Writes game `r` as `DIR/game-SEED.ron`: the scene (relative to the folder), the seed,
/// the ruleset when `--ruleset` gave one, and every accepted command.
///
/// # Errors
/// The file exists or cannot be written (the message names it).
fn save_game(
    dir: &Path,
    scene_file: &Path,
    ruleset: Option<crate::rules::Ruleset>,
    r: &GameRecord,
) -> Result<(), String> {
    use crate::game::save::{SaveFile, relative_path, write_save_with};
    let file = dir.join(format!("game-{}.ron", r.seed));
    let save = SaveFile {
        ruleset,
        ..SaveFile::new(relative_path(scene_file, dir), r.seed, r.log.clone())
    };
    write_save_with(&file, &save, crate::data::write::Overwrite::Refuse)
        .map_err(|e| format!("--save-games: {e}"))
}

/// The 95% Wilson score interval of `wins` out of `n` (0 to 1; [0, 1] when `n` is 0).
pub fn wilson_95(wins: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let z = 1.96f64;
    let n = n as f64;
    let p = wins as f64 / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// The fixed-point scale of [`Totals`]'s summed shares (billionths).
const SHARE_SCALE: f64 = 1e9;

/// What is kept of the games played so far: sums, so memory does not grow with the games.
/// Index 0/1 of the `by_*` sums is computer player A/B (not the seat).
#[derive(Debug, Clone, Default)]
struct Totals {
    games: u64,
    wins: [u64; 2],
    draws: u64,
    vp: [u64; 2],
    points_lost: [u64; 2],
    rejected: usize,
    rejected_examples: Vec<String>,
    reactions: usize,
    by_wins: [u64; 2],
    /// Shares of the enemy's points destroyed, summed in billionths: whole numbers, so the
    /// sum (and the JSON) does not depend on the order the worker threads add games in.
    by_share_destroyed: [u64; 2],
    by_charges: [[u64; 2]; 2],
    by_cp: [[u64; 2]; 2],
    by_never_acted: [u64; 2],
    by_vp_source: [[u64; 3]; 2],
    by_objectives: Vec<[f64; 2]>,
    by_vp_round: Vec<[f64; 2]>,
    rounds_seen: Vec<u64>,
    stratagems: BTreeMap<String, [u64; 2]>,
}

impl Totals {
    /// Adds one game; `swapped`: computer player A played player 2.
    fn add(mut self, r: &GameRecord, swapped: bool) -> Self {
        self.games += 1;
        // Seat of computer player A and B.
        let seat = |who: usize| if swapped { 1 - who } else { who };
        match r.winner {
            Some(1) => self.wins[0] += 1,
            Some(2) => self.wins[1] += 1,
            Some(_) => {}
            None => self.draws += 1,
        }
        for who in 0..2 {
            if r.winner == Some(seat(who) as u8 + 1) {
                self.by_wins[who] += 1;
            }
        }
        for p in 0..2 {
            self.vp[p] += u64::from(r.vp[p]);
            self.points_lost[p] += u64::from(r.destroyed_points[p]);
        }
        let st = &r.stats;
        for who in 0..2 {
            let me = seat(who);
            let them = 1 - me;
            self.by_share_destroyed[who] +=
                (st.share_destroyed[them].clamp(0.0, 1.0) * SHARE_SCALE).round() as u64;
            self.by_charges[who][0] += u64::from(st.charges_declared[me]);
            self.by_charges[who][1] += u64::from(st.charges_made[me]);
            self.by_cp[who][0] += u64::from(st.cp_gained[me]);
            self.by_cp[who][1] += u64::from(st.cp_spent[me]);
            self.by_never_acted[who] += u64::from(st.units_never_acted[me]);
            for k in 0..3 {
                self.by_vp_source[who][k] += u64::from(st.vp_by_source[me][k]);
            }
        }
        for (round, held) in st.objectives_per_round.iter().enumerate() {
            if self.by_objectives.len() <= round {
                self.by_objectives.push([0.0; 2]);
                self.by_vp_round.push([0.0; 2]);
                self.rounds_seen.push(0);
            }
            self.rounds_seen[round] += 1;
            for who in 0..2 {
                self.by_objectives[round][who] += f64::from(held[seat(who)]);
                self.by_vp_round[round][who] +=
                    f64::from(st.vp_per_round.get(round).map_or(0, |v| v[seat(who)]));
            }
        }
        for (name, uses) in &st.stratagems {
            let e = self.stratagems.entry(name.clone()).or_default();
            for who in 0..2 {
                e[who] += u64::from(uses[seat(who)]);
            }
        }
        self.rejected += r.rejected.len();
        for why in &r.rejected {
            if self.rejected_examples.len() < 10 {
                self.rejected_examples
                    .push(format!("seed {}: {why}", r.seed));
            }
        }
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
            self.by_wins[p] += o.by_wins[p];
            self.by_share_destroyed[p] += o.by_share_destroyed[p];
            self.by_never_acted[p] += o.by_never_acted[p];
            for k in 0..3 {
                self.by_vp_source[p][k] += o.by_vp_source[p][k];
            }
            for k in 0..2 {
                self.by_charges[p][k] += o.by_charges[p][k];
                self.by_cp[p][k] += o.by_cp[p][k];
            }
        }
        for (round, seen) in o.rounds_seen.iter().enumerate() {
            if self.by_objectives.len() <= round {
                self.by_objectives.push([0.0; 2]);
                self.by_vp_round.push([0.0; 2]);
                self.rounds_seen.push(0);
            }
            self.rounds_seen[round] += seen;
            for who in 0..2 {
                self.by_objectives[round][who] += o.by_objectives[round][who];
                self.by_vp_round[round][who] += o.by_vp_round[round][who];
            }
        }
        for (name, uses) in o.stratagems {
            let e = self.stratagems.entry(name).or_default();
            e[0] += uses[0];
            e[1] += uses[1];
        }
        self.rejected += o.rejected;
        for why in o.rejected_examples {
            if self.rejected_examples.len() < 10 {
                self.rejected_examples.push(why);
            }
        }
        self.reactions += o.reactions;
        self
    }

    /// Computer player `who`'s summary.
    fn player(&self, who: usize, level: Level) -> PlayerSummary {
        let n = self.games.max(1) as f64;
        let decided = self.games - self.draws;
        let per_round = |sums: &[[f64; 2]]| -> Vec<f64> {
            sums.iter()
                .zip(&self.rounds_seen)
                .map(|(s, seen)| s[who] / (*seen).max(1) as f64)
                .collect()
        };
        PlayerSummary {
            level,
            agent: None,
            win_rate: self.by_wins[who] as f64 / n,
            decided_win_rate: self.by_wins[who] as f64 / decided.max(1) as f64,
            decided_win_rate_95: wilson_95(self.by_wins[who], decided),
            mean_share_destroyed: self.by_share_destroyed[who] as f64 / SHARE_SCALE / n,
            mean_charges_declared: self.by_charges[who][0] as f64 / n,
            mean_charges_made: self.by_charges[who][1] as f64 / n,
            mean_cp_gained: self.by_cp[who][0] as f64 / n,
            mean_cp_spent: self.by_cp[who][1] as f64 / n,
            cp_spent_share: self.by_cp[who][1] as f64 / self.by_cp[who][0].max(1) as f64,
            mean_objectives_per_round: per_round(&self.by_objectives),
            mean_vp_per_round: per_round(&self.by_vp_round),
            mean_units_never_acted: self.by_never_acted[who] as f64 / n,
            mean_vp_by_source: self.by_vp_source[who].map(|v| v as f64 / n),
        }
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
        stderr_line!("--games must be from 1 to {MAX_GAMES}, got {}", args.games);
        return ExitCode::FAILURE;
    }
    if let Err(e) = last_seed(args.seed, args.games) {
        stderr_line!("{e}");
        return ExitCode::FAILURE;
    }
    let scene = match load_scene_under(scene_file, args.ruleset) {
        Ok(s) => s,
        Err(e) => {
            stderr_line!("{e}");
            return ExitCode::FAILURE;
        }
    };
    // Core Rules: Deploy Armies. A game starts with every model wholly within its zone.
    let outside: Vec<&String> = scene.armies.iter().flat_map(|a| &a.outside_zone).collect();
    if !outside.is_empty() {
        for line in &outside {
            stderr_line!("{}: {line}", scene_file.display());
        }
        stderr_line!(
            "{}: simulate plays games from a legal deployment; place these units within their \
             zones",
            scene_file.display()
        );
        return ExitCode::FAILURE;
    }
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = args.threads {
        builder = builder.num_threads(t.clamp(1, MAX_THREADS));
    }
    let pool = match builder.build() {
        Ok(p) => p,
        Err(e) => {
            stderr_line!("cannot start the worker threads: {e}");
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
    if let Some(dir) = &args.save_games
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        stderr_line!(
            "{}: cannot make the folder for the saves: {e}",
            dir.display()
        );
        return ExitCode::FAILURE;
    }
    let started = Instant::now();
    let levels = args.levels();
    let agents = [args.p1_agent.clone(), args.p2_agent.clone()];
    let ruleset = scene.ruleset();
    // Each game is folded into running sums as it ends: nothing is kept per game.
    let totals: Result<Totals, String> = pool.install(|| {
        (0..args.games)
            .into_par_iter()
            .map(|k| {
                let swapped = args.alternate && k % 2 == 1;
                // In range: last_seed checked seed + games - 1 above.
                let seed = args.seed + k;
                let brain = |who: usize| -> Result<Box<dyn Brain>, String> {
                    let player = if swapped {
                        2 - who as u8
                    } else {
                        who as u8 + 1
                    };
                    Ok(match &agents[who] {
                        Some(cmd) => {
                            Box::new(AgentBrain::spawn(cmd, player, scene_file, ruleset, seed)?)
                        }
                        None => Box::new(Ai::with_level(levels[who])),
                    })
                };
                let (mut a, mut b) = (brain(0)?, brain(1)?);
                let brains: [&mut dyn Brain; 2] = if swapped {
                    [b.as_mut(), a.as_mut()]
                } else {
                    [a.as_mut(), b.as_mut()]
                };
                let r = play_game(scene.clone(), seed, brains).1;
                if let Some(dir) = &args.save_games {
                    save_game(dir, scene_file, args.ruleset, &r)?;
                }
                bar.inc(1);
                Ok(Totals::default().add(&r, swapped))
            })
            .try_reduce(Totals::default, |a, b| Ok(a.merge(b)))
    });
    let totals = match totals {
        Ok(t) => t,
        Err(e) => {
            bar.finish_and_clear();
            stderr_line!("{e}");
            return ExitCode::FAILURE;
        }
    };
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
        rejected_examples: totals.rejected_examples.clone(),
        mean_reactions: totals.reactions as f64 / n,
        seconds,
        games_per_second: args.games as f64 / seconds.max(1e-9),
        ms_per_game: seconds * 1000.0 * pool.current_num_threads() as f64 / n,
        threads: pool.current_num_threads(),
        alternate: args.alternate,
        players: [0, 1].map(|who| PlayerSummary {
            agent: agents[who].clone(),
            ..totals.player(who, levels[who])
        }),
        stratagems: totals.stratagems.clone(),
    };
    if let Some(png) = &args.report
        && let Err(e) = super::report::draw(&summary, png)
    {
        stderr_line!("{}: cannot draw the report: {e}", png.display());
        return ExitCode::FAILURE;
    }
    let out = if args.json {
        let mut v = serde_json::to_value(&summary).expect("plain data serializes");
        v["ruleset"] = serde_json::json!(scene.ruleset());
        serde_json::to_string_pretty(&v).expect("plain data serializes")
    } else {
        format!(
            "{}: {} games, {} (A) vs {} (B){}: A wins {:.0}% of decided games [{:.0}-{:.0}%], P1 wins {:.0}%, P2 wins {:.0}%, draws {:.0}%; mean VP {:.1} - {:.1}; mean points lost {:.0} - {:.0}; points destroyed A {:.0}% B {:.0}%; CP spent/gained A {:.0}% B {:.0}%; {} refused commands; {:.1} reactions per game; {:.2} games/s on {} thread(s)",
            summary.scene,
            summary.games,
            summary.players[0].name(),
            summary.players[1].name(),
            if summary.alternate {
                " alternating seats"
            } else {
                ""
            },
            summary.players[0].decided_win_rate * 100.0,
            summary.players[0].decided_win_rate_95[0] * 100.0,
            summary.players[0].decided_win_rate_95[1] * 100.0,
            summary.win_rate[0] * 100.0,
            summary.win_rate[1] * 100.0,
            summary.draw_rate * 100.0,
            summary.mean_vp[0],
            summary.mean_vp[1],
            summary.mean_points_lost[0],
            summary.mean_points_lost[1],
            summary.players[0].mean_share_destroyed * 100.0,
            summary.players[1].mean_share_destroyed * 100.0,
            summary.players[0].cp_spent_share * 100.0,
            summary.players[1].cp_spent_share * 100.0,
            summary.rejected_commands,
            summary.mean_reactions,
            summary.games_per_second,
            summary.threads
        )
    };
    super::print_then(&out, ExitCode::SUCCESS)
}
