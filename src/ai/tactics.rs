//! What the `normal` and `hard` computer players add to the first one: a quick estimate of
//! what a unit's attacks are worth against another before it is in range (for charges,
//! reserves and the threat a unit runs), and each Core Stratagem at its trigger when it pays.
//!
//! Core Rules: Core Stratagems (Command Re-roll, Counter-offensive, Epic Challenge, Insane
//! Bravery, Grenade, Tank Shock, Rapid Ingress, Fire Overwatch, Heroic Intervention);
//! Making Attacks (the sequence [`rough_points`] follows).

use super::value_per_model;
use crate::game::state::TriggerKind;
use crate::game::{Command, Game, RerollRoll};
use crate::rules::WeaponAbility;
use crate::rules::WeaponProfile;
use crate::rules::attack::wound_roll_needed;
use crate::rules::constants::{
    FIRE_OVERWATCH_RANGE_INCHES, GRENADE_DICE, GRENADE_RANGE_INCHES, GRENADE_WOUNDS_ON,
    HEROIC_INTERVENTION_RANGE_INCHES,
};
use crate::rules::phase::{Phase, opponent};
use crate::rules::stratagem::Stratagem;

/// Smallest expected points destroyed for which the computer spends 1 CP on Fire Overwatch:
/// 15, about what a CP buys elsewhere (at 8 it fired 3 or 4 times a game for 0 or 1 kill).
pub const OVERWATCH_MIN_POINTS: f64 = 15.0;

/// Smallest expected points the charging unit's fight is worth ([`rough_unit_points`]) for
/// `normal` and `hard` to spend a Command Re-roll on its failed charge roll.
pub const CHARGE_REROLL_MIN_POINTS: f64 = 15.0;

/// Smallest expected points destroyed (the fight's expected value times the charge odds) for
/// which the computer spends 2 CP on a Heroic Intervention.
pub const HEROIC_MIN_POINTS: f64 = 25.0;

/// Smallest expected points destroyed for which the computer spends 2 CP on a
/// Counter-offensive.
pub const COUNTER_OFFENSIVE_MIN_POINTS: f64 = 30.0;

/// Smallest share of a Grenade's expected points over the unit's own shooting for which the
/// computer throws it instead of shooting (the unit counts as having shot).
pub const GRENADE_OVER_SHOOTING: f64 = 1.0;

/// Expected points a shooting unit's attacks must be worth for `hard` to keep a Command
/// Re-roll for its Wound roll.
pub const WOUND_REROLL_MIN_POINTS: f64 = 10.0;

/// CP `hard` keeps in hand in battle rounds 1 to 3 for reactions (Fire Overwatch, Heroic
/// Intervention) before it spends them on re-rolls.
pub const CP_RESERVE: u32 = 2;

/// Probability that one D6 shows at least `n` (0 when `n` > 6, 1 when `n` <= 1).
fn at_least(n: i32) -> f64 {
    f64::from((7 - n.clamp(1, 7)).max(0)) / 6.0
}

/// A quick estimate of the points of the unit (`tarmy`, `tunit`) destroyed by `bearers`
/// models attacking with the profile `p`, hitting on `hit_on`+ (None: the profile's skill;
/// TORRENT always hits): mean attacks x hit x wound (Strength against Toughness) x failed
/// save (the better of armour after AP and invulnerable) x Feel No Pain, each wound worth
/// the smaller of Damage and the model's Wounds, as a share of one model; at most every live
/// model. Weapon abilities other than TORRENT, and cover, are left out: this ranks options
/// before the exact distribution can be asked for (out of range, before a move).
pub fn rough_points(
    game: &Game,
    p: &WeaponProfile,
    bearers: f64,
    hit_on: Option<u8>,
    (tarmy, tunit): (usize, usize),
) -> f64 {
    // Alive wherever they are: a unit in Reserves or embarked is weighed too.
    let live = game.live_models_anywhere(tarmy, tunit);
    let Some(first) = live.first() else {
        return 0.0;
    };
    let c = &game.scene.armies[tarmy].units[first.unit].models[first.model].characteristics;
    let hit = if p.has(&WeaponAbility::Torrent) {
        1.0
    } else {
        at_least(i32::from(hit_on.or(p.skill).unwrap_or(1)))
    };
    let wound = at_least(i32::from(wound_roll_needed(p.strength, c.toughness)));
    let armour = i32::from(c.save) - i32::from(p.ap);
    let save = c
        .invulnerable_save
        .map_or(armour, |i| armour.min(i32::from(i)))
        .max(2);
    let unsaved = 1.0 - at_least(save);
    let fnp = c.feel_no_pain.map_or(1.0, |f| 1.0 - at_least(i32::from(f)));
    let w = f64::from(c.wounds.max(1));
    let per_wound = f64::from(p.damage.mean()).min(w) / w;
    let models = bearers * f64::from(p.attacks.mean()) * hit * wound * unsaved * fnp * per_wound;
    models.min(live.len() as f64) * value_per_model(game, tarmy, tunit)
}

