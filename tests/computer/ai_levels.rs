//! The computer's difficulty levels, through the engine: `normal` and `hard` play whole games
//! without a refused command and use the whole game (transports, Reserves, Stratagems), the
//! same seed gives the same game, and in set-up situations they Fire Overwatch at an enemy
//! that moves into range, Fall Back from a losing fight, and charge with the unit that
//! fights rather than the one that shoots; `simulate` reports the statistics per computer
//! player and draws them.

use crate::battle;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command as Process;

use battle::*;
use wartable::ai::{Ai, Brain, GameRecord, Level, play_game};
use wartable::data::{Scene, load_scene};
use wartable::game::{Command, Game, GameEvent, Location};
use wartable::geometry::Vec2;
use wartable::rules::movement::MoveMode;
use wartable::rules::phase::{Phase, Stage};
use wartable::rules::stratagem::Stratagem;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scene(name: &str) -> Scene {
    load_scene(&root().join("scenes").join(name)).unwrap()
}

fn game_between(scene: &Scene, seed: u64, p1: Level, p2: Level) -> (Game, GameRecord) {
    let (mut a, mut b) = (Ai::with_level(p1), Ai::with_level(p2));
    play_game(scene.clone(), seed, [&mut a, &mut b])
}

#[test]
fn hard_and_normal_play_whole_games_without_a_refused_command() {
    let s = scene("default.ron");
    let games: Vec<(Game, GameRecord)> = [
        (1, Level::Hard, Level::Easy),
        (2, Level::Easy, Level::Normal),
        (3, Level::Hard, Level::Hard),
    ]
    .into_iter()
    .map(|(seed, p1, p2)| game_between(&s, seed, p1, p2))
    .collect();
    for (g, r) in &games {
        assert!(r.rejected.is_empty(), "seed {}: {:?}", r.seed, r.rejected);
        assert_eq!(g.stage, Stage::GameOver);
        // Every player gains its CP each Command phase: 5 rounds at least.
        assert!(r.stats.cp_gained.iter().all(|&cp| cp >= 5), "{:?}", r.stats);
        assert_eq!(r.stats.vp_per_round.len(), 5, "{:?}", r.stats);
    }
    // The hard mirror uses Stratagems beyond the first player's reactions.
    let (_, mirror) = &games[2];
    let used: Vec<&String> = mirror.stats.stratagems.keys().collect();
    assert!(
        mirror.stats.cp_spent.iter().sum::<u32>() >= 3,
        "{:?}",
        mirror.stats
    );
    assert!(!used.is_empty(), "{:?}", mirror.stats);
}

#[test]
fn the_same_seed_gives_the_same_hard_game() {
    let s = scene("default.ron");
    let ((a, _), (b, _)) = (
        game_between(&s, 9, Level::Hard, Level::Normal),
        game_between(&s, 9, Level::Hard, Level::Normal),
    );
    assert_eq!(a.state_hash(), b.state_hash());
    assert_eq!(a.vp, b.vp);
}

/// Normal set-up on the default scene, both players: until the battle begins.
fn set_up_by(level: Level) -> Game {
    set_up_in("default.ron", level)
}

/// The scene `name` after both players at `level` have set up and deployed (dice seed 4).
fn set_up_in(name: &str, level: Level) -> Game {
    let (mut g, _) = Game::start(scene(name), 4);
    let mut brains = [Ai::with_level(level), Ai::with_level(level)];
    for _ in 0..200 {
        if !matches!(g.stage, Stage::Setup | Stage::Deployment) {
            break;
        }
        let p = g.acting_player().unwrap();
        let other = usize::from(2 - p);
        if let Some(r) = brains[other].react(&g, 3 - p) {
            g.apply(&r).unwrap();
            continue;
        }
        let c = brains[usize::from(p - 1)].next(&g, p);
        g.apply(&c).unwrap_or_else(|e| panic!("{c:?}: {e}"));
    }
    g
}

/// In Search and Destroy (the default scene) only the home marker is within a first move of
/// the zone: the Ultramarines, with no TRANSPORT, keep one melee unit in Strategic Reserves;
/// the Orks, whose melee INFANTRY start in their transports, keep none (with the Boyz mob,
/// the Nobz and the Shoota Boyz all off the table, too few units held markers in round 1:
/// hard against easy in the Ork mirror on layout 3, 58.4% -> 79.3% of decided games).
#[test]
fn normal_and_hard_load_melee_infantry_into_transports_and_keep_a_reserve_only_without_them() {
    for level in [Level::Normal, Level::Hard] {
        let g = set_up_by(level);
        assert_ne!(g.stage, Stage::Setup);
        let orks = g.army_of(2).unwrap();
        let embarked: Vec<&str> = (0..g.units[orks].len())
            .filter(|&u| matches!(g.units[orks][u].location, Location::Embarked(_)))
            .map(|u| g.unit_id(orks, u))
            .collect();
        assert!(
            !embarked.is_empty(),
            "{level}: no Ork unit starts in a transport"
        );
        for (army, expected) in [(0, 1), (1, 0)] {
            let reserves: Vec<&str> = g
                .unit_roots(army)
                .into_iter()
                .filter(|&u| matches!(g.units[army][u].location, Location::Reserves(_)))
                .map(|u| g.unit_id(army, u))
                .collect();
            assert_eq!(
                reserves.len(),
                expected,
                "{level}: player {} Reserves {reserves:?}",
                army + 1
            );
        }
    }
    // The first player deploys everything where the scene stands.
    let g = set_up_by(Level::Easy);
    for army in [0, 1] {
        assert!(
            (0..g.units[army].len()).all(|u| g.units[army][u].location == Location::OnTable),
            "easy player {} left a unit off the table",
            army + 1
        );
    }
}

/// `normal` keeps no unit in Strategic Reserves where a second objective marker is within a
/// Move of its deployment zone (Crucible of Battle, layout 1: 5.9" from the zone): that unit
/// would hold the marker in round 1. In Search and Destroy (the default scene, 9" away) it
/// keeps one (the test above).
#[test]
fn normal_keeps_no_reserve_where_a_second_marker_is_in_reach_of_the_first_move() {
    let g = set_up_in("layout-1.ron", Level::Normal);
    assert_ne!(g.stage, Stage::Setup);
    for army in [0, 1] {
        let player = g.scene.armies[army].player;
        assert_eq!(
            wartable::ai::plan::markers_in_first_move(&g, player, 6.0),
            2,
            "player {player}: markers within a 6\" Move of the zone"
        );
        let reserves: Vec<&str> = g
            .unit_roots(army)
            .into_iter()
            .filter(|&u| matches!(g.units[army][u].location, Location::Reserves(_)))
            .map(|u| g.unit_id(army, u))
            .collect();
        assert!(
            reserves.is_empty(),
            "player {player} kept {reserves:?} in Reserves"
        );
    }
}

/// The open field at player 2's Movement phase of round 1 with only the Hellblasters and
/// Intercessors (player 1) and the Boyz mob (player 2), `gap` inches apart.
fn boyz_walking_at_marines(gap: f32) -> Game {
    walking_at_marines("boyz-mob", gap)
}

/// [`boyz_walking_at_marines`] with player 2's unit `unit` instead of the Boyz mob.
fn walking_at_marines(unit: &str, gap: f32) -> Game {
    let mut g = deployed_game(open_field());
    isolate(
        &mut g,
        &[(1, "hellblasters"), (1, "intercessors"), (2, unit)],
    );
    put_line(&mut g, 1, "hellblasters", 10.0, 8.0, 1.5);
    put_line(&mut g, 1, "intercessors", 20.0, 8.0, 1.5);
    put_line(&mut g, 2, unit, 10.0, 8.0 + gap, 1.3);
    advance_to(&mut g, 2, Phase::Movement);
    g.cp = [3, 3];
    g
}

