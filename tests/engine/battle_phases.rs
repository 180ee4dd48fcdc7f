//! The battle engine phase by phase: a scene, a few commands, the events that must follow and
//! the rejections (with the rule they name) that must not change anything.

use crate::battle;

use battle::*;

macro_rules! rejected {
    ($g:expr, $c:expr) => {{
        let c = $c;
        battle::rejected(&mut $g, c)
    }};
}

macro_rules! shot {
    ($g:expr, $c:expr) => {{
        let c = $c;
        battle::shot(&mut $g, c)
    }};
}

macro_rules! accepted {
    ($g:expr, $c:expr) => {{
        let c = $c;
        battle::accepted(&mut $g, c)
    }};
}
use wartable::game::{
    Command, Game, GameEvent, Location, ModelPath, ReserveKind, Rule, WeaponTarget,
};
use wartable::rules::movement::MoveMode;
use wartable::rules::phase::{Phase, Stage};
use wartable::rules::stratagem::Stratagem;

fn mv(player: u8, unit: &str, mode: MoveMode, paths: Vec<ModelPath>) -> Command {
    Command::Move {
        player,
        unit: unit.into(),
        mode,
        paths,
    }
}

fn one_path(model: usize, to: &[(f32, f32, f32)]) -> Vec<ModelPath> {
    vec![ModelPath {
        model,
        unit: None,
        path: to.to_vec(),
        facing: None,
    }]
}

fn game_at(phase: Phase) -> Game {
    let mut g = deployed_game(open_field());
    advance_to(&mut g, 1, phase);
    g
}

#[test]
fn deployment_alternates_and_keeps_units_wholly_within_their_zone() {
    let (mut g, events) = Game::start(open_field(), 3);
    let GameEvent::DeploymentRollOff {
        deploys_first,
        dice,
    } = events[0]
    else {
        panic!("roll-off first")
    };
    let deployer = g.active_player;
    assert_eq!(deployer, deploys_first);
    assert_eq!(
        deployer,
        if dice[0] > dice[1] { 2 } else { 1 },
        "the loser of the roll-off deploys first"
    );
    let other = 3 - deployer;
    let any_unit = |g: &Game, p: u8| {
        let a = g.army_of(p).unwrap();
        g.unit_id(a, g.unit_roots(a)[0]).to_string()
    };
    let r = rejected!(
        g,
        Command::Deploy {
            player: other,
            unit: any_unit(&g, other),
            models: vec![],
            transport: None
        }
    );
    assert_eq!(r.rule, Rule::Deployment);
    // The middle of the table is nobody's deployment zone.
    let unit = if deployer == 1 {
        "redemptor"
    } else {
        "battlewagon"
    };
    let r = rejected(
        &mut g,
        Command::Deploy {
            player: deployer,
            unit: unit.into(),
            models: vec![wartable::game::Placement {
                model: 0,
                unit: None,
                x: 30.0,
                y: 14.0,
                z: 0.0,
                facing: 0.0,
            }],
            transport: None,
        },
    );
    assert_eq!(r.rule, Rule::Deployment);
    assert!(r.reason.contains("wholly within"), "{r}");
    accepted!(
        g,
        Command::Deploy {
            player: deployer,
            unit: unit.into(),
            models: vec![],
            transport: None
        }
    );
    assert_eq!(g.active_player, other);
}

#[test]
fn reserves_hold_at_most_a_quarter_of_the_points_and_deep_strike_needs_the_ability() {
    let (mut g, _) = Game::start(open_field(), 1);
    // 995 points: 25% is 248.75. Redemptor 205 fits; Hellblasters 110 more do not.
    accepted!(
        g,
        Command::DeclareReserves {
            player: 1,
            unit: "redemptor".into(),
            reserve: ReserveKind::StrategicReserves
        }
    );
    let r = rejected!(
        g,
        Command::DeclareReserves {
            player: 1,
            unit: "hellblasters".into(),
            reserve: ReserveKind::StrategicReserves
        }
    );
    assert_eq!(r.rule, Rule::Reserves);
    assert!(r.reason.contains("25%"), "{r}");
    let r = rejected!(
        g,
        Command::DeclareReserves {
            player: 1,
            unit: "eliminators".into(),
            reserve: ReserveKind::DeepStrike
        }
    );
    assert_eq!(r.rule, Rule::DeepStrike);
}

#[test]
fn command_phase_gives_both_players_a_command_point() {
    let g = deployed_game(open_field());
    assert_eq!(g.cp, [1, 1]);
    assert_eq!(g.phase, Phase::Command);
}

#[test]
fn sequencing_rejects_actions_outside_their_phase_or_turn() {
    let mut g = deployed_game(open_field());
    let paths = shift(&g, 1, "eliminators", 1.0, 0.0);
    let r = rejected!(g, mv(1, "eliminators", MoveMode::Normal, paths.clone()));
    assert_eq!(r.rule, Rule::Sequencing);
    advance_to(&mut g, 1, Phase::Movement);
    let r = rejected!(g, Command::EndPhase { player: 2 });
    assert_eq!(r.rule, Rule::Sequencing);
    let r = rejected!(
        g,
        Command::Shoot {
            player: 1,
            unit: "eliminators".into(),
            weapons: vec![]
        }
    );
    assert_eq!(r.rule, Rule::Sequencing);
}

#[test]
fn normal_move_is_limited_to_m_and_kept_on_the_battlefield() {
    let mut g = game_at(Phase::Movement);
    isolate(&mut g, &[(1, "eliminators")]);
    put_line(&mut g, 1, "eliminators", 10.0, 16.0, 1.8);
    // 6" + 0.5" is too far.
    let r = rejected!(
        g,
        mv(
            1,
            "eliminators",
            MoveMode::Normal,
            shift(&g, 1, "eliminators", 6.5, 0.0)
        )
    );
    assert_eq!(r.rule, Rule::Movement);
    assert!(r.reason.contains("more than the 6.00\""), "{r}");
    // Off the table edge.
    put_line(&mut g, 1, "eliminators", 2.0, 16.0, 1.8);
    let r = rejected!(
        g,
        mv(
            1,
            "eliminators",
            MoveMode::Normal,
            shift(&g, 1, "eliminators", -2.5, 0.0)
        )
    );
    assert_eq!(r.rule, Rule::BattlefieldEdge);
    // A legal move, then a second one for the same unit.
    let ev = accepted!(
        g,
        mv(
            1,
            "eliminators",
            MoveMode::Normal,
            shift(&g, 1, "eliminators", 5.0, 1.0)
        )
    );
    assert!(matches!(
        ev[0],
        GameEvent::Moved {
            mode: MoveMode::Normal,
            ..
        }
    ));
    assert_eq!(pos(&g, 1, "eliminators", 0).x, 7.0);
    let r = rejected!(
        g,
        mv(
            1,
            "eliminators",
            MoveMode::Normal,
            shift(&g, 1, "eliminators", 1.0, 0.0)
        )
    );
    assert_eq!(r.rule, Rule::MovementPhase);
}

