//! The agent protocol: an outside program (a script, a learning agent, a language model, an
//! older wartable) plays one side of a game over JSON lines on its standard input and output.
//!
//! The engine side writes one JSON object per line to the agent's standard input:
//! - `{"type": "start", ...}` once, before anything else: the protocol version, the player
//!   the agent plays, the scene file, the ruleset and the dice seed, so that an agent that
//!   knows the rules can set up its own copy of the game;
//! - `{"type": "act", ...}` when the agent's player must give a command now: the commands the
//!   game accepted since the last message (both players', in order), the refusal of the agent's
//!   last command if it was refused, the moment (`now`), the Command points and victory points,
//!   the board ([`Game::board`]) and the player's options ([`options`]). The agent answers
//!   with one line: one command, as the save files spell it but in JSON
//!   (`{"EndPhase": {"player": 2}}`);
//! - `{"type": "react", ...}`, the same, when the other player is acting and the agent's
//!   player may react (Fire Overwatch, Heroic Intervention, Rapid Ingress...): the agent
//!   answers with one command, or `null` to let the game go on;
//! - `{"type": "end", ...}` when the game is over: the last commands, the winner and the
//!   victory points. No answer.
//!
//! [`AgentBrain`] is the engine side (`simulate --p1-agent/--p2-agent`); `wartable agent`
//! is the built-in computer as an agent. docs/agent.md describes the messages field by field.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Stdio};

use serde_json::{Value, json};

use super::{Ai, Brain, Level, legal};
use crate::game::{Command, Game};
use crate::rules::Ruleset;

/// The protocol's version, sent in the start message; it changes when a message changes
/// incompatibly.
pub const PROTOCOL_VERSION: u32 = 1;

/// Most characters of an agent's answer line: a longer line is a failure, not a command.
pub const MAX_ANSWER_CHARS: usize = 1 << 20;

/// What the engine asks of the agent in a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    /// Its player must give a command now.
    Act,
    /// The other player is acting; its player may react (or answer `null`).
    React,
}

impl Ask {
    /// The message's `type`.
    pub fn name(self) -> &'static str {
        match self {
            Ask::Act => "act",
            Ask::React => "react",
        }
    }
}

/// The start message: protocol version, `player` (1 or 2), the `scene` file as the engine
/// loaded it, the `ruleset` and the dice `seed`.
pub fn start_message(player: u8, scene: &Path, ruleset: Ruleset, seed: u64) -> Value {
    json!({
        "type": "start",
        "protocol": PROTOCOL_VERSION,
        "player": player,
        "scene": scene.to_string_lossy(),
        "ruleset": ruleset,
        "seed": seed,
    })
}

/// An act or react message for `player`: `commands` accepted since the last message,
/// `refused` (the rule that refused the agent's last command), the moment, CP and VP, the
/// board and the options ([`options`], with `hint` first among the ready commands).
pub fn turn_message(
    ask: Ask,
    game: &Game,
    player: u8,
    commands: &[Command],
    refused: Option<&str>,
    hint: Option<Command>,
) -> Value {
    json!({
        "type": ask.name(),
        "player": player,
        "commands": commands,
        "refused": refused,
        "now": game.describe_now(),
        "battle_round": game.battle_round,
        "cp": game.cp,
        "vp": game.vp,
        "board": game.board(),
        "options": options(game, player, hint),
    })
}

/// The end message: the last `commands`, the winner (null: a draw) and the victory points.
pub fn end_message(game: &Game, commands: &[Command]) -> Value {
    json!({
        "type": "end",
        "commands": commands,
        "winner": game.winner,
        "vp": game.vp,
    })
}

/// `player`'s options now, from the engine's options API ([`Game::unit_options`],
/// [`Game::charge_targets`], [`Game::stratagem_options`]):
/// - `ready`: whole commands the engine accepts now ([`Game::check`]): `hint` first when it
///   is accepted (the built-in `easy` computer's choice), then End Phase and Pass where they
///   are accepted, then Remain Stationary for each unit that may;
/// - `units`: for each of its units with an order open, what it may do (the
///   [`crate::game::UnitOptions`] flags, and the charge targets with their distances in
///   inches);
/// - `stratagems`: each Stratagem use the engine accepts now, as a command.
pub fn options(game: &Game, player: u8, hint: Option<Command>) -> Value {
    let mut ready: Vec<Command> = Vec::new();
    let push = |c: Command, ready: &mut Vec<Command>| {
        if !ready.contains(&c) && legal(game, &c) {
            ready.push(c);
        }
    };
    if let Some(h) = hint {
        push(h, &mut ready);
    }
    if game.acting_player() == Some(player) {
        push(Command::EndPhase { player }, &mut ready);
        push(Command::Pass { player }, &mut ready);
    }
    let mut units = Vec::new();
    let mut stratagems = Vec::new();
    if let Some(army) = game.army_of(player) {
        for u in game.unit_roots(army) {
            let id = game.unit_id(army, u).to_string();
            let o = game.unit_options(army, u);
            if o.remain_stationary {
                push(
                    Command::RemainStationary {
                        player,
                        unit: id.clone(),
                    },
                    &mut ready,
                );
            }
            if o != crate::game::UnitOptions::default() {
                let charge_targets: Vec<Value> = if o.charge {
                    game.charge_targets(army, u)
                        .into_iter()
                        .map(|t| json!({"unit": t.unit, "distance": t.distance}))
                        .collect()
                } else {
                    Vec::new()
                };
                units.push(json!({
                    "unit": id,
                    "reserves": o.reserves,
                    "deploy": o.deploy,
                    "move_modes": o.move_modes,
                    "remain_stationary": o.remain_stationary,
                    "shoot": o.shoot,
                    "charge": o.charge,
                    "charge_targets": charge_targets,
                    "charge_move": o.charge_move,
                    "fight": o.fight.map(|f| format!("{f:?}")),
                    "arrive": o.arrive,
                    "disembark": o.disembark,
                    "embark": o.embark.iter().filter(|(_, v)| v.is_ok()).map(|(t, _)| t).collect::<Vec<_>>(),
                }));
            }
            if !game.live_models(army, u).is_empty() {
                stratagems.extend(
                    game.stratagem_options(army, u)
                        .into_iter()
                        .filter(|s| s.verdict.is_ok())
                        .map(|s| s.command),
                );
            }
        }
    }
    json!({"ready": ready, "units": units, "stratagems": stratagems})
}

