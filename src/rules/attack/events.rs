//! The ordered event log of a rolled attack: every die rolled, re-rolled and modified, every
//! allocation and wound lost. Shown as the dice log in the app, printed by `attack --roll`, and
//! kept for replays.

use std::fmt;

use serde::Serialize;

use super::{RollResult, SaveKind};

/// One step of a rolled attack, in the order it happened.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum AttackEvent {
    /// A weapon group starts attacking.
    Weapon {
        /// Weapon name.
        weapon: String,
        /// Models attacking with it.
        bearers: u32,
        /// What abilities and circumstances changed.
        notes: Vec<String>,
    },
    /// The Attacks of every bearer were determined.
    Attacks {
        /// Dice rolled for random Attacks (empty for a fixed characteristic).
        dice: Vec<u8>,
        /// Total attacks of the group.
        attacks: u32,
    },
    /// A Hit roll.
    HitRoll {
        /// Attack number within the group, from 1.
        attack: u32,
        /// The unmodified die that counts.
        roll: u8,
        /// The die it replaced, if re-rolled.
        rerolled_from: Option<u8>,
        /// "re-roll" or "Command Re-roll", if re-rolled.
        rerolled_by: Option<&'static str>,
        /// Total modifier (after the ±1 cap).
        modifier: i32,
        /// BS or WS needed.
        needed: u8,
        /// Outcome.
        result: RollResult,
    },
    /// An attack hit automatically (TORRENT; not a Critical Hit).
    AutomaticHit {
        /// Attack number within the group.
        attack: u32,
    },
    /// SUSTAINED HITS scored extra hits on a Critical Hit.
    SustainedHits {
        /// Attack number within the group.
        attack: u32,
        /// Dice rolled for a random X.
        dice: Vec<u8>,
        /// Extra hits (automatically successful, no LETHAL HITS).
        extra_hits: u32,
    },
    /// A Wound roll.
    WoundRoll {
        /// Hit number within the group, from 1.
        hit: u32,
        /// The unmodified die that counts.
        roll: u8,
        /// The die it replaced, if re-rolled.
        rerolled_from: Option<u8>,
        /// "re-roll", "TWIN-LINKED" or "Command Re-roll", if re-rolled.
        rerolled_by: Option<&'static str>,
        /// Total modifier (after the ±1 cap).
        modifier: i32,
        /// Roll needed.
        needed: u8,
        /// Outcome.
        result: RollResult,
    },
    /// LETHAL HITS: a Critical Hit wounded automatically (not a Critical Wound).
    AutomaticWound {
        /// Attack number within the group.
        attack: u32,
    },
    /// DEVASTATING WOUNDS: a Critical Wound becomes mortal wounds, applied after normal damage.
    DevastatingWounds {
        /// Hit number within the group.
        hit: u32,
        /// Damage dice rolled.
        dice: Vec<u8>,
        /// Mortal wounds added to the pool.
        mortal_wounds: u32,
    },
    /// 11th edition: the saving throws of one weapon's wounding attacks, rolled at once and
    /// taken lowest first (11th Core Rules 05.03).
    SaveDice {
        /// The dice, lowest first.
        dice: Vec<u8>,
    },
    /// A wounding attack was allocated to a model.
    Allocated {
        /// Model index in the target unit.
        model: usize,
        /// Model name.
        name: String,
    },
    /// A saving throw.
    SavingThrow {
        /// Model index.
        model: usize,
        /// Armour or invulnerable.
        kind: SaveKind,
        /// Unmodified die.
        roll: u8,
        /// Modifier (AP and cover for armour).
        modifier: i32,
        /// The characteristic rolled against (3 for 3+).
        characteristic: u8,
        /// True if the save succeeded.
        saved: bool,
    },
    /// The Damage of an unsaved attack.
    Damage {
        /// Model index.
        model: usize,
        /// Damage dice rolled (empty for fixed Damage).
        dice: Vec<u8>,
        /// Damage after MELTA.
        damage: u32,
    },
    /// Mortal wounds start to be applied, one at a time.
    MortalWounds {
        /// How many.
        total: u32,
        /// True for those from PRECISION attacks (CHARACTERs first).
        precision: bool,
    },
    /// A Feel No Pain roll for one wound.
    FeelNoPain {
        /// Model index.
        model: usize,
        /// The die.
        roll: u8,
        /// X of Feel No Pain X+.
        needed: u8,
        /// True if the wound is not lost.
        ignored: bool,
    },
    /// A model lost one wound.
    WoundLost {
        /// Model index.
        model: usize,
        /// Wounds it has left.
        wounds_remaining: u8,
        /// True for a mortal wound.
        mortal: bool,
    },
    /// A model lost one wound, named: what the battle engine records in place of
    /// [`AttackEvent::WoundLost`] ([`AttackEvent::naming_models`]).
    ModelWoundLost {
        /// The model, `unit#N` (N its index in its own unit).
        model: String,
        /// Wounds it has left.
        wounds_remaining: u8,
        /// True for a mortal wound.
        mortal: bool,
    },
    /// A Feel No Pain roll for one wound, the model named: what the battle engine records in
    /// place of [`AttackEvent::FeelNoPain`] ([`AttackEvent::naming_models`]).
    ModelFeelNoPain {
        /// The model, `unit#N`.
        model: String,
        /// The die.
        roll: u8,
        /// X of Feel No Pain X+.
        needed: u8,
        /// True if the wound is not lost.
        ignored: bool,
    },
    /// A model was destroyed.
    ModelDestroyed {
        /// Model index.
        model: usize,
        /// Model name.
        name: String,
    },
    /// A Command Re-roll was spent on a roll other than a Hit or Wound roll (which record
    /// their own re-rolls): a saving throw, a Damage or Attacks roll, or a HAZARDOUS test. The
    /// event that follows for that roll shows the new dice.
    CommandReroll {
        /// The kind of roll: "saving throw", "Damage", "Attacks" or "HAZARDOUS test".
        of: String,
        /// The dice it replaced.
        replaced: Vec<u8>,
    },
    /// A HAZARDOUS test after the unit attacked.
    Hazardous {
        /// Weapon name.
        weapon: String,
        /// The die.
        roll: u8,
        /// What happens to the bearer on a failure; `None` when passed.
        failure: Option<String>,
    },
}

