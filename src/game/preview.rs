//! What a player may know before rolling: the exact distribution of an attack's outcome, the
//! legal targets of a weapon, and the Charge roll a charge needs with its probability. Nothing
//! here draws dice or changes the game.

use std::collections::{BTreeMap, HashMap};

use super::command::WeaponTarget;
use super::event::Rejection;
use super::shooting::{AttackKind, PreparedAttack};
use super::state::Game;
use crate::rules::attack::exact::{AttackDistribution, distribution_of_weapons};
use crate::rules::movement::charge_roll_probability;

/// Weapon assignments measured on the table by earlier previews of one game (see
/// [`Game::preview_attacks_memo`]), by attacking army, unit, kind of attack and assignment.
#[derive(Default)]
pub struct PreviewMemo {
    prepared: HashMap<(usize, usize, AttackKind, WeaponTarget), Result<PreparedAttack, Rejection>>,
    /// The game's sight index, fetched for the first assignment measured.
    sight: Option<super::sight::SceneSight>,
}

/// The exact outcome distribution of every weapon assigned to one target.
#[derive(Debug, Clone, PartialEq)]
pub struct AttackPreview {
    /// Target unit id.
    pub target: String,
    /// Models of the target on the table.
    pub target_models: usize,
    /// Models that would attack, summed over the weapons.
    pub bearers: usize,
    /// Bearers left out and why (`unit#N: rule`).
    pub excluded: Vec<String>,
    /// The target has the Benefit of Cover.
    pub benefit_of_cover: bool,
    /// Mean wounds lost, models destroyed, and the probability of each count.
    pub distribution: AttackDistribution,
}

/// One weapon a group of the unit's models can use together now, in a loadout that the
/// engine accepts whole (see [`Game::weapon_options`]).
#[derive(Debug, Clone, PartialEq)]
pub struct WeaponOption {
    /// The weapon's name.
    pub weapon: String,
    /// Its profiles (names), for a weapon with several; empty for one profile.
    pub profiles: Vec<String>,
    /// The models that use it (`unit#N`); empty when every carrier in the unit does.
    pub models: Vec<String>,
}

impl WeaponOption {
    /// The assignment of this option at `target`, with `profile` (one of `profiles`).
    pub fn at(&self, target: &str, profile: Option<&str>) -> WeaponTarget {
        let mut wt = WeaponTarget::new(self.weapon.clone(), target.to_string())
            .by_models(self.models.clone());
        if let Some(p) = profile {
            wt = wt.with_profile(p);
        }
        wt
    }

    /// The labels to try: "weapon - profile" for each profile, or the weapon's name.
    pub fn labels(&self) -> Vec<String> {
        self.profile_choices()
            .into_iter()
            .map(|p| self.label(p))
            .collect()
    }

    /// Each profile a [`WeaponTarget`] of this option can name, in datasheet order: `None`
    /// alone for a weapon with one profile, else each profile's name.
    pub fn profile_choices(&self) -> Vec<Option<&str>> {
        if self.profiles.is_empty() {
            vec![None]
        } else {
            self.profiles.iter().map(|p| Some(p.as_str())).collect()
        }
    }

    /// The option's name with `profile` chosen: "weapon - profile", or the weapon's name
    /// when `profile` is None.
    pub fn label(&self, profile: Option<&str>) -> String {
        match profile {
            Some(p) => format!("{} - {p}", self.weapon),
            None => self.weapon.clone(),
        }
    }
}

/// The Charge roll a declared charge needs and its chance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChargeOdds {
    /// Closest distance to the farthest of the targets (inches): the charge must reach all.
    pub distance: f32,
    /// The smallest 2D6 roll that reaches.
    pub needed: u32,
    /// Probability of rolling at least `needed`.
    pub probability: f64,
}

impl Game {
    /// The exact distributions of the unit `unit` (the player's) attacking with `weapons`,
    /// weapons at the same target combined in the order given, with the game's circumstances
    /// (cover, Go to Ground, charged, Command Re-roll...). `melee` selects Fight-phase attacks.
    /// Core Rules: Making Attacks (the sequence the distribution follows).
    ///
    /// # Errors
    /// The [`Rejection`] the attack would get from the table (range, sight, weapon kind).
    pub fn preview_attacks(
        &self,
        player: u8,
        unit: &str,
        weapons: &[WeaponTarget],
        melee: bool,
    ) -> Result<Vec<AttackPreview>, Rejection> {
        self.preview_attacks_memo(player, unit, weapons, melee, &mut PreviewMemo::default())
    }

