//! The mission in play: primary scoring with its set-up steps, the secondary deck (Fixed and
//! Tactical), actions, and the VP caps.
//!
//! Chapter Approved 2025-26 Mission Deck: primary missions, secondary missions, New Orders,
//! Actions, Battle Ready; Core Rules: Objective Markers. The numbers come from the mission and
//! deck files (`scenes/missions/`).

use super::event::{GameEvent, reject};
use super::rejection::Rejection;
use super::rejection::Rule;
use super::state::Game;
use crate::game::sight::ModelRef;
use crate::geometry::{Point, Vec2, Vec3, polygon};
use crate::rules::constants::{
    BOARD_DEPTH_INCHES, BOARD_WIDTH_INCHES, OBJECTIVE_MARKER_RADIUS_INCHES,
    RITUAL_EXACT_TOLERANCE_INCHES,
};
use crate::rules::engagement::in_objective_range;
use crate::rules::mission::{
    MissionAction, MissionSetup, ObjectiveMarker, ObjectiveSet, ScoringRule, ScoringTiming,
};
use crate::rules::movement::{MoveMode, Moved};
use crate::rules::phase::{Phase, Stage, opponent};
use crate::rules::secondary::{CardKind, SecondaryMode, WhenDrawn};

/// A secondary card a player holds (Tactical: drawn; Fixed: chosen).
#[derive(Debug, Clone, PartialEq)]
pub struct ActiveCard {
    /// Index of the card in the deck file.
    pub card: usize,
    /// VP it has scored in the battle (a Fixed card is capped).
    pub scored: u32,
    /// VP it scored this turn (a Tactical card that scored is discarded at the end of it).
    pub scored_this_turn: u32,
    /// Marked to be discarded at the end of this turn.
    pub discard: bool,
    /// Marked for Death: the Alpha targets (army, unit) picked when drawn.
    pub alphas: Vec<(usize, usize)>,
    /// Marked for Death: the Gamma target (army, unit).
    pub gamma: Option<(usize, usize)>,
    /// A Tempting Target: the objective picked when drawn.
    pub objective: Option<String>,
    /// Tactical: (battle round, player) of the Command phase it was drawn in; None for a
    /// Fixed card.
    pub drawn: Option<(u8, u8)>,
    /// Tactical: its "when drawn" clause let its player shuffle it back and draw another when
    /// it was drawn (the player's choice, [`Command::RedrawSecondary`](super::Command), in
    /// the Command phase it was drawn in; kept otherwise).
    pub may_redraw: bool,
}

impl ActiveCard {
    /// Card `card` (its index in the deck file) just drawn or chosen: nothing scored, no
    /// targets picked.
    pub fn new(card: usize) -> Self {
        ActiveCard {
            card,
            scored: 0,
            scored_this_turn: 0,
            discard: false,
            alphas: Vec::new(),
            gamma: None,
            objective: None,
            drawn: None,
            may_redraw: false,
        }
    }
}

/// An action under way.
#[derive(Debug, Clone, PartialEq)]
pub struct ActionUnderWay {
    /// The performing player.
    pub player: u8,
    /// The action.
    pub action: MissionAction,
    /// The unit (army, unit index of the acting root).
    pub army: usize,
    /// Unit index.
    pub unit: usize,
    /// The objective it is performed on.
    pub objective: Option<String>,
    /// Where it puts a marker on completion (Move Hazard, Ritual), inches.
    pub to: Option<Vec2>,
    /// It completes at the end of the turn of this player in battle round `round`.
    pub completes: (u8, u8),
}

/// A unit guarding an objective (Burden of Trust) until the start of its player's next turn.
#[derive(Debug, Clone, PartialEq)]
pub struct GuardPost {
    /// The guarding player.
    pub player: u8,
    /// The unit (army, unit index of its root).
    pub unit: (usize, usize),
    /// The objective guarded.
    pub objective: String,
}

/// An action completed this turn: (player, action, unit id, objective, where it stood).
#[derive(Debug, Clone, PartialEq)]
pub struct CompletedAction {
    /// The performing player.
    pub player: u8,
    /// The action.
    pub action: MissionAction,
    /// The unit (army, unit index).
    pub unit: (usize, usize),
    /// The objective, for actions on one.
    pub objective: Option<String>,
    /// The unit was within the card's distance of the centre when it completed.
    pub near_centre: bool,
    /// The unit was wholly within the enemy deployment zone.
    pub in_enemy_zone: bool,
}

/// An enemy unit or CHARACTER model destroyed, for the cards that count them.
#[derive(Debug, Clone, PartialEq)]
pub struct Destroyed {
    /// Battle round.
    pub round: u8,
    /// The player whose turn it was.
    pub turn_of: u8,
    /// The player who lost it.
    pub owner: u8,
    /// Army and unit index.
    pub unit: (usize, usize),
    /// For a CHARACTER model: its Wounds characteristic; None for a whole unit.
    pub character_wounds: Option<u8>,
}

/// The mission's running state, kept in the [`Game`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MissionState {
    /// Primary VP of players 1 and 2.
    pub primary_vp: [u32; 2],
    /// Secondary VP of players 1 and 2.
    pub secondary_vp: [u32; 2],
    /// Battle Ready VP of players 1 and 2 (given at the end of the battle).
    pub battle_ready_vp: [u32; 2],
    /// Each player's draw pile (card indices; the next card is the last).
    pub decks: [Vec<usize>; 2],
    /// Each player's active cards.
    pub active: [Vec<ActiveCard>; 2],
    /// Each player's discarded cards.
    pub discarded: [Vec<usize>; 2],
    /// New Orders used this turn.
    pub new_orders_used: bool,
    /// Objectives terraformed: (objective id, player).
    pub terraformed: Vec<(String, u8)>,
    /// Actions under way.
    pub actions: Vec<ActionUnderWay>,
    /// Actions completed this turn.
    pub completed: Vec<CompletedAction>,
    /// Units and CHARACTER models destroyed in the battle.
    pub destroyed: Vec<Destroyed>,
    /// Who controlled each objective (by id) at the start of the turn.
    pub control_at_turn_start: Vec<(String, Option<u8>)>,
    /// Units (army, unit) within range of an objective at the start of the turn.
    pub on_objective_at_turn_start: Vec<(usize, usize)>,
    /// Supply Drop: (round whose start removes it, objective id).
    pub removals: Vec<(u8, String)>,
    /// Burden of Trust: the units guarding objectives.
    pub guards: Vec<GuardPost>,
    /// Unexploded Ordnance: the Hazard objectives (ids).
    pub hazards: Vec<String>,
    /// The Ritual: markers placed so far (for their ids).
    pub placed: u32,
}

/// The centre of the battlefield (inches).
pub(crate) fn board_centre() -> Vec2 {
    Vec2::new(BOARD_WIDTH_INCHES / 2.0, BOARD_DEPTH_INCHES / 2.0)
}

/// The four corners of the battlefield (inches), counter-clockwise from (0, 0).
fn board_corners() -> [Vec2; 4] {
    [
        Vec2::ZERO,
        Vec2::new(BOARD_WIDTH_INCHES, 0.0),
        Vec2::new(BOARD_WIDTH_INCHES, BOARD_DEPTH_INCHES),
        Vec2::new(0.0, BOARD_DEPTH_INCHES),
    ]
}

/// The four table quarters (inches), each the rectangle between a corner of the battlefield
/// and its centre, as a polygon (Chapter Approved 2025-26: Engage on All Fronts).
pub(crate) fn table_quarters() -> [[Vec2; 4]; 4] {
    let centre = board_centre();
    board_corners().map(|k| {
        let (lo, hi) = (k.min(centre), k.max(centre));
        [lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)]
    })
}

fn pi(player: u8) -> usize {
    usize::from(player - 1)
}

impl Game {
    // ----- set-up ------------------------------------------------------------------------

    /// The mission's set-up when the game is created: Hidden Supplies moves the centre marker
    /// and adds a sixth; the secondary decks are shuffled (seeded dice) and Fixed cards dealt.
    pub(super) fn set_up_mission(&mut self) {
        for step in self.scene.mission.setup.clone() {
            if let MissionSetup::HiddenSupplies { inches } = step {
                self.hidden_supplies(inches);
            }
        }
        self.objectives = vec![None; self.scene.objectives.len()];
        let Some(deck) = &self.scene.secondary_deck else {
            return;
        };
        let n = deck.cards.len();
        for player in [1u8, 2] {
            let i = pi(player);
            match self.scene.secondaries[i].clone() {
                SecondaryMode::Tactical => {
                    let mut pile: Vec<usize> = (0..n).collect();
                    // Fisher-Yates with the game's dice (seeded, so replays agree).
                    for k in (1..n).rev() {
                        let j = self.rng.below(k as u32 + 1) as usize;
                        pile.swap(k, j);
                    }
                    self.mission.decks[i] = pile;
                }
                SecondaryMode::Fixed(a, b) => {
                    for name in [a, b] {
                        if let Some(card) = deck
                            .cards
                            .iter()
                            .position(|c| c.name.eq_ignore_ascii_case(&name))
                        {
                            self.mission.active[i].push(ActiveCard::new(card));
                        }
                    }
                }
            }
        }
    }

    fn hidden_supplies(&mut self, inches: f32) {
        let centre = board_centre();
        let Some(c) = self
            .scene
            .objectives
            .iter()
            .position(|o| (Vec2::new(o.at.0, o.at.1) - centre).length() < 0.5)
        else {
            return;
        };
        let corners = board_corners();
        let inset = |k: Vec2| k + (centre - k).normalize() * 0.5;
        let open: Vec<Vec2> = corners
            .iter()
            .copied()
            .filter(|&k| self.zone_at(inset(k)).is_none())
            .collect();
        let corner = if let Some(&k) = open.first() {
            k
        } else {
            // Roll-off; the winner moves the marker toward the corner of their own zone.
            let (_, winner) = self.roll_off_dice();
            corners
                .iter()
                .copied()
                .find(|&k| self.zone_at(inset(k)) == Some(winner))
                .unwrap_or(corners[0])
        };
        let dir = (corner - centre).normalize();
        let moved = centre + dir * inches;
        let added = centre - dir * inches;
        let mut marker = self.scene.objectives[c].clone();
        self.scene.objectives[c].at = crate::geometry::Point(moved.x, moved.y);
        marker.id = format!("{}-hidden", marker.id);
        marker.at = crate::geometry::Point(added.x, added.y);
        self.scene.objectives.push(marker);
    }

