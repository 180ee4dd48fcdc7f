//! Rules fidelity through the engine, third review: the end of the battle when an army is
//! destroyed, Reserves (what may start there, what becomes of units that never arrive, when
//! Rapid Ingress is used), objective control at the start of the battle, the "when drawn"
//! choice of secondary cards, and the shipped scenes' objective markers. Chapter Approved
//! 2025-26 governs the missions; shared/RULES.md the core rules.

use crate::battle;

use std::path::{Path, PathBuf};

use battle::*;
use wartable::data::load_scene;
use wartable::data::resolve::{Scene, load_mission, load_secondary_deck};
use wartable::design::input_of;
use wartable::design::validate::{ProblemKind, validate};
use wartable::game::mission::ActiveCard;
use wartable::game::{Command, Game, GameEvent, Location, Placement, ReserveKind, Rule};
use wartable::geometry::Vec3;
use wartable::rules::constants::RESERVES_LAST_ROUND;
use wartable::rules::engagement::Control;
use wartable::rules::phase::{Phase, Stage};
use wartable::rules::secondary::SecondaryMode;
use wartable::rules::stratagem::Stratagem;

const STORM: &str = "Storm Hostile Objective";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The open-field scene playing `mission` (scenes/missions, without `.ron`) with the 2025-26
/// secondary deck.
fn mission_scene(mission: &str) -> Scene {
    let mut scene = open_field();
    scene.mission = load_mission(&root().join(format!("scenes/missions/{mission}.ron")))
        .unwrap()
        .into();
    scene.secondary_deck = Some(
        load_secondary_deck(&root().join("scenes/missions/secondary-deck-2025.ron"))
            .unwrap()
            .into(),
    );
    scene
}

/// Every unit of `player`'s army but `except` destroyed where it stands (scenario set-up,
/// outside the rules).
fn destroy_army(g: &mut Game, player: u8, except: &[&str]) {
    let a = g.army_of(player).unwrap();
    for u in 0..g.units[a].len() {
        let id = g.unit_id(a, u).to_string();
        if except.contains(&id.as_str()) {
            continue;
        }
        g.units[a][u].location = Location::Destroyed;
        for m in &mut g.units[a][u].models {
            m.alive = false;
            m.wounds = 0;
        }
    }
}

/// A game on `scene` whose `reserves` were declared before deployment, deployed where the
/// scene stands, with player 1 taking the first turn (the first such seed from 1), at battle
/// round 1, player 1's Command phase.
fn game_with_reserves(scene: Scene, reserves: &[(u8, &str, ReserveKind)]) -> Game {
    let mut g = (1..)
        .map(|seed| {
            let (mut g, _) = Game::start(scene.clone(), seed);
            for &(player, unit, reserve) in reserves {
                accepted(
                    &mut g,
                    Command::DeclareReserves {
                        player,
                        unit: unit.into(),
                        reserve,
                    },
                );
            }
            deploy_all(&mut g);
            g
        })
        .find(|g| g.first_player == 1)
        .unwrap();
    while g.stage == Stage::Scouts {
        let p = g.active_player;
        accepted(&mut g, Command::EndPhase { player: p });
    }
    assert_eq!(
        (g.stage, g.battle_round, g.active_player),
        (Stage::Battle, 1, 1)
    );
    g
}

/// Ends phases (the active player's) until it is battle round `round`, `player`'s `phase`;
/// the events on the way.
fn to(g: &mut Game, round: u8, player: u8, phase: Phase) -> Vec<GameEvent> {
    let mut events = Vec::new();
    for _ in 0..200 {
        if (g.battle_round, g.active_player, g.phase) == (round, player, phase) {
            return events;
        }
        assert_eq!(g.stage, Stage::Battle, "{}", g.describe_now());
        let p = g.active_player;
        events.extend(accepted(g, Command::EndPhase { player: p }));
    }
    panic!("never reached round {round}, player {player}'s {phase:?}");
}

