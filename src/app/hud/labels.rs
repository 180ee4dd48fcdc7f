//! Unit labels on the table: each unit on the table named (as its card names it) above the
//! middle of its models, in its player's colour, so units are recognisable at any zoom (a label
//! that would cover another is left out until the camera comes closer). N (or the phase bar's
//! "Labels") hides and shows them.

use bevy::prelude::*;
use bevy_egui::egui;

use super::player_colour;
use crate::app::ui::PanelInsets;
use crate::game::Game;

/// Inches above the tallest model of a unit that its label stands.
pub const LABEL_LIFT_INCHES: f32 = 1.5;

/// Where each unit on the table is labelled: (its player, its name, the point above the middle
/// of its live models, table inches). A Leader's unit is labelled with its Bodyguard's, once.
pub fn label_points(game: &Game) -> Vec<(u8, String, Vec3)> {
    let mut out = Vec::new();
    for army in 0..game.scene.armies.len() {
        let player = game.player_of(army);
        for unit in 0..game.scene.armies[army].units.len() {
            if game.combined(army, unit)[0] != unit {
                continue;
            }
            let models: Vec<Vec3> = game
                .combined(army, unit)
                .into_iter()
                .flat_map(|u| game.live_models(army, u))
                .map(|r| {
                    let s = game.solid(r);
                    s.centre.extend(s.z + s.height)
                })
                .collect();
            if models.is_empty() {
                continue;
            }
            let middle = models.iter().copied().sum::<Vec3>() / models.len() as f32;
            let top = models.iter().map(|m| m.z).fold(0.0, f32::max);
            out.push((
                player,
                game.scene.armies[army].units[unit].name.clone(),
                Vec3::new(middle.x, middle.y, top + LABEL_LIFT_INCHES),
            ));
        }
    }
    out
}

/// Draws the labels of [`label_points`] seen by `camera`, clipped to the table's part of the
/// window (`insets`, window logical pixels; egui's `zoom` converts them to its points).
pub(super) fn unit_labels(
    ctx: &egui::Context,
    game: &Game,
    camera: (&Camera, &GlobalTransform),
    insets: &PanelInsets,
) {
    let zoom = ctx.zoom_factor();
    let screen = ctx.viewport_rect();
    let table = egui::Rect::from_min_max(
        egui::pos2(insets.left / zoom, insets.top / zoom),
        egui::pos2(
            screen.right() - insets.right / zoom,
            screen.bottom() - insets.bottom / zoom,
        ),
    );
    let painter = ctx
        .layer_painter(egui::LayerId::new(
            egui::Order::Background,
            egui::Id::new("unit-labels"),
        ))
        .with_clip_rect(table);
    let (camera, transform) = camera;
    let mut drawn: Vec<egui::Rect> = Vec::new();
    for (player, name, at) in label_points(game) {
        // Window logical pixels (Bevy counts the viewport's own offset in).
        let Ok(v) = camera.world_to_viewport(transform, at) else {
            continue;
        };
        let pos = egui::pos2(v.x / zoom, v.y / zoom);
        let font = egui::FontId::proportional(12.0);
        let galley = painter.layout_no_wrap(name, font, egui::Color32::WHITE);
        let rect = egui::Align2::CENTER_BOTTOM
            .anchor_size(pos, galley.size())
            .expand(2.0);
        // A label that would cover one already drawn is left out (zoom in to see it).
        if drawn.iter().any(|d| d.intersects(rect)) {
            continue;
        }
        drawn.push(rect);
        painter.rect_filled(rect, 3.0, egui::Color32::from_black_alpha(170));
        painter.rect_stroke(
            rect,
            3.0,
            egui::Stroke::new(1.0, player_colour(player)),
            egui::StrokeKind::Inside,
        );
        painter.galley(
            rect.min + egui::vec2(2.0, 2.0),
            galley,
            egui::Color32::WHITE,
        );
    }
}
