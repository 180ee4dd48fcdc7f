//! New Recruit's plain-text exports (newrecruit.eu), three styles read by one reader:
//!
//! - **WTC**: a `+++` header block (`+ FACTION KEYWORD:`, `+ DETACHMENT:`, `+ TOTAL ARMY
//!   POINTS:`, `+ WARLORD:`, `+ ENHANCEMENT: X (on Char1: Name)` with `&` continuation lines),
//!   then units `Char1: 1x Name (95 pts): items` or `10x Name (65 pts)` with model lines
//!   `• 9x Model` and loadout lines `5 with A, B, 2x C`, `Enhancement: X (+10 pts)`, and the
//!   attachments `Leading Unit[2]` (on the Leader) and `Attached to Leader[1]` (on the
//!   Bodyguard), where `[N]` is the N-th unit of that name in the list.
//! - **GW**: the same header (or none), units `1x Name (95 pts)` and every item on its own
//!   bulleted line (`• 1x Dawn Blade`, `    • 8x Kroot rifle`, `  • Marker Drone`).
//! - **Text**: `Faction - Name - [1985 pts]`, `## Character [325 pts]` headings and units
//!   `Name [95 pts]: A, 2x B` with model lines `• 1x Model: A, B`.
//!
//! Like the official app's text, the export does not say which item is a model and which a
//! weapon: the datasheets tell when the roster is resolved ([`super::resolve`]).

use super::{Item, Roster, RosterError, RosterUnit};
use crate::data::roster::text::clean_name;

/// The three styles, as the reader found them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `CharN:` prefixes and `N with` loadout lines.
    Wtc,
    /// One bulleted item per line.
    Gw,
    /// `Name [N pts]: items`, Markdown headings.
    Text,
}

/// True when `text` looks like a New Recruit text export: a `+++` header, a Markdown army
/// line (`# ++ Army Roster ++`), or a unit line `1x Name (95 pts)` / `Char1: 1x Name (95 pts)`.
pub fn recognise(text: &str) -> Option<Style> {
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    let wtc = lines
        .iter()
        .any(|l| char_prefix(l).is_some() || with_line(l.trim()).is_some());
    if wtc {
        return Some(Style::Wtc);
    }
    if lines.iter().any(|l| l.starts_with("# ++ Army Roster ++")) {
        return Some(Style::Text);
    }
    let header = lines
        .iter()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| l.starts_with("++++"));
    let unit_lines = lines
        .iter()
        .any(|l| !l.starts_with(char::is_whitespace) && unit_line(l).is_some_and(|u| u.count));
    (header || unit_lines).then_some(Style::Gw)
}

/// A unit line read: its datasheet, model count if given, points and inline items.
struct UnitLine<'a> {
    name: String,
    models: Option<u32>,
    count: bool,
    points: u32,
    items: Option<&'a str>,
}

/// `Char1: 1x Name (95 pts): items`, `10x Name (65 pts)`, `Name [95 pts]: items`.
fn unit_line(line: &str) -> Option<UnitLine<'_>> {
    let line = char_prefix(line).map_or(line, |(_, rest)| rest);
    if line.starts_with(['•', '◦', '-', '*', '+', '&', '#']) {
        return None;
    }
    // The points: "(95 pts)", "(95pts)" or "[95 pts]", then optionally ": items".
    let (open, close) = if line.contains(" pts)") || line.contains("pts)") {
        ('(', ')')
    } else {
        ('[', ']')
    };
    let close_at = line.find(&format!("pts{close}"))?;
    let open_at = line[..close_at].rfind(open)?;
    let points_text = line[open_at + 1..close_at].trim();
    // "(+10 pts)" is an enhancement's cost, not a unit's points.
    if points_text.starts_with('+') || line.starts_with("Enhancement") {
        return None;
    }
    let points: u32 = points_text.replace(',', "").parse().ok()?;
    let head = line[..open_at].trim();
    let tail = line[close_at + 4..].trim();
    let items = match tail.strip_prefix(':') {
        Some(rest) => Some(rest.trim()).filter(|r| !r.is_empty()),
        None if tail.is_empty() => None,
        None => return None,
    };
    let (models, name) = match count_prefix(head) {
        Some((n, rest)) => (Some(n), rest),
        None => (None, head),
    };
    if name.is_empty() {
        return None;
    }
    Some(UnitLine {
        name: clean_name(name),
        models,
        count: models.is_some(),
        points,
        items,
    })
}

