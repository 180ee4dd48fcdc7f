//! Loading and setting up scenes: parse every file, check it, place every model.

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use wartable::data::load_scene;

fn scenes(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    for name in ["default.ron", "layout-7.ron"] {
        let path = root.join(name);
        c.bench_function(&format!("load_scene {name}"), |b| {
            b.iter(|| load_scene(std::hint::black_box(&path)).unwrap())
        });
    }
}

criterion_group!(benches, scenes);
criterion_main!(benches);
