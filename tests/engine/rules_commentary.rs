//! One test per worked example of the 10th edition Rules Commentary (seeds/000) about attacks,
//! dice, modifiers, re-rolls, criticals, Sustained/Lethal/Devastating, Feel No Pain, mortal
//! wounds, duplicated abilities, Objective Control and Leadership; and the 8th edition FAQ's
//! modifier questions (seeds/001) where 10th edition agrees. Each test names its entry.
//! Examples that are game rules (Attached Units with Multiple Characters, Duplicated Stealth,
//! Keywords, Out-of-Phase Rules, Target, With the 'X' Ability, Start of/The Phase) are played
//! through `Game` commands on the open-field scene; pure dice maths uses the attack module.

use crate::battle;
use crate::common;
use battle::*;
use common::{dice, weapon};
use wartable::data::load_scene;
use wartable::game::{Command, Game, GameEvent, Location, Rule, WeaponTarget};
use wartable::rules::WeaponAbility as A;
use wartable::rules::abilities::{Edge, Effect, TimedAbility, Timing, Whose};
use wartable::rules::attack::events::AttackEvent;
use wartable::rules::attack::exact::distribution;
use wartable::rules::attack::roll::resolve;
use wartable::rules::attack::{
    AttackContext, CommandReroll, Reroll, ResolvedWeapon, RollResult, SaveKind, TargetModel,
    TargetUnit, WeaponGroup, merge_abilities, save_needed,
};
use wartable::rules::modifiers::{
    Characteristic as C, Modifiers, capped_hit_or_wound_modifier, modified_roll, unit_leadership,
    unit_toughness, worst,
};
use wartable::rules::phase::Phase;
use wartable::rules::rng::{GameRng, leadership_test};
use wartable::rules::roll_table::RollTable;
use wartable::rules::stratagem::Stratagem;
use wartable::rules::{CoreAbility, Datasheet};

fn model(name: &str, w: u8, sv: u8, fnp: Option<u8>, leader: bool) -> TargetModel {
    TargetModel {
        name: name.into(),
        wounds: w,
        wounds_remaining: w,
        save: sv,
        invulnerable_save: None,
        feel_no_pain: fnp,
        leader,
        has_cover: false,
        allocation_rank: 0,
        allocated_this_phase: false,
    }
}

fn unit(n: usize, t: u8, w: u8, sv: u8, fnp: Option<u8>) -> TargetUnit {
    TargetUnit {
        name: "target".into(),
        toughness: t,
        keywords: vec!["INFANTRY".into()],
        stealth: false,
        models: (0..n)
            .map(|i| model(&format!("m{i}"), w, sv, fnp, false))
            .collect(),
    }
}

/// Rolls `groups` against `target` with the given D6 results first.
fn roll(
    groups: &[WeaponGroup],
    target: &TargetUnit,
    ctx: &AttackContext,
    faces: &[u8],
) -> (Vec<AttackEvent>, wartable::rules::attack::roll::RollOutcome) {
    let mut log = Vec::new();
    let out = resolve(groups, target, ctx, &mut GameRng::scripted(faces), &mut log);
    (log, out)
}

fn count(log: &[AttackEvent], pred: impl Fn(&AttackEvent) -> bool) -> usize {
    log.iter().filter(|e| pred(e)).count()
}

// ---- Rules Commentary (seeds/000) ----

#[test]
fn additional_hits_sustained_hits_with_lethal_hits() {
    // Critical Hit: automatic wound (LETHAL HITS) plus one extra hit that rolls to wound.
    let g = WeaponGroup::new(
        weapon(
            "1",
            3,
            4,
            0,
            "1",
            vec![A::SustainedHits(dice("1")), A::LethalHits],
        ),
        1,
    );
    let target = unit(5, 4, 1, 7, None);
    // Hit 6; the extra hit's Wound roll 5; then two saves (impossible) and no damage dice.
    let (log, out) = roll(&[g], &target, &AttackContext::default(), &[6, 5, 1, 1]);
    assert_eq!(
        count(&log, |e| matches!(e, AttackEvent::AutomaticWound { .. })),
        1
    );
    assert_eq!(
        count(&log, |e| matches!(
            e,
            AttackEvent::SustainedHits { extra_hits: 1, .. }
        )),
        1
    );
    assert_eq!(
        count(&log, |e| matches!(e, AttackEvent::WoundRoll { .. })),
        1,
        "only the extra hit rolls"
    );
    assert_eq!(out.models_destroyed, 2);
}

#[test]
fn automatically_successful_lethal_hit_is_not_a_critical_wound() {
    // LETHAL HITS + DEVASTATING WOUNDS: a Critical Hit wounds automatically, so no Critical
    // Wound and no mortal wounds.
    let g = WeaponGroup::new(
        weapon("1", 3, 4, 0, "1", vec![A::LethalHits, A::DevastatingWounds]),
        1,
    );
    let target = unit(5, 4, 1, 3, None);
    let (log, _) = roll(
        std::slice::from_ref(&g),
        &target,
        &AttackContext::default(),
        &[6, 4],
    );
    assert_eq!(
        count(&log, |e| matches!(e, AttackEvent::DevastatingWounds { .. })),
        0
    );
    assert_eq!(
        count(&log, |e| matches!(e, AttackEvent::SavingThrow { .. })),
        1,
        "goes to a save"
    );
    // Exactly: with a 6+ to hit every hit is Critical, so nothing is ever mortal: Sv 3+ saves
    // on 3+ and the mean of 5 attacks on 5 models equals 5 * 1/6 * 1/3.
    let mut only_crits = g;
    only_crits.profile.skill = Some(6);
    only_crits.bearers = 5;
    let d = distribution(&[only_crits], &target, &AttackContext::default());
    assert!((d.expected_wounds_lost - 5.0 / 6.0 / 3.0).abs() < 1e-12);
}

#[test]
fn automatically_successful_torrent_hit_is_not_a_critical_hit() {
    let g = WeaponGroup::new(
        weapon(
            "3",
            3,
            4,
            0,
            "1",
            vec![A::Torrent, A::SustainedHits(dice("2"))],
        ),
        1,
    );
    let (log, _) = roll(
        &[g],
        &unit(5, 4, 1, 3, None),
        &AttackContext::default(),
        &[],
    );
    assert_eq!(
        count(&log, |e| matches!(e, AttackEvent::AutomaticHit { .. })),
        3
    );
    assert_eq!(
        count(&log, |e| matches!(e, AttackEvent::SustainedHits { .. })),
        0
    );
    assert_eq!(
        count(&log, |e| matches!(e, AttackEvent::WoundRoll { .. })),
        3
    );
}

#[test]
fn critical_hit_on_unmodified_six_and_unmodified_one_fails() {
    let target = unit(1, 4, 1, 3, None);
    let ctx = AttackContext {
        hit_modifier: -1,
        ..Default::default()
    };
    let w = ResolvedWeapon::new(
        &WeaponGroup::new(weapon("1", 6, 4, 0, "1", vec![]), 1),
        &target,
        &ctx,
    );
    assert_eq!(
        w.hit_result(6),
        RollResult::Critical,
        "6 hits despite -1 and BS 6+"
    );
    let ctx = AttackContext {
        hit_modifier: 1,
        ..Default::default()
    };
    let w = ResolvedWeapon::new(
        &WeaponGroup::new(weapon("1", 2, 4, 0, "1", vec![]), 1),
        &target,
        &ctx,
    );
    assert_eq!(
        w.hit_result(1),
        RollResult::Fail,
        "1 fails despite +1 and BS 2+"
    );
}

