//! The editor's actions, from the keys or the panels: turn, delete, undo, redo, save.

use super::{Editor, Picked};
use crate::design::edit::{put_piece, remove_objective, remove_piece, snap_rotation};
use crate::design::normalize_degrees;

/// Turns the selected piece by `degrees` (one undoable step).
pub(super) fn turn(editor: &mut Editor, degrees: f32) {
    let (snap, mirror) = (editor.snap, editor.mirror);
    if let Some(Picked::Piece(i)) = editor.picked {
        editor.edit(|d| {
            let mut p = d.layout.pieces[i].clone();
            p.rotation = if snap {
                snap_rotation(p.rotation + degrees)
            } else {
                normalize_degrees(p.rotation + degrees)
            };
            put_piece(&mut d.layout, Some(i), p, mirror);
        });
    }
}

/// Deletes the selection (one undoable step).
pub(super) fn delete(editor: &mut Editor) {
    let mirror = editor.mirror;
    match editor.picked.take() {
        Some(Picked::Piece(i)) => editor.edit(|d| remove_piece(&mut d.layout, i, mirror)),
        Some(Picked::Objective(i)) => editor.edit(|d| remove_objective(&mut d.layout, i, mirror)),
        None => {}
    }
}

/// Undoes (`back`) or redoes one step.
fn step(editor: &mut Editor, back: bool) {
    let Editor {
        history, design, ..
    } = editor;
    let moved = if back {
        history.undo(design)
    } else {
        history.redo(design)
    };
    if moved {
        editor
            .log
            .push(if back { "undone" } else { "redone" }.into());
    }
    editor.clamp_pick();
}

/// Undoes one step.
pub(super) fn undo(editor: &mut Editor) {
    step(editor, true);
}

/// Redoes one step.
pub(super) fn redo(editor: &mut Editor) {
    step(editor, false);
}

/// Saves the layout and a scene on it into the scenes folder, under the editor's name. The
/// layout file the editor has open is replaced; any other file already there is kept unless
/// Save is pressed a second time under the same name (the player's confirmation).
///
/// A layout with validation problems (overlapping footprints, a piece off the table, an
/// objective in a wall) is not saved at the first press: the log lists the problems, and Save
/// pressed again under the same name saves it as it is.
pub(super) fn save(editor: &mut Editor) {
    if !editor.problems.is_empty()
        && editor.problems_confirmed.as_deref() != Some(editor.name.as_str())
    {
        let list: Vec<&str> = editor.problems.iter().map(|p| p.message.as_str()).collect();
        editor.log.push(format!(
            "not saved: the layout has {} problem(s): {}. Press Save again to save it as it is",
            list.len(),
            list.join("; ")
        ));
        editor.problems_confirmed = Some(editor.name.clone());
        return;
    }
    let layout = editor
        .scenes_dir
        .join("layouts")
        .join(format!("{}.ron", crate::design::slug(&editor.name)));
    let confirmed = editor.replace_confirmed.as_deref() == Some(editor.name.as_str());
    let own = editor.watched.as_ref() == Some(&layout);
    let overwrite = crate::data::write::Overwrite::when(own || confirmed);
    editor.replace_confirmed = None;
    match editor
        .design
        .save(&editor.scenes_dir, &editor.name, overwrite)
    {
        Ok((scene, layout)) => {
            editor.log.push(format!(
                "saved {} and {}",
                scene.display(),
                layout.display()
            ));
            editor.watched = Some(layout);
            editor.handle = None;
        }
        Err(e) if e.to_string().contains("already exists") => {
            editor.log.push(format!(
                "not saved: {e}. Press Save again to replace it, or change the name"
            ));
            editor.replace_confirmed = Some(editor.name.clone());
        }
        Err(e) => editor.log.push(format!("not saved: {e}")),
    }
}

/// Turns mirror mode on or off. Turned on over a layout that is not its own 180° image, the
/// missing images are added first (one undoable step), so every later edit has an image to
/// move with it.
pub(super) fn set_mirror(editor: &mut Editor, on: bool) {
    editor.mirror = on;
    if on && !crate::design::mirror::is_symmetric(&editor.design.layout) {
        let mut added = 0;
        editor.edit(|d| added = crate::design::mirror::complete_images(&mut d.layout));
        editor.log.push(format!(
            "mirror on: added the 180° image of {added} piece(s) and marker(s) that had none"
        ));
    }
}