/// A quick estimate ([`rough_points`]) of the points of (`tarmy`, `tunit`) the unit
/// (`army`, `unit`, with its attached Leaders) destroys with its melee weapons (`melee`: each
/// model's strongest, by Attacks x Strength x Damage) or its ranged weapons (all of them),
/// each weapon with its best profile; `hit_on` overrides the hit roll (6 for Fire
/// Overwatch). Models count wherever they are (a unit in Reserves or embarked is weighed
/// too); range and sight are not asked.
pub fn rough_unit_points(
    game: &Game,
    (army, unit): (usize, usize),
    target: (usize, usize),
    melee: bool,
    hit_on: Option<u8>,
) -> f64 {
    // Bearers of each weapon, by datasheet and name.
    let mut carried: Vec<(usize, &str, f64)> = Vec::new();
    for r in game.live_models_anywhere(army, unit) {
        let u = &game.scene.armies[army].units[r.unit];
        let sheet = &u.datasheet;
        let of_kind = u.models[r.model].weapons.iter().filter(|w| {
            sheet
                .profiles_of(w)
                .first()
                .is_some_and(|p| p.is_melee() == melee)
        });
        let chosen: Vec<&String> = if melee {
            let weight = |w: &String| {
                sheet
                    .profiles_of(w)
                    .iter()
                    .map(|p| p.attacks.mean() * f32::from(p.strength) * p.damage.mean())
                    .fold(0.0, f32::max)
            };
            of_kind
                .max_by(|a, b| weight(a).total_cmp(&weight(b)))
                .into_iter()
                .collect()
        } else {
            of_kind.collect()
        };
        for w in chosen {
            match carried
                .iter_mut()
                .find(|(s, name, _)| *s == r.unit && *name == w.as_str())
            {
                Some(entry) => entry.2 += 1.0,
                None => carried.push((r.unit, w.as_str(), 1.0)),
            }
        }
    }
    carried
        .iter()
        .map(|(u, w, bearers)| {
            game.scene.armies[army].units[*u]
                .datasheet
                .profiles_of(w)
                .iter()
                .map(|p| rough_points(game, p, *bearers, hit_on, target))
                .fold(0.0, f64::max)
        })
        .sum()
}

/// The enemy unit whose action is the trigger of reactive Stratagems now, if its kind is one
/// of `kinds` and it is `player`'s enemy.
fn enemy_trigger(game: &Game, player: u8, kinds: &[TriggerKind]) -> Option<(usize, usize)> {
    let t = game.trigger?;
    (game.player_of(t.army) == opponent(player) && kinds.contains(&t.kind))
        .then_some((t.army, t.unit))
}

/// `player`'s live units on the table (roots of attached units).
fn own_units(game: &Game, player: u8) -> Vec<(usize, usize)> {
    super::roots(game, player)
        .into_iter()
        .filter_map(|u| game.army_of(player).map(|a| (a, u)))
        .collect()
}

/// A Stratagem command of `player` on `unit`, aimed at `target`.
fn stratagem(
    game: &Game,
    player: u8,
    s: Stratagem,
    (army, unit): (usize, usize),
    target: Option<(usize, usize)>,
) -> Command {
    Command::UseStratagem {
        player,
        stratagem: s,
        unit: game.unit_id(army, unit).to_string(),
        target: target.map(|(a, u)| game.unit_id(a, u).to_string()),
        reroll: None,
    }
}

