//! 11th edition, part 2 (the game), units and their moves, each case under `Eleventh` with its
//! `Tenth` twin, driven through `Game` commands: the Combat Disembark of a unit that cannot fit
//! within 3" of its TRANSPORT, the Emergency Disembark from a destroyed TRANSPORT, a Lone
//! Operative unseen beyond 12", and the Consolidate step's modes (shared/RULES-11e.md,
//! "Transports", "Lone Operative", "Fight phase").

use crate::battle;
use battle::*;

use wartable::game::event::SetUpHow;
use wartable::game::sight::{ModelRef, model_solid};
use wartable::game::{
    Command, FightActivation, Game, GameEvent, Location, Placement, WeaponTarget,
};
use wartable::geometry::measure::model_distance;
use wartable::geometry::{Base, ModelSolid, Vec3};
use wartable::rules::CoreAbility;
use wartable::rules::Ruleset;
use wartable::rules::phase::{FightStep, Phase};
use wartable::rules::rng::GameRng;

/// Centres all round the hull of `transport` (player `player`), `gap` inches from it (base to
/// hull, for a 32 mm base), about `spacing` inches apart along the way round.
fn ring(g: &Game, player: u8, transport: &str, gap: f32, spacing: f32) -> Vec<(f32, f32)> {
    let (a, t) = unit_ref(g, player, transport);
    let hull = model_solid(
        &g.scene,
        ModelRef {
            army: a,
            unit: t,
            model: 0,
        },
    );
    let probe = |x: f32, y: f32| ModelSolid::new(Base::Round(32.0), Vec3::new(x, y, 0.0), 0.0, 1.0);
    let mut points = Vec::new();
    for step in 0..720 {
        let angle = (step as f32 * 0.5).to_radians();
        let (dx, dy) = (angle.cos(), angle.sin());
        let mut t = 0.0;
        while model_distance(
            &probe(hull.centre.x + dx * t, hull.centre.y + dy * t),
            &hull,
        )
        .distance
            < gap
        {
            t += 0.01;
        }
        points.push((hull.centre.x + dx * t, hull.centre.y + dy * t));
    }
    let mut out: Vec<(f32, f32)> = vec![points[0]];
    let mut walked = 0.0;
    for w in points.windows(2) {
        walked += ((w[1].0 - w[0].0).powi(2) + (w[1].1 - w[0].1).powi(2)).sqrt();
        if walked >= spacing {
            out.push(w[1]);
            walked = 0.0;
        }
    }
    let (first, last) = (out[0], *out.last().unwrap());
    if ((first.0 - last.0).powi(2) + (first.1 - last.1).powi(2)).sqrt() < spacing * 0.6 {
        out.pop();
    }
    out
}

/// The Nobz embarked in the Trukk (facing along x at (30, 22)), ringed by the Intercessors
/// and their Captain 0.5" from its hull when `ringed`: player 2's Movement phase.
fn ringed_trukk(ruleset: Ruleset, ringed: bool) -> Game {
    let mut g = game_under(ruleset);
    isolate(&mut g, &[(1, "intercessors"), (2, "trukk"), (2, "nobz")]);
    put(&mut g, 2, "trukk", 0, 30.0, 22.0);
    let (a, trukk) = unit_ref(&g, 2, "trukk");
    g.scene.armies[a].units[trukk].models[0].facing = 0.0;
    let (_, nobz) = unit_ref(&g, 2, "nobz");
    g.units[a][nobz].location = Location::Embarked(trukk);
    advance_to(&mut g, 2, Phase::Movement);
    if ringed {
        let spots = ring(&g, 2, "trukk", 0.5, 2.5);
        assert_eq!(
            spots.len(),
            11,
            "ten Intercessors and their Captain round the hull"
        );
        for (m, &(x, y)) in spots.iter().take(10).enumerate() {
            put(&mut g, 1, "intercessors", m, x, y);
        }
        put(&mut g, 1, "captain", 0, spots[10].0, spots[10].1);
    } else {
        put_line(&mut g, 1, "intercessors", 6.0, 40.0, 1.6);
        put(&mut g, 1, "captain", 0, 6.0, 38.0);
    }
    g
}

