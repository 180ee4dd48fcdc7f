//! Datasheets: a unit's characteristics, weapons, keywords and body.
//!
//! Core Rules: Datasheets and Keywords; Rules Commentary: Characteristics.

use serde::{Deserialize, Serialize};

use super::abilities::{CoreAbility, DestroyedAbility, TimedAbility};
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
    /// What it does, when the engine applies it (see [`crate::rules::effect`]); empty when it
    /// is applied by hand, or by the engine as a core ability or army rule of that name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<crate::rules::effect::Effect>,
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
    /// Base (round or oval, millimetres) or hull (inches) of each model; `None` in a file
    /// where no base size is known (a datasheet converted from data without one): loading the
    /// file gives it its measured hull or a base assumed by keyword (the hull table,
    /// `scenes/datasheets/hull-sizes.ron`).
    #[serde(default)]
    pub base: Option<Base>,
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
    /// Wargear with no weapon profile the unit may take (a storm shield, an icon, a drone), by
    /// name: a roster naming it is understood; the engine applies none of it.
    #[serde(default)]
    pub other_wargear: Vec<String>,
    /// Datasheets this CHARACTER can lead as an Attached unit (Core Rules: Leader).
    #[serde(default)]
    pub leader_of: Vec<String>,
    /// The Leaders (each a datasheet name or keyword, e.g. "CAPTAIN") this CHARACTER may join
    /// on a Bodyguard unit one of them already leads: its datasheet's rule to that effect.
    /// Without one, a Bodyguard unit takes a single Leader (Core Rules: Leader; Rules
    /// Commentary: Attached Units with Multiple Characters, a Lieutenant joining a unit a
    /// Captain leads).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joins_leaders: Vec<String>,
    /// Datasheet abilities (names and summaries, for the unit card).
    #[serde(default)]
    pub abilities: Vec<Ability>,
    /// Core abilities the engine applies (Deadly Demise, Deep Strike, Feel No Pain, Fights
    /// First, Firing Deck, Infiltrators, Leader, Lone Operative, Scouts, Stealth). Files that
    /// only name them under `abilities` get them from those names when loaded.
    #[serde(default)]
    pub core_abilities: Vec<CoreAbility>,
    /// Abilities the engine applies by itself at the start or end of a phase (Rules
    /// Commentary: Start of the battle round/turn/phase, The Turn/the Phase), e.g. Grot
    /// Riggers: regain 1 lost wound at the start of your Command phase.
    #[serde(default)]
    pub timed_abilities: Vec<TimedAbility>,
    /// Abilities used when a model of the unit is destroyed, before it is removed (e.g. For
    /// the Chapter!: `ShootBeforeRemoval(3)`).
    #[serde(default)]
    pub destroyed_abilities: Vec<DestroyedAbility>,
    /// Abilities that change Objective Control, applied in the core modifier order (Core
    /// Rules: Objective Markers; Rules Commentary: Modifiers): e.g. an Ancient's
    /// `WhileLeadingPlus(1)`, the Ripper Swarms' `HalveEngagedEnemies`.
    #[serde(default)]
    pub objective_control_effects: Vec<super::abilities::ObjectiveControlEffect>,
    /// TRANSPORT capacity in models, if the unit carries others (Core Rules: Transports).
    #[serde(default)]
    pub transport_capacity: Option<u32>,
    /// The unit's other model profiles, where its models differ (a Boss Nob with more
    /// Wounds, a vehicle with several model profiles): each changes some characteristics of
    /// the datasheet's own line, which is the profile of every other model (Core Rules:
    /// Datasheets, a datasheet with several profiles).
    #[serde(default)]
    pub model_profiles: Vec<ModelProfile>,
    /// Where `base` came from when the file gave none (the hull table's measured hull, or a
    /// base assumed by keyword; `scenes/datasheets/hull-sizes.ron`); `None` when the file gives
    /// the base. Not part of the file.
    #[serde(skip)]
    pub base_source: Option<BaseSource>,
}

/// Where a datasheet's base comes from when its file gives none (the hull table,
/// `crate::data::hulls`).
#[derive(Debug, Clone, PartialEq)]
pub enum BaseSource {
    /// A measured hull of the table (its kit).
    Measured(String),
    /// Assumed from the datasheet's keywords (the keywords of the row that matched; empty for
    /// the last row).
    Assumed(Vec<String>),
}

impl std::fmt::Display for BaseSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BaseSource::Measured(kit) => write!(f, "the measured hull of the {kit}"),
            BaseSource::Assumed(k) if k.is_empty() => f.write_str("the assumed default base"),
            BaseSource::Assumed(k) => write!(f, "the base assumed for {}", k.join(" ")),
        }
    }
}

