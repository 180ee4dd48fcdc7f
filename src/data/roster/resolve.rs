//! A [`Roster`] resolved against datasheets into the project's army format: each unit to a
//! datasheet, each model to a model profile, each weapon to a datasheet weapon, and each
//! model's wargear worked out from the roster's counts ([`loadouts`]).

use std::path::{Path, PathBuf};

use super::{Item, Roster};
use crate::data::army::{ArmyFile, DatasheetsFile, Loadout, UnitEntry};
use crate::rules::Datasheet;

/// Every datasheet file of a folder, loaded: what rosters are resolved against.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    /// Each file with its datasheets.
    pub files: Vec<(PathBuf, DatasheetsFile)>,
}

impl Catalog {
    /// Loads every `*.ron` datasheets file in `dir` (and its subfolders), in name order; for
    /// a `builtin:` folder ([`BUILTIN_DATASHEETS`]), the datasheet files built into the
    /// binary under it.
    ///
    /// # Errors
    /// The folder cannot be read, or a file in it does not load (its errors, with the file).
    pub fn load(dir: &Path) -> Result<Self, String> {
        let mut paths = Vec::new();
        if let Some(key) = crate::data::source::builtin_key(dir) {
            let prefix = format!("{}/", key.trim_end_matches('/'));
            for (f, text) in crate::data::source::embedded_files() {
                let p = crate::data::source::builtin_path(f);
                if f.starts_with(&prefix)
                    && f.ends_with(".ron")
                    && crate::data::FileKind::sniff(&p, text).ok()
                        == Some(crate::data::FileKind::Datasheets)
                {
                    paths.push(p);
                }
            }
        } else {
            collect_ron(dir, &mut paths)
                .map_err(|e| format!("{}: cannot be read: {e}", dir.display()))?;
        }
        paths.sort();
        let mut files = Vec::new();
        for p in paths {
            let d = crate::data::resolve::load_datasheets(&p).map_err(|e| e.to_string())?;
            files.push((p, d));
        }
        if files.is_empty() {
            return Err(format!("{}: holds no datasheet files", dir.display()));
        }
        Ok(Self { files })
    }

    /// The factions of the files, in file order.
    pub fn factions(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for (_, f) in &self.files {
            if !out.contains(&f.faction.as_str()) {
                out.push(&f.faction);
            }
        }
        out
    }

    /// The files whose faction matches the roster's `faction` ("Xenos - Orks", "Orks",
    /// "Space Marines"): names compared without the catalogue's "Imperium - " style prefix,
    /// and the app's army names read as the faction keywords they stand for
    /// ([`FACTION_ALIASES`]).
    fn matching(&self, faction: &str) -> Vec<usize> {
        let key = faction_key(faction);
        let want = FACTION_ALIASES
            .iter()
            .find(|(a, _)| faction_key(a) == key)
            .map_or(key, |(_, k)| faction_key(k));
        self.files
            .iter()
            .enumerate()
            .filter(|(_, (_, f))| {
                let have = faction_key(&f.faction);
                !want.is_empty() && (have == want || have.contains(&want) || want.contains(&have))
            })
            .map(|(i, _)| i)
            .collect()
    }
}

/// The datasheets built into the binary (the copy of `scenes/datasheets/`), for imports run
/// where no datasheets folder is at hand.
pub const BUILTIN_DATASHEETS: &str = "builtin:scenes/datasheets";

/// The datasheets an import resolves against when none are named: `scenes/datasheets` under
/// `root` when it is a folder there, else the copy built into the binary.
pub fn default_datasheets(root: &Path) -> PathBuf {
    let here = root.join("scenes/datasheets");
    if here.is_dir() {
        here
    } else {
        PathBuf::from(BUILTIN_DATASHEETS)
    }
}

/// The names the app and roster tools give armies whose datasheets carry another faction
/// keyword: (army name, faction keyword).
pub const FACTION_ALIASES: [(&str, &str); 6] = [
    ("Space Marines", "Adeptus Astartes"),
    ("Chaos Space Marines", "Heretic Astartes"),
    ("Chaos Daemons", "Legiones Daemonica"),
    ("Aeldari", "Asuryani"),
    ("Craftworlds", "Asuryani"),
    ("Imperial Agents", "Agents of the Imperium"),
];

/// The most files and folders a datasheets folder is searched through: 10,000.
pub const MAX_CATALOG_ENTRIES: usize = 10_000;

/// The deepest subfolder of a datasheets folder searched: 8 levels.
pub const MAX_CATALOG_DEPTH: usize = 8;

/// The datasheet files under `dir`, searched without following symbolic links to folders (a
/// link loop is never walked), at most [`MAX_CATALOG_DEPTH`] folders deep and through at most
/// [`MAX_CATALOG_ENTRIES`] entries; each `.ron` file read as [`crate::data::source::read`]
/// reads (regular files of bounded size only: a FIFO or `/dev/zero` is skipped unopened).
fn collect_ron(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut stack = vec![(dir.to_path_buf(), 0usize)];
    let mut seen = 0usize;
    while let Some((folder, depth)) = stack.pop() {
        for e in std::fs::read_dir(&folder)? {
            let e = e?;
            seen += 1;
            if seen > MAX_CATALOG_ENTRIES {
                return Err(std::io::Error::other(format!(
                    "more than {MAX_CATALOG_ENTRIES} files and folders; the limit is \
                     {MAX_CATALOG_ENTRIES}"
                )));
            }
            let p = e.path();
            // The entry's own type: a symbolic link is not followed into a folder.
            let t = e.file_type()?;
            if t.is_dir() {
                if depth < MAX_CATALOG_DEPTH {
                    stack.push((p, depth + 1));
                }
            } else if p.extension().is_some_and(|x| x == "ron") {
                // Only datasheet files: the base-size table and others beside them are skipped.
                let kind = crate::data::source::read(&p)
                    .ok()
                    .and_then(|t| crate::data::FileKind::sniff(&p, &t).ok());
                if kind == Some(crate::data::FileKind::Datasheets) {
                    out.push(p);
                }
            }
        }
    }
    Ok(())
}

