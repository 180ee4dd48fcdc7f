//! The editor's right panel: the layout's problems, its 180° symmetry, and the sight analysis
//! (share of the table each zone sees, open lanes, asymmetry, objectives seen).

use std::sync::atomic::Ordering;

use bevy_egui::egui;

use super::{Editor, GREEN, HeatmapView, RED};
use crate::design::mirror::unmatched;
use crate::design::picture;

/// Draws the right panel.
pub(super) fn analysis_panel(ui: &mut egui::Ui, editor: &mut Editor) {
    ui.heading("Problems");
    if editor.problems.is_empty() {
        ui.colored_label(
            GREEN,
            "No pieces off the table, overlapping, or objectives in walls.",
        );
    }
    for p in &editor.problems {
        ui.colored_label(RED, &p.message);
    }
    let missing = unmatched(&editor.design.layout);
    if missing.is_empty() {
        ui.colored_label(GREEN, "The layout is its own 180° image.");
    } else {
        ui.label(format!("Without a 180° image: {}", missing.join(", ")));
    }
    ui.separator();
    ui.heading("Analysis");
    ui.horizontal(|ui| {
        ui.label("cell");
        for cell in [0.5, 1.0, 2.0] {
            ui.radio_value(&mut editor.cell, cell, format!("{cell}\""));
        }
    });
    match &editor.running {
        Some(run) => {
            let f = run.done.load(Ordering::Relaxed) as f32 / run.total.max(1) as f32;
            ui.add(
                egui::ProgressBar::new(f.min(1.0))
                    .show_percentage()
                    .text("analysing"),
            );
        }
        None => {
            if ui.button("Analyse sight").clicked() {
                editor.start_analysis();
            }
        }
    }
    ui.horizontal(|ui| {
        ui.label("heatmap");
        ui.radio_value(&mut editor.heatmap, HeatmapView::Off, "off");
        ui.radio_value(&mut editor.heatmap, HeatmapView::Infantry, "infantry");
        ui.radio_value(&mut editor.heatmap, HeatmapView::Vehicle, "vehicle");
    });
    let Some((a, input)) = &editor.analysis else {
        ui.weak("Analyse to see what each deployment zone sees.");
        return;
    };
    // The analysis keeps the pieces it was made from.
    if editor.design.resolved().pieces != input.pieces {
        ui.weak("(made before the last edits)");
    }
    for (k, colour) in [(1, "blue"), (2, "red"), (3, "purple"), (0, "dark")] {
        let [r, g, b] = picture::SEEN_COLOURS[k];
        let text = match k {
            0 => "seen from neither zone",
            1 => "seen from player 1's zone only",
            2 => "seen from player 2's zone only",
            _ => "seen from both zones",
        };
        ui.colored_label(
            egui::Color32::from_rgb(r, g, b),
            format!("■ {text} ({colour})"),
        );
    }
    egui::Grid::new("zones").striped(true).show(ui, |ui| {
        ui.strong("zone");
        ui.strong("infantry");
        ui.strong("vehicle");
        ui.end_row();
        for z in &a.zones {
            ui.label(format!("P{} {}", z.player, z.name));
            ui.label(format!("{:.1}%", z.infantry_visible_share * 100.0));
            ui.label(format!("{:.1}%", z.vehicle_visible_share * 100.0));
            ui.end_row();
        }
    });
    ui.label(format!(
        "Open lanes: {} ({} of {} lines clear)",
        a.lanes.count, a.lanes.clear_lines, a.lanes.lines
    ));
    ui.label(format!(
        "Asymmetry: {:.3} (infantry {:.3}, vehicle {:.3})",
        a.asymmetry.score, a.asymmetry.infantry, a.asymmetry.vehicle
    ));
    if let Some(h) = a.hidden_share {
        ui.label(format!(
            "11th edition: an INFANTRY model may be Hidden on {:.1}% of the table",
            h * 100.0
        ))
        .on_hover_text("Within a terrain area holding a Light or Dense feature");
    }
    egui::Grid::new("objectives").striped(true).show(ui, |ui| {
        ui.strong("objective");
        ui.strong("seen from");
        ui.end_row();
        for o in &a.objectives {
            ui.label(&o.id);
            ui.label(
                o.seen_from
                    .iter()
                    .map(|(p, s)| format!("P{p} {:.0}%", s * 100.0))
                    .collect::<Vec<_>>()
                    .join("  "),
            );
            ui.end_row();
        }
    });
}
