//! Chapter Approved 2025-26 missions through the engine: every primary mission and every
//! secondary card scores a hand-built position the way the card says (one test per card, named
//! by it), Fixed and Tactical play, New Orders and discards, actions and their rules, the VP
//! caps and Battle Ready.

use crate::battle;

use battle::{
    accepted, advance_to, deployed_game, isolate, mission_scene, objective, put, put_line, rejected,
};
use wartable::game::mission::{ActiveCard, Destroyed};
use wartable::game::{Command, Game, GameEvent, Rule};
use wartable::rules::mission::MissionAction;
use wartable::rules::phase::{Phase, Stage};
use wartable::rules::secondary::SecondaryMode;

/// The open-field scene (Search and Destroy: player 1's zone is the bottom-left quarter with
/// home objective `attacker-home` at (14, 10); player 2's the top-right with `defender-home`
/// at (46, 34); `centre`, `north-west` (14, 34) and `south-east` (46, 10) in No Man's Land)
/// playing `mission` with the 2025-26 secondary deck, deployed, at round 1, player 1's
/// Command phase.
fn mission_game(mission: &str) -> Game {
    deployed_game(mission_scene(mission))
}

/// Every unit gone but the two anchors (player 1's Ballistus at (4, 40), player 2's
/// Battlewagon at (54, 4)) and `keep`.
fn clear(g: &mut Game, keep: &[(u8, &str)]) {
    isolate(g, keep);
}

/// Ends the active player's turn; the events.
fn end_turn(g: &mut Game) -> Vec<GameEvent> {
    let p = g.active_player;
    let mut ev = Vec::new();
    while g.active_player == p && g.stage == Stage::Battle {
        ev.extend(accepted(g, Command::EndPhase { player: p }));
    }
    ev
}

/// Player `player` holds only `card` (Tactical, or Fixed paired with another Fixed card).
fn hold(g: &mut Game, player: u8, card: &str, fixed: bool) {
    let deck = g.scene.secondary_deck.clone().unwrap();
    let index = deck.cards.iter().position(|c| c.name == card).unwrap();
    let i = usize::from(player - 1);
    g.scene.secondaries[i] = if fixed {
        SecondaryMode::Fixed(card.to_string(), "Assassination".to_string())
    } else {
        SecondaryMode::Tactical
    };
    g.mission.active[i] = vec![ActiveCard::new(index)];
}

/// VP scored by `player` with the reason starting `what`.
fn vp(ev: &[GameEvent], player: u8, what: &str) -> Vec<u32> {
    ev.iter()
        .filter_map(|e| match e {
            GameEvent::VictoryPoints {
                player: p,
                scored,
                reason,
                ..
            } if *p == player && reason.starts_with(what) => Some(*scored),
            _ => None,
        })
        .collect()
}

fn card(name: &str) -> String {
    format!("{name} (secondary)")
}

fn unit(g: &Game, player: u8, id: &str) -> (usize, usize) {
    let a = g.army_of(player).unwrap();
    (a, g.find_unit(a, id).unwrap())
}

/// Records `id` of `owner` as destroyed this turn (a hand-built position), removed from play.
fn destroyed(g: &mut Game, owner: u8, id: &str) {
    let (a, u) = unit(g, owner, id);
    g.units[a][u].location = wartable::game::Location::Destroyed;
    for m in &mut g.units[a][u].models {
        m.alive = false;
    }
    let d = &g.scene.armies[a].units[u].datasheet;
    let character = d.has_keyword("CHARACTER").then_some(d.wounds);
    for character_wounds in [character, None]
        .into_iter()
        .flatten()
        .map(Some)
        .chain([None])
    {
        g.mission.destroyed.push(Destroyed {
            round: g.battle_round,
            turn_of: g.active_player,
            owner,
            unit: (a, u),
            character_wounds,
        });
    }
}

/// Puts a unit in a tight block around (x, y).
fn block(g: &mut Game, player: u8, id: &str, x: f32, y: f32) {
    put_line(g, player, id, x - 2.0, y, 1.3);
    // Its Leaders stand just behind it.
    let (a, u) = unit(g, player, id);
    for l in 0..g.units[a].len() {
        if g.units[a][l].leading == Some(u) {
            let leader = g.unit_id(a, l).to_string();
            put_line(g, player, &leader, x - 2.0, y + 1.6, 1.3);
        }
    }
}

/// Round 2, player 1's Command phase.
fn to_round_2(g: &mut Game) {
    while !(g.battle_round == 2 && g.active_player == 1) {
        end_turn(g);
    }
    assert_eq!(g.phase, Phase::Command);
}

// ----- primary missions --------------------------------------------------------------------

#[test]
fn take_and_hold_scores_5_per_objective_up_to_15() {
    let mut g = mission_game("take-and-hold");
    clear(&mut g, &[(1, "intercessors"), (1, "hellblasters")]);
    to_round_2(&mut g);
    block(&mut g, 1, "intercessors", 14.0, 10.0);
    block(&mut g, 1, "hellblasters", 30.0, 22.0);
    let ev = accepted(&mut g, Command::EndPhase { player: 1 });
    assert_eq!(vp(&ev, 1, "Take and Hold"), vec![10], "{ev:?}");
    // Four objectives: capped at 15.
    let mut h = g.clone();
    h.vp = [0; 2];
    h.mission.primary_vp = [0; 2];
    end_turn(&mut h);
    end_turn(&mut h);
    put(&mut h, 1, "ballistus", 0, 14.0, 34.0);
    put(&mut h, 1, "eliminators", 0, 46.0, 10.0);
    let ev = accepted(&mut h, Command::EndPhase { player: 1 });
    let total: u32 = vp(&ev, 1, "Take and Hold").iter().sum();
    assert_eq!(total, 15, "{ev:?}");
}

#[test]
fn linchpin_pays_5_per_objective_only_with_the_home_objective() {
    let mut g = mission_game("linchpin");
    clear(&mut g, &[(1, "intercessors"), (1, "hellblasters")]);
    to_round_2(&mut g);
    // Without home: centre and north-west (ballistus anchor moved there) at 3 each.
    block(&mut g, 1, "hellblasters", 30.0, 22.0);
    put(&mut g, 1, "ballistus", 0, 14.0, 34.0);
    block(&mut g, 1, "intercessors", 20.0, 3.0);
    let mut h = g.clone();
    let ev = accepted(&mut h, Command::EndPhase { player: 1 });
    assert_eq!(vp(&ev, 1, "Linchpin"), vec![6], "{ev:?}");
    // With home: 3 + 5 + 5.
    block(&mut g, 1, "intercessors", 14.0, 10.0);
    let ev = accepted(&mut g, Command::EndPhase { player: 1 });
    assert_eq!(vp(&ev, 1, "Linchpin"), vec![13], "{ev:?}");
}