#[test]
fn climbing_counts_and_only_infantry_stand_on_upper_floors_or_cross_ruin_walls() {
    let mut g = game_at(Phase::Movement);
    isolate(
        &mut g,
        &[(1, "eliminators"), (1, "redemptor"), (1, "ballistus")],
    );
    // The ruin's wall runs along x = 30, y 18..26; its floor (3") covers x 27..30.
    put(&mut g, 1, "redemptor", 0, 33.5, 22.0);
    let r = rejected!(
        g,
        mv(
            1,
            "redemptor",
            MoveMode::Normal,
            one_path(0, &[(26.0, 22.0, 0.0)])
        )
    );
    assert_eq!(r.rule, Rule::Terrain);
    assert!(r.reason.contains("wall"), "{r}");
    // Eliminators walk through the wall and climb: 2" + 3" up + 0.5" = 5.5" of 6".
    put_line(&mut g, 1, "eliminators", 31.0, 19.0, 0.0);
    for (m, y) in [(0, 19.0), (1, 20.8), (2, 22.6)] {
        put(&mut g, 1, "eliminators", m, 31.0, y);
    }
    let climb: Vec<ModelPath> = [(0, 19.0), (1, 20.8), (2, 22.6)]
        .iter()
        .map(|&(m, y)| ModelPath {
            model: m,
            unit: None,
            path: vec![(29.0, y, 0.0), (29.0, y, 3.0), (28.5, y, 3.0)],
            facing: None,
        })
        .collect();
    let too_far: Vec<ModelPath> = climb
        .iter()
        .map(|p| ModelPath {
            path: vec![
                (29.0, p.path[0].1, 0.0),
                (29.0, p.path[0].1, 3.0),
                (27.5, p.path[0].1, 3.0),
            ],
            ..p.clone()
        })
        .collect();
    let r = rejected!(g, mv(1, "eliminators", MoveMode::Normal, too_far));
    assert!(r.reason.contains("more than"), "climbing counts: {r}");
    accepted!(g, mv(1, "eliminators", MoveMode::Normal, climb));
    assert_eq!(pos(&g, 1, "eliminators", 1).z, 3.0);
    // A vehicle cannot end on the floor.
    put(&mut g, 1, "ballistus", 0, 24.0, 22.0);
    let r = rejected!(
        g,
        mv(
            1,
            "ballistus",
            MoveMode::Normal,
            one_path(0, &[(27.5, 24.5, 3.0)])
        )
    );
    assert_eq!(r.rule, Rule::Terrain);
}

#[test]
fn moves_cannot_cross_enemy_models_end_on_models_or_near_enemies_or_break_coherency() {
    let mut g = game_at(Phase::Movement);
    isolate(&mut g, &[(1, "eliminators"), (2, "deff-dread-1")]);
    put_line(&mut g, 1, "eliminators", 10.0, 18.0, 1.8);
    put(&mut g, 2, "deff-dread-1", 0, 19.0, 18.0);
    // Through the enemy model to the far side (and out of Engagement Range).
    let r = rejected!(
        g,
        mv(
            1,
            "eliminators",
            MoveMode::Normal,
            one_path(2, &[(24.0, 18.0, 0.0)])
        )
    );
    assert!(
        r.rule == Rule::Movement || r.rule == Rule::EngagementRange,
        "{r}"
    );
    // Ending within 1" of the Deff Dread.
    let dread = pos(&g, 2, "deff-dread-1", 0);
    let r = rejected!(
        g,
        mv(
            1,
            "eliminators",
            MoveMode::Normal,
            one_path(2, &[(dread.x - 2.2, 18.0, 0.0)])
        )
    );
    assert_eq!(r.rule, Rule::EngagementRange);
    assert!(r.reason.contains("Engagement Range of deff-dread-1"), "{r}");
    // On top of a friendly model.
    let r = rejected!(
        g,
        mv(
            1,
            "eliminators",
            MoveMode::Normal,
            one_path(2, &[(11.8, 18.0, 0.0)])
        )
    );
    assert_eq!(r.rule, Rule::Movement);
    // One model 5" away from the rest.
    let r = rejected!(
        g,
        mv(
            1,
            "eliminators",
            MoveMode::Normal,
            one_path(0, &[(10.0, 13.0, 0.0)])
        )
    );
    assert_eq!(r.rule, Rule::UnitCoherency);
}

#[test]
fn advance_adds_a_d6_and_then_only_assault_weapons_shoot_and_no_charge() {
    let mut g = game_at(Phase::Movement);
    isolate(
        &mut g,
        &[(1, "eliminators"), (1, "hellblasters"), (2, "nobz")],
    );
    put_line(&mut g, 1, "eliminators", 10.0, 18.0, 1.8);
    put_line(&mut g, 1, "hellblasters", 10.0, 15.0, 1.8);
    let ev = accepted!(
        g,
        mv(
            1,
            "eliminators",
            MoveMode::Advance,
            shift(&g, 1, "eliminators", 6.0, 0.0)
        )
    );
    let GameEvent::Moved {
        advance_roll: Some(roll),
        ..
    } = ev[0]
    else {
        panic!("{:?}", ev[0])
    };
    assert!((1..=6).contains(&roll));
    accepted!(
        g,
        mv(
            1,
            "hellblasters",
            MoveMode::Advance,
            shift(&g, 1, "hellblasters", 6.0, 0.0)
        )
    );
    // Orks 20" away in the open.
    put_line(&mut g, 2, "nobz", 20.0, 30.0, 1.8);
    advance_to(&mut g, 1, Phase::Shooting);
    let r = rejected!(
        g,
        Command::Shoot {
            player: 1,
            unit: "eliminators".into(),
            weapons: vec![WeaponTarget::new("Bolt sniper rifle", "nobz")]
        }
    );
    assert!(r.reason.contains("Advanced"), "{r}");
    shot!(
        g,
        Command::Shoot {
            player: 1,
            unit: "hellblasters".into(),
            weapons: vec![WeaponTarget::new("Plasma incinerator - standard", "nobz")]
        }
    );
    advance_to(&mut g, 1, Phase::Charge);
    put_line(&mut g, 2, "nobz", 20.0, 26.0, 1.8);
    let r = rejected!(
        g,
        Command::DeclareCharge {
            player: 1,
            unit: "hellblasters".into(),
            targets: vec!["nobz".into()]
        }
    );
    assert!(r.reason.contains("Advanced"), "{r}");
}

