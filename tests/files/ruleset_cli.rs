//! `--ruleset 10|11` on the commands that load a scene: every JSON answer names its ruleset,
//! and the 11th answers differ where 11th edition does (shared/RULES-11e.md).

use std::process::Command;

fn wartable(args: &[&str]) -> (i32, serde_json::Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_wartable"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run wartable");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let json = serde_json::from_str(&stdout).unwrap_or(serde_json::Value::Null);
    (out.status.code().unwrap_or(-1), json, stderr)
}

const SIGHT: &str = "tests/scenes/eleventh-sight.ron";

fn los(target: &str, ruleset: &str) -> serde_json::Value {
    let (rc, v, err) = wartable(&[
        "los",
        SIGHT,
        "--observer",
        "eliminators",
        "--target",
        target,
        "--json",
        "--ruleset",
        ruleset,
    ]);
    assert_eq!(rc, 0, "{err}");
    v
}

#[test]
fn los_gives_the_eleventh_verdicts_with_their_evidence() {
    // Hidden: the Nobz in the barricades' area, more than 15" away.
    let v = los("nobz", "11");
    assert_eq!(v["ruleset"], "Eleventh");
    assert_eq!(v["unit_visible"], false);
    assert_eq!(v["blocked_by"]["blocker"]["kind"], "hidden");
    assert_eq!(v["blocked_by"]["blocker"]["range"], 15.0);
    let rule = v["blocked_by"]["rule"].as_str().unwrap();
    assert!(
        rule.starts_with("hidden: ") && rule.ends_with("\" > 15\""),
        "{rule}"
    );
    // Under 10th the same Nobz are seen (barricades 1" tall hide nothing of them).
    let v = los("nobz", "10");
    assert_eq!(v["ruleset"], "Tenth");
    assert_eq!(v["unit_visible"], true);
    // Obscuring: every line to the Lootas crosses the ruin's area.
    let v = los("lootas", "11");
    assert_eq!(v["blocked_by"]["blocker"]["kind"], "obscuring");
    assert_eq!(v["blocked_by"]["blocker"]["area"], "ruin-block");
    let v = los("lootas", "10");
    assert_eq!(v["blocked_by"]["blocker"]["kind"], "footprint");
}

#[test]
fn measure_coherency_and_scene_name_the_ruleset() {
    for (flag, name) in [("10", "Tenth"), ("11", "Eleventh")] {
        let (rc, v, err) = wartable(&[
            "measure",
            "default",
            "--from",
            "intercessors#0",
            "--to",
            "intercessors#1",
            "--json",
            "--ruleset",
            flag,
        ]);
        assert_eq!(rc, 0, "{err}");
        assert_eq!(v["ruleset"], name);
        // The automatic set-up keeps each ruleset's coherency (11th: the 9" span).
        let (rc, v, err) = wartable(&[
            "coherency",
            "default",
            "--unit",
            "boyz-mob",
            "--json",
            "--ruleset",
            flag,
        ]);
        assert_eq!(rc, 0, "{err}");
        assert_eq!(v["ruleset"], name);
        assert_eq!(v["coherent"], true);
        let (rc, v, err) = wartable(&["scene", "default", "--json", "--ruleset", flag]);
        assert_eq!(rc, 0, "{err}");
        assert_eq!(v["ruleset"], name);
    }
    let (rc, _, err) = wartable(&["scene", "default", "--json", "--ruleset", "12"]);
    assert_ne!(rc, 0);
    assert!(err.contains("not a ruleset"), "{err}");
}