#[test]
fn purge_the_foe_scores_kills_each_round_and_objectives_in_the_command_phase() {
    let mut g = mission_game("purge-the-foe");
    clear(&mut g, &[(1, "intercessors"), (2, "nobz"), (2, "lootas")]);
    // Round 1: player 1 destroys an enemy unit; at the end of the round only the "any round"
    // rule scores (4), the "more than lost" rule starts in round 2.
    destroyed(&mut g, 2, "nobz");
    end_turn(&mut g);
    let ev = end_turn(&mut g);
    assert_eq!(vp(&ev, 1, "Purge the Foe"), vec![4], "{ev:?}");
    assert_eq!(vp(&ev, 2, "Purge the Foe"), Vec::<u32>::new());
    // Round 2: another kill: 4 + 4 at the end of the round; in the Command phase 4 for an
    // objective and 4 more for holding more than the opponent.
    block(&mut g, 1, "intercessors", 14.0, 10.0);
    let ev = accepted(&mut g, Command::EndPhase { player: 1 });
    assert_eq!(vp(&ev, 1, "Purge the Foe"), vec![4, 4], "{ev:?}");
    destroyed(&mut g, 2, "lootas");
    end_turn(&mut g);
    let ev = end_turn(&mut g);
    assert_eq!(vp(&ev, 1, "Purge the Foe"), vec![4, 4], "{ev:?}");
}

#[test]
fn scorched_earth_burns_an_objective_for_5_or_10() {
    let mut g = mission_game("scorched-earth");
    clear(&mut g, &[(1, "intercessors")]);
    // Round 1: the action is not yet allowed.
    advance_to(&mut g, 1, Phase::Shooting);
    block(&mut g, 1, "intercessors", 46.0, 10.0);
    let burn = Command::StartAction {
        player: 1,
        unit: "intercessors".into(),
        action: MissionAction::BurnObjective,
        objective: Some("south-east".into()),
        to: None,
    };
    assert_eq!(rejected(&mut g, burn.clone()).rule, Rule::Actions);
    to_round_2(&mut g);
    let ev = accepted(&mut g, Command::EndPhase { player: 1 });
    assert_eq!(
        vp(&ev, 1, "Scorched Earth"),
        vec![5],
        "holds south-east: {ev:?}"
    );
    advance_to(&mut g, 1, Phase::Shooting);
    accepted(&mut g, burn);
    // It completes at the end of the opponent's next turn, if still held.
    let ev = end_turn(&mut g);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, GameEvent::ActionCompleted { .. }))
    );
    let ev = end_turn(&mut g);
    assert_eq!(vp(&ev, 1, "Scorched Earth: burned"), vec![5], "{ev:?}");
    assert!(ev.iter().any(
        |e| matches!(e, GameEvent::ObjectiveRemoved { objective, .. } if objective == "south-east")
    ));
    assert!(!g.scene.objectives.iter().any(|o| o.id == "south-east"));
}

#[test]
fn terraform_scores_terraformed_objectives_every_turn() {
    let mut g = mission_game("terraform");
    clear(&mut g, &[(1, "intercessors"), (1, "hellblasters")]);
    to_round_2(&mut g);
    block(&mut g, 1, "intercessors", 46.0, 10.0);
    block(&mut g, 1, "hellblasters", 30.0, 22.0);
    let ev = accepted(&mut g, Command::EndPhase { player: 1 });
    assert_eq!(vp(&ev, 1, "Terraform"), vec![8], "{ev:?}");
    advance_to(&mut g, 1, Phase::Shooting);
    for (u, o) in [("intercessors", "south-east"), ("hellblasters", "centre")] {
        accepted(
            &mut g,
            Command::StartAction {
                player: 1,
                unit: u.into(),
                action: MissionAction::Terraform,
                objective: Some(o.into()),
                to: None,
            },
        );
    }
    let ev = end_turn(&mut g);
    assert_eq!(g.mission.terraformed.len(), 2);
    assert_eq!(
        vp(&ev, 1, "Terraform: 2 objective markers terraformed"),
        vec![2],
        "{ev:?}"
    );
    // And at the end of the opponent's turn too.
    let ev = end_turn(&mut g);
    assert_eq!(
        vp(&ev, 1, "Terraform: 2 objective markers"),
        vec![2],
        "{ev:?}"
    );
}

#[test]
fn hidden_supplies_moves_the_centre_and_scores_objectives_outside_the_zone() {
    let mut g = mission_game("hidden-supplies");
    // Search and Destroy's No Man's Land reaches the top-left and bottom-right corners: the
    // centre marker moved 6" toward one, a sixth placed 6" toward the opposite one.
    assert_eq!(g.scene.objectives.len(), 6);
    let centre = g
        .scene
        .objectives
        .iter()
        .find(|o| o.id == "centre")
        .unwrap()
        .at;
    let extra = g
        .scene
        .objectives
        .iter()
        .find(|o| o.id == "centre-hidden")
        .unwrap()
        .at;
    assert!(((centre.0 - 30.0).hypot(centre.1 - 22.0) - 6.0).abs() < 1e-3);
    assert!((centre.0 + extra.0 - 60.0).abs() < 1e-3 && (centre.1 + extra.1 - 44.0).abs() < 1e-3);
    assert!(
        g.zone_at(wartable::geometry::Vec2::new(0.5, 43.5))
            .is_none()
    );
    clear(&mut g, &[(1, "intercessors"), (1, "hellblasters")]);
    to_round_2(&mut g);
    block(&mut g, 1, "intercessors", 46.0, 10.0);
    block(&mut g, 1, "hellblasters", 14.0, 34.0);
    let ev = accepted(&mut g, Command::EndPhase { player: 1 });
    assert_eq!(vp(&ev, 1, "Hidden Supplies"), vec![5, 5, 5], "{ev:?}");
}

