//! A loaded scene's sight index and model lookup: which index entry is which unit and model,
//! and `UNIT[#N]` references as the CLI writes them.

use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::data::resolve::Scene;
use crate::geometry::body::ModelSolid;
use crate::geometry::sight::{SightIndex, SightModel};
use crate::rules::attack::{ResolvedWeapon, TargetUnit};

/// Where a model of the scene sits in the sight index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModelRef {
    /// Army index in `Scene::armies`.
    pub army: usize,
    /// Unit index in the army.
    pub unit: usize,
    /// Model index in the unit.
    pub model: usize,
}

/// A scene's sight index with its models in army, unit, model order. Cloning it is cheap:
/// both parts of the index are shared (see [`SightIndex`]).
#[derive(Clone)]
pub struct SceneSight {
    /// The index.
    pub index: SightIndex,
    /// What each model of the index is (shared by the clones).
    pub models: std::sync::Arc<[ModelRef]>,
}

/// A unit or one of its models, as named on the command line: `UNIT` or `UNIT#N` (N from 0),
/// optionally prefixed by the player, `2:boyz#3`, when both armies use the id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitSelector {
    /// Player, if given.
    pub player: Option<u8>,
    /// Unit id.
    pub unit: String,
    /// Model index, if given.
    pub model: Option<usize>,
}

impl std::str::FromStr for UnitSelector {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (player, rest) = match s.split_once(':') {
            Some((p, rest)) => (
                Some(
                    p.parse::<u8>()
                        .map_err(|_| format!("'{p}' is not a player number (1 or 2)"))?,
                ),
                rest,
            ),
            None => (None, s),
        };
        let (unit, model) = match rest.split_once('#') {
            Some((u, n)) => (
                u,
                Some(
                    n.parse::<usize>()
                        .map_err(|_| format!("'{n}' is not a model index"))?,
                ),
            ),
            None => (rest, None),
        };
        if unit.is_empty() {
            return Err("a unit id is needed, e.g. intercessors or intercessors#2".into());
        }
        Ok(UnitSelector {
            player,
            unit: unit.to_string(),
            model,
        })
    }
}

/// The solid of a model of the scene.
pub fn model_solid(scene: &Scene, r: ModelRef) -> ModelSolid {
    let unit = &scene.armies[r.army].units[r.unit];
    let m = &unit.models[r.model];
    ModelSolid::new(
        m.characteristics.base,
        m.position,
        m.facing,
        m.characteristics.height,
    )
}

/// The note a weapon carries when its PRECISION is withheld ([`withhold_unseen_precision`]).
pub const PRECISION_UNSEEN_NOTE: &str = "PRECISION: no CHARACTER of the target is visible";

/// Withholds PRECISION when no attacking model can see a CHARACTER of the target: unless some
/// model among `attacking` (sight entries) sees a Leader model of `target` (the target unit,
/// whose models are the sight entries `targets`, in order), every weapon of `resolved` loses
/// PRECISION and notes why. Returns true when it was withheld. The game and `wartable attack`
/// (measured on the table) both call it.
///
/// Core Rules: Precision (an attack may be allocated to a CHARACTER model the attacking model
/// can see); Rules Commentary: Attached Units with Multiple Characters (any visible CHARACTER).
pub fn withhold_unseen_precision(
    sight: &SceneSight,
    attacking: &[usize],
    target: &TargetUnit,
    targets: &[usize],
    resolved: &mut [ResolvedWeapon],
) -> bool {
    if !resolved.iter().any(|w| w.precision) {
        return false;
    }
    use crate::geometry::sight::{Sampling, SeeThrough};
    let sampling = Sampling::FAST;
    let seen = target.models.iter().zip(targets).any(|(m, &t)| {
        m.leader
            && attacking.iter().any(|&o| {
                sight
                    .index
                    .model_visible(o, t, SeeThrough::OwnUnit, &sampling)
            })
    });
    if seen {
        return false;
    }
    for w in resolved.iter_mut().filter(|w| w.precision) {
        w.precision = false;
        w.notes.push(PRECISION_UNSEEN_NOTE.into());
    }
    true
}