/// The Nobz set up in a line 3.3" beyond the Trukk's long side: wholly within 6", not 3".
fn six_inch_line() -> Vec<Placement> {
    (0..5)
        .map(|m| Placement {
            model: m,
            unit: None,
            x: 27.0 + 1.5 * m as f32,
            y: 22.0 + 1.75 + 3.3,
            z: 0.0,
            facing: 0.0,
        })
        .collect()
}

#[test]
fn a_unit_that_cannot_fit_within_three_inches_makes_a_combat_disembark_under_eleventh() {
    for ruleset in Ruleset::ALL {
        let mut g = ringed_trukk(ruleset, true);
        let (a, nobz) = unit_ref(&g, 2, "nobz");
        // Every spot within 3" of the hull is within Engagement Range of the ring.
        let disembark = Command::Disembark {
            player: 2,
            unit: "nobz".into(),
            models: six_inch_line(),
        };
        match ruleset {
            Ruleset::Tenth => {
                let r = rejected(&mut g, disembark);
                assert!(r.reason.contains("wholly within 3"), "{r}");
            }
            Ruleset::Eleventh => {
                let ev = accepted(&mut g, disembark);
                assert!(ev.iter().any(|e| matches!(
                    e,
                    GameEvent::SetUp { unit, how: SetUpHow::CombatDisembark, .. } if unit == "nobz"
                )));
                let dice = ev
                    .iter()
                    .find_map(|e| match e {
                        GameEvent::MortalWoundsRolled { target, dice, .. } if target == "nobz" => {
                            Some(dice.clone())
                        }
                        _ => None,
                    })
                    .expect("the hazard rolls");
                assert_eq!(dice.len(), 5, "a hazard roll per model");
                let s = &g.units[a][nobz];
                assert_eq!(s.location, Location::OnTable);
                assert!(s.battle_shocked && s.no_charge);
                // Set up engaged with the ring, which the Trukk is engaged with.
                assert!(g.engaged(a, nobz));
                // No further move this phase.
                let further = normal_move(&g, 2, "nobz", 0.0, 1.0);
                let r = rejected(&mut g, further);
                assert!(r.reason.contains("already selected"), "{r}");
            }
        }
    }
}

#[test]
fn a_unit_that_fits_within_three_inches_may_not_make_a_combat_disembark() {
    for ruleset in Ruleset::ALL {
        let mut g = ringed_trukk(ruleset, false);
        let r = rejected(
            &mut g,
            Command::Disembark {
                player: 2,
                unit: "nobz".into(),
                models: six_inch_line(),
            },
        );
        assert!(r.reason.contains("wholly within 3"), "{ruleset:?}: {r}");
        assert!(!r.reason.contains("Combat Disembark"), "{ruleset:?}: {r}");
    }
}

