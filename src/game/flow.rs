//! Sequencing: the roll-off, phases and turns, the Command phase (command points and
//! Battle-shock), objective control, scoring, end-of-turn coherency and the end of the battle.
//!
//! Core Rules: Battle round, Command phase, Battle-shock, Objective Control, Unit Coherency (end
//! of turn); Rules Commentary: Battle-shock Tests, Contested and Control (objective marker),
//! Reserves Units; Chapter Approved 2025-26: Reserves destroyed after battle round 3, a
//! destroyed army does not end the battle.

use super::event::GameEvent;
use super::rejection::{Rejection, Rule, reject};
use super::state::{FightState, Game, Location};
use crate::game::sight::{ModelRef, model_solid};
use crate::geometry::measure::model_distance;
use crate::rules::coherency;
use crate::rules::constants::{
    COMMAND_PHASE_CP_GAIN, DEADLY_DEMISE_RANGE_INCHES, DEADLY_DEMISE_TRIGGERS_ON,
    MAX_OTHER_CP_GAIN_PER_ROUND, MEASURE_TOLERANCE_INCHES, RESERVES_LAST_ROUND,
};
use crate::rules::engagement::Control;
use crate::rules::mission::ScoringTiming;
use crate::rules::modifiers::unit_leadership;
use crate::rules::movement::{MoveMode, Moved};
use crate::rules::phase::{FightStep, Phase, Stage, opponent};

impl Game {
    /// A roll-off: a D6 each, re-rolled on a tie; returns the last dice and the winner.
    pub(super) fn roll_off_dice(&mut self) -> ([u8; 2], u8) {
        let dice = loop {
            let d = [self.rng.d6(), self.rng.d6()];
            if d[0] != d[1] {
                break d;
            }
        };
        (dice, if dice[0] > dice[1] { 1 } else { 2 })
    }

    /// Before deployment: a roll-off; the loser deploys first (Core Rules: Deploy Armies).
    pub(super) fn roll_off(&mut self, ev: &mut Vec<GameEvent>) {
        let (dice, winner) = self.roll_off_dice();
        self.active_player = opponent(winner);
        ev.push(GameEvent::DeploymentRollOff {
            dice,
            deploys_first: self.active_player,
        });
    }

    /// After deployment: the roll-off for the first turn (Core Rules: Determine First Turn,
    /// made once both armies are deployed), then the Scout moves if any unit has Scouts,
    /// else the first battle round.
    pub(super) fn after_deployment(&mut self, ev: &mut Vec<GameEvent>) {
        let (dice, winner) = self.roll_off_dice();
        self.first_player = winner;
        ev.push(GameEvent::RollOff {
            dice,
            first_turn: winner,
        });
        let scouts = (0..self.units.len()).any(|a| {
            self.unit_roots(a)
                .into_iter()
                .any(|u| self.scouts_inches(a, u).is_some())
        });
        if scouts {
            self.stage = Stage::Scouts;
            self.active_player = winner;
            ev.push(GameEvent::ScoutMovesStarted { player: winner });
        } else {
            self.begin_battle(ev);
        }
    }

    /// Rejects unless it is the battle, `phase`, and `player`'s turn.
    pub(super) fn require_phase(&self, player: u8, phase: Phase) -> Result<(), Rejection> {
        if self.stage != Stage::Battle || self.phase != phase {
            return reject(
                Rule::Sequencing,
                format!(
                    "this can only be done in the {}; it is {}",
                    phase.name(),
                    self.describe_now()
                ),
            );
        }
        if player != self.active_player {
            return reject(
                Rule::Sequencing,
                format!(
                    "it is player {}'s turn, not player {player}'s",
                    self.active_player
                ),
            );
        }
        Ok(())
    }

