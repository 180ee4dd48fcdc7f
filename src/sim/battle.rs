//! The battle engine in Bevy: the game as a resource, players' commands as messages, the
//! engine's events and rejections as messages, the game flow mirrored in Bevy states, and the
//! model entities kept where the game puts them. Runs headless (MinimalPlugins + StatesPlugin).

use std::path::PathBuf;

use bevy::prelude::*;

use super::components::{ObjectiveMarker, TableModel};
use crate::data::Scene;
use crate::game::save::{SaveFile, replay, write_save};
use crate::game::{Command, Game, GameEvent, Rejection};
use crate::rules::phase::Stage;

/// Where the game is, mirroring [`Stage`].
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BattleState {
    /// No game is being played.
    #[default]
    NoGame,
    /// Declaring Reserves.
    Setup,
    /// Deploying armies.
    Deployment,
    /// Scout moves, before the first battle round.
    Scouts,
    /// Battle rounds.
    Battle,
    /// The battle is over.
    GameOver,
}

/// The game being played and its save (scene path, seed, accepted commands).
#[derive(Resource, Default)]
pub struct ActiveGame {
    /// The game, if one is under way.
    pub game: Option<Game>,
    /// Its save: every accepted command.
    pub save: Option<SaveFile>,
    /// Where the save is written after every accepted command, if anywhere.
    pub autosave: Option<PathBuf>,
}

/// A player's command for the engine.
#[derive(Message, Debug, Clone)]
pub struct GameCommand(pub Command);

/// The scene the game started from (for undo: a replay needs the table before any command).
#[derive(Resource, Debug, Clone, Default)]
pub struct GameOrigin(pub Option<Scene>);

/// A player asks to take back the last accepted command (see [`undo`]); answered by
/// [`Undone`]. Ignored while no starting scene is known ([`GameOrigin`]).
#[derive(Message, Debug, Clone, Copy, Default)]
pub struct UndoRequested;

/// The answer to an [`UndoRequested`]: the command taken back, or why nothing was; then every
/// event of the game as it now stands (the replay's; empty when nothing was undone).
#[derive(Message, Debug, Clone)]
pub struct Undone(pub Result<Command, String>, pub Vec<GameEvent>);

/// Takes the game off the table (its save and autosave stay, for loading it again).
#[derive(Message, Debug, Clone, Copy, Default)]
pub struct CloseGame;

/// A model entity as [`sync_models`] brings it in step with the game.
type ModelItem<'a> = (
    Entity,
    &'a TableModel,
    &'a mut Transform,
    Has<OffTable>,
    Option<&'a Gliding>,
);

/// An event of an accepted command.
#[derive(Message, Debug, Clone)]
pub struct BattleEvent(pub GameEvent);

/// A rejected command and why (nothing changed).
#[derive(Message, Debug, Clone)]
pub struct CommandRejected {
    /// The command.
    pub command: Command,
    /// The rule it breaks.
    pub rejection: Rejection,
}

/// The autosave could not be written after an accepted command (the game goes on; the
/// message says where and why, for the player to see).
#[derive(Message, Debug, Clone)]
pub struct AutosaveFailed {
    /// The save file.
    pub file: PathBuf,
    /// The operating system's reason.
    pub reason: String,
}

/// Marks a model that is not on the table (destroyed, embarked or in Reserves).
#[derive(Component, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OffTable;

/// While present, models slide to where a command puts them over `seconds` instead of
/// jumping there (the computer's moves are followed at a readable pace).
#[derive(Resource, Debug, Clone, Copy)]
pub struct ModelGlide {
    /// Seconds a slide takes.
    pub seconds: f32,
}

/// A model sliding from `from` to `to` (table inches), `elapsed` of `seconds` done.
#[derive(Component, Debug, Clone, Copy)]
pub struct Gliding {
    /// Where the slide started.
    pub from: Vec3,
    /// Where the game puts the model.
    pub to: Vec3,
    /// Seconds done.
    pub elapsed: f32,
    /// Seconds the slide takes.
    pub seconds: f32,
}

/// The system set that applies commands and brings states and entities in step.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct BattleSystems;

/// The systems that issue [`GameCommand`]s and the other requests of this module (keys, the
/// computer player): they run before [`BattleSystems`], so a command is applied in the frame
/// it is given.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct InputSystems;

