//! Accuracy of the game's line-of-sight sampling (`Sampling::FAST`) against the dense reference
//! (`Sampling::DENSE`, 64 x 64 = 4096 sight lines per pair) on random model pairs in all 8
//! Chapter Approved layouts.
//!
//! Run: `cargo run --profile bench --example los_accuracy [pairs per layout] [seed]`.
//! Models are infantry (32 mm, 1.6"), heavy infantry (40 mm, 1.8"), a walker (60 mm, 3.5") or a
//! vehicle hull (6" x 3.5", 3"), at random places on the table clear of walls and of floor slabs
//! (no model stands inside a floor), on the ground or (a third of the time when infantry stands
//! over a ruin's floor) on that floor.

use std::path::Path;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use wartable::data::resolve::load_layout;
use wartable::geometry::sight::{Sampling, SeeThrough, SightIndex, SightModel};
use wartable::geometry::{Base, ModelSolid, TerrainCategory, Vec2, Vec3, polygon};

fn main() {
    let mut args = std::env::args().skip(1);
    let pairs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(250);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2026);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let kinds = [
        (Base::Round(32.0), 1.6),
        (Base::Round(40.0), 1.8),
        (Base::Round(60.0), 3.5),
        (
            Base::Hull {
                length: 6.0,
                width: 3.5,
            },
            3.0,
        ),
    ];
    let (mut total, mut agree_visible, mut agree_fully) = (0usize, 0usize, 0usize);
    let (mut fast_rays, mut dense_rays) = (0usize, 0usize);
    let mut worst: Vec<String> = Vec::new();
    let started = std::time::Instant::now();
    for layout_no in 1..=8 {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("scenes/layouts/layout-{layout_no}.ron"));
        let layout = load_layout(&path).expect("layout loads");
        let mut index = SightIndex::new(&layout.pieces, true);
        let walls: Vec<Vec<Vec2>> = layout
            .pieces
            .iter()
            .flat_map(|p| p.wall_solids(true))
            .map(|b| {
                let (s, c) = b.yaw_radians.sin_cos();
                let h = b.half_extents;
                [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
                    .iter()
                    .map(|(x, y)| {
                        let l = Vec2::new(x * (h.x + 0.05), y * (h.y + 0.05));
                        b.centre.truncate() + Vec2::new(l.x * c - l.y * s, l.x * s + l.y * c)
                    })
                    .collect()
            })
            .collect();
        let place = |rng: &mut ChaCha8Rng| loop {
            let (base, height) = kinds[rng.random_range(0..kinds.len())];
            let r = base.bounding_radius_inches();
            let c = Vec2::new(rng.random_range(r..60.0 - r), rng.random_range(r..44.0 - r));
            let facing = rng.random_range(0.0..360.0);
            let outline = base.outline(c, facing);
            if walls
                .iter()
                .any(|w| polygon::polygons_intersect(&outline, w))
            {
                continue;
            }
            // Infantry over a ruin with a floor stands on it a third of the time.
            let floor = layout.pieces.iter().find(|p| {
                p.category == TerrainCategory::Ruin
                    && p.floors
                        .iter()
                        .any(|f| base.wholly_within(c, facing, &f.area))
            });
            let z = match floor {
                Some(p) if height < 2.0 && rng.random_bool(1.0 / 3.0) => p.floors[0].height,
                _ => 0.0,
            };
            // A model cannot stand under a floor lower than itself: it would be inside the slab.
            let under_low_floor = layout.pieces.iter().flat_map(|p| &p.floors).any(|f| {
                f.height > z
                    && f.height - 0.15 < z + height
                    && polygon::polygons_intersect(&outline, &f.area)
            });
            if under_low_floor {
                continue;
            }
            return SightModel {
                unit: 0,
                solid: ModelSolid::new(base, Vec3::new(c.x, c.y, z), facing, height),
                towering: false,
                aircraft: false,
                infantry: height < 2.0,
            };
        };
        for _ in 0..pairs {
            let mut o = place(&mut rng);
            let mut t = place(&mut rng);
            o.unit = 0;
            t.unit = 1;
            if wartable::geometry::measure::bases_overlap(&o.solid, &t.solid) {
                continue;
            }
            index.set_models(vec![o.clone(), t.clone()]);
            let fast = index.model_visibility(0, 1, SeeThrough::OwnUnit, &Sampling::FAST);
            let dense = index.model_visibility(0, 1, SeeThrough::OwnUnit, &Sampling::DENSE);
            total += 1;
            fast_rays += fast.rays;
            dense_rays += dense.rays;
            if fast.visible == dense.visible {
                agree_visible += 1;
            }
            if fast.fully_visible == dense.fully_visible {
                agree_fully += 1;
            }
            if fast.visible != dense.visible || fast.fully_visible != dense.fully_visible {
                worst.push(format!(
                    "layout {layout_no}: observer {:?} at ({:.1}, {:.1}, {:.1}) target {:?} at ({:.1}, {:.1}, {:.1}): fast visible {} fully {}, dense visible {} fully {}{}",
                    o.solid.base,
                    o.solid.centre.x,
                    o.solid.centre.y,
                    o.solid.z,
                    t.solid.base,
                    t.solid.centre.x,
                    t.solid.centre.y,
                    t.solid.z,
                    fast.visible,
                    fast.fully_visible,
                    dense.visible,
                    dense.fully_visible,
                    dense
                        .not_fully_because
                        .as_ref()
                        .or(fast.not_fully_because.as_ref())
                        .map(|b| format!("; {b}"))
                        .unwrap_or_default()
                ));
            }
        }
    }
    let pct = |n: usize| 100.0 * n as f64 / total.max(1) as f64;
    println!("pairs: {total} over 8 layouts ({pairs} drawn per layout, seed {seed})");
    println!(
        "visible agreement:       {:.2}% ({agree_visible}/{total})",
        pct(agree_visible)
    );
    println!(
        "fully visible agreement: {:.2}% ({agree_fully}/{total})",
        pct(agree_fully)
    );
    println!(
        "mean sight lines per pair: fast {:.1}, dense {:.1}",
        fast_rays as f64 / total.max(1) as f64,
        dense_rays as f64 / total.max(1) as f64
    );
    println!("disagreements: {}", worst.len());
    for w in worst.iter().take(10) {
        println!("  {w}");
    }
    println!("time: {:.1} s", started.elapsed().as_secs_f64());
}
