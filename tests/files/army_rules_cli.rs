//! Army rules on the command line and in files (issue 52): `attack` against an Oath of Moment
//! target equals re-rolling failed hits; `rules` reports statuses and totals; a malformed
//! effect is an error at its file, line and column.

use std::process::Command;

fn wartable(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_wartable"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run wartable");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn attack_json(extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "attack",
        "default",
        "--attacker",
        "hellblasters",
        "--weapon",
        "plasma incinerator - standard",
        "--target",
        "nobz",
        "--distance",
        "20",
        "--json",
    ];
    args.extend(extra);
    let (rc, out, err) = wartable(&args);
    assert_eq!(rc, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

fn distribution(v: &serde_json::Value) -> Vec<f64> {
    ["wounds_lost", "models_destroyed"]
        .iter()
        .flat_map(|k| v[k].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()))
        .collect()
}

#[test]
fn an_oath_of_moment_target_is_attacked_as_with_failed_hits_rerolled() {
    let oath = attack_json(&["--choose", "Oath of Moment"]);
    let reroll = attack_json(&["--reroll-hits", "failed"]);
    let plain = attack_json(&[]);
    assert_eq!(oath["rules"], serde_json::json!(["Oath of Moment"]));
    let (a, b, c) = (
        distribution(&oath),
        distribution(&reroll),
        distribution(&plain),
    );
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert!((x - y).abs() < 1e-12, "{a:?}\n{b:?}");
    }
    assert!(
        a.iter().zip(&c).any(|(x, y)| (x - y).abs() > 1e-3),
        "the Oath changes it"
    );
    // Another pick than the target changes nothing.
    let elsewhere = attack_json(&["--choose", "Oath of Moment=lootas"]);
    assert_eq!(distribution(&elsewhere), c);
    // The core rules only: no rule of either army.
    let core = attack_json(&["--choose", "Oath of Moment", "--core-only"]);
    assert_eq!(distribution(&core), c);
}

#[test]
fn a_detachment_stratagem_and_a_datasheet_ability_change_the_attack() {
    // Armour of Contempt on the Redemptor (its army's Detachment) worsens the rokkits' AP;
    // Duty Eternal reduces their Damage.
    let base = |extra: &[&str]| {
        let mut args = vec![
            "attack",
            "default",
            "--attacker",
            "deff-dread-1",
            "--weapon",
            "rokkit launcha",
            "--target",
            "redemptor",
            "--distance",
            "20",
            "--json",
        ];
        args.extend(extra);
        let (rc, out, err) = wartable(&args);
        assert_eq!(rc, 0, "{err}");
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    let with = base(&[]);
    let contempt = base(&["--stratagem", "Armour of Contempt"]);
    let core = base(&["--core-only"]);
    let mean = |v: &serde_json::Value| v["expected_wounds_lost"].as_f64().unwrap();
    assert!(
        mean(&with) < mean(&core),
        "Duty Eternal: {} {}",
        mean(&with),
        mean(&core)
    );
    assert!(mean(&contempt) < mean(&with));
    assert_eq!(with["rules"], serde_json::json!(["Duty Eternal"]));
    let (rc, _, err) = wartable(&[
        "attack",
        "default",
        "--attacker",
        "deff-dread-1",
        "--weapon",
        "rokkit launcha",
        "--target",
        "redemptor",
        "--distance",
        "20",
        "--stratagem",
        "Made Up",
    ]);
    assert_eq!(rc, 1);
    assert!(err.contains("has a Stratagem 'Made Up'"), "{err}");
}

#[test]
fn rules_reports_statuses_and_totals() {
    let (rc, out, err) = wartable(&["rules", "default", "--json"]);
    assert_eq!(rc, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let armies = v["armies"].as_array().unwrap();
    assert_eq!(armies[0]["detachment"], "Gladius Task Force");
    assert_eq!(armies[1]["detachment"], "War Horde");
    let rules: Vec<(&str, &str)> = armies[1]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["name"].as_str().unwrap(), r["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        rules,
        vec![("Waaagh!", "applied"), ("Get Stuck In", "applied")]
    );
    let t = &v["totals"];
    let n = |k: &str| t[k].as_u64().unwrap();
    assert_eq!(
        n("instances"),
        n("applied") + n("manual") + n("list_building")
    );
    assert!(n("applied") > n("manual"));
    let (rc, out, _) = wartable(&["rules", "--all", "--json"]);
    assert_eq!(rc, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["factions"].as_array().unwrap().len() >= 40);
    assert!(v["totals"]["instances"].as_u64().unwrap() > 4000);
    assert!(v["army_rules"]["applied"].as_u64().unwrap() >= 7);
}

#[test]
fn a_malformed_effect_is_an_error_at_its_line_and_column() {
    let dir = std::env::temp_dir().join(format!("wartable-bad-effect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/rules/orks.ron"),
    )
    .unwrap();
    // A +9 Strength (past the +-6 limit) and, in a second file, an unknown primitive.
    let bad = text.replacen(
        "does: [Strength(1), Attacks(1)]",
        "does: [Strength(9), Attacks(1)]",
        1,
    );
    let file = dir.join("orks.ron");
    std::fs::write(&file, &bad).unwrap();
    let (rc, _, err) = wartable(&["validate", file.to_str().unwrap()]);
    assert_eq!(rc, 1);
    let line = bad.lines().position(|l| l.contains("Strength(9)")).unwrap() + 1;
    assert!(
        err.contains(&format!("orks.ron:{line}:")) && err.contains("Strength +9"),
        "{err}"
    );
    let unknown = text.replacen("Attacks(1)]", "Atacks(1)]", 1);
    std::fs::write(&file, &unknown).unwrap();
    let (rc, _, err) = wartable(&["validate", file.to_str().unwrap()]);
    assert_eq!(rc, 1);
    let line = unknown.lines().position(|l| l.contains("Atacks")).unwrap() + 1;
    assert!(err.contains(&format!("orks.ron:{line}:")), "{err}");
    // In a datasheets file, the same.
    let sheets = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/datasheets/orks.ron"),
    )
    .unwrap()
    .replacen("does: [HitRoll(1)]", "does: [HitRoll(7)]", 1);
    let file = dir.join("sheets.ron");
    std::fs::write(&file, &sheets).unwrap();
    let (rc, _, err) = wartable(&["validate", file.to_str().unwrap()]);
    assert_eq!(rc, 1);
    let line = sheets
        .lines()
        .position(|l| l.contains("HitRoll(7)"))
        .unwrap()
        + 1;
    assert!(err.contains(&format!("sheets.ron:{line}:")), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