    /// "battle round 2, player 1's Shooting phase".
    pub fn describe_now(&self) -> String {
        match self.stage {
            Stage::Setup => "setup (declaring Reserves)".into(),
            Stage::Deployment => format!("deployment (player {} deploys next)", self.active_player),
            Stage::Scouts => format!("the Scout moves (player {})", self.active_player),
            Stage::Battle => format!(
                "battle round {}, player {}'s {}",
                self.battle_round,
                self.active_player,
                self.phase.name()
            ),
            Stage::GameOver => "the end of the battle".into(),
        }
    }

    /// `EndPhase`: only the active player ends a phase, after the phase's own business.
    pub(super) fn end_phase_command(
        &mut self,
        player: u8,
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        if self.stage == Stage::Scouts {
            // Ends the player's Scout moves: the other player's come next, then the battle.
            if player != self.active_player {
                return reject(
                    Rule::Scouts,
                    format!("player {} makes Scout moves now", self.active_player),
                );
            }
            if player == self.first_player {
                self.active_player = opponent(player);
                ev.push(GameEvent::ScoutMovesStarted {
                    player: self.active_player,
                });
            } else {
                self.begin_battle(ev);
            }
            return Ok(());
        }
        if self.stage != Stage::Battle {
            return reject(
                Rule::Sequencing,
                format!("there is no phase to end during {}", self.describe_now()),
            );
        }
        self.require_phase(player, self.phase)?;
        match self.phase {
            Phase::Charge if self.charge.is_some() => {
                let c = self.charge.as_ref().expect("checked");
                return reject(
                    Rule::ChargePhase,
                    format!(
                        "'{}' declared a charge and must make its charge move first",
                        self.unit_id(c.army, c.unit)
                    ),
                );
            }
            Phase::Fight => {
                if let Some(left) = self.fight_units_left() {
                    return reject(Rule::FightPhase, left);
                }
            }
            _ => {}
        }
        self.end_phase(ev);
        Ok(())
    }

    /// Gives `player` up to `cp` command points from a source other than the Command phase,
    /// within the cap of such gains per battle round; returns the CP actually gained (Core
    /// Rules: Command phase, command points).
    pub fn gain_other_cp(&mut self, player: u8, cp: u32) -> u32 {
        let i = usize::from(player - 1);
        let gained = cp.min(MAX_OTHER_CP_GAIN_PER_ROUND.saturating_sub(self.cp_other_gain[i]));
        self.cp_other_gain[i] += gained;
        self.cp[i] += gained;
        gained
    }

    /// Starts the current phase: its start-of-phase steps.
    pub(super) fn begin_phase(&mut self, ev: &mut Vec<GameEvent>) {
        for army in &mut self.units {
            for u in army.iter_mut() {
                u.shot = false;
                u.fought = false;
                u.shrouded = None;
                u.epic_challenge = None;
                u.embarked_this_phase = false;
                for m in &mut u.models {
                    m.allocated_this_phase = false;
                }
                // A Command Re-roll or Insane Bravery set and not used lapses with the phase.
                u.command_reroll = None;
                u.insane_bravery = false;
            }
        }
        self.stratagems_used.clear();
        self.stratagem_targets.clear();
        self.effects_phase_begins(ev);
        self.reinforcements_step = false;
        self.charge = None;
        self.rapid_ingress = None;
        self.fight = None;
        ev.push(GameEvent::PhaseStarted {
            battle_round: self.battle_round,
            player: self.active_player,
            phase: self.phase,
        });
        self.timed_abilities(crate::rules::abilities::Edge::Start, ev);
        match self.phase {
            Phase::Command => {
                for player in [1, 2] {
                    let i = usize::from(player - 1);
                    self.cp[i] += COMMAND_PHASE_CP_GAIN;
                    ev.push(GameEvent::CommandPointsGained {
                        player,
                        gained: COMMAND_PHASE_CP_GAIN,
                        total: self.cp[i],
                    });
                }
                let army = self.army_of(self.active_player).expect("two armies");
                // 10th: Battle-shock ends now; 11th: only a passed test ends it.
                let ends_now = !self.scene.edition().battle_shock_until_passed;
                for u in 0..self.units[army].len() {
                    if ends_now && self.units[army][u].battle_shocked {
                        self.units[army][u].battle_shocked = false;
                        ev.push(GameEvent::BattleShockEnded {
                            player: self.active_player,
                            unit: self.unit_id(army, u).to_string(),
                        });
                    }
                }
                self.mission_turn_begins(ev);
            }
            Phase::Fight => {
                let edition = self.scene.edition();
                let step = if edition.shared_pile_in_and_consolidate_steps {
                    FightStep::PileIn
                } else {
                    FightStep::FightsFirst
                };
                self.fight = Some(FightState {
                    step,
                    picker: self.fight_first_picker(),
                    current: None,
                    counter_offensive: None,
                    last_fought: None,
                    piled_in: Vec::new(),
                    consolidated: Vec::new(),
                });
                ev.push(GameEvent::FightStepStarted { step });
                self.settle_fight_picker(ev);
            }
            _ => {}
        }
    }

