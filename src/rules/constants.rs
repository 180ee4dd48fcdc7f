//! Every edition-specific number in one place.
//!
//! 10th edition is the ruleset this project implements; 11th edition exists, so ranges,
//! thresholds and table sizes live here and nowhere else. Distances are in inches.
//! Sources: Core Rules (seeds/003) and Rules Commentary (seeds/000), digested in
//! `shared/RULES.md`.

// Unit and table facts belong to geometry (which uses no rules); they are re-exported here so
// every number can still be found in this module.
pub use crate::geometry::units::{BOARD_DEPTH_INCHES, BOARD_WIDTH_INCHES, MM_PER_INCH};

/// Engagement Range, horizontal part (Core Rules: Engagement Range).
pub const ENGAGEMENT_RANGE_HORIZONTAL_INCHES: f32 = 1.0;
/// Engagement Range, vertical part (Core Rules: Engagement Range).
pub const ENGAGEMENT_RANGE_VERTICAL_INCHES: f32 = 5.0;
/// Engagement Range measured across a barricade (Core Rules: Barricades and Fuel Pipes).
pub const BARRICADE_ENGAGEMENT_RANGE_INCHES: f32 = 2.0;

/// Unit Coherency, horizontal part (Core Rules: Unit Coherency).
pub const COHERENCY_HORIZONTAL_INCHES: f32 = 2.0;
/// Unit Coherency, vertical part (Core Rules: Unit Coherency).
pub const COHERENCY_VERTICAL_INCHES: f32 = 5.0;
/// A unit with at least this many models needs two neighbours in coherency instead of one.
pub const COHERENCY_TWO_NEIGHBOURS_FROM_MODELS: usize = 7;

/// Diameter of an objective marker (millimetres).
pub const OBJECTIVE_MARKER_DIAMETER_MM: f32 = 40.0;
/// Radius of an objective marker (inches): the one conversion of [`OBJECTIVE_MARKER_DIAMETER_MM`].
pub const OBJECTIVE_MARKER_RADIUS_INCHES: f32 = OBJECTIVE_MARKER_DIAMETER_MM / MM_PER_INCH / 2.0;
/// How close to "exactly" a distance must be when a rule asks for an exact one (The Ritual's
/// new marker exactly 12" from another), inches: a tenth of an inch, what a tape measure reads.
pub const RITUAL_EXACT_TOLERANCE_INCHES: f32 = 0.1;
/// A model is in range of an objective within this horizontal distance (inches).
pub const OBJECTIVE_RANGE_HORIZONTAL_INCHES: f32 = 3.0;
/// A model is in range of an objective within this vertical distance (inches).
pub const OBJECTIVE_RANGE_VERTICAL_INCHES: f32 = 5.0;

/// A model within this distance of a barricade can get the Benefit of Cover from it (inches).
pub const COVER_BARRICADE_RANGE_INCHES: f32 = 3.0;
/// Plunging Fire: the attacker's base at least this high above the table (inches).
pub const PLUNGING_FIRE_MIN_HEIGHT_INCHES: f32 = 6.0;

/// Number of battle rounds in a matched-play game.
pub const BATTLE_ROUNDS: u8 = 5;

// The first-floor height of a ruin when a layout gives none (inches; openings below it are
// "ground-floor windows" for the tournament convention that closes them) is a fact of the
// terrain model that geometry's wall solids need, so it lives in geometry.
pub use crate::geometry::terrain::DEFAULT_FIRST_FLOOR_HEIGHT_INCHES;

/// Model height used when a datasheet gives none: by keyword, tallest match first (inches).
/// Ordered list of (keyword, height).
pub const DEFAULT_MODEL_HEIGHTS_INCHES: &[(&str, f32)] = &[
    ("TITANIC", 8.0),
    ("TOWERING", 6.0),
    ("AIRCRAFT", 3.0),
    ("MONSTER", 3.5),
    ("VEHICLE", 3.0),
    ("MOUNTED", 2.2),
    ("BEAST", 1.2),
    ("SWARM", 0.8),
    ("INFANTRY", 1.6),
];
/// Model height when neither the datasheet nor any keyword gives one (inches).
pub const FALLBACK_MODEL_HEIGHT_INCHES: f32 = 1.6;

