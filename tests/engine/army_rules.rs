//! Army rules, Detachment rules, Enhancements, Detachment Stratagems and datasheet abilities as
//! the engine applies them (game/effects.rs), through `Game` commands and queries: Oath of
//! Moment and the Gladius Task Force for the Ultramarines, the Waaagh! and the War Horde for the
//! Orks, the hand-written datasheets' abilities, and the referee override. Each test fails on
//! an engine that applies only the core rules.

use std::path::Path;

use crate::battle;

use battle::*;
use wartable::data::load_scene;
use wartable::game::effects::RefereeAction;
use wartable::game::rejection::Rule;
use wartable::game::sight::ModelRef;
use wartable::game::{Command, Game, GameEvent, WeaponTarget};
use wartable::rules::effect::{Effect, Modifier, When};
use wartable::rules::movement::{MoveMode, Moved};
use wartable::rules::phase::Phase;

fn scene(name: &str) -> wartable::data::Scene {
    load_scene(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/scenes")
            .join(name),
    )
    .unwrap()
}

/// The test armies with their Detachments and Enhancements, deployed, round 1, player 1's
/// Command phase.
fn rules_game() -> Game {
    deployed_game(scene("army-rules.ron"))
}

fn choose(player: u8, rule: &str, pick: Option<&str>) -> Command {
    Command::RuleChoice {
        player,
        rule: rule.into(),
        pick: pick.map(Into::into),
        by: None,
    }
}

fn stratagem(player: u8, name: &str, unit: &str) -> Command {
    Command::UseRuleStratagem {
        player,
        stratagem: name.into(),
        unit: unit.into(),
    }
}

/// Expected wounds lost by `target` when `player`'s `unit` attacks it with `weapon`.
fn expected(g: &Game, player: u8, unit: &str, weapon: &str, target: &str, melee: bool) -> f64 {
    g.preview_attacks(player, unit, &[WeaponTarget::new(weapon, target)], melee)
        .unwrap_or_else(|r| panic!("{unit} {weapon} at {target}: {r}"))[0]
        .distribution
        .expected_wounds_lost
}

/// The Intercessors (Captain behind them) 10" south of the Nobz, the Lootas to the east.
fn intercessors_facing_nobz(g: &mut Game) {
    isolate(
        g,
        &[
            (1, "intercessors"),
            (2, "nobz"),
            (2, "lootas"),
            (2, "boyz-mob"),
        ],
    );
    put_line(g, 1, "intercessors", 8.0, 10.0, 1.5);
    put(g, 1, "captain", 0, 8.0, 8.4);
    put_line(g, 2, "nobz", 8.0, 20.0, 1.6);
    put_line(g, 2, "lootas", 26.0, 20.0, 1.6);
    put_rows(g, 2, "boyz-mob", (30.0, 30.0), 1.4, 10);
    put(g, 2, "warboss", 0, 28.0, 30.0);
}