/// Calls `visit` with each model of `scene` that `keep` accepts, in army, unit, model order,
/// and its sight-index entry. Each unit gets its own unit number, shared by a Leader and its
/// Bodyguard. Stops early, returning false, when `visit` does.
fn for_each_entry(
    scene: &Scene,
    keep: impl Fn(ModelRef) -> bool,
    mut visit: impl FnMut(ModelRef, SightModel) -> bool,
) -> bool {
    let mut base_number = 0;
    for (ai, army) in scene.armies.iter().enumerate() {
        for (ui, unit) in army.units.iter().enumerate() {
            // A Leader takes its Bodyguard's number.
            let bodyguard = unit
                .attached_to
                .as_ref()
                .and_then(|t| army.units.iter().position(|u| &u.id == t));
            let unit_number = base_number + bodyguard.unwrap_or(ui);
            let d = &unit.datasheet;
            let (towering, aircraft, infantry) = (
                d.has_keyword("TOWERING"),
                d.has_keyword("AIRCRAFT"),
                d.has_keyword("INFANTRY"),
            );
            for mi in 0..unit.models.len() {
                let r = ModelRef {
                    army: ai,
                    unit: ui,
                    model: mi,
                };
                if !keep(r) {
                    continue;
                }
                let entry = SightModel {
                    unit: unit_number,
                    solid: model_solid(scene, r),
                    towering,
                    aircraft,
                    infantry,
                };
                if !visit(r, entry) {
                    return false;
                }
            }
        }
        base_number += army.units.len();
    }
    true
}

/// True when the unit of model `r` counts as a Lone Operative: it has the ability and is not
/// part of an Attached unit (Core Rules: Lone Operative; 11th Core Rules 24.24).
pub fn lone_operative(scene: &Scene, r: ModelRef) -> bool {
    let army = &scene.armies[r.army];
    let u = &army.units[r.unit];
    u.datasheet
        .has_core(&crate::rules::abilities::CoreAbility::LoneOperative)
        && u.attached_to.is_none()
        && !army
            .units
            .iter()
            .any(|o| o.attached_to.as_deref() == Some(u.id.as_str()))
}

/// For each of `models`, under an edition where a Lone Operative is not visible beyond its
/// range (11th Core Rules 24.24), that range (inches) for the models of Lone Operative units;
/// empty under 10th, whose rule only limits targeting.
pub fn lone_operative_ranges(scene: &Scene, models: &[ModelRef]) -> Vec<Option<f32>> {
    if !scene.edition().lone_operative_unseen_beyond_range {
        return Vec::new();
    }
    models
        .iter()
        .map(|&r| {
            lone_operative(scene, r).then_some(crate::rules::constants::LONE_OPERATIVE_RANGE_INCHES)
        })
        .collect()
}

/// Keywords whose models may be Hidden under 11th edition (11th Core Rules 13.09).
pub const HIDING_KEYWORDS: [&str; 4] = ["INFANTRY", "BEAST", "BEASTS", "SWARM"];

/// For each of `models`, whether its unit's keywords let it be Hidden under 11th edition, and
/// give it the Benefit of Cover within a terrain area ([`HIDING_KEYWORDS`]); what the unit did
/// (a ranged attack) is the game's to add for Hidden ([`crate::game::Game::sight`]). Empty
/// under 10th.
pub fn may_hide(scene: &Scene, models: &[ModelRef]) -> Vec<bool> {
    if scene.edition().sight == crate::rules::ruleset::SightRules::Footprints {
        return Vec::new();
    }
    models
        .iter()
        .map(|r| {
            let d = &scene.armies[r.army].units[r.unit].datasheet;
            HIDING_KEYWORDS.iter().any(|k| d.has_keyword(k))
        })
        .collect()
}

/// The models of `scene` that `keep` accepts, in army, unit, model order, each with its
/// sight-index entry ([`for_each_entry`]).
fn entries(scene: &Scene, keep: impl Fn(ModelRef) -> bool) -> (Vec<ModelRef>, Vec<SightModel>) {
    let mut models = Vec::new();
    let mut entries = Vec::new();
    for_each_entry(scene, keep, |r, entry| {
        models.push(r);
        entries.push(entry);
        true
    });
    (models, entries)
}

