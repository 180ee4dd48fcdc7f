//! The Charge and Fight phases: declaring charges, charge moves, the fight order (Fights First,
//! then alternating with the non-active player first), Pile In, melee attacks, Consolidate.
//!
//! Core Rules: Charge phase, Fight phase; Rules Commentary: Consolidating (without moving),
//! Consolidation Move, Pile-in Move.

use super::command::{ModelPath, WeaponTarget};
use super::event::GameEvent;
use super::rejection::{Rejection, Rule, reject};
use super::shooting::AttackKind;
use super::state::{FightState, Game, PendingCharge};
use super::table::MoveKind;
use crate::game::sight::ModelRef;
use crate::geometry::measure::model_distance;
use crate::geometry::{ModelSolid, Vec3};
use crate::rules::CoreAbility;
use crate::rules::constants::{
    BASE_CONTACT_INCHES, CHARGE_RANGE_INCHES, CONSOLIDATE_INCHES, MEASURE_TOLERANCE_INCHES,
    PILE_IN_INCHES,
};
use crate::rules::movement::{MoveMode, Moved};
use crate::rules::phase::{FightStep, Phase, Stage, opponent};
use crate::rules::ruleset::ConsolidationRule;

impl Game {
    pub(super) fn declare_charge(
        &mut self,
        player: u8,
        id: &str,
        targets: &[String],
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        self.require_phase(player, Phase::Charge)?;
        if let Some(c) = &self.charge {
            return reject(
                Rule::ChargePhase,
                format!(
                    "'{}' must make its charge move first",
                    self.unit_id(c.army, c.unit)
                ),
            );
        }
        let (army, root) = self.own_root(player, id)?;
        self.check_can_charge(army, root)?;
        let after_roll = self.scene.edition().charge_targets_after_roll;
        if after_roll && !targets.is_empty() {
            return reject(
                Rule::ChargePhase,
                "under 11th edition a charge is declared without targets: they are chosen after \
                 the roll, in the charge move (11th Core Rules 11.02-11.03)",
            );
        }
        if !after_roll && targets.is_empty() {
            return reject(Rule::ChargePhase, "a charge needs at least one target");
        }
        let mut closest = f32::INFINITY;
        if after_roll {
            let targets = self.charge_targets(army, root);
            if targets.is_empty() {
                return reject(
                    Rule::ChargePhase,
                    format!("no enemy unit is within {CHARGE_RANGE_INCHES}\" of '{id}'"),
                );
            }
            closest = targets[0].distance;
        }
        let mut target_units = Vec::new();
        for t in targets {
            let (tarmy, tunit) = self.enemy_unit(player, t)?;
            let troot = self.combined(tarmy, tunit)[0];
            let d = self.unit_distance((army, root), (tarmy, troot));
            closest = closest.min(d);
            if d > CHARGE_RANGE_INCHES + MEASURE_TOLERANCE_INCHES {
                return reject(
                    Rule::ChargePhase,
                    format!(
                        "'{t}' is {d:.2}\" away; charge targets must be within {CHARGE_RANGE_INCHES}\""
                    ),
                );
            }
            if !target_units.contains(&troot) {
                target_units.push(troot);
            }
        }
        let mut dice = [self.rng.d6(), self.rng.d6()];
        self.for_combined(army, root, |s| s.declared_charge = true);
        let modifier = self.unit_bonus(army, root, &crate::rules::effect::Modifier::ChargeRoll(0));
        // A rule's free re-roll of a Charge roll that cannot reach the closest target.
        let reach = i32::from(dice[0] + dice[1]) + modifier;
        if reach < self.scene.edition().charge_roll_needed(closest) as i32
            && self.unit_may(army, root, &crate::rules::effect::Modifier::RerollCharge)
        {
            ev.push(GameEvent::RuleRerolled {
                player,
                unit: self.unit_id(army, root).to_string(),
                roll: super::command::RerollRoll::Charge,
                replaced: dice.to_vec(),
            });
            dice = [self.rng.d6(), self.rng.d6()];
        }
        self.charge = Some(PendingCharge {
            army,
            unit: root,
            targets: target_units,
            dice,
            heroic: false,
            modifier,
        });
        ev.push(GameEvent::ChargeDeclared {
            player,
            unit: self.unit_id(army, root).to_string(),
            targets: targets.to_vec(),
            dice,
        });
        Ok(())
    }

