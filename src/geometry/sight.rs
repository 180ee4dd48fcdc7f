//! True line of sight: a parry3d sight index over terrain solids and model volumes, and the
//! visibility predicates of the 10th edition rules with the evidence for each answer.
//!
//! # Rules (Core Rules: Determining Visibility; Rules Commentary: Model Visible, Model Fully
//! Visible, Unit Visible, Unit Fully Visible; Core Rules: Ruins, Woods; shared/RULES.md)
//! - A sight line is blocked by terrain solids (ruin walls, split around their window openings,
//!   and ruin floors) and by other models' volumes. The observer always sees through the other
//!   models of its own unit; for "unit fully visible" it also sees through the target's unit.
//! - Ruin and low footprints: no sight line may pass over or through the footprint (its inside,
//!   seen from above), however high, except: a line to a target that is (partly) within that
//!   footprint (sight into a ruin is normal); a line from an observer wholly within it (sight out
//!   is normal); a TOWERING observer (partly) within it; AIRCRAFT observers and targets ignore
//!   footprints altogether.
//! - Woods never block "visible"; a line through woods is never clear enough for "fully
//!   visible", and a target wholly within woods is never fully visible (AIRCRAFT and TOWERING
//!   excepted).
//!
//! # Sampling method
//! A model is a vertical prism over its base outline (base included). Points are sampled on it:
//! the centre of its top face, and rings of points just inside the outline at several heights
//! (each ring has [`Sampling::ring_points`] points at even angles; heights are fractions of the
//! model's height). A line from an observer point to a target point counts when nothing blocks
//! it by the rules above.
//! - **Visible**: some (observer point, target point) line is clear. Lines are tried starting
//!   with eye (top centre) to target top centre, then eye to every target point, then every
//!   other observer point; the first clear line is the witness.
//! - **Fully visible**: every target point on the side facing the observer (ring points whose
//!   outward direction points towards the observer, and the top centre when the observer's eye is
//!   above the target's top) is seen by some observer point through a line that also crosses no
//!   woods. The first unseen point's blocker is the evidence.
//! - [`Sampling::FAST`] (used by the game): observer 1 + 2 rings of 8 = 17 points, target
//!   1 + 3 rings of 8 = 25 points: at most 425 lines, usually a handful (the first clear line
//!   ends "visible"; each facing target point stops at its first clear line).
//! - [`Sampling::DENSE`] (the reference): 1 + 7 rings of 9 = 64 points on each side, 4096 lines.
//!
//! Accuracy of FAST against DENSE is measured by `examples/los_accuracy.rs`.

use parry3d::bounding_volume::Aabb;
use parry3d::math::Pose;
use parry3d::partitioning::{Bvh, BvhBuildStrategy};
use parry3d::query::Ray;
use parry3d::shape::SharedShape;

use super::body::ModelSolid;
use super::measure::{wholly_within_footprint, within_footprint};
use super::polygon;
use super::terrain::FLOOR_THICKNESS_INCHES;
use super::{TerrainCategory, TerrainPiece, Vec2, Vec3};

/// Which points of a model are sampled for sight lines.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sampling {
    /// Points per ring.
    pub ring_points: usize,
    /// Ring heights of observer points, as fractions of the model's height.
    pub observer_rings: &'static [f32],
    /// Ring heights of target points, as fractions of the model's height.
    pub target_rings: &'static [f32],
}

impl Sampling {
    /// The game's sampling: 17 observer and 25 target points.
    pub const FAST: Sampling = Sampling {
        ring_points: 8,
        observer_rings: &[0.95, 0.5],
        target_rings: &[0.95, 0.5, 0.05],
    };
    /// The dense reference: 64 points on each side, 4096 lines per pair.
    pub const DENSE: Sampling = Sampling {
        ring_points: 9,
        observer_rings: &[0.02, 0.18, 0.34, 0.5, 0.66, 0.82, 0.98],
        target_rings: &[0.02, 0.18, 0.34, 0.5, 0.66, 0.82, 0.98],
    };

