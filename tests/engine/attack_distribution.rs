//! Exact attack distributions: hand-computed values, and agreement with the Monte Carlo
//! resolver (100,000 trials, fixed seed) on varied profiles.

use crate::common;
use common::{dice, weapon};
use wartable::rules::attack::exact::distribution;
use wartable::rules::attack::roll::{monte_carlo, resolve};
use wartable::rules::attack::{
    AttackContext, CommandReroll, Reroll, TargetModel, TargetUnit, WeaponGroup,
};
use wartable::rules::rng::GameRng;
use wartable::rules::{WeaponAbility, WeaponProfile};

fn model(w: u8, sv: u8, inv: Option<u8>, fnp: Option<u8>, leader: bool) -> TargetModel {
    TargetModel {
        name: if leader { "leader" } else { "trooper" }.into(),
        wounds: w,
        wounds_remaining: w,
        save: sv,
        invulnerable_save: inv,
        feel_no_pain: fnp,
        leader,
        has_cover: false,
        allocation_rank: 0,
        allocated_this_phase: false,
    }
}

fn unit(n: usize, t: u8, w: u8, sv: u8, inv: Option<u8>, fnp: Option<u8>) -> TargetUnit {
    TargetUnit {
        name: "target".into(),
        toughness: t,
        keywords: vec!["INFANTRY".into()],
        stealth: false,
        models: (0..n).map(|_| model(w, sv, inv, fnp, false)).collect(),
    }
}

fn group(profile: WeaponProfile, bearers: u32) -> WeaponGroup {
    WeaponGroup::new(profile, bearers)
}

fn assert_close(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() < 1e-9, "{what}: {a} vs {b}");
}

#[test]
fn exact_matches_the_hand_computed_simple_profile() {
    // 10 attacks, BS 3+, S4 vs T4, AP -1 vs Sv 3+, D1: 10 * 2/3 * 1/2 * 1/2 wounds.
    let target = unit(10, 4, 1, 3, None, None);
    let d = distribution(
        &[group(weapon("1", 3, 4, -1, "1", vec![]), 10)],
        &target,
        &AttackContext::default(),
    );
    assert_close(
        d.expected_wounds_lost,
        10.0 * (2.0 / 3.0) * 0.5 * 0.5,
        "mean wounds",
    );
    assert_close(d.expected_models_destroyed, 10.0 / 6.0, "mean models");
    // Each attack independently kills with p = 1/6: binomial(10, 1/6).
    let p: f64 = 1.0 / 6.0;
    for (k, pk) in d.models_destroyed.iter().enumerate() {
        let choose = (0..k).fold(1.0, |c, i| c * (10 - i) as f64 / (i + 1) as f64);
        let expected = choose * p.powi(k as i32) * (1.0 - p).powi(10 - k as i32);
        assert_close(*pk, expected, &format!("P({k} destroyed)"));
    }
    assert_close(d.models_destroyed.iter().sum(), 1.0, "total probability");
}

#[test]
fn damage_does_not_carry_over_between_models() {
    // D3 damage against 2-wound models: each unsaved attack kills at most one model.
    // 6 auto-hitting (TORRENT) S8 attacks vs T4 (2+), AP -6 (no save), D6 damage, 2W models.
    let target = unit(3, 4, 2, 3, None, None);
    let d = distribution(
        &[group(
            weapon("1", 3, 8, -6, "D6", vec![WeaponAbility::Torrent]),
            2,
        )],
        &target,
        &AttackContext::default(),
    );
    // Wound roll 2+: 5/6. Any damage >= 2 kills a fresh model; a 1 leaves it on 1 wound.
    // Two attacks: both wound and at least... compute by enumeration of the chain by hand:
    // per attack outcome: miss 1/6, dmg1 5/36, dmg2+ 25/36.
    let (miss, one, kill) = (1.0 / 6.0, 5.0 / 36.0, 25.0 / 36.0);
    // Wounds lost after two attacks:
    // 0: miss,miss. 1: (one,miss)|(miss,one). 2: one,one | kill,miss | miss,kill | one,kill.
    // 3: kill,one. 4: kill,kill.
    let p0 = miss * miss;
    let p1 = 2.0 * one * miss;
    let p2 = one * one + 2.0 * kill * miss + one * kill;
    let p3 = kill * one;
    let p4 = kill * kill;
    for (k, expected) in [p0, p1, p2, p3, p4].iter().enumerate() {
        assert_close(d.wounds_lost[k], *expected, &format!("P({k} wounds lost)"));
    }
}

