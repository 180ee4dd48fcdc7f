//! Hostile input: absurd numbers and sizes in data files and game commands are refused with an
//! error naming the file, the place (line and column, or the field) and the limit broken, never
//! a crash, a 40 GB allocation or a silent pass. Each test copies the shipped files into a
//! scratch folder, changes one value and loads the result.

use crate::battle;

use std::path::{Path, PathBuf};

use battle::{advance_to, deploy_all, deployed_game, isolate, open_field, pos, put_line, rejected};
use wartable::data::{load_scene, validate_file};
use wartable::game::{Command, Game, ModelPath, Placement, ReserveKind, Rule};
use wartable::rules::constants::{
    MAX_MODELS_PER_UNIT, MAX_MOVE_INCHES, MAX_POINTS_PER_UNIT, MAX_WEAPON_RANGE_INCHES,
};
use wartable::rules::movement::MoveMode;
use wartable::rules::phase::{Phase, Stage};

/// A scratch copy of `scenes/` and `tests/scenes/`, removed when dropped.
struct Sandbox(PathBuf);

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// (line, column), both from 1, of byte `offset` in `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap().chars().count() + 1;
    (line, column)
}

impl Sandbox {
    fn new(name: &str) -> Sandbox {
        let dir =
            std::env::temp_dir().join(format!("wartable-hostile-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        copy_dir(&root.join("scenes"), &dir.join("scenes"));
        copy_dir(&root.join("tests/scenes"), &dir.join("tests/scenes"));
        Sandbox(dir)
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.0.join(rel)
    }

    /// Replaces the first `from` after `anchor` in file `rel` with `to`; returns the line and
    /// column where `to` starts.
    fn edit(&self, rel: &str, anchor: &str, from: &str, to: &str) -> (usize, usize) {
        let file = self.path(rel);
        let text = std::fs::read_to_string(&file).unwrap();
        let a = text
            .find(anchor)
            .unwrap_or_else(|| panic!("{rel} has no '{anchor}'"));
        let at = a + text[a..]
            .find(from)
            .unwrap_or_else(|| panic!("{rel} has no '{from}' after '{anchor}'"));
        let edited = format!("{}{to}{}", &text[..at], &text[at + from.len()..]);
        std::fs::write(&file, edited).unwrap();
        line_column(&text, at)
    }

    fn write(&self, rel: &str, text: &str) {
        std::fs::write(self.path(rel), text).unwrap();
    }

    /// The error `validate` gives for file `rel`, which must fail.
    fn invalid(&self, rel: &str) -> String {
        match validate_file(&self.path(rel)) {
            Ok(v) => panic!("{rel} validated: {}", v.summary),
            Err(e) => e.to_string(),
        }
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn assert_has(err: &str, fragments: &[&str]) {
    for f in fragments {
        assert!(err.contains(f), "'{err}' lacks '{f}'");
    }
}

const MARINES: &str = "scenes/datasheets/space-marines.ron";
const ULTRAMARINES: &str = "scenes/armies/ultramarines.ron";
const INTERCESSORS: &str = "name: \"Intercessor Squad\"";

// --- 1. Unit sizes -------------------------------------------------------------------------

#[test]
fn a_billion_models_in_a_unit_is_an_error_not_a_40_gb_allocation() {
    let s = Sandbox::new("billion-models");
    let (line, col) = s.edit(
        ULTRAMARINES,
        "id: \"intercessors\", datasheet: \"Intercessor Squad\", models: ",
        "10",
        "1000000000",
    );
    let err = s.invalid(ULTRAMARINES);
    assert_has(
        &err,
        &[
            &format!("ultramarines.ron:{line}:{col}: units[1].models:"),
            "unit 'intercessors' has 1000000000 models; Intercessor Squad takes 5 to 10",
        ],
    );
    // A scene using the army fails the same way.
    let err = s.invalid("scenes/default.ron");
    assert_has(&err, &["1000000000 models"]);
}

#[test]
fn a_datasheet_unit_size_above_the_cap_is_an_error() {
    let s = Sandbox::new("unit-size-cap");
    let (line, col) = s.edit(
        MARINES,
        INTERCESSORS,
        "unit_size: (5, 10)",
        "unit_size: (5, 4000000000)",
    );
    s.edit(
        ULTRAMARINES,
        "id: \"intercessors\", datasheet: \"Intercessor Squad\", models: ",
        "10",
        "4000000000",
    );
    let err = s.invalid(MARINES);
    // The value 4000000000 starts 15 columns into "unit_size: (5, 4000000000)".
    assert_has(
        &err,
        &[
            &format!(
                "space-marines.ron:{line}:{}: datasheets[2].unit_size.1:",
                col + 15
            ),
            &format!("no unit may have more than {MAX_MODELS_PER_UNIT}"),
        ],
    );
    let err = s.invalid(ULTRAMARINES);
    assert_has(&err, &["space-marines.ron:", "unit_size"]);
}

// --- 2. Numbers in data files ----------------------------------------------------------------

#[test]
fn a_move_that_is_not_a_finite_number_in_range_is_an_error_at_its_line_and_column() {
    for bad in ["NaN", "inf", "-inf", "1e30", "-6", "1e40"] {
        let s = Sandbox::new(&format!("move-{bad}"));
        let (line, col) = s.edit(
            MARINES,
            INTERCESSORS,
            "movement: 6",
            &format!("movement: {bad}"),
        );
        let err = s.invalid(MARINES);
        assert_has(
            &err,
            &[
                &format!(
                    "space-marines.ron:{line}:{}: datasheets[2].movement:",
                    col + 10
                ),
                "datasheet 'Intercessor Squad': Move",
                &format!("finite number from 0 to {MAX_MOVE_INCHES}"),
            ],
        );
        // The army and every scene using it fail too.
        assert_has(&s.invalid(ULTRAMARINES), &["Move"]);
        assert_has(&s.invalid("scenes/default.ron"), &["Move"]);
    }
}

#[test]
fn a_weapon_range_that_is_not_a_finite_number_in_range_is_an_error() {
    for bad in ["NaN", "inf", "1e30"] {
        let s = Sandbox::new(&format!("range-{bad}"));
        let (line, col) = s.edit(
            MARINES,
            "WeaponProfile(name: \"Bolt rifle\"",
            "range: 24",
            &format!("range: {bad}"),
        );
        let err = s.invalid(MARINES);
        assert_has(
            &err,
            &[
                &format!(
                    "space-marines.ron:{line}:{}: datasheets[2].ranged_weapons[0].range:",
                    col + 7
                ),
                "weapon 'Bolt rifle' range",
                &format!("from 0 to {MAX_WEAPON_RANGE_INCHES}"),
            ],
        );
    }
}

#[test]
fn absurd_characteristics_bases_and_abilities_are_errors_naming_the_field() {
    // (text after the Intercessor anchor, its replacement, the field path, a message fragment).
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "objective_control: 2",
            "objective_control: 200",
            "objective_control",
            "OC",
        ),
        ("base: Round(32)", "base: Round(NaN)", "base.0", "base"),
        ("base: Round(32)", "base: Round(1e30)", "base.0", "base"),
        ("base: Round(32)", "base: Oval(60, inf)", "base.1", "base"),
        (
            "base: Round(32)",
            "base: Hull(length: 1e9, width: 3)",
            "base.length",
            "hull",
        ),
        ("height: 1.65", "height: NaN", "height", "height"),
        ("height: 1.65", "height: 1e30", "height", "height"),
        (
            "unit_size: (5, 10),",
            "unit_size: (5, 10), core_abilities: [Scouts(1e30)],",
            "core_abilities[0]",
            "Scouts",
        ),
        (
            "unit_size: (5, 10),",
            "unit_size: (5, 10), transport_capacity: 4000000000,",
            "transport_capacity",
            "capacity",
        ),
    ];
    for (i, (from, to, field, fragment)) in cases.iter().enumerate() {
        let s = Sandbox::new(&format!("characteristic-{i}"));
        s.edit(MARINES, INTERCESSORS, from, to);
        let err = s.invalid(MARINES);
        assert_has(
            &err,
            &[
                &format!("datasheets[2].{field}"),
                fragment,
                "datasheet 'Intercessor Squad'",
            ],
        );
        let located = err
            .split("space-marines.ron:")
            .nth(1)
            .and_then(|rest| rest.split(':').next())
            .is_some_and(|line| line.parse::<usize>().is_ok());
        assert!(located, "no line number in '{err}'");
    }
}

#[test]
fn layout_numbers_must_be_finite_and_terrain_heights_sane() {
    const LAYOUT: &str = "tests/scenes/open-field-layout.ron";
    let cases: &[(&str, &str, &str)] = &[
        ("at: (28.5, 22)", "at: (NaN, 22)", "pieces[0].at.0"),
        ("rotation: 0", "rotation: inf", "pieces[0].rotation"),
        ("height: 5", "height: 1e30", "pieces[0].walls[0].height"),
        (
            "thickness: 0.25",
            "thickness: NaN",
            "pieces[0].walls[0].thickness",
        ),
        (
            "Floor(height: 3",
            "Floor(height: NaN",
            "pieces[0].floors[0].height",
        ),
        (
            "footprint: Rect(3, 8)",
            "footprint: Rect(3, inf)",
            "pieces[0].footprint.1",
        ),
    ];
    for (i, (from, to, field)) in cases.iter().enumerate() {
        let s = Sandbox::new(&format!("layout-{i}"));
        s.edit(LAYOUT, "Piece(", from, to);
        let err = s.invalid(LAYOUT);
        assert_has(&err, &["open-field-layout.ron:", field]);
        assert_has(&s.invalid("tests/scenes/open-field.ron"), &[field]);
    }
}

#[test]
fn objective_and_zone_positions_must_be_finite() {
    const MISSION: &str = "scenes/missions/only-war.ron";
    const MAP: &str = "scenes/deployments/search-and-destroy.ron";
    let s = Sandbox::new("objectives");
    let (line, col) = s.edit(MISSION, "id: \"centre\"", "at: (30, 22)", "at: (NaN, 22)");
    assert_has(
        &s.invalid(MISSION),
        &[&format!(
            "only-war.ron:{line}:{}: objectives[0].at.0:",
            col + 5
        )],
    );
    let s = Sandbox::new("objective-z");
    s.edit(
        MISSION,
        "id: \"centre\"",
        "at: (30, 22)",
        "at: (30, 22), z: 1e30",
    );
    assert_has(&s.invalid(MISSION), &["objectives[0].z:", "height"]);
    let s = Sandbox::new("zone-point");
    let (line, col) = s.edit(MAP, "Zone(player: 1", "(30, 13)", "(30, inf)");
    assert_has(
        &s.invalid(MAP),
        &[&format!(
            "search-and-destroy.ron:{line}:{}: zones[0].area[2].1:",
            col + 5
        )],
    );
}

#[test]
fn a_move_characteristic_that_is_not_a_number_lets_no_model_move() {
    let mut g = deployed_game(open_field());
    advance_to(&mut g, 1, Phase::Movement);
    isolate(&mut g, &[(1, "eliminators")]);
    put_line(&mut g, 1, "eliminators", 5.0, 30.0, 1.8);
    let a = g.army_of(1).unwrap();
    let u = g.find_unit(a, "eliminators").unwrap();
    for bad in [f32::NAN, f32::INFINITY] {
        // A scene built in code skips the data checks: the engine refuses on its own.
        g.scene.armies[a].units[u].datasheet_mut().movement = bad;
        let paths = (0..3)
            .map(|m| {
                let p = pos(&g, 1, "eliminators", m);
                ModelPath {
                    model: m,
                    unit: None,
                    path: vec![(p.x + 37.9, p.y, 0.0)],
                    facing: None,
                }
            })
            .collect();
        let r = rejected(
            &mut g,
            Command::Move {
                player: 1,
                unit: "eliminators".into(),
                mode: MoveMode::Normal,
                paths,
            },
        );
        assert_eq!(r.rule, Rule::Movement, "{r}");
    }
}

// --- 3. Placements in scenes and commands ---------------------------------------------------

const RUIN_CASE: &str = "tests/scenes/ruin-case.ron";

#[test]
fn scene_placements_must_be_finite_standing_and_clear_of_walls() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "(x: 20, y: 32)",
            "(x: 20, y: 32, z: NaN)",
            "armies[0].placements[0].models[0].z",
        ),
        (
            "(x: 20, y: 32)",
            "(x: 20, y: 32, z: -100)",
            "armies[0].placements[0].models[0].z",
        ),
        (
            "(x: 20, y: 32)",
            "(x: 20, y: 32, z: 1e30)",
            "armies[0].placements[0].models[0].z",
        ),
        (
            "(x: 20, y: 32)",
            "(x: 20, y: 32, facing: NaN)",
            "armies[0].placements[0].models[0].facing",
        ),
        (
            "(x: 20, y: 32)",
            "(x: inf, y: 32)",
            "armies[0].placements[0].models[0].x",
        ),
        // Astride the east wall of ruin-1 (x = 11.5, y 31.25..38.5).
        (
            "(x: 9, y: 35)",
            "(x: 11.5, y: 35)",
            "armies[1].placements[1].models[0]",
        ),
    ];
    for (i, (from, to, field)) in cases.iter().enumerate() {
        let s = Sandbox::new(&format!("scene-pose-{i}"));
        let (line, _) = s.edit(RUIN_CASE, "SceneArmy(", from, to);
        let err = s.invalid(RUIN_CASE);
        assert_has(&err, &[&format!("ruin-case.ron:{line}:"), field]);
    }
}

