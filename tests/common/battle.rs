//! Helpers for battle-engine tests: a deployed game on the open-field scene, direct set-up of
//! a scenario's positions, and running phases forward.

#![allow(dead_code)]

use std::path::Path;

use wartable::data::{Scene, load_scene};
use wartable::game::sight::ModelRef;
use wartable::game::{Command, Game, GameEvent, ModelPath, Rejection};
use wartable::geometry::Vec3;
use wartable::rules::phase::{Phase, Stage};

/// The open-field test scene.
pub fn open_field() -> Scene {
    load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenes/open-field.ron")).unwrap()
}

/// The open-field scene (Search and Destroy: player 1's zone is the bottom-left quarter with
/// home objective `attacker-home` at (14, 10); player 2's the top-right with `defender-home`
/// at (46, 34); `centre`, `north-west` (14, 34) and `south-east` (46, 10) in No Man's Land)
/// playing `mission` (a file name in scenes/missions without `.ron`) with the 2025-26
/// secondary deck.
pub fn mission_scene(mission: &str) -> Scene {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut scene = open_field();
    scene.mission =
        wartable::data::resolve::load_mission(&root.join(format!("scenes/missions/{mission}.ron")))
            .unwrap()
            .into();
    scene.secondary_deck = Some(
        wartable::data::resolve::load_secondary_deck(
            &root.join("scenes/missions/secondary-deck-2025.ron"),
        )
        .unwrap()
        .into(),
    );
    scene
}

/// A game on `scene` with the first seed from 1 whose roll-off after deployment gives player 1
/// the first turn, deployed where the scene stands (through Deploy commands), past any Scout
/// moves, at battle round 1, player 1's Command phase.
pub fn deployed_game(scene: Scene) -> Game {
    let mut game = (1..)
        .map(|s| {
            let (mut g, _) = Game::start(scene.clone(), s);
            deploy_all(&mut g);
            g
        })
        .find(|g| g.first_player == 1)
        .unwrap();
    while game.stage == Stage::Scouts {
        let p = game.active_player;
        game.apply(&Command::EndPhase { player: p }).unwrap();
    }
    assert_eq!(game.stage, Stage::Battle);
    assert_eq!((game.battle_round, game.active_player), (1, 1));
    game
}

/// The open field played under `ruleset`, deployed ([`deployed_game`]), with the core rules
/// only ([`core_rules_only`]): for the tests of one edition against the other.
pub fn game_under(ruleset: wartable::rules::Ruleset) -> Game {
    let mut scene = open_field();
    scene.options.ruleset = ruleset;
    let mut g = deployed_game(scene);
    core_rules_only(&mut g);
    g
}

/// Takes every army's army rules and Detachment away (its datasheet abilities stay): for tests
/// of the core rules and the Core Stratagems alone.
pub fn core_rules_only(game: &mut Game) {
    for a in &mut game.scene.armies {
        a.rules = Default::default();
    }
    game.rules_changed();
}

/// Deploys every unit where the scene stands, players alternating.
pub fn deploy_all(game: &mut Game) {
    game.deploy_as_placed().unwrap();
    assert!(
        !matches!(game.stage, Stage::Setup | Stage::Deployment),
        "every unit deployed"
    );
}

/// Ends phases until it is `player`'s `phase`.
pub fn advance_to(game: &mut Game, player: u8, phase: Phase) -> Vec<GameEvent> {
    let mut events = Vec::new();
    for _ in 0..40 {
        if game.active_player == player && game.phase == phase {
            return events;
        }
        let p = game.active_player;
        events.extend(
            game.apply(&Command::EndPhase { player: p })
                .unwrap_or_else(|r| panic!("EndPhase at {}: {r}", game.describe_now())),
        );
    }
    panic!("never reached player {player}'s {phase:?}");
}

/// The (army, unit) indices of `player`'s unit `id`.
pub fn unit_ref(game: &Game, player: u8, id: &str) -> (usize, usize) {
    let army = game.army_of(player).unwrap();
    (army, game.find_unit(army, id).unwrap())
}

/// Puts `player`'s unit `id` aboard their TRANSPORT `transport` (scenario set-up, outside the
/// rules).
pub fn embark(game: &mut Game, player: u8, id: &str, transport: &str) {
    let (army, unit) = unit_ref(game, player, id);
    let (_, t) = unit_ref(game, player, transport);
    game.units[army][unit].location = wartable::game::Location::Embarked(t);
}

/// Puts a model at (x, y) on the table (scenario set-up, outside the rules).
pub fn put(game: &mut Game, player: u8, unit: &str, model: usize, x: f32, y: f32) {
    let army = game.army_of(player).unwrap();
    let u = game.find_unit(army, unit).unwrap();
    game.scene.armies[army].units[u].models[model].position = Vec3::new(x, y, 0.0);
}

/// Puts a unit's models in a line along x from (x, y), `gap` inches between centres.
pub fn put_line(game: &mut Game, player: u8, unit: &str, x: f32, y: f32, gap: f32) {
    let army = game.army_of(player).unwrap();
    let u = game.find_unit(army, unit).unwrap();
    for m in 0..game.units[army][u].models.len() {
        put(game, player, unit, m, x + gap * m as f32, y);
    }
}

