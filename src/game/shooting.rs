//! The Shooting phase, and the attack resolution the Fight phase and Fire Overwatch share:
//! each weapon at its target through the attack module, wounds and casualties applied.
//!
//! Core Rules: Shooting phase (eligible units, targets, Big Guns Never Tire), Making Attacks;
//! Rules Commentary: Attached Units (allocation), Mortal Wounds.

use super::command::{RerollRoll, WeaponTarget};
use super::event::GameEvent;
use super::rejection::{Rejection, Rule, reject};
use super::state::{Game, Location, PendingShot, Trigger, TriggerKind};
use crate::game::combat::{AttackPlan, AttackerCircumstances, plan_attack};
use crate::game::sight::{ModelRef, SceneSight};
use crate::rules::WeaponAbility;
use crate::rules::attack::roll::{RollOutcome, resolve_weapons};
use crate::rules::attack::{CommandReroll, CommandRerolls, HazardLoss, ResolvedWeapon, TargetUnit};
use crate::rules::constants::{FIRE_OVERWATCH_HITS_ON, GO_TO_GROUND_INVULNERABLE_SAVE};
use crate::rules::effect::Modifier;
use crate::rules::movement::{MoveMode, Moved};
use crate::rules::phase::Phase;
use crate::rules::stratagem::Stratagem;

/// One weapon assignment ready to be rolled (see [`Game::prepare_attack`]).
pub(super) struct PreparedAttack {
    /// The table's plan (bearers, exclusions, cover).
    pub plan: AttackPlan,
    /// The sight index the plan was measured on.
    pub sight: SceneSight,
    /// The target's index entries.
    pub theirs: Vec<usize>,
    /// The target with its wounds remaining.
    pub target: TargetUnit,
    /// The weapons resolved against the target.
    pub resolved: Vec<ResolvedWeapon>,
    /// The Command Re-roll kept for these attacks.
    pub command_reroll: CommandReroll,
    /// Embarked models whose weapons the TRANSPORT fires (Firing Deck); empty otherwise.
    pub firing_deck: Vec<ModelRef>,
}

impl PreparedAttack {
    /// The models attacking: the bearers, or the embarked models firing through a Firing Deck.
    pub fn bearers(&self) -> usize {
        self.attacking_models().len()
    }

    /// The models [`PreparedAttack::bearers`] counts, one entry per model.
    fn attacking_models(&self) -> Vec<ModelRef> {
        if self.firing_deck.is_empty() {
            self.plan
                .attacking
                .iter()
                .map(|&e| self.sight.models[e])
                .collect()
        } else {
            self.firing_deck.clone()
        }
    }
}

/// The models attacking with any of `group`'s weapons, each counted once: a Redemptor firing
/// its flamer and its grenade launcher is one model attacking, not two.
fn models_attacking<'a>(group: impl Iterator<Item = &'a PreparedAttack>) -> usize {
    let mut models: Vec<ModelRef> = Vec::new();
    for r in group.flat_map(PreparedAttack::attacking_models) {
        if !models.contains(&r) {
            models.push(r);
        }
    }
    models.len()
}

/// How a unit attacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum AttackKind {
    /// Shooting in its Shooting phase.
    Shooting,
    /// Fire Overwatch: shooting in the opponent's turn, hitting only on unmodified 6s.
    Overwatch,
    /// Melee in the Fight phase.
    Melee,
    /// A destroyed model shooting before it is removed: normal attacks, HAZARDOUS tests passed
    /// automatically (Rules Commentary: Shoot Again).
    ShootAgain,
}

impl Game {
    pub(super) fn shoot(
        &mut self,
        player: u8,
        id: &str,
        weapons: &[WeaponTarget],
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        self.require_phase(player, Phase::Shooting)?;
        let (army, root) = self.own_root(player, id)?;
        if self.live_models(army, root).is_empty() {
            return reject(
                Rule::ShootingPhase,
                format!("'{id}' is not on the battlefield"),
            );
        }
        if self.units[army][root].shot {
            return reject(
                Rule::ShootingPhase,
                format!("'{id}' has already shot this phase"),
            );
        }
        // The targets are selected: if the defending player could answer with Go to Ground
        // or Smokescreen, the attacks wait for its answer (checked now, rolled then).
        self.pending_shot = Some(PendingShot {
            player,
            unit: id.to_string(),
            weapons: weapons.to_vec(),
        });
        self.trigger = Some(Trigger {
            army,
            unit: root,
            kind: TriggerKind::SelectedTargets,
        });
        if self.shroud_possible() {
            self.clone()
                .attack_with(army, root, weapons, AttackKind::Shooting, &mut Vec::new())?;
            let pending = self.pending_shot.as_ref().expect("just set");
            ev.push(GameEvent::TargetsSelected {
                player,
                unit: id.to_string(),
                targets: pending.targets().iter().map(ToString::to_string).collect(),
                reacting: crate::rules::phase::opponent(player),
            });
            return Ok(());
        }
        self.pending_shot = None;
        self.trigger = None;
        self.attack_with(army, root, weapons, AttackKind::Shooting, ev)?;
        self.for_combined(army, root, |s| s.shot = true);
        Ok(())
    }

