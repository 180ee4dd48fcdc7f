//! The right panel of the selected unit: its orders, wounds and status, its order of losses,
//! the line-of-sight summary, the eye view's controls, the Stratagems, the army rules with the
//! referee override, its abilities with how the engine treats them, then its datasheet card.

use bevy_egui::egui;

use super::{
    AMBER, Hud, abilities, army_rules, eye_controls, los_summary, losses, orders, stratagems,
};
use crate::app::play::unit_status;
use crate::app::ui::unit_card;
use crate::game::Game;

/// Draws the selected unit's panel.
pub(super) fn unit_panel(ui: &mut egui::Ui, hud: &mut Hud) {
    let Some((_, unit)) = hud.selection.unit.and_then(|e| hud.units.get(e).ok()) else {
        return;
    };
    let unit = unit.clone();
    if ui
        .small_button("Fold to a strip (C)")
        .on_hover_text("Folds the card to one line under the phase bar, leaving the table wide")
        .clicked()
    {
        hud.tools.card_strip = true;
    }
    if let Some(game) = hud.game() {
        orders::orders(ui, hud, &game, unit.army, unit.index);
        ui.separator();
        wounds_and_status(ui, &game, unit.army, unit.index);
        if game.stage == crate::rules::phase::Stage::Battle {
            let editable = hud.handover.seats.computer() != Some(game.player_of(unit.army));
            egui::CollapsingHeader::new("Order of losses")
                .id_salt(("losses", unit.army, unit.index))
                .default_open(false)
                .show(ui, |ui| {
                    let asked =
                        losses::order_of_losses(ui, &game, (unit.army, unit.index), editable);
                    if let Some(c) = asked {
                        crate::app::play::issue(&mut hud.writer, &mut hud.drafting, c);
                    }
                });
        }
        if hud.sight.los && hud.sight.report.observer.is_some() {
            los_summary::los_summary(ui, hud, &game);
        }
        eye_controls::eye_controls(ui, hud, &game);
        stratagems::stratagems(ui, hud, &game, unit.army, unit.index);
        army_rules::army_rules(ui, hud, &game, unit.army, unit.index);
        ui.separator();
    }
    // The abilities, from the game's scene when a game is on (its Attached units), else the
    // scene's.
    let game = hud.game();
    if let Some(scene) = game.as_deref().map(|g| &g.scene).or(hud.scene.0.as_ref()) {
        abilities::abilities(ui, scene, game.as_deref(), unit.army, unit.index);
        ui.separator();
    }
    if let Some(data) = hud
        .scene
        .0
        .as_ref()
        .and_then(|s| s.armies.get(unit.army))
        .and_then(|a| a.units.get(unit.index))
    {
        unit_card(ui, unit.player, data);
    }
}

fn wounds_and_status(ui: &mut egui::Ui, game: &Game, army: usize, unit: usize) {
    let st = unit_status(game, army, unit);
    if !st.is_empty() {
        ui.colored_label(AMBER, st.join(" | "));
    }
    let u = &game.scene.armies[army].units[unit];
    let wounds: Vec<String> = game.units[army][unit]
        .models
        .iter()
        .map(|m| {
            if m.alive {
                m.wounds.to_string()
            } else {
                "x".into()
            }
        })
        .collect();
    let most = u
        .models
        .iter()
        .map(|m| m.characteristics.wounds)
        .max()
        .unwrap_or(u.datasheet.wounds);
    ui.label(format!(
        "Wounds left per model (W{most}): {}",
        wounds.join(" ")
    ));
}

/// The selected unit's card folded to one line under the phase bar: its name, models and
/// wounds left and status ([`crate::app::play::unit_strip`]), and a button to open the card.
pub(super) fn unit_strip(ui: &mut egui::Ui, hud: &mut Hud) {
    let Some((_, unit)) = hud.selection.unit.and_then(|e| hud.units.get(e).ok()) else {
        return;
    };
    let (army, index, player) = (unit.army, unit.index, unit.player);
    ui.horizontal(|ui| {
        if ui.button("Open the card (C)").clicked() {
            hud.tools.card_strip = false;
        }
        let text = match &hud.active.game {
            Some(game) => crate::app::play::unit_strip(game, army, index),
            None => hud
                .scene
                .0
                .as_ref()
                .and_then(|s| s.armies.get(army)?.units.get(index))
                .map(|u| u.name.clone())
                .unwrap_or_default(),
        };
        ui.colored_label(super::player_colour(player), text);
    });
}