/// Puts a unit's models in rows of `per_row` along x from `(x, y)`, the rows stacked along y,
/// `gap` inches between centres.
pub fn put_rows(
    game: &mut Game,
    player: u8,
    unit: &str,
    (x, y): (f32, f32),
    gap: f32,
    per_row: usize,
) {
    let army = game.army_of(player).unwrap();
    let u = game.find_unit(army, unit).unwrap();
    for m in 0..game.units[army][u].models.len() {
        let (col, row) = ((m % per_row) as f32, (m / per_row) as f32);
        put(game, player, unit, m, x + gap * col, y + gap * row);
    }
}

/// A Normal move of every model of the unit by (dx, dy) ([`shift`]).
pub fn normal_move(game: &Game, player: u8, unit: &str, dx: f32, dy: f32) -> Command {
    Command::Move {
        player,
        unit: unit.to_string(),
        mode: wartable::rules::movement::MoveMode::Normal,
        paths: shift(game, player, unit, dx, dy),
    }
}

/// A model's position.
pub fn pos(game: &Game, player: u8, unit: &str, model: usize) -> Vec3 {
    let army = game.army_of(player).unwrap();
    let u = game.find_unit(army, unit).unwrap();
    game.scene.armies[army].units[u].models[model].position
}

/// The index of the scene's objective marker `id` (panics when there is none).
pub fn objective(game: &Game, id: &str) -> usize {
    game.scene
        .objectives
        .iter()
        .position(|o| o.id == id)
        .unwrap_or_else(|| panic!("no objective marker {id}"))
}

/// Every model of the unit moved by (dx, dy), as paths.
pub fn shift(game: &Game, player: u8, unit: &str, dx: f32, dy: f32) -> Vec<ModelPath> {
    let army = game.army_of(player).unwrap();
    let u = game.find_unit(army, unit).unwrap();
    game.live_models(army, u)
        .iter()
        .map(|r: &ModelRef| {
            let p = game.scene.armies[army].units[r.unit].models[r.model].position;
            ModelPath {
                model: r.model,
                unit: Some(game.unit_id(army, r.unit).to_string()),
                path: vec![(p.x + dx, p.y + dy, p.z)],
                facing: None,
            }
        })
        .collect()
}

/// Applies a command that must be rejected; checks that [`Game::check`] refuses it too (for
/// the same reason; an Advance, which check judges with a roll of 6, under the same rule),
/// that the game is unchanged, and returns why.
pub fn rejected(game: &mut Game, c: Command) -> Rejection {
    let before = game.state_hash();
    let draws = game.rng.draws();
    let checked = game.check(&c);
    let r = game.apply(&c).expect_err("the command should be rejected");
    let advance = matches!(
        c,
        Command::Move {
            mode: wartable::rules::movement::MoveMode::Advance,
            ..
        }
    );
    match checked {
        Err(k) if advance => assert_eq!(k.rule, r.rule, "check and apply disagree on {c:?}"),
        k => assert_eq!(k, Err(r.clone()), "check and apply disagree on {c:?}"),
    }
    assert_eq!(
        game.state_hash(),
        before,
        "a rejected command changed the game"
    );
    assert_eq!(game.rng.draws(), draws, "a rejected command rolled dice");
    r
}

/// Applies a command that must be accepted; checks that [`Game::check`] accepts it too.
pub fn accepted(game: &mut Game, c: Command) -> Vec<GameEvent> {
    let what = format!("{c:?}");
    if let Err(r) = game.check(&c) {
        panic!("check refuses {what}, which apply should accept: {r}");
    }
    game.apply(&c)
        .unwrap_or_else(|r| panic!("{what} rejected: {r}"))
}

/// Clears the table for a scenario: every unit except `keep` (and their Leaders or Bodyguards)
/// is removed, but for one anchor per army parked in a far corner so no army is destroyed.
pub fn isolate(game: &mut Game, keep: &[(u8, &str)]) {
    let anchors = [
        (1u8, "ballistus", 4.0f32, 40.0f32),
        (2, "battlewagon", 54.0, 4.0),
    ];
    for a in 0..game.units.len() {
        let player = game.player_of(a);
        for u in 0..game.units[a].len() {
            let root = game.combined(a, u)[0];
            let id = game.unit_id(a, u).to_string();
            let root_id = game.unit_id(a, root).to_string();
            let kept = keep
                .iter()
                .any(|(p, k)| *p == player && (*k == id || *k == root_id));
            if let Some(&(_, _, x, y)) = anchors.iter().find(|(p, k, ..)| *p == player && *k == id)
            {
                if !kept {
                    put(game, player, &id, 0, x, y);
                }
                continue;
            }
            if !kept {
                game.units[a][u].location = wartable::game::Location::Destroyed;
                for m in &mut game.units[a][u].models {
                    m.alive = false;
                }
            }
        }
    }
}

/// The defending player's Pass when attacks wait with their targets selected (a Go to Ground
/// or Smokescreen was possible); the events of their resolution, or none when nothing waits.
pub fn pass_if_waiting(game: &mut Game) -> Vec<GameEvent> {
    match &game.pending_shot {
        Some(p) => {
            let pass = Command::Pass {
                player: wartable::rules::phase::opponent(p.player),
            };
            accepted(game, pass)
        }
        None => Vec::new(),
    }
}

/// Applies a Shoot that must be accepted and, if the defender could react, has it pass: the
/// events of both (targets selected, then the attacks).
pub fn shot(game: &mut Game, c: Command) -> Vec<GameEvent> {
    let mut events = accepted(game, c);
    events.extend(pass_if_waiting(game));
    events
}
