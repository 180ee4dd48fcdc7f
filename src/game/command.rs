//! The commands players give the battle engine: one per action, in RON in command lists and
//! save files (docs/formats.md, "Commands").

use serde::{Deserialize, Serialize};

use crate::geometry::Point;
use crate::rules::attack::CommandReroll;
use crate::rules::mission::MissionAction;
use crate::rules::movement::MoveMode;
use crate::rules::stratagem::Stratagem;

/// Where a model is set up: table inches (`z` the height of the surface it stands on, 0 for
/// the table) and facing in degrees.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Placement {
    /// Model index in its unit (from 0).
    pub model: usize,
    /// The unit the model belongs to when it is not the commanded unit (a Leader of it).
    #[serde(default)]
    pub unit: Option<String>,
    /// Centre of the base, x (inches along the 60" edge).
    pub x: f32,
    /// Centre of the base, y (inches along the 44" edge).
    pub y: f32,
    /// Height of the surface stood on (inches).
    #[serde(default)]
    pub z: f32,
    /// Facing (degrees counter-clockwise from +x).
    #[serde(default)]
    pub facing: f32,
}

/// One model's move: the points (x, y, z in inches) its base centre passes through, ending
/// where it stops; the start is where it stands. Models without a path do not move.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelPath {
    /// Model index in its unit (from 0).
    pub model: usize,
    /// The unit the model belongs to when it is not the commanded unit (a Leader of it).
    #[serde(default)]
    pub unit: Option<String>,
    /// Waypoints (x, y, z), the last one where the model ends.
    pub path: Vec<(f32, f32, f32)>,
    /// The facing it ends with (degrees counter-clockwise from +x); None keeps its facing.
    /// Turning costs no distance (Core Rules: Moving Models), but the base or hull stands
    /// where it ends at this facing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<f32>,
}

/// One weapon assignment: every model of the unit carrying `weapon` (or only the `models`
/// listed) attacks `target` with it, using one profile of it.
///
/// Core Rules: Shooting phase and Fight phase (each model uses each of its ranged weapons
/// once, a PISTOL or its other ranged weapons, and one melee weapon plus EXTRA ATTACKS
/// weapons); Datasheets (a weapon with several profiles fires one of them each time).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WeaponTarget {
    /// Weapon name as on the datasheet ("Plasma pistol"), or weapon and profile as one name
    /// ("Plasma pistol - supercharge").
    pub weapon: String,
    /// Target unit id in the enemy army.
    pub target: String,
    /// The profile used, for a weapon with several ("supercharge").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// The models that use it, as `unit#N` ("intercessors#0"); empty: every model of the unit
    /// (with its Leaders) that carries it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub models: Vec<String>,
}

impl WeaponTarget {
    /// Every carrier of `weapon` (a weapon name, or "weapon - profile") attacks `target`.
    pub fn new(weapon: impl Into<String>, target: impl Into<String>) -> Self {
        WeaponTarget {
            weapon: weapon.into(),
            target: target.into(),
            profile: None,
            models: Vec::new(),
        }
    }

    /// The same assignment with `profile` chosen.
    pub fn with_profile(mut self, profile: impl Into<String>) -> Self {
        self.profile = Some(profile.into());
        self
    }

    /// The same assignment made only by `models` (`unit#N` names).
    pub fn by_models(mut self, models: Vec<String>) -> Self {
        self.models = models;
        self
    }

    /// The weapon as the log names it: "Plasma pistol - supercharge".
    pub fn label(&self) -> String {
        match &self.profile {
            Some(p) => format!("{} - {p}", self.weapon),
            None => self.weapon.clone(),
        }
    }
}

/// Where a unit waits when it starts the battle off the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ReserveKind {
    /// Deep Strike (the unit needs the Deep Strike ability).
    DeepStrike,
    /// Strategic Reserves.
    StrategicReserves,
}

