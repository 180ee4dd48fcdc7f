//! The shooting and fight panel: a target for each weapon row, the exact odds of the
//! assignment, and the Shoot / Fight button.

use bevy::prelude::*;
use bevy_egui::egui;

use super::{Hud, RED};
use crate::app::play;
use crate::game::preview::AttackPreview;
use crate::game::{Command, Game, WeaponTarget};

use super::preview_chart::preview_chart;

/// Registers the preview cache.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PreviewCache>();
}

/// The attack previews of the shooting / fight panel, kept until the assignment or the game
/// changes (each is an exact distribution).
#[derive(Resource, Default)]
pub struct PreviewCache {
    key: Option<PreviewKey>,
    /// The previews, or the rejection the assignment would get.
    pub result: Option<Result<Vec<AttackPreview>, String>>,
    targets_key: Option<(String, String)>,
    /// Each weapon row of the selected unit ("weapon - profile"), its legal targets and the
    /// assignment it makes (target left empty).
    pub targets: Vec<(String, Vec<String>, WeaponTarget)>,
    /// For each row: the models carrying the weapon, when it is one of a choose-one group
    /// of melee weapons ([`crate::game::UnitWeapon::choose_one`]); None otherwise.
    pub groups: Vec<Option<Vec<String>>>,
    /// The selected unit's Stratagem options.
    pub(super) stratagems: super::stratagems::StratagemCache,
    /// The selected unit's Army rules section: the override's note and the section's
    /// commands with the engine's verdicts.
    pub(super) army_rules: super::army_rules::ArmyRulesState,
    /// The selected unit's orders ([`Game::unit_options`]) with the game's change tick and
    /// the unit they are for.
    pub(super) unit_options: Option<(
        (bevy::ecs::change_detection::Tick, usize, usize),
        crate::game::UnitOptions,
    )>,
}

/// What a preview was computed for: the game's state hash, the unit and its weapon choices.
type PreviewKey = (String, String, Vec<(String, Option<String>)>);

fn refresh_targets(
    cache: &mut PreviewCache,
    game: &Game,
    state: &str,
    player: u8,
    id: &str,
    melee: bool,
) {
    let key = (state.to_string(), format!("{id}/{melee}"));
    if cache.targets_key.as_ref() == Some(&key) {
        return;
    }
    let Ok((army, root)) = game.own_root(player, id) else {
        return;
    };
    // One row per weapon of the unit's legal loadout (each model's guns or pistols, one
    // melee weapon plus EXTRA ATTACKS), and per profile of a weapon with several; only one
    // profile row of a weapon may be given a target.
    let mut rows: Vec<(String, Vec<String>, WeaponTarget)> = Vec::new();
    let mut groups = Vec::new();
    for w in game.weapons_of(army, root, melee) {
        let o = &w.option;
        for profile in o.profile_choices() {
            let template = o.at("", profile);
            // The enemy units this row's models can attack.
            let targets = game.legal_targets_of(player, id, &template, melee);
            rows.push((o.label(profile), targets, template));
            groups.push(w.choose_one.then(|| w.carriers.clone()));
        }
    }
    cache.targets = rows;
    cache.groups = groups;
    cache.targets_key = Some(key);
}