    /// Whether the defending player could use Go to Ground or Smokescreen on a unit the
    /// pending shot targets ([`Game::reaction_options`]).
    fn shroud_possible(&self) -> bool {
        !self.reaction_options().is_empty()
    }

    /// The defending player passes: the pending shot's attacks are resolved now.
    pub(super) fn pass(&mut self, player: u8, ev: &mut Vec<GameEvent>) -> Result<(), Rejection> {
        let Some(p) = self.pending_shot.take() else {
            return reject(
                Rule::Reactions,
                "there is nothing to answer: no enemy unit's attacks wait with their targets selected",
            );
        };
        if player == p.player {
            return reject(
                Rule::Reactions,
                format!("player {player}'s own attacks wait for the opponent's answer"),
            );
        }
        let (army, root) = self.own_root(p.player, &p.unit)?;
        self.attack_with(army, root, &p.weapons, AttackKind::Shooting, ev)?;
        self.for_combined(army, root, |s| s.shot = true);
        Ok(())
    }

    /// Resolves every weapon assignment of the combined unit (`army`, `unit`), one after the
    /// other, and removes casualties.
    pub(super) fn attack_with(
        &mut self,
        army: usize,
        unit: usize,
        weapons: &[WeaponTarget],
        kind: AttackKind,
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        let rule = if kind == AttackKind::Melee {
            Rule::FightPhase
        } else {
            Rule::ShootingPhase
        };
        if weapons.is_empty() {
            return reject(rule, "no weapon was assigned a target");
        }
        let player = self.player_of(army);
        let attacker_before = self.attacker_now.replace((army, unit));
        let result = self.attack_with_inner(army, unit, weapons, kind, player, ev);
        self.attacker_now = attacker_before;
        if result.is_ok() && kind != AttackKind::Melee {
            let turn = self.turn_index();
            self.for_combined(army, unit, |s| s.last_ranged_attack_turn = Some(turn));
        }
        result
    }

