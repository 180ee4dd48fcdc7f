//! The computer player's use of the mission: the actions its primary and secondary cards
//! offer, shuffling back a card just drawn that cannot score, and discarding Tactical cards
//! for Command points.
//!
//! Chapter Approved 2025-26 Mission Deck: Actions, Tactical secondary missions, When Drawn.

use crate::game::{Command, Game, GameEvent};
use crate::geometry::{Point, Vec2, polygon};
use crate::rules::mission::MissionAction;
use crate::rules::phase::opponent;
use crate::rules::secondary::{CardKind, SecondaryMode, WhenDrawn};

/// How close (inches) to the enemy deployment zone one of its units must stand for the
/// computer to keep Behind Enemy Lines drawn in the first battle round: a Move and an Advance
/// of a typical infantry unit (6" + 3.5" on average), rounded up.
pub const ENEMY_ZONE_REACH_INCHES: f32 = 10.0;

/// The actions `player` may perform now: the primary's and those of their active cards.
fn offered(game: &Game, player: u8) -> Vec<MissionAction> {
    let mut out = game.scene.mission.actions.clone();
    if let Some(deck) = &game.scene.secondary_deck {
        for c in &game.mission.active[usize::from(player - 1)] {
            if let Some(a) = deck.cards[c.card].kind.action()
                && !out.contains(&a)
            {
                out.push(a);
            }
        }
    }
    out
}

/// [`action_for`] among the primary mission's actions only.
pub fn primary_action_for(game: &Game, player: u8, unit: &str) -> Option<Command> {
    game.scene
        .mission
        .actions
        .iter()
        .find_map(|&a| start_of(game, player, unit, a))
}

/// In `player`'s Shooting phase: an action for `unit` (a unit with nothing to shoot at) that
/// the engine accepts, on the first objective it may be performed on; None when no action is
/// offered or none is possible.
pub fn action_for(game: &Game, player: u8, unit: &str) -> Option<Command> {
    offered(game, player)
        .into_iter()
        .find_map(|action| start_of(game, player, unit, action))
}

/// The points of enemy units that one victory point expected from a secondary card's action
/// is worth to `normal` and `hard` when the action competes with a unit's shooting
/// ([`scoring_action`]).
pub const POINTS_PER_VP: f64 = 20.0;

/// Most end-of-phase steps a trial of the rest of the turn carries out ([`card_vp_after`]).
const TRIAL_STEPS: usize = 24;

/// A secondary card's action `unit` can start now that is expected to score
/// (`normal`, `hard`): for each active card with an action, the first start the engine
/// accepts, tried on a copy of the game ([`Game::trial_copy`]) where the player's other units
/// that could also start it do, and the turn then ends (and the opponent's next turn too, for
/// an action that completes then, as Sabotage does) with nothing else done; the card's VP
/// scored on that copy, with the command. None when no such action scores: an action whose
/// condition already fails (Establish Locus out of place, Recover Assets alone) is not
/// started.
pub fn scoring_action(game: &Game, player: u8, unit: &str) -> Option<(u32, Command)> {
    let deck = game.scene.secondary_deck.as_ref()?;
    let army = game.army_of(player)?;
    let mut best: Option<(u32, Command)> = None;
    for held in &game.mission.active[usize::from(player - 1)] {
        let card = &deck.cards[held.card];
        let Some(action) = card.kind.action() else {
            continue;
        };
        let Some(start) = start_of(game, player, unit, action) else {
            continue;
        };
        let mut copy = game.trial_copy();
        if copy.apply(&start).is_err() {
            continue;
        }
        // The player's other units that could start it too.
        for u in game.unit_roots(army) {
            let id = game.unit_id(army, u);
            if id == unit || copy.units[army][u].shot {
                continue;
            }
            if let Some(c) = start_of(&copy, player, id, action) {
                let _ = copy.apply(&c);
            }
        }
        let vp = card_vp_after(copy, player, &card.name, action.completes_next_turn());
        if vp > 0 && best.as_ref().is_none_or(|(b, _)| vp > *b) {
            best = Some((vp, start));
        }
    }
    best
}