impl SceneSight {
    /// Builds the sight index of `scene`: its terrain (with its window convention) and every
    /// model. Each unit gets its own unit number, shared by a Leader and its Bodyguard (one
    /// Attached unit, whose models see through each other).
    pub fn new(scene: &Scene) -> Self {
        Self::with_models(scene, |_| true)
    }

    /// Like [`SceneSight::new`], with only the models `keep` accepts (a battle in progress
    /// leaves out destroyed, embarked and Reserves models); entries keep referring to the
    /// scene's army, unit and model indices. The terrain part is shared with any index of the
    /// same layout in use ([`crate::geometry::sight::TerrainSight::shared`]).
    pub fn with_models(scene: &Scene, keep: impl Fn(ModelRef) -> bool) -> Self {
        let (models, entries) = entries(scene, keep);
        let mut index = SightIndex::new_under(&scene.layout.pieces, &scene.terrain_rules());
        index.set_models(entries);
        let hiding = may_hide(scene, &models);
        index.set_area_cover(hiding.clone());
        index.set_may_hide(hiding);
        index.set_lone_operatives(lone_operative_ranges(scene, &models));
        SceneSight {
            index,
            models: models.into(),
        }
    }

    /// Brings the index in step with `scene` and the models `keep` accepts, as
    /// [`SceneSight::with_models`] would build it, redoing only what changed: models that moved,
    /// left or arrived get their volumes worked out again; the others keep theirs; the terrain
    /// part is kept unless the layout changed. Returns whether anything changed (when nothing
    /// did, the index is left as it is, still shared with its clones).
    pub fn update(&mut self, scene: &Scene, keep: impl Fn(ModelRef) -> bool) -> bool {
        if !self
            .index
            .terrain()
            .is_for_under(&scene.layout.pieces, &scene.terrain_rules())
        {
            *self = Self::with_models(scene, keep);
            return true;
        }
        if self.matches(scene, &keep) {
            return false;
        }
        let (models, entries) = entries(scene, keep);
        // Both lists are in army, unit, model order: match the entries up in one pass.
        let order = |r: &ModelRef| (r.army, r.unit, r.model);
        let mut previous = Vec::with_capacity(models.len());
        let mut j = 0;
        for r in &models {
            while j < self.models.len() && order(&self.models[j]) < order(r) {
                j += 1;
            }
            previous.push((self.models.get(j) == Some(r)).then_some(j));
        }
        let changed = self.index.update_models(entries, |i| previous[i]);
        if *models != *self.models {
            let hiding = may_hide(scene, &models);
            self.index.set_area_cover(hiding.clone());
            self.index.set_may_hide(hiding);
            self.models = models.into();
            return true;
        }
        changed
    }

    /// Whether the index holds exactly the entries [`SceneSight::with_models`] would build
    /// for `scene` and `keep` (the same models, where they stand now), found without building
    /// them: the common case of a query asked again before anything moved.
    fn matches(&self, scene: &Scene, keep: &impl Fn(ModelRef) -> bool) -> bool {
        let list = self.index.models();
        let mut j = 0;
        let same = for_each_entry(scene, keep, |r, entry| {
            let same = self.models.get(j) == Some(&r) && list[j] == entry;
            j += 1;
            same
        });
        same && j == self.models.len()
    }

