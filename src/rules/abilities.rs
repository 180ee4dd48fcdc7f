//! Core abilities printed on datasheets, as rules the engine applies rather than text.
//!
//! Core Rules: Abilities (Core abilities: Deadly Demise, Deep Strike, Feel No Pain, Fights
//! First, Firing Deck, Infiltrators, Leader, Lone Operative, Scouts, Stealth); Rules
//! Commentary: Duplicated Core Abilities, With the 'X' Ability; shared/RULES.md.

use serde::{Deserialize, Serialize};

use super::dice::DiceExpr;
use super::phase::Phase;

/// The range of X in Feel No Pain X+ (a 1 never ignores a wound; 7+ never would).
pub const FEEL_NO_PAIN_ROLLS: std::ops::RangeInclusive<u8> = 2..=6;
/// Largest Firing Deck X (datasheets print up to about 12, below their transport capacity).
pub const MAX_FIRING_DECK: u32 = 30;

/// One core ability of a datasheet. Duplicates do not stack: two instances of Stealth still
/// give -1 to hit; with several values (Scouts 6" and Scouts 9") the owner uses one
/// (the engine takes the lowest for Scouts, as the Rules Commentary's example does).
///
/// Data is held to the limits above ([`FEEL_NO_PAIN_ROLLS`], [`MAX_FIRING_DECK`]; Scouts to a
/// positive, finite distance; Deadly Demise's dice to those of every dice expression): reading
/// one past a limit is an error that names it (see [`CoreAbility::check`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "CoreAbilityData")]
pub enum CoreAbility {
    /// Deadly Demise X: when a model of the unit is destroyed, roll a D6; on a 6 each unit
    /// within 6" suffers X mortal wounds.
    DeadlyDemise(DiceExpr),
    /// Deep Strike: can start in Reserves and arrive more than 9" from every enemy model.
    DeepStrike,
    /// Feel No Pain X+: a D6 per wound lost; each roll of X or more ignores that wound.
    FeelNoPain(u8),
    /// Fights First: the unit fights in the Fights First step.
    FightsFirst,
    /// Firing Deck X: when the TRANSPORT shoots, up to X embarked models may shoot with it.
    FiringDeck(u32),
    /// Infiltrators: set up anywhere more than 9" from the enemy deployment zone and every
    /// enemy model.
    Infiltrators,
    /// Leader: can be attached to a Bodyguard unit (the datasheet's `leader_of`).
    Leader,
    /// Lone Operative: unless part of an Attached unit, cannot be targeted by ranged attacks
    /// from more than 12" away.
    LoneOperative,
    /// Scouts X": a Normal move of up to X inches after deployment, before the first turn.
    Scouts(f32),
    /// Stealth: ranged attacks against a unit whose models all have it get -1 to hit.
    Stealth,
    /// Support (11th edition): can be attached, beside a Leader, to a Bodyguard unit (the
    /// datasheet's `leader_of`); one Leader and one Support make an Attached unit (11th Core
    /// Rules 19.01, 24.34). No 10th datasheet has it.
    Support,
}

/// [`CoreAbility`] as data writes it, before [`CoreAbility::check`].
#[derive(Deserialize)]
#[serde(rename = "CoreAbility")]
enum CoreAbilityData {
    DeadlyDemise(DiceExpr),
    DeepStrike,
    FeelNoPain(u8),
    FightsFirst,
    FiringDeck(u32),
    Infiltrators,
    Leader,
    LoneOperative,
    Scouts(f32),
    Stealth,
    Support,
}

impl TryFrom<CoreAbilityData> for CoreAbility {
    type Error = String;

    /// The ability, if its number is within the limits ([`CoreAbility::check`]).
    fn try_from(data: CoreAbilityData) -> Result<Self, String> {
        use CoreAbilityData as D;
        let ability = match data {
            D::DeadlyDemise(x) => Self::DeadlyDemise(x),
            D::DeepStrike => Self::DeepStrike,
            D::FeelNoPain(x) => Self::FeelNoPain(x),
            D::FightsFirst => Self::FightsFirst,
            D::FiringDeck(x) => Self::FiringDeck(x),
            D::Infiltrators => Self::Infiltrators,
            D::Leader => Self::Leader,
            D::LoneOperative => Self::LoneOperative,
            D::Scouts(x) => Self::Scouts(x),
            D::Stealth => Self::Stealth,
            D::Support => Self::Support,
        };
        ability.check()?;
        Ok(ability)
    }
}

