//! Core Stratagems: command points, once per phase, and each one's effect.
//!
//! Core Rules: Stratagems, Core Stratagems; Battle-shock (a Battle-shocked unit cannot be
//! affected by its player's Stratagems).

use super::command::{RerollRoll, WeaponTarget};
use super::event::GameEvent;
use super::rejection::{Rejection, Rule, reject};
use super::shooting::AttackKind;
use super::state::{Game, Location, PendingCharge};
use super::state::{Trigger, TriggerKind};
use crate::rules::attack::roll::inflict_mortal_wounds;
use crate::rules::constants::{
    FIRE_OVERWATCH_RANGE_INCHES, GRENADE_DICE, GRENADE_RANGE_INCHES, GRENADE_WOUNDS_ON,
    HEROIC_INTERVENTION_RANGE_INCHES, MEASURE_TOLERANCE_INCHES, TANK_SHOCK_MAX_MORTAL_WOUNDS,
    TANK_SHOCK_WOUNDS_ON,
};
use crate::rules::phase::Stage;
use crate::rules::stratagem::Stratagem;

impl Game {
    /// Whether the unit (`army`, `root`) is a target of the enemy attacks waiting with their
    /// targets selected ([`Game::pending_shot`]).
    fn targeted_now(&self, army: usize, root: usize) -> bool {
        let Some(p) = &self.pending_shot else {
            return false;
        };
        self.trigger
            .is_some_and(|t| t.kind == TriggerKind::SelectedTargets)
            && p.targets().into_iter().any(|t| {
                self.find_unit(army, t)
                    .is_some_and(|u| self.combined(army, u)[0] == root)
            })
    }

    /// Uses the Stratagem `stratagem` of the player owning army `army` on its unit `unit`:
    /// pays its CP, marks it used this phase (Core Rules: Stratagems, once per phase) and logs
    /// it. The caller has checked that it may be used now.
    pub(super) fn pay_stratagem(
        &mut self,
        army: usize,
        unit: usize,
        stratagem: Stratagem,
        ev: &mut Vec<GameEvent>,
    ) {
        let player = self.player_of(army);
        let cost = stratagem.cost_in(self.scene.edition());
        let i = usize::from(player - 1);
        self.cp[i] = self.cp[i].saturating_sub(cost);
        self.stratagems_used.push((player, stratagem));
        let root = self.combined(army, unit)[0];
        self.stratagem_targets.push((army, root));
        ev.push(GameEvent::StratagemUsed {
            player,
            stratagem,
            unit: self.unit_id(army, root).to_string(),
            cost,
            cp_left: self.cp[i],
        });
    }

    /// The CHARACTER models of the combined unit (`army`, `unit`) alive on the battlefield, in
    /// unit order: those whose datasheet has the CHARACTER keyword.
    pub fn character_models(&self, army: usize, unit: usize) -> Vec<crate::game::sight::ModelRef> {
        self.live_models(army, unit)
            .into_iter()
            .filter(|r| {
                self.scene.armies[army].units[r.unit]
                    .datasheet
                    .has_keyword("CHARACTER")
            })
            .collect()
    }

