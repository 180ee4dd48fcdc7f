//! The official Warhammer 40,000 app's text export (10th-edition dialects): a header (army
//! name and points, faction, sub-faction, Detachment, battle size), section headings
//! (CHARACTERS, BATTLELINE, ...), and units, each a line `Name (N Points)` followed by its
//! items: `• 1x Weapon`, `• 19x Model` with `◦ 19x Weapon` under it, `• Warlord`,
//! `• Enhancements: Name`. The Android dialect writes only the first item of a list with a
//! bullet and the rest as plain indented lines; later app versions add `Attached unit N`
//! groups with `• Attached as: Leader/Bodyguard`, and may drop the indentation altogether.
//!
//! The text has no characteristics: an item is told to be a model or a weapon by the
//! datasheets when the roster is resolved (see [`super::resolve`]), which is what makes the
//! flat dialect readable.

use super::{Item, Roster, RosterError, RosterUnit};

/// Bullets the app writes before items.
const BULLETS: [char; 5] = ['•', '◦', '-', '*', '▪'];

/// Reads an app text export.
///
/// # Errors
/// No unit line (`Name (N Points)`) at all: the text is not an app export.
pub fn parse(text: &str) -> Result<Roster, RosterError> {
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    let mut roster = Roster::default();
    let mut header: Vec<String> = Vec::new();
    let mut in_units = false;
    let mut attached_group: Option<usize> = None;
    let mut current: Option<RosterUnit> = None;
    // The last counted item of the current unit: (index, column, its bullet).
    let mut last_count: Option<(usize, usize, Option<char>)> = None;
    for (n, raw) in lines.iter().enumerate() {
        let line_no = n + 1;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with("Exported with App Version") {
            roster.notes.push(line.to_string());
            continue;
        }
        let item_line = raw.starts_with(char::is_whitespace)
            || line.starts_with(BULLETS)
            || count_item(line).is_some();
        if !item_line && !in_units && looks_like_detachment_points(line) {
            // "A and B (3 Detachment Points)": the detachments' names.
            let name = line.rsplit_once(" (").map_or(line, |(n, _)| n);
            roster
                .notes
                .push(format!("Detachment: {}", clean_name(name)));
            continue;
        }
        if !item_line && let Some((name, points)) = unit_line(line) {
            if !in_units && header.is_empty() && roster.name.is_empty() {
                // The first "Name (N Points)" line is the army's.
                roster.name = name;
                roster.points = Some(points);
                continue;
            }
            if !in_units && is_battle_size(&name) {
                roster.notes.push(format!("Battle size: {line}"));
                continue;
            }
            in_units = true;
            roster.units.extend(current.take());
            last_count = None;
            current = Some(RosterUnit {
                datasheet: name,
                points: Some(points),
                line: line_no,
                group: attached_group,
                ..RosterUnit::default()
            });
            continue;
        }
        if !item_line && is_section(line) {
            in_units = true;
            roster.units.extend(current.take());
            attached_group = attached_group_number(line).or(
                if line.to_ascii_lowercase().starts_with("attached") {
                    attached_group
                } else {
                    None
                },
            );
            continue;
        }
        if let Some(unit) = current.as_mut() {
            let body = line.trim_start_matches(BULLETS).trim();
            let column = raw.len() - raw.trim_start().len();
            // A counted line with items under it (a '◦' line after a '•' line, or a line
            // indented deeper than it) is a model line: "• 9x Wolf Guard Terminator" then
            // "◦ 2x Assault cannon".
            if let Some(&(prev_index, prev_column, prev_bullet)) = last_count.as_ref()
                && let Some(Item::Count { count, name, .. }) = unit.items.get(prev_index)
                && prev_bullet == Some('•')
                && (line.starts_with('◦') || (line.starts_with('•') && column > prev_column))
                && count_item(body).is_some()
            {
                let model = Item::Model {
                    count: *count,
                    name: name.clone(),
                };
                unit.items[prev_index] = model;
            }
            let it = item(body, column, line_no);
            last_count = matches!(it, Item::Count { .. })
                .then(|| (unit.items.len(), column, line.chars().next()));
            unit.items.push(it);
            continue;
        }
        if !in_units {
            header.push(line.to_string());
        }
    }
    roster.units.extend(current.take());
    if roster.units.is_empty() {
        return Err(RosterError::Format(
            "no unit line like 'Boyz (85 Points)' was found: this is not the app's text export"
                .into(),
        ));
    }
    // Header lines: faction, then sub-faction and Detachment, in the order the app writes them.
    let mut header = header.into_iter();
    roster.faction = header.next().unwrap_or_default();
    roster
        .notes
        .extend(header.map(|h| format!("Army: {h}")).collect::<Vec<_>>());
    Ok(roster)
}

