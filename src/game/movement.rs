//! The Movement phase: Remain Stationary, Normal move, Advance, Fall Back (Desperate Escape),
//! Reinforcements (Deep Strike, Strategic Reserves) and TRANSPORTs.
//!
//! Core Rules: Movement phase, Reinforcements, Transports; Rules Commentary: Reserves Units,
//! Embarked Units, Disembarking Large Models.

use super::command::{ModelPath, Placement, ReserveKind};
use super::event::{GameEvent, SetUpHow};
use super::rejection::{Rejection, Rule, reject};
use super::state::{Game, Location};
use super::table::MoveKind;
use crate::game::sight::ModelRef;
use crate::geometry::measure::{horizontal_distance, wholly_within};
use crate::geometry::{ModelSolid, polygon};
use crate::rules::constants::{
    BOARD_DEPTH_INCHES, BOARD_WIDTH_INCHES, DESPERATE_ESCAPE_FAILS_UP_TO, DISEMBARK_RANGE_INCHES,
    EMBARK_RANGE_INCHES, MEASURE_TOLERANCE_INCHES, RESERVES_FIRST_ROUND,
    STRATEGIC_RESERVES_EDGE_INCHES, STRATEGIC_RESERVES_NO_ENEMY_ZONE_ROUND,
};
use crate::rules::movement::{MoveMode, Moved};
use crate::rules::phase::{Phase, Stage, opponent};
use crate::rules::ruleset::{DesperateEscapeRule, DisembarkRule};

impl Game {
    /// 11th edition Desperate Escape (11th Core Rules 09.07, 06.03): a hazard roll for every
    /// model of the combined unit, each failure costing the unit the hazard's mortal wounds;
    /// then, if the unit was not Battle-shocked, a Battle-shock test.
    fn desperate_escape_hazards(
        &mut self,
        player: u8,
        army: usize,
        unit: usize,
        ev: &mut Vec<GameEvent>,
    ) {
        // The hazard dice, and the mortal wounds they cost the unit itself.
        let (dice, mortal_wounds) = self.hazard_dice(army, unit);
        self.mortal_wounds(player, (army, unit), dice, mortal_wounds, ev);
        if self.units[army][unit].battle_shocked || self.live_models(army, unit).is_empty() {
            return;
        }
        let ld = self.battle_shock_leadership(army, unit);
        let dice = self.battle_shock_dice(army, unit);
        let test = crate::rules::rng::leadership_test_on(&mut self.rng, ld, dice);
        ev.push(GameEvent::BattleShockTest {
            player,
            unit: self.unit_id(army, unit).to_string(),
            dice: test.dice,
            third: test.third,
            leadership: ld,
            passed: test.passed,
        });
        if !test.passed {
            self.for_combined(army, unit, |s| s.battle_shocked = true);
        }
    }

    /// Hazard rolls (11th Core Rules 06.03) for every live model of the combined unit (`army`,
    /// `unit`): the dice, and the mortal wounds their failures cost the unit under the
    /// edition's [`HazardRule`](crate::rules::ruleset::HazardRule) (not yet inflicted).
    pub(super) fn hazard_dice(&mut self, army: usize, unit: usize) -> (Vec<u8>, u32) {
        let hazard = self.scene.edition().hazard;
        let models = self.live_models(army, unit);
        let dice: Vec<u8> = models.iter().map(|_| self.rng.d6()).collect();
        let keywords: Vec<String> = self
            .combined(army, unit)
            .iter()
            .flat_map(|&x| self.scene.armies[army].units[x].datasheet.keywords.clone())
            .collect();
        let per_failure = match crate::rules::attack::HazardLoss::of(hazard, &keywords) {
            crate::rules::attack::HazardLoss::UnitMortalWounds(n)
            | crate::rules::attack::HazardLoss::BearerMortalWounds(n) => n,
            crate::rules::attack::HazardLoss::BearerDestroyed => 1,
        };
        let failed = dice.iter().filter(|&&d| d <= hazard.fails_up_to()).count() as u32;
        (dice, failed * per_failure)
    }