/// Registers the battle resources, messages, states and systems, and places each model entity
/// where the game has it as soon as it is spawned.
pub fn plugin(app: &mut App) {
    app.init_resource::<ActiveGame>()
        .init_state::<BattleState>()
        .add_message::<GameCommand>()
        .add_message::<BattleEvent>()
        .add_message::<CommandRejected>()
        .add_message::<AutosaveFailed>()
        .add_message::<UndoRequested>()
        .add_message::<Undone>()
        .add_message::<CloseGame>()
        .init_resource::<GameOrigin>()
        .add_observer(place_new_model)
        .configure_sets(Update, InputSystems.before(BattleSystems))
        .add_systems(
            Update,
            (
                apply_commands,
                apply_undo,
                close_game,
                sync_states,
                sync_models,
                sync_objectives,
                glide_models,
            )
                .chain()
                .in_set(BattleSystems),
        );
}

fn apply_commands(
    mut active: ResMut<ActiveGame>,
    mut commands: MessageReader<GameCommand>,
    mut events: MessageWriter<BattleEvent>,
    mut rejected: MessageWriter<CommandRejected>,
    mut autosave_failed: MessageWriter<AutosaveFailed>,
) {
    // Marked changed only when a command is accepted: a refusal leaves the game as it was and
    // wakes nothing that follows the game.
    let mut accepted = false;
    for GameCommand(c) in commands.read() {
        let ActiveGame {
            game,
            save,
            autosave,
        } = active.bypass_change_detection();
        let Some(game) = game.as_mut() else {
            rejected.write(CommandRejected {
                command: c.clone(),
                rejection: Rejection::new(crate::game::Rule::Sequencing, "no game is under way"),
            });
            continue;
        };
        let mut accept = |game: &mut Game, c: &Command| -> Result<(), Rejection> {
            let evs = game.apply(c)?;
            if let Some(save) = save.as_mut() {
                save.commands.push(c.clone());
                if let Some(path) = autosave
                    && let Err(e) = write_save(path, save)
                {
                    error!("cannot write the autosave: {e}");
                    autosave_failed.write(AutosaveFailed {
                        file: path.clone(),
                        reason: e.to_string(),
                    });
                }
            }
            events.write_batch(evs.into_iter().map(BattleEvent));
            Ok(())
        };
        match accept(game, c) {
            Ok(()) => accepted = true,
            Err(rejection) => {
                rejected.write(CommandRejected {
                    command: c.clone(),
                    rejection,
                });
            }
        }
    }
    if accepted {
        active.set_changed();
    }
}

/// Undoes the last accepted command: replays the save without it from the starting scene,
/// and rewrites the autosave.
///
/// # Errors
/// Nothing to undo, or the replay fails (a sentence).
pub fn undo(active: &mut ActiveGame, origin: &Scene) -> Result<Command, String> {
    undo_with_events(active, origin).map(|(c, _)| c)
}

/// [`undo`], with every event of the replay (the game as it now stands), for the dice log.
///
/// # Errors
/// As [`undo`].
pub fn undo_with_events(
    active: &mut ActiveGame,
    origin: &Scene,
) -> Result<(Command, Vec<GameEvent>), String> {
    let save = active.save.as_mut().ok_or("no game is under way")?;
    let last = save.commands.pop().ok_or("nothing to undo")?;
    match replay(origin.clone(), save.seed, &save.commands) {
        Ok((game, events)) => {
            active.game = Some(game);
            if let Some(path) = &active.autosave {
                write_save(path, save).map_err(|e| e.to_string())?;
            }
            Ok((last, events))
        }
        Err((i, r)) => {
            save.commands.push(last);
            Err(format!("the replay rejects command {i}: {r}"))
        }
    }
}

/// Answers each [`UndoRequested`] with [`undo`] and an [`Undone`].
fn apply_undo(
    mut requests: MessageReader<UndoRequested>,
    mut active: ResMut<ActiveGame>,
    origin: Res<GameOrigin>,
    mut undone: MessageWriter<Undone>,
) {
    for UndoRequested in requests.read() {
        if let Some(origin) = &origin.0 {
            undone.write(match undo_with_events(&mut active, origin) {
                Ok((c, events)) => Undone(Ok(c), events),
                Err(e) => Undone(Err(e), Vec::new()),
            });
        }
    }
}

/// Takes the game off the table on [`CloseGame`].
fn close_game(mut requests: MessageReader<CloseGame>, mut active: ResMut<ActiveGame>) {
    if requests.read().count() > 0 && active.game.is_some() {
        active.game = None;
    }
}

fn sync_states(active: Res<ActiveGame>, mut battle: ResMut<NextState<BattleState>>) {
    if !active.is_changed() {
        return;
    }
    let Some(game) = &active.game else {
        NextState::set_if_neq(&mut *battle, BattleState::NoGame);
        return;
    };
    NextState::set_if_neq(
        &mut *battle,
        match game.stage {
            Stage::Setup => BattleState::Setup,
            Stage::Deployment => BattleState::Deployment,
            Stage::Scouts => BattleState::Scouts,
            Stage::Battle => BattleState::Battle,
            Stage::GameOver => BattleState::GameOver,
        },
    );
}

