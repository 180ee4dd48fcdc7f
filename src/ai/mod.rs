//! Computer players: they look at the same [`Game`] a person sees and give one command at a
//! time, the same commands a person gives. A command is checked with [`Game::check`], which
//! changes nothing and never reveals a roll to come (it tries the command on a copy whose
//! dice are scripted sixes).
//!
//! [`Ai`] plays to win: it deploys, holds objectives (a unit on a marker no friend holds
//! stays; the others go to the closest marker no friend has claimed, else towards the enemy
//! within 24", stopping short), shoots each weapon at the target with the highest
//! exact expected points destroyed, charges when the 2D6 odds are at least
//! [`CHARGE_ODDS_THRESHOLD`], uses a Command Re-roll on a failed charge roll, and fights with
//! every weapon, piling in and consolidating up to 3" towards the closest enemy model. Its
//! moves prefer ends that fewer enemy shooters see in the open ([`cover`]), and in the opponent's
//! Shooting phase it answers a declared attack with Go to Ground or Smokescreen when that
//! saves enough expected points ([`react`]).
//! [`RandomPlayer`] makes random legal choices (a baseline). [`play_game`] runs a
//! whole game between two of them.

pub mod agent;
pub mod army_rules;
mod cards;
mod close_in;
pub mod cover;
pub mod level;
pub mod loadout;
pub mod mission;
pub mod plan;
pub mod react;
mod route;
pub mod stats;
pub mod tactics;

pub use level::Level;
pub use stats::GameStats;

use std::collections::HashSet;
use std::sync::Arc;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::data::Scene;
use crate::game::sight::ModelRef;
use crate::game::{
    Command, FightActivation, Game, ModelPath, RerollRoll, WeaponOption, WeaponTarget,
};
use crate::geometry::Vec3;
use crate::rules::constants::PILE_IN_INCHES;
use crate::rules::movement::{MoveMode, path_length};
use crate::rules::phase::{Phase, Stage, opponent};

/// Smallest probability of a successful charge roll for which [`Ai`] declares a charge.
pub const CHARGE_ODDS_THRESHOLD: f64 = 0.4;

/// Most commands in one game before [`play_game`] gives up (a safety net).
pub const COMMAND_LIMIT: usize = 6000;

/// Most reactions [`play_game`] asks for after one command (a Stratagem and the commands
/// that complete it, such as Rapid Ingress and the unit's arrival).
pub const MAX_REACTIONS_PER_COMMAND: usize = 3;

/// Inches of distance that being seen in the open by every enemy shooter at a move's end is
/// worth to [`Ai`] (by half of them: half as much): a tie-breaker that prefers cover without
/// giving up ground towards an objective. Chosen by 100-game matches against a copy that
/// ignores cover: at 1" the two were level; at 4" the cover-minded side lost about 2 to 1.
pub const COVER_WEIGHT_INCHES: f32 = 1.0;

/// Degrees off the direct line at which a bent move's first leg leaves, tried when no
/// straight move is legal ([`Ai::move_towards`]).
pub const BEND_DEGREES: [f32; 6] = [35.0, -35.0, 60.0, -60.0, 90.0, -90.0];

/// Distances (inches) from a model's end at which [`shifted_round`] looks for a free spot
/// when the end is taken.
pub const MAKE_ROOM_RINGS_INCHES: [f32; 4] = [0.7, 1.4, 2.1, 2.8];

/// Shares of the Move spent on a bent move's first leg before it turns towards the aim.
pub const BEND_LEG_SHARES: [f32; 2] = [0.35, 0.6];

/// A computer player.
pub trait Brain {
    /// The next command for `player`, who must act now in `game`.
    fn next(&mut self, game: &Game, player: u8) -> Command;

    /// A reactive Stratagem `player` uses now although the other player is acting (Fire
    /// Overwatch after an enemy unit moves or declares a charge, Heroic Intervention after
    /// an enemy charge move, Counter-offensive after an enemy unit has fought, Rapid
    /// Ingress at the end of the opponent's Movement phase, and the command that follows it),
    /// or None to let the game go on. Asked after each command the other player gives.
    fn react(&mut self, _game: &Game, _player: u8) -> Option<Command> {
        None
    }

    /// Told of every command the game accepted (either player's, reactions included), in
    /// order, after it was carried out: an outside player ([`agent::AgentBrain`]) keeps its
    /// own copy of the game from them.
    fn observe(&mut self, _command: &Command) {}

    /// Told that the engine refused the command this brain just gave, and why.
    fn refused(&mut self, _why: &str) {}

    /// Told that the game is over; returns its own failures (an outside player's replies
    /// that were not commands, or its process stopping), none for the built-in players.
    fn finish(&mut self, _game: &Game) -> Vec<String> {
        Vec::new()
    }
}

/// The game after `command`, carried out on a copy whose first dice are scripted high rolls
/// (sixes), so the real dice stay unknown; None when the engine refuses it. For weighing an
/// outcome (what a unit would look like after a Stratagem, [`react`]): only asking whether
/// the command is accepted is [`legal`] ([`Game::check`]), which keeps no copy.
pub fn trial(game: &Game, command: &Command) -> Option<Game> {
    game.trial(command).ok().map(|(after, _)| after)
}

/// Whether the engine would accept `command` now ([`Game::check`]: the game and its dice
/// are untouched, and an Advance is judged with the best roll).
pub fn legal(game: &Game, command: &Command) -> bool {
    game.check(command).is_ok()
}

/// The command that moves a game on after a refused one, so that one bad answer cannot loop
/// forever: the defender's Pass while attacks wait for its answer, else the active player's
/// End Phase.
pub fn unstick(game: &Game) -> Command {
    match &game.pending_shot {
        Some(p) => Command::Pass {
            player: opponent(p.player),
        },
        None => Command::EndPhase {
            player: game.active_player,
        },
    }
}

/// A short description of a command for logs: its kind and unit ("Move boyz-mob").
pub fn summary(command: &Command) -> String {
    format!("{} {}", command.kind(), command.unit().unwrap_or_default())
        .trim_end()
        .to_string()
}

/// Live units of `player` on the table (roots of attached units).
fn roots(game: &Game, player: u8) -> Vec<usize> {
    let Some(army) = game.army_of(player) else {
        return Vec::new();
    };
    game.unit_roots(army)
        .into_iter()
        .filter(|&u| !game.live_models(army, u).is_empty())
        .collect()
}

/// Centre of a unit's live models on the table (inches; the origin when none is left).
pub fn centre(game: &Game, army: usize, unit: usize) -> Vec3 {
    let live = game.live_models(army, unit);
    let sum = live
        .iter()
        .map(|r| game.scene.armies[army].units[r.unit].models[r.model].position)
        .fold(Vec3::ZERO, |a, b| a + b);
    sum / live.len().max(1) as f32
}

/// `v` turned `degrees` counter-clockwise.
fn rotated(v: crate::geometry::Vec2, degrees: f32) -> crate::geometry::Vec2 {
    let (s, c) = degrees.to_radians().sin_cos();
    crate::geometry::Vec2::new(v.x * c - v.y * s, v.x * s + v.y * c)
}

/// Every live model of the unit moved by `v` (straight paths).
fn shifted(game: &Game, army: usize, unit: usize, v: Vec3) -> Vec<ModelPath> {
    shifted_via(game, army, unit, &[v])
}

