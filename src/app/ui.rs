//! The egui overlay: the armies panel, the unit card, the scene's errors and a help line.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::selection::Selection;
use crate::data::{Scene, Unit as UnitData};
use crate::rules::WeaponProfile;
use crate::sim::components::Unit;
use crate::sim::{ActiveScene, SceneErrors};

/// Screen space the overlay's panels cover (logical pixels), so the 3D view can fit beside them.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq)]
pub struct PanelInsets {
    /// Width of the left panel.
    pub left: f32,
    /// Width of the right panel.
    pub right: f32,
    /// Height of the top bar.
    pub top: f32,
}

/// Registers the overlay.
pub fn plugin(app: &mut App) {
    app.init_resource::<PanelInsets>()
        .add_systems(EguiPrimaryContextPass, overlay);
}

/// The label of a unit in the armies panel, e.g. "Intercessor Squad x10 (+ Captain)".
pub fn unit_label(scene: &Scene, army: usize, unit: &UnitData) -> String {
    let leaders: Vec<&str> = scene.armies[army]
        .units
        .iter()
        .filter(|u| u.attached_to.as_deref() == Some(unit.id.as_str()))
        .map(|u| u.name.as_str())
        .collect();
    let mut label = if unit.models.len() > 1 {
        format!("{} x{}", unit.name, unit.models.len())
    } else {
        unit.name.clone()
    };
    if !leaders.is_empty() {
        label.push_str(&format!(" (+ {})", leaders.join(", ")));
    }
    if let Some(target) = &unit.attached_to {
        label.push_str(&format!(" [leads {target}]"));
    }
    label
}

fn overlay(
    mut contexts: EguiContexts,
    scene: Res<ActiveScene>,
    errors: Res<SceneErrors>,
    mut selection: ResMut<Selection>,
    mut insets: ResMut<PanelInsets>,
    units: Query<(Entity, &Unit)>,
) -> Result {
    let mut covered = PanelInsets::default();
    let ctx = contexts.ctx_mut()?;
    let mut root = egui::Ui::new(
        ctx.clone(),
        "wartable-overlay".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    covered.top = egui::Panel::top("help").show(&mut root, |ui| {
        ui.horizontal_wrapped(|ui| {
            if let Some(s) = &scene.0 {
                ui.strong(&s.name);
                ui.separator();
                ui.label(format!(
                    "{} | {} | {}",
                    s.layout.name, s.deployment.name, s.mission.name
                ));
                ui.separator();
            }
            ui.weak("Right-drag: orbit  Middle-drag / Shift+right-drag: pan  Wheel: zoom  Click a model: unit card  Home: reset view");
        });
    })
    .response
    .rect
    .height();
    let mut sorted: Vec<(Entity, &Unit)> = units.iter().collect();
    sorted.sort_by_key(|(_, u)| (u.army, u.index));
    if let Some(s) = &scene.0 {
        covered.left = egui::Panel::left("armies")
            .resizable(true)
            .default_size(270.0)
            .show(&mut root, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    for (ai, army) in s.armies.iter().enumerate() {
                        let points: u32 = army.units.iter().filter_map(|u| u.points).sum();
                        ui.heading(format!("Player {}", army.player));
                        ui.label(format!("{} ({}, {points} pts)", army.name, army.faction));
                        for (entity, unit) in sorted.iter().filter(|(_, u)| u.army == ai) {
                            let Some(data) = army.units.get(unit.index) else {
                                continue;
                            };
                            let chosen = selection.unit == Some(*entity);
                            if ui
                                .selectable_label(chosen, unit_label(s, ai, data))
                                .clicked()
                            {
                                selection.unit = if chosen { None } else { Some(*entity) };
                            }
                        }
                        ui.separator();
                    }
                });
            })
            .response
            .rect
            .width();
        if let Some((_, unit)) = selection.unit.and_then(|e| units.get(e).ok())
            && let Some(data) = s
                .armies
                .get(unit.army)
                .and_then(|a| a.units.get(unit.index))
        {
            covered.right = egui::Panel::right("unit-card")
                .resizable(true)
                .default_size(380.0)
                .show(&mut root, |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| unit_card(ui, unit.player, data));
                })
                .response
                .rect
                .width();
        }
    }
    insets.set_if_neq(covered);
    if !errors.0.is_empty() {
        egui::Window::new("Scene errors")
            .default_width(520.0)
            .show(ctx, |ui| {
                ui.label("The scene could not be loaded; fix these and reopen it:");
                for e in &errors.0 {
                    ui.colored_label(egui::Color32::from_rgb(230, 90, 80), e);
                }
            });
    }
    Ok(())
}

