//! The selected piece's or marker's controls: id, category, place, turn, size, height, walls
//! and floors of a ruin, delete.

use bevy_egui::egui;

use super::actions::{delete, turn};
use super::tools::table_point;
use super::{Editor, Picked};
use crate::data::layout::PieceSpec;
use crate::design::edit::{
    NEW_RUIN_FLOOR_HEIGHT_INCHES, Side, footprint_size, put_objective, put_piece, resized,
    snap_point, snap_rotation, with_floor, with_height, with_opening, with_wall, without_openings,
    without_wall,
};
use crate::design::{ROTATION_SNAP_DEGREES, normalize_degrees};
use crate::geometry::TerrainCategory;

/// Draws the selection's controls.
pub(super) fn selected(ui: &mut egui::Ui, editor: &mut Editor) {
    let mirror = editor.mirror;
    match editor.picked {
        Some(Picked::Piece(i)) => {
            let Some(p) = editor.design.layout.pieces.get(i).cloned() else {
                return;
            };
            ui.heading(format!("{} ({})", p.id, p.category.label()));
            let mut q = p.clone();
            let (mut w, mut d) = footprint_size(&p);
            let mut height = p.walls.first().map_or(p.height, |w| w.height);
            egui::Grid::new("piece").num_columns(2).show(ui, |ui| {
                ui.label("id");
                ui.text_edit_singleline(&mut q.id);
                ui.end_row();
                ui.label("category");
                egui::ComboBox::from_id_salt("category")
                    .selected_text(q.category.label())
                    .show_ui(ui, |ui| {
                        for c in TerrainCategory::ALL {
                            ui.selectable_value(&mut q.category, c, c.label());
                        }
                    });
                ui.end_row();
                ui.label("centre x, y (in)");
                ui.horizontal(|ui| table_point(ui, &mut q.at));
                ui.end_row();
                ui.label("rotation (°)");
                ui.add(egui::DragValue::new(&mut q.rotation).speed(1.0));
                ui.end_row();
                ui.label("width x depth (in)");
                ui.horizontal(|ui| {
                    ui.add(egui::DragValue::new(&mut w).speed(0.1).range(0.5..=30.0));
                    ui.add(egui::DragValue::new(&mut d).speed(0.1).range(0.5..=30.0));
                });
                ui.end_row();
                ui.label(if p.walls.is_empty() {
                    "height (in)"
                } else {
                    "wall height (in)"
                });
                ui.add(
                    egui::DragValue::new(&mut height)
                        .speed(0.1)
                        .range(0.0..=12.0),
                );
                ui.end_row();
            });
            let (w0, d0) = footprint_size(&p);
            if (w - w0).abs() > 1e-4 || (d - d0).abs() > 1e-4 {
                q = resized(&q, w, d);
            }
            let h0 = p.walls.first().map_or(p.height, |w| w.height);
            if (height - h0).abs() > 1e-4 {
                q = with_height(&q, height);
            }
            if editor.snap {
                q.at = snap_point(q.at);
                if (q.rotation - p.rotation).abs() > 1e-4 {
                    q.rotation = snap_rotation(q.rotation);
                }
            }
            q.rotation = normalize_degrees(q.rotation);
            if q != p && !q.id.is_empty() {
                editor.edit(|d| {
                    put_piece(&mut d.layout, Some(i), q, mirror);
                });
            }
            eleventh_controls(ui, editor, &p.id);
            if (p.category == TerrainCategory::Ruin || !p.walls.is_empty())
                && let Some(c) = ruin_controls(ui, &p)
            {
                editor.edit(|d| {
                    put_piece(&mut d.layout, Some(i), c, mirror);
                });
            }
            ui.horizontal(|ui| {
                if ui.button("Turn 15° ([)").clicked() {
                    turn(editor, ROTATION_SNAP_DEGREES);
                }
                if ui.button("Delete").clicked() {
                    delete(editor);
                }
            });
        }
        Some(Picked::Objective(i)) => {
            let Some(o) = editor.design.layout.objectives.get(i).cloned() else {
                return;
            };
            ui.heading(format!("objective {}", o.id));
            let mut q = o.clone();
            ui.horizontal(|ui| {
                ui.label("id");
                ui.text_edit_singleline(&mut q.id);
            });
            ui.horizontal(|ui| {
                ui.label("x, y (in)");
                table_point(ui, &mut q.at);
            });
            if editor.snap {
                q.at = snap_point(q.at);
            }
            if q != o && !q.id.is_empty() {
                editor.edit(|d| {
                    put_objective(&mut d.layout, Some(i), q, mirror);
                });
            }
            if ui.button("Delete").clicked() {
                delete(editor);
            }
        }
        None => {
            ui.weak("Click a piece or a marker the layout placed to select it.");
        }
    }
}

