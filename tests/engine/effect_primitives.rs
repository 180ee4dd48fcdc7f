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

/// A game on the test scene `file` (tests/scenes) with every army deployed, only the units
/// `keep` ((player, id)) left on the battlefield.
fn isolated_game(file: &str, keep: &[(u8, &str)]) -> Game {
    let scene = load_scene(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/scenes")
            .join(file),
    )
    .unwrap();
    let mut g = deployed_game(scene);
    isolate(&mut g, keep);
    g
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
    let banner = effect(
        When::Always,
        Scope::Aura(6.0),
        vec![],
        vec![Modifier::ObjectiveControl(1)],
    );
    let mut g = deployed_game(scene_with(&[
        (1, "redemptor", ability("Test Aura", vec![aura])),
        (1, "redemptor", ability("Test Banner", vec![banner.clone()])),
        (1, "ballistus", ability("Test Banner", vec![banner])),
        (2, "nobz", ability("Test Miasma", vec![miasma])),
    ]));
    isolate(
        &mut g,
        &[
            (1, "intercessors"),
            (1, "hellblasters"),
            (1, "eliminators"),
            (1, "redemptor"),
            (1, "ballistus"),
            (2, "nobz"),
            (2, "shoota-boyz"),
        ],
    );
    put(&mut g, 1, "ballistus", 0, 14.0, 4.0);
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
    // The same Aura from two units (the Redemptor's and the Ballistus' banners) counts once.
    let hellblaster = wartable::game::sight::ModelRef {
        army: hell.0,
        unit: hell.1,
        model: 0,
    };
    assert_eq!(g.objective_control(hellblaster), 2, "OC 1, +1 once");
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

#[test]
fn walkers_move_through_models_their_rules_allow_and_nothing_else() {
    let mut g = deployed_game(scene_with(&[]));
    isolate(&mut g, &[(1, "redemptor"), (1, "ballistus"), (2, "nobz")]);
    advance_to(&mut g, 1, Phase::Movement);
    // The Redemptor 8" behind the Ballistus' far side; the Nobz well away.
    put(&mut g, 1, "redemptor", 0, 20.0, 10.0);
    put(&mut g, 1, "ballistus", 0, 20.0, 14.0);
    put_line(&mut g, 2, "nobz", 44.0, 34.0, 1.6);
    let through = normal_move(&g, 1, "redemptor", 0.0, 8.0);
    let r = rejected(&mut g.clone(), through.clone());
    assert!(r.reason.contains("MONSTER or VEHICLE"), "{r}");
    give(
        &mut g,
        1,
        "redemptor",
        vec![effect(
            When::Always,
            Scope::Unit,
            vec![],
            vec![Modifier::WalkThroughFriendlyBig],
        )],
    );
    accepted(&mut g.clone(), through);

    // Through enemy models: refused until the rules allow it, and never ending in
    // Engagement Range.
    put(&mut g, 1, "ballistus", 0, 4.0, 40.0);
    put_line(&mut g, 2, "nobz", 16.8, 14.0, 1.6);
    let over = normal_move(&g, 1, "redemptor", 0.0, 8.0);
    let r = rejected(&mut g.clone(), over.clone());
    assert!(
        r.reason.contains("would move within Engagement Range"),
        "{r}"
    );
    give(
        &mut g,
        1,
        "redemptor",
        vec![effect(
            When::Always,
            Scope::Unit,
            vec![],
            vec![Modifier::WalkThroughModels],
        )],
    );
    accepted(&mut g.clone(), over);
    let short = normal_move(&g, 1, "redemptor", 0.0, 1.0);
    let r = rejected(&mut g, short);
    assert!(r.reason.contains("end within Engagement Range"), "{r}");
}

/// The T'au observers (a Strike Team, a Pathfinder Team) 14" south of the Nobz, in player 1's
/// Shooting phase.
fn tau_shooting() -> Game {
    let mut g = isolated_game(
        "tau.ron",
        &[
            (1, "strike-team"),
            (1, "pathfinders"),
            (2, "nobz"),
            (2, "lootas"),
        ],
    );
    put_line(&mut g, 1, "strike-team", 8.0, 10.0, 1.3);
    put_line(&mut g, 1, "pathfinders", 24.0, 10.0, 1.3);
    put_line(&mut g, 2, "nobz", 12.0, 24.0, 1.6);
    put_line(&mut g, 2, "lootas", 28.0, 26.0, 1.4);
    advance_to(&mut g, 1, Phase::Shooting);
    g
}

fn spot(by: &str, target: &str) -> Command {
    Command::RuleChoice {
        player: 1,
        rule: "For The Greater Good".into(),
        pick: Some(target.into()),
        by: Some(by.into()),
    }
}

#[test]
fn for_the_greater_good_observers_spot_and_guided_units_improve_their_ballistic_skill() {
    let mut g = tau_shooting();
    let before = expected(&g, 1, "strike-team", "Pulse rifle", "nobz");
    let observer_before = expected(&g, 1, "pathfinders", "Pulse carbine", "nobz");
    let ev = accepted(&mut g, spot("pathfinders", "nobz"));
    assert!(ev.iter().any(|e| matches!(
        e,
        GameEvent::RuleChosen { by: Some(b), pick: Some(p), .. } if b == "pathfinders" && p == "nobz"
    )));
    let guided = expected(&g, 1, "strike-team", "Pulse rifle", "nobz");
    // BS 4+ becomes 3+: 4/6 of the attacks hit instead of 3/6 (a little less in wounds lost,
    // which stop at the Nobz' last wound).
    assert!(
        (guided / before - 4.0 / 3.0).abs() < 1e-3,
        "{guided} vs {before}"
    );
    assert_eq!(
        expected(&g, 1, "pathfinders", "Pulse carbine", "nobz"),
        observer_before,
        "the Observer is not Guided"
    );
    assert_eq!(
        expected(&g, 1, "strike-team", "Pulse rifle", "lootas"),
        {
            let mut plain = tau_shooting();
            plain.effects = Default::default();
            expected(&plain, 1, "strike-team", "Pulse rifle", "lootas")
        },
        "only against the Spotted unit"
    );
    // Each Observer once, each enemy unit once a phase; an Observer names itself.
    let r = rejected(&mut g, spot("pathfinders", "lootas"));
    assert!(r.reason.contains("cannot pick"), "{r}");
    let r = rejected(&mut g, spot("strike-team", "nobz"));
    assert!(r.reason.contains("cannot pick 'nobz'"), "{r}");
    let r = rejected(
        &mut g,
        Command::RuleChoice {
            player: 1,
            rule: "For The Greater Good".into(),
            pick: Some("lootas".into()),
            by: None,
        },
    );
    assert!(r.reason.contains("by"), "{r}");
    // The marks end with the phase.
    accepted(&mut g, Command::EndPhase { player: 1 });
    assert!(g.effects.choices.is_empty(), "{:?}", g.effects.choices);
}

#[test]
fn the_computer_spots_with_its_cheapest_markerlight_unit_before_it_shoots() {
    let g = tau_shooting();
    for level in [
        wartable::ai::Level::Easy,
        wartable::ai::Level::Normal,
        wartable::ai::Level::Hard,
    ] {
        use wartable::ai::Brain;
        let c = wartable::ai::Ai::with_level(level).next(&g, 1);
        match &c {
            Command::RuleChoice {
                by: Some(by),
                pick: Some(_),
                ..
            } => {
                // Both units are MARKERLIGHT: the cheaper one observes.
                assert_eq!(by, "strike-team", "{level:?}")
            }
            other => panic!("{level:?}: {other:?}"),
        }
    }
}

fn death_guard() -> wartable::data::Scene {
    load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenes/death-guard.ron")).unwrap()
}

#[test]
fn nurgles_gift_afflicts_enemies_in_a_contagion_range_that_grows_with_the_rounds() {
    // The Plague is picked before the battle (here during deployment); the default, when none
    // is picked, is the first.
    let g = deployed_game(death_guard());
    assert!(
        g.effects
            .choices
            .iter()
            .any(|c| c.pick.as_deref() == Some("Skullsquirm Blight")),
        "{:?}",
        g.effects.choices
    );
    let mut g = (1..)
        .map(|s| {
            let (mut g, _) = Game::start(death_guard(), s);
            g.apply(&Command::RuleChoice {
                player: 1,
                rule: "Nurgle's Gift (Aura)".into(),
                pick: Some("Rattlejoint Ague".into()),
                by: None,
            })
            .unwrap();
            deploy_all(&mut g);
            g
        })
        .find(|g| g.first_player == 1)
        .unwrap();
    while g.stage == wartable::rules::phase::Stage::Scouts {
        let p = g.active_player;
        g.apply(&Command::EndPhase { player: p }).unwrap();
    }
    isolate(&mut g, &[(1, "poxwalkers"), (2, "nobz")]);
    put_line(&mut g, 1, "poxwalkers", 10.0, 10.0, 1.3);
    put_line(&mut g, 2, "nobz", 10.0, 15.0, 1.6);
    let pox = unit_ref(&g, 1, "poxwalkers");
    let nobz = unit_ref(&g, 2, "nobz");
    let nob = wartable::game::sight::ModelRef {
        army: nobz.0,
        unit: nobz.1,
        model: 0,
    };
    // Round 1: 3". The Nobz stand about 4" away: not Afflicted.
    assert_eq!(g.target_defences(nobz, pox, false), (0, false));
    assert_eq!(g.save_changes(nob, pox, false), (0, 0));
    put_line(&mut g, 2, "nobz", 10.0, 13.0, 1.6);
    assert_eq!(g.target_defences(nobz, pox, false), (-1, false));
    assert_eq!(g.save_changes(nob, pox, false), (1, 0), "Rattlejoint Ague");
    // Round 2: 6".
    put_line(&mut g, 2, "nobz", 10.0, 15.0, 1.6);
    advance_to(&mut g, 2, Phase::Command);
    advance_to(&mut g, 1, Phase::Command);
    assert_eq!(g.battle_round, 2);
    assert_eq!(g.target_defences(nobz, pox, false), (-1, false));
    // The Death Guard's own units are never Afflicted.
    assert_eq!(g.target_defences(pox, nobz, false), (0, false));
}

/// The Asuryani Guardian Defenders 14" and the Falcon 20" south of the Shoota Boyz and Nobz, in
/// player 1's Movement phase of battle round 1, both players with 5 CP.
fn aeldari_moving() -> Game {
    let mut g = isolated_game(
        "aeldari.ron",
        &[
            (1, "guardians"),
            (1, "falcon"),
            (2, "shoota-boyz"),
            (2, "nobz"),
        ],
    );
    put_line(&mut g, 1, "guardians", 8.0, 14.0, 1.3);
    put(&mut g, 1, "falcon", 0, 30.0, 8.0);
    put_line(&mut g, 2, "shoota-boyz", 8.0, 28.0, 1.3);
    put_line(&mut g, 2, "nobz", 28.0, 28.0, 1.6);
    advance_to(&mut g, 1, Phase::Movement);
    g.cp = [5, 5];
    g
}

fn manoeuvre(name: &str, unit: &str) -> Command {
    Command::UseRuleStratagem {
        player: 1,
        stratagem: name.into(),
        unit: unit.into(),
    }
}

fn first_allowance(
    g: &Game,
    player: u8,
    unit: &str,
    mode: wartable::rules::movement::MoveMode,
) -> f32 {
    let (army, u) = unit_ref(g, player, unit);
    g.move_allowance(army, u, mode).unwrap()[0].1
}

#[test]
fn battle_focus_tokens_pay_for_agile_manoeuvres_one_per_unit_and_phase_and_renew_each_round() {
    use wartable::rules::movement::MoveMode;
    let mut g = aeldari_moving();
    assert_eq!((g.tokens_of(1), g.tokens_of(2)), (4, 0));
    let before = first_allowance(&g, 1, "guardians", MoveMode::Normal);
    let ev = accepted(&mut g, manoeuvre("Swift as the Wind", "guardians"));
    assert!(
        ev.iter().any(|e| matches!(
            e,
            GameEvent::RuleStratagemUsed {
                tokens: 1,
                tokens_left: 3,
                cp: 0,
                cp_left: 5,
                ..
            }
        )),
        "{ev:?}"
    );
    assert_eq!(
        first_allowance(&g, 1, "guardians", MoveMode::Normal),
        before + 2.0
    );
    // One Agile Manoeuvre per unit per phase.
    let r = rejected(&mut g, manoeuvre("Flitting Shadows", "guardians"));
    assert!(r.reason.contains("already performed"), "{r}");
    // Swift as the Wind again, on another unit; Star Engines only on a VEHICLE.
    accepted(&mut g, manoeuvre("Swift as the Wind", "falcon"));
    assert_eq!(g.tokens_of(1), 2);
    // Orks have no tokens and no such manoeuvre.
    let r = rejected(
        &mut g,
        Command::UseRuleStratagem {
            player: 2,
            stratagem: "Swift as the Wind".into(),
            unit: "nobz".into(),
        },
    );
    assert!(r.reason.contains("no Stratagem"), "{r}");
    // The bonus ends with the phase; the tokens last the battle round.
    advance_to(&mut g, 1, Phase::Charge);
    accepted(&mut g, manoeuvre("Flitting Shadows", "guardians"));
    assert_eq!(g.tokens_of(1), 1);
    advance_to(&mut g, 2, Phase::Movement);
    assert_eq!(
        first_allowance(&g, 1, "guardians", MoveMode::Normal),
        before
    );
    // Sudden Strike in the opponent's Fight phase spends the last token.
    advance_to(&mut g, 2, Phase::Fight);
    let (army, root) = unit_ref(&g, 1, "guardians");
    assert_eq!(g.fight_move_inches(army, root, 3.0), 3.0);
    accepted(&mut g, manoeuvre("Sudden Strike", "guardians"));
    assert_eq!(g.fight_move_inches(army, root, 3.0), 6.0);
    assert_eq!(g.tokens_of(1), 0);
    let r = rejected(&mut g, manoeuvre("Sudden Strike", "falcon"));
    assert!(r.reason.contains("already used this phase"), "{r}");
    assert!(g.rule_stratagem_options(1).is_empty());
    // A new battle round: 4 tokens again, the unspent ones lost.
    advance_to(&mut g, 1, Phase::Command);
    assert_eq!(g.tokens_of(1), 4);
}

#[test]
fn flitting_shadows_keeps_enemy_fire_overwatch_off_the_unit_and_star_engines_lets_a_vehicle_shoot_after_advancing()
 {
    use wartable::rules::movement::MoveMode;
    use wartable::rules::stratagem::Stratagem;
    let overwatch = |target: &str| Command::UseStratagem {
        player: 2,
        stratagem: Stratagem::FireOverwatch,
        unit: "shoota-boyz".into(),
        target: Some(target.into()),
        reroll: None,
    };
    let mut twin = aeldari_moving();
    let mut g = twin.clone();
    // Without the manoeuvre the Boyz may fire at the Guardians that just moved.
    let step = normal_move(&twin, 1, "guardians", 0.0, 1.0);
    accepted(&mut twin, step.clone());
    accepted(&mut twin, overwatch("guardians"));
    accepted(&mut g, manoeuvre("Flitting Shadows", "guardians"));
    accepted(&mut g, step);
    let r = rejected(&mut g, overwatch("guardians"));
    assert!(r.reason.contains("Fire Overwatch"), "{r}");
    // Star Engines: the Falcon Advances and still shoots.
    let mut plain = g.clone();
    accepted(&mut g, manoeuvre("Star Engines", "falcon"));
    for game in [&mut g, &mut plain] {
        accepted(
            game,
            Command::Advance {
                player: 1,
                unit: "falcon".into(),
            },
        );
        let paths = shift(game, 1, "falcon", 0.0, 1.0);
        accepted(
            game,
            Command::Move {
                player: 1,
                unit: "falcon".into(),
                mode: MoveMode::Advance,
                paths,
            },
        );
        advance_to(game, 1, Phase::Shooting);
    }
    let shoot = |game: &Game| {
        game.preview_attacks(
            1,
            "falcon",
            &[WeaponTarget::new("Pulse Laser", "nobz")],
            false,
        )
    };
    assert!(
        shoot(&plain).is_err(),
        "a unit that Advanced shoots only ASSAULT weapons"
    );
    assert!(shoot(&g).is_ok());
}

/// The Commissar (OFFICER) 20" from the Tempestus Scions, the Scions 18" south of the Nobz and
/// the Shoota Boyz, in player 1's Command phase.
fn guard_command() -> Game {
    let mut g = isolated_game(
        "guard.ron",
        &[
            (1, "commissar"),
            (1, "scions"),
            (2, "shoota-boyz"),
            (2, "nobz"),
        ],
    );
    put(&mut g, 1, "commissar", 0, 40.0, 8.0);
    put_line(&mut g, 1, "scions", 8.0, 8.0, 1.3);
    put_line(&mut g, 2, "nobz", 8.0, 26.0, 1.6);
    put_line(&mut g, 2, "shoota-boyz", 8.0, 30.0, 1.3);
    advance_to(&mut g, 1, Phase::Command);
    g
}

fn order(name: &str) -> Command {
    Command::UseRuleStratagem {
        player: 1,
        stratagem: name.into(),
        unit: "scions".into(),
    }
}

#[test]
fn voice_of_command_orders_go_to_units_near_an_officer_and_end_when_battle_shocked() {
    let mut g = guard_command();
    // One OFFICER unit on the battlefield: one Order this Command phase.
    assert_eq!(g.tokens_of(1), 1);
    let r = rejected(&mut g, order("Take Aim!"));
    assert!(r.reason.contains("FriendlyWithin"), "{r}");
    put(&mut g, 1, "commissar", 0, 12.0, 4.0);
    let mut plain = g.clone();
    let mut rank = g.clone();
    let mut cover = g.clone();
    accepted(&mut g, order("Take Aim!"));
    assert_eq!(g.tokens_of(1), 0);
    let r = rejected(&mut g, order("Take Cover!"));
    assert!(
        r.reason.contains("already performed") || r.reason.contains("token"),
        "{r}"
    );
    accepted(&mut rank, order("First Rank, Fire! Second Rank, Fire!"));
    accepted(&mut cover, order("Take Cover!"));
    for game in [&mut g, &mut plain, &mut rank, &mut cover] {
        advance_to(game, 1, Phase::Shooting);
    }
    let lasgun = |game: &Game| expected(game, 1, "scions", "Hot-shot lasgun", "nobz");
    let base = lasgun(&plain);
    // Take Aim!: BS 3+ becomes 2+ (5/6 of the attacks hit instead of 4/6).
    assert!(
        (lasgun(&g) / base - 1.25).abs() < 1e-3,
        "{} vs {base}",
        lasgun(&g)
    );
    // First Rank, Fire!: the RAPID FIRE lasguns make 2 attacks each beyond half range.
    assert!(
        (lasgun(&rank) / base - 2.0).abs() < 1e-3,
        "{} vs {base}",
        lasgun(&rank)
    );
    // Take Cover!: in the Orks' turn the Scions save on 3+ instead of 4+.
    let shootas = |game: &mut Game| {
        advance_to(game, 2, Phase::Shooting);
        put_line(game, 2, "shoota-boyz", 8.0, 20.0, 1.3);
        expected(game, 2, "shoota-boyz", "Shoota", "scions")
    };
    let open = shootas(&mut plain);
    let covered = shootas(&mut cover);
    assert!(
        (covered / open - 2.0 / 3.0).abs() < 1e-3,
        "{covered} vs {open}"
    );
    // A Battle-shocked unit loses its Order.
    let (army, root) = unit_ref(&cover, 1, "scions");
    cover.units[army][root].battle_shocked = true;
    let shocked = expected(&cover, 2, "shoota-boyz", "Shoota", "scions");
    assert!((shocked / open - 1.0).abs() < 1e-9, "{shocked} vs {open}");
}

/// The Hearthkyn Warriors 11" south of the Nobz, who stand on the centre objective marker,
/// with the Shoota Boyz off every marker, in player 1's Command phase of battle round 1.
fn votann_command() -> Game {
    let mut g = isolated_game(
        "votann.ron",
        &[(1, "hearthkyn"), (2, "shoota-boyz"), (2, "nobz")],
    );
    put_line(&mut g, 1, "hearthkyn", 24.0, 9.0, 1.3);
    put_line(&mut g, 2, "nobz", 26.0, 22.0, 1.6);
    put_line(&mut g, 2, "shoota-boyz", 40.0, 20.0, 1.3);
    advance_to(&mut g, 1, Phase::Command);
    g
}

#[test]
fn prioritised_efficiency_runs_on_yield_points_hostile_acquisition_then_fortify_takeover() {
    let mut g = votann_command();
    let mut core = g.clone();
    core_rules_only(&mut core);
    let ev = advance_to(&mut g, 1, Phase::Shooting);
    advance_to(&mut core, 1, Phase::Shooting);
    // No marker held: no Yield point; Hostile Acquisition until the next Command phase.
    assert!(
        ev.iter().any(|e| matches!(
            e,
            GameEvent::YieldPoints {
                player: 1,
                gained: 0,
                total: 0
            }
        )),
        "{ev:?}"
    );
    assert!(ev.iter().any(|e| matches!(
        e,
        GameEvent::RuleChosen { player: 1, pick: Some(p), .. } if p == "Hostile Acquisition"
    )));
    let bolter =
        |game: &Game, target: &str| expected(game, 1, "hearthkyn", "Autoch-pattern bolter", target);
    // +1 to Hit (4+ becomes 3+) only at the Nobz on the marker.
    let on = bolter(&g, "nobz") / bolter(&core, "nobz");
    assert!((on - 4.0 / 3.0).abs() < 1e-3, "{on}");
    let off = bolter(&g, "shoota-boyz") / bolter(&core, "shoota-boyz");
    assert!((off - 1.0).abs() < 1e-9, "{off}");
    // A Charge roll too short for the Nobz 11" away is re-rolled by the rule.
    advance_to(&mut g, 1, Phase::Charge);
    let ev = accepted(
        &mut g,
        Command::DeclareCharge {
            player: 1,
            unit: "hearthkyn".into(),
            targets: vec!["nobz".into()],
        },
    );
    let rerolled = ev.iter().find_map(|e| match e {
        GameEvent::RuleRerolled { replaced, .. } => Some(replaced.iter().sum::<u8>()),
        _ => None,
    });
    let first = rerolled.expect("this seed's first Charge roll falls short and is re-rolled");
    assert!(first < 10, "{first}");
    // No charge move (it may not reach): the charge fails.
    accepted(
        &mut g,
        Command::ChargeMove {
            player: 1,
            unit: "hearthkyn".into(),
            paths: Vec::new(),
            targets: vec![],
        },
    );
    // 7 Yield points: Fortify Takeover from the end of the next Command phase; the
    // Hearthkyn on their home marker get +1 to Hit at any target.
    g.effects.yield_points[0] = 7;
    advance_to(&mut g, 2, Phase::Command);
    advance_to(&mut g, 1, Phase::Command);
    advance_to(&mut core, 1, Phase::Command);
    for game in [&mut g, &mut core] {
        put_line(game, 1, "hearthkyn", 9.0, 10.0, 1.0);
        advance_to(game, 1, Phase::Shooting);
    }
    let held = |game: &Game| game.objectives[objective(game, "attacker-home")];
    assert_eq!(held(&g), Some(1));
    let fortified = bolter(&g, "shoota-boyz") / bolter(&core, "shoota-boyz");
    assert!((fortified - 4.0 / 3.0).abs() < 1e-3, "{fortified}");
    // -1 to Wound against the Hearthkyn (not a VEHICLE) from attacks whose Strength is above
    // their Toughness.
    let hk = unit_ref(&g, 1, "hearthkyn");
    let nobz = unit_ref(&g, 2, "nobz");
    assert_eq!(g.defence_changes(hk, nobz, true, true).wound, -1);
    assert_eq!(g.defence_changes(hk, nobz, true, false).wound, 0);
    assert_eq!(core.defence_changes(hk, nobz, true, true).wound, 0);
}

/// The War Dog Karnivore 6" south of the Shoota Boyz and 30" from the Nobz, in player 1's
/// Command phase of battle round 1.
fn dread_command() -> Game {
    let mut g = isolated_game(
        "chaos-knights.ron",
        &[(1, "karnivore"), (2, "shoota-boyz"), (2, "nobz")],
    );
    put(&mut g, 1, "karnivore", 0, 20.0, 14.0);
    put_line(&mut g, 2, "shoota-boyz", 14.0, 22.0, 1.3);
    put_line(&mut g, 2, "nobz", 44.0, 40.0, 1.6);
    advance_to(&mut g, 1, Phase::Command);
    g
}

fn dread(pick: &str) -> Command {
    Command::RuleChoice {
        player: 1,
        rule: "Harbingers of Dread".into(),
        pick: Some(pick.into()),
        by: None,
    }
}

fn kill(g: &mut Game, model: &str, wounds: u8) {
    accepted(
        g,
        Command::Referee {
            player: 1,
            action: RefereeAction::MortalWounds {
                model: model.into(),
                wounds,
            },
            note: "a test casualty".into(),
        },
    );
}

#[test]
fn harbingers_of_dread_add_up_a_dread_ability_in_rounds_one_three_and_five() {
    let mut g = dread_command();
    let boyz = unit_ref(&g, 2, "shoota-boyz");
    let nobz = unit_ref(&g, 2, "nobz");
    let karnivore = unit_ref(&g, 1, "karnivore");
    let ld = |g: &Game, u: (usize, usize)| g.unit_bonus(u.0, u.1, &Modifier::Leadership(0));
    // Deathly Terror from the start: -1 Leadership within 9" only.
    assert_eq!((ld(&g, boyz), ld(&g, nobz)), (1, 0));
    let (mut doom, mut darkness, mut delirium, mut dominion) =
        (g.clone(), g.clone(), g.clone(), g.clone());
    accepted(&mut g, dread("Despair"));
    assert_eq!(ld(&g, boyz), 2);
    let r = rejected(&mut g, dread("Dismay"));
    assert!(r.reason.contains("cannot be chosen now"), "{r}");
    // Round 2 offers none; round 3 another, Despair staying and not offered again.
    advance_to(&mut g, 1, Phase::Movement);
    advance_to(&mut g, 1, Phase::Command);
    assert!(g.rule_choice_options(1).is_empty());
    advance_to(&mut g, 1, Phase::Movement);
    advance_to(&mut g, 1, Phase::Command);
    assert_eq!(g.battle_round, 3);
    let options = g.rule_choice_options(1);
    assert!(!options[0].1.iter().any(|o| o == "Despair"), "{options:?}");
    // Dismay: the Boyz below Starting Strength (not Below Half-strength) take a test.
    let mut calm = g.clone();
    accepted(&mut g, dread("Dismay"));
    assert_eq!(ld(&g, boyz), 2);
    let tested = |game: &mut Game| {
        put(game, 1, "karnivore", 0, 20.0, 14.0);
        put_line(game, 2, "shoota-boyz", 14.0, 22.0, 1.3);
        kill(game, "shoota-boyz#0", 3);
        let mut ev = advance_to(game, 2, Phase::Command);
        ev.extend(advance_to(game, 2, Phase::Movement));
        ev.iter()
            .any(|e| matches!(e, GameEvent::BattleShockTest { unit, .. } if unit == "shoota-boyz"))
    };
    assert!(tested(&mut g));
    assert!(!tested(&mut calm));
    // Doom: +1 to Wound against Battle-shocked targets.
    accepted(&mut doom, dread("Doom"));
    assert_eq!(doom.attack_changes(karnivore, boyz, true).wound, 0);
    doom.units[boyz.0][boyz.1].battle_shocked = true;
    assert_eq!(doom.attack_changes(karnivore, boyz, true).wound, 1);
    // Darkness: -1 to Hit from Battle-shocked units or from more than 18" away.
    accepted(&mut darkness, dread("Darkness"));
    assert_eq!(
        darkness.defence_changes(karnivore, boyz, false, false).hit,
        0
    );
    assert_eq!(
        darkness.defence_changes(karnivore, nobz, false, false).hit,
        -1
    );
    darkness.units[boyz.0][boyz.1].battle_shocked = true;
    assert_eq!(
        darkness.defence_changes(karnivore, boyz, false, false).hit,
        -1
    );
    // Delirium: Below Half-strength units within 9" suffer D3 mortal wounds when they fail.
    accepted(&mut delirium, dread("Delirium"));
    for m in 0..6 {
        kill(&mut delirium, &format!("shoota-boyz#{m}"), 3);
    }
    assert_eq!(
        delirium.mortal_wounds_on_failed_test(boyz.0, boyz.1).len(),
        1
    );
    assert!(
        delirium
            .mortal_wounds_on_failed_test(nobz.0, nobz.1)
            .is_empty()
    );
    // Dominion: the Auras reach 12"; Boyz moved 10-11" away still feel Deathly Terror.
    accepted(&mut dominion, dread("Dominion"));
    let mut plain = dread_command();
    let mut y = 22.0;
    while plain.unit_distance(karnivore, boyz) < 10.0 {
        y += 0.25;
        put_line(&mut plain, 2, "shoota-boyz", 14.0, y, 1.3);
    }
    put_line(&mut dominion, 2, "shoota-boyz", 14.0, y, 1.3);
    assert!(plain.unit_distance(karnivore, boyz) < 11.0);
    assert_eq!((ld(&dominion, boyz), ld(&plain, boyz)), (1, 0));
}

/// The Bloodletters and the Shoota Boyz in the Daemons' deployment zone, the Bloodthirster in
/// No Man's Land far from the Nobz, in player 1's Command phase of battle round 1.
fn shadow_command() -> Game {
    let mut g = isolated_game(
        "daemons.ron",
        &[
            (1, "bloodletters"),
            (1, "bloodthirster"),
            (2, "shoota-boyz"),
            (2, "nobz"),
        ],
    );
    put_line(&mut g, 1, "bloodletters", 4.0, 6.0, 1.4);
    put(&mut g, 1, "bloodthirster", 0, 50.0, 8.0);
    put_line(&mut g, 2, "shoota-boyz", 4.0, 18.0, 1.3);
    put_line(&mut g, 2, "nobz", 6.0, 38.0, 1.6);
    advance_to(&mut g, 1, Phase::Command);
    g
}

#[test]
fn the_shadow_of_chaos_steadies_daemons_and_breaks_enemies_in_it_or_near_a_greater_daemon() {
    let mut g = shadow_command();
    let letters = unit_ref(&g, 1, "bloodletters");
    let boyz = unit_ref(&g, 2, "shoota-boyz");
    let nobz = unit_ref(&g, 2, "nobz");
    let ld = |g: &Game, u: (usize, usize)| g.unit_bonus(u.0, u.1, &Modifier::Leadership(0));
    let terror = |g: &Game, u: (usize, usize)| g.mortal_wounds_on_failed_test(u.0, u.1).len();
    // In the deployment zone: +1 to the Daemons' tests, -1 and D3 mortal wounds for enemies.
    assert_eq!(
        (ld(&g, letters), ld(&g, boyz), terror(&g, boyz)),
        (-1, 1, 1)
    );
    // No Man's Land is not in the Shadow while the Daemons hold no marker there.
    assert_eq!((ld(&g, nobz), terror(&g, nobz)), (0, 0));
    let mut near = g.clone();
    put_line(&mut near, 2, "nobz", 42.0, 12.0, 1.6);
    assert_eq!(
        (ld(&near, nobz), terror(&near, nobz)),
        (1, 1),
        "within 6\" of the Bloodthirster"
    );
    let mut held = g.clone();
    for i in 0..held.objectives.len() {
        if held.objective_zone(i).is_none() {
            held.objectives[i] = Some(1);
        }
    }
    assert_eq!(
        (ld(&held, nobz), terror(&held, nobz)),
        (1, 1),
        "No Man's Land held"
    );
    // Daemonic Manifestation: the Bloodletters (BATTLELINE), Below Half-strength, pass their
    // test and get destroyed models back.
    for m in 0..6 {
        kill(&mut g, &format!("bloodletters#{m}"), 3);
    }
    put(&mut g, 1, "bloodthirster", 0, 24.0, 30.0);
    // The test is taken as this Command phase ends.
    let ev = advance_to(&mut g, 2, Phase::Command);
    let passed = ev.iter().any(|e| {
        matches!(e, GameEvent::BattleShockTest { unit, passed: true, .. } if unit == "bloodletters")
    });
    let returned = ev
        .iter()
        .filter(|e| matches!(e, GameEvent::ModelReturned { ability, .. } if ability == "Daemonic Manifestation"))
        .count();
    assert!(passed, "this seed's test passes: {ev:?}");
    assert!((1..=3).contains(&returned), "{returned}");
}

#[test]
fn gate_of_infinity_takes_unengaged_units_into_reserves_at_the_end_of_the_opponents_fight_phase() {
    use wartable::game::Location;
    use wartable::game::command::ReserveKind;
    let mut g = isolated_game(
        "grey-knights.ron",
        &[
            (1, "strike-1"),
            (1, "strike-2"),
            (2, "shoota-boyz"),
            (2, "nobz"),
        ],
    );
    put_line(&mut g, 1, "strike-1", 8.0, 10.0, 1.3);
    put_line(&mut g, 1, "strike-2", 30.0, 20.0, 1.3);
    put_line(&mut g, 2, "shoota-boyz", 8.0, 30.0, 1.3);
    put_line(&mut g, 2, "nobz", 30.0, 36.0, 1.6);
    let gate = |unit: &str| Command::UseRuleStratagem {
        player: 1,
        stratagem: "Gate of Infinity".into(),
        unit: unit.into(),
    };
    advance_to(&mut g, 2, Phase::Movement);
    // The Nobz in base contact with the second Strike Squad.
    put_line(&mut g, 2, "nobz", 30.0, 21.7, 1.6);
    assert_eq!(g.tokens_of(1), 3);
    let r = rejected(&mut g, gate("strike-1"));
    assert!(r.reason.contains("Fight"), "{r}");
    advance_to(&mut g, 2, Phase::Fight);
    // Units are left to fight: not yet.
    let r = rejected(&mut g, gate("strike-1"));
    assert!(r.reason.contains("end of the Fight phase"), "{r}");
    // The fights done (no attacks made), the unengaged squad goes; the engaged one may not.
    while let Some((player, ids)) = g.next_to_fight() {
        let unit = ids[0].clone();
        accepted(
            &mut g,
            Command::PileIn {
                player,
                unit: unit.clone(),
                paths: Vec::new(),
            },
        );
        accepted(
            &mut g,
            Command::Fight {
                player,
                unit: unit.clone(),
                weapons: Vec::new(),
            },
        );
        accepted(
            &mut g,
            Command::Consolidate {
                player,
                unit,
                paths: Vec::new(),
            },
        );
    }
    let r = rejected(&mut g, gate("strike-2"));
    assert!(r.reason.contains("Engagement Range"), "{r}");
    let ev = accepted(&mut g, gate("strike-1"));
    assert!(
        ev.iter()
            .any(|e| matches!(e, GameEvent::ReservesDeclared { unit, .. } if unit == "strike-1"))
    );
    let (army, root) = unit_ref(&g, 1, "strike-1");
    assert_eq!(
        g.units[army][root].location,
        Location::Reserves(ReserveKind::DeepStrike)
    );
    assert_eq!(g.tokens_of(1), 2);
    // It arrives by Deep Strike in the next Reinforcements step, more than 9" from enemies.
    advance_to(&mut g, 1, Phase::Movement);
    let models = (0..5)
        .map(|m| wartable::game::Placement {
            model: m,
            unit: None,
            x: 46.0 + 1.5 * m as f32,
            y: 40.0,
            z: 0.0,
            facing: 0.0,
        })
        .collect();
    let ev = accepted(
        &mut g,
        Command::SetUpReinforcements {
            player: 1,
            unit: "strike-1".into(),
            models,
        },
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, GameEvent::SetUp { unit, .. } if unit == "strike-1"))
    );
}

