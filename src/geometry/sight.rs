//! True line of sight: a parry3d sight index over terrain solids and model volumes, and the
//! visibility predicates of the 10th edition rules with the evidence for each answer.
//!
//! # Rules (Core Rules: Determining Visibility; Rules Commentary: Model Visible, Model Fully
//! Visible, Unit Visible, Unit Fully Visible; Core Rules: Ruins, Woods; shared/RULES.md)
//! - A sight line is blocked by terrain solids (ruin walls, split around their window openings,
//!   ruin floors, and the bodies of barricades, hills and battlefield debris given as a height
//!   without walls) and by other models' volumes. The observer always sees through the other
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

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError, Weak};

use parry3d::bounding_volume::Aabb;
use parry3d::math::Pose;
use parry3d::partitioning::{Bvh, BvhBuildStrategy};
use parry3d::query::{Ray, RayCast};
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
                let (local, normal) = match solid.base {
                    // Hull points are spread evenly along the perimeter (so long sides get
                    // their share), each with the outward normal of its side.
                    super::Base::Hull { .. } => perimeter_point(a / std::f32::consts::TAU, h),
                    _ => (
                        Vec2::new(h.x * a.cos(), h.y * a.sin()),
                        Vec2::new(a.cos() / h.x, a.sin() / h.y).normalize(),
                    ),
                };
                let world = Vec2::new(local.x * c - local.y * s, local.x * s + local.y * c);
                let normal = Vec2::new(normal.x * c - normal.y * s, normal.x * s + normal.y * c);
                out.push(((solid.centre + world).extend(z), normal));
            }
        }
        out
    }
}

