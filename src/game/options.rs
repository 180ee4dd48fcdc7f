//! What a unit may do now: the engine's own answers to the questions the desktop panels, the
//! drag and the computer ask, so that none of them re-derives a rule (shakmaty's `legal_moves`
//! for a game of continuous moves).
//!
//! - [`Game::unit_options`]: the orders open to a unit at this moment (declare Reserves,
//!   deploy, the move modes, shoot, charge, its next Fight-phase step, arrive, disembark,
//!   embark);
//! - [`Game::move_allowance`]: how far each model may move now (its own Move characteristic,
//!   the Advance roll, the Scout distance, the charge roll, 3" to Pile In or Consolidate);
//! - [`Game::move_command`]: the command a drafted move makes now (a Deploy, a Move, a Charge
//!   Move, a Pile In...);
//! - [`Game::charge_targets`]: the enemy units a charge may be declared against;
//! - [`Game::stratagem_options`]: every Stratagem use open to a unit (each target and each
//!   re-roll kind) with the engine's verdict, so a disabled button shows its reason;
//! - [`Game::fighting_now`]: the unit fighting now and what it does next;
//! - [`Game::trial`]: a command carried out on a copy with [`Game::check`]'s dice.
//!
//! Every answer here is derived from the same private checks [`Game::apply`] runs, or from
//! [`Game::check`] itself, so an option the engine offers is one it accepts.

use super::command::{Command, ModelPath, Placement, RerollRoll, ReserveKind};
use super::event::GameEvent;
use super::query::CHECK_DICE;
use super::rejection::Rejection;
use super::state::{Game, Location};
use crate::game::sight::ModelRef;
use crate::geometry::Vec3;
use crate::rules::constants::{
    CHARGE_RANGE_INCHES, CONSOLIDATE_INCHES, MEASURE_TOLERANCE_INCHES, PILE_IN_INCHES,
};
use crate::rules::movement::MoveMode;
use crate::rules::phase::{FightStep, Phase, Stage, opponent};
use crate::rules::rng::GameRng;
use crate::rules::stratagem::Stratagem;

/// What a unit selected in the Fight phase does next (Core Rules: Fight phase; each
/// activation is Pile In, then the melee attacks, then Consolidate).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FightActivation {
    /// It may be selected to fight: its Pile In move starts the activation.
    PileIn,
    /// It has Piled In and makes its melee attacks next.
    Attacks,
    /// It has made its attacks and Consolidates next, ending the activation.
    Consolidate,
}

/// The unit fighting now ([`Game::fighting_now`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FightingNow {
    /// Army index.
    pub army: usize,
    /// Unit index (the Bodyguard, for an Attached unit).
    pub unit: usize,
    /// What it does next: [`FightActivation::Attacks`] or [`FightActivation::Consolidate`].
    pub next: FightActivation,
}

/// One enemy unit a charge may be declared against ([`Game::charge_targets`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ChargeTarget {
    /// The enemy unit's id (its Bodyguard's, for an Attached unit).
    pub unit: String,
    /// Its unit index in the enemy army.
    pub index: usize,
    /// The distance between the two units (inches, closest bases).
    pub distance: f32,
}

/// One Stratagem use open to a unit now ([`Game::stratagem_options`]): the command and the
/// engine's verdict on it.
#[derive(Debug, Clone, PartialEq)]
pub struct StratagemOption {
    /// The Stratagem.
    pub stratagem: Stratagem,
    /// The command that uses it (with its target or re-roll kind).
    pub command: Command,
    /// [`Game::check`]'s answer: Ok, or the rule that refuses it now.
    pub verdict: Result<(), Rejection>,
}

impl StratagemOption {
    /// The enemy unit it aims at, for Stratagems that need one.
    pub fn target(&self) -> Option<&str> {
        match &self.command {
            Command::UseStratagem { target, .. } => target.as_deref(),
            _ => None,
        }
    }

