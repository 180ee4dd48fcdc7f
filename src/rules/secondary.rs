//! Secondary missions as data: the deck, its cards and how a player uses them (Fixed or
//! Tactical).
//!
//! Chapter Approved 2025-26 Mission Deck: Secondary Missions (Fixed and Tactical), New Orders,
//! the secondary VP caps. The cards' mechanics are written in the project's own words in
//! `scenes/missions/secondary-deck-2025.ron`; the engine evaluates each card's [`CardKind`].

use serde::{Deserialize, Serialize};

use super::mission::MissionAction;

/// A secondary mission deck and the rules for using it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "SecondaryDeck", deny_unknown_fields)]
pub struct SecondaryDeck {
    /// Deck name.
    pub name: String,
    /// Where its mechanics come from.
    #[serde(default)]
    pub source: String,
    /// Active cards a Tactical player holds (draws up to at the start of their Command phase).
    pub tactical_hand: usize,
    /// CP gained (once per turn) by a Tactical player who discards active cards at the end of
    /// their own turn.
    pub discard_cp: u32,
    /// CP cost of New Orders (discard an active card and draw a new one, at the end of the
    /// player's Command phase, once per turn).
    pub new_orders_cp: u32,
    /// Most VP one Fixed card scores in the battle.
    pub fixed_card_cap: u32,
    /// The cards.
    pub cards: Vec<SecondaryCard>,
}

impl SecondaryDeck {
    /// The card named `name` (case-insensitive).
    pub fn card(&self, name: &str) -> Option<&SecondaryCard> {
        self.cards
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(name))
    }

    /// The cards a player may choose as Fixed: those with the Fixed symbol, less (in
    /// tournament play) those that may not be Fixed in tournaments (No Prisoners). Names as
    /// printed.
    pub fn fixed_choices(&self, tournament: bool) -> Vec<String> {
        self.cards
            .iter()
            .filter(|c| c.fixed && !(tournament && c.not_fixed_in_tournaments))
            .map(|c| c.name.clone())
            .collect()
    }

    /// Checks a player's choice: Tactical always stands; Fixed needs two different cards of
    /// this deck with the Fixed symbol (in tournament play, not one barred there).
    ///
    /// # Errors
    /// What is wrong, naming the card ("'Sabotage' has no Fixed symbol: ...").
    pub fn check_mode(&self, mode: &SecondaryMode, tournament: bool) -> Result<(), String> {
        let SecondaryMode::Fixed(a, b) = mode else {
            return Ok(());
        };
        for name in [a, b] {
            match self.card(name) {
                None => {
                    return Err(format!(
                        "'{name}' is not a card of the deck '{}'",
                        self.name
                    ));
                }
                Some(c) if !c.fixed => {
                    return Err(format!(
                        "'{name}' has no Fixed symbol: it can only be drawn in Tactical play"
                    ));
                }
                Some(c) if tournament && c.not_fixed_in_tournaments => {
                    return Err(format!(
                        "'{name}' cannot be a Fixed card in tournament play"
                    ));
                }
                Some(_) => {}
            }
        }
        if a.eq_ignore_ascii_case(b) {
            return Err("the two Fixed cards must differ".into());
        }
        Ok(())
    }
}

/// One secondary mission card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Card", deny_unknown_fields)]
pub struct SecondaryCard {
    /// Card name as printed.
    pub name: String,
    /// What it asks, in the project's own words.
    #[serde(default)]
    pub summary: String,
    /// It carries the Fixed symbol: a player may choose it as one of two Fixed cards.
    #[serde(default)]
    pub fixed: bool,
    /// It may not be chosen as Fixed in tournament play (No Prisoners).
    #[serde(default)]
    pub not_fixed_in_tournaments: bool,
    /// What happens when a Tactical player draws it.
    #[serde(default)]
    pub when_drawn: WhenDrawn,
    /// What scores, with its numbers.
    pub kind: CardKind,
}

