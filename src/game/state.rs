//! The state of a battle in progress: the table (the scene with every model's position), each
//! unit's and model's condition, the turn, command and victory points, and the seeded dice.

use crate::data::Scene;
use crate::game::sight::{ModelRef, SceneSight, SightCache, model_solid};
use crate::geometry::ModelSolid;
use crate::rules::constants::STARTING_COMMAND_POINTS;
use crate::rules::movement::Moved;
use crate::rules::phase::{FightStep, Phase, Stage};
use crate::rules::rng::GameRng;
use crate::rules::stratagem::Stratagem;

use super::command::{RerollRoll, ReserveKind};

/// Where a unit is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Location {
    /// Not yet deployed.
    NotDeployed,
    /// In Reserves.
    Reserves(ReserveKind),
    /// On the battlefield.
    OnTable,
    /// Embarked in the TRANSPORT with this unit index (same army).
    Embarked(usize),
    /// Every model destroyed (or never arrived from Reserves).
    Destroyed,
}

/// A model's condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ModelState {
    /// Still in play.
    pub alive: bool,
    /// Wounds remaining.
    pub wounds: u8,
    /// An attack or mortal wound was allocated to it this phase: the next ones must go to it
    /// first (Core Rules: Allocate Attack).
    pub allocated_this_phase: bool,
}

/// A unit's condition and what it did this turn.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitState {
    /// Where it is.
    pub location: Location,
    /// Its models, in the scene's order.
    pub models: Vec<ModelState>,
    /// The Bodyguard unit index this Leader is attached to (None once detached).
    pub leading: Option<usize>,
    /// What it did in this turn's Movement phase.
    pub moved: Option<Moved>,
    /// The farthest any of its models moved this turn (inches; 0 when it Remained
    /// Stationary or has not moved): 11th edition HEAVY (11th Core Rules 24.16).
    pub moved_inches: f32,
    /// Shot this phase.
    pub shot: bool,
    /// The turn ([`Game::turn_index`]) in which the unit last made a ranged attack: under
    /// 11th edition a unit that made one this turn or the previous turn cannot be Hidden
    /// (11th Core Rules 13.09).
    pub last_ranged_attack_turn: Option<u32>,
    /// Declared a charge this turn.
    pub declared_charge: bool,
    /// Made a charge move this turn (Fights First).
    pub charged: bool,
    /// Cannot declare a charge this turn (it disembarked after its TRANSPORT's Normal move).
    pub no_charge: bool,
    /// Sent back to Strategic Reserves after arriving (an 11th edition AIRCRAFT at the end of
    /// the opponent's turn): not destroyed at the Reserves deadline (11th Core Rules 20.02,
    /// 20.03, 23).
    pub repositioned: bool,
    /// Embarked in a TRANSPORT this phase: it did not start the phase embarked, so it cannot
    /// disembark until a later phase (Core Rules: Transports, Disembark).
    pub embarked_this_phase: bool,
    /// Fought this phase.
    pub fought: bool,
    /// Battle-shocked: under 10th until the start of its player's next Command phase, under
    /// 11th until it passes a Battle-shock test (11th Core Rules 08.03).
    pub battle_shocked: bool,
    /// The ONE SHOT weapons fired this battle: (model index, weapon name). Each is fired
    /// once per battle by each model (Core Rules: One Shot).
    pub one_shot_fired: Vec<(usize, String)>,
    /// Go to Ground or Smokescreen this phase.
    pub shrouded: Option<Stratagem>,
    /// Insane Bravery is set for the unit this phase: used (its CP and its once per battle
    /// spent) only if the unit fails its Battle-shock test (Core Stratagems: Insane Bravery).
    pub insane_bravery: bool,
    /// The CHARACTER model whose melee attacks gain PRECISION this phase (Core Stratagems:
    /// Epic Challenge).
    pub epic_challenge: Option<ModelRef>,
    /// The roll of the unit a Command Re-roll is set for this phase: used (its CP paid) only
    /// when that roll fails ([`RerollRoll`]).
    pub command_reroll: Option<RerollRoll>,
    /// The owner's order for losing its models (model indices, lost first; empty: the
    /// default), for allocating attacks and for Unit Coherency removals (see
    /// [`super::allocation`]).
    pub allocation_order: Vec<usize>,
}