/// Every live model of the unit moved along the same bent path: through each of the
/// `offsets` (inches from where the model stands) in turn, ending at the last.
fn shifted_via(game: &Game, army: usize, unit: usize, offsets: &[Vec3]) -> Vec<ModelPath> {
    game.live_models(army, unit)
        .iter()
        .map(|r| {
            let p = game.scene.armies[army].units[r.unit].models[r.model].position;
            ModelPath {
                model: r.model,
                unit: Some(game.unit_id(army, r.unit).to_string()),
                path: offsets
                    .iter()
                    .map(|v| (p.x + v.x, p.y + v.y, 0.0))
                    .collect(),
                facing: None,
            }
        })
        .collect()
}

/// [`shifted_via`] with each model's end moved off any model it would end on (a friendly
/// vehicle in the way, a model of its own unit already placed): to the free spot, of those
/// [`MAKE_ROOM_RINGS_INCHES`] from the end, closest to the unit's end centre that its path
/// still reaches within `allowance` inches. A model with no such spot keeps its end (and
/// the engine refuses the move). `others`: every live model not of the unit
/// ([`others_near`]). `normal` and `hard`.
fn shifted_round(
    game: &Game,
    (army, unit): (usize, usize),
    offsets: &[Vec3],
    allowance: f32,
    others: &[crate::geometry::ModelSolid],
) -> Vec<ModelPath> {
    use crate::geometry::measure::bases_overlap;
    let mut paths = shifted_via(game, army, unit, offsets);
    let mine = game.live_models(army, unit);
    let Some(shift) = offsets.last().map(|v| v.truncate()) else {
        return paths;
    };
    let goal = centre(game, army, unit).truncate() + shift;
    let mut placed: Vec<crate::geometry::ModelSolid> = Vec::new();
    for (r, path) in mine.iter().zip(paths.iter_mut()) {
        let start = game.solid(*r);
        let clash = |s: &crate::geometry::ModelSolid, placed: &[crate::geometry::ModelSolid]| {
            others.iter().chain(placed).any(|o| bases_overlap(s, o))
        };
        let mut end = start;
        end.centre = start.centre + shift;
        if clash(&end, &placed) {
            // The path up to its last turn, then straight to the spot.
            let corners: Vec<Vec3> = offsets[..offsets.len() - 1]
                .iter()
                .map(|v| (start.centre + v.truncate()).extend(0.0))
                .collect();
            let before = path_length(start.centre.extend(0.0), &corners);
            let turn = corners.last().map_or(start.centre, |c| c.truncate());
            let mut spots: Vec<crate::geometry::Vec2> = MAKE_ROOM_RINGS_INCHES
                .iter()
                .flat_map(|&ring| {
                    (0..12).map(move |k| {
                        let a = (k as f32 * 30.0).to_radians();
                        end.centre + crate::geometry::Vec2::new(a.cos(), a.sin()) * ring
                    })
                })
                .filter(|spot| before + turn.distance(*spot) <= allowance)
                .collect();
            spots.sort_by(|a, b| a.distance(goal).total_cmp(&b.distance(goal)));
            if let Some(spot) = spots.into_iter().find(|spot| {
                let mut s = start;
                s.centre = *spot;
                !clash(&s, &placed)
            }) {
                end.centre = spot;
                if let Some(last) = path.path.last_mut() {
                    *last = (spot.x, spot.y, 0.0);
                }
            }
        }
        placed.push(end);
    }
    paths
}

/// The solids of every live model not of the unit (`army`, `unit`) that a model of the unit
/// could touch after moving up to `reach` inches (plus the widest ring of
/// [`MAKE_ROOM_RINGS_INCHES`]): those whose bases come within that of the box round the
/// unit's bases. The rest cannot block any end spot tried, and leaving them out keeps a move's
/// search from growing with the whole table.
fn others_near(
    game: &Game,
    army: usize,
    unit: usize,
    reach: f32,
) -> Vec<crate::geometry::ModelSolid> {
    let mine = game.live_models(army, unit);
    let solids: Vec<crate::geometry::ModelSolid> = mine.iter().map(|r| game.solid(*r)).collect();
    let Some(near) = crate::geometry::SolidsBox::of(&solids) else {
        return Vec::new();
    };
    let ring = MAKE_ROOM_RINGS_INCHES
        .iter()
        .copied()
        .fold(0.0f32, f32::max);
    let reach = reach.max(0.0) + ring + 0.1;
    game.all_live_models()
        .into_iter()
        .filter(|r| !mine.contains(r))
        .map(|r| game.solid(r))
        .filter(|o| near.may_reach(o, reach))
        .collect()
}

/// The Move `cmd` of the unit with each of its models on an oval base or hull that ends more
/// than 1" from `aim` turned at the end to face it (Core Rules: Moving Models); None when no
/// model turns.
fn facing_towards(
    game: &Game,
    (army, unit): (usize, usize),
    cmd: &Command,
    aim: crate::geometry::Vec2,
) -> Option<Command> {
    let Command::Move {
        player,
        unit: id,
        mode,
        paths,
    } = cmd
    else {
        return None;
    };
    let mut turned = false;
    let paths = paths
        .iter()
        .map(|p| {
            let mut p = p.clone();
            let r = ModelRef {
                army,
                unit: p
                    .unit
                    .as_ref()
                    .and_then(|n| game.find_unit(army, n))
                    .unwrap_or(unit),
                model: p.model,
            };
            if let Some(&(x, y, _)) = p.path.last()
                && !game.solid(r).base.is_round()
            {
                let d = aim - crate::geometry::Vec2::new(x, y);
                if d.length() > 1.0 {
                    p.facing = Some(d.y.atan2(d.x).to_degrees());
                    turned = true;
                }
            }
            p
        })
        .collect();
    turned.then(|| Command::Move {
        player: *player,
        unit: id.clone(),
        mode: *mode,
        paths,
    })
}

/// Points per model of an enemy unit (its value), at least 1.
fn value_per_model(game: &Game, army: usize, unit: usize) -> f64 {
    let u = &game.scene.armies[army].units[unit];
    f64::from(u.points.unwrap_or(100)) / u.models.len().max(1) as f64
}

/// The share of its points per wound that `normal` and `hard` count for a wound that destroys
/// no model ([`damage_points`]): half, so a kill still beats the same wounds spread, but a
/// Redemptor that no weapon can destroy this turn is still worth attacking.
pub const CHIP_DAMAGE_SHARE: f64 = 0.5;

/// The points an attack's outcome `d` on the enemy unit (`army`, `unit`) is worth: its
/// models expected destroyed at their points each, plus the other wounds it is expected to
/// deal at [`CHIP_DAMAGE_SHARE`] of the points per wound (points per model over the
/// datasheet's Wounds).
pub fn damage_points(
    game: &Game,
    army: usize,
    unit: usize,
    d: &crate::rules::attack::exact::AttackDistribution,
) -> f64 {
    let per = value_per_model(game, army, unit);
    let wounds = f64::from(game.scene.armies[army].units[unit].datasheet.wounds.max(1));
    let chip = (d.expected_wounds_lost - d.expected_models_destroyed * wounds).max(0.0);
    d.expected_models_destroyed * per + CHIP_DAMAGE_SHARE * chip * per / wounds
}

