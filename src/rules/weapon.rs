//! Weapon profiles and the core weapon abilities.
//!
//! Core Rules: Weapon Abilities; Rules Commentary entries of the same names.

use serde::{Deserialize, Serialize};

use super::dice::DiceExpr;

/// Largest RAPID FIRE X a weapon may have (datasheets print 1 to 3; the largest engines of
/// war a little more).
pub const MAX_RAPID_FIRE: u8 = 20;
/// Largest MELTA X a weapon may have (datasheets print 2 to 4).
pub const MAX_MELTA: u8 = 10;
/// Most attacks per 5 target models that BLAST X and CLEAVE X may add.
pub const MAX_BLAST: u8 = 6;
/// Largest value SUSTAINED HITS X may reach: its dice expression's maximum (datasheets print 1,
/// 2, 3 and D3).
pub const MAX_SUSTAINED_HITS: i32 = 6;
/// The range of X in ANTI-KEYWORD X+: an unmodified Wound roll of 1 always fails, and 7+ would
/// never be a Critical Wound (datasheets print 2+ to 5+).
pub const ANTI_ROLLS: std::ops::RangeInclusive<u8> = 2..=6;

/// One core weapon ability (Core Rules: Weapon Abilities). Duplicates do not stack.
///
/// Data is held to the limits above ([`MAX_RAPID_FIRE`], [`MAX_MELTA`],
/// [`MAX_SUSTAINED_HITS`], [`ANTI_ROLLS`]): reading an ability past one is an error that
/// names it (see [`WeaponAbility::check`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "WeaponAbilityData")]
pub enum WeaponAbility {
    /// ASSAULT: can shoot after Advancing.
    Assault,
    /// RAPID FIRE X: +X attacks when the target is within half range.
    RapidFire(u8),
    /// IGNORES COVER: the target gets no Benefit of Cover.
    IgnoresCover,
    /// TWIN-LINKED: re-roll the Wound roll.
    TwinLinked,
    /// PISTOL: can shoot while in Engagement Range, at units it is engaged with.
    Pistol,
    /// TORRENT: hits automatically.
    Torrent,
    /// LETHAL HITS: a Critical Hit wounds automatically.
    LethalHits,
    /// LANCE: +1 to the Wound roll if the bearer charged this turn.
    Lance,
    /// INDIRECT FIRE: can target units that are not visible.
    IndirectFire,
    /// PRECISION: attacks can be allocated to a visible CHARACTER.
    Precision,
    /// BLAST: +1 attack per 5 models in the target unit.
    Blast,
    /// MELTA X: +X Damage when the target is within half range.
    Melta(u8),
    /// HEAVY: +1 to hit if the unit Remained Stationary.
    Heavy,
    /// HAZARDOUS: a test after the unit shoots or fights.
    Hazardous,
    /// DEVASTATING WOUNDS: a Critical Wound inflicts mortal wounds equal to Damage.
    DevastatingWounds,
    /// SUSTAINED HITS X: a Critical Hit scores X extra hits.
    SustainedHits(DiceExpr),
    /// EXTRA ATTACKS: used in addition to another melee weapon.
    ExtraAttacks,
    /// ANTI-KEYWORD X+: an unmodified Wound roll of X+ against KEYWORD is a Critical Wound.
    Anti(String, u8),
    /// ONE SHOT: can be shot once per battle.
    OneShot,
    /// PSYCHIC: the attack is a psychic attack.
    Psychic,
    /// BLAST X (11th Core Rules 24.05): +X attacks per 5 models in the target unit (BLAST is
    /// BLAST 1).
    BlastX(u8),
    /// CLEAVE X (11th Core Rules 24.06, melee): +X attacks per 5 models in the target unit when
    /// all the weapon's attacks go at that one unit.
    Cleave(u8),
}