#[test]
fn attack_under_eleventh_turns_cover_into_a_worse_ballistic_skill() {
    let attack = |ruleset: &str, cover: bool| {
        let mut args = vec![
            "attack",
            "default",
            "--attacker",
            "intercessors",
            "--weapon",
            "bolt rifle",
            "--target",
            "boyz-mob",
            "--distance",
            "10",
            "--json",
            "--core-only",
            "--ruleset",
            ruleset,
        ];
        if cover {
            args.push("--cover");
        }
        let (rc, v, err) = wartable(&args);
        assert_eq!(rc, 0, "{err}");
        v
    };
    let open = attack("11", false);
    let covered = attack("11", true);
    assert_eq!(covered["ruleset"], "Eleventh");
    // Boyz (Sv 5+) against the bolt rifle's AP -1 save on 6+: 10th cover improves that to 5+,
    // 11th costs hits instead.
    let tenth = attack("10", true);
    let tenth_open = attack("10", false);
    let mean = |v: &serde_json::Value| v["expected_wounds_lost"].as_f64().unwrap();
    assert!(mean(&covered) < mean(&open));
    assert!(mean(&tenth) < mean(&tenth_open));
    // Hits: 1/2 against 2/3 (11th's cover); saves failed: 4/6 against 5/6 (10th's cover).
    let ratio11 = mean(&covered) / mean(&open);
    let ratio10 = mean(&tenth) / mean(&tenth_open);
    assert!((ratio11 - 0.75).abs() < 1e-3, "{ratio11}");
    assert!((ratio10 - 0.8).abs() < 1e-3, "{ratio10}");
}

#[test]
fn run_records_the_ruleset_in_its_save_and_replay_plays_under_it() {
    let dir = std::env::temp_dir().join(format!("wartable-ruleset-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let commands = dir.join("commands.ron");
    // Whoever deploys first, one of the two is accepted (and the save written).
    std::fs::write(
        &commands,
        "[Deploy(player: 1, unit: \"intercessors\"), Deploy(player: 2, unit: \"boyz-mob\")]",
    )
    .unwrap();
    let save = dir.join("game.save.ron");
    let (rc, v, err) = wartable(&[
        "run",
        SIGHT,
        "--commands",
        commands.to_str().unwrap(),
        "--ruleset",
        "10",
        "--save",
        save.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(rc, 0, "{err}");
    let text = std::fs::read_to_string(&save).unwrap();
    assert!(text.contains("ruleset: Some(Tenth)"), "{text}");
    let (rc, replayed, err) = wartable(&["replay", save.to_str().unwrap(), "--json"]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(replayed["state_hash"], v["final"]["state_hash"]);
    assert_eq!(
        (&v["ruleset"], &replayed["ruleset"]),
        (&"Tenth".into(), &"Tenth".into())
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `attack --json --ruleset 11` follows the 11th attack sequence (saving throws in allocation
/// groups, taken lowest first; LETHAL HITS the attacker's choice): its exact distribution
/// agrees with the rolled attacks it cross-checks itself against, and declining LETHAL HITS
/// (refused under 10th) changes it.
#[test]
fn attack_under_eleventh_is_exact_against_its_rolled_attacks_and_lethal_hits_are_optional() {
    let attack = |ruleset: &str, extra: &[&str]| {
        let mut args = vec![
            "attack",
            "default",
            "--attacker",
            "assault-intercessors",
            "--weapon",
            "astartes chainsword",
            "--target",
            "boyz-mob",
            "--distance",
            "1",
            "--json",
            "--ruleset",
            ruleset,
        ];
        args.extend_from_slice(extra);
        wartable(&args)
    };
    let (rc, v, err) = attack("11", &["--monte-carlo", "100000", "--seed", "5"]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(v["method"], "exact");
    let exact = v["expected_wounds_lost"].as_f64().unwrap();
    let mc = &v["monte_carlo"];
    let se = mc["sd_wounds_lost"].as_f64().unwrap() / 100_000f64.sqrt();
    let rolled = mc["mean_wounds_lost"].as_f64().unwrap();
    assert!(
        (exact - rolled).abs() < 4.0 * se,
        "{exact} vs {rolled} (se {se})"
    );
    let total: f64 = v["wounds_lost"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-9);
    // The Lieutenant's Tactical Precision gives the unit LETHAL HITS: under 11th it may be
    // declined (fewer automatic wounds against T5 Boyz: fewer wounds lost), under 10th not.
    let (rc, declined, err) = attack("11", &["--decline-lethal-hits"]);
    assert_eq!(rc, 0, "{err}");
    assert!(declined["expected_wounds_lost"].as_f64().unwrap() < exact - 0.1);
    let (rc, _, err) = attack("10", &["--decline-lethal-hits"]);
    assert_ne!(rc, 0);
    assert!(err.contains("not optional"), "{err}");
}
