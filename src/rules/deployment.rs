//! Deployment maps and automatic set-up of units wholly within a deployment zone.
//!
//! Core Rules: Deploy Armies (units are set up wholly within their deployment zone) and Unit
//! Coherency (models end within 2" horizontally of one other model, two at 7+ models).

use serde::{Deserialize, Serialize};

use super::coherency;
use super::constants::{COHERENCY_HORIZONTAL_INCHES, COHERENCY_TWO_NEIGHBOURS_FROM_MODELS};
use super::mission::ObjectiveMarker;
use crate::geometry::{Base, ModelSolid, Point, Vec2, polygon, to_vecs};

/// A player's deployment zone: a polygon on the table (inches).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Zone {
    /// The player who deploys here (1 or 2).
    pub player: u8,
    /// Zone name, e.g. "Attacker".
    #[serde(default)]
    pub name: String,
    /// Outline on the table (inches).
    pub area: Vec<Point>,
}

/// A deployment map: the zones and the objective markers of a deployment card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeploymentMap {
    /// Card name, e.g. "Search and Destroy".
    pub name: String,
    /// Where the zone shapes come from.
    #[serde(default)]
    pub source: String,
    /// One zone per player.
    pub zones: Vec<Zone>,
    /// Objective markers printed on the card.
    #[serde(default)]
    pub objectives: Vec<ObjectiveMarker>,
}

impl DeploymentMap {
    /// The zone of `player`, as vectors.
    pub fn zone_of(&self, player: u8) -> Option<Vec<Vec2>> {
        self.zones
            .iter()
            .find(|z| z.player == player)
            .map(|z| to_vecs(&z.area))
    }
}

/// Gap left between neighbouring models of one unit in an automatic formation (inches).
pub const FORMATION_GAP_INCHES: f32 = 0.5;
/// Gap kept between different units set up automatically (inches).
pub const UNIT_GAP_INCHES: f32 = 1.0;
/// The gap between units [`set_up_army`] keeps last, when an army does not fit its zone with
/// [`UNIT_GAP_INCHES`] (inches).
pub const CROWDED_UNIT_GAP_INCHES: f32 = 0.5;
/// Most models per rank of an automatic formation.
pub const FORMATION_RANK_WIDTH: usize = 5;

/// A model already on the table: base, centre (inches) and facing (degrees).
pub type PlacedBase = (Base, Vec2, f32);

/// What the table holds when a unit is set up: terrain footprints to keep clear of if possible,
/// wall outlines that can never be stood on, and models already placed.
#[derive(Debug, Default, Clone)]
pub struct SetupObstacles {
    /// Terrain footprints (avoided when the zone leaves room).
    pub footprints: Vec<Vec<Vec2>>,
    /// Wall outlines on the table (always avoided).
    pub walls: Vec<Vec<Vec2>>,
    /// Models already on the table.
    pub models: Vec<PlacedBase>,
    /// A crowded zone's last tries ([`set_up_army`]): units only [`CROWDED_UNIT_GAP_INCHES`]
    /// apart, measured across hulls and ovals along the line between centres instead of round
    /// their bounding circles. Off, every earlier set-up (and so every save's) is unchanged.
    pub crowded: bool,
    /// The ruleset whose Unit Coherency every formation keeps (11th adds the 9" span).
    pub ruleset: super::ruleset::Ruleset,
}

/// Why a unit could not be set up.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("no room wholly within the deployment zone for {models} models")]
pub struct NoRoom {
    /// Models that needed room.
    pub models: usize,
}

/// Rank widths tried for an automatic formation, in order of preference.
pub const FORMATION_RANK_WIDTHS: [usize; 5] = [5, 4, 7, 10, 3];
/// Formation orientations tried (degrees).
pub const FORMATION_FACINGS_DEGREES: [f32; 4] = [0.0, 90.0, 45.0, 135.0];

/// Offsets of a formation for `bases` in ranks of at most `width` models, centred on the
/// origin, each base `FORMATION_GAP_INCHES` from its neighbours in the rank and between ranks.
/// With two or more ranks every model has a neighbour beside it and one in front or behind
/// within 2", which keeps a unit of 7+ models in Unit Coherency.
pub fn formation_offsets(bases: &[Base], width: usize) -> Vec<Vec2> {
    let width = width.clamp(1, bases.len().max(1));
    let mut out = Vec::with_capacity(bases.len());
    let mut y = 0.0;
    // Every model faces along +x in the formation's frame, so its footprint reaches its half
    // length along a rank and its half width across ranks. Ranks start at the same side, so a
    // short last rank sits behind the first models of the rank before it.
    for rank in bases.chunks(width) {
        let depth = rank
            .iter()
            .map(|b| b.half_extents_inches().y)
            .fold(0.0, f32::max);
        if !out.is_empty() {
            y += depth;
        }
        let mut x = 0.0;
        for (i, b) in rank.iter().enumerate() {
            let r = b.half_extents_inches().x;
            if i > 0 {
                x += r;
            }
            out.push(Vec2::new(x, y));
            x += r + FORMATION_GAP_INCHES;
        }
        y += depth + FORMATION_GAP_INCHES;
    }
    let (lo, hi) = polygon::bounds(&out);
    let mid = (lo + hi) / 2.0;
    out.iter().map(|o| *o - mid).collect()
}