/// The first start of `action` by `unit` the engine accepts now (its objective and place
/// tried as [`action_for`] does).
fn start_of(game: &Game, player: u8, unit: &str, action: MissionAction) -> Option<Command> {
    let objectives: Vec<Option<String>> = if action.needs_objective() {
        game.scene
            .objectives
            .iter()
            .map(|o| Some(o.id.clone()))
            .collect()
    } else {
        vec![None]
    };
    for objective in objectives {
        for to in places(game, player, unit, action, objective.as_deref()) {
            let c = Command::StartAction {
                player,
                unit: unit.to_string(),
                action,
                objective: objective.clone(),
                to,
            };
            if game.check(&c).is_ok() {
                return Some(c);
            }
        }
    }
    None
}

/// The VP `player` scores with the card `card` while the trial copy `game` is played on with
/// End Phase alone to the end of their turn (and through the opponent's next turn with
/// `next_turn`).
pub(super) fn card_vp_after(mut game: Game, player: u8, card: &str, next_turn: bool) -> u32 {
    let mut vp = 0;
    let mut turns_ended = 0;
    for _ in 0..TRIAL_STEPS {
        let Some(acting) = game.acting_player() else {
            break;
        };
        let c = match &game.pending_shot {
            Some(p) => Command::Pass {
                player: opponent(p.player),
            },
            None => Command::EndPhase { player: acting },
        };
        let before = game.active_player;
        let Ok(events) = game.apply(&c) else {
            break;
        };
        vp += events
            .iter()
            .filter_map(|e| match e {
                GameEvent::VictoryPoints {
                    player: p,
                    scored,
                    reason,
                    ..
                } if *p == player && reason.starts_with(card) => Some(*scored),
                _ => None,
            })
            .sum::<u32>();
        if game.active_player != before || game.stage != crate::rules::phase::Stage::Battle {
            turns_ended += 1;
            if turns_ended > usize::from(next_turn) {
                break;
            }
        }
    }
    vp
}

/// In `player`'s Command phase: a card just drawn whose "when drawn" clause lets them shuffle
/// it back ([`Game::redraw_choices`]) and that cannot score this turn, to send back; None
/// keeps every card. A card offered back because no enemy unit qualifies for it, or because
/// the player has too few units, cannot score and goes back; one offered in the first battle
/// round goes back when this turn cannot score it: Storm Hostile Objective unless the opponent
/// held a marker at the start of the turn, Behind Enemy Lines unless one of the player's units
/// stands within [`ENEMY_ZONE_REACH_INCHES`] of the enemy deployment zone.
pub fn redraw(game: &Game, player: u8) -> Option<Command> {
    let deck = game.scene.secondary_deck.as_ref()?;
    let i = usize::from(player - 1);
    for name in game.redraw_choices(player) {
        let Some(held) = game.mission.active[i]
            .iter()
            .find(|c| deck.cards[c.card].name == name)
        else {
            continue;
        };
        let card = &deck.cards[held.card];
        let keep = match (card.when_drawn, &card.kind) {
            (WhenDrawn::MayRedrawInFirstRound, CardKind::StormHostileObjective { .. }) => game
                .mission
                .control_at_turn_start
                .iter()
                .any(|(_, c)| *c == Some(opponent(player))),
            (WhenDrawn::MayRedrawInFirstRound, CardKind::BehindEnemyLines { .. }) => {
                enemy_zone_in_reach(game, player)
            }
            (WhenDrawn::MayRedrawInFirstRound, _) => true,
            _ => false,
        };
        if !keep {
            return Some(Command::RedrawSecondary { player, card: name });
        }
    }
    None
}

/// Whether one of `player`'s units on the battlefield has its centre within
/// [`ENEMY_ZONE_REACH_INCHES`] of the enemy deployment zone (or in it).
fn enemy_zone_in_reach(game: &Game, player: u8) -> bool {
    let Some(zone) = game.scene.deployment.zone_of(opponent(player)) else {
        return false;
    };
    let Some(army) = game.army_of(player) else {
        return false;
    };
    game.unit_roots(army)
        .into_iter()
        .filter(|&u| !game.live_models(army, u).is_empty())
        .any(|u| {
            let c = super::centre(game, army, u);
            let at = Vec2::new(c.x, c.y);
            polygon::contains(&zone, at)
                || polygon::distance_to_boundary(&zone, at) <= ENEMY_ZONE_REACH_INCHES
        })
}

