//! The Army rules section of the unit card, in the battle: the selected unit's army rules and
//! Detachment, the choices its rules give the player now (Oath of Moment's target, the
//! Waaagh!) and those in force, the Detachment Stratagems usable now on the unit, and the
//! referee override for a rule the engine does not apply. Each button is enabled only when the
//! engine accepts its command ([`Game::check`]), its reason shown otherwise. Core Rules: Army
//! Rules, Detachment Rules, Stratagems.

use bevy::ecs::change_detection::Tick;
use bevy::prelude::DetectChanges;
use bevy_egui::egui;

use super::Hud;
use super::abilities::status_line;
use crate::app::play;
use crate::data::Army;
use crate::data::faction_rules::{Lasts, RuleStatus};
use crate::game::effects::RefereeAction;
use crate::game::{Command, Game};
use crate::rules::phase::Stage;

/// The note the override buttons are checked with (the engine refuses an override without a
/// note; the player's own note is put in when the button is clicked).
const CHECK_NOTE: &str = "check";

/// What the Army rules section keeps between frames: the referee override's note, and the
/// section's commands with the engine's verdicts, kept until the game or the unit changes
/// (each verdict is an engine check on a copy of the game).
#[derive(Debug, Clone, Default)]
pub struct ArmyRulesState {
    /// The referee override's note: the rule it applies, in the player's words.
    note: String,
    /// The game's change tick and the unit the offers are for.
    key: Option<(Tick, usize, usize)>,
    /// The section's commands.
    offers: Offers,
}

/// The commands the section offers, by sub-section.
#[derive(Debug, Clone, Default)]
struct Offers {
    /// The choices the army's rules give now (Core Rules: Army Rules).
    choices: Vec<Offer>,
    /// The Detachment Stratagems usable now on the unit (Core Rules: Stratagems).
    stratagems: Vec<Offer>,
    /// The referee override's actions on the unit.
    referee: Vec<Offer>,
}

/// One button of the section: its text, its hover text, its command (None when there is
/// nothing to act on) and the engine's verdict (the reason it refuses the command).
#[derive(Debug, Clone)]
struct Offer {
    /// The button's text.
    label: String,
    /// Its hover text (the rule's text).
    hover: String,
    /// The command it sends.
    command: Option<Command>,
    /// Ok when the engine accepts the command now; otherwise why not.
    verdict: Result<(), String>,
}

impl Offer {
    /// A button for `command`, with the engine's verdict on it now.
    fn checked(game: &Game, label: String, hover: String, command: Command) -> Offer {
        let verdict = game.check(&command).map_err(|r| r.reason);
        Offer {
            label,
            hover,
            command: Some(command),
            verdict,
        }
    }

    /// A button with nothing to act on, shown disabled with `why`.
    fn refused(label: &str, why: String) -> Offer {
        Offer {
            label: label.to_string(),
            hover: String::new(),
            command: None,
            verdict: Err(why),
        }
    }
}

/// Draws the Army rules section of unit `unit` of army `army` (its player's rules), during
/// the battle only.
pub(super) fn army_rules(ui: &mut egui::Ui, hud: &mut Hud, game: &Game, army: usize, unit: usize) {
    if game.stage != Stage::Battle {
        return;
    }
    let Some(a) = game.scene.armies.get(army) else {
        return;
    };
    if game.units.get(army).is_none_or(|u| u.get(unit).is_none()) {
        return;
    }
    // The game's change tick: any accepted command, undo or load renews the offers.
    let key = (hud.active.last_changed(), army, unit);
    if hud.cache.army_rules.key != Some(key) {
        hud.cache.army_rules.offers = offers(game, army, unit);
        hud.cache.army_rules.key = Some(key);
    }
    let offers = hud.cache.army_rules.offers.clone();
    let player = game.player_of(army);
    ui.separator();
    egui::CollapsingHeader::new(format!("Army rules of player {player}"))
        .id_salt(("army-rules", army, unit))
        .default_open(true)
        .show(ui, |ui| {
            rules_list(ui, a);
            ui.add_space(4.0);
            ui.strong("Choices");
            if offers.choices.is_empty() {
                ui.weak("No choice to make now.");
            }
            for o in &offers.choices {
                if let Some(c) = offer_button(ui, o, true) {
                    play::issue(&mut hud.writer, &mut hud.drafting, c);
                }
            }
            in_force(ui, game, army, unit);
            ui.add_space(4.0);
            let actions = game.scene.armies[army]
                .rules
                .army_rules
                .iter()
                .any(|r| !r.actions.is_empty());
            ui.strong(if actions {
                format!(
                    "Detachment Stratagems ({} CP) and army rule actions ({} tokens)",
                    game.cp_of(player),
                    game.tokens_of(player)
                )
            } else {
                format!("Detachment Stratagems ({} CP)", game.cp_of(player))
            });
            if offers.stratagems.is_empty() {
                ui.weak("None usable on this unit now.");
            }
            for o in &offers.stratagems {
                if let Some(c) = offer_button(ui, o, true) {
                    play::issue(&mut hud.writer, &mut hud.drafting, c);
                }
            }
            by_hand_stratagems(ui, a);
            referee(ui, hud, &offers.referee, (army, unit));
        });
}

