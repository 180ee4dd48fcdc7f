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
    /// Loads every `*.ron` datasheets file in `dir` (and its subfolders), in name order.
    ///
    /// # Errors
    /// The folder cannot be read, or a file in it does not load (its errors, with the file).
    pub fn load(dir: &Path) -> Result<Self, String> {
        let mut paths = Vec::new();
        collect_ron(dir, &mut paths)
            .map_err(|e| format!("{}: cannot be read: {e}", dir.display()))?;
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

/// One name a roster gives that the datasheets do not have.
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
    /// True when the unit it is in cannot be imported without it (an unknown faction does
    /// not count: its units are looked for in every file): an unknown datasheet, no base
    /// size, a unit size the datasheet does not allow. An unknown weapon or wargear name
    /// leaves out only itself; an unknown model keeps the datasheet's own line.
    pub fn leaves_unit_out(&self) -> bool {
        !self.unit.is_empty()
            && !matches!(self.what.as_str(), "weapon" | "model or weapon" | "model")
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
        write!(f, "unknown {} '{}'", self.what, self.name)?;
        if !self.suggestions.is_empty() {
            write!(f, " (closest: {})", self.suggestions.join(", "))?;
        }
        Ok(())
    }
}

/// A roster resolved: the army file to write and what could not be resolved.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The army (datasheet paths relative to the folder of the file it will be written to).
    pub army: ArmyFile,
    /// Names that did not resolve (their units are left out of `army`).
    pub unresolved: Vec<Unresolved>,
    /// Models counted in the army.
    pub models: u32,
    /// Weapons carried, counted per model.
    pub weapons: u32,
    /// The roster's own points total, if it gives one.
    pub roster_points: Option<u32>,
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

/// A group of the roster's models of one kind, with the wargear listed for them.
#[derive(Debug, Clone, Default)]
struct Group {
    profile: Option<String>,
    models: u32,
    weapons: Vec<(String, u32)>,
    melee: Vec<bool>,
}

/// Resolves `roster` against `catalog` into an army whose file will be written at `out`.
///
/// A unit's datasheet is looked for first among the files of the roster's faction, then in
/// every file. Items the file does not type (the app's text) are models when they name one
/// of the datasheet's model profiles and weapons when they name a weapon. Leaders join their
/// Bodyguard where the roster groups them ("Attached unit N").
pub fn resolve(roster: &Roster, catalog: &Catalog, out: &Path) -> Imported {
    let mut unresolved = Vec::new();
    let mut used_files: Vec<usize> = Vec::new();
    // The roster's faction's files, then those of its sub-faction (the app's line after the
    // faction: "Space Wolves" under "Space Marines").
    let mut preferred = catalog.matching(&roster.faction);
    for sub in roster.notes.iter().filter_map(|n| n.strip_prefix("Army: ")) {
        for i in catalog.matching(sub) {
            if !preferred.contains(&i) {
                preferred.insert(0, i);
            }
        }
    }
    if preferred.is_empty() && !roster.faction.trim().is_empty() {
        unresolved.push(Unresolved {
            unit: String::new(),
            what: "faction".into(),
            name: roster.faction.clone(),
            line: 0,
            suggestions: closest(&roster.faction, catalog.factions()),
        });
    }
    let find = |name: &str| -> Option<(usize, &Datasheet)> {
        let n = normalise(name);
        let search = |files: Vec<usize>| {
            files.into_iter().find_map(|i| {
                catalog.files[i]
                    .1
                    .datasheets
                    .iter()
                    .find(|d| normalise(&d.name) == n)
                    .map(|d| (i, d))
            })
        };
        search(preferred.clone()).or_else(|| search((0..catalog.files.len()).collect()))
    };
    let mut units = Vec::new();
    let mut ids = crate::data::source::IdMaker::default();
    let (mut models_total, mut weapons_total) = (0u32, 0u32);
    for ru in &roster.units {
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
        let before = unresolved.len();
        let (groups, notes) = groups_of(ru, sheet, &mut unresolved);
        // An unknown model leaves the unit out (its size is unknown); an unknown weapon or
        // piece of wargear only itself.
        if unresolved[before..].iter().any(Unresolved::leaves_unit_out) {
            continue;
        }
        if sheet.base.is_none() && sheet.model_profiles.iter().all(|m| m.base.is_none()) {
            unresolved.push(Unresolved {
                unit: ru.datasheet.clone(),
                what: "base size for datasheet".into(),
                name: sheet.name.clone(),
                line: ru.line,
                suggestions: Vec::new(),
            });
            continue;
        }
        // Summed in 64 bits: counts come from the file and may be anything up to u32::MAX.
        let models: u64 = groups.iter().map(|g| u64::from(g.models)).sum();
        let (lo, hi) = sheet.unit_size;
        if !(u64::from(lo)..=u64::from(hi)).contains(&models) {
            unresolved.push(Unresolved {
                unit: ru.datasheet.clone(),
                what: format!("unit size ({lo} to {hi} models) for"),
                name: format!("{models} models"),
                line: ru.line,
                suggestions: Vec::new(),
            });
            continue;
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
        let models = models as u32; // within the datasheet's unit size
        models_total = models_total.saturating_add(models);
        weapons_total = outs.iter().fold(weapons_total, |sum, l| {
            let carried = u32::try_from(l.wargear.len()).unwrap_or(u32::MAX);
            sum.saturating_add(l.models.saturating_mul(carried))
        });
        let id = ids.make(&crate::data::source::slug(&ru.datasheet, "unit"));
        units.push((
            ru.group,
            ru.items.iter().find_map(|i| match i {
                Item::Attached(a) => Some(a.to_ascii_lowercase()),
                _ => None,
            }),
            UnitEntry {
                id,
                name: ru.custom_name.clone(),
                datasheet: sheet.name.clone(),
                models,
                wargear: Vec::new(),
                loadouts: merge(outs),
                attached_to: None,
                notes,
            },
        ));
    }
    attach_groups(&mut units);
    let dir = out.parent().unwrap_or(Path::new("."));
    let mut faction = roster.faction.clone();
    if let Some(&i) = preferred.first() {
        faction = catalog.files[i].1.faction.clone();
    }
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
            units: units.into_iter().map(|(_, _, u)| u).collect(),
            source: None,
            notes: roster.notes.clone(),
        },
        unresolved,
        models: models_total,
        weapons: weapons_total,
        roster_points: roster.points,
    }
}

