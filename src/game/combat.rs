//! From a scene's units to the attack sequence's inputs: the target unit as the defender sees it
//! and the models carrying a weapon.
//!
//! Rules Commentary: Unit's Toughness Characteristic (an Attached unit uses its Bodyguard's),
//! Keywords (an Attached unit has its Leaders' keywords), Duplicated Core Abilities (Stealth).

use super::sight::{ModelRef, SceneSight, model_solid};
use crate::data::resolve::Scene;
use crate::geometry::measure::model_distance;
use crate::geometry::sight::{Sampling, SeeThrough};
use crate::rules::attack::eligibility::{ShootingState, can_shoot};
use crate::rules::attack::{AttackContext, TargetModel, TargetUnit, WeaponGroup};
use crate::rules::constants::{
    BASE_CONTACT_INCHES, LONE_OPERATIVE_RANGE_INCHES, MEASURE_TOLERANCE_INCHES,
};
use crate::rules::modifiers::unit_toughness;
use crate::rules::weapon::WeaponProfile;
use crate::rules::{CoreAbility, WeaponAbility};

/// The target unit made of the index entries `entries` (one unit, or an Attached unit: its
/// Leaders are allocated to last). Models are in the scene's order, ranked in the default
/// allocation order ([`super::allocation::default_ranks`]); already-destroyed models do not
/// exist in a scene, so every model starts with its full Wounds.
pub fn target_unit(scene: &Scene, sight: &SceneSight, entries: &[usize]) -> TargetUnit {
    let refs: Vec<ModelRef> = entries.iter().map(|&e| sight.models[e]).collect();
    let mut keywords: Vec<String> = Vec::new();
    let mut models = Vec::new();
    let mut toughness = Vec::new();
    let attached = refs
        .iter()
        .any(|r| unit_of(scene, *r).attached_to.is_some());
    let mut every_model_stealthy = !refs.is_empty();
    let mut names: Vec<&str> = Vec::new();
    // The default allocation ranks, worked out once per unit.
    let mut ranked: Vec<(String, Vec<u32>)> = Vec::new();
    let mut ranks_of = |unit: &crate::data::resolve::Unit| -> Vec<u32> {
        if let Some((_, r)) = ranked.iter().find(|(id, _)| *id == unit.id) {
            return r.clone();
        }
        let r = super::allocation::default_ranks(unit);
        ranked.push((unit.id.clone(), r.clone()));
        r
    };
    for r in &refs {
        let unit = unit_of(scene, *r);
        let d = &unit.datasheet;
        for k in d.keywords.iter().chain(&d.faction_keywords) {
            if !keywords.iter().any(|x| x.eq_ignore_ascii_case(k)) {
                keywords.push(k.clone());
            }
        }
        if !names.contains(&unit.id.as_str()) {
            names.push(&unit.id);
        }
        every_model_stealthy &= d.has_core(&CoreAbility::Stealth);
        let leader = unit.attached_to.is_some();
        let c = &unit.models[r.model].characteristics;
        let rank = ranks_of(unit)[r.model];
        toughness.push((c.toughness, !leader));
        models.push(TargetModel {
            name: format!("{}#{}", unit.id, r.model),
            wounds: c.wounds,
            wounds_remaining: c.wounds,
            save: c.save,
            invulnerable_save: c.invulnerable_save,
            feel_no_pain: d.feel_no_pain,
            leader: unit.attached_to.is_some(),
            has_cover: false,
            allocation_rank: rank,
            allocated_this_phase: false,
        });
    }
    TargetUnit {
        name: names.join(" + "),
        toughness: unit_toughness(&toughness, attached).unwrap_or(1),
        keywords,
        stealth: every_model_stealthy,
        models,
    }
}

fn unit_of(scene: &Scene, r: ModelRef) -> &crate::data::resolve::Unit {
    &scene.armies[r.army].units[r.unit]
}

/// A model carrying the weapon being used.
#[derive(Debug, Clone, PartialEq)]
pub struct Bearer {
    /// Its sight-index entry.
    pub entry: usize,
    /// Its datasheet's profile of the weapon, the one chosen for this use.
    pub profile: WeaponProfile,
    /// Its datasheet's keywords.
    pub keywords: Vec<String>,
    /// Its datasheet's name (bearers are grouped by it).
    pub datasheet: String,
}

