//! Starting games and putting them on the table: a new hot-seat game from the menu's form, a
//! game on an existing scene file (`play <scene>`), or a saved game loaded from the saves
//! folder. Every game autosaves after each accepted command.

use std::path::{Path, PathBuf};

use bevy::prelude::*;

use super::Screen;
use super::menu::{NewGameForm, short_name};
use crate::ai::Level;
use crate::app::computer::Computer;
use crate::app::pairings;
use crate::app::play::{self, HandOver, PlayView, Seats};
use crate::data::scene::{SceneArmy, SceneFile};
use crate::data::{Scene, load_scene};
use crate::game::save::{SaveFile, load_save_with_events, relative_path, write_save};
use crate::game::{Game, GameEvent};
use crate::rules::secondary::SecondaryMode;
use crate::sim::ActiveScene;
use crate::sim::battle::{ActiveGame, AutosaveFailed, GameOrigin, ModelGlide};

/// A game ready to be put on the table.
pub struct StartedGame {
    /// The starting scene (for the table and for undo).
    pub origin: Scene,
    /// The game.
    pub game: Game,
    /// Its save.
    pub save: SaveFile,
    /// Where it autosaves.
    pub autosave: PathBuf,
    /// Events so far (the roll-off, or the replay).
    pub events: Vec<GameEvent>,
}

/// The two armies of a new game's scene file: players 1 and 2 with their army files (as the
/// scene file spells them), their secondary missions, no placements (set up automatically),
/// and Battle Ready.
pub fn scene_armies(armies: [String; 2], secondaries: [SecondaryMode; 2]) -> Vec<SceneArmy> {
    armies
        .into_iter()
        .zip(secondaries)
        .enumerate()
        .map(|(i, (army, secondaries))| SceneArmy {
            player: i as u8 + 1,
            army,
            placements: Vec::new(),
            secondaries,
            battle_ready: true,
        })
        .collect()
}

/// The secondary missions the form's game is played with: the form's choices when its
/// mission has a secondary deck (checked against it, [`pairings::check_secondaries`]),
/// Tactical for both otherwise.
///
/// # Errors
/// The mission or its deck does not load, or a player's Fixed cards are not allowed
/// ("player 2: the two Fixed cards must differ").
pub fn form_secondaries(form: &NewGameForm) -> Result<[SecondaryMode; 2], String> {
    let Some(deck) = pairings::mission_deck(&form.mission)? else {
        return Ok([SecondaryMode::Tactical, SecondaryMode::Tactical]);
    };
    for (i, mode) in form.secondaries.iter().enumerate() {
        pairings::check_secondaries(&deck, form.tournament, mode)
            .map_err(|e| format!("player {}: {e}", i + 1))?;
    }
    Ok(form.secondaries.clone())
}

/// Writes the form's scene file into `saves`, starts the game on it with the form's seed (or
/// `random` when the form asks for a random one) and writes the first autosave. The armies
/// carry their secondary missions ([`form_secondaries`]) and are Battle Ready.
///
/// # Errors
/// The scene does not load (each problem naming its file), a Fixed secondary choice is not
/// allowed, or the saves folder cannot be written.
pub fn start_new_game(
    form: &NewGameForm,
    saves: &Path,
    random: u64,
) -> Result<StartedGame, String> {
    let secondaries = form_secondaries(form)?;
    std::fs::create_dir_all(saves).map_err(|e| format!("{}: {e}", saves.display()))?;
    let seed = if form.random_seed { random } else { form.seed };
    let stem = format!(
        "{}-{}-s{seed}-{}",
        short_name(&form.layout),
        short_name(&form.deployment),
        unique_suffix(saves)
    );
    let scene_file = saves.join(format!("{stem}.scene.ron"));
    // The shipped file on disk when the app runs in the project folder, else the copy built
    // into the binary (`builtin:`).
    let rel = |p: &str| relative_path(&crate::data::source::shipped(p), saves);
    let data = SceneFile {
        name: format!(
            "{} - {} - {}",
            title_case(short_name(&form.layout)),
            title_case(short_name(&form.deployment)),
            title_case(short_name(&form.mission))
        ),
        layout: rel(&form.layout),
        deployment: rel(&form.deployment),
        mission: rel(&form.mission),
        armies: scene_armies(form.armies.clone().map(|a| rel(&a)), secondaries),
        options: crate::data::scene::SceneOptions {
            ground_floor_windows_closed: true,
            ruleset: form.ruleset,
        },
        objectives: Vec::new(),
    };
    let text = ron::ser::to_string_pretty(&data, ron::ser::PrettyConfig::new())
        .map_err(|e| e.to_string())?;
    crate::data::write::write_file(&scene_file, &text, crate::data::write::Overwrite::Refuse)
        .map_err(|e| e.to_string())?;
    let origin = load_scene(&scene_file).map_err(|e| {
        // A scene that does not start leaves no file behind (this call wrote it just now).
        let _ = std::fs::remove_file(&scene_file);
        e.to_string()
    })?;
    begin(
        origin,
        format!("{stem}.scene.ron"),
        (seed, None),
        saves.join(format!("{stem}.save.ron")),
    )
}

