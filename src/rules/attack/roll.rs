//! Rolling an attack with seeded dice, one die at a time, writing the event log; and the
//! Monte Carlo resolver that repeats it as a cross-check of [`super::exact`].

use serde::Serialize;

use super::events::{AttackEvent, EventSink, NoLog};
use super::{
    AttackContext, CommandReroll, CommandRerolls, ResolvedWeapon, RollResult, TargetUnit,
    WeaponGroup, save_needed,
};
use crate::rules::DiceExpr;
use crate::rules::rng::DiceRoll;
use crate::rules::rng::GameRng;
use crate::rules::ruleset::{DevastatingWoundsRule, SaveProcedure};

macro_rules! log {
    ($sink:expr, $event:expr) => {
        if $sink.enabled() {
            $sink.record($event);
        }
    };
}

/// What one rolled attack did to the target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RollOutcome {
    /// Wounds the target unit lost.
    pub wounds_lost: u32,
    /// Models destroyed.
    pub models_destroyed: u32,
    /// Wounds each target model has left afterwards, in the target's model order.
    pub wounds_remaining: Vec<u8>,
    /// HAZARDOUS tests failed by the attackers.
    pub hazardous_failures: u32,
    /// For each failed HAZARDOUS test, the index (in the weapons resolved) of the weapon
    /// whose bearer failed it: the game removes one such bearer, or gives it mortal wounds.
    pub hazardous_failed: Vec<usize>,
    /// For each target model (in the target's model order), whether an attack or mortal
    /// wound was allocated to it (now or earlier this phase): the next attacks this phase
    /// must go to it first (Core Rules: Allocate Attack).
    pub allocated: Vec<bool>,
}

/// The target's models while an attack is resolved.
struct Defender<'a> {
    target: &'a TargetUnit,
    remaining: Vec<u8>,
    allocated: Vec<bool>,
    groups: [Vec<usize>; 2],
    /// 11th: the tracks are fixed orders; each model takes everything until destroyed.
    tracks: bool,
}

impl<'a> Defender<'a> {
    fn new(target: &'a TargetUnit, procedure: SaveProcedure) -> Self {
        Self {
            tracks: procedure == SaveProcedure::AllocationGroupsLowestFirst,
            target,
            remaining: target.models.iter().map(|m| m.wounds_remaining).collect(),
            allocated: target
                .models
                .iter()
                .map(|m| m.allocated_this_phase)
                .collect(),
            groups: target.allocation_tracks(procedure),
        }
    }

    /// The model the next attack (or mortal wound) must go to: in the first group that has
    /// models left (the CHARACTERs first for PRECISION), a model that has lost wounds or
    /// already had an attack allocated, else the first in order.
    fn pick(&self, precision: bool) -> Option<usize> {
        let order = if precision { [1, 0] } else { [0, 1] };
        if self.tracks {
            return order.into_iter().find_map(|g| {
                self.groups[g]
                    .iter()
                    .copied()
                    .find(|&i| self.remaining[i] > 0)
            });
        }
        for g in order {
            let mut first = None;
            for &i in &self.groups[g] {
                if self.remaining[i] == 0 {
                    continue;
                }
                if self.allocated[i]
                    || self.remaining[i] < self.target.models[i].wounds_remaining
                    || self.target.models[i].must_take_attacks_first()
                {
                    return Some(i);
                }
                first.get_or_insert(i);
            }
            if first.is_some() {
                return first;
            }
        }
        None
    }