    /// Sample points of `solid` for `rings` (top centre first), with their outward
    /// directions (zero for the top centre).
    pub fn points(&self, solid: &ModelSolid, rings: &[f32]) -> Vec<(Vec3, Vec2)> {
        let mut out = Vec::with_capacity(1 + rings.len() * self.ring_points);
        out.push((solid.centre.extend(solid.top() - 0.01), Vec2::ZERO));
        let h = solid.base.half_extents_inches() * 0.98;
        let (s, c) = solid.facing.to_radians().sin_cos();
        for (ri, f) in rings.iter().enumerate() {
            let z = solid.z + solid.height * f.clamp(0.005, 0.995);
            // Successive rings are turned half a step, so columns do not line up.
            let phase = if ri % 2 == 1 { 0.5 } else { 0.0 };
            for i in 0..self.ring_points {
                let a = std::f32::consts::TAU * (i as f32 + phase) / self.ring_points as f32;
                let local = match solid.base {
                    super::Base::Hull { .. } => square_point(a, h),
                    _ => Vec2::new(h.x * a.cos(), h.y * a.sin()),
                };
                let world = Vec2::new(local.x * c - local.y * s, local.x * s + local.y * c);
                let normal = Vec2::new(a.cos(), a.sin());
                let normal = Vec2::new(normal.x * c - normal.y * s, normal.x * s + normal.y * c);
                out.push(((solid.centre + world).extend(z), normal));
            }
        }
        out
    }
}

/// A point on the outline of a rectangle with half extents `h` in direction `a`.
fn square_point(a: f32, h: Vec2) -> Vec2 {
    let d = Vec2::new(a.cos(), a.sin());
    let t = (h.x / d.x.abs().max(1e-6)).min(h.y / d.y.abs().max(1e-6));
    d * t
}

/// A model the sight index knows: which unit it belongs to, its solid, and the keywords that
/// change the terrain rules for it.
#[derive(Debug, Clone, PartialEq)]
pub struct SightModel {
    /// Unit number (any numbering the caller chooses; models of one unit share it).
    pub unit: usize,
    /// The model's solid.
    pub solid: ModelSolid,
    /// TOWERING: sees out of a ruin it is within.
    pub towering: bool,
    /// AIRCRAFT: ignores ruin and low footprints and woods.
    pub aircraft: bool,
    /// INFANTRY: gets cover wholly within a crater.
    pub infantry: bool,
}

/// What stopped a sight line.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Blocker {
    /// A terrain solid (a wall or floor) of the piece.
    Terrain {
        /// Piece id in the layout.
        piece: String,
        /// Which part: "wall" or "floor".
        part: &'static str,
    },
    /// The rule that forbids sight over or through a ruin or low footprint.
    Footprint {
        /// Piece id in the layout.
        piece: String,
        /// The piece's category.
        category: TerrainCategory,
    },
    /// Woods on the line (blocks "fully visible" only).
    Woods {
        /// Piece id in the layout.
        piece: String,
    },
    /// Another model's volume.
    Model {
        /// Index of the model in the sight index.
        model: usize,
        /// Its unit number.
        unit: usize,
    },
    /// The target stands wholly within woods (never fully visible).
    WhollyWithinWoods {
        /// Piece id in the layout.
        piece: String,
    },
}

impl Blocker {
    /// True for terrain (any blocker but a model).
    pub fn is_terrain(&self) -> bool {
        !matches!(self, Blocker::Model { .. })
    }

    /// The terrain piece concerned, if any.
    pub fn piece(&self) -> Option<&str> {
        match self {
            Blocker::Terrain { piece, .. }
            | Blocker::Footprint { piece, .. }
            | Blocker::Woods { piece }
            | Blocker::WhollyWithinWoods { piece } => Some(piece),
            Blocker::Model { .. } => None,
        }
    }
}