/// An unmodified roll of this value is a Critical Hit or Critical Wound (Rules Commentary:
/// Critical Hit, Critical Wound).
pub const CRITICAL_ROLL: u8 = 6;
/// An unmodified roll of this value always fails a Hit roll, Wound roll or saving throw.
pub const AUTOMATIC_FAILURE_ROLL: u8 = 1;
/// The total modifier to a Hit or Wound roll is capped at plus or minus this (Rules Commentary:
/// Modifying Dice Rolls).
pub const HIT_WOUND_MODIFIER_CAP: i32 = 1;
/// A dice roll is never modified below this (Rules Commentary: Modifying Dice Rolls).
pub const MIN_MODIFIED_ROLL: i32 = 1;
/// WS, BS and Sv are never modified to better than this roll (2 means 2+).
pub const BEST_SKILL_OR_SAVE: i32 = 2;
/// A modified Leadership is never better than this (5 means 5+: never 4+ or better).
pub const BEST_MODIFIED_LEADERSHIP: i32 = 5;
/// A modified Leadership is never worse than this (8 means 8+: never 9+ or worse).
pub const WORST_MODIFIED_LEADERSHIP: i32 = 8;
/// Strength, Toughness, Attacks and Damage are never modified below this.
pub const MIN_STRENGTH_TOUGHNESS_ATTACKS_DAMAGE: i32 = 1;
/// Move and Range are never modified below this (inches).
pub const MIN_MOVE_OR_RANGE_INCHES: f32 = 1.0;

/// Wound roll needed when Strength is at least this multiple of Toughness (2+).
pub const WOUND_ROLL_DOUBLE_STRENGTH: u8 = 2;
/// Wound roll needed when Strength is greater than Toughness (3+).
pub const WOUND_ROLL_GREATER_STRENGTH: u8 = 3;
/// Wound roll needed when Strength equals Toughness (4+).
pub const WOUND_ROLL_EQUAL: u8 = 4;
/// Wound roll needed when Strength is less than Toughness (5+).
pub const WOUND_ROLL_LESSER_STRENGTH: u8 = 5;
/// Wound roll needed when Strength is at most half the Toughness (6+).
pub const WOUND_ROLL_HALF_STRENGTH: u8 = 6;

/// Benefit of Cover: added to armour saving throws (Core Rules: Benefit of Cover).
pub const COVER_SAVE_BONUS: i32 = 1;
/// Benefit of Cover does not help a model with this Save or better against AP 0 (3 means 3+).
pub const COVER_NO_BONUS_SAVE_AT_AP0: u8 = 3;

/// HEAVY: added to the Hit roll if the attacking unit Remained Stationary.
pub const HEAVY_HIT_BONUS: i32 = 1;
/// LANCE: added to the Wound roll if the bearer charged this turn.
pub const LANCE_WOUND_BONUS: i32 = 1;
/// INDIRECT FIRE against a unit that is not visible: added to the Hit roll.
pub const INDIRECT_FIRE_HIT_MODIFIER: i32 = -1;
/// INDIRECT FIRE against a unit that is not visible: unmodified Hit rolls up to this fail.
pub const INDIRECT_FIRE_FAILS_UP_TO: u8 = 3;
/// BLAST: one extra attack per this many models in the target unit (rounded down).
pub const BLAST_MODELS_PER_EXTRA_ATTACK: usize = 5;
/// HAZARDOUS: a test roll of this or less destroys one bearer (or inflicts mortal wounds).
pub const HAZARDOUS_FAILS_UP_TO: u8 = 1;
/// HAZARDOUS: mortal wounds a CHARACTER, MONSTER or VEHICLE bearer suffers instead of dying.
pub const HAZARDOUS_MORTAL_WOUNDS: u32 = 3;
/// Keywords whose bearers suffer mortal wounds instead of dying to a failed HAZARDOUS test.
pub const HAZARDOUS_MORTAL_WOUND_KEYWORDS: &[&str] = &["CHARACTER", "MONSTER", "VEHICLE"];
/// Stealth (unit ability): added to Hit rolls of ranged attacks against the unit.
pub const STEALTH_HIT_MODIFIER: i32 = -1;
/// Big Guns Never Tire: added to Hit rolls of non-PISTOL ranged attacks made by a MONSTER or
/// VEHICLE unit within Engagement Range.
pub const BIG_GUNS_NEVER_TIRE_HIT_MODIFIER: i32 = -1;

