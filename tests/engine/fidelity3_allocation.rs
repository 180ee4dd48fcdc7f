//! Issue 51, rules fidelity round 3: the defending player allocates the attacks (Core Rules:
//! Allocate Attack) and the owner picks the Unit Coherency removals (Core Rules: Unit
//! Coherency), through `Game` commands on the open-field scene.

use crate::battle;

use battle::*;
use wartable::game::{Command, Game, GameEvent, Rule, WeaponTarget};
use wartable::rules::attack::events::AttackEvent;
use wartable::rules::phase::Phase;
use wartable::rules::rng::GameRng;

fn shoot(unit: &str, weapons: Vec<WeaponTarget>) -> Command {
    Command::Shoot {
        player: 1,
        unit: unit.into(),
        weapons,
    }
}

fn order(player: u8, unit: &str, models: &[&str]) -> Command {
    Command::AllocationOrder {
        player,
        unit: unit.into(),
        models: models.iter().map(|m| m.to_string()).collect(),
    }
}

/// The models attacks were allocated to, in order (`unit#N`).
fn allocated(ev: &[GameEvent]) -> Vec<String> {
    ev.iter()
        .filter_map(|e| match e {
            GameEvent::Attack(AttackEvent::Allocated { name, .. }) => Some(name.clone()),
            _ => None,
        })
        .collect()
}

fn wounds(g: &Game, player: u8, unit: &str) -> Vec<(bool, u8)> {
    let (a, u) = unit_ref(g, player, unit);
    g.units[a][u]
        .models
        .iter()
        .map(|m| (m.alive, m.wounds))
        .collect()
}

/// Hellblasters 10" from the slugga Boyz (boyz-mob#0 is the 2-Wound Boss Nob, the other 19
/// are 1-Wound Boyz), player 1's Shooting phase, dice seeded by `seed`.
fn hellblasters_facing_boyz(seed: u64) -> Game {
    let mut g = crate::rules_fidelity::hellblasters_facing_boyz();
    g.rng = GameRng::seeded(seed);
    g
}

fn plasma() -> Vec<WeaponTarget> {
    vec![WeaponTarget::new("Plasma incinerator", "boyz-mob").with_profile("supercharge")]
}

/// Finding: the Boss Nob (listed first) died to a Damage 2 shot while nine Boyz stood. By
/// default the defender now loses plain Boyz first, so the Nob is untouched while any Boy
/// stands.
#[test]
fn by_default_the_defender_loses_plain_boyz_before_the_boss_nob() {
    let mut tried = 0;
    for seed in 1..40 {
        let mut g = hellblasters_facing_boyz(seed);
        let ev = shot(&mut g, shoot("hellblasters", plasma()));
        let w = wounds(&g, 2, "boyz-mob");
        let boyz_dead = w[1..].iter().filter(|(alive, _)| !alive).count();
        if boyz_dead == 0 {
            continue;
        }
        tried += 1;
        assert_eq!(w[0], (true, 2), "seed {seed}: the Boss Nob is untouched");
        assert!(
            allocated(&ev).iter().all(|m| m != "boyz-mob#0"),
            "seed {seed}: {:?}",
            allocated(&ev)
        );
    }
    assert!(tried >= 10, "only {tried} volleys killed a Boy");
}

/// The defender names the order in the reaction window the targets' selection opens (before
/// the Pass), and the attacks follow it: the Boss Nob first.
#[test]
fn the_defender_sets_the_order_in_the_reaction_window() {
    let mut g = hellblasters_facing_boyz(3);
    accepted(&mut g, shoot("hellblasters", plasma()));
    assert!(g.pending_shot.is_some(), "the defender may answer first");
    let ev = accepted(&mut g, order(2, "boyz-mob", &["boyz-mob#0", "5"]));
    assert!(
        ev.iter().any(|e| matches!(
            e,
            GameEvent::AllocationOrderSet { models, chosen: true, .. }
                if models[..2] == ["boyz-mob#0", "boyz-mob#5"]
        )),
        "{ev:?}"
    );
    let ev = pass_if_waiting(&mut g);
    let a = allocated(&ev);
    assert!(!a.is_empty(), "some attack wounded");
    assert_eq!(a[0], "boyz-mob#0");
    // A bad entry is refused with the rule, the order unchanged.
    let r = rejected(&mut g, order(2, "boyz-mob", &["boyz-mob#40"]));
    assert_eq!(r.rule, Rule::AllocateAttack);
    assert!(r.reason.contains("boyz-mob#40"), "{r}");
    let r = rejected(&mut g, order(1, "boyz-mob", &["1"]));
    assert_eq!(r.rule, Rule::Units, "only the owner orders its models");
}

