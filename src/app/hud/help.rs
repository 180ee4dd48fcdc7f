//! The F1 help: the mouse and keys, and what the colours mean.

use bevy_egui::egui;

/// Draws the help's contents.
pub(super) fn help(ui: &mut egui::Ui) {
    egui::Grid::new("help-keys").striped(true).show(ui, |ui| {
        for (k, v) in [
            (
                "Left-click a model",
                "select its unit (card and orders on the right)",
            ),
            ("Left-drag a model", "draft a move of its whole unit"),
            ("Ctrl + left-drag", "draft a move of one model"),
            (
                "Shift + left-drag",
                "add a leg to the drafted move (a waypoint)",
            ),
            ("Q / E while dragging", "turn the dragged models 15 degrees"),
            ("Enter / Esc", "confirm / cancel the drafted move"),
            ("Right-drag", "orbit the camera"),
            ("Middle-drag, Shift+right-drag", "pan"),
            ("Wheel", "zoom"),
            ("WASD / arrows, Q/E, R/F", "pan, turn, tilt (the camera)"),
            ("Home", "reset the view"),
            ("L", "line-of-sight tool for the selected unit"),
            (
                "T",
                "measuring tape: click two of a model, the table, a terrain piece, an objective",
            ),
            (
                "H",
                "threat overlay: the selected unit's reach, then the enemy army's charge reach",
            ),
            ("C", "fold the unit card to a strip / open it"),
            ("N", "hide / show the unit labels on the table"),
            ("V", "model's-eye view: picture-in-picture / full"),
            ("Ctrl+Z", "undo the last command"),
            ("F1", "this help"),
        ] {
            ui.strong(k);
            ui.label(v);
            ui.end_row();
        }
    });
    ui.label("Green ghost: the engine accepts the move. Red: refused, with the rule broken.");
    ui.label("Orange box: a ruin wall a drafted base would stand in.");
    ui.label(
        "Threat: red Move + 12\" charge + Engagement Range; orange Move + longest ranged weapon.",
    );
    ui.label(
        "Dice log: green dice succeeded, grey failed; click a line for every event behind it.",
    );
    ui.label("LOS tint: green fully visible, amber visible, grey not visible. Hover an enemy model for the reason.");
}
