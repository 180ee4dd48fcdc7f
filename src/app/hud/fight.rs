//! The fight panel: Pile In, then the attacks, then Consolidate.

use bevy_egui::egui;

use super::{Hud, attack};
use crate::app::play;
use crate::game::{Command, FightActivation, Game};

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
    match game.fight_activation(army, root) {
        None => {}
        Some(FightActivation::PileIn) => {
            ui.label("Select this unit: drag to Pile In (3\"), then Confirm; or:");
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
            ui.label("Drag to Consolidate (3\"), then Confirm; or:");
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