/// What a unit has just done that reactive Stratagems answer (their trigger): open from the
/// command that did it until the next command other than a Stratagem.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TriggerKind {
    /// It was set up on the battlefield (Reserves, disembarking).
    SetUp,
    /// It made a Normal, Advance or Fall Back move.
    Moved,
    /// It declared a charge.
    DeclaredCharge,
    /// It ended a Charge move.
    EndedChargeMove,
    /// It selected the targets of its ranged attacks (Shooting phase), not yet resolved.
    SelectedTargets,
}

/// The unit (army, unit) whose action is the trigger of reactive Stratagems now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Trigger {
    /// Army index.
    pub army: usize,
    /// Unit index (the acting unit's Bodyguard, for an Attached unit).
    pub unit: usize,
    /// What it did.
    pub kind: TriggerKind,
}

/// The charge in progress: declared and rolled, not yet moved.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingCharge {
    /// Army index.
    pub army: usize,
    /// Unit index.
    pub unit: usize,
    /// Target unit indices in the enemy army.
    pub targets: Vec<usize>,
    /// The charge roll's dice; their total is the charge distance (inches).
    pub dice: [u8; 2],
    /// A Heroic Intervention (in the opponent's turn; no Fights First).
    pub heroic: bool,
    /// Added to the Charge roll by rules ('Ere We Go: +2).
    pub modifier: i32,
}

impl PendingCharge {
    /// The charge distance: the total of the 2D6 and the rules' modifier (inches, never
    /// below 0).
    pub fn distance(&self) -> f32 {
        (i32::from(self.dice[0] + self.dice[1]) + self.modifier).max(0) as f32
    }
}

/// Ranged attacks declared and not yet resolved: the shooting unit has selected its targets
/// and the defending player may answer with Go to Ground or Smokescreen (Core Rules: Core
/// Stratagems, used just after an enemy unit has selected its targets) or pass.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingShot {
    /// The shooting player.
    pub player: u8,
    /// The shooting unit's id.
    pub unit: String,
    /// Its weapon assignments, as declared.
    pub weapons: Vec<super::WeaponTarget>,
}

impl PendingShot {
    /// The targeted unit ids, each once, in the order first declared.
    pub fn targets(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for w in &self.weapons {
            if !out.contains(&w.target.as_str()) {
                out.push(&w.target);
            }
        }
        out
    }
}

/// The Fight phase's progress.
#[derive(Debug, Clone, PartialEq)]
pub struct FightState {
    /// Current step.
    pub step: FightStep,
    /// The player who selects the next unit to fight.
    pub picker: u8,
    /// The unit fighting now (army, unit) and whether it has made its attacks.
    pub current: Option<(usize, usize, bool)>,
    /// A Counter-offensive unit that fights next (army, unit).
    pub counter_offensive: Option<(usize, usize)>,
    /// The player whose unit was the last to finish fighting this phase.
    pub last_fought: Option<u8>,
    /// 11th edition: the units (army, unit) that made (or passed) their Pile In step move.
    pub piled_in: Vec<(usize, usize)>,
    /// 11th edition: the units (army, unit) that made (or passed) their Consolidate step move.
    pub consolidated: Vec<(usize, usize)>,
}

