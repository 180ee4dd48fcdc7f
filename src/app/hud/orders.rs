//! The order panels of the selected unit: Setup, Deployment, Movement, Shooting, Charge and
//! Fight, as the moment of the game allows ([`play::panels`]).

use bevy::prelude::DetectChanges;
use bevy_egui::egui;

use super::{AMBER, Hud, attack, charge, fight};
use crate::app::play::{self, Panels};
use crate::game::{Command, Game, ReserveKind};
use crate::rules::movement::MoveMode;
use crate::rules::phase::{Phase, Stage};

/// Draws the unit's order panels.
pub(super) fn orders(ui: &mut egui::Ui, hud: &mut Hud, game: &Game, army: usize, unit: usize) {
    // The engine's options, kept until the game or the unit changes (some are checks on a
    // copy of the game).
    let key = (hud.active.last_changed(), army, unit);
    if hud
        .cache
        .unit_options
        .as_ref()
        .is_none_or(|(k, _)| *k != key)
    {
        hud.cache.unit_options = Some((key, game.unit_options(army, unit)));
    }
    let options = hud
        .cache
        .unit_options
        .as_ref()
        .expect("set above")
        .1
        .clone();
    let p = Panels::from_options(&options);
    let player = game.player_of(army);
    let root = game.combined(army, unit)[0];
    let id = game.unit_id(army, root).to_string();
    if p.reserves {
        ui.strong("Setup");
        ui.horizontal(|ui| {
            for (label, kind) in [
                ("Deep Strike", ReserveKind::DeepStrike),
                ("Strategic Reserves", ReserveKind::StrategicReserves),
            ] {
                if ui.button(label).clicked() {
                    let c = Command::DeclareReserves {
                        player,
                        unit: id.clone(),
                        reserve: kind,
                    };
                    play::issue(&mut hud.writer, &mut hud.drafting, c);
                }
            }
        });
    }
    if p.deploy {
        ui.strong("Deployment");
        ui.label(
            "Drag the unit (Ctrl-drag one model) within your zone, or place it as a block \
             (it follows the cursor, a click drops it), then Enter / Confirm; or:",
        );
        let placing = hud.drafting.placing == Some((army, root));
        if ui
            .selectable_label(placing, "Place as a block")
            .on_hover_text("The unit's models in ranks follow the cursor; click to drop them")
            .clicked()
        {
            hud.drafting.placing = if placing { None } else { Some((army, root)) };
        }
        if ui.button("Deploy where it stands").clicked() {
            let c = Command::Deploy {
                player,
                unit: id.clone(),
                models: Vec::new(),
                transport: None,
            };
            play::issue(&mut hud.writer, &mut hud.drafting, c);
        }
    }
    if p.movement {
        ui.strong("Movement");
        ui.horizontal(|ui| {
            // A copy, so drawing the buttons does not mark the draft changed every frame.
            // Only the modes the engine offers now (Fall Back alone when engaged).
            let mut mode = hud.drafting.move_mode;
            if !options.move_modes.contains(&mode) {
                mode = options.move_modes[0];
            }
            for (m, label) in [
                (MoveMode::Normal, "Normal"),
                (MoveMode::Advance, "Advance"),
                (MoveMode::FallBack, "Fall Back"),
            ] {
                if options.move_modes.contains(&m) {
                    ui.radio_value(&mut mode, m, label);
                }
            }
            if mode != hud.drafting.move_mode {
                hud.drafting.move_mode = mode;
            }
        });
        ui.label("Drag the unit (Ctrl-drag one model), then Enter / Confirm.");
        if options.remain_stationary && ui.button("Remain Stationary").clicked() {
            let c = Command::RemainStationary {
                player,
                unit: id.clone(),
            };
            play::issue(&mut hud.writer, &mut hud.drafting, c);
        }
    }
    if p.arrive || p.disembark {
        ui.strong(if p.arrive {
            "Arrive from Reserves"
        } else {
            "Disembark"
        });
        let edition = game.scene.edition();
        ui.label(if p.arrive {
            format!(
                "Click the table where the unit arrives (more than {}\" from enemy models; \
                 Strategic Reserves wholly within 6\" of an edge): the block follows the cursor, a \
                 click drops it, then Enter / Confirm.",
                edition.reserves_enemy_distance_inches
            )
        } else {
            let combat = match edition.disembark {
                crate::rules::ruleset::DisembarkRule::Modes {
                    combat_range_inches,
                } => format!(
                    "; if it cannot fit there, a Combat Disembark wholly within \
                     {combat_range_inches}\": hazard rolls, Battle-shocked, no further move"
                ),
                crate::rules::ruleset::DisembarkRule::Tenth { .. } => String::new(),
            };
            format!(
                "Click the table where the unit disembarks (wholly within 3\" of its \
                 TRANSPORT{combat}): the block follows the cursor, a click drops it, then Enter / \
                 Confirm."
            )
        });
        let placing = hud.drafting.placing == Some((army, root));
        ui.horizontal(|ui| {
            if ui.selectable_label(placing, "Place on the table").clicked() {
                hud.drafting.placing = if placing { None } else { Some((army, root)) };
            }
            if ui
                .button("Find a place")
                .on_hover_text("The first placement the rules allow, to adjust or confirm")
                .clicked()
            {
                match play::suggest_placement(game, army, root) {
                    Some(d) => {
                        hud.drafting.placing = None;
                        hud.drafting.draft = Some(d);
                    }
                    None => {
                        hud.log
                            .actions
                            .note("No placement found that the rules allow");
                    }
                }
            }
        });
    }
    if p.embark {
        ui.horizontal_wrapped(|ui| {
            for (transport, verdict) in &options.embark {
                let name = game
                    .find_unit(army, transport)
                    .map_or(transport.as_str(), |t| {
                        &game.scene.armies[army].units[t].name
                    });
                let hover = match verdict {
                    Ok(()) => "Every model ended its move close enough to embark".to_string(),
                    Err(r) => r.to_string(),
                };
                if ui
                    .add_enabled(
                        verdict.is_ok(),
                        egui::Button::new(format!("Embark in {name}")),
                    )
                    .on_hover_text(&hover)
                    .on_disabled_hover_text(&hover)
                    .clicked()
                {
                    let c = Command::Embark {
                        player,
                        unit: id.clone(),
                        transport: transport.clone(),
                    };
                    play::issue(&mut hud.writer, &mut hud.drafting, c);
                }
            }
        });
    }
    if p.shooting {
        ui.strong("Shooting");
        attack::attack_panel(ui, hud, game, player, &id, false);
    }
    if p.charge {
        ui.strong("Charge");
        charge::charge_panel(ui, hud, game, army, root, &id);
    }
    if p.fight {
        ui.strong("Fight");
        fight::fight_panel(ui, hud, game, player, army, root, &id);
    }
    if game.stage == Stage::Battle
        && game.phase == Phase::Fight
        && let Some((picker, ids)) = game.next_to_fight()
    {
        let what = match game.fight_step() {
            Some((crate::rules::phase::FightStep::PileIn, _)) => {
                format!("Pile In step: player {picker} piles in")
            }
            _ => format!("Player {picker} selects a unit to fight"),
        };
        ui.colored_label(AMBER, format!("{what}: {}", ids.join(", ")));
    } else if game.stage == Stage::Battle
        && game.phase == Phase::Fight
        && let Some((crate::rules::phase::FightStep::Consolidate, picker)) = game.fight_step()
        && let Some(now) = game.fighting_now()
    {
        ui.colored_label(
            AMBER,
            format!(
                "Consolidate step: player {picker} consolidates {}",
                game.unit_id(now.army, now.unit)
            ),
        );
    }
}