    /// Under 11th, only a unit that can FLY may charge an AIRCRAFT (11th Core Rules 23): the
    /// refusal's words when the combined unit (`army`, `root`) may not charge the enemy unit
    /// (`tarmy`, `troot`).
    pub(super) fn aircraft_charge_refusal(
        &self,
        (army, root): (usize, usize),
        (tarmy, troot): (usize, usize),
    ) -> Option<String> {
        (self.scene.edition().aircraft_from_reserves
            && self.has_keyword(tarmy, troot, "AIRCRAFT")
            && !self.all_have_keyword(army, root, "FLY"))
        .then(|| {
            format!(
                "'{}' is an AIRCRAFT: only units that can FLY charge it",
                self.unit_id(tarmy, troot)
            )
        })
    }

    /// 11th edition: the targets a charge move names after the roll, as unit indices: at
    /// least one, each an enemy unit within 12" and within the Charge roll (11th Core Rules
    /// 11.03: the roll must reach it).
    fn chosen_charge_targets(
        &self,
        player: u8,
        army: usize,
        root: usize,
        charge: &PendingCharge,
        chosen: &[String],
    ) -> Result<Vec<usize>, Rejection> {
        if chosen.is_empty() {
            return reject(
                Rule::ChargePhase,
                "name the charge's targets: enemy units within 12\" and within the Charge roll",
            );
        }
        let roll = charge.distance();
        let mut out = Vec::new();
        for t in chosen {
            let (tarmy, tunit) = self.enemy_unit(player, t)?;
            let troot = self.combined(tarmy, tunit)[0];
            let d = self.unit_distance((army, root), (tarmy, troot));
            if d > CHARGE_RANGE_INCHES + MEASURE_TOLERANCE_INCHES {
                return reject(
                    Rule::ChargePhase,
                    format!(
                        "'{t}' is {d:.2}\" away; charge targets must be within {CHARGE_RANGE_INCHES}\""
                    ),
                );
            }
            if let Some(why) = self.aircraft_charge_refusal((army, root), (tarmy, troot)) {
                return reject(Rule::ChargePhase, why);
            }
            let needed = self.scene.edition().charge_roll_needed(d);
            if (roll as u32) < needed {
                return reject(
                    Rule::ChargePhase,
                    format!(
                        "'{t}' is {d:.2}\" away: the Charge roll of {roll}\" does not reach it \
                         ({needed} needed)"
                    ),
                );
            }
            if !out.contains(&troot) {
                out.push(troot);
            }
        }
        Ok(out)
    }

    /// The enemy units a charge that rolled `roll` may choose under 11th edition, with their
    /// distances, nearest first: those of [`Game::charge_targets`] the roll reaches (11th Core
    /// Rules 11.03). Under 10th every declared target.
    pub fn charge_targets_in_reach(&self, army: usize, unit: usize, roll: f32) -> Vec<String> {
        let root = self.combined(army, unit)[0];
        let edition = self.scene.edition();
        let Some(enemy) = self.army_of(opponent(self.player_of(army))) else {
            return Vec::new();
        };
        let mut out: Vec<(f32, String)> = self
            .unit_roots(enemy)
            .into_iter()
            .filter(|&u| {
                !self.live_models(enemy, u).is_empty()
                    && self
                        .aircraft_charge_refusal((army, root), (enemy, u))
                        .is_none()
            })
            .filter_map(|u| {
                let d = self.unit_distance((army, root), (enemy, u));
                (d <= CHARGE_RANGE_INCHES + MEASURE_TOLERANCE_INCHES
                    && roll as u32 >= edition.charge_roll_needed(d))
                .then(|| (d, self.unit_id(enemy, u).to_string()))
            })
            .collect();
        out.sort_by(|a, b| a.0.total_cmp(&b.0));
        out.into_iter().map(|(_, t)| t).collect()
    }