#[test]
fn a_scene_placing_one_unit_twice_fails_validation() {
    let s = Sandbox::new("scene-twice");
    s.edit(
        RUIN_CASE,
        "Placement(unit: \"warboss\"",
        "models: [(x: 9, y: 35)]),",
        "models: [(x: 9, y: 35)]),\n            Placement(unit: \"warboss\", models: [(x: 3, y: 40)]),",
    );
    let err = s.invalid(RUIN_CASE);
    assert_has(
        &err,
        &["armies[1].placements[2]", "'warboss' is placed twice"],
    );
}

/// A game in its Setup stage where player 1 deploys first.
fn setup_game() -> Game {
    (1..)
        .map(|seed| Game::start(open_field(), seed).0)
        .find(|g| g.active_player == 1)
        .unwrap()
}

fn place(model: usize, x: f32, y: f32, z: f32, facing: f32) -> Placement {
    Placement {
        model,
        unit: None,
        x,
        y,
        z,
        facing,
    }
}

#[test]
fn deployment_refuses_placements_off_the_table_not_numbers_or_twice() {
    let mut g = setup_game();
    let p = pos(&g, 1, "redemptor", 0);
    let deploy = |models: Vec<Placement>| Command::Deploy {
        player: 1,
        unit: "redemptor".into(),
        models,
        transport: None,
    };
    let bad = [
        place(0, p.x, p.y, f32::NAN, 0.0),
        place(0, p.x, p.y, -100.0, 0.0),
        place(0, p.x, p.y, 1e30, 0.0),
        place(0, p.x, p.y, 0.0, f32::NAN),
        place(0, p.x, p.y, 0.0, f32::INFINITY),
        place(0, 1e30, p.y, 0.0, 0.0),
        place(0, f32::NEG_INFINITY, p.y, 0.0, 0.0),
        place(0, p.x, -3.0, 0.0, 0.0),
    ];
    for b in bad {
        let what = format!("{b:?}");
        let r = rejected(&mut g, deploy(vec![b]));
        assert!(
            !r.rule.name().is_empty() && !r.reason.is_empty(),
            "{what}: {r}"
        );
    }
    let twice = vec![place(0, p.x, p.y, 0.0, 0.0), place(0, p.x, p.y, 0.0, 0.0)];
    let r = rejected(&mut g, deploy(twice));
    assert!(r.reason.contains("placed twice"), "{r}");
    // A model astride the ruin's wall (x = 30, y 18..26).
    let in_wall: Vec<Placement> = (0..3)
        .map(|m| place(m, 30.0, 19.0 + 2.5 * m as f32, 0.0, 0.0))
        .collect();
    let r = rejected(
        &mut g,
        Command::Deploy {
            player: 1,
            unit: "eliminators".into(),
            models: in_wall,
            transport: None,
        },
    );
    assert_eq!(r.rule, Rule::Terrain, "{r}");
    battle::accepted(&mut g, deploy(vec![]));
}

