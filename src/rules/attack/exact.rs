//! Exact probability distributions of an attack's outcome: no sampling.
//!
//! The process is the one [`super::roll`] rolls (see [`super`]), split into stages that each
//! have an exact finite distribution:
//!
//! 1. Hit stage, per weapon group: the number of attacks (a sum of the bearers' Attacks dice)
//!    and, per attack, the hits that need a Wound roll and the LETHAL HITS automatic wounds
//!    (SUSTAINED HITS dice included) — summed by convolution into P(hits, automatic wounds).
//! 2. Wound stage: per hit, a normal wound or a DEVASTATING Critical Wound; summed by
//!    convolution for every number of hits, then combined with stage 1 into P(wounding
//!    attacks, devastating Critical Wounds), and the latter turned into mortal wounds through
//!    the Damage distribution.
//! 3. Allocation: a Markov chain whose state is how far allocation has progressed through each
//!    allocation group (wounds lost, in allocation order; a destroyed model's excess damage is
//!    lost). Each wounding attack moves it by one saving throw, Damage roll and Feel No Pain
//!    rolls of the model it must go to; pools of pending mortal wounds ride along and are
//!    applied at the end, one wound at a time.
//!
//! Command Re-rolls are exact too (see [`super::CommandReroll`]): of the first eligible failed
//! Hit or Wound roll, the sum over attacks carries a flag "Command Re-roll still unused"; of
//! the first random Attacks roll, the first bearer's Attacks distribution is the re-rolled
//! one; of the first random Damage roll and of the defender's first failed saving throw, the
//! allocation chain's state carries a flag for each re-roll still unused (a DEVASTATING
//! WOUNDS Damage roll, made before the saving throws of its weapon group, can take the Damage
//! re-roll first). A HAZARDOUS test does not change what happens to the target, so the
//! distribution ignores a Command Re-roll of one.
//!
//! The work grows with the number of attacks and hits (cubically with LETHAL HITS or
//! DEVASTATING WOUNDS) and with the target's wounds, so it is bounded: [`exact_cost`]
//! estimates it from the sizes of the tables before anything is built, and past
//! [`MAX_EXACT_OPERATIONS`] or [`MAX_EXACT_CELLS`] [`estimate`] (and [`distribution`], which
//! keeps its signature) rolls a seeded Monte Carlo instead, which [`AttackEstimate::method`]
//! and [`AttackEstimate::note`] say.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{
    AttackContext, CommandReroll, CommandRerolls, ResolvedWeapon, RollResult, TargetUnit,
    WeaponGroup, save_needed,
};
use crate::rules::ruleset::SaveProcedure;

/// Allocation-chain flag: the defender's Command Re-roll of a saving throw is still unused.
const SAVE_FLAG: usize = 1;
/// Allocation-chain flag: the attacker's Command Re-roll of a Damage roll is still unused.
const DAMAGE_FLAG: usize = 2;

/// The exact distribution of what an attack does to the target unit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AttackDistribution {
    /// Mean wounds lost.
    pub expected_wounds_lost: f64,
    /// Mean models destroyed.
    pub expected_models_destroyed: f64,
    /// Probability of each number of models destroyed, from 0 to the models alive.
    pub models_destroyed: Vec<f64>,
    /// Probability of each number of wounds lost, from 0 to the wounds the unit has left.
    pub wounds_lost: Vec<f64>,
}

/// A probability table over two counts, `p[x * ny + y]`.
#[derive(Debug, Clone, PartialEq)]
struct Grid {
    nx: usize,
    ny: usize,
    p: Vec<f64>,
}

impl Grid {
    fn zero(nx: usize, ny: usize) -> Self {
        Self {
            nx,
            ny,
            p: vec![0.0; nx * ny],
        }
    }

    /// Certainty of (0, 0).
    fn unit() -> Self {
        Self {
            nx: 1,
            ny: 1,
            p: vec![1.0],
        }
    }

    fn get(&self, x: usize, y: usize) -> f64 {
        if x < self.nx && y < self.ny {
            self.p[x * self.ny + y]
        } else {
            0.0
        }
    }

    /// Adds `v` at (x, y), growing the table if needed.
    fn add(&mut self, x: usize, y: usize, v: f64) {
        if x >= self.nx || y >= self.ny {
            self.grow((x + 1).max(self.nx), (y + 1).max(self.ny));
        }
        self.p[x * self.ny + y] += v;
    }

    fn grow(&mut self, nx: usize, ny: usize) {
        let mut g = Grid::zero(nx, ny);
        for x in 0..self.nx {
            for y in 0..self.ny {
                g.p[x * ny + y] = self.p[x * self.ny + y];
            }
        }
        *self = g;
    }

    /// The distribution of the sum of two independent pairs.
    fn convolve(&self, other: &Grid) -> Grid {
        let mut out = Grid::zero(self.nx + other.nx - 1, self.ny + other.ny - 1);
        for x in 0..self.nx {
            for y in 0..self.ny {
                let a = self.p[x * self.ny + y];
                if a == 0.0 {
                    continue;
                }
                for u in 0..other.nx {
                    for v in 0..other.ny {
                        let b = other.p[u * other.ny + v];
                        if b != 0.0 {
                            out.p[(x + u) * out.ny + y + v] += a * b;
                        }
                    }
                }
            }
        }
        out
    }

    /// self += s * other.
    fn add_scaled(&mut self, other: &Grid, s: f64) {
        if other.nx > self.nx || other.ny > self.ny {
            self.grow(self.nx.max(other.nx), self.ny.max(other.ny));
        }
        for x in 0..other.nx {
            for y in 0..other.ny {
                self.p[x * self.ny + y] += s * other.p[x * other.ny + y];
            }
        }
    }
}

/// One D6 of a Hit or Wound roll under a re-roll policy: the probability of each final face,
/// split into dice not re-rolled and dice re-rolled (only the former may take a Command
/// Re-roll).
fn face_probabilities(
    policy: super::Reroll,
    classify: &impl Fn(u8) -> RollResult,
) -> ([f64; 7], [f64; 7]) {
    let mut kept = [0.0; 7];
    let mut rerolled = [0.0; 7];
    let mut reroll_mass = 0.0;
    for face in 1..=6u8 {
        if policy.applies(face, classify(face)) {
            reroll_mass += 1.0 / 6.0;
        } else {
            kept[usize::from(face)] = 1.0 / 6.0;
        }
    }
    for slot in rerolled.iter_mut().skip(1) {
        *slot = reroll_mass / 6.0;
    }
    (kept, rerolled)
}

/// The per-item outcome of one roll with its re-rolls: the full table, the probability of a
/// failure that can still take a Command Re-roll, and the table of a fresh (Command Re-rolled)
/// roll.
struct Item {
    full: Grid,
    eligible_fail: f64,
    fresh: Grid,
}

fn item(
    policy: super::Reroll,
    classify: impl Fn(u8) -> RollResult,
    outcome: impl Fn(RollResult, &mut Grid, f64),
) -> Item {
    let (kept, rerolled) = face_probabilities(policy, &classify);
    let mut full = Grid::unit();
    full.p[0] = 0.0;
    let mut fresh = full.clone();
    let mut eligible_fail = 0.0;
    for face in 1..=6u8 {
        let f = usize::from(face);
        let result = classify(face);
        outcome(result, &mut full, kept[f] + rerolled[f]);
        outcome(result, &mut fresh, 1.0 / 6.0);
        if result == RollResult::Fail {
            eligible_fail += kept[f];
        }
    }
    Item {
        full,
        eligible_fail,
        fresh,
    }
}

/// Distributions of the sum of `n` independent items for n = 0..=max_n, each handed to
/// `each(n, grid)` in increasing n (only one is held at a time), where with `command_reroll`
/// the first eligible failure is rolled again once.
fn iid_sums(it: &Item, command_reroll: bool, max_n: usize, mut each: impl FnMut(usize, &Grid)) {
    if !command_reroll || it.eligible_fail == 0.0 {
        let mut acc = Grid::unit();
        each(0, &acc);
        for n in 1..=max_n {
            acc = acc.convolve(&it.full);
            each(n, &acc);
        }
        return;
    }
    let mut rest = it.full.clone();
    rest.p[0] -= it.eligible_fail;
    let mut unused = Grid::unit();
    let mut used = Grid::zero(1, 1);
    each(0, &unused);
    for n in 1..=max_n {
        let mut next_used = used.convolve(&it.full);
        next_used.add_scaled(&unused.convolve(&it.fresh), it.eligible_fail);
        unused = unused.convolve(&rest);
        used = next_used;
        let mut total = unused.clone();
        total.add_scaled(&used, 1.0);
        each(n, &total);
    }
}