    /// The roll a Command Re-roll is for.
    pub fn reroll(&self) -> Option<RerollRoll> {
        match &self.command {
            Command::UseStratagem { reroll, .. } => *reroll,
            _ => None,
        }
    }
}

/// The orders open to a unit at this moment ([`Game::unit_options`]). Each flag is the
/// engine's: a unit listed as able to move accepts [`Command::RemainStationary`], a unit
/// listed as able to charge has [`Game::charge_targets`] to choose from, and so on; whether
/// a particular path or placement is accepted is [`Game::check`]'s to say.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UnitOptions {
    /// The kinds of Reserves it may be declared in now (set-up).
    pub reserves: Vec<ReserveKind>,
    /// It is its player's turn to deploy and it waits to be deployed.
    pub deploy: bool,
    /// The kinds of move it may make now (Movement phase, or a Scout move before the battle):
    /// Normal and Advance, or only Fall Back when it is within Engagement Range, or only the
    /// Advance it has rolled for.
    pub move_modes: Vec<MoveMode>,
    /// It may Remain Stationary.
    pub remain_stationary: bool,
    /// It may select targets and shoot (or start an action instead).
    pub shoot: bool,
    /// It may declare a charge: at least one enemy unit is within charge range.
    pub charge: bool,
    /// It declared the charge in progress and makes its charge move next.
    pub charge_move: bool,
    /// What it does next in the Fight phase, when it is fighting or may be selected.
    pub fight: Option<FightActivation>,
    /// It waits in Reserves and may arrive in this Movement phase.
    pub arrive: bool,
    /// It is embarked and may disembark in this Movement phase.
    pub disembark: bool,
    /// The friendly TRANSPORTs on the table it could embark in (ids), each with the engine's
    /// verdict now (every model must have ended a move within 3").
    pub embark: Vec<(String, Result<(), Rejection>)>,
}

impl UnitOptions {
    /// True when the unit may move now (any move mode).
    pub fn can_move(&self) -> bool {
        !self.move_modes.is_empty()
    }
}

/// One model's drafted path: the points its base centre passes through, ending where it
/// stops (table inches, z the surface height). What [`Game::move_command`] turns into a
/// command.
#[derive(Debug, Clone, PartialEq)]
pub struct DraftedPath {
    /// The model.
    pub model: ModelRef,
    /// Its waypoints, the last one its end.
    pub path: Vec<Vec3>,
}

impl Game {
    /// The unit fighting now and what it does next, or None outside the Fight phase or
    /// between activations. Core Rules: Fight phase.
    pub fn fighting_now(&self) -> Option<FightingNow> {
        // A battle that ended mid-activation (an army destroyed in the fight) has no one
        // fighting, whatever its last Fight-phase state says.
        if self.stage != Stage::Battle {
            return None;
        }
        let f = self.fight.as_ref()?;
        if f.step == FightStep::Consolidate && f.current.is_none() {
            // 11th Consolidate step: the picker's next unit that fought.
            let (army, unit) = self.next_to_consolidate()?;
            return Some(FightingNow {
                army,
                unit,
                next: FightActivation::Consolidate,
            });
        }
        let (army, unit, attacked) = f.current?;
        Some(FightingNow {
            army,
            unit,
            next: if attacked {
                FightActivation::Consolidate
            } else {
                FightActivation::Attacks
            },
        })
    }

    /// The Fight phase's step and the player who selects the next unit to fight, or None
    /// outside the Fight phase. Core Rules: Fight phase (Fights First, then Remaining
    /// Combats; players alternate selecting, the opponent of the active player first).
    pub fn fight_step(&self) -> Option<(FightStep, u8)> {
        self.fight.as_ref().map(|f| (f.step, f.picker))
    }