#[test]
fn power_from_pain_gathers_tokens_and_empowers_units_through_their_pain_abilities() {
    let mut g = isolated_game(
        "drukhari.ron",
        &[
            (1, "archon"),
            (1, "kabalites"),
            (2, "shoota-boyz"),
            (2, "nobz"),
        ],
    );
    put(&mut g, 1, "archon", 0, 30.0, 14.0);
    put_line(&mut g, 1, "kabalites", 8.0, 14.0, 1.3);
    put_line(&mut g, 2, "nobz", 26.0, 22.0, 1.6);
    put_line(&mut g, 2, "shoota-boyz", 8.0, 30.0, 1.3);
    advance_to(&mut g, 2, Phase::Command);
    let before = g.tokens_of(1);
    // A Pain token as the Drukhari Command phase begins; they are kept.
    let ev = advance_to(&mut g, 1, Phase::Command);
    assert!(ev.iter().any(|e| matches!(
        e,
        GameEvent::TokensGained {
            player: 1,
            gained: 1,
            ..
        }
    )));
    assert_eq!(g.tokens_of(1), before + 1);
    // And one when an enemy unit is destroyed.
    for m in 0..10 {
        kill(&mut g, &format!("shoota-boyz#{m}"), 3);
    }
    assert_eq!(g.tokens_of(1), before + 2);
    advance_to(&mut g, 1, Phase::Shooting);
    let empower = |name: &str, unit: &str| Command::UseRuleStratagem {
        player: 1,
        stratagem: name.into(),
        unit: unit.into(),
    };
    // Only a unit with that Pain ability.
    let r = rejected(&mut g, empower("Hatred Eternal (Pain)", "kabalites"));
    assert!(r.reason.contains("HasAbility"), "{r}");
    let pistol = |g: &Game| expected(g, 1, "archon", "Splinter pistol", "nobz");
    let plain = pistol(&g);
    accepted(&mut g, empower("Hatred Eternal (Pain)", "archon"));
    assert_eq!(g.tokens_of(1), before + 1);
    // Hits on 2+ re-rolled: 35/36 instead of 5/6.
    let empowered = pistol(&g);
    assert!(
        (empowered / plain - 7.0 / 6.0).abs() < 1e-3,
        "{empowered} vs {plain}"
    );
    // Until the end of the phase.
    advance_to(&mut g, 1, Phase::Charge);
    advance_to(&mut g, 2, Phase::Shooting);
    let after = expected(&g, 1, "archon", "Splinter pistol", "nobz");
    assert!((after / plain - 1.0).abs() < 1e-9, "{after} vs {plain}");
}
