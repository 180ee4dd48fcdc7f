//! 11th edition, part 1 (the table), each case under `Eleventh` with its `Tenth` twin:
//! Obscuring areas, Solid gaps at 2.5" and 3.5", Hidden at 14" and 16", Engagement Range at
//! 1.5", the 9" coherency span, and ingress at 8.5" and 7.5" (shared/RULES-11e.md, "10th vs
//! 11th at a glance").

use crate::battle;
use battle::*;

use wartable::game::{Command, Game, Placement, ReserveKind};
use wartable::geometry::sight::{
    Blocker, Sampling, SeeThrough, SightIndex, SightModel, TerrainRules,
};
use wartable::geometry::{
    Base, FeatureCategory, ModelSolid, TerrainArea, TerrainCategory, TerrainPiece, Vec2, Vec3,
    Wall, Window,
};
use wartable::rules::constants::{ELEVENTH, TENTH};

use wartable::rules::phase::Phase;
use wartable::rules::{Ruleset, coherency, engagement};

const INFANTRY: Base = Base::Round(32.0);

fn rect(x0: f32, y0: f32, x1: f32, y1: f32) -> Vec<Vec2> {
    vec![
        Vec2::new(x0, y0),
        Vec2::new(x1, y0),
        Vec2::new(x1, y1),
        Vec2::new(x0, y1),
    ]
}

fn piece(id: &str, category: TerrainCategory, footprint: Vec<Vec2>, height: f32) -> TerrainPiece {
    TerrainPiece {
        id: id.into(),
        category,
        footprint,
        height,
        walls: Vec::new(),
        floors: Vec::new(),
    }
}

/// Each piece its own area, with its kind's default category.
fn areas_of(pieces: &[TerrainPiece]) -> Vec<TerrainArea> {
    pieces
        .iter()
        .map(|p| TerrainArea {
            id: p.id.clone(),
            outline: p.footprint.clone(),
            pieces: vec![p.id.clone()],
            category: p.category.default_feature_category(),
            objective: None,
        })
        .collect()
}

fn eleventh(pieces: &[TerrainPiece]) -> TerrainRules {
    TerrainRules::Eleventh {
        areas: areas_of(pieces),
        solid_gap_inches: 3.0,
        hidden_detection_range_inches: 15.0,
    }
}

fn model(unit: usize, x: f32, y: f32, height: f32) -> SightModel {
    SightModel {
        unit,
        solid: ModelSolid::new(INFANTRY, Vec3::new(x, y, 0.0), 0.0, height),
        towering: false,
        aircraft: false,
        infantry: true,
    }
}

fn index(pieces: &[TerrainPiece], rules: &TerrainRules, models: Vec<SightModel>) -> SightIndex {
    let mut index = SightIndex::new_under(pieces, rules);
    index.set_models(models);
    index
}

fn look(index: &SightIndex, observer: usize, target: usize) -> bool {
    index.model_visible(observer, target, SeeThrough::OwnUnit, &Sampling::FAST)
}

#[test]
fn a_light_area_between_two_models_is_obscuring_under_eleventh_only() {
    // A 1" barricade, 6" long, halfway between two infantry models 10" apart: 10th sees over
    // it; 11th's area (Light) is Obscuring.
    let pieces = [piece(
        "barricade",
        TerrainCategory::Barricade,
        rect(14.5, 7.0, 15.5, 13.0),
        1.0,
    )];
    let models = vec![model(0, 10.0, 10.0, 1.6), model(1, 20.0, 10.0, 1.6)];
    let tenth = index(&pieces, &TerrainRules::tenth(false), models.clone());
    assert!(look(&tenth, 0, 1));
    let e = index(&pieces, &eleventh(&pieces), models);
    assert!(!look(&e, 0, 1));
    let v = e.model_visibility(0, 1, SeeThrough::OwnUnit, &Sampling::FAST);
    assert_eq!(
        v.blocked_by,
        Some(Blocker::Obscuring {
            area: "barricade".into()
        })
    );
    // An Exposed area (a crater) obscures nothing.
    let craters = [piece(
        "crater",
        TerrainCategory::Crater,
        rect(14.5, 7.0, 15.5, 13.0),
        0.0,
    )];
    let c = index(
        &craters,
        &eleventh(&craters),
        vec![model(0, 10.0, 10.0, 1.6), model(1, 20.0, 10.0, 1.6)],
    );
    assert!(look(&c, 0, 1));
}