// --- Battle: turn structure, movement, charges, fights, reserves, transports, stratagems ---

/// Command points each player has before the first battle round.
pub const STARTING_COMMAND_POINTS: u32 = 0;
/// Command points both players gain at the start of each Command phase (Core Rules: Command
/// phase).
pub const COMMAND_PHASE_CP_GAIN: u32 = 1;
/// Most command points a player may gain in one battle round from anything other than the
/// Command phase gain.
pub const MAX_OTHER_CP_GAIN_PER_ROUND: u32 = 1;
/// A Battle-shock test rolls this many D6 against the unit's best Leadership.
pub const BATTLE_SHOCK_DICE: u32 = 2;
/// Advance: the unit's Move is increased by this many D6 (inches).
pub const ADVANCE_DICE: u32 = 1;
/// Desperate Escape: a test roll of this or less destroys the model.
pub const DESPERATE_ESCAPE_FAILS_UP_TO: u8 = 2;
/// A unit may declare a charge against enemy units within this distance (inches).
pub const CHARGE_RANGE_INCHES: f32 = 12.0;
/// The charge roll: this many D6, the total in inches.
pub const CHARGE_DICE: u32 = 2;
/// Pile-in and Consolidation moves: up to this far (inches).
pub const PILE_IN_INCHES: f32 = 3.0;
/// Consolidation moves: up to this far (inches).
pub const CONSOLIDATE_INCHES: f32 = 3.0;
/// Deep Strike and Strategic Reserves arrive more than this far horizontally from every enemy
/// model (inches).
pub const RESERVES_ENEMY_DISTANCE_INCHES: f32 = 9.0;
/// Strategic Reserves arrive wholly within this distance of a battlefield edge (inches).
pub const STRATEGIC_RESERVES_EDGE_INCHES: f32 = 6.0;
/// Reserves units cannot arrive before this battle round.
pub const RESERVES_FIRST_ROUND: u8 = 2;
/// In this battle round Strategic Reserves cannot arrive in the enemy deployment zone.
pub const STRATEGIC_RESERVES_NO_ENEMY_ZONE_ROUND: u8 = 2;
/// Reserves units (Deep Strike and Strategic Reserves alike) still off the battlefield at the
/// end of this battle round count as destroyed (Chapter Approved 2025-26: Declare Battle
/// Formations, Reserves; the Core Rules alone destroy Strategic Reserves only at the end of
/// the battle), so a unit still waiting arrives where it can in this round.
pub const RESERVES_LAST_ROUND: u8 = 3;
/// At most this percentage of an army's points may start in Strategic Reserves (Core Rules:
/// Strategic Reserves; units with Deep Strike set up in Reserves by that ability do not count
/// towards it).
pub const STRATEGIC_RESERVES_MAX_POINTS_PERCENT: u32 = 25;
/// At most this percentage of an army's points may start in Reserves of any kind, Deep Strike
/// and Strategic Reserves together (Chapter Approved 2025-26: Declare Battle Formations,
/// Reserves: at most half the army's points).
pub const RESERVES_MAX_POINTS_PERCENT: u32 = 50;
/// At most this percentage of an army's units may start in Reserves of any kind, Deep Strike
/// and Strategic Reserves together (Chapter Approved 2025-26: Declare Battle Formations,
/// Reserves: at most half the army's units; each unit of the army list counts, a Leader apart
/// from its Bodyguard).
pub const RESERVES_MAX_UNITS_PERCENT: u32 = 50;
/// Embark: every model must be within this distance of the TRANSPORT (inches).
pub const EMBARK_RANGE_INCHES: f32 = 3.0;
/// Disembark: every model is set up wholly within this distance of the TRANSPORT (inches).
pub const DISEMBARK_RANGE_INCHES: f32 = 3.0;
/// Deadly Demise: the D6 triggers the mortal wounds on this roll or more.
pub const DEADLY_DEMISE_TRIGGERS_ON: u8 = 6;
/// Deadly Demise: units within this distance of the destroyed model suffer the mortal
/// wounds (inches).
pub const DEADLY_DEMISE_RANGE_INCHES: f32 = 6.0;
/// Scouts: a Scout move ends more than this far horizontally from every enemy model
/// (inches).
pub const SCOUTS_ENEMY_DISTANCE_INCHES: f32 = 9.0;
/// Lone Operative: ranged attacks from farther than this cannot target the unit (inches).
pub const LONE_OPERATIVE_RANGE_INCHES: f32 = 12.0;
/// Infiltrators: set up more than this far from the enemy deployment zone and enemy
/// models (inches).
pub const INFILTRATORS_DISTANCE_INCHES: f32 = 9.0;
/// Destroyed Transport: a unit that cannot disembark within 3" sets up wholly within this
/// distance of it instead (emergency disembarkation, inches).
pub const EMERGENCY_DISEMBARK_RANGE_INCHES: f32 = 6.0;
/// Destroyed Transport: after disembarking, a D6 per model; each roll of this or less
/// inflicts 1 mortal wound on the unit (Core Rules: Transports, Destroyed Transport).
pub const DESTROYED_TRANSPORT_FAILS_UP_TO: u8 = 1;
/// Destroyed Transport, emergency disembarkation: each roll of this or less inflicts 1 mortal
/// wound on the unit (Core Rules: Transports, Emergency Disembarkation).
pub const EMERGENCY_DISEMBARK_FAILS_UP_TO: u8 = 3;
/// Grenade stratagem: the enemy unit must be within this distance (inches).
pub const GRENADE_RANGE_INCHES: f32 = 8.0;
/// Grenade stratagem: D6 rolled.
pub const GRENADE_DICE: u32 = 6;
/// Grenade and Tank Shock: each D6 of at least this inflicts one mortal wound.
pub const GRENADE_WOUNDS_ON: u8 = 4;
/// Tank Shock: each D6 of at least this inflicts one mortal wound.
pub const TANK_SHOCK_WOUNDS_ON: u8 = 5;
/// Tank Shock: D6 equal to the VEHICLE's Toughness are rolled; at most this many mortal wounds.
pub const TANK_SHOCK_MAX_MORTAL_WOUNDS: u32 = 6;
/// Heroic Intervention: the charging enemy unit must be within this distance (inches).
pub const HEROIC_INTERVENTION_RANGE_INCHES: f32 = 6.0;
/// Fire Overwatch: the enemy unit must be within this distance (inches).
pub const FIRE_OVERWATCH_RANGE_INCHES: f32 = 24.0;
/// Fire Overwatch: only unmodified Hit rolls of this value hit.
pub const FIRE_OVERWATCH_HITS_ON: u8 = 6;
/// Go to Ground: invulnerable save the INFANTRY unit gains (6 means 6+).
pub const GO_TO_GROUND_INVULNERABLE_SAVE: u8 = 6;
/// Two bases this close (inches) or closer are in base-to-base contact on the digital table
/// (Core Rules: Fight phase, which models fight; Charge move, base-to-base contact).
pub const BASE_CONTACT_INCHES: f32 = 0.05;
/// Tolerance for distances measured on the table (inches): a move of 6.0005" is a 6" move.
pub const MEASURE_TOLERANCE_INCHES: f32 = 1e-3;
/// Moves are checked for walls, models and Engagement Range at points this far apart along
/// each path (inches).
pub const PATH_SAMPLE_INCHES: f32 = 0.25;

