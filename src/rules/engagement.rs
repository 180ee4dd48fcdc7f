//! Engagement Range and objective control.
//!
//! Core Rules: Engagement Range (1" horizontally and 5" vertically; 2" across a barricade,
//! Core Rules: Barricades and Fuel Pipes) and Objective Markers (a model is in range within 3"
//! horizontally and 5" vertically; Level of Control is the sum of the OC of a player's models in
//! range; the higher sum controls, equal sums are contested).

use super::constants::{
    OBJECTIVE_MARKER_RADIUS_INCHES, OBJECTIVE_RANGE_HORIZONTAL_INCHES,
    OBJECTIVE_RANGE_VERTICAL_INCHES, TENTH,
};
use super::ruleset::Edition;
use crate::geometry::body::ModelSolid;
use crate::geometry::measure::{horizontal_distance, vertical_distance};
use crate::geometry::{Vec2, Vec3, polygon};

/// True when the straight line between the two models' centres crosses a barricade footprint.
pub fn across_barricade(a: &ModelSolid, b: &ModelSolid, barricades: &[Vec<Vec2>]) -> bool {
    barricades
        .iter()
        .any(|f| polygon::segment_enters(a.centre, b.centre, f))
}

/// True when `a` is within Engagement Range of `b` under 10th edition: 1" horizontally (2"
/// when a barricade lies between them) and 5" vertically ([`within_engagement_range_in`] with
/// [`crate::rules::constants::TENTH`]).
pub fn within_engagement_range(a: &ModelSolid, b: &ModelSolid, barricades: &[Vec<Vec2>]) -> bool {
    within_engagement_range_in(&TENTH, a, b, barricades)
}

/// True when `a` is within Engagement Range of `b` under `edition`: its horizontal range (10th
/// Core Rules: Engagement Range, 1", and 2" across a barricade; 11th Core Rules 03.04, 2"
/// everywhere) and 5" vertically.
pub fn within_engagement_range_in(
    edition: &Edition,
    a: &ModelSolid,
    b: &ModelSolid,
    barricades: &[Vec<Vec2>],
) -> bool {
    // Bases whose bounding circles are farther apart than the longest Engagement Range cannot
    // be within it: answered without measuring the outlines.
    let reach = a.base.bounding_radius_inches()
        + b.base.bounding_radius_inches()
        + edition.widest_engagement_range_inches();
    if a.centre.distance_squared(b.centre) > (reach + 1e-3) * (reach + 1e-3) {
        return false;
    }
    let range = match edition.barricade_engagement_range_inches {
        Some(across) if across_barricade(a, b, barricades) => across,
        _ => edition.engagement_range_horizontal_inches,
    };
    horizontal_distance(a, b) <= range
        && vertical_distance(a, b) <= edition.engagement_range_vertical_inches
}

/// True when the model is in range of the objective marker centred at `marker` (x, y, z in
/// inches): within 3" horizontally of the marker's edge and 5" vertically.
pub fn in_objective_range(model: &ModelSolid, marker: Vec3) -> bool {
    let radius = OBJECTIVE_MARKER_RADIUS_INCHES;
    // A base whose bounding circle stays out of range is out of range (no outline needed).
    let reach = model.base.bounding_radius_inches() + radius + OBJECTIVE_RANGE_HORIZONTAL_INCHES;
    if model.centre.distance_squared(marker.truncate()) > (reach + 1e-3) * (reach + 1e-3) {
        return false;
    }
    let outline = model.outline();
    let horizontal = if polygon::contains(&outline, marker.truncate()) {
        0.0
    } else {
        (polygon::distance_to_boundary(&outline, marker.truncate()) - radius).max(0.0)
    };
    let (z0, z1) = model.measured_range();
    let vertical = (z0 - marker.z).max(marker.z - z1).max(0.0);
    horizontal <= OBJECTIVE_RANGE_HORIZONTAL_INCHES && vertical <= OBJECTIVE_RANGE_VERTICAL_INCHES
}

/// Who controls an objective.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Control {
    /// Nobody has a model in range (or both Levels of Control are 0).
    Uncontrolled,
    /// Both players have the same Level of Control above 0.
    Contested,
    /// The player with the higher Level of Control.
    Player(u8),
}

/// Levels of Control of players 1 and 2 from (player, OC, in range) for each model, and who
/// controls the objective.
pub fn level_of_control(models: impl IntoIterator<Item = (u8, u32, bool)>) -> ([u32; 2], Control) {
    let mut levels = [0u32; 2];
    for (player, oc, in_range) in models {
        if in_range && (1..=2).contains(&player) {
            levels[usize::from(player - 1)] += oc;
        }
    }
    let control = match levels[0].cmp(&levels[1]) {
        std::cmp::Ordering::Greater => Control::Player(1),
        std::cmp::Ordering::Less => Control::Player(2),
        std::cmp::Ordering::Equal if levels[0] == 0 => Control::Uncontrolled,
        std::cmp::Ordering::Equal => Control::Contested,
    };
    (levels, control)
}