#[test]
fn advance_rolled_before_moving_sets_the_reach_and_the_unit_moves_next() {
    let mut g = game_at(Phase::Movement);
    isolate(
        &mut g,
        &[(1, "eliminators"), (1, "hellblasters"), (2, "nobz")],
    );
    put_line(&mut g, 1, "eliminators", 10.0, 18.0, 1.8);
    put_line(&mut g, 1, "hellblasters", 10.0, 15.0, 1.8);
    put_line(&mut g, 2, "nobz", 40.0, 30.0, 1.8);
    g.cp = [5, 5];
    let advance = |unit: &str| Command::Advance {
        player: 1,
        unit: unit.into(),
    };
    let ev = accepted!(g, advance("eliminators"));
    let GameEvent::AdvanceRolled { roll, ref unit, .. } = ev[0] else {
        panic!("{:?}", ev[0])
    };
    assert_eq!(unit, "eliminators");
    assert!((1..=6).contains(&roll));
    assert_eq!(g.advance_roll.map(|(_, _, r)| r), Some(roll));
    // Until it moves, no other unit is selected, it does not roll again, and it does not
    // Remain Stationary or make a Normal move.
    for c in [
        advance("eliminators"),
        advance("hellblasters"),
        Command::RemainStationary {
            player: 1,
            unit: "eliminators".into(),
        },
        mv(
            1,
            "hellblasters",
            MoveMode::Normal,
            shift(&g, 1, "hellblasters", 1.0, 0.0),
        ),
        mv(
            1,
            "eliminators",
            MoveMode::Normal,
            shift(&g, 1, "eliminators", 1.0, 0.0),
        ),
    ] {
        let r = rejected!(g, c);
        assert!(r.reason.contains("Advance"), "{r}");
    }
    // Move + the roll is allowed, 0.2" more is not; the rolled die is used, not a new one.
    let root = g.find_unit(0, "eliminators").expect("unit");
    let reach = g.scene.armies[0].units[root].datasheet.movement + f32::from(roll);
    let r = rejected!(
        g,
        mv(
            1,
            "eliminators",
            MoveMode::Advance,
            shift(&g, 1, "eliminators", reach + 0.2, 0.0)
        )
    );
    assert!(r.reason.contains(&format!("{reach:.2}\"")), "{r}");
    let ev = accepted!(
        g,
        mv(
            1,
            "eliminators",
            MoveMode::Advance,
            shift(&g, 1, "eliminators", reach - 0.05, 0.0)
        )
    );
    assert!(
        matches!(ev[0], GameEvent::Moved { advance_roll: Some(r), mode: MoveMode::Advance, .. } if r == roll),
        "{:?}",
        ev[0]
    );
    assert!(g.advance_roll.is_none());
    // A Command Re-roll re-rolls the Advance die already rolled, for 1 CP.
    accepted!(g, advance("hellblasters"));
    let cp = g.cp[0];
    let ev = accepted!(
        g,
        command_reroll(1, "hellblasters", wartable::game::RerollRoll::Advance)
    );
    let rerolled: Vec<u8> = ev
        .iter()
        .filter_map(|e| match e {
            GameEvent::AdvanceRolled { roll, .. } => Some(*roll),
            _ => None,
        })
        .collect();
    assert_eq!(rerolled.len(), 1, "{ev:?}");
    assert_eq!(g.advance_roll.map(|(_, _, r)| r), Some(rerolled[0]));
    assert_eq!(g.cp[0], cp - 1);
    // A roll left unused when the phase ends still counts as an Advance.
    accepted!(g, Command::EndPhase { player: 1 });
    let root = g.find_unit(0, "hellblasters").expect("unit");
    assert_eq!(
        g.units[0][root].moved,
        Some(wartable::rules::movement::Moved::Moved(MoveMode::Advance))
    );
    assert!(g.advance_roll.is_none());
}

#[test]
fn fall_back_only_from_engagement_range_and_battle_shocked_units_test_desperate_escape() {
    let mut g = game_at(Phase::Movement);
    isolate(&mut g, &[(1, "eliminators"), (2, "nobz")]);
    put_line(&mut g, 1, "eliminators", 10.0, 18.0, 1.8);
    let r = rejected!(
        g,
        mv(
            1,
            "eliminators",
            MoveMode::FallBack,
            shift(&g, 1, "eliminators", -3.0, 0.0)
        )
    );
    assert_eq!(r.rule, Rule::FallBack);
    // Engaged with the Nobz: no Normal move, Fall Back allowed.
    put_line(&mut g, 2, "nobz", 10.0, 19.6, 1.8);
    let r = rejected!(
        g,
        mv(
            1,
            "eliminators",
            MoveMode::Normal,
            shift(&g, 1, "eliminators", 0.0, -3.0)
        )
    );
    assert_eq!(r.rule, Rule::EngagementRange);
    let a = g.army_of(1).unwrap();
    let u = g.find_unit(a, "eliminators").unwrap();
    g.units[a][u].battle_shocked = true;
    let ev = accepted!(
        g,
        mv(
            1,
            "eliminators",
            MoveMode::FallBack,
            shift(&g, 1, "eliminators", 0.0, -4.0)
        )
    );
    let tests = ev
        .iter()
        .filter(|e| matches!(e, GameEvent::DesperateEscape { .. }))
        .count();
    assert_eq!(tests, 3, "every model of a Battle-shocked unit tests");
    for e in &ev {
        if let GameEvent::DesperateEscape {
            roll, destroyed, ..
        } = e
        {
            assert_eq!(*destroyed, *roll <= 2);
        }
    }
    advance_to(&mut g, 1, Phase::Shooting);
    if !g.live_models(a, u).is_empty() {
        let r = rejected!(
            g,
            Command::Shoot {
                player: 1,
                unit: "eliminators".into(),
                weapons: vec![WeaponTarget::new("Bolt sniper rifle", "nobz")]
            }
        );
        assert!(r.reason.contains("Fell Back"), "{r}");
    }
}

/// Found playing by hand: the dice log said a Redemptor firing its flamer and its grenade
/// launcher at one unit was "2 models". A model firing several weapons is one model attacking.
#[test]
fn a_model_firing_several_weapons_counts_once_among_the_models_attacking() {
    let mut g = game_at(Phase::Shooting);
    isolate(&mut g, &[(1, "redemptor"), (2, "lootas")]);
    put_line(&mut g, 1, "redemptor", 10.0, 16.0, 1.8);
    put_line(&mut g, 2, "lootas", 10.0, 24.0, 1.2);
    let ev = shot!(
        g,
        Command::Shoot {
            player: 1,
            unit: "redemptor".into(),
            weapons: vec![
                WeaponTarget::new("Heavy onslaught gatling cannon", "lootas"),
                WeaponTarget::new("Heavy flamer", "lootas"),
            ]
        }
    );
    let attacked: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            GameEvent::Attacked {
                bearers, weapons, ..
            } => Some((*bearers, weapons.len())),
            _ => None,
        })
        .collect();
    assert_eq!(attacked, vec![(1, 2)], "{ev:?}");
}

#[test]
fn shooting_checks_range_removes_casualties_and_shoots_once() {
    let mut g = game_at(Phase::Shooting);
    isolate(
        &mut g,
        &[(1, "hellblasters"), (1, "eliminators"), (2, "lootas")],
    );
    put_line(&mut g, 1, "hellblasters", 10.0, 16.0, 1.8);
    put_line(&mut g, 2, "lootas", 10.0, 43.0, 1.2);
    let wt = |t: &str| vec![WeaponTarget::new("Plasma incinerator - standard", t)];
    let r = rejected!(
        g,
        Command::Shoot {
            player: 1,
            unit: "hellblasters".into(),
            weapons: wt("lootas")
        }
    );
    assert!(r.reason.contains("out of range"), "{r}");
    put_line(&mut g, 2, "lootas", 10.0, 30.0, 1.2);
    let ev = shot!(
        g,
        Command::Shoot {
            player: 1,
            unit: "hellblasters".into(),
            weapons: wt("lootas")
        }
    );
    assert!(
        matches!(ev[0], GameEvent::TargetsSelected { reacting: 2, .. }),
        "the Lootas could Go to Ground: {ev:?}"
    );
    let GameEvent::Attacked {
        bearers,
        models_destroyed,
        ..
    } = ev[1]
    else {
        panic!()
    };
    assert_eq!(bearers, 5);
    let a = g.army_of(2).unwrap();
    let u = g.find_unit(a, "lootas").unwrap();
    let dead = g.units[a][u].models.iter().filter(|m| !m.alive).count() as u32;
    assert_eq!(dead, models_destroyed);
    let died = ev
        .iter()
        .filter(|e| matches!(e, GameEvent::ModelDestroyed { .. }))
        .count() as u32;
    assert_eq!(died, models_destroyed);
    let r = rejected!(
        g,
        Command::Shoot {
            player: 1,
            unit: "hellblasters".into(),
            weapons: wt("lootas")
        }
    );
    assert!(r.reason.contains("already shot"), "{r}");
    let r = rejected!(
        g,
        Command::Shoot {
            player: 1,
            unit: "eliminators".into(),
            weapons: vec![WeaponTarget::new("Close combat weapon", "lootas")]
        }
    );
    assert_eq!(r.rule, Rule::ShootingPhase);
}