#[test]
fn critical_wound_on_unmodified_six_always_wounds() {
    let target = unit(1, 12, 1, 3, None);
    let ctx = AttackContext {
        wound_modifier: -1,
        ..Default::default()
    };
    let w = ResolvedWeapon::new(
        &WeaponGroup::new(weapon("1", 3, 3, 0, "1", vec![]), 1),
        &target,
        &ctx,
    );
    assert_eq!(w.wound_needed, 6);
    assert_eq!(w.wound_result(6), RollResult::Critical);
    assert_eq!(w.wound_result(5), RollResult::Fail);
}

#[test]
fn best_leadership_of_a_unit() {
    let lds = [6u8, 7].into_iter().chain(std::iter::repeat_n(8, 9));
    assert_eq!(unit_leadership(lds), Some(6));
}

#[test]
fn worst_leadership_of_a_unit() {
    let lds = [6, 7].into_iter().chain(std::iter::repeat_n(8, 9));
    assert_eq!(worst(C::Leadership, lds), Some(8));
}

#[test]
fn leadership_test_uses_the_best_leadership() {
    let ld = unit_leadership([6, 7, 8]).unwrap();
    let t = leadership_test(&mut GameRng::scripted(&[2, 4]), ld);
    assert_eq!((t.total, t.passed), (6, true));
    let t = leadership_test(&mut GameRng::scripted(&[2, 3]), ld);
    assert_eq!((t.total, t.passed), (5, false));
}

#[test]
fn d66_first_die_is_tens() {
    let mut rng = GameRng::scripted(&[3, 6]);
    assert_eq!(dice("D66").roll(&mut rng).value, 36);
}

#[test]
fn duplicated_stealth_subtracts_only_one() {
    // Stealth from the datasheet and from a Detachment rule: -1, not -2. A unit either has
    // the ability or not; extra -1s from other rules are still capped at -1 in total.
    let mut target = unit(5, 4, 1, 3, None);
    target.stealth = true;
    let w = ResolvedWeapon::new(
        &WeaponGroup::new(weapon("1", 3, 4, 0, "1", vec![]), 1),
        &target,
        &AttackContext::default(),
    );
    assert_eq!(w.hit_modifier, -1);
    assert_eq!(w.hit_result(4), RollResult::Success);
    assert_eq!(w.hit_result(3), RollResult::Fail);
}

#[test]
fn duplicated_devastating_wounds_inflict_damage_once() {
    let mut g = WeaponGroup::new(weapon("1", 3, 4, 0, "1", vec![A::DevastatingWounds]), 1);
    g.extra_abilities = vec![A::DevastatingWounds];
    // Hit 3, Wound 6: one Critical Wound -> 1 mortal wound, not 2.
    let (log, out) = roll(
        &[g],
        &unit(5, 4, 1, 3, None),
        &AttackContext::default(),
        &[3, 6],
    );
    assert!(log.iter().any(|e| matches!(
        e,
        AttackEvent::DevastatingWounds {
            mortal_wounds: 1,
            ..
        }
    )));
    assert_eq!(out.wounds_lost, 1);
}

#[test]
fn duplicated_sustained_hits_use_the_stronger() {
    assert_eq!(
        merge_abilities(&[A::SustainedHits(dice("1")), A::SustainedHits(dice("2"))]),
        vec![A::SustainedHits(dice("2"))]
    );
    let mut g = WeaponGroup::new(
        weapon("1", 3, 4, 0, "1", vec![A::SustainedHits(dice("1"))]),
        1,
    );
    g.extra_abilities = vec![A::SustainedHits(dice("2"))];
    let (log, _) = roll(
        &[g],
        &unit(5, 4, 1, 3, None),
        &AttackContext::default(),
        &[6],
    );
    assert!(
        log.iter()
            .any(|e| matches!(e, AttackEvent::SustainedHits { extra_hits: 2, .. }))
    );
    // Different ANTI- keywords are different abilities; the same keyword keeps the best.
    let merged = merge_abilities(&[
        A::Anti("VEHICLE".into(), 4),
        A::Anti("INFANTRY".into(), 2),
        A::Anti("vehicle".into(), 3),
    ]);
    assert_eq!(
        merged,
        vec![A::Anti("vehicle".into(), 3), A::Anti("INFANTRY".into(), 2)]
    );
}

#[test]
fn feel_no_pain_example_damage_two() {
    // A Damage 2 attack, save failed, FNP 5+ rolls 1 and 6: one wound lost.
    let g = WeaponGroup::new(weapon("1", 3, 4, 0, "2", vec![]), 1);
    let target = unit(1, 4, 3, 7, Some(5));
    // Hit 4, wound 4, save 1 (fails), FNP 1 then 6.
    let (log, out) = roll(&[g], &target, &AttackContext::default(), &[4, 4, 1, 1, 6]);
    assert_eq!(
        count(&log, |e| matches!(e, AttackEvent::FeelNoPain { .. })),
        2
    );
    assert_eq!(out.wounds_lost, 1);
    assert_eq!(out.wounds_remaining, vec![2]);
}

#[test]
fn modifiers_example_1_double_then_add_attacks() {
    let m = Modifiers::new().plus(1).multiply(2);
    assert_eq!(m.apply(C::Attacks, 3), 7);
}

#[test]
fn modifiers_example_2a_halve_then_add_objective_control() {
    let m = Modifiers::new().plus(1).divide(2);
    assert_eq!(m.apply(C::ObjectiveControl, 2), 2);
}

#[test]
fn modifiers_example_2b_battle_shocked_objective_control() {
    let m = Modifiers::new().plus(1).divide(2).set(0);
    assert_eq!(m.apply(C::ObjectiveControl, 2), 1);
}

#[test]
fn modifying_characteristics_floors_and_caps() {
    for c in [C::Strength, C::Toughness, C::Attacks, C::Damage] {
        assert_eq!(Modifiers::new().minus(5).apply(c, 3), 1, "{c:?}");
    }
    assert_eq!(
        Modifiers::new().set(0).apply(C::Damage, 2),
        0,
        "Damage set to 0 first"
    );
    assert_eq!(
        Modifiers::new()
            .improve(C::Leadership, 3)
            .apply(C::Leadership, 6),
        5
    );
    assert_eq!(
        Modifiers::new()
            .worsen(C::Leadership, 3)
            .apply(C::Leadership, 7),
        8
    );
    assert_eq!(
        Modifiers::new()
            .worsen(C::ArmourPenetration, 2)
            .apply(C::ArmourPenetration, -1),
        0
    );
    assert_eq!(Modifiers::new().minus(3).apply(C::ObjectiveControl, 2), 0);
    assert_eq!(Modifiers::new().minus(12).apply(C::Move, 6), 1);
    assert_eq!(Modifiers::new().minus(30).apply(C::Range, 24), 1);
    assert_eq!(Modifiers::new().improve(C::Skill, 2).apply(C::Skill, 3), 2);
    assert_eq!(Modifiers::new().improve(C::Save, 1).apply(C::Save, 2), 2);
}

