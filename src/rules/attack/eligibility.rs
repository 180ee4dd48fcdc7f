//! Whether a ranged weapon may shoot now: the abilities that gate shooting rather than change
//! rolls (Core Rules: Shooting Phase, Big Guns Never Tire, Locked in Combat; Weapon Abilities:
//! ASSAULT, PISTOL, ONE SHOT, BLAST).

use crate::rules::weapon::{WeaponAbility, WeaponProfile};

/// The shooting unit's and target's situation, as far as eligibility is concerned.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ShootingState {
    /// The shooting unit Advanced this turn.
    pub advanced: bool,
    /// The shooting unit Fell Back this turn.
    pub fell_back: bool,
    /// The shooting unit is within Engagement Range of enemy units.
    pub engaged: bool,
    /// The shooting unit is a MONSTER or VEHICLE (Big Guns Never Tire).
    pub monster_or_vehicle: bool,
    /// The target is one of the units the shooting unit is engaged with.
    pub target_engaged_with_shooter: bool,
    /// The target is within Engagement Range of other units from the shooter's army.
    pub target_engaged_with_friendly: bool,
    /// The target is a MONSTER or VEHICLE (Big Guns Never Tire: it can be shot while engaged).
    pub target_monster_or_vehicle: bool,
    /// This ONE SHOT weapon has already been shot this battle.
    pub one_shot_used: bool,
}

impl ShootingState {
    /// The target is a MONSTER or VEHICLE within Engagement Range of the shooter's army:
    /// ranged attacks against it take Big Guns Never Tire's -1 to hit, unless made with a
    /// PISTOL (Core Rules: Big Guns Never Tire).
    pub fn target_big_and_engaged(&self) -> bool {
        self.target_monster_or_vehicle
            && (self.target_engaged_with_shooter || self.target_engaged_with_friendly)
    }
}

/// Why a weapon may not shoot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Ineligible {
    /// Melee weapons do not shoot.
    #[error("melee weapons cannot shoot")]
    Melee,
    /// Only ASSAULT weapons shoot after Advancing.
    #[error("the unit Advanced: only ASSAULT weapons can shoot")]
    Advanced,
    /// A unit that Fell Back does not shoot.
    #[error("the unit Fell Back this turn and cannot shoot")]
    FellBack,
    /// In Engagement Range only PISTOLs shoot (MONSTER and VEHICLE units excepted).
    #[error("the unit is within Engagement Range: only PISTOL weapons can shoot")]
    EngagedNotPistol,
    /// A PISTOL fired while engaged must target a unit it is engaged with.
    #[error("a PISTOL shot within Engagement Range must target a unit the shooter is engaged with")]
    PistolTarget,
    /// A ONE SHOT weapon shoots once per battle.
    #[error("ONE SHOT: this weapon has already been shot this battle")]
    OneShotUsed,
    /// BLAST weapons cannot target units engaged with friendly units.
    #[error("BLAST weapons cannot target a unit within Engagement Range of friendly units")]
    BlastIntoCombat,
    /// A unit engaged with other friendly units cannot be shot unless it is a MONSTER or
    /// VEHICLE.
    #[error("the target is within Engagement Range of friendly units")]
    TargetInCombat,
}

