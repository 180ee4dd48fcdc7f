//! Deployment maps and automatic set-up of units wholly within a deployment zone.
//!
//! Core Rules: Deploy Armies (units are set up wholly within their deployment zone) and Unit
//! Coherency (models end within 2" horizontally of one other model, two at 7+ models).

use serde::{Deserialize, Serialize};

use super::coherency;
use super::constants::{COHERENCY_HORIZONTAL_INCHES, COHERENCY_TWO_NEIGHBOURS_FROM_MODELS};
use super::mission::ObjectiveMarker;
use crate::geometry::{Base, ModelSolid, Point, Vec2, polygon, to_vecs};

/// A player's deployment zone: a polygon on the table (inches).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Zone {
    /// The player who deploys here (1 or 2).
    pub player: u8,
    /// Zone name, e.g. "Attacker".
    #[serde(default)]
    pub name: String,
    /// Outline on the table (inches).
    pub area: Vec<Point>,
}

/// A deployment map: the zones and the objective markers of a deployment card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeploymentMap {
    /// Card name, e.g. "Search and Destroy".
    pub name: String,
    /// Where the zone shapes come from.
    #[serde(default)]
    pub source: String,
    /// One zone per player.
    pub zones: Vec<Zone>,
    /// Objective markers printed on the card.
    #[serde(default)]
    pub objectives: Vec<ObjectiveMarker>,
}

impl DeploymentMap {
    /// The zone of `player`, as vectors.
    pub fn zone_of(&self, player: u8) -> Option<Vec<Vec2>> {
        self.zones
            .iter()
            .find(|z| z.player == player)
            .map(|z| to_vecs(&z.area))
    }
}

/// Gap left between neighbouring models of one unit in an automatic formation (inches).
pub const FORMATION_GAP_INCHES: f32 = 0.5;
/// Gap kept between different units set up automatically (inches).
pub const UNIT_GAP_INCHES: f32 = 1.0;
/// Most models per rank of an automatic formation.
pub const FORMATION_RANK_WIDTH: usize = 5;

/// A model already on the table: base, centre (inches) and facing (degrees).
pub type PlacedBase = (Base, Vec2, f32);

/// What the table holds when a unit is set up: terrain footprints to keep clear of if possible,
/// wall outlines that can never be stood on, and models already placed.
#[derive(Debug, Default, Clone)]
pub struct SetupObstacles {
    /// Terrain footprints (avoided when the zone leaves room).
    pub footprints: Vec<Vec<Vec2>>,
    /// Wall outlines on the table (always avoided).
    pub walls: Vec<Vec<Vec2>>,
    /// Models already on the table.
    pub models: Vec<PlacedBase>,
}

/// Why a unit could not be set up.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("no room wholly within the deployment zone for {models} models")]
pub struct NoRoom {
    /// Models that needed room.
    pub models: usize,
}

/// Rank widths tried for an automatic formation, in order of preference.
pub const FORMATION_RANK_WIDTHS: [usize; 5] = [5, 4, 7, 10, 3];
/// Formation orientations tried (degrees).
pub const FORMATION_FACINGS_DEGREES: [f32; 4] = [0.0, 90.0, 45.0, 135.0];

/// Offsets of a formation for `bases` in ranks of at most `width` models, centred on the
/// origin, each base `FORMATION_GAP_INCHES` from its neighbours in the rank and between ranks.
/// With two or more ranks every model has a neighbour beside it and one in front or behind
/// within 2", which keeps a unit of 7+ models in Unit Coherency.
pub fn formation_offsets(bases: &[Base], width: usize) -> Vec<Vec2> {
    let width = width.clamp(1, bases.len().max(1));
    let mut out = Vec::with_capacity(bases.len());
    let mut y = 0.0;
    // Every model faces along +x in the formation's frame, so its footprint reaches its half
    // length along a rank and its half width across ranks. Ranks start at the same side, so a
    // short last rank sits behind the first models of the rank before it.
    for rank in bases.chunks(width) {
        let depth = rank
            .iter()
            .map(|b| b.half_extents_inches().y)
            .fold(0.0, f32::max);
        if !out.is_empty() {
            y += depth;
        }
        let mut x = 0.0;
        for (i, b) in rank.iter().enumerate() {
            let r = b.half_extents_inches().x;
            if i > 0 {
                x += r;
            }
            out.push(Vec2::new(x, y));
            x += r + FORMATION_GAP_INCHES;
        }
        y += depth + FORMATION_GAP_INCHES;
    }
    let (lo, hi) = polygon::bounds(&out);
    let mid = (lo + hi) / 2.0;
    out.iter().map(|o| *o - mid).collect()
}

