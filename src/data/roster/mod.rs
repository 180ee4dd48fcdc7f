//! Roster import: the lists players hold, read into the project's army format.
//!
//! The formats ([`RosterFormat`]): BattleScribe rosters (`.ros`, XML; `.rosz`, a zip holding
//! one `.ros`), New Recruit's JSON (the same tree, values under `$text`) and its three text
//! exports (WTC, GW and plain text, [`newrecruit`]), and the official Warhammer 40,000 app's
//! text export (10th-edition app 1.x, and the 11th-edition app 2.x layout). Each is read into
//! a [`Roster`] (names and counts, as the file gives them), then [`resolve`]d against the
//! datasheets: every unit to a datasheet, every model to a model profile, every weapon to a
//! datasheet weapon, and each model's wargear worked out from the counts (see [`loadouts`]).
//! Names are matched forgivingly (case, spaces, hyphens, apostrophes, plurals); what still
//! cannot be resolved is listed by name with the closest names the datasheets have.

pub mod leaders;
pub mod newrecruit;
pub mod resolve;
pub mod text;
pub mod tree;

use std::fmt;
use std::path::{Path, PathBuf};

use crate::data::write::{self, Overwrite};

/// The largest roster file read (any format), in bytes: 16 MiB. A 2,000-point list is under
/// 1 MiB as `.ros` and a few KiB as text.
pub const MAX_ROSTER_BYTES: u64 = 16 * 1024 * 1024;

/// The most text a `.rosz` may inflate to, in bytes: 16 MiB, as a `.ros` read directly.
pub const MAX_INFLATED_BYTES: u64 = MAX_ROSTER_BYTES;

pub use resolve::{
    BUILTIN_DATASHEETS, Catalog, Imported, ImportedUnit, Unresolved, attach_leader,
    default_datasheets, loadouts, resolve,
};

/// A roster as read from its file, before it is resolved against datasheets.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Roster {
    /// The list's name.
    pub name: String,
    /// Its faction as the file names it ("Orks", "Xenos - Orks", "Space Marines").
    pub faction: String,
    /// Its points, as the file totals them.
    pub points: Option<u32>,
    /// Detachment, battle size and other choices, kept by name.
    pub notes: Vec<String>,
    /// Its units, in list order.
    pub units: Vec<RosterUnit>,
}

/// One unit of a roster.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RosterUnit {
    /// Its datasheet's name as the file gives it.
    pub datasheet: String,
    /// A name the player gave it, if any.
    pub custom_name: Option<String>,
    /// Its points, as the file gives them.
    pub points: Option<u32>,
    /// Its models, wargear and notes, in file order.
    pub items: Vec<Item>,
    /// For the app's "Attached unit N" groups: N (the units of one group form an Attached
    /// unit).
    pub group: Option<usize>,
    /// The line of the file it starts on (text exports), for messages; 0 when unknown.
    pub line: usize,
}

/// One thing a roster lists under a unit.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// `N x Name` whose kind the file does not say (the app's text): a model or a weapon,
    /// told by the datasheet.
    Count {
        /// How many.
        count: u32,
        /// The name.
        name: String,
        /// The text column it starts at (indentation), for messages.
        column: usize,
        /// Its line in the file.
        line: usize,
    },
    /// `count` models called `name` (a model profile).
    Model {
        /// How many models.
        count: u32,
        /// The model's name.
        name: String,
    },
    /// A weapon: `count` of them among the models of the group it is listed under.
    Weapon {
        /// How many, in all, in its group.
        count: u32,
        /// The weapon's name (with its profile for a weapon with several).
        name: String,
    },
    /// Wargear with no weapon profile (a storm shield, an icon) or an upgrade: kept by name.
    Upgrade(String),
    /// A note kept by name: "Warlord", "Enhancement: X".
    Note(String),
    /// The later app's "Attached as: Leader (Character)".
    Attached(String),
    /// The unit's size as the export gives it beside its name ("10x Kroot Carnivores"), for
    /// units whose models are not listed one by one.
    UnitSize(u32),
    /// New Recruit's "Leading Khorne Berzerkers[2]" on a Leader: the unit it leads (the N-th
    /// unit of that name in the list where `[N]` is given).
    Leads(String),
    /// New Recruit's "Attached to Lord Invocatus" on a Bodyguard unit: its Leader.
    LedBy(String),
}