/// Just before `player` ends their turn (the last EndPhase of the Fight phase): one Tactical
/// card that would not score at the end of this turn, to discard for a Command point, when
/// none is marked yet and the CP would be gained (the 1 extra CP per round not yet had). A
/// card whose action one of its units is performing is kept: it scores when the action
/// completes.
pub fn discard_for_cp(game: &Game, player: u8) -> Option<Command> {
    let i = usize::from(player - 1);
    let deck = game.scene.secondary_deck.as_ref()?;
    if game.scene.secondaries[i] != SecondaryMode::Tactical
        || game.cp_other_gain[i] > 0
        || game.mission.active[i].iter().any(|c| c.discard)
    {
        return None;
    }
    // The end of the turn, tried on a copy: which cards score.
    let mut trial = game.clone();
    let events = trial.apply(&Command::EndPhase { player }).ok()?;
    let scoring: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            GameEvent::VictoryPoints {
                player: p, reason, ..
            } if *p == player => reason.split(" (secondary)").next(),
            _ => None,
        })
        .collect();
    // A card whose action one of the player's units is performing scores when it completes
    // (Sabotage: at the end of the opponent's turn): never discarded under way.
    let under_way = |kind: &CardKind| {
        kind.action().is_some_and(|a| {
            game.mission
                .actions
                .iter()
                .any(|w| w.player == player && w.action == a)
        })
    };
    let card = game.mission.active[i]
        .iter()
        .filter(|c| !under_way(&deck.cards[c.card].kind))
        .map(|c| deck.cards[c.card].name.clone())
        .find(|name| !scoring.contains(&name.as_str()))?;
    let c = Command::DiscardSecondary { player, card };
    game.check(&c).is_ok().then_some(c)
}

/// Where the action might put its marker, best first (None alone for actions that place
/// nothing): Move Hazard tries the furthest move straight toward the enemy zone's centre, then
/// shorter and turned ones; the Ritual tries the points exactly the mission's distance from a
/// No Man's Land objective, on the line toward each of the unit's models and a little either
/// side of it. The engine's check picks the first legal one.
fn places(
    game: &Game,
    player: u8,
    unit: &str,
    action: MissionAction,
    objective: Option<&str>,
) -> Vec<Option<Point>> {
    if !action.needs_place() {
        return vec![None];
    }
    let mut out = Vec::new();
    match action {
        MissionAction::MoveHazard => {
            let inches = game.scene.mission.hazard_move_inches().unwrap_or(0.0);
            let Some(from) = game
                .scene
                .objectives
                .iter()
                .find(|o| Some(o.id.as_str()) == objective)
                .map(|o| o.at.vec())
            else {
                return out;
            };
            let Some(zone) = game.scene.deployment.zone_of(opponent(player)) else {
                return out;
            };
            let toward = (polygon::centroid(&zone) - from).normalize_or_zero();
            for step in [1.0, 0.8, 0.6, 0.4, 0.2] {
                for turn in [0.0_f32, 20.0, -20.0, 45.0, -45.0] {
                    let (sin, cos) = turn.to_radians().sin_cos();
                    let dir = Vec2::new(
                        toward.x * cos - toward.y * sin,
                        toward.x * sin + toward.y * cos,
                    );
                    let at = from + dir * inches * step;
                    out.push(Some(Point(at.x, at.y)));
                }
            }
        }
        MissionAction::Ritual => {
            let Some((_, exactly, _)) = game.scene.mission.ritual_distances() else {
                return out;
            };
            let Some(army) = game.army_of(player) else {
                return out;
            };
            let Some(u) = game.find_unit(army, unit) else {
                return out;
            };
            let models: Vec<Vec2> = game
                .live_models(army, u)
                .iter()
                .map(|r| game.solid(*r).centre)
                .collect();
            for (i, o) in game.scene.objectives.iter().enumerate() {
                if game.objective_zone(i).is_some() {
                    continue;
                }
                let centre = o.at.vec();
                for &m in &models {
                    let base = (m - centre).normalize_or_zero();
                    for turn in [0.0_f32, 3.0, -3.0, 6.0, -6.0] {
                        let (sin, cos) = turn.to_radians().sin_cos();
                        let dir =
                            Vec2::new(base.x * cos - base.y * sin, base.x * sin + base.y * cos);
                        let at = centre + dir * exactly;
                        out.push(Some(Point(at.x, at.y)));
                    }
                }
            }
        }
        _ => {}
    }
    out
}