/// The piece's 11th edition category and terrain area (docs/formats.md, "11th edition terrain
/// areas and categories").
fn eleventh_controls(ui: &mut egui::Ui, editor: &mut Editor, id: &str) {
    use crate::design::edit::{area_of, into_area, new_area_id, with_feature_category};
    use crate::geometry::FeatureCategory;
    let layout = &editor.design.layout;
    let Some(piece) = layout.pieces.iter().find(|p| p.id == id) else {
        return;
    };
    let category = layout.feature_category(piece);
    let area = area_of(layout, id).map(str::to_string);
    let areas: Vec<String> = layout.areas.iter().map(|a| a.id.clone()).collect();
    let mut chosen_category = category;
    let mut chosen_area = area.clone();
    egui::Grid::new("eleventh").num_columns(2).show(ui, |ui| {
        ui.label("11th category")
            .on_hover_text("Exposed, Light or Dense (11th edition only)");
        egui::ComboBox::from_id_salt("feature-category")
            .selected_text(category.label())
            .show_ui(ui, |ui| {
                for c in [
                    FeatureCategory::Exposed,
                    FeatureCategory::Light,
                    FeatureCategory::Dense,
                ] {
                    ui.selectable_value(&mut chosen_category, c, c.label());
                }
            });
        ui.end_row();
        ui.label("11th terrain area")
            .on_hover_text("The area holding this piece (11th edition only): its own footprint, or one shared with other pieces");
        egui::ComboBox::from_id_salt("terrain-area")
            .selected_text(area.as_deref().unwrap_or("its own"))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut chosen_area, None, "its own");
                for a in &areas {
                    ui.selectable_value(&mut chosen_area, Some(a.clone()), a.as_str());
                }
                ui.selectable_value(&mut chosen_area, Some(String::new()), "a new area");
            });
        ui.end_row();
    });
    if chosen_category != category {
        editor.edit(|d| with_feature_category(&mut d.layout, id, chosen_category));
    }
    if chosen_area != area {
        editor.edit(|d| {
            let target = match chosen_area.as_deref() {
                Some("") => Some(new_area_id(&d.layout)),
                other => other.map(str::to_string),
            };
            into_area(&mut d.layout, id, target.as_deref());
        });
    }
}

/// Walls, their openings and the upper floor of a ruin; returns the changed piece.
fn ruin_controls(ui: &mut egui::Ui, p: &PieceSpec) -> Option<PieceSpec> {
    let mut change = None;
    ui.label("Walls (local frame; openings 1.5\" wide, ground and upper)");
    for (k, w) in p.walls.iter().enumerate() {
        ui.horizontal(|ui| {
            ui.label(format!(
                "{}: {:.1}\" long, {} openings",
                k + 1,
                w.from.vec().distance(w.to.vec()),
                w.windows.len()
            ));
            if ui.small_button("+ opening").clicked() {
                change = Some(with_opening(p, k));
            }
            if ui.small_button("close").clicked() {
                change = Some(without_openings(p, k));
            }
            if ui.small_button("remove").clicked() {
                change = Some(without_wall(p, k));
            }
        });
    }
    ui.horizontal(|ui| {
        ui.label("add a wall on the");
        for side in Side::ALL {
            if ui.small_button(format!("{side:?}")).clicked() {
                change = Some(with_wall(p, side));
            }
        }
    });
    ui.horizontal(|ui| {
        let mut on = !p.floors.is_empty();
        if ui.checkbox(&mut on, "upper floor at").changed() {
            change = Some(with_floor(p, on.then_some(NEW_RUIN_FLOOR_HEIGHT_INCHES)));
        }
        if let Some(first) = p.floors.first() {
            let mut h = first.height;
            if ui
                .add(
                    egui::DragValue::new(&mut h)
                        .speed(0.1)
                        .range(0.5..=11.0)
                        .suffix("\""),
                )
                .changed()
            {
                let mut c = p.clone();
                for f in &mut c.floors {
                    f.height = h;
                }
                change = Some(c);
            }
        }
    });
    change
}