#[test]
fn improving_and_worsening_ap() {
    let ap = C::ArmourPenetration;
    assert_eq!(Modifiers::new().improve(ap, 1).apply(ap, -1), -2);
    assert_eq!(Modifiers::new().improve(ap, 1).apply(ap, 0), -1);
    assert_eq!(Modifiers::new().worsen(ap, 1).apply(ap, -1), 0);
    assert_eq!(Modifiers::new().worsen(ap, 1).apply(ap, 0), 0);
}

#[test]
fn improving_and_worsening_weapon_skill() {
    assert_eq!(Modifiers::new().improve(C::Skill, 1).apply(C::Skill, 3), 2);
    assert_eq!(Modifiers::new().worsen(C::Skill, 1).apply(C::Skill, 3), 4);
}

#[test]
fn damage_modifier_applies_before_devastating_mortal_wounds() {
    let mut g = WeaponGroup::new(
        weapon("1", 3, 9, -4, "1", vec![A::Melta(2), A::DevastatingWounds]),
        1,
    );
    g.within_half_range = true;
    let (log, _) = roll(
        &[g],
        &unit(5, 4, 1, 3, None),
        &AttackContext::default(),
        &[3, 6],
    );
    assert!(log.iter().any(|e| matches!(
        e,
        AttackEvent::DevastatingWounds {
            mortal_wounds: 3,
            ..
        }
    )));
}

#[test]
fn modifying_dice_rolls_capped_at_one_and_never_below_one() {
    assert_eq!(capped_hit_or_wound_modifier(-3), -1);
    assert_eq!(capped_hit_or_wound_modifier(2), 1);
    assert_eq!(modified_roll(1, -2), 1);
    assert_eq!(modified_roll(6, 2), 8, "a roll may be modified above 6");
    let target = unit(1, 4, 1, 3, None);
    let ctx = AttackContext {
        hit_modifier: -2,
        remained_stationary: true,
        ..Default::default()
    };
    let w = ResolvedWeapon::new(
        &WeaponGroup::new(weapon("1", 3, 4, 0, "1", vec![A::Heavy]), 1),
        &target,
        &ctx,
    );
    assert_eq!(w.hit_modifier, -1, "-2 and HEAVY +1 give -1");
}

#[test]
fn rerolling_a_d3_uses_the_halved_value() {
    // Re-roll D3 results of 1: a D6 of 2 halves to 1 and is re-rolled; a D6 of 3 (D3 2) is not.
    let d3 = dice("D3");
    let (r, old) = d3.roll_with_reroll(&mut GameRng::scripted(&[2, 5]), |r| r.value == 1);
    assert_eq!((r.value, old.map(|o| o.value)), (3, Some(1)));
    let (r, old) = d3.roll_with_reroll(&mut GameRng::scripted(&[3, 6]), |r| r.value == 1);
    assert_eq!((r.value, old), (2, None));
}

#[test]
fn rerolling_2d6_rerolls_both_dice_once() {
    let (r, old) =
        dice("2D6").roll_with_reroll(&mut GameRng::scripted(&[1, 6, 2, 2, 1, 1]), |r| r.value < 8);
    assert_eq!(old.unwrap().dice.as_slice(), &[1, 6]);
    assert_eq!(
        r.dice.as_slice(),
        &[2, 2],
        "both dice re-rolled, and never a second time"
    );
}

#[test]
fn a_die_is_never_rerolled_twice() {
    // Re-roll failed Hit rolls and a Command Re-roll: a die already re-rolled keeps its result.
    let g = WeaponGroup::new(weapon("2", 3, 4, 0, "1", vec![]), 1);
    let ctx = AttackContext {
        hit_reroll: Reroll::Failed,
        command_reroll: CommandReroll::HitRoll,
        ..Default::default()
    };
    let (log, _) = roll(&[g], &unit(5, 4, 1, 3, None), &ctx, &[1, 2, 1, 2]);
    let hits: Vec<_> = log
        .iter()
        .filter_map(|e| match e {
            AttackEvent::HitRoll {
                roll,
                rerolled_by,
                result,
                ..
            } => Some((*roll, *rerolled_by, *result)),
            _ => None,
        })
        .collect();
    assert_eq!(
        hits,
        vec![
            (2, Some("re-roll"), RollResult::Fail),
            (2, Some("re-roll"), RollResult::Fail)
        ]
    );
}

#[test]
fn command_reroll_takes_the_first_failed_hit() {
    let g = WeaponGroup::new(weapon("2", 3, 4, 0, "1", vec![]), 1);
    let ctx = AttackContext {
        command_reroll: CommandReroll::HitRoll,
        ..Default::default()
    };
    let (log, _) = roll(&[g], &unit(5, 4, 1, 3, None), &ctx, &[2, 5, 1]);
    let by: Vec<_> = log
        .iter()
        .filter_map(|e| match e {
            AttackEvent::HitRoll { rerolled_by, .. } => Some(*rerolled_by),
            _ => None,
        })
        .collect();
    assert_eq!(
        by,
        vec![Some("Command Re-roll"), None],
        "only one die, once"
    );
}

#[test]
fn mortal_wounds_carry_over_after_normal_damage() {
    // Two attacks: the first a devastating Critical Wound (D3 rolled 3 -> 3 mortal wounds),
    // the second a normal wound. Normal damage resolves first, then 3 mortal wounds kill three
    // more 1-wound models.
    let g = WeaponGroup::new(weapon("2", 3, 4, 0, "D3", vec![A::DevastatingWounds]), 1);
    let target = unit(5, 4, 1, 7, None);
    // Hits 4, 4; wounds 6 (crit), 4; D3 for mortal wounds: D6 6 -> 3; the normal wound's save
    // (7+ cannot pass) 5, damage D3: D6 1 -> 1.
    let (log, out) = roll(
        &[g],
        &target,
        &AttackContext::default(),
        &[4, 4, 6, 6, 4, 5, 1],
    );
    let pos = |f: &dyn Fn(&AttackEvent) -> bool| log.iter().position(f).unwrap();
    let damage = pos(&|e| matches!(e, AttackEvent::Damage { .. }));
    let mortal = pos(&|e| matches!(e, AttackEvent::MortalWounds { total: 3, .. }));
    assert!(damage < mortal, "normal damage first");
    assert_eq!(out.models_destroyed, 4);
}

#[test]
fn precision_mortal_wounds_go_to_the_character_first() {
    let mut target = unit(3, 4, 1, 3, None);
    target.models.push(model("leader", 4, 3, None, true));
    let g = WeaponGroup::new(
        weapon("1", 3, 4, 0, "3", vec![A::Precision, A::DevastatingWounds]),
        1,
    );
    let (_, out) = roll(&[g], &target, &AttackContext::default(), &[4, 6]);
    assert_eq!(
        out.wounds_remaining,
        vec![1, 1, 1, 1],
        "3 mortal wounds on the leader"
    );
    // Without PRECISION they go to the Bodyguard and carry over.
    let g = WeaponGroup::new(weapon("1", 3, 4, 0, "3", vec![A::DevastatingWounds]), 1);
    let (_, out) = roll(&[g], &target, &AttackContext::default(), &[4, 6]);
    assert_eq!(out.wounds_remaining, vec![0, 0, 0, 4]);
}

