//! A destroyed model that shoots before it is removed (a datasheet ability such as the
//! Hellblasters' For the Chapter!): a D6 when it is destroyed; on the ability's value or more
//! it stays on the table with no wounds until the attacking unit has finished, then shoots
//! with the normal attack sequence (its HAZARDOUS tests passed) and is removed.
//!
//! Rules Commentary: Shoot Again (and its For the Chapter! example), Out-of-Phase Rules.

use super::command::WeaponTarget;
use super::event::GameEvent;
use super::shooting::AttackKind;
use super::state::Game;
use crate::game::sight::ModelRef;
use crate::rules::WeaponAbility;
use crate::rules::abilities::DestroyedAbility;
use crate::rules::phase::opponent;

impl Game {
    /// When model `r` would be destroyed: if its unit may shoot before removal and the D6
    /// allows it, keeps it on the table with no wounds and queues its shot. True when it is
    /// kept (the caller then does not remove it yet).
    pub(super) fn shoots_before_removal(&mut self, r: ModelRef, ev: &mut Vec<GameEvent>) -> bool {
        if self.last_shots_done.contains(&r) || self.last_shots.iter().any(|(m, _)| *m == r) {
            return false;
        }
        let Some(on) = self.scene.armies[r.army].units[r.unit]
            .datasheet
            .destroyed_abilities
            .iter()
            .map(|a| match a {
                DestroyedAbility::ShootBeforeRemoval(x) => *x,
            })
            .next()
        else {
            return false;
        };
        let roll = self.rng.d6();
        let shoots = roll >= on;
        ev.push(GameEvent::ShootBeforeRemoval {
            player: self.player_of(r.army),
            model: self.model_name(r),
            roll,
            shoots,
        });
        if shoots {
            self.units[r.army][r.unit].models[r.model].wounds = 0;
            self.last_shots.push((r, self.attacker_now));
        }
        shoots
    }

    /// Resolves the queued shots before removal, in order, then removes those models.
    pub(super) fn resolve_last_shots(&mut self, ev: &mut Vec<GameEvent>) {
        while !self.last_shots.is_empty() {
            let (r, attacker) = self.last_shots.remove(0);
            self.last_shots_done.push(r);
            self.last_shot(r, attacker, ev);
            self.destroy_model(r, ev);
        }
        self.last_shots_done.clear();
    }

    /// Model `r` shoots: each of its ranged weapons (a weapon with profiles on its most
    /// damaging one, HAZARDOUS ones first since their tests are passed) at the unit that
    /// destroyed it if it can, else at the closest enemy unit it can shoot.
    fn last_shot(
        &mut self,
        r: ModelRef,
        attacker: Option<(usize, usize)>,
        ev: &mut Vec<GameEvent>,
    ) {
        let player = self.player_of(r.army);
        let root = self.combined(r.army, r.unit)[0];
        let name = self.model_name(r);
        let sheet = &self.scene.armies[r.army].units[r.unit].datasheet;
        let carried = &self.scene.armies[r.army].units[r.unit].models[r.model].weapons;
        let options: Vec<_> = self
            .weapon_options(r.army, root, false)
            .into_iter()
            .filter(|o| carried.iter().any(|w| w.eq_ignore_ascii_case(&o.weapon)))
            .filter(|o| o.models.is_empty() || o.models.contains(&name))
            .map(|o| {
                let best = sheet
                    .profiles_of(&o.weapon)
                    .into_iter()
                    .max_by(|a, b| {
                        let score = |p: &crate::rules::WeaponProfile| {
                            (
                                p.has(&WeaponAbility::Hazardous),
                                p.attacks.mean() * f32::from(p.strength) * p.damage.mean(),
                            )
                        };
                        let (ha, sa) = score(a);
                        let (hb, sb) = score(b);
                        ha.cmp(&hb).then(sa.total_cmp(&sb))
                    })
                    .and_then(|p| p.profile.clone());
                (o, best)
            })
            .collect();
        let Some(enemy) = self.army_of(opponent(player)) else {
            return;
        };
        let mut candidates: Vec<usize> = self
            .unit_roots(enemy)
            .into_iter()
            .filter(|&u| !self.live_models(enemy, u).is_empty())
            .collect();
        candidates.sort_by(|&a, &b| {
            let first = |u: usize| attacker.is_some_and(|(aa, au)| aa == enemy && au == u);
            first(b).cmp(&first(a)).then(
                self.unit_distance((r.army, root), (enemy, a))
                    .total_cmp(&self.unit_distance((r.army, root), (enemy, b))),
            )
        });
        for t in candidates {
            let target = self.unit_id(enemy, t).to_string();
            let weapons: Vec<WeaponTarget> = options
                .iter()
                .map(|(o, p)| {
                    let mut wt = WeaponTarget::new(o.weapon.clone(), target.clone())
                        .by_models(vec![name.clone()]);
                    wt.profile = p.clone();
                    wt
                })
                .filter(|wt| {
                    self.prepare_attack(r.army, root, wt, AttackKind::ShootAgain)
                        .is_ok()
                })
                .collect();
            if weapons.is_empty() {
                continue;
            }
            if self
                .attack_with(r.army, root, &weapons, AttackKind::ShootAgain, ev)
                .is_ok()
            {
                return;
            }
        }
    }
}