    /// At the start of the battle: Supply Drop picks its two objectives; Unexploded Ordnance's
    /// No Man's Land objectives become Hazard objectives.
    pub(super) fn mission_battle_begins(&mut self) {
        if self.scene.mission.hazard_move_inches().is_some() {
            self.mission.hazards = (0..self.scene.objectives.len())
                .filter(|&i| self.objective_zone(i).is_none())
                .map(|i| self.scene.objectives[i].id.clone())
                .collect();
        }
        for step in self.scene.mission.setup.clone() {
            if let MissionSetup::SupplyDrop {
                first_removed,
                second_removed,
            } = step
            {
                let mut pool: Vec<String> = self
                    .scene
                    .objectives
                    .iter()
                    .enumerate()
                    .filter(|(i, o)| {
                        self.objective_zone(*i).is_none()
                            && (o.at.vec() - board_centre()).length() > 0.5
                    })
                    .map(|(_, o)| o.id.clone())
                    .collect();
                for round in [first_removed, second_removed] {
                    if pool.is_empty() {
                        break;
                    }
                    let k = self.rng.below(pool.len() as u32) as usize;
                    self.mission.removals.push((round, pool.remove(k)));
                }
            }
        }
    }

    /// At the start of a battle round: objectives the mission removes now.
    pub(super) fn mission_round_begins(&mut self, ev: &mut Vec<GameEvent>) {
        let now: Vec<String> = self
            .mission
            .removals
            .iter()
            .filter(|(r, _)| *r == self.battle_round)
            .map(|(_, id)| id.clone())
            .collect();
        for id in now {
            self.remove_objective(&id, "Supply Drop: removed at the start of the round", ev);
        }
    }

    fn remove_objective(&mut self, id: &str, reason: &str, ev: &mut Vec<GameEvent>) {
        if let Some(i) = self.scene.objectives.iter().position(|o| o.id == id) {
            self.scene.objectives.remove(i);
            self.objectives.remove(i);
            self.mission.terraformed.retain(|(o, _)| o != id);
            self.mission.hazards.retain(|o| o != id);
            self.mission.guards.retain(|g| g.objective != id);
            ev.push(GameEvent::ObjectiveRemoved {
                objective: id.to_string(),
                reason: reason.to_string(),
            });
        }
    }

    /// The names of `player`'s active secondary cards (Tactical: those drawn; Fixed: the two
    /// chosen); empty without a deck.
    pub fn secondary_names(&self, player: u8) -> Vec<String> {
        let Some(deck) = &self.scene.secondary_deck else {
            return Vec::new();
        };
        self.mission.active[pi(player)]
            .iter()
            .map(|c| deck.cards[c.card].name.clone())
            .collect()
    }

    // ----- geometry of the mission ---------------------------------------------------------

    /// The player whose deployment zone contains `p` (None: No Man's Land).
    pub fn zone_at(&self, p: Vec2) -> Option<u8> {
        [1u8, 2].into_iter().find(|&player| {
            self.scene
                .deployment
                .zone_of(player)
                .is_some_and(|z| polygon::contains(&z, p))
        })
    }

    /// The player whose deployment zone holds objective `i`'s centre (None: No Man's Land).
    pub fn objective_zone(&self, i: usize) -> Option<u8> {
        let o = &self.scene.objectives[i];
        self.zone_at(Vec2::new(o.at.0, o.at.1))
    }

    fn in_set(&self, i: usize, set: ObjectiveSet, player: u8) -> bool {
        let zone = self.objective_zone(i);
        match set {
            ObjectiveSet::All => true,
            ObjectiveSet::NoMansLand => zone.is_none(),
            ObjectiveSet::OutsideOwnZone => zone != Some(player),
            ObjectiveSet::OwnZone => zone == Some(player),
            ObjectiveSet::EnemyZone => zone == Some(opponent(player)),
        }
    }

    fn held(&self, player: u8, set: ObjectiveSet) -> u32 {
        (0..self.objectives.len())
            .filter(|&i| self.objectives[i] == Some(player) && self.in_set(i, set, player))
            .count() as u32
    }

    /// Every model of the unit wholly within `area`.
    fn unit_wholly_within(&self, army: usize, unit: usize, area: &[Vec2]) -> bool {
        let models = self.live_models(army, unit);
        !models.is_empty()
            && models.iter().all(|r| {
                let s = self.solid(*r);
                s.base.wholly_within(s.centre, s.facing, area)
            })
    }

    /// Every model of the unit wholly outside both deployment zones (wholly within No Man's
    /// Land).
    fn unit_wholly_in_no_mans_land(&self, army: usize, unit: usize) -> bool {
        let models = self.live_models(army, unit);
        let zones: Vec<Vec<Vec2>> = [1u8, 2]
            .iter()
            .filter_map(|&p| self.scene.deployment.zone_of(p))
            .collect();
        !models.is_empty()
            && models.iter().all(|r| {
                let s = self.solid(*r);
                let radius = s.base.bounding_radius_inches();
                zones.iter().all(|z| {
                    !polygon::contains(z, s.centre)
                        && polygon::distance_to_boundary(z, s.centre) >= radius - 1e-4
                })
            })
    }

    /// Closest distance from the unit's models to the point `p` (inches; infinity with no
    /// models on the battlefield).
    fn unit_distance_to(&self, army: usize, unit: usize, p: Vec2) -> f32 {
        self.live_models(army, unit)
            .iter()
            .map(|r| {
                let s = self.solid(*r);
                ((s.centre - p).length() - s.base.bounding_radius_inches()).max(0.0)
            })
            .fold(f32::INFINITY, f32::min)
    }

    /// The player's units on the battlefield that count for presence: not AIRCRAFT, not
    /// Battle-shocked (Chapter Approved 2025-26 secondaries).
    fn present_units(&self, player: u8) -> Vec<(usize, usize)> {
        let Some(army) = self.army_of(player) else {
            return Vec::new();
        };
        self.unit_roots(army)
            .into_iter()
            .filter(|&u| {
                !self.live_models(army, u).is_empty()
                    && !self.units[army][u].battle_shocked
                    && !self.scene.armies[army].units[u]
                        .datasheet
                        .has_keyword("AIRCRAFT")
            })
            .map(|u| (army, u))
            .collect()
    }

    fn unit_in_range_of(&self, army: usize, unit: usize, i: usize) -> bool {
        let o = &self.scene.objectives[i];
        let marker = Vec3::new(o.at.0, o.at.1, o.z);
        self.live_models(army, unit)
            .iter()
            .any(|r| in_objective_range(&self.solid(*r), marker))
    }

    // ----- the turn's edges ---------------------------------------------------------------

    /// At the start of the active player's Command phase: the turn's snapshots, then a
    /// Tactical player draws up to the hand size.
    pub(super) fn mission_turn_begins(&mut self, ev: &mut Vec<GameEvent>) {
        self.mission.new_orders_used = false;
        let player = self.active_player;
        self.mission.guards.retain(|g| g.player != player);
        self.mission.completed.clear();
        self.mission.control_at_turn_start = self
            .scene
            .objectives
            .iter()
            .zip(&self.objectives)
            .map(|(o, c)| (o.id.clone(), *c))
            .collect();
        let mut on = Vec::new();
        for army in 0..self.units.len() {
            for u in self.unit_roots(army) {
                if (0..self.scene.objectives.len()).any(|i| self.unit_in_range_of(army, u, i)) {
                    on.push((army, u));
                }
            }
        }
        self.mission.on_objective_at_turn_start = on;
        let player = self.active_player;
        if self.scene.secondary_deck.is_some()
            && self.scene.secondaries[pi(player)] == SecondaryMode::Tactical
        {
            self.draw_secondaries(player, ev);
        }
    }

    /// A Tactical player draws up to the hand size. A card whose "when drawn" clause says it
    /// goes back (in the first battle round) is shuffled back and another drawn; a card whose
    /// clause lets the player shuffle it back is kept, marked [`ActiveCard::may_redraw`], for
    /// the player to decide ([`Command::RedrawSecondary`](super::Command)). Chapter Approved
    /// 2025-26 Mission Deck: When Drawn.
    fn draw_secondaries(&mut self, player: u8, ev: &mut Vec<GameEvent>) {
        let Some(deck) = self.scene.secondary_deck.clone() else {
            return;
        };
        let i = pi(player);
        let mut shuffled_back = Vec::new();
        while self.mission.active[i].len() < deck.tactical_hand {
            let Some(card) = self.mission.decks[i].pop() else {
                break;
            };
            let c = &deck.cards[card];
            let first_round = self.battle_round == crate::rules::constants::SECONDARY_REDRAW_ROUND;
            // Mandatory: the card goes back. Optional: the player may send it back.
            let (redraw, may_redraw) = match c.when_drawn {
                WhenDrawn::Nothing => (false, false),
                WhenDrawn::RedrawInFirstRound => (first_round, false),
                WhenDrawn::MayRedrawInFirstRound => (false, first_round),
                WhenDrawn::MayRedrawWithoutTargets => {
                    (false, !self.card_has_targets(player, &c.kind))
                }
                WhenDrawn::MayRedrawWithFewUnits { units } => {
                    (false, self.present_units(player).len() < units)
                }
            };
            if redraw && !self.mission.decks[i].is_empty() {
                ev.push(GameEvent::SecondaryShuffledBack {
                    player,
                    card: c.name.clone(),
                });
                shuffled_back.push(card);
                continue;
            }
            let mut active = ActiveCard::new(card);
            active.drawn = Some((self.battle_round, player));
            active.may_redraw = may_redraw;
            self.pick_card_targets(player, &c.kind, &mut active);
            ev.push(GameEvent::SecondaryDrawn {
                player,
                card: c.name.clone(),
            });
            self.mission.active[i].push(active);
        }
        // Shuffled back: into the pile at random places.
        for card in shuffled_back {
            self.shuffle_back(player, card);
        }
    }

