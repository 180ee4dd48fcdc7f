//! Missions as data: objective markers, primary scoring rules, mission set-up steps, the
//! actions a mission allows, and battle rounds.
//!
//! Core Rules: Objective Markers (Objective Control, Level of Control); the Only War mission;
//! Chapter Approved 2025-26 Mission Deck: primary missions (their mechanics, written in the
//! project's own words in `scenes/missions/*.ron`).

use serde::{Deserialize, Serialize};

use crate::geometry::Point;

/// An objective marker (40 mm round) placed by its centre.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Objective", deny_unknown_fields)]
pub struct ObjectiveMarker {
    /// Identifier, unique in the mission (e.g. "centre").
    pub id: String,
    /// Centre on the table (inches).
    pub at: Point,
    /// Height of the marker above the table (inches).
    #[serde(default)]
    pub z: f32,
}

/// When a scoring rule is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ScoringTiming {
    /// At the end of the active player's Command phase.
    EndOfCommandPhase,
    /// At the end of the active player's turn.
    EndOfTurn,
    /// At the end of the battle round.
    EndOfBattleRound,
}

/// A scoring rule of a mission, as data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ScoringRule {
    /// `vp_per_objective` VP for each objective the player controls, at most `max_per_turn` VP
    /// each time, from battle round `from_round`.
    HoldObjectives {
        /// Victory points per controlled objective.
        vp_per_objective: u32,
        /// Most VP scored by this rule each time it is checked.
        max_per_turn: u32,
        /// First battle round in which it scores.
        from_round: u8,
        /// When it is checked.
        timing: ScoringTiming,
    },
    /// `vp` VP when the player controls more objectives than the opponent.
    HoldMore {
        /// Victory points scored.
        vp: u32,
        /// First battle round in which it scores.
        from_round: u8,
        /// When it is checked.
        timing: ScoringTiming,
    },
    /// `vp_each` VP for each objective of `which` the player controls, at most `max_per_turn`
    /// VP each time; from round `from_round`, with `by_round` overriding `vp_each` from the
    /// given rounds on (Supply Drop: 5, then 8 in round 4, 15 in round 5).
    HoldEach {
        /// Which objectives count.
        which: ObjectiveSet,
        /// VP per controlled objective.
        vp_each: u32,
        /// (first round, VP per objective) from that round on, in round order.
        #[serde(default)]
        by_round: Vec<(u8, u32)>,
        /// Most VP scored by this rule each time it is checked (0: no cap).
        #[serde(default)]
        max_per_turn: u32,
        /// First battle round in which it scores.
        from_round: u8,
        /// When it is checked.
        timing: ScoringTiming,
    },
    /// `vp` VP when the player controls at least `count` objectives of `which` (Purge the Foe:
    /// 1+ objective; Hidden Supplies: 1 and 2 objectives outside the own zone, each a rule).
    HoldAtLeast {
        /// Which objectives count.
        which: ObjectiveSet,
        /// How many the player must control.
        count: u32,
        /// VP scored.
        vp: u32,
        /// First battle round in which it scores.
        from_round: u8,
        /// When it is checked.
        timing: ScoringTiming,
    },
    /// Linchpin: without the player's home objective (the one in their deployment zone)
    /// `vp_without_home` per objective controlled; with it, `home_vp` for it and
    /// `vp_with_home` for each other one; at most `max_per_turn` VP each time.
    Linchpin {
        /// VP for the home objective when it is held.
        home_vp: u32,
        /// VP per other objective when the home objective is held.
        vp_with_home: u32,
        /// VP per objective when the home objective is not held.
        vp_without_home: u32,
        /// Most VP each time (0: no cap).
        max_per_turn: u32,
        /// First battle round in which it scores.
        from_round: u8,
        /// When it is checked.
        timing: ScoringTiming,
    },
    /// `vp` VP at the end of each battle round (from `from_round`) to each player who
    /// destroyed at least one enemy unit in that round (Purge the Foe).
    DestroyedThisRound {
        /// VP scored.
        vp: u32,
        /// First battle round in which it scores.
        from_round: u8,
    },
    /// `vp` VP at the end of each battle round (from `from_round`) to each player who
    /// destroyed more enemy units than they lost in that round (Purge the Foe).
    DestroyedMoreThisRound {
        /// VP scored.
        vp: u32,
        /// First battle round in which it scores.
        from_round: u8,
    },
    /// VP for burning an objective (Scorched Earth's Burn Objective action), scored when the
    /// action completes: `no_mans_land` for a marker in No Man's Land, `enemy_zone` for one
    /// in the opponent's deployment zone.
    Burned {
        /// VP for a No Man's Land objective.
        no_mans_land: u32,
        /// VP for an objective in the enemy zone.
        enemy_zone: u32,
    },
    /// Burden of Trust: at the end of every turn from `from_round`, the player whose turn it is
    /// *not* scores `vp_each` VP for each of their units guarding an objective (see
    /// [`Command::Guard`](crate::game::Command::Guard)) that is not Battle-shocked, is still
    /// within range of that objective, and whose player controls it.
    Guarding {
        /// VP per guarding unit.
        vp_each: u32,
        /// First battle round in which it scores.
        from_round: u8,
    },
    /// Unexploded Ordnance: at the end of the player's own turn from `from_round`, VP for each
    /// Hazard objective by how close it is to the opponent's deployment zone: `bands` are
    /// (inches, VP), nearest first; a marker scores the VP of the first band it is wholly
    /// within (inches 0: wholly within the zone itself), or nothing.
    Hazards {
        /// (distance from the opponent's zone in inches, VP), nearest first.
        bands: Vec<(f32, u32)>,
        /// First battle round in which it scores.
        from_round: u8,
    },
    /// `vp_each` VP at the end of every turn (from `from_round`), to both players, for each
    /// objective the player has terraformed (Terraform; see [`MissionAction::Terraform`]).
    Terraformed {
        /// VP per terraformed objective.
        vp_each: u32,
        /// First battle round in which it scores.
        from_round: u8,
    },
}

