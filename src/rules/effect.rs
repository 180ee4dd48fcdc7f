//! One effect type for every source of a rule beyond the core rules: datasheet abilities,
//! wargear abilities, army rules, Detachment rules, Enhancements and Stratagems all say what
//! they change as [`Effect`]s: when it applies ([`When`]), under which conditions
//! ([`Condition`]), and what it does ([`Modifier`], about 30 primitives covering the combat
//! maths, movement, eligibility, Objective Control and restoring wounds).
//!
//! The game gathers the effects active for a unit (`crate::game::effects`) and feeds them to the
//! attack sequence's inputs, so the dice, the exact distribution and the odds all include them.
//! Core Rules: Modifiers (Hit and Wound roll modifiers capped at ±1, characteristics never
//! below 1), Re-rolls, Abilities; Rules Commentary: Modifiers, Re-rolls, Duplicated Core
//! Abilities.

use serde::{Deserialize, Serialize};

use super::attack::Reroll;
use super::dice::DiceExpr;
use super::phase::Phase;
use super::weapon::WeaponAbility;

/// Largest modifier one effect may give a characteristic or roll either way (data beyond it
/// is an error): rules print ±1 to ±4 (Da Biggest and da Best: +4 Attacks); 6 leaves room.
pub const MAX_EFFECT_MODIFIER: i32 = 6;

/// Largest distance (inches) a condition may measure.
pub const MAX_EFFECT_DISTANCE_INCHES: f32 = 48.0;

/// One rule's effect: what it changes, when and under which conditions.
///
/// Data writes it as
/// `Effect(when: Attacking(Melee), conditions: [Charged], does: [WoundRoll(1)])`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Effect {
    /// When it applies (passive by default).
    #[serde(default)]
    pub when: When,
    /// Whom it changes: the unit that has the rule, or the bearer's whole unit (its Attached
    /// unit when it leads one).
    #[serde(default)]
    pub scope: Scope,
    /// Every condition must hold.
    #[serde(default)]
    pub conditions: Vec<Condition>,
    /// What it does.
    pub does: Vec<Modifier>,
}

/// When an [`Effect`] applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum When {
    /// Always (movement, Objective Control, Leadership, eligibility; and every attack).
    #[default]
    Always,
    /// Each time a model of the unit makes an attack of this kind.
    Attacking(Attacks),
    /// Each time an attack of this kind targets the unit.
    Attacked(Attacks),
    /// At the start of a phase (restoring wounds, mortal wounds).
    PhaseStart(Phase, Turn),
    /// At the end of a phase.
    PhaseEnd(Phase, Turn),
}

/// Which attacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Attacks {
    /// Ranged and melee.
    Any,
    /// Ranged attacks (Shooting phase, Fire Overwatch).
    Ranged,
    /// Melee attacks (Fight phase).
    Melee,
}

impl Attacks {
    /// True when an attack (melee or not) is of this kind.
    pub fn includes(self, melee: bool) -> bool {
        match self {
            Attacks::Any => true,
            Attacks::Ranged => !melee,
            Attacks::Melee => melee,
        }
    }
}

/// In whose turn a timed effect happens (Rules Commentary: The Turn/the Phase: "your" phase or
/// either player's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Turn {
    /// The owner's turn.
    Own,
    /// The opponent's turn.
    Opponent,
    /// Either player's turn.
    Either,
}

impl Turn {
    /// True when a rule of `owner`'s is usable in `active`'s turn.
    pub fn allows(self, owner: u8, active: u8) -> bool {
        match self {
            Turn::Own => owner == active,
            Turn::Opponent => owner != active,
            Turn::Either => true,
        }
    }
}

/// Whom an effect changes.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub enum Scope {
    /// The unit that has the rule (a Bodyguard or Leader unit on its own), or every unit the
    /// army or Detachment rule covers, or the unit a Stratagem targets.
    #[default]
    Unit,
    /// The bearer's unit: every model of the Attached unit the model with the rule is part
    /// of (Leaders and Bodyguard), or its own unit when alone. "While this model is leading a
    /// unit" adds [`Condition::Leading`].
    Attached,
    /// An Aura (Core Rules: Aura Abilities): every friendly unit with a model within this many
    /// inches of a model of the unit with the rule, that unit included. Conditions are judged
    /// on the unit the aura covers.
    Aura(f32),
    /// An Aura over the enemy: every enemy unit within this many inches. The effect acts as if
    /// that enemy unit had it (its attacks under `Attacking`, attacks at it under `Attacked`,
    /// its Leadership, Objective Control and Toughness), its conditions judged on that unit.
    EnemyAura(f32),
    /// Every enemy unit on the battlefield, as [`Scope::EnemyAura`] without a range (the
    /// Shadow of Chaos' Daemonic Terror, whose conditions say where).
    EnemyArmy,
}