#[test]
fn normal_fires_overwatch_at_an_enemy_that_moves_into_range_and_easy_does_not() {
    // The Boyz (9 points a model) are worth about 10 points to the Hellblasters hitting on
    // 6s, less than OVERWATCH_MIN_POINTS: the CP is kept.
    let mut g = boyz_walking_at_marines(26.0);
    let walk = Command::Move {
        player: 2,
        unit: "boyz-mob".into(),
        mode: MoveMode::Normal,
        paths: shift(&g, 2, "boyz-mob", 0.0, -5.0),
    };
    accepted(&mut g, walk);
    assert_eq!(Ai::with_level(Level::Normal).react(&g, 1), None);
    // The Nobz, whose two wounds a plasma shot takes at once, are worth it.
    let mut g = walking_at_marines("nobz", 26.0);
    let walk = Command::Move {
        player: 2,
        unit: "nobz".into(),
        mode: MoveMode::Normal,
        paths: shift(&g, 2, "nobz", 0.0, -5.0),
    };
    accepted(&mut g, walk);
    assert_eq!(Ai::new().react(&g, 1), None, "easy never reacts");
    let c = Ai::with_level(Level::Normal)
        .react(&g, 1)
        .expect("the Marines answer the move");
    let Command::UseStratagem {
        stratagem, target, ..
    } = &c
    else {
        panic!("{c:?}")
    };
    assert_eq!(*stratagem, Stratagem::FireOverwatch);
    assert_eq!(target.as_deref(), Some("nobz"));
    let events = accepted(&mut g, c);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, GameEvent::Attacked { target, .. } if target == "nobz")),
        "{events:?}"
    );
    // Once per turn: nothing more.
    assert_eq!(Ai::with_level(Level::Normal).react(&g, 1), None);
    // Out of 24" (28" after the move): no Overwatch.
    let mut far = walking_at_marines("nobz", 33.0);
    let walk = Command::Move {
        player: 2,
        unit: "nobz".into(),
        mode: MoveMode::Normal,
        paths: shift(&far, 2, "nobz", 0.0, -5.0),
    };
    accepted(&mut far, walk);
    assert_eq!(Ai::with_level(Level::Hard).react(&far, 1), None);
}

#[test]
fn a_shooting_unit_losing_a_fight_falls_back_and_a_melee_unit_charges() {
    // Hellblasters locked in combat with the Boyz mob and its Warboss: they Fall Back.
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "hellblasters"), (2, "boyz-mob")]);
    put_line(&mut g, 1, "hellblasters", 10.0, 20.0, 1.5);
    put_line(&mut g, 2, "boyz-mob", 8.0, 21.7, 1.3);
    advance_to(&mut g, 1, Phase::Movement);
    let army = g.army_of(1).unwrap();
    let u = g.find_unit(army, "hellblasters").unwrap();
    assert!(g.engaged(army, u));
    let c = Ai::with_level(Level::Normal).next(&g, 1);
    assert!(
        matches!(&c, Command::Move { unit, mode: MoveMode::FallBack, .. } if unit == "hellblasters"),
        "{c:?}"
    );
    accepted(&mut g, c);
    assert!(!g.engaged(army, u));
    // The easy player stays.
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "hellblasters"), (2, "boyz-mob")]);
    put_line(&mut g, 1, "hellblasters", 10.0, 20.0, 1.5);
    put_line(&mut g, 2, "boyz-mob", 8.0, 21.7, 1.3);
    advance_to(&mut g, 1, Phase::Movement);
    assert!(matches!(
        Ai::new().next(&g, 1),
        Command::RemainStationary { .. }
    ));
}

#[test]
fn normal_charges_with_the_unit_that_fights_not_the_one_that_shoots() {
    let mut g = deployed_game(open_field());
    isolate(
        &mut g,
        &[
            (1, "assault-intercessors"),
            (1, "hellblasters"),
            (2, "lootas"),
        ],
    );
    put_line(&mut g, 2, "lootas", 10.0, 30.0, 1.3);
    put_line(&mut g, 1, "assault-intercessors", 10.0, 24.0, 1.5);
    put_line(&mut g, 1, "hellblasters", 12.0, 26.0, 1.5);
    advance_to(&mut g, 1, Phase::Charge);
    let mut ai = Ai::with_level(Level::Normal);
    let mut declared = Vec::new();
    for _ in 0..20 {
        let c = ai.next(&g, 1);
        if let Command::DeclareCharge { unit, .. } = &c {
            declared.push(unit.clone());
        }
        if c == (Command::EndPhase { player: 1 }) {
            break;
        }
        g.apply(&c).unwrap_or_else(|e| panic!("{c:?}: {e}"));
    }
    assert!(
        declared.contains(&"assault-intercessors".to_string()),
        "{declared:?}"
    );
    assert!(
        !declared.contains(&"hellblasters".to_string()),
        "{declared:?}"
    );
}

#[test]
fn hard_and_normal_declare_a_long_charge_worth_a_few_points() {
    // The Assault Intercessors (with their Lieutenant) 9.2" from a Deff Dread: the charge
    // comes off about 28% of the time and is then worth about 20 points (what they deal
    // less half what the Dread deals back), some 6 points expected. A threshold of 8 points
    // let such charges go by (hard against hard: 39.4% of the Orks' points destroyed over
    // 800 games, 40.4% charging whenever the expected value is positive).
    for level in [Level::Normal, Level::Hard] {
        let mut g = deployed_game(open_field());
        isolate(&mut g, &[(1, "assault-intercessors"), (2, "deff-dread-1")]);
        put_line(&mut g, 2, "deff-dread-1", 10.0, 30.0, 1.3);
        put_line(&mut g, 1, "assault-intercessors", 10.0, 19.0, 1.5);
        advance_to(&mut g, 1, Phase::Charge);
        let (a, e) = (g.army_of(1).unwrap(), g.army_of(2).unwrap());
        let u = g.find_unit(a, "assault-intercessors").unwrap();
        let u = g.combined(a, u)[0];
        let t = g.find_unit(e, "deff-dread-1").unwrap();
        let odds = g
            .charge_odds(1, g.unit_id(a, u), &["deff-dread-1".to_string()])
            .unwrap()
            .probability;
        let dealt = wartable::ai::tactics::rough_unit_points(&g, (a, u), (e, t), true, None);
        let taken = wartable::ai::tactics::rough_unit_points(&g, (e, t), (a, u), true, None);
        let expected = odds * (dealt - 0.5 * taken);
        assert!(
            odds >= wartable::ai::plan::CHARGE_MIN_ODDS && expected > 0.0 && expected < 8.0,
            "odds {odds:.2}, expected {expected:.1} points"
        );
        let c = Ai::with_level(level).next(&g, 1);
        assert!(
            matches!(&c, Command::DeclareCharge { targets, .. } if targets == &["deff-dread-1".to_string()]),
            "{level}: {c:?}"
        );
    }
}