impl WeaponAbility {
    /// Ok when the ability's number is within the limits data may use ([`MAX_RAPID_FIRE`],
    /// [`MAX_MELTA`], [`MAX_SUSTAINED_HITS`], [`ANTI_ROLLS`]); otherwise what is wrong, naming
    /// the limit.
    pub fn check(&self) -> Result<(), String> {
        match self {
            WeaponAbility::RapidFire(x) if *x > MAX_RAPID_FIRE => Err(format!(
                "RAPID FIRE {x} is over the limit: at most RAPID FIRE {MAX_RAPID_FIRE}"
            )),
            WeaponAbility::Melta(x) if *x > MAX_MELTA => Err(format!(
                "MELTA {x} is over the limit: at most MELTA {MAX_MELTA}"
            )),
            WeaponAbility::SustainedHits(x) if x.max() > MAX_SUSTAINED_HITS || x.min() < 0 => {
                Err(format!(
                    "SUSTAINED HITS {x} is outside the limits: 0 to {MAX_SUSTAINED_HITS} extra \
                     hits"
                ))
            }
            WeaponAbility::Anti(k, x) if !ANTI_ROLLS.contains(x) => Err(format!(
                "ANTI-{} {x}+ is outside the limits: {}+ to {}+",
                k.to_uppercase(),
                ANTI_ROLLS.start(),
                ANTI_ROLLS.end()
            )),
            WeaponAbility::Anti(k, _) if k.trim().is_empty() => {
                Err("ANTI-KEYWORD needs a keyword".to_string())
            }
            WeaponAbility::BlastX(x) | WeaponAbility::Cleave(x) if *x == 0 || *x > MAX_BLAST => {
                Err(format!(
                    "{self} is outside the limits: 1 to {MAX_BLAST} attacks per 5 models"
                ))
            }
            _ => Ok(()),
        }
    }
}

/// [`WeaponAbility`] as data writes it, before [`WeaponAbility::check`].
#[derive(Deserialize)]
#[serde(rename = "WeaponAbility")]
enum WeaponAbilityData {
    Assault,
    RapidFire(u8),
    IgnoresCover,
    TwinLinked,
    Pistol,
    Torrent,
    LethalHits,
    Lance,
    IndirectFire,
    Precision,
    Blast,
    Melta(u8),
    Heavy,
    Hazardous,
    DevastatingWounds,
    SustainedHits(DiceExpr),
    ExtraAttacks,
    Anti(String, u8),
    OneShot,
    Psychic,
    BlastX(u8),
    Cleave(u8),
}

impl TryFrom<WeaponAbilityData> for WeaponAbility {
    type Error = String;

    /// The ability, if its number is within the limits ([`WeaponAbility::check`]).
    fn try_from(data: WeaponAbilityData) -> Result<Self, String> {
        use WeaponAbilityData as D;
        let ability = match data {
            D::Assault => Self::Assault,
            D::RapidFire(x) => Self::RapidFire(x),
            D::IgnoresCover => Self::IgnoresCover,
            D::TwinLinked => Self::TwinLinked,
            D::Pistol => Self::Pistol,
            D::Torrent => Self::Torrent,
            D::LethalHits => Self::LethalHits,
            D::Lance => Self::Lance,
            D::IndirectFire => Self::IndirectFire,
            D::Precision => Self::Precision,
            D::Blast => Self::Blast,
            D::Melta(x) => Self::Melta(x),
            D::Heavy => Self::Heavy,
            D::Hazardous => Self::Hazardous,
            D::DevastatingWounds => Self::DevastatingWounds,
            D::SustainedHits(x) => Self::SustainedHits(x),
            D::ExtraAttacks => Self::ExtraAttacks,
            D::Anti(k, x) => Self::Anti(k, x),
            D::OneShot => Self::OneShot,
            D::Psychic => Self::Psychic,
            D::BlastX(x) => Self::BlastX(x),
            D::Cleave(x) => Self::Cleave(x),
        };
        ability.check()?;
        Ok(ability)
    }
}

