//! Semantic checks of each file format: the problems RON syntax cannot catch, each reported
//! with the file and the item concerned.

use std::collections::HashSet;
use std::path::Path;

use super::army::DatasheetsFile;
use super::error::DataError;
use super::layout::{LayoutFile, PieceSpec, Shape};
use crate::geometry::{Base, Point, TerrainCategory, Vec2, polygon, to_vecs};
use crate::rules::abilities::ObjectiveControlEffect;
use crate::rules::constants::{
    BASE_DIAMETER_RANGE_MM, BOARD_DEPTH_INCHES, BOARD_WIDTH_INCHES, HULL_SIZE_RANGE_INCHES,
    MAX_ANGLE_DEGREES, MAX_MODEL_HEIGHT_INCHES, MAX_MODELS_PER_UNIT, MAX_MOVE_INCHES,
    MAX_OBJECTIVE_CONTROL, MAX_POINTS_PER_UNIT, MAX_TERRAIN_HEIGHT_INCHES,
    MAX_WALL_THICKNESS_INCHES, MAX_WEAPON_RANGE_INCHES,
};
use crate::rules::deployment::DeploymentMap;
use crate::rules::mission::{Mission, MissionSetup, ObjectiveMarker, ScoringRule};
use crate::rules::secondary::SecondaryDeck;
use crate::rules::{CoreAbility, Datasheet, WeaponAbility, WeaponProfile};

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

    /// A value at field `path` breaks a rule or limit.
    fn fail_at(&mut self, path: &str, message: impl std::fmt::Display) {
        self.errors.push(DataError::value(self.file, path, message));
    }

    /// Checks that `v` is a finite number from `lo` to `hi`; true if it is.
    fn number(&mut self, path: &str, what: &str, v: f32, (lo, hi): (f32, f32), unit: &str) -> bool {
        let ok = v.is_finite() && (lo..=hi).contains(&v);
        if !ok {
            let shown = if v.is_finite() {
                format!("{v}{unit}")
            } else {
                v.to_string()
            };
            self.fail_at(
                path,
                format!("{what} is {shown}; it must be a finite number from {lo} to {hi}{unit}"),
            );
        }
        ok
    }

    /// Checks that `v` is a finite number; true if it is.
    fn finite(&mut self, path: &str, what: &str, v: f32) -> bool {
        if !v.is_finite() {
            self.fail_at(path, format!("{what} is {v}; it must be a finite number"));
        }
        v.is_finite()
    }

    /// Checks that both coordinates of a point are finite; true if they are.
    fn point(&mut self, path: &str, what: &str, p: Point) -> bool {
        let x = self.finite(&format!("{path}.0"), &format!("{what} x"), p.0);
        let y = self.finite(&format!("{path}.1"), &format!("{what} y"), p.1);
        x && y
    }

    /// Checks that every number of a shape is finite; true if they are.
    fn shape(&mut self, path: &str, what: &str, shape: &Shape) -> bool {
        match shape {
            Shape::Rect(w, d) => {
                let w = self.finite(&format!("{path}.0"), &format!("{what} width"), *w);
                let d = self.finite(&format!("{path}.1"), &format!("{what} depth"), *d);
                w && d
            }
            Shape::Polygon(points) => points.iter().enumerate().fold(true, |ok, (k, p)| {
                self.point(
                    &format!("{path}.0[{k}]"),
                    &format!("{what} point {}", k + 1),
                    *p,
                ) && ok
            }),
        }
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
    for (i, d) in data.datasheets.iter().enumerate() {
        datasheet(&mut r, &format!("datasheets[{i}]"), d);
        // Each ability's effects within their limits (rules::effect).
        for (j, a) in d.abilities.iter().enumerate() {
            for (k, e) in a.effects.iter().enumerate() {
                if let Err(why) = e.check() {
                    r.fail_at(
                        &format!("datasheets[{i}].abilities[{j}].effects[{k}]"),
                        format!("datasheet '{}', ability '{}': {why}", d.name, a.name),
                    );
                }
            }
        }
    }
    r.errors
}

