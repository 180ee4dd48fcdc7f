//! The computer's blind spots a club player found (issue: "a computer opponent a club player
//! respects"), each a hand-built position asked of [`Ai::next`] or [`Ai::react`] at `normal`
//! and `hard`: the Redemptor engaged and not attacked, Sabotage discarded mid-action, the
//! loaded Battlewagon parked on its home marker, Heroic Intervention paid with no possible
//! charge move; and a unit sent to score a card that asks for a place (Behind Enemy Lines).

use crate::battle;

use battle::*;
use wartable::ai::{Ai, Brain, Level};
use wartable::game::mission::ActiveCard;
use wartable::game::{Command, Game, Location};
use wartable::rules::mission::MissionAction;
use wartable::rules::phase::Phase;
use wartable::rules::secondary::SecondaryMode;
use wartable::rules::stratagem::Stratagem;

const LEVELS: [Level; 2] = [Level::Normal, Level::Hard];

/// Plays `player`'s commands from `ai` (the other player's from a `hard` computer) until
/// `ai` gives one for which `stop` is true; that command, not carried out.
fn play_until(g: &mut Game, player: u8, ai: &mut Ai, stop: impl Fn(&Command) -> bool) -> Command {
    let mut other = Ai::with_level(Level::Hard);
    for _ in 0..60 {
        let acting = g.acting_player().expect("the game goes on");
        let c = if acting == player {
            ai.next(g, player)
        } else {
            other.next(g, acting)
        };
        if acting == player && stop(&c) {
            return c;
        }
        accepted(g, c);
    }
    panic!("no such command by {}", g.describe_now());
}

#[test]
fn boyz_engaged_with_a_redemptor_attack_it() {
    // Three Boyz cannot destroy a Redemptor in one fight, but every wound counts: the fight
    // is made with their weapons at it, never empty.
    for level in LEVELS {
        let mut g = deployed_game(open_field());
        core_rules_only(&mut g);
        isolate(&mut g, &[(1, "redemptor"), (2, "shoota-boyz")]);
        put(&mut g, 1, "redemptor", 0, 30.0, 22.0);
        // A line of Boyz 0.3" from the Redemptor's 90mm base, three of them left: too few
        // attacks to deal its 12 wounds.
        put_line(
            &mut g,
            2,
            "shoota-boyz",
            28.7,
            22.0 + 1.77 + 0.63 + 0.3,
            1.3,
        );
        let (a, u) = unit_ref(&g, 2, "shoota-boyz");
        for m in 3..g.units[a][u].models.len() {
            g.units[a][u].models[m].alive = false;
        }
        advance_to(&mut g, 1, Phase::Fight);
        assert!(
            !g.enemy_units_engaged_with(a, u).is_empty(),
            "set up engaged"
        );
        let mut ai = Ai::with_level(level);
        let c = play_until(&mut g, 2, &mut ai, |c| matches!(c, Command::Fight { .. }));
        let Command::Fight { weapons, .. } = &c else {
            unreachable!()
        };
        assert!(
            !weapons.is_empty(),
            "{level:?}: an empty fight against the Redemptor"
        );
        assert!(
            weapons.iter().all(|w| w.target == "redemptor"),
            "{weapons:?}"
        );
    }
}

/// The open field playing Take and Hold with the secondary deck, player 1 holding only
/// Sabotage (Tactical), their Eliminators alone, the first in the middle of the open field's
/// first terrain piece, at player 1's Shooting phase of round 1.
fn sabotage_game() -> Game {
    let mut g = deployed_game(mission_scene("take-and-hold"));
    core_rules_only(&mut g);
    isolate(&mut g, &[(1, "eliminators")]);
    let deck = g.scene.secondary_deck.clone().unwrap();
    let card = deck
        .cards
        .iter()
        .position(|c| c.name == "Sabotage")
        .unwrap();
    g.scene.secondaries[0] = SecondaryMode::Tactical;
    g.mission.active[0] = vec![ActiveCard::new(card)];
    advance_to(&mut g, 1, Phase::Shooting);
    let piece = g.scene.layout.pieces[0].footprint.clone();
    let c = piece
        .iter()
        .fold(wartable::geometry::Vec2::ZERO, |s, p| s + *p)
        / piece.len() as f32;
    put_line(&mut g, 1, "eliminators", c.x, c.y, 1.3);
    g
}

