//! Data files: every shipped file validates and round-trips through serde; hand-made bad files
//! give clear errors naming the file, the line and column or the rule broken; the CLI reports
//! them and exits 1.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Serialize;
use serde::de::DeserializeOwned;
use wartable::data::army::{ArmyFile, DatasheetsFile};
use wartable::data::layout::LayoutFile;
use wartable::data::scene::SceneFile;
use wartable::data::{FileKind, load_scene, source, validate_file};
use wartable::geometry::Vec2;
use wartable::rules::deployment::DeploymentMap;
use wartable::rules::mission::Mission;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn ron_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(ron_files(&path));
        } else if path.extension().is_some_and(|e| e == "ron") {
            out.push(path);
        }
    }
    out.sort();
    out
}

#[test]
fn every_scene_file_validates() {
    let files = ron_files(&root().join("scenes"));
    // 8 layouts, 6 deployment maps, 1 mission, 2 datasheet files, 2 armies, 9 scenes.
    let expected = 8 + 6 + 1 + 2 + 2 + 9;
    assert!(files.len() >= expected, "only {} files", files.len());
    for f in files {
        if let Err(e) = validate_file(&f) {
            panic!("{e}");
        }
    }
}

fn round_trip<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(file: &Path) {
    let text = std::fs::read_to_string(file).unwrap();
    let first: T = source::parse(file, &text).unwrap();
    let config = ron::ser::PrettyConfig::default().struct_names(true);
    let written = ron::ser::to_string_pretty(&first, config).unwrap();
    let second: T = source::parse(file, &written)
        .unwrap_or_else(|e| panic!("re-reading {}: {e}\n{written}", file.display()));
    assert_eq!(first, second, "{} changed in a round trip", file.display());
}

#[test]
fn every_scene_file_round_trips_through_serde() {
    let mut kinds = std::collections::HashSet::new();
    for f in ron_files(&root().join("scenes")) {
        let text = std::fs::read_to_string(&f).unwrap();
        let kind = FileKind::sniff(&f, &text).unwrap();
        kinds.insert(format!("{kind:?}"));
        match kind {
            FileKind::Datasheets => round_trip::<DatasheetsFile>(&f),
            FileKind::Army => round_trip::<ArmyFile>(&f),
            FileKind::Layout => round_trip::<LayoutFile>(&f),
            FileKind::DeploymentMap => round_trip::<DeploymentMap>(&f),
            FileKind::Mission => round_trip::<Mission>(&f),
            FileKind::Scene => round_trip::<SceneFile>(&f),
            FileKind::SecondaryDeck => round_trip::<wartable::rules::secondary::SecondaryDeck>(&f),
            FileKind::BaseSizes => round_trip::<wartable::data::bsdata::BaseSizes>(&f),
            FileKind::HullSizes => round_trip::<wartable::data::hulls::HullSizes>(&f),
            FileKind::FactionRules => round_trip::<wartable::data::faction_rules::FactionRules>(&f),
        }
    }
    assert_eq!(kinds.len(), 10, "every kind is shipped: {kinds:?}");
}

#[test]
fn embedded_scene_files_match_the_disk() {
    let files = source::embedded_files();
    assert_eq!(files.len(), ron_files(&root().join("scenes")).len());
    for (path, text) in files {
        assert_eq!(
            &std::fs::read_to_string(root().join(path)).unwrap(),
            text,
            "{path}"
        );
    }
}

#[test]
fn default_scene_loads_from_anywhere() {
    // The built-in default scene (what the name `default` means) loads from the copy built
    // into the binary, wherever the program runs; a path that is not on disk is an error.
    let scene = load_scene(Path::new(wartable::data::source::DEFAULT_SCENE)).unwrap();
    assert!(load_scene(Path::new("/nonexistent/scenes/default.ron")).is_err());
    assert_eq!(scene.layout.pieces.len(), 16);
    assert_eq!(scene.armies.len(), 2);
}