/// What went wrong reading a roster file.
#[derive(Debug, thiserror::Error)]
pub enum RosterError {
    /// The file cannot be read.
    #[error("{file}: cannot be read: {source}")]
    Io {
        /// The file.
        file: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a roster of the format it claims, or is damaged.
    #[error("{0}")]
    Format(String),
}

/// The formats [`read`] knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RosterFormat {
    /// BattleScribe `.ros` (XML).
    Ros,
    /// BattleScribe `.rosz` (a zip holding one `.ros`).
    Rosz,
    /// New Recruit's JSON export.
    NewRecruitJson,
    /// New Recruit's WTC-style text export (`+ FACTION KEYWORD:` header, `Char1:` prefixes,
    /// `N with` loadout lines).
    NewRecruitWtc,
    /// New Recruit's GW-style text export (one bulleted item per line).
    NewRecruitGw,
    /// New Recruit's plain text export (`Name [95 pts]: items`).
    NewRecruitText,
    /// The official app's text export (10th-edition app, versions 1.x).
    AppText,
    /// The official app's text export in the 11th-edition app's layout (versions 2.x:
    /// "(3 Detachment Points)", a Force Disposition line, "ATTACHED UNITS"); its units are the
    /// same datasheets.
    AppText11,
}

impl fmt::Display for RosterFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RosterFormat::Ros => "BattleScribe roster (.ros)",
            RosterFormat::Rosz => "BattleScribe roster (.rosz)",
            RosterFormat::NewRecruitJson => "New Recruit JSON",
            RosterFormat::NewRecruitWtc => "New Recruit text export (WTC style)",
            RosterFormat::NewRecruitGw => "New Recruit text export (GW style)",
            RosterFormat::NewRecruitText => "New Recruit text export",
            RosterFormat::AppText => "Warhammer 40,000 app text export",
            RosterFormat::AppText11 => "Warhammer 40,000 app text export (11th-edition app)",
        })
    }
}

/// Reads the roster in `bytes` (from a file called `name`, whose extension is a hint), in
/// whichever format it is, recognised from the content: a zip is `.rosz`, text starting with
/// `<` is `.ros`, with `{` New Recruit JSON; New Recruit's text exports by their header or
/// their `10x Name (65 pts)` unit lines ([`newrecruit::recognise`]); anything else the app's
/// text (the 11th-edition layout told by its "Detachment Points" or an app version 2).
///
/// # Errors
/// The file is damaged or not a roster; the message names the format tried and what is wrong
/// (a truncated XML file's line and column, a zip with two entries).
pub fn read(name: &str, bytes: &[u8]) -> Result<(Roster, RosterFormat), RosterError> {
    let label = |e: RosterError, f: RosterFormat| match e {
        RosterError::Format(m) => RosterError::Format(format!("{name}: {f}: {m}")),
        other => other,
    };
    if bytes.len() as u64 > MAX_ROSTER_BYTES {
        return Err(RosterError::Format(format!(
            "{name}: {} bytes; a roster is at most {MAX_ROSTER_BYTES} bytes",
            bytes.len()
        )));
    }
    if bytes.starts_with(b"PK") || name.to_ascii_lowercase().ends_with(".rosz") {
        let f = RosterFormat::Rosz;
        return tree::read_rosz(bytes)
            .map(|r| (r, f))
            .map_err(|e| label(e, f));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        RosterError::Format(format!(
            "{name}: not a zip and not UTF-8 text (byte {}): not a roster",
            e.valid_up_to()
        ))
    })?;
    let text = text.trim_start_matches('\u{feff}');
    let start = text.trim_start();
    let (result, f) = if start.starts_with('<') {
        (tree::read_ros(text), RosterFormat::Ros)
    } else if start.starts_with('{') {
        (tree::read_json(text), RosterFormat::NewRecruitJson)
    } else if let Some(style) = newrecruit::recognise(text) {
        let f = match style {
            newrecruit::Style::Wtc => RosterFormat::NewRecruitWtc,
            newrecruit::Style::Gw => RosterFormat::NewRecruitGw,
            newrecruit::Style::Text => RosterFormat::NewRecruitText,
        };
        (newrecruit::parse(text, style), f)
    } else {
        let eleventh = text.contains("Detachment Points)")
            || text.contains("App Version: v2.")
            || text.contains("App Version: v3.");
        (
            text::parse(text),
            if eleventh {
                RosterFormat::AppText11
            } else {
                RosterFormat::AppText
            },
        )
    };
    result.map(|r| (r, f)).map_err(|e| label(e, f))
}

/// Reads the roster file `file` (see [`read`]).
///
/// # Errors
/// The file cannot be read, or [`read`]'s errors.
pub fn read_file(file: &Path) -> Result<(Roster, RosterFormat), RosterError> {
    let bytes = crate::data::source::read_bytes(file, MAX_ROSTER_BYTES)
        .map_err(|e| RosterError::Format(e.to_string()))?;
    read(&file.display().to_string(), &bytes)
}

/// The army file name (without `.ron`) for a roster called `name`: lower case, words joined by '-'.
pub fn file_stem(name: &str) -> String {
    crate::data::source::slug(name, "imported")
}

/// A roster imported and written.
#[derive(Debug, Clone)]
pub struct ImportDone {
    /// What was resolved (and what was not, with `allow_partial`).
    pub imported: Imported,
    /// The army file written.
    pub file: PathBuf,
    /// The roster's format.
    pub format: RosterFormat,
}

