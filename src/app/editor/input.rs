//! The editor's mouse and keys: pick and drag pieces and markers; turn, delete, undo, redo,
//! save, mirror and snap from the keyboard.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::actions::{delete, redo, save, set_mirror, turn, undo};
use super::{Drag, Editor, Picked};
use crate::app::camera::OrbitCamera;
use crate::app::overlay::cursor_on_plane;
use crate::design::edit::{put_objective, put_piece, snap_point};
use crate::design::{Design, ROTATION_SNAP_DEGREES};
use crate::geometry::{Point, Vec2, polygon};
use crate::rules::constants::OBJECTIVE_MARKER_RADIUS_INCHES;

/// What is under table point `at`, preferring the selection `current`: the selected piece or
/// marker when `at` is on it (so a drag moves what is selected, not a piece drawn over it),
/// else [`pick_at`].
pub(super) fn pick_preferring(
    design: &Design,
    at: Vec2,
    current: Option<Picked>,
) -> Option<Picked> {
    let on = match current {
        Some(Picked::Piece(i)) => design
            .layout
            .pieces
            .get(i)
            .is_some_and(|p| polygon::contains(&p.resolve().footprint, at)),
        Some(Picked::Objective(i)) => design
            .layout
            .objectives
            .get(i)
            .is_some_and(|o| o.at.vec().distance(at) <= OBJECTIVE_MARKER_RADIUS_INCHES + 0.2),
        None => false,
    };
    if on { current } else { pick_at(design, at) }
}

/// What is under table point `at`: the last piece whose footprint holds it, else an
/// objective within its radius.
pub(super) fn pick_at(design: &Design, at: Vec2) -> Option<Picked> {
    let radius = OBJECTIVE_MARKER_RADIUS_INCHES;
    if let Some(k) = design
        .layout
        .objectives
        .iter()
        .position(|o| o.at.vec().distance(at) <= radius + 0.2)
    {
        return Some(Picked::Objective(k));
    }
    let pieces = design.resolved().pieces;
    pieces
        .iter()
        .rposition(|p| polygon::contains(&p.footprint, at))
        .map(Picked::Piece)
}

/// Left click picks what is under the cursor; a drag moves it (one undoable step).
pub(super) fn mouse(
    buttons: Res<ButtonInput<MouseButton>>,
    mut editor: ResMut<Editor>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<OrbitCamera>>,
) {
    let (camera, transform) = *camera;
    let Some(at) = cursor_on_plane(&window, camera, transform, 0.0) else {
        return;
    };
    let at = Vec2::new(at.x, at.y);
    if buttons.just_pressed(MouseButton::Left) {
        let picked = pick_preferring(&editor.design, at, editor.picked);
        editor.picked = picked;
        editor.drag = picked.map(|target| {
            let origin = match target {
                Picked::Piece(i) => editor.design.layout.pieces[i].at.vec(),
                Picked::Objective(i) => editor.design.layout.objectives[i].at.vec(),
            };
            Drag {
                target,
                offset: at - origin,
                before: editor.design.clone(),
                moved: false,
            }
        });
        return;
    }
    if !buttons.pressed(MouseButton::Left) {
        if let Some(drag) = editor.drag.take()
            && drag.moved
        {
            editor.history.record(&drag.before);
        }
        return;
    }
    let Some(drag) = editor.drag.as_ref() else {
        return;
    };
    let (target, offset) = (drag.target, drag.offset);
    let mut to = Point(at.x - offset.x, at.y - offset.y);
    if editor.snap {
        to = snap_point(to);
    }
    let (snap_mirror, design) = (editor.mirror, &mut editor.design);
    let changed = match target {
        Picked::Piece(i) if i < design.layout.pieces.len() => {
            let mut p = design.layout.pieces[i].clone();
            let moved = p.at != to;
            p.at = to;
            if moved {
                let i = put_piece(&mut design.layout, Some(i), p, snap_mirror);
                editor.picked = Some(Picked::Piece(i));
            }
            moved
        }
        Picked::Objective(i) if i < design.layout.objectives.len() => {
            let mut o = design.layout.objectives[i].clone();
            let moved = o.at != to;
            o.at = to;
            if moved {
                let i = put_objective(&mut design.layout, Some(i), o, snap_mirror);
                editor.picked = Some(Picked::Objective(i));
            }
            moved
        }
        _ => false,
    };
    if changed && let Some(d) = editor.drag.as_mut() {
        d.moved = true;
    }
}

/// The editor's keys: [ ] turn, Delete, Ctrl+Z / Ctrl+Y / Ctrl+Shift+Z, Ctrl+S, M mirror, G
/// snap, Esc.
pub(super) fn keys(keys: Res<ButtonInput<KeyCode>>, mut editor: ResMut<Editor>) {
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    let step = if editor.snap {
        ROTATION_SNAP_DEGREES
    } else {
        1.0
    };
    if keys.just_pressed(KeyCode::BracketRight) {
        turn(&mut editor, -step);
    }
    if keys.just_pressed(KeyCode::BracketLeft) {
        turn(&mut editor, step);
    }
    if keys.any_just_pressed([KeyCode::Delete, KeyCode::Backspace]) {
        delete(&mut editor);
    }
    if ctrl && keys.just_pressed(KeyCode::KeyZ) {
        if shift {
            redo(&mut editor)
        } else {
            undo(&mut editor)
        }
    }
    if ctrl && keys.just_pressed(KeyCode::KeyY) {
        redo(&mut editor);
    }
    if ctrl && keys.just_pressed(KeyCode::KeyS) {
        save(&mut editor);
    }
    if keys.just_pressed(KeyCode::KeyM) && !ctrl {
        let on = !editor.mirror;
        set_mirror(&mut editor, on);
    }
    if keys.just_pressed(KeyCode::KeyG) && !ctrl {
        editor.snap = !editor.snap;
    }
    if keys.just_pressed(KeyCode::Escape) {
        editor.picked = None;
    }
}
