//! Rules fidelity through the engine: each test drives `Game` commands on the open-field scene
//! and checks a core rule that a game must get right (which models shoot and fight, with what,
//! what survives). shared/RULES.md: Shooting, Fight, Benefit of Cover, Transports, core
//! abilities.

use crate::battle;

use battle::*;
use wartable::game::sight::ModelRef;
use wartable::game::{Command, Game, GameEvent, Location, ModelPath, Rule, WeaponTarget};
use wartable::geometry::measure::wholly_within;
use wartable::rules::CoreAbility;
use wartable::rules::attack::events::AttackEvent;
use wartable::rules::phase::Phase;
use wartable::rules::rng::GameRng;

fn shoot(player: u8, unit: &str, weapons: Vec<WeaponTarget>) -> Command {
    Command::Shoot {
        player,
        unit: unit.into(),
        weapons,
    }
}

fn fight(player: u8, unit: &str, weapons: Vec<WeaponTarget>) -> Command {
    Command::Fight {
        player,
        unit: unit.into(),
        weapons,
    }
}

fn pile_in(player: u8, unit: &str) -> Command {
    Command::PileIn {
        player,
        unit: unit.into(),
        paths: vec![],
    }
}

/// Alive models of a unit (on the table).
fn alive(g: &Game, player: u8, unit: &str) -> usize {
    let a = g.army_of(player).unwrap();
    let u = g.find_unit(a, unit).unwrap();
    g.units[a][u].models.iter().filter(|m| m.alive).count()
}

fn attack_events(ev: &[GameEvent]) -> Vec<&AttackEvent> {
    ev.iter()
        .filter_map(|e| match e {
            GameEvent::Attack(a) => Some(a),
            _ => None,
        })
        .collect()
}

/// (weapon label, bearers) of every weapon of every Attacked event.
fn attacked(ev: &[GameEvent]) -> Vec<(String, usize)> {
    ev.iter()
        .filter_map(|e| match e {
            GameEvent::Attacked { weapons, .. } => Some(weapons.clone()),
            _ => None,
        })
        .flatten()
        .collect()
}

fn names(unit: &str, models: std::ops::Range<usize>) -> Vec<String> {
    models.map(|m| format!("{unit}#{m}")).collect()
}

/// Hellblasters 10" from the slugga Boyz, player 1's Shooting phase.
pub(crate) fn hellblasters_facing_boyz() -> Game {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "hellblasters"), (2, "boyz-mob")]);
    put_line(&mut g, 1, "hellblasters", 8.0, 10.0, 1.5);
    put_line(&mut g, 2, "boyz-mob", 8.0, 20.0, 1.3);
    put(&mut g, 2, "warboss", 0, 8.0, 21.6);
    advance_to(&mut g, 1, Phase::Shooting);
    g
}

/// Finding 1: a failed HAZARDOUS test destroys one bearer (shared/RULES.md: HAZARDOUS).
#[test]
fn hazardous_failed_test_destroys_one_bearer() {
    let g = hellblasters_facing_boyz();
    for seed in 0..400 {
        let mut t = g.clone();
        t.rng = GameRng::seeded(seed);
        let ev = shot(
            &mut t,
            shoot(
                1,
                "hellblasters",
                vec![
                    WeaponTarget::new("Plasma incinerator", "boyz-mob").with_profile("supercharge"),
                ],
            ),
        );
        let failed = attack_events(&ev)
            .iter()
            .filter(|a| {
                matches!(
                    a,
                    AttackEvent::Hazardous {
                        failure: Some(_),
                        ..
                    }
                )
            })
            .count();
        if failed == 0 {
            continue;
        }
        let losses = ev
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    GameEvent::HazardousLoss {
                        destroyed: true,
                        mortal_wounds: 0,
                        ..
                    }
                )
            })
            .count();
        assert_eq!(losses, failed, "one bearer per failed test");
        assert_eq!(alive(&t, 1, "hellblasters"), 5 - failed);
        return;
    }
    panic!("no seed failed a HAZARDOUS test");
}

/// Finding 1: a VEHICLE bearer suffers 3 mortal wounds instead of being destroyed.
#[test]
fn hazardous_failed_test_costs_a_vehicle_three_mortal_wounds() {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "intercessors"), (2, "deff-dread-2")]);
    put_line(&mut g, 1, "intercessors", 8.0, 10.0, 1.5);
    put(&mut g, 1, "captain", 0, 8.0, 11.6);
    put(&mut g, 2, "deff-dread-2", 0, 12.0, 26.0);
    advance_to(&mut g, 2, Phase::Shooting);
    let (a, u) = unit_ref(&g, 2, "deff-dread-2");
    for seed in 0..400 {
        let mut t = g.clone();
        t.rng = GameRng::seeded(seed);
        let ev = shot(
            &mut t,
            shoot(
                2,
                "deff-dread-2",
                vec![WeaponTarget::new("Kustom mega-blasta", "intercessors")],
            ),
        );
        if !ev
            .iter()
            .any(|e| matches!(e, GameEvent::HazardousLoss { .. }))
        {
            continue;
        }
        assert!(ev.iter().any(|e| matches!(
            e,
            GameEvent::HazardousLoss {
                mortal_wounds: 3,
                destroyed: false,
                ..
            }
        )));
        assert_eq!(t.units[a][u].models[0].wounds, 8 - 3);
        return;
    }
    panic!("no seed failed a HAZARDOUS test");
}

/// Finding 2: a weapon with profiles fires one of them; PISTOL or the other ranged weapons.
#[test]
fn one_profile_per_weapon_and_pistols_or_other_guns() {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "intercessors"), (2, "boyz-mob")]);
    put_line(&mut g, 1, "intercessors", 8.0, 10.0, 1.5);
    put(&mut g, 1, "captain", 0, 8.0, 11.6);
    put_line(&mut g, 2, "boyz-mob", 8.0, 18.0, 1.3);
    put(&mut g, 2, "warboss", 0, 8.0, 19.6);
    advance_to(&mut g, 1, Phase::Shooting);

    // Both profiles of the grenade launcher from the same models: refused.
    let r = rejected(
        &mut g,
        shoot(
            1,
            "intercessors",
            vec![
                WeaponTarget::new("Astartes grenade launcher", "boyz-mob").with_profile("frag"),
                WeaponTarget::new("Astartes grenade launcher - krak", "boyz-mob"),
            ],
        ),
    );
    assert_eq!(r.rule, Rule::ShootingPhase);
    assert!(r.reason.contains("twice"), "{r}");
    // A weapon with profiles needs one chosen.
    let r = rejected(
        &mut g,
        shoot(
            1,
            "intercessors",
            vec![WeaponTarget::new("Astartes grenade launcher", "boyz-mob")],
        ),
    );
    assert!(r.reason.contains("several profiles"), "{r}");
    // Bolt rifles and bolt pistols from the same models: refused.
    let r = rejected(
        &mut g,
        shoot(
            1,
            "intercessors",
            vec![
                WeaponTarget::new("Bolt rifle", "boyz-mob"),
                WeaponTarget::new("Bolt pistol", "boyz-mob"),
            ],
        ),
    );
    assert!(r.reason.contains("Pistols"), "{r}");
    // One model on its pistol, the rest on rifles, grenade launchers on krak: accepted.
    let ev = shot(
        &mut g,
        shoot(
            1,
            "intercessors",
            vec![
                WeaponTarget::new("Bolt rifle", "boyz-mob").by_models(names("intercessors", 0..9)),
                WeaponTarget::new("Bolt pistol", "boyz-mob")
                    .by_models(vec!["intercessors#9".into()]),
                WeaponTarget::new("Astartes grenade launcher", "boyz-mob").with_profile("krak"),
                WeaponTarget::new("Master-crafted bolter", "boyz-mob"),
            ],
        ),
    );
    assert_eq!(
        attacked(&ev),
        vec![
            ("Bolt rifle".to_string(), 9),
            ("Bolt pistol".to_string(), 1),
            ("Astartes grenade launcher - krak".to_string(), 2),
            ("Master-crafted bolter".to_string(), 1),
        ]
    );
}

/// The Deff Dread 1.8" from the Intercessors, both engaged; player 1's Fight phase.
fn dread_in_combat() -> Game {
    let mut g = dread_engaged();
    advance_to(&mut g, 1, Phase::Fight);
    g
}