/// The frame an automatic set-up scans a zone in: which of two equally central places it tries
/// first, and which way its formations run. No rule decides this; it only matters that the two
/// players' zones of a point-symmetric deployment map are filled as each other's images.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetupFrame {
    /// From the table's low corner (least y, then least x), formations laid out along +x and +y.
    Table,
    /// The half-turn of [`SetupFrame::Table`]: from the table's high corner, formations along
    /// -x and -y. Player 2's zone filled this way is the 180° image of player 1's.
    HalfTurn,
}

/// Which automatic set-up a scene's units without placements get. Recorded in saves, so a save
/// replays on the positions it was made with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SetupVersion {
    /// Saves made before the set-up version existed: both zones in [`SetupFrame::Table`], so
    /// player 2's units were not the image of player 1's in a mirror match.
    First,
    /// Player 1's zone in [`SetupFrame::Table`], player 2's in [`SetupFrame::HalfTurn`].
    #[default]
    Mirrored,
}

impl SetupVersion {
    /// The version new saves are made with.
    pub const CURRENT: SetupVersion = SetupVersion::Mirrored;

    /// The number a save file records (1 or 2).
    pub fn number(self) -> u32 {
        match self {
            SetupVersion::First => 1,
            SetupVersion::Mirrored => 2,
        }
    }

    /// The version a save file's number names, or None for a number this build does not know.
    pub fn from_number(n: u32) -> Option<SetupVersion> {
        match n {
            1 => Some(SetupVersion::First),
            2 => Some(SetupVersion::Mirrored),
            _ => None,
        }
    }

    /// The frame `player`'s zone is filled in.
    pub fn frame(self, player: u8) -> SetupFrame {
        match (self, player) {
            (SetupVersion::Mirrored, 2) => SetupFrame::HalfTurn,
            _ => SetupFrame::Table,
        }
    }
}

/// Sets up one unit (its models' bases, in order) wholly within `zone`, clear of `obstacles`,
/// in Unit Coherency. Tries anchors on a 1" grid from the middle of the zone outwards (equally
/// central ones in the scan order of `frame`), several formation shapes and orientations, first
/// clear of terrain footprints and then only clear of walls. Returns each model's (centre,
/// facing degrees) and records them in `obstacles.models`.
///
/// # Errors
/// [`NoRoom`] when nothing fits.
pub fn set_up_unit(
    zone: &[Vec2],
    bases: &[Base],
    obstacles: &mut SetupObstacles,
    frame: SetupFrame,
) -> Result<Vec<(Vec2, f32)>, NoRoom> {
    let mut widths: Vec<usize> = FORMATION_RANK_WIDTHS
        .iter()
        .map(|w| (*w).min(bases.len()))
        .collect();
    widths.dedup();
    let shapes = coherent_shapes(bases, &widths, frame, obstacles.ruleset.edition());
    let centre = polygon::centroid(zone);
    let mut anchors = grid_anchors(zone, frame);
    // A stable sort: equally central anchors keep the frame's scan order.
    anchors.sort_by(|a, b| a.distance(centre).total_cmp(&b.distance(centre)));
    place_first(
        zone,
        bases,
        obstacles,
        &shapes,
        &anchors,
        Nesting::ShapeFirst,
    )
}

/// Sets up an army's units (each a list of bases; a Leader with its Bodyguard is one) in
/// `zone`, in order: each middle first ([`set_up_unit`]), as every save so far was made with;
/// when that leaves a unit without room, the whole army again, packed against the back of the
/// zone ([`pack_unit`], a unit grown model by model by [`grow_unit`] where no formation
/// fits); and if a unit is still left over, every unit grown model by model in compact blocks,
/// then in rows from the back ([`GrowOrder`]), each denser than the one before; last, packed and
/// then in rows with the crowded rules ([`SetupObstacles::crowded`]: a big army in a small
/// zone).
/// An army that could be set up middle first keeps those positions. Returns
/// one result per unit; placed units are recorded in `obstacles.models`.
///
/// Core Rules: Deploy Armies.
pub fn set_up_army(
    zone: &[Vec2],
    units: &[Vec<Base>],
    obstacles: &mut SetupObstacles,
    frame: SetupFrame,
    table_centre: Vec2,
) -> Vec<Result<Vec<(Vec2, f32)>, NoRoom>> {
    let before = obstacles.models.len();
    let middle: Vec<_> = units
        .iter()
        .map(|bases| set_up_unit(zone, bases, obstacles, frame))
        .collect();
    if middle.iter().all(|s| s.is_ok()) {
        return middle;
    }
    let mut out = middle;
    let crowded_before = obstacles.crowded;
    let passes = [
        (true, GrowOrder::Compact, false),
        (false, GrowOrder::Compact, false),
        (false, GrowOrder::Rows, false),
        (true, GrowOrder::Compact, true),
        (false, GrowOrder::Rows, true),
    ];
    for (pass, (formations, order, crowded)) in passes.into_iter().enumerate() {
        obstacles.models.truncate(before);
        obstacles.crowded = crowded || crowded_before;
        let last = pass + 1 == passes.len();
        out = Vec::with_capacity(units.len());
        for bases in units {
            let packed = if formations {
                pack_unit(zone, bases, obstacles, frame, table_centre)
            } else {
                Err(NoRoom {
                    models: bases.len(),
                })
            };
            let placed = packed.or_else(|_| grow_unit(zone, bases, obstacles, table_centre, order));
            let failed = placed.is_err();
            out.push(placed);
            // A way that leaves one unit out is given up at once (searching room for the
            // rest costs most when the zone is full), except the last, which says what fails.
            if failed && !last {
                break;
            }
        }
        if out.len() == units.len() && out.iter().all(|s| s.is_ok()) {
            break;
        }
    }
    obstacles.crowded = crowded_before;
    out
}

