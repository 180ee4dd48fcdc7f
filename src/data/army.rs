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
    /// Wargear as (weapon, number of models carrying it); empty: the datasheet's default.
    #[serde(default)]
    pub wargear: Vec<(String, u32)>,
    /// For a Leader: the id of the bodyguard unit it is attached to (Core Rules: Leader).
    #[serde(default)]
    pub attached_to: Option<String>,
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
}
