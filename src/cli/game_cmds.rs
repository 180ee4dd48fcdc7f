//! `wartable run`, `wartable replay` and `wartable undo`: the battle engine headless.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::json;

use crate::ai::{Ai, Brain};
use crate::data::load_scene_under;
use crate::data::source::load;
use crate::game::save::{SaveFile, load_save, relative_path, replay, write_save};
use crate::game::{Command, Game};

#[derive(Debug, Clone, clap::Args)]
/// Arguments of `wartable run`.
pub struct RunArgs {
    /// Scene file to play on.
    pub scene: PathBuf,
    /// Ruleset to play under, overriding the scene's: 10 (10th edition) or 11.
    #[arg(long)]
    pub ruleset: Option<crate::rules::Ruleset>,
    /// RON list of commands to apply, in order.
    #[arg(long)]
    pub commands: PathBuf,
    /// Dice seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Save file written after every accepted command (the autosave).
    #[arg(long)]
    pub save: Option<PathBuf>,
    /// Replace the `--save` file when one is already there (without it, an existing file is
    /// kept and nothing is played).
    #[arg(long)]
    pub force: bool,
    /// Print every event of every accepted command.
    #[arg(long)]
    pub events: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// The computer plays this player (1, 2, or `both`): before each listed command, and
    /// after the last, it gives its own commands while that player must act, and it may
    /// answer a listed attack with Go to Ground or Smokescreen. Its commands go into the save.
    /// With `both` it plays the whole game (an empty command list plays it to the end).
    #[arg(long, value_parser = parse_computer)]
    pub computer: Option<ComputerPlays>,
    /// With `--computer 1|2`: the computer stops in its turn whenever the other player may
    /// react (Fire Overwatch after its move, Heroic Intervention after its charge,
    /// Counter-offensive, Rapid Ingress...), and the run ends there listing the reactions.
    /// The next listed command is the answer: a reaction, or `Pass` to let the computer go on.
    #[arg(long)]
    pub ask_reactions: bool,
    /// How strongly the computer plays: easy, normal or hard.
    #[arg(long, value_enum, default_value_t = crate::ai::Level::Hard)]
    pub ai: crate::ai::Level,
    /// Print every unit's live models (centre positions, inches) and the objective markers
    /// at the end (with `--json`: a "board" entry).
    #[arg(long)]
    pub board: bool,
    /// Wait this long after each command (milliseconds), to watch a game or test crashes.
    #[arg(long, hide = true, default_value_t = 0)]
    pub step_delay_ms: u64,
}

/// Who the computer plays in `wartable run` (`--computer 1|2|both`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ComputerPlays {
    /// One player (1 or 2).
    One(u8),
    /// Both players.
    Both,
}

impl ComputerPlays {
    /// The players it plays.
    pub fn players(self) -> Vec<u8> {
        match self {
            ComputerPlays::One(p) => vec![p],
            ComputerPlays::Both => vec![1, 2],
        }
    }
}

/// Reads `--computer`: 1, 2 or `both`.
fn parse_computer(s: &str) -> Result<ComputerPlays, String> {
    match s.trim() {
        "1" => Ok(ComputerPlays::One(1)),
        "2" => Ok(ComputerPlays::One(2)),
        "both" => Ok(ComputerPlays::Both),
        other => Err(format!("'{other}' is not 1, 2 or both")),
    }
}

/// A command applied (true) or refused, reported under `label`.
type Outcome<'a> = dyn FnMut(&mut Game, &Command, String, &mut SaveFile) -> bool + 'a;

/// The reaction window of `run --computer N --ask-reactions`: the reactions open to the other
/// player where the computer stopped, waiting for the next listed command (None: no window
/// open).
type Window = std::cell::RefCell<Option<Vec<Command>>>;