fn wartable(args: &[&str]) -> std::process::Output {
    Process::new(env!("CARGO_BIN_EXE_wartable"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

#[test]
fn simulate_reports_each_computer_player_and_draws_the_report() {
    let dir = std::env::temp_dir().join(format!("wartable-ai-levels-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("report.png");
    let out = wartable(&[
        "simulate",
        "default",
        "--games",
        "2",
        "--quiet",
        "--json",
        "--p1-ai",
        "hard",
        "--p2-ai",
        "easy",
        "--alternate",
        "--report",
        png.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], 2);
    assert_eq!(v["alternate"], true);
    assert_eq!(v["rejected_commands"], 0, "{v}");
    assert_eq!(v["players"][0]["level"], "hard");
    assert_eq!(v["players"][1]["level"], "easy");
    for p in 0..2 {
        let player = &v["players"][p];
        assert!(
            player["mean_cp_gained"].as_f64().unwrap() >= 5.0,
            "{player}"
        );
        assert_eq!(player["mean_vp_per_round"].as_array().unwrap().len(), 5);
        let share = player["mean_share_destroyed"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&share));
    }
    // The two win rates and the draws account for every game.
    let wins: f64 = (0..2)
        .map(|p| v["players"][p]["win_rate"].as_f64().unwrap())
        .sum::<f64>()
        + v["draw_rate"].as_f64().unwrap();
    assert!((wins - 1.0).abs() < 1e-9, "{v}");
    let check = wartable(&["png-check", png.to_str().unwrap()]);
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    let img = image::open(&png).unwrap();
    assert_eq!(
        (img.width(), img.height()),
        wartable::cli::report::REPORT_SIZE
    );
    // A level the computer does not have is refused with the choices.
    let bad = wartable(&["simulate", "default", "--games", "1", "--ai", "expert"]);
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("expert") && err.contains("hard"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Player 1's Movement phase on the open field with 3 CP each, its Hellblasters (Move 6") in
/// a line from (11, 23.5), 10.5" short of the north-west objective (14, 34), and the Lootas in
/// the far corner, out of their guns' reach; with `straggler`, the fifth Hellblaster stands
/// there instead.
fn hellblasters_short_of_the_marker(straggler: Option<(f32, f32)>) -> Game {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "hellblasters"), (2, "lootas")]);
    put_line(&mut g, 1, "hellblasters", 11.0, 23.5, 1.5);
    if let Some((x, y)) = straggler {
        put(&mut g, 1, "hellblasters", 4, x, y);
    }
    put_line(&mut g, 2, "lootas", 50.0, 43.0, 1.3);
    advance_to(&mut g, 1, Phase::Movement);
    g.cp = [3, 3];
    g
}

#[test]
fn hard_rolls_to_advance_onto_an_objective_out_of_a_normal_moves_reach_and_easy_does_not() {
    // The Hellblasters (Move 6") 10.5" short of the north-west objective (14, 34), every
    // enemy unit out of their guns' reach: a Normal move falls short, an Advance of 3+
    // arrives.
    let start = || hellblasters_short_of_the_marker(None);
    let mut g = start();
    let before = pos(&g, 1, "hellblasters", 2);
    let mut ai = Ai::with_level(Level::Hard);
    let c = ai.next(&g, 1);
    assert_eq!(
        c,
        Command::Advance {
            player: 1,
            unit: "hellblasters".into()
        }
    );
    let events = accepted(&mut g, c);
    let Some(&GameEvent::AdvanceRolled { mut roll, .. }) = events.first() else {
        panic!("{events:?}")
    };
    // A short roll may be re-rolled (Command Re-roll); then the Advance itself.
    let mut c = ai.next(&g, 1);
    if let Command::UseStratagem { stratagem, .. } = &c {
        assert_eq!(*stratagem, Stratagem::CommandReroll);
        assert!(roll < 3, "a roll of {roll} already arrives");
        let events = accepted(&mut g, c);
        roll = events
            .iter()
            .find_map(|e| match e {
                GameEvent::AdvanceRolled { roll, .. } => Some(*roll),
                _ => None,
            })
            .expect("the Advance roll again");
        c = ai.next(&g, 1);
    }
    assert!(
        matches!(&c, Command::Move { unit, mode: MoveMode::Advance, .. } if unit == "hellblasters"),
        "{c:?}"
    );
    let events = accepted(&mut g, c);
    assert!(
        events.iter().any(|e| matches!(
            e,
            GameEvent::Moved { advance_roll: Some(r), .. } if *r == roll
        )),
        "{events:?}"
    );
    let moved = pos(&g, 1, "hellblasters", 2).distance(before);
    assert!(
        moved > 6.0 && moved <= 6.0 + f32::from(roll) + 0.01,
        "moved {moved}\" with a roll of {roll}"
    );
    // The easy player makes a Normal move.
    let g = start();
    assert!(matches!(
        Ai::new().next(&g, 1),
        Command::Move {
            mode: MoveMode::Normal,
            ..
        }
    ));
}

/// The Assault Intercessors on the centre objective (30, 22) with the Lootas 6" away off it,
/// at player 1's Charge phase; with `backed` the Intercessors hold the objective with them.
fn charge_from_the_centre(backed: bool) -> Vec<String> {
    let mut keep = vec![(1, "assault-intercessors"), (2, "lootas")];
    if backed {
        keep.push((1, "intercessors"));
    }
    let mut g = deployed_game(open_field());
    isolate(&mut g, &keep);
    put_line(&mut g, 1, "assault-intercessors", 23.0, 22.0, 1.5);
    put_line(&mut g, 2, "lootas", 23.0, 28.0, 1.3);
    if backed {
        put_line(&mut g, 1, "intercessors", 23.0, 20.0, 1.5);
    }
    advance_to(&mut g, 1, Phase::Charge);
    let mut ai = Ai::with_level(Level::Hard);
    let mut declared = Vec::new();
    for _ in 0..20 {
        let c = ai.next(&g, 1);
        if let Command::DeclareCharge { unit, .. } = &c {
            declared.push(unit.clone());
        }
        if c == (Command::EndPhase { player: 1 }) || !declared.is_empty() {
            break;
        }
        g.apply(&c).unwrap_or_else(|e| panic!("{c:?}: {e}"));
    }
    declared
}

#[test]
fn hard_does_not_charge_off_an_objective_only_its_unit_holds() {
    assert!(charge_from_the_centre(false).is_empty());
    assert_eq!(
        charge_from_the_centre(true),
        vec!["assault-intercessors".to_string()]
    );
}

/// The Vanguard army's Deep Strike and SMOKE units give `hard` its Rapid Ingress and Smokescreen.
#[test]
fn hard_deep_strikes_and_uses_rapid_ingress_and_smokescreen_with_the_vanguard() {
    let s = scene("vanguard.ron");
    // The Inceptors (Deep Strike) start in Reserves.
    let g = set_up_in("vanguard.ron", Level::Hard);
    let um = g.army_of(1).unwrap();
    let inceptors = g.find_unit(um, "inceptors").unwrap();
    assert_eq!(
        g.units[um][inceptors].location,
        Location::Reserves(wartable::game::ReserveKind::DeepStrike)
    );
    // Over a few games the Marines bring them in by Rapid Ingress in the Orks' turn, and use
    // Smokescreen on the Incursors (SMOKE); no command is refused.
    let mut used: BTreeMap<String, u32> = BTreeMap::new();
    for seed in 0..12u64 {
        let (_, r) = game_between(&s, 1000 + seed, Level::Hard, Level::Hard);
        assert!(r.rejected.is_empty(), "seed {seed}: {:?}", r.rejected);
        for (name, [p1, _]) in r.stats.stratagems {
            *used.entry(name).or_default() += p1;
        }
    }
    for name in ["Rapid Ingress", "Smokescreen"] {
        assert!(
            used.get(name).copied().unwrap_or(0) > 0,
            "{name} never used: {used:?}"
        );
    }
}

/// Player 1's assault-intercessors (two rows of five and their Lieutenant) charge Lootas in a
/// line just out of Engagement Range, played by `level` for player 1 and `easy` for player 2
/// until the Fight phase ends: the models of the charging unit that attacked when it fought.
fn bearers_after_charging_a_line(level: Level) -> usize {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "assault-intercessors"), (2, "lootas")]);
    put_rows(&mut g, 1, "assault-intercessors", (10.0, 20.0), 1.5, 5);
    put(&mut g, 1, "lieutenant", 0, 13.0, 18.5);
    put_line(&mut g, 2, "lootas", 8.0, 24.0, 1.3);
    advance_to(&mut g, 1, Phase::Charge);
    let (mut me, mut them) = (Ai::with_level(level), Ai::new());
    let mut bearers = 0;
    while g.battle_round == 1
        && g.active_player == 1
        && matches!(g.phase, Phase::Charge | Phase::Fight)
    {
        let p = g.acting_player().unwrap();
        let c = if p == 1 {
            me.next(&g, 1)
        } else {
            them.next(&g, 2)
        };
        let fights = matches!(&c, Command::Fight { unit, .. } if unit == "assault-intercessors");
        for e in g.apply(&c).unwrap_or_else(|e| panic!("{c:?}: {e}")) {
            if let GameEvent::Attacked { bearers: b, .. } = e
                && fights
            {
                bearers += b;
            }
        }
    }
    bearers
}

