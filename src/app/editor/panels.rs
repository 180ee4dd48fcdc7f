//! The editor's panels laid out: the top bar, the tools on the left, the problems and the
//! analysis on the right.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::actions::{redo, save, undo};
use super::analysis_panel::analysis_panel;
use super::tools::tools;
use super::{Editor, GREEN, RED};
use crate::app::screens::Screen;
use crate::app::ui::PanelInsets;

/// Draws the editor's panels and writes the space they cover to [`PanelInsets`].
pub(super) fn panels(
    mut contexts: EguiContexts,
    mut editor: ResMut<Editor>,
    mut insets: ResMut<PanelInsets>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let mut covered = PanelInsets::default();
    let mut root = egui::Ui::new(
        ctx.clone(),
        "wartable-editor".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    covered.top = egui::Panel::top("editor-bar")
        .show(&mut root, |ui| top_bar(ui, &mut editor, &mut next))
        .response
        .rect
        .height();
    covered.left = egui::Panel::left("editor-tools")
        .resizable(true)
        .default_size(290.0)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| tools(ui, &mut editor));
        })
        .response
        .rect
        .width();
    covered.right = egui::Panel::right("editor-analysis")
        .resizable(true)
        .default_size(330.0)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| analysis_panel(ui, &mut editor));
        })
        .response
        .rect
        .width();
    insets.set_if_neq(covered);
    Ok(())
}

fn top_bar(ui: &mut egui::Ui, editor: &mut Editor, next: &mut NextState<Screen>) {
    ui.horizontal_wrapped(|ui| {
        ui.strong("Layout editor");
        ui.separator();
        ui.label("Name");
        ui.add(egui::TextEdit::singleline(&mut editor.name).desired_width(220.0));
        if ui.button("Save (Ctrl+S)").clicked() {
            save(editor);
        }
        ui.separator();
        let (u, r) = editor.history.depth();
        if ui.add_enabled(u > 0, egui::Button::new("Undo")).clicked() {
            undo(editor);
        }
        if ui.add_enabled(r > 0, egui::Button::new("Redo")).clicked() {
            redo(editor);
        }
        ui.separator();
        ui.checkbox(&mut editor.snap, "Snap 0.5\" / 15° (G)");
        let mut on = editor.mirror;
        let mirror = ui.checkbox(&mut on, "Mirror 180° (M)");
        if on != editor.mirror {
            super::actions::set_mirror(editor, on);
        }
        if editor.mirror {
            mirror.on_hover_text("The 180° image of every edited piece or marker follows it");
        }
        let mut eleventh = editor.design.options.ruleset == crate::rules::Ruleset::Eleventh;
        if ui
            .checkbox(&mut eleventh, "11th edition")
            .on_hover_text(
                "Analyse sight by 11th edition's terrain rules (areas, Obscuring, Solid, the \
                 Hidden layer), and save the scene to play under 11th",
            )
            .changed()
        {
            let ruleset = if eleventh {
                crate::rules::Ruleset::Eleventh
            } else {
                crate::rules::Ruleset::Tenth
            };
            editor.edit(|d| d.options.ruleset = ruleset);
        }
        ui.separator();
        if ui.button("Menu").clicked() {
            next.set(Screen::Menu);
        }
    });
    if let Some(last) = editor.log.last() {
        let colour = if last.starts_with("not ") { RED } else { GREEN };
        ui.colored_label(colour, last);
    }
}
