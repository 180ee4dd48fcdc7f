//! From a scene's units to the attack sequence's inputs: the target unit as the defender sees it
//! and the models carrying a weapon.
//!
//! Rules Commentary: Unit's Toughness Characteristic (an Attached unit uses its Bodyguard's),
//! Keywords (an Attached unit has its Leaders' keywords), Duplicated Core Abilities (Stealth).

use super::resolve::Scene;
use super::sight::{ModelRef, SceneSight};
use crate::rules::attack::{TargetModel, TargetUnit};
use crate::rules::modifiers::unit_toughness;
use crate::rules::weapon::WeaponProfile;

/// The target unit made of the index entries `entries` (one unit, or an Attached unit: its
/// Leaders are allocated to last). Models are in the scene's order; already-destroyed models
/// do not exist in a scene, so every model starts with its full Wounds.
pub fn target_unit(scene: &Scene, sight: &SceneSight, entries: &[usize]) -> TargetUnit {
    let refs: Vec<ModelRef> = entries.iter().map(|&e| sight.models[e]).collect();
    let mut keywords: Vec<String> = Vec::new();
    let mut models = Vec::new();
    let mut toughness = Vec::new();
    let attached = refs
        .iter()
        .any(|r| unit_of(scene, *r).attached_to.is_some());
    let mut every_model_stealthy = !refs.is_empty();
    let mut names: Vec<&str> = Vec::new();
    for r in &refs {
        let unit = unit_of(scene, *r);
        let d = &unit.datasheet;
        for k in d.keywords.iter().chain(&d.faction_keywords) {
            if !keywords.iter().any(|x| x.eq_ignore_ascii_case(k)) {
                keywords.push(k.clone());
            }
        }
        if !names.contains(&unit.id.as_str()) {
            names.push(&unit.id);
        }
        every_model_stealthy &= d
            .abilities
            .iter()
            .any(|a| a.name.eq_ignore_ascii_case("Stealth"));
        let leader = unit.attached_to.is_some();
        toughness.push((d.toughness, !leader));
        models.push(TargetModel {
            name: format!("{}#{}", unit.id, r.model),
            wounds: d.wounds,
            wounds_remaining: d.wounds,
            save: d.save,
            invulnerable_save: d.invulnerable_save,
            feel_no_pain: d.feel_no_pain,
            leader: unit.attached_to.is_some(),
        });
    }
    TargetUnit {
        name: names.join(" + "),
        toughness: unit_toughness(&toughness, attached).unwrap_or(1),
        keywords,
        stealth: every_model_stealthy,
        models,
    }
}

fn unit_of(scene: &Scene, r: ModelRef) -> &super::resolve::Unit {
    &scene.armies[r.army].units[r.unit]
}

/// A model carrying the weapon being used.
#[derive(Debug, Clone, PartialEq)]
pub struct Bearer {
    /// Its sight-index entry.
    pub entry: usize,
    /// Its datasheet's profile of the weapon.
    pub profile: WeaponProfile,
    /// Its datasheet's keywords.
    pub keywords: Vec<String>,
    /// Its datasheet's name (bearers are grouped by it).
    pub datasheet: String,
}

/// The models among `entries` that carry a weapon called `weapon` (case-insensitive), each
/// with its own datasheet's profile (a Leader's bolt pistol may differ from its Bodyguard's).
///
/// # Errors
/// No model carries it: the message lists the weapons the models do carry.
pub fn bearers(
    scene: &Scene,
    sight: &SceneSight,
    entries: &[usize],
    weapon: &str,
) -> Result<Vec<Bearer>, String> {
    let mut out = Vec::new();
    let mut carried: Vec<String> = Vec::new();
    for &e in entries {
        let r = sight.models[e];
        let unit = unit_of(scene, r);
        let model = &unit.models[r.model];
        for w in &model.weapons {
            if !carried.contains(w) {
                carried.push(w.clone());
            }
        }
        if !model.weapons.iter().any(|w| w.eq_ignore_ascii_case(weapon)) {
            continue;
        }
        if let Some(profile) = unit.datasheet.weapon(weapon) {
            out.push(Bearer {
                entry: e,
                profile: profile.clone(),
                keywords: unit.datasheet.keywords.clone(),
                datasheet: unit.datasheet.name.clone(),
            });
        }
    }
    if out.is_empty() {
        return Err(format!(
            "no model carries a weapon called '{weapon}' (they carry: {})",
            carried.join(", ")
        ));
    }
    Ok(out)
}