#[test]
fn a_model_within_an_obscuring_area_sees_out_of_it_and_is_seen_into_it() {
    let pieces = [piece(
        "barricade",
        TerrainCategory::Barricade,
        rect(14.0, 7.0, 16.0, 13.0),
        0.5,
    )];
    // The target stands within the area: the area does not count for this pair.
    let e = index(
        &pieces,
        &eleventh(&pieces),
        vec![model(0, 8.0, 10.0, 1.6), model(1, 15.0, 10.0, 1.6)],
    );
    assert!(look(&e, 0, 1));
    assert!(look(&e, 1, 0));
}

/// A ruin 0..12 x 0..6 whose inside wall at x = 6 has one window from `bottom` to 4.8" up;
/// two 5"-tall models inside it, either side of the wall.
fn solid_case(bottom: f32, rules: fn(&[TerrainPiece]) -> TerrainRules) -> bool {
    let mut ruin = piece(
        "ruin",
        TerrainCategory::Ruin,
        rect(0.0, 0.0, 12.0, 6.0),
        0.0,
    );
    ruin.walls.push(Wall {
        start: Vec2::new(6.0, 0.0),
        end: Vec2::new(6.0, 6.0),
        height: 5.0,
        thickness: 0.25,
        windows: vec![Window {
            start: 1.0,
            end: 5.0,
            bottom,
            top: 4.8,
        }],
    });
    let pieces = [ruin];
    let i = index(
        &pieces,
        &rules(&pieces),
        vec![model(0, 3.0, 3.0, 5.0), model(1, 9.0, 3.0, 5.0)],
    );
    look(&i, 0, 1)
}

#[test]
fn solid_closes_gaps_of_dense_features_three_inches_up_or_lower() {
    // 11th: a gap starting 2.5" up is Solid; one starting 3.5" up is seen through.
    assert!(!solid_case(2.5, eleventh));
    assert!(solid_case(3.5, eleventh));
    // 10th (windows open): both are seen through.
    assert!(solid_case(2.5, |_| TerrainRules::tenth(false)));
    assert!(solid_case(3.5, |_| TerrainRules::tenth(false)));
}

/// An infantry target within a Light area (a low barricade it stands in), `distance` inches of
/// open table from the observer, allowed to hide.
fn hidden_case(distance: f32, rules: fn(&[TerrainPiece]) -> TerrainRules) -> (bool, SightIndex) {
    let pieces = [piece(
        "barricade",
        TerrainCategory::Barricade,
        rect(29.0, 8.0, 32.0, 12.0),
        0.3,
    )];
    let radius = INFANTRY.bounding_radius_inches();
    let target_x = 30.0;
    let observer_x = target_x - distance - 2.0 * radius;
    let mut i = index(
        &pieces,
        &rules(&pieces),
        vec![
            model(0, observer_x, 10.0, 1.6),
            model(1, target_x, 10.0, 1.6),
        ],
    );
    i.set_may_hide(vec![false, true]);
    (look(&i, 0, 1), i)
}

#[test]
fn a_hidden_model_is_seen_within_fifteen_inches_only() {
    assert!(hidden_case(14.0, eleventh).0);
    let (seen, i) = hidden_case(16.0, eleventh);
    assert!(!seen);
    let v = i.model_visibility(0, 1, SeeThrough::OwnUnit, &Sampling::FAST);
    match v.blocked_by {
        Some(Blocker::Hidden { distance, range }) => {
            assert!((distance - 16.0).abs() < 0.01, "{distance}");
            assert_eq!(range, 15.0);
            assert_eq!(v.blocked_by.unwrap().to_string(), "hidden: 16.0\" > 15\"");
        }
        other => panic!("{other:?}"),
    }
    // 10th has no Hidden.
    assert!(hidden_case(16.0, |_| TerrainRules::tenth(false)).0);
}