    /// Whether `player` may use Counter-offensive now, as far as the Fight phase's sequence
    /// goes: just after an enemy unit has fought, before the opponent selects the next unit
    /// (no unit fighting, none chosen by an earlier Counter-offensive). Which unit may fight
    /// and the CP are [`Game::stratagem_options`]'s. Core Stratagems: Counter-offensive.
    pub fn counter_offensive_window(&self, player: u8) -> bool {
        self.stage == Stage::Battle
            && self.phase == Phase::Fight
            && self.fight.as_ref().is_some_and(|f| {
                f.current.is_none()
                    && f.counter_offensive.is_none()
                    && f.picker != player
                    && f.last_fought == Some(opponent(player))
            })
    }

    /// What the combined unit (`army`, `unit`) does next in the Fight phase: Attacks or
    /// Consolidate while it is fighting, Pile In when its player may select it now
    /// ([`Game::next_to_fight`]), else None.
    pub fn fight_activation(&self, army: usize, unit: usize) -> Option<FightActivation> {
        if self.stage != Stage::Battle || self.phase != Phase::Fight {
            return None;
        }
        let root = self.combined(army, unit)[0];
        if let Some(now) = self.fighting_now() {
            return (now.army == army && now.unit == root).then_some(now.next);
        }
        let (picker, ids) = self.next_to_fight()?;
        (picker == self.player_of(army) && ids.iter().any(|id| id == self.unit_id(army, root)))
            .then_some(FightActivation::PileIn)
    }

    /// How far each live model of the combined unit (`army`, `unit`) may move now, in a move
    /// of `mode` (inches, model by model): each model's own Move characteristic (Normal move,
    /// Fall Back), plus the Advance roll once it is rolled; the Scout distance before the
    /// battle; the charge roll for the unit that declared the charge; 3" to Pile In or
    /// Consolidate. None when the unit moves no distance now, or when the distance waits on
    /// a roll (an Advance before its die is rolled).
    ///
    /// Core Rules: Moving Models (each model up to its Move characteristic), Advance moves,
    /// Charge phase, Fight phase (Pile In, Consolidate); Core Abilities: Scouts.
    pub fn move_allowance(
        &self,
        army: usize,
        unit: usize,
        mode: MoveMode,
    ) -> Option<Vec<(ModelRef, f32)>> {
        let root = self.combined(army, unit)[0];
        let models = self.live_models(army, root);
        let each = |inches: f32| Some(models.iter().map(|&r| (r, inches)).collect());
        match (self.stage, self.phase) {
            (Stage::Scouts, _) => each(self.scouts_inches(army, root)?),
            (Stage::Battle, Phase::Movement) => {
                let bonus = match (mode, self.advance_roll) {
                    (MoveMode::Advance, Some((a, u, roll))) if (a, u) == (army, root) => {
                        f32::from(roll)
                    }
                    (MoveMode::Advance, _) => return None,
                    _ => 0.0,
                };
                Some(
                    models
                        .iter()
                        .map(|&r| (r, self.model_move_inches(r) + bonus))
                        .collect(),
                )
            }
            (Stage::Battle, Phase::Charge) => each(
                self.charge
                    .as_ref()
                    .filter(|c| c.army == army && c.unit == root)?
                    .distance(),
            ),
            (Stage::Battle, Phase::Fight) => match self.fight_activation(army, root)? {
                FightActivation::PileIn => each(self.fight_move_inches(army, root, PILE_IN_INCHES)),
                FightActivation::Consolidate => {
                    each(self.fight_move_inches(army, root, CONSOLIDATE_INCHES))
                }
                FightActivation::Attacks => None,
            },
            _ => None,
        }
    }

    /// The Move characteristic of model `r` (inches): its own profile's, which can differ
    /// from its unit's (a Kroot Hound moves 12" in a unit of 7" Farstalkers).
    pub fn model_move_inches(&self, r: ModelRef) -> f32 {
        let bonus = self.unit_bonus(r.army, r.unit, &crate::rules::effect::Modifier::Move(0));
        (self.scene.armies[r.army].units[r.unit].models[r.model]
            .characteristics
            .movement
            + bonus as f32)
            .max(0.0)
    }

