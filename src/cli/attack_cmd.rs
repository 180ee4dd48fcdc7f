//! `wartable attack`: the exact distribution of one weapon's attacks from a unit against a
//! target unit of a scene, or (with `--roll`) one seeded resolution with its event log.

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::{Value, json};

use crate::data::{Scene, load_scene_under};
use crate::game::combat::{AttackerCircumstances, plan_attack};
use crate::game::sight::{SceneSight, UnitSelector, withhold_unseen_precision};
use crate::rules::attack::exact::estimate_of_weapons;
use crate::rules::attack::roll::{monte_carlo_weapons, resolve_weapons};
use crate::rules::attack::{AttackContext, CommandReroll, Reroll, ResolvedWeapon, TargetUnit};
use crate::rules::constants::MEASURE_TOLERANCE_INCHES;
use crate::rules::rng::GameRng;

/// Re-roll policies as written on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RerollArg {
    /// Re-roll unmodified 1s.
    Ones,
    /// Re-roll failed rolls.
    Failed,
    /// Re-roll everything that is not a Critical result.
    NonCritical,
}

impl From<RerollArg> for Reroll {
    fn from(r: RerollArg) -> Self {
        match r {
            RerollArg::Ones => Reroll::Ones,
            RerollArg::Failed => Reroll::Failed,
            RerollArg::NonCritical => Reroll::NonCritical,
        }
    }
}

/// Where a Command Re-roll goes, as written on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CommandRerollArg {
    /// The first failed Hit roll.
    Hit,
    /// The first failed Wound roll.
    Wound,
}

/// Most Monte Carlo trials `--monte-carlo` accepts.
pub const MAX_MONTE_CARLO_TRIALS: u32 = 10_000_000;

/// Largest what-if `--distance` (inches): far beyond any table and any weapon's range.
pub const MAX_DISTANCE_INCHES: f32 = 1000.0;