    /// Ends the current phase: its end-of-phase steps, objective control, then the next phase
    /// or the end of the turn.
    pub(super) fn end_phase(&mut self, ev: &mut Vec<GameEvent>) {
        if self.phase == Phase::Command {
            self.battle_shock_step(ev);
        }
        if self.phase == Phase::Movement {
            // A unit on the battlefield that was not selected to move counts as having
            // Remained Stationary (Core Rules: Movement phase; HEAVY then applies).
            let army = self.army_of(self.active_player).expect("two armies");
            // A unit that rolled to Advance and never moved has Advanced all the same.
            if let Some((a, u, _)) = self.advance_roll.take() {
                self.for_combined(a, u, |s| s.moved = Some(Moved::Moved(MoveMode::Advance)));
            }
            for u in self.unit_roots(army) {
                if self.units[army][u].moved.is_none() && !self.live_models(army, u).is_empty() {
                    self.for_combined(army, u, |s| s.moved = Some(Moved::Stationary));
                }
            }
        }
        self.timed_abilities(crate::rules::abilities::Edge::End, ev);
        self.effects_phase_ends();
        self.update_objectives(ev);
        if self.phase == Phase::Command {
            self.yield_points_command_phase_ends(ev);
            self.score_primary(ScoringTiming::EndOfCommandPhase, ev);
            self.post_remaining_guards(ev);
        }
        match self.phase.next() {
            Some(p) => {
                self.phase = p;
                self.begin_phase(ev);
            }
            None => self.end_turn(ev),
        }
    }

    /// The roll a Battle-shock test of the combined unit (`army`, `u`) needs: the best
    /// Leadership among its models with the rules' modifiers (Core Rules: Battle-shock).
    pub(super) fn battle_shock_leadership(&self, army: usize, u: usize) -> u8 {
        let combined = self.combined(army, u);
        let ld = unit_leadership(
            combined
                .iter()
                .flat_map(|&x| &self.scene.armies[army].units[x].models)
                .map(|m| m.characteristics.leadership),
        )
        .unwrap_or(7);
        // A rule's Leadership modifier (a negative one improves the roll needed).
        let bonus = self.unit_bonus(army, u, &crate::rules::effect::Modifier::Leadership(0));
        (i32::from(ld) + bonus).clamp(2, 12) as u8
    }