// --- Limits on numbers in data files and commands (hostile input, not rules) ---

/// Most models one unit may have, whatever its datasheet's unit size says.
pub const MAX_MODELS_PER_UNIT: u32 = 100;
/// Most points one unit may cost.
pub const MAX_POINTS_PER_UNIT: u32 = 10_000;
/// Largest Move characteristic or Scouts distance (inches).
pub const MAX_MOVE_INCHES: f32 = 60.0;
/// Longest weapon range (inches).
pub const MAX_WEAPON_RANGE_INCHES: f32 = 240.0;
/// Largest Objective Control characteristic, and largest change an ability makes to it.
pub const MAX_OBJECTIVE_CONTROL: u8 = 50;
/// Smallest and largest base diameter (millimetres).
pub const BASE_DIAMETER_RANGE_MM: (f32, f32) = (10.0, 300.0);
/// Smallest and largest hull length or width (inches).
pub const HULL_SIZE_RANGE_INCHES: (f32, f32) = (0.25, 30.0);
/// Tallest model above its base (inches).
pub const MAX_MODEL_HEIGHT_INCHES: f32 = 30.0;
/// Tallest terrain piece, wall or floor, and the highest a model or objective marker may stand
/// (inches).
pub const MAX_TERRAIN_HEIGHT_INCHES: f32 = 30.0;
/// Thickest wall (inches).
pub const MAX_WALL_THICKNESS_INCHES: f32 = 6.0;
/// Rotations and facings lie within plus or minus this many degrees.
pub const MAX_ANGLE_DEGREES: f32 = 360.0;
/// Most points one model's path may have in a move command.
pub const MAX_PATH_POINTS: usize = 100;

