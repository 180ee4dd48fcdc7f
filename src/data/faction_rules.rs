//! Faction rules files (`scenes/rules/<faction>.ron`): a faction's army rules and its
//! Detachments (the Detachment rule, its Stratagems with their CP cost, phase and target, its
//! Enhancements with their points), each saying what it does as [`Effect`]s. A rule with no
//! effect is applied by hand (the referee override); see docs/formats.md.
//!
//! Core Rules: Army Rules, Detachment Rules, Stratagems, Enhancements (muster your army).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::error::{DataError, DataErrors, locate};
use super::source::{embedded_files, parse, read};
use crate::rules::effect::{Effect, Turn};
use crate::rules::phase::Phase;

/// Most effects one rule may list (data beyond it is an error).
pub const MAX_EFFECTS_PER_RULE: usize = 16;

/// Most tokens an army rule may give each battle round or an action may cost (Battle Focus
/// gives 6 at Onslaught).
pub const MAX_TOKENS_PER_ROUND: u32 = 12;

/// A faction's rules file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "FactionRules", deny_unknown_fields)]
pub struct FactionRules {
    /// The faction ("Space Marines").
    pub faction: String,
    /// Other army faction names this file covers ("Ultramarines", "Blood Angels"...), matched
    /// case-insensitively against an army's `faction`.
    #[serde(default)]
    pub also: Vec<String>,
    /// The faction keyword whose units the army rules cover ("ADEPTUS ASTARTES").
    pub keyword: String,
    /// Where the data came from and under which licence.
    #[serde(default)]
    pub source: String,
    /// The army rules (Oath of Moment, Waaagh!).
    #[serde(default)]
    pub army_rules: Vec<Rule>,
    /// The Detachments.
    #[serde(default)]
    pub detachments: Vec<Detachment>,
    /// Datasheet abilities by name, shared by many datasheets of the faction ("Damaged"
    /// brackets aside): a unit whose datasheet lists an ability of that name (and gives it no
    /// effects of its own) gets these effects. `keywords` and `choice` are not used here.
    #[serde(default)]
    pub abilities: Vec<Rule>,
}

/// An army rule or a Detachment rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// Its name as printed.
    pub name: String,
    /// What it does, in the project's own words.
    #[serde(default)]
    pub text: String,
    /// The units it covers: those with any of these keywords (empty: the file's `keyword`).
    #[serde(default)]
    pub keywords: Vec<String>,
    /// A choice the rule gives its player (Oath of Moment's target, the Waaagh!'s round).
    #[serde(default)]
    pub choice: Option<Choice>,
    /// What it does; empty when it is applied by hand.
    #[serde(default)]
    pub effects: Vec<Effect>,
    /// A list-building rule (it changes what may be mustered, never a roll).
    #[serde(default)]
    pub list_building: bool,
    /// For a shared datasheet ability ([`FactionRules::abilities`]): the datasheets it is for,
    /// when the same name means different things on different datasheets; empty: every
    /// datasheet with an ability of that name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub datasheets: Vec<String>,
    /// Tokens the rule gives its player at the start of each battle round, unspent ones lost
    /// as the round ends (Battle Focus: 4 at Strike Force), spent on its `actions`.
    #[serde(default)]
    pub tokens_per_round: u32,
    /// Tokens the rule gives its player as each of the player's Command phases begins, for
    /// each of its units on the battlefield: (keyword or datasheet name, tokens), the first
    /// entry a unit's datasheet matches counting (Voice of Command: 1 Order for each OFFICER
    /// unit, 2 or 3 for some). Unspent ones are lost as the next such phase begins.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tokens_per_unit: Vec<(String, u32)>,
    /// Yield points (Leagues of Votann: Prioritised Efficiency): the player gains them at the
    /// end of each player's Command phase from the objective markers it controls, and at the
    /// end of its own Command phase the rule is in one of two states by the points it has
    /// (a choice made by the engine, which `Chosen(state)` conditions test).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub yield_points: Option<YieldPoints>,
    /// Tokens the rule's player gains on events, kept from round to round (Drukhari's Power
    /// from Pain: 1 as each of its Command phases begins, 1 each time an enemy unit is
    /// destroyed, 1 each time an enemy unit fails a Battle-shock test).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tokens_gained: Vec<TokenGain>,
    /// What the rule's tokens pay for (Battle Focus's Agile Manoeuvres): each used like a
    /// Detachment Stratagem (`Command::UseRuleStratagem`) but paid in `tokens`; a unit
    /// performs at most one of a rule's actions each phase.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<RuleStratagem>,
}