/// The frame an automatic set-up scans a zone in: which of two equally central places it tries
/// first, and which way its formations run. No rule decides this; it only matters that the two
/// players' zones of a point-symmetric deployment map are filled as each other's images.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetupFrame {
    /// From the table's low corner (least y, then least x), formations laid out along +x and +y.
    Table,
    /// The half-turn of [`SetupFrame::Table`]: from the table's high corner, formations along
    /// -x and -y. Player 2's zone filled this way is the 180° image of player 1's.
    HalfTurn,
}

/// Which automatic set-up a scene's units without placements get. Recorded in saves, so a save
/// replays on the positions it was made with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SetupVersion {
    /// Saves made before the set-up version existed: both zones in [`SetupFrame::Table`], so
    /// player 2's units were not the image of player 1's in a mirror match.
    First,
    /// Player 1's zone in [`SetupFrame::Table`], player 2's in [`SetupFrame::HalfTurn`].
    #[default]
    Mirrored,
}

impl SetupVersion {
    /// The version new saves are made with.
    pub const CURRENT: SetupVersion = SetupVersion::Mirrored;

    /// The number a save file records (1 or 2).
    pub fn number(self) -> u32 {
        match self {
            SetupVersion::First => 1,
            SetupVersion::Mirrored => 2,
        }
    }

    /// The version a save file's number names, or None for a number this build does not know.
    pub fn from_number(n: u32) -> Option<SetupVersion> {
        match n {
            1 => Some(SetupVersion::First),
            2 => Some(SetupVersion::Mirrored),
            _ => None,
        }
    }

    /// The frame `player`'s zone is filled in.
    pub fn frame(self, player: u8) -> SetupFrame {
        match (self, player) {
            (SetupVersion::Mirrored, 2) => SetupFrame::HalfTurn,
            _ => SetupFrame::Table,
        }
    }
}

