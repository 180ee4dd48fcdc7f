//! Datasheets: a unit's characteristics, weapons, keywords and body.
//!
//! Core Rules: Datasheets and Keywords; Rules Commentary: Characteristics.

use serde::{Deserialize, Serialize};

use super::constants::{DEFAULT_MODEL_HEIGHTS_INCHES, FALLBACK_MODEL_HEIGHT_INCHES};
use super::weapon::WeaponProfile;
use crate::geometry::Base;

/// A named datasheet ability (text kept for the unit card; the engine implements core rules).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ability {
    /// Ability name.
    pub name: String,
    /// Short summary in the project's own words.
    #[serde(default)]
    pub text: String,
}

/// A unit's datasheet (one model profile).
///
/// Characteristics follow the printed datasheet: `movement` in inches, `save`,
/// `invulnerable_save` and `leadership` as the roll needed (3 for 3+).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Datasheet {
    /// Datasheet name, unique within its file (e.g. "Intercessor Squad").
    pub name: String,
    /// Move (M), inches.
    pub movement: f32,
    /// Toughness (T).
    pub toughness: u8,
    /// Save (Sv): 3 for 3+.
    pub save: u8,
    /// Invulnerable save: 4 for 4+, if any.
    #[serde(default)]
    pub invulnerable_save: Option<u8>,
    /// Wounds (W) per model.
    pub wounds: u8,
    /// Leadership (Ld): 6 for 6+.
    pub leadership: u8,
    /// Objective Control (OC) per model.
    pub objective_control: u8,
    /// Feel No Pain X+, if the unit has it.
    #[serde(default)]
    pub feel_no_pain: Option<u8>,
    /// Keywords in capitals (INFANTRY, CHARACTER, VEHICLE...).
    pub keywords: Vec<String>,
    /// Faction keywords (ADEPTUS ASTARTES, ORKS...).
    #[serde(default)]
    pub faction_keywords: Vec<String>,
    /// Base (round or oval, millimetres) or hull (inches) of each model.
    pub base: Base,
    /// Height of the model above its base, inches; defaults by keyword.
    #[serde(default)]
    pub height: Option<f32>,
    /// Smallest and largest number of models in the unit.
    pub unit_size: (u32, u32),
    /// Points per unit size: (models, points).
    #[serde(default)]
    pub points: Vec<(u32, u32)>,
    /// Ranged weapons (each with a range).
    #[serde(default)]
    pub ranged_weapons: Vec<WeaponProfile>,
    /// Melee weapons (no range).
    #[serde(default)]
    pub melee_weapons: Vec<WeaponProfile>,
    /// Weapons every model carries unless the army lists other wargear; empty means all.
    #[serde(default)]
    pub default_wargear: Vec<String>,
    /// Datasheets this CHARACTER can lead as an Attached unit (Core Rules: Leader).
    #[serde(default)]
    pub leader_of: Vec<String>,
    /// Datasheet abilities.
    #[serde(default)]
    pub abilities: Vec<Ability>,
    /// TRANSPORT capacity in models, if the unit carries others (Core Rules: Transports).
    #[serde(default)]
    pub transport_capacity: Option<u32>,
}

impl Datasheet {
    /// True if the datasheet has `keyword` (case-insensitive).
    pub fn has_keyword(&self, keyword: &str) -> bool {
        self.keywords
            .iter()
            .any(|k| k.eq_ignore_ascii_case(keyword))
    }

    /// The model's height in inches: the datasheet's, or a default by keyword.
    pub fn model_height_inches(&self) -> f32 {
        self.height.unwrap_or_else(|| {
            DEFAULT_MODEL_HEIGHTS_INCHES
                .iter()
                .find(|(k, _)| self.has_keyword(k))
                .map_or(FALLBACK_MODEL_HEIGHT_INCHES, |(_, h)| *h)
        })
    }

    /// Every weapon profile, ranged first.
    pub fn weapons(&self) -> impl Iterator<Item = &WeaponProfile> {
        self.ranged_weapons.iter().chain(&self.melee_weapons)
    }

    /// The weapon named `name` (case-insensitive).
    pub fn weapon(&self, name: &str) -> Option<&WeaponProfile> {
        self.weapons().find(|w| w.name.eq_ignore_ascii_case(name))
    }

    /// Points for a unit of `models` models: the smallest bracket that holds them.
    pub fn points_for(&self, models: u32) -> Option<u32> {
        let mut brackets = self.points.clone();
        brackets.sort_unstable();
        brackets.iter().find(|(n, _)| *n >= models).map(|(_, p)| *p)
    }
}
