//! Random command sequences, legal or not, never break the engine's invariants: no overlapping
//! bases, no Normal, Advance or Fall Back move ending in Engagement Range, every unit coherent
//! after the end-of-turn step, command points equal to those gained minus those spent, and a
//! rejected command changes nothing.

use crate::battle;

use battle::{deployed_game, open_field};

use proptest::prelude::*;
use wartable::game::{Command, FightActivation, Game, GameEvent, ModelPath, WeaponTarget};
use wartable::geometry::measure::bases_overlap;
use wartable::rules::movement::MoveMode;
use wartable::rules::phase::{Phase, Stage, opponent};
use wartable::rules::stratagem::Stratagem;

/// Raw choices for one command; mapped onto the game as it stands.
#[derive(Debug, Clone)]
struct Pick {
    kind: u8,
    player_flip: bool,
    unit: usize,
    target: usize,
    weapon: usize,
    dx: f32,
    dy: f32,
    spread: f32,
}

fn pick() -> impl Strategy<Value = Pick> {
    (
        0u8..12,
        prop::bool::weighted(0.15),
        0usize..20,
        0usize..20,
        0usize..6,
        -9.0f32..9.0,
        -9.0f32..9.0,
        0.0f32..1.5,
    )
        .prop_map(
            |(kind, player_flip, unit, target, weapon, dx, dy, spread)| Pick {
                kind,
                player_flip,
                unit,
                target,
                weapon,
                dx,
                dy,
                spread,
            },
        )
}

fn command_for(g: &Game, p: &Pick) -> Command {
    let player = if p.player_flip {
        opponent(g.active_player)
    } else {
        g.active_player
    };
    let army = g.army_of(player).unwrap();
    let earmy = g.army_of(opponent(player)).unwrap();
    let roots = g.unit_roots(army);
    let u = roots[p.unit % roots.len()];
    let unit = g.unit_id(army, u).to_string();
    let eroots = g.unit_roots(earmy);
    let target = g
        .unit_id(earmy, eroots[p.target % eroots.len()])
        .to_string();
    let paths: Vec<ModelPath> = g
        .live_models(army, u)
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let at = g.scene.armies[army].units[r.unit].models[r.model].position;
            let wobble = p.spread * ((i % 3) as f32 - 1.0);
            ModelPath {
                model: r.model,
                unit: Some(g.unit_id(army, r.unit).to_string()),
                path: vec![(at.x + p.dx + wobble, at.y + p.dy - wobble, at.z)],
                facing: None,
            }
        })
        .collect();
    let weapons: Vec<String> = g
        .live_models(army, u)
        .iter()
        .flat_map(|r| {
            g.scene.armies[army].units[r.unit].models[r.model]
                .weapons
                .to_vec()
        })
        .collect();
    let weapon = weapons
        .get(p.weapon % weapons.len().max(1))
        .cloned()
        .unwrap_or_default();
    let wt = vec![WeaponTarget::new(weapon, target.clone())];
    match p.kind {
        0 | 1 => Command::EndPhase { player },
        2 => Command::Move {
            player,
            unit,
            mode: MoveMode::Normal,
            paths,
        },
        3 => Command::Move {
            player,
            unit,
            mode: MoveMode::Advance,
            paths,
        },
        4 => Command::Move {
            player,
            unit,
            mode: MoveMode::FallBack,
            paths,
        },
        5 => Command::RemainStationary { player, unit },
        6 => Command::Shoot {
            player,
            unit,
            weapons: wt,
        },
        7 => Command::DeclareCharge {
            player,
            unit,
            targets: vec![target],
        },
        8 => Command::ChargeMove {
            player,
            unit,
            paths,
            targets: vec![],
        },
        9 => match g.next_to_fight() {
            Some((picker, ids)) => Command::PileIn {
                player: picker,
                unit: ids[p.unit % ids.len()].clone(),
                paths: vec![],
            },
            None => Command::Consolidate {
                player,
                unit,
                paths: vec![],
            },
        },
        10 => match g.fighting_now() {
            Some(now) if now.next == FightActivation::Attacks => Command::Fight {
                player: g.player_of(now.army),
                unit: g.unit_id(now.army, now.unit).to_string(),
                weapons: wt,
            },
            Some(now) => Command::Consolidate {
                player: g.player_of(now.army),
                unit: g.unit_id(now.army, now.unit).to_string(),
                paths: vec![],
            },
            None => Command::PileIn {
                player,
                unit,
                paths,
            },
        },
        _ => Command::UseStratagem {
            player,
            stratagem: Stratagem::ALL[p.weapon % Stratagem::ALL.len()],
            unit,
            target: Some(target),
            reroll: Some(wartable::game::RerollRoll::Hit),
        },
    }
}

fn assert_no_overlaps(g: &Game) {
    let live = g.all_live_models();
    for (i, a) in live.iter().enumerate() {
        for b in &live[..i] {
            assert!(
                !bases_overlap(&g.solid(*a), &g.solid(*b)),
                "{} overlaps {}",
                g.model_name(*a),
                g.model_name(*b)
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn random_commands_never_break_an_invariant(picks in prop::collection::vec(pick(), 60)) {
        let mut g = deployed_game(open_field());
        let mut gained = [0u32; 2];
        let mut spent = [0u32; 2];
        gained[0] += g.cp[0];
        gained[1] += g.cp[1];
        assert_no_overlaps(&g);
        for p in &picks {
            if g.stage == Stage::GameOver {
                break;
            }
            let c = command_for(&g, p);
            let before = g.state_hash();
            let draws = g.rng.draws();
            let phase_before = (g.phase, g.active_player);
            match g.apply(&c) {
                Err(_) => {
                    prop_assert_eq!(g.state_hash(), before);
                    prop_assert_eq!(g.rng.draws(), draws);
                }
                Ok(events) => {
                    for e in &events {
                        match e {
                            GameEvent::CommandPointsGained { player, gained: n, .. } => gained[usize::from(player - 1)] += n,
                            GameEvent::StratagemUsed { player, cost, .. } => spent[usize::from(player - 1)] += cost,
                            _ => {}
                        }
                    }
                    prop_assert_eq!(g.cp[0], gained[0] - spent[0]);
                    prop_assert_eq!(g.cp[1], gained[1] - spent[1]);
                    assert_no_overlaps(&g);
                    if let Command::Move { player, unit, .. } = &c {
                        let army = g.army_of(*player).unwrap();
                        let u = g.find_unit(army, unit).unwrap();
                        prop_assert!(!g.engaged(army, u), "{} ended a move in Engagement Range", unit);
                    }
                    let turn_ended = phase_before.0 == Phase::Fight && g.phase == Phase::Command;
                    if turn_ended || g.stage == Stage::GameOver {
                        for army in 0..g.units.len() {
                            for u in g.unit_roots(army) {
                                let solids: Vec<_> = g.live_models(army, u).iter().map(|r| g.solid(*r)).collect();
                                prop_assert!(wartable::rules::coherency::check(&solids).coherent, "{} out of coherency after the turn", g.unit_id(army, u));
                            }
                        }
                    }
                }
            }
        }
    }
}
