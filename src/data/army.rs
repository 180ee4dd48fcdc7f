//! The army list format (`Army(...)`) and the datasheet collection format (`Datasheets(...)`).

use serde::{Deserialize, Serialize};

use crate::rules::Datasheet;

/// A faction's datasheets, as stored in one file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Datasheets", deny_unknown_fields)]
pub struct DatasheetsFile {
    /// Faction name.
    pub faction: String,
    /// The datasheets.
    pub datasheets: Vec<Datasheet>,
}

/// One unit of an army list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Unit", deny_unknown_fields)]
pub struct UnitEntry {
    /// Identifier, unique in the army (e.g. "intercessors").
    pub id: String,
    /// Name shown in the UI; defaults to the datasheet name.
    #[serde(default)]
    pub name: Option<String>,
    /// Datasheet name, in one of the army's datasheet files.
    pub datasheet: String,
    /// Number of models (within the datasheet's unit size).
    pub models: u32,
    /// The old way of giving wargear: (weapon, number of models carrying it), the first
    /// models carrying each; empty: the datasheet's default. `validate` warns where a model
    /// gets two weapons of a kind this way: write `loadouts` instead.
    #[serde(default)]
    pub wargear: Vec<(String, u32)>,
    /// Which models the unit has and what each carries: groups of models with one model
    /// profile and one set of weapons, in order (the first group's models come first). Their
    /// models add up to `models`. Empty: `wargear` or the datasheet's default decide.
    #[serde(default)]
    pub loadouts: Vec<Loadout>,
    /// For a Leader: the id of the bodyguard unit it is attached to (Core Rules: Leader).
    #[serde(default)]
    pub attached_to: Option<String>,
    /// The enhancements the unit's list gives it, by name ("Da Killa Klaw"; the 11th-edition
    /// app's Upgrades too), as the roster names them.
    #[serde(default)]
    pub enhancements: Vec<String>,
    /// The unit's size comes from a roster made with newer data than the datasheets (the
    /// player's list is legal under the rules of the day): a size outside the datasheet's
    /// unit size, or model profiles on more or fewer models than it allows, loads with a
    /// warning naming both instead of an error. At most `MAX_MODELS_PER_UNIT` models still.
    #[serde(default)]
    pub roster_size: bool,
    /// Roster choices kept by name ("Warlord", "Wargear: Storm shield"); the engine does not
    /// apply them.
    #[serde(default)]
    pub notes: Vec<String>,
}

/// A group of models of one unit with the same model profile and the same weapons.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Loadout", deny_unknown_fields)]
pub struct Loadout {
    /// Number of models in the group.
    pub models: u32,
    /// Their model profile (one of the datasheet's `model_profiles`); unset: the datasheet's
    /// own line.
    #[serde(default)]
    pub profile: Option<String>,
    /// The weapons each of them carries (the datasheet's weapon names; a weapon with several
    /// profiles is named once).
    pub wargear: Vec<String>,
}

/// An army list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Army", deny_unknown_fields)]
pub struct ArmyFile {
    /// Army name.
    pub name: String,
    /// Faction name.
    #[serde(default)]
    pub faction: String,
    /// Datasheet files, relative to the army file.
    pub datasheets: Vec<String>,
    /// The units.
    pub units: Vec<UnitEntry>,
    /// Where the list came from (an imported roster: its file and format), if anywhere.
    #[serde(default)]
    pub source: Option<String>,
    /// The army's Detachment (or, under 11th edition, detachments), by name as the roster
    /// gives it; its rules come from the faction's rules file.
    #[serde(default)]
    pub detachments: Vec<String>,
    /// A faction rules file (relative to the army file) to use instead of the shipped one
    /// for the army's faction (`scenes/rules/`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// Battle size and other roster choices kept by name (the engine does not apply them).
    #[serde(default)]
    pub notes: Vec<String>,
}