/// Arguments of `attack`.
#[derive(Debug, Clone, clap::Args)]
pub struct AttackArgs {
    /// Scene file ("default" for the built-in default scene).
    pub scene: PathBuf,
    /// Ruleset to play under, overriding the scene's: 10 (10th edition) or 11.
    #[arg(long)]
    pub ruleset: Option<crate::rules::Ruleset>,
    /// Attacking unit (UNIT, its Attached unit included) or one model (UNIT#N).
    #[arg(long)]
    pub attacker: UnitSelector,
    /// Weapon name as on the datasheet (case-insensitive), e.g. "Bolt rifle".
    #[arg(long)]
    pub weapon: String,
    /// Target unit (its Attached unit included).
    #[arg(long)]
    pub target: UnitSelector,
    /// Distance to the target in inches (0 to 1000) for every bearer; without it each bearer's
    /// distance and line of sight are measured in the scene and bearers out of range or sight
    /// do not attack.
    #[arg(long, value_parser = super::finite_f32_in(0.0, MAX_DISTANCE_INCHES))]
    pub distance: Option<f32>,
    /// The attacking unit charged this turn (LANCE).
    #[arg(long)]
    pub charged: bool,
    /// The attacking unit Remained Stationary this turn (HEAVY).
    #[arg(long)]
    pub remained_stationary: bool,
    /// The attacking unit Advanced this turn (only ASSAULT weapons shoot); a unit that
    /// Advanced neither Remained Stationary nor may charge.
    #[arg(long, conflicts_with_all = ["charged", "remained_stationary"])]
    pub advanced: bool,
    /// With --distance: treat the target as not visible (INDIRECT FIRE penalties).
    #[arg(long, requires = "distance")]
    pub not_visible: bool,
    /// 11th edition: the farthest any model of the attacking unit moved this turn, in inches
    /// (HEAVY gives +1 to hit at 3" or less; --remained-stationary counts as 0).
    #[arg(long, value_parser = super::finite_f32_in(0.0, MAX_DISTANCE_INCHES),
          conflicts_with = "remained_stationary")]
    pub moved: Option<f32>,
    /// 11th edition INDIRECT FIRE: the attacking unit Remained Stationary and a friendly unit
    /// sees the target (a spotter), so only unmodified Hit rolls of 1-3 fail, not 1-5.
    #[arg(long)]
    pub spotted: bool,
    /// 11th edition: decline LETHAL HITS (Critical Hits roll to wound instead, keeping the
    /// chance of a Critical Wound). Under 10th LETHAL HITS is automatic and this is refused.
    #[arg(long)]
    pub decline_lethal_hits: bool,
    /// The target has the Benefit of Cover (without it, the scene decides when measured).
    #[arg(long)]
    pub cover: bool,
    /// Hit roll re-rolls.
    #[arg(long, value_enum)]
    pub reroll_hits: Option<RerollArg>,
    /// Wound roll re-rolls (a TWIN-LINKED weapon may re-roll its Wound rolls: failed ones are
    /// re-rolled already).
    #[arg(long, value_enum)]
    pub reroll_wounds: Option<RerollArg>,
    /// Spend a Command Re-roll on the first failed Hit or Wound roll.
    #[arg(long, value_enum)]
    pub command_reroll: Option<CommandRerollArg>,
    /// Resolve once with seeded dice and print the event log instead of the distribution.
    #[arg(long)]
    pub roll: bool,
    /// Seed for --roll and --monte-carlo.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also run this many Monte Carlo trials (1 to 10,000,000) as a cross-check of the exact
    /// distribution (so not with --roll, which prints no distribution).
    #[arg(long, conflicts_with = "roll",
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_MONTE_CARLO_TRIALS)))]
    pub monte_carlo: Option<u32>,
    /// The defender's allocation order: the target's models (`unit#N`, comma-separated) to
    /// take attacks first, in that order; the others follow in the default order (plain
    /// models before sergeants, special weapons, multi-wound and CHARACTER models).
    #[arg(long, value_delimiter = ',')]
    pub allocation: Vec<String>,
    /// A choice of the attacker's army rules in force, `RULE` or `RULE=PICK`: "Oath of
    /// Moment" (its target is the attack's target unless a pick names another), "Waaagh!",
    /// "Combat Doctrines=Assault Doctrine". Repeatable. A choice of the defender's rules is
    /// written `defender:RULE[=PICK]`.
    #[arg(long)]
    pub choose: Vec<String>,
    /// A Detachment Stratagem in force: on the attacking unit if its army's Detachment has
    /// it, else on the target. Repeatable.
    #[arg(long)]
    pub stratagem: Vec<String>,
    /// The core rules only: no army, Detachment, Enhancement or datasheet ability effects.
    #[arg(long)]
    pub core_only: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Applies the defender's chosen order `names` to `target` (Core Rules: Allocate Attack): the