/// A point on the outline of a rectangle with half extents `h` in direction `a`.
fn perimeter_point(fraction: f32, h: Vec2) -> (Vec2, Vec2) {
    let (w, d) = (2.0 * h.x, 2.0 * h.y);
    let mut s = fraction.rem_euclid(1.0) * 2.0 * (w + d);
    // Counter-clockwise from the front-left corner (h.x, h.y): left side, back, right, front.
    let sides = [
        (
            Vec2::new(h.x, h.y),
            Vec2::new(-1.0, 0.0),
            w,
            Vec2::new(0.0, 1.0),
        ),
        (
            Vec2::new(-h.x, h.y),
            Vec2::new(0.0, -1.0),
            d,
            Vec2::new(-1.0, 0.0),
        ),
        (
            Vec2::new(-h.x, -h.y),
            Vec2::new(1.0, 0.0),
            w,
            Vec2::new(0.0, -1.0),
        ),
        (
            Vec2::new(h.x, -h.y),
            Vec2::new(0.0, 1.0),
            d,
            Vec2::new(1.0, 0.0),
        ),
    ];
    for (start, dir, len, normal) in sides {
        if s <= len {
            return (start + dir * s, normal);
        }
        s -= len;
    }
    (Vec2::new(h.x, h.y), Vec2::new(0.0, 1.0))
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
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Blocker {
    /// A terrain solid (a wall or floor) of the piece.
    Terrain {
        /// Piece id in the layout.
        piece: String,
        /// Which part: "wall", "floor" or "body" (a wall-less barricade, hill or debris).
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
    /// 11th edition Obscuring: the line crosses a terrain area holding a Light or Dense
    /// feature that neither model is within (11th Core Rules 13.10).
    Obscuring {
        /// Area id in the layout (a piece's id for a piece's own footprint).
        area: String,
    },
    /// 11th edition Hidden: the target is Hidden and the observer is beyond its detection range
    /// (11th Core Rules 13.09).
    Hidden {
        /// Closest distance between the two models (inches).
        distance: f32,
        /// The detection range (inches).
        range: f32,
    },
    /// 11th edition Lone Operative: the target is a Lone Operative and the observer is
    /// farther away than its range (11th Core Rules 24.24).
    LoneOperative {
        /// Closest distance between the two models (inches).
        distance: f32,
        /// The Lone Operative range (inches).
        range: f32,
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
            Blocker::Obscuring { area } => Some(area),
            Blocker::Model { .. } | Blocker::Hidden { .. } | Blocker::LoneOperative { .. } => None,
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
            Blocker::Obscuring { area } => write!(f, "the Obscuring terrain area {area}"),
            Blocker::Hidden { distance, range } => {
                write!(f, "hidden: {distance:.1}\" > {range}\"")
            }
            Blocker::LoneOperative { distance, range } => {
                write!(f, "a Lone Operative: {distance:.1}\" > {range}\"")
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

impl ModelVisibility {
    /// Not visible because of `blocker` (which also keeps it from being fully visible), after
    /// `rays` sight lines.
    fn blocked(blocker: Blocker, rays: usize) -> Self {
        ModelVisibility {
            visible: false,
            fully_visible: false,
            witness: None,
            not_fully_because: Some(blocker.clone()),
            blocked_by: Some(blocker),
            rays,
        }
    }
}

#[derive(Debug, Clone)]
struct Piece {
    id: String,
    category: TerrainCategory,
    footprint: Vec<Vec2>,
    lo: Vec2,
    hi: Vec2,
    /// For a convex footprint: each edge's start point and inward normal (Cyrus-Beck clipping).
    convex_edges: Option<Vec<(Vec2, Vec2)>>,
    /// An 11th edition terrain area that is Obscuring (false for the layout's pieces).
    obscuring: bool,
}

impl Piece {
    /// True when the segment `a`-`b` passes through the footprint's interior.
    fn crossed_by(&self, a: Vec2, b: Vec2) -> bool {
        if a.x.max(b.x) < self.lo.x
            || a.x.min(b.x) > self.hi.x
            || a.y.max(b.y) < self.lo.y
            || a.y.min(b.y) > self.hi.y
        {
            return false;
        }
        let Some(edges) = &self.convex_edges else {
            return polygon::segment_enters(a, b, &self.footprint);
        };
        // Cyrus-Beck: clip the segment to the inside of every edge; it enters the interior
        // when a stretch of positive length survives strictly inside.
        let d = b - a;
        let (mut t0, mut t1) = (0.0f32, 1.0f32);
        for (p, n) in edges {
            let num = n.dot(a - *p);
            let den = n.dot(d);
            if den.abs() < 1e-9 {
                if num <= 1e-5 {
                    return false; // parallel to this edge, outside or along it
                }
            } else {
                let t = -num / den;
                if den > 0.0 {
                    t0 = t0.max(t);
                } else {
                    t1 = t1.min(t);
                }
            }
        }
        if t1 - t0 <= 1e-6 {
            return false;
        }
        // The middle of the surviving stretch must be strictly inside, not on an edge.
        let m = a + d * ((t0 + t1) / 2.0);
        edges.iter().all(|(p, n)| n.dot(m - *p) > 1e-5)
    }
}

/// Inward unit edge normals of a convex polygon, or `None` when it is not convex (or has
/// repeated or doubling-back vertices, which the general test handles).
fn convex_edges(footprint: &[Vec2]) -> Option<Vec<(Vec2, Vec2)>> {
    let sign = polygon::signed_area(footprint).signum();
    let n = footprint.len();
    let convex = polygon::is_convex(footprint)
        && (0..n).all(|i| {
            let (a, b, c) = (footprint[i], footprint[(i + 1) % n], footprint[(i + 2) % n]);
            let (ab, bc) = (b - a, c - b);
            ab.length() > 1e-4 && !(ab.perp_dot(bc).abs() < 1e-6 && ab.dot(bc) < 0.0)
        });
    convex.then(|| {
        polygon::edges(footprint)
            .map(|(a, b)| {
                let e = (b - a).normalize();
                (a, Vec2::new(-e.y, e.x) * sign)
            })
            .collect()
    })
}

/// What stopped a line, before it is named for a report (no allocation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Raw {
    Footprint(usize),
    Terrain(usize, Part),
    Model(usize),
    Woods(usize),
}

/// The sight lines between one pair of models, with what the lines share: the footprints
/// that apply to the pair, which models a line may pass, the footprint and terrain solid that
/// stopped the last lines, and each 2D segment's footprint answer (a footprint stops a line
/// whatever its height, and points stacked one above the other share their 2D position).
struct Lines<'a> {
    footprints: &'a [usize],
    /// Which models a line may pass through; None when every model may (terrain only), so
    /// the model volumes are not searched at all.
    may_pass: Option<&'a dyn Fn(usize) -> bool>,
    /// Position in `footprints` of the footprint that stopped the last segment.
    last: std::cell::Cell<usize>,
    /// The terrain solid that stopped the last line ([`SightIndex::line_blocked`]).
    wall: std::cell::Cell<Option<u32>>,
    /// The 2D column of each eye point and each target point.
    eye_column: Vec<u16>,
    target_column: Vec<u16>,
    target_columns: usize,
    /// By (eye column, target column): the footprint crossed ([`Lines::NONE`]: none), or
    /// [`Lines::UNKNOWN`] before the segment is tested.
    crossed: std::cell::RefCell<Vec<i32>>,
    /// The box that holds every line of the pair (all eye and target points).
    bounds: Aabb,
    /// The terrain solids whose boxes meet `bounds`, found on the first line that needs them
    /// (None: too many to try one by one, so the BVH is searched).
    terrain_near: std::cell::OnceCell<Option<Vec<u32>>>,
    /// The models that may not be passed whose boxes meet `bounds` and the band, found
    /// likewise.
    models_near: std::cell::OnceCell<Vec<u32>>,
    /// The model that blocked the last line ([`SightIndex::any_model_blocker`]).
    last_model: std::cell::Cell<Option<u32>>,
    /// The band every line of the pair lies in, seen from above: the segment between the eye
    /// points' centre and the target points' centre, widened by the farthest point's distance
    /// from its centre. A line from eye `e` to target `t` at fraction `s` is within
    /// `(1 - s)|e - ce| + s|t - ct|` of the segment, so no line leaves the band.
    band: (Vec2, Vec2, f32),
}

impl<'a> Lines<'a> {
    const UNKNOWN: i32 = -2;
    const NONE: i32 = -1;

    fn new(
        footprints: &'a [usize],
        may_pass: Option<&'a dyn Fn(usize) -> bool>,
        eyes: &[(Vec3, Vec2)],
        targets: &[(Vec3, Vec2)],
    ) -> Self {
        // Columns matter only when some footprint applies.
        let (eye_column, eye_columns) = columns(if footprints.is_empty() { &[] } else { eyes });
        let (target_column, target_columns) =
            columns(if footprints.is_empty() { &[] } else { targets });
        Lines {
            footprints,
            may_pass,
            last: std::cell::Cell::new(0),
            wall: std::cell::Cell::new(None),
            eye_column,
            target_column,
            target_columns,
            crossed: std::cell::RefCell::new(vec![Self::UNKNOWN; eye_columns * target_columns]),
            bounds: Aabb::from_points(eyes.iter().chain(targets).map(|(p, _)| *p)),
            terrain_near: std::cell::OnceCell::new(),
            models_near: std::cell::OnceCell::new(),
            last_model: std::cell::Cell::new(None),
            band: band(eyes, targets),
        }
    }

    /// Above this many terrain solids near the pair, a line searches the BVH instead.
    const NEAR_LIMIT: usize = 16;
}

/// [`Lines::band`] of the lines from `eyes` to `targets`.
fn band(eyes: &[(Vec3, Vec2)], targets: &[(Vec3, Vec2)]) -> (Vec2, Vec2, f32) {
    let flat = |p: Vec3| Vec2::new(p.x, p.y);
    let centre = |ps: &[(Vec3, Vec2)]| {
        let sum = ps.iter().fold(Vec2::ZERO, |s, (p, _)| s + flat(*p));
        sum / ps.len().max(1) as f32
    };
    let (ce, ct) = (centre(eyes), centre(targets));
    let spread = |ps: &[(Vec3, Vec2)], c: Vec2| {
        ps.iter()
            .map(|(p, _)| flat(*p).distance(c))
            .fold(0.0f32, f32::max)
    };
    (ce, ct, spread(eyes, ce).max(spread(targets, ct)))
}

/// Each point's column (points with the same 2D position share one, numbered in order of
/// first appearance) and the number of columns.
fn columns(points: &[(Vec3, Vec2)]) -> (Vec<u16>, usize) {
    let mut firsts: Vec<Vec2> = Vec::new();
    let of = points
        .iter()
        .map(|(p, _)| {
            let p = p.truncate();
            let c = firsts.iter().position(|f| *f == p).unwrap_or_else(|| {
                firsts.push(p);
                firsts.len() - 1
            });
            c as u16
        })
        .collect();
    (of, firsts.len())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Wall,
    Floor,
    Body,
}

/// True when the piece's own body (its footprint raised to its height) is a solid that blocks
/// sight: barricades, hills and battlefield debris described by a height instead of walls.
/// Woods (which never block "visible"), craters and footprint-only pieces have no body here.
fn has_solid_body(piece: &TerrainPiece) -> bool {
    piece.walls.is_empty()
        && piece.height > 0.0
        && matches!(
            piece.category,
            TerrainCategory::Barricade | TerrainCategory::Hill | TerrainCategory::Debris
        )
}

/// Terrain pieces that matter for one sight query (on the stack: a handful at most).
type PieceList = smallvec::SmallVec<[usize; 8]>;

/// Where a model stands relative to each footprint: (piece, within, wholly within).
type Standing = Vec<(usize, bool, bool)>;

/// One end of a sight query: the model, its index in the sight index (if it is there), and
/// where it stands.
type Viewer<'a> = (&'a SightModel, Option<usize>, &'a [(usize, bool, bool)]);

/// A model that is not on the table, with where it stands relative to the terrain (see
/// [`SightIndex::probe`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    /// The model.
    pub model: SightModel,
    standing: Standing,
}

/// Which edition's terrain sight rules a sight index applies (the rules module's ruleset
/// chooses one for a scene).
#[derive(Debug, Clone, PartialEq)]
pub enum TerrainRules {
    /// 10th edition: ruin and low footprints, woods, and the ground-floor-windows-closed
    /// convention when asked (Core Rules: Ruins, Woods).
    Tenth {
        /// Openings below a ruin's first floor are closed.
        ground_floor_windows_closed: bool,
    },
    /// 11th edition (11th Core Rules 06.01, 13.09-13.11): the layout's terrain areas, Obscuring
    /// when they hold a Light or Dense feature; gaps of Dense features this low are Solid; the
    /// target's unit never blocks; Hidden models are seen only within the detection range.
    Eleventh {
        /// The layout's terrain areas.
        areas: Vec<super::TerrainArea>,
        /// Gaps whose bottom is this high or lower are closed in Dense features (inches).
        solid_gap_inches: f32,
        /// Detection range of Hidden models (inches).
        hidden_detection_range_inches: f32,
    },
}

impl TerrainRules {
    /// 10th edition with the window convention given.
    pub fn tenth(ground_floor_windows_closed: bool) -> Self {
        TerrainRules::Tenth {
            ground_floor_windows_closed,
        }
    }

    /// The walls' openings closed below this height for `piece` (index `i` in the layout).
    fn closed_below(&self, piece: &TerrainPiece) -> Option<f32> {
        match self {
            TerrainRules::Tenth {
                ground_floor_windows_closed,
            } => ground_floor_windows_closed.then(|| piece.first_floor_height()),
            TerrainRules::Eleventh {
                areas,
                solid_gap_inches,
                ..
            } => {
                let dense = areas.iter().any(|a| {
                    a.category == super::FeatureCategory::Dense && a.pieces.contains(&piece.id)
                });
                // An opening stays open only when its bottom is above the Solid height.
                dense.then_some(solid_gap_inches + SOLID_GAP_EPSILON_INCHES)
            }
        }
    }
}

/// An opening whose bottom is at the 11th edition Solid height is closed: walls keep openings
/// whose bottom is at least the closing height, so that height is this much above it.
const SOLID_GAP_EPSILON_INCHES: f32 = 1e-3;

/// The terrain part of a sight index: the layout's footprints (for the ruin, low-footprint
/// and woods rules) and its terrain solids in a parry3d BVH. It never changes once built, so
/// sight indices hold it in an [`Arc`] and share it: cloning an index, or building one for an
/// equal layout while another is in use, does not build it again (see [`TerrainSight::shared`]).
pub struct TerrainSight {
    pieces: Vec<Piece>,
    solids: Vec<(SharedShape, Pose, usize, Part)>,
    /// Each solid's box, in `solids` order.
    aabbs: Vec<Aabb>,
    bvh: Bvh,
    /// The layout it was built from, to recognise an equal layout.
    layout: Vec<TerrainPiece>,
    /// The edition's terrain rules it was built with.
    rules: TerrainRules,
    /// How many of `pieces` are the layout's pieces; under 11th the layout's terrain areas
    /// follow them.
    features: usize,
}

impl std::fmt::Debug for TerrainSight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TerrainSight")
            .field("pieces", &self.pieces.len())
            .field("solids", &self.solids.len())
            .field("rules", &self.rules)
            .finish()
    }
}

/// Terrain parts in use, to share between indices of equal layouts. Only weak references:
/// a terrain part is dropped with the last index holding it.
static TERRAIN_IN_USE: Mutex<Vec<Weak<TerrainSight>>> = Mutex::new(Vec::new());

impl TerrainSight {
    /// Builds the terrain part of a layout: wall boxes split around their openings (with
    /// `ground_floor_windows_closed`, the tournament convention), floors, the bodies of
    /// wall-less barricades, hills and debris, and the footprints.
    pub fn build(pieces: &[TerrainPiece], ground_floor_windows_closed: bool) -> Self {
        Self::build_under(pieces, &TerrainRules::tenth(ground_floor_windows_closed))
    }