/// Which objective markers a scoring rule counts, seen from the scoring player. An objective
/// is in a deployment zone when its centre is (Chapter Approved 2025-26 FAQ: measure to the
/// centre of objective markers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ObjectiveSet {
    /// Every objective.
    #[default]
    All,
    /// Those in no deployment zone (No Man's Land).
    NoMansLand,
    /// Those not in the player's own deployment zone.
    OutsideOwnZone,
    /// Those in the player's own deployment zone.
    OwnZone,
    /// Those in the opponent's deployment zone.
    EnemyZone,
}

/// A step of the mission's set-up, done when the game is created (Place Objective Markers)
/// or at the start of a battle round.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum MissionSetup {
    /// Hidden Supplies: the centre objective moves `inches` straight toward a table corner (a
    /// corner in No Man's Land if there is one, else a corner chosen by a roll-off: the
    /// winner's choice is made by the engine as the corner nearest their zone), and a new
    /// objective is placed `inches` from the centre toward the opposite corner.
    HiddenSupplies {
        /// How far the markers stand from the centre (inches).
        inches: f32,
    },
    /// Supply Drop: at the start of the battle two different No Man's Land objectives other
    /// than the centre are picked at random (dice); the first is removed at the start of
    /// battle round `first_removed`, the second at the start of `second_removed`.
    SupplyDrop {
        /// Round whose start removes the first (Alpha) objective.
        first_removed: u8,
        /// Round whose start removes the second (Omega) objective.
        second_removed: u8,
    },
    /// Unexploded Ordnance: at the start of the battle every No Man's Land objective becomes
    /// a Hazard objective; [`MissionAction::MoveHazard`] moves one up to `move_inches`.
    Hazards {
        /// Furthest a Hazard objective moves when the action completes (inches).
        move_inches: f32,
    },
    /// The Ritual: [`MissionAction::Ritual`] places a new objective wholly in No Man's Land,
    /// within `within_inches` of the unit, exactly `exactly_inches` from another No Man's
    /// Land objective and more than `clear_inches` from every other objective (centre to
    /// centre).
    Ritual {
        /// Furthest the new marker stands from the performing unit (inches, edge to base).
        within_inches: f32,
        /// Its distance from one other No Man's Land objective (inches).
        exactly_inches: f32,
        /// Its least distance from every other objective (inches).
        clear_inches: f32,
    },
}

/// An action a unit may perform (Chapter Approved 2025-26: Actions): started in its Shooting
/// phase instead of shooting, completed at the end of the turn (or of the opponent's next
/// turn), with what it does on completion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MissionAction {
    /// Terraform (primary): in range of an objective outside the own zone; on completion, if
    /// the player controls it, it becomes terraformed by them.
    Terraform,
    /// Burn Objective (Scorched Earth): from round 2, in range of an objective outside the own
    /// zone; completes at the end of the opponent's next turn if the player controls it: the
    /// objective is removed and scores 5 VP (No Man's Land) or 10 VP (enemy zone).
    BurnObjective,
    /// Establish Locus (secondary): anywhere; completes at the end of the turn within 6" of the
    /// centre or in the enemy zone.
    EstablishLocus,
    /// Cleanse (secondary): in range of an objective outside the own zone; completes at the end
    /// of the turn if the player controls it.
    Cleanse,
    /// Sabotage (secondary): a unit within a terrain feature, not in its own zone; completes at
    /// the end of the opponent's next turn if it is still on the battlefield.
    Sabotage,
    /// Recover Assets (secondary): two or more units, each wholly within a different one of
    /// the own zone, No Man's Land and the enemy zone; completes at the end of the turn.
    RecoverAssets,
    /// Move Hazard (Unexploded Ordnance): in range of a Hazard objective the player controls
    /// (one unit per objective); completes at the end of the turn if the player still controls
    /// it: the marker moves to the place named with the command (at most the mission's
    /// distance, not onto another marker, a model or a wall).
    MoveHazard,
    /// Ritual (The Ritual): one unit at a time; completes at the end of the turn: a new
    /// objective marker is placed where the command names (see [`MissionSetup::Ritual`]).
    Ritual,
}

