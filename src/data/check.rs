//! Semantic checks of each file format: the problems RON syntax cannot catch, each reported
//! with the file and the item concerned.

use std::collections::HashSet;
use std::path::Path;

use super::army::DatasheetsFile;
use super::error::DataError;
use super::layout::LayoutFile;
use crate::geometry::{TerrainCategory, Vec2, polygon, to_vecs};
use crate::rules::constants::{BOARD_DEPTH_INCHES, BOARD_WIDTH_INCHES};
use crate::rules::deployment::DeploymentMap;
use crate::rules::mission::{Mission, ObjectiveMarker, ScoringRule};
use crate::rules::{Datasheet, WeaponAbility, WeaponProfile};

/// Slack allowed on board-edge checks (inches).
const EDGE_TOLERANCE_INCHES: f32 = 0.01;

/// The table as a polygon (inches).
pub fn board() -> Vec<Vec2> {
    vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(BOARD_WIDTH_INCHES, 0.0),
        Vec2::new(BOARD_WIDTH_INCHES, BOARD_DEPTH_INCHES),
        Vec2::new(0.0, BOARD_DEPTH_INCHES),
    ]
}

/// True when `p` is on the table.
pub fn on_board(p: Vec2) -> bool {
    (-EDGE_TOLERANCE_INCHES..=BOARD_WIDTH_INCHES + EDGE_TOLERANCE_INCHES).contains(&p.x)
        && (-EDGE_TOLERANCE_INCHES..=BOARD_DEPTH_INCHES + EDGE_TOLERANCE_INCHES).contains(&p.y)
}

struct Report<'a> {
    file: &'a Path,
    errors: Vec<DataError>,
}

impl Report<'_> {
    fn fail(&mut self, message: impl std::fmt::Display) {
        self.errors.push(DataError::semantic(self.file, message));
    }

    fn unique<'s>(&mut self, what: &str, ids: impl IntoIterator<Item = &'s str>) {
        let mut seen = HashSet::new();
        for id in ids {
            if !seen.insert(id.to_ascii_lowercase()) {
                self.fail(format!("{what} '{id}' is defined twice"));
            }
        }
    }

    fn polygon(&mut self, what: &str, points: &[Vec2]) {
        let n = points.len();
        let repeated = (0..n).any(|i| points[i].distance(points[(i + 1) % n]) < 1e-3);
        let doubling_back = (0..n).any(|i| {
            let (a, b, c) = (points[i], points[(i + 1) % n], points[(i + 2) % n]);
            (b - a).perp_dot(c - b).abs() < 1e-6 && (b - a).dot(c - b) < 0.0
        });
        if n < 3 {
            self.fail(format!("{what} needs at least 3 points, has {n}"));
        } else if points.iter().any(|p| !p.is_finite()) {
            self.fail(format!("{what} has a coordinate that is not a number"));
        } else if repeated {
            self.fail(format!("{what} repeats a point (do not close the polygon)"));
        } else if doubling_back {
            self.fail(format!("{what} doubles back on itself"));
        } else if !polygon::is_simple(points) {
            self.fail(format!("{what} crosses itself or has no area"));
        } else if let Some(p) = points.iter().find(|p| !on_board(**p)) {
            self.fail(format!(
                "{what} leaves the 60\" x 44\" table at ({}, {})",
                p.x, p.y
            ));
        }
    }
}

/// Checks a datasheet file: characteristics in range, weapon profiles, wargear names.
pub fn datasheets(file: &Path, data: &DatasheetsFile) -> Vec<DataError> {
    let mut r = Report {
        file,
        errors: Vec::new(),
    };
    r.unique("datasheet", data.datasheets.iter().map(|d| d.name.as_str()));
    for d in &data.datasheets {
        datasheet(&mut r, d);
    }
    r.errors
}

