//! Visibility heatmaps for layout analysis: for a grid over the table, from which cells a model
//! of a given kind can be seen by a source (a deployment zone or a unit).
//!
//! A probe model (a [`ProbeShape`]) stands on the table at each cell centre; sources are
//! observer models (a grid over a zone, or a unit's models). A cell counts as visible when some
//! source sees the probe by the rules of [`super::sight`], terrain only (models on the table
//! are ignored). Rows are computed in parallel (rayon).

use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use super::body::ModelSolid;
use super::sight::{Probe, Sampling, SightIndex, SightModel};
use super::units::{BOARD_DEPTH_INCHES, BOARD_WIDTH_INCHES};
use super::{Base, Vec2, polygon};

/// Base of the infantry probe and grid observers (millimetres).
pub const PROBE_BASE_MM: f32 = 32.0;

/// Sampling for heatmaps: the observer's eye and a ring of 4 points at mid-height and the top
/// centre of the probe.
pub const HEATMAP_SAMPLING: Sampling = Sampling {
    ring_points: 4,
    observer_rings: &[],
    target_rings: &[0.6],
};

/// The kind of model a heatmap places on each cell and in each source zone.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct ProbeShape {
    /// Its base (facing along +x).
    pub base: Base,
    /// Height from the table to the top of the model (inches).
    pub height: f32,
    /// INFANTRY keyword (ruin walls and footprints treat infantry differently).
    pub infantry: bool,
}

impl ProbeShape {
    /// A 32 mm infantry model of `height` inches.
    pub fn infantry(height: f32) -> Self {
        ProbeShape {
            base: Base::Round(PROBE_BASE_MM),
            height,
            infantry: true,
        }
    }

    /// This model standing on the table at `at`, facing +x.
    pub fn solid_at(&self, at: Vec2) -> ModelSolid {
        ModelSolid::new(self.base, at.extend(0.0), 0.0, self.height)
    }

    /// The sight-query form of [`ProbeShape::solid_at`].
    pub fn model_at(&self, at: Vec2) -> SightModel {
        SightModel {
            unit: usize::MAX,
            solid: self.solid_at(at),
            towering: false,
            aircraft: false,
            infantry: self.infantry,
        }
    }
}

/// A visibility heatmap: `cols` x `rows` cells of `cell` inches, row-major from (0, 0).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Heatmap {
    /// Cell size (inches).
    pub cell: f32,
    /// Cells along x.
    pub cols: usize,
    /// Cells along y.
    pub rows: usize,
    /// Whether each cell is visible, row-major (index = row * cols + col).
    pub visible: Vec<bool>,
    /// Share of cells visible (0-1).
    pub fraction: f32,
}

impl Heatmap {
    /// Centre of cell (`col`, `row`) on the table.
    pub fn centre(&self, col: usize, row: usize) -> Vec2 {
        Vec2::new(
            (col as f32 + 0.5) * self.cell,
            (row as f32 + 0.5) * self.cell,
        )
    }
}

/// Columns and rows of a heatmap of `cell` inches over the whole table.
pub fn grid_size(cell: f32) -> (usize, usize) {
    (
        (BOARD_WIDTH_INCHES / cell).round().max(1.0) as usize,
        (BOARD_DEPTH_INCHES / cell).round().max(1.0) as usize,
    )
}

/// Grid points inside `zone`: the centres of the `spacing`-inch cells of a grid anchored at
/// the table origin, as (column, row, centre). Anchoring at the origin makes the grid of a
/// zone's 180° image the image of its grid whenever `spacing` divides the table.
pub fn zone_grid(zone: &[Vec2], spacing: f32) -> Vec<(i32, i32, Vec2)> {
    let (lo, hi) = polygon::bounds(zone);
    let first = |v: f32| ((v / spacing) - 0.5).floor().max(0.0) as i32;
    let mut out = Vec::new();
    for row in first(lo.y)..=((hi.y / spacing).ceil() as i32) {
        for col in first(lo.x)..=((hi.x / spacing).ceil() as i32) {
            let p = Vec2::new((col as f32 + 0.5) * spacing, (row as f32 + 0.5) * spacing);
            if polygon::contains(zone, p) {
                out.push((col, row, p));
            }
        }
    }
    out
}

/// Observer infantry models of `height` inches on a grid of `spacing` inches over `zone`
/// (see [`zone_grid`]), standing on the table.
pub fn zone_observers(zone: &[Vec2], spacing: f32, height: f32) -> Vec<ModelSolid> {
    let shape = ProbeShape::infantry(height);
    zone_grid(zone, spacing)
        .into_iter()
        .map(|(_, _, p)| shape.solid_at(p))
        .collect()
}

/// The heatmap over the whole table at `cell` inches: from which cells an infantry probe of
/// `height` inches is visible to some of the `sources`.
pub fn heatmap(index: &SightIndex, sources: &[ModelSolid], cell: f32, height: f32) -> Heatmap {
    let shape = ProbeShape::infantry(height);
    let sources: Vec<Probe> = sources
        .iter()
        .map(|s| {
            index.probe(SightModel {
                solid: *s,
                ..shape.model_at(s.centre)
            })
        })
        .collect();
    heatmap_of(index, &sources, cell, &shape, &AtomicUsize::new(0))
}

/// The heatmap over the whole table at `cell` inches: from which cells a `probe` model is
/// visible to one of the `sources` (probes made by [`SightIndex::probe`]). Adds one to
/// `rows_done` as each row is finished (for progress bars).
pub fn heatmap_of(
    index: &SightIndex,
    sources: &[Probe],
    cell: f32,
    probe: &ProbeShape,
    rows_done: &AtomicUsize,
) -> Heatmap {
    let (cols, rows) = grid_size(cell);
    let n = sources.len();
    let visible: Vec<bool> = (0..rows)
        .into_par_iter()
        .flat_map_iter(|row| {
            // Start with the source that saw the previous cell: neighbours share sight lines.
            let mut hint = 0;
            let line: Vec<bool> = (0..cols)
                .map(|col| {
                    let c = Vec2::new((col as f32 + 0.5) * cell, (row as f32 + 0.5) * cell);
                    let target = index.probe(probe.model_at(c));
                    let seen = (0..n)
                        .map(|k| (hint + k) % n)
                        .find(|&s| index.probe_visible(&sources[s], &target, &HEATMAP_SAMPLING));
                    if let Some(s) = seen {
                        hint = s;
                    }
                    seen.is_some()
                })
                .collect();
            rows_done.fetch_add(1, Ordering::Relaxed);
            line
        })
        .collect();
    let fraction = visible.iter().filter(|v| **v).count() as f32 / visible.len().max(1) as f32;
    Heatmap {
        cell,
        cols,
        rows,
        visible,
        fraction,
    }
}