/// A battle in progress. Change it only through [`Game::apply`](super::Game::apply).
#[derive(Debug, Clone)]
pub struct Game {
    /// The table: terrain, objectives and both armies with every model's position.
    pub scene: Scene,
    /// The seed the dice started from.
    pub seed: u64,
    /// The dice.
    pub rng: GameRng,
    /// Setup, deployment, battle or game over.
    pub stage: Stage,
    /// Battle round (1 to the mission's last; 0 before the battle).
    pub battle_round: u8,
    /// Player whose turn it is (in deployment: the player who deploys next).
    pub active_player: u8,
    /// Player taking the first turn of each battle round.
    pub first_player: u8,
    /// Current phase.
    pub phase: Phase,
    /// Command points of players 1 and 2.
    pub cp: [u32; 2],
    /// CP gained this battle round other than by the Command phase gain, per player.
    pub cp_other_gain: [u32; 2],
    /// Victory points of players 1 and 2.
    pub vp: [u32; 2],
    /// Insane Bravery already used this battle, per player (once per battle).
    pub insane_bravery_used: [bool; 2],
    /// Each unit's condition: `units[army][unit]`.
    pub units: Vec<Vec<UnitState>>,
    /// Controlling player of each objective marker (None: nobody or contested).
    pub objectives: Vec<Option<u8>>,
    /// Stratagems used this phase: (player, stratagem).
    pub stratagems_used: Vec<(u8, Stratagem)>,
    /// The units (army, first unit of the combined unit) targeted by a Stratagem this phase,
    /// Core and army ones alike: under 11th a unit takes only one per phase (11th Core Rules
    /// 15.01).
    pub stratagem_targets: Vec<(usize, usize)>,
    /// Movement phase: the Reinforcements step has begun (no more moves).
    pub reinforcements_step: bool,
    /// The charge in progress.
    pub charge: Option<PendingCharge>,
    /// A Reserves unit that may arrive by Rapid Ingress this phase (army, unit).
    pub rapid_ingress: Option<(usize, usize)>,
    /// An Advance declared and rolled this Movement phase whose move is still to come
    /// (army, unit, roll): [`Command::Advance`](super::Command::Advance). Core Rules: Advance
    /// moves.
    pub advance_roll: Option<(usize, usize, u8)>,
    /// The Fight phase's progress.
    pub fight: Option<FightState>,
    /// The action reactive Stratagems may answer now (Fire Overwatch, Heroic Intervention,
    /// Tank Shock).
    pub trigger: Option<Trigger>,
    /// Ranged attacks whose targets are selected, waiting for the defender's reactions.
    pub pending_shot: Option<PendingShot>,
    /// Fire Overwatch was used this turn (once per turn).
    pub fire_overwatch_used: bool,
    /// The unit whose attacks are being resolved now (army, unit), if any.
    pub attacker_now: Option<(usize, usize)>,
    /// Destroyed models that shoot before they are removed (For the Chapter!), with the
    /// unit that destroyed them: resolved once the current command's attacks are done.
    pub last_shots: Vec<(ModelRef, Option<(usize, usize)>)>,
    /// Models that already used their shot before removal (never twice).
    pub last_shots_done: Vec<ModelRef>,
    /// Winner once the game is over (None: a draw or not over).
    pub winner: Option<u8>,
    /// The mission's running state: primary and secondary VP, secondary cards, actions.
    pub mission: super::mission::MissionState,
    /// Army rules, Detachment Stratagems and overrides in play ([`super::effects`]).
    pub effects: super::effects::EffectsState,
    /// The sight index, kept between queries (see [`Game::sight`]).
    sight_cache: SightCache,
    /// What the armies' rules hold (the units with an Aura, the primitives each army's rules
    /// use), found once: the armies' rules and datasheets never change in a game.
    pub(super) rule_cache: std::sync::OnceLock<super::effects::RuleCache>,
}

impl Game {
    /// A game on `scene` with dice seeded by `seed`, before deployment (no roll-off yet; see
    /// [`Game::start`](super::Game::start)).
    pub fn blank(scene: Scene, seed: u64) -> Self {
        let units = scene
            .armies
            .iter()
            .map(|a| {
                let mut v: Vec<UnitState> = a
                    .units
                    .iter()
                    .map(|u| UnitState {
                        location: Location::NotDeployed,
                        models: u
                            .models
                            .iter()
                            .map(|m| ModelState {
                                alive: true,
                                wounds: m.characteristics.wounds,
                                allocated_this_phase: false,
                            })
                            .collect(),
                        leading: None,
                        moved: None,
                        shot: false,
                        last_ranged_attack_turn: None,
                        moved_inches: 0.0,
                        declared_charge: false,
                        charged: false,
                        no_charge: false,
                        repositioned: false,
                        embarked_this_phase: false,
                        fought: false,
                        battle_shocked: false,
                        one_shot_fired: Vec::new(),
                        shrouded: None,
                        insane_bravery: false,
                        epic_challenge: None,
                        command_reroll: None,
                        allocation_order: Vec::new(),
                    })
                    .collect();
                for (i, u) in a.units.iter().enumerate() {
                    v[i].leading = u
                        .attached_to
                        .as_ref()
                        .and_then(|t| a.units.iter().position(|b| &b.id == t));
                }
                v
            })
            .collect();
        let objectives = vec![None; scene.objectives.len()];
        let mut game = Game {
            scene,
            seed,
            rng: GameRng::seeded(seed),
            stage: Stage::Setup,
            battle_round: 0,
            active_player: 1,
            first_player: 1,
            phase: Phase::Command,
            cp: [STARTING_COMMAND_POINTS; 2],
            cp_other_gain: [0; 2],
            vp: [0; 2],
            insane_bravery_used: [false; 2],
            units,
            objectives,
            stratagems_used: Vec::new(),
            stratagem_targets: Vec::new(),
            reinforcements_step: false,
            charge: None,
            rapid_ingress: None,
            advance_roll: None,
            fight: None,
            trigger: None,
            pending_shot: None,
            fire_overwatch_used: false,
            attacker_now: None,
            last_shots: Vec::new(),
            last_shots_done: Vec::new(),
            winner: None,
            mission: Default::default(),
            effects: Default::default(),
            sight_cache: SightCache::default(),
            rule_cache: std::sync::OnceLock::new(),
        };
        game.set_up_mission();
        game
    }