/// Draws the weapon rows, the odds and the Shoot (or Fight, `melee`) button.
pub(super) fn attack_panel(
    ui: &mut egui::Ui,
    hud: &mut Hud,
    game: &Game,
    player: u8,
    id: &str,
    melee: bool,
) {
    // One hash of the game per frame keys both caches.
    let state = game.state_hash();
    refresh_targets(&mut hud.cache, game, &state, player, id, melee);
    let weapons = hud.cache.targets.clone();
    let groups = hud.cache.groups.clone();
    hud.orders
        .weapon_targets
        .retain(|(w, _)| weapons.iter().any(|(x, ..)| x == w));
    let mut given: Vec<String> = Vec::new();
    for (w, targets, template) in &weapons {
        if !hud.orders.weapon_targets.iter().any(|(x, _)| x == w) {
            // By default the first profile of each weapon gets the first legal target.
            let first = !given.contains(&template.weapon);
            given.push(template.weapon.clone());
            hud.orders
                .weapon_targets
                .push((w.clone(), targets.first().filter(|_| first).cloned()));
        }
    }
    if melee && groups.iter().filter(|g| g.is_some()).count() > 1 {
        ui.weak("Each model fights with one of its melee weapons: the first row with a target.");
    }
    for (w, targets, _) in &weapons {
        let slot = hud
            .orders
            .weapon_targets
            .iter_mut()
            .find(|(x, _)| x == w)
            .expect("added above");
        // Targets are the enemy's units, shown by the names their cards show.
        let enemy = if player == 1 { 2 } else { 1 };
        ui.horizontal(|ui| {
            ui.label(w);
            egui::ComboBox::from_id_salt(format!("target-{w}"))
                .selected_text(
                    slot.1
                        .as_deref()
                        .map_or("(none)".into(), |t| play::unit_name(game, enemy, t)),
                )
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut slot.1, None, "(none)");
                    for t in targets {
                        ui.selectable_value(
                            &mut slot.1,
                            Some(t.clone()),
                            play::unit_name(game, enemy, t),
                        );
                    }
                });
            if targets.is_empty() {
                ui.weak("no legal target");
            }
        });
    }
    // Each model uses one melee weapon of its choose-one group: the first row (rarest
    // weapon first) with a target takes its carriers, later rows of the group the rest.
    let mut taken: Vec<String> = Vec::new();
    let assigned: Vec<WeaponTarget> = weapons
        .iter()
        .zip(&groups)
        .filter_map(|((w, _, template), group)| {
            let (_, t) = hud.orders.weapon_targets.iter().find(|(x, _)| x == w)?;
            let mut wt = WeaponTarget {
                target: t.clone()?,
                ..template.clone()
            };
            if let Some(carriers) = group {
                let free: Vec<String> = carriers
                    .iter()
                    .filter(|m| !taken.contains(m))
                    .cloned()
                    .collect();
                if free.is_empty() {
                    return None;
                }
                if free.len() < carriers.len() {
                    wt.models = free.clone();
                }
                taken.extend(free);
            }
            Some(wt)
        })
        .collect();
    let key = (state, id.to_string(), hud.orders.weapon_targets.clone());
    if hud.cache.key.as_ref() != Some(&key) {
        hud.cache.result = (!assigned.is_empty()).then(|| {
            game.preview_attacks(player, id, &assigned, melee)
                .map_err(|r| r.to_string())
        });
        hud.cache.key = Some(key);
    }
    match &hud.cache.result {
        Some(Ok(previews)) => {
            for p in previews {
                preview_chart(ui, game, player, p);
            }
        }
        Some(Err(e)) => {
            ui.colored_label(RED, e);
        }
        None => {
            ui.weak("Assign a weapon to a target to see the odds.");
        }
    }
    let label = if melee {
        "Fight (roll)"
    } else {
        "Shoot (roll)"
    };
    // While declared attacks wait for the defender's answer, nobody else may shoot or fight.
    let waiting = game.pending_shot.is_some();
    if waiting {
        ui.weak("Waiting for the defending player's answer (Go to Ground, Smokescreen or none).");
    }
    if ui
        .add_enabled(!assigned.is_empty() && !waiting, egui::Button::new(label))
        .clicked()
    {
        let c = if melee {
            Command::Fight {
                player,
                unit: id.to_string(),
                weapons: assigned,
            }
        } else {
            Command::Shoot {
                player,
                unit: id.to_string(),
                weapons: assigned,
            }
        };
        play::issue(&mut hud.writer, &mut hud.drafting, c);
        hud.orders.weapon_targets.clear();
    }
}
