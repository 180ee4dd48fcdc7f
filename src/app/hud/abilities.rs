//! The Abilities section of the unit card: every ability of the selected unit's datasheet, and
//! of each other unit of its Attached unit (its Leaders, or the Bodyguard it leads), and their
//! Enhancements, each marked with how the engine treats it: applied by the engine, by hand
//! (with the referee override) or list-building ([`ability_statuses`]; Core Rules: Abilities,
//! Army Rules, Detachment Rules, Enhancements, Leader).

use bevy_egui::egui;

use super::{AMBER, GREEN};
use crate::data::faction_rules::{self as fr, RuleStatus, ability_statuses};
use crate::data::{Army, Scene};
use crate::game::Game;

/// Draws the Abilities section of unit `unit` of army `army`. With a game, its Attached unit
/// is the game's (Leaders may have been detached); without one, the scene's.
pub(super) fn abilities(
    ui: &mut egui::Ui,
    scene: &Scene,
    game: Option<&Game>,
    army: usize,
    unit: usize,
) {
    let Some(a) = scene.armies.get(army) else {
        return;
    };
    if a.units.get(unit).is_none() {
        return;
    }
    let units = attached(a, game, army, unit);
    egui::CollapsingHeader::new("Abilities")
        .id_salt(("abilities", army, unit))
        .default_open(false)
        .show(ui, |ui| {
            let offered = offered_rules(a);
            for &x in &units {
                let Some(u) = a.units.get(x) else {
                    continue;
                };
                if units.len() > 1 {
                    ui.strong(role(a, game, army, unit, x));
                }
                unit_abilities(ui, u, &offered);
            }
        });
}

/// The units whose abilities the section lists: `unit` first, then the other units of its
/// Attached unit (Bodyguard first, then Leaders, in army order). Core Rules: Leader.
fn attached(a: &Army, game: Option<&Game>, army: usize, unit: usize) -> Vec<usize> {
    let mut out = vec![unit];
    let others: Vec<usize> = match game {
        Some(g) => g.combined(army, unit),
        None => {
            // The scene's attachment: the Bodyguard the unit leads (or the unit), then the
            // Leaders attached to it.
            let root_id = a.units[unit]
                .attached_to
                .clone()
                .unwrap_or_else(|| a.units[unit].id.clone());
            let root = a.units.iter().position(|u| u.id == root_id);
            root.into_iter()
                .chain(
                    (0..a.units.len())
                        .filter(|&x| a.units[x].attached_to.as_deref() == Some(root_id.as_str())),
                )
                .collect()
        }
    };
    for x in others {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

/// The heading of one unit of an Attached unit: "This unit", "Leader: <name>" or
/// "Bodyguard: <name>".
fn role(a: &Army, game: Option<&Game>, army: usize, selected: usize, x: usize) -> String {
    let name = a.units.get(x).map_or("", |u| u.name.as_str());
    if x == selected {
        return format!("This unit: {name}");
    }
    let leads = match game {
        Some(g) => g.units[army][x].leading.is_some(),
        None => a.units[x].attached_to.is_some(),
    };
    if leads {
        format!("Leader: {name}")
    } else {
        format!("Bodyguard: {name}")
    }
}

/// The rules a datasheet ability may be named after: the army rules, its Detachment's rules
/// and the faction's shared abilities (as `wartable rules` counts them).
fn offered_rules(a: &Army) -> Vec<&fr::Rule> {
    a.rules
        .army_rules
        .iter()
        .chain(a.rules.detachment.iter().flat_map(|d| &d.rules))
        .chain(&a.rules.abilities)
        .collect()
}

/// One line per ability of the unit's datasheet and per Enhancement it has, each with its
/// mark; the hover text says why (or what the Enhancement does).
fn unit_abilities(ui: &mut egui::Ui, u: &crate::data::Unit, offered: &[&fr::Rule]) {
    let list = ability_statuses(&u.datasheet, offered);
    if list.is_empty() && u.enhancements.is_empty() {
        ui.weak("No abilities.");
    }
    for s in &list {
        let hover = match s.status {
            RuleStatus::Manual => format!("{}: apply it with the referee override", s.by),
            _ => s.by.to_string(),
        };
        status_line(ui, &s.name, s.status, &hover);
    }
    for e in &u.enhancements {
        let status = RuleStatus::of(&e.effects, false);
        let hover = if e.text.is_empty() {
            "Enhancement".to_string()
        } else {
            e.text.clone()
        };
        status_line(
            ui,
            &format!("Enhancement: {} ({} pts)", e.name, e.points),
            status,
            &hover,
        );
    }
}

/// One ability's line: its name and its mark, with `hover` on both.
pub(super) fn status_line(ui: &mut egui::Ui, name: &str, status: RuleStatus, hover: &str) {
    ui.horizontal_wrapped(|ui| {
        ui.label(name).on_hover_text(hover);
        let (mark, colour) = mark(status);
        ui.colored_label(colour, mark).on_hover_text(hover);
    });
}

/// The mark of a status: "applied" (the engine applies it), "by hand" (the referee override)
/// or "list-building", with its colour.
fn mark(status: RuleStatus) -> (&'static str, egui::Color32) {
    match status {
        RuleStatus::Applied => ("applied", GREEN),
        RuleStatus::Manual => ("by hand", AMBER),
        RuleStatus::ListBuilding => ("list-building", egui::Color32::GRAY),
    }
}