/// One item line of a unit, its bullet stripped.
fn item(body: &str, column: usize, line: usize) -> Item {
    if let Some((count, name)) = count_item(body) {
        return Item::Count {
            count,
            name: clean_name(name),
            column,
            line,
        };
    }
    if body.eq_ignore_ascii_case("Warlord") {
        return Item::Note("Warlord".into());
    }
    if let Some(rest) = body
        .strip_prefix("Enhancements:")
        .or_else(|| body.strip_prefix("Enhancement:"))
    {
        // The 11th-edition app marks a non-CHARACTER unit's enhancement "(Upgrade)".
        let name = clean_name(rest);
        let name = name.strip_suffix("(Upgrade)").unwrap_or(&name).trim();
        return Item::Note(format!("Enhancement: {name}"));
    }
    if let Some(rest) = body.strip_prefix("Attached as:") {
        return Item::Attached(rest.trim().to_string());
    }
    Item::Note(body.to_string())
}

/// `19x Blood Claw` as (19, "Blood Claw").
fn count_item(line: &str) -> Option<(u32, &str)> {
    let body = line.trim_start_matches(BULLETS).trim();
    let (n, rest) = body.split_once(['x', 'X'])?;
    let count = n.trim().parse().ok()?;
    let name = rest.trim();
    (!name.is_empty() && rest.starts_with(' ')).then_some((count, name))
}

/// `Boyz (85 Points)` as ("Boyz", 85); "2,000" reads as 2000.
fn unit_line(line: &str) -> Option<(String, u32)> {
    let (name, rest) = line.rsplit_once(" (")?;
    let rest = rest.strip_suffix(')')?;
    let (n, word) = rest.split_once(' ')?;
    if !word.eq_ignore_ascii_case("points") && !word.eq_ignore_ascii_case("pts") {
        return None;
    }
    let points = n.replace(',', "").parse().ok()?;
    Some((clean_name(name), points))
}

/// The app's battle sizes, written like units: "Strike Force (2,000 Points)".
fn is_battle_size(name: &str) -> bool {
    ["Combat Patrol", "Incursion", "Strike Force", "Onslaught"]
        .iter()
        .any(|b| name.eq_ignore_ascii_case(b))
}

/// "Blitz Brigade (3 Detachment Points)": a later app's Detachment line.
fn looks_like_detachment_points(line: &str) -> bool {
    line.to_ascii_lowercase().ends_with("detachment points)")
}

/// Section headings: CHARACTERS, BATTLELINE, DEDICATED TRANSPORTS, OTHER DATASHEETS, ALLIED
/// UNITS, and the later app's "Attached Units" and "Attached unit N".
fn is_section(line: &str) -> bool {
    let upper = line.chars().any(char::is_alphabetic)
        && line.chars().all(|c| !c.is_alphabetic() || c.is_uppercase());
    upper || attached_group_number(line).is_some() || line.eq_ignore_ascii_case("attached units")
}

/// "Attached unit 3" as 3.
fn attached_group_number(line: &str) -> Option<usize> {
    let lower = line.to_ascii_lowercase();
    lower.strip_prefix("attached unit ")?.trim().parse().ok()
}

/// A name as the app writes it, with typographic apostrophes made plain.
pub fn clean_name(name: &str) -> String {
    // A trailing '*' is a roster tool's footnote mark ("L7 missile launcher*").
    name.trim()
        .replace(['’', '‘'], "'")
        .trim_start_matches('➤')
        .trim_end_matches('*')
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ios_dialect_gives_models_and_weapons_in_order() {
        let text = "My list (300 Points)\n\nSpace Marines\nSpace Wolves\nSaga\nStrike Force (2,000 Points)\n\nBATTLELINE\n\nBlood Claws (285 Points)\n  • 1x Blood Claw Pack Leader\n     ◦ 1x Plasma pistol\n  • 19x Blood Claw\n     ◦ 19x Bolt pistol\n  • Warlord\n";
        let r = parse(text).unwrap();
        assert_eq!(r.name, "My list");
        assert_eq!(r.points, Some(300));
        assert_eq!(r.faction, "Space Marines");
        assert_eq!(r.units.len(), 1);
        let u = &r.units[0];
        assert_eq!(u.datasheet, "Blood Claws");
        assert_eq!(u.points, Some(285));
        let counts: Vec<(u32, &str)> = u
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Count { count, name, .. } | Item::Model { count, name } => {
                    Some((*count, name.as_str()))
                }
                _ => None,
            })
            .collect();
        assert_eq!(
            counts,
            vec![
                (1, "Blood Claw Pack Leader"),
                (1, "Plasma pistol"),
                (19, "Blood Claw"),
                (19, "Bolt pistol")
            ]
        );
        assert!(u.items.contains(&Item::Note("Warlord".into())));
    }

    #[test]
    fn text_without_a_unit_line_is_not_an_export() {
        let e = parse("hello\nworld\n").unwrap_err();
        assert!(e.to_string().contains("not the app's text export"), "{e}");
    }

    #[test]
    fn attached_groups_number_their_units() {
        let text = "L (100 points)\n\nOrks\nStrike Force (2000 points)\n\nAttached Units\nAttached Unit 1\n\nWarboss (75 points)\n• Attached as: Leader (Character)\n• 1x Big choppa\n\nBoyz (85 points)\n• Attached as: Bodyguard\n• 10x Boy\n";
        let r = parse(text).unwrap();
        assert_eq!(r.units.len(), 2);
        assert_eq!(r.units[0].group, Some(1));
        assert_eq!(r.units[1].group, Some(1));
        assert_eq!(
            r.units[0].items[0],
            Item::Attached("Leader (Character)".into())
        );
    }
}