    /// Model `i` would lose one wound: Feel No Pain, then the loss. Returns false once the
    /// model is destroyed.
    fn lose_wound<S: EventSink>(
        &mut self,
        i: usize,
        mortal: bool,
        rng: &mut GameRng,
        sink: &mut S,
    ) -> bool {
        let model = &self.target.models[i];
        if let Some(fnp) = model.feel_no_pain {
            let roll = rng.d6();
            let ignored = roll >= fnp;
            log!(
                sink,
                AttackEvent::FeelNoPain {
                    model: i,
                    roll,
                    needed: fnp,
                    ignored,
                }
            );
            if ignored {
                return true;
            }
        }
        self.remaining[i] -= 1;
        log!(
            sink,
            AttackEvent::WoundLost {
                model: i,
                wounds_remaining: self.remaining[i],
                mortal,
            }
        );
        if self.remaining[i] == 0 {
            log!(
                sink,
                AttackEvent::ModelDestroyed {
                    model: i,
                    name: model.name.clone(),
                }
            );
            return false;
        }
        true
    }
}

/// One Hit or Wound roll: the die, the die it replaced and by what, and the result.
struct CheckedRoll {
    face: u8,
    rerolled_from: Option<u8>,
    rerolled_by: Option<&'static str>,
    result: RollResult,
}

/// Rolls one D6 for a Hit or Wound roll: re-roll by `policy` first (before modifiers), then a
/// Command Re-roll of a failure that was not re-rolled yet if `command` still holds one.
fn checked_roll(
    rng: &mut GameRng,
    policy: super::Reroll,
    policy_name: &'static str,
    classify: impl Fn(u8) -> RollResult,
    command: &mut bool,
) -> CheckedRoll {
    let face = rng.d6();
    let result = classify(face);
    if policy.applies(face, result) {
        let again = rng.d6();
        return CheckedRoll {
            face: again,
            rerolled_from: Some(face),
            rerolled_by: Some(policy_name),
            result: classify(again),
        };
    }
    if result == RollResult::Fail && *command {
        *command = false;
        let again = rng.d6();
        return CheckedRoll {
            face: again,
            rerolled_from: Some(face),
            rerolled_by: Some("Command Re-roll"),
            result: classify(again),
        };
    }
    CheckedRoll {
        face,
        rerolled_from: None,
        rerolled_by: None,
        result,
    }
}

/// Resolves `groups` against `target` once with seeded dice, recording every step in `sink`
/// (see the module documentation of [`super`] for the order).
pub fn resolve<S: EventSink>(
    groups: &[WeaponGroup],
    target: &TargetUnit,
    ctx: &AttackContext,
    rng: &mut GameRng,
    sink: &mut S,
) -> RollOutcome {
    let weapons: Vec<ResolvedWeapon> = ResolvedWeapon::all(groups, target, ctx);
    resolve_weapons(&weapons, target, ctx.command_rerolls(), rng, sink)
}

/// Rolls `expr` for a Damage or Attacks roll; with `command` still held and the dice random,
/// the Command Re-roll is decided on this roll: spent on a total below the dice's average
/// (logged, then rolled again), otherwise given up.
fn roll_with_command_reroll<S: EventSink>(
    expr: DiceExpr,
    of: &str,
    command: &mut bool,
    rng: &mut GameRng,
    sink: &mut S,
) -> DiceRoll {
    let r = expr.roll(rng);
    if !*command || expr.is_fixed() {
        return r;
    }
    *command = false;
    if !CommandReroll::below_average(expr, r.value) {
        return r;
    }
    log!(
        sink,
        AttackEvent::CommandReroll {
            of: of.to_string(),
            replaced: r.dice.to_vec(),
        }
    );
    expr.roll(rng)
}