/// The Command Re-roll (Core Stratagems) of `roll` for `player`'s unit `unit`.
pub fn command_reroll(player: u8, unit: &str, roll: RerollRoll) -> Command {
    Command::UseStratagem {
        player,
        stratagem: Stratagem::CommandReroll,
        unit: unit.to_string(),
        target: None,
        reroll: Some(roll),
    }
}

/// The best of `options` (score, command) that scores at least `min` and that the engine
/// accepts, trying the highest scores first.
fn best_legal(game: &Game, mut options: Vec<(f64, Command)>, min: f64) -> Option<Command> {
    options.retain(|(s, _)| *s >= min);
    options.sort_by(|a, b| b.0.total_cmp(&a.0));
    options
        .into_iter()
        .map(|(_, c)| c)
        .find(|c| super::legal(game, c))
}

/// Fire Overwatch (1 CP, once per turn) just after an enemy unit is set up, moves or declares
/// a charge, with the unit that would destroy the most points of it hitting on 6s only, when
/// that is at least [`OVERWATCH_MIN_POINTS`].
pub fn overwatch(game: &Game, player: u8) -> Option<Command> {
    if game.fire_overwatch_used
        || game.cp_of(player) < Stratagem::FireOverwatch.cost_in(game.scene.edition())
    {
        return None;
    }
    let target = enemy_trigger(
        game,
        player,
        &[
            TriggerKind::SetUp,
            TriggerKind::Moved,
            TriggerKind::DeclaredCharge,
        ],
    )?;
    let options = own_units(game, player)
        .into_iter()
        // The distance first: it rules out most units, and Engagement Range is the dearer test.
        .filter(|&(a, u)| game.unit_distance((a, u), target) <= FIRE_OVERWATCH_RANGE_INCHES)
        .filter(|&(a, u)| !game.engaged(a, u))
        .map(|au| {
            (
                rough_unit_points(game, au, target, false, Some(6)),
                stratagem(game, player, Stratagem::FireOverwatch, au, Some(target)),
            )
        })
        .collect();
    best_legal(game, options, OVERWATCH_MIN_POINTS)
}

/// Heroic Intervention (2 CP) just after an enemy charge move ends within 6" of one of
/// `player`'s units that is not engaged: the unit with the best melee value against the
/// charger times its chance to reach it, when at least [`HEROIC_MIN_POINTS`] and the unit
/// would deal more than it is expected to take back.
pub fn heroic_intervention(game: &Game, player: u8) -> Option<Command> {
    if game.phase != Phase::Charge
        || game.cp_of(player) < Stratagem::HeroicIntervention.cost_in(game.scene.edition())
    {
        return None;
    }
    let target = enemy_trigger(game, player, &[TriggerKind::EndedChargeMove])?;
    let options: Vec<(f64, Command)> = own_units(game, player)
        .into_iter()
        .filter_map(|au| {
            let d = game.unit_distance(au, target);
            if d > HEROIC_INTERVENTION_RANGE_INCHES || game.engaged(au.0, au.1) {
                return None;
            }
            let odds = crate::rules::movement::charge_roll_probability(
                game.scene.edition().charge_roll_needed(d),
            );
            let dealt = rough_unit_points(game, au, target, true, None);
            let taken = rough_unit_points(game, target, au, true, None);
            (dealt > taken).then(|| {
                (
                    odds * dealt,
                    stratagem(
                        game,
                        player,
                        Stratagem::HeroicIntervention,
                        au,
                        Some(target),
                    ),
                )
            })
        })
        .collect();
    // Paid only where a charge move is possible: tried on a copy whose roll is the highest,
    // the computer's own charge move must be found and accepted there.
    let options = options
        .into_iter()
        .filter(|(v, c)| *v >= HEROIC_MIN_POINTS && heroic_move_possible(game, player, c))
        .collect();
    best_legal(game, options, HEROIC_MIN_POINTS)
}

