//! Attack benchmarks: the profile, 40 attacks (S5 AP-1 D2, SUSTAINED HITS 1, BS 3+)
//! against ten 2-wound T4 Sv 4+ models with Feel No Pain 5+:
//! (a) the exact distribution; (b) a 100,000-trial Monte Carlo of the same attack;
//! (c) one seeded resolution with its event log.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use wartable::rules::attack::exact::distribution;
use wartable::rules::attack::roll::{monte_carlo, resolve};
use wartable::rules::attack::{AttackContext, TargetModel, TargetUnit, WeaponGroup};
use wartable::rules::rng::GameRng;
use wartable::rules::{DiceExpr, WeaponAbility, WeaponProfile};

fn setup() -> (Vec<WeaponGroup>, TargetUnit, AttackContext) {
    let profile = WeaponProfile {
        profile: None,
        name: "bench gun".into(),
        range: Some(24.0),
        attacks: DiceExpr::fixed(2),
        skill: Some(3),
        strength: 5,
        ap: -1,
        damage: DiceExpr::fixed(2),
        abilities: vec![WeaponAbility::SustainedHits(DiceExpr::fixed(1))],
    };
    let model = TargetModel {
        name: "trooper".into(),
        wounds: 2,
        wounds_remaining: 2,
        save: 4,
        invulnerable_save: None,
        feel_no_pain: Some(5),
        leader: false,
        has_cover: false,
        allocation_rank: 0,
        allocated_this_phase: false,
    };
    let target = TargetUnit {
        name: "target".into(),
        toughness: 4,
        keywords: vec!["INFANTRY".into()],
        stealth: false,
        models: vec![model; 10],
    };
    // 20 bearers with 2 attacks each: 40 attacks.
    (
        vec![WeaponGroup::new(profile, 20)],
        target,
        AttackContext::default(),
    )
}

fn attack(c: &mut Criterion) {
    let (groups, target, ctx) = setup();
    c.bench_function("attack/exact_40_attacks_sustained_fnp", |b| {
        b.iter(|| distribution(black_box(&groups), black_box(&target), black_box(&ctx)))
    });
    let mut slow = c.benchmark_group("attack_monte_carlo");
    slow.sample_size(10);
    slow.bench_function("attack/monte_carlo_100k_40_attacks_sustained_fnp", |b| {
        b.iter(|| monte_carlo(black_box(&groups), black_box(&target), &ctx, 100_000, 1))
    });
    slow.finish();
    c.bench_function("attack/roll_once_with_event_log", |b| {
        let mut rng = GameRng::seeded(3);
        b.iter(|| {
            let mut log = Vec::new();
            resolve(black_box(&groups), &target, &ctx, &mut rng, &mut log);
            log
        })
    });
}

criterion_group!(benches, attack);
criterion_main!(benches);