#[test]
fn reinforcements_refuse_placements_that_are_not_numbers_or_off_the_table() {
    let (mut g, _) = (1..)
        .map(|seed| Game::start(open_field(), seed))
        .find(|(g, _)| g.active_player == 1)
        .unwrap();
    battle::accepted(
        &mut g,
        Command::DeclareReserves {
            player: 1,
            unit: "eliminators".into(),
            reserve: ReserveKind::StrategicReserves,
        },
    );
    deploy_all(&mut g);
    while g.stage == Stage::Scouts {
        let p = g.active_player;
        battle::accepted(&mut g, Command::EndPhase { player: p });
    }
    while g.battle_round < 2 || g.active_player != 1 || g.phase != Phase::Movement {
        let p = g.active_player;
        battle::accepted(&mut g, Command::EndPhase { player: p });
    }
    let arrive = |bad: Placement| Command::SetUpReinforcements {
        player: 1,
        unit: "eliminators".into(),
        models: vec![
            bad,
            place(1, 32.0, 1.5, 0.0, 0.0),
            place(2, 34.0, 1.5, 0.0, 0.0),
        ],
    };
    for bad in [
        place(0, 30.0, 1.5, f32::NAN, 0.0),
        place(0, 30.0, 1.5, 0.0, f32::NAN),
        place(0, 30.0, 1e30, 0.0, 0.0),
        place(0, 30.0, 1.5, -100.0, 0.0),
    ] {
        let r = rejected(&mut g, arrive(bad));
        assert!(!r.rule.name().is_empty(), "{r}");
    }
    let r = rejected(&mut g, arrive(place(1, 32.0, 1.5, 0.0, 0.0)));
    assert!(r.reason.contains("placed twice"), "{r}");
}