/// VP events of `player` (scored, reason).
fn victory_points(events: &[GameEvent], player: u8) -> Vec<(u32, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            GameEvent::VictoryPoints {
                player: p,
                scored,
                reason,
                ..
            } if *p == player => Some((*scored, reason.clone())),
            _ => None,
        })
        .collect()
}

// ----- A: a destroyed army ------------------------------------------------------------------

/// Finding A. Chapter Approved 2025-26: a tabled army does not end the battle; the other
/// player plays their turns to the last battle round, scoring as usual, and the destroyed
/// army's turns pass with nothing done (the engine used to end the battle at once, a 0-0 draw
/// after a first-round wipe-out).
#[test]
fn finding_a_a_destroyed_army_does_not_end_the_battle_the_other_player_plays_on() {
    let mut g = deployed_game(open_field());
    // Player 1's Hellblasters stand alone on their home marker; player 2's whole army is wiped
    // out in the first battle round.
    let home = g.scene.objectives[objective(&g, "attacker-home")].at.vec();
    put_line(&mut g, 1, "hellblasters", home.x - 2.0, home.y, 1.0);
    destroy_army(&mut g, 2, &[]);
    let mut events = accepted(&mut g, Command::EndPhase { player: 1 });
    assert_eq!(g.stage, Stage::Battle, "the battle goes on: {events:?}");
    // Player 1 plays every phase to the end; player 2's turns pass by themselves, so the game
    // never waits for the player with no units.
    for _ in 0..100 {
        if g.stage != Stage::Battle {
            break;
        }
        assert_eq!(g.acting_player(), Some(1), "{}", g.describe_now());
        assert_eq!(g.active_player, 1, "{}", g.describe_now());
        events.extend(accepted(&mut g, Command::EndPhase { player: 1 }));
    }
    assert_eq!(g.stage, Stage::GameOver);
    assert_eq!(g.battle_round, g.scene.mission.battle_rounds);
    // Player 2's turns came and went.
    assert!(
        events.iter().any(|e| matches!(
            e,
            GameEvent::PhaseStarted {
                battle_round: 3,
                player: 2,
                phase: Phase::Command
            }
        )),
        "{events:?}"
    );
    // Player 1 scored their marker in the later rounds and wins.
    let scored: u32 = victory_points(&events, 1).iter().map(|(vp, _)| vp).sum();
    assert!(scored > 0, "{events:?}");
    assert_eq!(g.vp[1], 0);
    assert_eq!(g.winner, Some(1));
    let reason = events
        .iter()
        .find_map(|e| match e {
            GameEvent::GameOver { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .expect("the battle ended");
    assert!(reason.contains("last battle round"), "{reason}");
}

// ----- 2: Reserves that never arrive --------------------------------------------------------

/// Finding 2. Chapter Approved 2025-26: a unit still in Reserves at the end of the third
/// battle round counts as destroyed (the engine kept it, and it could arrive in round 4).
#[test]
fn finding_2_units_still_in_reserves_at_the_end_of_round_3_are_destroyed() {
    let mut g = game_with_reserves(open_field(), &[(2, "nobz", ReserveKind::StrategicReserves)]);
    let events = to(&mut g, RESERVES_LAST_ROUND + 1, 1, Phase::Command);
    assert!(
        events.iter().any(
            |e| matches!(e, GameEvent::DestroyedInReserves { player: 2, unit } if unit == "nobz")
        ),
        "{events:?}"
    );
    let (a, u) = unit_ref(&g, 2, "nobz");
    assert_eq!(g.units[a][u].location, Location::Destroyed);
    assert!(g.live_models_anywhere(a, u).is_empty());
    // They do not arrive in round 4.
    to(&mut g, RESERVES_LAST_ROUND + 1, 2, Phase::Movement);
    let r = rejected(
        &mut g,
        Command::SetUpReinforcements {
            player: 2,
            unit: "nobz".into(),
            models: vec![],
        },
    );
    assert_eq!(r.rule, Rule::Reserves, "{r}");
}

/// Findings 2 and A together: an army whose last unit waits in Reserves is destroyed with it
/// at the end of round 3; the battle goes on and that army's turns pass.
#[test]
fn finding_2_an_army_left_only_in_reserves_is_destroyed_after_round_3_and_play_goes_on() {
    let mut g = game_with_reserves(open_field(), &[(2, "nobz", ReserveKind::StrategicReserves)]);
    destroy_army(&mut g, 2, &["nobz"]);
    let events = to(&mut g, RESERVES_LAST_ROUND + 1, 1, Phase::Command);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, GameEvent::ArmyDestroyed { player: 2 })),
        "{events:?}"
    );
    assert_eq!(g.stage, Stage::Battle);
    // Player 1's turn ends; player 2's passes at once; round 5 begins.
    while g.battle_round == RESERVES_LAST_ROUND + 1 {
        accepted(&mut g, Command::EndPhase { player: 1 });
    }
    assert_eq!(
        (g.stage, g.battle_round, g.active_player, g.phase),
        (Stage::Battle, RESERVES_LAST_ROUND + 2, 1, Phase::Command)
    );
}