#[test]
fn oath_of_moment_rerolls_failed_hits_at_its_target_until_the_next_command_phase() {
    let mut g = rules_game();
    intercessors_facing_nobz(&mut g);
    // Only an enemy unit on the battlefield can be picked, and only in the Command phase.
    let r = rejected(&mut g, choose(1, "Oath of Moment", Some("intercessors")));
    assert_eq!(r.rule, Rule::ArmyRules, "{r}");
    let r = rejected(&mut g, choose(1, "Oath of Moment", None));
    assert!(r.reason.contains("needs a pick"), "{r}");
    let mut plain = g.clone();
    let ev = accepted(&mut g, choose(1, "Oath of Moment", Some("nobz")));
    assert!(
        ev.iter()
            .any(|e| matches!(e, GameEvent::RuleChosen { pick: Some(p), .. } if p == "nobz"))
    );
    let r = rejected(&mut g, choose(1, "Oath of Moment", Some("lootas")));
    assert_eq!(r.rule, Rule::ArmyRules, "one Oath per Command phase: {r}");
    advance_to(&mut g, 1, Phase::Shooting);
    advance_to(&mut plain, 1, Phase::Shooting);
    let r = rejected(&mut g, choose(1, "Oath of Moment", Some("lootas")));
    assert!(r.reason.contains("Command phase"), "{r}");
    let oath = expected(&g, 1, "intercessors", "Bolt rifle", "nobz", false);
    let none = expected(&plain, 1, "intercessors", "Bolt rifle", "nobz", false);
    // HEAVY (Remained Stationary) makes it 2+ to hit: 5/6 becomes 35/36 with the re-roll.
    assert!(
        oath > none * 1.1,
        "re-rolled failed hits: {oath} against {none}"
    );
    // Another target gets nothing.
    let other = expected(&g, 1, "intercessors", "Bolt rifle", "lootas", false);
    let other_plain = expected(&plain, 1, "intercessors", "Bolt rifle", "lootas", false);
    assert!((other - other_plain).abs() < 1e-12, "{other} {other_plain}");
    // It lasts through the opponent's turn and ends as its player's next Command phase begins.
    advance_to(&mut g, 2, Phase::Fight);
    assert_eq!(g.effects.choices.len(), 1);
    advance_to(&mut g, 1, Phase::Command);
    assert!(g.effects.choices.is_empty(), "{:?}", g.effects.choices);
    assert!(
        g.rule_choice_options(1)
            .iter()
            .any(|(r, picks)| r == "Oath of Moment" && picks.contains(&"lootas".to_string()))
    );
}

#[test]
fn the_waaagh_is_called_once_per_battle_and_boosts_melee_saves_and_charges() {
    let mut g = rules_game();
    isolate(&mut g, &[(1, "intercessors"), (2, "boyz-mob")]);
    advance_to(&mut g, 2, Phase::Command);
    put_line(&mut g, 1, "intercessors", 8.0, 10.0, 1.5);
    put(&mut g, 1, "captain", 0, 8.0, 8.4);
    put_line(&mut g, 2, "boyz-mob", 6.0, 11.5, 1.35);
    put(&mut g, 2, "warboss", 0, 8.0, 13.2);
    let mut plain = g.clone();
    let r = rejected(&mut g, choose(2, "Waaagh!", Some("nobz")));
    assert!(r.reason.contains("declared"), "{r}");
    accepted(&mut g, choose(2, "Waaagh!", None));
    // +1 Strength and Attacks in melee; a 5+ invulnerable save.
    let melee = expected(&g, 2, "boyz-mob", "Choppa", "intercessors", true);
    let melee_plain = expected(&plain, 2, "boyz-mob", "Choppa", "intercessors", true);
    assert!(melee > melee_plain * 1.2, "{melee} {melee_plain}");
    let (army, boyz) = unit_ref(&g, 2, "boyz-mob");
    let boy = ModelRef {
        army,
        unit: boyz,
        model: 3,
    };
    let (iarmy, icept) = unit_ref(&g, 1, "intercessors");
    assert_eq!(g.model_defences(boy, (iarmy, icept), false).1, Some(5));
    assert_eq!(plain.model_defences(boy, (iarmy, icept), false).1, None);
    // Da Biggest and da Best: the Warboss's own melee weapons +4 Attacks under the Waaagh!.
    let (_, warboss) = unit_ref(&g, 2, "warboss");
    let c = g.attack_changes((army, warboss), (iarmy, icept), true);
    assert_eq!(c.attacks, 5, "{c:?}");
    assert_eq!(
        plain
            .attack_changes((army, warboss), (iarmy, icept), true)
            .attacks,
        0
    );
    // A unit that Advanced may still charge.
    for game in [&mut g, &mut plain] {
        advance_to(game, 2, Phase::Movement);
        put_line(game, 2, "boyz-mob", 6.0, 20.0, 1.35);
        put(game, 2, "warboss", 0, 8.0, 21.5);
        let (a, u) = unit_ref(game, 2, "boyz-mob");
        game.for_combined(a, u, |s| s.moved = Some(Moved::Moved(MoveMode::Advance)));
        advance_to(game, 2, Phase::Charge);
    }
    let (a, u) = unit_ref(&g, 2, "boyz-mob");
    assert!(
        !g.charge_targets(a, u).is_empty(),
        "the Waaagh! lets it charge"
    );
    assert!(
        plain.charge_targets(a, u).is_empty(),
        "without it, no charge after Advancing"
    );
    // Once per battle.
    advance_to(&mut g, 2, Phase::Command);
    assert!(
        g.effects.choices.is_empty(),
        "it ended as the Command phase began"
    );
    let r = rejected(&mut g, choose(2, "Waaagh!", None));
    assert!(r.reason.contains("once per battle"), "{r}");
}

