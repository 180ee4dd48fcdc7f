//! The computer's choice of melee weapon: each model fights with its strongest one.

use crate::game::{Game, WeaponOption};
use crate::rules::Datasheet;

/// How strong a melee weapon is, roughly: over its profiles, the best of Attacks x Strength x
/// Damage x (1 + AP/2) x the chance to hit. A guide for choosing, not an expected value.
fn strength_of(sheet: &Datasheet, weapon: &str) -> f32 {
    sheet
        .profiles_of(weapon)
        .iter()
        .map(|p| {
            p.attacks.mean()
                * f32::from(p.strength)
                * p.damage.mean()
                * (1.0 + 0.5 * f32::from(-p.ap))
                * f32::from(7 - p.skill.unwrap_or(1).min(6))
        })
        .fold(0.0, f32::max)
}

/// The melee loadout the computer fights with: each model's strongest melee weapon (by
/// [`strength_of`]) plus its EXTRA ATTACKS weapons, one option per weapon
/// ([`Game::loadout`]); the engine accepts any one melee weapon per model.
pub fn strongest_melee(game: &Game, army: usize, unit: usize) -> Vec<WeaponOption> {
    game.loadout(army, unit, true, |sheet, weapons| {
        weapons
            .iter()
            .copied()
            .max_by(|a, b| strength_of(sheet, a).total_cmp(&strength_of(sheet, b)))
            .into_iter()
            .collect()
    })
    .into_iter()
    .map(|w| w.option)
    .collect()
}
