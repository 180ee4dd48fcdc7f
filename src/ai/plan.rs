//! The `normal` and `hard` computer players' plans: set-up (Strategic Reserves, transports
//! loaded), roles (melee units seek combat, shooting units keep their range), Fall Back,
//! disembarking and Reserves arrivals, charges weighed by expected melee value, Grenades,
//! and the `hard` player's lookahead: each end of a move towards the enemy scored by the
//! damage the enemy could answer with there, each weapon's target by what it adds to the
//! unit's other attacks on it and by the chance to destroy the whole unit.
//!
//! Core Rules: Reserves and Strategic Reserves, Transports, Movement phase (Fall Back),
//! Charge phase, Core Stratagems.

use super::tactics::{self, rough_unit_points};
use super::{Ai, Level, centre, legal, roots, shifted, value_per_model};
use pathfinding::kuhn_munkres::kuhn_munkres_min;
use pathfinding::matrix::Matrix;

use crate::game::sight::ModelRef;
use crate::game::state::Location;
use crate::game::{Command, Game, Placement, ReserveKind, WeaponOption, WeaponTarget};
use crate::geometry::{Vec2, Vec3, polygon};
use crate::rules::constants::RESERVES_LAST_ROUND;
use crate::rules::constants::{
    DISEMBARK_RANGE_INCHES, ENGAGEMENT_RANGE_HORIZONTAL_INCHES, OBJECTIVE_RANGE_HORIZONTAL_INCHES,
    RESERVES_FIRST_ROUND, STRATEGIC_RESERVES_EDGE_INCHES,
};
use crate::rules::deployment::{GrowOrder, SetupObstacles, SetupVersion, grow_unit, set_up_unit};
use crate::rules::movement::MoveMode;
use crate::rules::phase::{Phase, Stage, opponent};
use crate::rules::stratagem::Stratagem;

/// A unit is melee-minded when its melee weapons are worth at least this many times its
/// ranged weapons against the nearest enemy unit ([`tactics::rough_unit_points`]).
pub const MELEE_MINDED_RATIO: f64 = 1.2;

/// Expected points a charge must be worth more than (the odds of the roll times the melee
/// value against the target, less half what the target deals back) for `normal` and `hard`
/// to declare it: any gain. At 8 points long charges worth a few went by (`hard` against
/// `hard`, 800 games: 41.7% / 39.4% of each side's points destroyed at 8, 41.9% / 40.4% at
/// any gain; `hard` against `easy`, 24 layout pairings at seeds 1000 and 2000: 88.7% and
/// 88.5% of decided games at 8, 89.2% and 89.3% at any gain).
pub const CHARGE_MIN_EXPECTED_POINTS: f64 = 0.0;

/// Smallest odds of the charge roll `normal` and `hard` declare a charge on.
pub const CHARGE_MIN_ODDS: f64 = 0.2;

/// Inches of a move's end that one unit's worth of points of expected enemy damage there is
/// worth to `hard` (its lookahead on the opponent's reply).
pub const THREAT_WEIGHT_INCHES: f32 = 1.0;

/// Share of a unit's points that its chance of being destroyed whole adds to a target's
/// value for `hard` (a destroyed unit deals no damage and holds no objective).
pub const WIPE_BONUS_SHARE: f64 = 0.5;

/// Most models of a unit `normal` and `hard` deploy embarked: a Boyz mob of 20 with its
/// Warboss fits the Battlewagon (capacity 22). Kept to 12 while the disembark rings were
/// sized by the biggest base (the mob never found room to get out), walking it cost `hard`
/// against Ultramarines: against `easy`, 24 layout pairings, 87.1% -> 88.7% of decided games
/// with the mob aboard, Ultramarines against Orks on layouts 4 and 6 59.3% and 62.1% ->
/// 83.3% and 82.8%.
pub const MAX_PASSENGER_MODELS: usize = 22;

/// How much more `hard` values destroying a unit that stands within range of an objective
/// marker (it holds or contests it).
pub const OBJECTIVE_TARGET_FACTOR: f64 = 1.5;

/// Inches from the enemy closest edge a melee unit aims to stop at after a Normal move (just
/// outside Engagement Range).
pub const MELEE_STOP_SHORT_INCHES: f32 = 1.3;

/// How far (inches) from the closest enemy unit a TRANSPORT carrying a unit that fights
/// stops (`normal`, `hard`): its passengers then get out within 3" and charge the rest.
pub const DELIVERY_STOP_SHORT_INCHES: f32 = 4.0;

/// The charge distance (inches) beyond the 3" of a Disembark within which passengers get out
/// of a TRANSPORT that has just moved: 8", a roll of 8 or more on 2D6 being 42%.
pub const DELIVERY_CHARGE_INCHES: f32 = 8.0;

/// How far beyond its Move a unit may be from where it is going for `hard` to re-roll an
/// Advance roll that falls short (a roll of 3 or more then gets it there); further away, the
/// unit Advances to get closer and keeps its Command points.
pub const ADVANCE_GAP_INCHES: f32 = 2.9;

/// A unit that fights goes after the closest enemy unit, before any objective, when that
/// unit is within its Move plus this many inches (a charge after the move: the 12" charge
/// range, Core Rules: Charge phase).
pub const MELEE_SEEK_INCHES: f32 = crate::rules::constants::CHARGE_RANGE_INCHES;

/// The cost of one battle round to arrive, in Moves, in the matching of units to objective
/// markers ([`Ai::assigned_objective`]): one round to arrive outweighs ten Moves of walking,
/// so the matching first reaches the most markers soonest and the Moves only break ties.
pub const ARRIVAL_ROUND_WEIGHT: f32 = 10.0;

/// How far beyond its Move from the edge of its deployment zone an objective marker may be
/// for a unit to hold it in the first battle round ([`markers_in_first_move`]): the 3"
/// control range, less the inch a unit is set up inside the edge.
pub const FIRST_MOVE_MARKER_EXTRA_INCHES: f32 = 2.0;

/// Inches from an objective marker within which an enemy unit's centre makes it contested:
/// a second unit goes there ([`Ai::open_objectives`]).
pub const CONTEST_INCHES: f32 = 9.0;

/// Battle rounds to arrive beyond which a unit of `normal` or `hard` is matched to no
/// objective marker ([`Ai::assigned_objective`]) where the enemy's deployment zone holds
/// two markers or more (Hammer and Anvil with Only War's markers): it then heads for the
/// nearest open marker, with the units already going there, instead of being sent alone to
/// a second marker deep in the enemy's zone so that every marker has a unit. `hard` against
/// `easy`, layout 7, 400 games a pairing: the Ork mirror 88.3% -> 98.4% of decided games,
/// Ultramarines against Orks 90.3% -> 93.0%, the Ultramarine mirror 78.2% -> 85.2%. With
/// one marker in the enemy's zone the same rule lost on layouts 4 to 6 (Ultramarines
/// against Orks, layout 6: 78.1% -> 60.1%), where the units it left unmatched were the
/// second units of contested markers.
pub const NO_PLACE_ROUNDS: f32 = 3.0;

/// The share of its Starting Strength's wounds at or below which `hard` counts a unit as
/// fragile ([`fragile`]).
pub const FRAGILE_WOUNDS_SHARE: f64 = 0.34;

/// The share of a fragile unit's points the enemy must be expected to destroy at an objective
/// marker (`hard`'s lookahead, [`Threats`]) for it to stay where it is rather than walk there.
pub const FRAGILE_THREAT_SHARE: f32 = 0.5;

/// Whether the unit (`army`, `u`) is fragile: a third of its Starting Strength's wounds or
/// fewer left, or a lone CHARACTER model that does not fight. Walked onto a contested marker,
/// such a unit gave its points away (a 1-wound Deff Dread on the centre, a T'au Warlord alone
/// there).
fn fragile(game: &Game, army: usize, u: usize) -> bool {
    if game.combined(army, u).len() > 1 {
        return false;
    }
    let per_model = f64::from(game.scene.armies[army].units[u].datasheet.wounds.max(1));
    let models = &game.units[army][u].models;
    let start = models.len() as f64 * per_model;
    let left: f64 = models
        .iter()
        .filter(|m| m.alive)
        .map(|m| f64::from(m.wounds))
        .sum();
    let lone_character =
        models.len() == 1 && game.has_keyword(army, u, "CHARACTER") && !melee_minded(game, army, u);
    left <= FRAGILE_WOUNDS_SHARE * start || lone_character
}

/// The objective markers (indices) whose centres stand in `player`'s deployment zone.
fn zone_markers(game: &Game, player: u8) -> Vec<usize> {
    (0..game.scene.objectives.len())
        .filter(|&i| game.objective_zone(i) == Some(player))
        .collect()
}

/// Whether `player` is in the game's last turn with no victory points left to score on
/// objectives: the second player's turn of the last battle round, past its Command phase,
/// in a mission whose every scoring rule is an objective rule checked at the end of the
/// Command phase (Only War), with no actions, no Secondary Missions and no end-of-turn
/// scoring in the last round. Its units then hold nothing and go for the enemy (a marker
/// held after that scores nothing).
pub(crate) fn nothing_left_to_score(game: &Game, player: u8) -> bool {
    last_turn_past_command(game, player) && player != game.first_player
}

/// Whether `player` is in the first player's turn of the last battle round, past its Command
/// phase, in a mission scored like [`nothing_left_to_score`]'s (Only War): its own scoring is
/// over, and the enemy scores at the end of its coming Command phase, before it moves, the
/// markers it controls when this turn ends. A marker then matters only where enemy models
/// stand within range of it (holding it denies it); the units on the others are free to
/// go for the enemy.
pub(crate) fn only_denial_left(game: &Game, player: u8) -> bool {
    last_turn_past_command(game, player) && player == game.first_player
}

/// Whether `player` is taking a turn of the last battle round past its Command phase, in a
/// mission whose every scoring rule is an objective rule checked at the end of the Command
/// phase, with no actions, no Secondary Missions and no end-of-turn scoring in the last
/// round.
fn last_turn_past_command(game: &Game, player: u8) -> bool {
    use crate::rules::mission::{ScoringRule as R, ScoringTiming::EndOfCommandPhase as C};
    let m = &game.scene.mission;
    game.stage == Stage::Battle
        && game.battle_round >= m.battle_rounds
        && game.active_player == player
        && game.phase != Phase::Command
        && !m.last_round_second_player_scores_at_end_of_turn
        && m.secondary_deck.is_none()
        && m.actions.is_empty()
        && m.scoring.iter().all(|r| {
            matches!(
                r,
                R::HoldObjectives { timing: C, .. }
                    | R::HoldMore { timing: C, .. }
                    | R::HoldEach { timing: C, .. }
                    | R::HoldAtLeast { timing: C, .. }
                    | R::Linchpin { timing: C, .. }
            )
        })
}

