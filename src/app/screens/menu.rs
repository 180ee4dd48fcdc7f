//! The main menu: the new-game form (layout, deployment map, mission, two armies, their
//! secondary missions, dice seed, opponent) and the saves that can be loaded. The window itself is drawn by the HUD
//! (`hud::menu`); starting the chosen game is [`super::table`].

use std::path::{Path, PathBuf};

use bevy::prelude::*;

/// The screen state, also reachable as `app::menu::Screen` (the path tests/ai.rs uses).
pub use super::Screen;
use crate::app::pairings;
use crate::app::play::Seats;
use crate::data::source::embedded_files;
use crate::game::save::load_save;
use crate::rules::secondary::SecondaryMode;

/// The folder autosaves go to (default `saves/` in the working directory).
#[derive(Resource, Debug, Clone)]
pub struct SavesDir(pub PathBuf);

impl Default for SavesDir {
    fn default() -> Self {
        SavesDir(PathBuf::from("saves"))
    }
}

/// The new-game form: data files by their path under `scenes/` (layout, deployment map,
/// mission, the armies of players 1 and 2), whether only tournament pairings are offered, each
/// player's secondary missions, the seed and whether it is random.
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
    /// Who sits at the table: hot-seat, solo or the computer as one player.
    pub seats: Seats,
    /// How strongly the computer plays.
    pub computer_level: crate::ai::Level,
    /// Offer only the Tournament Companion's pairings of layout, deployment map and primary
    /// mission ([`pairings::PAIRINGS`]), and no Fixed card barred from tournaments.
    pub tournament: bool,
    /// Players 1 and 2: Tactical or two Fixed secondary cards (used when the mission has a
    /// secondary deck).
    pub secondaries: [SecondaryMode; 2],
    /// The folder whose `scenes/` holds the player's own files (imported armies, layouts saved
    /// in the editor), listed beside the built-in ones: the working directory by default.
    pub disk: PathBuf,
    /// The edition of the core rules the game is played under (10th by default).
    pub ruleset: crate::rules::Ruleset,
}

impl Default for NewGameForm {
    /// Layout 1, Search and Destroy, Take and Hold (a tournament pairing), Ultramarines
    /// against Orks, both Tactical.
    fn default() -> Self {
        NewGameForm {
            layout: "scenes/layouts/layout-1.ron".into(),
            deployment: "scenes/deployments/search-and-destroy.ron".into(),
            mission: "scenes/missions/take-and-hold.ron".into(),
            armies: [
                "scenes/armies/ultramarines.ron".into(),
                "scenes/armies/orks.ron".into(),
            ],
            seed: 7,
            random_seed: false,
            seats: Seats::HotSeat,
            computer_level: crate::ai::Level::Hard,
            tournament: true,
            secondaries: [SecondaryMode::Tactical, SecondaryMode::Tactical],
            disk: PathBuf::from("."),
            ruleset: crate::rules::Ruleset::Tenth,
        }
    }
}

/// `paired`, then the rest of `all`.
fn paired_first(paired: Vec<String>, all: Vec<String>) -> (Vec<String>, Vec<String>) {
    let rest = all.into_iter().filter(|x| !paired.contains(x)).collect();
    (paired, rest)
}

impl NewGameForm {
    /// The layouts to offer: under the tournament toggle, first those paired with the chosen
    /// deployment map, then the other tournament layouts (choosing one of those changes the
    /// deployment map, [`Self::choose_layout`]); otherwise every layout file, all first.
    ///
    /// Layouts on disk that are not built in (saved in the editor) come last in either case;
    /// choosing one leaves the tournament pairings ([`Self::choose_layout`]).
    pub fn layout_choices(&self) -> (Vec<String>, Vec<String>) {
        let all = listed_files(&self.disk, "scenes/layouts/");
        if !self.tournament {
            return (all, Vec::new());
        }
        let (paired, mut rest) = paired_first(
            pairings::layouts_for_deployment(&self.deployment),
            pairings::tournament_layouts(),
        );
        rest.extend(
            all.into_iter()
                .filter(|l| !pairings::tournament_layouts().contains(l)),
        );
        (paired, rest)
    }

    /// The army files to offer either player: the built-in ones and those on disk (imported).
    pub fn army_choices(&self) -> Vec<String> {
        listed_files(&self.disk, "scenes/armies/")
    }

    /// The deployment maps to offer, as [`Self::layout_choices`]: under the tournament toggle,
    /// those paired with the chosen layout, then the other tournament maps.
    pub fn deployment_choices(&self) -> (Vec<String>, Vec<String>) {
        if !self.tournament {
            return (listed_files(&self.disk, "scenes/deployments/"), Vec::new());
        }
        paired_first(
            pairings::deployments_for_layout(&self.layout),
            pairings::tournament_deployments(),
        )
    }