#[test]
fn characters_in_attached_units_take_attacks_last() {
    let mut target = unit(2, 4, 1, 7, None);
    target.models.insert(0, model("leader", 4, 7, None, true));
    let g = WeaponGroup::new(weapon("3", 3, 4, 0, "1", vec![]), 1);
    // Three hits, three wounds, no saves possible: both bodyguards die, then the leader.
    let (_, out) = roll(
        &[g],
        &target,
        &AttackContext::default(),
        &[4, 4, 4, 4, 4, 4, 1, 1, 1],
    );
    assert_eq!(out.wounds_remaining, vec![3, 0, 0]);
}

#[test]
fn anti_keyword_against_an_attached_psyker_leader() {
    // The Leader's PSYKER keyword makes the whole unit PSYKER: a 4+ is a Critical Wound even
    // when the attack goes to a Bodyguard model.
    let mut target = unit(3, 4, 1, 3, None);
    target.models.push(model("psyker leader", 3, 3, None, true));
    target.keywords.push("PSYKER".into());
    let g = WeaponGroup::new(
        weapon(
            "1",
            3,
            4,
            0,
            "1",
            vec![A::Anti("PSYKER".into(), 4), A::DevastatingWounds],
        ),
        1,
    );
    let w = ResolvedWeapon::new(&g, &target, &AttackContext::default());
    assert_eq!(w.critical_wound_on, 4);
    let (log, out) = roll(&[g], &target, &AttackContext::default(), &[4, 4]);
    assert!(log.iter().any(|e| matches!(
        e,
        AttackEvent::WoundRoll {
            result: RollResult::Critical,
            ..
        }
    )));
    assert_eq!(
        out.wounds_remaining,
        vec![0, 1, 1, 3],
        "mortal wound to a Bodyguard model"
    );
}

#[test]
fn unit_toughness_with_mixed_toughness() {
    // Attached: the Bodyguard's highest Toughness, even with a tougher Leader.
    assert_eq!(
        unit_toughness(&[(4, true), (4, true), (5, false)], true),
        Some(4)
    );
    // Not attached: the highest of all models.
    assert_eq!(unit_toughness(&[(4, false), (6, false)], false), Some(6));
}

// ---- 8th edition Designers' Commentary (seeds/001), where 10th edition agrees ----

#[test]
fn faq_model_strength_modifiers_then_weapon_multiplier() {
    // S3 doubled and -1 gives 5; a "x2" weapon then makes it 10.
    let model_s = Modifiers::new().multiply(2).minus(1).apply(C::Strength, 3);
    assert_eq!(model_s, 5);
    assert_eq!(Modifiers::new().multiply(2).apply(C::Strength, model_s), 10);
}

#[test]
fn faq_save_modifiers_are_cumulative() {
    // Cover +1 and AP -3: -2 in total.
    let m = model("m", 1, 4, None, false);
    let need = save_needed(&m, -3, true);
    assert_eq!(
        (need.kind, need.modifier, need.needed),
        (SaveKind::Armour, -2, 6)
    );
}

#[test]
fn faq_roll_modified_above_six_poxwalkers_save() {
    // A 7+ save needs a +1 (cover) to pass, on a 6.
    let m = model("poxwalker", 1, 7, None, false);
    assert_eq!(save_needed(&m, 0, false).probability(), 0.0);
    let need = save_needed(&m, 0, true);
    assert!(need.saves(6) && !need.saves(5));
}

#[test]
fn faq_roll_never_below_one() {
    assert_eq!(modified_roll(2, -3), 1);
}

#[test]
fn faq_rerolls_before_modifiers_heavy_bolter() {
    // Three attacks at BS 3+, re-roll Hit rolls of 1, -1 to hit: rolls 1, 2, 5; the 1 becomes
    // 3; after -1 the results are 2, 1, 4: one hit.
    let g = WeaponGroup::new(weapon("3", 3, 5, -1, "2", vec![]), 1);
    let ctx = AttackContext {
        hit_reroll: Reroll::Ones,
        hit_modifier: -1,
        ..Default::default()
    };
    let (log, _) = roll(&[g], &unit(5, 4, 2, 3, None), &ctx, &[1, 3, 2, 5]);
    let hits: Vec<_> = log
        .iter()
        .filter_map(|e| match e {
            AttackEvent::HitRoll { roll, result, .. } => Some((*roll, *result)),
            _ => None,
        })
        .collect();
    assert_eq!(
        hits,
        vec![
            (3, RollResult::Fail),
            (2, RollResult::Fail),
            (5, RollResult::Success)
        ]
    );
}

// ---- Rules Commentary (seeds/000) through the engine and the data files ----

/// The datasheet of `player`'s unit `id` in a scene, to edit before the game starts.
fn sheet<'a>(scene: &'a mut wartable::data::Scene, player: u8, id: &str) -> &'a mut Datasheet {
    let army = scene
        .armies
        .iter_mut()
        .find(|a| a.player == player)
        .unwrap();
    army.units
        .iter_mut()
        .find(|u| u.id == id)
        .unwrap()
        .datasheet_mut()
}

/// (army index, unit index) of `player`'s unit `id`.
fn game_unit(g: &Game, player: u8, id: &str) -> (usize, usize) {
    let a = g.army_of(player).unwrap();
    (a, g.find_unit(a, id).unwrap())
}

/// Models of the unit still alive.
fn alive_models(g: &Game, player: u8, id: &str) -> usize {
    let (a, u) = game_unit(g, player, id);
    g.units[a][u].models.iter().filter(|m| m.alive).count()
}

fn shoot(player: u8, unit: &str, weapons: Vec<WeaponTarget>) -> Command {
    Command::Shoot {
        player,
        unit: unit.into(),
        weapons,
    }
}

fn stratagem(player: u8, s: Stratagem, unit: &str, target: Option<&str>) -> Command {
    Command::UseStratagem {
        player,
        stratagem: s,
        unit: unit.into(),
        target: target.map(str::to_string),
        reroll: None,
    }
}

/// The attack steps among a command's events.
fn attack_log(ev: &[GameEvent]) -> Vec<&AttackEvent> {
    ev.iter()
        .filter_map(|e| match e {
            GameEvent::Attack(a) => Some(a),
            _ => None,
        })
        .collect()
}

/// (unmodified roll, modifier, result) of every Hit roll.
fn hit_rolls(ev: &[GameEvent]) -> Vec<(u8, i32, RollResult)> {
    attack_log(ev)
        .into_iter()
        .filter_map(|a| match a {
            AttackEvent::HitRoll {
                roll,
                modifier,
                result,
                ..
            } => Some((*roll, *modifier, *result)),
            _ => None,
        })
        .collect()
}

/// (unmodified roll, roll needed, result) of every Wound roll.
fn wound_rolls(ev: &[GameEvent]) -> Vec<(u8, u8, RollResult)> {
    attack_log(ev)
        .into_iter()
        .filter_map(|a| match a {
            AttackEvent::WoundRoll {
                roll,
                needed,
                result,
                ..
            } => Some((*roll, *needed, *result)),
            _ => None,
        })
        .collect()
}