    /// Under 11th, an AIRCRAFT on the table makes no Normal, Advance or Fall Back move: it
    /// arrives by ingress moves only (11th Core Rules 23).
    fn aircraft_do_not_move(&self, army: usize, unit: usize) -> Result<(), Rejection> {
        if self.scene.edition().aircraft_from_reserves && self.has_keyword(army, unit, "AIRCRAFT") {
            return reject(
                Rule::MovementPhase,
                format!(
                    "'{}' is an AIRCRAFT: under 11th it makes only ingress moves from Strategic \
                     Reserves, and returns there at the end of the opponent's turn",
                    self.unit_id(army, unit)
                ),
            );
        }
        Ok(())
    }

    /// The combined unit `id` of `player`, on the table, that has not yet acted in this
    /// Movement phase.
    fn unit_to_move(&self, player: u8, id: &str) -> Result<(usize, usize), Rejection> {
        self.require_phase(player, Phase::Movement)?;
        if self.reinforcements_step {
            return reject(
                Rule::MovementPhase,
                "the Reinforcements step has begun: no more units move this phase",
            );
        }
        let (army, root) = self.own_root(player, id)?;
        if self.live_models(army, root).is_empty() {
            return reject(
                Rule::MovementPhase,
                format!("'{id}' is not on the battlefield"),
            );
        }
        if let Some(m) = self.units[army][root].moved {
            return reject(
                Rule::MovementPhase,
                format!("'{id}' was already selected to move this phase ({m:?})"),
            );
        }
        Ok((army, root))
    }

    /// The unit declares an Advance and rolls its Advance die now; its Move follows
    /// ([`Command::Advance`](super::Command::Advance)). Core Rules: Advance moves.
    pub(super) fn declare_advance(
        &mut self,
        player: u8,
        id: &str,
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        // While a roll waits, `execute` lets only that unit's Move through, so no second
        // roll comes here.
        let (army, unit) = self.unit_to_move(player, id)?;
        self.aircraft_do_not_move(army, unit)?;
        if self.engaged(army, unit) {
            return only_fall_back(id);
        }
        let roll = self.advance_roll_total(army, unit, ev);
        self.advance_roll = Some((army, unit, roll));
        ev.push(GameEvent::AdvanceRolled {
            player,
            unit: self.unit_id(army, unit).to_string(),
            roll,
        });
        Ok(())
    }

    pub(super) fn remain_stationary(
        &mut self,
        player: u8,
        id: &str,
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        let (army, unit) = self.unit_to_move(player, id)?;
        self.for_combined(army, unit, |s| s.moved = Some(Moved::Stationary));
        ev.push(GameEvent::RemainedStationary {
            player,
            unit: self.unit_id(army, unit).to_string(),
        });
        Ok(())
    }