    /// 11th edition: the targets a charge move along `paths` chooses, read from where its
    /// models end: every enemy unit the pending Charge roll reaches with a model within
    /// Engagement Range of a model's end (nearest first). Empty under 10th, whose targets were
    /// declared, and when no charge of this unit is pending.
    pub fn charge_targets_engaged_by(
        &self,
        army: usize,
        root: usize,
        paths: &[ModelPath],
    ) -> Vec<String> {
        let edition = self.scene.edition();
        let Some(charge) = self
            .charge
            .as_ref()
            .filter(|c| c.army == army && c.unit == root && edition.charge_targets_after_roll)
        else {
            return Vec::new();
        };
        let Some(enemy) = self.army_of(opponent(self.player_of(army))) else {
            return Vec::new();
        };
        let ends: Vec<ModelSolid> = paths
            .iter()
            .filter_map(|p| {
                let r = self.model_of(army, root, p.unit.as_deref(), p.model).ok()?;
                let &(x, y, z) = p.path.last()?;
                let facing = p
                    .facing
                    .unwrap_or(self.scene.armies[r.army].units[r.unit].models[r.model].facing);
                Some(self.solid_at(r, Vec3::new(x, y, z), facing))
            })
            .collect();
        self.charge_targets_in_reach(army, root, charge.distance())
            .into_iter()
            .filter(|t| {
                self.enemy_unit(self.player_of(army), t)
                    .is_ok_and(|(_, u)| {
                        self.live_models(enemy, u).into_iter().any(|e| {
                            let theirs = self.solid(e);
                            ends.iter().any(|m| {
                                crate::rules::engagement::within_engagement_range_in(
                                    edition,
                                    m,
                                    &theirs,
                                    &[],
                                )
                            })
                        })
                    })
            })
            .collect()
    }

    /// Rejects a unit that cannot declare a charge (Core Rules: Charge phase eligibility).
    pub(super) fn check_can_charge(&self, army: usize, root: usize) -> Result<(), Rejection> {
        let id = self.unit_id(army, root);
        let u = &self.units[army][root];
        if self.live_models(army, root).is_empty() {
            return reject(
                Rule::ChargePhase,
                format!("'{id}' is not on the battlefield"),
            );
        }
        if u.declared_charge {
            return reject(
                Rule::ChargePhase,
                format!("'{id}' already declared a charge this turn"),
            );
        }
        use crate::rules::effect::Modifier;
        match u.moved {
            Some(Moved::Moved(MoveMode::Advance))
                if !self.unit_may(army, root, &Modifier::ChargeAfterAdvancing) =>
            {
                return reject(
                    Rule::ChargePhase,
                    format!("'{id}' Advanced this turn and cannot charge"),
                );
            }
            Some(Moved::Moved(MoveMode::FallBack))
                if !self.unit_may(army, root, &Modifier::ChargeAfterFallingBack) =>
            {
                return reject(
                    Rule::ChargePhase,
                    format!("'{id}' Fell Back this turn and cannot charge"),
                );
            }
            _ => {}
        }
        if u.no_charge {
            return reject(
                Rule::ChargePhase,
                format!("'{id}' disembarked after its TRANSPORT moved and cannot charge this turn"),
            );
        }
        if self.has_keyword(army, root, "AIRCRAFT") {
            return reject(
                Rule::ChargePhase,
                format!("'{id}' is an AIRCRAFT and cannot charge"),
            );
        }
        if self.engaged(army, root) {
            return reject(
                Rule::ChargePhase,
                format!("'{id}' is already within Engagement Range of an enemy unit"),
            );
        }
        Ok(())
    }

    pub(super) fn charge_move(
        &mut self,
        player: u8,
        id: &str,
        paths: &[ModelPath],
        chosen: &[String],
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        let heroic = self
            .charge
            .as_ref()
            .is_some_and(|c| c.heroic && self.player_of(c.army) == player);
        if !heroic {
            self.require_phase(player, Phase::Charge)?;
        }
        let (army, root) = self.own_root(player, id)?;
        let Some(charge) = self
            .charge
            .clone()
            .filter(|c| c.army == army && c.unit == root)
        else {
            return reject(
                Rule::ChargePhase,
                format!("'{id}' has not declared a charge"),
            );
        };
        let mut charge = charge;
        let after_roll = self.scene.edition().charge_targets_after_roll;
        if !after_roll && !chosen.is_empty() {
            return reject(
                Rule::ChargePhase,
                "the charge's targets were declared with it: the charge move names none",
            );
        }
        // A Heroic Intervention's targets come with the Stratagem.
        if after_roll && !paths.is_empty() && !(chosen.is_empty() && charge.heroic) {
            charge.targets = self.chosen_charge_targets(player, army, root, &charge, chosen)?;
        }
        self.charge = None;
        if paths.is_empty() {
            ev.push(GameEvent::ChargeFailed {
                player,
                unit: id.to_string(),
            });
            return Ok(());
        }
        let distance = charge.distance();
        let planned = self.plan_move(army, root, paths, &|_| distance, MoveKind::Engaging)?;
        self.apply_planned(&planned);
        let tarmy = self.army_of(opponent(player)).expect("two armies");
        for &t in &charge.targets {
            if !self.live_models(tarmy, t).is_empty()
                && !self.units_engaged((army, root), (tarmy, t))
            {
                return reject(
                    Rule::ChargePhase,
                    format!(
                        "the charge move must end within Engagement Range of every target; '{}' is not reached",
                        self.unit_id(tarmy, t)
                    ),
                );
            }
        }
        for t in self.unit_roots(tarmy) {
            if !charge.targets.contains(&t)
                && !self.live_models(tarmy, t).is_empty()
                && self.units_engaged((army, root), (tarmy, t))
            {
                return reject(
                    Rule::ChargePhase,
                    format!(
                        "the charge move would end within Engagement Range of '{}', which was not a target",
                        self.unit_id(tarmy, t)
                    ),
                );
            }
        }
        if !charge.heroic {
            self.for_combined(army, root, |s| s.charged = true);
        }
        let targets = if after_roll {
            charge
                .targets
                .iter()
                .map(|&t| self.unit_id(tarmy, t).to_string())
                .collect()
        } else {
            Vec::new()
        };
        ev.push(GameEvent::ChargeMoved {
            player,
            unit: self.unit_id(army, root).to_string(),
            targets,
        });
        Ok(())
    }