/// Attached Units with Multiple Characters: a Captain and a Lieutenant (whose Leader rule lets
/// it join a unit a Captain leads) both lead the Intercessors, loaded from the data files, and
/// the three act as one unit. A third Leader is refused at load (tests/bad/three-characters.ron
/// in tests/data_files.rs).
#[test]
fn attached_units_with_multiple_characters_example_captain_and_lieutenant() {
    let file =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenes/two-leaders.ron");
    let mut g = deployed_game(load_scene(&file).unwrap());
    let (a, u) = game_unit(&g, 1, "intercessors");
    let ids: Vec<&str> = g.combined(a, u).iter().map(|&x| g.unit_id(a, x)).collect();
    assert_eq!(ids, ["intercessors", "captain", "lieutenant"]);
    let (_, lieutenant) = game_unit(&g, 1, "lieutenant");
    assert_eq!(g.combined(a, lieutenant), g.combined(a, u));

    // Selected through the Lieutenant, the whole unit shoots; then neither Leader can shoot.
    isolate(&mut g, &[(1, "intercessors"), (2, "boyz-mob")]);
    put_line(&mut g, 1, "intercessors", 8.0, 10.0, 1.5);
    put(&mut g, 1, "captain", 0, 8.0, 11.6);
    put(&mut g, 1, "lieutenant", 0, 10.0, 11.6);
    put_line(&mut g, 2, "boyz-mob", 8.0, 30.0, 1.3);
    put(&mut g, 2, "warboss", 0, 8.0, 31.6);
    advance_to(&mut g, 1, Phase::Shooting);
    let ev = shot(
        &mut g,
        shoot(
            1,
            "lieutenant",
            vec![WeaponTarget::new("Bolt rifle", "boyz-mob")],
        ),
    );
    assert!(
        ev.iter().any(|e| matches!(
            e,
            GameEvent::Attacked { unit, bearers: 10, .. } if unit == "intercessors"
        )),
        "{ev:#?}"
    );
    let r = rejected(
        &mut g,
        shoot(
            1,
            "captain",
            vec![WeaponTarget::new("Master-crafted bolter", "boyz-mob")],
        ),
    );
    assert!(r.reason.contains("already shot"), "{r}");
}

/// Dice Result: a table gives 1 mortal wound on 2-5 and D3 on a 6; a 1 is not listed, so it
/// does nothing and nothing more is rolled.
#[test]
fn dice_result_example_a_result_the_table_does_not_list_does_nothing() {
    let table = RollTable::new(vec![(2..=5, dice("1")), (6..=6, dice("D3"))]);
    let mortal_wounds = |faces: &[u8]| -> (u8, Option<i32>, u8) {
        let mut rng = GameRng::scripted(faces);
        let (roll, effect) = table.roll(&mut rng);
        let wounds = effect.map(|x| x.roll(&mut rng).value);
        // The next die shows what was left unrolled.
        (roll, wounds, rng.d6())
    };
    assert_eq!(
        mortal_wounds(&[1, 5]),
        (1, None, 5),
        "no effect, no D3 rolled"
    );
    assert_eq!(mortal_wounds(&[3, 5]), (3, Some(1), 5));
    assert_eq!(mortal_wounds(&[6, 4, 5]), (6, Some(2), 5), "D3 from a 4");
}

/// Lootas 28" from Eliminators whose datasheet has Stealth twice (as if a Detachment rule gave
/// it again) and the SMOKE keyword; player 2's Shooting phase, the Lootas having Remained
/// Stationary.
fn lootas_facing_doubly_stealthy_eliminators() -> Game {
    let mut scene = open_field();
    let d = sheet(&mut scene, 1, "eliminators");
    d.core_abilities.push(CoreAbility::Stealth);
    d.keywords.push("SMOKE".into());
    let stealth = d
        .core_abilities
        .iter()
        .filter(|a| **a == CoreAbility::Stealth)
        .count();
    assert_eq!(stealth, 2);
    let mut g = deployed_game(scene);
    isolate(&mut g, &[(1, "eliminators"), (2, "lootas")]);
    for m in 0..3 {
        put(&mut g, 1, "eliminators", m, 20.0 + 2.0 * m as f32, 38.0);
    }
    put_line(&mut g, 2, "lootas", 8.0, 10.0, 1.3);
    advance_to(&mut g, 2, Phase::Shooting);
    g
}

/// Duplicated Core Abilities (example 1): Stealth twice, and again from Smokescreen, is -1 to
/// hit once. The deffguns are HEAVY and the Lootas Remained Stationary (+1), so every Hit roll
/// is modified by 0; two Stealths would leave -1.
#[test]
fn duplicated_core_abilities_example_stealth_twice_is_still_minus_one() {
    let g = lootas_facing_doubly_stealthy_eliminators();
    for smokescreen in [false, true] {
        let mut t = g.clone();
        // Smokescreen just after the Lootas select the Eliminators as their target.
        let mut ev = accepted(
            &mut t,
            shoot(
                2,
                "lootas",
                vec![WeaponTarget::new("Deffgun", "eliminators")],
            ),
        );
        if smokescreen {
            accepted(
                &mut t,
                stratagem(1, Stratagem::Smokescreen, "eliminators", None),
            );
        }
        ev.extend(pass_if_waiting(&mut t));
        let notes: Vec<&String> = attack_log(&ev)
            .into_iter()
            .filter_map(|a| match a {
                AttackEvent::Weapon { notes, .. } => Some(notes),
                _ => None,
            })
            .flatten()
            .collect();
        assert_eq!(
            notes.iter().filter(|n| n.contains("Stealth")).count(),
            1,
            "{notes:?}"
        );
        assert!(notes.iter().any(|n| n.starts_with("HEAVY")), "{notes:?}");
        let modifiers: Vec<i32> = hit_rolls(&ev).iter().map(|h| h.1).collect();
        assert_eq!(modifiers.len(), 16, "8 deffguns, 2 attacks each");
        assert!(
            modifiers.iter().all(|m| *m == 0),
            "smokescreen {smokescreen}: {modifiers:?}"
        );
    }
}