/// Whether, after the Heroic Intervention `use_it` with the highest charge roll (a trial
/// with [`Game::check`]'s dice), the computer finds a charge move the engine accepts.
fn heroic_move_possible(game: &Game, player: u8, use_it: &Command) -> bool {
    let Some(after) = super::trial(game, use_it) else {
        return false;
    };
    let Some(pending) = after.charge.clone() else {
        return false;
    };
    let mut ai = super::Ai::with_level(super::Level::Hard);
    let mv = ai.charge_move(&after, player, pending.unit, &pending.targets, pending.dice);
    matches!(&mv, Command::ChargeMove { paths, .. } if !paths.is_empty())
        && super::legal(&after, &mv)
}

/// Counter-offensive (2 CP) just after an enemy unit has fought, before the opponent selects
/// the next: the eligible unit that would destroy the most points of the units it is engaged
/// with, when at least [`COUNTER_OFFENSIVE_MIN_POINTS`].
pub fn counter_offensive(game: &Game, player: u8) -> Option<Command> {
    if !game.counter_offensive_window(player)
        || game.cp_of(player) < Stratagem::CounterOffensive.cost_in(game.scene.edition())
    {
        return None;
    }
    let earmy = game.army_of(opponent(player))?;
    let options = own_units(game, player)
        .into_iter()
        .filter(|&(a, u)| game.can_fight(a, u))
        .map(|au| {
            let value = super::roots(game, opponent(player))
                .into_iter()
                .filter(|&e| game.units_engaged(au, (earmy, e)))
                .map(|e| rough_unit_points(game, au, (earmy, e), true, None))
                .fold(0.0, f64::max);
            (
                value,
                stratagem(game, player, Stratagem::CounterOffensive, au, None),
            )
        })
        .collect();
    best_legal(game, options, COUNTER_OFFENSIVE_MIN_POINTS)
}

/// Grenade (1 CP) for the GRENADES unit (`army`, `unit`) that has not shot: at the enemy
/// unit within 8" where six D6 of mortal wounds on 4+ destroy the most points, with that
/// expected value; None when no enemy is in reach or CP are short.
pub fn grenade(game: &Game, player: u8, (army, unit): (usize, usize)) -> Option<(f64, Command)> {
    if game.cp_of(player) < Stratagem::Grenade.cost_in(game.scene.edition())
        || !game.has_keyword(army, unit, "GRENADES")
        || game.stratagems_used.contains(&(player, Stratagem::Grenade))
    {
        return None;
    }
    let earmy = game.army_of(opponent(player))?;
    let mortals = f64::from(GRENADE_DICE) * at_least(i32::from(GRENADE_WOUNDS_ON));
    super::roots(game, opponent(player))
        .into_iter()
        .filter(|&e| game.unit_distance((army, unit), (earmy, e)) <= GRENADE_RANGE_INCHES)
        .map(|e| {
            let live = game.live_models(earmy, e);
            let first = live[0];
            let w = &game.scene.armies[earmy].units[first.unit].models[first.model];
            let wounds = f64::from(w.characteristics.wounds.max(1));
            let models = (mortals / wounds).min(live.len() as f64);
            (
                models * value_per_model(game, earmy, e),
                stratagem(
                    game,
                    player,
                    Stratagem::Grenade,
                    (army, unit),
                    Some((earmy, e)),
                ),
            )
        })
        .filter(|(_, c)| super::legal(game, c))
        .max_by(|a, b| a.0.total_cmp(&b.0))
}

/// Tank Shock (1 CP) just after one of `player`'s VEHICLE units ends its charge move: at the
/// engaged enemy unit worth the most points per model.
pub fn tank_shock(game: &Game, player: u8) -> Option<Command> {
    let t = game.trigger?;
    if t.kind != TriggerKind::EndedChargeMove
        || game.player_of(t.army) != player
        || game.cp_of(player) < Stratagem::TankShock.cost_in(game.scene.edition())
        || !game.has_keyword(t.army, t.unit, "VEHICLE")
    {
        return None;
    }
    let earmy = game.army_of(opponent(player))?;
    let options = super::roots(game, opponent(player))
        .into_iter()
        .filter(|&e| game.units_engaged((t.army, t.unit), (earmy, e)))
        .map(|e| {
            (
                value_per_model(game, earmy, e),
                stratagem(
                    game,
                    player,
                    Stratagem::TankShock,
                    (t.army, t.unit),
                    Some((earmy, e)),
                ),
            )
        })
        .collect();
    best_legal(game, options, 0.0)
}

