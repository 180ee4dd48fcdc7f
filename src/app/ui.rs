//! Pieces of the egui overlay shared by its panels: the space they cover, unit labels and the
//! datasheet card.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::data::{Scene, Unit as UnitData};
use crate::rules::WeaponProfile;

/// Screen space the overlay's panels cover (logical pixels), so the 3D view can fit beside them.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq)]
pub struct PanelInsets {
    /// Width of the left panel.
    pub left: f32,
    /// Width of the right panel.
    pub right: f32,
    /// Height of the top bar.
    pub top: f32,
    /// Height of the bottom panel (the dice log).
    pub bottom: f32,
}

/// A run condition: the pointer may act on the table. False while egui wants the pointer
/// (over a window, dragging a slider, a popup open) and while the cursor is over one of the
/// overlay's bars and side panels ([`PanelInsets`]), which egui does not report because they
/// are drawn on its background layer: the wheel over the dice log scrolls the log, not the
/// camera. Without a window or a cursor (headless), only egui's wish counts.
pub fn pointer_on_table(
    wants: Res<bevy_egui::input::EguiWantsInput>,
    insets: Option<Res<PanelInsets>>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
) -> bool {
    if wants.wants_any_pointer_input() {
        return false;
    }
    let (Some(insets), Ok(window)) = (insets, windows.single()) else {
        return true;
    };
    let Some(at) = window.cursor_position() else {
        return true;
    };
    at.x >= insets.left
        && at.y >= insets.top
        && at.x <= window.width() - insets.right
        && at.y <= window.height() - insets.bottom
}

/// A run condition: the keyboard may act on the table and the game's keys; false while egui
/// takes the keys (typing in a text field, a popup open), so typing a name never moves the
/// camera or toggles a tool.
pub fn keys_free(wants: Res<bevy_egui::input::EguiWantsInput>) -> bool {
    !wants.wants_any_keyboard_input()
}

/// The system's file dialog, run on a thread of its own so the window keeps drawing while it is
/// open: [`FilePick::open`] shows it, [`FilePick::take`] gives the file chosen once there is
/// one. Where the system has no file dialog (no desktop portal, as under Xvfb) it answers with
/// nothing and the typed path stays the way to name a file.
#[derive(Debug, Default)]
pub struct FilePick(Option<DialogAnswer>);

/// Where the dialog's thread leaves its answer: None while it is open, then the file chosen
/// (or None when the player cancelled).
type DialogAnswer = std::sync::Arc<std::sync::Mutex<Option<Option<std::path::PathBuf>>>>;

impl FilePick {
    /// Opens the dialog titled `title`, offering files whose extension is one of
    /// `extensions` (named `kind`), starting in `folder` when it exists.
    pub fn open(&mut self, title: &str, kind: &str, extensions: &[&str], folder: &std::path::Path) {
        let answer = DialogAnswer::default();
        let mut dialog = rfd::AsyncFileDialog::new()
            .set_title(title)
            .add_filter(kind, extensions);
        if folder.is_dir() {
            dialog = dialog.set_directory(folder);
        }
        let given = answer.clone();
        std::thread::spawn(move || {
            let picked = pollster::block_on(dialog.pick_file()).map(|f| f.path().to_path_buf());
            if let Ok(mut slot) = given.lock() {
                *slot = Some(picked);
            }
        });
        self.0 = Some(answer);
    }

    /// True while the dialog is open.
    pub fn is_open(&self) -> bool {
        self.0.is_some()
    }

    /// The file chosen, once the dialog has closed with one (the dialog is forgotten once it
    /// has answered, chosen or not).
    pub fn take(&mut self) -> Option<std::path::PathBuf> {
        let answered = self.0.as_ref()?.lock().ok()?.take()?;
        self.0 = None;
        answered
    }
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
        let name = scene.armies[army]
            .units
            .iter()
            .find(|u| &u.id == target)
            .map_or(target.as_str(), |u| u.name.as_str());
        label.push_str(&format!(" [leads {name}]"));
    }
    label
}

/// The datasheet card of a unit: characteristics, weapons carried, keywords and abilities.
pub fn unit_card(ui: &mut egui::Ui, player: u8, unit: &UnitData) {
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
    // One row per model profile the unit's models have, with how many have it.
    let mut profiles: Vec<(&crate::rules::Characteristics, usize)> = Vec::new();
    for m in &unit.models {
        let c = &m.characteristics;
        match profiles.iter_mut().find(|(p, _)| *p == c) {
            Some(row) => row.1 += 1,
            None => profiles.push((c, 1)),
        }
    }
    egui::Grid::new("characteristics")
        .striped(true)
        .show(ui, |ui| {
            for h in ["", "M", "T", "Sv", "W", "Ld", "OC"] {
                ui.strong(h);
            }
            ui.end_row();
            for (c, n) in &profiles {
                ui.label(if profiles.len() > 1 {
                    format!("{n}x {}", c.profile)
                } else {
                    c.profile.to_string()
                });
                ui.label(format!("{}\"", c.movement));
                ui.label(c.toughness.to_string());
                ui.label(format!("{}+", c.save));
                ui.label(c.wounds.to_string());
                ui.label(format!("{}+", c.leadership));
                ui.label(c.objective_control.to_string());
                ui.end_row();
            }
        });
    for (c, _) in &profiles {
        if let Some(i) = c.invulnerable_save {
            ui.label(format!("{}: invulnerable save {i}+", c.profile));
        }
    }
    // Per-model wargear: each distinct loadout with how many models carry it.
    let mut loadouts: Vec<(&[String], usize)> = Vec::new();
    for m in &unit.models {
        match loadouts
            .iter_mut()
            .find(|(w, _)| *w == m.weapons.as_slice())
        {
            Some(row) => row.1 += 1,
            None => loadouts.push((&m.weapons, 1)),
        }
    }
    if loadouts.len() > 1 {
        for (w, n) in &loadouts {
            ui.weak(format!("{n}x {}", w.join(", ")));
        }
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

#[cfg(test)]
mod file_pick_tests {
    use super::*;

    #[test]
    fn a_file_pick_answers_once_and_is_then_forgotten() {
        let answer = DialogAnswer::default();
        let mut pick = FilePick(Some(answer.clone()));
        assert!(pick.is_open());
        assert_eq!(pick.take(), None, "no answer yet");
        assert!(pick.is_open());
        *answer.lock().unwrap() = Some(Some(std::path::PathBuf::from("list.ros")));
        assert_eq!(pick.take(), Some(std::path::PathBuf::from("list.ros")));
        assert!(!pick.is_open());
        assert_eq!(pick.take(), None);
        // Cancelled: nothing chosen, and the dialog is closed.
        let answer = DialogAnswer::default();
        let mut pick = FilePick(Some(answer.clone()));
        *answer.lock().unwrap() = Some(None);
        assert_eq!(pick.take(), None);
        assert!(!pick.is_open());
    }
}