/// Extra rank widths a packed set-up tries beside [`FORMATION_RANK_WIDTHS`]: long, shallow
/// formations that lie along a zone's back edge, and narrow ones for the gaps left between
/// other units and terrain.
pub const PACKED_EXTRA_RANK_WIDTHS: [usize; 5] = [2, 6, 8, 12, 15];

/// Sets up one unit like [`set_up_unit`], but packed against the back of the zone instead of
/// in its middle: anchors are tried deepest first (furthest from `table_centre` along the
/// line from the table's centre to the zone's), equally deep ones from one side, and at each
/// anchor every formation shape (long, shallow ranks first) and orientation. Filling a zone
/// this way, bulkiest units first, leaves the free space in one piece at the front of the
/// zone, so an army that fits in the zone's area is not refused because the first units
/// were set up in the middle. A zone filled in [`SetupFrame::HalfTurn`] about the table's
/// centre is the image of one filled in [`SetupFrame::Table`].
///
/// Core Rules: Deploy Armies (wholly within the deployment zone) and Unit Coherency.
///
/// # Errors
/// [`NoRoom`] when nothing fits.
pub fn pack_unit(
    zone: &[Vec2],
    bases: &[Base],
    obstacles: &mut SetupObstacles,
    frame: SetupFrame,
    table_centre: Vec2,
) -> Result<Vec<(Vec2, f32)>, NoRoom> {
    let n = bases.len();
    let mut widths: Vec<usize> = FORMATION_RANK_WIDTHS
        .iter()
        .chain(&PACKED_EXTRA_RANK_WIDTHS)
        .copied()
        .chain([n.div_ceil(2), n.div_ceil(3)])
        .map(|w| w.clamp(1, n.max(1)))
        .collect();
    // Long, shallow formations first: at the back edge only they fit.
    widths.sort_unstable_by(|a, b| b.cmp(a));
    widths.dedup();
    let shapes = coherent_shapes(bases, &widths, frame, obstacles.ruleset.edition());
    let anchors = packed_points(zone, table_centre, 1.0);
    place_first(
        zone,
        bases,
        obstacles,
        &shapes,
        &anchors,
        Nesting::AnchorFirst,
    )
}

/// Spacing of the candidate points [`grow_unit`] sets models on (inches).
pub const GROW_GRID_INCHES: f32 = 0.5;
/// Least gap between the bases of one unit that [`grow_unit`] sets up (inches): tighter than
/// a formation's [`FORMATION_GAP_INCHES`], since it is used where formations did not fit.
pub const GROW_GAP_INCHES: f32 = 0.2;
/// Most first-model places [`grow_unit`] grows a unit from before it gives up.
pub const GROW_MAX_STARTS: usize = 48;

/// Which free point [`grow_unit`] sets a unit's next model on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GrowOrder {
    /// The one nearest the middle of the models already set up: a compact block.
    Compact,
    /// The deepest (the order of [`pack_unit`]): the unit fills the zone in rows from the
    /// back, side to side, the densest fill for a crowded zone.
    Rows,
}