/// A faction name for comparing: lower case, without a "Xenos - " / "Imperium - " prefix,
/// " Library" or a trailing "s".
fn faction_key(faction: &str) -> String {
    let f = faction.trim().to_ascii_lowercase();
    let f = f.rsplit(" - ").next().unwrap_or(&f).trim().to_string();
    let f = f.trim_end_matches(" library").to_string();
    normalise(&f)
}

/// A name for comparing: lower case, apostrophes dropped, dashes as spaces, single spaces
/// (the converter's [`normalise_name`](crate::data::bsdata::normalise_name)).
pub use crate::data::bsdata::normalise_name as normalise;

/// One name a roster gives that the datasheets do not have, or a choice the importer made in
/// its place (a size kept as exported, a Leader left unattached).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unresolved {
    /// The unit it is in (its roster name), or empty for the roster itself.
    pub unit: String,
    /// What kind of thing: "faction", "datasheet", "model or weapon", "models".
    pub what: String,
    /// The name as the roster gives it.
    pub name: String,
    /// Its line in the file, when known.
    pub line: usize,
    /// The closest names the datasheets have, best first.
    pub suggestions: Vec<String>,
}

impl Unresolved {
    /// True when the unit it is in cannot be imported without it: only an unknown datasheet
    /// (every other name the datasheets lack becomes a warning and the unit is kept).
    pub fn leaves_unit_out(&self) -> bool {
        !self.unit.is_empty() && self.what == "datasheet"
    }
}

impl std::fmt::Display for Unresolved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: ", self.line)?;
        }
        if !self.unit.is_empty() {
            write!(f, "{}: ", self.unit)?;
        }
        if self.what.starts_with('!') {
            // A choice the importer made, said in full.
            write!(f, "{}", &self.what[1..])?;
        } else {
            write!(f, "unknown {} '{}'", self.what, self.name)?;
        }
        if !self.suggestions.is_empty() {
            write!(f, " (closest: {})", self.suggestions.join(", "))?;
        }
        Ok(())
    }
}

/// One unit of an import, for the summary table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedUnit {
    /// Its id in the army file.
    pub id: String,
    /// Its datasheet.
    pub datasheet: String,
    /// Its models.
    pub models: u32,
    /// Weapons its models carry, copies counted.
    pub weapons: u32,
    /// Its points as the roster gives them.
    pub roster_points: Option<u32>,
    /// Its points by the datasheet's points for its size (none for a size the datasheet
    /// does not price).
    pub datasheet_points: Option<u32>,
    /// Its enhancements.
    pub enhancements: Vec<String>,
    /// The unit it leads, for an attached Leader.
    pub attached_to: Option<String>,
}

/// A roster resolved: the army file to write and what could not be resolved.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The army (datasheet paths relative to the folder of the file it will be written to).
    pub army: ArmyFile,
    /// Datasheets that do not exist at all (their units are left out of `army`, and the
    /// import is refused unless partial imports are allowed).
    pub unresolved: Vec<Unresolved>,
    /// Names and sizes the datasheets do not have that were imported anyway (an unknown
    /// weapon left out, a size kept as exported, a Leader left unattached): said, never
    /// refused.
    pub warnings: Vec<Unresolved>,
    /// Models counted in the army.
    pub models: u32,
    /// Weapons carried, counted per model (two of a weapon count twice).
    pub weapons: u32,
    /// The roster's own points total, if it gives one.
    pub roster_points: Option<u32>,
    /// Each unit imported, in army order.
    pub units: Vec<ImportedUnit>,
}

impl Imported {
    /// The army's points by the datasheets (units of a size the datasheet does not price
    /// count their roster points).
    pub fn datasheet_points(&self) -> u32 {
        self.units
            .iter()
            .map(|u| u.datasheet_points.or(u.roster_points).unwrap_or(0))
            .sum()
    }
}

/// The most characters of a name compared by [`closest`]: 120 (the longest datasheet or
/// weapon name is under 60); a longer name from a file is compared by its start, so the
/// search stays linear in the number of names.
pub const MAX_COMPARED_CHARS: usize = 120;

/// The closest of `names` to `name`, best first (at most three, and only fairly close ones).
pub fn closest<'a>(name: &str, names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let short: String = name.chars().take(MAX_COMPARED_CHARS).collect();
    let n = normalise(&short);
    let mut scored: Vec<(f64, &str)> = names
        .into_iter()
        .map(|c| (strsim::jaro_winkler(&n, &normalise(c)), c))
        .filter(|(s, _)| *s > 0.75)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut out: Vec<String> = Vec::new();
    for (_, c) in scored {
        if !out.iter().any(|o| o == c) {
            out.push(c.to_string());
        }
        if out.len() == 3 {
            break;
        }
    }
    out
}

/// A name compared forgivingly: [`normalise`]d, each word of more than three letters
/// without a final "s" (plural and singular alike), and the words run together (so
/// "Relic greataxe" is "Relic Great Axe" and "Kroot Carnivores" is "Kroot Carnivore").
pub fn loose(name: &str) -> String {
    normalise(name)
        .split(' ')
        .map(|w| {
            if w.chars().count() > 3 {
                w.strip_suffix('s').unwrap_or(w)
            } else {
                w
            }
        })
        .collect()
}

