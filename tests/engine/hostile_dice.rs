//! Hostile dice: data may not write dice expressions or ability numbers past the limits
//! (`20D6+999`, RAPID FIRE 255), and the exact attack distribution bounds its own work,
//! falling back to a seeded Monte Carlo estimate that says so.
//!
//! Before: the parser took up to 20 dice and constants up to 999, abilities any `u8`, and the
//! exact resolver computed whatever it was given. `SustainedHits("20D6+999")` with
//! `RapidFire(255)`, or `attacks: "20D6+999"` on 30 models, validated; its exact
//! distribution then ran for minutes and aborted at 7.5 GB, and a simulated game, whose AI
//! previews every attack exactly, never ended. These tests do not run that (they would take
//! minutes before the fix): they assert the limits and the cost estimate that decides the
//! fallback, and run the fallback only on profiles it rolls quickly.

use std::path::{Path, PathBuf};

use wartable::data::army::DatasheetsFile;
use wartable::data::{source, validate_file};
use wartable::rules::abilities::CoreAbility;
use wartable::rules::attack::exact::{
    MAX_EXACT_CELLS, MAX_EXACT_OPERATIONS, MIN_MONTE_CARLO_SAMPLES, MONTE_CARLO_SAMPLES,
    MONTE_CARLO_SEED, Method, distribution, estimate, exact_cost,
};
use wartable::rules::attack::{
    AttackContext, CommandReroll, ResolvedWeapon, TargetModel, TargetUnit, WeaponGroup,
};
use wartable::rules::datasheet::Datasheet;
use wartable::rules::dice::{MAX_DICE_CONSTANT, MAX_DICE_COUNT};
use wartable::rules::weapon::{MAX_MELTA, MAX_RAPID_FIRE, MAX_SUSTAINED_HITS};
use wartable::rules::{DiceExpr, WeaponAbility, WeaponProfile};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn dice(s: &str) -> DiceExpr {
    s.parse().unwrap()
}

fn weapon(attacks: DiceExpr, damage: &str, abilities: Vec<WeaponAbility>) -> WeaponProfile {
    WeaponProfile {
        profile: None,
        name: "hostile gun".into(),
        range: Some(24.0),
        attacks,
        skill: Some(3),
        strength: 8,
        ap: -6,
        damage: dice(damage),
        abilities,
    }
}

fn unit(n: u32, wounds: u8, save: u8, fnp: Option<u8>) -> TargetUnit {
    TargetUnit {
        name: "target".into(),
        toughness: 4,
        keywords: vec!["INFANTRY".into()],
        stealth: false,
        models: (0..n)
            .map(|_| TargetModel {
                name: "trooper".into(),
                wounds,
                wounds_remaining: wounds,
                save,
                invulnerable_save: None,
                feel_no_pain: fnp,
                leader: false,
                has_cover: false,
                allocation_rank: 0,
                allocated_this_phase: false,
            })
            .collect(),
    }
}

/// `bearers` models with `profile` within half range (RAPID FIRE, MELTA apply).
fn close_group(profile: WeaponProfile, bearers: u32) -> WeaponGroup {
    let mut g = WeaponGroup::new(profile, bearers);
    g.within_half_range = true;
    g
}

/// Before: `20D6+999` parsed (up to 20 dice, constants up to 999). Now at most 10 D3 or D6
/// (or one D66) and a constant of at most 50 either way; past a limit the error names it.
#[test]
fn dice_expressions_past_the_limits_are_errors_that_name_them() {
    assert_eq!((MAX_DICE_COUNT, MAX_DICE_CONSTANT), (10, 50));
    // What 10th-edition datasheets print stays well inside.
    for ok in [
        "1", "20", "D3", "D6+3", "2D6+3", "3D6", "2D3-1", "D66", "10D6+50",
    ] {
        assert!(ok.parse::<DiceExpr>().is_ok(), "{ok} refused");
    }
    for (bad, says) in [
        ("20D6+999", "at most 10 dice"),
        ("11D3", "at most 10 dice"),
        ("2D6+51", "constants are at most 50"),
        ("D6-51", "constants are at most 50"),
        ("999", "constants are at most 50"),
        ("99999999999999999999999", "constants are at most 50"),
        ("D12", "only D3, D6 and D66"),
        ("2D66", "a D66 is rolled alone"),
    ] {
        let e = bad.parse::<DiceExpr>().expect_err(bad).to_string();
        assert!(
            e.contains(&format!("'{bad}' is not a dice expression")),
            "{e}"
        );
        assert!(e.contains(says), "{bad}: {e}");
    }
    // A plain number in data is held to the same limit.
    let e = ron::from_str::<DiceExpr>("5000").unwrap_err().to_string();
    assert!(e.contains("at most 50"), "{e}");
}