/// The deploying unit, if the player deploys now.
fn deploy(game: &Game, player: u8) -> Option<Command> {
    game.deploy_next_as_placed(player)
}

/// What every brain does the same way: deploy where the scene stands, end phases with
/// nothing left to do, and the Fight phase's fixed steps; `None` when the brain must choose.
fn common(game: &Game, player: u8) -> Option<Command> {
    if game.pending_shot.is_some() {
        return Some(Command::Pass { player });
    }
    match game.stage {
        Stage::Setup | Stage::Deployment => {
            return Some(deploy(game, player).unwrap_or(Command::EndPhase { player }));
        }
        // The computer makes no Scout moves yet.
        Stage::Scouts | Stage::GameOver => return Some(Command::EndPhase { player }),
        Stage::Battle => {}
    }
    if game.phase == Phase::Command {
        return Some(Command::EndPhase { player });
    }
    None
}

/// Key of a unit's activation this phase, for remembering units that chose to do nothing.
fn key(game: &Game, player: u8, unit: &str) -> String {
    format!("{}/{}/{:?}/{unit}", game.battle_round, player, game.phase)
}

/// The closest pair of models, one of `mine` and one of `theirs`: their distance (inches,
/// base to base) and base centres; None when either list is empty.
fn closest_pair(
    game: &Game,
    mine: &[ModelRef],
    theirs: &[ModelRef],
) -> Option<(f32, crate::geometry::Vec2, crate::geometry::Vec2)> {
    let mut best: Option<(f32, crate::geometry::Vec2, crate::geometry::Vec2)> = None;
    for a in mine {
        for b in theirs {
            let (sa, sb) = (game.solid(*a), game.solid(*b));
            let d = crate::geometry::measure::model_distance(&sa, &sb).distance;
            if best.is_none_or(|(bd, _, _)| d < bd) {
                best = Some((d, sa.centre, sb.centre));
            }
        }
    }
    best
}

/// A move of the whole unit of up to 3" straight towards the closest enemy model, with every
/// model that can reach an enemy model sent into base-to-base contact
/// ([`Game::with_base_contact`]): the longest of 3", 2", 1" and 1/2" that the engine accepts
/// (checked without dice), else no move (no paths). Pile In and Consolidate (Core Rules: Fight
/// phase).
fn three_inch_move(
    game: &Game,
    army: usize,
    unit: usize,
    (keep_objectives, per_model): (bool, bool),
    make: impl Fn(Vec<ModelPath>) -> Command,
) -> Command {
    // `hard`: a unit that alone holds an objective keeps it.
    let keep = if keep_objectives {
        plan::needed_on(game, army, unit)
    } else {
        Vec::new()
    };
    let p = usize::from(game.player_of(army) - 1);
    let keeps = |c: &Command| {
        if keep.is_empty() {
            return legal(game, c);
        }
        trial(game, c).is_some_and(|after| {
            keep.iter().all(|&i| {
                let (l, _) = after.levels_of_control(i);
                l[p] > l[1 - p]
            })
        })
    };
    // `normal` and `hard`: model by model, each to where it fights.
    if per_model
        && let Some(c) = close_in::close_in(game, (army, unit), PILE_IN_INCHES, None, &make)
        && keeps(&c)
    {
        return c;
    }
    let best = closest_pair(
        game,
        &game.live_models(army, unit),
        &game.enemy_models(army),
    );
    if let Some((d, ca, cb)) = best {
        for len in [3.0f32, 2.0, 1.0, 0.5] {
            let len = len.min(d - 0.1);
            if len <= 0.05 {
                continue;
            }
            let v = ((cb - ca).normalize_or_zero() * len).extend(0.0);
            // Models that can touch an enemy model go into base contact (a rule).
            let c = game.with_base_contact(&make(shifted(game, army, unit, v)));
            if keeps(&c) {
                return c;
            }
        }
    }
    make(Vec::new())
}

/// Fight phase: Pile In (up to 3" towards the enemy), fight with the weapons `pick` chooses,
/// Consolidate (likewise); End phase when no one is left to fight.
fn fight_step(
    game: &Game,
    (keep_objectives, per_model): (bool, bool),
    mut pick: impl FnMut(&Game, u8, &str, &[WeaponOption], usize) -> Vec<WeaponTarget>,
) -> Command {
    if let Some(now) = game.fighting_now() {
        let (army, unit) = (now.army, now.unit);
        let id = game.unit_id(army, unit).to_string();
        let p = game.player_of(army);
        if now.next == FightActivation::Consolidate {
            return three_inch_move(game, army, unit, (keep_objectives, per_model), |paths| {
                Command::Consolidate {
                    player: p,
                    unit: id.clone(),
                    paths,
                }
            });
        }
        let weapons = loadout::strongest_melee(game, army, unit);
        let chosen = pick(game, p, &id, &weapons, unit);
        return Command::Fight {
            player: p,
            unit: id,
            weapons: chosen,
        };
    }
    if let Some((picker, ids)) = game.next_to_fight()
        && let Some(id) = ids.first()
        && let Some(army) = game.army_of(picker)
        && let Some(unit) = game.find_unit(army, id)
    {
        let pile_in = |paths| Command::PileIn {
            player: picker,
            unit: id.clone(),
            paths,
        };
        if !game.fight_selection_moves(army, unit) {
            return pile_in(Vec::new());
        }
        return three_inch_move(game, army, unit, (keep_objectives, per_model), pile_in);
    }
    Command::EndPhase {
        player: game.active_player,
    }
}

/// Each weapon option with a random profile at a random legal target.
fn random_assignments(
    game: &Game,
    player: u8,
    id: &str,
    options: &[WeaponOption],
    melee: bool,
    rng: &mut ChaCha8Rng,
) -> Vec<WeaponTarget> {
    assignments(game, player, id, options, melee, |n| rng.random_range(0..n))
}

/// Each weapon option (its first profile) at the first target the engine allows it.
fn first_targets(
    game: &Game,
    player: u8,
    id: &str,
    options: &[WeaponOption],
    melee: bool,
) -> Vec<WeaponTarget> {
    assignments(game, player, id, options, melee, |_| 0)
}

/// Each weapon option at a legal target: `pick(n)` chooses one of the option's `n` profiles,
/// then one of the `n` targets the engine allows it (an option with none is left out).
fn assignments(
    game: &Game,
    player: u8,
    id: &str,
    options: &[WeaponOption],
    melee: bool,
    mut pick: impl FnMut(usize) -> usize,
) -> Vec<WeaponTarget> {
    let mut out = Vec::new();
    for o in options {
        let choices = o.profile_choices();
        let profile = choices[pick(choices.len())];
        let targets = game.legal_targets(player, id, &o.label(profile), melee);
        if !targets.is_empty() {
            out.push(o.at(&targets[pick(targets.len())], profile));
        }
    }
    out
}

/// The largest prefix of `picked` that the engine accepts together (checked without dice).
fn accepted_prefix(
    game: &Game,
    mut picked: Vec<WeaponTarget>,
    make: impl Fn(Vec<WeaponTarget>) -> Command,
) -> Vec<WeaponTarget> {
    while !picked.is_empty() && !legal(game, &make(picked.clone())) {
        picked.pop();
    }
    picked
}