/// The distribution of `expr` mapped through `value` (a rolled value to a count), indexed by
/// the count.
fn indexed(expr: crate::rules::DiceExpr, value: impl Fn(i32) -> u32) -> Vec<f64> {
    let mut out = Vec::new();
    for (v, p) in expr.distribution() {
        let n = value(v) as usize;
        if out.len() <= n {
            out.resize(n + 1, 0.0);
        }
        out[n] += p;
    }
    out
}

/// The distribution of `expr` when a Command Re-roll is spent on it if its total is below the
/// dice's average (see [`CommandReroll::DamageRoll`]), mapped through `value` like
/// [`indexed`].
fn indexed_rerolled(expr: crate::rules::DiceExpr, value: impl Fn(i32) -> u32) -> Vec<f64> {
    let dist = expr.distribution();
    let low: f64 = dist
        .iter()
        .filter(|(v, _)| CommandReroll::below_average(expr, *v))
        .map(|(_, p)| p)
        .sum();
    let mut out = Vec::new();
    for (v, p) in &dist {
        let kept = if CommandReroll::below_average(expr, *v) {
            0.0
        } else {
            *p
        };
        let n = value(*v) as usize;
        if out.len() <= n {
            out.resize(n + 1, 0.0);
        }
        out[n] += kept + low * p;
    }
    out
}

/// Distribution of a group's total attacks, indexed by count; with `first_rerolled`, the
/// first bearer's Attacks roll takes the Command Re-roll.
fn attack_count(w: &ResolvedWeapon, first_rerolled: bool) -> Vec<f64> {
    let per_bearer = indexed(w.attacks, |v| w.attacks_value(v));
    let mut total = if first_rerolled && w.bearers > 0 {
        indexed_rerolled(w.attacks, |v| w.attacks_value(v))
    } else {
        vec![1.0]
    };
    let rolled_first = u32::from(first_rerolled && w.bearers > 0);
    for _ in rolled_first..w.bearers {
        let mut next = vec![0.0; total.len() + per_bearer.len() - 1];
        for (a, pa) in total.iter().enumerate() {
            for (b, pb) in per_bearer.iter().enumerate() {
                next[a + b] += pa * pb;
            }
        }
        total = next;
    }
    total
}

/// Distribution of one attack's Damage (MELTA included), indexed by damage.
fn damage(w: &ResolvedWeapon) -> Vec<f64> {
    indexed(w.damage, |v| w.damage_value(v))
}

/// [`damage`] of the Damage roll that takes a Command Re-roll.
fn damage_rerolled(w: &ResolvedWeapon) -> Vec<f64> {
    indexed_rerolled(w.damage, |v| w.damage_value(v))
}

/// Stages 1 and 2 for one group: P(wounding attacks, DEVASTATING Critical Wounds). With
/// `attacks_rerolled`, the first bearer's Attacks roll takes a Command Re-roll.
fn wounds_and_crits(w: &ResolvedWeapon, command: CommandReroll, attacks_rerolled: bool) -> Grid {
    // Stage 1: per attack, (hits needing a Wound roll, automatic wounds).
    let sustained: Vec<(i32, f64)> = w
        .sustained_hits
        .map_or(vec![(0, 1.0)], |x| x.distribution());
    let lethal = w.lethal_hits;
    let attack_item = if w.torrent {
        let mut full = Grid::zero(2, 1);
        full.p[1] = 1.0;
        Item {
            fresh: full.clone(),
            full,
            eligible_fail: 0.0,
        }
    } else {
        item(
            w.hit_reroll,
            |f| w.hit_result(f),
            |r, g, q| match r {
                RollResult::Fail => g.add(0, 0, q),
                RollResult::Success => g.add(1, 0, q),
                RollResult::Critical => {
                    let (h, l) = if lethal { (0, 1) } else { (1, 0) };
                    for (x, px) in &sustained {
                        g.add(h + (*x).max(0) as usize, l, q * px);
                    }
                }
            },
        )
    };
    let counts = attack_count(w, attacks_rerolled);
    let mut hits = Grid::unit();
    hits.p[0] = 0.0;
    iid_sums(
        &attack_item,
        command == CommandReroll::HitRoll,
        counts.len() - 1,
        |n, per_n| {
            if counts[n] > 0.0 {
                hits.add_scaled(per_n, counts[n]);
            }
        },
    );

    // Stage 2: per hit, (normal wounds, devastating Critical Wounds).
    let devastating = w.devastating_wounds;
    let hit_item = item(
        w.wound_reroll,
        |f| w.wound_result(f),
        |r, g, q| match r {
            RollResult::Fail => g.add(0, 0, q),
            RollResult::Critical if devastating => g.add(0, 1, q),
            _ => g.add(1, 0, q),
        },
    );
    let mut wounds = Grid::unit();
    wounds.p[0] = 0.0;
    iid_sums(
        &hit_item,
        command == CommandReroll::WoundRoll,
        hits.nx - 1,
        |h, ph| {
            for l in 0..hits.ny {
                let p = hits.get(h, l);
                if p == 0.0 {
                    continue;
                }
                for x in 0..ph.nx {
                    for c in 0..ph.ny {
                        let q = ph.get(x, c);
                        if q != 0.0 {
                            wounds.add(x + l, c, p * q);
                        }
                    }
                }
            }
        },
    );
    wounds
}

/// Devastating Critical Wounds into mortal wounds: from P(wounding attacks, crits), keeping
/// the crit counts in `crits`, P(wounding attacks, mortal wounds) with the mortal wounds
/// capped at `mortal_cap` (more cannot matter). The first crit's Damage has distribution
/// `first`, the others `dmg`.
fn crits_to_mortals(
    wounds: &Grid,
    first: &[f64],
    dmg: &[f64],
    crits: std::ops::Range<usize>,
    mortal_cap: usize,
) -> Grid {
    let mut out = Grid::zero(wounds.nx, 1);
    let mut sum_c = vec![1.0]; // distribution of the mortal wounds of c crits, capped
    for c in 0..wounds.ny.min(crits.end) {
        if c > 0 {
            let d = if c == 1 { first } else { dmg };
            let mut next = vec![0.0; (sum_c.len() + d.len() - 1).min(mortal_cap + 1)];
            for (a, pa) in sum_c.iter().enumerate() {
                for (b, pb) in d.iter().enumerate() {
                    next[(a + b).min(mortal_cap)] += pa * pb;
                }
            }
            sum_c = next;
        }
        if c < crits.start {
            continue;
        }
        for n in 0..wounds.nx {
            let p = wounds.get(n, c);
            if p == 0.0 {
                continue;
            }
            for (m, pm) in sum_c.iter().enumerate() {
                if *pm != 0.0 {
                    out.add(n, m, p * pm);
                }
            }
        }
    }
    out
}

/// One allocation group's models in order, as a track of wounds.
struct Track {
    /// Target model index of each position.
    models: Vec<usize>,
    /// First track index of each position.
    offsets: Vec<usize>,
    /// Wounds each position's model has left at the start.
    lens: Vec<usize>,
    /// Sum of `lens`: the index once every model is destroyed.
    total: usize,
    /// Position of the model being allocated to at each index (len `total`).
    position_at: Vec<usize>,
}

impl Track {
    fn new(target: &TargetUnit, models: &[usize]) -> Self {
        let lens: Vec<usize> = models
            .iter()
            .map(|&i| usize::from(target.models[i].wounds_remaining))
            .collect();
        let mut offsets = Vec::with_capacity(lens.len());
        let mut position_at = Vec::new();
        let mut total = 0;
        for (k, len) in lens.iter().enumerate() {
            offsets.push(total);
            position_at.extend(std::iter::repeat_n(k, *len));
            total += len;
        }
        Self {
            models: models.to_vec(),
            offsets,
            lens,
            total,
            position_at,
        }
    }

    /// Models destroyed once allocation has reached `idx`: every model before the one being
    /// allocated to (all of them at the end of the track).
    fn destroyed_at(&self, idx: usize) -> usize {
        self.position_at
            .get(idx)
            .copied()
            .unwrap_or(self.lens.len())
    }
}

/// The allocation chain's state space: progress along both groups' tracks.
struct Chain {
    tracks: [Track; 2],
    /// Number of states: (tracks[0].total + 1) * (tracks[1].total + 1).
    states: usize,
}

/// One target model's losses to one wounding attack: the probability its saving throw fails,
/// and the distribution of wounds lost (without, and with the Damage roll Command Re-rolled).
type ModelLosses = (f64, Vec<f64>, Vec<f64>);

