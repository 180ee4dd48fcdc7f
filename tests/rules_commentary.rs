//! One test per worked example of the 10th edition Rules Commentary (seeds/000) about attacks,
//! dice, modifiers, re-rolls, criticals, Sustained/Lethal/Devastating, Feel No Pain, mortal
//! wounds, duplicated abilities, Objective Control and Leadership; and the 8th edition FAQ's
//! modifier questions (seeds/001) where 10th edition agrees. Each test names its entry.

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
mod common;
use common::{dice, weapon};
use wartable::rules::WeaponAbility as A;
use wartable::rules::rng::{GameRng, leadership_test};

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
