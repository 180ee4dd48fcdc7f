//! The armies list on the left: each player's units with their status words; a click selects.

use bevy::prelude::*;
use bevy_egui::egui;

use super::Hud;
use crate::app::ui::unit_label;
use crate::game::Game;
use crate::rules::movement::{MoveMode, Moved};
use crate::sim::components::Unit;

/// Status words of a unit: Battle-shocked, Advanced, Fell Back, charged, in Engagement Range...
pub fn unit_status(game: &Game, army: usize, unit: usize) -> Vec<&'static str> {
    let root = game.combined(army, unit)[0];
    let s = &game.units[army][root];
    let mut out = Vec::new();
    match s.location {
        crate::game::Location::NotDeployed => out.push("not deployed"),
        crate::game::Location::Reserves(_) => out.push("in Reserves"),
        crate::game::Location::Embarked(_) => out.push("embarked"),
        crate::game::Location::Destroyed => return vec!["destroyed"],
        crate::game::Location::OnTable => {}
    }
    if game.live_models_anywhere(army, root).is_empty() {
        return vec!["destroyed"];
    }
    if s.battle_shocked {
        out.push("Battle-shocked");
    }
    match s.moved {
        Some(Moved::Moved(MoveMode::Advance)) => out.push("Advanced"),
        Some(Moved::Moved(MoveMode::FallBack)) => out.push("Fell Back"),
        Some(Moved::Moved(MoveMode::Normal)) => out.push("moved"),
        Some(Moved::Stationary) => out.push("Remained Stationary"),
        Some(Moved::SetUp) => out.push("set up"),
        None => {}
    }
    if s.shot {
        out.push("shot");
    }
    if s.charged {
        out.push("charged");
    }
    if s.fought {
        out.push("fought");
    }
    if !game.live_models(army, root).is_empty() && game.engaged(army, root) {
        out.push("in Engagement Range");
    }
    if s.location == crate::game::Location::OnTable && game.below_half_strength(army, root) {
        out.push("Below Half-strength");
    }
    out
}

/// Draws the armies list.
pub(super) fn armies(ui: &mut egui::Ui, hud: &mut Hud) {
    let Some(scene) = hud.scene.0.as_ref() else {
        return;
    };
    let mut sorted: Vec<(Entity, Unit)> = hud.units.iter().map(|(e, u)| (e, u.clone())).collect();
    sorted.sort_by_key(|(_, u)| (u.army, u.index));
    for (ai, army) in scene.armies.iter().enumerate() {
        let points: u32 = army.units.iter().filter_map(|u| u.points).sum();
        ui.heading(format!("Player {}", army.player));
        ui.label(format!("{} ({}, {points} pts)", army.name, army.faction));
        for (entity, unit) in sorted.iter().filter(|(_, u)| u.army == ai) {
            let Some(data) = army.units.get(unit.index) else {
                continue;
            };
            let mut label = unit_label(scene, ai, data);
            if let Some(game) = &hud.active.game {
                let st = unit_status(game, ai, unit.index);
                if !st.is_empty() {
                    label.push_str(&format!("  [{}]", st.join(", ")));
                }
            }
            let chosen = hud.selection.unit == Some(*entity);
            if ui.selectable_label(chosen, label).clicked() {
                hud.selection.unit = if chosen { None } else { Some(*entity) };
            }
        }
        ui.separator();
    }
}
