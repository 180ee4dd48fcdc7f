//! The armies list on the left: each player's units with their status words; a click selects.

use bevy::prelude::*;
use bevy_egui::egui;

use super::Hud;
use crate::app::play::unit_status;
use crate::app::ui::unit_label;
use crate::sim::components::Unit;

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