#[test]
fn combat_doctrines_each_once_and_the_devastator_doctrine_lets_advanced_units_shoot() {
    let mut g = rules_game();
    intercessors_facing_nobz(&mut g);
    accepted(
        &mut g,
        choose(1, "Combat Doctrines", Some("Devastator Doctrine")),
    );
    let mut plain = rules_game();
    intercessors_facing_nobz(&mut plain);
    for game in [&mut g, &mut plain] {
        advance_to(game, 1, Phase::Movement);
        let (a, u) = unit_ref(game, 1, "intercessors");
        game.for_combined(a, u, |s| s.moved = Some(Moved::Moved(MoveMode::Advance)));
        advance_to(game, 1, Phase::Shooting);
    }
    // The Captain's master-crafted bolter is no ASSAULT weapon.
    assert!(
        expected(
            &g,
            1,
            "intercessors",
            "Master-crafted bolter",
            "nobz",
            false
        ) > 0.1
    );
    let refused = plain
        .preview_attacks(
            1,
            "intercessors",
            &[WeaponTarget::new("Master-crafted bolter", "nobz")],
            false,
        )
        .unwrap_err();
    assert!(refused.reason.contains("Advanced"), "{refused}");
    // Storm of Fire: 1 CP, once per phase, AP improved by 1 under the Devastator Doctrine.
    let before = expected(&g, 1, "intercessors", "Bolt rifle", "nobz", false);
    let cp = g.cp[0];
    let ev = accepted(&mut g, stratagem(1, "Storm of Fire", "intercessors"));
    assert!(
        ev.iter()
            .any(|e| matches!(e, GameEvent::RuleStratagemUsed { cp: 1, .. }))
    );
    assert_eq!(g.cp[0], cp - 1);
    let after = expected(&g, 1, "intercessors", "Bolt rifle", "nobz", false);
    assert!(
        after > before * 1.2,
        "AP -1 becomes -2 against a 4+ save: {after} {before}"
    );
    let r = rejected(&mut g, stratagem(1, "Storm of Fire", "intercessors"));
    assert!(r.reason.contains("already used this phase"), "{r}");
    // It ends with the phase; in the Fight phase it cannot be used.
    advance_to(&mut g, 1, Phase::Fight);
    assert!(g.effects.active.is_empty());
    let r = rejected(&mut g, stratagem(1, "Storm of Fire", "intercessors"));
    assert_eq!(r.rule, Rule::Stratagems, "{r}");
    // Next Command phase: the Devastator Doctrine is gone and cannot be picked again.
    advance_to(&mut g, 1, Phase::Command);
    let r = rejected(
        &mut g,
        choose(1, "Combat Doctrines", Some("Devastator Doctrine")),
    );
    assert_eq!(r.rule, Rule::ArmyRules, "{r}");
    accepted(
        &mut g,
        choose(1, "Combat Doctrines", Some("Tactical Doctrine")),
    );
    let (a, u) = unit_ref(&g, 1, "intercessors");
    assert!(g.unit_may(a, u, &Modifier::ShootAfterFallingBack));
    assert!(!g.unit_may(a, u, &Modifier::ShootAfterAdvancing));
}

