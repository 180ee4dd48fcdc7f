//! 11th edition, part 2 (the game), each case under `Eleventh` with its `Tenth` twin, driven
//! through `Game` commands: Battle-shock at or below half strength and until passed, charges
//! rolled before their targets are chosen, the shared Pile In and Consolidate steps with the
//! active player first, one Stratagem per unit per phase, and the hazard roll
//! (shared/RULES-11e.md, "10th vs 11th at a glance").

use crate::battle;
use battle::*;

use wartable::game::{Command, Game, GameEvent};
use wartable::rules::Ruleset;
use wartable::rules::phase::{FightStep, Phase};
use wartable::rules::stratagem::Stratagem;

fn kill(g: &mut Game, player: u8, unit: &str, models: std::ops::Range<usize>) {
    let (a, u) = unit_ref(g, player, unit);
    for m in models {
        g.units[a][u].models[m].alive = false;
    }
}

fn test_of(ev: &[GameEvent], id: &str) -> Option<bool> {
    ev.iter().find_map(|e| match e {
        GameEvent::BattleShockTest { unit, passed, .. } if unit == id => Some(*passed),
        _ => None,
    })
}

#[test]
fn a_unit_at_exactly_half_strength_tests_for_battle_shock_under_eleventh_only() {
    for ruleset in Ruleset::ALL {
        let mut g = game_under(ruleset);
        // The ten Shoota Boyz left at five: exactly half.
        let (a, u) = unit_ref(&g, 2, "shoota-boyz");
        kill(&mut g, 2, "shoota-boyz", 0..5);
        assert!(g.at_or_below_half_strength(a, u));
        assert!(!g.below_half_strength(a, u));
        advance_to(&mut g, 2, Phase::Command);
        let ev = accepted(&mut g, Command::EndPhase { player: 2 });
        match ruleset {
            Ruleset::Tenth => assert_eq!(test_of(&ev, "shoota-boyz"), None),
            Ruleset::Eleventh => {
                let passed = test_of(&ev, "shoota-boyz").expect("a Battle-shock test at half");
                assert_eq!(g.units[a][u].battle_shocked, !passed);
            }
        }
    }
}

#[test]
fn battle_shock_lasts_until_a_test_is_passed_under_eleventh() {
    for ruleset in Ruleset::ALL {
        let mut g = game_under(ruleset);
        advance_to(&mut g, 1, Phase::Movement);
        let (a, u) = unit_ref(&g, 1, "hellblasters");
        for x in g.combined(a, u) {
            g.units[a][x].battle_shocked = true;
        }
        // Player 1's next Command phase, at full strength.
        advance_to(&mut g, 2, Phase::Command);
        let mut ev = advance_to(&mut g, 1, Phase::Command);
        ev.extend(accepted(&mut g, Command::EndPhase { player: 1 }));
        let ended = ev.iter().any(
            |e| matches!(e, GameEvent::BattleShockEnded { unit, .. } if unit == "hellblasters"),
        );
        match ruleset {
            Ruleset::Tenth => {
                // Over at the start of its player's Command phase, with no test.
                assert!(ended);
                assert_eq!(test_of(&ev, "hellblasters"), None);
                assert!(!g.units[a][u].battle_shocked);
            }
            Ruleset::Eleventh => {
                // Tested although at full strength; over only if passed.
                let passed = test_of(&ev, "hellblasters").expect("a test while shocked");
                assert_eq!(ended, passed);
                assert_eq!(g.units[a][u].battle_shocked, !passed);
            }
        }
    }
}

/// The Eliminators 5" south of the Nobz (base to base about 3.3"), the Lootas 7" east.
fn charge_scene(ruleset: Ruleset) -> Game {
    let mut g = game_under(ruleset);
    isolate(&mut g, &[(1, "eliminators"), (2, "nobz"), (2, "lootas")]);
    put_line(&mut g, 1, "eliminators", 10.0, 18.0, 1.8);
    put_line(&mut g, 2, "nobz", 10.0, 23.0, 1.8);
    put_line(&mut g, 2, "lootas", 22.0, 18.0, 1.4);
    advance_to(&mut g, 1, Phase::Charge);
    g
}