impl AttackEvent {
    /// The event with the target's model named as the game names it: a
    /// [`AttackEvent::WoundLost`] or [`AttackEvent::FeelNoPain`], whose `model` is only the
    /// model's place among the target unit's models when the attack began, becomes a
    /// [`AttackEvent::ModelWoundLost`] or [`AttackEvent::ModelFeelNoPain`] naming it from
    /// `names` (the target's models in that order, `unit#N`). Other events, and a place
    /// `names` lacks, are kept as they are.
    pub fn naming_models(self, names: &[String]) -> AttackEvent {
        match self {
            AttackEvent::WoundLost {
                model,
                wounds_remaining,
                mortal,
            } if model < names.len() => AttackEvent::ModelWoundLost {
                model: names[model].clone(),
                wounds_remaining,
                mortal,
            },
            AttackEvent::FeelNoPain {
                model,
                roll,
                needed,
                ignored,
            } if model < names.len() => AttackEvent::ModelFeelNoPain {
                model: names[model].clone(),
                roll,
                needed,
                ignored,
            },
            other => other,
        }
    }
}

impl fmt::Display for AttackEvent {
    /// One line of the dice log.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use AttackEvent as E;
        let reroll = |from: &Option<u8>, by: &Option<&str>| match (from, by) {
            (Some(old), Some(by)) => format!(" ({by} of {old})"),
            (Some(old), None) => format!(" (re-roll of {old})"),
            _ => String::new(),
        };
        let result = |r: &RollResult, what: &str| match r {
            RollResult::Fail => "fails".to_string(),
            RollResult::Success => format!("{what}s"),
            RollResult::Critical => format!("Critical {what}"),
        };
        match self {
            E::Weapon {
                weapon,
                bearers,
                notes,
            } => {
                write!(f, "{weapon} x{bearers}")?;
                for n in notes {
                    write!(f, "; {n}")?;
                }
                Ok(())
            }
            E::Attacks { dice, attacks } if dice.is_empty() => write!(f, "  {attacks} attacks"),
            E::Attacks { dice, attacks } => write!(f, "  {attacks} attacks (rolled {dice:?})"),
            E::HitRoll {
                attack,
                roll,
                rerolled_from,
                rerolled_by,
                modifier,
                needed,
                result: r,
            } => write!(
                f,
                "  attack {attack}: hit roll {roll}{}{} vs {needed}+: {}",
                reroll(rerolled_from, rerolled_by),
                signed(*modifier),
                result(r, "Hit")
            ),
            E::AutomaticHit { attack } => write!(f, "  attack {attack}: hits automatically"),
            E::SustainedHits {
                attack, extra_hits, ..
            } => write!(f, "  attack {attack}: SUSTAINED HITS +{extra_hits} hits"),
            E::WoundRoll {
                hit,
                roll,
                rerolled_from,
                rerolled_by,
                modifier,
                needed,
                result: r,
            } => write!(
                f,
                "  hit {hit}: wound roll {roll}{}{} vs {needed}+: {}",
                reroll(rerolled_from, rerolled_by),
                signed(*modifier),
                result(r, "Wound")
            ),
            E::AutomaticWound { attack } => {
                write!(f, "  attack {attack}: LETHAL HITS wounds automatically")
            }
            E::DevastatingWounds {
                hit, mortal_wounds, ..
            } => write!(
                f,
                "  hit {hit}: DEVASTATING WOUNDS: {mortal_wounds} mortal wounds (after normal damage)"
            ),
            E::SaveDice { dice } => write!(
                f,
                "  saving throws rolled at once, taken lowest first: {dice:?}"
            ),
            E::Allocated { name, .. } => write!(f, "  allocated to {name}"),
            E::SavingThrow {
                kind,
                roll,
                modifier,
                characteristic,
                saved,
                ..
            } => write!(
                f,
                "    {} save {roll}{} vs {characteristic}+: {}",
                match kind {
                    SaveKind::Armour => "armour",
                    SaveKind::Invulnerable => "invulnerable",
                },
                signed(*modifier),
                if *saved { "saved" } else { "failed" }
            ),
            E::Damage { damage, dice, .. } if dice.is_empty() => write!(f, "    damage {damage}"),
            E::Damage { damage, dice, .. } => write!(f, "    damage {damage} (rolled {dice:?})"),
            E::MortalWounds { total, precision } => write!(
                f,
                "  {total} mortal wounds{}",
                if *precision {
                    " (PRECISION: CHARACTERs first)"
                } else {
                    ""
                }
            ),
            E::FeelNoPain {
                roll,
                needed,
                ignored,
                ..
            } => write!(
                f,
                "    Feel No Pain {roll} vs {needed}+: {}",
                if *ignored { "ignored" } else { "lost" }
            ),
            E::WoundLost {
                model,
                wounds_remaining,
                mortal,
            } => write!(
                f,
                "    model {model} loses a {}wound ({wounds_remaining} left)",
                if *mortal { "mortal " } else { "" }
            ),
            E::ModelFeelNoPain {
                model,
                roll,
                needed,
                ignored,
            } => write!(
                f,
                "    {model}: Feel No Pain {roll} vs {needed}+: {}",
                if *ignored { "ignored" } else { "lost" }
            ),
            E::ModelWoundLost {
                model,
                wounds_remaining,
                mortal,
            } => write!(
                f,
                "    {model} loses a {}wound ({wounds_remaining} left)",
                if *mortal { "mortal " } else { "" }
            ),
            E::ModelDestroyed { name, .. } => write!(f, "    {name} destroyed"),
            E::CommandReroll { of, replaced } => {
                write!(f, "    Command Re-roll of the {of} ({replaced:?})")
            }
            E::Hazardous {
                weapon,
                roll,
                failure,
            } => match failure {
                None => write!(f, "HAZARDOUS ({weapon}): {roll}, passed"),
                Some(what) => write!(f, "HAZARDOUS ({weapon}): {roll}, failed: {what}"),
            },
        }
    }
}

fn signed(modifier: i32) -> String {
    if modifier == 0 {
        String::new()
    } else {
        format!(" {modifier:+}")
    }
}

/// Where a resolver writes its events; a no-op sink makes Monte Carlo runs free of logging.
pub trait EventSink {
    /// False when events are discarded (the resolver then skips building them).
    fn enabled(&self) -> bool;
    /// Records one event.
    fn record(&mut self, event: AttackEvent);
}

impl EventSink for Vec<AttackEvent> {
    fn enabled(&self) -> bool {
        true
    }
    fn record(&mut self, event: AttackEvent) {
        self.push(event);
    }
}

/// Discards every event.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoLog;

impl EventSink for NoLog {
    #[inline]
    fn enabled(&self) -> bool {
        false
    }
    #[inline]
    fn record(&mut self, _event: AttackEvent) {}
}