/// Checks that `weapon`, with any `extra_abilities` granted by other rules, may shoot at the
/// target in `state`.
///
/// # Errors
/// The first rule that forbids it.
pub fn can_shoot(
    weapon: &WeaponProfile,
    extra_abilities: &[WeaponAbility],
    state: &ShootingState,
) -> Result<(), Ineligible> {
    let has = |a: WeaponAbility| {
        weapon.has(&a)
            || extra_abilities
                .iter()
                .any(|x| std::mem::discriminant(x) == std::mem::discriminant(&a))
    };
    if weapon.is_melee() {
        return Err(Ineligible::Melee);
    }
    if state.fell_back {
        return Err(Ineligible::FellBack);
    }
    if state.advanced && !has(WeaponAbility::Assault) {
        return Err(Ineligible::Advanced);
    }
    if state.one_shot_used && has(WeaponAbility::OneShot) {
        return Err(Ineligible::OneShotUsed);
    }
    if state.engaged {
        let pistol = has(WeaponAbility::Pistol);
        if !pistol && !state.monster_or_vehicle {
            return Err(Ineligible::EngagedNotPistol);
        }
        if pistol && !state.monster_or_vehicle && !state.target_engaged_with_shooter {
            return Err(Ineligible::PistolTarget);
        }
    }
    let target_in_combat = state.target_engaged_with_friendly || state.target_engaged_with_shooter;
    if target_in_combat && has(WeaponAbility::Blast) {
        return Err(Ineligible::BlastIntoCombat);
    }
    if state.target_engaged_with_friendly
        && !state.target_monster_or_vehicle
        && !state.target_engaged_with_shooter
    {
        return Err(Ineligible::TargetInCombat);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::DiceExpr;

    fn can_shoot_plain(w: &WeaponProfile, s: &ShootingState) -> Result<(), Ineligible> {
        can_shoot(w, &[], s)
    }

    fn gun(abilities: Vec<WeaponAbility>) -> WeaponProfile {
        WeaponProfile {
            profile: None,
            name: "gun".into(),
            range: Some(24.0),
            attacks: DiceExpr::fixed(1),
            skill: Some(3),
            strength: 4,
            ap: 0,
            damage: DiceExpr::fixed(1),
            abilities,
        }
    }

    #[test]
    fn assault_weapons_shoot_after_advancing() {
        let advanced = ShootingState {
            advanced: true,
            ..Default::default()
        };
        assert_eq!(
            can_shoot_plain(&gun(vec![]), &advanced),
            Err(Ineligible::Advanced)
        );
        assert_eq!(
            can_shoot_plain(&gun(vec![WeaponAbility::Assault]), &advanced),
            Ok(())
        );
        let fell_back = ShootingState {
            fell_back: true,
            ..Default::default()
        };
        assert_eq!(
            can_shoot_plain(&gun(vec![WeaponAbility::Assault]), &fell_back),
            Err(Ineligible::FellBack)
        );
    }

    #[test]
    fn pistols_and_big_guns_in_engagement_range() {
        let engaged = ShootingState {
            engaged: true,
            target_engaged_with_shooter: true,
            ..Default::default()
        };
        assert_eq!(
            can_shoot_plain(&gun(vec![]), &engaged),
            Err(Ineligible::EngagedNotPistol)
        );
        assert_eq!(
            can_shoot_plain(&gun(vec![WeaponAbility::Pistol]), &engaged),
            Ok(())
        );
        let elsewhere = ShootingState {
            target_engaged_with_shooter: false,
            ..engaged
        };
        assert_eq!(
            can_shoot_plain(&gun(vec![WeaponAbility::Pistol]), &elsewhere),
            Err(Ineligible::PistolTarget)
        );
        let tank = ShootingState {
            monster_or_vehicle: true,
            ..engaged
        };
        assert_eq!(can_shoot_plain(&gun(vec![]), &tank), Ok(()));
    }

    #[test]
    fn one_shot_and_blast() {
        let used = ShootingState {
            one_shot_used: true,
            ..Default::default()
        };
        assert_eq!(
            can_shoot_plain(&gun(vec![WeaponAbility::OneShot]), &used),
            Err(Ineligible::OneShotUsed)
        );
        assert_eq!(can_shoot_plain(&gun(vec![]), &used), Ok(()));
        let melee = ShootingState {
            target_engaged_with_friendly: true,
            ..Default::default()
        };
        assert_eq!(
            can_shoot_plain(&gun(vec![WeaponAbility::Blast]), &melee),
            Err(Ineligible::BlastIntoCombat)
        );
        assert_eq!(
            can_shoot_plain(&gun(vec![]), &melee),
            Err(Ineligible::TargetInCombat)
        );
        let big = ShootingState {
            target_monster_or_vehicle: true,
            ..melee
        };
        assert_eq!(can_shoot_plain(&gun(vec![]), &big), Ok(()));
        assert_eq!(
            can_shoot_plain(&gun(vec![WeaponAbility::Blast]), &big),
            Err(Ineligible::BlastIntoCombat)
        );
    }
}
