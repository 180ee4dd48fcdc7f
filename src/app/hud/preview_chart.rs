//! The odds of an attack as a bar chart.

use bevy_egui::egui;

use crate::game::preview::AttackPreview;
use crate::rules::attack::exact::AttackDistribution;

/// The expected damage and the models-destroyed distribution of one target, as a bar chart.
pub fn preview_chart(ui: &mut egui::Ui, p: &AttackPreview) {
    let d: &AttackDistribution = &p.distribution;
    ui.label(format!(
        "At {}: {} bearers, expected {:.2} wounds, {:.2} of {} models destroyed{}",
        p.target,
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
        ui.weak(format!("Not attacking: {}", p.excluded.join("; ")));
    }
}