    /// The distance the slowest model of the combined unit may go in a Normal move (its
    /// lowest Move characteristic, inches): how far the unit moves when every model moves
    /// the same way (its datasheet's Move once no model is left). Core Rules: Moving Models.
    pub fn unit_move_inches(&self, army: usize, unit: usize) -> f32 {
        let root = self.combined(army, unit)[0];
        let slowest = self
            .live_models_anywhere(army, root)
            .into_iter()
            .map(|r| self.model_move_inches(r))
            .fold(f32::INFINITY, f32::min);
        if slowest.is_finite() {
            slowest
        } else {
            self.scene.armies[army].units[root].datasheet.movement
        }
    }

    /// The range within which a charge may be declared (inches). Core Rules: Charge phase.
    pub fn charge_range_inches(&self) -> f32 {
        CHARGE_RANGE_INCHES
    }

    /// The enemy units the combined unit (`army`, `unit`) may declare a charge against now,
    /// nearest first: every enemy unit on the table within 12" of it, when it is eligible to
    /// declare a charge now (its player's Charge phase, no charge move waiting, and none of
    /// Advanced, Fell Back, already engaged, AIRCRAFT...). Empty when it may not charge. A
    /// [`Command::DeclareCharge`] naming any of these is accepted; one naming another enemy
    /// unit is refused.
    ///
    /// Core Rules: Charge phase (eligible units; targets within 12").
    pub fn charge_targets(&self, army: usize, unit: usize) -> Vec<ChargeTarget> {
        let player = self.player_of(army);
        let root = self.combined(army, unit)[0];
        if self.stage != Stage::Battle
            || self.phase != Phase::Charge
            || self.active_player != player
            || self.charge.is_some()
            || self.pending_shot.is_some()
            || self.advance_roll.is_some()
            || self.check_can_charge(army, root).is_err()
        {
            return Vec::new();
        }
        let Some(enemy) = self.army_of(opponent(player)) else {
            return Vec::new();
        };
        let mut out: Vec<ChargeTarget> = self
            .unit_roots(enemy)
            .into_iter()
            .filter(|&u| {
                !self.live_models(enemy, u).is_empty()
                    && self
                        .aircraft_charge_refusal((army, root), (enemy, u))
                        .is_none()
            })
            .filter_map(|u| {
                let distance = self.unit_distance((army, root), (enemy, u));
                (distance <= CHARGE_RANGE_INCHES + MEASURE_TOLERANCE_INCHES).then(|| ChargeTarget {
                    unit: self.unit_id(enemy, u).to_string(),
                    index: u,
                    distance,
                })
            })
            .collect();
        out.sort_by(|a, b| a.distance.total_cmp(&b.distance));
        out
    }

    /// Every use of a Core Stratagem open to `player` on the combined unit (`army`, `unit`)
    /// in this phase, each with [`Game::check`]'s verdict: the Stratagems whose timing
    /// allows them now (phase and whose turn), one option per enemy unit on the table for
    /// those that need a target, one per roll for Command Re-roll. A verdict of Ok means the
    /// command is accepted now; an Err names the rule that refuses it (CP, once per phase,
    /// keywords, range, Battle-shock...). Empty outside the battle.
    ///
    /// Core Rules: Stratagems, Core Stratagems.
    pub fn stratagem_options(&self, army: usize, unit: usize) -> Vec<StratagemOption> {
        if self.stage != Stage::Battle {
            return Vec::new();
        }
        let player = self.player_of(army);
        let id = self.unit_id(army, self.combined(army, unit)[0]).to_string();
        let enemies: Vec<String> = self
            .army_of(opponent(player))
            .map(|e| {
                self.unit_roots(e)
                    .into_iter()
                    .filter(|&u| !self.live_models(e, u).is_empty())
                    .map(|u| self.unit_id(e, u).to_string())
                    .collect()
            })
            .unwrap_or_default();
        let mut out = Vec::new();
        for stratagem in Stratagem::ALL {
            if !stratagem.usable_in_edition(
                self.scene.edition(),
                self.phase,
                player,
                self.active_player,
            ) {
                continue;
            }
            let make = |target: Option<String>, reroll: Option<RerollRoll>| Command::UseStratagem {
                player,
                stratagem,
                unit: id.clone(),
                target,
                reroll,
            };
            let commands: Vec<Command> = if stratagem.needs_target() {
                enemies
                    .iter()
                    .map(|t| make(Some(t.clone()), None))
                    .collect()
            } else if stratagem == Stratagem::CommandReroll {
                RerollRoll::ALL
                    .iter()
                    .map(|&r| make(None, Some(r)))
                    .collect()
            } else if stratagem == Stratagem::EpicChallenge {
                // The unit (its one CHARACTER model), or each CHARACTER model by name when
                // it has several.
                let characters = self.character_models(army, unit);
                let mut commands = vec![make(None, None)];
                if characters.len() > 1 {
                    commands.extend(characters.iter().map(|r| Command::UseStratagem {
                        player,
                        stratagem,
                        unit: self.model_name(*r),
                        target: None,
                        reroll: None,
                    }));
                }
                commands
            } else {
                vec![make(None, None)]
            };
            for command in commands {
                let verdict = self.check(&command);
                out.push(StratagemOption {
                    stratagem,
                    command,
                    verdict,
                });
            }
        }
        out
    }

