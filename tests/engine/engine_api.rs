//! The battle engine's query API: [`Game::check`] agrees with [`Game::apply`] and changes
//! nothing, [`Game::next_to_deploy`] names the units in deployment order, [`Command::unit`]
//! names the unit a command acts for, [`Game::weapons_of`] lists a loadout with its profiles,
//! and the typed [`Rule`] of a rejection reads (and serializes) as the rule's name.

use crate::battle;

use battle::*;
use wartable::game::{Command, Game, GameEvent, Rejection, RerollRoll, Rule, WeaponTarget};
use wartable::rules::movement::MoveMode;
use wartable::rules::phase::{Phase, Stage};
use wartable::rules::stratagem::Stratagem;

/// A game in player 1's Movement phase with only the Eliminators (10" from the Orks' side)
/// and the anchors left, the Eliminators in a line at y = 18".
fn movement_game() -> Game {
    let mut g = deployed_game(open_field());
    advance_to(&mut g, 1, Phase::Movement);
    isolate(&mut g, &[(1, "eliminators"), (2, "nobz")]);
    put_line(&mut g, 1, "eliminators", 10.0, 18.0, 1.8);
    put_line(&mut g, 2, "nobz", 40.0, 30.0, 1.8);
    g
}

fn advance(g: &Game, inches: f32) -> Command {
    Command::Move {
        player: 1,
        unit: "eliminators".into(),
        mode: MoveMode::Advance,
        paths: shift(g, 1, "eliminators", inches, 0.0),
    }
}

/// Check leaves everything as it was: the state, the dice drawn and the dice to come.
fn assert_untouched(g: &Game, c: &Command) {
    let (hash, draws) = (g.state_hash(), g.rng.draws());
    let _ = g.check(c);
    assert_eq!(g.state_hash(), hash, "check changed the game");
    assert_eq!(g.rng.draws(), draws, "check drew dice");
}

#[test]
fn check_accepts_what_apply_accepts_and_leaves_the_game_and_its_dice_alone() {
    let g = movement_game();
    // A Normal move of 5" (Move 6"): legal, no dice.
    let normal = Command::Move {
        player: 1,
        unit: "eliminators".into(),
        mode: MoveMode::Normal,
        paths: shift(&g, 1, "eliminators", 5.0, 0.0),
    };
    assert_eq!(g.check(&normal), Ok(()));
    assert_untouched(&g, &normal);
    let mut applied = g.clone();
    applied
        .apply(&normal)
        .expect("apply accepts what check accepts");

    // An Advance of 6" rolls a die: check must not draw it. The game that was checked and
    // one that never was roll the same Advance roll.
    let adv = advance(&g, 6.0);
    assert_eq!(g.check(&adv), Ok(()));
    assert_untouched(&g, &adv);
    let mut checked = g.clone();
    for _ in 0..3 {
        checked.check(&adv).unwrap();
    }
    let mut fresh = g.clone();
    let a = checked.apply(&adv).unwrap();
    let b = fresh.apply(&adv).unwrap();
    assert_eq!(a, b, "checking changed the dice to come");
    assert_eq!(checked.rng.draws(), fresh.rng.draws());
}

#[test]
fn check_refuses_what_apply_refuses_with_the_same_rejection() {
    let mut g = movement_game();
    // 7" with Move 6": Movement.
    let far = Command::Move {
        player: 1,
        unit: "eliminators".into(),
        mode: MoveMode::Normal,
        paths: shift(&g, 1, "eliminators", 7.0, 0.0),
    };
    let r = g.check(&far).expect_err("check refuses a 7\" Normal move");
    assert_eq!(r.rule, Rule::Movement);
    assert_untouched(&g, &far);
    assert_eq!(g.clone().apply(&far), Err(r));
    // Out of sequence: player 2 cannot move in player 1's turn (Sequencing).
    let theirs = Command::RemainStationary {
        player: 2,
        unit: "nobz".into(),
    };
    let r = g.check(&theirs).expect_err("not player 2's turn");
    assert_eq!(r.rule, Rule::Sequencing);
    assert_eq!(g.clone().apply(&theirs), Err(r));
    // An unknown unit (Units) and a player who does not exist (Players).
    let ghost = Command::RemainStationary {
        player: 1,
        unit: "ghosts".into(),
    };
    assert_eq!(g.check(&ghost).unwrap_err().rule, Rule::Units);
    assert_eq!(
        g.check(&Command::EndPhase { player: 3 }).unwrap_err().rule,
        Rule::Players
    );
    // An Advance no roll can make (6" + 6" < 13") is refused by both under the same rule;
    // check's reason names the 12" a 6 would allow, whatever the die to come.
    let never = advance(&g, 13.0);
    let r = g.check(&never).expect_err("13\" is beyond any Advance");
    assert_eq!(r.rule, Rule::Movement);
    assert!(r.reason.contains("12.00\""), "{r}");
    assert_untouched(&g, &never);
    assert_eq!(rejected(&mut g, never).rule, r.rule);
}

