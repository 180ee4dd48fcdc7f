//! Data files in RON: formats (serde), semantic checks, and loading into table-ready data.
//! See docs/formats.md for every format.

pub mod army;
pub mod bsdata;
pub mod check;
pub mod error;
pub mod faction_rules;
pub mod hulls;
pub mod layout;
pub mod resolve;
pub mod roster;
pub mod scene;
pub mod source;
pub mod write;
pub mod xml;

use std::path::Path;

pub use error::{DataError, DataErrors};
pub use resolve::{
    Army, Layout, Model, Scene, Unit, load_army, load_scene, load_scene_set_up,
    load_scene_set_up_under, load_scene_under,
};

/// What a data file holds, told by its top-level struct name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// `Datasheets(...)`.
    Datasheets,
    /// `Army(...)`.
    Army,
    /// `Layout(...)`.
    Layout,
    /// `DeploymentMap(...)`.
    DeploymentMap,
    /// `Mission(...)`.
    Mission,
    /// `Scene(...)`.
    Scene,
    /// `SecondaryDeck(...)`.
    SecondaryDeck,
    /// `BaseSizes(...)`: the base-size table the datasheet converter reads.
    BaseSizes,
    /// `HullSizes(...)`: the hull table for datasheets without a base ([`hulls`]).
    HullSizes,
    /// `FactionRules(...)`: a faction's army rules and Detachments ([`faction_rules`]).
    FactionRules,
}

impl FileKind {
    /// Every kind with its struct name.
    pub const ALL: [(FileKind, &'static str); 10] = [
        (FileKind::Datasheets, "Datasheets"),
        (FileKind::Army, "Army"),
        (FileKind::Layout, "Layout"),
        (FileKind::DeploymentMap, "DeploymentMap"),
        (FileKind::Mission, "Mission"),
        (FileKind::Scene, "Scene"),
        (FileKind::SecondaryDeck, "SecondaryDeck"),
        (FileKind::BaseSizes, "BaseSizes"),
        (FileKind::HullSizes, "HullSizes"),
        (FileKind::FactionRules, "FactionRules"),
    ];

    /// Tells the kind from the first identifier of `text`, after comments and `#![...]`
    /// attributes.
    ///
    /// # Errors
    /// A syntax error at that identifier naming the kinds expected.
    pub fn sniff(file: &Path, text: &str) -> Result<FileKind, DataError> {
        let (mut line, mut column) = (1, 1);
        let mut rest = text;
        loop {
            let trimmed = rest.trim_start();
            let skipped = &rest[..rest.len() - trimmed.len()];
            advance(&mut line, &mut column, skipped);
            rest = trimmed;
            let end = if rest.starts_with("//") {
                rest.find('\n').unwrap_or(rest.len())
            } else if rest.starts_with("/*") {
                rest.find("*/").map_or(rest.len(), |i| i + 2)
            } else if rest.starts_with("#!") {
                rest.find(']').map_or(rest.len(), |i| i + 1)
            } else {
                break;
            };
            advance(&mut line, &mut column, &rest[..end]);
            rest = &rest[end..];
        }
        let ident: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        FileKind::ALL
            .iter()
            .find(|(_, name)| *name == ident)
            .map(|(k, _)| *k)
            .ok_or_else(|| DataError::Syntax {
                file: file.to_path_buf(),
                line,
                column,
                message: format!(
                    "expected a data file starting with one of {}, found {}",
                    FileKind::ALL.map(|(_, n)| format!("{n}(")).join(", "),
                    if ident.is_empty() {
                        "no name".to_string()
                    } else {
                        format!("'{ident}'")
                    }
                ),
            })
    }
}

fn advance(line: &mut usize, column: &mut usize, text: &str) {
    for c in text.chars() {
        if c == '\n' {
            *line += 1;
            *column = 1;
        } else {
            *column += 1;
        }
    }
}

/// What a valid file holds, for the `validate` report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Validated {
    /// The kind of file.
    pub kind: FileKind,
    /// A one-line summary, e.g. "layout 'X': 12 pieces".
    pub summary: String,
    /// What is allowed but worth knowing: a datasheet with no known base size (an army cannot
    /// field it), an army still in the old `wargear` form.
    pub warnings: Vec<String>,
}