    /// Builds the terrain part of a layout under an edition's terrain rules: as [`Self::build`]
    /// for 10th; for 11th the walls of Dense features closed up to the Solid height, and the
    /// terrain areas kept beside the pieces' footprints.
    pub fn build_under(pieces: &[TerrainPiece], rules: &TerrainRules) -> Self {
        let mut solids = Vec::new();
        for (i, p) in pieces.iter().enumerate() {
            let closed_below = rules.closed_below(p);
            for b in p.walls.iter().flat_map(|w| w.solid_boxes(closed_below)) {
                let pose = Pose::new(b.centre, Vec3::new(0.0, 0.0, b.yaw_radians));
                let shape =
                    SharedShape::cuboid(b.half_extents.x, b.half_extents.y, b.half_extents.z);
                solids.push((shape, pose, i, Part::Wall));
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
                // A rectangular floor is a box (closed-form ray casts); other floors are convex
                // in practice, and a concave one is covered by its hull.
                if let Some((shape, pose)) =
                    rectangle_box(&f.area, f.height - FLOOR_THICKNESS_INCHES, f.height)
                {
                    solids.push((shape, pose, i, Part::Floor));
                } else if let Some(shape) = SharedShape::convex_hull(&pts) {
                    solids.push((shape, Pose::IDENTITY, i, Part::Floor));
                }
            }
            if has_solid_body(p) {
                // One prism per triangle, so that a concave footprint is not filled in.
                for tri in polygon::triangulate(&p.footprint) {
                    let pts: Vec<Vec3> = tri
                        .iter()
                        .flat_map(|&k| {
                            [p.footprint[k].extend(0.0), p.footprint[k].extend(p.height)]
                        })
                        .collect();
                    if let Some(shape) = SharedShape::convex_hull(&pts) {
                        solids.push((shape, Pose::IDENTITY, i, Part::Body));
                    }
                }
            }
        }
        let aabbs: Vec<Aabb> = solids
            .iter()
            .map(|(s, p, _, _)| s.compute_aabb(p))
            .collect();
        let piece = |id: &str, category, footprint: &[Vec2], obscuring| {
            let (lo, hi) = polygon::bounds(footprint);
            Piece {
                id: id.to_string(),
                category,
                footprint: footprint.to_vec(),
                lo,
                hi,
                convex_edges: convex_edges(footprint),
                obscuring,
            }
        };
        let mut footprints: Vec<Piece> = pieces
            .iter()
            .map(|p| piece(&p.id, p.category, &p.footprint, false))
            .collect();
        if let TerrainRules::Eleventh { areas, .. } = rules {
            for a in areas.iter().filter(|a| a.outline.len() >= 3) {
                // An area's own kind is its first piece's (for the reports only).
                let category = a
                    .pieces
                    .first()
                    .and_then(|id| pieces.iter().find(|p| &p.id == id))
                    .map_or(TerrainCategory::LowFootprint, |p| p.category);
                footprints.push(piece(&a.id, category, &a.outline, a.obscuring()));
            }
        }
        TerrainSight {
            pieces: footprints,
            bvh: Bvh::from_leaves(BvhBuildStrategy::Binned, &aabbs),
            aabbs,
            solids,
            layout: pieces.to_vec(),
            rules: rules.clone(),
            features: pieces.len(),
        }
    }

    /// The terrain part of a layout, shared: when a terrain part built from an equal layout
    /// (the same pieces, the same window convention) is still held by some sight index (a
    /// game's, the desktop's, the computer player's), that one; otherwise a new one, which
    /// later calls share while it is held.
    pub fn shared(pieces: &[TerrainPiece], ground_floor_windows_closed: bool) -> Arc<Self> {
        Self::shared_under(pieces, &TerrainRules::tenth(ground_floor_windows_closed))
    }

    /// [`Self::shared`] under an edition's terrain rules.
    pub fn shared_under(pieces: &[TerrainPiece], rules: &TerrainRules) -> Arc<Self> {
        let find = |in_use: &mut Vec<Weak<TerrainSight>>| {
            in_use.retain(|t| t.strong_count() > 0);
            in_use
                .iter()
                .filter_map(Weak::upgrade)
                .find(|t| t.is_for_under(pieces, rules))
        };
        let lock = || {
            TERRAIN_IN_USE
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
        };
        if let Some(t) = find(&mut lock()) {
            return t;
        }
        // Built outside the lock; another thread may have built the same layout meanwhile.
        let built = Arc::new(Self::build_under(pieces, rules));
        let mut in_use = lock();
        if let Some(t) = find(&mut in_use) {
            return t;
        }
        in_use.push(Arc::downgrade(&built));
        built
    }

    /// True when this terrain part was built from `pieces` with this window convention.
    pub fn is_for(&self, pieces: &[TerrainPiece], ground_floor_windows_closed: bool) -> bool {
        self.is_for_under(pieces, &TerrainRules::tenth(ground_floor_windows_closed))
    }

    /// True when this terrain part was built from `pieces` under these terrain rules.
    pub fn is_for_under(&self, pieces: &[TerrainPiece], rules: &TerrainRules) -> bool {
        self.rules == *rules && self.layout == pieces
    }

    /// The terrain rules it was built with.
    pub fn rules(&self) -> &TerrainRules {
        &self.rules
    }

    /// Where a model stands relative to each footprint.
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
            .filter(|(_, p)| within_footprint(solid, &p.footprint))
            .map(|(i, p)| (i, true, wholly_within_footprint(solid, &p.footprint)))
            .collect()
    }
}

/// The model part of a sight index: each model, its volume (in a parry3d BVH), where it stands
/// relative to the footprints, its [`Sampling::FAST`] points, and the [`Sampling::FAST`]
/// answers found so far for these very models.
#[derive(Default)]
struct ModelVolumes {
    list: Vec<SightModel>,
    shapes: Vec<(SharedShape, Pose)>,
    /// Each volume's box, in `list` order (made with the BVH).
    aabbs: Vec<Aabb>,
    bvh: Bvh,
    standing: Vec<Standing>,
    /// Each model's [`Sampling::FAST`] points as (observer points, target points).
    fast_points: Vec<SamplePoints>,
    /// Answers already worked out with [`Sampling::FAST`] between models of this list, by
    /// (observer, target, see-through): the same question is asked again and again while
    /// nothing moves (every weapon, profile and target a player weighs). When models change,
    /// only the answers that cannot have changed are kept ([`Answer::lasts_without_models`],
    /// [`SightIndex::update_models`]); a clone starts with none (a clone is made to be
    /// changed).
    answers: Mutex<HashMap<(u32, u32, SeeThrough), Answer>>,
}

/// A remembered [`SightIndex::inner`] answer.
#[derive(Clone)]
enum Answer {
    /// Visible ("fully visible" not worked out).
    Visible,
    /// Not visible. `terrain_only`: every line was stopped by terrain or a footprint.
    Hidden { terrain_only: bool },
    /// The whole answer, with `terrain_only` as for [`Answer::Hidden`] (false when visible).
    Full(ModelVisibility, bool),
}

impl Answer {
    /// Whether the target was visible.
    fn visible(&self) -> bool {
        match self {
            Answer::Visible => true,
            Answer::Hidden { .. } => false,
            Answer::Full(v, _) => v.visible,
        }
    }

    /// True for an answer that holds whatever the other models do (arrive, leave or move) as
    /// long as the two models stay where they are: a target hidden by terrain alone.
    fn lasts_without_models(&self) -> bool {
        matches!(
            self,
            Answer::Hidden { terrain_only: true } | Answer::Full(_, true)
        )
    }
}

impl Clone for ModelVolumes {
    fn clone(&self) -> Self {
        ModelVolumes {
            list: self.list.clone(),
            shapes: self.shapes.clone(),
            aabbs: self.aabbs.clone(),
            bvh: self.bvh.clone(),
            standing: self.standing.clone(),
            fast_points: self.fast_points.clone(),
            answers: Mutex::default(),
        }
    }
}

impl ModelVolumes {
    /// Appends a model, working out its volume, standing and sample points (the BVH is rebuilt
    /// separately).
    fn push(&mut self, terrain: &TerrainSight, model: SightModel) {
        self.shapes.push(model_shape(&model.solid));
        self.standing.push(terrain.standing_of(&model.solid));
        self.fast_points.push(fast_points(&model.solid));
        self.list.push(model);
    }

    /// Replaces model `index`, working out its volume, standing and sample points again (the
    /// BVH is rebuilt separately).
    fn set(&mut self, terrain: &TerrainSight, index: usize, model: SightModel) {
        self.shapes[index] = model_shape(&model.solid);
        self.standing[index] = terrain.standing_of(&model.solid);
        self.fast_points[index] = fast_points(&model.solid);
        self.list[index] = model;
    }

