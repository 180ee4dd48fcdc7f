//! The hot-seat game in the window, without the drawing: what a drag would command and whether
//! the engine accepts it, which panels show for a unit, who acts now, the line-of-sight report
//! the overlay tints from, undo, and the dice log. Everything here works headless; the egui
//! panels (`hud`) and the gizmos (`overlay`) only read and write these resources.

use std::collections::BTreeSet;

use bevy::prelude::*;

use crate::data::Scene;
use crate::game::save::{replay, write_save};
use crate::game::sight::ModelRef;
use crate::game::{Command, Game, ModelPath, Placement, Rejection};
use crate::geometry::Vec3 as TableVec3;
use crate::geometry::sight::{Blocker, Sampling, SeeThrough};
use crate::rules::constants::{CONSOLIDATE_INCHES, PILE_IN_INCHES};
use crate::rules::movement::{MoveMode, path_length};
use crate::rules::phase::{Phase, Stage};
use crate::rules::rng::GameRng;
use crate::sim::battle::{
    ActiveGame, AutosaveFailed, BattleEvent, BattleSystems, CommandRejected, GameCommand,
};

/// Lines kept in the dice log.
pub const DICE_LOG_LINES: usize = 400;

/// A move being drawn on the table: where each dragged model would end. Nothing is sent to the
/// engine until the player confirms it.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    /// The army of the unit.
    pub army: usize,
    /// The unit (its Bodyguard when a Leader is attached).
    pub unit: usize,
    /// Each dragged model and where its base would end (table inches, z the surface height).
    pub ends: Vec<(ModelRef, TableVec3)>,
}

/// The engine's answer to a drafted move, computed on a copy of the game.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The command would be accepted; for an Advance, the smallest Advance roll it needs.
    Legal {
        /// Smallest D6 the Advance needs (None when no roll matters).
        advance_roll_needed: Option<u32>,
    },
    /// The command breaks a rule.
    Illegal(Rejection),
    /// Nothing can be moved now (wrong phase, or the unit is not the one acting).
    Nothing(String),
}

impl Verdict {
    /// True when the engine would accept the move.
    pub fn is_legal(&self) -> bool {
        matches!(self, Verdict::Legal { .. })
    }
}

/// What the measuring tape holds: up to two models clicked in turn.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tape {
    /// The models picked, in order.
    pub picks: Vec<ModelRef>,
}

/// How well a model can see an enemy model (Core Rules: Determining Visibility).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SightStatus {
    /// Every part facing the observer can be seen.
    FullyVisible,
    /// Some part can be seen.
    Visible,
    /// No part can be seen.
    NotVisible,
}

/// One enemy model as seen by the selected unit.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetSight {
    /// The enemy model.
    pub model: ModelRef,
    /// The best sight any model of the selected unit has of it.
    pub status: SightStatus,
    /// A clear sight line (observer point, target point), when visible.
    pub witness: Option<[TableVec3; 2]>,
    /// Why it is not visible, or not fully visible (the blocker or rule), if so.
    pub reason: Option<String>,
    /// Why it has the Benefit of Cover against the selected unit, if it does.
    pub cover: Option<String>,
}

/// The line-of-sight report of one unit: every enemy model on the table.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LosReport {
    /// Observing unit (army, unit).
    pub observer: Option<(usize, usize)>,
    /// Each enemy model's sight.
    pub targets: Vec<TargetSight>,
}

impl LosReport {
    /// The sight of `model`, if it is in the report.
    pub fn of(&self, model: ModelRef) -> Option<&TargetSight> {
        self.targets.iter().find(|t| t.model == model)
    }
}

