//! The odds of an attack as a bar chart.

use bevy_egui::egui;

use crate::app::play;
use crate::game::Game;
use crate::game::preview::AttackPreview;
use crate::rules::attack::exact::AttackDistribution;

/// The expected damage and the models-destroyed distribution of one target, as a bar chart;
/// `player` is the attacker, whose models and whose enemy's unit are named as the cards name
/// them.
pub fn preview_chart(ui: &mut egui::Ui, game: &Game, player: u8, p: &AttackPreview) {
    let d: &AttackDistribution = &p.distribution;
    let enemy = if player == 1 { 2 } else { 1 };
    ui.label(format!(
        "At {}: {} bearers, expected {:.2} wounds, {:.2} of {} models destroyed{}",
        play::unit_name(game, enemy, &p.target),
        p.bearers,
        d.expected_wounds_lost,
        d.expected_models_destroyed,
        p.target_models,
        if p.benefit_of_cover {
            " (Benefit of Cover)"
        } else {
            ""
        }
    ));
    let bars = &d.models_destroyed;
    let n = bars.len().max(1);
    let (rect, _) = ui.allocate_exact_size(
        egui::vec2(ui.available_width().min(330.0), 90.0),
        egui::Sense::hover(),
    );
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, egui::Color32::from_gray(30));
    let w = rect.width() / n as f32;
    let top = bars.iter().copied().fold(0.0f64, f64::max).max(1e-9);
    for (k, &pk) in bars.iter().enumerate() {
        let h = (pk / top) as f32 * (rect.height() - 16.0);
        let x0 = rect.left() + k as f32 * w;
        let bar = egui::Rect::from_min_max(
            egui::pos2(x0 + 1.0, rect.bottom() - 14.0 - h),
            egui::pos2(x0 + w - 1.0, rect.bottom() - 14.0),
        );
        painter.rect_filled(bar, 1.0, egui::Color32::from_rgb(90, 150, 230));
        painter.text(
            egui::pos2(x0 + w / 2.0, rect.bottom() - 7.0),
            egui::Align2::CENTER_CENTER,
            k.to_string(),
            egui::FontId::proportional(10.0),
            egui::Color32::LIGHT_GRAY,
        );
        if pk >= 0.005 {
            painter.text(
                egui::pos2(x0 + w / 2.0, bar.top() - 6.0),
                egui::Align2::CENTER_CENTER,
                format!("{:.0}%", pk * 100.0),
                egui::FontId::proportional(9.0),
                egui::Color32::WHITE,
            );
        }
    }
    ui.weak("Models destroyed: probability of each count");
    if !p.excluded.is_empty() {
        // The engine names each model `unit#N` and gives the reason after a colon.
        let named: Vec<String> = p
            .excluded
            .iter()
            .map(|e| match e.split_once(": ") {
                Some((model, why)) => format!("{}: {why}", play::model_name(game, player, model)),
                None => e.clone(),
            })
            .collect();
        ui.weak(format!("Not attacking: {}", named.join("; ")));
    }
}
