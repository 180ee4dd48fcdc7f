//! The effect primitives that army rules and datasheet abilities beyond the shipped armies
//! need (rules/effect.rs, game/effects.rs): Auras over friendly and enemy units (Core Rules:
//! Aura Abilities), a keyword within range (Tyranids' Synapse), Toughness, Ballistic Skill,
//! the Benefit of Cover, Fights First, Battle-shock tests on 3D6 and reanimated models
//! (Necrons' Reanimation Protocols). Each test gives a unit of the test armies the rule and
//! fails on an engine without the primitive.

use std::path::Path;
use std::sync::Arc;

use crate::battle;

use battle::*;
use wartable::data::load_scene;
use wartable::game::effects::RefereeAction;
use wartable::game::{Command, Game, GameEvent, WeaponTarget};
use wartable::rules::datasheet::Ability;
use wartable::rules::effect::{Attacks, Condition, Effect, Modifier, Scope, Turn, When};
use wartable::rules::phase::Phase;

/// The army-rules test scene with `ability` added to the datasheet of `player`'s unit `id`.
fn scene_with(additions: &[(u8, &str, Ability)]) -> wartable::data::Scene {
    let mut scene =
        load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenes/army-rules.ron"))
            .unwrap();
    for (player, id, ability) in additions {
        let army = scene
            .armies
            .iter_mut()
            .find(|a| a.player == *player)
            .unwrap();
        let u = army.units.iter_mut().find(|u| u.id == *id).unwrap();
        Arc::make_mut(&mut u.datasheet)
            .abilities
            .push(ability.clone());
    }
    scene
}

fn ability(name: &str, effects: Vec<Effect>) -> Ability {
    Ability {
        name: name.into(),
        text: String::new(),
        effects,
    }
}

fn effect(when: When, scope: Scope, conditions: Vec<Condition>, does: Vec<Modifier>) -> Effect {
    Effect {
        when,
        scope,
        conditions,
        does,
    }
}

/// Expected wounds lost by `target` when `player`'s `unit` shoots it with `weapon`.
fn expected(g: &Game, player: u8, unit: &str, weapon: &str, target: &str) -> f64 {
    g.preview_attacks(player, unit, &[WeaponTarget::new(weapon, target)], false)
        .unwrap_or_else(|r| panic!("{unit} {weapon} at {target}: {r}"))[0]
        .distribution
        .expected_wounds_lost
}

/// Gives `unit` of `player` these effects until the end of the battle (the referee override).
fn give(g: &mut Game, player: u8, unit: &str, effects: Vec<Effect>) {
    accepted(
        g,
        Command::Referee {
            player,
            action: RefereeAction::Modify {
                unit: unit.into(),
                effects,
                lasts: wartable::data::faction_rules::Lasts::EndOfBattle,
            },
            note: "a test rule".into(),
        },
    );
}