/// Sets up one unit (its models' bases, in order) wholly within `zone`, clear of `obstacles`,
/// in Unit Coherency. Tries anchors on a 1" grid from the middle of the zone outwards (equally
/// central ones in the scan order of `frame`), several formation shapes and orientations, first
/// clear of terrain footprints and then only clear of walls. Returns each model's (centre,
/// facing degrees) and records them in `obstacles.models`.
///
/// # Errors
/// [`NoRoom`] when nothing fits.
pub fn set_up_unit(
    zone: &[Vec2],
    bases: &[Base],
    obstacles: &mut SetupObstacles,
    frame: SetupFrame,
) -> Result<Vec<(Vec2, f32)>, NoRoom> {
    const { assert!(FORMATION_GAP_INCHES < COHERENCY_HORIZONTAL_INCHES) };
    let mut widths: Vec<usize> = FORMATION_RANK_WIDTHS
        .iter()
        .map(|w| (*w).min(bases.len()))
        .collect();
    if bases.len() >= COHERENCY_TWO_NEIGHBOURS_FROM_MODELS {
        // A single file would leave its end models with one neighbour.
        widths.retain(|w| *w >= 2 && *w < bases.len());
    }
    widths.dedup();
    // Keep only formations in Unit Coherency (checked once: it does not depend on where or
    // which way the formation stands).
    let shapes: Vec<Vec<Vec2>> = widths
        .iter()
        .map(|w| {
            let offsets = formation_offsets(bases, *w);
            match frame {
                SetupFrame::Table => offsets,
                SetupFrame::HalfTurn => offsets.iter().map(|o| -*o).collect(),
            }
        })
        .filter(|offsets| {
            let solids: Vec<ModelSolid> = bases
                .iter()
                .zip(offsets)
                .map(|(b, o)| ModelSolid::new(*b, o.extend(0.0), 0.0, 1.0))
                .collect();
            coherency::check(&solids).coherent
        })
        .collect();
    let (lo, hi) = polygon::bounds(zone);
    let centre = polygon::centroid(zone);
    let mut anchors: Vec<Vec2> = Vec::new();
    let mut y = lo.y.floor();
    while y <= hi.y {
        let mut x = lo.x.floor();
        while x <= hi.x {
            let p = Vec2::new(x, y);
            if polygon::contains(zone, p) {
                anchors.push(p);
            }
            x += 1.0;
        }
        y += 1.0;
    }
    if frame == SetupFrame::HalfTurn {
        anchors.reverse();
    }
    // A stable sort: equally central anchors keep the frame's scan order.
    anchors.sort_by(|a, b| a.distance(centre).total_cmp(&b.distance(centre)));
    for avoid_footprints in [true, false] {
        for offsets in &shapes {
            for anchor in &anchors {
                for facing in FORMATION_FACINGS_DEGREES {
                    let spots: Vec<(Vec2, f32)> = offsets
                        .iter()
                        .map(|o| (crate::geometry::place(*o, *anchor, facing), facing))
                        .collect();
                    if fits(zone, bases, &spots, obstacles, avoid_footprints) {
                        for (b, (p, f)) in bases.iter().zip(&spots) {
                            obstacles.models.push((*b, *p, *f));
                        }
                        return Ok(spots);
                    }
                }
            }
        }
    }
    Err(NoRoom {
        models: bases.len(),
    })
}

