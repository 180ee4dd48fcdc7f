//! The battle engine: a game of 10th edition played by commands. Pure Rust (no Bevy): the
//! desktop, the CLI and the AI all drive it through [`Game::apply`]; `sim::battle` wraps it in
//! Bevy states and messages.
//!
//! Every command is checked against the rules first; an illegal one is answered with a
//! [`Rejection`] naming the rule broken ([`Rule`]) and changes nothing (not even the dice). An
//! accepted one returns its [`GameEvent`]s in order. [`Game::check`] asks the same question
//! without carrying the command out. The dice live in the game state, so a scene, a seed and
//! the accepted commands replay to the same game bit for bit ([`save`]).

pub mod allocation;
pub mod base_contact;
pub mod combat;
pub mod command;
mod command_reroll;
pub mod effects;
pub mod event;
mod fight;
mod flow;
mod last_shot;
pub mod mission;
mod movement;
mod objective_control;
pub mod options;
pub mod preview;
mod query;
pub mod rejection;
pub mod save;
mod scouts;
mod setup;
mod shooting;
pub mod sight;
pub mod state;
mod stratagems;
mod table;
mod timed;
mod transport;

pub use command::{Command, ModelPath, Placement, RerollRoll, ReserveKind, WeaponTarget};
pub use event::GameEvent;
pub use options::{
    ChargeTarget, DraftedPath, FightActivation, FightingNow, StratagemOption, UnitOptions,
};
pub use preview::{PreviewMemo, WeaponOption};
pub use query::UnitWeapon;
pub use rejection::{Rejection, Rule};
pub use state::{Game, Location};

use crate::data::Scene;
use crate::rules::phase::{Phase, Stage};
use rejection::reject;

impl Game {
    /// A new game on `scene` (whose units stand where the scene put them, ready to be deployed
    /// there) with dice seeded by `seed`: the roll-off that decides who deploys first is made
    /// at once (the roll-off for the first turn follows deployment).
    pub fn start(scene: Scene, seed: u64) -> (Game, Vec<GameEvent>) {
        let mut game = Game::blank(scene, seed);
        let mut events = Vec::new();
        game.aircraft_to_reserves(&mut events);
        game.roll_off(&mut events);
        (game, events)
    }

    /// Checks `command` and, if legal, carries it out. The game is unchanged when it is
    /// rejected.
    ///
    /// # Errors
    /// [`Rejection`]: the rule the command breaks and why.
    pub fn apply(&mut self, command: &Command) -> Result<Vec<GameEvent>, Rejection> {
        let mut next = self.clone();
        let mut events = Vec::new();
        next.execute(command, &mut events)?;
        *self = next;
        Ok(events)
    }

