//! Rules fidelity through the engine, third review: a destroyed TRANSPORT's passengers suffer
//! mortal wounds (not whole models) and its Deadly Demise comes first; a unit cannot embark
//! and disembark in one phase; a model already in base contact does not pile in; Desperate
//! Escape tests come before the Fall Back move. Core Rules: Transports, Deadly Demise, Fight
//! phase (Pile In), Movement phase (Fall Back); shared/RULES.md.

use crate::battle;

use battle::*;
use wartable::game::{
    Command, Game, GameEvent, Location, ModelPath, Placement, Rule, WeaponTarget,
};
use wartable::rules::movement::MoveMode;
use wartable::rules::phase::Phase;
use wartable::rules::rng::GameRng;

/// The Nobz (5 models, W2) embarked in a Trukk with 1 wound left, the Redemptor ready to shoot
/// it: player 1's Shooting phase.
fn loaded_trukk() -> Game {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "redemptor"), (2, "trukk"), (2, "nobz")]);
    put(&mut g, 1, "redemptor", 0, 20.0, 10.0);
    put(&mut g, 2, "trukk", 0, 20.0, 24.0);
    let (a, trukk) = unit_ref(&g, 2, "trukk");
    let (_, nobz) = unit_ref(&g, 2, "nobz");
    g.units[a][nobz].location = Location::Embarked(trukk);
    g.units[a][trukk].models[0].wounds = 1;
    advance_to(&mut g, 1, Phase::Shooting);
    g
}

/// The Redemptor shoots the loaded Trukk with dice seeded by `seed`: the game after and its
/// events when the Trukk is destroyed, None when it survives.
fn destroy_trukk(g: &Game, seed: u64) -> Option<(Game, Vec<GameEvent>)> {
    let mut t = g.clone();
    t.rng = GameRng::seeded(seed);
    let ev = shot(
        &mut t,
        Command::Shoot {
            player: 1,
            unit: "redemptor".into(),
            weapons: vec![WeaponTarget::new("Heavy onslaught gatling cannon", "trukk")],
        },
    );
    let (a, trukk) = unit_ref(&t, 2, "trukk");
    (!t.units[a][trukk].models[0].alive).then_some((t, ev))
}

/// The dice of the passengers' Destroyed Transport rolls and the failures among them.
fn transport_rolls(ev: &[GameEvent]) -> (Vec<u8>, u32) {
    ev.iter()
        .find_map(|e| match e {
            GameEvent::DestroyedTransportRolls {
                dice, fails_up_to, ..
            } => Some((
                dice.clone(),
                dice.iter().filter(|d| **d <= *fails_up_to).count() as u32,
            )),
            _ => None,
        })
        .expect("a D6 per disembarked model")
}

/// Finding 1: each Destroyed Transport roll of 1 inflicts 1 mortal wound on the unit (a W2 Nob
/// survives one), not the loss of a whole model.
#[test]
fn destroyed_transport_rolls_inflict_mortal_wounds_not_models() {
    let g = loaded_trukk();
    let (a, nobz) = unit_ref(&g, 2, "nobz");
    for seed in 0..400 {
        let Some((t, ev)) = destroy_trukk(&g, seed) else {
            continue;
        };
        let (dice, failures) = transport_rolls(&ev);
        assert_eq!(dice.len(), 5, "a D6 per Nob");
        if failures == 0 {
            continue;
        }
        assert_eq!(t.units[a][nobz].location, Location::OnTable);
        let models = &t.units[a][nobz].models;
        let full: Vec<u8> = t.scene.armies[a].units[nobz]
            .models
            .iter()
            .map(|m| m.characteristics.wounds)
            .collect();
        assert!(full.iter().all(|w| *w == 2), "every Nob has 2 wounds");
        // Nothing else can hurt the Nobz here: the wounds they lost are the mortal wounds,
        // allocated one by one.
        let wounds_lost: u32 = models.iter().map(|m| 2 - u32::from(m.wounds)).sum();
        assert_eq!(wounds_lost, failures, "{ev:#?}");
        let dead = models.iter().filter(|m| !m.alive).count() as u32;
        assert_eq!(dead, failures / 2, "{failures} mortal wounds on W2 Nobz");
        assert!(ev.iter().any(|e| matches!(
            e,
            GameEvent::MortalWoundsRolled { target, mortal_wounds, .. }
                if target == "nobz" && *mortal_wounds == failures
        )));
        return;
    }
    panic!("no seed destroyed the Trukk with a failed roll");
}

