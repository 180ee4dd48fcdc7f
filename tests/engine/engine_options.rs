//! The engine's options (`src/game/options.rs`) agree with what it accepts: every Stratagem
//! option carries `check`'s verdict and every accepted use is offered, every charge target is
//! accepted and every other enemy unit refused, a unit offered a move may Remain Stationary;
//! each model moves by its own Move characteristic in the move window and the computer's
//! moves; the dice log tells a disembarkation as one; a model with two melee weapons is
//! offered both.

use crate::battle;

use std::path::Path;

use battle::*;
use proptest::prelude::*;
use wartable::ai::{Ai, Brain, level::Level};
use wartable::app::play::{self, ActionLog, Draft};
use wartable::data::load_scene;
use wartable::game::sight::ModelRef;
use wartable::game::{Command, FightActivation, Game, RerollRoll, WeaponTarget};
use wartable::geometry::Vec3;
use wartable::rules::movement::MoveMode;
use wartable::rules::phase::{Phase, Stage, opponent};
use wartable::rules::stratagem::Stratagem;

/// A game on the open field played by two computer players (`normal`) for `steps` commands
/// from the first battle round.
fn played(seed: u64, steps: usize) -> Game {
    let mut g = deployed_game(open_field());
    g.rng = wartable::rules::rng::GameRng::seeded(seed);
    let mut brains = [Ai::with_level(Level::Normal), Ai::with_level(Level::Normal)];
    for _ in 0..steps {
        let Some(p) = g.acting_player() else { break };
        let c = brains[usize::from(p - 1)].next(&g, p);
        if g.apply(&c).is_err() {
            let _ = g.apply(&wartable::ai::unstick(&g));
        }
        if g.stage == Stage::GameOver {
            break;
        }
    }
    g
}

/// Every Stratagem command that could be given for the unit (each target, each re-roll).
fn every_stratagem_use(g: &Game, army: usize, unit: usize) -> Vec<Command> {
    let player = g.player_of(army);
    let id = g.unit_id(army, g.combined(army, unit)[0]).to_string();
    let enemy = g.army_of(opponent(player)).unwrap();
    let mut out = Vec::new();
    for s in Stratagem::ALL {
        let make = |target: Option<String>, reroll| Command::UseStratagem {
            player,
            stratagem: s,
            unit: id.clone(),
            target,
            reroll,
        };
        if s.needs_target() {
            for e in g.unit_roots(enemy) {
                out.push(make(Some(g.unit_id(enemy, e).to_string()), None));
            }
        } else if s == Stratagem::CommandReroll {
            out.extend(RerollRoll::ALL.iter().map(|&r| make(None, Some(r))));
        } else {
            out.push(make(None, None));
        }
    }
    out
}