    /// Rebuilds the BVH over the models' volumes.
    fn rebuild_bvh(&mut self) {
        self.aabbs = self.shapes.iter().map(|(s, p)| s.compute_aabb(p)).collect();
        self.bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &self.aabbs);
    }

    /// After the models `moved` changed in place: keeps only the answers between unchanged
    /// models that no model can change.
    fn forget_answers(&mut self, moved: &[usize]) {
        let mut moved_now = vec![false; self.list.len()];
        for &i in moved {
            moved_now[i] = true;
        }
        self.answers
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|&(o, t, _), answer| {
                answer.lasts_without_models() && !moved_now[o as usize] && !moved_now[t as usize]
            });
    }
}

/// The sight index: terrain solids and model volumes in parry3d BVHs, plus the footprints the
/// ruins and woods rules need. Table coordinates (inches, z up).
///
/// Both parts are shared ([`Arc`]), so a clone costs two reference counts: the terrain part
/// never changes, and the model part is copied on the first change to a clone's models.
#[derive(Clone)]
pub struct SightIndex {
    terrain: Arc<TerrainSight>,
    models: Arc<ModelVolumes>,
    /// Under 11th: which models (by index) may be Hidden (INFANTRY, BEASTS or SWARM whose unit
    /// made no ranged attack this turn or the previous one); the others, and every model
    /// beyond the list, may not ([`SightIndex::set_may_hide`]).
    may_hide: Arc<Vec<bool>>,
    /// Under 11th: which models (by index) are INFANTRY, BEASTS or SWARM, which have the
    /// Benefit of Cover within any terrain area (11th Core Rules 13.08).
    area_cover: Arc<Vec<bool>>,
    /// Under 11th: the range beyond which each model (by index) is not visible to any other
    /// model, for the models of Lone Operative units; None for the others and every model
    /// beyond the list ([`SightIndex::set_lone_operatives`]).
    lone_operatives: Arc<Vec<Option<f32>>>,
}

/// Sample points with their outward directions: (observer points, target points).
type SamplePoints = (Vec<(Vec3, Vec2)>, Vec<(Vec3, Vec2)>);

fn fast_points(solid: &ModelSolid) -> SamplePoints {
    let f = Sampling::FAST;
    (
        f.points(solid, f.observer_rings),
        f.points(solid, f.target_rings),
    )
}

/// Which models a sight line may pass through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SeeThrough {
    /// The observer's unit and the target model itself.
    OwnUnit,
    /// Also the target's whole unit (for "unit fully visible").
    OwnAndTargetUnit,
    /// Every model (terrain only).
    AllModels,
}

impl SightIndex {
    /// The index of a layout, with no models yet. `ground_floor_windows_closed` applies the
    /// tournament convention to the walls. The terrain part is shared with any index of an
    /// equal layout in use ([`TerrainSight::shared`]), else built.
    pub fn new(pieces: &[TerrainPiece], ground_floor_windows_closed: bool) -> Self {
        Self::on_terrain(TerrainSight::shared(pieces, ground_floor_windows_closed))
    }

    /// The index of a layout under an edition's terrain rules, with no models yet.
    pub fn new_under(pieces: &[TerrainPiece], rules: &TerrainRules) -> Self {
        Self::on_terrain(TerrainSight::shared_under(pieces, rules))
    }

    /// An index on this terrain part, with no models yet.
    pub fn on_terrain(terrain: Arc<TerrainSight>) -> Self {
        SightIndex {
            terrain,
            models: Arc::default(),
            may_hide: Arc::default(),
            area_cover: Arc::default(),
            lone_operatives: Arc::default(),
        }
    }

    /// Sets which models (by index) are INFANTRY, BEASTS or SWARM under 11th edition: within
    /// any terrain area they have the Benefit of Cover (11th Core Rules 13.08).
    pub fn set_area_cover(&mut self, area_cover: Vec<bool>) {
        if *self.area_cover != area_cover {
            self.area_cover = Arc::new(area_cover);
        }
    }

    /// Under 11th edition, true when model `index` has the Benefit of Cover by standing
    /// within a terrain area ([`Self::set_area_cover`]).
    pub fn covered_by_area(&self, index: usize) -> bool {
        self.area_cover.get(index).copied().unwrap_or(false) && self.within_area(index)
    }

    /// True when the probe stands (partly) within an 11th edition terrain area holding a Light
    /// or Dense feature: where an INFANTRY, BEASTS or SWARM model may be Hidden.
    pub fn probe_within_obscuring_area(&self, probe: &Probe) -> bool {
        probe
            .standing
            .iter()
            .any(|(p, _, _)| self.terrain.pieces[*p].obscuring)
    }