/// Sparse transition: (from, to, probability).
type Transitions = Vec<(usize, usize, f64)>;

impl Chain {
    fn new(target: &TargetUnit, procedure: SaveProcedure) -> Self {
        let [g0, g1] = target.allocation_tracks(procedure);
        let tracks = [Track::new(target, &g0), Track::new(target, &g1)];
        let states = (tracks[0].total + 1) * (tracks[1].total + 1);
        Self { tracks, states }
    }

    fn split(&self, s: usize) -> [usize; 2] {
        let n1 = self.tracks[1].total + 1;
        [s / n1, s % n1]
    }

    fn join(&self, idx: [usize; 2]) -> usize {
        idx[0] * (self.tracks[1].total + 1) + idx[1]
    }

    /// The group the next attack goes to from state `idx`, if any model is left.
    fn group(&self, idx: [usize; 2], precision: bool) -> Option<usize> {
        let order = if precision { [1, 0] } else { [0, 1] };
        order.into_iter().find(|&g| idx[g] < self.tracks[g].total)
    }

    /// Transitions of one wounding attack from `w`: saving throw, Damage, Feel No Pain, over
    /// the chain's states in each of `blocks` blocks of Command Re-roll flags (block `f` holds
    /// the states with the flags `f` still unused: [`SAVE_FLAG`], [`DAMAGE_FLAG`]).
    fn attack_transitions(
        &self,
        target: &TargetUnit,
        w: &ResolvedWeapon,
        blocks: usize,
    ) -> Transitions {
        let dmg = damage(w);
        let dmg_rr = damage_rerolled(w);
        let lost_of = wounds_lost_of;
        // Per target model: (probability one saving throw fails, distribution of wounds
        // lost, the same with the Damage roll Command Re-rolled).
        let per_model = |i: usize| -> ModelLosses {
            let m = &target.models[i];
            let fail = 1.0 - save_needed(m, w.ap, w.cover_for(m)).probability();
            let q = m.wound_lost_probability();
            (fail, lost_of(&dmg, q), lost_of(&dmg_rr, q))
        };
        let tables: [Vec<ModelLosses>; 2] = [0, 1].map(|g| {
            self.tracks[g]
                .models
                .iter()
                .map(|&i| per_model(i))
                .collect()
        });
        let mut t = Vec::new();
        for f in 0..blocks {
            let save_unused = f & SAVE_FLAG != 0;
            let damage_unused = f & DAMAGE_FLAG != 0 && !w.damage.is_fixed();
            // Flags after a saving throw that failed once, and after a Damage roll.
            let after_save = f & !SAVE_FLAG;
            let after_damage = if damage_unused {
                after_save & !DAMAGE_FLAG
            } else {
                after_save
            };
            let base = f * self.states;
            for s in 0..self.states {
                let idx = self.split(s);
                let Some(g) = self.group(idx, w.precision) else {
                    t.push((base + s, base + s, 1.0));
                    continue;
                };
                let track = &self.tracks[g];
                let k = track.position_at[idx[g]];
                let end = track.offsets[k] + track.lens[k];
                let (fail, lost, lost_rr) = &tables[g][k];
                let lost = if damage_unused { lost_rr } else { lost };
                // Saved at once; saved by the defender's Command Re-roll; not saved.
                let (saved_re_roll, unsaved) = if save_unused {
                    (fail * (1.0 - fail), fail * fail)
                } else {
                    (0.0, *fail)
                };
                t.push((base + s, base + s, 1.0 - fail));
                if saved_re_roll > 0.0 {
                    t.push((base + s, after_save * self.states + s, saved_re_roll));
                }
                for (l, pl) in lost.iter().enumerate() {
                    if *pl == 0.0 {
                        continue;
                    }
                    let mut to = idx;
                    to[g] = (idx[g] + l).min(end);
                    t.push((
                        base + s,
                        after_damage * self.states + self.join(to),
                        unsaved * pl,
                    ));
                }
            }
        }
        t
    }

    /// 11th edition: transitions of one die or mortal-wound packet that `fails` (given the
    /// target model) and then inflicts `w`'s Damage on the model it goes to, the excess lost
    /// (with Feel No Pain): a saving throw die of one face (fails 0 or 1) or a DEVASTATING
    /// WOUNDS Critical Wound (always fails). The defender's [`SAVE_FLAG`] is left as it is;
    /// the attacker's [`DAMAGE_FLAG`] is spent on the first random Damage roll.
    fn damage_transitions(
        &self,
        target: &TargetUnit,
        w: &ResolvedWeapon,
        blocks: usize,
        fails: impl Fn(usize) -> bool,
    ) -> Transitions {
        let dmg = damage(w);
        let dmg_rr = damage_rerolled(w);
        let lost_of = wounds_lost_of;
        let mut t = Vec::new();
        for f in 0..blocks {
            let damage_unused = f & DAMAGE_FLAG != 0 && !w.damage.is_fixed();
            let after = if damage_unused { f & !DAMAGE_FLAG } else { f };
            let base = f * self.states;
            for s in 0..self.states {
                let idx = self.split(s);
                let Some(g) = self.group(idx, w.precision) else {
                    t.push((base + s, base + s, 1.0));
                    continue;
                };
                let track = &self.tracks[g];
                let k = track.position_at[idx[g]];
                let model = track.models[k];
                if !fails(model) {
                    t.push((base + s, base + s, 1.0));
                    continue;
                }
                let end = track.offsets[k] + track.lens[k];
                let q = target.models[model].wound_lost_probability();
                let lost = lost_of(if damage_unused { &dmg_rr } else { &dmg }, q);
                for (l, pl) in lost.iter().enumerate() {
                    if *pl == 0.0 {
                        continue;
                    }
                    let mut to = idx;
                    to[g] = (idx[g] + l).min(end);
                    t.push((base + s, after * self.states + self.join(to), *pl));
                }
            }
        }
        t
    }

    /// The model (target index) the next die goes to from chain state `s` (flags ignored).
    fn model_at(&self, s: usize, precision: bool) -> Option<usize> {
        let idx = self.split(s % self.states);
        let g = self.group(idx, precision)?;
        let track = &self.tracks[g];
        Some(track.models[track.position_at[idx[g]]])
    }

    /// 11th edition: one weapon's saving throws for every number of wounding attacks at once
    /// (11th Core Rules 05.03-05.04). `weights[n]` is the probability of `n` wounding attacks
    /// and `v` the chain's distribution before them. The dice are exchangeable and taken
    /// lowest first, so they are drawn face by face: of the `m` dice left (all at least
    /// `face`), Binomial(m, 1/(7 - face)) show `face`, and each is taken by the current model
    /// ([`Chain::damage_transitions`] for that face). The defender's Command Re-roll (blocks
    /// with [`SAVE_FLAG`]) re-rolls the lowest die when it fails against the model it goes to:
    /// a new face at or below it fails alike, a higher one goes back among the dice left.
    fn batch(
        &self,
        target: &TargetUnit,
        w: &ResolvedWeapon,
        blocks: usize,
        weights: &[f64],
        v: &[f64],
    ) -> Vec<f64> {
        let len = v.len();
        let n_max = weights.len().saturating_sub(1);
        let mut a: Vec<Option<Vec<f64>>> = weights
            .iter()
            .map(|&p| (p != 0.0).then(|| v.iter().map(|x| x * p).collect()))
            .collect();
        let flagged = |i: usize| (i / self.states) & SAVE_FLAG != 0;
        let any_flag = (0..blocks).any(|f| f & SAVE_FLAG != 0);
        let add = |slot: &mut Option<Vec<f64>>, x: &[f64], p: f64| {
            let out = slot.get_or_insert_with(|| vec![0.0; len]);
            for (o, c) in out.iter_mut().zip(x) {
                *o += p * c;
            }
        };
        for face in 1..=6u8 {
            let fails = |model: usize| !save_needed(&target.models[model], w.ap, false).saves(face);
            let steps = self.damage_transitions(target, w, blocks, fails);
            let p = 1.0 / f64::from(7 - face);
            let mut b: Vec<Option<Vec<f64>>> = vec![None; n_max + 1];
            for (m, slot) in a.iter().enumerate() {
                let Some(am) = slot else { continue };
                let probs = binomial(m, p);
                let (mut plain, mut held) = (am.clone(), vec![0.0; len]);
                if any_flag {
                    for i in 0..len {
                        if flagged(i) && am[i] != 0.0 {
                            held[i] = am[i];
                            // Failing states take the re-roll; saving ones keep it.
                            if self.model_at(i, w.precision).is_some_and(&fails) {
                                plain[i] = 0.0;
                            } else {
                                held[i] = 0.0;
                            }
                        }
                    }
                }
                let mut cur = plain;
                for (k, pk) in probs.iter().enumerate() {
                    if *pk != 0.0 {
                        add(&mut b[m - k], &cur, *pk);
                    }
                    if k < m {
                        cur = step(&steps, &cur);
                    }
                }
                if held.iter().all(|x| *x == 0.0) {
                    continue;
                }
                // No die shows this face: the re-roll waits for the lowest die.
                add(&mut b[m], &held, probs[0]);
                // The lowest die shows this face and fails: re-rolled, the flag cleared.
                let cleared = |x: &[f64]| {
                    let mut out = vec![0.0; len];
                    for (i, c) in x.iter().enumerate() {
                        if *c != 0.0 {
                            let f = i / self.states;
                            out[(f & !SAVE_FLAG) * self.states + i % self.states] += c;
                        }
                    }
                    out
                };
                let base = cleared(&held);
                let low = f64::from(face) / 6.0;
                let mut fail = step(&steps, &base)
                    .iter()
                    .map(|x| x * low)
                    .collect::<Vec<_>>();
                let mut up: Vec<f64> = base.iter().map(|x| x * (1.0 - low)).collect();
                for (k, pk) in probs.iter().enumerate().skip(1) {
                    if *pk != 0.0 {
                        add(&mut b[m - k], &fail, *pk);
                        add(&mut b[m - k + 1], &up, *pk);
                    }
                    if k < m {
                        fail = step(&steps, &fail);
                        up = step(&steps, &up);
                    }
                }
            }
            a = b;
        }
        a.into_iter()
            .next()
            .flatten()
            .unwrap_or_else(|| vec![0.0; len])
    }