#[test]
fn feel_no_pain_per_wound_is_exact() {
    // One unsaveable D2 attack hitting on 2+ vs a single 2-wound model with FNP 5+.
    let target = unit(1, 4, 2, 7, None, Some(5));
    let mut profile = weapon("1", 2, 8, -6, "2", vec![]);
    profile.skill = Some(2);
    let d = distribution(&[group(profile, 1)], &target, &AttackContext::default());
    let hit_wound = (5.0 / 6.0) * (5.0 / 6.0);
    let lose = 2.0 / 3.0;
    assert_close(
        d.wounds_lost[2],
        hit_wound * lose * lose,
        "both wounds lost",
    );
    assert_close(
        d.wounds_lost[1],
        hit_wound * 2.0 * lose * (1.0 - lose),
        "one lost",
    );
}

#[test]
fn sustained_and_lethal_hits_by_hand() {
    // One attack, BS 4+, SUSTAINED HITS 1 and LETHAL HITS, S4 vs T4, no save, D1, 1W models.
    // Crit (1/6): auto-wound + 1 extra hit that wounds on 4+ -> 1 + 1/2 expected wounds.
    // Normal hit (2/6): wounds on 4+.
    let target = unit(5, 4, 1, 7, None, None);
    let abilities = vec![
        WeaponAbility::SustainedHits(dice("1")),
        WeaponAbility::LethalHits,
    ];
    let d = distribution(
        &[group(weapon("1", 4, 4, 0, "1", abilities), 1)],
        &target,
        &AttackContext::default(),
    );
    let expected = (1.0 / 6.0) * 1.5 + (2.0 / 6.0) * 0.5;
    assert_close(d.expected_wounds_lost, expected, "mean");
}

#[test]
fn devastating_wounds_carry_over_after_normal_damage() {
    // One D3 devastating attack against 1-wound models: mortal wounds spill into the next
    // models, unlike normal damage. Hits on 2+, wounds on 6 only (S1 vs T4... 6+), crit = 6.
    let target = unit(5, 4, 1, 2, Some(2), None);
    let d = distribution(
        &[group(
            weapon("1", 2, 2, 0, "D3", vec![WeaponAbility::DevastatingWounds]),
            1,
        )],
        &target,
        &AttackContext::default(),
    );
    // Only Critical Wounds can wound (S2 vs T4 needs 6+), and every one is devastating.
    let p_crit = (5.0 / 6.0) * (1.0 / 6.0);
    for k in 1..=3 {
        assert_close(
            d.models_destroyed[k],
            p_crit / 3.0,
            &format!("{k} destroyed"),
        );
    }
}