/// [`resolve`] for weapons already resolved against this target, with the Command Re-rolls
/// held: a [`CommandReroll`] of the attacker, or [`CommandRerolls`] of both sides.
pub fn resolve_weapons<S: EventSink>(
    weapons: &[ResolvedWeapon],
    target: &TargetUnit,
    command_rerolls: impl Into<CommandRerolls>,
    rng: &mut GameRng,
    sink: &mut S,
) -> RollOutcome {
    let rerolls: CommandRerolls = command_rerolls.into();
    let command_reroll = rerolls.attacker;
    let procedure = weapons
        .first()
        .map_or(SaveProcedure::OneAttackAtATime, |w| w.save_procedure);
    let mut def = Defender::new(target, procedure);
    // Mortal wound pools: [normal, from PRECISION attacks].
    let mut pools = [0u32; 2];
    // Command Re-rolls not tied to the first weapon group, still held.
    let mut attacks_cr = command_reroll == CommandReroll::AttacksRoll;
    let mut damage_cr = command_reroll == CommandReroll::DamageRoll;
    let mut save_cr = rerolls.defender_save;
    let mut hazardous_cr = command_reroll == CommandReroll::HazardousTest;
    for (gi, w) in weapons.iter().enumerate() {
        let mut hit_cr = gi == 0 && command_reroll == CommandReroll::HitRoll;
        let mut wound_cr = gi == 0 && command_reroll == CommandReroll::WoundRoll;
        log!(
            sink,
            AttackEvent::Weapon {
                weapon: w.name.clone(),
                bearers: w.bearers,
                notes: w.notes.clone(),
            }
        );
        let mut attacks = 0u32;
        let mut attack_dice = Vec::new();
        for _ in 0..w.bearers {
            let r = roll_with_command_reroll(w.attacks, "Attacks", &mut attacks_cr, rng, sink);
            if sink.enabled() {
                attack_dice.extend_from_slice(&r.dice);
            }
            attacks += w.attacks_value(r.value);
        }
        log!(
            sink,
            AttackEvent::Attacks {
                dice: attack_dice,
                attacks,
            }
        );

        // Hit rolls.
        let mut wound_rolls = 0u32;
        let mut automatic_wounds = 0u32;
        for attack in 1..=attacks {
            if w.torrent {
                log!(sink, AttackEvent::AutomaticHit { attack });
                wound_rolls += 1;
                continue;
            }
            let r = checked_roll(
                rng,
                w.hit_reroll,
                "re-roll",
                |f| w.hit_result(f),
                &mut hit_cr,
            );
            log!(
                sink,
                AttackEvent::HitRoll {
                    attack,
                    roll: r.face,
                    rerolled_from: r.rerolled_from,
                    rerolled_by: r.rerolled_by,
                    modifier: w.hit_modifier,
                    needed: w.skill,
                    result: r.result,
                }
            );
            match r.result {
                RollResult::Fail => {}
                RollResult::Success => wound_rolls += 1,
                RollResult::Critical => {
                    if w.lethal_hits {
                        automatic_wounds += 1;
                        log!(sink, AttackEvent::AutomaticWound { attack });
                    } else {
                        wound_rolls += 1;
                    }
                    if let Some(x) = w.sustained_hits {
                        let extra = x.roll(rng);
                        let extra_hits = extra.value.max(0) as u32;
                        wound_rolls += extra_hits;
                        log!(
                            sink,
                            AttackEvent::SustainedHits {
                                attack,
                                dice: extra.dice.to_vec(),
                                extra_hits,
                            }
                        );
                    }
                }
            }
        }

        // Wound rolls.
        let mut wounds = automatic_wounds;
        let mut crits = 0u32;
        let policy_name = if w.wound_reroll == super::Reroll::Failed {
            "TWIN-LINKED or re-roll"
        } else {
            "re-roll"
        };
        for hit in 1..=wound_rolls {
            let r = checked_roll(
                rng,
                w.wound_reroll,
                policy_name,
                |f| w.wound_result(f),
                &mut wound_cr,
            );
            log!(
                sink,
                AttackEvent::WoundRoll {
                    hit,
                    roll: r.face,
                    rerolled_from: r.rerolled_from,
                    rerolled_by: r.rerolled_by,
                    modifier: w.wound_modifier,
                    needed: w.wound_needed,
                    result: r.result,
                }
            );
            match r.result {
                RollResult::Fail => {}
                RollResult::Critical
                    if w.devastating_wounds
                        && w.devastating_rule
                            == DevastatingWoundsRule::OneModelPerCriticalWound =>
                {
                    // 11th: the Damage is rolled after the weapon's normal damage.
                    crits += 1;
                }
                RollResult::Critical if w.devastating_wounds => {
                    let d = roll_with_command_reroll(w.damage, "Damage", &mut damage_cr, rng, sink);
                    let mortal_wounds = w.damage_value(d.value);
                    pools[usize::from(w.precision)] += mortal_wounds;
                    log!(
                        sink,
                        AttackEvent::DevastatingWounds {
                            hit,
                            dice: d.dice.to_vec(),
                            mortal_wounds,
                        }
                    );
                }
                _ => wounds += 1,
            }
        }

        if procedure == SaveProcedure::AllocationGroupsLowestFirst {
            save_in_groups(w, wounds, &mut def, &mut save_cr, &mut damage_cr, rng, sink);
            // DEVASTATING WOUNDS: each Critical Wound's mortal wounds damage one model only.
            for hit in 1..=crits {
                let d = roll_with_command_reroll(w.damage, "Damage", &mut damage_cr, rng, sink);
                let mortal_wounds = w.damage_value(d.value);
                log!(
                    sink,
                    AttackEvent::DevastatingWounds {
                        hit,
                        dice: d.dice.to_vec(),
                        mortal_wounds,
                    }
                );
                let Some(i) = def.pick(w.precision) else {
                    continue;
                };
                def.allocated[i] = true;
                for _ in 0..mortal_wounds {
                    if !def.lose_wound(i, true, rng, sink) {
                        break;
                    }
                }
            }
            continue;
        }

        // Allocation, saving throws, damage: one attack at a time.
        for _ in 0..wounds {
            let Some(i) = def.pick(w.precision) else {
                break;
            };
            def.allocated[i] = true;
            let model = &target.models[i];
            log!(
                sink,
                AttackEvent::Allocated {
                    model: i,
                    name: model.name.clone(),
                }
            );
            let need = save_needed(model, w.ap, w.cover_for(model));
            let mut roll = rng.d6();
            if !need.saves(roll) && save_cr {
                save_cr = false;
                log!(
                    sink,
                    AttackEvent::CommandReroll {
                        of: "saving throw".into(),
                        replaced: vec![roll],
                    }
                );
                roll = rng.d6();
            }
            let saved = need.saves(roll);
            log!(
                sink,
                AttackEvent::SavingThrow {
                    model: i,
                    kind: need.kind,
                    roll,
                    modifier: need.modifier,
                    characteristic: need.characteristic,
                    saved,
                }
            );
            if saved {
                continue;
            }
            inflict_damage(w, i, &mut def, &mut damage_cr, rng, sink);
        }
    }

    // Mortal wounds, after all normal damage: one at a time, carrying over.
    for (precision, pool) in [(true, pools[1]), (false, pools[0])] {
        if pool == 0 {
            continue;
        }
        log!(
            sink,
            AttackEvent::MortalWounds {
                total: pool,
                precision,
            }
        );
        for _ in 0..pool {
            let Some(i) = def.pick(precision) else {
                break;
            };
            def.allocated[i] = true;
            def.lose_wound(i, true, rng, sink);
        }
    }

    // HAZARDOUS: one test per bearer of each hazardous weapon, after the unit attacked.
    let mut hazardous_failed = Vec::new();
    for (wi, w) in weapons.iter().enumerate().filter(|(_, w)| w.hazardous) {
        for _ in 0..w.bearers {
            let mut roll = rng.d6();
            if roll <= w.hazard_fails_up_to && hazardous_cr {
                hazardous_cr = false;
                log!(
                    sink,
                    AttackEvent::CommandReroll {
                        of: "HAZARDOUS test".into(),
                        replaced: vec![roll],
                    }
                );
                roll = rng.d6();
            }
            let failed = roll <= w.hazard_fails_up_to;
            if failed {
                hazardous_failed.push(wi);
            }
            log!(
                sink,
                AttackEvent::Hazardous {
                    weapon: w.name.clone(),
                    roll,
                    failure: failed.then(|| w.hazard_loss.describe()),
                }
            );
        }
    }

    def.outcome(hazardous_failed)
}