/// A card's "when drawn" rule (Tactical play only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum WhenDrawn {
    /// Nothing happens.
    #[default]
    Nothing,
    /// In battle round 1 the card is shuffled back and another drawn.
    RedrawInFirstRound,
    /// In battle round 1 the player may shuffle it back and draw another, or keep it (their
    /// choice: `Command::RedrawSecondary`; kept unless they send it back).
    MayRedrawInFirstRound,
    /// The player may shuffle it back and draw another when no enemy unit on the battlefield
    /// qualifies for it, or keep it (their choice, as above).
    MayRedrawWithoutTargets,
    /// The player may shuffle it back and draw another when they have fewer than `units`
    /// units on the battlefield, or keep it (their choice, as above).
    MayRedrawWithFewUnits {
        /// Fewest units needed to keep the card.
        units: usize,
    },
}

/// What a secondary card scores. `Fixed`/`Tactical` numbers differ where the card says so.
/// "Excluding" below means AIRCRAFT and Battle-shocked units never count for presence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum CardKind {
    /// Behind Enemy Lines: end of your turn, units wholly within the enemy zone: one scores
    /// `one`, two or more score `two`.
    BehindEnemyLines {
        /// VP for one unit.
        one: u32,
        /// VP for two or more.
        two: u32,
    },
    /// Storm Hostile Objective: end of your turn, you control an objective the opponent
    /// controlled at the start of the turn; or (from round 2) the opponent controlled none at
    /// the start and you now control one you did not.
    StormHostileObjective {
        /// VP scored.
        vp: u32,
    },
    /// Engage on All Fronts: end of your turn, table quarters holding one of your units wholly
    /// within them and more than `centre_inches` from the centre: VP by number of quarters
    /// (`by_quarters[n - 2]` for n = 2, 3, 4).
    EngageOnAllFronts {
        /// Distance from the centre a unit must keep (inches).
        centre_inches: f32,
        /// VP for 2, 3 and 4 quarters.
        by_quarters: [u32; 3],
    },
    /// Establish Locus: end of your turn, a locus was established this turn (the action) by a
    /// unit within `centre_inches` of the centre (`near_centre` VP) or in the enemy zone
    /// (`enemy_zone` VP).
    EstablishLocus {
        /// Distance from the centre (inches).
        centre_inches: f32,
        /// VP near the centre.
        near_centre: u32,
        /// VP in the enemy zone.
        enemy_zone: u32,
    },
    /// Cleanse: end of your turn, objectives cleansed this turn (the action): one scores `one`,
    /// two or more `two_fixed` (Fixed) or `two_tactical` (Tactical).
    Cleanse {
        /// VP for one objective.
        one: u32,
        /// VP for two or more, Fixed.
        two_fixed: u32,
        /// VP for two or more, Tactical.
        two_tactical: u32,
    },
    /// Assassination. Fixed: each enemy CHARACTER model destroyed scores `big` (Wounds
    /// `big_wounds`+) or `small`. Tactical, end of either turn: an enemy CHARACTER model was
    /// destroyed this turn, or all of them have been: `tactical` VP.
    Assassination {
        /// Wounds characteristic from which a character is big.
        big_wounds: u8,
        /// Fixed VP per big character model.
        big: u32,
        /// Fixed VP per other character model.
        small: u32,
        /// Tactical VP.
        tactical: u32,
    },
    /// No Prisoners: each enemy unit destroyed (Fixed: Bodyguard or non-CHARACTER units only)
    /// scores `vp`, at most `cap` per card (Fixed: per turn).
    NoPrisoners {
        /// VP per unit.
        vp: u32,
        /// Most VP.
        cap: u32,
    },
    /// Cull the Horde: enemy INFANTRY units with a Starting Strength of `strength`+ destroyed.
    /// Fixed: `vp` each; Tactical, end of either turn: one or more this turn, `vp`.
    CullTheHorde {
        /// Starting Strength threshold (models).
        strength: u32,
        /// VP.
        vp: u32,
    },
    /// Bring It Down: enemy MONSTER or VEHICLE units destroyed. Fixed: `base` each, plus
    /// `bonus` for each threshold in `wounds_thresholds` its Starting Strength Wounds reach;
    /// Tactical, end of either turn: one or more this turn, `tactical`.
    BringItDown {
        /// Fixed VP per unit.
        base: u32,
        /// Fixed VP per threshold reached.
        bonus: u32,
        /// Total Wounds thresholds (15 and 20).
        wounds_thresholds: Vec<u32>,
        /// Tactical VP.
        tactical: u32,
    },
    /// Defend Stronghold: end of the opponent's turn, from round 2, you control an objective
    /// in your zone.
    DefendStronghold {
        /// VP scored.
        vp: u32,
    },
    /// Marked for Death: end of either turn, an Alpha target (three enemy units, picked for
    /// the opponent by the engine: their units with the most wounds left) was destroyed this
    /// turn: `alpha` VP; else the Gamma target (the enemy unit with the fewest wounds left,
    /// picked when drawn): `gamma` VP.
    MarkedForDeath {
        /// Alpha targets picked.
        alphas: usize,
        /// VP for an Alpha.
        alpha: u32,
        /// VP for the Gamma.
        gamma: u32,
    },
    /// Secure No Man's Land: end of your turn, No Man's Land objectives you control: one
    /// scores `one`, two or more `two`.
    SecureNoMansLand {
        /// VP for one.
        one: u32,
        /// VP for two or more.
        two: u32,
    },
    /// Sabotage: end of the opponent's turn, your unit completed Sabotage: `vp`, or
    /// `enemy_zone` if it stands in the enemy zone.
    Sabotage {
        /// VP.
        vp: u32,
        /// VP in the enemy zone.
        enemy_zone: u32,
    },
    /// Area Denial: end of your turn, one of your units within `inner_inches` of the centre
    /// and no enemy unit within `inner_inches`: `inner` VP; no enemy within `outer_inches`:
    /// `outer` VP.
    AreaDenial {
        /// Inner radius (inches).
        inner_inches: f32,
        /// Outer radius (inches).
        outer_inches: f32,
        /// VP with no enemy in the inner radius.
        inner: u32,
        /// VP with no enemy in the outer radius.
        outer: u32,
    },
    /// Recover Assets: end of your turn, units that completed Recover Assets this turn: two
    /// score `two`, three `three`.
    RecoverAssets {
        /// VP for two units.
        two: u32,
        /// VP for three.
        three: u32,
    },
    /// A Tempting Target: end of either turn, you control the No Man's Land objective picked
    /// for you by the opponent when drawn (the engine picks the one farthest from your units).
    TemptingTarget {
        /// VP scored.
        vp: u32,
    },
    /// Extend Battle Lines: end of your turn, an objective in your zone and one in No Man's
    /// Land: `both` VP; else one in No Man's Land: `no_mans_land` VP.
    ExtendBattleLines {
        /// VP with both.
        both: u32,
        /// VP with only No Man's Land.
        no_mans_land: u32,
    },
    /// Overwhelming Force: each enemy unit destroyed that started the turn within range of an
    /// objective scores `vp`, at most `cap`.
    OverwhelmingForce {
        /// VP per unit.
        vp: u32,
        /// Most VP.
        cap: u32,
    },
    /// Display of Might: end of your turn, more of your units than the opponent's are wholly
    /// within No Man's Land.
    DisplayOfMight {
        /// VP scored.
        vp: u32,
    },
}

impl CardKind {
    /// The action the card needs a unit to perform, if any.
    pub fn action(&self) -> Option<MissionAction> {
        match self {
            Self::EstablishLocus { .. } => Some(MissionAction::EstablishLocus),
            Self::Cleanse { .. } => Some(MissionAction::Cleanse),
            Self::Sabotage { .. } => Some(MissionAction::Sabotage),
            Self::RecoverAssets { .. } => Some(MissionAction::RecoverAssets),
            _ => None,
        }
    }
}

/// How a player uses the secondary deck (chosen before deployment).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum SecondaryMode {
    /// Draw cards from the shuffled deck (two active at a time), discarding them once
    /// achieved or for CP.
    #[default]
    Tactical,
    /// Two cards with the Fixed symbol, kept all battle.
    Fixed(String, String),
}

impl SecondaryMode {
    /// True for [`SecondaryMode::Tactical`].
    pub fn is_tactical(&self) -> bool {
        *self == Self::Tactical
    }
}
