//! The desktop's play logic without a window: which panels a unit gets, what a drag commands
//! and the engine's verdict on it, the odds shown before rolling, the line-of-sight report the
//! overlay tints from, undo, starting and loading games, the scripted screenshot starts, and
//! the hand-over between hot-seat players in a headless Bevy app.

use crate::battle;

use std::path::Path;

use battle::*;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use wartable::app::play::{self, DiceLog, Drafting, HandOver, SightStatus, Verdict};
use wartable::app::screens::menu::{self, NewGameForm};
use wartable::app::screens::{Screen, table};
use wartable::app::{reaction, scenario};
use wartable::data::load_scene;
use wartable::game::save::{SaveFile, replay};
use wartable::game::{Command, Game, Rule, WeaponTarget};
use wartable::geometry::Vec3;
use wartable::geometry::sight::{Sampling, SeeThrough};
use wartable::rules::movement::MoveMode;
use wartable::rules::phase::{Phase, Stage};
use wartable::sim::battle::{ActiveGame, GameCommand};

fn unit(game: &Game, player: u8, id: &str) -> (usize, usize) {
    let army = game.army_of(player).unwrap();
    (army, game.find_unit(army, id).unwrap())
}

fn default_scene() -> wartable::data::Scene {
    load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/default.ron")).unwrap()
}

#[test]
fn panels_follow_the_phase_and_the_acting_player() {
    let mut game = deployed_game(open_field());
    advance_to(&mut game, 1, Phase::Movement);
    let (a1, u1) = unit(&game, 1, "intercessors");
    let (a2, u2) = unit(&game, 2, "boyz-mob");
    assert!(play::panels(&game, a1, u1).movement);
    assert_eq!(play::panels(&game, a2, u2), play::Panels::default());
    // A Leader shows its Bodyguard's panels.
    let (_, captain) = unit(&game, 1, "captain");
    assert!(play::panels(&game, a1, captain).movement);
    accepted(
        &mut game,
        Command::RemainStationary {
            player: 1,
            unit: "intercessors".into(),
        },
    );
    assert!(!play::panels(&game, a1, u1).movement, "it has acted");
    advance_to(&mut game, 1, Phase::Shooting);
    let p = play::panels(&game, a1, u1);
    assert!(p.shooting && !p.movement && !p.charge);
    assert_eq!(game.acting_player(), Some(1));
}

/// The open field with only the Intercessors (and their Captain) and the Boyz, the
/// Intercessors in a line at y = 6", in player 1's first Movement phase.
fn intercessors_alone_in_movement() -> Game {
    let mut game = deployed_game(open_field());
    isolate(
        &mut game,
        &[(1, "intercessors"), (1, "captain"), (2, "boyz-mob")],
    );
    put_line(&mut game, 1, "intercessors", 10.0, 6.0, 1.5);
    put(&mut game, 1, "captain", 0, 10.75, 7.5);
    advance_to(&mut game, 1, Phase::Movement);
    game
}

#[test]
fn a_drag_becomes_a_move_the_engine_checks_without_changing_the_game() {
    let mut game = intercessors_alone_in_movement();
    let (army, u) = unit(&game, 1, "intercessors");
    let before = (game.state_hash(), game.rng.draws());
    let short = play::drag_unit(&game, None, army, u, Vec3::new(0.0, 3.0, 0.0));
    let c = play::draft_command(&game, &short, MoveMode::Normal).unwrap();
    assert!(
        matches!(&c, Command::Move { mode: MoveMode::Normal, paths, .. } if paths.len() == game.live_models(army, u).len())
    );
    assert_eq!(
        play::check(&game, &c, Some(&short)),
        Verdict::Legal {
            advance_roll_needed: None
        }
    );
    assert!((play::draft_distance(&game, &short) - 3.0).abs() < 1e-4);
    let budget = play::allowance(&game, &short, MoveMode::Normal).unwrap();
    assert_eq!(budget.allowed, 6.0);
    assert!((budget.left - 3.0).abs() < 1e-4, "{budget:?}");

    let long = play::drag_unit(&game, None, army, u, Vec3::new(0.0, 8.0, 0.0));
    let c = play::draft_command(&game, &long, MoveMode::Normal).unwrap();
    match play::check(&game, &c, Some(&long)) {
        Verdict::Illegal(r) => {
            assert_eq!(r.rule, Rule::Movement);
            assert!(r.reason.contains("more than the 6.00\""), "{r}");
        }
        v => panic!("an 8\" Normal move should be refused: {v:?}"),
    }
    // The same drag as an Advance is legal if the roll is 2 or more; the check reveals no dice.
    let c = play::draft_command(&game, &long, MoveMode::Advance).unwrap();
    assert_eq!(
        play::check(&game, &c, Some(&long)),
        Verdict::Legal {
            advance_roll_needed: Some(2)
        }
    );
    assert_eq!(
        (game.state_hash(), game.rng.draws()),
        before,
        "checks change nothing"
    );

    // One model dragged on its own keeps the other drafted ends.
    let r = game.live_models(army, u)[0];
    let one = play::drag_model(&game, Some(&short), r, Vec3::new(1.0, 1.0, 0.0));
    assert_eq!(one.ends.len(), short.ends.len());
    assert_eq!(
        one.ends.iter().find(|(m, _)| *m == r).unwrap().1,
        Vec3::new(1.0, 1.0, 0.0)
    );
    // Confirming sends exactly the checked command, which the engine accepts.
    let c = play::draft_command(&game, &short, MoveMode::Normal).unwrap();
    accepted(&mut game, c);
}

#[test]
fn a_drag_outside_a_moving_phase_says_why_nothing_moves() {
    let mut game = deployed_game(open_field());
    advance_to(&mut game, 1, Phase::Shooting);
    let (army, u) = unit(&game, 1, "intercessors");
    let d = play::drag_unit(&game, None, army, u, Vec3::new(0.0, 1.0, 0.0));
    let why = play::draft_command(&game, &d, MoveMode::Normal).unwrap_err();
    assert!(why.contains("Shooting phase"), "{why}");
}

#[test]
fn deployment_drags_place_every_model_of_the_unit() {
    let scene = open_field();
    let (game, _) = Game::start(scene, 1);
    let player = game.active_player;
    let army = game.army_of(player).unwrap();
    let u = game.unit_roots(army)[0];
    assert!(play::panels(&game, army, u).deploy);
    let d = play::drag_unit(&game, None, army, u, Vec3::new(0.5, 0.0, 0.0));
    let Command::Deploy { models, .. } = play::draft_command(&game, &d, MoveMode::Normal).unwrap()
    else {
        panic!("a Deploy")
    };
    assert_eq!(models.len(), game.live_models_anywhere(army, u).len());
    // Far out of the zone: refused with the deployment rule.
    let far = play::drag_unit(
        &game,
        None,
        army,
        u,
        Vec3::new(0.0, 0.0, 0.0) + Vec3::new(0.0, if player == 1 { 30.0 } else { -30.0 }, 0.0),
    );
    let c = play::draft_command(&game, &far, MoveMode::Normal).unwrap();
    assert!(
        matches!(play::check(&game, &c, Some(&far)), Verdict::Illegal(r) if r.rule == Rule::Deployment)
    );
}

#[test]
fn attack_preview_is_a_distribution_and_refuses_what_the_engine_refuses() {
    let mut game = deployed_game(open_field());
    isolate(&mut game, &[(1, "intercessors"), (2, "boyz-mob")]);
    put_line(&mut game, 1, "intercessors", 10.0, 20.0, 1.5);
    put_line(&mut game, 2, "boyz-mob", 5.0, 36.0, 1.3);
    advance_to(&mut game, 1, Phase::Shooting);
    let wt = WeaponTarget::new("Bolt rifle", "boyz-mob");
    let previews = game
        .preview_attacks(1, "intercessors", std::slice::from_ref(&wt), false)
        .unwrap();
    assert_eq!(previews.len(), 1);
    let d = &previews[0].distribution;
    let total: f64 = d.models_destroyed.iter().sum();
    assert!(
        (total - 1.0).abs() < 1e-9,
        "probabilities sum to 1: {total}"
    );
    let mean: f64 = d
        .models_destroyed
        .iter()
        .enumerate()
        .map(|(k, p)| k as f64 * p)
        .sum();
    assert!((mean - d.expected_models_destroyed).abs() < 1e-9);
    assert!(
        d.expected_models_destroyed > 0.5,
        "ten bolt rifles at boyz kill something"
    );
    assert_eq!(
        game.legal_targets(1, "intercessors", "Bolt rifle", false),
        vec!["boyz-mob".to_string()]
    );
    // Out of pistol range: the preview and the command give the same rejection.
    let pistol = WeaponTarget::new("Bolt pistol", "boyz-mob");
    let r = game
        .preview_attacks(1, "intercessors", std::slice::from_ref(&pistol), false)
        .unwrap_err();
    let c = rejected(
        &mut game,
        Command::Shoot {
            player: 1,
            unit: "intercessors".into(),
            weapons: vec![pistol],
        },
    );
    assert_eq!(r, c);
}

#[test]
fn charge_odds_count_the_2d6_needed() {
    let mut game = deployed_game(open_field());
    isolate(&mut game, &[(1, "intercessors"), (2, "boyz-mob")]);
    put_line(&mut game, 1, "intercessors", 10.0, 20.0, 1.5);
    put_line(&mut game, 2, "boyz-mob", 10.0, 28.0, 1.3);
    advance_to(&mut game, 1, Phase::Charge);
    let o = game
        .charge_odds(1, "intercessors", &["boyz-mob".into()])
        .unwrap();
    // Bases 32 mm apart by 8" between centres: about 6.74" between bases, so a 6 reaches.
    assert!(
        (o.distance
            - game.unit_distance(unit(&game, 1, "intercessors"), unit(&game, 2, "boyz-mob")))
        .abs()
            < 1e-6
    );
    assert_eq!(o.needed, (o.distance - 1.0 - 1e-3).ceil() as u32);
    assert!(
        (o.probability - wartable::rules::movement::charge_roll_probability(o.needed)).abs()
            < 1e-12
    );
}