#[test]
fn every_scene_sets_each_model_wholly_within_its_zone_without_overlaps() {
    for f in ron_files(&root().join("scenes")) {
        let text = std::fs::read_to_string(&f).unwrap();
        if FileKind::sniff(&f, &text).unwrap() != FileKind::Scene {
            continue;
        }
        let scene = load_scene(&f).unwrap();
        let mut placed: Vec<(wartable::geometry::Base, Vec2, f32)> = Vec::new();
        for army in &scene.armies {
            let zone = scene.deployment.zone_of(army.player).unwrap();
            for unit in &army.units {
                for m in &unit.models {
                    let base = m.characteristics.base;
                    let c = m.position.truncate();
                    assert!(
                        base.wholly_within(c, m.facing, &zone),
                        "{}: {} model at {c} is not wholly within player {}'s zone",
                        f.display(),
                        unit.id,
                        army.player
                    );
                    for (b, q, g) in &placed {
                        assert!(
                            !wartable::geometry::bases_overlap((&base, c, m.facing), (b, *q, *g)),
                            "{}: {} overlaps a model at {q}",
                            f.display(),
                            unit.id
                        );
                    }
                    placed.push((base, c, m.facing));
                }
            }
        }
        let models: usize = scene
            .armies
            .iter()
            .flat_map(|a| &a.units)
            .map(|u| u.models.len())
            .sum();
        assert_eq!(placed.len(), models);
    }
}

/// (bad file, fragments the error must contain).
const BAD_FILES: &[(&str, &[&str])] = &[
    (
        "area-unknown-piece.ron",
        &[
            "area-unknown-piece.ron:5:",
            "area 'a' names piece 'nope'",
            "categories names piece 'ghost'",
        ],
    ),
    ("missing-comma.ron", &["missing-comma.ron:6:9:", "comma"]),
    (
        "misspelt-field.ron",
        &["misspelt-field.ron:7:13:", "toughnes", "toughness"],
    ),
    (
        "unknown-datasheet.ron",
        &[
            "unknown-datasheet.ron:",
            "unit 'boyz' refers to unknown datasheet 'Boy'",
        ],
    ),
    ("wrong-kind.ron", &["wrong-kind.ron:2:1:", "found 'Armee'"]),
    ("empty.ron", &["empty.ron:1:1:", "expected a data file"]),
    (
        "bad-dice.ron",
        &["bad-dice.ron:16:", "'D7' is not a dice expression"],
    ),
    (
        "piece-off-board.ron",
        &["piece 'ruin-1' footprint leaves the 60\" x 44\" table"],
    ),
    (
        "self-crossing-footprint.ron",
        &["piece 'crater-1' footprint crosses itself"],
    ),
    (
        "window-outside-wall.ron",
        &["piece 'ruin-1' wall 1 window 1", "does not fit"],
    ),
    (
        "one-zone.ron",
        &["player 2 must have exactly one zone, has 0"],
    ),
    (
        "too-many-models.ron",
        &["unit 'boyz' has 31 models; Boyz takes 10 to 20"],
    ),
    (
        "scoring-after-last-round.ron",
        &["battle round 6", "rounds 1..5"],
    ),
    (
        "missing-layout.ron",
        &["no-such-layout.ron: cannot read file"],
    ),
    (
        "overlapping-models.ron",
        &["model 1 of 'ballistus'", "overlaps"],
    ),
    ("skill-missing.ron", &["weapon 'Rifle' has no BS/WS"]),
    (
        "leader-wrong-unit.ron",
        &["unit 'warboss' (Warboss) cannot lead 'trukk'"],
    ),
    (
        "closed-polygon.ron",
        &["piece 'low-1' footprint repeats a point"],
    ),
    (
        "three-characters.ron",
        &[
            "three-characters.ron:",
            "unit 'intercessors' has 3 Leaders attached (captain, lieutenant-1, lieutenant-2)",
            "no more than two",
        ],
    ),
];

#[test]
fn bad_files_name_the_file_and_the_problem() {
    let dir = root().join("tests/bad");
    assert_eq!(
        BAD_FILES.len(),
        ron_files(&dir).len(),
        "every bad file is listed"
    );
    for (name, fragments) in BAD_FILES {
        let err = validate_file(&dir.join(name)).expect_err(name).to_string();
        for fragment in *fragments {
            assert!(err.contains(fragment), "{name}: '{err}' lacks '{fragment}'");
        }
    }
}