    /// The player who must act now, or None once the game is over: the defending player while
    /// an enemy unit's attacks wait with their targets selected, the player whose unit is
    /// fighting or who selects the next unit to fight in the Fight phase, else the active
    /// player (in deployment, the player who deploys next). Core Rules: Fight phase
    /// (alternating selection), Core Stratagems (reactions).
    pub fn acting_player(&self) -> Option<u8> {
        if self.stage == Stage::GameOver {
            return None;
        }
        if let Some(p) = &self.pending_shot {
            return Some(crate::rules::phase::opponent(p.player));
        }
        if self.stage == Stage::Battle && self.phase == Phase::Fight {
            return Some(
                self.fight
                    .as_ref()
                    .and_then(|f| f.current)
                    .map(|(a, _, _)| self.player_of(a))
                    .or_else(|| self.next_to_fight().map(|(p, _)| p))
                    .unwrap_or(self.active_player),
            );
        }
        Some(self.active_player)
    }

    /// Index in `scene.armies` of `player`'s army.
    pub fn army_of(&self, player: u8) -> Option<usize> {
        self.scene.armies.iter().position(|a| a.player == player)
    }

    /// The player owning army `army`.
    pub fn player_of(&self, army: usize) -> u8 {
        self.scene.armies[army].player
    }

    /// Unit id.
    pub fn unit_id(&self, army: usize, unit: usize) -> &str {
        &self.scene.armies[army].units[unit].id
    }

    /// The unit index of `id` in army `army`.
    pub fn find_unit(&self, army: usize, id: &str) -> Option<usize> {
        self.scene.armies[army]
            .units
            .iter()
            .position(|u| u.id == id)
    }

    /// The units acting as one: a Bodyguard with its attached Leaders, or a unit alone. A
    /// Leader or its Bodyguard gives the same list, Bodyguard first.
    pub fn combined(&self, army: usize, unit: usize) -> Vec<usize> {
        let root = self.units[army][unit].leading.unwrap_or(unit);
        let mut out = vec![root];
        out.extend(
            (0..self.units[army].len())
                .filter(|&u| u != root && self.units[army][u].leading == Some(root)),
        );
        out
    }

    /// Units that act on their own (Bodyguards and lone units; attached Leaders are part of
    /// their Bodyguard's), in army order.
    pub fn unit_roots(&self, army: usize) -> Vec<usize> {
        (0..self.units[army].len())
            .filter(|&u| self.units[army][u].leading.is_none())
            .collect()
    }

    /// True if the model is alive and on the table.
    pub fn on_table(&self, r: ModelRef) -> bool {
        let u = &self.units[r.army][r.unit];
        u.location == Location::OnTable && u.models[r.model].alive
    }

    /// Every alive model of the combined unit, wherever it is (on the table, embarked or in
    /// Reserves).
    pub fn live_models_anywhere(&self, army: usize, unit: usize) -> Vec<ModelRef> {
        self.combined(army, unit)
            .into_iter()
            .flat_map(|u| {
                (0..self.units[army][u].models.len()).map(move |m| ModelRef {
                    army,
                    unit: u,
                    model: m,
                })
            })
            .filter(|r| self.units[army][r.unit].models[r.model].alive)
            .collect()
    }

    /// Models of the combined unit alive on the table.
    pub fn live_models(&self, army: usize, unit: usize) -> Vec<ModelRef> {
        let mut live = self.live_models_anywhere(army, unit);
        live.retain(|r| self.on_table(*r));
        live
    }

    /// Every model alive on the table.
    pub fn all_live_models(&self) -> Vec<ModelRef> {
        let mut out = Vec::new();
        for (a, army) in self.units.iter().enumerate() {
            for (u, unit) in army.iter().enumerate() {
                for m in 0..unit.models.len() {
                    let r = ModelRef {
                        army: a,
                        unit: u,
                        model: m,
                    };
                    if self.on_table(r) {
                        out.push(r);
                    }
                }
            }
        }
        out
    }

