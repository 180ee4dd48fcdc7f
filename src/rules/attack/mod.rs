//! The attack sequence: Hit roll, Wound roll, allocation, saving throw, Damage, Feel No Pain and
//! mortal wounds, with every core weapon ability.
//!
//! Core Rules: Making Attacks, Weapon Abilities; Rules Commentary: Critical Hit, Critical Wound,
//! Additional Hits, Automatically Successful, Mortal Wounds, Feel No Pain, Duplicated Core
//! Abilities, Attached Units with Multiple Characters, Unit's Toughness Characteristic.
//!
//! The same resolved weapons ([`ResolvedWeapon`]) feed two resolvers that follow one process:
//! [`roll::resolve`] rolls seeded dice and writes an event log (and [`roll::monte_carlo`]
//! repeats it), and [`exact::distribution`] computes the exact probability distribution of the
//! outcome without sampling (past a bound on its work, a seeded Monte Carlo estimate that
//! [`exact::estimate`] flags as such).
//!
//! The process, weapon group by weapon group in the order given: roll the Attacks of every
//! bearer; make all Hit rolls; make Wound rolls for every hit (LETHAL HITS wounds
//! automatically); then allocate the wounding attacks one at a time (a model that has lost
//! wounds or already had an attack allocated first; CHARACTERs of an Attached unit only once
//! no Bodyguard model is left, unless PRECISION), each with its saving throw, Damage roll and
//! Feel No Pain rolls. A Critical Wound with DEVASTATING WOUNDS inflicts mortal wounds equal
//! to its Damage instead; all mortal wounds are applied after every group's normal damage, one
//! at a time, carrying over between models (PRECISION ones to CHARACTERs first). A Command
//! Re-roll, if chosen, is spent as [`CommandReroll`] and [`CommandRerolls`] say: a Hit or
//! Wound roll in the first weapon group, the first random Attacks or Damage roll below its
//! average, the first failed HAZARDOUS test, or (the defender's) the first failed saving throw.

pub mod eligibility;
pub mod events;
pub mod exact;
pub mod roll;

use serde::{Deserialize, Serialize};

use super::constants::{
    BEST_SKILL_OR_SAVE, BIG_GUNS_NEVER_TIRE_HIT_MODIFIER, BLAST_MODELS_PER_EXTRA_ATTACK,
    COVER_NO_BONUS_SAVE_AT_AP0, COVER_SAVE_BONUS, CRITICAL_ROLL, HAZARDOUS_MORTAL_WOUND_KEYWORDS,
    HEAVY_HIT_BONUS, LANCE_WOUND_BONUS, STEALTH_HIT_MODIFIER, WOUND_ROLL_DOUBLE_STRENGTH,
    WOUND_ROLL_EQUAL, WOUND_ROLL_GREATER_STRENGTH, WOUND_ROLL_HALF_STRENGTH,
    WOUND_ROLL_LESSER_STRENGTH,
};
use super::dice::DiceExpr;
use super::modifiers::{capped_hit_or_wound_modifier, modified_roll};
use super::ruleset::{CoverEffect, DevastatingWoundsRule, HazardRule, HeavyRule, SaveProcedure};
use super::weapon::{WeaponAbility, WeaponProfile};

/// Which dice of one kind of roll the attacker re-rolls, before modifiers (Rules Commentary:
/// Re-rolls). A die is never re-rolled twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Reroll {
    /// No re-roll.
    #[default]
    None,
    /// Re-roll unmodified results of 1.
    Ones,
    /// Re-roll rolls that would fail.
    Failed,
    /// Re-roll every roll that is not a Critical result (fishing for Critical Hits/Wounds).
    NonCritical,
}

impl Reroll {
    /// True if a die with this unmodified `face` and `result` is re-rolled under this policy.
    pub fn applies(self, face: u8, result: RollResult) -> bool {
        match self {
            Reroll::None => false,
            Reroll::Ones => face == 1,
            Reroll::Failed => result == RollResult::Fail,
            Reroll::NonCritical => result != RollResult::Critical,
        }
    }

    /// The stronger of two policies (a weapon's TWIN-LINKED beside a chosen policy).
    fn max(self, other: Reroll) -> Reroll {
        let rank = |r: Reroll| match r {
            Reroll::None => 0,
            Reroll::Ones => 1,
            Reroll::Failed => 2,
            Reroll::NonCritical => 3,
        };
        if rank(other) > rank(self) {
            other
        } else {
            self
        }
    }
}

/// What the attacker spends a Command Re-roll Stratagem on during this attack (Core
/// Stratagems: Command Re-roll, which may re-roll a Hit roll, Wound roll, Damage roll, the
/// number of attacks or a HAZARDOUS test, among others). The Stratagem is used before the
/// attack and kept for the first roll of that kind that it helps; a die is never re-rolled
/// twice (Rules Commentary: Re-rolls).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum CommandReroll {
    /// Not used.
    #[default]
    None,
    /// The first failed Hit roll of the first weapon group that was not already re-rolled.
    HitRoll,
    /// The first failed Wound roll of the first weapon group that was not already re-rolled.
    WoundRoll,
    /// The first random Damage roll of the attacks (a DEVASTATING WOUNDS one included),
    /// re-rolled when its dice total is below the dice's average (a D6 of 1-3, a D3 of 1);
    /// at or above the average it is kept and the re-roll is not used.
    DamageRoll,
    /// The first random Attacks roll (one bearer's Attacks dice), re-rolled when its total is
    /// below the dice's average, as for [`CommandReroll::DamageRoll`].
    AttacksRoll,
    /// The first failed HAZARDOUS test after the attacks.
    HazardousTest,
}

impl CommandReroll {
    /// True when a rolled dice total `value` of `expr` is worth a Command Re-roll of a
    /// Damage or Attacks roll: the expression has dice and `value` is below its average.
    pub fn below_average(expr: DiceExpr, value: i32) -> bool {
        !expr.is_fixed() && (value as f32) < expr.mean()
    }
}

/// Every Command Re-roll held while one unit's attacks at one target resolve (Core
/// Stratagems: Command Re-roll): the attacking unit's, of one kind, and the defending unit's,
/// which re-rolls the first saving throw that fails against those attacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CommandRerolls {
    /// The attacking unit's Command Re-roll.
    pub attacker: CommandReroll,
    /// The defending unit re-rolls its first failed saving throw (in any weapon group).
    pub defender_save: bool,
}