/// Starts the game on `origin` and writes its first autosave (scene path `scene_ref`).
fn begin(
    origin: Scene,
    scene_ref: String,
    (seed, ruleset): (u64, Option<crate::rules::Ruleset>),
    autosave: PathBuf,
) -> Result<StartedGame, String> {
    let origin = origin.under(ruleset);
    if origin.edition().leader_and_support {
        // 11th edition attachments (one Leader and one Support), as loading checks them.
        let refused: Vec<String> = origin
            .armies
            .iter()
            .flat_map(crate::data::resolve::eleventh_attachments_refused)
            .collect();
        if !refused.is_empty() {
            return Err(refused.join("; "));
        }
    }
    let (game, events) = Game::start(origin.clone(), seed);
    let save = SaveFile {
        ruleset,
        ..SaveFile::new(scene_ref, seed, Vec::new())
    };
    write_save(&autosave, &save).map_err(|e| e.to_string())?;
    Ok(StartedGame {
        origin,
        game,
        save,
        autosave,
        events,
    })
}

/// Starts a new game on an existing scene file (`play <scene>`), autosaving into `saves`.
///
/// # Errors
/// The scene does not load, or the saves folder cannot be written.
pub fn start_on_scene(scene_file: &Path, saves: &Path, seed: u64) -> Result<StartedGame, String> {
    start_on_scene_under(scene_file, saves, (seed, None))
}

/// [`start_on_scene`] under `ruleset` when one is given (`play --ruleset`), which the save
/// records.
///
/// # Errors
/// As [`start_on_scene`].
pub fn start_on_scene_under(
    scene_file: &Path,
    saves: &Path,
    (seed, ruleset): (u64, Option<crate::rules::Ruleset>),
) -> Result<StartedGame, String> {
    let origin = crate::data::load_scene_under(scene_file, ruleset).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(saves).map_err(|e| format!("{}: {e}", saves.display()))?;
    let stem = format!(
        "{}-s{seed}-{}",
        scene_file
            .file_stem()
            .map_or("scene".into(), |s| s.to_string_lossy().to_string()),
        unique_suffix(saves)
    );
    let autosave = saves.join(format!("{stem}.save.ron"));
    let scene_ref = relative_path(scene_file, saves);
    begin(origin, scene_ref, (seed, ruleset), autosave)
}

/// Loads a save and keeps autosaving to it; its replayed events rebuild the dice log.
///
/// # Errors
/// The save or its scene does not load, or a command is rejected on replay.
pub fn load_game(path: &Path) -> Result<StartedGame, String> {
    let (game, save, events) = load_save_with_events(path).map_err(|e| e.to_string())?;
    let origin = save.load_scene(path).map_err(|e| e.to_string())?;
    Ok(StartedGame {
        origin,
        game,
        save,
        autosave: path.to_path_buf(),
        events,
    })
}

/// Who sits at the table for a loaded save: the computer's seat the save records (a game
/// against the computer goes on against it), unless `asked` is solo or a computer seat itself
/// (`--solo` / `--computer`, or the menu's choice). A save without a seat keeps `asked`.
///
/// # Errors
/// The save's seat names a player other than 1 or 2, or a level other than easy, normal or
/// hard (the message names the file).
pub fn seats_for_save(
    save: &SaveFile,
    file: &Path,
    asked: Seats,
    level: Level,
) -> Result<(Seats, Level), String> {
    match (&save.computer, asked) {
        (Some(seat), Seats::HotSeat) => {
            let (player, level) = Level::of_seat(seat)
                .map_err(|why| format!("{}: the computer's seat: {why}", file.display()))?;
            Ok((Seats::Computer(player), level))
        }
        _ => Ok((asked, level)),
    }
}