/// The state of the play screen: the selected tools and the drafts the panels edit.
#[derive(Resource, Debug, Clone)]
pub struct PlayState {
    /// The move being drawn, if any.
    pub draft: Option<Draft>,
    /// The engine's answer to the draft.
    pub verdict: Option<Verdict>,
    /// The kind of move a drag makes in the Movement phase.
    pub move_mode: MoveMode,
    /// Line-of-sight tool on (tints enemy models for the selected unit).
    pub los: bool,
    /// The line-of-sight report for the selected unit (when the tool is on).
    pub report: LosReport,
    /// Range rings: Move, weapon ranges, Engagement Range, Unit Coherency.
    pub rings: [bool; 4],
    /// The measuring tape, when on.
    pub tape: Option<Tape>,
    /// Every event of the game, as text, newest last.
    pub log: Vec<String>,
    /// The last rejected command and why.
    pub rejection: Option<(String, Rejection)>,
    /// The last autosave that could not be written (file: reason), until one succeeds.
    pub autosave_error: Option<String>,
    /// The player to hand the table to (a hand-over screen covers the table until they click).
    pub handover: Option<u8>,
    /// Show the hand-over screen when the acting player changes (hot-seat).
    pub hotseat: bool,
    /// The F1 help overlay is open.
    pub help: bool,
    /// Weapon → target choices of the shooting / fight panel.
    pub weapon_targets: Vec<(String, Option<String>)>,
    /// Targets ticked in the charge panel.
    pub charge_targets: BTreeSet<String>,
    /// The model's-eye view: the observer and target models, and whether it fills the window.
    pub eye: Option<EyeView>,
    /// The model under the cursor.
    pub hovered: Option<ModelRef>,
}

/// The model's-eye camera: from `observer`'s eye towards `target`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EyeView {
    /// The model whose eye the camera is at.
    pub observer: ModelRef,
    /// The model looked at.
    pub target: ModelRef,
    /// Full view instead of picture-in-picture.
    pub full: bool,
}

impl Default for PlayState {
    fn default() -> Self {
        PlayState {
            draft: None,
            verdict: None,
            move_mode: MoveMode::Normal,
            los: false,
            report: LosReport::default(),
            rings: [false; 4],
            tape: None,
            log: Vec::new(),
            rejection: None,
            autosave_error: None,
            handover: None,
            hotseat: true,
            help: false,
            weapon_targets: Vec::new(),
            charge_targets: BTreeSet::new(),
            eye: None,
            hovered: None,
        }
    }
}

/// The scene the game started from (for undo: a replay needs the table before any command).
#[derive(Resource, Debug, Clone, Default)]
pub struct GameOrigin(pub Option<Scene>);

/// Registers the play state and the systems that keep it in step with the game.
pub fn plugin(app: &mut App) {
    app.init_resource::<PlayState>()
        .init_resource::<GameOrigin>()
        .add_systems(
            Update,
            (record_events, check_draft_system)
                .chain()
                .after(BattleSystems),
        );
}

/// Which order panels a unit gets now.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Panels {
    /// Declare Reserves (setup).
    pub reserves: bool,
    /// Deploy (deployment, the unit not yet deployed and its player deploying).
    pub deploy: bool,
    /// Move, Advance, Fall Back, Remain Stationary.
    pub movement: bool,
    /// Choose weapons and targets, see the odds, shoot.
    pub shooting: bool,
    /// Declare a charge, see the odds; then the charge move.
    pub charge: bool,
    /// Pile In, Fight, Consolidate.
    pub fight: bool,
}

/// The order panels shown for the unit (`army`, `unit`) at this moment of `game`: only the
/// acting player's units get any, and only those the phase lets act.
pub fn panels(game: &Game, army: usize, unit: usize) -> Panels {
    let mut p = Panels::default();
    let player = game.player_of(army);
    let root = game.combined(army, unit)[0];
    let state = &game.units[army][root];
    match game.stage {
        Stage::Setup => {
            p.reserves = true;
            p.deploy = player == game.active_player;
        }
        Stage::Deployment => {
            p.deploy =
                player == game.active_player && state.location == crate::game::Location::NotDeployed
        }
        Stage::Scouts => {
            p.movement = player == game.active_player
                && state.moved.is_none()
                && game.scouts_inches(army, root).is_some()
                && !game.live_models(army, root).is_empty();
        }
        Stage::Battle => {
            let on_table = !game.live_models(army, root).is_empty();
            if player == game.active_player && on_table {
                match game.phase {
                    Phase::Movement => p.movement = state.moved.is_none(),
                    Phase::Shooting => p.shooting = !state.shot,
                    Phase::Charge => {
                        p.charge = !state.declared_charge
                            || game
                                .charge
                                .as_ref()
                                .is_some_and(|c| c.army == army && c.unit == root)
                    }
                    _ => {}
                }
            }
            if game.phase == Phase::Fight && on_table {
                let current = game
                    .fight
                    .as_ref()
                    .and_then(|f| f.current)
                    .is_some_and(|(a, u, _)| a == army && u == root);
                let may_pick = game.next_to_fight().is_some_and(|(picker, ids)| {
                    picker == player && ids.iter().any(|id| id == game.unit_id(army, root))
                });
                p.fight = current || may_pick;
            }
        }
        Stage::GameOver => {}
    }
    p
}

