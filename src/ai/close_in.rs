//! Charge, Pile-in and Consolidation moves made model by model (`normal` and `hard`): each
//! model goes to its own spot, into base-to-base contact with an enemy model where it can
//! reach one, else into the second rank (base contact with a friend who touches an enemy) or
//! within Engagement Range, else as close to the enemy as its move allows. The first computer
//! opponent moves the whole unit along one line, which leaves most of a wide unit out of the
//! fight.
//!
//! Core Rules: Charge phase (Charge move), Fight phase (Pile In, Consolidate: which models
//! fight, the second rank); shared/RULES.md: Fight phase (which models fight).

use crate::game::base_contact::{CONTACT_GAP_INCHES, contact_spot, spot_at_gap};
use crate::game::sight::ModelRef;
use crate::game::{Command, Game, ModelPath};
use crate::geometry::measure::{bases_overlap, model_distance};
use crate::geometry::{ModelSolid, Vec2};
use crate::rules::constants::{
    BASE_CONTACT_INCHES, ENGAGEMENT_RANGE_HORIZONTAL_INCHES, MEASURE_TOLERANCE_INCHES,
};
use crate::rules::engagement::within_engagement_range_in;

/// Closest enemy models a model tries to reach.
const ENEMIES_TRIED: usize = 3;

/// Degrees to either side of the straight line that a spot touching a model may lie.
const SIDES_DEGREES: [f32; 9] = [0.0, 20.0, -20.0, 40.0, -40.0, 60.0, -60.0, 85.0, -85.0];

/// Degrees off the straight line at which a one-model unit's path may bend round a wall.
const DETOUR_DEGREES: [f32; 7] = [20.0, -20.0, 35.0, -35.0, 50.0, -50.0, 0.0];

/// The gap to an enemy model at which a one-model unit that cannot reach base contact
/// (a wall between) still ends within Engagement Range (inches).
const ENGAGED_GAP_INCHES: f32 = ENGAGEMENT_RANGE_HORIZONTAL_INCHES - 0.1;

/// Bent paths tried at most (each is one check by the engine).
const DETOURS_TRIED: usize = 60;

/// Inches kept off the longest move, so that measuring cannot tip a move over its allowance.
const SHORT_OF_ALLOWANCE_INCHES: f32 = 0.02;

/// A move of every model of the combined unit (`army`, `root`) of up to `allowance` inches,
/// model by model (closest to the enemy first), checked by the engine: the command `make`
/// builds from the paths, with [`Game::with_base_contact`] applied; None when the engine
/// refuses it or no model moves. `targets` limits the enemy units aimed at (a charge's
/// targets); None aims at every enemy unit. Each model ends where it fights best of the spots
/// it can reach without ending on another model: in base contact with an enemy model, else
/// in base contact with a friend who touches one or within Engagement Range of one, else as
/// close to its closest enemy model as it gets; a model that gets no closer stays.
pub(crate) fn close_in(
    game: &Game,
    (army, root): (usize, usize),
    allowance: f32,
    targets: Option<&[usize]>,
    make: impl Fn(Vec<ModelPath>) -> Command,
) -> Option<Command> {
    let reach = allowance - SHORT_OF_ALLOWANCE_INCHES;
    if reach <= 0.0 {
        return None;
    }
    let mine = game.live_models(army, root);
    let enemies: Vec<(ModelRef, ModelSolid)> = game
        .enemy_models(army)
        .into_iter()
        .filter(|e| targets.is_none_or(|t| t.contains(&e.unit)))
        .map(|e| (e, game.solid(e)))
        .collect();
    if mine.is_empty() || enemies.is_empty() {
        return None;
    }
    // Every model not of this unit stands where it is; this unit's models where they end.
    let others: Vec<ModelSolid> = super::others_near(game, army, root, reach);
    let gap = |s: &ModelSolid, e: &ModelSolid| model_distance(s, e).distance;
    let closest = |s: &ModelSolid| {
        enemies
            .iter()
            .map(|(_, e)| gap(s, e))
            .fold(f32::INFINITY, f32::min)
    };
    let mut order: Vec<(f32, ModelRef, ModelSolid)> = mine
        .iter()
        .map(|r| {
            let s = game.solid(*r);
            (closest(&s), *r, s)
        })
        .collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Where each model of the unit stands now: its start until it is placed.
    let mut at: Vec<ModelSolid> = order.iter().map(|(_, _, s)| *s).collect();
    let mut touching: Vec<bool> = vec![false; order.len()];
    let mut moved = vec![false; order.len()];
    for i in 0..order.len() {
        let (start_gap, _, start) = order[i];
        if start_gap <= BASE_CONTACT_INCHES {
            touching[i] = true;
            continue;
        }
        let near = nearest(&start, &enemies);
        let first = *near[0];
        let mut spots: Vec<Vec2> = Vec::new();
        for e in near.iter().take(ENEMIES_TRIED) {
            spots.extend(
                SIDES_DEGREES
                    .iter()
                    .filter_map(|&s| contact_spot(&start, e, s)),
            );
        }
        for (j, friend) in at.iter().enumerate() {
            if j != i && touching[j] {
                spots.extend(
                    SIDES_DEGREES
                        .iter()
                        .filter_map(|&s| contact_spot(&start, friend, s)),
                );
            }
        }
        let dir = (first.centre - start.centre).normalize_or_zero();
        for f in [1.0, 0.75, 0.5, 0.25] {
            spots.push(start.centre + dir * reach * f);
        }
        let mut best: Option<(f32, ModelSolid, bool)> = None;
        for spot in spots {
            if spot.distance(start.centre) > reach {
                continue;
            }
            let mut end = start;
            end.centre = spot;
            let blocked = others.iter().any(|o| bases_overlap(&end, o))
                || at
                    .iter()
                    .enumerate()
                    .any(|(j, o)| j != i && bases_overlap(&end, o));
            if blocked {
                continue;
            }
            let to_first = gap(&end, &first);
            let contact = enemies
                .iter()
                .any(|(_, e)| gap(&end, e) <= BASE_CONTACT_INCHES * 0.8);
            if to_first > BASE_CONTACT_INCHES * 0.8
                && to_first >= gap(&start, &first) - 2.0 * MEASURE_TOLERANCE_INCHES
            {
                continue;
            }
            let second_rank = at
                .iter()
                .enumerate()
                .any(|(j, f)| j != i && touching[j] && gap(&end, f) <= BASE_CONTACT_INCHES * 0.8);
            let engaged = enemies
                .iter()
                .any(|(_, e)| within_engagement_range_in(game.scene.edition(), &end, e, &[]));
            let score = if contact {
                0.0
            } else if second_rank || engaged {
                1.0
            } else {
                2.0 + closest(&end)
            } + 0.01 * spot.distance(start.centre);
            if best.as_ref().is_none_or(|(b, _, _)| score < *b) {
                best = Some((score, end, contact));
            }
        }
        if let Some((_, end, contact)) = best {
            at[i] = end;
            touching[i] = contact;
            moved[i] = true;
        }
    }
    let paths: Vec<ModelPath> = order
        .iter()
        .enumerate()
        .filter(|(i, _)| moved[*i])
        .map(|(i, (_, r, _))| ModelPath {
            model: r.model,
            unit: Some(game.unit_id(army, r.unit).to_string()),
            path: vec![(at[i].centre.x, at[i].centre.y, at[i].z)],
            facing: None,
        })
        .collect();
    if paths.is_empty() {
        return None;
    }
    let c = game.with_base_contact(&make(paths));
    if game.check(&c).is_ok() {
        return Some(c);
    }
    match order.as_slice() {
        [(_, r, start)] => detour(game, *r, start, reach, &enemies, &others, &make),
        _ => None,
    }
}