/// Asks the table screen to put a started game on the table (a new game, a loaded save, or
/// the game given on the command line): see [`put_on_table_against`].
#[derive(Message)]
pub struct StartGame {
    /// The game.
    pub started: StartedGame,
    /// Who sits at the table: hot-seat, solo, or the computer as one player.
    pub seats: Seats,
    /// How strongly the computer plays.
    pub level: crate::ai::Level,
    /// The play state to show once it is on the table (a scripted start), if not a fresh one.
    pub view: Option<PlayView>,
}

/// The game the command line asked for, put on the table at startup (inserted before the app
/// runs, consumed by a Startup system that sends it as a [`StartGame`]).
#[derive(Resource)]
pub struct GameAtLaunch(pub StartGame);

/// Registers the [`StartGame`] message and the system that answers it.
pub fn plugin(app: &mut App) {
    app.add_message::<StartGame>()
        .add_systems(Startup, start_at_launch)
        .add_systems(
            Update,
            start_games
                .run_if(on_message::<StartGame>)
                .in_set(crate::sim::battle::InputSystems),
        );
}

fn start_at_launch(world: &mut World) {
    if let Some(GameAtLaunch(start)) = world.remove_resource::<GameAtLaunch>() {
        world.write_message(start);
    }
}

/// Puts every requested game on the table (the last one stays).
fn start_games(world: &mut World) {
    let starts: Vec<StartGame> = world
        .resource_mut::<Messages<StartGame>>()
        .drain()
        .collect();
    for StartGame {
        started,
        seats,
        level,
        view,
    } in starts
    {
        put_on_table_against(world, started, seats, level);
        if let Some(view) = view {
            view.insert(world);
        }
    }
}

/// Puts a started game on the table: the scene's entities, the game, its autosave, a fresh
/// play state, and the table screen.
pub fn put_on_table(world: &mut World, started: StartedGame) {
    let StartedGame {
        origin,
        game,
        save,
        autosave,
        events,
    } = started;
    world.insert_resource(ActiveScene(Some(origin.clone())));
    world.insert_resource(GameOrigin(Some(origin)));
    play::reset_play(world, play::ActionLog::of(&game, &events));
    world.insert_resource(ActiveGame {
        game: Some(game),
        save: Some(save),
        autosave: Some(autosave),
    });
    world.resource_mut::<NextState<Screen>>().set(Screen::Table);
    world.remove_resource::<Computer>();
    world.remove_resource::<ModelGlide>();
}

/// [`put_on_table`] with `seats` at the table: a hot-seat game, one person playing both sides,
/// or the computer playing one player at `level`. The computer's seat is written into the save
/// (and the autosave rewritten), so loading it goes on against the computer.
pub fn put_on_table_against(
    world: &mut World,
    mut started: StartedGame,
    seats: Seats,
    level: Level,
) {
    let seat = seats.computer().map(|player| level.seat(player));
    if started.save.computer != seat {
        started.save.computer = seat;
        if let Err(e) = write_save(&started.autosave, &started.save) {
            world.write_message(AutosaveFailed {
                file: started.autosave.clone(),
                reason: e.to_string(),
            });
        }
    }
    put_on_table(world, started);
    world.resource_mut::<HandOver>().seats = seats;
    if let Some(computer) = seats.computer() {
        world.insert_resource(Computer::new(computer, level));
    }
}

fn unique_suffix(dir: &Path) -> String {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut n = 0;
    loop {
        let s = if n == 0 {
            format!("{stamp}")
        } else {
            format!("{stamp}-{n}")
        };
        let taken = std::fs::read_dir(dir)
            .map(|r| {
                r.flatten()
                    .any(|e| e.file_name().to_string_lossy().contains(&s))
            })
            .unwrap_or(false);
        if !taken {
            return s;
        }
        n += 1;
    }
}

fn title_case(s: &str) -> String {
    s.split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}
