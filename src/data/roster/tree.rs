//! BattleScribe rosters (`.ros` XML, `.rosz` zip) and New Recruit's JSON, which is the same
//! tree: `roster > forces > force > selections > selection`. A selection has a `type`
//! (`unit`, `model`, `upgrade`), a `number`, `profiles` (a weapon's have the type "Ranged
//! Weapons" or "Melee Weapons"), `categories` and nested `selections`. A multi-model unit
//! is a `unit` selection with `model` children; a single-model unit is a `model` selection
//! at the top. A weapon's `number` is the count in its group, not per model.

use super::{Item, Roster, RosterError, RosterUnit};
use serde_json::Value;

/// One selection, read from XML or JSON.
#[derive(Debug, Default)]
struct Selection {
    name: String,
    kind: String,
    number: u32,
    custom_name: Option<String>,
    /// Profile type names ("Unit", "Ranged Weapons", ...).
    profile_types: Vec<String>,
    /// The selection group it was picked from, when the file says (New Recruit).
    group: Option<String>,
    /// Its points, without its children's.
    points: f64,
    children: Vec<Selection>,
}

impl Selection {
    fn is_weapon(&self) -> bool {
        self.profile_types
            .iter()
            .any(|t| t == "Ranged Weapons" || t == "Melee Weapons")
    }

    /// Points with every child's.
    fn total_points(&self) -> f64 {
        self.points + self.children.iter().map(Self::total_points).sum::<f64>()
    }
}

/// Reads a `.rosz`: a zip holding exactly one `.ros`.
///
/// # Errors
/// Not a zip, a zip with no entry or more than one, or a damaged `.ros` inside.
pub fn read_rosz(bytes: &[u8]) -> Result<Roster, RosterError> {
    use std::io::Read;
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| RosterError::Format(format!("not a readable zip: {e}")))?;
    if zip.len() != 1 {
        // A few names are enough to recognise the file; a zip may list millions.
        let names: Vec<String> = zip
            .file_names()
            .take(5)
            .map(|n| n.map_or_else(|_| "?".to_string(), |n| n.chars().take(80).collect()))
            .collect();
        let more = if zip.len() > names.len() { ", ..." } else { "" };
        return Err(RosterError::Format(format!(
            "a .rosz holds exactly one .ros; this one holds {} entries ({}{more})",
            zip.len(),
            names.join(", ")
        )));
    }
    let mut entry = zip
        .by_index(0)
        .map_err(|e| RosterError::Format(format!("its entry cannot be read: {e}")))?;
    let limit = super::MAX_INFLATED_BYTES;
    let entry_name: String = entry
        .name()
        .map_or_else(|_| "?".to_string(), |n| n.chars().take(80).collect());
    // Inflated at most one byte past the limit, whatever size the zip claims.
    let mut bytes = Vec::new();
    (&mut entry)
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| {
            RosterError::Format(format!("its entry '{entry_name}' cannot be read: {e}"))
        })?;
    if bytes.len() as u64 > limit {
        return Err(RosterError::Format(format!(
            "its entry '{entry_name}' inflates to more than {limit} bytes; a roster is at most \
             {limit} bytes"
        )));
    }
    let text = String::from_utf8(bytes)
        .map_err(|e| RosterError::Format(format!("its entry '{entry_name}' is not text: {e}")))?;
    read_ros(text.trim_start_matches('\u{feff}'))
}

/// Reads a `.ros` (XML).
///
/// # Errors
/// Malformed XML (line and column), or no `roster` element.
pub fn read_ros(text: &str) -> Result<Roster, RosterError> {
    let doc = crate::data::xml::parse(text).map_err(RosterError::Format)?;
    let root = doc.root_element();
    if root.tag_name().name() != "roster" {
        return Err(RosterError::Format(format!(
            "the root element is <{}>, not <roster>",
            root.tag_name().name()
        )));
    }
    let mut roster = Roster {
        name: root.attribute("name").unwrap_or_default().to_string(),
        points: root
            .children()
            .find(|c| c.has_tag_name("costs"))
            .and_then(xml_points)
            .map(|p| p.round() as u32),
        ..Roster::default()
    };
    for force in root
        .descendants()
        .filter(|n| n.has_tag_name("force"))
        .filter(|n| n.ancestors().skip(1).all(|a| !a.has_tag_name("force")))
    {
        if roster.faction.is_empty() {
            roster.faction = force
                .attribute("catalogueName")
                .unwrap_or_default()
                .to_string();
        }
        let selections = child(force, "selections")
            .map(|s| {
                s.children()
                    .filter(|c| c.has_tag_name("selection"))
                    .map(xml_selection)
                    .collect()
            })
            .unwrap_or_default();
        add_selections(&mut roster, selections);
    }
    Ok(roster)
}