    fn battle_shock_step(&mut self, ev: &mut Vec<GameEvent>) {
        let player = self.active_player;
        let army = self.army_of(player).expect("two armies");
        use crate::rules::effect::Modifier;
        for u in self.unit_roots(army) {
            if self.live_models(army, u).is_empty()
                || !(self.must_test_battle_shock(army, u)
                    || self.unit_may(army, u, &Modifier::MustTakeBattleShockTest))
            {
                continue;
            }
            let ld = self.battle_shock_leadership(army, u);
            // Synapse and the like: the test on 3D6.
            let dice = self.battle_shock_dice(army, u);
            let test = crate::rules::rng::leadership_test_on(&mut self.rng, ld, dice);
            // A failed test: a Command Re-roll set for it re-rolls it, then Insane Bravery set
            // for it passes it (each Stratagem used, and paid, only then).
            let test = self.command_reroll_battle_shock(army, u, ld, test, ev);
            let passed = test.passed || self.insane_bravery_on_failure(army, u, ev);
            ev.push(GameEvent::BattleShockTest {
                player,
                unit: self.unit_id(army, u).to_string(),
                dice: test.dice,
                third: test.third,
                leadership: ld,
                passed,
            });
            if passed {
                if self.units[army][u].battle_shocked {
                    // 11th: a passed test ends Battle-shock (11th Core Rules 08.03).
                    self.for_combined(army, u, |s| s.battle_shocked = false);
                    ev.push(GameEvent::BattleShockEnded {
                        player,
                        unit: self.unit_id(army, u).to_string(),
                    });
                }
                for amount in self.restore_on_passed_test_amounts(army, u) {
                    let n = amount.roll(&mut self.rng).value.max(0) as u32;
                    self.restore_on_passed_test(army, u, "Daemonic Manifestation", n, ev);
                }
            } else {
                self.for_combined(army, u, |s| s.battle_shocked = true);
                self.gain_tokens(
                    opponent(player),
                    crate::data::faction_rules::TokenGain::EnemyFailedBattleShock(0),
                    ev,
                );
                for amount in self.mortal_wounds_on_failed_test(army, u) {
                    let roll = amount.roll(&mut self.rng);
                    let wounds = roll.value.max(0) as u32;
                    let owner = crate::rules::phase::opponent(player);
                    self.mortal_wounds(owner, (army, u), roll.dice.to_vec(), wounds, ev);
                }
            }
        }
    }

    fn end_turn(&mut self, ev: &mut Vec<GameEvent>) {
        self.effects_turn_ends();
        // Unit Coherency: remove models until one coherent group remains, for every unit.
        for army in 0..self.units.len() {
            for u in self.unit_roots(army) {
                let live = self.live_models(army, u);
                if live.len() < 2 {
                    continue;
                }
                let solids: Vec<_> = live.iter().map(|r| self.solid(*r)).collect();
                // The owner picks the models: by their order of losses, or by default
                // keeping the CHARACTERs and the most points (see `allocation`).
                let values: Vec<(usize, Vec<f64>)> = self
                    .combined(army, u)
                    .into_iter()
                    .map(|x| (x, self.keep_values(army, x)))
                    .collect();
                let keep: Vec<f64> = live
                    .iter()
                    .map(|r| {
                        let (_, v) = values.iter().find(|(x, _)| *x == r.unit).expect("its unit");
                        v[r.model]
                    })
                    .collect();
                let remove =
                    coherency::models_to_remove_keeping_in(self.scene.edition(), &solids, &keep);
                if remove.is_empty() {
                    continue;
                }
                let refs: Vec<ModelRef> = remove.iter().map(|&i| live[i]).collect();
                ev.push(GameEvent::CoherencyRemoval {
                    player: self.player_of(army),
                    models: refs.iter().map(|r| self.model_name(*r)).collect(),
                });
                for r in refs {
                    self.remove_model(r, false, ev);
                }
            }
        }
        self.update_objectives(ev);
        self.mission_turn_ends(ev);
        self.aircraft_return_to_reserves(ev);
        for army in &mut self.units {
            for u in army.iter_mut() {
                u.moved = None;
                u.moved_inches = 0.0;
                u.declared_charge = false;
                u.charged = false;
                u.no_charge = false;
            }
        }
        self.fire_overwatch_used = false;
        if self.active_player == self.first_player {
            self.active_player = opponent(self.first_player);
        } else {
            self.score_primary(ScoringTiming::EndOfBattleRound, ev);
            if self.battle_round == RESERVES_LAST_ROUND {
                self.destroy_reserves(false, ev);
            }
            if self.battle_round >= self.scene.mission.battle_rounds {
                self.game_over("the last battle round ended", ev);
                return;
            }
            self.battle_round += 1;
            self.mission_round_begins(ev);
            self.effects_round_begins();
            self.active_player = self.first_player;
            self.cp_other_gain = [0; 2];
        }
        self.phase = Phase::Command;
        self.begin_phase(ev);
    }

