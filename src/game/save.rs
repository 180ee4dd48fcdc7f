//! Save files and replays: a save is the scene, the seed and the accepted commands; loading
//! replays them, so the same save gives the same game, and the same [`Game::state_hash`], on
//! every run and machine. Autosaves are written atomically after every accepted command.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::command::Command;
use super::event::{GameEvent, Rejection};
use super::state::{Game, Location};
use crate::data::error::{DataError, DataErrors};
use crate::data::load_scene_set_up_under;
use crate::data::source::{load, sibling};
use crate::data::write::{Overwrite, WriteError, write_file};
use crate::game::sight::ModelRef;
use crate::rules::deployment::SetupVersion;
use crate::rules::phase::Stage;

/// A save file (RON): the scene (path relative to the save file), the seed and every accepted
/// command in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveFile {
    /// The scene file, relative to the save file's folder.
    pub scene: String,
    /// The dice seed.
    pub seed: u64,
    /// The accepted commands, in order.
    #[serde(default)]
    pub commands: Vec<Command>,
    /// The automatic set-up the scene's units without placements got when the game started
    /// ([`SetupVersion::number`]), so the save replays on the same positions. Saves made
    /// before it was recorded have none and get 1, the set-up of their time.
    #[serde(default = "first_setup")]
    pub setup: u32,
    /// In a game against the computer, the player it plays and its level, so a loaded save
    /// goes on against it (absent in hot-seat and solo games, and in older saves).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computer: Option<ComputerSeat>,
    /// The ruleset the game was played under when it is not the scene file's own
    /// (`--ruleset`, the new-game menu's choice); absent: the scene's. The replay plays under
    /// it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset: Option<crate::rules::Ruleset>,
}

fn first_setup() -> u32 {
    SetupVersion::First.number()
}

impl SaveFile {
    /// A save of a game of `scene` (path relative to the save's folder) with `seed` and the
    /// accepted `commands`, started from the current automatic set-up, with no computer seat.
    pub fn new(scene: impl Into<String>, seed: u64, commands: Vec<Command>) -> SaveFile {
        SaveFile {
            scene: scene.into(),
            seed,
            commands,
            setup: SetupVersion::CURRENT.number(),
            computer: None,
            ruleset: None,
        }
    }

    /// The automatic set-up this save's game started from.
    ///
    /// # Errors
    /// A message naming the number when this build does not know it (a save from a newer
    /// wartable).
    pub fn setup_version(&self) -> Result<SetupVersion, String> {
        SetupVersion::from_number(self.setup).ok_or_else(|| {
            format!(
                "set-up version {} is not known to this wartable (it knows 1 to {}); the save comes from a newer version",
                self.setup,
                SetupVersion::CURRENT.number()
            )
        })
    }

    /// The save's scene, loaded next to `file` (the save's path) with the automatic set-up its
    /// game started from.
    ///
    /// # Errors
    /// The scene's errors, or the set-up version's (naming `file`).
    pub fn load_scene(&self, file: &Path) -> Result<crate::data::Scene, DataErrors> {
        let version = self
            .setup_version()
            .map_err(|why| DataErrors(vec![DataError::value(file, "setup", why)]))?;
        load_scene_set_up_under(&sibling(file, &self.scene), version, self.ruleset)
    }
}

/// The computer's seat in a saved game against it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComputerSeat {
    /// The player it plays: 1 or 2.
    pub player: u8,
    /// Its level as `--ai` spells it: "easy", "normal" or "hard".
    pub level: String,
}

/// Why a save could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The save or its scene could not be read.
    #[error("{0}")]
    Data(DataErrors),
    /// A command of the save is rejected on replay (the save was edited or comes from
    /// different rules).
    #[error("{file}: command {index} ({kind}) is rejected on replay: {rejection}")]
    Replay {
        /// The save file.
        file: PathBuf,
        /// Index of the command in the list (from 0).
        index: usize,
        /// Its kind.
        kind: String,
        /// Why.
        rejection: Rejection,
    },
}