/// Chapter Approved 2025-26 mission timings.
///
/// A secondary card with a "when drawn in the first battle round" clause (redraw) applies it
/// in this round.
pub const SECONDARY_REDRAW_ROUND: u8 = 1;
/// Storm Hostile Objective scores for an objective taken while the opponent held none only
/// from this battle round.
pub const STORM_HOSTILE_OBJECTIVE_FROM_ROUND: u8 = 2;
/// Defend Stronghold scores from this battle round.
pub const DEFEND_STRONGHOLD_FROM_ROUND: u8 = 2;
/// Burn Objective can be started from this battle round.
pub const BURN_OBJECTIVE_FROM_ROUND: u8 = 2;

// --- 11th edition (shared/RULES-11e.md): the numbers that differ from 10th ---
//
// The 10th edition numbers above stay the default. Every number an 11th game uses differently
// is here, and [`ELEVENTH`] / [`TENTH`] gather what the engine consults through
// [`crate::rules::ruleset::Ruleset`].

use super::ruleset::{
    ConsolidationRule, CoverEffect, DesperateEscapeRule, DevastatingWoundsRule, DisembarkRule,
    Edition, HazardRule, HeavyRule, IndirectFireRule, SaveProcedure, SightRules, TerrainMovement,
};

/// 11th edition: a charging model that can end within this of a target must (inches; 11th
/// Core Rules 11.04).
pub const ELEVENTH_CHARGE_CONTACT_INCHES: f32 = 1.0;
/// 11th edition hazard roll: unmodified rolls at or below this fail (11th Core Rules 06.03).
pub const ELEVENTH_HAZARD_FAILS_UP_TO: u8 = 2;