/// The models among `entries` that carry the weapon `weapon` (case-insensitive: a weapon's
/// name, with `profile` chosen, or "weapon - profile"), each with its own datasheet's profile
/// (a Leader's bolt pistol may differ from its Bodyguard's); a model carrying a ranged weapon
/// twice is two bearers, a melee weapon twice one.
///
/// # Errors
/// No model carries it (the message lists the weapons the models do carry), or it has
/// several profiles and none was chosen (Core Rules: Datasheets, weapons with profiles).
pub fn bearers(
    scene: &Scene,
    sight: &SceneSight,
    entries: &[usize],
    weapon: &str,
    profile: Option<&str>,
) -> Result<Vec<Bearer>, String> {
    let mut out = Vec::new();
    let mut carried: Vec<String> = Vec::new();
    for &e in entries {
        let r = sight.models[e];
        let unit = unit_of(scene, r);
        let model = &unit.models[r.model];
        for w in model.weapons.iter() {
            if !carried.contains(w) {
                carried.push(w.clone());
            }
        }
        let chosen = unit.datasheet.choose_profile(weapon, profile);
        let copies = |name: &str| {
            model
                .weapons
                .iter()
                .filter(|w| w.eq_ignore_ascii_case(name))
                .count()
        };
        let carries = |name: &str| copies(name) > 0;
        match chosen {
            Ok(p) if carries(&p.name) => {
                // A model with two of a ranged weapon fires both (Core Rules: Making Attacks,
                // every ranged weapon a model carries); in melee it fights with one of them.
                let n = if p.range.is_some() {
                    copies(&p.name)
                } else {
                    1
                };
                for _ in 0..n {
                    out.push(Bearer {
                        entry: e,
                        profile: p.clone(),
                        keywords: unit.datasheet.keywords.clone(),
                        datasheet: unit.datasheet.name.clone(),
                    });
                }
            }
            Ok(_) => {}
            Err(why) if carries(weapon) => return Err(why),
            Err(_) => {}
        }
    }
    if out.is_empty() {
        return Err(format!(
            "no model carries a weapon called '{weapon}' (they carry: {})",
            carried.join(", ")
        ));
    }
    Ok(out)
}

/// What an attack needs to know about the attacking unit beyond the table: how it moved and
/// what it already did (Core Rules: Shooting phase, Big Guns Never Tire).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AttackerCircumstances {
    /// The unit Advanced this turn.
    pub advanced: bool,
    /// The unit Fell Back this turn.
    pub fell_back: bool,
    /// A ONE SHOT weapon of the unit was already fired this battle.
    pub one_shot_used: bool,
}

/// One weapon's attacks from a unit at a target unit, measured on the table: which bearers
/// attack (in range, visible unless INDIRECT FIRE, eligible), grouped by profile and half-range
/// band, and the circumstances the table decides.
#[derive(Debug, Clone)]
pub struct AttackPlan {
    /// The attacking groups (one per datasheet profile, keywords and half-range band).
    pub groups: Vec<WeaponGroup>,
    /// The target unit, every model at full wounds (the caller sets wounds remaining).
    pub target: TargetUnit,
    /// The bearers that attack (index entries).
    pub attacking: Vec<usize>,
    /// The group (index in `groups`) of each bearer in `attacking`.
    pub group_of: Vec<usize>,
    /// Bearers that do not attack: (model name `unit#N`, the rule that stops them).
    pub excluded: Vec<(String, String)>,
    /// The shooting-eligibility facts.
    pub state: ShootingState,
    /// Some model of the attacking unit sees some model of the target.
    pub target_visible: bool,
    /// Every target model has the Benefit of Cover against these attacks (for reports; each
    /// model's own cover is in `target`).
    pub benefit_of_cover: bool,
    /// Plunging Fire applies for some bearer (each group says whether it does for its own).
    pub plunging_fire: bool,
    /// The edition whose attack rules apply (the scene's).
    pub ruleset: crate::rules::Ruleset,
}

impl AttackPlan {
    /// The attack context the table decides (visibility, Big Guns Never Tire, by or against
    /// an engaged MONSTER or VEHICLE); cover and Plunging Fire are per model, in `target`
    /// and `groups`. The caller adds charges, re-rolls and stratagems.
    pub fn context(&self) -> AttackContext {
        AttackContext {
            ruleset: self.ruleset,
            target_visible: self.target_visible,
            big_guns_never_tire: (self.state.engaged && self.state.monster_or_vehicle)
                || self.state.target_big_and_engaged(),
            ..AttackContext::default()
        }
    }