impl std::fmt::Display for Blocker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Blocker::Terrain { piece, part } => write!(f, "the {part} of {piece}"),
            Blocker::Footprint { piece, category } => {
                write!(
                    f,
                    "sight over or through the footprint of {piece} ({category:?})"
                )
            }
            Blocker::Woods { piece } => write!(f, "sight through the woods {piece}"),
            Blocker::Model { model, unit } => write!(f, "model {model} of unit {unit}"),
            Blocker::WhollyWithinWoods { piece } => {
                write!(f, "the target is wholly within the woods {piece}")
            }
        }
    }
}

/// The answer for one observer model and one target model, with its evidence.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ModelVisibility {
    /// Some part of the target can be seen.
    pub visible: bool,
    /// Every part of the target facing the observer can be seen.
    pub fully_visible: bool,
    /// A clear sight line (observer point, target point) when visible.
    pub witness: Option<[Vec3; 2]>,
    /// What blocks the eye-to-top line when not visible.
    pub blocked_by: Option<Blocker>,
    /// What keeps the target from being fully visible, when it is not.
    pub not_fully_because: Option<Blocker>,
    /// Sight lines cast to reach the answer.
    pub rays: usize,
}

#[derive(Debug, Clone)]
struct Piece {
    id: String,
    category: TerrainCategory,
    footprint: Vec<Vec2>,
    lo: Vec2,
    hi: Vec2,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Wall,
    Floor,
}

/// Where a model stands relative to each footprint: (piece, within, wholly within).
type Standing = Vec<(usize, bool, bool)>;

/// The sight index: terrain solids and model volumes in parry3d BVHs, plus the footprints the
/// ruins and woods rules need. Table coordinates (inches, z up).
pub struct SightIndex {
    pieces: Vec<Piece>,
    terrain: Vec<(SharedShape, Pose, usize, Part)>,
    terrain_bvh: Bvh,
    models: Vec<SightModel>,
    model_shapes: Vec<(SharedShape, Pose)>,
    model_bvh: Bvh,
    standing: Vec<Standing>,
}

/// Which models a sight line may pass through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeeThrough {
    /// The observer's unit and the target model itself.
    OwnUnit,
    /// Also the target's whole unit (for "unit fully visible").
    OwnAndTargetUnit,
    /// Every model (terrain only).
    AllModels,
}

impl SightIndex {
    /// Builds the terrain part of the index from a layout. `ground_floor_windows_closed`
    /// applies the tournament convention to the walls.
    pub fn new(pieces: &[TerrainPiece], ground_floor_windows_closed: bool) -> Self {
        let mut terrain = Vec::new();
        for (i, p) in pieces.iter().enumerate() {
            for b in p.wall_solids(ground_floor_windows_closed) {
                let pose = Pose::new(b.centre, Vec3::new(0.0, 0.0, b.yaw_radians));
                let shape =
                    SharedShape::cuboid(b.half_extents.x, b.half_extents.y, b.half_extents.z);
                terrain.push((shape, pose, i, Part::Wall));
            }
            for f in &p.floors {
                let pts: Vec<Vec3> = f
                    .area
                    .iter()
                    .flat_map(|v| {
                        [
                            v.extend(f.height - FLOOR_THICKNESS_INCHES),
                            v.extend(f.height),
                        ]
                    })
                    .collect();
                // Floors are convex in practice; a concave floor is covered by its hull.
                if let Some(shape) = SharedShape::convex_hull(&pts) {
                    terrain.push((shape, Pose::IDENTITY, i, Part::Floor));
                }
            }
        }
        let aabbs: Vec<Aabb> = terrain
            .iter()
            .map(|(s, p, _, _)| s.compute_aabb(p))
            .collect();
        let pieces = pieces
            .iter()
            .map(|p| {
                let (lo, hi) = polygon::bounds(&p.footprint);
                Piece {
                    id: p.id.clone(),
                    category: p.category,
                    footprint: p.footprint.clone(),
                    lo,
                    hi,
                }
            })
            .collect();
        SightIndex {
            pieces,
            terrain_bvh: Bvh::from_leaves(BvhBuildStrategy::Binned, &aabbs),
            terrain,
            models: Vec::new(),
            model_shapes: Vec::new(),
            model_bvh: Bvh::new(),
            standing: Vec::new(),
        }
    }