    fn attack_with_inner(
        &mut self,
        army: usize,
        unit: usize,
        weapons: &[WeaponTarget],
        kind: AttackKind,
        player: u8,
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        // Every target is chosen before any attack is resolved (Core Rules: Shooting phase,
        // select targets): each assignment is checked on the table as it stands now, and the
        // attacks then resolve in order even when earlier ones removed the models in sight.
        let mut planned = Vec::with_capacity(weapons.len());
        for wt in weapons {
            planned.push(self.prepare_attack(army, unit, wt, kind)?);
        }
        self.check_weapon_use(&planned.iter().collect::<Vec<_>>(), kind)?;
        let mut hazardous: Vec<(ModelRef, HazardLoss)> = Vec::new();
        // The attacks at one target resolve together, weapon after weapon: the defender's
        // allocation carries from one weapon to the next, and mortal wounds (DEVASTATING
        // WOUNDS) follow all of the unit's normal damage to that target (Rules Commentary:
        // Mortal Wounds; Core Rules: Allocate Attack).
        let mut order: Vec<&str> = Vec::new();
        for wt in weapons {
            if !order.iter().any(|t| t.eq_ignore_ascii_case(&wt.target)) {
                order.push(&wt.target);
            }
        }
        for t in order {
            let group: Vec<(&WeaponTarget, &PreparedAttack)> = weapons
                .iter()
                .zip(&planned)
                .filter(|(wt, _)| wt.target.eq_ignore_ascii_case(t))
                .collect();
            let first = group[0].1;
            let (sight, theirs) = (&first.sight, &first.theirs);
            let mut target = first.target.clone();
            self.set_wounds(sight, theirs, &mut target);
            if target.models_alive() == 0 {
                continue;
            }
            // The attacking unit's Command Re-roll set for these attacks, while it can still
            // be used (a re-roll used at an earlier target is gone).
            let command_reroll =
                RerollRoll::attacker_command_reroll(self.command_reroll_ready(army, unit));
            // Every weapon group at this target, and where each came from.
            let mut resolved = Vec::new();
            let mut origin: Vec<(usize, usize)> = Vec::new();
            for (k, (_, p)) in group.iter().enumerate() {
                for (g, w) in p.resolved.iter().enumerate() {
                    resolved.push(w.clone());
                    origin.push((k, g));
                }
            }
            if kind == AttackKind::ShootAgain {
                for w in &mut resolved {
                    w.hazardous = false;
                }
            }
            let mut log = Vec::new();
            // The defending unit's Command Re-roll set for a saving throw (Core Stratagems).
            let defender = sight.models[theirs[0]];
            let defender_save = self.command_reroll_ready(defender.army, defender.unit)
                == Some(RerollRoll::SavingThrow);
            let rerolls = CommandRerolls {
                attacker: command_reroll,
                defender_save,
            };
            let outcome = resolve_weapons(&resolved, &target, rerolls, &mut self.rng, &mut log);
            // Each side's Command Re-roll is used (and paid) only if the dice called for it.
            self.settle_attack_rerolls(
                (army, unit),
                (defender.army, defender.unit),
                (command_reroll, defender_save),
                &log,
                ev,
            );
            for (_, p) in &group {
                for (&e, &g) in p.plan.attacking.iter().zip(&p.plan.group_of) {
                    let profile = &p.plan.groups[g].profile;
                    if profile.has(&WeaponAbility::OneShot) {
                        let r = p.sight.models[e];
                        let name = profile.name.clone();
                        self.units[r.army][r.unit]
                            .one_shot_fired
                            .push((r.model, name));
                    }
                }
            }
            // Each failed HAZARDOUS test costs one bearer of that weapon (chosen in unit
            // order, one bearer per failure), applied once the unit has attacked.
            let mut taken: Vec<ModelRef> = Vec::new();
            for &wi in &outcome.hazardous_failed {
                let (k, g) = origin[wi];
                let p = group[k].1;
                let bearer = p
                    .plan
                    .attacking
                    .iter()
                    .zip(&p.plan.group_of)
                    .filter(|&(_, &x)| x == g)
                    .map(|(&e, _)| p.sight.models[e])
                    .find(|r| !taken.contains(r));
                if let Some(r) = bearer {
                    taken.push(r);
                    hazardous.push((r, resolved[wi].hazard_loss));
                }
            }
            ev.push(GameEvent::Attacked {
                player,
                unit: self.unit_id(army, unit).to_string(),
                weapon: group
                    .iter()
                    .map(|(wt, _)| wt.label())
                    .collect::<Vec<_>>()
                    .join(" + "),
                weapons: group
                    .iter()
                    .map(|(wt, p)| (wt.label(), p.bearers()))
                    .collect(),
                target: t.to_string(),
                bearers: models_attacking(group.iter().map(|(_, p)| *p)),
                not_attacking: group
                    .iter()
                    .flat_map(|(_, p)| p.plan.excluded.iter())
                    .map(|(m, r)| format!("{m}: {r}"))
                    .collect(),
                wounds_lost: outcome.wounds_lost,
                models_destroyed: outcome.models_destroyed,
            });
            // The log names the target's models `unit#N`, not by their place in the target.
            let names: Vec<String> = target.models.iter().map(|m| m.name.clone()).collect();
            ev.extend(
                log.into_iter()
                    .map(|e| GameEvent::Attack(e.naming_models(&names))),
            );
            self.apply_outcome(&first.sight, &first.theirs, &outcome, ev);
        }
        // Units that lent weapons to a Firing Deck cannot shoot this phase.
        for r in planned.iter().flat_map(|p| p.firing_deck.iter().copied()) {
            self.for_combined(r.army, r.unit, |s| s.shot = true);
        }
        for (r, mortal) in hazardous {
            self.hazardous_loss(r, mortal, ev);
        }
        Ok(())
    }