    /// Puts `card` back into `player`'s draw pile at a random place (the game's dice).
    fn shuffle_back(&mut self, player: u8, card: usize) {
        let i = pi(player);
        let n = self.mission.decks[i].len() as u32;
        let at = self.rng.below(n + 1) as usize;
        self.mission.decks[i].insert(at, card);
    }

    fn card_has_targets(&self, player: u8, kind: &CardKind) -> bool {
        let Some(enemy) = self.army_of(opponent(player)) else {
            return false;
        };
        self.unit_roots(enemy).into_iter().any(|u| {
            if self.live_models(enemy, u).is_empty() {
                return false;
            }
            let d = &self.scene.armies[enemy].units[u].datasheet;
            match kind {
                CardKind::CullTheHorde { strength, .. } => {
                    d.has_keyword("INFANTRY")
                        && self.starting_strength(enemy, u) as u32 >= *strength
                }
                CardKind::BringItDown { .. } => {
                    d.has_keyword("MONSTER") || d.has_keyword("VEHICLE")
                }
                _ => true,
            }
        })
    }

    fn wounds_left(&self, army: usize, unit: usize) -> u32 {
        self.combined(army, unit)
            .iter()
            .flat_map(|&u| self.units[army][u].models.iter())
            .filter(|m| m.alive)
            .map(|m| u32::from(m.wounds))
            .sum()
    }

    /// The choices a card asks for when drawn, made by a fixed rule (the opponent's choices
    /// are the ones that hurt the drawing player most).
    fn pick_card_targets(&self, player: u8, kind: &CardKind, card: &mut ActiveCard) {
        let enemy_player = opponent(player);
        match kind {
            CardKind::MarkedForDeath { alphas, .. } => {
                let Some(enemy) = self.army_of(enemy_player) else {
                    return;
                };
                let mut units: Vec<(usize, u32)> = self
                    .unit_roots(enemy)
                    .into_iter()
                    .filter(|&u| !self.live_models(enemy, u).is_empty())
                    .map(|u| (u, self.wounds_left(enemy, u)))
                    .collect();
                // The opponent names their sturdiest units as Alphas.
                units.sort_by_key(|&(u, w)| (std::cmp::Reverse(w), u));
                card.alphas = units
                    .iter()
                    .take(*alphas)
                    .map(|&(u, _)| (enemy, u))
                    .collect();
                // The drawing player names the easiest other unit as Gamma.
                card.gamma = self.easiest_other(enemy, &card.alphas);
            }
            CardKind::TemptingTarget { .. } => {
                let Some(army) = self.army_of(player) else {
                    return;
                };
                let roots = self.unit_roots(army);
                // The opponent picks the No Man's Land objective farthest from the player.
                card.objective = (0..self.scene.objectives.len())
                    .filter(|&i| self.objective_zone(i).is_none())
                    .map(|i| {
                        let o = &self.scene.objectives[i];
                        let p = Vec2::new(o.at.0, o.at.1);
                        let d = roots
                            .iter()
                            .map(|&u| self.unit_distance_to(army, u, p))
                            .fold(f32::INFINITY, f32::min);
                        (i, d)
                    })
                    .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
                    .map(|(i, _)| self.scene.objectives[i].id.clone());
            }
            _ => {}
        }
    }

    /// Marked for Death's default Gamma: the unit of army `enemy` on the battlefield, not one
    /// of `alphas`, with the fewest wounds left.
    fn easiest_other(&self, enemy: usize, alphas: &[(usize, usize)]) -> Option<(usize, usize)> {
        self.unit_roots(enemy)
            .into_iter()
            .filter(|&u| !self.live_models(enemy, u).is_empty() && !alphas.contains(&(enemy, u)))
            .min_by_key(|&u| (self.wounds_left(enemy, u), u))
            .map(|u| (enemy, u))
    }

    /// A model was destroyed: the cards that count units and CHARACTER models hear of it.
    pub(super) fn note_destroyed(&mut self, r: ModelRef, unit_destroyed: bool) {
        if self.stage != Stage::Battle {
            return;
        }
        let owner = self.player_of(r.army);
        let d = &self.scene.armies[r.army].units[r.unit].datasheet;
        if d.has_keyword("CHARACTER") {
            self.mission.destroyed.push(Destroyed {
                round: self.battle_round,
                turn_of: self.active_player,
                owner,
                unit: (r.army, r.unit),
                character_wounds: Some(d.wounds),
            });
        }
        if unit_destroyed {
            self.mission.destroyed.push(Destroyed {
                round: self.battle_round,
                turn_of: self.active_player,
                owner,
                unit: (r.army, r.unit),
                character_wounds: None,
            });
        }
    }

    /// Units of `owner` destroyed this turn (whole units only).
    fn units_destroyed_this_turn(&self, owner: u8) -> Vec<(usize, usize)> {
        self.mission
            .destroyed
            .iter()
            .filter(|d| {
                d.round == self.battle_round
                    && d.turn_of == self.active_player
                    && d.owner == owner
                    && d.character_wounds.is_none()
            })
            .map(|d| d.unit)
            .collect()
    }

    /// At the end of a turn, after Unit Coherency: actions complete, then the end-of-turn
    /// primary rules (and, in the last round, the second player's Command phase rules), then
    /// the secondary cards score and Tactical cards are discarded.
    pub(super) fn mission_turn_ends(&mut self, ev: &mut Vec<GameEvent>) {
        self.complete_actions(ev);
        self.score_primary(ScoringTiming::EndOfTurn, ev);
        self.score_secondaries(ev);
        self.discard_secondaries(ev);
    }

    /// The end of the battle: Battle Ready VP (actions still under way completed at the last
    /// turn's end, [`Game::mission_turn_ends`]).
    pub(super) fn mission_battle_ends(&mut self, ev: &mut Vec<GameEvent>) {
        let vp = self.scene.mission.battle_ready_vp;
        for player in [1u8, 2] {
            if vp > 0 && self.scene.battle_ready[pi(player)] {
                self.mission.battle_ready_vp[pi(player)] = vp;
                self.vp[pi(player)] += vp;
                ev.push(GameEvent::VictoryPoints {
                    player,
                    scored: vp,
                    total: self.vp[pi(player)],
                    reason: "Battle Ready: the army is painted and based".into(),
                });
            }
        }
    }

    // ----- primary scoring ------------------------------------------------------------------

    /// Scores the primary rules checked at `timing` (see [`Game::score`]'s callers).
    pub(super) fn score_primary(&mut self, timing: ScoringTiming, ev: &mut Vec<GameEvent>) {
        let mission = &self.scene.mission;
        let last_round = self.battle_round >= mission.battle_rounds;
        let second = self.active_player != self.first_player;
        let deferred =
            mission.last_round_second_player_scores_at_end_of_turn && last_round && second;
        // Every rule scores for the active player, save the end-of-round rules and Terraform's
        // end-of-turn rule, which score for both.
        let players: Vec<u8> = match timing {
            ScoringTiming::EndOfCommandPhase => vec![self.active_player],
            _ => vec![self.active_player, opponent(self.active_player)],
        };
        let rules = mission.scoring.clone();
        let name = mission.name.clone();
        for player in players {
            for rule in &rules {
                if let Some((vp, reason)) = self.primary_rule(rule, timing, player, deferred) {
                    self.add_primary(player, vp, format!("{name}: {reason}"), ev);
                }
            }
        }
    }

    /// VP and reason from one primary rule for `player` now, if it scores at `timing`.
    fn primary_rule(
        &self,
        rule: &ScoringRule,
        timing: ScoringTiming,
        player: u8,
        deferred: bool,
    ) -> Option<(u32, String)> {
        // A Command-phase rule scores at the end of the turn instead, for the player going
        // second in the last round.
        let active = player == self.active_player || timing == ScoringTiming::EndOfBattleRound;
        let when = |t: ScoringTiming| {
            if !active {
                false
            } else if t == ScoringTiming::EndOfCommandPhase && deferred {
                timing == ScoringTiming::EndOfTurn
            } else {
                t == timing
            }
        };
        let round = self.battle_round;
        let held_all = self.held(player, ObjectiveSet::All);
        let theirs = self.held(opponent(player), ObjectiveSet::All);
        let cap = |vp: u32, max: u32| if max == 0 { vp } else { vp.min(max) };
        let out = match *rule {
            ScoringRule::HoldObjectives {
                vp_per_objective,
                max_per_turn,
                from_round,
                timing: t,
            } if when(t) && round >= from_round => (
                cap(held_all * vp_per_objective, max_per_turn),
                format!("holds {held_all} objective markers"),
            ),
            ScoringRule::HoldMore {
                vp,
                from_round,
                timing: t,
            } if when(t) && round >= from_round && held_all > theirs => (
                vp,
                format!("holds more objective markers ({held_all} to {theirs})"),
            ),
            ScoringRule::HoldEach {
                which,
                vp_each,
                ref by_round,
                max_per_turn,
                from_round,
                timing: t,
            } if when(t) && round >= from_round => {
                let each = by_round
                    .iter()
                    .filter(|(r, _)| *r <= round)
                    .map(|(_, v)| *v)
                    .next_back()
                    .unwrap_or(vp_each);
                let n = self.held(player, which);
                (
                    cap(n * each, max_per_turn),
                    format!("holds {n} objective markers ({which:?}), {each} VP each"),
                )
            }
            ScoringRule::HoldAtLeast {
                which,
                count,
                vp,
                from_round,
                timing: t,
            } if when(t) && round >= from_round && self.held(player, which) >= count => (
                vp,
                format!("holds at least {count} objective markers ({which:?})"),
            ),
            ScoringRule::Linchpin {
                home_vp,
                vp_with_home,
                vp_without_home,
                max_per_turn,
                from_round,
                timing: t,
            } if when(t) && round >= from_round => {
                let home = self.held(player, ObjectiveSet::OwnZone) > 0;
                let vp = if home {
                    home_vp + (held_all - 1) * vp_with_home
                } else {
                    held_all * vp_without_home
                };
                (
                    cap(vp, max_per_turn),
                    format!(
                        "holds {held_all} objective markers, {} the home objective",
                        if home { "with" } else { "without" }
                    ),
                )
            }
            ScoringRule::DestroyedThisRound { vp, from_round }
                if timing == ScoringTiming::EndOfBattleRound
                    && round >= from_round
                    && self.destroyed_this_round(opponent(player)) > 0 =>
            {
                (vp, "destroyed an enemy unit this round".into())
            }
            ScoringRule::DestroyedMoreThisRound { vp, from_round }
                if timing == ScoringTiming::EndOfBattleRound
                    && round >= from_round
                    && self.destroyed_this_round(opponent(player))
                        > self.destroyed_this_round(player) =>
            {
                (
                    vp,
                    "destroyed more enemy units than it lost this round".into(),
                )
            }
            ScoringRule::Guarding {
                vp_each,
                from_round,
            } if timing == ScoringTiming::EndOfTurn
                && round >= from_round
                && player != self.active_player =>
            {
                let n = self.standing_guards(player);
                (n * vp_each, format!("{n} units guarding objective markers"))
            }
            ScoringRule::Hazards {
                ref bands,
                from_round,
            } if timing == ScoringTiming::EndOfTurn
                && round >= from_round
                && player == self.active_player =>
            {
                let mut vp = 0;
                let mut parts = Vec::new();
                for id in &self.mission.hazards {
                    let Some(o) = self.scene.objectives.iter().find(|o| o.id == *id) else {
                        continue;
                    };
                    let reach = self.reach_into_zone(o.at.vec(), opponent(player));
                    if let Some(&(inches, v)) = bands.iter().find(|(inches, _)| reach <= *inches) {
                        vp += v;
                        parts.push(if inches == 0.0 {
                            format!("'{id}' in the enemy zone")
                        } else {
                            format!("'{id}' within {inches}\" of the enemy zone")
                        });
                    }
                }
                (vp, format!("Hazard objectives: {}", parts.join(", ")))
            }
            ScoringRule::Terraformed {
                vp_each,
                from_round,
            } if timing == ScoringTiming::EndOfTurn && round >= from_round => {
                let n = self
                    .mission
                    .terraformed
                    .iter()
                    .filter(|(_, p)| *p == player)
                    .count() as u32;
                (n * vp_each, format!("{n} objective markers terraformed"))
            }
            _ => return None,
        };
        (out.0 > 0).then_some(out)
    }