    /// The index entries a selector names: one model (`UNIT#N`), or every model of the unit
    /// together with its Leader or Bodyguard (the Attached unit).
    ///
    /// # Errors
    /// The unit is unknown, ambiguous between the players, or has no such model.
    pub fn select(&self, scene: &Scene, sel: &UnitSelector) -> Result<Vec<usize>, String> {
        let matches: Vec<(usize, usize)> = scene
            .armies
            .iter()
            .enumerate()
            .filter(|(_, a)| sel.player.is_none_or(|p| p == a.player))
            .flat_map(|(ai, a)| {
                a.units
                    .iter()
                    .enumerate()
                    .filter(|(_, u)| u.id == sel.unit)
                    .map(move |(ui, _)| (ai, ui))
            })
            .collect();
        let (army, unit) = match matches.as_slice() {
            [one] => *one,
            [] => {
                let known: Vec<String> = scene
                    .armies
                    .iter()
                    .flat_map(|a| {
                        a.units
                            .iter()
                            .map(move |u| format!("{}:{}", a.player, u.id))
                    })
                    .collect();
                return Err(format!(
                    "unknown unit '{}' (units: {})",
                    sel.unit,
                    known.join(", ")
                ));
            }
            _ => {
                return Err(format!(
                    "both players have a unit '{}'; write 1:{0} or 2:{0}",
                    sel.unit
                ));
            }
        };
        // A whole unit includes its Attached unit: the Leader with its Bodyguard.
        let units = &scene.armies[army].units;
        let root = units[unit]
            .attached_to
            .as_ref()
            .and_then(|t| units.iter().position(|u| &u.id == t))
            .unwrap_or(unit);
        let in_attached = |u: usize| {
            u == root || units[u].attached_to.as_deref() == Some(units[root].id.as_str())
        };
        let picked: Vec<usize> = self
            .models
            .iter()
            .enumerate()
            .filter(|(_, r)| {
                r.army == army
                    && match sel.model {
                        Some(m) => r.unit == unit && r.model == m,
                        None => in_attached(r.unit),
                    }
            })
            .map(|(i, _)| i)
            .collect();
        if picked.is_empty() {
            let n = units[unit].models.len();
            return Err(if n == 0 {
                format!("unit '{}' has no models left", sel.unit)
            } else {
                format!(
                    "unit '{}' has models #0 to #{}, not #{}",
                    sel.unit,
                    n - 1,
                    sel.model.unwrap_or(0)
                )
            });
        }
        Ok(picked)
    }
}

impl SceneSight {
    /// True if any model of `xs` is within Engagement Range of any other model of `ys` (index
    /// entries), measured across the layout's barricades (Core Rules: Engagement Range).
    pub fn any_within_engagement_range(&self, scene: &Scene, xs: &[usize], ys: &[usize]) -> bool {
        let barricades = scene.barricade_footprints();
        let solids: Vec<ModelSolid> = ys
            .iter()
            .map(|&j| model_solid(scene, self.models[j]))
            .collect();
        xs.iter().any(|&i| {
            let a = model_solid(scene, self.models[i]);
            ys.iter().zip(&solids).any(|(&j, b)| {
                i != j
                    && crate::rules::engagement::within_engagement_range_in(
                        scene.edition(),
                        &a,
                        b,
                        &barricades,
                    )
            })
        })
    }
}

/// A battle's sight index kept between queries (see [`crate::game::Game::sight`]): built once,
/// then brought in step with the table each time it is asked for ([`SceneSight::update`]), so
/// that a query always sees the models where they stand now. Cloning it (with the game) shares
/// the index.
#[derive(Default)]
pub struct SightCache(Mutex<Option<SceneSight>>);

