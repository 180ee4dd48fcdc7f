//! The game's seeded dice: a version-stable generator held in game state, and dice rolls with
//! re-rolls.
//!
//! Core Rules: Dice (D3, D6, 2D6, D66), Re-rolls; Rules Commentary: Re-rolls, D66.
//!
//! Stability: results come from ChaCha8 (an algorithm with a fixed output stream for a given
//! seed) through this module's own rejection sampling, never through `rand`'s distribution
//! code, so a seed rolls the same dice on every platform and library version.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use smallvec::SmallVec;

use super::dice::DiceExpr;

/// The seeded dice generator of one game (or one `attack --roll`).
///
/// Keep one in game state and pass it by `&mut`; never a global. `draws` counts the 32-bit
/// words consumed so a saved game can resume the exact stream with [`GameRng::resume`].
#[derive(Debug, Clone)]
pub struct GameRng {
    seed: u64,
    draws: u64,
    inner: ChaCha8Rng,
    scripted: Vec<u8>,
}

/// Largest multiple of 6 that fits in a u32: words at or above it are re-drawn so each face is
/// exactly equally likely.
const D6_LIMIT: u32 = u32::MAX - (u32::MAX % 6) - 1;

impl GameRng {
    /// A generator seeded with `seed`.
    pub fn seeded(seed: u64) -> Self {
        Self {
            seed,
            draws: 0,
            inner: ChaCha8Rng::seed_from_u64(seed),
            scripted: Vec::new(),
        }
    }

    /// The generator seeded with `seed` after `draws` words were consumed (for saved games).
    pub fn resume(seed: u64, draws: u64) -> Self {
        let mut rng = Self::seeded(seed);
        for _ in 0..draws {
            rng.next_word();
        }
        rng
    }

    /// A generator whose first D6 results are `faces` in order (each 1-6), then seeded dice:
    /// for worked examples and replays of a known roll sequence.
    pub fn scripted(faces: &[u8]) -> Self {
        let mut rng = Self::seeded(0);
        rng.scripted = faces.iter().rev().copied().collect();
        rng
    }

    /// The seed this generator started from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Words consumed so far.
    pub fn draws(&self) -> u64 {
        self.draws
    }

    fn next_word(&mut self) -> u32 {
        self.draws += 1;
        self.inner.next_u32()
    }

    /// One D6: 1 to 6.
    pub fn d6(&mut self) -> u8 {
        if let Some(face) = self.scripted.pop() {
            return face.clamp(1, 6);
        }
        loop {
            let word = self.next_word();
            if word <= D6_LIMIT {
                return (word % 6) as u8 + 1;
            }
        }
    }

    /// One D3: a D6 halved, rounding up (Core Rules: Dice).
    pub fn d3(&mut self) -> u8 {
        self.d6().div_ceil(2)
    }

    /// A uniform pick from `0..n` made of D6 rolls (read as base-6 digits, re-rolled above
    /// the largest multiple of `n`), for shuffling a mission deck or picking objectives at
    /// random. 0 when `n` is 0 or 1.
    pub fn below(&mut self, n: u32) -> u32 {
        if n <= 1 {
            return 0;
        }
        let mut span = 1u64;
        let mut digits = 0;
        while span < u64::from(n) {
            span *= 6;
            digits += 1;
        }
        let limit = span - span % u64::from(n);
        loop {
            let mut v = 0u64;
            for _ in 0..digits {
                v = v * 6 + u64::from(self.d6() - 1);
            }
            if v < limit {
                return (v % u64::from(n)) as u32;
            }
        }
    }

    /// A D66: two D6 read as tens and units (Rules Commentary: D66), 11 to 66.
    pub fn d66(&mut self) -> u8 {
        let tens = self.d6();
        tens * 10 + self.d6()
    }
}

/// One rolled dice expression: each die's result (D3 dice hold the halved value; a D66 holds
/// its two D6) and the total with the expression's constant added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiceRoll {
    /// Each die's result, in the order rolled.
    pub dice: SmallVec<[u8; 4]>,
    /// The expression's value: the dice (or D66 reading) plus the constant.
    pub value: i32,
}

impl DiceExpr {
    /// Rolls the expression once.
    pub fn roll(&self, rng: &mut GameRng) -> DiceRoll {
        let mut dice = SmallVec::new();
        if self.is_d66() {
            let tens = rng.d6();
            let units = rng.d6();
            dice.push(tens);
            dice.push(units);
            return DiceRoll {
                value: i32::from(tens) * 10 + i32::from(units) + self.modifier,
                dice,
            };
        }
        let mut total = self.modifier;
        for _ in 0..self.count {
            let face = if self.sides == 3 { rng.d3() } else { rng.d6() };
            dice.push(face);
            total += i32::from(face);
        }
        DiceRoll { dice, value: total }
    }

    /// Rolls the expression and re-rolls the whole roll once if `reroll` says so (Rules
    /// Commentary: Re-rolls: all dice of a 2D6 are re-rolled together, never twice; a D3
    /// condition looks at the halved value). Returns the final roll and the discarded one.
    pub fn roll_with_reroll(
        &self,
        rng: &mut GameRng,
        reroll: impl Fn(&DiceRoll) -> bool,
    ) -> (DiceRoll, Option<DiceRoll>) {
        let first = self.roll(rng);
        if self.is_fixed() || !reroll(&first) {
            return (first, None);
        }
        (self.roll(rng), Some(first))
    }
}

/// A Leadership test (Battle-shock tests are Leadership tests): 2D6 against the unit's best
/// Leadership (Rules Commentary: Leadership Test; Battle-shock Tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeadershipTest {
    /// The two D6.
    pub dice: [u8; 2],
    /// A third D6 when the test is taken on 3D6 (Tyranids' Synapse).
    pub third: Option<u8>,
    /// Their sum.
    pub total: u8,
    /// True if the total is at least the Leadership.
    pub passed: bool,
}

/// Takes a Leadership test for a unit whose best Leadership is `leadership` (7 for 7+).
pub fn leadership_test(rng: &mut GameRng, leadership: u8) -> LeadershipTest {
    leadership_test_on(rng, leadership, 2)
}

/// A Leadership test taken on `dice` D6 (2, or 3 where a rule says so: Tyranids' Synapse);
/// the total of every die against `leadership`.
pub fn leadership_test_on(rng: &mut GameRng, leadership: u8, dice: u8) -> LeadershipTest {
    let two = [rng.d6(), rng.d6()];
    let third = (dice >= 3).then(|| rng.d6());
    let total = two[0] + two[1] + third.unwrap_or(0);
    LeadershipTest {
        dice: two,
        third,
        total,
        passed: total >= leadership,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d6_is_uniform_and_stable() {
        let mut rng = GameRng::seeded(7);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[usize::from(rng.d6() - 1)] += 1;
        }
        for c in counts {
            assert!((9_400..10_600).contains(&c), "{counts:?}");
        }
        let a: Vec<u8> = (0..20).map(|_| GameRng::seeded(99).d6()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
    }

    #[test]
    fn resume_continues_the_stream() {
        let mut rng = GameRng::seeded(5);
        for _ in 0..17 {
            rng.d6();
        }
        let mut resumed = GameRng::resume(5, rng.draws());
        for _ in 0..10 {
            assert_eq!(rng.d6(), resumed.d6());
        }
    }

    #[test]
    fn scripted_faces_come_first() {
        let mut rng = GameRng::scripted(&[3, 6]);
        assert_eq!(rng.d66(), 36);
    }
}