/// When a rule's player gains tokens ([`Rule::tokens_gained`]), and how many.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TokenGain {
    /// As each of the player's Command phases begins.
    CommandPhase(u32),
    /// Each time an enemy unit (a Leader or Bodyguard unit on its own) is destroyed.
    EnemyUnitDestroyed(u32),
    /// Each time an enemy unit fails a Battle-shock test.
    EnemyFailedBattleShock(u32),
}

impl TokenGain {
    /// How many tokens it gives.
    pub fn tokens(self) -> u32 {
        match self {
            TokenGain::CommandPhase(n)
            | TokenGain::EnemyUnitDestroyed(n)
            | TokenGain::EnemyFailedBattleShock(n) => n,
        }
    }
}

/// The two states of a rule run by Yield points ([`Rule::yield_points`]). Each player's
/// Command phase ends with the player gaining 1 point when it controls an objective marker in
/// its own deployment zone and, from the second battle round, 1 more for each of: controlling
/// one marker outside it, controlling two outside it, controlling more markers than the
/// opponent (Leagues of Votann: Prioritised Efficiency).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct YieldPoints {
    /// The points from which the rule is in the `at_or_above` state (7).
    pub threshold: u32,
    /// The state below it, and at the start of the battle ("Hostile Acquisition").
    pub below: String,
    /// The state at or above it ("Fortify Takeover").
    pub at_or_above: String,
}

/// A choice a rule gives its player, made with `Command::RuleChoice` in the player's own
/// phase `at` (the Command phase by default).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    /// What is chosen.
    pub pick: Pick,
    /// How often.
    #[serde(default)]
    pub limit: Limit,
    /// How long the choice lasts.
    #[serde(default)]
    pub lasts: Lasts,
    /// The phase of the player's own turn it is made in.
    #[serde(default = "command_phase")]
    pub at: Phase,
    /// Made once before the battle (Declare Battle Formations: Nurgle's Gift's Plague, the
    /// Hyper-adaptations) instead of in a phase: during deployment, by either player; when the
    /// battle begins without it, the first option is taken. Only `OneOf` picks.
    #[serde(default)]
    pub before_battle: bool,
    /// The battle rounds it is made in (empty: every round; Harbingers of Dread: 1, 3, 5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rounds: Vec<u8>,
    /// Each pick adds to those in force instead of replacing them (the Dread abilities).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub adds_up: bool,
}

fn command_phase() -> Phase {
    Phase::Command
}

/// What a [`Choice`] picks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Pick {
    /// One enemy unit on the battlefield (Oath of Moment).
    EnemyUnit,
    /// One of these options (Combat Doctrines).
    OneOf(Vec<String>),
    /// Nothing: the rule is declared (Waaagh!).
    Declare,
    /// An enemy unit picked by one of the army's units the rule covers (For the Greater
    /// Good: an Observer marks a Spotted unit): the picking unit (`RuleChoice.by`) is on the
    /// battlefield, not Battle-shocked, not a FORTIFICATION, has not shot this phase and sees
    /// the enemy unit; each unit picks once and each enemy unit is picked once each time the
    /// phase comes.
    EnemyUnitBy,
}

/// How often a [`Choice`] may be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Limit {
    /// Each time its phase comes.
    #[default]
    EachTime,
    /// Once per battle.
    OncePerBattle,
    /// Each option once per battle.
    EachOptionOncePerBattle,
}

