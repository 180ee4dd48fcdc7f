//! The owner's order of losses for a unit, on its card and in the reaction window: which of its
//! models take the enemy's attacks first, and which go first when it must be brought back into
//! Unit Coherency ([`Command::AllocationOrder`]; Core Rules: Allocate Attack). The engine's
//! order ([`Game::allocation_order`]) is listed with a button to move a model earlier or later
//! and one to restore the default.

use bevy_egui::egui;

use crate::game::{Command, Game};

/// One line per model still alive of unit `unit` of army `army`, in the order it is lost:
/// `unit#N`, its wounds left and weapons. Returns the command a click asks for, if any.
/// With `editable` false (the computer's units) the order is only shown.
pub fn order_of_losses(
    ui: &mut egui::Ui,
    game: &Game,
    (army, unit): (usize, usize),
    editable: bool,
) -> Option<Command> {
    let data = &game.scene.armies[army].units[unit];
    let state = &game.units[army][unit];
    let player = game.player_of(army);
    let full = game.allocation_order(army, unit);
    let alive: Vec<usize> = full
        .into_iter()
        .filter(|&i| state.models[i].alive)
        .collect();
    if alive.len() < 2 {
        return None;
    }
    let mut asked = None;
    let chosen = !state.allocation_order.is_empty();
    let name = |i: usize| format!("{}#{i}", data.id);
    let with_order = |order: Vec<usize>| Command::AllocationOrder {
        player,
        unit: data.id.clone(),
        models: order.into_iter().map(name).collect(),
    };
    ui.horizontal(|ui| {
        ui.weak(if chosen {
            "Your order; lost first at the top."
        } else {
            "Default: plain models first, then special, multi-wound and CHARACTER models."
        });
        if chosen
            && editable
            && ui
                .small_button("Default")
                .on_hover_text("Plain models first, then special, multi-wound and CHARACTER models")
                .clicked()
        {
            asked = Some(with_order(Vec::new()));
        }
    });
    for (k, &i) in alive.iter().enumerate() {
        let m = &data.models[i];
        ui.horizontal(|ui| {
            if editable {
                let up = ui
                    .add_enabled(k > 0, egui::Button::new("^").small())
                    .on_hover_text("Lose this model earlier");
                let down = ui
                    .add_enabled(k + 1 < alive.len(), egui::Button::new("v").small())
                    .on_hover_text("Lose this model later");
                let swap = if up.clicked() {
                    Some(k - 1)
                } else if down.clicked() {
                    Some(k + 1)
                } else {
                    None
                };
                if let Some(j) = swap {
                    let mut order = alive.clone();
                    order.swap(k, j);
                    asked = Some(with_order(order));
                }
            }
            ui.label(format!(
                "{}. {} W{}/{}: {}",
                k + 1,
                name(i),
                state.models[i].wounds,
                m.characteristics.wounds,
                m.weapons.join(", ")
            ));
        });
    }
    asked
}