    /// Transitions of one mortal wound: Feel No Pain, then one wound lost, carrying over (in
    /// each of `blocks` blocks of Command Re-roll flags, which it leaves as they are).
    fn mortal_transitions(
        &self,
        target: &TargetUnit,
        precision: bool,
        blocks: usize,
    ) -> Transitions {
        let mut t = Vec::new();
        for f in 0..blocks {
            let base = f * self.states;
            for s in 0..self.states {
                let idx = self.split(s);
                let Some(g) = self.group(idx, precision) else {
                    t.push((base + s, base + s, 1.0));
                    continue;
                };
                let track = &self.tracks[g];
                let model = &target.models[track.models[track.position_at[idx[g]]]];
                let q = model.wound_lost_probability();
                let mut to = idx;
                to[g] += 1;
                if q < 1.0 {
                    t.push((base + s, base + s, 1.0 - q));
                }
                t.push((base + s, base + self.join(to), q));
            }
        }
        t
    }
}

/// The distribution of wounds a model loses to Damage distributed as `dmg` when each wound
/// is lost with probability `q` (Feel No Pain), indexed by wounds lost.
fn wounds_lost_of(dmg: &[f64], q: f64) -> Vec<f64> {
    let mut lost = vec![0.0; dmg.len()];
    for (d, pd) in dmg.iter().enumerate() {
        if *pd == 0.0 {
            continue;
        }
        for (l, pl) in binomial(d, q).into_iter().enumerate() {
            lost[l] += pd * pl;
        }
    }
    lost
}

fn step(t: &Transitions, v: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; v.len()];
    for &(from, to, p) in t {
        out[to] += v[from] * p;
    }
    out
}

/// Binomial(n, q) probabilities of 0..=n successes.
fn binomial(n: usize, q: f64) -> Vec<f64> {
    let mut p = vec![1.0];
    for _ in 0..n {
        let mut next = vec![0.0; p.len() + 1];
        for (k, pk) in p.iter().enumerate() {
            next[k] += pk * (1.0 - q);
            next[k + 1] += pk * q;
        }
        p = next;
    }
    p
}

/// Past this many estimated arithmetic operations ([`ExactCost::operations`]) an attack's
/// distribution is estimated by a seeded Monte Carlo instead of computed exactly (a few
/// seconds of an unoptimised build). The costliest attack of the shipped armies (a Redemptor
/// Dreadnought's guns at 20 Boyz) is estimated at about a million.
pub const MAX_EXACT_OPERATIONS: u64 = 50_000_000;
/// Past this many probabilities held at once ([`ExactCost::cells`], 8 bytes each: 32 MB)
/// the distribution is estimated by a seeded Monte Carlo instead of computed exactly.
pub const MAX_EXACT_CELLS: u64 = 4_000_000;
/// Most trials of the Monte Carlo fallback.
pub const MONTE_CARLO_SAMPLES: u32 = 20_000;
/// Fewest trials of the Monte Carlo fallback, however many dice one trial rolls.
pub const MIN_MONTE_CARLO_SAMPLES: u32 = 200;
/// Dice the Monte Carlo fallback may roll in all (estimated from the most each trial could
/// roll): fewer trials when each rolls more, down to [`MIN_MONTE_CARLO_SAMPLES`].
pub const MONTE_CARLO_DICE: u64 = 5_000_000;
/// Seed of the Monte Carlo fallback's dice, so the same attack always gives the same estimate.
pub const MONTE_CARLO_SEED: u64 = 40_000;

/// How an [`AttackEstimate`] was worked out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// The exact distribution.
    Exact,
    /// The exact distribution was past [`MAX_EXACT_OPERATIONS`] or [`MAX_EXACT_CELLS`]: the
    /// frequencies of `samples` attacks rolled with dice seeded by `seed`
    /// ([`super::roll::monte_carlo_weapons`]).
    MonteCarlo {
        /// Trials rolled.
        samples: u32,
        /// Seed of their dice ([`MONTE_CARLO_SEED`]).
        seed: u64,
    },
}

/// What the exact distribution of an attack would cost, estimated from the sizes of its
/// tables before any is built (an upper estimate of the work of [`distribution_of_weapons`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ExactCost {
    /// Arithmetic operations (multiply-adds), compared with [`MAX_EXACT_OPERATIONS`].
    pub operations: f64,
    /// Probabilities held at once, compared with [`MAX_EXACT_CELLS`].
    pub cells: f64,
}

impl ExactCost {
    /// True when the exact distribution is within [`MAX_EXACT_OPERATIONS`] and
    /// [`MAX_EXACT_CELLS`].
    pub fn within_limits(&self) -> bool {
        self.operations <= MAX_EXACT_OPERATIONS as f64 && self.cells <= MAX_EXACT_CELLS as f64
    }
}

/// An attack's outcome distribution and how it was obtained: exact, or (past the limits) a
/// seeded Monte Carlo estimate, which callers should say.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AttackEstimate {
    /// The distribution (an estimate when `method` is [`Method::MonteCarlo`]).
    pub distribution: AttackDistribution,
    /// How it was obtained.
    pub method: Method,
    /// The estimated cost of the exact distribution, which decided `method`.
    pub cost: ExactCost,
}

impl AttackEstimate {
    /// True when the distribution is exact.
    pub fn is_exact(&self) -> bool {
        self.method == Method::Exact
    }

    /// What to tell the user when the distribution is not exact: the method, the samples and
    /// seed, and why (None when it is exact).
    pub fn note(&self) -> Option<String> {
        match self.method {
            Method::Exact => None,
            Method::MonteCarlo { samples, seed } => Some(format!(
                "Monte Carlo estimate ({samples} rolled attacks, seed {seed}): the exact \
                 distribution would take about {:.1e} operations and {:.1e} probabilities, past \
                 the limits of {:.0e} and {:.0e}",
                self.cost.operations,
                self.cost.cells,
                MAX_EXACT_OPERATIONS as f64,
                MAX_EXACT_CELLS as f64
            )),
        }
    }
}

/// Σ (n·x + 1)(n·y + 1) for n = 0..=a: the cells of the tables of the sums of 0..=a items of
/// at most x and y each.
fn sum_of_tables(a: f64, x: f64, y: f64) -> f64 {
    let s1 = a * (a + 1.0) / 2.0;
    let s2 = a * (a + 1.0) * (2.0 * a + 1.0) / 6.0;
    x * y * s2 + (x + y) * s1 + (a + 1.0)
}

/// The Command Re-roll flags the allocation chain carries ([`SAVE_FLAG`], [`DAMAGE_FLAG`]).
fn chain_flags(rerolls: CommandRerolls) -> usize {
    (if rerolls.defender_save { SAVE_FLAG } else { 0 })
        | if rerolls.attacker == CommandReroll::DamageRoll {
            DAMAGE_FLAG
        } else {
            0
        }
}