/// Keywords: the Warboss (made a PSYKER here) leads the Boyz, so the Attached unit is PSYKER:
/// against ANTI-PSYKER 4+ an unmodified 4 is a Critical Wound, though it wounds a Boy. With
/// the Warboss gone the Boyz are not PSYKER and the same 4 fails (S4 against T5 needs 5+).
#[test]
fn keywords_example_a_psyker_leader_makes_its_unit_psyker() {
    let mut scene = open_field();
    sheet(&mut scene, 2, "warboss")
        .keywords
        .push("PSYKER".into());
    sheet(&mut scene, 1, "intercessors")
        .ranged_weapons
        .iter_mut()
        .find(|w| w.name == "Bolt rifle")
        .unwrap()
        .abilities
        .push(A::Anti("PSYKER".into(), 4));
    let mut g = deployed_game(scene);
    isolate(&mut g, &[(1, "intercessors"), (2, "boyz-mob")]);
    put_line(&mut g, 1, "intercessors", 8.0, 10.0, 1.5);
    put(&mut g, 1, "captain", 0, 8.0, 8.4);
    put_line(&mut g, 2, "boyz-mob", 8.0, 30.0, 1.3);
    put(&mut g, 2, "warboss", 0, 8.0, 31.6);
    advance_to(&mut g, 1, Phase::Shooting);
    let volley = |g: &mut Game| {
        shot(
            g,
            shoot(
                1,
                "intercessors",
                vec![
                    WeaponTarget::new("Bolt rifle", "boyz-mob")
                        .by_models(vec!["intercessors#0".into()]),
                ],
            ),
        )
    };

    // Hits 4, 4; wounds 4, 4; saves 1, 1.
    let mut t = g.clone();
    t.rng = GameRng::scripted(&[4, 4, 4, 4, 1, 1]);
    let ev = volley(&mut t);
    assert_eq!(
        wound_rolls(&ev),
        vec![(4, 5, RollResult::Critical), (4, 5, RollResult::Critical)]
    );
    let allocated: Vec<&str> = attack_log(&ev)
        .into_iter()
        .filter_map(|a| match a {
            AttackEvent::Allocated { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(allocated.len(), 2);
    assert!(
        allocated.iter().all(|n| n.starts_with("boyz-mob#")),
        "{allocated:?}"
    );
    assert_eq!(alive_models(&t, 2, "boyz-mob"), 18);
    let (a, boss) = game_unit(&t, 2, "warboss");
    assert_eq!(t.units[a][boss].models[0].wounds, 6);

    // The Warboss is gone: no PSYKER model, no ANTI-PSYKER.
    let mut t = g.clone();
    t.units[a][boss].models[0].alive = false;
    t.units[a][boss].models[0].wounds = 0;
    t.units[a][boss].location = Location::Destroyed;
    t.units[a][boss].leading = None;
    t.rng = GameRng::scripted(&[4, 4, 4, 4]);
    let ev = volley(&mut t);
    assert_eq!(
        wound_rolls(&ev),
        vec![(4, 5, RollResult::Fail), (4, 5, RollResult::Fail)]
    );
    assert_eq!(alive_models(&t, 2, "boyz-mob"), 20);
}

/// Out-of-Phase Rules: the Eliminators Fire Overwatch in player 2's Movement phase. They shoot
/// there (hitting only on unmodified 6s: a 3 or a 5 misses although their BS is 3+), but it
/// is not a Shooting phase: the Grenade Stratagem (your Shooting phase) cannot be used on
/// them, nor Go to Ground (the opponent's Shooting phase) on the unit they shot at.
#[test]
fn out_of_phase_rules_example_fire_overwatch() {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "eliminators"), (2, "shoota-boyz")]);
    for m in 0..3 {
        put(&mut g, 1, "eliminators", m, 10.0 + 2.0 * m as f32, 20.0);
    }
    put_line(&mut g, 2, "shoota-boyz", 8.0, 30.0, 1.3);
    advance_to(&mut g, 2, Phase::Movement);
    // Fire Overwatch answers the Boyz' move, just after it.
    let paths = shift(&g, 2, "shoota-boyz", 0.0, 1.0);
    accepted(
        &mut g,
        Command::Move {
            player: 2,
            unit: "shoota-boyz".into(),
            mode: wartable::rules::movement::MoveMode::Normal,
            paths,
        },
    );
    let mut t = g.clone();
    t.rng = GameRng::scripted(&[3, 6, 5]);
    let ev = accepted(
        &mut t,
        stratagem(
            1,
            Stratagem::FireOverwatch,
            "eliminators",
            Some("shoota-boyz"),
        ),
    );
    let hits: Vec<(u8, RollResult)> = hit_rolls(&ev).iter().map(|h| (h.0, h.2)).collect();
    assert_eq!(
        hits[..3],
        [
            (3, RollResult::Fail),
            (6, RollResult::Critical),
            (5, RollResult::Fail)
        ],
        "the bolt sniper rifles"
    );
    for (roll, result) in &hits {
        assert_eq!(*result != RollResult::Fail, *roll == 6, "{hits:?}");
    }
    let r = rejected(
        &mut t,
        stratagem(1, Stratagem::Grenade, "eliminators", Some("shoota-boyz")),
    );
    assert_eq!(r.rule, Rule::Stratagem(Stratagem::Grenade));
    assert!(r.reason.contains("Movement phase"), "{r}");
    let r = rejected(
        &mut t,
        stratagem(2, Stratagem::GoToGround, "shoota-boyz", None),
    );
    assert_eq!(r.rule, Rule::Stratagem(Stratagem::GoToGround));
}

/// Target (as part of an ability): a condition on the target is checked when it is selected.
/// The Intercessors select the 10 shoota Boyz for their bolt rifles and their frag grenade
/// launchers together; BLAST's bonus is fixed then (+2 attacks per launcher for 10 models),
/// and stays after the rifles have killed six of them (4 left would give none).
#[test]
fn target_example_blast_counts_the_models_when_the_target_is_selected() {
    let mut g = deployed_game(open_field());
    isolate(&mut g, &[(1, "intercessors"), (2, "shoota-boyz")]);
    put_line(&mut g, 1, "intercessors", 8.0, 10.0, 1.5);
    put(&mut g, 1, "captain", 0, 8.0, 8.4);
    put_line(&mut g, 2, "shoota-boyz", 8.0, 30.0, 1.3);
    // The example's Boyz all have 1 Wound: the Boss Nob's second is taken away.
    let (a, u) = (
        g.army_of(2).unwrap(),
        g.find_unit(g.army_of(2).unwrap(), "shoota-boyz").unwrap(),
    );
    g.scene.armies[a].units[u].models[0].characteristics.wounds = 1;
    g.units[a][u].models[0].wounds = 1;
    advance_to(&mut g, 1, Phase::Shooting);
    // Bolt rifles: 20 Hit rolls (six 4s hit, fourteen 1s miss), six Wound rolls of 5 (S4
    // against T5), six failed saves; then the launchers' D3 Attacks: 2 and 4, that is 1 and 2.
    let mut faces = vec![4u8; 6];
    faces.extend([1; 14]);
    faces.extend([5; 6]);
    faces.extend([1; 6]);
    faces.extend([2, 4]);
    g.rng = GameRng::scripted(&faces);
    let ev = shot(
        &mut g,
        shoot(
            1,
            "intercessors",
            vec![
                WeaponTarget::new("Bolt rifle", "shoota-boyz"),
                WeaponTarget::new("Astartes grenade launcher", "shoota-boyz").with_profile("frag"),
            ],
        ),
    );
    // The weapons in the order they resolved, with the Boyz destroyed before each started.
    let log = attack_log(&ev);
    let weapons: Vec<(&str, usize)> = log
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match a {
            AttackEvent::Weapon { weapon, .. } => Some((
                weapon.as_str(),
                log[..i]
                    .iter()
                    .filter(|x| matches!(x, AttackEvent::ModelDestroyed { .. }))
                    .count(),
            )),
            _ => None,
        })
        .collect();
    assert_eq!(weapons.len(), 2, "{ev:#?}");
    assert_eq!(weapons[0], ("Bolt rifle", 0));
    assert!(weapons[1].0.contains("grenade launcher"), "{weapons:?}");
    assert_eq!(
        weapons[1].1, 6,
        "6 Boyz dead, 4 left, before the launchers roll"
    );
    let attacks: Vec<(Vec<u8>, u32)> = attack_log(&ev)
        .into_iter()
        .filter_map(|a| match a {
            AttackEvent::Attacks { dice, attacks } => Some((dice.clone(), *attacks)),
            _ => None,
        })
        .collect();
    assert_eq!(attacks[0], (vec![], 20));
    assert_eq!(
        attacks[1],
        (vec![1, 2], 1 + 2 + 2 * 2),
        "BLAST for 10 models"
    );
}