    /// Eligible to fight: on the table, not yet fought this phase, and within Engagement Range
    /// of an enemy unit or charged this turn.
    pub fn can_fight(&self, army: usize, root: usize) -> bool {
        let u = &self.units[army][root];
        !u.fought
            && !self.live_models(army, root).is_empty()
            && (u.charged || self.engaged(army, root))
    }

    /// The player who selects the next unit to fight and the ids of the units they may
    /// select (None outside the Fight phase, or while a unit is fighting).
    pub fn next_to_fight(&self) -> Option<(u8, Vec<String>)> {
        let f = self.fight.as_ref()?;
        if f.current.is_some() || f.step == FightStep::Consolidate {
            return None;
        }
        if let Some((a, u)) = f.counter_offensive {
            return Some((self.player_of(a), vec![self.unit_id(a, u).to_string()]));
        }
        let army = self.army_of(f.picker)?;
        let ids: Vec<String> = self
            .fight_candidates(f.picker, f.step)
            .into_iter()
            .map(|u| self.unit_id(army, u).to_string())
            .collect();
        (!ids.is_empty()).then_some((f.picker, ids))
    }

    /// 11th Consolidate step: the picker's next unit to consolidate (army, unit), if any.
    pub(super) fn next_to_consolidate(&self) -> Option<(usize, usize)> {
        let f = self.fight.as_ref()?;
        let army = self.army_of(f.picker)?;
        let u = *self
            .fight_candidates(f.picker, FightStep::Consolidate)
            .first()?;
        Some((army, u))
    }

    /// True when selecting the combined unit (`army`, `unit`) with [`Command::PileIn`] now
    /// moves it: always under 10th (selecting a unit to fight is its Pile In), in the 11th
    /// Pile In step, and in the 11th Fight step only for an unengaged unit (an Overrun); an
    /// engaged unit is then selected with no paths (11th Core Rules 12.05-12.06).
    ///
    /// [`Command::PileIn`]: super::command::Command::PileIn
    pub fn fight_selection_moves(&self, army: usize, unit: usize) -> bool {
        let root = self.combined(army, unit)[0];
        !self.scene.edition().shared_pile_in_and_consolidate_steps
            || self
                .fight
                .as_ref()
                .is_some_and(|f| f.step == FightStep::PileIn)
            || !self.engaged(army, root)
    }

    /// The player who selects first in each step of the Fight phase: the active player's
    /// opponent under 10th, the active player under 11th (11th Core Rules 12.04).
    pub(super) fn fight_first_picker(&self) -> u8 {
        if self.scene.edition().fight_active_player_first {
            self.active_player
        } else {
            opponent(self.active_player)
        }
    }

    /// The units of `player` that may act in `step`: fight (Fights First, Remaining
    /// Combats), or under 11th make their Pile In step move (eligible to fight, not yet piled
    /// in) or their Consolidate step move (fought, not yet consolidated).
    fn fight_candidates(&self, player: u8, step: FightStep) -> Vec<usize> {
        let army = self.army_of(player).expect("two armies");
        let f = self.fight.as_ref();
        match step {
            FightStep::PileIn => {
                return self
                    .unit_roots(army)
                    .into_iter()
                    .filter(|&u| {
                        self.can_fight(army, u)
                            && !f.is_some_and(|f| f.piled_in.contains(&(army, u)))
                    })
                    .collect();
            }
            FightStep::Consolidate => {
                return self
                    .unit_roots(army)
                    .into_iter()
                    .filter(|&u| {
                        self.units[army][u].fought
                            && !self.live_models(army, u).is_empty()
                            && !f.is_some_and(|f| f.consolidated.contains(&(army, u)))
                    })
                    .collect();
            }
            _ => {}
        }
        self.unit_roots(army)
            .into_iter()
            .filter(|&u| {
                self.can_fight(army, u)
                    && (step == FightStep::RemainingCombats
                        || self.units[army][u].charged
                        || self.combined(army, u).iter().all(|&x| {
                            self.scene.armies[army].units[x]
                                .datasheet
                                .has_core(&CoreAbility::FightsFirst)
                                || self.rules_give_fights_first(army, x)
                        }))
            })
            .collect()
    }

