//! Loading a scene and everything it refers to into checked, table-ready data.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::army::{ArmyFile, DatasheetsFile, UnitEntry};
use super::check;
use super::error::{DataError, DataErrors, locate};
use super::layout::LayoutFile;
use super::scene::{ModelPose, SceneFile, SceneOptions};
use super::source::{parse, read, sibling};
use crate::geometry::{Base, TerrainPiece, Vec2, Vec3, bases_overlap, polygon};
use crate::rules::Datasheet;
use crate::rules::constants::{
    MAX_ANGLE_DEGREES, MAX_MODELS_PER_UNIT, MAX_TERRAIN_HEIGHT_INCHES, MEASURE_TOLERANCE_INCHES,
};
use crate::rules::deployment::{DeploymentMap, SetupObstacles, SetupVersion, set_up_army};
use crate::rules::mission::{Mission, ObjectiveMarker};
use crate::rules::secondary::{SecondaryDeck, SecondaryMode};

/// A terrain layout on the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// Layout name.
    pub name: String,
    /// Where it comes from.
    pub source: String,
    /// Pieces in table coordinates.
    pub pieces: Vec<TerrainPiece>,
    /// The layout's own objective markers (empty: the mission's or deployment map's apply).
    pub objectives: Vec<ObjectiveMarker>,
    /// 11th edition terrain areas in table coordinates ([`LayoutFile::resolved_areas`]).
    pub areas: Vec<crate::geometry::TerrainArea>,
}

/// One model on the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// Centre of the underside of its base (inches; z is height above the table).
    pub position: Vec3,
    /// Facing, degrees counter-clockwise from +x.
    pub facing: f32,
    /// Weapons it carries (its datasheet's weapon names; a weapon with several profiles is
    /// one weapon), shared between the models of a loadout and the game's copies.
    pub weapons: std::sync::Arc<Vec<String>>,
    /// Its characteristics: its datasheet's line with its model profile applied.
    pub characteristics: crate::rules::Characteristics,
}

/// One unit on the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    /// Identifier, unique in its army.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Its datasheet.
    pub datasheet: std::sync::Arc<Datasheet>,
    /// For a Leader: the id of its bodyguard unit.
    pub attached_to: Option<String>,
    /// Points cost, when the datasheet lists one for this size.
    pub points: Option<u32>,
    /// Its models.
    pub models: Vec<Model>,
    /// The Enhancements it has, as its faction's rules file defines them (known ones only;
    /// an unknown name is a warning and is applied by hand).
    pub enhancements: Vec<crate::data::faction_rules::Enhancement>,
}

impl Unit {
    /// A model as a player reads it on the card: its profile's name ("Boss Nob"), numbered
    /// within the unit when several models share the profile ("Boyz 4", counting from 1 in
    /// the unit's order), or the unit's name for a model alone in its unit ("Bjorn the
    /// Fell-Handed"). `model` out of range gives "model N".
    pub fn model_label(&self, model: usize) -> String {
        let Some(m) = self.models.get(model) else {
            return format!("model {}", model + 1);
        };
        if self.models.len() == 1 {
            return self.name.clone();
        }
        let profile = &m.characteristics.profile;
        let alike: Vec<usize> = (0..self.models.len())
            .filter(|&i| self.models[i].characteristics.profile == *profile)
            .collect();
        if alike.len() == 1 {
            profile.to_string()
        } else {
            let k = alike.iter().position(|&i| i == model).unwrap_or(0) + 1;
            format!("{profile} {k}")
        }
    }

    /// The unit's own datasheet to change (a copy is made first if other copies of the scene
    /// share it).
    pub fn datasheet_mut(&mut self) -> &mut Datasheet {
        std::sync::Arc::make_mut(&mut self.datasheet)
    }
}

/// One player's army on the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Army {
    /// Player number: 1 or 2.
    pub player: u8,
    /// Army name.
    pub name: String,
    /// Faction.
    pub faction: String,
    /// Units, in list order.
    pub units: Vec<Unit>,
    /// What the army file does that still works but should change (the old `wargear` form
    /// giving a model two weapons of a kind), for `validate` to print.
    pub warnings: Vec<String>,
    /// The scene's placements that put a model outside this player's deployment zone (one
    /// line per unit): a situation to look at, not a game's start; `simulate` refuses such
    /// a scene, `validate` warns.
    pub outside_zone: Vec<String>,
    /// Its army rules and Detachment (Core Rules: Army Rules, Detachment Rules).
    pub rules: std::sync::Arc<crate::data::faction_rules::ArmyRules>,
}

impl Army {
    /// The army's points: the sum of its units' (units whose size has no price count 0),
    /// summed wide so no number of units can overflow it.
    pub fn points(&self) -> u64 {
        self.units
            .iter()
            .filter_map(|u| u.points)
            .map(u64::from)
            .sum()
    }
}

/// A scene ready to put on the table: every reference loaded and checked, every model placed.
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    /// Scene name.
    pub name: String,
    /// The scene file.
    pub file: PathBuf,
    /// Terrain (shared by the scene's copies: a game copied to weigh a move keeps one layout;
    /// [`std::sync::Arc::make_mut`] gives a copy of its own to change).
    pub layout: std::sync::Arc<Layout>,
    /// Deployment map (shared by the scene's copies, as `layout`).
    pub deployment: std::sync::Arc<DeploymentMap>,
    /// Mission (shared by the scene's copies, as `layout`).
    pub mission: std::sync::Arc<Mission>,
    /// Objective markers in play: the layout's, else the mission's, else the deployment map's.
    pub objectives: Vec<ObjectiveMarker>,
    /// Table conventions.
    pub options: SceneOptions,
    /// The two armies, player 1 first.
    pub armies: Vec<Army>,
    /// The mission's secondary deck, loaded (None: the mission has none); shared by the
    /// scene's copies, as `layout`.
    pub secondary_deck: Option<std::sync::Arc<SecondaryDeck>>,
    /// How players 1 and 2 use the secondary deck.
    pub secondaries: [SecondaryMode; 2],
    /// Whether the armies of players 1 and 2 are Battle Ready.
    pub battle_ready: [bool; 2],
}

impl Scene {
    /// The edition of the core rules this scene is played under (`options.ruleset`).
    pub fn ruleset(&self) -> crate::rules::Ruleset {
        self.options.ruleset
    }

    /// The scene under `ruleset` when one is given (`--ruleset`, a save's record), else as its
    /// file says.
    pub fn under(mut self, ruleset: Option<crate::rules::Ruleset>) -> Self {
        if let Some(r) = ruleset {
            self.options.ruleset = r;
        }
        self
    }

