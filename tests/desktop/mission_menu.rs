//! The new-game menu's Chapter Approved choices without a window: the tournament pairings of
//! layout, deployment map and primary mission, the Fixed secondary cards allowed, and the
//! scene file a new game is written with.

use std::path::Path;

use wartable::app::pairings::{
    self, PAIRINGS, check_secondaries, deployments_for_layout, fixed_choices,
    layouts_for_deployment, mission_deck, missions_for_deployment,
};
use wartable::app::screens::menu::NewGameForm;
use wartable::app::screens::table::{self, form_secondaries, scene_armies};
use wartable::data::load_scene;
use wartable::rules::secondary::SecondaryMode;

fn root(p: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

fn fixed(a: &str, b: &str) -> SecondaryMode {
    SecondaryMode::Fixed(a.into(), b.into())
}

#[test]
fn the_pairing_table_matches_the_companion() {
    let d = |name: &str| format!("scenes/deployments/{name}.ron");
    let l = |n: u8| format!("scenes/layouts/layout-{n}.ron");
    assert_eq!(
        deployments_for_layout(&l(1)),
        [
            "tipping-point",
            "hammer-and-anvil",
            "search-and-destroy",
            "crucible-of-battle"
        ]
        .map(d)
    );
    assert_eq!(
        deployments_for_layout(&l(5)),
        ["sweeping-engagement", "dawn-of-war"].map(d)
    );
    assert_eq!(
        deployments_for_layout(&l(3)),
        ["search-and-destroy", "sweeping-engagement"].map(d)
    );
    assert!(deployments_for_layout(&l(9)).is_empty());
    assert_eq!(layouts_for_deployment(&d("dawn-of-war")), [l(5)]);
    assert_eq!(
        layouts_for_deployment(&d("hammer-and-anvil")),
        [1, 7, 8].map(l)
    );
    assert_eq!(
        missions_for_deployment(&d("sweeping-engagement")),
        [
            "scenes/missions/supply-drop.ron",
            "scenes/missions/terraform.ron"
        ]
    );
    assert!(missions_for_deployment(&d("nowhere")).is_empty());
    assert_eq!(
        pairings::tournament_layouts(),
        (1..=8).map(l).collect::<Vec<_>>()
    );
    // Every pairing has its scene, and every file the table names loads.
    let mut scenes = 0;
    for p in PAIRINGS {
        for &n in p.layouts {
            let short = p.deployment.rsplit('/').next().unwrap();
            let scene = root(&format!("scenes/chapter-approved/layout-{n}-{short}"));
            load_scene(&scene).unwrap_or_else(|e| panic!("{}: {e}", scene.display()));
            scenes += 1;
        }
        for m in p.missions {
            assert!(
                mission_deck(m).unwrap().is_some(),
                "{m} has the secondary deck"
            );
        }
    }
    assert_eq!(scenes, 22);
    let missions = pairings::mission_files();
    assert!(missions.contains(&"scenes/missions/only-war.ron".to_string()));
    assert!(
        !missions.iter().any(|m| m.contains("secondary-deck")),
        "{missions:?}"
    );
    // Ten Chapter Approved 2025-26 primaries and Only War.
    assert_eq!(missions.len(), 11);
    // The three not in the Tournament Companion's pool are offered only as a free choice.
    for m in ["burden-of-trust", "unexploded-ordnance", "the-ritual"] {
        let path = format!("scenes/missions/{m}.ron");
        assert!(missions.contains(&path), "{m}");
        assert!(
            !pairings::PAIRINGS
                .iter()
                .any(|p| p.missions.contains(&path.as_str())),
            "{m} is not in the pool"
        );
    }
}

#[test]
fn the_form_keeps_a_pairing_under_the_tournament_toggle() {
    let mut form = NewGameForm::default();
    assert!(form.tournament);
    assert!(pairings::is_pairing(
        &form.layout,
        &form.deployment,
        &form.mission
    ));
    // Layout 5 is played only on Sweeping Engagement and Dawn of War.
    form.choose_layout("scenes/layouts/layout-5.ron".into());
    assert_eq!(
        form.deployment,
        "scenes/deployments/sweeping-engagement.ron"
    );
    assert_eq!(form.mission, "scenes/missions/supply-drop.ron");
    let (paired, rest) = form.deployment_choices();
    assert_eq!(paired.len(), 2);
    assert_eq!(rest.len(), 4);
    // Dawn of War keeps layout 5; its primaries replace Supply Drop.
    form.choose_deployment("scenes/deployments/dawn-of-war.ron".into());
    assert_eq!(form.layout, "scenes/layouts/layout-5.ron");
    assert_eq!(form.mission, "scenes/missions/linchpin.ron");
    assert_eq!(form.mission_choices().len(), 2);
    let (paired, rest) = form.layout_choices();
    assert_eq!(paired, ["scenes/layouts/layout-5.ron"]);
    assert_eq!(rest.len(), 7);
    // Hammer and Anvil is not played on layout 5: the layout gives way.
    form.choose_deployment("scenes/deployments/hammer-and-anvil.ron".into());
    assert_eq!(form.layout, "scenes/layouts/layout-1.ron");
    assert!(pairings::is_pairing(
        &form.layout,
        &form.deployment,
        &form.mission
    ));
    // Free choice: anything goes, nothing is changed.
    form.tournament = false;
    form.choose_layout("scenes/layouts/layout-5.ron".into());
    form.mission = "scenes/missions/only-war.ron".into();
    form.settle(true);
    assert_eq!(form.deployment, "scenes/deployments/hammer-and-anvil.ron");
    assert_eq!(form.mission, "scenes/missions/only-war.ron");
    assert_eq!(form.layout_choices().0.len(), 8);
    assert_eq!(form.deployment_choices().0.len(), 6);
    assert!(form.mission_choices().len() >= 8);
    // Turning the toggle back on restores a pairing, keeping the layout.
    form.tournament = true;
    form.settle(true);
    assert_eq!(form.layout, "scenes/layouts/layout-5.ron");
    assert!(pairings::is_pairing(
        &form.layout,
        &form.deployment,
        &form.mission
    ));
}

#[test]
fn fixed_cards_follow_the_symbol_and_the_tournament_rule() {
    let deck = mission_deck("scenes/missions/take-and-hold.ron")
        .unwrap()
        .unwrap();
    assert!(
        mission_deck("scenes/missions/only-war.ron")
            .unwrap()
            .is_none()
    );
    let free = fixed_choices(&deck, false);
    let tournament = fixed_choices(&deck, true);
    assert_eq!(free.len(), 9);
    assert_eq!(tournament.len(), 8);
    assert!(free.contains(&"No Prisoners".to_string()));
    assert!(!tournament.contains(&"No Prisoners".to_string()));
    assert!(check_secondaries(&deck, true, &SecondaryMode::Tactical).is_ok());
    assert!(check_secondaries(&deck, true, &fixed("Assassination", "Cleanse")).is_ok());
    let e = check_secondaries(&deck, true, &fixed("No Prisoners", "Cleanse")).unwrap_err();
    assert!(e.contains("tournament"), "{e}");
    assert!(check_secondaries(&deck, false, &fixed("No Prisoners", "Cleanse")).is_ok());
    let e = check_secondaries(&deck, false, &fixed("Sabotage", "Cleanse")).unwrap_err();
    assert!(e.contains("Sabotage"), "{e}");
    let e = check_secondaries(&deck, false, &fixed("Cleanse", "Cleanse")).unwrap_err();
    assert!(e.contains("differ"), "{e}");
    assert_eq!(
        pairings::default_fixed(&deck, true),
        fixed(&tournament[0], &tournament[1])
    );
}

#[test]
fn a_new_game_scene_carries_secondaries_and_battle_ready() {
    let armies = scene_armies(
        ["a.ron".into(), "b.ron".into()],
        [SecondaryMode::Tactical, fixed("Assassination", "Cleanse")],
    );
    assert_eq!(armies.len(), 2);
    assert_eq!((armies[0].player, armies[1].player), (1, 2));
    assert_eq!(armies[1].army, "b.ron");
    assert!(
        armies
            .iter()
            .all(|a| a.battle_ready && a.placements.is_empty())
    );
    assert_eq!(armies[1].secondaries, fixed("Assassination", "Cleanse"));

    let dir = std::env::temp_dir().join(format!("wartable-mission-menu-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut form = NewGameForm::default();
    form.choose_layout("scenes/layouts/layout-7.ron".into());
    form.secondaries[1] = fixed("Assassination", "Behind Enemy Lines");
    let started = table::start_new_game(&form, &dir, 1).unwrap();
    let scene = &started.origin;
    assert_eq!(scene.mission.name, "Take and Hold");
    assert!(scene.secondary_deck.is_some());
    assert_eq!(scene.battle_ready, [true, true]);
    assert_eq!(
        scene.secondaries,
        [
            SecondaryMode::Tactical,
            fixed("Assassination", "Behind Enemy Lines")
        ]
    );
    // The tournament rule is checked when the game starts, too.
    form.secondaries[0] = fixed("No Prisoners", "Cleanse");
    let e = table::start_new_game(&form, &dir, 1).err().unwrap();
    assert!(e.starts_with("player 1:"), "{e}");
    form.tournament = false;
    assert!(form_secondaries(&form).is_ok());
    // A mission without a deck plays both Tactical (the choices are ignored).
    form.mission = "scenes/missions/only-war.ron".into();
    assert_eq!(
        form_secondaries(&form).unwrap(),
        [SecondaryMode::Tactical, SecondaryMode::Tactical]
    );
    let started = table::start_new_game(&form, &dir, 1).unwrap();
    assert!(started.origin.secondary_deck.is_none());
    let _ = std::fs::remove_dir_all(&dir);
}