    /// The reactions open to `player` at this moment in the other player's turn: every Core
    /// Stratagem use [`Game::stratagem_options`] finds accepted for one of its units (Fire
    /// Overwatch after an enemy move, Heroic Intervention after an enemy charge,
    /// Counter-offensive after an enemy unit has fought, Rapid Ingress at the end of the
    /// enemy's Movement phase...), plus the answers to attacks waiting on it
    /// ([`Game::reaction_options`]). Command Re-roll is left out: some roll of the phase is
    /// always open to it, so it would be listed after every enemy command. Empty in the
    /// player's own turn (outside the Fight phase) and outside the battle.
    ///
    /// Core Rules: Stratagems (the opponent's turn).
    pub fn reactions_open(&self, player: u8) -> Vec<Command> {
        if self.stage != Stage::Battle
            || (self.active_player == player && self.phase != Phase::Fight)
        {
            return Vec::new();
        }
        let mut out = self.reaction_options();
        out.retain(|c| c.player() == player);
        let Some(army) = self.army_of(player) else {
            return out;
        };
        for unit in self.unit_roots(army) {
            if self.live_models_anywhere(army, unit).is_empty() {
                continue;
            }
            for o in self.stratagem_options(army, unit) {
                if o.stratagem != Stratagem::CommandReroll
                    && o.verdict.is_ok()
                    && !out.contains(&o.command)
                {
                    out.push(o.command);
                }
            }
        }
        out
    }

    /// The orders open to the combined unit (`army`, `unit`) now ([`UnitOptions`]): only the
    /// acting player's units get any, save the Fight phase, where either player's unit may
    /// be selected in turn.
    pub fn unit_options(&self, army: usize, unit: usize) -> UnitOptions {
        let mut o = UnitOptions::default();
        let player = self.player_of(army);
        let root = self.combined(army, unit)[0];
        let id = self.unit_id(army, root).to_string();
        let state = &self.units[army][root];
        let active = player == self.active_player;
        let on_table = !self.live_models(army, root).is_empty();
        match self.stage {
            Stage::Setup => {
                for reserve in [ReserveKind::DeepStrike, ReserveKind::StrategicReserves] {
                    let c = Command::DeclareReserves {
                        player,
                        unit: id.clone(),
                        reserve,
                    };
                    if self.check(&c).is_ok() {
                        o.reserves.push(reserve);
                    }
                }
                o.deploy = active && state.location == Location::NotDeployed;
            }
            Stage::Deployment => o.deploy = active && state.location == Location::NotDeployed,
            Stage::Scouts => {
                if active
                    && state.moved.is_none()
                    && on_table
                    && self.scouts_inches(army, root).is_some()
                {
                    o.move_modes = vec![MoveMode::Normal];
                }
            }
            Stage::Battle => {
                if self.phase == Phase::Fight && on_table {
                    o.fight = self.fight_activation(army, root);
                }
                if !active || self.pending_shot.is_some() {
                    return o;
                }
                match self.phase {
                    Phase::Movement => self.movement_options(army, root, &id, &mut o),
                    Phase::Shooting => o.shoot = on_table && !state.shot,
                    Phase::Charge => {
                        o.charge_move = self
                            .charge
                            .as_ref()
                            .is_some_and(|c| c.army == army && c.unit == root);
                        o.charge = !self.charge_targets(army, root).is_empty();
                    }
                    _ => {}
                }
            }
            Stage::GameOver => {}
        }
        o
    }