#[test]
fn a_destroyed_transports_passengers_make_an_emergency_disembark_with_hazard_rolls_under_eleventh()
{
    for ruleset in Ruleset::ALL {
        let mut g = game_under(ruleset);
        isolate(&mut g, &[(1, "redemptor"), (2, "trukk"), (2, "nobz")]);
        put(&mut g, 1, "redemptor", 0, 20.0, 10.0);
        put(&mut g, 2, "trukk", 0, 20.0, 24.0);
        let (a, trukk) = unit_ref(&g, 2, "trukk");
        let (_, nobz) = unit_ref(&g, 2, "nobz");
        g.units[a][nobz].location = Location::Embarked(trukk);
        g.units[a][trukk].models[0].wounds = 1;
        advance_to(&mut g, 1, Phase::Shooting);
        let (t, ev) = (0..200)
            .find_map(|seed| {
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
                (!t.units[a][trukk].models[0].alive).then_some((t, ev))
            })
            .expect("some seed destroys the Trukk");
        let how = ev
            .iter()
            .find_map(|e| match e {
                GameEvent::SetUp { unit, how, .. } if unit == "nobz" => Some(*how),
                _ => None,
            })
            .expect("the Nobz get out");
        let (dice, fails_up_to) = ev
            .iter()
            .find_map(|e| match e {
                GameEvent::DestroyedTransportRolls {
                    dice, fails_up_to, ..
                } => Some((dice.clone(), *fails_up_to)),
                _ => None,
            })
            .expect("a roll per model");
        assert_eq!(dice.len(), 5);
        let s = &t.units[a][nobz];
        match ruleset {
            Ruleset::Tenth => {
                assert_eq!(how, SetUpHow::DestroyedTransport);
                assert_eq!(fails_up_to, 1);
                assert!(!s.battle_shocked);
            }
            Ruleset::Eleventh => {
                assert_eq!(how, SetUpHow::EmergencyDisembarkation);
                assert_eq!(fails_up_to, 2, "a hazard roll fails on 1-2");
                assert!(s.battle_shocked && s.no_charge);
                // Wholly within 6" of where the Trukk stood.
                let hull = ModelSolid::new(
                    g.scene.armies[a].units[trukk].models[0]
                        .characteristics
                        .base,
                    Vec3::new(20.0, 24.0, 0.0),
                    g.scene.armies[a].units[trukk].models[0].facing,
                    1.0,
                );
                for (m, model) in s.models.iter().enumerate().filter(|(_, m)| m.alive) {
                    let solid = model_solid(
                        &t.scene,
                        ModelRef {
                            army: a,
                            unit: nobz,
                            model: m,
                        },
                    );
                    assert!(model.alive);
                    assert!(wartable::geometry::measure::wholly_within(
                        &solid, &hull, 6.0
                    ));
                }
            }
        }
    }
}

#[test]
fn a_lone_operative_is_not_visible_beyond_twelve_inches_under_eleventh() {
    for ruleset in Ruleset::ALL {
        let mut g = game_under(ruleset);
        isolate(&mut g, &[(1, "eliminators"), (2, "lootas")]);
        let (a, u) = unit_ref(&g, 1, "eliminators");
        std::sync::Arc::make_mut(&mut g.scene.armies[a].units[u].datasheet)
            .core_abilities
            .push(CoreAbility::LoneOperative);
        put_line(&mut g, 1, "eliminators", 10.0, 10.0, 1.5);
        // One Loota 20" away, another 8" away, on the open table.
        put_line(&mut g, 2, "lootas", 40.0, 40.0, 1.5);
        put(&mut g, 2, "lootas", 0, 10.0, 30.0);
        put(&mut g, 2, "lootas", 1, 12.0, 18.0);
        let sight = g.sight();
        let entry = |r: ModelRef| sight.models.iter().position(|m| *m == r).unwrap();
        let (la, lu) = unit_ref(&g, 2, "lootas");
        let target = entry(ModelRef {
            army: a,
            unit: u,
            model: 0,
        });
        let far = entry(ModelRef {
            army: la,
            unit: lu,
            model: 0,
        });
        let near = entry(ModelRef {
            army: la,
            unit: lu,
            model: 1,
        });
        let sampling = wartable::geometry::sight::Sampling::FAST;
        let see = wartable::geometry::sight::SeeThrough::OwnUnit;
        let far_view = sight.index.model_visibility(far, target, see, &sampling);
        assert!(sight.index.model_visible(near, target, see, &sampling));
        match ruleset {
            Ruleset::Tenth => assert!(far_view.visible, "10th: only targeting is limited"),
            Ruleset::Eleventh => {
                assert!(!far_view.visible);
                assert!(matches!(
                    far_view.blocked_by,
                    Some(wartable::geometry::sight::Blocker::LoneOperative { .. })
                ));
            }
        }
    }
}