/// 11th edition Combat and Emergency Disembark: models set up wholly within this distance of
/// their TRANSPORT (inches; 11th Core Rules 18.04-18.05).
pub const ELEVENTH_COMBAT_DISEMBARK_RANGE_INCHES: f32 = 6.0;

/// 11th edition Consolidate step: the Engaging mode applies with an enemy unit within this
/// distance, the Objective mode with an objective marker within it (inches; 11th Core Rules
/// 12.07).
pub const ELEVENTH_CONSOLIDATION_MODE_INCHES: f32 = 3.0;
/// 11th edition: mortal wounds a failed hazard roll inflicts on the unit (one with INFANTRY
/// and MONSTER or VEHICLE models included: first rules update).
pub const ELEVENTH_HAZARD_MORTAL_WOUNDS: u32 = 1;
/// 11th edition: ... on a unit whose every model is a MONSTER or VEHICLE.
pub const ELEVENTH_HAZARD_MONSTER_VEHICLE_MORTAL_WOUNDS: u32 = 3;
/// 11th edition HEAVY: +1 to hit if no model of the unit moved more than this (inches; 11th
/// Core Rules 24.16).
pub const ELEVENTH_HEAVY_MOVED_AT_MOST_INCHES: f32 = 3.0;
/// 11th edition INDIRECT FIRE at a unit that is not visible: unmodified Hit rolls up to this
/// fail (11th Core Rules 10.07).
pub const ELEVENTH_INDIRECT_FIRE_FAILS_UP_TO: u8 = 5;
/// ... up to this when the unit Remained Stationary and a friendly unit sees the target.
pub const ELEVENTH_INDIRECT_FIRE_SPOTTED_FAILS_UP_TO: u8 = 3;

/// 11th edition: non-INFANTRY models move horizontally through sections of Dense features this
/// tall or lower (inches; 11th Core Rules 13.06).
pub const ELEVENTH_DENSE_PASS_HEIGHT_INCHES: f32 = 2.0;
/// 11th edition take to the skies: a FLY unit's move is this much shorter (inches; 11th Core
/// Rules 21.03; HOVER: no reduction).
pub const ELEVENTH_TAKE_TO_THE_SKIES_INCHES: f32 = 2.0;

/// 11th edition Engagement Range, horizontal part (11th Core Rules 03.04).
pub const ELEVENTH_ENGAGEMENT_RANGE_HORIZONTAL_INCHES: f32 = 2.0;
/// 11th edition Unit Coherency span: every model within this distance horizontally of every
/// other model of its unit (11th Core Rules 03.03).
pub const ELEVENTH_COHERENCY_SPAN_INCHES: f32 = 9.0;
/// 11th edition set-up distance from enemy units for ingress moves, Deep Strike,
/// Infiltrators and Scouts (11th Core Rules 20.04, 24.09, 24.20, 24.31): more than this.
pub const ELEVENTH_SET_UP_ENEMY_DISTANCE_INCHES: f32 = 8.0;
/// Solid (11th Core Rules 13.11): no sight through an enclosed gap of a Dense feature whose
/// bottom is this high above the ground or lower (inches).
pub const ELEVENTH_SOLID_GAP_HEIGHT_INCHES: f32 = 3.0;
/// Hidden (11th Core Rules 13.09): a hidden model is seen only by enemy models within this
/// detection range (inches).
pub const ELEVENTH_HIDDEN_DETECTION_RANGE_INCHES: f32 = 15.0;
/// 11th edition Plunging Fire: the attacker stands on a terrain section at least this high
/// (inches; 11th Core Rules 22.05).
pub const ELEVENTH_PLUNGING_FIRE_MIN_HEIGHT_INCHES: f32 = 3.0;
/// 11th edition Plunging Fire: a TOWERING attacker with the target within this distance
/// (inches; 11th Core Rules 22.05).
pub const ELEVENTH_PLUNGING_FIRE_TOWERING_INCHES: f32 = 12.0;
/// 11th edition Benefit of Cover: the attack's Ballistic Skill worsens by this (11th Core
/// Rules 13.08; 2 means "3+ becomes 4+" is +1 here).
pub const ELEVENTH_COVER_BALLISTIC_SKILL_PENALTY: i32 = 1;