/// Finding 1: the TRANSPORT's Deadly Demise is rolled before its passengers disembark (so it
/// cannot hit them).
#[test]
fn deadly_demise_is_rolled_before_the_passengers_disembark() {
    let g = loaded_trukk();
    let mut checked = 0;
    for seed in 0..400 {
        let Some((_, ev)) = destroy_trukk(&g, seed) else {
            continue;
        };
        let demise = ev
            .iter()
            .position(|e| matches!(e, GameEvent::DeadlyDemise { model, .. } if model == "trukk#0"))
            .expect("the Trukk has Deadly Demise D3");
        let set_up = ev
            .iter()
            .position(|e| matches!(e, GameEvent::SetUp { unit, .. } if unit == "nobz"))
            .expect("the Nobz disembark");
        assert!(
            demise < set_up,
            "Deadly Demise (event {demise}) must come before the Nobz are set up (event {set_up})"
        );
        // No mortal wounds reach the Nobz but those of their own rolls.
        let (_, failures) = transport_rolls(&ev);
        let on_nobz = ev
            .iter()
            .filter(
                |e| matches!(e, GameEvent::MortalWoundsRolled { target, .. } if target == "nobz"),
            )
            .count();
        assert_eq!(on_nobz, usize::from(failures > 0), "{ev:#?}");
        checked += 1;
        if checked == 5 {
            return;
        }
    }
    assert!(checked > 0, "the Trukk survived every seed");
}

/// Finding 12: a unit that embarked this phase cannot disembark in it (a unit must start the
/// phase embarked to disembark), neither before nor after its TRANSPORT's move; the next
/// Movement phase it can.
#[test]
fn a_unit_that_embarked_this_phase_cannot_disembark_in_it() {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(2, "trukk"), (2, "shoota-boyz")]);
    put(&mut g, 2, "trukk", 0, 12.0, 30.0);
    let (a, t) = unit_ref(&g, 2, "trukk");
    // Facing 0: the 6.75" hull runs along x, from x 8.6 to 15.4 and y 28.25 to 31.75.
    g.scene.armies[a].units[t].models[0].facing = 0.0;
    put_rows(&mut g, 2, "shoota-boyz", (9.5, 36.0), 1.3, 5);
    advance_to(&mut g, 2, Phase::Movement);
    let forward = normal_move(&g, 2, "shoota-boyz", 0.0, -2.5);
    accepted(&mut g, forward);
    accepted(
        &mut g,
        Command::Embark {
            player: 2,
            unit: "shoota-boyz".into(),
            transport: "trukk".into(),
        },
    );
    // Two rows wholly within 3" of the hull standing at (x0 + 2.5, 30).
    let around = |x0: f32| -> Vec<Placement> {
        (0..10)
            .map(|m| Placement {
                model: m,
                unit: None,
                x: x0 + 1.3 * (m % 5) as f32,
                y: 32.6 + 1.3 * (m / 5) as f32,
                z: 0.0,
                facing: 0.0,
            })
            .collect()
    };
    let disembark = |x0: f32| Command::Disembark {
        player: 2,
        unit: "shoota-boyz".into(),
        models: around(x0),
    };
    // At once, before the Trukk moves.
    let r = rejected(&mut g.clone(), disembark(9.5));
    assert_eq!(r.rule, Rule::Transports, "{r}");
    // After the Trukk's Normal move of 10": about 20" in one phase for M6" Boyz.
    let drive = normal_move(&g, 2, "trukk", 10.0, 0.0);
    accepted(&mut g, drive);
    let r = rejected(&mut g, disembark(19.5));
    assert_eq!(r.rule, Rule::Transports, "{r}");
    assert!(r.reason.contains("embarked this phase"), "{r}");
    // Starting the next Movement phase embarked, they may.
    advance_to(&mut g, 1, Phase::Command);
    advance_to(&mut g, 2, Phase::Movement);
    accepted(&mut g, disembark(19.5));
}

