//! `wartable attack` end to end: the JSON distribution, the seeded event log, and clear errors.

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

const BOLT_RIFLES: &[&str] = &[
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
];

#[test]
fn attack_json_gives_the_exact_distribution() {
    let mut args = BOLT_RIFLES.to_vec();
    args.push("--json");
    let (rc, out, err) = wartable(&args);
    assert_eq!(rc, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // 10 Intercessors, 2 attacks each at BS 3+, S4 vs the Boyz' T5 (5+), AP -1 vs Sv 5+.
    let expected = 20.0 * (2.0 / 3.0) * (1.0 / 3.0) * (5.0 / 6.0);
    let mean = v["expected_wounds_lost"].as_f64().unwrap();
    assert!((mean - expected).abs() < 1e-9, "{mean}");
    let models: Vec<f64> = serde_json::from_value(v["models_destroyed"].clone()).unwrap();
    assert_eq!(models.len(), 22, "20 Boyz and the Warboss, plus zero");
    assert!((models.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    assert_eq!(
        v["target_toughness"], 5,
        "the Bodyguard's Toughness, not the Warboss's"
    );
    assert!(v["wounds_lost"].as_array().unwrap().len() > 20);
}

#[test]
fn attack_roll_is_reproducible_by_seed() {
    let mut args = BOLT_RIFLES.to_vec();
    args.extend(["--roll", "--seed", "11", "--json"]);
    let (rc, a, err) = wartable(&args);
    assert_eq!(rc, 0, "{err}");
    let (_, b, _) = wartable(&args);
    assert_eq!(a, b);
    let v: serde_json::Value = serde_json::from_str(&a).unwrap();
    let events = v["events"].as_array().unwrap();
    assert_eq!(events[0]["event"], "weapon");
    assert!(events.iter().any(|e| e["event"] == "hit_roll"));
    let lost = v["result"]["wounds_lost"].as_u64().unwrap();
    let counted = events.iter().filter(|e| e["event"] == "wound_lost").count() as u64;
    assert_eq!(lost, counted, "the result matches the log");
}

#[test]
fn attack_errors_name_the_problem() {
    let (rc, _, err) = wartable(&[
        "attack",
        "default",
        "--attacker",
        "intercessors",
        "--weapon",
        "lascannon",
        "--target",
        "boyz-mob",
    ]);
    assert_eq!(rc, 1);
    assert!(
        err.contains("lascannon") && err.contains("Bolt rifle"),
        "{err}"
    );
    // Measured in the default scene, the armies start far out of bolt rifle range.
    let (rc, _, err) = wartable(&BOLT_RIFLES[..BOLT_RIFLES.len() - 2]);
    assert_eq!(rc, 1);
    assert!(err.contains("out of range"), "{err}");
    // Melee needs Engagement Range when measured in the scene.
    let (rc, _, err) = wartable(&[
        "attack",
        "default",
        "--attacker",
        "intercessors",
        "--weapon",
        "close combat weapon",
        "--target",
        "boyz-mob",
    ]);
    assert_eq!(rc, 1);
    assert!(err.contains("Engagement Range"), "{err}");
}

/// `attack` with plasma (Damage 1) at the shoota mob, then `more`: its Boss Nob (W2) is
/// shoota-boyz#0, its big shoota model #1, the eight plain Boyz #2-#9.
fn plasma_at_shoota_boyz_with(more: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "attack",
        "tests/scenes/open-field.ron",
        "--attacker",
        "hellblasters",
        "--weapon",
        "Plasma incinerator - standard",
        "--target",
        "shoota-boyz",
        "--distance",
        "20",
    ];
    args.extend_from_slice(more);
    wartable(&args)
}

/// [`plasma_at_shoota_boyz_with`] in JSON with 100,000 Monte Carlo trials, under the order
/// `allocation` (or the default).
fn plasma_at_shoota_boyz(allocation: Option<&str>) -> serde_json::Value {
    let mut args = vec!["--monte-carlo", "100000", "--seed", "7", "--json"];
    if let Some(a) = allocation {
        args.extend(["--allocation", a]);
    }
    let (rc, out, err) = plasma_at_shoota_boyz_with(&args);
    assert_eq!(rc, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

fn table(v: &serde_json::Value) -> Vec<f64> {
    serde_json::from_value(v.clone()).unwrap()
}

/// Issue 51: the defender chooses the allocation order (Core Rules: Allocate Attack), and the
/// exact distribution follows it: it matches 100,000 seeded rolls under the default order
/// (plain Boyz first) and under the Boss Nob first, and the two orders differ.
#[test]
fn attack_allocation_order_is_the_defenders_and_the_distribution_follows_it() {
    let default = plasma_at_shoota_boyz(None);
    let nob_first = plasma_at_shoota_boyz(Some("shoota-boyz#0,shoota-boyz#1"));
    let order = |v: &serde_json::Value| -> Vec<String> {
        serde_json::from_value(v["allocation_order"].clone()).unwrap()
    };
    assert_eq!(order(&default)[..8], names("shoota-boyz", 2..10)[..]);
    assert_eq!(order(&default)[8..], ["shoota-boyz#1", "shoota-boyz#0"]);
    assert_eq!(order(&nob_first)[..2], ["shoota-boyz#0", "shoota-boyz#1"]);
    for v in [&default, &nob_first] {
        let mc = &v["monte_carlo"];
        assert_eq!(mc["trials"], 100_000);
        for key in ["models_destroyed", "wounds_lost"] {
            let exact = table(&v[key]);
            let dice = table(&mc[key]);
            for (k, (e, d)) in exact.iter().zip(&dice).enumerate() {
                // 100,000 trials: a standard error of at most 0.0016 per bin.
                assert!((e - d).abs() < 0.007, "{key}[{k}]: exact {e}, dice {d}");
            }
        }
    }
    // Each wound lost kills a W1 Boy, but the W2 Nob takes two: the same dice destroy
    // fewer models when the Nob goes first, and lose the same wounds.
    let mean = |v: &serde_json::Value| v["expected_models_destroyed"].as_f64().unwrap();
    assert!(
        mean(&default) > mean(&nob_first) + 0.5,
        "{} vs {}",
        mean(&default),
        mean(&nob_first)
    );
    let (rc, _, err) = plasma_at_shoota_boyz_with(&["--allocation", "boyz-mob#3"]);
    assert_ne!(rc, 0);
    assert!(
        err.contains("'boyz-mob#3' is not a model of shoota-boyz"),
        "{err}"
    );
}

fn names(unit: &str, models: std::ops::Range<usize>) -> Vec<String> {
    models.map(|m| format!("{unit}#{m}")).collect()
}