/// The Eliminators (player 1) and the Nobz engaged, both fought; the game at the moment the
/// Eliminators consolidate (10th: right after their fight; 11th: the Consolidate step).
fn ready_to_consolidate(ruleset: Ruleset) -> Game {
    let mut g = game_under(ruleset);
    isolate(&mut g, &[(1, "eliminators"), (2, "nobz")]);
    put_line(&mut g, 1, "eliminators", 10.0, 18.0, 1.8);
    put_line(&mut g, 2, "nobz", 10.0, 20.0, 1.8);
    advance_to(&mut g, 1, Phase::Fight);
    // Each unit fights with no weapons, so both stay whole.
    let mut guard = 0;
    loop {
        guard += 1;
        assert!(guard < 20, "the Fight phase goes on");
        let Some((step, picker)) = g.fight_step() else {
            panic!("the Fight phase ended");
        };
        let unit = if picker == 1 { "eliminators" } else { "nobz" };
        match step {
            FightStep::PileIn => {
                accepted(
                    &mut g,
                    Command::PileIn {
                        player: picker,
                        unit: unit.into(),
                        paths: vec![],
                    },
                );
            }
            FightStep::Consolidate if picker == 1 => return g,
            _ if ruleset == Ruleset::Tenth
                && picker == 1
                && g.fighting_now()
                    .is_some_and(|f| f.next == FightActivation::Consolidate) =>
            {
                return g;
            }
            _ => {
                if g.fighting_now().is_none() {
                    accepted(
                        &mut g,
                        Command::PileIn {
                            player: picker,
                            unit: unit.into(),
                            paths: vec![],
                        },
                    );
                }
                accepted(
                    &mut g,
                    Command::Fight {
                        player: picker,
                        unit: unit.into(),
                        weapons: vec![],
                    },
                );
                if ruleset == Ruleset::Tenth && picker == 2 {
                    accepted(
                        &mut g,
                        Command::Consolidate {
                            player: 2,
                            unit: "nobz".into(),
                            paths: vec![],
                        },
                    );
                }
            }
        }
    }
}

#[test]
fn consolidation_follows_the_eleventh_modes_engaging_within_three_inches_objective_ending_unengaged()
 {
    for ruleset in Ruleset::ALL {
        let mut g = ready_to_consolidate(ruleset);
        // The Nobz now 3.5" away (base to base), an objective marker in range of the
        // Eliminators, off to the side.
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
        put_line(&mut g, 1, "eliminators", 10.0, 18.0, 1.8);
        put_line(&mut g, 2, "nobz", 10.0, 18.0 + r + nr + 3.5, 1.8);
        let i = 0;
        g.scene.objectives[i].at = wartable::geometry::Point(16.0, 19.5);
        g.scene.objectives[i].z = 0.0;
        let consolidate = |g: &Game, dy: f32| Command::Consolidate {
            player: 1,
            unit: "eliminators".into(),
            paths: shift(g, 1, "eliminators", 0.0, dy),
        };
        // 2.6" towards the Nobz: engaged with them (0.9" apart), closer to the marker.
        let engaging = consolidate(&g, 2.6);
        // 0.5": still 3" from the Nobz, closer to the marker and in its range.
        let short = consolidate(&g, 0.5);
        match ruleset {
            Ruleset::Tenth => {
                // The Nobz are within the move plus Engagement Range: towards them, ending
                // engaged.
                let r = rejected(&mut g.clone(), short);
                assert!(r.reason.contains("must end within Engagement Range"), "{r}");
                accepted(&mut g, engaging);
            }
            Ruleset::Eleventh => {
                // Not within 3": no Engaging mode; the marker in range: the Objective mode,
                // which ends unengaged.
                let r = rejected(&mut g.clone(), engaging);
                assert!(r.reason.contains("unengaged"), "{r}");
                accepted(&mut g.clone(), short.clone());
                // With the marker far away, no mode applies: no move.
                let mut far = g.clone();
                far.scene.objectives[i].at = wartable::geometry::Point(50.0, 40.0);
                let r = rejected(&mut far, short);
                assert!(r.reason.contains("no consolidation mode applies"), "{r}");
            }
        }
    }
}