impl From<DataErrors> for SaveError {
    fn from(e: DataErrors) -> Self {
        SaveError::Data(e)
    }
}

impl From<DataError> for SaveError {
    fn from(e: DataError) -> Self {
        SaveError::Data(DataErrors(vec![e]))
    }
}

/// Replays `commands` on a new game of `scene` with `seed`. Returns the game and every event.
///
/// # Errors
/// The index of the first rejected command and its rejection.
pub fn replay(
    scene: crate::data::Scene,
    seed: u64,
    commands: &[Command],
) -> Result<(Game, Vec<GameEvent>), (usize, Rejection)> {
    let (mut game, mut events) = Game::start(scene, seed);
    for (i, c) in commands.iter().enumerate() {
        events.extend(game.apply(c).map_err(|r| (i, r))?);
    }
    Ok((game, events))
}

/// The command list of a save written before attacks waited for the defender's answer,
/// brought up to date by replaying it: a Go to Ground or Smokescreen used just before a Shoot
/// goes just after it (its trigger: the targets are selected), and whenever attacks wait
/// ([`Game::pending_shot`]) and the next saved command is not the defender's answer, the
/// defender passes. Returns the game and the new list; None if it still does not replay.
pub fn upgrade_commands(
    scene: crate::data::Scene,
    seed: u64,
    commands: &[Command],
) -> Option<(Game, Vec<Command>)> {
    use crate::rules::stratagem::Stratagem;
    let (mut game, _) = Game::start(scene, seed);
    let mut out = Vec::with_capacity(commands.len());
    let mut i = 0;
    while i < commands.len() {
        let mut c = commands[i].clone();
        let shroud = matches!(
            c,
            Command::UseStratagem {
                stratagem: Stratagem::GoToGround | Stratagem::Smokescreen,
                ..
            }
        );
        let mut held = None;
        if shroud && matches!(commands.get(i + 1), Some(Command::Shoot { .. })) {
            held = Some(c);
            i += 1;
            c = commands[i].clone();
        }
        if let Some(p) = &game.pending_shot {
            let defender = crate::rules::phase::opponent(p.player);
            let answer = matches!(c, Command::UseStratagem { .. } | Command::Pass { .. });
            if c.player() != defender || !answer {
                let pass = Command::Pass { player: defender };
                game.apply(&pass).ok()?;
                out.push(pass);
            }
        }
        game.apply(&c).ok()?;
        out.push(c);
        if let Some(h) = held {
            game.apply(&h).ok()?;
            out.push(h);
        }
        i += 1;
    }
    if let Some(p) = &game.pending_shot {
        let pass = Command::Pass {
            player: crate::rules::phase::opponent(p.player),
        };
        game.apply(&pass).ok()?;
        out.push(pass);
    }
    Some((game, out))
}

/// Loads a save file and replays it. A save from before attacks waited for the defender's
/// answer is brought up to date ([`upgrade_commands`]); the returned save holds the new list.
///
/// # Errors
/// [`SaveError`]: the file or its scene is unreadable or wrong (file, line and column), or a
/// command is rejected on replay.
pub fn load_save(file: &Path) -> Result<(Game, SaveFile), SaveError> {
    load_save_with_events(file).map(|(game, save, _)| (game, save))
}

/// [`load_save`], with every event of the replay (for the dice log of a loaded game).
///
/// # Errors
/// As [`load_save`].
pub fn load_save_with_events(file: &Path) -> Result<(Game, SaveFile, Vec<GameEvent>), SaveError> {
    let mut save: SaveFile = load(file)?;
    let scene = save.load_scene(file)?;
    match replay(scene.clone(), save.seed, &save.commands) {
        Ok((game, events)) => Ok((game, save, events)),
        Err((index, rejection)) => match upgrade_commands(scene.clone(), save.seed, &save.commands)
        {
            Some((game, commands)) => {
                save.commands = commands;
                let events = replay(scene, save.seed, &save.commands)
                    .map(|(_, e)| e)
                    .unwrap_or_default();
                Ok((game, save, events))
            }
            None => Err(SaveError::Replay {
                file: file.to_path_buf(),
                index,
                kind: save.commands[index].kind().to_string(),
                rejection,
            }),
        },
    }
}

