//! Scripted starting points for screenshots and tests (`play --scenario NAME`): the game is
//! played forward with ordinary commands (so undo and the autosave hold them), then a unit is
//! selected and a tool opened.
//!
//! - `overview`: deployment just begun, nothing selected.
//! - `legend`: the overview with the legend of the table's colours open.
//! - `los`: the line-of-sight tool on the player 1 unit that sees some enemy models only
//!   partly or not at all (behind ruins) in round 1's Shooting phase.
//! - `drag-refused`: round 1's Movement phase, a unit drafted 3" further than its Move.
//! - `shooting`: the recorded game (tests/games, default scene, seed 7) up to its first shot:
//!   the shooting panel of that unit, its weapons assigned and the odds shown.
//! - `eye`: the model's-eye view from a model of the `los` unit to an enemy model it sees.
//! - `reaction`: the recorded game up to its first shot that the defender could answer with Go
//!   to Ground or Smokescreen, that shot declared: the defender's reaction window is open.
//! - `log`: the recorded game to the end of battle round 1's Fight phase, the dice log
//!   filtered to player 1 with its last attack opened to its full event list.
//! - `summary`: the whole recorded game: the end-of-game summary.
//! - `threat`: round 1's Movement phase, the `strip` unit selected, the enemy army's threat
//!   overlay on and the tape from one of its models to the nearest objective marker.
//! - `arrive`: player 1's Hellblasters declared in Strategic Reserves, round 2's Movement phase
//!   of player 1: the unit placed where "Find a place" puts it, with the 9" rings round the
//!   enemy and the 6" edge line drawn.
//! - `legs`: round 1's Movement phase, the `drag-refused` unit drafted in two legs (3" towards
//!   the table's centre, then 2" to the side, turned 45°): the path drawn leg by leg.
//! - `strip`: round 1's Movement phase, the unit furthest from the table's centre selected
//!   with its card folded to a strip and its Move ring on (the camera brings it into view).
//!
//! - `charge-roll`: the computer (`hard`) plays both sides until a charge has been declared
//!   and rolled: the charge panel of that unit (under 11th edition: the roll first, then the
//!   targets it reaches).
//! - `pile-in`: the computer plays both sides to the first Fight phase with a unit to Pile In:
//!   that unit's fight panel (under 11th edition: the shared Pile In step).
//! - `round2`: the computer plays both sides to the end of battle round 2.
//!
//! - `newcomer-deploy`, `newcomer-round1`, `newcomer-round2`: the newcomer's game
//!   ([`super::newcomer`]): two imported sample lists, deployment with one unit placed by hand,
//!   round 1's Movement phase, the end of round 2.
//!
//! Every scenario seats one person at both sides, as a solo game: no hand-over screens, the
//! phase bar in the acting side's colour.

use super::play::{self, Draft, EyeView, HandOver, LosReport, PlayView, SightStatus};
use super::screens::table::StartedGame;
use crate::game::sight::{ModelRef, UnitSelector};
use crate::game::{Command, Game};
use crate::geometry::Vec3;
use crate::rules::phase::{Phase, Stage};

/// Where the recorded scripted game is (the default scene with seed 7): the test fixture
/// that the shooting, log and summary scenarios replay, read from the repository at run time
/// (the scenarios are for screenshots from a checkout; the game is not built into the app).
const RECORDED_GAME: &str = "tests/games/full-game.commands.ron";

/// The recorded game's commands, read from the working directory's checkout or, failing
/// that, from the checkout the app was built from.
///
/// # Errors
/// The file cannot be read or parsed.
fn recorded_game() -> Result<Vec<Command>, String> {
    let text = std::fs::read_to_string(repository_file(RECORDED_GAME)).map_err(|e| {
        format!("the recorded game ({RECORDED_GAME}, run from the repository's root): {e}")
    })?;
    ron::from_str(&text).map_err(|e| format!("the recorded game: {e}"))
}

/// A repository file the scripted scenarios read: from the working directory's checkout or,
/// failing that, from the checkout the app was built from.
pub(super) fn repository_file(path: &str) -> std::path::PathBuf {
    let here = std::path::PathBuf::from(path);
    if here.is_file() {
        here
    } else {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
    }
}

