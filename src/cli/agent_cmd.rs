//! `wartable agent`: the built-in computer player speaking the agent protocol
//! ([`crate::ai::agent`]) on standard input and output, so that another wartable (a newer
//! one, say) can play against this build's computer through `simulate --p1-agent`.
//!
//! It keeps its own copy of the game: the start message's scene, ruleset and seed start it,
//! and the commands each message lists are carried out on it, so its answers are those the
//! computer would give in the same game in-process.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::Value;

use crate::ai::{Ai, Brain, Level};
use crate::data::load_scene_under;
use crate::game::{Command, Game};
use crate::rules::Ruleset;

/// Arguments of `wartable agent`.
#[derive(Debug, Clone, clap::Args)]
pub struct AgentArgs {
    /// How strongly it plays: easy, normal or hard.
    #[arg(long, value_enum, default_value_t = Level::Hard)]
    pub ai: Level,
}

/// The game being played and the computer playing it.
struct Seat {
    game: Game,
    ai: Ai,
    player: u8,
}

/// Starts a game from a start message.
fn start(message: &Value, level: Level) -> Result<Seat, String> {
    let scene: PathBuf = message["scene"]
        .as_str()
        .ok_or("the start message has no scene")?
        .into();
    let ruleset: Ruleset = serde_json::from_value(message["ruleset"].clone())
        .map_err(|e| format!("the start message's ruleset: {e}"))?;
    let seed = message["seed"]
        .as_u64()
        .ok_or("the start message has no seed")?;
    let player = message["player"]
        .as_u64()
        .filter(|p| (1..=2).contains(p))
        .ok_or("the start message's player is not 1 or 2")? as u8;
    let scene = load_scene_under(&scene, Some(ruleset)).map_err(|e| e.to_string())?;
    let (game, _) = Game::start(scene, seed);
    Ok(Seat {
        game,
        ai: Ai::with_level(level),
        player,
    })
}

/// Carries out a message's commands on the copy and gives the answer line.
fn answer(seat: &mut Seat, message: &Value, react: bool) -> Result<String, String> {
    let commands: Vec<Command> = serde_json::from_value(message["commands"].clone())
        .map_err(|e| format!("the message's commands: {e}"))?;
    for (i, c) in commands.iter().enumerate() {
        if let Err(why) = seat.game.apply(c) {
            return Err(format!(
                "command {i} of the message ({}) is refused on this copy of the game: {why}",
                c.kind()
            ));
        }
    }
    let player = seat.player;
    let reply = if react {
        seat.ai.react(&seat.game, player)
    } else {
        Some(seat.ai.next(&seat.game, player))
    };
    Ok(serde_json::to_string(&reply).expect("plain data serializes"))
}

/// Runs `wartable agent`: answers each act and react message until its input closes.
pub fn run(args: &AgentArgs) -> ExitCode {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    let mut seat: Option<Seat> = None;
    for (n, line) in stdin.lock().lines().enumerate() {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                stderr_line!("agent: cannot read line {}: {e}", n + 1);
                return ExitCode::FAILURE;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let step = serde_json::from_str::<Value>(&line)
            .map_err(|e| format!("not JSON: {e}"))
            .and_then(|m| match m["type"].as_str() {
                Some("start") => start(&m, args.ai).map(|s| {
                    seat = Some(s);
                    None
                }),
                Some("end") => {
                    seat = None;
                    Ok(None)
                }
                Some(kind @ ("act" | "react")) => match seat.as_mut() {
                    Some(s) => answer(s, &m, kind == "react").map(Some),
                    None => Err("a question before the start message".into()),
                },
                _ => Err("no known \"type\"".into()),
            });
        match step {
            Ok(Some(reply)) => {
                if writeln!(stdout, "{reply}")
                    .and_then(|()| stdout.flush())
                    .is_err()
                {
                    // The other side has gone: nothing more to answer.
                    return ExitCode::SUCCESS;
                }
            }
            Ok(None) => {}
            Err(why) => {
                stderr_line!("agent: line {}: {why}", n + 1);
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
