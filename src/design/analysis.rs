//! Layout analysis: what each deployment zone can see, the open lanes between the zones, who
//! sees each objective, and how far the layout is from its own 180° image.
//!
//! Every figure is terrain only (no models on the table), by the sight rules of
//! [`crate::geometry::sight`] (ruins and woods included), with probe models of two kinds:
//! [`INFANTRY_PROBE`] and [`VEHICLE_PROBE`].

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;
use serde::Serialize;

use super::validate::{Problem, validate};
use crate::geometry::heatmap::{
    HEATMAP_SAMPLING, Heatmap, ProbeShape, grid_size, heatmap_of, zone_grid,
};
use crate::geometry::sight::{Probe, SightIndex};
use crate::geometry::{Base, TerrainCategory, TerrainPiece, Vec2, polygon};
use crate::rules::mission::ObjectiveMarker;

/// The standard infantry model: a 32 mm base, 1.6" tall (an Intercessor).
pub const INFANTRY_PROBE: ProbeShape = ProbeShape {
    base: Base::Round(32.0),
    height: 1.6,
    infantry: true,
};

/// A vehicle-sized model: a 4.7" x 3.6" hull, 3.5" tall (a Rhino-sized transport), facing
/// along the table's long edge.
pub const VEHICLE_PROBE: ProbeShape = ProbeShape {
    base: Base::Hull {
        length: 4.7,
        width: 3.6,
    },
    height: 3.5,
    infantry: false,
};

/// Spacing of the observer grid in each zone (inches).
pub const OBSERVER_SPACING_INCHES: f32 = 2.0;

/// Spacing of the lane end points in each zone (inches).
pub const LANE_SPACING_INCHES: f32 = 2.0;

/// Height of a lane's sight line above the table (inches): the chest of an infantry model.
pub const LANE_HEIGHT_INCHES: f32 = 1.0;

/// The default heatmap cell (inches).
pub const DEFAULT_CELL_INCHES: f32 = 0.5;

/// What an analysis looks at.
#[derive(Debug, Clone)]
pub struct AnalysisInput {
    /// Layout name.
    pub layout: String,
    /// Deployment map name.
    pub deployment: String,
    /// The pieces, in table coordinates.
    pub pieces: Vec<TerrainPiece>,
    /// The deployment zones: (player, name, area).
    pub zones: Vec<(u8, String, Vec<Vec2>)>,
    /// The objective markers in play.
    pub objectives: Vec<ObjectiveMarker>,
    /// Ground-floor openings of ruins count as closed (tournament convention).
    pub ground_floor_windows_closed: bool,
}

/// Board share visible from one zone, per probe kind.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ZoneReport {
    /// Player whose zone it is.
    pub player: u8,
    /// Zone name on the card.
    pub name: String,
    /// Observer grid points in the zone.
    pub observers: usize,
    /// Share of the table's cells (0-1) where an infantry model is visible to one in the zone.
    pub infantry_visible_share: f32,
    /// The same for vehicle-sized models.
    pub vehicle_visible_share: f32,
}

/// Open lanes between the two zones.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LaneReport {
    /// Number of open lanes: families of clear lines whose ends move between neighbouring
    /// grid points (8-neighbourhood) at both ends.
    pub count: usize,
    /// Lines tested (pairs of zone grid points).
    pub lines: usize,
    /// Lines that are clear.
    pub clear_lines: usize,
    /// Lines in the widest lane.
    pub widest: usize,
}

/// Who sees one objective.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ObjectiveReport {
    /// Marker id.
    pub id: String,
    /// Centre (inches).
    pub at: (f32, f32),
    /// For each zone: (player, share of the zone's observer points that see an infantry model
    /// standing on the marker).
    pub seen_from: Vec<(u8, f32)>,
}