// ----- 3: what may start in Reserves -----------------------------------------------------------

/// The Vanguard scene (player 1: 8 units, Inceptors with Deep Strike) with player 1's unit
/// points set: `points` by unit id, every other unit `others`.
fn vanguard_with_points(points: &[(&str, u32)], others: u32) -> Game {
    let mut scene = load_scene(&root().join("scenes/vanguard.ron")).unwrap();
    let army = scene.armies.iter_mut().find(|a| a.player == 1).unwrap();
    assert_eq!(army.units.len(), 8);
    for u in &mut army.units {
        u.points = Some(
            points
                .iter()
                .find(|(id, _)| *id == u.id)
                .map_or(others, |p| p.1),
        );
    }
    Game::start(scene, 1).0
}

fn declare(unit: &str, reserve: ReserveKind) -> Command {
    Command::DeclareReserves {
        player: 1,
        unit: unit.into(),
        reserve,
    }
}

/// Finding 3. Chapter Approved 2025-26: Reserves, Deep Strike included, hold at most half the
/// army's units and half its points; the Core Rules' quarter of the points binds Strategic
/// Reserves only (the engine held every Reserve, Deep Strike too, to a quarter).
#[test]
fn finding_3_reserves_hold_half_the_units_and_points_deep_strike_included() {
    // 1,100 points: a quarter is 275, half 550.
    let mut g = vanguard_with_points(&[("redemptor", 200), ("inceptors", 300)], 100);
    accepted(&mut g, declare("redemptor", ReserveKind::StrategicReserves));
    // 500 points in Reserves: more than a quarter, within half.
    accepted(&mut g, declare("inceptors", ReserveKind::DeepStrike));
    // Strategic Reserves stay within a quarter of the points.
    let r = rejected(
        &mut g,
        declare("hellblasters", ReserveKind::StrategicReserves),
    );
    assert_eq!(r.rule, Rule::Reserves);
    assert!(r.reason.contains("25%"), "{r}");

    // Points no object: at most half of the 8 units, whatever their kind of Reserves.
    let mut g = vanguard_with_points(&[("redemptor", 10_000)], 10);
    // Two Attached units: a Leader and its Bodyguard each, four units.
    accepted(
        &mut g,
        declare("intercessors", ReserveKind::StrategicReserves),
    );
    accepted(
        &mut g,
        declare("assault-intercessors", ReserveKind::StrategicReserves),
    );
    let r = rejected(
        &mut g,
        declare("hellblasters", ReserveKind::StrategicReserves),
    );
    assert_eq!(r.rule, Rule::Reserves);
    assert!(r.reason.contains("units"), "{r}");
    let r = rejected(&mut g, declare("inceptors", ReserveKind::DeepStrike));
    assert!(r.reason.contains("units"), "{r}");
}

// ----- 4: Rapid Ingress -----------------------------------------------------------------------