    /// The battle begins: battle round 1, the first player's Command phase.
    pub(super) fn begin_battle(&mut self, ev: &mut Vec<GameEvent>) {
        for army in &mut self.units {
            for u in army.iter_mut() {
                u.moved = None;
            }
        }
        self.stage = Stage::Battle;
        self.battle_round = 1;
        self.active_player = self.first_player;
        self.phase = Phase::Command;
        self.before_battle_choices(ev);
        self.mission_battle_begins();
        self.effects_round_begins();
        self.yield_points_battle_begins(ev);
        // No marker is controlled yet: every marker starts the battle contested, and control
        // is first decided at the end of the first phase (Rules Commentary: Contested,
        // Control). `objectives` stays as `set_up_mission` left it, nobody's.
        self.begin_phase(ev);
    }

    /// Levels of Control of every objective marker; reports the ones that changed hands.
    pub(super) fn update_objectives(&mut self, ev: &mut Vec<GameEvent>) {
        for i in 0..self.scene.objectives.len() {
            let (levels, control) = self.levels_of_control(i);
            let obj = &self.scene.objectives[i];
            let controller = match control {
                Control::Player(p) => Some(p),
                _ => None,
            };
            if controller != self.objectives[i] {
                self.objectives[i] = controller;
                ev.push(GameEvent::ObjectiveControl {
                    objective: obj.id.clone(),
                    controller,
                    levels,
                });
            }
        }
    }

    /// Under 11th, at the end of a turn, the AIRCRAFT on the table of the player whose
    /// opponent's turn it was return to Strategic Reserves, as repositioned units (11th Core
    /// Rules 23, 20.02).
    fn aircraft_return_to_reserves(&mut self, ev: &mut Vec<GameEvent>) {
        if !self.scene.edition().aircraft_from_reserves {
            return;
        }
        let Some(army) = self.army_of(opponent(self.active_player)) else {
            return;
        };
        for root in self.unit_roots(army) {
            if self.units[army][root].location == Location::OnTable
                && !self.live_models(army, root).is_empty()
                && self.has_keyword(army, root, "AIRCRAFT")
            {
                let kind = crate::game::ReserveKind::StrategicReserves;
                self.for_combined(army, root, |s| {
                    s.location = Location::Reserves(kind);
                    s.repositioned = true;
                });
                ev.push(GameEvent::ReservesDeclared {
                    player: self.player_of(army),
                    unit: self.unit_id(army, root).to_string(),
                    kind,
                });
            }
        }
    }

    /// Every unit still in Reserves counts as destroyed: at the end of battle round
    /// [`RESERVES_LAST_ROUND`] (Chapter Approved 2025-26: Declare Battle Formations, Reserves)
    /// and at the end of a shorter battle (Core Rules: Strategic Reserves). Its models are
    /// removed from play; no "when destroyed" rule is triggered and no secondary card counts
    /// it, since no enemy destroyed it. A repositioned unit (an 11th AIRCRAFT sent back) is
    /// spared at the round's deadline, not `at_battle_end` (11th Core Rules 20.03).
    pub(super) fn destroy_reserves(&mut self, at_battle_end: bool, ev: &mut Vec<GameEvent>) {
        for army in 0..self.units.len() {
            for u in 0..self.units[army].len() {
                if matches!(self.units[army][u].location, Location::Reserves(_))
                    && (at_battle_end || !self.units[army][u].repositioned)
                {
                    let unit = &mut self.units[army][u];
                    unit.location = Location::Destroyed;
                    for m in &mut unit.models {
                        m.alive = false;
                        m.wounds = 0;
                    }
                    ev.push(GameEvent::DestroyedInReserves {
                        player: self.player_of(army),
                        unit: self.unit_id(army, u).to_string(),
                    });
                }
            }
        }
    }