    /// After an activation: who selects next, moving to the next step when neither player
    /// has a unit left in this one.
    pub(super) fn settle_fight_picker(&mut self, ev: &mut Vec<GameEvent>) {
        let Some(mut f) = self.fight.clone() else {
            return;
        };
        loop {
            if let Some((a, _)) = f.counter_offensive {
                f.picker = self.player_of(a);
                break;
            }
            // 11th: a consolidation that engaged an enemy unit makes it fight at once (and
            // any other unit that can fight), the consolidating player's opponent first
            // (11th Core Rules 12.07, Engaging).
            if f.step == FightStep::Consolidate
                && let Some(p) = [opponent(f.picker), f.picker].into_iter().find(|&p| {
                    !self
                        .fight_candidates(p, FightStep::RemainingCombats)
                        .is_empty()
                })
            {
                f.step = FightStep::RemainingCombats;
                f.picker = p;
                ev.push(GameEvent::FightStepStarted { step: f.step });
                break;
            }
            if !self.fight_candidates(f.picker, f.step).is_empty() {
                break;
            }
            if !self.fight_candidates(opponent(f.picker), f.step).is_empty() {
                f.picker = opponent(f.picker);
                break;
            }
            let shared = self.scene.edition().shared_pile_in_and_consolidate_steps;
            let next = match f.step {
                FightStep::PileIn => Some(FightStep::FightsFirst),
                FightStep::FightsFirst => Some(FightStep::RemainingCombats),
                FightStep::RemainingCombats if shared => Some(FightStep::Consolidate),
                _ => None,
            };
            if let Some(step) = next {
                f.step = step;
                f.picker = self.fight_first_picker();
                ev.push(GameEvent::FightStepStarted { step });
                // The candidates of the next step are read with its progress so far.
                self.fight = Some(f.clone());
                continue;
            }
            break;
        }
        self.fight = Some(f);
    }

    /// Why the Fight phase cannot end yet, if it cannot.
    pub(super) fn fight_units_left(&self) -> Option<String> {
        let f = self.fight.as_ref()?;
        if let Some((a, u, _)) = f.current {
            return Some(format!(
                "'{}' is fighting and must Consolidate",
                self.unit_id(a, u)
            ));
        }
        if f.step == FightStep::PileIn {
            return Some(format!(
                "the Pile In step comes first: player {} has units to pile in, and they must fight",
                f.picker
            ));
        }
        for p in [1, 2] {
            if let Some(&u) = self
                .fight_candidates(p, FightStep::RemainingCombats)
                .first()
            {
                let a = self.army_of(p).expect("two armies");
                return Some(format!(
                    "'{}' (player {p}) is eligible to fight and has not fought",
                    self.unit_id(a, u)
                ));
            }
        }
        None
    }

    fn require_fight(&self) -> Result<FightState, Rejection> {
        match (&self.fight, self.stage, self.phase) {
            (Some(f), Stage::Battle, Phase::Fight) => Ok(f.clone()),
            _ => reject(
                Rule::Sequencing,
                format!(
                    "this can only be done in the Fight phase; it is {}",
                    self.describe_now()
                ),
            ),
        }
    }