/// The forms of a roster's name tried in turn when it does not match as written: without a
/// `[2]` index, without a parenthesised part ("Custodian Warden (Guardian Spear)"), and
/// before " w/ " ("Kroot Carnivore w/ tanglebomb launcher").
fn forms(name: &str) -> Vec<String> {
    let mut out = vec![name.trim().to_string()];
    let mut push = |s: &str| {
        let s = s.trim().to_string();
        if !s.is_empty() && !out.contains(&s) {
            out.push(s);
        }
    };
    let base = name.split('[').next().unwrap_or(name);
    push(base);
    if let Some(open) = base.find(" (") {
        push(&base[..open]);
    }
    if let Some((head, _)) = base.split_once(" w/ ") {
        push(head);
    }
    out
}

/// The first of `candidates` whose name (by `name_of`) matches `name`: as written, then
/// [`loose`]ly, then each of its other [`forms`] the same two ways.
pub fn find_named<'a, T>(
    name: &str,
    candidates: impl Iterator<Item = &'a T> + Clone,
    name_of: impl Fn(&T) -> &str,
) -> Option<&'a T>
where
    T: 'a,
{
    for form in forms(name) {
        let n = normalise(&form);
        if let Some(c) = candidates.clone().find(|c| normalise(name_of(c)) == n) {
            return Some(c);
        }
        let l = loose(&form);
        if let Some(c) = candidates.clone().find(|c| loose(name_of(c)) == l) {
            return Some(c);
        }
    }
    // The candidates' own shorter forms: "Dishonoured" is "Dishonoured w/ skullsmasher and
    // mangler", "Assault Terminator" the first "Assault Terminator w/ ...".
    let l = loose(name);
    if let Some(c) = candidates
        .clone()
        .find(|c| forms(name_of(c)).iter().any(|f| loose(f) == l))
    {
        return Some(c);
    }
    // The last words of exactly one candidate ("Nob" for "Boss Nob"; never the wargear part
    // of a "Model w/ wargear" name: "Storm Shield" is no "Terminator w/ storm shield").
    let words: Vec<String> = normalise(name).split(' ').map(str::to_string).collect();
    if words.iter().map(String::len).sum::<usize>() >= 3 {
        let ends = |c: &T| {
            let cw: Vec<String> = normalise(name_of(c))
                .split(' ')
                .map(str::to_string)
                .collect();
            !cw.iter().any(|w| w == "w/" || w == "with")
                && cw.len() > words.len()
                && cw[cw.len() - words.len()..] == words[..]
        };
        let mut found = candidates.clone().filter(|c| ends(c));
        if let (Some(c), None) = (found.next(), found.next()) {
            return Some(c);
        }
    }
    None
}

/// A group of the roster's models of one kind, with the wargear listed for them.
#[derive(Debug, Clone, Default)]
struct Group {
    profile: Option<String>,
    models: u32,
    weapons: Vec<(String, u32)>,
    melee: Vec<bool>,
    /// Made up for weapons listed before any model (not a model line of the roster).
    implicit: bool,
}

/// The header lines of an app export that are not the faction: Force Dispositions (11th
/// edition) are kept as notes, the rest read as detachments.
const FORCE_DISPOSITIONS: [&str; 5] = [
    "Take and Hold",
    "Purge the Foe",
    "Reconnaissance",
    "Priority Assets",
    "Disruption",
];