#[test]
fn charge_needs_a_target_within_12_inches_and_must_reach_every_target() {
    let mut g = game_at(Phase::Charge);
    isolate(&mut g, &[(1, "eliminators"), (2, "nobz")]);
    put_line(&mut g, 1, "eliminators", 10.0, 18.0, 1.8);
    put_line(&mut g, 2, "nobz", 10.0, 32.0, 1.8);
    let r = rejected!(
        g,
        Command::DeclareCharge {
            player: 1,
            unit: "eliminators".into(),
            targets: vec!["nobz".into()]
        }
    );
    assert!(r.reason.contains("within 12"), "{r}");
    put_line(&mut g, 2, "nobz", 10.0, 21.0, 1.8);
    let ev = accepted!(
        g,
        Command::DeclareCharge {
            player: 1,
            unit: "eliminators".into(),
            targets: vec!["nobz".into()]
        }
    );
    let GameEvent::ChargeDeclared { dice, .. } = ev[0] else {
        panic!()
    };
    let roll = f32::from(dice[0] + dice[1]);
    let r = rejected!(g, Command::EndPhase { player: 1 });
    assert_eq!(r.rule, Rule::ChargePhase);
    // Moving 1" does not reach the Nobz 3" away (bases ~1.3" apart for 32 mm bases 3" apart).
    let r = rejected!(
        g,
        Command::ChargeMove {
            player: 1,
            unit: "eliminators".into(),
            paths: shift(&g, 1, "eliminators", 0.0, 0.5),
            targets: vec![],
        }
    );
    assert!(
        r.reason.contains("every target") || r.reason.contains("more than"),
        "{r}"
    );
    let (army1, army2) = (g.army_of(1).unwrap(), g.army_of(2).unwrap());
    let me = g.solid(wartable::game::sight::ModelRef {
        army: army1,
        unit: g.find_unit(army1, "eliminators").unwrap(),
        model: 0,
    });
    let them = g.solid(wartable::game::sight::ModelRef {
        army: army2,
        unit: g.find_unit(army2, "nobz").unwrap(),
        model: 0,
    });
    let gap = wartable::geometry::measure::model_distance(&me, &them).distance - 0.5;
    if roll >= gap {
        // Ending 0.5" short of the Nobz (in Engagement Range) is refused while the charge
        // reaches them: each model ends in base-to-base contact if it can.
        let short = Command::ChargeMove {
            player: 1,
            unit: "eliminators".into(),
            paths: shift(&g, 1, "eliminators", 0.0, gap),
            targets: vec![],
        };
        let r = rejected!(g, short.clone());
        assert!(r.reason.contains("base-to-base contact"), "{r}");
        let touching = g.with_base_contact(&short);
        assert_ne!(touching, short);
        accepted!(g, touching);
        let a = g.army_of(1).unwrap();
        let u = g.find_unit(a, "eliminators").unwrap();
        assert!(g.units[a][u].charged);
        // Fight: the charging unit fights first even though player 2 picks first otherwise.
        advance_to(&mut g, 1, Phase::Fight);
        assert_eq!(
            g.next_to_fight(),
            Some((1, vec!["eliminators".to_string()]))
        );
        let r = rejected!(
            g,
            Command::PileIn {
                player: 2,
                unit: "nobz".into(),
                paths: vec![]
            }
        );
        assert_eq!(r.rule, Rule::FightPhase);
        let r = rejected!(g, Command::EndPhase { player: 1 });
        assert_eq!(r.rule, Rule::FightPhase);
        accepted!(
            g,
            Command::PileIn {
                player: 1,
                unit: "eliminators".into(),
                paths: vec![]
            }
        );
        accepted!(
            g,
            Command::Fight {
                player: 1,
                unit: "eliminators".into(),
                weapons: vec![WeaponTarget::new("Close combat weapon", "nobz")]
            }
        );
        accepted!(
            g,
            Command::Consolidate {
                player: 1,
                unit: "eliminators".into(),
                paths: vec![]
            }
        );
        // Then the Nobz (player 2) strike back in Remaining Combats.
        assert_eq!(g.next_to_fight().map(|n| n.0), Some(2));
    } else {
        let ev = accepted!(
            g,
            Command::ChargeMove {
                player: 1,
                unit: "eliminators".into(),
                paths: vec![],
                targets: vec![],
            }
        );
        assert!(matches!(ev[0], GameEvent::ChargeFailed { .. }));
    }
}

#[test]
fn pile_in_models_must_end_closer_to_the_closest_enemy() {
    let mut g = game_at(Phase::Fight);
    isolate(&mut g, &[(1, "eliminators"), (2, "nobz")]);
    put_line(&mut g, 1, "eliminators", 10.0, 18.0, 1.8);
    put_line(&mut g, 2, "nobz", 10.0, 19.6, 1.8);
    let (p, ids) = g.next_to_fight().unwrap();
    assert_eq!(p, 2, "the player whose turn it is not selects first");
    assert!(ids.contains(&"nobz".to_string()));
    let away = vec![ModelPath {
        model: 0,
        unit: None,
        path: vec![(10.0, 21.0, 0.0)],
        facing: None,
    }];
    let r = rejected!(
        g,
        Command::PileIn {
            player: 2,
            unit: "nobz".into(),
            paths: away
        }
    );
    assert_eq!(r.rule, Rule::PileIn);
    assert!(r.reason.contains("closer"), "{r}");
}