#[test]
fn cli_validate_prints_the_error_and_exits_1() {
    let out = Command::new(env!("CARGO_BIN_EXE_wartable"))
        .current_dir(root())
        .args([
            "validate",
            "scenes/default.ron",
            "tests/bad/unknown-datasheet.ron",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.contains("scenes/default.ron: ok"), "{stdout}");
    assert!(
        stderr.contains(
            "tests/bad/unknown-datasheet.ron: unit 'boyz' refers to unknown datasheet 'Boy'"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("1 of 2 files failed"), "{stderr}");
}

#[test]
fn cli_scene_json_lists_units_models_and_terrain() {
    let out = Command::new(env!("CARGO_BIN_EXE_wartable"))
        .current_dir(root())
        .args(["scene", "scenes/default.ron", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let scene = load_scene(&root().join("scenes/default.ron")).unwrap();
    let units: usize = scene.armies.iter().map(|a| a.units.len()).sum();
    let models: usize = scene
        .armies
        .iter()
        .flat_map(|a| &a.units)
        .map(|u| u.models.len())
        .sum();
    assert_eq!(json["counts"]["units"], units);
    assert_eq!(json["counts"]["models"], models);
    assert_eq!(json["counts"]["terrain_pieces"], 16);
    assert_eq!(json["terrain"].as_array().unwrap().len(), 16);
    let redemptor = json["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"] == "redemptor")
        .unwrap();
    assert_eq!(redemptor["player"], 1);
    assert_eq!(redemptor["characteristics"]["T"], 10);
    assert!(redemptor["models"][0]["position"].as_array().unwrap().len() == 3);
    assert!(
        redemptor["weapons"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["damage"].is_string())
    );
}

#[test]
fn cli_scene_of_a_missing_file_fails_cleanly() {
    let out = Command::new(env!("CARGO_BIN_EXE_wartable"))
        .args(["scene", "/no/such/scene.ron", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/scene.ron: cannot read file"));
}

fn cli_json(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_wartable"))
        .current_dir(root())
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn cli_los_behind_a_ruin_footprint_names_the_ruin() {
    let v = cli_json(&[
        "los",
        "tests/scenes/ruin-case.ron",
        "--observer",
        "eliminators#0",
        "--target",
        "nobz#2",
        "--json",
    ]);
    assert_eq!(v["model_visible"], false);
    assert_eq!(v["unit_visible"], false);
    assert_eq!(v["witness"], serde_json::Value::Null);
    assert_eq!(v["blocked_by"]["blocker"]["kind"], "footprint");
    assert_eq!(v["blocked_by"]["blocker"]["piece"], "ruin-1");
}

#[test]
fn cli_los_behind_a_ruin_wall_names_the_wall() {
    let v = cli_json(&[
        "los",
        "tests/scenes/ruin-case.ron",
        "--observer",
        "eliminators",
        "--target",
        "warboss",
        "--json",
    ]);
    assert_eq!(v["unit_visible"], false);
    assert_eq!(
        v["model_visible"],
        serde_json::Value::Null,
        "units, not single models"
    );
    assert_eq!(v["blocked_by"]["blocker"]["kind"], "terrain");
    assert_eq!(v["blocked_by"]["blocker"]["part"], "wall");
}

#[test]
fn cli_los_into_a_ruin_is_visible_with_cover_and_a_witness() {
    let v = cli_json(&[
        "los",
        "tests/scenes/ruin-case.ron",
        "--observer",
        "eliminators",
        "--target",
        "deff-dread-1",
        "--json",
    ]);
    assert_eq!(v["unit_visible"], true);
    assert_eq!(v["benefit_of_cover"], true);
    assert!(
        v["cover_reason"]
            .as_str()
            .unwrap()
            .contains("wholly within ruin-1")
    );
    let witness = v["witness"].as_array().unwrap();
    assert_eq!(witness.len(), 2);
    assert_eq!(witness[0].as_array().unwrap().len(), 3);
    assert_eq!(v["blocked_by"], serde_json::Value::Null);
}

#[test]
fn cli_measure_gives_the_closest_distance_and_its_parts() {
    let v = cli_json(&[
        "measure",
        "tests/scenes/ruin-case.ron",
        "--from",
        "eliminators#0",
        "--to",
        "nobz#0",
        "--json",
    ]);
    // Centres 17" apart along x, 2" along y; Eliminators on 40 mm, Nobz on 32 mm bases.
    let expected = (17.0f64.powi(2) + 2.0f64.powi(2)).sqrt() - (40.0 + 32.0) / 25.4 / 2.0;
    assert!(
        (v["distance"].as_f64().unwrap() - expected).abs() < 1e-3,
        "{v}"
    );
    assert_eq!(v["vertical"], 0.0);
    assert_eq!(v["within_engagement_range"], false);
}

#[test]
fn cli_coherency_reports_a_coherent_unit_and_rejects_an_unknown_one() {
    let v = cli_json(&[
        "coherency",
        "tests/scenes/ruin-case.ron",
        "--unit",
        "nobz",
        "--json",
    ]);
    assert_eq!(v["coherent"], true);
    assert_eq!(v["models"], 5);
    assert_eq!(v["breaking_models"].as_array().unwrap().len(), 0);
    let out = Command::new(env!("CARGO_BIN_EXE_wartable"))
        .current_dir(root())
        .args([
            "coherency",
            "tests/scenes/ruin-case.ron",
            "--unit",
            "nob",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown unit 'nob'"));
}
