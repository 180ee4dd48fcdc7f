//! The ruleset seam: which edition of the core rules a game is played under, and the one value
//! ([`Edition`]) the engine consults where the editions differ.
//!
//! 10th edition (the seeds, shared/RULES.md) is the default; 11th edition (shared/RULES-11e.md)
//! is chosen per game (`Scene.options.ruleset`, `--ruleset 11`). The numbers of both live in
//! [`crate::rules::constants`]; code that depends on the edition asks
//! [`Ruleset::edition`] for them instead of testing which edition it is.

use serde::{Deserialize, Serialize};

use super::constants::{ELEVENTH, TENTH};

/// The edition of the core rules a game is played under.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ruleset {
    /// 10th edition (Core Rules and Rules Commentary, the seeds): the default.
    #[default]
    Tenth,
    /// 11th edition (core rules of 20 June 2026 with the first rules update,
    /// shared/RULES-11e.md).
    Eleventh,
}

impl Ruleset {
    /// Both rulesets, 10th first.
    pub const ALL: [Ruleset; 2] = [Ruleset::Tenth, Ruleset::Eleventh];

    /// The edition's numbers and mechanics.
    pub fn edition(self) -> &'static Edition {
        match self {
            Ruleset::Tenth => &TENTH,
            Ruleset::Eleventh => &ELEVENTH,
        }
    }

    /// "10th" or "11th", as outputs and the desktop name it.
    pub fn label(self) -> &'static str {
        self.edition().name
    }

    /// True for the default, 10th edition (for `skip_serializing_if`).
    pub fn is_default(&self) -> bool {
        *self == Ruleset::Tenth
    }
}

impl std::fmt::Display for Ruleset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

impl std::str::FromStr for Ruleset {
    type Err = String;

    /// `10`, `10th`, `tenth` or `11`, `11th`, `eleventh` (any case).
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "10" | "10th" | "tenth" => Ok(Ruleset::Tenth),
            "11" | "11th" | "eleventh" => Ok(Ruleset::Eleventh),
            other => Err(format!(
                "'{other}' is not a ruleset: write 10 (10th edition, the default) or 11"
            )),
        }
    }
}

/// How sight over terrain works in an edition.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SightRules {
    /// 10th: ruin footprints block sight over and through them (with the wholly-within,
    /// TOWERING and AIRCRAFT exceptions), woods spoil "fully visible", and windows are open
    /// unless the scene closes the ground-floor ones (Core Rules: Ruins, Woods).
    Footprints,
    /// 11th: Obscuring areas, Solid gaps, Hidden models, and the target's own unit ignored
    /// (11th Core Rules 06.01, 13.09-13.11).
    ObscuringAreas {
        /// Gaps of Dense features this high or lower are closed (inches).
        solid_gap_inches: f32,
        /// A Hidden model is seen only within this distance (inches).
        hidden_detection_range_inches: f32,
    },
}

/// How models move through terrain and over models with FLY in an edition.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TerrainMovement {
    /// 10th: INFANTRY, BEAST and FLY models through ruin walls, others around; only INFANTRY,
    /// BEAST and FLY end on upper floors; no model ends on battlefield debris; FLY models move
    /// over models and Engagement Range freely (Core Rules: Ruins, Battlefield Debris, Flying).
    Tenth,
    /// 11th (13.06, 21.03): INFANTRY, BEASTS, SWARM and MOBILE through the walls of Dense
    /// features, other models only through sections this tall or lower; INFANTRY, BEASTS,
    /// SWARM, FLY and MONSTER models end above the ground; FLY models move like any other
    /// unless they take to the skies, which costs this much of the move (HOVER: nothing) and
    /// lets them pass over every model and all terrain.
    Eleventh {
        /// Dense sections a non-INFANTRY model passes through (inches).
        dense_pass_height_inches: f32,
        /// Take to the skies: inches off the move.
        take_to_the_skies_inches: f32,
    },
}

