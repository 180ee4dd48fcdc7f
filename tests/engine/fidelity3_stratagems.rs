//! Core Stratagems as the rules time them, through `Game` commands: Command Re-roll and Insane
//! Bravery used (and paid) only when the roll calls for them, once per phase; Grenade's targets
//! and the unit shooting afterwards; Epic Challenge on one CHARACTER model once its unit is
//! selected to fight; the attack log naming models `unit#N`. shared/RULES.md, Core Stratagems.

use crate::battle;

use battle::*;
use wartable::game::{Command, Game, GameEvent, RerollRoll, WeaponTarget};
use wartable::rules::attack::events::AttackEvent;
use wartable::rules::phase::Phase;
use wartable::rules::rng::GameRng;
use wartable::rules::stratagem::Stratagem;

fn use_stratagem(
    player: u8,
    stratagem: Stratagem,
    unit: &str,
    target: Option<&str>,
    reroll: Option<RerollRoll>,
) -> Command {
    Command::UseStratagem {
        player,
        stratagem,
        unit: unit.into(),
        target: target.map(Into::into),
        reroll,
    }
}

fn shoot(player: u8, unit: &str, weapons: Vec<WeaponTarget>) -> Command {
    Command::Shoot {
        player,
        unit: unit.into(),
        weapons,
    }
}

fn attack_steps(ev: &[GameEvent]) -> Vec<&AttackEvent> {
    ev.iter()
        .filter_map(|e| match e {
            GameEvent::Attack(a) => Some(a),
            _ => None,
        })
        .collect()
}

/// The Stratagems used (and paid) among the events: (player, Stratagem, unit, cost).
fn used(ev: &[GameEvent]) -> Vec<(u8, Stratagem, String, u32)> {
    ev.iter()
        .filter_map(|e| match e {
            GameEvent::StratagemUsed {
                player,
                stratagem,
                unit,
                cost,
                ..
            } => Some((*player, *stratagem, unit.clone(), *cost)),
            _ => None,
        })
        .collect()
}

/// The Intercessors (and Captain) and the Hellblasters 10" south of the Nobz, player 1's
/// Shooting phase, 5 CP for player 1 and none for player 2 (so no reaction waits).
fn shooters_facing_nobz() -> Game {
    let mut g = deployed_game(open_field());
    isolate(
        &mut g,
        &[(1, "intercessors"), (1, "hellblasters"), (2, "nobz")],
    );
    put_line(&mut g, 1, "intercessors", 8.0, 10.0, 1.5);
    put(&mut g, 1, "captain", 0, 8.0, 11.6);
    put_line(&mut g, 1, "hellblasters", 8.0, 7.0, 1.5);
    put_line(&mut g, 2, "nobz", 8.0, 20.0, 1.6);
    advance_to(&mut g, 1, Phase::Shooting);
    g.cp = [5, 0];
    g
}