/// The computer's turn in `wartable run --computer`: its reactions while the other player
/// acts (Fire Overwatch, Heroic Intervention...), then its commands while its player must act
/// (after three refusals it stops, in case it and the engine disagree).
fn computer_plays(
    game: &mut Game,
    save: &mut SaveFile,
    computers: &mut [(u8, Ai)],
    outcome: &mut Outcome<'_>,
    stopped: &dyn Fn() -> bool,
    window: Option<&Window>,
) {
    if let [one] = computers {
        computer_plays_one(game, save, one, outcome, stopped, window);
        return;
    }
    // Both players: each acts in turn until the game is over (or the computers stall).
    let mut refused = 0;
    while let Some(acting) = game.acting_player() {
        if refused >= 3 || stopped() {
            break;
        }
        let Some((_, ai)) = computers.iter_mut().find(|(p, _)| *p == acting) else {
            break;
        };
        let c = ai.next(game, acting);
        if !outcome(game, &c, "  AI".into(), save) {
            refused += 1;
            let end = crate::ai::unstick(game);
            outcome(game, &end, "  AI".into(), save);
            continue;
        }
        // The other computer's reactions.
        let other = crate::rules::phase::opponent(acting);
        if let Some((_, ai)) = computers.iter_mut().find(|(p, _)| *p == other) {
            for _ in 0..crate::ai::MAX_REACTIONS_PER_COMMAND {
                if game.acting_player().is_none_or(|a| a == other) {
                    break;
                }
                let Some(r) = ai.react(game, other) else {
                    break;
                };
                if !outcome(game, &r, "  AI".into(), save) {
                    break;
                }
            }
        }
    }
}

/// [`computer_plays`] for a computer playing one player. With a reaction `window`, it stops
/// after any of its commands that leaves the other player a reaction
/// ([`Game::reactions_open`]) and opens the window with them.
fn computer_plays_one(
    game: &mut Game,
    save: &mut SaveFile,
    (p, ai): &mut (u8, Ai),
    outcome: &mut Outcome<'_>,
    stopped: &dyn Fn() -> bool,
    window: Option<&Window>,
) {
    if window.is_some_and(|w| w.borrow().is_some()) {
        return;
    }
    let mut refused = 0;
    for _ in 0..crate::ai::MAX_REACTIONS_PER_COMMAND {
        if game.acting_player().is_none_or(|a| a == *p) || stopped() {
            break;
        }
        let Some(r) = ai.react(game, *p) else {
            break;
        };
        if !outcome(game, &r, "  AI".into(), save) {
            break;
        }
    }
    while game.acting_player() == Some(*p) && refused < 3 && !stopped() {
        let c = ai.next(game, *p);
        if !outcome(game, &c, "  AI".into(), save) {
            refused += 1;
            let end = crate::ai::unstick(game);
            outcome(game, &end, "  AI".into(), save);
            continue;
        }
        if let Some(w) = window {
            let open = game.reactions_open(crate::rules::phase::opponent(*p));
            if !open.is_empty() && game.acting_player() == Some(*p) {
                *w.borrow_mut() = Some(open);
                return;
            }
        }
    }
}