#[test]
fn battle_shocked_units_have_oc_0_and_refuse_their_players_stratagems() {
    let mut g = deployed_game(open_field());
    // Make the Eliminators Below Half-strength: 1 of 3 left.
    let a = g.army_of(1).unwrap();
    let u = g.find_unit(a, "eliminators").unwrap();
    g.units[a][u].models[1].alive = false;
    g.units[a][u].models[2].alive = false;
    let ev = accepted!(g, Command::EndPhase { player: 1 });
    let test = ev
        .iter()
        .find_map(|e| match e {
            GameEvent::BattleShockTest {
                unit,
                dice,
                leadership,
                passed,
                ..
            } if unit == "eliminators" => Some((dice[0] + dice[1], *leadership, *passed)),
            _ => None,
        })
        .expect("a Battle-shock test");
    assert_eq!(test.2, test.0 >= test.1);
    assert_eq!(g.units[a][u].battle_shocked, !test.2);
    g.units[a][u].battle_shocked = true;
    advance_to(&mut g, 1, Phase::Shooting);
    g.cp = [5, 5];
    let r = rejected!(
        g,
        Command::UseStratagem {
            player: 1,
            stratagem: Stratagem::Grenade,
            unit: "eliminators".into(),
            target: Some("nobz".into()),
            reroll: None
        }
    );
    assert_eq!(r.rule, Rule::BattleShock);
    // OC 0: alone on an objective, it does not control it.
    put(&mut g, 1, "eliminators", 0, 46.0, 11.0);
    accepted!(g, Command::EndPhase { player: 1 });
    let se = objective(&g, "south-east");
    assert_eq!(g.objectives[se], None);
}

#[test]
fn stratagems_cost_command_points_once_per_phase_in_their_phase() {
    let mut g = game_at(Phase::Shooting);
    isolate(&mut g, &[(1, "intercessors"), (2, "lootas")]);
    put_line(&mut g, 1, "intercessors", 10.0, 16.0, 1.8);
    put(&mut g, 1, "captain", 0, 10.0, 14.2);
    put_line(&mut g, 2, "lootas", 10.0, 22.0, 1.2);
    let grenade = |target: &str| Command::UseStratagem {
        player: 1,
        stratagem: Stratagem::Grenade,
        unit: "intercessors".into(),
        target: Some(target.into()),
        reroll: None,
    };
    g.cp = [0, 0];
    let r = rejected!(g, grenade("lootas"));
    assert!(r.reason.contains("costs 1 CP"), "{r}");
    g.cp = [3, 0];
    let ev = accepted!(g, grenade("lootas"));
    let (dice, mw) = ev
        .iter()
        .find_map(|e| match e {
            GameEvent::MortalWoundsRolled {
                dice,
                mortal_wounds,
                ..
            } => Some((dice.clone(), *mortal_wounds)),
            _ => None,
        })
        .unwrap();
    assert_eq!(dice.len(), 6);
    assert_eq!(mw as usize, dice.iter().filter(|d| **d >= 4).count());
    assert_eq!(g.cp[0], 2);
    let a = g.army_of(2).unwrap();
    let u = g.find_unit(a, "lootas").unwrap();
    let lost: u32 = g.units[a][u]
        .models
        .iter()
        .map(|m| 1 - u32::from(m.wounds.min(1)))
        .sum();
    assert_eq!(
        lost,
        mw.min(10),
        "Lootas have 1 wound each and no Feel No Pain"
    );
    let r = rejected!(g, grenade("lootas"));
    assert!(r.reason.contains("once per phase"), "{r}");
    // Go to Ground is for the opponent's Shooting phase.
    let r = rejected!(
        g,
        Command::UseStratagem {
            player: 1,
            stratagem: Stratagem::GoToGround,
            unit: "intercessors".into(),
            target: None,
            reroll: None
        }
    );
    assert_eq!(r.rule, Rule::Stratagem(Stratagem::GoToGround));
    g.cp[1] = 1;
    let go_to_ground = Command::UseStratagem {
        player: 2,
        stratagem: Stratagem::GoToGround,
        unit: "lootas".into(),
        target: None,
        reroll: None,
    };
    // Not before an enemy unit has selected the Lootas as its target.
    let r = rejected!(g, go_to_ground.clone());
    assert!(r.reason.contains("selected its targets"), "{r}");
    let ev = accepted!(
        g,
        Command::Shoot {
            player: 1,
            unit: "ballistus".into(),
            weapons: vec![WeaponTarget::new("Ballistus lascannon", "lootas")]
        }
    );
    assert!(
        matches!(&ev[..], [GameEvent::TargetsSelected { reacting: 2, .. }]),
        "{ev:?}"
    );
    accepted!(g, go_to_ground);
    assert_eq!(g.cp[1], 0);
    let ev = accepted!(g, Command::Pass { player: 2 });
    assert!(
        ev.iter().any(|e| matches!(e, GameEvent::Attacked { .. })),
        "{ev:?}"
    );
}

#[test]
fn end_of_turn_removes_models_out_of_unit_coherency() {
    let mut g = game_at(Phase::Fight);
    isolate(&mut g, &[(1, "eliminators")]);
    put_line(&mut g, 1, "eliminators", 10.0, 16.0, 1.8);
    put(&mut g, 1, "eliminators", 2, 20.0, 16.0);
    let ev = accepted!(g, Command::EndPhase { player: 1 });
    let removed = ev.iter().find_map(|e| match e {
        GameEvent::CoherencyRemoval { models, .. } => Some(models.clone()),
        _ => None,
    });
    assert_eq!(removed, Some(vec!["eliminators#2".to_string()]));
    assert_eq!((g.active_player, g.phase), (2, Phase::Command));
}

#[test]
fn strategic_reserves_arrive_from_round_2_near_an_edge_away_from_enemies() {
    let mut scene_game = {
        let (mut g, _) = Game::start(open_field(), 1);
        accepted!(
            g,
            Command::DeclareReserves {
                player: 1,
                unit: "eliminators".into(),
                reserve: ReserveKind::StrategicReserves
            }
        );
        accepted!(
            g,
            Command::DeclareReserves {
                player: 2,
                unit: "nobz".into(),
                reserve: ReserveKind::StrategicReserves
            }
        );
        deploy_all(&mut g);
        g
    };
    let g = &mut scene_game;
    let first = g.first_player;
    let second = 3 - first;
    advance_to(g, 1, Phase::Movement);
    let at = |x: f32, y: f32| -> Vec<wartable::game::Placement> {
        (0..3)
            .map(|m| wartable::game::Placement {
                model: m,
                unit: None,
                x: x + 1.8 * m as f32,
                y,
                z: 0.0,
                facing: 0.0,
            })
            .collect()
    };
    let arrive = |x: f32, y: f32| Command::SetUpReinforcements {
        player: 1,
        unit: "eliminators".into(),
        models: at(x, y),
    };
    if g.battle_round == 1 {
        let r = rejected(g, arrive(30.0, 1.5));
        assert!(r.reason.contains("before battle round 2"), "{r}");
        advance_to(g, 1, Phase::Fight);
        accepted(g, Command::EndPhase { player: 1 });
        let _ = (first, second);
        advance_to(g, 1, Phase::Movement);
    }
    assert!(g.battle_round >= 2);
    let r = rejected(g, arrive(30.0, 10.0));
    assert_eq!(r.rule, Rule::StrategicReserves);
    put(g, 2, "deff-dread-1", 0, 31.0, 8.0);
    let r = rejected(g, arrive(30.0, 1.5));
    assert_eq!(r.rule, Rule::Reserves);
    assert!(r.reason.contains("9"), "{r}");
    put(g, 2, "deff-dread-1", 0, 49.0, 41.0);
    let ev = accepted(g, arrive(30.0, 1.5));
    assert!(matches!(&ev[0], GameEvent::SetUp { how, .. } if how.name() == "Strategic Reserves"));
    let r = rejected(
        g,
        Command::RemainStationary {
            player: 1,
            unit: "redemptor".into(),
        },
    );
    assert!(r.reason.contains("Reinforcements"), "{r}");
    // The Nobz never arrive: destroyed at the end of the battle.
    let mut events = Vec::new();
    while g.stage != Stage::GameOver {
        let p = g.active_player;
        events.extend(accepted(g, Command::EndPhase { player: p }));
    }
    assert!(
        events
            .iter()
            .any(|e| matches!(e, GameEvent::DestroyedInReserves { unit, .. } if unit == "nobz"))
    );
    let a = g.army_of(2).unwrap();
    let u = g.find_unit(a, "nobz").unwrap();
    assert_eq!(g.units[a][u].location, Location::Destroyed);
}