    /// The missions to offer: the deployment map's primaries under the tournament toggle,
    /// otherwise every mission file.
    pub fn mission_choices(&self) -> Vec<String> {
        if self.tournament {
            pairings::missions_for_deployment(&self.deployment)
        } else {
            pairings::mission_files()
        }
    }

    /// Chooses `layout`, then (under the tournament toggle) keeps the choices a pairing:
    /// [`Self::settle`] with the layout kept.
    ///
    /// A layout that is in no tournament pairing (one saved in the editor) turns the
    /// tournament toggle off, so the deployment map and mission stay free to choose.
    pub fn choose_layout(&mut self, layout: String) {
        if !pairings::tournament_layouts().contains(&layout) {
            self.tournament = false;
        }
        self.layout = layout;
        self.settle(true);
    }

    /// Chooses `deployment`, then keeps the choices a pairing with the deployment map kept.
    pub fn choose_deployment(&mut self, deployment: String) {
        self.deployment = deployment;
        self.settle(false);
    }

    /// Under the tournament toggle, makes layout, deployment map and mission a pairing,
    /// changing as little as it can: the layout (`keep_layout`) or the deployment map stays
    /// when it is in the pool, the other gives way to its first partner, and a mission that
    /// is not one of the map's primaries gives way to the first that is. Nothing changes
    /// with the toggle off.
    pub fn settle(&mut self, keep_layout: bool) {
        if !self.tournament {
            return;
        }
        if keep_layout {
            if pairings::deployments_for_layout(&self.layout).is_empty() {
                self.layout = pairings::layout_file(1);
            }
            let ds = pairings::deployments_for_layout(&self.layout);
            if !ds.contains(&self.deployment) {
                self.deployment = ds[0].clone();
            }
        } else {
            if pairings::layouts_for_deployment(&self.deployment).is_empty() {
                self.deployment = pairings::PAIRINGS[0].deployment.to_string();
            }
            let ls = pairings::layouts_for_deployment(&self.deployment);
            if !ls.contains(&self.layout) {
                self.layout = ls[0].clone();
            }
        }
        let ms = pairings::missions_for_deployment(&self.deployment);
        if !ms.contains(&self.mission) {
            self.mission = ms[0].clone();
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
        .init_resource::<ArmyImport>()
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

/// The data files under `folder` (e.g. `scenes/armies/`) to offer in the menu: the built-in
/// ones and every regular `.ron` file in that folder under `disk` (the player's imports and
/// saved layouts), sorted, each once. A file on disk under the working directory (`disk` is
/// `.`) is named as the built-in ones are (`scenes/armies/orks.ron`), so a shipped file on
/// disk is listed once; under another folder it is named by its path there.
pub fn listed_files(disk: &Path, folder: &str) -> Vec<String> {
    let mut v = data_files(folder);
    let here = disk == Path::new(".") || disk.as_os_str().is_empty();
    if let Ok(read) = std::fs::read_dir(disk.join(folder)) {
        for entry in read.flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            let regular = entry.file_type().is_ok_and(|t| t.is_file());
            if !regular || !name.ends_with(".ron") || name.starts_with('.') {
                continue;
            }
            v.push(if here {
                format!("{folder}{name}")
            } else {
                disk.join(folder).join(&name).display().to_string()
            });
        }
    }
    v.sort();
    v.dedup();
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

/// The menu's "Import army..." panel and the armies' summaries it shows: a roster pasted as
/// text (the app's export, or a .ros / New Recruit JSON) or a roster file's path, imported
/// into `scenes/armies/` with [`crate::data::roster::import`].
#[derive(Resource, Debug, Default)]
pub struct ArmyImport {
    /// The panel is open.
    pub open: bool,
    /// A roster file's path.
    pub path: String,
    /// Pasted roster text.
    pub text: String,
    /// Write the army even when some units do not resolve (they are left out).
    pub allow_partial: bool,
    /// Replace an army file of the same name (the player's confirmation; off by default, so
    /// a list named "Orks" never replaces the shipped Orks unasked).
    pub replace: bool,
    /// The army file's name (`scenes/armies/<name>.ron`); empty: the roster's own name.
    pub name: String,
    /// The player (0 or 1 for players 1 and 2) the imported army is chosen for.
    pub player: usize,
    /// The system's file dialog for a roster ("Browse..."), while it is open.
    pub browse: crate::app::ui::FilePick,
    /// What the last import said (the file written, or what could not be resolved).
    pub message: String,
    /// Each army file's summary ("8 units, 995 points", or why it does not load), by path.
    pub summaries: std::collections::HashMap<String, String>,
    /// The armies' "Leaders" lists start folded out (the newcomer's menu scenario shows them).
    pub show_leaders: bool,
    /// Each army file's Leaders and the units they may lead, by path (or why they cannot be
    /// read), read once and again after a change.
    pub leaders: std::collections::HashMap<
        String,
        Result<Vec<crate::data::roster::leaders::LeaderChoice>, String>,
    >,
}

impl ArmyImport {
    /// The summary of the army file `path`, loaded once: its units and points, or the first
    /// line of why it does not load.
    pub fn summary(&mut self, path: &str) -> &str {
        self.summaries.entry(path.to_string()).or_insert_with(|| {
            match crate::data::load_army(Path::new(path), 1) {
                Ok(a) => {
                    let points = a.points();
                    let models: usize = a.units.iter().map(|u| u.models.len()).sum();
                    format!("{} units, {models} models, {points} points", a.units.len())
                }
                Err(e) => format!(
                    "does not load: {}",
                    e.to_string().lines().next().unwrap_or_default()
                ),
            }
        })
    }

    /// The Leaders of the army file `path` and the units each may lead (read once).
    pub fn leaders(
        &mut self,
        path: &str,
    ) -> &Result<Vec<crate::data::roster::leaders::LeaderChoice>, String> {
        self.leaders
            .entry(path.to_string())
            .or_insert_with(|| crate::data::roster::leaders::leader_choices(Path::new(path)))
    }

    /// Attaches the Leader `leader` of the army file `path` to `bodyguard` (or detaches it
    /// for `None`), rewriting the file; the file's summary and Leaders are read again.
    ///
    /// # Errors
    /// A file built into the binary (copy it to change it), or the rule or write that fails.
    pub fn set_leader(
        &mut self,
        path: &str,
        leader: &str,
        bodyguard: Option<&str>,
    ) -> Result<(), String> {
        if crate::data::source::builtin_key(Path::new(path)).is_some() {
            return Err(format!(
                "{path} is built into wartable: import or copy the army to attach its Leaders"
            ));
        }
        let done = crate::data::roster::leaders::set_leader(Path::new(path), leader, bodyguard);
        self.leaders.remove(path);
        self.summaries.remove(path);
        done
    }

    /// Imports the pasted text, or else the file at `path`, into `disk`'s `scenes/armies/`
    /// under [`Self::name`] (or the roster's name); returns the army file written, named as
    /// [`listed_files`] lists it.
    ///
    /// # Errors
    /// Nothing to import, the file cannot be read, a name that is not a plain file name, or
    /// the import's own errors.
    pub fn import(&mut self, disk: &Path) -> Result<String, String> {
        let (name, bytes) = if !self.text.trim().is_empty() {
            ("pasted roster".to_string(), self.text.clone().into_bytes())
        } else if !self.path.trim().is_empty() {
            let p = self.path.trim();
            let bytes = crate::data::source::read_bytes(
                Path::new(p),
                crate::data::roster::MAX_ROSTER_BYTES,
            )
            .map_err(|e| e.to_string())?;
            (p.to_string(), bytes)
        } else {
            return Err("paste a roster or give a roster file's path".into());
        };
        let folder = disk.join("scenes/armies");
        let out = match self.name.trim() {
            "" => None,
            n => Some(
                crate::data::write::file_in(
                    &folder,
                    &format!("{}.ron", crate::data::roster::file_stem(n)),
                )
                .map_err(|e| e.to_string())?,
            ),
        };
        let out = match out {
            Some(o) => o,
            None => {
                let roster = crate::data::roster::read(&name, &bytes)
                    .map_err(|e| e.to_string())?
                    .0;
                folder.join(format!(
                    "{}.ron",
                    crate::data::roster::file_stem(&roster.name)
                ))
            }
        };
        let done = crate::data::roster::import(
            &name,
            &bytes,
            &crate::data::roster::default_datasheets(disk),
            Some(&out),
            &crate::data::roster::ImportOptions {
                allow_partial: self.allow_partial,
                attach: Vec::new(),
            },
            crate::data::write::Overwrite::when(self.replace),
        )?;
        let file = match done.file.strip_prefix(".") {
            Ok(rel) if disk == Path::new(".") => rel.display().to_string().replace('\\', "/"),
            _ => done.file.display().to_string(),
        };
        self.summaries.remove(&file);
        Ok(file)
    }
}