/// Finding 5: a Command Re-roll set before the roll is paid only when the roll is re-rolled,
/// is used once per phase by the player across all their units (the other instructions then
/// lapse), and a failed roll of another unit is not re-rolled afterwards.
#[test]
fn command_reroll_is_paid_when_used_and_used_once_per_phase() {
    let mut g = shooters_facing_nobz();
    let (a, hb) = unit_ref(&g, 1, "hellblasters");
    // Both units are given the instruction; nothing is paid yet.
    accepted(
        &mut g,
        use_stratagem(
            1,
            Stratagem::CommandReroll,
            "intercessors",
            None,
            Some(RerollRoll::Hit),
        ),
    );
    assert_eq!(g.cp[0], 5, "nothing is paid before the roll");
    accepted(
        &mut g,
        use_stratagem(
            1,
            Stratagem::CommandReroll,
            "hellblasters",
            None,
            Some(RerollRoll::Hit),
        ),
    );
    assert_eq!(g.cp[0], 5);
    // One Intercessor: hit 1 (re-rolled to 4), hit 4; wounds 5 5; saves 1 1.
    g.rng = GameRng::scripted(&[1, 4, 4, 5, 5, 1, 1]);
    let ev = shot(
        &mut g,
        shoot(
            1,
            "intercessors",
            vec![WeaponTarget::new("Bolt rifle", "nobz").by_models(vec!["intercessors#0".into()])],
        ),
    );
    let first_hit = attack_steps(&ev)
        .into_iter()
        .find_map(|s| match s {
            AttackEvent::HitRoll {
                roll,
                rerolled_from,
                rerolled_by,
                ..
            } => Some((*roll, *rerolled_from, *rerolled_by)),
            _ => None,
        })
        .expect("a hit roll");
    assert_eq!(first_hit, (4, Some(1), Some("Command Re-roll")));
    assert_eq!(
        used(&ev),
        vec![(1, Stratagem::CommandReroll, "intercessors".to_string(), 1)]
    );
    assert_eq!(g.cp[0], 4, "paid once, when used");
    // Once per phase: the Hellblasters' instruction lapsed and none can be given now.
    assert_eq!(g.units[a][hb].command_reroll, None);
    let r = rejected(
        &mut g,
        use_stratagem(
            1,
            Stratagem::CommandReroll,
            "hellblasters",
            None,
            Some(RerollRoll::Hit),
        ),
    );
    assert!(r.reason.contains("once per phase"), "{r}");
    // The Hellblasters' failed hit stays failed.
    g.rng = GameRng::scripted(&[1, 1, 1, 1]);
    let ev = shot(
        &mut g,
        shoot(
            1,
            "hellblasters",
            vec![
                WeaponTarget::new("Plasma incinerator", "nobz")
                    .with_profile("standard")
                    .by_models(vec!["hellblasters#0".into()]),
            ],
        ),
    );
    let hits: Vec<(u8, Option<&str>)> = attack_steps(&ev)
        .into_iter()
        .filter_map(|s| match s {
            AttackEvent::HitRoll {
                roll, rerolled_by, ..
            } => Some((*roll, *rerolled_by)),
            _ => None,
        })
        .collect();
    assert_eq!(hits.first(), Some(&(1, None)), "{hits:?}");
    assert!(used(&ev).is_empty());
    assert_eq!(g.cp[0], 4);
}

/// Finding 5: a Command Re-roll set and not used lapses at the end of the phase, unpaid; it
/// does not carry into a later phase or round.
#[test]
fn an_unused_command_reroll_lapses_at_the_end_of_the_phase() {
    let mut g = shooters_facing_nobz();
    let (a, u) = unit_ref(&g, 1, "intercessors");
    accepted(
        &mut g,
        use_stratagem(
            1,
            Stratagem::CommandReroll,
            "intercessors",
            None,
            Some(RerollRoll::Wound),
        ),
    );
    assert_eq!(g.units[a][u].command_reroll, Some(RerollRoll::Wound));
    let ev = accepted(&mut g, Command::EndPhase { player: 1 });
    assert!(used(&ev).is_empty());
    assert_eq!(g.phase, Phase::Charge);
    assert_eq!(g.units[a][u].command_reroll, None, "lapsed with the phase");
    assert_eq!(g.cp[0], 5, "never paid");
}

/// The Intercessors (with their Captain) down to 2 of 10 Intercessors, Below Half-strength,
/// in player 1's Command phase with 5 CP.
fn intercessors_below_half() -> Game {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "intercessors")]);
    put_line(&mut g, 1, "intercessors", 8.0, 10.0, 1.5);
    put(&mut g, 1, "captain", 0, 8.0, 11.6);
    let (a, u) = unit_ref(&g, 1, "intercessors");
    for m in 0..8 {
        g.units[a][u].models[m].alive = false;
    }
    g.cp = [5, 5];
    g
}

fn battle_shock_passed(ev: &[GameEvent]) -> bool {
    ev.iter()
        .find_map(|e| match e {
            GameEvent::BattleShockTest { unit, passed, .. } if unit == "intercessors" => {
                Some(*passed)
            }
            _ => None,
        })
        .expect("a Battle-shock test")
}