/// Finding 4. Core Stratagems: Rapid Ingress is used at the end of the opponent's Movement
/// phase, not at its start while their units have still to move.
#[test]
fn finding_4_rapid_ingress_waits_for_the_end_of_the_opponents_movement_phase() {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "hellblasters"), (2, "nobz")]);
    let (a, u) = unit_ref(&g, 2, "nobz");
    g.units[a][u].location = Location::Reserves(ReserveKind::StrategicReserves);
    to(&mut g, 2, 1, Phase::Movement);
    g.cp = [5, 5];
    let ingress = Command::UseStratagem {
        player: 2,
        stratagem: Stratagem::RapidIngress,
        unit: "nobz".into(),
        target: None,
        reroll: None,
    };
    // The phase has just begun: player 1's units (the Hellblasters and the Ballistus) have
    // still to move.
    let r = rejected(&mut g, ingress.clone());
    assert_eq!(r.rule, Rule::Stratagem(Stratagem::RapidIngress));
    assert!(r.reason.contains("end of player 1's Movement phase"), "{r}");
    accepted(
        &mut g,
        Command::RemainStationary {
            player: 1,
            unit: "hellblasters".into(),
        },
    );
    rejected(&mut g, ingress.clone());
    accepted(
        &mut g,
        Command::RemainStationary {
            player: 1,
            unit: "ballistus".into(),
        },
    );
    // Every unit of player 1 has moved: the end of the phase.
    accepted(&mut g, ingress);
    let models = (0..5)
        .map(|m| Placement {
            model: m,
            unit: None,
            x: 46.0 + 1.5 * m as f32,
            y: 41.5,
            z: 0.0,
            facing: 0.0,
        })
        .collect();
    let ev = accepted(
        &mut g,
        Command::SetUpReinforcements {
            player: 2,
            unit: "nobz".into(),
            models,
        },
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, GameEvent::SetUp { unit, .. } if unit == "nobz")),
        "{ev:?}"
    );
}

// ----- 8: objective control at the start of the battle ---------------------------------------

/// Finding 8. Rules Commentary: Contested, Control: every marker starts the battle contested
/// and is controlled at the end of a phase, so a marker no phase has ended on is nobody's and
/// Storm Hostile Objective cannot score in round 1 from control never established (the engine
/// gave markers to the models on them before the first phase, 4 VP in player 1's first turn).
#[test]
fn finding_8_no_marker_is_controlled_before_the_first_phase_ends() {
    let mut scene = mission_scene("take-and-hold");
    // Player 2's army is its Nobz alone, deployed on their home marker (46, 34).
    let orks = scene.armies.iter_mut().find(|a| a.player == 2).unwrap();
    orks.units.retain(|u| u.id == "nobz");
    for (m, model) in orks.units[0].models.iter_mut().enumerate() {
        model.position = Vec3::new(43.5 + 1.3 * m as f32, 34.0, 0.0);
    }
    let mut g = deployed_game(scene);
    let home = objective(&g, "defender-home");
    assert_eq!(g.levels_of_control(home).1, Control::Player(2));
    assert!(
        g.objectives.iter().all(Option::is_none),
        "{:?}",
        g.objectives
    );
    assert!(
        g.mission
            .control_at_turn_start
            .iter()
            .all(|(_, c)| c.is_none()),
        "{:?}",
        g.mission.control_at_turn_start
    );
    // Player 1 holds Storm Hostile Objective and takes that marker in their first turn.
    let deck = g.scene.secondary_deck.clone().unwrap();
    let storm = deck.cards.iter().position(|c| c.name == STORM).unwrap();
    g.scene.secondaries[0] = SecondaryMode::Tactical;
    g.mission.active[0] = vec![ActiveCard::new(storm)];
    put_line(&mut g, 2, "nobz", 50.0, 42.0, 1.3);
    put_line(&mut g, 1, "hellblasters", 44.0, 34.0, 1.0);
    let mut events = Vec::new();
    while g.active_player == 1 && g.stage == Stage::Battle {
        events.extend(accepted(&mut g, Command::EndPhase { player: 1 }));
    }
    assert_eq!(g.objectives[home], Some(1));
    assert!(
        !victory_points(&events, 1)
            .iter()
            .any(|(_, why)| why.contains(STORM)),
        "{events:?}"
    );
    assert_eq!(g.mission.secondary_vp[0], 0);
}