impl CoreAbility {
    /// Ok when the ability's number is within the limits data may use
    /// ([`FEEL_NO_PAIN_ROLLS`], [`MAX_FIRING_DECK`], a positive and finite Scouts distance);
    /// otherwise what is wrong, naming the limit.
    pub fn check(&self) -> Result<(), String> {
        match self {
            CoreAbility::FeelNoPain(x) if !FEEL_NO_PAIN_ROLLS.contains(x) => Err(format!(
                "Feel No Pain {x}+ is outside the limits: {}+ to {}+",
                FEEL_NO_PAIN_ROLLS.start(),
                FEEL_NO_PAIN_ROLLS.end()
            )),
            CoreAbility::FiringDeck(x) if *x > MAX_FIRING_DECK => Err(format!(
                "Firing Deck {x} is over the limit: at most Firing Deck {MAX_FIRING_DECK}"
            )),
            CoreAbility::Scouts(x) if !(*x > 0.0 && x.is_finite()) => {
                Err(format!("Scouts {x}\" must be a positive, finite distance"))
            }
            CoreAbility::DeadlyDemise(x) if x.max() < 1 => Err(format!(
                "Deadly Demise {x} must inflict at least 1 mortal wound"
            )),
            _ => Ok(()),
        }
    }

    /// The core ability an ability's printed name states, if it is one: "Deadly Demise D3",
    /// "Feel No Pain 5+", "Firing Deck 12", "Scouts 6\"", "Stealth" (case-insensitive). A
    /// number past its limit ([`CoreAbility::check`]) is not read as the ability.
    pub fn from_name(name: &str) -> Option<CoreAbility> {
        Self::from_name_unchecked(name).filter(|a| a.check().is_ok())
    }

    /// [`CoreAbility::from_name`] before the limits are checked.
    fn from_name_unchecked(name: &str) -> Option<CoreAbility> {
        let name = name.trim();
        let lower = name.to_ascii_lowercase();
        let rest = |prefix: &str| -> Option<&str> {
            lower
                .starts_with(prefix)
                .then(|| name[prefix.len()..].trim())
        };
        let number = |s: &str| -> Option<f32> {
            s.trim_end_matches(['"', '+', '\u{201d}'])
                .trim_end_matches("inches")
                .trim()
                .parse()
                .ok()
        };
        match lower.as_str() {
            "deep strike" => return Some(CoreAbility::DeepStrike),
            "fights first" => return Some(CoreAbility::FightsFirst),
            "infiltrators" => return Some(CoreAbility::Infiltrators),
            "leader" => return Some(CoreAbility::Leader),
            "lone operative" => return Some(CoreAbility::LoneOperative),
            "stealth" => return Some(CoreAbility::Stealth),
            "support" => return Some(CoreAbility::Support),
            _ => {}
        }
        if let Some(x) = rest("deadly demise") {
            return x.parse::<DiceExpr>().ok().map(CoreAbility::DeadlyDemise);
        }
        if let Some(x) = rest("feel no pain") {
            return number(x)
                .filter(|v| v.fract() == 0.0 && (0.0..=255.0).contains(v))
                .map(|v| CoreAbility::FeelNoPain(v as u8));
        }
        if let Some(x) = rest("firing deck") {
            return number(x)
                .filter(|v| v.fract() == 0.0 && *v >= 0.0)
                .map(|v| CoreAbility::FiringDeck(v as u32));
        }
        if let Some(x) = rest("scouts") {
            return number(x).map(CoreAbility::Scouts);
        }
        None
    }

    /// True when both are the same ability, whatever their values.
    pub fn same_kind(&self, other: &CoreAbility) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
    }
}

/// A datasheet ability that changes the Objective Control (OC) of models, applied by the
/// engine in the core modifier order: set first (Battle-shocked: 0), then halve, then add
/// (Core Rules: Objective Markers, Battle-shock; Rules Commentary: Modifiers, the example of
/// an Intercessor led by an Ancient and engaged with Ripper Swarms).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ObjectiveControlEffect {
    /// While a model with this ability leads a unit, the models of that Attached unit (the
    /// Leader included) get +X OC, like an Ancient's banner (+1).
    WhileLeadingPlus(i32),
    /// While an enemy unit is within Engagement Range of this unit, the OC of that enemy
    /// unit's models is halved (rounded up), like the Ripper Swarms' ability. Several such
    /// units halve it once.
    HalveEngagedEnemies,
}