impl Scope {
    /// The Aura's range (inches) when it is one.
    pub fn aura(self) -> Option<(f32, bool)> {
        match self {
            Scope::Aura(r) => Some((r, true)),
            Scope::EnemyAura(r) => Some((r, false)),
            Scope::EnemyArmy => Some((f32::INFINITY, false)),
            _ => None,
        }
    }
}

/// A condition an [`Effect`] needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Condition {
    /// The owner has made this choice of the rule and it is still active: the rule itself
    /// declared (Waaagh!) or one of its options ("Assault Doctrine").
    Chosen(String),
    /// The target is the enemy unit the owner's rule chose (Oath of Moment's target).
    TargetChosen,
    /// The target was picked with this rule by a unit with this keyword (For the Greater
    /// Good: a Spotted unit marked by a MARKERLIGHT Observer).
    TargetChosenBy(String),
    /// The unit picked with this rule (an Observer of For the Greater Good).
    Picker,
    /// The unit made a Charge move this turn.
    Charged,
    /// The unit Remained Stationary this turn.
    RemainedStationary,
    /// The unit Advanced this turn.
    Advanced,
    /// The target is within range of an objective marker.
    TargetOnObjective,
    /// The unit is within range of an objective marker.
    OnObjective,
    /// The unit is within range of an objective marker its player controls.
    OnControlledObjective,
    /// The unit is Below Half-strength.
    BelowHalfStrength,
    /// The target is Below Half-strength.
    TargetBelowHalfStrength,
    /// The target has this keyword (an Attached unit has every keyword of its models).
    TargetKeyword(String),
    /// The attacking model (or the unit, outside attacks) has this keyword.
    Keyword(String),
    /// The unit is led by a model with this keyword or datasheet name (Da Boss' Ladz: a
    /// Warboss).
    LedBy(String),
    /// The model with the rule is leading a unit (it is part of an Attached unit): "while this
    /// model is leading a unit".
    Leading,
    /// The model has this many wounds left or fewer ("Damaged: 1-4 wounds remaining").
    WoundsLeftAtMost(u8),
    /// The attack's Strength is greater than the target's Toughness.
    StrengthAboveToughness,
    /// The target is within this many inches of the unit.
    TargetWithin(f32),
    /// The battle round is this one or later.
    FromBattleRound(u8),
    /// A friendly model with this keyword (or datasheet name) is within this many inches of
    /// the unit, the unit's own models included (Synapse: within 6" of a SYNAPSE model).
    FriendlyWithin(String, f32),
    /// An enemy model is within this many inches of the unit.
    EnemyWithin(f32),
    /// The unit has fewer models than its Starting Strength.
    BelowStartingStrength,
    /// The target has fewer models than its Starting Strength.
    TargetBelowStartingStrength,
    /// The unit is Battle-shocked.
    BattleShocked,
    /// The target is Battle-shocked (under `Attacked`: the attacking unit is).
    TargetBattleShocked,
    /// The unit is within the Shadow of Chaos of the rule's owner (Legiones Daemonica): a model
    /// of it stands (by its base's centre) in the owner's deployment zone, or in No Man's
    /// Land while the owner controls at least half of the objective markers there, or in the
    /// opponent's deployment zone while the owner controls at least half of those.
    InShadowOfChaos,
    /// A model of the unit has a datasheet ability of this name (the unit a Drukhari Pain
    /// ability Empowers).
    HasAbility(String),
    /// For an Aura: it comes only from units with one of these keywords or datasheet names
    /// (Daemonic Terror around the greater daemons).
    AuraFrom(Vec<String>),
    /// The owner's army plays this Detachment (a datasheet ability that works only in one
    /// Detachment: Deadly Unity in Talons of the Emperor).
    Detachment(String),
    /// The condition does not hold.
    Not(Box<Condition>),
}

