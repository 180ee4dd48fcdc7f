//! The fight panel: Pile In, then the attacks, then Consolidate (under 11th: the shared Pile
//! In step, selecting to fight with an Overrun pile-in for unengaged units, then the shared
//! Consolidate step).

use bevy_egui::egui;

use super::{Hud, attack};
use crate::app::play;
use crate::game::{Command, FightActivation, Game};
use crate::rules::movement::MoveMode;
use crate::rules::phase::FightStep;

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
        Some(FightActivation::PileIn) if !game.fight_selection_moves(army, root) => {
            // 11th: an engaged unit piled in during the Pile In step; selecting it to fight
            // moves nothing (11th Core Rules 12.05).
            ui.label("Piled in during the Pile In step: select it to fight.");
            if ui.button("Select to fight").clicked() {
                let c = Command::PileIn {
                    player,
                    unit: id.to_string(),
                    paths: Vec::new(),
                };
                play::issue(&mut hud.writer, &mut hud.drafting, c);
            }
        }
        Some(FightActivation::PileIn) => {
            let step = game.fight_step().map(|(s, _)| s);
            ui.label(match step {
                Some(FightStep::PileIn) => format!(
                    "Pile In step: drag to pile in ({inches}\"), then Confirm; it fights later. Or:"
                ),
                _ if game.scene.edition().shared_pile_in_and_consolidate_steps => format!(
                    "Overrun (unengaged): drag to pile in ({inches}\"), then Confirm, then fight; or:"
                ),
                _ => format!("Select this unit: drag to Pile In ({inches}\"), then Confirm; or:"),
            });
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
            let step = game.fight_step().map(|(s, _)| s);
            ui.label(if step == Some(FightStep::Consolidate) {
                format!(
                    "Consolidate step: drag to consolidate ({inches}\"): towards the units it \
                     is engaged with, else an enemy within 3\", else an objective; then Confirm; or:"
                )
            } else {
                format!("Drag to Consolidate ({inches}\"), then Confirm; or:")
            });
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