/// The Deff Dread 1.8" from the Intercessors, both engaged; player 1's Command phase.
fn dread_engaged() -> Game {
    let mut g = deployed_game(open_field());
    isolate(
        &mut g,
        &[(1, "intercessors"), (2, "deff-dread-1"), (2, "boyz-mob")],
    );
    put(&mut g, 2, "deff-dread-1", 0, 40.0, 30.0);
    put(&mut g, 1, "intercessors", 0, 41.85, 30.0);
    for m in 1..10 {
        put(&mut g, 1, "intercessors", m, 41.85 + 1.3 * m as f32, 30.0);
    }
    put(&mut g, 1, "captain", 0, 41.85, 31.4);
    put_line(&mut g, 2, "boyz-mob", 8.0, 36.0, 1.3);
    put(&mut g, 2, "warboss", 0, 8.0, 37.6);
    g
}

/// Finding 3: each model fights with one melee weapon (plus EXTRA ATTACKS weapons).
#[test]
fn each_model_fights_with_one_melee_weapon() {
    let mut g = dread_in_combat();
    accepted(&mut g, pile_in(2, "deff-dread-1"));
    let r = rejected(
        &mut g,
        fight(
            2,
            "deff-dread-1",
            vec![
                WeaponTarget::new("Dread klaw", "intercessors"),
                WeaponTarget::new("Stompy feet", "intercessors"),
            ],
        ),
    );
    assert_eq!(r.rule, Rule::FightPhase);
    assert!(r.reason.contains("one melee weapon"), "{r}");
    let ev = accepted(
        &mut g,
        fight(
            2,
            "deff-dread-1",
            vec![WeaponTarget::new("Dread klaw", "intercessors")],
        ),
    );
    assert_eq!(attacked(&ev), vec![("Dread klaw".to_string(), 1)]);
}

/// Finding 3: an EXTRA ATTACKS weapon is used besides the model's melee weapon.
#[test]
fn extra_attacks_weapons_fight_beside_the_chosen_melee_weapon() {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "hellblasters"), (2, "boyz-mob")]);
    // The Warboss (big choppa and attack squig) in base contact with a Hellblaster.
    put(&mut g, 1, "hellblasters", 0, 30.0, 34.0);
    for m in 1..5 {
        put(&mut g, 1, "hellblasters", m, 30.0 + 1.3 * m as f32, 36.0);
    }
    put(&mut g, 2, "warboss", 0, 30.0, 32.2);
    put_line(&mut g, 2, "boyz-mob", 20.0, 31.0, 1.3);
    advance_to(&mut g, 1, Phase::Fight);
    accepted(&mut g, pile_in(2, "boyz-mob"));
    let ev = accepted(
        &mut g,
        fight(
            2,
            "boyz-mob",
            vec![
                WeaponTarget::new("Big choppa", "hellblasters").by_models(vec!["warboss#0".into()]),
                WeaponTarget::new("Attack squig", "hellblasters"),
            ],
        ),
    );
    assert_eq!(
        attacked(&ev),
        vec![
            ("Big choppa".to_string(), 1),
            ("Attack squig".to_string(), 1)
        ]
    );
}

/// Finding 4: a model in base contact with a friend who is in base contact with the enemy
/// fights (the second rank).
#[test]
fn second_rank_models_fight() {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "hellblasters"), (2, "boyz-mob")]);
    put_line(&mut g, 1, "hellblasters", 30.0, 30.0, 1.3);
    // Boy 1 touches the Hellblaster (32 mm bases: 1.26" between centres); boy 2 touches boy
    // 1 from behind, 1.27" from the Hellblaster's base: outside Engagement Range.
    put(&mut g, 2, "boyz-mob", 1, 30.0, 31.27);
    put(&mut g, 2, "boyz-mob", 2, 30.0, 32.54);
    let spare: Vec<usize> = (0..20).filter(|m| *m != 1 && *m != 2).collect();
    for (i, m) in spare.iter().enumerate() {
        put(&mut g, 2, "boyz-mob", *m, 10.0 + 1.3 * i as f32, 40.0);
    }
    put(&mut g, 2, "warboss", 0, 10.0, 41.6);
    advance_to(&mut g, 1, Phase::Fight);
    accepted(&mut g, pile_in(2, "boyz-mob"));
    let ev = accepted(
        &mut g,
        fight(
            2,
            "boyz-mob",
            vec![WeaponTarget::new("Choppa", "hellblasters")],
        ),
    );
    assert_eq!(attacked(&ev), vec![("Choppa".to_string(), 2)], "{ev:#?}");
}

/// Finding 5: passengers of a destroyed TRANSPORT disembark around it and roll for losses.
#[test]
fn passengers_disembark_when_their_transport_is_destroyed() {
    let mut g = deployed_game(open_field());
    isolate(
        &mut g,
        &[(1, "redemptor"), (2, "trukk"), (2, "shoota-boyz")],
    );
    put(&mut g, 1, "redemptor", 0, 20.0, 10.0);
    put(&mut g, 2, "trukk", 0, 20.0, 24.0);
    let (a, trukk) = unit_ref(&g, 2, "trukk");
    let (_, boyz) = unit_ref(&g, 2, "shoota-boyz");
    g.units[a][boyz].location = Location::Embarked(trukk);
    g.units[a][trukk].models[0].wounds = 1;
    advance_to(&mut g, 1, Phase::Shooting);
    let hull = g.solid(ModelRef {
        army: a,
        unit: trukk,
        model: 0,
    });
    for seed in 0..200 {
        let mut t = g.clone();
        t.rng = GameRng::seeded(seed);
        let ev = shot(
            &mut t,
            shoot(
                1,
                "redemptor",
                vec![WeaponTarget::new("Heavy onslaught gatling cannon", "trukk")],
            ),
        );
        if alive(&t, 2, "trukk") == 1 {
            continue;
        }
        assert_eq!(t.units[a][boyz].location, Location::OnTable);
        let rolls = ev
            .iter()
            .find_map(|e| match e {
                GameEvent::DestroyedTransportRolls {
                    dice,
                    fails_up_to,
                    models_lost,
                    ..
                } => Some((dice.clone(), *fails_up_to, *models_lost)),
                _ => None,
            })
            .expect("a D6 per disembarked model");
        assert_eq!(rolls.0.len(), 10);
        let lost = rolls.0.iter().filter(|d| **d <= rolls.1).count() as u32;
        assert_eq!(rolls.2, lost);
        assert_eq!(alive(&t, 2, "shoota-boyz"), 10 - lost as usize);
        for r in t.live_models(a, boyz) {
            assert!(
                wholly_within(&t.solid(r), &hull, 6.0 + 1e-3),
                "{} not around the Trukk",
                t.model_name(r)
            );
        }
        return;
    }
    panic!("the Trukk survived every seed");
}

/// Finding 6: a unit that can stay in combat may not consolidate out of it towards a marker.
#[test]
fn consolidation_cannot_step_out_of_combat_towards_an_objective() {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "hellblasters"), (2, "nobz")]);
    // A Hellblaster touching a Nob east of it; the north-west marker (14, 34) lies west.
    put_line(&mut g, 1, "hellblasters", 20.0, 34.0, 1.3);
    put(&mut g, 2, "nobz", 0, 18.7, 34.0);
    for m in 1..5 {
        put(&mut g, 2, "nobz", m, 18.7, 34.0 - 1.3 * m as f32);
    }
    advance_to(&mut g, 1, Phase::Fight);
    accepted(&mut g, pile_in(2, "nobz"));
    accepted(
        &mut g,
        fight(
            2,
            "nobz",
            vec![WeaponTarget::new("Power klaw", "hellblasters")],
        ),
    );
    // nobz#0 touches a Hellblaster and so does not move (Core Rules: Consolidate).
    let away: Vec<ModelPath> = (1..5)
        .filter(|m| alive(&g, 2, "nobz") > 0 && *m < 5)
        .map(|m| {
            let p = pos(&g, 2, "nobz", m);
            ModelPath {
                model: m,
                unit: None,
                path: vec![(p.x - 1.0, p.y, 0.0)],
                facing: None,
            }
        })
        .collect();
    let r = rejected(
        &mut g,
        Command::Consolidate {
            player: 2,
            unit: "nobz".into(),
            paths: away,
        },
    );
    assert_eq!(r.rule, Rule::Consolidate);
    assert!(
        r.reason.contains("closer to its closest enemy model"),
        "{r}"
    );
}