/// Checks any data file: syntax, then the semantic rules of its kind (a scene or army also
/// checks the files it refers to, and a scene places every model).
///
/// # Errors
/// Every problem found, each naming its file.
pub fn validate_file(file: &Path) -> Result<Validated, DataErrors> {
    let text = source::read(file)?;
    let kind = FileKind::sniff(file, &text)?;
    let mut warnings = Vec::new();
    let summary = match kind {
        FileKind::Datasheets => {
            // Loaded as the game loads it: core abilities named under `abilities` are checked too.
            let d = resolve::load_datasheets(file)?;
            // A measured hull is what the model stands on; an assumed base is a guess.
            warnings.extend(d.datasheets.iter().filter_map(|s| match &s.base_source {
                Some(from @ hulls::BaseSource::Assumed(_)) => Some(format!(
                    "datasheet '{}' has no base size and no measured hull: it is given {from} ({}); give its datasheet a `base`",
                    s.name,
                    s.base.map(|b| b.describe()).unwrap_or_default()
                )),
                _ => None,
            }));
            format!(
                "datasheets '{}': {} datasheets",
                d.faction,
                d.datasheets.len()
            )
        }
        FileKind::Army => {
            let a = load_army(file, 1)?;
            warnings.extend(a.warnings.iter().cloned());
            let points = a.points();
            format!(
                "army '{}': {} units, {points} points",
                a.name,
                a.units.len()
            )
        }
        FileKind::Layout => {
            let l = resolve::load_layout(file)?;
            format!("layout '{}': {} pieces", l.name, l.pieces.len())
        }
        FileKind::DeploymentMap => {
            let d = resolve::load_deployment(file)?;
            format!(
                "deployment map '{}': {} zones, {} objectives",
                d.name,
                d.zones.len(),
                d.objectives.len()
            )
        }
        FileKind::Mission => {
            let m = resolve::load_mission(file)?;
            format!(
                "mission '{}': {} battle rounds, {} objectives, {} scoring rules{}",
                m.name,
                m.battle_rounds,
                m.objectives.len(),
                m.scoring.len(),
                if m.secondary_deck.is_some() {
                    ", with secondary missions"
                } else {
                    ""
                }
            )
        }
        FileKind::BaseSizes => {
            let b: bsdata::BaseSizes = source::parse(file, &text)?;
            format!(
                "base-size table: {} datasheets ({})",
                b.bases.len(),
                b.licence
            )
        }
        FileKind::HullSizes => {
            let h: hulls::HullSizes = source::parse(file, &text)?;
            format!(
                "hull table: {} measured hulls for {} datasheets, {} assumed bases",
                h.hulls.len(),
                h.hulls.iter().map(|x| x.names.len()).sum::<usize>(),
                h.defaults.len()
            )
        }
        FileKind::FactionRules => {
            let r = faction_rules::load_faction_rules(file)?;
            let applied = r
                .army_rules
                .iter()
                .filter(|x| x.status() == faction_rules::RuleStatus::Applied)
                .count();
            format!(
                "faction rules '{}': {} army rules ({applied} applied), {} Detachments",
                r.faction,
                r.army_rules.len(),
                r.detachments.len()
            )
        }
        FileKind::SecondaryDeck => {
            let d = resolve::load_secondary_deck(file)?;
            format!(
                "secondary deck '{}': {} cards, {} with the Fixed symbol",
                d.name,
                d.cards.len(),
                d.cards.iter().filter(|c| c.fixed).count()
            )
        }
        FileKind::Scene => {
            let s = load_scene(file)?;
            warnings.extend(s.armies.iter().flat_map(|a| a.warnings.iter().cloned()));
            warnings.extend(s.armies.iter().flat_map(|a| a.outside_zone.iter().cloned()));
            let models: usize = s
                .armies
                .iter()
                .flat_map(|a| &a.units)
                .map(|u| u.models.len())
                .sum();
            format!(
                "scene '{}': {} terrain pieces, {} units, {models} models",
                s.name,
                s.layout.pieces.len(),
                s.armies.iter().map(|a| a.units.len()).sum::<usize>()
            )
        }
    };
    Ok(Validated {
        kind,
        summary,
        warnings,
    })
}