#[test]
fn armour_of_contempt_is_used_in_the_opponents_turn_and_worsens_their_ap() {
    let mut g = rules_game();
    intercessors_facing_nobz(&mut g);
    let r = rejected(&mut g, stratagem(1, "Armour of Contempt", "intercessors"));
    assert_eq!(r.rule, Rule::Stratagems, "not in its own turn: {r}");
    advance_to(&mut g, 2, Phase::Shooting);
    let plain = g.clone();
    accepted(&mut g, stratagem(1, "Armour of Contempt", "intercessors"));
    let with = expected(&g, 2, "lootas", "Deffgun", "intercessors", false);
    let without = expected(&plain, 2, "lootas", "Deffgun", "intercessors", false);
    assert!(with < without * 0.9, "{with} {without}");
}

#[test]
fn enhancements_change_their_bearer_and_an_ineligible_one_is_refused_where_it_is_written() {
    let g = rules_game();
    let (a, captain) = unit_ref(&g, 1, "captain");
    let (o, boyz) = unit_ref(&g, 2, "boyz-mob");
    let r = ModelRef {
        army: a,
        unit: captain,
        model: 0,
    };
    // Artificer Armour: 2+ Save and Feel No Pain 5+.
    let (fnp, _, save, sources) = g.model_defences(r, (o, boyz), false);
    assert_eq!((fnp, save), (Some(5), Some(2)), "{sources:?}");
    // The Honour Vehement: +1 Attacks and Strength in melee (+2 under the Assault Doctrine).
    let (_, lieutenant) = unit_ref(&g, 1, "lieutenant");
    let c = g.attack_changes((a, lieutenant), (o, boyz), true);
    assert_eq!((c.attacks, c.strength), (1, 1));
    assert_eq!(
        g.attack_changes((a, lieutenant), (o, boyz), false).attacks,
        0
    );
    // Supa-Cybork Body: Feel No Pain 4+ for the Warboss.
    let (_, warboss) = unit_ref(&g, 2, "warboss");
    let w = ModelRef {
        army: o,
        unit: warboss,
        model: 0,
    };
    assert_eq!(g.model_defences(w, (a, captain), true).0, Some(4));
    // The points of an Enhancement count towards its bearer's.
    let plain = deployed_game(open_field());
    let points = |g: &Game, p: u8| g.scene.armies[g.army_of(p).unwrap()].points();
    assert_eq!(points(&g, 1), points(&plain, 1) + 10 + 15);
    assert_eq!(points(&g, 2), points(&plain, 2) + 15);
    // An Enhancement on a unit that is not a CHARACTER: an error at its line and column.
    let dir = std::env::temp_dir().join("wartable-enhancement-test");
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenes/war-horde-army.ron"),
    )
    .unwrap()
    .replace(
        "../../scenes/",
        &format!("{}/scenes/", env!("CARGO_MANIFEST_DIR")),
    )
    .replace(
        "Unit(id: \"nobz\", datasheet: \"Nobz\", models: 5,",
        "Unit(id: \"nobz\", datasheet: \"Nobz\", models: 5, enhancements: [\"Follow Me Ladz\"],",
    );
    let file = dir.join("army.ron");
    std::fs::write(&file, &text).unwrap();
    let e = wartable::data::load_army(&file, 2).unwrap_err().to_string();
    assert!(
        e.contains("army.ron:") && e.contains("not a CHARACTER"),
        "{e}"
    );
    let line = text
        .lines()
        .position(|l| l.contains("Follow Me Ladz"))
        .unwrap()
        + 1;
    assert!(e.contains(&format!("army.ron:{line}:")), "{e}");
}

