//! One computer-vs-computer game, command by command with the events that matter, for
//! reading how the levels play: `cargo run --release --example ai_log -- <scene> <seed>
//! <p1 level> <p2 level>`. With `AI_LOG_POSITIONS=1` set, where every unit stands after each
//! Movement phase (centre, live models, closest objective marker).

use std::path::Path;

use wartable::ai::{Ai, Brain, Level};
use wartable::data::load_scene;
use wartable::game::{Game, GameEvent};
use wartable::rules::phase::opponent;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let scene = load_scene(Path::new(args.get(1).map_or("scenes/default.ron", |s| s)))
        .expect("the scene loads");
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let level = |i: usize| -> Level {
        args.get(i)
            .and_then(|s| s.parse().ok())
            .unwrap_or(Level::Hard)
    };
    let mut brains = [Ai::with_level(level(3)), Ai::with_level(level(4))];
    let (mut game, _) = Game::start(scene, seed);
    let mut steps = 0;
    while let Some(player) = game.acting_player() {
        steps += 1;
        if steps > 6000 {
            break;
        }
        let other = opponent(player);
        let command = match brains[usize::from(other - 1)].react(&game, other) {
            Some(r) => r,
            None => brains[usize::from(player - 1)].next(&game, player),
        };
        let at = game.describe_now();
        let movement_ends = game.phase == wartable::rules::phase::Phase::Movement
            && matches!(command, wartable::game::Command::EndPhase { .. });
        match game.apply(&command) {
            Ok(events) => {
                let shown: Vec<String> = events
                    .iter()
                    .filter(|e| {
                        matches!(
                            e,
                            GameEvent::SetUp { .. }
                                | GameEvent::Embarked { .. }
                                | GameEvent::ChargeDeclared { .. }
                                | GameEvent::ChargeMoved { .. }
                                | GameEvent::StratagemUsed { .. }
                                | GameEvent::UnitDestroyed { .. }
                                | GameEvent::VictoryPoints { .. }
                                | GameEvent::DestroyedInReserves { .. }
                                | GameEvent::ReservesDeclared { .. }
                                | GameEvent::Attacked { .. }
                                | GameEvent::ObjectiveControl { .. }
                                | GameEvent::SecondaryDrawn { .. }
                                | GameEvent::SecondaryDiscarded { .. }
                                | GameEvent::SecondaryShuffledBack { .. }
                        )
                    })
                    .map(ToString::to_string)
                    .collect();
                if !matches!(command, wartable::game::Command::EndPhase { .. }) || !shown.is_empty()
                {
                    println!(
                        "[{at}] P{} {}",
                        command.player(),
                        wartable::ai::summary(&command)
                    );
                    for s in shown {
                        println!("      {s}");
                    }
                }
                if movement_ends && std::env::var_os("AI_LOG_POSITIONS").is_some() {
                    positions(&game);
                }
            }
            Err(r) => println!("[{at}] REFUSED {}: {r}", wartable::ai::summary(&command)),
        }
    }
    println!("VP {:?} winner {:?}", game.vp, game.winner);
}

/// Where each unit on the table stands after a Movement phase: its centre (inches), its live
/// models and the closest objective marker with the distance to it (`AI_LOG_POSITIONS=1`).
fn positions(game: &Game) {
    for (army, sa) in game.scene.armies.iter().enumerate() {
        for u in game.unit_roots(army) {
            let live = game.live_models(army, u);
            if live.is_empty() {
                continue;
            }
            let c = wartable::ai::centre(game, army, u);
            let closest = game
                .scene
                .objectives
                .iter()
                .map(|o| (o.id.as_str(), o.at.vec().distance(c.truncate())))
                .min_by(|a, b| a.1.total_cmp(&b.1));
            if let Some((id, d)) = closest {
                println!(
                    "        P{} {:24} {:2} models at ({:4.1}, {:4.1}), {d:4.1}\" from {id}",
                    sa.player,
                    game.unit_id(army, u),
                    live.len(),
                    c.x,
                    c.y
                );
            }
        }
    }
}