/// How long a choice, Stratagem or override lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Lasts {
    /// Until the start of the player's next Command phase.
    #[default]
    UntilYourNextCommandPhase,
    /// Until the end of the phase.
    EndOfPhase,
    /// Until the end of the turn.
    EndOfTurn,
    /// Until the end of the battle.
    EndOfBattle,
}

/// A Detachment: its rules, Stratagems and Enhancements.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Detachment {
    /// Its name ("Gladius Task Force").
    pub name: String,
    /// Its Detachment rule(s).
    #[serde(default)]
    pub rules: Vec<Rule>,
    /// Its Stratagems.
    #[serde(default)]
    pub stratagems: Vec<RuleStratagem>,
    /// Its Enhancements.
    #[serde(default)]
    pub enhancements: Vec<Enhancement>,
}

/// A Detachment Stratagem (Core Rules: Stratagems: each used at most once per phase, paid in
/// CP, never on a Battle-shocked unit of its own player).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleStratagem {
    /// Its name.
    pub name: String,
    /// Its cost in command points.
    pub cp: u32,
    /// The phases it can be used in.
    pub phases: Vec<Phase>,
    /// In whose turn.
    pub turn: Turn,
    /// The target must be a unit of the player's with any of these keywords (empty: any).
    #[serde(default)]
    pub keywords: Vec<String>,
    /// What it does, in the project's own words.
    #[serde(default)]
    pub text: String,
    /// What it does to the target unit; empty when it is applied by hand.
    #[serde(default)]
    pub effects: Vec<Effect>,
    /// How long the effects last (the end of the phase by default).
    #[serde(default = "end_of_phase")]
    pub lasts: Lasts,
    /// For an army rule's action ([`Rule::actions`]): its cost in the rule's tokens (`cp` is
    /// then 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tokens: u32,
    /// For an army rule's action: it may be used again in the same phase on another unit
    /// (Swift as the Wind); otherwise once per phase, as a Stratagem.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub each_unit: bool,
    /// Conditions the target unit must meet when it is used (an Order: a friendly OFFICER
    /// within 6", the unit not Battle-shocked).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requires: Vec<crate::rules::effect::Condition>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn end_of_phase() -> Lasts {
    Lasts::EndOfPhase
}

/// An Enhancement a CHARACTER of the army may take.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Enhancement {
    /// Its name.
    pub name: String,
    /// Its points.
    pub points: u32,
    /// The bearer must have any of these keywords or datasheet names (empty: any CHARACTER
    /// that is not an EPIC HERO).
    #[serde(default)]
    pub eligible: Vec<String>,
    /// What it does, in the project's own words.
    #[serde(default)]
    pub text: String,
    /// What it does to the bearer (or, with `scope: Attached`, to the unit it leads).
    #[serde(default)]
    pub effects: Vec<Effect>,
}

/// How the engine treats a rule: applied by the engine, by hand, or a list-building rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RuleStatus {
    /// The engine applies it.
    Applied,
    /// The players apply it by hand (the referee override).
    Manual,
    /// It only changes what may be mustered.
    ListBuilding,
}

impl RuleStatus {
    /// The status of a rule with these effects.
    pub fn of(effects: &[Effect], list_building: bool) -> RuleStatus {
        if !effects.is_empty() {
            RuleStatus::Applied
        } else if list_building {
            RuleStatus::ListBuilding
        } else {
            RuleStatus::Manual
        }
    }

    /// Its name as `rules --json` writes it.
    pub fn label(self) -> &'static str {
        match self {
            RuleStatus::Applied => "applied",
            RuleStatus::Manual => "manual",
            RuleStatus::ListBuilding => "list-building",
        }
    }
}

impl Rule {
    /// True when this shared ability is the one of datasheet `sheet` (see
    /// [`Rule::datasheets`]).
    pub fn for_datasheet(&self, sheet: &str) -> bool {
        self.datasheets.is_empty() || self.datasheets.iter().any(|d| same_name(d, sheet))
    }

