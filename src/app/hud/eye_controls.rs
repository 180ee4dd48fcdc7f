//! The model's-eye view's line in the unit panel: who looks at whom, full or picture-in-picture,
//! close.

use bevy_egui::egui;

use super::{AMBER, Hud};
use crate::game::Game;

/// Draws the eye view's controls, when it is open.
pub(super) fn eye_controls(ui: &mut egui::Ui, hud: &mut Hud, game: &Game) {
    let Some(eye) = hud.sight.eye else { return };
    ui.horizontal_wrapped(|ui| {
        ui.colored_label(
            AMBER,
            format!(
                "Model's-eye view: {} looking at {}",
                game.model_name(eye.observer),
                game.model_name(eye.target)
            ),
        );
        if ui
            .small_button(if eye.full {
                "Picture-in-picture (V)"
            } else {
                "Full view (V)"
            })
            .clicked()
            && let Some(e) = hud.sight.eye.as_mut()
        {
            e.full = !e.full;
        }
        if ui.small_button("Close (Esc)").clicked() {
            hud.sight.eye = None;
        }
    });
}