/// Whether the unit (`army`, `unit`) fights better than it shoots, against the enemy unit
/// closest to it (before the armies are on the table: the enemy unit with the most models).
pub fn melee_minded(game: &Game, army: usize, unit: usize) -> bool {
    let reference = closest_enemy(game, army, unit).or_else(|| {
        let earmy = game.army_of(opponent(game.player_of(army)))?;
        game.unit_roots(earmy)
            .into_iter()
            .max_by_key(|&e| game.live_models_anywhere(earmy, e).len())
            .map(|e| (earmy, e))
    });
    let Some(e) = reference else {
        return false;
    };
    let melee = rough_unit_points(game, (army, unit), e, true, None);
    let ranged = rough_unit_points(game, (army, unit), e, false, None);
    melee > 0.0 && melee >= MELEE_MINDED_RATIO * ranged
}

/// The live enemy unit closest to (`army`, `unit`), and its distance.
fn closest_enemy_and_distance(
    game: &Game,
    army: usize,
    unit: usize,
) -> Option<((usize, usize), f32)> {
    let player = game.player_of(army);
    let earmy = game.army_of(opponent(player))?;
    roots(game, opponent(player))
        .into_iter()
        .map(|e| ((earmy, e), game.unit_distance((army, unit), (earmy, e))))
        .min_by(|a, b| a.1.total_cmp(&b.1))
}

fn closest_enemy(game: &Game, army: usize, unit: usize) -> Option<(usize, usize)> {
    closest_enemy_and_distance(game, army, unit).map(|(e, _)| e)
}

/// The longest range of the unit's ranged weapons (inches), 0 with none.
fn longest_range(game: &Game, army: usize, unit: usize) -> f32 {
    longest_range_of(game, army, unit, |_| true)
}

/// The longest range (inches) of the unit's ranged weapons that cannot shoot after the unit
/// Advances (those without ASSAULT); 0 when every one of them can (Core Rules: Advance moves,
/// ASSAULT).
fn longest_range_lost_by_advancing(game: &Game, army: usize, unit: usize) -> f32 {
    longest_range_of(game, army, unit, |p| {
        !p.has(&crate::rules::WeaponAbility::Assault)
    })
}

/// The longest range (inches) of the unit's ranged weapon profiles that `keep` accepts, 0
/// with none.
fn longest_range_of(
    game: &Game,
    army: usize,
    unit: usize,
    keep: impl Fn(&crate::rules::WeaponProfile) -> bool,
) -> f32 {
    game.weapons_of(army, unit, false)
        .iter()
        .flat_map(|w| {
            w.profiles
                .iter()
                .filter(|p| keep(p))
                .filter_map(|p| p.range)
        })
        .fold(0.0, f32::max)
}

/// The models of the combined unit that are alive wherever they are (on the table, embarked
/// or in Reserves), with their bases, in order.
fn bases(game: &Game, army: usize, root: usize) -> Vec<(ModelRef, crate::geometry::Base)> {
    game.live_models_anywhere(army, root)
        .into_iter()
        .map(|r| {
            let base = game.scene.armies[army].units[r.unit].models[r.model]
                .characteristics
                .base;
            (r, base)
        })
        .collect()
}

/// Terrain and every model on the table, as obstacles for setting a unit up.
fn obstacles(game: &Game) -> SetupObstacles {
    SetupObstacles {
        crowded: false,
        footprints: game
            .scene
            .layout
            .pieces
            .iter()
            .map(|p| p.footprint.clone())
            .collect(),
        walls: crate::data::resolve::wall_outlines(&game.scene.layout),
        models: game
            .all_live_models()
            .into_iter()
            .map(|r| {
                let s = game.solid(r);
                (s.base, s.centre, s.facing)
            })
            .collect(),
        ruleset: game.scene.ruleset(),
    }
}

/// The set-up command of the combined unit with its models placed by [`set_up_unit`] in
/// `zone` (in the frame of its player's zone, so both players deploy alike), or None when
/// nothing fits.
fn placements_in(game: &Game, army: usize, root: usize, zone: &[Vec2]) -> Option<Vec<Placement>> {
    let models = bases(game, army, root);
    let list: Vec<crate::geometry::Base> = models.iter().map(|(_, b)| *b).collect();
    let mut obstacles = obstacles(game);
    let frame = SetupVersion::CURRENT.frame(game.player_of(army));
    // The middle-first formation the scenes' automatic set-up uses; where none fits (a
    // crowded zone), the unit grown model by model.
    let poses = set_up_unit(zone, &list, &mut obstacles, frame)
        .or_else(|_| {
            let centre = polygon::centroid(&crate::data::check::board());
            grow_unit(zone, &list, &mut obstacles, centre, GrowOrder::Compact)
        })
        .ok()?;
    Some(
        models
            .iter()
            .zip(poses)
            .map(|((r, _), (at, facing))| Placement {
                model: r.model,
                unit: Some(game.unit_id(army, r.unit).to_string()),
                x: at.x,
                y: at.y,
                z: 0.0,
                facing,
            })
            .collect(),
    )
}

/// Inches between neighbouring candidate places on one ring round a TRANSPORT's hull, and
/// between the rings, when [`ring_placements`] sets a unit up to disembark.
pub const DISEMBARK_GRID_INCHES: f32 = 0.4;

/// Most places [`ring_placements`] tries the unit's first (biggest) model at, nearest the
/// goal first and at least 3" apart.
pub const DISEMBARK_STARTS: usize = 12;

/// Places the combined unit's models round the TRANSPORT `hull` to disembark (Core Rules:
/// Transports, set up wholly within 3"). Candidate places lie on rings round the hull
/// [`DISEMBARK_GRID_INCHES`] apart; each model, biggest base first, takes the free place
/// nearest `goal` where its own base fits: wholly within 3" of the hull and clear of it,
/// inside the table, clear of walls, of other models, of the models already placed, and out
/// of the Engagement Range of enemy bases and hulls (measured from the base edge: a hull
/// reaches farther than a Boy, and at least 2.5" beyond the base), with two models already
/// placed within 2" (one for the second model: Unit Coherency). The first model is tried at
/// up to [`DISEMBARK_STARTS`] places, nearest `goal` first, where walls split the places.
/// None when no start holds the whole unit. Sized per model, so a Warboss's 50mm base and
/// its Boyz's 32mm ones go out together (rings sized by the biggest base left a 21-model
/// mob no room round a Battlewagon).
fn ring_placements(
    game: &Game,
    army: usize,
    root: usize,
    hull: &crate::geometry::ModelSolid,
    goal: Vec2,
) -> Option<Vec<Placement>> {
    use crate::geometry::Base;
    let mut models: Vec<(ModelRef, f32)> = bases(game, army, root)
        .into_iter()
        .map(|(m, b)| (m, b.bounding_radius_inches()))
        .collect();
    models.sort_by(|a, b| b.1.total_cmp(&a.1));
    let small = models.last()?.1;
    let (half, round) = match hull.base {
        Base::Hull { .. } => (hull.base.half_extents_inches(), 0.0),
        _ => (Vec2::ZERO, hull.base.bounding_radius_inches()),
    };
    let (sin, cos) = hull.facing.to_radians().sin_cos();
    let world = |v: Vec2| hull.centre + Vec2::new(v.x * cos - v.y * sin, v.x * sin + v.y * cos);
    // Each candidate: where, and how far its centre is from the hull's edge.
    let mut points: Vec<(Vec2, f32)> = Vec::new();
    let mut offset = small + 0.03;
    while offset + small <= DISEMBARK_RANGE_INCHES - 0.02 {
        // The rounded rectangle `offset` from the hull, as a fine polyline.
        let mut line: Vec<Vec2> = Vec::new();
        for (corner, from) in [
            (Vec2::new(half.x, -half.y), -90.0f32),
            (Vec2::new(half.x, half.y), 0.0),
            (Vec2::new(-half.x, half.y), 90.0),
            (Vec2::new(-half.x, -half.y), 180.0),
        ] {
            for k in 0..=8 {
                let a = (from + 90.0 * k as f32 / 8.0).to_radians();
                line.push(corner + Vec2::new(a.cos(), a.sin()) * (round + offset));
            }
        }
        line.push(line[0]);
        let mut carried = 0.0;
        for w in line.windows(2) {
            let (p, q) = (w[0], w[1]);
            let len = p.distance(q);
            let mut at = DISEMBARK_GRID_INCHES - carried;
            while at <= len {
                // A place on a corner's chord is a little inside the arc.
                let v = p + (q - p) * (at / len.max(1e-6));
                let edge = if v.x.abs() > half.x && v.y.abs() > half.y {
                    (v.abs() - half).length()
                } else {
                    (v.abs() - half).max_element()
                };
                points.push((world(v), edge - round));
                at += DISEMBARK_GRID_INCHES;
            }
            carried = (carried + len) % DISEMBARK_GRID_INCHES;
        }
        offset += DISEMBARK_GRID_INCHES;
    }
    let obstacles = obstacles(game);
    let (w, h) = (
        crate::rules::constants::BOARD_WIDTH_INCHES,
        crate::rules::constants::BOARD_DEPTH_INCHES,
    );
    // Each enemy model's centre and how far a base's edge keeps from it: out of Engagement
    // Range of its base or hull (at least 2.5" beyond the base).
    let enemies: Vec<(Vec2, f32)> = game
        .enemy_models(army)
        .into_iter()
        .map(|e| {
            let s = game.solid(e);
            let reach = s.base.bounding_radius_inches() + ENGAGEMENT_RANGE_HORIZONTAL_INCHES;
            (s.centre, (reach + 0.1).max(2.5))
        })
        .collect();
    // How big a base each place holds: the room to the table edge, walls and other models,
    // and to enemy models (kept out of Engagement Range of their bases or hulls).
    let mut places: Vec<(Vec2, f32, f32, f32)> = points
        .into_iter()
        .map(|(p, edge)| {
            let mut room = p.x.min(p.y).min(w - p.x).min(h - p.y);
            for (b, c, _) in &obstacles.models {
                if *c != hull.centre {
                    room = room.min(p.distance(*c) - b.bounding_radius_inches());
                }
            }
            for wall in &obstacles.walls {
                let d = if polygon::contains(wall, p) {
                    -1.0
                } else {
                    polygon::distance_to_boundary(wall, p)
                };
                room = room.min(d);
            }
            let enemy_room = enemies
                .iter()
                .map(|(e, keep)| p.distance(*e) - keep)
                .fold(f32::INFINITY, f32::min);
            (p, edge, room, enemy_room)
        })
        .collect();
    places.sort_by(|a, b| a.0.distance(goal).total_cmp(&b.0.distance(goal)));
    let fits = |(_, edge, room, enemy_room): (Vec2, f32, f32, f32), radius: f32| {
        edge >= radius + 0.02
            && edge + radius <= DISEMBARK_RANGE_INCHES - 0.02
            && room > radius + 0.05
            && enemy_room > radius
    };
    let grow = |start: usize| -> Option<Vec<Vec2>> {
        let mut chosen: Vec<(Vec2, f32)> = vec![(places[start].0, models[0].1)];
        for &(_, radius) in &models[1..] {
            let need = chosen.len().min(2);
            let next = places.iter().find(|&&place| {
                fits(place, radius)
                    && chosen
                        .iter()
                        .all(|(c, rc)| c.distance(place.0) >= radius + rc + 0.02)
                    && chosen
                        .iter()
                        .filter(|(c, rc)| c.distance(place.0) <= radius + rc + 1.9)
                        .count()
                        >= need
            })?;
            chosen.push((next.0, radius));
        }
        Some(chosen.into_iter().map(|(p, _)| p).collect())
    };
    let mut starts: Vec<usize> = Vec::new();
    for (i, place) in places.iter().enumerate() {
        if starts.len() >= DISEMBARK_STARTS {
            break;
        }
        if fits(*place, models[0].1) && starts.iter().all(|&s| places[s].0.distance(place.0) >= 3.0)
        {
            starts.push(i);
        }
    }
    let chosen = starts.into_iter().find_map(grow)?;
    Some(
        models
            .iter()
            .zip(chosen)
            .map(|((m, _), at)| Placement {
                model: m.model,
                unit: Some(game.unit_id(army, m.unit).to_string()),
                x: at.x,
                y: at.y,
                z: 0.0,
                facing: 0.0,
            })
            .collect(),
    )
}