    /// How the engine treats it: applied when it has effects or actions with effects.
    pub fn status(&self) -> RuleStatus {
        if self.actions.iter().any(|a| !a.effects.is_empty()) {
            return RuleStatus::Applied;
        }
        RuleStatus::of(&self.effects, self.list_building)
    }

    /// True when the rule covers a unit of datasheet `d` (its keywords and faction keywords;
    /// `default` is the file's keyword), as [`Rule::covers`] says.
    pub fn covers_datasheet(&self, d: &crate::rules::Datasheet, default: &str) -> bool {
        let has = |k: &str| {
            d.keywords
                .iter()
                .chain(&d.faction_keywords)
                .any(|x| x.eq_ignore_ascii_case(k))
        };
        if self.keywords.is_empty() {
            has(default)
        } else {
            self.keywords.iter().any(|k| has(k))
        }
    }

    /// True when the rule covers a unit with these keywords (`default` is the file's keyword).
    pub fn covers(&self, keywords: &[String], default: &str) -> bool {
        let has = |k: &str| keywords.iter().any(|x| x.eq_ignore_ascii_case(k));
        if self.keywords.is_empty() {
            has(default)
        } else {
            self.keywords.iter().any(|k| has(k))
        }
    }
}

impl FactionRules {
    /// True when this file is the one for an army of `faction`.
    pub fn covers_faction(&self, faction: &str) -> bool {
        let f = faction.trim();
        self.faction.eq_ignore_ascii_case(f) || self.also.iter().any(|a| a.eq_ignore_ascii_case(f))
    }

    /// The Detachment named `name` (case-insensitive).
    /// A roster may add the Detachment rule's name in brackets ("Berzerker Warband
    /// (Relentless Rage)"): the name before them is tried too.
    pub fn detachment(&self, name: &str) -> Option<&Detachment> {
        let n = name.trim();
        let bare = n.split_once(" (").map_or(n, |(b, _)| b.trim());
        self.detachments
            .iter()
            .find(|d| same_name(&d.name, n) || same_name(&d.name, bare))
    }

    /// The one Detachment whose Enhancements include every name of `enhancements` (for an
    /// army that names Enhancements but no Detachment); None when none or several do.
    pub fn detachment_with(&self, enhancements: &[&str]) -> Option<&Detachment> {
        if enhancements.is_empty() {
            return None;
        }
        let mut found = self.detachments.iter().filter(|d| {
            enhancements
                .iter()
                .all(|e| d.enhancements.iter().any(|x| same_name(&x.name, e)))
        });
        let first = found.next()?;
        found.next().is_none().then_some(first)
    }
}

/// The rules an army plays with: its faction's army rules, its Detachment (if named and
/// known), and the file they came from.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ArmyRules {
    /// The faction file's path; None when the faction has none.
    pub file: Option<PathBuf>,
    /// The faction keyword the army rules cover.
    pub keyword: String,
    /// The army rules.
    pub army_rules: Vec<Rule>,
    /// The Detachment chosen.
    pub detachment: Option<Detachment>,
    /// The faction's shared datasheet abilities by name ([`FactionRules::abilities`]).
    pub abilities: Vec<Rule>,
}

impl ArmyRules {
    /// Every army and Detachment rule.
    pub fn rules(&self) -> impl Iterator<Item = &Rule> {
        self.army_rules
            .iter()
            .chain(self.detachment.iter().flat_map(|d| &d.rules))
    }

    /// The rule (army or Detachment) named `name`.
    pub fn rule(&self, name: &str) -> Option<&Rule> {
        self.rules()
            .find(|r| r.name.eq_ignore_ascii_case(name.trim()))
    }

    /// The faction's shared datasheet ability named `name` for the datasheet named `sheet`,
    /// if the file defines one (the first entry of that name whose `datasheets` include it).
    pub fn ability_for(&self, name: &str, sheet: &str) -> Option<&Rule> {
        self.abilities
            .iter()
            .find(|r| same_name(&r.name, name) && r.for_datasheet(sheet))
    }