/// Estimates what [`distribution_of_weapons`] would cost for these weapons, target and
/// Command Re-rolls, from the largest number of attacks, hits, wounds and mortal wounds each
/// stage could hold, without building anything.
pub fn exact_cost(
    weapons: &[ResolvedWeapon],
    target: &TargetUnit,
    command_rerolls: impl Into<CommandRerolls>,
) -> ExactCost {
    let rerolls: CommandRerolls = command_rerolls.into();
    if weapons
        .first()
        .is_some_and(|w| w.save_procedure == SaveProcedure::AllocationGroupsLowestFirst)
    {
        return exact_cost_in_groups(weapons, target, rerolls);
    }
    let [g0, g1] = target.allocation_groups();
    let wounds_of = |g: &[usize]| -> f64 {
        g.iter()
            .map(|&i| f64::from(target.models[i].wounds_remaining))
            .sum()
    };
    let (t0, t1) = (wounds_of(&g0), wounds_of(&g1));
    let models = (g0.len() + g1.len()) as f64;
    let any_fnp = target.models.iter().any(|m| m.feel_no_pain.is_some());
    let mortal_cap = if any_fnp { f64::INFINITY } else { t0 + t1 };
    let flags = chain_flags(rerolls);
    // Probabilities of one pool slice of the allocation chain.
    let chain = (flags + 1) as f64 * (t0 + 1.0) * (t1 + 1.0);
    let rerolled = |yes: bool| if yes { 3.0 } else { 1.0 };
    let (mut ops, mut cells) = (0.0f64, chain);
    // Most pending mortal wounds (normal, PRECISION), capped as the chain caps them.
    let (mut pool_n, mut pool_p) = (0.0f64, 0.0f64);
    for (gi, w) in weapons.iter().enumerate() {
        let command = if gi == 0 {
            rerolls.attacker
        } else {
            CommandReroll::None
        };
        let bearers = f64::from(w.bearers);
        let per_bearer = f64::from(w.attacks_value(w.attacks.max()));
        let attacks = bearers * per_bearer;
        ops += bearers * (attacks + 1.0) * (per_bearer + 1.0);
        // Stage 1: sums of n attacks, (hits needing a Wound roll, LETHAL HITS wounds).
        let per_attack = 1.0 + w.sustained_hits.map_or(0.0, |x| f64::from(x.max().max(0)));
        let lethal = if w.lethal_hits { 1.0 } else { 0.0 };
        let item = (per_attack + 1.0) * (lethal + 1.0);
        let s1 = sum_of_tables(attacks, per_attack, lethal);
        ops += (rerolled(command == CommandReroll::HitRoll) * item + 1.0) * s1;
        let (hits, automatic) = (attacks * per_attack, attacks * lethal);
        cells += 4.0 * (hits + 1.0) * (automatic + 1.0);
        // Stage 2: sums of h Wound rolls, (wounds, DEVASTATING Critical Wounds).
        let devastating = if w.devastating_wounds { 1.0 } else { 0.0 };
        let s2 = sum_of_tables(hits, 1.0, devastating);
        ops += (rerolled(command == CommandReroll::WoundRoll) * 4.0 + automatic + 1.0) * s2;
        let wounding = hits + automatic;
        let crits = hits * devastating;
        cells += (wounding + 1.0) * (crits + 1.0) + 3.0 * (hits + 1.0) * (crits + 1.0);
        let damage = f64::from(w.damage_value(w.damage.max()));
        let split = rerolled(flags & DAMAGE_FLAG != 0 && !w.damage.is_fixed());
        let slices = (pool_n + 1.0) * (pool_p + 1.0);
        // Mortal wound columns of the group's table.
        let mut mortal = 1.0;
        if w.devastating_wounds {
            mortal = (crits * damage).min(mortal_cap) + 1.0;
            ops += split * (crits + 1.0) * mortal * (damage + wounding + 2.0);
            cells += split * (wounding + 1.0) * mortal;
            let pool = if w.precision {
                &mut pool_p
            } else {
                &mut pool_n
            };
            *pool = (*pool + crits * damage).min(mortal_cap);
        }
        // Allocation: every slice steps through each number of wounding attacks.
        let transitions = chain * (damage + 3.0);
        ops += 2.0 * models * (damage + 1.0).powi(2);
        ops += split * slices * (wounding + 1.0) * (transitions + mortal * chain);
        cells += 3.0 * transitions + (pool_n + 1.0) * (pool_p + 1.0) * chain;
    }
    // Pending mortal wounds, one at a time in every slice.
    ops += (pool_n + 1.0) * (pool_p + 1.0) * (pool_n + pool_p) * 2.0 * chain;
    ExactCost {
        operations: ops,
        cells,
    }
}

/// [`exact_cost`] of [`exact_distribution_in_groups`]: the hit and wound stages as under
/// 10th, then for each number of Critical Wounds a face-by-face batch over every number of
/// wounding attacks (cubic in them while the defender's Command Re-roll is held).
fn exact_cost_in_groups(
    weapons: &[ResolvedWeapon],
    target: &TargetUnit,
    rerolls: CommandRerolls,
) -> ExactCost {
    let [g0, g1] = target.allocation_tracks(SaveProcedure::AllocationGroupsLowestFirst);
    let wounds_of = |g: &[usize]| -> f64 {
        g.iter()
            .map(|&i| f64::from(target.models[i].wounds_remaining))
            .sum()
    };
    let flags = chain_flags(rerolls);
    let chain = (flags + 1) as f64 * (wounds_of(&g0) + 1.0) * (wounds_of(&g1) + 1.0);
    let (mut ops, mut cells) = (0.0f64, chain);
    for w in weapons {
        let bearers = f64::from(w.bearers);
        let per_bearer = f64::from(w.attacks_value(w.attacks.max()));
        let attacks = bearers * per_bearer;
        let per_attack = 1.0 + w.sustained_hits.map_or(0.0, |x| f64::from(x.max().max(0)));
        let lethal = if w.lethal_hits { 1.0 } else { 0.0 };
        let devastating = if w.devastating_wounds { 1.0 } else { 0.0 };
        let (hits, automatic) = (attacks * per_attack, attacks * lethal);
        let wounding = hits + automatic;
        let crits = hits * devastating;
        ops += bearers * (attacks + 1.0) * (per_bearer + 1.0);
        ops +=
            4.0 * (per_attack + 1.0) * (lethal + 1.0) * sum_of_tables(attacks, per_attack, lethal);
        ops += 6.0 * sum_of_tables(hits, 1.0, devastating);
        cells += 4.0 * (hits + 1.0) * (automatic + 1.0) + 4.0 * (wounding + 1.0) * (crits + 1.0);
        let damage = f64::from(w.damage_value(w.damage.max()));
        let transitions = chain * (damage + 2.0);
        let per_batch = 6.0 * (wounding + 1.0) * (wounding + 2.0) / 2.0 * transitions;
        let held = if flags & SAVE_FLAG != 0 {
            1.0 + (wounding + 1.0) / 3.0
        } else {
            1.0
        };
        ops += (crits + 1.0) * (per_batch * held + crits * transitions);
        cells += (wounding + 2.0) * chain * 2.0 + 7.0 * transitions;
    }
    ExactCost {
        operations: ops,
        cells,
    }
}

/// Dice one rolled attack may roll (an upper estimate), to size the Monte Carlo fallback.
fn dice_per_trial(weapons: &[ResolvedWeapon], target: &TargetUnit) -> f64 {
    let fnp = target.models.iter().any(|m| m.feel_no_pain.is_some());
    let mut dice = 1.0;
    for w in weapons {
        let bearers = f64::from(w.bearers);
        let attacks = bearers * f64::from(w.attacks_value(w.attacks.max()));
        let extra = w.sustained_hits.map_or(0.0, |x| f64::from(x.max().max(0)));
        let sustained_dice = w.sustained_hits.map_or(0.0, |x| f64::from(x.count));
        let hits = attacks * (1.0 + extra);
        let damage = f64::from(w.damage_value(w.damage.max()));
        let per_wound = 2.0 + f64::from(w.damage.count) + if fnp { damage } else { 0.0 };
        dice += bearers * (f64::from(w.attacks.count) + 2.0)
            + attacks * (2.0 + sustained_dice)
            + hits * (2.0 + per_wound);
    }
    dice
}

/// The distribution of models destroyed and wounds lost when `groups` attack `target` in
/// `ctx` (the process of [`super`]): exact (the mean and distribution a 100,000-trial
/// [`super::roll::monte_carlo`] estimates), unless that is past [`MAX_EXACT_OPERATIONS`] or
/// [`MAX_EXACT_CELLS`], when it is a seeded Monte Carlo estimate; [`estimate`] says which.
pub fn distribution(
    groups: &[WeaponGroup],
    target: &TargetUnit,
    ctx: &AttackContext,
) -> AttackDistribution {
    estimate(groups, target, ctx).distribution
}

