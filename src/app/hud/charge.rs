//! The charge panel: the enemy units the engine lets the unit charge, to tick, the odds of
//! the charge, Declare; then the charge roll and the charge move.

use bevy_egui::egui;

use super::{Hud, RED};
use crate::app::play;
use crate::game::{Command, Game};

/// Draws the charge panel of the unit (`army`, `root`).
pub(super) fn charge_panel(
    ui: &mut egui::Ui,
    hud: &mut Hud,
    game: &Game,
    army: usize,
    root: usize,
    id: &str,
) {
    let player = game.player_of(army);
    if let Some(c) = game
        .charge
        .as_ref()
        .filter(|c| c.army == army && c.unit == root)
    {
        // The roll the charge needed, from where the unit stands now (the engine's odds).
        let enemy = 1 - army.min(1);
        let targets: Vec<String> = c
            .targets
            .iter()
            .map(|&t| game.unit_id(enemy, t).to_string())
            .collect();
        let needed = game
            .charge_odds(player, id, &targets)
            .ok()
            .map(|o| o.needed);
        let rolled = c.distance();
        let short = needed.is_some_and(|n| (rolled as u32) < n);
        if short {
            ui.colored_label(
                RED,
                format!(
                    "Charge roll {rolled}: failed (it needed {}+). The unit makes no charge move.",
                    needed.unwrap_or_default()
                ),
            );
        } else {
            ui.label(format!(
                "Charge roll {rolled} - drag the models into Engagement Range of every target, then Confirm."
            ));
        }
        let give_up = if short {
            "End the failed charge"
        } else {
            "Make no charge move (the charge fails)"
        };
        if ui.button(give_up).clicked() {
            let cmd = Command::ChargeMove {
                player,
                unit: id.to_string(),
                paths: Vec::new(),
            };
            play::issue(&mut hud.writer, &mut hud.drafting, cmd);
        }
        return;
    }
    // The enemy units the engine lets this unit charge (within charge range, nearest first).
    let reachable = game.charge_targets(army, root);
    if reachable.is_empty() {
        ui.weak(format!(
            "No enemy unit within {}\".",
            game.charge_range_inches()
        ));
        return;
    }
    let in_reach = |t: &String| reachable.iter().any(|r| &r.unit == t);
    if !hud.orders.charge_targets.iter().all(in_reach) {
        hud.orders.charge_targets.retain(in_reach);
    }
    for t in &reachable {
        let mut ticked = hud.orders.charge_targets.contains(&t.unit);
        if ui
            .checkbox(
                &mut ticked,
                format!(
                    "{} ({:.1}\")",
                    play::unit_name(game, crate::rules::phase::opponent(player), &t.unit),
                    t.distance
                ),
            )
            .changed()
        {
            if ticked {
                hud.orders.charge_targets.insert(t.unit.clone());
            } else {
                hud.orders.charge_targets.remove(&t.unit);
            }
        }
    }
    let targets: Vec<String> = hud.orders.charge_targets.iter().cloned().collect();
    if targets.is_empty() {
        return;
    }
    match game.charge_odds(player, id, &targets) {
        Ok(o) => {
            ui.label(format!(
                "Needs {}+ on 2D6 ({:.1}\" away): {:.0}% to succeed",
                o.needed,
                o.distance,
                o.probability * 100.0
            ));
        }
        Err(e) => {
            ui.colored_label(RED, e.to_string());
        }
    }
    if ui.button("Declare charge (roll 2D6)").clicked() {
        let c = Command::DeclareCharge {
            player,
            unit: id.to_string(),
            targets,
        };
        play::issue(&mut hud.writer, &mut hud.drafting, c);
        hud.orders.charge_targets.clear();
    }
}