/// 11th edition saving throws for one weapon's `wounds` wounding attacks (11th Core Rules
/// 05.03-05.04): every die rolled at once, then taken lowest first, each against a model of
/// the current allocation group (the defender's Command Re-roll, if held, re-rolls the lowest
/// die when it fails against the model it goes to); a failed one (an unmodified 1 always
/// fails) inflicts the weapon's Damage on that model, the excess lost.
fn save_in_groups<S: EventSink>(
    w: &ResolvedWeapon,
    wounds: u32,
    def: &mut Defender<'_>,
    save_cr: &mut bool,
    damage_cr: &mut bool,
    rng: &mut GameRng,
    sink: &mut S,
) {
    if wounds == 0 {
        return;
    }
    let mut dice: Vec<u8> = (0..wounds).map(|_| rng.d6()).collect();
    dice.sort_unstable();
    if *save_cr
        && let Some(i) = def.pick(w.precision)
        && !save_needed(&def.target.models[i], w.ap, false).saves(dice[0])
    {
        *save_cr = false;
        log!(
            sink,
            AttackEvent::CommandReroll {
                of: "saving throw".into(),
                replaced: vec![dice[0]],
            }
        );
        dice[0] = rng.d6();
        dice.sort_unstable();
    }
    log!(sink, AttackEvent::SaveDice { dice: dice.clone() });
    for roll in dice {
        let Some(i) = def.pick(w.precision) else {
            break;
        };
        def.allocated[i] = true;
        let model = &def.target.models[i];
        let need = save_needed(model, w.ap, false);
        let saved = need.saves(roll);
        log!(
            sink,
            AttackEvent::SavingThrow {
                model: i,
                kind: need.kind,
                roll,
                modifier: need.modifier,
                characteristic: need.characteristic,
                saved,
            }
        );
        if saved {
            continue;
        }
        inflict_damage(w, i, def, damage_cr, rng, sink);
    }
}

