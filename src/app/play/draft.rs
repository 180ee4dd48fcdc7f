//! Drafted moves: what a drag on the table would command at this moment of the game, whether
//! the engine accepts it (tried on a copy), how far it goes and how far it may go.

use bevy::prelude::*;

use super::Drafting;
use crate::game::sight::ModelRef;
use crate::game::{Command, DraftedPath, Game, Location, Rejection};
use crate::geometry::Vec3 as TableVec3;
use crate::rules::movement::{MoveMode, path_length};
use crate::rules::phase::Stage;
use crate::sim::battle::ActiveGame;

/// A move being drawn on the table: where each dragged model would end. Nothing is sent to the
/// engine until the player confirms it.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    /// The army of the unit.
    pub army: usize,
    /// The unit (its Bodyguard when a Leader is attached).
    pub unit: usize,
    /// Each dragged model and where its base would end (table inches, z the surface height).
    pub ends: Vec<(ModelRef, TableVec3)>,
    /// Waypoints: where each model stood at the end of each earlier leg of the move, oldest
    /// first (a Shift-drag starts a new leg, so a path can go round a wall).
    pub via: Vec<Vec<(ModelRef, TableVec3)>>,
    /// Degrees every drafted model turns (counter-clockwise; Q/E while dragging).
    pub turn: f32,
}

impl Draft {
    /// The facing model `r` ends with (degrees): its own, turned by [`Draft::turn`].
    pub fn facing_of(&self, game: &Game, r: ModelRef) -> f32 {
        (game.scene.armies[r.army].units[r.unit].models[r.model].facing + self.turn)
            .rem_euclid(360.0)
    }

    /// The waypoints of model `r`, oldest first, then its end (None if it is not drafted).
    pub fn path_of(&self, r: ModelRef) -> Option<Vec<TableVec3>> {
        let end = self.ends.iter().find(|(m, _)| *m == r)?.1;
        let mut path: Vec<TableVec3> = self
            .via
            .iter()
            .filter_map(|leg| leg.iter().find(|(m, _)| *m == r).map(|(_, p)| *p))
            .collect();
        path.push(end);
        Some(path)
    }

    /// This draft with its current ends made a waypoint: the next drag starts a new leg from
    /// there.
    pub fn with_new_leg(&self) -> Draft {
        let mut d = self.clone();
        d.via.push(self.ends.clone());
        d
    }
}

/// The length of each leg of the draft (inches, climbing counted): for each leg, the longest
/// any model moves in it.
pub fn leg_lengths(game: &Game, draft: &Draft) -> Vec<f32> {
    let mut legs = vec![0.0f32; draft.via.len() + 1];
    for &(r, _) in &draft.ends {
        let Some(path) = draft.path_of(r) else {
            continue;
        };
        let mut from = model_position(game, r);
        for (k, &to) in path.iter().enumerate() {
            legs[k] = legs[k].max(path_length(from, &[to]));
            from = to;
        }
    }
    legs
}

/// The engine's answer to a drafted move, computed on a copy of the game.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The command would be accepted; for an Advance, the smallest Advance roll it needs.
    Legal {
        /// Smallest D6 the Advance needs (None when no roll matters).
        advance_roll_needed: Option<u32>,
    },
    /// The command breaks a rule.
    Illegal(Rejection),
    /// Nothing can be moved now (wrong phase, or the unit is not the one acting).
    Nothing(String),
}

impl Verdict {
    /// True when the engine would accept the move.
    pub fn is_legal(&self) -> bool {
        matches!(self, Verdict::Legal { .. })
    }
}

/// The starting position of a model (table inches, base underside).
pub fn model_position(game: &Game, r: ModelRef) -> TableVec3 {
    game.scene.armies[r.army].units[r.unit].models[r.model].position
}