impl ReserveKind {
    /// Its name as players say it: "Deep Strike" or "Strategic Reserves".
    pub fn name(self) -> &'static str {
        match self {
            ReserveKind::DeepStrike => "Deep Strike",
            ReserveKind::StrategicReserves => "Strategic Reserves",
        }
    }
}

/// A player's action. Every command names the player giving it; units are named by their id in
/// that player's army, targets by their id in the opponent's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Command {
    /// Before deployment: the unit starts in Reserves (Strategic Reserves at most 25% of the
    /// army's points, Core Rules; all Reserves, Deep Strike included, at most half its units and
    /// half its points, Chapter Approved 2025-26).
    DeclareReserves {
        /// Player giving the command.
        player: u8,
        /// The unit.
        unit: String,
        /// Deep Strike or Strategic Reserves.
        reserve: ReserveKind,
    },
    /// Deployment: set up the unit wholly within the player's deployment zone (players
    /// alternate). Without placements the scene's positions are used; with `transport`, the
    /// unit starts embarked in that friendly TRANSPORT (already deployed).
    Deploy {
        /// Player giving the command.
        player: u8,
        /// The unit.
        unit: String,
        /// Where each model goes (all models, or none for the scene's positions).
        #[serde(default)]
        models: Vec<Placement>,
        /// Start embarked in this TRANSPORT.
        #[serde(default)]
        transport: Option<String>,
    },
    /// Ends the current phase (its steps run first: Battle-shock tests at the end of the
    /// Command phase, objective control at the end of every phase).
    EndPhase {
        /// Player giving the command (the active player).
        player: u8,
    },
    /// Movement phase: the unit Remains Stationary.
    RemainStationary {
        /// Player giving the command.
        player: u8,
        /// The unit.
        unit: String,
    },
    /// Movement phase: the unit declares an Advance and rolls its Advance die before moving
    /// (Core Rules: Advance moves; a Command Re-roll set for the Advance roll re-rolls a 1 to
    /// 3, and one used after this command re-rolls the die whatever it shows). Its
    /// [`Command::Move`] with [`MoveMode::Advance`] must come next and adds this roll to each
    /// model's Move; if the phase ends first, the unit has Advanced without moving. A `Move`
    /// in Advance mode without this command rolls the die as it moves, and is refused when
    /// the roll falls short of its longest path.
    Advance {
        /// Player giving the command (the active player).
        player: u8,
        /// The unit.
        unit: String,
    },
    /// Movement phase: a Normal move, Advance or Fall Back, each model along its path.
    Move {
        /// Player giving the command.
        player: u8,
        /// The unit.
        unit: String,
        /// Kind of move.
        mode: MoveMode,
        /// Each moving model's path.
        #[serde(default)]
        paths: Vec<ModelPath>,
    },
    /// Movement phase (Reinforcements step): a Reserves unit arrives.
    SetUpReinforcements {
        /// Player giving the command.
        player: u8,
        /// The unit.
        unit: String,
        /// Where each model goes.
        models: Vec<Placement>,
    },
    /// Movement phase: a unit that ended its move with every model within 3" of a friendly
    /// TRANSPORT embarks in it.
    Embark {
        /// Player giving the command.
        player: u8,
        /// The unit.
        unit: String,
        /// The TRANSPORT's unit id.
        transport: String,
    },
    /// Movement phase: a unit that started the phase embarked disembarks wholly within 3" of
    /// its TRANSPORT, before the TRANSPORT moves or after its Normal move; a unit that
    /// embarked this phase cannot (Core Rules: Transports, Disembark).
    Disembark {
        /// Player giving the command.
        player: u8,
        /// The unit.
        unit: String,
        /// Where each model goes.
        models: Vec<Placement>,
    },
    /// Shooting phase: the unit shoots, each weapon at its target.
    Shoot {
        /// Player giving the command.
        player: u8,
        /// The unit.
        unit: String,
        /// Weapon assignments.
        weapons: Vec<WeaponTarget>,
    },
    /// Charge phase: declare a charge and roll 2D6. 10th: against `targets`, enemy units
    /// within 12". 11th: with no targets (they are chosen after the roll, in the
    /// [`Command::ChargeMove`]).
    DeclareCharge {
        /// Player giving the command.
        player: u8,
        /// The unit.
        unit: String,
        /// Target unit ids (10th); empty under 11th.
        #[serde(default)]
        targets: Vec<String>,
    },
    /// Charge phase: the charge move of the unit that declared a charge; no paths means the
    /// charge fails and no model moves.
    ChargeMove {
        /// Player giving the command.
        player: u8,
        /// The unit.
        unit: String,
        /// Each moving model's path.
        #[serde(default)]
        paths: Vec<ModelPath>,
        /// 11th: the targets chosen after the roll, enemy units within 12" and within the
        /// Charge roll (11th Core Rules 11.03); empty under 10th, whose targets were declared.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        targets: Vec<String>,
    },
    /// Fight phase: select the unit to fight and Pile In (no paths: no model moves).
    PileIn {
        /// Player giving the command.
        player: u8,
        /// The unit.
        unit: String,
        /// Each moving model's path.
        #[serde(default)]
        paths: Vec<ModelPath>,
    },
    /// Fight phase: the selected unit makes its melee attacks.
    Fight {
        /// Player giving the command.
        player: u8,
        /// The unit.
        unit: String,
        /// Weapon assignments (melee weapons).
        weapons: Vec<WeaponTarget>,
    },
    /// Fight phase: the unit that fought Consolidates (no paths: no model moves); its
    /// activation ends.
    Consolidate {
        /// Player giving the command.
        player: u8,
        /// The unit.
        unit: String,
        /// Each moving model's path.
        #[serde(default)]
        paths: Vec<ModelPath>,
    },
    /// Makes the choice one of the army's rules gives (Oath of Moment: an enemy unit; a
    /// Combat Doctrine: its name; the Waaagh!: no pick), in the player's own phase the rule
    /// names.
    RuleChoice {
        /// Player giving the command.
        player: u8,
        /// The rule.
        rule: String,
        /// The enemy unit's id or the option; none for a declared rule.
        #[serde(default)]
        pick: Option<String>,
        /// The unit of the player's army that makes the pick, for a rule whose units pick
        /// (For the Greater Good's Observer); none otherwise.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<String>,
    },
    /// Uses a Detachment Stratagem on one of the player's units.
    UseRuleStratagem {
        /// Player giving the command.
        player: u8,
        /// The Stratagem's name.
        stratagem: String,
        /// The unit.
        unit: String,
    },
    /// Applies a rule by hand (the referee override), logged with a note.
    Referee {
        /// Player giving the command.
        player: u8,
        /// What it does.
        action: super::effects::RefereeAction,
        /// The rule applied, in the player's words.
        note: String,
    },
    /// Uses a Core Stratagem on one of the player's units.
    UseStratagem {
        /// Player giving the command.
        player: u8,
        /// The Stratagem.
        stratagem: Stratagem,
        /// The player's unit it is used on; for Epic Challenge, its CHARACTER model as
        /// `unit#N` (or a unit whose Attached unit has one CHARACTER model).
        unit: String,
        /// The enemy unit it is aimed at, for those that need one (Grenade, Tank Shock, Fire
        /// Overwatch, Heroic Intervention).
        #[serde(default)]
        target: Option<String>,
        /// For Command Re-roll: which of the unit's rolls this phase it re-rolls (see
        /// [`RerollRoll`]).
        #[serde(default)]
        reroll: Option<RerollRoll>,
    },
    /// The defending player passes on (further) reactions while an enemy unit's ranged
    /// attacks wait with their targets selected ([`Game::pending_shot`](super::Game)): the
    /// attacks are resolved now.
    Pass {
        /// Player giving the command (the defending player).
        player: u8,
    },
    /// In the player's Shooting phase, one of their units starts an action of the mission
    /// instead of shooting (Chapter Approved 2025-26: Actions).
    StartAction {
        /// Player giving the command.
        player: u8,
        /// The unit performing it.
        unit: String,
        /// The action.
        action: MissionAction,
        /// The objective marker it is performed on, for actions that need one.
        #[serde(default)]
        objective: Option<String>,
        /// Where the action puts a marker when it completes (inches), for the actions that
        /// need a place: Move Hazard (the marker's new centre), Ritual (the new marker's).
        #[serde(default)]
        to: Option<Point>,
    },
    /// The choices a secondary card drawn this Command phase leaves to the players, made
    /// instead of the engine's defaults (which stand until then): for Marked for Death the
    /// card holder's opponent names their own units as the Alpha targets (`units`, as many as
    /// the card asks or all they have on the battlefield) and the holder names one enemy unit
    /// as the Gamma target (`units`, one); for A Tempting Target the opponent names a No Man's
    /// Land objective (`objective`).
    ChooseTargets {
        /// Player giving the command (the holder or the opponent, as above).
        player: u8,
        /// The card's name.
        card: String,
        /// Unit ids.
        #[serde(default)]
        units: Vec<String>,
        /// Objective id.
        #[serde(default)]
        objective: Option<String>,
    },
    /// Burden of Trust: in their own Command phase the player picks one of their units within
    /// range of an objective they control to guard it (one unit per objective; picking
    /// another replaces it) until the start of their next turn. Objectives they control and
    /// leave unguarded get a guard at the end of the Command phase (the eligible unit with the
    /// most Objective Control there).
    Guard {
        /// Player giving the command.
        player: u8,
        /// The guarding unit.
        unit: String,
        /// The objective marker it guards.
        objective: String,
    },
    /// A Tactical player marks an active secondary card to be discarded at the end of this
    /// turn (1 CP at the end of their own turn, once; nothing in the opponent's turn).
    DiscardSecondary {
        /// Player giving the command.
        player: u8,
        /// The card's name.
        card: String,
    },
    /// The owner's order for losing the unit's models, at any moment (ahead of time, or while
    /// an enemy unit's attacks wait with their targets selected): attacks and mortal wounds
    /// are allocated to the models in this order, within the rule that a model that has lost
    /// wounds or already took an attack this phase takes the next ones first (Core Rules:
    /// Allocate Attack), and models are removed in it for Unit Coherency. Models it does not
    /// name follow in the default order; an empty list restores the default (see
    /// [`super::allocation`]).
    AllocationOrder {
        /// Player giving the command (the unit's owner).
        player: u8,
        /// The unit (of an Attached unit: its Bodyguard or one Leader; each has its own order).
        unit: String,
        /// Its models, `unit#N` or `N`, first lost first.
        #[serde(default)]
        models: Vec<String>,
    },
    /// New Orders: in their Command phase a Tactical player discards an active secondary card
    /// and draws another (its CP cost, once per turn).
    NewOrders {
        /// Player giving the command.
        player: u8,
        /// The card discarded.
        card: String,
    },
    /// A Tactical player shuffles a secondary card just drawn back into their deck and draws
    /// another, where the card's "when drawn" clause lets them (Storm Hostile Objective in
    /// the first battle round, Bring It Down with no enemy MONSTER or VEHICLE, ...): in the
    /// Command phase it was drawn in. A card not sent back is kept (Chapter Approved 2025-26
    /// Mission Deck: When Drawn).
    RedrawSecondary {
        /// Player giving the command.
        player: u8,
        /// The card shuffled back.
        card: String,
    },
}