    pub(super) fn normal_advance_or_fall_back(
        &mut self,
        player: u8,
        id: &str,
        mode: MoveMode,
        paths: &[ModelPath],
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        let (army, unit) = self.unit_to_move(player, id)?;
        self.aircraft_do_not_move(army, unit)?;
        let engaged = self.engaged(army, unit);
        match mode {
            MoveMode::FallBack if !engaged => {
                return reject(
                    Rule::FallBack,
                    format!(
                        "'{id}' is not within Engagement Range of an enemy unit, so it cannot Fall Back"
                    ),
                );
            }
            MoveMode::Normal | MoveMode::Advance if engaged => return only_fall_back(id),
            _ => {}
        }
        let rolled = self.advance_roll.map(|(_, _, r)| r);
        if rolled.is_some() && mode != MoveMode::Advance {
            return reject(
                Rule::MovementPhase,
                format!("'{id}' has rolled to Advance: its move is an Advance"),
            );
        }
        let advance_roll = match rolled {
            Some(r) => Some(r),
            None if mode == MoveMode::Advance => Some(self.advance_roll_total(army, unit, ev)),
            None => None,
        };
        let bonus = f32::from(advance_roll.unwrap_or(0));
        let allowance = |r: ModelRef| self.model_move_inches(r) + bonus;
        let kind = if mode == MoveMode::FallBack {
            MoveKind::FallBack
        } else {
            MoveKind::Normal
        };
        let mut planned = self.plan_move(army, unit, paths, &allowance, kind)?;
        self.advance_roll = None;
        if mode == MoveMode::FallBack {
            // Desperate Escape, before any model moves: every model if Battle-shocked, else
            // those that will move over enemy models. A model destroyed by its test does not
            // make the move (Core Rules: Fall Back moves, Desperate Escape tests).
            let testing: Vec<ModelRef> = if self.unit_may(
                army,
                unit,
                &crate::rules::effect::Modifier::PassDesperateEscape,
            ) {
                Vec::new()
            } else if self.units[army][unit].battle_shocked {
                self.live_models(army, unit)
            } else {
                planned.crossed_enemies.clone()
            };
            let rule = self.scene.edition().desperate_escape;
            if rule == DesperateEscapeRule::HazardRollsThenBattleShock && !testing.is_empty() {
                // 11th: Desperate Escape is a hazard roll for every model, then a Battle-shock
                // test if the unit was not Battle-shocked (11th Core Rules 09.07).
                self.desperate_escape_hazards(player, army, unit, ev);
                let units = &self.units;
                let alive = |r: &ModelRef| units[r.army][r.unit].models[r.model].alive;
                planned.moves.retain(|(r, _)| alive(r));
                planned.facings.retain(|(r, _)| alive(r));
            }
            let testing = if rule == DesperateEscapeRule::HazardRollsThenBattleShock {
                Vec::new()
            } else {
                testing
            };
            for r in testing {
                let roll = self.rng.d6();
                let roll = self.command_reroll_desperate_escape(army, unit, r, roll, ev);
                let destroyed = roll <= DESPERATE_ESCAPE_FAILS_UP_TO;
                ev.push(GameEvent::DesperateEscape {
                    player,
                    model: self.model_name(r),
                    roll,
                    destroyed,
                });
                if destroyed {
                    self.destroy_model(r, ev);
                }
            }
            let units = &self.units;
            let alive = |r: &ModelRef| units[r.army][r.unit].models[r.model].alive;
            planned.moves.retain(|(r, _)| alive(r));
            planned.facings.retain(|(r, _)| alive(r));
        }
        self.apply_planned(&planned);
        let longest = planned.longest;
        self.for_combined(army, unit, |s| {
            s.moved = Some(Moved::Moved(mode));
            s.moved_inches = s.moved_inches.max(longest);
        });
        if planned.crossed_high_terrain {
            // Super-Heavy Walker: through a section higher than it passes freely, a D6 after
            // the move; on a 1 the unit is Battle-shocked.
            let roll = self.rng.d6();
            ev.push(GameEvent::WalkerTerrainRoll {
                player,
                unit: self.unit_id(army, unit).to_string(),
                roll,
                battle_shocked: roll == 1,
            });
            if roll == 1 {
                self.for_combined(army, unit, |s| s.battle_shocked = true);
            }
        }
        if self.live_models(army, unit).is_empty() {
            // Every model was destroyed by its Desperate Escape test: nothing moved.
            return Ok(());
        }
        ev.push(GameEvent::Moved {
            player,
            unit: self.unit_id(army, unit).to_string(),
            mode,
            advance_roll,
            longest_inches: planned.longest,
        });
        Ok(())
    }