#[test]
fn charges_roll_first_and_choose_targets_within_the_roll_under_eleventh() {
    let declare = |targets: Vec<String>| Command::DeclareCharge {
        player: 1,
        unit: "eliminators".into(),
        targets,
    };
    // 10th: targets declared with the charge.
    let mut g = charge_scene(Ruleset::Tenth);
    let r = rejected(&mut g, declare(vec![]));
    assert!(r.reason.contains("at least one target"), "{r}");
    accepted(&mut g, declare(vec!["nobz".into()]));
    assert_eq!(g.charge.as_ref().unwrap().targets.len(), 1);

    // 11th: declared without targets, chosen after the roll.
    let mut g = charge_scene(Ruleset::Eleventh);
    let r = rejected(&mut g, declare(vec!["nobz".into()]));
    assert!(r.reason.contains("without targets"), "{r}");
    accepted(&mut g, declare(vec![]));
    let roll = g.charge.as_ref().unwrap().distance();
    let (a, u) = unit_ref(&g, 1, "eliminators");
    let reach = g.charge_targets_in_reach(a, u, roll);
    let lootas_d = {
        let (la, lu) = unit_ref(&g, 2, "lootas");
        g.unit_distance((a, u), (la, lu))
    };
    // The Lootas are reached only by a roll of at least their whole distance.
    assert_eq!(
        reach.contains(&"lootas".to_string()),
        roll >= lootas_d.ceil(),
        "roll {roll}, Lootas {lootas_d:.2}\" away: {reach:?}"
    );
    assert_eq!(
        reach.contains(&"nobz".to_string()),
        roll >= 4.0,
        "{reach:?}"
    );
    if !reach.contains(&"lootas".to_string()) {
        // Naming a unit the roll does not reach is refused.
        let c = Command::ChargeMove {
            player: 1,
            unit: "eliminators".into(),
            paths: shift(&g, 1, "eliminators", 0.0, 0.5),
            targets: vec!["lootas".into()],
        };
        let r = rejected(&mut g, c);
        assert!(r.reason.contains("does not reach"), "{r}");
    }
    // A move naming no target is refused; one naming the Nobz and ending engaged with them
    // (within 1" where it can: base contact satisfies it) is accepted.
    let no_target = Command::ChargeMove {
        player: 1,
        unit: "eliminators".into(),
        paths: shift(&g, 1, "eliminators", 0.0, 1.0),
        targets: vec![],
    };
    let r = rejected(&mut g, no_target);
    assert!(r.reason.contains("name the charge's targets"), "{r}");
    let (na, nu) = unit_ref(&g, 2, "nobz");
    let gap = wartable::geometry::measure::model_distance(
        &g.solid(wartable::game::sight::ModelRef {
            army: a,
            unit: u,
            model: 0,
        }),
        &g.solid(wartable::game::sight::ModelRef {
            army: na,
            unit: nu,
            model: 0,
        }),
    )
    .distance;
    let toward = |g: &Game, short: f32| Command::ChargeMove {
        player: 1,
        unit: "eliminators".into(),
        paths: shift(g, 1, "eliminators", 0.0, gap - short),
        targets: vec!["nobz".into()],
    };
    if roll >= 4.0 {
        // Ending 1.5" short is engaged (2") but each model could end within 1": refused.
        let c = toward(&g, 1.5);
        let r = rejected(&mut g, c);
        assert!(r.reason.contains("within 1\" of"), "{r}");
        // Ending 0.5" short, within 1" though not in base contact: accepted.
        let c = toward(&g, 0.5);
        let ev = accepted(&mut g, c);
        assert!(g.units[a][u].charged);
        // The charge move's event names the targets chosen after the roll.
        assert!(ev.iter().any(|e| matches!(
            e,
            GameEvent::ChargeMoved { targets, .. } if targets == &["nobz".to_string()]
        )));
    } else {
        let c = toward(&g, 0.5);
        let r = rejected(&mut g, c);
        assert!(r.reason.contains("does not reach"), "{r}");
    }
}