/// Writes `save` to `file` whole or not at all, replacing the save there (a save is updated
/// after every command): through [`crate::data::write::write_file`], so a crash at any moment
/// leaves the previous or the new save whole, and a device, FIFO, folder or symbolic link at
/// `file` is refused, never written through.
///
/// # Errors
/// [`WriteError`], naming the file.
pub fn write_save(file: &Path, save: &SaveFile) -> Result<(), WriteError> {
    write_save_with(file, save, Overwrite::Replace)
}

/// [`write_save`], replacing an existing file only when `overwrite` says so.
///
/// # Errors
/// As [`write_save`]; with [`Overwrite::Refuse`], an existing file (nothing is written).
pub fn write_save_with(
    file: &Path,
    save: &SaveFile,
    overwrite: Overwrite,
) -> Result<(), WriteError> {
    let text = ron::ser::to_string_pretty(save, ron::ser::PrettyConfig::new().depth_limit(3))
        .map_err(|e| WriteError::Io {
            file: file.to_path_buf(),
            source: std::io::Error::other(e),
        })?;
    write_file(file, &text, overwrite)
}

pub use crate::data::source::relative_path;

/// FNV-1a, 64 bits: a hash that is the same on every platform and Rust version.
struct Fnv(u64);

impl Fnv {
    fn bytes(&mut self, b: &[u8]) {
        for x in b {
            self.0 ^= u64::from(*x);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }
    /// A length in inches, to a thousandth of an inch (so float noise below that never
    /// changes the hash).
    fn inches(&mut self, v: f32) {
        self.u64((f64::from(v) * 1000.0).round() as i64 as u64);
    }
}

impl Game {
    /// A hash of everything that decides the rest of the game: stage, round, phase, active
    /// player, CP, VP, the dice drawn, objective control, and every unit's and model's state
    /// and position (to 0.001"). 16 hex digits.
    pub fn state_hash(&self) -> String {
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        h.u64(self.stage as u64);
        h.u64(u64::from(self.battle_round));
        h.u64(u64::from(self.active_player));
        h.u64(u64::from(self.first_player));
        h.u64(self.phase as u64);
        for v in self.cp.iter().chain(&self.vp) {
            h.u64(u64::from(*v));
        }
        h.u64(self.rng.draws());
        for o in &self.objectives {
            h.u64(u64::from(o.unwrap_or(0)));
        }
        for (a, army) in self.units.iter().enumerate() {
            for (u, unit) in army.iter().enumerate() {
                let loc = match unit.location {
                    Location::NotDeployed => 0,
                    Location::Reserves(k) => 1 + k as u64,
                    Location::OnTable => 3,
                    Location::Embarked(t) => 4 + t as u64,
                    Location::Destroyed => 1000,
                };
                h.u64(loc);
                h.u64(unit.leading.map_or(u64::MAX, |l| l as u64));
                let flags = [
                    unit.shot,
                    unit.declared_charge,
                    unit.charged,
                    unit.no_charge,
                    unit.fought,
                    unit.battle_shocked,
                    !unit.one_shot_fired.is_empty(),
                ];
                h.bytes(&flags.map(u8::from));
                h.bytes(format!("{:?}", unit.moved).as_bytes());
                for (m, model) in unit.models.iter().enumerate() {
                    h.u64(u64::from(model.alive));
                    h.u64(u64::from(model.wounds));
                    let p = &self.scene.armies[a].units[u].models[m];
                    h.inches(p.position.x);
                    h.inches(p.position.y);
                    h.inches(p.position.z);
                    h.inches(p.facing);
                }
            }
        }
        // The rules' choices in force and the effects on units (Oath of Moment's target, a
        // Stratagem until the end of the phase, an override).
        for c in self.effects.choices.iter().chain(&self.effects.history) {
            h.u64(u64::from(c.player));
            h.bytes(c.rule.as_bytes());
            h.bytes(c.pick.as_deref().unwrap_or("").as_bytes());
        }
        for a in &self.effects.active {
            h.u64(a.army as u64);
            h.u64(a.unit as u64);
            h.bytes(a.source.as_bytes());
        }
        format!("{:016x}", h.0)
    }

