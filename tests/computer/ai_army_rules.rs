//! The computer uses its army's rules (issue 52): it picks Oath of Moment's target and calls the
//! Waaagh! when its army closes in, at every level; normal and hard spend CP on a Detachment
//! Stratagem before attacks only when the exact odds say it pays.

use std::path::Path;

use crate::battle;

use battle::*;
use wartable::ai::{Ai, Brain, Level};
use wartable::data::load_scene;
use wartable::game::{Command, Game, WeaponTarget};
use wartable::rules::phase::Phase;

fn rules_game() -> Game {
    deployed_game(
        load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenes/army-rules.ron"))
            .unwrap(),
    )
}

#[test]
fn every_level_picks_an_oath_of_moment_target_in_its_command_phase() {
    for level in [Level::Easy, Level::Normal, Level::Hard] {
        let g = rules_game();
        let c = Ai::with_level(level).next(&g, 1);
        match &c {
            Command::RuleChoice {
                rule,
                pick: Some(target),
                ..
            } if rule == "Oath of Moment" => {
                let enemy = g.army_of(2).unwrap();
                assert!(g.find_unit(enemy, target).is_some(), "{target}");
            }
            other => panic!("{level:?}: {other:?}"),
        }
        let mut g = g;
        g.apply(&c).unwrap();
        // Then the Combat Doctrine, then nothing more to choose.
        let c = Ai::with_level(level).next(&g, 1);
        assert!(
            matches!(&c, Command::RuleChoice { rule, pick: Some(_), .. } if rule == "Combat Doctrines"),
            "{c:?}"
        );
        g.apply(&c).unwrap();
        assert!(!matches!(
            Ai::with_level(level).next(&g, 1),
            Command::RuleChoice { .. }
        ));
    }
}

#[test]
fn the_waaagh_waits_until_the_boyz_close_in() {
    let mut far = rules_game();
    isolate(&mut far, &[(1, "intercessors"), (2, "boyz-mob")]);
    advance_to(&mut far, 2, Phase::Command);
    let mut near = far.clone();
    put_line(&mut far, 1, "intercessors", 8.0, 4.0, 1.5);
    put(&mut far, 1, "captain", 0, 8.0, 2.4);
    // Away from both armies' anchors too (the Ballistus at (4, 40), the Battlewagon at (54, 4)).
    put_line(&mut far, 2, "boyz-mob", 30.0, 42.0, 1.35);
    put(&mut far, 2, "warboss", 0, 30.0, 43.3);
    put_line(&mut near, 1, "intercessors", 8.0, 10.0, 1.5);
    put(&mut near, 1, "captain", 0, 8.0, 8.4);
    put_line(&mut near, 2, "boyz-mob", 6.0, 20.0, 1.35);
    put(&mut near, 2, "warboss", 0, 8.0, 21.5);
    let waaagh = |g: &Game| {
        let mut g = g.clone();
        let mut ai = Ai::with_level(Level::Hard);
        for _ in 0..6 {
            let c = ai.next(&g, 2);
            if matches!(&c, Command::RuleChoice { rule, .. } if rule == "Waaagh!") {
                return true;
            }
            if matches!(c, Command::EndPhase { .. }) {
                return false;
            }
            g.apply(&c).unwrap();
        }
        false
    };
    assert!(!waaagh(&far), "the Boyz are far away: no Waaagh! yet");
    assert!(waaagh(&near), "the Boyz are within reach of a charge");
}

#[test]
fn a_detachment_stratagem_is_bought_only_when_it_pays() {
    let mut g = rules_game();
    isolate(&mut g, &[(1, "intercessors"), (2, "nobz")]);
    g.apply(&Command::RuleChoice {
        player: 1,
        rule: "Combat Doctrines".into(),
        pick: Some("Devastator Doctrine".into()),
        by: None,
    })
    .unwrap();
    advance_to(&mut g, 1, Phase::Shooting);
    put_line(&mut g, 1, "intercessors", 8.0, 10.0, 1.5);
    put(&mut g, 1, "captain", 0, 8.0, 8.4);
    put_line(&mut g, 2, "nobz", 8.0, 20.0, 1.6);
    g.cp = [3, 0];
    let shoot = Command::Shoot {
        player: 1,
        unit: "intercessors".into(),
        weapons: vec![WeaponTarget::new("Bolt rifle", "nobz")],
    };
    // Storm of Fire under the Devastator Doctrine: AP -1 becomes -2 against the Nobz's 4+.
    let s = wartable::ai::army_rules::stratagem_before(&g, 1, &shoot);
    assert!(
        matches!(&s, Some(Command::UseRuleStratagem { stratagem, .. }) if stratagem == "Storm of Fire"),
        "{s:?}"
    );
    // Against a unit it gains little on (a pistol shot at one Nob): no CP spent.
    let pistol = Command::Shoot {
        player: 1,
        unit: "intercessors".into(),
        weapons: vec![WeaponTarget {
            models: vec!["captain#0".into()],
            ..WeaponTarget::new("Bolt pistol", "nobz")
        }],
    };
    assert_eq!(
        wartable::ai::army_rules::stratagem_before(&g, 1, &pistol),
        None
    );
}