/// The roll a Command Re-roll is for (Core Stratagems: Command Re-roll, used just after a Hit,
/// Wound, Damage, Advance, Charge, Desperate Escape, Hazardous or Battle-shock roll, a saving
/// throw or the number of attacks, to re-roll it). A Charge roll, and an Advance roll already
/// made, are re-rolled at once. For the others the player gives a standing instruction before
/// the roll: the roll is re-rolled when it fails (or, for Damage, Attacks and Advance rolls,
/// falls below the dice's average), and only then is the Stratagem used, its CP paid and its
/// once-per-phase spent, so the player's other instructions lapse; an instruction left
/// unused lapses at the end of the phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RerollRoll {
    /// The first failed Hit roll of the unit's attacks this phase (first weapon group).
    Hit,
    /// The first failed Wound roll of the unit's attacks this phase (first weapon group).
    Wound,
    /// The unit's Advance roll: one already rolled ([`Command::Advance`]) is re-rolled at once;
    /// otherwise its next one this phase, when it is below the D6's average (1 to 3).
    Advance,
    /// The unit's Charge roll, already made, re-rolled at once.
    Charge,
    /// The first saving throw the unit fails against attacks made against it this phase (the
    /// defending player's Stratagem).
    SavingThrow,
    /// A random Damage roll of the unit's attacks this phase: the first one of its attacks at a
    /// target, re-rolled if below the dice's average.
    Damage,
    /// A random Attacks roll (number of attacks) of the unit's attacks this phase: the first
    /// one of its attacks at a target, re-rolled if below the dice's average.
    Attacks,
    /// The first HAZARDOUS test the unit fails after its attacks this phase.
    Hazardous,
    /// The unit's Battle-shock test this phase, when it fails.
    BattleShock,
    /// The first Desperate Escape test a model of the unit fails in its Fall Back this phase.
    DesperateEscape,
}

