//! The dice log at the bottom: the last refusal, the filter (player, phase), then one line per
//! action in words with its dice drawn as die faces (green: a success, grey: a failure); a
//! click on a line opens its full event list.

use bevy_egui::egui;

use super::{RED, player_colour};
use crate::app::play::{DICE_LOG_SHOWN, DiceLog, EntryKind, LogEntry};
use crate::rules::phase::Phase;

/// Draws the dice log.
pub(super) fn dice_log(ui: &mut egui::Ui, log: &mut DiceLog) {
    ui.horizontal(|ui| {
        ui.strong("Dice log");
        ui.label("Player");
        for (value, label) in [(None, "both"), (Some(1u8), "1"), (Some(2), "2")] {
            ui.selectable_value(&mut log.filter.player, value, label);
        }
        ui.separator();
        ui.label("Phase");
        let mut phases: Vec<(Option<Option<Phase>>, &str)> =
            vec![(None, "all"), (Some(None), "set-up/end")];
        phases.extend(
            Phase::ORDER
                .iter()
                .map(|&p| (Some(Some(p)), p.name().trim_end_matches(" phase"))),
        );
        for (value, label) in phases {
            ui.selectable_value(&mut log.filter.phase, value, label);
        }
        if let Some((kind, r)) = &log.rejection {
            ui.separator();
            ui.colored_label(RED, format!("{kind} refused - {r}"));
        }
    });
    let shown: Vec<usize> = log
        .actions
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| log.filter.shows(e))
        .map(|(i, _)| i)
        .collect();
    let skipped = shown.len().saturating_sub(DICE_LOG_SHOWN);
    egui::ScrollArea::vertical()
        .stick_to_bottom(true)
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if skipped > 0 {
                ui.weak(format!("{skipped} earlier entries not shown"));
            }
            for &i in &shown[skipped..] {
                let open = log.expanded.contains(&i);
                if entry_row(ui, &log.actions.entries[i], open) {
                    if open {
                        log.expanded.remove(&i);
                    } else {
                        log.expanded.insert(i);
                    }
                }
            }
        });
}

/// One entry; true when its line was clicked (to open or close its events).
fn entry_row(ui: &mut egui::Ui, e: &LogEntry, open: bool) -> bool {
    let mut clicked = false;
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        match e.kind {
            EntryKind::Heading => {
                ui.strong(&e.headline);
                return;
            }
            EntryKind::Refused => {
                ui.colored_label(RED, &e.headline);
                return;
            }
            EntryKind::Note => {
                ui.weak(&e.headline);
                return;
            }
            EntryKind::Action => {}
        }
        let colour = e.player.map_or(ui.visuals().text_color(), player_colour);
        clicked |= triangle(ui, open, colour).clicked();
        if let Some(p) = e.player {
            ui.colored_label(colour, format!("P{p}"));
        }
        let r = ui.add(egui::Label::new(&e.headline).sense(egui::Sense::click()));
        clicked |= r.on_hover_text("Click for every event").clicked();
        for g in &e.dice {
            ui.weak(&g.label);
            for &(d, ok) in &g.dice {
                die(ui, d, ok);
            }
        }
        if !e.outcome.is_empty() {
            ui.label(format!("— {}", e.outcome.join(", ")));
        }
    });
    if open {
        ui.indent("events", |ui| {
            for ev in &e.events {
                ui.monospace(ev);
            }
        });
    }
    clicked
}

/// The open/closed marker of an entry: a small triangle pointing right (closed) or down.
fn triangle(ui: &mut egui::Ui, open: bool, colour: egui::Color32) -> egui::Response {
    let (rect, r) = ui.allocate_exact_size(egui::vec2(10.0, 14.0), egui::Sense::click());
    let c = rect.center();
    let points = if open {
        vec![
            egui::pos2(c.x - 4.0, c.y - 2.5),
            egui::pos2(c.x + 4.0, c.y - 2.5),
            egui::pos2(c.x, c.y + 3.5),
        ]
    } else {
        vec![
            egui::pos2(c.x - 2.5, c.y - 4.0),
            egui::pos2(c.x + 3.5, c.y),
            egui::pos2(c.x - 2.5, c.y + 4.0),
        ]
    };
    ui.painter().add(egui::Shape::convex_polygon(
        points,
        colour,
        egui::Stroke::NONE,
    ));
    r
}

/// Draws one die: a rounded square with its pips (a number above 6 is written), green when it
/// succeeded, grey when not.
fn die(ui: &mut egui::Ui, value: u8, ok: bool) {
    let size = 14.0;
    let (rect, _) = ui.allocate_exact_size(egui::vec2(size, size), egui::Sense::hover());
    let p = ui.painter();
    let (fill, pip) = if ok {
        (
            egui::Color32::from_rgb(225, 245, 225),
            egui::Color32::from_rgb(20, 90, 30),
        )
    } else {
        (egui::Color32::from_gray(150), egui::Color32::from_gray(40))
    };
    p.rect_filled(rect, 2.5, fill);
    let c = rect.center();
    let o = size * 0.27;
    let at = |dx: f32, dy: f32| egui::pos2(c.x + dx * o, c.y + dy * o);
    let pips: &[(f32, f32)] = match value {
        1 => &[(0.0, 0.0)],
        2 => &[(-1.0, -1.0), (1.0, 1.0)],
        3 => &[(-1.0, -1.0), (0.0, 0.0), (1.0, 1.0)],
        4 => &[(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)],
        5 => &[
            (-1.0, -1.0),
            (1.0, -1.0),
            (0.0, 0.0),
            (-1.0, 1.0),
            (1.0, 1.0),
        ],
        6 => &[
            (-1.0, -1.0),
            (1.0, -1.0),
            (-1.0, 0.0),
            (1.0, 0.0),
            (-1.0, 1.0),
            (1.0, 1.0),
        ],
        _ => {
            p.text(
                c,
                egui::Align2::CENTER_CENTER,
                value.to_string(),
                egui::FontId::monospace(9.0),
                pip,
            );
            &[]
        }
    };
    for &(dx, dy) in pips {
        p.circle_filled(at(dx, dy), 1.4, pip);
    }
}
