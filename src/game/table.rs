//! Checks of models on the table shared by every kind of move and set-up: paths and their
//! length, board edges, walls, other models, floors, Engagement Range and Unit Coherency.
//!
//! Core Rules: Movement phase (moving through models and terrain, FLY), Ruins (INFANTRY and
//! BEAST through walls, upper floors), Battlefield Debris and Statuary, Engagement Range, Unit
//! Coherency.

use super::command::{ModelPath, Placement};
use super::rejection::{Rejection, Rule, reject};
use super::state::Game;
use crate::game::sight::ModelRef;
use crate::geometry::measure::bases_overlap;
use crate::geometry::{ModelSolid, SolidsBox, TerrainCategory, Vec2, Vec3, polygon};
use crate::rules::coherency;
use crate::rules::constants::{
    BOARD_DEPTH_INCHES, BOARD_WIDTH_INCHES, MAX_PATH_POINTS, MAX_TERRAIN_HEIGHT_INCHES,
    MEASURE_TOLERANCE_INCHES, PATH_SAMPLE_INCHES,
};
use crate::rules::effect::Modifier;
use crate::rules::engagement::within_engagement_range_in;
use crate::rules::movement::{path_length, sample_path};
use crate::rules::ruleset::TerrainMovement;

/// How a move treats enemy models and Engagement Range on the way and at the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum MoveKind {
    /// Normal move or Advance: never within Engagement Range of an enemy.
    Normal,
    /// Fall Back: may cross Engagement Range (and enemy models, with Desperate Escape
    /// tests), may not end in it.
    FallBack,
    /// Charge, Pile In, Consolidate: may end in Engagement Range (checked by the caller).
    Engaging,
}

/// A checked move: every model's new position.
pub(super) struct PlannedMove {
    /// (model, new position) for each moved model.
    pub moves: Vec<(ModelRef, Vec3)>,
    /// (model, new facing in degrees) for each model that turns.
    pub facings: Vec<(ModelRef, f32)>,
    /// The longest path (inches).
    pub longest: f32,
    /// Models that crossed enemy models (Fall Back: Desperate Escape tests).
    pub crossed_enemies: Vec<ModelRef>,
    /// A model moved through a terrain section higher than its rules let it pass freely
    /// (Super-Heavy Walker: a D6 after the move, Battle-shocked on a 1).
    pub crossed_high_terrain: bool,
}

/// True if a model's centre at `at` is over the table, at most [`MAX_TERRAIN_HEIGHT_INCHES`]
/// above it and not below it (false for a coordinate that is not a number).
fn on_table(at: Vec3) -> bool {
    (0.0..=BOARD_WIDTH_INCHES).contains(&at.x)
        && (0.0..=BOARD_DEPTH_INCHES).contains(&at.y)
        && (-MEASURE_TOLERANCE_INCHES..=MAX_TERRAIN_HEIGHT_INCHES).contains(&at.z)
}

impl Game {
    /// The model's solid if it stood at `at` facing `facing` degrees.
    pub(super) fn solid_at(&self, r: ModelRef, at: Vec3, facing: f32) -> ModelSolid {
        ModelSolid {
            centre: at.truncate(),
            z: at.z,
            facing,
            ..self.solid(r)
        }
    }

    /// The model a path or placement names: index `model` in the commanded unit, or in the
    /// named unit of the same combined unit (a Leader).
    pub(super) fn model_of(
        &self,
        army: usize,
        unit: usize,
        named: Option<&str>,
        model: usize,
    ) -> Result<ModelRef, Rejection> {
        let u = match named {
            None => unit,
            Some(id) => match self.find_unit(army, id) {
                Some(u) if self.combined(army, unit).contains(&u) => u,
                _ => {
                    return reject(
                        Rule::Units,
                        format!("'{id}' is not part of unit '{}'", self.unit_id(army, unit)),
                    );
                }
            },
        };
        let n = self.units[army][u].models.len();
        if model >= n || !self.units[army][u].models[model].alive {
            return reject(
                Rule::Units,
                format!("'{}' has no model #{model} in play", self.unit_id(army, u)),
            );
        }
        Ok(ModelRef {
            army,
            unit: u,
            model,
        })
    }

