//! The battle engine's sight index on the default scene with both armies deployed:
//! (s1) `Game::sight()` on an unchanged table, as every shooting and Stratagem check asks it;
//! (s2) `Game::sight()` right after one model moved (the shape of a move, then a shot);
//! (s3) `Game::sight()` right after one model was destroyed or came back (the set of models on
//! the table changed);
//! (s4) cloning the game (the computer player and the legality trials clone games a lot), then
//! asking the clone for its sight index.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use wartable::data::load_scene;
use wartable::game::Game;
use wartable::geometry::Vec3;

/// A game on the default scene with every unit deployed where the scene stands.
fn deployed() -> Game {
    let scene = load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/default.ron"))
        .expect("the default scene loads");
    let (mut game, _) = Game::start(scene, 7);
    game.deploy_as_placed()
        .expect("deploying where the scene stands is legal");
    game
}

fn sight(c: &mut Criterion) {
    let mut game = deployed();
    let models = game.sight().models.len();
    eprintln!("{models} models on the table");

    c.bench_function("s1: Game::sight(), unchanged table", |b| {
        b.iter(|| black_box(game.sight().models.len()))
    });

    // One model of player 1's first unit steps a quarter inch back and forth.
    let army = game.army_of(1).expect("player 1 has an army");
    let home = game.scene.armies[army].units[0].models[0].position;
    let mut step = false;
    c.bench_function("s2: Game::sight() after one model moved", |b| {
        b.iter(|| {
            step = !step;
            let shift = if step { 0.25 } else { 0.0 };
            game.scene.armies[army].units[0].models[0].position = home + Vec3::new(shift, 0.0, 0.0);
            black_box(game.sight().models.len())
        })
    });
    game.scene.armies[army].units[0].models[0].position = home;

    // The same model leaves the table and comes back.
    c.bench_function("s3: Game::sight() after one model left or came back", |b| {
        b.iter(|| {
            let m = &mut game.units[army][0].models[0];
            m.alive = !m.alive;
            black_box(game.sight().models.len())
        })
    });
    game.units[army][0].models[0].alive = true;

    game.sight();
    c.bench_function("s4: clone the game, then Game::sight() on the clone", |b| {
        b.iter(|| {
            let copy = game.clone();
            black_box(copy.sight().models.len())
        })
    });
}

criterion_group!(benches, sight);
criterion_main!(benches);
