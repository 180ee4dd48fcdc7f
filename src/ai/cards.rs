//! Moving units to score the secondary cards that ask for a place (`normal`, `hard`):
//! Behind Enemy Lines (wholly within the enemy deployment zone), Engage on All Fronts (wholly
//! within table quarters, away from the centre) and Area Denial (near the centre).
//!
//! Once per Movement phase, before any unit moves, the computer tries moves towards each
//! card's places on a copy of the game and keeps those that make the cards score more at the
//! end of the turn ([`super::mission`]'s trial of the rest of the turn): the unit that adds
//! most VP first, then the next, at most [`MAX_CARD_UNITS`]. The units kept go to their
//! places instead of an objective marker.
//!
//! Chapter Approved 2025-26 Mission Deck: Behind Enemy Lines, Engage on All Fronts, Area
//! Denial.

use crate::game::mission::{board_centre, table_quarters};
use crate::game::{Command, Game, Location};
use crate::geometry::{Vec2, polygon};
use crate::rules::phase::opponent;
use crate::rules::secondary::CardKind;

use super::{Ai, centre, key, roots};

/// Most units a Movement phase sends to score the cards that ask for a place.
pub const MAX_CARD_UNITS: usize = 3;

/// Spacing (inches) of the grid of places tried inside a zone or a table quarter.
pub const CARD_GRID_INCHES: f32 = 2.0;

/// Margin (inches) kept inside a zone's or quarter's edge beyond the unit's own footprint.
pub const CARD_EDGE_MARGIN_INCHES: f32 = 0.7;

/// Inches beyond its Move a unit that may Advance at no cost is sent to a card's place from:
/// an Advance roll of 3 or more (two chances in three).
pub const CARD_ADVANCE_INCHES: f32 = 3.0;

/// VP a card move must add to send a unit that has an objective marker to go to this turn
/// (units with no marker to go to are sent for 1 VP). A marker held is worth more than a
/// card's 2-4 VP once, over the rounds it keeps scoring.
pub const CARD_VP_FOR_MARKER_UNIT: u32 = 3;

/// The units sent to a card's place this phase, and where (battlefield inches).
#[derive(Debug, Clone, Default)]
pub(super) struct CardPlan {
    key: String,
    goals: Vec<(usize, Vec2)>,
}

/// Whether a card scores for where units stand at the end of their player's turn.
fn wants_a_place(kind: &CardKind) -> bool {
    matches!(
        kind,
        CardKind::BehindEnemyLines { .. }
            | CardKind::EngageOnAllFronts { .. }
            | CardKind::AreaDenial { .. }
    )
}

/// The unit's footprint radius (inches): the farthest base edge from its centre.
fn footprint(game: &Game, army: usize, u: usize) -> f32 {
    let c = centre(game, army, u).truncate();
    game.live_models(army, u)
        .iter()
        .map(|r| {
            let s = game.solid(*r);
            (s.centre - c).length() + s.base.bounding_radius_inches()
        })
        .fold(0.0, f32::max)
}

/// Grid points inside `area` at least `margin` inches from its edges.
fn inside(area: &[Vec2], margin: f32) -> Vec<Vec2> {
    let (lo, hi) = polygon::bounds(area);
    let mut out = Vec::new();
    let mut y = lo.y + CARD_GRID_INCHES / 2.0;
    while y < hi.y {
        let mut x = lo.x + CARD_GRID_INCHES / 2.0;
        while x < hi.x {
            let p = Vec2::new(x, y);
            if polygon::contains(area, p) && polygon::distance_to_boundary(area, p) >= margin {
                out.push(p);
            }
            x += CARD_GRID_INCHES;
        }
        y += CARD_GRID_INCHES;
    }
    out
}

