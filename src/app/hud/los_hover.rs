//! The tooltip by the cursor naming what hides the hovered enemy model.

use bevy_egui::egui;

use super::Hud;
use crate::app::overlay::hover_text;

/// Draws the hover text next to the cursor.
pub(super) fn los_hover(ctx: &egui::Context, hud: &Hud) {
    let Some(text) = hover_text(&hud.sight, hud.active.game.as_ref()) else {
        return;
    };
    if let Some(pos) = ctx.pointer_latest_pos() {
        egui::Area::new("los-hover".into())
            .fixed_pos(pos + egui::vec2(16.0, 16.0))
            .order(egui::Order::Tooltip)
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.label(text);
                });
            });
    }
}