#[test]
fn the_fight_phase_has_shared_pile_in_and_consolidate_steps_active_player_first_under_eleventh() {
    for ruleset in Ruleset::ALL {
        let mut g = game_under(ruleset);
        isolate(&mut g, &[(1, "eliminators"), (2, "nobz")]);
        // Engaged already (base to base 0.5" apart), nobody charged.
        put_line(&mut g, 1, "eliminators", 10.0, 18.0, 1.8);
        let (a, u) = unit_ref(&g, 1, "eliminators");
        let r = g.scene.armies[a].units[u].models[0]
            .characteristics
            .base
            .bounding_radius_inches();
        let (na, nu) = unit_ref(&g, 2, "nobz");
        let nr = g.scene.armies[na].units[nu].models[0]
            .characteristics
            .base
            .bounding_radius_inches();
        put_line(&mut g, 2, "nobz", 10.0, 18.0 + r + nr + 0.5, 1.8);
        advance_to(&mut g, 1, Phase::Fight);
        let (step, picker) = g.fight_step().unwrap();
        match ruleset {
            Ruleset::Tenth => {
                // The non-active player selects first; each unit piles in when it fights.
                assert_ne!(step, FightStep::PileIn);
                assert_eq!(picker, 2);
                continue;
            }
            Ruleset::Eleventh => assert_eq!((step, picker), (FightStep::PileIn, 1)),
        }
        // Pile In step: player 1 first, then player 2; no unit fights yet.
        let r = rejected(
            &mut g,
            Command::PileIn {
                player: 2,
                unit: "nobz".into(),
                paths: vec![],
            },
        );
        assert!(r.reason.contains("piles in first"), "{r}");
        accepted(
            &mut g,
            Command::PileIn {
                player: 1,
                unit: "eliminators".into(),
                paths: vec![],
            },
        );
        assert_eq!(g.fight_step(), Some((FightStep::PileIn, 2)));
        accepted(
            &mut g,
            Command::PileIn {
                player: 2,
                unit: "nobz".into(),
                paths: vec![],
            },
        );
        // Remaining Combats (no Fights First unit), the active player first; an engaged unit
        // is selected with no move and fights at once, no consolidation yet.
        assert_eq!(g.fight_step(), Some((FightStep::RemainingCombats, 1)));
        let moved = Command::PileIn {
            player: 1,
            unit: "eliminators".into(),
            paths: shift(&g, 1, "eliminators", 0.0, 0.2),
        };
        let r = rejected(&mut g, moved);
        assert!(r.reason.contains("piled in during the Pile In step"), "{r}");
        for (p, id) in [(1, "eliminators"), (2, "nobz")] {
            accepted(
                &mut g,
                Command::PileIn {
                    player: p,
                    unit: id.into(),
                    paths: vec![],
                },
            );
            accepted(
                &mut g,
                Command::Fight {
                    player: p,
                    unit: id.into(),
                    weapons: vec![],
                },
            );
        }
        // Consolidate step: every unit that fought, the active player's first.
        let (step, picker) = g.fight_step().unwrap();
        assert_eq!(step, FightStep::Consolidate);
        assert_eq!(picker, 1);
        let now = g.fighting_now().unwrap();
        assert_eq!((now.army, now.unit), (a, u));
        accepted(
            &mut g,
            Command::Consolidate {
                player: 1,
                unit: "eliminators".into(),
                paths: vec![],
            },
        );
        accepted(
            &mut g,
            Command::Consolidate {
                player: 2,
                unit: "nobz".into(),
                paths: vec![],
            },
        );
        accepted(&mut g, Command::EndPhase { player: 1 });
    }
}