/// `Char3: rest` (or another section's prefix, `Infa4: rest`) as (3, rest).
fn char_prefix(line: &str) -> Option<(u32, &str)> {
    let letters = line.chars().take_while(char::is_ascii_alphabetic).count();
    if !(3..=5).contains(&letters) {
        return None;
    }
    let (n, rest) = line[letters..].split_once(':')?;
    Some((n.parse().ok()?, rest.trim_start()))
}

/// `9x Name` as (9, "Name").
fn count_prefix(s: &str) -> Option<(u32, &str)> {
    let (n, rest) = s.split_once(['x', 'X'])?;
    let n = n.trim().parse().ok()?;
    rest.starts_with(' ').then(|| (n, rest.trim()))
}

/// `5 with A, B` as (5, "A, B").
fn with_line(s: &str) -> Option<(u32, &str)> {
    let (n, rest) = s.split_once(" with ")?;
    Some((n.trim().parse().ok()?, rest.trim()))
}

/// The names of a comma-separated list, commas inside brackets kept ("Recon drone (Drone
/// burst cannon), Marker Drone").
fn split_list(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth <= 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(s[start..].trim());
    out.retain(|x| !x.is_empty());
    out
}

/// Splits names New Recruit's WTC style writes run together where a line of wargear meets
/// the next ("Plasma Accelerator Rifle upgradeBattlesuit fists", "Recon droneDrone burst
/// cannon"): at a lower-case letter followed by a capital inside a word.
fn unjoin(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut prev: Option<char> = None;
    for c in s.chars() {
        if let Some(p) = prev
            && p.is_lowercase()
            && c.is_uppercase()
            && current.chars().filter(|c| c.is_alphabetic()).count() > 2
        {
            out.push(std::mem::take(&mut current));
        }
        current.push(c);
        prev = Some(c);
    }
    out.push(current);
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The items of a list (`A, 2x B`), each of them `per` times (the models they are listed for).
fn list_items(list: &str, per: u32, line: usize, column: usize, joined: bool) -> Vec<Item> {
    let mut out = Vec::new();
    for raw in split_list(list) {
        let parts = if joined {
            unjoin(raw)
        } else {
            vec![raw.to_string()]
        };
        for part in parts {
            out.push(single_item(&part, per, line, column));
        }
    }
    out
}

/// One item: `2x Name` (counted `per` times), `Warlord`, `X (+10 pts)` (an enhancement), or a
/// name (one per model it is listed for).
fn single_item(s: &str, per: u32, line: usize, column: usize) -> Item {
    let s = s.trim();
    if s.eq_ignore_ascii_case("Warlord") {
        return Item::Note("Warlord".into());
    }
    if let Some(name) = enhancement_points(s) {
        return Item::Note(format!("Enhancement: {name}"));
    }
    if s.to_ascii_lowercase().ends_with(" upgrade") {
        return Item::Note(format!("Upgrade: {s}"));
    }
    let (k, name) = count_prefix(s).unwrap_or((1, s));
    Item::Count {
        count: k.saturating_mul(per.max(1)),
        name: clean_name(name),
        column,
        line,
    }
}

/// `Name (+10 pts)` as "Name".
fn enhancement_points(s: &str) -> Option<String> {
    let (name, rest) = s.rsplit_once(" (+")?;
    rest.ends_with("pts)").then(|| clean_name(name))
}

/// Reads a New Recruit text export in any of its styles.
///
/// # Errors
/// No unit line at all: the text is not a New Recruit export.
pub fn parse(text: &str, style: Style) -> Result<Roster, RosterError> {
    let mut roster = Roster::default();
    let mut current: Option<RosterUnit> = None;
    // The model count of the model line the next items belong to, and of a `N with` line.
    let mut model_count = 1u32;
    let mut unit_models = 1u32;
    let mut with_count: Option<u32> = None;
    let mut in_header = false;
    let mut enhancement_on: Vec<(String, String)> = Vec::new();
    let mut last_header_key = String::new();
    // The names listed since the last model line, and the column of the last wargear line
    // without a count ("  • Recon drone"): a weapon listed under it again is the drone's,
    // already counted ("    • 1x Drone burst cannon").
    let mut seen: Vec<String> = Vec::new();
    let mut wargear_column: Option<usize> = None;
    for (n, raw) in text.lines().enumerate() {
        let line_no = n + 1;
        let raw = raw.trim_end_matches('\r').trim_end();
        let line = raw.trim();
        let column = raw.len() - raw.trim_start().len();
        if line.is_empty() {
            continue;
        }
        if line.starts_with("++++") {
            in_header = !in_header;
            continue;
        }
        if in_header || (line.starts_with("+ ") && current.is_none()) {
            header_line(line, &mut roster, &mut enhancement_on, &mut last_header_key);
            continue;
        }
        if line.starts_with("Created with newrecruit") {
            roster.notes.push(line.to_string());
            continue;
        }
        // The Text style's first line: "Xenos - T'au Empire - Tauuuu - [1985 pts]".
        if style == Style::Text
            && roster.units.is_empty()
            && current.is_none()
            && text_header_line(line, &mut roster) == Some(true)
        {
            continue;
        }
        if column == 0
            && let Some(u) = unit_line(line)
        {
            roster.units.extend(current.take());
            seen.clear();
            let mut unit = RosterUnit {
                datasheet: u.name,
                points: Some(u.points),
                line: line_no,
                ..RosterUnit::default()
            };
            model_count = u.models.unwrap_or(1);
            unit_models = model_count;
            with_count = None;
            if let Some(items) = u.items {
                let (per, list) = match with_line(items) {
                    Some((k, rest)) => (k, rest),
                    None => (1, items),
                };
                unit.items
                    .extend(list_items(list, per, line_no, column, false));
            }
            // A unit of N models with no model lines: the datasheet's own models.
            if let Some(m) = u.models.filter(|_| u.count) {
                unit.items.insert(0, Item::UnitSize(m));
            }
            current = Some(unit);
            continue;
        }
        let Some(unit) = current.as_mut() else {
            // Headings ("CHARACTER", "## Epic Hero [195 pts]") and other lines before units.
            if !is_heading(line) {
                roster.notes.push(line.to_string());
            }
            continue;
        };
        if is_heading(line) && column == 0 {
            roster.units.extend(current.take());
            continue;
        }
        if let Some(rest) = line.strip_prefix("Enhancement:") {
            let name = enhancement_points(rest.trim()).unwrap_or_else(|| clean_name(rest));
            unit.items.push(Item::Note(format!("Enhancement: {name}")));
            continue;
        }
        if let Some(rest) = line.strip_prefix("Leading ") {
            unit.items.push(Item::Leads(rest.trim().to_string()));
            continue;
        }
        if let Some(rest) = line.strip_prefix("Attached to ") {
            unit.items.push(Item::LedBy(rest.trim().to_string()));
            continue;
        }
        let bullet = line.starts_with(['•', '◦', '-', '*']);
        let body = line.trim_start_matches(['•', '◦', '-', '*']).trim();
        if let Some((k, list)) = with_line(body) {
            // "5 with A, B": each of the k models carries each item.
            with_count = Some(k);
            wargear_column = None;
            for it in list_items(list, k, line_no, column, style == Style::Wtc) {
                if let Item::Count { name, .. } = &it {
                    seen.push(crate::data::bsdata::normalise_name(name));
                }
                unit.items.push(it);
            }
            continue;
        }
        if bullet && column <= 1 {
            seen.clear();
            wargear_column = None;
            // A model line ("• 9x Boy: 9 with ..." / "• 1x Long-quill") or, in a one-model
            // unit of the GW style, one of its weapons: the datasheet tells.
            with_count = None;
            let (head, inline) = match body.split_once(": ") {
                Some((h, i)) if count_prefix(h).is_some() => (h, Some(i)),
                _ => (body, None),
            };
            if let Some((k, name)) = count_prefix(head) {
                model_count = k;
                // In a unit of several models (or with its loadout inline) the line is a
                // model line; in a one-model unit of the GW style it may be a weapon.
                let models_line = unit_models > 1 || inline.is_some();
                unit.items.push(if models_line {
                    Item::Model {
                        count: k,
                        name: clean_name(name),
                    }
                } else {
                    Item::Count {
                        count: k,
                        name: clean_name(name),
                        column,
                        line: line_no,
                    }
                });
                if let Some(list) = inline {
                    let (per, list) = with_line(list).unwrap_or((k, list));
                    unit.items
                        .extend(list_items(list, per, line_no, column + 2, false));
                }
            } else {
                unit.items
                    .extend(list_items(body, 1, line_no, column, style == Style::Wtc));
            }
            continue;
        }
        // Indented items: "    • 8x Kroot rifle" (counted as given), "  • Marker Drone" (one
        // per model of its line).
        let per = with_count.unwrap_or(model_count);
        let nested = wargear_column.is_some_and(|c| column > c);
        let mut after_drone = false;
        for raw in split_list(body) {
            let parts = if style == Style::Wtc {
                unjoin(raw)
            } else {
                vec![raw.to_string()]
            };
            for part in parts {
                let name = count_prefix(&part).map_or(part.as_str(), |(_, n)| n);
                let key = crate::data::bsdata::normalise_name(name);
                // A drone's weapon written again after it ("Recon droneDrone burst cannon", or
                // nested under "  • Recon drone"): the model's own line already lists it.
                if (after_drone || nested) && seen.contains(&key) {
                    after_drone = false;
                    continue;
                }
                after_drone = key.ends_with("drone");
                let it = match count_prefix(&part) {
                    Some(_) => single_item(&part, 1, line_no, column),
                    None => single_item(&part, per, line_no, column),
                };
                if !matches!(it, Item::Count { .. }) || count_prefix(&part).is_none() {
                    wargear_column = Some(column);
                }
                seen.push(key);
                unit.items.push(it);
            }
        }
    }
    roster.units.extend(current.take());
    if roster.units.is_empty() {
        return Err(RosterError::Format(
            "no unit line like '10x Boyz (85 pts)' was found: this is not a New Recruit text export"
                .into(),
        ));
    }
    // The header's enhancements, when the units' own lines name none (its `CharN` numbers
    // do not always follow the body's): each to the first unit of the datasheet it names
    // that has none yet.
    let enhanced = |u: &RosterUnit| {
        u.items
            .iter()
            .any(|i| matches!(i, Item::Note(n) if n.starts_with("Enhancement: ")))
    };
    if !roster.units.iter().any(enhanced) {
        for (unit, name) in enhancement_on {
            let key = crate::data::bsdata::normalise_name(&unit);
            if let Some(u) = roster
                .units
                .iter_mut()
                .find(|u| crate::data::bsdata::normalise_name(&u.datasheet) == key && !enhanced(u))
            {
                u.items.push(Item::Note(format!("Enhancement: {name}")));
            }
        }
    }
    Ok(roster)
}

/// A line of the `+++` header block.
fn header_line(
    line: &str,
    roster: &mut Roster,
    enhancement_on: &mut Vec<(String, String)>,
    last_key: &mut String,
) {
    let (key, value) = if let Some(rest) = line.strip_prefix('&') {
        (last_key.clone(), rest.trim().to_string())
    } else {
        let body = line.trim_start_matches('+').trim();
        match body.split_once(':') {
            Some((k, v)) => (k.trim().to_ascii_uppercase(), v.trim().to_string()),
            None => return,
        }
    };
    last_key.clone_from(&key);
    match key.as_str() {
        "FACTION KEYWORD" => roster.faction = value,
        "DETACHMENT" => roster.notes.push(format!("Detachment: {value}")),
        "TOTAL ARMY POINTS" => {
            roster.points = value
                .trim_end_matches("pts")
                .trim()
                .replace(',', "")
                .parse()
                .ok();
        }
        "ENHANCEMENT" => {
            // "Fusion Blades (on Char2: Commander in Coldstar Battlesuit)"
            if let Some((name, on)) = value.split_once(" (on ") {
                let on = on.trim_end_matches(')');
                let unit = char_prefix(on).map_or(on, |(_, rest)| rest);
                enhancement_on.push((clean_name(unit), clean_name(name)));
            }
        }
        "" => {}
        _ => roster.notes.push(format!("{}: {value}", title(&key))),
    }
}

/// "FORCE DISPOSITION" as "Force disposition".
fn title(key: &str) -> String {
    let lower = key.to_lowercase();
    let mut c = lower.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The Text style's header lines: the army line, "# ++ Army Roster ++", "## Configuration",
/// "Battle Size: ...", "Detachment: ...", "Show/Hide Options". `Some(true)` when the line was
/// read as one of them.
fn text_header_line(line: &str, roster: &mut Roster) -> Option<bool> {
    if line.starts_with("# ++") || line == "## Configuration" || line == "Show/Hide Options" {
        return Some(true);
    }
    if let Some(rest) = line.strip_prefix("Detachment:") {
        roster.notes.push(format!("Detachment: {}", rest.trim()));
        return Some(true);
    }
    if let Some(rest) = line.strip_prefix("Battle Size:") {
        roster.notes.push(format!("Battle size: {}", rest.trim()));
        return Some(true);
    }
    if roster.name.is_empty()
        && line.ends_with("pts]")
        && let Some((head, pts)) = line.rsplit_once(" - [")
    {
        roster.points = pts.trim_end_matches("pts]").trim().parse().ok();
        let parts: Vec<&str> = head.split(" - ").collect();
        if parts.len() >= 2 {
            roster.name = parts[parts.len() - 1].trim().to_string();
            roster.faction = parts[..parts.len() - 1].join(" - ");
        } else {
            roster.faction = head.trim().to_string();
        }
        return Some(true);
    }
    None
}

/// Section headings: "CHARACTER", "OTHER DATASHEETS", "## Infantry [465 pts]".
fn is_heading(line: &str) -> bool {
    if line.starts_with("##") {
        return true;
    }
    line.chars().any(char::is_alphabetic)
        && line.chars().all(|c| !c.is_alphabetic() || c.is_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(u: &RosterUnit) -> Vec<(u32, &str)> {
        u.items
            .iter()
            .filter_map(|i| match i {
                Item::Count { count, name, .. } | Item::Model { count, name } => {
                    Some((*count, name.as_str()))
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn wtc_loadout_lines_count_per_model() {
        let text = "+++++\n+ FACTION KEYWORD: Xenos - Orks\n+ DETACHMENT: Waaagh! Tribe\n+ TOTAL ARMY POINTS: 995pts\n+ ENHANCEMENT: Kunnin' (on Char1: Warboss)\n+++++\n\nChar1: 1x Warboss (80 pts): Warlord, Big choppa\nLeading Boyz[2]\n\n10x Boyz (90 pts)\n• 1x Nob: Kombi-rokkit, Power Klaw\n• 9x Boy: 9 with Choppa, 2x Slugga\n10x Boyz (90 pts)\n• 9x Boy\n    5 with Choppa\n    4 with Big shoota\n• 1x Nob: Power Klaw\n  Attached to Warboss\n";
        assert_eq!(recognise(text), Some(Style::Wtc));
        let r = parse(text, Style::Wtc).unwrap();
        assert_eq!(r.faction, "Xenos - Orks");
        assert_eq!(r.points, Some(995));
        assert!(r.notes.contains(&"Detachment: Waaagh! Tribe".to_string()));
        assert_eq!(r.units.len(), 3);
        let boss = &r.units[0];
        assert!(boss.items.contains(&Item::Note("Warlord".into())));
        assert!(
            boss.items
                .contains(&Item::Note("Enhancement: Kunnin'".into()))
        );
        assert!(boss.items.contains(&Item::Leads("Boyz[2]".into())));
        assert_eq!(
            counts(&r.units[1]),
            vec![
                (1, "Nob"),
                (1, "Kombi-rokkit"),
                (1, "Power Klaw"),
                (9, "Boy"),
                (9, "Choppa"),
                (18, "Slugga")
            ]
        );
        assert_eq!(
            counts(&r.units[2]),
            vec![
                (9, "Boy"),
                (5, "Choppa"),
                (4, "Big shoota"),
                (1, "Nob"),
                (1, "Power Klaw")
            ]
        );
        assert!(r.units[2].items.contains(&Item::LedBy("Warboss".into())));
    }

    #[test]
    fn gw_style_gives_one_item_per_line() {
        let text = "1x Commander Farsight (95 pts)\n• 1x Dawn Blade\n• Warlord\n\n3x Stealth Battlesuits (60 pts)\n• 1x Stealth Shas'vre\n    • 1x Fusion blaster\n  • Homing beacon, Marker Drone\n• 2x Stealth Shas'ui\n    • 2x Burst cannon\n  • 2x Shield Drone\n";
        assert_eq!(recognise(text), Some(Style::Gw));
        let r = parse(text, Style::Gw).unwrap();
        assert_eq!(r.units.len(), 2);
        assert_eq!(
            counts(&r.units[1]),
            vec![
                (1, "Stealth Shas'vre"),
                (1, "Fusion blaster"),
                (1, "Homing beacon"),
                (1, "Marker Drone"),
                (2, "Stealth Shas'ui"),
                (2, "Burst cannon"),
                (2, "Shield Drone")
            ]
        );
        assert_eq!(r.units[1].items[0], Item::UnitSize(3));
    }

    #[test]
    fn run_together_names_are_split() {
        assert_eq!(
            unjoin("Plasma Accelerator Rifle upgradeBattlesuit fists"),
            vec!["Plasma Accelerator Rifle upgrade", "Battlesuit fists"]
        );
        assert_eq!(unjoin("T'au flamer"), vec!["T'au flamer"]);
    }

    #[test]
    fn text_without_units_is_refused() {
        assert!(parse("hello\n", Style::Gw).is_err());
        assert_eq!(recognise("Boyz (85 Points)\n• 10x Boy\n"), None);
    }
}