/// Checks a datasheet's other model profiles: names unique and not the datasheet's own,
/// characteristics in the datasheet's ranges, counts within the unit size.
fn model_profiles(r: &mut Report, at: &str, d: &Datasheet) {
    let n = &d.name;
    r.unique(
        &format!("model profile of '{n}'"),
        d.model_profiles.iter().map(|m| m.name.as_str()),
    );
    for (i, m) in d.model_profiles.iter().enumerate() {
        let at = format!("{at}.model_profiles[{i}]");
        let p = &m.name;
        if p.eq_ignore_ascii_case(n) {
            r.fail_at(
                &format!("{at}.name"),
                format!("datasheet '{n}': a model profile cannot have the datasheet's own name"),
            );
        }
        characteristic_ranges(
            r,
            &at,
            &format!("datasheet '{n}', model '{p}'"),
            [
                m.toughness,
                m.save,
                m.wounds,
                m.leadership,
                m.objective_control,
                m.invulnerable_save,
                None,
            ],
        );
        if let Some(mv) = m.movement {
            r.number(
                &format!("{at}.movement"),
                &format!("datasheet '{n}', model '{p}': Move"),
                mv,
                (0.0, MAX_MOVE_INCHES),
                "\"",
            );
        }
        if let Some(b) = &m.base {
            base(r, &at, n, b);
        }
        model_height(r, &at, &format!("datasheet '{n}', model '{p}'"), m.height);
        if let Some((lo, hi)) = m.count
            && (lo > hi || hi > d.unit_size.1)
        {
            r.fail_at(
                &format!("{at}.count"),
                format!(
                    "datasheet '{n}', model '{p}': count ({lo}, {hi}) must have its fewest no more than its most, and its most no more than the unit's {}",
                    d.unit_size.1
                ),
            );
        }
    }
}

/// The characteristics [`characteristic_ranges`] checks, in its order: field, name, fewest,
/// most.
const CHARACTERISTIC_RANGES: [(&str, &str, u8, u8); 7] = [
    ("toughness", "Toughness", 1, 20),
    ("save", "Save", 2, 7),
    ("wounds", "Wounds", 1, 60),
    ("leadership", "Leadership", 2, 12),
    ("objective_control", "OC", 0, MAX_OBJECTIVE_CONTROL),
    ("invulnerable_save", "invulnerable save", 2, 6),
    ("feel_no_pain", "Feel No Pain", 2, 6),
];

/// Checks the characteristics `values` (T, Sv, W, Ld, OC, invulnerable save, Feel No Pain;
/// `None`: not given) of `who` against [`CHARACTERISTIC_RANGES`].
fn characteristic_ranges(r: &mut Report, at: &str, who: &str, values: [Option<u8>; 7]) {
    for ((field, what, lo, hi), v) in CHARACTERISTIC_RANGES.iter().zip(values) {
        if let Some(v) = v
            && !(*lo..=*hi).contains(&v)
        {
            r.fail_at(
                &format!("{at}.{field}"),
                format!("{who}: {what} {v} is outside {lo}..{hi}"),
            );
        }
    }
}

/// Checks a model height of `who`, if given: finite, above 0, at most
/// [`MAX_MODEL_HEIGHT_INCHES`].
fn model_height(r: &mut Report, at: &str, who: &str, height: Option<f32>) {
    if let Some(h) = height
        && !(h > 0.0 && h.is_finite() && h <= MAX_MODEL_HEIGHT_INCHES)
    {
        r.fail_at(
            &format!("{at}.height"),
            format!(
                "{who}: height is {h}\"; it must be a finite number above 0 and at most {MAX_MODEL_HEIGHT_INCHES}\""
            ),
        );
    }
}