/// The command a drafted move makes at this moment of `game` ([`Game::move_command`]): a
/// Deploy in deployment (every model placed), a Move in the Movement phase, the pending
/// charge's Charge Move, a Pile In or a Consolidate; each model goes from where it stands
/// through its waypoints to its end.
///
/// # Errors
/// A sentence saying why nothing can move now.
pub fn draft_command(game: &Game, draft: &Draft, mode: MoveMode) -> Result<Command, String> {
    let paths: Vec<DraftedPath> = draft
        .ends
        .iter()
        .map(|(r, end)| DraftedPath {
            model: *r,
            path: draft.path_of(*r).unwrap_or_else(|| vec![*end]),
        })
        .collect();
    game.move_command(draft.army, draft.unit, &paths, draft.turn, mode)
}

/// Whether the engine would accept `command` ([`Game::check`]: an Advance is judged with the
/// best Advance roll, so the answer does not reveal the dice); for an Advance, the verdict
/// says which roll the move needs.
pub fn check(game: &Game, command: &Command, draft: Option<&Draft>) -> Verdict {
    let advance = matches!(
        command,
        Command::Move {
            mode: MoveMode::Advance,
            ..
        }
    );
    match game.check(command) {
        Ok(()) => Verdict::Legal {
            advance_roll_needed: advance
                .then(|| draft.map(|d| advance_roll_needed(game, d)))
                .flatten(),
        },
        Err(r) => Verdict::Illegal(r),
    }
}

/// The longest path of a draft, through its waypoints (inches, climbing counted).
pub fn draft_distance(game: &Game, draft: &Draft) -> f32 {
    draft
        .ends
        .iter()
        .map(|(r, end)| {
            let path = draft.path_of(*r).unwrap_or_else(|| vec![*end]);
            path_length(model_position(game, *r), &path)
        })
        .fold(0.0, f32::max)
}

/// How far a drafted move goes against how far it may go, for the move window: the model
/// with the least distance left (each model measured against its own allowance,
/// [`Game::move_allowance`], so a 12" Kroot Hound in a 7" unit has 12").
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoveBudget {
    /// The distance that model's path covers (inches, climbing counted).
    pub used: f32,
    /// That model's allowance (inches).
    pub allowed: f32,
    /// The least distance any drafted model has left (inches; negative when one goes too
    /// far).
    pub left: f32,
}

/// The draft's [`MoveBudget`]; None when the distance is not known now (an Advance before
/// its roll) or nothing moves.
pub fn allowance(game: &Game, draft: &Draft, mode: MoveMode) -> Option<MoveBudget> {
    let allowances = game.move_allowance(draft.army, draft.unit, mode)?;
    draft
        .ends
        .iter()
        .filter_map(|(r, end)| {
            let allowed = allowances.iter().find(|(m, _)| m == r)?.1;
            let path = draft.path_of(*r).unwrap_or_else(|| vec![*end]);
            let used = path_length(model_position(game, *r), &path);
            Some(MoveBudget {
                used,
                allowed,
                left: allowed - used,
            })
        })
        .min_by(|a, b| a.left.total_cmp(&b.left))
}

/// The smallest Advance roll that covers the draft: the most any model's path goes past its
/// own Move characteristic, rounded up (at least 1).
pub fn advance_roll_needed(game: &Game, draft: &Draft) -> u32 {
    let over = allowance(game, draft, MoveMode::Normal)
        .map_or_else(|| draft_distance(game, draft), |b| -b.left)
        - crate::rules::constants::MEASURE_TOLERANCE_INCHES;
    (over.max(0.0).ceil() as u32).max(1)
}