/// Half-widths (inches) of the boxes round an objective marker that a unit is tried in when
/// it deploys on the marker, smallest first.
pub const HOME_OBJECTIVE_BOX_HALF_INCHES: [f32; 3] = [2.5, 4.0, 5.5];

/// A waiting unit the scene sets up within this distance (inches, model centre to marker) of
/// an objective marker in its deployment zone is left to take it.
pub const HOME_OBJECTIVE_NEAR_PLACED_INCHES: f32 = 9.0;

/// `normal` and `hard` deployment when the player's deployment zone holds two objective
/// markers or more (Only War's markers on Hammer and Anvil's zones, as the layout 7 scene had
/// them before it took the card's own markers): a marker with none
/// of the player's deployed models within range and no waiting unit set up by the scene within
/// [`HOME_OBJECTIVE_NEAR_PLACED_INCHES`] gets the next waiting unit (shooting units before
/// melee-minded ones), set up in the smallest box round it
/// ([`HOME_OBJECTIVE_BOX_HALF_INCHES`]) that lies in the zone and holds the unit, so that
/// every marker in the zone is held from the first battle round. None otherwise.
///
/// Measured (`hard` against `easy`, 100 games per pairing, sides alternating): layout 7's
/// three pairings went from 81.6%, 22.9% and 54.2% of decided games won to 97.6%, 55.7% and
/// 74.7%. Applied to every zone (one marker or more) it also cost layout 5 up to 33 points.
fn deploy_on_home_objective(
    game: &Game,
    player: u8,
    army: usize,
    waiting: &[usize],
) -> Option<Command> {
    let zone = game.scene.deployment.zone_of(player)?;
    let home: Vec<_> = zone_markers(game, player)
        .into_iter()
        .map(|i| &game.scene.objectives[i])
        .collect();
    if home.len() < 2 {
        return None;
    }
    let deployed: Vec<ModelRef> = game
        .unit_roots(army)
        .into_iter()
        .filter(|&u| game.units[army][u].location == Location::OnTable)
        .flat_map(|u| game.live_models(army, u))
        .collect();
    let mut order: Vec<usize> = waiting
        .iter()
        .copied()
        .filter(|&u| !game.has_keyword(army, u, "TRANSPORT"))
        .collect();
    order.sort_by_key(|&u| melee_minded(game, army, u));
    for o in home {
        let at = o.at.vec();
        let marker = Vec3::new(o.at.0, o.at.1, o.z);
        let covered = deployed
            .iter()
            .any(|r| crate::rules::engagement::in_objective_range(&game.solid(*r), marker));
        // Where the scene would set a waiting unit up near it, that unit takes it.
        let near_placed = order.iter().any(|&u| {
            game.live_models_anywhere(army, u)
                .iter()
                .any(|r| game.solid(*r).centre.distance(at) <= HOME_OBJECTIVE_NEAR_PLACED_INCHES)
        });
        if covered || near_placed {
            continue;
        }
        let boxes: Vec<Vec<Vec2>> = HOME_OBJECTIVE_BOX_HALF_INCHES
            .iter()
            .map(|&h| rect(at - Vec2::splat(h), at + Vec2::splat(h)))
            .filter(|area| area.iter().all(|&p| polygon::contains(&zone, p)))
            .collect();
        if let Some(c) = order
            .iter()
            .find_map(|&u| deploy_in_first(game, player, (army, u), boxes.iter().cloned()))
        {
            return Some(c);
        }
    }
    None
}

/// The Deploy of the combined unit with its models placed by [`set_up_unit`] in the first of
/// `areas` where they fit and the engine accepts them; None when no area does.
fn deploy_in_first(
    game: &Game,
    player: u8,
    (army, u): (usize, usize),
    areas: impl IntoIterator<Item = Vec<Vec2>>,
) -> Option<Command> {
    areas.into_iter().find_map(|area| {
        let c = Command::Deploy {
            player,
            unit: game.unit_id(army, u).to_string(),
            models: placements_in(game, army, u, &area)?,
            transport: None,
        };
        legal(game, &c).then_some(c)
    })
}

/// Half-widths (inches) of the boxes round a unit's place in the scene that it is set up in
/// when a unit deployed on an objective marker took that place, smallest first.
pub const NEAR_PLACED_BOX_HALF_INCHES: [f32; 4] = [3.0, 5.0, 8.0, 12.0];

/// The unit of `deploy` (a Deploy where the scene stands that the engine refuses, because a
/// unit set up on an objective marker took the place) set up in the smallest box round its
/// place in the scene ([`NEAR_PLACED_BOX_HALF_INCHES`], cut to the deployment zone's bounding
/// box) where the engine accepts it, else anywhere in the zone. None when nothing fits.
fn deploy_near_placed(game: &Game, player: u8, army: usize, deploy: &Command) -> Option<Command> {
    let Command::Deploy { unit, .. } = deploy else {
        return None;
    };
    let u = game.find_unit(army, unit)?;
    let zone = game.scene.deployment.zone_of(player)?;
    let (lo, hi) = polygon::bounds(&zone);
    let at = centre(game, army, u).truncate();
    let areas = NEAR_PLACED_BOX_HALF_INCHES
        .iter()
        .map(|&h| rect((at - Vec2::splat(h)).max(lo), (at + Vec2::splat(h)).min(hi)))
        .chain(std::iter::once(zone.clone()));
    deploy_in_first(game, player, (army, u), areas)
}

/// An axis-aligned rectangle as a polygon.
fn rect(lo: Vec2, hi: Vec2) -> Vec<Vec2> {
    vec![lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)]
}

/// The objectives `player` controls now only thanks to (`army`, `unit`): without its OC the
/// enemy's level would match or beat `player`'s. None in the last turn with nothing left to
/// score, and in the first player's turn of the last round ([`only_denial_left`]) only those
/// with enemy models in range.
pub(crate) fn needed_on(game: &Game, army: usize, unit: usize) -> Vec<usize> {
    let player = game.player_of(army);
    if !(1..=2).contains(&player) || nothing_left_to_score(game, player) {
        return Vec::new();
    }
    let me = usize::from(player - 1);
    let denial = only_denial_left(game, player);
    let models = game.live_models(army, unit);
    (0..game.scene.objectives.len())
        .filter(|&i| {
            let own: u32 = models
                .iter()
                .filter(|r| game.in_range_of_objective(**r, i))
                .map(|r| game.objective_control(*r))
                .sum();
            if own == 0 {
                return false;
            }
            let (l, _) = game.levels_of_control(i);
            l[me] > l[1 - me] && l[me] - own <= l[1 - me] && (l[1 - me] > 0 || !denial)
        })
        .collect()
}

/// The unit's Advance move with no model moving: what a unit that rolled to Advance and
/// found nowhere to go still makes (after the roll its next command is its Advance).
fn empty_advance(player: u8, unit: String) -> Command {
    Command::Move {
        player,
        unit,
        mode: MoveMode::Advance,
        paths: Vec::new(),
    }
}

/// Whether the unit (`army`, `u`) may roll to Advance now at no cost to what it could do
/// this turn ([`Ai::advance_for`]): no roll made yet this phase, no enemy unit within its Move
/// plus the range of its guns that cannot shoot after Advancing, nor (for a unit that
/// fights) within its Move plus the charge range, and an Advance move is possible at all
/// (staying put is one: not for a unit out of Unit Coherency).
pub(super) fn advance_costs_nothing(game: &Game, player: u8, army: usize, u: usize) -> bool {
    if game.advance_roll.is_some() {
        return false;
    }
    let m = game.unit_move_inches(army, u);
    let d = closest_enemy_and_distance(game, army, u).map_or(f32::INFINITY, |(_, d)| d);
    // Guns with ASSAULT still shoot after an Advance: only the others are given up.
    let lost = longest_range_lost_by_advancing(game, army, u);
    let shoots = lost > 0.0 && d <= lost + m;
    let charges = melee_minded(game, army, u) && d <= m + game.charge_range_inches();
    // Once rolled, the unit's next command is its Advance: where not even staying put is
    // one (a unit out of Unit Coherency), it does not roll.
    !shoots
        && !charges
        && legal(
            game,
            &empty_advance(player, game.unit_id(army, u).to_string()),
        )
}