    /// Enemy models on the table for army `army`.
    pub fn enemy_models(&self, army: usize) -> Vec<ModelRef> {
        self.all_live_models()
            .into_iter()
            .filter(|r| r.army != army)
            .collect()
    }

    /// The solids of every enemy model of army `army` on the table.
    pub(super) fn enemy_solids(&self, army: usize) -> Vec<ModelSolid> {
        self.enemy_models(army)
            .iter()
            .map(|r| self.solid(*r))
            .collect()
    }

    /// Checks the paths of a move of the combined unit (`army`, `unit`) of at most
    /// `allowance` inches each.
    ///
    /// # Errors
    /// The first rule a path breaks, naming the model.
    pub(super) fn plan_move(
        &self,
        army: usize,
        unit: usize,
        paths: &[ModelPath],
        allowance: &dyn Fn(ModelRef) -> f32,
        kind: MoveKind,
    ) -> Result<PlannedMove, Rejection> {
        let has_fly = self.all_have_keyword(army, unit, "FLY");
        match self.scene.edition().terrain_movement {
            // FLY: in a Normal, Advance or Fall Back move, models may move over enemy models
            // and through Engagement Range (not end there); Charge, Pile-in and Consolidation
            // moves get no such licence (Core Rules: Flying).
            TerrainMovement::Tenth => self.plan_move_as(
                army,
                unit,
                paths,
                allowance,
                kind,
                has_fly && kind != MoveKind::Engaging,
            ),
            // 11th: a FLY unit moves like any other, or takes to the skies, its move that much
            // shorter (HOVER: not), over every model and all terrain (11th Core Rules 21.03).
            // The engine takes to the skies only for a move that needs it (the player's best
            // choice: a move legal on the ground loses nothing).
            TerrainMovement::Eleventh {
                take_to_the_skies_inches,
                ..
            } => {
                let ground = self.plan_move_as(army, unit, paths, allowance, kind, false);
                if ground.is_ok() || !has_fly {
                    return ground;
                }
                let cut = if self.has_keyword(army, unit, "HOVER") {
                    0.0
                } else {
                    take_to_the_skies_inches
                };
                let skies = |r: ModelRef| (allowance(r) - cut).max(0.0);
                self.plan_move_as(army, unit, paths, &skies, kind, true)
                    .map_err(|_| ground.err().expect("the ground move was refused"))
            }
        }
    }