#[test]
fn los_report_agrees_with_the_sight_index() {
    let game = {
        let (mut g, _) = Game::start(default_scene(), 7);
        deploy_all(&mut g);
        g
    };
    let (army, u) = unit(&game, 1, "assault-intercessors");
    let report = play::los_report(&game, army, u);
    let sight = game.sight();
    let observers = game.entries_of(&sight, army, u);
    let enemies = sight.models.iter().filter(|m| m.army != army).count();
    assert_eq!(report.targets.len(), enemies);
    let mut statuses = std::collections::HashSet::new();
    for t in &report.targets {
        let ti = sight.models.iter().position(|m| *m == t.model).unwrap();
        let any_visible = observers.iter().any(|&o| {
            sight
                .index
                .model_visible(o, ti, SeeThrough::OwnUnit, &Sampling::FAST)
        });
        assert_eq!(
            any_visible,
            t.status != SightStatus::NotVisible,
            "{:?}",
            t.model
        );
        assert_eq!(t.witness.is_some(), any_visible);
        if t.status == SightStatus::NotVisible {
            assert!(t.reason.is_some(), "a hidden model names its blocker");
            assert!(t.cover.is_none());
        }
        statuses.insert(t.status);
    }
    assert!(
        statuses.len() >= 2,
        "the default table hides some models and shows others: {statuses:?}"
    );
}

#[test]
fn undo_replays_all_but_the_last_command() {
    let scene = open_field();
    let (game, _) = Game::start(scene.clone(), 3);
    let mut active = ActiveGame {
        game: Some(game),
        save: Some(SaveFile::new("x", 3, Vec::new())),
        autosave: None,
    };
    let mut commands = Vec::new();
    for _ in 0..3 {
        let g = active.game.as_mut().unwrap();
        let p = g.active_player;
        let army = g.army_of(p).unwrap();
        let u = g.next_to_deploy(p).unwrap();
        let c = Command::Deploy {
            player: p,
            unit: g.unit_id(army, u).into(),
            models: vec![],
            transport: None,
        };
        g.apply(&c).unwrap();
        active.save.as_mut().unwrap().commands.push(c.clone());
        commands.push(c);
    }
    let undone = play::undo(&mut active, &scene).unwrap();
    assert_eq!(undone, commands[2]);
    let (expected, _) = replay(scene.clone(), 3, &commands[..2]).unwrap();
    assert_eq!(
        active.game.as_ref().unwrap().state_hash(),
        expected.state_hash()
    );
    assert_eq!(active.save.as_ref().unwrap().commands.len(), 2);
    play::undo(&mut active, &scene).unwrap();
    play::undo(&mut active, &scene).unwrap();
    assert_eq!(
        play::undo(&mut active, &scene).unwrap_err(),
        "nothing to undo"
    );
}

#[test]
fn a_new_game_autosaves_and_loads_back() {
    let dir = std::env::temp_dir().join(format!("wartable-menu-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let form = NewGameForm {
        layout: "scenes/layouts/layout-4.ron".into(),
        deployment: "scenes/deployments/dawn-of-war.ron".into(),
        ..NewGameForm::default()
    };
    let mut started = table::start_new_game(&form, &dir, 99).unwrap();
    assert_eq!(
        started.game.seed, form.seed,
        "the form's seed, not the random one"
    );
    assert_eq!(
        started.origin.deployment.name,
        wartable::data::resolve::load_deployment(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/deployments/dawn-of-war.ron")
        )
        .unwrap()
        .name,
        "Dawn of War"
    );
    scenario::deploy_all(&mut started).unwrap();
    wartable::game::save::write_save(&started.autosave, &started.save).unwrap();
    let saves = menu::list_saves(&dir);
    assert_eq!(saves.len(), 1);
    assert!(saves[0].ok, "{}", saves[0].label);
    assert!(
        saves[0].label.contains("battle round 1"),
        "{}",
        saves[0].label
    );
    let loaded = table::load_game(&saves[0].path).unwrap();
    assert_eq!(loaded.game.state_hash(), started.game.state_hash());
    let random = NewGameForm {
        random_seed: true,
        ..form
    };
    assert_eq!(
        table::start_new_game(&random, &dir, 99).unwrap().game.seed,
        99
    );
    // A broken save is listed with its error instead of being hidden.
    std::fs::write(
        dir.join("broken.save.ron"),
        "SaveFile(scene: \"nope.ron\", seed: 1,",
    )
    .unwrap();
    let saves = menu::list_saves(&dir);
    assert!(
        saves
            .iter()
            .any(|s| !s.ok && s.label.contains("broken.save.ron")),
        "{saves:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn screenshot_scenarios_reach_their_moment() {
    let dir = std::env::temp_dir().join(format!("wartable-scenarios-{}", std::process::id()));
    let default = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/default.ron");
    for name in scenario::SCENARIOS {
        let mut started = table::start_on_scene(&default, &dir, 7).unwrap();
        let view = scenario::prepare(name, &mut started).unwrap_or_else(|e| panic!("{name}: {e}"));
        let g = &started.game;
        match name {
            "overview" => assert_eq!(g.stage, Stage::Setup),
            "legend" => {
                assert_eq!(g.stage, Stage::Setup);
                assert!(view.play.tools.legend);
            }
            "drag-refused" => {
                let d = view.play.drafting.draft.as_ref().unwrap();
                let c = play::draft_command(g, d, MoveMode::Normal).unwrap();
                assert!(
                    matches!(play::check(g, &c, Some(d)), Verdict::Illegal(r) if r.rule == Rule::Movement)
                );
            }
            "shooting" => {
                assert_eq!(g.phase, Phase::Shooting);
                assert!(
                    view.play
                        .orders
                        .weapon_targets
                        .iter()
                        .any(|(_, t)| t.is_some())
                );
            }
            "los" | "eye" => {
                assert!(view.play.sight.los);
                let r = &view.play.sight.report;
                assert!(
                    r.targets
                        .iter()
                        .any(|t| t.status != SightStatus::NotVisible)
                );
                assert!(
                    r.targets
                        .iter()
                        .any(|t| t.status != SightStatus::FullyVisible)
                );
                if name == "eye" {
                    let eye = view.play.sight.eye.unwrap();
                    assert_ne!(eye.observer.army, eye.target.army);
                }
            }
            "reaction" => {
                // The defender's window is open: it acts, and Go to Ground is on offer.
                let pending = g.pending_shot.as_ref().expect("attacks wait for an answer");
                assert_eq!(g.acting_player(), Some(3 - pending.player));
                let choices = reaction::reaction_choices(g);
                assert!(
                    choices.iter().any(|(l, _)| l.starts_with("Go to Ground")),
                    "{choices:?}"
                );
            }
            "log" => {
                assert_eq!(g.battle_round, 2, "{}", g.describe_now());
                assert_eq!(view.play.log_filter.player, Some(1));
                assert_eq!(view.play.log_expanded.len(), 1, "one attack opened");
            }
            "summary" => assert_eq!(g.stage, Stage::GameOver),
            "army-rules" => {
                assert_eq!(g.phase, Phase::Command);
                // A choice of the active player's army rules is offered (the Waaagh! or, its
                // Oath of Moment picked, a Combat Doctrine).
                assert!(!g.rule_choice_options(g.active_player).is_empty());
                assert!(view.select.is_some());
            }
            "legs" => {
                let d = view.play.drafting.draft.as_ref().unwrap();
                assert_eq!(d.via.len(), 1);
                assert_eq!(play::leg_lengths(g, d).len(), 2);
            }
            "arrive" => {
                assert_eq!((g.battle_round, g.phase), (2, Phase::Movement));
                let d = view.play.drafting.draft.as_ref().unwrap();
                let c = play::draft_command(g, d, MoveMode::Normal).unwrap();
                assert!(play::check(g, &c, Some(d)).is_legal());
            }
            "threat" => {
                assert_eq!(view.play.tools.threat, play::ThreatOverlay::EnemyArmy);
                let tape = view.play.tools.tape.as_ref().unwrap();
                assert!(play::measure(g, &tape.picks[0], &tape.picks[1]).is_some());
            }
            "strip" => {
                assert_eq!(g.phase, Phase::Movement);
                assert!(view.play.tools.card_strip);
                let sel = view.select.as_ref().unwrap();
                let army = g.army_of(sel.player.unwrap()).unwrap();
                let unit = g.find_unit(army, &sel.unit).unwrap();
                let strip = play::unit_strip(g, army, unit);
                let name = &g.scene.armies[army].units[unit].name;
                assert!(strip.starts_with(name.as_str()), "{strip}");
                let n = g.units[army][unit].models.len();
                assert!(strip.contains(&format!("{n}/{n} models")), "{strip}");
            }
            "charge-roll" => {
                let c = g.charge.as_ref().unwrap();
                assert_eq!(g.phase, Phase::Charge);
                // 10th: the targets were declared with the charge.
                assert!(!c.targets.is_empty());
                let sel = view.select.as_ref().unwrap();
                assert_eq!(sel.unit, g.unit_id(c.army, c.unit));
            }
            "pile-in" => {
                assert_eq!(g.phase, Phase::Fight);
                let sel = view.select.as_ref().unwrap();
                let army = g.army_of(sel.player.unwrap()).unwrap();
                let unit = g.find_unit(army, &sel.unit).unwrap();
                assert_eq!(
                    g.fight_activation(army, unit),
                    Some(wartable::game::FightActivation::PileIn)
                );
            }
            "round2" => assert!(g.battle_round > 2 || g.stage == Stage::GameOver),
            _ => unreachable!(),
        }
        // What the scenario played is in the save: it replays to the same game.
        let (again, _) = replay(started.origin.clone(), 7, &started.save.commands).unwrap();
        assert_eq!(again.state_hash(), g.state_hash());
    }
    assert!(
        scenario::prepare(
            "nope",
            &mut table::start_on_scene(&default, &dir, 7).unwrap()
        )
        .is_err()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Under 11th edition the charge scenario stops after the roll with no targets chosen yet
/// (the panel offers those the roll reaches) and the Fight phase starts with the Pile In step.
#[test]
fn eleventh_edition_scenarios_roll_the_charge_first_and_pile_in_together() {
    let dir = std::env::temp_dir().join(format!("wartable-scenarios11-{}", std::process::id()));
    let default = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/default.ron");
    let start = || {
        table::start_on_scene_under(
            &default,
            &dir,
            (3, Some(wartable::rules::Ruleset::Eleventh)),
        )
        .unwrap()
    };
    let mut started = start();
    scenario::prepare("charge-roll", &mut started).unwrap();
    let g = &started.game;
    let c = g.charge.as_ref().unwrap();
    assert!(c.targets.is_empty(), "targets are chosen after the roll");
    let reach = g.charge_targets_in_reach(c.army, c.unit, c.distance());
    for t in &reach {
        let (ta, tu) = g.enemy_unit(g.player_of(c.army), t).unwrap();
        let d = g.unit_distance((c.army, c.unit), (ta, tu));
        assert!(d <= c.distance() + 0.01, "{t} at {d} within the roll");
    }
    let mut started = start();
    scenario::prepare("pile-in", &mut started).unwrap();
    let g = &started.game;
    assert_eq!(
        g.fight_step(),
        Some((wartable::rules::phase::FightStep::PileIn, g.active_player))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A headless app with the battle and the desktop's play logic, no game on the table yet.
fn play_app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin))
        .add_plugins((wartable::sim::plugin, play::plugin));
    app.finish();
    app.cleanup();
    app
}

fn headless(game: Game) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin))
        .add_plugins((wartable::sim::plugin, play::plugin))
        .insert_state(Screen::Table)
        .insert_resource(ActiveGame {
            game: Some(game),
            save: None,
            autosave: None,
        });
    app.finish();
    app.cleanup();
    app.update();
    app
}