    fn destroyed_this_round(&self, owner: u8) -> usize {
        self.mission
            .destroyed
            .iter()
            .filter(|d| {
                d.round == self.battle_round && d.owner == owner && d.character_wounds.is_none()
            })
            .count()
    }

    /// Burden of Trust: `player`'s guards that score now: on the battlefield, not
    /// Battle-shocked, within range of the objective they guard, which `player` controls.
    fn standing_guards(&self, player: u8) -> u32 {
        self.mission
            .guards
            .iter()
            .filter(|g| g.player == player)
            .filter(|g| {
                let (army, unit) = g.unit;
                let Some(i) = self
                    .scene
                    .objectives
                    .iter()
                    .position(|o| o.id == g.objective)
                else {
                    return false;
                };
                !self.units[army][unit].battle_shocked
                    && self.unit_in_range_of(army, unit, i)
                    && self.objectives[i] == Some(player)
            })
            .count() as u32
    }

    /// How far an objective marker centred at `at` reaches from `player`'s deployment zone:
    /// 0 when the whole marker is within the zone, else the distance (inches) from the zone
    /// to the marker's far edge (the marker is wholly within that distance of the zone).
    fn reach_into_zone(&self, at: Vec2, player: u8) -> f32 {
        let Some(zone) = self.scene.deployment.zone_of(player) else {
            return f32::INFINITY;
        };
        let r = OBJECTIVE_MARKER_RADIUS_INCHES;
        let edge = polygon::distance_to_boundary(&zone, at);
        if polygon::contains(&zone, at) {
            if edge >= r - 1e-4 { 0.0 } else { r - edge }
        } else {
            edge + r
        }
    }

    fn add_primary(&mut self, player: u8, vp: u32, reason: String, ev: &mut Vec<GameEvent>) {
        let i = pi(player);
        let cap = self.scene.mission.primary_cap;
        let vp = if cap == 0 {
            vp
        } else {
            vp.min(cap.saturating_sub(self.mission.primary_vp[i]))
        };
        if vp == 0 {
            return;
        }
        self.mission.primary_vp[i] += vp;
        self.vp[i] += vp;
        ev.push(GameEvent::VictoryPoints {
            player,
            scored: vp,
            total: self.vp[i],
            reason,
        });
    }

    // ----- secondary scoring ----------------------------------------------------------------

    fn score_secondaries(&mut self, ev: &mut Vec<GameEvent>) {
        let Some(deck) = self.scene.secondary_deck.clone() else {
            return;
        };
        for player in [self.active_player, opponent(self.active_player)] {
            let i = pi(player);
            let fixed = !self.scene.secondaries[i].is_tactical();
            for k in 0..self.mission.active[i].len() {
                let card = self.mission.active[i][k].clone();
                let c = &deck.cards[card.card];
                let Some((vp, why)) = self.card_score(player, &c.kind, fixed, &card) else {
                    continue;
                };
                let mut vp = vp;
                if fixed {
                    vp = vp.min(deck.fixed_card_cap.saturating_sub(card.scored));
                }
                let cap = self.scene.mission.secondary_cap;
                if cap > 0 {
                    vp = vp.min(cap.saturating_sub(self.mission.secondary_vp[i]));
                }
                if vp == 0 {
                    continue;
                }
                self.mission.active[i][k].scored += vp;
                self.mission.active[i][k].scored_this_turn += vp;
                self.mission.secondary_vp[i] += vp;
                self.vp[i] += vp;
                ev.push(GameEvent::VictoryPoints {
                    player,
                    scored: vp,
                    total: self.vp[i],
                    reason: format!("{} (secondary): {why}", c.name),
                });
            }
        }
    }