    /// The outlines of the 11th edition Obscuring terrain areas (none under 10th).
    pub fn obscuring_areas(&self) -> impl Iterator<Item = &[Vec2]> + '_ {
        self.terrain
            .pieces
            .iter()
            .filter(|p| p.obscuring)
            .map(|p| p.footprint.as_slice())
    }

    /// True when the index applies the 11th edition terrain rules.
    pub fn eleventh(&self) -> bool {
        matches!(self.terrain.rules, TerrainRules::Eleventh { .. })
    }

    /// Sets which models (by index) may be Hidden under 11th edition (11th Core Rules 13.09:
    /// INFANTRY, BEASTS or SWARM whose unit made no ranged attack this turn or the previous
    /// one). No effect under 10th.
    pub fn set_may_hide(&mut self, may_hide: Vec<bool>) {
        if *self.may_hide != may_hide {
            self.may_hide = Arc::new(may_hide);
        }
    }

    /// Sets the range beyond which each model (by index) is not visible: the 11th edition
    /// Lone Operative rule (11th Core Rules 24.24). None for a model without it.
    pub fn set_lone_operatives(&mut self, ranges: Vec<Option<f32>>) {
        if *self.lone_operatives != ranges {
            self.lone_operatives = Arc::new(ranges);
        }
    }

    /// Under 11th edition, why model `target` cannot be seen by model `observer` because it is
    /// a Lone Operative farther away than its range ([`Self::set_lone_operatives`]), or Hidden
    /// (11th Core Rules 13.09): it may hide, stands within an Obscuring terrain area, and the
    /// observer is farther than the detection range. None otherwise.
    pub fn hidden_from(&self, observer: usize, target: usize) -> Option<Blocker> {
        let distance = || {
            super::measure::model_distance(
                &self.models.list[observer].solid,
                &self.models.list[target].solid,
            )
            .distance
        };
        if let Some(range) = self.lone_operatives.get(target).copied().flatten() {
            let distance = distance();
            if distance > range {
                return Some(Blocker::LoneOperative { distance, range });
            }
        }
        let TerrainRules::Eleventh {
            hidden_detection_range_inches: range,
            ..
        } = self.terrain.rules
        else {
            return None;
        };
        if !self.may_hide.get(target).copied().unwrap_or(false)
            || !self.within_obscuring_area(target)
        {
            return None;
        }
        let distance = distance();
        (distance > range).then_some(Blocker::Hidden { distance, range })
    }

    /// True when model `index` is (partly) within an 11th edition terrain area holding a Light
    /// or Dense feature.
    pub fn within_obscuring_area(&self, index: usize) -> bool {
        self.models.standing[index]
            .iter()
            .any(|(p, _, _)| self.terrain.pieces[*p].obscuring)
    }

    /// True when model `index` is (partly) within any 11th edition terrain area.
    pub fn within_area(&self, index: usize) -> bool {
        self.models.standing[index]
            .iter()
            .any(|(p, _, _)| *p >= self.terrain.features)
    }

    /// The terrain part (shared by the clones of this index and by indices of equal layouts).
    pub fn terrain(&self) -> &Arc<TerrainSight> {
        &self.terrain
    }

    /// True when both indices hold the very same model part (one is an unchanged clone of the
    /// other): nothing about their models needs comparing.
    pub fn shares_models_with(&self, other: &SightIndex) -> bool {
        Arc::ptr_eq(&self.models, &other.models)
    }

    /// Replaces every model in the index.
    pub fn set_models(&mut self, models: Vec<SightModel>) {
        self.update_models(models, |_| None);
    }

    /// Replaces every model in the index, reusing the work done for models that did not
    /// change: `previous(i)` names the entry the new model `i` was (if it was in the index);
    /// when that entry holds an equal model, its volume, standing and sample points are kept.
    /// Leaves the index untouched (still shared with its clones) and returns false when every
    /// model is the same entry as before, unchanged.
    pub fn update_models(
        &mut self,
        models: Vec<SightModel>,
        previous: impl Fn(usize) -> Option<usize>,
    ) -> bool {
        let old = &*self.models;
        if models.len() == old.list.len() && (0..models.len()).all(|i| previous(i) == Some(i)) {
            // The same entries: only the models that changed are worked out again, in place
            // (the model part is copied first if a clone shares it).
            let changed: Vec<usize> = (0..models.len())
                .filter(|&i| old.list[i] != models[i])
                .collect();
            if changed.is_empty() {
                return false;
            }
            let volumes = Arc::make_mut(&mut self.models);
            for &i in &changed {
                volumes.set(&self.terrain, i, models[i].clone());
            }
            volumes.rebuild_bvh();
            volumes.forget_answers(&changed);
            return true;
        }
        let kept = |i: usize| previous(i).filter(|&j| old.list.get(j) == Some(&models[i]));
        let mut next = ModelVolumes {
            list: Vec::with_capacity(models.len()),
            shapes: Vec::with_capacity(models.len()),
            aabbs: Vec::new(),
            bvh: Bvh::new(),
            standing: Vec::with_capacity(models.len()),
            fast_points: Vec::with_capacity(models.len()),
            answers: Mutex::default(),
        };
        let mut was = Vec::with_capacity(models.len());
        for (i, model) in models.iter().enumerate() {
            let j = kept(i);
            was.push(j);
            match j {
                Some(j) => {
                    next.shapes.push(old.shapes[j].clone());
                    next.standing.push(old.standing[j].clone());
                    next.fast_points.push(old.fast_points[j].clone());
                    next.list.push(model.clone());
                }
                None => next.push(&self.terrain, model.clone()),
            }
        }
        next.rebuild_bvh();
        // Answers between models that stayed put carry over when no model can have changed
        // them: a target hidden by terrain alone stays hidden; and when models only left
        // (destroyed, embarked), no sight line got blocked, so every visible pair stays
        // visible ("fully visible" and the evidence are worked out again).
        let only_left = was.iter().all(Option::is_some);
        let mut new_of = vec![None; old.list.len()];
        for (i, j) in was.iter().enumerate() {
            if let Some(j) = j {
                new_of[*j] = Some(i as u32);
            }
        }
        let answers = old.answers.lock().unwrap_or_else(PoisonError::into_inner);
        let carried = next
            .answers
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        for (&(o, t, see), answer) in answers.iter() {
            let (Some(o), Some(t)) = (new_of[o as usize], new_of[t as usize]) else {
                continue;
            };
            if answer.lasts_without_models() {
                carried.insert((o, t, see), answer.clone());
            } else if only_left && answer.visible() {
                carried.insert((o, t, see), Answer::Visible);
            }
        }
        drop(answers);
        self.models = Arc::new(next);
        true
    }

    /// Moves model `index` (after a move, a pile-in...).
    pub fn move_model(&mut self, index: usize, solid: ModelSolid) {
        self.move_models([(index, solid)]);
    }

    /// Moves several models at once (`(index, solid)` pairs), rebuilding the model BVH once.
    pub fn move_models(&mut self, moves: impl IntoIterator<Item = (usize, ModelSolid)>) {
        let volumes = Arc::make_mut(&mut self.models);
        let mut moved = Vec::new();
        for (index, solid) in moves {
            let model = SightModel {
                solid,
                ..volumes.list[index].clone()
            };
            volumes.set(&self.terrain, index, model);
            moved.push(index);
        }
        volumes.rebuild_bvh();
        volumes.forget_answers(&moved);
    }

    /// The models in the index.
    pub fn models(&self) -> &[SightModel] {
        &self.models.list
    }

    /// Id of terrain piece `index`.
    pub fn piece_id(&self, index: usize) -> &str {
        &self.terrain.pieces[index].id
    }

    /// Index of the terrain piece with this id.
    pub fn piece_by_id(&self, id: &str) -> Option<usize> {
        self.terrain.pieces[..self.terrain.features]
            .iter()
            .position(|p| p.id == id)
    }

    /// Category of terrain piece `index`.
    pub fn piece_category(&self, index: usize) -> TerrainCategory {
        self.terrain.pieces[index].category
    }

    /// Footprint of terrain piece `index` (inches).
    pub fn piece_footprint(&self, index: usize) -> &[Vec2] {
        &self.terrain.pieces[index].footprint
    }

    fn standing_of(&self, solid: &ModelSolid) -> Standing {
        self.terrain.standing_of(solid)
    }

    /// True when model `index` is wholly within a ruin footprint.
    pub fn wholly_within_category(&self, index: usize, category: TerrainCategory) -> Option<usize> {
        self.models.standing[index]
            .iter()
            .find(|(p, _, wholly)| {
                *wholly
                    && *p < self.terrain.features
                    && self.terrain.pieces[*p].category == category
            })
            .map(|(p, _, _)| *p)
    }

    /// The terrain pieces model `index` is (partly) within.
    pub fn pieces_under(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        self.models.standing[index]
            .iter()
            .map(|(p, _, _)| *p)
            .filter(|p| *p < self.terrain.features)
    }

    /// Footprints (ruin and low) that forbid sight between this observer and target, and the
    /// woods that spoil "fully visible", after the exemptions of the rules.
    fn applicable(
        &self,
        observer: &SightModel,
        o_standing: &[(usize, bool, bool)],
        target: &SightModel,
        t_standing: &[(usize, bool, bool)],
    ) -> (PieceList, PieceList) {
        let in_piece = |standing: &[(usize, bool, bool)], piece: usize, wholly: bool| {
            standing
                .iter()
                .any(|(p, _, w)| *p == piece && (!wholly || *w))
        };
        let mut footprints = PieceList::new();
        let mut woods = PieceList::new();
        let eleventh = matches!(self.terrain.rules, TerrainRules::Eleventh { .. });
        let lo = observer.solid.centre.min(target.solid.centre);
        let hi = observer.solid.centre.max(target.solid.centre);
        let r = observer
            .solid
            .base
            .bounding_radius_inches()
            .max(target.solid.base.bounding_radius_inches());
        for (i, p) in self.terrain.pieces.iter().enumerate() {
            if p.hi.x < lo.x - r || p.lo.x > hi.x + r || p.hi.y < lo.y - r || p.lo.y > hi.y + r {
                continue;
            }
            if eleventh {
                // 11th Obscuring: areas only, not those either model is (partly) within; no
                // TOWERING or AIRCRAFT exception, and woods no longer spoil "fully visible".
                if p.obscuring && !in_piece(o_standing, i, false) && !in_piece(t_standing, i, false)
                {
                    footprints.push(i);
                }
                continue;
            }
            match p.category {
                TerrainCategory::Ruin | TerrainCategory::LowFootprint => {
                    let exempt = observer.aircraft
                        || target.aircraft
                        || in_piece(t_standing, i, false)
                        || in_piece(o_standing, i, true)
                        || (observer.towering && in_piece(o_standing, i, false));
                    if !exempt {
                        footprints.push(i);
                    }
                }
                // A model wholly within woods sees out of them normally.
                TerrainCategory::Woods
                    if !(observer.aircraft
                        || target.aircraft
                        || observer.towering
                        || target.towering
                        || in_piece(o_standing, i, true)) =>
                {
                    woods.push(i);
                }
                _ => {}
            }
        }
        (footprints, woods)
    }

    /// What blocks the line from eye point `ei` (at `from`) to target point `ti` (at `to`),
    /// positions in the pair's [`Lines`], if anything: a footprint, then terrain, then a model.
    fn line_blocker(
        &self,
        lines: &Lines<'_>,
        (ei, from): (usize, Vec3),
        (ti, to): (usize, Vec3),
    ) -> Option<Raw> {
        if let Some(i) = self.footprint_crossed(lines, (ei, from), (ti, to)) {
            return Some(Raw::Footprint(i));
        }
        let ray = Ray::new(from, to - from);
        let max = 1.0 - 1e-4;
        if let Some((leaf, _)) = self.terrain_hit_near(lines, &ray, max) {
            let (_, _, piece, part) = &self.terrain.solids[leaf as usize];
            return Some(Raw::Terrain(*piece, *part));
        }
        self.model_blocker(lines, &ray, max)
    }

    /// The footprint (of the pair's applicable ones) that the line from eye point `ei` to
    /// target point `ti` crosses, if any. Lines between points stacked one above the other
    /// share their 2D segment, so each segment is tested once per pair. Neighbouring lines are
    /// usually stopped by the same footprint: the one that stopped the last segment tested is
    /// tried first.
    fn footprint_crossed(
        &self,
        lines: &Lines<'_>,
        (ei, from): (usize, Vec3),
        (ti, to): (usize, Vec3),
    ) -> Option<usize> {
        let footprints = lines.footprints;
        if footprints.is_empty() {
            return None;
        }
        let slot =
            lines.eye_column[ei] as usize * lines.target_columns + lines.target_column[ti] as usize;
        let known = lines.crossed.borrow()[slot];
        if known != Lines::UNKNOWN {
            return usize::try_from(known).ok();
        }
        let (a, b) = (from.truncate(), to.truncate());
        let hint = lines.last.get();
        let found =
            if hint < footprints.len() && self.terrain.pieces[footprints[hint]].crossed_by(a, b) {
                Some(footprints[hint])
            } else {
                let k = footprints
                    .iter()
                    .enumerate()
                    .position(|(k, &i)| k != hint && self.terrain.pieces[i].crossed_by(a, b));
                if let Some(k) = k {
                    lines.last.set(k);
                }
                k.map(|k| footprints[k])
            };
        lines.crossed.borrow_mut()[slot] = found.map_or(Lines::NONE, |i| i as i32);
        found
    }

    /// Whether terrain or a model blocks the line from eye point `ei` to target point `ti`,
    /// when only that matters (not which piece): the footprints first, then the terrain solid
    /// that stopped the last line tried (one shape instead of the whole tree: the lines
    /// between two models are mostly stopped by the same wall), then
    /// [`SightIndex::line_blocker`]'s order. The answer's kind (a model or terrain) is the
    /// one [`SightIndex::line_blocker`] gives, as terrain is tried before models in both.
    fn line_blocked(
        &self,
        lines: &Lines<'_>,
        (ei, from): (usize, Vec3),
        (ti, to): (usize, Vec3),
    ) -> Option<Raw> {
        if let Some(i) = self.footprint_crossed(lines, (ei, from), (ti, to)) {
            return Some(Raw::Footprint(i));
        }
        let ray = Ray::new(from, to - from);
        let max = 1.0 - 1e-4;
        let solid = |leaf: u32| &self.terrain.solids[leaf as usize];
        if let Some(leaf) = lines.wall.get() {
            let (shape, pose, piece, part) = solid(leaf);
            if shape.cast_ray(pose, &ray, max, true).is_some() {
                return Some(Raw::Terrain(*piece, *part));
            }
        }
        if let Some((leaf, _)) = self.terrain_hit_near(lines, &ray, max) {
            lines.wall.set(Some(leaf));
            let (_, _, piece, part) = solid(leaf);
            return Some(Raw::Terrain(*piece, *part));
        }
        self.any_model_blocker(lines, &ray, max)
    }

    /// The models a line of the pair may meet and may not pass ([`Lines::models_near`]):
    /// those whose boxes meet the pair's box and lie in its band, found on the first line
    /// that needs them.
    fn models_near<'l>(&self, lines: &'l Lines<'_>, may_pass: &dyn Fn(usize) -> bool) -> &'l [u32] {
        lines.models_near.get_or_init(|| {
            let (a, b, width) = lines.band;
            self.models
                .bvh
                .intersect_aabb(&lines.bounds)
                .filter(|&leaf| !may_pass(leaf as usize))
                .filter(|&leaf| {
                    // Outside the band (its box's circle clear of it), no line can meet it.
                    let b3 = &self.models.aabbs[leaf as usize];
                    let (lo, hi) = (
                        Vec2::new(b3.mins.x, b3.mins.y),
                        Vec2::new(b3.maxs.x, b3.maxs.y),
                    );
                    let half = (hi - lo).length() * 0.5;
                    polygon::distance_to_segment((lo + hi) * 0.5, a, b) <= width + half + 1e-3
                })
                .collect()
        })
    }

    /// Where `ray` meets model volume `leaf` (within `best`), as a fraction of the ray.
    fn model_hit(&self, leaf: u32, ray: &Ray, best: f32) -> Option<f32> {
        let (shape, pose) = &self.models.shapes[leaf as usize];
        match self.models.list[leaf as usize].solid {
            s @ ModelSolid {
                base: super::Base::Round(_),
                ..
            } => cylinder_hit(&s, ray, best),
            _ => shape.cast_ray(pose, ray, best, true),
        }
    }

    /// The first model in the way of `ray` (within `max`) that sight may not pass through:
    /// of the pair's [`Lines::models_near`], tried one by one. None when every model may be
    /// passed (the volumes are not searched).
    fn model_blocker(&self, lines: &Lines<'_>, ray: &Ray, max: f32) -> Option<Raw> {
        let may_pass = lines.may_pass?;
        let mut first: Option<(u32, f32)> = None;
        for &leaf in self.models_near(lines, may_pass) {
            let best = first.map_or(max, |(_, t)| t);
            if let Some(t) = self.model_hit(leaf, ray, best)
                && first.is_none_or(|(_, b)| t < b)
            {
                first = Some((leaf, t));
            }
        }
        first.map(|(leaf, _)| Raw::Model(leaf as usize))
    }

    /// Some model in the way of `ray` (within `max`) that sight may not pass through, not
    /// necessarily the first: for the question "is this line blocked". The model that
    /// blocked the last line is tried first (neighbouring lines of a pair mostly meet the
    /// same model).
    fn any_model_blocker(&self, lines: &Lines<'_>, ray: &Ray, max: f32) -> Option<Raw> {
        let may_pass = lines.may_pass?;
        let near = self.models_near(lines, may_pass);
        if let Some(leaf) = lines.last_model.get()
            && self.model_hit(leaf, ray, max).is_some()
        {
            return Some(Raw::Model(leaf as usize));
        }
        let leaf = near
            .iter()
            .copied()
            .find(|&leaf| self.model_hit(leaf, ray, max).is_some())?;
        lines.last_model.set(Some(leaf));
        Some(Raw::Model(leaf as usize))
    }

    /// [`SightIndex::terrain_hit`] for a line of the pair: the closest hit among the pair's
    /// [`Lines::terrain_near`], tried one by one when there are few.
    fn terrain_hit_near(&self, lines: &Lines<'_>, ray: &Ray, max: f32) -> Option<(u32, f32)> {
        let near = lines.terrain_near.get_or_init(|| {
            let near: Vec<u32> = self.terrain.bvh.intersect_aabb(&lines.bounds).collect();
            (near.len() <= Lines::NEAR_LIMIT).then_some(near)
        });
        let Some(near) = near else {
            return self.terrain_hit(ray, max);
        };
        let mut first: Option<(u32, f32)> = None;
        for &leaf in near {
            let best = first.map_or(max, |(_, t)| t);
            if self.terrain.aabbs[leaf as usize]
                .cast_local_ray(ray, best, true)
                .is_none()
            {
                continue;
            }
            let (shape, pose, _, _) = &self.terrain.solids[leaf as usize];
            if let Some(t) = shape.cast_ray(pose, ray, best, true)
                && first.is_none_or(|(_, b)| t < b)
            {
                first = Some((leaf, t));
            }
        }
        first
    }

    fn woods_on(&self, from: Vec3, to: Vec3, woods: &[usize]) -> Option<Raw> {
        woods
            .iter()
            .find(|&&i| self.terrain.pieces[i].crossed_by(from.truncate(), to.truncate()))
            .map(|&i| Raw::Woods(i))
    }

    /// Names a blocker for the report.
    fn describe(&self, raw: Raw) -> Blocker {
        match raw {
            Raw::Footprint(i) if i >= self.terrain.features => Blocker::Obscuring {
                area: self.terrain.pieces[i].id.clone(),
            },
            Raw::Footprint(i) => Blocker::Footprint {
                piece: self.terrain.pieces[i].id.clone(),
                category: self.terrain.pieces[i].category,
            },
            Raw::Terrain(i, part) => Blocker::Terrain {
                piece: self.terrain.pieces[i].id.clone(),
                part: match part {
                    Part::Wall => "wall",
                    Part::Floor => "floor",
                    Part::Body => "body",
                },
            },
            Raw::Model(m) => Blocker::Model {
                model: m,
                unit: self.models.list[m].unit,
            },
            Raw::Woods(i) => Blocker::Woods {
                piece: self.terrain.pieces[i].id.clone(),
            },
        }
    }

    /// A footprint that every line between the two models must cross, if one does.
    fn separating_footprint(
        &self,
        o: &ModelSolid,
        t: &ModelSolid,
        footprints: &[usize],
    ) -> Option<usize> {
        self.separating_between_discs(
            (o.centre, o.base.bounding_radius_inches()),
            (t.centre, t.base.bounding_radius_inches()),
            footprints.iter().copied(),
        )
    }

    /// A convex footprint that lies clear of both discs and crosses both outer tangents between
    /// them: it cuts the band that holds every line from one disc to the other.
    fn separating_between_discs(
        &self,
        (c1, r1): (Vec2, f32),
        (c2, r2): (Vec2, f32),
        mut footprints: impl Iterator<Item = usize>,
    ) -> Option<usize> {
        let l = c1.distance(c2);
        if l <= r1 + r2 {
            return None;
        }
        let d = (c2 - c1) / l;
        let s = (r2 - r1) / l;
        let perp = Vec2::new(-d.y, d.x);
        let k = (1.0 - s * s).max(0.0).sqrt();
        let tangents = [d * s + perp * k, d * s - perp * k].map(|m| (c1 - m * r1, c2 - m * r2));
        footprints.find(|&i| {
            let p = &self.terrain.pieces[i];
            let clear = |c: Vec2, r: f32| {
                !polygon::contains(&p.footprint, c)
                    && polygon::distance_to_boundary(&p.footprint, c) > r
            };
            // Only a convex footprint is sure to hold the whole chord between the tangents.
            p.convex_edges.is_some()
                && tangents.iter().all(|(a, b)| p.crossed_by(*a, *b))
                && clear(c1, r1)
                && clear(c2, r2)
        })
    }

    /// True when no model of the `observers` can see any model of the `targets` because a
    /// ruin or low footprint that applies to every pair (no target within it, no observer
    /// wholly within it, no TOWERING or AIRCRAFT involved) cuts every line between the units.
    /// A quick, sufficient test: false does not mean the units see each other.
    pub fn units_separated(&self, observers: &[usize], targets: &[usize]) -> bool {
        let disc = |ms: &[usize]| {
            let c = ms
                .iter()
                .map(|&m| self.models.list[m].solid.centre)
                .sum::<Vec2>()
                / ms.len().max(1) as f32;
            let r = ms
                .iter()
                .map(|&m| {
                    let s = &self.models.list[m].solid;
                    s.centre.distance(c) + s.base.bounding_radius_inches()
                })
                .fold(0.0, f32::max);
            (c, r)
        };
        if observers.is_empty()
            || targets.is_empty()
            || observers
                .iter()
                .chain(targets)
                .any(|&m| self.models.list[m].aircraft)
            || observers.iter().any(|&m| self.models.list[m].towering)
        {
            return false;
        }
        let eleventh = matches!(self.terrain.rules, TerrainRules::Eleventh { .. });
        let applies = |i: usize| {
            if eleventh {
                return self.terrain.pieces[i].obscuring
                    && !observers
                        .iter()
                        .chain(targets)
                        .any(|&m| self.models.standing[m].iter().any(|(p, _, _)| *p == i));
            }
            i < self.terrain.features
                && matches!(
                    self.terrain.pieces[i].category,
                    TerrainCategory::Ruin | TerrainCategory::LowFootprint
                )
                && !targets
                    .iter()
                    .any(|&t| self.models.standing[t].iter().any(|(p, _, _)| *p == i))
                && !observers.iter().any(|&o| {
                    self.models.standing[o]
                        .iter()
                        .any(|(p, _, w)| *p == i && *w)
                })
        };
        self.separating_between_discs(
            disc(observers),
            disc(targets),
            (0..self.terrain.pieces.len()).filter(|&i| applies(i)),
        )
        .is_some()
    }

    fn viewer(&self, index: usize) -> Viewer<'_> {
        (
            &self.models.list[index],
            Some(index),
            &self.models.standing[index],
        )
    }

    /// Visibility of model `target` to model `observer` (indices in the index).
    pub fn model_visibility(
        &self,
        observer: usize,
        target: usize,
        see: SeeThrough,
        sampling: &Sampling,
    ) -> ModelVisibility {
        if let Some(b) = self.hidden_from(observer, target) {
            return ModelVisibility::blocked(b, 0);
        }
        let see = self.see_under_rules(see);
        let fast = *sampling == Sampling::FAST;
        if fast && let Some(Answer::Full(v, _)) = self.remembered(observer, target, see) {
            return v;
        }
        let (v, terrain_only) = self.inner_traced(
            self.viewer(observer),
            self.viewer(target),
            see,
            sampling,
            true,
        );
        if fast {
            self.remember(observer, target, see, Answer::Full(v.clone(), terrain_only));
        }
        v
    }

    /// The models a sight line may pass under the index's rules: 11th edition ignores the
    /// target's unit as well as the observer's (11th Core Rules 06.01).
    fn see_under_rules(&self, see: SeeThrough) -> SeeThrough {
        match (&self.terrain.rules, see) {
            (TerrainRules::Eleventh { .. }, SeeThrough::OwnUnit) => SeeThrough::OwnAndTargetUnit,
            _ => see,
        }
    }

    /// The [`Sampling::FAST`] answer already found for this pair, if any.
    fn remembered(&self, observer: usize, target: usize, see: SeeThrough) -> Option<Answer> {
        let answers = self
            .models
            .answers
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        answers.get(&(observer as u32, target as u32, see)).cloned()
    }

    /// Keeps a [`Sampling::FAST`] answer for this pair (a whole answer replaces a bare one).
    fn remember(&self, observer: usize, target: usize, see: SeeThrough, answer: Answer) {
        let mut answers = self
            .models
            .answers
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        answers.insert((observer as u32, target as u32, see), answer);
    }

    /// Forgets every remembered [`Sampling::FAST`] answer, so the next query of each pair is
    /// worked out again: for benchmarks of cold queries (the answers stay right as long as
    /// nothing moves, so the engine itself never needs this).
    pub fn forget_all_answers(&self) {
        self.models
            .answers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }

    /// Only whether model `target` is visible to model `observer` (no "fully visible" work).
    pub fn model_visible(
        &self,
        observer: usize,
        target: usize,
        see: SeeThrough,
        sampling: &Sampling,
    ) -> bool {
        if self.hidden_from(observer, target).is_some() {
            return false;
        }
        let see = self.see_under_rules(see);
        let fast = *sampling == Sampling::FAST;
        if fast && let Some(answer) = self.remembered(observer, target, see) {
            return answer.visible();
        }
        let (v, terrain_only) = self.inner_traced(
            self.viewer(observer),
            self.viewer(target),
            see,
            sampling,
            false,
        );
        if fast {
            let answer = if v.visible {
                Answer::Visible
            } else {
                Answer::Hidden { terrain_only }
            };
            self.remember(observer, target, see, answer);
        }
        v.visible
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
        let standing = |m: &SightModel, i: Option<usize>| match i {
            Some(i) => self.models.standing[i].clone(),
            None => self.standing_of(&m.solid),
        };
        let (os, ts) = (standing(o, observer_index), standing(t, target_index));
        let see = self.see_under_rules(see);
        self.inner(
            (o, observer_index, &os),
            (t, target_index, &ts),
            see,
            sampling,
            true,
        )
    }

    /// A model that is not on the table (a heatmap probe or observer), with where it stands
    /// relative to the terrain worked out once.
    pub fn probe(&self, model: SightModel) -> Probe {
        Probe {
            standing: self.standing_of(&model.solid),
            model,
        }
    }

    /// Whether probe `t` is visible to probe `o`, terrain only (models on the table ignored).
    pub fn probe_visible(&self, o: &Probe, t: &Probe, sampling: &Sampling) -> bool {
        self.inner(
            (&o.model, None, &o.standing),
            (&t.model, None, &t.standing),
            SeeThrough::AllModels,
            sampling,
            false,
        )
        .visible
    }

    /// The visibility search. With `need_fully` false it stops at the first clear line and
    /// leaves `fully_visible` false.
    fn inner(
        &self,
        observer: Viewer<'_>,
        target: Viewer<'_>,
        see: SeeThrough,
        sampling: &Sampling,
        need_fully: bool,
    ) -> ModelVisibility {
        self.inner_traced(observer, target, see, sampling, need_fully)
            .0
    }

    /// [`SightIndex::inner`], also telling whether the target is hidden by terrain alone:
    /// not visible, and no line was stopped by a model (every line met a footprint or a
    /// terrain solid, which are tried before the models).
    fn inner_traced(
        &self,
        (o, observer_index, o_standing): Viewer<'_>,
        (t, target_index, t_standing): Viewer<'_>,
        see: SeeThrough,
        sampling: &Sampling,
        need_fully: bool,
    ) -> (ModelVisibility, bool) {
        let (footprints, woods) = self.applicable(o, o_standing, t, t_standing);
        let may_pass = |m: usize| {
            let model = &self.models.list[m];
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
        if let Some(i) = self.separating_footprint(&o.solid, &t.solid, &footprints) {
            let v = ModelVisibility::blocked(self.describe(Raw::Footprint(i)), 0);
            return (v, true);
        }
        // Models in the index have their FAST points ready.
        let fast = *sampling == Sampling::FAST;
        let eyes: std::borrow::Cow<'_, [(Vec3, Vec2)]> = match observer_index {
            Some(i) if fast => (&self.models.fast_points[i].0[..]).into(),
            _ => sampling.points(&o.solid, sampling.observer_rings).into(),
        };
        let targets: std::borrow::Cow<'_, [(Vec3, Vec2)]> = match target_index {
            Some(i) if fast => (&self.models.fast_points[i].1[..]).into(),
            _ => sampling.points(&t.solid, sampling.target_rings).into(),
        };
        let may_pass: &dyn Fn(usize) -> bool = &may_pass;
        let lines = Lines::new(
            &footprints,
            (see != SeeThrough::AllModels).then_some(may_pass),
            &eyes,
            &targets,
        );
        let mut rays = 0;
        // Visible: the first clear line.
        let mut witness = None;
        let mut blocked_by = None;
        let mut model_in_the_way = false;
        'search: for (ei, (e, _)) in eyes.iter().enumerate() {
            for (ti, (p, _)) in targets.iter().enumerate() {
                rays += 1;
                // Which piece stops a line matters for the first line (the evidence) and,
                // with "fully visible" to work out, for the footprint tried first later on.
                let b = if need_fully || blocked_by.is_none() {
                    self.line_blocker(&lines, (ei, *e), (ti, *p))
                } else {
                    self.line_blocked(&lines, (ei, *e), (ti, *p))
                };
                model_in_the_way |= matches!(b, Some(Raw::Model(_)));
                match b {
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
        if visible && !need_fully {
            let v = ModelVisibility {
                visible,
                fully_visible: false,
                witness,
                blocked_by: None,
                not_fully_because: None,
                rays,
            };
            return (v, false);
        }
        if !visible {
            let b = blocked_by.map(|r| self.describe(r));
            let v = ModelVisibility {
                visible,
                fully_visible: false,
                witness,
                not_fully_because: b.clone(),
                blocked_by: b,
                rays,
            };
            return (v, !model_in_the_way);
        }
        // Fully visible: every facing point seen through a clear, woods-free line.
        let eleventh = matches!(self.terrain.rules, TerrainRules::Eleventh { .. });
        let wholly_in_woods = if eleventh || o.aircraft || o.towering || t.aircraft || t.towering {
            None
        } else {
            self.terrain.pieces.iter().find(|p| {
                p.category == TerrainCategory::Woods
                    && wholly_within_footprint(&t.solid, &p.footprint)
            })
        };
        let mut not_fully_because = wholly_in_woods.map(|p| Blocker::WhollyWithinWoods {
            piece: p.id.clone(),
        });
        if not_fully_because.is_none() {
            let eye = o.solid.centre.extend(o.solid.top());
            for (ti, (p, normal)) in targets.iter().enumerate() {
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
                for (ei, (e, _)) in eyes.iter().enumerate() {
                    rays += 1;
                    let b = self
                        .line_blocker(&lines, (ei, *e), (ti, *p))
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
                    not_fully_because = first.map(|r| self.describe(r));
                    break;
                }
            }
        }
        let v = ModelVisibility {
            visible,
            fully_visible: not_fully_because.is_none(),
            witness,
            blocked_by: None,
            not_fully_because,
            rays,
        };
        (v, false)
    }
}