impl RerollRoll {
    /// Every roll a Command Re-roll can be kept for, in the order the desktop lists them.
    pub const ALL: [RerollRoll; 10] = [
        RerollRoll::Hit,
        RerollRoll::Wound,
        RerollRoll::SavingThrow,
        RerollRoll::Damage,
        RerollRoll::Attacks,
        RerollRoll::Hazardous,
        RerollRoll::Advance,
        RerollRoll::Charge,
        RerollRoll::BattleShock,
        RerollRoll::DesperateEscape,
    ];

    /// What the attacking unit's standing re-roll does in the attack sequence: Hit, Wound,
    /// Damage, Attacks and Hazardous re-rolls are spent there; the others (and none) give
    /// [`CommandReroll::None`].
    pub fn attacker_command_reroll(kept: Option<RerollRoll>) -> CommandReroll {
        match kept {
            Some(RerollRoll::Hit) => CommandReroll::HitRoll,
            Some(RerollRoll::Wound) => CommandReroll::WoundRoll,
            Some(RerollRoll::Damage) => CommandReroll::DamageRoll,
            Some(RerollRoll::Attacks) => CommandReroll::AttacksRoll,
            Some(RerollRoll::Hazardous) => CommandReroll::HazardousTest,
            _ => CommandReroll::None,
        }
    }