fn datasheet(r: &mut Report, d: &Datasheet) {
    let n = &d.name;
    let mut range = |what: &str, v: u8, lo: u8, hi: u8| {
        if !(lo..=hi).contains(&v) {
            r.fail(format!("datasheet '{n}': {what} {v} is outside {lo}..{hi}"));
        }
    };
    range("Toughness", d.toughness, 1, 20);
    range("Save", d.save, 2, 7);
    range("Wounds", d.wounds, 1, 60);
    range("Leadership", d.leadership, 2, 12);
    if let Some(i) = d.invulnerable_save {
        range("invulnerable save", i, 2, 6);
    }
    if let Some(f) = d.feel_no_pain {
        range("Feel No Pain", f, 2, 6);
    }
    if d.movement < 0.0 {
        r.fail(format!("datasheet '{n}': Move cannot be negative"));
    }
    let h = d.base.half_extents_inches();
    if !(h.x > 0.0 && h.y > 0.0) {
        r.fail(format!("datasheet '{n}': base size must be positive"));
    }
    if d.height.is_some_and(|h| !(h > 0.0 && h.is_finite())) {
        r.fail(format!("datasheet '{n}': height must be positive"));
    }
    if d.unit_size.0 == 0 || d.unit_size.0 > d.unit_size.1 {
        r.fail(format!(
            "datasheet '{n}': unit_size ({}, {}) must be (fewest, most) with at least 1 model",
            d.unit_size.0, d.unit_size.1
        ));
    }
    let full_names: Vec<String> = d.weapons().map(|w| w.full_name()).collect();
    r.unique(
        &format!("datasheet '{n}': weapon"),
        full_names.iter().map(String::as_str),
    );
    for w in d.weapons().filter(|w| w.profile.is_none()) {
        if d.profiles_of(&w.name).len() > 1 {
            r.fail(format!(
                "datasheet '{n}': weapon '{}' has several profiles; name each one (profile: \"...\")",
                w.name
            ));
        }
    }
    for w in &d.ranged_weapons {
        weapon(r, n, w, true);
    }
    for w in &d.melee_weapons {
        weapon(r, n, w, false);
    }
    for name in &d.default_wargear {
        if d.weapon(name).is_none() {
            r.fail(format!(
                "datasheet '{n}': default wargear '{name}' is not one of its weapons"
            ));
        }
    }
    if !d.leader_of.is_empty() && !d.has_keyword("CHARACTER") {
        r.fail(format!(
            "datasheet '{n}': only a CHARACTER can lead other units (leader_of is set)"
        ));
    }
}

fn weapon(r: &mut Report, sheet: &str, w: &WeaponProfile, ranged: bool) {
    let n = &w.name;
    match (ranged, w.range) {
        (true, None) => r.fail(format!(
            "datasheet '{sheet}': ranged weapon '{n}' has no range"
        )),
        (true, Some(x)) if x <= 0.0 => r.fail(format!(
            "datasheet '{sheet}': weapon '{n}' range must be positive"
        )),
        (false, Some(_)) => r.fail(format!(
            "datasheet '{sheet}': melee weapon '{n}' must not have a range"
        )),
        _ => {}
    }
    match w.skill {
        None if !w.has(&WeaponAbility::Torrent) => r.fail(format!(
            "datasheet '{sheet}': weapon '{n}' has no BS/WS; only TORRENT weapons may leave it out"
        )),
        Some(s) if !(2..=6).contains(&s) => r.fail(format!(
            "datasheet '{sheet}': weapon '{n}' skill {s}+ is outside 2+..6+"
        )),
        _ => {}
    }
    if w.ap > 0 {
        r.fail(format!(
            "datasheet '{sheet}': weapon '{n}' AP must be 0 or negative, found {}",
            w.ap
        ));
    }
    if w.strength == 0 || w.attacks.max() < 1 || w.damage.max() < 1 {
        r.fail(format!(
            "datasheet '{sheet}': weapon '{n}' needs Strength, Attacks and Damage of at least 1"
        ));
    }
}