/// Resolves `roster` against `catalog` into an army whose file will be written at `out`.
///
/// A unit's datasheet is looked for first among the files of the roster's faction, then in
/// every file. Items the file does not type (the app's text, New Recruit's text) are models
/// when they name one of the datasheet's model profiles and weapons when they name a
/// weapon. Names match forgivingly ([`find_named`]). A unit of a size the datasheet does not
/// allow keeps the roster's size ([`UnitEntry::roster_size`]) with a warning; an unknown
/// model keeps the datasheet's own line, an unknown weapon is left out, each with a
/// warning. Leaders join their Bodyguard where the roster says so ("Attached unit N",
/// "Leading X", "Attached to X") and the datasheets allow it.
pub fn resolve(roster: &Roster, catalog: &Catalog, out: &Path) -> Imported {
    let mut unresolved = Vec::new();
    let mut warnings = Vec::new();
    let mut used_files: Vec<usize> = Vec::new();
    // The roster's faction's files, then those of its sub-faction (the app's line after the
    // faction: "Space Wolves" under "Space Marines").
    let mut preferred = catalog.matching(&roster.faction);
    let mut detachments: Vec<String> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    for n in &roster.notes {
        if let Some(d) = n.strip_prefix("Detachment: ") {
            detachments.push(d.trim().to_string());
            continue;
        }
        let Some(sub) = n.strip_prefix("Army: ") else {
            notes.push(n.clone());
            continue;
        };
        let found = catalog.matching(sub);
        if !found.is_empty() {
            for i in found {
                if !preferred.contains(&i) {
                    preferred.insert(0, i);
                }
            }
            notes.push(n.clone());
        } else if FORCE_DISPOSITIONS
            .iter()
            .any(|f| f.eq_ignore_ascii_case(sub.trim()))
        {
            notes.push(format!("Force Disposition: {}", sub.trim()));
        } else {
            detachments.push(sub.trim().to_string());
        }
    }
    if preferred.is_empty() && !roster.faction.trim().is_empty() {
        warnings.push(Unresolved {
            unit: String::new(),
            what: "faction".into(),
            name: roster.faction.clone(),
            line: 0,
            suggestions: closest(&roster.faction, catalog.factions()),
        });
    }
    let find = |name: &str| -> Option<(usize, &Datasheet)> {
        let search = |files: &[usize]| {
            let all = files
                .iter()
                .flat_map(|&i| catalog.files[i].1.datasheets.iter().map(move |d| (i, d)));
            find_named(name, all.collect::<Vec<_>>().iter(), |(_, d)| {
                d.name.as_str()
            })
            .map(|&(i, d)| (i, d))
        };
        search(&preferred).or_else(|| search(&(0..catalog.files.len()).collect::<Vec<_>>()))
    };
    let mut placed: Vec<Placed> = Vec::new();
    let mut ids = crate::data::source::IdMaker::default();
    let (mut models_total, mut weapons_total) = (0u32, 0u32);
    for (index, ru) in roster.units.iter().enumerate() {
        let Some((file, sheet)) = find(&ru.datasheet) else {
            let everywhere: Vec<usize> = (0..catalog.files.len()).collect();
            let names = preferred.iter().chain(&everywhere).flat_map(|&i| {
                catalog.files[i]
                    .1
                    .datasheets
                    .iter()
                    .map(|d| d.name.as_str())
            });
            unresolved.push(Unresolved {
                unit: ru.datasheet.clone(),
                what: "datasheet".into(),
                name: ru.datasheet.clone(),
                line: ru.line,
                suggestions: closest(&ru.datasheet, names),
            });
            continue;
        };
        let size_hint = ru.items.iter().find_map(|i| match i {
            Item::UnitSize(n) => Some(*n),
            _ => None,
        });
        let (groups, mut notes) = groups_of(ru, sheet, size_hint, &mut warnings);
        if let Some(from @ crate::data::hulls::BaseSource::Assumed(_)) = &sheet.base_source {
            warnings.push(Unresolved {
                unit: ru.datasheet.clone(),
                what: format!(
                    "!{} has no base size or measured hull: it is given {from} ({})",
                    sheet.name,
                    sheet.base.map(|b| b.describe()).unwrap_or_default()
                ),
                name: sheet.name.clone(),
                line: ru.line,
                suggestions: Vec::new(),
            });
        }
        // Summed in 64 bits: counts come from the file and may be anything up to u32::MAX.
        let models: u64 = groups.iter().map(|g| u64::from(g.models)).sum();
        let (lo, hi) = sheet.unit_size;
        let max = u64::from(crate::rules::constants::MAX_MODELS_PER_UNIT);
        if models == 0 || models > max {
            warnings.push(Unresolved {
                unit: ru.datasheet.clone(),
                what: format!(
                    "!{models} models is no unit size wartable can field (1 to {max}); the unit is left out"
                ),
                name: format!("{models} models"),
                line: ru.line,
                suggestions: Vec::new(),
            });
            continue;
        }
        let roster_size = !(u64::from(lo)..=u64::from(hi)).contains(&models);
        if roster_size {
            warnings.push(Unresolved {
                unit: ru.datasheet.clone(),
                what: format!(
                    "!{models} models as exported, kept; the datasheet {} takes {lo} to {hi} (the roster's data is newer)",
                    sheet.name
                ),
                name: format!("{models} models"),
                line: ru.line,
                suggestions: Vec::new(),
            });
        }
        if !used_files.contains(&file) {
            used_files.push(file);
        }
        let mut outs = Vec::new();
        for g in &groups {
            outs.extend(loadouts(
                g.profile.as_deref(),
                g.models,
                &g.weapons,
                &g.melee,
            ));
        }
        // Nothing the roster named resolved to a weapon: the datasheet's own wargear.
        let armed = outs.iter().any(|l| !l.wargear.is_empty());
        let listed_weapons = groups.iter().any(|g| !g.weapons.is_empty());
        if !armed && !listed_weapons && groups.len() == 1 && groups[0].profile.is_none() {
            outs.clear();
        }
        let models = models as u32; // at most MAX_MODELS_PER_UNIT
        models_total = models_total.saturating_add(models);
        let weapons: u32 = if outs.is_empty() {
            0
        } else {
            outs.iter().fold(0u32, |sum, l| {
                let carried = u32::try_from(l.wargear.len()).unwrap_or(u32::MAX);
                sum.saturating_add(l.models.saturating_mul(carried))
            })
        };
        weapons_total = weapons_total.saturating_add(weapons);
        let mut enhancements = Vec::new();
        notes.retain(|n| match n.strip_prefix("Enhancement: ") {
            Some(e) => {
                if !enhancements.contains(&e.to_string()) {
                    enhancements.push(e.to_string());
                }
                false
            }
            None => true,
        });
        let id = ids.make(&crate::data::source::slug(&ru.datasheet, "unit"));
        placed.push(Placed {
            index,
            roster_name: ru.datasheet.clone(),
            group: ru.group,
            role: ru.items.iter().find_map(|i| match i {
                Item::Attached(a) => Some(a.to_ascii_lowercase()),
                _ => None,
            }),
            leads: ru.items.iter().find_map(|i| match i {
                Item::Leads(a) => Some(a.clone()),
                _ => None,
            }),
            led_by: ru.items.iter().find_map(|i| match i {
                Item::LedBy(a) => Some(a.clone()),
                _ => None,
            }),
            line: ru.line,
            weapons,
            entry: UnitEntry {
                id,
                name: ru.custom_name.clone(),
                datasheet: sheet.name.clone(),
                models,
                wargear: Vec::new(),
                loadouts: merge(outs),
                attached_to: None,
                enhancements,
                roster_size,
                notes,
            },
            sheet: sheet.clone(),
        });
    }
    attach(&mut placed, &mut warnings);
    let dir = out.parent().unwrap_or(Path::new("."));
    let mut faction = roster.faction.clone();
    if let Some(&i) = preferred.first() {
        faction = catalog.files[i].1.faction.clone();
    }
    let units: Vec<ImportedUnit> = placed
        .iter()
        .map(|p| ImportedUnit {
            id: p.entry.id.clone(),
            datasheet: p.entry.datasheet.clone(),
            models: p.entry.models,
            weapons: p.weapons,
            roster_points: roster.units[p.index].points,
            datasheet_points: p.sheet.points_for(p.entry.models),
            enhancements: p.entry.enhancements.clone(),
            attached_to: p.entry.attached_to.clone(),
        })
        .collect();
    Imported {
        army: ArmyFile {
            name: if roster.name.trim().is_empty() {
                "Imported army".into()
            } else {
                roster.name.trim().to_string()
            },
            faction,
            datasheets: used_files
                .iter()
                .map(|&i| crate::data::source::relative_path(&catalog.files[i].0, dir))
                .collect(),
            units: placed.into_iter().map(|p| p.entry).collect(),
            source: None,
            detachments,
            rules: None,
            notes,
        },
        unresolved,
        warnings,
        models: models_total,
        weapons: weapons_total,
        roster_points: roster.points,
        units,
    }
}