    /// The Movement-phase part of [`Game::unit_options`].
    fn movement_options(&self, army: usize, root: usize, id: &str, o: &mut UnitOptions) {
        let player = self.player_of(army);
        let state = &self.units[army][root];
        let rolled = self.advance_roll.map(|(a, u, _)| (a, u));
        if rolled.is_some_and(|r| r != (army, root)) {
            return;
        }
        if rolled == Some((army, root)) {
            o.move_modes = vec![MoveMode::Advance];
            return;
        }
        let stay = Command::RemainStationary {
            player,
            unit: id.to_string(),
        };
        o.remain_stationary = self.check(&stay).is_ok();
        if o.remain_stationary {
            o.move_modes = if self.engaged(army, root) {
                vec![MoveMode::FallBack]
            } else {
                vec![MoveMode::Normal, MoveMode::Advance]
            };
        }
        o.arrive = matches!(state.location, Location::Reserves(_));
        o.disembark = matches!(state.location, Location::Embarked(_))
            && !state.embarked_this_phase
            && !self.live_models_anywhere(army, root).is_empty();
        // Only INFANTRY embark, in a friendly TRANSPORT on the table.
        if !self.live_models(army, root).is_empty() && self.all_have_keyword(army, root, "INFANTRY")
        {
            for t in 0..self.units[army].len() {
                let sheet = &self.scene.armies[army].units[t].datasheet;
                if t == root
                    || !sheet.has_keyword("TRANSPORT")
                    || sheet.transport_capacity.is_none()
                    || self.live_models(army, t).is_empty()
                {
                    continue;
                }
                let transport = self.unit_id(army, t).to_string();
                let verdict = self.check(&Command::Embark {
                    player,
                    unit: id.to_string(),
                    transport: transport.clone(),
                });
                o.embark.push((transport, verdict));
            }
        }
    }