/// Brings every model entity in step with the game when the game changes.
fn sync_models(
    mut cmd: Commands,
    active: Res<ActiveGame>,
    glide: Option<Res<ModelGlide>>,
    mut models: Query<ModelItem>,
) {
    if !active.is_changed() {
        return;
    }
    let Some(game) = &active.game else { return };
    for item in &mut models {
        sync_model(&mut cmd, game, glide.as_deref(), item);
    }
}

/// Brings the objective marker entities in step with the game's markers when the game changes:
/// a marker moved (Unexploded Ordnance), placed (The Ritual, Hidden Supplies) or removed
/// (Supply Drop, Burn Objective) is moved, spawned or despawned on the table.
fn sync_objectives(
    mut cmd: Commands,
    active: Res<ActiveGame>,
    mut markers: Query<(Entity, &ObjectiveMarker, &mut Transform)>,
) {
    if !active.is_changed() {
        return;
    }
    let Some(game) = &active.game else { return };
    let mut shown = Vec::new();
    for (e, marker, mut transform) in &mut markers {
        match game.scene.objectives.iter().find(|o| o.id == marker.id) {
            Some(o) => {
                let at = Vec3::new(o.at.0, o.at.1, o.z);
                if transform.translation != at {
                    transform.translation = at;
                }
                shown.push(marker.id.clone());
            }
            None => cmd.entity(e).despawn(),
        }
    }
    for o in game
        .scene
        .objectives
        .iter()
        .filter(|o| !shown.contains(&o.id))
    {
        cmd.spawn(super::scene::objective_bundle(o));
    }
}

/// A model entity just spawned (a new scene on the table) stands where the game has it.
fn place_new_model(
    add: On<Add, TableModel>,
    mut cmd: Commands,
    active: Res<ActiveGame>,
    glide: Option<Res<ModelGlide>>,
    mut models: Query<ModelItem>,
) {
    let Some(game) = &active.game else { return };
    if let Ok(item) = models.get_mut(add.entity) {
        sync_model(&mut cmd, game, glide.as_deref(), item);
    }
}

/// Puts one model entity where the game has it: its facing, its place (sliding there while
/// [`ModelGlide`] is present), and [`OffTable`] when it is not on the table.
fn sync_model(
    cmd: &mut Commands,
    game: &Game,
    glide: Option<&ModelGlide>,
    (e, &TableModel(r), mut transform, off, gliding): (
        Entity,
        &TableModel,
        Mut<Transform>,
        bool,
        Option<&Gliding>,
    ),
) {
    let Some(m) = game
        .scene
        .armies
        .get(r.army)
        .and_then(|a| a.units.get(r.unit))
        .and_then(|u| u.models.get(r.model))
    else {
        return;
    };
    let on = game.on_table(r);
    if on {
        let rotation = Quat::from_rotation_z(m.facing.to_radians());
        if transform.rotation != rotation {
            transform.rotation = rotation;
        }
        match (glide, gliding) {
            (_, Some(g)) if g.to == m.position => {}
            // Slide only between two places on the table.
            (Some(glide), _) if !off && glide.seconds > 0.0 => {
                if transform.translation != m.position {
                    cmd.entity(e).insert(Gliding {
                        from: transform.translation,
                        to: m.position,
                        elapsed: 0.0,
                        seconds: glide.seconds,
                    });
                }
            }
            _ => {
                if transform.translation != m.position {
                    transform.translation = m.position;
                }
                if gliding.is_some() {
                    cmd.entity(e).remove::<Gliding>();
                }
            }
        }
    }
    match (on, off) {
        (true, true) => {
            cmd.entity(e).remove::<OffTable>();
        }
        (false, false) => {
            cmd.entity(e).insert(OffTable);
        }
        _ => {}
    }
}

/// Moves sliding models along (smoothstep easing) and ends their slides.
fn glide_models(
    mut cmd: Commands,
    time: Res<Time>,
    mut models: Query<(Entity, &mut Transform, &mut Gliding)>,
) {
    for (e, mut transform, mut g) in &mut models {
        g.elapsed += time.delta_secs();
        let t = (g.elapsed / g.seconds).clamp(0.0, 1.0);
        transform.translation = g.from.lerp(g.to, t * t * (3.0 - 2.0 * t));
        if t >= 1.0 {
            cmd.entity(e).remove::<Gliding>();
        }
    }
}