#[test]
fn the_table_is_handed_over_when_the_acting_player_changes() {
    let mut game = deployed_game(open_field());
    advance_to(&mut game, 1, Phase::Fight);
    let mut app = headless(game);
    assert_eq!(app.world().resource::<HandOver>().to, None);
    // A rejected command: logged and shown, no hand-over.
    app.world_mut()
        .write_message(GameCommand(Command::EndPhase { player: 2 }));
    app.update();
    let log = app.world().resource::<DiceLog>();
    assert!(
        log.rejection
            .as_ref()
            .is_some_and(|(kind, r)| kind == "EndPhase" && r.rule == Rule::Sequencing),
        "{:?}",
        log.rejection
    );
    assert_eq!(app.world().resource::<HandOver>().to, None);
    // Player 1 ends the Fight phase: player 2's turn begins, and the table is handed over.
    app.world_mut()
        .write_message(GameCommand(Command::EndPhase { player: 1 }));
    app.update();
    assert_eq!(app.world().resource::<HandOver>().to, Some(2));
    let log = app.world().resource::<DiceLog>();
    assert!(log.rejection.is_none());
    let lines: Vec<String> = log.actions.entries.iter().map(|e| e.line()).collect();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Round 1, player 2: Command phase")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("Refused EndPhase")),
        "the refusal is in the log: {lines:?}"
    );
}

/// Issue 18's hand-over bug: in player 1's Fight phase player 2 selects first; once its unit
/// has piled in, player 2 still acts (it fights and consolidates) and the table is not handed
/// to player 1 before the unit has fought.
#[test]
fn the_table_stays_with_the_player_whose_unit_is_fighting() {
    let mut game = deployed_game(open_field());
    isolate(&mut game, &[(1, "hellblasters"), (2, "boyz-mob")]);
    put(&mut game, 1, "hellblasters", 0, 30.0, 34.0);
    for m in 1..5 {
        put(&mut game, 1, "hellblasters", m, 30.0 + 1.3 * m as f32, 36.0);
    }
    put(&mut game, 2, "warboss", 0, 30.0, 32.2);
    put_line(&mut game, 2, "boyz-mob", 20.0, 31.0, 1.3);
    advance_to(&mut game, 1, Phase::Fight);
    assert_eq!(game.acting_player(), Some(2), "player 2 selects first");
    let mut app = headless(game);
    app.world_mut().resource_mut::<HandOver>().to = None;
    app.world_mut().write_message(GameCommand(Command::PileIn {
        player: 2,
        unit: "boyz-mob".into(),
        paths: vec![],
    }));
    app.update();
    let game = app.world().resource::<ActiveGame>().game.clone().unwrap();
    assert_eq!(game.active_player, 1);
    assert_eq!(game.acting_player(), Some(2), "the Boyz fight next");
    let log = app.world().resource::<DiceLog>();
    assert!(log.rejection.is_none(), "{:?}", log.rejection);
    assert_eq!(
        app.world().resource::<HandOver>().to,
        None,
        "no hand-over before the Boyz fight"
    );
}

/// Issue 18's dice-log bug: with nothing new to log, frames leave the draft unchanged, so the
/// draft checker does not clone and re-apply the game every frame while a draft exists.
#[test]
fn idle_frames_leave_the_play_state_unchanged() {
    let game = intercessors_alone_in_movement();
    let (army, u) = unit(&game, 1, "intercessors");
    let draft = play::drag_unit(&game, None, army, u, Vec3::new(3.0, 0.0, 0.0));
    let mut app = headless(game);
    app.world_mut().resource_mut::<Drafting>().draft = Some(draft);
    app.update();
    assert!(app.world().resource::<Drafting>().verdict.is_some());
    let changed = |app: &App| {
        app.world()
            .get_resource_change_ticks::<Drafting>()
            .unwrap()
            .changed
    };
    let before = changed(&app);
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(
        changed(&app),
        before,
        "an idle frame changed the play state"
    );
}

/// The play state is split by reader: a line added to the dice log (here a refusal) does not
/// mark the draft changed, so the draft checker does not run. (The verdict is blanked without
/// change detection first: had the checker run, it would have put it back.)
#[test]
fn a_dice_log_change_does_not_wake_the_draft_checker() {
    let game = intercessors_alone_in_movement();
    let (army, u) = unit(&game, 1, "intercessors");
    let draft = play::drag_unit(&game, None, army, u, Vec3::new(3.0, 0.0, 0.0));
    let mut app = headless(game);
    app.world_mut().resource_mut::<Drafting>().draft = Some(draft);
    app.update();
    assert!(app.world().resource::<Drafting>().verdict.is_some());
    app.update();
    app.world_mut()
        .resource_mut::<Drafting>()
        .bypass_change_detection()
        .verdict = None;
    let changed = |app: &App| {
        app.world()
            .get_resource_change_ticks::<Drafting>()
            .unwrap()
            .changed
    };
    let before = changed(&app);
    let lines = app.world().resource::<DiceLog>().actions.entries.len();
    // Not player 2's turn: refused, and the refusal is logged.
    app.world_mut()
        .write_message(GameCommand(Command::EndPhase { player: 2 }));
    app.update();
    app.world_mut()
        .resource_mut::<DiceLog>()
        .actions
        .note("a line");
    app.update();
    let log = app.world().resource::<DiceLog>();
    assert_eq!(log.actions.entries.len(), lines + 2, "{:?}", log.actions);
    assert!(log.rejection.is_some());
    assert_eq!(
        changed(&app),
        before,
        "the dice log marked the draft changed"
    );
    assert!(
        app.world().resource::<Drafting>().verdict.is_none(),
        "the draft checker ran on a dice-log change"
    );
}

#[test]
fn a_draft_in_the_app_gets_the_engines_verdict() {
    let game = intercessors_alone_in_movement();
    let (army, u) = unit(&game, 1, "intercessors");
    let draft = play::drag_unit(&game, None, army, u, Vec3::new(0.0, 9.0, 0.0));
    let mut app = headless(game);
    app.world_mut().resource_mut::<Drafting>().draft = Some(draft);
    app.update();
    let play = app.world().resource::<Drafting>();
    assert!(
        matches!(&play.verdict, Some(Verdict::Illegal(r)) if r.rule == Rule::Movement),
        "{:?}",
        play.verdict
    );
    app.world_mut().resource_mut::<Drafting>().move_mode = MoveMode::Advance;
    app.update();
    let play = app.world().resource::<Drafting>();
    assert_eq!(
        play.verdict,
        Some(Verdict::Legal {
            advance_roll_needed: Some(3)
        })
    );
}

/// One player's turn through the panels: what a person at the desktop does, without a mouse.
fn play_turn_through_panels(app: &mut App, log: &mut Vec<String>) {
    let game = app.world().resource::<ActiveGame>().game.clone().unwrap();
    let actor = game.acting_player().unwrap();
    let army = game.army_of(actor).unwrap();
    let enemy = game.army_of(3 - actor).unwrap();
    let send = |app: &mut App, c: Command| {
        let kind = c.kind();
        app.world_mut().write_message(GameCommand(c));
        app.update();
        let log = app.world().resource::<DiceLog>();
        assert!(
            log.rejection.is_none(),
            "{kind} refused: {:?}",
            log.rejection
        );
    };
    for u in game.unit_roots(army) {
        let game = app.world().resource::<ActiveGame>().game.clone().unwrap();
        let p = play::panels(&game, army, u);
        let id = game.unit_id(army, u).to_string();
        if p.deploy {
            // A drag of nothing: the unit deploys where it stands.
            let d = play::drag_unit(&game, None, army, u, Vec3::ZERO);
            let c = play::draft_command(&game, &d, MoveMode::Normal).unwrap();
            assert!(play::check(&game, &c, Some(&d)).is_legal());
            send(app, c);
            return; // players alternate
        }
        if p.movement {
            // Towards the closest enemy unit, as far as the engine allows (halving the drag
            // until the ghost turns green), else Remain Stationary.
            let me = play::model_position(&game, game.live_models(army, u)[0]);
            let target = game
                .unit_roots(enemy)
                .into_iter()
                .filter_map(|e| game.live_models(enemy, e).first().copied())
                .map(|r| play::model_position(&game, r))
                .min_by(|a, b| (*a - me).length().total_cmp(&(*b - me).length()));
            let mut step = game.scene.armies[army].units[u].datasheet.movement - 0.1;
            let mut moved = false;
            while let Some(t) = target
                && step > 0.4
            {
                let dir = (t - me).truncate().normalize_or_zero().extend(0.0);
                let d = play::drag_unit(&game, None, army, u, dir * step);
                let c = play::draft_command(&game, &d, MoveMode::Normal).unwrap();
                if play::check(&game, &c, Some(&d)).is_legal() {
                    send(app, c);
                    log.push(format!("P{actor} {id} moves {step:.1}\""));
                    moved = true;
                    break;
                }
                step /= 2.0;
            }
            if !moved {
                send(
                    app,
                    Command::RemainStationary {
                        player: actor,
                        unit: id.clone(),
                    },
                );
            }
        }
        if p.shooting {
            // One legal loadout (each model's guns, not its pistols as well; a weapon with
            // profiles on its first), each weapon at its first legal target.
            let weapons: Vec<WeaponTarget> = game
                .weapon_options(army, u, false)
                .into_iter()
                .filter_map(|o| {
                    let profile = o.profiles.first().map(String::as_str);
                    let label = o.labels()[0].clone();
                    game.legal_targets(actor, &id, &label, false)
                        .first()
                        .map(|t| o.at(t, profile))
                })
                .collect();
            if !weapons.is_empty() {
                let odds = game.preview_attacks(actor, &id, &weapons, false).unwrap();
                send(
                    app,
                    Command::Shoot {
                        player: actor,
                        unit: id.clone(),
                        weapons,
                    },
                );
                // The defender's window: the first choice it offers (a Go to Ground or
                // Smokescreen when one is possible), then "No reaction" if still waiting.
                let waiting = app.world().resource::<ActiveGame>().game.clone().unwrap();
                let choices = reaction::reaction_choices(&waiting);
                if let Some((label, c)) = choices.first().cloned() {
                    assert_eq!(
                        choices.last().map(|c| &c.1),
                        Some(&Command::Pass { player: 3 - actor })
                    );
                    send(app, c);
                    log.push(format!("P{} reacts: {label}", 3 - actor));
                    let still = app.world().resource::<ActiveGame>().game.clone().unwrap();
                    if still.pending_shot.is_some() {
                        send(app, Command::Pass { player: 3 - actor });
                    }
                }
                let after = app.world().resource::<ActiveGame>().game.clone().unwrap();
                log.push(format!(
                    "P{actor} {id} shoots {} (expected {:.2} models destroyed); {} enemy models left",
                    odds.iter().map(|o| o.target.as_str()).collect::<Vec<_>>().join(", "),
                    odds.iter().map(|o| o.distribution.expected_models_destroyed).sum::<f64>(),
                    after.all_live_models().iter().filter(|r| r.army == enemy).count()
                ));
            }
        }
    }
    let game = app.world().resource::<ActiveGame>().game.clone().unwrap();
    if game.stage == Stage::Battle {
        send(
            app,
            Command::EndPhase {
                player: game.active_player,
            },
        );
    }
}

