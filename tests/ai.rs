//! The computer players: whole games without a refused command, the opponent beats a player
//! making random legal choices, and the same seed gives the same game.

use std::path::PathBuf;

use rayon::prelude::*;
use wartable::ai::{Ai, GameRecord, RandomPlayer, play_game};
use wartable::data::{Scene, load_scene};

fn scene(name: &str) -> Scene {
    load_scene(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("scenes")
            .join(name),
    )
    .unwrap()
}

fn ai_vs_ai(scene: &Scene, seed: u64) -> GameRecord {
    let (mut a, mut b) = (Ai::new(), Ai::new());
    play_game(scene.clone(), seed, [&mut a, &mut b]).1
}

#[test]
fn the_same_seed_gives_the_same_game() {
    let s = scene("default.ron");
    let first = ai_vs_ai(&s, 3);
    let again = ai_vs_ai(&s, 3);
    assert_eq!(first, again);
    assert!(first.rejected.is_empty(), "{:?}", first.rejected);
    assert!(first.commands > 50);
    // Another seed gives other dice and another game.
    assert_ne!(ai_vs_ai(&s, 4).state_hash, first.state_hash);
}

#[test]
fn fifty_games_on_four_layouts_without_a_refused_command() {
    let scenes: Vec<Scene> = [
        "default.ron",
        "layout-3.ron",
        "layout-5.ron",
        "layout-8.ron",
    ]
    .iter()
    .map(|n| scene(n))
    .collect();
    let records: Vec<GameRecord> = (0..50u64)
        .into_par_iter()
        .map(|k| ai_vs_ai(&scenes[k as usize % scenes.len()], 100 + k))
        .collect();
    for r in &records {
        assert!(r.rejected.is_empty(), "seed {}: {:?}", r.seed, r.rejected);
    }
    // Both sides win some games: the opponent is not lopsided by player number.
    let wins = |p: u8| records.iter().filter(|r| r.winner == Some(p)).count();
    eprintln!(
        "50 AI-vs-AI games: P1 {} wins, P2 {} wins",
        wins(1),
        wins(2)
    );
}

#[test]
fn the_opponent_beats_a_random_player_nine_times_in_ten() {
    let s = scene("default.ron");
    let records: Vec<(u8, GameRecord)> = (0..50u64)
        .into_par_iter()
        .map(|k| {
            // The AI plays player 1 in even games and player 2 in odd ones.
            let ai_player = if k % 2 == 0 { 1 } else { 2 };
            let mut ai = Ai::new();
            let mut random = RandomPlayer::new(1000 + k);
            let brains: [&mut dyn wartable::ai::Brain; 2] = if ai_player == 1 {
                [&mut ai, &mut random]
            } else {
                [&mut random, &mut ai]
            };
            (ai_player, play_game(s.clone(), 500 + k, brains).1)
        })
        .collect();
    let won = records.iter().filter(|(p, r)| r.winner == Some(*p)).count();
    for (p, r) in &records {
        assert!(r.rejected.is_empty(), "seed {}: {:?}", r.seed, r.rejected);
        if r.winner != Some(*p) {
            eprintln!(
                "AI as P{p}, seed {}: winner {:?}, VP {:?}, points lost {:?}",
                r.seed, r.winner, r.vp, r.destroyed_points
            );
        }
    }
    eprintln!("the AI won {won} of 50 games against the random player");
    assert!(won >= 45, "won {won} of 50");
}

/// The desktop's computer player, headless: it plays player 2 through the same command
/// messages as the panels while a stand-in for the person plays player 1; the whole game runs
/// with no refused command and the computer's commands are in the dice log.
#[test]
fn the_computer_plays_its_side_of_a_desktop_game() {
    use bevy::prelude::*;
    use bevy::state::app::StatesPlugin;
    use wartable::ai::{Brain, acting_player};
    use wartable::app::computer::{self, Computer};
    use wartable::app::menu::Screen;
    use wartable::app::play::{self, PlayState};
    use wartable::rules::phase::Stage;
    use wartable::sim::battle::{ActiveGame, GameCommand};
    use wartable::sim::game::Game;

    let (game, _) = Game::start(scene("default.ron"), 21);
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin))
        .init_state::<Screen>()
        .init_resource::<ButtonInput<KeyCode>>()
        .add_plugins((wartable::sim::plugin, play::plugin, computer::plugin))
        .insert_resource(ActiveGame {
            game: Some(game),
            save: None,
            autosave: None,
        })
        .insert_resource(Computer::new(2));
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Table);
    app.finish();
    app.cleanup();
    app.update();
    app.world_mut().resource_mut::<PlayState>().hotseat = false;
    let mut person = wartable::ai::Ai::new();
    let mut frames = 0;
    let mut refused = Vec::new();
    loop {
        app.world_mut().resource_mut::<Computer>().skip = true;
        let game = app.world().resource::<ActiveGame>().game.clone().unwrap();
        if game.stage == Stage::GameOver || frames > 20_000 {
            break;
        }
        if acting_player(&game) == Some(1) {
            let c = person.next(&game, 1);
            app.world_mut().write_message(GameCommand(c));
        }
        app.update();
        frames += 1;
        if let Some(r) = &app.world().resource::<PlayState>().rejection {
            refused.push(format!("{r:?}"));
        }
    }
    let game = app.world().resource::<ActiveGame>().game.clone().unwrap();
    assert_eq!(
        game.stage,
        Stage::GameOver,
        "after {frames} frames: {}",
        game.describe_now()
    );
    assert!(refused.is_empty(), "{refused:?}");
    let sent = app.world().resource::<Computer>().sent;
    assert!(sent > 50, "the computer sent {sent} commands");
    let log = &app.world().resource::<PlayState>().log;
    assert!(log.iter().any(|l| l.starts_with("COMPUTER")), "{log:?}");
    // No hand-over screens against the computer.
    assert_eq!(app.world().resource::<PlayState>().handover, None);
}