/// A unit resolved, before the Leaders are attached.
struct Placed {
    /// Its index in the roster.
    index: usize,
    /// Its name as the roster gives it.
    roster_name: String,
    /// The app's "Attached unit N".
    group: Option<usize>,
    /// The app's "Attached as: ..." (lower case).
    role: Option<String>,
    /// New Recruit's "Leading X".
    leads: Option<String>,
    /// New Recruit's "Attached to X".
    led_by: Option<String>,
    line: usize,
    weapons: u32,
    entry: UnitEntry,
    sheet: Datasheet,
}

/// `Name[N]` as ("Name", N); a name without an index is the first (N = 1).
fn indexed_name(name: &str) -> (&str, usize) {
    match name
        .trim()
        .strip_suffix(']')
        .and_then(|s| s.rsplit_once('['))
    {
        Some((b, n)) => (b.trim(), n.trim().parse::<usize>().unwrap_or(1).max(1)),
        None => (name.trim(), 1),
    }
}

/// The unit a roster names as `Name[N]` (the N-th unit of that name in list order; the
/// first without an index), by its roster or datasheet name.
fn named_unit(placed: &[Placed], name: &str) -> Option<usize> {
    let (base, nth) = indexed_name(name);
    let l = loose(base);
    let matching: Vec<usize> = (0..placed.len())
        .filter(|&i| {
            loose(&placed[i].roster_name) == l
                || loose(&placed[i].entry.datasheet) == l
                || placed[i].entry.id == base
        })
        .collect();
    matching.get(nth - 1).copied()
}

/// Why `leader` cannot lead `bodyguard` (Core Rules: Leader; the datasheet's list of units
/// it can lead), if it cannot.
pub fn cannot_lead(leader: &Datasheet, bodyguard: &Datasheet) -> Option<String> {
    if !leader.has_keyword("CHARACTER") {
        return Some(format!("{} is not a CHARACTER", leader.name));
    }
    if !leader.leader_of.is_empty()
        && !leader
            .leader_of
            .iter()
            .any(|l| loose(l) == loose(&bodyguard.name))
    {
        return Some(format!(
            "{} can lead only {}",
            leader.name,
            leader.leader_of.join(", ")
        ));
    }
    None
}

/// Attaches the Leaders the roster attaches, where the datasheets allow it (else a warning
/// and the Leader stays a unit of its own): the app's "Attached unit N" groups, New
/// Recruit's "Leading X" on a Leader and "Attached to X" on its Bodyguard.
fn attach(placed: &mut [Placed], warnings: &mut Vec<Unresolved>) {
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for g in placed.iter().filter_map(|p| p.group) {
        let Some(body) = placed.iter().position(|p| {
            p.group == Some(g)
                && p.role
                    .as_deref()
                    .is_some_and(|a| a.starts_with("bodyguard"))
        }) else {
            continue;
        };
        for (i, p) in placed.iter().enumerate() {
            if p.group == Some(g)
                && p.role
                    .as_deref()
                    .is_some_and(|a| a.starts_with("leader") || a.starts_with("support"))
                && !pairs.contains(&(i, body))
            {
                pairs.push((i, body));
            }
        }
    }
    for i in 0..placed.len() {
        if let Some(target) = placed[i].leads.clone() {
            match named_unit(placed, &target) {
                Some(b) if !pairs.iter().any(|&(l, _)| l == i) => pairs.push((i, b)),
                Some(_) => {}
                None => warnings.push(Unresolved {
                    unit: placed[i].roster_name.clone(),
                    what: format!("!leads '{target}', which is not in the list; left unattached"),
                    name: target,
                    line: placed[i].line,
                    suggestions: Vec::new(),
                }),
            }
        }
        if let Some(leader) = placed[i].led_by.clone()
            && let Some(l) = named_unit(placed, &leader)
            && !pairs.iter().any(|&(x, _)| x == l)
        {
            pairs.push((l, i));
        }
    }
    for (l, b) in pairs {
        if l == b {
            continue;
        }
        let why = cannot_lead(&placed[l].sheet, &placed[b].sheet)
            .or_else(|| {
                placed[b]
                    .entry
                    .attached_to
                    .is_some()
                    .then(|| format!("{} is itself attached", placed[b].entry.id))
            })
            .or_else(|| {
                let body = placed[b].entry.id.clone();
                let already = placed
                    .iter()
                    .filter(|p| p.entry.attached_to.as_deref() == Some(body.as_str()))
                    .count();
                (already >= crate::data::resolve::MAX_LEADERS_PER_BODYGUARD)
                    .then(|| format!("{body} already has {already} Leaders"))
            })
            .or_else(|| {
                // A second Leader only where one of the two has a rule for it.
                let body = placed[b].entry.id.as_str();
                placed
                    .iter()
                    .filter(|p| p.entry.attached_to.as_deref() == Some(body))
                    .find_map(|p| {
                        crate::data::resolve::second_leader_refused(&p.sheet, &placed[l].sheet)
                    })
                    .map(|why| format!("{body} already has a Leader: {why}"))
            });
        match why {
            None => placed[l].entry.attached_to = Some(placed[b].entry.id.clone()),
            Some(why) => warnings.push(Unresolved {
                unit: placed[l].roster_name.clone(),
                what: format!(
                    "!cannot lead {} ({why}); left unattached",
                    placed[b].entry.id
                ),
                name: placed[b].entry.id.clone(),
                line: placed[l].line,
                suggestions: Vec::new(),
            }),
        }
    }
}

