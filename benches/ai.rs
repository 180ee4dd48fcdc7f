//! One whole AI-vs-AI game of 5 battle rounds on the default scene (deployment, every phase,
//! sight, exact attack previews, legality trials), at the easy and the hard level: the goal is
//! at most 100 ms a game.

use std::path::Path;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use wartable::ai::{Ai, Level, play_game};
use wartable::data::load_scene;

/// The allocator of the `wartable` binary (see src/main.rs), so that the bench measures what
/// `wartable simulate` runs.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn game(c: &mut Criterion) {
    let scene = load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/default.ron"))
        .expect("the default scene loads");
    let mut group = c.benchmark_group("ai");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    let mut seed = 0u64;
    group.bench_function("g: one AI-vs-AI game, default scene", |b| {
        b.iter(|| {
            seed += 1;
            let (mut p1, mut p2) = (Ai::new(), Ai::new());
            let (_, record) = play_game(scene.clone(), seed, [&mut p1, &mut p2]);
            assert!(record.rejected.is_empty(), "{:?}", record.rejected);
            record
        })
    });
    group.bench_function("g: one hard-vs-hard game, default scene", |b| {
        b.iter(|| {
            seed += 1;
            let (mut p1, mut p2) = (Ai::with_level(Level::Hard), Ai::with_level(Level::Hard));
            let (_, record) = play_game(scene.clone(), seed, [&mut p1, &mut p2]);
            assert!(record.rejected.is_empty(), "{:?}", record.rejected);
            record
        })
    });
    // The same with the core rules only (no army rules, Detachment or datasheet ability
    // effects): the cost of the armies' rules (issue 52: at most 20% more).
    let core = core_rules_only(&scene);
    group.bench_function(
        "g: one hard-vs-hard game, default scene, core rules only",
        |b| {
            b.iter(|| {
                seed += 1;
                let (mut p1, mut p2) = (Ai::with_level(Level::Hard), Ai::with_level(Level::Hard));
                let (_, record) = play_game(core.clone(), seed, [&mut p1, &mut p2]);
                assert!(record.rejected.is_empty(), "{:?}", record.rejected);
                record
            })
        },
    );
    group.finish();

    // The exact odds of a shot as the game previews them, with both armies' rules (Oath of
    // Moment on the target, the Ultramarines' and Orks' datasheet abilities and Detachments) and
    // with the core rules only.
    let mut group = c.benchmark_group("preview");
    for (name, s) in [
        ("with the armies' rules", scene.clone()),
        ("core rules only", core),
    ] {
        let mut g = wartable::game::Game::start(s, 3).0;
        g.deploy_as_placed().expect("deploys");
        while g.stage != wartable::rules::phase::Stage::Battle {
            let p = g.active_player;
            g.apply(&wartable::game::Command::EndPhase { player: p })
                .expect("ends");
        }
        // The Intercessors shoot at the Boyz, the Oath of Moment on them (set directly: a
        // what-if, whoever's turn it is).
        let (player, unit, target) = (1u8, "intercessors", "boyz-mob");
        g.effects
            .choices
            .push(wartable::game::effects::RuleChoiceMade {
                player,
                rule: "Oath of Moment".into(),
                pick: Some(target.into()),
                round: 1,
                lasts: wartable::data::faction_rules::Lasts::UntilYourNextCommandPhase,
                by: None,
            });
        // The target set 12" in front of the shooters, in a line (a what-if placement).
        let army = g.army_of(player).expect("army");
        let first = g.live_models(army, g.find_unit(army, unit).expect("unit"))[0];
        let at = g.scene.armies[army].units[first.unit].models[first.model].position;
        let enemy = 1 - army;
        let t = g.find_unit(enemy, target).expect("target");
        let w = [wartable::game::WeaponTarget::new("Bolt rifle", target)];
        // The first spot in front of the shooters from which the shot is possible.
        let spots = [12.0f32, 16.0, 20.0, -12.0, -16.0, -20.0]
            .into_iter()
            .flat_map(|dy| [0.0f32, -8.0, 8.0].into_iter().map(move |dx| (dx, dy)));
        let mut found = false;
        for (dx, dy) in spots {
            for (i, m) in g.scene.armies[enemy].units[t].models.iter_mut().enumerate() {
                m.position = wartable::geometry::Vec3::new(
                    (at.x + dx - 6.0 + 1.4 * (i % 10) as f32).clamp(1.0, 59.0),
                    (at.y + dy + 1.4 * (i / 10) as f32 * dy.signum()).clamp(1.0, 43.0),
                    0.0,
                );
            }
            if g.preview_attacks(player, unit, &w, false).is_ok() {
                found = true;
                break;
            }
        }
        assert!(found, "a spot for the shot");
        group.bench_function(format!("p: preview one unit's shot, {name}"), |b| {
            b.iter(|| g.preview_attacks(player, unit, &w, false).map(|p| p.len()))
        });
    }
    group.finish();

    // The biggest legal table: two 3,000-point Orks armies, 418 models
    // (tests/scenes/big-table.ron), hard against hard. The goal is under 5 s a game.
    let big = load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenes/big-table.ron"))
        .expect("the big table loads");
    let mut group = c.benchmark_group("ai-big");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(60));
    group.bench_function("g: one hard-vs-hard game, 418 models", |b| {
        b.iter(|| {
            seed += 1;
            let (mut p1, mut p2) = (Ai::with_level(Level::Hard), Ai::with_level(Level::Hard));
            let (_, record) = play_game(big.clone(), seed, [&mut p1, &mut p2]);
            assert!(record.rejected.is_empty(), "{:?}", record.rejected);
            record
        })
    });
    group.finish();
}

/// `scene` without the armies' rules: no army rule, Detachment, Enhancement or datasheet
/// ability effect.
fn core_rules_only(scene: &wartable::data::Scene) -> wartable::data::Scene {
    let mut core = scene.clone();
    for a in &mut core.armies {
        a.rules = Default::default();
        for u in &mut a.units {
            u.enhancements.clear();
            for ab in &mut u.datasheet_mut().abilities {
                ab.effects.clear();
            }
        }
    }
    core
}

criterion_group!(benches, game);
criterion_main!(benches);