    /// VP a card scores for `player` at the end of this turn, with the reason.
    fn card_score(
        &self,
        player: u8,
        kind: &CardKind,
        fixed: bool,
        card: &ActiveCard,
    ) -> Option<(u32, String)> {
        let own_turn = self.active_player == player;
        let enemy = opponent(player);
        let enemy_army = self.army_of(enemy)?;
        let killed = self.units_destroyed_this_turn(enemy);
        let centre = board_centre();
        let out: (u32, String) = match kind {
            CardKind::BehindEnemyLines { one, two } if own_turn => {
                let zone = self.scene.deployment.zone_of(enemy)?;
                let n = self
                    .present_units(player)
                    .into_iter()
                    .filter(|&(a, u)| self.unit_wholly_within(a, u, &zone))
                    .count();
                match n {
                    0 => return None,
                    1 => (*one, "1 unit wholly within the enemy zone".into()),
                    n => (*two, format!("{n} units wholly within the enemy zone")),
                }
            }
            CardKind::StormHostileObjective { vp } if own_turn => {
                let was = |id: &str| {
                    self.mission
                        .control_at_turn_start
                        .iter()
                        .find(|(o, _)| o == id)
                        .and_then(|(_, c)| *c)
                };
                let now: Vec<&str> = (0..self.objectives.len())
                    .filter(|&i| self.objectives[i] == Some(player))
                    .map(|i| self.scene.objectives[i].id.as_str())
                    .collect();
                let stormed = now.iter().any(|id| was(id) == Some(enemy));
                let enemy_had_none = self
                    .mission
                    .control_at_turn_start
                    .iter()
                    .all(|(_, c)| *c != Some(enemy));
                let gained = now.iter().any(|id| was(id) != Some(player));
                if stormed {
                    (*vp, "took an objective the opponent held".into())
                } else if self.battle_round
                    >= crate::rules::constants::STORM_HOSTILE_OBJECTIVE_FROM_ROUND
                    && enemy_had_none
                    && gained
                {
                    (*vp, "took an objective while the opponent held none".into())
                } else {
                    return None;
                }
            }
            CardKind::EngageOnAllFronts {
                centre_inches,
                by_quarters,
            } if own_turn => {
                let units = self.present_units(player);
                let n = table_quarters()
                    .iter()
                    .filter(|area| {
                        units.iter().any(|&(a, u)| {
                            self.unit_wholly_within(a, u, *area)
                                && self.unit_distance_to(a, u, centre) > *centre_inches
                        })
                    })
                    .count();
                if n < 2 {
                    return None;
                }
                (by_quarters[n - 2], format!("units in {n} table quarters"))
            }
            CardKind::EstablishLocus {
                near_centre,
                enemy_zone,
                ..
            } if own_turn => {
                let done = self.completed_this_turn(player, MissionAction::EstablishLocus);
                if done.iter().any(|c| c.in_enemy_zone) {
                    (*enemy_zone, "established a locus in the enemy zone".into())
                } else if done.iter().any(|c| c.near_centre) {
                    (*near_centre, "established a locus near the centre".into())
                } else {
                    return None;
                }
            }
            CardKind::Cleanse {
                one,
                two_fixed,
                two_tactical,
            } if own_turn => {
                let mut objs: Vec<&str> = self
                    .completed_this_turn(player, MissionAction::Cleanse)
                    .iter()
                    .filter_map(|c| c.objective.as_deref())
                    .collect();
                objs.sort_unstable();
                objs.dedup();
                match objs.len() {
                    0 => return None,
                    1 => (*one, "cleansed 1 objective".into()),
                    n => (
                        if fixed { *two_fixed } else { *two_tactical },
                        format!("cleansed {n} objectives"),
                    ),
                }
            }
            CardKind::Assassination {
                big_wounds,
                big,
                small,
                tactical,
            } => {
                let chars: Vec<u8> = self
                    .mission
                    .destroyed
                    .iter()
                    .filter(|d| {
                        d.round == self.battle_round
                            && d.turn_of == self.active_player
                            && d.owner == enemy
                    })
                    .filter_map(|d| d.character_wounds)
                    .collect();
                if fixed {
                    let vp: u32 = chars
                        .iter()
                        .map(|&w| if w >= *big_wounds { *big } else { *small })
                        .sum();
                    (
                        vp,
                        format!("{} enemy CHARACTER models destroyed", chars.len()),
                    )
                } else if !chars.is_empty() {
                    (*tactical, "an enemy CHARACTER model was destroyed".into())
                } else {
                    let all_dead = (0..self.units[enemy_army].len()).all(|u| {
                        !self.scene.armies[enemy_army].units[u]
                            .datasheet
                            .has_keyword("CHARACTER")
                            || self.units[enemy_army][u].models.iter().all(|m| !m.alive)
                    });
                    if all_dead {
                        (*tactical, "every enemy CHARACTER model is destroyed".into())
                    } else {
                        return None;
                    }
                }
            }
            CardKind::NoPrisoners { vp, cap } => {
                let n = killed
                    .iter()
                    .filter(|&&(a, u)| {
                        !fixed
                            || !self.scene.armies[a].units[u]
                                .datasheet
                                .has_keyword("CHARACTER")
                    })
                    .count() as u32;
                let left = if fixed {
                    *cap
                } else {
                    cap.saturating_sub(card.scored)
                };
                ((n * vp).min(left), format!("{n} enemy units destroyed"))
            }
            CardKind::CullTheHorde { strength, vp } => {
                let n = killed
                    .iter()
                    .filter(|&&(a, u)| {
                        self.scene.armies[a].units[u]
                            .datasheet
                            .has_keyword("INFANTRY")
                            && self.scene.armies[a].units[u].models.len() as u32 >= *strength
                    })
                    .count() as u32;
                match (n, fixed) {
                    (0, _) => return None,
                    (n, true) => (n * vp, format!("{n} enemy hordes destroyed")),
                    (_, false) => (*vp, "an enemy horde was destroyed".into()),
                }
            }
            CardKind::BringItDown {
                base,
                bonus,
                wounds_thresholds,
                tactical,
            } => {
                let big: Vec<u32> = killed
                    .iter()
                    .filter(|&&(a, u)| {
                        let d = &self.scene.armies[a].units[u].datasheet;
                        d.has_keyword("MONSTER") || d.has_keyword("VEHICLE")
                    })
                    .map(|&(a, u)| {
                        let d = &self.scene.armies[a].units[u].datasheet;
                        u32::from(d.wounds) * self.scene.armies[a].units[u].models.len() as u32
                    })
                    .collect();
                if big.is_empty() {
                    return None;
                }
                if fixed {
                    let vp: u32 = big
                        .iter()
                        .map(|&w| {
                            base + bonus
                                * wounds_thresholds.iter().filter(|&&t| w >= t).count() as u32
                        })
                        .sum();
                    (
                        vp,
                        format!("{} enemy MONSTER/VEHICLE units destroyed", big.len()),
                    )
                } else {
                    (
                        *tactical,
                        "an enemy MONSTER or VEHICLE was destroyed".into(),
                    )
                }
            }
            CardKind::DefendStronghold { vp }
                if !own_turn
                    && self.battle_round
                        >= crate::rules::constants::DEFEND_STRONGHOLD_FROM_ROUND =>
            {
                if self.held(player, ObjectiveSet::OwnZone) == 0 {
                    return None;
                }
                (*vp, "holds an objective in its own zone".into())
            }
            CardKind::MarkedForDeath { alpha, gamma, .. } => {
                if card.alphas.iter().any(|t| killed.contains(t)) {
                    (*alpha, "an Alpha target was destroyed".into())
                } else if card.gamma.is_some_and(|t| killed.contains(&t)) {
                    (*gamma, "the Gamma target was destroyed".into())
                } else {
                    return None;
                }
            }
            CardKind::SecureNoMansLand { one, two } if own_turn => {
                match self.held(player, ObjectiveSet::NoMansLand) {
                    0 => return None,
                    1 => (*one, "holds 1 No Man's Land objective".into()),
                    n => (*two, format!("holds {n} No Man's Land objectives")),
                }
            }
            CardKind::Sabotage { vp, enemy_zone } if !own_turn => {
                let done = self.completed_this_turn(player, MissionAction::Sabotage);
                if done.is_empty() {
                    return None;
                }
                if done.iter().any(|c| c.in_enemy_zone) {
                    (*enemy_zone, "sabotage completed in the enemy zone".into())
                } else {
                    (*vp, "sabotage completed".into())
                }
            }
            CardKind::AreaDenial {
                inner_inches,
                outer_inches,
                inner,
                outer,
            } if own_turn => {
                let mine = self
                    .present_units(player)
                    .into_iter()
                    .any(|(a, u)| self.unit_distance_to(a, u, centre) <= *inner_inches);
                let nearest_enemy = self
                    .unit_roots(enemy_army)
                    .into_iter()
                    .map(|u| self.unit_distance_to(enemy_army, u, centre))
                    .fold(f32::INFINITY, f32::min);
                if !mine || nearest_enemy <= *inner_inches {
                    return None;
                }
                if nearest_enemy > *outer_inches {
                    (
                        *outer,
                        format!("no enemy within {outer_inches}\" of the centre"),
                    )
                } else {
                    (
                        *inner,
                        format!("no enemy within {inner_inches}\" of the centre"),
                    )
                }
            }
            CardKind::RecoverAssets { two, three } if own_turn => {
                let n = self
                    .completed_this_turn(player, MissionAction::RecoverAssets)
                    .len();
                match n {
                    0 | 1 => return None,
                    2 => (*two, "2 units recovered assets".into()),
                    _ => (*three, format!("{n} units recovered assets")),
                }
            }
            CardKind::TemptingTarget { vp } => {
                let id = card.objective.as_deref()?;
                let i = self.scene.objectives.iter().position(|o| o.id == id)?;
                if self.objectives[i] != Some(player) {
                    return None;
                }
                (*vp, format!("holds the tempting target '{id}'"))
            }
            CardKind::ExtendBattleLines { both, no_mans_land } if own_turn => {
                let own = self.held(player, ObjectiveSet::OwnZone) > 0;
                let nml = self.held(player, ObjectiveSet::NoMansLand) > 0;
                match (own, nml) {
                    (true, true) => (
                        *both,
                        "holds objectives in its zone and No Man's Land".into(),
                    ),
                    (false, true) => (*no_mans_land, "holds a No Man's Land objective".into()),
                    _ => return None,
                }
            }
            CardKind::OverwhelmingForce { vp, cap } => {
                let n = killed
                    .iter()
                    .filter(|t| self.mission.on_objective_at_turn_start.contains(t))
                    .count() as u32;
                let left = if fixed {
                    *cap
                } else {
                    cap.saturating_sub(card.scored)
                };
                (
                    (n * vp).min(left),
                    format!("{n} enemy units destroyed that started the turn on an objective"),
                )
            }
            CardKind::DisplayOfMight { vp } if own_turn => {
                let count = |p: u8| {
                    self.present_units(p)
                        .into_iter()
                        .filter(|&(a, u)| self.unit_wholly_in_no_mans_land(a, u))
                        .count()
                };
                let (mine, theirs) = (count(player), count(enemy));
                if mine <= theirs {
                    return None;
                }
                (
                    *vp,
                    format!("{mine} units wholly within No Man's Land to {theirs}"),
                )
            }
            _ => return None,
        };
        (out.0 > 0).then_some(out)
    }

    fn completed_this_turn(&self, player: u8, action: MissionAction) -> Vec<&CompletedAction> {
        self.mission
            .completed
            .iter()
            .filter(|c| c.player == player && c.action == action)
            .collect()
    }

    fn discard_secondaries(&mut self, ev: &mut Vec<GameEvent>) {
        let Some(deck) = self.scene.secondary_deck.clone() else {
            return;
        };
        for player in [self.active_player, opponent(self.active_player)] {
            let i = pi(player);
            if !self.scene.secondaries[i].is_tactical() {
                for c in &mut self.mission.active[i] {
                    c.scored_this_turn = 0;
                }
                continue;
            }
            let mut voluntary = false;
            let mut kept = Vec::new();
            for c in std::mem::take(&mut self.mission.active[i]) {
                if c.scored_this_turn > 0 || c.discard {
                    voluntary |= c.discard && c.scored_this_turn == 0;
                    ev.push(GameEvent::SecondaryDiscarded {
                        player,
                        card: deck.cards[c.card].name.clone(),
                        achieved: c.scored_this_turn > 0,
                    });
                    self.mission.discarded[i].push(c.card);
                } else {
                    kept.push(c);
                }
            }
            self.mission.active[i] = kept;
            if voluntary && player == self.active_player && deck.discard_cp > 0 {
                let gained = self.gain_other_cp(player, deck.discard_cp);
                if gained > 0 {
                    ev.push(GameEvent::CommandPointsGained {
                        player,
                        gained,
                        total: self.cp[i],
                    });
                }
            }
        }
    }

    // ----- commands -------------------------------------------------------------------------

    /// [`Command::DiscardSecondary`](super::Command::DiscardSecondary).
    pub(super) fn discard_secondary_command(
        &mut self,
        player: u8,
        card: &str,
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        let k = self.active_card(player, card)?;
        self.mission.active[pi(player)][k].discard = true;
        ev.push(GameEvent::SecondaryMarkedForDiscard {
            player,
            card: card.to_string(),
        });
        Ok(())
    }

    fn active_card(&self, player: u8, card: &str) -> Result<usize, Rejection> {
        if self.stage != Stage::Battle {
            return reject(
                Rule::Sequencing,
                "secondary cards are used during the battle",
            );
        }
        let Some(deck) = &self.scene.secondary_deck else {
            return reject(
                Rule::SecondaryMissions,
                "this mission has no secondary deck",
            );
        };
        if !self.scene.secondaries[pi(player)].is_tactical() {
            return reject(
                Rule::SecondaryMissions,
                format!("player {player} plays Fixed secondaries: Fixed cards are never discarded"),
            );
        }
        let held: Vec<&str> = self.mission.active[pi(player)]
            .iter()
            .map(|c| deck.cards[c.card].name.as_str())
            .collect();
        match held.iter().position(|n| n.eq_ignore_ascii_case(card)) {
            Some(k) => Ok(k),
            None => reject(
                Rule::SecondaryMissions,
                format!(
                    "player {player} holds no active card '{card}' (active: {})",
                    if held.is_empty() {
                        "none".to_string()
                    } else {
                        held.join(", ")
                    }
                ),
            ),
        }
    }