/// A draft moving every model of the combined unit by `delta` (inches) from where it stands
/// (or from its drafted end, when `previous` drafts the same unit).
pub fn drag_unit(
    game: &Game,
    previous: Option<&Draft>,
    army: usize,
    unit: usize,
    delta: TableVec3,
) -> Draft {
    let root = game.combined(army, unit)[0];
    let models = match game.stage {
        Stage::Setup | Stage::Deployment => game.live_models_anywhere(army, root),
        _ => game.live_models(army, root),
    };
    let same = previous.filter(|d| d.army == army && d.unit == root);
    let from = |r: ModelRef| {
        same.and_then(|d| d.ends.iter().find(|(m, _)| *m == r).map(|(_, e)| *e))
            .unwrap_or_else(|| model_position(game, r))
    };
    Draft {
        army,
        unit: root,
        ends: models.into_iter().map(|r| (r, from(r) + delta)).collect(),
        via: same.map(|d| d.via.clone()).unwrap_or_default(),
        turn: same.map_or(0.0, |d| d.turn),
    }
}

/// A draft placing the combined unit (`army`, `unit`) centred on `centre` (table inches) in
/// a compact block: rows of up to five, bases 0.1" apart (well within Unit Coherency), the rows
/// running along the battlefield edge nearest the click (so Strategic Reserves fit within 6"
/// of it). Where a click puts a unit arriving from Reserves or disembarking.
pub fn placement_draft(game: &Game, army: usize, unit: usize, centre: TableVec3) -> Draft {
    use crate::rules::constants::{BOARD_DEPTH_INCHES, BOARD_WIDTH_INCHES};
    const PER_ROW: usize = 5;
    const GAP: f32 = 0.1;
    let root = game.combined(army, unit)[0];
    let models = game.live_models_anywhere(army, root);
    let step = models
        .iter()
        .map(|&r| game.solid(r).base.bounding_radius_inches() * 2.0)
        .fold(0.0f32, f32::max)
        + GAP;
    // Rows along x unless a side edge (x = 0 or 60) is nearer than the long edges.
    let to_side = centre.x.min(BOARD_WIDTH_INCHES - centre.x);
    let to_long = centre.y.min(BOARD_DEPTH_INCHES - centre.y);
    let along_y = to_side < to_long;
    let n = models.len();
    let cols = n.clamp(1, PER_ROW);
    let rows = n.div_ceil(cols).max(1);
    let ends = models
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            let (c, row) = ((i % cols) as f32, (i / cols) as f32);
            let a = (c - (cols as f32 - 1.0) / 2.0) * step;
            let b = (row - (rows as f32 - 1.0) / 2.0) * step;
            let (dx, dy) = if along_y { (b, a) } else { (a, b) };
            (r, TableVec3::new(centre.x + dx, centre.y + dy, centre.z))
        })
        .collect();
    Draft {
        army,
        unit: root,
        ends,
        via: Vec::new(),
        turn: 0.0,
    }
}

/// A placement the engine accepts for the combined unit (`army`, `unit`) waiting off the table,
/// found by trying blocks ([`placement_draft`]) around its TRANSPORT (embarked: 2" to 6" from
/// its centre, every 0.1", in 16 directions) or along the battlefield edges (in Reserves: 3"
/// in, every 2"); None when none is accepted (or the unit is on the table).
pub fn suggest_placement(game: &Game, army: usize, unit: usize) -> Option<Draft> {
    use crate::rules::constants::{BOARD_DEPTH_INCHES, BOARD_WIDTH_INCHES};
    let root = game.combined(army, unit)[0];
    let mut centres: Vec<TableVec3> = Vec::new();
    match game.units[army][root].location {
        Location::Embarked(t) => {
            let c = game
                .live_models(army, t)
                .first()
                .map(|&r| model_position(game, r))?;
            for step in 0..40 {
                let d = 2.0 + 0.1 * step as f32;
                for k in 0..16 {
                    let a = k as f32 / 16.0 * std::f32::consts::TAU;
                    centres.push(TableVec3::new(c.x + d * a.cos(), c.y + d * a.sin(), 0.0));
                }
            }
        }
        Location::Reserves(_) => {
            let (w, d) = (BOARD_WIDTH_INCHES, BOARD_DEPTH_INCHES);
            let mut x = 3.0;
            while x <= w - 3.0 {
                centres.push(TableVec3::new(x, 3.0, 0.0));
                centres.push(TableVec3::new(x, d - 3.0, 0.0));
                x += 2.0;
            }
            let mut y = 3.0;
            while y <= d - 3.0 {
                centres.push(TableVec3::new(3.0, y, 0.0));
                centres.push(TableVec3::new(w - 3.0, y, 0.0));
                y += 2.0;
            }
        }
        _ => return None,
    }
    centres.into_iter().find_map(|c| {
        let d = placement_draft(game, army, root, c);
        let command = draft_command(game, &d, MoveMode::Normal).ok()?;
        game.check(&command).is_ok().then_some(d)
    })
}