/// Whether `normal` and `hard` start the unit embarked in a TRANSPORT that can take it: a
/// melee-minded unit small enough ([`MAX_PASSENGER_MODELS`]) to disembark round the hull
/// when it needs to.
fn rides_in_transport(game: &Game, army: usize, u: usize) -> bool {
    game.live_models_anywhere(army, u).len() <= MAX_PASSENGER_MODELS && melee_minded(game, army, u)
}

impl Ai {
    /// Set-up for `normal` and `hard`: every Deep Strike unit in Deep Strike (within the
    /// Reserves limits); with none, and no TRANSPORT with a melee unit to carry (a unit riding one is
    /// already off the table: with the Orks' Boyz mob and Nobz aboard, a reserve left too
    /// few units to hold markers, `hard` against `easy` in the Ork mirror on layout 3 58.4%
    /// -> 79.3% of decided games without it), one unit in Strategic Reserves (the
    /// melee-minded unit worth the
    /// fewest points that the limit allows) where only one objective marker is within its
    /// first move ([`markers_in_first_move`]; `hard` with the costs of
    /// [`Ai::assigned_objective`], matched by a trial exhaustive search, 24 layout pairings
    /// against `easy`: 84.7% of decided games won without the reserve, 86.8% with it);
    /// then deployment with
    /// transports before the melee INFANTRY they can carry ([`MAX_PASSENGER_MODELS`]), which
    /// start embarked, the units with the most models first (the first TRANSPORT that takes
    /// them).
    pub(super) fn setup_plus(&mut self, game: &Game, player: u8) -> Command {
        let Some(army) = game.army_of(player) else {
            return Command::EndPhase { player };
        };
        let waiting: Vec<usize> = game
            .unit_roots(army)
            .into_iter()
            .filter(|&u| game.units[army][u].location == Location::NotDeployed)
            .collect();
        if game.stage == Stage::Setup
            && let Some(c) = self.declare_reserves(game, player, army, &waiting)
        {
            return c;
        }
        // Transports first, then their passengers.
        let transport = |u: usize| game.has_keyword(army, u, "TRANSPORT");
        if let Some(&t) = waiting.iter().find(|&&u| transport(u)) {
            return Command::Deploy {
                player,
                unit: game.unit_id(army, t).to_string(),
                models: Vec::new(),
                transport: None,
            };
        }
        let mut biggest_first = waiting.clone();
        biggest_first.sort_by_key(|&u| std::cmp::Reverse(game.live_models_anywhere(army, u).len()));
        for &u in &biggest_first {
            if !rides_in_transport(game, army, u) {
                continue;
            }
            for t in game.unit_roots(army) {
                if !transport(t) || game.units[army][t].location != Location::OnTable {
                    continue;
                }
                let c = Command::Deploy {
                    player,
                    unit: game.unit_id(army, u).to_string(),
                    models: Vec::new(),
                    transport: Some(game.unit_id(army, t).to_string()),
                };
                if legal(game, &c) {
                    return c;
                }
            }
        }
        if let Some(c) = deploy_on_home_objective(game, player, army, &waiting) {
            return c;
        }
        match super::deploy(game, player) {
            Some(c) if legal(game, &c) => c,
            Some(c) => deploy_near_placed(game, player, army, &c).unwrap_or(c),
            None => Command::EndPhase { player },
        }
    }

    fn declare_reserves(
        &mut self,
        game: &Game,
        player: u8,
        army: usize,
        waiting: &[usize],
    ) -> Option<Command> {
        let key = super::key(game, player, "reserves");
        if self.passed.contains(&key) {
            return None;
        }
        self.passed.insert(key);
        // Deep Strike: every unit that can (within the limit), then one Strategic Reserve.
        let mut out = Vec::new();
        for &u in waiting {
            let c = Command::DeclareReserves {
                player,
                unit: game.unit_id(army, u).to_string(),
                reserve: ReserveKind::DeepStrike,
            };
            if legal(game, &c) {
                out.push(c);
            }
        }
        // A melee unit that starts embarked is already kept off the table and delivered.
        let rides = waiting
            .iter()
            .any(|&t| game.has_keyword(army, t, "TRANSPORT"))
            && waiting.iter().any(|&u| {
                !game.has_keyword(army, u, "VEHICLE") && rides_in_transport(game, army, u)
            });
        if out.is_empty() && !rides {
            let mut candidates: Vec<usize> = waiting
                .iter()
                .copied()
                .filter(|&u| {
                    !game.has_keyword(army, u, "TRANSPORT")
                        && !game.has_keyword(army, u, "VEHICLE")
                        && melee_minded(game, army, u)
                        && markers_in_first_move(game, player, game.unit_move_inches(army, u)) <= 1
                })
                .collect();
            candidates.sort_by_key(|&u| game.scene.armies[army].units[u].points.unwrap_or(0));
            if let Some(c) = candidates
                .into_iter()
                .map(|u| Command::DeclareReserves {
                    player,
                    unit: game.unit_id(army, u).to_string(),
                    reserve: ReserveKind::StrategicReserves,
                })
                .find(|c| legal(game, c))
            {
                return Some(c);
            }
        }
        // One declaration per call: the rest are asked for again (the key is per phase).
        let first = out.into_iter().next();
        if first.is_some() {
            self.passed.remove(&super::key(game, player, "reserves"));
        }
        first
    }

    /// The Movement phase for `normal` and `hard`: disembark where it pays, then each unit
    /// (those holding an objective alone first, [`needed_on`]):
    /// Fall Back or stay when engaged, melee units towards the enemy they can charge, the
    /// others to objectives or into range; then Reserves arrive (from battle round 2; all of
    /// them in round 3, when those left would count as destroyed).
    pub(super) fn movement_plus(&mut self, game: &Game, player: u8) -> Command {
        let Some(army) = game.army_of(player) else {
            return Command::EndPhase { player };
        };
        if !game.reinforcements_step {
            if let Some(c) = self.disembark(game, player, army) {
                return c;
            }
            // Units holding a marker alone claim it before the others choose where to go.
            let mut order: Vec<usize> = roots(game, player)
                .into_iter()
                .filter(|&u| game.units[army][u].moved.is_none())
                .collect();
            order.sort_by_cached_key(|&u| needed_on(game, army, u).is_empty());
            for u in order {
                if game.units[army][u].moved.is_some() {
                    continue;
                }
                return self.move_unit(game, player, army, u);
            }
        }
        if let Some(c) = self.arrival(game, player, army, false) {
            return c;
        }
        Command::EndPhase { player }
    }

    /// One unit's move (`normal`, `hard`): an engaged unit off objectives Falls Back from a
    /// losing fight; a unit that fights ([`Ai::fights`]) and is not alone holding an
    /// objective goes to just outside Engagement Range of the closest enemy unit when that
    /// unit is within its Move plus [`MELEE_SEEK_INCHES`]; then objectives (a unit within
    /// range of an objective it can claim stays; the others go to the objective
    /// [`Ai::assigned_objective`] gives them, else the closest still to claim, a contested
    /// one taking a second unit, without `hard`'s lookahead penalty);
    /// the rest close in: melee units to just outside Engagement Range of the closest enemy,
    /// shooting units to their guns' range less 6".
    fn move_unit(&mut self, game: &Game, player: u8, army: usize, u: usize) -> Command {
        if let Some(c) = self.advance_reroll(game, player, army, u) {
            return c;
        }
        let c = self.move_unit_inner(game, player, army, u);
        // A unit that rolled to Advance and found no move still makes its (empty) Advance.
        match c {
            Command::RemainStationary { player, unit }
                if game
                    .advance_roll
                    .is_some_and(|(a, b, _)| (a, b) == (army, u)) =>
            {
                empty_advance(player, unit)
            }
            c => c,
        }
    }

