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

criterion_group!(benches, game);
criterion_main!(benches);