#[test]
fn the_targets_own_unit_does_not_block_sight_under_eleventh() {
    // A big model of the target's unit stands right in front of the target.
    let big = SightModel {
        solid: ModelSolid::new(Base::Round(130.0), Vec3::new(15.0, 10.0, 0.0), 0.0, 6.0),
        ..model(1, 15.0, 10.0, 6.0)
    };
    let models = vec![model(0, 10.0, 10.0, 1.6), model(1, 19.0, 10.0, 1.6), big];
    let tenth = index(&[], &TerrainRules::tenth(false), models.clone());
    assert!(!look(&tenth, 0, 1));
    let e = index(&[], &eleventh(&[]), models);
    assert!(look(&e, 0, 1));
}

#[test]
fn engagement_range_at_one_and_a_half_inches() {
    let mut g = deployed_game(open_field());
    put(&mut g, 1, "intercessors", 0, 30.0, 20.0);
    let r = INFANTRY.bounding_radius_inches();
    let boy = {
        let (a, u) = unit_ref(&g, 2, "boyz-mob");
        g.scene.armies[a].units[u].models[0]
            .characteristics
            .base
            .bounding_radius_inches()
    };
    put(&mut g, 2, "boyz-mob", 0, 30.0 + r + boy + 1.5, 20.0);
    let engaged = |g: &Game| {
        let sight = g.sight();
        let a = sight
            .select(&g.scene, &"1:intercessors#0".parse().unwrap())
            .unwrap();
        let b = sight
            .select(&g.scene, &"2:boyz-mob#0".parse().unwrap())
            .unwrap();
        sight.any_within_engagement_range(&g.scene, &a, &b)
    };
    assert!(!engaged(&g));
    g.scene.options.ruleset = Ruleset::Eleventh;
    assert!(engaged(&g));
    // The same through the pure rule.
    let a = ModelSolid::new(INFANTRY, Vec3::ZERO, 0.0, 1.6);
    let b = ModelSolid::new(INFANTRY, Vec3::new(2.0 * r + 1.5, 0.0, 0.0), 0.0, 1.6);
    assert!(!engagement::within_engagement_range_in(&TENTH, &a, &b, &[]));
    assert!(engagement::within_engagement_range_in(
        &ELEVENTH,
        &a,
        &b,
        &[]
    ));
}

#[test]
fn coherency_has_a_nine_inch_span_under_eleventh() {
    // Six models in a line, 1.9" edge to edge: one neighbour each is enough for both
    // editions, but the ends are 14.5" apart.
    let d = INFANTRY.bounding_radius_inches() * 2.0 + 1.9;
    let line: Vec<ModelSolid> = (0..6)
        .map(|i| {
            ModelSolid::new(
                INFANTRY,
                Vec3::new(10.0 + d * i as f32, 10.0, 0.0),
                0.0,
                1.6,
            )
        })
        .collect();
    assert!(coherency::check_in(&TENTH, &line).coherent);
    let r = coherency::check_in(&ELEVENTH, &line);
    assert!(!r.coherent);
    assert!(r.breaking_models.contains(&0) && r.breaking_models.contains(&5));
    let removed = coherency::models_to_remove_keeping_in(&ELEVENTH, &line, &[1.0; 6]);
    assert!(!removed.is_empty());
    let rest: Vec<ModelSolid> = (0..6)
        .filter(|i| !removed.contains(i))
        .map(|i| line[i])
        .collect();
    assert!(coherency::check_in(&ELEVENTH, &rest).coherent);
    // Seven models in a ring-free line: 10th wants two neighbours, 11th does not (but the span
    // still breaks it).
    assert!(coherency::models_to_remove_keeping_in(&TENTH, &line, &[1.0; 6]).is_empty());
}

