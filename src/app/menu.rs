//! The main menu and starting games: a new hot-seat game on one of the layouts with a
//! deployment map, two armies and a dice seed, or a saved game loaded from the saves folder.
//! Every game autosaves after each accepted command.

use std::path::{Path, PathBuf};

use bevy::prelude::*;

use super::play::{GameOrigin, PlayState};
use crate::data::scene::{SceneArmy, SceneFile};
use crate::data::source::embedded_files;
use crate::data::{Scene, load_scene};
use crate::game::save::{SaveFile, load_save, relative_path, write_save};
use crate::game::{Game, GameEvent};
use crate::sim::ActiveScene;
use crate::sim::battle::ActiveGame;

/// Which screen the app shows.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Screen {
    /// The main menu over the table.
    #[default]
    Menu,
    /// A game on the table.
    Table,
    /// The layout editor.
    Editor,
}

/// The folder autosaves go to (default `saves/` in the working directory).
#[derive(Resource, Debug, Clone)]
pub struct SavesDir(pub PathBuf);

impl Default for SavesDir {
    fn default() -> Self {
        SavesDir(PathBuf::from("saves"))
    }
}

/// The new-game form: data files by their path under `scenes/` (layout, deployment map,
/// mission, the armies of players 1 and 2), the seed and whether it is random.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct NewGameForm {
    /// Layout file, e.g. `scenes/layouts/layout-1.ron`.
    pub layout: String,
    /// Deployment map file.
    pub deployment: String,
    /// Mission file.
    pub mission: String,
    /// Army files of players 1 and 2.
    pub armies: [String; 2],
    /// Dice seed.
    pub seed: u64,
    /// Draw a random seed when the game starts.
    pub random_seed: bool,
    /// The player the computer plays (0: none, a hot-seat game).
    pub computer: u8,
}

impl Default for NewGameForm {
    /// The default scene's choices: layout 1, Search and Destroy, Only War, Ultramarines
    /// against Orks.
    fn default() -> Self {
        NewGameForm {
            layout: "scenes/layouts/layout-1.ron".into(),
            deployment: "scenes/deployments/search-and-destroy.ron".into(),
            mission: "scenes/missions/only-war.ron".into(),
            armies: [
                "scenes/armies/ultramarines.ron".into(),
                "scenes/armies/orks.ron".into(),
            ],
            seed: 7,
            random_seed: false,
            computer: 0,
        }
    }
}

/// A save in the saves folder, described for the load list.
#[derive(Debug, Clone, PartialEq)]
pub struct SaveEntry {
    /// The save file.
    pub path: PathBuf,
    /// "Layout 1 - ... : battle round 2, player 1's Shooting phase (57 commands)", or why it
    /// cannot be loaded.
    pub label: String,
    /// The save loads.
    pub ok: bool,
}

/// The saves listed in the menu (refreshed when the menu opens).
#[derive(Resource, Debug, Clone, Default)]
pub struct SaveList(pub Vec<SaveEntry>);

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

/// Registers the screens, the form and the save list.
pub fn plugin(app: &mut App) {
    app.init_state::<Screen>()
        .init_resource::<NewGameForm>()
        .init_resource::<SavesDir>()
        .init_resource::<SaveList>()
        .add_systems(OnEnter(Screen::Menu), refresh_saves);
}

/// The embedded data files under `folder` (e.g. `scenes/layouts/`), sorted.
pub fn data_files(folder: &str) -> Vec<String> {
    let mut v: Vec<String> = embedded_files()
        .iter()
        .map(|(p, _)| p.to_string())
        .filter(|p| p.starts_with(folder) && p.ends_with(".ron"))
        .collect();
    v.sort();
    v
}

/// The file name without folder and `.ron`, for the menu ("layout-1").
pub fn short_name(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.strip_suffix(".ron").unwrap_or(name)
}