fn move_eliminators(paths: Vec<ModelPath>) -> Command {
    Command::Move {
        player: 1,
        unit: "eliminators".into(),
        mode: MoveMode::Normal,
        paths,
    }
}

/// Player 1's Movement phase with only the Eliminators (and the anchors) on the table, in a
/// line from (x, y).
fn eliminators_at(x: f32, y: f32) -> Game {
    let mut g = deployed_game(open_field());
    advance_to(&mut g, 1, Phase::Movement);
    isolate(&mut g, &[(1, "eliminators")]);
    put_line(&mut g, 1, "eliminators", x, y, 1.8);
    g
}

#[test]
fn move_paths_refuse_points_that_are_not_numbers_off_the_table_or_too_many() {
    let mut g = eliminators_at(5.0, 30.0);
    let path = |points: Vec<(f32, f32, f32)>| ModelPath {
        model: 0,
        unit: None,
        path: points,
        facing: None,
    };
    let bad = [
        vec![(6.0, 30.0, f32::NAN)],
        vec![(6.0, 30.0, -100.0)],
        vec![(6.0, 30.0, 1e30)],
        vec![(1e30, 30.0, 0.0)],
        vec![(-2.0, 30.0, 0.0)],
        vec![(5.0, 30.0, -100.0), (6.0, 30.0, 0.0)],
        vec![(5.0, 1e30, 0.0), (6.0, 30.0, 0.0)],
        vec![(5.5, 30.0, 0.0); 100_000],
    ];
    for points in bad {
        let what = format!("{:?}", &points[..points.len().min(2)]);
        let r = rejected(&mut g, move_eliminators(vec![path(points)]));
        assert!(!r.rule.name().is_empty(), "{what}: {r}");
    }
    let r = rejected(
        &mut g,
        move_eliminators(vec![
            path(vec![(6.0, 30.0, 0.0)]),
            path(vec![(6.5, 30.0, 0.0)]),
        ]),
    );
    assert!(r.reason.contains("two paths"), "{r}");
}