    fn execute(&mut self, command: &Command, ev: &mut Vec<GameEvent>) -> Result<(), Rejection> {
        let player = command.player();
        if self.army_of(player).is_none() {
            return reject(Rule::Players, format!("there is no player {player}"));
        }
        if self.stage == Stage::GameOver {
            return reject(Rule::Sequencing, "the battle is over");
        }
        if let Some(p) = &self.pending_shot {
            let defender = crate::rules::phase::opponent(p.player);
            let answer = matches!(
                command,
                Command::UseStratagem { .. }
                    | Command::UseRuleStratagem { .. }
                    | Command::Referee { .. }
                    | Command::Pass { .. }
                    | Command::AllocationOrder { .. }
            );
            if player != defender || !answer {
                return reject(
                    Rule::Reactions,
                    format!(
                        "'{}' has selected its targets: player {defender} answers first \
                         (Go to Ground, Smokescreen or another Stratagem, or Pass)",
                        p.unit
                    ),
                );
            }
        }
        // A unit that rolled to Advance moves next (or the phase ends).
        if let Some((a, u, roll)) = self.advance_roll {
            let id = self.unit_id(a, u);
            let next = match command {
                Command::Move { unit, .. } => unit == id,
                Command::EndPhase { .. }
                | Command::UseStratagem { .. }
                | Command::UseRuleStratagem { .. }
                | Command::RuleChoice { .. }
                | Command::Referee { .. }
                | Command::Pass { .. }
                | Command::AllocationOrder { .. } => true,
                _ => false,
            };
            if !next {
                return reject(
                    Rule::MovementPhase,
                    format!("'{id}' has rolled {roll} to Advance: it moves next"),
                );
            }
        }
        // Base-to-base contact if possible (checked on the game before the move).
        self.require_base_contact(command)?;
        // Which armies had no unit left before the command (to report one it destroys).
        let was_destroyed: Vec<bool> = (0..self.units.len())
            .map(|a| self.army_destroyed(a))
            .collect();
        // A reactive Stratagem answers the command just before it; any other command closes
        // the window.
        let trigger = self.trigger.take();
        if matches!(
            command,
            Command::UseStratagem { .. }
                | Command::AllocationOrder { .. }
                | Command::UseRuleStratagem { .. }
                | Command::RuleChoice { .. }
                | Command::Referee { .. }
        ) {
            self.trigger = trigger;
        }
        match command {
            Command::DeclareReserves { unit, reserve, .. } => {
                self.declare_reserves(player, unit, *reserve, ev)?
            }
            Command::Deploy {
                unit,
                models,
                transport,
                ..
            } => self.deploy(player, unit, models, transport.as_deref(), ev)?,
            Command::EndPhase { .. } => self.end_phase_command(player, ev)?,
            Command::RemainStationary { unit, .. } => self.remain_stationary(player, unit, ev)?,
            Command::Advance { unit, .. } => self.declare_advance(player, unit, ev)?,
            Command::Move {
                unit, mode, paths, ..
            } if self.stage == Stage::Scouts => self.scout_move(player, unit, *mode, paths, ev)?,
            Command::Move {
                unit, mode, paths, ..
            } => self.normal_advance_or_fall_back(player, unit, *mode, paths, ev)?,
            Command::SetUpReinforcements { unit, models, .. } => {
                self.reinforcements(player, unit, models, player != self.active_player, ev)?
            }
            Command::Embark {
                unit, transport, ..
            } => self.embark(player, unit, transport, ev)?,
            Command::Disembark { unit, models, .. } => self.disembark(player, unit, models, ev)?,
            Command::Shoot { unit, weapons, .. } => self.shoot(player, unit, weapons, ev)?,
            Command::DeclareCharge { unit, targets, .. } => {
                self.declare_charge(player, unit, targets, ev)?
            }
            Command::ChargeMove {
                unit,
                paths,
                targets,
                ..
            } => self.charge_move(player, unit, paths, targets, ev)?,
            Command::PileIn { unit, paths, .. } => self.pile_in(player, unit, paths, ev)?,
            Command::Fight { unit, weapons, .. } => self.fight(player, unit, weapons, ev)?,
            Command::Consolidate { unit, paths, .. } => {
                self.consolidate(player, unit, paths, ev)?
            }
            Command::UseStratagem {
                stratagem,
                unit,
                target,
                reroll,
                ..
            } => self.use_stratagem(player, *stratagem, unit, target.as_deref(), *reroll, ev)?,
            Command::Pass { .. } => self.pass(player, ev)?,
            Command::StartAction {
                unit,
                action,
                objective,
                to,
                ..
            } => self.start_action(player, unit, *action, objective.as_deref(), *to, ev)?,
            Command::Guard {
                unit, objective, ..
            } => self.guard(player, unit, objective, ev)?,
            Command::ChooseTargets {
                card,
                units,
                objective,
                ..
            } => self.choose_targets(player, card, units, objective.as_deref(), ev)?,
            Command::DiscardSecondary { card, .. } => {
                self.discard_secondary_command(player, card, ev)?
            }
            Command::NewOrders { card, .. } => self.new_orders(player, card, ev)?,
            Command::AllocationOrder { unit, models, .. } => {
                self.set_allocation_order(player, unit, models, ev)?
            }
            Command::RedrawSecondary { card, .. } => self.redraw_secondary(player, card, ev)?,
            Command::RuleChoice { rule, pick, by, .. } => {
                self.rule_choice(player, rule, pick.as_deref(), by.as_deref(), ev)?
            }
            Command::UseRuleStratagem {
                stratagem, unit, ..
            } => self.use_rule_stratagem(player, stratagem, unit, ev)?,
            Command::Referee { action, note, .. } => self.referee(player, action, note, ev)?,
        }
        self.resolve_last_shots(ev);
        // Models that shot as they were destroyed are gone now: the Fight phase's next picker
        // is settled again (a unit that was to fight may have gone with them).
        if self.fight.as_ref().is_some_and(|f| f.current.is_none()) && self.phase == Phase::Fight {
            self.settle_fight_picker(ev);
        }
        self.open_trigger(command);
        self.check_army_destroyed(&was_destroyed, ev);
        Ok(())
    }

    /// After an accepted command: the trigger it opens for reactive Stratagems, if any.
    fn open_trigger(&mut self, command: &Command) {
        use state::{Trigger, TriggerKind};
        let player = command.player();
        let kind = match command {
            Command::Move { .. } if self.stage == Stage::Battle => TriggerKind::Moved,
            Command::SetUpReinforcements { .. } | Command::Disembark { .. } => TriggerKind::SetUp,
            Command::DeclareCharge { .. } => TriggerKind::DeclaredCharge,
            Command::ChargeMove { paths, .. } if !paths.is_empty() => TriggerKind::EndedChargeMove,
            _ => return,
        };
        let Some(unit) = command.unit() else {
            return;
        };
        if let Ok((army, root)) = self.own_root(player, unit) {
            self.trigger = Some(Trigger {
                army,
                unit: root,
                kind,
            });
        }
    }

    /// The player's unit `id` (army index, unit index).
    ///
    /// # Errors
    /// No such unit in that player's army.
    pub fn own_unit(&self, player: u8, id: &str) -> Result<(usize, usize), Rejection> {
        let army = self.army_of(player).expect("checked");
        match self.find_unit(army, id) {
            Some(u) => Ok((army, u)),
            None => reject(
                Rule::Units,
                format!(
                    "player {player} has no unit '{id}' (units: {})",
                    self.scene.armies[army]
                        .units
                        .iter()
                        .map(|u| u.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ),
        }
    }

    /// The player's unit `id` as it acts: its Bodyguard's index for an attached Leader (army
    /// index, unit index).
    ///
    /// # Errors
    /// No such unit in that player's army.
    pub fn own_root(&self, player: u8, id: &str) -> Result<(usize, usize), Rejection> {
        let (army, unit) = self.own_unit(player, id)?;
        Ok((army, self.combined(army, unit)[0]))
    }

    /// The opponent's unit `id` on the table (army index, unit index).
    ///
    /// # Errors
    /// No such unit, or it is not on the battlefield.
    pub fn enemy_unit(&self, player: u8, id: &str) -> Result<(usize, usize), Rejection> {
        let opponent = crate::rules::phase::opponent(player);
        let (army, unit) = self.own_unit(opponent, id).map_err(|mut r| {
            r.reason = format!("no enemy unit '{id}': {}", r.reason);
            r
        })?;
        if self.live_models(army, unit).is_empty() {
            return reject(
                Rule::Targets,
                format!("enemy unit '{id}' is not on the battlefield"),
            );
        }
        Ok((army, unit))
    }
}
