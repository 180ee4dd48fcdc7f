//! The measuring tape's window: the distance between the two ends clicked (models, points on
//! the table, terrain pieces, objective markers).

use bevy_egui::egui;

use super::Hud;
use crate::app::play::{end_name, tape_text};

/// Draws the tape's window, when the tape is on.
pub(super) fn tape_window(ctx: &egui::Context, hud: &mut Hud) {
    let (Some(tape), Some(game)) = (&hud.tools.tape, &hud.active.game) else {
        return;
    };
    let text = match &tape.picks[..] {
        [a, b] => tape_text(game, a, b),
        [a] => format!(
            "From {}: click a model, the table, a terrain piece or an objective",
            end_name(game, a)
        ),
        _ => "Click a model, a point on the table, a terrain piece or an objective, then another"
            .into(),
    };
    egui::Window::new("Measuring tape (T)")
        .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(260.0, -140.0))
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label(text);
        });
}