    /// True when the active player's Movement phase has come to its end, the moment the
    /// opponent may use Rapid Ingress (Core Stratagems: Rapid Ingress, used at the end of the
    /// opponent's Movement phase): its Reinforcements step has begun, or every one of its
    /// units on the battlefield has been selected to move or Remain Stationary and no Advance
    /// waits for its move. Before that the active player's units are still moving.
    pub fn movement_phase_ending(&self) -> bool {
        if self.stage != Stage::Battle || self.phase != Phase::Movement {
            return false;
        }
        if self.reinforcements_step {
            return true;
        }
        if self.advance_roll.is_some() {
            return false;
        }
        let Some(army) = self.army_of(self.active_player) else {
            return false;
        };
        self.unit_roots(army)
            .into_iter()
            .all(|u| self.live_models(army, u).is_empty() || self.units[army][u].moved.is_some())
    }

    /// Sets up a Reserves unit (Deep Strike or Strategic Reserves); with `rapid_ingress`, at
    /// the end of the opponent's Movement phase.
    pub(super) fn reinforcements(
        &mut self,
        player: u8,
        id: &str,
        placements: &[Placement],
        rapid_ingress: bool,
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        if rapid_ingress {
            self.require_phase(opponent(player), Phase::Movement)?;
            let (army, unit) = self.own_unit(player, id)?;
            if self.rapid_ingress != Some((army, self.combined(army, unit)[0])) {
                return reject(
                    Rule::Stratagem(crate::rules::stratagem::Stratagem::RapidIngress),
                    format!(
                        "'{id}' can only arrive in the opponent's turn by the Rapid Ingress Stratagem"
                    ),
                );
            }
        } else {
            self.require_phase(player, Phase::Movement)?;
        }
        if self.battle_round < RESERVES_FIRST_ROUND {
            return reject(
                Rule::Reserves,
                format!("Reserves units cannot arrive before battle round {RESERVES_FIRST_ROUND}"),
            );
        }
        let (army, root) = self.own_root(player, id)?;
        let Location::Reserves(kind) = self.units[army][root].location else {
            return reject(Rule::Reserves, format!("'{id}' is not in Reserves"));
        };
        let planned = self.plan_set_up(army, root, placements)?;
        let enemies: Vec<ModelSolid> = self.enemy_solids(army);
        let apart = self.scene.edition().reserves_enemy_distance_inches;
        let enemy_zone = self
            .scene
            .deployment
            .zone_of(opponent(player))
            .unwrap_or_default();
        for (r, at, facing) in &planned {
            let s = self.solid_at(*r, *at, *facing);
            let name = self.model_name(*r);
            if let Some(d) = enemies
                .iter()
                .map(|e| horizontal_distance(&s, e))
                .find(|d| *d <= apart)
            {
                return reject(
                    Rule::Reserves,
                    format!(
                        "{name} would be {d:.2}\" from an enemy model; Reserves arrive more than {apart}\" away"
                    ),
                );
            }
            if kind == ReserveKind::StrategicReserves {
                let outline = s.outline();
                let near_edge = |dist: &dyn Fn(crate::geometry::Vec2) -> f32| {
                    outline.iter().all(|p| {
                        dist(*p) <= STRATEGIC_RESERVES_EDGE_INCHES + MEASURE_TOLERANCE_INCHES
                    })
                };
                let edges: [&dyn Fn(crate::geometry::Vec2) -> f32; 4] =
                    [&|p| p.x, &|p| BOARD_WIDTH_INCHES - p.x, &|p| p.y, &|p| {
                        BOARD_DEPTH_INCHES - p.y
                    }];
                if !edges.iter().any(|e| near_edge(*e)) {
                    return reject(
                        Rule::StrategicReserves,
                        format!(
                            "{name} must be set up wholly within {STRATEGIC_RESERVES_EDGE_INCHES}\" of a battlefield edge"
                        ),
                    );
                }
                if self.battle_round <= STRATEGIC_RESERVES_NO_ENEMY_ZONE_ROUND
                    && polygon::polygons_intersect(&outline, &enemy_zone)
                {
                    return reject(
                        Rule::StrategicReserves,
                        format!(
                            "{name} cannot be set up in the enemy deployment zone in battle round {}",
                            self.battle_round
                        ),
                    );
                }
            }
        }
        self.place(&planned);
        self.for_combined(army, root, |s| {
            s.location = Location::OnTable;
            s.moved = Some(Moved::SetUp);
        });
        if rapid_ingress {
            self.rapid_ingress = None;
        } else {
            self.reinforcements_step = true;
        }
        ev.push(GameEvent::SetUp {
            player,
            unit: self.unit_id(army, root).to_string(),
            how: match (rapid_ingress, kind) {
                (true, _) => SetUpHow::RapidIngress,
                (_, ReserveKind::DeepStrike) => SetUpHow::DeepStrike,
                (_, ReserveKind::StrategicReserves) => SetUpHow::StrategicReserves,
            },
        });
        Ok(())
    }

