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

/// One Core Stratagem as an edition prints it: its name, cost, timing and reach. Each
/// edition's set is data ([`TENTH_CORE_STRATAGEMS`], [`ELEVENTH_CORE_STRATAGEMS`]) that the
/// engine reads through [`crate::rules::Edition::core_stratagems`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CoreStratagemTerms {
    /// Which Stratagem (the engine's name for its effect).
    pub stratagem: Stratagem,
    /// Its printed name in this edition ("Grenade" in 10th is "Explosives" in 11th).
    pub name: &'static str,
    /// Command points.
    pub cost: u32,
    /// The phases it is used in.
    pub phases: &'static [Phase],
    /// In whose turn.
    pub turn: Turn,
    /// How far the unit may be from its target (inches), where the Stratagem has a reach.
    pub range_inches: Option<f32>,
    /// Keywords one of which the unit needs (Tank Shock: VEHICLE; Crushing Impact: MONSTER or
    /// VEHICLE); empty for none.
    pub keywords: &'static [&'static str],
    /// Its dice that roll this or less inflict a mortal wound on the user's own unit
    /// (Crushing Impact: each 1).
    pub own_mortal_wound_up_to: Option<u8>,
}

use super::constants::{
    FIRE_OVERWATCH_RANGE_INCHES, GRENADE_RANGE_INCHES, HEROIC_INTERVENTION_RANGE_INCHES,
};
use Phase::{Charge, Command, Fight, Movement, Shooting};

const ALL_PHASES: &[Phase] = &[Command, Movement, Shooting, Charge, Fight];

const fn terms(
    stratagem: Stratagem,
    name: &'static str,
    cost: u32,
    phases: &'static [Phase],
    turn: Turn,
) -> CoreStratagemTerms {
    CoreStratagemTerms {
        stratagem,
        name,
        cost,
        phases,
        turn,
        range_inches: None,
        keywords: &[],
        own_mortal_wound_up_to: None,
    }
}

/// The 10th edition Core Stratagems (Core Rules: Core Stratagems).
pub const TENTH_CORE_STRATAGEMS: &[CoreStratagemTerms] = &[
    terms(
        Stratagem::CommandReroll,
        "Command Re-roll",
        1,
        ALL_PHASES,
        Turn::Either,
    ),
    terms(
        Stratagem::CounterOffensive,
        "Counter-offensive",
        2,
        &[Fight],
        Turn::Either,
    ),
    terms(
        Stratagem::EpicChallenge,
        "Epic Challenge",
        1,
        &[Fight],
        Turn::Either,
    ),
    terms(
        Stratagem::InsaneBravery,
        "Insane Bravery",
        1,
        &[Command],
        Turn::Own,
    ),
    CoreStratagemTerms {
        range_inches: Some(GRENADE_RANGE_INCHES),
        keywords: &["GRENADES"],
        ..terms(Stratagem::Grenade, "Grenade", 1, &[Shooting], Turn::Own)
    },
    CoreStratagemTerms {
        keywords: &["VEHICLE"],
        ..terms(Stratagem::TankShock, "Tank Shock", 1, &[Charge], Turn::Own)
    },
    terms(
        Stratagem::RapidIngress,
        "Rapid Ingress",
        1,
        &[Movement],
        Turn::Opponent,
    ),
    CoreStratagemTerms {
        range_inches: Some(FIRE_OVERWATCH_RANGE_INCHES),
        ..terms(
            Stratagem::FireOverwatch,
            "Fire Overwatch",
            1,
            &[Movement, Charge],
            Turn::Opponent,
        )
    },
    CoreStratagemTerms {
        keywords: &["INFANTRY"],
        ..terms(
            Stratagem::GoToGround,
            "Go to Ground",
            1,
            &[Shooting],
            Turn::Opponent,
        )
    },
    CoreStratagemTerms {
        keywords: &["SMOKE"],
        ..terms(
            Stratagem::Smokescreen,
            "Smokescreen",
            1,
            &[Shooting],
            Turn::Opponent,
        )
    },
    CoreStratagemTerms {
        range_inches: Some(HEROIC_INTERVENTION_RANGE_INCHES),
        ..terms(
            Stratagem::HeroicIntervention,
            "Heroic Intervention",
            2,
            &[Charge],
            Turn::Opponent,
        )
    },
];

