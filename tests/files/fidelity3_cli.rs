//! Files and the command line against the rules: validate refuses a second Leader on a
//! Bodyguard unit unless a datasheet allows it (Core Rules: Leader), and `wartable attack`
//! measured on the table withholds PRECISION when no CHARACTER is visible (Core Rules:
//! Precision), as the game does.

use std::path::PathBuf;
use std::process::Command;

use wartable::data::validate_file;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh empty folder for this test's files.
fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wartable-fidelity3-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A file of the repository, as an absolute path a file in a temporary folder can name.
fn shipped(path: &str) -> String {
    root().join(path).to_string_lossy().into_owned()
}

fn wartable(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_wartable"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run wartable");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// An Ultramarines army file with `leaders` (id, datasheet) all attached to the Intercessors.
fn army_with_leaders(leaders: &[(&str, &str)]) -> String {
    let mut units = String::from(
        "        Unit(id: \"intercessors\", datasheet: \"Intercessor Squad\", models: 10),\n",
    );
    for (id, sheet) in leaders {
        units.push_str(&format!(
            "        Unit(id: \"{id}\", datasheet: \"{sheet}\", models: 1, attached_to: \"intercessors\"),\n"
        ));
    }
    format!(
        "Army(\n    name: \"Leaders\",\n    faction: \"Adeptus Astartes\",\n    datasheets: [\"{}\"],\n    units: [\n{units}    ],\n)\n",
        shipped("scenes/datasheets/space-marines.ron")
    )
}

/// Finding 14: two Captains cannot both lead the Intercessors (no rule lets a Captain join a
/// unit another Captain leads); validate names the file and the rule. A Lieutenant, whose
/// datasheet lets it join a unit a Captain leads, may.
#[test]
fn validate_refuses_a_second_leader_that_no_rule_allows() {
    let dir = temp_dir("leaders");
    let two_captains = dir.join("two-captains.ron");
    std::fs::write(
        &two_captains,
        army_with_leaders(&[("captain", "Captain"), ("captain-2", "Captain")]),
    )
    .unwrap();
    let err = validate_file(&two_captains)
        .expect_err("two Captains on one unit")
        .to_string();
    for fragment in [
        "two-captains.ron",
        "intercessors",
        "captain, captain-2",
        "only one Leader",
    ] {
        assert!(err.contains(fragment), "'{err}' lacks '{fragment}'");
    }
    let path = two_captains.to_string_lossy().into_owned();
    let (rc, _, stderr) = wartable(&["validate", path.as_str()]);
    assert_eq!(rc, 1, "{stderr}");
    assert!(stderr.contains("only one Leader"), "{stderr}");
    let captain_and_lieutenant = dir.join("captain-and-lieutenant.ron");
    std::fs::write(
        &captain_and_lieutenant,
        army_with_leaders(&[("captain", "Captain"), ("lieutenant", "Lieutenant")]),
    )
    .unwrap();
    if let Err(e) = validate_file(&captain_and_lieutenant) {
        panic!("a Lieutenant may join a unit a Captain leads: {e}");
    }
}

/// The Eliminators west of the slugga Boyz, the Warboss leading them hidden behind the ruin's
/// wall (x = 30): the set-up of the engine test precision_needs_a_visible_character, as a
/// scene with only those units.
fn hidden_warboss_scene(dir: &std::path::Path) -> PathBuf {
    let marines = dir.join("marines.ron");
    std::fs::write(
        &marines,
        format!(
            "Army(name: \"Snipers\", faction: \"Adeptus Astartes\", datasheets: [\"{}\"], units: [\n\
             Unit(id: \"eliminators\", datasheet: \"Eliminator Squad\", models: 3),\n])\n",
            shipped("scenes/datasheets/space-marines.ron")
        ),
    )
    .unwrap();
    let orks = dir.join("orks.ron");
    std::fs::write(
        &orks,
        format!(
            "Army(name: \"Mob\", faction: \"Orks\", datasheets: [\"{}\"], units: [\n\
             Unit(id: \"warboss\", datasheet: \"Warboss\", models: 1, attached_to: \"boyz-mob\",\n\
             wargear: [(\"Kombi-weapon\", 1), (\"Twin slugga\", 1), (\"Big choppa\", 1), (\"Attack squig\", 1)]),\n\
             Unit(id: \"boyz-mob\", datasheet: \"Boyz\", models: 20, loadouts: [\n\
             Loadout(models: 1, profile: \"Boss Nob\", wargear: [\"Slugga\", \"Big choppa\"]),\n\
             Loadout(models: 19, wargear: [\"Slugga\", \"Choppa\"]),\n]),\n])\n",
            shipped("scenes/datasheets/orks.ron")
        ),
    )
    .unwrap();
    let boyz: Vec<String> = (0..20)
        .map(|m| {
            let (col, row) = ((m % 4) as f32, (m / 4) as f32);
            format!("(x: {}, y: {})", 22.0 + 1.3 * col, 16.0 + 1.3 * row)
        })
        .collect();
    let scene = dir.join("hidden-warboss.ron");
    std::fs::write(
        &scene,
        format!(
            "Scene(\n    name: \"Hidden Warboss\",\n    layout: \"{}\",\n    deployment: \"{}\",\n    mission: \"{}\",\n    armies: [\n\
             SceneArmy(player: 1, army: \"{}\", placements: [\n\
             Placement(unit: \"eliminators\", models: [(x: 10.0, y: 21.0), (x: 12.0, y: 21.0), (x: 14.0, y: 21.0)]),\n]),\n\
             SceneArmy(player: 2, army: \"{}\", placements: [\n\
             Placement(unit: \"boyz-mob\", models: [{}]),\n\
             Placement(unit: \"warboss\", models: [(x: 31.5, y: 22.0)]),\n]),\n],\n)\n",
            shipped("tests/scenes/open-field-layout.ron"),
            shipped("scenes/deployments/search-and-destroy.ron"),
            shipped("scenes/missions/only-war.ron"),
            marines.to_string_lossy(),
            orks.to_string_lossy(),
            boyz.join(", ")
        ),
    )
    .unwrap();
    scene
}

/// Finding 15: measured on the table, `wartable attack` gives a PRECISION weapon no way to the
/// Warboss when no Eliminator can see it: the weapon notes why and no wound is allocated to it.
/// At a what-if `--distance`, with no positions to measure, PRECISION stands.
#[test]
fn attack_withholds_precision_from_a_character_no_attacker_sees() {
    let dir = temp_dir("precision");
    let scene = hidden_warboss_scene(&dir);
    let scene = scene.to_string_lossy().into_owned();
    let base = [
        "attack",
        scene.as_str(),
        "--attacker",
        "eliminators",
        "--weapon",
        "bolt sniper rifle",
        "--target",
        "boyz-mob",
        "--roll",
        "--seed",
        "3",
        "--json",
    ];
    let (rc, out, err) = wartable(&base);
    assert_eq!(rc, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let events = v["events"].as_array().unwrap();
    assert_eq!(events[0]["event"], "weapon");
    let notes: Vec<&str> = events[0]["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n.as_str())
        .collect();
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("PRECISION: no CHARACTER")),
        "{notes:?}"
    );
    assert!(
        !events
            .iter()
            .any(|e| e["event"] == "allocated" && e["name"] == "warboss#0"),
        "{events:#?}"
    );
    let mut what_if = base.to_vec();
    what_if.extend(["--distance", "20"]);
    let (rc, out, err) = wartable(&what_if);
    assert_eq!(rc, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let notes = v["events"][0]["notes"].to_string();
    assert!(!notes.contains("PRECISION: no CHARACTER"), "{notes}");
}