    /// The terrain sight rules of the scene's edition, for its sight index: 10th with the
    /// scene's window convention, or 11th with the layout's terrain areas.
    pub fn terrain_rules(&self) -> crate::geometry::sight::TerrainRules {
        use crate::geometry::sight::TerrainRules;
        use crate::rules::ruleset::SightRules;
        match self.edition().sight {
            SightRules::Footprints => TerrainRules::tenth(self.options.ground_floor_windows_closed),
            SightRules::ObscuringAreas {
                solid_gap_inches,
                hidden_detection_range_inches,
            } => TerrainRules::Eleventh {
                areas: self.layout.areas.clone(),
                solid_gap_inches,
                hidden_detection_range_inches,
            },
        }
    }

    /// The numbers and mechanics of the scene's edition: what the engine consults where the
    /// editions differ.
    pub fn edition(&self) -> &'static crate::rules::Edition {
        self.options.ruleset.edition()
    }

    /// The footprints of the layout's barricades (Engagement Range is measured across them).
    pub fn barricade_footprints(&self) -> Vec<Vec<crate::geometry::Vec2>> {
        self.layout
            .pieces
            .iter()
            .filter(|p| p.category == crate::geometry::TerrainCategory::Barricade)
            .map(|p| p.footprint.clone())
            .collect()
    }
}

fn fail_if(errors: Vec<DataError>) -> Result<(), DataErrors> {
    if errors.is_empty() {
        Ok(())
    } else {
        Err(DataErrors(errors))
    }
}

/// Reads and parses `file`, returning its text too (for the positions of errors).
fn load<T: serde::de::DeserializeOwned>(file: &Path) -> Result<(T, String), DataError> {
    let text = read(file)?;
    Ok((parse(file, &text)?, text))
}

/// `errors` with the line and column of each value they name in `text`, if any.
fn fail_if_located(mut errors: Vec<DataError>, text: &str) -> Result<(), DataErrors> {
    locate(&mut errors, text);
    fail_if(errors)
}

/// Loads and checks a layout file.
///
/// # Errors
/// Syntax or semantic problems, each naming the file.
pub fn load_layout(file: &Path) -> Result<Layout, DataErrors> {
    let (data, text): (LayoutFile, _) = load(file)?;
    fail_if_located(check::layout(file, &data), &text)?;
    Ok(Layout {
        areas: data.resolved_areas(),
        name: data.name,
        source: data.source,
        pieces: data.pieces.iter().map(|p| p.resolve()).collect(),
        objectives: data.objectives,
    })
}

/// Loads and checks a deployment map file.
///
/// # Errors
/// Syntax or semantic problems, each naming the file.
pub fn load_deployment(file: &Path) -> Result<DeploymentMap, DataErrors> {
    let (data, text): (DeploymentMap, _) = load(file)?;
    fail_if_located(check::deployment(file, &data), &text)?;
    Ok(data)
}

/// Loads and checks a mission file.
///
/// # Errors
/// Syntax or semantic problems, each naming the file.
pub fn load_mission(file: &Path) -> Result<Mission, DataErrors> {
    let (data, text): (Mission, _) = load(file)?;
    fail_if_located(check::mission(file, &data), &text)?;
    Ok(data)
}

/// Loads and checks a secondary mission deck file (Chapter Approved 2025-26: Secondary
/// Missions).
///
/// # Errors
/// Syntax or semantic problems (no cards, duplicate names, a zero hand size), each naming the
/// file.
pub fn load_secondary_deck(file: &Path) -> Result<SecondaryDeck, DataErrors> {
    let (data, text): (SecondaryDeck, _) = load(file)?;
    fail_if_located(check::secondary_deck(file, &data), &text)?;
    Ok(data)
}

/// Loads and checks a datasheet file.
///
/// # Errors
/// Syntax or semantic problems, each naming the file.
pub fn load_datasheets(file: &Path) -> Result<DatasheetsFile, DataErrors> {
    let (mut data, text): (DatasheetsFile, _) = load(file)?;
    for d in &mut data.datasheets {
        d.gather_profiles();
        d.gather_core_abilities();
        d.gather_effects();
    }
    fail_if_located(check::datasheets(file, &data), &text)?;
    // Checked as written; then a datasheet without a base gets its hull or an assumed base.
    for d in &mut data.datasheets {
        crate::data::hulls::fill_missing_base(d);
    }
    Ok(data)
}