    pub(super) fn pile_in(
        &mut self,
        player: u8,
        id: &str,
        paths: &[ModelPath],
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        let f = self.require_fight()?;
        let (army, root) = self.own_root(player, id)?;
        if let Some((a, u, _)) = f.current {
            return reject(
                Rule::FightPhase,
                format!("'{}' is fighting; it must finish first", self.unit_id(a, u)),
            );
        }
        if f.step == FightStep::PileIn {
            return self.shared_step_move((player, army, root), paths, &f, ev);
        }
        if f.step == FightStep::Consolidate {
            return reject(
                Rule::FightPhase,
                "every unit has fought: this is the Consolidate step",
            );
        }
        // 11th: a unit engaged now piled in during the Pile In step; only an unengaged one
        // (an Overrun) moves when it is selected (11th Core Rules 12.05-12.06).
        if self.scene.edition().shared_pile_in_and_consolidate_steps
            && !paths.is_empty()
            && self.engaged(army, root)
        {
            return reject(
                Rule::PileIn,
                format!(
                    "'{id}' is engaged: it piled in during the Pile In step, so it is selected \
                     to fight with no move (only an unengaged unit makes an Overrun pile-in)"
                ),
            );
        }
        if let Some(co) = f.counter_offensive {
            if co != (army, root) {
                return reject(
                    Rule::Stratagem(crate::rules::stratagem::Stratagem::CounterOffensive),
                    format!(
                        "'{}' fights next (Counter-offensive)",
                        self.unit_id(co.0, co.1)
                    ),
                );
            }
        } else {
            if f.picker != player {
                return reject(
                    Rule::FightPhase,
                    format!("player {} selects the next unit to fight", f.picker),
                );
            }
            if !self.fight_candidates(player, f.step).contains(&root) {
                return reject(
                    Rule::FightPhase,
                    if self.can_fight(army, root) {
                        format!("'{id}' does not have Fights First; units that charged fight first")
                    } else {
                        format!(
                            "'{id}' is not eligible to fight (it must be within Engagement Range of an enemy unit or have charged, and not have fought)"
                        )
                    },
                );
            }
        }
        let moved = self.closer_move(
            army,
            root,
            paths,
            self.fight_move_inches(army, root, PILE_IN_INCHES),
            false,
        )?;
        self.fight.as_mut().expect("fight").current = Some((army, root, false));
        ev.push(GameEvent::PiledIn {
            player,
            unit: self.unit_id(army, root).to_string(),
            models_moved: moved,
        });
        Ok(())
    }

    pub(super) fn fight(
        &mut self,
        player: u8,
        id: &str,
        weapons: &[WeaponTarget],
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        let f = self.require_fight()?;
        let (army, root) = self.own_root(player, id)?;
        if f.current != Some((army, root, false)) {
            return reject(
                Rule::FightPhase,
                format!("'{id}' must be selected to fight (Pile In) first, and fights once"),
            );
        }
        if !weapons.is_empty() {
            self.attack_with(army, root, weapons, AttackKind::Melee, ev)?;
        }
        if self.scene.edition().shared_pile_in_and_consolidate_steps {
            // 11th: the unit consolidates in the Consolidate step, after all fighting.
            self.finish_fighting(player, army, root);
            self.settle_fight_picker(ev);
            return Ok(());
        }
        self.fight.as_mut().expect("fight").current = Some((army, root, true));
        Ok(())
    }

    /// The unit (`army`, `root`) of `player` has finished fighting: marked, and the other
    /// player selects next.
    fn finish_fighting(&mut self, player: u8, army: usize, root: usize) {
        self.for_combined(army, root, |s| s.fought = true);
        let fs = self.fight.as_mut().expect("fight");
        fs.current = None;
        fs.last_fought = Some(player);
        if fs.counter_offensive == Some((army, root)) {
            fs.counter_offensive = None;
        }
        fs.picker = opponent(player);
    }

    /// 11th edition Pile In step (11th Core Rules 12.02-12.03: each unit that may fight) or
    /// Consolidate step (12.07: each unit that fought): the picker's unit makes its move (no
    /// paths: it stays), once; the active player's units first, then the opponent's.
    fn shared_step_move(
        &mut self,
        (player, army, root): (u8, usize, usize),
        paths: &[ModelPath],
        f: &FightState,
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        let id = self.unit_id(army, root).to_string();
        let consolidating = f.step == FightStep::Consolidate;
        let (rule, verb, inches) = if consolidating {
            (Rule::Consolidate, "consolidates", CONSOLIDATE_INCHES)
        } else {
            (Rule::PileIn, "piles in", PILE_IN_INCHES)
        };
        if f.picker != player {
            return reject(
                rule,
                format!(
                    "player {} {verb} first (the active player's units first)",
                    f.picker
                ),
            );
        }
        if !self.fight_candidates(player, f.step).contains(&root) {
            return reject(
                rule,
                if consolidating {
                    format!("'{id}' did not fight this phase, or has consolidated already")
                } else {
                    format!(
                        "'{id}' may not pile in: it must be engaged or have charged, and it piles in once"
                    )
                },
            );
        }
        let moved = if self.live_models(army, root).is_empty() {
            0
        } else {
            let inches = self.fight_move_inches(army, root, inches);
            self.closer_move(army, root, paths, inches, consolidating)?
        };
        let fs = self.fight.as_mut().expect("fight");
        let done = if consolidating {
            &mut fs.consolidated
        } else {
            &mut fs.piled_in
        };
        done.push((army, root));
        let unit = id;
        ev.push(if consolidating {
            GameEvent::Consolidated {
                player,
                unit,
                models_moved: moved,
            }
        } else {
            GameEvent::PiledIn {
                player,
                unit,
                models_moved: moved,
            }
        });
        self.settle_fight_picker(ev);
        Ok(())
    }