/// The computer opponent, at one of the difficulty [`Level`]s.
#[derive(Debug, Clone)]
pub struct Ai {
    /// How strongly it plays.
    pub level: Level,
    /// Inches of distance that being seen by every enemy shooter at a move's end is worth
    /// ([`COVER_WEIGHT_INCHES`]; 0 ignores cover).
    pub cover_weight_inches: f32,
    passed: HashSet<String>,
    /// The Advance roll the unit that just rolled to Advance needs (army, unit, roll).
    advance_need: Option<(usize, usize, u8)>,
    /// The enemy shooters of the phase being played (key: round/player/phase).
    exposure: Option<(String, Arc<cover::Exposure>)>,
    /// Under 11th, the enemy unit a charge was declared for (charging unit id, target id):
    /// chosen after the roll when the roll reaches it.
    charge_intent: Option<(String, String)>,
    /// The units sent to score the cards that ask for a place this Movement phase.
    cards: cards::CardPlan,
}

impl Default for Ai {
    fn default() -> Self {
        Ai {
            level: Level::Easy,
            cover_weight_inches: COVER_WEIGHT_INCHES,
            passed: HashSet::new(),
            advance_need: None,
            exposure: None,
            charge_intent: None,
            cards: cards::CardPlan::default(),
        }
    }
}

impl Ai {
    /// A new opponent at the `easy` level (the first computer player).
    pub fn new() -> Self {
        Ai::default()
    }

    /// A new opponent at `level`.
    pub fn with_level(level: Level) -> Self {
        Ai {
            level,
            ..Ai::default()
        }
    }

    /// An opponent that weighs enemy sight of its moves' ends by `inches` when every shooter
    /// sees the end (0: it ignores cover, for comparisons).
    pub fn with_cover_weight(inches: f32) -> Self {
        Ai {
            cover_weight_inches: inches,
            ..Ai::default()
        }
    }

    /// Each weapon option (the unit's legal loadout, [`Game::weapon_options`]) at the
    /// target and with the profile that give the highest exact expected points destroyed.
    fn best_targets(
        &self,
        game: &Game,
        player: u8,
        id: &str,
        options: &[WeaponOption],
        melee: bool,
    ) -> Vec<WeaponTarget> {
        self.scored_targets(game, player, id, options, melee).1
    }

    /// [`Ai::best_targets`] with the sum of the chosen assignments' expected points: models
    /// destroyed, and at `normal` the wounds that destroy none too ([`damage_points`]).
    fn scored_targets(
        &self,
        game: &Game,
        player: u8,
        id: &str,
        options: &[WeaponOption],
        melee: bool,
    ) -> (f64, Vec<WeaponTarget>) {
        let chip = self.level > Level::Easy;
        let Some(earmy) = game.army_of(opponent(player)) else {
            return (0.0, Vec::new());
        };
        let targets: Vec<(usize, String)> = game
            .unit_roots(earmy)
            .into_iter()
            .filter(|&u| !game.live_models(earmy, u).is_empty())
            .map(|u| (u, game.unit_id(earmy, u).to_string()))
            .collect();
        let mut out = Vec::new();
        let mut total = 0.0;
        for o in options {
            let profiles = o.profile_choices();
            let best = targets
                .iter()
                .flat_map(|(u, t)| profiles.iter().map(move |p| (*u, t, *p)))
                .filter_map(|(unit, t, p)| {
                    let wt = o.at(t, p);
                    let preview = game
                        .preview_attacks(player, id, std::slice::from_ref(&wt), melee)
                        .ok()?;
                    let value: f64 = preview
                        .iter()
                        .map(|p| {
                            if chip {
                                damage_points(game, earmy, unit, &p.distribution)
                            } else {
                                p.distribution.expected_models_destroyed
                                    * value_per_model(game, earmy, unit)
                            }
                        })
                        .sum();
                    Some((value, wt))
                })
                .max_by(|a, b| a.0.total_cmp(&b.0));
            if let Some((score, wt)) = best
                && score > 0.0
            {
                total += score;
                out.push(wt);
            }
        }
        (total, out)
    }

    /// Objectives claimed by this player's units this phase (by index).
    fn claimed(&self, game: &Game, player: u8) -> Vec<usize> {
        (0..game.scene.objectives.len())
            .filter(|&i| self.claims(game, player, i) > 0)
            .collect()
    }

    fn claim(&mut self, game: &Game, player: u8, objective: usize) {
        let first = key(game, player, &format!("objective-{objective}"));
        if !self.passed.insert(first) {
            // A second unit on the same objective (`normal`, `hard`: a contested one).
            self.passed
                .insert(key(game, player, &format!("objective-{objective}-2")));
        }
    }

    /// How many of this player's units claimed the objective this phase (0 to 2).
    fn claims(&self, game: &Game, player: u8, objective: usize) -> usize {
        ["", "-2"]
            .iter()
            .filter(|suffix| {
                self.passed.contains(&key(
                    game,
                    player,
                    &format!("objective-{objective}{suffix}"),
                ))
            })
            .count()
    }

    /// The enemy shooters of this phase, worked out once per phase.
    fn exposure(&mut self, game: &Game, player: u8) -> Arc<cover::Exposure> {
        let k = key(game, player, "exposure");
        match &self.exposure {
            Some((at, e)) if *at == k => e.clone(),
            _ => {
                let e = Arc::new(cover::Exposure::new(game, player));
                self.exposure = Some((k, e.clone()));
                e
            }
        }
    }

    /// A Normal move of the unit towards `to`, aiming to end within `stop_short` inches of it
    /// (`close_enough` inches from that aim count as arrived): of the straight moves at up to
    /// 75° either side of the direct line and 1, 3/4 or 1/2 of the reach, the legal one
    /// (checked without dice) with the least distance still to go beyond `close_enough` plus
    /// `cover_weight_inches` times the share of enemy shooters that would see it there in the
    /// open. Where none is legal, `normal` and `hard` try moves that leave at
    /// [`BEND_DEGREES`] and turn towards the aim, and, for a unit that cannot pass through
    /// ruin walls, routes round them ([`route::Field::routes`]), each model ending off any
    /// model it would end on ([`shifted_round`]). None when no move gains at least half an
    /// inch.
    ///
    /// `normal` and `hard`, for a unit that cannot pass through ruin walls, measure the
    /// distance still to go round the walls ([`route::Field::to_go_at`]), not as the crow
    /// flies; and a model on an oval base or hull ends the move facing `to` (Core Rules:
    /// Moving Models, a model may turn at the end of its move), so that it goes lengthwise
    /// through the next gap. Together, `hard` against `easy` (24 layout pairings, 100 games
    /// each, seeds 1000-4000): 91.9-93.7% of decided games won before, 94.6-95.4% after; the
    /// weakest pairing over the 4 seeds (layout 6, Ultramarines against Orks) 78.1% -> 79.3%.
    fn move_towards(
        &mut self,
        game: &Game,
        player: u8,
        unit: (usize, usize),
        to: Vec3,
        stop: (f32, f32),
    ) -> Option<Command> {
        self.move_towards_with(game, player, unit, to, stop, None)
    }