impl From<CommandReroll> for CommandRerolls {
    /// The attacker's Command Re-roll alone.
    fn from(attacker: CommandReroll) -> Self {
        Self {
            attacker,
            defender_save: false,
        }
    }
}

/// The result of one Hit or Wound roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RollResult {
    /// The roll failed.
    Fail,
    /// The roll succeeded.
    Success,
    /// A Critical Hit or Critical Wound (always a success).
    Critical,
}

/// Which saving throw a model makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SaveKind {
    /// Armour save (Sv), modified by AP and cover.
    Armour,
    /// Invulnerable save: AP and cover do not apply.
    Invulnerable,
}

/// One weapon profile fired (or swung) by `bearers` identical models.
#[derive(Debug, Clone, PartialEq)]
pub struct WeaponGroup {
    /// The weapon profile.
    pub profile: WeaponProfile,
    /// Number of models making attacks with it.
    pub bearers: u32,
    /// True if these bearers are within half the weapon's range of the target (RAPID FIRE,
    /// MELTA).
    pub within_half_range: bool,
    /// Abilities granted by other rules (Stratagems, Leaders); merged with the profile's
    /// without stacking (Rules Commentary: Duplicated Core Abilities).
    pub extra_abilities: Vec<WeaponAbility>,
    /// Keywords of the bearers (a failed HAZARDOUS test costs a CHARACTER, MONSTER or
    /// VEHICLE bearer mortal wounds instead of its life).
    pub bearer_keywords: Vec<String>,
    /// Plunging Fire applies to these bearers: their AP is improved by 1 (decided per
    /// attacking model; see [`crate::rules::cover`]).
    pub plunging_fire: bool,
    /// 11th edition: the target unit has the Benefit of Cover against these bearers (decided
    /// per attacking model, 11th Core Rules 13.08).
    pub covered: bool,
}

impl WeaponGroup {
    /// `bearers` models attacking with `profile`, not within half range, no extra abilities.
    pub fn new(profile: WeaponProfile, bearers: u32) -> Self {
        Self {
            profile,
            bearers,
            within_half_range: false,
            extra_abilities: Vec::new(),
            bearer_keywords: Vec::new(),
            plunging_fire: false,
            covered: false,
        }
    }
}

/// The circumstances of an attack that change its rolls.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AttackContext {
    /// The attacking unit made a Charge move this turn (LANCE).
    pub charged: bool,
    /// The attacking unit Remained Stationary this turn (HEAVY).
    pub remained_stationary: bool,
    /// The target has the Benefit of Cover (ignored by IGNORES COVER).
    pub target_has_cover: bool,
    /// The target is visible to the attacking unit (INDIRECT FIRE penalties apply when not).
    pub target_visible: bool,
    /// A MONSTER or VEHICLE unit shooting while within Engagement Range (Big Guns Never Tire:
    /// -1 to hit with non-PISTOL weapons).
    pub big_guns_never_tire: bool,
    /// Plunging Fire: the ranged attacks' AP is improved by 1 (the attackers stand high above a
    /// target on the ground; see [`crate::rules::cover`]).
    pub plunging_fire: bool,
    /// Other modifiers to the Hit roll, summed before the ±1 cap.
    pub hit_modifier: i32,
    /// Other modifiers to the Wound roll, summed before the ±1 cap.
    pub wound_modifier: i32,
    /// Hit roll re-rolls (e.g. Oath of Moment: `Failed`).
    pub hit_reroll: Reroll,
    /// Wound roll re-rolls besides TWIN-LINKED (which lets each attack's Wound roll be
    /// re-rolled; the engine re-rolls it when it fails).
    pub wound_reroll: Reroll,
    /// Where the attacker's Command Re-roll is spent.
    pub command_reroll: CommandReroll,
    /// The defending unit spends a Command Re-roll on its first failed saving throw against
    /// these attacks (Core Stratagems: Command Re-roll).
    pub save_command_reroll: bool,
    /// The edition whose attack rules apply (11th: cover and Plunging Fire change the
    /// Ballistic Skill, Stealth is cover, saves in allocation groups, ...).
    pub ruleset: crate::rules::Ruleset,
    /// The farthest any model of the attacking unit moved this turn (inches), where known:
    /// 11th edition HEAVY applies at 3" or less (11th Core Rules 24.16). `None`: unknown, so
    /// only [`AttackContext::remained_stationary`] counts.
    pub moved_inches: Option<f32>,
    /// 11th edition INDIRECT FIRE: the attacking unit Remained Stationary and a friendly unit
    /// sees the target, so only unmodified 1-3 fail (11th Core Rules 10.07).
    pub spotted: bool,
    /// 11th edition: the attacker declines LETHAL HITS (its Critical Hits then roll to wound,
    /// keeping the chance of a Critical Wound; 11th Core Rules 24.23). Ignored under 10th,
    /// where LETHAL HITS is automatic.
    pub decline_lethal_hits: bool,
}

impl AttackContext {
    /// The Command Re-rolls of both sides in this context.
    pub fn command_rerolls(&self) -> CommandRerolls {
        CommandRerolls {
            attacker: self.command_reroll,
            defender_save: self.save_command_reroll,
        }
    }
}

impl Default for AttackContext {
    fn default() -> Self {
        Self {
            charged: false,
            remained_stationary: false,
            target_has_cover: false,
            target_visible: true,
            big_guns_never_tire: false,
            plunging_fire: false,
            hit_modifier: 0,
            wound_modifier: 0,
            hit_reroll: Reroll::None,
            wound_reroll: Reroll::None,
            command_reroll: CommandReroll::None,
            save_command_reroll: false,
            ruleset: crate::rules::Ruleset::Tenth,
            moved_inches: None,
            spotted: false,
            decline_lethal_hits: false,
        }
    }
}

/// One model of the target unit as the attack sequence sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TargetModel {
    /// Display name (e.g. "Intercessor Squad #3").
    pub name: String,
    /// Wounds characteristic (W).
    pub wounds: u8,
    /// Wounds it has left (at most `wounds`; 0 means already destroyed and ignored).
    pub wounds_remaining: u8,
    /// Save (Sv) as the roll needed (3 for 3+).
    pub save: u8,
    /// Invulnerable save, if any.
    pub invulnerable_save: Option<u8>,
    /// Feel No Pain X+, if any (only one applies).
    pub feel_no_pain: Option<u8>,
    /// True for a Leader model of an Attached unit (a CHARACTER): attacks are allocated to it
    /// only once no Bodyguard model is left, except PRECISION attacks, which go to it first.
    pub leader: bool,
    /// The model has the Benefit of Cover against these (ranged) attacks: decided per model
    /// (Core Rules: Benefit of Cover); the defender allocates to covered models first.
    #[serde(default)]
    pub has_cover: bool,
    /// The defender's allocation order (Core Rules: Allocate Attack, the defending player
    /// chooses): among the models attacks may go to, lower ranks take them first; models of
    /// equal rank go with the Benefit of Cover first, then in list order. The game sets it
    /// from the unit's chosen order or the default (see `crate::game::allocation`).
    #[serde(default)]
    pub allocation_rank: u32,
    /// An attack was already allocated to it this phase, so the next ones must be too
    /// (Core Rules: Allocate Attack), like a model that has lost wounds.
    #[serde(default)]
    pub allocated_this_phase: bool,
}