impl MissionAction {
    /// The action's name as printed.
    pub fn name(self) -> &'static str {
        match self {
            Self::Terraform => "Terraform",
            Self::BurnObjective => "Burn Objective",
            Self::EstablishLocus => "Establish Locus",
            Self::Cleanse => "Cleanse",
            Self::Sabotage => "Sabotage",
            Self::RecoverAssets => "Recover Assets",
            Self::MoveHazard => "Move Hazard",
            Self::Ritual => "Ritual",
        }
    }

    /// True when the action needs an objective marker named.
    pub fn needs_objective(self) -> bool {
        matches!(
            self,
            Self::Terraform | Self::BurnObjective | Self::Cleanse | Self::MoveHazard
        )
    }

    /// True when the command must name a place on the table (`to`): where the marker goes.
    pub fn needs_place(self) -> bool {
        matches!(self, Self::MoveHazard | Self::Ritual)
    }

    /// True when it completes at the end of the opponent's next turn rather than this one.
    pub fn completes_next_turn(self) -> bool {
        matches!(self, Self::BurnObjective | Self::Sabotage)
    }
}

/// A mission: battle rounds, objective markers and scoring.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mission {
    /// Mission name.
    pub name: String,
    /// Where the mission comes from.
    #[serde(default)]
    pub source: String,
    /// Number of battle rounds (5 in matched play).
    #[serde(default = "default_rounds")]
    pub battle_rounds: u8,
    /// Objective markers; empty means the deployment map's markers are used.
    #[serde(default)]
    pub objectives: Vec<ObjectiveMarker>,
    /// Primary scoring rules.
    #[serde(default)]
    pub scoring: Vec<ScoringRule>,
    /// In the last battle round the player going second scores the end-of-Command-phase rules
    /// at the end of their turn instead (Chapter Approved 2025-26 primaries).
    #[serde(default)]
    pub last_round_second_player_scores_at_end_of_turn: bool,
    /// Set-up steps (objectives moved, added or removed).
    #[serde(default)]
    pub setup: Vec<MissionSetup>,
    /// Actions the primary mission lets units perform.
    #[serde(default)]
    pub actions: Vec<MissionAction>,
    /// The secondary mission deck, relative to the mission file (None: no secondaries).
    #[serde(default)]
    pub secondary_deck: Option<String>,
    /// VP for a Battle Ready army (painted, based), added at the end of the battle (10 in
    /// Chapter Approved 2025-26; 0: not used).
    #[serde(default)]
    pub battle_ready_vp: u32,
    /// Most primary VP a player may score in the battle (0: no cap).
    #[serde(default)]
    pub primary_cap: u32,
    /// Most secondary VP a player may score in the battle (0: no cap).
    #[serde(default)]
    pub secondary_cap: u32,
}

impl Mission {
    /// Unexploded Ordnance: how far a Hazard objective moves (inches), if the mission has
    /// Hazard objectives.
    pub fn hazard_move_inches(&self) -> Option<f32> {
        self.setup.iter().find_map(|s| match *s {
            MissionSetup::Hazards { move_inches } => Some(move_inches),
            _ => None,
        })
    }

    /// The Ritual: (within, exactly, clear) inches for the new marker, if the mission has it.
    pub fn ritual_distances(&self) -> Option<(f32, f32, f32)> {
        self.setup.iter().find_map(|s| match *s {
            MissionSetup::Ritual {
                within_inches,
                exactly_inches,
                clear_inches,
            } => Some((within_inches, exactly_inches, clear_inches)),
            _ => None,
        })
    }

    /// Burden of Trust: true when units guard objectives (a [`ScoringRule::Guarding`] rule).
    pub fn has_guards(&self) -> bool {
        self.scoring
            .iter()
            .any(|r| matches!(r, ScoringRule::Guarding { .. }))
    }
}

fn default_rounds() -> u8 {
    super::constants::BATTLE_ROUNDS
}
