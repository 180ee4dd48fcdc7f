//! The threat overlay: how far a unit reaches in its next turn, drawn around it as a convex
//! outline on the table. Shooting reach is its Move plus its longest ranged weapon; charge
//! reach is its Move plus the longest charge (12") plus Engagement Range, measured from its
//! bases (Core Rules: Movement, Shooting and Charge phases; Advancing and Assault weapons
//! are left out).

use crate::game::Game;
use crate::geometry::{Vec2, polygon};
use crate::rules::constants::{CHARGE_RANGE_INCHES, ENGAGEMENT_RANGE_HORIZONTAL_INCHES};

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
    let movement = members
        .iter()
        .map(|&u| data(u).movement)
        .fold(f32::INFINITY, f32::min);
    let movement = if movement.is_finite() { movement } else { 0.0 };
    let longest = members
        .iter()
        .flat_map(|&u| data(u).ranged_weapons.iter())
        .filter_map(|w| w.range)
        .fold(0.0f32, f32::max);
    Reach {
        shooting_inches: (longest > 0.0).then_some(movement + longest),
        charge_inches: movement + CHARGE_RANGE_INCHES + ENGAGEMENT_RANGE_HORIZONTAL_INCHES,
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
    clip_to_table(&convex_hull(points))
}

/// `polygon` (convex) cut to the battlefield's edges (Sutherland–Hodgman against each edge).
fn clip_to_table(polygon: &[Vec2]) -> Vec<Vec2> {
    use crate::rules::constants::{BOARD_DEPTH_INCHES, BOARD_WIDTH_INCHES};
    // Each edge as (axis, limit, keep the side below it).
    let edges = [
        (0, 0.0, false),
        (0, BOARD_WIDTH_INCHES, true),
        (1, 0.0, false),
        (1, BOARD_DEPTH_INCHES, true),
    ];
    let mut out = polygon.to_vec();
    for (axis, limit, below) in edges {
        let inside = |p: Vec2| {
            if below {
                p[axis] <= limit
            } else {
                p[axis] >= limit
            }
        };
        let input = std::mem::take(&mut out);
        for (i, &p) in input.iter().enumerate() {
            let q = input[(i + 1) % input.len()];
            if inside(p) {
                out.push(p);
            }
            if inside(p) != inside(q) {
                let t = (limit - p[axis]) / (q[axis] - p[axis]);
                out.push(p + (q - p) * t);
            }
        }
        if out.is_empty() {
            break;
        }
    }
    out
}

/// The convex hull of `points`, counter-clockwise (Andrew's monotone chain).
fn convex_hull(mut points: Vec<Vec2>) -> Vec<Vec2> {
    points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    points.dedup();
    if points.len() < 3 {
        return points;
    }
    let cross = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o);
    let mut hull: Vec<Vec2> = Vec::with_capacity(points.len() * 2);
    for &p in points.iter().chain(points.iter().rev().skip(1)) {
        while hull.len() >= 2 && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0 {
            hull.pop();
        }
        hull.push(p);
    }
    hull.pop();
    hull
}