/// The places for the unit (`army`, `u`) that the card asks for, nearest first per area:
/// the nearest point wholly within the enemy zone (Behind Enemy Lines), the nearest point
/// in each table quarter far enough from the centre (Engage on All Fronts), the centre
/// (Area Denial).
fn places(game: &Game, player: u8, army: usize, u: usize, kind: &CardKind) -> Vec<Vec2> {
    let from = centre(game, army, u).truncate();
    let margin = footprint(game, army, u) + CARD_EDGE_MARGIN_INCHES;
    let middle = board_centre();
    let nearest = |points: Vec<Vec2>| {
        points
            .into_iter()
            .min_by(|a, b| a.distance(from).total_cmp(&b.distance(from)))
    };
    match kind {
        CardKind::BehindEnemyLines { .. } => game
            .scene
            .deployment
            .zone_of(opponent(player))
            .and_then(|zone| nearest(inside(&zone, margin)))
            .into_iter()
            .collect(),
        CardKind::EngageOnAllFronts { centre_inches, .. } => table_quarters()
            .iter()
            .filter_map(|area| {
                let far = centre_inches + margin;
                nearest(
                    inside(area, margin)
                        .into_iter()
                        .filter(|p| p.distance(middle) >= far)
                        .collect(),
                )
            })
            .collect(),
        CardKind::AreaDenial { .. } => vec![middle],
        _ => Vec::new(),
    }
}

/// The player's active cards that ask for a place, by name and kind.
fn place_cards(game: &Game, player: u8) -> Vec<(String, CardKind)> {
    let Some(deck) = game.scene.secondary_deck.as_ref() else {
        return Vec::new();
    };
    game.mission.active[usize::from(player - 1)]
        .iter()
        .map(|c| &deck.cards[c.card])
        .filter(|c| wants_a_place(&c.kind))
        .map(|c| (c.name.clone(), c.kind.clone()))
        .collect()
}

/// The VP the cards score at the end of the turn from the position `game` (the rest of the
/// turn ended with End Phase alone on a copy).
fn cards_vp(game: &Game, player: u8, cards: &[(String, CardKind)]) -> u32 {
    cards
        .iter()
        .map(|(name, _)| super::mission::card_vp_after(game.clone(), player, name, false))
        .sum()
}

/// Most places tried for a unit arriving from Reserves to score a card ([`arrival`]).
pub const CARD_ARRIVAL_TRIES: usize = 12;

/// For a unit arriving from Reserves: of the places `spots` it may be set up in (a centre and
/// the area around it, nearest its other goals first), the set-up the engine accepts that
/// makes the player's cards that ask for a place score more at the end of the turn (wholly
/// within the enemy zone for Behind Enemy Lines, in a table quarter away from the centre for
/// Engage on All Fronts, near the centre for Area Denial), built by `set_up`; None when none
/// does. At most [`CARD_ARRIVAL_TRIES`] places are tried, those whose centre could score.
pub(super) fn arrival(
    game: &Game,
    player: u8,
    radius: f32,
    spots: &[(f32, Vec<Vec2>)],
    set_up: impl Fn(&[Vec2]) -> Option<Command>,
) -> Option<Command> {
    let cards = place_cards(game, player);
    if cards.is_empty() {
        return None;
    }
    let middle = board_centre();
    let enemy_zone = game.scene.deployment.zone_of(opponent(player));
    let could_score = |p: Vec2| {
        cards.iter().any(|(_, kind)| match kind {
            CardKind::BehindEnemyLines { .. } => enemy_zone.as_ref().is_some_and(|z| {
                polygon::contains(z, p) && polygon::distance_to_boundary(z, p) >= radius
            }),
            CardKind::EngageOnAllFronts { centre_inches, .. } => {
                p.distance(middle) >= centre_inches + radius
                    && (p.x - middle.x).abs() >= radius
                    && (p.y - middle.y).abs() >= radius
            }
            CardKind::AreaDenial { inner_inches, .. } => {
                p.distance(middle) <= inner_inches + radius
            }
            _ => false,
        })
    };
    let now = cards_vp(game, player, &cards);
    spots
        .iter()
        .filter(|(_, zone)| could_score(polygon::centroid(zone)))
        .take(CARD_ARRIVAL_TRIES)
        .filter_map(|(_, zone)| set_up(zone))
        .find(|c| {
            let mut trial = game.trial_copy();
            trial.apply(c).is_ok() && cards_vp(&trial, player, &cards) > now
        })
}

impl Ai {
    /// Where the unit (`army`, `u`) goes this Movement phase to score a card that asks for a
    /// place ([`CardPlan`]), worked out once per phase; None when it is not sent.
    pub(super) fn card_goal(
        &mut self,
        game: &Game,
        player: u8,
        army: usize,
        u: usize,
    ) -> Option<Vec2> {
        let k = key(game, player, "cards");
        if self.cards.key != k {
            let goals = self.plan_card_moves(game, player, army);
            self.cards = CardPlan { key: k, goals };
        }
        self.cards
            .goals
            .iter()
            .find(|(v, _)| *v == u)
            .map(|&(_, g)| g)
    }