/// The starting position of a model (table inches, base underside).
pub fn model_position(game: &Game, r: ModelRef) -> TableVec3 {
    game.scene.armies[r.army].units[r.unit].models[r.model].position
}

/// The command a drafted move makes at this moment of `game`: a Deploy in deployment (every
/// model placed), a Move in the Movement phase, the pending charge's Charge Move, a Pile In or
/// a Consolidate; each model goes straight from where it stands to its end.
///
/// # Errors
/// A sentence saying why nothing can move now.
pub fn draft_command(game: &Game, draft: &Draft, mode: MoveMode) -> Result<Command, String> {
    let (army, root) = (draft.army, game.combined(draft.army, draft.unit)[0]);
    let player = game.player_of(army);
    let id = game.unit_id(army, root).to_string();
    let unit_field = |r: ModelRef| (r.unit != root).then(|| game.unit_id(army, r.unit).to_string());
    let paths = || -> Vec<ModelPath> {
        draft
            .ends
            .iter()
            .map(|(r, end)| ModelPath {
                model: r.model,
                unit: unit_field(*r),
                path: vec![(end.x, end.y, end.z)],
            })
            .collect()
    };
    match game.stage {
        Stage::Setup | Stage::Deployment => {
            let models = game
                .live_models_anywhere(army, root)
                .into_iter()
                .filter(|r| r.unit == root || game.units[army][r.unit].leading == Some(root))
                .map(|r| {
                    let at = draft
                        .ends
                        .iter()
                        .find(|(m, _)| *m == r)
                        .map_or_else(|| model_position(game, r), |(_, e)| *e);
                    Placement {
                        model: r.model,
                        unit: unit_field(r),
                        x: at.x,
                        y: at.y,
                        z: at.z,
                        facing: game.scene.armies[army].units[r.unit].models[r.model].facing,
                    }
                })
                .collect();
            Ok(Command::Deploy {
                player,
                unit: id,
                models,
                transport: None,
            })
        }
        Stage::Battle => match game.phase {
            Phase::Movement => Ok(Command::Move {
                player,
                unit: id,
                mode,
                paths: paths(),
            }),
            Phase::Charge
                if game
                    .charge
                    .as_ref()
                    .is_some_and(|c| c.army == army && c.unit == root) =>
            {
                Ok(Command::ChargeMove {
                    player,
                    unit: id,
                    paths: paths(),
                })
            }
            Phase::Fight => {
                let fought = game
                    .fight
                    .as_ref()
                    .and_then(|f| f.current)
                    .is_some_and(|(a, u, attacked)| a == army && u == root && attacked);
                Ok(if fought {
                    Command::Consolidate {
                        player,
                        unit: id,
                        paths: paths(),
                    }
                } else {
                    Command::PileIn {
                        player,
                        unit: id,
                        paths: paths(),
                    }
                })
            }
            phase => Err(format!("models do not move in the {}", phase.name())),
        },
        _ => Err(format!("models do not move during {}", game.describe_now())),
    }
}

/// Whether the engine would accept `command`, tried on a copy of the game. An Advance is tried
/// with the best Advance roll, so the answer does not reveal the dice; it says which roll the
/// move needs instead.
pub fn check(game: &Game, command: &Command, draft: Option<&Draft>) -> Verdict {
    let mut copy = game.clone();
    let advance = matches!(
        command,
        Command::Move {
            mode: MoveMode::Advance,
            ..
        }
    );
    if advance {
        copy.rng = GameRng::scripted(&[6]);
    }
    match copy.apply(command) {
        Ok(_) => Verdict::Legal {
            advance_roll_needed: advance
                .then(|| draft.map(|d| advance_roll_needed(game, d)))
                .flatten(),
        },
        Err(r) => Verdict::Illegal(r),
    }
}

/// The longest straight path of a draft (inches, climbing counted).
pub fn draft_distance(game: &Game, draft: &Draft) -> f32 {
    draft
        .ends
        .iter()
        .map(|(r, end)| path_length(model_position(game, *r), &[*end]))
        .fold(0.0, f32::max)
}