impl TargetModel {
    /// True if the model has lost wounds (attacks must then be allocated to it first).
    pub fn is_damaged(&self) -> bool {
        self.wounds_remaining < self.wounds
    }

    /// True if attacks must be allocated to it before the defender's choice applies: it has
    /// lost wounds or already had an attack allocated this phase (Core Rules: Allocate
    /// Attack).
    pub fn must_take_attacks_first(&self) -> bool {
        self.is_damaged() || self.allocated_this_phase
    }

    /// Probability that a wound it would lose is lost: its Feel No Pain X+ fails (1 without
    /// Feel No Pain; Rules Commentary: Feel No Pain).
    pub fn wound_lost_probability(&self) -> f64 {
        self.feel_no_pain
            .map_or(1.0, |x| f64::from(x.clamp(1, 7) - 1) / 6.0)
    }
}

/// The target unit (an Attached unit includes its Leaders' models).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TargetUnit {
    /// Display name.
    pub name: String,
    /// The unit's Toughness, fixed when it is selected as the target (see
    /// [`crate::rules::modifiers::unit_toughness`]).
    pub toughness: u8,
    /// Every keyword of every model in the unit (an Attached unit has its Leaders' keywords;
    /// Rules Commentary: Keywords), for ANTI-KEYWORD.
    pub keywords: Vec<String>,
    /// The unit has the Stealth ability (-1 to ranged Hit rolls; never more, however many
    /// sources grant it).
    pub stealth: bool,
    /// Its models, in the defender's allocation order.
    pub models: Vec<TargetModel>,
}

impl TargetUnit {
    /// True if any model has `keyword` (case-insensitive).
    pub fn has_keyword(&self, keyword: &str) -> bool {
        self.keywords
            .iter()
            .any(|k| k.eq_ignore_ascii_case(keyword))
    }

    /// Models still on the battlefield.
    pub fn models_alive(&self) -> usize {
        self.models
            .iter()
            .filter(|m| m.wounds_remaining > 0)
            .count()
    }

    /// The two allocation groups, as model indices: first the models attacks go to normally
    /// (the Bodyguard), then the Leaders of an Attached unit, who only take attacks when no
    /// Bodyguard model is left, or PRECISION attacks first. A unit without both kinds has one
    /// group. Within a group, models that have lost wounds or were already allocated an attack
    /// this phase come first, then the defender's order (`allocation_rank`), then models with
    /// the Benefit of Cover, then list order.
    pub fn allocation_groups(&self) -> [Vec<usize>; 2] {
        let alive = |i: &usize| self.models[*i].wounds_remaining > 0;
        let has_bodyguard = self
            .models
            .iter()
            .any(|m| !m.leader && m.wounds_remaining > 0);
        let mut groups: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
        for i in (0..self.models.len()).filter(alive) {
            let protected = has_bodyguard && self.models[i].leader;
            groups[usize::from(protected)].push(i);
        }
        // Within a group: models that lost wounds (or already took an attack this phase)
        // must come first; then the defender's order, the models with the Benefit of Cover
        // first among models it ranks equal.
        for g in &mut groups {
            g.sort_by_key(|&i| {
                let m = &self.models[i];
                (
                    !m.must_take_attacks_first(),
                    m.allocation_rank,
                    !m.has_cover,
                )
            });
        }
        groups
    }

    /// The order attacks and mortal wounds take the target's models under `procedure`, as two
    /// tracks of model indices: the first is taken before the second (the second first for
    /// PRECISION), and within a track each model takes everything until it is destroyed.
    ///
    /// 10th ([`SaveProcedure::OneAttackAtATime`]): [`TargetUnit::allocation_groups`].
    /// 11th ([`SaveProcedure::AllocationGroupsLowestFirst`], 11th Core Rules 05.03): the
    /// non-CHARACTER models in allocation groups (models sharing W, Sv and invulnerable save),
    /// a group holding a wounded model first, then the defender's order (`allocation_rank`,
    /// then list order); then the CHARACTER models (Leaders), wounded ones first. Within a
    /// group a wounded model first. The same order serves mortal wounds (11th Core Rules
    /// 06.02: wounded non-CHARACTER, any non-CHARACTER, wounded CHARACTER, any CHARACTER).
    pub fn allocation_tracks(&self, procedure: SaveProcedure) -> [Vec<usize>; 2] {
        if procedure == SaveProcedure::OneAttackAtATime {
            return self.allocation_groups();
        }
        let alive: Vec<usize> = (0..self.models.len())
            .filter(|&i| self.models[i].wounds_remaining > 0)
            .collect();
        let model_key = |i: usize| {
            let m = &self.models[i];
            (!m.is_damaged(), m.allocation_rank, i)
        };
        // Non-CHARACTER allocation groups, keyed by (W, Sv, invulnerable save).
        type Profile = (u8, u8, Option<u8>);
        let mut groups: Vec<(Profile, Vec<usize>)> = Vec::new();
        for &i in alive.iter().filter(|&&i| !self.models[i].leader) {
            let m = &self.models[i];
            let key = (m.wounds, m.save, m.invulnerable_save);
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, g)) => g.push(i),
                None => groups.push((key, vec![i])),
            }
        }
        for (_, g) in &mut groups {
            g.sort_by_key(|&i| model_key(i));
        }
        groups.sort_by_key(|(_, g)| {
            let wounded = g.iter().any(|&i| self.models[i].is_damaged());
            (
                !wounded,
                g.iter().map(|&i| self.models[i].allocation_rank).min(),
                g.first().copied(),
            )
        });
        let first: Vec<usize> = groups.into_iter().flat_map(|(_, g)| g).collect();
        let mut characters: Vec<usize> = alive
            .iter()
            .copied()
            .filter(|&i| self.models[i].leader)
            .collect();
        characters.sort_by_key(|&i| model_key(i));
        if first.is_empty() {
            // No Bodyguard: the CHARACTERs are the unit (a lone CHARACTER unit).
            return [characters, Vec::new()];
        }
        [first, characters]
    }
}