    /// The Detachment Stratagem or army rule action ([`Rule::actions`]) named `name`.
    pub fn stratagem(&self, name: &str) -> Option<&RuleStratagem> {
        self.stratagems()
            .find(|s| s.name.eq_ignore_ascii_case(name.trim()))
    }

    /// Every Detachment Stratagem and army rule action ([`Rule::actions`]).
    pub fn stratagems(&self) -> impl Iterator<Item = &RuleStratagem> {
        self.detachment
            .iter()
            .flat_map(|d| &d.stratagems)
            .chain(self.army_rules.iter().flat_map(|r| &r.actions))
    }

    /// True when a rule gives tokens per unit at each Command phase ([`Rule::tokens_per_unit`]).
    pub fn gives_tokens_per_unit(&self) -> bool {
        self.army_rules
            .iter()
            .any(|r| !r.tokens_per_unit.is_empty())
    }

    /// The tokens the army rules give each battle round ([`Rule::tokens_per_round`]).
    pub fn tokens_per_round(&self) -> u32 {
        self.army_rules.iter().map(|r| r.tokens_per_round).sum()
    }

    /// The Enhancement named `name`.
    pub fn enhancement(&self, name: &str) -> Option<&Enhancement> {
        self.detachment
            .iter()
            .flat_map(|d| &d.enhancements)
            .find(|e| same_name(&e.name, name))
    }
}

/// Names equal but for case, apostrophes and spacing ("Kunnin' But Brutal", "kunnin but
/// brutal").
pub fn same_name(a: &str, b: &str) -> bool {
    let norm = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    norm(a) == norm(b)
}

/// Loads and checks a faction rules file.
///
/// # Errors
/// Syntax errors, and effects outside their limits, at their file, line and column.
pub fn load_faction_rules(file: &Path) -> Result<FactionRules, DataErrors> {
    let text = read(file)?;
    parse_faction_rules(file, &text)
}

/// Parses and checks the text of a faction rules file (`file` names it in errors).
///
/// # Errors
/// As [`load_faction_rules`].
pub fn parse_faction_rules(file: &Path, text: &str) -> Result<FactionRules, DataErrors> {
    let data: FactionRules = parse(file, text)?;
    let mut errors = check(file, &data);
    if errors.is_empty() {
        return Ok(data);
    }
    locate(&mut errors, text);
    Err(DataErrors(errors))
}

