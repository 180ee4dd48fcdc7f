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
    ui.collapsing("Legend: the table's colours", legend);
}

/// An egui colour from a Bevy one.
fn egui_colour(c: bevy::color::Color) -> egui::Color32 {
    let s = c.to_srgba();
    egui::Color32::from_rgb(
        (s.red * 255.0) as u8,
        (s.green * 255.0) as u8,
        (s.blue * 255.0) as u8,
    )
}

/// One line of the legend: a swatch of `colour` and what it means.
fn swatch(ui: &mut egui::Ui, colour: egui::Color32, meaning: &str) {
    ui.horizontal(|ui| {
        let (rect, _) = ui.allocate_exact_size(egui::vec2(16.0, 12.0), egui::Sense::hover());
        ui.painter().rect_filled(rect, 2.0, colour);
        ui.label(meaning);
    });
}

/// What the table's colours mean: terrain footprints by category, deployment zones,
/// objective markers, the range rings. Shown in the help and in the phase bar's "Legend".
pub(super) fn legend(ui: &mut egui::Ui) {
    use crate::app::overlay::RING_COLOURS;
    use crate::app::table::{PLAYER_COLOURS, terrain_colour};
    use crate::geometry::TerrainCategory as T;
    ui.strong("Terrain footprints");
    for (category, meaning) in [
        (
            T::Ruin,
            "ruin: walls and floors; no sight over or through its footprint",
        ),
        (
            T::LowFootprint,
            "low footprint (teal): blocks sight through it like a ruin; models walk over it",
        ),
        (
            T::Woods,
            "woods: sight through it gives cover; never fully visible",
        ),
        (
            T::Crater,
            "crater or rubble: cover for INFANTRY wholly within",
        ),
        (
            T::Barricade,
            "barricade: cover behind it; engage over it at 2\"",
        ),
        (T::Hill, "hill"),
        (T::Debris, "battlefield debris or statuary"),
    ] {
        swatch(ui, egui_colour(terrain_colour(category)), meaning);
    }
    ui.strong("Table");
    swatch(
        ui,
        egui_colour(PLAYER_COLOURS[0]),
        "player 1: models and deployment zone",
    );
    swatch(
        ui,
        egui_colour(PLAYER_COLOURS[1]),
        "player 2: models and deployment zone",
    );
    swatch(
        ui,
        egui::Color32::from_rgb(242, 199, 51),
        "objective marker (and the selected unit)",
    );
    ui.strong("Range rings (Rings)");
    for (colour, meaning) in RING_COLOURS.iter().zip([
        "Move",
        "longest ranged weapon",
        "Engagement Range",
        "Unit Coherency",
    ]) {
        swatch(ui, egui_colour(*colour), meaning);
    }
}