/// How far the layout is from its own 180° image.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AsymmetryReport {
    /// Mean of `infantry` and `vehicle` (0 = each zone sees the exact image of what the other
    /// sees; 1 = nothing in common).
    pub score: f32,
    /// Share of cells where zone 1's infantry heatmap differs from zone 2's turned 180°.
    pub infantry: f32,
    /// The same for vehicles.
    pub vehicle: f32,
    /// Pieces and objectives with no 180° image in the layout (empty for input given as bare
    /// pieces, see [`crate::design::mirror::unmatched`]).
    pub unmatched: Vec<String>,
}

/// The whole analysis.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Analysis {
    /// Layout name.
    pub layout: String,
    /// Deployment map name.
    pub deployment: String,
    /// Heatmap cell (inches).
    pub cell_inches: f32,
    /// Heatmap size: (columns, rows).
    pub grid: (usize, usize),
    /// Per zone, in the order of the input.
    pub zones: Vec<ZoneReport>,
    /// Lanes between the first two zones.
    pub lanes: LaneReport,
    /// Per objective.
    pub objectives: Vec<ObjectiveReport>,
    /// Asymmetry under the 180° rotation.
    pub asymmetry: AsymmetryReport,
    /// Validation problems.
    pub problems: Vec<Problem>,
    /// Heatmaps: `[zone][kind]`, kind 0 infantry, 1 vehicle.
    #[serde(skip)]
    pub maps: Vec<[Heatmap; 2]>,
    /// Under 11th: share of the table's cells where an INFANTRY model may be Hidden (within a
    /// terrain area holding a Light or Dense feature); absent under 10th.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden_share: Option<f32>,
    /// Under 11th: those cells (`visible` true where a model may be Hidden).
    #[serde(skip)]
    pub hidden: Option<Heatmap>,
}

/// Units of work an analysis of `input` at `cell` reports to its counter (heatmap rows, zone
/// points for lanes, objectives), for a progress bar.
pub fn work(input: &AnalysisInput, cell: f32) -> usize {
    let (_, rows) = grid_size(cell);
    let lane_rows = input
        .zones
        .first()
        .map_or(0, |z| zone_grid(&z.2, LANE_SPACING_INCHES).len());
    input.zones.len() * 2 * rows + lane_rows + input.objectives.len()
}

/// Runs the analysis at `cell` inches, adding to `done` as it goes (see [`work`]).
pub fn analyze(input: &AnalysisInput, cell: f32, done: &AtomicUsize) -> Analysis {
    analyze_under(
        input,
        &crate::geometry::sight::TerrainRules::tenth(input.ground_floor_windows_closed),
        cell,
        done,
    )
}