impl SightCache {
    /// The sight index of `scene` with the models `keep` accepts, as
    /// [`SceneSight::with_models`] builds it: the kept index, updated where the scene changed
    /// since the last call, or built on the first call. The copy returned shares the kept one's
    /// terrain and models (two reference counts).
    pub fn get(&self, scene: &Scene, keep: impl Fn(ModelRef) -> bool) -> SceneSight {
        let mut kept = self.lock();
        match kept.as_mut() {
            Some(sight) => {
                sight.update(scene, keep);
                sight.clone()
            }
            None => kept.insert(SceneSight::with_models(scene, keep)).clone(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Option<SceneSight>> {
        // The cache only ever holds a whole index: one left by a panicking thread is whole.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Clone for SightCache {
    fn clone(&self) -> Self {
        SightCache(Mutex::new(self.lock().clone()))
    }
}

impl std::fmt::Debug for SightCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.try_lock().as_deref() {
            Ok(Some(sight)) => write!(f, "SightCache({} models)", sight.models.len()),
            Ok(None) => write!(f, "SightCache(empty)"),
            Err(_) => write!(f, "SightCache(..)"),
        }
    }
}

/// Visibility of one unit to another: (unit visible, unit fully visible).
pub type UnitPairVisibility = (bool, bool);

impl SceneSight {
    /// Index entries of each unit, in army and unit order, with the unit's player.
    pub fn units(&self, scene: &Scene) -> Vec<(u8, Vec<usize>)> {
        let mut out: Vec<(u8, Vec<usize>)> = Vec::new();
        let mut last = None;
        for (i, r) in self.models.iter().enumerate() {
            if last != Some((r.army, r.unit)) {
                out.push((scene.armies[r.army].player, Vec::new()));
                last = Some((r.army, r.unit));
            }
            out.last_mut().expect("pushed").1.push(i);
        }
        out
    }

    /// The unit-pair visibility matrix of both armies: for every unit and every enemy unit,
    /// whether the enemy unit is visible and fully visible to it (Rules Commentary: Unit Fully
    /// Visible: every target model fully visible to every observing model, seeing through both
    /// units).
    pub fn unit_matrix(
        &self,
        scene: &Scene,
        sampling: &crate::geometry::sight::Sampling,
    ) -> Vec<Vec<Option<UnitPairVisibility>>> {
        use crate::geometry::sight::SeeThrough;
        let units = self.units(scene);
        units
            .iter()
            .map(|(po, obs)| {
                units
                    .iter()
                    .map(|(pt, tgt)| {
                        (po != pt).then(|| {
                            if self.index.units_separated(obs, tgt) {
                                return (false, false);
                            }
                            let visible = tgt.iter().any(|&t| {
                                !self.index.units_separated(obs, &[t])
                                    && obs.iter().any(|&o| {
                                        self.index
                                            .model_visibility(o, t, SeeThrough::OwnUnit, sampling)
                                            .visible
                                    })
                            });
                            let fully = visible
                                && obs.iter().all(|&o| {
                                    tgt.iter().all(|&t| {
                                        self.index
                                            .model_visibility(
                                                o,
                                                t,
                                                SeeThrough::OwnAndTargetUnit,
                                                sampling,
                                            )
                                            .fully_visible
                                    })
                                });
                            (visible, fully)
                        })
                    })
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_read_unit_model_and_player() {
        let s: UnitSelector = "boyz#3".parse().unwrap();
        assert_eq!(
            (s.player, s.unit.as_str(), s.model),
            (None, "boyz", Some(3))
        );
        let s: UnitSelector = "2:captain".parse().unwrap();
        assert_eq!(
            (s.player, s.unit.as_str(), s.model),
            (Some(2), "captain", None)
        );
        assert!("boyz#x".parse::<UnitSelector>().is_err());
        assert!("x:boyz".parse::<UnitSelector>().is_err());
        assert!("#2".parse::<UnitSelector>().is_err());
    }

    #[test]
    fn selecting_names_the_problem() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let scene = crate::data::load_scene(&root.join("scenes/default.ron")).unwrap();
        let sight = SceneSight::new(&scene);
        // The whole unit comes with its Leader (the Warboss is attached to the mob).
        let all = sight.select(&scene, &"boyz-mob".parse().unwrap()).unwrap();
        assert_eq!(all.len(), 21);
        let boss = sight.select(&scene, &"warboss".parse().unwrap()).unwrap();
        assert_eq!(boss.len(), 21, "naming the Leader names the Attached unit");
        let one = sight
            .select(&scene, &"boyz-mob#19".parse().unwrap())
            .unwrap();
        assert_eq!(one.len(), 1);
        assert!(all.contains(&one[0]));
        let err = sight
            .select(&scene, &"boyz-mob#20".parse().unwrap())
            .unwrap_err();
        assert!(err.contains("#0 to #19"), "{err}");
        let err = sight
            .select(&scene, &"1:boyz-mob".parse().unwrap())
            .unwrap_err();
        assert!(err.contains("unknown unit 'boyz-mob'"), "{err}");
    }
}
