//! What the battle engine reports: the events of an accepted command, in order, and the
//! rejection of an illegal one.

use std::fmt;

use serde::Serialize;

use crate::rules::attack::events::AttackEvent;
use crate::rules::movement::MoveMode;
use crate::rules::phase::{FightStep, Phase};
use crate::rules::stratagem::Stratagem;

pub use super::command::{RerollRoll, ReserveKind};
pub use super::rejection::{Rejection, reject};

/// A value an event carries that is written as its name in the event's JSON (so the text
/// of the replay and the `--json` outputs reads "Deep Strike", "Command Re-roll"...), while
/// the code matches on the value itself.
pub trait EventName: Copy {
    /// The name as the log and the JSON write it.
    fn event_name(self) -> &'static str;
}

impl EventName for Stratagem {
    fn event_name(self) -> &'static str {
        self.name()
    }
}

impl EventName for RerollRoll {
    fn event_name(self) -> &'static str {
        self.name()
    }
}

impl EventName for FightStep {
    fn event_name(self) -> &'static str {
        self.name()
    }
}

impl EventName for ReserveKind {
    fn event_name(self) -> &'static str {
        self.name()
    }
}

impl EventName for SetUpHow {
    fn event_name(self) -> &'static str {
        self.name()
    }
}

/// Serialises an [`EventName`] value as its name.
fn by_name<S: serde::Serializer, T: EventName>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(value.event_name())
}

/// Serialises an optional [`EventName`] value as its name, or null.
fn by_name_opt<S: serde::Serializer, T: EventName>(
    value: &Option<T>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => s.serialize_str(v.event_name()),
        None => s.serialize_none(),
    }
}

/// How a unit off the table came to be set up on it ([`GameEvent::SetUp`]).
///
/// Core Rules: Reinforcements (Deep Strike, Strategic Reserves), Transports (disembarking,
/// a destroyed TRANSPORT, Emergency Disembarkation); Core Stratagems: Rapid Ingress.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SetUpHow {
    /// Arrived by Deep Strike.
    DeepStrike,
    /// Arrived from Strategic Reserves.
    StrategicReserves,
    /// Arrived by the Rapid Ingress Stratagem.
    RapidIngress,
    /// Disembarked before its TRANSPORT moved.
    Disembark,
    /// Disembarked after its TRANSPORT made a Normal move (it cannot charge this turn).
    DisembarkAfterMove,
    /// Disembarked because its TRANSPORT was destroyed.
    DestroyedTransport,
    /// Emergency Disembarkation from a destroyed TRANSPORT (10th: no room within 3"; 11th:
    /// always, wholly within 6", 11th Core Rules 18.05).
    EmergencyDisembarkation,
    /// 11th edition Combat Disembark: wholly within 6" of a TRANSPORT it could not fit within
    /// 3" of; hazard rolls, Battle-shocked, no further move or charge (11th Core Rules 18.04).
    CombatDisembark,
}

impl SetUpHow {
    /// Its name as the event's JSON writes it ("Deep Strike", "disembark"...).
    pub fn name(self) -> &'static str {
        match self {
            SetUpHow::DeepStrike => "Deep Strike",
            SetUpHow::StrategicReserves => "Strategic Reserves",
            SetUpHow::RapidIngress => "Rapid Ingress",
            SetUpHow::Disembark => "disembark",
            SetUpHow::DisembarkAfterMove => "disembark after its TRANSPORT's Normal move",
            SetUpHow::DestroyedTransport => "disembark from a destroyed TRANSPORT",
            SetUpHow::EmergencyDisembarkation => "emergency disembarkation",
            SetUpHow::CombatDisembark => "Combat Disembark",
        }
    }

    /// True when the unit got out of a TRANSPORT (rather than arriving from Reserves).
    pub fn is_disembark(self) -> bool {
        !matches!(
            self,
            SetUpHow::DeepStrike | SetUpHow::StrategicReserves | SetUpHow::RapidIngress
        )
    }
}