#[test]
fn a_whole_hot_seat_game_through_the_panels() {
    let scene = default_scene();
    let (game, _) = Game::start(scene, 11);
    let mut app = headless(game);
    let mut log = Vec::new();
    let mut handovers = 0;
    for _ in 0..400 {
        if app
            .world()
            .resource::<ActiveGame>()
            .game
            .as_ref()
            .unwrap()
            .stage
            == Stage::GameOver
        {
            break;
        }
        play_turn_through_panels(&mut app, &mut log);
        let mut handover = app.world_mut().resource_mut::<HandOver>();
        if handover.to.take().is_some() {
            handovers += 1;
        }
    }
    let game = app.world().resource::<ActiveGame>().game.clone().unwrap();
    for line in &log {
        println!("{line}");
    }
    println!(
        "{}; VP {:?}; winner {:?}; {handovers} hand-overs",
        game.describe_now(),
        game.vp,
        game.winner
    );
    assert_eq!(
        game.stage,
        Stage::GameOver,
        "the game ends: {}",
        game.describe_now()
    );
    assert!(handovers >= 10, "every turn is handed over: {handovers}");
    assert!(log.iter().any(|l| l.contains("shoots")));
    assert!(
        log.iter().any(|l| l.contains("reacts: Go to Ground")),
        "the defender was offered Go to Ground at least once"
    );
    let log = app.world().resource::<DiceLog>();
    assert!(
        log.actions
            .entries
            .iter()
            .any(|e| e.line().starts_with("Game over: ")),
        "{:?}",
        log.actions.entries.last()
    );
}

/// Hostile input: an autosave that cannot be written (its folder is gone) shows in the dice
/// log and the phase bar instead of passing silently; the game goes on.
#[test]
fn a_failed_autosave_is_shown_to_the_player() {
    use wartable::game::save::SaveFile;
    let game = deployed_game(open_field());
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin))
        .add_plugins((wartable::sim::plugin, play::plugin))
        .insert_state(Screen::Table)
        .insert_resource(ActiveGame {
            game: Some(game.clone()),
            save: Some(SaveFile::new(
                "tests/scenes/open-field.ron",
                game.seed,
                Vec::new(),
            )),
            autosave: Some(std::env::temp_dir().join("wartable-no-such-folder/game.save.ron")),
        });
    app.finish();
    app.cleanup();
    app.update();
    app.world_mut()
        .write_message(GameCommand(Command::EndPhase { player: 1 }));
    app.update();
    let play = app.world().resource::<DiceLog>();
    assert!(play.rejection.is_none(), "{:?}", play.rejection);
    assert!(
        play.autosave_error
            .as_ref()
            .is_some_and(|e| e.contains("wartable-no-such-folder")),
        "{:?}",
        play.autosave_error
    );
    assert!(
        play.actions
            .entries
            .iter()
            .any(|e| e.headline.starts_with("The autosave failed: ")),
        "{:?}",
        play.actions.entries.last()
    );
    let game = app.world().resource::<ActiveGame>().game.clone().unwrap();
    assert_eq!(game.phase, Phase::Movement, "the game went on");
}

/// The recorded game (default scene, seed 7) played to the end, with its events.
fn recorded_game() -> (table::StartedGame, Vec<Command>) {
    // A folder of its own for each call: tests run in parallel and each removes its folder.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("wartable-recorded-{}-{n}", std::process::id()));
    let default = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/default.ron");
    let mut started = table::start_on_scene(&default, &dir, 7).unwrap();
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/full-game.commands.ron"),
    )
    .unwrap();
    let commands: Vec<Command> = ron::from_str(&text).unwrap();
    for c in &commands {
        scenario::push(&mut started, c.clone()).unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
    (started, commands)
}

/// Issue 20, dice log: one entry per action in words, its dice as die faces, distances to
/// 0.1", unit names as on the card, the full events behind each line, filters by player and
/// phase.
#[test]
fn the_dice_log_tells_each_action_in_words_with_its_dice() {
    use play::{ActionLog, DIE_FACES, EntryKind, LogFilter};
    let (started, _) = recorded_game();
    let game = &started.game;
    let log = ActionLog::of(game, &started.events);
    // Fewer entries than events: an attack's dice and losses are one line.
    assert!(
        log.entries.len() * 2 < started.events.len(),
        "{} entries for {} events",
        log.entries.len(),
        started.events.len()
    );
    let all_events: usize = log.entries.iter().map(|e| e.events.len()).sum();
    assert_eq!(
        all_events,
        started.events.len(),
        "every event is behind some line"
    );
    for e in &log.entries {
        let line = e.line();
        // Words, not the engine's field dump.
        assert!(!line.contains('=') && !line.contains("_"), "{line}");
        // Distances to 0.1".
        let bytes: Vec<char> = line.chars().collect();
        for w in bytes.windows(3) {
            assert!(
                !(w[0] == '.' && w[1].is_ascii_digit() && w[2].is_ascii_digit()),
                "more than one decimal: {line}"
            );
        }
    }
    // Moves name the unit as its card does and give the distance.
    let moved = started
        .events
        .iter()
        .find_map(|e| match e {
            wartable::game::GameEvent::Moved {
                player,
                unit,
                longest_inches,
                ..
            } => Some((*player, unit.clone(), *longest_inches)),
            _ => None,
        })
        .unwrap();
    let card = play::unit_name(game, moved.0, &moved.1);
    assert_ne!(card, moved.1, "the card name differs from the id");
    let want = format!("{card} makes a Normal move of {:.1}\"", moved.2);
    assert!(
        log.entries.iter().any(|e| e.headline == want),
        "no line {want:?}"
    );
    // An attack: one line with hit, wound and save dice as die faces, the losses, and its
    // events behind it.
    let attack = log
        .entries
        .iter()
        .find(|e| e.headline.contains(" shoots ") && e.dice.iter().any(|g| g.label == "save"))
        .expect("a shot that reached saving throws");
    let labels: Vec<&str> = attack.dice.iter().map(|g| g.label.as_str()).collect();
    assert!(labels.starts_with(&["hit", "wound"]), "{labels:?}");
    let line = attack.line();
    assert!(line.chars().any(|c| DIE_FACES.contains(&c)), "{line}");
    assert!(line.contains("wound"), "{line}");
    let hits = attack.dice[0].dice.iter().filter(|(_, ok)| *ok).count();
    let wound_rolls = attack.dice[1].dice.len();
    assert!(wound_rolls >= hits, "a wound roll for each hit: {line}");
    assert!(attack.events.iter().any(|e| e.contains("hit roll")));
    // Filters: one player's actions (headings stay), one phase.
    let p1 = LogFilter {
        player: Some(1),
        phase: None,
    };
    let shown: Vec<_> = log.entries.iter().filter(|e| p1.shows(e)).collect();
    assert!(shown.iter().any(|e| e.kind == EntryKind::Heading));
    assert!(
        shown
            .iter()
            .all(|e| e.kind != EntryKind::Action || e.player == Some(1))
    );
    assert!(shown.len() < log.entries.len());
    let shooting = LogFilter {
        player: None,
        phase: Some(Some(Phase::Shooting)),
    };
    let shown: Vec<_> = log.entries.iter().filter(|e| shooting.shows(e)).collect();
    assert!(shown.iter().any(|e| e.headline.contains(" shoots ")));
    assert!(shown.iter().all(|e| e.phase == Some(Phase::Shooting)));
    // VP by round, ending on the final score.
    assert_eq!(log.vp_by_round.len(), usize::from(game.battle_round));
    assert_eq!(*log.vp_by_round.last().unwrap(), game.vp);
}