/// Finding 6: Insane Bravery set for a unit whose Battle-shock test passes is not used: no CP
/// and not its once per battle. When the test fails it is used then, and the test passes.
#[test]
fn insane_bravery_is_used_only_on_a_failed_battle_shock_test() {
    let mut g = intercessors_below_half();
    let (a, u) = unit_ref(&g, 1, "intercessors");
    accepted(
        &mut g,
        use_stratagem(1, Stratagem::InsaneBravery, "intercessors", None, None),
    );
    assert_eq!(g.cp[0], 5, "nothing is paid before the test");
    let before = g.clone();
    // 6 + 6 passes Leadership 6+ by itself.
    g.rng = GameRng::scripted(&[6, 6]);
    let ev = accepted(&mut g, Command::EndPhase { player: 1 });
    assert!(battle_shock_passed(&ev));
    assert!(used(&ev).is_empty(), "{ev:?}");
    assert_eq!(g.cp[0], 5);
    assert!(!g.insane_bravery_used[0], "still to be used this battle");
    // 1 + 1 fails: Insane Bravery is used now and the test is passed instead.
    let mut failing = before;
    failing.rng = GameRng::scripted(&[1, 1]);
    let ev = accepted(&mut failing, Command::EndPhase { player: 1 });
    assert!(battle_shock_passed(&ev));
    assert_eq!(
        used(&ev),
        vec![(1, Stratagem::InsaneBravery, "intercessors".to_string(), 1)]
    );
    assert_eq!(failing.cp[0], 4);
    assert!(failing.insane_bravery_used[0]);
    assert!(!failing.units[a][u].battle_shocked);
}

/// The Intercessors (with their Captain) 6" south of the Nobz, the Hellblasters in Engagement
/// Range of the Nobz beyond them; player 1's Shooting phase with 5 CP each.
fn grenade_at_engaged_nobz() -> Game {
    let mut g = deployed_game(open_field());
    isolate(
        &mut g,
        &[(1, "intercessors"), (1, "hellblasters"), (2, "nobz")],
    );
    put_line(&mut g, 1, "intercessors", 8.0, 10.0, 1.5);
    put(&mut g, 1, "captain", 0, 8.0, 11.6);
    put_line(&mut g, 2, "nobz", 8.0, 16.0, 1.6);
    put_line(&mut g, 1, "hellblasters", 8.0, 17.8, 1.6);
    advance_to(&mut g, 1, Phase::Shooting);
    g.cp = [5, 5];
    g
}

/// Finding 7: Grenade cannot target an enemy unit within Engagement Range of the player's
/// army; the GRENADES unit may still be selected to shoot after using it.
#[test]
fn grenade_spares_engaged_enemies_and_leaves_the_unit_free_to_shoot() {
    let mut g = grenade_at_engaged_nobz();
    let (a, nobz) = unit_ref(&g, 2, "nobz");
    let (b, hb) = unit_ref(&g, 1, "hellblasters");
    assert!(
        g.units_engaged((a, nobz), (b, hb)),
        "the set-up engages them"
    );
    let grenade = || use_stratagem(1, Stratagem::Grenade, "intercessors", Some("nobz"), None);
    let r = rejected(&mut g, grenade());
    assert_eq!(r.rule, wartable::game::Rule::Stratagem(Stratagem::Grenade));
    assert!(r.reason.contains("Engagement Range"), "{r}");
    // With the Hellblasters gone from the fight, the Grenade goes in, and the Intercessors
    // shoot afterwards.
    put_line(&mut g, 1, "hellblasters", 40.0, 5.0, 1.5);
    // Not after an Advance (shared/RULES.md: Grenade).
    let mut advanced = g.clone();
    let (i, u) = unit_ref(&advanced, 1, "intercessors");
    advanced.units[i][u].moved = Some(wartable::rules::movement::Moved::Moved(
        wartable::rules::movement::MoveMode::Advance,
    ));
    let r = rejected(&mut advanced, grenade());
    assert!(r.reason.contains("Advanced or Fell Back"), "{r}");
    accepted(&mut g, grenade());
    let (i, u) = unit_ref(&g, 1, "intercessors");
    assert!(
        !g.units[i][u].shot,
        "using Grenade is not being selected to shoot"
    );
    let ev = shot(
        &mut g,
        shoot(
            1,
            "intercessors",
            vec![WeaponTarget::new("Bolt rifle", "nobz")],
        ),
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, GameEvent::Attacked { unit, .. } if unit == "intercessors")),
        "{ev:?}"
    );
}