/// Finding 7: the Benefit of Cover is per model; attacks go to the covered models first.
#[test]
fn benefit_of_cover_is_decided_per_model() {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "intercessors"), (2, "shoota-boyz")]);
    put_line(&mut g, 1, "intercessors", 10.0, 20.0, 1.0);
    put(&mut g, 1, "captain", 0, 10.0, 18.5);
    // Shoota Boyz 0-4 wholly within the ruin (x 27-30, y 18-26), 5-9 in the open west of it.
    for m in 0..5 {
        put(&mut g, 2, "shoota-boyz", m, 28.5, 18.8 + 1.4 * m as f32);
    }
    for m in 5..10 {
        put(
            &mut g,
            2,
            "shoota-boyz",
            m,
            25.5,
            18.8 + 1.4 * (m - 5) as f32,
        );
    }
    advance_to(&mut g, 1, Phase::Shooting);
    let ev = shot(
        &mut g,
        shoot(
            1,
            "intercessors",
            vec![WeaponTarget::new("Bolt rifle", "shoota-boyz")],
        ),
    );
    let mut allocated_to = None;
    let mut saw_covered = false;
    let mut saw_open = false;
    for a in attack_events(&ev) {
        match a {
            AttackEvent::Allocated { model, .. } => allocated_to = Some(*model),
            AttackEvent::SavingThrow { modifier, .. } => {
                let m = allocated_to.expect("a save follows an allocation");
                if m < 5 {
                    // Sv 5+ against AP -1 with cover: no modifier.
                    assert_eq!(*modifier, 0, "covered model {m}");
                    saw_covered = true;
                } else {
                    assert_eq!(*modifier, -1, "open model {m}");
                    assert!(
                        !(0..5).any(|c| g.units[1][2].models[c].alive) || saw_open,
                        "covered models take the attacks first"
                    );
                    saw_open = true;
                }
            }
            _ => {}
        }
    }
    assert!(saw_covered, "{ev:#?}");
}

/// Finding 8: a unit not selected to move counts as having Remained Stationary (HEAVY).
#[test]
fn a_unit_not_moved_counts_as_remained_stationary() {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "intercessors"), (2, "lootas")]);
    put_line(&mut g, 1, "intercessors", 8.0, 10.0, 1.5);
    put(&mut g, 1, "captain", 0, 8.0, 11.6);
    put_line(&mut g, 2, "lootas", 8.0, 30.0, 1.3);
    advance_to(&mut g, 2, Phase::Shooting);
    let ev = shot(
        &mut g,
        shoot(
            2,
            "lootas",
            vec![WeaponTarget::new("Deffgun", "intercessors")],
        ),
    );
    assert!(
        attack_events(&ev).iter().any(|a| matches!(
            a,
            AttackEvent::Weapon { notes, .. } if notes.iter().any(|n| n.starts_with("HEAVY"))
        )),
        "{ev:#?}"
    );
}

/// Finding 9 (Deadly Demise): a destroyed model with Deadly Demise rolls a D6; on a 6 every
/// unit within 6" suffers the mortal wounds, and units farther away do not.
#[test]
fn deadly_demise_hits_every_unit_within_six_inches_on_a_six() {
    let mut g = deployed_game(open_field());
    isolate(
        &mut g,
        &[
            (1, "redemptor"),
            (1, "hellblasters"),
            (2, "deff-dread-1"),
            (2, "nobz"),
        ],
    );
    put(&mut g, 1, "redemptor", 0, 20.0, 10.0);
    put(&mut g, 2, "deff-dread-1", 0, 20.0, 24.0);
    // Hellblasters 3" from the Dread; Nobz 12" away.
    put_line(&mut g, 1, "hellblasters", 23.0, 27.0, 1.3);
    put_line(&mut g, 2, "nobz", 30.0, 34.0, 1.3);
    let (a, dread) = unit_ref(&g, 2, "deff-dread-1");
    g.units[a][dread].models[0].wounds = 1;
    advance_to(&mut g, 1, Phase::Shooting);
    for seed in 0..600 {
        let mut t = g.clone();
        t.rng = GameRng::seeded(seed);
        let ev = shot(
            &mut t,
            shoot(
                1,
                "redemptor",
                vec![WeaponTarget::new(
                    "Heavy onslaught gatling cannon",
                    "deff-dread-1",
                )],
            ),
        );
        let Some(triggered) = ev.iter().find_map(|e| match e {
            GameEvent::DeadlyDemise { triggered, .. } => Some(*triggered),
            _ => None,
        }) else {
            continue;
        };
        let hit: Vec<&str> = ev
            .iter()
            .filter_map(|e| match e {
                GameEvent::MortalWoundsRolled { target, .. } => Some(target.as_str()),
                _ => None,
            })
            .collect();
        if !triggered {
            assert!(hit.is_empty());
            continue;
        }
        assert_eq!(hit, vec!["hellblasters"], "only units within 6\"");
        return;
    }
    panic!("Deadly Demise never triggered");
}

/// Finding 9 (Infiltrators): set up outside the zone, more than 9" from the enemy zone and
/// models; a unit without it may not; nobody sets up within Engagement Range.
#[test]
fn infiltrators_set_up_more_than_nine_inches_from_the_enemy() {
    let (mut g, _) = Game::start(open_field(), 1);
    let placements = |n: usize, x: f32, y: f32| -> Vec<wartable::game::Placement> {
        (0..n)
            .map(|m| wartable::game::Placement {
                model: m,
                unit: None,
                x: x + 2.0 * m as f32,
                y,
                z: 0.0,
                facing: 0.0,
            })
            .collect()
    };
    // Deploy in turn until it is player 1's go, then place the Eliminators mid-table.
    while g.active_player != 1 {
        let a = g.army_of(2).unwrap();
        let u = g.next_to_deploy(2).unwrap();
        let id = g.unit_id(a, u).to_string();
        accepted(
            &mut g,
            Command::Deploy {
                player: 2,
                unit: id,
                models: vec![],
                transport: None,
            },
        );
    }
    let deploy = |unit: &str, x, y| Command::Deploy {
        player: 1,
        unit: unit.into(),
        models: placements(if unit == "eliminators" { 3 } else { 5 }, x, y),
        transport: None,
    };
    // 6" from the enemy (north-east) deployment zone: refused, naming the rule.
    let r = rejected(&mut g, deploy("eliminators", 40.0, 16.0));
    assert_eq!(r.rule, Rule::Infiltrators, "{r}");
    // A unit without Infiltrators may not leave its own zone.
    let r = rejected(&mut g, deploy("hellblasters", 44.0, 6.0));
    assert_eq!(r.rule, Rule::Deployment, "{r}");
    // The south-east, 16" from the enemy zone and its models: accepted.
    accepted(&mut g, deploy("eliminators", 44.0, 6.0));
    let (a, u) = unit_ref(&g, 1, "eliminators");
    assert_eq!(g.units[a][u].location, Location::OnTable);
}

fn use_stratagem(
    player: u8,
    stratagem: wartable::rules::stratagem::Stratagem,
    unit: &str,
    target: Option<&str>,
) -> Command {
    Command::UseStratagem {
        player,
        stratagem,
        unit: unit.into(),
        target: target.map(Into::into),
        reroll: None,
    }
}

fn weapon_notes(ev: &[GameEvent]) -> Vec<(String, u32, Vec<String>)> {
    attack_events(ev)
        .into_iter()
        .filter_map(|a| match a {
            AttackEvent::Weapon {
                weapon,
                bearers,
                notes,
            } => Some((weapon.clone(), *bearers, notes.clone())),
            _ => None,
        })
        .collect()
}

/// Edge case: Big Guns Never Tire also takes 1 from ranged attacks made against a VEHICLE
/// that is within Engagement Range of the shooter's army.
#[test]
fn big_guns_never_tire_applies_to_attacks_against_an_engaged_vehicle() {
    let mut g = deployed_game(open_field());
    isolate(
        &mut g,
        &[
            (1, "intercessors"),
            (1, "hellblasters"),
            (2, "deff-dread-1"),
        ],
    );
    put(&mut g, 2, "deff-dread-1", 0, 40.0, 30.0);
    for m in 0..10 {
        put(&mut g, 1, "intercessors", m, 41.85 + 1.3 * m as f32, 30.0);
    }
    put(&mut g, 1, "captain", 0, 41.85, 31.4);
    put_line(&mut g, 1, "hellblasters", 30.0, 14.0, 1.5);
    advance_to(&mut g, 1, Phase::Shooting);
    let ev = shot(
        &mut g,
        shoot(
            1,
            "hellblasters",
            vec![WeaponTarget::new("Plasma incinerator", "deff-dread-1").with_profile("standard")],
        ),
    );
    let notes = weapon_notes(&ev);
    assert!(
        notes
            .iter()
            .all(|(_, _, n)| n.iter().any(|x| x.starts_with("Big Guns Never Tire"))),
        "{notes:?}"
    );
}