    /// The command a drafted move of the combined unit (`army`, `unit`) makes at this moment
    /// of the game: a Deploy in deployment (every model placed, undrafted ones where they
    /// stand), a Set Up Reinforcements or a Disembark for a unit off the table, a Scout or
    /// Movement-phase move of `mode`, the pending charge's Charge Move, a Pile In or a
    /// Consolidate. `paths` are the drafted models' waypoints; `turn` the degrees every model
    /// turns (counter-clockwise; 0 keeps each facing).
    ///
    /// # Errors
    /// A sentence saying why nothing can move now (wrong phase, or not the charging unit).
    pub fn move_command(
        &self,
        army: usize,
        unit: usize,
        paths: &[DraftedPath],
        turn: f32,
        mode: MoveMode,
    ) -> Result<Command, String> {
        let root = self.combined(army, unit)[0];
        let player = self.player_of(army);
        let id = self.unit_id(army, root).to_string();
        let unit_field =
            |r: ModelRef| (r.unit != root).then(|| self.unit_id(army, r.unit).to_string());
        let facing_of = |r: ModelRef| {
            (self.scene.armies[r.army].units[r.unit].models[r.model].facing + turn)
                .rem_euclid(360.0)
        };
        let model_paths = || -> Vec<ModelPath> {
            paths
                .iter()
                .map(|d| ModelPath {
                    model: d.model.model,
                    unit: unit_field(d.model),
                    path: d.path.iter().map(|p| (p.x, p.y, p.z)).collect(),
                    facing: (turn != 0.0).then(|| facing_of(d.model)),
                })
                .collect()
        };
        // Every model of the combined unit where the draft puts it (or where it stands).
        let placements = || -> Vec<Placement> {
            self.live_models_anywhere(army, root)
                .into_iter()
                .filter(|r| r.unit == root || self.units[army][r.unit].leading == Some(root))
                .map(|r| {
                    let at = paths
                        .iter()
                        .find(|d| d.model == r)
                        .and_then(|d| d.path.last().copied())
                        .unwrap_or(self.scene.armies[army].units[r.unit].models[r.model].position);
                    Placement {
                        model: r.model,
                        unit: unit_field(r),
                        x: at.x,
                        y: at.y,
                        z: at.z,
                        facing: facing_of(r),
                    }
                })
                .collect()
        };
        let location = self.units[army][root].location;
        match (self.stage, self.phase) {
            (Stage::Setup | Stage::Deployment, _) => Ok(Command::Deploy {
                player,
                unit: id,
                models: placements(),
                transport: None,
            }),
            (Stage::Battle, Phase::Movement) if matches!(location, Location::Reserves(_)) => {
                Ok(Command::SetUpReinforcements {
                    player,
                    unit: id,
                    models: placements(),
                })
            }
            (Stage::Battle, Phase::Movement) if matches!(location, Location::Embarked(_)) => {
                Ok(Command::Disembark {
                    player,
                    unit: id,
                    models: placements(),
                })
            }
            // A Scout move is a Normal move before the first battle round.
            (Stage::Scouts, _) => Ok(Command::Move {
                player,
                unit: id,
                mode: MoveMode::Normal,
                paths: model_paths(),
            }),
            (Stage::Battle, Phase::Movement) => Ok(Command::Move {
                player,
                unit: id,
                mode,
                paths: model_paths(),
            }),
            (Stage::Battle, Phase::Charge)
                if self
                    .charge
                    .as_ref()
                    .is_some_and(|c| c.army == army && c.unit == root) =>
            {
                let paths = model_paths();
                let targets = self.charge_targets_engaged_by(army, root, &paths);
                Ok(Command::ChargeMove {
                    player,
                    unit: id,
                    paths,
                    targets,
                })
            }
            (Stage::Battle, Phase::Fight) => Ok(
                if self.fighting_now().is_some_and(|f| {
                    (f.army, f.unit) == (army, root) && f.next == FightActivation::Consolidate
                }) {
                    Command::Consolidate {
                        player,
                        unit: id,
                        paths: model_paths(),
                    }
                } else {
                    Command::PileIn {
                        player,
                        unit: id,
                        paths: model_paths(),
                    }
                },
            ),
            (Stage::Battle, phase) => Err(format!("models do not move in the {}", phase.name())),
            _ => Err(format!("models do not move during {}", self.describe_now())),
        }
    }

    /// The game after `command`, carried out on a copy whose next dice are
    /// [`Game::check`]'s (sixes, so the real dice stay unknown and untouched), with the
    /// events it made: for weighing an outcome (what a unit would look like after a
    /// Stratagem or a move). The game itself is unchanged.
    ///
    /// # Errors
    /// [`Rejection`]: the same answer [`Game::check`] gives.
    pub fn trial(&self, command: &Command) -> Result<(Game, Vec<GameEvent>), Rejection> {
        let mut copy = self.trial_copy();
        let events = copy.apply(command)?;
        Ok((copy, events))
    }

    /// A copy of the game whose dice are [`Game::check`]'s (sixes), for carrying out several
    /// commands in a row to weigh where they lead ([`Game::trial`] does one); the real dice
    /// stay unknown and untouched.
    pub fn trial_copy(&self) -> Game {
        let mut copy = self.clone();
        copy.rng = GameRng::scripted(&CHECK_DICE);
        copy
    }
}
