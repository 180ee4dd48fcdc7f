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