/// The Eliminators west of the slugga Boyz (a 4-wide block west of the test ruin), the Warboss
/// at (`x`, `y`); player 1's Command phase.
fn eliminators_facing_boyz(x: f32, y: f32) -> Game {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "eliminators"), (2, "boyz-mob")]);
    put_line(&mut g, 1, "eliminators", 10.0, 21.0, 2.0);
    for m in 0..20 {
        let (col, row) = ((m % 4) as f32, (m / 4) as f32);
        put(&mut g, 2, "boyz-mob", m, 22.0 + 1.3 * col, 16.0 + 1.3 * row);
    }
    put(&mut g, 2, "warboss", 0, x, y);
    g
}

/// Edge case: PRECISION picks out a CHARACTER only when the attackers can see it.
#[test]
fn precision_needs_a_visible_character() {
    // The Boyz in the open west of the ruin; the Warboss hidden behind its wall (x = 30).
    let mut g = eliminators_facing_boyz(31.5, 22.0);
    advance_to(&mut g, 1, Phase::Shooting);
    let sniper = || {
        shoot(
            1,
            "eliminators",
            vec![WeaponTarget::new("Bolt sniper rifle", "boyz-mob")],
        )
    };
    let hidden = shot(&mut g.clone(), sniper());
    assert!(
        weapon_notes(&hidden)
            .iter()
            .any(|(_, _, n)| n.iter().any(|x| x.starts_with("PRECISION: no CHARACTER"))),
        "{hidden:#?}"
    );
    // In sight: no such note.
    put(&mut g, 2, "warboss", 0, 22.0, 24.0);
    let seen = shot(&mut g, sniper());
    assert!(
        !weapon_notes(&seen)
            .iter()
            .any(|(_, _, n)| n.iter().any(|x| x.starts_with("PRECISION: no CHARACTER")))
    );
}

/// Edge case: Insane Bravery is once per battle.
#[test]
fn insane_bravery_is_once_per_battle() {
    use wartable::rules::stratagem::Stratagem;
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "intercessors")]);
    put_line(&mut g, 1, "intercessors", 8.0, 10.0, 1.5);
    // Beside the two Intercessors left, so the unit stays in Unit Coherency.
    put(&mut g, 1, "captain", 0, 20.0, 11.6);
    let (a, u) = unit_ref(&g, 1, "intercessors");
    for m in 0..8 {
        g.units[a][u].models[m].alive = false;
    }
    g.cp = [5, 5];
    accepted(
        &mut g,
        use_stratagem(1, Stratagem::InsaneBravery, "intercessors", None),
    );
    // The Battle-shock test fails (2 on 2D6), so Insane Bravery is used on it.
    g.rng = GameRng::scripted(&[1, 1]);
    advance_to(&mut g, 2, Phase::Command);
    advance_to(&mut g, 1, Phase::Command);
    let r = rejected(
        &mut g,
        use_stratagem(1, Stratagem::InsaneBravery, "intercessors", None),
    );
    assert!(r.reason.contains("once per battle"), "{r}");
}

/// Edge cases: Counter-offensive only just after an enemy unit has fought; Epic Challenge only
/// within Engagement Range of an enemy Attached unit.
#[test]
fn counter_offensive_follows_an_enemy_fight_and_epic_challenge_needs_an_attached_enemy() {
    use wartable::rules::stratagem::Stratagem;
    let mut g = dread_in_combat();
    g.cp = [5, 5];
    // Player 2 selects first; before any unit has fought, player 1 cannot Counter-offensive.
    let r = rejected(
        &mut g,
        use_stratagem(1, Stratagem::CounterOffensive, "intercessors", None),
    );
    assert!(r.reason.contains("after an enemy unit has fought"), "{r}");
    // The Captain's unit faces the Dread, not an Attached unit: no Epic Challenge.
    let r = rejected(
        &mut g,
        use_stratagem(1, Stratagem::EpicChallenge, "captain", None),
    );
    assert!(r.reason.contains("Attached unit"), "{r}");
    accepted(&mut g, pile_in(2, "deff-dread-1"));
    accepted(
        &mut g,
        fight(
            2,
            "deff-dread-1",
            vec![WeaponTarget::new("Dread klaw", "intercessors")],
        ),
    );
    accepted(
        &mut g,
        Command::Consolidate {
            player: 2,
            unit: "deff-dread-1".into(),
            paths: vec![],
        },
    );
    // Player 1 selects next anyway, so Counter-offensive is still refused: it only lets a
    // unit fight out of turn, when the opponent would select again.
    assert_eq!(g.next_to_fight().map(|(p, _)| p), Some(1));
    let r = rejected(
        &mut g,
        use_stratagem(1, Stratagem::CounterOffensive, "intercessors", None),
    );
    assert!(r.reason.contains("opponent would select next"), "{r}");
}

/// Edge case: no model may be set up within Engagement Range of an enemy model.
#[test]
fn no_unit_is_set_up_within_engagement_range() {
    let (mut g, _) = Game::start(open_field(), 1);
    let deployer = g.active_player;
    let other = 3 - deployer;
    let a = g.army_of(deployer).unwrap();
    let u = g.unit_roots(a)[0];
    let id = g.unit_id(a, u).to_string();
    // An enemy model standing (by scenario) right beside the unit's scene position, past its
    // model furthest along +x.
    let at = g.scene.armies[a].units[u]
        .models
        .iter()
        .map(|m| m.position)
        .max_by(|p, q| p.x.total_cmp(&q.x))
        .unwrap();
    let oa = g.army_of(other).unwrap();
    let ou = g.unit_roots(oa)[0];
    let oid = g.unit_id(oa, ou).to_string();
    put(&mut g, other, &oid, 0, at.x + 1.9, at.y);
    g.units[oa][ou].location = Location::OnTable;
    for m in 1..g.units[oa][ou].models.len() {
        g.units[oa][ou].models[m].alive = false;
    }
    let r = rejected(
        &mut g,
        Command::Deploy {
            player: deployer,
            unit: id,
            models: vec![],
            transport: None,
        },
    );
    assert_eq!(r.rule, Rule::EngagementRange, "{r}");
}

/// Edge case: the roll-off for the first turn comes after deployment.
#[test]
fn the_first_turn_is_rolled_off_after_deployment() {
    let (mut g, events) = Game::start(open_field(), 5);
    assert!(matches!(events[0], GameEvent::DeploymentRollOff { .. }));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, GameEvent::RollOff { .. }))
    );
    let mut last = Vec::new();
    while g.stage != wartable::rules::phase::Stage::Battle {
        let p = g.active_player;
        let a = g.army_of(p).unwrap();
        let u = g.next_to_deploy(p).unwrap();
        let id = g.unit_id(a, u).to_string();
        last = accepted(
            &mut g,
            Command::Deploy {
                player: p,
                unit: id,
                models: vec![],
                transport: None,
            },
        );
    }
    let first = last
        .iter()
        .find_map(|e| match e {
            GameEvent::RollOff { first_turn, .. } => Some(*first_turn),
            _ => None,
        })
        .expect("the roll-off follows the last unit deployed");
    assert_eq!(g.first_player, first);
    assert_eq!(g.active_player, first);
}