/// The army's rules (army and Detachment rules) with their marks, and its Detachment's name.
fn rules_list(ui: &mut egui::Ui, a: &Army) {
    match &a.rules.detachment {
        Some(d) => ui.label(format!("Detachment: {}", d.name)),
        None => ui.weak("No Detachment known for this army."),
    };
    if a.rules.rules().next().is_none() {
        ui.weak("No army rules known for this faction.");
    }
    for r in a.rules.rules() {
        let hover = if r.text.is_empty() {
            r.status().label().to_string()
        } else {
            r.text.clone()
        };
        status_line(ui, &r.name, r.status(), &hover);
    }
}

/// The Detachment's Stratagems the engine does not apply (no effects): used by hand, their CP
/// spent with the referee override.
fn by_hand_stratagems(ui: &mut egui::Ui, a: &Army) {
    let names: Vec<String> = a
        .rules
        .detachment
        .iter()
        .flat_map(|d| &d.stratagems)
        .filter(|s| RuleStatus::of(&s.effects, false) == RuleStatus::Manual)
        .map(|s| format!("{} ({} CP)", s.name, s.cp))
        .collect();
    if !names.is_empty() {
        ui.weak(format!(
            "By hand (spend the CP with the referee override): {}",
            names.join(", ")
        ));
    }
}

/// The choices of the unit's player in force, and the Stratagem and override effects in
/// force on the unit.
fn in_force(ui: &mut egui::Ui, game: &Game, army: usize, unit: usize) {
    let player = game.player_of(army);
    let root = game.combined(army, unit)[0];
    let mut lines: Vec<String> = Vec::new();
    for c in game.effects.choices.iter().filter(|c| c.player == player) {
        let what = match &c.pick {
            Some(p) => format!("{}: {}", c.rule, pick_name(game, army, p)),
            None => c.rule.clone(),
        };
        lines.push(format!(
            "{what} (round {}, {})",
            c.round,
            lasts_text(c.lasts)
        ));
    }
    for e in game
        .effects
        .active
        .iter()
        .filter(|e| e.army == army && e.unit == root)
    {
        lines.push(format!(
            "{} on this unit ({})",
            e.source,
            lasts_text(e.lasts)
        ));
    }
    if lines.is_empty() {
        return;
    }
    ui.strong("In force");
    for l in lines {
        ui.label(l);
    }
}

/// How long a choice or effect lasts, in words.
fn lasts_text(lasts: Lasts) -> &'static str {
    match lasts {
        Lasts::UntilYourNextCommandPhase => "until your next Command phase",
        Lasts::EndOfPhase => "until the end of the phase",
        Lasts::EndOfTurn => "until the end of the turn",
        Lasts::EndOfBattle => "until the end of the battle",
    }
}

/// The referee override: the note, then one button per action, enabled once the note is
/// written and the engine accepts the action.
fn referee(ui: &mut egui::Ui, hud: &mut Hud, offers: &[Offer], (army, unit): (usize, usize)) {
    egui::CollapsingHeader::new("Referee override")
        .id_salt(("referee", army, unit))
        .default_open(false)
        .show(ui, |ui| {
            ui.weak("A rule the engine does not apply, applied by hand; logged with the note.");
            ui.add(
                egui::TextEdit::singleline(&mut hud.cache.army_rules.note)
                    .hint_text("the rule applied")
                    .desired_width(200.0),
            );
            let note = hud.cache.army_rules.note.trim().to_string();
            if note.is_empty() {
                ui.weak("Write a note first: the rule the override applies.");
            }
            for o in offers {
                if let Some(c) = offer_button(ui, o, !note.is_empty()) {
                    play::issue(&mut hud.writer, &mut hud.drafting, with_note(c, &note));
                }
            }
        });
}