/// named models rank first in that order, the rest after them in their default ranks.
///
/// # Errors
/// A name is not a model of the target (the message lists them) or is given twice.
pub fn apply_allocation(target: &mut TargetUnit, names: &[String]) -> Result<(), String> {
    let mut chosen: Vec<usize> = Vec::with_capacity(names.len());
    for n in names {
        let n = n.trim();
        let Some(i) = target
            .models
            .iter()
            .position(|m| m.name.eq_ignore_ascii_case(n))
        else {
            return Err(format!(
                "--allocation: '{n}' is not a model of {} (its models: {})",
                target.name,
                target
                    .models
                    .iter()
                    .map(|m| m.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        };
        if chosen.contains(&i) {
            return Err(format!("--allocation: '{n}' is named twice"));
        }
        chosen.push(i);
    }
    let defaults: Vec<u32> = target.models.iter().map(|m| m.allocation_rank).collect();
    let ranks = crate::game::allocation::ranks_after(&chosen, &defaults);
    for (m, rank) in target.models.iter_mut().zip(ranks) {
        m.allocation_rank = rank;
    }
    Ok(())
}

/// The weapons (resolved against the target), target and context an `attack` command
/// describes, with what was decided from the scene.
struct Setup {
    weapons: Vec<ResolvedWeapon>,
    target: TargetUnit,
    ctx: AttackContext,
    facts: Value,
}

fn setup(scene: &Scene, sight: &SceneSight, args: &AttackArgs) -> Result<Setup, String> {
    if let Some(m) = args.target.model {
        return Err(format!(
            "--target names a unit, not a model: '{}#{m}' names one model of '{}'",
            args.target.unit, args.target.unit
        ));
    }
    let attackers = sight.select(scene, &args.attacker)?;
    let whole_target = UnitSelector {
        model: None,
        ..args.target.clone()
    };
    let targets = sight.select(scene, &whole_target)?;
    if sight.models[targets[0]].army == sight.models[attackers[0]].army {
        return Err(format!(
            "'{}' is in the attacker's own army",
            args.target.unit
        ));
    }
    let whole_attacker = sight.select(
        scene,
        &UnitSelector {
            model: None,
            ..args.attacker.clone()
        },
    )?;
    let plan = plan_attack(
        scene,
        sight,
        &attackers,
        &whole_attacker,
        (&args.weapon, None),
        &targets,
        args.distance.map(|d| (d, !args.not_visible)),
        AttackerCircumstances {
            advanced: args.advanced,
            ..AttackerCircumstances::default()
        },
    )
    .map_err(|e| format!("'{}': {e}", args.target.unit))?;
    // Core Rules: a melee weapon attacks only a unit within Engagement Range.
    let engagement = scene.edition().engagement_range_horizontal_inches;
    if let Some(d) = args.distance
        && d > engagement + MEASURE_TOLERANCE_INCHES
        && plan.groups.iter().all(|g| g.profile.is_melee())
    {
        return Err(format!(
            "'{}' is a melee weapon: it attacks only within Engagement Range \
             ({engagement}\"), not at --distance {d}",
            args.weapon
        ));
    }
    let mut plan = plan;
    apply_allocation(&mut plan.target, &args.allocation)?;
    let base = plan.context();
    let ctx = AttackContext {
        charged: args.charged,
        remained_stationary: args.remained_stationary,
        target_has_cover: args.cover || base.target_has_cover,
        hit_reroll: args.reroll_hits.map_or(Reroll::None, Reroll::from),
        wound_reroll: args.reroll_wounds.map_or(Reroll::None, Reroll::from),
        command_reroll: match args.command_reroll {
            None => CommandReroll::None,
            Some(CommandRerollArg::Hit) => CommandReroll::HitRoll,
            Some(CommandRerollArg::Wound) => CommandReroll::WoundRoll,
        },
        moved_inches: args.moved.or(base.moved_inches),
        spotted: args.spotted || base.spotted,
        decline_lethal_hits: args.decline_lethal_hits,
        ..base
    };
    if args.decline_lethal_hits && !scene.edition().lethal_hits_optional {
        return Err(format!(
            "--decline-lethal-hits: under {} edition LETHAL HITS is not optional (play under \
             --ruleset 11)",
            scene.ruleset()
        ));
    }
    let facts = json!({
        "ruleset": scene.ruleset(),
        "attacker": args.attacker.unit,
        "weapon": args.weapon,
        "target": plan.target.name,
        "target_models": plan.target.models.len(),
        "target_toughness": plan.target.toughness,
        "bearers": plan.groups.iter().map(|g| json!({
            "datasheet_profile": g.profile.name,
            "bearers": g.bearers,
            "within_half_range": g.within_half_range,
            "benefit_of_cover": g.covered,
        })).collect::<Vec<_>>(),
        "not_attacking": plan.excluded.iter()
            .map(|(m, r)| json!({"model": m, "reason": r}))
            .collect::<Vec<_>>(),
        "benefit_of_cover": ctx.target_has_cover || plan.benefit_of_cover,
        "models_with_cover": plan.target.models.iter().filter(|m| m.has_cover).count(),
        "plunging_fire": ctx.plunging_fire || plan.plunging_fire,
        "target_visible": ctx.target_visible,
        "attacker_engaged": plan.state.engaged,
        "allocation_order": allocation_order(&plan.target),
    });
    let rules = if args.core_only {
        Vec::new()
    } else {
        rules_in_force(scene, sight, args, &mut plan, &targets)?
    };
    let mut facts = facts;
    facts["rules"] = json!(
        rules
            .iter()
            .flat_map(|(a, d)| a.sources.iter().chain(&d.sources))
            .fold(Vec::<String>::new(), |mut v, s| {
                if !v.contains(s) {
                    v.push(s.clone());
                }
                v
            })
    );
    let mut weapons = ResolvedWeapon::all(&plan.groups, &plan.target, &ctx);
    crate::game::effects::rules_on_resolved(&mut weapons, &rules);
    // Measured on the table, PRECISION allocates only to a CHARACTER the attacking models can
    // see, as in the game (Core Rules: Precision).
    if args.distance.is_none() {
        withhold_unseen_precision(sight, &plan.attacking, &plan.target, &targets, &mut weapons);
    }
    Ok(Setup {
        weapons,
        target: plan.target,
        ctx,
        facts,
    })
}

/// The army, Detachment, Enhancement, datasheet and Stratagem effects of both sides applied to
/// the plan (see `game::effects`), with the choices and Stratagems the command line puts in
/// force; returns each weapon group's roll changes.
fn rules_in_force(
    scene: &Scene,
    sight: &SceneSight,
    args: &AttackArgs,
    plan: &mut crate::game::combat::AttackPlan,
    targets: &[usize],
) -> Result<
    Vec<(
        crate::rules::effect::AttackChanges,
        crate::rules::effect::AttackChanges,
    )>,
    String,
> {
    let a = sight.models[plan.attacking.first().copied().unwrap_or(targets[0])];
    let t = sight.models[targets[0]];
    let attacker_player = scene.armies[a.army].player;
    let defender_player = scene.armies[t.army].player;
    let target_id = scene.armies[t.army].units[t.unit].id.clone();
    let mut choices = Vec::new();
    for c in &args.choose {
        let (player, c) = match c.strip_prefix("defender:") {
            Some(rest) => (defender_player, rest),
            None => (attacker_player, c.as_str()),
        };
        let (rule, pick) = match c.split_once('=') {
            Some((r, p)) => (r.trim().to_string(), Some(p.trim().to_string())),
            None => (c.trim().to_string(), None),
        };
        let army = &scene.armies[if player == attacker_player {
            a.army
        } else {
            t.army
        }];
        let enemy_pick = army
            .rules
            .rule(&rule)
            .and_then(|r| r.choice.as_ref())
            .is_some_and(|ch| matches!(ch.pick, crate::data::faction_rules::Pick::EnemyUnit));
        let pick = match pick {
            None if enemy_pick && player == attacker_player => Some(target_id.clone()),
            p => p,
        };
        choices.push((player, rule, pick));
    }
    let mut game = crate::game::Game::what_if(scene.clone(), &choices)?;
    // The attacking unit's circumstances, for the rules' conditions (Charged, Remained
    // Stationary, Advanced).
    let root = game.combined(a.army, a.unit)[0];
    let (charged, stationary, advanced) = (args.charged, args.remained_stationary, args.advanced);
    game.for_combined(a.army, root, |s| {
        use crate::rules::movement::{MoveMode, Moved};
        s.charged = charged;
        if stationary {
            s.moved = Some(Moved::Stationary);
        } else if advanced {
            s.moved = Some(Moved::Moved(MoveMode::Advance));
        }
    });
    for name in &args.stratagem {
        let (army, unit) = if scene.armies[a.army].rules.stratagem(name).is_some() {
            (a.army, a.unit)
        } else if scene.armies[t.army].rules.stratagem(name).is_some() {
            (t.army, t.unit)
        } else {
            return Err(format!(
                "neither army's Detachment has a Stratagem '{name}'"
            ));
        };
        let s = scene.armies[army]
            .rules
            .stratagem(name)
            .expect("found")
            .clone();
        let root = game.combined(army, unit)[0];
        game.effects
            .active
            .push(crate::game::effects::ActiveEffect {
                army,
                unit: root,
                source: s.name.clone(),
                effects: s.effects.clone(),
                lasts: s.lasts,
            });
    }
    let melee = plan.groups.iter().all(|g| g.profile.is_melee());
    let mut target = plan.target.clone();
    let changes = game.rules_on_plan(
        sight,
        plan,
        (targets, &mut target),
        ((a.army, a.unit), (t.army, t.unit)),
        melee,
    );
    plan.target = target;
    Ok(changes)
}

/// The target's models in the order attacks are allocated to them (`unit#N`; Leaders after
/// their Bodyguard), as the attack starts.
fn allocation_order(target: &TargetUnit) -> Vec<String> {
    let [g0, g1] = target.allocation_groups();
    g0.iter()
        .chain(&g1)
        .map(|&i| target.models[i].name.clone())
        .collect()
}

/// Runs `wartable attack`.
pub fn run(scene_file: &std::path::Path, args: &AttackArgs) -> ExitCode {
    let scene = match load_scene_under(scene_file, args.ruleset) {
        Ok(s) => s,
        Err(e) => {
            stderr_line!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let sight = SceneSight::new(&scene);
    let s = match setup(&scene, &sight, args) {
        Ok(s) => s,
        Err(e) => {
            stderr_line!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let mut out = s.facts.clone();
    let mut text = Vec::new();
    if !args.allocation.is_empty() {
        text.push(format!(
            "allocation order: {}",
            allocation_order(&s.target).join(", ")
        ));
    }
    if args.roll {
        let mut log = Vec::new();
        let mut rng = GameRng::seeded(args.seed);
        let result = resolve_weapons(
            &s.weapons,
            &s.target,
            s.ctx.command_rerolls(),
            &mut rng,
            &mut log,
        );
        text.extend(log.iter().map(ToString::to_string));
        text.push(format!(
            "result: {} wounds lost, {} models destroyed{}",
            result.wounds_lost,
            result.models_destroyed,
            if result.hazardous_failures > 0 {
                format!(", {} HAZARDOUS tests failed", result.hazardous_failures)
            } else {
                String::new()
            }
        ));
        out["seed"] = json!(args.seed);
        out["events"] = json!(log);
        out["result"] = json!(result);
    } else {
        let e = estimate_of_weapons(&s.weapons, &s.target, s.ctx.command_rerolls());
        if let Some(note) = e.note() {
            text.push(note);
        }
        out["method"] = json!(e.method);
        let d = e.distribution;
        text.push(format!(
            "{} ({}) at {}: expected wounds lost {:.3}, expected models destroyed {:.3}",
            args.weapon,
            args.attacker.unit,
            s.target.name,
            d.expected_wounds_lost,
            d.expected_models_destroyed
        ));
        for (k, p) in d.models_destroyed.iter().enumerate() {
            text.push(format!("  {k:>2} models destroyed: {:6.2}%", p * 100.0));
        }
        out["expected_wounds_lost"] = json!(d.expected_wounds_lost);
        out["expected_models_destroyed"] = json!(d.expected_models_destroyed);
        out["models_destroyed"] = json!(d.models_destroyed);
        out["wounds_lost"] = json!(d.wounds_lost);
    }
    if let Some(trials) = args.monte_carlo {
        let mc = monte_carlo_weapons(
            &s.weapons,
            &s.target,
            s.ctx.command_rerolls(),
            trials,
            args.seed,
        );
        text.push(format!(
            "Monte Carlo ({trials} trials): mean wounds lost {:.3}, mean models destroyed {:.3}",
            mc.mean_wounds_lost, mc.mean_models_destroyed
        ));
        out["monte_carlo"] = json!(mc);
    }
    let printed = if args.json {
        serde_json::to_string_pretty(&out).expect("json")
    } else {
        text.join("\n")
    };
    super::print_then(&printed, ExitCode::SUCCESS)
}