/// What an effect does: one primitive change. Attack primitives describe the attack being
/// made, whichever side has the rule: `HitRoll(-1)` under [`When::Attacked`] is -1 to the
/// attacker's Hit roll, `ArmourPenetration(-1)` worsens the attack's AP (Armour of Contempt),
/// `Damage(-1)` reduces its Damage (never below 1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Modifier {
    /// Add to the Hit roll (the total is capped at ±1).
    HitRoll(i32),
    /// Add to the Wound roll (the total is capped at ±1).
    WoundRoll(i32),
    /// Re-roll Hit rolls.
    RerollHits(Reroll),
    /// Re-roll Wound rolls.
    RerollWounds(Reroll),
    /// Unmodified Hit rolls of this or more are Critical Hits.
    CriticalHitOn(u8),
    /// Unmodified Wound rolls of this or more are Critical Wounds.
    CriticalWoundOn(u8),
    /// Add to the weapons' Attacks.
    Attacks(i32),
    /// Add to the weapons' Strength.
    Strength(i32),
    /// Improve the weapons' Armour Penetration by this much (negative worsens it).
    ArmourPenetration(i32),
    /// Add to the weapons' Damage (negative: reduce it, never below 1).
    Damage(i32),
    /// The weapons gain a weapon ability (duplicates do not stack).
    Weapon(WeaponAbility),
    /// The models have a Feel No Pain of this (the best one applies).
    FeelNoPain(u8),
    /// The models have an invulnerable save of this (the best one applies).
    InvulnerableSave(u8),
    /// The models' Save characteristic becomes this (if better).
    Save(u8),
    /// Add to the models' Toughness (never below 1); attacks at the unit use the result.
    Toughness(i32),
    /// Worsen the models' Save characteristic by this much (3+ becomes 4+ with 1); not their
    /// invulnerable save.
    WorsenSave(i32),
    /// Improve the attacking weapons' Ballistic or Weapon Skill by this much (1: 4+ becomes
    /// 3+; never better than 2+). A characteristic change, not a Hit roll modifier.
    Skill(i32),
    /// The unit has the Benefit of Cover against ranged attacks (Core Rules: Benefit of
    /// Cover).
    BenefitOfCover,
    /// Add to the Move characteristic (inches).
    Move(i32),
    /// Add to Advance rolls.
    AdvanceRoll(i32),
    /// Add to Charge rolls.
    ChargeRoll(i32),
    /// Add to the Objective Control characteristic.
    ObjectiveControl(i32),
    /// Worsen the Objective Control characteristic by this much, but never below 1 by this
    /// rule (Death Guard's Scabrous Soulrot).
    ObjectiveControlDown(i32),
    /// Add to the Leadership roll needed (negative improves it: Ld 7+ becomes 6+ with -1).
    Leadership(i32),
    /// The unit can shoot in a turn it Advanced (with every ranged weapon).
    ShootAfterAdvancing,
    /// The unit can shoot in a turn it Fell Back.
    ShootAfterFallingBack,
    /// The unit can declare a charge in a turn it Advanced.
    ChargeAfterAdvancing,
    /// The unit can declare a charge in a turn it Fell Back.
    ChargeAfterFallingBack,
    /// The unit has Fights First (Core Rules: Fights First).
    FightsFirst,
    /// In its Normal, Advance and Fall Back moves the unit moves through models (not TITANIC
    /// ones) and through Engagement Range of enemy models, never ending there (Super-Heavy
    /// Walker).
    WalkThroughModels,
    /// In its Normal, Advance and Fall Back moves the unit moves through friendly MONSTER and
    /// VEHICLE models (Scuttling Walker).
    WalkThroughFriendlyBig,
    /// In its Normal, Advance and Fall Back moves the unit moves through terrain sections at
    /// most this many inches high (walls of ruins and the like).
    WalkThroughTerrain(f32),
    /// In its Normal, Advance and Fall Back moves the unit also moves through higher terrain
    /// sections; after such a move a D6 is rolled: on a 1 the unit is Battle-shocked
    /// (Super-Heavy Walker).
    WalkThroughHigherTerrain,
    /// The unit's Desperate Escape tests are passed without a roll (Scuttling Walker of the
    /// Defiler).
    PassDesperateEscape,
    /// The unit takes Battle-shock tests on this many D6 instead of 2 (Synapse: 3).
    BattleShockDice(u8),
    /// Improve the unit's Save characteristic by this much, never to better than 3+ (an
    /// Astra Militarum Order: Take Cover!).
    ImproveSave(i32),
    /// Add this many Attacks to the unit's RAPID FIRE weapons (an Astra Militarum Order:
    /// First Rank, Fire! Second Rank, Fire!).
    RapidFireAttacks(i32),
    /// The unit re-rolls an Advance roll of 1 to 3 (a free re-roll, before any Command
    /// Re-roll; Leagues of Votann's Hostile Acquisition).
    RerollAdvance,
    /// The unit re-rolls a Charge roll too short to reach the closest target (a free re-roll).
    RerollCharge,
    /// The unit takes a Battle-shock test in its Command phase even when it is not Below
    /// Half-strength (Chaos Knights' Dread ability Dismay, as an enemy Aura).
    MustTakeBattleShockTest,
    /// Each time the unit fails a Battle-shock test it suffers this many mortal wounds
    /// (Dread ability Delirium, Daemonic Terror).
    MortalWoundsOnFailedBattleShock(DiceExpr),
    /// Add this many inches to the range of the unit's Aura abilities (Dread ability
    /// Dominion).
    AuraRange(i32),
    /// Each time the unit passes a Battle-shock test it is restored by this many: a BATTLELINE
    /// unit gets destroyed models back, another unit's most wounded model regains wounds
    /// (the Shadow of Chaos' Daemonic Manifestation).
    RestoreOnPassedBattleShock(DiceExpr),
    /// Immediate, for an army rule's action: the unit (not within Engagement Range) is removed
    /// from the battlefield into Strategic Reserves, to arrive by Deep Strike when every model
    /// has it; used at the end of a Fight phase once no unit is left to fight (Grey Knights'
    /// Gate of Infinity).
    IntoReserves,
    /// Enemy units cannot use the Fire Overwatch Stratagem to shoot at the unit (Battle
    /// Focus: Flitting Shadows).
    NoOverwatchAgainst,
    /// The unit's Pile-in and Consolidation moves are of up to this many inches instead of 3
    /// (an Agile Manoeuvre of Battle Focus: 6).
    FightMoveInches(u8),
    /// The unit reanimates this many wounds (timed; Necrons' Reanimation Protocols): each
    /// wound heals a model that has lost wounds, else returns one destroyed model of the unit
    /// with 1 wound, set up in Unit Coherency and outside Engagement Range.
    Reanimate(DiceExpr),
    /// Each model regains up to this many lost wounds (timed).
    RegainWounds(u8),
    /// Roll a D6 for each enemy unit within `within` inches: on `on`+ it suffers `amount`
    /// mortal wounds (timed).
    MortalWounds {
        /// The roll needed.
        on: u8,
        /// Mortal wounds inflicted.
        amount: DiceExpr,
        /// Range in inches.
        within: f32,
    },
}

