//! Dice expressions written on datasheets: `3`, `D3`, `D6`, `2D6`, `D6+1`, `2D3-1`, `D66`.
//!
//! Core Rules: Dice (D3 is a D6 halved, rounding up); Rules Commentary: D66. Rolling lives in
//! [`super::rng`].

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer, de};

/// A dice expression `nDx+k`: `count` dice of `sides` faces (3 or 6; 0 dice means a constant)
/// plus `modifier`. `D66` is one die with `sides` 66: two D6 read as tens and units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DiceExpr {
    /// Number of dice rolled (0 for a plain number).
    pub count: u8,
    /// Faces of each die: 3 or 6 (ignored when `count` is 0).
    pub sides: u8,
    /// Constant added to the dice total (may be negative).
    pub modifier: i32,
}

/// Largest constant a dice expression may hold, either way: the `3` of `2D6+3`, the `1` of
/// `2D3-1`, or a fixed value such as `20`. 10th-edition datasheets reach about `2D6+3` on
/// BLAST weapons, a fixed 20-odd Attacks on a few monsters and 12 Damage on the largest guns;
/// the limit leaves room above them and keeps sums and exact distributions small.
pub const MAX_DICE_CONSTANT: i32 = 50;
/// Most dice one expression may roll (datasheets roll at most 3, as in `3D6`).
pub const MAX_DICE_COUNT: u8 = 10;

/// Why a dice expression did not parse: the text, and what is wrong with it (a limit it
/// breaks names the limit).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{text}' is not a dice expression: {reason}")]
pub struct DiceParseError {
    /// The text that was given.
    pub text: String,
    /// What is wrong with it, e.g. "at most 10 dice (found 20)".
    pub reason: String,
}

/// What a malformed expression is told: the forms that are accepted.
const EXPECTED: &str = "expected a number, D3, D6, 2D6, D6+1, 2D3-1 or D66";

/// The reason given for a constant over [`MAX_DICE_CONSTANT`].
fn constant_limit(value: impl fmt::Display) -> String {
    format!("constants are at most {MAX_DICE_CONSTANT} either way (found {value})")
}

impl DiceExpr {
    /// A fixed value with no dice.
    pub const fn fixed(value: i32) -> Self {
        Self {
            count: 0,
            sides: 6,
            modifier: value,
        }
    }

    /// Smallest possible result.
    pub fn min(&self) -> i32 {
        if self.is_d66() {
            return 11 + self.modifier;
        }
        i32::from(self.count) + self.modifier
    }

    /// Largest possible result.
    pub fn max(&self) -> i32 {
        i32::from(self.count) * i32::from(self.sides) + self.modifier
    }

    /// Mean result.
    pub fn mean(&self) -> f32 {
        if self.is_d66() {
            return 38.5 + self.modifier as f32;
        }
        f32::from(self.count) * (f32::from(self.sides) + 1.0) / 2.0 + self.modifier as f32
    }

    /// True for a D66 (two D6 read as tens and units).
    pub fn is_d66(&self) -> bool {
        self.count == 1 && self.sides == 66
    }

    /// The exact probability of each result: `(value, probability)` pairs in increasing
    /// value, probabilities summing to 1.
    pub fn distribution(&self) -> Vec<(i32, f64)> {
        if self.count == 0 {
            return vec![(self.modifier, 1.0)];
        }
        if self.is_d66() {
            return (1..=6)
                .flat_map(|t| (1..=6).map(move |u| (t * 10 + u + self.modifier, 1.0 / 36.0)))
                .collect();
        }
        let sides = usize::from(self.sides);
        // p[k] = probability that the dice sum to k (k from 0).
        let mut p = vec![1.0f64];
        for _ in 0..self.count {
            let mut next = vec![0.0; p.len() + sides];
            for (sum, &q) in p.iter().enumerate() {
                for face in 1..=sides {
                    next[sum + face] += q / sides as f64;
                }
            }
            p = next;
        }
        p.iter()
            .enumerate()
            .filter(|(_, q)| **q > 0.0)
            .map(|(sum, q)| (sum as i32 + self.modifier, *q))
            .collect()
    }

    /// True when no dice are rolled.
    pub fn is_fixed(&self) -> bool {
        self.count == 0
    }
}

impl FromStr for DiceExpr {
    type Err = DiceParseError;