    /// A model's solid where it stands.
    pub fn solid(&self, r: ModelRef) -> ModelSolid {
        model_solid(&self.scene, r)
    }

    /// The sight index of the models on the table, where they stand now: the same index
    /// [`SceneSight::with_models`] builds, without building it again. The game keeps its index
    /// and brings it in step with the table on each call, redoing only the models that moved,
    /// left or arrived since the last call (the terrain part is built once per layout and
    /// shared with the game's clones). The copy returned is cheap and stays as it is when the
    /// game changes afterwards.
    pub fn sight(&self) -> SceneSight {
        let mut sight = self.sight_cache.get(&self.scene, |r| self.on_table(r));
        if self.scene.edition().sight != crate::rules::ruleset::SightRules::Footprints {
            // 11th Hidden: the keywords allow it unless the unit made a ranged attack this
            // turn or the previous one (11th Core Rules 13.09).
            let now = self.turn_index();
            let mut flags = super::sight::may_hide(&self.scene, &sight.models);
            for (flag, r) in flags.iter_mut().zip(sight.models.iter()) {
                if let Some(t) = self.units[r.army][r.unit].last_ranged_attack_turn {
                    *flag &= t + 1 < now;
                }
            }
            sight.index.set_may_hide(flags);
        }
        sight
            .index
            .set_lone_operatives(super::sight::lone_operative_ranges(
                &self.scene,
                &sight.models,
            ));
        sight
    }

    /// The number of the current player turn in the battle: 1 for the first player's turn of
    /// battle round 1, 2 for the second player's, 3 for the first player's turn of round 2,
    /// and so on (0 before the battle).
    pub fn turn_index(&self) -> u32 {
        if self.battle_round == 0 {
            return 0;
        }
        let second = u32::from(self.active_player != self.first_player);
        (u32::from(self.battle_round) - 1) * 2 + 1 + second
    }

    /// The entries of `sight` that are the combined unit's models on the table.
    pub fn entries_of(&self, sight: &SceneSight, army: usize, unit: usize) -> Vec<usize> {
        let live = self.live_models(army, unit);
        (0..sight.models.len())
            .filter(|&e| live.contains(&sight.models[e]))
            .collect()
    }

    /// `unit#N` for a model.
    pub fn model_name(&self, r: ModelRef) -> String {
        format!("{}#{}", self.unit_id(r.army, r.unit), r.model)
    }

    /// Sets a flag on every unit of a combined unit.
    pub fn for_combined(&mut self, army: usize, unit: usize, f: impl Fn(&mut UnitState)) {
        for u in self.combined(army, unit) {
            f(&mut self.units[army][u]);
        }
    }

    /// True if the keyword is on any unit of the combined unit.
    pub fn has_keyword(&self, army: usize, unit: usize, keyword: &str) -> bool {
        self.combined(army, unit).iter().any(|&u| {
            self.scene.armies[army].units[u]
                .datasheet
                .has_keyword(keyword)
        })
    }

    /// True if every unit of the combined unit has the keyword.
    pub fn all_have_keyword(&self, army: usize, unit: usize, keyword: &str) -> bool {
        self.combined(army, unit).iter().all(|&u| {
            self.scene.armies[army].units[u]
                .datasheet
                .has_keyword(keyword)
        })
    }

    /// Starting Strength of the combined unit (models).
    pub fn starting_strength(&self, army: usize, unit: usize) -> usize {
        self.combined(army, unit)
            .iter()
            .map(|&u| self.units[army][u].models.len())
            .sum()
    }

    /// Below Half-strength: fewer than half the Starting Strength models remain, or a single
    /// model has fewer than half its Wounds left (Core Rules: Starting Strength).
    pub fn below_half_strength(&self, army: usize, unit: usize) -> bool {
        self.strength_against_half(army, unit) == std::cmp::Ordering::Less
    }

    /// The unit's strength against half its Starting Strength: models left against half the
    /// models it started with, or for a unit of one model its wounds left against half its
    /// Wounds (a unit with no model left is Less).
    fn strength_against_half(&self, army: usize, unit: usize) -> std::cmp::Ordering {
        let start = self.starting_strength(army, unit);
        let live = self.live_models(army, unit);
        if start == 1 {
            let Some(r) = live.first() else {
                return std::cmp::Ordering::Less;
            };
            let w = self.scene.armies[army].units[r.unit].models[r.model]
                .characteristics
                .wounds;
            return (u32::from(self.units[army][r.unit].models[r.model].wounds) * 2)
                .cmp(&u32::from(w));
        }
        (live.len() * 2).cmp(&start)
    }