/// Draws one offer's button, enabled when the engine accepts its command and `allowed`; the
/// engine's reason is shown beside it when it refuses. Returns the command when clicked.
fn offer_button(ui: &mut egui::Ui, o: &Offer, allowed: bool) -> Option<Command> {
    let mut asked = None;
    ui.horizontal_wrapped(|ui| {
        let enabled = allowed && o.verdict.is_ok();
        let mut button = ui.add_enabled(enabled, egui::Button::new(o.label.clone()));
        if !o.hover.is_empty() {
            button = button.on_hover_text(o.hover.clone());
        }
        if let Err(why) = &o.verdict {
            button = button.on_disabled_hover_text(why.clone());
        }
        if button.clicked() {
            asked = o.command.clone();
        }
        if let Err(why) = &o.verdict {
            ui.weak(why.clone());
        }
    });
    asked
}

/// `command` with the player's note, for an override.
fn with_note(command: Command, note: &str) -> Command {
    match command {
        Command::Referee { player, action, .. } => Command::Referee {
            player,
            action,
            note: note.to_string(),
        },
        other => other,
    }
}

/// Every command the section offers for unit `unit` of army `army`, with its verdict.
fn offers(game: &Game, army: usize, unit: usize) -> Offers {
    Offers {
        choices: choice_offers(game, army, unit),
        stratagems: stratagem_offers(game, army, unit),
        referee: referee_offers(game, army, unit),
    }
}

/// One button per choice the army's rules give its player now ([`Game::rule_choice_options`]):
/// one per pick ("Oath of Moment: Boyz"), or the rule's name for a declared rule ("Waaagh!").
/// For a rule whose units pick (For the Greater Good), the unit of the card (`unit`) picks:
/// one button per enemy unit it may pick ("For The Greater Good: Boyz").
fn choice_offers(game: &Game, army: usize, unit: usize) -> Vec<Offer> {
    let player = game.player_of(army);
    let rules = &game.scene.armies[army].rules;
    let root = game.combined(army, unit)[0];
    let id = game.unit_id(army, root).to_string();
    let mut out = Vec::new();
    for (rule, picks) in game.rule_choice_options(player) {
        let Some(r) = rules.rule(&rule) else {
            continue;
        };
        let hover = r.text.clone();
        let by_unit = r
            .choice
            .as_ref()
            .is_some_and(|c| matches!(c.pick, crate::data::faction_rules::Pick::EnemyUnitBy));
        if by_unit {
            let mine = game
                .rule_pickers(player, r)
                .into_iter()
                .find(|(p, _)| *p == id)
                .map(|(_, t)| t)
                .unwrap_or_default();
            for pick in mine {
                let label = format!("{rule}: {}", pick_name(game, army, &pick));
                let command = Command::RuleChoice {
                    player,
                    rule: rule.clone(),
                    pick: Some(pick),
                    by: Some(id.clone()),
                };
                out.push(Offer::checked(game, label, hover.clone(), command));
            }
            continue;
        }
        if picks.is_empty() {
            let command = Command::RuleChoice {
                player,
                rule: rule.clone(),
                pick: None,
                by: None,
            };
            out.push(Offer::checked(game, rule, hover, command));
            continue;
        }
        for pick in picks {
            let label = format!("{rule}: {}", pick_name(game, army, &pick));
            let command = Command::RuleChoice {
                player,
                rule: rule.clone(),
                pick: Some(pick),
                by: None,
            };
            out.push(Offer::checked(game, label, hover.clone(), command));
        }
    }
    out
}

/// A pick as the player reads it: the name of the enemy unit whose id it is (with the id when
/// another unit of that army has the same name), or the pick itself (an option's name).
fn pick_name(game: &Game, army: usize, pick: &str) -> String {
    (0..game.scene.armies.len())
        .filter(|&a| a != army)
        .find_map(|a| {
            let units = &game.scene.armies[a].units;
            let u = game.find_unit(a, pick)?;
            let name = &units[u].name;
            Some(if units.iter().filter(|x| &x.name == name).count() > 1 {
                format!("{name} ({pick})")
            } else {
                name.clone()
            })
        })
        .unwrap_or_else(|| pick.to_string())
}