#[test]
fn the_war_horde_gives_sustained_hits_in_melee_and_its_stratagems_work() {
    let setup = |g: &mut Game| {
        isolate(g, &[(1, "intercessors"), (2, "boyz-mob")]);
        advance_to(g, 2, Phase::Fight);
        put_line(g, 1, "intercessors", 8.0, 10.0, 1.5);
        put(g, 1, "captain", 0, 8.0, 8.4);
        put_line(g, 2, "boyz-mob", 6.0, 11.5, 1.35);
        put(g, 2, "warboss", 0, 8.0, 13.2);
    };
    let mut g = rules_game();
    setup(&mut g);
    let mut core = deployed_game(open_field());
    core_rules_only(&mut core);
    setup(&mut core);
    let horde = expected(&g, 2, "boyz-mob", "Choppa", "intercessors", true);
    let without = expected(&core, 2, "boyz-mob", "Choppa", "intercessors", true);
    assert!(horde > without * 1.05, "Get Stuck In: {horde} {without}");
    g.cp[1] = 3;
    accepted(&mut g, stratagem(2, "Unbridled Carnage", "boyz-mob"));
    assert_eq!(g.cp[1], 2);
    let carnage = expected(&g, 2, "boyz-mob", "Choppa", "intercessors", true);
    assert!(
        carnage > horde * 1.03,
        "Critical Hits on 5+: {carnage} {horde}"
    );
    // 'Ard as Nails: only attacks whose Strength beats the Toughness.
    let (o, nobz) = unit_ref(&g, 2, "boyz-mob");
    let (a, i) = unit_ref(&g, 1, "intercessors");
    let mut h = rules_game();
    advance_to(&mut h, 1, Phase::Shooting);
    accepted(&mut h, stratagem(2, "'Ard as Nails", "boyz-mob"));
    assert_eq!(h.defence_changes((o, nobz), (a, i), false, true).wound, -1);
    assert_eq!(h.defence_changes((o, nobz), (a, i), false, false).wound, 0);
    // 'Ere We Go: +2 to the Charge roll.
    let mut c = rules_game();
    isolate(&mut c, &[(1, "intercessors"), (2, "boyz-mob")]);
    put_line(&mut c, 1, "intercessors", 8.0, 10.0, 1.5);
    put(&mut c, 1, "captain", 0, 8.0, 8.4);
    put_line(&mut c, 2, "boyz-mob", 6.0, 18.0, 1.35);
    put(&mut c, 2, "warboss", 0, 8.0, 19.5);
    advance_to(&mut c, 2, Phase::Charge);
    accepted(&mut c, stratagem(2, "'Ere We Go", "boyz-mob"));
    accepted(
        &mut c,
        Command::DeclareCharge {
            player: 2,
            unit: "boyz-mob".into(),
            targets: vec!["intercessors".into()],
        },
    );
    let charge = c.charge.clone().unwrap();
    assert_eq!(
        charge.distance(),
        f32::from(charge.dice[0] + charge.dice[1]) + 2.0
    );
}