#[test]
fn check_judges_an_advance_with_the_best_roll_without_revealing_the_roll() {
    // 11.5" needs a 6 (Move 6" + D6): check says yes whatever the die to come; apply accepts
    // only on a 6, else refuses under Movement (the engine's answer with the real roll).
    for seed_shift in 0..6u64 {
        let mut g = movement_game();
        g.rng = wartable::rules::rng::GameRng::seeded(1000 + seed_shift);
        let c = advance(&g, 11.5);
        assert_eq!(g.check(&c), Ok(()), "check judges with a 6");
        match g.apply(&c) {
            Ok(ev) => assert!(
                matches!(
                    ev[0],
                    GameEvent::Moved {
                        advance_roll: Some(6),
                        ..
                    }
                ),
                "{:?}",
                ev[0]
            ),
            Err(r) => assert_eq!(r.rule, Rule::Movement, "{r}"),
        }
    }
}

#[test]
fn next_to_deploy_goes_in_army_order_and_is_none_once_all_are_deployed() {
    let (mut g, _) = Game::start(open_field(), 1);
    assert_eq!(g.next_to_deploy(3), None, "no player 3");
    let mut order: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    while matches!(g.stage, Stage::Setup | Stage::Deployment) {
        let p = g.active_player;
        let army = g.army_of(p).unwrap();
        let u = g
            .next_to_deploy(p)
            .expect("the active player has a unit to deploy");
        assert!(
            g.unit_roots(army).contains(&u),
            "an attached Leader deploys with its Bodyguard, named by it"
        );
        let id = g.unit_id(army, u).to_string();
        order[usize::from(p - 1)].push(id.clone());
        let ev = g
            .apply(&Command::Deploy {
                player: p,
                unit: id.clone(),
                models: vec![],
                transport: None,
            })
            .unwrap();
        assert!(
            matches!(&ev[0], GameEvent::Deployed { unit, .. } if *unit == id),
            "{ev:?}"
        );
        assert_ne!(g.next_to_deploy(p), Some(u), "'{id}' is deployed now");
    }
    for p in [1u8, 2] {
        let army = g.army_of(p).unwrap();
        let roots: Vec<String> = g
            .unit_roots(army)
            .into_iter()
            .map(|u| g.unit_id(army, u).to_string())
            .collect();
        assert_eq!(
            order[usize::from(p - 1)],
            roots,
            "player {p} deploys in army order"
        );
        assert_eq!(
            g.next_to_deploy(p),
            None,
            "player {p} has deployed everything"
        );
    }
    // The Ultramarines' Captain leads the Intercessors: they deploy first, named by the
    // Bodyguard.
    assert_eq!(order[0][0], "intercessors");
}

#[test]
fn next_to_deploy_skips_units_in_reserves() {
    let (mut g, _) = Game::start(open_field(), 1);
    assert_eq!(g.stage, Stage::Setup);
    g.apply(&Command::DeclareReserves {
        player: 1,
        unit: "eliminators".into(),
        reserve: wartable::game::ReserveKind::StrategicReserves,
    })
    .unwrap();
    let army = g.army_of(1).unwrap();
    let mut order = Vec::new();
    while matches!(g.stage, Stage::Setup | Stage::Deployment) {
        let p = g.active_player;
        let u = g.next_to_deploy(p).unwrap();
        let id = g.unit_id(g.army_of(p).unwrap(), u).to_string();
        if p == 1 {
            order.push(id.clone());
        }
        accepted(
            &mut g,
            Command::Deploy {
                player: p,
                unit: id,
                models: vec![],
                transport: None,
            },
        );
    }
    let expected: Vec<String> = g
        .unit_roots(army)
        .into_iter()
        .map(|u| g.unit_id(army, u).to_string())
        .filter(|id| id != "eliminators")
        .collect();
    assert_eq!(order, expected);
    assert_eq!(
        g.next_to_deploy(1),
        None,
        "the Eliminators wait in Reserves"
    );
}