fn child<'a, 'i>(n: roxmltree::Node<'a, 'i>, tag: &str) -> Option<roxmltree::Node<'a, 'i>> {
    n.children().find(|c| c.has_tag_name(tag))
}

fn xml_points(costs: roxmltree::Node) -> Option<f64> {
    costs
        .children()
        .filter(|c| c.has_tag_name("cost") && c.attribute("name") == Some("pts"))
        .find_map(|c| c.attribute("value")?.parse().ok())
}

fn xml_selection(n: roxmltree::Node) -> Selection {
    Selection {
        name: n.attribute("name").unwrap_or_default().to_string(),
        kind: n.attribute("type").unwrap_or_default().to_string(),
        number: n
            .attribute("number")
            .and_then(|v| v.parse::<f64>().ok())
            .map_or(1, |v| v.max(0.0) as u32),
        custom_name: n.attribute("customName").map(str::to_string),
        profile_types: child(n, "profiles")
            .map(|p| {
                p.children()
                    .filter(|c| c.has_tag_name("profile"))
                    .filter_map(|c| c.attribute("typeName").map(str::to_string))
                    .collect()
            })
            .unwrap_or_default(),
        group: n.attribute("group").map(str::to_string),
        points: child(n, "costs").and_then(xml_points).unwrap_or(0.0),
        children: child(n, "selections")
            .map(|s| {
                s.children()
                    .filter(|c| c.has_tag_name("selection"))
                    .map(xml_selection)
                    .collect()
            })
            .unwrap_or_default(),
    }
}

/// Reads New Recruit's JSON export.
///
/// # Errors
/// Malformed JSON (line and column), or no `roster` object.
pub fn read_json(text: &str) -> Result<Roster, RosterError> {
    let v: Value = serde_json::from_str(text)
        .map_err(|e| RosterError::Format(format!("malformed JSON: {e}")))?;
    let root = v
        .get("roster")
        .ok_or_else(|| RosterError::Format("no \"roster\" object at the top".into()))?;
    let mut roster = Roster {
        name: str_of(root, "name"),
        points: json_points(root).map(|p| p.round() as u32),
        ..Roster::default()
    };
    for force in array(root, "forces") {
        if roster.faction.is_empty() {
            roster.faction = str_of(force, "catalogueName");
        }
        let selections = array(force, "selections").map(json_selection).collect();
        add_selections(&mut roster, selections);
    }
    Ok(roster)
}

/// `v[key]` as an array's items: New Recruit writes arrays, but a value wrapped BattleScribe
/// style (`{"selection": [...]}`) or a lone object is read too.
fn array<'v>(v: &'v Value, key: &str) -> impl Iterator<Item = &'v Value> {
    let items: Vec<&Value> = match v.get(key) {
        Some(Value::Array(a)) => a.iter().collect(),
        Some(Value::Object(o)) if o.len() == 1 => match o.values().next() {
            Some(Value::Array(a)) => a.iter().collect(),
            Some(x @ Value::Object(_)) => vec![x],
            _ => Vec::new(),
        },
        Some(x @ Value::Object(_)) => vec![x],
        _ => Vec::new(),
    };
    items.into_iter()
}

fn str_of(v: &Value, key: &str) -> String {
    match v.get(key) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    }
}

