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

/// What the app offers the player who must act now, as commands: the reaction window's choices
/// while attacks wait for the defender, the phase bar's End button, "deploy the rest as
/// placed", and the charge panel's "no charge move" for a charge waiting for its move.
fn offered(game: &wartable::game::Game) -> Vec<Command> {
    use wartable::app::hud::phase_bar::end_step;
    use wartable::app::reaction::reaction_choices;
    if game.pending_shot.is_some() {
        return reaction_choices(game).into_iter().map(|(_, c)| c).collect();
    }
    let acting = game.acting_player().unwrap_or(game.active_player);
    let mut out: Vec<Command> = end_step(game).map(|e| e.command).into_iter().collect();
    out.extend(game.deploy_next_as_placed(acting));
    if let Some(c) = &game.charge {
        out.push(Command::ChargeMove {
            player: game.player_of(c.army),
            unit: game.unit_id(c.army, c.unit).to_string(),
            paths: Vec::new(),
            targets: vec![],
        });
    }
    out
}

/// True when a unit of `player` has an order on its panel now (a move, a shot, a charge, a
/// fight, an arrival...): the unit panel is a way forward too.
fn a_unit_panel_offers_an_order(game: &wartable::game::Game, player: u8) -> bool {
    let Some(army) = game.army_of(player) else {
        return false;
    };
    (0..game.units[army].len()).any(|u| {
        let o = game.unit_options(army, u);
        !o.reserves.is_empty()
            || o.deploy
            || !o.move_modes.is_empty()
            || o.remain_stationary
            || o.shoot
            || o.charge
            || o.charge_move
            || o.fight.is_some()
            || o.arrive
            || o.disembark
    })
}

/// Issue 49: no dead ends. At every moment of the newcomer's game (replayed command by command
/// from its save) the player who must act has a way forward on the screen: a button whose
/// command the engine accepts (End phase, End Scout moves, deploy as placed, the reaction
/// window's pass, the failed charge's end) or a unit panel with an order.
#[test]
fn every_moment_of_the_newcomers_game_has_a_way_forward() {
    let disk = std::env::temp_dir().join(format!("wartable-ways-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&disk);
    let form = newcomer_form(&disk).unwrap();
    let mut started = table::start_new_game(&form, &disk.join("saves"), 1).unwrap();
    play_to(&mut started, Stop::RoundTwoOver).unwrap();
    let (mut game, _) = wartable::game::Game::start(started.origin.clone(), started.game.seed);
    let mut stages = std::collections::BTreeSet::new();
    let mut by_button = 0;
    for (i, c) in started.save.commands.iter().enumerate() {
        let acting = game.acting_player().unwrap_or(game.active_player);
        let button = offered(&game).iter().any(|o| game.check(o).is_ok());
        by_button += usize::from(button);
        assert!(
            button || a_unit_panel_offers_an_order(&game, acting),
            "command {i} ({}): nothing on the screen moves the game on",
            game.describe_now()
        );
        stages.insert(format!("{:?}", game.stage));
        game.apply(c).unwrap();
    }
    // Set-up, deployment, the Scout moves (the Space Wolves have Scouts) and the battle.
    assert!(stages.len() >= 3, "{stages:?}");
    assert!(by_button > 0);
    let _ = std::fs::remove_dir_all(disk);
}