/// A model that already had an attack allocated this phase takes the next ones first, whatever
/// order the defender sets afterwards (Core Rules: Allocate Attack).
#[test]
fn a_model_allocated_an_attack_this_phase_takes_the_next_first() {
    use wartable::game::Location;
    let mut found = false;
    for seed in 1..200 {
        let mut g = hellblasters_facing_boyz(seed);
        // Intercessors shoot first; the Hellblasters follow at the same mob.
        let (a, u) = unit_ref(&g, 1, "intercessors");
        g.units[a][u].location = Location::OnTable;
        for m in &mut g.units[a][u].models {
            m.alive = true;
        }
        put_line(&mut g, 1, "intercessors", 8.0, 12.0, 1.5);
        put(&mut g, 1, "captain", 0, 8.0, 13.6);
        let first = shot(
            &mut g,
            shoot(
                "intercessors",
                vec![WeaponTarget::new("Bolt rifle", "boyz-mob")],
            ),
        );
        let Some(last) = allocated(&first).last().cloned() else {
            continue;
        };
        let m: usize = last.rsplit('#').next().unwrap().parse().unwrap();
        let (ta, tu) = unit_ref(&g, 2, "boyz-mob");
        let state = &g.units[ta][tu].models[m];
        if !state.alive {
            continue;
        }
        // The last model allocated to saved everything: it is untouched but must go first.
        assert!(state.allocated_this_phase, "seed {seed}");
        let other = if m == 19 {
            "boyz-mob#18"
        } else {
            "boyz-mob#19"
        };
        accepted(&mut g, order(2, "boyz-mob", &[other]));
        let second = shot(&mut g, shoot("hellblasters", plasma()));
        if let Some(next) = allocated(&second).first() {
            assert_eq!(next, &last, "seed {seed}");
            found = true;
            break;
        }
    }
    assert!(found, "no seed gave a saved allocation followed by a wound");
}

/// Finding 9: the engine removed a wounded Warboss rather than two Boyz. The owner picks: by
/// default a Boy goes (the unit then has 6 models, each needing one neighbour) and the
/// Warboss stays; with the Warboss first in the owner's order, it goes.
#[test]
fn the_owner_picks_the_coherency_removals() {
    let setup = || {
        let mut g = deployed_game(open_field());
        isolate(&mut g, &[(2, "boyz-mob")]);
        let (a, u) = unit_ref(&g, 2, "boyz-mob");
        for m in 6..20 {
            g.units[a][u].models[m].alive = false;
        }
        // Six models in a row 1.5" apart (each within 2" of two others), the Warboss 1" west
        // of the Boss Nob at the row's west end: within 2" of it alone.
        for m in 0..6 {
            put(&mut g, 2, "boyz-mob", m, 20.0 + 1.5 * m as f32, 30.0);
        }
        put(&mut g, 2, "warboss", 0, 20.0 - 0.63 - 1.0 - 0.98, 30.0);
        let (wa, wu) = unit_ref(&g, 2, "warboss");
        g.units[wa][wu].models[0].wounds = 2;
        g
    };
    // The end of the current turn (every unit of both armies is checked).
    let removed = |g: &mut Game| -> Vec<String> {
        let next = wartable::rules::phase::opponent(g.active_player);
        let ev = advance_to(g, next, Phase::Command);
        ev.iter()
            .filter_map(|e| match e {
                GameEvent::CoherencyRemoval { player: 2, models } => Some(models.clone()),
                _ => None,
            })
            .flatten()
            .collect()
    };
    let mut g = setup();
    let r = removed(&mut g);
    assert_eq!(r, ["boyz-mob#5"]);
    assert_eq!(wounds(&g, 2, "warboss"), [(true, 2)]);

    // The owner's order for the Boyz decides which of them goes.
    let mut g = setup();
    accepted(&mut g, order(2, "boyz-mob", &["boyz-mob#3"]));
    assert_eq!(removed(&mut g), ["boyz-mob#3"]);
    assert_eq!(wounds(&g, 2, "warboss"), [(true, 2)]);
}