/// The semantic checks of a faction rules file: every effect within its limits, names not
/// empty nor repeated, costs and points sensible.
pub fn check(file: &Path, data: &FactionRules) -> Vec<DataError> {
    let mut errors = Vec::new();
    let effects = |path: String, list: &[Effect], errors: &mut Vec<DataError>| {
        if list.len() > MAX_EFFECTS_PER_RULE {
            errors.push(DataError::value(
                file,
                path.clone(),
                format!(
                    "{} effects is over the limit: at most {MAX_EFFECTS_PER_RULE}",
                    list.len()
                ),
            ));
        }
        for (i, e) in list.iter().enumerate() {
            if let Err(why) = e.check() {
                errors.push(DataError::value(file, format!("{path}[{i}]"), why));
            }
        }
    };
    for (i, r) in data.army_rules.iter().enumerate() {
        effects(format!("army_rules[{i}].effects"), &r.effects, &mut errors);
        for (k, g) in r.tokens_gained.iter().enumerate() {
            if g.tokens() == 0 || g.tokens() > MAX_TOKENS_PER_ROUND {
                errors.push(DataError::value(
                    file,
                    format!("army_rules[{i}].tokens_gained[{k}]"),
                    format!(
                        "{} tokens is outside the limits: 1 to {MAX_TOKENS_PER_ROUND}",
                        g.tokens()
                    ),
                ));
            }
        }
        for (k, (_, n)) in r.tokens_per_unit.iter().enumerate() {
            if *n == 0 || *n > MAX_TOKENS_PER_ROUND {
                errors.push(DataError::value(
                    file,
                    format!("army_rules[{i}].tokens_per_unit[{k}]"),
                    format!("{n} tokens a unit is outside the limits: 1 to {MAX_TOKENS_PER_ROUND}"),
                ));
            }
        }
        if r.tokens_per_round > MAX_TOKENS_PER_ROUND {
            errors.push(DataError::value(
                file,
                format!("army_rules[{i}].tokens_per_round"),
                format!(
                    "{} tokens is over the limit: at most {MAX_TOKENS_PER_ROUND}",
                    r.tokens_per_round
                ),
            ));
        }
        for (k, a) in r.actions.iter().enumerate() {
            let at = format!("army_rules[{i}].actions[{k}]");
            if a.cp != 0 || a.tokens == 0 || a.tokens > MAX_TOKENS_PER_ROUND {
                errors.push(DataError::value(
                    file,
                    format!("{at}.tokens"),
                    "an army rule's action is paid in 1 or more of its tokens and 0 CP",
                ));
            }
            if a.phases.is_empty() {
                errors.push(DataError::value(
                    file,
                    format!("{at}.phases"),
                    "an action needs at least one phase",
                ));
            }
            effects(format!("{at}.effects"), &a.effects, &mut errors);
        }
    }
    for (i, r) in data.abilities.iter().enumerate() {
        effects(format!("abilities[{i}].effects"), &r.effects, &mut errors);
    }
    for (d, det) in data.detachments.iter().enumerate() {
        if data.detachments[..d]
            .iter()
            .any(|x| x.name.eq_ignore_ascii_case(&det.name))
        {
            errors.push(DataError::value(
                file,
                format!("detachments[{d}].name"),
                format!("the Detachment '{}' is defined twice", det.name),
            ));
        }
        for (i, r) in det.rules.iter().enumerate() {
            effects(
                format!("detachments[{d}].rules[{i}].effects"),
                &r.effects,
                &mut errors,
            );
        }
        for (i, s) in det.stratagems.iter().enumerate() {
            if s.cp > 3 {
                errors.push(DataError::value(
                    file,
                    format!("detachments[{d}].stratagems[{i}].cp"),
                    format!("{} CP is over the limit: Stratagems cost 0 to 3 CP", s.cp),
                ));
            }
            if s.phases.is_empty() {
                errors.push(DataError::value(
                    file,
                    format!("detachments[{d}].stratagems[{i}].phases"),
                    "a Stratagem needs at least one phase",
                ));
            }
            effects(
                format!("detachments[{d}].stratagems[{i}].effects"),
                &s.effects,
                &mut errors,
            );
        }
        for (i, e) in det.enhancements.iter().enumerate() {
            if e.points > 100 {
                errors.push(DataError::value(
                    file,
                    format!("detachments[{d}].enhancements[{i}].points"),
                    format!("{} points is over the limit: at most 100", e.points),
                ));
            }
            effects(
                format!("detachments[{d}].enhancements[{i}].effects"),
                &e.effects,
                &mut errors,
            );
        }
    }
    errors
}

/// Every shipped faction rules file (`scenes/rules/*.ron`, built in), loaded once.
///
/// # Panics
/// Never on the shipped files: a test loads every one of them.
pub fn shipped() -> &'static [(PathBuf, Arc<FactionRules>)] {
    static ALL: std::sync::OnceLock<Vec<(PathBuf, Arc<FactionRules>)>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        embedded_files()
            .iter()
            .filter(|(p, _)| p.starts_with("scenes/rules/") && p.ends_with(".ron"))
            .filter_map(|(p, text)| {
                let path = super::source::builtin_path(p);
                parse_faction_rules(&path, text)
                    .ok()
                    .map(|r| (path, Arc::new(r)))
            })
            .collect()
    })
}

/// The shipped rules file for an army of `faction`, if any.
pub fn for_faction(faction: &str) -> Option<(PathBuf, Arc<FactionRules>)> {
    shipped()
        .iter()
        .find(|(_, r)| r.covers_faction(faction))
        .cloned()
}