/// Attaches the Leader `leader` to the unit `bodyguard` in `army` (each a unit id, or a
/// name with an optional `[N]`: the N-th unit of that datasheet), checked against
/// `datasheets` (Core Rules: Leader). For `wartable import --attach` and the menu.
///
/// # Errors
/// Either unit is not in the army, or the datasheets do not allow it.
pub fn attach_leader(
    army: &mut ArmyFile,
    datasheets: &[&Datasheet],
    leader: &str,
    bodyguard: &str,
) -> Result<(), String> {
    let sheet_of = |u: &UnitEntry| {
        datasheets
            .iter()
            .find(|d| d.name.eq_ignore_ascii_case(&u.datasheet))
            .copied()
    };
    let find = |name: &str| -> Option<usize> {
        if let Some(i) = army.units.iter().position(|u| u.id == name) {
            return Some(i);
        }
        let (base, nth) = indexed_name(name);
        let l = loose(base);
        army.units
            .iter()
            .enumerate()
            .filter(|(_, u)| {
                loose(&u.datasheet) == l || u.name.as_deref().is_some_and(|n| loose(n) == l)
            })
            .map(|(i, _)| i)
            .nth(nth - 1)
    };
    let ids: Vec<&str> = army.units.iter().map(|u| u.id.as_str()).collect();
    let l = find(leader).ok_or_else(|| {
        format!(
            "--attach: no unit '{leader}' in the army (units: {})",
            ids.join(", ")
        )
    })?;
    let b = find(bodyguard).ok_or_else(|| {
        format!(
            "--attach: no unit '{bodyguard}' in the army (units: {})",
            ids.join(", ")
        )
    })?;
    if l == b {
        return Err(format!("--attach: '{leader}' cannot lead itself"));
    }
    let (Some(ls), Some(bs)) = (sheet_of(&army.units[l]), sheet_of(&army.units[b])) else {
        return Err("--attach: a unit's datasheet is not loaded".into());
    };
    if let Some(why) = cannot_lead(ls, bs) {
        return Err(format!(
            "--attach: {} cannot lead {}: {why}",
            army.units[l].id, army.units[b].id
        ));
    }
    if army.units[b].attached_to.is_some() {
        return Err(format!(
            "--attach: {} is itself attached to another unit",
            army.units[b].id
        ));
    }
    let body = army.units[b].id.clone();
    let already = army
        .units
        .iter()
        .enumerate()
        .filter(|(i, u)| *i != l && u.attached_to.as_deref() == Some(body.as_str()))
        .count();
    if already >= crate::data::resolve::MAX_LEADERS_PER_BODYGUARD {
        return Err(format!("--attach: {body} already has {already} Leaders"));
    }
    // A second Leader only where one of the two has a rule for it.
    for (i, u) in army.units.iter().enumerate() {
        if i != l
            && u.attached_to.as_deref() == Some(body.as_str())
            && let Some(other) = sheet_of(u)
            && let Some(why) = crate::data::resolve::second_leader_refused(other, ls)
        {
            return Err(format!(
                "--attach: {body} already has a Leader ({}): {why}",
                u.id
            ));
        }
    }
    army.units[l].attached_to = Some(body);
    Ok(())
}