/// The 10th edition's numbers and mechanics (Core Rules, Rules Commentary; shared/RULES.md).
pub const TENTH: Edition = Edition {
    name: "10th",
    engagement_range_horizontal_inches: ENGAGEMENT_RANGE_HORIZONTAL_INCHES,
    engagement_range_vertical_inches: ENGAGEMENT_RANGE_VERTICAL_INCHES,
    barricade_engagement_range_inches: Some(BARRICADE_ENGAGEMENT_RANGE_INCHES),
    coherency_two_neighbours_from_models: Some(COHERENCY_TWO_NEIGHBOURS_FROM_MODELS),
    coherency_span_inches: None,
    reserves_enemy_distance_inches: RESERVES_ENEMY_DISTANCE_INCHES,
    infiltrators_distance_inches: INFILTRATORS_DISTANCE_INCHES,
    scouts_enemy_distance_inches: SCOUTS_ENEMY_DISTANCE_INCHES,
    normal_move_may_cross_engagement_range: false,
    monster_vehicle_through_other_models: false,
    terrain_area_objectives: false,
    terrain_movement: TerrainMovement::Tenth,
    sight: SightRules::Footprints,
    cover: CoverEffect::ImproveArmourSave(COVER_SAVE_BONUS),
    save_procedure: SaveProcedure::OneAttackAtATime,
    devastating_wounds: DevastatingWoundsRule::MortalWoundsCarryOver,
    lethal_hits_optional: false,
    hazard: HazardRule::BearerDestroyed {
        fails_up_to: HAZARDOUS_FAILS_UP_TO,
        mortal_wounds: HAZARDOUS_MORTAL_WOUNDS,
    },
    heavy: HeavyRule::RemainedStationary,
    indirect_fire: IndirectFireRule {
        hit_modifier: INDIRECT_FIRE_HIT_MODIFIER,
        fails_up_to: INDIRECT_FIRE_FAILS_UP_TO,
        fails_up_to_with_spotter: None,
        no_hit_rerolls: false,
    },
    battle_shock_at_half_strength: false,
    battle_shock_until_passed: false,
    one_stratagem_per_unit_per_phase: false,
    charge_targets_after_roll: false,
    charge_contact_inches: BASE_CONTACT_INCHES,
    fight_move_contact_inches: BASE_CONTACT_INCHES,
    shared_pile_in_and_consolidate_steps: false,
    fight_active_player_first: false,
    core_stratagems: super::stratagem::TENTH_CORE_STRATAGEMS,
    desperate_escape: DesperateEscapeRule::ModelDestroyed {
        fails_up_to: DESPERATE_ESCAPE_FAILS_UP_TO,
    },
    psychic_ignores_hit_penalties: false,
    disembark: DisembarkRule::Tenth {
        destroyed_fails_up_to: DESTROYED_TRANSPORT_FAILS_UP_TO,
        emergency_range_inches: EMERGENCY_DISEMBARK_RANGE_INCHES,
        emergency_fails_up_to: EMERGENCY_DISEMBARK_FAILS_UP_TO,
    },
    lone_operative_unseen_beyond_range: false,
    consolidation: ConsolidationRule::TowardsEnemyElseObjective,
    aircraft_from_reserves: false,
    smokescreen_at_phase_start: false,
    leader_and_support: false,
    second_rank_fights: true,
};