/// `play --menu --scenario import`: the main menu with the army import panel open (a roster
/// path typed, and the message an import refused over an existing army file shows).
pub const MENU_IMPORT: &str = "import";

/// The scenario names `play --scenario` accepts.
pub const SCENARIOS: [&str; 17] = [
    "charge-roll",
    "pile-in",
    "round2",
    "overview",
    "legend",
    "los",
    "drag-refused",
    "shooting",
    "eye",
    "reaction",
    "log",
    "summary",
    "strip",
    "threat",
    "arrive",
    "legs",
    "army-rules",
];

/// What a scenario leaves on screen: the unit to select and the play state.
#[derive(Debug, Clone)]
pub struct ScenarioView {
    /// The unit to select, if any.
    pub select: Option<UnitSelector>,
    /// The play state (tools, drafts, weapon choices).
    pub play: PlayView,
}

/// Applies `command` to the started game and records it in its save.
///
/// # Errors
/// The engine's rejection, as a sentence.
pub fn push(started: &mut StartedGame, command: Command) -> Result<(), String> {
    let events = started
        .game
        .apply(&command)
        .map_err(|r| format!("{}: {r}", command.kind()))?;
    started.events.extend(events);
    started.save.commands.push(command);
    Ok(())
}

/// Deploys every unit where the scene put it, players alternating as the engine asks.
///
/// # Errors
/// A rejected Deploy.
pub fn deploy_all(started: &mut StartedGame) -> Result<(), String> {
    while matches!(started.game.stage, Stage::Setup | Stage::Deployment) {
        let player = started.game.active_player;
        let deploy = started
            .game
            .deploy_next_as_placed(player)
            .ok_or_else(|| format!("player {player} has nothing left to deploy"))?;
        push(started, deploy)?;
    }
    Ok(())
}

/// Ends phases until it is `phase` of battle round 1's first turn.
///
/// # Errors
/// A rejected EndPhase.
pub fn advance_to(started: &mut StartedGame, phase: Phase) -> Result<(), String> {
    deploy_all(started)?;
    while started.game.phase != phase {
        let player = started.game.active_player;
        push(started, Command::EndPhase { player })?;
    }
    Ok(())
}

fn selector(game: &Game, army: usize, unit: usize) -> UnitSelector {
    UnitSelector {
        player: Some(game.player_of(army)),
        unit: game.unit_id(army, unit).to_string(),
        model: None,
    }
}

/// The active player's unit whose line-of-sight report mixes the most: some enemy models seen
/// and some hidden (the most hidden among units that see something).
pub fn partly_sighted_unit(game: &Game) -> Option<(usize, usize, LosReport)> {
    let army = game.army_of(game.active_player)?;
    game.unit_roots(army)
        .into_iter()
        .filter(|&u| !game.live_models(army, u).is_empty())
        .map(|u| (u, play::los_report(game, army, u)))
        .filter(|(_, r)| {
            r.targets
                .iter()
                .any(|t| t.status != SightStatus::NotVisible)
        })
        .max_by_key(|(_, r)| {
            let hidden = r
                .targets
                .iter()
                .filter(|t| t.status != SightStatus::FullyVisible)
                .count();
            let seen = r.targets.len() - hidden;
            hidden.min(seen)
        })
        .map(|(u, r)| (army, u, r))
}