/// What one failed HAZARDOUS test costs the attacking unit (Core Rules: Hazardous; 11th Core
/// Rules 06.03).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HazardLoss {
    /// 10th: one bearer is destroyed.
    BearerDestroyed,
    /// 10th: the bearer (a CHARACTER, MONSTER or VEHICLE) suffers this many mortal wounds.
    BearerMortalWounds(u32),
    /// 11th: the unit suffers this many mortal wounds (allocated as mortal wounds are).
    UnitMortalWounds(u32),
}

impl HazardLoss {
    /// The loss in words, for the log.
    pub fn describe(self) -> String {
        match self {
            HazardLoss::BearerDestroyed => "one bearer is destroyed".to_string(),
            HazardLoss::BearerMortalWounds(n) => format!("the bearer suffers {n} mortal wounds"),
            HazardLoss::UnitMortalWounds(n) => format!("the unit suffers {n} mortal wound(s)"),
        }
    }

    /// The loss under `rule` for bearers with `keywords`.
    pub fn of(rule: HazardRule, keywords: &[String]) -> Self {
        let has = |k: &str| keywords.iter().any(|x| x.eq_ignore_ascii_case(k));
        match rule {
            HazardRule::BearerDestroyed { mortal_wounds, .. } => {
                if HAZARDOUS_MORTAL_WOUND_KEYWORDS.iter().any(|k| has(k)) {
                    HazardLoss::BearerMortalWounds(mortal_wounds)
                } else {
                    HazardLoss::BearerDestroyed
                }
            }
            HazardRule::UnitSuffersMortalWounds {
                mortal_wounds,
                all_monster_vehicle_mortal_wounds,
                ..
            } => {
                if (has("MONSTER") || has("VEHICLE")) && !has("INFANTRY") {
                    HazardLoss::UnitMortalWounds(all_monster_vehicle_mortal_wounds)
                } else {
                    HazardLoss::UnitMortalWounds(mortal_wounds)
                }
            }
        }
    }
}

/// The Wound roll needed for `strength` against `toughness` (Core Rules: Wound Roll table).
pub fn wound_roll_needed(strength: u8, toughness: u8) -> u8 {
    let (s, t) = (u32::from(strength), u32::from(toughness));
    if s >= 2 * t {
        WOUND_ROLL_DOUBLE_STRENGTH
    } else if s > t {
        WOUND_ROLL_GREATER_STRENGTH
    } else if s == t {
        WOUND_ROLL_EQUAL
    } else if 2 * s <= t {
        WOUND_ROLL_HALF_STRENGTH
    } else {
        WOUND_ROLL_LESSER_STRENGTH
    }
}

/// The saving throw a model makes against an attack: which kind, the modifier to the die and
/// the unmodified roll that succeeds (7 or more: cannot succeed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SaveNeed {
    /// Armour or invulnerable.
    pub kind: SaveKind,
    /// The characteristic rolled against (3 for 3+).
    pub characteristic: u8,
    /// Total modifier to the die (AP and cover for armour; none for invulnerable).
    pub modifier: i32,
    /// Smallest unmodified roll that saves (an unmodified 1 always fails).
    pub needed: u8,
}

impl SaveNeed {
    /// Probability that the save succeeds.
    pub fn probability(&self) -> f64 {
        f64::from(7u8.saturating_sub(self.needed)) / 6.0
    }

    /// True if an unmodified `roll` saves.
    pub fn saves(&self, roll: u8) -> bool {
        roll > 1 && modified_roll(roll, self.modifier) >= i32::from(self.characteristic)
    }
}

/// The better saving throw for `model` against an attack with `ap` (0 or negative), with or
/// without the Benefit of Cover (Core Rules: Saving Throws; Benefit of Cover: +1 to armour saves,
/// except for models with a Save of 3+ or better against AP 0).
pub fn save_needed(model: &TargetModel, ap: i8, cover: bool) -> SaveNeed {
    let cover_applies = cover && !(ap == 0 && model.save <= COVER_NO_BONUS_SAVE_AT_AP0);
    let modifier = i32::from(ap) + if cover_applies { COVER_SAVE_BONUS } else { 0 };
    let needed_for = |characteristic: u8, modifier: i32| -> u8 {
        (i32::from(characteristic) - modifier).clamp(2, 7) as u8
    };
    let armour = SaveNeed {
        kind: SaveKind::Armour,
        characteristic: model.save,
        modifier,
        needed: needed_for(model.save, modifier),
    };
    match model.invulnerable_save {
        Some(inv) if needed_for(inv, 0) < armour.needed => SaveNeed {
            kind: SaveKind::Invulnerable,
            characteristic: inv,
            modifier: 0,
            needed: needed_for(inv, 0),
        },
        _ => armour,
    }
}

/// A weapon's abilities with duplicates merged: one instance of each core ability; where
/// instances carry numbers, the strongest is used; ANTI- instances are the same only for the
/// same keyword (Rules Commentary: Duplicated Core Abilities).
pub fn merge_abilities<'a>(
    abilities: impl IntoIterator<Item = &'a WeaponAbility>,
) -> Vec<WeaponAbility> {
    let mut merged: Vec<WeaponAbility> = Vec::new();
    for a in abilities {
        let same = merged.iter_mut().find(|m| match (&**m, a) {
            (WeaponAbility::Anti(k1, _), WeaponAbility::Anti(k2, _)) => k1.eq_ignore_ascii_case(k2),
            (m, a) => std::mem::discriminant(m) == std::mem::discriminant(a),
        });
        match same {
            None => merged.push(a.clone()),
            Some(existing) => {
                let stronger = match (&*existing, a) {
                    (WeaponAbility::RapidFire(x), WeaponAbility::RapidFire(y)) => y > x,
                    (WeaponAbility::Melta(x), WeaponAbility::Melta(y)) => y > x,
                    (WeaponAbility::SustainedHits(x), WeaponAbility::SustainedHits(y)) => {
                        y.mean() > x.mean()
                    }
                    (WeaponAbility::Anti(_, x), WeaponAbility::Anti(_, y)) => y < x,
                    _ => false,
                };
                if stronger {
                    *existing = a.clone();
                }
            }
        }
    }
    merged
}

