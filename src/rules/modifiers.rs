//! Modifiers to characteristics and dice rolls, and the "best"/"worst" characteristic of a unit.
//!
//! Rules Commentary: Modifiers; Modifying Characteristics; Modifying Characteristics by
//! Improving, Reducing or Worsening Them; Modifying Dice Rolls; Best; Worst; Unit's Toughness
//! Characteristic; Unit's Leadership Characteristic.

use super::constants::{
    BEST_MODIFIED_LEADERSHIP, BEST_SKILL_OR_SAVE, HIT_WOUND_MODIFIER_CAP, MIN_MODIFIED_ROLL,
    MIN_MOVE_OR_RANGE_INCHES, MIN_STRENGTH_TOUGHNESS_ATTACKS_DAMAGE, WORST_MODIFIED_LEADERSHIP,
};

/// A characteristic, for the floors and caps its modified value obeys.
///
/// "Plus" characteristics (WS/BS as [`Characteristic::Skill`], Save, Leadership) are handled as
/// the number before the "+": improving one subtracts from that number. Armour Penetration is
/// handled as printed (0 or negative): improving it subtracts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Characteristic {
    /// Move (M), inches: never below 1".
    Move,
    /// Weapon range, inches: never below 1".
    Range,
    /// Toughness (T): never below 1.
    Toughness,
    /// Strength (S): never below 1.
    Strength,
    /// Attacks (A): never below 1.
    Attacks,
    /// Damage (D): never below 1 (unless a rule sets it to 0 first).
    Damage,
    /// Wounds (W): never below 1.
    Wounds,
    /// Weapon or Ballistic Skill (WS/BS) as the roll needed: never 1+ or better.
    Skill,
    /// Save (Sv) as the roll needed: never 1+ or better.
    Save,
    /// Leadership (Ld) as the roll needed: never 4+ or better, never 9+ or worse.
    Leadership,
    /// Objective Control (OC): never worse than 0.
    ObjectiveControl,
    /// Armour Penetration (AP), 0 or negative: never worse than 0.
    ArmourPenetration,
}

impl Characteristic {
    /// True for characteristics written with a "+" (a lower number is better).
    pub fn is_plus(self) -> bool {
        matches!(self, Self::Skill | Self::Save | Self::Leadership)
    }

    /// True if `a` is better than `b` for this characteristic (Rules Commentary: Or Better).
    pub fn is_better(self, a: i32, b: i32) -> bool {
        if self.is_plus() || self == Self::ArmourPenetration {
            a < b
        } else {
            a > b
        }
    }

    /// Clamps a modified value to the bounds this characteristic obeys.
    fn clamp(self, value: i32) -> i32 {
        match self {
            Self::Toughness | Self::Strength | Self::Attacks | Self::Damage | Self::Wounds => {
                value.max(MIN_STRENGTH_TOUGHNESS_ATTACKS_DAMAGE)
            }
            Self::Move | Self::Range => value.max(MIN_MOVE_OR_RANGE_INCHES as i32),
            Self::Skill | Self::Save => value.max(BEST_SKILL_OR_SAVE),
            Self::Leadership => value.clamp(BEST_MODIFIED_LEADERSHIP, WORST_MODIFIED_LEADERSHIP),
            Self::ObjectiveControl => value.max(0),
            Self::ArmourPenetration => value.min(0),
        }
    }
}

/// Every modifier acting on one characteristic at one moment, applied in the order the Rules
/// Commentary sets: change/replace first, then divide, multiply, add and subtract; fractions
/// rounded up at the end; then the characteristic's floor or cap.
///
/// Build it with the chained methods; an empty set leaves the value untouched (and unclamped).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Modifiers {
    set: Option<i32>,
    divisors: Vec<u32>,
    multipliers: Vec<u32>,
    added: i32,
    subtracted: i32,
}

impl Modifiers {
    /// No modifiers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Change the characteristic to `value` before anything else (e.g. Battle-shocked: OC 0).
    /// With several, the last one given wins.
    pub fn set(mut self, value: i32) -> Self {
        self.set = Some(value);
        self
    }

    /// Divide by `divisor` (e.g. "halve": 2). A zero divisor is ignored.
    pub fn divide(mut self, divisor: u32) -> Self {
        if divisor > 0 {
            self.divisors.push(divisor);
        }
        self
    }

    /// Multiply by `factor` (e.g. "double": 2).
    pub fn multiply(mut self, factor: u32) -> Self {
        self.multipliers.push(factor);
        self
    }

    /// Add `amount` (negative amounts subtract).
    pub fn plus(mut self, amount: i32) -> Self {
        if amount >= 0 {
            self.added += amount;
        } else {
            self.subtracted -= amount;
        }
        self
    }

    /// Subtract `amount`.
    pub fn minus(self, amount: i32) -> Self {
        self.plus(-amount)
    }

    /// Improve a characteristic by `amount`: subtract for "+" characteristics and AP, add for
    /// the others (Rules Commentary: Improving WS, BS, Sv and Ld; Improving AP).
    pub fn improve(self, characteristic: Characteristic, amount: i32) -> Self {
        if characteristic.is_plus() || characteristic == Characteristic::ArmourPenetration {
            self.minus(amount)
        } else {
            self.plus(amount)
        }
    }