#[test]
fn a_move_ending_with_the_unit_spread_past_nine_inches_is_refused_under_eleventh_only() {
    for ruleset in Ruleset::ALL {
        let mut scene = open_field();
        scene.options.ruleset = ruleset;
        let mut g = deployed_game(scene);
        // A line 1.9" edge to edge: coherent in 10th, its ends more than 9" apart.
        put_line(
            &mut g,
            1,
            "hellblasters",
            20.0,
            20.0,
            INFANTRY.bounding_radius_inches() * 2.0 + 1.9,
        );
        advance_to(&mut g, 1, Phase::Movement);
        let c = normal_move(&g, 1, "hellblasters", 1.0, 0.0);
        match ruleset {
            Ruleset::Tenth => {
                accepted(&mut g, c);
            }
            Ruleset::Eleventh => {
                let r = rejected(&mut g, c);
                assert!(r.reason.to_lowercase().contains("coherency"), "{r}");
            }
        }
    }
}

#[test]
fn ingress_is_set_up_more_than_eight_inches_away_under_eleventh() {
    for (ruleset, gap, ok) in [
        (Ruleset::Tenth, 8.5, false),
        (Ruleset::Eleventh, 8.5, true),
        (Ruleset::Eleventh, 7.5, false),
    ] {
        let mut scene = open_field();
        scene.options.ruleset = ruleset;
        let (mut g, _) = Game::start(scene, 1);
        accepted(
            &mut g,
            Command::DeclareReserves {
                player: 1,
                unit: "eliminators".into(),
                reserve: ReserveKind::StrategicReserves,
            },
        );
        deploy_all(&mut g);
        advance_to(&mut g, 1, Phase::Movement);
        if g.battle_round == 1 {
            advance_to(&mut g, 1, Phase::Fight);
            accepted(&mut g, Command::EndPhase { player: 1 });
            advance_to(&mut g, 1, Phase::Movement);
        }
        let (a, u) = unit_ref(&g, 1, "eliminators");
        let r = g.scene.armies[a].units[u].models[0]
            .characteristics
            .base
            .bounding_radius_inches();
        let (ea, eu) = unit_ref(&g, 2, "warboss");
        let er = g.scene.armies[ea].units[eu].models[0]
            .characteristics
            .base
            .bounding_radius_inches();
        // Every other enemy model far away; the Warboss straight north of the first model.
        for unit in [
            "boyz-mob",
            "shoota-boyz",
            "nobz",
            "lootas",
            "deff-dread-1",
            "deff-dread-2",
        ] {
            let (ua, uu) = unit_ref(&g, 2, unit);
            for m in 0..g.scene.armies[ua].units[uu].models.len() {
                put(&mut g, 2, unit, m, 55.0 - 0.5 * m as f32, 40.0);
            }
        }
        put(&mut g, 2, "warboss", 0, 30.0, 1.5 + r + er + gap);
        let models: Vec<Placement> = (0..3)
            .map(|m| Placement {
                model: m,
                unit: None,
                x: 30.0 - 1.8 * m as f32,
                y: 1.5,
                z: 0.0,
                facing: 0.0,
            })
            .collect();
        let result = g.apply(&Command::SetUpReinforcements {
            player: 1,
            unit: "eliminators".into(),
            models,
        });
        assert_eq!(result.is_ok(), ok, "{ruleset:?} at {gap}\": {result:?}");
        if !ok {
            let why = result.unwrap_err().reason;
            let apart = g.scene.edition().reserves_enemy_distance_inches;
            assert!(why.contains(&format!("more than {apart}\"")), "{why}");
        }
    }
}

#[test]
fn the_default_areas_follow_the_pieces_and_their_kinds() {
    let scene = open_field();
    assert_eq!(scene.layout.areas.len(), scene.layout.pieces.len());
    for (a, p) in scene.layout.areas.iter().zip(&scene.layout.pieces) {
        assert_eq!(a.id, p.id);
        assert_eq!(a.category, p.category.default_feature_category());
    }
    assert_eq!(
        TerrainCategory::Ruin.default_feature_category(),
        FeatureCategory::Dense
    );
    assert_eq!(
        TerrainCategory::Barricade.default_feature_category(),
        FeatureCategory::Light
    );
}

mod cover {
    use crate::common::weapon;
    use wartable::rules::Ruleset;
    use wartable::rules::attack::exact::distribution;
    use wartable::rules::attack::{AttackContext, TargetModel, TargetUnit, WeaponGroup};
    use wartable::rules::weapon::WeaponAbility;