/// Plays `name` forward on `started` and says what to show.
///
/// # Errors
/// An unknown scenario, or a command the engine rejects on the way.
pub fn prepare(name: &str, started: &mut StartedGame) -> Result<ScenarioView, String> {
    let mut play = PlayView {
        handover: HandOver {
            to: None,
            seats: play::Seats::Solo,
        },
        ..PlayView::default()
    };
    let mut select = None;
    match name {
        "charge-roll" => {
            computer_plays_until(started, |g| g.charge.as_ref().is_some_and(|c| !c.heroic))?;
            let game = &started.game;
            let c = game.charge.as_ref().ok_or("no charge was declared")?;
            select = Some(selector(game, c.army, c.unit));
        }
        "pile-in" => {
            computer_plays_until(started, |g| {
                g.phase == Phase::Fight && g.next_to_fight().is_some()
            })?;
            let game = &started.game;
            let (player, ids) = game.next_to_fight().ok_or("no unit to fight")?;
            let army = game.army_of(player).ok_or("no army")?;
            let unit = game.find_unit(army, &ids[0]).ok_or("no unit")?;
            select = Some(selector(game, army, unit));
        }
        "round2" => {
            computer_plays_until(started, |g| {
                g.stage == Stage::GameOver || g.battle_round > 2
            })?;
        }
        "overview" => {}
        "los" | "eye" => {
            advance_to(started, Phase::Shooting)?;
            let game = &started.game;
            let (army, unit, report) =
                partly_sighted_unit(game).ok_or("no unit of the active player sees anything")?;
            select = Some(selector(game, army, unit));
            play.sight.los = true;
            if name == "eye" {
                let target = report
                    .targets
                    .iter()
                    .find(|t| t.status == SightStatus::Visible)
                    .or_else(|| {
                        report
                            .targets
                            .iter()
                            .find(|t| t.status != SightStatus::NotVisible)
                    })
                    .ok_or("nothing visible")?;
                let observer = match target.witness {
                    Some([from, _]) => nearest_model(game, army, unit, from),
                    None => best_observer(game, army, unit, target.model),
                };
                play.sight.eye = Some(EyeView {
                    observer,
                    target: target.model,
                    full: false,
                });
            }
            play.sight.report = report;
        }
        "army-rules" => {
            // Round 1, the first player's Command phase: a Space Marine player's Oath of
            // Moment already on the enemy unit the computer would pick (the Combat Doctrine
            // still to choose), an Ork player's Waaagh! still to call; the first unit's card
            // with its abilities and army rules.
            advance_to(started, Phase::Command)?;
            let player = started.game.active_player;
            if let Some(c) = crate::ai::army_rules::rule_choice(&started.game, player)
                && matches!(&c, Command::RuleChoice { rule, .. } if rule == "Oath of Moment")
            {
                push(started, c)?;
            }
            let game = &started.game;
            let army = game.army_of(player).ok_or("no army")?;
            let unit = game
                .unit_roots(army)
                .into_iter()
                .find(|&u| !game.live_models(army, u).is_empty())
                .ok_or("no unit on the table")?;
            select = Some(selector(game, army, unit));
        }
        "drag-refused" | "legs" => {
            advance_to(started, Phase::Movement)?;
            let game = &started.game;
            let army = game.army_of(game.active_player).ok_or("no army")?;
            let unit = game
                .unit_roots(army)
                .into_iter()
                .find(|&u| !game.live_models(army, u).is_empty())
                .ok_or("no unit on the table")?;
            let m = game.unit_move_inches(army, unit);
            // Towards the enemy: player 1's zone is at low y on these maps' long edges? Use
            // the direction to the table centre.
            let centre = Vec3::new(30.0, 22.0, 0.0);
            let from = play::model_position(game, game.live_models(army, unit)[0]);
            let dir = (centre - from).truncate().normalize_or_zero().extend(0.0);
            let draft: Draft = if name == "legs" {
                let first = play::drag_unit(game, None, army, unit, dir * 3.0);
                let side = Vec3::new(-dir.y, dir.x, 0.0) * 2.0;
                let mut d = play::drag_unit(game, Some(&first.with_new_leg()), army, unit, side);
                d.turn = 45.0;
                d
            } else {
                play::drag_unit(game, None, army, unit, dir * (m + 3.0))
            };
            select = Some(selector(game, army, unit));
            play.tools.rings = [true, false, false, false];
            play.drafting.draft = Some(draft);
        }
        "shooting" => {
            // The recorded 5-round game on the default scene (seed 7), up to its first shot.
            let commands: Vec<Command> = recorded_game()?;
            let first_shot = commands
                .iter()
                .position(|c| matches!(c, Command::Shoot { .. }))
                .ok_or("the recorded game has no shot")?;
            for c in &commands[..first_shot] {
                push(started, c.clone()).map_err(|e| {
                    format!("{e} (the shooting scenario needs the default scene with seed 7)")
                })?;
            }
            let Command::Shoot {
                player,
                unit,
                weapons,
            } = &commands[first_shot]
            else {
                unreachable!("found above")
            };
            let game = &started.game;
            let (army, root) = game.own_root(*player, unit).map_err(|r| r.to_string())?;
            select = Some(selector(game, army, root));
            play.orders.weapon_targets = weapons
                .iter()
                .map(|w| (w.label(), Some(w.target.clone())))
                .collect();
            game.preview_attacks(*player, unit, weapons, false)
                .map_err(|r| r.to_string())?;
        }
        "reaction" => {
            // The recorded game up to the first Pass (the answer to a shot that waited), the
            // shot itself applied: the defender must now react or pass.
            let commands: Vec<Command> = recorded_game()?;
            let pass = commands
                .iter()
                .position(|c| matches!(c, Command::Pass { .. }))
                .ok_or("the recorded game has no shot that waited for an answer")?;
            for c in &commands[..pass] {
                push(started, c.clone()).map_err(|e| {
                    format!("{e} (the reaction scenario needs the default scene with seed 7)")
                })?;
            }
            let game = &started.game;
            let pending = game
                .pending_shot
                .as_ref()
                .ok_or("no attacks wait for an answer")?;
            let (army, root) = game
                .own_root(pending.player, &pending.unit)
                .map_err(|r| r.to_string())?;
            select = Some(selector(game, army, root));
        }
        "strip" | "threat" => {
            advance_to(started, Phase::Movement)?;
            let game = &started.game;
            let army = game.army_of(game.active_player).ok_or("no army")?;
            let centre = Vec3::new(30.0, 22.0, 0.0);
            let far = |u: &usize| {
                game.live_models(army, *u)
                    .first()
                    .map_or(0.0, |&m| (play::model_position(game, m) - centre).length())
            };
            let unit = game
                .unit_roots(army)
                .into_iter()
                .filter(|&u| !game.live_models(army, u).is_empty())
                .max_by(|a, b| far(a).total_cmp(&far(b)))
                .ok_or("no unit on the table")?;
            select = Some(selector(game, army, unit));
            if name == "strip" {
                play.tools.card_strip = true;
                play.tools.rings = [true, false, false, false];
            } else {
                play.tools.threat = play::ThreatOverlay::EnemyArmy;
                let model = game.live_models(army, unit)[0];
                let at = play::model_position(game, model).truncate();
                let objective = game
                    .scene
                    .objectives
                    .iter()
                    .min_by(|a, b| a.at.vec().distance(at).total_cmp(&b.at.vec().distance(at)))
                    .ok_or("no objective marker")?;
                play.tools.tape = Some(play::Tape {
                    picks: vec![
                        play::TapeEnd::Model(model),
                        play::TapeEnd::Objective(objective.id.clone()),
                    ],
                });
            }
        }
        "arrive" => {
            push(
                started,
                Command::DeclareReserves {
                    player: 1,
                    unit: "hellblasters".into(),
                    reserve: crate::game::ReserveKind::StrategicReserves,
                },
            )?;
            deploy_all(started)?;
            while !(started.game.battle_round == 2
                && started.game.active_player == 1
                && started.game.phase == Phase::Movement)
            {
                if started.game.stage == Stage::GameOver {
                    return Err("the game ended before round 2".into());
                }
                let player = started
                    .game
                    .acting_player()
                    .unwrap_or(started.game.active_player);
                push(started, Command::EndPhase { player })?;
            }
            let game = &started.game;
            let army = game.army_of(1).ok_or("no army")?;
            let unit = game
                .find_unit(army, "hellblasters")
                .ok_or("no Hellblasters")?;
            select = Some(selector(game, army, unit));
            play.drafting.draft =
                Some(play::suggest_placement(game, army, unit).ok_or("no place to arrive")?);
        }
        "log" | "summary" => {
            let commands: Vec<Command> = recorded_game()?;
            for c in commands {
                if name == "log" && started.game.battle_round >= 2 {
                    break;
                }
                push(started, c).map_err(|e| {
                    format!("{e} (the {name} scenario needs the default scene with seed 7)")
                })?;
            }
            if name == "log" {
                let log = play::ActionLog::of(&started.game, &started.events);
                play.log_filter = play::LogFilter {
                    player: Some(1),
                    phase: None,
                };
                play.log_expanded = log
                    .entries
                    .iter()
                    .rposition(|e| e.player == Some(1) && !e.dice.is_empty() && e.events.len() > 1)
                    .into_iter()
                    .collect();
            }
        }
        "legend" => {
            // The overview with the legend of the table's colours open.
            play.tools.legend = true;
        }
        stage if super::newcomer::STAGES.contains(&stage) => {
            let played = super::newcomer::prepare(stage, started)?;
            // The unit set up by hand, selected so its card shows.
            if let Some(id) = played.by_hand
                && stage == "newcomer-deploy"
                && let Some(unit) = started.game.find_unit(0, &id)
            {
                select = Some(selector(&started.game, 0, unit));
            }
        }
        other => {
            return Err(format!(
                "unknown scenario '{other}' (known: {}, {})",
                SCENARIOS.join(", "),
                super::newcomer::STAGES.join(", ")
            ));
        }
    }
    Ok(ScenarioView { select, play })
}