    /// [`Ai::move_towards`] with `penalty`: inches added to each candidate's score for the
    /// unit's shift (the `hard` player's lookahead); None adds nothing.
    fn move_towards_with(
        &mut self,
        game: &Game,
        player: u8,
        (army, u): (usize, usize),
        to: Vec3,
        (stop_short, close_enough): (f32, f32),
        penalty: Option<&dyn Fn(Vec3) -> f32>,
    ) -> Option<Command> {
        let from = centre(game, army, u);
        let dir = (to - from).truncate();
        let want = (dir.length() - stop_short).max(0.0);
        // After an Advance roll the move is that Advance, the roll added to the Move.
        let (mode, roll) = match game.advance_roll {
            Some((a, b, r)) if (a, b) == (army, u) => (MoveMode::Advance, f32::from(r)),
            _ => (MoveMode::Normal, 0.0),
        };
        let m = game.unit_move_inches(army, u) + roll;
        let reach = (m - 0.1).min(want);
        if reach <= 0.5 {
            return None;
        }
        let aim = dir.normalize() * want;
        // A model that cannot pass through ruin walls (`normal`, `hard`) measures what is
        // left to go through the walls' grid ([`route::Field`]), so that a move into a dead
        // end behind a wall does not look close.
        let walled = self.level != Level::Easy
            && !["INFANTRY", "BEAST", "FLY"]
                .iter()
                .any(|k| game.has_keyword(army, u, k));
        let field = if walled {
            route::Field::new(game, (army, u), to.truncate())
        } else {
            None
        };
        let left_from = |v: crate::geometry::Vec2| -> f32 {
            match &field {
                Some(f) => f.to_go_at(from.truncate() + v) - stop_short,
                None => (aim - v).length(),
            }
        };
        let mut candidates = Vec::new();
        for angle in [0.0f32, 25.0, -25.0, 50.0, -50.0, 75.0, -75.0] {
            for f in [1.0, 0.75, 0.5] {
                let v = rotated(dir.normalize() * reach * f, angle);
                if (dir - v).length() > dir.length() - 0.5 {
                    continue;
                }
                candidates.push(((left_from(v) - close_enough).max(0.0), vec![v]));
            }
        }
        let allowance = m - 0.1;
        // Oval bases and hulls end the move facing the aim (`normal`, `hard`): the next
        // move towards it then goes lengthwise through the gaps between ruins.
        let face = (self.level != Level::Easy).then(|| to.truncate());
        let mut best = self.best_move(
            game,
            player,
            (army, u),
            (mode, allowance, face),
            candidates,
            penalty,
        );
        if best.is_none() && self.level != Level::Easy {
            // No straight move: paths that leave at an angle and turn back towards the aim
            // (round a wall, a ruin's corner or a unit in the way).
            let mut bent = Vec::new();
            for angle in BEND_DEGREES {
                for share in BEND_LEG_SHARES {
                    let leg = rotated(dir.normalize() * allowance * share, angle);
                    let rest = aim - leg;
                    let end = leg
                        + rest.normalize_or_zero() * rest.length().min(allowance - leg.length());
                    if (dir - end).length() > dir.length() - 0.5 {
                        continue;
                    }
                    bent.push(((left_from(end) - close_enough).max(0.0), vec![leg, end]));
                }
            }
            // A model that cannot pass through ruin walls: routes round them.
            if let Some(f) = &field {
                bent.extend(
                    f.routes(from.truncate(), allowance)
                        .into_iter()
                        .map(|(to_go, legs)| ((to_go - stop_short - close_enough).max(0.0), legs)),
                );
            }
            best = self.best_move(
                game,
                player,
                (army, u),
                (mode, allowance, face),
                bent,
                penalty,
            );
        }
        best.map(|(_, c)| c)
    }

    /// Of the `candidates` (inches still to go, the unit's shift through its waypoints), the
    /// legal move (checked without dice) with the least inches to go plus
    /// `cover_weight_inches` times the share of enemy shooters that would see it there in
    /// the open, plus `penalty` of the end shift; None when none is legal. With `face`,
    /// models on oval bases and hulls end each candidate facing that point where the engine
    /// accepts it there, else keep their facing.
    fn best_move(
        &mut self,
        game: &Game,
        player: u8,
        (army, u): (usize, usize),
        (mode, allowance, face): (MoveMode, f32, Option<crate::geometry::Vec2>),
        mut candidates: Vec<(f32, Vec<crate::geometry::Vec2>)>,
        penalty: Option<&dyn Fn(Vec3) -> f32>,
    ) -> Option<(f32, Command)> {
        candidates.sort_by(|a, b| a.0.total_cmp(&b.0));
        let exposure = self.exposure(game, player);
        let id = game.unit_id(army, u).to_string();
        let others = (self.level != Level::Easy).then(|| others_near(game, army, u, allowance));
        let mut best: Option<(f32, Command)> = None;
        for (left, legs) in candidates {
            let Some(v) = legs.last().copied() else {
                continue;
            };
            // Candidates come nearest first: none left can beat the best found.
            if best.as_ref().is_some_and(|(b, _)| left >= *b) {
                break;
            }
            // The penalty comes first: a candidate that cannot beat the best found even in
            // full cover is neither checked nor looked at from the enemy's side.
            let extra = penalty.map(|p| p(v.extend(0.0)));
            if best
                .as_ref()
                .is_some_and(|(b, _)| extra.map_or(left, |e| left + e) >= *b)
            {
                continue;
            }
            let offsets: Vec<Vec3> = legs.iter().map(|l| l.extend(0.0)).collect();
            let mut cmd = Command::Move {
                player,
                unit: id.clone(),
                mode,
                paths: match &others {
                    None => shifted_via(game, army, u, &offsets),
                    Some(others) => shifted_round(game, (army, u), &offsets, allowance, others),
                },
            };
            let turned = face.and_then(|aim| facing_towards(game, (army, u), &cmd, aim));
            match turned {
                Some(t) if legal(game, &t) => cmd = t,
                _ if legal(game, &cmd) => {}
                _ => continue,
            }
            let mut score = if self.cover_weight_inches > 0.0 {
                let seen = exposure.seen_by(game, army, u, v.extend(0.0));
                left + self.cover_weight_inches * seen as f32 / exposure.shooters().max(1) as f32
            } else {
                left
            };
            if let Some(e) = extra {
                score += e;
            }
            if best.as_ref().is_none_or(|(b, _)| score < *b) {
                best = Some((score, cmd));
            }
        }
        best
    }