/// With the 'X' Ability: a rule about "a model with Deadly Demise" takes Deadly Demise 1, D3
/// and D6 alike. In the data, the Deff Dread (1), Trukk (D3), Battlewagon (D6), Redemptor and
/// Ballistus (D3) all have it and the infantry do not; in play, each of the three Ork
/// vehicles destroyed rolls its D6 and on a 6 deals its own X to every unit within 6".
#[test]
fn with_the_x_ability_example_any_deadly_demise_value_qualifies() {
    let scene = open_field();
    let any_value = CoreAbility::DeadlyDemise(dice("2D6"));
    let find = |player: u8, id: &str| {
        let army = scene.armies.iter().find(|a| a.player == player).unwrap();
        &army.units.iter().find(|u| u.id == id).unwrap().datasheet
    };
    for (player, id, x) in [
        (2, "deff-dread-1", "1"),
        (2, "trukk", "D3"),
        (2, "battlewagon", "D6"),
        (1, "redemptor", "D3"),
        (1, "ballistus", "D3"),
    ] {
        assert!(find(player, id).has_core(&any_value), "{id}");
        assert_eq!(find(player, id).deadly_demise(), Some(dice(x)), "{id}");
    }
    for (player, id) in [(2, "boyz-mob"), (2, "lootas"), (1, "intercessors")] {
        assert!(!find(player, id).has_core(&any_value), "{id}");
    }

    // Each vehicle at 1 wound, the Intercessors 2-6" south of it and the Nobz as far north;
    // the Intercessors' Grenade (dice 4, 1, 1, 1, 1, 1: one mortal wound) destroys it.
    let mut g = deployed_game(open_field());
    isolate(
        &mut g,
        &[
            (1, "intercessors"),
            (2, "nobz"),
            (2, "deff-dread-1"),
            (2, "trukk"),
            (2, "battlewagon"),
        ],
    );
    put(&mut g, 2, "deff-dread-1", 0, 8.0, 8.0);
    put(&mut g, 2, "trukk", 0, 20.0, 6.0);
    put(&mut g, 2, "battlewagon", 0, 54.0, 4.0);
    advance_to(&mut g, 1, Phase::Shooting);
    // (vehicle, how far north and south of it the Intercessors and the Nobz stand, dice after
    // the Grenade's, Deadly Demise triggered, mortal wounds to the Intercessors and the Nobz).
    type Case<'a> = (&'a str, f32, &'a [u8], bool, Vec<u32>);
    let cases: [Case; 4] = [
        ("deff-dread-1", 4.5, &[6], true, vec![1, 1]),
        ("trukk", 8.0, &[6, 5, 2], true, vec![3, 1]),
        ("battlewagon", 8.0, &[6, 5, 2], true, vec![5, 2]),
        ("trukk", 8.0, &[5], false, vec![]),
    ];
    for (vehicle, gap, after, triggered, expected) in cases {
        let mut t = g.clone();
        let (a, v) = game_unit(&t, 2, vehicle);
        put(&mut t, 2, vehicle, 0, 30.0, 30.0);
        put_line(&mut t, 1, "intercessors", 24.0, 30.0 - gap, 1.3);
        put(&mut t, 1, "captain", 0, 24.0, 28.5 - gap);
        put_line(&mut t, 2, "nobz", 26.0, 30.0 + gap, 1.3);
        t.units[a][v].models[0].wounds = 1;
        let mut faces = vec![4u8, 1, 1, 1, 1, 1];
        faces.extend_from_slice(after);
        t.rng = GameRng::scripted(&faces);
        let ev = accepted(
            &mut t,
            stratagem(1, Stratagem::Grenade, "intercessors", Some(vehicle)),
        );
        let model = format!("{vehicle}#0");
        assert!(
            ev.iter().any(|e| matches!(
                e,
                GameEvent::DeadlyDemise { model: m, roll, triggered: tr, .. }
                    if *m == model && *roll == after[0] && *tr == triggered
            )),
            "{vehicle}: {ev:#?}"
        );
        let demise: Vec<(&str, u32)> = ev
            .iter()
            .filter_map(|e| match e {
                GameEvent::MortalWoundsRolled {
                    player: 2,
                    target,
                    mortal_wounds,
                    ..
                } => Some((target.as_str(), *mortal_wounds)),
                _ => None,
            })
            .collect();
        let want: Vec<(&str, u32)> = ["intercessors", "nobz"]
            .into_iter()
            .zip(expected.iter().copied())
            .collect();
        assert_eq!(demise, want, "{vehicle}");
    }
}