#[test]
fn the_hand_written_datasheets_abilities_apply() {
    let g = deployed_game(open_field());
    let find = |p: u8, id: &str| unit_ref(&g, p, id);
    let (a, redemptor) = find(1, "redemptor");
    let (o, boyz) = find(2, "boyz-mob");
    // Duty Eternal: -1 Damage against the Redemptor.
    assert_eq!(
        g.defence_changes((a, redemptor), (o, boyz), false, true)
            .damage,
        -1
    );
    // Tactical Precision: LETHAL HITS while the Lieutenant leads the Assault Intercessors.
    let (_, ai) = find(1, "assault-intercessors");
    let c = g.attack_changes((a, ai), (o, boyz), true);
    assert!(
        c.abilities
            .contains(&wartable::rules::WeaponAbility::LethalHits),
        "{c:?}"
    );
    // Shock Assault: their melee Wound rolls of 1 re-rolled.
    assert_eq!(
        c.reroll_wounds,
        wartable::rules::attack::Reroll::Ones,
        "{c:?}"
    );
    // Might is Right: +1 to hit in melee for the Boyz the Warboss leads.
    let (_, icept) = find(1, "intercessors");
    assert_eq!(g.attack_changes((o, boyz), (a, icept), true).hit, 1);
    assert_eq!(g.attack_changes((o, boyz), (a, icept), false).hit, 0);
    // Damaged: 1-4 wounds remaining: -1 to hit once the Redemptor is down to 4 wounds.
    let mut hurt = g.clone();
    assert_eq!(hurt.attack_changes((a, redemptor), (o, boyz), false).hit, 0);
    hurt.units[a][redemptor].models[0].wounds = 4;
    assert_eq!(
        hurt.attack_changes((a, redemptor), (o, boyz), false).hit,
        -1
    );
}

#[test]
fn a_ranged_only_invulnerable_save_does_not_apply_in_melee() {
    let mut d = wartable::rules::Datasheet {
        invulnerable_save: Some(5),
        abilities: vec![wartable::rules::Ability {
            name: "Invulnerable Save 5+ (ranged only)".into(),
            text: String::new(),
            effects: Vec::new(),
        }],
        ..deployed_game(open_field()).scene.armies[0].units[0]
            .datasheet
            .as_ref()
            .clone()
    };
    d.gather_effects();
    assert_eq!(d.invulnerable_save, None, "no longer on the datasheet line");
    let e = &d.abilities[0].effects[0];
    assert_eq!(
        e.when,
        When::Attacked(wartable::rules::effect::Attacks::Ranged)
    );
    assert_eq!(e.does, vec![Modifier::InvulnerableSave(5)]);
}

#[test]
fn every_referee_override_is_logged_saved_and_replayed() {
    let prefix = deployment_commands(1);
    let (mut g, _) = wartable::game::save::replay(scene("army-rules.ron"), 1, &prefix).unwrap();
    let mut commands: Vec<Command> = Vec::new();
    let mut give = |g: &mut Game, action: RefereeAction| {
        let c = Command::Referee {
            player: 1,
            action,
            note: "Grand Illusion, applied by hand".into(),
        };
        let ev = accepted(g, c.clone());
        assert!(
            ev.iter().any(
                |e| matches!(e, GameEvent::RefereeOverride { note, .. } if note.contains("Grand Illusion"))
            ),
            "{ev:?}"
        );
        commands.push(c);
    };
    let r = rejected(
        &mut g,
        Command::Referee {
            player: 1,
            action: RefereeAction::CommandPoints { of: 1, change: 1 },
            note: " ".into(),
        },
    );
    assert_eq!(r.rule, Rule::Referee);
    give(
        &mut g,
        RefereeAction::MortalWounds {
            model: "redemptor#0".into(),
            wounds: 3,
        },
    );
    give(
        &mut g,
        RefereeAction::RestoreWounds {
            model: "redemptor#0".into(),
            wounds: 1,
        },
    );
    let (a, red) = unit_ref(&g, 1, "redemptor");
    let full = g.scene.armies[a].units[red].models[0]
        .characteristics
        .wounds;
    assert_eq!(g.units[a][red].models[0].wounds, full - 3 + 1);
    give(
        &mut g,
        RefereeAction::Modify {
            unit: "boyz-mob".into(),
            effects: vec![Effect {
                when: When::Always,
                scope: Default::default(),
                conditions: vec![],
                does: vec![Modifier::Move(-2)],
            }],
            lasts: wartable::data::faction_rules::Lasts::EndOfTurn,
        },
    );
    let (o, boyz) = unit_ref(&g, 2, "boyz-mob");
    let r = ModelRef {
        army: o,
        unit: boyz,
        model: 0,
    };
    assert_eq!(g.model_move_inches(r), 4.0);
    give(
        &mut g,
        RefereeAction::BattleShock {
            unit: "nobz".into(),
            shocked: true,
        },
    );
    let cp = g.cp[1];
    give(&mut g, RefereeAction::CommandPoints { of: 2, change: 2 });
    assert_eq!(g.cp[1], cp + 2);
    give(
        &mut g,
        RefereeAction::MoveModel {
            model: "trukk#0".into(),
            to: (30.0, 22.0, 0.0),
        },
    );
    let (_, nobz) = unit_ref(&g, 2, "nobz");
    assert!(g.units[o][nobz].battle_shocked);
    // Saved and replayed: the same state, the overrides in the log.
    let (replayed, events) =
        wartable::game::save::replay(scene("army-rules.ron"), 1, &[prefix, commands].concat())
            .unwrap();
    assert_eq!(replayed.state_hash(), g.state_hash());
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e, GameEvent::RefereeOverride { .. }))
            .count(),
        6
    );
    // The Move override ends with the turn.
    let first = g.active_player;
    advance_to(&mut g, 3 - first, Phase::Command);
    assert_eq!(g.model_move_inches(r), 6.0);
}