/// [`distribution`] for weapons already resolved against this target, with the Command
/// Re-rolls held: a [`CommandReroll`] of the attacker, or [`CommandRerolls`] of both sides.
/// [`estimate_of_weapons`] also says whether it is exact.
pub fn distribution_of_weapons(
    weapons: &[ResolvedWeapon],
    target: &TargetUnit,
    command_rerolls: impl Into<CommandRerolls>,
) -> AttackDistribution {
    estimate_of_weapons(weapons, target, command_rerolls).distribution
}

/// [`distribution`] with how it was obtained: exact, or past the limits a seeded Monte Carlo
/// estimate ([`Method::MonteCarlo`]).
pub fn estimate(
    groups: &[WeaponGroup],
    target: &TargetUnit,
    ctx: &AttackContext,
) -> AttackEstimate {
    let weapons: Vec<ResolvedWeapon> = ResolvedWeapon::all(groups, target, ctx);
    estimate_of_weapons(&weapons, target, ctx.command_rerolls())
}

/// [`distribution_of_weapons`] with how it was obtained: the exact distribution when its
/// [`exact_cost`] is within the limits, otherwise the frequencies of
/// [`MIN_MONTE_CARLO_SAMPLES`] to [`MONTE_CARLO_SAMPLES`] attacks (as many as
/// [`MONTE_CARLO_DICE`] dice allow) rolled with dice seeded by [`MONTE_CARLO_SEED`].
pub fn estimate_of_weapons(
    weapons: &[ResolvedWeapon],
    target: &TargetUnit,
    command_rerolls: impl Into<CommandRerolls>,
) -> AttackEstimate {
    let rerolls: CommandRerolls = command_rerolls.into();
    let cost = exact_cost(weapons, target, rerolls);
    if cost.within_limits() {
        let in_groups = weapons
            .first()
            .is_some_and(|w| w.save_procedure == SaveProcedure::AllocationGroupsLowestFirst);
        return AttackEstimate {
            distribution: if in_groups {
                exact_distribution_in_groups(weapons, target, rerolls)
            } else {
                exact_distribution(weapons, target, rerolls)
            },
            method: Method::Exact,
            cost,
        };
    }
    let samples = (MONTE_CARLO_DICE as f64 / dice_per_trial(weapons, target)).clamp(
        f64::from(MIN_MONTE_CARLO_SAMPLES),
        f64::from(MONTE_CARLO_SAMPLES),
    ) as u32;
    let mc = super::roll::monte_carlo_weapons(weapons, target, rerolls, samples, MONTE_CARLO_SEED);
    let mut models_destroyed = mc.models_destroyed;
    models_destroyed.resize(target.models_alive() + 1, 0.0);
    AttackEstimate {
        distribution: AttackDistribution {
            expected_wounds_lost: mc.mean_wounds_lost,
            expected_models_destroyed: mc.mean_models_destroyed,
            models_destroyed,
            wounds_lost: mc.wounds_lost,
        },
        method: Method::MonteCarlo {
            samples,
            seed: MONTE_CARLO_SEED,
        },
        cost,
    }
}

/// 11th edition ([`SaveProcedure::AllocationGroupsLowestFirst`]): the exact distribution,
/// however much work it is. Weapon by weapon: P(wounding attacks, DEVASTATING Critical
/// Wounds) as under 10th; the saving throws of each number of wounding attacks in one
/// [`Chain::batch`]; then each Critical Wound's mortal wounds on one model.
fn exact_distribution_in_groups(
    weapons: &[ResolvedWeapon],
    target: &TargetUnit,
    rerolls: CommandRerolls,
) -> AttackDistribution {
    let command_reroll = rerolls.attacker;
    let chain = Chain::new(target, SaveProcedure::AllocationGroupsLowestFirst);
    let first_flags = chain_flags(rerolls);
    let blocks = first_flags + 1;
    let len = blocks * chain.states;
    let attacks_group = (command_reroll == CommandReroll::AttacksRoll)
        .then(|| {
            weapons
                .iter()
                .position(|w| !w.attacks.is_fixed() && w.bearers > 0)
        })
        .flatten();
    let mut v = vec![0.0; len];
    v[first_flags * chain.states] = 1.0;
    for (gi, w) in weapons.iter().enumerate() {
        let command = if gi == 0 {
            command_reroll
        } else {
            CommandReroll::None
        };
        let crits = wounds_and_crits(w, command, attacks_group == Some(gi));
        let devastating = chain.damage_transitions(target, w, blocks, |_| true);
        let mut next = vec![0.0; len];
        for c in 0..crits.ny {
            let weights: Vec<f64> = (0..crits.nx).map(|n| crits.get(n, c)).collect();
            if weights.iter().all(|p| *p == 0.0) {
                continue;
            }
            let mut cur = chain.batch(target, w, blocks, &weights, &v);
            for _ in 0..c {
                cur = step(&devastating, &cur);
            }
            for (o, x) in next.iter_mut().zip(&cur) {
                *o += x;
            }
        }
        v = next;
    }
    let mut fin = vec![0.0; chain.states];
    for (k, c) in v.iter().enumerate() {
        fin[k % chain.states] += c;
    }
    chain_outcome(&chain, &fin)
}

/// The distributions of models destroyed and wounds lost from the chain's final state.
fn chain_outcome(chain: &Chain, fin: &[f64]) -> AttackDistribution {
    let total_wounds = chain.tracks[0].total + chain.tracks[1].total;
    let models_alive = chain.tracks[0].lens.len() + chain.tracks[1].lens.len();
    let mut models_destroyed = vec![0.0; models_alive + 1];
    let mut wounds_lost = vec![0.0; total_wounds + 1];
    for (s, p) in fin.iter().enumerate() {
        let idx = chain.split(s);
        let destroyed = chain.tracks[0].destroyed_at(idx[0]) + chain.tracks[1].destroyed_at(idx[1]);
        models_destroyed[destroyed] += p;
        wounds_lost[idx[0] + idx[1]] += p;
    }
    let mean = |v: &[f64]| v.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
    AttackDistribution {
        expected_wounds_lost: mean(&wounds_lost),
        expected_models_destroyed: mean(&models_destroyed),
        models_destroyed,
        wounds_lost,
    }
}

