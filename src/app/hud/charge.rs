//! The charge panel: enemy units within 12" to tick, the odds of the charge, Declare; then the
//! charge roll and the charge move.

use bevy_egui::egui;

use super::{Hud, RED};
use crate::app::play;
use crate::game::{Command, Game};
use crate::rules::constants::CHARGE_RANGE_INCHES;

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
        ui.label(format!(
            "Charge roll {} - drag the models into Engagement Range of every target, then Confirm.",
            c.distance()
        ));
        if ui
            .button("Make no charge move (the charge fails)")
            .clicked()
        {
            let cmd = Command::ChargeMove {
                player,
                unit: id.to_string(),
                paths: Vec::new(),
            };
            play::issue(&mut hud.writer, &mut hud.drafting, cmd);
        }
        return;
    }
    let Some(enemy) = game.army_of(if player == 1 { 2 } else { 1 }) else {
        return;
    };
    let mut any = false;
    for u in game.unit_roots(enemy) {
        if game.live_models(enemy, u).is_empty() {
            continue;
        }
        let d = game.unit_distance((army, root), (enemy, u));
        if d > CHARGE_RANGE_INCHES {
            continue;
        }
        any = true;
        let tid = game.unit_id(enemy, u).to_string();
        let mut ticked = hud.orders.charge_targets.contains(&tid);
        if ui
            .checkbox(&mut ticked, format!("{tid} ({d:.1}\")"))
            .changed()
        {
            if ticked {
                hud.orders.charge_targets.insert(tid);
            } else {
                hud.orders.charge_targets.remove(&tid);
            }
        }
    }
    if !any {
        ui.weak(format!("No enemy unit within {CHARGE_RANGE_INCHES}\"."));
        return;
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