/// An unsaved attack of `w` on model `i`: the Damage roll (a Command Re-roll still held may
/// be spent on it), then the wounds lost one at a time with Feel No Pain; the excess is lost.
fn inflict_damage<S: EventSink>(
    w: &ResolvedWeapon,
    i: usize,
    def: &mut Defender<'_>,
    damage_cr: &mut bool,
    rng: &mut GameRng,
    sink: &mut S,
) {
    let d = roll_with_command_reroll(w.damage, "Damage", damage_cr, rng, sink);
    let damage = w.damage_value(d.value);
    log!(
        sink,
        AttackEvent::Damage {
            model: i,
            dice: d.dice.to_vec(),
            damage,
        }
    );
    for _ in 0..damage {
        if !def.lose_wound(i, false, rng, sink) {
            break;
        }
    }
}

impl Defender<'_> {
    /// What the target lost, from its wounds before and after.
    fn outcome(self, hazardous_failed: Vec<usize>) -> RollOutcome {
        let models = &self.target.models;
        let wounds_lost = models
            .iter()
            .zip(&self.remaining)
            .map(|(m, r)| u32::from(m.wounds_remaining - r))
            .sum();
        let models_destroyed = models
            .iter()
            .zip(&self.remaining)
            .filter(|(m, r)| m.wounds_remaining > 0 && **r == 0)
            .count() as u32;
        RollOutcome {
            wounds_lost,
            models_destroyed,
            wounds_remaining: self.remaining,
            hazardous_failures: hazardous_failed.len() as u32,
            hazardous_failed,
            allocated: self.allocated,
        }
    }
}