    /// True when the unit (`army`, `unit`, its Attached unit included) is at or below half
    /// strength: at most half its Starting Strength in models, or for a unit of one model
    /// at most half its Wounds left (11th Core Rules 08.03, 01.07).
    pub fn at_or_below_half_strength(&self, army: usize, unit: usize) -> bool {
        self.strength_against_half(army, unit) != std::cmp::Ordering::Greater
    }

    /// True when the unit takes a Battle-shock test in its Command phase by the strength
    /// rule of the game's edition: below half strength (Core Rules: Battle-shock step), or
    /// under 11th at or below half strength or still Battle-shocked (11th Core Rules 08.03).
    pub fn must_test_battle_shock(&self, army: usize, unit: usize) -> bool {
        let edition = self.scene.edition();
        (edition.battle_shock_until_passed && self.units[army][unit].battle_shocked)
            || if edition.battle_shock_at_half_strength {
                self.at_or_below_half_strength(army, unit)
            } else {
                self.below_half_strength(army, unit)
            }
    }

    /// Err with the rule's words when the combined unit (`army`, `root`) may not be the target
    /// of another Stratagem this phase: under 11th it already was (11th Core Rules 15.01).
    pub(super) fn stratagem_target_free(&self, army: usize, root: usize) -> Result<(), String> {
        if self.scene.edition().one_stratagem_per_unit_per_phase
            && self.stratagem_targets.contains(&(army, root))
        {
            return Err(format!(
                "'{}' was already the target of a Stratagem this phase (11th edition: one per \
                 unit per phase)",
                self.unit_id(army, root)
            ));
        }
        Ok(())
    }