#[test]
fn a_unit_is_the_target_of_one_stratagem_per_phase_under_eleventh() {
    for ruleset in Ruleset::ALL {
        let mut g = game_under(ruleset);
        advance_to(&mut g, 1, Phase::Shooting);
        isolate(&mut g, &[(1, "intercessors"), (2, "lootas")]);
        put_line(&mut g, 1, "intercessors", 10.0, 16.0, 1.8);
        put(&mut g, 1, "captain", 0, 10.0, 14.2);
        put_line(&mut g, 2, "lootas", 10.0, 22.0, 1.2);
        g.cp = [5, 5];
        accepted(
            &mut g,
            Command::UseStratagem {
                player: 1,
                stratagem: Stratagem::Grenade,
                unit: "intercessors".into(),
                target: Some("lootas".into()),
                reroll: None,
            },
        );
        let reroll = Command::UseStratagem {
            player: 1,
            stratagem: Stratagem::CommandReroll,
            unit: "intercessors".into(),
            target: None,
            reroll: Some(wartable::game::RerollRoll::Hit),
        };
        match ruleset {
            Ruleset::Tenth => {
                accepted(&mut g, reroll);
            }
            Ruleset::Eleventh => {
                let r = rejected(&mut g, reroll);
                assert!(r.reason.contains("one per unit per phase"), "{r}");
                // The engine's options say so too.
                let (a, u) = unit_ref(&g, 1, "intercessors");
                assert!(
                    g.stratagem_options(a, u)
                        .iter()
                        .filter(|o| o.stratagem == Stratagem::CommandReroll)
                        .all(|o| o.verdict.is_err())
                );
            }
        }
    }
}

/// 11th Core Rules 09.07: a Battle-shocked unit Falling Back makes a Desperate Escape: a
/// hazard roll for every model (a failure costs the unit a mortal wound), where 10th rolls a
/// D6 per model and destroys it on 1-2.
#[test]
fn desperate_escape_is_a_hazard_roll_per_model_under_eleventh() {
    for ruleset in Ruleset::ALL {
        let mut g = game_under(ruleset);
        isolate(&mut g, &[(1, "intercessors"), (2, "nobz")]);
        // Two rows of five (within 11th's 9" span), the front row 0.4" from the Nobz.
        put_rows(&mut g, 1, "intercessors", (10.0, 16.2), 1.8, 5);
        put(&mut g, 1, "captain", 0, 10.0, 14.4);
        put_line(&mut g, 2, "nobz", 10.0, 19.9, 1.8);
        advance_to(&mut g, 1, Phase::Movement);
        let (a, u) = unit_ref(&g, 1, "intercessors");
        assert!(g.engaged(a, u));
        for x in g.combined(a, u) {
            g.units[a][x].battle_shocked = true;
        }
        let models = g.live_models(a, u).len();
        let c = Command::Move {
            player: 1,
            unit: "intercessors".into(),
            mode: wartable::rules::movement::MoveMode::FallBack,
            paths: shift(&g, 1, "intercessors", 0.0, -4.0),
        };
        let ev = accepted(&mut g, c);
        let per_model = ev
            .iter()
            .filter(|e| matches!(e, GameEvent::DesperateEscape { .. }))
            .count();
        let hazard = ev.iter().find_map(|e| match e {
            GameEvent::MortalWoundsRolled {
                target,
                dice,
                mortal_wounds,
                ..
            } if target == "intercessors" => Some((dice.clone(), *mortal_wounds)),
            _ => None,
        });
        match ruleset {
            Ruleset::Tenth => {
                assert_eq!(per_model, models);
                assert!(hazard.is_none());
            }
            Ruleset::Eleventh => {
                assert_eq!(per_model, 0);
                let (dice, wounds) = hazard.expect("the hazard rolls");
                assert_eq!(dice.len(), models);
                assert_eq!(wounds as usize, dice.iter().filter(|&&d| d <= 2).count());
            }
        }
    }
}