/// Most commands [`computer_plays_until`] gives before it gives up.
const MAX_SCENARIO_COMMANDS: usize = 4000;

/// Deploys as placed, then lets the computer (`hard`, reactions included) play both sides
/// until `done` holds. A command the engine refuses ends the phase instead
/// ([`crate::ai::unstick`]).
///
/// # Errors
/// `done` never held within [`MAX_SCENARIO_COMMANDS`] commands, or the game ended first.
fn computer_plays_until(
    started: &mut StartedGame,
    done: impl Fn(&Game) -> bool,
) -> Result<(), String> {
    use crate::ai::{Ai, Brain, Level};
    deploy_all(started)?;
    let mut brains = [Ai::with_level(Level::Hard), Ai::with_level(Level::Hard)];
    let mut refused: Vec<String> = Vec::new();
    for _ in 0..MAX_SCENARIO_COMMANDS {
        if done(&started.game) {
            return Ok(());
        }
        let Some(player) = started.game.acting_player() else {
            return Err(format!(
                "the game ended first ({}, {} commands played; refused: {})",
                started.game.describe_now(),
                started.save.commands.len(),
                refused.first().map_or("none", String::as_str)
            ));
        };
        let other = crate::rules::phase::opponent(player);
        if let Some(r) = brains[usize::from(other - 1)].react(&started.game, other)
            && push(started, r).is_ok()
        {
            continue;
        }
        let c = brains[usize::from(player - 1)].next(&started.game, player);
        if let Err(e) = push(started, c) {
            refused.push(e);
            push(started, crate::ai::unstick(&started.game))?;
        }
    }
    Err(format!(
        "not reached within {MAX_SCENARIO_COMMANDS} commands"
    ))
}