/// [`analyze`] under an edition's terrain rules: under 11th the heatmaps, lanes and objectives
/// follow the Obscuring areas and Solid gaps, and [`Analysis::hidden`] is the layer of cells
/// where an INFANTRY model may be Hidden (11th Core Rules 13.09-13.11).
pub fn analyze_under(
    input: &AnalysisInput,
    rules: &crate::geometry::sight::TerrainRules,
    cell: f32,
    done: &AtomicUsize,
) -> Analysis {
    let index = SightIndex::new_under(&input.pieces, rules);
    let kinds = [INFANTRY_PROBE, VEHICLE_PROBE];
    let observers: Vec<[Vec<Probe>; 2]> = input
        .zones
        .iter()
        .map(|(_, _, area)| {
            let grid = zone_grid(area, OBSERVER_SPACING_INCHES);
            kinds.map(|k| {
                grid.iter()
                    .map(|(_, _, p)| index.probe(k.model_at(*p)))
                    .collect()
            })
        })
        .collect();
    let maps: Vec<[Heatmap; 2]> = observers
        .iter()
        .map(|obs| [0, 1].map(|k| heatmap_of(&index, &obs[k], cell, &kinds[k], done)))
        .collect();
    let zones = input
        .zones
        .iter()
        .zip(&maps)
        .zip(&observers)
        .map(|(((player, name, _), m), obs)| ZoneReport {
            player: *player,
            name: name.clone(),
            observers: obs[0].len(),
            infantry_visible_share: m[0].fraction,
            vehicle_visible_share: m[1].fraction,
        })
        .collect();
    let hidden = index.eleventh().then(|| {
        let (cols, rows) = grid_size(cell);
        let mut map = Heatmap {
            cell,
            cols,
            rows,
            visible: Vec::with_capacity(cols * rows),
            fraction: 0.0,
        };
        for r in 0..rows {
            for c in 0..cols {
                let probe = index.probe(INFANTRY_PROBE.model_at(map.centre(c, r)));
                map.visible.push(index.probe_within_obscuring_area(&probe));
            }
        }
        map.fraction =
            map.visible.iter().filter(|v| **v).count() as f32 / map.visible.len().max(1) as f32;
        map
    });
    let lanes = match input.zones.as_slice() {
        [a, b, ..] => lanes(&index, &input.pieces, &a.2, &b.2, done),
        _ => LaneReport {
            count: 0,
            lines: 0,
            clear_lines: 0,
            widest: 0,
        },
    };
    let objectives = input
        .objectives
        .iter()
        .map(|o| {
            let target = index.probe(INFANTRY_PROBE.model_at(o.at.vec()));
            let seen_from = input
                .zones
                .iter()
                .zip(&observers)
                .map(|((player, _, _), obs)| {
                    let seeing = obs[0]
                        .par_iter()
                        .filter(|s| index.probe_visible(s, &target, &HEATMAP_SAMPLING))
                        .count();
                    (*player, seeing as f32 / obs[0].len().max(1) as f32)
                })
                .collect();
            done.fetch_add(1, Ordering::Relaxed);
            ObjectiveReport {
                id: o.id.clone(),
                at: (o.at.0, o.at.1),
                seen_from,
            }
        })
        .collect();
    let asymmetry = match maps.as_slice() {
        [a, b, ..] => {
            let infantry = rotated_difference(&a[0], &b[0]);
            let vehicle = rotated_difference(&a[1], &b[1]);
            AsymmetryReport {
                score: (infantry + vehicle) / 2.0,
                infantry,
                vehicle,
                unmatched: Vec::new(),
            }
        }
        _ => AsymmetryReport {
            score: 0.0,
            infantry: 0.0,
            vehicle: 0.0,
            unmatched: Vec::new(),
        },
    };
    Analysis {
        layout: input.layout.clone(),
        deployment: input.deployment.clone(),
        cell_inches: cell,
        grid: grid_size(cell),
        zones,
        lanes,
        objectives,
        asymmetry,
        problems: validate(&input.pieces, &input.objectives),
        maps,
        hidden_share: hidden.as_ref().map(|h| h.fraction),
        hidden,
    }
}

/// Share of cells where `a` differs from `b` turned 180° (cell (c, r) against
/// (cols-1-c, rows-1-r)).
pub fn rotated_difference(a: &Heatmap, b: &Heatmap) -> f32 {
    let n = a.visible.len().min(b.visible.len());
    let differ = (0..n)
        .filter(|&i| a.visible[i] != b.visible[n - 1 - i])
        .count();
    differ as f32 / n.max(1) as f32
}