    fn target(stealth: bool) -> TargetUnit {
        TargetUnit {
            name: "target".into(),
            toughness: 4,
            keywords: vec!["INFANTRY".into()],
            stealth,
            models: (0..10)
                .map(|_| TargetModel {
                    name: "trooper".into(),
                    wounds: 1,
                    wounds_remaining: 1,
                    save: 3,
                    invulnerable_save: None,
                    feel_no_pain: None,
                    leader: false,
                    has_cover: false,
                    allocation_rank: 0,
                    allocated_this_phase: false,
                })
                .collect(),
        }
    }

    fn mean(skill: u8, abilities: Vec<WeaponAbility>, ctx: &AttackContext, stealth: bool) -> f64 {
        distribution(
            &[WeaponGroup::new(
                weapon("1", skill, 4, -1, "1", abilities),
                10,
            )],
            &target(stealth),
            ctx,
        )
        .expected_wounds_lost
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-12, "{a} vs {b}");
    }

    #[test]
    fn cover_worsens_the_ballistic_skill_under_eleventh_and_improves_the_save_under_tenth() {
        // 10 attacks, S4 against T4, AP -1 against Sv 3+, D1.
        let covered = |ruleset| AttackContext {
            ruleset,
            target_has_cover: true,
            ..AttackContext::default()
        };
        // 11th: BS 3+ becomes 4+; the save stays 4+ (3+ worsened by AP -1).
        let eleventh = mean(3, vec![], &covered(Ruleset::Eleventh), false);
        close(eleventh, 10.0 * 0.5 * 0.5 * 0.5);
        // The same as a BS 4+ weapon with no cover, worked out by the distribution itself.
        close(eleventh, mean(4, vec![], &AttackContext::default(), false));
        // 10th: hits on 3+, the save improves back to 3+.
        let tenth = mean(3, vec![], &covered(Ruleset::Tenth), false);
        close(tenth, 10.0 * (2.0 / 3.0) * 0.5 * (1.0 / 3.0));
        // IGNORES COVER under 11th: BS 3+.
        close(
            mean(
                3,
                vec![WeaponAbility::IgnoresCover],
                &covered(Ruleset::Eleventh),
                false,
            ),
            10.0 * (2.0 / 3.0) * 0.5 * 0.5,
        );
    }

    #[test]
    fn stealth_is_cover_under_eleventh_and_never_doubles_it() {
        let ctx = |ruleset, target_has_cover| AttackContext {
            ruleset,
            target_has_cover,
            ..AttackContext::default()
        };
        let open = 10.0 * (2.0 / 3.0) * 0.5 * 0.5;
        // 10th Stealth: -1 to hit (3+ becomes 4+), the save unchanged.
        close(
            mean(3, vec![], &ctx(Ruleset::Tenth, false), true),
            open * 0.75,
        );
        // 11th Stealth: the Benefit of Cover, BS 4+; with cover as well, still BS 4+.
        close(
            mean(3, vec![], &ctx(Ruleset::Eleventh, false), true),
            open * 0.75,
        );
        close(
            mean(3, vec![], &ctx(Ruleset::Eleventh, true), true),
            open * 0.75,
        );
    }

    #[test]
    fn plunging_fire_improves_the_ballistic_skill_and_cancels_cover_under_eleventh() {
        let plunging = |ruleset| AttackContext {
            ruleset,
            target_has_cover: true,
            plunging_fire: true,
            ..AttackContext::default()
        };
        // 11th: BS 3+ becomes 2+ (cover cancelled), AP unchanged: save 4+.
        close(
            mean(3, vec![], &plunging(Ruleset::Eleventh), false),
            10.0 * (5.0 / 6.0) * 0.5 * 0.5,
        );
        // 10th: AP -2 against Sv 3+ in cover: 4+.
        close(
            mean(3, vec![], &plunging(Ruleset::Tenth), false),
            10.0 * (2.0 / 3.0) * 0.5 * 0.5,
        );
    }
}

