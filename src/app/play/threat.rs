//! The threat overlay: how far a unit reaches in its next turn, drawn around it as a convex
//! outline on the table. Shooting reach is its Move plus its longest ranged weapon; charge
//! reach is its Move plus the longest charge (12") plus Engagement Range, measured from its
//! bases (Core Rules: Movement, Shooting and Charge phases; Advancing and Assault weapons
//! are left out).

use crate::game::Game;
use crate::geometry::{Vec2, polygon};
use crate::rules::constants::ENGAGEMENT_RANGE_HORIZONTAL_INCHES;

/// What the threat overlay shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ThreatOverlay {
    /// Nothing.
    #[default]
    Off,
    /// The selected unit's reach.
    Selected,
    /// The reach of every unit of the army opposing the selected unit (or the acting player).
    EnemyArmy,
}

impl ThreatOverlay {
    /// The next setting of the phase bar's button: off, the selected unit, the enemy army.
    pub fn next(self) -> ThreatOverlay {
        match self {
            ThreatOverlay::Off => ThreatOverlay::Selected,
            ThreatOverlay::Selected => ThreatOverlay::EnemyArmy,
            ThreatOverlay::EnemyArmy => ThreatOverlay::Off,
        }
    }

    /// The button's label.
    pub fn label(self) -> &'static str {
        match self {
            ThreatOverlay::Off => "Threat (H)",
            ThreatOverlay::Selected => "Threat: unit",
            ThreatOverlay::EnemyArmy => "Threat: enemy",
        }
    }
}

/// A unit's reach beyond its bases (inches).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reach {
    /// Move plus its longest ranged weapon (None: no ranged weapon).
    pub shooting_inches: Option<f32>,
    /// Move plus 12" plus Engagement Range.
    pub charge_inches: f32,
}

/// The reach of (`army`, `unit`) and any Leader attached to it: the slowest Move of the
/// combined unit, the longest ranged weapon among them.
pub fn reach(game: &Game, army: usize, unit: usize) -> Reach {
    let members = game.combined(army, unit);
    let data = |u: usize| &game.scene.armies[army].units[u].datasheet;
    let movement = game.unit_move_inches(army, unit);
    let longest = members
        .iter()
        .flat_map(|&u| data(u).ranged_weapons.iter())
        .filter_map(|w| w.range)
        .fold(0.0f32, f32::max);
    Reach {
        shooting_inches: (longest > 0.0).then_some(movement + longest),
        charge_inches: movement + game.charge_range_inches() + ENGAGEMENT_RANGE_HORIZONTAL_INCHES,
    }
}

/// Whether `point` lies within `inches` of a base of the combined unit (`army`, `unit`)'s
/// models on the table.
pub fn within_reach(game: &Game, army: usize, unit: usize, inches: f32, point: Vec2) -> bool {
    game.combined(army, unit)
        .into_iter()
        .flat_map(|u| game.live_models(army, u))
        .any(|r| {
            let s = game.solid(r);
            let outline = s.outline();
            polygon::contains(&outline, point)
                || polygon::distance_to_boundary(&outline, point) <= inches
        })
}

/// The convex outline around every point within `inches` of the combined unit's bases,
/// cut to the battlefield's edges (counter-clockwise; empty when no model is on the table). It
/// holds every point on the table [`within_reach`] finds, and more where the unit's shape is
/// not convex.
pub fn threat_outline(game: &Game, army: usize, unit: usize, inches: f32) -> Vec<Vec2> {
    const STEPS: usize = 48;
    let mut points = Vec::new();
    for u in game.combined(army, unit) {
        for r in game.live_models(army, u) {
            let s = game.solid(r);
            // The circle around the base's farthest point holds the whole offset base; a
            // little over, so the polygon's chords do not cut inside the true reach.
            let radius = (s.base.bounding_radius_inches() + inches)
                / (std::f32::consts::PI / STEPS as f32).cos();
            for k in 0..STEPS {
                let a = k as f32 / STEPS as f32 * std::f32::consts::TAU;
                points.push(s.centre + Vec2::new(a.cos(), a.sin()) * radius);
            }
        }
    }
    clip_to_table(&polygon::convex_hull(points))
}

/// The units whose reach the threat overlay draws: the selected unit, or every unit of the
/// army opposing the selected unit (else the acting player) still on the table.
pub fn threat_units(
    game: &Game,
    overlay: ThreatOverlay,
    selected: Option<(usize, usize)>,
) -> Vec<(usize, usize)> {
    match overlay {
        ThreatOverlay::Off => Vec::new(),
        ThreatOverlay::Selected => selected.into_iter().collect(),
        ThreatOverlay::EnemyArmy => {
            let own = selected.map_or_else(
                || game.acting_player().unwrap_or(game.active_player),
                |(army, _)| game.player_of(army),
            );
            let Some(enemy) = game.army_of(crate::rules::phase::opponent(own)) else {
                return Vec::new();
            };
            game.unit_roots(enemy)
                .into_iter()
                .filter(|&u| !game.live_models(enemy, u).is_empty())
                .map(|u| (enemy, u))
                .collect()
        }
    }
}

/// `polygon` (convex) cut to the battlefield's edges.
fn clip_to_table(polygon: &[Vec2]) -> Vec<Vec2> {
    use crate::rules::constants::{BOARD_DEPTH_INCHES, BOARD_WIDTH_INCHES};
    let table = [
        Vec2::ZERO,
        Vec2::new(BOARD_WIDTH_INCHES, 0.0),
        Vec2::new(BOARD_WIDTH_INCHES, BOARD_DEPTH_INCHES),
        Vec2::new(0.0, BOARD_DEPTH_INCHES),
    ];
    polygon::clip_to_convex(polygon, &table)
}
