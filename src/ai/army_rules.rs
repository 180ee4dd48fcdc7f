//! The computer's use of its army's rules (see `crate::game::effects`): the choices they give
//! in its Command phase (Oath of Moment's target, the round of the Waaagh!, a Combat Doctrine),
//! the Detachment Stratagems that pay before one of its units shoots or fights, and the
//! army rule actions paid in tokens (Battle Focus).
//!
//! A Stratagem is worth its CP when the exact odds ([`Game::preview_attacks`]) of the unit's
//! attacks with it, on a copy of the game, destroy at least [`STRATAGEM_MIN_POINTS_GAINED`]
//! more points than without it.

use super::{centre, trial, value_per_model};
use crate::data::faction_rules::Pick;
use crate::game::{Command, Game};
use crate::rules::effect::{Attacks, Modifier, When};
use crate::rules::movement::MoveMode;
use crate::rules::phase::Stage;

/// Smallest gain in expected points destroyed for which the computer spends CP on a
/// Detachment Stratagem before its unit attacks (per CP it costs).
pub const STRATAGEM_MIN_POINTS_GAINED: f64 = 8.0;

/// How close (inches, centre to centre) a unit of the army must be to an enemy unit for the
/// computer to call a rule meant for the charge (the Waaagh!, the Assault Doctrine): within a
/// Normal move and a likely charge.
pub const CLOSE_COMBAT_REACH_INCHES: f32 = 16.0;

/// Battle round from which a once-per-battle declared rule is called whatever the distances.
pub const DECLARE_BY_ROUND: u8 = 3;

/// The choice one of `player`'s rules gives now, as the command that makes it; None when no
/// choice is open (it is not the player's Command phase, or every rule has been chosen).
pub fn rule_choice(game: &Game, player: u8) -> Option<Command> {
    // Before the battle only the choices made then are open (rule_choice_options says which).
    let before = game.stage != Stage::Battle;
    if !before && game.active_player != player {
        return None;
    }
    let army = game.army_of(player)?;
    let rules = game.scene.armies[army].rules.clone();
    for (name, picks) in game.rule_choice_options(player) {
        let rule = rules.rule(&name)?;
        let choice = rule.choice.as_ref()?;
        let pick = match &choice.pick {
            Pick::Declare => {
                if game.battle_round >= DECLARE_BY_ROUND || close_to_combat(game, army) {
                    None
                } else {
                    continue;
                }
            }
            Pick::EnemyUnit => Some(best_enemy(game, army, &picks)?),
            Pick::EnemyUnitBy => {
                let Some((by, target)) = spotter(game, army, player, rule) else {
                    continue;
                };
                let c = Command::RuleChoice {
                    player,
                    rule: name,
                    pick: Some(target),
                    by: Some(by),
                };
                if super::legal(game, &c) {
                    return Some(c);
                }
                continue;
            }
            Pick::OneOf(_) => Some(doctrine(game, army, &picks)?),
        };
        let c = Command::RuleChoice {
            player,
            rule: name,
            pick,
            by: None,
        };
        if super::legal(game, &c) {
            return Some(c);
        }
    }
    None
}

/// For a rule whose units pick an enemy unit (For the Greater Good): one picker a phase, a
/// MARKERLIGHT unit first, else the cheapest unit that may pick, marking the enemy unit most worth the army's attacks among those
/// it sees; None when a pick of the rule is already in force or fewer than two units could
/// still shoot (an Observer gains nothing for itself).
fn spotter(
    game: &Game,
    army: usize,
    player: u8,
    rule: &crate::data::faction_rules::Rule,
) -> Option<(String, String)> {
    if game
        .effects
        .choices
        .iter()
        .any(|c| c.player == player && c.rule == rule.name)
    {
        return None;
    }
    let shooters = game
        .unit_roots(army)
        .into_iter()
        .filter(|&u| game.unit_options(army, u).shoot)
        .count();
    if shooters < 2 {
        return None;
    }
    let points = |id: &str| {
        game.find_unit(army, id)
            .and_then(|u| game.scene.armies[army].units[u].points)
            .unwrap_or(0)
    };
    // A MARKERLIGHT Observer also takes the target's cover away.
    let markerlight = |id: &str| {
        game.find_unit(army, id).is_some_and(|u| {
            game.scene.armies[army].units[u]
                .datasheet
                .has_keyword("MARKERLIGHT")
        })
    };
    let (by, targets) = game
        .rule_pickers(player, rule)
        .into_iter()
        .min_by_key(|(id, _)| (!markerlight(id), points(id)))?;
    let target = best_enemy(game, army, &targets)?;
    Some((by, target))
}