#[test]
fn a_failed_hazardous_roll_in_a_game_costs_the_unit_a_mortal_wound_under_eleventh() {
    for ruleset in Ruleset::ALL {
        let mut g = game_under(ruleset);
        isolate(&mut g, &[(1, "hellblasters"), (2, "lootas")]);
        put_line(&mut g, 1, "hellblasters", 10.0, 12.0, 1.5);
        put_line(&mut g, 2, "lootas", 8.0, 26.0, 1.3);
        advance_to(&mut g, 1, Phase::Shooting);
        let (a, u) = unit_ref(&g, 1, "hellblasters");
        let mut seen = 0;
        for seed in 0..200 {
            let mut t = g.clone();
            t.rng = GameRng::seeded(seed);
            let plasma =
                WeaponTarget::new("Plasma incinerator", "lootas").with_profile("supercharge");
            let ev = shot(
                &mut t,
                Command::Shoot {
                    player: 1,
                    unit: "hellblasters".into(),
                    weapons: vec![plasma],
                },
            );
            let bearers_lost = ev
                .iter()
                .filter(|e| {
                    matches!(
                        e,
                        GameEvent::HazardousLoss {
                            destroyed: true,
                            ..
                        }
                    )
                })
                .count();
            let unit_mortal_wounds: u32 = ev
                .iter()
                .filter_map(|e| match e {
                    GameEvent::MortalWoundsRolled {
                        target,
                        mortal_wounds,
                        ..
                    } if target == "hellblasters" => Some(*mortal_wounds),
                    _ => None,
                })
                .sum();
            let models = &t.units[a][u].models;
            let wounds_lost: u32 = models
                .iter()
                .map(|m| if m.alive { 2 - u32::from(m.wounds) } else { 2 })
                .sum();
            match ruleset {
                // A failure destroys its bearer (a W2 Hellblaster, not a CHARACTER).
                Ruleset::Tenth => {
                    assert_eq!(unit_mortal_wounds, 0);
                    assert_eq!(wounds_lost as usize, 2 * bearers_lost);
                    seen += usize::from(bearers_lost > 0);
                }
                // A failure (1-2) is 1 mortal wound on the unit: a W2 model survives one.
                Ruleset::Eleventh => {
                    assert_eq!(bearers_lost, 0);
                    assert_eq!(wounds_lost, unit_mortal_wounds);
                    seen += usize::from(unit_mortal_wounds == 1);
                }
            }
        }
        assert!(
            seen > 10,
            "{ruleset:?}: failed hazardous rolls in {seen} games of 200"
        );
    }
}

#[test]
fn heavy_needs_no_more_than_three_inches_moved_under_eleventh() {
    for ruleset in Ruleset::ALL {
        let mut g = game_under(ruleset);
        isolate(&mut g, &[(1, "eliminators"), (2, "lootas")]);
        put_line(&mut g, 1, "eliminators", 10.0, 8.0, 2.0);
        put_line(&mut g, 2, "lootas", 8.0, 30.0, 1.3);
        advance_to(&mut g, 1, Phase::Movement);
        let expected_after = |dy: f32| {
            let mut t = g.clone();
            let c = normal_move(&t, 1, "eliminators", 0.0, dy);
            accepted(&mut t, c);
            advance_to(&mut t, 1, Phase::Shooting);
            t.preview_attacks(
                1,
                "eliminators",
                &[WeaponTarget::new("Bolt sniper rifle", "lootas")],
                false,
            )
            .unwrap()[0]
                .distribution
                .expected_wounds_lost
        };
        let (two, five) = (expected_after(2.0), expected_after(5.0));
        match ruleset {
            Ruleset::Tenth => assert!((two - five).abs() < 1e-9, "{two} {five}"),
            Ruleset::Eleventh => assert!(two > five + 1e-3, "{two} {five}"),
        }
    }
}

