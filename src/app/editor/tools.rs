//! The editor's left panel: start from a template or a scene, the deployment map, add pieces
//! and markers, symmetry, the selection's controls and the list of pieces.

use std::path::{Path, PathBuf};

use bevy_egui::egui;

use super::selected::selected;
use super::{Editor, Picked};
use crate::app::screens::menu::{data_files, short_name};
use crate::data::source::shipped;
use crate::design::Design;
use crate::design::edit::{free_spot, new_piece, put_objective, put_piece};
use crate::design::mirror::{Half, mirror_layout};
use crate::geometry::{Point, TerrainCategory};
use crate::rules::mission::ObjectiveMarker;

/// The templates: the 8 Chapter Approved layouts and an empty table.
fn templates() -> Vec<(String, Option<String>)> {
    let mut v: Vec<(String, Option<String>)> = data_files("scenes/layouts/")
        .into_iter()
        .map(|p| (short_name(&p).to_string(), Some(p)))
        .collect();
    v.push(("empty table".into(), None));
    v
}

/// Scene files in the scenes folder on disk.
fn scene_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron") && p.is_file())
        .collect();
    v.sort();
    v
}

pub(super) fn tools(ui: &mut egui::Ui, editor: &mut Editor) {
    ui.heading("Start from");
    ui.horizontal_wrapped(|ui| {
        for (name, path) in templates() {
            if ui.small_button(&name).clicked() {
                let deployment = editor.design.deployment_file.clone();
                let opened = match &path {
                    Some(p) => Design::open(&shipped(p), &deployment),
                    None => Design::open(&shipped("scenes/layouts/layout-1.ron"), &deployment).map(
                        |mut d| {
                            d.layout.pieces.clear();
                            d.layout.name = "New layout".into();
                            d.layout.source = String::new();
                            d
                        },
                    ),
                };
                match opened {
                    Ok(d) => {
                        let watched = path.map(PathBuf::from).filter(|p| p.exists());
                        editor.open(d, watched);
                        editor.log.push(format!("opened {name}"));
                    }
                    Err(e) => editor.log.push(format!("not opened: {e}")),
                }
            }
        }
    });
    let files = scene_files(&editor.scenes_dir);
    if let Some(file) = editor.browse.take() {
        open_scene_file(editor, &file);
    }
    if ui
        .add_enabled(
            !editor.browse.is_open(),
            egui::Button::new("Open a scene file..."),
        )
        .on_hover_text("Choose a scene file anywhere in the system's file dialog")
        .clicked()
    {
        let folder = editor.scenes_dir.clone();
        editor
            .browse
            .open("Open a scene", "Scenes", &["ron"], &folder);
    }
    ui.collapsing(format!("Open a scene ({})", files.len()), |ui| {
        for f in files {
            let label = f
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().to_string());
            if ui.small_button(&label).clicked() {
                open_scene_file(editor, &f);
            }
        }
    });
    ui.horizontal(|ui| {
        ui.label("Deployment");
        let current = editor.design.deployment_file.to_string_lossy().to_string();
        egui::ComboBox::from_id_salt("deployment")
            .selected_text(short_name(&current.replace('\\', "/")).to_string())
            .show_ui(ui, |ui| {
                for f in data_files("scenes/deployments/") {
                    if ui
                        .selectable_label(current.ends_with(&f), short_name(&f))
                        .clicked()
                    {
                        let mut d = editor.design.clone();
                        match d.set_deployment(&shipped(&f)) {
                            Ok(()) => editor.edit(|x| *x = d),
                            Err(e) => editor.log.push(format!("not changed: {e}")),
                        }
                    }
                }
            });
    });
    ui.separator();
    ui.heading("Add");
    ui.horizontal_wrapped(|ui| {
        for category in TerrainCategory::ALL {
            if ui.button(category.label()).clicked() {
                let mirror = editor.mirror;
                let stem = category.label().replace(' ', "-");
                let id = crate::design::mirror::unique_id(
                    &stem,
                    editor.design.layout.pieces.iter().map(|p| p.id.as_str()),
                );
                // Near the middle of the west half, clear of the pieces already there.
                let preferred = Point(22.0, 16.0);
                let mut piece = new_piece(category, id, preferred);
                piece.at = free_spot(&editor.design.layout, &piece, preferred, mirror);
                let mut index = 0;
                editor.edit(|d| index = put_piece(&mut d.layout, None, piece, mirror));
                editor.picked = Some(Picked::Piece(index));
            }
        }
        if ui.button("Objective").clicked() {
            let mirror = editor.mirror;
            let objectives = editor.design.objectives();
            let id = crate::design::mirror::unique_id(
                "objective",
                objectives.iter().map(|o| o.id.as_str()),
            );
            let mut index = 0;
            editor.edit(|d| {
                // The first marker the layout places takes over from the card's: copy them.
                if d.layout.objectives.is_empty() {
                    d.layout.objectives = objectives.clone();
                }
                let o = ObjectiveMarker {
                    id,
                    at: Point(24.0, 16.0),
                    z: 0.0,
                };
                index = put_objective(&mut d.layout, None, o, mirror);
            });
            editor.picked = Some(Picked::Objective(index));
        }
    });
    if editor.design.layout.objectives.is_empty() {
        ui.weak("Objectives come from the deployment card until you add one.");
    } else if ui.small_button("Use the card's objectives").clicked() {
        editor.edit(|d| d.layout.objectives.clear());
    }
    ui.horizontal(|ui| {
        ui.label("Make symmetric from the");
        for (label, half) in [("west", Half::West), ("south", Half::South)] {
            if ui.small_button(format!("{label} half")).clicked() {
                editor.edit(|d| d.layout = mirror_layout(&d.layout, half));
                editor
                    .log
                    .push(format!("the {label} half now also stands turned 180°"));
            }
        }
    });
    ui.separator();
    selected(ui, editor);
    ui.separator();
    ui.heading("Pieces");
    let pieces: Vec<(String, TerrainCategory)> = editor
        .design
        .layout
        .pieces
        .iter()
        .map(|p| (p.id.clone(), p.category))
        .collect();
    for (i, (id, category)) in pieces.iter().enumerate() {
        let on = editor.picked == Some(Picked::Piece(i));
        if ui
            .selectable_label(on, format!("{id} ({})", category.label()))
            .clicked()
        {
            editor.picked = Some(Picked::Piece(i));
        }
    }
    ui.separator();
    ui.weak("Left-drag a piece or marker to move it; [ and ] turn it; Delete removes it; Ctrl+Z / Ctrl+Y undo and redo. Right-drag orbits, the wheel zooms.");
}

/// Opens the scene file `f` in the editor (its layout file watched), or says in the log why
/// not.
fn open_scene_file(editor: &mut Editor, f: &Path) {
    let label = f
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().to_string());
    match Design::open_scene(f) {
        Ok(d) => {
            let layout = crate::data::source::load::<crate::data::scene::SceneFile>(f)
                .ok()
                .map(|s| crate::data::source::sibling(f, &s.layout));
            editor.open(d, layout);
            editor.log.push(format!("opened {label}"));
        }
        Err(e) => editor.log.push(format!("not opened: {e}")),
    }
}

/// Two drag fields for a point on the table (inches), kept on the board.
pub(super) fn table_point(ui: &mut egui::Ui, at: &mut crate::geometry::Point) {
    use crate::rules::constants::{BOARD_DEPTH_INCHES, BOARD_WIDTH_INCHES};
    ui.add(
        egui::DragValue::new(&mut at.0)
            .speed(0.1)
            .range(0.0..=BOARD_WIDTH_INCHES),
    );
    ui.add(
        egui::DragValue::new(&mut at.1)
            .speed(0.1)
            .range(0.0..=BOARD_DEPTH_INCHES),
    );
}