    /// A friendly TRANSPORT on the table with room for the combined unit.
    pub(super) fn find_transport(
        &self,
        army: usize,
        unit: usize,
        id: &str,
    ) -> Result<usize, Rejection> {
        let Some(t) = self.find_unit(army, id) else {
            return reject(Rule::Transports, format!("no friendly unit '{id}'"));
        };
        let sheet = &self.scene.armies[army].units[t].datasheet;
        let Some(capacity) = sheet
            .transport_capacity
            .filter(|_| sheet.has_keyword("TRANSPORT"))
        else {
            return reject(Rule::Transports, format!("'{id}' is not a TRANSPORT"));
        };
        if self.live_models(army, t).is_empty() {
            return reject(
                Rule::Transports,
                format!("'{id}' is not on the battlefield"),
            );
        }
        if !self.all_have_keyword(army, unit, "INFANTRY") {
            return reject(Rule::Transports, "only INFANTRY units embark");
        }
        let aboard: usize = (0..self.units[army].len())
            .filter(|&u| self.units[army][u].location == Location::Embarked(t))
            .map(|u| {
                self.units[army][u]
                    .models
                    .iter()
                    .filter(|m| m.alive)
                    .count()
            })
            .sum();
        let this = self.live_models_anywhere(army, unit).len();
        if aboard + this > capacity as usize {
            return reject(
                Rule::Transports,
                format!(
                    "'{id}' carries {capacity} models; {aboard} are aboard and this unit has {this}"
                ),
            );
        }
        Ok(t)
    }

    pub(super) fn embark(
        &mut self,
        player: u8,
        id: &str,
        transport: &str,
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        self.require_phase(player, Phase::Movement)?;
        let (army, root) = self.own_root(player, id)?;
        if !matches!(self.units[army][root].moved, Some(Moved::Moved(_))) {
            return reject(
                Rule::Transports,
                format!(
                    "'{id}' embarks at the end of a Normal, Advance or Fall Back move it made this phase"
                ),
            );
        }
        let t = self.find_transport(army, root, transport)?;
        let hull: Vec<ModelSolid> = self
            .live_models(army, t)
            .iter()
            .map(|r| self.solid(*r))
            .collect();
        for r in self.live_models(army, root) {
            let s = self.solid(r);
            if !hull
                .iter()
                .any(|h| crate::geometry::measure::within(&s, h, EMBARK_RANGE_INCHES))
            {
                return reject(
                    Rule::Transports,
                    format!(
                        "{} is not within {EMBARK_RANGE_INCHES}\" of '{transport}'",
                        self.model_name(r)
                    ),
                );
            }
        }
        self.for_combined(army, root, |s| {
            s.location = Location::Embarked(t);
            s.embarked_this_phase = true;
        });
        ev.push(GameEvent::Embarked {
            player,
            unit: self.unit_id(army, root).to_string(),
            transport: transport.to_string(),
        });
        Ok(())
    }