/// The open field with player 2's first Deff Dread made an AIRCRAFT that can FLY, deployed;
/// battle round 1, player 1's Command phase.
fn with_aircraft(ruleset: Ruleset) -> Game {
    let mut scene = open_field();
    scene.options.ruleset = ruleset;
    let a = scene.armies.iter().position(|a| a.player == 2).unwrap();
    let u = scene.armies[a]
        .units
        .iter()
        .position(|u| u.id == "deff-dread-1")
        .unwrap();
    let sheet = std::sync::Arc::make_mut(&mut scene.armies[a].units[u].datasheet);
    sheet.keywords.push("AIRCRAFT".into());
    sheet.keywords.push("FLY".into());
    let mut g = deployed_game(scene);
    core_rules_only(&mut g);
    g
}

#[test]
fn aircraft_start_in_reserves_move_only_by_ingress_and_return_at_the_end_of_the_opponents_turn_under_eleventh()
 {
    for ruleset in Ruleset::ALL {
        let mut g = with_aircraft(ruleset);
        let (a, u) = unit_ref(&g, 2, "deff-dread-1");
        if ruleset == Ruleset::Tenth {
            // 10th deploys it like any unit, and it moves.
            assert_eq!(g.units[a][u].location, Location::OnTable);
            advance_to(&mut g, 2, Phase::Movement);
            let c = normal_move(&g, 2, "deff-dread-1", 0.0, 1.0);
            accepted(&mut g, c);
            continue;
        }
        assert!(matches!(g.units[a][u].location, Location::Reserves(_)));
        isolate(
            &mut g,
            &[(1, "intercessors"), (2, "deff-dread-1"), (2, "lootas")],
        );
        put_line(&mut g, 1, "intercessors", 4.0, 4.0, 1.4);
        put_line(&mut g, 2, "lootas", 40.0, 42.0, 1.4);
        // Arrived (set up here by hand) in player 2's Movement phase.
        advance_to(&mut g, 2, Phase::Movement);
        g.units[a][u].location = Location::OnTable;
        put(&mut g, 2, "deff-dread-1", 0, 40.0, 30.0);
        let c = normal_move(&g, 2, "deff-dread-1", 0.0, 1.0);
        let r = rejected(&mut g, c);
        assert!(r.reason.contains("only ingress moves"), "{r}");
        // Not a charge target for units that cannot FLY.
        advance_to(&mut g, 1, Phase::Charge);
        let (pa, intercessors) = unit_ref(&g, 1, "intercessors");
        put_line(&mut g, 1, "intercessors", 34.0, 26.0, 1.4);
        assert!(
            !g.charge_targets(pa, intercessors)
                .iter()
                .any(|t| t.unit == "deff-dread-1")
        );
        // Back to Strategic Reserves at the end of player 1's turn, and not destroyed at the
        // end of battle round 3 as a unit that never arrived is.
        advance_to(&mut g, 2, Phase::Command);
        assert!(matches!(g.units[a][u].location, Location::Reserves(_)));
        let (_, lootas) = unit_ref(&g, 2, "lootas");
        g.units[a][lootas].location =
            Location::Reserves(wartable::game::ReserveKind::StrategicReserves);
        while g.battle_round <= 3 {
            let p = g.active_player;
            g.apply(&Command::EndPhase { player: p }).unwrap();
        }
        assert!(matches!(g.units[a][u].location, Location::Reserves(_)));
        assert_eq!(g.units[a][lootas].location, Location::Destroyed);
    }
}