/// Sets up one unit model by model where no formation fits: the first model on the deepest
/// free point (the order of [`pack_unit`]) of a [`GROW_GRID_INCHES`] grid, each next one on the
/// free point chosen by `order` among those within Unit Coherency range of one of the models
/// already set up (of two, from the third model of a unit of 7+), each base at least
/// [`GROW_GAP_INCHES`] from its own unit and [`UNIT_GAP_INCHES`] from other units. The
/// unit grows round terrain and into the gaps other units left. A start that cannot grow to
/// the whole unit is abandoned for the next free point, at most [`GROW_MAX_STARTS`] of them.
///
/// Core Rules: Deploy Armies (wholly within the deployment zone) and Unit Coherency (every
/// model within 2" of one other model, of two at 7+ models).
///
/// # Errors
/// [`NoRoom`] when nothing fits.
pub fn grow_unit(
    zone: &[Vec2],
    bases: &[Base],
    obstacles: &mut SetupObstacles,
    table_centre: Vec2,
    order: GrowOrder,
) -> Result<Vec<(Vec2, f32)>, NoRoom> {
    let candidates = packed_points(zone, table_centre, GROW_GRID_INCHES);
    let two_neighbours =
        coherency::neighbours_required_in(obstacles.ruleset.edition(), bases.len()) >= 2;
    // Edge-to-edge by bounding circles: never less than the true gap, so a neighbour counted
    // here is within range and a gap kept here is kept.
    let gap = |a: &Base, p: Vec2, b: &Base, q: Vec2| {
        p.distance(q) - a.bounding_radius_inches() - b.bounding_radius_inches()
    };
    let widest = bases
        .iter()
        .map(|b| b.bounding_radius_inches())
        .fold(0.0, f32::max);
    let zone = ZoneRoom::of(zone);
    for avoid_footprints in [true, false] {
        let terrain = Terrain::of(obstacles);
        let free = |base: &Base, p: Vec2, facing: f32| {
            fits(
                &zone,
                &[*base],
                &[(p, facing)],
                obstacles,
                &terrain,
                avoid_footprints,
            )
        };
        let pose = |base: &Base, p: Vec2| -> Option<f32> {
            let facings: &[f32] = match base {
                Base::Round(_) => &[0.0],
                _ => &[0.0, 90.0],
            };
            facings.iter().copied().find(|f| free(base, p, *f))
        };
        let mut starts = 0;
        for first in &candidates {
            let Some(facing) = pose(&bases[0], *first) else {
                continue;
            };
            starts += 1;
            if starts > GROW_MAX_STARTS {
                break;
            }
            let mut placed: Vec<(Vec2, f32)> = vec![(*first, facing)];
            for (k, base) in bases.iter().enumerate().skip(1) {
                let need = if two_neighbours && k >= 2 { 2 } else { 1 };
                let middle = placed.iter().map(|(p, _)| *p).sum::<Vec2>() / placed.len() as f32;
                // Only points within reach of a model already set up can qualify.
                let reach = COHERENCY_HORIZONTAL_INCHES + 2.0 * widest;
                let (lo, hi) = placed.iter().fold(
                    (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
                    |(lo, hi), (p, _)| (lo.min(*p), hi.max(*p)),
                );
                let (lo, hi) = (lo - Vec2::splat(reach), hi + Vec2::splat(reach));
                let mut best: Option<(f32, Vec2, f32)> = None;
                for (rank, c) in candidates.iter().enumerate() {
                    if c.x < lo.x || c.y < lo.y || c.x > hi.x || c.y > hi.y {
                        continue;
                    }
                    let d = match order {
                        GrowOrder::Compact => c.distance(middle),
                        GrowOrder::Rows => rank as f32,
                    };
                    if best.is_some_and(|(b, _, _)| d >= b) {
                        continue;
                    }
                    let mut near = 0;
                    let mut clear = true;
                    for (i, (q, _)) in placed.iter().enumerate() {
                        let g = gap(base, *c, &bases[i], *q);
                        if g < GROW_GAP_INCHES - 1e-4 {
                            clear = false;
                            break;
                        }
                        if g <= COHERENCY_HORIZONTAL_INCHES - 1e-3 {
                            near += 1;
                        }
                    }
                    if !clear || near < need {
                        continue;
                    }
                    if let Some(f) = pose(base, *c) {
                        best = Some((d, *c, f));
                    }
                }
                match best {
                    Some((_, p, f)) => placed.push((p, f)),
                    None => break,
                }
            }
            if placed.len() < bases.len() {
                continue;
            }
            let solids: Vec<ModelSolid> = bases
                .iter()
                .zip(&placed)
                .map(|(b, (p, f))| ModelSolid::new(*b, p.extend(0.0), *f, 1.0))
                .collect();
            if !coherency::check_in(obstacles.ruleset.edition(), &solids).coherent {
                continue;
            }
            for (b, (p, f)) in bases.iter().zip(&placed) {
                obstacles.models.push((*b, *p, *f));
            }
            return Ok(placed);
        }
    }
    Err(NoRoom {
        models: bases.len(),
    })
}

/// The points of a `step` grid inside `zone`, deepest first: furthest from `table_centre`
/// along the line from the table's centre to the zone's centre, equally deep ones from one
/// side. The order is the same for a zone and its half-turn about the table's centre.
fn packed_points(zone: &[Vec2], table_centre: Vec2, step: f32) -> Vec<Vec2> {
    let back = (polygon::centroid(zone) - table_centre).normalize_or(Vec2::NEG_Y);
    let side = back.perp();
    let key = |p: &Vec2| {
        let d = *p - table_centre;
        // Rounded, so equally deep points of two half-turned zones compare alike.
        (
            -(d.dot(back) * 1000.0).round() as i64,
            (d.dot(side) * 1000.0).round() as i64,
        )
    };
    let (lo, hi) = polygon::bounds(zone);
    let mut points = Vec::new();
    let mut y = (lo.y / step).floor() * step;
    while y <= hi.y {
        let mut x = (lo.x / step).floor() * step;
        while x <= hi.x {
            let p = Vec2::new(x, y);
            if polygon::contains(zone, p) {
                points.push(p);
            }
            x += step;
        }
        y += step;
    }
    points.sort_by_key(key);
    points
}

/// The formations of `bases` in ranks of each of `widths` that are in Unit Coherency, turned
/// half round for [`SetupFrame::HalfTurn`]. Checked once: coherency does not depend on where
/// or which way a formation stands.
fn coherent_shapes(
    bases: &[Base],
    widths: &[usize],
    frame: SetupFrame,
    edition: &super::ruleset::Edition,
) -> Vec<Vec<Vec2>> {
    const { assert!(FORMATION_GAP_INCHES < COHERENCY_HORIZONTAL_INCHES) };
    widths
        .iter()
        // A single file would leave its end models with one neighbour.
        .filter(|w| {
            bases.len() < COHERENCY_TWO_NEIGHBOURS_FROM_MODELS || (**w >= 2 && **w < bases.len())
        })
        .map(|w| {
            let offsets = formation_offsets(bases, *w);
            match frame {
                SetupFrame::Table => offsets,
                SetupFrame::HalfTurn => offsets.iter().map(|o| -*o).collect(),
            }
        })
        .filter(|offsets| {
            let solids: Vec<ModelSolid> = bases
                .iter()
                .zip(offsets)
                .map(|(b, o)| ModelSolid::new(*b, o.extend(0.0), 0.0, 1.0))
                .collect();
            coherency::check_in(edition, &solids).coherent
        })
        .collect()
}

/// The points of a 1" grid inside `zone`, in the scan order of `frame`.
fn grid_anchors(zone: &[Vec2], frame: SetupFrame) -> Vec<Vec2> {
    let (lo, hi) = polygon::bounds(zone);
    let mut anchors: Vec<Vec2> = Vec::new();
    let mut y = lo.y.floor();
    while y <= hi.y {
        let mut x = lo.x.floor();
        while x <= hi.x {
            let p = Vec2::new(x, y);
            if polygon::contains(zone, p) {
                anchors.push(p);
            }
            x += 1.0;
        }
        y += 1.0;
    }
    if frame == SetupFrame::HalfTurn {
        anchors.reverse();
    }
    anchors
}

/// Which loop of [`place_first`] is outermost.
#[derive(Clone, Copy, PartialEq)]
enum Nesting {
    /// The first shape that fits anywhere (the middle-first set-up).
    ShapeFirst,
    /// The first anchor where any shape fits (the packed set-up).
    AnchorFirst,
}

/// The first placement of one of `shapes` at one of `anchors` in one of
/// [`FORMATION_FACINGS_DEGREES`] that fits, first clear of terrain footprints and then only
/// clear of walls; it is recorded in `obstacles.models`.
fn place_first(
    zone: &[Vec2],
    bases: &[Base],
    obstacles: &mut SetupObstacles,
    shapes: &[Vec<Vec2>],
    anchors: &[Vec2],
    nesting: Nesting,
) -> Result<Vec<(Vec2, f32)>, NoRoom> {
    let at = |offsets: &Vec<Vec2>, anchor: Vec2, facing: f32| -> Vec<(Vec2, f32)> {
        offsets
            .iter()
            .map(|o| (crate::geometry::place(*o, anchor, facing), facing))
            .collect()
    };
    let zone = ZoneRoom::of(zone);
    for avoid_footprints in [true, false] {
        let terrain = Terrain::of(obstacles);
        let fit = |spots: &Vec<(Vec2, f32)>| {
            fits(&zone, bases, spots, obstacles, &terrain, avoid_footprints)
        };
        let found = match nesting {
            Nesting::ShapeFirst => shapes.iter().find_map(|offsets| {
                anchors.iter().find_map(|anchor| {
                    FORMATION_FACINGS_DEGREES
                        .iter()
                        .map(|f| at(offsets, *anchor, *f))
                        .find(fit)
                })
            }),
            Nesting::AnchorFirst => anchors.iter().find_map(|anchor| {
                shapes.iter().find_map(|offsets| {
                    FORMATION_FACINGS_DEGREES
                        .iter()
                        .map(|f| at(offsets, *anchor, *f))
                        .find(fit)
                })
            }),
        };
        if let Some(spots) = found {
            for (b, (p, f)) in bases.iter().zip(&spots) {
                obstacles.models.push((*b, *p, *f));
            }
            return Ok(spots);
        }
    }
    Err(NoRoom {
        models: bases.len(),
    })
}

/// Terrain outlines with their bounding boxes, worked out once per unit set up.
struct Terrain<'a> {
    walls: Vec<(Vec2, Vec2, &'a [Vec2])>,
    footprints: Vec<(Vec2, Vec2, &'a [Vec2])>,
}

/// Spacing of [`ZoneRoom`]'s grid (inches).
const ROOM_GRID_INCHES: f32 = 0.5;

/// A zone with the distance from each point of a grid to its boundary (negative outside),
/// so that most "is this round base wholly within the zone" questions are answered without
/// walking the zone's edges: the distance changes by at most the distance moved.
struct ZoneRoom<'a> {
    zone: &'a [Vec2],
    lo: Vec2,
    columns: usize,
    rows: usize,
    room: Vec<f32>,
}

impl<'a> ZoneRoom<'a> {
    fn of(zone: &'a [Vec2]) -> Self {
        let (lo, hi) = polygon::bounds(zone);
        let columns = ((hi.x - lo.x) / ROOM_GRID_INCHES).ceil() as usize + 1;
        let rows = ((hi.y - lo.y) / ROOM_GRID_INCHES).ceil() as usize + 1;
        let mut room = Vec::with_capacity(columns * rows);
        for j in 0..rows {
            for i in 0..columns {
                let g = lo + Vec2::new(i as f32, j as f32) * ROOM_GRID_INCHES;
                let d = polygon::distance_to_boundary(zone, g);
                room.push(if polygon::contains(zone, g) { d } else { -d });
            }
        }
        ZoneRoom {
            zone,
            lo,
            columns,
            rows,
            room,
        }
    }

    /// Exactly [`Base::wholly_within`] for the zone.
    fn wholly_within(&self, base: &Base, p: Vec2, facing: f32) -> bool {
        if let Base::Round(_) = base {
            let r = base.half_extents_inches().x;
            let at = ((p - self.lo) / ROOM_GRID_INCHES).round();
            if at.x >= 0.0 && at.y >= 0.0 {
                let (i, j) = (at.x as usize, at.y as usize);
                if i < self.columns && j < self.rows {
                    let g = self.lo + at * ROOM_GRID_INCHES;
                    let (m, d) = (self.room[j * self.columns + i], p.distance(g));
                    if m >= 0.0 && m - d >= r - 1e-4 + 1e-5 {
                        return true;
                    }
                    if (m >= 0.0 && m + d < r - 1e-4 - 1e-5) || (m < 0.0 && d < r - 1e-5) {
                        return false;
                    }
                }
            } else {
                return false;
            }
        }
        base.wholly_within(p, facing, self.zone)
    }
}

impl<'a> Terrain<'a> {
    fn of(obstacles: &'a SetupObstacles) -> Self {
        let boxed = |t: &'a Vec<Vec2>| {
            let (lo, hi) = polygon::bounds(t);
            (lo, hi, t.as_slice())
        };
        Terrain {
            walls: obstacles.walls.iter().map(boxed).collect(),
            footprints: obstacles.footprints.iter().map(boxed).collect(),
        }
    }
}