/// Checks, before a game is played, that the autosave `file` can be written: nothing is there
/// (or, with `force`, a regular file), its folder exists, and a file can be made there (the
/// probe is a fresh temporary file, removed at once; nothing is left behind and no folder is
/// created).
fn check_save_target(file: &Path, force: bool) -> Result<(), String> {
    use crate::data::write::{Overwrite, check_target};
    check_target(file, Overwrite::when(force)).map_err(|e| e.to_string())?;
    let folder = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(format!(
            "{}: cannot save there: the folder {} does not exist",
            file.display(),
            folder.display()
        ));
    }
    let probe = folder.join(format!(".wartable-probe-{}.tmp", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .map_err(|e| {
            format!(
                "{}: cannot save there: cannot write in the folder {}: {e}",
                file.display(),
                folder.display()
            )
        })?;
    std::fs::remove_file(&probe).map_err(|e| format!("{}: {e}", probe.display()))
}

/// Runs `wartable run`.
///
/// With `--save`, the save's folder is checked before anything is played; if writing the save
/// fails during the game, the run stops there with one error and exit status 1 (the save keeps
/// the commands accepted before that one).
pub fn run(args: &RunArgs) -> ExitCode {
    let scene = match load_scene_under(&args.scene, args.ruleset) {
        Ok(s) => s,
        Err(e) => {
            stderr_line!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let commands: Vec<Command> = match load(&args.commands) {
        Ok(c) => c,
        Err(e) => {
            stderr_line!("{e}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(out) = &args.save
        && let Err(e) = check_save_target(out, args.force)
    {
        stderr_line!("{e}");
        return ExitCode::FAILURE;
    }
    let scene_ref = match &args.save {
        Some(out) => relative_path(&args.scene, out.parent().unwrap_or(Path::new("."))),
        None => args.scene.to_string_lossy().into_owned(),
    };
    let mut save = SaveFile {
        computer: match args.computer {
            Some(ComputerPlays::One(player)) => Some(args.ai.seat(player)),
            // A save of a computer-against-computer game is played on by people.
            _ => None,
        },
        ruleset: args.ruleset,
        ..SaveFile::new(scene_ref, args.seed, Vec::new())
    };
    let (mut game, start_events) = Game::start(scene, args.seed);
    let mut results = Vec::new();
    let mut text = Vec::new();
    if args.events {
        text.extend(start_events.iter().map(ToString::to_string));
    }
    let mut rejected = 0;
    let mut computer: Vec<(u8, Ai)> = args
        .computer
        .map(ComputerPlays::players)
        .unwrap_or_default()
        .into_iter()
        .map(|p| (p, Ai::with_level(args.ai)))
        .collect();
    // Set when the autosave fails: the run stops at once.
    let save_failed = std::cell::RefCell::new(None::<String>);
    let stopped = || save_failed.borrow().is_some();
    let window: Window = std::cell::RefCell::new(None);
    let asking = (args.ask_reactions && computer.len() == 1).then_some(&window);
    let mut outcome = |game: &mut Game, c: &Command, label: String, save: &mut SaveFile| {
        // Listed commands are numbered; the computer's are labelled "AI ...".
        let index = label
            .trim()
            .parse::<usize>()
            .map_or_else(|_| json!(label.trim()), |i| json!(i));
        let listed = index.is_u64();
        // A listed Pass with no attacks waiting declines an open reaction window: nothing is
        // applied and the computer goes on.
        if listed
            && window.borrow_mut().take().is_some()
            && matches!(c, Command::Pass { .. })
            && game.pending_shot.is_none()
        {
            text.push(format!(
                "{label} Pass (player {}): no reaction, the computer goes on",
                c.player()
            ));
            results.push(json!({"index": index, "command": "Pass", "what": "no reaction", "player": c.player(), "accepted": true}));
            return true;
        }
        let accepted = match game.apply(c) {
            Ok(events) => {
                save.commands.push(c.clone());
                if let Some(out) = &args.save
                    && let Err(e) = write_save(out, save)
                {
                    *save_failed.borrow_mut() = Some(format!(
                        "cannot write the save: {e}; stopped after command {} (the save holds \
                         the {} commands before it)",
                        label.trim(),
                        save.commands.len() - 1
                    ));
                }
                text.push(format!(
                    "{label} {} (player {}): accepted",
                    crate::ai::summary(c),
                    c.player()
                ));
                if args.events {
                    text.extend(events.iter().map(|e| format!("       {e}")));
                }
                let mut r = json!({"index": index, "command": c.kind(), "what": crate::ai::summary(c), "player": c.player(), "accepted": true});
                if args.events {
                    r["events"] = json!(events);
                }
                results.push(r);
                true
            }
            Err(why) => {
                text.push(format!(
                    "{label} {} (player {}): REJECTED: {why}",
                    crate::ai::summary(c),
                    c.player()
                ));
                results.push(json!({
                    "index": index, "command": c.kind(), "what": crate::ai::summary(c), "player": c.player(), "accepted": false,
                    "rule": why.rule, "reason": why.reason,
                }));
                false
            }
        };
        if args.step_delay_ms > 0 {
            std::thread::sleep(std::time::Duration::from_millis(args.step_delay_ms));
        }
        accepted
    };
    // The computer plays before each listed command and after the last (None).
    for (i, c) in commands.iter().map(Some).chain([None]).enumerate() {
        computer_plays(
            &mut game,
            &mut save,
            &mut computer,
            &mut outcome,
            &stopped,
            asking,
        );
        let Some(c) = c else {
            break;
        };
        if stopped() {
            break;
        }
        if !outcome(&mut game, c, format!("{i:>4}"), &mut save) {
            rejected += 1;
        }
        if stopped() {
            break;
        }
    }
    if let Some(e) = save_failed.borrow_mut().take() {
        stderr_line!("{e}");
        return ExitCode::FAILURE;
    }
    let summary = game.summary();
    // Where the computer stopped for the other player's reaction.
    let waiting = window.borrow().clone().map(|open| {
        let player = open.first().map_or(0, Command::player);
        (player, open)
    });
    if args.json {
        let mut out = json!({
            "ruleset": game.scene.ruleset(),
            "commands": commands.len(),
            "accepted": commands.len() - rejected,
            "rejected": rejected,
            "results": results,
            "final": summary,
        });
        if args.board {
            out["board"] = game.board();
        }
        if let Some((player, open)) = &waiting {
            out["waiting"] = json!({"player": player, "reactions": open});
        }
        super::print_then(
            &serde_json::to_string_pretty(&out).expect("json"),
            ExitCode::SUCCESS,
        )
    } else {
        text.push(format!(
            "{} of {} commands accepted; now {}; CP {:?}, VP {:?}; state {}",
            commands.len() - rejected,
            commands.len(),
            game.describe_now(),
            game.cp,
            game.vp,
            game.state_hash()
        ));
        if args.board {
            text.push(serde_json::to_string_pretty(&game.board()).expect("plain data serializes"));
        }
        if let Some((player, open)) = &waiting {
            text.push(format!(
                "waiting for player {player}: the computer stopped where you may react; list one \
                 of these next, or Pass to let it go on:"
            ));
            text.extend(open.iter().map(|c| {
                format!(
                    "  {}  {}",
                    crate::ai::summary(c),
                    ron::to_string(c).expect("commands serialize")
                )
            }));
        }
        super::print_then(&text.join("\n"), ExitCode::SUCCESS)
    }
}

/// Runs `wartable replay`: loads a save, replays it and prints the state.
pub fn replay_cmd(file: &Path, json_out: bool) -> ExitCode {
    match load_save(file) {
        Ok((game, save)) => {
            let out = if json_out {
                let mut v = game.summary();
                v["ruleset"] = json!(game.scene.ruleset());
                serde_json::to_string_pretty(&v).expect("json")
            } else {
                format!(
                    "{}: {} commands replayed; now {}; CP {:?}, VP {:?}; state {}",
                    file.display(),
                    save.commands.len(),
                    game.describe_now(),
                    game.cp,
                    game.vp,
                    game.state_hash()
                )
            };
            super::print_then(&out, ExitCode::SUCCESS)
        }
        Err(e) => {
            stderr_line!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs `wartable undo`: removes the last command of a save (replaying the rest to check it).
///
/// The save is rewritten last, after the report is printed: a call that fails (exit status not
/// 0, the report unwritable included) leaves the save as it was, since the save is replaced
/// atomically, so retrying a failed undo never takes back two commands.
pub fn undo(file: &Path) -> ExitCode {
    let mut save: SaveFile = match load(file) {
        Ok(s) => s,
        Err(e) => {
            stderr_line!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let Some(last) = save.commands.pop() else {
        stderr_line!("{}: nothing to undo", file.display());
        return ExitCode::FAILURE;
    };
    let scene = match save.load_scene(file) {
        Ok(s) => s,
        Err(e) => {
            stderr_line!("{e}");
            return ExitCode::FAILURE;
        }
    };
    match replay(scene, save.seed, &save.commands) {
        Ok((game, _)) => {
            let report = format!(
                "undid {} (player {}); now {}; state {}",
                last.kind(),
                last.player(),
                game.describe_now(),
                game.state_hash()
            );
            if let Err(e) = super::write_stdout(&report) {
                return super::output_failed(&e);
            }
            if let Err(e) = write_save(file, &save) {
                stderr_line!("cannot write the save: {e}; nothing was undone");
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        Err((i, r)) => {
            stderr_line!("{}: command {i} is rejected on replay: {r}", file.display());
            ExitCode::FAILURE
        }
    }
}