    /// [`Game::plan_move`] with FLY's licence (`fly`: over models, through walls and
    /// Engagement Range on the way) given or not.
    fn plan_move_as(
        &self,
        army: usize,
        unit: usize,
        paths: &[ModelPath],
        allowance: &dyn Fn(ModelRef) -> f32,
        kind: MoveKind,
        fly: bool,
    ) -> Result<PlannedMove, Rejection> {
        let terrain_movement = self.scene.edition().terrain_movement;
        // Walkers (Super-Heavy Walker, Scuttling Walker): through models and terrain in their
        // Normal, Advance and Fall Back moves, as their rules say.
        let walker = kind != MoveKind::Engaging;
        let walk = |m: Modifier| walker && self.unit_may(army, unit, &m);
        let through_models = walk(Modifier::WalkThroughModels);
        let through_big_friends = walk(Modifier::WalkThroughFriendlyBig);
        let through_high = walk(Modifier::WalkThroughHigherTerrain);
        let walk_height = if walker {
            self.walk_through_height(army, unit)
        } else {
            None
        };
        // 11th: models that cannot pass the walls of Dense features still pass through
        // sections 2" tall or lower (11th Core Rules 13.06).
        let walk_height = match terrain_movement {
            TerrainMovement::Eleventh {
                dense_pass_height_inches,
                ..
            } => Some(walk_height.map_or(dense_pass_height_inches, |h| {
                h.max(dense_pass_height_inches)
            })),
            TerrainMovement::Tenth => walk_height,
        };
        let mut crossed_high_terrain = false;
        let mut moves: Vec<(ModelRef, Vec3)> = Vec::new();
        let mut facings: Vec<(ModelRef, f32)> = Vec::new();
        let mut longest: f32 = 0.0;
        let mut crossed = Vec::new();
        let enemies = self.enemy_models(army);
        let barricades = self.scene.barricade_footprints();
        let own = self.combined(army, unit);
        let others: Vec<ModelRef> = self
            .all_live_models()
            .into_iter()
            .filter(|r| !(r.army == army && own.contains(&r.unit)))
            .collect();
        let others_solids: Vec<(ModelRef, ModelSolid)> =
            others.iter().map(|&o| (o, self.solid(o))).collect();
        for p in paths {
            let r = self.model_of(army, unit, p.unit.as_deref(), p.model)?;
            let name = self.model_name(r);
            if moves.iter().any(|(m, _)| *m == r) {
                return reject(Rule::Movement, format!("{name} is given two paths"));
            }
            if p.path.is_empty() {
                return reject(Rule::Movement, format!("{name}'s path has no points"));
            }
            if p.path.len() > MAX_PATH_POINTS {
                return reject(
                    Rule::Movement,
                    format!(
                        "{name}'s path has {} points; a path has at most {MAX_PATH_POINTS}",
                        p.path.len()
                    ),
                );
            }
            let start = self.scene.armies[army].units[r.unit].models[r.model].position;
            let way: Vec<Vec3> = p.path.iter().map(|&(x, y, z)| Vec3::new(x, y, z)).collect();
            if way.iter().any(|v| !v.is_finite()) {
                return reject(
                    Rule::Movement,
                    format!("{name}'s path has a point that is not a number"),
                );
            }
            if let Some(v) = way.iter().find(|v| !on_table(**v)) {
                return reject(
                    Rule::BattlefieldEdge,
                    format!(
                        "{name}'s path leaves the battlefield at ({}, {}, {}): every point lies within the 60\" x 44\" table, 0 to {MAX_TERRAIN_HEIGHT_INCHES}\" high",
                        v.x, v.y, v.z
                    ),
                );
            }
            let length = path_length(start, &way);
            let allowance = allowance(r);
            if !(allowance.is_finite() && allowance >= 0.0) {
                return reject(
                    Rule::Movement,
                    format!(
                        "{name} cannot move: the distance it may move ({allowance}\") is not a number of inches"
                    ),
                );
            }
            if length > allowance + MEASURE_TOLERANCE_INCHES {
                return reject(
                    Rule::Movement,
                    format!(
                        "{name}'s path is {length:.2}\", more than the {allowance:.2}\" it may move"
                    ),
                );
            }
            longest = longest.max(length);
            let me = self.solid(r);
            let datasheet = &self.scene.armies[army].units[r.unit].datasheet;
            let through_walls = fly
                || datasheet.has_keyword("INFANTRY")
                || datasheet.has_keyword("BEAST")
                || (terrain_movement != TerrainMovement::Tenth
                    && ["BEASTS", "SWARM", "MOBILE"]
                        .iter()
                        .any(|k| datasheet.has_keyword(k)));
            let big = datasheet.has_keyword("MONSTER") || datasheet.has_keyword("VEHICLE");
            let mut crossed_enemy = false;
            // Only the models the path passes near can be moved through or come within
            // Engagement Range of: the rest are left out of the checks at each step.
            let near: Vec<&(ModelRef, ModelSolid)> = {
                let corners: Vec<Vec2> = std::iter::once(start)
                    .chain(way.iter().copied())
                    .map(|v| v.truncate())
                    .collect();
                let reach = me.base.bounding_radius_inches()
                    + self.scene.edition().widest_engagement_range_inches()
                    + 1e-2;
                others_solids
                    .iter()
                    .filter(|(_, os)| {
                        let limit = reach + os.base.bounding_radius_inches();
                        corners
                            .windows(2)
                            .any(|w| polygon::distance_to_segment(os.centre, w[0], w[1]) <= limit)
                            || corners[0].distance(os.centre) <= limit
                    })
                    .collect()
            };
            for at in sample_path(start, &way, PATH_SAMPLE_INCHES) {
                let s = ModelSolid {
                    centre: at.truncate(),
                    z: at.z,
                    ..me
                };
                self.check_on_board(&s, &name)?;
                if through_high && !through_walls && self.wall_crossed(&s).is_some() {
                    crossed_high_terrain |= self
                        .wall_crossed_above(&s, walk_height.unwrap_or(0.0))
                        .is_some();
                } else if !through_walls
                    && let Some(id) = match walk_height {
                        Some(h) => self.wall_crossed_above(&s, h),
                        None => self.wall_crossed(&s),
                    }
                {
                    return reject(
                        Rule::Terrain,
                        format!(
                            "{name} would move through a wall of '{id}' (only INFANTRY, BEAST and FLY models move through ruin walls)"
                        ),
                    );
                }
                for &(o, os) in &near {
                    let enemy = o.army != army;
                    let other_big = || {
                        let sheet = &self.scene.armies[o.army].units[o.unit].datasheet;
                        sheet.has_keyword("MONSTER") || sheet.has_keyword("VEHICLE")
                    };
                    // Moving over a friendly model is allowed unless both are MONSTER or
                    // VEHICLE models: only then does the overlap matter.
                    let other_titanic = || {
                        self.scene.armies[o.army].units[o.unit]
                            .datasheet
                            .has_keyword("TITANIC")
                    };
                    // 11th: MONSTER and VEHICLE models pass through models that are neither
                    // on Normal moves and Advances (11th Core Rules 17.01).
                    let big_over_small = big
                        && kind == MoveKind::Normal
                        && self.scene.edition().monster_vehicle_through_other_models
                        && !other_big();
                    let walks_over = (through_models && !other_titanic())
                        || (through_big_friends && !enemy && other_big())
                        || big_over_small;
                    if !fly
                        && !walks_over
                        && (enemy || (big && other_big()))
                        && bases_overlap(&s, os)
                    {
                        if enemy && kind == MoveKind::FallBack {
                            crossed_enemy = true;
                        } else if enemy {
                            return reject(
                                Rule::Movement,
                                format!(
                                    "{name} would move through enemy model {}",
                                    self.model_name(*o)
                                ),
                            );
                        } else {
                            return reject(
                                Rule::Movement,
                                format!(
                                    "{name} (MONSTER or VEHICLE) would move through friendly MONSTER or VEHICLE model {}",
                                    self.model_name(*o)
                                ),
                            );
                        }
                    }
                    if enemy
                        && kind == MoveKind::Normal
                        && !self.scene.edition().normal_move_may_cross_engagement_range
                        && !fly
                        && !through_models
                        && within_engagement_range_in(self.scene.edition(), &s, os, &barricades)
                    {
                        return reject(
                            Rule::EngagementRange,
                            format!(
                                "{name} would move within Engagement Range of {}",
                                self.unit_id(o.army, o.unit)
                            ),
                        );
                    }
                }
            }
            if crossed_enemy {
                crossed.push(r);
            }
            let end = *way.last().expect("not empty");
            if let Some(f) = p.facing {
                if !f.is_finite() {
                    return reject(
                        Rule::Movement,
                        format!("{name}'s facing ({f}) is not a number of degrees"),
                    );
                }
                facings.push((r, f.rem_euclid(360.0)));
            }
            self.check_standing(r, end, &name)?;
            moves.push((r, end));
        }
        // Where the unit ends: no overlaps, no Engagement Range for moves that forbid it, and
        // Unit Coherency.
        let unit_solids: Vec<(ModelRef, ModelSolid)> = self
            .live_models(army, unit)
            .into_iter()
            .map(|r| {
                let s = self.solid(r);
                let facing = facings
                    .iter()
                    .find(|(m, _)| *m == r)
                    .map_or(s.facing, |(_, f)| *f);
                match moves.iter().find(|(m, _)| *m == r) {
                    Some((_, at)) => (
                        r,
                        ModelSolid {
                            centre: at.truncate(),
                            z: at.z,
                            facing,
                            ..s
                        },
                    ),
                    None => (r, s),
                }
            })
            .collect();
        self.check_final_positions(&unit_solids, &others)?;
        if kind != MoveKind::Engaging {
            for (r, s) in &unit_solids {
                if let Some(e) = enemies.iter().find(|e| {
                    within_engagement_range_in(
                        self.scene.edition(),
                        s,
                        &self.solid(**e),
                        &barricades,
                    )
                }) {
                    return reject(
                        Rule::EngagementRange,
                        format!(
                            "{} would end within Engagement Range of {}",
                            self.model_name(*r),
                            self.unit_id(e.army, e.unit)
                        ),
                    );
                }
            }
        }
        Ok(PlannedMove {
            moves,
            facings,
            longest,
            crossed_enemies: crossed,
            crossed_high_terrain,
        })
    }