#[test]
fn transports_take_units_within_3_inches_up_to_their_capacity() {
    let mut g = deployed_game(open_field());
    isolate(
        &mut g,
        &[
            (2, "trukk"),
            (2, "shoota-boyz"),
            (2, "boyz-mob"),
            (1, "redemptor"),
        ],
    );
    advance_to(&mut g, 2, Phase::Movement);
    // The Boyz mob and its Warboss wait along the far edge, clear of the Trukk.
    put_line(&mut g, 2, "boyz-mob", 4.0, 42.5, 1.3);
    put(&mut g, 2, "warboss", 0, 2.0, 40.0);
    put(&mut g, 2, "trukk", 0, 40.0, 30.0);
    put_rows(&mut g, 2, "shoota-boyz", (37.5, 33.0), 1.3, 5);
    accepted!(
        g,
        mv(
            2,
            "shoota-boyz",
            MoveMode::Normal,
            shift(&g, 2, "shoota-boyz", 0.0, -0.5)
        )
    );
    let ev = accepted!(
        g,
        Command::Embark {
            player: 2,
            unit: "shoota-boyz".into(),
            transport: "trukk".into()
        }
    );
    assert!(matches!(ev[0], GameEvent::Embarked { .. }));
    let a = g.army_of(2).unwrap();
    let u = g.find_unit(a, "shoota-boyz").unwrap();
    assert!(matches!(g.units[a][u].location, Location::Embarked(_)));
    // 20 Boyz and their Warboss do not fit in a Trukk (12).
    put_line(&mut g, 2, "boyz-mob", 28.0, 34.5, 1.3);
    put(&mut g, 2, "warboss", 0, 28.0, 36.2);
    accepted!(
        g,
        mv(
            2,
            "boyz-mob",
            MoveMode::Normal,
            shift(&g, 2, "boyz-mob", 0.0, 0.5)
        )
    );
    let r = rejected!(
        g,
        Command::Embark {
            player: 2,
            unit: "boyz-mob".into(),
            transport: "trukk".into()
        }
    );
    assert_eq!(r.rule, Rule::Transports);
    assert!(r.reason.contains("carries 12 models"), "{r}");
    // Next turn: disembark wholly within 3".
    advance_to(&mut g, 2, Phase::Command);
    advance_to(&mut g, 2, Phase::Movement);
    let near = |x0: f32| -> Vec<wartable::game::Placement> {
        (0..10)
            .map(|m| wartable::game::Placement {
                model: m,
                unit: None,
                x: x0 + 1.3 * (m % 5) as f32,
                y: 27.3 - 1.3 * (m / 5) as f32,
                z: 0.0,
                facing: 0.0,
            })
            .collect()
    };
    let r = rejected!(
        g,
        Command::Disembark {
            player: 2,
            unit: "shoota-boyz".into(),
            models: near(20.0)
        }
    );
    assert_eq!(r.rule, Rule::Transports);
    accepted!(
        g,
        Command::Disembark {
            player: 2,
            unit: "shoota-boyz".into(),
            models: near(37.0)
        }
    );
    assert_eq!(g.units[a][u].location, Location::OnTable);
}

#[test]
fn a_leader_stands_alone_when_its_bodyguard_is_destroyed() {
    let mut g = game_at(Phase::Shooting);
    isolate(&mut g, &[(1, "intercessors"), (2, "boyz-mob")]);
    put_line(&mut g, 1, "intercessors", 10.0, 16.0, 1.8);
    put(&mut g, 1, "captain", 0, 10.0, 14.2);
    put_line(&mut g, 2, "boyz-mob", 10.0, 21.0, 1.3);
    put(&mut g, 2, "warboss", 0, 10.0, 22.6);
    let a = g.army_of(2).unwrap();
    let mob = g.find_unit(a, "boyz-mob").unwrap();
    // The last Boy standing is a 1-Wound Boy (model 0 is the 2-Wound Boss Nob).
    for m in 0..19 {
        g.units[a][mob].models[m].alive = false;
    }
    // Six 6s for the Grenade: 6 mortal wounds; 1 kills the last Boy, 5 carry over to the Warboss.
    g.rng = wartable::rules::rng::GameRng::scripted(&[6; 6]);
    g.cp[0] = 1;
    let ev = accepted!(
        g,
        Command::UseStratagem {
            player: 1,
            stratagem: Stratagem::Grenade,
            unit: "intercessors".into(),
            target: Some("boyz-mob".into()),
            reroll: None
        }
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, GameEvent::UnitDestroyed { unit, .. } if unit == "boyz-mob"))
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, GameEvent::LeaderDetached { unit, .. } if unit == "warboss"))
    );
    let boss = g.find_unit(a, "warboss").unwrap();
    let w = g.scene.armies[a].units[boss].datasheet.wounds;
    assert_eq!(g.units[a][boss].models[0].wounds, w - 5);
    assert_eq!(g.combined(a, boss), vec![boss]);
}

#[test]
fn other_command_point_gains_are_capped_at_one_per_battle_round() {
    let mut g = deployed_game(open_field());
    assert_eq!(g.gain_other_cp(1, 2), 1);
    assert_eq!(g.gain_other_cp(1, 1), 0);
    assert_eq!(g.cp[0], 2);
    // The cap resets in the next battle round.
    advance_to(&mut g, 2, Phase::Command);
    advance_to(&mut g, 1, Phase::Command);
    assert_eq!(g.battle_round, 2);
    assert_eq!(g.gain_other_cp(1, 1), 1);
}

// ---- Command Re-roll on every kind of roll (shared/RULES.md, Core Stratagems) ----

/// Player `player` uses Command Re-roll on `unit`, kept for its next `roll`.
fn command_reroll(player: u8, unit: &str, roll: wartable::game::RerollRoll) -> Command {
    Command::UseStratagem {
        player,
        stratagem: Stratagem::CommandReroll,
        unit: unit.into(),
        target: None,
        reroll: Some(roll),
    }
}

/// The attack steps among a command's events.
fn attack_steps(ev: &[GameEvent]) -> Vec<&wartable::rules::attack::events::AttackEvent> {
    ev.iter()
        .filter_map(|e| match e {
            GameEvent::Attack(a) => Some(a),
            _ => None,
        })
        .collect()
}

