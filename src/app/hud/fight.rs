//! The fight panel: Pile In, then the attacks, then Consolidate.

use bevy_egui::egui;

use super::{Hud, attack};
use crate::app::play;
use crate::game::{Command, FightActivation, Game};
use crate::rules::movement::MoveMode;

/// Draws the fight panel of the unit (`army`, `root`).
pub(super) fn fight_panel(
    ui: &mut egui::Ui,
    hud: &mut Hud,
    game: &Game,
    player: u8,
    army: usize,
    root: usize,
    id: &str,
) {
    // How far the models may Pile In or Consolidate: the engine's allowance.
    let inches = game
        .move_allowance(army, root, MoveMode::Normal)
        .and_then(|m| m.first().map(|&(_, inches)| inches))
        .unwrap_or(0.0);
    match game.fight_activation(army, root) {
        None => {}
        Some(FightActivation::PileIn) => {
            ui.label(format!(
                "Select this unit: drag to Pile In ({inches}\"), then Confirm; or:"
            ));
            if ui.button("Pile In without moving").clicked() {
                let c = Command::PileIn {
                    player,
                    unit: id.to_string(),
                    paths: Vec::new(),
                };
                play::issue(&mut hud.writer, &mut hud.drafting, c);
            }
        }
        Some(FightActivation::Attacks) => attack::attack_panel(ui, hud, game, player, id, true),
        Some(FightActivation::Consolidate) => {
            ui.label(format!(
                "Drag to Consolidate ({inches}\"), then Confirm; or:"
            ));
            if ui.button("Consolidate without moving").clicked() {
                let c = Command::Consolidate {
                    player,
                    unit: id.to_string(),
                    paths: Vec::new(),
                };
                play::issue(&mut hud.writer, &mut hud.drafting, c);
            }
        }
    }
}