/// A weapon group ready to roll: every ability and circumstance turned into numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedWeapon {
    /// Weapon name.
    pub name: String,
    /// Models attacking with it.
    pub bearers: u32,
    /// Attacks characteristic of each bearer.
    pub attacks: DiceExpr,
    /// Attacks added per bearer (RAPID FIRE within half range, BLAST); 0 with EXTRA ATTACKS.
    pub attack_bonus: u32,
    /// TORRENT: every attack hits automatically (never a Critical Hit).
    pub torrent: bool,
    /// BS or WS: the modified roll needed to hit.
    pub skill: u8,
    /// Total Hit roll modifier after the ±1 cap.
    pub hit_modifier: i32,
    /// Unmodified Hit rolls at or above this are Critical Hits.
    pub critical_hit_on: u8,
    /// Unmodified Hit rolls at or below this fail (1; 3 for INDIRECT FIRE at a unit that is
    /// not visible).
    pub hit_fails_up_to: u8,
    /// Hit roll re-rolls.
    pub hit_reroll: Reroll,
    /// SUSTAINED HITS X: extra hits per Critical Hit.
    pub sustained_hits: Option<DiceExpr>,
    /// LETHAL HITS: a Critical Hit wounds automatically.
    pub lethal_hits: bool,
    /// The modified Wound roll needed (S against T).
    pub wound_needed: u8,
    /// Total Wound roll modifier after the ±1 cap.
    pub wound_modifier: i32,
    /// Unmodified Wound rolls at or above this are Critical Wounds (6, or ANTI-KEYWORD X+).
    pub critical_wound_on: u8,
    /// Wound roll re-rolls (TWIN-LINKED: at least `Failed`).
    pub wound_reroll: Reroll,
    /// DEVASTATING WOUNDS: a Critical Wound inflicts mortal wounds equal to its Damage.
    pub devastating_wounds: bool,
    /// Armour Penetration (0 or negative).
    pub ap: i8,
    /// The whole target gets the Benefit of Cover against these attacks (Go to Ground,
    /// Smokescreen, INDIRECT FIRE at a unit not visible).
    pub cover: bool,
    /// Cover can help against these attacks (ranged, without IGNORES COVER): a model with
    /// its own Benefit of Cover ([`TargetModel::has_cover`]) then saves with it.
    pub cover_possible: bool,
    /// Damage characteristic.
    pub damage: DiceExpr,
    /// Damage added to each attack (MELTA within half range).
    pub damage_bonus: i32,
    /// PRECISION: wounding attacks may be allocated to CHARACTERs of an Attached unit.
    pub precision: bool,
    /// HAZARDOUS: one test per bearer after attacking.
    pub hazardous: bool,
    /// What a failed HAZARDOUS test costs (the edition's rule for these bearers).
    pub hazard_loss: HazardLoss,
    /// Unmodified HAZARDOUS test rolls at or below this fail.
    pub hazard_fails_up_to: u8,
    /// How the saving throws are made and damage allocated (the edition's procedure).
    pub save_procedure: SaveProcedure,
    /// What a DEVASTATING WOUNDS Critical Wound does (the edition's rule).
    pub devastating_rule: DevastatingWoundsRule,
    /// What the abilities and circumstances did, in words, for the log.
    pub notes: Vec<String>,
}