impl std::fmt::Display for WeaponAbility {
    /// The ability as a datasheet prints it, e.g. "RAPID FIRE 1" or "ANTI-INFANTRY 4+".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use WeaponAbility as A;
        match self {
            A::Assault => f.write_str("ASSAULT"),
            A::RapidFire(x) => write!(f, "RAPID FIRE {x}"),
            A::IgnoresCover => f.write_str("IGNORES COVER"),
            A::TwinLinked => f.write_str("TWIN-LINKED"),
            A::Pistol => f.write_str("PISTOL"),
            A::Torrent => f.write_str("TORRENT"),
            A::LethalHits => f.write_str("LETHAL HITS"),
            A::Lance => f.write_str("LANCE"),
            A::IndirectFire => f.write_str("INDIRECT FIRE"),
            A::Precision => f.write_str("PRECISION"),
            A::Blast => f.write_str("BLAST"),
            A::Melta(x) => write!(f, "MELTA {x}"),
            A::Heavy => f.write_str("HEAVY"),
            A::Hazardous => f.write_str("HAZARDOUS"),
            A::DevastatingWounds => f.write_str("DEVASTATING WOUNDS"),
            A::SustainedHits(x) => write!(f, "SUSTAINED HITS {x}"),
            A::ExtraAttacks => f.write_str("EXTRA ATTACKS"),
            A::Anti(k, x) => write!(f, "ANTI-{} {x}+", k.to_uppercase()),
            A::OneShot => f.write_str("ONE SHOT"),
            A::Psychic => f.write_str("PSYCHIC"),
            A::BlastX(x) => write!(f, "BLAST {x}"),
            A::Cleave(x) => write!(f, "CLEAVE {x}"),
        }
    }
}

/// A weapon's profile as printed on a datasheet.
///
/// `range` is in inches and absent for melee weapons; `skill` is BS (ranged) or WS (melee) as
/// the number before the "+", absent ("N/A") only for TORRENT weapons; `ap` is zero or negative.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponProfile {
    /// The weapon's name as on the datasheet ("Plasma pistol"). A weapon with several profiles
    /// has one entry per profile, all with this name and each with its own `profile`.
    pub name: String,
    /// The profile's name for a weapon with several ("standard", "supercharge"; Core Rules:
    /// Datasheets, weapons with more than one profile: one profile is chosen each time the
    /// weapon is used). `None` for a weapon with one profile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// Range in inches; `None` for a melee weapon.
    #[serde(default)]
    pub range: Option<f32>,
    /// Attacks characteristic (A).
    pub attacks: DiceExpr,
    /// Ballistic or Weapon Skill: the roll needed (3 for 3+); `None` for N/A.
    pub skill: Option<u8>,
    /// Strength characteristic (S).
    pub strength: u8,
    /// Armour Penetration (AP): 0 or negative.
    #[serde(default)]
    pub ap: i8,
    /// Damage characteristic (D).
    pub damage: DiceExpr,
    /// Weapon abilities.
    #[serde(default)]
    pub abilities: Vec<WeaponAbility>,
}

impl WeaponProfile {
    /// The weapon and profile as one name: "Plasma pistol - supercharge", or the weapon's name
    /// when it has one profile.
    pub fn full_name(&self) -> String {
        match &self.profile {
            Some(p) => format!("{} - {p}", self.name),
            None => self.name.clone(),
        }
    }

    /// True when this profile is the one named `name` (case-insensitive): its full name
    /// ("Kannon - frag"), or the weapon's name when it has no profile name.
    pub fn answers_to(&self, name: &str) -> bool {
        self.full_name().eq_ignore_ascii_case(name)
    }

    /// True for a melee weapon (no range).
    pub fn is_melee(&self) -> bool {
        self.range.is_none()
    }

    /// True when the profile carries `ability` (compared by kind, ignoring numbers).
    pub fn has(&self, ability: &WeaponAbility) -> bool {
        self.abilities
            .iter()
            .any(|a| std::mem::discriminant(a) == std::mem::discriminant(ability))
    }
}