#[test]
fn infantry_within_a_terrain_area_has_cover_against_every_attacker_under_eleventh() {
    use wartable::game::WeaponTarget;
    for ruleset in Ruleset::ALL {
        let mut scene = open_field();
        scene.options.ruleset = ruleset;
        let mut g = deployed_game(scene);
        core_rules_only(&mut g);
        isolate(&mut g, &[(1, "hellblasters"), (2, "nobz")]);
        // The Nobz in a column inside the ruin (x 27..30), the Hellblasters 10" north in the
        // open, looking down the column under the floor.
        for m in 0..5 {
            put(&mut g, 2, "nobz", m, 28.5, 19.0 + 1.5 * m as f32);
        }
        put_line(&mut g, 1, "hellblasters", 24.0, 36.0, 1.8);
        advance_to(&mut g, 1, Phase::Shooting);
        let shoot = |g: &Game| {
            g.preview_attacks(
                1,
                "hellblasters",
                &[WeaponTarget {
                    weapon: "Plasma incinerator".into(),
                    target: "nobz".into(),
                    profile: Some("standard".into()),
                    models: Vec::new(),
                }],
                false,
            )
            .unwrap()
        };
        let within = shoot(&g);
        // In the open the Nobz have no cover under either edition.
        for m in 0..5 {
            put(&mut g, 2, "nobz", m, 40.0, 19.0 + 1.6 * m as f32);
        }
        let open = shoot(&g);
        assert!(!open[0].benefit_of_cover, "{ruleset:?}");
        // Wholly within a ruin (10th) or within a terrain area (11th): cover either way, but
        // under 11th it costs the attackers hits, not saves.
        assert!(within[0].benefit_of_cover, "{ruleset:?}");
    }
}

/// The Move characteristic of every model of a unit set to `inches`.
fn set_move(g: &mut Game, player: u8, unit: &str, inches: f32) {
    let (a, u) = unit_ref(g, player, unit);
    for m in &mut g.scene.armies[a].units[u].models {
        m.characteristics.movement = inches;
    }
}

#[test]
fn a_normal_move_may_cross_engagement_range_under_eleventh_ending_unengaged() {
    for ruleset in Ruleset::ALL {
        let mut scene = open_field();
        scene.options.ruleset = ruleset;
        let mut g = deployed_game(scene);
        isolate(&mut g, &[(1, "eliminators"), (2, "nobz")]);
        // The Eliminators (40 mm) in a column at x = 23 walk 6" east past a Nob: on the way
        // 0.7" from it, at the end 2.8" away.
        for m in 0..3 {
            put(&mut g, 1, "eliminators", m, 23.0, 10.0 + 1.8 * m as f32);
        }
        let (a, u) = unit_ref(&g, 2, "nobz");
        for m in 1..g.scene.armies[a].units[u].models.len() {
            put(&mut g, 2, "nobz", m, 50.0 + 1.5 * m as f32, 40.0);
        }
        put(&mut g, 2, "nobz", 0, 26.0, 13.6 + 0.79 + 0.63 + 0.7);
        advance_to(&mut g, 1, Phase::Movement);
        let c = normal_move(&g, 1, "eliminators", 6.0, 0.0);
        match ruleset {
            Ruleset::Tenth => {
                let r = rejected(&mut g, c);
                assert!(r.reason.contains("within Engagement Range"), "{r}");
            }
            Ruleset::Eleventh => {
                accepted(&mut g, c);
            }
        }
    }
}

#[test]
fn a_vehicle_moves_through_an_infantry_model_under_eleventh_only() {
    for ruleset in Ruleset::ALL {
        let mut scene = open_field();
        scene.options.ruleset = ruleset;
        let mut g = deployed_game(scene);
        isolate(&mut g, &[(1, "redemptor"), (2, "nobz")]);
        set_move(&mut g, 1, "redemptor", 12.0);
        put(&mut g, 1, "redemptor", 0, 8.0, 30.0);
        let (a, u) = unit_ref(&g, 2, "nobz");
        for m in 1..g.scene.armies[a].units[u].models.len() {
            put(&mut g, 2, "nobz", m, 50.0 + 1.5 * m as f32, 40.0);
        }
        // A Nob straight across the Redemptor's path, 6" ahead; the Redemptor ends 6" past it.
        put(&mut g, 2, "nobz", 0, 14.0, 30.0);
        advance_to(&mut g, 1, Phase::Movement);
        let c = normal_move(&g, 1, "redemptor", 12.0, 0.0);
        match ruleset {
            Ruleset::Tenth => {
                // Refused: through the Nob (and within its Engagement Range on the way).
                let r = rejected(&mut g, c);
                assert!(
                    r.reason.contains("through enemy model")
                        || r.reason.contains("within Engagement Range"),
                    "{r}"
                );
            }
            Ruleset::Eleventh => {
                accepted(&mut g, c);
            }
        }
    }
}