    /// [`Command::NewOrders`](super::Command::NewOrders).
    pub(super) fn new_orders(
        &mut self,
        player: u8,
        card: &str,
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        let k = self.active_card(player, card)?;
        if player != self.active_player || self.phase != Phase::Command {
            return reject(
                Rule::SecondaryMissions,
                "New Orders is used in the player's own Command phase",
            );
        }
        if self.mission.new_orders_used {
            return reject(
                Rule::SecondaryMissions,
                "New Orders was already used this turn",
            );
        }
        let cost = self
            .scene
            .secondary_deck
            .as_ref()
            .map_or(1, |d| d.new_orders_cp);
        if self.cp[pi(player)] < cost {
            return reject(
                Rule::SecondaryMissions,
                format!(
                    "New Orders costs {cost} CP; player {player} has {}",
                    self.cp[pi(player)]
                ),
            );
        }
        if self.mission.decks[pi(player)].is_empty() {
            return reject(
                Rule::SecondaryMissions,
                "the deck is empty: no card to draw",
            );
        }
        self.cp[pi(player)] -= cost;
        self.mission.new_orders_used = true;
        let c = self.mission.active[pi(player)].remove(k);
        self.mission.discarded[pi(player)].push(c.card);
        ev.push(GameEvent::SecondaryDiscarded {
            player,
            card: card.to_string(),
            achieved: false,
        });
        self.draw_secondaries(player, ev);
        Ok(())
    }

    /// [`Command::RedrawSecondary`](super::Command::RedrawSecondary): the player shuffles an
    /// active card back into their deck and draws another, as its "when drawn" clause allows
    /// (Chapter Approved 2025-26 Mission Deck: When Drawn), in their Command phase the card
    /// was drawn in. Without this command the card is kept.
    ///
    /// # Errors
    /// No such active card, a Fixed player, a card whose clause gave no such choice when it
    /// was drawn, a later phase than the one it was drawn in, or an empty deck.
    pub(super) fn redraw_secondary(
        &mut self,
        player: u8,
        card: &str,
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        let k = self.active_card(player, card)?;
        let held = &self.mission.active[pi(player)][k];
        if !held.may_redraw {
            return reject(
                Rule::SecondaryMissions,
                format!("'{card}' gave no choice to shuffle it back when it was drawn"),
            );
        }
        if player != self.active_player
            || self.phase != Phase::Command
            || held.drawn != Some((self.battle_round, player))
        {
            return reject(
                Rule::SecondaryMissions,
                format!("'{card}' may only be shuffled back in the Command phase it was drawn in"),
            );
        }
        if self.mission.decks[pi(player)].is_empty() {
            return reject(
                Rule::SecondaryMissions,
                "the deck is empty: no card to draw",
            );
        }
        let c = self.mission.active[pi(player)].remove(k);
        let name = self
            .scene
            .secondary_deck
            .as_ref()
            .map_or_else(|| card.to_string(), |d| d.cards[c.card].name.clone());
        ev.push(GameEvent::SecondaryShuffledBack { player, card: name });
        self.draw_secondaries(player, ev);
        self.shuffle_back(player, c.card);
        Ok(())
    }

    /// The names of `player`'s active cards that [`Command::RedrawSecondary`] would shuffle
    /// back now (Chapter Approved 2025-26 Mission Deck: When Drawn): those whose clause gave
    /// the choice, in the Command phase they were drawn in.
    ///
    /// [`Command::RedrawSecondary`]: super::Command::RedrawSecondary
    pub fn redraw_choices(&self, player: u8) -> Vec<String> {
        let Some(deck) = &self.scene.secondary_deck else {
            return Vec::new();
        };
        if self.army_of(player).is_none() {
            return Vec::new();
        }
        // The cheap conditions first: the engine's check copies the game.
        self.mission.active[pi(player)]
            .iter()
            .filter(|c| {
                c.may_redraw
                    && self.phase == Phase::Command
                    && c.drawn == Some((self.battle_round, player))
            })
            .map(|c| deck.cards[c.card].name.clone())
            .filter(|name| {
                self.check(&super::Command::RedrawSecondary {
                    player,
                    card: name.clone(),
                })
                .is_ok()
            })
            .collect()
    }

    /// [`Command::StartAction`](super::Command::StartAction): the Actions rules of the
    /// mission pack, then the action's own conditions.
    pub(super) fn start_action(
        &mut self,
        player: u8,
        unit: &str,
        action: MissionAction,
        objective: Option<&str>,
        to: Option<Point>,
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        if self.stage != Stage::Battle
            || player != self.active_player
            || self.phase != Phase::Shooting
        {
            return reject(
                Rule::Actions,
                "actions are started in the player's own Shooting phase",
            );
        }
        let offered = self.scene.mission.actions.contains(&action)
            || self.scene.secondary_deck.as_ref().is_some_and(|deck| {
                self.mission.active[pi(player)]
                    .iter()
                    .any(|c| deck.cards[c.card].kind.action() == Some(action))
            });
        if !offered {
            return reject(
                Rule::Actions,
                format!(
                    "neither the primary mission nor an active secondary card of player {player} offers {}",
                    action.name()
                ),
            );
        }
        let (army, root) = self.own_root(player, unit)?;
        let state = &self.units[army][root];
        let d = &self.scene.armies[army].units[root].datasheet;
        let why = if self.live_models(army, root).is_empty() {
            Some("it is not on the battlefield")
        } else if d.has_keyword("AIRCRAFT") {
            Some("AIRCRAFT units cannot perform actions")
        } else if state.battle_shocked {
            Some("it is Battle-shocked")
        } else if state.shot {
            Some("it has already been selected to shoot this phase")
        } else if matches!(
            state.moved,
            Some(Moved::Moved(MoveMode::Advance)) | Some(Moved::Moved(MoveMode::FallBack))
        ) {
            Some("it Advanced or Fell Back this turn")
        } else if self.engaged(army, root) {
            Some("it is within Engagement Range of an enemy unit")
        } else if self
            .live_models(army, root)
            .iter()
            .all(|r| self.objective_control(*r) == 0)
        {
            Some("its Objective Control is 0")
        } else if self
            .mission
            .actions
            .iter()
            .any(|a| a.army == army && a.unit == root)
        {
            Some("it is already performing an action")
        } else {
            None
        };
        if let Some(why) = why {
            return reject(
                Rule::Actions,
                format!("'{unit}' cannot start {}: {why}", action.name()),
            );
        }
        let objective = self.action_objective(player, army, root, action, objective)?;
        self.action_place(player, army, root, action)?;
        let to = to.map(Point::vec);
        if action.needs_place() {
            let Some(at) = to else {
                return reject(
                    Rule::Actions,
                    format!(
                        "{} puts a marker on the table: name where (`to`)",
                        action.name()
                    ),
                );
            };
            if let Some(why) =
                self.marker_place_problem(action, army, root, objective.as_deref(), at)
            {
                return reject(
                    Rule::Actions,
                    format!(
                        "{} cannot put the marker at ({:.2}, {:.2}): {why}",
                        action.name(),
                        at.x,
                        at.y
                    ),
                );
            }
        }
        let completes = if action.completes_next_turn() {
            if player == self.first_player {
                (opponent(player), self.battle_round)
            } else {
                (opponent(player), self.battle_round + 1)
            }
        } else {
            (player, self.battle_round)
        };
        if action == MissionAction::BurnObjective
            && self.battle_round < crate::rules::constants::BURN_OBJECTIVE_FROM_ROUND
        {
            return reject(
                Rule::Actions,
                "Burn Objective can be started from battle round 2",
            );
        }
        self.for_combined(army, root, |s| {
            s.shot = true;
            s.no_charge = true;
        });
        self.mission.actions.push(ActionUnderWay {
            player,
            action,
            army,
            unit: root,
            objective: objective.clone(),
            to,
            completes,
        });
        ev.push(GameEvent::ActionStarted {
            player,
            unit: unit.to_string(),
            action: action.name().to_string(),
            objective,
        });
        Ok(())
    }

    fn action_objective(
        &self,
        player: u8,
        army: usize,
        root: usize,
        action: MissionAction,
        objective: Option<&str>,
    ) -> Result<Option<String>, Rejection> {
        if !action.needs_objective() {
            return Ok(None);
        }
        let Some(id) = objective else {
            return reject(
                Rule::Actions,
                format!(
                    "{} is performed on an objective marker: name one",
                    action.name()
                ),
            );
        };
        let Some(i) = self.scene.objectives.iter().position(|o| o.id == id) else {
            return reject(
                Rule::Actions,
                format!("there is no objective marker '{id}'"),
            );
        };
        if action == MissionAction::MoveHazard {
            if !self.mission.hazards.iter().any(|h| h == id) {
                return reject(Rule::Actions, format!("'{id}' is not a Hazard objective"));
            }
            if self.objectives[i] != Some(player) {
                return reject(
                    Rule::Actions,
                    format!("player {player} does not control '{id}'"),
                );
            }
        } else if self.objective_zone(i) == Some(player) {
            return reject(
                Rule::Actions,
                format!("'{id}' is in player {player}'s own deployment zone"),
            );
        }
        if !self.unit_in_range_of(army, root, i) {
            return reject(
                Rule::Actions,
                format!("the unit is not within range of '{id}'"),
            );
        }
        if self
            .mission
            .actions
            .iter()
            .any(|a| a.player == player && a.action == action && a.objective.as_deref() == Some(id))
        {
            return reject(
                Rule::Actions,
                format!(
                    "another unit is already performing {} on '{id}'",
                    action.name()
                ),
            );
        }
        Ok(Some(id.to_string()))
    }

