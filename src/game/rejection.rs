//! Why the battle engine refuses a command: the rule it breaks ([`Rule`]) and what is wrong
//! ([`Rejection`]).

use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};

use crate::rules::stratagem::Stratagem;

/// A rule of the game a refused command breaks: the Core Rules section (or Core Stratagem) that
/// forbids it. Displayed and serialized as its name ("Engagement Range"); [`Rule::name`] gives
/// the same text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Every command names player 1 or 2.
    Players,
    /// A command names a unit of the player's army (or an embarked model of it).
    Units,
    /// A target is an enemy unit on the battlefield.
    Targets,
    /// The order of play: stages, phases, whose turn it is, what must happen first.
    Sequencing,
    /// Declared attacks wait for the defender's answer (Stratagems or Pass) first.
    Reactions,
    /// Deploy Armies: wholly within the player's deployment zone, players alternating.
    Deployment,
    /// Infiltrators: set up more than 9" from the enemy deployment zone and every enemy model.
    Infiltrators,
    /// Reserves: declared before deployment (Strategic Reserves at most 25% of the points; all
    /// Reserves at most half the units and points), arriving from round 2, destroyed if still
    /// waiting at the end of round 3.
    Reserves,
    /// Deep Strike: only units with the ability; set up more than 9" from every enemy model.
    DeepStrike,
    /// Strategic Reserves: arriving wholly within 6" of a battlefield edge.
    StrategicReserves,
    /// Scouts: the move before the first battle round.
    Scouts,
    /// Setting models up (placements for every model, on the table).
    SetUp,
    /// Moving: distance, paths and the models that may move.
    Movement,
    /// The Movement phase: which units may move and how (once per phase).
    MovementPhase,
    /// A model cannot end a move (or be set up) beyond the battlefield edge.
    BattlefieldEdge,
    /// Terrain: walls, climbing, where a model may stand.
    Terrain,
    /// Engagement Range: moving within it of enemy models, and what an engaged unit may do.
    EngagementRange,
    /// Unit Coherency: each model within 2" horizontally (and 5" vertically) of its unit.
    UnitCoherency,
    /// Fall Back: only a unit within Engagement Range of an enemy unit Falls Back.
    FallBack,
    /// Transports: embarking, disembarking, capacity and Firing Deck.
    Transports,
    /// The Shooting phase: who may shoot, with which weapons, at what.
    ShootingPhase,
    /// The Charge phase: declaring charges and charge moves.
    ChargePhase,
    /// The Fight phase: who fights, with which weapons, at what.
    FightPhase,
    /// Pile In: up to 3", ending closer to the closest enemy model.
    PileIn,
    /// Consolidate: up to 3", ending closer to the closest enemy model or an objective.
    Consolidate,
    /// Battle-shock: a Battle-shocked unit cannot be affected by its player's Stratagems.
    BattleShock,
    /// Actions: who may start one, when, where, and what stops it (Chapter Approved 2025-26).
    Actions,
    /// Secondary missions: Tactical draws, discards and New Orders; Fixed cards stay.
    SecondaryMissions,
    /// Allocate Attack: the defender orders which of its models take attacks first.
    AllocateAttack,
    /// Army rules and Detachment rules: the choices they give (Oath of Moment's target, the
    /// Waaagh!), when and how often.
    ArmyRules,
    /// A Detachment Stratagem's restrictions (cost, phase, turn, target, once per phase).
    Stratagems,
    /// The referee override: a rule applied by hand, with a note.
    Referee,
    /// A Core Stratagem's own restrictions (cost, timing, eligible units and targets).
    Stratagem(Stratagem),
}

impl Rule {
    /// Every rule without a Stratagem, in declaration order (the Stratagems follow in
    /// [`Rule::all`]).
    pub const GENERAL: [Rule; 32] = [
        Rule::Players,
        Rule::Units,
        Rule::Targets,
        Rule::Sequencing,
        Rule::Reactions,
        Rule::Deployment,
        Rule::Infiltrators,
        Rule::Reserves,
        Rule::DeepStrike,
        Rule::StrategicReserves,
        Rule::Scouts,
        Rule::SetUp,
        Rule::Movement,
        Rule::MovementPhase,
        Rule::BattlefieldEdge,
        Rule::Terrain,
        Rule::EngagementRange,
        Rule::UnitCoherency,
        Rule::FallBack,
        Rule::Transports,
        Rule::ShootingPhase,
        Rule::ChargePhase,
        Rule::FightPhase,
        Rule::PileIn,
        Rule::Consolidate,
        Rule::BattleShock,
        Rule::Actions,
        Rule::SecondaryMissions,
        Rule::AllocateAttack,
        Rule::ArmyRules,
        Rule::Stratagems,
        Rule::Referee,
    ];