fn num_of(v: &Value, key: &str) -> Option<f64> {
    match v.get(key)? {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

fn json_points(v: &Value) -> Option<f64> {
    array(v, "costs")
        .filter(|c| str_of(c, "name") == "pts")
        .find_map(|c| num_of(c, "value"))
}

fn json_selection(v: &Value) -> Selection {
    Selection {
        name: str_of(v, "name"),
        kind: str_of(v, "type"),
        number: num_of(v, "number").map_or(1, |n| n.max(0.0) as u32),
        custom_name: v
            .get("customName")
            .and_then(Value::as_str)
            .map(str::to_string),
        profile_types: array(v, "profiles")
            .map(|p| str_of(p, "typeName"))
            .collect(),
        group: v.get("group").and_then(Value::as_str).map(str::to_string),
        points: json_points(v).unwrap_or(0.0),
        children: array(v, "selections").map(json_selection).collect(),
    }
}

/// Adds a force's top-level selections: units and single-model units become roster units;
/// the configuration (Battle Size, Detachment) becomes notes.
fn add_selections(roster: &mut Roster, selections: Vec<Selection>) {
    for s in selections {
        match s.kind.as_str() {
            "unit" | "model" => {
                let mut unit = RosterUnit {
                    datasheet: super::text::clean_name(&s.name),
                    custom_name: s.custom_name.clone(),
                    points: Some(s.total_points().round() as u32),
                    ..RosterUnit::default()
                };
                if s.kind == "model" {
                    // A single-model unit: its own wargear is listed under it.
                    unit.items.push(Item::Model {
                        count: s.number.max(1),
                        name: unit.datasheet.clone(),
                    });
                }
                items_of(&s.children, &mut unit.items);
                roster.units.push(unit);
            }
            _ => {
                let chosen: Vec<&str> = s.children.iter().map(|c| c.name.as_str()).collect();
                roster.notes.push(if chosen.is_empty() {
                    s.name.clone()
                } else {
                    format!("{}: {}", s.name, chosen.join(", "))
                });
            }
        }
    }
}

/// The items under a unit or model: models (their wargear after them), weapons, upgrades.
fn items_of(children: &[Selection], items: &mut Vec<Item>) {
    // Models first, each followed by its own wargear; then the unit's loose wargear (which
    // the resolver gives to the models listed before it).
    let (models, others): (Vec<&Selection>, Vec<&Selection>) =
        children.iter().partition(|c| c.kind == "model");
    for s in others {
        upgrade(s, items, 1);
    }
    for m in models {
        items.push(Item::Model {
            count: m.number,
            name: super::text::clean_name(&m.name),
        });
        for c in &m.children {
            upgrade(c, items, 1);
        }
    }
}

fn upgrade(s: &Selection, items: &mut Vec<Item>, multiplier: u32) {
    let name = super::text::clean_name(&s.name);
    if name.eq_ignore_ascii_case("Warlord") {
        items.push(Item::Note("Warlord".into()));
    } else if s.is_weapon() {
        items.push(Item::Weapon {
            count: s.number.saturating_mul(multiplier),
            name,
        });
    } else if s
        .group
        .as_deref()
        .is_some_and(|g| g.to_ascii_lowercase().contains("enhancement"))
        || (s.points > 0.0
            && s.children.is_empty()
            && s.profile_types.iter().any(|t| t == "Abilities"))
    {
        items.push(Item::Note(format!("Enhancement: {name}")));
    } else if s.children.is_empty() {
        items.push(Item::Upgrade(name));
    }
    // An upgrade that holds weapons (a wargear option bundling two): its weapons count.
    for c in &s.children {
        upgrade(c, items, s.number.max(1).saturating_mul(multiplier));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROS: &str = r#"<?xml version="1.0"?>
<roster name="Test" xmlns="http://www.battlescribe.net/schema/rosterSchema">
  <costs><cost name="pts" value="100.0"/></costs>
  <forces><force catalogueName="Xenos - Orks"><selections>
    <selection name="Battle Size" type="upgrade"><selections><selection name="Strike Force" type="upgrade"/></selections></selection>
    <selection name="Boyz" type="unit" number="1">
      <costs><cost name="pts" value="85.0"/></costs>
      <selections>
        <selection name="Boss Nob" type="model" number="1">
          <selections><selection name="Big choppa" type="upgrade" number="1"><profiles><profile typeName="Melee Weapons"/></profiles></selection></selections>
        </selection>
        <selection name="Boy" type="model" number="9">
          <selections><selection name="Choppa" type="upgrade" number="9"><profiles><profile typeName="Melee Weapons"/></profiles></selection></selections>
        </selection>
      </selections>
    </selection>
  </selections></force></forces>
</roster>"#;

    #[test]
    fn a_ros_gives_units_models_and_weapons() {
        let r = read_ros(ROS).unwrap();
        assert_eq!(r.name, "Test");
        assert_eq!(r.faction, "Xenos - Orks");
        assert_eq!(r.points, Some(100));
        assert_eq!(r.notes, vec!["Battle Size: Strike Force".to_string()]);
        assert_eq!(r.units.len(), 1);
        assert_eq!(
            r.units[0].items,
            vec![
                Item::Model {
                    count: 1,
                    name: "Boss Nob".into()
                },
                Item::Weapon {
                    count: 1,
                    name: "Big choppa".into()
                },
                Item::Model {
                    count: 9,
                    name: "Boy".into()
                },
                Item::Weapon {
                    count: 9,
                    name: "Choppa".into()
                },
            ]
        );
    }

    #[test]
    fn truncated_xml_names_where_it_stops() {
        let cut = &ROS[..ROS.len() / 2];
        let e = read_ros(cut).unwrap_err().to_string();
        assert!(e.contains("malformed XML"), "{e}");
        assert!(e.contains(':'), "{e}");
    }
}