impl ResolvedWeapon {
    /// Resolves `group` against `target` in `ctx` (Core Rules: Weapon Abilities).
    pub fn new(group: &WeaponGroup, target: &TargetUnit, ctx: &AttackContext) -> Self {
        use WeaponAbility as A;
        let p = &group.profile;
        let abilities = merge_abilities(p.abilities.iter().chain(&group.extra_abilities));
        let has = |a: &WeaponAbility| {
            abilities
                .iter()
                .any(|x| std::mem::discriminant(x) == std::mem::discriminant(a))
        };
        let mut notes = Vec::new();
        let ranged = !p.is_melee();
        let indirect_blind = has(&A::IndirectFire) && !ctx.target_visible;

        let mut attack_bonus = 0;
        let extra_attacks = has(&A::ExtraAttacks);
        for a in &abilities {
            match a {
                A::RapidFire(x) if group.within_half_range && !extra_attacks => {
                    attack_bonus += u32::from(*x);
                    notes.push(format!("RAPID FIRE {x}: +{x} attacks within half range"));
                }
                A::Blast | A::BlastX(_) | A::Cleave(_) if !extra_attacks => {
                    let (per_five, melee_only) = match a {
                        A::BlastX(x) => (u32::from(*x), false),
                        A::Cleave(x) => (u32::from(*x), true),
                        _ => (1, false),
                    };
                    if melee_only && ranged {
                        continue;
                    }
                    let extra =
                        (target.models_alive() / BLAST_MODELS_PER_EXTRA_ATTACK) as u32 * per_five;
                    if extra > 0 {
                        attack_bonus += extra;
                        notes.push(format!("{a}: +{extra} attacks"));
                    }
                }
                _ => {}
            }
        }

        let edition = ctx.ruleset.edition();
        let mut hit_total = ctx.hit_modifier;
        let heavy = match edition.heavy {
            HeavyRule::RemainedStationary => ctx.remained_stationary,
            HeavyRule::MovedAtMost(most) => {
                ctx.remained_stationary || ctx.moved_inches.is_some_and(|d| d <= most)
            }
        };
        if has(&A::Heavy) && heavy {
            hit_total += HEAVY_HIT_BONUS;
            notes.push(match edition.heavy {
                HeavyRule::RemainedStationary => "HEAVY: +1 to hit (Remained Stationary)".into(),
                HeavyRule::MovedAtMost(most) => {
                    format!("HEAVY: +1 to hit (moved {most}\" or less)")
                }
            });
        }
        let indirect = edition.indirect_fire;
        let indirect_fails_up_to = match indirect.fails_up_to_with_spotter {
            Some(spotted) if ctx.spotted => spotted,
            _ => indirect.fails_up_to,
        };
        let mut hit_reroll = ctx.hit_reroll;
        if indirect_blind {
            hit_total += indirect.hit_modifier;
            if indirect.no_hit_rerolls {
                hit_reroll = Reroll::None;
            }
            notes.push(format!(
                "INDIRECT FIRE at a unit that is not visible: {}unmodified 1-{indirect_fails_up_to} \
                 fail{}, target has cover",
                if indirect.hit_modifier != 0 {
                    format!("{:+} to hit, ", indirect.hit_modifier)
                } else {
                    String::new()
                },
                if indirect.no_hit_rerolls {
                    ", no Hit re-rolls"
                } else {
                    ""
                }
            ));
        }
        let cover_worsens_skill = match ctx.ruleset.edition().cover {
            CoverEffect::WorsenBallisticSkill(n) => Some(n),
            CoverEffect::ImproveArmourSave(_) => None,
        };
        if ranged && target.stealth && cover_worsens_skill.is_none() {
            hit_total += STEALTH_HIT_MODIFIER;
            notes.push("Stealth: -1 to hit".into());
        }
        if ranged && ctx.big_guns_never_tire && !has(&A::Pistol) {
            hit_total += BIG_GUNS_NEVER_TIRE_HIT_MODIFIER;
            notes.push("Big Guns Never Tire: -1 to hit".into());
        }

        // 11th: a PSYCHIC attack ignores the penalties to its skill and Hit roll (the
        // attacker's choice: the bonuses stay; 11th Core Rules 24.29).
        let psychic = has(&A::Psychic) && edition.psychic_ignores_hit_penalties;
        if psychic && hit_total < 0 {
            hit_total = 0;
            notes.push("PSYCHIC: penalties to the Hit roll ignored".into());
        }
        let mut wound_total = ctx.wound_modifier;
        if has(&A::Lance) && ctx.charged {
            wound_total += LANCE_WOUND_BONUS;
            notes.push("LANCE: +1 to wound (charged)".into());
        }
        let mut critical_wound_on = CRITICAL_ROLL;
        for a in &abilities {
            if let A::Anti(keyword, x) = a
                && target.has_keyword(keyword)
                && *x < critical_wound_on
            {
                critical_wound_on = *x;
                notes.push(format!(
                    "ANTI-{} {x}+: Critical Wound on {x}+",
                    keyword.to_uppercase()
                ));
            }
        }
        let mut wound_reroll = ctx.wound_reroll;
        if has(&A::TwinLinked) {
            wound_reroll = wound_reroll.max(Reroll::Failed);
            notes.push(
                "TWIN-LINKED: the Wound roll may be re-rolled (re-rolled when it fails)".into(),
            );
        }

        // Benefit of Cover helps only against ranged attacks.
        let cover = ranged && (ctx.target_has_cover || indirect_blind) && !has(&A::IgnoresCover);
        if ranged && has(&A::IgnoresCover) && (ctx.target_has_cover || indirect_blind) {
            notes.push("IGNORES COVER: no Benefit of Cover".into());
        }
        // 11th edition: cover (the table's, Stealth's or a rule's) worsens the attack's
        // Ballistic Skill instead of improving the save, and Plunging Fire improves it and
        // cancels cover (11th Core Rules 13.08, 22.05, 24.33).
        let mut skill = p.skill.unwrap_or(1);
        if let Some(worse) = cover_worsens_skill.filter(|_| ranged) {
            let plunging = ctx.plunging_fire || group.plunging_fire;
            let covered =
                (group.covered || ctx.target_has_cover || indirect_blind || target.stealth)
                    && !has(&A::IgnoresCover);
            if plunging {
                skill = (i32::from(skill) - 1).max(BEST_SKILL_OR_SAVE) as u8;
                notes.push("Plunging Fire: BS improved by 1 (cover cancelled)".into());
            } else if covered && psychic {
                notes.push("PSYCHIC: the Benefit of Cover's worse BS ignored".into());
            } else if covered {
                skill = (i32::from(skill) + worse) as u8;
                notes.push(format!("Benefit of Cover: BS worsened by {worse}"));
            }
        }
        let mut damage_bonus = 0;
        for a in &abilities {
            if let A::Melta(x) = a
                && group.within_half_range
            {
                damage_bonus += i32::from(*x);
                notes.push(format!("MELTA {x}: +{x} Damage within half range"));
            }
        }
        let mut ap = p.ap.min(0);
        if ranged && cover_worsens_skill.is_none() && (ctx.plunging_fire || group.plunging_fire) {
            ap = ap.saturating_sub(1);
            notes.push("Plunging Fire: AP improved by 1".into());
        }
        let lethal_hits =
            has(&A::LethalHits) && !(edition.lethal_hits_optional && ctx.decline_lethal_hits);
        if has(&A::LethalHits) && !lethal_hits {
            notes.push("LETHAL HITS declined: Critical Hits roll to wound".into());
        }
        let sustained_hits = abilities.iter().find_map(|a| match a {
            A::SustainedHits(x) => Some(*x),
            _ => None,
        });

        Self {
            name: p.name.clone(),
            bearers: group.bearers,
            attacks: p.attacks,
            attack_bonus,
            torrent: has(&A::Torrent),
            skill,
            hit_modifier: capped_hit_or_wound_modifier(hit_total),
            critical_hit_on: CRITICAL_ROLL,
            hit_fails_up_to: if indirect_blind {
                indirect_fails_up_to
            } else {
                1
            },
            hit_reroll,
            sustained_hits,
            lethal_hits,
            wound_needed: wound_roll_needed(p.strength, target.toughness),
            wound_modifier: capped_hit_or_wound_modifier(wound_total),
            critical_wound_on,
            wound_reroll,
            devastating_wounds: has(&A::DevastatingWounds),
            ap,
            cover: cover && cover_worsens_skill.is_none(),
            cover_possible: ranged && !has(&A::IgnoresCover) && cover_worsens_skill.is_none(),
            damage: p.damage,
            damage_bonus,
            precision: has(&A::Precision),
            hazardous: has(&A::Hazardous),
            hazard_loss: HazardLoss::of(edition.hazard, &group.bearer_keywords),
            hazard_fails_up_to: edition.hazard.fails_up_to(),
            save_procedure: edition.save_procedure,
            devastating_rule: edition.devastating_wounds,
            notes,
        }
    }

    /// Every group of an attack resolved against `target` in `ctx`, in order.
    pub fn all(groups: &[WeaponGroup], target: &TargetUnit, ctx: &AttackContext) -> Vec<Self> {
        groups.iter().map(|g| Self::new(g, target, ctx)).collect()
    }

    /// The result of a Hit roll with this unmodified `face` (Core Rules: Hit Roll).
    pub fn hit_result(&self, face: u8) -> RollResult {
        if face <= self.hit_fails_up_to {
            RollResult::Fail
        } else if face >= self.critical_hit_on {
            RollResult::Critical
        } else if modified_roll(face, self.hit_modifier) >= i32::from(self.skill) {
            RollResult::Success
        } else {
            RollResult::Fail
        }
    }