    /// Ends the battle: Reserves units that never arrived count as destroyed, and the player
    /// with more VP wins.
    pub(super) fn game_over(&mut self, reason: &str, ev: &mut Vec<GameEvent>) {
        self.destroy_reserves(true, ev);
        self.mission_battle_ends(ev);
        self.stage = Stage::GameOver;
        self.winner = match self.vp[0].cmp(&self.vp[1]) {
            std::cmp::Ordering::Greater => Some(1),
            std::cmp::Ordering::Less => Some(2),
            std::cmp::Ordering::Equal => None,
        };
        ev.push(GameEvent::GameOver {
            winner: self.winner,
            vp: self.vp,
            reason: reason.to_string(),
        });
    }

    /// True when army `army` has no unit left: none on the battlefield, embarked or in
    /// Reserves (a tabled army).
    pub fn army_destroyed(&self, army: usize) -> bool {
        !self.units[army]
            .iter()
            .any(|u| u.location != Location::Destroyed && u.models.iter().any(|m| m.alive))
    }

    /// After each command: an army that has just lost its last unit is reported
    /// ([`GameEvent::ArmyDestroyed`]; `was_destroyed` says, per army index, which armies had
    /// none before the command). The battle goes on to its last battle round, scored as
    /// usual, and the destroyed army's turns pass with nothing done in them (Chapter Approved
    /// 2025-26: a destroyed army does not end the battle). Only when neither army has a unit
    /// left does the battle end at once.
    pub(super) fn check_army_destroyed(&mut self, was_destroyed: &[bool], ev: &mut Vec<GameEvent>) {
        if self.stage != Stage::Battle {
            return;
        }
        let destroyed: Vec<bool> = (0..self.units.len())
            .map(|a| self.army_destroyed(a))
            .collect();
        for (army, &now) in destroyed.iter().enumerate() {
            if now && !was_destroyed.get(army).copied().unwrap_or(false) {
                ev.push(GameEvent::ArmyDestroyed {
                    player: self.player_of(army),
                });
            }
        }
        if destroyed.iter().all(|&d| d) {
            self.game_over("both armies were destroyed", ev);
            return;
        }
        self.pass_destroyed_turns(ev);
    }

    /// Ends, phase by phase, the turn of a player whose army is destroyed (they have nothing
    /// to do in it), up to the next turn of a player with units or the end of the battle. Each
    /// phase's own steps still run (Command points, objective control, scoring).
    fn pass_destroyed_turns(&mut self, ev: &mut Vec<GameEvent>) {
        while self.stage == Stage::Battle {
            let Some(army) = self.army_of(self.active_player) else {
                return;
            };
            if !self.army_destroyed(army) {
                return;
            }
            // Nothing of the destroyed army is left to react to.
            self.trigger = None;
            self.end_phase(ev);
        }
    }

    /// Removes a model from play; a unit with no models left is destroyed, and a Leader whose
    /// Bodyguard is destroyed becomes a unit on its own again.
    pub(super) fn destroy_model(&mut self, r: ModelRef, ev: &mut Vec<GameEvent>) {
        self.remove_model(r, true, ev);
    }