    /// Checks a unit set up at `placements` (every model of the combined unit): on the board,
    /// standing on the table or a floor, not on other models, in Unit Coherency. Returns the
    /// positions.
    pub(super) fn plan_set_up(
        &self,
        army: usize,
        unit: usize,
        placements: &[Placement],
    ) -> Result<Vec<(ModelRef, Vec3, f32)>, Rejection> {
        let mut out: Vec<(ModelRef, Vec3, f32)> = Vec::new();
        for p in placements {
            let r = self.model_of(army, unit, p.unit.as_deref(), p.model)?;
            if out.iter().any(|(m, _, _)| *m == r) {
                return reject(
                    Rule::SetUp,
                    format!("{} is placed twice", self.model_name(r)),
                );
            }
            let at = Vec3::new(p.x, p.y, p.z);
            if !at.is_finite() || !p.facing.is_finite() {
                return reject(
                    Rule::SetUp,
                    format!("{} has a position that is not a number", self.model_name(r)),
                );
            }
            if !on_table(at) {
                return reject(
                    Rule::BattlefieldEdge,
                    format!(
                        "{} would be set up off the battlefield at ({}, {}, {}): within the 60\" x 44\" table, 0 to {MAX_TERRAIN_HEIGHT_INCHES}\" high",
                        self.model_name(r),
                        p.x,
                        p.y,
                        p.z
                    ),
                );
            }
            out.push((r, at, p.facing));
        }
        let every = self.live_models_anywhere(army, unit);
        if let Some(missing) = every.iter().find(|r| !out.iter().any(|(m, _, _)| m == *r)) {
            return reject(
                Rule::SetUp,
                format!(
                    "every model must be placed; {} is not",
                    self.model_name(*missing)
                ),
            );
        }
        let own = self.combined(army, unit);
        let others: Vec<ModelRef> = self
            .all_live_models()
            .into_iter()
            .filter(|r| !(r.army == army && own.contains(&r.unit)))
            .collect();
        let mut solids = Vec::new();
        for (r, at, facing) in &out {
            let name = self.model_name(*r);
            let s = self.solid_at(*r, *at, *facing);
            self.check_on_board(&s, &name)?;
            self.check_standing(*r, *at, &name)?;
            if self.wall_crossed(&s).is_some() {
                return reject(Rule::Terrain, format!("{name} would stand inside a wall"));
            }
            solids.push((*r, s));
        }
        self.check_final_positions(&solids, &others)?;
        Ok(out)
    }