/// Loads an army file and its datasheets, checks the list, and builds its units (models not
/// yet placed: every position is the origin).
///
/// # Errors
/// Syntax or semantic problems, each naming the file and the unit.
pub fn load_army(file: &Path, player: u8) -> Result<Army, DataErrors> {
    let (data, text): (ArmyFile, _) = load(file)?;
    let mut sheets: Vec<Datasheet> = Vec::new();
    let mut listed: Vec<PathBuf> = Vec::new();
    for (i, f) in data.datasheets.iter().enumerate() {
        let sheet_file = sibling(file, f);
        if listed.contains(&sheet_file) {
            let mut named = vec![DataError::value(
                file,
                format!("datasheets[{i}]"),
                format!(
                    "the datasheets file '{}' is listed twice",
                    sheet_file.display()
                ),
            )];
            locate(&mut named, &text);
            return Err(DataErrors(named));
        }
        listed.push(sheet_file.clone());
        match load_datasheets(&sheet_file) {
            Ok(d) => sheets.extend(d.datasheets),
            Err(mut e) => {
                // A datasheet file the army names that cannot be read is also an error of the
                // army, at the line and column of its name.
                let io =
                    e.0.iter()
                        .any(|x| matches!(x, DataError::Io { file: g, .. } if *g == sheet_file));
                if io {
                    let mut named = vec![DataError::value(
                        file,
                        format!("datasheets[{i}]"),
                        format!(
                            "the datasheets file '{}' cannot be read",
                            sheet_file.display()
                        ),
                    )];
                    locate(&mut named, &text);
                    e.0.splice(0..0, named);
                }
                return Err(e);
            }
        }
    }
    let mut errors = Vec::new();
    let mut fail = |m: String| errors.push(DataError::semantic(file, m));
    let mut seen = HashMap::new();
    for u in &data.units {
        if seen.insert(u.id.as_str(), u).is_some() {
            fail(format!("unit '{}' is defined twice", u.id));
        }
        if u.id.is_empty() || u.id.contains([':', '#']) || u.id.contains(char::is_whitespace) {
            fail(format!(
                "unit id '{}' must be a non-empty name without spaces, ':' or '#'",
                u.id
            ));
        }
    }
    let find = |name: &str| sheets.iter().find(|d| d.name.eq_ignore_ascii_case(name));
    let mut sizes = Vec::new();
    let mut units = Vec::new();
    let mut warnings = Vec::new();
    for (index, u) in data.units.iter().enumerate() {
        let Some(sheet) = find(&u.datasheet) else {
            let known: Vec<&str> = sheets.iter().map(|d| d.name.as_str()).collect();
            fail(format!(
                "unit '{}' refers to unknown datasheet '{}' (known: {})",
                u.id,
                u.datasheet,
                known.join(", ")
            ));
            continue;
        };
        let (lo, hi) = sheet.unit_size;
        // A unit of the wrong size is never built: a billion models would take 40 GB.
        let in_range = (lo..=hi).contains(&u.models);
        let size_ok =
            (in_range || (u.roster_size && u.models > 0)) && u.models <= MAX_MODELS_PER_UNIT;
        if size_ok && !in_range {
            warnings.push(format!(
                "unit '{}' has {} models as its roster gives them; the datasheet {} takes {lo} to {hi}",
                u.id, u.models, sheet.name
            ));
        }
        if !size_ok {
            sizes.push(DataError::value(
                file,
                format!("units[{index}].models"),
                format!(
                    "unit '{}' has {} models; {} takes {lo} to {} (and no unit more than {MAX_MODELS_PER_UNIT})",
                    u.id,
                    u.models,
                    sheet.name,
                    hi.min(MAX_MODELS_PER_UNIT)
                ),
            ));
        }
        for (weapon, count) in &u.wargear {
            if sheet.weapon(weapon).is_none() {
                fail(format!(
                    "unit '{}': wargear '{weapon}' is not a weapon of {}",
                    u.id, sheet.name
                ));
            } else if *count > u.models {
                fail(format!(
                    "unit '{}': {count} models carry '{weapon}' but the unit has {}",
                    u.id, u.models
                ));
            }
        }
        let models = if size_ok {
            match unit_models(sheet, u) {
                Ok((models, warning)) => {
                    warnings.extend(warning);
                    models
                }
                Err(problems) => {
                    for p in problems {
                        fail(format!("unit '{}': {p}", u.id));
                    }
                    Vec::new()
                }
            }
        } else {
            Vec::new()
        };
        if let Some(target) = &u.attached_to {
            match seen.get(target.as_str()) {
                None => fail(format!(
                    "unit '{}' is attached to unknown unit '{target}'",
                    u.id
                )),
                Some(_) if target == &u.id => {
                    fail(format!("unit '{}' cannot be attached to itself", u.id))
                }
                Some(bodyguard) => {
                    if !sheet.has_keyword("CHARACTER") {
                        fail(format!(
                            "unit '{}' ({}) is not a CHARACTER and cannot lead '{target}'",
                            u.id, sheet.name
                        ));
                    } else if !sheet.leader_of.is_empty()
                        && !sheet
                            .leader_of
                            .iter()
                            .any(|l| l.eq_ignore_ascii_case(&bodyguard.datasheet))
                    {
                        fail(format!(
                            "unit '{}' ({}) cannot lead '{target}' ({}); it can lead: {}",
                            u.id,
                            sheet.name,
                            bodyguard.datasheet,
                            sheet.leader_of.join(", ")
                        ));
                    } else if bodyguard.attached_to.is_some() {
                        fail(format!(
                            "unit '{}' cannot lead '{target}', which is itself attached to another unit",
                            u.id
                        ));
                    }
                }
            }
        }
        if !size_ok || models.len() != u.models as usize {
            continue;
        }
        units.push(Unit {
            id: u.id.clone(),
            name: u.name.clone().unwrap_or_else(|| sheet.name.clone()),
            datasheet: std::sync::Arc::new(sheet.clone()),
            attached_to: u.attached_to.clone(),
            points: sheet.points_for(u.models),
            models,
            enhancements: Vec::new(),
        });
    }
    let sheet_of = |id: &str| {
        data.units
            .iter()
            .find(|u| u.id == id)
            .and_then(|u| find(&u.datasheet))
    };
    for (bodyguard, leaders) in leaders_per_bodyguard(&data) {
        if leaders.len() > MAX_LEADERS_PER_BODYGUARD {
            fail(format!(
                "unit '{bodyguard}' has {} Leaders attached ({}); a Bodyguard unit can have no more than two",
                leaders.len(),
                leaders.join(", ")
            ));
        } else if let [first, second] = leaders[..]
            && let (Some(a), Some(b)) = (sheet_of(first), sheet_of(second))
            && let Some(why) = second_leader_refused(a, b)
        {
            fail(format!(
                "unit '{bodyguard}' has two Leaders attached ({first}, {second}): {why}"
            ));
        }
    }
    let rules = army_rules(file, &data, &mut units, &mut warnings, &mut errors)?;
    shared_abilities_into(&mut units, &rules);
    errors.extend(sizes);
    fail_if_located(errors, &text)?;
    number_alike_names(&mut units);
    Ok(Army {
        player,
        name: data.name,
        faction: data.faction,
        units,
        warnings,
        outside_zone: Vec::new(),
        rules: std::sync::Arc::new(rules),
    })
}

/// Gives each unit's datasheet abilities that have no effects of their own the effects of the
/// faction file's shared ability of that name for that datasheet
/// ([`crate::data::faction_rules::ArmyRules::ability_for`]), once, when the army is built: the
/// game then reads every ability's effects from the datasheet. An ability the datasheet gives
/// as a timed ability keeps none (the engine applies the timed one: the hand-written Trukk's
/// Grot Riggers).
fn shared_abilities_into(units: &mut [Unit], rules: &crate::data::faction_rules::ArmyRules) {
    if rules.abilities.is_empty() {
        return;
    }
    for u in units {
        let sheet = &u.datasheet;
        let found: Vec<(usize, Vec<crate::rules::effect::Effect>)> = sheet
            .abilities
            .iter()
            .enumerate()
            .filter(|(_, ab)| {
                ab.effects.is_empty()
                    && !sheet
                        .timed_abilities
                        .iter()
                        .any(|t| crate::data::faction_rules::same_name(&t.name, &ab.name))
            })
            .filter_map(|(i, ab)| {
                rules
                    .ability_for(&ab.name, &sheet.name)
                    .filter(|r| !r.effects.is_empty())
                    .map(|r| (i, r.effects.clone()))
            })
            .collect();
        if found.is_empty() {
            continue;
        }
        let d = std::sync::Arc::make_mut(&mut u.datasheet);
        for (i, effects) in found {
            d.abilities[i].effects = effects;
        }
    }
}