/// A draft with one model's end set to `to`, keeping the other drafted models of the unit.
pub fn drag_model(game: &Game, previous: Option<&Draft>, model: ModelRef, to: TableVec3) -> Draft {
    let root = game.combined(model.army, model.unit)[0];
    let mut draft = previous
        .filter(|d| d.army == model.army && d.unit == root)
        .cloned()
        .unwrap_or(Draft {
            army: model.army,
            unit: root,
            ends: Vec::new(),
            via: Vec::new(),
            turn: 0.0,
        });
    match draft.ends.iter_mut().find(|(m, _)| *m == model) {
        Some(end) => end.1 = to,
        None => draft.ends.push((model, to)),
    }
    draft
}

/// Recomputes the draft's command, verdict, base-contact fix and distance budget when the
/// draft or the game changes (the system runs only then: see [`super::plugin`]), so the
/// move window only reads them.
pub(super) fn check_draft_system(mut state: ResMut<Drafting>, active: Res<ActiveGame>) {
    let (mut command, mut base_contact, mut budget) = (None, None, None);
    let verdict = match (&active.game, &state.draft) {
        (Some(game), Some(draft)) => Some(match draft_command(game, draft, state.move_mode) {
            Ok(c) => {
                budget = allowance(game, draft, state.move_mode);
                base_contact = game
                    .missed_base_contact(&c)
                    .is_some()
                    .then(|| game.with_base_contact(&c));
                let v = check(game, &c, Some(draft));
                command = Some(c);
                v
            }
            Err(why) => Verdict::Nothing(why),
        }),
        _ => None,
    };
    let legs = match (&active.game, &state.draft) {
        (Some(game), Some(draft)) if !draft.via.is_empty() => {
            leg_checks(game, draft, state.move_mode)
        }
        _ => Vec::new(),
    };
    if state.verdict != verdict {
        state.verdict = verdict;
    }
    if state.leg_verdicts != legs {
        state.leg_verdicts = legs;
    }
    if state.command != command {
        state.command = command;
    }
    if state.base_contact != base_contact {
        state.base_contact = base_contact;
    }
    if state.budget != budget {
        state.budget = budget;
    }
}

/// The draft cut after leg `k` (0: the first): the models end where that leg ends.
pub fn draft_to_leg(draft: &Draft, k: usize) -> Draft {
    let mut cut = draft.clone();
    if k < draft.via.len() {
        cut.ends = draft.via[k].clone();
        cut.via.truncate(k);
    }
    cut
}

/// The engine's verdict on the move as far as the end of each leg ([`draft_to_leg`]), first
/// leg first: the first refused leg is where the path goes wrong (a wall, an enemy model,
/// Engagement Range, the distance). The last entry is the whole move's verdict. A waypoint
/// is judged as if the models stopped there, so a waypoint on a friendly base reads as refused
/// though passing over it is allowed.
pub fn leg_checks(game: &Game, draft: &Draft, mode: MoveMode) -> Vec<Verdict> {
    (0..=draft.via.len())
        .map(|k| {
            let cut = draft_to_leg(draft, k);
            match draft_command(game, &cut, mode) {
                Ok(c) => check(game, &c, Some(&cut)),
                Err(why) => Verdict::Nothing(why),
            }
        })
        .collect()
}