/// Edge case: a unit disembarks after its TRANSPORT Remained Stationary, or after its Normal
/// move (then it counts as having moved and cannot charge); not after an Advance.
#[test]
fn disembarking_after_the_transport_stays_or_makes_a_normal_move() {
    use wartable::rules::movement::MoveMode;
    let setup = || {
        let mut g = deployed_game(open_field());
        isolate(
            &mut g,
            &[(1, "redemptor"), (2, "trukk"), (2, "shoota-boyz")],
        );
        put(&mut g, 1, "redemptor", 0, 10.0, 6.0);
        put(&mut g, 2, "trukk", 0, 40.0, 36.0);
        let (a, trukk) = unit_ref(&g, 2, "trukk");
        let (_, boyz) = unit_ref(&g, 2, "shoota-boyz");
        g.units[a][boyz].location = Location::Embarked(trukk);
        advance_to(&mut g, 2, Phase::Movement);
        g
    };
    let out = |g: &Game, dx: f32| -> Vec<wartable::game::Placement> {
        let t = pos(g, 2, "trukk", 0);
        (0..10)
            .map(|m| wartable::game::Placement {
                model: m,
                unit: None,
                x: t.x - 3.0 + 1.3 * (m % 5) as f32 + dx,
                y: t.y - 2.5 - 1.3 * (m / 5) as f32,
                z: 0.0,
                facing: 0.0,
            })
            .collect()
    };
    let disembark = |g: &Game| Command::Disembark {
        player: 2,
        unit: "shoota-boyz".into(),
        models: out(g, 0.0),
    };
    // After Remaining Stationary.
    let mut g = setup();
    accepted(
        &mut g,
        Command::RemainStationary {
            player: 2,
            unit: "trukk".into(),
        },
    );
    let c = disembark(&g);
    accepted(&mut g, c);
    // After a Normal move: it may not charge this turn.
    let mut g = setup();
    let paths = shift(&g, 2, "trukk", 0.0, -4.0);
    accepted(
        &mut g,
        Command::Move {
            player: 2,
            unit: "trukk".into(),
            mode: MoveMode::Normal,
            paths,
        },
    );
    let c = disembark(&g);
    accepted(&mut g, c);
    let (a, boyz) = unit_ref(&g, 2, "shoota-boyz");
    assert!(g.units[a][boyz].moved.is_some());
    put_line(&mut g, 1, "redemptor", 40.0, 24.0, 1.0);
    advance_to(&mut g, 2, Phase::Charge);
    let r = rejected(
        &mut g,
        Command::DeclareCharge {
            player: 2,
            unit: "shoota-boyz".into(),
            targets: vec!["redemptor".into()],
        },
    );
    assert!(r.reason.contains("disembarked"), "{r}");
    // After an Advance: refused.
    let mut g = setup();
    let paths = shift(&g, 2, "trukk", 0.0, -4.0);
    accepted(
        &mut g,
        Command::Move {
            player: 2,
            unit: "trukk".into(),
            mode: MoveMode::Advance,
            paths,
        },
    );
    let c = disembark(&g);
    let r = rejected(&mut g, c);
    assert!(r.reason.contains("Advance"), "{r}");
}

/// Edge case: ONE SHOT is once per battle for each weapon of each model, not per unit.
#[test]
fn one_shot_is_tracked_per_weapon_and_model() {
    use wartable::rules::WeaponAbility;
    let mut g = hellblasters_facing_boyz();
    let (a, u) = unit_ref(&g, 1, "hellblasters");
    for w in &mut g.scene.armies[a].units[u].datasheet_mut().ranged_weapons {
        if w.name == "Plasma incinerator" {
            w.abilities.push(WeaponAbility::OneShot);
        }
    }
    let ev = shot(
        &mut g,
        shoot(
            1,
            "hellblasters",
            vec![
                WeaponTarget::new("Plasma incinerator", "boyz-mob")
                    .with_profile("standard")
                    .by_models(names("hellblasters", 0..2)),
            ],
        ),
    );
    assert_eq!(
        attacked(&ev),
        vec![("Plasma incinerator - standard".to_string(), 2)]
    );
    advance_to(&mut g, 2, Phase::Shooting);
    advance_to(&mut g, 1, Phase::Shooting);
    // The two that fired may not fire it again; the other three may.
    let r = rejected(
        &mut g,
        shoot(
            1,
            "hellblasters",
            vec![WeaponTarget::new("Plasma incinerator", "boyz-mob").with_profile("standard")],
        ),
    );
    assert!(r.reason.contains("ONE SHOT"), "{r}");
    shot(
        &mut g,
        shoot(
            1,
            "hellblasters",
            vec![
                WeaponTarget::new("Plasma incinerator", "boyz-mob")
                    .with_profile("standard")
                    .by_models(names("hellblasters", 2..5)),
            ],
        ),
    );
}

/// Finding 9 (Lone Operative): shot only from within 12" unless part of an Attached unit.
#[test]
fn lone_operative_is_shot_only_from_within_twelve_inches() {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "hellblasters"), (2, "nobz")]);
    put_line(&mut g, 1, "hellblasters", 8.0, 10.0, 1.5);
    advance_to(&mut g, 1, Phase::Shooting);
    let (a, u) = unit_ref(&g, 2, "nobz");
    g.scene.armies[a].units[u]
        .datasheet_mut()
        .core_abilities
        .push(CoreAbility::LoneOperative);
    put_line(&mut g, 2, "nobz", 8.0, 30.0, 1.3);
    let gun = || {
        shoot(
            1,
            "hellblasters",
            vec![WeaponTarget::new("Plasma incinerator", "nobz").with_profile("standard")],
        )
    };
    let r = rejected(&mut g, gun());
    assert!(r.reason.contains("Lone Operative"), "{r}");
    put_line(&mut g, 2, "nobz", 8.0, 20.0, 1.3);
    accepted(&mut g, gun());
}

/// Finding 9 (Fights First): a unit with the ability fights in the Fights First step.
#[test]
fn fights_first_units_are_selected_in_the_first_step() {
    let mut g = dread_engaged();
    // Player 2 would select first among the remaining combats; with Fights First the
    // Intercessors (player 1) are selected before the Dread.
    let (a, u) = unit_ref(&g, 1, "intercessors");
    g.scene.armies[a].units[u]
        .datasheet_mut()
        .core_abilities
        .push(CoreAbility::FightsFirst);
    let (c, cu) = unit_ref(&g, 1, "captain");
    g.scene.armies[c].units[cu]
        .datasheet_mut()
        .core_abilities
        .push(CoreAbility::FightsFirst);
    advance_to(&mut g, 1, Phase::Fight);
    assert_eq!(
        g.next_to_fight(),
        Some((1, vec!["intercessors".to_string()]))
    );
}

/// Edge case: Plunging Fire improves the AP of the bearers high in a ruin only.
#[test]
fn plunging_fire_is_decided_per_attacking_model() {
    let mut g = hellblasters_facing_boyz();
    // A 6" floor in the test ruin; one Hellblaster on it, the others on the ground.
    for f in &mut std::sync::Arc::make_mut(&mut g.scene.layout).pieces[0].floors {
        f.height = 6.0;
    }
    put(&mut g, 1, "hellblasters", 0, 28.5, 25.0);
    let (a, u) = unit_ref(&g, 1, "hellblasters");
    g.scene.armies[a].units[u].models[0].position.z = 6.0;
    for m in 1..5 {
        put(&mut g, 1, "hellblasters", m, 20.0 + 1.3 * m as f32, 28.0);
    }
    put_line(&mut g, 2, "boyz-mob", 14.0, 36.0, 1.3);
    put(&mut g, 2, "warboss", 0, 14.0, 37.6);
    let ev = shot(
        &mut g,
        shoot(
            1,
            "hellblasters",
            vec![WeaponTarget::new("Plasma incinerator", "boyz-mob").with_profile("standard")],
        ),
    );
    let groups = weapon_notes(&ev);
    let plunging: Vec<u32> = groups
        .iter()
        .map(|(_, b, n)| {
            if n.iter().any(|x| x.starts_with("Plunging Fire")) {
                *b
            } else {
                0
            }
        })
        .collect();
    assert_eq!(plunging.iter().sum::<u32>(), 1, "{groups:?}");
    assert_eq!(
        groups.iter().map(|(_, b, _)| b).sum::<u32>(),
        5,
        "{groups:?}"
    );
}

/// Rules Commentary worked case (Scouts with two values): an Attached unit whose models have
/// Scouts 6" and Scouts 9" makes a Scout move of up to 6"; without Scouts on every model it
/// makes none.
#[test]
fn scouts_example_an_attached_unit_moves_the_shortest_distance() {
    let mut scene = open_field();
    for u in &mut scene.armies[0].units {
        match u.id.as_str() {
            "assault-intercessors" => u
                .datasheet_mut()
                .core_abilities
                .push(CoreAbility::Scouts(9.0)),
            "lieutenant" => u
                .datasheet_mut()
                .core_abilities
                .push(CoreAbility::Scouts(6.0)),
            _ => {}
        }
    }
    let (mut g, _) = Game::start(scene, 2);
    deploy_all(&mut g);
    assert_eq!(g.stage, wartable::rules::phase::Stage::Scouts);
    if g.active_player == 2 {
        accepted(&mut g, Command::EndPhase { player: 2 });
    }
    let scout = |g: &Game, dx: f32, dy: f32| Command::Move {
        player: 1,
        unit: "assault-intercessors".into(),
        mode: wartable::rules::movement::MoveMode::Normal,
        paths: shift(g, 1, "assault-intercessors", dx, dy),
    };
    // 6.5" is more than the Lieutenant's Scouts 6".
    let dirs = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)];
    let mut moved = false;
    for (x, y) in dirs {
        let c = scout(&g, 6.5 * x, 6.5 * y);
        if let Err(r) = g.check(&c)
            && r.reason.contains("more than the 6.00")
        {
            let c = scout(&g, 6.0 * x, 6.0 * y);
            if g.check(&c).is_ok() {
                let mut t = g.clone();
                accepted(&mut t, c);
                moved = true;
                break;
            }
        }
    }
    assert!(
        moved,
        "a 6\" Scout move is accepted and a 6.5\" one refused"
    );
    // Without Scouts on the Lieutenant, the unit makes no Scout move.
    let (a, lt) = unit_ref(&g, 1, "lieutenant");
    g.scene.armies[a].units[lt]
        .datasheet_mut()
        .core_abilities
        .clear();
    let c = scout(&g, 1.0, 0.0);
    let r = rejected(&mut g, c);
    assert_eq!(r.rule, Rule::Scouts, "{r}");
}