fn unit_card(ui: &mut egui::Ui, player: u8, unit: &UnitData) {
    let d = &unit.datasheet;
    ui.heading(&unit.name);
    ui.label(format!(
        "Player {player} - {} model{}{}",
        unit.models.len(),
        if unit.models.len() == 1 { "" } else { "s" },
        unit.points
            .map(|p| format!(", {p} pts"))
            .unwrap_or_default()
    ));
    egui::Grid::new("characteristics")
        .striped(true)
        .show(ui, |ui| {
            for h in ["M", "T", "Sv", "W", "Ld", "OC"] {
                ui.strong(h);
            }
            ui.end_row();
            ui.label(format!("{}\"", d.movement));
            ui.label(d.toughness.to_string());
            ui.label(format!("{}+", d.save));
            ui.label(d.wounds.to_string());
            ui.label(format!("{}+", d.leadership));
            ui.label(d.objective_control.to_string());
            ui.end_row();
        });
    if let Some(i) = d.invulnerable_save {
        ui.label(format!("Invulnerable save {i}+"));
    }
    if let Some(f) = d.feel_no_pain {
        ui.label(format!("Feel No Pain {f}+"));
    }
    let carried: Vec<&WeaponProfile> = d
        .weapons()
        .filter(|w| unit.models.iter().any(|m| m.weapons.contains(&w.name)))
        .collect();
    for (title, melee) in [("Ranged weapons", false), ("Melee weapons", true)] {
        let list: Vec<&&WeaponProfile> = carried.iter().filter(|w| w.is_melee() == melee).collect();
        if list.is_empty() {
            continue;
        }
        ui.add_space(6.0);
        ui.strong(title);
        egui::Grid::new(title).striped(true).show(ui, |ui| {
            for h in [
                "Weapon",
                "Range",
                "A",
                if melee { "WS" } else { "BS" },
                "S",
                "AP",
                "D",
            ] {
                ui.strong(h);
            }
            ui.end_row();
            for w in list {
                let count = unit
                    .models
                    .iter()
                    .filter(|m| m.weapons.contains(&w.name))
                    .count();
                ui.label(format!("{} ({count})", w.name))
                    .on_hover_text(abilities_text(w));
                ui.label(w.range.map_or("Melee".into(), |r| format!("{r}\"")));
                ui.label(w.attacks.to_string());
                ui.label(w.skill.map_or("N/A".into(), |s| format!("{s}+")));
                ui.label(w.strength.to_string());
                ui.label(w.ap.to_string());
                ui.label(w.damage.to_string());
                ui.end_row();
                if !w.abilities.is_empty() {
                    ui.weak(abilities_text(w));
                    ui.end_row();
                }
            }
        });
    }
    ui.add_space(6.0);
    ui.strong("Keywords");
    ui.label(d.keywords.join(", "));
    if !d.faction_keywords.is_empty() {
        ui.label(format!("Faction: {}", d.faction_keywords.join(", ")));
    }
    if !d.abilities.is_empty() {
        ui.add_space(6.0);
        ui.strong("Abilities");
        for a in &d.abilities {
            ui.label(format!("{}: {}", a.name, a.text));
        }
    }
}

/// A weapon's abilities as the datasheet writes them, e.g. "[ASSAULT, HEAVY]".
pub fn abilities_text(w: &WeaponProfile) -> String {
    if w.abilities.is_empty() {
        return String::new();
    }
    let names: Vec<String> = w.abilities.iter().map(ToString::to_string).collect();
    format!("[{}]", names.join(", "))
}