    fn move_unit_inner(&mut self, game: &Game, player: u8, army: usize, u: usize) -> Command {
        let id = game.unit_id(army, u).to_string();
        let stay = Command::RemainStationary {
            player,
            unit: id.clone(),
        };
        let range = OBJECTIVE_RANGE_HORIZONTAL_INCHES;
        let from = centre(game, army, u);
        let near = |p: Vec2| p.distance(from.truncate());
        let on_objective = game
            .scene
            .objectives
            .iter()
            .any(|o| near(o.at.vec()) <= range);
        if game.engaged(army, u) {
            if on_objective {
                return stay;
            }
            return self.fall_back(game, player, army, u).unwrap_or(stay);
        }
        let melee = self.fights(game, army, u);
        let closest = closest_enemy_and_distance(game, army, u);
        let m = game.unit_move_inches(army, u);
        if melee
            && needed_on(game, army, u).is_empty()
            && let Some((enemy, d)) = closest
            && d <= m + MELEE_SEEK_INCHES
            && d > MELEE_STOP_SHORT_INCHES
            && let Some(mv) =
                self.close_on(game, player, (army, u), (enemy, d), MELEE_STOP_SHORT_INCHES)
        {
            return mv;
        }
        // A unit sent to the place a secondary card asks for goes there ([`super::cards`]),
        // rolling to Advance first where its Move falls short.
        if let Some(goal) = self.card_goal(game, player, army, u) {
            if let Some(c) =
                self.advance_for(game, player, (army, u), goal.distance(from.truncate()))
            {
                return c;
            }
            if let Some(c) =
                self.move_towards(game, player, (army, u), goal.extend(0.0), (0.0, 0.5))
            {
                return c;
            }
        }
        let open = if nothing_left_to_score(game, player) {
            Vec::new()
        } else {
            self.open_objectives(game, player)
        };
        // A TRANSPORT with a unit aboard that alone holds a marker (its hull in range though
        // its centre is not) stays on it, its passengers getting out when the enemy or an
        // open marker comes in reach ([`Ai::disembark`]): driving off left the home marker
        // empty in round 1 (`hard` against `easy`, 24 pairings, 100 games each: 89.2% ->
        // 90.5% of decided games, layout 3 Ultramarines against Orks 73.6% -> 93.5%; `normal`
        // 88.7% -> 90.5%). The same rule for every unit holding a marker with less than its
        // centre cost layouts 4 and 5 up to 16 points.
        if self.carries(game, army, u) {
            // A TRANSPORT carrying a unit that fights delivers it: it drives at the closest
            // enemy unit, whatever marker it holds (parked on the home marker, it kept the
            // Boyz and the Warboss out of the game for two rounds).
            if self.delivers(game, army, u)
                && let Some((enemy, d)) = closest
                && d > DELIVERY_STOP_SHORT_INCHES + 0.5
                && let Some(mv) = self.close_on(
                    game,
                    player,
                    (army, u),
                    (enemy, d),
                    DELIVERY_STOP_SHORT_INCHES,
                )
            {
                return mv;
            }
            let holding = needed_on(game, army, u);
            if let Some(&(i, _)) = open.iter().find(|(i, _)| holding.contains(i)) {
                self.claim(game, player, i);
                return stay;
            }
        }
        if let Some(&(i, _)) = open.iter().find(|(_, p)| near(*p) <= range - 0.5) {
            self.claim(game, player, i);
            return stay;
        }
        let assigned = self.assigned_objective(game, player, army, u);
        let goal = match assigned {
            Some(a) => open.iter().find(|(i, _)| *i == a),
            None => open.iter().min_by(|a, b| near(a.1).total_cmp(&near(b.1))),
        };
        if let Some(&(i, p)) = goal {
            // `hard`: a fragile unit does not walk onto a marker where the enemy is expected
            // to destroy half its points or more, more than where it stands.
            if self.level == Level::Hard && fragile(game, army, u) {
                let threats = Threats::new(game, army, u);
                let there = threats.share((p - from.truncate()).extend(0.0));
                if there >= FRAGILE_THREAT_SHARE && there > threats.share(Vec3::ZERO) {
                    return stay;
                }
            }
            if let Some(c) = self.advance_for(game, player, (army, u), near(p) - (range - 0.5)) {
                return c;
            }
            self.claim(game, player, i);
            // Onto a marker: no lookahead penalty. A marker is held where the enemy can
            // reach it, and `hard` stopping short of it or swerving away cost more than it
            // saved (24 layout pairings against `easy`: 78.6% -> 81.2% of decided games).
            if let Some(c) = self.move_towards(game, player, (army, u), p.extend(0.0), (0.0, 0.5)) {
                return c;
            }
        }
        let Some((enemy, d)) = closest else {
            return stay;
        };
        let keep = if melee {
            MELEE_STOP_SHORT_INCHES
        } else {
            (longest_range(game, army, u) - 6.0).max(3.0)
        };
        if d > keep {
            if let Some(c) = self.advance_for(game, player, (army, u), d - keep) {
                return c;
            }
            if let Some(mv) = self.close_on(game, player, (army, u), (enemy, d), keep) {
                return mv;
            }
        }
        stay
    }

    /// A move of the unit ([`Ai::move_scored`]) towards the enemy unit `enemy`, `d` inches
    /// away at the closest, aiming to end `keep` inches from it; None when no move gains
    /// half an inch.
    fn close_on(
        &mut self,
        game: &Game,
        player: u8,
        (army, u): (usize, usize),
        (enemy, d): ((usize, usize), f32),
        keep: f32,
    ) -> Option<Command> {
        let from = centre(game, army, u);
        let c = centre(game, enemy.0, enemy.1);
        let short = d.min(keep + (c - from).truncate().length() - d);
        self.move_scored(game, player, (army, u), c, (short, 1.0))
    }

    /// An Advance roll ([`Command::Advance`]) for a unit `gap` inches short of where it is
    /// going (an objective, or the enemy unit it closes in on) when a Normal move falls short
    /// and Advancing costs nothing it could do this turn: no enemy unit within its Move plus
    /// the range of its guns that cannot shoot after Advancing (those without ASSAULT), nor
    /// (for a unit that fights) within its Move plus 12" (no charge), and the unit can make
    /// an Advance move at all (staying put is one: not for a unit out of Unit Coherency,
    /// whose rolled Advance would end in a refused move). `normal` and `hard`
    /// (Core Rules: Advance moves, ASSAULT, Unit Coherency).
    fn advance_for(
        &mut self,
        game: &Game,
        player: u8,
        (army, u): (usize, usize),
        gap: f32,
    ) -> Option<Command> {
        let m = game.unit_move_inches(army, u);
        if gap <= m - 0.1 || !advance_costs_nothing(game, player, army, u) {
            return None;
        }
        let c = Command::Advance {
            player,
            unit: game.unit_id(army, u).to_string(),
        };
        let need = if gap <= m + ADVANCE_GAP_INCHES {
            (gap - m + 0.1).ceil().clamp(1.0, 6.0) as u8
        } else {
            1
        };
        self.advance_need = Some((army, u, need));
        legal(game, &c).then_some(c)
    }

    /// A Command Re-roll of an Advance roll that fell short of what the unit needed, while
    /// the player has CP to spare (`hard`; Core Rules: Command Re-roll).
    fn advance_reroll(
        &mut self,
        game: &Game,
        player: u8,
        army: usize,
        u: usize,
    ) -> Option<Command> {
        let (a, b, roll) = game.advance_roll?;
        let (na, nb, need) = self.advance_need.take()?;
        if (a, b) != (army, u) || (na, nb) != (a, b) || roll >= need || self.level != Level::Hard {
            return None;
        }
        if game.cp_of(player) < Stratagem::CommandReroll.cost_in(game.scene.edition()) + 1 {
            return None;
        }
        let c = tactics::command_reroll(
            player,
            game.unit_id(army, u),
            crate::game::RerollRoll::Advance,
        );
        legal(game, &c).then_some(c)
    }

    /// Whether the unit's move this phase goes for the enemy (the first choice of
    /// [`Ai::move_unit`]): it fights, holds no objective alone, and the closest enemy unit is
    /// within its Move plus [`MELEE_SEEK_INCHES`] and not already within
    /// [`MELEE_STOP_SHORT_INCHES`].
    pub(super) fn seeks_melee(&self, game: &Game, army: usize, u: usize) -> bool {
        let m = game.unit_move_inches(army, u);
        self.fights(game, army, u)
            && closest_enemy_and_distance(game, army, u)
                .is_some_and(|(_, d)| d <= m + MELEE_SEEK_INCHES && d > MELEE_STOP_SHORT_INCHES)
            && needed_on(game, army, u).is_empty()
    }

    /// The objective the unit `u` heads for (`normal`, `hard`), of an assignment of the units
    /// still to move this phase to the objectives still open ([`Ai::open_objectives`], each
    /// taking as many units as it still needs): units already within range of one stay on
    /// it; the others and the places still open are matched by the Kuhn-Munkres algorithm
    /// (the `pathfinding` crate) at the least total cost, a pair costing the battle rounds
    /// the unit needs to get within range (its Moves, rounded up) times
    /// [`ARRIVAL_ROUND_WEIGHT`] plus the Moves themselves: so the most places are reached
    /// soonest, then with the least walking. Units that go for the enemy
    /// ([`Ai::seeks_melee`]) or are engaged take no objective, but `u` itself always takes
    /// part: it is asked only when its move at the enemy found no way (then it had no
    /// marker either and stayed put; the 6 weakest pairings against `easy`, 2,400 games:
    /// 79.2% -> 82.1% of decided games). Where the enemy's zone holds two markers or more,
    /// a place more than [`NO_PLACE_ROUNDS`] away is worth less than none (the unit then
    /// takes the nearest). None when `u` is given none (more units than places). Matching
    /// the pair fewest Moves apart first (greedy) let a unit take the marker it stood
    /// nearest while the only unit that could reach a second marker that turn was sent 40"
    /// away (`normal` against `easy`, 24 layout pairings: 84.4% -> 88.4% of decided games).
    pub(super) fn assigned_objective(
        &self,
        game: &Game,
        player: u8,
        army: usize,
        u: usize,
    ) -> Option<usize> {
        let range = OBJECTIVE_RANGE_HORIZONTAL_INCHES - 0.5;
        let open = self.open_objectives(game, player);
        if open.is_empty() {
            return None;
        }
        let mut need: Vec<(usize, Vec2, usize)> = open
            .iter()
            .map(|&(i, p)| {
                let total = if self.contested(game, player, p) {
                    2
                } else {
                    1
                };
                (i, p, total - self.claims(game, player, i).min(total))
            })
            .collect();
        let mut units: Vec<(usize, Vec2, f32)> = roots(game, player)
            .into_iter()
            .filter(|&v| {
                game.units[army][v].moved.is_none()
                    && !game.engaged(army, v)
                    && (v == u
                        || !(self.seeks_melee(game, army, v) || self.sent_to_card(game, player, v)))
            })
            .map(|v| {
                let m = game.unit_move_inches(army, v);
                (v, centre(game, army, v).truncate(), m.max(1.0))
            })
            .collect();
        // Units within range of an open objective stay there (`u` is not one of them: it
        // would have claimed it).
        units.retain(|&(_, at, _)| {
            let Some(slot) = need
                .iter_mut()
                .find(|(_, p, n)| *n > 0 && p.distance(at) <= range)
            else {
                return true;
            };
            slot.2 -= 1;
            false
        });
        let slots: Vec<(usize, Vec2)> = need
            .iter()
            .flat_map(|&(i, p, n)| std::iter::repeat_n((i, p), n))
            .collect();
        let k = units.iter().position(|&(v, ..)| v == u)?;
        if slots.is_empty() {
            return None;
        }
        // Integer costs (thousandths of a Move) for the matching.
        let cost = |unit: usize, slot: usize| -> i64 {
            let (_, at, m) = units[unit];
            let moves = (at.distance(slots[slot].1) - range).max(0.0) / m;
            ((moves.ceil() * ARRIVAL_ROUND_WEIGHT + moves) * 1000.0).round() as i64
        };
        // Units are the rows, every one matched. Where places are fewer, the columns past
        // them are "no place" at no cost (as many of them as units left over, so every
        // place is still filled). Where the enemy's zone holds two markers or more, every
        // unit also has a "no place" column at the cost of [`NO_PLACE_ROUNDS`] rounds: a
        // unit with no place nearer goes to the nearest open marker ([`Ai::move_unit`]).
        let (columns, no_place) = if zone_markers(game, opponent(player)).len() >= 2 {
            let rounds = NO_PLACE_ROUNDS * ARRIVAL_ROUND_WEIGHT * 1000.0;
            (slots.len() + units.len(), rounds.round() as i64)
        } else {
            (slots.len().max(units.len()), 0)
        };
        let weights = Matrix::from_fn(units.len(), columns, |(v, s)| {
            if s < slots.len() {
                cost(v, s)
            } else {
                no_place
            }
        });
        let (_, matched) = kuhn_munkres_min(&weights);
        slots.get(matched[k]).map(|&(i, _)| i)
    }