    /// Movement: a unit on an objective no friend holds this turn stays to hold it; others go
    /// to the closest objective no friend has claimed, else towards the closest enemy (within
    /// 24", stopping 3" short); engaged units stay.
    fn movement(&mut self, game: &Game, player: u8) -> Command {
        let army = game.army_of(player).expect("player has an army");
        let range = crate::rules::constants::OBJECTIVE_RANGE_HORIZONTAL_INCHES;
        for u in roots(game, player) {
            if game.units[army][u].moved.is_some() {
                continue;
            }
            let id = game.unit_id(army, u).to_string();
            let stay = Command::RemainStationary {
                player,
                unit: id.clone(),
            };
            if game.engaged(army, u) {
                return stay;
            }
            let from = centre(game, army, u);
            let claimed = self.claimed(game, player);
            let objectives: Vec<(usize, Vec3)> = game
                .scene
                .objectives
                .iter()
                .enumerate()
                .filter(|(i, _)| !claimed.contains(i))
                .map(|(i, o)| (i, Vec3::new(o.at.0, o.at.1, 0.0)))
                .collect();
            let near = |p: &Vec3| (*p - from).truncate().length();
            if let Some(&(i, _)) = objectives.iter().find(|(_, p)| near(p) <= range - 0.5) {
                self.claim(game, player, i);
                return stay;
            }
            if let Some(&(i, p)) = objectives
                .iter()
                .min_by(|a, b| near(&a.1).total_cmp(&near(&b.1)))
            {
                self.claim(game, player, i);
                let arrived = 0.5;
                if let Some(c) = self.move_towards(game, player, (army, u), p, (0.0, arrived)) {
                    return c;
                }
            }
            let earmy = game.army_of(opponent(player)).expect("two armies");
            let closest = roots(game, opponent(player))
                .into_iter()
                .map(|e| (e, game.unit_distance((army, u), (earmy, e))))
                .min_by(|a, b| a.1.total_cmp(&b.1));
            if let Some((e, d)) = closest
                && d < 24.0
            {
                let c = centre(game, earmy, e);
                let short = d.min(3.0 + (c - from).truncate().length() - d);
                if let Some(m) = self.move_towards(game, player, (army, u), c, (short, 1.0)) {
                    return m;
                }
            }
            return stay;
        }
        Command::EndPhase { player }
    }

    /// The Shooting phase: each unit's weapons at the targets its level picks
    /// ([`Ai::scored_targets`]; `hard`: [`plan::focused_targets`]); at `normal` and `hard` a
    /// GRENADES unit throws a Grenade instead when that is worth more than its guns; a unit
    /// with nothing to shoot at performs a mission action if it can.
    fn shooting(&mut self, game: &Game, player: u8) -> Command {
        let army = game.army_of(player).expect("player has an army");
        for u in roots(game, player) {
            let id = game.unit_id(army, u).to_string();
            if game.units[army][u].shot || self.passed.contains(&key(game, player, &id)) {
                continue;
            }
            let weapons = game.weapon_options(army, u, false);
            let (value, picked) = if self.level == Level::Hard {
                plan::focused_targets(game, player, &id, &weapons, false)
            } else {
                self.scored_targets(game, player, &id, &weapons, false)
            };
            if self.level > Level::Easy
                && let Some((g, c)) = tactics::grenade(game, player, (army, u))
                && g > value * tactics::GRENADE_OVER_SHOOTING
            {
                return c;
            }
            // normal and hard: a secondary card's action that is expected to score more
            // than the unit's shooting is worth.
            if self.level > Level::Easy
                && let Some((vp, c)) = mission::scoring_action(game, player, &id)
                && f64::from(vp) * mission::POINTS_PER_VP > value
            {
                return c;
            }
            let make = |weapons| Command::Shoot {
                player,
                unit: id.clone(),
                weapons,
            };
            let picked = accepted_prefix(game, picked, make);
            if self.level == Level::Hard
                && !picked.is_empty()
                && let Some(c) = tactics::wound_reroll(game, player, &id, value)
            {
                return c;
            }
            if picked.is_empty() {
                // Nothing to shoot at: an action of the mission instead, if one is possible
                // (normal and hard: a primary mission's action, the secondary cards' being
                // weighed above).
                let action = if self.level > Level::Easy {
                    mission::primary_action_for(game, player, &id)
                } else {
                    mission::action_for(game, player, &id)
                };
                if let Some(action) = action {
                    return action;
                }
                self.passed.insert(key(game, player, &id));
                continue;
            }
            return Command::Shoot {
                player,
                unit: id,
                weapons: picked,
            };
        }
        Command::EndPhase { player }
    }

    fn charge(&mut self, game: &Game, player: u8) -> Command {
        let army = game.army_of(player).expect("player has an army");
        let earmy = game.army_of(opponent(player)).expect("two armies");
        if let Some(pending) = game.charge.as_ref().filter(|c| c.army == army) {
            return self.charge_move(
                game,
                player,
                pending.unit,
                &pending.targets.clone(),
                pending.dice,
            );
        }
        for u in roots(game, player) {
            let id = game.unit_id(army, u).to_string();
            if game.units[army][u].declared_charge || self.passed.contains(&key(game, player, &id))
            {
                continue;
            }
            self.passed.insert(key(game, player, &id));
            if game.weapon_options(army, u, true).is_empty() {
                continue;
            }
            let best = roots(game, opponent(player))
                .into_iter()
                .filter(|&e| {
                    game.unit_distance((army, u), (earmy, e)) <= game.charge_range_inches()
                })
                .filter_map(|e| {
                    let t = game.unit_id(earmy, e).to_string();
                    let odds = game
                        .charge_odds(player, &id, std::slice::from_ref(&t))
                        .ok()?;
                    Some((odds.probability, t))
                })
                .max_by(|a, b| a.0.total_cmp(&b.0));
            if let Some((p, t)) = best
                && p >= CHARGE_ODDS_THRESHOLD
            {
                // 11th: declared without targets; they are chosen after the roll.
                let targets = if game.scene.edition().charge_targets_after_roll {
                    Vec::new()
                } else {
                    vec![t.clone()]
                };
                let c = Command::DeclareCharge {
                    player,
                    unit: id.clone(),
                    targets,
                };
                if legal(game, &c) {
                    self.charge_intent = Some((id, t));
                    return c;
                }
            }
        }
        Command::EndPhase { player }
    }

    fn charge_move(
        &mut self,
        game: &Game,
        player: u8,
        u: usize,
        targets: &[usize],
        dice: [u8; 2],
    ) -> Command {
        let army = game.army_of(player).expect("player has an army");
        let earmy = game.army_of(opponent(player)).expect("two armies");
        let id = game.unit_id(army, u).to_string();
        let roll = game
            .charge
            .as_ref()
            .map_or(f32::from(dice[0] + dice[1]), |c| c.distance());
        // 11th: the targets are chosen after the roll: the unit the charge was declared for
        // when the roll reaches it, else the nearest enemy unit it reaches (or, before a
        // re-roll, the one it was declared for, else the nearest within 12").
        let after_roll = game.scene.edition().charge_targets_after_roll;
        let chosen: Vec<usize> = if after_roll {
            let intent = self
                .charge_intent
                .as_ref()
                .filter(|(unit, _)| *unit == id)
                .map(|(_, t)| t.clone());
            let in_reach = game.charge_targets_in_reach(army, u, roll);
            let pick = intent
                .clone()
                .filter(|t| in_reach.contains(t))
                .or_else(|| in_reach.first().cloned())
                .or(intent)
                .or_else(|| game.charge_targets(army, u).first().map(|t| t.unit.clone()));
            pick.and_then(|t| game.enemy_unit(player, &t).ok().map(|(_, x)| x))
                .into_iter()
                .collect()
        } else {
            targets.to_vec()
        };
        let targets = &chosen[..];
        let names: Vec<String> = targets
            .iter()
            .map(|&t| game.unit_id(earmy, t).to_string())
            .collect();
        let move_targets = if after_roll {
            names.clone()
        } else {
            Vec::new()
        };
        let needed = game
            .charge_odds(player, &id, &names)
            .map_or(13, |o| o.needed);
        // A failed roll: one Command Re-roll, when CP allow (normal and hard: only for a
        // roll that can still succeed, by a unit whose fight is worth a CP).
        let reroll = tactics::command_reroll(player, &id, RerollRoll::Charge);
        let rerolled = self.passed.contains(&key(game, player, "reroll"));
        let worth = self.level == Level::Easy
            || (needed <= 12
                && targets.iter().any(|&t| {
                    tactics::rough_unit_points(game, (army, u), (earmy, t), true, None)
                        >= tactics::CHARGE_REROLL_MIN_POINTS
                }));
        if u32::from(dice[0] + dice[1]) < needed && !rerolled && worth {
            self.passed.insert(key(game, player, "reroll"));
            if game.cp_of(player) >= 1 && legal(game, &reroll) {
                return reroll;
            }
        }
        if self.level > Level::Easy
            && let Some(c) = close_in::close_in(game, (army, u), roll, Some(targets), |paths| {
                Command::ChargeMove {
                    player,
                    unit: id.clone(),
                    paths,
                    targets: move_targets.clone(),
                }
            })
        {
            return c;
        }
        let (mine, theirs) = (
            game.live_models(army, u),
            targets
                .iter()
                .flat_map(|&t| game.live_models(earmy, t))
                .collect::<Vec<_>>(),
        );
        if let Some((dist, ca, cb)) = closest_pair(game, &mine, &theirs) {
            for gap in [0.5, 0.8, 0.2] {
                let len = dist - gap;
                if len <= 0.0 || len > roll {
                    continue;
                }
                let v = ((cb - ca).normalize() * len).extend(0.0);
                let c = game.with_base_contact(&Command::ChargeMove {
                    player,
                    unit: id.clone(),
                    paths: shifted(game, army, u, v),
                    targets: move_targets.clone(),
                });
                if legal(game, &c) {
                    return c;
                }
            }
        }
        Command::ChargeMove {
            player,
            unit: id,
            paths: Vec::new(),
            targets: Vec::new(),
        }
    }
}