/// The army's rules: the faction rules file the army names (`rules`), or the shipped one for
/// its faction (by name, else by its units' faction keywords); its Detachment (the first of
/// `detachments` the file knows); each unit's Enhancements. A Detachment or Enhancement the
/// file does not know is a warning (the players apply it by hand); a known Enhancement on a
/// unit that may not take it is an error (Core Rules: Enhancements: a CHARACTER, not an EPIC
/// HERO, of the kind the Enhancement names; each Enhancement once per army).
///
/// # Errors
/// The rules file the army names cannot be read or is malformed.
fn army_rules(
    file: &Path,
    data: &ArmyFile,
    units: &mut [Unit],
    warnings: &mut Vec<String>,
    errors: &mut Vec<DataError>,
) -> Result<crate::data::faction_rules::ArmyRules, DataErrors> {
    use crate::data::faction_rules::{self as fr, ArmyRules};
    let found = match &data.rules {
        Some(r) => {
            let path = sibling(file, r);
            let rules = fr::load_faction_rules(&path)?;
            Some((path, std::sync::Arc::new(rules)))
        }
        None => fr::for_faction(&data.faction).or_else(|| {
            let keywords: Vec<&String> = units
                .iter()
                .flat_map(|u| &u.datasheet.faction_keywords)
                .collect();
            fr::shipped()
                .iter()
                .find(|(_, r)| keywords.iter().any(|k| k.eq_ignore_ascii_case(&r.keyword)))
                .cloned()
        }),
    };
    let Some((path, faction)) = found else {
        let named = data.detachments.len()
            + data
                .units
                .iter()
                .map(|u| u.enhancements.len())
                .sum::<usize>();
        if named > 0 {
            warnings.push(format!(
                "no rules file for the faction '{}': its army rules, Detachment and Enhancements are applied by hand",
                data.faction
            ));
        }
        return Ok(ArmyRules::default());
    };
    let detachment = data
        .detachments
        .iter()
        .find_map(|d| faction.detachment(d))
        .cloned();
    // An army naming Enhancements but no Detachment (a roster that left it out): the one
    // Detachment those Enhancements belong to.
    let named: Vec<&str> = data
        .units
        .iter()
        .flat_map(|u| u.enhancements.iter().map(String::as_str))
        .collect();
    let detachment = match detachment {
        None if data.detachments.is_empty() => {
            let inferred = faction.detachment_with(&named).cloned();
            if let Some(d) = &inferred {
                warnings.push(format!(
                    "no Detachment named: '{}' is taken, the one its Enhancements belong to",
                    d.name
                ));
            }
            inferred
        }
        d => d,
    };
    if detachment.is_none() && !data.detachments.is_empty() {
        warnings.push(format!(
            "the Detachment '{}' is not in {}: its rules are applied by hand",
            data.detachments.join(", "),
            path.display()
        ));
    }
    let rules = ArmyRules {
        file: Some(path.clone()),
        keyword: faction.keyword.clone(),
        army_rules: faction.army_rules.clone(),
        detachment,
        abilities: faction.abilities.clone(),
    };
    let mut taken: Vec<String> = Vec::new();
    for (index, entry) in data.units.iter().enumerate() {
        let Some(unit) = units.iter_mut().find(|u| u.id == entry.id) else {
            continue;
        };
        for (k, name) in entry.enhancements.iter().enumerate() {
            let Some(e) = rules.enhancement(name) else {
                warnings.push(format!(
                    "unit '{}': the Enhancement '{name}' is not in the Detachment{}: it is applied by hand",
                    entry.id,
                    rules
                        .detachment
                        .as_ref()
                        .map(|d| format!(" '{}'", d.name))
                        .unwrap_or_default()
                ));
                continue;
            };
            let sheet = &unit.datasheet;
            let has = |k: &str| {
                sheet.has_keyword(k)
                    || sheet.name.eq_ignore_ascii_case(k)
                    || sheet
                        .faction_keywords
                        .iter()
                        .any(|f| f.eq_ignore_ascii_case(k))
            };
            let why = if !sheet.has_keyword("CHARACTER") {
                Some("it is not a CHARACTER".to_string())
            } else if sheet.has_keyword("EPIC HERO") {
                Some("an EPIC HERO cannot take Enhancements".to_string())
            } else if !e.eligible.is_empty() && !e.eligible.iter().any(|k| has(k)) {
                Some(format!("it is for {} only", e.eligible.join(" or ")))
            } else if taken.iter().any(|t| fr::same_name(t, &e.name)) {
                Some("the army already has it (each Enhancement once per army)".to_string())
            } else {
                None
            };
            match why {
                Some(why) => errors.push(DataError::value(
                    file,
                    format!("units[{index}].enhancements[{k}]"),
                    format!(
                        "unit '{}' ({}) cannot take the Enhancement '{}': {why}",
                        entry.id, sheet.name, e.name
                    ),
                )),
                None => {
                    taken.push(e.name.clone());
                    // An Enhancement's points are part of its bearer's (Core Rules: Muster Your
                    // Army).
                    unit.points = unit.points.map(|p| p + e.points);
                    unit.enhancements.push(e.clone());
                }
            }
        }
    }
    Ok(rules)
}

/// Numbers the display names that several units of an army share, in army order ("Blood
/// Claws 1" ... "Blood Claws 5"), so that every unit a player reads about can be told from the
/// others; a name only one unit has stays as it is.
pub fn number_alike_names(units: &mut [Unit]) {
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let counts = units.iter().fold(
        std::collections::HashMap::<String, usize>::new(),
        |mut m, u| {
            *m.entry(u.name.clone()).or_default() += 1;
            m
        },
    );
    for u in units.iter_mut() {
        if counts[&u.name] > 1 {
            let n = seen.entry(u.name.clone()).or_default();
            *n += 1;
            u.name = format!("{} {n}", u.name);
        }
    }
}

/// The most Leaders one Bodyguard unit can have (Rules Commentary: Attached Units with
/// Multiple Characters; a second one only where a rule allows it: [`second_leader_refused`]).
pub const MAX_LEADERS_PER_BODYGUARD: usize = 2;

/// Why the Leaders of datasheets `first` and `second` cannot both be attached to one Bodyguard
/// unit, if they cannot: a Bodyguard unit takes one Leader, and a second only when one of the
/// two has a rule letting it join a unit the other leads ([`Datasheet::joins_leaders`]).
///
/// Core Rules: Leader; Rules Commentary: Attached Units with Multiple Characters.
pub fn second_leader_refused(first: &Datasheet, second: &Datasheet) -> Option<String> {
    // 11th edition: one Leader and one Support (11th Core Rules 19.01, 24.34).
    let support = |d: &Datasheet| d.has_core(&crate::rules::CoreAbility::Support);
    if support(first) != support(second) {
        return None;
    }
    let joins = |a: &Datasheet, b: &Datasheet| {
        a.joins_leaders
            .iter()
            .any(|k| b.has_keyword(k) || b.name.eq_ignore_ascii_case(k))
    };
    if joins(first, second) || joins(second, first) {
        return None;
    }
    let why = if first.name.eq_ignore_ascii_case(&second.name) {
        format!(
            "a {} has no rule letting it join a unit another {0} leads",
            first.name
        )
    } else {
        format!(
            "neither {} nor {} has a rule letting it join a unit the other leads",
            first.name, second.name
        )
    };
    Some(format!(
        "a Bodyguard unit can have only one Leader attached, and {why} (Core Rules: Leader)"
    ))
}

