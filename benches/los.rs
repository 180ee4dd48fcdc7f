//! Line-of-sight benchmarks on layout 1 with both default armies deployed:
//! (a) one bare parry3d ray cast against the sight index's terrain BVH;
//! (b) one model-pair visibility query (visible + fully visible), averaged over 200 pairs;
//! (c) the unit-pair visibility matrix of both armies;
//! (d) a heatmap of the whole table at 0.5" cells from one deployment zone.
//! (f) the whole layout analysis of layout 1 at 0.5" cells.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use wartable::data::load_scene;
use wartable::game::sight::SceneSight;
use wartable::geometry::Vec3;
use wartable::geometry::heatmap::{heatmap, zone_observers};
use wartable::geometry::sight::{Sampling, SeeThrough};

fn los(c: &mut Criterion) {
    let scene =
        load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/default.ron")).unwrap();
    let sight = SceneSight::new(&scene);
    let index = &sight.index;
    let mut rng = ChaCha8Rng::seed_from_u64(7);

    // (a) Random rays across the table at model heights.
    let rays: Vec<(Vec3, Vec3)> = (0..256)
        .map(|_| {
            let p = Vec3::new(
                rng.random_range(0.0..60.0),
                rng.random_range(0.0..44.0),
                rng.random_range(0.1..3.0),
            );
            let q = Vec3::new(
                rng.random_range(0.0..60.0),
                rng.random_range(0.0..44.0),
                rng.random_range(0.1..3.0),
            );
            (p, q)
        })
        .collect();
    c.bench_function("a: one parry3d ray cast (terrain BVH)", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % rays.len();
            black_box(index.cast_terrain_ray(rays[i].0, rays[i].1))
        })
    });

    // (b) Model pairs across the two armies.
    let n1 = sight
        .models
        .iter()
        .filter(|r| scene.armies[r.army].player == 1)
        .count();
    let n = sight.models.len();
    let pairs: Vec<(usize, usize)> = (0..200)
        .map(|_| (rng.random_range(0..n1), rng.random_range(n1..n)))
        .collect();
    let total_rays: usize = pairs
        .iter()
        .map(|&(o, t)| {
            index
                .model_visibility(o, t, SeeThrough::OwnUnit, &Sampling::FAST)
                .rays
        })
        .sum();
    let visible = pairs
        .iter()
        .filter(|&&(o, t)| {
            index
                .model_visibility(o, t, SeeThrough::OwnUnit, &Sampling::FAST)
                .visible
        })
        .count();
    eprintln!(
        "(b) pairs: {} visible of {}, mean sight lines per query: {:.1}",
        visible,
        pairs.len(),
        total_rays as f64 / pairs.len() as f64
    );
    c.bench_function("b: model-pair visibility query (mean of 200 pairs)", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % pairs.len();
            let (o, t) = pairs[i];
            black_box(index.model_visibility(o, t, SeeThrough::OwnUnit, &Sampling::FAST))
        })
    });
    // The same queries cold: the index's remembered answers cleared before each, so the
    // sight lines are cast every time (the warm figure above is mostly a map lookup).
    c.bench_function(
        "b cold: model-pair visibility query, answers forgotten (mean of 200 pairs)",
        |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % pairs.len();
                let (o, t) = pairs[i];
                index.forget_all_answers();
                black_box(index.model_visibility(o, t, SeeThrough::OwnUnit, &Sampling::FAST))
            })
        },
    );

    // Median over pairs, each timed alone.
    let median = |pairs: &[(usize, usize)]| {
        let mut times: Vec<f64> = pairs
            .iter()
            .map(|&(o, t)| {
                let start = std::time::Instant::now();
                for _ in 0..200 {
                    black_box(index.model_visibility(o, t, SeeThrough::OwnUnit, &Sampling::FAST));
                }
                start.elapsed().as_secs_f64() / 200.0 * 1e6
            })
            .collect();
        times.sort_by(f64::total_cmp);
        times[times.len() / 2]
    };
    eprintln!("(b) median over the 200 pairs: {:.2} us", median(&pairs));

    // (b2) Pairs that see each other (models of different units of one army, near each other),
    // where "fully visible" needs a line to every facing point.
    let seen: Vec<(usize, usize)> = (0..n)
        .flat_map(|o| (0..n).map(move |t| (o, t)))
        .filter(|&(o, t)| index.models()[o].unit != index.models()[t].unit)
        .filter(|&(o, t)| index.model_visible(o, t, SeeThrough::OwnUnit, &Sampling::FAST))
        .step_by(7)
        .take(200)
        .collect();
    let seen_rays: usize = seen
        .iter()
        .map(|&(o, t)| {
            index
                .model_visibility(o, t, SeeThrough::OwnUnit, &Sampling::FAST)
                .rays
        })
        .sum();
    eprintln!(
        "(b2) {} visible pairs, mean sight lines per query: {:.1}, median {:.2} us",
        seen.len(),
        seen_rays as f64 / seen.len().max(1) as f64,
        median(&seen)
    );
    c.bench_function(
        "b2: model-pair visibility query, visible pairs (mean)",
        |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % seen.len();
                let (o, t) = seen[i];
                black_box(index.model_visibility(o, t, SeeThrough::OwnUnit, &Sampling::FAST))
            })
        },
    );
    c.bench_function(
        "b2 cold: model-pair visibility query, visible pairs, answers forgotten (mean)",
        |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % seen.len();
                let (o, t) = seen[i];
                index.forget_all_answers();
                black_box(index.model_visibility(o, t, SeeThrough::OwnUnit, &Sampling::FAST))
            })
        },
    );

    // (e) The desktop's line-of-sight overlay: one unit's report on every enemy model (on the
    // game's kept sight index, brought in step with the table; benches/game.rs measures that
    // upkeep).
    let (mut game, _) = wartable::game::Game::start(scene.clone(), 7);
    game.deploy_as_placed().unwrap();
    let army = game.army_of(1).unwrap();
    let observer = game.find_unit(army, "assault-intercessors").unwrap();
    let mut group = c.benchmark_group("e");
    group.sample_size(10);
    group.bench_function(
        "e: LOS overlay report, 10 models vs every enemy model",
        |b| b.iter(|| black_box(wartable::app::play::los_report(&game, army, observer))),
    );
    group.finish();

    // (c) Unit-pair matrix of both armies.
    c.bench_function("c: unit-pair visibility matrix, both armies", |b| {
        b.iter(|| black_box(sight.unit_matrix(&scene, &Sampling::FAST)))
    });

    // (d) Heatmap from player 1's zone.
    let zone = scene.deployment.zone_of(1).unwrap();
    let sources = zone_observers(&zone, 2.0, 1.6);
    let map = heatmap(index, &sources, 0.5, 1.6);
    eprintln!(
        "(d) {} observers in the zone, {}x{} cells, {:.1}% visible",
        sources.len(),
        map.cols,
        map.rows,
        map.fraction * 100.0
    );
    let mut group = c.benchmark_group("d");
    group.sample_size(10);
    group.bench_function("d: heatmap 0.5in cells from one deployment zone", |b| {
        b.iter(|| black_box(heatmap(index, &sources, 0.5, 1.6)))
    });
    group.finish();
}