/// What the Benefit of Cover does in an edition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoverEffect {
    /// 10th: +N to the armour saving throw of each model an attack is allocated to (not for
    /// a 3+ save against AP 0) (Core Rules: Benefit of Cover).
    ImproveArmourSave(i32),
    /// 11th: the attack's Ballistic Skill worsens by N when every target model has cover,
    /// decided per attacking model (11th Core Rules 13.08).
    WorsenBallisticSkill(i32),
}

/// Every number and mechanic that differs between the editions: the one value the engine
/// consults. Distances in inches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Edition {
    /// "10th" or "11th".
    pub name: &'static str,
    /// Engagement Range, horizontal part.
    pub engagement_range_horizontal_inches: f32,
    /// Engagement Range, vertical part.
    pub engagement_range_vertical_inches: f32,
    /// Engagement Range across a barricade, where the edition has that rule (10th: 2").
    pub barricade_engagement_range_inches: Option<f32>,
    /// Units of at least this many models need two neighbours in coherency (10th: 7).
    pub coherency_two_neighbours_from_models: Option<usize>,
    /// Every model within this distance horizontally of every other model of its unit (11th:
    /// 9").
    pub coherency_span_inches: Option<f32>,
    /// Deep Strike and Strategic Reserves (ingress) set up more than this from enemy models.
    pub reserves_enemy_distance_inches: f32,
    /// Infiltrators set up more than this from the enemy deployment zone and enemy models.
    pub infiltrators_distance_inches: f32,
    /// A Scout move ends more than this from enemy models.
    pub scouts_enemy_distance_inches: f32,
    /// A Normal move (or Advance) may cross enemy Engagement Range on the way, ending
    /// unengaged (11th Core Rules 09.05); 10th forbids entering it at all.
    pub normal_move_may_cross_engagement_range: bool,
    /// MONSTER and VEHICLE models move through models that are neither on Normal and Advance
    /// moves (11th Core Rules 17.01).
    pub monster_vehicle_through_other_models: bool,
    /// An objective that a layout's terrain area is (the layout says so) is in range of every
    /// model within the area (11th Core Rules 14.01); otherwise markers only.
    pub terrain_area_objectives: bool,
    /// How models move over terrain and FLY.
    pub terrain_movement: TerrainMovement,
    /// Sight over terrain.
    pub sight: SightRules,
    /// The Benefit of Cover.
    pub cover: CoverEffect,
}

impl Edition {
    /// The widest horizontal Engagement Range anywhere on the table (across a barricade where
    /// the edition has that rule): models farther apart than this are never engaged.
    pub fn widest_engagement_range_inches(&self) -> f32 {
        self.engagement_range_horizontal_inches
            .max(self.barricade_engagement_range_inches.unwrap_or(0.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rulesets_parse_from_the_command_line_words() {
        for (word, r) in [
            ("10", Ruleset::Tenth),
            ("10th", Ruleset::Tenth),
            ("11", Ruleset::Eleventh),
            ("Eleventh", Ruleset::Eleventh),
        ] {
            assert_eq!(word.parse::<Ruleset>(), Ok(r));
        }
        assert!(
            "12".parse::<Ruleset>()
                .unwrap_err()
                .contains("not a ruleset")
        );
    }

    #[test]
    fn the_editions_differ_where_the_digest_says() {
        let (t, e) = (Ruleset::Tenth.edition(), Ruleset::Eleventh.edition());
        assert_eq!(t.engagement_range_horizontal_inches, 1.0);
        assert_eq!(e.engagement_range_horizontal_inches, 2.0);
        assert_eq!(t.reserves_enemy_distance_inches, 9.0);
        assert_eq!(e.reserves_enemy_distance_inches, 8.0);
        assert_eq!(e.coherency_span_inches, Some(9.0));
        assert_eq!(t.coherency_span_inches, None);
    }
}