    /// Every rule: [`Rule::GENERAL`], then one per Core Stratagem ([`Stratagem::ALL`]).
    pub fn all() -> impl Iterator<Item = Rule> {
        Rule::GENERAL
            .into_iter()
            .chain(Stratagem::ALL.into_iter().map(Rule::Stratagem))
    }

    /// The rule's name as shown to players and written in JSON ("Engagement Range"; a
    /// Stratagem's printed name, "Go to Ground").
    pub fn name(self) -> &'static str {
        match self {
            Rule::Players => "Players",
            Rule::Units => "Units",
            Rule::Targets => "Targets",
            Rule::Sequencing => "Sequencing",
            Rule::Reactions => "Reactions",
            Rule::Deployment => "Deployment",
            Rule::Infiltrators => "Infiltrators",
            Rule::Reserves => "Reserves",
            Rule::DeepStrike => "Deep Strike",
            Rule::StrategicReserves => "Strategic Reserves",
            Rule::Scouts => "Scouts",
            Rule::SetUp => "Set up",
            Rule::Movement => "Movement",
            Rule::MovementPhase => "Movement phase",
            Rule::BattlefieldEdge => "Battlefield edge",
            Rule::Terrain => "Terrain",
            Rule::EngagementRange => "Engagement Range",
            Rule::UnitCoherency => "Unit Coherency",
            Rule::FallBack => "Fall Back",
            Rule::Transports => "Transports",
            Rule::ShootingPhase => "Shooting phase",
            Rule::ChargePhase => "Charge phase",
            Rule::FightPhase => "Fight phase",
            Rule::PileIn => "Pile In",
            Rule::Consolidate => "Consolidate",
            Rule::BattleShock => "Battle-shock",
            Rule::Actions => "Actions",
            Rule::SecondaryMissions => "Secondary missions",
            Rule::AllocateAttack => "Allocate Attack",
            Rule::ArmyRules => "Army rules",
            Rule::Stratagems => "Stratagems",
            Rule::Referee => "Referee",
            Rule::Stratagem(s) => s.name(),
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Rule {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// A name that is no [`Rule`]'s ([`Rule::from_str`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no rule is called '{0}'")]
pub struct UnknownRule(pub String);

impl FromStr for Rule {
    type Err = UnknownRule;

    /// The rule whose [`Rule::name`] is `s` (exactly, as displayed).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Rule::all()
            .find(|r| r.name() == s)
            .ok_or_else(|| UnknownRule(s.to_string()))
    }
}

/// An illegal command, answered without changing anything: the rule it breaks and what is
/// wrong ("model 3 would end within Engagement Range of boyz-mob"). Displayed as
/// "rule: reason"; serialized as `{"rule": "<rule name>", "reason": "..."}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{rule}: {reason}")]
pub struct Rejection {
    /// The rule broken ([`Rule::EngagementRange`], [`Rule::UnitCoherency`],
    /// [`Rule::Sequencing`]...).
    pub rule: Rule,
    /// What is wrong.
    pub reason: String,
}

impl Rejection {
    /// A rejection under `rule` (a [`Rule`], or its name as displayed: see
    /// [`Rule`]'s `From<&str>`).
    pub fn new(rule: impl Into<Rule>, reason: impl Into<String>) -> Self {
        Rejection {
            rule: rule.into(),
            reason: reason.into(),
        }
    }
}

/// Shorthand: `Err(Rejection::new(rule, reason))`.
///
/// # Errors
/// Always: the rejection under `rule` for `reason`.
pub fn reject<T>(rule: Rule, reason: impl Into<String>) -> Result<T, Rejection> {
    Err(Rejection::new(rule, reason))
}