/// The 11th edition's numbers and mechanics where they differ (shared/RULES-11e.md).
pub const ELEVENTH: Edition = Edition {
    name: "11th",
    engagement_range_horizontal_inches: ELEVENTH_ENGAGEMENT_RANGE_HORIZONTAL_INCHES,
    engagement_range_vertical_inches: ENGAGEMENT_RANGE_VERTICAL_INCHES,
    barricade_engagement_range_inches: None,
    coherency_two_neighbours_from_models: None,
    coherency_span_inches: Some(ELEVENTH_COHERENCY_SPAN_INCHES),
    reserves_enemy_distance_inches: ELEVENTH_SET_UP_ENEMY_DISTANCE_INCHES,
    infiltrators_distance_inches: ELEVENTH_SET_UP_ENEMY_DISTANCE_INCHES,
    scouts_enemy_distance_inches: ELEVENTH_SET_UP_ENEMY_DISTANCE_INCHES,
    normal_move_may_cross_engagement_range: true,
    monster_vehicle_through_other_models: true,
    terrain_area_objectives: true,
    terrain_movement: TerrainMovement::Eleventh {
        dense_pass_height_inches: ELEVENTH_DENSE_PASS_HEIGHT_INCHES,
        take_to_the_skies_inches: ELEVENTH_TAKE_TO_THE_SKIES_INCHES,
    },
    sight: SightRules::ObscuringAreas {
        solid_gap_inches: ELEVENTH_SOLID_GAP_HEIGHT_INCHES,
        hidden_detection_range_inches: ELEVENTH_HIDDEN_DETECTION_RANGE_INCHES,
    },
    cover: CoverEffect::WorsenBallisticSkill(ELEVENTH_COVER_BALLISTIC_SKILL_PENALTY),
    save_procedure: SaveProcedure::AllocationGroupsLowestFirst,
    devastating_wounds: DevastatingWoundsRule::OneModelPerCriticalWound,
    lethal_hits_optional: true,
    hazard: HazardRule::UnitSuffersMortalWounds {
        fails_up_to: ELEVENTH_HAZARD_FAILS_UP_TO,
        mortal_wounds: ELEVENTH_HAZARD_MORTAL_WOUNDS,
        all_monster_vehicle_mortal_wounds: ELEVENTH_HAZARD_MONSTER_VEHICLE_MORTAL_WOUNDS,
    },
    heavy: HeavyRule::MovedAtMost(ELEVENTH_HEAVY_MOVED_AT_MOST_INCHES),
    indirect_fire: IndirectFireRule {
        hit_modifier: 0,
        fails_up_to: ELEVENTH_INDIRECT_FIRE_FAILS_UP_TO,
        fails_up_to_with_spotter: Some(ELEVENTH_INDIRECT_FIRE_SPOTTED_FAILS_UP_TO),
        no_hit_rerolls: true,
    },
    battle_shock_at_half_strength: true,
    battle_shock_until_passed: true,
    one_stratagem_per_unit_per_phase: true,
    charge_targets_after_roll: true,
    charge_contact_inches: ELEVENTH_CHARGE_CONTACT_INCHES,
    fight_move_contact_inches: ELEVENTH_ENGAGEMENT_RANGE_HORIZONTAL_INCHES,
    shared_pile_in_and_consolidate_steps: true,
    fight_active_player_first: true,
    core_stratagems: super::stratagem::ELEVENTH_CORE_STRATAGEMS,
    desperate_escape: DesperateEscapeRule::HazardRollsThenBattleShock,
    psychic_ignores_hit_penalties: true,
    second_rank_fights: false,
    disembark: DisembarkRule::Modes {
        combat_range_inches: ELEVENTH_COMBAT_DISEMBARK_RANGE_INCHES,
    },
    lone_operative_unseen_beyond_range: true,
    consolidation: ConsolidationRule::Modes {
        within_inches: ELEVENTH_CONSOLIDATION_MODE_INCHES,
    },
    aircraft_from_reserves: true,
    smokescreen_at_phase_start: true,
    leader_and_support: true,
};
