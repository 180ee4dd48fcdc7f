//! The Core Stratagems: their command point costs and when each may be used.
//!
//! Core Rules: Stratagems (each Stratagem at most once per phase; a Battle-shocked unit cannot
//! be affected by its own player's Stratagems). Costs are the 10th edition ones; an edition change
//! is a change to [`Stratagem::cost`] only.

use serde::{Deserialize, Serialize};

use super::phase::Phase;

/// A Core Stratagem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Stratagem {
    /// Re-roll one Hit roll, Wound roll, Damage roll, Advance or Charge roll, or saving throw.
    CommandReroll,
    /// After an enemy unit has fought, one of your units fights next.
    CounterOffensive,
    /// A CHARACTER's melee attacks gain PRECISION.
    EpicChallenge,
    /// A unit automatically passes its Battle-shock test.
    InsaneBravery,
    /// A GRENADES unit rolls six D6 at an enemy unit within 8": each 4+ is a mortal wound.
    Grenade,
    /// After a VEHICLE ends a charge move: D6 equal to its Toughness, each 5+ a mortal wound.
    TankShock,
    /// At the end of the opponent's Movement phase, a Reserves unit arrives.
    RapidIngress,
    /// In the opponent's Movement or Charge phase, shoot at an enemy unit, hitting only on 6s.
    FireOverwatch,
    /// An INFANTRY unit targeted by shooting gains a 6+ invulnerable save and the Benefit of
    /// Cover.
    GoToGround,
    /// A SMOKE unit targeted by shooting gains the Benefit of Cover and Stealth.
    Smokescreen,
    /// In the opponent's Charge phase, after an enemy charge move, a unit within 6" charges it.
    HeroicIntervention,
}

/// Whose turn a Stratagem is used in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// The user's own turn.
    Own,
    /// The opponent's turn.
    Opponent,
    /// Either player's turn.
    Either,
}

impl Stratagem {
    /// Every Core Stratagem.
    pub const ALL: [Stratagem; 11] = [
        Stratagem::CommandReroll,
        Stratagem::CounterOffensive,
        Stratagem::EpicChallenge,
        Stratagem::InsaneBravery,
        Stratagem::Grenade,
        Stratagem::TankShock,
        Stratagem::RapidIngress,
        Stratagem::FireOverwatch,
        Stratagem::GoToGround,
        Stratagem::Smokescreen,
        Stratagem::HeroicIntervention,
    ];

    /// Command points the Stratagem costs (10th edition Core Stratagems).
    pub fn cost(self) -> u32 {
        match self {
            Stratagem::CounterOffensive | Stratagem::HeroicIntervention => 2,
            _ => 1,
        }
    }

    /// The phases it can be used in and in whose turn.
    pub fn timing(self) -> (&'static [Phase], Turn) {
        use Phase::*;
        match self {
            Stratagem::CommandReroll => {
                (&[Command, Movement, Shooting, Charge, Fight], Turn::Either)
            }
            Stratagem::CounterOffensive | Stratagem::EpicChallenge => (&[Fight], Turn::Either),
            Stratagem::InsaneBravery => (&[Command], Turn::Own),
            Stratagem::Grenade => (&[Shooting], Turn::Own),
            Stratagem::TankShock => (&[Charge], Turn::Own),
            Stratagem::RapidIngress => (&[Movement], Turn::Opponent),
            Stratagem::FireOverwatch => (&[Movement, Charge], Turn::Opponent),
            Stratagem::GoToGround | Stratagem::Smokescreen => (&[Shooting], Turn::Opponent),
            Stratagem::HeroicIntervention => (&[Charge], Turn::Opponent),
        }
    }

    /// Whether it is aimed at an enemy unit (Grenade, Tank Shock, Fire Overwatch, Heroic
    /// Intervention): its command names a target.
    pub fn needs_target(self) -> bool {
        matches!(
            self,
            Stratagem::Grenade
                | Stratagem::TankShock
                | Stratagem::FireOverwatch
                | Stratagem::HeroicIntervention
        )
    }

    /// The Stratagem's name as printed ("Command Re-roll").
    pub fn name(self) -> &'static str {
        match self {
            Stratagem::CommandReroll => "Command Re-roll",
            Stratagem::CounterOffensive => "Counter-offensive",
            Stratagem::EpicChallenge => "Epic Challenge",
            Stratagem::InsaneBravery => "Insane Bravery",
            Stratagem::Grenade => "Grenade",
            Stratagem::TankShock => "Tank Shock",
            Stratagem::RapidIngress => "Rapid Ingress",
            Stratagem::FireOverwatch => "Fire Overwatch",
            Stratagem::GoToGround => "Go to Ground",
            Stratagem::Smokescreen => "Smokescreen",
            Stratagem::HeroicIntervention => "Heroic Intervention",
        }
    }

    /// Whether the Stratagem may be used in `phase` by `player` when `active` is the player
    /// whose turn it is.
    pub fn usable_in(self, phase: Phase, player: u8, active: u8) -> bool {
        let (phases, turn) = self.timing();
        phases.contains(&phase)
            && match turn {
                Turn::Own => player == active,
                Turn::Opponent => player != active,
                Turn::Either => true,
            }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_stratagem_costs() {
        let two: Vec<_> = Stratagem::ALL.iter().filter(|s| s.cost() == 2).collect();
        assert_eq!(
            two,
            [&Stratagem::CounterOffensive, &Stratagem::HeroicIntervention]
        );
        assert!(Stratagem::GoToGround.usable_in(Phase::Shooting, 2, 1));
        assert!(!Stratagem::GoToGround.usable_in(Phase::Shooting, 1, 1));
        assert!(!Stratagem::Grenade.usable_in(Phase::Fight, 1, 1));
    }
}
