//! The window listing why the scene could not be loaded.

use bevy_egui::egui;

use super::RED;

/// The scene's errors, one line each, in red.
pub(super) fn scene_errors(ctx: &egui::Context, errors: &[String]) {
    egui::Window::new("Scene errors")
        .default_width(520.0)
        .show(ctx, |ui| {
            ui.label("The scene could not be loaded; fix these and reopen it:");
            for e in errors {
                ui.colored_label(RED, e);
            }
        });
}