    /// Worsen a characteristic by `amount`: the opposite of [`Modifiers::improve`].
    pub fn worsen(self, characteristic: Characteristic, amount: i32) -> Self {
        self.improve(characteristic, -amount)
    }

    /// True when no modifier is present.
    pub fn is_empty(&self) -> bool {
        self.set.is_none()
            && self.divisors.is_empty()
            && self.multipliers.is_empty()
            && self.added == 0
            && self.subtracted == 0
    }

    /// The modified value of `base` for `characteristic`.
    ///
    /// An empty set of modifiers returns `base` unchanged: the floors and caps limit what
    /// modifiers can do, not printed values. A Damage characteristic set to 0 stays 0 (Rules
    /// Commentary: Modifying Characteristics).
    pub fn apply(&self, characteristic: Characteristic, base: i32) -> i32 {
        if self.is_empty() {
            return base;
        }
        let start = self.set.unwrap_or(base);
        let mut numerator = i64::from(start);
        let mut denominator: i64 = 1;
        for d in &self.divisors {
            denominator *= i64::from(*d);
        }
        for m in &self.multipliers {
            numerator *= i64::from(*m);
        }
        numerator += i64::from(self.added - self.subtracted) * denominator;
        // Round up: ceil(numerator / denominator) for a positive denominator.
        let value =
            numerator.div_euclid(denominator) + i64::from(numerator.rem_euclid(denominator) != 0);
        let value = i32::try_from(value).unwrap_or(i32::MAX);
        if characteristic == Characteristic::Damage && self.set == Some(0) {
            return value.max(0);
        }
        characteristic.clamp(value)
    }
}

/// The total modifier to a Hit or Wound roll after the ±1 cap (Rules Commentary: Modifying
/// Dice Rolls).
pub fn capped_hit_or_wound_modifier(total: i32) -> i32 {
    total.clamp(-HIT_WOUND_MODIFIER_CAP, HIT_WOUND_MODIFIER_CAP)
}

/// A die's result after modifiers: may exceed 6, never below 1 (Rules Commentary: Modifying
/// Dice Rolls).
pub fn modified_roll(unmodified: u8, modifier: i32) -> i32 {
    (i32::from(unmodified) + modifier).max(MIN_MODIFIED_ROLL)
}

/// The best value of `characteristic` among `values` (Rules Commentary: Best); `None` if empty.
pub fn best(characteristic: Characteristic, values: impl IntoIterator<Item = i32>) -> Option<i32> {
    values
        .into_iter()
        .reduce(|a, b| if characteristic.is_better(b, a) { b } else { a })
}

/// The worst value of `characteristic` among `values` (Rules Commentary: Worst); `None` if empty.
pub fn worst(characteristic: Characteristic, values: impl IntoIterator<Item = i32>) -> Option<i32> {
    values
        .into_iter()
        .reduce(|a, b| if characteristic.is_better(a, b) { b } else { a })
}

/// A unit's Leadership: the best among its models (Rules Commentary: Unit's Leadership
/// Characteristic). `values` are the numbers before the "+".
pub fn unit_leadership(values: impl IntoIterator<Item = u8>) -> Option<u8> {
    best(
        Characteristic::Leadership,
        values.into_iter().map(i32::from),
    )
    .map(|v| v as u8)
}

/// A unit's Toughness when its models differ (Rules Commentary: Unit's Toughness
/// Characteristic): in an Attached unit the highest among the Bodyguard models, otherwise the
/// highest among all models. `models` are (toughness, is a Bodyguard model) pairs; `attached`
/// says whether a Leader is attached. `None` for an empty unit.
pub fn unit_toughness(models: &[(u8, bool)], attached: bool) -> Option<u8> {
    let bodyguard = models
        .iter()
        .filter(|(_, bg)| *bg || !attached)
        .map(|(t, _)| *t);
    bodyguard
        .max()
        .or_else(|| models.iter().map(|(t, _)| *t).max())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_happens_once_at_the_end() {
        // 5 halved is 2.5, plus 1 is 3.5, rounded up to 4 (not 3 + 1 = 4 by luck: check 3/2+0).
        let m = Modifiers::new().divide(2).plus(1);
        assert_eq!(m.apply(Characteristic::Attacks, 5), 4);
        assert_eq!(
            Modifiers::new().divide(2).apply(Characteristic::Attacks, 3),
            2
        );
        assert_eq!(
            Modifiers::new()
                .divide(2)
                .minus(1)
                .apply(Characteristic::Attacks, 3),
            1
        );
    }

    #[test]
    fn empty_modifiers_leave_printed_values_alone() {
        assert_eq!(Modifiers::new().apply(Characteristic::Leadership, 9), 9);
        assert_eq!(Modifiers::new().apply(Characteristic::Save, 1), 1);
    }

    #[test]
    fn best_and_worst_respect_plus_characteristics() {
        assert_eq!(best(Characteristic::Toughness, [4, 5, 3]), Some(5));
        assert_eq!(best(Characteristic::Save, [4, 3, 5]), Some(3));
        assert_eq!(worst(Characteristic::Save, [4, 3, 5]), Some(5));
        assert_eq!(
            best(Characteristic::ArmourPenetration, [0, -2, -1]),
            Some(-2)
        );
    }
}