    fn action_place(
        &self,
        player: u8,
        army: usize,
        root: usize,
        action: MissionAction,
    ) -> Result<(), Rejection> {
        match action {
            MissionAction::Sabotage => {
                let own = self.scene.deployment.zone_of(player).unwrap_or_default();
                let models = self.live_models(army, root);
                let in_own = models
                    .iter()
                    .any(|r| polygon::contains(&own, self.solid(*r).centre));
                let in_terrain = models.iter().any(|r| {
                    let c = self.solid(*r).centre;
                    self.scene
                        .layout
                        .pieces
                        .iter()
                        .any(|p| polygon::contains(&p.footprint, c))
                });
                if in_own || !in_terrain {
                    return reject(
                        Rule::Actions,
                        "Sabotage needs a unit within a terrain feature and outside its own deployment zone",
                    );
                }
            }
            MissionAction::Ritual
                if self
                    .mission
                    .actions
                    .iter()
                    .any(|a| a.player == player && a.action == action) =>
            {
                return reject(
                    Rule::Actions,
                    "another unit is already performing the Ritual",
                );
            }
            MissionAction::RecoverAssets => {
                let Some(area) = self.area_of(player, army, root) else {
                    return reject(
                        Rule::Actions,
                        "Recover Assets needs the unit wholly within its zone, No Man's Land or the enemy zone",
                    );
                };
                if self.mission.actions.iter().any(|a| {
                    a.player == player
                        && a.action == action
                        && self.area_of(player, a.army, a.unit) == Some(area)
                }) {
                    return reject(
                        Rule::Actions,
                        "another unit is already recovering assets in that area",
                    );
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// 0: own zone, 1: No Man's Land, 2: enemy zone; None when the unit is wholly within none.
    fn area_of(&self, player: u8, army: usize, root: usize) -> Option<u8> {
        let own = self.scene.deployment.zone_of(player)?;
        let theirs = self.scene.deployment.zone_of(opponent(player))?;
        if self.unit_wholly_within(army, root, &own) {
            Some(0)
        } else if self.unit_wholly_in_no_mans_land(army, root) {
            Some(1)
        } else if self.unit_wholly_within(army, root, &theirs) {
            Some(2)
        } else {
            None
        }
    }

    fn complete_actions(&mut self, ev: &mut Vec<GameEvent>) {
        let now = (self.active_player, self.battle_round);
        let last_turn = self.battle_round >= self.scene.mission.battle_rounds
            && self.active_player != self.first_player;
        let (due, later): (Vec<_>, Vec<_>) = std::mem::take(&mut self.mission.actions)
            .into_iter()
            .partition(|a| a.completes == now || last_turn);
        self.mission.actions = later;
        let recovering = due
            .iter()
            .filter(|a| {
                a.action == MissionAction::RecoverAssets
                    && !self.live_models(a.army, a.unit).is_empty()
            })
            .count();
        for a in due {
            let unit = self.unit_id(a.army, a.unit).to_string();
            let failed = self.action_fails(&a, recovering);
            if let Some(why) = failed {
                ev.push(GameEvent::ActionFailed {
                    player: a.player,
                    unit,
                    action: a.action.name().to_string(),
                    reason: why,
                });
                continue;
            }
            let enemy_zone = self
                .scene
                .deployment
                .zone_of(opponent(a.player))
                .unwrap_or_default();
            let locus_inches = self.locus_inches();
            let done = CompletedAction {
                player: a.player,
                action: a.action,
                unit: (a.army, a.unit),
                objective: a.objective.clone(),
                near_centre: self.unit_distance_to(a.army, a.unit, board_centre()) <= locus_inches,
                in_enemy_zone: self.unit_wholly_within(a.army, a.unit, &enemy_zone),
            };
            ev.push(GameEvent::ActionCompleted {
                player: a.player,
                unit,
                action: a.action.name().to_string(),
                objective: a.objective.clone(),
            });
            match a.action {
                MissionAction::Terraform => {
                    let id = a.objective.clone().expect("checked");
                    self.mission.terraformed.retain(|(o, _)| *o != id);
                    self.mission.terraformed.push((id, a.player));
                }
                MissionAction::BurnObjective => {
                    let id = a.objective.clone().expect("checked");
                    if let Some(i) = self.scene.objectives.iter().position(|o| o.id == id) {
                        let enemy_zone = self.objective_zone(i) == Some(opponent(a.player));
                        let vp = self
                            .scene
                            .mission
                            .scoring
                            .iter()
                            .find_map(|r| match *r {
                                ScoringRule::Burned {
                                    no_mans_land,
                                    enemy_zone: e,
                                } => Some(if enemy_zone { e } else { no_mans_land }),
                                _ => None,
                            })
                            .unwrap_or(0);
                        let name = self.scene.mission.name.clone();
                        self.add_primary(a.player, vp, format!("{name}: burned '{id}'"), ev);
                        self.remove_objective(&id, "burned", ev);
                    }
                }
                MissionAction::MoveHazard => {
                    let id = a.objective.clone().expect("checked");
                    let at = a.to.expect("checked");
                    if let Some(o) = self.scene.objectives.iter_mut().find(|o| o.id == id) {
                        o.at = Point(at.x, at.y);
                        ev.push(GameEvent::ObjectiveMoved {
                            objective: id,
                            to: (at.x, at.y),
                            reason: "Move Hazard".into(),
                        });
                    }
                }
                MissionAction::Ritual => {
                    let at = a.to.expect("checked");
                    self.mission.placed += 1;
                    let id = format!("ritual-{}", self.mission.placed);
                    self.scene.objectives.push(ObjectiveMarker {
                        id: id.clone(),
                        at: Point(at.x, at.y),
                        z: 0.0,
                    });
                    self.objectives.push(None);
                    ev.push(GameEvent::ObjectivePlaced {
                        objective: id,
                        at: (at.x, at.y),
                        reason: "Ritual".into(),
                    });
                }
                _ => {}
            }
            self.mission.completed.push(done);
        }
    }

    fn locus_inches(&self) -> f32 {
        self.scene
            .secondary_deck
            .as_ref()
            .and_then(|d| {
                d.cards.iter().find_map(|c| match c.kind {
                    CardKind::EstablishLocus { centre_inches, .. } => Some(centre_inches),
                    _ => None,
                })
            })
            .unwrap_or(6.0)
    }

    /// Why an action due now fails, if it does.
    fn action_fails(&self, a: &ActionUnderWay, recovering: usize) -> Option<String> {
        if self.live_models(a.army, a.unit).is_empty() {
            return Some("the unit is no longer on the battlefield".into());
        }
        if let Some(id) = &a.objective {
            let Some(i) = self.scene.objectives.iter().position(|o| o.id == *id) else {
                return Some(format!("'{id}' is gone"));
            };
            if !self.unit_in_range_of(a.army, a.unit, i) {
                return Some(format!("the unit is no longer within range of '{id}'"));
            }
            if self.objectives[i] != Some(a.player) {
                return Some(format!("player {} does not control '{id}'", a.player));
            }
        }
        match a.action {
            MissionAction::EstablishLocus => {
                let enemy = self
                    .scene
                    .deployment
                    .zone_of(opponent(a.player))
                    .unwrap_or_default();
                let near =
                    self.unit_distance_to(a.army, a.unit, board_centre()) <= self.locus_inches();
                if !near && !self.unit_wholly_within(a.army, a.unit, &enemy) {
                    return Some(
                        "the unit is neither near the centre nor in the enemy zone".into(),
                    );
                }
            }
            MissionAction::RecoverAssets if recovering < 2 => {
                return Some("fewer than two units recovered assets".into());
            }
            MissionAction::MoveHazard | MissionAction::Ritual => {
                let at = a.to?;
                let why =
                    self.marker_place_problem(a.action, a.army, a.unit, a.objective.as_deref(), at);
                if let Some(why) = why {
                    return Some(format!(
                        "the marker cannot go to ({:.2}, {:.2}): {why}",
                        at.x, at.y
                    ));
                }
            }
            _ => {}
        }
        None
    }

    /// Why a marker cannot go to `at` for `action` by the unit (army, root): Move Hazard moves
    /// `objective` at most the mission's distance; the Ritual's marker stands wholly in No
    /// Man's Land near the unit, exactly the mission's distance from one other No Man's Land
    /// objective and clear of the rest. Neither may stand off the table, on a model, on
    /// another marker or in a wall. None when it can.
    pub(super) fn marker_place_problem(
        &self,
        action: MissionAction,
        army: usize,
        root: usize,
        objective: Option<&str>,
        at: Vec2,
    ) -> Option<String> {
        let r = OBJECTIVE_MARKER_RADIUS_INCHES;
        if at.x < r || at.y < r || at.x > BOARD_WIDTH_INCHES - r || at.y > BOARD_DEPTH_INCHES - r {
            return Some("the marker would not be wholly on the table".into());
        }
        let others: Vec<(usize, Vec2)> = self
            .scene
            .objectives
            .iter()
            .enumerate()
            .filter(|(_, o)| Some(o.id.as_str()) != objective)
            .map(|(i, o)| (i, o.at.vec()))
            .collect();
        if others.iter().any(|(_, o)| o.distance(at) < 2.0 * r) {
            return Some("it would stand on another objective marker".into());
        }
        let on_model = self.units.iter().enumerate().any(|(a, units)| {
            (0..units.len()).any(|u| {
                self.live_models(a, u).iter().any(|m| {
                    let s = self.solid(*m);
                    let outline = s.outline();
                    polygon::contains(&outline, at)
                        || polygon::distance_to_boundary(&outline, at) < r
                })
            })
        });
        if on_model {
            return Some("it would stand on a model".into());
        }
        let in_wall = self.scene.layout.pieces.iter().any(|p| {
            p.walls.iter().any(|w| {
                let (distance, clear) = w.disc_clearance(at, r);
                distance < clear
            })
        });
        if in_wall {
            return Some("it would stand in a wall".into());
        }
        match action {
            MissionAction::MoveHazard => {
                let inches = self.scene.mission.hazard_move_inches().unwrap_or(0.0);
                let from = self
                    .scene
                    .objectives
                    .iter()
                    .find(|o| Some(o.id.as_str()) == objective)?
                    .at
                    .vec();
                if from.distance(at) > inches + 1e-3 {
                    return Some(format!(
                        "it is {:.2}\" from where the marker stands, more than {inches}\"",
                        from.distance(at)
                    ));
                }
            }
            MissionAction::Ritual => {
                let Some((within, exactly, clear)) = self.scene.mission.ritual_distances() else {
                    return Some("the mission has no Ritual".into());
                };
                if [1u8, 2]
                    .iter()
                    .any(|&p| self.reach_into_zone(at, p) < 2.0 * r - 1e-4)
                {
                    return Some("it would not be wholly in No Man's Land".into());
                }
                let near = self.unit_distance_to(army, root, at) - r;
                if near > within + 1e-3 {
                    return Some(format!(
                        "it would be {near:.2}\" from the unit, more than {within}\""
                    ));
                }
                let anchor = others.iter().find(|(i, o)| {
                    self.objective_zone(*i).is_none()
                        && (o.distance(at) - exactly).abs() <= RITUAL_EXACT_TOLERANCE_INCHES
                });
                let Some(&(anchor, _)) = anchor else {
                    return Some(format!(
                        "no other No Man's Land objective is exactly {exactly}\" away"
                    ));
                };
                if let Some((i, o)) = others
                    .iter()
                    .find(|(i, o)| *i != anchor && o.distance(at) < clear)
                {
                    return Some(format!(
                        "it would be {:.2}\" from '{}', within {clear}\"",
                        o.distance(at),
                        self.scene.objectives[*i].id
                    ));
                }
            }
            _ => {}
        }
        None
    }

    /// [`Command::ChooseTargets`](super::Command::ChooseTargets): the choices a card drawn this
    /// Command phase leaves to the players, made instead of the engine's defaults. Marked for
    /// Death: the card holder's opponent names the Alpha units (their own), the holder the
    /// Gamma unit; A Tempting Target: the opponent names the No Man's Land objective.
    pub(super) fn choose_targets(
        &mut self,
        player: u8,
        card: &str,
        units: &[String],
        objective: Option<&str>,
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        let Some(deck) = self.scene.secondary_deck.clone() else {
            return reject(Rule::SecondaryMissions, "the mission has no secondary deck");
        };
        let holder = self.active_player;
        let k = self.mission.active[pi(holder)]
            .iter()
            .position(|c| deck.cards[c.card].name.eq_ignore_ascii_case(card));
        let Some(k) = k else {
            return reject(
                Rule::SecondaryMissions,
                format!("player {holder} holds no active card '{card}'"),
            );
        };
        if self.stage != Stage::Battle
            || self.phase != Phase::Command
            || self.mission.active[pi(holder)][k].drawn != Some((self.battle_round, holder))
        {
            return reject(
                Rule::SecondaryMissions,
                format!("the targets of '{card}' are chosen in the Command phase it is drawn in"),
            );
        }
        let kind = deck.cards[self.mission.active[pi(holder)][k].card]
            .kind
            .clone();
        let enemy = opponent(holder);
        let mut chosen = self.mission.active[pi(holder)][k].clone();
        match kind {
            CardKind::MarkedForDeath { alphas, .. } if player == enemy => {
                let Some(army) = self.army_of(enemy) else {
                    return reject(Rule::SecondaryMissions, "no enemy army");
                };
                let on_table = self
                    .unit_roots(army)
                    .into_iter()
                    .filter(|&u| !self.live_models(army, u).is_empty())
                    .count();
                let want = alphas.min(on_table);
                let mut picked = Vec::new();
                for id in units {
                    let (a, root) = self.own_root(player, id)?;
                    if self.find_unit(a, id) != Some(root) {
                        return reject(
                            Rule::SecondaryMissions,
                            format!("'{id}' leads a unit: name the unit it is attached to"),
                        );
                    }
                    if self.live_models(a, root).is_empty() {
                        return reject(
                            Rule::SecondaryMissions,
                            format!("'{id}' is not on the battlefield"),
                        );
                    }
                    if picked.contains(&(a, root)) {
                        return reject(Rule::SecondaryMissions, format!("'{id}' is named twice"));
                    }
                    picked.push((a, root));
                }
                if picked.len() != want {
                    return reject(
                        Rule::SecondaryMissions,
                        format!("name {want} of your units on the battlefield as Alpha targets"),
                    );
                }
                chosen.alphas = picked;
                if chosen.gamma.is_some_and(|g| chosen.alphas.contains(&g)) {
                    // The holder's Gamma was named an Alpha: the engine names another.
                    chosen.gamma = self.easiest_other(army, &chosen.alphas);
                }
            }
            CardKind::MarkedForDeath { .. } if player == holder => {
                let [id] = units else {
                    return reject(
                        Rule::SecondaryMissions,
                        "name one enemy unit as the Gamma target",
                    );
                };
                let Some(army) = self.army_of(enemy) else {
                    return reject(Rule::SecondaryMissions, "no enemy army");
                };
                let Some(u) = self.find_unit(army, id) else {
                    return reject(
                        Rule::SecondaryMissions,
                        format!("player {enemy} has no unit '{id}'"),
                    );
                };
                if self.live_models(army, u).is_empty()
                    || chosen.alphas.contains(&(army, u))
                    || self.unit_roots(army).iter().all(|&r| r != u)
                {
                    return reject(
                        Rule::SecondaryMissions,
                        format!(
                            "'{id}' is not an enemy unit on the battlefield that is not an Alpha target"
                        ),
                    );
                }
                chosen.gamma = Some((army, u));
            }
            CardKind::TemptingTarget { .. } if player == enemy => {
                let Some(id) = objective else {
                    return reject(Rule::SecondaryMissions, "name a No Man's Land objective");
                };
                let Some(i) = self.scene.objectives.iter().position(|o| o.id == id) else {
                    return reject(
                        Rule::SecondaryMissions,
                        format!("there is no objective marker '{id}'"),
                    );
                };
                if self.objective_zone(i).is_some() {
                    return reject(
                        Rule::SecondaryMissions,
                        format!("'{id}' is not in No Man's Land"),
                    );
                }
                chosen.objective = Some(id.to_string());
            }
            _ => {
                return reject(
                    Rule::SecondaryMissions,
                    format!("player {player} has no choice to make for '{card}'"),
                );
            }
        }
        let names = |v: &[(usize, usize)]| -> Vec<String> {
            v.iter()
                .map(|&(a, u)| self.unit_id(a, u).to_string())
                .collect()
        };
        ev.push(GameEvent::TargetsChosen {
            player,
            card: deck.cards[chosen.card].name.clone(),
            alphas: names(&chosen.alphas),
            gamma: chosen.gamma.map(|(a, u)| self.unit_id(a, u).to_string()),
            objective: chosen.objective.clone(),
        });
        self.mission.active[pi(holder)][k] = chosen;
        Ok(())
    }

    /// [`Command::Guard`](super::Command::Guard): Burden of Trust's guard picked in the
    /// player's Command phase.
    pub(super) fn guard(
        &mut self,
        player: u8,
        unit: &str,
        objective: &str,
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        if !self.scene.mission.has_guards() {
            return reject(Rule::Actions, "the mission has no guards (Burden of Trust)");
        }
        if self.stage != Stage::Battle
            || player != self.active_player
            || self.phase != Phase::Command
        {
            return reject(
                Rule::Actions,
                "guards are picked in the player's own Command phase",
            );
        }
        let (army, root) = self.own_root(player, unit)?;
        let Some(i) = self.scene.objectives.iter().position(|o| o.id == objective) else {
            return reject(
                Rule::Actions,
                format!("there is no objective marker '{objective}'"),
            );
        };
        if self.objectives[i] != Some(player) {
            return reject(
                Rule::Actions,
                format!("player {player} does not control '{objective}'"),
            );
        }
        if let Some(why) = self.guard_problem(army, root, i) {
            return reject(
                Rule::Actions,
                format!("'{unit}' cannot guard '{objective}': {why}"),
            );
        }
        self.post_guard(player, (army, root), objective, ev);
        Ok(())
    }

    /// Why the unit cannot guard objective `i`, if it cannot.
    fn guard_problem(&self, army: usize, root: usize, i: usize) -> Option<&'static str> {
        if self.live_models(army, root).is_empty() {
            Some("it is not on the battlefield")
        } else if self.scene.armies[army].units[root]
            .datasheet
            .has_keyword("AIRCRAFT")
        {
            Some("AIRCRAFT cannot guard")
        } else if !self.unit_in_range_of(army, root, i) {
            Some("it is not within range of the objective")
        } else {
            None
        }
    }

    fn post_guard(
        &mut self,
        player: u8,
        unit: (usize, usize),
        objective: &str,
        ev: &mut Vec<GameEvent>,
    ) {
        self.mission
            .guards
            .retain(|g| !(g.player == player && (g.objective == objective || g.unit == unit)));
        self.mission.guards.push(GuardPost {
            player,
            unit,
            objective: objective.to_string(),
        });
        ev.push(GameEvent::Guarding {
            player,
            unit: self.unit_id(unit.0, unit.1).to_string(),
            objective: objective.to_string(),
        });
    }

    /// At the end of the active player's Command phase (Burden of Trust): each objective
    /// they control and have not picked a guard for gets one, the eligible unit not yet
    /// guarding with the most Objective Control within its range.
    pub(super) fn post_remaining_guards(&mut self, ev: &mut Vec<GameEvent>) {
        if !self.scene.mission.has_guards() {
            return;
        }
        let player = self.active_player;
        let Some(army) = self.army_of(player) else {
            return;
        };
        for i in 0..self.scene.objectives.len() {
            let id = self.scene.objectives[i].id.clone();
            if self.objectives[i] != Some(player)
                || self
                    .mission
                    .guards
                    .iter()
                    .any(|g| g.player == player && g.objective == id)
            {
                continue;
            }
            let best = self
                .unit_roots(army)
                .into_iter()
                .filter(|&u| {
                    self.guard_problem(army, u, i).is_none()
                        && !self
                            .mission
                            .guards
                            .iter()
                            .any(|g| g.player == player && g.unit == (army, u))
                })
                .max_by_key(|&u| {
                    self.live_models(army, u)
                        .iter()
                        .map(|r| self.objective_control(*r))
                        .sum::<u32>()
                });
            if let Some(u) = best {
                self.post_guard(player, (army, u), &id, ev);
            }
        }
    }
}