// --- 4. Points ---------------------------------------------------------------------------------

#[test]
fn absurd_points_are_an_error_and_army_totals_do_not_overflow() {
    let s = Sandbox::new("points");
    let (line, col) = s.edit(
        MARINES,
        INTERCESSORS,
        "points: [(5, 80), (10, 160)]",
        "points: [(5, 80), (10, 4000000000)]",
    );
    let err = s.invalid(MARINES);
    assert_has(
        &err,
        &[
            &format!(
                "space-marines.ron:{line}:{}: datasheets[2].points[1].1:",
                col + 23
            ),
            &format!("{MAX_POINTS_PER_UNIT}"),
        ],
    );
    assert_has(&s.invalid(ULTRAMARINES), &["points"]);
}

#[test]
fn reserves_arithmetic_does_not_overflow_on_huge_points() {
    let mut g = setup_game();
    let a = g.army_of(1).unwrap();
    // A scene built in code skips the data checks: the Redemptor alone is almost u32::MAX
    // points, far over a quarter of the army.
    let u = g.find_unit(a, "redemptor").unwrap();
    g.scene.armies[a].units[u].points = Some(u32::MAX - 1000);
    let r = rejected(
        &mut g,
        Command::DeclareReserves {
            player: 1,
            unit: "redemptor".into(),
            reserve: ReserveKind::StrategicReserves,
        },
    );
    assert_eq!(r.rule, Rule::Reserves, "{r}");
    assert!(r.reason.contains("25%"), "{r}");
}

// --- 5. Leaders ----------------------------------------------------------------------------

#[test]
fn three_leaders_on_one_bodyguard_fail_validation_of_the_army_and_the_scene() {
    let s = Sandbox::new("three-leaders");
    let army = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad/three-characters.ron"),
    )
    .unwrap()
    .replace("../../scenes/datasheets/", "../datasheets/");
    s.write("scenes/armies/heroes.ron", &army);
    let scene = std::fs::read_to_string(s.path("scenes/default.ron"))
        .unwrap()
        .replace("armies/ultramarines.ron", "armies/heroes.ron");
    s.write("scenes/heroes.ron", &scene);
    for file in ["scenes/armies/heroes.ron", "scenes/heroes.ron"] {
        let err = s.invalid(file);
        assert_has(
            &err,
            &[
                "heroes.ron",
                "unit 'intercessors' has 3 Leaders attached",
                "no more than two",
            ],
        );
    }
    assert!(load_scene(&s.path("scenes/heroes.ron")).is_err());
}