    fn check_final_positions(
        &self,
        unit: &[(ModelRef, ModelSolid)],
        others: &[ModelRef],
    ) -> Result<(), Rejection> {
        // Only the models whose bases reach the box round the unit's end positions can
        // overlap one of them: their solids are made once, the rest never looked at.
        let near: Vec<(ModelRef, ModelSolid)> = match SolidsBox::of(unit.iter().map(|(_, s)| s)) {
            None => Vec::new(),
            Some(ends) => others
                .iter()
                .map(|&o| (o, self.solid(o)))
                .filter(|(_, t)| ends.may_reach(t, 1e-3))
                .collect(),
        };
        for (i, (r, s)) in unit.iter().enumerate() {
            for (q, t) in &unit[..i] {
                if bases_overlap(s, t) {
                    return reject(
                        Rule::Movement,
                        format!(
                            "{} would overlap {}",
                            self.model_name(*r),
                            self.model_name(*q)
                        ),
                    );
                }
            }
            for (o, t) in &near {
                if bases_overlap(s, t) {
                    return reject(
                        Rule::Movement,
                        format!(
                            "{} would end on top of {}",
                            self.model_name(*r),
                            self.model_name(*o)
                        ),
                    );
                }
            }
        }
        let solids: Vec<ModelSolid> = unit.iter().map(|(_, s)| *s).collect();
        let report = coherency::check_in(self.scene.edition(), &solids);
        if !report.coherent {
            let names: Vec<String> = report
                .breaking_models
                .iter()
                .map(|&i| self.model_name(unit[i].0))
                .collect();
            return reject(
                Rule::UnitCoherency,
                format!(
                    "the unit would end out of Unit Coherency ({} too far from the rest)",
                    names.join(", ")
                ),
            );
        }
        Ok(())
    }