/// The exact distribution, however much work it is.
fn exact_distribution(
    weapons: &[ResolvedWeapon],
    target: &TargetUnit,
    rerolls: CommandRerolls,
) -> AttackDistribution {
    let command_reroll = rerolls.attacker;
    let chain = Chain::new(target, SaveProcedure::OneAttackAtATime);
    let total_wounds = chain.tracks[0].total + chain.tracks[1].total;
    // More mortal wounds than wounds left cannot matter, unless Feel No Pain ignores some.
    let any_fnp = target.models.iter().any(|m| m.feel_no_pain.is_some());
    let mortal_cap = if any_fnp {
        usize::MAX / 2
    } else {
        total_wounds
    };
    // The Command Re-roll flags the chain carries: the vectors hold one block of chain states
    // per set of flags still unused (every set is a subset of the first, so fewer blocks).
    let first_flags = chain_flags(rerolls);
    let blocks = first_flags + 1;
    let len = blocks * chain.states;
    // The weapon group whose first bearer makes the first random Attacks roll.
    let attacks_group = (command_reroll == CommandReroll::AttacksRoll)
        .then(|| {
            weapons
                .iter()
                .position(|w| !w.attacks.is_fixed() && w.bearers > 0)
        })
        .flatten();

    // Pending mortal wound pools (normal, precision) -> distribution over flags and states.
    let mut slices: BTreeMap<(usize, usize), Vec<f64>> = BTreeMap::new();
    let mut start = vec![0.0; len];
    start[first_flags * chain.states] = 1.0;
    slices.insert((0, 0), start);

    for (gi, w) in weapons.iter().enumerate() {
        let command = if gi == 0 {
            command_reroll
        } else {
            CommandReroll::None
        };
        let crits = wounds_and_crits(w, command, attacks_group == Some(gi));
        let dmg = damage(w);
        let table = if crits.ny == 1 {
            crits.clone()
        } else {
            crits_to_mortals(&crits, &dmg, &dmg, 0..crits.ny, mortal_cap)
        };
        // A DEVASTATING WOUNDS Damage roll takes a Damage re-roll still unused: no crit keeps
        // it; one or more spend it on the first crit's Damage.
        let split_damage = first_flags & DAMAGE_FLAG != 0 && crits.ny > 1 && !w.damage.is_fixed();
        let (keep, spend) = if split_damage {
            (
                crits_to_mortals(&crits, &dmg, &dmg, 0..1, mortal_cap),
                crits_to_mortals(&crits, &damage_rerolled(w), &dmg, 1..crits.ny, mortal_cap),
            )
        } else {
            (Grid::zero(1, 1), Grid::zero(1, 1))
        };
        let t = chain.attack_transitions(target, w, blocks);
        let mut next: BTreeMap<(usize, usize), Vec<f64>> = BTreeMap::new();
        // Adds every outcome of `table` starting from `v` to `next`.
        let mut spread = |table: &Grid, v: &[f64], pools: (usize, usize)| {
            let (pool_n, pool_p) = pools;
            let last_n = (0..table.nx)
                .rev()
                .find(|&n| (0..table.ny).any(|m| table.get(n, m) != 0.0))
                .unwrap_or(0);
            let mut cur = v.to_vec();
            for n in 0..=last_n {
                if n > 0 {
                    cur = step(&t, &cur);
                }
                for m in 0..table.ny {
                    let p = table.get(n, m);
                    if p == 0.0 {
                        continue;
                    }
                    let key = if w.precision {
                        (pool_n, (pool_p + m).min(mortal_cap))
                    } else {
                        ((pool_n + m).min(mortal_cap), pool_p)
                    };
                    let slot = next.entry(key).or_insert_with(|| vec![0.0; len]);
                    for (o, c) in slot.iter_mut().zip(&cur) {
                        *o += p * c;
                    }
                }
            }
        };
        for (&pools, v) in &slices {
            if !split_damage {
                spread(&table, v, pools);
                continue;
            }
            // Blocks whose Damage re-roll is used already; those that still hold it, as
            // they are and moved to the block without it.
            let (mut used, mut held, mut moved) = (vec![0.0; len], vec![0.0; len], vec![0.0; len]);
            for f in 0..blocks {
                let block = f * chain.states..(f + 1) * chain.states;
                if f & DAMAGE_FLAG == 0 {
                    used[block.clone()].copy_from_slice(&v[block]);
                } else {
                    held[block.clone()].copy_from_slice(&v[block.clone()]);
                    let to = (f & !DAMAGE_FLAG) * chain.states;
                    moved[to..to + chain.states].copy_from_slice(&v[block]);
                }
            }
            spread(&table, &used, pools);
            spread(&keep, &held, pools);
            spread(&spend, &moved, pools);
        }
        slices = next;
    }

    // Mortal wounds after all normal damage: PRECISION ones first, one wound at a time.
    let mortal_p = chain.mortal_transitions(target, true, blocks);
    let mortal_n = chain.mortal_transitions(target, false, blocks);
    let mut fin = vec![0.0; chain.states];
    for (&(pool_n, pool_p), v) in &slices {
        let mut cur = v.clone();
        for _ in 0..pool_p {
            cur = step(&mortal_p, &cur);
        }
        for _ in 0..pool_n {
            cur = step(&mortal_n, &cur);
        }
        for (k, c) in cur.iter().enumerate() {
            fin[k % chain.states] += c;
        }
    }

    chain_outcome(&chain, &fin)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::attack::roll::monte_carlo;
    use crate::rules::attack::{TargetModel, WeaponGroup};
    use crate::rules::{WeaponAbility, WeaponProfile};

    fn weapon(
        attacks: &str,
        s: u8,
        ap: i8,
        d: &str,
        abilities: Vec<WeaponAbility>,
    ) -> WeaponProfile {
        WeaponProfile {
            profile: None,
            name: "w".into(),
            range: Some(24.0),
            attacks: attacks.parse().unwrap(),
            skill: Some(3),
            strength: s,
            ap,
            damage: d.parse().unwrap(),
            abilities,
        }
    }

    fn unit(n: usize, w: u8, sv: u8, fnp: Option<u8>) -> TargetUnit {
        TargetUnit {
            name: "t".into(),
            toughness: 4,
            keywords: vec![],
            stealth: false,
            models: (0..n)
                .map(|_| TargetModel {
                    name: "m".into(),
                    wounds: w,
                    wounds_remaining: w,
                    save: sv,
                    invulnerable_save: None,
                    feel_no_pain: fnp,
                    leader: false,
                    has_cover: false,
                    allocation_rank: 0,
                    allocated_this_phase: false,
                })
                .collect(),
        }
    }

    fn ctx(attacker: CommandReroll, save: bool) -> AttackContext {
        AttackContext {
            command_reroll: attacker,
            save_command_reroll: save,
            ..AttackContext::default()
        }
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-9, "{a} vs {b}");
    }

    /// Core Stratagems: Command Re-roll of a Damage roll (below average: a D6 of 1-3) and of
    /// the defender's saving throw, by hand: one TORRENT S8 attack against T4 (wounds on 2+)
    /// and a 6-wound model with Sv 4+ (AP 0): a re-rolled D6 averages 0.5 + 3.75 = 4.25, a
    /// re-rolled failed save fails 1/4 of the time.
    #[test]
    fn damage_and_saving_throw_command_rerolls_by_hand() {
        let g = [WeaponGroup::new(
            weapon("1", 8, 0, "D6", vec![WeaponAbility::Torrent]),
            1,
        )];
        let t = unit(1, 6, 4, None);
        let mean = |c: AttackContext| distribution(&g, &t, &c).expected_wounds_lost;
        close(mean(ctx(CommandReroll::None, false)), 5.0 / 6.0 * 0.5 * 3.5);
        close(
            mean(ctx(CommandReroll::DamageRoll, false)),
            5.0 / 6.0 * 0.5 * 4.25,
        );
        close(mean(ctx(CommandReroll::None, true)), 5.0 / 6.0 * 0.25 * 3.5);
        close(
            mean(ctx(CommandReroll::DamageRoll, true)),
            5.0 / 6.0 * 0.25 * 4.25,
        );
        // A HAZARDOUS re-roll does not change what happens to the target.
        close(
            mean(ctx(CommandReroll::HazardousTest, false)),
            5.0 / 6.0 * 0.5 * 3.5,
        );
        let d = distribution(&g, &t, &ctx(CommandReroll::DamageRoll, true));
        close(d.wounds_lost.iter().sum(), 1.0);
        // Lost 1: wounded, unsaved twice, Damage 1 kept after the re-roll: 5/6 * 1/4 * 1/12.
        close(d.wounds_lost[1], 5.0 / 6.0 * 0.25 / 12.0);
        close(d.wounds_lost[6], 5.0 / 6.0 * 0.25 / 4.0);
    }

    /// Command Re-roll of the number of attacks: only the first random Attacks roll (D6: 1-3
    /// re-rolled, averaging 4.25); each TORRENT S8 attack wounds T4 on 2+, no save.
    #[test]
    fn attacks_command_reroll_by_hand() {
        let t = unit(20, 1, 7, None);
        let mean = |bearers: u32, c: CommandReroll| {
            let g = [WeaponGroup::new(
                weapon("D6", 8, 0, "1", vec![WeaponAbility::Torrent]),
                bearers,
            )];
            distribution(&g, &t, &ctx(c, false)).expected_wounds_lost
        };
        close(mean(1, CommandReroll::AttacksRoll), 4.25 * 5.0 / 6.0);
        close(
            mean(2, CommandReroll::AttacksRoll),
            (4.25 + 3.5) * 5.0 / 6.0,
        );
        close(mean(2, CommandReroll::None), 7.0 * 5.0 / 6.0);
    }

    /// 11th Core Rules 05.03-05.04: the saving throws rolled at once and taken lowest first,
    /// against its 10th twin (one attack at a time).
    #[test]
    fn eleventh_saves_are_taken_lowest_first_by_hand() {
        // Two TORRENT S8 attacks (wound on 2+) at a 3+ model and a 6+ model, W1 each, AP 0.
        let mut target = unit(2, 1, 3, None);
        target.models[1].save = 6;
        let gun = weapon("2", 8, 0, "1", vec![WeaponAbility::Torrent]);
        let groups = [WeaponGroup::new(gun, 1)];
        let (n1, n2) = (10.0 / 36.0, 25.0 / 36.0);
        // 11th: the dice sorted; the 3+ group takes the lowest. Both die when the lower die
        // fails the 3+ (is 1-2) and the higher fails the 6+ (is 1-5): 25/36 - 9/36.
        let eleventh = AttackContext {
            ruleset: crate::rules::Ruleset::Eleventh,
            ..AttackContext::default()
        };
        let d = distribution(&groups, &target, &eleventh);
        close(d.models_destroyed[2], n2 * 16.0 / 36.0);
        close(d.models_destroyed[1], n1 * 2.0 / 6.0 + n2 * 4.0 / 36.0);
        // 10th: one at a time; a model that took an attack takes the next.
        let d = distribution(&groups, &target, &AttackContext::default());
        close(d.models_destroyed[2], n2 * 10.0 / 36.0);
        close(d.models_destroyed[1], n1 * 2.0 / 6.0 + n2 * 10.0 / 36.0);
    }

    #[test]
    fn eleventh_devastating_wounds_damage_one_model_per_critical_wound() {
        // One TORRENT attack with DEVASTATING WOUNDS and Damage 3 at three W1 models: a
        // Critical Wound (1/6) kills one model under 11th (the rest is lost), three under 10th.
        let gun = weapon(
            "1",
            4,
            0,
            "3",
            vec![WeaponAbility::Torrent, WeaponAbility::DevastatingWounds],
        );
        let groups = [WeaponGroup::new(gun, 1)];
        let target = unit(3, 1, 7, None);
        let eleventh = AttackContext {
            ruleset: crate::rules::Ruleset::Eleventh,
            ..AttackContext::default()
        };
        let d = distribution(&groups, &target, &eleventh);
        // A normal wound (4-5: 2/6) kills one, a Critical Wound (6: 1/6) kills one.
        close(d.models_destroyed[1], 3.0 / 6.0);
        close(d.models_destroyed[3], 0.0);
        let d = distribution(&groups, &target, &AttackContext::default());
        close(d.models_destroyed[3], 1.0 / 6.0);
    }

    #[test]
    fn eleventh_agrees_with_monte_carlo() {
        use crate::rules::Ruleset::Eleventh;
        use WeaponAbility as A;
        let eleventh = |attacker: CommandReroll, save: bool| AttackContext {
            ruleset: Eleventh,
            ..ctx(attacker, save)
        };
        // Mixed allocation groups: two Sv 3+ W2, three Sv 5+ W1, one CHARACTER (Leader).
        let mut mixed = unit(6, 2, 3, None);
        for m in &mut mixed.models[2..5] {
            m.wounds = 1;
            m.wounds_remaining = 1;
            m.save = 5;
        }
        mixed.models[5].leader = true;
        mixed.models[5].wounds = 4;
        mixed.models[5].wounds_remaining = 4;
        mixed.models[5].invulnerable_save = Some(4);
        mixed.models[1].wounds_remaining = 1;
        let cases: Vec<(&str, Vec<WeaponGroup>, TargetUnit, AttackContext)> = vec![
            (
                "mixed groups, two weapons",
                vec![
                    WeaponGroup::new(weapon("3", 4, -1, "1", vec![]), 3),
                    WeaponGroup::new(weapon("2", 8, -2, "D3", vec![]), 2),
                ],
                mixed.clone(),
                eleventh(CommandReroll::None, false),
            ),
            (
                "devastating and precision with Feel No Pain",
                vec![WeaponGroup::new(
                    weapon(
                        "2",
                        5,
                        -1,
                        "2",
                        vec![A::DevastatingWounds, A::Precision, A::LethalHits],
                    ),
                    3,
                )],
                {
                    let mut m = mixed.clone();
                    m.models[0].feel_no_pain = Some(5);
                    m
                },
                eleventh(CommandReroll::None, false),
            ),
            (
                "damage and saving throw re-rolls",
                vec![
                    WeaponGroup::new(weapon("2", 4, 0, "D3", vec![]), 3),
                    WeaponGroup::new(weapon("1", 6, -1, "D6", vec![A::DevastatingWounds]), 2),
                ],
                mixed.clone(),
                eleventh(CommandReroll::DamageRoll, true),
            ),
            (
                "saving throw re-roll, one group",
                vec![WeaponGroup::new(weapon("3", 4, 0, "1", vec![]), 4)],
                unit(5, 1, 4, None),
                eleventh(CommandReroll::HitRoll, true),
            ),
            (
                "lethal hits declined",
                vec![WeaponGroup::new(
                    weapon("4", 4, -1, "1", vec![A::LethalHits, A::DevastatingWounds]),
                    2,
                )],
                unit(5, 1, 3, None),
                AttackContext {
                    decline_lethal_hits: true,
                    ..eleventh(CommandReroll::None, false)
                },
            ),
        ];
        let trials = 100_000;
        for (i, (name, groups, target, c)) in cases.into_iter().enumerate() {
            let est = estimate(&groups, &target, &c);
            assert!(est.is_exact(), "{name}: exact");
            let exact = est.distribution;
            let total: f64 = exact.wounds_lost.iter().sum();
            close(total, 1.0);
            let mc = monte_carlo(&groups, &target, &c, trials, 177 + i as u64);
            let se = mc.sd_wounds_lost / f64::from(trials).sqrt();
            assert!(
                (exact.expected_wounds_lost - mc.mean_wounds_lost).abs() <= 4.0 * se + 1e-12,
                "{name}: {} vs {} (se {se})",
                exact.expected_wounds_lost,
                mc.mean_wounds_lost
            );
            for (k, p) in exact.models_destroyed.iter().enumerate() {
                let q = mc.models_destroyed.get(k).copied().unwrap_or(0.0);
                let se = (p * (1.0 - p) / f64::from(trials)).sqrt();
                assert!(
                    (p - q).abs() <= 4.5 * se + 1e-3,
                    "{name}: P({k} models destroyed) {p} vs {q}"
                );
            }
        }
    }

    /// The exact distribution agrees with the rolled attack (Monte Carlo) for every new kind
    /// of Command Re-roll, in several weapon groups, with DEVASTATING WOUNDS (whose Damage
    /// roll can take the re-roll first) and Feel No Pain.
    #[test]
    fn command_rerolls_agree_with_monte_carlo() {
        use WeaponAbility as A;
        let cases: Vec<(&str, Vec<WeaponGroup>, TargetUnit, AttackContext)> = vec![
            (
                "damage, two groups",
                vec![
                    WeaponGroup::new(weapon("2", 4, -1, "1", vec![]), 3),
                    WeaponGroup::new(weapon("1", 8, -2, "D6", vec![]), 2),
                ],
                unit(3, 4, 3, None),
                ctx(CommandReroll::DamageRoll, false),
            ),
            (
                "damage with devastating wounds",
                vec![WeaponGroup::new(
                    weapon("3", 5, -1, "D3+1", vec![A::DevastatingWounds]),
                    2,
                )],
                unit(2, 4, 3, Some(6)),
                ctx(CommandReroll::DamageRoll, true),
            ),
            (
                "saving throw, two groups",
                vec![
                    WeaponGroup::new(weapon("2", 4, 0, "1", vec![]), 4),
                    WeaponGroup::new(weapon("1", 6, -1, "2", vec![]), 2),
                ],
                unit(4, 2, 4, None),
                ctx(CommandReroll::WoundRoll, true),
            ),
            (
                "attacks, second group random",
                vec![
                    WeaponGroup::new(weapon("1", 4, 0, "1", vec![]), 2),
                    WeaponGroup::new(weapon("D6+1", 5, -1, "1", vec![]), 2),
                ],
                unit(6, 1, 5, None),
                ctx(CommandReroll::AttacksRoll, false),
            ),
        ];
        let trials = 100_000;
        for (i, (name, groups, target, c)) in cases.into_iter().enumerate() {
            let exact = distribution(&groups, &target, &c);
            let mc = monte_carlo(&groups, &target, &c, trials, 77 + i as u64);
            let se = mc.sd_wounds_lost / f64::from(trials).sqrt();
            assert!(
                (exact.expected_wounds_lost - mc.mean_wounds_lost).abs() <= 4.0 * se + 1e-12,
                "{name}: {} vs {} (se {se})",
                exact.expected_wounds_lost,
                mc.mean_wounds_lost
            );
            for (k, p) in exact.wounds_lost.iter().enumerate() {
                let q = mc.wounds_lost.get(k).copied().unwrap_or(0.0);
                let se = (p * (1.0 - p) / f64::from(trials)).sqrt();
                assert!(
                    (p - q).abs() <= 4.5 * se + 1e-3,
                    "{name}: P({k} wounds lost) {p} vs {q}"
                );
            }
            let without = AttackContext {
                command_reroll: CommandReroll::None,
                save_command_reroll: false,
                ..c
            };
            assert!(
                (distribution(&groups, &target, &without).expected_wounds_lost
                    - exact.expected_wounds_lost)
                    .abs()
                    > 1e-6,
                "{name}: the re-roll changes the distribution"
            );
        }
    }
}