/// Insane Bravery (1 CP, once per battle) set in `player`'s Command phase, before the
/// Battle-shock tests (it is used, and paid, only if the test fails): on the Below
/// Half-strength unit worth the most points that stands within range of an objective marker
/// (where Battle-shock would cost its Objective Control), when no unit has it set yet.
pub fn insane_bravery(game: &Game, player: u8) -> Option<Command> {
    let i = usize::from(player - 1);
    if game.phase != Phase::Command
        || game.active_player != player
        || game.insane_bravery_used[i]
        || game.cp_of(player) < Stratagem::InsaneBravery.cost_in(game.scene.edition())
        || own_units(game, player)
            .into_iter()
            .any(|(a, u)| game.units[a][u].insane_bravery)
    {
        return None;
    }
    let range = crate::rules::constants::OBJECTIVE_RANGE_HORIZONTAL_INCHES;
    let options = own_units(game, player)
        .into_iter()
        .filter(|&(a, u)| game.must_test_battle_shock(a, u) && !game.units[a][u].battle_shocked)
        .filter(|&(a, u)| {
            let c = super::centre(game, a, u).truncate();
            game.scene
                .objectives
                .iter()
                .any(|o| o.at.vec().distance(c) <= range + 2.0)
        })
        .map(|(a, u)| {
            (
                f64::from(game.scene.armies[a].units[u].points.unwrap_or(0)),
                stratagem(game, player, Stratagem::InsaneBravery, (a, u), None),
            )
        })
        .collect();
    best_legal(game, options, 0.0)
}

/// Epic Challenge (1 CP) for the unit selected to fight, when it is engaged with an enemy
/// Attached unit: its first CHARACTER model's melee attacks gain PRECISION and reach the
/// Leader.
pub fn epic_challenge(game: &Game, player: u8, (army, unit): (usize, usize)) -> Option<Command> {
    if game.cp_of(player) < Stratagem::EpicChallenge.cost_in(game.scene.edition()) {
        return None;
    }
    let champion = *game.character_models(army, unit).first()?;
    let c = Command::UseStratagem {
        player,
        stratagem: Stratagem::EpicChallenge,
        unit: game.model_name(champion),
        target: None,
        reroll: None,
    };
    super::legal(game, &c).then_some(c)
}

/// From this battle round (the last two of five) the computer keeps no CP in reserve for
/// re-rolls: CP left unspent at the end are worth nothing.
pub const SPEND_ALL_CP_FROM_ROUND: u8 = 4;

/// Command Re-roll (1 CP, paid only if used) set for the first failed Wound roll of the unit
/// about to shoot (`hard`): when the shots are worth at least [`WOUND_REROLL_MIN_POINTS`], CP
/// are to spare (more than [`CP_RESERVE`] in battle rounds 1 to 3, any from round 4, when CP
/// left unspent at the end are worth nothing), none was used this phase and the unit has none
/// set yet (Core Rules: Command Re-roll).
pub fn wound_reroll(game: &Game, player: u8, unit: &str, value: f64) -> Option<Command> {
    let reserve = if game.battle_round >= SPEND_ALL_CP_FROM_ROUND {
        0
    } else {
        CP_RESERVE
    };
    if value < WOUND_REROLL_MIN_POINTS
        || game.cp_of(player) <= reserve
        || game
            .stratagems_used
            .contains(&(player, Stratagem::CommandReroll))
        || game
            .own_root(player, unit)
            .is_ok_and(|(a, u)| game.units[a][u].command_reroll.is_some())
    {
        return None;
    }
    let c = command_reroll(player, unit, RerollRoll::Wound);
    super::legal(game, &c).then_some(c)
}