/// Edge case: FLY models move over enemy models in a Normal move, but not in a charge.
#[test]
fn fly_crosses_enemies_in_normal_moves_only() {
    use wartable::rules::movement::MoveMode;
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "hellblasters"), (2, "nobz")]);
    // The Nobz in a wall across the Hellblasters' way north.
    put_line(&mut g, 1, "hellblasters", 20.0, 10.0, 1.3);
    put_line(&mut g, 2, "nobz", 17.0, 12.8, 1.3);
    advance_to(&mut g, 1, Phase::Movement);
    let over = |g: &Game| Command::Move {
        player: 1,
        unit: "hellblasters".into(),
        mode: MoveMode::Normal,
        paths: (0..5)
            .map(|m| {
                let p = pos(g, 1, "hellblasters", m);
                ModelPath {
                    model: m,
                    unit: None,
                    path: vec![(p.x, p.y + 6.0, 0.0)],
                    facing: None,
                }
            })
            .collect(),
    };
    let c = over(&g);
    let r = rejected(&mut g, c);
    assert!(
        r.rule == Rule::EngagementRange || r.reason.contains("through enemy model"),
        "{r}"
    );
    let (a, u) = unit_ref(&g, 1, "hellblasters");
    g.scene.armies[a].units[u]
        .datasheet_mut()
        .keywords
        .push("FLY".into());
    let c = over(&g);
    accepted(&mut g, c);
}

/// Edge case: a destroyed Leader no longer lends its keywords to the unit it led.
#[test]
fn a_destroyed_leader_leaves_its_unit() {
    let mut g = eliminators_facing_boyz(20.0, 24.0);
    let (a, boss) = unit_ref(&g, 2, "warboss");
    let (_, boyz) = unit_ref(&g, 2, "boyz-mob");
    g.units[a][boss].models[0].wounds = 1;
    advance_to(&mut g, 1, Phase::Shooting);
    assert!(g.has_keyword(a, boyz, "CHARACTER"));
    for seed in 0..300 {
        let mut t = g.clone();
        t.rng = GameRng::seeded(seed);
        shot(
            &mut t,
            shoot(
                1,
                "eliminators",
                vec![WeaponTarget::new("Bolt sniper rifle", "boyz-mob")],
            ),
        );
        if t.units[a][boss].models[0].alive {
            continue;
        }
        assert_eq!(t.combined(a, boyz), vec![boyz]);
        assert!(!t.has_keyword(a, boyz, "CHARACTER"));
        return;
    }
    panic!("the Warboss survived every seed");
}

/// Edge case: in a Pile-in each model ends closer to its own closest enemy model, not to any.
#[test]
fn pile_in_moves_each_model_towards_its_own_closest_enemy() {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "hellblasters"), (2, "nobz")]);
    // Nob 0 touches Hellblaster 0. Nob 1, 1.3" east of Nob 0, has Hellblaster 0 as its closest
    // enemy (1.63") and Hellblaster 2 farther east (1.74").
    put(&mut g, 1, "hellblasters", 0, 20.0, 29.26);
    put(&mut g, 2, "nobz", 0, 20.0, 28.0);
    put(&mut g, 2, "nobz", 1, 22.6, 28.0);
    put(&mut g, 1, "hellblasters", 2, 25.6, 28.0);
    for (m, x) in [(1, 10.0), (3, 11.3), (4, 12.6)] {
        put(&mut g, 1, "hellblasters", m, x, 40.0);
    }
    for m in 2..5 {
        put(&mut g, 2, "nobz", m, 18.7 - 1.3 * (m - 2) as f32, 28.0);
    }
    advance_to(&mut g, 1, Phase::Fight);
    let east = ModelPath {
        model: 1,
        unit: None,
        path: vec![(23.2, 28.0, 0.0)],
        facing: None,
    };
    let r = rejected(
        &mut g,
        Command::PileIn {
            player: 2,
            unit: "nobz".into(),
            paths: vec![east],
        },
    );
    assert!(r.reason.contains("its closest enemy model"), "{r}");
}

/// Edge case: mortal wounds from DEVASTATING WOUNDS follow all of the unit's normal damage to
/// that target, not each weapon's.
#[test]
fn mortal_wounds_follow_all_of_the_units_attacks_at_the_target() {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "intercessors"), (2, "boyz-mob")]);
    put_line(&mut g, 1, "intercessors", 8.0, 10.0, 1.5);
    put(&mut g, 1, "captain", 0, 8.0, 11.6);
    put_line(&mut g, 2, "boyz-mob", 8.0, 18.0, 1.3);
    put(&mut g, 2, "warboss", 0, 8.0, 19.6);
    advance_to(&mut g, 2, Phase::Shooting);
    for seed in 0..300 {
        let mut t = g.clone();
        t.rng = GameRng::seeded(seed);
        let ev = shot(
            &mut t,
            shoot(
                2,
                "boyz-mob",
                vec![
                    WeaponTarget::new("Kombi-weapon", "intercessors"),
                    WeaponTarget::new("Slugga", "intercessors"),
                ],
            ),
        );
        let log = attack_events(&ev);
        let Some(mortal) = log
            .iter()
            .position(|a| matches!(a, AttackEvent::MortalWounds { .. }))
        else {
            continue;
        };
        let last_weapon = log
            .iter()
            .rposition(|a| matches!(a, AttackEvent::Weapon { .. }))
            .unwrap();
        assert!(mortal > last_weapon, "mortal wounds after every weapon");
        assert_eq!(
            ev.iter()
                .filter(|e| matches!(e, GameEvent::Attacked { .. }))
                .count(),
            1
        );
        return;
    }
    panic!("no Devastating Wounds in any seed");
}