fn fits(
    zone: &ZoneRoom,
    bases: &[Base],
    spots: &[(Vec2, f32)],
    obstacles: &SetupObstacles,
    terrain: &Terrain,
    avoid_footprints: bool,
) -> bool {
    bases.iter().zip(spots).all(|(base, &(p, facing))| {
        if !zone.wholly_within(base, p, facing) {
            return false;
        }
        let r = base.bounding_radius_inches();
        let near = |(lo, hi, _): &&(Vec2, Vec2, &[Vec2])| {
            p.x + r >= lo.x && p.x - r <= hi.x && p.y + r >= lo.y && p.y - r <= hi.y
        };
        let mut nearby = terrain
            .walls
            .iter()
            .chain(terrain.footprints.iter().filter(|_| avoid_footprints))
            .filter(near)
            .peekable();
        if nearby.peek().is_some() {
            let outline = std::cell::OnceCell::new();
            // Well away from a piece's edge the base's outline (inside its bounding circle)
            // overlaps the piece exactly when its centre is inside it.
            if nearby.any(|(_, _, t)| {
                if polygon::distance_to_boundary(t, p) > r + 1e-3 {
                    polygon::contains(t, p)
                } else {
                    polygon::polygons_intersect(outline.get_or_init(|| base.outline(p, facing)), t)
                }
            }) {
                return false;
            }
        }
        // Bounding circles keep a gap between units; where they are closer and a hull or an
        // oval is one of the two, their outlines are measured (a vehicle's circle is far wider
        // than its hull).
        let gap = if obstacles.crowded {
            CROWDED_UNIT_GAP_INCHES
        } else {
            UNIT_GAP_INCHES
        };
        obstacles.models.iter().all(|(other, q, of)| {
            let d = p.distance(*q);
            if d >= r + other.bounding_radius_inches() + gap {
                return true;
            }
            if !obstacles.crowded || (base.is_round() && other.is_round()) {
                return false;
            }
            apart_along_centres((base, p, facing), (other, *q, *of), gap)
        })
    })
}