    /// Replaces every model in the index.
    pub fn set_models(&mut self, models: Vec<SightModel>) {
        self.model_shapes = models.iter().map(|m| model_shape(&m.solid)).collect();
        self.standing = models.iter().map(|m| self.standing_of(&m.solid)).collect();
        self.models = models;
        self.rebuild_models();
    }

    /// Moves model `index` (after a move, a pile-in...).
    pub fn move_model(&mut self, index: usize, solid: ModelSolid) {
        self.models[index].solid = solid;
        self.model_shapes[index] = model_shape(&solid);
        self.standing[index] = self.standing_of(&solid);
        self.rebuild_models();
    }

    /// The models in the index.
    pub fn models(&self) -> &[SightModel] {
        &self.models
    }

    /// Id of terrain piece `index`.
    pub fn piece_id(&self, index: usize) -> &str {
        &self.pieces[index].id
    }

    /// Index of the terrain piece with this id.
    pub fn piece_by_id(&self, id: &str) -> Option<usize> {
        self.pieces.iter().position(|p| p.id == id)
    }

    /// Category of terrain piece `index`.
    pub fn piece_category(&self, index: usize) -> TerrainCategory {
        self.pieces[index].category
    }

    /// Footprint of terrain piece `index` (inches).
    pub fn piece_footprint(&self, index: usize) -> &[Vec2] {
        &self.pieces[index].footprint
    }