    pub(super) fn consolidate(
        &mut self,
        player: u8,
        id: &str,
        paths: &[ModelPath],
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        let f = self.require_fight()?;
        let (army, root) = self.own_root(player, id)?;
        if f.step == FightStep::Consolidate {
            return self.shared_step_move((player, army, root), paths, &f, ev);
        }
        if f.current != Some((army, root, true)) {
            return reject(
                Rule::FightPhase,
                format!("'{id}' consolidates after it has fought"),
            );
        }
        let moved = if self.live_models(army, root).is_empty() {
            0
        } else {
            self.closer_move(
                army,
                root,
                paths,
                self.fight_move_inches(army, root, CONSOLIDATE_INCHES),
                true,
            )?
        };
        self.finish_fighting(player, army, root);
        ev.push(GameEvent::Consolidated {
            player,
            unit: self.unit_id(army, root).to_string(),
            models_moved: moved,
        });
        self.settle_fight_picker(ev);
        Ok(())
    }

    /// A Pile In or Consolidation move: a model already in base-to-base contact with an enemy
    /// model does not move; each moved model ends closer to its own closest enemy
    /// model (the one closest when the move starts) or in base-to-base contact with it, and
    /// the unit ends within Engagement Range of an enemy unit. Consolidating when no enemy
    /// unit can be reached (none within the move plus Engagement Range), each model instead
    /// ends closer to the objective marker closest to the unit, and the unit ends within
    /// range of it. Returns the number of models moved.
    ///
    /// Core Rules: Fight phase (Pile In, Consolidate); Rules Commentary: Consolidation Move,
    /// Pile-in Move.
    fn closer_move(
        &mut self,
        army: usize,
        root: usize,
        paths: &[ModelPath],
        inches: f32,
        consolidating: bool,
    ) -> Result<usize, Rejection> {
        if paths.is_empty() {
            return Ok(0);
        }
        let what = if consolidating {
            Rule::Consolidate
        } else {
            Rule::PileIn
        };
        let enemies: Vec<ModelSolid> = self.enemy_solids(army);
        let own: Vec<ModelSolid> = self
            .live_models(army, root)
            .iter()
            .map(|r| self.solid(*r))
            .collect();
        let modes = match self.scene.edition().consolidation {
            ConsolidationRule::Modes { within_inches } => Some(within_inches),
            ConsolidationRule::TowardsEnemyElseObjective => None,
        };
        // 11th: the enemy units it starts engaged with, which it must stay engaged with.
        let engaged_at_start = if modes.is_some() {
            self.enemy_units_engaged_with(army, root)
        } else {
            Vec::new()
        };
        // 10th: an enemy unit can be reached when some model of the unit is within the move
        // plus Engagement Range of an enemy model. 11th: the Ongoing mode (engaged) or the
        // Engaging mode (an enemy unit within 3").
        let reach = modes
            .unwrap_or(inches + self.scene.edition().engagement_range_horizontal_inches)
            + MEASURE_TOLERANCE_INCHES;
        let enemy_reachable = !engaged_at_start.is_empty()
            || own.iter().any(|m| {
                enemies
                    .iter()
                    .any(|e| model_distance(m, e).distance <= reach)
            });
        let towards_enemy = !consolidating || enemy_reachable;
        let objective = if towards_enemy {
            None
        } else if modes.is_some() {
            // 11th Objective mode: an objective marker within 3" (objective range).
            self.closest_objective_to(&own)
                .filter(|&(i, _)| self.unit_in_objective_range(army, root, i))
        } else {
            self.closest_objective_to(&own)
        };
        if !towards_enemy && objective.is_none() {
            return reject(
                what,
                if modes.is_some() {
                    "no consolidation mode applies (not engaged, no enemy unit and no objective marker within 3\"): the unit makes no Consolidation move"
                } else {
                    "no enemy unit can be reached and there is no objective marker to move towards; the unit cannot Consolidate"
                },
            );
        }
        // A model already in base-to-base contact with an enemy model is not moved (Rules
        // Commentary: Pile-in Move, Consolidation Move; Core Rules: Fight phase): its path may
        // only keep it where it stands.
        for p in paths {
            let r = self.model_of(army, root, p.unit.as_deref(), p.model)?;
            let start = self.scene.armies[r.army].units[r.unit].models[r.model].position;
            let moves = p
                .path
                .iter()
                .any(|&(x, y, z)| (Vec3::new(x, y, z) - start).length() > MEASURE_TOLERANCE_INCHES);
            let s = self.solid(r);
            if moves
                && enemies
                    .iter()
                    .any(|e| model_distance(&s, e).distance <= BASE_CONTACT_INCHES)
            {
                return reject(
                    what,
                    format!(
                        "{} is already in base-to-base contact with an enemy model, so it is not moved",
                        self.model_name(r)
                    ),
                );
            }
        }
        let planned = self.plan_move(army, root, paths, &|_| inches, MoveKind::Engaging)?;
        let before: Vec<(ModelRef, ModelSolid)> = planned
            .moves
            .iter()
            .map(|(r, _)| (*r, self.solid(*r)))
            .collect();
        self.apply_planned(&planned);
        for (r, old) in before {
            let new = self.solid(r);
            let name = self.model_name(r);
            if towards_enemy {
                // Its own closest enemy model, where the move started.
                let Some(e) = enemies.iter().min_by(|a, b| {
                    model_distance(&old, a)
                        .distance
                        .total_cmp(&model_distance(&old, b).distance)
                }) else {
                    continue;
                };
                let (a, b) = (
                    model_distance(&old, e).distance,
                    model_distance(&new, e).distance,
                );
                if b > BASE_CONTACT_INCHES && b >= a - MEASURE_TOLERANCE_INCHES {
                    return reject(
                        what,
                        format!(
                            "{name} must end closer to its closest enemy model ({a:.2}\" before, {b:.2}\" after)"
                        ),
                    );
                }
            } else if let Some((_, at)) = objective {
                let d = |s: &ModelSolid| (s.centre - at.truncate()).length();
                if d(&new) >= d(&old) - MEASURE_TOLERANCE_INCHES {
                    return reject(
                        what,
                        format!(
                            "{name} must end closer to the closest objective marker when no enemy unit can be reached"
                        ),
                    );
                }
            }
        }
        if towards_enemy && !self.engaged(army, root) {
            return reject(
                what,
                if consolidating {
                    "an enemy unit can be reached, so the unit must end within Engagement Range of one (it may not step out of combat)"
                } else {
                    "the unit must end within Engagement Range of an enemy unit"
                },
            );
        }
        if let Some((i, _)) = objective
            && !self.unit_in_objective_range(army, root, i)
        {
            return reject(
                what,
                "consolidating towards an objective marker, the unit must end within range of it",
            );
        }
        if objective.is_some() && modes.is_some() && self.engaged(army, root) {
            return reject(
                what,
                "an Objective consolidation must end with the unit unengaged (11th Core Rules 12.07)",
            );
        }
        if let Some(&(a, u)) = engaged_at_start
            .iter()
            .find(|&&(a, u)| !self.units_engaged((army, root), (a, u)))
        {
            return reject(
                what,
                format!(
                    "the unit must stay engaged with '{}', which it started the move engaged with",
                    self.unit_id(a, u)
                ),
            );
        }
        Ok(planned.moves.len())
    }

    /// True if some model of the combined unit is within range of objective marker `i`.
    fn unit_in_objective_range(&self, army: usize, root: usize, i: usize) -> bool {
        let o = &self.scene.objectives[i];
        let marker = Vec3::new(o.at.0, o.at.1, o.z);
        self.live_models(army, root)
            .iter()
            .any(|r| crate::rules::engagement::in_objective_range(&self.solid(*r), marker))
    }

    /// The objective marker closest to the models `own` (index, centre).
    fn closest_objective_to(&self, own: &[ModelSolid]) -> Option<(usize, Vec3)> {
        self.scene
            .objectives
            .iter()
            .enumerate()
            .map(|(i, o)| (i, Vec3::new(o.at.0, o.at.1, o.z)))
            .min_by(|(_, a), (_, b)| {
                let d = |p: &Vec3| {
                    own.iter()
                        .map(|s| (s.centre - p.truncate()).length())
                        .fold(f32::INFINITY, f32::min)
                };
                d(a).total_cmp(&d(b))
            })
    }
}