    /// The reasons no bearer attacks, one line ("boyz#3 out of range (14.20\" > 12\")").
    pub fn excluded_summary(&self) -> String {
        self.excluded
            .iter()
            .map(|(m, r)| format!("{m} {r}"))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// Plans the attacks of the models `attackers` (index entries of one unit, `whole_attacker`
/// being every model of that unit, an Attached unit included) with `weapon` at the unit whose
/// entries are `targets`. With `distance` (inches), every bearer is taken to be that far away
/// and `visible` decides visibility (a what-if); without it, the table decides range, sight,
/// Engagement Range, cover and Plunging Fire.
///
/// Core Rules: Shooting phase (targets visible and in range; INDIRECT FIRE needs no sight;
/// Engagement Range rules for PISTOL and Big Guns Never Tire; targets engaged with friendly
/// units), Fight phase (melee bearers within Engagement Range of the target).
///
/// # Errors
/// No model carries the weapon, or no bearer can attack: the message names each bearer's rule.
#[allow(clippy::too_many_arguments)]
pub fn plan_attack(
    scene: &Scene,
    sight: &SceneSight,
    attackers: &[usize],
    whole_attacker: &[usize],
    (weapon, profile): (&str, Option<&str>),
    targets: &[usize],
    what_if: Option<(f32, bool)>,
    circumstances: AttackerCircumstances,
) -> Result<AttackPlan, String> {
    let attacker_army = sight.models[whole_attacker[0]].army;
    let all = bearers(scene, sight, attackers, weapon, profile)?;
    let target = target_unit(scene, sight, targets);
    let sampling = Sampling::FAST;
    let index = &sight.index;
    let measured = what_if.is_none();
    let solid = |i: usize| model_solid(scene, sight.models[i]);
    let engaged_pair =
        |xs: &[usize], ys: &[usize]| measured && sight.any_within_engagement_range(scene, xs, ys);
    let enemies: Vec<usize> = (0..sight.models.len())
        .filter(|&i| sight.models[i].army != attacker_army)
        .collect();
    let other_friends: Vec<usize> = (0..sight.models.len())
        .filter(|&i| sight.models[i].army == attacker_army && !whole_attacker.contains(&i))
        .collect();
    let unit_keywords = |entries: &[usize], k: &[&str]| {
        entries.iter().any(|&i| {
            let r = sight.models[i];
            k.iter().any(|k| unit_of(scene, r).datasheet.has_keyword(k))
        })
    };
    let big = ["MONSTER", "VEHICLE"];
    let state = ShootingState {
        advanced: circumstances.advanced,
        fell_back: circumstances.fell_back,
        engaged: engaged_pair(whole_attacker, &enemies),
        monster_or_vehicle: unit_keywords(whole_attacker, &big),
        target_engaged_with_shooter: engaged_pair(whole_attacker, targets),
        target_engaged_with_friendly: engaged_pair(&other_friends, targets),
        target_monster_or_vehicle: unit_keywords(targets, &big),
        one_shot_used: circumstances.one_shot_used,
    };
    // Whether the target unit is visible to the attacking unit: worked out only when an
    // attack is possible (it is reported with the plan and matters to Indirect Fire).
    let target_visible = || match what_if {
        Some((_, visible)) => visible,
        None => whole_attacker.iter().any(|&o| {
            targets
                .iter()
                .any(|&t| index.model_visible(o, t, SeeThrough::OwnUnit, &sampling))
        }),
    };
    // Whether a bearer sees some target model (asked only of a ranged bearer in range). A
    // ruin or low footprint between the two units, cutting every line, answers for all
    // bearers at once (worked out on the first question).
    let separated = std::cell::OnceCell::new();
    let bearer_sees = |b: &Bearer| match what_if {
        Some((_, visible)) => visible,
        None => {
            !*separated.get_or_init(|| index.units_separated(whole_attacker, targets))
                && targets
                    .iter()
                    .any(|&t| index.model_visible(b.entry, t, SeeThrough::OwnUnit, &sampling))
        }
    };

    // Which models fight (Core Rules: Fight phase): besides those within Engagement Range of
    // the target, a model in base-to-base contact with a model of its own unit that is itself
    // in base-to-base contact with a model of the target (the second rank; 11th edition has
    // none: every engaged model fights, 11th Core Rules 04.02).
    let contact =
        |i: usize, j: usize| model_distance(&solid(i), &solid(j)).distance <= BASE_CONTACT_INCHES;
    let second_rank = |i: usize| {
        whole_attacker
            .iter()
            .any(|&f| f != i && contact(i, f) && targets.iter().any(|&t| contact(f, t)))
    };
    // Lone Operative: a unit (not part of an Attached unit) whose models all have it is
    // shot only from within 12" (Core Rules: Lone Operative).
    let lone_operative = !targets.is_empty()
        && targets
            .iter()
            .all(|&t| crate::game::sight::lone_operative(scene, sight.models[t]));
    let mut attacking: Vec<(&Bearer, bool)> = Vec::new();
    let mut excluded = Vec::new();
    for b in &all {
        let indirect = b.profile.has(&WeaponAbility::IndirectFire);
        let distance = match what_if {
            Some((d, _)) => d,
            None => {
                let me = solid(b.entry);
                targets
                    .iter()
                    .map(|&t| model_distance(&me, &solid(t)).distance)
                    .fold(f32::INFINITY, f32::min)
            }
        };
        let r = sight.models[b.entry];
        let name = format!("{}#{}", unit_of(scene, r).id, r.model);
        let mut exclude = |reason: String| excluded.push((name.clone(), reason));
        match b.profile.range {
            Some(range) if distance > range + MEASURE_TOLERANCE_INCHES => {
                exclude(format!("out of range ({distance:.2}\" > {range}\")"));
            }
            Some(_)
                if lone_operative
                    && distance > LONE_OPERATIVE_RANGE_INCHES + MEASURE_TOLERANCE_INCHES =>
            {
                exclude(format!(
                    "the target is a Lone Operative and cannot be shot from more than {LONE_OPERATIVE_RANGE_INCHES}\" ({distance:.2}\")"
                ));
            }
            Some(_) if !indirect && !bearer_sees(b) => exclude("cannot see the target".into()),
            Some(range) => match can_shoot(&b.profile, &[], &state) {
                Ok(()) => attacking.push((b, distance <= range / 2.0 + MEASURE_TOLERANCE_INCHES)),
                Err(e) => exclude(e.to_string()),
            },
            None if measured
                && !engaged_pair(&[b.entry], targets)
                && !(scene.edition().second_rank_fights && second_rank(b.entry)) =>
            {
                exclude(
                    "not within Engagement Range of the target, nor in base-to-base contact \
                     with a model of its unit that is in base-to-base contact with it"
                        .into(),
                );
            }
            None => attacking.push((b, false)),
        }
    }

    // Plunging Fire is decided per attacking model: only the bearers that stand high in a
    // ruin and see the target improve their AP (Core Rules: Plunging Fire).
    let plunging = |b: &Bearer| {
        measured
            && !b.profile.is_melee()
            && index.plunging_fire(b.entry, targets)
            && targets
                .iter()
                .any(|&t| index.model_visible(b.entry, t, SeeThrough::OwnUnit, &sampling))
    };
    // 11th edition: the Benefit of Cover is the whole target unit's, decided per attacking
    // model (11th Core Rules 13.08).
    let eleventh = index.eleventh();
    let covered = |b: &Bearer| {
        eleventh
            && measured
            && !b.profile.is_melee()
            && index.cover_against(b.entry, targets, &sampling).is_some()
    };
    let mut groups: Vec<WeaponGroup> = Vec::new();
    let mut group_of = Vec::with_capacity(attacking.len());
    for (b, half) in &attacking {
        let plunge = plunging(b);
        let cover = covered(b);
        match groups.iter().position(|g| {
            g.profile == b.profile
                && g.within_half_range == *half
                && g.bearer_keywords == b.keywords
                && g.plunging_fire == plunge
                && g.covered == cover
        }) {
            Some(g) => {
                groups[g].bearers += 1;
                group_of.push(g);
            }
            None => {
                group_of.push(groups.len());
                groups.push(WeaponGroup {
                    within_half_range: *half,
                    bearer_keywords: b.keywords.clone(),
                    plunging_fire: plunge,
                    covered: cover,
                    ..WeaponGroup::new(b.profile.clone(), 1)
                });
            }
        }
    }
    let entries: Vec<usize> = attacking.iter().map(|(b, _)| b.entry).collect();
    let ranged = attacking.iter().any(|(b, _)| !b.profile.is_melee());
    let mut plan = AttackPlan {
        group_of,
        target,
        attacking: entries,
        excluded,
        state,
        target_visible: false,
        benefit_of_cover: false,
        plunging_fire: groups.iter().any(|g| g.plunging_fire),
        ruleset: scene.ruleset(),
        groups,
    };
    if plan.groups.is_empty() {
        return Err(format!(
            "no model can attack with '{weapon}': {}",
            plan.excluded_summary()
        ));
    }
    // The Benefit of Cover is decided per model (Core Rules: Benefit of Cover): each target
    // model that terrain hides in part from some model of the attacking unit (or that stands
    // wholly within cover-granting terrain) saves with it when attacks are allocated to it,
    // and the defender allocates to covered models first. Worked out only for a plan that
    // has attacks.
    if eleventh {
        plan.benefit_of_cover = !plan.groups.is_empty() && plan.groups.iter().all(|g| g.covered);
        plan.target_visible = target_visible();
        return Ok(plan);
    }
    if measured && ranged {
        for (m, &t) in plan.target.models.iter_mut().zip(targets) {
            m.has_cover = index
                .benefit_of_cover(t, whole_attacker, &sampling)
                .is_some();
        }
    }
    let every_model_covered = measured
        && ranged
        && !plan.target.models.is_empty()
        && plan.target.models.iter().all(|m| m.has_cover);
    plan.benefit_of_cover = every_model_covered;
    plan.target_visible = target_visible();
    Ok(plan)
}