impl Brain for Ai {
    fn next(&mut self, game: &Game, player: u8) -> Command {
        // The choices its army's rules give, in its Command phase (every level).
        if let Some(c) = army_rules::rule_choice(game, player) {
            return c;
        }
        // normal and hard issue the Orders their army rules give (Voice of Command).
        if self.level > Level::Easy
            && let Some(c) = army_rules::order_now(game, player)
        {
            return c;
        }
        let c = self.next_command(game, player);
        // normal and hard spend army rule tokens (Battle Focus), lost when unspent.
        if self.level > Level::Easy
            && let Some(m) = army_rules::manoeuvre_before(game, player, &c)
        {
            return m;
        }
        // normal and hard spend CP on a Detachment Stratagem that pays before the attacks.
        if self.level > Level::Easy
            && let Some(s) = army_rules::stratagem_before(game, player, &c)
        {
            return s;
        }
        c
    }

    fn react(&mut self, game: &Game, player: u8) -> Option<Command> {
        if self.level == Level::Easy || game.pending_shot.is_some() {
            return None;
        }
        self.react_plus(game, player)
    }
}

impl Ai {
    /// The next command before any Detachment Stratagem ([`Brain::next`]).
    fn next_command(&mut self, game: &Game, player: u8) -> Command {
        if game.pending_shot.is_some() {
            let min_saved = react::shroud_threshold(game, player, self.level);
            return react::shroud_reaction(game, player, min_saved)
                .unwrap_or(Command::Pass { player });
        }
        // A secondary card just drawn that cannot score this turn goes back when its "when
        // drawn" clause allows.
        if game.stage == Stage::Battle
            && game.phase == Phase::Command
            && game.active_player == player
            && let Some(c) = mission::redraw(game, player)
        {
            return c;
        }
        // normal and hard choose their units' order of losses as they set up.
        if self.level > Level::Easy
            && matches!(game.stage, Stage::Setup | Stage::Deployment)
            && let Some(c) = react::order_of_losses(game, player)
        {
            return c;
        }
        if self.level > Level::Easy
            && let Some(c) = self.next_plus(game, player)
        {
            return c;
        }
        if let Some(c) = common(game, player) {
            return c;
        }
        match game.phase {
            Phase::Movement => self.movement(game, player),
            Phase::Shooting => self.shooting(game, player),
            Phase::Charge => self.charge(game, player),
            Phase::Fight => self.fight(game, player),
            Phase::Command => Command::EndPhase { player },
        }
    }

    /// The Fight phase: Pile In, fight with the best weapons at the best targets (`hard`:
    /// [`plan::focused_targets`]), Consolidate; before ending its turn, a Tactical card that
    /// will not score is discarded for a CP.
    fn fight(&mut self, game: &Game, player: u8) -> Command {
        let hard = self.level == Level::Hard;
        let engaged_anyway = self.level > Level::Easy;
        let c = fight_step(
            game,
            (hard, self.level > Level::Easy),
            |g, p, id, weapons, _| {
                let mut picked = if hard {
                    plan::focused_targets(g, p, id, weapons, true).1
                } else {
                    self.best_targets(g, p, id, weapons, true)
                };
                // Never an empty fight while an enemy is in reach: each weapon at its first
                // legal target.
                if engaged_anyway && picked.is_empty() {
                    picked = first_targets(g, p, id, weapons, true);
                }
                let make = |weapons| Command::Fight {
                    player: p,
                    unit: id.to_string(),
                    weapons,
                };
                accepted_prefix(g, picked, make)
            },
        );
        // The turn is about to end: a Tactical card that will not score goes for a CP.
        if c == (Command::EndPhase { player })
            && game.active_player == player
            && let Some(discard) = mission::discard_for_cp(game, player)
        {
            return discard;
        }
        c
    }

    /// What `normal` and `hard` do differently from `easy`; None where they play alike.
    fn next_plus(&mut self, game: &Game, player: u8) -> Option<Command> {
        match game.stage {
            Stage::Setup | Stage::Deployment => return Some(self.setup_plus(game, player)),
            Stage::Scouts => return Some(self.scouts_plus(game, player)),
            Stage::Battle => {}
            Stage::GameOver => return None,
        }
        Some(match game.phase {
            Phase::Command => {
                tactics::insane_bravery(game, player).unwrap_or(Command::EndPhase { player })
            }
            Phase::Movement => self.movement_plus(game, player),
            Phase::Shooting => self.shooting(game, player),
            Phase::Charge => self.charge_plus(game, player),
            Phase::Fight => {
                // An Epic Challenge for a CHARACTER about to fight an Attached unit.
                if let Some(now) = game.fighting_now()
                    && now.next == FightActivation::Attacks
                    && game.player_of(now.army) == player
                    && let Some(c) = tactics::epic_challenge(game, player, (now.army, now.unit))
                {
                    return Some(c);
                }
                self.fight(game, player)
            }
        })
    }
}

/// A player making random legal choices: random moves (a random direction and distance up
/// to its Move, else Remain Stationary), each weapon at a random legal target, charges at
/// random against units in reach, random melee targets.
#[derive(Debug, Clone)]
pub struct RandomPlayer {
    rng: ChaCha8Rng,
    passed: HashSet<String>,
}

impl RandomPlayer {
    /// A random player with its own seeded choices (not the game's dice).
    pub fn new(seed: u64) -> Self {
        RandomPlayer {
            rng: ChaCha8Rng::seed_from_u64(seed),
            passed: HashSet::new(),
        }
    }