/// Edge case: Go to Ground and Smokescreen answer an enemy unit that has just selected its
/// targets, on one of those targets. The engine holds the declared attacks (no die rolled)
/// while the defending player may react, refuses every other command, and resolves them on
/// the defender's Pass; with no possible reaction the attacks resolve at once.
#[test]
fn go_to_ground_answers_targets_just_selected() {
    use wartable::rules::stratagem::Stratagem;
    let mut g = deployed_game(open_field());
    // The Core Stratagems alone (the War Horde's 'Ard as Nails would be an answer too).
    core_rules_only(&mut g);
    isolate(
        &mut g,
        &[(1, "eliminators"), (2, "shoota-boyz"), (2, "nobz")],
    );
    for m in 0..3 {
        put(&mut g, 1, "eliminators", m, 10.0 + 2.0 * m as f32, 20.0);
    }
    put_line(&mut g, 2, "shoota-boyz", 8.0, 30.0, 1.3);
    put_line(&mut g, 2, "nobz", 8.0, 27.0, 1.3);
    advance_to(&mut g, 1, Phase::Shooting);
    g.cp = [5, 5];
    let go_to_ground = |unit: &str| use_stratagem(2, Stratagem::GoToGround, unit, None);
    let snipe = shoot(
        1,
        "eliminators",
        vec![WeaponTarget::new("Bolt sniper rifle", "shoota-boyz")],
    );
    // Not before any target is selected.
    let r = rejected(&mut g, go_to_ground("shoota-boyz"));
    assert!(r.reason.contains("selected its targets"), "{r}");
    // Targets selected: nothing rolled, player 2 to answer.
    let draws = g.rng.draws();
    let ev = accepted(&mut g, snipe.clone());
    assert!(
        matches!(
            &ev[..],
            [GameEvent::TargetsSelected { player: 1, reacting: 2, targets, .. }]
                if targets == &["shoota-boyz".to_string()]
        ),
        "{ev:?}"
    );
    assert_eq!(g.rng.draws(), draws, "no die before the answer");
    assert_eq!(g.acting_player(), Some(2));
    for c in [
        Command::EndPhase { player: 1 },
        Command::Pass { player: 1 },
        snipe.clone(),
    ] {
        assert_eq!(rejected(&mut g, c).rule, Rule::Reactions);
    }
    // Only on a unit the attacks target.
    let r = rejected(&mut g, go_to_ground("nobz"));
    assert!(r.reason.contains("not a target"), "{r}");
    // The engine lists the one answer it would accept (the Boyz have no SMOKE keyword).
    assert_eq!(g.reaction_options(), vec![go_to_ground("shoota-boyz")]);
    accepted(&mut g, go_to_ground("shoota-boyz"));
    assert_eq!(g.reaction_options(), Vec::new(), "once per phase");
    assert_eq!(g.cp[1], 4);
    let (a, u) = (
        g.army_of(2).unwrap(),
        g.find_unit(g.army_of(2).unwrap(), "shoota-boyz").unwrap(),
    );
    assert_eq!(g.units[a][u].shrouded, Some(Stratagem::GoToGround));
    // The defender passes: the attacks are resolved now.
    let ev = accepted(&mut g, Command::Pass { player: 2 });
    assert!(
        ev.iter().any(|e| matches!(e, GameEvent::Attacked { .. })),
        "{ev:?}"
    );
    assert_eq!((g.pending_shot.clone(), g.acting_player()), (None, Some(1)));
    let r = rejected(&mut g, Command::Pass { player: 2 });
    assert!(r.reason.contains("nothing to answer"), "{r}");
    // Without a Command point no window opens: the next unit's attacks resolve at once.
    let mut t = g.clone();
    t.cp[1] = 0;
    put(&mut t, 1, "ballistus", 0, 20.0, 18.0);
    let ev = accepted(
        &mut t,
        shoot(
            1,
            "ballistus",
            vec![WeaponTarget::new("Ballistus lascannon", "nobz")],
        ),
    );
    assert!(
        ev.iter().any(|e| matches!(e, GameEvent::Attacked { .. })),
        "{ev:?}"
    );
    assert_eq!(t.pending_shot, None);
}

/// Edge case: Fire Overwatch answers the enemy unit that was just set up, moved or declared a
/// charge (not any unit at any time), once per turn; Heroic Intervention and Tank Shock answer
/// a Charge move just ended.
#[test]
fn reactive_stratagems_answer_their_trigger() {
    use wartable::rules::movement::MoveMode;
    use wartable::rules::stratagem::Stratagem;
    let mut g = deployed_game(open_field());
    isolate(
        &mut g,
        &[(1, "eliminators"), (2, "shoota-boyz"), (2, "nobz")],
    );
    for m in 0..3 {
        put(&mut g, 1, "eliminators", m, 10.0 + 2.0 * m as f32, 20.0);
    }
    put_line(&mut g, 2, "shoota-boyz", 8.0, 30.0, 1.3);
    put_line(&mut g, 2, "nobz", 8.0, 27.0, 1.3);
    advance_to(&mut g, 2, Phase::Movement);
    g.cp = [5, 5];
    let overwatch = |t: &str| use_stratagem(1, Stratagem::FireOverwatch, "eliminators", Some(t));
    // Nothing has moved yet.
    let r = rejected(&mut g, overwatch("shoota-boyz"));
    assert!(r.reason.contains("just after"), "{r}");
    let paths = shift(&g, 2, "shoota-boyz", 0.0, 1.0);
    accepted(
        &mut g,
        Command::Move {
            player: 2,
            unit: "shoota-boyz".into(),
            mode: MoveMode::Normal,
            paths,
        },
    );
    // Only at the unit that moved.
    let r = rejected(&mut g, overwatch("nobz"));
    assert!(r.reason.contains("just after"), "{r}");
    accepted(&mut g, overwatch("shoota-boyz"));
    // The Nobz declare a charge in the Charge phase: Fire Overwatch is once per turn.
    advance_to(&mut g, 2, Phase::Charge);
    accepted(
        &mut g,
        Command::DeclareCharge {
            player: 2,
            unit: "nobz".into(),
            targets: vec!["eliminators".into()],
        },
    );
    let r = rejected(&mut g, overwatch("nobz"));
    assert!(r.reason.contains("once per turn"), "{r}");
    // Heroic Intervention before any charge: refused.
    let r = rejected(
        &mut g,
        use_stratagem(
            1,
            Stratagem::HeroicIntervention,
            "eliminators",
            Some("nobz"),
        ),
    );
    assert!(r.reason.contains("Charge move"), "{r}");
}

/// Rules Commentary worked case (Shoot Again, For the Chapter!): a destroyed Hellblaster that
/// shoots before it is removed follows the normal attack sequence (rolls to hit and to wound),
/// passes its HAZARDOUS tests, and is then removed.
#[test]
fn shoot_again_example_for_the_chapter_rolls_to_hit_and_wound_as_normal() {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "hellblasters"), (2, "lootas")]);
    put_line(&mut g, 1, "hellblasters", 10.0, 12.0, 1.5);
    put_line(&mut g, 2, "lootas", 8.0, 26.0, 1.3);
    advance_to(&mut g, 2, Phase::Shooting);
    for seed in 0..300 {
        let mut t = g.clone();
        t.rng = GameRng::seeded(seed);
        let ev = shot(
            &mut t,
            shoot(
                2,
                "lootas",
                vec![WeaponTarget::new("Deffgun", "hellblasters")],
            ),
        );
        let Some(at) = ev
            .iter()
            .position(|e| matches!(e, GameEvent::ShootBeforeRemoval { shoots: true, .. }))
        else {
            continue;
        };
        let GameEvent::ShootBeforeRemoval { model, .. } = &ev[at] else {
            unreachable!()
        };
        let after = &ev[at..];
        let shot = after
            .iter()
            .position(|e| matches!(e, GameEvent::Attacked { unit, .. } if unit == "hellblasters"))
            .expect("the destroyed Hellblaster shoots");
        let log = attack_events(&after[shot..]);
        assert!(log.iter().any(|a| matches!(a, AttackEvent::HitRoll { .. })));
        assert!(
            log.iter()
                .all(|a| !matches!(a, AttackEvent::HitRoll { needed, .. } if *needed != 3)),
            "BS 3+ as normal"
        );
        assert!(
            !log.iter()
                .any(|a| matches!(a, AttackEvent::Hazardous { .. })),
            "HAZARDOUS tests are passed without rolling"
        );
        let removed = after[shot..]
            .iter()
            .any(|e| matches!(e, GameEvent::ModelDestroyed { model: m, .. } if m == model));
        assert!(removed, "{model} is removed after shooting");
        return;
    }
    panic!("no Hellblaster shot before removal");
}

/// Finding 9 (Firing Deck): embarked models lend one ranged weapon each to the TRANSPORT when
/// it shoots (at most X of them); their unit cannot shoot that phase.
#[test]
fn firing_deck_lets_embarked_models_shoot_from_the_transport() {
    let mut g = deployed_game(open_field());
    isolate(
        &mut g,
        &[(1, "intercessors"), (2, "trukk"), (2, "shoota-boyz")],
    );
    put_line(&mut g, 1, "intercessors", 8.0, 10.0, 1.5);
    put(&mut g, 1, "captain", 0, 8.0, 11.6);
    put(&mut g, 2, "trukk", 0, 14.0, 24.0);
    let (a, trukk) = unit_ref(&g, 2, "trukk");
    let (_, boyz) = unit_ref(&g, 2, "shoota-boyz");
    g.units[a][boyz].location = Location::Embarked(trukk);
    advance_to(&mut g, 2, Phase::Shooting);
    let deck = |models: std::ops::Range<usize>| {
        WeaponTarget::new("Shoota", "intercessors").by_models(names("shoota-boyz", models))
    };
    // One weapon per embarked model.
    let r = rejected(
        &mut g.clone(),
        shoot(
            2,
            "trukk",
            vec![
                deck(2..4),
                WeaponTarget::new("Shoota", "intercessors").by_models(vec!["shoota-boyz#3".into()]),
            ],
        ),
    );
    assert!(r.reason.contains("one weapon"), "{r}");
    // Without the ability, no embarked model shoots.
    let mut bare = g.clone();
    bare.scene.armies[a].units[trukk]
        .datasheet_mut()
        .core_abilities
        .retain(|c| !matches!(c, CoreAbility::FiringDeck(_)));
    // Model 0 is the Boss Nob (slugga), model 1 carries the big shoota, 2-9 shootas.
    let r = rejected(&mut bare, shoot(2, "trukk", vec![deck(2..7)]));
    assert!(r.reason.contains("Firing Deck"), "{r}");
    let ev = shot(
        &mut g,
        shoot(
            2,
            "trukk",
            vec![WeaponTarget::new("Big shoota", "intercessors"), deck(2..7)],
        ),
    );
    assert_eq!(
        attacked(&ev),
        vec![("Big shoota".to_string(), 1), ("Shoota".to_string(), 5)]
    );
    assert!(
        g.units[a][boyz].shot,
        "the lending unit has shot this phase"
    );
}