#[test]
fn burden_of_trust_scores_objectives_outside_the_zone_and_guards() {
    let mut g = mission_game("burden-of-trust");
    clear(&mut g, &[(1, "intercessors"), (1, "hellblasters")]);
    block(&mut g, 1, "intercessors", 46.0, 10.0);
    block(&mut g, 1, "hellblasters", 14.0, 10.0);
    // Round 1: south-east is not held yet when the Command phase starts (control changes at
    // the end of a phase), so no guard can be picked for it...
    let r = rejected(
        &mut g,
        Command::Guard {
            player: 1,
            unit: "intercessors".into(),
            objective: "south-east".into(),
        },
    );
    assert_eq!(r.rule, Rule::Actions);
    assert!(r.reason.contains("does not control"), "{}", r.reason);
    // ...but at the end of the phase both held objectives get a guard.
    let ev = accepted(&mut g, Command::EndPhase { player: 1 });
    let guards: Vec<(&str, &str)> = ev
        .iter()
        .filter_map(|e| match e {
            GameEvent::Guarding {
                unit, objective, ..
            } => Some((unit.as_str(), objective.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(
        guards,
        vec![
            ("hellblasters", "attacker-home"),
            ("intercessors", "south-east")
        ],
        "{ev:?}"
    );
    // The guards score at the end of the opponent's turn, from round 1 (the pack's FAQ),
    // and not at the end of their own player's turn.
    let ev = end_turn(&mut g);
    assert!(vp(&ev, 1, "Burden of Trust").is_empty(), "{ev:?}");
    let ev = end_turn(&mut g);
    assert_eq!(
        vp(&ev, 1, "Burden of Trust: 2 units guarding"),
        vec![4],
        "{ev:?}"
    );
    // Round 2: the old guards are gone; a guard is picked by command, one out of range is not.
    assert_eq!((g.battle_round, g.active_player), (2, 1));
    assert!(g.mission.guards.is_empty());
    let r = rejected(
        &mut g,
        Command::Guard {
            player: 1,
            unit: "intercessors".into(),
            objective: "attacker-home".into(),
        },
    );
    assert!(r.reason.contains("not within range"), "{}", r.reason);
    accepted(
        &mut g,
        Command::Guard {
            player: 1,
            unit: "hellblasters".into(),
            objective: "attacker-home".into(),
        },
    );
    // 4 VP for the objective outside the own zone (south-east), not for the home objective.
    let ev = accepted(&mut g, Command::EndPhase { player: 1 });
    assert_eq!(
        vp(
            &ev,
            1,
            "Burden of Trust: holds 1 objective markers (OutsideOwnZone)"
        ),
        vec![4],
        "{ev:?}"
    );
    assert_eq!(g.mission.guards.len(), 2);
    // A Battle-shocked guard does not score.
    end_turn(&mut g);
    let (a, u) = unit(&g, 1, "hellblasters");
    g.units[a][u].battle_shocked = true;
    let ev = end_turn(&mut g);
    assert_eq!(
        vp(&ev, 1, "Burden of Trust: 1 units guarding"),
        vec![2],
        "{ev:?}"
    );
}

#[test]
fn unexploded_ordnance_scores_hazards_by_how_near_the_enemy_zone_they_are() {
    use wartable::geometry::Point;
    let mut g = mission_game("unexploded-ordnance");
    let mut hazards = g.mission.hazards.clone();
    hazards.sort();
    assert_eq!(hazards, vec!["centre", "north-west", "south-east"]);
    clear(&mut g, &[(1, "intercessors")]);
    block(&mut g, 1, "intercessors", 46.0, 10.0);
    advance_to(&mut g, 1, Phase::Shooting);
    let start = |to: (f32, f32)| Command::StartAction {
        player: 1,
        unit: "intercessors".into(),
        action: MissionAction::MoveHazard,
        objective: Some("south-east".into()),
        to: Some(Point(to.0, to.1)),
    };
    // At most 6", not onto a model.
    let r = rejected(&mut g, start((46.0, 17.0)));
    assert!(r.reason.contains("more than 6"), "{}", r.reason);
    let r = rejected(&mut g, start((44.0, 10.0)));
    assert!(r.reason.contains("on a model"), "{}", r.reason);
    let none = Command::StartAction {
        player: 1,
        unit: "intercessors".into(),
        action: MissionAction::MoveHazard,
        objective: Some("south-east".into()),
        to: None,
    };
    assert!(rejected(&mut g, none).reason.contains("name where"));
    accepted(&mut g, start((46.0, 16.0)));
    let ev = end_turn(&mut g);
    assert!(
        ev.iter().any(
            |e| matches!(e, GameEvent::ObjectiveMoved { objective, to, .. }
            if objective == "south-east" && *to == (46.0, 16.0))
        ),
        "{ev:?}"
    );
    // Round 2: the marker goes on to 0.1" short of player 2's zone (its edge at y 22).
    to_round_2(&mut g);
    block(&mut g, 1, "intercessors", 46.0, 16.0);
    advance_to(&mut g, 1, Phase::Shooting);
    accepted(
        &mut g,
        Command::StartAction {
            player: 1,
            unit: "intercessors".into(),
            action: MissionAction::MoveHazard,
            objective: Some("south-east".into()),
            to: Some(Point(46.0, 21.9)),
        },
    );
    // South-east is now wholly within 6" of the enemy zone (5 VP) and the centre, 9" from it,
    // wholly within 12" (2 VP); north-west, 16" away, scores nothing.
    let ev = end_turn(&mut g);
    assert_eq!(vp(&ev, 1, "Unexploded Ordnance"), vec![7], "{ev:?}");
    // A marker wholly within the enemy zone: 8 VP.
    end_turn(&mut g);
    let i = objective(&g, "south-east");
    g.scene.objectives[i].at = Point(50.0, 30.0);
    let ev = end_turn(&mut g);
    assert_eq!(vp(&ev, 1, "Unexploded Ordnance"), vec![10], "{ev:?}");
}

#[test]
fn the_ritual_places_a_marker_12_inches_from_another_and_scores_no_mans_land() {
    use wartable::geometry::Point;
    let mut g = mission_game("the-ritual");
    clear(&mut g, &[(1, "intercessors"), (1, "hellblasters")]);
    put_line(&mut g, 1, "intercessors", 30.5, 13.6, 1.3);
    block(&mut g, 1, "hellblasters", 20.0, 28.0);
    advance_to(&mut g, 1, Phase::Shooting);
    let ritual = |unit: &str, to: (f32, f32)| Command::StartAction {
        player: 1,
        unit: unit.into(),
        action: MissionAction::Ritual,
        objective: None,
        to: Some(Point(to.0, to.1)),
    };
    // 12" from the centre at -60 degrees: (36, 11.61), wholly in No Man's Land, 10.1" from
    // south-east, 0.6" from the nearest Intercessor (none of which is in range of south-east).
    let spot = (30.0 + 6.0, 22.0 - 12.0 * 60f32.to_radians().sin());
    let r = rejected(&mut g, ritual("intercessors", (35.5, 12.0)));
    assert!(r.reason.contains("exactly 12"), "{}", r.reason);
    let r = rejected(&mut g, ritual("intercessors", (30.0, 10.0)));
    assert!(r.reason.contains("No Man's Land"), "{}", r.reason);
    let r = rejected(&mut g, ritual("hellblasters", spot));
    assert!(r.reason.contains("from the unit"), "{}", r.reason);
    accepted(&mut g, ritual("intercessors", spot));
    // One unit at a time.
    let r = rejected(&mut g, ritual("hellblasters", (18.0, 28.0)));
    assert!(
        r.reason.contains("already performing the Ritual"),
        "{}",
        r.reason
    );
    let ev = end_turn(&mut g);
    assert!(
        ev.iter()
            .any(|e| matches!(e, GameEvent::ObjectivePlaced { objective, .. }
            if objective == "ritual-1")),
        "{ev:?}"
    );
    assert_eq!(g.scene.objectives.len(), 6);
    assert_eq!(g.objectives.len(), 6);
    // Round 2: the new marker is a No Man's Land objective the Intercessors hold: 5 VP.
    to_round_2(&mut g);
    let ev = accepted(&mut g, Command::EndPhase { player: 1 });
    assert_eq!(
        vp(&ev, 1, "The Ritual: holds 1 objective markers (NoMansLand)"),
        vec![5],
        "{ev:?}"
    );
}

#[test]
fn supply_drop_removes_two_markers_and_raises_the_vp_each_round() {
    let mut g = mission_game("supply-drop");
    let picked: Vec<String> = g
        .mission
        .removals
        .iter()
        .map(|(_, id)| id.clone())
        .collect();
    assert_eq!(picked.len(), 2);
    assert!(
        picked
            .iter()
            .all(|id| id == "north-west" || id == "south-east")
    );
    clear(&mut g, &[(1, "intercessors")]);
    to_round_2(&mut g);
    block(&mut g, 1, "intercessors", 30.0, 22.0);
    let ev = accepted(&mut g, Command::EndPhase { player: 1 });
    assert_eq!(vp(&ev, 1, "Supply Drop"), vec![5], "{ev:?}");
    while g.battle_round < 4 {
        end_turn(&mut g);
    }
    assert!(!g.scene.objectives.iter().any(|o| o.id == picked[0]));
    assert!(g.scene.objectives.iter().any(|o| o.id == picked[1]));
    let ev = accepted(&mut g, Command::EndPhase { player: 1 });
    assert_eq!(vp(&ev, 1, "Supply Drop"), vec![8], "{ev:?}");
    while g.battle_round < 5 {
        end_turn(&mut g);
    }
    assert!(!g.scene.objectives.iter().any(|o| o.id == picked[1]));
    let ev = accepted(&mut g, Command::EndPhase { player: 1 });
    assert_eq!(vp(&ev, 1, "Supply Drop"), vec![15], "{ev:?}");
}

#[test]
fn in_the_last_round_the_second_player_scores_at_the_end_of_their_turn() {
    let mut g = mission_game("take-and-hold");
    clear(&mut g, &[(2, "nobz")]);
    while g.battle_round < 5 {
        end_turn(&mut g);
    }
    end_turn(&mut g);
    assert_eq!((g.battle_round, g.active_player), (5, 2));
    block(&mut g, 2, "nobz", 46.0, 34.0);
    let ev = accepted(&mut g, Command::EndPhase { player: 2 });
    assert_eq!(
        vp(&ev, 2, "Take and Hold"),
        Vec::<u32>::new(),
        "not in the Command phase"
    );
    let ev = end_turn(&mut g);
    assert_eq!(vp(&ev, 2, "Take and Hold"), vec![5], "{ev:?}");
    assert_eq!(g.stage, Stage::GameOver);
}

#[test]
fn primary_vp_stop_at_50_and_battle_ready_adds_10() {
    let mut g = mission_game("take-and-hold");
    g.scene.battle_ready = [true, false];
    clear(&mut g, &[(1, "intercessors")]);
    to_round_2(&mut g);
    g.mission.primary_vp[0] = 47;
    g.vp[0] = 47;
    block(&mut g, 1, "intercessors", 14.0, 10.0);
    let ev = accepted(&mut g, Command::EndPhase { player: 1 });
    assert_eq!(vp(&ev, 1, "Take and Hold"), vec![3], "capped: {ev:?}");
    while g.stage == Stage::Battle {
        end_turn(&mut g);
    }
    assert_eq!(g.mission.primary_vp[0], 50);
    assert_eq!(g.mission.battle_ready_vp, [10, 0]);
}

// ----- secondary cards ----------------------------------------------------------------------

#[test]
fn behind_enemy_lines_scores_3_for_one_unit_4_for_two() {
    let mut g = mission_game("take-and-hold");
    clear(&mut g, &[(1, "eliminators"), (1, "hellblasters")]);
    hold(&mut g, 1, "Behind Enemy Lines", false);
    block(&mut g, 1, "eliminators", 52.0, 40.0);
    let mut h = g.clone();
    let ev = end_turn(&mut h);
    assert_eq!(vp(&ev, 1, &card("Behind Enemy Lines")), vec![3], "{ev:?}");
    // Scored: the Tactical card is discarded.
    assert!(h.mission.active[0].is_empty());
    block(&mut g, 1, "hellblasters", 52.0, 36.0);
    let ev = end_turn(&mut g);
    assert_eq!(vp(&ev, 1, &card("Behind Enemy Lines")), vec![4], "{ev:?}");
}

#[test]
fn storm_hostile_objective_scores_taking_an_enemy_held_objective() {
    let mut g = mission_game("take-and-hold");
    clear(&mut g, &[(1, "intercessors"), (2, "nobz")]);
    block(&mut g, 2, "nobz", 46.0, 34.0);
    end_turn(&mut g);
    end_turn(&mut g);
    assert_eq!(g.objectives[objective(&g, "defender-home")], Some(2));
    hold(&mut g, 1, "Storm Hostile Objective", false);
    // Player 1 takes it: the Nobz leave, the Intercessors arrive.
    block(&mut g, 2, "nobz", 56.0, 42.0);
    block(&mut g, 1, "intercessors", 46.0, 34.0);
    let ev = end_turn(&mut g);
    assert_eq!(
        vp(&ev, 1, &card("Storm Hostile Objective")),
        vec![4],
        "{ev:?}"
    );
}

#[test]
fn engage_on_all_fronts_counts_table_quarters() {
    let mut g = mission_game("take-and-hold");
    clear(
        &mut g,
        &[(1, "eliminators"), (1, "hellblasters"), (1, "intercessors")],
    );
    hold(&mut g, 1, "Engage on All Fronts", true);
    // Ballistus (4, 40) top-left; eliminators bottom-right; hellblasters top-right;
    // intercessors bottom-left: 4 quarters.
    block(&mut g, 1, "eliminators", 42.0, 8.0);
    block(&mut g, 1, "hellblasters", 50.0, 38.0);
    block(&mut g, 1, "intercessors", 10.0, 4.0);
    let mut h = g.clone();
    let ev = end_turn(&mut h);
    assert_eq!(vp(&ev, 1, &card("Engage on All Fronts")), vec![4], "{ev:?}");
    // Within 6" of the centre does not count: 3 quarters.
    block(&mut g, 1, "hellblasters", 34.0, 25.0);
    let ev = end_turn(&mut g);
    assert_eq!(vp(&ev, 1, &card("Engage on All Fronts")), vec![2], "{ev:?}");
}

#[test]
fn establish_locus_scores_2_near_the_centre_and_4_in_the_enemy_zone() {
    for (x, y, expect) in [(30.0, 24.5, 2), (52.0, 40.0, 4)] {
        let mut g = mission_game("take-and-hold");
        clear(&mut g, &[(1, "hellblasters")]);
        hold(&mut g, 1, "Establish Locus", false);
        advance_to(&mut g, 1, Phase::Shooting);
        block(&mut g, 1, "hellblasters", x, y);
        accepted(
            &mut g,
            Command::StartAction {
                player: 1,
                unit: "hellblasters".into(),
                action: MissionAction::EstablishLocus,
                objective: None,
                to: None,
            },
        );
        let ev = end_turn(&mut g);
        assert_eq!(vp(&ev, 1, &card("Establish Locus")), vec![expect], "{ev:?}");
    }
}

#[test]
fn cleanse_scores_2_for_one_objective_and_more_for_two() {
    for fixed in [true, false] {
        let mut g = mission_game("take-and-hold");
        clear(&mut g, &[(1, "intercessors"), (1, "hellblasters")]);
        hold(&mut g, 1, "Cleanse", fixed);
        advance_to(&mut g, 1, Phase::Shooting);
        block(&mut g, 1, "intercessors", 46.0, 10.0);
        block(&mut g, 1, "hellblasters", 30.0, 22.0);
        for (u, o) in [("intercessors", "south-east"), ("hellblasters", "centre")] {
            accepted(
                &mut g,
                Command::StartAction {
                    player: 1,
                    unit: u.into(),
                    action: MissionAction::Cleanse,
                    objective: Some(o.into()),
                    to: None,
                },
            );
        }
        let ev = end_turn(&mut g);
        let expect = if fixed { 4 } else { 5 };
        assert_eq!(vp(&ev, 1, &card("Cleanse")), vec![expect], "{ev:?}");
    }
}

#[test]
fn assassination_fixed_pays_per_character_tactical_once() {
    for (fixed, expect) in [(true, vec![4]), (false, vec![5])] {
        let mut g = mission_game("take-and-hold");
        hold(&mut g, 1, "Assassination", fixed);
        // The Warboss: a CHARACTER with 6 Wounds.
        destroyed(&mut g, 2, "warboss");
        let ev = end_turn(&mut g);
        assert_eq!(vp(&ev, 1, &card("Assassination")), expect, "{ev:?}");
    }
}

#[test]
fn no_prisoners_scores_2_per_unit_up_to_5() {
    let mut g = mission_game("take-and-hold");
    hold(&mut g, 1, "No Prisoners", false);
    for id in ["nobz", "lootas", "trukk"] {
        destroyed(&mut g, 2, id);
    }
    let ev = end_turn(&mut g);
    assert_eq!(vp(&ev, 1, &card("No Prisoners")), vec![5], "{ev:?}");
}

#[test]
fn cull_the_horde_needs_an_infantry_unit_of_13_models() {
    let mut g = mission_game("take-and-hold");
    hold(&mut g, 1, "Cull the Horde", true);
    let mut h = g.clone();
    destroyed(&mut h, 2, "shoota-boyz");
    let ev = end_turn(&mut h);
    assert_eq!(
        vp(&ev, 1, &card("Cull the Horde")),
        Vec::<u32>::new(),
        "10 Boyz: {ev:?}"
    );
    destroyed(&mut g, 2, "boyz-mob");
    let ev = end_turn(&mut g);
    assert_eq!(
        vp(&ev, 1, &card("Cull the Horde")),
        vec![5],
        "20 Boyz: {ev:?}"
    );
}

#[test]
fn bring_it_down_pays_more_for_bigger_vehicles() {
    let mut g = mission_game("take-and-hold");
    hold(&mut g, 1, "Bring It Down", true);
    // A Battlewagon (16 Wounds): 2 + 2; a Trukk (10 Wounds): 2.
    destroyed(&mut g, 2, "battlewagon");
    destroyed(&mut g, 2, "trukk");
    let ev = end_turn(&mut g);
    assert_eq!(vp(&ev, 1, &card("Bring It Down")), vec![6], "{ev:?}");
    let mut t = mission_game("take-and-hold");
    hold(&mut t, 1, "Bring It Down", false);
    destroyed(&mut t, 2, "trukk");
    let ev = end_turn(&mut t);
    assert_eq!(vp(&ev, 1, &card("Bring It Down")), vec![4], "{ev:?}");
}

#[test]
fn defend_stronghold_scores_at_the_end_of_the_opponents_turn_from_round_2() {
    let mut g = mission_game("take-and-hold");
    clear(&mut g, &[(1, "intercessors")]);
    block(&mut g, 1, "intercessors", 14.0, 10.0);
    hold(&mut g, 1, "Defend Stronghold", false);
    end_turn(&mut g);
    let ev = end_turn(&mut g);
    assert_eq!(
        vp(&ev, 1, &card("Defend Stronghold")),
        Vec::<u32>::new(),
        "round 1: {ev:?}"
    );
    end_turn(&mut g);
    let ev = end_turn(&mut g);
    assert_eq!(vp(&ev, 1, &card("Defend Stronghold")), vec![3], "{ev:?}");
}

#[test]
fn marked_for_death_scores_5_for_an_alpha_and_2_for_the_gamma() {
    let mut g = mission_game("take-and-hold");
    hold(&mut g, 1, "Marked for Death", false);
    let (a, u) = unit(&g, 2, "battlewagon");
    let (ga, gu) = unit(&g, 2, "trukk");
    g.mission.active[0][0].alphas = vec![(a, u)];
    g.mission.active[0][0].gamma = Some((ga, gu));
    let mut h = g.clone();
    destroyed(&mut h, 2, "trukk");
    let ev = end_turn(&mut h);
    assert_eq!(vp(&ev, 1, &card("Marked for Death")), vec![2], "{ev:?}");
    destroyed(&mut g, 2, "battlewagon");
    let ev = end_turn(&mut g);
    assert_eq!(vp(&ev, 1, &card("Marked for Death")), vec![5], "{ev:?}");
}

#[test]
fn marked_for_death_targets_are_picked_when_drawn() {
    let mut g = mission_game("take-and-hold");
    let deck = g.scene.secondary_deck.clone().unwrap();
    let k = deck
        .cards
        .iter()
        .position(|c| c.name == "Marked for Death")
        .unwrap();
    // Put it on top of player 2's pile and let them draw at their Command phase.
    g.mission.active[1].clear();
    g.mission.decks[1].retain(|&c| c != k);
    g.mission.decks[1].push(k);
    end_turn(&mut g);
    let held = g.mission.active[1]
        .iter()
        .find(|c| c.card == k)
        .expect("drawn");
    assert_eq!(held.alphas.len(), 3);
    assert!(held.gamma.is_some() && !held.alphas.contains(&held.gamma.unwrap()));
}

/// Player 2's next draw is `card` (Tactical), made at the start of their Command phase.
fn draw_next(g: &mut Game, card: &str) -> usize {
    let deck = g.scene.secondary_deck.clone().unwrap();
    let k = deck.cards.iter().position(|c| c.name == card).unwrap();
    g.mission.active[1].clear();
    g.mission.decks[1].retain(|&c| c != k);
    g.mission.decks[1].push(k);
    end_turn(g);
    assert_eq!((g.active_player, g.phase), (2, Phase::Command));
    k
}

#[test]
fn marked_for_death_targets_are_the_players_choice() {
    let mut g = mission_game("take-and-hold");
    let k = draw_next(&mut g, "Marked for Death");
    let army = g.army_of(1).unwrap();
    let ids: Vec<String> = g
        .unit_roots(army)
        .into_iter()
        .filter(|&u| !g.live_models(army, u).is_empty())
        .map(|u| g.unit_id(army, u).to_string())
        .collect();
    let alphas: Vec<String> = ids[ids.len() - 3..].to_vec();
    let choose = |player: u8, units: &[String]| Command::ChooseTargets {
        player,
        card: "Marked for Death".into(),
        units: units.to_vec(),
        objective: None,
    };
    // The opponent (player 1) names the Alphas: exactly three of their own units.
    let r = rejected(&mut g, choose(1, &alphas[..2]));
    assert!(r.reason.contains("name 3"), "{}", r.reason);
    let ev = accepted(&mut g, choose(1, &alphas));
    assert!(
        ev.iter().any(
            |e| matches!(e, GameEvent::TargetsChosen { player: 1, alphas: a, .. } if *a == alphas)
        ),
        "{ev:?}"
    );
    let held = |g: &Game| {
        g.mission.active[1]
            .iter()
            .find(|c| c.card == k)
            .unwrap()
            .clone()
    };
    let named: Vec<String> = held(&g)
        .alphas
        .iter()
        .map(|&(a, u)| g.unit_id(a, u).to_string())
        .collect();
    assert_eq!(named, alphas);
    let gamma = held(&g).gamma.expect("a Gamma target stays picked");
    assert!(!held(&g).alphas.contains(&gamma));
    // The holder names the Gamma: one enemy unit, not an Alpha.
    let r = rejected(&mut g, choose(2, &alphas[..1]));
    assert!(r.reason.contains("not an Alpha"), "{}", r.reason);
    accepted(&mut g, choose(2, &ids[..1]));
    let (a, u) = held(&g).gamma.unwrap();
    assert_eq!(g.unit_id(a, u), ids[0]);
    // Only in the Command phase the card was drawn in.
    accepted(&mut g, Command::EndPhase { player: 2 });
    let r = rejected(&mut g, choose(2, &ids[1..2]));
    assert!(r.reason.contains("drawn in"), "{}", r.reason);
}

#[test]
fn a_tempting_target_is_the_opponents_choice_of_a_no_mans_land_objective() {
    let mut g = mission_game("take-and-hold");
    let k = draw_next(&mut g, "A Tempting Target");
    let choose = |player: u8, objective: &str| Command::ChooseTargets {
        player,
        card: "A Tempting Target".into(),
        units: Vec::new(),
        objective: Some(objective.into()),
    };
    let r = rejected(&mut g, choose(1, "defender-home"));
    assert!(r.reason.contains("not in No Man's Land"), "{}", r.reason);
    let r = rejected(&mut g, choose(2, "north-west"));
    assert!(r.reason.contains("no choice"), "{}", r.reason);
    accepted(&mut g, choose(1, "north-west"));
    let held = g.mission.active[1].iter().find(|c| c.card == k).unwrap();
    assert_eq!(held.objective.as_deref(), Some("north-west"));
}

#[test]
fn secure_no_mans_land_scores_2_then_5() {
    let mut g = mission_game("take-and-hold");
    clear(&mut g, &[(1, "intercessors"), (1, "hellblasters")]);
    hold(&mut g, 1, "Secure No Man's Land", false);
    block(&mut g, 1, "intercessors", 30.0, 22.0);
    let mut h = g.clone();
    let ev = end_turn(&mut h);
    assert_eq!(vp(&ev, 1, &card("Secure No Man's Land")), vec![2], "{ev:?}");
    block(&mut g, 1, "hellblasters", 46.0, 10.0);
    let ev = end_turn(&mut g);
    assert_eq!(vp(&ev, 1, &card("Secure No Man's Land")), vec![5], "{ev:?}");
}

#[test]
fn sabotage_completes_at_the_end_of_the_opponents_turn() {
    let mut g = mission_game("take-and-hold");
    clear(&mut g, &[(1, "eliminators")]);
    hold(&mut g, 1, "Sabotage", false);
    advance_to(&mut g, 1, Phase::Shooting);
    // Outside any terrain: refused.
    block(&mut g, 1, "eliminators", 50.0, 14.0);
    let sabotage = Command::StartAction {
        player: 1,
        unit: "eliminators".into(),
        action: MissionAction::Sabotage,
        objective: None,
        to: None,
    };
    let r = rejected(&mut g, sabotage.clone());
    assert_eq!(r.rule, Rule::Actions);
    let piece = g.scene.layout.pieces[0].footprint.clone();
    let c = piece
        .iter()
        .fold(wartable::geometry::Vec2::ZERO, |s, p| s + *p)
        / piece.len() as f32;
    put(&mut g, 1, "eliminators", 0, c.x, c.y);
    accepted(&mut g, sabotage);
    let ev = end_turn(&mut g);
    assert_eq!(vp(&ev, 1, &card("Sabotage")), Vec::<u32>::new());
    let ev = end_turn(&mut g);
    assert_eq!(vp(&ev, 1, &card("Sabotage")).len(), 1, "{ev:?}");
}

#[test]
fn area_denial_scores_2_or_5_by_how_far_the_enemy_is() {
    let mut g = mission_game("take-and-hold");
    clear(&mut g, &[(1, "intercessors"), (2, "nobz")]);
    hold(&mut g, 1, "Area Denial", false);
    block(&mut g, 1, "intercessors", 30.0, 22.0);
    block(&mut g, 2, "nobz", 30.0, 28.0);
    let mut h = g.clone();
    let ev = end_turn(&mut h);
    assert_eq!(vp(&ev, 1, &card("Area Denial")), vec![2], "{ev:?}");
    block(&mut g, 2, "nobz", 50.0, 40.0);
    let ev = end_turn(&mut g);
    assert_eq!(vp(&ev, 1, &card("Area Denial")), vec![5], "{ev:?}");
}

#[test]
fn recover_assets_needs_two_units_in_different_areas() {
    let mut g = mission_game("take-and-hold");
    clear(
        &mut g,
        &[(1, "intercessors"), (1, "hellblasters"), (1, "eliminators")],
    );
    hold(&mut g, 1, "Recover Assets", false);
    advance_to(&mut g, 1, Phase::Shooting);
    block(&mut g, 1, "intercessors", 8.0, 4.0);
    block(&mut g, 1, "hellblasters", 30.0, 22.0);
    block(&mut g, 1, "eliminators", 52.0, 40.0);
    let start = |u: &str| Command::StartAction {
        player: 1,
        unit: u.into(),
        action: MissionAction::RecoverAssets,
        objective: None,
        to: None,
    };
    for u in ["intercessors", "hellblasters", "eliminators"] {
        accepted(&mut g, start(u));
    }
    let ev = end_turn(&mut g);
    assert_eq!(vp(&ev, 1, &card("Recover Assets")), vec![5], "{ev:?}");
}

#[test]
fn a_tempting_target_scores_the_picked_objective() {
    let mut g = mission_game("take-and-hold");
    clear(&mut g, &[(1, "intercessors")]);
    hold(&mut g, 1, "A Tempting Target", false);
    g.mission.active[0][0].objective = Some("south-east".into());
    block(&mut g, 1, "intercessors", 30.0, 22.0);
    let mut h = g.clone();
    let ev = end_turn(&mut h);
    assert_eq!(
        vp(&ev, 1, &card("A Tempting Target")),
        Vec::<u32>::new(),
        "{ev:?}"
    );
    block(&mut g, 1, "intercessors", 46.0, 10.0);
    let ev = end_turn(&mut g);
    assert_eq!(vp(&ev, 1, &card("A Tempting Target")), vec![5], "{ev:?}");
}

#[test]
fn extend_battle_lines_scores_4_with_home_and_no_mans_land() {
    let mut g = mission_game("take-and-hold");
    clear(&mut g, &[(1, "intercessors"), (1, "hellblasters")]);
    hold(&mut g, 1, "Extend Battle Lines", false);
    block(&mut g, 1, "hellblasters", 30.0, 22.0);
    let mut h = g.clone();
    block(&mut h, 1, "intercessors", 20.0, 3.0);
    let ev = end_turn(&mut h);
    assert_eq!(vp(&ev, 1, &card("Extend Battle Lines")), vec![2], "{ev:?}");
    block(&mut g, 1, "intercessors", 14.0, 10.0);
    let ev = end_turn(&mut g);
    assert_eq!(vp(&ev, 1, &card("Extend Battle Lines")), vec![4], "{ev:?}");
}

#[test]
fn overwhelming_force_counts_units_that_started_on_objectives() {
    let mut g = mission_game("take-and-hold");
    hold(&mut g, 1, "Overwhelming Force", false);
    let on = unit(&g, 2, "nobz");
    g.mission.on_objective_at_turn_start = vec![on];
    destroyed(&mut g, 2, "nobz");
    destroyed(&mut g, 2, "lootas");
    let ev = end_turn(&mut g);
    assert_eq!(vp(&ev, 1, &card("Overwhelming Force")), vec![3], "{ev:?}");
}

#[test]
fn display_of_might_needs_more_units_in_no_mans_land() {
    let mut g = mission_game("take-and-hold");
    clear(&mut g, &[(1, "intercessors"), (2, "nobz")]);
    hold(&mut g, 1, "Display of Might", false);
    // Ballistus (4, 40) and Battlewagon (54, 4) stand in No Man's Land: 1 to 1.
    block(&mut g, 2, "nobz", 52.0, 40.0);
    let mut h = g.clone();
    let ev = end_turn(&mut h);
    assert_eq!(
        vp(&ev, 1, &card("Display of Might")),
        Vec::<u32>::new(),
        "{ev:?}"
    );
    block(&mut g, 1, "intercessors", 12.0, 30.0);
    let ev = end_turn(&mut g);
    assert_eq!(vp(&ev, 1, &card("Display of Might")), vec![4], "{ev:?}");
}

// ----- playing the deck ----------------------------------------------------------------------

#[test]
fn tactical_players_draw_two_cards_and_fixed_players_keep_theirs() {
    let mut scene = mission_scene("take-and-hold");
    scene.secondaries = [
        SecondaryMode::Tactical,
        SecondaryMode::Fixed("Bring It Down".into(), "Assassination".into()),
    ];
    let mut g = deployed_game(scene);
    assert_eq!(g.mission.active[0].len(), 2);
    let deck = g.scene.secondary_deck.clone().unwrap();
    // Cards that must go back in round 1 are never held then.
    for c in &g.mission.active[0] {
        assert!(
            !["Defend Stronghold", "Display of Might"].contains(&deck.cards[c.card].name.as_str())
        );
    }
    let fixed: Vec<&str> = g.mission.active[1]
        .iter()
        .map(|c| deck.cards[c.card].name.as_str())
        .collect();
    assert_eq!(fixed, ["Bring It Down", "Assassination"]);
    // Fixed cards are never discarded.
    let r = rejected(
        &mut g,
        Command::DiscardSecondary {
            player: 2,
            card: "Bring It Down".into(),
        },
    );
    assert_eq!(r.rule, Rule::SecondaryMissions);
    // A Fixed card stops at 20 VP.
    let i = g.mission.active[1]
        .iter()
        .position(|c| deck.cards[c.card].name == "Bring It Down")
        .unwrap();
    g.mission.active[1][i].scored = 19;
    end_turn(&mut g);
    destroyed(&mut g, 1, "redemptor");
    let ev = end_turn(&mut g);
    assert_eq!(
        vp(&ev, 2, &card("Bring It Down")),
        vec![1],
        "2 VP, capped at 20: {ev:?}"
    );
}

#[test]
fn discarding_a_card_at_the_end_of_your_turn_gains_1_cp_new_orders_costs_1() {
    let mut g = mission_game("take-and-hold");
    let deck = g.scene.secondary_deck.clone().unwrap();
    let name = deck.cards[g.mission.active[0][0].card].name.clone();
    // New Orders in the Command phase: 1 CP, the card replaced.
    let cp = g.cp[0];
    let ev = accepted(
        &mut g,
        Command::NewOrders {
            player: 1,
            card: name.clone(),
        },
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, GameEvent::SecondaryDrawn { player: 1, .. }))
    );
    assert_eq!(g.cp[0], cp - 1);
    assert_eq!(g.mission.active[0].len(), 2);
    let other = deck.cards[g.mission.active[0][0].card].name.clone();
    let r = rejected(
        &mut g,
        Command::NewOrders {
            player: 1,
            card: other.clone(),
        },
    );
    assert!(r.reason.contains("already"), "{r}");
    // Discard at the end of the turn: 1 CP.
    advance_to(&mut g, 1, Phase::Movement);
    let r = rejected(
        &mut g,
        Command::NewOrders {
            player: 1,
            card: other.clone(),
        },
    );
    assert_eq!(r.rule, Rule::SecondaryMissions);
    accepted(
        &mut g,
        Command::DiscardSecondary {
            player: 1,
            card: other.clone(),
        },
    );
    let cp = g.cp[0];
    let ev = end_turn(&mut g);
    assert!(ev.iter().any(|e| matches!(e, GameEvent::SecondaryDiscarded { player: 1, card, achieved: false } if *card == other)));
    // 1 CP for the discard, then 1 in player 2's Command phase (both players gain one).
    assert_eq!(g.cp[0], cp + 2);
    let r = rejected(
        &mut g,
        Command::DiscardSecondary {
            player: 1,
            card: "Nonsense".into(),
        },
    );
    assert!(r.reason.contains("holds no active card"), "{r}");
}

#[test]
fn actions_follow_the_mission_pack_rules() {
    let mut g = mission_game("terraform");
    clear(
        &mut g,
        &[(1, "intercessors"), (1, "hellblasters"), (2, "nobz")],
    );
    block(&mut g, 1, "intercessors", 46.0, 10.0);
    let terraform = |u: &str, o: &str| Command::StartAction {
        player: 1,
        unit: u.into(),
        action: MissionAction::Terraform,
        objective: Some(o.into()),
        to: None,
    };
    // Only in the Shooting phase.
    let r = rejected(&mut g, terraform("intercessors", "south-east"));
    assert!(r.reason.contains("Shooting phase"), "{r}");
    advance_to(&mut g, 1, Phase::Shooting);
    // Not on an objective in the own zone, not out of range, not an action the mission lacks.
    block(&mut g, 1, "hellblasters", 14.0, 10.0);
    let r = rejected(&mut g, terraform("hellblasters", "attacker-home"));
    assert!(r.reason.contains("own deployment zone"), "{r}");
    let r = rejected(&mut g, terraform("hellblasters", "centre"));
    assert!(r.reason.contains("not within range"), "{r}");
    let r = rejected(
        &mut g,
        Command::StartAction {
            player: 1,
            unit: "hellblasters".into(),
            action: MissionAction::Sabotage,
            objective: None,
            to: None,
        },
    );
    assert!(r.reason.contains("offers"), "{r}");
    // Not within Engagement Range.
    let mut e = g.clone();
    block(&mut e, 2, "nobz", 46.0, 12.0);
    let r = rejected(&mut e, terraform("intercessors", "south-east"));
    assert!(r.reason.contains("Engagement Range"), "{r}");
    // Started: the unit may not shoot or charge this turn.
    accepted(&mut g, terraform("intercessors", "south-east"));
    let r = rejected(&mut g, terraform("intercessors", "south-east"));
    assert_eq!(r.rule, Rule::Actions);
    let (a, u) = unit(&g, 1, "intercessors");
    assert!(g.units[a][u].shot && g.units[a][u].no_charge);
    // Fails when the unit is no longer in range at the end of the turn.
    block(&mut g, 1, "intercessors", 30.0, 3.0);
    let ev = end_turn(&mut g);
    assert!(
        ev.iter()
            .any(|e| matches!(e, GameEvent::ActionFailed { .. })),
        "{ev:?}"
    );
    assert!(g.mission.terraformed.is_empty());
}

#[test]
fn a_whole_game_on_each_primary_scores_primary_and_secondary_vp() {
    use wartable::ai::{Ai, play_game};
    for mission in [
        "take-and-hold",
        "linchpin",
        "purge-the-foe",
        "scorched-earth",
        "terraform",
        "hidden-supplies",
        "supply-drop",
        "burden-of-trust",
        "unexploded-ordnance",
        "the-ritual",
    ] {
        let mut scene = mission_scene(mission);
        scene.battle_ready = [true, true];
        let (g, record) = play_game(scene, 7, [&mut Ai::new(), &mut Ai::new()]);
        assert_eq!(g.stage, Stage::GameOver, "{mission}");
        assert_eq!(record.rejected, Vec::<String>::new(), "{mission}");
        let primary: u32 = g.mission.primary_vp.iter().sum();
        let secondary: u32 = g.mission.secondary_vp.iter().sum();
        assert!(primary > 0, "{mission}: no primary VP");
        assert!(secondary > 0, "{mission}: no secondary VP");
        assert_eq!(g.mission.battle_ready_vp, [10, 10]);
        assert_eq!(
            g.vp.iter().sum::<u32>(),
            primary + secondary + 20,
            "{mission}: the total is primary + secondary + Battle Ready"
        );
    }
}

#[test]
fn the_computer_player_performs_the_missions_actions_and_discards_for_cp() {
    use wartable::ai::{Ai, Brain};
    let mut g = mission_game("terraform");
    clear(&mut g, &[(1, "intercessors")]);
    to_round_2(&mut g);
    block(&mut g, 1, "intercessors", 46.0, 10.0);
    // Player 2's only unit, the Battlewagon, out of the Intercessors' reach: with nothing to
    // shoot at, they terraform the objective they stand on.
    put(&mut g, 2, "battlewagon", 0, 54.0, 40.0);
    advance_to(&mut g, 1, Phase::Shooting);
    let mut ai = Ai::new();
    let mut started = None;
    for _ in 0..10 {
        let c = ai.next(&g, 1);
        if let Command::StartAction {
            unit,
            action,
            objective,
            ..
        } = &c
        {
            started = Some((unit.clone(), *action, objective.clone()));
            break;
        }
        if c == (Command::EndPhase { player: 1 }) {
            break;
        }
        g.apply(&c).unwrap();
        while g.pending_shot.is_some() {
            g.apply(&Command::Pass { player: 2 }).unwrap();
        }
    }
    assert_eq!(
        started,
        Some((
            "intercessors".to_string(),
            MissionAction::Terraform,
            Some("south-east".to_string())
        ))
    );
    // At the end of its turn, a Tactical card that will not score is discarded for a CP.
    let mut g = mission_game("take-and-hold");
    advance_to(&mut g, 1, Phase::Fight);
    let c = Ai::new().next(&g, 1);
    assert!(
        matches!(c, Command::DiscardSecondary { player: 1, .. }),
        "{c:?}"
    );
}
