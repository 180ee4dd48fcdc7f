//! The end-of-game screen: the winner, each player's VP after every battle round as a bar
//! chart, and each side's casualties by unit.

use bevy_egui::egui;

use super::{AMBER, Hud, player_colour};
use crate::app::play::GameSummary;

/// Draws the summary window over the table (closed with "Back to the table"; the phase bar's
/// "Summary" button opens it again).
pub(super) fn summary_window(ctx: &egui::Context, hud: &mut Hud) {
    let Some(game) = &hud.active.game else { return };
    let s = GameSummary::of(game, &hud.log.actions);
    let mut close = false;
    egui::Window::new("Game over")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .default_width(560.0)
        .show(ctx, |ui| {
            ui.heading(
                egui::RichText::new(match s.winner {
                    Some(w) => format!("Player {w} wins, {} VP to {}", s.vp[0], s.vp[1]),
                    None => format!("A draw, {} VP to {}", s.vp[0], s.vp[1]),
                })
                .color(s.winner.map_or(AMBER, player_colour)),
            );
            ui.label("Victory points at the end of each battle round");
            vp_chart(ui, &s);
            ui.separator();
            ui.columns(2, |cols| {
                for (i, col) in cols.iter_mut().enumerate() {
                    let p = i as u8 + 1;
                    col.colored_label(
                        player_colour(p),
                        format!("Player {p} casualties ({} pts destroyed)", s.points_lost[i]),
                    );
                    if s.casualties[i].is_empty() {
                        col.weak("none");
                    }
                    egui::Grid::new(("casualties", i))
                        .striped(true)
                        .show(col, |ui| {
                            for u in &s.casualties[i] {
                                ui.label(&u.name);
                                ui.label(if u.destroyed {
                                    "destroyed".to_string()
                                } else if u.models_lost == 0 {
                                    format!("{} wounds lost", u.wounds_lost)
                                } else {
                                    format!(
                                        "{} of {} models lost",
                                        u.models_lost, u.starting_strength
                                    )
                                });
                                ui.end_row();
                            }
                        });
                }
            });
            ui.separator();
            close = ui.button("Back to the table").clicked();
        });
    if close {
        hud.tools.summary_hidden = true;
    }
}

/// Grouped bars: for each battle round, player 1's and player 2's VP total, with the values.
fn vp_chart(ui: &mut egui::Ui, s: &GameSummary) {
    let rounds = s.vp_by_round.len().max(1);
    let height = 120.0;
    let width = ui.available_width().min(520.0);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(width, height + 32.0), egui::Sense::hover());
    let p = ui.painter_at(rect);
    let top = s
        .vp_by_round
        .iter()
        .flat_map(|r| r.iter().copied())
        .max()
        .unwrap_or(0)
        .max(1) as f32
        * 1.15;
    let slot = width / rounds as f32;
    let bar = (slot * 0.3).min(28.0);
    let base = rect.top() + height + 4.0;
    let font = egui::FontId::proportional(11.0);
    let text = ui.visuals().text_color();
    p.line_segment(
        [
            egui::pos2(rect.left(), base),
            egui::pos2(rect.right(), base),
        ],
        egui::Stroke::new(1.0, text),
    );
    for (r, row) in s.vp_by_round.iter().enumerate() {
        let cx = rect.left() + slot * (r as f32 + 0.5);
        for (i, &vp) in row.iter().enumerate() {
            let h = height * vp as f32 / top;
            let x0 = cx + if i == 0 { -bar - 1.0 } else { 1.0 };
            let b = egui::Rect::from_min_max(egui::pos2(x0, base - h), egui::pos2(x0 + bar, base));
            p.rect_filled(b, 1.0, player_colour(i as u8 + 1));
            p.text(
                egui::pos2(x0 + bar / 2.0, base - h - 2.0),
                egui::Align2::CENTER_BOTTOM,
                vp.to_string(),
                font.clone(),
                text,
            );
        }
        p.text(
            egui::pos2(cx, base + 3.0),
            egui::Align2::CENTER_TOP,
            format!("Round {}", r + 1),
            font.clone(),
            text,
        );
    }
}