    /// The CHARACTER model an Epic Challenge names: `model` of the unit `named` (its index
    /// in that unit, from a `unit#N` name), or else the one CHARACTER model of that unit, or
    /// of its Attached unit (Core Stratagems: Epic Challenge, one CHARACTER model).
    fn epic_challenger(
        &self,
        army: usize,
        named: usize,
        model: Option<usize>,
        id: &str,
    ) -> Result<crate::game::sight::ModelRef, Rejection> {
        let rule = Rule::Stratagem(Stratagem::EpicChallenge);
        let characters = self.character_models(army, named);
        if let Some(m) = model {
            return match characters.iter().find(|r| r.unit == named && r.model == m) {
                Some(r) => Ok(*r),
                None => reject(
                    rule,
                    format!("'{id}' is not a CHARACTER model of the unit on the battlefield"),
                ),
            };
        }
        let own: Vec<_> = characters.iter().filter(|r| r.unit == named).collect();
        let pick: Vec<_> = if own.is_empty() {
            characters.iter().collect()
        } else {
            own
        };
        match pick[..] {
            [] => reject(rule, format!("'{id}' has no CHARACTER model")),
            [r] => Ok(*r),
            _ => reject(
                rule,
                format!(
                    "name the CHARACTER model whose attacks gain PRECISION: {}",
                    pick.iter()
                        .map(|r| self.model_name(**r))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ),
        }
    }

    pub(super) fn use_stratagem(
        &mut self,
        player: u8,
        stratagem: Stratagem,
        id: &str,
        target: Option<&str>,
        reroll: Option<RerollRoll>,
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        let rule = Rule::Stratagem(stratagem);
        if self.stage != Stage::Battle {
            return reject(rule, "Stratagems are used during the battle");
        }
        let edition = self.scene.edition();
        let Some(terms) = stratagem.terms_in(edition) else {
            return reject(
                rule,
                format!(
                    "{} is not a Core Stratagem under {} edition",
                    stratagem.name(),
                    edition.name
                ),
            );
        };
        if !stratagem.usable_in_edition(edition, self.phase, player, self.active_player) {
            return reject(
                rule,
                format!(
                    "it cannot be used by player {player} in {}",
                    self.describe_now()
                ),
            );
        }
        if self.stratagems_used.contains(&(player, stratagem)) {
            return reject(rule, "each Stratagem can be used once per phase");
        }
        let cost = terms.cost;
        if self.cp_of(player) < cost {
            return reject(
                rule,
                format!(
                    "it costs {cost} CP and player {player} has {}",
                    self.cp_of(player)
                ),
            );
        }
        // Epic Challenge may name its CHARACTER model as `unit#N`.
        let (unit_id, model) = match id.rsplit_once('#') {
            Some((u, n)) if stratagem == Stratagem::EpicChallenge => match n.parse::<usize>() {
                Ok(n) => (u, Some(n)),
                Err(_) => {
                    return reject(rule, format!("'{id}': name a model as unit#N, N a number"));
                }
            },
            _ => (id, None),
        };
        let (army, named) = self.own_unit(player, unit_id)?;
        let root = self.combined(army, named)[0];
        let in_reserves = matches!(self.units[army][root].location, Location::Reserves(_));
        if stratagem == Stratagem::RapidIngress {
            if !in_reserves {
                return reject(rule, format!("'{id}' is not in Reserves"));
            }
        } else if self.live_models(army, root).is_empty() {
            return reject(rule, format!("'{id}' is not on the battlefield"));
        }
        if self.units[army][root].battle_shocked {
            return reject(
                Rule::BattleShock,
                format!(
                    "'{id}' is Battle-shocked and cannot be affected by its player's Stratagems"
                ),
            );
        }
        if let Err(why) = self.stratagem_target_free(army, root) {
            return reject(rule, why);
        }
        let i = usize::from(player - 1);
        // Most Stratagems are used (and paid) now. Insane Bravery and a Command Re-roll of a
        // roll still to come are set for that roll and used only if it calls for them
        // (command_reroll.rs); a Charge roll, or an Advance roll already made, is re-rolled now.
        let rolled_now = match reroll {
            Some(RerollRoll::Charge) => true,
            Some(RerollRoll::Advance) => self
                .advance_roll
                .is_some_and(|(a, u, _)| (a, u) == (army, root)),
            _ => false,
        };
        let set_for_later = stratagem == Stratagem::InsaneBravery
            || (stratagem == Stratagem::CommandReroll && !rolled_now);
        if !set_for_later {
            self.pay_stratagem(army, root, stratagem, ev);
        }
        if stratagem == Stratagem::CommandReroll && rolled_now {
            // Used once this phase: the player's other Command Re-rolls lapse.
            for u in &mut self.units[army] {
                u.command_reroll = None;
            }
        }
        let need_target = |g: &Game| -> Result<(usize, usize), Rejection> {
            match target {
                Some(t) => g
                    .enemy_unit(player, t)
                    .map(|(a, u)| (a, g.combined(a, u)[0])),
                None => reject(rule, "an enemy target unit is needed"),
            }
        };
        match stratagem {
            Stratagem::CommandReroll => match reroll {
                None => {
                    return reject(
                        rule,
                        "say which roll: Hit, Wound, Damage, Attacks, SavingThrow, Hazardous, \
                         Advance, Charge, BattleShock or DesperateEscape",
                    );
                }
                Some(RerollRoll::Charge) => {
                    let Some(c) = self
                        .charge
                        .clone()
                        .filter(|c| c.army == army && c.unit == root)
                    else {
                        return reject(rule, format!("'{id}' has no charge roll to re-roll"));
                    };
                    let dice = [self.rng.d6(), self.rng.d6()];
                    self.charge = Some(PendingCharge { dice, ..c.clone() });
                    ev.push(GameEvent::ChargeDeclared {
                        player,
                        unit: id.to_string(),
                        targets: c
                            .targets
                            .iter()
                            .map(|&t| {
                                self.unit_id(
                                    self.army_of(crate::rules::phase::opponent(player))
                                        .expect("two armies"),
                                    t,
                                )
                                .to_string()
                            })
                            .collect(),
                        dice,
                    });
                }
                // An Advance already rolled ([`Command::Advance`]) is re-rolled now.
                Some(RerollRoll::Advance)
                    if self
                        .advance_roll
                        .is_some_and(|(a, u, _)| (a, u) == (army, root)) =>
                {
                    let roll = self.rng.d6();
                    self.advance_roll = Some((army, root, roll));
                    ev.push(GameEvent::AdvanceRolled {
                        player,
                        unit: id.to_string(),
                        roll,
                    });
                }
                Some(r) => {
                    if self.units[army][root].command_reroll == Some(r) {
                        return reject(
                            rule,
                            format!(
                                "a Command Re-roll of the {} of '{id}' is already set",
                                r.name()
                            ),
                        );
                    }
                    self.for_combined(army, root, |s| s.command_reroll = Some(r));
                    ev.push(GameEvent::StratagemSet {
                        player,
                        stratagem,
                        unit: self.unit_id(army, root).to_string(),
                        roll: Some(r),
                    });
                }
            },
            Stratagem::InsaneBravery => {
                if self.insane_bravery_used[i] {
                    return reject(rule, "it can be used once per battle");
                }
                if !self.must_test_battle_shock(army, root) {
                    return reject(
                        rule,
                        format!(
                            "'{id}' is not Below Half-strength (11th: at or below half strength, \
                             or Battle-shocked) and takes no Battle-shock test"
                        ),
                    );
                }
                if self.units[army][root].insane_bravery {
                    return reject(rule, format!("Insane Bravery is already set for '{id}'"));
                }
                self.for_combined(army, root, |s| s.insane_bravery = true);
                ev.push(GameEvent::StratagemSet {
                    player,
                    stratagem,
                    unit: self.unit_id(army, root).to_string(),
                    roll: None,
                });
            }
            Stratagem::EpicChallenge => {
                let champion = self.epic_challenger(army, named, model, id)?;
                // Its unit must be within Engagement Range of an enemy Attached unit.
                let earmy = self
                    .army_of(crate::rules::phase::opponent(player))
                    .expect("two armies");
                let near_attached = self.unit_roots(earmy).into_iter().any(|u| {
                    self.combined(earmy, u).len() > 1
                        && !self.live_models(earmy, u).is_empty()
                        && self.units_engaged((army, root), (earmy, u))
                });
                if !near_attached {
                    return reject(
                        rule,
                        format!("'{id}' is not within Engagement Range of an enemy Attached unit"),
                    );
                }
                // It is used when the unit is selected to fight, before its attacks.
                let selected = self
                    .fight
                    .as_ref()
                    .and_then(|f| f.current)
                    .is_some_and(|c| c == (army, root, false));
                if !selected {
                    return reject(
                        rule,
                        format!(
                            "it is used when '{}' is selected to fight (after its Pile In, before its attacks)",
                            self.unit_id(army, root)
                        ),
                    );
                }
                self.for_combined(army, root, |s| s.epic_challenge = Some(champion));
            }
            Stratagem::CounterOffensive => {
                if !self.counter_offensive_window(player) {
                    return reject(
                        rule,
                        "it is used just after an enemy unit has fought, when the opponent would select next",
                    );
                }
                if !self.can_fight(army, root) {
                    return reject(rule, format!("'{id}' is not eligible to fight"));
                }
                self.fight.as_mut().expect("fight").counter_offensive = Some((army, root));
                self.settle_fight_picker(ev);
            }
            Stratagem::Grenade => {
                if !terms
                    .keywords
                    .iter()
                    .any(|k| self.has_keyword(army, root, k))
                {
                    return reject(
                        rule,
                        format!("'{id}' is not a {} unit", terms.keywords.join(" or ")),
                    );
                }
                if self.units[army][root].shot || self.engaged(army, root) {
                    return reject(
                        rule,
                        format!("'{id}' has shot this phase or is within Engagement Range"),
                    );
                }
                // A unit that Advanced or Fell Back this turn could not shoot, nor throw one
                // (shared/RULES.md: Grenade).
                if matches!(
                    self.units[army][root].moved,
                    Some(crate::rules::movement::Moved::Moved(
                        crate::rules::movement::MoveMode::Advance
                            | crate::rules::movement::MoveMode::FallBack
                    ))
                ) {
                    return reject(rule, format!("'{id}' Advanced or Fell Back this turn"));
                }
                let t = need_target(self)?;
                // The enemy unit must not be within Engagement Range of any unit of the
                // player's army.
                if self.engaged(t.0, t.1) {
                    return reject(
                        rule,
                        format!(
                            "'{}' is within Engagement Range of a unit of player {player}'s army",
                            self.unit_id(t.0, t.1)
                        ),
                    );
                }
                let range = terms.range_inches.unwrap_or(GRENADE_RANGE_INCHES);
                self.check_in_sight(army, root, t, range, rule)?;
                let dice: Vec<u8> = (0..GRENADE_DICE).map(|_| self.rng.d6()).collect();
                let wounds = dice.iter().filter(|d| **d >= GRENADE_WOUNDS_ON).count() as u32;
                self.mortal_wounds(player, t, dice, wounds, ev);
                // The unit has not been selected to shoot: it may still shoot this phase.
            }
            Stratagem::TankShock => {
                if !terms
                    .keywords
                    .iter()
                    .any(|k| self.has_keyword(army, root, k))
                    || !self.units[army][root].charged
                {
                    return reject(
                        rule,
                        format!(
                            "'{id}' must be a {} unit that made a charge move this phase",
                            terms.keywords.join(" or ")
                        ),
                    );
                }
                if self.trigger
                    != Some(Trigger {
                        army,
                        unit: root,
                        kind: TriggerKind::EndedChargeMove,
                    })
                {
                    return reject(
                        rule,
                        format!("it is used just after '{id}' ends its Charge move"),
                    );
                }
                let t = need_target(self)?;
                if !self.units_engaged((army, root), t) {
                    return reject(
                        rule,
                        "the target must be within Engagement Range of the VEHICLE",
                    );
                }
                let toughness = self.scene.armies[army].units[root].datasheet.toughness;
                let dice: Vec<u8> = (0..toughness).map(|_| self.rng.d6()).collect();
                let wounds = (dice.iter().filter(|d| **d >= TANK_SHOCK_WOUNDS_ON).count() as u32)
                    .min(TANK_SHOCK_MAX_MORTAL_WOUNDS);
                // Crushing Impact: each low die costs the user's unit a mortal wound too,
                // within the same cap (shared/RULES-11e.md, open question 11).
                let own = terms.own_mortal_wound_up_to.map_or(0, |up_to| {
                    (dice.iter().filter(|d| **d <= up_to).count() as u32)
                        .min(TANK_SHOCK_MAX_MORTAL_WOUNDS)
                });
                self.mortal_wounds(player, t, dice.clone(), wounds, ev);
                if own > 0 {
                    self.mortal_wounds(
                        crate::rules::phase::opponent(player),
                        (army, root),
                        dice,
                        own,
                        ev,
                    );
                }
            }
            Stratagem::RapidIngress => {
                if self.battle_round < crate::rules::constants::RESERVES_FIRST_ROUND {
                    return reject(rule, "Reserves cannot arrive yet");
                }
                // Used at the end of the opponent's Movement phase (Core Stratagems: Rapid
                // Ingress), once their units have all moved or their Reinforcements began.
                if !self.movement_phase_ending() {
                    return reject(
                        rule,
                        format!(
                            "it is used at the end of player {}'s Movement phase, once every one \
                             of their units on the battlefield has moved (or Remained \
                             Stationary) or their Reinforcements step has begun",
                            self.active_player
                        ),
                    );
                }
                self.rapid_ingress = Some((army, root));
            }
            Stratagem::FireOverwatch => {
                if self.fire_overwatch_used {
                    return reject(rule, "it can be used once per turn");
                }
                if self.engaged(army, root) {
                    return reject(rule, format!("'{id}' is within Engagement Range"));
                }
                let t = need_target(self)?;
                if self.unit_may(
                    t.0,
                    t.1,
                    &crate::rules::effect::Modifier::NoOverwatchAgainst,
                ) {
                    return reject(
                        rule,
                        format!(
                            "'{}' cannot be shot at with Fire Overwatch this turn (a rule of its army)",
                            self.unit_id(t.0, t.1)
                        ),
                    );
                }
                let answers = self.trigger.is_some_and(|tr| {
                    (tr.army, tr.unit) == t
                        && matches!(
                            tr.kind,
                            TriggerKind::SetUp | TriggerKind::Moved | TriggerKind::DeclaredCharge
                        )
                });
                if !answers {
                    return reject(
                        rule,
                        "it is used just after that enemy unit is set up, moves or declares a charge",
                    );
                }
                self.fire_overwatch_used = true;
                let range = terms.range_inches.unwrap_or(FIRE_OVERWATCH_RANGE_INCHES);
                self.check_in_sight(army, root, t, range, rule)?;
                // The unit fires one legal loadout (each model's guns, or its Pistols; a
                // weapon with profiles on its first), every weapon that can reach the target,
                // resolved together like any shooting.
                let target_id = self.unit_id(t.0, t.1).to_string();
                let weapons: Vec<WeaponTarget> = self
                    .weapon_options(army, root, false)
                    .into_iter()
                    .map(|o| o.at(&target_id, o.profiles.first().map(String::as_str)))
                    .filter(|wt| {
                        self.prepare_attack(army, root, wt, AttackKind::Overwatch)
                            .is_ok()
                    })
                    .collect();
                if weapons.is_empty() {
                    return reject(
                        rule,
                        format!("no weapon of '{id}' can shoot at '{target_id}'"),
                    );
                }
                self.attack_with(army, root, &weapons, AttackKind::Overwatch, ev)?;
            }
            Stratagem::Smokescreen if self.scene.edition().smokescreen_at_phase_start => {
                // 11th: at the start of the opponent's Shooting phase, before any of their
                // units has selected targets (11th Core Rules 15.10).
                let opponent_army = self.army_of(crate::rules::phase::opponent(player));
                let started = self.pending_shot.is_some()
                    || opponent_army.is_some_and(|a| self.units[a].iter().any(|u| u.shot));
                if started {
                    return reject(
                        rule,
                        "it is used at the start of the opponent's Shooting phase, before any of \
                         their units has shot",
                    );
                }
                if !self.has_keyword(army, root, "SMOKE") {
                    return reject(rule, format!("'{id}' is not a SMOKE unit"));
                }
                self.for_combined(army, root, |s| s.shrouded = Some(Stratagem::Smokescreen));
            }
            Stratagem::GoToGround | Stratagem::Smokescreen if !self.targeted_now(army, root) => {
                return reject(
                    rule,
                    format!(
                        "it is used just after an enemy unit has selected its targets, on one of \
                         them, and '{id}' is not a target waiting for its attacks"
                    ),
                );
            }
            Stratagem::GoToGround => {
                if !self.all_have_keyword(army, root, "INFANTRY") {
                    return reject(rule, format!("'{id}' is not INFANTRY"));
                }
                self.for_combined(army, root, |s| s.shrouded = Some(Stratagem::GoToGround));
            }
            Stratagem::Smokescreen => {
                if !self.has_keyword(army, root, "SMOKE") {
                    return reject(rule, format!("'{id}' is not a SMOKE unit"));
                }
                self.for_combined(army, root, |s| s.shrouded = Some(Stratagem::Smokescreen));
            }
            Stratagem::HeroicIntervention => {
                let t = need_target(self)?;
                if self.trigger
                    != Some(Trigger {
                        army: t.0,
                        unit: t.1,
                        kind: TriggerKind::EndedChargeMove,
                    })
                {
                    return reject(
                        rule,
                        "it is used just after that enemy unit ends a Charge move",
                    );
                }
                if self.charge.is_some() {
                    return reject(rule, "a charge is already in progress");
                }
                if self.has_keyword(army, root, "VEHICLE")
                    && !self.has_keyword(army, root, "WALKER")
                {
                    return reject(rule, "only WALKER VEHICLE units can Heroically Intervene");
                }
                self.check_can_charge(army, root)?;
                let d = self.unit_distance((army, root), t);
                let range = terms
                    .range_inches
                    .unwrap_or(HEROIC_INTERVENTION_RANGE_INCHES);
                if d > range + MEASURE_TOLERANCE_INCHES {
                    return reject(
                        rule,
                        format!("the charging unit is {d:.2}\" away; it must be within {range}\""),
                    );
                }
                let dice = [self.rng.d6(), self.rng.d6()];
                self.for_combined(army, root, |s| s.declared_charge = true);
                self.charge = Some(PendingCharge {
                    army,
                    unit: root,
                    targets: vec![t.1],
                    dice,
                    heroic: true,
                    modifier: 0,
                });
                ev.push(GameEvent::ChargeDeclared {
                    player,
                    unit: id.to_string(),
                    targets: vec![self.unit_id(t.0, t.1).to_string()],
                    dice,
                });
            }
        }
        Ok(())
    }

    /// Rejects unless the enemy unit `t` is within `range` inches of and visible to the unit.
    fn check_in_sight(
        &self,
        army: usize,
        root: usize,
        t: (usize, usize),
        range: f32,
        rule: Rule,
    ) -> Result<(), Rejection> {
        let d = self.unit_distance((army, root), t);
        if d > range + MEASURE_TOLERANCE_INCHES {
            return reject(
                rule,
                format!("the target is {d:.2}\" away; it must be within {range}\""),
            );
        }
        let sight = self.sight();
        let (mine, theirs) = (
            self.entries_of(&sight, army, root),
            self.entries_of(&sight, t.0, t.1),
        );
        let sampling = crate::geometry::sight::Sampling::FAST;
        let seen = mine.iter().any(|&o| {
            theirs.iter().any(|&x| {
                sight.index.model_visible(
                    o,
                    x,
                    crate::geometry::sight::SeeThrough::OwnUnit,
                    &sampling,
                )
            })
        });
        if !seen {
            return reject(rule, "the target must be visible to the unit");
        }
        Ok(())
    }

    /// Inflicts mortal wounds (from a Stratagem or an ability) on the unit `t`, reported as
    /// rolled by `player`.
    pub(super) fn mortal_wounds(
        &mut self,
        player: u8,
        t: (usize, usize),
        dice: Vec<u8>,
        wounds: u32,
        ev: &mut Vec<GameEvent>,
    ) {
        ev.push(GameEvent::MortalWoundsRolled {
            player,
            target: self.unit_id(t.0, t.1).to_string(),
            dice,
            mortal_wounds: wounds,
        });
        let sight = self.sight();
        let entries = self.entries_of(&sight, t.0, t.1);
        let mut target = crate::game::combat::target_unit(&self.scene, &sight, &entries);
        self.set_wounds(&sight, &entries, &mut target);
        let mut log = Vec::new();
        let outcome = inflict_mortal_wounds(&target, wounds, &mut self.rng, &mut log);
        // The log names the target's models `unit#N`, not by their place in the target.
        let names: Vec<String> = target.models.iter().map(|m| m.name.clone()).collect();
        ev.extend(
            log.into_iter()
                .map(|e| GameEvent::Attack(e.naming_models(&names))),
        );
        self.apply_outcome(&sight, &entries, &outcome, ev);
    }
}