    /// The result of a Wound roll with this unmodified `face` (Core Rules: Wound Roll).
    pub fn wound_result(&self, face: u8) -> RollResult {
        if face <= 1 {
            RollResult::Fail
        } else if face >= self.critical_wound_on {
            RollResult::Critical
        } else if modified_roll(face, self.wound_modifier) >= i32::from(self.wound_needed) {
            RollResult::Success
        } else {
            RollResult::Fail
        }
    }

    /// True when `model` saves with the Benefit of Cover against this weapon: the whole
    /// unit has it, or the model has its own and cover can help against these attacks.
    pub fn cover_for(&self, model: &TargetModel) -> bool {
        self.cover || (self.cover_possible && model.has_cover)
    }

    /// The Damage of one attack from a rolled Damage value: MELTA added, never below 1.
    pub fn damage_value(&self, rolled: i32) -> u32 {
        (rolled + self.damage_bonus).max(1) as u32
    }

    /// The Attacks of one bearer from a rolled Attacks value: never below 1, plus RAPID FIRE and
    /// BLAST.
    pub fn attacks_value(&self, rolled: i32) -> u32 {
        rolled.max(1) as u32 + self.attack_bonus
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wound_table() {
        assert_eq!(wound_roll_needed(8, 4), 2);
        assert_eq!(wound_roll_needed(5, 4), 3);
        assert_eq!(wound_roll_needed(4, 4), 4);
        assert_eq!(wound_roll_needed(3, 4), 5);
        assert_eq!(wound_roll_needed(2, 4), 6);
        assert_eq!(wound_roll_needed(5, 10), 6);
        assert_eq!(wound_roll_needed(6, 10), 5);
    }

    fn model(save: u8, inv: Option<u8>) -> TargetModel {
        TargetModel {
            name: "m".into(),
            wounds: 1,
            wounds_remaining: 1,
            save,
            invulnerable_save: inv,
            feel_no_pain: None,
            leader: false,
            has_cover: false,
            allocation_rank: 0,
            allocated_this_phase: false,
        }
    }

    fn unit_of(models: Vec<TargetModel>) -> TargetUnit {
        TargetUnit {
            name: "t".into(),
            toughness: 4,
            keywords: vec![],
            stealth: false,
            models,
        }
    }

    fn profile(range: Option<f32>, ap: i8) -> WeaponProfile {
        WeaponProfile {
            profile: None,
            name: "w".into(),
            range,
            attacks: DiceExpr::fixed(1),
            skill: Some(3),
            strength: 4,
            ap,
            damage: DiceExpr::fixed(1),
            abilities: vec![],
        }
    }

    fn with(abilities: Vec<WeaponAbility>, range: Option<f32>) -> WeaponGroup {
        let mut p = profile(range, 0);
        p.abilities = abilities;
        WeaponGroup::new(p, 1)
    }

    fn under(ruleset: crate::rules::Ruleset) -> AttackContext {
        AttackContext {
            ruleset,
            ..Default::default()
        }
    }

    /// 11th Core Rules 24.16: HEAVY after moving 3" or less; 10th: only after Remaining
    /// Stationary.
    #[test]
    fn heavy_by_the_distance_moved_under_eleventh() {
        use crate::rules::Ruleset::{Eleventh, Tenth};
        let target = unit_of(vec![model(4, None)]);
        let g = with(vec![WeaponAbility::Heavy], Some(24.0));
        let hit = |ruleset, moved: Option<f32>| {
            let ctx = AttackContext {
                moved_inches: moved,
                ..under(ruleset)
            };
            ResolvedWeapon::new(&g, &target, &ctx).hit_modifier
        };
        assert_eq!(hit(Eleventh, Some(2.5)), 1);
        assert_eq!(hit(Eleventh, Some(3.5)), 0);
        assert_eq!(hit(Tenth, Some(2.5)), 0);
        assert_eq!(hit(Eleventh, None), 0);
    }

    /// 11th Core Rules 10.07: INDIRECT FIRE at an unseen unit fails on 1-5 (1-3 spotted), no
    /// Hit re-rolls, no -1; 10th: 1-3 and -1 to hit.
    #[test]
    fn indirect_fire_fails_on_one_to_five_under_eleventh_one_to_three_spotted() {
        use crate::rules::Ruleset::{Eleventh, Tenth};
        let target = unit_of(vec![model(4, None)]);
        let g = with(vec![WeaponAbility::IndirectFire], Some(48.0));
        let resolve = |ruleset, spotted| {
            let ctx = AttackContext {
                target_visible: false,
                spotted,
                hit_reroll: Reroll::Ones,
                ..under(ruleset)
            };
            ResolvedWeapon::new(&g, &target, &ctx)
        };
        let t = resolve(Tenth, false);
        assert_eq!((t.hit_fails_up_to, t.hit_modifier), (3, -1));
        assert_eq!(t.hit_reroll, Reroll::Ones);
        let e = resolve(Eleventh, false);
        assert_eq!((e.hit_fails_up_to, e.hit_modifier), (5, 0));
        assert_eq!(e.hit_reroll, Reroll::None);
        assert_eq!(resolve(Eleventh, true).hit_fails_up_to, 3);
        // 11th's cover from the unseen target worsens the BS (3+ to 4+).
        assert_eq!(e.skill, 4);
    }

    /// 11th Core Rules 24.05-24.06: BLAST X adds X per 5 models, CLEAVE X likewise for melee
    /// weapons only.
    #[test]
    fn blast_x_and_cleave_x_add_attacks_per_five_models() {
        let ten = unit_of((0..10).map(|_| model(4, None)).collect());
        let ctx = AttackContext::default();
        let bonus = |g: WeaponGroup| ResolvedWeapon::new(&g, &ten, &ctx).attack_bonus;
        assert_eq!(bonus(with(vec![WeaponAbility::Blast], Some(24.0))), 2);
        assert_eq!(bonus(with(vec![WeaponAbility::BlastX(2)], Some(24.0))), 4);
        assert_eq!(bonus(with(vec![WeaponAbility::Cleave(1)], None)), 2);
        assert_eq!(bonus(with(vec![WeaponAbility::Cleave(1)], Some(24.0))), 0);
    }

    /// 11th Core Rules 06.03: a failed hazard roll (1-2) costs the unit 1 mortal wound (3 for
    /// a MONSTER or VEHICLE unit); 10th: a 1 destroys a bearer (3 mortal wounds for a
    /// CHARACTER, MONSTER or VEHICLE).
    #[test]
    fn hazard_rolls_fail_on_one_or_two_under_eleventh() {
        use crate::rules::Ruleset::{Eleventh, Tenth};
        let target = unit_of(vec![model(4, None)]);
        let mut g = with(vec![WeaponAbility::Hazardous], Some(24.0));
        let r = |g: &WeaponGroup, ruleset| ResolvedWeapon::new(g, &target, &under(ruleset));
        let (t, e) = (r(&g, Tenth), r(&g, Eleventh));
        assert_eq!(
            (t.hazard_fails_up_to, t.hazard_loss),
            (1, HazardLoss::BearerDestroyed)
        );
        assert_eq!(
            (e.hazard_fails_up_to, e.hazard_loss),
            (2, HazardLoss::UnitMortalWounds(1))
        );
        g.bearer_keywords = vec!["VEHICLE".into()];
        assert_eq!(r(&g, Tenth).hazard_loss, HazardLoss::BearerMortalWounds(3));
        assert_eq!(r(&g, Eleventh).hazard_loss, HazardLoss::UnitMortalWounds(3));
    }

    /// 11th Core Rules 24.29: a PSYCHIC attack ignores penalties to its BS and Hit roll (the
    /// Benefit of Cover's worse BS included); under 10th PSYCHIC changes nothing.
    #[test]
    fn psychic_attacks_ignore_hit_penalties_under_eleventh() {
        use crate::rules::Ruleset::{Eleventh, Tenth};
        let target = unit_of(vec![model(4, None)]);
        let g = with(vec![WeaponAbility::Psychic], Some(24.0));
        let resolve = |ruleset| {
            let ctx = AttackContext {
                hit_modifier: -1,
                target_has_cover: true,
                ..under(ruleset)
            };
            ResolvedWeapon::new(&g, &target, &ctx)
        };
        let e = resolve(Eleventh);
        assert_eq!((e.hit_modifier, e.skill), (0, 3));
        let t = resolve(Tenth);
        assert_eq!((t.hit_modifier, t.skill), (-1, 3));
        assert!(t.cover);
    }

    /// 11th Core Rules 24.23: LETHAL HITS may be declined under 11th, never under 10th.
    #[test]
    fn lethal_hits_may_be_declined_under_eleventh_only() {
        use crate::rules::Ruleset::{Eleventh, Tenth};
        let target = unit_of(vec![model(4, None)]);
        let g = with(vec![WeaponAbility::LethalHits], Some(24.0));
        let lethal = |ruleset| {
            let ctx = AttackContext {
                decline_lethal_hits: true,
                ..under(ruleset)
            };
            ResolvedWeapon::new(&g, &target, &ctx).lethal_hits
        };
        assert!(lethal(Tenth));
        assert!(!lethal(Eleventh));
    }

    /// 11th Core Rules 05.03: allocation groups by (W, Sv, invulnerable save), a group with a
    /// wounded model first, CHARACTERs last, wounded ones first.
    #[test]
    fn eleventh_allocation_groups_put_wounded_groups_first_and_characters_last() {
        use crate::rules::ruleset::SaveProcedure;
        let mut leader = model(3, Some(4));
        leader.leader = true;
        leader.wounds = 4;
        leader.wounds_remaining = 4;
        let mut heavy = model(3, None);
        heavy.wounds = 2;
        heavy.wounds_remaining = 1;
        // 0: leader, 1-2: Sv 5+ W1, 3: Sv 3+ W2 wounded, 4: Sv 5+ W1.
        let unit = unit_of(vec![
            leader,
            model(5, None),
            model(5, None),
            heavy,
            model(5, None),
        ]);
        assert_eq!(
            unit.allocation_tracks(SaveProcedure::AllocationGroupsLowestFirst),
            [vec![3, 1, 2, 4], vec![0]]
        );
    }

    #[test]
    fn cover_and_plunging_fire_only_for_ranged_attacks() {
        let target = unit_of(vec![model(4, None)]);
        let ctx = AttackContext {
            target_has_cover: true,
            plunging_fire: true,
            ..Default::default()
        };
        let gun = ResolvedWeapon::new(&WeaponGroup::new(profile(Some(24.0), -1), 1), &target, &ctx);
        assert!(gun.cover);
        assert_eq!(gun.ap, -2, "Plunging Fire improves AP by 1");
        let sword = ResolvedWeapon::new(&WeaponGroup::new(profile(None, -1), 1), &target, &ctx);
        assert!(!sword.cover, "no Benefit of Cover against melee attacks");
        assert_eq!(sword.ap, -1);
    }

    #[test]
    fn leaders_are_protected_only_while_bodyguards_live() {
        let mut leader = model(3, None);
        leader.leader = true;
        let mut unit = unit_of(vec![leader.clone(), model(3, None), model(3, None)]);
        unit.models[2].wounds = 2;
        unit.models[2].wounds_remaining = 1;
        // The damaged Bodyguard model first, then the other; the Leader last.
        assert_eq!(unit.allocation_groups(), [vec![2, 1], vec![0]]);
        unit.models[1].wounds_remaining = 0;
        unit.models[2].wounds_remaining = 0;
        assert_eq!(unit.allocation_groups(), [vec![0], vec![]]);
        // A lone CHARACTER unit is not an Attached unit.
        let lone = unit_of(vec![model(3, None)]);
        assert_eq!(lone.allocation_groups(), [vec![0], vec![]]);
    }

    #[test]
    fn cover_and_invulnerable_saves() {
        // Sv 3+ against AP 0 in cover: no bonus.
        assert_eq!(save_needed(&model(3, None), 0, true).needed, 3);
        // Sv 4+ against AP 0 in cover: 3+.
        assert_eq!(save_needed(&model(4, None), 0, true).needed, 3);
        // Sv 3+ against AP -1 in cover: 3+.
        assert_eq!(save_needed(&model(3, None), -1, true).needed, 3);
        // Invulnerable 4+ beats Sv 2+ at AP -3 (5+); in cover the armour save is 4+ too.
        let s = save_needed(&model(2, Some(4)), -3, false);
        assert_eq!((s.kind, s.needed), (SaveKind::Invulnerable, 4));
        let s = save_needed(&model(2, Some(4)), -3, true);
        assert_eq!((s.kind, s.needed, s.modifier), (SaveKind::Armour, 4, -2));
        // Sv 7+ (no save) in cover saves on 6s.
        assert_eq!(save_needed(&model(7, None), 0, true).needed, 6);
        assert_eq!(save_needed(&model(6, None), -1, false).probability(), 0.0);
    }
}