#[test]
fn normal_charges_and_piles_in_model_by_model_so_the_second_row_fights() {
    let (normal, easy) = (
        bearers_after_charging_a_line(Level::Normal),
        bearers_after_charging_a_line(Level::Easy),
    );
    // The unit is eleven models: the whole second row takes part (in contact with a Loota or
    // with a friend who touches one), where moving the unit as one block leaves it behind.
    assert!(
        normal >= 9,
        "normal: {normal} of 11 attacked (easy: {easy})"
    );
    assert!(normal > easy, "normal: {normal}, easy: {easy}");
}

/// Player 1's first Movement-phase command (`normal`) for the Assault Intercessors set in two
/// rows in a corner, with the Lootas' line starting at (`x`, 2).
fn first_move_with_the_enemy_at(x: f32) -> Command {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "assault-intercessors"), (2, "lootas")]);
    put_rows(&mut g, 1, "assault-intercessors", (2.0, 2.0), 1.5, 5);
    put(&mut g, 1, "lieutenant", 0, 5.0, 5.5);
    put_line(&mut g, 2, "lootas", x, 2.0, 1.3);
    advance_to(&mut g, 1, Phase::Movement);
    Ai::with_level(Level::Normal).next(&g, 1)
}

#[test]
fn normal_advances_when_nothing_is_in_reach_and_moves_to_charge_when_something_is() {
    // 40" off, beyond the unit's pistols and any charge this turn: it rolls to Advance.
    let far = first_move_with_the_enemy_at(44.0);
    assert!(
        matches!(&far, Command::Advance { unit, .. } if unit == "assault-intercessors"),
        "{far:?}"
    );
    // 12" off, a charge after a Normal move: it moves (a Normal move keeps the charge).
    let near = first_move_with_the_enemy_at(16.0);
    assert!(
        matches!(&near, Command::Move { unit, mode: MoveMode::Normal, .. } if unit == "assault-intercessors"),
        "{near:?}"
    );
}

/// The objective markers in player 1's deployment zone that none of its models holds after
/// both sides at `level` have deployed on layout 7 with Hammer and Anvil's zones and Search and
/// Destroy's markers (two markers a zone; tests/scenes/two-markers-a-zone.ron).
fn unheld_home_markers(level: Level) -> Vec<String> {
    let g = set_up_in("../tests/scenes/two-markers-a-zone.ron", level);
    let zone = g.scene.deployment.zone_of(1).unwrap();
    (0..g.scene.objectives.len())
        .filter(|&i| {
            let o = &g.scene.objectives[i];
            wartable::geometry::polygon::contains(&zone, o.at.vec())
                && g.levels_of_control(i).0[0] == 0
        })
        .map(|i| g.scene.objectives[i].id.clone())
        .collect()
}

#[test]
fn hard_deploys_on_every_marker_of_its_zone_when_the_zone_holds_two() {
    assert_eq!(unheld_home_markers(Level::Hard), Vec::<String>::new());
    assert!(
        !unheld_home_markers(Level::Easy).is_empty(),
        "easy deploys where the scene stands and leaves a marker of its zone empty"
    );
}

/// The Eliminators' Objective Control level at the centre objective (30, 22) after their
/// first move, and how far from it the centre of their models ends, when they stand 6.4"
/// south of it and the Boyz, the Nobz and a Deff Dread wait north of it, each with the end
/// of a whole move onto the marker just within its reach (charge: Move + 9"; the Deff
/// Dread's guns: range + Move) and the end of a 3/4 move just out of it.
fn eliminators_move_onto_a_threatened_marker(level: Level) -> (u32, f32) {
    let mut g = deployed_game(open_field());
    isolate(
        &mut g,
        &[
            (1, "eliminators"),
            (2, "boyz-mob"),
            (2, "nobz"),
            (2, "deff-dread-2"),
        ],
    );
    put_line(&mut g, 1, "eliminators", 28.0, 15.6, 2.0);
    put_rows(&mut g, 2, "boyz-mob", (24.15, 35.45), 1.3, 10);
    put(&mut g, 2, "warboss", 0, 30.0, 38.0);
    put_line(&mut g, 2, "nobz", 19.5, 34.1, 1.6);
    put(&mut g, 2, "deff-dread-2", 0, 54.0, 42.5);
    advance_to(&mut g, 1, Phase::Movement);
    let c = Ai::with_level(level).next(&g, 1);
    assert!(
        matches!(&c, Command::Move { unit, mode: MoveMode::Normal, .. } if unit == "eliminators"),
        "{c:?}"
    );
    accepted(&mut g, c);
    let marker = objective(&g, "centre");
    let held = g.levels_of_control(marker).0[0];
    let n = 3;
    let centre = (0..n)
        .map(|m| pos(&g, 1, "eliminators", m))
        .sum::<wartable::geometry::Vec3>()
        / n as f32;
    (
        held,
        centre
            .truncate()
            .distance(g.scene.objectives[marker].at.vec()),
    )
}

#[test]
fn hard_moves_onto_an_objective_the_enemy_can_reach() {
    // Holding the marker is worth the enemy's reply: `hard` goes onto it as `normal` does
    // (0.5" from it, as close as a Move of 6" gets) instead of stopping a 3/4 move short, out
    // of the enemy's reach (the lookahead penalty's choice before: 1.97" from it).
    let hard = eliminators_move_onto_a_threatened_marker(Level::Hard);
    let normal = eliminators_move_onto_a_threatened_marker(Level::Normal);
    assert!(
        hard.0 > 0,
        "hard ended {}\" from the marker, off it",
        hard.1
    );
    assert!(
        (hard.1 - normal.1).abs() < 0.01,
        "hard {hard:?}, normal {normal:?}"
    );
}

/// The first move at `level` of a Deff Dread standing where one walked into layout 6's
/// ruin-8 in a game (its walls between the Dread and the objectives it goes for, the way out
/// behind it), with the Intercessors far off in their own corner: the command and how far
/// the Dread moved (inches, straight).
fn deff_dread_in_a_ruin(level: Level) -> (Command, f32) {
    let mut g = deployed_game(scene("layout-6.ron"));
    isolate(
        &mut g,
        &[(1, "intercessors"), (2, "lootas"), (2, "deff-dread-1")],
    );
    put_rows(&mut g, 1, "intercessors", (4.0, 2.0), 1.5, 5);
    put_line(&mut g, 2, "lootas", 40.2, 34.0, 1.3);
    put(&mut g, 2, "deff-dread-1", 0, 49.1, 33.9);
    advance_to(&mut g, 2, Phase::Movement);
    let from = pos(&g, 2, "deff-dread-1", 0);
    let mut ai = Ai::with_level(level);
    // The Lootas on the defender's home marker stay to hold it; then the Dread's command.
    let mut c = ai.next(&g, 2);
    while !matches!(&c, Command::Move { unit, .. } | Command::RemainStationary { unit, .. } if unit == "deff-dread-1")
    {
        assert!(
            matches!(&c, Command::RemainStationary { unit, .. } if unit == "lootas"),
            "{c:?}"
        );
        accepted(&mut g, c);
        c = ai.next(&g, 2);
    }
    if matches!(c, Command::Move { .. }) {
        accepted(&mut g, c.clone());
    }
    (c, pos(&g, 2, "deff-dread-1", 0).distance(from))
}

#[test]
fn normal_finds_a_way_out_of_a_ruin_that_straight_moves_cannot() {
    // Every straight move towards the objectives crosses a wall of the ruin (a VEHICLE does
    // not pass through ruin walls): `easy`, with straight moves only, stays put; `normal`
    // bends round the walls or routes out through the open side.
    let (easy, moved) = deff_dread_in_a_ruin(Level::Easy);
    assert!(
        !matches!(easy, Command::Move { .. }) || moved < 0.5,
        "easy: {easy:?}, {moved}\""
    );
    let (normal, moved) = deff_dread_in_a_ruin(Level::Normal);
    let Command::Move { paths, .. } = &normal else {
        panic!("normal: {normal:?}");
    };
    assert!(paths[0].path.len() >= 2, "a bent path: {normal:?}");
    assert!(moved >= 2.0, "normal moved {moved}\"");
}