#[test]
fn a_bodyguard_takes_one_leader_and_one_support_under_eleventh() {
    use wartable::data::resolve::{eleventh_attachments_refused, second_leader_refused};
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenes/two-leaders.ron");
    // A Captain and a Lieutenant lead the Intercessors: 10th allows it (the Lieutenant's
    // rule), 11th refuses two Leaders.
    let mut scene = wartable::data::load_scene_under(&path, Some(Ruleset::Tenth)).unwrap();
    let err = wartable::data::load_scene_under(&path, Some(Ruleset::Eleventh))
        .unwrap_err()
        .to_string();
    assert!(err.contains("one Leader and one Support"), "{err}");
    assert!(err.contains("'captain', 'lieutenant'"), "{err}");
    let army = &mut scene.armies[0];
    let at = |army: &wartable::data::Army, id: &str| army.units.iter().position(|u| u.id == id);
    let (captain, lieutenant) = (
        at(army, "captain").unwrap(),
        at(army, "lieutenant").unwrap(),
    );
    assert_eq!(eleventh_attachments_refused(army).len(), 1);
    // The Lieutenant made a Support: one Leader and one Support join.
    std::sync::Arc::make_mut(&mut army.units[lieutenant].datasheet)
        .core_abilities
        .push(CoreAbility::Support);
    assert!(eleventh_attachments_refused(army).is_empty());
    assert!(
        second_leader_refused(
            &army.units[captain].datasheet,
            &army.units[lieutenant].datasheet
        )
        .is_none()
    );
    // A Support with no Leader is refused.
    army.units[captain].attached_to = None;
    let refused = eleventh_attachments_refused(army);
    assert!(refused[0].contains("no Leader"), "{refused:?}");
}

#[test]
fn smokescreen_at_the_start_of_the_shooting_phase_covers_the_units_behind_under_eleventh() {
    use wartable::rules::stratagem::Stratagem;
    for ruleset in Ruleset::ALL {
        let mut g = game_under(ruleset);
        isolate(
            &mut g,
            &[
                (1, "redemptor"),
                (1, "hellblasters"),
                (2, "lootas"),
                (2, "shoota-boyz"),
            ],
        );
        let (a, u) = unit_ref(&g, 1, "redemptor");
        std::sync::Arc::make_mut(&mut g.scene.armies[a].units[u].datasheet)
            .keywords
            .push("SMOKE".into());
        // The Redemptor stands between the Lootas and the Hellblasters.
        put_line(&mut g, 2, "lootas", 24.0, 10.0, 1.3);
        put_line(&mut g, 2, "shoota-boyz", 24.0, 4.0, 1.3);
        put(&mut g, 1, "redemptor", 0, 30.0, 18.0);
        put_line(&mut g, 1, "hellblasters", 28.0, 26.0, 1.6);
        advance_to(&mut g, 2, Phase::Shooting);
        g.cp = [5, 5];
        let preview = |g: &Game| {
            let p = g
                .preview_attacks(
                    2,
                    "lootas",
                    &[WeaponTarget::new("Deffgun", "hellblasters")],
                    false,
                )
                .unwrap();
            (
                p[0].benefit_of_cover,
                p[0].distribution.expected_wounds_lost,
            )
        };
        let cover = |g: &Game| preview(g).0;
        let (uncovered, before) = preview(&g);
        assert!(!uncovered, "{ruleset:?}: no cover before the Smokescreen");
        let smoke = Command::UseStratagem {
            player: 1,
            stratagem: Stratagem::Smokescreen,
            unit: "redemptor".into(),
            target: None,
            reroll: None,
        };
        match ruleset {
            Ruleset::Tenth => {
                // Only just after an enemy unit selects the SMOKE unit as a target.
                let r = rejected(&mut g, smoke);
                assert!(r.reason.contains("just after"), "{r}");
            }
            Ruleset::Eleventh => {
                // Not once a unit has shot this phase.
                let mut late = g.clone();
                shot(
                    &mut late,
                    Command::Shoot {
                        player: 2,
                        unit: "shoota-boyz".into(),
                        weapons: vec![WeaponTarget::new("Shoota", "redemptor")],
                    },
                );
                let r = rejected(&mut late, smoke.clone());
                assert!(
                    r.reason.contains("start of the opponent's Shooting phase"),
                    "{r}"
                );
                accepted(&mut g, smoke);
                assert!(cover(&g), "the Redemptor's models screen the Hellblasters");
                // The cover worsens the Lootas' BS: fewer wounds expected.
                assert!(preview(&g).1 < before - 1e-6, "{before} {:?}", preview(&g));
            }
        }
    }
}