/// Finding 13: a model already in base-to-base contact with an enemy model does not move when
/// its unit Piles In: it may not slide round that enemy model, even staying in contact.
#[test]
fn a_model_in_base_contact_does_not_pile_in() {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "hellblasters"), (2, "nobz")]);
    // A Hellblaster touching Nob 0 east of it (32 mm bases, 1.3" between centres); the other
    // Nobz in a line south of Nob 0.
    put_line(&mut g, 1, "hellblasters", 20.0, 34.0, 1.3);
    put(&mut g, 2, "nobz", 0, 18.7, 34.0);
    for m in 1..5 {
        put(&mut g, 2, "nobz", m, 18.7, 34.0 - 1.3 * m as f32);
    }
    advance_to(&mut g, 1, Phase::Fight);
    // Nob 0 slides round the Hellblaster's base to its north side, still touching it.
    let slide = vec![ModelPath {
        model: 0,
        unit: None,
        path: vec![(18.6, 35.0, 0.0), (19.3, 35.6, 0.0), (20.0, 35.3, 0.0)],
        facing: None,
    }];
    let r = rejected(
        &mut g,
        Command::PileIn {
            player: 2,
            unit: "nobz".into(),
            paths: slide,
        },
    );
    assert_eq!(r.rule, Rule::PileIn, "{r}");
    assert!(r.reason.contains("base-to-base contact"), "{r}");
    // Without moving it, the unit Piles In.
    accepted(
        &mut g,
        Command::PileIn {
            player: 2,
            unit: "nobz".into(),
            paths: vec![],
        },
    );
}

/// Finding 17b: Desperate Escape tests are taken before the Fall Back move; a model their
/// failure destroys does not move, and the tests come before the move in the events.
#[test]
fn desperate_escape_tests_come_before_the_fall_back_move() {
    let mut g = deployed_game(open_field());
    advance_to(&mut g, 1, Phase::Movement);
    isolate(&mut g, &[(1, "eliminators"), (2, "nobz")]);
    put_line(&mut g, 1, "eliminators", 10.0, 18.0, 1.8);
    put_line(&mut g, 2, "nobz", 10.0, 19.6, 1.8);
    // Every Eliminator falls back straight through a Nob: three tests; the first fails.
    g.rng = GameRng::scripted(&[1, 6, 6]);
    let ev = accepted(
        &mut g,
        Command::Move {
            player: 1,
            unit: "eliminators".into(),
            mode: MoveMode::FallBack,
            paths: (0..3)
                .map(|m| ModelPath {
                    model: m,
                    unit: None,
                    path: vec![(10.0 + 1.8 * m as f32, 22.5, 0.0)],
                    facing: None,
                })
                .collect(),
        },
    );
    let tests: Vec<usize> = ev
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, GameEvent::DesperateEscape { .. }))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(tests.len(), 3, "{ev:#?}");
    let moved = ev
        .iter()
        .position(|e| matches!(e, GameEvent::Moved { .. }))
        .expect("the survivors Fall Back");
    assert!(
        tests.iter().all(|&i| i < moved),
        "the tests come before the move: {ev:#?}"
    );
    assert!(ev.iter().any(|e| matches!(
        e,
        GameEvent::DesperateEscape { model, destroyed: true, .. } if model == "eliminators#0"
    )));
    // The destroyed Eliminator never moved; the others did.
    let p0 = pos(&g, 1, "eliminators", 0);
    assert!(
        (p0.x - 10.0).abs() < 1e-3 && (p0.y - 18.0).abs() < 1e-3,
        "the destroyed model stayed where it stood: {p0:?}"
    );
    let p1 = pos(&g, 1, "eliminators", 1);
    assert!((p1.y - 22.5).abs() < 1e-3, "{p1:?}");
}