/// True when some unit of the army stands within [`CLOSE_COMBAT_REACH_INCHES`] of an enemy
/// unit (centre to centre).
fn close_to_combat(game: &Game, army: usize) -> bool {
    let enemy = 1 - army;
    game.unit_roots(army).into_iter().any(|u| {
        !game.live_models(army, u).is_empty()
            && game.unit_roots(enemy).into_iter().any(|e| {
                !game.live_models(enemy, e).is_empty()
                    && centre(game, army, u).distance(centre(game, enemy, e))
                        <= CLOSE_COMBAT_REACH_INCHES
            })
    })
}

/// The enemy unit (among `picks`) most worth the army's attacks: the most points, discounted by
/// its distance from the army's closest unit (a unit 12" farther counts half).
fn best_enemy(game: &Game, army: usize, picks: &[String]) -> Option<String> {
    let enemy = 1 - army;
    let mine: Vec<_> = game
        .unit_roots(army)
        .into_iter()
        .filter(|&u| !game.live_models(army, u).is_empty())
        .map(|u| centre(game, army, u))
        .collect();
    picks
        .iter()
        .filter_map(|id| {
            let u = game.find_unit(enemy, id)?;
            let points: f64 = game
                .combined(enemy, u)
                .iter()
                .map(|&x| f64::from(game.scene.armies[enemy].units[x].points.unwrap_or(100)))
                .sum();
            let c = centre(game, enemy, u);
            let d = mine
                .iter()
                .map(|m| m.distance(c))
                .fold(f32::INFINITY, f32::min);
            Some((points / (1.0 + f64::from(d) / 12.0), id.clone()))
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, id)| id)
}

/// The option of a one-of choice to take now: an option for the charge ("Assault") once the
/// army is close to combat, one for shooting on the move ("Devastator") early, one for
/// falling back ("Tactical") late; else the first offered.
fn doctrine(game: &Game, army: usize, picks: &[String]) -> Option<String> {
    let has = |word: &str| {
        picks
            .iter()
            .find(|p| p.to_ascii_lowercase().contains(word))
            .cloned()
    };
    let wanted = if close_to_combat(game, army) {
        has("assault").or_else(|| has("tactical"))
    } else if game.battle_round <= 2 {
        has("devastator")
    } else {
        has("tactical").or_else(|| has("assault"))
    };
    wanted.or_else(|| picks.first().cloned())
}

/// Expected points of enemy models destroyed by the attacks `command` (a Shoot or Fight).
fn expected_points(game: &Game, command: &Command) -> f64 {
    let (player, unit, weapons, melee) = match command {
        Command::Shoot {
            player,
            unit,
            weapons,
        } => (*player, unit, weapons, false),
        Command::Fight {
            player,
            unit,
            weapons,
        } => (*player, unit, weapons, true),
        _ => return 0.0,
    };
    let Some(enemy) = game.army_of(crate::rules::phase::opponent(player)) else {
        return 0.0;
    };
    game.preview_attacks(player, unit, weapons, melee)
        .map(|previews| {
            previews
                .iter()
                .map(|p| {
                    let v = game
                        .find_unit(enemy, &p.target)
                        .map_or(10.0, |u| value_per_model(game, enemy, u));
                    p.distribution.expected_models_destroyed * v
                })
                .sum()
        })
        .unwrap_or(0.0)
}

/// A Detachment Stratagem for the unit about to make the attacks `command` (a Shoot or a
/// Fight of `player`'s), when it changes those attacks and gains at least
/// [`STRATAGEM_MIN_POINTS_GAINED`] expected points per CP; None otherwise.
pub fn stratagem_before(game: &Game, player: u8, command: &Command) -> Option<Command> {
    let (unit, melee) = match command {
        Command::Shoot { unit, .. } => (unit, false),
        Command::Fight { unit, .. } => (unit, true),
        _ => return None,
    };
    let (army, root) = game.own_root(player, unit).ok()?;
    let root_id = game.unit_id(army, root).to_string();
    let rules = game.scene.armies[army].rules.clone();
    let options = game.rule_stratagem_options(player);
    if options.is_empty() {
        return None;
    }
    let before = expected_points(game, command);
    let mut best: Option<(f64, Command)> = None;
    for (name, units) in options {
        let Some(s) = rules.stratagem(&name) else {
            continue;
        };
        let changes_attacks = s.effects.iter().any(|e| match e.when {
            When::Attacking(k) => k.includes(melee),
            _ => false,
        });
        if !changes_attacks || !units.contains(&root_id) {
            continue;
        }
        let c = Command::UseRuleStratagem {
            player,
            stratagem: name,
            unit: root_id.clone(),
        };
        let Some(after) = trial(game, &c) else {
            continue;
        };
        let gain = expected_points(&after, command) - before;
        let needed = STRATAGEM_MIN_POINTS_GAINED * f64::from(s.cp.max(1));
        if gain >= needed && best.as_ref().is_none_or(|(g, _)| gain > *g) {
            best = Some((gain, c));
        }
    }
    best.map(|(_, c)| c)
}

