//! The top bar: round, player and phase, CP and VP (primary and secondary apart when the
//! mission has a secondary deck), the active secondary cards of the player whose turn it is
//! (with a button to shuffle back a card just drawn where its "when drawn" rule allows), End
//! phase, Undo, the tool toggles and Menu.

use bevy_egui::egui;

use super::{AMBER, Hud, RED};
use crate::app::play;
use crate::app::screens::Screen;
use crate::game::{Command, Game};
use crate::rules::phase::Stage;

/// The phase bar's button that ends the current step, when the game has one: a battle phase,
/// or one player's Scout moves (Core Rules: Scouts; without it a game whose armies have a
/// Scouts unit could not get past deployment at the desktop).
#[derive(Debug, Clone, PartialEq)]
pub struct EndStep {
    /// The button's words ("End Movement phase", "End Scout moves (player 2)").
    pub label: String,
    /// The tooltip.
    pub hint: &'static str,
    /// The command the button gives.
    pub command: Command,
}

/// [`EndStep`] for `game` now; None in set-up, deployment and at the end of the battle.
pub fn end_step(game: &Game) -> Option<EndStep> {
    let command = Command::EndPhase {
        player: game.active_player,
    };
    match game.stage {
        Stage::Battle => Some(EndStep {
            label: format!("End {}", game.phase.name()),
            hint: "Ends the phase (its end steps run first)",
            command,
        }),
        Stage::Scouts => Some(EndStep {
            label: format!("End Scout moves (player {})", game.active_player),
            hint: "Ends this player's Scout moves: the other player's come next, then the \
                   first battle round",
            command,
        }),
        _ => None,
    }
}

