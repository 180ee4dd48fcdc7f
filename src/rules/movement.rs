//! Moves: the kinds of move, how far each may go, and how a path is measured.
//!
//! Core Rules: Movement phase (Normal, Advance, Fall Back, Remain Stationary), Charge phase
//! (charge moves), Fight phase (Pile In, Consolidate). Climbing up or down counts towards the
//! distance moved; a model's path is measured along its waypoints.

use serde::{Deserialize, Serialize};

use crate::geometry::Vec3;

/// The kinds of move a unit makes in the Movement phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MoveMode {
    /// Normal move: up to M inches; cannot move within Engagement Range of enemy models.
    Normal,
    /// Advance: up to M + D6 inches; then no shooting except ASSAULT weapons and no charge.
    Advance,
    /// Fall Back: up to M inches out of Engagement Range; no shooting or charge afterwards.
    FallBack,
}

/// What a unit did in the Movement phase of this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Moved {
    /// Remained Stationary.
    Stationary,
    /// Made a move of this kind.
    Moved(MoveMode),
    /// Was set up from Reserves or disembarked (counts as a Normal move).
    SetUp,
}

/// Length of a path from `start` through `waypoints` (inches): the horizontal length of each
/// leg plus its climb or descent (Core Rules: vertical distance counts when moving up or down).
pub fn path_length(start: Vec3, waypoints: &[Vec3]) -> f32 {
    let mut from = start;
    let mut total = 0.0;
    for &to in waypoints {
        total += (to.truncate() - from.truncate()).length() + (to.z - from.z).abs();
        from = to;
    }
    total
}

/// Points along a path, at most `step` inches apart horizontally, from `start` (excluded) to
/// the last waypoint (included); heights are interpolated.
pub fn sample_path(start: Vec3, waypoints: &[Vec3], step: f32) -> Vec<Vec3> {
    let mut out = Vec::new();
    let mut from = start;
    for &to in waypoints {
        let len = (to.truncate() - from.truncate()).length();
        let n = ((len / step).ceil() as usize).max(1);
        out.extend((1..=n).map(|i| from.lerp(to, i as f32 / n as f32)));
        from = to;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn climbing_counts_towards_the_move() {
        // 3" across, 3" up a ruin floor, 1" across: 7".
        let start = Vec3::new(0.0, 0.0, 0.0);
        let path = [
            Vec3::new(3.0, 0.0, 0.0),
            Vec3::new(3.0, 0.0, 3.0),
            Vec3::new(4.0, 0.0, 3.0),
        ];
        assert!((path_length(start, &path) - 7.0).abs() < 1e-5);
        let samples = sample_path(start, &path, 0.5);
        assert_eq!(samples.last().copied(), Some(path[2]));
        assert!(
            samples
                .windows(2)
                .all(|w| (w[1] - w[0]).truncate().length() <= 0.5 + 1e-5)
        );
    }
}

/// The smallest Charge roll that lets a model `distance` inches (closest base to base) from
/// its target end within Engagement Range: the distance less the Engagement Range, rounded
/// up, and never below the smallest 2D6 roll. Core Rules: Charge phase (charge roll, charge
/// move ends within Engagement Range).
pub fn charge_roll_needed(distance: f32) -> u32 {
    use crate::rules::constants::ENGAGEMENT_RANGE_HORIZONTAL_INCHES;
    charge_roll_needed_for_gap(distance - ENGAGEMENT_RANGE_HORIZONTAL_INCHES)
}

/// The smallest Charge roll that covers a `gap` in inches: rounded up (a measuring
/// tolerance allowed), never below the smallest 2D6 roll (11th Core Rules 11.04: the roll
/// must reach the target).
pub fn charge_roll_needed_for_gap(gap: f32) -> u32 {
    use crate::rules::constants::{CHARGE_DICE, MEASURE_TOLERANCE_INCHES};
    let gap = gap - MEASURE_TOLERANCE_INCHES;
    (gap.max(0.0).ceil() as u32).max(CHARGE_DICE)
}

/// Probability that a Charge roll (2D6, summed) is at least `needed`. Core Rules: Charge
/// phase (charge roll).
pub fn charge_roll_probability(needed: u32) -> f64 {
    use crate::rules::constants::CHARGE_DICE;
    use crate::rules::dice::DiceExpr;
    let dice = DiceExpr {
        count: CHARGE_DICE as u8,
        sides: 6,
        modifier: 0,
    };
    dice.distribution()
        .into_iter()
        .filter(|&(v, _)| v >= needed as i32)
        .map(|(_, p)| p)
        .sum()
}

#[cfg(test)]
mod charge_tests {
    use super::*;

    #[test]
    fn charge_roll_needed_rounds_the_gap_up() {
        assert_eq!(
            charge_roll_needed(1.0),
            2,
            "already in reach: the smallest roll"
        );
        assert_eq!(charge_roll_needed(7.0), 6);
        assert_eq!(charge_roll_needed(7.2), 7);
        assert_eq!(charge_roll_needed(12.0), 11);
    }

    #[test]
    fn charge_roll_probability_counts_2d6_sums() {
        assert!((charge_roll_probability(2) - 1.0).abs() < 1e-12);
        assert!((charge_roll_probability(7) - 21.0 / 36.0).abs() < 1e-12);
        assert!((charge_roll_probability(9) - 10.0 / 36.0).abs() < 1e-12);
        assert!((charge_roll_probability(12) - 1.0 / 36.0).abs() < 1e-12);
        assert_eq!(charge_roll_probability(13), 0.0);
    }
}
