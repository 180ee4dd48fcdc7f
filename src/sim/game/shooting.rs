//! The Shooting phase, and the attack resolution the Fight phase and Fire Overwatch share:
//! each weapon at its target through the attack module, wounds and casualties applied.
//!
//! Core Rules: Shooting phase (eligible units, targets, Big Guns Never Tire), Making Attacks;
//! Rules Commentary: Attached Units (allocation), Mortal Wounds.

use super::command::{RerollRoll, WeaponTarget};
use super::event::{GameEvent, Rejection, reject};
use super::state::Game;
use crate::data::combat::{AttackPlan, AttackerCircumstances, plan_attack};
use crate::data::sight::{ModelRef, SceneSight};
use crate::rules::WeaponAbility;
use crate::rules::attack::roll::{RollOutcome, resolve_weapons};
use crate::rules::attack::{CommandReroll, ResolvedWeapon, TargetUnit};
use crate::rules::constants::{FIRE_OVERWATCH_HITS_ON, GO_TO_GROUND_INVULNERABLE_SAVE};
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
    /// A ONE SHOT weapon is among them.
    pub one_shot: bool,
}

/// How a unit attacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum AttackKind {
    /// Shooting in its Shooting phase.
    Shooting,
    /// Fire Overwatch: shooting in the opponent's turn, hitting only on unmodified 6s.
    Overwatch,
    /// Melee in the Fight phase.
    Melee,
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
                "Shooting phase",
                format!("'{id}' is not on the battlefield"),
            );
        }
        if self.units[army][root].shot {
            return reject(
                "Shooting phase",
                format!("'{id}' has already shot this phase"),
            );
        }
        self.attack_with(army, root, weapons, AttackKind::Shooting, ev)?;
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
            "Fight phase"
        } else {
            "Shooting phase"
        };
        if weapons.is_empty() {
            return reject(rule, "no weapon was assigned a target");
        }
        let player = self.player_of(army);
        // Every target is chosen before any attack is resolved (Core Rules: Shooting phase,
        // select targets): each assignment is checked on the table as it stands now, and the
        // attacks then resolve in order even when earlier ones removed the models in sight.
        let mut planned = Vec::with_capacity(weapons.len());
        for (i, wt) in weapons.iter().enumerate() {
            if weapons[..i]
                .iter()
                .any(|w| w.weapon.eq_ignore_ascii_case(&wt.weapon))
            {
                return reject(rule, format!("'{}' is assigned twice", wt.weapon));
            }
            planned.push(self.prepare_attack(army, unit, wt, kind)?);
        }
        for (wt, prepared) in weapons.iter().zip(planned) {
            let PreparedAttack {
                plan,
                sight,
                theirs,
                mut target,
                resolved,
                command_reroll,
                one_shot,
            } = prepared;
            self.set_wounds(&sight, &theirs, &mut target);
            if target.models_alive() == 0 {
                continue;
            }
            if command_reroll != CommandReroll::None {
                self.for_combined(army, unit, |s| s.command_reroll = None);
            }
            let mut log = Vec::new();
            let outcome =
                resolve_weapons(&resolved, &target, command_reroll, &mut self.rng, &mut log);
            if one_shot {
                self.for_combined(army, unit, |s| s.one_shot_used = true);
            }
            ev.push(GameEvent::Attacked {
                player,
                unit: self.unit_id(army, unit).to_string(),
                weapon: wt.weapon.clone(),
                target: wt.target.clone(),
                bearers: plan.attacking.len(),
                not_attacking: plan
                    .excluded
                    .iter()
                    .map(|(m, r)| format!("{m}: {r}"))
                    .collect(),
                wounds_lost: outcome.wounds_lost,
                models_destroyed: outcome.models_destroyed,
            });
            ev.extend(log.into_iter().map(GameEvent::Attack));
            self.apply_outcome(&sight, &theirs, &outcome, ev);
        }
        Ok(())
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
        let rule = if kind == AttackKind::Melee {
            "Fight phase"
        } else {
            "Shooting phase"
        };
        let player = self.player_of(army);
        let me = &self.units[army][unit];
        let circumstances = AttackerCircumstances {
            advanced: me.moved == Some(Moved::Moved(MoveMode::Advance)),
            fell_back: me.moved == Some(Moved::Moved(MoveMode::FallBack)),
            one_shot_used: me.one_shot_used,
        };
        let (tarmy, tunit) = self.enemy_unit(player, &wt.target)?;
        let sight = self.sight();
        let mine = self.entries_of(&sight, army, unit);
        let theirs = self.entries_of(&sight, tarmy, tunit);
        let plan = plan_attack(
            &self.scene,
            &sight,
            &mine,
            &mine,
            &wt.weapon,
            &theirs,
            None,
            circumstances,
        )
        .map_err(|e| {
            super::event::Rejection::new(rule, format!("'{}' at '{}': {e}", wt.weapon, wt.target))
        })?;
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
        ctx.charged = me.charged;
        ctx.command_reroll = match me.command_reroll {
            Some(RerollRoll::Hit) => CommandReroll::HitRoll,
            Some(RerollRoll::Wound) => CommandReroll::WoundRoll,
            _ => CommandReroll::None,
        };
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
        }
        let mut groups = plan.groups.clone();
        if kind == AttackKind::Melee && self.units[army][unit].epic_challenge {
            for g in &mut groups {
                if g.bearer_keywords.iter().any(|k| k == "CHARACTER") {
                    g.extra_abilities.push(WeaponAbility::Precision);
                }
            }
        }
        let mut resolved = ResolvedWeapon::all(&groups, &target, &ctx);
        if kind == AttackKind::Overwatch {
            for w in &mut resolved {
                w.hit_fails_up_to = w.hit_fails_up_to.max(FIRE_OVERWATCH_HITS_ON - 1);
            }
        }
        let one_shot = groups
            .iter()
            .any(|g| g.profile.has(&WeaponAbility::OneShot));
        Ok(PreparedAttack {
            plan,
            sight,
            theirs,
            target,
            command_reroll: ctx.command_reroll,
            resolved,
            one_shot,
        })
    }

    /// Sets the target's wounds remaining from the game.
    pub(super) fn set_wounds(
        &self,
        sight: &SceneSight,
        entries: &[usize],
        target: &mut TargetUnit,
    ) {
        for (m, &e) in target.models.iter_mut().zip(entries) {
            let r = sight.models[e];
            m.wounds_remaining = self.units[r.army][r.unit].models[r.model].wounds;
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
        for (r, &w) in refs.iter().zip(&outcome.wounds_remaining) {
            self.units[r.army][r.unit].models[r.model].wounds = w;
        }
        for (r, &w) in refs.iter().zip(&outcome.wounds_remaining) {
            if w == 0 {
                self.destroy_model(*r, ev);
            }
        }
    }
}