/// True when the straight line from `a` to `b` at [`LANE_HEIGHT_INCHES`] is open: it hits no
/// terrain solid (walls, floors, bodies) and crosses no ruin, low ruin footprint or woods
/// footprint, so nothing along it hides a model or gives cover.
/// Under 11th edition (an index built with its terrain rules) the footprints that close a lane
/// are the Obscuring terrain areas instead.
pub fn line_open(index: &SightIndex, pieces: &[TerrainPiece], a: Vec2, b: Vec2) -> bool {
    if index.eleventh() {
        return index
            .cast_terrain_ray(a.extend(LANE_HEIGHT_INCHES), b.extend(LANE_HEIGHT_INCHES))
            .is_none()
            && !index.obscuring_areas().any(|area| {
                polygon::segment_enters(a, b, area)
                    || polygon::contains(area, a)
                    || polygon::contains(area, b)
            });
    }
    let blocks_footprint = |c: TerrainCategory| {
        matches!(
            c,
            TerrainCategory::Ruin | TerrainCategory::LowFootprint | TerrainCategory::Woods
        )
    };
    index
        .cast_terrain_ray(a.extend(LANE_HEIGHT_INCHES), b.extend(LANE_HEIGHT_INCHES))
        .is_none()
        && !pieces.iter().any(|p| {
            blocks_footprint(p.category)
                && (polygon::segment_enters(a, b, &p.footprint)
                    || polygon::contains(&p.footprint, a)
                    || polygon::contains(&p.footprint, b))
        })
}

/// The open lanes from zone `za` to zone `zb`: every pair of [`LANE_SPACING_INCHES`] grid
/// points is tested with [`line_open`], and the open lines are grouped into lanes, two lines
/// being in one lane when each end point of one is the same as or next to (8-neighbourhood)
/// the matching end of the other.
pub fn lanes(
    index: &SightIndex,
    pieces: &[TerrainPiece],
    za: &[Vec2],
    zb: &[Vec2],
    done: &AtomicUsize,
) -> LaneReport {
    let (ga, gb) = (
        zone_grid(za, LANE_SPACING_INCHES),
        zone_grid(zb, LANE_SPACING_INCHES),
    );
    let open: Vec<(usize, usize)> = ga
        .par_iter()
        .enumerate()
        .flat_map_iter(|(i, (_, _, a))| {
            let row: Vec<(usize, usize)> = gb
                .iter()
                .enumerate()
                .filter(|(_, (_, _, b))| line_open(index, pieces, *a, *b))
                .map(|(j, _)| (i, j))
                .collect();
            done.fetch_add(1, Ordering::Relaxed);
            row
        })
        .collect();
    let at_a: HashMap<(i32, i32), usize> = ga
        .iter()
        .enumerate()
        .map(|(i, (c, r, _))| ((*c, *r), i))
        .collect();
    let at_b: HashMap<(i32, i32), usize> = gb
        .iter()
        .enumerate()
        .map(|(j, (c, r, _))| ((*c, *r), j))
        .collect();
    let line_id: HashMap<(usize, usize), usize> =
        open.iter().enumerate().map(|(k, l)| (*l, k)).collect();
    let mut parent: Vec<usize> = (0..open.len()).collect();
    fn root(parent: &mut [usize], mut k: usize) -> usize {
        while parent[k] != k {
            parent[k] = parent[parent[k]];
            k = parent[k];
        }
        k
    }
    let around =
        |c: i32, r: i32| (-1..=1).flat_map(move |dc| (-1..=1).map(move |dr| (c + dc, r + dr)));
    for (k, &(i, j)) in open.iter().enumerate() {
        let (ca, ra, _) = ga[i];
        let (cb, rb, _) = gb[j];
        for na in around(ca, ra).filter_map(|p| at_a.get(&p)) {
            for nb in around(cb, rb).filter_map(|p| at_b.get(&p)) {
                if let Some(&m) = line_id.get(&(*na, *nb)) {
                    let (x, y) = (root(&mut parent, k), root(&mut parent, m));
                    if x != y {
                        parent[x] = y;
                    }
                }
            }
        }
    }
    let mut sizes: HashMap<usize, usize> = HashMap::new();
    for k in 0..open.len() {
        *sizes.entry(root(&mut parent, k)).or_default() += 1;
    }
    LaneReport {
        count: sizes.len(),
        lines: ga.len() * gb.len(),
        clear_lines: open.len(),
        widest: sizes.values().copied().max().unwrap_or(0),
    }
}
