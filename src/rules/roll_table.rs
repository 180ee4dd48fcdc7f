//! Roll tables: a D6 read against bands of results, each band with its effect ("2-5: one
//! mortal wound; 6: D3 mortal wounds").
//!
//! Rules Commentary: Dice Result (a result the table does not list has no effect; nothing
//! else is rolled for it).

use std::ops::RangeInclusive;

use super::rng::GameRng;

/// A table of D6 results: each band of unmodified results and its effect. Results outside
/// every band do nothing (Rules Commentary: Dice Result).
#[derive(Debug, Clone, PartialEq)]
pub struct RollTable<T> {
    /// The bands, each a range of results (1-6) and the effect of rolling one of them. The
    /// first band holding a result is the one that applies.
    pub bands: Vec<(RangeInclusive<u8>, T)>,
}

impl<T> RollTable<T> {
    /// A table from its bands.
    pub fn new(bands: Vec<(RangeInclusive<u8>, T)>) -> Self {
        Self { bands }
    }

    /// The effect of the result `roll`: None when no band lists it, which means no effect
    /// (Rules Commentary: Dice Result).
    pub fn lookup(&self, roll: u8) -> Option<&T> {
        self.bands
            .iter()
            .find(|(band, _)| band.contains(&roll))
            .map(|(_, effect)| effect)
    }

    /// Rolls one D6 on the table: the result and its effect, if the table lists one.
    pub fn roll(&self, rng: &mut GameRng) -> (u8, Option<&T>) {
        let roll = rng.d6();
        (roll, self.lookup(roll))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_band_holding_a_result_applies() {
        let t = RollTable::new(vec![(2..=5, "low"), (5..=6, "high")]);
        assert_eq!(t.lookup(1), None);
        assert_eq!(t.lookup(2), Some(&"low"));
        assert_eq!(t.lookup(5), Some(&"low"));
        assert_eq!(t.lookup(6), Some(&"high"));
    }
}
