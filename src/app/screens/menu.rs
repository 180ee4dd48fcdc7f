//! The main menu: the new-game form (layout, deployment map, mission, two armies, dice seed,
//! opponent) and the saves that can be loaded. The window itself is drawn by the HUD
//! (`hud::menu`); starting the chosen game is [`super::table`].

use std::path::{Path, PathBuf};

use bevy::prelude::*;

/// The screen state, also reachable as `app::menu::Screen` (the path tests/ai.rs uses).
pub use super::Screen;
use crate::data::source::embedded_files;
use crate::game::save::load_save;

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

/// Registers the form, the saves folder and the save list (refreshed when the menu opens).
pub fn plugin(app: &mut App) {
    app.init_resource::<NewGameForm>()
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

fn refresh_saves(dir: Res<SavesDir>, mut list: ResMut<SaveList>) {
    list.0 = list_saves(&dir.0);
}
