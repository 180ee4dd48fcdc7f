//! The BSData converter on a real checkout of BSData/wh40k-10e: only when `WARTABLE_BSDATA`
//! names one (CI has none; without it every test here prints a note and passes).
//!
//! Facts checked against the catalogues at commit 801555bb (2026-06-14): Boyz and Intercessor
//! Squad sizes, points brackets, model profiles and weapons; multi-profile weapons; an
//! invulnerable save; a Leader's list; a TRANSPORT's capacity; every file reading back as
//! written and passing the checks `validate` makes.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use wartable::data::army::DatasheetsFile;
use wartable::data::bsdata::{self, BaseSizes, Conversion};
use wartable::rules::{Datasheet, WeaponAbility};

fn checkout() -> Option<PathBuf> {
    let dir = std::env::var_os("WARTABLE_BSDATA").map(PathBuf::from);
    if dir.is_none() {
        println!("note: WARTABLE_BSDATA is not set: no BSData checkout to convert, skipped");
    }
    dir
}

/// The conversion of the checkout, made once for all tests.
fn conversion() -> Option<&'static Conversion> {
    static DONE: OnceLock<Option<Conversion>> = OnceLock::new();
    DONE.get_or_init(|| {
        let dir = checkout()?;
        let bases_file =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/datasheets/base-sizes.ron");
        let bases = BaseSizes::load(&bases_file).expect("the base-size table loads");
        Some(bsdata::convert(&dir, &bases).expect("the checkout converts"))
    })
    .as_ref()
}

fn file<'a>(c: &'a Conversion, stem: &str) -> &'a DatasheetsFile {
    &c.files
        .iter()
        .find(|(s, _)| s == stem)
        .unwrap_or_else(|| panic!("no faction file '{stem}'"))
        .1
}

fn sheet<'a>(c: &'a Conversion, stem: &str, name: &str) -> &'a Datasheet {
    file(c, stem)
        .datasheets
        .iter()
        .find(|d| d.name == name)
        .unwrap_or_else(|| panic!("{stem} has no datasheet '{name}'"))
}

fn all(c: &Conversion) -> impl Iterator<Item = &Datasheet> {
    c.files.iter().flat_map(|(_, f)| &f.datasheets)
}

#[test]
fn orks_boyz() {
    let Some(c) = conversion() else { return };
    let orks = file(c, "orks");
    assert_eq!(orks.faction, "Orks");
    let boyz = sheet(c, "orks", "Boyz");
    assert_eq!(boyz.unit_size, (10, 20));
    assert_eq!(boyz.points, vec![(10, 80), (20, 170)]);
    assert_eq!(boyz.points_for(10), Some(80));
    assert_eq!(boyz.points_for(15), Some(170));
    assert_eq!(boyz.wounds, 1);
    assert_eq!(boyz.toughness, 5);
    assert_eq!(boyz.save, 5);
    assert_eq!(boyz.leadership, 7);
    assert_eq!(boyz.objective_control, 2);
    assert!(boyz.has_keyword("BATTLELINE"));
    assert_eq!(boyz.faction_keywords, vec!["ORKS".to_string()]);
    let nob = boyz.model_profile("Boss Nob").expect("a Boss Nob profile");
    assert_eq!(nob.wounds, Some(2));
    assert_eq!(nob.count, Some((1, 1)));
    assert_eq!(boyz.characteristics(Some("Boss Nob")).unwrap().wounds, 2);
    for w in ["Slugga", "Choppa", "Big choppa"] {
        assert!(boyz.weapon(w).is_some(), "Boyz have no {w}");
    }
    assert_eq!(boyz.default_wargear, vec!["Choppa", "Slugga"]);
    assert!(boyz.abilities.iter().all(|a| a.text.is_empty()));
}

#[test]
fn intercessor_squad_and_its_grenade_launcher() {
    let Some(c) = conversion() else { return };
    let squad = sheet(c, "adeptus-astartes", "Intercessor Squad");
    assert_eq!(squad.unit_size, (5, 10));
    assert_eq!(squad.points, vec![(5, 80), (10, 160)]);
    assert!(squad.model_profile("Intercessor Sergeant").is_some());
    assert!(squad.model_profile("Intercessor").is_some());
    let launcher = squad.profiles_of("Astartes grenade launcher");
    let modes: Vec<_> = launcher
        .iter()
        .filter_map(|w| w.profile.as_deref())
        .collect();
    assert_eq!(launcher.len(), 2, "{launcher:?}");
    assert!(
        modes.contains(&"frag") && modes.contains(&"krak"),
        "{modes:?}"
    );
    let frag = squad
        .choose_profile("Astartes grenade launcher", Some("frag"))
        .unwrap();
    assert!(frag.has(&WeaponAbility::Blast));
    assert!(squad.weapon("Bolt Rifle").is_some());
}

#[test]
fn a_plasma_gun_has_standard_and_supercharge_profiles() {
    let Some(c) = conversion() else { return };
    let found = all(c).any(|d| {
        let p = d.profiles_of("Plasma gun");
        let names: Vec<_> = p.iter().filter_map(|w| w.profile.as_deref()).collect();
        names.contains(&"standard")
            && names.contains(&"supercharge")
            && p.iter().any(|w| {
                w.profile.as_deref() == Some("supercharge") && w.has(&WeaponAbility::Hazardous)
            })
    });
    assert!(
        found,
        "no datasheet has a plasma gun with standard and supercharge"
    );
}