    /// Whether an enemy unit stands within [`CONTEST_INCHES`] of the point (contesting an objective there,
    /// or about to).
    fn contested(&self, game: &Game, player: u8, p: Vec2) -> bool {
        let Some(earmy) = game.army_of(opponent(player)) else {
            return false;
        };
        roots(game, opponent(player))
            .into_iter()
            .any(|e| centre(game, earmy, e).truncate().distance(p) <= CONTEST_INCHES)
    }

    /// The objectives a unit may still go for this phase, with their centres: those claimed
    /// by fewer of `player`'s units than they need (one; two where an enemy unit stands
    /// within [`CONTEST_INCHES`] of the marker, contesting or about to). In the first
    /// player's turn of the last round ([`only_denial_left`]) only markers with enemy models
    /// in range are open.
    fn open_objectives(&self, game: &Game, player: u8) -> Vec<(usize, Vec2)> {
        if game.army_of(opponent(player)).is_none() {
            return Vec::new();
        }
        let denial = only_denial_left(game, player);
        let them = usize::from(opponent(player) - 1);
        game.scene
            .objectives
            .iter()
            .enumerate()
            .filter(|&(i, _)| !denial || game.levels_of_control(i).0[them] > 0)
            .filter(|(i, o)| {
                let need = if self.contested(game, player, o.at.vec()) {
                    2
                } else {
                    1
                };
                self.claims(game, player, *i) < need
            })
            .map(|(i, o)| (i, o.at.vec()))
            .collect()
    }

    /// Scout moves (`normal`, `hard`): each unit with Scouts moves up to its Scouts distance
    /// straight towards the closest objective (or enemy unit) the engine lets it, the
    /// longest of the whole distance, 3/4 and 1/2 of it at up to 50 degrees off the line
    /// (the engine keeps it more than 9" from enemy models); then the step ends.
    pub(super) fn scouts_plus(&mut self, game: &Game, player: u8) -> Command {
        let Some(army) = game.army_of(player) else {
            return Command::EndPhase { player };
        };
        for u in roots(game, player) {
            let Some(inches) = game.scouts_inches(army, u) else {
                continue;
            };
            let key = super::key(game, player, &format!("scout-{u}"));
            if game.units[army][u].moved.is_some() || self.passed.contains(&key) {
                continue;
            }
            self.passed.insert(key);
            let from = centre(game, army, u).truncate();
            let goal = game
                .scene
                .objectives
                .iter()
                .map(|o| o.at.vec())
                .min_by(|a, b| a.distance(from).total_cmp(&b.distance(from)))
                .or_else(|| {
                    closest_enemy(game, army, u).map(|(a, e)| centre(game, a, e).truncate())
                });
            let Some(goal) = goal else {
                continue;
            };
            let dir = (goal - from).normalize_or_zero();
            let reach = (inches - 0.1).min(goal.distance(from));
            let id = game.unit_id(army, u).to_string();
            for angle in [0.0f32, 25.0, -25.0, 50.0, -50.0] {
                let d = super::rotated(dir, angle);
                for f in [1.0, 0.75, 0.5] {
                    let c = Command::Move {
                        player,
                        unit: id.clone(),
                        mode: MoveMode::Normal,
                        paths: shifted(game, army, u, (d * reach * f).extend(0.0)),
                    };
                    if reach * f > 0.5 && legal(game, &c) {
                        return c;
                    }
                }
            }
        }
        Command::EndPhase { player }
    }

    /// Whether the unit plays to fight in melee: a TRANSPORT when it has a unit embarked
    /// (which it delivers), any other unit when it fights better than it shoots. An empty
    /// TRANSPORT holds objective markers (a Trukk has OC 2) rather than chasing the enemy
    /// with its wheels: `hard` against `easy`, the 6 weakest pairings at 4 seeds (2,400
    /// games): 82.1% -> 83.2% of decided games.
    fn fights(&self, game: &Game, army: usize, u: usize) -> bool {
        if game.has_keyword(army, u, "TRANSPORT") {
            return self.carries(game, army, u);
        }
        melee_minded(game, army, u)
    }

    /// Whether the TRANSPORT (`army`, `t`) has a unit embarked.
    pub(super) fn carries(&self, game: &Game, army: usize, t: usize) -> bool {
        game.units[army]
            .iter()
            .any(|s| s.location == Location::Embarked(t))
    }

    /// Whether the TRANSPORT (`army`, `t`) carries a unit that fights ([`Ai::fights`]).
    fn delivers(&self, game: &Game, army: usize, t: usize) -> bool {
        (0..game.units[army].len()).any(|p| {
            game.units[army][p].location == Location::Embarked(t) && self.fights(game, army, p)
        })
    }

    /// A Normal move towards `to` like the first player's, with `hard`'s lookahead: each end
    /// also pays for the damage the enemy could do there ([`Ai::threat_inches`]).
    fn move_scored(
        &mut self,
        game: &Game,
        player: u8,
        unit: (usize, usize),
        to: Vec3,
        stop: (f32, f32),
    ) -> Option<Command> {
        if self.level == Level::Hard {
            let threats = Threats::new(game, unit.0, unit.1);
            let penalty = move |v: Vec3| threats.inches(v);
            self.move_towards_with(game, player, unit, to, stop, Some(&penalty))
        } else {
            self.move_towards_with(game, player, unit, to, stop, None)
        }
    }

    /// Fall Back when staying engaged loses more than it deals: the enemy's melee value
    /// against the unit is more than 1.5 times its own, or the unit shoots better than it
    /// fights. The move goes straight away from the closest enemy model, the longest of the
    /// unit's Move, 3/4 and 1/2 of it that the engine accepts.
    fn fall_back(&mut self, game: &Game, player: u8, army: usize, u: usize) -> Option<Command> {
        let earmy = game.army_of(opponent(player))?;
        let engaged: Vec<usize> = roots(game, opponent(player))
            .into_iter()
            .filter(|&e| game.units_engaged((army, u), (earmy, e)))
            .collect();
        let dealt: f64 = engaged
            .iter()
            .map(|&e| rough_unit_points(game, (army, u), (earmy, e), true, None))
            .sum();
        let taken: f64 = engaged
            .iter()
            .map(|&e| rough_unit_points(game, (earmy, e), (army, u), true, None))
            .sum();
        let shoots = engaged
            .iter()
            .map(|&e| rough_unit_points(game, (army, u), (earmy, e), false, None))
            .fold(0.0, f64::max);
        if taken <= 1.5 * dealt && shoots <= dealt {
            return None;
        }
        let mine = game.live_models(army, u);
        let theirs: Vec<ModelRef> = engaged
            .iter()
            .flat_map(|&e| game.live_models(earmy, e))
            .collect();
        let (_, ca, cb) = super::closest_pair(game, &mine, &theirs)?;
        let away = (ca - cb).normalize_or_zero();
        let m = game.unit_move_inches(army, u) - 0.1;
        let id = game.unit_id(army, u).to_string();
        for turn in [0.0f32, 30.0, -30.0, 60.0, -60.0] {
            let (s, c) = turn.to_radians().sin_cos();
            let dir = Vec2::new(away.x * c - away.y * s, away.x * s + away.y * c);
            for f in [1.0, 0.75, 0.5] {
                let cmd = Command::Move {
                    player,
                    unit: id.clone(),
                    mode: MoveMode::FallBack,
                    paths: shifted(game, army, u, (dir * m * f).extend(0.0)),
                };
                if legal(game, &cmd) {
                    return Some(cmd);
                }
            }
        }
        None
    }

    /// An embarked unit disembarks (before its TRANSPORT moves) when the TRANSPORT is close
    /// enough for it to move and charge the closest enemy unit, or to reach an objective.
    fn disembark(&mut self, game: &Game, player: u8, army: usize) -> Option<Command> {
        for u in game.unit_roots(army) {
            let Location::Embarked(t) = game.units[army][u].location else {
                continue;
            };
            if game.live_models(army, t).is_empty() {
                continue;
            }
            // After the TRANSPORT's Normal move, a unit that fights gets out when an enemy
            // unit is within a charge of where it would stand (it may still charge).
            if let Some(moved) = game.units[army][t].moved {
                if moved != crate::rules::movement::Moved::Moved(MoveMode::Normal)
                    || !self.fights(game, army, u)
                {
                    continue;
                }
                let key = super::key(game, player, &format!("disembark-after-{u}"));
                if self.passed.contains(&key) {
                    continue;
                }
                self.passed.insert(key);
                if closest_enemy_and_distance(game, army, t)
                    .is_none_or(|(_, d)| d > DISEMBARK_RANGE_INCHES + DELIVERY_CHARGE_INCHES)
                {
                    continue;
                }
                if let Some(cmd) = self.disembark_towards_enemy(game, player, army, (u, t)) {
                    return Some(cmd);
                }
                continue;
            }
            let key = super::key(game, player, &format!("disembark-{u}"));
            if self.passed.contains(&key) {
                continue;
            }
            self.passed.insert(key);
            let m = game.unit_move_inches(army, u);
            let reach = DISEMBARK_RANGE_INCHES + m;
            let enemy_close =
                closest_enemy_and_distance(game, army, t).is_some_and(|(_, d)| d <= reach + 9.0);
            let at = centre(game, army, t).truncate();
            let objective_close = game.scene.objectives.iter().enumerate().any(|(i, o)| {
                game.objectives[i] != Some(player)
                    && o.at.vec().distance(at) <= reach + OBJECTIVE_RANGE_HORIZONTAL_INCHES
            });
            if !enemy_close && !objective_close && game.battle_round < RESERVES_LAST_ROUND {
                continue;
            }
            if let Some(cmd) = self.disembark_towards_enemy(game, player, army, (u, t)) {
                return Some(cmd);
            }
        }
        None
    }