/// What the computer gives at the end of player 1's Fight phase.
fn last_command_of_the_turn(mut g: Game, level: Level) -> Command {
    advance_to(&mut g, 1, Phase::Fight);
    Ai::with_level(level).next(&g, 1)
}

#[test]
fn sabotage_under_way_is_not_discarded_for_a_command_point() {
    for level in LEVELS {
        let g = sabotage_game();
        let sabotage = Command::DiscardSecondary {
            player: 1,
            card: "Sabotage".into(),
        };
        // Not started: it cannot score this turn, and goes for a CP.
        assert_eq!(last_command_of_the_turn(g.clone(), level), sabotage);
        // Started: it completes (and scores) at the end of the opponent's turn, so it stays.
        let mut started = g;
        accepted(
            &mut started,
            Command::StartAction {
                player: 1,
                unit: "eliminators".into(),
                action: MissionAction::Sabotage,
                objective: None,
                to: None,
            },
        );
        let c = last_command_of_the_turn(started, level);
        assert_ne!(c, sabotage, "{level:?} discarded Sabotage mid-action");
        assert_eq!(c, Command::EndPhase { player: 1 });
    }
}

#[test]
fn the_loaded_battlewagon_leaves_its_home_marker_to_deliver_the_boyz() {
    for level in LEVELS {
        let mut g = deployed_game(open_field());
        core_rules_only(&mut g);
        isolate(
            &mut g,
            &[(2, "battlewagon"), (2, "boyz-mob"), (1, "intercessors")],
        );
        // The Battlewagon on player 2's home marker with the Boyz and their Warboss aboard;
        // the Intercessors 30" away, too far for the Boyz to get out yet.
        put(&mut g, 2, "battlewagon", 0, 46.0, 34.0);
        embark(&mut g, 2, "boyz-mob", "battlewagon");
        embark(&mut g, 2, "warboss", "battlewagon");
        put_line(&mut g, 1, "intercessors", 10.0, 12.0, 1.3);
        advance_to(&mut g, 2, Phase::Movement);
        let before = pos(&g, 2, "battlewagon", 0);
        let (a, _) = unit_ref(&g, 2, "boyz-mob");
        let (_, i) = unit_ref(&g, 1, "intercessors");
        let enemy = wartable::ai::centre(&g, 1 - a, i);
        let mut ai = Ai::with_level(level);
        let c = play_until(&mut g, 2, &mut ai, |c| c.unit() == Some("battlewagon"));
        assert!(
            matches!(c, Command::Move { .. }),
            "{level:?}: the Battlewagon stays: {c:?}"
        );
        accepted(&mut g, c);
        let after = pos(&g, 2, "battlewagon", 0);
        let closer = before.truncate().distance(enemy.truncate())
            - after.truncate().distance(enemy.truncate());
        assert!(closer >= 5.0, "{level:?}: only {closer:.1}\" closer");
        assert!(matches!(
            g.units[a][unit_ref(&g, 2, "boyz-mob").1].location,
            Location::Embarked(_)
        ));
    }
}