impl Modifier {
    /// True for primitives that change an attack (as opposed to movement, eligibility,
    /// Objective Control or timed ones).
    pub fn is_attack(&self) -> bool {
        use Modifier as M;
        matches!(
            self,
            M::HitRoll(_)
                | M::WoundRoll(_)
                | M::RerollHits(_)
                | M::RerollWounds(_)
                | M::CriticalHitOn(_)
                | M::CriticalWoundOn(_)
                | M::Attacks(_)
                | M::Strength(_)
                | M::ArmourPenetration(_)
                | M::Damage(_)
                | M::Weapon(_)
                | M::FeelNoPain(_)
                | M::InvulnerableSave(_)
                | M::Save(_)
                | M::Toughness(_)
                | M::WorsenSave(_)
                | M::ImproveSave(_)
                | M::RapidFireAttacks(_)
                | M::Skill(_)
                | M::BenefitOfCover
        )
    }

    /// Ok when the numbers are within what rules print; otherwise what is wrong.
    pub fn check(&self) -> Result<(), String> {
        use Modifier as M;
        let modifier = |x: i32, what: &str| {
            if x.abs() > MAX_EFFECT_MODIFIER {
                Err(format!(
                    "{what} {x:+} is outside the limits: -{MAX_EFFECT_MODIFIER} to +{MAX_EFFECT_MODIFIER}"
                ))
            } else {
                Ok(())
            }
        };
        let roll = |x: u8, what: &str| {
            if (2..=6).contains(&x) {
                Ok(())
            } else {
                Err(format!("{what} {x}+ is outside the limits: 2+ to 6+"))
            }
        };
        match self {
            M::HitRoll(x) => modifier(*x, "HitRoll"),
            M::WoundRoll(x) => modifier(*x, "WoundRoll"),
            M::Attacks(x) => modifier(*x, "Attacks"),
            M::Strength(x) => modifier(*x, "Strength"),
            M::ArmourPenetration(x) => modifier(*x, "ArmourPenetration"),
            M::Damage(x) => modifier(*x, "Damage"),
            M::Move(x) => modifier(*x, "Move"),
            M::AdvanceRoll(x) => modifier(*x, "AdvanceRoll"),
            M::ChargeRoll(x) => modifier(*x, "ChargeRoll"),
            M::ObjectiveControl(x) => modifier(*x, "ObjectiveControl"),
            M::Leadership(x) => modifier(*x, "Leadership"),
            M::Toughness(x) => modifier(*x, "Toughness"),
            M::WorsenSave(x) if !(1..=MAX_EFFECT_MODIFIER).contains(x) => Err(format!(
                "WorsenSave({x}) is outside the limits: 1 to {MAX_EFFECT_MODIFIER}"
            )),
            M::ObjectiveControlDown(x) if !(1..=MAX_EFFECT_MODIFIER).contains(x) => Err(format!(
                "ObjectiveControlDown({x}) is outside the limits: 1 to {MAX_EFFECT_MODIFIER}"
            )),
            M::Skill(x) => modifier(*x, "Skill"),
            M::WalkThroughTerrain(x) => distance(*x),
            M::BattleShockDice(x) if !(2..=3).contains(x) => Err(format!(
                "BattleShockDice({x}) is outside the limits: 2 to 3"
            )),
            M::ImproveSave(x) if !(1..=MAX_EFFECT_MODIFIER).contains(x) => Err(format!(
                "ImproveSave({x}) is outside the limits: 1 to {MAX_EFFECT_MODIFIER}"
            )),
            M::RapidFireAttacks(x) => modifier(*x, "RapidFireAttacks"),
            M::AuraRange(x) => modifier(*x, "AuraRange"),
            M::FightMoveInches(x) if !(3..=12).contains(x) => Err(format!(
                "FightMoveInches({x}) is outside the limits: 3 to 12"
            )),
            M::CriticalHitOn(x) => roll(*x, "CriticalHitOn"),
            M::CriticalWoundOn(x) => roll(*x, "CriticalWoundOn"),
            M::FeelNoPain(x) => roll(*x, "FeelNoPain"),
            M::InvulnerableSave(x) => roll(*x, "InvulnerableSave"),
            M::Save(x) => roll(*x, "Save"),
            M::RegainWounds(x) if *x == 0 || i32::from(*x) > MAX_EFFECT_MODIFIER => Err(format!(
                "RegainWounds({x}) is outside the limits: 1 to {MAX_EFFECT_MODIFIER}"
            )),
            M::MortalWounds { on, within, .. } => {
                roll(*on, "MortalWounds on")?;
                distance(*within)
            }
            M::Weapon(w) => w.check(),
            _ => Ok(()),
        }
    }
}

