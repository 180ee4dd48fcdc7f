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
    if game.scene.edition().charge_targets_after_roll {
        charge_panel_roll_first(ui, hud, game, army, root, id);
        return;
    }
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
        give_up_button(ui, hud, player, id, short);
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

/// The 11th edition charge panel (11th Core Rules 11.02-11.04): Declare rolls the 2D6 first,
/// listing the enemy units within 12" with the roll each needs; then the units the roll
/// reaches, from the engine, to drag the models into (the charge's targets are the units they
/// end engaged with).
fn charge_panel_roll_first(
    ui: &mut egui::Ui,
    hud: &mut Hud,
    game: &Game,
    army: usize,
    root: usize,
    id: &str,
) {
    let player = game.player_of(army);
    let enemy = crate::rules::phase::opponent(player);
    let edition = game.scene.edition();
    if let Some(c) = game
        .charge
        .as_ref()
        .filter(|c| c.army == army && c.unit == root)
    {
        let rolled = c.distance();
        let reach = game.charge_targets_in_reach(army, root, rolled);
        ui.strong(format!("Charge roll {rolled}\""));
        if reach.is_empty() {
            ui.colored_label(
                RED,
                "The roll reaches no enemy unit: the charge fails and no model moves.",
            );
        } else {
            ui.label("Choose the targets: the enemy units the roll reaches:");
            for t in &reach {
                ui.label(format!("  - {}", play::unit_name(game, enemy, t)));
            }
            ui.weak(
                "Drag the models into Engagement Range of the units you choose (a model that \
                 can end within 1\" of a target must), then Confirm. The charge's targets are \
                 the units the models end engaged with.",
            );
        }
        give_up_button(ui, hud, player, id, reach.is_empty());
        return;
    }
    let reachable = game.charge_targets(army, root);
    if reachable.is_empty() {
        ui.weak(format!(
            "No enemy unit within {}\".",
            game.charge_range_inches()
        ));
        return;
    }
    ui.label("11th edition: roll first, then choose targets the roll reaches.");
    for t in &reachable {
        let needed = edition.charge_roll_needed(t.distance);
        ui.label(format!(
            "{} ({:.1}\"): needs {needed}+ ({:.0}%)",
            play::unit_name(game, enemy, &t.unit),
            t.distance,
            crate::rules::movement::charge_roll_probability(needed) * 100.0
        ));
    }
    if ui.button("Declare charge (roll 2D6)").clicked() {
        let c = Command::DeclareCharge {
            player,
            unit: id.to_string(),
            targets: Vec::new(),
        };
        play::issue(&mut hud.writer, &mut hud.drafting, c);
        hud.orders.charge_targets.clear();
    }
}

/// The button that ends a pending charge with no move: "End the failed charge" when the roll
/// falls short, else "Make no charge move".
fn give_up_button(ui: &mut egui::Ui, hud: &mut Hud, player: u8, id: &str, failed: bool) {
    let give_up = if failed {
        "End the failed charge"
    } else {
        "Make no charge move (the charge fails)"
    };
    if ui.button(give_up).clicked() {
        let cmd = Command::ChargeMove {
            player,
            unit: id.to_string(),
            paths: Vec::new(),
            targets: Vec::new(),
        };
        play::issue(&mut hud.writer, &mut hud.drafting, cmd);
    }
}