/// A box for a rectangular `area` between heights `z0` and `z1`, if the area is a rectangle.
fn rectangle_box(area: &[Vec2], z0: f32, z1: f32) -> Option<(SharedShape, Pose)> {
    let [a, b, c, d] = area else { return None };
    let (ab, bc) = (*b - *a, *c - *b);
    let square_corners = ab.dot(bc).abs() < 1e-4 * ab.length() * bc.length()
        && ((*a + *c) - (*b + *d)).length() < 1e-4;
    if !square_corners || ab.length() < 1e-6 || bc.length() < 1e-6 {
        return None;
    }
    let centre = (*a + *c) / 2.0;
    let yaw = ab.y.atan2(ab.x);
    Some((
        SharedShape::cuboid(ab.length() / 2.0, bc.length() / 2.0, (z1 - z0) / 2.0),
        Pose::new(centre.extend((z0 + z1) / 2.0), Vec3::new(0.0, 0.0, yaw)),
    ))
}

/// First hit (time of impact along `ray`, at most `max`) of a ray on the vertical cylinder of a
/// model on a round base, solid: from inside it hits at 0.
fn cylinder_hit(solid: &ModelSolid, ray: &Ray, max: f32) -> Option<f32> {
    let r = solid.base.half_extents_inches().x;
    let (z0, z1) = (solid.z, solid.top());
    let o = ray.origin.truncate() - solid.centre;
    let d = ray.dir.truncate();
    // Interval of t where the ray is inside the infinite cylinder.
    let (a, b, c) = (d.dot(d), 2.0 * o.dot(d), o.dot(o) - r * r);
    let (mut t0, mut t1) = if a < 1e-12 {
        if c > 0.0 {
            return None;
        }
        (f32::NEG_INFINITY, f32::INFINITY)
    } else {
        let disc = b * b - 4.0 * a * c;
        if disc < 0.0 {
            return None;
        }
        let q = disc.sqrt();
        ((-b - q) / (2.0 * a), (-b + q) / (2.0 * a))
    };
    // Clip by the slab between the bottom and the top.
    let (oz, dz) = (ray.origin.z, ray.dir.z);
    if dz.abs() < 1e-12 {
        if oz < z0 || oz > z1 {
            return None;
        }
    } else {
        let (za, zb) = ((z0 - oz) / dz, (z1 - oz) / dz);
        t0 = t0.max(za.min(zb));
        t1 = t1.min(za.max(zb));
    }
    if t0 > t1 || t1 < 0.0 {
        return None;
    }
    let t = t0.max(0.0);
    (t <= max).then_some(t)
}