fn distance(x: f32) -> Result<(), String> {
    if x > 0.0 && x <= MAX_EFFECT_DISTANCE_INCHES {
        Ok(())
    } else {
        Err(format!(
            "{x}\" is outside the limits: more than 0\" and at most {MAX_EFFECT_DISTANCE_INCHES}\""
        ))
    }
}

impl Condition {
    /// Ok when the numbers are within limits.
    pub fn check(&self) -> Result<(), String> {
        match self {
            Condition::TargetWithin(x) | Condition::EnemyWithin(x) => distance(*x),
            Condition::FriendlyWithin(k, x) => {
                if k.trim().is_empty() {
                    return Err("FriendlyWithin needs a keyword".into());
                }
                distance(*x)
            }
            Condition::WoundsLeftAtMost(0) => Err("WoundsLeftAtMost(0) never holds".into()),
            Condition::FromBattleRound(r) if !(1..=5).contains(r) => Err(format!(
                "FromBattleRound({r}) is outside battle rounds 1 to 5"
            )),
            Condition::Not(c) => c.check(),
            _ => Ok(()),
        }
    }
}

impl Effect {
    /// Ok when every modifier and condition is within limits and the effect does something;
    /// otherwise what is wrong.
    pub fn check(&self) -> Result<(), String> {
        if self.does.is_empty() {
            return Err("an effect must do something: `does` is empty".into());
        }
        for m in &self.does {
            m.check()?;
        }
        for c in &self.conditions {
            c.check()?;
        }
        if let Some((r, _)) = self.scope.aura()
            && self.scope != Scope::EnemyArmy
        {
            distance(r)?;
        }
        Ok(())
    }