/// Reads one command from an agent's answer line: a command, or `null` (None).
///
/// # Errors
/// The line is not JSON, or not a command (serde's message, with the line's start).
pub fn parse_answer(line: &str) -> Result<Option<Command>, String> {
    let line = line.trim();
    if line.len() > MAX_ANSWER_CHARS {
        return Err(format!(
            "an answer of {} characters (at most {MAX_ANSWER_CHARS})",
            line.len()
        ));
    }
    serde_json::from_str::<Option<Command>>(line).map_err(|e| {
        let start: String = line.chars().take(80).collect();
        format!("the answer '{start}' is not a command: {e}")
    })
}

/// An outside program playing one player: a [`Brain`] that asks it for each command over the
/// agent protocol. A reply that is not a command, or a process that stops, is recorded as a
/// failure ([`Brain::finish`]); the agent is asked nothing more and the built-in `easy`
/// computer plays its player to the end of the game.
pub struct AgentBrain {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    player: u8,
    start: Option<Value>,
    pending: Vec<Command>,
    refused: Option<String>,
    hint: Ai,
    failures: Vec<String>,
    dead: bool,
}

impl AgentBrain {
    /// Starts `command` (run by `sh -c`, in the current folder, its standard error passed
    /// through) to play `player` in a game of the scene file `scene` under `ruleset` with dice
    /// `seed`.
    ///
    /// # Errors
    /// The process cannot be started.
    pub fn spawn(
        command: &str,
        player: u8,
        scene: &Path,
        ruleset: Ruleset,
        seed: u64,
    ) -> Result<AgentBrain, String> {
        let mut child = std::process::Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start the agent '{command}': {e}"))?;
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
        Ok(AgentBrain {
            child,
            stdin,
            stdout,
            player,
            start: Some(start_message(player, scene, ruleset, seed)),
            pending: Vec::new(),
            refused: None,
            hint: Ai::with_level(Level::Easy),
            failures: Vec::new(),
            dead: false,
        })
    }

    /// Writes one message line.
    fn send(&mut self, message: &Value) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("the agent's input is closed")?;
        let mut line = serde_json::to_string(message).expect("plain data serializes");
        line.push('\n');
        stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("cannot write to the agent: {e}"))
    }

    /// Sends the start message (once) and `message`, then reads the answer.
    fn ask(&mut self, message: &Value) -> Result<Option<Command>, String> {
        if let Some(start) = self.start.take() {
            self.send(&start)?;
        }
        self.send(message)?;
        let mut line = String::new();
        let n = self
            .stdout
            .read_line(&mut line)
            .map_err(|e| format!("cannot read the agent's answer: {e}"))?;
        if n == 0 {
            return Err("the agent stopped (its output closed)".into());
        }
        parse_answer(&line)
    }

    /// One question: None when the agent failed (recorded; it is not asked again).
    fn question(
        &mut self,
        ask: Ask,
        game: &Game,
        hint: Option<Command>,
    ) -> Option<Option<Command>> {
        if self.dead {
            return None;
        }
        let commands = std::mem::take(&mut self.pending);
        let message = turn_message(
            ask,
            game,
            self.player,
            &commands,
            self.refused.take().as_deref(),
            hint,
        );
        match self.ask(&message) {
            Ok(answer) => Some(answer),
            Err(why) => {
                self.failures
                    .push(format!("agent ({}): {why}", game.describe_now()));
                self.dead = true;
                None
            }
        }
    }
}

impl Brain for AgentBrain {
    fn next(&mut self, game: &Game, player: u8) -> Command {
        let hint = self.hint.next(game, player);
        match self.question(Ask::Act, game, Some(hint.clone())) {
            Some(Some(c)) => c,
            Some(None) => {
                self.failures.push(format!(
                    "agent ({}): answered null where a command was due",
                    game.describe_now()
                ));
                self.dead = true;
                hint
            }
            // The built-in easy computer finishes the game for a failed agent.
            None => hint,
        }
    }

    fn react(&mut self, game: &Game, player: u8) -> Option<Command> {
        if game.stage == crate::rules::phase::Stage::GameOver {
            return None;
        }
        let hint = self.hint.react(game, player);
        self.question(Ask::React, game, hint).flatten()
    }

    fn observe(&mut self, command: &Command) {
        self.pending.push(command.clone());
    }

    fn refused(&mut self, why: &str) {
        self.refused = Some(why.to_string());
    }

    fn finish(&mut self, game: &Game) -> Vec<String> {
        if !self.dead {
            let commands = std::mem::take(&mut self.pending);
            if let Some(start) = self.start.take() {
                let _ = self.send(&start);
            }
            let _ = self.send(&end_message(game, &commands));
        }
        // Closing its input ends a well-behaved agent.
        self.stdin = None;
        let _ = self.child.wait();
        std::mem::take(&mut self.failures)
    }
}

impl Drop for AgentBrain {
    fn drop(&mut self) {
        self.stdin = None;
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}