    /// The roll's name for messages and the log.
    pub fn name(self) -> &'static str {
        match self {
            RerollRoll::Hit => "Hit roll",
            RerollRoll::Wound => "Wound roll",
            RerollRoll::Advance => "Advance roll",
            RerollRoll::Charge => "Charge roll",
            RerollRoll::SavingThrow => "saving throw",
            RerollRoll::Damage => "Damage roll",
            RerollRoll::Attacks => "Attacks roll",
            RerollRoll::Hazardous => "HAZARDOUS test",
            RerollRoll::BattleShock => "Battle-shock test",
            RerollRoll::DesperateEscape => "Desperate Escape test",
        }
    }
}

impl Command {
    /// The player giving the command.
    pub fn player(&self) -> u8 {
        match self {
            Command::DeclareReserves { player, .. }
            | Command::Deploy { player, .. }
            | Command::EndPhase { player }
            | Command::RemainStationary { player, .. }
            | Command::Advance { player, .. }
            | Command::Move { player, .. }
            | Command::SetUpReinforcements { player, .. }
            | Command::Embark { player, .. }
            | Command::Disembark { player, .. }
            | Command::Shoot { player, .. }
            | Command::DeclareCharge { player, .. }
            | Command::ChargeMove { player, .. }
            | Command::PileIn { player, .. }
            | Command::Fight { player, .. }
            | Command::Consolidate { player, .. }
            | Command::UseStratagem { player, .. }
            | Command::RuleChoice { player, .. }
            | Command::UseRuleStratagem { player, .. }
            | Command::Referee { player, .. }
            | Command::Pass { player }
            | Command::StartAction { player, .. }
            | Command::Guard { player, .. }
            | Command::ChooseTargets { player, .. }
            | Command::DiscardSecondary { player, .. }
            | Command::NewOrders { player, .. }
            | Command::AllocationOrder { player, .. }
            | Command::RedrawSecondary { player, .. } => *player,
        }
    }