    /// Whether the unit is sent to a card's place this phase (it then takes no objective).
    pub(super) fn sent_to_card(&self, game: &Game, player: u8, u: usize) -> bool {
        self.cards.key == key(game, player, "cards") && self.cards.goals.iter().any(|g| g.0 == u)
    }

    /// The units to send to the places the player's active cards ask for, and where: moves
    /// tried on a copy of the game, the one adding most VP kept first (then the cheaper
    /// unit), up to [`MAX_CARD_UNITS`]. A unit is tried when it has not moved, is not
    /// engaged, holds no marker alone, does not go for the enemy, carries no passengers and
    /// reaches the place with a Normal move; one with a marker to go to only for
    /// [`CARD_VP_FOR_MARKER_UNIT`] VP or more.
    fn plan_card_moves(&mut self, game: &Game, player: u8, army: usize) -> Vec<(usize, Vec2)> {
        let cards = place_cards(game, player);
        if cards.is_empty() {
            return Vec::new();
        }
        let total = |g: &Game| cards_vp(g, player, &cards);
        let mut copy = game.trial_copy();
        let mut now = total(&copy);
        let mut out: Vec<(usize, Vec2)> = Vec::new();
        let candidates: Vec<usize> = roots(game, player)
            .into_iter()
            .filter(|&u| {
                game.units[army][u].moved.is_none()
                    && game.units[army][u].location == Location::OnTable
                    && !game.units[army][u].battle_shocked
                    && !game.live_models(army, u).is_empty()
                    && !game.engaged(army, u)
                    && super::plan::needed_on(game, army, u).is_empty()
                    && !self.seeks_melee(game, army, u)
                    && !self.carries(game, army, u)
                    && !game.has_keyword(army, u, "AIRCRAFT")
            })
            .collect();
        let headed: Vec<bool> = candidates
            .iter()
            .map(|&u| self.assigned_objective(game, player, army, u).is_some())
            .collect();
        for _ in 0..MAX_CARD_UNITS {
            let mut best: Option<(u32, u32, usize, Vec2, Vec<Command>)> = None;
            for (i, &u) in candidates.iter().enumerate() {
                if out.iter().any(|g| g.0 == u) {
                    continue;
                }
                let from = centre(&copy, army, u).truncate();
                let m = copy.unit_move_inches(army, u);
                let advance = super::plan::advance_costs_nothing(&copy, player, army, u);
                let reach = m + if advance { CARD_ADVANCE_INCHES } else { 0.5 };
                let points = copy.scene.armies[army].units[u].points.unwrap_or(100);
                for (_, kind) in &cards {
                    for goal in places(&copy, player, army, u, kind) {
                        let d = goal.distance(from);
                        if d > reach {
                            continue;
                        }
                        // Beyond its Move it Advances first (tried with the check dice' 6).
                        let mut trial = copy.clone();
                        let mut commands = Vec::new();
                        if d > m + 0.5 {
                            let roll = Command::Advance {
                                player,
                                unit: copy.unit_id(army, u).to_string(),
                            };
                            if trial.apply(&roll).is_err() {
                                continue;
                            }
                            commands.push(roll);
                        }
                        let Some(c) = self.move_towards(
                            &trial,
                            player,
                            (army, u),
                            goal.extend(0.0),
                            (0.0, 0.5),
                        ) else {
                            continue;
                        };
                        if trial.apply(&c).is_err() {
                            continue;
                        }
                        commands.push(c);
                        let gain = total(&trial).saturating_sub(now);
                        let needed = if headed[i] {
                            CARD_VP_FOR_MARKER_UNIT
                        } else {
                            1
                        };
                        if gain >= needed
                            && best
                                .as_ref()
                                .is_none_or(|b| (gain, u32::MAX - points) > (b.0, u32::MAX - b.1))
                        {
                            best = Some((gain, points, u, goal, commands));
                        }
                    }
                }
            }
            let Some((gain, _, u, goal, commands)) = best else {
                break;
            };
            if commands.iter().any(|c| copy.apply(c).is_err()) {
                break;
            }
            now += gain;
            out.push((u, goal));
        }
        out
    }
}