/// An ability that happens by itself at the start or the end of a phase, e.g. the Trukk's
/// Grot Riggers (start of your Command phase: regain 1 lost wound).
///
/// Rules Commentary: Start of the battle round/turn/phase and The Turn/the Phase: a rule for
/// "the start of the Command phase" or "the end of the Movement phase", without "your" or
/// "the opponent's", happens in both players' phases ([`Whose::Any`]); "your" limits it to
/// the owner's ([`Whose::Own`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimedAbility {
    /// The ability's name as printed (it is also listed under `abilities` for its text).
    pub name: String,
    /// When it happens.
    pub when: Timing,
    /// What it does.
    pub effect: Effect,
}

/// When a [`TimedAbility`] happens: the start or end of a phase, in whose turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timing {
    /// The start or the end of the phase.
    pub edge: Edge,
    /// The phase.
    pub phase: Phase,
    /// The owner's phase only, or both players' (Rules Commentary: The Turn/the Phase).
    pub whose: Whose,
}

/// The start or the end of a phase (Rules Commentary: Start of the battle round/turn/phase).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Edge {
    /// As the phase starts, before anything else is done in it.
    Start,
    /// As the phase ends, after everything else in it.
    End,
}

/// In whose turn a [`TimedAbility`] happens (Rules Commentary: The Turn/the Phase).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Whose {
    /// Only in the phase of the player who owns the unit ("your Command phase").
    Own,
    /// In either player's phase ("the Command phase").
    Any,
}

impl Timing {
    /// True when the ability of a unit owned by `owner` happens at `edge` of `phase` in
    /// `active`'s turn.
    pub fn applies(&self, edge: Edge, phase: Phase, owner: u8, active: u8) -> bool {
        self.edge == edge
            && self.phase == phase
            && match self.whose {
                Whose::Own => owner == active,
                Whose::Any => true,
            }
    }
}

/// What a [`TimedAbility`] does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Effect {
    /// Each model of the unit regains up to this many lost wounds (never above its Wounds).
    RegainWounds(u8),
}

/// What happens when a model of the unit is destroyed, before it is removed (a datasheet
/// ability such as the Hellblasters' For the Chapter!).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum DestroyedAbility {
    /// Roll a D6: on this or more the destroyed model shoots once more before it is removed,
    /// after the attacking unit has finished its attacks, passing its HAZARDOUS tests
    /// automatically. It shoots with the normal attack sequence (Rules Commentary: Shoot
    /// Again, the For the Chapter! example).
    ShootBeforeRemoval(u8),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_names_become_core_abilities() {
        assert_eq!(
            CoreAbility::from_name("Deadly Demise D3"),
            Some(CoreAbility::DeadlyDemise("D3".parse::<DiceExpr>().unwrap()))
        );
        assert_eq!(
            CoreAbility::from_name("Firing Deck 12"),
            Some(CoreAbility::FiringDeck(12))
        );
        assert_eq!(
            CoreAbility::from_name("Feel No Pain 5+"),
            Some(CoreAbility::FeelNoPain(5))
        );
        assert_eq!(
            CoreAbility::from_name("Scouts 6\""),
            Some(CoreAbility::Scouts(6.0))
        );
        assert_eq!(
            CoreAbility::from_name("stealth"),
            Some(CoreAbility::Stealth)
        );
        assert_eq!(CoreAbility::from_name("Oath of Moment"), None);
        // Past a limit, a printed number is not read as the ability.
        assert_eq!(CoreAbility::from_name("Feel No Pain 1+"), None);
        assert_eq!(CoreAbility::from_name("Feel No Pain 300+"), None);
        assert_eq!(CoreAbility::from_name("Firing Deck 4000000000"), None);
        assert_eq!(CoreAbility::from_name("Scouts inf\""), None);
        assert_eq!(CoreAbility::from_name("Deadly Demise 20D6"), None);
        assert_eq!(CoreAbility::from_name("Deadly Demise"), None);
    }

    #[test]
    fn own_timing_is_the_owners_phase_and_any_is_both() {
        let own = Timing {
            edge: Edge::Start,
            phase: Phase::Command,
            whose: Whose::Own,
        };
        assert!(own.applies(Edge::Start, Phase::Command, 2, 2));
        assert!(!own.applies(Edge::Start, Phase::Command, 2, 1));
        assert!(!own.applies(Edge::End, Phase::Command, 2, 2));
        assert!(!own.applies(Edge::Start, Phase::Movement, 2, 2));
        let any = Timing {
            whose: Whose::Any,
            ..own
        };
        assert!(any.applies(Edge::Start, Phase::Command, 2, 1));
        assert!(any.applies(Edge::Start, Phase::Command, 2, 2));
    }
}
