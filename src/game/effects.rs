//! Army rules, Detachment rules, Enhancements, Detachment Stratagems and datasheet abilities in
//! play: which [`Effect`]s are active for a unit, the choices rules give a player (Oath of
//! Moment's target, the Waaagh!), Detachment Stratagems, and the referee override for whatever
//! the engine does not apply.
//!
//! One evaluator ([`Game::attack_changes`], [`Game::defence_changes`]) gathers the effects
//! active for an attack and feeds the attack inputs, so the dice, the exact distribution and
//! the odds chart all include them. Core Rules: Army Rules, Detachment Rules, Stratagems,
//! Enhancements, Modifiers; Rules Commentary: Modifiers, Re-rolls.

use serde::{Deserialize, Serialize};

use super::event::GameEvent;
use super::rejection::{Rejection, Rule, reject};
use super::sight::ModelRef;
use super::state::{Game, Location};
use crate::data::faction_rules::{Lasts, Limit, Pick, RuleStatus, RuleStratagem, same_name};
use crate::rules::dice::DiceExpr;
use crate::rules::effect::{AttackChanges, Condition, Effect, Modifier, Scope, When};
use crate::rules::phase::Stage;
use crate::rules::phase::{Phase, opponent};

/// The best Save characteristic a rule improving it ([`Modifier::ImproveSave`]) can give: 3+
/// (Astra Militarum Orders: Take Cover!).
pub const IMPROVED_SAVE_BEST: i32 = 3;

/// A choice a rule gave its player, in force or made earlier this battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleChoiceMade {
    /// The player.
    pub player: u8,
    /// The rule ("Oath of Moment").
    pub rule: String,
    /// The enemy unit's id or the option chosen; None for a declared rule (Waaagh!).
    pub pick: Option<String>,
    /// The battle round it was made in.
    pub round: u8,
    /// How long it lasts.
    pub lasts: Lasts,
    /// The unit of the player's army that made the pick ([`Pick::EnemyUnitBy`]), if any.
    pub by: Option<String>,
}

/// Effects in force on one unit for a while: a Detachment Stratagem's, or a referee override.
#[derive(Debug, Clone, PartialEq)]
pub struct ActiveEffect {
    /// The unit's army.
    pub army: usize,
    /// The unit (the root of an Attached unit).
    pub unit: usize,
    /// Its source ("Storm of Fire", "referee").
    pub source: String,
    /// The effects.
    pub effects: Vec<Effect>,
    /// Until when.
    pub lasts: Lasts,
}

/// The state of the rules beyond the core: choices in force, Stratagem effects, what was used.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EffectsState {
    /// Choices in force.
    pub choices: Vec<RuleChoiceMade>,
    /// Every choice made this battle (for once-per-battle limits).
    pub history: Vec<RuleChoiceMade>,
    /// Effects in force on units.
    pub active: Vec<ActiveEffect>,
    /// Detachment Stratagems (and army rule actions) used this phase: (player, name).
    pub stratagems_used: Vec<(u8, String)>,
    /// Each player's army rule tokens left this battle round (Battle Focus).
    pub tokens: [u32; 2],
    /// Units that performed an army rule action this phase: (army, root unit).
    pub acted: Vec<(usize, usize)>,
    /// Each player's Yield points ([`crate::data::faction_rules::Rule::yield_points`]).
    pub yield_points: [u32; 2],
}

/// What the referee override does (a logged command either player may give in a hot-seat or
/// solo game, for a rule the engine does not apply). Each is shown in the dice log as an
/// override, kept in the save and replayed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum RefereeAction {
    /// The model (`unit#N`, either army) suffers this many mortal wounds (no saves, no Feel
    /// No Pain: the rule being applied by hand says what it allows).
    MortalWounds {
        /// The model.
        model: String,
        /// Wounds lost.
        wounds: u8,
    },
    /// The model regains this many lost wounds (never above its Wounds); a destroyed model
    /// of a unit still on the battlefield returns with them (set back where it fell).
    RestoreWounds {
        /// The model.
        model: String,
        /// Wounds regained.
        wounds: u8,
    },
    /// The unit (either army) gets these effects until `lasts`: a characteristic or a roll
    /// type modified.
    Modify {
        /// The unit.
        unit: String,
        /// What changes.
        effects: Vec<Effect>,
        /// Until the end of the phase or the turn.
        lasts: Lasts,
    },
    /// The unit becomes Battle-shocked, or stops being so.
    BattleShock {
        /// The unit.
        unit: String,
        /// Battle-shocked or not.
        shocked: bool,
    },
    /// Adds (positive) or spends (negative) command points of a player.
    CommandPoints {
        /// Whose.
        of: u8,
        /// How many.
        change: i32,
    },
    /// Moves a model to a point, ignoring the movement rules.
    MoveModel {
        /// The model.
        model: String,
        /// Where (inches; z is the height it stands at).
        to: (f32, f32, f32),
    },
}

/// What the armies' rules hold, worked out once per game (the armies' rules and datasheets
/// never change in a game): the units with an Aura effect, and per army the primitives its
/// rules use (Aura primitives count for both armies). Stratagem and override effects in force
/// are looked at each time.
#[derive(Debug, Clone, Default)]
pub struct RuleCache {
    aura_units: Vec<(usize, usize)>,
    kinds: Vec<Vec<std::mem::Discriminant<Modifier>>>,
}

/// A rule effect as the engine found it for a unit: the effect and the rule's name, borrowed
/// from the game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SourcedEffect<'a> {
    /// The rule's name.
    pub source: &'a str,
    /// The effect.
    pub effect: &'a Effect,
    /// The unit index whose rule it is (for Leader-only rules: the Leader's unit); for an
    /// Aura, the unit it covers.
    pub owner: usize,
    /// The army whose rule it is (its player's choices are the ones [`Condition::Chosen`]
    /// and [`Condition::TargetChosen`] look at): the other army for an enemy Aura.
    pub of: usize,
}

/// The facts conditions are judged on, for one unit (and one attack).
#[derive(Debug, Clone, Copy)]
struct Facts {
    army: usize,
    unit: usize,
    target: Option<(usize, usize)>,
    strength_above_toughness: Option<bool>,
    wounds_left: Option<u8>,
}

impl Game {
    /// A game on `scene` for a what-if question (`wartable attack`): every unit on the
    /// battlefield where the scene places it, nothing done yet, with these choices of the
    /// players' rules in force (`(player, rule, pick)`).
    ///
    /// # Errors
    /// A rule the player's army does not have, or a pick it does not allow.
    pub fn what_if(
        scene: crate::data::Scene,
        choices: &[(u8, String, Option<String>)],
    ) -> Result<Game, String> {
        let mut g = Game::blank(scene, 1);
        for army in &mut g.units {
            for u in army.iter_mut() {
                u.location = Location::OnTable;
            }
        }
        for (player, rule, pick) in choices {
            let army = g
                .army_of(*player)
                .ok_or_else(|| format!("there is no player {player}"))?;
            let r = g.scene.armies[army]
                .rules
                .rule(rule)
                .cloned()
                .ok_or_else(|| format!("player {player}'s army has no rule '{rule}'"))?;
            let choice = r
                .choice
                .clone()
                .ok_or_else(|| format!("'{}' gives no choice", r.name))?;
            g.effects.choices.push(RuleChoiceMade {
                player: *player,
                rule: r.name.clone(),
                pick: pick.clone(),
                round: 1,
                lasts: choice.lasts,
                by: None,
            });
        }
        Ok(g)
    }

    /// When the battle begins: each rule whose choice is made before the battle and was not
    /// made takes its first option (Declare Battle Formations; see [`Choice::before_battle`]).
    ///
    /// [`Choice::before_battle`]: crate::data::faction_rules::Choice::before_battle
    pub(super) fn before_battle_choices(&mut self, ev: &mut Vec<GameEvent>) {
        for army in 0..self.scene.armies.len() {
            let player = self.player_of(army);
            let due: Vec<(String, Option<String>, Lasts)> = self.scene.armies[army]
                .rules
                .rules()
                .filter(|r| r.status() == RuleStatus::Applied)
                .filter_map(|r| {
                    let c = r.choice.as_ref().filter(|c| c.before_battle)?;
                    let made = self
                        .effects
                        .history
                        .iter()
                        .any(|h| h.player == player && same_name(&h.rule, &r.name));
                    let first = match &c.pick {
                        Pick::OneOf(o) => o.first().cloned(),
                        _ => None,
                    };
                    (!made).then(|| (r.name.clone(), first, c.lasts))
                })
                .collect();
            for (rule, pick, lasts) in due {
                let made = RuleChoiceMade {
                    player,
                    rule: rule.clone(),
                    pick: pick.clone(),
                    round: self.battle_round,
                    lasts,
                    by: None,
                };
                self.effects.choices.push(made.clone());
                self.effects.history.push(made);
                ev.push(GameEvent::RuleChosen {
                    player,
                    rule,
                    pick,
                    by: None,
                });
            }
        }
    }