/// One thing that happened, in order.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum GameEvent {
    /// The roll-off for the first turn (re-rolled on a tie).
    RollOff {
        /// Each player's D6 (the last roll).
        dice: [u8; 2],
        /// The player who takes the first turn.
        first_turn: u8,
    },
    /// The roll-off before deployment: its loser deploys first.
    DeploymentRollOff {
        /// Each player's D6 (the last roll).
        dice: [u8; 2],
        /// The player who sets up the first unit.
        deploys_first: u8,
    },
    /// A player's Scout moves begin (after deployment, before the first battle round).
    ScoutMovesStarted {
        /// The player who may now make Scout moves.
        player: u8,
    },
    /// A unit starts in Reserves.
    ReservesDeclared {
        /// Player.
        player: u8,
        /// Unit id.
        unit: String,
        /// Deep Strike or Strategic Reserves (written "Deep Strike", "Strategic Reserves").
        #[serde(serialize_with = "by_name")]
        kind: ReserveKind,
    },
    /// A unit was set up in its deployment zone (or embarked).
    Deployed {
        /// Player.
        player: u8,
        /// Unit id.
        unit: String,
        /// The TRANSPORT it is embarked in, if any.
        embarked_in: Option<String>,
    },
    /// A phase began.
    PhaseStarted {
        /// Battle round.
        battle_round: u8,
        /// Player whose turn it is.
        player: u8,
        /// Phase.
        phase: Phase,
    },
    /// A player gained command points.
    CommandPointsGained {
        /// Player.
        player: u8,
        /// CP gained.
        gained: u32,
        /// CP now.
        total: u32,
    },
    /// A Battle-shock test.
    BattleShockTest {
        /// Player.
        player: u8,
        /// Unit id.
        unit: String,
        /// The 2D6.
        dice: [u8; 2],
        /// A third D6 when the test was taken on 3D6 (Synapse).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        third: Option<u8>,
        /// Leadership needed.
        leadership: u8,
        /// Passed (Insane Bravery makes a failure a pass).
        passed: bool,
    },
    /// A unit stopped being Battle-shocked (start of its Command phase).
    BattleShockEnded {
        /// Player.
        player: u8,
        /// Unit id.
        unit: String,
    },
    /// A unit Remained Stationary.
    RemainedStationary {
        /// Player.
        player: u8,
        /// Unit id.
        unit: String,
    },
    /// A unit declared an Advance and rolled its Advance die ([`Command::Advance`]).
    AdvanceRolled {
        /// Player.
        player: u8,
        /// Unit id.
        unit: String,
        /// The D6 (after any Command Re-roll).
        roll: u8,
    },
    /// A unit moved.
    Moved {
        /// Player.
        player: u8,
        /// Unit id.
        unit: String,
        /// Kind of move.
        mode: MoveMode,
        /// The Advance roll, if it Advanced.
        advance_roll: Option<u8>,
        /// Longest path of any model (inches).
        longest_inches: f32,
    },
    /// A Desperate Escape test.
    DesperateEscape {
        /// Player.
        player: u8,
        /// Model (`unit#N`).
        model: String,
        /// The D6.
        roll: u8,
        /// The model was destroyed.
        destroyed: bool,
    },
    /// A Reserves unit arrived, or an embarked unit disembarked.
    SetUp {
        /// Player.
        player: u8,
        /// Unit id.
        unit: String,
        /// How (written as [`SetUpHow::name`]).
        #[serde(serialize_with = "by_name")]
        how: SetUpHow,
    },
    /// A unit embarked in a TRANSPORT.
    Embarked {
        /// Player.
        player: u8,
        /// Unit id.
        unit: String,
        /// TRANSPORT unit id.
        transport: String,
    },
    /// A unit made its attacks with one weapon at one target.
    Attacked {
        /// Attacking player.
        player: u8,
        /// Attacking unit id.
        unit: String,
        /// The weapons, as one label ("Bolt rifle + Bolt pistol").
        weapon: String,
        /// Each weapon ("weapon - profile") and its models attacking: the unit's attacks at
        /// one target resolve together (allocation and mortal wounds carry across them).
        weapons: Vec<(String, usize)>,
        /// Target unit id.
        target: String,
        /// Models attacking, over all its weapons.
        bearers: usize,
        /// Bearers that could not attack, with why.
        not_attacking: Vec<String>,
        /// Wounds lost by the target.
        wounds_lost: u32,
        /// Target models destroyed.
        models_destroyed: u32,
    },
    /// One step of a rolled attack (dice, saves, damage); a wound lost or a Feel No Pain roll
    /// names its model `unit#N` ([`AttackEvent::naming_models`]).
    Attack(AttackEvent),
    /// Mortal wounds from a Stratagem (Grenade, Tank Shock), Deadly Demise or the rolls of a
    /// destroyed TRANSPORT's passengers.
    MortalWoundsRolled {
        /// Player rolling.
        player: u8,
        /// Target unit id.
        target: String,
        /// The dice.
        dice: Vec<u8>,
        /// Mortal wounds inflicted.
        mortal_wounds: u32,
    },
    /// A failed HAZARDOUS test cost a bearer: destroyed, or (a CHARACTER, MONSTER or
    /// VEHICLE) given mortal wounds (Core Rules: Hazardous).
    HazardousLoss {
        /// Player owning the bearer.
        player: u8,
        /// The bearer (`unit#N`).
        model: String,
        /// Mortal wounds suffered (0: destroyed outright).
        mortal_wounds: u32,
        /// The bearer was destroyed.
        destroyed: bool,
    },
    /// The D6 rolled for each model that disembarked from a destroyed TRANSPORT; the mortal
    /// wounds they inflict follow (a `MortalWoundsRolled` and its attack steps) (Core Rules:
    /// Transports, Destroyed Transport, Emergency Disembarkation).
    DestroyedTransportRolls {
        /// Player owning the unit.
        player: u8,
        /// Unit id.
        unit: String,
        /// One die per model.
        dice: Vec<u8>,
        /// Each die of this or less inflicts 1 mortal wound on the unit (1, or 3 after an
        /// emergency disembarkation).
        fails_up_to: u8,
        /// Mortal wounds inflicted on the unit: the dice of `fails_up_to` or less.
        mortal_wounds: u32,
        /// Models those mortal wounds destroyed.
        models_lost: u32,
    },
    /// A unit embarked in a destroyed TRANSPORT could not be set up and is destroyed.
    TransportPassengersLost {
        /// Player owning the unit.
        player: u8,
        /// Unit id.
        unit: String,
        /// Why.
        reason: String,
    },
    /// Deadly Demise was rolled for a destroyed model (on a 6, nearby units suffer mortal
    /// wounds: the MortalWoundsRolled events that follow).
    DeadlyDemise {
        /// Player owning the destroyed model.
        player: u8,
        /// The model (`unit#N`).
        model: String,
        /// The D6.
        roll: u8,
        /// The roll triggered the mortal wounds.
        triggered: bool,
    },
    /// A timed ability gave a model back lost wounds (e.g. Grot Riggers at the start of its
    /// Command phase; Rules Commentary: Start of the battle round/turn/phase).
    WoundsRegained {
        /// Player owning the model.
        player: u8,
        /// The model (`unit#N`).
        model: String,
        /// The ability.
        ability: String,
        /// Wounds regained.
        regained: u8,
        /// Wounds remaining afterwards.
        wounds: u8,
    },
    /// A walker moved through a terrain section higher than it passes freely: its D6, on a 1
    /// Battle-shocked (Super-Heavy Walker).
    WalkerTerrainRoll {
        /// Player owning the unit.
        player: u8,
        /// Unit id.
        unit: String,
        /// The D6.
        roll: u8,
        /// Rolled a 1.
        battle_shocked: bool,
    },
    /// A destroyed model returned to its unit with 1 wound (Necrons' Reanimation Protocols),
    /// set up in Unit Coherency and outside Engagement Range.
    ModelReturned {
        /// Player owning the model.
        player: u8,
        /// The model (`unit#N`).
        model: String,
        /// The rule.
        ability: String,
        /// Where it was set up (inches; z is the height it stands at).
        at: (f32, f32, f32),
    },
    /// A destroyed model's D6 for shooting before it is removed (e.g. For the Chapter!).
    ShootBeforeRemoval {
        /// Player owning the model.
        player: u8,
        /// The model (`unit#N`).
        model: String,
        /// The D6.
        roll: u8,
        /// It shoots (then it is removed).
        shoots: bool,
    },
    /// A model was destroyed (removed from the table).
    ModelDestroyed {
        /// Player owning it.
        player: u8,
        /// Model (`unit#N`).
        model: String,
    },
    /// Every model of a unit is destroyed.
    UnitDestroyed {
        /// Player owning it.
        player: u8,
        /// Unit id.
        unit: String,
    },
    /// A Leader's Bodyguard was destroyed: the Leader is a unit on its own again.
    LeaderDetached {
        /// Player.
        player: u8,
        /// Leader unit id.
        unit: String,
    },
    /// A charge was declared and rolled.
    ChargeDeclared {
        /// Player.
        player: u8,
        /// Unit id.
        unit: String,
        /// Target unit ids.
        targets: Vec<String>,
        /// The 2D6.
        dice: [u8; 2],
    },
    /// The charge move was made (Fights First this turn).
    ChargeMoved {
        /// Player.
        player: u8,
        /// Unit id.
        unit: String,
        /// Under 11th, the targets chosen after the roll (ids); empty under 10th, whose
        /// targets came with the declaration ([`GameEvent::ChargeDeclared`]).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        targets: Vec<String>,
    },
    /// The charge failed: no model moved.
    ChargeFailed {
        /// Player.
        player: u8,
        /// Unit id.
        unit: String,
    },
    /// The Fight phase moved to its next step.
    FightStepStarted {
        /// The step (written "Fights First" or "Remaining Combats").
        #[serde(serialize_with = "by_name")]
        step: FightStep,
    },
    /// A unit was selected to fight and Piled In.
    PiledIn {
        /// Player.
        player: u8,
        /// Unit id.
        unit: String,
        /// Models moved.
        models_moved: usize,
    },
    /// A unit Consolidated, ending its activation.
    Consolidated {
        /// Player.
        player: u8,
        /// Unit id.
        unit: String,
        /// Models moved.
        models_moved: usize,
    },
    /// A unit selected the targets of its ranged attacks; they are resolved once the
    /// defending player has answered (Go to Ground, Smokescreen, or a Pass).
    TargetsSelected {
        /// The shooting player.
        player: u8,
        /// The shooting unit's id.
        unit: String,
        /// The targeted unit ids.
        targets: Vec<String>,
        /// The player who may react now.
        reacting: u8,
    },
    /// A Stratagem was used.
    StratagemUsed {
        /// Player.
        player: u8,
        /// The Stratagem (written as its printed name, "Command Re-roll").
        #[serde(serialize_with = "by_name")]
        stratagem: Stratagem,
        /// Unit id.
        unit: String,
        /// CP spent.
        cost: u32,
        /// CP left.
        cp_left: u32,
    },
    /// A Stratagem was set for a roll still to come (Core Stratagems: Command Re-roll of a
    /// roll of the unit, Insane Bravery for its Battle-shock test): nothing is paid yet; it
    /// is used, and a [`GameEvent::StratagemUsed`] logged, only if that roll calls for it,
    /// and it lapses at the end of the phase otherwise.
    StratagemSet {
        /// Player.
        player: u8,
        /// The Stratagem (written as its printed name, "Command Re-roll").
        #[serde(serialize_with = "by_name")]
        stratagem: Stratagem,
        /// Unit id.
        unit: String,
        /// For a Command Re-roll, the roll it is set for (written "Hit roll", "saving
        /// throw"...).
        #[serde(serialize_with = "by_name_opt")]
        roll: Option<RerollRoll>,
    },
    /// A Command Re-roll set for a unit was spent on a Battle-shock, Desperate Escape or
    /// Advance roll (Core Stratagems: Command Re-roll); the roll's event that follows shows
    /// the new roll. (Attack rolls log theirs as an attack event.)
    CommandRerolled {
        /// Player.
        player: u8,
        /// The unit (or model, `unit#N`) whose roll it was.
        unit: String,
        /// The roll: a Battle-shock or Desperate Escape test or an Advance roll (written
        /// "Battle-shock test", "Desperate Escape test", "Advance roll").
        #[serde(serialize_with = "by_name")]
        roll: RerollRoll,
        /// The dice it replaced.
        replaced: Vec<u8>,
    },
    /// A player gained army rule tokens (Drukhari's Pain tokens).
    TokensGained {
        /// Player.
        player: u8,
        /// Tokens gained.
        gained: u32,
        /// Tokens the player has now.
        total: u32,
    },
    /// A player gained Yield points at the end of a Command phase (Leagues of Votann:
    /// Prioritised Efficiency).
    YieldPoints {
        /// Player.
        player: u8,
        /// Points gained.
        gained: u32,
        /// Points the player has now.
        total: u32,
    },
    /// A rule re-rolled a roll of the unit for free (Leagues of Votann's Hostile Acquisition:
    /// an Advance roll below 4, a Charge roll too short to reach).
    RuleRerolled {
        /// Player.
        player: u8,
        /// The unit.
        unit: String,
        /// The roll ("Advance roll", "Charge roll").
        #[serde(serialize_with = "by_name")]
        roll: RerollRoll,
        /// The dice it replaced.
        replaced: Vec<u8>,
    },
    /// A player made the choice a rule gives (Oath of Moment's target, the Waaagh!, a Combat
    /// Doctrine).
    RuleChosen {
        /// Player.
        player: u8,
        /// The rule.
        rule: String,
        /// The enemy unit or option chosen; None for a declared rule.
        pick: Option<String>,
        /// The unit that made the pick (For the Greater Good's Observer), if the rule's units
        /// pick.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<String>,
    },
    /// A Detachment Stratagem was used on a unit.
    RuleStratagemUsed {
        /// Player.
        player: u8,
        /// The Stratagem.
        stratagem: String,
        /// The unit.
        unit: String,
        /// CP paid.
        cp: u32,
        /// CP left.
        cp_left: u32,
        /// Army rule tokens paid (an Agile Manoeuvre of Battle Focus); 0 for a Stratagem.
        tokens: u32,
        /// Army rule tokens left this battle round.
        tokens_left: u32,
    },
    /// A rule applied by hand (the referee override), with the player's note.
    RefereeOverride {
        /// Player who gave it.
        player: u8,
        /// What it did.
        what: String,
        /// The rule it applies, in the player's words.
        note: String,
    },
    /// A unit's owner set the order its models are lost in ([`super::Command::AllocationOrder`]).
    AllocationOrderSet {
        /// Player.
        player: u8,
        /// The unit.
        unit: String,
        /// Its models in the order now in force (`unit#N`, first lost first).
        models: Vec<String>,
        /// True when the player chose it, false when the default was restored.
        chosen: bool,
    },
    /// Models removed at the end of the turn to restore Unit Coherency.
    CoherencyRemoval {
        /// Player.
        player: u8,
        /// Models removed (`unit#N`).
        models: Vec<String>,
    },
    /// An objective marker changed hands.
    ObjectiveControl {
        /// Objective id.
        objective: String,
        /// Controlling player (None: nobody or contested).
        controller: Option<u8>,
        /// Levels of Control of players 1 and 2.
        levels: [u32; 2],
    },
    /// A player scored victory points.
    VictoryPoints {
        /// Player.
        player: u8,
        /// VP scored.
        scored: u32,
        /// VP now.
        total: u32,
        /// Why.
        reason: String,
    },
    /// An objective marker was removed from play (Supply Drop, Burn Objective).
    ObjectiveRemoved {
        /// Objective id.
        objective: String,
        /// Why.
        reason: String,
    },
    /// An objective marker was moved (Unexploded Ordnance's Move Hazard).
    ObjectiveMoved {
        /// Objective id.
        objective: String,
        /// Its new centre (inches).
        to: (f32, f32),
        /// Why.
        reason: String,
    },
    /// A new objective marker was placed (The Ritual).
    ObjectivePlaced {
        /// Objective id.
        objective: String,
        /// Its centre (inches).
        at: (f32, f32),
        /// Why.
        reason: String,
    },
    /// A unit now guards an objective marker (Burden of Trust) until the start of its
    /// player's next turn.
    Guarding {
        /// Player.
        player: u8,
        /// Unit id.
        unit: String,
        /// Objective id.
        objective: String,
    },
    /// The targets of a secondary card were chosen (Marked for Death, A Tempting Target).
    TargetsChosen {
        /// The player who chose.
        player: u8,
        /// Card name.
        card: String,
        /// Marked for Death: the Alpha targets (unit ids).
        alphas: Vec<String>,
        /// Marked for Death: the Gamma target.
        gamma: Option<String>,
        /// A Tempting Target: the objective.
        objective: Option<String>,
    },
    /// A Tactical player drew a secondary card.
    SecondaryDrawn {
        /// Player.
        player: u8,
        /// Card name.
        card: String,
    },
    /// A drawn card was shuffled back into the deck (its When Drawn rule) and another drawn.
    SecondaryShuffledBack {
        /// Player.
        player: u8,
        /// Card name.
        card: String,
    },
    /// A player marked an active card to be discarded at the end of the turn.
    SecondaryMarkedForDiscard {
        /// Player.
        player: u8,
        /// Card name.
        card: String,
    },
    /// An active secondary card was discarded.
    SecondaryDiscarded {
        /// Player.
        player: u8,
        /// Card name.
        card: String,
        /// It scored this turn (achieved) rather than being thrown away.
        achieved: bool,
    },
    /// A unit started an action.
    ActionStarted {
        /// Player.
        player: u8,
        /// Unit id.
        unit: String,
        /// Action name.
        action: String,
        /// The objective it is performed on.
        objective: Option<String>,
    },
    /// An action was completed.
    ActionCompleted {
        /// Player.
        player: u8,
        /// Unit id.
        unit: String,
        /// Action name.
        action: String,
        /// The objective it was performed on.
        objective: Option<String>,
    },
    /// An action failed.
    ActionFailed {
        /// Player.
        player: u8,
        /// Unit id.
        unit: String,
        /// Action name.
        action: String,
        /// Why.
        reason: String,
    },
    /// A Reserves unit never arrived and counts as destroyed.
    DestroyedInReserves {
        /// Player.
        player: u8,
        /// Unit id.
        unit: String,
    },
    /// The player's army has no unit left (on the battlefield, embarked or in Reserves). The
    /// battle goes on: the other player plays on to the last battle round and the destroyed
    /// army's turns pass with nothing done (Chapter Approved 2025-26).
    ArmyDestroyed {
        /// The player whose army is destroyed.
        player: u8,
    },
    /// The battle ended.
    GameOver {
        /// Winner (None: a draw).
        winner: Option<u8>,
        /// Victory points of players 1 and 2.
        vp: [u32; 2],
        /// Why it ended.
        reason: String,
    },
}

impl fmt::Display for GameEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameEvent::Attack(e) => write!(f, "  {e}"),
            other => {
                let v = serde_json::to_value(other).map_err(|_| fmt::Error)?;
                let name = v["event"].as_str().unwrap_or("event").replace('_', " ");
                let mut fields: Vec<String> = Vec::new();
                if let serde_json::Value::Object(map) = &v {
                    for (k, x) in map {
                        if k != "event" && !x.is_null() {
                            fields.push(format!("{k}={x}"));
                        }
                    }
                }
                write!(f, "{name}: {}", fields.join(" "))
            }
        }
    }
}