/// The convex volume of a model for ray casts.
fn model_shape(solid: &ModelSolid) -> (SharedShape, Pose) {
    let h = solid.base.half_extents_inches();
    let mid = solid.centre.extend(solid.z + solid.height / 2.0);
    match solid.base {
        // Exact shapes with closed-form ray casts: a cylinder (parry's axis is y, turned to z)
        // for a round base, a box for a hull.
        super::Base::Round(_) => {
            return (
                SharedShape::cylinder(solid.height / 2.0, h.x),
                Pose::new(mid, Vec3::new(std::f32::consts::FRAC_PI_2, 0.0, 0.0)),
            );
        }
        super::Base::Hull { .. } => {
            return (
                SharedShape::cuboid(h.x, h.y, solid.height / 2.0),
                Pose::new(mid, Vec3::new(0.0, 0.0, solid.facing.to_radians())),
            );
        }
        super::Base::Oval(..) => {}
    }
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
        self.terrain_hit(&Ray::new(from, to - from), 1.0)
            .map(|(_, toi)| toi)
    }

    /// The first terrain solid `ray` hits within `max` (leaf, time of impact).
    fn terrain_hit(&self, ray: &Ray, max: f32) -> Option<(u32, f32)> {
        self.terrain.bvh.cast_ray(ray, max, |leaf, best| {
            let (shape, pose, _, _) = &self.terrain.solids[leaf as usize];
            shape.cast_ray(pose, ray, best, true)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_form_cylinder_agrees_with_parry() {
        let solid = ModelSolid::new(
            super::super::Base::Round(40.0),
            Vec3::new(3.0, 2.0, 0.5),
            0.0,
            1.8,
        );
        let (shape, pose) = (
            SharedShape::cylinder(0.9, 20.0 / 25.4),
            Pose::new(
                Vec3::new(3.0, 2.0, 1.4),
                Vec3::new(std::f32::consts::FRAC_PI_2, 0.0, 0.0),
            ),
        );
        let mut agree = 0;
        let n = 400;
        for i in 0..n {
            // A fan of rays from points around the cylinder towards points near its axis.
            let a = i as f32 * 0.7;
            let from = Vec3::new(
                3.0 + 4.0 * a.cos(),
                2.0 + 4.0 * a.sin(),
                (i % 7) as f32 * 0.5 - 0.5,
            );
            let to = Vec3::new(
                3.0 + (i % 5) as f32 * 0.3 - 0.6,
                2.0 + (i % 3) as f32 * 0.4 - 0.4,
                (i % 4) as f32 * 0.8,
            );
            let ray = Ray::new(from, to - from);
            let ours = cylinder_hit(&solid, &ray, 1.0);
            let theirs = shape.cast_ray(&pose, &ray, 1.0, true);
            match (ours, theirs) {
                (Some(x), Some(y)) if (x - y).abs() < 1e-3 => agree += 1,
                (None, None) => agree += 1,
                (None, Some(t)) | (Some(t), None) => {
                    // Only a graze of the rim may differ (parry's iterative tolerance).
                    let z = ray.point_at(t).z;
                    assert!(
                        (z - 0.5).abs() < 0.01 || (z - 2.3).abs() < 0.01,
                        "ray {i}: t {t}, z {z}"
                    );
                }
                other => panic!("ray {i}: {other:?}"),
            }
        }
        assert!(agree >= n * 98 / 100, "{agree} of {n}");
    }

    #[test]
    fn rectangular_floor_becomes_a_box() {
        let area = [(0.0, 0.0), (4.0, 0.0), (4.0, 2.0), (0.0, 2.0)].map(|(x, y)| Vec2::new(x, y));
        assert!(rectangle_box(&area, 2.85, 3.0).is_some());
        let skew = [(0.0, 0.0), (4.0, 0.0), (5.0, 2.0), (0.0, 2.0)].map(|(x, y)| Vec2::new(x, y));
        assert!(rectangle_box(&skew, 2.85, 3.0).is_none());
    }
}
