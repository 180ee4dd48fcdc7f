//! The dice log at the bottom: the last refusal, then every event of the game.

use bevy_egui::egui;

use super::RED;
use crate::app::play::DiceLog;

/// Draws the dice log.
pub(super) fn dice_log(ui: &mut egui::Ui, log: &DiceLog) {
    if let Some((kind, r)) = &log.rejection {
        ui.colored_label(RED, format!("{kind} refused - {r}"));
    }
    egui::ScrollArea::vertical()
        .stick_to_bottom(true)
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for line in &log.lines {
                if line.starts_with("REJECTED") {
                    ui.colored_label(RED, line);
                } else {
                    ui.monospace(line);
                }
            }
        });
}
