//! Visibility heatmaps for layout analysis: for a grid over the table, from which cells a model
//! of a given height can be seen by a source (a deployment zone or a unit).
//!
//! A probe model (a round base of [`PROBE_BASE_MM`] and the given height) stands on the table
//! at each cell centre; sources are observer models of the same kind (a grid over a zone, or a
//! unit's models). A cell counts as visible when some source sees the probe by the rules of
//! [`super::sight`], terrain only (models on the table are ignored).

use super::body::ModelSolid;
use super::sight::{Sampling, SightIndex, SightModel};
use super::{Base, Vec2, polygon};
use crate::rules::constants::{BOARD_DEPTH_INCHES, BOARD_WIDTH_INCHES};

/// Base of the probe and grid observers (millimetres).
pub const PROBE_BASE_MM: f32 = 32.0;

/// Sampling for heatmaps: the observer's eye and a ring of 4 points at mid-height and the top
/// centre of the probe.
pub const HEATMAP_SAMPLING: Sampling = Sampling {
    ring_points: 4,
    observer_rings: &[],
    target_rings: &[0.6],
};

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

/// Observer models on a grid of `spacing` inches over `zone`, standing on the table.
pub fn zone_observers(zone: &[Vec2], spacing: f32, height: f32) -> Vec<ModelSolid> {
    let (lo, hi) = polygon::bounds(zone);
    let base = Base::Round(PROBE_BASE_MM);
    let mut out = Vec::new();
    let mut y = lo.y + spacing / 2.0;
    while y < hi.y {
        let mut x = lo.x + spacing / 2.0;
        while x < hi.x {
            if polygon::contains(zone, Vec2::new(x, y)) {
                out.push(ModelSolid::new(
                    base,
                    Vec2::new(x, y).extend(0.0),
                    0.0,
                    height,
                ));
            }
            x += spacing;
        }
        y += spacing;
    }
    out
}

/// The heatmap over the whole table at `cell` inches: from which cells a probe of `height`
/// inches is visible to some of the `sources`.
pub fn heatmap(index: &SightIndex, sources: &[ModelSolid], cell: f32, height: f32) -> Heatmap {
    let cols = (BOARD_WIDTH_INCHES / cell).round() as usize;
    let rows = (BOARD_DEPTH_INCHES / cell).round() as usize;
    let as_model = |solid: ModelSolid| SightModel {
        unit: usize::MAX,
        solid,
        towering: false,
        aircraft: false,
        infantry: true,
    };
    let sources: Vec<_> = sources.iter().map(|s| index.probe(as_model(*s))).collect();
    let mut visible = Vec::with_capacity(cols * rows);
    let mut hint = 0;
    for row in 0..rows {
        for col in 0..cols {
            let c = Vec2::new((col as f32 + 0.5) * cell, (row as f32 + 0.5) * cell);
            let probe = index.probe(as_model(ModelSolid::new(
                Base::Round(PROBE_BASE_MM),
                c.extend(0.0),
                0.0,
                height,
            )));
            // Start with the source that saw the previous cell: neighbours share sight lines.
            let n = sources.len();
            let seen = (0..n)
                .map(|k| (hint + k) % n)
                .find(|&s| index.probe_visible(&sources[s], &probe, &HEATMAP_SAMPLING));
            if let Some(s) = seen {
                hint = s;
            }
            visible.push(seen.is_some());
        }
    }
    let fraction = visible.iter().filter(|v| **v).count() as f32 / visible.len().max(1) as f32;
    Heatmap {
        cell,
        cols,
        rows,
        visible,
        fraction,
    }
}