/// One ability instance of a datasheet with how the engine treats it (`wartable rules`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AbilityStatus {
    /// The ability's name as the datasheet prints it.
    pub name: String,
    /// Applied by the engine, by hand, or list-building.
    pub status: RuleStatus,
    /// Why: "core ability", "effects", "army rule", "invulnerable save"...
    pub by: &'static str,
}

/// Every ability instance of a datasheet in play, with its status: each core ability, and
/// each named ability (one not already a core ability). Applied when the engine applies it:
/// a core ability; an ability with effects (its own, or the derived "Damaged" and ranged-only
/// invulnerable ones); the invulnerable save of the datasheet line; an army, Detachment or
/// shared ability of that name in `rules` whose status is applied; a reminder of a weapon
/// ability its weapons carry ("Sustained Hits"); a timed or "when
/// destroyed" ability; a TRANSPORT's capacity; a Leader's attachment. "Wargear options",
/// "Unit Composition" and the like are list-building. Everything else is applied by hand.
pub fn ability_statuses(sheet: &crate::rules::Datasheet, rules: &[&Rule]) -> Vec<AbilityStatus> {
    use crate::rules::CoreAbility;
    let mut out: Vec<AbilityStatus> = sheet
        .core_abilities
        .iter()
        .map(|c| AbilityStatus {
            name: format!("{c:?}"),
            status: RuleStatus::Applied,
            by: "core ability",
        })
        .collect();
    for a in &sheet.abilities {
        let lower = a.name.to_ascii_lowercase();
        if CoreAbility::from_name(&a.name).is_some() {
            continue;
        }
        let named = rules
            .iter()
            .find(|r| same_name(&r.name, &a.name) && r.for_datasheet(&sheet.name));
        let (status, by) = if !a.effects.is_empty() {
            (RuleStatus::Applied, "effects")
        } else if let Some(r) = named {
            (r.status(), "faction rules")
        } else if lower.starts_with("invulnerable save")
            && (sheet.invulnerable_save.is_some()
                || sheet.abilities.iter().any(|x| {
                    x.name.to_ascii_lowercase().contains("ranged only") && !x.effects.is_empty()
                }))
        {
            // The datasheet line's save, or the "(ranged only)" one it names again.
            (RuleStatus::Applied, "invulnerable save")
        } else if sheet
            .timed_abilities
            .iter()
            .any(|t| same_name(&t.name, &a.name))
        {
            (RuleStatus::Applied, "timed ability")
        } else if !sheet.destroyed_abilities.is_empty() && lower.contains("for the chapter") {
            (RuleStatus::Applied, "when destroyed")
        } else if !lower.trim().is_empty()
            && sheet
                .ranged_weapons
                .iter()
                .chain(&sheet.melee_weapons)
                .flat_map(|w| &w.abilities)
                .any(|w| w.to_string().to_ascii_lowercase().starts_with(lower.trim()))
        {
            // A reminder of a weapon ability its weapons carry ("Sustained Hits"): the attack
            // sequence applies it.
            (RuleStatus::Applied, "weapon ability")
        } else if lower == "transport" && sheet.transport_capacity.is_some() {
            (RuleStatus::Applied, "transport capacity")
        } else if matches!(lower.as_str(), "leader" | "attached unit" | "bodyguard")
            && (!sheet.leader_of.is_empty() || lower != "leader")
        {
            (RuleStatus::Applied, "Leader attachment")
        } else if lower.contains("wargear")
            || lower.contains("unit composition")
            || lower == "loadout"
            || lower.ends_with("(option)")
        {
            (RuleStatus::ListBuilding, "list building")
        } else {
            (RuleStatus::Manual, "by hand")
        };
        out.push(AbilityStatus {
            name: a.name.clone(),
            status,
            by,
        });
    }
    out
}

/// The rules a faction file offers datasheets of its faction: army rules, every Detachment's
/// rules, shared abilities (for counting; an army uses only its own Detachment's).
pub fn every_rule(f: &FactionRules) -> Vec<&Rule> {
    f.army_rules
        .iter()
        .chain(f.detachments.iter().flat_map(|d| &d.rules))
        .chain(&f.abilities)
        .collect()
}