    /// The unit the command acts for (its id in the commanding player's army): the unit
    /// that deploys, moves, shoots, charges or fights, or the one a Stratagem is used on.
    /// None for [`Command::EndPhase`] and [`Command::Pass`], which name no unit.
    pub fn unit(&self) -> Option<&str> {
        match self {
            Command::DeclareReserves { unit, .. }
            | Command::Deploy { unit, .. }
            | Command::RemainStationary { unit, .. }
            | Command::Advance { unit, .. }
            | Command::Move { unit, .. }
            | Command::SetUpReinforcements { unit, .. }
            | Command::Embark { unit, .. }
            | Command::Disembark { unit, .. }
            | Command::Shoot { unit, .. }
            | Command::DeclareCharge { unit, .. }
            | Command::ChargeMove { unit, .. }
            | Command::PileIn { unit, .. }
            | Command::Fight { unit, .. }
            | Command::Consolidate { unit, .. }
            | Command::UseStratagem { unit, .. }
            | Command::UseRuleStratagem { unit, .. }
            | Command::StartAction { unit, .. }
            | Command::Guard { unit, .. }
            | Command::AllocationOrder { unit, .. } => Some(unit),
            Command::EndPhase { .. }
            | Command::Pass { .. }
            | Command::RuleChoice { .. }
            | Command::Referee { .. }
            | Command::DiscardSecondary { .. }
            | Command::ChooseTargets { .. }
            | Command::NewOrders { .. }
            | Command::RedrawSecondary { .. } => None,
        }
    }

    /// A short name for reports ("Move", "Shoot").
    pub fn kind(&self) -> &'static str {
        match self {
            Command::DeclareReserves { .. } => "DeclareReserves",
            Command::Deploy { .. } => "Deploy",
            Command::EndPhase { .. } => "EndPhase",
            Command::RemainStationary { .. } => "RemainStationary",
            Command::Advance { .. } => "Advance",
            Command::Move { .. } => "Move",
            Command::SetUpReinforcements { .. } => "SetUpReinforcements",
            Command::Embark { .. } => "Embark",
            Command::Disembark { .. } => "Disembark",
            Command::Shoot { .. } => "Shoot",
            Command::DeclareCharge { .. } => "DeclareCharge",
            Command::StartAction { .. } => "StartAction",
            Command::Guard { .. } => "Guard",
            Command::ChooseTargets { .. } => "ChooseTargets",
            Command::DiscardSecondary { .. } => "DiscardSecondary",
            Command::NewOrders { .. } => "NewOrders",
            Command::AllocationOrder { .. } => "AllocationOrder",
            Command::RedrawSecondary { .. } => "RedrawSecondary",
            Command::ChargeMove { .. } => "ChargeMove",
            Command::PileIn { .. } => "PileIn",
            Command::Fight { .. } => "Fight",
            Command::Consolidate { .. } => "Consolidate",
            Command::UseStratagem { .. } => "UseStratagem",
            Command::RuleChoice { .. } => "RuleChoice",
            Command::UseRuleStratagem { .. } => "UseRuleStratagem",
            Command::Referee { .. } => "Referee",
            Command::Pass { .. } => "Pass",
        }
    }
}