    /// The Disembark of unit `u` from TRANSPORT `t`, its models ringed on the side of the
    /// closest enemy unit; None when the engine refuses it.
    fn disembark_towards_enemy(
        &self,
        game: &Game,
        player: u8,
        army: usize,
        (u, t): (usize, usize),
    ) -> Option<Command> {
        let hull = game.solid(game.live_models(army, t)[0]);
        let goal = closest_enemy(game, army, t)
            .map(|(a, e)| centre(game, a, e).truncate())
            .unwrap_or(hull.centre);
        let models = ring_placements(game, army, u, &hull, goal)?;
        let cmd = Command::Disembark {
            player,
            unit: game.unit_id(army, u).to_string(),
            models,
        };
        legal(game, &cmd).then_some(cmd)
    }

    /// A Reserves unit's arrival in the Reinforcements step (`rapid_ingress`: the unit that
    /// Rapid Ingress lets arrive in the opponent's turn): where it is more than 9" from every
    /// enemy model (Strategic Reserves: wholly within 6" of a battlefield edge, and out of
    /// the enemy's deployment zone in round 2), as close as it can be to an objective no
    /// friend holds (or 6" closer to an enemy unit). In round 2 a unit waits when nothing is
    /// within its Move + 12"; in round 3 it arrives wherever it fits.
    pub(super) fn arrival(
        &mut self,
        game: &Game,
        player: u8,
        army: usize,
        rapid_ingress: bool,
    ) -> Option<Command> {
        if game.battle_round < RESERVES_FIRST_ROUND {
            return None;
        }
        for u in game.unit_roots(army) {
            let Location::Reserves(kind) = game.units[army][u].location else {
                continue;
            };
            if rapid_ingress && game.rapid_ingress.map(|(_, r)| r) != Some(u) {
                continue;
            }
            let key = super::key(game, player, &format!("arrive-{u}"));
            if self.passed.contains(&key) {
                continue;
            }
            self.passed.insert(key);
            // A unit brought in by Rapid Ingress arrives wherever it fits (its CP is spent).
            let must = rapid_ingress || game.battle_round >= RESERVES_LAST_ROUND;
            if let Some(c) = self.arrival_of(game, player, army, u, kind, must) {
                return Some(c);
            }
        }
        None
    }

    fn arrival_of(
        &self,
        game: &Game,
        player: u8,
        army: usize,
        u: usize,
        kind: ReserveKind,
        must: bool,
    ) -> Option<Command> {
        let models = bases(game, army, u);
        let radius = models
            .iter()
            .map(|(_, b)| b.bounding_radius_inches() * 2.0 + 0.6)
            .sum::<f32>()
            .sqrt()
            * 1.6
            + 1.0;
        let enemies: Vec<(Vec2, f32)> = game
            .enemy_models(army)
            .into_iter()
            .map(|r| {
                let s = game.solid(r);
                (s.centre, s.base.bounding_radius_inches())
            })
            .collect();
        let clear = game.scene.edition().reserves_enemy_distance_inches + 0.5;
        let far_enough = |p: Vec2| {
            enemies
                .iter()
                .all(|(c, r)| p.distance(*c) - r - radius > clear)
        };
        let (w, h) = (
            crate::rules::constants::BOARD_WIDTH_INCHES,
            crate::rules::constants::BOARD_DEPTH_INCHES,
        );
        let claimed: Vec<Vec2> = game
            .scene
            .objectives
            .iter()
            .enumerate()
            .filter(|(i, _)| game.objectives[*i] != Some(player))
            .map(|(_, o)| o.at.vec())
            .collect();
        let goal = |p: Vec2| -> f32 {
            let to_enemy = enemies
                .iter()
                .map(|(c, _)| p.distance(*c))
                .fold(f32::INFINITY, f32::min);
            let to_objective = claimed
                .iter()
                .map(|o| p.distance(*o))
                .fold(f32::INFINITY, f32::min);
            to_objective.min(to_enemy + 6.0)
        };
        let enemy_zone = game
            .scene
            .deployment
            .zone_of(opponent(player))
            .unwrap_or_default();
        let band = STRATEGIC_RESERVES_EDGE_INCHES;
        let step = 2.0;
        // Candidate centres with the zone the unit is set up in around each.
        let mut candidates: Vec<(Vec2, Vec<Vec2>)> = Vec::new();
        match kind {
            ReserveKind::DeepStrike => {
                let mut y = radius;
                while y < h - radius {
                    let mut x = radius;
                    while x < w - radius {
                        let p = Vec2::new(x, y);
                        candidates
                            .push((p, rect(p - Vec2::splat(radius), p + Vec2::splat(radius))));
                        x += step;
                    }
                    y += step;
                }
            }
            ReserveKind::StrategicReserves => {
                // Along each edge, the strip within 6" of it.
                let mut t = radius;
                while t < w - radius {
                    for (p, lo, hi) in [
                        (
                            Vec2::new(t, band / 2.0),
                            Vec2::new(t - radius, 0.0),
                            Vec2::new(t + radius, band),
                        ),
                        (
                            Vec2::new(t, h - band / 2.0),
                            Vec2::new(t - radius, h - band),
                            Vec2::new(t + radius, h),
                        ),
                    ] {
                        candidates.push((p, rect(lo, hi)));
                    }
                    t += step;
                }
                let mut t = radius;
                while t < h - radius {
                    for (p, lo, hi) in [
                        (
                            Vec2::new(band / 2.0, t),
                            Vec2::new(0.0, t - radius),
                            Vec2::new(band, t + radius),
                        ),
                        (
                            Vec2::new(w - band / 2.0, t),
                            Vec2::new(w - band, t - radius),
                            Vec2::new(w, t + radius),
                        ),
                    ] {
                        candidates.push((p, rect(lo, hi)));
                    }
                    t += step;
                }
                if game.battle_round
                    <= crate::rules::constants::STRATEGIC_RESERVES_NO_ENEMY_ZONE_ROUND
                {
                    candidates.retain(|(p, _)| !polygon::contains(&enemy_zone, *p));
                }
            }
        }
        let mut spots: Vec<(f32, Vec<Vec2>)> = candidates
            .into_iter()
            .filter(|(p, _)| far_enough(*p))
            .map(|(p, zone)| (goal(p), zone))
            .collect();
        spots.sort_by(|a, b| a.0.total_cmp(&b.0));
        // Where it scores a card that asks for a place (Behind Enemy Lines...), it arrives
        // there.
        let set_up = |zone: &[Vec2]| {
            let c = Command::SetUpReinforcements {
                player,
                unit: game.unit_id(army, u).to_string(),
                models: placements_in(game, army, u, zone)?,
            };
            legal(game, &c).then_some(c)
        };
        if let Some(c) = super::cards::arrival(game, player, radius, &spots, set_up) {
            return Some(c);
        }
        let m = game.unit_move_inches(army, u);
        for (score, zone) in spots.into_iter().take(48) {
            // In round 2 only where it can act at once: charge or score.
            if !must && score > m + game.charge_range_inches() {
                break;
            }
            let Some(models) = placements_in(game, army, u, &zone) else {
                continue;
            };
            let c = Command::SetUpReinforcements {
                player,
                unit: game.unit_id(army, u).to_string(),
                models,
            };
            if legal(game, &c) {
                return Some(c);
            }
        }
        None
    }

    /// The Charge phase for `normal` and `hard`: Tank Shock after a VEHICLE's charge move;
    /// the charge move of a declared charge (a Command Re-roll on a failed roll); else the
    /// charge with the highest expected value (odds x melee value, less half what the target
    /// deals back) when it is more than [`CHARGE_MIN_EXPECTED_POINTS`] and the unit fights at
    /// least as well as it shoots.
    pub(super) fn charge_plus(&mut self, game: &Game, player: u8) -> Command {
        if let Some(c) = tactics::tank_shock(game, player) {
            let key = super::key(game, player, "tank-shock");
            if !self.passed.contains(&key) {
                self.passed.insert(key);
                return c;
            }
        }
        let army = game.army_of(player).expect("player has an army");
        let Some(earmy) = game.army_of(opponent(player)) else {
            return Command::EndPhase { player };
        };
        if let Some(pending) = game.charge.as_ref().filter(|c| c.army == army) {
            return self.charge_move(
                game,
                player,
                pending.unit,
                &pending.targets.clone(),
                pending.dice,
            );
        }
        let mut best: Option<(f64, Command, String)> = None;
        for u in roots(game, player) {
            let id = game.unit_id(army, u).to_string();
            if game.units[army][u].declared_charge
                || self.passed.contains(&super::key(game, player, &id))
            {
                continue;
            }
            if game.weapon_options(army, u, true).is_empty() {
                continue;
            }
            let holding = needed_on(game, army, u);
            for e in roots(game, opponent(player)) {
                if game.unit_distance((army, u), (earmy, e)) > game.charge_range_inches() {
                    continue;
                }
                if !holding.is_empty() {
                    // A unit that alone holds an objective charges only a unit on it.
                    let stays = holding.iter().all(|&i| {
                        let at = game.scene.objectives[i].at.vec();
                        game.live_models(earmy, e).iter().any(|r| {
                            game.solid(*r).centre.distance(at)
                                <= OBJECTIVE_RANGE_HORIZONTAL_INCHES + 1.0
                        })
                    });
                    if !stays {
                        continue;
                    }
                }
                let t = game.unit_id(earmy, e).to_string();
                let Ok(odds) = game.charge_odds(player, &id, std::slice::from_ref(&t)) else {
                    continue;
                };
                if odds.probability < CHARGE_MIN_ODDS {
                    continue;
                }
                let dealt = rough_unit_points(game, (army, u), (earmy, e), true, None);
                let taken = rough_unit_points(game, (earmy, e), (army, u), true, None);
                let shoots = rough_unit_points(game, (army, u), (earmy, e), false, None);
                if dealt < shoots {
                    continue;
                }
                let ev = odds.probability * (dealt - 0.5 * taken);
                if ev > CHARGE_MIN_EXPECTED_POINTS && best.as_ref().is_none_or(|(b, _, _)| ev > *b)
                {
                    best = Some((
                        ev,
                        Command::DeclareCharge {
                            player,
                            unit: id.clone(),
                            // 11th: declared without targets, chosen after the roll.
                            targets: if game.scene.edition().charge_targets_after_roll {
                                Vec::new()
                            } else {
                                vec![t.clone()]
                            },
                        },
                        t,
                    ));
                }
            }
        }
        if let Some((_, c, t)) = best {
            if let Some(unit) = c.unit() {
                self.passed.insert(super::key(game, player, unit));
            }
            if legal(game, &c) {
                self.charge_intent = c.unit().map(|unit| (unit.to_string(), t));
                return c;
            }
        }
        Command::EndPhase { player }
    }