/// The distance the moving unit may cover now (inches): its Move characteristic (the slowest
/// model), the pending charge's roll, or 3" to Pile In or Consolidate; None when unknown
/// before a roll (Advance) or when nothing moves.
pub fn allowance(game: &Game, draft: &Draft, mode: MoveMode) -> Option<f32> {
    let root = game.combined(draft.army, draft.unit)[0];
    let movement = || {
        game.combined(draft.army, root)
            .iter()
            .map(|&u| game.scene.armies[draft.army].units[u].datasheet.movement)
            .fold(f32::INFINITY, f32::min)
    };
    match (game.stage, game.phase) {
        (Stage::Battle, Phase::Movement) => (mode != MoveMode::Advance).then(movement),
        (Stage::Battle, Phase::Charge) => game.charge.as_ref().map(|c| c.distance()),
        (Stage::Battle, Phase::Fight) => {
            let fought = game
                .fight
                .as_ref()
                .and_then(|f| f.current)
                .is_some_and(|(a, u, done)| a == draft.army && u == root && done);
            Some(if fought {
                CONSOLIDATE_INCHES
            } else {
                PILE_IN_INCHES
            })
        }
        _ => None,
    }
}

/// The smallest Advance roll that covers the draft: the longest path less the Move
/// characteristic, rounded up (at least 1).
pub fn advance_roll_needed(game: &Game, draft: &Draft) -> u32 {
    let m = allowance(game, draft, MoveMode::Normal).unwrap_or(0.0);
    let over = draft_distance(game, draft) - m - crate::rules::constants::MEASURE_TOLERANCE_INCHES;
    (over.max(0.0).ceil() as u32).max(1)
}

/// A draft moving every model of the combined unit by `delta` (inches) from where it stands
/// (or from its drafted end, when `previous` drafts the same unit).
pub fn drag_unit(
    game: &Game,
    previous: Option<&Draft>,
    army: usize,
    unit: usize,
    delta: TableVec3,
) -> Draft {
    let root = game.combined(army, unit)[0];
    let models = match game.stage {
        Stage::Setup | Stage::Deployment => game.live_models_anywhere(army, root),
        _ => game.live_models(army, root),
    };
    let from = |r: ModelRef| {
        previous
            .filter(|d| d.army == army && d.unit == root)
            .and_then(|d| d.ends.iter().find(|(m, _)| *m == r).map(|(_, e)| *e))
            .unwrap_or_else(|| model_position(game, r))
    };
    Draft {
        army,
        unit: root,
        ends: models.into_iter().map(|r| (r, from(r) + delta)).collect(),
    }
}

/// A draft with one model's end set to `to`, keeping the other drafted models of the unit.
pub fn drag_model(game: &Game, previous: Option<&Draft>, model: ModelRef, to: TableVec3) -> Draft {
    let root = game.combined(model.army, model.unit)[0];
    let mut draft = previous
        .filter(|d| d.army == model.army && d.unit == root)
        .cloned()
        .unwrap_or(Draft {
            army: model.army,
            unit: root,
            ends: Vec::new(),
        });
    match draft.ends.iter_mut().find(|(m, _)| *m == model) {
        Some(end) => end.1 = to,
        None => draft.ends.push((model, to)),
    }
    draft
}

/// The line-of-sight report of the unit (`army`, `unit`): for every enemy model on the table,
/// the best sight any of the unit's models has (fully visible, visible, not visible), a witness
/// line, the blocker or rule when sight is short, and the Benefit of Cover reason. Core Rules:
/// Determining Visibility, Benefit of Cover; Rules Commentary: ruins (sight through footprints).
pub fn los_report(game: &Game, army: usize, unit: usize) -> LosReport {
    let sight = game.sight();
    let root = game.combined(army, unit)[0];
    let observers = game.entries_of(&sight, army, root);
    let sampling = Sampling::FAST;
    let index = &sight.index;
    let mut targets = Vec::new();
    for (t, r) in sight.models.iter().enumerate() {
        if r.army == army {
            continue;
        }
        let mut best: Option<(SightStatus, Option<[TableVec3; 2]>, Option<Blocker>)> = None;
        let mut first_block: Option<Blocker> = None;
        for &o in &observers {
            let v = index.model_visibility(o, t, SeeThrough::OwnUnit, &sampling);
            let status = if v.fully_visible {
                SightStatus::FullyVisible
            } else if v.visible {
                SightStatus::Visible
            } else {
                SightStatus::NotVisible
            };
            if first_block.is_none() {
                first_block = v.blocked_by.clone();
            }
            let better = best
                .as_ref()
                .is_none_or(|(s, _, _)| rank(status) > rank(*s));
            if better {
                best = Some((status, v.witness, v.not_fully_because.clone()));
            }
            if status == SightStatus::FullyVisible {
                break;
            }
        }
        let (status, witness, not_fully) = best.unwrap_or((SightStatus::NotVisible, None, None));
        let reason = match status {
            SightStatus::FullyVisible => None,
            SightStatus::Visible => not_fully.map(|b| b.to_string()),
            SightStatus::NotVisible => first_block.map(|b| b.to_string()),
        };
        let cover = (status != SightStatus::NotVisible)
            .then(|| index.benefit_of_cover(t, &observers, &sampling))
            .flatten();
        targets.push(TargetSight {
            model: *r,
            status,
            witness,
            reason,
            cover,
        });
    }
    LosReport {
        observer: Some((army, root)),
        targets,
    }
}