/// (f) The whole layout analysis of `wartable analyze` on layout 1 at 0.5" cells: four
/// heatmaps (two zones, infantry and vehicle), open lanes, objectives.
fn analyze_layout(c: &mut Criterion) {
    let scene =
        load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/layout-1.ron")).unwrap();
    let input = wartable::design::input_of(&scene);
    let done = std::sync::atomic::AtomicUsize::new(0);
    let a = wartable::design::analysis::analyze(&input, 0.5, &done);
    eprintln!(
        "(f) {} x {} cells, P1 infantry {:.1}%, vehicle {:.1}%, {} lanes, rayon threads {}",
        a.grid.0,
        a.grid.1,
        a.zones[0].infantry_visible_share * 100.0,
        a.zones[0].vehicle_visible_share * 100.0,
        a.lanes.count,
        rayon::current_num_threads()
    );
    let mut group = c.benchmark_group("f");
    group.sample_size(10);
    group.bench_function("f: analyze layout 1 at 0.5in cells", |b| {
        b.iter(|| black_box(wartable::design::analysis::analyze(&input, 0.5, &done)))
    });
    group.finish();
}

/// (h) `wartable los` between two 100-model units, cold (every remembered answer forgotten
/// first): one Boyz mob of each big-table army (tests/scenes/big-table.ron) grown to 100
/// models in a 10 x 10 block at 1.5" spacing, the two blocks 23" apart either side of the
/// central ruin, every other unit taken off.
fn hundred_model_units(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut scene = load_scene(&root.join("tests/scenes/big-table.ron")).unwrap();
    for army in &mut scene.armies {
        let player = army.player;
        army.units.retain(|u| u.id == "boyz-2");
        let unit = &mut army.units[0];
        let model = unit.models[1].clone();
        unit.models = (0..100)
            .map(|i| {
                let (col, row) = ((i % 10) as f32, (i / 10) as f32);
                let x = if player == 1 {
                    5.0 + col * 1.5
                } else {
                    41.5 + col * 1.5
                };
                let mut m = model.clone();
                m.position = Vec3::new(x, 15.0 + row * 1.5, 0.0);
                m
            })
            .collect();
    }
    let sight = SceneSight::new(&scene);
    let pick = |s: &str| sight.select(&scene, &s.parse().unwrap()).unwrap();
    let (observers, targets) = (pick("1:boyz-2"), pick("2:boyz-2"));
    let v = sight
        .index
        .unit_visibility(&observers, &targets, &Sampling::FAST);
    eprintln!(
        "(h) {} observers, {} targets: visible {}, fully visible {}, cover {}",
        observers.len(),
        targets.len(),
        v.unit_visible,
        v.unit_fully_visible,
        v.benefit_of_cover
    );
    let mut group = c.benchmark_group("h");
    group.sample_size(20);
    group.bench_function("h: los between two 100-model units, cold", |b| {
        b.iter(|| {
            sight.index.forget_all_answers();
            black_box(
                sight
                    .index
                    .unit_visibility(&observers, &targets, &Sampling::FAST),
            )
        })
    });
    group.finish();
}

criterion_group!(benches, los, analyze_layout, hundred_model_units);
criterion_main!(benches);