#[test]
fn an_aura_covers_friendly_units_in_range_and_an_enemy_aura_lowers_toughness() {
    let aura = effect(
        When::Attacking(Attacks::Any),
        Scope::Aura(6.0),
        vec![Condition::Keyword("INFANTRY".into())],
        vec![Modifier::HitRoll(1)],
    );
    let miasma = effect(
        When::Always,
        Scope::EnemyAura(3.0),
        vec![],
        vec![Modifier::Toughness(-1)],
    );
    let mut g = deployed_game(scene_with(&[
        (1, "redemptor", ability("Test Aura", vec![aura])),
        (2, "nobz", ability("Test Miasma", vec![miasma])),
    ]));
    isolate(
        &mut g,
        &[
            (1, "intercessors"),
            (1, "hellblasters"),
            (1, "eliminators"),
            (1, "redemptor"),
            (2, "nobz"),
            (2, "shoota-boyz"),
        ],
    );
    put(&mut g, 1, "redemptor", 0, 10.0, 4.0);
    put_line(&mut g, 1, "hellblasters", 8.0, 9.0, 1.5);
    put_line(&mut g, 1, "eliminators", 30.0, 9.0, 1.5);
    put_line(&mut g, 1, "intercessors", 8.0, 20.0, 1.5);
    put(&mut g, 1, "captain", 0, 8.0, 18.5);
    put_line(&mut g, 2, "nobz", 40.0, 30.0, 1.6);
    put_line(&mut g, 2, "shoota-boyz", 8.0, 32.0, 1.5);
    let target = unit_ref(&g, 2, "shoota-boyz");
    let hell = unit_ref(&g, 1, "hellblasters");
    let elim = unit_ref(&g, 1, "eliminators");
    assert_eq!(g.attack_changes(hell, target, false).hit, 1, "within 6\"");
    assert_eq!(g.attack_changes(elim, target, false).hit, 0, "20\" away");
    let red = unit_ref(&g, 1, "redemptor");
    assert_eq!(
        g.attack_changes(red, target, false).hit,
        0,
        "the bearer's own unit is covered, but the condition (INFANTRY) fails for it"
    );

    // The Nobz' enemy Aura: the Intercessors' Toughness falls to 3 within 3", so the Shoota
    // Boyz' Strength 4 wounds them on 3+ instead of 4+.
    let far = expected(&g, 2, "shoota-boyz", "Shoota", "intercessors");
    let inter = unit_ref(&g, 1, "intercessors");
    let nobz = unit_ref(&g, 2, "nobz");
    assert_eq!(g.target_defences(inter, nobz, false), (0, false));
    put_line(&mut g, 2, "nobz", 8.0, 23.0, 1.6);
    assert_eq!(g.target_defences(inter, nobz, false), (-1, false));
    let near = expected(&g, 2, "shoota-boyz", "Shoota", "intercessors");
    assert!(
        near > far * 1.2,
        "Toughness 3 is wounded more often: {near} vs {far}"
    );
}

#[test]
fn synapse_style_battle_shock_tests_take_three_dice_within_range_of_the_keyword() {
    let synapse = effect(
        When::Always,
        Scope::Unit,
        vec![Condition::FriendlyWithin(
            "REDEMPTOR DREADNOUGHT".into(),
            6.0,
        )],
        vec![Modifier::BattleShockDice(3)],
    );
    let mut g = deployed_game(scene_with(&[(
        1,
        "intercessors",
        ability("Test Synapse", vec![synapse]),
    )]));
    isolate(
        &mut g,
        &[(1, "intercessors"), (1, "redemptor"), (2, "nobz")],
    );
    put_line(&mut g, 1, "intercessors", 8.0, 20.0, 1.5);
    put(&mut g, 1, "captain", 0, 8.0, 18.5);
    put(&mut g, 1, "redemptor", 0, 40.0, 4.0);
    put_line(&mut g, 2, "nobz", 40.0, 36.0, 1.6);
    let (a, u) = unit_ref(&g, 1, "intercessors");
    assert_eq!(g.battle_shock_dice(a, u), 2, "no REDEMPTOR within 6\"");
    put(&mut g, 1, "redemptor", 0, 14.0, 20.0);
    assert_eq!(g.battle_shock_dice(a, u), 3);
    // Below Half-strength: the test at the end of this Command phase is on 3D6.
    for m in 0..7 {
        g.units[a][u].models[m].alive = false;
        g.units[a][u].models[m].wounds = 0;
    }
    let ev = accepted(&mut g, Command::EndPhase { player: 1 });
    let test = ev
        .iter()
        .find_map(|e| match e {
            GameEvent::BattleShockTest {
                unit, dice, third, ..
            } if unit == "intercessors" => Some((*dice, *third)),
            _ => None,
        })
        .expect("a Battle-shock test");
    assert!(test.1.is_some(), "a third die: {test:?}");
}