/// Draws the phase bar.
pub(super) fn phase_bar(ui: &mut egui::Ui, hud: &mut Hud) {
    ui.horizontal_wrapped(|ui| {
        let Some(game) = hud.active.game.as_ref() else {
            if let Some(s) = &hud.scene.0 {
                ui.strong(&s.name);
                ui.separator();
            }
            ui.weak(
                "No game: open the menu to start one.  Right-drag: orbit  Wheel: zoom  F1: help",
            );
            return;
        };
        let stage = match game.stage {
            Stage::Battle => format!(
                "Round {} | Player {} | {}{}",
                game.battle_round,
                game.active_player,
                game.phase.name(),
                game.fight_step()
                    .map(|(step, picker)| format!(": {}, player {picker} selects", step.name()))
                    .unwrap_or_default()
            ),
            _ => game.describe_now(),
        };
        ui.strong(stage);
        if !game.scene.ruleset().is_default() {
            ui.separator();
            ui.colored_label(
                egui::Color32::from_rgb(240, 200, 90),
                format!("{} edition", game.scene.ruleset().label()),
            )
            .on_hover_text("The game is played under this edition's core rules (--ruleset)");
        }
        ui.separator();
        for p in [1u8, 2] {
            ui.colored_label(
                super::table_colour(p),
                format!("P{p}: {} CP {}", game.cp_of(p), vp_text(game, p)),
            );
        }
        if let Some(deck) = &game.scene.secondary_deck
            && matches!(game.stage, Stage::Battle | Stage::GameOver)
        {
            let p = game.active_player;
            let cards = &game.mission.active[usize::from(p - 1)];
            let names: Vec<&str> = cards
                .iter()
                .filter_map(|c| deck.cards.get(c.card))
                .map(|c| c.name.as_str())
                .collect();
            let tip: Vec<String> = cards
                .iter()
                .filter_map(|c| deck.cards.get(c.card).map(|d| (c, d)))
                .map(|(c, d)| format!("{} ({} VP so far): {}", d.name, c.scored, d.summary))
                .collect();
            let text = if names.is_empty() {
                format!("P{p} secondaries: none active")
            } else {
                format!("P{p} secondaries: {}", names.join(", "))
            };
            ui.weak(text).on_hover_text(if tip.is_empty() {
                "No active secondary cards".to_string()
            } else {
                tip.join("\n")
            });
            // A card just drawn that its "when drawn" clause lets the player send back: their
            // choice (kept unless they do; the computer decides its own).
            if hud.handover.seats.computer() != Some(p) {
                for card in game.redraw_choices(p) {
                    if ui
                        .small_button(format!("Shuffle back {card}"))
                        .on_hover_text(
                            "Its 'when drawn' rule lets you shuffle it back into your deck and \
                             draw another card, in this Command phase; otherwise you keep it",
                        )
                        .clicked()
                    {
                        play::issue(
                            &mut hud.writer,
                            &mut hud.drafting,
                            Command::RedrawSecondary { player: p, card },
                        );
                    }
                }
            }
        }
        ui.separator();
        let acting = game.acting_player().unwrap_or(game.active_player);
        if let Some(end) = end_step(game)
            && ui.button(end.label).on_hover_text(end.hint).clicked()
        {
            play::issue(&mut hud.writer, &mut hud.drafting, end.command);
        }
        if matches!(game.stage, Stage::Setup | Stage::Deployment) {
            // The acting side (in a solo game both) may set up the rest of its units where
            // the scene put them.
            // The computer sets its own units up: its side gets no button.
            let sides: Vec<u8> = if hud.handover.seats == play::Seats::Solo {
                vec![1, 2]
            } else {
                vec![acting]
            };
            let computer = hud.handover.seats.computer();
            for p in sides.into_iter().filter(|p| Some(*p) != computer) {
                let i = usize::from(p - 1);
                if !hud.auto_deploy.0[i]
                    && game.next_to_deploy(p).is_some()
                    && ui
                        .button(format!("P{p}: deploy the rest as placed"))
                        .on_hover_text(
                            "Sets up each of this side's remaining units where the scene put it, \
                             whenever it is this side's turn to deploy",
                        )
                        .clicked()
                {
                    hud.auto_deploy.0[i] = true;
                }
            }
        }
        if game.stage == Stage::GameOver {
            if hud.tools.summary_hidden && ui.button("Summary").clicked() {
                hud.tools.summary_hidden = false;
            }
            ui.colored_label(
                AMBER,
                match game.winner {
                    Some(w) => format!("Player {w} wins"),
                    None => "A draw".into(),
                },
            );
        } else {
            let solo = hud.handover.seats == play::Seats::Solo;
            ui.label(
                egui::RichText::new(if solo {
                    format!("Player {acting} to act (solo)")
                } else {
                    format!("Player {acting} to act")
                })
                .strong()
                .color(super::player_colour(acting)),
            );
        }
        if let Some(e) = &hud.log.autosave_error {
            ui.colored_label(RED, "Autosave failed")
                .on_hover_text(format!("{e}\nThe game goes on; it is not being saved."));
        }
        if ui.button("Undo").on_hover_text("Ctrl+Z").clicked() {
            hud.undo.write(crate::sim::battle::UndoRequested);
        }
        ui.separator();
        // Copies, so drawing the toggles does not mark the tools changed every frame.
        let mut los = hud.sight.los;
        if ui.toggle_value(&mut los, "LOS (L)").changed() {
            hud.sight.los = los;
        }
        let mut tape = hud.tools.tape.is_some();
        if ui.toggle_value(&mut tape, "Tape (T)").changed() {
            hud.tools.tape = tape.then(play::Tape::default);
        }
        let threat = hud.tools.threat;
        if ui
            .selectable_label(threat != play::ThreatOverlay::Off, threat.label())
            .on_hover_text(
                "H: off, the selected unit's reach, the enemy army's charge reach. Red: Move + \
                 12\" charge + Engagement Range; orange: Move + longest ranged weapon",
            )
            .clicked()
        {
            hud.tools.threat = threat.next();
        }
        // The range rings in one drop-down, so the bar fits on one line at 1280 pixels.
        let names = ["Move", "Weapons", "Engagement Range", "Unit Coherency"];
        let on: Vec<&str> = names
            .iter()
            .zip(hud.tools.rings)
            .filter(|(_, on)| *on)
            .map(|(n, _)| *n)
            .collect();
        let title = if on.is_empty() {
            "Rings".to_string()
        } else {
            format!("Rings: {}", on.len())
        };
        ui.menu_button(title, |ui| {
            for (i, name) in names.iter().enumerate() {
                let mut on = hud.tools.rings[i];
                if ui.checkbox(&mut on, *name).changed() {
                    hud.tools.rings[i] = on;
                }
            }
        })
        .response
        .on_hover_text("Range rings around the selected unit's models");
        if let Some(on) = toggle(
            ui,
            !hud.tools.labels_hidden,
            "Labels",
            "Each unit's name on the table (N)",
        ) {
            hud.tools.labels_hidden = !on;
        }
        if let Some(on) = toggle(
            ui,
            hud.tools.legend,
            "Legend",
            "What the table's colours mean: terrain, zones, markers, rings",
        ) {
            hud.tools.legend = on;
        }
        if let Some(on) = toggle(
            ui,
            !hud.tools.armies_hidden,
            "Armies",
            "The armies list on the left",
        ) {
            hud.tools.armies_hidden = !on;
        }
        if ui.button("Menu").clicked() {
            hud.next_screen.set(Screen::Menu);
        }
        let mut help = hud.tools.help;
        if ui.toggle_value(&mut help, "F1").changed() {
            hud.tools.help = help;
        }
    });
}

/// A toggle button showing `on`; the new value when it was clicked this frame. The tools are
/// written only then, so drawing the bar does not mark them changed every frame.
fn toggle(ui: &mut egui::Ui, on: bool, label: &str, hover: &str) -> Option<bool> {
    let mut value = on;
    ui.toggle_value(&mut value, label)
        .on_hover_text(hover)
        .changed()
        .then_some(value)
}

/// Player `p`'s VP for the bar: "VP 23", or with a secondary deck "VP 23 (primary 15,
/// secondary 8)", with ", Battle Ready 10" once those are given.
fn vp_text(game: &Game, p: u8) -> String {
    let i = usize::from(p - 1);
    let total = game.vp[i];
    if game.scene.secondary_deck.is_none() {
        return format!("VP {total}");
    }
    let m = &game.mission;
    let ready = if m.battle_ready_vp[i] > 0 {
        format!(", Battle Ready {}", m.battle_ready_vp[i])
    } else {
        String::new()
    };
    format!(
        "VP {total} (primary {}, secondary {}{ready})",
        m.primary_vp[i], m.secondary_vp[i]
    )
}