/// Checks a layout: unique ids, footprints on the table, walls, windows, floors and the
/// layout's own objective markers (unique, on the table).
pub fn layout(file: &Path, data: &LayoutFile) -> Vec<DataError> {
    let mut r = Report {
        file,
        errors: Vec::new(),
    };
    r.unique("piece", data.pieces.iter().map(|p| p.id.as_str()));
    for spec in &data.pieces {
        let piece = spec.resolve();
        let id = &piece.id;
        r.polygon(&format!("piece '{id}' footprint"), &piece.footprint);
        let solid_kind = matches!(
            piece.category,
            TerrainCategory::Barricade | TerrainCategory::Hill | TerrainCategory::Debris
        );
        let no_body = piece.walls.is_empty() && (piece.height.is_nan() || piece.height <= 0.0);
        if solid_kind && no_body {
            r.fail(format!(
                "piece '{id}' ({:?}) needs a height: without one it neither blocks sight nor gives cover",
                piece.category
            ));
        }
        for (i, w) in piece.walls.iter().enumerate() {
            let what = format!("piece '{id}' wall {}", i + 1);
            let positive = |v: f32| v.is_finite() && v > 0.0;
            if !(positive(w.length()) && positive(w.height) && positive(w.thickness)) {
                r.fail(format!(
                    "{what} needs a positive length, height and thickness"
                ));
            }
            let far = [w.start, w.end].into_iter().any(|p| {
                !polygon::contains(&piece.footprint, p)
                    && polygon::distance_to_boundary(&piece.footprint, p) > 0.5
            });
            if far {
                r.fail(format!("{what} stands outside the piece's footprint"));
            }
            for (j, win) in w.windows.iter().enumerate() {
                if !(0.0 <= win.start
                    && win.start < win.end
                    && win.end <= w.length() + 1e-3
                    && 0.0 <= win.bottom
                    && win.bottom < win.top
                    && win.top <= w.height + 1e-3)
                {
                    r.fail(format!(
                        "{what} window {} ({}..{} along, {}..{} up) does not fit in the wall ({:.2}\" long, {}\" high)",
                        j + 1,
                        win.start,
                        win.end,
                        win.bottom,
                        win.top,
                        w.length(),
                        w.height
                    ));
                }
            }
        }
        for (i, f) in piece.floors.iter().enumerate() {
            let what = format!("piece '{id}' floor {}", i + 1);
            if !(f.height > 0.0 && f.height.is_finite()) {
                r.fail(format!("{what} must be above the table"));
            }
            r.polygon(&format!("{what} area"), &f.area);
        }
    }
    objectives(&mut r, &data.objectives);
    r.errors
}

fn objectives(r: &mut Report, list: &[ObjectiveMarker]) {
    r.unique("objective", list.iter().map(|o| o.id.as_str()));
    for o in list {
        if !on_board(o.at.vec()) {
            r.fail(format!(
                "objective '{}' at ({}, {}) is off the table",
                o.id, o.at.0, o.at.1
            ));
        }
    }
}

/// Checks a deployment map: one zone for each of players 1 and 2, on the table, not overlapping.
pub fn deployment(file: &Path, data: &DeploymentMap) -> Vec<DataError> {
    let mut r = Report {
        file,
        errors: Vec::new(),
    };
    for player in [1, 2] {
        let count = data.zones.iter().filter(|z| z.player == player).count();
        if count != 1 {
            r.fail(format!(
                "player {player} must have exactly one zone, has {count}"
            ));
        }
    }
    for z in &data.zones {
        if !(1..=2).contains(&z.player) {
            r.fail(format!(
                "zone '{}' is for player {}; players are 1 and 2",
                z.name, z.player
            ));
        }
        r.polygon(&format!("zone of player {}", z.player), &to_vecs(&z.area));
    }
    if let [a, b] = data.zones.as_slice() {
        let (a, b) = (to_vecs(&a.area), to_vecs(&b.area));
        let shrunk = |p: &[Vec2]| {
            let c = polygon::centroid(p);
            p.iter().map(|v| c + (*v - c) * 0.999).collect::<Vec<_>>()
        };
        if a.len() >= 3 && b.len() >= 3 && polygon::polygons_intersect(&shrunk(&a), &shrunk(&b)) {
            r.fail("the two deployment zones overlap");
        }
    }
    objectives(&mut r, &data.objectives);
    r.errors
}

/// Checks a mission: battle rounds, objectives on the table, scoring rounds.
pub fn mission(file: &Path, data: &Mission) -> Vec<DataError> {
    let mut r = Report {
        file,
        errors: Vec::new(),
    };
    if data.battle_rounds == 0 {
        r.fail("battle_rounds must be at least 1");
    }
    objectives(&mut r, &data.objectives);
    for rule in &data.scoring {
        let from = match rule {
            ScoringRule::HoldObjectives { from_round, .. }
            | ScoringRule::HoldMore { from_round, .. } => *from_round,
        };
        if from == 0 || from > data.battle_rounds {
            r.fail(format!(
                "a scoring rule starts in battle round {from}, but the mission has rounds 1..{}",
                data.battle_rounds
            ));
        }
    }
    r.errors
}