/// True when two placed bases are at least `gap` inches apart along the line between their
/// centres: their extents along it ([`Base::extent_along`]) leave that gap, which separates
/// them by at least `gap` everywhere (a separating axis). Exact for two rounds; for a hull
/// beside another it measures across the hull, not round its bounding circle.
fn apart_along_centres(a: (&Base, Vec2, f32), b: (&Base, Vec2, f32), gap: f32) -> bool {
    let between = b.1 - a.1;
    let d = between.length();
    if d <= 1e-6 {
        return false;
    }
    let dir = between / d;
    d >= a.0.extent_along(a.2, dir) + b.0.extent_along(b.2, -dir) + gap - 1e-4
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hulls_side_by_side_are_measured_across_for_the_gap_between_units() {
        let hull = Base::Hull {
            length: 5.0,
            width: 2.0,
        };
        // Side by side, 1.5" apart: their bounding circles (2.7" each) overlap.
        let a = (&hull, Vec2::new(0.0, 0.0), 0.0);
        let b = (&hull, Vec2::new(0.0, 3.5), 0.0);
        assert!(apart_along_centres(a, b, 1.0));
        assert!(!apart_along_centres(a, b, 2.0));
        // Turned a quarter, the second hull's length points at the first.
        let c = (&hull, Vec2::new(0.0, 3.5), 90.0);
        assert!(!apart_along_centres(a, c, 1.0));
        let round = Base::Round(32.0);
        let r = 16.0 / 25.4;
        let e = (&round, Vec2::new(0.0, 1.0 + r + 1.0), 0.0);
        assert!(apart_along_centres(a, e, 1.0 - 1e-3));
        assert!(!apart_along_centres(a, e, 1.1));
    }

    fn rect(x0: f32, y0: f32, x1: f32, y1: f32) -> Vec<Vec2> {
        vec![
            Vec2::new(x0, y0),
            Vec2::new(x1, y0),
            Vec2::new(x1, y1),
            Vec2::new(x0, y1),
        ]
    }

    #[test]
    fn ten_models_fit_wholly_within_zone_in_coherency() {
        let zone = rect(0.0, 0.0, 60.0, 12.0);
        let bases = vec![Base::Round(32.0); 10];
        let mut obstacles = SetupObstacles::default();
        let spots = set_up_unit(&zone, &bases, &mut obstacles, SetupFrame::Table).unwrap();
        assert_eq!(spots.len(), 10);
        for (i, (p, f)) in spots.iter().enumerate() {
            assert!(bases[i].wholly_within(*p, *f, &zone));
            let r = bases[i].half_extents_inches().x;
            let neighbours = spots
                .iter()
                .enumerate()
                .filter(|(j, (q, _))| *j != i && p.distance(*q) - 2.0 * r <= 2.0)
                .count();
            assert!(neighbours >= 2, "model {i} has {neighbours} neighbours");
        }
    }

    #[test]
    fn second_unit_keeps_clear_of_the_first_and_of_walls() {
        let zone = rect(0.0, 0.0, 20.0, 10.0);
        let wall = rect(9.5, 0.0, 10.5, 10.0);
        let mut obstacles = SetupObstacles {
            walls: vec![wall.clone()],
            ..Default::default()
        };
        let a = set_up_unit(
            &zone,
            &[Base::Round(32.0); 5],
            &mut obstacles,
            SetupFrame::Table,
        )
        .unwrap();
        let b = set_up_unit(
            &zone,
            &[Base::Round(32.0); 5],
            &mut obstacles,
            SetupFrame::Table,
        )
        .unwrap();
        for (p, _) in a.iter().chain(&b) {
            assert!(!polygon::polygons_intersect(
                &Base::Round(32.0).outline(*p, 0.0),
                &wall
            ));
        }
        for (p, _) in &a {
            for (q, _) in &b {
                assert!(p.distance(*q) >= 32.0 / 25.4 + UNIT_GAP_INCHES - 1e-3);
            }
        }
    }

    #[test]
    fn seven_large_bases_are_set_up_in_coherency() {
        let zone = rect(0.0, 0.0, 60.0, 12.0);
        for base in [Base::Round(40.0), Base::Round(60.0), Base::Oval(90.0, 52.0)] {
            let bases = vec![base; 7];
            let spots = set_up_unit(
                &zone,
                &bases,
                &mut SetupObstacles::default(),
                SetupFrame::Table,
            )
            .unwrap();
            let solids: Vec<ModelSolid> = spots
                .iter()
                .map(|(p, f)| ModelSolid::new(base, p.extend(0.0), *f, 1.5))
                .collect();
            assert!(coherency::check(&solids).coherent, "{base:?}");
        }
    }

    #[test]
    fn no_room_is_an_error() {
        let zone = rect(0.0, 0.0, 2.0, 2.0);
        let err = set_up_unit(
            &zone,
            &[Base::Round(90.0)],
            &mut SetupObstacles::default(),
            SetupFrame::Table,
        );
        assert_eq!(err, Err(NoRoom { models: 1 }));
    }

    #[test]
    fn a_half_turned_zone_is_filled_as_the_image_of_the_table_frame() {
        // Two zones of a 44" by 60" table, each the half-turn of the other about (22, 30),
        // with a footprint in one and its image in the other.
        let turn = |p: Vec2| Vec2::new(44.0 - p.x, 60.0 - p.y);
        let near = rect(0.0, 0.0, 44.0, 12.0);
        let far: Vec<Vec2> = near.iter().map(|p| turn(*p)).collect();
        let ruin = rect(18.0, 4.0, 26.0, 9.0);
        let units = [
            vec![Base::Round(32.0); 10],
            vec![Base::Oval(90.0, 52.0)],
            vec![Base::Round(40.0); 3],
        ];
        let fill = |zone: &[Vec2], footprint: Vec<Vec2>, frame| {
            let mut obstacles = SetupObstacles {
                crowded: false,
                footprints: vec![footprint],
                ..Default::default()
            };
            units
                .iter()
                .flat_map(|b| set_up_unit(zone, b, &mut obstacles, frame).unwrap())
                .collect::<Vec<_>>()
        };
        let table = fill(&near, ruin.clone(), SetupFrame::Table);
        let image = fill(
            &far,
            ruin.iter().map(|p| turn(*p)).collect(),
            SetupFrame::HalfTurn,
        );
        let same_frame = fill(
            &far,
            ruin.iter().map(|p| turn(*p)).collect(),
            SetupFrame::Table,
        );
        assert_eq!(table.len(), image.len());
        for ((p, _), (q, _)) in table.iter().zip(&image) {
            assert!(
                turn(*p).distance(*q) < 1e-3,
                "{p} turns to {}, set up at {q}",
                turn(*p)
            );
        }
        assert!(
            table
                .iter()
                .zip(&same_frame)
                .any(|((p, _), (q, _))| turn(*p).distance(*q) > 0.1),
            "the table frame alone would already give the image; the test shows nothing"
        );
    }

    #[test]
    fn the_room_grid_answers_exactly_as_the_zone_does() {
        // A concave zone (a quarter with a bite out of it) and points on and off a fine grid.
        let zone = vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(22.0, 0.0),
            Vec2::new(22.0, 21.0),
            Vec2::new(15.0, 24.0),
            Vec2::new(12.0, 30.0),
            Vec2::new(0.0, 30.0),
        ];
        let room = ZoneRoom::of(&zone);
        let mut differ = 0;
        let mut within = 0;
        for i in -20..500 {
            for j in -20..640 {
                let p = Vec2::new(i as f32 * 0.047, j as f32 * 0.0491);
                for base in [Base::Round(25.0), Base::Round(32.0), Base::Round(130.0)] {
                    let exact = base.wholly_within(p, 0.0, &zone);
                    within += exact as usize;
                    differ += (room.wholly_within(&base, p, 0.0) != exact) as usize;
                }
            }
        }
        assert!(within > 1000, "the test reaches inside the zone");
        assert_eq!(differ, 0);
    }

    #[test]
    fn a_crowded_zone_is_filled_packed_where_the_middle_first_set_up_leaves_no_room() {
        // A 36" by 9" zone along the table edge: four 20-model units of 32mm bases. Middle
        // first, the first unit's block splits the zone and a later unit finds no room.
        let zone = rect(4.0, 0.0, 40.0, 9.0);
        let centre = Vec2::new(22.0, 30.0);
        let unit = vec![Base::Round(32.0); 20];
        let mut middle = SetupObstacles::default();
        let fails = (0..4)
            .filter(|_| set_up_unit(&zone, &unit, &mut middle, SetupFrame::Table).is_err())
            .count();
        assert!(
            fails > 0,
            "the middle-first set-up fits them all; the test shows nothing"
        );
        let mut packed = SetupObstacles::default();
        let units = vec![unit.clone(); 4];
        let all = set_up_army(&zone, &units, &mut packed, SetupFrame::Table, centre);
        for (k, spots) in all.into_iter().enumerate() {
            let spots = spots.unwrap_or_else(|e| panic!("unit {k}: {e}"));
            let solids: Vec<ModelSolid> = spots
                .iter()
                .map(|(p, f)| ModelSolid::new(Base::Round(32.0), p.extend(0.0), *f, 1.5))
                .collect();
            assert!(coherency::check(&solids).coherent, "unit {k}");
            for (p, f) in &spots {
                assert!(Base::Round(32.0).wholly_within(*p, *f, &zone), "unit {k}");
            }
        }
        assert_eq!(
            packed.models.len(),
            80,
            "the failed middle-first try is forgotten"
        );
        // No two bases of the 80 overlap.
        for (i, (_, p, _)) in packed.models.iter().enumerate() {
            for (_, q, _) in &packed.models[i + 1..] {
                assert!(p.distance(*q) >= 32.0 / 25.4 - 1e-3);
            }
        }
    }

    #[test]
    fn a_grown_unit_keeps_coherency_and_rounds_a_wall() {
        // A wall across the zone leaves two pockets; a unit of 12 grows round it.
        let zone = rect(0.0, 0.0, 14.0, 6.0);
        let wall = rect(6.5, 0.0, 7.5, 4.5);
        let mut obstacles = SetupObstacles {
            walls: vec![wall.clone()],
            ..Default::default()
        };
        let bases = vec![Base::Round(32.0); 12];
        let spots = grow_unit(
            &zone,
            &bases,
            &mut obstacles,
            Vec2::new(7.0, 30.0),
            GrowOrder::Compact,
        )
        .unwrap();
        let solids: Vec<ModelSolid> = spots
            .iter()
            .map(|(p, f)| ModelSolid::new(Base::Round(32.0), p.extend(0.0), *f, 1.5))
            .collect();
        assert!(coherency::check(&solids).coherent);
        for (p, f) in &spots {
            assert!(!polygon::polygons_intersect(
                &Base::Round(32.0).outline(*p, *f),
                &wall
            ));
            assert!(Base::Round(32.0).wholly_within(*p, *f, &zone));
        }
    }
}