/// The two-leaders scene: the Captain and the Lieutenant, leading the Intercessors, in base
/// contact with the slugga Boyz led by the Warboss; player 2's Fight phase, where player 1
/// selects first (no unit charged). The units are put there once the phase has begun.
fn two_leaders_in_combat() -> Game {
    let file =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenes/two-leaders.ron");
    let mut g = deployed_game(wartable::data::load_scene(&file).unwrap());
    isolate(&mut g, &[(1, "intercessors"), (2, "boyz-mob")]);
    advance_to(&mut g, 2, Phase::Fight);
    put_line(&mut g, 2, "boyz-mob", 8.0, 10.0, 1.3);
    // The Warboss on the Leaders' side of the Boyz, in the Lieutenant's plain sight.
    put(&mut g, 2, "warboss", 0, 15.15, 8.4);
    put_line(&mut g, 1, "intercessors", 8.0, 5.5, 1.5);
    // Boyz at x = 9.3 and 11.9; 40 mm and 32 mm bases touch 1.42" apart.
    put(&mut g, 1, "captain", 0, 9.3, 8.56);
    put(&mut g, 1, "lieutenant", 0, 11.9, 8.56);
    g.cp = [5, 5];
    g
}

/// (weapon group, model) of every allocation among the events, in order.
fn allocations(ev: &[GameEvent]) -> Vec<(String, String)> {
    let mut weapon = String::new();
    let mut out = Vec::new();
    for s in attack_steps(ev) {
        match s {
            AttackEvent::Weapon { weapon: w, .. } => weapon = w.clone(),
            AttackEvent::Allocated { name, .. } => out.push((weapon.clone(), name.clone())),
            _ => {}
        }
    }
    out
}

/// Finding 10: Epic Challenge is used when the unit is selected to fight, on one CHARACTER
/// model: only the Lieutenant named gains PRECISION (its wounds go to the Warboss), not the
/// Captain beside it (its wounds go to the Boyz).
#[test]
fn epic_challenge_names_one_character_once_its_unit_is_selected_to_fight() {
    let mut g = two_leaders_in_combat();
    assert_eq!(g.next_to_fight().map(|(p, _)| p), Some(1));
    let challenge = || use_stratagem(1, Stratagem::EpicChallenge, "lieutenant#0", None, None);
    // Not before the unit is selected to fight.
    let r = rejected(&mut g, challenge());
    assert!(r.reason.contains("selected to fight"), "{r}");
    accepted(
        &mut g,
        Command::PileIn {
            player: 1,
            unit: "intercessors".into(),
            paths: vec![],
        },
    );
    let ev = accepted(&mut g, challenge());
    assert_eq!(
        used(&ev),
        vec![(1, Stratagem::EpicChallenge, "intercessors".to_string(), 1)]
    );
    // Every hit, wound and failed save on 5s (the Captain's AP -2 leaves the Boyz no save).
    g.rng = GameRng::scripted(&[5; 60]);
    let ev = accepted(
        &mut g,
        Command::Fight {
            player: 1,
            unit: "intercessors".into(),
            weapons: vec![
                WeaponTarget::new("Master-crafted power weapon", "boyz-mob"),
                WeaponTarget::new("Close combat weapon", "boyz-mob")
                    .by_models(vec!["lieutenant#0".into()]),
            ],
        },
    );
    let allocated = allocations(&ev);
    let captain: Vec<&str> = allocated
        .iter()
        .filter(|(w, _)| w == "Master-crafted power weapon")
        .map(|(_, m)| m.as_str())
        .collect();
    let lieutenant: Vec<&str> = allocated
        .iter()
        .filter(|(w, _)| w == "Close combat weapon")
        .map(|(_, m)| m.as_str())
        .collect();
    assert!(
        !captain.is_empty() && !lieutenant.is_empty(),
        "{allocated:?}"
    );
    assert!(
        captain.iter().all(|m| m.starts_with("boyz-mob#")),
        "the Captain has no PRECISION: {allocated:?}"
    );
    assert!(
        lieutenant.iter().all(|m| *m == "warboss#0"),
        "the Lieutenant's attacks have PRECISION: {allocated:?}"
    );
}