/// The unit's model groups and its notes, from its items. Names the datasheets lack go to
/// `warnings`. `size_hint`: the unit's size as the roster gives it beside its name.
fn groups_of(
    ru: &super::RosterUnit,
    sheet: &Datasheet,
    size_hint: Option<u32>,
    warnings: &mut Vec<Unresolved>,
) -> (Vec<Group>, Vec<String>) {
    let mut groups: Vec<Group> = Vec::new();
    let mut notes = Vec::new();
    let model_names: Vec<&str> = std::iter::once(sheet.name.as_str())
        .chain(sheet.model_profiles.iter().map(|m| m.name.as_str()))
        .collect();
    let profile_of = |name: &str| -> Option<Option<String>> {
        if let Some(m) = find_named(name, sheet.model_profiles.iter(), |m| m.name.as_str()) {
            return Some(Some(m.name.clone()));
        }
        find_named(name, std::iter::once(&sheet.name), String::as_str).map(|_| None)
    };
    let weapons: Vec<&crate::rules::WeaponProfile> = sheet.weapons().collect();
    let weapon_of = |name: &str| -> Option<(String, bool)> {
        find_named(name, weapons.iter(), |w| w.name.as_str())
            .copied()
            .or_else(|| {
                let full: Vec<(String, &crate::rules::WeaponProfile)> =
                    weapons.iter().map(|w| (w.full_name(), *w)).collect();
                find_named(name, full.iter(), |(f, _)| f.as_str()).map(|(_, w)| *w)
            })
            .map(|w| (w.name.clone(), w.range.is_none()))
    };
    // "L7 missile launcher and Sagitaur missile launcher": one choice of two weapons.
    let both_weapons = |name: &str| -> Option<Vec<(String, bool)>> {
        let parts: Vec<&str> = name.split(" and ").flat_map(|p| p.split(" & ")).collect();
        if parts.len() < 2 {
            return None;
        }
        parts.iter().map(|p| weapon_of(p.trim())).collect()
    };
    let other_of = |name: &str| -> Option<String> {
        find_named(name, sheet.other_wargear.iter(), String::as_str).cloned()
    };
    let default_size = size_hint.unwrap_or(sheet.unit_size.0).max(1);
    let add_weapon = |groups: &mut Vec<Group>, name: String, melee: bool, count: u32| {
        if groups.is_empty() {
            groups.push(Group {
                profile: None,
                models: default_size,
                implicit: true,
                ..Group::default()
            });
        }
        let g = groups.last_mut().expect("a group");
        if let Some(w) = g.weapons.iter_mut().find(|(w, _)| *w == name) {
            w.1 = w.1.saturating_add(count);
        } else {
            g.weapons.push((name, count));
            g.melee.push(melee);
        }
    };
    // A model line: a new group, or (the first model line of a unit whose weapons came
    // first) the group those weapons made up.
    let add_models = |groups: &mut Vec<Group>, profile: Option<String>, count: u32| {
        if let Some(g) = groups.last_mut().filter(|g| g.implicit) {
            g.implicit = false;
            g.profile = profile;
            g.models = count;
        } else {
            groups.push(Group {
                profile,
                models: count,
                ..Group::default()
            });
        }
    };
    let warn = |warnings: &mut Vec<Unresolved>, what: &str, name: &str, line: usize, sugg| {
        warnings.push(Unresolved {
            unit: ru.datasheet.clone(),
            what: what.to_string(),
            name: name.to_string(),
            line,
            suggestions: sugg,
        });
    };
    for item in &ru.items {
        match item {
            Item::Model { count, name } => match profile_of(name) {
                Some(profile) => add_models(&mut groups, profile, *count),
                // A single-model unit's model named as its datasheet in another spelling, or
                // a unit whose models the datasheets do not name: the datasheet's line.
                None if sheet.model_profiles.is_empty() => add_models(&mut groups, None, *count),
                // A model name the datasheets do not have (an older roster's): said, and its
                // models keep the datasheet's own line.
                None => {
                    warn(
                        warnings,
                        "model",
                        name,
                        ru.line,
                        closest(name, model_names.iter().copied()),
                    );
                    add_models(&mut groups, None, *count);
                }
            },
            Item::Weapon { count, name } => match weapon_of(name) {
                Some((w, melee)) => add_weapon(&mut groups, w, melee, *count),
                None if both_weapons(name).is_some() => {
                    for (w, melee) in both_weapons(name).expect("checked") {
                        add_weapon(&mut groups, w, melee, *count);
                    }
                }
                None => match other_of(name) {
                    Some(o) => notes.push(format!("Wargear: {o}")),
                    None => warn(
                        warnings,
                        "weapon",
                        name,
                        ru.line,
                        closest(name, sheet.weapons().map(|w| w.name.as_str())),
                    ),
                },
            },
            Item::Count {
                count, name, line, ..
            } => {
                let drone = name
                    .strip_suffix(')')
                    .and_then(|n| n.split_once(" ("))
                    .filter(|(outer, inner)| {
                        weapon_of(inner).is_some() && profile_of(outer).is_none()
                    });
                if let Some((w, melee)) = weapon_of(name) {
                    add_weapon(&mut groups, w, melee, *count);
                } else if let Some(both) = both_weapons(name) {
                    for (w, melee) in both {
                        add_weapon(&mut groups, w, melee, *count);
                    }
                } else if let Some((outer, inner)) = drone {
                    // "2x Missile Drone (Missile pod)": a drone carrying a weapon.
                    let (w, melee) = weapon_of(inner).expect("checked");
                    add_weapon(&mut groups, w, melee, *count);
                    notes.push(format!("Wargear: {count}x {}", outer.trim()));
                } else if let Some(profile) = profile_of(name) {
                    add_models(&mut groups, profile, *count);
                } else if let Some(o) = other_of(name) {
                    notes.push(format!("Wargear: {count}x {o}"));
                } else if normalise(&sheet.name).starts_with(&normalise(name))
                    || loose(&sheet.name).starts_with(&loose(name))
                {
                    // The app names a unit's models by the start of its name ("10x
                    // Pathfinder" in a Pathfinder Team): the datasheet's own line.
                    add_models(&mut groups, None, *count);
                } else if sheet.model_profiles.is_empty()
                    && groups.is_empty()
                    && sheet.unit_size.0 > 1
                {
                    // A unit whose datasheet names no models: its one model line.
                    add_models(&mut groups, None, *count);
                } else {
                    warn(
                        warnings,
                        "model or weapon",
                        name,
                        *line,
                        closest(
                            name,
                            model_names
                                .iter()
                                .copied()
                                .chain(sheet.weapons().map(|w| w.name.as_str()))
                                .chain(sheet.other_wargear.iter().map(String::as_str)),
                        ),
                    );
                }
            }
            Item::Upgrade(name) => notes.push(match other_of(name) {
                Some(o) => format!("Wargear: {o}"),
                None => format!("Upgrade: {name}"),
            }),
            Item::Note(n) => notes.push(n.clone()),
            Item::Attached(a) => notes.push(format!("Attached as: {a}")),
            Item::UnitSize(_) | Item::Leads(_) | Item::LedBy(_) => {}
        }
    }
    if groups.is_empty() {
        groups.push(Group {
            profile: None,
            models: default_size,
            ..Group::default()
        });
    }
    (groups, notes)
}