    pub(super) fn disembark(
        &mut self,
        player: u8,
        id: &str,
        placements: &[Placement],
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        self.require_phase(player, Phase::Movement)?;
        let (army, root) = self.own_root(player, id)?;
        let Location::Embarked(t) = self.units[army][root].location else {
            return reject(Rule::Transports, format!("'{id}' is not embarked"));
        };
        // Only a unit that started the phase embarked disembarks in it: one that embarked
        // this phase stays aboard until a later phase (Core Rules: Transports, Disembark).
        if self.units[army][root].embarked_this_phase {
            return reject(
                Rule::Transports,
                format!(
                    "'{id}' embarked this phase: only a unit that starts the phase embarked can disembark in it"
                ),
            );
        }
        // Before the TRANSPORT moves (Remaining Stationary is not a move), or after its Normal
        // move: then the unit counts as having made a Normal move and cannot charge.
        let after_normal_move = match self.units[army][t].moved {
            None | Some(Moved::Stationary) => false,
            // Set up from Reserves this turn counts as a Normal move.
            Some(Moved::Moved(MoveMode::Normal) | Moved::SetUp) => true,
            Some(Moved::Moved(mode)) => {
                return reject(
                    Rule::Transports,
                    format!(
                        "'{id}' cannot disembark: its TRANSPORT '{}' made a {} move this phase",
                        self.unit_id(army, t),
                        if mode == MoveMode::Advance {
                            "Advance"
                        } else {
                            "Fall Back"
                        }
                    ),
                );
            }
        };
        let hull: Vec<ModelSolid> = self
            .live_models(army, t)
            .iter()
            .map(|r| self.solid(*r))
            .collect();
        let (planned, combat) =
            match self.plan_disembark(army, root, placements, &hull, DISEMBARK_RANGE_INCHES, &[]) {
                Ok(planned) => (planned, false),
                Err(within_3) => (
                    self.plan_combat_disembark(army, root, t, placements, &hull, after_normal_move)
                        .map_err(|e| e.unwrap_or(within_3))?,
                    true,
                ),
            };
        self.place(&planned);
        self.for_combined(army, root, |s| s.location = Location::OnTable);
        if combat {
            // 11th Combat Disembark: a hazard roll per model; the unit is Battle-shocked, has
            // moved (no further move this phase) and cannot charge (11th Core Rules 18.04).
            self.for_combined(army, root, |s| {
                s.moved = Some(Moved::Moved(MoveMode::Normal));
                s.no_charge = true;
                s.battle_shocked = true;
            });
            ev.push(GameEvent::SetUp {
                player,
                unit: self.unit_id(army, root).to_string(),
                how: SetUpHow::CombatDisembark,
            });
            let (dice, mortal_wounds) = self.hazard_dice(army, root);
            self.mortal_wounds(player, (army, root), dice, mortal_wounds, ev);
            return Ok(());
        }
        if after_normal_move {
            self.for_combined(army, root, |s| {
                s.moved = Some(Moved::Moved(MoveMode::Normal));
                s.no_charge = true;
            });
        }
        ev.push(GameEvent::SetUp {
            player,
            unit: self.unit_id(army, root).to_string(),
            how: if after_normal_move {
                SetUpHow::DisembarkAfterMove
            } else {
                SetUpHow::Disembark
            },
        });
        Ok(())
    }

