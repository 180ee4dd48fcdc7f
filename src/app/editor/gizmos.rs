//! The editor's outlines over the table: the selection, its 180° image, pieces with a
//! problem, the centre of the rotation.

use bevy::prelude::*;

use super::{Editor, Picked};
use crate::design::mirror::partner;
use crate::geometry::{Vec2, polygon};
use crate::rules::constants::OBJECTIVE_MARKER_RADIUS_INCHES;

/// Outlines: the selection (yellow), its 180° image in mirror mode (cyan), pieces with a
/// problem (red), the centre of the rotation.
pub(super) fn draw(editor: Res<Editor>, mut gizmos: Gizmos) {
    let lift = 0.08;
    let ring = |pts: &[Vec2]| -> Vec<Vec3> {
        pts.iter()
            .chain(pts.first())
            .map(|p| Vec3::new(p.x, p.y, lift))
            .collect()
    };
    let pieces = editor.design.resolved().pieces;
    for p in &editor.problems {
        for id in &p.ids {
            if let Some(piece) = pieces.iter().find(|q| &q.id == id) {
                gizmos.linestrip(ring(&piece.footprint), Color::srgb(0.95, 0.2, 0.2));
            }
        }
    }
    let radius = OBJECTIVE_MARKER_RADIUS_INCHES + 0.15;
    let circle = |c: Vec2| -> Vec<Vec2> {
        (0..24)
            .map(|i| {
                let a = std::f32::consts::TAU * i as f32 / 24.0;
                c + Vec2::new(a.cos(), a.sin()) * radius
            })
            .collect()
    };
    let outline_of = |pick: Picked| -> Option<Vec<Vec2>> {
        match pick {
            Picked::Piece(i) => pieces.get(i).map(|p| p.footprint.clone()),
            Picked::Objective(i) => editor
                .design
                .layout
                .objectives
                .get(i)
                .map(|o| circle(o.at.vec())),
        }
    };
    // Selection outlines stand 0.3" outside the footprint, clear of the problem outlines.
    let grow = |pts: Vec<Vec2>| -> Vec<Vec2> {
        let c = polygon::centroid(&pts);
        pts.iter()
            .map(|p| *p + (*p - c).normalize_or_zero() * 0.3)
            .collect()
    };
    let outline_of = |pick: Picked| outline_of(pick).map(grow);
    if let Some(pick) = editor.picked {
        if let Some(o) = outline_of(pick) {
            gizmos.linestrip(ring(&o), Color::srgb(1.0, 0.85, 0.2));
        }
        if editor.mirror {
            let image = match pick {
                Picked::Piece(i) => partner(&editor.design.layout, i).map(Picked::Piece),
                Picked::Objective(i) => {
                    crate::design::mirror::objective_partner(&editor.design.layout.objectives, i)
                        .map(Picked::Objective)
                }
            };
            if let Some(o) = image.filter(|p| *p != pick).and_then(outline_of) {
                gizmos.linestrip(ring(&o), Color::srgb(0.3, 0.9, 0.95));
            }
        }
    }
    if editor.mirror {
        let c = crate::design::mirror::table_centre();
        gizmos.circle(
            Isometry3d::from_translation(Vec3::new(c.x, c.y, lift)),
            0.6,
            Color::srgb(0.3, 0.9, 0.95),
        );
        gizmos.line(
            Vec3::new(c.x, 0.0, lift),
            Vec3::new(c.x, 2.0 * c.y, lift),
            Color::srgba(0.3, 0.9, 0.95, 0.4),
        );
    }
}