    /// Every effect of a rule that covers the unit (`army`, `unit`), whatever its condition:
    /// the army and Detachment rules covering its keywords, its datasheet abilities and
    /// Enhancements, those of a Leader leading it (or of the Bodyguard it leads) that cover
    /// the Attached unit, and the Stratagem and override effects in force on it.
    pub fn unit_effects(&self, army: usize, unit: usize) -> Vec<SourcedEffect<'_>> {
        let mut out = Vec::new();
        for (name, e) in self.army_rule_effects(army, unit) {
            if e.scope.aura().is_some() {
                continue;
            }
            out.push(SourcedEffect {
                source: name,
                effect: e,
                owner: unit,
                of: army,
            });
        }
        let combined = self.combined(army, unit);
        let attached = combined.len() > 1;
        for &x in &combined {
            for (name, e) in self.datasheet_effects(army, x) {
                let mine = x == unit && e.scope == Scope::Unit;
                let leads = (attached || x == unit) && e.scope == Scope::Attached;
                if mine || leads {
                    out.push(SourcedEffect {
                        source: name,
                        effect: e,
                        owner: x,
                        of: army,
                    });
                }
            }
        }
        self.aura_effects(army, unit, &mut out);
        let root = combined[0];
        for act in &self.effects.active {
            if act.army == army && act.unit == root {
                for e in &act.effects {
                    out.push(SourcedEffect {
                        source: &act.source,
                        effect: e,
                        owner: unit,
                        of: army,
                    });
                }
            }
        }
        out
    }

    /// The effects of the army and Detachment rules covering the unit's keywords.
    fn army_rule_effects(
        &self,
        army: usize,
        unit: usize,
    ) -> impl Iterator<Item = (&str, &Effect)> + '_ {
        let a = &self.scene.armies[army];
        let d = &a.units[unit].datasheet;
        a.rules
            .rules()
            .filter(move |r| r.covers_datasheet(d, &a.rules.keyword))
            .flat_map(|r| r.effects.iter().map(move |e| (r.name.as_str(), e)))
    }

    /// The effects of the unit's own datasheet abilities and Enhancements (a shared ability of
    /// the faction file is the datasheet ability's own since the army was built: see
    /// `data::resolve`).
    fn datasheet_effects(
        &self,
        army: usize,
        unit: usize,
    ) -> impl Iterator<Item = (&str, &Effect)> + '_ {
        let u = &self.scene.armies[army].units[unit];
        u.datasheet
            .abilities
            .iter()
            .map(|ab| (ab.name.as_str(), &ab.effects))
            .chain(u.enhancements.iter().map(|e| (e.name.as_str(), &e.effects)))
            .flat_map(|(n, es)| es.iter().map(move |e| (n, e)))
    }

    /// To be called after changing an army's rules or a unit's datasheet abilities in
    /// [`Game::scene`] once the game has begun (tests that take the rules away): what the rules
    /// hold is worked out again.
    pub fn rules_changed(&mut self) {
        self.rule_cache = std::sync::OnceLock::new();
    }

    /// What the armies' rules hold, found once per game ([`RuleCache`]).
    fn rule_cache(&self) -> &RuleCache {
        self.rule_cache.get_or_init(|| {
            let mut cache = RuleCache::default();
            let armies = self.scene.armies.len();
            cache.kinds = vec![Vec::new(); armies];
            let mut aura_kinds = Vec::new();
            for army in 0..armies {
                for unit in 0..self.scene.armies[army].units.len() {
                    let mut aura = false;
                    for (_, e) in self
                        .army_rule_effects(army, unit)
                        .chain(self.datasheet_effects(army, unit))
                    {
                        let kinds = if e.scope.aura().is_some() {
                            aura = true;
                            &mut aura_kinds
                        } else {
                            &mut cache.kinds[army]
                        };
                        for m in &e.does {
                            let d = std::mem::discriminant(m);
                            if !kinds.contains(&d) {
                                kinds.push(d);
                            }
                        }
                    }
                    if aura {
                        cache.aura_units.push((army, unit));
                    }
                }
            }
            // An Aura's primitive may reach a unit of either army.
            for kinds in &mut cache.kinds {
                for d in &aura_kinds {
                    if !kinds.contains(d) {
                        kinds.push(*d);
                    }
                }
            }
            cache
        })
    }

    /// The units whose rules have an Aura effect.
    fn aura_units(&self) -> &[(usize, usize)] {
        &self.rule_cache().aura_units
    }

    /// Adds the Aura effects covering the unit (`army`, `unit`): a friendly unit's `Aura` or an
    /// enemy unit's `EnemyAura` with a model within range of the (Attached) unit's models
    /// (Core Rules: Aura Abilities). Conditions are judged on the unit covered.
    fn aura_effects<'a>(&'a self, army: usize, unit: usize, out: &mut Vec<SourcedEffect<'a>>) {
        let sources = self.aura_units();
        if sources.is_empty() {
            return;
        }
        let root = self.combined(army, unit)[0];
        let mine = self.live_models(army, root);
        if mine.is_empty() {
            return;
        }
        for &(b, v) in sources {
            let theirs = self.live_models(b, v);
            if theirs.is_empty() {
                continue;
            }
            let effects = self
                .army_rule_effects(b, v)
                .chain(self.datasheet_effects(b, v));
            let mut extra = None;
            for (name, e) in effects {
                let Some((range, friendly)) = e.scope.aura() else {
                    continue;
                };
                if friendly != (b == army) {
                    continue;
                }
                let from_bearer = e.conditions.iter().all(|c| match c {
                    Condition::AuraFrom(ks) => ks.iter().any(|k| {
                        let d = &self.scene.armies[b].units[v].datasheet;
                        d.has_keyword(k) || same_name(&d.name, k)
                    }),
                    _ => true,
                });
                if !from_bearer {
                    continue;
                }
                let range = range + *extra.get_or_insert_with(|| self.aura_range_bonus(b, v));
                if !self.models_within(&mine, &theirs, range) {
                    continue;
                }
                // The same Aura from several units (an army rule, two models with the ability)
                // covers a unit once (Core Rules: Aura Abilities).
                if out.iter().any(|s| s.source == name && *s.effect == *e) {
                    continue;
                }
                out.push(SourcedEffect {
                    source: name,
                    effect: e,
                    owner: unit,
                    of: b,
                });
            }
        }
    }

    /// True when the point `p` is in `owner`'s Shadow of Chaos ([`Condition::InShadowOfChaos`]).
    fn in_shadow_of_chaos(&self, owner: u8, p: crate::geometry::Vec2) -> bool {
        let area = self.zone_at(p);
        if area == Some(owner) {
            return true;
        }
        let markers: Vec<usize> = (0..self.scene.objectives.len())
            .filter(|&i| self.objective_zone(i) == area)
            .collect();
        let held = markers
            .iter()
            .filter(|&&i| self.objectives.get(i).copied().flatten() == Some(owner))
            .count();
        !markers.is_empty() && 2 * held >= markers.len()
    }

    /// The inches the bearer unit's own rules add to its Auras ([`Modifier::AuraRange`]): its
    /// army rule and datasheet effects that are not Auras themselves, conditions holding.
    fn aura_range_bonus(&self, army: usize, unit: usize) -> f32 {
        if !self.army_may_have(army, &Modifier::AuraRange(0)) {
            return 0.0;
        }
        let mut total = 0;
        for (name, e) in self
            .army_rule_effects(army, unit)
            .chain(self.datasheet_effects(army, unit))
        {
            if e.scope.aura().is_some() || e.when != When::Always {
                continue;
            }
            let s = SourcedEffect {
                source: name,
                effect: e,
                owner: unit,
                of: army,
            };
            if !self.effect_holds(army, &s) {
                continue;
            }
            for m in &e.does {
                if let Modifier::AuraRange(x) = m {
                    total += x;
                }
            }
        }
        total.max(0) as f32
    }

    /// True when a model of `xs` is within `inches` of a model of `ys`.
    pub(super) fn models_within(&self, xs: &[ModelRef], ys: &[ModelRef], inches: f32) -> bool {
        xs.iter().any(|a| {
            let sa = self.solid(*a);
            ys.iter().any(|b| {
                crate::geometry::measure::model_distance(&sa, &self.solid(*b)).distance
                    <= inches + crate::rules::constants::MEASURE_TOLERANCE_INCHES
            })
        })
    }

    /// True when a condition holds for the unit in `f`; `rule` names the rule whose effect it
    /// is (for [`Condition::TargetChosen`] and [`Condition::Chosen`]).
    fn condition_holds(&self, c: &Condition, rule: &str, rule_army: usize, f: &Facts) -> bool {
        // The choices are those of the player whose rule it is (an enemy Aura's owner).
        let player = self.player_of(rule_army);
        let root = self.combined(f.army, f.unit)[0];
        let state = &self.units[f.army][root];
        match c {
            Condition::Chosen(what) => self.effects.choices.iter().any(|ch| {
                ch.player == player
                    && (same_name(&ch.rule, what)
                        || ch.pick.as_deref().is_some_and(|p| same_name(p, what)))
            }),
            Condition::TargetChosen => f.target.is_some_and(|(ta, tu)| {
                let troot = self.combined(ta, tu)[0];
                self.effects.choices.iter().any(|ch| {
                    ch.player == player
                        && same_name(&ch.rule, rule)
                        && ch.pick.as_deref().is_some_and(|p| {
                            self.find_unit(ta, p)
                                .is_some_and(|x| self.combined(ta, x)[0] == troot)
                        })
                })
            }),
            Condition::TargetChosenBy(k) => f.target.is_some_and(|(ta, tu)| {
                let troot = self.combined(ta, tu)[0];
                let army = self.army_of(player).unwrap_or(rule_army);
                self.effects.choices.iter().any(|ch| {
                    ch.player == player
                        && same_name(&ch.rule, rule)
                        && ch.pick.as_deref().is_some_and(|p| {
                            self.find_unit(ta, p)
                                .is_some_and(|x| self.combined(ta, x)[0] == troot)
                        })
                        && ch.by.as_deref().is_some_and(|b| {
                            self.find_unit(army, b).is_some_and(|x| {
                                self.combined(army, x)
                                    .iter()
                                    .any(|&y| self.unit_has_keyword(army, y, k))
                            })
                        })
                })
            }),
            Condition::Picker => self.effects.choices.iter().any(|ch| {
                ch.player == player
                    && same_name(&ch.rule, rule)
                    && ch.by.as_deref().is_some_and(|b| {
                        self.find_unit(f.army, b)
                            .is_some_and(|x| self.combined(f.army, x)[0] == root)
                    })
            }),
            Condition::Charged => state.charged,
            Condition::RemainedStationary => {
                state.moved == Some(crate::rules::movement::Moved::Stationary)
            }
            Condition::Advanced => {
                state.moved
                    == Some(crate::rules::movement::Moved::Moved(
                        crate::rules::movement::MoveMode::Advance,
                    ))
            }
            Condition::TargetOnObjective => f
                .target
                .is_some_and(|(ta, tu)| self.within_objective_range(ta, tu)),
            Condition::OnObjective => self.within_objective_range(f.army, f.unit),
            Condition::OnControlledObjective => {
                let owner = self.player_of(f.army);
                self.objectives_in_range(f.army, f.unit)
                    .any(|i| self.objectives.get(i).copied().flatten() == Some(owner))
            }
            Condition::BelowHalfStrength => self.below_half_strength(f.army, root),
            Condition::TargetBelowHalfStrength => f
                .target
                .is_some_and(|(ta, tu)| self.below_half_strength(ta, self.combined(ta, tu)[0])),
            Condition::TargetKeyword(k) => f.target.is_some_and(|(ta, tu)| {
                self.combined(ta, tu)
                    .iter()
                    .any(|&x| self.unit_has_keyword(ta, x, k))
            }),
            Condition::Keyword(k) => self.unit_has_keyword(f.army, f.unit, k),
            Condition::LedBy(k) => self.combined(f.army, f.unit).iter().skip(1).any(|&l| {
                let d = &self.scene.armies[f.army].units[l].datasheet;
                !self.live_models(f.army, l).is_empty()
                    && (d.has_keyword(k) || d.name.eq_ignore_ascii_case(k))
            }),
            Condition::Leading => self.units[f.army][f.unit].leading.is_some(),
            Condition::WoundsLeftAtMost(n) => {
                f.wounds_left.unwrap_or_else(|| {
                    self.units[f.army][f.unit]
                        .models
                        .iter()
                        .filter(|m| m.alive)
                        .map(|m| m.wounds)
                        .max()
                        .unwrap_or(0)
                }) <= *n
            }
            Condition::StrengthAboveToughness => f.strength_above_toughness.unwrap_or(false),
            Condition::TargetWithin(inches) => f.target.is_some_and(|(ta, tu)| {
                let theirs = self.live_models(ta, self.combined(ta, tu)[0]);
                self.models_within(&self.live_models(f.army, root), &theirs, *inches)
            }),
            Condition::FromBattleRound(r) => self.battle_round >= *r,
            Condition::FriendlyWithin(k, inches) => {
                let mine = self.live_models(f.army, root);
                self.unit_roots(f.army).into_iter().any(|v| {
                    self.combined(f.army, v).into_iter().any(|x| {
                        let d = &self.scene.armies[f.army].units[x].datasheet;
                        (d.has_keyword(k) || d.name.eq_ignore_ascii_case(k))
                            && self.models_within(&mine, &self.live_models(f.army, x), *inches)
                    })
                })
            }
            Condition::BelowStartingStrength => {
                self.live_models(f.army, root).len() < self.starting_strength(f.army, root)
            }
            Condition::TargetBelowStartingStrength => f.target.is_some_and(|(ta, tu)| {
                let troot = self.combined(ta, tu)[0];
                self.live_models(ta, troot).len() < self.starting_strength(ta, troot)
            }),
            Condition::BattleShocked => state.battle_shocked,
            Condition::InShadowOfChaos => {
                let owner = self.player_of(rule_army);
                self.live_models(f.army, root)
                    .iter()
                    .any(|r| self.in_shadow_of_chaos(owner, self.solid(*r).centre))
            }
            // Judged where the Aura is gathered ([`Game::aura_effects`]).
            Condition::AuraFrom(_) => true,
            Condition::HasAbility(name) => self.combined(f.army, root).iter().any(|&x| {
                self.scene.armies[f.army].units[x]
                    .datasheet
                    .abilities
                    .iter()
                    .any(|a| same_name(&a.name, name))
            }),
            Condition::TargetBattleShocked => f
                .target
                .is_some_and(|(ta, tu)| self.units[ta][self.combined(ta, tu)[0]].battle_shocked),
            Condition::Detachment(name) => self.scene.armies[rule_army]
                .rules
                .detachment
                .as_ref()
                .is_some_and(|d| same_name(&d.name, name)),
            Condition::EnemyWithin(inches) => {
                let mine = self.live_models(f.army, root);
                (0..self.units.len()).filter(|&b| b != f.army).any(|b| {
                    self.unit_roots(b)
                        .into_iter()
                        .any(|v| self.models_within(&mine, &self.live_models(b, v), *inches))
                })
            }
            Condition::Not(inner) => !self.condition_holds(inner, rule, rule_army, f),
        }
    }

    /// True when the unit's datasheet has the keyword or faction keyword.
    fn unit_has_keyword(&self, army: usize, unit: usize, k: &str) -> bool {
        let d = &self.scene.armies[army].units[unit].datasheet;
        d.has_keyword(k) || d.faction_keywords.iter().any(|x| x.eq_ignore_ascii_case(k))
    }

    fn within_objective_range(&self, army: usize, unit: usize) -> bool {
        self.objectives_in_range(army, unit).next().is_some()
    }

    /// The objective markers (indices) within range of a model of the combined unit.
    fn objectives_in_range(&self, army: usize, unit: usize) -> impl Iterator<Item = usize> + '_ {
        let root = self.combined(army, unit)[0];
        let live = self.live_models(army, root);
        (0..self.scene.objectives.len()).filter(move |&i| {
            let o = &self.scene.objectives[i];
            let marker = crate::geometry::Vec3::new(o.at.0, o.at.1, o.z);
            live.iter()
                .any(|r| crate::rules::engagement::in_objective_range(&self.solid(*r), marker))
        })
    }

    /// True when every condition of the effect `s` of a unit of army `army` holds now (no
    /// attack in question).
    pub(super) fn effect_holds(&self, army: usize, s: &SourcedEffect) -> bool {
        let f = Facts {
            army,
            unit: s.owner,
            target: None,
            strength_above_toughness: None,
            wounds_left: None,
        };
        self.holds_all(s, &f)
    }

    fn holds_all(&self, s: &SourcedEffect, f: &Facts) -> bool {
        let f = Facts {
            unit: s.owner,
            ..*f
        };
        s.effect
            .conditions
            .iter()
            .all(|c| self.condition_holds(c, s.source, s.of, &f))
    }

    /// The changes the attacking unit's own rules make to its attacks with one weapon group
    /// (`melee` or ranged), made by models of its unit `unit` (a component of an Attached
    /// unit), at the target unit (`target`).
    pub fn attack_changes(
        &self,
        (army, unit): (usize, usize),
        target: (usize, usize),
        melee: bool,
    ) -> AttackChanges {
        let mut changes = AttackChanges::default();
        let facts = Facts {
            army,
            unit,
            target: Some(target),
            strength_above_toughness: None,
            wounds_left: None,
        };
        for s in self.unit_effects(army, unit) {
            let applies = match s.effect.when {
                When::Always => true,
                When::Attacking(k) => k.includes(melee),
                _ => false,
            };
            if !applies || !self.holds_all(&s, &facts) {
                continue;
            }
            for m in &s.effect.does {
                if !matches!(
                    m,
                    Modifier::FeelNoPain(_) | Modifier::InvulnerableSave(_) | Modifier::Save(_)
                ) {
                    changes.add(m, s.source);
                }
            }
        }
        changes
    }

    /// The effects covering every component of the (Attached) target unit, each once (an
    /// effect its models share, like an army rule or a Stratagem on the unit, counts once),
    /// with the component it covers.
    fn target_effects(&self, tarmy: usize, tunit: usize) -> Vec<(usize, SourcedEffect<'_>)> {
        let mut out: Vec<(usize, SourcedEffect<'_>)> = Vec::new();
        for &x in &self.combined(tarmy, tunit) {
            for s in self.unit_effects(tarmy, x) {
                if out
                    .iter()
                    .any(|(_, t)| t.source == s.source && *t.effect == *s.effect)
                {
                    continue;
                }
                out.push((x, s));
            }
        }
        out
    }

    /// The changes the target unit's rules make to attacks at it (`When::Attacked`): to the
    /// attack's rolls and characteristics, given whether the attack's Strength is above the
    /// target's Toughness.
    pub fn defence_changes(
        &self,
        (tarmy, tunit): (usize, usize),
        attacker: (usize, usize),
        melee: bool,
        strength_above_toughness: bool,
    ) -> AttackChanges {
        let theirs = self.target_effects(tarmy, tunit);
        self.defence_changes_in(
            &theirs,
            (tarmy, tunit),
            attacker,
            melee,
            strength_above_toughness,
        )
    }

    /// [`Game::defence_changes`] over the target's effects gathered once ([`Game::target_effects`]).
    fn defence_changes_in(
        &self,
        theirs: &[(usize, SourcedEffect<'_>)],
        (tarmy, tunit): (usize, usize),
        attacker: (usize, usize),
        melee: bool,
        strength_above_toughness: bool,
    ) -> AttackChanges {
        let mut changes = AttackChanges::default();
        let facts = Facts {
            army: tarmy,
            unit: tunit,
            target: Some(attacker),
            strength_above_toughness: Some(strength_above_toughness),
            wounds_left: None,
        };
        for (x, s) in theirs {
            let When::Attacked(k) = s.effect.when else {
                continue;
            };
            if !k.includes(melee) || !self.holds_all(s, &Facts { unit: *x, ..facts }) {
                continue;
            }
            for m in &s.effect.does {
                changes.add(m, s.source);
            }
        }
        changes
    }

    /// What the target unit's rules (its own, and enemy Auras over it) do to its Toughness
    /// (the sum of [`Modifier::Toughness`]) and whether they give it the Benefit of Cover
    /// ([`Modifier::BenefitOfCover`]) against an attack (`melee` or ranged) by `attacker`.
    pub fn target_defences(
        &self,
        (tarmy, tunit): (usize, usize),
        attacker: (usize, usize),
        melee: bool,
    ) -> (i32, bool) {
        if !self.army_may_have(tarmy, &Modifier::Toughness(0))
            && !self.army_may_have(tarmy, &Modifier::BenefitOfCover)
        {
            return (0, false);
        }
        let theirs = self.target_effects(tarmy, tunit);
        self.target_defences_in(&theirs, (tarmy, tunit), attacker, melee)
    }

    /// [`Game::target_defences`] over the target's effects gathered once.
    fn target_defences_in(
        &self,
        theirs: &[(usize, SourcedEffect<'_>)],
        (tarmy, tunit): (usize, usize),
        attacker: (usize, usize),
        melee: bool,
    ) -> (i32, bool) {
        let (mut toughness, mut cover) = (0, false);
        let facts = Facts {
            army: tarmy,
            unit: tunit,
            target: Some(attacker),
            strength_above_toughness: None,
            wounds_left: None,
        };
        for (x, s) in theirs {
            let applies = match s.effect.when {
                When::Always => true,
                When::Attacked(k) => k.includes(melee),
                _ => false,
            };
            let relevant = s
                .effect
                .does
                .iter()
                .any(|m| matches!(m, Modifier::Toughness(_) | Modifier::BenefitOfCover));
            if !applies || !relevant || !self.holds_all(s, &Facts { unit: *x, ..facts }) {
                continue;
            }
            for m in &s.effect.does {
                match m {
                    Modifier::Toughness(t) => toughness += t,
                    Modifier::BenefitOfCover => cover = true,
                    _ => {}
                }
            }
        }
        (toughness, cover)
    }

    /// The best Feel No Pain, invulnerable save and Save the rules give model `r` against an
    /// attack (`melee` or ranged) by `attacker`: (Feel No Pain, invulnerable, Save, sources).
    pub fn model_defences(
        &self,
        r: ModelRef,
        attacker: (usize, usize),
        melee: bool,
    ) -> (Option<u8>, Option<u8>, Option<u8>, Vec<String>) {
        let wounds = self.units[r.army][r.unit].models[r.model].wounds;
        let facts = Facts {
            army: r.army,
            unit: r.unit,
            target: Some(attacker),
            strength_above_toughness: None,
            wounds_left: Some(wounds),
        };
        let (mut fnp, mut inv, mut save, mut sources) = (None, None, None, Vec::new());
        let best = |a: Option<u8>, b: u8| Some(a.map_or(b, |x: u8| x.min(b)));
        for s in self.unit_effects(r.army, r.unit) {
            let applies = match s.effect.when {
                When::Always => true,
                When::Attacked(k) => k.includes(melee),
                _ => false,
            };
            if !applies || !self.holds_all(&s, &facts) {
                continue;
            }
            for m in &s.effect.does {
                let before = (fnp, inv, save);
                match m {
                    Modifier::FeelNoPain(x) => fnp = best(fnp, *x),
                    Modifier::InvulnerableSave(x) => inv = best(inv, *x),
                    Modifier::Save(x) => save = best(save, *x),
                    _ => continue,
                }
                if before != (fnp, inv, save) && !sources.iter().any(|x| x == s.source) {
                    sources.push(s.source.to_string());
                }
            }
        }
        (fnp, inv, save, sources)
    }

    /// How much the rules worsen and improve model `r`'s Save characteristic against an
    /// attack (`melee` or ranged) by `attacker` ([`Modifier::WorsenSave`] and
    /// [`Modifier::ImproveSave`], each summed; 0 for none).
    pub fn save_changes(&self, r: ModelRef, attacker: (usize, usize), melee: bool) -> (i32, i32) {
        if !self.army_may_have(r.army, &Modifier::WorsenSave(0))
            && !self.army_may_have(r.army, &Modifier::ImproveSave(0))
        {
            return (0, 0);
        }
        let facts = Facts {
            army: r.army,
            unit: r.unit,
            target: Some(attacker),
            strength_above_toughness: None,
            wounds_left: Some(self.units[r.army][r.unit].models[r.model].wounds),
        };
        let (mut worse, mut better) = (0, 0);
        for s in self.unit_effects(r.army, r.unit) {
            let applies = match s.effect.when {
                When::Always => true,
                When::Attacked(k) => k.includes(melee),
                _ => false,
            };
            if !applies || !self.holds_all(&s, &facts) {
                continue;
            }
            for m in &s.effect.does {
                match m {
                    Modifier::WorsenSave(x) => worse += x,
                    Modifier::ImproveSave(x) => better += x,
                    _ => {}
                }
            }
        }
        (worse, better)
    }

    /// Applies the rules of both sides to one weapon assignment's plan before it is resolved:
    /// each weapon group's characteristics and abilities (from the attacking models' unit's
    /// effects and the target's `When::Attacked` ones), and the target models' Feel No Pain,
    /// invulnerable save and Save. Returns each group's roll changes (own, theirs), for
    /// [`rules_on_resolved`] once the groups are resolved.
    pub fn rules_on_plan(
        &self,
        sight: &super::sight::SceneSight,
        plan: &mut super::combat::AttackPlan,
        (theirs, target): (&[usize], &mut crate::rules::attack::TargetUnit),
        ((army, unit), (tarmy, tunit)): ((usize, usize), (usize, usize)),
        melee: bool,
    ) -> Vec<(AttackChanges, AttackChanges)> {
        let mut changes = Vec::with_capacity(plan.groups.len());
        // The target's effects, gathered once for every group.
        let target_fx = self.target_effects(tarmy, tunit);
        let mut owners: Vec<((usize, usize), AttackChanges)> = Vec::new();
        // The target's Toughness and Benefit of Cover as its rules (and enemy Auras) give them.
        let (toughness, cover) =
            self.target_defences_in(&target_fx, (tarmy, tunit), (army, unit), melee);
        if toughness != 0 {
            target.toughness = (i32::from(target.toughness) + toughness).clamp(1, 255) as u8;
        }
        if cover && !melee {
            for m in &mut target.models {
                m.has_cover = true;
            }
        }
        for g in 0..plan.groups.len() {
            let owner = plan
                .attacking
                .iter()
                .zip(&plan.group_of)
                .find(|&(_, &x)| x == g)
                .map_or((army, unit), |(&e, _)| {
                    let r = sight.models[e];
                    (r.army, r.unit)
                });
            // The attacking models' own changes, worked out once per unit of theirs.
            let own = match owners.iter().find(|(o, _)| *o == owner) {
                Some((_, c)) => c.clone(),
                None => {
                    let c = self.attack_changes(owner, (tarmy, tunit), melee);
                    owners.push((owner, c.clone()));
                    c
                }
            };
            own.apply_profile(&mut plan.groups[g].profile);
            let above = plan.groups[g].profile.strength > target.toughness;
            let defence = self.defence_changes_in(&target_fx, (tarmy, tunit), owner, melee, above);
            defence.apply_profile(&mut plan.groups[g].profile);
            for a in own.abilities.iter().chain(&defence.abilities) {
                if !plan.groups[g].extra_abilities.contains(a) {
                    plan.groups[g].extra_abilities.push(a.clone());
                }
            }
            changes.push((own, defence));
        }
        self.apply_model_defences(sight, theirs, (army, unit), melee, target);
        changes
    }

    /// Gives each model of `target` (whose index entries are `entries`) the Feel No Pain,
    /// invulnerable save and Save its rules give it against attacks by `attacker`, when
    /// better than its own. Worked out once per unit and wounds left.
    pub fn apply_model_defences(
        &self,
        sight: &super::sight::SceneSight,
        entries: &[usize],
        attacker: (usize, usize),
        melee: bool,
        target: &mut crate::rules::attack::TargetUnit,
    ) {
        type Defences = (Option<u8>, Option<u8>, Option<u8>, (i32, i32));
        let mut seen: Vec<((usize, u8), Defences)> = Vec::new();
        for (m, &e) in target.models.iter_mut().zip(entries) {
            let r = sight.models[e];
            let key = (r.unit, self.units[r.army][r.unit].models[r.model].wounds);
            let (fnp, inv, save, (worse, better)) = match seen.iter().find(|(k, _)| *k == key) {
                Some((_, d)) => *d,
                None => {
                    let (f, i, s, _) = self.model_defences(r, attacker, melee);
                    let w = self.save_changes(r, attacker, melee);
                    seen.push((key, (f, i, s, w)));
                    (f, i, s, w)
                }
            };
            if better > 0 {
                // Never better than 3+ by such a rule (a better Save stays as it is).
                let s = i32::from(m.save);
                m.save = (s - better).max(s.min(IMPROVED_SAVE_BEST)) as u8;
            }
            if worse > 0 {
                m.save = (i32::from(m.save) + worse).min(7) as u8;
            }
            if let Some(x) = fnp {
                m.feel_no_pain = Some(m.feel_no_pain.map_or(x, |y| y.min(x)));
            }
            if let Some(x) = inv {
                m.invulnerable_save = Some(m.invulnerable_save.map_or(x, |y| y.min(x)));
            }
            if let Some(x) = save {
                m.save = m.save.min(x);
            }
        }
    }

    /// True when some effect of the army's rules, units or effects in force has a primitive of
    /// `kind`'s variant: a quick test before the unit's effects are gathered (most armies have
    /// no Move or OC modifier at all).
    fn army_may_have(&self, army: usize, kind: &Modifier) -> bool {
        let d = std::mem::discriminant(kind);
        self.rule_cache().kinds[army].contains(&d)
            || self
                .effects
                .active
                .iter()
                .filter(|x| x.army == army)
                .flat_map(|x| &x.effects)
                .any(|e| e.does.iter().any(|m| std::mem::discriminant(m) == d))
    }

    /// True when an effect active for the unit grants this eligibility primitive
    /// ([`Modifier::ShootAfterAdvancing`] and the like), its conditions holding.
    pub fn unit_may(&self, army: usize, unit: usize, what: &Modifier) -> bool {
        if !self.army_may_have(army, what) {
            return false;
        }
        self.combined(army, unit).iter().any(|&x| {
            let facts = Facts {
                army,
                unit: x,
                target: None,
                strength_above_toughness: None,
                wounds_left: None,
            };
            self.unit_effects(army, x).iter().any(|s| {
                s.effect.when == When::Always
                    && s.effect.does.contains(what)
                    && self.holds_all(s, &facts)
            })
        })
    }

    /// The primitives of every passive (`When::Always`) effect in force for the combined unit
    /// whose conditions hold, component by component.
    fn passive_modifiers(&self, army: usize, unit: usize) -> Vec<&Modifier> {
        let mut out = Vec::new();
        for x in self.combined(army, unit) {
            let facts = Facts {
                army,
                unit: x,
                target: None,
                strength_above_toughness: None,
                wounds_left: None,
            };
            for s in self.unit_effects(army, x) {
                if s.effect.when == When::Always && self.holds_all(&s, &facts) {
                    out.extend(&s.effect.does);
                }
            }
        }
        out
    }

    /// The number of D6 the combined unit takes Battle-shock tests on: 2, or the most a rule
    /// active for it gives ([`Modifier::BattleShockDice`]; Tyranids' Synapse: 3).
    pub fn battle_shock_dice(&self, army: usize, unit: usize) -> u8 {
        if !self.army_may_have(army, &Modifier::BattleShockDice(0)) {
            return 2;
        }
        self.passive_modifiers(army, unit)
            .into_iter()
            .filter_map(|m| match m {
                Modifier::BattleShockDice(n) => Some(*n),
                _ => None,
            })
            .fold(2, u8::max)
    }

    /// What restores the combined unit when it passes a Battle-shock test, each amount once
    /// ([`Modifier::RestoreOnPassedBattleShock`]).
    pub fn restore_on_passed_test_amounts(&self, army: usize, unit: usize) -> Vec<DiceExpr> {
        self.passive_amounts(army, unit, |m| match m {
            Modifier::RestoreOnPassedBattleShock(d) => Some(*d),
            _ => None,
        })
    }

    /// The mortal wounds the combined unit suffers for failing a Battle-shock test, each
    /// amount once ([`Modifier::MortalWoundsOnFailedBattleShock`]).
    pub fn mortal_wounds_on_failed_test(&self, army: usize, unit: usize) -> Vec<DiceExpr> {
        self.passive_amounts(army, unit, |m| match m {
            Modifier::MortalWoundsOnFailedBattleShock(d) => Some(*d),
            _ => None,
        })
    }

    /// The dice amounts `pick` takes from the passive primitives of the combined unit, each
    /// once; nothing when the army's rules have no such primitive.
    fn passive_amounts(
        &self,
        army: usize,
        unit: usize,
        pick: impl Fn(&Modifier) -> Option<DiceExpr>,
    ) -> Vec<DiceExpr> {
        let fixed = DiceExpr::fixed(1);
        let probes = [
            Modifier::RestoreOnPassedBattleShock(fixed),
            Modifier::MortalWoundsOnFailedBattleShock(fixed),
        ];
        if !probes
            .iter()
            .any(|p| pick(p).is_some() && self.army_may_have(army, p))
        {
            return Vec::new();
        }
        let mut out: Vec<DiceExpr> = Vec::new();
        for d in self
            .passive_modifiers(army, unit)
            .into_iter()
            .filter_map(&pick)
        {
            if !out.contains(&d) {
                out.push(d);
            }
        }
        out
    }

    /// How far (inches) the combined unit's Pile-in or Consolidation move may go: `base`, or
    /// more where a rule active for it says so ([`Modifier::FightMoveInches`]).
    pub fn fight_move_inches(&self, army: usize, unit: usize, base: f32) -> f32 {
        if !self.army_may_have(army, &Modifier::FightMoveInches(0)) {
            return base;
        }
        self.passive_modifiers(army, unit)
            .into_iter()
            .filter_map(|m| match m {
                Modifier::FightMoveInches(n) => Some(f32::from(*n)),
                _ => None,
            })
            .fold(base, f32::max)
    }

    /// The highest terrain section (inches) the rules let the combined unit move through
    /// ([`Modifier::WalkThroughTerrain`]), if any.
    pub fn walk_through_height(&self, army: usize, unit: usize) -> Option<f32> {
        if !self.army_may_have(army, &Modifier::WalkThroughTerrain(0.0)) {
            return None;
        }
        self.passive_modifiers(army, unit)
            .into_iter()
            .filter_map(|m| match m {
                Modifier::WalkThroughTerrain(h) => Some(*h),
                _ => None,
            })
            .reduce(f32::max)
    }

    /// True when a rule active for the unit (one component of an Attached unit) gives it
    /// Fights First ([`Modifier::FightsFirst`]).
    pub fn rules_give_fights_first(&self, army: usize, unit: usize) -> bool {
        if !self.army_may_have(army, &Modifier::FightsFirst) {
            return false;
        }
        let facts = Facts {
            army,
            unit,
            target: None,
            strength_above_toughness: None,
            wounds_left: None,
        };
        self.unit_effects(army, unit).iter().any(|s| {
            s.effect.when == When::Always
                && s.effect.does.contains(&Modifier::FightsFirst)
                && self.holds_all(s, &facts)
        })
    }

    /// The sum of the numeric primitive `kind` (e.g. `Modifier::Move(0)`: its variant) that
    /// the effects active for the unit give (Move, AdvanceRoll, ChargeRoll,
    /// ObjectiveControl, Leadership).
    pub fn unit_bonus(&self, army: usize, unit: usize, kind: &Modifier) -> i32 {
        if !self.army_may_have(army, kind) {
            return 0;
        }
        let facts = Facts {
            army,
            unit,
            target: None,
            strength_above_toughness: None,
            wounds_left: None,
        };
        let mut total = 0;
        for s in self.unit_effects(army, unit) {
            if s.effect.when != When::Always || !self.holds_all(&s, &facts) {
                continue;
            }
            for m in &s.effect.does {
                if std::mem::discriminant(m) != std::mem::discriminant(kind) {
                    continue;
                }
                total += match m {
                    Modifier::ObjectiveControlDown(x) => *x,
                    Modifier::Move(x)
                    | Modifier::AdvanceRoll(x)
                    | Modifier::ChargeRoll(x)
                    | Modifier::ObjectiveControl(x)
                    | Modifier::Leadership(x) => *x,
                    _ => 0,
                };
            }
        }
        total
    }

    /// The choices a rule of `player`'s army may be made with now: (rule, the picks allowed;
    /// an empty list for a declared rule). Only in the player's own phase the choice belongs
    /// to, once per phase, within the rule's limit.
    pub fn rule_choice_options(&self, player: u8) -> Vec<(String, Vec<String>)> {
        let Some(army) = self.army_of(player) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for rule in self.scene.armies[army].rules.rules() {
            let Some(choice) = &rule.choice else {
                continue;
            };
            let open = if choice.before_battle {
                self.stage != Stage::Battle
            } else {
                self.stage == Stage::Battle
                    && self.active_player == player
                    && self.phase == choice.at
                    && (choice.rounds.is_empty() || choice.rounds.contains(&self.battle_round))
            };
            if rule.status() != RuleStatus::Applied || !open {
                continue;
            }
            let made = |pick: Option<&str>| {
                self.effects.history.iter().any(|h| {
                    h.player == player
                        && same_name(&h.rule, &rule.name)
                        && pick.is_none_or(|p| h.pick.as_deref().is_some_and(|x| same_name(x, p)))
                })
            };
            let this_phase = self.effects.history.iter().any(|h| {
                h.player == player && same_name(&h.rule, &rule.name) && h.round == self.battle_round
            });
            let many = matches!(choice.pick, Pick::EnemyUnitBy);
            if (this_phase && !choice.before_battle && !many)
                || ((choice.limit == Limit::OncePerBattle || choice.before_battle) && made(None))
            {
                continue;
            }
            let picks: Vec<String> = match &choice.pick {
                Pick::Declare => Vec::new(),
                Pick::OneOf(options) => options
                    .iter()
                    .filter(|o| choice.limit != Limit::EachOptionOncePerBattle || !made(Some(o)))
                    .cloned()
                    .collect(),
                Pick::EnemyUnitBy => {
                    let mut all: Vec<String> = Vec::new();
                    for (_, targets) in self.rule_pickers(player, rule) {
                        for t in targets {
                            if !all.contains(&t) {
                                all.push(t);
                            }
                        }
                    }
                    all
                }
                Pick::EnemyUnit => {
                    let enemy = 1 - army;
                    self.unit_roots(enemy)
                        .into_iter()
                        .filter(|&u| {
                            self.units[enemy][u].location == Location::OnTable
                                && !self.live_models(enemy, u).is_empty()
                        })
                        .map(|u| self.unit_id(enemy, u).to_string())
                        .collect()
                }
            };
            if matches!(choice.pick, Pick::Declare) || !picks.is_empty() {
                out.push((rule.name.clone(), picks));
            }
        }
        out
    }

    /// [`super::Command::RuleChoice`]: the player makes the choice its rule `rule` gives.
    /// True when some ranged weapon of the combined unit may shoot now as far as its move and
    /// Engagement Range go ([`crate::rules::attack::eligibility::can_shoot`], with the rules
    /// that let it shoot after Advancing or Falling Back; whatever the target).
    pub fn may_shoot_now(&self, army: usize, unit: usize) -> bool {
        use crate::rules::attack::eligibility::{ShootingState, can_shoot};
        use crate::rules::movement::{MoveMode, Moved};
        let moved = self.units[army][unit].moved;
        let engaged = self.engaged(army, unit);
        let state = ShootingState {
            advanced: moved == Some(Moved::Moved(MoveMode::Advance))
                && !self.unit_may(army, unit, &Modifier::ShootAfterAdvancing),
            fell_back: moved == Some(Moved::Moved(MoveMode::FallBack))
                && !self.unit_may(army, unit, &Modifier::ShootAfterFallingBack),
            engaged,
            monster_or_vehicle: self.combined(army, unit).iter().any(|&x| {
                self.unit_has_keyword(army, x, "MONSTER")
                    || self.unit_has_keyword(army, x, "VEHICLE")
            }),
            // A PISTOL may shoot at the unit it is engaged with.
            target_engaged_with_shooter: engaged,
            ..ShootingState::default()
        };
        self.weapons_of(army, unit, false)
            .iter()
            .flat_map(|w| &w.profiles)
            .any(|p| can_shoot(p, &[], &state).is_ok())
    }

    /// For a rule whose units pick ([`Pick::EnemyUnitBy`]: For the Greater Good): each unit of
    /// `player`'s army that may pick now (its root's id) with the enemy units it may pick: a
    /// unit the rule covers, on the battlefield, not Battle-shocked, not a FORTIFICATION, that
    /// has not shot this phase nor picked with the rule; an enemy unit on the battlefield it
    /// sees, not yet picked with the rule this phase.
    pub fn rule_pickers(
        &self,
        player: u8,
        rule: &crate::data::faction_rules::Rule,
    ) -> Vec<(String, Vec<String>)> {
        let Some(army) = self.army_of(player) else {
            return Vec::new();
        };
        let a = &self.scene.armies[army];
        let mine = |c: &&RuleChoiceMade| c.player == player && same_name(&c.rule, &rule.name);
        let picked: Vec<&str> = self
            .effects
            .choices
            .iter()
            .filter(mine)
            .filter_map(|c| c.pick.as_deref())
            .collect();
        let pickers: Vec<&str> = self
            .effects
            .choices
            .iter()
            .filter(mine)
            .filter_map(|c| c.by.as_deref())
            .collect();
        let enemy = 1 - army;
        let sight = self.sight();
        let mut out = Vec::new();
        for u in self.unit_roots(army) {
            let id = self.unit_id(army, u).to_string();
            let d = &a.units[u].datasheet;
            let keywords: Vec<String> = d
                .keywords
                .iter()
                .chain(&d.faction_keywords)
                .cloned()
                .collect();
            let state = &self.units[army][u];
            if !rule.covers(&keywords, &a.rules.keyword)
                || state.location != Location::OnTable
                || self.live_models(army, u).is_empty()
                || state.battle_shocked
                || state.shot
                || d.has_keyword("FORTIFICATION")
                || pickers.iter().any(|p| same_name(p, &id))
                || !self.may_shoot_now(army, u)
            {
                continue;
            }
            let eyes = self.entries_of(&sight, army, u);
            let targets: Vec<String> = self
                .unit_roots(enemy)
                .into_iter()
                .filter(|&e| {
                    self.units[enemy][e].location == Location::OnTable
                        && !self.live_models(enemy, e).is_empty()
                        && !picked.iter().any(|p| same_name(p, self.unit_id(enemy, e)))
                })
                .filter(|&e| {
                    let theirs = self.entries_of(&sight, enemy, e);
                    eyes.iter().any(|&o| {
                        theirs.iter().any(|&t| {
                            sight.index.model_visible(
                                o,
                                t,
                                crate::geometry::sight::SeeThrough::OwnUnit,
                                &crate::geometry::sight::Sampling::FAST,
                            )
                        })
                    })
                })
                .map(|e| self.unit_id(enemy, e).to_string())
                .collect();
            if !targets.is_empty() {
                out.push((id, targets));
            }
        }
        out
    }

    pub(super) fn rule_choice(
        &mut self,
        player: u8,
        rule: &str,
        pick: Option<&str>,
        by: Option<&str>,
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        let army = self.army_of(player).expect("checked");
        let Some(r) = self.scene.armies[army].rules.rule(rule).cloned() else {
            let known: Vec<String> = self.scene.armies[army]
                .rules
                .rules()
                .filter(|r| r.choice.is_some())
                .map(|r| r.name.clone())
                .collect();
            return reject(
                Rule::ArmyRules,
                format!(
                    "player {player}'s army has no rule '{rule}' with a choice (it has: {})",
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                ),
            );
        };
        let Some(choice) = r.choice.clone() else {
            return reject(Rule::ArmyRules, format!("'{}' gives no choice", r.name));
        };
        let options = self.rule_choice_options(player);
        let Some((_, picks)) = options.iter().find(|(n, _)| same_name(n, &r.name)) else {
            return reject(
                Rule::ArmyRules,
                format!(
                    "'{}' cannot be chosen now: it is chosen in your {}{}",
                    r.name,
                    choice.at.name(),
                    match choice.limit {
                        Limit::OncePerBattle => ", once per battle",
                        Limit::EachOptionOncePerBattle => ", each option once per battle",
                        Limit::EachTime => ", once each time",
                    }
                ),
            );
        };
        // A rule whose units pick: the picking unit and what it may pick.
        let by = match (&choice.pick, by) {
            (Pick::EnemyUnitBy, None) => {
                return reject(
                    Rule::ArmyRules,
                    format!("'{}' is picked by one of your units: name it (by)", r.name),
                );
            }
            (Pick::EnemyUnitBy, Some(b)) => {
                let pickers = self.rule_pickers(player, &r);
                let Some((id, targets)) = pickers.iter().find(|(id, _)| same_name(id, b)) else {
                    return reject(
                        Rule::ArmyRules,
                        format!(
                            "'{b}' cannot pick for '{}' now (it must be on the battlefield, not Battle-shocked, not have shot or picked this phase, and see an enemy unit not yet picked); units that can: {}",
                            r.name,
                            if pickers.is_empty() {
                                "none".to_string()
                            } else {
                                pickers
                                    .iter()
                                    .map(|(i, _)| i.as_str())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            }
                        ),
                    );
                };
                if let Some(p) = pick
                    && !targets.iter().any(|t| same_name(t, p))
                {
                    return reject(
                        Rule::ArmyRules,
                        format!(
                            "'{id}' cannot pick '{p}' for '{}': one of {}",
                            r.name,
                            targets.join(", ")
                        ),
                    );
                }
                Some(id.clone())
            }
            (_, Some(b)) => {
                return reject(
                    Rule::ArmyRules,
                    format!("'{}' is not picked by a unit (got by '{b}')", r.name),
                );
            }
            (_, None) => None,
        };
        let pick = match (&choice.pick, pick) {
            (Pick::Declare, None) => None,
            (Pick::Declare, Some(p)) => {
                return reject(
                    Rule::ArmyRules,
                    format!("'{}' is declared without a pick (got '{p}')", r.name),
                );
            }
            (_, None) => {
                return reject(
                    Rule::ArmyRules,
                    format!("'{}' needs a pick: one of {}", r.name, picks.join(", ")),
                );
            }
            (_, Some(p)) => match picks.iter().find(|x| same_name(x, p)) {
                Some(x) => Some(x.clone()),
                None => {
                    return reject(
                        Rule::ArmyRules,
                        format!(
                            "'{p}' cannot be picked for '{}' now: one of {}",
                            r.name,
                            picks.join(", ")
                        ),
                    );
                }
            },
        };
        let made = RuleChoiceMade {
            player,
            rule: r.name.clone(),
            pick: pick.clone(),
            round: self.battle_round,
            lasts: choice.lasts,
            by: by.clone(),
        };
        // A new choice of the same rule replaces the one in force (the picks of a rule whose
        // units pick add up).
        if by.is_none() && !choice.adds_up {
            self.effects
                .choices
                .retain(|c| !(c.player == player && same_name(&c.rule, &r.name)));
        }
        self.effects.choices.push(made.clone());
        self.effects.history.push(made);
        ev.push(GameEvent::RuleChosen {
            player,
            rule: r.name,
            pick,
            by,
        });
        Ok(())
    }

    /// The Detachment Stratagems `player` may use now on one of its units: (Stratagem, unit
    /// ids), each affordable, unused this phase, in its phase and turn, on units on the
    /// battlefield with its keywords and not Battle-shocked.
    pub fn rule_stratagem_options(&self, player: u8) -> Vec<(String, Vec<String>)> {
        let Some(army) = self.army_of(player) else {
            return Vec::new();
        };
        if self.stage != Stage::Battle {
            return Vec::new();
        }
        let rules = self.scene.armies[army].rules.clone();
        let mut out = Vec::new();
        for s in rules.stratagems() {
            if s.effects.is_empty()
                || !s.phases.contains(&self.phase)
                || !s.turn.allows(player, self.active_player)
                || self.cp_of(player) < s.cp
                || self.tokens_of(player) < s.tokens
                || (!s.each_unit && self.stratagem_used(player, &s.name))
            {
                continue;
            }
            let units: Vec<String> = self
                .unit_roots(army)
                .into_iter()
                .filter(|&u| self.rule_stratagem_target_ok(army, u, s).is_ok())
                .map(|u| self.unit_id(army, u).to_string())
                .collect();
            if !units.is_empty() {
                out.push((s.name.clone(), units));
            }
        }
        out
    }

    /// The army rule tokens `player` has now (Battle Focus, Orders, Pain tokens: see
    /// [`crate::data::faction_rules::Rule::tokens_per_round`] and the like).
    pub fn tokens_of(&self, player: u8) -> u32 {
        self.effects.tokens[usize::from(player.clamp(1, 2) - 1)]
    }

    /// True when `player` used the Stratagem or action `name` this phase.
    fn stratagem_used(&self, player: u8, name: &str) -> bool {
        self.effects
            .stratagems_used
            .iter()
            .any(|(p, n)| *p == player && same_name(n, name))
    }

    /// The tokens army `army`'s rules give for its units on the battlefield
    /// ([`crate::data::faction_rules::Rule::tokens_per_unit`]): each unit (an Attached unit's
    /// components apart) with a live model counts the first entry its datasheet matches.
    fn tokens_from_units(&self, army: usize) -> u32 {
        let rules = &self.scene.armies[army].rules;
        let mut total = 0;
        for r in &rules.army_rules {
            if r.tokens_per_unit.is_empty() {
                continue;
            }
            for u in 0..self.units[army].len() {
                let d = &self.scene.armies[army].units[u].datasheet;
                let per = r
                    .tokens_per_unit
                    .iter()
                    .find(|(k, _)| d.has_keyword(k) || same_name(&d.name, k))
                    .map_or(0, |(_, n)| *n);
                if self.live_models(army, u).iter().any(|r| r.unit == u) {
                    total += per;
                }
            }
        }
        total
    }

    /// Called as a battle round begins: each player's army rule tokens for the round (the
    /// unspent ones of the last round are lost; Battle Focus).
    pub(super) fn effects_round_begins(&mut self) {
        for player in 1..=2u8 {
            let n = self
                .army_of(player)
                .map_or(0, |a| self.scene.armies[a].rules.tokens_per_round());
            if n > 0 {
                self.effects.tokens[usize::from(player - 1)] = n;
            }
        }
    }

    /// `player` gains the tokens its army rules give on `event`
    /// ([`crate::data::faction_rules::Rule::tokens_gained`]; `event` is matched by its variant).
    pub(super) fn gain_tokens(
        &mut self,
        player: u8,
        event: crate::data::faction_rules::TokenGain,
        ev: &mut Vec<GameEvent>,
    ) {
        let Some(army) = self.army_of(player) else {
            return;
        };
        let gained: u32 = self.scene.armies[army]
            .rules
            .army_rules
            .iter()
            .flat_map(|r| &r.tokens_gained)
            .filter(|g| std::mem::discriminant(*g) == std::mem::discriminant(&event))
            .map(|g| g.tokens())
            .sum();
        if gained == 0 {
            return;
        }
        let i = usize::from(player - 1);
        self.effects.tokens[i] += gained;
        ev.push(GameEvent::TokensGained {
            player,
            gained,
            total: self.effects.tokens[i],
        });
    }

    fn rule_stratagem_target_ok(
        &self,
        army: usize,
        root: usize,
        s: &RuleStratagem,
    ) -> Result<(), String> {
        let keywords = &s.keywords;
        let id = self.unit_id(army, root);
        if s.tokens > 0 && self.effects.acted.contains(&(army, root)) {
            return Err(format!(
                "'{id}' already performed an action of its army rule this phase"
            ));
        }
        if s.effects
            .iter()
            .any(|e| e.does.contains(&Modifier::IntoReserves))
        {
            if self.engaged(army, root) {
                return Err(format!("'{id}' is within Engagement Range"));
            }
            let fighting = self.fight.as_ref().is_some_and(|f| f.current.is_some())
                || self.next_to_fight().is_some();
            if self.phase == Phase::Fight && fighting {
                return Err(format!(
                    "'{}' is used at the end of the Fight phase, once no unit is left to fight",
                    s.name
                ));
            }
        }
        let facts = Facts {
            army,
            unit: root,
            target: None,
            strength_above_toughness: None,
            wounds_left: None,
        };
        if let Some(c) = s
            .requires
            .iter()
            .find(|c| !self.condition_holds(c, &s.name, army, &facts))
        {
            return Err(format!(
                "'{id}' does not meet what '{}' requires: {c:?}",
                s.name
            ));
        }
        if self.units[army][root].location != Location::OnTable
            || self.live_models(army, root).is_empty()
        {
            return Err(format!("'{id}' is not on the battlefield"));
        }
        if self.units[army][root].battle_shocked && s.tokens == 0 {
            return Err(format!(
                "'{id}' is Battle-shocked: its own player's Stratagems cannot affect it"
            ));
        }
        let has = |k: &String| {
            self.combined(army, root)
                .iter()
                .any(|&x| self.unit_has_keyword(army, x, k))
        };
        if !keywords.is_empty() && !keywords.iter().any(has) {
            return Err(format!("'{id}' has none of {}", keywords.join(", ")));
        }
        Ok(())
    }

    /// [`super::Command::UseRuleStratagem`]: the player uses a Detachment Stratagem on one of
    /// its units; its effects last as the Stratagem says.
    pub(super) fn use_rule_stratagem(
        &mut self,
        player: u8,
        name: &str,
        unit: &str,
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        let (army, root) = self.own_root(player, unit)?;
        let rules = self.scene.armies[army].rules.clone();
        let Some(s) = rules.stratagem(name) else {
            let known: Vec<String> = rules
                .detachment
                .iter()
                .flat_map(|d| &d.stratagems)
                .map(|s| s.name.clone())
                .collect();
            return reject(
                Rule::Stratagems,
                format!(
                    "the army's Detachment has no Stratagem '{name}' (it has: {})",
                    if known.is_empty() {
                        "none".into()
                    } else {
                        known.join(", ")
                    }
                ),
            );
        };
        if s.effects.is_empty() {
            return reject(
                Rule::Stratagems,
                format!(
                    "'{}' is applied by hand: pay its CP and apply it with the referee override",
                    s.name
                ),
            );
        }
        if self.stage != Stage::Battle || !s.phases.contains(&self.phase) {
            return reject(
                Rule::Stratagems,
                format!(
                    "'{}' is used in the {}",
                    s.name,
                    s.phases
                        .iter()
                        .map(|p| p.name())
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
            );
        }
        if !s.turn.allows(player, self.active_player) {
            return reject(
                Rule::Stratagems,
                format!(
                    "'{}' is used in {} turn",
                    s.name,
                    if player == self.active_player {
                        "the opponent's"
                    } else {
                        "your own"
                    }
                ),
            );
        }
        if !s.each_unit && self.stratagem_used(player, &s.name) {
            return reject(
                Rule::Stratagems,
                format!("'{}' was already used this phase", s.name),
            );
        }
        if self.cp_of(player) < s.cp {
            return reject(
                Rule::Stratagems,
                format!(
                    "'{}' costs {} CP; player {player} has {}",
                    s.name,
                    s.cp,
                    self.cp_of(player)
                ),
            );
        }
        if self.tokens_of(player) < s.tokens {
            return reject(
                Rule::Stratagems,
                format!(
                    "'{}' costs {} token(s) of the army rule; player {player} has {} this battle round",
                    s.name,
                    s.tokens,
                    self.tokens_of(player)
                ),
            );
        }
        if let Err(why) = self.rule_stratagem_target_ok(army, root, s) {
            return reject(Rule::Stratagems, why);
        }
        if let Err(why) = self.stratagem_target_free(army, root) {
            return reject(Rule::Stratagems, why);
        }
        self.cp[usize::from(player - 1)] -= s.cp;
        self.effects.tokens[usize::from(player - 1)] -= s.tokens;
        if s.tokens > 0 {
            self.effects.acted.push((army, root));
        }
        self.effects.stratagems_used.push((player, s.name.clone()));
        self.stratagem_targets.push((army, root));
        self.effects.active.push(ActiveEffect {
            army,
            unit: root,
            source: s.name.clone(),
            effects: s.effects.clone(),
            lasts: s.lasts,
        });
        ev.push(GameEvent::RuleStratagemUsed {
            player,
            stratagem: s.name.clone(),
            unit: self.unit_id(army, root).to_string(),
            cp: s.cp,
            cp_left: self.cp_of(player),
            tokens: s.tokens,
            tokens_left: self.tokens_of(player),
        });
        if s.effects
            .iter()
            .any(|e| e.does.contains(&Modifier::IntoReserves))
        {
            use crate::game::command::ReserveKind;
            let deep_strike = self.combined(army, root).iter().all(|&u| {
                self.scene.armies[army].units[u]
                    .datasheet
                    .has_core(&crate::rules::CoreAbility::DeepStrike)
            });
            let kind = if deep_strike {
                ReserveKind::DeepStrike
            } else {
                ReserveKind::StrategicReserves
            };
            self.for_combined(army, root, |u| u.location = Location::Reserves(kind));
            ev.push(GameEvent::ReservesDeclared {
                player,
                unit: self.unit_id(army, root).to_string(),
                kind,
            });
        }
        Ok(())
    }

    /// Called as a phase begins: a new phase's Stratagems may be used again, and choices and
    /// effects lasting until their player's next Command phase end as it begins.
    pub(super) fn effects_phase_begins(&mut self, ev: &mut Vec<GameEvent>) {
        self.effects.stratagems_used.clear();
        self.effects.acted.clear();
        if self.phase == Phase::Command {
            let player = self.active_player;
            let army = self.army_of(player);
            if let Some(a) = army
                && self.scene.armies[a].rules.gives_tokens_per_unit()
            {
                self.effects.tokens[usize::from(player - 1)] = self.tokens_from_units(a);
            }
            self.gain_tokens(
                player,
                crate::data::faction_rules::TokenGain::CommandPhase(0),
                ev,
            );
            self.effects
                .choices
                .retain(|c| !(c.player == player && c.lasts == Lasts::UntilYourNextCommandPhase));
            self.effects
                .active
                .retain(|a| !(Some(a.army) == army && a.lasts == Lasts::UntilYourNextCommandPhase));
        }
    }

    /// The rule run by Yield points of `player`'s army, if any.
    fn yield_rule(&self, player: u8) -> Option<(String, crate::data::faction_rules::YieldPoints)> {
        let army = self.army_of(player)?;
        self.scene.armies[army]
            .rules
            .army_rules
            .iter()
            .find_map(|r| r.yield_points.clone().map(|y| (r.name.clone(), y)))
    }

    /// Puts `player`'s Yield-point rule in the state its points give, until the player's
    /// next Command phase (with `battle_start`: the state below the threshold).
    fn yield_state(&mut self, player: u8, battle_start: bool, ev: &mut Vec<GameEvent>) {
        let Some((rule, y)) = self.yield_rule(player) else {
            return;
        };
        let points = self.effects.yield_points[usize::from(player - 1)];
        let state = if !battle_start && points >= y.threshold {
            y.at_or_above
        } else {
            y.below
        };
        let made = RuleChoiceMade {
            player,
            rule: rule.clone(),
            pick: Some(state.clone()),
            round: self.battle_round,
            lasts: Lasts::UntilYourNextCommandPhase,
            by: None,
        };
        self.effects
            .choices
            .retain(|c| !(c.player == player && same_name(&c.rule, &rule)));
        self.effects.choices.push(made.clone());
        self.effects.history.push(made);
        ev.push(GameEvent::RuleChosen {
            player,
            rule,
            pick: Some(state),
            by: None,
        });
    }

    /// Called as the battle begins: each Yield-point rule starts in its lower state.
    pub(super) fn yield_points_battle_begins(&mut self, ev: &mut Vec<GameEvent>) {
        for player in 1..=2u8 {
            self.yield_state(player, true, ev);
        }
    }

    /// Called as a Command phase ends, objective control updated: each player with a
    /// Yield-point rule gains its points, and the active player's rule takes its state.
    pub(super) fn yield_points_command_phase_ends(&mut self, ev: &mut Vec<GameEvent>) {
        for player in 1..=2u8 {
            if self.yield_rule(player).is_none() {
                continue;
            }
            let mine = |i: usize| self.objectives[i] == Some(player);
            let theirs = (0..self.objectives.len())
                .filter(|&i| self.objectives[i] == Some(opponent(player)))
                .count();
            let held: Vec<usize> = (0..self.objectives.len()).filter(|&i| mine(i)).collect();
            let home = held
                .iter()
                .filter(|&&i| self.objective_zone(i) == Some(player))
                .count();
            let away = held.len() - home;
            let mut gained = u32::from(home > 0);
            if self.battle_round >= 2 {
                gained +=
                    u32::from(away >= 1) + u32::from(away >= 2) + u32::from(held.len() > theirs);
            }
            let i = usize::from(player - 1);
            self.effects.yield_points[i] += gained;
            ev.push(GameEvent::YieldPoints {
                player,
                gained,
                total: self.effects.yield_points[i],
            });
        }
        self.yield_state(self.active_player, false, ev);
    }

    /// Called as a phase ends: effects lasting until the end of the phase end.
    pub(super) fn effects_phase_ends(&mut self) {
        self.effects.active.retain(|a| a.lasts != Lasts::EndOfPhase);
        self.effects
            .choices
            .retain(|c| c.lasts != Lasts::EndOfPhase);
    }

    /// Called as a turn ends: effects lasting until the end of the turn end.
    pub(super) fn effects_turn_ends(&mut self) {
        self.effects
            .active
            .retain(|a| !matches!(a.lasts, Lasts::EndOfPhase | Lasts::EndOfTurn));
        self.effects
            .choices
            .retain(|c| !matches!(c.lasts, Lasts::EndOfPhase | Lasts::EndOfTurn));
    }

    /// The model named `name` (`unit#N`) in either army.
    fn any_model(&self, name: &str) -> Result<ModelRef, Rejection> {
        let (unit, n) = name.rsplit_once('#').ok_or_else(|| {
            Rejection::new(
                Rule::Referee,
                format!("'{name}' is not a model name: write unit#N"),
            )
        })?;
        for army in 0..self.units.len() {
            if let Some(u) = self.find_unit(army, unit) {
                return match n.parse::<usize>() {
                    Ok(m) if m < self.units[army][u].models.len() => Ok(ModelRef {
                        army,
                        unit: u,
                        model: m,
                    }),
                    _ => Err(Rejection::new(
                        Rule::Referee,
                        format!(
                            "'{unit}' has no model #{n} (it has {})",
                            self.units[army][u].models.len()
                        ),
                    )),
                };
            }
        }
        Err(Rejection::new(
            Rule::Referee,
            format!("there is no unit '{unit}'"),
        ))
    }

    fn any_unit(&self, id: &str) -> Result<(usize, usize), Rejection> {
        (0..self.units.len())
            .find_map(|a| self.find_unit(a, id).map(|u| (a, u)))
            .ok_or_else(|| Rejection::new(Rule::Referee, format!("there is no unit '{id}'")))
    }

    /// [`super::Command::Referee`]: applies a rule by hand, logged as an override with the
    /// player's note.
    pub(super) fn referee(
        &mut self,
        player: u8,
        action: &RefereeAction,
        note: &str,
        ev: &mut Vec<GameEvent>,
    ) -> Result<(), Rejection> {
        if note.trim().is_empty() {
            return reject(
                Rule::Referee,
                "an override needs a note saying which rule it applies",
            );
        }
        let what = match action {
            RefereeAction::MortalWounds { model, wounds } => {
                let r = self.any_model(model)?;
                if !self.on_table(r) {
                    return reject(Rule::Referee, format!("{model} is not on the battlefield"));
                }
                let m = &mut self.units[r.army][r.unit].models[r.model];
                let lost = (*wounds).min(m.wounds);
                m.wounds -= lost;
                let destroyed = m.wounds == 0;
                let text = format!("{model} loses {lost} wound(s)");
                ev.push(self.override_event(player, &text, note));
                if destroyed {
                    self.destroy_model(r, ev);
                }
                return Ok(());
            }
            RefereeAction::RestoreWounds { model, wounds } => {
                let r = self.any_model(model)?;
                let full = self.scene.armies[r.army].units[r.unit].models[r.model]
                    .characteristics
                    .wounds;
                let u = &mut self.units[r.army][r.unit];
                if u.location != Location::OnTable {
                    return reject(
                        Rule::Referee,
                        format!("{model}'s unit is not on the battlefield"),
                    );
                }
                let m = &mut u.models[r.model];
                m.wounds = m.wounds.saturating_add(*wounds).min(full);
                m.alive = m.wounds > 0;
                format!("{model} has {} wound(s) left", m.wounds)
            }
            RefereeAction::Modify {
                unit,
                effects,
                lasts,
            } => {
                let (army, u) = self.any_unit(unit)?;
                for e in effects {
                    if let Err(why) = e.check() {
                        return reject(Rule::Referee, why);
                    }
                }
                if effects.is_empty() {
                    return reject(Rule::Referee, "an override modifies at least one thing");
                }
                let root = self.combined(army, u)[0];
                self.effects.active.push(ActiveEffect {
                    army,
                    unit: root,
                    source: format!("override: {note}"),
                    effects: effects.clone(),
                    lasts: *lasts,
                });
                format!("{unit} modified ({effects:?}) until {lasts:?}")
            }
            RefereeAction::BattleShock { unit, shocked } => {
                let (army, u) = self.any_unit(unit)?;
                let root = self.combined(army, u)[0];
                let s = *shocked;
                self.for_combined(army, root, |x| x.battle_shocked = s);
                format!(
                    "{unit} {}",
                    if s {
                        "is Battle-shocked"
                    } else {
                        "is no longer Battle-shocked"
                    }
                )
            }
            RefereeAction::CommandPoints { of, change } => {
                if self.army_of(*of).is_none() {
                    return reject(Rule::Referee, format!("there is no player {of}"));
                }
                let i = usize::from(of - 1);
                let now = i64::from(self.cp[i]) + i64::from(*change);
                if now < 0 {
                    return reject(
                        Rule::Referee,
                        format!(
                            "player {of} has {} CP: cannot spend {}",
                            self.cp[i], -change
                        ),
                    );
                }
                self.cp[i] = now.min(i64::from(u32::MAX)) as u32;
                format!("player {of} has {} CP", self.cp[i])
            }
            RefereeAction::MoveModel { model, to } => {
                let r = self.any_model(model)?;
                if !self.on_table(r) {
                    return reject(Rule::Referee, format!("{model} is not on the battlefield"));
                }
                let (x, y, z) = *to;
                use crate::geometry::units::{BOARD_DEPTH_INCHES, BOARD_WIDTH_INCHES};
                let on_table = (0.0..=BOARD_WIDTH_INCHES).contains(&x)
                    && (0.0..=BOARD_DEPTH_INCHES).contains(&y)
                    && (0.0..=20.0).contains(&z);
                if !on_table {
                    return reject(
                        Rule::Referee,
                        format!("({x}, {y}, {z}) is not on the battlefield"),
                    );
                }
                self.move_models(&[(r, crate::geometry::Vec3::new(x, y, z))]);
                format!("{model} moved to ({x:.1}, {y:.1}, {z:.1})")
            }
        };
        ev.push(self.override_event(player, &what, note));
        Ok(())
    }

    fn override_event(&self, player: u8, what: &str, note: &str) -> GameEvent {
        GameEvent::RefereeOverride {
            player,
            what: what.to_string(),
            note: note.to_string(),
        }
    }
}

/// The roll changes [`Game::rules_on_plan`] returned, applied to the resolved weapon groups
/// (Hit and Wound modifiers, re-rolls, Critical Hit and Critical Wound rolls, Damage).
pub fn rules_on_resolved(
    resolved: &mut [crate::rules::attack::ResolvedWeapon],
    changes: &[(AttackChanges, AttackChanges)],
) {
    for (w, (own, theirs)) in resolved.iter_mut().zip(changes) {
        own.apply_resolved(w);
        theirs.apply_resolved(w);
    }
}
