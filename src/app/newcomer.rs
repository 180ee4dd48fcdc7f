//! The newcomer's game, scripted through the app's own functions: two sample army lists
//! imported in the menu (one for each player), a solo game against the computer at `hard` on a
//! Search and Destroy pairing, deployment with one unit placed by hand, and the battle played
//! through battle round 2. `play --scenario newcomer-deploy | newcomer-round1 |
//! newcomer-round2` and `play --menu --scenario newcomer-menu` show its stages for the
//! screenshots `.ci/run` takes; a headless test plays it whole.

use std::path::{Path, PathBuf};

use super::play::Seats;
use super::scenario::{push, repository_file};
use super::screens::menu::{ArmyImport, NewGameForm};
use super::screens::table::StartedGame;
use crate::ai::{Ai, Brain, Level, unstick};
use crate::game::{Command, Game, Placement};
use crate::rules::phase::{Phase, Stage, opponent};

/// The sample lists the newcomer imports, players 1 and 2 (repository paths): 1,990 points of
/// Space Wolves and 2,000 of T'au Empire, exported from the official app.
pub const SAMPLE_LISTS: [&str; 2] = [
    "tests/rosters/space-wolves-1990.txt",
    "tests/rosters/tau-empire-2000.txt",
];

/// The names the sample lists are imported under (`scenes/armies/<name>.ron`).
pub const IMPORTED_NAMES: [&str; 2] = ["newcomer-space-wolves", "newcomer-tau"];

/// The stages `play --scenario` shows.
pub const STAGES: [&str; 3] = ["newcomer-deploy", "newcomer-round1", "newcomer-round2"];

/// `play --menu --scenario newcomer-menu`: the new-game form with both imported lists chosen.
pub const MENU_STAGE: &str = "newcomer-menu";

/// Most commands the script gives before it calls the game stuck.
pub const MAX_COMMANDS: usize = 4000;

/// The new-game form of the newcomer's game, after importing both sample lists into `disk`'s
/// `scenes/armies/` through the menu's import ([`ArmyImport::import`], whole: every unit of
/// both lists) unless they are there already: layout 1 with Search and Destroy and
/// Take and Hold (a tournament pairing), the computer as player 2 at `hard`.
///
/// # Errors
/// An import that fails.
pub fn newcomer_form(disk: &Path) -> Result<NewGameForm, String> {
    let mut form = NewGameForm {
        disk: disk.to_path_buf(),
        seats: Seats::Computer(2),
        computer_level: Level::Hard,
        ..NewGameForm::default()
    };
    for (i, (list, name)) in SAMPLE_LISTS.iter().zip(IMPORTED_NAMES).enumerate() {
        let file = disk.join("scenes/armies").join(format!("{name}.ron"));
        form.armies[i] = if file.is_file() {
            file.display().to_string()
        } else {
            ArmyImport {
                path: repository_file(list).display().to_string(),
                name: name.into(),
                player: i,
                ..ArmyImport::default()
            }
            .import(disk)?
        };
    }
    Ok(form)
}

/// `deploy` (a Deploy where the scene put the unit) moved by hand, as a drag of the whole unit
/// on the table gives it: every model of the unit and of its attached Leaders shifted by the
/// first of a few small offsets the engine accepts; None when none is.
fn by_hand(game: &Game, deploy: &Command) -> Option<Command> {
    let Command::Deploy {
        player,
        unit,
        transport,
        ..
    } = deploy
    else {
        return None;
    };
    let army = game.army_of(*player)?;
    let root = game.find_unit(army, unit)?;
    let models: Vec<Placement> = game
        .live_models_anywhere(army, root)
        .into_iter()
        .map(|r| {
            let m = &game.scene.armies[army].units[r.unit].models[r.model];
            Placement {
                model: r.model,
                unit: (r.unit != root).then(|| game.unit_id(army, r.unit).to_string()),
                x: m.position.x,
                y: m.position.y,
                z: m.position.z,
                facing: m.facing,
            }
        })
        .collect();
    [
        (1.0, 0.0),
        (-1.0, 0.0),
        (0.0, 1.0),
        (0.0, -1.0),
        (2.0, 0.0),
        (-2.0, 0.0),
    ]
    .into_iter()
    .map(|(dx, dy)| Command::Deploy {
        player: *player,
        unit: unit.clone(),
        models: models
            .iter()
            .map(|m| Placement {
                x: m.x + dx,
                y: m.y + dy,
                ..m.clone()
            })
            .collect(),
        transport: transport.clone(),
    })
    .find(|c| game.check(c).is_ok())
}