/// One model profile of a datasheet whose models differ: the characteristics it changes from
/// the datasheet's own line (unset: the same), and how many models of a unit may have it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelProfile {
    /// The model's name ("Boss Nob", "Intercessor Sergeant").
    pub name: String,
    /// Move (M), inches.
    #[serde(default)]
    pub movement: Option<f32>,
    /// Toughness (T).
    #[serde(default)]
    pub toughness: Option<u8>,
    /// Save (Sv): 3 for 3+.
    #[serde(default)]
    pub save: Option<u8>,
    /// Invulnerable save: 4 for 4+.
    #[serde(default)]
    pub invulnerable_save: Option<u8>,
    /// Wounds (W).
    #[serde(default)]
    pub wounds: Option<u8>,
    /// Leadership (Ld): 6 for 6+.
    #[serde(default)]
    pub leadership: Option<u8>,
    /// Objective Control (OC).
    #[serde(default)]
    pub objective_control: Option<u8>,
    /// Base (round or oval, millimetres) or hull (inches).
    #[serde(default)]
    pub base: Option<Base>,
    /// Height above the base, inches.
    #[serde(default)]
    pub height: Option<f32>,
    /// Fewest and most models of a unit with this profile; unset: none to all. A unit built
    /// without saying which models are which gives the fewest this profile (the first models).
    #[serde(default)]
    pub count: Option<(u32, u32)>,
}

/// One model's characteristics: its datasheet's line with its model profile applied.
#[derive(Debug, Clone, PartialEq)]
pub struct Characteristics {
    /// The model profile's name: the datasheet's name for the datasheet's own line (shared by
    /// the copies of the model, as a game copied to weigh a move makes them).
    pub profile: std::sync::Arc<str>,
    /// Move (M), inches.
    pub movement: f32,
    /// Toughness (T).
    pub toughness: u8,
    /// Save (Sv): 3 for 3+.
    pub save: u8,
    /// Invulnerable save: 4 for 4+, if any.
    pub invulnerable_save: Option<u8>,
    /// Wounds (W).
    pub wounds: u8,
    /// Leadership (Ld): 6 for 6+.
    pub leadership: u8,
    /// Objective Control (OC).
    pub objective_control: u8,
    /// Feel No Pain X+, if any (the datasheet's: it is an ability of the unit).
    pub feel_no_pain: Option<u8>,
    /// Base or hull.
    pub base: Base,
    /// Height above the base, inches.
    pub height: f32,
}

impl Datasheet {
    /// True if the datasheet has `keyword` (case-insensitive).
    pub fn has_keyword(&self, keyword: &str) -> bool {
        self.keywords
            .iter()
            .any(|k| k.eq_ignore_ascii_case(keyword))
    }

    /// The characteristics of a model with the model profile `profile` (its name,
    /// case-insensitive; `None` or the datasheet's own name: the datasheet's line).
    ///
    /// # Errors
    /// No such model profile (the message names those there are), or no base size known for
    /// the model.
    pub fn characteristics(&self, profile: Option<&str>) -> Result<Characteristics, String> {
        let own = |p: &str| p.eq_ignore_ascii_case(&self.name);
        let extra = match profile {
            None => None,
            Some(p) if own(p) && self.model_profile(p).is_none() => None,
            Some(p) => Some(self.model_profile(p).ok_or_else(|| {
                let mut names = vec![self.name.clone()];
                names.extend(self.model_profiles.iter().map(|m| m.name.clone()));
                format!(
                    "{} has no model profile '{p}' (profiles: {})",
                    self.name,
                    names.join(", ")
                )
            })?),
        };
        let base = extra.and_then(|m| m.base).or(self.base).ok_or_else(|| {
            format!(
                "{} has no base size: give its datasheet a `base` (the base supplied in the kit)",
                self.name
            )
        })?;
        Ok(Characteristics {
            profile: extra
                .map_or_else(|| self.name.clone(), |m| m.name.clone())
                .into(),
            movement: extra.and_then(|m| m.movement).unwrap_or(self.movement),
            toughness: extra.and_then(|m| m.toughness).unwrap_or(self.toughness),
            save: extra.and_then(|m| m.save).unwrap_or(self.save),
            invulnerable_save: extra
                .and_then(|m| m.invulnerable_save)
                .or(self.invulnerable_save),
            wounds: extra.and_then(|m| m.wounds).unwrap_or(self.wounds),
            leadership: extra.and_then(|m| m.leadership).unwrap_or(self.leadership),
            objective_control: extra
                .and_then(|m| m.objective_control)
                .unwrap_or(self.objective_control),
            feel_no_pain: self.feel_no_pain,
            base,
            height: extra
                .and_then(|m| m.height)
                .unwrap_or_else(|| self.model_height_inches()),
        })
    }