// ----- 11: the "when drawn" choice --------------------------------------------------------------

/// Finding 11. Chapter Approved 2025-26 Mission Deck, When Drawn: a card whose clause says
/// the player *may* shuffle it back is theirs to keep or send back (the engine always sent it
/// back); the computer sends it back only when it cannot score it this turn.
#[test]
fn finding_11_an_optional_when_drawn_redraw_is_the_players_choice() {
    let mut g = deployed_game(mission_scene("take-and-hold"));
    let deck = g.scene.secondary_deck.clone().unwrap();
    let storm = deck.cards.iter().position(|c| c.name == STORM).unwrap();
    // Storm Hostile Objective tops player 2's pile: they draw it in their first Command phase.
    g.mission.active[1].clear();
    g.mission.decks[1].retain(|&c| c != storm);
    g.mission.decks[1].push(storm);
    while g.active_player == 1 {
        accepted(&mut g, Command::EndPhase { player: 1 });
    }
    assert_eq!(
        (g.battle_round, g.active_player, g.phase),
        (1, 2, Phase::Command)
    );
    // Kept unless the player sends it back.
    assert!(
        g.secondary_names(2).contains(&STORM.to_string()),
        "{:?}",
        g.secondary_names(2)
    );
    assert!(g.redraw_choices(2).contains(&STORM.to_string()));
    let redraw = Command::RedrawSecondary {
        player: 2,
        card: STORM.into(),
    };
    // Only in the Command phase it was drawn in.
    let mut later = g.clone();
    accepted(&mut later, Command::EndPhase { player: 2 });
    let r = rejected(&mut later, redraw.clone());
    assert_eq!(r.rule, Rule::SecondaryMissions);
    // The computer sends it back only when the turn cannot score it: the opponent held no
    // marker at the start of the turn.
    let mut h = g.clone();
    for c in &mut h.mission.control_at_turn_start {
        c.1 = None;
    }
    assert_eq!(wartable::ai::mission::redraw(&h, 2), Some(redraw.clone()));
    for c in &mut h.mission.control_at_turn_start {
        c.1 = Some(1);
    }
    assert!(
        !matches!(
            wartable::ai::mission::redraw(&h, 2),
            Some(Command::RedrawSecondary { card, .. }) if card == STORM
        ),
        "the card can score: kept"
    );
    // The player sends it back: it returns to the deck and another card is drawn.
    let ev = accepted(&mut g, redraw);
    assert!(
        ev.iter().any(|e| matches!(
            e,
            GameEvent::SecondaryShuffledBack { player: 2, card } if card == STORM
        )),
        "{ev:?}"
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, GameEvent::SecondaryDrawn { player: 2, .. })),
        "{ev:?}"
    );
    assert!(!g.secondary_names(2).contains(&STORM.to_string()));
    assert_eq!(g.mission.active[1].len(), deck.tactical_hand);
    assert!(g.mission.decks[1].contains(&storm));
}

// ----- 18: the shipped scenes' markers ------------------------------------------------------------

/// Every `.ron` file of `dir`, sorted.
fn ron_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    v.sort();
    v
}

/// Finding 18. No shipped scene stands an objective marker in a wall, by the check `wartable
/// analyze` reports (`design::validate`). Layout 7 with Only War's markers had two in ruin
/// walls; it now plays on the Hammer and Anvil card's markers, where Chapter Approved 2025-26
/// puts them.
#[test]
fn finding_18_no_shipped_scene_stands_an_objective_marker_in_a_wall() {
    let scenes = root().join("scenes");
    let mut files = ron_files(&scenes);
    files.extend(ron_files(&scenes.join("chapter-approved")));
    assert!(files.len() > 20, "{files:?}");
    for f in files {
        let scene = load_scene(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let input = input_of(&scene);
        let in_walls: Vec<String> = validate(&input.pieces, &input.objectives)
            .into_iter()
            .filter(|p| p.kind == ProblemKind::ObjectiveInWall)
            .map(|p| p.message)
            .collect();
        assert!(in_walls.is_empty(), "{}: {in_walls:?}", f.display());
    }
}