fn rank(s: SightStatus) -> u8 {
    match s {
        SightStatus::NotVisible => 0,
        SightStatus::Visible => 1,
        SightStatus::FullyVisible => 2,
    }
}

/// Undoes the last accepted command: replays the save without it from the starting scene,
/// and rewrites the autosave.
///
/// # Errors
/// Nothing to undo, or the replay fails (a sentence).
pub fn undo(active: &mut ActiveGame, origin: &Scene) -> Result<Command, String> {
    let save = active.save.as_mut().ok_or("no game is under way")?;
    let last = save.commands.pop().ok_or("nothing to undo")?;
    match replay(origin.clone(), save.seed, &save.commands) {
        Ok((game, _)) => {
            active.game = Some(game);
            if let Some(path) = &active.autosave {
                write_save(path, save).map_err(|e| format!("{}: {e}", path.display()))?;
            }
            Ok(last)
        }
        Err((i, r)) => {
            save.commands.push(last);
            Err(format!("the replay rejects command {i}: {r}"))
        }
    }
}

/// Sends `command` to the engine (through the battle plugin's messages).
pub fn issue(writer: &mut MessageWriter<GameCommand>, state: &mut PlayState, command: Command) {
    state.draft = None;
    state.verdict = None;
    writer.write(GameCommand(command));
}

fn record_events(
    mut state: ResMut<PlayState>,
    mut events: MessageReader<BattleEvent>,
    mut rejected: MessageReader<CommandRejected>,
    mut autosave_failed: MessageReader<AutosaveFailed>,
    active: Res<ActiveGame>,
    mut last_actor: Local<Option<u8>>,
) {
    let mut any = false;
    for BattleEvent(e) in events.read() {
        state.log.push(e.to_string());
        any = true;
    }
    let mut failed = None;
    for f in autosave_failed.read() {
        failed = Some(format!("{}: {}", f.file.display(), f.reason));
    }
    if let Some(f) = failed {
        state.log.push(format!("AUTOSAVE FAILED {f}"));
        state.autosave_error = Some(f);
    } else if any && state.autosave_error.is_some() {
        // An accepted command whose autosave did not fail: the save is whole again.
        state.autosave_error = None;
    }
    if any {
        state.rejection = None;
    }
    for r in rejected.read() {
        state
            .log
            .push(format!("REJECTED {}: {}", r.command.kind(), r.rejection));
        state.rejection = Some((r.command.kind().to_string(), r.rejection.clone()));
    }
    // Only touch the log when it is over the limit: a mutable borrow marks the state changed
    // and wakes the draft checker.
    let excess = state.log.len().saturating_sub(DICE_LOG_LINES);
    if excess > 0 {
        state.log.drain(..excess);
    }
    if let Some(game) = &active.game {
        let actor = game.acting_player().unwrap_or(game.active_player);
        if last_actor.is_some_and(|p| p != actor) && state.hotseat && game.stage != Stage::GameOver
        {
            state.handover = Some(actor);
            state.draft = None;
            state.verdict = None;
            state.eye = None;
        }
        *last_actor = Some(actor);
    } else {
        *last_actor = None;
    }
}

fn check_draft_system(mut state: ResMut<PlayState>, active: Res<ActiveGame>) {
    if !(state.is_changed() || active.is_changed()) {
        return;
    }
    let verdict = match (&active.game, &state.draft) {
        (Some(game), Some(draft)) => Some(match draft_command(game, draft, state.move_mode) {
            Ok(c) => check(game, &c, Some(draft)),
            Err(why) => Verdict::Nothing(why),
        }),
        _ => None,
    };
    if state.verdict != verdict {
        state.verdict = verdict;
    }
}