/// Plays `player`'s commands from a new computer player at `level` until it ends the phase
/// (at most `most` commands), each one accepted by the engine.
fn play_phase(g: &mut Game, level: Level, player: u8, most: usize) {
    let mut ai = Ai::with_level(level);
    for _ in 0..most {
        let c = ai.next(g, player);
        if matches!(c, Command::EndPhase { .. }) {
            break;
        }
        accepted(g, c);
    }
}

/// The Movement phase of player 1 at `level` on the open field with its Redemptor (Move 8")
/// on the line from its home marker to the centre marker, 9" from home and 11" from the
/// centre, and its Intercessors (Move 6") 8.9" south-west of home, the Lootas far off in the
/// north-east corner: player 1's level of control (its OC in range) of the home marker and
/// of the centre marker after the phase.
fn home_and_centre_control_after_moving(level: Level) -> (u32, u32) {
    let mut g = deployed_game(open_field());
    isolate(
        &mut g,
        &[(1, "intercessors"), (1, "redemptor"), (2, "lootas")],
    );
    put_rows(&mut g, 1, "intercessors", (3.0, 5.25), 1.5, 5);
    put(&mut g, 1, "captain", 0, 10.5, 6.0);
    put(&mut g, 1, "redemptor", 0, 21.2, 15.4);
    put_rows(&mut g, 2, "lootas", (50.0, 40.0), 1.3, 5);
    advance_to(&mut g, 1, Phase::Movement);
    play_phase(&mut g, level, 1, 8);
    let control = |id: &str| g.levels_of_control(objective(&g, id)).0[0];
    (control("attacker-home"), control("centre"))
}

#[test]
fn normal_and_hard_send_units_so_that_two_markers_are_reached_this_turn() {
    // The Redemptor is the closer to the home marker in Moves (0.69 against 0.85 for the
    // Intercessors and their Captain) but also the only unit that reaches the centre this
    // turn (0.94 Moves; the Intercessors need 3.4). Matching the pair fewest Moves apart
    // first sent the Redemptor home and the Intercessors towards the centre, four rounds
    // away; the least total of rounds to arrive sends each unit to a marker it reaches now.
    for level in [Level::Normal, Level::Hard] {
        let (home, centre) = home_and_centre_control_after_moving(level);
        assert!(
            home > 0 && centre > 0,
            "{level}: player 1's level of control: home {home}, centre {centre}"
        );
    }
}

/// Player 2's first command at `level` in its Movement phase of battle round `round` on the
/// open field (Only War, which scores markers at the end of the Command phase), with the
/// Nobz alone on the defender's home marker and the Intercessors 12" south of them: the
/// command and how much closer it brings the Nobz to the Intercessors (inches, centres).
fn nobz_on_their_marker_in_round(round: u8, level: Level) -> (Command, f32) {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "intercessors"), (2, "nobz")]);
    put_line(&mut g, 2, "nobz", 43.4, 34.0, 1.3);
    put_rows(&mut g, 1, "intercessors", (43.0, 20.0), 1.5, 5);
    put(&mut g, 1, "captain", 0, 46.0, 18.5);
    advance_to(&mut g, 2, Phase::Movement);
    g.battle_round = round;
    first_command_closing_in(g, level, (2, "nobz", 5), (1, "intercessors", 10))
}

/// The first command of `mover`'s player at `level`, and how much closer it brings the
/// centre of the mover's first `n` models to that of the target unit's (inches; 0 unless
/// the command is an accepted Move). Units as (player, unit, models counted).
fn first_command_closing_in(
    mut g: Game,
    level: Level,
    mover: (u8, &str, usize),
    target: (u8, &str, usize),
) -> (Command, f32) {
    let centre = |g: &Game, (player, unit, n): (u8, &str, usize)| {
        (0..n)
            .map(|m| pos(g, player, unit, m))
            .sum::<wartable::geometry::Vec3>()
            / n as f32
    };
    let gap = |g: &Game| centre(g, mover).distance(centre(g, target));
    let before = gap(&g);
    let c = Ai::with_level(level).next(&g, mover.0);
    if matches!(c, Command::Move { .. }) {
        accepted(&mut g, c.clone());
    }
    (c, before - gap(&g))
}

#[test]
fn the_last_turn_with_nothing_left_to_score_goes_for_the_enemy() {
    // Battle round 1: the Nobz alone hold their marker and stay on it.
    let (first, _) = nobz_on_their_marker_in_round(1, Level::Hard);
    assert!(
        matches!(&first, Command::RemainStationary { unit, .. } if unit == "nobz"),
        "{first:?}"
    );
    // Battle round 5, player 2 going second: Only War scored its last markers at the end of
    // this Command phase, so the marker is worth nothing now and the Nobz close in.
    let (last, closer) = nobz_on_their_marker_in_round(5, Level::Hard);
    assert!(
        matches!(&last, Command::Move { unit, .. } if unit == "nobz") && closer > 3.0,
        "{last:?}, {closer}\" closer"
    );
}

/// Player 1's first command (`hard`) in its Movement phase of battle round 5, going first
/// (Only War: its last markers were scored at the end of this Command phase), with its
/// Assault Intercessors alone on their home marker and the Nobz 12" north of them, or, with
/// `nobz_on_marker`, 2.4" south of the rows, within range of the marker: the command and
/// how much closer it brings the Assault Intercessors to the Nobz (inches, centres).
fn assault_intercessors_on_their_marker_going_first(nobz_on_marker: bool) -> (Command, f32) {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "assault-intercessors"), (2, "nobz")]);
    put_rows(&mut g, 1, "assault-intercessors", (11.0, 10.0), 1.5, 5);
    put(&mut g, 1, "lieutenant", 0, 14.0, 13.0);
    let y = if nobz_on_marker { 7.6 } else { 22.0 };
    put_line(&mut g, 2, "nobz", 11.4, y, 1.3);
    advance_to(&mut g, 1, Phase::Movement);
    g.battle_round = 5;
    first_command_closing_in(
        g,
        Level::Hard,
        (1, "assault-intercessors", 10),
        (2, "nobz", 5),
    )
}

#[test]
fn the_first_players_last_turn_holds_only_markers_the_enemy_stands_on() {
    // The enemy scores at the end of its coming Command phase, before it moves: a marker
    // with no enemy model in range is worth nothing to hold now, and the unit closes in.
    let (free, closer) = assault_intercessors_on_their_marker_going_first(false);
    assert!(
        matches!(&free, Command::Move { unit, .. } if unit == "assault-intercessors")
            && closer > 3.0,
        "{free:?}, {closer}\" closer"
    );
    // With Nobz within range of the marker, leaving would hand it to them: the unit stays.
    let (held, _) = assault_intercessors_on_their_marker_going_first(true);
    assert!(
        matches!(&held, Command::RemainStationary { unit, .. } if unit == "assault-intercessors"),
        "{held:?}"
    );
}

/// Player 1's first Movement-phase command (`hard`) for `unit`, in a line 10.5" short of
/// the north-west objective (14, 34), with the Lootas 23" east of it: within its guns' range
/// plus its Move, out of any charge.
fn first_move_towards_the_marker_with_guns_in_reach(unit: &str) -> Command {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, unit), (2, "lootas")]);
    put_line(&mut g, 1, unit, 11.0, 23.5, 1.5);
    put_line(&mut g, 2, "lootas", 37.0, 23.5, 1.3);
    advance_to(&mut g, 1, Phase::Movement);
    Ai::with_level(Level::Hard).next(&g, 1)
}