fn fits(
    zone: &[Vec2],
    bases: &[Base],
    spots: &[(Vec2, f32)],
    obstacles: &SetupObstacles,
    avoid_footprints: bool,
) -> bool {
    bases.iter().zip(spots).all(|(base, &(p, facing))| {
        if !base.wholly_within(p, facing, zone) {
            return false;
        }
        let outline = base.outline(p, facing);
        let r = base.bounding_radius_inches();
        let near = |t: &&Vec<Vec2>| {
            let (lo, hi) = polygon::bounds(t);
            p.x + r >= lo.x && p.x - r <= hi.x && p.y + r >= lo.y && p.y - r <= hi.y
        };
        let terrain = obstacles
            .walls
            .iter()
            .chain(obstacles.footprints.iter().filter(|_| avoid_footprints));
        if terrain
            .filter(near)
            .any(|t| polygon::polygons_intersect(&outline, t))
        {
            return false;
        }
        // Bounding circles keep a gap between units (conservative for hulls and ovals).
        obstacles.models.iter().all(|(other, q, _)| {
            p.distance(*q)
                >= base.bounding_radius_inches() + other.bounding_radius_inches() + UNIT_GAP_INCHES
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x0: f32, y0: f32, x1: f32, y1: f32) -> Vec<Vec2> {
        vec![
            Vec2::new(x0, y0),
            Vec2::new(x1, y0),
            Vec2::new(x1, y1),
            Vec2::new(x0, y1),
        ]
    }

    #[test]
    fn ten_models_fit_wholly_within_zone_in_coherency() {
        let zone = rect(0.0, 0.0, 60.0, 12.0);
        let bases = vec![Base::Round(32.0); 10];
        let mut obstacles = SetupObstacles::default();
        let spots = set_up_unit(&zone, &bases, &mut obstacles, SetupFrame::Table).unwrap();
        assert_eq!(spots.len(), 10);
        for (i, (p, f)) in spots.iter().enumerate() {
            assert!(bases[i].wholly_within(*p, *f, &zone));
            let r = bases[i].half_extents_inches().x;
            let neighbours = spots
                .iter()
                .enumerate()
                .filter(|(j, (q, _))| *j != i && p.distance(*q) - 2.0 * r <= 2.0)
                .count();
            assert!(neighbours >= 2, "model {i} has {neighbours} neighbours");
        }
    }

    #[test]
    fn second_unit_keeps_clear_of_the_first_and_of_walls() {
        let zone = rect(0.0, 0.0, 20.0, 10.0);
        let wall = rect(9.5, 0.0, 10.5, 10.0);
        let mut obstacles = SetupObstacles {
            walls: vec![wall.clone()],
            ..Default::default()
        };
        let a = set_up_unit(
            &zone,
            &[Base::Round(32.0); 5],
            &mut obstacles,
            SetupFrame::Table,
        )
        .unwrap();
        let b = set_up_unit(
            &zone,
            &[Base::Round(32.0); 5],
            &mut obstacles,
            SetupFrame::Table,
        )
        .unwrap();
        for (p, _) in a.iter().chain(&b) {
            assert!(!polygon::polygons_intersect(
                &Base::Round(32.0).outline(*p, 0.0),
                &wall
            ));
        }
        for (p, _) in &a {
            for (q, _) in &b {
                assert!(p.distance(*q) >= 32.0 / 25.4 + UNIT_GAP_INCHES - 1e-3);
            }
        }
    }

    #[test]
    fn seven_large_bases_are_set_up_in_coherency() {
        let zone = rect(0.0, 0.0, 60.0, 12.0);
        for base in [Base::Round(40.0), Base::Round(60.0), Base::Oval(90.0, 52.0)] {
            let bases = vec![base; 7];
            let spots = set_up_unit(
                &zone,
                &bases,
                &mut SetupObstacles::default(),
                SetupFrame::Table,
            )
            .unwrap();
            let solids: Vec<ModelSolid> = spots
                .iter()
                .map(|(p, f)| ModelSolid::new(base, p.extend(0.0), *f, 1.5))
                .collect();
            assert!(coherency::check(&solids).coherent, "{base:?}");
        }
    }

    #[test]
    fn no_room_is_an_error() {
        let zone = rect(0.0, 0.0, 2.0, 2.0);
        let err = set_up_unit(
            &zone,
            &[Base::Round(90.0)],
            &mut SetupObstacles::default(),
            SetupFrame::Table,
        );
        assert_eq!(err, Err(NoRoom { models: 1 }));
    }

    #[test]
    fn a_half_turned_zone_is_filled_as_the_image_of_the_table_frame() {
        // Two zones of a 44" by 60" table, each the half-turn of the other about (22, 30),
        // with a footprint in one and its image in the other.
        let turn = |p: Vec2| Vec2::new(44.0 - p.x, 60.0 - p.y);
        let near = rect(0.0, 0.0, 44.0, 12.0);
        let far: Vec<Vec2> = near.iter().map(|p| turn(*p)).collect();
        let ruin = rect(18.0, 4.0, 26.0, 9.0);
        let units = [
            vec![Base::Round(32.0); 10],
            vec![Base::Oval(90.0, 52.0)],
            vec![Base::Round(40.0); 3],
        ];
        let fill = |zone: &[Vec2], footprint: Vec<Vec2>, frame| {
            let mut obstacles = SetupObstacles {
                footprints: vec![footprint],
                ..Default::default()
            };
            units
                .iter()
                .flat_map(|b| set_up_unit(zone, b, &mut obstacles, frame).unwrap())
                .collect::<Vec<_>>()
        };
        let table = fill(&near, ruin.clone(), SetupFrame::Table);
        let image = fill(
            &far,
            ruin.iter().map(|p| turn(*p)).collect(),
            SetupFrame::HalfTurn,
        );
        let same_frame = fill(
            &far,
            ruin.iter().map(|p| turn(*p)).collect(),
            SetupFrame::Table,
        );
        assert_eq!(table.len(), image.len());
        for ((p, _), (q, _)) in table.iter().zip(&image) {
            assert!(
                turn(*p).distance(*q) < 1e-3,
                "{p} turns to {}, set up at {q}",
                turn(*p)
            );
        }
        assert!(
            table
                .iter()
                .zip(&same_frame)
                .any(|((p, _), (q, _))| turn(*p).distance(*q) > 0.1),
            "the table frame alone would already give the image; the test shows nothing"
        );
    }
}