/// Player 1's Ballistus Dreadnought at (30, 22) has just ended a charge move; player 2's Nobz stand 5.5"
/// above it, within 6". With `ring`, player 1's Intercessors and Captain stand in a ring
/// around the Ballistus's base, so that no Nobz model can end within Engagement Range of the
/// Ballistus without ending within Engagement Range of them (a unit not charged).
fn heroic_intervention_game(ring: bool) -> Game {
    let mut g = deployed_game(open_field());
    core_rules_only(&mut g);
    isolate(
        &mut g,
        &[(1, "ballistus"), (1, "intercessors"), (2, "nobz")],
    );
    let (x, y) = (30.0f32, 22.0f32);
    put(&mut g, 1, "ballistus", 0, x, y);
    let (a, u) = unit_ref(&g, 1, "intercessors");
    let ringed: Vec<usize> = g.combined(a, u);
    let mut slots = Vec::new();
    for &m in &ringed {
        for model in 0..g.units[a][m].models.len() {
            slots.push((g.unit_id(a, m).to_string(), model));
        }
    }
    let n = slots.len() as f32;
    for (k, (id, model)) in slots.iter().enumerate() {
        let (px, py) = if ring {
            let angle = std::f32::consts::TAU * k as f32 / n;
            let r = 1.772 + 0.63 + 0.05;
            (x + r * angle.cos(), y + r * angle.sin())
        } else {
            (6.0 + 1.4 * k as f32, 4.0)
        };
        put(&mut g, 1, id, *model, px, py);
    }
    put_line(&mut g, 2, "nobz", x - 2.6, y + 5.5, 1.3);
    advance_to(&mut g, 1, Phase::Charge);
    g.cp = [5, 5];
    let (ra, ru) = unit_ref(&g, 1, "ballistus");
    g.units[ra][ru].charged = true;
    g.trigger = Some(wartable::game::state::Trigger {
        army: ra,
        unit: ru,
        kind: wartable::game::state::TriggerKind::EndedChargeMove,
    });
    g
}

#[test]
fn no_heroic_intervention_is_paid_where_no_charge_move_is_possible() {
    let heroic = |c: &Option<Command>| {
        matches!(
            c,
            Some(Command::UseStratagem {
                stratagem: Stratagem::HeroicIntervention,
                ..
            })
        )
    };
    for level in LEVELS {
        // In the open it intervenes, and then makes its charge move.
        let g = heroic_intervention_game(false);
        let mut ai = Ai::with_level(level);
        let c = ai.react(&g, 2);
        assert!(
            heroic(&c),
            "{level:?}: no Heroic Intervention in the open: {c:?}"
        );
        // Ringed, the Nobz could not end a charge move anywhere: it keeps its 2 CP.
        let g = heroic_intervention_game(true);
        let mut ai = Ai::with_level(level);
        let c = ai.react(&g, 2);
        assert!(
            !heroic(&c),
            "{level:?}: Heroic Intervention paid with no possible move"
        );
    }
}

/// VP `player` scores with the card `card` as their turn is ended from here with End Phase
/// alone.
fn card_vp_at_turn_end(mut g: Game, player: u8, card: &str) -> u32 {
    let mut vp = 0;
    while g.active_player == player && g.acting_player() == Some(player) {
        for e in accepted(&mut g, Command::EndPhase { player }) {
            if let wartable::game::GameEvent::VictoryPoints {
                player: p,
                scored,
                reason,
                ..
            } = e
                && p == player
                && reason.starts_with(card)
            {
                vp += scored;
            }
        }
    }
    vp
}

/// The open field playing Take and Hold, player 1 holding only the Tactical card `card`, their
/// Eliminators alone (beside the anchor Ballistus), at player 1's Movement phase of round 1.
fn card_game(card: &str) -> Game {
    let mut g = deployed_game(mission_scene("take-and-hold"));
    core_rules_only(&mut g);
    isolate(&mut g, &[(1, "eliminators")]);
    let deck = g.scene.secondary_deck.clone().unwrap();
    let card = deck.cards.iter().position(|c| c.name == card).unwrap();
    g.scene.secondaries[0] = SecondaryMode::Tactical;
    g.mission.active[0] = vec![ActiveCard::new(card)];
    advance_to(&mut g, 1, Phase::Movement);
    g
}