    fn pick_targets(
        &mut self,
        game: &Game,
        player: u8,
        id: &str,
        options: &[WeaponOption],
        melee: bool,
    ) -> Vec<WeaponTarget> {
        random_assignments(game, player, id, options, melee, &mut self.rng)
    }
}

impl Brain for RandomPlayer {
    fn next(&mut self, game: &Game, player: u8) -> Command {
        if let Some(c) = common(game, player) {
            return c;
        }
        let army = game.army_of(player).expect("player has an army");
        match game.phase {
            Phase::Movement => {
                for u in roots(game, player) {
                    if game.units[army][u].moved.is_some() {
                        continue;
                    }
                    let id = game.unit_id(army, u).to_string();
                    let m = game.unit_move_inches(army, u);
                    for _ in 0..4 {
                        let a = self.rng.random_range(0.0..std::f32::consts::TAU);
                        let d = self.rng.random_range(0.0..m.max(0.2));
                        let c = Command::Move {
                            player,
                            unit: id.clone(),
                            mode: MoveMode::Normal,
                            paths: shifted(game, army, u, Vec3::new(a.cos() * d, a.sin() * d, 0.0)),
                        };
                        if !game.engaged(army, u) && legal(game, &c) {
                            return c;
                        }
                    }
                    return Command::RemainStationary { player, unit: id };
                }
                Command::EndPhase { player }
            }
            Phase::Shooting => {
                for u in roots(game, player) {
                    let id = game.unit_id(army, u).to_string();
                    if game.units[army][u].shot || self.passed.contains(&key(game, player, &id)) {
                        continue;
                    }
                    self.passed.insert(key(game, player, &id));
                    let weapons = game.weapon_options(army, u, false);
                    let picked = self.pick_targets(game, player, &id, &weapons, false);
                    let make = |weapons| Command::Shoot {
                        player,
                        unit: id.clone(),
                        weapons,
                    };
                    let picked = accepted_prefix(game, picked, make);
                    if !picked.is_empty() {
                        return Command::Shoot {
                            player,
                            unit: id,
                            weapons: picked,
                        };
                    }
                }
                Command::EndPhase { player }
            }
            Phase::Charge => {
                if let Some(pending) = game.charge.as_ref().filter(|c| c.army == army) {
                    // A random player makes no charge move: the charge fails.
                    return Command::ChargeMove {
                        player,
                        unit: game.unit_id(army, pending.unit).to_string(),
                        paths: Vec::new(),
                        targets: Vec::new(),
                    };
                }
                Command::EndPhase { player }
            }
            Phase::Fight => {
                let mut rng = self.rng.clone();
                let c = fight_step(game, (false, false), |g, p, id, weapons, _| {
                    let mut picked = Vec::new();
                    picked.extend(random_assignments(g, p, id, weapons, true, &mut rng));
                    let make = |weapons| Command::Fight {
                        player: p,
                        unit: id.to_string(),
                        weapons,
                    };
                    accepted_prefix(g, picked, make)
                });
                self.rng = rng;
                c
            }
            Phase::Command => Command::EndPhase { player },
        }
    }
}

/// How a game between two brains went.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct GameRecord {
    /// The dice seed.
    pub seed: u64,
    /// Winner (None: a draw).
    pub winner: Option<u8>,
    /// Victory points of players 1 and 2.
    pub vp: [u32; 2],
    /// Points of each player's units destroyed by the end (player 1's units first).
    pub destroyed_points: [u32; 2],
    /// Commands accepted (reactions included).
    pub commands: usize,
    /// Reactions accepted (Go to Ground, Smokescreen in the opponent's turn).
    pub reactions: usize,
    /// Commands the engine refused (each with its reason).
    pub rejected: Vec<String>,
    /// The final state hash.
    pub state_hash: String,
    /// Every accepted command in order (reactions and the commands that moved the game on
    /// after a refusal included): with the scene and seed, a replayable save.
    #[serde(skip)]
    pub log: Vec<Command>,
    /// What happened: charges, Command points, Stratagems, objectives per round.
    pub stats: GameStats,
}

/// Plays a whole game on `scene` with dice seed `seed`, `brains[0]` as player 1. Before each
/// command the player not acting may react ([`Brain::react`]).
pub fn play_game(scene: Scene, seed: u64, brains: [&mut dyn Brain; 2]) -> (Game, GameRecord) {
    let (mut game, start_events) = Game::start(scene, seed);
    let mut stats = GameStats::default();
    stats.record(&game, &start_events);
    let mut commands = 0;
    let mut reactions = 0;
    let mut rejected = Vec::new();
    let mut log = Vec::new();
    // Carries out an accepted command's bookkeeping: the log, and both brains told.
    let mut accepted = |c: &Command, brains: &mut [&mut dyn Brain; 2]| {
        log.push(c.clone());
        for b in brains.iter_mut() {
            b.observe(c);
        }
    };
    let mut brains = brains;
    while let Some(player) = game.acting_player() {
        if commands + rejected.len() >= COMMAND_LIMIT {
            rejected.push("command limit reached".to_string());
            break;
        }
        // The other player's reactions first (a Stratagem and what follows it, Reserves in
        // set-up), a few at most.
        for _ in 0..MAX_REACTIONS_PER_COMMAND {
            let other = opponent(player);
            let Some(r) = brains[usize::from(other - 1)].react(&game, other) else {
                break;
            };
            match game.apply(&r) {
                Ok(events) => {
                    stats.record(&game, &events);
                    accepted(&r, &mut brains);
                    commands += 1;
                    reactions += 1;
                }
                Err(why) => {
                    brains[usize::from(other - 1)].refused(&why.to_string());
                    rejected.push(format!("{} ({}): {why}", r.kind(), game.describe_now()));
                    break;
                }
            }
            if game.acting_player() != Some(player) {
                break;
            }
        }
        let Some(player) = game.acting_player() else {
            break;
        };
        let c = brains[usize::from(player - 1)].next(&game, player);
        let reaction = game.pending_shot.is_some() && matches!(c, Command::UseStratagem { .. });
        match game.apply(&c) {
            Ok(events) => {
                stats.record(&game, &events);
                accepted(&c, &mut brains);
                commands += 1;
                reactions += usize::from(reaction);
            }
            Err(r) => {
                brains[usize::from(player - 1)].refused(&r.to_string());
                rejected.push(format!("{} ({}): {r}", c.kind(), game.describe_now()));
                // Move the game on so that one bad answer cannot loop forever.
                let end = unstick(&game);
                if game.apply(&end).is_err() {
                    break;
                }
                accepted(&end, &mut brains);
            }
        }
    }
    // An outside player's own failures (a reply that is not a command, a process that
    // stopped) count as refusals too.
    for b in brains.iter_mut() {
        rejected.extend(b.finish(&game));
    }
    stats.finish(&game);
    let destroyed = |player: u8| -> u32 {
        game.army_of(player).map_or(0, |a| {
            (0..game.units[a].len())
                .filter(|&u| game.live_models_anywhere(a, u).is_empty())
                .map(|u| game.scene.armies[a].units[u].points.unwrap_or(0))
                .sum()
        })
    };
    let record = GameRecord {
        seed,
        winner: game.winner,
        vp: game.vp,
        destroyed_points: [destroyed(1), destroyed(2)],
        commands,
        reactions,
        rejected,
        state_hash: game.state_hash(),
        log,
        stats,
    };
    (game, record)
}