/// Re-rolls (several kinds of roll): a rule that lets the Hit roll and the Wound roll be
/// re-rolled is taken roll by roll: the Hit roll alone, the Wound roll alone, both or neither.
#[test]
fn rerolls_example_hit_roll_and_wound_roll_chosen_separately() {
    let g = WeaponGroup::new(weapon("1", 3, 4, 0, "1", vec![]), 1);
    let target = unit(5, 4, 1, 7, None);
    let rolls = |hit: Reroll, wound: Reroll, faces: &[u8]| {
        let ctx = AttackContext {
            hit_reroll: hit,
            wound_reroll: wound,
            ..Default::default()
        };
        let (log, _) = roll(std::slice::from_ref(&g), &target, &ctx, faces);
        log.iter()
            .filter_map(|e| match e {
                AttackEvent::HitRoll {
                    roll,
                    rerolled_from,
                    ..
                } => Some(("hit", *roll, *rerolled_from)),
                AttackEvent::WoundRoll {
                    roll,
                    rerolled_from,
                    ..
                } => Some(("wound", *roll, *rerolled_from)),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    let (f, n) = (Reroll::Failed, Reroll::None);
    // Hit 1 re-rolled to 4, Wound 2 kept.
    assert_eq!(
        rolls(f, n, &[1, 4, 2]),
        vec![("hit", 4, Some(1)), ("wound", 2, None)]
    );
    // Hit 1 kept (a miss); then Hit 4, Wound 2 re-rolled to 5.
    assert_eq!(rolls(n, f, &[1]), vec![("hit", 1, None)]);
    assert_eq!(
        rolls(n, f, &[4, 2, 5]),
        vec![("hit", 4, None), ("wound", 5, Some(2))]
    );
    // Both.
    assert_eq!(
        rolls(f, f, &[1, 4, 2, 5]),
        vec![("hit", 4, Some(1)), ("wound", 5, Some(2))]
    );
    // Neither.
    assert_eq!(
        rolls(n, n, &[4, 2]),
        vec![("hit", 4, None), ("wound", 2, None)]
    );
}

/// The Trukk alone on its side at 7 of 10 wounds, its Grot Riggers timed as `when` (None: as
/// the data file has it), in battle round 1, player 1's Command phase.
fn trukk_at_seven_wounds(when: Option<Timing>) -> Game {
    let mut scene = open_field();
    let d = sheet(&mut scene, 2, "trukk");
    assert_eq!(
        d.timed_abilities,
        vec![TimedAbility {
            name: "Grot Riggers".into(),
            when: Timing {
                edge: Edge::Start,
                phase: Phase::Command,
                whose: Whose::Own,
            },
            effect: Effect::RegainWounds(1),
        }],
        "the data file's Grot Riggers"
    );
    if let Some(w) = when {
        d.timed_abilities[0].when = w;
    }
    let mut g = deployed_game(scene);
    isolate(&mut g, &[(1, "intercessors"), (2, "trukk")]);
    let (a, t) = game_unit(&g, 2, "trukk");
    g.units[a][t].models[0].wounds = 7;
    g
}

fn trukk_wounds(g: &Game) -> u8 {
    let (a, t) = game_unit(g, 2, "trukk");
    g.units[a][t].models[0].wounds
}

/// Start of the battle round/turn/phase: "at the start of your Command phase" (Grot Riggers
/// as printed) is the Trukk's own Command phase only; "at the start of the Command phase" is
/// both players' Command phases. Wounds never go above the characteristic.
#[test]
fn start_of_phase_example_the_command_phase_is_both_players() {
    let mut g = trukk_at_seven_wounds(None);
    let ev = advance_to(&mut g, 2, Phase::Command);
    assert!(ev.iter().any(|e| matches!(
        e,
        GameEvent::WoundsRegained { player: 2, model, ability, regained: 1, wounds: 8 }
            if model == "trukk#0" && ability == "Grot Riggers"
    )));
    advance_to(&mut g, 1, Phase::Command);
    assert_eq!(trukk_wounds(&g), 8, "player 1's Command phase: not 'your'");
    advance_to(&mut g, 2, Phase::Command);
    assert_eq!(trukk_wounds(&g), 9);

    let mut g = trukk_at_seven_wounds(Some(Timing {
        edge: Edge::Start,
        phase: Phase::Command,
        whose: Whose::Any,
    }));
    let mut seen = Vec::new();
    for player in [2, 1, 2, 1] {
        advance_to(&mut g, player, Phase::Command);
        seen.push(trukk_wounds(&g));
    }
    assert_eq!(seen, vec![8, 9, 10, 10]);
}

/// The Turn/the Phase: "at the end of the Movement phase" happens at the end of both players'
/// Movement phases (not at their start); "your Movement phase" only at the end of the owner's.
#[test]
fn the_turn_the_phase_example_end_of_the_movement_phase_is_both_players() {
    let at_end = |whose| {
        Some(Timing {
            edge: Edge::End,
            phase: Phase::Movement,
            whose,
        })
    };
    let steps = [
        (1, Phase::Movement),
        (1, Phase::Shooting),
        (2, Phase::Movement),
        (2, Phase::Shooting),
    ];
    for (whose, expected) in [
        (Whose::Any, vec![7, 8, 8, 9]),
        (Whose::Own, vec![7, 7, 7, 8]),
    ] {
        let mut g = trukk_at_seven_wounds(at_end(whose));
        let seen: Vec<u8> = steps
            .iter()
            .map(|&(p, phase)| {
                advance_to(&mut g, p, phase);
                trukk_wounds(&g)
            })
            .collect();
        assert_eq!(seen, expected, "{whose:?}");
    }
}

/// Modifiers, example 2 (#20 and #21) played through the engine: an Intercessor (OC 2) whose
/// unit is led by a Captain with an Ancient's banner (+1 OC while leading) and is within
/// Engagement Range of Nobz given the Ripper Swarms' ability (halve the OC of engaged enemy
/// units). Halve first, then add: 2/2 + 1 = 2; Battle-shocked, OC is set to 0 before
/// anything else: 0/2 + 1 = 1. The Captain (OC 1) shows the order: 1/2 + 1 rounds up to 2,
/// where adding first would give (1+1)/2 = 1.
#[test]
fn modifiers_example_2_objective_control_in_play() {
    use wartable::game::sight::ModelRef;
    use wartable::rules::abilities::ObjectiveControlEffect as Oc;
    let mut scene = open_field();
    sheet(&mut scene, 1, "captain")
        .objective_control_effects
        .push(Oc::WhileLeadingPlus(1));
    sheet(&mut scene, 2, "nobz")
        .objective_control_effects
        .push(Oc::HalveEngagedEnemies);
    let mut g = deployed_game(scene);
    isolate(&mut g, &[(1, "intercessors"), (2, "nobz")]);
    // Every Intercessor and the Captain within range of the centre marker (30, 22); the
    // Nobz engage the easternmost Intercessor from outside the marker's range.
    for m in 0..5 {
        put(&mut g, 1, "intercessors", m, 27.4 + 1.3 * m as f32, 21.35);
    }
    for m in 5..9 {
        put(
            &mut g,
            1,
            "intercessors",
            m,
            27.4 + 1.3 * (m - 5) as f32,
            22.65,
        );
    }
    put(&mut g, 1, "intercessors", 9, 34.2, 22.0);
    put(&mut g, 1, "captain", 0, 30.0, 24.2);
    put_line(&mut g, 2, "nobz", 36.0, 22.0, 1.6);
    let (a, u) = game_unit(&g, 1, "intercessors");
    let (_, c) = game_unit(&g, 1, "captain");
    let (n_army, n) = game_unit(&g, 2, "nobz");
    assert!(g.units_engaged((a, u), (n_army, n)));
    let intercessor = ModelRef {
        army: a,
        unit: u,
        model: 0,
    };
    let captain = ModelRef {
        army: a,
        unit: c,
        model: 0,
    };
    let centre = objective(&g, "centre");
    // The Levels of Control the engine reports at the end of the phase.
    let levels_at_end_of_phase = |g: &mut Game| -> [u32; 2] {
        g.objectives[centre] = None;
        let p = g.active_player;
        let ev = accepted(g, Command::EndPhase { player: p });
        ev.iter()
            .find_map(|e| match e {
                GameEvent::ObjectiveControl {
                    objective, levels, ..
                } if objective == "centre" => Some(*levels),
                _ => None,
            })
            .expect("the centre changes hands")
    };

    // #20: 2/2 + 1 = 2 for each Intercessor, 1/2 + 1 = 2 for the Captain: 10 x 2 + 2.
    assert_eq!(g.objective_control(intercessor), 2);
    assert_eq!(g.objective_control(captain), 2);
    assert_eq!(levels_at_end_of_phase(&mut g), [22, 0]);
    assert_eq!(g.objectives[centre], Some(1));

    // #21: Battle-shocked: 0, halved 0, +1 = 1; 10 x 1 + 1.
    g.for_combined(a, u, |s| s.battle_shocked = true);
    assert_eq!(g.objective_control(intercessor), 1);
    assert_eq!(g.objective_control(captain), 1);
    assert_eq!(levels_at_end_of_phase(&mut g), [11, 0]);
    g.for_combined(a, u, |s| s.battle_shocked = false);

    // Each modifier is the engine's own: out of Engagement Range the OC is 2 + 1 = 3; with
    // the Captain dead it is 2/2 = 1.
    put_line(&mut g, 2, "nobz", 40.0, 22.0, 1.6);
    assert_eq!(g.objective_control(intercessor), 3);
    put_line(&mut g, 2, "nobz", 36.0, 22.0, 1.6);
    g.units[a][c].models[0].alive = false;
    assert_eq!(g.objective_control(intercessor), 1);
}