    /// Parses `nDx+k`; refuses anything past [`MAX_DICE_COUNT`] dice, dice other than D3, D6
    /// and one D66, and constants past [`MAX_DICE_CONSTANT`], saying which limit it broke.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let err = |reason: String| DiceParseError {
            text: text.to_string(),
            reason,
        };
        let malformed = || err(EXPECTED.to_string());
        let s: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let upper = s.to_ascii_uppercase();
        // Digits only (any length: a huge number is over a limit, not malformed).
        let number = |digits: &str| -> Option<u64> {
            (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
                .then(|| digits.parse::<u64>().unwrap_or(u64::MAX))
        };
        let within = |v: u64| v <= MAX_DICE_CONSTANT.unsigned_abs().into();
        let Some(d) = upper.find('D') else {
            let (negative, digits) = match upper.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, upper.strip_prefix('+').unwrap_or(&upper)),
            };
            let v = number(digits).ok_or_else(malformed)?;
            if !within(v) {
                return Err(err(constant_limit(&upper)));
            }
            let v = v as i32;
            return Ok(DiceExpr::fixed(if negative { -v } else { v }));
        };
        let count = if d == 0 {
            1
        } else {
            number(&upper[..d]).ok_or_else(malformed)?
        };
        let rest = &upper[d + 1..];
        let (sides_text, modifier_text) = match rest.find(['+', '-']) {
            Some(i) => (&rest[..i], Some(&rest[i..])),
            None => (rest, None),
        };
        let sides = number(sides_text).ok_or_else(malformed)?;
        let modifier = match modifier_text {
            Some(m) => Some((m, number(&m[1..]).ok_or_else(malformed)?)),
            None => None,
        };
        if count == 0 {
            return Err(malformed());
        }
        // Every limit broken, in one message.
        let mut broken = Vec::new();
        if count > u64::from(MAX_DICE_COUNT) {
            broken.push(format!(
                "at most {MAX_DICE_COUNT} dice (found {})",
                &upper[..d]
            ));
        }
        if !(sides == 3 || sides == 6 || sides == 66) {
            broken.push(format!(
                "only D3, D6 and D66 dice are rolled (found D{sides_text})"
            ));
        } else if sides == 66 && count != 1 {
            broken.push("a D66 is rolled alone (one D66)".to_string());
        }
        if let Some((text, m)) = modifier
            && !within(m)
        {
            broken.push(constant_limit(text));
        }
        if !broken.is_empty() {
            return Err(err(broken.join("; ")));
        }
        let modifier = modifier.map_or(0, |(text, m)| {
            if text.starts_with('-') {
                -(m as i32)
            } else {
                m as i32
            }
        });
        Ok(DiceExpr {
            count: count as u8,
            sides: sides as u8,
            modifier,
        })
    }
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count == 0 {
            return write!(f, "{}", self.modifier);
        }
        if self.count > 1 {
            write!(f, "{}", self.count)?;
        }
        write!(f, "D{}", self.sides)?;
        match self.modifier {
            0 => Ok(()),
            m if m > 0 => write!(f, "+{m}"),
            m => write!(f, "{m}"),
        }
    }
}

impl Serialize for DiceExpr {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for DiceExpr {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl de::Visitor<'_> for Visitor {
            type Value = DiceExpr;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number or a dice expression string such as \"D6+1\"")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<DiceExpr, E> {
                self.visit_i64(i64::try_from(v).unwrap_or(i64::MAX))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<DiceExpr, E> {
                i32::try_from(v)
                    .ok()
                    .filter(|v| v.abs() <= MAX_DICE_CONSTANT)
                    .map(DiceExpr::fixed)
                    .ok_or_else(|| {
                        E::custom(format!("{v} is not a dice value: {}", constant_limit(v)))
                    })
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<DiceExpr, E> {
                v.parse().map_err(E::custom)
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_datasheet_expressions() {
        let d6p1: DiceExpr = "D6+1".parse().unwrap();
        assert_eq!((d6p1.min(), d6p1.max()), (2, 7));
        let two_d6: DiceExpr = "2D6".parse().unwrap();
        assert_eq!((two_d6.min(), two_d6.max()), (2, 12));
        assert_eq!(two_d6.mean(), 7.0);
        let d3: DiceExpr = "d3".parse().unwrap();
        assert_eq!((d3.min(), d3.max()), (1, 3));
        assert_eq!("4".parse::<DiceExpr>().unwrap(), DiceExpr::fixed(4));
        assert_eq!("2D3-1".parse::<DiceExpr>().unwrap().min(), 1);
    }

    #[test]
    fn distributions_sum_to_one_and_match_means() {
        for text in ["3", "D3", "D6", "2D6", "D6+1", "2D3-1", "D66", "3D6"] {
            let e: DiceExpr = text.parse().unwrap();
            let d = e.distribution();
            let total: f64 = d.iter().map(|(_, p)| p).sum();
            let mean: f64 = d.iter().map(|(v, p)| f64::from(*v) * p).sum();
            assert!((total - 1.0).abs() < 1e-12, "{text}");
            assert!((mean - f64::from(e.mean())).abs() < 1e-9, "{text}: {mean}");
            assert_eq!(d.first().unwrap().0, e.min(), "{text}");
            assert_eq!(d.last().unwrap().0, e.max(), "{text}");
        }
    }

    #[test]
    fn rejects_nonsense() {
        for bad in [
            "", "D", "D7", "0D6", "D6+", "six", "D6+x", "2D66", "21D6", "D6+1000", "5000",
        ] {
            assert!(bad.parse::<DiceExpr>().is_err(), "{bad} parsed");
        }
    }

    #[test]
    fn limits_are_errors_that_name_the_limit() {
        for ok in ["10D6+50", "10D3-50", "50", "-50", "D66+50"] {
            assert!(ok.parse::<DiceExpr>().is_ok(), "{ok} refused");
        }
        for (bad, says) in [
            ("11D6", "at most 10 dice"),
            ("20D6+999", "at most 10 dice"),
            ("255D6", "at most 10 dice"),
            ("D6+51", "at most 50"),
            ("2D6-999999999999", "at most 50"),
            ("51", "at most 50"),
            ("-51", "at most 50"),
            ("D20", "only D3, D6 and D66"),
        ] {
            let e = bad.parse::<DiceExpr>().unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
            assert!(
                e.starts_with(&format!("'{bad}' is not a dice expression")),
                "{e}"
            );
        }
    }

    #[test]
    fn display_round_trips() {
        for text in ["3", "D3", "D6", "2D6", "D6+1", "2D3-1", "D66"] {
            let e: DiceExpr = text.parse().unwrap();
            assert_eq!(e.to_string(), text);
        }
    }
}