/// Writes the form's scene file into `saves`, starts the game on it with the form's seed (or
/// `random` when the form asks for a random one) and writes the first autosave.
///
/// # Errors
/// The scene does not load (each problem naming its file), or the saves folder cannot be
/// written.
pub fn start_new_game(
    form: &NewGameForm,
    saves: &Path,
    random: u64,
) -> Result<StartedGame, String> {
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
            "{} - {}",
            title_case(short_name(&form.layout)),
            title_case(short_name(&form.deployment))
        ),
        layout: rel(&form.layout),
        deployment: rel(&form.deployment),
        mission: rel(&form.mission),
        armies: form
            .armies
            .iter()
            .enumerate()
            .map(|(i, a)| SceneArmy {
                player: i as u8 + 1,
                army: rel(a),
                placements: Vec::new(),
            })
            .collect(),
        options: crate::data::scene::SceneOptions {
            ground_floor_windows_closed: true,
        },
    };
    let text = ron::ser::to_string_pretty(&data, ron::ser::PrettyConfig::new())
        .map_err(|e| e.to_string())?;
    std::fs::write(&scene_file, text).map_err(|e| format!("{}: {e}", scene_file.display()))?;
    let origin = load_scene(&scene_file).map_err(|e| e.to_string())?;
    begin(
        origin,
        format!("{stem}.scene.ron"),
        seed,
        saves.join(format!("{stem}.save.ron")),
    )
}

/// Starts the game on `origin` and writes its first autosave (scene path `scene_ref`).
fn begin(
    origin: Scene,
    scene_ref: String,
    seed: u64,
    autosave: PathBuf,
) -> Result<StartedGame, String> {
    let (game, events) = Game::start(origin.clone(), seed);
    let save = SaveFile {
        scene: scene_ref,
        seed,
        commands: Vec::new(),
    };
    write_save(&autosave, &save).map_err(|e| format!("{}: {e}", autosave.display()))?;
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
    let origin = load_scene(scene_file).map_err(|e| e.to_string())?;
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
    begin(origin, scene_ref, seed, autosave)
}

/// Loads a save and keeps autosaving to it.
///
/// # Errors
/// The save or its scene does not load, or a command is rejected on replay.
pub fn load_game(path: &Path) -> Result<StartedGame, String> {
    let (game, save) = load_save(path).map_err(|e| e.to_string())?;
    let origin =
        load_scene(&crate::data::source::sibling(path, &save.scene)).map_err(|e| e.to_string())?;
    Ok(StartedGame {
        origin,
        game,
        save,
        autosave: path.to_path_buf(),
        events: Vec::new(),
    })
}

/// Every `*.save.ron` in `dir`, newest first, with the moment of the game it reached.
pub fn list_saves(dir: &Path) -> Vec<SaveEntry> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = read
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".save.ron"))
        .map(|p| {
            let t = std::fs::metadata(&p)
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            (t, p)
        })
        .collect();
    files.sort_by_key(|f| std::cmp::Reverse(f.0));
    files
        .into_iter()
        .map(|(_, path)| match load_save(&path) {
            Ok((game, save)) => SaveEntry {
                label: format!(
                    "{}: {} ({} commands)",
                    game.scene.name,
                    game.describe_now(),
                    save.commands.len()
                ),
                path,
                ok: true,
            },
            Err(e) => SaveEntry {
                label: e.to_string().lines().next().unwrap_or_default().to_string(),
                path,
                ok: false,
            },
        })
        .collect()
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
    let mut play = PlayState::default();
    play.log.extend(events.iter().map(ToString::to_string));
    world.insert_resource(play);
    world.insert_resource(ActiveGame {
        game: Some(game),
        save: Some(save),
        autosave: Some(autosave),
    });
    world.resource_mut::<NextState<Screen>>().set(Screen::Table);
    world.remove_resource::<super::computer::Computer>();
    world.remove_resource::<crate::sim::battle::ModelGlide>();
}

/// [`put_on_table`], with the computer playing `computer` (0: nobody, a hot-seat game).
pub fn put_on_table_against(world: &mut World, started: StartedGame, computer: u8) {
    put_on_table(world, started);
    if computer == 1 || computer == 2 {
        world.insert_resource(super::computer::Computer::new(computer));
        world.resource_mut::<PlayState>().hotseat = false;
    }
}

fn refresh_saves(dir: Res<SavesDir>, mut list: ResMut<SaveList>) {
    list.0 = list_saves(&dir.0);
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