/// For a unit of one model (a VEHICLE or MONSTER, which cannot move through ruin walls): a
/// move into base contact with one of the closest enemy models along a path with one bend,
/// out to either side of the straight line, of at most `reach` inches; the first the engine
/// accepts, shortest first.
fn detour(
    game: &Game,
    r: ModelRef,
    start: &ModelSolid,
    reach: f32,
    enemies: &[(ModelRef, ModelSolid)],
    others: &[ModelSolid],
    make: &impl Fn(Vec<ModelPath>) -> Command,
) -> Option<Command> {
    let near = nearest(start, enemies);
    let mut tries: Vec<(f32, Vec<Vec2>)> = Vec::new();
    for e in near.iter().take(ENEMIES_TRIED) {
        let sides = SIDES_DEGREES.iter().chain(&[110.0, -110.0, 135.0, -135.0]);
        for (side, at_gap) in
            sides.flat_map(|s| [(*s, CONTACT_GAP_INCHES), (*s, ENGAGED_GAP_INCHES)])
        {
            let Some(end) = spot_at_gap(start, e, side, at_gap) else {
                continue;
            };
            let mut placed = *start;
            placed.centre = end;
            if others.iter().any(|o| bases_overlap(&placed, o)) {
                continue;
            }
            let line = end - start.centre;
            for bend in DETOUR_DEGREES {
                // The bend where a path leaving at `bend` degrees off the line turns back
                // to meet the line's end, halfway along it.
                let (sn, cs) = bend.to_radians().sin_cos();
                let out = line * 0.5 / cs.max(0.1);
                let way =
                    start.centre + Vec2::new(out.x * cs - out.y * sn, out.x * sn + out.y * cs);
                let length = way.distance(start.centre) + end.distance(way);
                if length <= reach {
                    tries.push((length, vec![way, end]));
                }
            }
        }
    }
    tries.sort_by(|a, b| a.0.total_cmp(&b.0));
    let id = game.unit_id(r.army, r.unit).to_string();
    tries
        .into_iter()
        .take(DETOURS_TRIED)
        .find_map(|(_, points)| {
            let path = points.iter().map(|p| (p.x, p.y, start.z)).collect();
            let c = make(vec![ModelPath {
                model: r.model,
                unit: Some(id.clone()),
                path,
                facing: None,
            }]);
            game.check(&c).is_ok().then_some(c)
        })
}

/// The enemy models (`enemies`, with their solids) by distance from `from`, closest first.
fn nearest<'a>(from: &ModelSolid, enemies: &'a [(ModelRef, ModelSolid)]) -> Vec<&'a ModelSolid> {
    let mut near: Vec<&ModelSolid> = enemies.iter().map(|(_, e)| e).collect();
    near.sort_by(|a, b| {
        let (da, db) = (model_distance(from, a), model_distance(from, b));
        da.distance.total_cmp(&db.distance)
    });
    near
}