    /// Rejects assignments that make a model use a weapon twice (two profiles of one weapon,
    /// or one weapon at two targets), a PISTOL beside its other ranged weapons (unless it is
    /// a MONSTER or VEHICLE), or more than one melee weapon besides EXTRA ATTACKS weapons.
    ///
    /// Core Rules: Shooting phase (each ranged weapon once; PISTOL), Fight phase (one melee
    /// weapon, plus EXTRA ATTACKS), Datasheets (one profile each time a weapon is used).
    pub(super) fn check_weapon_use(
        &self,
        planned: &[&PreparedAttack],
        kind: AttackKind,
    ) -> Result<(), Rejection> {
        let rule = if kind == AttackKind::Melee {
            Rule::FightPhase
        } else {
            Rule::ShootingPhase
        };
        // Per model: (weapon name, PISTOL, EXTRA ATTACKS) of each weapon it uses.
        type WeaponUse = (String, bool, bool);
        let mut used: Vec<(ModelRef, Vec<WeaponUse>)> = Vec::new();
        for p in planned {
            // Through a Firing Deck the embarked models are the ones using the weapon.
            let users: Vec<(ModelRef, usize)> = if p.firing_deck.is_empty() {
                p.plan
                    .attacking
                    .iter()
                    .zip(&p.plan.group_of)
                    .map(|(&e, &g)| (p.sight.models[e], g))
                    .collect()
            } else {
                p.firing_deck.iter().map(|r| (*r, 0)).collect()
            };
            for (r, g) in users {
                if !p.firing_deck.is_empty() && used.iter().any(|(m, _)| *m == r) {
                    return reject(
                        rule,
                        format!("{} lends one weapon to the Firing Deck", self.model_name(r)),
                    );
                }
                let profile = &p.plan.groups[g].profile;
                let this = (
                    profile.name.clone(),
                    profile.has(&WeaponAbility::Pistol),
                    profile.has(&WeaponAbility::ExtraAttacks),
                );
                let slot = match used.iter().position(|(m, _)| *m == r) {
                    Some(i) => &mut used[i].1,
                    None => {
                        used.push((r, Vec::new()));
                        &mut used.last_mut().expect("pushed").1
                    }
                };
                if slot.iter().any(|(w, ..)| w.eq_ignore_ascii_case(&this.0)) {
                    return reject(
                        rule,
                        format!(
                            "{} would use '{}' twice; a model uses each weapon once, with one of its profiles",
                            self.model_name(r),
                            this.0
                        ),
                    );
                }
                slot.push(this);
            }
        }
        let deck: Vec<ModelRef> = planned
            .iter()
            .flat_map(|p| p.firing_deck.iter().copied())
            .collect();
        if let Some(p) = planned.iter().find(|p| !p.firing_deck.is_empty())
            && let Some(&e) = p.plan.attacking.first()
        {
            let t = p.sight.models[e];
            let capacity = self.scene.armies[t.army].units[t.unit]
                .datasheet
                .firing_deck()
                .unwrap_or(0) as usize;
            if deck.len() > capacity {
                return reject(
                    rule,
                    format!("Firing Deck {capacity}: at most {capacity} embarked models shoot"),
                );
            }
        }
        for (r, weapons) in &used {
            let sheet = &self.scene.armies[r.army].units[r.unit].datasheet;
            if kind == AttackKind::Melee {
                let main: Vec<&str> = weapons
                    .iter()
                    .filter(|(_, _, extra)| !extra)
                    .map(|(w, ..)| w.as_str())
                    .collect();
                if main.len() > 1 {
                    return reject(
                        rule,
                        format!(
                            "{} fights with one melee weapon (plus EXTRA ATTACKS weapons), not {}",
                            self.model_name(*r),
                            main.join(" and ")
                        ),
                    );
                }
            } else if !(sheet.has_keyword("MONSTER") || sheet.has_keyword("VEHICLE")) {
                let pistols = weapons.iter().filter(|(_, p, _)| *p).count();
                if pistols > 0 && pistols < weapons.len() {
                    return reject(
                        rule,
                        format!(
                            "{} shoots either its Pistols or its other ranged weapons, not both ({})",
                            self.model_name(*r),
                            weapons
                                .iter()
                                .map(|(w, ..)| w.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    );
                }
            }
        }
        Ok(())
    }

    /// Under 11th edition, true when a SMOKE unit of the target's army that used Smokescreen
    /// this phase (not the target itself) keeps the target from being fully visible to one
    /// of the `attacking` models: some target model (of `theirs`) is not fully visible to it
    /// because of that unit's models (11th Core Rules 15.10). The attack then has the Benefit
    /// of Cover.
    fn screened_by_smoke(
        &self,
        sight: &crate::game::sight::SceneSight,
        attacking: &[usize],
        theirs: &[usize],
        tarmy: usize,
        tunit: usize,
    ) -> bool {
        if !self.scene.edition().smokescreen_at_phase_start {
            return false;
        }
        let target_root = self.combined(tarmy, tunit)[0];
        let smoke: Vec<usize> = self
            .unit_roots(tarmy)
            .into_iter()
            .filter(|&u| {
                u != target_root && self.units[tarmy][u].shrouded == Some(Stratagem::Smokescreen)
            })
            .flat_map(|u| self.combined(tarmy, u))
            .collect();
        if smoke.is_empty() {
            return false;
        }
        let sampling = crate::geometry::sight::Sampling::FAST;
        attacking.iter().any(|&o| {
            theirs.iter().any(|&t| {
                let v = sight.index.model_visibility(
                    o,
                    t,
                    crate::geometry::sight::SeeThrough::OwnUnit,
                    &sampling,
                );
                matches!(
                    v.not_fully_because,
                    Some(crate::geometry::sight::Blocker::Model { model, .. })
                        if sight.models[model].army == tarmy
                            && smoke.contains(&sight.models[model].unit)
                )
            })
        })
    }

    /// A failed HAZARDOUS test: under 10th the bearer is destroyed, or suffers 3 mortal
    /// wounds if it is a CHARACTER, MONSTER or VEHICLE (Core Rules: Hazardous); under 11th
    /// the bearer's unit suffers 1 mortal wound, 3 if every model is a MONSTER or VEHICLE
    /// (11th Core Rules 06.03).
    fn hazardous_loss(&mut self, r: ModelRef, loss: HazardLoss, ev: &mut Vec<GameEvent>) {
        if !self.on_table(r) {
            return;
        }
        let player = self.player_of(r.army);
        if let HazardLoss::UnitMortalWounds(n) = loss {
            self.mortal_wounds(player, (r.army, r.unit), Vec::new(), n, ev);
            return;
        }
        if let HazardLoss::BearerMortalWounds(n) = loss {
            let lost = {
                let sheet = &self.scene.armies[r.army].units[r.unit].datasheet;
                let fnp = sheet.feel_no_pain;
                let mut lost = 0u8;
                for _ in 0..n {
                    let ignored = fnp.is_some_and(|x| self.rng.d6() >= x);
                    lost += u8::from(!ignored);
                }
                lost
            };
            let m = &mut self.units[r.army][r.unit].models[r.model];
            m.wounds = m.wounds.saturating_sub(lost);
            let destroyed = m.wounds == 0;
            ev.push(GameEvent::HazardousLoss {
                player,
                model: self.model_name(r),
                mortal_wounds: n,
                destroyed,
            });
            if destroyed {
                self.destroy_model(r, ev);
            }
        } else {
            ev.push(GameEvent::HazardousLoss {
                player,
                model: self.model_name(r),
                mortal_wounds: 0,
                destroyed: true,
            });
            self.destroy_model(r, ev);
        }
    }

    /// Everything one weapon assignment of the combined unit (`army`, `unit`) needs before its
    /// dice are rolled: the table's plan, the target with its wounds remaining, and the weapons
    /// resolved with the game's circumstances (charged, Remained Stationary, Command Re-roll,
    /// Go to Ground, Smokescreen, Epic Challenge, Fire Overwatch). Draws no dice.
    pub(super) fn prepare_attack(
        &self,
        army: usize,
        unit: usize,
        wt: &WeaponTarget,
        kind: AttackKind,
    ) -> Result<PreparedAttack, Rejection> {
        self.prepare_attack_in(self.sight(), army, unit, wt, kind)
    }

    /// [`Game::prepare_attack`] with the game's sight index already in hand (`sight`, from
    /// [`Game::sight`] with nothing changed since): for many assignments measured on one
    /// table.
    pub(super) fn prepare_attack_in(
        &self,
        sight: SceneSight,
        army: usize,
        unit: usize,
        wt: &WeaponTarget,
        kind: AttackKind,
    ) -> Result<PreparedAttack, Rejection> {
        let rule = if kind == AttackKind::Melee {
            Rule::FightPhase
        } else {
            Rule::ShootingPhase
        };
        let player = self.player_of(army);
        let me = &self.units[army][unit];
        // A rule may let the unit shoot after Advancing or Falling Back (Combat Doctrines).
        let circumstances = AttackerCircumstances {
            advanced: me.moved == Some(Moved::Moved(MoveMode::Advance))
                && !self.unit_may(army, unit, &Modifier::ShootAfterAdvancing),
            fell_back: me.moved == Some(Moved::Moved(MoveMode::FallBack))
                && !self.unit_may(army, unit, &Modifier::ShootAfterFallingBack),
            one_shot_used: false,
        };
        let (tarmy, tunit) = self.enemy_unit(player, &wt.target)?;
        let mine = self.entries_of(&sight, army, unit);
        let theirs = self.entries_of(&sight, tarmy, tunit);
        let mut firing_deck: Vec<ModelRef> = Vec::new();
        let attackers: Vec<usize> = if wt.models.is_empty() {
            mine.clone()
        } else {
            let mut chosen = Vec::new();
            for name in &wt.models {
                match mine
                    .iter()
                    .find(|&&e| self.model_name(sight.models[e]).eq_ignore_ascii_case(name))
                {
                    Some(&e) if !chosen.contains(&e) => chosen.push(e),
                    Some(_) => {}
                    None => match self.embarked_model(army, unit, name) {
                        Some(r) if !firing_deck.contains(&r) => firing_deck.push(r),
                        Some(_) => {}
                        None => {
                            return reject(
                                rule,
                                format!(
                                    "'{name}' is not a model of '{}' on the battlefield, nor embarked in it",
                                    self.unit_id(army, unit)
                                ),
                            );
                        }
                    },
                }
            }
            chosen
        };
        // Firing Deck: the TRANSPORT fires the embarked models' weapon, one per model.
        let deck_scene;
        let (scene, attackers) = if firing_deck.is_empty() {
            (&self.scene, attackers)
        } else {
            if !attackers.is_empty() {
                return reject(
                    rule,
                    "a weapon fired through a Firing Deck names only embarked models",
                );
            }
            deck_scene = self.firing_deck_scene(army, unit, &firing_deck, wt, rule)?;
            (&deck_scene, mine.clone())
        };
        let mut plan = plan_attack(
            scene,
            &sight,
            &attackers,
            &mine,
            (&wt.weapon, wt.profile.as_deref()),
            &theirs,
            None,
            circumstances,
        )
        .map_err(|e| {
            super::event::Rejection::new(rule, format!("'{}' at '{}': {e}", wt.label(), wt.target))
        })?;
        if !firing_deck.is_empty() {
            // One attacking TRANSPORT model stands in for every embarked model firing.
            for g in &mut plan.groups {
                g.bearers = firing_deck.len() as u32;
            }
        }
        for (&e, &g) in plan.attacking.iter().zip(&plan.group_of) {
            let profile = &plan.groups[g].profile;
            let r = sight.models[e];
            if profile.has(&WeaponAbility::OneShot)
                && self.units[r.army][r.unit]
                    .one_shot_fired
                    .iter()
                    .any(|(m, w)| *m == r.model && w.eq_ignore_ascii_case(&profile.name))
            {
                return reject(
                    rule,
                    format!(
                        "{} has already fired its ONE SHOT weapon '{}' this battle",
                        self.model_name(r),
                        profile.name
                    ),
                );
            }
        }
        let melee = plan.groups.iter().all(|g| g.profile.is_melee());
        if melee != (kind == AttackKind::Melee) {
            return reject(
                rule,
                format!(
                    "'{}' is a {} weapon",
                    wt.weapon,
                    if melee { "melee" } else { "ranged" }
                ),
            );
        }
        let mut ctx = plan.context();
        let mut target = plan.target.clone();
        self.set_wounds(&sight, &theirs, &mut target);
        ctx.remained_stationary = me.moved == Some(Moved::Stationary);
        // Set up this turn (Reserves, disembarking): HEAVY's "moved 3\" or less" does not
        // hold (11th Core Rules 24.16).
        ctx.moved_inches = (me.moved != Some(Moved::SetUp)).then_some(me.moved_inches);
        // 11th INDIRECT FIRE with a spotter: the unit Remained Stationary and another unit of
        // its army sees the target (11th Core Rules 10.07).
        if kind != AttackKind::Melee
            && !ctx.target_visible
            && ctx.remained_stationary
            && self
                .scene
                .edition()
                .indirect_fire
                .fails_up_to_with_spotter
                .is_some()
        {
            let sampling = crate::geometry::sight::Sampling::FAST;
            ctx.spotted = (0..self.units[army].len())
                .filter(|&u| u != unit && self.units[army][u].leading != Some(unit))
                .any(|u| {
                    self.entries_of(&sight, army, u).into_iter().any(|o| {
                        theirs.iter().any(|&x| {
                            sight.index.model_visible(
                                o,
                                x,
                                crate::geometry::sight::SeeThrough::OwnUnit,
                                &sampling,
                            )
                        })
                    })
                });
        }
        ctx.charged = me.charged;
        ctx.command_reroll =
            RerollRoll::attacker_command_reroll(self.command_reroll_ready(army, unit));
        if kind != AttackKind::Melee {
            match self.units[tarmy][tunit].shrouded {
                Some(Stratagem::GoToGround) => {
                    ctx.target_has_cover = true;
                    for m in &mut target.models {
                        m.invulnerable_save = Some(
                            m.invulnerable_save
                                .map_or(GO_TO_GROUND_INVULNERABLE_SAVE, |s| {
                                    s.min(GO_TO_GROUND_INVULNERABLE_SAVE)
                                }),
                        );
                    }
                }
                Some(Stratagem::Smokescreen) => {
                    ctx.target_has_cover = true;
                    target.stealth = true;
                }
                _ => {}
            }
            if !ctx.target_has_cover
                && self.screened_by_smoke(&sight, &plan.attacking, &theirs, tarmy, tunit)
            {
                ctx.target_has_cover = true;
                plan.benefit_of_cover = true;
            }
        }
        // Epic Challenge: only the chosen CHARACTER model's melee attacks gain PRECISION, so
        // its weapon forms a group of its own (Core Stratagems: Epic Challenge).
        if kind == AttackKind::Melee
            && let Some(champion) = self.units[army][unit].epic_challenge
        {
            for (k, &e) in plan.attacking.iter().enumerate() {
                if sight.models[e] != champion {
                    continue;
                }
                let g = plan.group_of[k];
                let own = if plan.groups[g].bearers > 1 {
                    plan.groups[g].bearers -= 1;
                    let mut alone = plan.groups[g].clone();
                    alone.bearers = 1;
                    plan.groups.push(alone);
                    plan.groups.len() - 1
                } else {
                    g
                };
                plan.group_of[k] = own;
                let extra = &mut plan.groups[own].extra_abilities;
                if !extra.contains(&WeaponAbility::Precision) {
                    extra.push(WeaponAbility::Precision);
                }
            }
        }
        // The rules beyond the core (army, Detachment, Enhancement, datasheet and Stratagem
        // effects) change each weapon group's inputs (see `game::effects`).
        let changes = self.rules_on_plan(
            &sight,
            &mut plan,
            (&theirs, &mut target),
            ((army, unit), (tarmy, tunit)),
            kind == AttackKind::Melee,
        );
        let mut resolved = ResolvedWeapon::all(&plan.groups, &target, &ctx);
        super::effects::rules_on_resolved(&mut resolved, &changes);
        // PRECISION allocates only to a CHARACTER the attacking models can see (Core Rules:
        // Precision).
        crate::game::sight::withhold_unseen_precision(
            &sight,
            &plan.attacking,
            &target,
            &theirs,
            &mut resolved,
        );
        if kind == AttackKind::Overwatch {
            for w in &mut resolved {
                w.hit_fails_up_to = w.hit_fails_up_to.max(FIRE_OVERWATCH_HITS_ON - 1);
            }
        }
        Ok(PreparedAttack {
            plan,
            sight,
            theirs,
            target,
            command_reroll: ctx.command_reroll,
            resolved,
            firing_deck,
        })
    }

    /// The model named `name` (`unit#N`) of a unit embarked in the TRANSPORT (`army`,
    /// `transport`), if there is one alive.
    fn embarked_model(&self, army: usize, transport: usize, name: &str) -> Option<ModelRef> {
        (0..self.units[army].len())
            .filter(|&u| self.units[army][u].location == Location::Embarked(transport))
            .flat_map(|u| {
                (0..self.units[army][u].models.len()).map(move |m| ModelRef {
                    army,
                    unit: u,
                    model: m,
                })
            })
            .find(|r| {
                self.units[r.army][r.unit].models[r.model].alive
                    && self.model_name(*r).eq_ignore_ascii_case(name)
            })
    }

    /// The table as the Firing Deck sees it: the TRANSPORT's models carry the weapon the
    /// embarked `models` fire (Core Rules: Firing Deck: up to X embarked models whose units
    /// have not shot this phase each lend one ranged weapon to the TRANSPORT when it shoots).
    fn firing_deck_scene(
        &self,
        army: usize,
        transport: usize,
        models: &[ModelRef],
        wt: &WeaponTarget,
        rule: Rule,
    ) -> Result<crate::data::Scene, Rejection> {
        let sheet = &self.scene.armies[army].units[transport].datasheet;
        let Some(capacity) = sheet.firing_deck() else {
            return reject(
                rule,
                format!(
                    "'{}' has no Firing Deck: embarked models cannot shoot from it",
                    self.unit_id(army, transport)
                ),
            );
        };
        if models.len() > capacity as usize {
            return reject(
                rule,
                format!("Firing Deck {capacity}: at most {capacity} embarked models shoot"),
            );
        }
        let mut scene = self.scene.clone();
        for r in models {
            if self.units[r.army][r.unit].shot {
                return reject(
                    rule,
                    format!(
                        "'{}' has already shot this phase",
                        self.unit_id(r.army, r.unit)
                    ),
                );
            }
            let unit = &self.scene.armies[r.army].units[r.unit];
            let profile = unit
                .datasheet
                .choose_profile(&wt.weapon, wt.profile.as_deref())
                .map_err(|e| Rejection::new(rule, e))?;
            if profile.is_melee()
                || !unit.models[r.model]
                    .weapons
                    .iter()
                    .any(|w| w.eq_ignore_ascii_case(&profile.name))
            {
                return reject(
                    rule,
                    format!(
                        "{} has no ranged weapon '{}'",
                        self.model_name(*r),
                        wt.label()
                    ),
                );
            }
            let t = &mut scene.armies[army].units[transport];
            // The TRANSPORT fires the embarked model's own profiles of the weapon.
            let sheet = t.datasheet_mut();
            sheet
                .ranged_weapons
                .retain(|w| !w.name.eq_ignore_ascii_case(&profile.name));
            sheet.ranged_weapons.extend(
                unit.datasheet
                    .profiles_of(&profile.name)
                    .into_iter()
                    .cloned(),
            );
            for m in &mut t.models {
                let weapons = std::sync::Arc::make_mut(&mut m.weapons);
                weapons.retain(|w| !w.eq_ignore_ascii_case(&profile.name));
                weapons.push(profile.name.clone());
            }
        }
        Ok(scene)
    }

    /// Sets the target's models from the game as they stand now: wounds remaining, the
    /// attacks already allocated this phase, and the defender's allocation order (chosen
    /// until the attacks resolve, so an order set in the reaction window counts).
    pub(super) fn set_wounds(
        &self,
        sight: &SceneSight,
        entries: &[usize],
        target: &mut TargetUnit,
    ) {
        // The ranks, worked out once per unit (an Attached unit has two or three).
        let mut ranked: Vec<((usize, usize), Vec<u32>)> = Vec::new();
        for (m, &e) in target.models.iter_mut().zip(entries) {
            let r = sight.models[e];
            let state = &self.units[r.army][r.unit].models[r.model];
            m.wounds_remaining = state.wounds;
            m.allocated_this_phase = state.allocated_this_phase;
            let k = match ranked.iter().position(|(u, _)| *u == (r.army, r.unit)) {
                Some(k) => k,
                None => {
                    ranked.push(((r.army, r.unit), self.allocation_ranks(r.army, r.unit)));
                    ranked.len() - 1
                }
            };
            m.allocation_rank = ranked[k].1[r.model];
        }
    }

    /// Writes an attack's result back: wounds remaining, destroyed models removed.
    pub(super) fn apply_outcome(
        &mut self,
        sight: &SceneSight,
        entries: &[usize],
        outcome: &RollOutcome,
        ev: &mut Vec<GameEvent>,
    ) {
        let refs: Vec<ModelRef> = entries.iter().map(|&e| sight.models[e]).collect();
        for ((r, &w), &allocated) in refs
            .iter()
            .zip(&outcome.wounds_remaining)
            .zip(&outcome.allocated)
        {
            let m = &mut self.units[r.army][r.unit].models[r.model];
            m.wounds = w;
            m.allocated_this_phase |= allocated;
        }
        for (r, &w) in refs.iter().zip(&outcome.wounds_remaining) {
            if w == 0 {
                self.destroy_model(*r, ev);
            }
        }
    }
}