    fn rebuild_models(&mut self) {
        let aabbs: Vec<Aabb> = self
            .model_shapes
            .iter()
            .map(|(s, p)| s.compute_aabb(p))
            .collect();
        self.model_bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &aabbs);
    }

    fn standing_of(&self, solid: &ModelSolid) -> Standing {
        let r = solid.base.bounding_radius_inches();
        self.pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| {
                solid.centre.x + r >= p.lo.x
                    && solid.centre.x - r <= p.hi.x
                    && solid.centre.y + r >= p.lo.y
                    && solid.centre.y - r <= p.hi.y
            })
            .filter_map(|(i, p)| {
                within_footprint(solid, &p.footprint)
                    .then(|| (i, true, wholly_within_footprint(solid, &p.footprint)))
            })
            .collect()
    }

    /// True when model `index` is wholly within a ruin footprint.
    pub fn wholly_within_category(&self, index: usize, category: TerrainCategory) -> Option<usize> {
        self.standing[index]
            .iter()
            .find(|(p, _, wholly)| *wholly && self.pieces[*p].category == category)
            .map(|(p, _, _)| *p)
    }

    /// The terrain pieces model `index` is (partly) within.
    pub fn pieces_under(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        self.standing[index].iter().map(|(p, _, _)| *p)
    }

    /// Footprints (ruin and low) that forbid sight between this observer and target, and the
    /// woods that spoil "fully visible", after the exemptions of the rules.
    fn applicable(
        &self,
        observer: &SightModel,
        oi: Option<usize>,
        target: &SightModel,
        ti: Option<usize>,
    ) -> (Vec<usize>, Vec<usize>) {
        let in_piece = |i: Option<usize>, solid: &ModelSolid, piece: usize, wholly: bool| match i {
            Some(i) => self.standing[i]
                .iter()
                .any(|(p, _, w)| *p == piece && (!wholly || *w)),
            None => {
                let f = &self.pieces[piece].footprint;
                if wholly {
                    wholly_within_footprint(solid, f)
                } else {
                    within_footprint(solid, f)
                }
            }
        };
        let mut footprints = Vec::new();
        let mut woods = Vec::new();
        let lo = observer.solid.centre.min(target.solid.centre);
        let hi = observer.solid.centre.max(target.solid.centre);
        let r = observer
            .solid
            .base
            .bounding_radius_inches()
            .max(target.solid.base.bounding_radius_inches());
        for (i, p) in self.pieces.iter().enumerate() {
            if p.hi.x < lo.x - r || p.lo.x > hi.x + r || p.hi.y < lo.y - r || p.lo.y > hi.y + r {
                continue;
            }
            match p.category {
                TerrainCategory::Ruin | TerrainCategory::LowFootprint => {
                    let exempt = observer.aircraft
                        || target.aircraft
                        || in_piece(ti, &target.solid, i, false)
                        || in_piece(oi, &observer.solid, i, true)
                        || (observer.towering && in_piece(oi, &observer.solid, i, false));
                    if !exempt {
                        footprints.push(i);
                    }
                }
                TerrainCategory::Woods => {
                    if !(observer.aircraft
                        || target.aircraft
                        || observer.towering
                        || target.towering)
                    {
                        woods.push(i);
                    }
                }
                _ => {}
            }
        }
        (footprints, woods)
    }

    /// What blocks the line `from` → `to`, if anything.
    fn line_blocker(
        &self,
        from: Vec3,
        to: Vec3,
        footprints: &[usize],
        may_pass: &dyn Fn(usize) -> bool,
    ) -> Option<Blocker> {
        for &i in footprints {
            if polygon::segment_enters(from.truncate(), to.truncate(), &self.pieces[i].footprint) {
                return Some(Blocker::Footprint {
                    piece: self.pieces[i].id.clone(),
                    category: self.pieces[i].category,
                });
            }
        }
        let dir = to - from;
        let ray = Ray::new(from, dir);
        let max = 1.0 - 1e-4;
        if let Some((leaf, _)) = self.terrain_bvh.cast_ray(&ray, max, |leaf, best| {
            let (shape, pose, _, _) = &self.terrain[leaf as usize];
            shape.cast_ray(pose, &ray, best, true)
        }) {
            let (_, _, piece, part) = &self.terrain[leaf as usize];
            return Some(Blocker::Terrain {
                piece: self.pieces[*piece].id.clone(),
                part: match part {
                    Part::Wall => "wall",
                    Part::Floor => "floor",
                },
            });
        }
        self.model_bvh
            .cast_ray(&ray, max, |leaf, best| {
                if may_pass(leaf as usize) {
                    return None;
                }
                let (shape, pose) = &self.model_shapes[leaf as usize];
                shape.cast_ray(pose, &ray, best, true)
            })
            .map(|(leaf, _)| Blocker::Model {
                model: leaf as usize,
                unit: self.models[leaf as usize].unit,
            })
    }

    fn woods_on(&self, from: Vec3, to: Vec3, woods: &[usize]) -> Option<Blocker> {
        woods
            .iter()
            .find(|&&i| {
                polygon::segment_enters(from.truncate(), to.truncate(), &self.pieces[i].footprint)
            })
            .map(|&i| Blocker::Woods {
                piece: self.pieces[i].id.clone(),
            })
    }

    /// Visibility of model `target` to model `observer` (indices in the index).
    pub fn model_visibility(
        &self,
        observer: usize,
        target: usize,
        see: SeeThrough,
        sampling: &Sampling,
    ) -> ModelVisibility {
        let o = &self.models[observer];
        let t = &self.models[target];
        self.visibility(o, Some(observer), t, Some(target), see, sampling)
    }

    /// Visibility between two models that need not be in the index (e.g. a heatmap probe);
    /// `observer_index`/`target_index` name them when they are.
    pub fn visibility(
        &self,
        o: &SightModel,
        observer_index: Option<usize>,
        t: &SightModel,
        target_index: Option<usize>,
        see: SeeThrough,
        sampling: &Sampling,
    ) -> ModelVisibility {
        let (footprints, woods) = self.applicable(o, observer_index, t, target_index);
        let may_pass = |m: usize| {
            let model = &self.models[m];
            match see {
                SeeThrough::AllModels => true,
                SeeThrough::OwnUnit => {
                    Some(m) == target_index || Some(m) == observer_index || model.unit == o.unit
                }
                SeeThrough::OwnAndTargetUnit => {
                    Some(m) == target_index
                        || Some(m) == observer_index
                        || model.unit == o.unit
                        || model.unit == t.unit
                }
            }
        };
        let eyes = sampling.points(&o.solid, sampling.observer_rings);
        let targets = sampling.points(&t.solid, sampling.target_rings);
        let mut rays = 0;
        // Visible: the first clear line.
        let mut witness = None;
        let mut blocked_by = None;
        'search: for (e, _) in &eyes {
            for (p, _) in &targets {
                rays += 1;
                match self.line_blocker(*e, *p, &footprints, &may_pass) {
                    None => {
                        witness = Some([*e, *p]);
                        break 'search;
                    }
                    Some(b) if blocked_by.is_none() => blocked_by = Some(b),
                    Some(_) => {}
                }
            }
        }
        let visible = witness.is_some();
        if !visible {
            return ModelVisibility {
                visible,
                fully_visible: false,
                witness,
                not_fully_because: blocked_by.clone(),
                blocked_by,
                rays,
            };
        }
        // Fully visible: every facing point seen through a clear, woods-free line.
        let wholly_in_woods = if o.aircraft || o.towering || t.aircraft || t.towering {
            None
        } else {
            self.pieces.iter().find(|p| {
                p.category == TerrainCategory::Woods
                    && wholly_within_footprint(&t.solid, &p.footprint)
            })
        };
        let mut not_fully_because = wholly_in_woods.map(|p| Blocker::WhollyWithinWoods {
            piece: p.id.clone(),
        });
        if not_fully_because.is_none() {
            let eye = o.solid.centre.extend(o.solid.top());
            for (p, normal) in &targets {
                let facing = if *normal == Vec2::ZERO {
                    eye.z >= t.solid.top()
                } else {
                    normal.dot(o.solid.centre - p.truncate()) > 1e-4
                };
                if !facing {
                    continue;
                }
                let mut first = None;
                let mut seen = false;
                for (e, _) in &eyes {
                    rays += 1;
                    let b = self
                        .line_blocker(*e, *p, &footprints, &may_pass)
                        .or_else(|| self.woods_on(*e, *p, &woods));
                    match b {
                        None => {
                            seen = true;
                            break;
                        }
                        Some(b) if first.is_none() => first = Some(b),
                        Some(_) => {}
                    }
                }
                if !seen {
                    not_fully_because = first;
                    break;
                }
            }
        }
        ModelVisibility {
            visible,
            fully_visible: not_fully_because.is_none(),
            witness,
            blocked_by: None,
            not_fully_because,
            rays,
        }
    }
}

/// The convex volume of a model for ray casts.
fn model_shape(solid: &ModelSolid) -> (SharedShape, Pose) {
    let outline = solid.base.outline(Vec2::ZERO, solid.facing);
    let pts: Vec<Vec3> = outline
        .iter()
        .flat_map(|v| [v.extend(0.0), v.extend(solid.height)])
        .collect();
    let shape = SharedShape::convex_hull(&pts).expect("a base outline has area");
    (shape, Pose::from_translation(solid.centre.extend(solid.z)))
}

impl SightIndex {
    /// The bare parry3d query under every sight line: one ray cast from `from` to `to` against
    /// the terrain BVH, returning the time of impact of the first hit (0-1 along the segment).
    /// No rules, no models: the unit cost the benchmarks compare against.
    pub fn cast_terrain_ray(&self, from: Vec3, to: Vec3) -> Option<f32> {
        let ray = Ray::new(from, to - from);
        self.terrain_bvh
            .cast_ray(&ray, 1.0, |leaf, best| {
                let (shape, pose, _, _) = &self.terrain[leaf as usize];
                shape.cast_ray(pose, &ray, best, true)
            })
            .map(|(_, toi)| toi)
    }
}