#[test]
fn a_unit_arriving_from_deep_strike_sets_up_to_score_behind_enemy_lines() {
    for level in LEVELS {
        let mut g = card_game("Behind Enemy Lines");
        let (a, u) = unit_ref(&g, 1, "eliminators");
        g.units[a][u].location = Location::Reserves(wartable::game::ReserveKind::DeepStrike);
        g.battle_round = 2;
        let mut ai = Ai::with_level(level);
        let c = play_until(&mut g, 1, &mut ai, |c| {
            matches!(c, Command::SetUpReinforcements { unit, .. } if unit == "eliminators")
                || *c == (Command::EndPhase { player: 1 })
        });
        assert!(
            matches!(c, Command::SetUpReinforcements { .. }),
            "{level:?}: the Eliminators stayed in Reserves"
        );
        accepted(&mut g, c);
        assert_eq!(
            card_vp_at_turn_end(g, 1, "Behind Enemy Lines"),
            3,
            "{level:?}: the Eliminators did not arrive wholly within the enemy zone"
        );
    }
}

#[test]
fn a_unit_moves_wholly_within_the_enemy_zone_to_score_behind_enemy_lines() {
    // Player 1 holds Behind Enemy Lines (3 VP for one unit wholly within the enemy zone, the
    // open field's top-right quarter); its Eliminators stand 2.5" short of the zone's edge,
    // with the south-east marker 10" away. Told nothing of the card, they went for the marker.
    for level in LEVELS {
        let mut g = card_game("Behind Enemy Lines");
        put_line(&mut g, 1, "eliminators", 42.0, 19.5, 1.3);
        assert_eq!(
            card_vp_at_turn_end(g.clone(), 1, "Behind Enemy Lines"),
            0,
            "set up outside the zone"
        );
        let mut ai = Ai::with_level(level);
        let c = play_until(
            &mut g,
            1,
            &mut ai,
            |c| matches!(c, Command::Move { unit, .. } if unit == "eliminators"),
        );
        accepted(&mut g, c);
        assert_eq!(
            card_vp_at_turn_end(g, 1, "Behind Enemy Lines"),
            3,
            "{level:?}: the Eliminators did not end wholly within the enemy zone"
        );
    }
}

#[test]
fn hard_keeps_a_fragile_unit_off_a_marker_where_it_would_be_destroyed() {
    // One Eliminator with 1 wound left, 10" from the centre marker, which Shoota Boyz 10" on
    // its other side can shoot and charge. normal walks its whole Move to the marker; hard
    // keeps it back.
    let game = |level: Level| {
        let mut g = deployed_game(open_field());
        core_rules_only(&mut g);
        isolate(&mut g, &[(1, "eliminators"), (2, "shoota-boyz")]);
        advance_to(&mut g, 1, Phase::Movement);
        put_line(&mut g, 1, "eliminators", 30.0, 12.0, 1.3);
        put_line(&mut g, 2, "shoota-boyz", 24.0, 32.0, 1.3);
        let (a, u) = unit_ref(&g, 1, "eliminators");
        for m in 1..g.units[a][u].models.len() {
            g.units[a][u].models[m].alive = false;
        }
        g.units[a][u].models[0].wounds = 1;
        let mut ai = Ai::with_level(level);
        let c = play_until(&mut g, 1, &mut ai, |c| match c {
            Command::Move { unit, .. } | Command::RemainStationary { unit, .. } => {
                unit == "eliminators"
            }
            _ => false,
        });
        if matches!(c, Command::Move { .. }) {
            accepted(&mut g, c);
        }
        let centre = g
            .scene
            .objectives
            .iter()
            .find(|o| o.id == "centre")
            .unwrap()
            .at
            .vec();
        let at = g.solid(g.live_models(a, u)[0]).centre;
        at.distance(centre)
    };
    assert!(
        game(Level::Normal) < 5.0,
        "normal was meant to walk to the centre"
    );
    let hard = game(Level::Hard);
    assert!(
        hard > 9.0,
        "hard walked its last Eliminator {hard:.1}\" from the centre"
    );
}
