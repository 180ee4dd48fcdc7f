//! The menu's files: armies imported and layouts saved in the editor are listed beside the
//! built-in ones, for either player, and a game starts on them; a refused start leaves no file
//! behind (issue 49, item 3).

use std::path::{Path, PathBuf};

use wartable::app::screens::menu::{ArmyImport, NewGameForm, listed_files};
use wartable::app::screens::table;
use wartable::data::write::Overwrite;
use wartable::design::Design;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wartable-menu-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn files_ending(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|r| {
            r.flatten()
                .map(|e| e.path())
                .filter(|p| p.to_string_lossy().ends_with(suffix))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_layout_saved_in_the_editor_is_listed_in_the_menu_and_a_game_starts_on_it() {
    let disk = temp_dir("layout");
    let design = Design::open(
        &root().join("scenes/layouts/layout-2.ron"),
        &root().join("scenes/deployments/hammer-and-anvil.ron"),
    )
    .unwrap();
    design
        .save(&disk.join("scenes"), "River Crossing", Overwrite::Refuse)
        .unwrap();
    let mine = disk
        .join("scenes/layouts/river-crossing.ron")
        .display()
        .to_string();
    let mut form = NewGameForm {
        disk: disk.clone(),
        ..NewGameForm::default()
    };
    // Under the tournament toggle it comes after the pairings; choosing it leaves them.
    let (paired, rest) = form.layout_choices();
    assert!(!paired.contains(&mine));
    assert!(rest.contains(&mine), "{rest:?}");
    for n in 1..=8 {
        let builtin = format!("scenes/layouts/layout-{n}.ron");
        assert!(
            paired.contains(&builtin) || rest.contains(&builtin),
            "the built-in {builtin} stays listed"
        );
    }
    form.choose_layout(mine.clone());
    assert!(!form.tournament);
    assert_eq!(form.layout, mine);
    assert!(form.layout_choices().0.contains(&mine));
    let started = table::start_new_game(&form, &disk.join("saves"), 1).unwrap();
    assert_eq!(started.origin.layout.name, "River Crossing");
    assert_eq!(
        started.origin.layout.pieces.len(),
        design.layout.pieces.len()
    );
    let _ = std::fs::remove_dir_all(disk);
}

#[test]
fn an_army_imported_for_player_2_is_listed_for_both_and_kept_under_its_name() {
    let disk = temp_dir("import");
    let mut import = ArmyImport {
        path: root()
            .join("tests/rosters/leagues-of-votann-965.rosz")
            .display()
            .to_string(),
        allow_partial: true,
        name: "Votann Strike".into(),
        player: 1,
        ..ArmyImport::default()
    };
    let file = import.import(&disk).unwrap();
    assert_eq!(
        Path::new(&file),
        disk.join("scenes/armies/votann-strike.ron")
    );
    let form = NewGameForm {
        disk: disk.clone(),
        ..NewGameForm::default()
    };
    let armies = form.army_choices();
    assert!(armies.contains(&file), "{armies:?}");
    assert!(armies.iter().any(|a| a == "scenes/armies/orks.ron"));
    assert_eq!(
        listed_files(&disk, "scenes/armies/"),
        armies,
        "one list for either player"
    );
    // A second import under the same name keeps the first unless asked to replace it.
    let before = std::fs::read_to_string(&file).unwrap();
    let refused = import.import(&disk).unwrap_err();
    assert!(refused.contains("already exists"), "{refused}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
    // A game starts with it as player 2's army.
    let mut form = form;
    form.armies[1] = file;
    let started = table::start_new_game(&form, &disk.join("saves"), 1).unwrap();
    assert!(
        started.origin.armies[1]
            .units
            .iter()
            .any(|u| u.datasheet.name.contains("Hearthkyn")),
        "player 2 plays the imported army"
    );
    let _ = std::fs::remove_dir_all(disk);
}

#[test]
fn a_refused_start_leaves_no_scene_file_in_the_saves_folder() {
    let disk = temp_dir("refused");
    let armies = disk.join("scenes/armies");
    std::fs::create_dir_all(&armies).unwrap();
    std::fs::write(armies.join("broken.ron"), "Army(name: \"Broken\", units: [").unwrap();
    let mut form = NewGameForm {
        disk: disk.clone(),
        ..NewGameForm::default()
    };
    form.armies[1] = armies.join("broken.ron").display().to_string();
    assert!(form.army_choices().contains(&form.armies[1]));
    let saves = disk.join("saves");
    let e = table::start_new_game(&form, &saves, 1)
        .err()
        .expect("a broken army does not start");
    assert!(e.contains("broken.ron"), "{e}");
    assert_eq!(files_ending(&saves, ".ron"), Vec::<PathBuf>::new());
    let _ = std::fs::remove_dir_all(disk);
}