    /// Removes a model from play. With `triggers`, "when destroyed" rules follow (Deadly
    /// Demise); removals for Unit Coherency trigger none (Core Rules: Unit Coherency).
    pub(super) fn remove_model(&mut self, r: ModelRef, triggers: bool, ev: &mut Vec<GameEvent>) {
        let player = self.player_of(r.army);
        if triggers && self.shoots_before_removal(r, ev) {
            return;
        }
        let m = &mut self.units[r.army][r.unit].models[r.model];
        if !m.alive {
            return;
        }
        m.alive = false;
        m.wounds = 0;
        let unit_destroyed = !self.units[r.army][r.unit].models.iter().any(|m| m.alive);
        self.note_destroyed(r, unit_destroyed);
        ev.push(GameEvent::ModelDestroyed {
            player,
            model: self.model_name(r),
        });
        if self.units[r.army][r.unit].models.iter().any(|m| m.alive) {
            if triggers {
                self.deadly_demise(r, ev);
            }
            return;
        }
        self.units[r.army][r.unit].location = Location::Destroyed;
        ev.push(GameEvent::UnitDestroyed {
            player,
            unit: self.unit_id(r.army, r.unit).to_string(),
        });
        self.gain_tokens(
            opponent(self.player_of(r.army)),
            crate::data::faction_rules::TokenGain::EnemyUnitDestroyed(0),
            ev,
        );
        // A destroyed Leader no longer lends its Leadership or keywords to its unit.
        self.units[r.army][r.unit].leading = None;
        // Leaders of a destroyed Bodyguard stand alone.
        for u in 0..self.units[r.army].len() {
            if self.units[r.army][u].leading == Some(r.unit) {
                self.units[r.army][u].leading = None;
                if self.units[r.army][u].models.iter().any(|m| m.alive) {
                    ev.push(GameEvent::LeaderDetached {
                        player,
                        unit: self.unit_id(r.army, u).to_string(),
                    });
                }
            }
        }
        // Deadly Demise is rolled before a destroyed TRANSPORT's passengers disembark, so it
        // cannot hit them (Core Rules: Deadly Demise); then they disembark before the
        // TRANSPORT is removed (Core Rules: Transports, Destroyed Transport).
        if triggers {
            self.deadly_demise(r, ev);
        }
        if (0..self.units[r.army].len())
            .any(|u| self.units[r.army][u].location == Location::Embarked(r.unit))
        {
            self.disembark_from_destroyed(r.army, r.unit, ev);
        }
    }

    /// Deadly Demise X: the destroyed model's unit has the ability: a D6, and on a 6 each
    /// unit within 6" of the model suffers X mortal wounds (Core Rules: Deadly Demise; Rules
    /// Commentary: With the 'X' Ability).
    fn deadly_demise(&mut self, r: ModelRef, ev: &mut Vec<GameEvent>) {
        let Some(x) = self.scene.armies[r.army].units[r.unit]
            .datasheet
            .deadly_demise()
        else {
            return;
        };
        let player = self.player_of(r.army);
        let roll = self.rng.d6();
        let triggered = roll >= DEADLY_DEMISE_TRIGGERS_ON;
        ev.push(GameEvent::DeadlyDemise {
            player,
            model: self.model_name(r),
            roll,
            triggered,
        });
        if !triggered {
            return;
        }
        let at = model_solid(&self.scene, r);
        let mut hit = Vec::new();
        for army in 0..self.units.len() {
            for u in self.unit_roots(army) {
                let near = self.live_models(army, u).iter().any(|m| {
                    model_distance(&self.solid(*m), &at).distance
                        <= DEADLY_DEMISE_RANGE_INCHES + MEASURE_TOLERANCE_INCHES
                });
                if near {
                    hit.push((army, u));
                }
            }
        }
        for t in hit {
            if self.live_models(t.0, t.1).is_empty() {
                continue;
            }
            let rolled = x.roll(&mut self.rng);
            let wounds = rolled.value.max(0) as u32;
            self.mortal_wounds(player, t, rolled.dice.to_vec(), wounds, ev);
        }
    }
}