#[test]
fn saves_leaders_and_transports() {
    let Some(c) = conversion() else { return };
    let wagon = sheet(c, "orks", "Battlewagon");
    assert_eq!(wagon.invulnerable_save, Some(6));
    assert_eq!(wagon.transport_capacity, Some(22));
    assert!(wagon.has_keyword("TRANSPORT"));
    assert_eq!(wagon.points, vec![(1, 160)]);
    assert!(wagon.firing_deck().is_some());
    assert!(wagon.deadly_demise().is_some());
    let warboss = sheet(c, "orks", "Warboss");
    assert!(
        warboss.leader_of.iter().any(|u| u == "Boyz"),
        "{:?}",
        warboss.leader_of
    );
    assert!(warboss.has_keyword("CHARACTER"));
    assert!(warboss.has_core(&wartable::rules::CoreAbility::Leader));
    let avengers = sheet(c, "asuryani", "Dire Avengers");
    assert_eq!(avengers.invulnerable_save, Some(5));
    assert_eq!(avengers.points, vec![(5, 75), (10, 150)]);
    assert!(all(c).filter(|d| d.invulnerable_save.is_some()).count() > 200);
    assert!(all(c).filter(|d| !d.leader_of.is_empty()).count() > 200);
    assert!(all(c).filter(|d| d.transport_capacity.is_some()).count() > 50);
}

#[test]
fn chapters_get_their_own_units_and_legends_are_left_out() {
    let Some(c) = conversion() else { return };
    let wolves = file(c, "space-wolves");
    assert_eq!(wolves.faction, "Space Wolves");
    assert!(wolves.datasheets.iter().any(|d| d.name == "Logan Grimnar"));
    assert!(
        !file(c, "adeptus-astartes")
            .datasheets
            .iter()
            .any(|d| d.name == "Logan Grimnar")
    );
    assert!(c.files.iter().any(|(s, _)| s == "tau-empire"));
    assert!(all(c).all(|d| !d.name.contains("[Legends]") && !d.name.contains("[Crucible]")));
    assert!(c.report.legends > 300 && c.report.crucible > 50);
    assert!(
        c.report.datasheets > 900,
        "{} datasheets",
        c.report.datasheets
    );
}

#[test]
fn every_file_reads_back_and_validates() {
    let Some(c) = conversion() else { return };
    let dir = std::env::temp_dir().join(format!("wartable-bsdata-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (stem, f) in &c.files {
        let path = dir.join(format!("{stem}.ron"));
        std::fs::write(&path, bsdata::to_ron(f).unwrap()).unwrap();
        let loaded = wartable::data::resolve::load_datasheets(&path)
            .unwrap_or_else(|e| panic!("{stem}: {e}"));
        assert_eq!(&loaded, f, "{stem} changed when read back");
    }
    std::fs::remove_dir_all(&dir).ok();
    let r = &c.report;
    println!(
        "{} factions, {} datasheets, {} weapons, {} without a base, {} skipped, {} weapons \
         skipped, {} weapon conflicts, {} unknown keyword kinds, {} unmatched leader targets",
        r.factions,
        r.datasheets,
        r.weapons,
        r.without_base.len(),
        r.skipped.len(),
        r.skipped_weapons.len(),
        r.weapon_conflicts.len(),
        r.unknown_weapon_keywords.len(),
        r.unmatched_leader_targets.len()
    );
    if std::env::var_os("WARTABLE_BSDATA_REPORT").is_some() {
        println!("SKIPPED {:#?}", r.skipped);
        println!("SKIPPED WEAPONS {:#?}", r.skipped_weapons);
        println!("CONFLICTS {:#?}", r.weapon_conflicts);
        println!("UNKNOWN {:#?}", r.unknown_weapon_keywords);
        println!("LEADERS {:#?}", r.unmatched_leader_targets);
        println!("NO BASE {:#?}", r.without_base);
    }
}

#[test]
fn the_shipped_conversion_validates_and_names_its_sources() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("scenes/datasheets/bsdata");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    assert!(files.len() >= 40, "{} faction files", files.len());
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        assert!(text.starts_with("// "), "{}: no header", f.display());
        for needed in [
            "BSData/wh40k-10e",
            "no licence file",
            "no rules text",
            "Base Size Guide",
        ] {
            assert!(
                text.contains(needed),
                "{}: the header does not say '{needed}'",
                f.display()
            );
        }
        let checked = wartable::data::validate_file(f).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(checked.kind, wartable::data::FileKind::Datasheets);
        let loaded = wartable::data::resolve::load_datasheets(f).unwrap();
        assert!(
            loaded
                .datasheets
                .iter()
                .all(|d| d.abilities.iter().all(|a| a.text.is_empty()))
        );
    }
    let bases = BaseSizes::load(&root.join("scenes/datasheets/base-sizes.ron")).unwrap();
    assert!(bases.bases.len() > 800, "{} rows", bases.bases.len());
    assert!(bases.licence.contains("MIT"));
    assert!(
        bases
            .source
            .contains("8142c2c1ee9b76b8bb6b93c47c11cdb583e5d4c2")
    );
    let boyz = bases.find("Orks", "Boyz");
    assert_eq!(boyz, Some(wartable::geometry::Base::Round(32.0)));
}