#[test]
fn hard_advances_a_unit_whose_guns_all_have_assault_and_not_one_whose_guns_do_not() {
    // Plasma incinerators (ASSAULT) still shoot after an Advance: nothing is given up.
    let assault = first_move_towards_the_marker_with_guns_in_reach("hellblasters");
    assert!(
        matches!(&assault, Command::Advance { unit, .. } if unit == "hellblasters"),
        "{assault:?}"
    );
    // Bolt sniper rifles (HEAVY, no ASSAULT) would not: the Eliminators do not Advance.
    let heavy = first_move_towards_the_marker_with_guns_in_reach("eliminators");
    assert!(!matches!(&heavy, Command::Advance { .. }), "{heavy:?}");
}

#[test]
fn hard_does_not_roll_to_advance_a_unit_out_of_coherency_that_cannot_move() {
    // The Hellblasters as in the Advance test above, but one of them stands 6" from the
    // rest (the unit is out of Unit Coherency, as after losing the model between two others
    // to Fire Overwatch): every move that keeps their shape ends out of coherency, and so
    // does an empty Advance. Rolling to Advance would leave the computer only a Move the
    // engine refuses; every command of the phase must be accepted.
    let mut g = hellblasters_short_of_the_marker(Some((11.0, 17.5)));
    let mut ai = Ai::with_level(Level::Hard);
    let mut commands = Vec::new();
    while g.phase == Phase::Movement && g.active_player == 1 && commands.len() < 20 {
        let c = ai.next(&g, 1);
        commands.push(c.clone());
        if let Err(r) = g.apply(&c) {
            panic!("refused {c:?} after {commands:?}: {r}");
        }
    }
    assert!(
        !commands
            .iter()
            .any(|c| matches!(c, Command::Advance { .. })),
        "{commands:?}"
    );
    assert!(g.phase != Phase::Movement, "{commands:?}");
}

/// Player 2's first command (`hard`) in its Movement phase of battle round 3 (when embarked
/// units always try to disembark), with the Shoota Boyz embarked in the Trukk standing at
/// `(x, y)` facing `facing` degrees; `g` holds the scenario's other units.
fn first_command_with_boyz_in_the_trukk(
    mut g: Game,
    (x, y): (f32, f32),
    facing: f32,
) -> (Game, Command) {
    put(&mut g, 2, "trukk", 0, x, y);
    let a = g.army_of(2).unwrap();
    let trukk = g.find_unit(a, "trukk").unwrap();
    let boyz = g.find_unit(a, "shoota-boyz").unwrap();
    g.scene.armies[a].units[trukk].models[0].facing = facing;
    g.units[a][boyz].location = Location::Embarked(trukk);
    advance_to(&mut g, 2, Phase::Movement);
    g.battle_round = 3;
    let c = Ai::with_level(Level::Hard).next(&g, 2);
    (g, c)
}

#[test]
fn passengers_disembark_where_walls_leave_room_for_the_whole_unit() {
    // With the Trukk facing east or north-east and the Intercessors to the west, the places
    // round the hull nearest them lie in a corner of the ruin too small for ten Boyz in Unit
    // Coherency (the old placement gave up there and the Trukk drove on with them); the
    // rest of the ring holds them, and the engine accepts the Disembark.
    for facing in [0.0f32, 45.0] {
        // Layout 6, the Trukk in the pocket of the ruin north-west of the defender's home
        // marker (where a game left it), the Intercessors at (20, 36).
        let mut g = deployed_game(scene("layout-6.ron"));
        isolate(
            &mut g,
            &[(1, "intercessors"), (2, "trukk"), (2, "shoota-boyz")],
        );
        put_rows(&mut g, 1, "intercessors", (20.0, 36.0), 1.5, 5);
        let (mut g, c) = first_command_with_boyz_in_the_trukk(g, (39.29, 33.14), facing);
        assert!(
            matches!(&c, Command::Disembark { unit, .. } if unit == "shoota-boyz"),
            "facing {facing}: {c:?}"
        );
        accepted(&mut g, c);
        let a = g.army_of(2).unwrap();
        let boyz = g.find_unit(a, "shoota-boyz").unwrap();
        assert_eq!(g.units[a][boyz].location, Location::OnTable);
    }
}

#[test]
fn a_boyz_mob_with_its_warboss_disembarks_from_the_battlewagon_whole() {
    // 20 Boyz (32mm bases) led by a Warboss (50mm) in the Battlewagon, battle round 3 (they
    // always try). Where a game on layout 4 left the Battlewagon, a ruin's walls close one
    // end and the mob's own army stands round it; in the open field, nothing does. Rings
    // sized by the Warboss's base left room for fewer than 21 models (the mob stayed aboard
    // all game); placed base by base they all get out, and the engine accepts it.
    let layout_4 = deployed_game(scene("layout-4.ron"));
    for (mut g, at, facing) in [
        (layout_4, (42.18, 25.88), -35.0f32),
        (deployed_game(open_field()), (30.0, 22.0), 0.0),
    ] {
        isolate(
            &mut g,
            &[(1, "intercessors"), (2, "battlewagon"), (2, "boyz-mob")],
        );
        put_rows(&mut g, 1, "intercessors", (8.0, 8.0), 1.5, 5);
        put(&mut g, 2, "battlewagon", 0, at.0, at.1);
        let a = g.army_of(2).unwrap();
        let wagon = g.find_unit(a, "battlewagon").unwrap();
        g.scene.armies[a].units[wagon].models[0].facing = facing;
        for id in ["boyz-mob", "warboss"] {
            let u = g.find_unit(a, id).unwrap();
            g.units[a][u].location = Location::Embarked(wagon);
        }
        advance_to(&mut g, 2, Phase::Movement);
        g.battle_round = 3;
        let c = Ai::with_level(Level::Hard).next(&g, 2);
        assert!(
            matches!(&c, Command::Disembark { unit, models, .. } if unit == "boyz-mob" && models.len() == 21),
            "at {at:?}: {c:?}"
        );
        accepted(&mut g, c);
        let boyz = g.find_unit(a, "boyz-mob").unwrap();
        assert_eq!(g.live_models(a, boyz).len(), 21, "at {at:?}");
    }
}

#[test]
fn a_battlewagon_on_the_home_marker_delivers_the_mob_and_the_shoota_boyz_take_the_marker() {
    // The Battlewagon's hull reaches within range of the Orks' home marker with the Boyz mob
    // and its Warboss aboard, the enemy far off: it drives at the enemy to deliver them (kept
    // on the marker, it held them out of the game for two rounds), and the Shoota Boyz, 7"
    // from the marker, come to hold it.
    for level in [Level::Normal, Level::Hard] {
        let mut g = deployed_game(open_field());
        isolate(
            &mut g,
            &[
                (1, "intercessors"),
                (2, "battlewagon"),
                (2, "boyz-mob"),
                (2, "shoota-boyz"),
            ],
        );
        put_rows(&mut g, 1, "intercessors", (4.0, 4.0), 1.5, 5);
        put_rows(&mut g, 2, "shoota-boyz", (50.0, 40.0), 1.3, 5);
        put(&mut g, 2, "battlewagon", 0, 51.0, 31.0);
        let a = g.army_of(2).unwrap();
        let wagon = g.find_unit(a, "battlewagon").unwrap();
        g.scene.armies[a].units[wagon].models[0].facing = 0.0;
        for id in ["boyz-mob", "warboss"] {
            let u = g.find_unit(a, id).unwrap();
            g.units[a][u].location = Location::Embarked(wagon);
        }
        advance_to(&mut g, 2, Phase::Movement);
        let home = g
            .scene
            .objectives
            .iter()
            .position(|o| o.id == "defender-home")
            .unwrap();
        // The Battlewagon's OC 5 alone holds the marker.
        assert_eq!(g.levels_of_control(home).0, [0, 5]);
        let before = g.scene.armies[a].units[wagon].models[0].position;
        let mut ai = Ai::with_level(level);
        for _ in 0..30 {
            let c = ai.next(&g, 2);
            if matches!(c, Command::EndPhase { .. }) {
                break;
            }
            accepted(&mut g, c);
        }
        let after = g.scene.armies[a].units[wagon].models[0].position;
        assert!(
            before.distance(after) >= 5.0,
            "{level}: the Battlewagon moved {:.1}\"",
            before.distance(after)
        );
        let held = g.levels_of_control(home).0;
        assert!(held[0] == 0 && held[1] >= 2, "{level}: {held:?}");
    }
}