    /// Reactions for `normal` and `hard` in the other player's turn or step: Reserves
    /// declared in set-up, Fire Overwatch, Heroic Intervention, Counter-offensive, Rapid
    /// Ingress (at the end of the opponent's moves) and that unit's arrival.
    pub(super) fn react_plus(&mut self, game: &Game, player: u8) -> Option<Command> {
        let army = game.army_of(player)?;
        if game.stage == Stage::Setup {
            let waiting: Vec<usize> = game
                .unit_roots(army)
                .into_iter()
                .filter(|&u| game.units[army][u].location == Location::NotDeployed)
                .collect();
            return self.declare_reserves(game, player, army, &waiting);
        }
        if game.stage != Stage::Battle {
            return None;
        }
        // A Heroic Intervention declared: its charge move.
        if let Some(pending) = game.charge.as_ref().filter(|c| c.army == army) {
            let (unit, targets, dice) = (pending.unit, pending.targets.clone(), pending.dice);
            return Some(self.charge_move(game, player, unit, &targets, dice));
        }
        if game.phase == Phase::Movement && game.active_player != player {
            if game.rapid_ingress.is_some_and(|(a, _)| a == army) {
                return self.arrival(game, player, army, true);
            }
            if let Some(c) = self.rapid_ingress(game, player, army) {
                return Some(c);
            }
        }
        tactics::overwatch(game, player)
            .or_else(|| tactics::heroic_intervention(game, player))
            .or_else(|| tactics::counter_offensive(game, player))
    }

    /// Rapid Ingress (1 CP) once the opponent's units on the table have all moved (or their
    /// Reinforcements step has begun), for a Reserves unit that has somewhere worth arriving
    /// (in battle round 2 a place from which it can charge or score; from round 3 anywhere it
    /// fits). The place is looked for in the game as it would be after the Stratagem, since
    /// only then may the unit arrive in the opponent's turn (Core Rules: Rapid Ingress).
    fn rapid_ingress(&mut self, game: &Game, player: u8, army: usize) -> Option<Command> {
        if game.battle_round < RESERVES_FIRST_ROUND
            || game.cp_of(player) < Stratagem::RapidIngress.cost_in(game.scene.edition())
            || game.rapid_ingress.is_some()
        {
            return None;
        }
        let earmy = game.army_of(opponent(player))?;
        // Embarked units are not on the table: they make no move of their own.
        let all_moved = roots(game, opponent(player))
            .iter()
            .filter(|&&e| game.units[earmy][e].location == Location::OnTable)
            .all(|&e| game.units[earmy][e].moved.is_some());
        if !all_moved && !game.reinforcements_step {
            return None;
        }
        let key = super::key(game, player, "rapid-ingress");
        if self.passed.contains(&key) {
            return None;
        }
        self.passed.insert(key);
        // Where the unit could arrive is asked of the game after the Stratagem: before it,
        // the engine lets no unit arrive in the opponent's turn.
        game.unit_roots(army)
            .into_iter()
            .filter_map(|u| match game.units[army][u].location {
                Location::Reserves(kind) => Some((u, kind)),
                _ => None,
            })
            .map(|(u, kind)| {
                let c = Command::UseStratagem {
                    player,
                    stratagem: Stratagem::RapidIngress,
                    unit: game.unit_id(army, u).to_string(),
                    target: None,
                    reroll: None,
                };
                (u, kind, c)
            })
            .find(|(u, kind, c)| {
                let must = game.battle_round >= RESERVES_LAST_ROUND;
                super::trial(game, c).is_some_and(|after| {
                    self.arrival_of(&after, player, army, *u, *kind, must)
                        .is_some()
                })
            })
            .map(|(_, _, c)| c)
    }
}

/// `hard`'s lookahead on the opponent's reply to a move: each enemy unit, where it stands and
/// how far its guns and its charge reach, with the points it is expected to destroy of the
/// moving unit ([`tactics::rough_unit_points`]).
struct Threats {
    enemies: Vec<(Vec2, f32, f64, f32, f64)>,
    from: Vec2,
    unit_points: f64,
}

impl Threats {
    fn new(game: &Game, army: usize, unit: usize) -> Self {
        let player = game.player_of(army);
        let mut enemies = Vec::new();
        if let Some(earmy) = game.army_of(opponent(player)) {
            for e in roots(game, opponent(player)) {
                let at = centre(game, earmy, e).truncate();
                let m = game.unit_move_inches(earmy, e);
                let shoot = rough_unit_points(game, (earmy, e), (army, unit), false, None);
                let fight = rough_unit_points(game, (earmy, e), (army, unit), true, None);
                enemies.push((at, longest_range(game, earmy, e) + m, shoot, m + 9.0, fight));
            }
        }
        let points = game.scene.armies[army].units[unit].points.unwrap_or(100);
        Threats {
            enemies,
            from: centre(game, army, unit).truncate(),
            unit_points: f64::from(points.max(1)),
        }
    }

    /// Inches of penalty for ending a move shifted by `v`: the expected points the enemy
    /// could destroy there (guns in reach, charges within Move + 9"), as a share of the
    /// unit's points, times [`THREAT_WEIGHT_INCHES`].
    fn inches(&self, v: Vec3) -> f32 {
        THREAT_WEIGHT_INCHES * self.share(v)
    }

    /// The expected points the enemy could destroy of the unit shifted by `v` (guns in
    /// reach, half of the charges within Move + 9"), as a share of its points (at most 2).
    fn share(&self, v: Vec3) -> f32 {
        let at = self.from + v.truncate();
        let threat: f64 = self
            .enemies
            .iter()
            .map(|(c, gun, shoot, charge, fight)| {
                let d = c.distance(at);
                let mut t = 0.0;
                if d <= *gun {
                    t += shoot;
                }
                if d <= *charge {
                    t += 0.5 * fight;
                }
                t
            })
            .sum();
        (threat / self.unit_points).min(2.0) as f32
    }
}

/// `hard`'s targets: weapon by weapon, the target where the weapon adds the most to what the
/// unit's weapons already given to that target are expected to destroy (exact
/// distributions, [`Game::preview_attacks`]), counting a share [`WIPE_BONUS_SHARE`] of the
/// target's points times the chance that the unit is destroyed whole. Returns the total
/// value and the assignments.
pub fn focused_targets(
    game: &Game,
    player: u8,
    id: &str,
    options: &[WeaponOption],
    melee: bool,
) -> (f64, Vec<WeaponTarget>) {
    let Some(earmy) = game.army_of(opponent(player)) else {
        return (0.0, Vec::new());
    };
    let targets: Vec<(usize, String)> = roots(game, opponent(player))
        .into_iter()
        .map(|u| (u, game.unit_id(earmy, u).to_string()))
        .collect();
    // Units standing on objectives count more: destroying them takes or frees the marker.
    let on_objective = |unit: usize| -> f64 {
        let at = centre(game, earmy, unit).truncate();
        let held = game
            .scene
            .objectives
            .iter()
            .any(|o| o.at.vec().distance(at) <= OBJECTIVE_RANGE_HORIZONTAL_INCHES + 1.0);
        if held { OBJECTIVE_TARGET_FACTOR } else { 1.0 }
    };
    // Each assignment is measured on the table once, however many loadouts it is tried in.
    let mut memo = crate::game::PreviewMemo::default();
    let mut value_of = |weapons: &[WeaponTarget], unit: usize| -> f64 {
        if weapons.is_empty() {
            return 0.0;
        }
        game.preview_attacks_memo(player, id, weapons, melee, &mut memo)
            .map(|p| {
                p.iter()
                    .map(|p| {
                        let d = &p.distribution;
                        let wipe = d.models_destroyed.last().copied().unwrap_or(0.0);
                        let per = value_per_model(game, earmy, unit);
                        (super::damage_points(game, earmy, unit, d)
                            + WIPE_BONUS_SHARE * wipe * per * p.target_models as f64)
                            * on_objective(unit)
                    })
                    .sum()
            })
            .unwrap_or(f64::NEG_INFINITY)
    };
    let mut given: Vec<Vec<WeaponTarget>> = vec![Vec::new(); targets.len()];
    let mut now: Vec<f64> = vec![0.0; targets.len()];
    for o in options {
        let mut best: Option<(f64, usize, WeaponTarget, f64)> = None;
        for (i, (u, t)) in targets.iter().enumerate() {
            for p in o.profile_choices() {
                let wt = o.at(t, p);
                let mut with = given[i].clone();
                with.push(wt.clone());
                let v = value_of(&with, *u);
                let gain = v - now[i];
                if gain > 0.0 && best.as_ref().is_none_or(|(g, ..)| gain > *g) {
                    best = Some((gain, i, wt, v));
                }
            }
        }
        if let Some((_, i, wt, v)) = best {
            given[i].push(wt);
            now[i] = v;
        }
    }
    let out: Vec<WeaponTarget> = given.into_iter().flatten().collect();
    (now.iter().sum(), out)
}

/// The objective markers `player`'s units with Move `movement` (inches) could hold after
/// their first Normal move: those in the deployment zone, or within `movement` plus
/// [`FIRST_MOVE_MARKER_EXTRA_INCHES`] of its edge. `normal` and `hard` keep a unit in
/// Strategic Reserves only where this is at most one (the home marker): where a second marker is in
/// reach, the unit kept off the table was the one that would hold it in round 1, and holding
/// one marker fewer in rounds 1 and 2 lost more than the reserve won (24 layout pairings
/// against `easy`). Core Rules: Strategic Reserves; Only War (markers held from round 2).
pub fn markers_in_first_move(game: &Game, player: u8, movement: f32) -> usize {
    let Some(zone) = game.scene.deployment.zone_of(player) else {
        return 0;
    };
    let reach = movement + FIRST_MOVE_MARKER_EXTRA_INCHES;
    game.scene
        .objectives
        .iter()
        .filter(|o| {
            let p = o.at.vec();
            polygon::contains(&zone, p) || polygon::distance_to_boundary(&zone, p) <= reach
        })
        .count()
}