#[test]
fn turning_a_model_costs_no_distance_under_either_ruleset() {
    for ruleset in Ruleset::ALL {
        let mut scene = open_field();
        scene.options.ruleset = ruleset;
        let mut g = deployed_game(scene);
        isolate(&mut g, &[(1, "redemptor")]);
        set_move(&mut g, 1, "redemptor", 1.0);
        put(&mut g, 1, "redemptor", 0, 20.0, 20.0);
        advance_to(&mut g, 1, Phase::Movement);
        // A 1" move that also turns the model half round: the turn adds nothing to it.
        let mut c = normal_move(&g, 1, "redemptor", 1.0, 0.0);
        if let Command::Move { paths, .. } = &mut c {
            paths[0].facing = Some(180.0);
        }
        accepted(&mut g, c);
        let (a, u) = unit_ref(&g, 1, "redemptor");
        assert_eq!(
            g.scene.armies[a].units[u].models[0].facing, 180.0,
            "{ruleset:?}"
        );
    }
}

#[test]
fn the_layout_analysis_under_eleventh_has_a_hidden_layer_and_obscuring_lanes() {
    use std::sync::atomic::AtomicUsize;
    use wartable::design::analysis::analyze_under;
    use wartable::design::input_of;
    let file =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenes/eleventh-sight.ron");
    let eleventh = wartable::data::load_scene(&file).unwrap();
    let tenth = eleventh.clone().under(Some(Ruleset::Tenth));
    let run = |scene: &wartable::data::Scene| {
        analyze_under(
            &input_of(scene),
            &scene.terrain_rules(),
            2.0,
            &AtomicUsize::new(0),
        )
    };
    let (a11, a10) = (run(&eleventh), run(&tenth));
    assert_eq!(a10.hidden_share, None);
    let hidden = a11.hidden.as_ref().unwrap();
    // The cells within (or touching) the ruin's and the barricades' areas, and only those.
    let share = a11.hidden_share.unwrap();
    assert!(share > 0.0 && share < 0.1, "{share}");
    let centre = |x: f32, y: f32| {
        let (c, r) = ((x / hidden.cell) as usize, (y / hidden.cell) as usize);
        hidden.visible[r * hidden.cols + c]
    };
    assert!(centre(36.5, 40.0) && centre(30.5, 24.5));
    assert!(!centre(10.0, 10.0) && !centre(50.0, 10.0));
    // The barricades (Light) close lines under 11th that 10th leaves open.
    assert!(a11.lanes.clear_lines <= a10.lanes.clear_lines);
}

#[test]
fn a_terrain_area_that_is_an_objective_puts_every_model_within_it_in_range_under_eleventh() {
    for ruleset in Ruleset::ALL {
        let mut scene = open_field();
        scene.options.ruleset = ruleset;
        let mut g = deployed_game(scene);
        isolate(&mut g, &[(1, "eliminators")]);
        let marker = 0;
        let id = g.scene.objectives[marker].id.clone();
        let at = g.scene.objectives[marker].at;
        // The layout makes a 12" square round the marker one terrain area that is the objective.
        let outline = rect(at.0 - 6.0, at.1 - 6.0, at.0 + 6.0, at.1 + 6.0);
        let layout = std::sync::Arc::make_mut(&mut g.scene.layout);
        layout.areas.push(TerrainArea {
            id: "objective-area".into(),
            outline,
            pieces: Vec::new(),
            category: FeatureCategory::Exposed,
            objective: Some(id),
        });
        // An Eliminator 5" from the marker's centre: out of the marker's 3" range, within the
        // area.
        put(&mut g, 1, "eliminators", 0, at.0 + 5.0, at.1);
        let (a, u) = unit_ref(&g, 1, "eliminators");
        let r = wartable::game::sight::ModelRef {
            army: a,
            unit: u,
            model: 0,
        };
        assert_eq!(
            g.in_range_of_objective(r, marker),
            ruleset == Ruleset::Eleventh,
            "{ruleset:?}"
        );
        // Farther than the area: out of range under both.
        put(&mut g, 1, "eliminators", 0, at.0 + 8.0, at.1);
        assert!(!g.in_range_of_objective(r, marker));
    }
}