/// Issue 20, dice log: the log built as commands arrive in the app equals the one rebuilt
/// from the save when the game is loaded (it is saved with the game), and an undo rebuilds it
/// without the command taken back.
#[test]
fn the_dice_log_is_saved_with_the_game_and_follows_undo() {
    let (recorded, commands) = recorded_game();
    let n = 180.min(commands.len());
    let dir = std::env::temp_dir().join(format!("wartable-log-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let default = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/default.ron");
    let started = table::start_on_scene(&default, &dir, 7).unwrap();
    let autosave = started.autosave.clone();
    let mut app = play_app();
    table::put_on_table(app.world_mut(), started);
    app.update();
    for c in &commands[..n] {
        app.world_mut().write_message(GameCommand(c.clone()));
        app.update();
    }
    let live: Vec<play::LogEntry> = app
        .world()
        .resource::<DiceLog>()
        .actions
        .game_entries()
        .cloned()
        .collect();
    let loaded = table::load_game(&autosave).unwrap();
    let again = play::ActionLog::of(&loaded.game, &loaded.events);
    let again: Vec<play::LogEntry> = again.game_entries().cloned().collect();
    assert_eq!(live.len(), again.len());
    assert_eq!(live, again, "the loaded log is the one played");
    assert!(recorded.events.len() > loaded.events.len());
    // Undo: the log is the game's without the last command, and says what was undone.
    app.world_mut()
        .write_message(wartable::sim::battle::UndoRequested);
    app.update();
    let log = &app.world().resource::<DiceLog>().actions;
    let last = log.entries.last().unwrap();
    assert_eq!(last.kind, play::EntryKind::Note);
    assert!(last.headline.starts_with("Undone: "), "{}", last.headline);
    let (_, events) = replay(loaded.origin.clone(), 7, &commands[..n - 1]).unwrap();
    let game = app.world().resource::<ActiveGame>().game.clone().unwrap();
    let want: Vec<play::LogEntry> = play::ActionLog::of(&game, &events)
        .game_entries()
        .cloned()
        .collect();
    let got: Vec<play::LogEntry> = log.game_entries().cloned().collect();
    assert_eq!(got, want);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Found playing by hand: a save of a game against the computer, loaded again, went on as
/// hot-seat and handed the computer's turn to the player. The seat is now in the save.
#[test]
fn a_save_of_a_game_against_the_computer_loads_against_it() {
    use wartable::ai::Level;
    let dir = std::env::temp_dir().join(format!("wartable-seat-{}", std::process::id()));
    let default = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/default.ron");
    let started = table::start_on_scene(&default, &dir, 7).unwrap();
    let file = started.autosave.clone();
    let mut app = play_app();
    table::put_on_table_against(
        app.world_mut(),
        started,
        play::Seats::Computer(2),
        Level::Normal,
    );
    app.update();
    let loaded = table::load_game(&file).unwrap();
    let seats = |asked| table::seats_for_save(&loaded.save, &file, asked, Level::Hard);
    assert_eq!(
        seats(play::Seats::HotSeat),
        Ok((play::Seats::Computer(2), Level::Normal)),
        "nothing asked: the save's seat"
    );
    assert_eq!(
        seats(play::Seats::Solo),
        Ok((play::Seats::Solo, Level::Hard)),
        "solo asked: solo"
    );
    let mut edited = loaded.save.clone();
    edited.computer.as_mut().unwrap().level = "expert".into();
    let e = table::seats_for_save(&edited, &file, play::Seats::HotSeat, Level::Hard).unwrap_err();
    assert!(
        e.contains("expert") && e.contains(&file.display().to_string()),
        "{e}"
    );
    // A hot-seat game's save has no seat and stays hot-seat.
    let other = table::start_on_scene(&default, &dir, 8).unwrap();
    assert_eq!(other.save.computer, None);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 20, solo mode: one person plays both sides, so no hand-over screen comes up when the
/// acting player changes (hot-seat gets one every time), and a side can deploy the rest of its
/// units as placed, alternating with the other side's deployment by hand.
#[test]
fn a_solo_game_has_no_hand_over_and_a_side_deploys_the_rest_as_placed() {
    let dir = std::env::temp_dir().join(format!("wartable-solo-{}", std::process::id()));
    let default = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/default.ron");
    let mut handovers = [0usize; 2];
    for (i, seats) in [play::Seats::Solo, play::Seats::HotSeat]
        .into_iter()
        .enumerate()
    {
        let started = table::start_on_scene(&default, &dir, 7).unwrap();
        let mut app = play_app();
        table::put_on_table_against(app.world_mut(), started, seats, wartable::ai::Level::Easy);
        app.update();
        assert_eq!(app.world().resource::<HandOver>().seats, seats);
        // Player 2 deploys the rest as placed; player 1 deploys by hand, unit by unit.
        app.world_mut().resource_mut::<play::AutoDeploy>().0 = [false, true];
        let mut by_hand = 0;
        for _ in 0..200 {
            let game = app.world().resource::<ActiveGame>().game.clone().unwrap();
            if !matches!(game.stage, Stage::Setup | Stage::Deployment) {
                break;
            }
            if app.world().resource::<HandOver>().to.is_some() {
                handovers[i] += 1;
                app.world_mut().resource_mut::<HandOver>().to = None;
            }
            if game.active_player == 1 {
                let c = play::auto_deploy_command(&game, play::AutoDeploy([true, false]))
                    .expect("player 1 has a unit to deploy");
                app.world_mut().write_message(GameCommand(c));
                by_hand += 1;
            } else {
                assert!(
                    play::auto_deploy_command(&game, play::AutoDeploy([false, true])).is_some()
                );
            }
            app.update();
        }
        let game = app.world().resource::<ActiveGame>().game.clone().unwrap();
        assert!(
            !matches!(game.stage, Stage::Setup | Stage::Deployment),
            "deployment ends: {}",
            game.describe_now()
        );
        assert_eq!(
            by_hand,
            game.unit_roots(game.army_of(1).unwrap()).len(),
            "player 1 placed each of its units"
        );
        assert!(
            game.next_to_deploy(2).is_none(),
            "player 2's units are all placed"
        );
        // A whole turn: the acting player changes at least once more.
        for _ in 0..12 {
            let game = app.world().resource::<ActiveGame>().game.clone().unwrap();
            if app.world().resource::<HandOver>().to.is_some() {
                handovers[i] += 1;
                app.world_mut().resource_mut::<HandOver>().to = None;
            }
            let p = game.acting_player().unwrap_or(game.active_player);
            app.world_mut()
                .write_message(GameCommand(Command::EndPhase { player: p }));
            app.update();
        }
        if app.world().resource::<HandOver>().to.is_some() {
            handovers[i] += 1;
        }
    }
    assert_eq!(handovers[0], 0, "no hand-over in a solo game");
    assert!(handovers[1] >= 2, "hot-seat hands over: {}", handovers[1]);
    // The auto-deploy command is nothing once the battle has begun or for a side by hand.
    let (recorded, _) = recorded_game();
    assert_eq!(
        play::auto_deploy_command(&recorded.game, play::AutoDeploy([true, true])),
        None
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 20, end of game: the winner, VP per round as the chart draws them, and each side's
/// casualties by unit against its Starting Strength.
#[test]
fn the_end_of_game_summary_has_the_winner_vp_by_round_and_casualties() {
    let (started, _) = recorded_game();
    let game = &started.game;
    assert_eq!(game.stage, Stage::GameOver);
    let log = play::ActionLog::of(game, &started.events);
    let s = play::GameSummary::of(game, &log);
    assert_eq!(s.winner, game.winner);
    assert_eq!(s.vp, game.vp);
    assert_eq!(s.vp_by_round.len(), usize::from(game.battle_round));
    // Totals never fall from one round to the next.
    for w in s.vp_by_round.windows(2) {
        assert!(
            w[1][0] >= w[0][0] && w[1][1] >= w[0][1],
            "{:?}",
            s.vp_by_round
        );
    }
    // Casualties agree with the models the game has lost.
    for (side, losses) in s.casualties.iter().enumerate() {
        let army = game.army_of(side as u8 + 1).unwrap();
        let lost: usize = game.units[army]
            .iter()
            .map(|u| u.models.iter().filter(|m| !m.alive).count())
            .sum();
        let listed: usize = losses.iter().map(|u| u.models_lost).sum();
        assert!(
            listed >= lost && lost > 0,
            "side {side}: {listed} listed, {lost} lost"
        );
        for u in losses {
            assert!(u.models_lost <= u.starting_strength);
            assert!(u.models_lost > 0 || u.wounds_lost > 0);
        }
    }
    // A damaged model still in play counts its wounds (the Battlewagon of this game).
    assert!(
        s.casualties
            .iter()
            .flatten()
            .any(|u| u.models_lost == 0 && u.wounds_lost > 0),
        "{:?}",
        s.casualties
    );
    let destroyed_units = started
        .events
        .iter()
        .filter(|e| matches!(e, wartable::game::GameEvent::UnitDestroyed { .. }))
        .count();
    let listed = s
        .casualties
        .iter()
        .flatten()
        .filter(|u| u.destroyed)
        .count();
    assert!(
        listed >= destroyed_units,
        "{listed} destroyed listed, {destroyed_units} events"
    );
}

/// Issue 20 and 49, layout: with the armies list and the unit card open at their starting
/// widths (still wide enough to read) the table keeps more than 60% of the window's width, and
/// the dice log at most a sixth of its height, at 1280 x 720 and at 1920 x 1080; the window
/// size argument reads WIDTHxHEIGHT and names what is wrong with anything else.
#[test]
fn the_side_panels_leave_the_table_more_than_half_the_window() {
    for (width, height) in [(1280.0f32, 720.0f32), (1920.0, 1080.0)] {
        let (left, right) = play::panel_widths(width);
        assert!(left >= 150.0 && right >= 250.0, "{width}: {left} {right}");
        assert!(
            width - left - right > width * 0.6,
            "{width}: {left} + {right}"
        );
        let log = play::dice_log_height(height);
        assert!(log >= 90.0 && log <= height / 6.0, "{height}: {log}");
    }
    use wartable::app::args::parse_window;
    assert_eq!(parse_window("1920x1080"), Ok((1920, 1080)));
    assert!(parse_window("1920").unwrap_err().contains("WIDTHxHEIGHT"));
    assert!(parse_window("10x1080").unwrap_err().contains("outside"));
    assert!(
        parse_window("wide x 1080")
            .unwrap_err()
            .contains("whole number")
    );
}

/// Issue 20, measuring: the tape reads from a model to a point, a terrain piece and an
/// objective marker by the closest points (base edge, footprint edge, marker edge), and says
/// whether a model is within range of the objective.
#[test]
fn the_tape_measures_to_points_terrain_and_objectives() {
    use play::{TapeEnd, measure};
    use wartable::rules::constants::OBJECTIVE_MARKER_RADIUS_INCHES;
    let started = default_game_in_movement("tape");
    let game = &started.game;
    let army = game.army_of(1).unwrap();
    let unit = game.find_unit(army, "intercessors").unwrap();
    let r = game.live_models(army, unit)[0];
    let s = game.solid(r);
    let radius = s.base.bounding_radius_inches();
    // A point 2.5" beyond the base edge, on the table.
    let point = (s.centre + wartable::geometry::Vec2::new(radius + 2.5, 0.0)).extend(s.z);
    let m = measure(game, &TapeEnd::Model(r), &TapeEnd::Point(point)).unwrap();
    assert!((m.horizontal - 2.5).abs() < 0.05, "{m:?}");
    assert!(m.vertical.abs() < 1e-4);
    assert_eq!(m.in_objective_range, None);
    // The same from the other end.
    let back = measure(game, &TapeEnd::Point(point), &TapeEnd::Model(r)).unwrap();
    assert!((back.distance - m.distance).abs() < 1e-4);
    // An objective marker: centre distance less the base and marker radii.
    let o = &game.scene.objectives[0];
    let m = measure(game, &TapeEnd::Model(r), &TapeEnd::Objective(o.id.clone())).unwrap();
    let want = (s.centre.distance(o.at.vec()) - radius - OBJECTIVE_MARKER_RADIUS_INCHES).max(0.0);
    assert!(
        (m.horizontal - want).abs() < 0.05,
        "{} vs {want}",
        m.horizontal
    );
    assert_eq!(
        m.in_objective_range,
        Some(m.horizontal <= 3.0 && m.vertical <= 5.0)
    );
    let text = play::tape_text(game, &TapeEnd::Model(r), &TapeEnd::Objective(o.id.clone()));
    assert!(text.contains(&format!("objective {}", o.id)), "{text}");
    assert!(text.contains("within range of the objective"), "{text}");
    // A model standing on the marker is within range.
    let mut on = game.clone();
    on.scene.armies[army].units[unit].models[r.model].position = o.at.vec().extend(0.0);
    let m = measure(&on, &TapeEnd::Model(r), &TapeEnd::Objective(o.id.clone())).unwrap();
    assert_eq!((m.horizontal, m.in_objective_range), (0.0, Some(true)));
    // A terrain piece: 0 from a point inside its footprint, the edge distance from outside.
    let piece = &game.scene.layout.pieces[0];
    let inside = wartable::geometry::polygon::centroid(&piece.footprint);
    let m = measure(
        game,
        &TapeEnd::Terrain(0),
        &TapeEnd::Point(inside.extend(0.0)),
    )
    .unwrap();
    assert_eq!(m.horizontal, 0.0);
    let far = TapeEnd::Point(wartable::geometry::Vec3::new(-10.0, -10.0, 0.0));
    let m = measure(game, &TapeEnd::Terrain(0), &far).unwrap();
    let nearest = piece
        .footprint
        .iter()
        .map(|p| p.distance(wartable::geometry::Vec2::new(-10.0, -10.0)))
        .fold(f32::INFINITY, f32::min);
    assert!(m.horizontal > 0.0 && m.horizontal <= nearest + 1e-3);
    // An end the game lacks.
    assert!(measure(game, &TapeEnd::Terrain(10_000), &far).is_none());
    let mut tape = play::Tape::default();
    for end in [TapeEnd::Terrain(0), far.clone(), TapeEnd::Model(r)] {
        tape.pick(end);
    }
    assert_eq!(
        tape.picks,
        vec![TapeEnd::Model(r)],
        "a third click starts again"
    );
}

/// Issue 20, threat overlay: a unit's reach is its Move plus its longest ranged weapon and its
/// Move plus 12" and Engagement Range; the outline drawn holds every point within that reach
/// and not a point well beyond it; the enemy-army setting lists every enemy unit on the table.
#[test]
fn the_threat_overlay_reaches_move_plus_range_and_charge() {
    use wartable::app::overlay::threat_units;
    use wartable::geometry::{Vec2, polygon};
    let started = default_game_in_movement("threat");
    let game = &started.game;
    let army = game.army_of(1).unwrap();
    let unit = game.find_unit(army, "intercessors").unwrap();
    let data = &game.scene.armies[army].units[unit].datasheet;
    let reach = play::reach(game, army, unit);
    assert_eq!(reach.charge_inches, data.movement + 12.0 + 1.0);
    let longest = data
        .ranged_weapons
        .iter()
        .filter_map(|w| w.range)
        .fold(0.0f32, f32::max);
    assert!(longest > 0.0);
    assert!(reach.shooting_inches.unwrap() >= data.movement + longest);
    let outline = play::threat_outline(game, army, unit, reach.charge_inches);
    assert!(outline.len() >= 3);
    // Sample the table: inside the reach means inside the outline.
    let mut inside = 0;
    for i in 0..60 {
        for j in 0..44 {
            let p = Vec2::new(i as f32 + 0.5, j as f32 + 0.5);
            if play::within_reach(game, army, unit, reach.charge_inches, p) {
                inside += 1;
                assert!(
                    polygon::contains(&outline, p),
                    "{p} is in reach but outside"
                );
            }
        }
    }
    assert!(inside > 100);
    // Beyond the farthest reach in some direction: outside.
    let far = game
        .live_models(army, unit)
        .iter()
        .map(|&r| game.solid(r).centre.y)
        .fold(f32::NEG_INFINITY, f32::max)
        + 5.0
        + reach.charge_inches;
    let c = game.solid(game.live_models(army, unit)[0]).centre;
    assert!(!polygon::contains(&outline, Vec2::new(c.x, far)));
    // The settings.
    assert!(threat_units(game, play::ThreatOverlay::Off, Some((army, unit))).is_empty());
    assert_eq!(
        threat_units(game, play::ThreatOverlay::Selected, Some((army, unit))),
        vec![(army, unit)]
    );
    let enemy = threat_units(game, play::ThreatOverlay::EnemyArmy, Some((army, unit)));
    let other = game.army_of(2).unwrap();
    assert!(!enemy.is_empty() && enemy.iter().all(|&(a, _)| a == other));
    assert_eq!(
        enemy.len(),
        game.unit_roots(other)
            .iter()
            .filter(|&&u| !game.live_models(other, u).is_empty())
            .count()
    );
    assert_eq!(
        play::ThreatOverlay::Off.next().next().next(),
        play::ThreatOverlay::Off
    );
}

/// Issue 20, recognisable models: the figure follows the datasheet's keywords (the default
/// armies have all four kinds), stands within its base and is as tall as the model.
#[test]
fn models_are_drawn_as_figures_by_keyword_at_true_size() {
    use bevy::mesh::VertexAttributeValues;
    use wartable::app::figures::{Silhouette, figure_mesh, silhouette};
    let scene = default_scene();
    let mut kinds = std::collections::BTreeSet::new();
    for army in &scene.armies {
        for unit in &army.units {
            for model in &unit.models {
                let c = &model.characteristics;
                let kind = silhouette(&unit.datasheet.keywords, &c.base);
                kinds.insert(format!("{kind:?}"));
                let has = |k: &str| unit.datasheet.keywords.iter().any(|x| x == k);
                if has("INFANTRY") {
                    assert_eq!(kind, Silhouette::Infantry, "{}", unit.name);
                }
                if has("WALKER") {
                    assert_eq!(kind, Silhouette::Walker, "{}", unit.name);
                }
                let height = c.height - wartable::geometry::base::BASE_THICKNESS_INCHES;
                let mesh = figure_mesh(kind, &c.base, height);
                let Some(VertexAttributeValues::Float32x3(points)) =
                    mesh.attribute(Mesh::ATTRIBUTE_POSITION)
                else {
                    panic!("a mesh without positions");
                };
                let half = c.base.half_extents_inches();
                let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
                for p in points {
                    lo = lo.min(Vec3::from_array(*p));
                    hi = hi.max(Vec3::from_array(*p));
                }
                assert!(lo.z >= -1e-3, "{}: below its base", unit.name);
                assert!(
                    (hi.z - height.max(0.2)).abs() < 0.05 * height.max(0.2) + 0.02
                        || kind == Silhouette::Monster,
                    "{}: {} tall, the model is {height}",
                    unit.name,
                    hi.z
                );
                assert!(
                    hi.z <= height.max(0.2) + 1e-3,
                    "{}: taller than the model",
                    unit.name
                );
                assert!(
                    lo.x >= -half.x - 1e-3
                        && hi.x <= half.x + 1e-3
                        && lo.y >= -half.y - 1e-3
                        && hi.y <= half.y + 1e-3,
                    "{}: outside its base {half}: {lo} {hi}",
                    unit.name
                );
            }
        }
    }
    for k in ["Infantry", "Vehicle", "Walker"] {
        assert!(kinds.contains(k), "{kinds:?}");
    }
    let monster = silhouette(
        &["MONSTER".to_string()],
        &wartable::geometry::Base::Round(100.0),
    );
    assert_eq!(monster, Silhouette::Monster);
}

/// Issue 20, moving by hand: a Shift-drag makes the drafted ends a waypoint and starts a new
/// leg; the command carries each model's waypoints, the distance is the sum of the legs (a
/// dog-leg longer than the Move is refused though its straight line is not), and a Scout move
/// before the first battle round is a Normal move with the Scouts distance allowed.
#[test]
fn a_move_drafted_in_legs_follows_its_waypoints() {
    let game = intercessors_alone_in_movement();
    let (army, u) = unit(&game, 1, "intercessors");
    let first = play::drag_unit(&game, None, army, u, Vec3::new(4.0, 0.0, 0.0));
    let two = play::drag_unit(
        &game,
        Some(&first.with_new_leg()),
        army,
        u,
        Vec3::new(0.0, 4.0, 0.0),
    );
    assert_eq!(two.via.len(), 1);
    let legs = play::leg_lengths(&game, &two);
    assert_eq!(legs.len(), 2);
    assert!(
        (legs[0] - 4.0).abs() < 1e-3 && (legs[1] - 4.0).abs() < 1e-3,
        "{legs:?}"
    );
    assert!((play::draft_distance(&game, &two) - 8.0).abs() < 1e-3);
    let c = play::draft_command(&game, &two, MoveMode::Normal).unwrap();
    let Command::Move { paths, .. } = &c else {
        panic!("{c:?}")
    };
    assert!(paths.iter().all(|p| p.path.len() == 2), "{paths:?}");
    match play::check(&game, &c, Some(&two)) {
        Verdict::Illegal(r) => assert_eq!(r.rule, Rule::Movement, "{r}"),
        v => panic!("an 8\" dog-leg is more than a 6\" Move: {v:?}"),
    }
    // The same ends reached in a straight line (5.7") are a legal move.
    let straight = play::drag_unit(&game, None, army, u, Vec3::new(4.0, 4.0, 0.0));
    assert!(play::draft_distance(&game, &straight) < 6.0);
    let c = play::draft_command(&game, &straight, MoveMode::Normal).unwrap();
    assert!(play::check(&game, &c, Some(&straight)).is_legal());
    // A plain drag after a leg refines the last leg and keeps the waypoint.
    let refined = play::drag_unit(&game, Some(&two), army, u, Vec3::new(0.0, -2.0, 0.0));
    assert_eq!(refined.via, two.via);
    let c = play::draft_command(&game, &refined, MoveMode::Normal).unwrap();
    assert!(
        play::check(&game, &c, Some(&refined)).is_legal(),
        "4\" + 2\" is within 6\""
    );
    // Before the first battle round a drag is a Scout move: a Normal move.
    let mut scouts = game.clone();
    scouts.stage = Stage::Scouts;
    let c = play::draft_command(&scouts, &straight, MoveMode::Advance).unwrap();
    assert!(
        matches!(
            c,
            Command::Move {
                mode: MoveMode::Normal,
                ..
            }
        ),
        "{c:?}"
    );
    assert_eq!(
        play::allowance(&scouts, &straight, MoveMode::Normal).map(|b| b.allowed),
        scouts.scouts_inches(army, u)
    );
}

/// Issue 20, placing by hand: a unit in Strategic Reserves gets the Arrive panel in its
/// player's Movement phase; a click places it in its scene formation; near a battlefield edge
/// the engine accepts the arrival, in the middle of the table it names the edge rule, and
/// within 9" of an enemy it names the Reserves rule.
#[test]
fn a_reserves_arrival_is_placed_by_a_click_and_checked() {
    use wartable::game::ReserveKind;
    let mut game = (1..)
        .map(|s| {
            let (mut g, _) = Game::start(open_field(), s);
            g.apply(&Command::DeclareReserves {
                player: 1,
                unit: "hellblasters".into(),
                reserve: ReserveKind::StrategicReserves,
            })
            .unwrap();
            g.deploy_as_placed().unwrap();
            g
        })
        .find(|g| g.first_player == 1)
        .unwrap();
    while game.stage == Stage::Scouts {
        let p = game.active_player;
        game.apply(&Command::EndPhase { player: p }).unwrap();
    }
    let (army, hb) = unit(&game, 1, "hellblasters");
    advance_to(&mut game, 1, Phase::Movement);
    assert!(
        play::panels(&game, army, hb).arrive,
        "an arrival panel in round 1 too (the engine says no)"
    );
    advance_to(&mut game, 2, Phase::Command);
    advance_to(&mut game, 1, Phase::Movement);
    assert_eq!(game.battle_round, 2);
    let p = play::panels(&game, army, hb);
    assert!(p.arrive && !p.movement, "{p:?}");
    let verdict = |centre: Vec3| placed(&game, army, hb, centre, "SetUpReinforcements");
    // Open ground away from the table's one ruin (x 27..30, y 18..26) and the enemy.
    match verdict(Vec3::new(38.0, 22.0, 0.0)) {
        Verdict::Illegal(r) => assert!(
            matches!(r.rule, Rule::StrategicReserves | Rule::Reserves),
            "{r}"
        ),
        v => panic!("the middle of the table is no arrival point: {v:?}"),
    }
    let edges = [
        Vec3::new(30.0, 3.0, 0.0),
        Vec3::new(30.0, 41.0, 0.0),
        Vec3::new(3.0, 22.0, 0.0),
        Vec3::new(57.0, 22.0, 0.0),
        Vec3::new(10.0, 3.0, 0.0),
        Vec3::new(50.0, 41.0, 0.0),
    ];
    let found = play::suggest_placement(&game, army, hb).expect("an edge takes the arrival");
    let c = play::draft_command(&game, &found, MoveMode::Normal).unwrap();
    assert!(play::check(&game, &c, Some(&found)).is_legal());
    assert!(
        edges.iter().any(|&e| verdict(e).is_legal()),
        "some edge takes the arrival: {:?}",
        edges.iter().map(|&e| verdict(e)).collect::<Vec<_>>()
    );
    let near: Vec<Verdict> = game
        .enemy_models(army)
        .into_iter()
        .flat_map(|e| {
            let at = play::model_position(&game, e);
            [
                Vec3::new(0.0, 5.0, 0.0),
                Vec3::new(0.0, -5.0, 0.0),
                Vec3::new(5.0, 0.0, 0.0),
                Vec3::new(-5.0, 0.0, 0.0),
            ]
            .map(|d| verdict(at + d))
        })
        .collect();
    assert!(
        near.iter()
            .any(|v| matches!(v, Verdict::Illegal(r) if r.rule == Rule::Reserves)),
        "5\" from an enemy model is refused by the 9\" rule: {:?}",
        &near[..4]
    );
}

/// Issue 20, transports by hand: an INFANTRY unit by a TRANSPORT gets the Embark button, and
/// once embarked the Disembark panel; a click near the TRANSPORT places it (accepted), far
/// away the engine names the 3" rule.
#[test]
fn a_unit_embarks_and_disembarks_by_hand() {
    let mut g = trukk_in_movement();
    put_rows(&mut g, 2, "shoota-boyz", (37.5, 33.0), 1.3, 5);
    let (army, boyz) = unit(&g, 2, "shoota-boyz");
    assert!(play::panels(&g, army, boyz).embark);
    let options = g.unit_options(army, boyz);
    assert!(
        options.embark.iter().any(|(t, _)| t == "trukk"),
        "{options:?}"
    );
    let (_, redemptor) = unit(&g, 1, "redemptor");
    assert!(!play::panels(&g, g.army_of(1).unwrap(), redemptor).embark);
    let step = normal_move(&g, 2, "shoota-boyz", 0.0, -0.5);
    accepted(&mut g, step);
    accepted(
        &mut g,
        Command::Embark {
            player: 2,
            unit: "shoota-boyz".into(),
            transport: "trukk".into(),
        },
    );
    advance_to(&mut g, 2, Phase::Command);
    advance_to(&mut g, 2, Phase::Movement);
    let p = play::panels(&g, army, boyz);
    assert!(p.disembark && !p.movement, "{p:?}");
    let verdict = |centre: Vec3| placed(&g, army, boyz, centre, "Disembark");
    match verdict(Vec3::new(20.0, 30.0, 0.0)) {
        Verdict::Illegal(r) => assert_eq!(r.rule, Rule::Transports, "{r}"),
        v => panic!("20\" away is no disembarkation: {v:?}"),
    }
    let mut legal = false;
    let mut seen = Vec::new();
    for step in 0..40 {
        let d = 2.5 + 0.1 * step as f32;
        for k in 0..8 {
            let a = k as f32 * std::f32::consts::FRAC_PI_4;
            let v = verdict(Vec3::new(40.0 + d * a.cos(), 30.0 + d * a.sin(), 0.0));
            legal |= v.is_legal();
            if !matches!(&v, Verdict::Illegal(r) if r.reason.contains("on top of")) {
                seen.push(v);
            }
        }
    }
    assert!(
        legal,
        "somewhere beside the Trukk the unit disembarks: {seen:?}"
    );
    // "Find a place" finds one the engine accepts.
    let d = play::suggest_placement(&g, army, boyz).expect("a place beside the Trukk");
    let c = play::draft_command(&g, &d, MoveMode::Normal).unwrap();
    assert!(play::check(&g, &c, Some(&d)).is_legal());
    accepted(&mut g, c);
    assert_eq!(
        g.units[army][boyz].location,
        wartable::game::Location::OnTable
    );
    assert!(
        play::suggest_placement(&g, army, boyz).is_none(),
        "nothing to place now"
    );
}

/// Issue 20, facing: Q/E while dragging turn the drafted models; the Move carries each model's
/// new facing, the engine turns them, and a hull that would turn onto another model is refused
/// although the same move without the turn is not.
#[test]
fn a_drafted_turn_faces_the_models_and_the_hull_is_checked_where_it_ends() {
    let mut g = trukk_in_movement();
    let (army, trukk) = unit(&g, 2, "trukk");
    let r = g.live_models(army, trukk)[0];
    g.scene.armies[army].units[trukk].models[0].facing = 0.0;
    // A Boy 3.2" north of the Trukk's centre: clear of its side, not of its nose turned north.
    put(&mut g, 2, "shoota-boyz", 0, 40.0, 33.2);
    for m in 1..10 {
        put(&mut g, 2, "shoota-boyz", m, 50.0 - 1.3 * m as f32, 38.0);
    }
    let mut d = play::drag_unit(&g, None, army, trukk, Vec3::new(0.2, 0.0, 0.0));
    let c = play::draft_command(&g, &d, MoveMode::Normal).unwrap();
    assert!(
        play::check(&g, &c, Some(&d)).is_legal(),
        "{:?}",
        play::check(&g, &c, Some(&d))
    );
    d.turn = 90.0;
    assert_eq!(d.facing_of(&g, r), 90.0);
    let c = play::draft_command(&g, &d, MoveMode::Normal).unwrap();
    let Command::Move { paths, .. } = &c else {
        panic!()
    };
    assert_eq!(paths[0].facing, Some(90.0));
    match play::check(&g, &c, Some(&d)) {
        Verdict::Illegal(r) => assert!(
            r.reason.contains("on top of") || r.reason.contains("overlap"),
            "{r}"
        ),
        v => panic!("the turned hull would stand on the Boy: {v:?}"),
    }
    // Turned the other way round (180°): the same footprint as before, accepted and applied.
    d.turn = 180.0;
    let c = play::draft_command(&g, &d, MoveMode::Normal).unwrap();
    accepted(&mut g, c);
    assert_eq!(g.scene.armies[army].units[trukk].models[0].facing, 180.0);
}

/// The default scene (seed 7) deployed as placed, at round 1's Movement phase (its autosave in
/// a temporary folder named after `name`, removed again).
fn default_game_in_movement(name: &str) -> table::StartedGame {
    let dir = std::env::temp_dir().join(format!("wartable-{name}-{}", std::process::id()));
    let default = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/default.ron");
    let mut started = table::start_on_scene(&default, &dir, 7).unwrap();
    scenario::advance_to(&mut started, Phase::Movement).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    started
}

/// Issue 20, legs checked one by one: a move drafted in three legs whose second leg runs
/// through an enemy model is refused at that leg (the first leg alone is accepted), and the
/// last check is the whole move's verdict.
#[test]
fn a_move_in_legs_is_checked_leg_by_leg() {
    let mut game = intercessors_alone_in_movement();
    let (army, u) = unit(&game, 1, "intercessors");
    // An Ork 4" north of the squad's first model, 1" west (clear of the Captain at 10.75,
    // 7.5): a leg north after a step west runs into it.
    let first = play::model_position(&game, game.live_models(army, u)[0]);
    put(&mut game, 2, "boyz-mob", 0, first.x - 1.0, first.y + 4.0);
    let leg1 = play::drag_unit(&game, None, army, u, Vec3::new(-1.0, 0.0, 0.0));
    let leg2 = play::drag_unit(
        &game,
        Some(&leg1.with_new_leg()),
        army,
        u,
        Vec3::new(0.0, 4.0, 0.0),
    );
    let three = play::drag_unit(
        &game,
        Some(&leg2.with_new_leg()),
        army,
        u,
        Vec3::new(0.0, -4.0, 0.0),
    );
    assert_eq!(three.via.len(), 2);
    assert_eq!(play::draft_to_leg(&three, 0).ends, leg1.ends);
    let checks = play::leg_checks(&game, &three, MoveMode::Normal);
    assert_eq!(checks.len(), 3);
    assert!(checks[0].is_legal(), "{:?}", checks[0]);
    assert!(
        !checks[1].is_legal(),
        "the second leg meets the Ork: {:?}",
        checks[1]
    );
    let c = play::draft_command(&game, &three, MoveMode::Normal).unwrap();
    assert_eq!(checks[2], play::check(&game, &c, Some(&three)));
    assert!(!checks[2].is_legal());
}

/// The command a click at `centre` makes for a unit placed from off the table, and the
/// engine's verdict on it.
/// The open field in player 2's Movement phase with only the Trukk (at 40", 30"), the shoota
/// Boyz and the Redemptor left.
fn trukk_in_movement() -> Game {
    let mut g = deployed_game(open_field());
    isolate(
        &mut g,
        &[(2, "trukk"), (2, "shoota-boyz"), (1, "redemptor")],
    );
    advance_to(&mut g, 2, Phase::Movement);
    put(&mut g, 2, "trukk", 0, 40.0, 30.0);
    g
}

fn placed(game: &Game, army: usize, unit: usize, centre: Vec3, kind: &str) -> Verdict {
    let d = play::placement_draft(game, army, unit, centre);
    let c = play::draft_command(game, &d, MoveMode::Normal).unwrap();
    assert_eq!(c.kind(), kind, "{c:?}");
    play::check(game, &c, Some(&d))
}

/// Issue 49, names: the engine's sentences name units, models and terrain by id; the desktop
/// shows them as the cards do ("Deff Dread 2", "Boyz (slugga mob) x20: Boyz 4", "ruin
/// (south-west)"), and units an army has several of are numbered.
#[test]
fn engine_sentences_are_shown_in_the_names_a_player_reads() {
    let (game, _) = Game::start(default_scene(), 7);
    let orks = game.army_of(2).unwrap();
    let units = &game.scene.armies[orks].units;
    let dreads: Vec<&str> = units
        .iter()
        .filter(|u| u.datasheet.name == "Deff Dread")
        .map(|u| u.name.as_str())
        .collect();
    assert_eq!(dreads, ["Deff Dread 1", "Deff Dread 2"]);
    let mob = units.iter().find(|u| u.models.len() >= 10).unwrap();
    let dread = units.iter().find(|u| u.name == "Deff Dread 2").unwrap();
    let piece = &game.scene.layout.pieces[0];
    let text = format!(
        "{}#4 would move through a wall of '{}'; '{}' is in Engagement Range",
        mob.id, piece.id, dread.id
    );
    let shown = play::readable(&game, 2, &text);
    assert!(!shown.contains('#'), "{shown}");
    assert!(!shown.contains(&format!("'{}'", piece.id)), "{shown}");
    assert!(
        shown.contains(&format!("{}: {}", mob.name, mob.model_label(4))),
        "{shown}"
    );
    assert!(
        shown.contains("Deff Dread 2 is in Engagement Range"),
        "{shown}"
    );
    let region = play::table_region(wartable::geometry::polygon::centroid(&piece.footprint));
    assert!(
        shown.contains(&format!(
            "a wall of the {} ({region}",
            piece.category.label()
        )),
        "{shown}"
    );
    // A model alone in its unit is the unit; one of a profile the unit has once, the profile.
    assert_eq!(dread.model_label(0), "Deff Dread 2");
    assert_eq!(
        play::table_region(Vec3::new(2.0, 2.0, 0.0).truncate()),
        "south-west"
    );
    assert_eq!(
        play::table_region(Vec3::new(30.0, 22.0, 0.0).truncate()),
        "centre"
    );
    assert_eq!(
        play::table_region(Vec3::new(58.0, 43.0, 0.0).truncate()),
        "north-east"
    );
}

/// Issue 49: the line-of-sight tool draws one line per enemy unit (its best-seen model), or,
/// with an enemy model under the cursor, a line to each model of that unit it can see.
#[test]
fn sight_lines_go_to_the_hovered_unit_or_one_per_unit() {
    use wartable::app::overlay::witness_lines;
    use wartable::app::play::{LosReport, TargetSight};
    use wartable::game::sight::ModelRef;
    let line = Some([Vec3::ZERO, Vec3::X]);
    let sight = |unit: usize, model: usize, status: SightStatus, seen: bool| TargetSight {
        model: ModelRef {
            army: 1,
            unit,
            model,
        },
        status,
        witness: if seen { line } else { None },
        reason: None,
        cover: None,
    };
    let report = LosReport {
        observer: Some((0, 0)),
        targets: vec![
            sight(0, 0, SightStatus::Visible, true),
            sight(0, 1, SightStatus::FullyVisible, true),
            sight(0, 2, SightStatus::FullyVisible, true),
            sight(1, 0, SightStatus::NotVisible, false),
            sight(1, 1, SightStatus::Visible, true),
            sight(2, 0, SightStatus::NotVisible, false),
        ],
    };
    let models = |v: Vec<&TargetSight>| -> Vec<(usize, usize)> {
        v.iter().map(|t| (t.model.unit, t.model.model)).collect()
    };
    assert_eq!(models(witness_lines(&report, None)), [(0, 1), (1, 1)]);
    let hovered = Some(ModelRef {
        army: 1,
        unit: 0,
        model: 2,
    });
    assert_eq!(
        models(witness_lines(&report, hovered)),
        [(0, 0), (0, 1), (0, 2)]
    );
}

/// Issue 49: the sight tool's reason names the blocking piece as a player reads it, and that
/// piece (only) is the one outlined on the table while its model is hovered.
#[test]
fn the_blocker_of_a_hovered_model_is_named_and_outlined() {
    use wartable::app::overlay::blocking_pieces;
    use wartable::app::play::{LosReport, TargetSight};
    use wartable::game::sight::ModelRef;
    let (game, _) = Game::start(default_scene(), 7);
    let piece = game
        .scene
        .layout
        .pieces
        .iter()
        .find(|p| p.category == wartable::geometry::TerrainCategory::LowFootprint)
        .or(game.scene.layout.pieces.first())
        .unwrap();
    let reason = format!(
        "sight over or through the footprint of {} ({:?})",
        piece.id, piece.category
    );
    let shown = play::readable(&game, 1, &reason);
    assert!(
        shown.starts_with(&format!(
            "sight over or through the footprint of the {} (",
            piece.category.label()
        )),
        "{shown}"
    );
    assert!(
        !shown.contains(&piece.id) && !shown.contains("Footprint)"),
        "{shown}"
    );
    let target = ModelRef {
        army: 1,
        unit: 0,
        model: 0,
    };
    let report = LosReport {
        observer: Some((0, 0)),
        targets: vec![TargetSight {
            model: target,
            status: SightStatus::NotVisible,
            witness: None,
            reason: Some(reason),
            cover: None,
        }],
    };
    let outlined: Vec<&str> = blocking_pieces(&game, &report, Some(target))
        .iter()
        .map(|p| p.id.as_str())
        .collect();
    assert_eq!(outlined, [piece.id.as_str()]);
    assert!(blocking_pieces(&game, &report, None).is_empty());
}

/// The reaction window offers the defender's Detachment Stratagems that answer attacks ('Ard
/// as Nails), labelled with their unit and CP, and the engine accepts the offer.
#[test]
fn the_reaction_window_offers_detachment_stratagems_with_their_cp() {
    let scene =
        load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenes/army-rules.ron"))
            .unwrap();
    let mut g = deployed_game(scene);
    isolate(&mut g, &[(1, "intercessors"), (2, "nobz")]);
    put_line(&mut g, 1, "intercessors", 8.0, 10.0, 1.5);
    put(&mut g, 1, "captain", 0, 8.0, 8.4);
    put_line(&mut g, 2, "nobz", 8.0, 20.0, 1.6);
    advance_to(&mut g, 1, Phase::Shooting);
    g.apply(&Command::Shoot {
        player: 1,
        unit: "intercessors".into(),
        weapons: vec![WeaponTarget::new("Bolt rifle", "nobz")],
    })
    .unwrap();
    assert!(g.pending_shot.is_some(), "the Orks may answer");
    let choices = reaction::reaction_choices(&g);
    let (label, command) = choices
        .iter()
        .find(|(l, _)| l.starts_with("'Ard as Nails on"))
        .unwrap_or_else(|| panic!("{choices:?}"))
        .clone();
    assert!(label.ends_with("(1 CP)"), "{label}");
    assert!(g.check(&command).is_ok());
    assert_eq!(
        choices.last().map(|c| &c.1),
        Some(&Command::Pass { player: 2 })
    );
}

#[test]
fn the_menu_starts_a_game_under_the_eleventh_edition_and_it_loads_back_so() {
    let dir = std::env::temp_dir().join(format!("wartable-menu-11th-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let form = NewGameForm {
        ruleset: wartable::rules::Ruleset::Eleventh,
        ..NewGameForm::default()
    };
    let mut started = table::start_new_game(&form, &dir, 99).unwrap();
    assert_eq!(
        started.game.scene.ruleset(),
        wartable::rules::Ruleset::Eleventh
    );
    // The scene the menu wrote says so, and the game's Engagement Range is 11th's.
    let scene_file = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".scene.ron"))
        .unwrap();
    let text = std::fs::read_to_string(&scene_file).unwrap();
    assert!(text.contains("ruleset: Eleventh"), "{text}");
    assert_eq!(
        started
            .game
            .scene
            .edition()
            .engagement_range_horizontal_inches,
        2.0
    );
    scenario::deploy_all(&mut started).unwrap();
    wartable::game::save::write_save(&started.autosave, &started.save).unwrap();
    let loaded = table::load_game(&started.autosave).unwrap();
    assert_eq!(
        loaded.game.scene.ruleset(),
        wartable::rules::Ruleset::Eleventh
    );
    assert_eq!(loaded.game.state_hash(), started.game.state_hash());
    let _ = std::fs::remove_dir_all(&dir);
}
