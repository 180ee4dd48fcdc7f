//! The drafted move's window: distance used and allowed, each leg's length, the engine's
//! verdict, Confirm, Into base contact and Cancel.

use bevy_egui::egui;

use super::{GREEN, Hud, RED};
use crate::app::play::{self, Verdict, draft_distance};

/// Draws the draft's window, when a move is drafted. It reads the command, verdict and
/// distance budget the draft checker worked out when the draft last changed.
pub(super) fn draft_window(ctx: &egui::Context, hud: &mut Hud) {
    let Some(game) = hud.active.game.as_ref() else {
        return;
    };
    let Some(draft) = hud.drafting.draft.clone() else {
        return;
    };
    let used = draft_distance(game, &draft);
    let limit = hud.drafting.budget;
    // A unit set up from off the table (Reserves, a TRANSPORT) is placed, not moved.
    let placed = !matches!(
        game.units[draft.army][draft.unit].location,
        crate::game::Location::OnTable
    );
    // Centred over the table's part of the window, under the phase bar.
    let insets = *hud.insets;
    egui::Window::new(if placed { "Set up" } else { "Move" })
        .anchor(
            egui::Align2::CENTER_TOP,
            egui::vec2((insets.left - insets.right) / 2.0, insets.top + 8.0),
        )
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            let distance = match limit {
                _ if placed => "set up where the ghost stands".to_string(),
                Some(b) => format!(
                    "{:.1}\" used of {:.1}\" ({:.1}\" left)",
                    b.used, b.allowed, b.left
                ),
                None => format!("{used:.1}\" used"),
            };
            ui.label(format!(
                "{} - {distance}",
                play::unit_name(
                    game,
                    game.player_of(draft.army),
                    game.unit_id(draft.army, draft.unit)
                )
            ));
            // Each leg's length: a Shift-drag adds a leg from the drafted ends.
            let legs = play::leg_lengths(game, &draft);
            if !placed && legs.len() > 1 {
                let parts: Vec<String> = legs.iter().map(|l| format!("{l:.1}\"")).collect();
                ui.label(format!("Legs: {}", parts.join(" + ")));
                // Leg by leg: the first leg the engine refuses is where the path goes wrong.
                let checks = hud.drafting.leg_verdicts.clone();
                if let Some(k) = checks.iter().position(|v| !v.is_legal())
                    && k + 1 < checks.len()
                    && let Some(Verdict::Illegal(r)) = checks.get(k)
                {
                    let player = game.player_of(draft.army);
                    ui.colored_label(
                        RED,
                        format!(
                            "Leg {} is refused - {}",
                            k + 1,
                            play::readable(game, player, &r.to_string())
                        ),
                    );
                }
            } else if !placed {
                ui.weak("Shift-drag adds a leg (a waypoint), to go round a wall");
            }
            match &hud.drafting.verdict {
                Some(Verdict::Legal {
                    advance_roll_needed,
                }) => {
                    let mut text = "Legal".to_string();
                    if let Some(n) = advance_roll_needed {
                        text.push_str(&format!(
                            " if the Advance roll is {n}+ ({:.0}%)",
                            (7 - (*n).min(7)) as f64 / 6.0 * 100.0
                        ));
                    }
                    ui.colored_label(GREEN, text);
                }
                Some(Verdict::Illegal(r)) => {
                    let player = game.player_of(draft.army);
                    ui.colored_label(
                        RED,
                        format!("Refused - {}", play::readable(game, player, &r.to_string())),
                    );
                }
                Some(Verdict::Nothing(why)) => {
                    ui.colored_label(RED, why);
                }
                None => {}
            }
            ui.horizontal(|ui| {
                let legal = hud.drafting.verdict.as_ref().is_some_and(Verdict::is_legal);
                if ui
                    .add_enabled(legal, egui::Button::new("Confirm (Enter)"))
                    .clicked()
                    && let Some(c) = hud.drafting.command.clone()
                {
                    play::issue(&mut hud.writer, &mut hud.drafting, c);
                }
                // Charge, Pile-in and Consolidation moves: models that can touch an enemy
                // model must; offer the same move with them sent into base contact.
                if let Some(fixed) = hud.drafting.base_contact.clone()
                    && ui
                        .button("Into base contact")
                        .on_hover_text(
                            "The same move, each model that can reach an enemy model touching it",
                        )
                        .clicked()
                {
                    play::issue(&mut hud.writer, &mut hud.drafting, fixed);
                }
                if ui.button("Cancel (Esc)").clicked() {
                    hud.drafting.draft = None;
                }
            });
        });
}