    pub(super) fn check_on_board(&self, s: &ModelSolid, name: &str) -> Result<(), Rejection> {
        let board = [
            Vec2::new(0.0, 0.0),
            Vec2::new(BOARD_WIDTH_INCHES, 0.0),
            Vec2::new(BOARD_WIDTH_INCHES, BOARD_DEPTH_INCHES),
            Vec2::new(0.0, BOARD_DEPTH_INCHES),
        ];
        // A base whose bounding circle is on the table is (the usual case, no outline needed).
        let r = s.base.bounding_radius_inches();
        let clear = s.centre.x - r >= 0.0
            && s.centre.y - r >= 0.0
            && s.centre.x + r <= BOARD_WIDTH_INCHES
            && s.centre.y + r <= BOARD_DEPTH_INCHES;
        if !clear && !polygon::polygon_wholly_within(&s.outline(), &board) {
            return reject(
                Rule::BattlefieldEdge,
                format!(
                    "{name} would be off the battlefield at ({:.2}, {:.2})",
                    s.centre.x, s.centre.y
                ),
            );
        }
        Ok(())
    }

    /// The id of a ruin whose wall the model's base would cut through, if any.
    pub(super) fn wall_crossed(&self, s: &ModelSolid) -> Option<&str> {
        // Walls farther from the centre than the base reaches are skipped without the outline.
        let reach = s.base.bounding_radius_inches() + 1e-3;
        let mut outline: Option<Vec<Vec2>> = None;
        self.scene.layout.pieces.iter().find_map(|piece| {
            piece
                .walls
                .iter()
                .any(|w| {
                    s.z < w.height
                        && polygon::distance_to_segment(s.centre, w.start, w.end) <= reach
                        && polygon::segment_enters(
                            w.start,
                            w.end,
                            outline.get_or_insert_with(|| s.outline()),
                        )
                })
                .then_some(piece.id.as_str())
        })
    }

    /// The id of a ruin whose wall higher than `height` inches (above the table) the model's
    /// base would cut through, if any: what a walker allowed through lower sections meets.
    pub(super) fn wall_crossed_above(&self, s: &ModelSolid, height: f32) -> Option<&str> {
        let reach = s.base.bounding_radius_inches() + 1e-3;
        let outline = s.outline();
        self.scene.layout.pieces.iter().find_map(|piece| {
            piece
                .walls
                .iter()
                .any(|w| {
                    w.height > height + crate::rules::constants::MEASURE_TOLERANCE_INCHES
                        && s.z < w.height
                        && polygon::distance_to_segment(s.centre, w.start, w.end) <= reach
                        && polygon::segment_enters(w.start, w.end, &outline)
                })
                .then_some(piece.id.as_str())
        })
    }

    /// Checks a model can stand at `at`: on the table, or on a ruin floor at that height
    /// (INFANTRY, BEAST and FLY only), and not on Battlefield Debris.
    pub(super) fn check_standing(
        &self,
        r: ModelRef,
        at: Vec3,
        name: &str,
    ) -> Result<(), Rejection> {
        let d = &self.scene.armies[r.army].units[r.unit].datasheet;
        let tenth = self.scene.edition().terrain_movement == TerrainMovement::Tenth;
        if at.z > MEASURE_TOLERANCE_INCHES {
            // 11th: also SWARM and MONSTER models end above the ground (11th Core Rules 13.06).
            let keywords: &[&str] = if tenth {
                &["INFANTRY", "BEAST", "FLY"]
            } else {
                &["INFANTRY", "BEAST", "BEASTS", "SWARM", "FLY", "MONSTER"]
            };
            if !keywords.iter().any(|k| d.has_keyword(k)) {
                return reject(
                    Rule::Terrain,
                    format!(
                        "{name} cannot end on an upper floor (only {} models can)",
                        if tenth {
                            "INFANTRY, BEAST and FLY"
                        } else {
                            "INFANTRY, BEASTS, SWARM, FLY and MONSTER"
                        }
                    ),
                );
            }
            let on_floor = self.scene.layout.pieces.iter().any(|p| {
                p.floors.iter().any(|f| {
                    (f.height - at.z).abs() < 0.05 && polygon::contains(&f.area, at.truncate())
                })
            });
            if !on_floor {
                return reject(
                    Rule::Terrain,
                    format!(
                        "{name} would end in mid-air at height {:.2}\" (no floor there)",
                        at.z
                    ),
                );
            }
        } else if at.z < -MEASURE_TOLERANCE_INCHES {
            return reject(Rule::Terrain, format!("{name} would end below the table"));
        }
        let s = self.solid_at(r, at, self.solid(r).facing);
        let outline = s.outline();
        // 10th: no model ends on battlefield debris; 11th lets every model through Exposed and
        // Light features.
        if let Some(p) = self.scene.layout.pieces.iter().find(|p| {
            tenth
                && p.category == TerrainCategory::Debris
                && polygon::polygons_intersect(&outline, &p.footprint)
        }) {
            return reject(
                Rule::Terrain,
                format!("{name} cannot end on Battlefield Debris '{}'", p.id),
            );
        }
        Ok(())
    }