    /// True when it changes attacks of this kind made by the unit (`attacking`) or at it.
    pub fn in_attack(&self, attacking: bool, melee: bool) -> bool {
        match self.when {
            When::Always => true,
            When::Attacking(k) => attacking && k.includes(melee),
            When::Attacked(k) => !attacking && k.includes(melee),
            _ => false,
        }
    }
}

/// The changes to one weapon group's attacks that effects add up to (see
/// [`AttackChanges::add`]), applied to the attack inputs by [`AttackChanges::apply_profile`]
/// and [`AttackChanges::apply_resolved`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AttackChanges {
    /// Hit roll modifiers (summed; the attack sequence caps the total at ±1).
    pub hit: i32,
    /// Wound roll modifiers (summed, capped later).
    pub wound: i32,
    /// The best Hit re-roll.
    pub reroll_hits: Reroll,
    /// The best Wound re-roll.
    pub reroll_wounds: Reroll,
    /// The lowest Critical Hit roll, if changed.
    pub critical_hit_on: Option<u8>,
    /// The lowest Critical Wound roll, if changed.
    pub critical_wound_on: Option<u8>,
    /// Attacks added.
    pub attacks: i32,
    /// Attacks added to RAPID FIRE weapons only.
    pub rapid_fire_attacks: i32,
    /// Strength added.
    pub strength: i32,
    /// AP improvement (positive) or worsening (negative).
    pub ap: i32,
    /// Damage added (negative reduces it).
    pub damage: i32,
    /// Ballistic/Weapon Skill improvement (positive: 4+ becomes 3+ with 1).
    pub skill: i32,
    /// Weapon abilities gained.
    pub abilities: Vec<WeaponAbility>,
    /// The names of the rules that changed the attack, for the log.
    pub sources: Vec<String>,
}

impl AttackChanges {
    /// Adds one attack primitive of the rule `source` (others are ignored). Returns whether
    /// it changed anything.
    pub fn add(&mut self, m: &Modifier, source: &str) -> bool {
        use Modifier as M;
        match m {
            M::HitRoll(x) => self.hit += x,
            M::WoundRoll(x) => self.wound += x,
            M::RerollHits(r) => self.reroll_hits = stronger(self.reroll_hits, *r),
            M::RerollWounds(r) => self.reroll_wounds = stronger(self.reroll_wounds, *r),
            M::CriticalHitOn(x) => {
                self.critical_hit_on = Some(self.critical_hit_on.map_or(*x, |c| c.min(*x)))
            }
            M::CriticalWoundOn(x) => {
                self.critical_wound_on = Some(self.critical_wound_on.map_or(*x, |c| c.min(*x)))
            }
            M::Attacks(x) => self.attacks += x,
            M::RapidFireAttacks(x) => self.rapid_fire_attacks += x,
            M::Strength(x) => self.strength += x,
            M::ArmourPenetration(x) => self.ap += x,
            M::Damage(x) => self.damage += x,
            M::Skill(x) => self.skill += x,
            M::Weapon(w) => {
                if !self.abilities.contains(w) {
                    self.abilities.push(w.clone());
                }
            }
            _ => return false,
        }
        if !self.sources.iter().any(|s| s == source) {
            self.sources.push(source.to_string());
        }
        true
    }

    /// True when nothing is changed.
    pub fn is_empty(&self) -> bool {
        self.sources.is_empty()
    }