/// The attachments of `army` that 11th edition refuses (11th Core Rules 19.01, 24.34): a
/// Bodyguard unit takes one Leader and one Support unit, so two Leaders (whatever rule let
/// 10th join them) and a Support with no Leader are refused. One message per Bodyguard unit.
pub fn eleventh_attachments_refused(army: &Army) -> Vec<String> {
    let mut out = Vec::new();
    for bodyguard in &army.units {
        let attached: Vec<&Unit> = army
            .units
            .iter()
            .filter(|u| u.attached_to.as_deref() == Some(bodyguard.id.as_str()))
            .collect();
        let supports = attached
            .iter()
            .filter(|u| u.datasheet.has_core(&crate::rules::CoreAbility::Support))
            .count();
        let leaders = attached.len() - supports;
        let names = || {
            attached
                .iter()
                .map(|u| format!("'{}'", u.id))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if leaders > 1 || supports > 1 {
            out.push(format!(
                "army '{}': unit '{}' has {} attached; under 11th edition a Bodyguard unit takes \
                 one Leader and one Support unit (11th Core Rules 19.01)",
                army.name,
                bodyguard.id,
                names()
            ));
        } else if supports == 1 && leaders == 0 {
            out.push(format!(
                "army '{}': unit '{}' has a Support unit ({}) but no Leader; under 11th edition \
                 a Support unit joins a unit a Leader leads (11th Core Rules 24.34)",
                army.name,
                bodyguard.id,
                names()
            ));
        }
    }
    out
}

/// Each Bodyguard unit id with the ids of the units attached to it, in list order.
fn leaders_per_bodyguard(data: &ArmyFile) -> Vec<(&str, Vec<&str>)> {
    let mut out: Vec<(&str, Vec<&str>)> = Vec::new();
    for u in &data.units {
        let Some(target) = u.attached_to.as_deref() else {
            continue;
        };
        match out.iter_mut().find(|(b, _)| *b == target) {
            Some((_, leaders)) => leaders.push(&u.id),
            None => out.push((target, vec![&u.id])),
        }
    }
    out
}

/// The models of the army entry `u` of datasheet `sheet` (not yet placed): each with its
/// model profile's characteristics and its weapons, from `loadouts`, else the old `wargear`
/// form, else the datasheet's default wargear (profiles that need a least number of models
/// go to the first models). Also a warning when the old form gives a model two weapons of a
/// kind.
///
/// # Errors
/// Every problem with the entry: loadouts that do not add up to the unit's models, an
/// unknown profile or weapon, a profile on too few or too many models, no base size.
fn unit_models(
    sheet: &Datasheet,
    u: &UnitEntry,
) -> Result<(Vec<Model>, Option<String>), Vec<String>> {
    let mut problems = Vec::new();
    let mut groups: Vec<(Option<String>, Vec<String>, u32)> = Vec::new();
    let mut warning = None;
    if !u.loadouts.is_empty() {
        if !u.wargear.is_empty() {
            problems.push("give either `loadouts` or the old `wargear`, not both".to_string());
        }
        let total: u64 = u.loadouts.iter().map(|l| u64::from(l.models)).sum();
        if total != u64::from(u.models) {
            problems.push(format!(
                "its loadouts hold {total} models but the unit has {}",
                u.models
            ));
        }
        for (i, l) in u.loadouts.iter().enumerate() {
            if let Some(p) = &l.profile
                && !p.eq_ignore_ascii_case(&sheet.name)
                && sheet.model_profile(p).is_none()
            {
                let mut names = vec![sheet.name.clone()];
                names.extend(sheet.model_profiles.iter().map(|m| m.name.clone()));
                problems.push(format!(
                    "loadouts[{i}]: {} has no model profile '{p}' (profiles: {})",
                    sheet.name,
                    names.join(", ")
                ));
            }
            // A weapon named twice is carried twice (two fusion blasters); two profile names
            // of one weapon are one weapon.
            let mut carried: Vec<String> = Vec::new();
            let mut written: Vec<&str> = Vec::new();
            for w in &l.wargear {
                match sheet.weapon(w) {
                    None => problems.push(format!(
                        "loadouts[{i}]: '{w}' is not a weapon of {} (its weapons: {})",
                        sheet.name,
                        weapon_names(sheet)
                    )),
                    Some(p) => {
                        let again = written.iter().any(|x| x.eq_ignore_ascii_case(w));
                        if again || !carried.iter().any(|c| c.eq_ignore_ascii_case(&p.name)) {
                            carried.push(p.name.clone());
                        }
                        written.push(w);
                    }
                }
            }
            groups.push((l.profile.clone(), carried, l.models));
        }
    } else if !u.wargear.is_empty() {
        let (per_model, doubled) = old_wargear(sheet, &u.wargear, u.models);
        if let Some(d) = doubled {
            warning = Some(format!(
                "unit '{}': the old `wargear` form gives the first models every weapon listed ({d}); write `loadouts` to say which models carry what",
                u.id
            ));
        }
        groups.extend(per_model.into_iter().map(|w| (None, w, 1)));
    } else {
        groups.push((None, default_loadout(sheet), u.models));
    }
    if u.loadouts.is_empty() {
        // The profiles a unit must have (a Boss Nob, a Sergeant) go to its first models.
        let mut first = 0u32;
        let mut assigned: Vec<(Option<String>, Vec<String>, u32)> = Vec::new();
        for m in &sheet.model_profiles {
            let least = m.count.map_or(0, |c| c.0);
            for _ in 0..least {
                if first >= u.models {
                    break;
                }
                let w = weapons_of_model(&groups, first);
                assigned.push((Some(m.name.clone()), w, 1));
                first += 1;
            }
        }
        if first > 0 {
            let rest: Vec<_> = (first..u.models)
                .map(|i| (None, weapons_of_model(&groups, i), 1))
                .collect();
            assigned.extend(rest);
            groups = assigned;
        }
    }
    // Models on the datasheet's own line may be of any profile that needs more models.
    let unnamed: u32 = groups
        .iter()
        .filter(|(p, _, _)| p.is_none())
        .map(|g| g.2)
        .sum();
    for m in &sheet.model_profiles {
        let Some((lo, hi)) = m.count else { continue };
        let n: u32 = groups
            .iter()
            .filter(|(p, _, _)| {
                p.as_deref()
                    .is_some_and(|p| p.eq_ignore_ascii_case(&m.name))
            })
            .map(|g| g.2)
            .sum();
        if (n + unnamed < lo.min(u.models) || n > hi) && !u.roster_size {
            problems.push(format!(
                "{n} models have the profile '{}'; {} takes {lo} to {hi}",
                m.name, sheet.name
            ));
        }
    }
    let mut models = Vec::new();
    for (profile, weapons, n) in groups {
        let weapons = std::sync::Arc::new(weapons);
        match sheet.characteristics(profile.as_deref()) {
            Ok(c) => models.extend((0..n).map(|_| Model {
                position: Vec3::ZERO,
                facing: 0.0,
                weapons: weapons.clone(),
                characteristics: c.clone(),
            })),
            Err(e) => {
                if !problems.contains(&e) {
                    problems.push(e);
                }
            }
        }
    }
    if problems.is_empty() {
        Ok((models, warning))
    } else {
        Err(problems)
    }
}

/// The weapons of model `index` of `groups` (each group `n` models alike).
fn weapons_of_model(groups: &[(Option<String>, Vec<String>, u32)], index: u32) -> Vec<String> {
    let mut left = index;
    for (_, w, n) in groups {
        if left < *n {
            return w.clone();
        }
        left -= n;
    }
    Vec::new()
}

/// The datasheet's weapon names, for messages.
fn weapon_names(sheet: &Datasheet) -> String {
    let mut names: Vec<&str> = Vec::new();
    for w in sheet.weapons() {
        if !names.contains(&w.name.as_str()) {
            names.push(&w.name);
        }
    }
    names.join(", ")
}

/// What every model carries when the list gives no wargear: the datasheet's default wargear,
/// or every weapon when it names none.
fn default_loadout(sheet: &Datasheet) -> Vec<String> {
    let names: Vec<String> = if sheet.default_wargear.is_empty() {
        sheet.weapons().map(|w| w.name.clone()).collect()
    } else {
        sheet
            .default_wargear
            .iter()
            .map(|w| {
                sheet
                    .weapon(w)
                    .map_or_else(|| w.clone(), |p| p.name.clone())
            })
            .collect()
    };
    let mut carried: Vec<String> = Vec::new();
    for n in names {
        if !carried.contains(&n) {
            carried.push(n);
        }
    }
    carried
}

/// The old `wargear` form: the first `count` models carry each listed weapon. Returns each
/// model's weapons and, where a model gets two melee weapons without Extra Attacks this way
/// that are not on every model, their names (for the warning).
fn old_wargear(
    sheet: &Datasheet,
    wargear: &[(String, u32)],
    models: u32,
) -> (Vec<Vec<String>>, Option<String>) {
    let mut doubled = None;
    let per_model = (0..models as usize)
        .map(|index| {
            // A weapon is carried once, whichever of its profiles the list names.
            let mut carried: Vec<String> = Vec::new();
            for (w, _) in wargear.iter().filter(|(_, count)| index < *count as usize) {
                let name = sheet
                    .weapon(w)
                    .map_or_else(|| w.clone(), |p| p.name.clone());
                if !carried.iter().any(|c| c.eq_ignore_ascii_case(&name)) {
                    carried.push(name);
                }
            }
            // Two melee weapons on one model are meant as alternatives when neither is on
            // every model (a unit's models all carrying both, like a Dreadnought's, is fine).
            let on_every_model = |c: &str| {
                wargear.iter().any(|(w, n)| {
                    *n >= models
                        && sheet
                            .weapon(w)
                            .is_some_and(|p| p.name.eq_ignore_ascii_case(c))
                })
            };
            let melee: Vec<&String> = carried
                .iter()
                .filter(|c| {
                    !on_every_model(c)
                        && sheet.melee_weapons.iter().any(|w| {
                            w.name.eq_ignore_ascii_case(c)
                                && !w
                                    .abilities
                                    .contains(&crate::rules::WeaponAbility::ExtraAttacks)
                        })
                })
                .collect();
            if melee.len() > 1 && doubled.is_none() {
                doubled = Some(
                    melee
                        .iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(" and "),
                );
            }
            carried
        })
        .collect();
    (per_model, doubled)
}

/// Loads a scene file and everything it refers to, checks it, and places every model:
/// units with placements where the file says, the others set up automatically wholly within
/// their player's deployment zone (see [`set_up_army`]) by the current [`SetupVersion`].
///
/// # Errors
/// Every problem found, each naming its file (and line and column for syntax).
pub fn load_scene(file: &Path) -> Result<Scene, DataErrors> {
    load_scene_set_up(file, SetupVersion::CURRENT)
}

/// [`load_scene`] with the units without placements set up by `version`: a save replays on the
/// positions its game started from.
///
/// # Errors
/// As [`load_scene`].
pub fn load_scene_set_up(file: &Path, version: SetupVersion) -> Result<Scene, DataErrors> {
    load_scene_set_up_under(file, version, None)
}

/// [`load_scene`] under `ruleset` when one is given (`--ruleset`), the automatic set-up
/// keeping that ruleset's Unit Coherency.
///
/// # Errors
/// As [`load_scene`].
pub fn load_scene_under(
    file: &Path,
    ruleset: Option<crate::rules::Ruleset>,
) -> Result<Scene, DataErrors> {
    load_scene_set_up_under(file, SetupVersion::CURRENT, ruleset)
}

/// [`load_scene_set_up`] under `ruleset` when one is given (a save's record, `--ruleset`).
///
/// # Errors
/// As [`load_scene`].
pub fn load_scene_set_up_under(
    file: &Path,
    version: SetupVersion,
    ruleset: Option<crate::rules::Ruleset>,
) -> Result<Scene, DataErrors> {
    let (mut data, text): (SceneFile, _) = load(file)?;
    if let Some(r) = ruleset {
        data.options.ruleset = r;
    }
    fail_if_located(check::scene_objectives(file, &data.objectives), &text)?;
    let mut errors = Vec::new();
    let mut collect = |r: Result<(), DataErrors>| {
        if let Err(e) = r {
            errors.extend(e.0);
        }
    };
    // A file the scene names that cannot be read is also an error of the scene, at the line
    // and column of its name.
    let mut unreadable = Vec::new();
    let mut refers = |field: String, what: &str, target: &Path, e: &DataErrors| {
        let io =
            e.0.iter()
                .any(|x| matches!(x, DataError::Io { file: f, .. } if f == target));
        if io {
            unreadable.push(DataError::value(
                file,
                field,
                format!("the {what} file '{}' cannot be read", target.display()),
            ));
        }
    };
    let layout_file = sibling(file, &data.layout);
    let deployment_file = sibling(file, &data.deployment);
    let mission_file = sibling(file, &data.mission);
    let layout = load_layout(&layout_file);
    let deployment = load_deployment(&deployment_file);
    let mission = load_mission(&mission_file);
    for (field, what, target, r) in [
        ("layout", "layout", &layout_file, layout.as_ref().err()),
        (
            "deployment",
            "deployment map",
            &deployment_file,
            deployment.as_ref().err(),
        ),
        ("mission", "mission", &mission_file, mission.as_ref().err()),
    ] {
        if let Some(e) = r {
            refers(field.to_string(), what, target, e);
        }
    }
    let mut armies = Vec::new();
    for (i, a) in data.armies.iter().enumerate() {
        let army_file = sibling(file, &a.army);
        match load_army(&army_file, a.player) {
            Ok(army) => armies.push(army),
            Err(e) => {
                refers(format!("armies[{i}].army"), "army", &army_file, &e);
                collect(Err(e));
            }
        }
    }
    if !unreadable.is_empty() {
        locate(&mut unreadable, &text);
        collect(Err(DataErrors(unreadable)));
    }
    let (layout, deployment, mission) = match (layout, deployment, mission) {
        (Ok(l), Ok(d), Ok(m)) => (l, d, m),
        (l, d, m) => {
            collect(l.map(|_| ()));
            collect(d.map(|_| ()));
            collect(m.map(|_| ()));
            return Err(DataErrors(errors));
        }
    };
    fail_if(errors)?;
    let mut errors = Vec::new();
    for player in [1u8, 2] {
        let n = data.armies.iter().filter(|a| a.player == player).count();
        if n != 1 {
            errors.push(DataError::semantic(
                file,
                format!("a scene needs exactly one army for player {player}, found {n}"),
            ));
        }
    }
    if data.options.ruleset.edition().leader_and_support {
        for army in &armies {
            for why in eleventh_attachments_refused(army) {
                errors.push(DataError::semantic(file, why));
            }
        }
    }
    fail_if(errors)?;
    armies.sort_by_key(|a| a.player);
    place_models(file, &data, &layout, &deployment, &mut armies, version)
        .or_else(|e| fail_if_located(e.0, &text))?;
    let objectives = [
        &data.objectives,
        &layout.objectives,
        &mission.objectives,
        &deployment.objectives,
    ]
    .into_iter()
    .find(|list| !list.is_empty())
    .cloned()
    .unwrap_or_default();
    let secondary_deck = match &mission.secondary_deck {
        Some(deck) => {
            let deck_file = sibling(&mission_file, deck);
            let deck = load_secondary_deck(&deck_file).map_err(|e| {
                let mut errors = vec![DataError::value(
                    file,
                    "mission".to_string(),
                    format!(
                        "the mission's secondary deck '{}' cannot be loaded",
                        deck_file.display()
                    ),
                )];
                locate(&mut errors, &text);
                errors.extend(e.0);
                DataErrors(errors)
            })?;
            Some(deck)
        }
        None => None,
    };
    let mode_of = |player: u8| {
        data.armies
            .iter()
            .find(|a| a.player == player)
            .map(|a| (a.secondaries.clone(), a.battle_ready))
            .unwrap_or_default()
    };
    let (p1, p2) = (mode_of(1), mode_of(2));
    if let Some(deck) = &secondary_deck {
        let mut errors = Vec::new();
        for (i, a) in data.armies.iter().enumerate() {
            if let Err(why) = deck.check_mode(&a.secondaries, false) {
                errors.push(DataError::value(
                    file,
                    format!("armies[{i}].secondaries"),
                    why,
                ));
            }
        }
        fail_if_located(errors, &text)?;
    }
    Ok(Scene {
        name: data.name,
        file: file.to_path_buf(),
        layout: layout.into(),
        deployment: deployment.into(),
        mission: mission.into(),
        objectives,
        options: data.options,
        armies,
        secondary_deck: secondary_deck.map(std::sync::Arc::new),
        secondaries: [p1.0, p2.0],
        battle_ready: [p1.1, p2.1],
    })
}

/// Wall outlines on the table, padded slightly, for set-up.
pub(crate) fn wall_outlines(layout: &Layout) -> Vec<Vec<Vec2>> {
    layout
        .pieces
        .iter()
        .flat_map(|p| &p.walls)
        .map(|w| {
            let dir = (w.end - w.start).normalize_or_zero();
            let side = Vec2::new(-dir.y, dir.x) * (w.thickness / 2.0 + 0.05);
            let along = dir * 0.05;
            vec![
                w.start - along - side,
                w.end + along - side,
                w.end + along + side,
                w.start - along + side,
            ]
        })
        .collect()
}

fn place_models(
    file: &Path,
    data: &SceneFile,
    layout: &Layout,
    deployment: &DeploymentMap,
    armies: &mut [Army],
    version: SetupVersion,
) -> Result<(), DataErrors> {
    let mut errors = Vec::new();
    let mut fail = |m: String| errors.push(DataError::semantic(file, m));
    let mut poses = Vec::new();
    let mut obstacles = SetupObstacles {
        crowded: false,
        footprints: layout.pieces.iter().map(|p| p.footprint.clone()).collect(),
        walls: wall_outlines(layout),
        models: Vec::new(),
        ruleset: data.options.ruleset,
    };
    let board = check::board();
    let mut placed: Vec<Vec<bool>> = armies.iter().map(|a| vec![false; a.units.len()]).collect();
    // Placements written in the scene first.
    for (ai, army) in armies.iter_mut().enumerate() {
        let (si, spec) = data
            .armies
            .iter()
            .enumerate()
            .find(|(_, s)| s.player == army.player)
            .expect("checked");
        for (pi, p) in spec.placements.iter().enumerate() {
            let Some(ui) = army.units.iter().position(|u| u.id == p.unit) else {
                fail(format!(
                    "player {}: placement for unknown unit '{}'",
                    army.player, p.unit
                ));
                continue;
            };
            let at = format!("armies[{si}].placements[{pi}]");
            if placed[ai][ui] {
                poses.push(DataError::value(
                    file,
                    &at,
                    format!(
                        "player {}: '{}' is placed twice; give each unit one placement",
                        army.player, p.unit
                    ),
                ));
                continue;
            }
            let zone = deployment.zone_of(army.player);
            let mut outside_zone = None;
            let unit = &mut army.units[ui];
            if p.models.len() != unit.models.len() {
                fail(format!(
                    "player {}: placement for '{}' gives {} positions for {} models",
                    army.player,
                    unit.id,
                    p.models.len(),
                    unit.models.len()
                ));
                continue;
            }
            let climbs = ["INFANTRY", "BEAST", "FLY"]
                .iter()
                .any(|k| unit.datasheet.has_keyword(k));
            for (i, (m, pose)) in unit.models.iter_mut().zip(&p.models).enumerate() {
                let ModelPose { x, y, z, facing } = *pose;
                let base = m.characteristics.base;
                let path = format!("{at}.models[{i}]");
                let what = format!("player {}: model {} of '{}'", army.player, i + 1, unit.id);
                if let Some(e) = pose_error(layout, &what, pose, climbs) {
                    poses.push(DataError::value(file, format!("{path}{}", e.0), e.1));
                    continue;
                }
                let c = Vec2::new(x, y);
                if !base.wholly_within(c, facing, &board) {
                    fail(format!(
                        "player {}: model {} of '{}' at ({x}, {y}) is not wholly on the table",
                        army.player,
                        i + 1,
                        unit.id
                    ));
                }
                if let Some((_, q, _)) = obstacles
                    .models
                    .iter()
                    .find(|(b, q, f)| bases_overlap((&base, c, facing), (b, *q, *f)))
                {
                    fail(format!(
                        "player {}: model {} of '{}' at ({x}, {y}) overlaps the base of the model at ({}, {})",
                        army.player,
                        i + 1,
                        unit.id,
                        q.x,
                        q.y
                    ));
                }
                let outline = base.outline(c, facing);
                if let Some(piece) = layout.pieces.iter().find(|piece| {
                    piece
                        .walls
                        .iter()
                        .any(|w| z < w.height && polygon::segment_enters(w.start, w.end, &outline))
                }) {
                    poses.push(DataError::value(
                        file,
                        &path,
                        format!(
                            "{what} at ({x}, {y}) stands inside a wall of '{}'; walls are impassable to a model's base",
                            piece.id
                        ),
                    ));
                }
                if outside_zone.is_none()
                    && let Some(zone) = &zone
                    && !base.wholly_within(c, facing, zone)
                {
                    outside_zone = Some(format!(
                        "{what} at ({x}, {y}) is placed outside player {}'s deployment zone: a \
                         game from this scene does not start from a legal deployment",
                        army.player
                    ));
                }
                obstacles.models.push((base, c, facing));
                m.position = Vec3::new(x, y, z);
                m.facing = facing;
            }
            army.outside_zone.extend(outside_zone);
            placed[ai][ui] = true;
        }
    }
    // Automatic set-up for the rest: a Leader goes with its bodyguard as one formation; the
    // bulkiest units go first, while the zone is empty.
    for (ai, army) in armies.iter_mut().enumerate() {
        let Some(zone) = deployment.zone_of(army.player) else {
            continue;
        };
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for (ui, u) in army.units.iter().enumerate() {
            if placed[ai][ui] {
                continue;
            }
            let leader_of = u.attached_to.as_ref().and_then(|t| {
                army.units
                    .iter()
                    .position(|b| &b.id == t)
                    .filter(|b| !placed[ai][*b])
            });
            if leader_of.is_none() {
                let mut group = vec![ui];
                group.extend(army.units.iter().enumerate().filter_map(|(li, l)| {
                    (l.attached_to.as_deref() == Some(u.id.as_str()) && !placed[ai][li])
                        .then_some(li)
                }));
                groups.push(group);
            }
        }
        let bulk = |g: &Vec<usize>| {
            g.iter()
                .map(|&ui| {
                    army.units[ui]
                        .models
                        .iter()
                        .map(|m| {
                            let r = m.characteristics.base.bounding_radius_inches();
                            r * r + r * 100.0 / army.units[ui].models.len() as f32
                        })
                        .sum::<f32>()
                })
                .sum::<f32>()
        };
        groups.sort_by(|a, b| bulk(b).total_cmp(&bulk(a)));
        let units: Vec<Vec<Base>> = groups
            .iter()
            .map(|group| {
                group
                    .iter()
                    .flat_map(|&ui| army.units[ui].models.iter().map(|m| m.characteristics.base))
                    .collect()
            })
            .collect();
        let spots = set_up_army(
            &zone,
            &units,
            &mut obstacles,
            version.frame(army.player),
            polygon::centroid(&board),
        );
        for (group, spots) in groups.iter().zip(spots) {
            match spots {
                Ok(spots) => {
                    let mut spots = spots.into_iter();
                    for &ui in group {
                        for m in &mut army.units[ui].models {
                            let (p, f) = spots.next().expect("one spot per base");
                            m.position = Vec3::new(p.x, p.y, 0.0);
                            m.facing = f;
                        }
                    }
                }
                Err(e) => fail(format!(
                    "player {}: cannot set up '{}': {e}",
                    army.player, army.units[group[0]].id
                )),
            }
        }
    }
    errors.extend(poses);
    fail_if(errors)
}

/// What is wrong with a model's pose in a scene, if anything: (the field's path below the
/// pose, the problem). Coordinates and facing must be finite numbers; the model stands on the
/// table (z = 0) or, if it is INFANTRY, BEAST or FLY (`climbs`), on a floor at height z.
fn pose_error(
    layout: &Layout,
    what: &str,
    pose: &ModelPose,
    climbs: bool,
) -> Option<(&'static str, String)> {
    let ModelPose { x, y, z, facing } = *pose;
    for (field, v) in [(".x", x), (".y", y), (".z", z), (".facing", facing)] {
        if !v.is_finite() {
            return Some((
                field,
                format!("{what}: {} is {v}; it must be a finite number", &field[1..]),
            ));
        }
    }
    if facing.abs() > MAX_ANGLE_DEGREES {
        return Some((
            ".facing",
            format!(
                "{what}: facing {facing} is outside -{MAX_ANGLE_DEGREES}..{MAX_ANGLE_DEGREES} degrees"
            ),
        ));
    }
    if z.abs() <= MEASURE_TOLERANCE_INCHES {
        return None;
    }
    let on_floor = layout.pieces.iter().any(|p| {
        p.floors
            .iter()
            .any(|f| (f.height - z).abs() < 0.05 && polygon::contains(&f.area, Vec2::new(x, y)))
    });
    if !(0.0..=MAX_TERRAIN_HEIGHT_INCHES).contains(&z) || !on_floor {
        Some((
            ".z",
            format!(
                "{what} at height {z}\" stands neither on the table (0) nor on a floor at that height"
            ),
        ))
    } else if !climbs {
        Some((
            ".z",
            format!("{what} stands on an upper floor; only INFANTRY, BEAST and FLY models can"),
        ))
    } else {
        None
    }
}