/// The unit's model groups and its notes, from its items. Unresolved names go to
/// `unresolved`.
fn groups_of(
    ru: &super::RosterUnit,
    sheet: &Datasheet,
    unresolved: &mut Vec<Unresolved>,
) -> (Vec<Group>, Vec<String>) {
    let mut groups: Vec<Group> = Vec::new();
    let mut notes = Vec::new();
    let model_names: Vec<&str> = std::iter::once(sheet.name.as_str())
        .chain(sheet.model_profiles.iter().map(|m| m.name.as_str()))
        .collect();
    let profile_of = |name: &str| -> Option<Option<String>> {
        let n = normalise(name);
        if let Some(m) = sheet
            .model_profiles
            .iter()
            .find(|m| normalise(&m.name) == n)
        {
            return Some(Some(m.name.clone()));
        }
        (normalise(&sheet.name) == n).then_some(None)
    };
    let weapon_of = |name: &str| -> Option<(String, bool)> {
        let n = normalise(name);
        sheet
            .weapons()
            .find(|w| normalise(&w.full_name()) == n || normalise(&w.name) == n)
            .map(|w| (w.name.clone(), w.range.is_none()))
    };
    let other_of = |name: &str| -> Option<String> {
        let n = normalise(name);
        sheet
            .other_wargear
            .iter()
            .find(|o| normalise(o) == n)
            .cloned()
    };
    let add_weapon = |groups: &mut Vec<Group>, name: String, melee: bool, count: u32| {
        if groups.is_empty() {
            groups.push(Group {
                profile: None,
                models: sheet.unit_size.0.max(1),
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
    for item in &ru.items {
        match item {
            Item::Model { count, name } => match profile_of(name) {
                Some(profile) => groups.push(Group {
                    profile,
                    models: *count,
                    ..Group::default()
                }),
                // A single-model unit's model named as its datasheet in another spelling, or
                // a unit whose models the datasheets do not name: the datasheet's line.
                None if sheet.model_profiles.is_empty() => groups.push(Group {
                    profile: None,
                    models: *count,
                    ..Group::default()
                }),
                // A model name the datasheets do not have (an older roster's): listed, and
                // its models keep the datasheet's own line.
                None => {
                    unresolved.push(Unresolved {
                        unit: ru.datasheet.clone(),
                        what: "model".into(),
                        name: name.clone(),
                        line: ru.line,
                        suggestions: closest(name, model_names.iter().copied()),
                    });
                    groups.push(Group {
                        profile: None,
                        models: *count,
                        ..Group::default()
                    });
                }
            },
            Item::Weapon { count, name } => match weapon_of(name) {
                Some((w, melee)) => add_weapon(&mut groups, w, melee, *count),
                None => match other_of(name) {
                    Some(o) => notes.push(format!("Wargear: {o}")),
                    None => unresolved.push(Unresolved {
                        unit: ru.datasheet.clone(),
                        what: "weapon".into(),
                        name: name.clone(),
                        line: ru.line,
                        suggestions: closest(name, sheet.weapons().map(|w| w.name.as_str())),
                    }),
                },
            },
            Item::Count {
                count, name, line, ..
            } => {
                if let Some((w, melee)) = weapon_of(name) {
                    add_weapon(&mut groups, w, melee, *count);
                } else if let Some(profile) = profile_of(name) {
                    groups.push(Group {
                        profile,
                        models: *count,
                        ..Group::default()
                    });
                } else if let Some(o) = other_of(name) {
                    notes.push(format!("Wargear: {count}x {o}"));
                } else if normalise(&sheet.name).starts_with(&normalise(name)) {
                    // The app names a unit's models by the start of its name ("10x
                    // Pathfinder" in a Pathfinder Team): the datasheet's own line.
                    groups.push(Group {
                        profile: None,
                        models: *count,
                        ..Group::default()
                    });
                } else if sheet.model_profiles.is_empty()
                    && groups.is_empty()
                    && sheet.unit_size.0 > 1
                {
                    // A unit whose datasheet names no models: its one model line.
                    groups.push(Group {
                        profile: None,
                        models: *count,
                        ..Group::default()
                    });
                } else {
                    unresolved.push(Unresolved {
                        unit: ru.datasheet.clone(),
                        what: "model or weapon".into(),
                        name: name.clone(),
                        line: *line,
                        suggestions: closest(
                            name,
                            model_names
                                .iter()
                                .copied()
                                .chain(sheet.weapons().map(|w| w.name.as_str()))
                                .chain(sheet.other_wargear.iter().map(String::as_str)),
                        ),
                    });
                }
            }
            Item::Upgrade(name) => notes.push(match other_of(name) {
                Some(o) => format!("Wargear: {o}"),
                None => format!("Upgrade: {name}"),
            }),
            Item::Note(n) => notes.push(n.clone()),
            Item::Attached(a) => notes.push(format!("Attached as: {a}")),
        }
    }
    if groups.is_empty() {
        groups.push(Group {
            profile: None,
            models: sheet.unit_size.0.max(1),
            ..Group::default()
        });
    }
    (groups, notes)
}

/// The loadouts of `models` models with the model profile `profile`, given the roster's
/// weapon counts for them (`weapons`: name, how many in all; `melee` says which are melee).
///
/// A weapon on every model goes to every model. The others are alternatives: the weapons of
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
        for (w, _) in of_kind().filter(|(_, count)| *count as usize >= n) {
            for c in &mut carried {
                c.push(w.clone());
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

/// In each "Attached unit N" group, its Leaders (and Support characters) join its Bodyguard.
fn attach_groups(units: &mut [(Option<usize>, Option<String>, UnitEntry)]) {
    let groups: Vec<usize> = units.iter().filter_map(|u| u.0).collect();
    for g in groups {
        let Some(body) = units
            .iter()
            .find(|u| u.0 == Some(g) && u.1.as_deref().is_some_and(|a| a.starts_with("bodyguard")))
            .map(|u| u.2.id.clone())
        else {
            continue;
        };
        for u in units.iter_mut().filter(|u| u.0 == Some(g)) {
            if u.1
                .as_deref()
                .is_some_and(|a| a.starts_with("leader") || a.starts_with("support"))
            {
                u.2.attached_to = Some(body.clone());
            }
        }
    }
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
    fn closest_names_are_offered() {
        let c = closest(
            "Intercesor Squad",
            ["Intercessor Squad", "Hellblaster Squad"],
        );
        assert_eq!(c.first().map(String::as_str), Some("Intercessor Squad"));
    }
}