    /// The weapon profile with the characteristic changes (Attacks, Strength, AP; Damage is
    /// added when resolving, so a reduction stops at 1). Characteristics never fall below 1
    /// (Core Rules: Modifiers); AP never above 0.
    pub fn apply_profile(&self, p: &mut super::weapon::WeaponProfile) {
        let rapid_fire = p
            .abilities
            .iter()
            .any(|a| matches!(a, super::weapon::WeaponAbility::RapidFire(_)));
        let attacks = self.attacks
            + if rapid_fire {
                self.rapid_fire_attacks
            } else {
                0
            };
        if attacks != 0 {
            p.attacks.modifier += attacks;
            if p.attacks.count == 0 {
                p.attacks.modifier = p.attacks.modifier.max(1);
            }
        }
        if self.strength != 0 {
            p.strength = (i32::from(p.strength) + self.strength).clamp(1, 255) as u8;
        }
        if self.ap != 0 {
            p.ap = (i32::from(p.ap) - self.ap).clamp(-128, 0) as i8;
        }
        if self.skill != 0
            && let Some(s) = p.skill
        {
            p.skill = Some((i32::from(s) - self.skill).clamp(2, 6) as u8);
        }
    }

    /// The resolved weapon with the roll changes (modifiers, re-rolls, Critical rolls,
    /// Damage), after [`super::attack::ResolvedWeapon::new`] resolved the core rules.
    pub fn apply_resolved(&self, w: &mut super::attack::ResolvedWeapon) {
        use super::modifiers::capped_hit_or_wound_modifier;
        if self.hit != 0 {
            w.hit_modifier = capped_hit_or_wound_modifier(w.hit_modifier + self.hit);
        }
        if self.wound != 0 {
            w.wound_modifier = capped_hit_or_wound_modifier(w.wound_modifier + self.wound);
        }
        w.hit_reroll = stronger(w.hit_reroll, self.reroll_hits);
        w.wound_reroll = stronger(w.wound_reroll, self.reroll_wounds);
        if let Some(c) = self.critical_hit_on {
            w.critical_hit_on = w.critical_hit_on.min(c);
        }
        if let Some(c) = self.critical_wound_on {
            w.critical_wound_on = w.critical_wound_on.min(c);
        }
        w.damage_bonus += self.damage;
        if !self.sources.is_empty() {
            w.notes.push(self.sources.join(", "));
        }
    }
}

/// The stronger of two re-roll policies.
pub fn stronger(a: Reroll, b: Reroll) -> Reroll {
    let rank = |r: Reroll| match r {
        Reroll::None => 0,
        Reroll::Ones => 1,
        Reroll::Failed => 2,
        Reroll::NonCritical => 3,
    };
    if rank(b) > rank(a) { b } else { a }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_checked() {
        let e = Effect {
            when: When::Always,
            scope: Scope::Unit,
            conditions: vec![],
            does: vec![Modifier::HitRoll(9)],
        };
        assert!(e.check().unwrap_err().contains("HitRoll +9"));
        let e = Effect {
            does: vec![Modifier::FeelNoPain(1)],
            ..e
        };
        assert!(e.check().unwrap_err().contains("FeelNoPain 1+"));
        let e = Effect { does: vec![], ..e };
        assert!(e.check().is_err());
    }

    #[test]
    fn changes_add_up_and_apply() {
        let mut c = AttackChanges::default();
        assert!(c.add(&Modifier::Strength(1), "Waaagh!"));
        assert!(c.add(&Modifier::Attacks(1), "Waaagh!"));
        assert!(c.add(&Modifier::RerollHits(Reroll::Ones), "A"));
        assert!(c.add(&Modifier::RerollHits(Reroll::Failed), "B"));
        assert!(!c.add(&Modifier::Move(2), "C"));
        assert_eq!(c.reroll_hits, Reroll::Failed);
        assert_eq!(c.sources, vec!["Waaagh!", "A", "B"]);
        let mut p = crate::rules::weapon::WeaponProfile {
            name: "Choppa".into(),
            profile: None,
            range: None,
            attacks: DiceExpr::fixed(3),
            skill: Some(3),
            strength: 4,
            ap: -1,
            damage: DiceExpr::fixed(1),
            abilities: vec![],
        };
        c.apply_profile(&mut p);
        assert_eq!((p.attacks, p.strength, p.ap), (DiceExpr::fixed(4), 5, -1));
        let mut w = AttackChanges::default();
        w.add(&Modifier::ArmourPenetration(-2), "Armour of Contempt");
        w.apply_profile(&mut p);
        assert_eq!(p.ap, 0, "AP never goes above 0");
    }
}