/// One button per Detachment Stratagem or army rule action usable now on the unit (its
/// Attached unit's Bodyguard, [`Game::rule_stratagem_options`]): "<name> (N CP)", or
/// "<name> (N token, M left)" for an action paid in tokens (Battle Focus, Orders).
fn stratagem_offers(game: &Game, army: usize, unit: usize) -> Vec<Offer> {
    let player = game.player_of(army);
    let root = game.combined(army, unit)[0];
    let id = game.unit_id(army, root).to_string();
    let rules = &game.scene.armies[army].rules;
    game.rule_stratagem_options(player)
        .into_iter()
        .filter(|(_, units)| units.contains(&id))
        .map(|(name, _)| {
            let s = rules.stratagem(&name);
            let label = match s {
                Some(s) if s.tokens > 0 => format!(
                    "{name} ({} token, {} left)",
                    s.tokens,
                    game.tokens_of(player)
                ),
                _ => format!("{name} ({} CP)", s.map_or(0, |s| s.cp)),
            };
            let hover = s.map(|s| s.text.clone()).unwrap_or_default();
            let command = Command::UseRuleStratagem {
                player,
                stratagem: name,
                unit: id.clone(),
            };
            Offer::checked(game, label, hover, command)
        })
        .collect()
}

/// The referee override's simplest actions on the unit: a mortal wound on its first live
/// model, a wound restored to its first damaged model (or a destroyed one), Battle-shock on
/// or off, and a command point more or less for its player. Given by the player who acts now
/// (the engine takes an override from either player, save while attacks wait: the defender).
fn referee_offers(game: &Game, army: usize, unit: usize) -> Vec<Offer> {
    let player = game.player_of(army);
    let by = game.acting_player().unwrap_or(player);
    let data = &game.scene.armies[army].units[unit];
    let state = &game.units[army][unit];
    let name = |i: usize| format!("{}#{i}", data.id);
    let command = |action: RefereeAction| Command::Referee {
        player: by,
        action,
        note: CHECK_NOTE.to_string(),
    };
    let mut out = Vec::new();
    out.push(match state.models.iter().position(|m| m.alive) {
        Some(i) => Offer::checked(
            game,
            format!("1 mortal wound ({})", name(i)),
            "The model loses 1 wound: no saving throw, no Feel No Pain".to_string(),
            command(RefereeAction::MortalWounds {
                model: name(i),
                wounds: 1,
            }),
        ),
        None => Offer::refused(
            "1 mortal wound",
            format!("no model of '{}' is alive", data.id),
        ),
    });
    let full = |i: usize| data.models.get(i).map_or(0, |m| m.characteristics.wounds);
    let damaged = (0..state.models.len())
        .find(|&i| state.models[i].alive && state.models[i].wounds < full(i))
        .or_else(|| (0..state.models.len()).find(|&i| !state.models[i].alive));
    out.push(match damaged {
        Some(i) => Offer::checked(
            game,
            format!("Restore 1 wound ({})", name(i)),
            "The model regains 1 lost wound; a destroyed model returns where it fell".to_string(),
            command(RefereeAction::RestoreWounds {
                model: name(i),
                wounds: 1,
            }),
        ),
        None => Offer::refused(
            "Restore 1 wound",
            format!("no model of '{}' has lost a wound", data.id),
        ),
    });
    let shocked = state.battle_shocked;
    out.push(Offer::checked(
        game,
        if shocked {
            "Battle-shocked off".to_string()
        } else {
            "Battle-shocked on".to_string()
        },
        "Core Rules: Battle-shock".to_string(),
        command(RefereeAction::BattleShock {
            unit: data.id.clone(),
            shocked: !shocked,
        }),
    ));
    for (label, change) in [("+1 CP", 1), ("-1 CP", -1)] {
        out.push(Offer::checked(
            game,
            label.to_string(),
            format!("Player {player}'s command points (a Stratagem applied by hand)"),
            command(RefereeAction::CommandPoints { of: player, change }),
        ));
    }
    out
}