/// What an import is asked to do besides reading and resolving.
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// Write the army even when some datasheets do not exist (their units are left out).
    pub allow_partial: bool,
    /// Leaders to attach: (Leader, Bodyguard), each a unit id or a datasheet name with an
    /// optional `[N]` ([`attach_leader`]).
    pub attach: Vec<(String, String)>,
}

/// Imports the roster in `bytes` (from a file or a paste called `name`): read, resolved
/// against the datasheet files under `datasheets` (a folder, or [`BUILTIN_DATASHEETS`]), the
/// Leaders of `options.attach` attached, and written as an army file at `out` (default
/// `scenes/armies/NAME.ron`, NAME from the roster's name), whole or not at all; the file
/// written is loaded back as an army to make sure it plays.
///
/// # Errors
/// The roster cannot be read; datasheets that do not exist at all (unless
/// `options.allow_partial`): the message lists each with the closest names; no unit resolved;
/// a Leader that cannot be attached; the file cannot be written or does not load.
pub fn import(
    name: &str,
    bytes: &[u8],
    datasheets: &Path,
    out: Option<&Path>,
    options: &ImportOptions,
    overwrite: Overwrite,
) -> Result<ImportDone, String> {
    let allow_partial = options.allow_partial;
    let (mut roster, format) = read(name, bytes).map_err(|e| e.to_string())?;
    if roster.name.trim().is_empty() {
        // An export without a list name (New Recruit's WTC and GW styles): the file's name.
        let stem = Path::new(name)
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        roster.name = if stem.is_empty() {
            "Imported army".into()
        } else {
            stem
        };
    }
    let catalog = Catalog::load(datasheets)?;
    let out = match out {
        Some(o) => o.to_path_buf(),
        None => write::file_in(
            Path::new("scenes/armies"),
            &format!("{}.ron", file_stem(&roster.name)),
        )?,
    };
    // Refused now, before any work, when the file is there and may not be replaced.
    write::check_target(&out, overwrite)?;
    // The army's folder must exist for its datasheet paths to be written relative to it.
    if let Some(d) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let mut imported = resolve(&roster, &catalog, &out);
    imported.army.source = Some(format!("{name} ({format})"));
    if !imported.unresolved.is_empty() && !allow_partial {
        let mut lines = vec![format!(
            "{name}: {} datasheet(s) do not exist in {}; nothing written (allow partial imports to write the rest):",
            imported.unresolved.len(),
            datasheets.display()
        )];
        lines.extend(imported.unresolved.iter().map(|u| format!("  {u}")));
        if !imported.warnings.is_empty() {
            lines.push(format!("and {} warning(s):", imported.warnings.len()));
            lines.extend(imported.warnings.iter().map(|u| format!("  {u}")));
        }
        return Err(lines.join("\n"));
    }
    if imported.army.units.is_empty() {
        let mut lines = vec![format!(
            "{name}: no unit could be resolved; nothing written"
        )];
        lines.extend(imported.warnings.iter().map(|u| format!("  {u}")));
        return Err(lines.join("\n"));
    }
    if !options.attach.is_empty() {
        let sheets: Vec<&crate::rules::Datasheet> = catalog
            .files
            .iter()
            .flat_map(|(_, f)| f.datasheets.iter())
            .collect();
        for (leader, body) in &options.attach {
            attach_leader(&mut imported.army, &sheets, leader, body)
                .map_err(|e| format!("{name}: {e}; nothing written"))?;
        }
        for u in &mut imported.units {
            u.attached_to = imported
                .army
                .units
                .iter()
                .find(|a| a.id == u.id)
                .and_then(|a| a.attached_to.clone());
        }
    }
    let text = army_text(&imported, &out)?;
    // What is written must load as an army: checked on the temporary file before it
    // replaces anything, so a bad import never leaves a broken file.
    write::write_file_checked(&out, &text, overwrite, |tmp| {
        crate::data::load_army(tmp, 1)
            .map(drop)
            .map_err(|e| e.to_string())
    })
    .map_err(|e| format!("{name}: {e}"))?;
    Ok(ImportDone {
        imported,
        file: out,
        format,
    })
}

/// The army file's text: a comment naming where it came from, then the RON.
fn army_text(imported: &Imported, out: &Path) -> Result<String, String> {
    let config = ron::ser::PrettyConfig::new()
        .depth_limit(4)
        .struct_names(true)
        .separate_tuple_members(false);
    let body = ron::ser::to_string_pretty(&imported.army, config)
        .map_err(|e| format!("{}: cannot be written: {e}", out.display()))?;
    Ok(format!(
        "// Imported by `wartable import` from {}.\n// {} units, {} models; roster total {} points.\n{body}\n",
        imported.army.source.as_deref().unwrap_or("a roster"),
        imported.army.units.len(),
        imported.models,
        imported
            .roster_points
            .map_or_else(|| "unknown".to_string(), |p| p.to_string())
    ))
}