/// Counter-offensive (Core Stratagems): just after an enemy unit has fought, when the enemy
/// would select again (here its second charging unit in the Fights First step), one of the
/// player's engaged units that has not fought fights next.
#[test]
fn counter_offensive_lets_a_unit_fight_before_the_next_enemy_charger() {
    use wartable::rules::stratagem::Stratagem;
    let mut g = deployed_game(open_field());
    isolate(
        &mut g,
        &[(1, "hellblasters"), (1, "intercessors"), (2, "boyz-mob")],
    );
    put_line(&mut g, 2, "boyz-mob", 20.0, 30.0, 1.3);
    put(&mut g, 2, "warboss", 0, 20.0, 31.6);
    put_line(&mut g, 1, "hellblasters", 21.3, 31.26, 1.3);
    for m in 0..10 {
        put(&mut g, 1, "intercessors", m, 26.5 + 1.3 * m as f32, 28.74);
    }
    put(&mut g, 1, "captain", 0, 26.5, 27.3);
    advance_to(&mut g, 1, Phase::Charge);
    // Both of player 1's units charged this turn (scenario set-up).
    for unit in ["hellblasters", "intercessors", "captain"] {
        let (a, u) = unit_ref(&g, 1, unit);
        g.units[a][u].charged = true;
    }
    g.cp = [5, 5];
    advance_to(&mut g, 1, Phase::Fight);
    assert_eq!(g.next_to_fight().map(|(p, _)| p), Some(1));
    accepted(&mut g, pile_in(1, "hellblasters"));
    accepted(
        &mut g,
        fight(
            1,
            "hellblasters",
            vec![WeaponTarget::new("Close combat weapon", "boyz-mob")],
        ),
    );
    accepted(
        &mut g,
        Command::Consolidate {
            player: 1,
            unit: "hellblasters".into(),
            paths: vec![],
        },
    );
    // Player 1 would select its other charger next; player 2 answers with Counter-offensive.
    assert_eq!(g.next_to_fight().map(|(p, _)| p), Some(1));
    accepted(
        &mut g,
        use_stratagem(2, Stratagem::CounterOffensive, "boyz-mob", None),
    );
    assert_eq!(g.next_to_fight(), Some((2, vec!["boyz-mob".to_string()])));
}

/// Each moving model's path as a straight move to (x, y).
fn to(unit: &str, model: usize, x: f32, y: f32) -> ModelPath {
    ModelPath {
        model,
        unit: Some(unit.into()),
        path: vec![(x, y, 0.0)],
        facing: None,
    }
}

/// True when the model's base touches an enemy model's base.
fn in_base_contact(g: &Game, player: u8, unit: &str, model: usize) -> bool {
    use wartable::geometry::measure::horizontal_distance;
    use wartable::rules::constants::BASE_CONTACT_INCHES;
    let army = g.army_of(player).unwrap();
    let r = ModelRef {
        army,
        unit: g.find_unit(army, unit).unwrap(),
        model,
    };
    g.enemy_models(army)
        .iter()
        .any(|e| horizontal_distance(&g.solid(r), &g.solid(*e)) <= BASE_CONTACT_INCHES)
}

/// Edge case: a charging model ends in base-to-base contact with an enemy model when it can
/// while the rest of the charge stays legal, and not when the roll is too short for contact
/// (Engagement Range is enough then).
#[test]
fn a_charging_model_ends_in_base_contact_if_it_can() {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "eliminators"), (2, "nobz")]);
    put_line(&mut g, 1, "eliminators", 10.0, 18.0, 1.8);
    put_line(&mut g, 2, "nobz", 10.0, 26.0, 1.8);
    advance_to(&mut g, 1, Phase::Charge);
    let base = pos(&g, 2, "nobz", 0).y - pos(&g, 1, "eliminators", 0).y;
    // Bases 32 mm (1.26"): 8" between centres is 6.74" between bases.
    let gap = base - 1.26;
    let declare = |g: &mut Game, dice: &[u8]| {
        g.rng = GameRng::scripted(dice);
        accepted(
            g,
            Command::DeclareCharge {
                player: 1,
                unit: "eliminators".into(),
                targets: vec!["nobz".into()],
            },
        )
    };
    let short_of = |g: &Game, by: f32| Command::ChargeMove {
        player: 1,
        unit: "eliminators".into(),
        paths: shift(g, 1, "eliminators", 0.0, gap - by),
        targets: vec![],
    };
    // A 12" charge: ending 0.5" short (in Engagement Range) is refused; touching is accepted.
    let mut t = g.clone();
    declare(&mut t, &[6, 6]);
    let short = short_of(&t, 0.5);
    let r = rejected(&mut t, short);
    assert_eq!(r.rule, Rule::ChargePhase);
    assert!(r.reason.contains("base-to-base contact"), "{r}");
    let touching = t.with_base_contact(&short_of(&t, 0.5));
    accepted(&mut t, touching);
    for m in 0..3 {
        assert!(in_base_contact(&t, 1, "eliminators", m), "eliminators#{m}");
    }
    // A roll of 6 reaches Engagement Range (6.74" - 1") but not the Nobz' bases: accepted.
    let mut t = g.clone();
    declare(&mut t, &[3, 3]);
    let c = short_of(&t, 0.8);
    assert_eq!(t.with_base_contact(&c), c, "no model can touch");
    accepted(&mut t, c);
    assert!(!in_base_contact(&t, 1, "eliminators", 0));
}

/// Edge case: a model that piles in or consolidates ends in base-to-base contact with an
/// enemy model when it can (closer is not enough then).
#[test]
fn pile_in_and_consolidation_end_in_base_contact_if_they_can() {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "intercessors"), (2, "nobz")]);
    put_line(&mut g, 1, "intercessors", 10.0, 20.0, 1.4);
    put(&mut g, 1, "captain", 0, 10.0, 18.2);
    // Nob 0 within Engagement Range (0.64" apart), the others 2.74" from the Intercessors.
    put(&mut g, 2, "nobz", 0, 10.0, 21.9);
    for m in 1..5 {
        put(&mut g, 2, "nobz", m, 10.0 + 2.0 * m as f32, 24.0);
    }
    advance_to(&mut g, 1, Phase::Fight);
    let pile_in = |paths| Command::PileIn {
        player: 2,
        unit: "nobz".into(),
        paths,
    };
    // Nob 1 moves 1" closer, but it could reach an Intercessor's base.
    let closer = pile_in(vec![to("nobz", 1, 12.0, 23.0)]);
    let r = rejected(&mut g, closer.clone());
    assert_eq!(r.rule, Rule::PileIn);
    assert!(
        r.reason
            .contains("nobz#1 could end in base-to-base contact"),
        "{r}"
    );
    let touching = g.with_base_contact(&closer);
    accepted(&mut g, touching);
    assert!(in_base_contact(&g, 2, "nobz", 1));
    // Not moving at all stays allowed for the others; now the Nobz fight (no attacks here).
    accepted(
        &mut g,
        Command::Fight {
            player: 2,
            unit: "nobz".into(),
            weapons: vec![],
        },
    );
    let consolidate = |paths| Command::Consolidate {
        player: 2,
        unit: "nobz".into(),
        paths,
    };
    let closer = consolidate(vec![to("nobz", 2, 14.0, 23.0)]);
    let r = rejected(&mut g, closer.clone());
    assert_eq!(r.rule, Rule::Consolidate);
    assert!(
        r.reason
            .contains("nobz#2 could end in base-to-base contact"),
        "{r}"
    );
    let touching = g.with_base_contact(&closer);
    accepted(&mut g, touching);
    assert!(in_base_contact(&g, 2, "nobz", 2));
}