/// Before: RAPID FIRE, MELTA and ANTI took any `u8` and SUSTAINED HITS any dice expression;
/// Feel No Pain 1+ (every wound ignored) was read too. Now each is checked as it is read.
#[test]
fn weapon_and_core_abilities_past_the_limits_are_refused_when_read() {
    assert_eq!((MAX_RAPID_FIRE, MAX_MELTA, MAX_SUSTAINED_HITS), (20, 10, 6));
    for ok in [
        "RapidFire(2)",
        "RapidFire(20)",
        "Melta(4)",
        "SustainedHits(\"D3\")",
        "SustainedHits(2)",
        "Anti(\"INFANTRY\", 4)",
    ] {
        ron::from_str::<WeaponAbility>(ok).unwrap_or_else(|e| panic!("{ok}: {e}"));
    }
    for (bad, says) in [
        ("RapidFire(255)", "at most RAPID FIRE 20"),
        ("Melta(200)", "at most MELTA 10"),
        ("SustainedHits(\"20D6+999\")", "at most 10 dice"),
        ("SustainedHits(\"2D6\")", "0 to 6 extra hits"),
        ("Anti(\"INFANTRY\", 1)", "2+ to 6+"),
        ("Anti(\"INFANTRY\", 9)", "2+ to 6+"),
    ] {
        let e = ron::from_str::<WeaponAbility>(bad)
            .expect_err(bad)
            .to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
    assert!(
        WeaponAbility::RapidFire(255).check().is_err(),
        "rules code can check abilities it builds"
    );
    for (bad, says) in [
        ("FeelNoPain(1)", "2+ to 6+"),
        ("FiringDeck(4000000)", "at most Firing Deck 30"),
        ("DeadlyDemise(\"20D6\")", "at most 10 dice"),
    ] {
        let e = ron::from_str::<CoreAbility>(bad)
            .expect_err(bad)
            .to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
    assert_eq!(
        ron::from_str::<CoreAbility>("FeelNoPain(5)").unwrap(),
        CoreAbility::FeelNoPain(5)
    );
}

/// A copy of the shipped Orks datasheets (and the army that uses them) in a scratch folder,
/// with `edit` applied to the datasheets; returns (datasheets file, army file).
fn edited_copy(case: &str, edit: impl Fn(&str) -> String) -> (PathBuf, PathBuf) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("hostile_dice")
        .join(case);
    for sub in ["datasheets", "armies"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    let sheets = std::fs::read_to_string(root().join("scenes/datasheets/orks.ron")).unwrap();
    let edited = edit(&sheets);
    let sheets_file = dir.join("datasheets/orks.ron");
    std::fs::write(&sheets_file, edited).unwrap();
    let army_file = dir.join("armies/orks.ron");
    std::fs::copy(root().join("scenes/armies/orks.ron"), &army_file).unwrap();
    (sheets_file, army_file)
}

/// The Boyz' Shoota, as shipped.
const SHOOTA: &str = "WeaponProfile(name: \"Shoota\", range: 18, attacks: 2, skill: 5, \
                      strength: 4,\n                              ap: 0, damage: 1, abilities: \
                      [RapidFire(1)]),";

/// Before: a datasheet with these edits validated (and the army built on it loaded). Now
/// `validate` refuses each, naming the limit; the unedited copy still validates.
#[test]
fn validate_refuses_a_shipped_datasheet_and_army_edited_past_the_limits() {
    let (sheets, army) = edited_copy("unedited", |s| s.to_string());
    validate_file(&sheets).unwrap_or_else(|e| panic!("{e}"));
    validate_file(&army).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        std::fs::read_to_string(&sheets).unwrap().contains(SHOOTA),
        "the shipped Shoota profile changed; update SHOOTA"
    );
    let shoota = |attacks: &str, abilities: &str| {
        format!(
            "WeaponProfile(name: \"Shoota\", range: 18, attacks: {attacks}, skill: 5, \
             strength: 4, ap: 0, damage: 1, abilities: [{abilities}]),"
        )
    };
    let cases = [
        (
            "attacks",
            shoota("\"20D6+999\"", "RapidFire(1)"),
            "at most 10 dice",
        ),
        (
            "rapid-fire",
            shoota("2", "RapidFire(255)"),
            "at most RAPID FIRE 20",
        ),
        (
            "sustained",
            shoota("2", "SustainedHits(\"20D6+999\"), RapidFire(255)"),
            "at most 10 dice",
        ),
        ("constant", shoota("5000", "RapidFire(1)"), "at most 50"),
    ];
    for (case, profile, says) in cases {
        let (sheets, army) = edited_copy(case, |s| s.replace(SHOOTA, &profile));
        for file in [&sheets, &army] {
            let e = validate_file(file).map(|_| ()).expect_err(case);
            let e = e.to_string();
            assert!(e.contains(says), "{case} ({}): {e}", file.display());
        }
    }
}

/// The reported profile, built in code past the parser (the fields are public): its exact
/// distribution would need some 10^20 operations, so the resolver would not start it. (Not
/// run: even its Monte Carlo trials roll millions of dice each; data cannot write it any
/// more.)
#[test]
fn the_reported_profile_would_be_far_past_the_exact_work_limit() {
    assert!("20D6+999".parse::<DiceExpr>().is_err());
    let huge = DiceExpr {
        count: 20,
        sides: 6,
        modifier: 999,
    };
    let profile = weapon(
        huge,
        "1",
        vec![
            WeaponAbility::SustainedHits(huge),
            WeaponAbility::RapidFire(255),
        ],
    );
    let target = unit(10, 2, 3, None);
    let ctx = AttackContext::default();
    let weapons = ResolvedWeapon::all(&[close_group(profile, 30)], &target, &ctx);
    let cost = exact_cost(&weapons, &target, ctx.command_rerolls());
    assert!(!cost.within_limits());
    assert!(cost.operations > 1e15, "{cost:?}");
    assert!(cost.cells > MAX_EXACT_CELLS as f64, "{cost:?}");
}

/// The largest profile the limits allow, on 30 models with every ability that multiplies
/// the exact resolver's tables: past the work limit, so the answer is a seeded Monte Carlo
/// estimate, flagged, well-formed and reproducible. Before, this ran the exact distribution
/// (minutes, gigabytes).
#[test]
fn the_largest_profile_within_the_limits_falls_back_to_a_flagged_monte_carlo() {
    use WeaponAbility as A;
    let profile = weapon(
        dice("10D6+50"),
        "2D6+3",
        vec![
            A::SustainedHits(dice("D6")),
            A::RapidFire(MAX_RAPID_FIRE),
            A::LethalHits,
            A::DevastatingWounds,
        ],
    );
    let target = unit(30, 3, 3, Some(5));
    let groups = [close_group(profile, 30)];
    let ctx = AttackContext {
        command_reroll: CommandReroll::DamageRoll,
        save_command_reroll: true,
        ..AttackContext::default()
    };
    let e = estimate(&groups, &target, &ctx);
    assert!(!e.cost.within_limits(), "{:?}", e.cost);
    assert!(e.cost.operations > MAX_EXACT_OPERATIONS as f64);
    let Method::MonteCarlo { samples, seed } = e.method else {
        panic!("expected a Monte Carlo estimate, got {:?}", e.method);
    };
    assert!(!e.is_exact());
    assert_eq!(seed, MONTE_CARLO_SEED);
    assert!((MIN_MONTE_CARLO_SAMPLES..=MONTE_CARLO_SAMPLES).contains(&samples));
    let note = e.note().expect("a note for the user");
    assert!(
        note.contains("Monte Carlo") && note.contains(&samples.to_string()),
        "{note}"
    );

    let d = &e.distribution;
    assert_eq!(d.models_destroyed.len(), 31);
    assert_eq!(d.wounds_lost.len(), 91);
    for v in [&d.models_destroyed, &d.wounds_lost] {
        assert!((v.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }
    let mean = |v: &[f64]| -> f64 { v.iter().enumerate().map(|(k, p)| k as f64 * p).sum() };
    assert!((mean(&d.wounds_lost) - d.expected_wounds_lost).abs() < 1e-9);
    assert!((mean(&d.models_destroyed) - d.expected_models_destroyed).abs() < 1e-9);
    // 3,150 attacks on average against 90 wounds: the unit is wiped out.
    assert!(d.models_destroyed[30] > 0.99, "{:?}", d.models_destroyed);
    // Seeded: the same attack gives the same estimate, and the old API gives it too.
    assert_eq!(estimate(&groups, &target, &ctx), e);
    assert_eq!(distribution(&groups, &target, &ctx), e.distribution);
}

/// The fallback estimates the right thing: TORRENT S8 attacks against T4 (wounds on 2+, a 6
/// with DEVASTATING WOUNDS a mortal wound of Damage 1), no save, Damage 1, into 6,000 wounds
/// (30 models of 200):
/// each attack takes 5/6 of a wound on average, and 30 bearers of `10D6+50` with RAPID FIRE
/// 20 make 30 x 105 = 3,150 attacks, so 2,625 wounds. DEVASTATING WOUNDS puts the exact
/// distribution past the limit.
#[test]
fn the_monte_carlo_fallback_estimates_the_right_mean() {
    use WeaponAbility as A;
    let profile = weapon(
        dice("10D6+50"),
        "1",
        vec![
            A::Torrent,
            A::DevastatingWounds,
            A::RapidFire(MAX_RAPID_FIRE),
        ],
    );
    let target = unit(30, 200, 7, None);
    let e = estimate(
        &[close_group(profile, 30)],
        &target,
        &AttackContext::default(),
    );
    let Method::MonteCarlo { samples, .. } = e.method else {
        panic!("expected a Monte Carlo estimate, got {:?}", e.method);
    };
    let d = &e.distribution;
    let var: f64 = d
        .wounds_lost
        .iter()
        .enumerate()
        .map(|(k, p)| p * (k as f64 - d.expected_wounds_lost).powi(2))
        .sum();
    let se = (var / f64::from(samples)).sqrt();
    assert!(
        (d.expected_wounds_lost - 2625.0).abs() <= 4.5 * se,
        "{} vs 2625 (se {se}, {samples} samples)",
        d.expected_wounds_lost
    );
    // Wounds go to the damaged model first: one model destroyed per 200 wounds.
    assert!(
        (11.0..=15.0).contains(&d.expected_models_destroyed),
        "{}",
        d.expected_models_destroyed
    );
}

/// Ordinary attacks keep the exact answer through the old API: 10 bolt rifles, and every
/// shipped weapon from a full unit within half range against every shipped unit at full
/// size, with Command Re-rolls of Damage and saves and Feel No Pain 5+ (all of which make
/// the exact resolver work harder), stay at least ten times under the work limit.
#[test]
fn ordinary_profiles_stay_exact() {
    let bolt = WeaponProfile {
        ap: 0,
        strength: 4,
        ..weapon(dice("2"), "1", vec![WeaponAbility::RapidFire(1)])
    };
    let groups = [close_group(bolt, 10)];
    let target = unit(10, 2, 3, None);
    let ctx = AttackContext::default();
    let e = estimate(&groups, &target, &ctx);
    assert_eq!(e.method, Method::Exact);
    assert!(e.is_exact() && e.note().is_none());
    assert_eq!(distribution(&groups, &target, &ctx), e.distribution);

    let mut sheets: Vec<Datasheet> = Vec::new();
    for f in [
        "scenes/datasheets/orks.ron",
        "scenes/datasheets/space-marines.ron",
    ] {
        let d: DatasheetsFile = source::load(&root().join(f)).unwrap();
        sheets.extend(d.datasheets);
    }
    let ctx = AttackContext {
        command_reroll: CommandReroll::DamageRoll,
        save_command_reroll: true,
        ..AttackContext::default()
    };
    let mut checked = 0;
    for attacker in &sheets {
        for w in attacker.weapons() {
            for t in &sheets {
                for fnp in [None, Some(5)] {
                    let target = TargetUnit {
                        name: t.name.clone(),
                        toughness: t.toughness,
                        keywords: t.keywords.clone(),
                        stealth: false,
                        models: (0..t.unit_size.1)
                            .map(|_| TargetModel {
                                name: t.name.clone(),
                                wounds: t.wounds,
                                wounds_remaining: t.wounds,
                                save: t.save,
                                invulnerable_save: t.invulnerable_save,
                                feel_no_pain: fnp.or(t.feel_no_pain),
                                leader: false,
                                has_cover: false,
                                allocation_rank: 0,
                                allocated_this_phase: false,
                            })
                            .collect(),
                    };
                    let group = close_group(w.clone(), attacker.unit_size.1);
                    let weapons = ResolvedWeapon::all(&[group], &target, &ctx);
                    let cost = exact_cost(&weapons, &target, ctx.command_rerolls());
                    assert!(
                        cost.operations * 10.0 <= MAX_EXACT_OPERATIONS as f64
                            && cost.cells * 10.0 <= MAX_EXACT_CELLS as f64,
                        "{} {} at {}: {cost:?}",
                        attacker.name,
                        w.full_name(),
                        t.name
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 500, "{checked}");
}