/// The 11th edition Core Stratagems (11th Core Rules 15; shared/RULES-11e.md, Core
/// Stratagems): Grenade renamed Explosives, Tank Shock renamed Crushing Impact and open to
/// MONSTERs, Counteroffensive only in the opponent's Fight phase, Fire Overwatch only in the
/// opponent's Movement phase, Heroic Intervention 1CP within 12", and no Go to Ground (Hidden
/// replaces it).
pub const ELEVENTH_CORE_STRATAGEMS: &[CoreStratagemTerms] = &[
    terms(
        Stratagem::CommandReroll,
        "Command Re-roll",
        1,
        ALL_PHASES,
        Turn::Either,
    ),
    terms(
        Stratagem::CounterOffensive,
        "Counteroffensive",
        2,
        &[Fight],
        Turn::Opponent,
    ),
    terms(
        Stratagem::EpicChallenge,
        "Epic Challenge",
        1,
        &[Fight],
        Turn::Either,
    ),
    terms(
        Stratagem::InsaneBravery,
        "Insane Bravery",
        1,
        &[Command],
        Turn::Own,
    ),
    CoreStratagemTerms {
        range_inches: Some(GRENADE_RANGE_INCHES),
        keywords: &["EXPLOSIVES", "GRENADES"],
        ..terms(Stratagem::Grenade, "Explosives", 1, &[Shooting], Turn::Own)
    },
    CoreStratagemTerms {
        keywords: &["MONSTER", "VEHICLE"],
        own_mortal_wound_up_to: Some(1),
        ..terms(
            Stratagem::TankShock,
            "Crushing Impact",
            1,
            &[Charge],
            Turn::Own,
        )
    },
    terms(
        Stratagem::RapidIngress,
        "Rapid Ingress",
        1,
        &[Movement],
        Turn::Opponent,
    ),
    CoreStratagemTerms {
        range_inches: Some(FIRE_OVERWATCH_RANGE_INCHES),
        ..terms(
            Stratagem::FireOverwatch,
            "Fire Overwatch",
            1,
            &[Movement],
            Turn::Opponent,
        )
    },
    CoreStratagemTerms {
        keywords: &["SMOKE"],
        ..terms(
            Stratagem::Smokescreen,
            "Smokescreen",
            1,
            &[Shooting],
            Turn::Opponent,
        )
    },
    CoreStratagemTerms {
        range_inches: Some(ELEVENTH_HEROIC_INTERVENTION_RANGE_INCHES),
        ..terms(
            Stratagem::HeroicIntervention,
            "Heroic Intervention",
            1,
            &[Charge],
            Turn::Opponent,
        )
    },
];

/// 11th edition Heroic Intervention: a unit within this of an enemy unit (inches; 11th Core
/// Rules 15.11).
pub const ELEVENTH_HEROIC_INTERVENTION_RANGE_INCHES: f32 = 12.0;

impl Stratagem {
    /// Its terms under `edition`, or None when that edition has no such Core Stratagem (Go to
    /// Ground under 11th).
    pub fn terms_in(self, edition: &super::Edition) -> Option<&'static CoreStratagemTerms> {
        edition.core_stratagems.iter().find(|t| t.stratagem == self)
    }

    /// Command points under `edition` (the 10th cost when the edition has none).
    pub fn cost_in(self, edition: &super::Edition) -> u32 {
        self.terms_in(edition).map_or(self.cost(), |t| t.cost)
    }

    /// Its printed name under `edition`.
    pub fn name_in(self, edition: &super::Edition) -> &'static str {
        self.terms_in(edition).map_or(self.name(), |t| t.name)
    }

    /// Whether the Stratagem exists under `edition` and may be used in `phase` by `player`
    /// when `active` is the player whose turn it is.
    pub fn usable_in_edition(
        self,
        edition: &super::Edition,
        phase: Phase,
        player: u8,
        active: u8,
    ) -> bool {
        self.terms_in(edition).is_some_and(|t| {
            t.phases.contains(&phase)
                && match t.turn {
                    Turn::Own => player == active,
                    Turn::Opponent => player != active,
                    Turn::Either => true,
                }
        })
    }

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

    /// Its 10th edition terms ([`TENTH_CORE_STRATAGEMS`], which holds every Core Stratagem).
    fn tenth_terms(self) -> &'static CoreStratagemTerms {
        TENTH_CORE_STRATAGEMS
            .iter()
            .find(|t| t.stratagem == self)
            .expect("every Core Stratagem is in the 10th edition table")
    }

    /// Command points the Stratagem costs (10th edition Core Stratagems).
    pub fn cost(self) -> u32 {
        self.tenth_terms().cost
    }

    /// The phases it can be used in and in whose turn (10th edition).
    pub fn timing(self) -> (&'static [Phase], Turn) {
        let t = self.tenth_terms();
        (t.phases, t.turn)
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

    /// The Stratagem's name as printed ("Command Re-roll"; 10th edition's name).
    pub fn name(self) -> &'static str {
        self.tenth_terms().name
    }

    /// Whether the Stratagem may be used in `phase` by `player` when `active` is the player
    /// whose turn it is.
    pub fn usable_in(self, phase: Phase, player: u8, active: u8) -> bool {
        self.usable_in_edition(&super::constants::TENTH, phase, player, active)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tenth_edition_table_is_the_stratagems_own_terms() {
        let t = &crate::rules::constants::TENTH;
        for s in Stratagem::ALL {
            let terms = s.terms_in(t).expect("every 10th Core Stratagem");
            assert_eq!((terms.name, terms.cost), (s.name(), s.cost()));
            assert_eq!(terms.phases, s.timing().0);
        }
        let e = &crate::rules::constants::ELEVENTH;
        assert!(Stratagem::GoToGround.terms_in(e).is_none());
        assert_eq!(Stratagem::HeroicIntervention.cost_in(e), 1);
        assert_eq!(Stratagem::Grenade.name_in(e), "Explosives");
        assert!(!Stratagem::CounterOffensive.usable_in_edition(e, Phase::Fight, 1, 1));
        assert!(Stratagem::CounterOffensive.usable_in_edition(t, Phase::Fight, 1, 1));
        assert!(!Stratagem::FireOverwatch.usable_in_edition(e, Phase::Charge, 2, 1));
    }

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