/// The loadouts of `models` models with the model profile `profile`, given the roster's
/// weapon counts for them (`weapons`: name, how many in all; `melee` says which are melee).
///
/// A weapon on every model goes to every model (a count that is a multiple of the models
/// gives each model that many copies). The others are alternatives: the weapons of
/// one kind (ranged, melee) that not every model carries go to different models, one after
/// the other (2 grenade launchers and 8 bolt rifles in 10 models: models 1-2 and 3-10), and
/// only wrap round to models that already have one when there are more of them than models.
/// A model that gets no weapon of a kind this way carries nothing of that kind. Groups of
/// models with the same weapons are merged, in order.
pub fn loadouts(
    profile: Option<&str>,
    models: u32,
    weapons: &[(String, u32)],
    melee: &[bool],
) -> Vec<Loadout> {
    let n = models as usize;
    let mut carried: Vec<Vec<String>> = vec![Vec::new(); n];
    if n == 0 {
        return Vec::new();
    }
    for kind in [false, true] {
        let of_kind = || {
            weapons
                .iter()
                .enumerate()
                .filter(move |(i, _)| melee.get(*i).copied().unwrap_or(false) == kind)
                .map(|(_, w)| w)
        };
        // On every model: `count / n` copies each (two fusion blasters on each of 2 models
        // from "4x Fusion blaster"), the rest one more each on the first models.
        for (w, count) in of_kind().filter(|(_, count)| *count as usize >= n) {
            let (each, rest) = (*count as usize / n, *count as usize % n);
            for (i, c) in carried.iter_mut().enumerate() {
                for _ in 0..each + usize::from(i < rest) {
                    c.push(w.clone());
                }
            }
        }
        let mut next = 0usize;
        for (w, count) in of_kind().filter(|(_, count)| (*count as usize) < n) {
            for _ in 0..*count {
                carried[next % n].push(w.clone());
                next += 1;
            }
        }
    }
    let mut out: Vec<Loadout> = Vec::new();
    for c in carried {
        match out.last_mut() {
            Some(l) if l.wargear == c => l.models += 1,
            _ => out.push(Loadout {
                models: 1,
                profile: profile.map(str::to_string),
                wargear: c,
            }),
        }
    }
    out
}

/// Adjacent loadouts with the same profile and wargear made one.
fn merge(loadouts: Vec<Loadout>) -> Vec<Loadout> {
    let mut out: Vec<Loadout> = Vec::new();
    for l in loadouts {
        match out.last_mut() {
            Some(o) if o.profile == l.profile && o.wargear == l.wargear => o.models += l.models,
            _ => out.push(l),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(l: &[Loadout]) -> Vec<(u32, Vec<&str>)> {
        l.iter()
            .map(|l| (l.models, l.wargear.iter().map(String::as_str).collect()))
            .collect()
    }

    #[test]
    fn partial_weapons_of_a_kind_go_to_different_models() {
        let w = vec![
            ("Big shoota".to_string(), 1),
            ("Shoota".to_string(), 8),
            ("Close combat weapon".to_string(), 9),
        ];
        let l = loadouts(None, 9, &w, &[false, false, true]);
        assert_eq!(
            names(&l),
            vec![
                (1, vec!["Big shoota", "Close combat weapon"]),
                (8, vec!["Shoota", "Close combat weapon"])
            ]
        );
    }

    #[test]
    fn weapons_on_every_model_stay_with_every_model() {
        let w = vec![
            ("Astartes grenade launcher".to_string(), 2),
            ("Bolt rifle".to_string(), 10),
            ("Bolt pistol".to_string(), 10),
        ];
        let l = loadouts(Some("Intercessor"), 10, &w, &[false, false, false]);
        assert_eq!(
            names(&l),
            vec![
                (
                    2,
                    vec!["Bolt rifle", "Bolt pistol", "Astartes grenade launcher"]
                ),
                (8, vec!["Bolt rifle", "Bolt pistol"])
            ]
        );
        assert!(
            l.iter()
                .all(|x| x.profile.as_deref() == Some("Intercessor"))
        );
    }

    #[test]
    fn names_compare_without_case_apostrophes_or_dashes() {
        assert_eq!(
            normalise("Runtherd’s  Toolz"),
            normalise("runtherd's toolz")
        );
        assert_eq!(normalise("Kill-Rig"), normalise("kill rig"));
        assert_eq!(faction_key("Xenos - Orks"), "orks");
        assert_eq!(faction_key("Imperium - Space Marines"), "space marines");
    }

    #[test]
    fn names_match_without_spaces_plurals_or_the_wargear_part() {
        assert_eq!(loose("Relic greataxe"), loose("Relic Great Axe"));
        assert_eq!(loose("Kroot Carnivores"), loose("Kroot Carnivore"));
        assert_ne!(loose("Hearthkin Warriors"), loose("Hearthkyn Warriors"));
        let profiles = ["Boss Nob", "Boy", "Dishonoured w/ skullsmasher and mangler"];
        let find = |n: &str| find_named(n, profiles.iter(), |p| p).copied();
        assert_eq!(find("Boyz"), None, "a different word is not a plural");
        assert_eq!(find("Boys"), Some("Boy"));
        assert_eq!(find("Nob"), Some("Boss Nob"));
        assert_eq!(
            find("Dishonoured"),
            Some("Dishonoured w/ skullsmasher and mangler")
        );
        assert_eq!(find("Boy (Slugga)"), Some("Boy"));
        // Only the last words of a name that is no "Model w/ wargear" one.
        let terminators = [
            "Wolf Guard Terminator",
            "Wolf Guard Terminator w/ storm shield",
        ];
        assert_eq!(find_named("Storm Shield", terminators.iter(), |p| p), None);
    }

    #[test]
    fn closest_names_are_offered() {
        let c = closest(
            "Intercesor Squad",
            ["Intercessor Squad", "Hellblaster Squad"],
        );
        assert_eq!(c.first().map(String::as_str), Some("Intercessor Squad"));
    }
}