/// The model of the unit that sees `target` best (fully, else at all), else the first.
fn best_observer(game: &Game, army: usize, unit: usize, target: ModelRef) -> ModelRef {
    let sight = game.sight();
    let models = game.live_models(army, unit);
    let Some(t) = sight.models.iter().position(|m| *m == target) else {
        return models[0];
    };
    let sampling = crate::geometry::sight::Sampling::FAST;
    let mut best = (0u8, models[0]);
    for r in &models {
        let Some(o) = sight.models.iter().position(|m| m == r) else {
            continue;
        };
        let v = sight.index.model_visibility(
            o,
            t,
            crate::geometry::sight::SeeThrough::OwnUnit,
            &sampling,
        );
        let rank = u8::from(v.visible) + u8::from(v.fully_visible);
        if rank > best.0 {
            best = (rank, *r);
        }
    }
    best.1
}

/// The model of the unit whose base centre is nearest `point` (the witness line's start).
fn nearest_model(game: &Game, army: usize, unit: usize, point: Vec3) -> ModelRef {
    let models = game.live_models(army, unit);
    let d = |r: &ModelRef| (play::model_position(game, *r).truncate() - point.truncate()).length();
    models
        .iter()
        .copied()
        .min_by(|a, b| d(a).total_cmp(&d(b)))
        .unwrap_or(models[0])
}