#[test]
fn hard_deploys_the_boyz_mob_with_its_warboss_in_the_battlewagon() {
    // The biggest melee unit goes into the biggest TRANSPORT that holds it: 21 models in the
    // Battlewagon (capacity 22), not the 5 Nobz or the 10 Shoota Boyz first.
    let s = scene("layout-4.ron");
    let (mut g, _) = Game::start(s, 1);
    let mut ai = Ai::with_level(Level::Hard);
    for _ in 0..200 {
        let Some(p) = g.acting_player() else { break };
        if g.stage == Stage::Battle {
            break;
        }
        let c = if p == 2 {
            ai.next(&g, 2)
        } else {
            Ai::with_level(Level::Easy).next(&g, 1)
        };
        accepted(&mut g, c);
    }
    assert_eq!(g.stage, Stage::Battle);
    let a = g.army_of(2).unwrap();
    let wagon = g.find_unit(a, "battlewagon").unwrap();
    let aboard: Vec<&str> = (0..g.units[a].len())
        .filter(|&u| g.units[a][u].location == Location::Embarked(wagon))
        .map(|u| g.unit_id(a, u))
        .collect();
    assert!(
        aboard.contains(&"boyz-mob"),
        "aboard the Battlewagon: {aboard:?}"
    );
}

#[test]
fn passengers_disembark_out_of_engagement_range_of_an_enemy_hull() {
    // The Redemptor (a large base) stands 7" to 7.6" north of the Trukk (facing east) in the
    // open field: places round the hull towards it can lie more than 2.5" beyond a Boy's base from its
    // centre and still within Engagement Range of its base, which the engine refuses. The
    // Shoota Boyz disembark all the same (battle round 3: they always try), out of reach.
    for tenth in [70, 72, 74, 76] {
        let d = tenth as f32 / 10.0;
        let mut g = deployed_game(open_field());
        isolate(
            &mut g,
            &[(1, "redemptor"), (2, "trukk"), (2, "shoota-boyz")],
        );
        put(&mut g, 1, "redemptor", 0, 30.0, 22.0 + d);
        let (mut g, c) = first_command_with_boyz_in_the_trukk(g, (30.0, 22.0), 0.0);
        assert!(
            matches!(&c, Command::Disembark { unit, .. } if unit == "shoota-boyz"),
            "Redemptor {d}\" away: {c:?}"
        );
        accepted(&mut g, c);
    }
}

/// The open field at player 2's Movement phase in battle round 2 with only the Intercessors
/// (in rows from (12, 33)) and an empty Trukk (at (36, 30)) left.
fn empty_trukk_before_moving() -> Game {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "intercessors"), (2, "trukk")]);
    put_rows(&mut g, 1, "intercessors", (12.0, 33.0), 1.5, 5);
    put(&mut g, 2, "trukk", 0, 36.0, 30.0);
    advance_to(&mut g, 2, Phase::Movement);
    g.battle_round = 2;
    g
}

/// Player 2's Movement phase at `level` in battle round 2 on the open field with only an
/// empty Trukk (Move 12", OC 2) 10" from the centre marker and the defender's home marker,
/// and the Intercessors 20" west of it (within its Move plus 12"): the markers player 2
/// controls afterwards and how far the Trukk ends from the nearest Intercessor's base
/// centre (inches).
fn empty_trukk_in_round_2(level: Level) -> (Vec<String>, f32) {
    let mut g = empty_trukk_before_moving();
    play_phase(&mut g, level, 2, 10);
    let held = (0..g.scene.objectives.len())
        .filter(|&i| g.levels_of_control(i).0[1] > 0)
        .map(|i| g.scene.objectives[i].id.clone())
        .collect();
    let trukk = pos(&g, 2, "trukk", 0).truncate();
    let a = g.army_of(1).unwrap();
    let u = g.find_unit(a, "intercessors").unwrap();
    let nearest = g
        .live_models(a, u)
        .into_iter()
        .map(|r| g.solid(r).centre.distance(trukk))
        .fold(f32::INFINITY, f32::min);
    (held, nearest)
}

#[test]
fn an_empty_trukk_takes_an_objective_marker_instead_of_chasing_the_enemy() {
    // The Trukk's wheels and wrecking ball outfight its Big shoota, but with nobody aboard
    // it has nothing to deliver: `normal` and `hard` drive it onto a marker (OC 2), not at
    // the Intercessors (before: it closed in to charge them and held nothing).
    for level in [Level::Normal, Level::Hard] {
        let (held, nearest) = empty_trukk_in_round_2(level);
        assert!(
            !held.is_empty(),
            "{level}: holds nothing, {nearest}\" from the enemy"
        );
        assert!(
            nearest > 12.0,
            "{level}: {nearest}\" from the enemy, holding {held:?}"
        );
    }
}

/// Where the Hellblasters (Move 6") of player 1 at `level` go on layout 7 (Hammer and
/// Anvil: the Orks' zone, x > 42", holds two of Only War's markers) in battle round 2 from
/// around (20, 30), their own two markers and the centre held by the Intercessors, the
/// Eliminators and the Redemptor, so that only the Orks' two markers are open: the defender's
/// home marker 26" off (four Moves) and the south-east one 33" off (six), with the Lootas
/// far to the south. The change in the Hellblasters' distance to each of the two markers
/// (inches, from the unit's centre: defender's home, south-east).
fn hellblasters_with_only_enemy_zone_markers_open(level: Level) -> (f32, f32) {
    let mut g = deployed_game(scene("../tests/scenes/two-markers-a-zone.ron"));
    isolate(
        &mut g,
        &[
            (1, "hellblasters"),
            (1, "intercessors"),
            (1, "eliminators"),
            (1, "redemptor"),
            (2, "lootas"),
        ],
    );
    for (unit, id) in [
        ("intercessors", "attacker-home"),
        ("eliminators", "north-west"),
        ("redemptor", "centre"),
    ] {
        let at = g.scene.objectives[objective(&g, id)].at.vec();
        if unit == "redemptor" {
            put(&mut g, 1, unit, 0, at.x, at.y);
        } else {
            put_line(&mut g, 1, unit, at.x - 2.0, at.y, 1.3);
        }
    }
    put_line(&mut g, 1, "hellblasters", 17.0, 30.0, 1.5);
    put_line(&mut g, 2, "lootas", 24.0, 3.0, 1.3);
    advance_to(&mut g, 1, Phase::Movement);
    g.battle_round = 2;
    let centre = |g: &Game| {
        let a = g.army_of(1).unwrap();
        let u = g.find_unit(a, "hellblasters").unwrap();
        let live = g.live_models(a, u);
        live.iter()
            .map(|&r| g.solid(r).centre)
            .fold(Vec2::ZERO, |s, c| s + c)
            / live.len() as f32
    };
    let to = |g: &Game, id: &str| {
        g.scene.objectives[objective(g, id)]
            .at
            .vec()
            .distance(centre(g))
    };
    let before = (to(&g, "defender-home"), to(&g, "south-east"));
    play_phase(&mut g, level, 1, 12);
    (
        to(&g, "defender-home") - before.0,
        to(&g, "south-east") - before.1,
    )
}

#[test]
fn where_the_enemy_zone_holds_two_markers_a_unit_far_from_both_takes_the_nearer() {
    // Both markers are over three rounds' walk: the unit is matched to neither and goes for
    // the nearer, the defender's home, joining the units headed there, rather than being
    // sent alone to the farther south-east marker so that every marker has a unit (layout 7:
    // the Ork mirror 88.3% -> 98.4% of decided games against `easy`).
    for level in [Level::Normal, Level::Hard] {
        let (home, south_east) = hellblasters_with_only_enemy_zone_markers_open(level);
        assert!(
            home < south_east - 2.0,
            "{level}: {home}\" nearer the defender's home, {south_east}\" nearer the south-east"
        );
    }
}