    /// Under 11th, checks a Combat Disembark of the combined unit `root` from the TRANSPORT
    /// `t` (whose models are `hull`), whose placements are not a legal disembark within 3":
    /// allowed only when the TRANSPORT has not made a Normal or ingress move (a Rapid
    /// Disembark is forced then) and the unit cannot fit within 3"; the models wholly within
    /// 6", and within Engagement Range only of units the TRANSPORT is engaged with (11th Core
    /// Rules 18.04).
    ///
    /// # Errors
    /// `Err(None)` when the edition has no Combat Disembark or the rule does not apply (the
    /// caller's 3" refusal stands); `Err(Some(_))` for a Combat Disembark that breaks a rule.
    fn plan_combat_disembark(
        &self,
        army: usize,
        root: usize,
        t: usize,
        placements: &[Placement],
        hull: &[ModelSolid],
        after_normal_move: bool,
    ) -> Result<Vec<(ModelRef, crate::geometry::Vec3, f32)>, Option<Rejection>> {
        let DisembarkRule::Modes {
            combat_range_inches,
        } = self.scene.edition().disembark
        else {
            return Err(None);
        };
        if after_normal_move || self.fits_around_hull(army, root, hull, DISEMBARK_RANGE_INCHES) {
            return Err(None);
        }
        let engaged_with = self.enemy_units_engaged_with(army, t);
        self.plan_disembark(
            army,
            root,
            placements,
            hull,
            combat_range_inches,
            &engaged_with,
        )
        .map_err(|e| {
            Some(Rejection {
                reason: format!(
                    "{} (a Combat Disembark, as the unit cannot fit within {DISEMBARK_RANGE_INCHES}\" of its TRANSPORT)",
                    e.reason
                ),
                ..e
            })
        })
    }

    /// Checks the set-up of an embarked unit disembarking: every model placed legally, wholly
    /// within `range` inches of the TRANSPORT's `hull`, not overlapping it, and not within
    /// Engagement Range of an enemy model, except those of the (army, unit) combined units in
    /// `may_engage` (Core Rules: Transports, Disembark; 11th Core Rules 18.04, Combat
    /// Disembark).
    pub(super) fn plan_disembark(
        &self,
        army: usize,
        root: usize,
        placements: &[Placement],
        hull: &[ModelSolid],
        range: f32,
        may_engage: &[(usize, usize)],
    ) -> Result<Vec<(ModelRef, crate::geometry::Vec3, f32)>, Rejection> {
        let planned = self.plan_set_up(army, root, placements)?;
        let enemies: Vec<ModelSolid> = self
            .enemy_models(army)
            .into_iter()
            .filter(|r| {
                !may_engage
                    .iter()
                    .any(|&(a, u)| a == r.army && self.combined(a, u).contains(&r.unit))
            })
            .map(|r| self.solid(r))
            .collect();
        let barricades = self.scene.barricade_footprints();
        for (r, at, facing) in &planned {
            let s = self.solid_at(*r, *at, *facing);
            if !hull.iter().any(|h| wholly_within(&s, h, range)) {
                return reject(
                    Rule::Transports,
                    format!(
                        "{} must be set up wholly within {range}\" of its TRANSPORT",
                        self.model_name(*r)
                    ),
                );
            }
            if hull.iter().any(|h| {
                crate::geometry::bases_overlap(
                    (&s.base, s.centre, s.facing),
                    (&h.base, h.centre, h.facing),
                )
            }) {
                return reject(
                    Rule::Transports,
                    format!("{} would stand on its TRANSPORT", self.model_name(*r)),
                );
            }
            if enemies.iter().any(|e| {
                crate::rules::engagement::within_engagement_range_in(
                    self.scene.edition(),
                    &s,
                    e,
                    &barricades,
                )
            }) {
                return reject(
                    Rule::EngagementRange,
                    format!(
                        "{} cannot disembark within Engagement Range of an enemy model",
                        self.model_name(*r)
                    ),
                );
            }
        }
        Ok(planned)
    }
}

/// The refusal of a Normal move or Advance by unit `id`, which is within Engagement Range of
/// an enemy unit (Core Rules: Movement phase).
fn only_fall_back(id: &str) -> Result<(), Rejection> {
    reject(
        Rule::EngagementRange,
        format!(
            "'{id}' is within Engagement Range of an enemy unit: it can only Fall Back or Remain Stationary"
        ),
    )
}