    /// The model profile called `name` (case-insensitive), if the datasheet has one.
    pub fn model_profile(&self, name: &str) -> Option<&ModelProfile> {
        self.model_profiles
            .iter()
            .find(|m| m.name.eq_ignore_ascii_case(name))
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

    /// True if the datasheet has the core ability `ability` (compared by kind, ignoring
    /// values).
    pub fn has_core(&self, ability: &CoreAbility) -> bool {
        self.core_abilities.iter().any(|a| a.same_kind(ability))
    }

    /// The Deadly Demise value, if the datasheet has the ability.
    pub fn deadly_demise(&self) -> Option<super::DiceExpr> {
        self.core_abilities.iter().find_map(|a| match a {
            CoreAbility::DeadlyDemise(x) => Some(*x),
            _ => None,
        })
    }

    /// The Scouts distance (inches): the lowest of its values, if it has the ability (Rules
    /// Commentary: Duplicated Core Abilities, Scouts with two values).
    pub fn scouts_inches(&self) -> Option<f32> {
        self.core_abilities
            .iter()
            .filter_map(|a| match a {
                CoreAbility::Scouts(x) => Some(*x),
                _ => None,
            })
            .reduce(f32::min)
    }

    /// The Firing Deck capacity (models), if the datasheet has the ability.
    pub fn firing_deck(&self) -> Option<u32> {
        self.core_abilities.iter().find_map(|a| match a {
            CoreAbility::FiringDeck(x) => Some(*x),
            _ => None,
        })
    }

    /// Makes the core abilities structured: each ability whose name states a core ability
    /// ("Deadly Demise D3", "Stealth") is added to `core_abilities` (once), and Feel No Pain
    /// sets `feel_no_pain` (the best value). Returns the names recognised.
    pub fn gather_core_abilities(&mut self) -> Vec<String> {
        let mut found = Vec::new();
        for a in &self.abilities {
            if let Some(core) = CoreAbility::from_name(&a.name)
                && !self.core_abilities.contains(&core)
            {
                found.push(a.name.clone());
                self.core_abilities.push(core);
            }
        }
        for a in &self.core_abilities {
            if let CoreAbility::FeelNoPain(x) = a {
                self.feel_no_pain = Some(self.feel_no_pain.map_or(*x, |f| f.min(*x)));
            }
        }
        found
    }

    /// Gives effects to the abilities whose printed name says what they do, when the file
    /// gives them none (called on load):
    /// - "Damaged: 1-N wounds remaining": while a model has N or fewer wounds left, its
    ///   attacks subtract 1 from the Hit roll (the usual wording of 10th edition brackets;
    ///   a bracket that does more is applied by hand for the rest);
    /// - an invulnerable save "(ranged only)": the save is taken off the datasheet line and
    ///   given against ranged attacks only (it never applies in melee).
    ///
    /// Returns the names given effects.
    pub fn gather_effects(&mut self) -> Vec<String> {
        use crate::rules::effect::{Attacks, Condition, Effect, Modifier, Scope, When};
        let mut found = Vec::new();
        let mut ranged_only = None;
        for a in &mut self.abilities {
            if !a.effects.is_empty() {
                continue;
            }
            let lower = a.name.to_ascii_lowercase();
            if let Some(n) = damaged_bracket(&lower) {
                a.effects.push(Effect {
                    when: When::Attacking(Attacks::Any),
                    scope: Scope::Unit,
                    conditions: vec![Condition::WoundsLeftAtMost(n)],
                    does: vec![Modifier::HitRoll(-1)],
                });
                found.push(a.name.clone());
            } else if lower.contains("invulnerable") && lower.contains("ranged only") {
                let printed = lower
                    .split(|c: char| !c.is_ascii_digit())
                    .find_map(|d| d.parse::<u8>().ok())
                    .filter(|x| (2..=6).contains(x));
                if let Some(x) = printed.or(self.invulnerable_save) {
                    a.effects.push(Effect {
                        when: When::Attacked(Attacks::Ranged),
                        scope: Scope::Unit,
                        conditions: Vec::new(),
                        does: vec![Modifier::InvulnerableSave(x)],
                    });
                    ranged_only = Some(x);
                    found.push(a.name.clone());
                }
            }
        }
        if ranged_only.is_some() && self.invulnerable_save == ranged_only {
            self.invulnerable_save = None;
        }
        found
    }

    /// Every weapon profile, ranged first.
    pub fn weapons(&self) -> impl Iterator<Item = &WeaponProfile> {
        self.ranged_weapons.iter().chain(&self.melee_weapons)
    }

    /// The profile named `name` (case-insensitive): a full name ("Kannon - frag"), or a
    /// weapon's name (its first profile when it has several).
    pub fn weapon(&self, name: &str) -> Option<&WeaponProfile> {
        self.weapons()
            .find(|w| w.answers_to(name))
            .or_else(|| self.weapons().find(|w| w.name.eq_ignore_ascii_case(name)))
    }

    /// Every profile of the weapon called `weapon` (its name, case-insensitive), in datasheet
    /// order: one for most weapons, several for a weapon with profiles.
    pub fn profiles_of(&self, weapon: &str) -> Vec<&WeaponProfile> {
        self.weapons()
            .filter(|w| w.name.eq_ignore_ascii_case(weapon))
            .collect()
    }

    /// The profile one use of a weapon fires: `weapon` is the weapon's name with `profile`
    /// chosen, or a full name ("Plasma pistol - supercharge") with `profile` left out (Core
    /// Rules: Datasheets, a weapon with several profiles is used with one of them each time).
    ///
    /// # Errors
    /// No such weapon or profile, or a weapon with several profiles and none chosen: the
    /// message names the profiles.
    pub fn choose_profile(
        &self,
        weapon: &str,
        profile: Option<&str>,
    ) -> Result<&WeaponProfile, String> {
        if let Some(p) = profile {
            let profiles = self.profiles_of(weapon);
            return profiles
                .iter()
                .find(|w| {
                    w.profile
                        .as_deref()
                        .is_some_and(|x| x.eq_ignore_ascii_case(p))
                })
                .copied()
                .ok_or_else(|| {
                    if profiles.is_empty() {
                        format!("{} has no weapon called '{weapon}'", self.name)
                    } else {
                        format!(
                            "'{weapon}' has no profile '{p}' (profiles: {})",
                            profile_names(&profiles)
                        )
                    }
                });
        }
        if let Some(w) = self.weapons().find(|w| w.answers_to(weapon)) {
            return Ok(w);
        }
        match self.profiles_of(weapon).as_slice() {
            [] => Err(format!("{} has no weapon called '{weapon}'", self.name)),
            [one] => Ok(one),
            several => Err(format!(
                "'{weapon}' has several profiles; choose one of: {}",
                profile_names(several)
            )),
        }
    }

    /// Makes each weapon with several profiles one weapon: profiles written the old way, as
    /// separate weapons named "Weapon - profile" that share the part before " - " with
    /// another, become profiles of the weapon "Weapon". Returns the names changed (old, new).
    pub fn gather_profiles(&mut self) -> Vec<(String, String)> {
        let mut changed = Vec::new();
        for list in [&mut self.ranged_weapons, &mut self.melee_weapons] {
            let prefixes: Vec<Option<String>> = list
                .iter()
                .map(|w| {
                    (w.profile.is_none())
                        .then(|| w.name.split_once(" - ").map(|(a, _)| a.to_string()))
                        .flatten()
                })
                .collect();
            for i in 0..list.len() {
                let Some(prefix) = &prefixes[i] else { continue };
                let shared = prefixes
                    .iter()
                    .enumerate()
                    .any(|(j, p)| j != i && p.as_deref() == Some(prefix.as_str()));
                if !shared {
                    continue;
                }
                let w = &mut list[i];
                let (_, rest) = w.name.split_once(" - ").expect("has a prefix");
                let old = w.name.clone();
                w.profile = Some(rest.to_string());
                w.name = prefix.clone();
                changed.push((old, w.full_name()));
            }
        }
        changed
    }

    /// Points for a unit of `models` models: the smallest bracket that holds them.
    pub fn points_for(&self, models: u32) -> Option<u32> {
        let mut brackets = self.points.clone();
        brackets.sort_unstable();
        brackets.iter().find(|(n, _)| *n >= models).map(|(_, p)| *p)
    }
}

fn profile_names(profiles: &[&WeaponProfile]) -> String {
    profiles
        .iter()
        .map(|w| w.profile.clone().unwrap_or_else(|| w.name.clone()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// N of a "damaged: 1-n wounds remaining" ability name (lower case), if it is one.
fn damaged_bracket(lower: &str) -> Option<u8> {
    let rest = lower.strip_prefix("damaged:")?.trim_start();
    let rest = rest.strip_prefix("1-")?;
    let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let tail = rest[n.len()..].trim_start();
    if tail.starts_with("wound") {
        n.parse().ok().filter(|&n| n > 0)
    } else {
        None
    }
}
