//! The hand-over screen of a hot-seat game: it covers the table until the next player says
//! they have it.

use bevy_egui::egui;

use super::Hud;

/// Covers the table with "Hand the table to player N" and a button for that player.
pub(super) fn handover_screen(ctx: &egui::Context, hud: &mut Hud, player: u8) {
    egui::Area::new("handover".into())
        .fixed_pos(egui::pos2(0.0, 0.0))
        .order(egui::Order::Foreground)
        .show(ctx, |ui| {
            let rect = ctx.viewport_rect();
            ui.painter()
                .rect_filled(rect, 0.0, egui::Color32::from_black_alpha(235));
            ui.scope_builder(egui::UiBuilder::new().max_rect(rect), |ui| {
                ui.vertical_centered(|ui| {
                    ui.add_space(rect.height() * 0.35);
                    ui.heading(format!("Hand the table to player {player}"));
                    if let Some(g) = &hud.active.game {
                        ui.label(g.describe_now());
                    }
                    ui.add_space(12.0);
                    if ui
                        .button("I am player ".to_string() + &player.to_string())
                        .clicked()
                    {
                        hud.handover.to = None;
                    }
                });
            });
        });
}