/// Inflicts `mortal_wounds` mortal wounds on `target` outside an attack (e.g. the Grenade
/// Stratagem): one at a time, each allocated like an attack (damaged models first, Leaders
/// last), Feel No Pain against each, excess carrying over to the next model (Rules
/// Commentary: Mortal Wounds).
pub fn inflict_mortal_wounds<S: EventSink>(
    target: &TargetUnit,
    mortal_wounds: u32,
    rng: &mut GameRng,
    sink: &mut S,
) -> RollOutcome {
    let mut def = Defender::new(target, SaveProcedure::OneAttackAtATime);
    if mortal_wounds > 0 {
        log!(
            sink,
            AttackEvent::MortalWounds {
                total: mortal_wounds,
                precision: false,
            }
        );
    }
    for _ in 0..mortal_wounds {
        let Some(i) = def.pick(false) else {
            break;
        };
        def.allocated[i] = true;
        def.lose_wound(i, true, rng, sink);
    }
    def.outcome(Vec::new())
}

/// Summary of many rolled attacks.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MonteCarloSummary {
    /// Number of trials.
    pub trials: u32,
    /// Mean wounds lost.
    pub mean_wounds_lost: f64,
    /// Standard deviation of wounds lost (one trial).
    pub sd_wounds_lost: f64,
    /// Mean models destroyed.
    pub mean_models_destroyed: f64,
    /// Standard deviation of models destroyed (one trial).
    pub sd_models_destroyed: f64,
    /// Observed frequency of each number of models destroyed, from 0.
    pub models_destroyed: Vec<f64>,
    /// Observed frequency of each number of wounds lost, from 0.
    pub wounds_lost: Vec<f64>,
}

/// Resolves the attack `trials` times with dice seeded by `seed` (the cross-check of the exact
/// distribution; same process, no event log).
pub fn monte_carlo(
    groups: &[WeaponGroup],
    target: &TargetUnit,
    ctx: &AttackContext,
    trials: u32,
    seed: u64,
) -> MonteCarloSummary {
    let weapons: Vec<ResolvedWeapon> = ResolvedWeapon::all(groups, target, ctx);
    monte_carlo_weapons(&weapons, target, ctx.command_rerolls(), trials, seed)
}

/// [`monte_carlo`] for weapons already resolved against this target, with the Command Re-rolls
/// held (the fallback of [`super::exact::estimate_of_weapons`] when the exact distribution
/// would be too much work).
pub fn monte_carlo_weapons(
    weapons: &[ResolvedWeapon],
    target: &TargetUnit,
    command_rerolls: impl Into<CommandRerolls>,
    trials: u32,
    seed: u64,
) -> MonteCarloSummary {
    let rerolls: CommandRerolls = command_rerolls.into();
    let mut rng = GameRng::seeded(seed);
    let mut models = vec![0u64; target.models.len() + 1];
    let total_wounds: usize = target
        .models
        .iter()
        .map(|m| usize::from(m.wounds_remaining))
        .sum();
    let mut wounds = vec![0u64; total_wounds + 1];
    let (mut sw, mut sww, mut sm, mut smm) = (0.0, 0.0, 0.0, 0.0);
    for _ in 0..trials {
        let out = resolve_weapons(weapons, target, rerolls, &mut rng, &mut NoLog);
        let (w, m) = (f64::from(out.wounds_lost), f64::from(out.models_destroyed));
        sw += w;
        sww += w * w;
        sm += m;
        smm += m * m;
        models[out.models_destroyed as usize] += 1;
        wounds[out.wounds_lost as usize] += 1;
    }
    let n = f64::from(trials.max(1));
    let sd = |s: f64, ss: f64| ((ss / n - (s / n).powi(2)).max(0.0)).sqrt();
    let freq = |v: Vec<u64>| v.into_iter().map(|c| c as f64 / n).collect();
    MonteCarloSummary {
        trials,
        mean_wounds_lost: sw / n,
        sd_wounds_lost: sd(sw, sww),
        mean_models_destroyed: sm / n,
        sd_models_destroyed: sd(sm, smm),
        models_destroyed: freq(models),
        wounds_lost: freq(wounds),
    }
}
