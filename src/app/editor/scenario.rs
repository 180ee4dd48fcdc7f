//! Scripted editor starts for screenshots.

use std::sync::atomic::AtomicUsize;

use super::{Editor, HeatmapView, Picked};
use crate::design::analysis::analyze_under;
use crate::design::edit::{put_piece, snap_point};
use crate::design::mirror::unmatched;
use crate::geometry::Point;

/// Scripted editor starts for screenshots (`play <scene> --editor --scenario NAME`):
/// `designer` moves the first piece 3" east and 1" south (its image follows in mirror mode),
/// selects it, and shows the analysis at 2" cells with the infantry heatmap.
///
/// # Errors
/// An unknown scenario name, or a layout with no pieces.
pub fn scenario(editor: &mut Editor, name: &str) -> Result<(), String> {
    if name != "designer" {
        return Err(format!(
            "unknown editor scenario '{name}' (known: designer)"
        ));
    }
    let mirror = editor.mirror;
    let Some(first) = editor.design.layout.pieces.first().cloned() else {
        return Err("the layout has no pieces".into());
    };
    let mut moved = first;
    moved.at = snap_point(Point(moved.at.0 + 3.0, moved.at.1 - 1.0));
    editor.edit(|d| {
        put_piece(&mut d.layout, Some(0), moved, mirror);
    });
    editor.picked = Some(Picked::Piece(0));
    editor.cell = 2.0;
    let input = editor.design.analysis_input();
    let rules = editor.design.to_scene().terrain_rules();
    let mut a = analyze_under(&input, &rules, editor.cell, &AtomicUsize::new(0));
    a.asymmetry.unmatched = unmatched(&editor.design.layout);
    editor.analysis = Some((a, input));
    editor.heatmap = HeatmapView::Infantry;
    Ok(())
}
