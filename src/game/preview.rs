//! What a player may know before rolling: the exact distribution of an attack's outcome, the
//! legal targets of a weapon, and the Charge roll a charge needs with its probability. Nothing
//! here draws dice or changes the game.

use std::collections::BTreeMap;

use super::command::WeaponTarget;
use super::event::Rejection;
use super::shooting::AttackKind;
use super::state::Game;
use crate::rules::attack::exact::{AttackDistribution, distribution_of_weapons};
use crate::rules::movement::{charge_roll_needed, charge_roll_probability};

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
        if self.profiles.is_empty() {
            vec![self.weapon.clone()]
        } else {
            self.profiles
                .iter()
                .map(|p| format!("{} - {p}", self.weapon))
                .collect()
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
        let (army, root) = self.own_root(player, unit)?;
        let kind = if melee {
            AttackKind::Melee
        } else {
            AttackKind::Shooting
        };
        let all = weapons
            .iter()
            .map(|wt| self.prepare_attack(army, root, wt, kind))
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
                // The target's kept Command Re-roll of a saving throw counts too.
                let first = &prepared[0];
                let defender_save = first.theirs.first().is_some_and(|&e| {
                    let r = first.sight.models[e];
                    self.units[r.army][r.unit].command_reroll
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
    /// profiles are left to the caller.
    ///
    /// Core Rules: Shooting phase (PISTOL), Fight phase (one melee weapon, EXTRA ATTACKS).
    pub fn weapon_options(&self, army: usize, unit: usize, melee: bool) -> Vec<WeaponOption> {
        use crate::rules::WeaponAbility as A;
        let engaged = self.engaged(army, unit);
        let mut out: Vec<(WeaponOption, Vec<String>)> = Vec::new();
        let live = self.live_models(army, unit);
        for r in &live {
            let u = &self.scene.armies[army].units[r.unit];
            let sheet = &u.datasheet;
            let big = sheet.has_keyword("MONSTER") || sheet.has_keyword("VEHICLE");
            let profiles = |w: &str| sheet.profiles_of(w);
            let mut chosen: Vec<&str> = u.models[r.model]
                .weapons
                .iter()
                .map(String::as_str)
                .filter(|w| profiles(w).first().is_some_and(|p| p.is_melee() == melee))
                .collect();
            let has = |w: &str, a: &A| profiles(w).iter().any(|p| p.has(a));
            if melee {
                let score = |w: &str| {
                    profiles(w)
                        .iter()
                        .map(|p| {
                            p.attacks.mean()
                                * f32::from(p.strength)
                                * p.damage.mean()
                                * (1.0 + 0.5 * f32::from(-p.ap))
                                * f32::from(7 - p.skill.unwrap_or(1).min(6))
                        })
                        .fold(0.0, f32::max)
                };
                let best = chosen
                    .iter()
                    .filter(|w| !has(w, &A::ExtraAttacks))
                    .copied()
                    .max_by(|a, b| score(a).total_cmp(&score(b)));
                chosen.retain(|w| has(w, &A::ExtraAttacks) || Some(*w) == best);
            } else if !big {
                let pistols = chosen.iter().any(|w| has(w, &A::Pistol));
                let others = chosen.iter().any(|w| !has(w, &A::Pistol));
                if pistols && others {
                    chosen.retain(|w| has(w, &A::Pistol) == engaged);
                }
            }
            let name = self.model_name(*r);
            for w in chosen {
                let names: Vec<String> = profiles(w)
                    .iter()
                    .filter_map(|p| p.profile.clone())
                    .collect();
                match out
                    .iter_mut()
                    .find(|(o, _)| o.weapon.eq_ignore_ascii_case(w))
                {
                    Some((o, _)) => o.models.push(name.clone()),
                    None => out.push((
                        WeaponOption {
                            weapon: w.to_string(),
                            profiles: names,
                            models: vec![name.clone()],
                        },
                        Vec::new(),
                    )),
                }
            }
        }
        // Name the models only where some carrier of the weapon does not use it.
        for (o, _) in &mut out {
            let carriers = live
                .iter()
                .filter(|r| {
                    self.scene.armies[army].units[r.unit].models[r.model]
                        .weapons
                        .iter()
                        .any(|w| w.eq_ignore_ascii_case(&o.weapon))
                })
                .count();
            if carriers == o.models.len() {
                o.models.clear();
            }
        }
        out.into_iter().map(|(o, _)| o).collect()
    }

    /// The enemy unit ids the player's unit could attack with `weapon` now (in range, visible
    /// unless INDIRECT FIRE, Engagement Range rules), in army order.
    pub fn legal_targets(&self, player: u8, unit: &str, weapon: &str, melee: bool) -> Vec<String> {
        let Some(enemy) = self.army_of(if player == 1 { 2 } else { 1 }) else {
            return Vec::new();
        };
        self.unit_roots(enemy)
            .into_iter()
            .filter(|&u| !self.live_models(enemy, u).is_empty())
            .map(|u| self.unit_id(enemy, u).to_string())
            .filter(|target| {
                let wt = WeaponTarget::new(weapon.to_string(), target.clone());
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
        let needed = charge_roll_needed(distance);
        Ok(ChargeOdds {
            distance,
            needed,
            probability: charge_roll_probability(needed),
        })
    }
}