/// (kind of roll, dice replaced) of every Command Re-roll spent in an attack.
fn attack_command_rerolls(ev: &[GameEvent]) -> Vec<(String, Vec<u8>)> {
    use wartable::rules::attack::events::AttackEvent;
    attack_steps(ev)
        .into_iter()
        .filter_map(|a| match a {
            AttackEvent::CommandReroll { of, replaced } => Some((of.clone(), replaced.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn command_reroll_battle_shock_test_rerolls_a_failure_once() {
    use wartable::game::RerollRoll;
    use wartable::rules::rng::GameRng;
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "eliminators")]);
    let a = g.army_of(1).unwrap();
    let u = g.find_unit(a, "eliminators").unwrap();
    g.units[a][u].models[1].alive = false;
    g.units[a][u].models[2].alive = false;
    g.cp = [5, 5];
    let before = g.clone();
    let test_of = |ev: &[GameEvent]| {
        ev.iter()
            .find_map(|e| match e {
                GameEvent::BattleShockTest { dice, passed, .. } => Some((*dice, *passed)),
                _ => None,
            })
            .expect("a Battle-shock test")
    };
    // Without the Stratagem, double 1 fails.
    let mut plain = before.clone();
    plain.rng = GameRng::scripted(&[1, 1, 6, 6]);
    let ev = accepted!(plain, Command::EndPhase { player: 1 });
    assert_eq!(test_of(&ev), ([1, 1], false));
    assert!(plain.units[a][u].battle_shocked);
    // Kept for the test: both dice are rolled again and 6 + 6 passes.
    accepted!(g, command_reroll(1, "eliminators", RerollRoll::BattleShock));
    assert_eq!(g.units[a][u].command_reroll, Some(RerollRoll::BattleShock));
    g.rng = GameRng::scripted(&[1, 1, 6, 6]);
    let ev = accepted!(g, Command::EndPhase { player: 1 });
    assert!(ev.iter().any(|e| matches!(
        e,
        GameEvent::CommandRerolled { unit, roll, replaced, .. }
            if unit == "eliminators" && *roll == RerollRoll::BattleShock && replaced == &vec![1, 1]
    )));
    assert_eq!(test_of(&ev), ([6, 6], true));
    assert!(!g.units[a][u].battle_shocked);
    assert_eq!(g.units[a][u].command_reroll, None, "spent");
    // A test that passes leaves the re-roll unused: not paid, and it lapses with the phase
    // (Core Stratagems: used just after the roll it re-rolls; issue 51, finding 5).
    let mut passing = before;
    accepted!(
        passing,
        command_reroll(1, "eliminators", RerollRoll::BattleShock)
    );
    passing.rng = GameRng::scripted(&[6, 6]);
    let ev = accepted!(passing, Command::EndPhase { player: 1 });
    assert_eq!(test_of(&ev), ([6, 6], true));
    assert!(
        !ev.iter()
            .any(|e| matches!(e, GameEvent::CommandRerolled { .. }))
    );
    assert_eq!(passing.units[a][u].command_reroll, None);
}

#[test]
fn command_reroll_desperate_escape_rerolls_the_first_failed_test() {
    use wartable::game::RerollRoll;
    use wartable::rules::rng::GameRng;
    let mut g = game_at(Phase::Movement);
    isolate(&mut g, &[(1, "eliminators"), (2, "nobz")]);
    put_line(&mut g, 1, "eliminators", 10.0, 18.0, 1.8);
    put_line(&mut g, 2, "nobz", 10.0, 19.6, 1.8);
    g.cp = [5, 5];
    let (a, u) = (
        g.army_of(1).unwrap(),
        g.find_unit(g.army_of(1).unwrap(), "eliminators").unwrap(),
    );
    // Every Eliminator falls back straight through a Nob: three Desperate Escape tests.
    let back = || {
        mv(
            1,
            "eliminators",
            MoveMode::FallBack,
            (0..3)
                .map(|m| ModelPath {
                    model: m,
                    unit: None,
                    path: vec![(10.0 + 1.8 * m as f32, 22.5, 0.0)],
                    facing: None,
                })
                .collect(),
        )
    };
    let escapes = |ev: &[GameEvent]| -> Vec<(String, u8, bool)> {
        ev.iter()
            .filter_map(|e| match e {
                GameEvent::DesperateEscape {
                    model,
                    roll,
                    destroyed,
                    ..
                } => Some((model.clone(), *roll, *destroyed)),
                _ => None,
            })
            .collect()
    };
    // Without the Stratagem: 1 and 2 fail.
    let mut plain = g.clone();
    plain.rng = GameRng::scripted(&[1, 2, 6]);
    let ev = accepted!(plain, back());
    assert_eq!(
        escapes(&ev),
        vec![
            ("eliminators#0".into(), 1, true),
            ("eliminators#1".into(), 2, true),
            ("eliminators#2".into(), 6, false),
        ]
    );
    // Kept: the first failure (1) is re-rolled to a 5; the second (2) is not.
    accepted!(
        g,
        command_reroll(1, "eliminators", RerollRoll::DesperateEscape)
    );
    g.rng = GameRng::scripted(&[1, 5, 2, 6]);
    let ev = accepted!(g, back());
    assert!(ev.iter().any(|e| matches!(
        e,
        GameEvent::CommandRerolled { unit, roll, replaced, .. }
            if unit == "eliminators#0" && *roll == RerollRoll::DesperateEscape && replaced == &vec![1]
    )));
    assert_eq!(
        escapes(&ev),
        vec![
            ("eliminators#0".into(), 5, false),
            ("eliminators#1".into(), 2, true),
            ("eliminators#2".into(), 6, false),
        ]
    );
    assert_eq!(g.live_models(a, u).len(), 2);
    assert_eq!(g.units[a][u].command_reroll, None, "spent");
}

/// The open field with `edit` made to the Intercessor Squad's Bolt rifle, the Intercessors
/// (and their Captain) 10" from the Nobz, in player 1's Shooting phase.
fn intercessors_facing_nobz(edit: impl Fn(&mut wartable::rules::WeaponProfile)) -> Game {
    let mut scene = open_field();
    let army = scene.armies.iter_mut().find(|a| a.player == 1).unwrap();
    let squad = army
        .units
        .iter_mut()
        .find(|u| u.id == "intercessors")
        .unwrap();
    let rifle = squad
        .datasheet_mut()
        .ranged_weapons
        .iter_mut()
        .find(|w| w.name == "Bolt rifle")
        .unwrap();
    edit(rifle);
    let mut g = deployed_game(scene);
    isolate(
        &mut g,
        &[(1, "intercessors"), (1, "hellblasters"), (2, "nobz")],
    );
    put_line(&mut g, 1, "intercessors", 8.0, 10.0, 1.5);
    put(&mut g, 1, "captain", 0, 8.0, 11.6);
    put_line(&mut g, 1, "hellblasters", 8.0, 7.0, 1.5);
    put_line(&mut g, 2, "nobz", 8.0, 20.0, 1.6);
    advance_to(&mut g, 1, Phase::Shooting);
    g.cp = [5, 5];
    g
}

/// Player 1's `unit` shoots `weapon` at the Nobz with only the models `models` of it.
fn shoot_nobz(unit: &str, weapon: WeaponTarget, models: &[usize]) -> Command {
    Command::Shoot {
        player: 1,
        unit: unit.into(),
        weapons: vec![weapon.by_models(models.iter().map(|m| format!("{unit}#{m}")).collect())],
    }
}

/// Wounds left on each Nob (0: destroyed).
fn nobz_wounds(g: &Game) -> Vec<u8> {
    let a = g.army_of(2).unwrap();
    let u = g.find_unit(a, "nobz").unwrap();
    g.units[a][u].models.iter().map(|m| m.wounds).collect()
}

#[test]
fn command_reroll_saving_throw_is_the_defenders_first_failed_save() {
    use wartable::game::RerollRoll;
    use wartable::rules::attack::events::AttackEvent;
    use wartable::rules::rng::GameRng;
    let mut g = intercessors_facing_nobz(|_| {});
    // The defending player keeps it for the Nobz, in the attacker's Shooting phase.
    accepted!(g, command_reroll(2, "nobz", RerollRoll::SavingThrow));
    // Hits 4 4, wounds 5 5 (S4 v T5); saves need 5 (Sv 4+, AP -1): 1 re-rolled to 6, then 1.
    g.rng = GameRng::scripted(&[4, 4, 5, 5, 1, 6, 1]);
    let ev = shot!(
        g,
        shoot_nobz(
            "intercessors",
            WeaponTarget::new("Bolt rifle", "nobz"),
            &[0]
        )
    );
    let saves: Vec<(u8, bool)> = attack_steps(&ev)
        .into_iter()
        .filter_map(|a| match a {
            AttackEvent::SavingThrow { roll, saved, .. } => Some((*roll, *saved)),
            _ => None,
        })
        .collect();
    assert_eq!(saves, vec![(6, true), (1, false)]);
    assert_eq!(
        attack_command_rerolls(&ev),
        vec![("saving throw".to_string(), vec![1])]
    );
    // The defender's default order loses a plain big-choppa Nob (#2) first.
    assert_eq!(nobz_wounds(&g), vec![2, 2, 1, 2, 2]);
    let a = g.army_of(2).unwrap();
    let u = g.find_unit(a, "nobz").unwrap();
    assert_eq!(g.units[a][u].command_reroll, None, "spent");
}

#[test]
fn command_reroll_damage_rerolls_the_first_damage_roll_below_average() {
    use wartable::game::RerollRoll;
    use wartable::rules::attack::events::AttackEvent;
    use wartable::rules::rng::GameRng;
    let mut g = intercessors_facing_nobz(|w| w.damage = "D6".parse().unwrap());
    let damage_dice = |ev: &[GameEvent]| -> Vec<Vec<u8>> {
        attack_steps(ev)
            .into_iter()
            .filter_map(|a| match a {
                AttackEvent::Damage { dice, .. } => Some(dice.clone()),
                _ => None,
            })
            .collect()
    };
    // Without it: Damage 1 and 1, both on the first Nob of the defender's default order, a
    // plain big-choppa Nob (it lost a wound, so it takes the second attack too).
    let mut plain = g.clone();
    // Hits 4 4, wounds 5 5, save 1, Damage 1, save 1, Damage 1.
    plain.rng = GameRng::scripted(&[4, 4, 5, 5, 1, 1, 1, 1]);
    let ev = shot!(
        plain,
        shoot_nobz(
            "intercessors",
            WeaponTarget::new("Bolt rifle", "nobz"),
            &[0]
        )
    );
    assert_eq!(damage_dice(&ev), vec![vec![1], vec![1]]);
    assert_eq!(nobz_wounds(&plain), vec![2, 2, 0, 2, 2]);
    // Kept: the first Damage roll (1, below 3.5) becomes a 6; the second 1 stays.
    accepted!(g, command_reroll(1, "intercessors", RerollRoll::Damage));
    // The same with the Damage re-roll's 6 after the first Damage 1.
    g.rng = GameRng::scripted(&[4, 4, 5, 5, 1, 1, 6, 1, 1]);
    let ev = shot!(
        g,
        shoot_nobz(
            "intercessors",
            WeaponTarget::new("Bolt rifle", "nobz"),
            &[0]
        )
    );
    assert_eq!(
        attack_command_rerolls(&ev),
        vec![("Damage".to_string(), vec![1])]
    );
    assert_eq!(damage_dice(&ev), vec![vec![6], vec![1]]);
    assert_eq!(nobz_wounds(&g), vec![2, 2, 0, 1, 2]);
}

#[test]
fn command_reroll_attacks_rerolls_the_first_attacks_roll_below_average() {
    use wartable::game::RerollRoll;
    use wartable::rules::attack::events::AttackEvent;
    use wartable::rules::rng::GameRng;
    let mut g = intercessors_facing_nobz(|w| w.attacks = "D6".parse().unwrap());
    accepted!(g, command_reroll(1, "intercessors", RerollRoll::Attacks));
    // Two bearers: 2 (below 3.5) re-rolled to 5, then 2 kept; seven misses.
    g.rng = GameRng::scripted(&[2, 5, 2, 1, 1, 1, 1, 1, 1, 1]);
    let ev = shot!(
        g,
        shoot_nobz(
            "intercessors",
            WeaponTarget::new("Bolt rifle", "nobz"),
            &[0, 1]
        )
    );
    assert_eq!(
        attack_command_rerolls(&ev),
        vec![("Attacks".to_string(), vec![2])]
    );
    let attacks: Vec<(Vec<u8>, u32)> = attack_steps(&ev)
        .into_iter()
        .filter_map(|a| match a {
            AttackEvent::Attacks { dice, attacks } => Some((dice.clone(), *attacks)),
            _ => None,
        })
        .collect();
    assert_eq!(attacks, vec![(vec![5, 2], 7)]);
    let hits = attack_steps(&ev)
        .into_iter()
        .filter(|a| matches!(a, AttackEvent::HitRoll { .. }))
        .count();
    assert_eq!(hits, 7);
}

#[test]
fn command_reroll_hazardous_rerolls_the_first_failed_test() {
    use wartable::game::RerollRoll;
    use wartable::rules::attack::events::AttackEvent;
    use wartable::rules::rng::GameRng;
    let mut g = intercessors_facing_nobz(|_| {});
    accepted!(g, command_reroll(1, "hellblasters", RerollRoll::Hazardous));
    // Two bearers, four misses; HAZARDOUS tests: 1 re-rolled to 4, then 1 (fails).
    g.rng = GameRng::scripted(&[1, 1, 1, 1, 1, 4, 1]);
    let plasma = WeaponTarget::new("Plasma incinerator", "nobz").with_profile("supercharge");
    let ev = shot!(g, shoot_nobz("hellblasters", plasma, &[0, 1]));
    assert_eq!(
        attack_command_rerolls(&ev),
        vec![("HAZARDOUS test".to_string(), vec![1])]
    );
    let tests: Vec<u8> = attack_steps(&ev)
        .into_iter()
        .filter_map(|a| match a {
            AttackEvent::Hazardous { roll, .. } => Some(*roll),
            _ => None,
        })
        .collect();
    assert_eq!(tests, vec![4, 1]);
    let losses = ev
        .iter()
        .filter(|e| matches!(e, GameEvent::HazardousLoss { .. }))
        .count();
    assert_eq!(losses, 1);
    let a = g.army_of(1).unwrap();
    let u = g.find_unit(a, "hellblasters").unwrap();
    assert_eq!(g.live_models(a, u).len(), 4);
}