#[test]
fn reanimation_heals_first_then_returns_destroyed_models_in_coherency_out_of_engagement() {
    let mut g = deployed_game(scene_with(&[]));
    isolate(&mut g, &[(1, "intercessors"), (2, "nobz")]);
    put_line(&mut g, 1, "intercessors", 8.0, 20.0, 1.5);
    put(&mut g, 1, "captain", 0, 8.0, 18.5);
    put_line(&mut g, 2, "nobz", 40.0, 36.0, 1.6);
    give(
        &mut g,
        1,
        "intercessors",
        vec![effect(
            When::PhaseEnd(Phase::Command, Turn::Own),
            Scope::Unit,
            vec![],
            vec![Modifier::Reanimate("3".parse().unwrap())],
        )],
    );
    let (a, u) = unit_ref(&g, 1, "intercessors");
    // Model 0 wounded, models 8 and 9 destroyed; an enemy Nob stands where model 8 stood. Three
    // wounds: model 0 healed, model 8 returned elsewhere, then healed (a wounded model is
    // always healed before another returns), model 9 still destroyed.
    g.units[a][u].models[0].wounds = 1;
    for m in [8, 9] {
        g.units[a][u].models[m].alive = false;
        g.units[a][u].models[m].wounds = 0;
    }
    let eight = pos(&g, 1, "intercessors", 8);
    put(&mut g, 2, "nobz", 0, eight.x, eight.y + 0.2);
    let ev = advance_to(&mut g, 1, Phase::Movement);
    let returned: Vec<&GameEvent> = ev
        .iter()
        .filter(|e| matches!(e, GameEvent::ModelReturned { .. }))
        .collect();
    assert!(
        ev.iter()
            .any(|e| matches!(e, GameEvent::WoundsRegained { regained: 1, .. }))
    );
    assert_eq!(g.units[a][u].models[0].wounds, 2, "healed first");
    assert_eq!(returned.len(), 1, "{ev:?}");
    assert!(g.units[a][u].models[8].alive);
    assert_eq!(
        g.units[a][u].models[8].wounds, 2,
        "returned with 1, then healed"
    );
    assert!(!g.units[a][u].models[9].alive);
    let new_eight = pos(&g, 1, "intercessors", 8);
    let nob = pos(&g, 2, "nobz", 0);
    assert!(
        (new_eight - nob).length() > 2.0,
        "not set up in Engagement Range: {new_eight:?} vs the Nob at {nob:?}"
    );
    let nearest = (0..8)
        .map(|m| (pos(&g, 1, "intercessors", m) - new_eight).length())
        .fold(f32::INFINITY, f32::min);
    assert!(nearest < 3.3, "in Unit Coherency: {nearest}");
    assert!(nearest > 1.2, "on no other model: {nearest}");
}

#[test]
fn skill_cover_and_fights_first_change_the_attack_and_the_fight_order() {
    let mut g = deployed_game(scene_with(&[]));
    isolate(
        &mut g,
        &[(1, "intercessors"), (2, "shoota-boyz"), (2, "nobz")],
    );
    put_line(&mut g, 1, "intercessors", 8.0, 20.0, 1.5);
    put(&mut g, 1, "captain", 0, 8.0, 18.5);
    put_line(&mut g, 2, "shoota-boyz", 8.0, 32.0, 1.5);
    put_line(&mut g, 2, "nobz", 40.0, 36.0, 1.6);
    let before = expected(&g, 1, "intercessors", "Bolt rifle", "shoota-boyz");
    give(
        &mut g,
        1,
        "intercessors",
        vec![
            effect(
                When::Attacking(Attacks::Ranged),
                Scope::Unit,
                vec![],
                vec![Modifier::Skill(1)],
            ),
            effect(
                When::Always,
                Scope::Unit,
                vec![],
                vec![Modifier::FightsFirst],
            ),
        ],
    );
    let skilled = expected(&g, 1, "intercessors", "Bolt rifle", "shoota-boyz");
    // BS 3+ to 2+: more hits (the Captain's re-rolls make it less than 5/4).
    assert!(skilled > before * 1.05, "{skilled} vs {before}");
    // The Benefit of Cover: the Boyz' 6+ save against AP -1 becomes 5+.
    give(
        &mut g,
        2,
        "shoota-boyz",
        vec![effect(
            When::Always,
            Scope::Unit,
            vec![],
            vec![Modifier::BenefitOfCover],
        )],
    );
    let covered = expected(&g, 1, "intercessors", "Bolt rifle", "shoota-boyz");
    assert!(covered < skilled * 0.9, "{covered} vs {skilled}");
    let (a, u) = unit_ref(&g, 1, "intercessors");
    assert!(g.rules_give_fights_first(a, u));
    let (b, v) = unit_ref(&g, 2, "nobz");
    assert!(!g.rules_give_fights_first(b, v));
}
