//! Helpers shared by the attack tests.

use wartable::rules::{DiceExpr, WeaponAbility, WeaponProfile};

/// A dice expression from text ("D6+1").
pub fn dice(s: &str) -> DiceExpr {
    s.parse().unwrap()
}

/// A 24" ranged weapon profile.
pub fn weapon(
    attacks: &str,
    skill: u8,
    s: u8,
    ap: i8,
    d: &str,
    abilities: Vec<WeaponAbility>,
) -> WeaponProfile {
    WeaponProfile {
        profile: None,
        name: "test weapon".into(),
        range: Some(24.0),
        attacks: dice(attacks),
        skill: Some(skill),
        strength: s,
        ap,
        damage: dice(d),
        abilities,
    }
}