fn datasheet(r: &mut Report, at: &str, d: &Datasheet) {
    let n = &d.name;
    characteristic_ranges(
        r,
        at,
        &format!("datasheet '{n}'"),
        [
            Some(d.toughness),
            Some(d.save),
            Some(d.wounds),
            Some(d.leadership),
            Some(d.objective_control),
            d.invulnerable_save,
            d.feel_no_pain,
        ],
    );
    r.number(
        &format!("{at}.movement"),
        &format!("datasheet '{n}': Move"),
        d.movement,
        (0.0, MAX_MOVE_INCHES),
        "\"",
    );
    if let Some(b) = &d.base {
        base(r, at, n, b);
    }
    model_profiles(r, at, d);
    model_height(r, at, &format!("datasheet '{n}'"), d.height);
    if d.unit_size.0 == 0 || d.unit_size.0 > d.unit_size.1 {
        r.fail_at(
            &format!("{at}.unit_size"),
            format!(
                "datasheet '{n}': unit_size ({}, {}) must be (fewest, most) with at least 1 model",
                d.unit_size.0, d.unit_size.1
            ),
        );
    }
    if d.unit_size.1 > MAX_MODELS_PER_UNIT {
        r.fail_at(
            &format!("{at}.unit_size.1"),
            format!(
                "datasheet '{n}': unit_size allows {} models; no unit may have more than {MAX_MODELS_PER_UNIT}",
                d.unit_size.1
            ),
        );
    }
    for (k, (models, points)) in d.points.iter().enumerate() {
        if *models > MAX_MODELS_PER_UNIT {
            r.fail_at(
                &format!("{at}.points[{k}].0"),
                format!(
                    "datasheet '{n}': points for {models} models; no unit may have more than {MAX_MODELS_PER_UNIT}"
                ),
            );
        }
        if *points > MAX_POINTS_PER_UNIT {
            r.fail_at(
                &format!("{at}.points[{k}].1"),
                format!(
                    "datasheet '{n}': {points} points for {models} models; no unit may cost more than {MAX_POINTS_PER_UNIT} points"
                ),
            );
        }
    }
    if let Some(c) = d.transport_capacity
        && c > MAX_MODELS_PER_UNIT
    {
        r.fail_at(
            &format!("{at}.transport_capacity"),
            format!(
                "datasheet '{n}': transport capacity {c} is more than {MAX_MODELS_PER_UNIT} models"
            ),
        );
    }
    // The other core abilities' numbers are checked as they are read (`CoreAbility::check`).
    for (k, a) in d.core_abilities.iter().enumerate() {
        if let CoreAbility::Scouts(x) = a {
            r.number(
                &format!("{at}.core_abilities[{k}].0"),
                &format!("datasheet '{n}': Scouts"),
                *x,
                (0.0, MAX_MOVE_INCHES),
                "\"",
            );
        }
    }
    for (k, e) in d.objective_control_effects.iter().enumerate() {
        let ObjectiveControlEffect::WhileLeadingPlus(x) = e else {
            continue;
        };
        if x.unsigned_abs() > u32::from(MAX_OBJECTIVE_CONTROL) {
            r.fail_at(
                &format!("{at}.objective_control_effects[{k}].0"),
                format!(
                    "datasheet '{n}': an OC change of {x} is outside -{MAX_OBJECTIVE_CONTROL}..{MAX_OBJECTIVE_CONTROL}"
                ),
            );
        }
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
    for (k, w) in d.ranged_weapons.iter().enumerate() {
        weapon(r, &format!("{at}.ranged_weapons[{k}]"), n, w, true);
    }
    for (k, w) in d.melee_weapons.iter().enumerate() {
        weapon(r, &format!("{at}.melee_weapons[{k}]"), n, w, false);
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

/// Checks a base or hull: sizes finite and within the limits.
fn base(r: &mut Report, at: &str, n: &str, base: &Base) {
    let mm = |r: &mut Report, k: usize, v: f32| {
        r.number(
            &format!("{at}.base.{k}"),
            &format!("datasheet '{n}': base diameter"),
            v,
            BASE_DIAMETER_RANGE_MM,
            " mm",
        );
    };
    match *base {
        Base::Round(d) => mm(r, 0, d),
        Base::Oval(major, minor) => {
            mm(r, 0, major);
            mm(r, 1, minor);
        }
        Base::Hull { length, width } => {
            for (field, v) in [("length", length), ("width", width)] {
                r.number(
                    &format!("{at}.base.{field}"),
                    &format!("datasheet '{n}': hull {field}"),
                    v,
                    HULL_SIZE_RANGE_INCHES,
                    "\"",
                );
            }
        }
    }
}

fn weapon(r: &mut Report, at: &str, sheet: &str, w: &WeaponProfile, ranged: bool) {
    let n = &w.name;
    let path = format!("{at}.range");
    match (ranged, w.range) {
        (true, None) => r.fail_at(
            at,
            format!("datasheet '{sheet}': ranged weapon '{n}' has no range"),
        ),
        (true, Some(x)) if x <= 0.0 => r.fail_at(
            &path,
            format!("datasheet '{sheet}': weapon '{n}' range must be positive"),
        ),
        (true, Some(x)) => {
            r.number(
                &path,
                &format!("datasheet '{sheet}': weapon '{n}' range"),
                x,
                (0.0, MAX_WEAPON_RANGE_INCHES),
                "\"",
            );
        }
        (false, Some(_)) => r.fail_at(
            &path,
            format!("datasheet '{sheet}': melee weapon '{n}' must not have a range"),
        ),
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
    // Every roll of Attacks and Damage gives at least 1 ("D6-5" could give -4).
    if w.strength == 0 || w.attacks.min() < 1 || w.damage.min() < 1 {
        r.fail(format!(
            "datasheet '{sheet}': weapon '{n}' needs Strength, Attacks and Damage of at least 1 \
             on every roll (Attacks {}, Damage {})",
            w.attacks, w.damage
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
    // 11th edition terrain areas and category overrides name pieces of the layout.
    r.unique("area", data.areas.iter().map(|a| a.id.as_str()));
    let known = |id: &str| data.pieces.iter().any(|p| p.id == id);
    for (i, a) in data.areas.iter().enumerate() {
        if a.pieces.is_empty() {
            r.fail_at(
                &format!("areas[{i}]"),
                format!("area '{}' holds no piece", a.id),
            );
        }
        for id in a.pieces.iter().filter(|id| !known(id)) {
            r.fail_at(
                &format!("areas[{i}]"),
                format!(
                    "area '{}' names piece '{id}', which the layout does not have",
                    a.id
                ),
            );
        }
        if let Some(outline) = &a.outline {
            r.polygon(
                &format!("area '{}' outline", a.id),
                &crate::geometry::to_vecs(outline),
            );
        }
    }
    for (k, (id, _)) in data.categories.iter().enumerate() {
        if !known(id) {
            r.fail_at(
                &format!("categories[{k}]"),
                format!("categories names piece '{id}', which the layout does not have"),
            );
        }
    }
    for (i, p) in data.pieces.iter().enumerate() {
        if p.id.trim().is_empty() {
            r.fail(format!("pieces[{i}]: a piece needs an id (it is empty)"));
        }
    }
    for (i, spec) in data.pieces.iter().enumerate() {
        if !piece_numbers(&mut r, &format!("pieces[{i}]"), spec) {
            // The shape checks below would only repeat that a number is wrong.
            continue;
        }
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
            // A floor lies over its piece: every corner within the footprint (0.05" of
            // tolerance for a corner drawn on its edge).
            let fp = &piece.footprint;
            let inside = |p: Vec2| {
                crate::geometry::polygon::contains(fp, p)
                    || (0..fp.len()).any(|k| {
                        crate::geometry::polygon::distance_to_segment(
                            p,
                            fp[k],
                            fp[(k + 1) % fp.len()],
                        ) <= 0.05
                    })
            };
            if fp.len() >= 3
                && let Some(p) = f.area.iter().find(|p| p.is_finite() && !inside(**p))
            {
                r.fail(format!(
                    "{what} reaches outside the piece's footprint, at ({}, {})",
                    p.x, p.y
                ));
            }
        }
    }
    objectives(&mut r, &data.objectives);
    r.errors
}

/// Checks every number of a piece as written: finite, angles and heights within the limits.
/// True if they all are.
fn piece_numbers(r: &mut Report, at: &str, p: &PieceSpec) -> bool {
    let id = &p.id;
    let mut ok = r.point(&format!("{at}.at"), &format!("piece '{id}' centre"), p.at);
    ok &= r.number(
        &format!("{at}.rotation"),
        &format!("piece '{id}' rotation"),
        p.rotation,
        (-MAX_ANGLE_DEGREES, MAX_ANGLE_DEGREES),
        " degrees",
    );
    ok &= r.shape(
        &format!("{at}.footprint"),
        &format!("piece '{id}' footprint"),
        &p.footprint,
    );
    ok &= r.number(
        &format!("{at}.height"),
        &format!("piece '{id}' height"),
        p.height,
        (0.0, MAX_TERRAIN_HEIGHT_INCHES),
        "\"",
    );
    for (j, w) in p.walls.iter().enumerate() {
        let (path, what) = (
            format!("{at}.walls[{j}]"),
            format!("piece '{id}' wall {}", j + 1),
        );
        ok &= r.point(&format!("{path}.from"), &format!("{what} start"), w.from);
        ok &= r.point(&format!("{path}.to"), &format!("{what} end"), w.to);
        ok &= r.number(
            &format!("{path}.height"),
            &format!("{what} height"),
            w.height,
            (0.0, MAX_TERRAIN_HEIGHT_INCHES),
            "\"",
        );
        ok &= r.number(
            &format!("{path}.thickness"),
            &format!("{what} thickness"),
            w.thickness,
            (0.0, MAX_WALL_THICKNESS_INCHES),
            "\"",
        );
        for (k, win) in w.windows.iter().enumerate() {
            let (path, what) = (
                format!("{path}.windows[{k}]"),
                format!("{what} window {}", k + 1),
            );
            for (field, v) in [
                ("start", win.start),
                ("end", win.end),
                ("bottom", win.bottom),
                ("top", win.top),
            ] {
                ok &= r.finite(&format!("{path}.{field}"), &format!("{what} {field}"), v);
            }
        }
    }
    for (j, f) in p.floors.iter().enumerate() {
        let (path, what) = (
            format!("{at}.floors[{j}]"),
            format!("piece '{id}' floor {}", j + 1),
        );
        ok &= r.number(
            &format!("{path}.height"),
            &format!("{what} height"),
            f.height,
            (0.0, MAX_TERRAIN_HEIGHT_INCHES),
            "\"",
        );
        if let Some(area) = &f.area {
            ok &= r.shape(&format!("{path}.area"), &format!("{what} area"), area);
        }
    }
    ok
}

fn objectives(r: &mut Report, list: &[ObjectiveMarker]) {
    r.unique("objective", list.iter().map(|o| o.id.as_str()));
    for (i, o) in list.iter().enumerate() {
        let at = format!("objectives[{i}]");
        let what = format!("objective '{}'", o.id);
        if r.point(&format!("{at}.at"), &what, o.at) && !on_board(o.at.vec()) {
            r.fail_at(
                &format!("{at}.at"),
                format!("{what} at ({}, {}) is off the table", o.at.0, o.at.1),
            );
        }
        r.number(
            &format!("{at}.z"),
            &format!("{what} height"),
            o.z,
            (0.0, MAX_TERRAIN_HEIGHT_INCHES),
            "\"",
        );
    }
}

/// Checks the objective markers a scene places itself: ids unique, on the table, heights in
/// range.
pub fn scene_objectives(file: &Path, list: &[ObjectiveMarker]) -> Vec<DataError> {
    let mut r = Report {
        file,
        errors: Vec::new(),
    };
    objectives(&mut r, list);
    r.errors
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
    let mut finite = true;
    for (i, z) in data.zones.iter().enumerate() {
        if !(1..=2).contains(&z.player) {
            r.fail(format!(
                "zone '{}' is for player {}; players are 1 and 2",
                z.name, z.player
            ));
        }
        let what = format!("zone of player {}", z.player);
        let points_ok = z.area.iter().enumerate().fold(true, |ok, (k, p)| {
            r.point(
                &format!("zones[{i}].area[{k}]"),
                &format!("{what} point {}", k + 1),
                *p,
            ) && ok
        });
        finite &= points_ok;
        if points_ok {
            r.polygon(&what, &to_vecs(&z.area));
        }
    }
    if let ([a, b], true) = (data.zones.as_slice(), finite) {
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

/// Checks a secondary deck: at least one card, unique names, a hand of at least one, two
/// Fixed-capable cards.
pub fn secondary_deck(file: &Path, data: &SecondaryDeck) -> Vec<DataError> {
    let mut r = Report {
        file,
        errors: Vec::new(),
    };
    if data.cards.is_empty() {
        r.fail("a secondary deck needs at least one card");
    }
    if data.tactical_hand == 0 {
        r.fail("tactical_hand must be at least 1");
    }
    for (i, c) in data.cards.iter().enumerate() {
        if data.cards[..i]
            .iter()
            .any(|d| d.name.eq_ignore_ascii_case(&c.name))
        {
            r.fail(format!("two cards are named '{}'", c.name));
        }
    }
    if data.cards.iter().filter(|c| c.fixed).count() < 2 {
        r.fail("fewer than two cards carry the Fixed symbol: no player could play Fixed");
    }
    r.errors
}

/// Checks a mission file: battle rounds, objectives, scoring rounds, set-up rounds.
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
            | ScoringRule::HoldMore { from_round, .. }
            | ScoringRule::HoldEach { from_round, .. }
            | ScoringRule::HoldAtLeast { from_round, .. }
            | ScoringRule::Linchpin { from_round, .. }
            | ScoringRule::DestroyedThisRound { from_round, .. }
            | ScoringRule::DestroyedMoreThisRound { from_round, .. }
            | ScoringRule::Terraformed { from_round, .. }
            | ScoringRule::Guarding { from_round, .. }
            | ScoringRule::Hazards { from_round, .. } => *from_round,
            ScoringRule::Burned { .. } => 2,
        };
        if let ScoringRule::Hazards { bands, .. } = rule
            && (bands.is_empty()
                || bands.windows(2).any(|w| w[1].0 <= w[0].0)
                || bands.iter().any(|b| b.0 < 0.0))
        {
            r.fail("Hazards bands must be (inches, VP) pairs with rising distances from 0");
        }
        if from == 0 || from > data.battle_rounds {
            r.fail(format!(
                "a scoring rule starts in battle round {from}, but the mission has rounds 1..{}",
                data.battle_rounds
            ));
        }
    }
    for step in &data.setup {
        match *step {
            MissionSetup::Hazards { move_inches } if move_inches <= 0.0 => {
                r.fail("Hazards move_inches must be more than 0");
            }
            MissionSetup::Ritual {
                within_inches,
                exactly_inches,
                clear_inches,
            } if within_inches < 0.0 || exactly_inches <= clear_inches || clear_inches < 0.0 => {
                r.fail("Ritual distances: within_inches 0 or more, exactly_inches more than clear_inches");
            }
            _ => {}
        }
        if let MissionSetup::SupplyDrop {
            first_removed,
            second_removed,
        } = step
            && (*first_removed < 2
                || *second_removed <= *first_removed
                || *second_removed > data.battle_rounds)
        {
            r.fail(format!(
                "Supply Drop removes objectives at the start of rounds {first_removed} and {second_removed}: they must be rising rounds from 2 to {}",
                data.battle_rounds
            ));
        }
    }
    r.errors
}