/// The 20+ varied profiles the Monte Carlo cross-check runs.
#[allow(
    clippy::vec_init_then_push,
    reason = "one push per profile reads as a table, with targets built between them"
)]
fn profiles() -> Vec<(&'static str, Vec<WeaponGroup>, TargetUnit, AttackContext)> {
    use WeaponAbility as A;
    let ctx = AttackContext::default();
    let mut out: Vec<(&'static str, Vec<WeaponGroup>, TargetUnit, AttackContext)> = Vec::new();
    out.push((
        "bolt rifles vs marines",
        vec![group(weapon("2", 3, 4, -1, "1", vec![]), 10)],
        unit(10, 4, 2, 3, None, None),
        ctx.clone(),
    ));
    out.push((
        "sustained FNP benchmark",
        vec![group(
            weapon("40", 3, 5, -1, "2", vec![A::SustainedHits(dice("1"))]),
            1,
        )],
        unit(10, 4, 2, 4, None, Some(5)),
        ctx.clone(),
    ));
    out.push((
        "lethal vs vehicle",
        vec![group(weapon("3", 3, 5, -1, "2", vec![A::LethalHits]), 5)],
        unit(1, 10, 12, 3, None, None),
        ctx.clone(),
    ));
    out.push((
        "devastating D3",
        vec![group(
            weapon("2", 3, 4, 0, "D3", vec![A::DevastatingWounds]),
            5,
        )],
        unit(5, 4, 2, 3, Some(4), None),
        ctx.clone(),
    ));
    out.push((
        "devastating with FNP",
        vec![group(
            weapon("4", 3, 5, -1, "2", vec![A::DevastatingWounds]),
            3,
        )],
        unit(6, 4, 2, 3, None, Some(5)),
        ctx.clone(),
    ));
    out.push((
        "melta in half range",
        vec![WeaponGroup {
            within_half_range: true,
            ..group(weapon("1", 3, 9, -4, "D6", vec![A::Melta(2)]), 2)
        }],
        unit(1, 10, 13, 2, None, Some(6)),
        ctx.clone(),
    ));
    out.push((
        "rapid fire half range",
        vec![WeaponGroup {
            within_half_range: true,
            ..group(weapon("1", 3, 4, 0, "1", vec![A::RapidFire(1)]), 10)
        }],
        unit(20, 3, 1, 5, None, None),
        ctx.clone(),
    ));
    out.push((
        "blast D6 into horde",
        vec![group(weapon("D6", 3, 5, 0, "1", vec![A::Blast]), 2)],
        unit(20, 3, 1, 5, None, None),
        ctx.clone(),
    ));
    out.push((
        "torrent flamers",
        vec![group(
            weapon("D6", 3, 4, 0, "1", vec![A::Torrent, A::IgnoresCover]),
            3,
        )],
        unit(10, 4, 1, 4, None, None),
        AttackContext {
            target_has_cover: true,
            ..ctx.clone()
        },
    ));
    out.push((
        "twin-linked",
        vec![group(weapon("3", 4, 6, -1, "2", vec![A::TwinLinked]), 2)],
        unit(5, 6, 3, 3, None, None),
        ctx.clone(),
    ));
    out.push((
        "anti-infantry 4+ devastating",
        vec![group(
            weapon(
                "2",
                3,
                3,
                0,
                "1",
                vec![A::Anti("INFANTRY".into(), 4), A::DevastatingWounds],
            ),
            5,
        )],
        unit(10, 4, 1, 3, None, None),
        ctx.clone(),
    ));
    out.push((
        "heavy stationary in cover",
        vec![group(weapon("3", 4, 5, -1, "2", vec![A::Heavy]), 3)],
        unit(5, 5, 2, 3, None, None),
        AttackContext {
            remained_stationary: true,
            target_has_cover: true,
            ..ctx.clone()
        },
    ));
    out.push((
        "lance charged melee",
        vec![group(
            WeaponProfile {
                range: None,
                ..weapon("3", 3, 6, -2, "2", vec![A::Lance])
            },
            5,
        )],
        unit(3, 5, 3, 3, None, None),
        AttackContext {
            charged: true,
            ..ctx.clone()
        },
    ));
    out.push((
        "indirect fire not visible",
        vec![group(
            weapon("D6+3", 4, 6, -1, "2", vec![A::IndirectFire, A::Blast]),
            1,
        )],
        unit(10, 4, 2, 4, None, None),
        AttackContext {
            target_visible: false,
            ..ctx.clone()
        },
    ));
    out.push((
        "reroll hits of 1 and failed wounds",
        vec![group(weapon("4", 3, 4, 0, "1", vec![]), 5)],
        unit(10, 4, 1, 4, None, None),
        AttackContext {
            hit_reroll: Reroll::Ones,
            wound_reroll: Reroll::Failed,
            ..ctx.clone()
        },
    ));
    out.push((
        "fishing for crits",
        vec![group(
            weapon("6", 3, 4, -1, "1", vec![A::SustainedHits(dice("2"))]),
            2,
        )],
        unit(10, 4, 1, 3, None, None),
        AttackContext {
            hit_reroll: Reroll::NonCritical,
            ..ctx.clone()
        },
    ));
    out.push((
        "command re-roll hit",
        vec![group(weapon("1", 3, 8, -3, "D6+1", vec![]), 1)],
        unit(1, 9, 10, 2, Some(4), None),
        AttackContext {
            command_reroll: CommandReroll::HitRoll,
            hit_reroll: Reroll::Ones,
            ..ctx.clone()
        },
    ));
    out.push((
        "command re-roll wound",
        vec![group(weapon("3", 3, 4, -1, "2", vec![]), 2)],
        unit(3, 5, 3, 3, None, None),
        AttackContext {
            command_reroll: CommandReroll::WoundRoll,
            ..ctx.clone()
        },
    ));
    out.push((
        "sustained D3",
        vec![group(
            weapon("4", 4, 5, 0, "1", vec![A::SustainedHits(dice("D3"))]),
            3,
        )],
        unit(10, 4, 1, 5, None, None),
        ctx.clone(),
    ));
    out.push((
        "stealth and big guns cap",
        vec![group(weapon("3", 3, 7, -1, "D3", vec![]), 2)],
        TargetUnit {
            stealth: true,
            ..unit(5, 5, 3, 3, None, None)
        },
        AttackContext {
            big_guns_never_tire: true,
            hit_modifier: -1,
            ..ctx.clone()
        },
    ));
    // Attached unit: 5 bodyguards (2W) and a 5W CHARACTER; a normal and a PRECISION weapon.
    let mut attached = unit(5, 4, 2, 3, None, None);
    attached.models.push(model(5, 3, Some(4), None, true));
    out.push((
        "attached unit, bodyguard first",
        vec![group(weapon("2", 3, 5, -1, "2", vec![]), 5)],
        attached.clone(),
        ctx.clone(),
    ));
    out.push((
        "precision devastating vs attached",
        vec![
            group(
                weapon("2", 2, 5, -2, "2", vec![A::Precision, A::DevastatingWounds]),
                2,
            ),
            group(weapon("2", 3, 4, 0, "1", vec![]), 5),
        ],
        attached,
        ctx.clone(),
    ));
    // Already wounded models are allocated to first.
    let mut wounded = unit(3, 5, 3, 3, None, None);
    wounded.models[2].wounds_remaining = 1;
    out.push((
        "wounded model first",
        vec![group(weapon("2", 3, 5, -1, "2", vec![]), 3)],
        wounded,
        ctx.clone(),
    ));
    out.push((
        "two weapons, mixed",
        vec![
            group(weapon("2", 3, 4, -1, "1", vec![A::LethalHits]), 4),
            group(weapon("1", 3, 9, -3, "D6", vec![A::Melta(2)]), 1),
        ],
        unit(4, 5, 3, 3, Some(5), Some(6)),
        ctx.clone(),
    ));
    out
}

/// Checks profile `i` against `trials` Monte Carlo trials (seed 1000 + i): the means within 3
/// standard errors, every probability of models destroyed within 4.5; returns the table line.
fn check_against_monte_carlo(
    i: usize,
    (name, groups, target, ctx): (&str, Vec<WeaponGroup>, TargetUnit, AttackContext),
    trials: u32,
) -> String {
    let exact = distribution(&groups, &target, &ctx);
    let mc = monte_carlo(&groups, &target, &ctx, trials, 1000 + i as u64);
    let n = f64::from(trials).sqrt();
    let se_w = mc.sd_wounds_lost / n;
    let se_m = mc.sd_models_destroyed / n;
    let line = format!(
        "{name}: wounds exact {:.4} mc {:.4} (se {:.4}); models exact {:.4} mc {:.4} (se {:.4})",
        exact.expected_wounds_lost,
        mc.mean_wounds_lost,
        se_w,
        exact.expected_models_destroyed,
        mc.mean_models_destroyed,
        se_m
    );
    assert!(
        (exact.expected_wounds_lost - mc.mean_wounds_lost).abs() <= 3.0 * se_w + 1e-12,
        "{name}: wounds {} vs {} (se {se_w})",
        exact.expected_wounds_lost,
        mc.mean_wounds_lost
    );
    assert!(
        (exact.expected_models_destroyed - mc.mean_models_destroyed).abs() <= 3.0 * se_m + 1e-12,
        "{name}: models {} vs {} (se {se_m})",
        exact.expected_models_destroyed,
        mc.mean_models_destroyed
    );
    // Every probability of the distribution too (binomial standard error, 4.5 sigma).
    for (k, p) in exact.models_destroyed.iter().enumerate() {
        let f = mc.models_destroyed.get(k).copied().unwrap_or(0.0);
        let se = (p * (1.0 - p) / f64::from(trials)).sqrt();
        assert!(
            (p - f).abs() <= 4.5 * se + 1e-9,
            "{name}: P({k} destroyed) {p} vs {f}"
        );
    }
    assert_close(exact.wounds_lost.iter().sum(), 1.0, name);
    line
}

#[test]
fn exact_means_agree_with_monte_carlo() {
    use rayon::prelude::*;
    let trials = 100_000;
    // Each profile has its own seed, so checking them in parallel checks exactly the same.
    let table: Vec<String> = profiles()
        .into_par_iter()
        .enumerate()
        .map(|(i, profile)| check_against_monte_carlo(i, profile, trials))
        .collect();
    assert!(table.len() >= 20);
    for line in table {
        println!("{line}");
    }
}

#[test]
fn the_same_seed_gives_the_same_event_log() {
    let (_, groups, target, ctx) = profiles().swap_remove(21);
    let run = |seed| {
        let mut log = Vec::new();
        let out = resolve(&groups, &target, &ctx, &mut GameRng::seeded(seed), &mut log);
        (log, out)
    };
    let (a, out_a) = run(42);
    let (b, out_b) = run(42);
    assert!(a.len() > 10);
    assert_eq!(a, b);
    assert_eq!(out_a, out_b);
    let (c, _) = run(43);
    assert_ne!(a, c, "a different seed should roll differently");
}
