//! The newcomer's game through the app's own functions (issue 49): two sample lists imported in
//! the menu, a solo game against `hard` on a Search and Destroy pairing, one unit deployed by
//! hand, the battle played through round 2.

use wartable::app::newcomer::{Stop, newcomer_form, play_to};
use wartable::app::screens::table;
use wartable::game::Command;
use wartable::game::save::replay;
use wartable::rules::phase::Stage;

#[test]
fn the_newcomer_imports_two_lists_deploys_a_unit_by_hand_and_plays_through_round_two() {
    let disk = std::env::temp_dir().join(format!("wartable-newcomer-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&disk);
    let form = newcomer_form(&disk).unwrap();
    let listed = form.army_choices();
    for army in &form.armies {
        assert!(listed.contains(army), "{army} is listed in the menu");
    }
    assert!(form.deployment.ends_with("search-and-destroy.ron"));
    let mut started = table::start_new_game(&form, &disk.join("saves"), 1).unwrap();
    for army in &started.origin.armies {
        assert!(
            army.points() >= 1500,
            "{}: {} points",
            army.name,
            army.points()
        );
    }
    let played = play_to(&mut started, Stop::RoundTwoOver).unwrap();
    eprintln!(
        "{} commands, {} refused: {:#?}",
        played.commands,
        played.refused.len(),
        played.refused
    );
    // The unit deployed by hand stands away from where the scene put it.
    let id = played.by_hand.expect("a unit deployed by hand");
    let hand = started
        .save
        .commands
        .iter()
        .find_map(|c| match c {
            Command::Deploy { unit, models, .. } if *unit == id => Some(models.clone()),
            _ => None,
        })
        .unwrap();
    let u = started.origin.armies[0]
        .units
        .iter()
        .find(|u| u.id == id)
        .unwrap();
    assert!(!hand.is_empty(), "the Deploy names where each model goes");
    let moved = hand
        .iter()
        .filter(|p| p.unit.is_none())
        .map(|p| {
            let m = &u.models[p.model];
            (m.position.x - p.x).hypot(m.position.y - p.y)
        })
        .fold(0.0f32, f32::max);
    assert!(moved >= 0.99, "moved {moved}\" from the scene's place");
    let g = &started.game;
    assert!(
        g.stage == Stage::GameOver || g.battle_round == 3,
        "round {} {:?}",
        g.battle_round,
        g.stage
    );
    // The commands given replay to the same game (what the autosave holds loads back).
    let (again, _) = replay(
        started.origin.clone(),
        started.game.seed,
        &started.save.commands,
    )
    .unwrap();
    assert_eq!(again.state_hash(), started.game.state_hash());
    let _ = std::fs::remove_dir_all(disk);
}