/// The commands that deploy every unit as the scene places it (seed `seed`) and skip the Scout
/// moves: the start of a game at battle round 1.
fn deployment_commands(seed: u64) -> Vec<Command> {
    use wartable::rules::phase::Stage;
    let (mut fresh, _) = Game::start(scene("army-rules.ron"), seed);
    let mut out = Vec::new();
    while matches!(
        fresh.stage,
        Stage::Setup | Stage::Deployment | Stage::Scouts
    ) {
        let p = fresh.active_player;
        let c = match fresh.stage {
            Stage::Scouts => Command::EndPhase { player: p },
            _ => fresh.deploy_next_as_placed(p).expect("a unit to deploy"),
        };
        fresh.apply(&c).unwrap();
        out.push(c);
    }
    out
}

#[test]
fn timed_effects_happen_at_their_step() {
    let mut g = rules_game();
    let (a, red) = unit_ref(&g, 1, "redemptor");
    g.units[a][red].models[0].wounds = 5;
    // Given by the override, as a rule of the Redemptor's: regain a wound at the start of
    // its player's Command phase; its enemies within 48" suffer a mortal wound on a 2+ at
    // the end of its Movement phase.
    accepted(
        &mut g,
        Command::Referee {
            player: 1,
            action: RefereeAction::Modify {
                unit: "redemptor".into(),
                effects: vec![
                    Effect {
                        when: When::PhaseStart(Phase::Command, wartable::rules::effect::Turn::Own),
                        scope: Default::default(),
                        conditions: vec![],
                        does: vec![Modifier::RegainWounds(2)],
                    },
                    Effect {
                        when: When::PhaseEnd(Phase::Movement, wartable::rules::effect::Turn::Own),
                        scope: Default::default(),
                        conditions: vec![],
                        does: vec![Modifier::MortalWounds {
                            on: 2,
                            amount: "1".parse().unwrap(),
                            within: 48.0,
                        }],
                    },
                ],
                lasts: wartable::data::faction_rules::Lasts::EndOfBattle,
            },
            note: "a test rule".into(),
        },
    );
    let ev = advance_to(&mut g, 1, Phase::Shooting);
    assert!(
        ev.iter()
            .any(|e| matches!(e, GameEvent::MortalWoundsRolled { player: 1, .. })),
        "{ev:?}"
    );
    assert_eq!(
        g.units[a][red].models[0].wounds, 5,
        "not before its next Command phase"
    );
    let ev = advance_to(&mut g, 1, Phase::Command);
    assert!(
        ev.iter()
            .any(|e| matches!(e, GameEvent::WoundsRegained { regained: 2, .. }))
    );
    assert_eq!(g.units[a][red].models[0].wounds, 7);
}