/// An army rule action paid in tokens (Battle Focus's Agile Manoeuvres) for the unit about to
/// give `command`, when one helps it: Star Engines before a VEHICLE Advances, Swift as the
/// Wind before another move (while a token stays for later in the round), Flitting Shadows
/// before a charge is declared, Sudden Strike before a unit Piles In. The tokens are lost as
/// the round ends, so the computer spends them; the move is planned again with the new
/// allowance. None when no such action is open to that unit.
pub fn manoeuvre_before(game: &Game, player: u8, command: &Command) -> Option<Command> {
    let (unit, wanted): (&String, &[Modifier]) = match command {
        Command::Advance { unit, .. }
        | Command::Move {
            unit,
            mode: MoveMode::Advance,
            ..
        } => (unit, &[Modifier::ShootAfterAdvancing, Modifier::Move(2)]),
        Command::Move { unit, paths, .. } if !paths.is_empty() => (unit, &[Modifier::Move(2)]),
        Command::DeclareCharge { unit, .. } => (unit, &[Modifier::NoOverwatchAgainst]),
        Command::PileIn { unit, .. } => (unit, &[Modifier::FightMoveInches(6)]),
        _ => return None,
    };
    if game.tokens_of(player) == 0 {
        return None;
    }
    let (army, root) = game.own_root(player, unit).ok()?;
    let root_id = game.unit_id(army, root).to_string();
    let rules = &game.scene.armies[army].rules;
    let options = game.rule_stratagem_options(player);
    for want in wanted {
        let keep_one = matches!(want, Modifier::Move(_));
        if keep_one && game.tokens_of(player) < 2 {
            continue;
        }
        for (name, units) in &options {
            let Some(s) = rules.stratagem(name) else {
                continue;
            };
            let fits = s.tokens > 0
                && s.effects.iter().any(|e| e.does.contains(want))
                && units.contains(&root_id);
            if fits {
                let c = Command::UseRuleStratagem {
                    player,
                    stratagem: name.clone(),
                    unit: root_id.clone(),
                };
                if trial(game, &c).is_some() {
                    return Some(c);
                }
            }
        }
    }
    None
}

/// An army rule action paid in tokens that the player's Command phase offers (Astra
/// Militarum Orders), as the command that uses it: each unit it may go to gets, in unit
/// order, the action that improves its Weapon Skill when it is within Engagement Range, else
/// the one that improves its Ballistic Skill. None when no token or action is left.
pub fn order_now(game: &Game, player: u8) -> Option<Command> {
    if game.phase != crate::rules::phase::Phase::Command
        || game.active_player != player
        || game.tokens_of(player) == 0
    {
        return None;
    }
    let army = game.army_of(player)?;
    let rules = &game.scene.armies[army].rules;
    let options = game.rule_stratagem_options(player);
    let skill = |name: &str, melee: bool| {
        rules.stratagem(name).is_some_and(|s| {
            s.tokens > 0
                && s.effects.iter().any(|e| {
                    e.when
                        == When::Attacking(if melee {
                            Attacks::Melee
                        } else {
                            Attacks::Ranged
                        })
                        && e.does.contains(&Modifier::Skill(1))
                })
        })
    };
    for root in game.unit_roots(army) {
        let id = game.unit_id(army, root).to_string();
        let melee = game.engaged(army, root);
        let pick = options
            .iter()
            .find(|(name, units)| units.contains(&id) && skill(name, melee));
        if let Some((name, _)) = pick {
            let c = Command::UseRuleStratagem {
                player,
                stratagem: name.clone(),
                unit: id,
            };
            if trial(game, &c).is_some() {
                return Some(c);
            }
        }
    }
    None
}