fn assert_options_agree(g: &Game) {
    for player in [1u8, 2] {
        let army = g.army_of(player).unwrap();
        let enemy = g.army_of(opponent(player)).unwrap();
        for u in g.unit_roots(army) {
            let id = g.unit_id(army, u).to_string();
            // Stratagems: each option's verdict is check's; each accepted use is offered.
            let options = g.stratagem_options(army, u);
            for o in &options {
                assert_eq!(o.verdict, g.check(&o.command), "{:?}", o.command);
            }
            for c in every_stratagem_use(g, army, u) {
                if g.check(&c).is_ok() {
                    assert!(
                        options.iter().any(|o| o.command == c && o.verdict.is_ok()),
                        "accepted but not offered: {c:?} ({})",
                        g.describe_now()
                    );
                }
            }
            // Charges: every target offered is accepted, every other enemy unit refused.
            let targets = g.charge_targets(army, u);
            for e in g.unit_roots(enemy) {
                let tid = g.unit_id(enemy, e).to_string();
                let c = Command::DeclareCharge {
                    player,
                    unit: id.clone(),
                    targets: vec![tid.clone()],
                };
                let offered = targets.iter().any(|t| t.unit == tid);
                assert_eq!(
                    g.check(&c).is_ok(),
                    offered,
                    "{id} charging {tid} in {}: {:?}",
                    g.describe_now(),
                    g.check(&c)
                );
            }
            // Moves: a unit offered a move (before any Advance roll) may Remain Stationary.
            let o = g.unit_options(army, u);
            let stay = Command::RemainStationary {
                player,
                unit: id.clone(),
            };
            assert_eq!(o.remain_stationary, g.check(&stay).is_ok(), "{id}");
            if o.can_move() && g.stage == Stage::Battle && g.advance_roll.is_none() {
                assert!(g.check(&stay).is_ok(), "{id} offered a move");
            }
            // Fight: the unit fighting now is the one the options name.
            if let Some(now) = g.fighting_now() {
                let mine = (now.army, now.unit) == (army, u);
                assert_eq!(o.fight.is_some_and(|f| f != FightActivation::PileIn), mine);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// The options at random moments of computer games agree with `check`.
    #[test]
    fn options_agree_with_check_at_random_moments(seed in 0u64..1_000, steps in 0usize..700) {
        let g = played(seed, steps);
        assert_options_agree(&g);
    }
}

/// The same, at every command of one whole game, so every phase is visited.
#[test]
fn options_agree_with_check_through_a_whole_game() {
    let mut g = deployed_game(open_field());
    let mut brains = [Ai::with_level(Level::Hard), Ai::with_level(Level::Hard)];
    let mut charges_offered = 0;
    let mut stratagems_offered = 0;
    for _ in 0..1_500 {
        let Some(p) = g.acting_player() else { break };
        assert_options_agree(&g);
        let army = g.army_of(p).unwrap();
        for u in g.unit_roots(army) {
            charges_offered += g.charge_targets(army, u).len();
            stratagems_offered += g
                .stratagem_options(army, u)
                .iter()
                .filter(|o| o.verdict.is_ok())
                .count();
        }
        let c = brains[usize::from(p - 1)].next(&g, p);
        if g.apply(&c).is_err() {
            let _ = g.apply(&wartable::ai::unstick(&g));
        }
        if g.stage == Stage::GameOver {
            break;
        }
    }
    assert!(charges_offered > 0, "the game offered no charge");
    assert!(stratagems_offered > 0, "the game offered no Stratagem");
}

fn kroot_game() -> Game {
    let scene =
        load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenes/kroot.ron")).unwrap();
    let mut g = deployed_game(scene);
    isolate(&mut g, &[(1, "farstalkers"), (2, "lootas")]);
    // The two hounds (models 0 and 1) in front, the ten others in two rows of five behind.
    put(&mut g, 1, "farstalkers", 0, 10.0, 10.0);
    put(&mut g, 1, "farstalkers", 1, 11.4, 10.0);
    for m in 2..12 {
        let (col, row) = (((m - 2) % 5) as f32, ((m - 2) / 5) as f32);
        put(
            &mut g,
            1,
            "farstalkers",
            m,
            10.0 + 1.4 * col,
            8.6 - 1.4 * row,
        );
    }
    put_rows(&mut g, 2, "lootas", (50.0, 40.0), 1.3, 5);
    advance_to(&mut g, 1, Phase::Movement);
    g
}

/// The hound models of the Kroot unit (their profile's Move is 12").
fn hounds(g: &Game) -> Vec<ModelRef> {
    let (a, u) = unit_ref(g, 1, "farstalkers");
    g.live_models(a, u)
        .into_iter()
        .filter(|&r| g.model_move_inches(r) > 7.0)
        .collect()
}

#[test]
fn kroot_hounds_move_twelve_inches_in_the_move_window() {
    let g = kroot_game();
    let (a, u) = unit_ref(&g, 1, "farstalkers");
    let dogs = hounds(&g);
    assert_eq!(dogs.len(), 2, "two Kroot Hounds");
    let allowance = g.move_allowance(a, u, MoveMode::Normal).unwrap();
    for (r, inches) in &allowance {
        let expected = if dogs.contains(r) { 12.0 } else { 7.0 };
        assert_eq!(*inches, expected, "{}", g.model_name(*r));
    }
    // The hounds run 8.5" ahead, the Farstalkers their full 7": legal, and the window shows
    // no negative distance left (each model against its own Move; the datasheet's 7" for
    // all would leave -1.5").
    let ends: Vec<(ModelRef, Vec3)> = g
        .live_models(a, u)
        .into_iter()
        .map(|r| {
            let at = play::model_position(&g, r);
            let dy = if dogs.contains(&r) { 8.5 } else { 7.0 };
            (r, at + Vec3::new(0.0, dy, 0.0))
        })
        .collect();
    let draft = Draft {
        army: a,
        unit: u,
        ends,
        via: Vec::new(),
        turn: 0.0,
    };
    let command = play::draft_command(&g, &draft, MoveMode::Normal).unwrap();
    assert!(
        play::check(&g, &command, Some(&draft)).is_legal(),
        "{:?}",
        g.check(&command)
    );
    let budget = play::allowance(&g, &draft, MoveMode::Normal).unwrap();
    assert!(
        budget.left.abs() < 0.01 && budget.allowed == 7.0,
        "the Farstalkers have 0\" left, the hounds 3.5\": {budget:?}"
    );
    // A hound going 13" is over its 12".
    let mut far = draft.clone();
    let hound = far.ends.iter().position(|(r, _)| dogs.contains(r)).unwrap();
    far.ends[hound].1.y += 4.5;
    let over = play::allowance(&g, &far, MoveMode::Normal).unwrap();
    assert!(over.left < 0.0 && over.allowed == 12.0, "{over:?}");
}

#[test]
fn the_computer_moves_kroot_hounds_by_their_own_move() {
    let mut g = kroot_game();
    let (a, u) = unit_ref(&g, 1, "farstalkers");
    // Only the hounds are left: the unit moves 12", not the datasheet's 7".
    let dogs = hounds(&g);
    for r in g.live_models(a, u) {
        if !dogs.contains(&r) {
            g.units[a][u].models[r.model].alive = false;
        }
    }
    // Far from every objective marker (the nearest, north-west, is 13" away).
    put(&mut g, 1, "farstalkers", 0, 3.0, 41.0);
    put(&mut g, 1, "farstalkers", 1, 4.4, 41.0);
    let before: Vec<Vec3> = dogs.iter().map(|&r| play::model_position(&g, r)).collect();
    for level in [Level::Normal, Level::Hard] {
        let mut trial = g.clone();
        let mut ai = Ai::with_level(level);
        for _ in 0..10 {
            let c = ai.next(&trial, 1);
            if matches!(c, Command::EndPhase { .. }) {
                break;
            }
            accepted(&mut trial, c);
        }
        let moved = dogs
            .iter()
            .zip(&before)
            .map(|(&r, b)| (play::model_position(&trial, r) - *b).truncate().length())
            .fold(0.0f32, f32::max);
        assert!(
            moved > 8.0,
            "{level:?}: the hounds moved {moved:.1}\", not more than the Farstalkers' 7\""
        );
    }
}

#[test]
fn a_disembark_after_the_transports_normal_move_is_told_as_a_disembark() {
    let mut g = deployed_game(open_field());
    isolate(
        &mut g,
        &[(1, "redemptor"), (2, "trukk"), (2, "shoota-boyz")],
    );
    put(&mut g, 1, "redemptor", 0, 10.0, 6.0);
    put(&mut g, 2, "trukk", 0, 40.0, 36.0);
    embark(&mut g, 2, "shoota-boyz", "trukk");
    advance_to(&mut g, 2, Phase::Movement);
    let paths = shift(&g, 2, "trukk", 0.0, -4.0);
    accepted(
        &mut g,
        Command::Move {
            player: 2,
            unit: "trukk".into(),
            mode: MoveMode::Normal,
            paths,
        },
    );
    let t = pos(&g, 2, "trukk", 0);
    let models = (0..10)
        .map(|m| wartable::game::Placement {
            model: m,
            unit: None,
            x: t.x - 3.0 + 1.3 * (m % 5) as f32,
            y: t.y - 2.5 - 1.3 * (m / 5) as f32,
            z: 0.0,
            facing: 0.0,
        })
        .collect();
    let events = accepted(
        &mut g,
        Command::Disembark {
            player: 2,
            unit: "shoota-boyz".into(),
            models,
        },
    );
    let log = ActionLog::of(&g, &events);
    let lines: Vec<String> = log.game_entries().map(|e| e.line()).collect();
    assert!(lines.iter().any(|l| l.contains("disembarks")), "{lines:?}");
    assert!(
        !lines.iter().any(|l| l.contains("arrives from")),
        "told as an arrival: {lines:?}"
    );
}

#[test]
fn a_model_with_two_melee_weapons_is_offered_both_and_may_use_the_weaker() {
    let mut g = deployed_game(open_field());
    isolate(
        &mut g,
        &[(1, "intercessors"), (1, "captain"), (2, "deff-dread-1")],
    );
    put_line(&mut g, 1, "intercessors", 20.0, 20.0, 1.3);
    put(&mut g, 1, "captain", 0, 19.0, 21.5);
    put(&mut g, 2, "deff-dread-1", 0, 25.0, 22.3);
    let (a, dread) = unit_ref(&g, 2, "deff-dread-1");
    let melee = g.weapons_of(a, dread, true);
    let names: Vec<&str> = melee.iter().map(|w| w.option.weapon.as_str()).collect();
    assert!(
        names.contains(&"Dread klaw") && names.contains(&"Stompy feet"),
        "{names:?}"
    );
    assert!(
        melee.iter().all(|w| w.choose_one),
        "one of the two per model"
    );
    // The computer still picks the stronger one.
    let ai: Vec<String> = wartable::ai::loadout::strongest_melee(&g, a, dread)
        .into_iter()
        .map(|o| o.weapon)
        .collect();
    assert_eq!(ai, ["Dread klaw"]);
    // Player 1's Fight phase: the Dread is in Engagement Range and, its player selecting
    // first in Remaining Combats, fights with its feet.
    advance_to(&mut g, 1, Phase::Fight);
    let picked = g
        .next_to_fight()
        .filter(|(p, ids)| *p == 2 && ids.iter().any(|i| i == "deff-dread-1"));
    assert!(picked.is_some(), "{:?}", g.next_to_fight());
    accepted(
        &mut g,
        Command::PileIn {
            player: 2,
            unit: "deff-dread-1".into(),
            paths: vec![],
        },
    );
    let stomp = Command::Fight {
        player: 2,
        unit: "deff-dread-1".into(),
        weapons: vec![WeaponTarget::new("Stompy feet", "intercessors")],
    };
    assert_eq!(g.check(&stomp), Ok(()));
    // Both at once is refused: one melee weapon per model.
    let both = Command::Fight {
        player: 2,
        unit: "deff-dread-1".into(),
        weapons: vec![
            WeaponTarget::new("Stompy feet", "intercessors"),
            WeaponTarget::new("Dread klaw", "intercessors"),
        ],
    };
    assert!(g.check(&both).is_err());
}