    /// Moves the models to their new positions.
    pub(super) fn move_models(&mut self, moves: &[(ModelRef, Vec3)]) {
        for (r, at) in moves {
            self.scene.armies[r.army].units[r.unit].models[r.model].position = *at;
        }
    }

    /// Carries out a planned move: new positions, then new facings.
    pub(super) fn apply_planned(&mut self, planned: &PlannedMove) {
        self.move_models(&planned.moves);
        for (r, f) in &planned.facings {
            self.scene.armies[r.army].units[r.unit].models[r.model].facing = *f;
        }
    }

    /// True if any of the models `xs` is within Engagement Range of any of `ys`, across the
    /// layout's barricades.
    fn any_engaged(&self, xs: &[ModelRef], ys: &[ModelRef]) -> bool {
        let mine: Vec<ModelSolid> = xs.iter().map(|r| self.solid(*r)).collect();
        let Some(near) = SolidsBox::of(&mine) else {
            return false;
        };
        // Only the models of `ys` whose bases reach the box round `xs` are paired up.
        let reach = self.scene.edition().widest_engagement_range_inches() + 1e-3;
        let theirs: Vec<ModelSolid> = ys
            .iter()
            .map(|r| self.solid(*r))
            .filter(|t| near.may_reach(t, reach))
            .collect();
        if theirs.is_empty() {
            return false;
        }
        let barricades = self.scene.barricade_footprints();
        mine.iter().any(|s| {
            theirs
                .iter()
                .any(|t| within_engagement_range_in(self.scene.edition(), s, t, &barricades))
        })
    }

    /// True if any model of the combined unit is within Engagement Range of any model of the
    /// other combined unit.
    pub fn units_engaged(&self, a: (usize, usize), b: (usize, usize)) -> bool {
        self.any_engaged(&self.live_models(a.0, a.1), &self.live_models(b.0, b.1))
    }

    /// True if any model of the combined unit is within Engagement Range of any enemy model.
    pub fn engaged(&self, army: usize, unit: usize) -> bool {
        self.any_engaged(&self.live_models(army, unit), &self.enemy_models(army))
    }

    /// The enemy combined units (army, root) with a model within Engagement Range of a model
    /// of the combined unit (`army`, `unit`).
    pub fn enemy_units_engaged_with(&self, army: usize, unit: usize) -> Vec<(usize, usize)> {
        let Some(enemy) = self.army_of(crate::rules::phase::opponent(self.player_of(army))) else {
            return Vec::new();
        };
        self.unit_roots(enemy)
            .into_iter()
            .filter(|&u| self.units_engaged((army, unit), (enemy, u)))
            .map(|u| (enemy, u))
            .collect()
    }

    /// Distance between two combined units: their closest models (inches).
    pub fn unit_distance(&self, a: (usize, usize), b: (usize, usize)) -> f32 {
        let theirs: Vec<ModelSolid> = self
            .live_models(b.0, b.1)
            .iter()
            .map(|r| self.solid(*r))
            .collect();
        self.live_models(a.0, a.1)
            .iter()
            .flat_map(|r| {
                let s = self.solid(*r);
                theirs
                    .iter()
                    .map(move |t| crate::geometry::measure::model_distance(&s, t).distance)
            })
            .fold(f32::INFINITY, f32::min)
    }
}