    /// The player's CP.
    pub fn cp_of(&self, player: u8) -> u32 {
        self.cp[usize::from(player - 1)]
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::geometry::Vec3;
    use crate::geometry::sight::{Sampling, SeeThrough};

    /// A game on the default scene with every unit deployed where the scene stands.
    fn deployed() -> Game {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let scene = crate::data::load_scene(&root.join("scenes/default.ron")).unwrap();
        let (mut game, _) = Game::start(scene, 7);
        game.deploy_as_placed().unwrap();
        game
    }

    /// Asserts that the game's kept index answers as a freshly built one for the same table:
    /// the same entries and models, the same standing in the terrain, and the same visibility
    /// (with its evidence) between each of `models` and every model, both ways.
    fn agrees_with_a_fresh_index(game: &Game, models: &[ModelRef]) {
        let kept = game.sight();
        let fresh = SceneSight::with_models(&game.scene, |r| game.on_table(r));
        assert_eq!(kept.models, fresh.models);
        assert_eq!(kept.index.models(), fresh.index.models());
        for e in 0..fresh.models.len() {
            assert_eq!(
                kept.index.pieces_under(e).collect::<Vec<_>>(),
                fresh.index.pieces_under(e).collect::<Vec<_>>(),
                "{}",
                game.model_name(fresh.models[e])
            );
        }
        let mut pairs = 0;
        for r in models {
            let Some(m) = fresh.models.iter().position(|x| x == r) else {
                continue;
            };
            for o in 0..fresh.models.len() {
                for (a, b) in [(o, m), (m, o)] {
                    assert_eq!(
                        kept.index
                            .model_visibility(a, b, SeeThrough::OwnUnit, &Sampling::FAST),
                        fresh
                            .index
                            .model_visibility(a, b, SeeThrough::OwnUnit, &Sampling::FAST),
                        "{} to {}",
                        game.model_name(fresh.models[a]),
                        game.model_name(fresh.models[b])
                    );
                    pairs += 1;
                }
            }
        }
        assert!(pairs > 0 || models.is_empty());
    }

    #[test]
    fn sight_after_a_move_sees_the_new_positions() {
        let mut game = deployed();
        let original = game.scene.clone();
        let before = game.sight();
        // Models of both armies step away, one turns; the next query must see them there.
        let moved = [
            ModelRef {
                army: 0,
                unit: 0,
                model: 0,
            },
            ModelRef {
                army: 1,
                unit: 0,
                model: 0,
            },
            ModelRef {
                army: 1,
                unit: 1,
                model: 0,
            },
        ];
        for (k, r) in moved.iter().enumerate() {
            let m = &mut game.scene.armies[r.army].units[r.unit].models[r.model];
            m.position += Vec3::new(6.0, 3.0 + k as f32, 0.0);
            m.facing += 90.0;
        }
        let after = game.sight();
        assert_ne!(before.index.models(), after.index.models());
        agrees_with_a_fresh_index(&game, &moved);
        // The copy taken before the move still shows the table as it was then.
        let e = before.models.iter().position(|x| *x == moved[0]).unwrap();
        assert_eq!(
            before.index.models()[e].solid,
            model_solid(&original, moved[0])
        );
        // Moving back agrees too, and gives the first index again.
        game.scene = original;
        agrees_with_a_fresh_index(&game, &moved);
        assert_eq!(game.sight().index.models(), before.index.models());
    }

    #[test]
    fn destroyed_and_embarked_models_leave_the_index_and_arrivals_join_it() {
        let mut game = deployed();
        let all = game.sight();
        // The second model of player 1's first unit of several models is destroyed.
        let squad = (0..game.units[0].len())
            .find(|&u| game.units[0][u].models.len() > 1)
            .unwrap();
        let gone = ModelRef {
            army: 0,
            unit: squad,
            model: 1,
        };
        assert!(all.models.contains(&gone));
        game.units[0][squad].models[1].alive = false;
        // A whole unit of the other army leaves the table (as if embarked).
        let embarked = 1;
        game.units[1][embarked].location = Location::Embarked(0);
        let sight = game.sight();
        assert!(!sight.models.contains(&gone));
        assert!(
            !sight
                .models
                .iter()
                .any(|r| r.army == 1 && r.unit == embarked)
        );
        assert_eq!(
            sight.models.len(),
            all.models.len() - 1 - game.units[1][embarked].models.len()
        );
        let neighbours = [
            ModelRef {
                army: 0,
                unit: 0,
                model: 0,
            },
            ModelRef {
                army: 1,
                unit: 0,
                model: 0,
            },
        ];
        agrees_with_a_fresh_index(&game, &neighbours);
        // They come back, one of them elsewhere.
        game.units[0][squad].models[1].alive = true;
        game.units[1][embarked].location = Location::OnTable;
        game.scene.armies[1].units[embarked].models[0].position += Vec3::new(-4.0, 0.0, 0.0);
        let back = game.sight();
        assert_eq!(back.models, all.models);
        agrees_with_a_fresh_index(
            &game,
            &[
                gone,
                ModelRef {
                    army: 1,
                    unit: embarked,
                    model: 0,
                },
            ],
        );
    }

    #[test]
    fn a_cloned_game_shares_the_sight_index() {
        let game = deployed();
        let sight = game.sight();
        let mut copy = game.clone();
        let copied = copy.sight();
        assert!(Arc::ptr_eq(sight.index.terrain(), copied.index.terrain()));
        assert!(sight.index.shares_models_with(&copied.index));
        // Asking again, with nothing changed, builds nothing either.
        assert!(game.sight().index.shares_models_with(&sight.index));
        // A move in the copy changes the copy's models only; the terrain stays shared.
        copy.scene.armies[0].units[0].models[0].position += Vec3::new(2.0, 0.0, 0.0);
        let moved = copy.sight();
        assert!(Arc::ptr_eq(sight.index.terrain(), moved.index.terrain()));
        assert!(!moved.index.shares_models_with(&sight.index));
        assert!(game.sight().index.shares_models_with(&sight.index));
        assert_ne!(game.sight().index.models(), moved.index.models());
    }

    #[test]
    fn a_new_layout_gets_its_own_terrain_part() {
        let mut game = deployed();
        let sight = game.sight();
        let moved = game.scene.layout.pieces[0].footprint[0] + crate::geometry::Vec2::new(0.5, 0.0);
        std::sync::Arc::make_mut(&mut game.scene.layout).pieces[0].footprint[0] = moved;
        let after = game.sight();
        assert!(!Arc::ptr_eq(sight.index.terrain(), after.index.terrain()));
        assert!(after.index.terrain().is_for(
            &game.scene.layout.pieces,
            game.scene.options.ground_floor_windows_closed
        ));
        agrees_with_a_fresh_index(&game, &[]);
    }
}
