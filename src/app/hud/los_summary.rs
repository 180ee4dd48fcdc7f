//! The line-of-sight summary of the selected unit: per enemy unit, how many models it sees,
//! fully or not, with the Benefit of Cover and a button for the model's-eye view.

use bevy_egui::egui;

use super::{AMBER, GREEN, Hud};
use crate::app::play::{self, SightStatus};
use crate::game::Game;

/// Draws the line-of-sight summary.
pub(super) fn los_summary(ui: &mut egui::Ui, hud: &mut Hud, game: &Game) {
    ui.separator();
    ui.strong("Line of sight (L)");
    let report = hud.sight.report.clone();
    let Some((army, _)) = report.observer else {
        return;
    };
    let Some(enemy) = game.army_of(if game.player_of(army) == 1 { 2 } else { 1 }) else {
        return;
    };
    for u in game.unit_roots(enemy) {
        let models: Vec<_> = report
            .targets
            .iter()
            .filter(|t| game.combined(enemy, u).contains(&t.model.unit))
            .collect();
        if models.is_empty() {
            continue;
        }
        let fully = models
            .iter()
            .filter(|t| t.status == SightStatus::FullyVisible)
            .count();
        let visible = models
            .iter()
            .filter(|t| t.status != SightStatus::NotVisible)
            .count();
        let cover = models.iter().filter(|t| t.cover.is_some()).count();
        let colour = if fully > 0 {
            GREEN
        } else if visible > 0 {
            AMBER
        } else {
            egui::Color32::GRAY
        };
        ui.horizontal(|ui| {
            ui.colored_label(
                colour,
                format!(
                    "{}: {visible}/{} visible, {fully} fully",
                    game.scene.armies[enemy].units[u].name,
                    models.len()
                ),
            );
            // Why nothing of it is seen: the first model's blocker or rule (a wall, an
            // Obscuring area, "hidden: 17.2\" > 15\"").
            if visible == 0
                && let Some(reason) = models.iter().find_map(|t| t.reason.as_ref())
            {
                let player = game.player_of(enemy);
                ui.weak(format!("({})", play::readable(game, player, reason)));
            }
            if cover > 0 {
                ui.colored_label(AMBER, "[Cover]").on_hover_text(
                    models
                        .iter()
                        .filter_map(|t| t.cover.clone())
                        .next()
                        .unwrap_or_default(),
                );
            }
            if visible > 0
                && ui
                    .small_button("eye")
                    .on_hover_text("Model's-eye view of this unit")
                    .clicked()
                && let Some(target) = models.iter().find(|t| t.status != SightStatus::NotVisible)
                && let Some(observer) = game
                    .live_models(army, report.observer.expect("checked").1)
                    .first()
                    .copied()
            {
                hud.sight.eye = Some(play::EyeView {
                    observer,
                    target: target.model,
                    full: false,
                });
            }
        });
    }
}