/// Finding 16: the game's attack log names the wounded model `unit#N` (N its index in its
/// own unit), not its place among the target's models still alive.
#[test]
fn the_attack_log_names_wounded_models_by_unit_and_number() {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "intercessors"), (2, "boyz-mob")]);
    put_line(&mut g, 1, "intercessors", 8.0, 10.0, 1.5);
    put(&mut g, 1, "captain", 0, 8.0, 11.6);
    put_rows(&mut g, 2, "boyz-mob", (8.0, 20.0), 1.3, 10);
    put(&mut g, 2, "warboss", 0, 8.0, 23.5);
    // The first six Boyz (the Boss Nob among them) are gone: the first one alive is #6.
    let (a, u) = unit_ref(&g, 2, "boyz-mob");
    for m in 0..6 {
        g.units[a][u].models[m].alive = false;
    }
    advance_to(&mut g, 1, Phase::Shooting);
    g.cp = [5, 0];
    // Hits 6 6, wounds 6 6, saves 1 1: two Boyz lose their wound.
    g.rng = GameRng::scripted(&[6, 6, 6, 6, 1, 1]);
    let ev = shot(
        &mut g,
        shoot(
            1,
            "intercessors",
            vec![
                WeaponTarget::new("Bolt rifle", "boyz-mob")
                    .by_models(vec!["intercessors#0".into()]),
            ],
        ),
    );
    let mut lost = 0;
    for s in attack_steps(&ev) {
        let v = serde_json::to_value(s).unwrap();
        let kind = v["event"].as_str().unwrap_or_default();
        if !kind.contains("wound_lost") && !kind.contains("feel_no_pain") {
            continue;
        }
        let model = v["model"].as_str().unwrap_or_else(|| panic!("{v}"));
        let n: usize = model
            .strip_prefix("boyz-mob#")
            .unwrap_or_else(|| panic!("{v}"))
            .parse()
            .unwrap();
        assert!(n >= 6, "{v}");
        lost += 1;
    }
    assert_eq!(lost, 2, "{ev:?}");
    let text: Vec<String> = ev.iter().map(ToString::to_string).collect();
    let lines: Vec<&String> = text.iter().filter(|l| l.contains("loses a")).collect();
    assert_eq!(lines.len(), 2, "{text:#?}");
    for l in lines {
        assert!(l.trim_start().starts_with("boyz-mob#"), "{l}");
    }
}

/// Finding 17: TWIN-LINKED was described as "re-roll failed"; the weapon lets each attack's
/// Wound roll be re-rolled (Core Rules: Twin-linked), which the engine does when it fails, and
/// the note shown with the weapon says so.
#[test]
fn twin_linked_is_described_as_a_wound_roll_re_roll() {
    use wartable::rules::WeaponAbility;
    use wartable::rules::attack::{AttackContext, ResolvedWeapon, TargetModel, TargetUnit};
    use wartable::rules::attack::{Reroll, WeaponGroup};
    let profile = crate::common::weapon("2", 3, 4, 0, "1", vec![WeaponAbility::TwinLinked]);
    let target = TargetUnit {
        name: "t".into(),
        toughness: 4,
        keywords: vec![],
        stealth: false,
        models: vec![TargetModel {
            name: "t#0".into(),
            wounds: 1,
            wounds_remaining: 1,
            save: 4,
            invulnerable_save: None,
            feel_no_pain: None,
            leader: false,
            has_cover: false,
            allocation_rank: 0,
            allocated_this_phase: false,
        }],
    };
    let w = ResolvedWeapon::new(
        &WeaponGroup::new(profile, 1),
        &target,
        &AttackContext::default(),
    );
    assert_eq!(w.wound_reroll, Reroll::Failed);
    let note = w
        .notes
        .iter()
        .find(|n| n.starts_with("TWIN-LINKED"))
        .expect("a TWIN-LINKED note");
    assert!(note.contains("Wound roll may be re-rolled"), "{note}");
    assert!(!note.contains("re-roll failed"), "{note}");
}