/// A 12"-long wall `height` inches tall standing across the table at x = 20, y 14..26, in a
/// ruin of its own.
fn add_wall(g: &mut Game, height: f32) {
    let mut ruin = piece(
        "test-wall",
        TerrainCategory::Ruin,
        rect(19.5, 14.0, 20.5, 26.0),
        0.0,
    );
    ruin.walls.push(Wall {
        start: Vec2::new(20.0, 14.0),
        end: Vec2::new(20.0, 26.0),
        height,
        thickness: 0.25,
        windows: Vec::new(),
    });
    let layout = std::sync::Arc::make_mut(&mut g.scene.layout);
    layout.areas.push(TerrainArea {
        id: ruin.id.clone(),
        outline: ruin.footprint.clone(),
        pieces: vec![ruin.id.clone()],
        category: FeatureCategory::Dense,
        objective: None,
    });
    layout.pieces.push(ruin);
}

#[test]
fn a_vehicle_passes_a_two_inch_dense_section_under_eleventh_but_not_a_three_inch_one() {
    for (ruleset, height, ok) in [
        (Ruleset::Tenth, 2.0, false),
        (Ruleset::Eleventh, 2.0, true),
        (Ruleset::Eleventh, 3.0, false),
    ] {
        let mut scene = open_field();
        scene.options.ruleset = ruleset;
        let mut g = deployed_game(scene);
        isolate(&mut g, &[(1, "redemptor")]);
        add_wall(&mut g, height);
        set_move(&mut g, 1, "redemptor", 8.0);
        put(&mut g, 1, "redemptor", 0, 16.0, 20.0);
        advance_to(&mut g, 1, Phase::Movement);
        let c = normal_move(&g, 1, "redemptor", 8.0, 0.0);
        if ok {
            accepted(&mut g, c);
        } else {
            let r = rejected(&mut g, c);
            assert!(
                r.reason.contains("through a wall"),
                "{ruleset:?} {height}: {r}"
            );
        }
    }
}

#[test]
fn fly_takes_to_the_skies_under_eleventh_for_two_inches_of_its_move() {
    for ruleset in Ruleset::ALL {
        let mut scene = open_field();
        scene.options.ruleset = ruleset;
        let mut g = deployed_game(scene);
        isolate(&mut g, &[(1, "redemptor")]);
        // A flying Redemptor (a VEHICLE: no way through a 5" wall on the ground).
        let (a, u) = unit_ref(&g, 1, "redemptor");
        std::sync::Arc::make_mut(&mut g.scene.armies[a].units[u].datasheet)
            .keywords
            .push("FLY".into());
        set_move(&mut g, 1, "redemptor", 8.0);
        add_wall(&mut g, 5.0);
        put(&mut g, 1, "redemptor", 0, 16.0, 20.0);
        advance_to(&mut g, 1, Phase::Movement);
        // Over the wall: 7" is more than the 6" left when taking to the skies under 11th;
        // 10th's FLY crosses walls at no cost.
        let far = normal_move(&g, 1, "redemptor", 7.0, 0.0);
        let near = normal_move(&g, 1, "redemptor", 5.5, 0.0);
        match ruleset {
            Ruleset::Tenth => {
                accepted(&mut g, far);
            }
            Ruleset::Eleventh => {
                rejected(&mut g, far);
                accepted(&mut g, near);
            }
        }
    }
}