/// How far [`play_to`] goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// Both armies deployed.
    Deployed,
    /// Player 1's Movement phase of battle round 1.
    RoundOneMovement,
    /// The end of battle round 2 (the start of round 3, or the end of the game).
    RoundTwoOver,
}

/// What the script did: commands given, and the unit player 1 deployed by hand.
#[derive(Debug, Clone, Default)]
pub struct Played {
    /// Commands applied.
    pub commands: usize,
    /// Player 1's unit set up by hand (not where the scene put it), by id.
    pub by_hand: Option<String>,
    /// Commands the engine refused (a computer's mistake), each with the refusal.
    pub refused: Vec<String>,
}

/// Most answers the side not acting gives before each command.
const MAX_REACTIONS: usize = 4;

/// Plays the started game to `stop`: player 1's first unit deployed by hand ([`by_hand`]),
/// player 1's other units as placed, and everything else chosen by the computer (`normal` for
/// player 1, the game's human side; `hard` for player 2), reactions included. A command the
/// engine refuses is listed in [`Played::refused`] and the game moved on ([`unstick`]).
///
/// # Errors
/// A step that cannot move the game on, or more than [`MAX_COMMANDS`].
pub fn play_to(started: &mut StartedGame, stop: Stop) -> Result<Played, String> {
    let mut brains = [Ai::with_level(Level::Normal), Ai::with_level(Level::Hard)];
    let mut played = Played::default();
    let done = |g: &Game| match stop {
        Stop::Deployed => !matches!(g.stage, Stage::Setup | Stage::Deployment),
        Stop::RoundOneMovement => {
            g.stage == Stage::Battle && g.active_player == 1 && g.phase == Phase::Movement
        }
        Stop::RoundTwoOver => g.stage == Stage::GameOver || g.battle_round > 2,
    };
    while !done(&started.game) {
        if played.commands >= MAX_COMMANDS {
            return Err(format!("stuck after {MAX_COMMANDS} commands"));
        }
        let Some(player) = started.game.acting_player() else {
            break;
        };
        // The other side's answers first (Overwatch, Heroic Intervention, Rapid Ingress...),
        // as the desktop asks the computer before each command.
        let other = opponent(player);
        for _ in 0..MAX_REACTIONS {
            let Some(r) = brains[usize::from(other - 1)].react(&started.game, other) else {
                break;
            };
            if let Err(e) = push(started, r) {
                played.refused.push(e);
                break;
            }
            played.commands += 1;
            if started.game.acting_player() != Some(player) {
                break;
            }
        }
        let Some(player) = started.game.acting_player() else {
            break;
        };
        let game = &started.game;
        let command = if matches!(game.stage, Stage::Setup | Stage::Deployment) && player == 1 {
            match game.deploy_next_as_placed(1) {
                Some(d) if played.by_hand.is_none() => match by_hand(game, &d) {
                    Some(moved) => {
                        if let Command::Deploy { unit, .. } = &moved {
                            played.by_hand = Some(unit.clone());
                        }
                        moved
                    }
                    None => d,
                },
                Some(d) => d,
                None => brains[0].next(game, 1),
            }
        } else {
            brains[usize::from(player - 1)].next(game, player)
        };
        if let Err(e) = push(started, command) {
            // The desktop logs a refusal and the player tries again; the script moves the
            // game on as the computer's games do.
            played.refused.push(e);
            push(started, unstick(&started.game))?;
        }
        played.commands += 1;
    }
    Ok(played)
}

/// Replaces `started` with the newcomer's game at `stage` ([`STAGES`]): the sample lists
/// imported into the folder of its autosave, the game started from the menu's form, played to
/// the stage.
///
/// # Errors
/// An unknown stage, or a step of the script that fails.
pub fn prepare(stage: &str, started: &mut StartedGame) -> Result<Played, String> {
    let stop = match stage {
        "newcomer-deploy" => Stop::Deployed,
        "newcomer-round1" => Stop::RoundOneMovement,
        "newcomer-round2" => Stop::RoundTwoOver,
        other => return Err(format!("unknown newcomer stage '{other}'")),
    };
    let saves = started
        .autosave
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    let form = newcomer_form(&saves)?;
    *started = super::screens::table::start_new_game(&form, &saves, 1)?;
    play_to(started, stop)
}