#[test]
fn command_unit_names_the_unit_the_command_acts_for() {
    let unit = || "boyz-mob".to_string();
    let acting = [
        Command::DeclareReserves {
            player: 2,
            unit: unit(),
            reserve: wartable::game::ReserveKind::DeepStrike,
        },
        Command::Deploy {
            player: 2,
            unit: unit(),
            models: vec![],
            transport: Some("trukk".into()),
        },
        Command::RemainStationary {
            player: 2,
            unit: unit(),
        },
        Command::Move {
            player: 2,
            unit: unit(),
            mode: MoveMode::Normal,
            paths: vec![],
        },
        Command::SetUpReinforcements {
            player: 2,
            unit: unit(),
            models: vec![],
        },
        Command::Embark {
            player: 2,
            unit: unit(),
            transport: "trukk".into(),
        },
        Command::Disembark {
            player: 2,
            unit: unit(),
            models: vec![],
        },
        Command::Shoot {
            player: 2,
            unit: unit(),
            weapons: vec![WeaponTarget::new("Slugga", "intercessors")],
        },
        Command::DeclareCharge {
            player: 2,
            unit: unit(),
            targets: vec!["intercessors".into()],
        },
        Command::ChargeMove {
            player: 2,
            unit: unit(),
            paths: vec![],
            targets: vec![],
        },
        Command::PileIn {
            player: 2,
            unit: unit(),
            paths: vec![],
        },
        Command::Fight {
            player: 2,
            unit: unit(),
            weapons: vec![],
        },
        Command::Consolidate {
            player: 2,
            unit: unit(),
            paths: vec![],
        },
        Command::UseStratagem {
            player: 2,
            stratagem: Stratagem::CommandReroll,
            unit: unit(),
            target: Some("intercessors".into()),
            reroll: Some(RerollRoll::Charge),
        },
    ];
    for c in &acting {
        assert_eq!(c.unit(), Some("boyz-mob"), "{}", c.kind());
    }
    assert_eq!(Command::EndPhase { player: 1 }.unit(), None);
    assert_eq!(Command::Pass { player: 2 }.unit(), None);
    assert_eq!(wartable::ai::summary(&acting[3]), "Move boyz-mob");
    assert_eq!(wartable::ai::summary(&Command::Pass { player: 2 }), "Pass");
}

#[test]
fn weapons_of_lists_the_loadout_with_each_profile() {
    let g = deployed_game(open_field());
    let army = g.army_of(1).unwrap();
    let hb = g.find_unit(army, "hellblasters").unwrap();
    let ranged = g.weapons_of(army, hb, false);
    let options: Vec<_> = ranged.iter().map(|w| w.option.clone()).collect();
    assert_eq!(options, g.weapon_options(army, hb, false));
    // Out of combat the Hellblasters fire their Plasma incinerators, not their pistols.
    let names: Vec<&str> = ranged.iter().map(|w| w.option.weapon.as_str()).collect();
    assert_eq!(names, ["Plasma incinerator"]);
    let plasma = &ranged[0];
    let choices: Vec<(Option<&str>, u8)> = plasma
        .choices()
        .into_iter()
        .map(|(p, stats)| (p, stats.strength))
        .collect();
    assert_eq!(
        choices,
        [(Some("standard"), 7), (Some("supercharge"), 8)],
        "each profile with its characteristics"
    );
    assert_eq!(
        plasma.option.labels(),
        [
            "Plasma incinerator - standard",
            "Plasma incinerator - supercharge"
        ]
    );
    assert_eq!(
        plasma.at("boyz-mob", Some("supercharge")),
        WeaponTarget::new("Plasma incinerator", "boyz-mob").with_profile("supercharge")
    );
    assert_eq!(
        g.legal_targets_of(1, "hellblasters", &plasma.at("", Some("standard")), false),
        g.legal_targets(1, "hellblasters", "Plasma incinerator - standard", false)
    );
    // A weapon with one profile has one choice, named by no profile.
    let melee = g.weapons_of(army, hb, true);
    assert_eq!(melee.len(), 1, "{melee:?}");
    let only = melee[0].choices();
    assert_eq!(only.len(), 1);
    assert_eq!(only[0].0, None);
    assert_eq!(only[0].1.name, melee[0].option.weapon);
    assert!(only[0].1.is_melee());
}

