//! Attaching Leaders in an army file before the game (the menu's army view): which units of
//! the army can lead which, and the file rewritten with a Leader attached or detached, checked
//! like [`super::attach_leader`] (Core Rules: Leader).

use std::path::Path;

use crate::data::army::ArmyFile;
use crate::data::write::{self, Overwrite};
use crate::rules::Datasheet;

/// One Leader of an army and the units it may lead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaderChoice {
    /// The Leader's unit id.
    pub leader: String,
    /// Its name to show (its datasheet, numbered where several share it).
    pub name: String,
    /// The unit it leads now, if any (an id).
    pub leads: Option<String>,
    /// The units it may lead: (id, name to show), in army order.
    pub eligible: Vec<(String, String)>,
}

/// The army file at `path` with its datasheets (each file it names, loaded).
fn load(path: &Path) -> Result<(ArmyFile, Vec<Datasheet>), String> {
    let text = crate::data::source::read(path).map_err(|e| e.to_string())?;
    let army: ArmyFile = crate::data::source::parse(path, &text).map_err(|e| e.to_string())?;
    let mut sheets = Vec::new();
    for f in &army.datasheets {
        let file = crate::data::source::sibling(path, f);
        let d = crate::data::resolve::load_datasheets(&file).map_err(|e| e.to_string())?;
        sheets.extend(d.datasheets);
    }
    Ok((army, sheets))
}

/// The Leaders of the army file at `path` (units whose datasheet is a CHARACTER that names
/// units it can lead) with the units each may lead.
///
/// # Errors
/// The file or one of its datasheet files cannot be read or parsed.
pub fn leader_choices(path: &Path) -> Result<Vec<LeaderChoice>, String> {
    let (army, sheets) = load(path)?;
    let sheet_of = |datasheet: &str| {
        sheets
            .iter()
            .find(|d| d.name.eq_ignore_ascii_case(datasheet))
    };
    let label = |i: usize| {
        let u = &army.units[i];
        let same = army
            .units
            .iter()
            .filter(|o| o.datasheet == u.datasheet)
            .count();
        let name = u.name.clone().unwrap_or_else(|| u.datasheet.clone());
        if same > 1 && u.name.is_none() {
            let n = army.units[..=i]
                .iter()
                .filter(|o| o.datasheet == u.datasheet)
                .count();
            format!("{name} {n}")
        } else {
            name
        }
    };
    let mut out = Vec::new();
    for (i, u) in army.units.iter().enumerate() {
        let Some(ls) = sheet_of(&u.datasheet) else {
            continue;
        };
        if !ls.has_keyword("CHARACTER") || ls.leader_of.is_empty() {
            continue;
        }
        let eligible = army
            .units
            .iter()
            .enumerate()
            .filter(|(j, b)| {
                *j != i
                    && b.attached_to.is_none()
                    && sheet_of(&b.datasheet)
                        .is_some_and(|bs| super::resolve::cannot_lead(ls, bs).is_none())
            })
            .map(|(j, b)| (b.id.clone(), label(j)))
            .collect();
        out.push(LeaderChoice {
            leader: u.id.clone(),
            name: label(i),
            leads: u.attached_to.clone(),
            eligible,
        });
    }
    Ok(out)
}

/// Rewrites the army file at `path` with the Leader `leader` (a unit id) attached to
/// `bodyguard` (a unit id), or detached for `None`. The player asked for this change of their
/// own army file: it is replaced, whole, once the new text loads as an army.
///
/// # Errors
/// The file cannot be read; the units are not in it or cannot be joined (the rule broken);
/// the file cannot be written.
pub fn set_leader(path: &Path, leader: &str, bodyguard: Option<&str>) -> Result<(), String> {
    let (mut army, sheets) = load(path)?;
    let i = army
        .units
        .iter()
        .position(|u| u.id == leader)
        .ok_or_else(|| format!("no unit '{leader}' in {}", path.display()))?;
    army.units[i].attached_to = None;
    if let Some(b) = bodyguard {
        let refs: Vec<&Datasheet> = sheets.iter().collect();
        super::attach_leader(&mut army, &refs, leader, b)?;
    }
    let config = ron::ser::PrettyConfig::new()
        .depth_limit(4)
        .struct_names(true)
        .separate_tuple_members(false);
    let body = ron::ser::to_string_pretty(&army, config)
        .map_err(|e| format!("{}: cannot be written: {e}", path.display()))?;
    // Comments the file starts with (where it came from) are kept.
    let old = std::fs::read_to_string(path).unwrap_or_default();
    let header: String = old
        .lines()
        .take_while(|l| l.starts_with("//"))
        .map(|l| format!("{l}\n"))
        .collect();
    let text = format!("{header}{body}\n");
    write::write_file_checked(path, &text, Overwrite::Replace, |tmp| {
        crate::data::load_army(tmp, 1)
            .map(drop)
            .map_err(|e| e.to_string())
    })
    .map_err(|e| e.to_string())
}
