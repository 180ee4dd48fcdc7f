//! Every edition-specific number in one place.
//!
//! 10th edition is the ruleset this project implements; 11th edition exists, so ranges,
//! thresholds and table sizes live here and nowhere else. Distances are in inches.
//! Sources: Core Rules (seeds/003) and Rules Commentary (seeds/000), digested in
//! `shared/RULES.md`.

/// Millimetres per inch, for base sizes given in millimetres.
pub const MM_PER_INCH: f32 = 25.4;

/// Width of the battlefield for a 2000-point game: the long edge, along x (inches).
pub const BOARD_WIDTH_INCHES: f32 = 60.0;
/// Depth of the battlefield for a 2000-point game: the short edge, along y (inches).
pub const BOARD_DEPTH_INCHES: f32 = 44.0;

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

/// Height above the table of a ruin's first floor when a layout does not give one (inches).
/// Openings below it are "ground-floor windows" for the tournament convention that closes them.
pub const DEFAULT_FIRST_FLOOR_HEIGHT_INCHES: f32 = 3.0;

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