#[test]
fn rule_display_and_json_keep_the_rule_names() {
    let names = [
        (Rule::Players, "Players"),
        (Rule::Units, "Units"),
        (Rule::Targets, "Targets"),
        (Rule::Sequencing, "Sequencing"),
        (Rule::Reactions, "Reactions"),
        (Rule::Deployment, "Deployment"),
        (Rule::Infiltrators, "Infiltrators"),
        (Rule::Reserves, "Reserves"),
        (Rule::DeepStrike, "Deep Strike"),
        (Rule::StrategicReserves, "Strategic Reserves"),
        (Rule::Scouts, "Scouts"),
        (Rule::SetUp, "Set up"),
        (Rule::Movement, "Movement"),
        (Rule::MovementPhase, "Movement phase"),
        (Rule::BattlefieldEdge, "Battlefield edge"),
        (Rule::Terrain, "Terrain"),
        (Rule::EngagementRange, "Engagement Range"),
        (Rule::UnitCoherency, "Unit Coherency"),
        (Rule::FallBack, "Fall Back"),
        (Rule::Transports, "Transports"),
        (Rule::ShootingPhase, "Shooting phase"),
        (Rule::ChargePhase, "Charge phase"),
        (Rule::FightPhase, "Fight phase"),
        (Rule::PileIn, "Pile In"),
        (Rule::Consolidate, "Consolidate"),
        (Rule::BattleShock, "Battle-shock"),
        (Rule::Stratagem(Stratagem::GoToGround), "Go to Ground"),
        (Rule::Stratagem(Stratagem::RapidIngress), "Rapid Ingress"),
        (
            Rule::Stratagem(Stratagem::CounterOffensive),
            "Counter-offensive",
        ),
        (Rule::Stratagem(Stratagem::CommandReroll), "Command Re-roll"),
    ];
    for (rule, text) in names {
        assert_eq!(rule.to_string(), text);
        assert_eq!(rule.name(), text);
        assert_eq!(text.parse::<Rule>(), Ok(rule));
    }
    assert_eq!(
        Rule::all().count(),
        Rule::GENERAL.len() + Stratagem::ALL.len()
    );
    for rule in Rule::all() {
        assert_eq!(rule.name().parse::<Rule>(), Ok(rule), "names are unique");
    }
    assert!(
        "Engagement range".parse::<Rule>().is_err(),
        "names match exactly"
    );

    let r = Rejection::new(Rule::EngagementRange, "too close");
    assert_eq!(r.to_string(), "Engagement Range: too close");
    assert_eq!(
        serde_json::to_value(&r).unwrap(),
        serde_json::json!({"rule": "Engagement Range", "reason": "too close"})
    );
}

/// A model carrying a ranged weapon twice (a Commander's two fusion blasters, imported from a
/// roster) fires both; in melee it fights with one of them (Core Rules: Making Attacks; Fight
/// phase, one melee weapon).
#[test]
fn a_ranged_weapon_carried_twice_fires_twice_and_a_melee_one_fights_once() {
    let mut scene = open_field();
    let (army, unit) = scene.armies[0]
        .units
        .iter()
        .position(|u| u.id == "captain")
        .map(|u| (0usize, u))
        .unwrap();
    let twice = |w: &str| vec![w.to_string(), w.to_string()];
    let mut weapons = twice("Bolt pistol");
    weapons.extend(twice("Master-crafted power weapon"));
    scene.armies[army].units[unit].models[0].weapons = std::sync::Arc::new(weapons);
    let sight = wartable::game::sight::SceneSight::new(&scene);
    let entries: Vec<usize> = (0..sight.models.len())
        .filter(|&i| sight.models[i].army == army && sight.models[i].unit == unit)
        .collect();
    let count = |weapon: &str| {
        wartable::game::combat::bearers(&scene, &sight, &entries, weapon, None)
            .unwrap()
            .len()
    };
    assert_eq!(count("Bolt pistol"), 2);
    assert_eq!(count("Master-crafted power weapon"), 1);
}

/// The headless board (`run --board`) tells each unit's Battle-shock, strength and the enemy
/// units it is engaged with, and each objective's controller, as the game holds them.
#[test]
fn the_board_shows_engagement_battle_shock_and_objective_control() {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "eliminators"), (2, "nobz")]);
    put_line(&mut g, 1, "eliminators", 10.0, 18.0, 2.0);
    put_line(&mut g, 2, "nobz", 10.0, 19.8, 2.0);
    advance_to(&mut g, 1, Phase::Movement);
    let (a, u) = unit_ref(&g, 1, "eliminators");
    g.units[a][u].battle_shocked = true;
    g.units[a][u].models[0].alive = false;
    g.units[a][u].models[1].alive = false;
    g.objectives[0] = Some(2);
    let board = g.board();
    let unit = |id: &str| {
        board["units"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["unit"] == id)
            .unwrap()
            .clone()
    };
    let eliminators = unit("eliminators");
    assert_eq!(eliminators["battle_shocked"], true);
    assert_eq!(eliminators["below_half_strength"], true);
    assert_eq!(eliminators["engaged_with"], serde_json::json!(["nobz"]));
    let nobz = unit("nobz");
    assert_eq!(nobz["battle_shocked"], false);
    assert_eq!(nobz["engaged_with"], serde_json::json!(["eliminators"]));
    // Units away from the fight are engaged with nobody.
    assert_eq!(unit("ballistus")["engaged_with"], serde_json::json!([]));
    assert_eq!(board["objectives"][0]["controlled_by"], 2);
    for (o, controller) in board["objectives"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&g.objectives)
    {
        assert_eq!(o["controlled_by"], serde_json::json!(controller));
    }
}