    /// [`Game::preview_attacks`], taking each weapon assignment's measurements (bearers,
    /// range, sight, cover) from `memo` when an earlier preview of the same game already made
    /// them, and keeping the new ones there. For comparing many loadouts of one unit (the
    /// computer opponent's target choice): the memo must be used with one game only, and
    /// dropped when the game changes.
    ///
    /// # Errors
    /// As [`Game::preview_attacks`].
    pub fn preview_attacks_memo(
        &self,
        player: u8,
        unit: &str,
        weapons: &[WeaponTarget],
        melee: bool,
        memo: &mut PreviewMemo,
    ) -> Result<Vec<AttackPreview>, Rejection> {
        let (army, root) = self.own_root(player, unit)?;
        let kind = if melee {
            AttackKind::Melee
        } else {
            AttackKind::Shooting
        };
        for wt in weapons {
            let key = (army, root, kind, wt.clone());
            if !memo.prepared.contains_key(&key) {
                let sight = memo.sight.get_or_insert_with(|| self.sight()).clone();
                let prepared = self.prepare_attack_in(sight, army, root, wt, kind);
                memo.prepared.insert(key, prepared);
            }
        }
        let all = weapons
            .iter()
            .map(|wt| match &memo.prepared[&(army, root, kind, wt.clone())] {
                Ok(p) => Ok(p),
                Err(e) => Err(e.clone()),
            })
            .collect::<Result<Vec<_>, _>>()?;
        self.check_weapon_use(&all, kind)?;
        let mut by_target: BTreeMap<String, (usize, AttackPreview, Vec<_>)> = BTreeMap::new();
        for (order, (wt, prepared)) in weapons.iter().zip(all).enumerate() {
            let entry = by_target.entry(wt.target.clone()).or_insert_with(|| {
                (
                    order,
                    AttackPreview {
                        target: wt.target.clone(),
                        target_models: prepared.target.models_alive(),
                        bearers: 0,
                        excluded: Vec::new(),
                        benefit_of_cover: prepared.plan.benefit_of_cover,
                        distribution: AttackDistribution {
                            expected_wounds_lost: 0.0,
                            expected_models_destroyed: 0.0,
                            models_destroyed: Vec::new(),
                            wounds_lost: Vec::new(),
                        },
                    },
                    Vec::new(),
                )
            });
            entry.1.bearers += prepared.bearers();
            entry.1.excluded.extend(
                prepared
                    .plan
                    .excluded
                    .iter()
                    .map(|(m, r)| format!("{m}: {r}")),
            );
            entry.2.push(prepared);
        }
        let mut out: Vec<(usize, AttackPreview)> = by_target
            .into_values()
            .map(|(order, mut preview, prepared)| {
                let weapons: Vec<_> = prepared.iter().flat_map(|p| p.resolved.clone()).collect();
                // The target's Command Re-roll set for a saving throw counts too, while it can
                // be used.
                let first = &prepared[0];
                let defender_save = first.theirs.first().is_some_and(|&e| {
                    let r = first.sight.models[e];
                    self.command_reroll_ready(r.army, r.unit)
                        == Some(super::RerollRoll::SavingThrow)
                });
                let rerolls = crate::rules::attack::CommandRerolls {
                    attacker: first.command_reroll,
                    defender_save,
                };
                preview.distribution = distribution_of_weapons(&weapons, &first.target, rerolls);
                (order, preview)
            })
            .collect();
        out.sort_by_key(|(order, _)| *order);
        Ok(out.into_iter().map(|(_, p)| p).collect())
    }

    /// A loadout for the combined unit (`army`, `unit`) that uses each model's weapons the
    /// way the rules allow, one option per weapon: in melee each model's strongest melee
    /// weapon (by Attacks x Strength x Damage x AP, a rough guide) plus its EXTRA ATTACKS
    /// weapons; shooting, each model's ranged weapons, its other guns rather than its Pistols
    /// unless it is within Engagement Range (a MONSTER or VEHICLE fires both). Targets and
    /// profiles are left to the caller. [`Game::weapons_of`] gives the same weapons with
    /// their profiles' characteristics.
    ///
    /// Core Rules: Shooting phase (PISTOL), Fight phase (one melee weapon, EXTRA ATTACKS).
    pub fn weapon_options(&self, army: usize, unit: usize, melee: bool) -> Vec<WeaponOption> {
        self.weapons_of(army, unit, melee)
            .into_iter()
            .map(|w| w.option)
            .collect()
    }

    /// The enemy unit ids the player's unit could attack with `weapon` now (in range, visible
    /// unless INDIRECT FIRE, Engagement Range rules), in army order: every carrier of the
    /// weapon (a name, or "weapon - profile") attacking ([`Game::legal_targets_of`]).
    pub fn legal_targets(&self, player: u8, unit: &str, weapon: &str, melee: bool) -> Vec<String> {
        self.legal_targets_of(player, unit, &WeaponTarget::new(weapon, ""), melee)
    }

    /// The enemy unit ids the player's unit could attack now with the weapon, profile and
    /// models of `assignment` (its target is ignored; one [`Game::preview_attacks`] per
    /// enemy unit on the battlefield), in army order. `melee` selects Fight-phase attacks.
    pub fn legal_targets_of(
        &self,
        player: u8,
        unit: &str,
        assignment: &WeaponTarget,
        melee: bool,
    ) -> Vec<String> {
        let Some(enemy) = self.army_of(crate::rules::phase::opponent(player)) else {
            return Vec::new();
        };
        self.unit_roots(enemy)
            .into_iter()
            .filter(|&u| !self.live_models(enemy, u).is_empty())
            .map(|u| self.unit_id(enemy, u).to_string())
            .filter(|target| {
                let wt = WeaponTarget {
                    target: target.clone(),
                    ..assignment.clone()
                };
                self.preview_attacks(player, unit, &[wt], melee).is_ok()
            })
            .collect()
    }

    /// The Charge roll the player's unit needs to reach every one of `targets` and its
    /// probability. Core Rules: Charge phase.
    ///
    /// # Errors
    /// An unknown unit or target.
    pub fn charge_odds(
        &self,
        player: u8,
        unit: &str,
        targets: &[String],
    ) -> Result<ChargeOdds, Rejection> {
        let (army, root) = self.own_root(player, unit)?;
        let mut distance: f32 = 0.0;
        for t in targets {
            let (tarmy, tunit) = self.enemy_unit(player, t)?;
            let troot = self.combined(tarmy, tunit)[0];
            distance = distance.max(self.unit_distance((army, root), (tarmy, troot)));
        }
        let needed = self.scene.edition().charge_roll_needed(distance);
        Ok(ChargeOdds {
            distance,
            needed,
            probability: charge_roll_probability(needed),
        })
    }
}