/// The open field with a walled pocket (a ruin of three 5" walls, open to the west: the back
/// wall at x = 42 from y = 31 to y = 39, the sides along y = 31 and y = 39 from x = 37) on
/// the straight line from the Redemptor (Move 8", at (29, 36)) to the defender's home marker
/// (46, 34), the only marker left open to it (the other four held by player 1's units), with
/// the enemy far off in its corner. Where the Redemptor stands after player 1's Movement
/// phase at `level`.
fn redemptor_before_a_walled_pocket(level: Level) -> Vec2 {
    use wartable::geometry::{TerrainCategory, TerrainPiece, Wall};
    let mut g = deployed_game(open_field());
    isolate(
        &mut g,
        &[
            (1, "redemptor"),
            (1, "intercessors"),
            (1, "hellblasters"),
            (1, "eliminators"),
            (1, "assault-intercessors"),
        ],
    );
    let wall = |x0: f32, y0: f32, x1: f32, y1: f32| Wall {
        start: Vec2::new(x0, y0),
        end: Vec2::new(x1, y1),
        height: 5.0,
        thickness: 0.25,
        windows: Vec::new(),
    };
    // Added once the armies are set up (the pocket stands in the Orks' zone), with
    // them cleared away.
    std::sync::Arc::make_mut(&mut g.scene.layout)
        .pieces
        .push(TerrainPiece {
            id: "pocket".to_string(),
            category: TerrainCategory::Ruin,
            footprint: vec![
                Vec2::new(37.0, 31.0),
                Vec2::new(42.0, 31.0),
                Vec2::new(42.0, 39.0),
                Vec2::new(37.0, 39.0),
            ],
            height: 5.0,
            walls: vec![
                wall(42.0, 31.0, 42.0, 39.0),
                wall(37.0, 31.0, 42.0, 31.0),
                wall(37.0, 39.0, 42.0, 39.0),
            ],
            floors: Vec::new(),
        });
    for (unit, id) in [
        ("intercessors", "attacker-home"),
        ("hellblasters", "centre"),
        ("eliminators", "north-west"),
        ("assault-intercessors", "south-east"),
    ] {
        // West of each marker (the centre one stands on the ruin's wall at x = 30).
        let at = g.scene.objectives[objective(&g, id)].at.vec();
        put_line(&mut g, 1, unit, at.x - 6.0, at.y + 0.5, 1.3);
    }
    put(&mut g, 1, "redemptor", 0, 29.0, 36.0);
    advance_to(&mut g, 1, Phase::Movement);
    g.battle_round = 2;
    play_phase(&mut g, level, 1, 12);
    pos(&g, 1, "redemptor", 0).truncate()
}

#[test]
fn normal_and_hard_drive_round_a_walled_pocket_instead_of_into_it() {
    // Straight at the marker the Redemptor (a VEHICLE: it does not pass through ruin walls)
    // ends inside the pocket, nearest the marker as the crow flies but walled off from it:
    // `easy` does. `normal` and `hard` measure what is left to go round the walls and pass
    // outside the pocket.
    let inside = |p: Vec2| p.x > 36.0 && (31.0..=39.0).contains(&p.y);
    let easy = redemptor_before_a_walled_pocket(Level::Easy);
    assert!(inside(easy), "easy ended at {easy:?}");
    for level in [Level::Normal, Level::Hard] {
        let at = redemptor_before_a_walled_pocket(level);
        assert!(!inside(at), "{level} ended in the pocket at {at:?}");
        assert!(
            at.distance(Vec2::new(29.0, 36.0)) > 4.0,
            "{level} barely moved: {at:?}"
        );
    }
}

/// The facing (degrees) an empty Trukk (a hull) had before and has after player 2's
/// Movement phase at `level` in battle round 2 ([`empty_trukk_before_moving`]), and the
/// bearing (degrees) from where it ends to the nearest objective marker.
fn trukk_facing_after_moving(level: Level) -> (f32, f32, f32) {
    let mut g = empty_trukk_before_moving();
    let facing = |g: &Game| {
        let a = g.army_of(2).unwrap();
        let u = g.find_unit(a, "trukk").unwrap();
        g.solid(g.live_models(a, u)[0]).facing
    };
    let before = facing(&g);
    play_phase(&mut g, level, 2, 10);
    let at = pos(&g, 2, "trukk", 0).truncate();
    let marker = g
        .scene
        .objectives
        .iter()
        .map(|o| o.at.vec())
        .min_by(|a, b| a.distance(at).total_cmp(&b.distance(at)))
        .unwrap();
    let d = marker - at;
    (before, facing(&g), d.y.atan2(d.x).to_degrees())
}

#[test]
fn normal_and_hard_turn_a_hull_to_face_where_it_is_going() {
    // A hull keeps its facing through a move and may turn at its end (Core Rules: Moving
    // Models): `normal` and `hard` end the Trukk's move facing the marker it drives for, so
    // that its next move goes lengthwise through gaps; `easy` never turns it.
    let turned = |a: f32, b: f32| {
        let d = (a - b).rem_euclid(180.0);
        d.min(180.0 - d)
    };
    let (before, after, _) = trukk_facing_after_moving(Level::Easy);
    assert!(turned(before, after) < 0.01, "easy: {before} -> {after}");
    for level in [Level::Normal, Level::Hard] {
        let (before, after, bearing) = trukk_facing_after_moving(level);
        assert!(
            turned(before, bearing) > 5.0,
            "{level}: already faced {bearing}"
        );
        assert!(
            turned(after, bearing) < 5.0,
            "{level}: faces {after}, the marker is at {bearing}"
        );
    }
}

#[test]
fn simulate_gives_the_same_json_on_one_thread_as_on_four() {
    // The games are the same whatever the threads; the summed shares of points destroyed
    // were added in the order the threads finished, so the mean could differ in its last
    // digit (12 games of the default scene at seed 3: 0.3204166666666666 on one thread,
    // 0.3204166666666667 on four).
    let run = |threads: &str| {
        let out = wartable(&[
            "simulate",
            "default",
            "--games",
            "12",
            "--seed",
            "3",
            "--ai",
            "easy",
            "--json",
            "--quiet",
            "--threads",
            threads,
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        for timing in ["seconds", "games_per_second", "ms_per_game", "threads"] {
            v.as_object_mut().unwrap().remove(timing);
        }
        v
    };
    assert_eq!(run("1"), run("4"));
}

/// Issue 51: as defender the computer sets a sensible order of losses. normal and hard set
/// one for each of their units as they set up (among models of equal Wounds, the ones whose
/// loadout differs from the unit's usual one go first, so the usual weapons stay; 24 pairings
/// against easy, 100 games each, seeds 1000-4000: hard wins 94.4% of decided games with the
/// engine's default order, 96.4% with this one); easy keeps the default.
#[test]
fn normal_and_hard_set_their_order_of_losses_as_they_set_up() {
    for level in [Level::Easy, Level::Normal, Level::Hard] {
        let g = set_up_by(level);
        assert_eq!(g.stage, Stage::Battle);
        for army in 0..2 {
            for u in 0..g.units[army].len() {
                let chosen = &g.units[army][u].allocation_order;
                let many = g.units[army][u].models.len() > 1;
                assert_eq!(
                    !chosen.is_empty(),
                    level != Level::Easy && many,
                    "{level}: {} {chosen:?}",
                    g.unit_id(army, u)
                );
            }
        }
        if level == Level::Easy {
            continue;
        }
        // The Intercessors lose the Sergeant and the two grenade launchers first, then the
        // seven plain models.
        let army = g.army_of(1).unwrap();
        let u = g.find_unit(army, "intercessors").unwrap();
        assert_eq!(g.allocation_order(army, u)[..4], [0, 1, 2, 3]);
    }
}