    /// The game in brief, as `wartable replay --json` prints it.
    pub fn summary(&self) -> Value {
        let alive = |player: u8| {
            let a = self.army_of(player).expect("two armies");
            self.units[a]
                .iter()
                .filter(|u| u.location != Location::Destroyed && u.models.iter().any(|m| m.alive))
                .count()
        };
        let secondaries = [self.secondary_names(1), self.secondary_names(2)];
        json!({
            "stage": format!("{:?}", self.stage),
            "battle_round": self.battle_round,
            "phase": if self.stage == Stage::Battle { json!(self.phase.name()) } else { Value::Null },
            "active_player": self.active_player,
            "cp": self.cp,
            "vp": self.vp,
            "primary_vp": self.mission.primary_vp,
            "secondary_vp": self.mission.secondary_vp,
            "battle_ready_vp": self.mission.battle_ready_vp,
            "secondaries": secondaries,
            "units_alive": [alive(1), alive(2)],
            "winner": self.winner,
            "state_hash": self.state_hash(),
        })
    }

    /// What a player sees on the table, for playing headless: each unit with its location,
    /// whether it is Battle-shocked and Below Half-strength, the enemy units it is engaged with
    /// (ids) and the positions (inches, rounded to 0.01) and wounds left of its live models;
    /// and the objective markers with the player controlling each (null for none).
    pub fn board(&self) -> Value {
        // Rounded in f64, so the JSON reads 9.99 rather than the nearest f32's 9.98999977.
        let round = |v: f32| (f64::from(v) * 100.0).round() / 100.0;
        let mut units = Vec::new();
        for (a, army) in self.scene.armies.iter().enumerate() {
            for (u, unit) in army.units.iter().enumerate() {
                let models: Vec<Value> = (0..unit.models.len())
                    .filter(|&m| {
                        self.on_table(ModelRef {
                            army: a,
                            unit: u,
                            model: m,
                        })
                    })
                    .map(|m| {
                        let p = unit.models[m].position;
                        json!({
                            "model": m,
                            "at": [round(p.x), round(p.y), round(p.z)],
                            "wounds": self.units[a][u].models[m].wounds,
                        })
                    })
                    .collect();
                let state = &self.units[a][u];
                let on_table = state.location == super::state::Location::OnTable
                    && state.models.iter().any(|m| m.alive);
                let engaged_with: Vec<&str> = if on_table {
                    self.enemy_units_engaged_with(a, u)
                        .into_iter()
                        .map(|(ea, eu)| self.unit_id(ea, eu))
                        .collect()
                } else {
                    Vec::new()
                };
                units.push(json!({
                    "player": self.player_of(a),
                    "unit": unit.id,
                    "location": format!("{:?}", state.location),
                    "battle_shocked": state.battle_shocked,
                    "below_half_strength": on_table && self.below_half_strength(a, u),
                    "engaged_with": engaged_with,
                    "models": models,
                }));
            }
        }
        let objectives: Vec<Value> = self
            .scene
            .objectives
            .iter()
            .zip(&self.objectives)
            .map(|(o, controller)| {
                json!({"id": o.id, "at": [o.at.0, o.at.1], "controlled_by": controller})
            })
            .collect();
        json!({"units": units, "objectives": objectives})
    }
}
