//! Datasheets converted from a checkout of the community BSData `wh40k-10e` catalogues
//! (`Warhammer 40,000.gst` and the `.cat` files): one [`DatasheetsFile`] per `Faction:`
//! keyword, holding names and numbers only (characteristics, weapon profiles, keywords, unit
//! sizes, points, ability names). No rules text is copied: every ability's `text` is empty.
//!
//! The catalogues give no base sizes: they come from a [`BaseSizes`] table
//! (`scenes/datasheets/base-sizes.ron`), and a datasheet that table has no size in millimetres
//! for gets no `base` (loading it gives it a hull or an assumed base, [`crate::data::hulls`]).
//!
//! How the XML is read (root entries, entry links, constraints, modifiers and their
//! conditions, multi-profile weapons) follows the BattleScribe data format as the catalogues
//! use it; the points of each unit size come from a small evaluator of the `pts` modifiers'
//! conditions for a matched-play army roster.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use roxmltree::{Document, Node};
use serde::{Deserialize, Serialize};

use super::army::DatasheetsFile;
use crate::geometry::Base;
use crate::rules::constants::MAX_MODELS_PER_UNIT;
use crate::rules::{
    Ability, CoreAbility, Datasheet, DiceExpr, ModelProfile, WeaponAbility, WeaponProfile,
};

/// The game system file every checkout holds.
pub const GAME_SYSTEM_FILE: &str = "Warhammer 40,000.gst";

/// Profile type of a model's characteristics (M, T, SV, W, LD, OC).
const UNIT_PROFILE: &str = "c547-1836-d8a-ff4f";
/// Profile type of a ranged weapon.
const RANGED_PROFILE: &str = "f77d-b953-8fa4-b762";
/// Profile type of a melee weapon.
const MELEE_PROFILE: &str = "8a40-4aaa-c780-9046";
/// Profile type of an ability.
const ABILITY_PROFILE: &str = "9cc3-6d83-4dd3-9b64";
/// Profile type of a TRANSPORT's capacity.
const TRANSPORT_PROFILE: &str = "74f8-5443-9d6d-1f1e";
/// Cost type of matched-play points.
const POINTS_COST: &str = "51b2-306e-1021-d207";
/// Force entry of a matched-play army roster (the only force the converter assumes).
const ARMY_ROSTER: &str = "bb9d-299a-ed60-2d8a";
/// Category of entries that are reference only (not datasheets).
const REFERENCE_CATEGORY: &str = "eef1-be80-500a-edfc";
/// Categories that are not keywords.
const NOT_KEYWORDS: [&str; 9] = [
    "Configuration",
    "Reference",
    "Allied Units",
    "Warlord",
    "Crucible",
    "Unit",
    "Non-Kroot",
    "Titanic Support",
    "Squadron",
];
/// The generic Space Marine faction: a unit that also names a chapter goes to the chapter.
const ADEPTUS_ASTARTES: &str = "Adeptus Astartes";
/// A model count standing for "no maximum".
const UNBOUNDED: i64 = 1_000_000;
/// How deep the converter follows nested entries (the catalogues nest a few levels).
const MAX_DEPTH: usize = 8;

// ---------------------------------------------------------------------------------------
// Base sizes
// ---------------------------------------------------------------------------------------

/// A table of base sizes by faction and datasheet name (`scenes/datasheets/base-sizes.ron`),
/// with where the sizes come from and under which licence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "BaseSizes", deny_unknown_fields)]
pub struct BaseSizes {
    /// Where the sizes come from (document, transcription, commit).
    pub source: String,
    /// The licence of the transcription.
    pub licence: String,
    /// One row per datasheet.
    pub bases: Vec<BaseEntry>,
}

/// One datasheet's base in a [`BaseSizes`] table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "BaseEntry", deny_unknown_fields)]
pub struct BaseEntry {
    /// The faction as the base-size guide names it ("Space Marines", "Aeldari").
    pub faction: String,
    /// The datasheet's name as the guide prints it.
    pub datasheet: String,
    /// Its base: round or oval, millimetres.
    pub base: Base,
}

impl BaseSizes {
    /// Reads a base-size table (a path under `builtin:` reads the copy built into wartable).
    ///
    /// # Errors
    /// The file cannot be read or is not a `BaseSizes(...)` table: the message names the file.
    pub fn load(path: &Path) -> Result<BaseSizes, String> {
        let text = super::source::read(path).map_err(|e| e.to_string())?;
        super::source::parse(path, &text).map_err(|e| e.to_string())
    }

    /// The base of the datasheet `name` of the BSData faction `faction`: the row whose name
    /// matches (case-insensitive, apostrophes dropped, dashes read as spaces) in the guide's
    /// section for that faction, else the one size every matching row agrees on. `None` when
    /// no row matches or rows of other factions disagree.
    pub fn find(&self, faction: &str, name: &str) -> Option<Base> {
        self.find_by(faction, &normalise_name(name), normalise_name)
            .or_else(|| self.find_by(faction, &loose_name(name), loose_name))
    }

    /// [`BaseSizes::find`] with names compared as `key` (of the datasheet) and `norm` (of
    /// each row) give them.
    fn find_by(&self, faction: &str, key: &str, norm: fn(&str) -> String) -> Option<Base> {
        let rows: Vec<&BaseEntry> = self
            .bases
            .iter()
            .filter(|b| norm(&b.datasheet) == key)
            .collect();
        let sections = guide_sections(faction);
        if let Some(row) = rows
            .iter()
            .find(|b| sections.iter().any(|s| s.eq_ignore_ascii_case(&b.faction)))
        {
            return Some(row.base);
        }
        let first = rows.first()?;
        rows.iter()
            .all(|b| b.base == first.base)
            .then_some(first.base)
    }
}

/// The base-size guide's sections that hold a BSData faction's datasheets.
fn guide_sections(faction: &str) -> Vec<&str> {
    match faction {
        "Adeptus Astartes" => vec!["Space Marines"],
        "Asuryani" | "Ynnari" | "Harlequins" => vec!["Aeldari"],
        "Heretic Astartes" => vec!["Chaos Space Marines"],
        "Legiones Daemonica" => vec!["Chaos Daemons"],
        "Plague Legions" => vec!["Death Guard", "Chaos Daemons"],
        "Scintillating Legions" => vec!["Thousand Sons", "Chaos Daemons"],
        "Blood Legions" => vec!["World Eaters", "Chaos Daemons"],
        "Legions of Excess" => vec!["Emperor's Children", "Chaos Daemons"],
        "Agents of the Imperium" => vec!["Imperial Agents"],
        "Titanicus Traitoris" => vec!["Adeptus Titanicus", "Chaos Knights"],
        other => vec![other],
    }
}

/// A name compared more loosely, when the exact form matches no row: also without a
/// parenthesised part ("Emperor's Champion (Anointed)"), a leading "the", and with "armor"
/// spelt "armour".
fn loose_name(name: &str) -> String {
    let mut s = name.to_string();
    while let Some(open) = s.find('(') {
        let close = s[open..].find(')').map_or(s.len(), |c| open + c + 1);
        s.replace_range(open..close, "");
    }
    let n = normalise_name(&s).replace("armor", "armour");
    n.strip_prefix("the ").map(str::to_string).unwrap_or(n)
}

/// A name as compared between sources (the base-size table, rosters): lower case,
/// apostrophes dropped, dashes as spaces, single spaces.
pub fn normalise_name(name: &str) -> String {
    let mapped: String = name
        .chars()
        .filter(|c| !matches!(c, '\'' | '\u{2019}' | '\u{2018}' | '`' | '\u{b4}'))
        .map(|c| match c {
            '-' | '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' => ' ',
            c => c,
        })
        .collect::<String>()
        .to_lowercase();
    mapped.split_whitespace().collect::<Vec<_>>().join(" ")
}

// ---------------------------------------------------------------------------------------
// Public results
// ---------------------------------------------------------------------------------------

/// The converted datasheets, one file per faction, and what the conversion met.
#[derive(Debug, Clone)]
pub struct Conversion {
    /// (file stem, e.g. "orks" or "tau-empire"; the faction's datasheets), by file stem.
    pub files: Vec<(String, DatasheetsFile)>,
    /// Counts and the datasheets left out or left without a base.
    pub report: ConversionReport,
}

/// What a conversion produced and what it left out.
#[derive(Debug, Clone, Default)]
pub struct ConversionReport {
    /// Faction files written.
    pub factions: usize,
    /// Datasheets in all files.
    pub datasheets: usize,
    /// Weapon profiles in all datasheets.
    pub weapons: usize,
    /// (faction, datasheet) with no base size in the table.
    pub without_base: Vec<(String, String)>,
    /// (datasheet, why) left out because something in it could not be read or checked.
    pub skipped: Vec<(String, String)>,
    /// Distinct `[Legends]` datasheets left out.
    pub legends: usize,
    /// Distinct `[Crucible]` (narrative custom character) datasheets left out.
    pub crucible: usize,
    /// (datasheet, weapon, why) weapon profiles left out of a datasheet that was kept.
    pub skipped_weapons: Vec<(String, String, String)>,
    /// (datasheet, weapon) names found with different numbers on different models: the
    /// first kept.
    pub weapon_conflicts: Vec<(String, String)>,
    /// Weapon keyword tokens that are no core weapon ability, with how often each appeared;
    /// kept as ability names ("Weapon ability: ...").
    pub unknown_weapon_keywords: Vec<(String, usize)>,
    /// (datasheet, target) Leader targets that name no datasheet (keywords, typos): kept as
    /// printed.
    pub unmatched_leader_targets: Vec<(String, String)>,
}

// ---------------------------------------------------------------------------------------
// Weapon keywords
// ---------------------------------------------------------------------------------------

/// Reads a weapon's Keywords characteristic as BSData writes it ("Anti-FLY 4+, Sustained
/// Hits 2", "Twin Linked", "-" for none) into core weapon abilities (Core Rules: Weapon
/// Abilities), case-insensitively. Tokens that are no core ability, or whose value the engine
/// cannot hold (RAPID FIRE D3, a number past a limit), come back as the second list, as
/// printed.
pub fn parse_weapon_keywords(text: &str) -> (Vec<WeaponAbility>, Vec<String>) {
    let mut abilities = Vec::new();
    let mut unknown = Vec::new();
    for token in text.split(',') {
        let token: String = token
            .chars()
            .filter(|c| !matches!(c, '*' | '^'))
            .collect::<String>()
            .trim()
            .trim_end_matches('.')
            .trim()
            .to_string();
        if token.is_empty() || matches!(token.as_str(), "-" | "\u{2013}" | "\u{2014}") {
            continue;
        }
        match keyword_ability(&token).filter(|a| a.check().is_ok()) {
            Some(a) => {
                if !abilities.contains(&a) {
                    abilities.push(a);
                }
            }
            None => unknown.push(token),
        }
    }
    (abilities, unknown)
}

/// One keyword token as a core weapon ability, if it is one.
fn keyword_ability(token: &str) -> Option<WeaponAbility> {
    use WeaponAbility as A;
    let lower = token
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("twin linked", "twin-linked");
    let simple = match lower.as_str() {
        "assault" => Some(A::Assault),
        "ignores cover" => Some(A::IgnoresCover),
        "twin-linked" => Some(A::TwinLinked),
        "pistol" => Some(A::Pistol),
        "torrent" => Some(A::Torrent),
        "lethal hits" => Some(A::LethalHits),
        "lance" => Some(A::Lance),
        "indirect fire" => Some(A::IndirectFire),
        "precision" => Some(A::Precision),
        "blast" => Some(A::Blast),
        "heavy" => Some(A::Heavy),
        "hazardous" => Some(A::Hazardous),
        "devastating wounds" => Some(A::DevastatingWounds),
        "extra attacks" => Some(A::ExtraAttacks),
        "one shot" => Some(A::OneShot),
        "psychic" => Some(A::Psychic),
        _ => None,
    };
    if simple.is_some() {
        return simple;
    }
    if let Some(x) = lower.strip_prefix("rapid fire ") {
        return x.trim().parse::<u8>().ok().map(A::RapidFire);
    }
    if let Some(x) = lower.strip_prefix("blast ") {
        return x.trim().parse::<u8>().ok().map(A::BlastX);
    }
    if let Some(x) = lower.strip_prefix("cleave ") {
        return x.trim().parse::<u8>().ok().map(A::Cleave);
    }
    if let Some(x) = lower.strip_prefix("melta ") {
        return x.trim().parse::<u8>().ok().map(A::Melta);
    }
    if let Some(x) = lower.strip_prefix("sustained hits ") {
        return x.trim().parse::<DiceExpr>().ok().map(A::SustainedHits);
    }
    let rest = lower.strip_prefix("anti")?;
    let rest = rest.strip_prefix(['-', ' '])?.trim();
    let (keyword, roll) = rest.rsplit_once(' ')?;
    let roll: u8 = roll.trim_end_matches('+').parse().ok()?;
    let keyword = keyword.trim();
    (!keyword.is_empty()).then(|| A::Anti(keyword.to_uppercase(), roll))
}

// ---------------------------------------------------------------------------------------
// XML helpers
// ---------------------------------------------------------------------------------------

type X<'a> = Node<'a, 'a>;

/// The element children of `n` named `tag`.
fn kids<'a>(n: X<'a>, tag: &'static str) -> impl Iterator<Item = X<'a>> + use<'a> {
    n.children()
        .filter(move |c| c.is_element() && c.tag_name().name() == tag)
}

/// The elements at `outer/inner` under `n`.
fn path<'a>(n: X<'a>, outer: &'static str, inner: &'static str) -> impl Iterator<Item = X<'a>> {
    kids(n, outer).flat_map(move |s| kids(s, inner))
}

/// An attribute's value, or "" when absent.
fn attr<'a>(n: X<'a>, name: &str) -> &'a str {
    n.attribute(name).unwrap_or("")
}

fn tag<'a>(n: X<'a>) -> &'a str {
    n.tag_name().name()
}

/// A number attribute (the catalogues write "1" or "1.0").
fn num(n: X, name: &str) -> f64 {
    attr(n, name).trim().parse().unwrap_or(0.0)
}

/// The text of a characteristic named `name` of profile `p`, trimmed.
fn characteristic(p: X, name: &str) -> Option<String> {
    path(p, "characteristics", "characteristic")
        .find(|c| attr(*c, "name").eq_ignore_ascii_case(name))
        .map(|c| c.text().unwrap_or("").trim().to_string())
}

/// Every `selectionEntry`, `selectionEntryGroup` and `entryLink` directly under `n`.
fn entries(n: X) -> impl Iterator<Item = X> {
    ["selectionEntries", "selectionEntryGroups", "entryLinks"]
        .into_iter()
        .flat_map(move |sec| kids(n, sec))
        .flat_map(|s| s.children().filter(|c| c.is_element()))
}

/// Every modifier of `n`, those in (nested) modifier groups included.
fn modifiers(n: X) -> Vec<X> {
    let mut out: Vec<X> = path(n, "modifiers", "modifier").collect();
    for g in path(n, "modifierGroups", "modifierGroup") {
        out.extend(modifiers(g));
    }
    out
}

/// The (min, max) count `field="selections"` constraints give `n` within its parent
/// (roster- and force-wide limits are army building, not unit composition).
fn constraints(n: X) -> (Option<i64>, Option<i64>) {
    let (mut lo, mut hi) = (None, None);
    for c in path(n, "constraints", "constraint") {
        if attr(c, "field") != "selections" || matches!(attr(c, "scope"), "roster" | "force") {
            continue;
        }
        let v = num(c, "value") as i64;
        match attr(c, "type") {
            "min" => lo = Some(lo.map_or(v, |x: i64| x.max(v))),
            "max" => hi = Some(hi.map_or(v, |x: i64| x.min(v))),
            _ => {}
        }
    }
    (lo, hi)
}

/// Every element with an id, by id, over all files, and the files' roots.
struct Index<'a> {
    by_id: HashMap<&'a str, X<'a>>,
    /// (file name, root element), catalogues sorted by file name, then the game system.
    files: Vec<(String, X<'a>)>,
}

impl<'a> Index<'a> {
    fn new(docs: &'a [(String, Document<'a>)]) -> Self {
        let mut by_id = HashMap::new();
        let mut files = Vec::new();
        for (name, doc) in docs {
            let root = doc.root_element();
            for n in root.descendants().filter(|n| n.is_element()) {
                if matches!(
                    tag(n),
                    "selectionEntry"
                        | "selectionEntryGroup"
                        | "profile"
                        | "rule"
                        | "infoGroup"
                        | "categoryEntry"
                ) && let Some(id) = n.attribute("id")
                {
                    by_id.entry(id).or_insert(n);
                }
            }
            files.push((name.clone(), root));
        }
        Index { by_id, files }
    }

    /// What a link points at, or the node itself.
    fn target(&self, n: X<'a>) -> Option<X<'a>> {
        if matches!(tag(n), "entryLink" | "infoLink") {
            self.by_id.get(attr(n, "targetId")).copied()
        } else {
            Some(n)
        }
    }
}

/// The context modifiers and conditions are evaluated in: a matched-play army roster whose
/// primary catalogue is `catalogue`, holding one unit `unit` of `models` models.
#[derive(Clone, Copy)]
struct Ctx<'a, 'i> {
    idx: &'i Index<'a>,
    unit: X<'a>,
    catalogue: &'a str,
    models: i64,
    /// How the unit's models are shared among its model entries, as (link, entry, models),
    /// when known: counts of model entries and groups read it.
    split: &'i [(X<'a>, X<'a>, i64)],
}

impl<'a> Ctx<'a, '_> {
    fn with_models(self, models: i64) -> Self {
        Ctx { models, ..self }
    }

    /// True when `e` is hidden: its `hidden` attribute, then its `set hidden` modifiers that
    /// apply.
    fn hidden(&self, e: X<'a>) -> bool {
        let mut h = attr(e, "hidden") == "true";
        for m in modifiers(e) {
            if attr(m, "field") == "hidden" && attr(m, "type") == "set" && self.applies(m) {
                h = attr(m, "value") == "true";
            }
        }
        h
    }

    /// True when modifier (or modifier group) `m`'s conditions hold, and those of the groups
    /// it sits in.
    fn applies(&self, m: X<'a>) -> bool {
        let own = path(m, "conditions", "condition").all(|c| self.condition(c))
            && path(m, "conditionGroups", "conditionGroup").all(|g| self.group(g));
        let owner = m.parent().and_then(|p| p.parent());
        own && owner.is_none_or(|o| tag(o) != "modifierGroup" || self.applies(o))
    }

    fn group(&self, g: X<'a>) -> bool {
        let results: Vec<bool> = path(g, "conditions", "condition")
            .map(|c| self.condition(c))
            .chain(path(g, "conditionGroups", "conditionGroup").map(|x| self.group(x)))
            .collect();
        if results.is_empty() {
            true
        } else if attr(g, "type") == "or" {
            results.iter().any(|r| *r)
        } else {
            results.iter().all(|r| *r)
        }
    }

    fn condition(&self, c: X<'a>) -> bool {
        let v = num(c, "value");
        let kind = attr(c, "type");
        if matches!(kind, "instanceOf" | "notInstanceOf") {
            let child = attr(c, "childId");
            let is = match attr(c, "scope") {
                "primary-catalogue" => child == self.catalogue,
                "force" | "roster" => child == ARMY_ROSTER,
                _ => false,
            };
            return is == (kind == "instanceOf");
        }
        let x = self.count(c) as f64;
        match kind {
            "lessThan" => x < v,
            "greaterThan" => x > v,
            "atLeast" => x >= v,
            "atMost" => x <= v,
            "equalTo" => x == v,
            "notEqualTo" => x != v,
            _ => false,
        }
    }

    /// What a count condition counts: the unit's models, the unit itself, a model group of
    /// the unit (all its models), a model entry (its least number); other selections
    /// (upgrades, enhancements, detachments) are assumed not taken.
    fn count(&self, c: X<'a>) -> i64 {
        if attr(c, "field") != "selections" {
            return 0;
        }
        let child = attr(c, "childId");
        if child == "model" {
            return self.models;
        }
        if child == "unit" || child == attr(self.unit, "id") {
            return 1;
        }
        let Some(node) = self.idx.by_id.get(child).copied() else {
            return 0;
        };
        if !self.split.is_empty() {
            let inside: Vec<i64> = self
                .split
                .iter()
                .filter(|(link, entry, _)| *entry == node || link.ancestors().any(|a| a == node))
                .map(|x| x.2)
                .collect();
            if !inside.is_empty() {
                return inside.iter().sum();
            }
        }
        if !node.ancestors().any(|a| a == self.unit) {
            return 0;
        }
        match (tag(node), attr(node, "type")) {
            ("selectionEntryGroup", _) => self.models,
            ("selectionEntry", "model") => constraints(node).0.unwrap_or(0),
            _ => 0,
        }
    }

    /// How many times modifier `m` repeats (1 without `repeats`).
    fn repeats(&self, m: X<'a>) -> i64 {
        let Some(r) = path(m, "repeats", "repeat").next() else {
            return 1;
        };
        let x = if attr(r, "childId") == "model" {
            self.models as f64
        } else {
            0.0
        };
        let per = num(r, "value");
        let times = attr(r, "repeats").parse::<f64>().unwrap_or(1.0);
        if per <= 0.0 {
            0
        } else {
            ((x / per).floor() * times) as i64
        }
    }

    /// True for entries that are no part of a datasheet: hidden ones, Crusade, weapon
    /// modifications, the Warlord choice and enhancements.
    fn noise(&self, t: X<'a>) -> bool {
        let n = attr(t, "name");
        self.hidden(t)
            || matches!(n, "Crusade" | "Weapon Modifications" | "Warlord")
            || n.contains("Enhancement")
    }

    /// Profiles directly on entry `t`: its own, those its info links point at, and those of
    /// its info groups; hidden ones left out.
    fn profiles(&self, t: X<'a>) -> Vec<X<'a>> {
        let mut out: Vec<X<'a>> = path(t, "profiles", "profile").collect();
        for link in path(t, "infoLinks", "infoLink") {
            if self.hidden(link) {
                continue;
            }
            let Some(target) = self.idx.target(link) else {
                continue;
            };
            match attr(link, "type") {
                "profile" if tag(target) == "profile" => out.push(target),
                "infoGroup" => out.extend(path(target, "profiles", "profile")),
                _ => {}
            }
        }
        for g in path(t, "infoGroups", "infoGroup") {
            out.extend(path(g, "profiles", "profile"));
        }
        out.retain(|p| !self.hidden(*p));
        out
    }

    /// Rules of entry `t` by displayed name ("Deadly Demise D6", "Scouts 6\"") and id.
    fn rules(&self, t: X<'a>) -> Vec<(String, &'a str)> {
        let mut out = Vec::new();
        for link in path(t, "infoLinks", "infoLink") {
            if attr(link, "type") != "rule" || self.hidden(link) {
                continue;
            }
            let Some(rule) = self.idx.target(link) else {
                continue;
            };
            if self.hidden(rule) {
                continue;
            }
            let appended: Vec<&str> = path(link, "modifiers", "modifier")
                .filter(|m| {
                    attr(*m, "type") == "append"
                        && attr(*m, "field") == "name"
                        && !m.descendants().any(|d| tag(d) == "condition")
                })
                .map(|m| attr(m, "value"))
                .collect();
            let name = format!("{} {}", attr(rule, "name"), appended.join(" "));
            out.push((name.trim().to_string(), attr(rule, "id")));
        }
        for r in path(t, "rules", "rule") {
            out.push((attr(r, "name").to_string(), attr(r, "id")));
        }
        out
    }
}

/// The (min, max) of `link`'s constraints when it has any, else `target`'s.
fn link_constraints(link: X, target: X) -> (Option<i64>, Option<i64>) {
    if link != target && kids(link, "constraints").next().is_some() {
        constraints(link)
    } else {
        constraints(target)
    }
}

fn is_model(t: X) -> bool {
    tag(t) == "selectionEntry" && matches!(attr(t, "type"), "model" | "unit")
}

// ---------------------------------------------------------------------------------------
// Wargear
// ---------------------------------------------------------------------------------------

/// One profile found under a model: the profile, whether it is part of the default loadout,
/// and the entry holding it (a weapon's modes are the profiles of one entry).
struct Gear<'a> {
    profile: X<'a>,
    default: bool,
    entry: X<'a>,
}

/// A model entry of a unit: (link, entry, the Unit profiles of the group holding it).
type ModelLink<'a> = (X<'a>, X<'a>, Vec<X<'a>>);

/// What a walk over a model's wargear found.
#[derive(Default)]
struct Wargear<'a> {
    gear: Vec<Gear<'a>>,
    /// Upgrade entries by name (a storm shield, an icon, a drone, a bundle of weapons).
    other: Vec<String>,
}

impl<'a> Ctx<'a, '_> {
    /// Collects the profiles under `node` (a model or unit entry); `default` when the node
    /// itself is part of the default loadout.
    fn walk_wargear(&self, node: X<'a>, default: bool, out: &mut Wargear<'a>, depth: usize) {
        for c in entries(node) {
            let Some(t) = self.idx.target(c) else {
                continue;
            };
            if self.noise(t) || is_model(t) {
                continue;
            }
            if tag(t) == "selectionEntryGroup" {
                self.wargear_group(c, t, default, out, depth);
            } else {
                let least = link_constraints(c, t).0.unwrap_or(0);
                self.wargear_entry(t, default && least >= 1, out, depth);
            }
        }
    }

    /// A choice: its default option (`defaultSelectionEntryId`, a stale id matched by name,
    /// else the first option of a group that must be chosen) is in the default loadout, the
    /// others are alternatives; nested groups are containers.
    fn wargear_group(
        &self,
        link: X<'a>,
        group: X<'a>,
        default: bool,
        out: &mut Wargear<'a>,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let options: Vec<(X<'a>, X<'a>)> = entries(group)
            .filter_map(|k| self.idx.target(k).map(|t| (k, t)))
            .filter(|(_, t)| !self.noise(*t))
            .collect();
        let least = link_constraints(link, group).0.unwrap_or(0);
        let wanted = attr(group, "defaultSelectionEntryId");
        let mut chosen = None;
        if !wanted.is_empty() {
            chosen = options
                .iter()
                .position(|(k, _)| attr(*k, "id") == wanted || attr(*k, "targetId") == wanted);
            if chosen.is_none()
                && let Some(stale) = self.idx.by_id.get(wanted)
            {
                let name = attr(*stale, "name");
                chosen = options.iter().position(|(_, t)| attr(*t, "name") == name);
            }
        }
        if chosen.is_none() && least >= 1 && !options.is_empty() {
            chosen = Some(0);
        }
        for (i, (k, t)) in options.iter().enumerate() {
            if tag(*t) == "selectionEntryGroup" {
                self.wargear_group(*k, *t, default, out, depth + 1);
                continue;
            }
            if is_model(*t) {
                continue;
            }
            let least = link_constraints(*k, *t).0.unwrap_or(0);
            self.wargear_entry(*t, default && (chosen == Some(i) || least >= 1), out, depth);
        }
    }

    /// An upgrade entry: its own profiles, then what it holds. Its name is kept as other
    /// wargear (a roster names the selection: a storm shield, a drone, a bundle of weapons)
    /// unless it holds models; names that are weapons' are dropped later.
    fn wargear_entry(&self, t: X<'a>, default: bool, out: &mut Wargear<'a>, depth: usize) {
        for p in self.profiles(t) {
            out.gear.push(Gear {
                profile: p,
                default,
                entry: t,
            });
        }
        if depth < MAX_DEPTH {
            self.walk_wargear(t, default, out, depth + 1);
        }
        let mut models = Vec::new();
        self.collect_models(t, 0, &[], &mut models);
        if attr(t, "type") == "upgrade" && models.is_empty() {
            let name = clean_name(attr(t, "name"));
            if !name.is_empty() && !out.other.contains(&name) {
                out.other.push(name);
            }
        }
    }

    /// The model entries of a unit as (link, entry, the Unit profiles of the nearest group
    /// or entry holding it that has any); a single-model datasheet is its own.
    fn models_of(&self, ds: X<'a>) -> Vec<ModelLink<'a>> {
        if attr(ds, "type") == "model" {
            return vec![(ds, ds, Vec::new())];
        }
        let mut out = Vec::new();
        self.collect_models(ds, 0, &[], &mut out);
        out
    }

    fn collect_models(
        &self,
        n: X<'a>,
        depth: usize,
        inherited: &[X<'a>],
        out: &mut Vec<ModelLink<'a>>,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        for c in entries(n) {
            let Some(t) = self.idx.target(c) else {
                continue;
            };
            if self.noise(t) {
                continue;
            }
            if tag(t) == "selectionEntry" && attr(t, "type") == "model" {
                out.push((c, t, inherited.to_vec()));
            } else {
                let own: Vec<X<'a>> = self
                    .profiles(t)
                    .into_iter()
                    .filter(|p| attr(*p, "typeId") == UNIT_PROFILE)
                    .collect();
                let inherited = if own.is_empty() { inherited } else { &own };
                self.collect_models(t, depth + 1, inherited, out);
            }
        }
    }

    /// Fewest and most models `link` (to `t`) adds to a unit.
    fn model_range(&self, link: X<'a>, t: X<'a>, depth: usize) -> (i64, i64) {
        if self.noise(t) || depth > MAX_DEPTH {
            return (0, 0);
        }
        let (lo, hi) = link_constraints(link, t);
        if tag(t) == "selectionEntry" && attr(t, "type") == "model" {
            return (lo.unwrap_or(0), hi.unwrap_or(UNBOUNDED));
        }
        let children: Vec<(X<'a>, X<'a>)> = entries(t)
            .filter_map(|c| self.idx.target(c).map(|x| (c, x)))
            .collect();
        let ranges: Vec<(i64, i64)> = children
            .iter()
            .map(|(c, x)| self.model_range(*c, *x, depth + 1))
            .collect();
        let sum = |f: fn(&(i64, i64)) -> i64| ranges.iter().map(f).sum::<i64>();
        if tag(t) == "selectionEntry" {
            return (sum(|r| r.0), sum(|r| r.1));
        }
        let some: Vec<&(i64, i64)> = ranges.iter().filter(|r| **r != (0, 0)).collect();
        let models_inside = children
            .iter()
            .any(|(_, x)| tag(*x) == "selectionEntry" && attr(*x, "type") == "model");
        if !some.is_empty() && hi == Some(1) && !models_inside {
            // "Unit Composition": choose one of several bundles of models.
            let least = if lo.unwrap_or(0) >= 1 {
                some.iter().map(|r| r.0).min().unwrap_or(0)
            } else {
                0
            };
            return (least, some.iter().map(|r| r.1).max().unwrap_or(0));
        }
        let (mut a, mut b) = (sum(|r| r.0), sum(|r| r.1));
        if let Some(lo) = lo {
            a = a.max(lo);
        }
        if let Some(hi) = hi {
            b = b.min(hi);
        }
        (a, b)
    }

    /// The unit's fewest and most models.
    fn unit_size(&self, ds: X<'a>) -> (i64, i64) {
        if attr(ds, "type") == "model" {
            return (1, 1);
        }
        let ranges: Vec<(i64, i64)> = entries(ds)
            .filter_map(|c| self.idx.target(c).map(|t| self.model_range(c, t, 0)))
            .collect();
        let lo: i64 = ranges.iter().map(|r| r.0).sum();
        let hi: i64 = ranges.iter().map(|r| r.1).sum();
        if 0 < lo && lo <= hi && hi < UNBOUNDED {
            (lo, hi)
        } else if lo > 0 {
            (lo, lo)
        } else {
            (1, 1)
        }
    }
}

// ---------------------------------------------------------------------------------------
// Characteristics
// ---------------------------------------------------------------------------------------

/// A model's characteristics line.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Statline {
    movement: f32,
    toughness: u8,
    save: u8,
    wounds: u8,
    leadership: u8,
    objective_control: u8,
}

fn statline(p: X) -> Result<Statline, String> {
    let get = |name: &str| {
        characteristic(p, name)
            .ok_or_else(|| format!("profile '{}' has no {name}", attr(p, "name")))
    };
    let what = |name: &str, v: &str| format!("{name} '{v}' of profile '{}'", attr(p, "name"));
    let m = get("M")?;
    let movement = if matches!(m.as_str(), "-" | "" | "N/A") {
        0.0
    } else {
        leading_number(&m).ok_or_else(|| format!("unreadable {}", what("M", &m)))?
    };
    let int = |name: &str| -> Result<u8, String> {
        let v = get(name)?;
        if name == "OC" && v == "-" {
            return Ok(0);
        }
        v.trim_end_matches('+')
            .trim()
            .parse()
            .map_err(|_| format!("unreadable {}", what(name, &v)))
    };
    Ok(Statline {
        movement,
        toughness: int("T")?,
        save: int("SV")?,
        wounds: int("W")?,
        leadership: int("LD")?,
        objective_control: int("OC")?,
    })
}

/// The number a text starts with (`24"` is 24, `20+"` is 20).
fn leading_number(text: &str) -> Option<f32> {
    let digits: String = text
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    digits.parse().ok()
}

/// A roll characteristic: "3+" is 3; "N/A" and "-" are `None`.
fn roll(text: &str) -> Result<Option<u8>, String> {
    let t = text.trim();
    if matches!(t, "N/A" | "-" | "n/a" | "") {
        return Ok(None);
    }
    t.trim_end_matches('+')
        .trim()
        .parse()
        .map(Some)
        .map_err(|_| format!("'{t}' is not a roll like 3+"))
}

/// A weapon profile from a BSData Ranged or Melee Weapons profile, with the keyword tokens
/// that are no core ability.
fn weapon_profile(
    p: X,
    name: String,
    profile: Option<String>,
) -> Result<(WeaponProfile, Vec<String>), String> {
    let melee = attr(p, "typeId") == MELEE_PROFILE;
    let get = |c: &str| characteristic(p, c).ok_or_else(|| format!("no {c}"));
    let range = if melee {
        None
    } else {
        let r = get("Range")?;
        Some(leading_number(&r).ok_or_else(|| format!("range '{r}' is not in inches"))?)
    };
    let dice = |c: &str| -> Result<DiceExpr, String> {
        let v = get(c)?;
        v.parse::<DiceExpr>()
            .map_err(|_| format!("{c} '{v}' is not a number or dice"))
    };
    let attacks = dice("A")?;
    let skill = roll(&get(if melee { "WS" } else { "BS" })?)?;
    let s = get("S")?;
    let strength: u8 = s.parse().map_err(|_| format!("S '{s}' is not a number"))?;
    let ap_text = get("AP")?;
    let ap: i8 = if ap_text == "-" {
        0
    } else {
        ap_text
            .parse()
            .map_err(|_| format!("AP '{ap_text}' is not a number"))?
    };
    let damage = dice("D")?;
    let (abilities, unknown) =
        parse_weapon_keywords(&characteristic(p, "Keywords").unwrap_or_default());
    if skill.is_none() && !abilities.contains(&WeaponAbility::Torrent) {
        return Err("no BS/WS, and not TORRENT".to_string());
    }
    Ok((
        WeaponProfile {
            name,
            profile,
            range,
            attacks,
            skill,
            strength,
            ap,
            damage,
            abilities,
        },
        unknown,
    ))
}

// ---------------------------------------------------------------------------------------
// Text: invulnerable saves, transport capacity, Leader lists
// ---------------------------------------------------------------------------------------

/// A name without BSData's markup (`^^`, `**`), non-breaking spaces or doubled spaces.
fn clean_name(name: &str) -> String {
    name.replace('\u{a0}', " ")
        .chars()
        .filter(|c| !matches!(c, '^' | '*'))
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The invulnerable save an ability states for its own model or unit: (roll, ranged only).
/// The ability is named "Invulnerable Save..." or its text starts "This model", "Models in
/// this unit" or "This unit" and says "N+ invulnerable save" / "invulnerable save of N+".
fn invulnerable_save(name: &str, text: &str) -> Option<(u8, bool)> {
    let lower = text.to_lowercase();
    let stated = stated_invulnerable(&lower);
    let own = ["this model", "models in this unit", "this unit"]
        .iter()
        .any(|p| lower.trim_start().starts_with(p));
    let named = name.to_lowercase().starts_with("invulnerable save");
    if !(named || (stated.is_some() && own)) {
        return None;
    }
    let roll = stated.or_else(|| first_roll(&lower))?;
    (2..=6)
        .contains(&roll)
        .then_some((roll, lower.contains("ranged")))
}

/// The N of "N+ invulnerable save" or "invulnerable save of N+" in lower-case text.
fn stated_invulnerable(lower: &str) -> Option<u8> {
    let key = "invulnerable save";
    let mut from = 0;
    while let Some(i) = lower[from..].find(key) {
        let at = from + i;
        let before = lower[..at].trim_end();
        if let Some(b) = before.strip_suffix('+')
            && let Some(d) = b.chars().last().and_then(|c| c.to_digit(10))
        {
            return Some(d as u8);
        }
        let after = lower[at + key.len()..].trim_start();
        if let Some(rest) = after.strip_prefix("of ") {
            let b = rest.trim_start().as_bytes();
            if b.len() >= 2 && b[0].is_ascii_digit() && b[1] == b'+' {
                return Some(b[0] - b'0');
            }
        }
        from = at + key.len();
    }
    None
}

/// The first "N+" in a text.
fn first_roll(text: &str) -> Option<u8> {
    let b = text.as_bytes();
    (1..b.len())
        .find(|&i| b[i] == b'+' && b[i - 1].is_ascii_digit())
        .map(|i| b[i - 1] - b'0')
}

/// The capacity a TRANSPORT text gives ("... a transport capacity of 22 ORKS INFANTRY
/// models"), or a bare number.
fn transport_capacity(text: &str) -> Option<u32> {
    let lower = text.to_lowercase();
    if let Some(i) = lower.find("transport capacity of") {
        let rest = lower[i + "transport capacity of".len()..].trim_start();
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        return digits.parse().ok();
    }
    lower.trim().parse().ok()
}

/// The units a Leader ability lists: "This model can be attached to the following units:"
/// then an inline list (split at commas, semicolons and "and") or bullet lines (`■`, `-`,
/// `*`, `•`), markup and parentheses removed; prose after the list is not read.
fn leader_targets(text: &str) -> Vec<String> {
    let text = text.replace('\u{a0}', " ");
    let Some((_, rest)) = text.split_once(':') else {
        return Vec::new();
    };
    let mut lines = rest.split('\n');
    let inline = lines.next().unwrap_or("").trim().to_string();
    let mut out: Vec<String> = Vec::new();
    if !inline.is_empty() {
        for part in inline.split([',', ';']) {
            out.extend(part.split(" and ").map(str::to_string));
        }
    }
    for line in lines {
        let t = line.trim();
        let bullet = ['■', '-', '•', '*']
            .iter()
            .find_map(|b| t.strip_prefix(*b))
            .map(str::trim);
        match bullet {
            Some(item) if !is_prose(item) => {
                out.extend(item.split(';').map(str::to_string));
            }
            _ if !out.is_empty() && !t.is_empty() && inline.is_empty() => break,
            _ => {}
        }
    }
    out.iter()
        .map(|i| {
            let mut s = clean_name(i);
            while let Some(open) = s.find('(') {
                let close = s[open..].find(')').map_or(s.len(), |c| open + c + 1);
                s.replace_range(open..close, "");
            }
            s.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .trim_matches(|c: char| matches!(c, ' ' | '.' | '\'' | '"' | '\u{2019}'))
                .to_string()
        })
        .filter(|s| !s.is_empty() && !is_prose(s))
        .collect()
}

/// True for a line of rules prose rather than a unit's name ("You can attach this model...",
/// "This model cannot be attached...").
fn is_prose(item: &str) -> bool {
    let lower = clean_name(item).to_lowercase();
    let starts = ["you ", "this ", "if ", "only ", "each ", "while "];
    starts.iter().any(|s| lower.starts_with(s)) || lower.chars().count() > 70
}

// ---------------------------------------------------------------------------------------
// One datasheet
// ---------------------------------------------------------------------------------------

/// A model entry of a unit as converted.
struct ModelEntry<'a> {
    name: String,
    /// The name of its Unit profile.
    profile_name: String,
    range: (i64, i64),
    stats: Statline,
    entry: X<'a>,
    /// True when its group picks it by default.
    group_default: bool,
    invulnerable: Option<u8>,
}

/// A datasheet as converted, before its faction file is assembled.
struct Converted {
    sheet: Datasheet,
    factions: Vec<String>,
    leader_targets: Vec<String>,
    skipped_weapons: Vec<(String, String)>,
    conflicts: Vec<String>,
    unknown_keywords: Vec<String>,
}

impl<'a> Ctx<'a, '_> {
    /// Converts the root entry `link` (to `ds`).
    fn datasheet(&self, link: X<'a>, ds: X<'a>) -> Result<Converted, String> {
        let name = clean_name(attr(ds, "name"));
        let sources = if link == ds { vec![ds] } else { vec![ds, link] };
        let categories: Vec<&str> = sources
            .iter()
            .flat_map(|n| path(*n, "categoryLinks", "categoryLink"))
            .map(|c| attr(c, "name"))
            .collect();
        let mut factions: Vec<String> = Vec::new();
        let mut keywords: Vec<String> = Vec::new();
        for c in &categories {
            if let Some(f) = c.strip_prefix("Faction: ") {
                if !factions.iter().any(|x| x == f) {
                    factions.push(f.to_string());
                }
            } else if !NOT_KEYWORDS.contains(c) {
                let k = clean_name(c).to_uppercase();
                if !k.is_empty() && !keywords.contains(&k) {
                    keywords.push(k);
                }
            }
        }
        let size = self.unit_size(ds);
        let ctx = self.with_models(size.0);
        let mut unit_level = ctx.profiles(ds);
        if link != ds {
            unit_level.extend(ctx.profiles(link));
        }
        let unit_profiles: Vec<X<'a>> = unit_level
            .iter()
            .copied()
            .filter(|p| attr(*p, "typeId") == UNIT_PROFILE)
            .collect();

        // Models and their characteristics.
        let mut models: Vec<ModelEntry<'a>> = Vec::new();
        for (mlink, m, inherited) in ctx.models_of(ds) {
            let own = ctx.profiles(m);
            let own_unit: Vec<X<'a>> = own
                .iter()
                .copied()
                .filter(|p| attr(*p, "typeId") == UNIT_PROFILE)
                .collect();
            let model_name = clean_name(attr(m, "name"));
            let p = match own_unit.first() {
                Some(p) => *p,
                None => match best_profile(&model_name, &inherited)
                    .or_else(|| best_profile(&model_name, &unit_profiles))
                {
                    Some(p) => p,
                    None => continue,
                },
            };
            let range = if m == ds {
                (1, 1)
            } else {
                ctx.model_range(mlink, m, 0)
            };
            let invulnerable = own
                .iter()
                .filter(|p| attr(**p, "typeId") == ABILITY_PROFILE)
                .find_map(|p| {
                    invulnerable_save(
                        attr(*p, "name"),
                        &characteristic(*p, "Description").unwrap_or_default(),
                    )
                })
                .map(|(r, _)| r);
            models.push(ModelEntry {
                name: model_name,
                profile_name: clean_name(attr(p, "name")),
                range,
                stats: statline(p)?,
                entry: m,
                group_default: is_group_default(mlink, m),
                invulnerable,
            });
        }
        if models.is_empty() {
            for p in &unit_profiles {
                models.push(ModelEntry {
                    name: clean_name(attr(*p, "name")),
                    profile_name: clean_name(attr(*p, "name")),
                    range: (0, size.1),
                    stats: statline(*p)?,
                    entry: ds,
                    group_default: false,
                    invulnerable: None,
                });
            }
        }
        if models.is_empty() {
            return Err("no Unit profile".to_string());
        }
        let cap = |x: i64| x.clamp(0, size.1);
        // The datasheet's own line: the model named as the datasheet, else the commonest.
        let main_stats = models
            .iter()
            .find(|m| m.name.eq_ignore_ascii_case(&name))
            .map(|m| m.stats)
            .unwrap_or_else(|| {
                let mut best: Option<(Statline, (i64, i64))> = None;
                for m in &models {
                    let weight = models
                        .iter()
                        .filter(|x| x.stats == m.stats)
                        .fold((0, 0), |(a, b), x| (a + cap(x.range.1), b + cap(x.range.0)));
                    if best.is_none_or(|(_, w)| weight > w) {
                        best = Some((m.stats, weight));
                    }
                }
                best.expect("some model").0
            });
        let main = models
            .iter()
            .filter(|m| m.stats == main_stats)
            .max_by_key(|m| (m.range.0, m.group_default, cap(m.range.1)))
            .map(|m| m.entry);

        // Abilities and rules.
        let mut ability_profiles: Vec<X<'a>> = unit_level
            .iter()
            .copied()
            .filter(|p| attr(*p, "typeId") == ABILITY_PROFILE)
            .collect();
        let mut rules = ctx.rules(ds);
        if link != ds {
            rules.extend(ctx.rules(link));
        }
        for m in &models {
            if m.entry != ds {
                ability_profiles.extend(
                    ctx.profiles(m.entry)
                        .into_iter()
                        .filter(|p| attr(*p, "typeId") == ABILITY_PROFILE),
                );
                rules.extend(ctx.rules(m.entry));
            }
        }
        let mut abilities: Vec<Ability> = Vec::new();
        let mut core: Vec<CoreAbility> = Vec::new();
        let mut add = |n: &str| {
            let n = clean_name(n);
            if n.is_empty() {
                return;
            }
            if let Some(c) = CoreAbility::from_name(&n) {
                if !core.contains(&c) {
                    core.push(c);
                }
            } else if !abilities.iter().any(|a| a.name.eq_ignore_ascii_case(&n)) {
                abilities.push(Ability {
                    name: n,
                    text: String::new(),
                    effects: Vec::new(),
                });
            }
        };
        for (r, _) in &rules {
            add(r);
        }
        for p in &ability_profiles {
            add(attr(*p, "name"));
        }
        let texts: Vec<(&str, String)> = ability_profiles
            .iter()
            .map(|p| {
                (
                    attr(*p, "name"),
                    characteristic(*p, "Description").unwrap_or_default(),
                )
            })
            .collect();
        // Unit-level abilities first, then the main model's, then any model's.
        let unit_invulnerable = unit_level
            .iter()
            .filter(|p| attr(**p, "typeId") == ABILITY_PROFILE)
            .find_map(|p| {
                invulnerable_save(
                    attr(*p, "name"),
                    &characteristic(*p, "Description").unwrap_or_default(),
                )
            });
        let main_invulnerable = main.and_then(|e| {
            ctx.profiles(e)
                .into_iter()
                .filter(|p| attr(*p, "typeId") == ABILITY_PROFILE)
                .find_map(|p| {
                    invulnerable_save(
                        attr(p, "name"),
                        &characteristic(p, "Description").unwrap_or_default(),
                    )
                })
        });
        let invulnerable = unit_invulnerable
            .or(main_invulnerable)
            .or_else(|| texts.iter().find_map(|(n, t)| invulnerable_save(n, t)));
        if let Some((r, true)) = invulnerable {
            add(&format!("Invulnerable Save {r}+ (ranged only)"));
        }
        let transport = unit_level
            .iter()
            .filter(|p| attr(**p, "typeId") == TRANSPORT_PROFILE)
            .filter_map(|p| characteristic(*p, "Capacity"))
            .chain(
                texts
                    .iter()
                    .filter(|(n, _)| n.eq_ignore_ascii_case("Transport"))
                    .map(|(_, t)| t.clone()),
            )
            .find_map(|t| transport_capacity(&t))
            .filter(|c| *c <= MAX_MODELS_PER_UNIT);
        let leaders: Vec<String> = texts
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case("Leader"))
            .flat_map(|(_, t)| leader_targets(t))
            .collect();

        // Weapons.
        let mut unit_gear = Wargear::default();
        ctx.walk_wargear(ds, true, &mut unit_gear, 0);
        let mut all_gear: Vec<(Option<X<'a>>, Wargear<'a>)> = Vec::new();
        let mut seen_entries: Vec<X<'a>> = Vec::new();
        for m in &models {
            if m.entry == ds || seen_entries.contains(&m.entry) {
                continue;
            }
            seen_entries.push(m.entry);
            let mut g = Wargear::default();
            ctx.walk_wargear(m.entry, true, &mut g, 0);
            all_gear.push((Some(m.entry), g));
        }
        all_gear.push((None, unit_gear));
        let mut ranged: Vec<WeaponProfile> = Vec::new();
        let mut melee: Vec<WeaponProfile> = Vec::new();
        let mut default_wargear: Vec<String> = Vec::new();
        let mut other_wargear: Vec<String> = Vec::new();
        let mut skipped_weapons = Vec::new();
        let mut conflicts = Vec::new();
        let mut unknown_keywords = Vec::new();
        for (owner, wargear) in &all_gear {
            let is_main = owner.is_none() || *owner == main;
            for g in &wargear.gear {
                let kind = attr(g.profile, "typeId");
                if !matches!(kind, RANGED_PROFILE | MELEE_PROFILE) {
                    continue;
                }
                let modes = wargear
                    .gear
                    .iter()
                    .filter(|x| x.entry == g.entry && attr(x.profile, "typeId") == kind)
                    .count();
                let raw = clean_name(attr(g.profile, "name"));
                let arrow = raw.starts_with('➤');
                let raw = raw.trim_start_matches('➤').trim().to_string();
                let (wname, mode) = match raw.rsplit_once(" - ") {
                    Some((w, p)) if modes > 1 || arrow => {
                        (w.trim().to_string(), Some(p.trim().to_string()))
                    }
                    _ => (raw.clone(), None),
                };
                let full = match &mode {
                    Some(p) => format!("{wname} - {p}"),
                    None => wname.clone(),
                };
                match weapon_profile(g.profile, wname.clone(), mode) {
                    Err(why) => {
                        if !skipped_weapons.iter().any(|(w, _)| *w == full) {
                            skipped_weapons.push((full, why));
                        }
                    }
                    Ok((w, unknown)) => {
                        for u in unknown {
                            unknown_keywords.push(u.clone());
                            add(&format!("Weapon ability: {u} ({wname})"));
                        }
                        let list = if kind == MELEE_PROFILE {
                            &mut melee
                        } else {
                            &mut ranged
                        };
                        match list
                            .iter()
                            .find(|x| x.full_name().eq_ignore_ascii_case(&full))
                        {
                            Some(x) => {
                                if *x != w && !conflicts.contains(&full) {
                                    conflicts.push(full.clone());
                                }
                            }
                            None => list.push(w),
                        }
                        if g.default
                            && is_main
                            && !default_wargear
                                .iter()
                                .any(|d| d.eq_ignore_ascii_case(&wname))
                        {
                            default_wargear.push(wname.clone());
                        }
                    }
                }
            }
            for o in &wargear.other {
                if !other_wargear.contains(o) {
                    other_wargear.push(o.clone());
                }
            }
        }
        name_shared_profiles(&mut ranged, &mut melee);

        // Model profiles.
        let mut model_profiles: Vec<ModelProfile> = Vec::new();
        let overrides = |m: &ModelEntry, name: String, count: Option<(u32, u32)>| {
            let s = m.stats;
            let differ = |a: u8, b: u8| (a != b).then_some(a);
            ModelProfile {
                name,
                movement: (s.movement != main_stats.movement).then_some(s.movement),
                toughness: differ(s.toughness, main_stats.toughness),
                save: differ(s.save, main_stats.save),
                invulnerable_save: m
                    .invulnerable
                    .filter(|i| Some(*i) != invulnerable.map(|(r, _)| r)),
                wounds: differ(s.wounds, main_stats.wounds),
                leadership: differ(s.leadership, main_stats.leadership),
                objective_control: differ(s.objective_control, main_stats.objective_control),
                base: None,
                height: None,
                count,
            }
        };
        for m in &models {
            if m.name.eq_ignore_ascii_case(&name) || m.entry == ds && models.len() == 1 {
                continue;
            }
            let same: Vec<&ModelEntry> = models
                .iter()
                .filter(|x| x.name.eq_ignore_ascii_case(&m.name))
                .collect();
            if !std::ptr::eq(same[0], m) {
                continue;
            }
            let lo = same.iter().map(|x| x.range.0).min().unwrap_or(0);
            let hi = same.iter().map(|x| cap(x.range.1)).max().unwrap_or(0);
            let lo = if m.stats != main_stats || lo == hi {
                lo.min(hi)
            } else {
                0
            };
            model_profiles.push(overrides(m, m.name.clone(), Some((lo as u32, hi as u32))));
        }
        // Other names rosters give models: the Unit profiles' ("Acolyte Hybrid") and the
        // datasheet's name in the singular ("Hearthkyn Warrior").
        for m in &models {
            let pn = &m.profile_name;
            let unique = models
                .iter()
                .filter(|x| x.profile_name.eq_ignore_ascii_case(pn))
                .all(|x| x.stats == m.stats);
            if !unique
                || pn.is_empty()
                || pn.contains(',')
                || pn.eq_ignore_ascii_case(&name)
                || model_profiles
                    .iter()
                    .any(|x| x.name.eq_ignore_ascii_case(pn))
            {
                continue;
            }
            model_profiles.push(overrides(m, pn.clone(), None));
        }
        if let Some(singular) = name.strip_suffix('s')
            && !singular.ends_with('s')
            && !model_profiles
                .iter()
                .any(|x| x.name.eq_ignore_ascii_case(singular))
            && let Some(m) = models.iter().find(|m| m.stats == main_stats)
        {
            let mut alias = overrides(m, singular.to_string(), None);
            alias.invulnerable_save = None;
            model_profiles.push(alias);
        }
        // A unit of the fewest models must be able to hold every profile's least number.
        let least: u32 = model_profiles
            .iter()
            .filter_map(|p| p.count.map(|c| c.0))
            .sum();
        if least > size.0 as u32 {
            for p in &mut model_profiles {
                let plain = p.movement.is_none()
                    && p.toughness.is_none()
                    && p.save.is_none()
                    && p.wounds.is_none()
                    && p.leadership.is_none()
                    && p.objective_control.is_none()
                    && p.invulnerable_save.is_none();
                if plain && let Some(c) = &mut p.count {
                    c.0 = 0;
                }
            }
        }

        let points = self.points(link, ds, size, main)?;
        other_wargear.retain(|o| {
            !ranged
                .iter()
                .chain(&melee)
                .any(|w| w.name.eq_ignore_ascii_case(o))
        });
        let mut sheet = Datasheet {
            name: name.clone(),
            movement: main_stats.movement,
            toughness: main_stats.toughness,
            save: main_stats.save,
            invulnerable_save: invulnerable.map(|(r, _)| r),
            wounds: main_stats.wounds,
            leadership: main_stats.leadership,
            objective_control: main_stats.objective_control,
            feel_no_pain: None,
            keywords,
            faction_keywords: factions.iter().map(|f| f.to_uppercase()).collect(),
            base: None,
            height: None,
            unit_size: (size.0 as u32, size.1 as u32),
            points,
            ranged_weapons: ranged,
            melee_weapons: melee,
            default_wargear,
            other_wargear,
            leader_of: Vec::new(),
            joins_leaders: Vec::new(),
            abilities,
            core_abilities: core,
            timed_abilities: Vec::new(),
            destroyed_abilities: Vec::new(),
            objective_control_effects: Vec::new(),
            transport_capacity: transport,
            model_profiles,
            base_source: None,
        };
        sheet.gather_profiles();
        sheet.gather_core_abilities();
        let names: Vec<String> = sheet.weapons().map(|w| w.name.clone()).collect();
        sheet
            .default_wargear
            .retain(|d| names.iter().any(|n| n.eq_ignore_ascii_case(d)));
        Ok(Converted {
            sheet,
            factions,
            leader_targets: leaders,
            skipped_weapons,
            conflicts,
            unknown_keywords,
        })
    }

    /// Points for each unit size, as (largest size at a price, price) brackets: the base
    /// cost, the `pts` modifiers that apply at each size in document order, and per-model
    /// costs of units priced by the model.
    fn points(
        &self,
        link: X<'a>,
        ds: X<'a>,
        size: (i64, i64),
        main: Option<X<'a>>,
    ) -> Result<Vec<(u32, u32)>, String> {
        let cost_of = |n: X<'a>| -> Option<f64> {
            path(n, "costs", "cost")
                .find(|c| attr(*c, "typeId") == POINTS_COST)
                .map(|c| num(c, "value"))
        };
        let base = cost_of(link)
            .filter(|v| link != ds && *v > 0.0)
            .or_else(|| cost_of(ds))
            .unwrap_or(0.0);
        let mut mods: Vec<X<'a>> = modifiers(ds);
        if link != ds {
            mods.extend(modifiers(link));
        }
        mods.retain(|m| attr(*m, "field") == POINTS_COST);
        let entries: Vec<(X<'a>, X<'a>, (i64, i64))> = self
            .models_of(ds)
            .into_iter()
            .filter(|(_, m, _)| *m != ds)
            .map(|(l, m, _)| (l, m, self.model_range(l, m, 0)))
            .collect();
        // Units priced by the model: each model entry's own cost (its link's, if it has one).
        let per_model: Vec<f64> = entries
            .iter()
            .map(|(l, m, _)| {
                cost_of(*l)
                    .filter(|_| l != m)
                    .or_else(|| cost_of(*m))
                    .unwrap_or(0.0)
            })
            .collect();
        let mut order: Vec<usize> = (0..entries.len()).collect();
        order.sort_by_key(|&i| {
            let (l, m, _) = entries[i];
            (Some(m) != main, !is_group_default(l, m), i)
        });
        let mut brackets: Vec<(u32, u32)> = Vec::new();
        for n in size.0..=size.1 {
            // The fewest of each model entry, then the rest to the commonest model first.
            let mut counts: Vec<i64> = vec![0; entries.len()];
            let mut left = n;
            for (i, (_, _, r)) in entries.iter().enumerate() {
                counts[i] = r.0.min(left).max(0);
                left -= counts[i];
            }
            for &i in &order {
                let more = (entries[i].2.1 - counts[i]).clamp(0, left);
                counts[i] += more;
                left -= more;
            }
            let split: Vec<(X<'a>, X<'a>, i64)> = entries
                .iter()
                .zip(&counts)
                .map(|((l, m, _), c)| (*l, *m, *c))
                .collect();
            let ctx = Ctx {
                models: n,
                split: &split,
                ..*self
            };
            let mut v = base;
            for m in &mods {
                if !ctx.applies(*m) {
                    continue;
                }
                let x = num(*m, "value");
                match attr(*m, "type") {
                    "set" => v = x,
                    "increment" => v += x * ctx.repeats(*m) as f64,
                    "decrement" => v -= x * ctx.repeats(*m) as f64,
                    _ => {}
                }
            }
            v += per_model
                .iter()
                .zip(&counts)
                .map(|(c, k)| c * *k as f64)
                .sum::<f64>();
            if !(0.0..=1e6).contains(&v) {
                return Err(format!("{v} points for {n} models"));
            }
            let price = v.round() as u32;
            match brackets.last_mut() {
                Some(last) if last.1 == price => last.0 = n as u32,
                _ => brackets.push((n as u32, price)),
            }
        }
        if brackets.iter().all(|b| b.1 == 0) {
            brackets.clear();
        }
        Ok(brackets)
    }
}

/// True when the group holding `link` picks it (or its entry) by default.
fn is_group_default(link: X, entry: X) -> bool {
    let group = link.parent().and_then(|p| p.parent());
    group.is_some_and(|g| {
        let d = attr(g, "defaultSelectionEntryId");
        !d.is_empty() && (d == attr(link, "id") || d == attr(entry, "id"))
    })
}

/// The unit-level Unit profile a model entry without its own uses: the only one, else the
/// one sharing most words with the model's name.
fn best_profile<'a>(model: &str, profiles: &[X<'a>]) -> Option<X<'a>> {
    if profiles.len() <= 1 {
        return profiles.first().copied();
    }
    let words = |s: &str| -> Vec<String> {
        s.to_lowercase()
            .split(|c: char| !c.is_alphanumeric() && c != '-')
            .filter(|w| !w.is_empty())
            .map(|w| w.trim_end_matches('s').to_string())
            .collect()
    };
    let mine = words(model);
    profiles
        .iter()
        .enumerate()
        .max_by_key(|(i, p)| {
            let theirs = words(attr(**p, "name"));
            let shared = mine.iter().filter(|w| theirs.contains(w)).count();
            (shared, std::cmp::Reverse(*i))
        })
        .map(|(_, p)| *p)
}

/// Gives a profile name to each weapon that shares its name with another without one (a
/// lance with a ranged and a melee profile): "ranged" or "melee".
fn name_shared_profiles(ranged: &mut [WeaponProfile], melee: &mut [WeaponProfile]) {
    let count = |name: &str, r: &[WeaponProfile], m: &[WeaponProfile]| {
        r.iter()
            .chain(m.iter())
            .filter(|w| w.name.eq_ignore_ascii_case(name))
            .count()
    };
    let shared: Vec<String> = ranged
        .iter()
        .chain(melee.iter())
        .filter(|w| w.profile.is_none())
        .map(|w| w.name.clone())
        .filter(|n| count(n, ranged, melee) > 1)
        .collect();
    for (list, kind) in [(&mut *ranged, "ranged"), (&mut *melee, "melee")] {
        for w in list.iter_mut() {
            if w.profile.is_none() && shared.iter().any(|s| s.eq_ignore_ascii_case(&w.name)) {
                w.profile = Some(kind.to_string());
            }
        }
    }
    // A weapon whose ranged and melee modes have the same names ("low intensity").
    for w in melee.iter_mut() {
        let full = w.full_name();
        if ranged
            .iter()
            .any(|r| r.full_name().eq_ignore_ascii_case(&full))
            && let Some(p) = &mut w.profile
        {
            p.push_str(" (melee)");
        }
    }
}

// ---------------------------------------------------------------------------------------
// The whole checkout
// ---------------------------------------------------------------------------------------

/// The largest catalogue or game system file read: 64 MiB (the biggest BSData catalogue is
/// under 4 MiB).
pub const MAX_CATALOGUE_BYTES: u64 = 64 * 1024 * 1024;

/// The most catalogue files a checkout may hold: 1,000 (BSData wh40k-10e has about 60).
pub const MAX_CATALOGUES: usize = 1000;

/// The file stem of a faction's datasheets: ASCII lower-case letters and digits, every other
/// run of characters one dash, apostrophes dropped ("T'au Empire" is "tau-empire"). Never a
/// path: a faction named `../../scenes/armies/orks` is `scenes-armies-orks`.
pub fn faction_file_stem(faction: &str) -> String {
    let plain: String = faction
        .chars()
        .filter(|c| !matches!(c, '\'' | '\u{2019}'))
        .collect();
    super::source::slug(&plain, "faction")
}

/// The catalogue and game system files of a checkout, sorted by name.
///
/// # Errors
/// The folder cannot be read, or holds no `Warhammer 40,000.gst`.
fn data_files(checkout: &Path) -> Result<Vec<PathBuf>, String> {
    let read = std::fs::read_dir(checkout)
        .map_err(|e| format!("{}: cannot read the folder: {e}", checkout.display()))?;
    let mut cats: Vec<PathBuf> = read
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "cat"))
        .take(MAX_CATALOGUES + 1)
        .collect();
    if cats.len() > MAX_CATALOGUES {
        return Err(format!(
            "{}: holds more than {MAX_CATALOGUES} .cat files; the limit is {MAX_CATALOGUES}",
            checkout.display()
        ));
    }
    cats.sort();
    let gst = checkout.join(GAME_SYSTEM_FILE);
    if !gst.is_file() {
        return Err(format!(
            "{}: not a BSData wh40k-10e checkout: it has no '{GAME_SYSTEM_FILE}'",
            checkout.display()
        ));
    }
    cats.push(gst);
    Ok(cats)
}

/// Converts every datasheet of a BSData `wh40k-10e` checkout (the folder holding
/// `Warhammer 40,000.gst` and the `.cat` files): one file per `Faction:` keyword (a unit of
/// a Space Marine chapter goes to the chapter's file only, a unit with no faction to its
/// catalogue's commonest faction), datasheets deduplicated by name within a file and sorted
/// by name, `[Legends]` and `[Crucible]` datasheets left out. Bases come from `bases`. Each
/// datasheet is checked as `validate` checks it; one that fails is left out and listed in
/// the report with the reason, and the run goes on.
///
/// # Errors
/// The folder is missing or unreadable, has no game system file, or a file is not XML.
pub fn convert(checkout: &Path, bases: &BaseSizes) -> Result<Conversion, String> {
    let paths = data_files(checkout)?;
    let texts: Vec<(String, String)> = paths
        .iter()
        .map(|p| {
            let bytes =
                super::source::read_bytes(p, MAX_CATALOGUE_BYTES).map_err(|e| e.to_string())?;
            let t = String::from_utf8(bytes)
                .map_err(|e| format!("{}: not UTF-8 text: {e}", p.display()))?;
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            Ok::<_, String>((name, t))
        })
        .collect::<Result<_, _>>()?;
    let docs: Vec<(String, Document)> = texts
        .iter()
        .map(|(name, t)| {
            super::xml::parse(t)
                .map(|d| (name.clone(), d))
                .map_err(|e| format!("{}: {e}", checkout.join(name).display()))
        })
        .collect::<Result<_, _>>()?;
    let idx = Index::new(&docs);
    Ok(convert_index(&idx, bases))
}

/// A root entry of a catalogue: (catalogue root id, link, datasheet entry).
type Root<'a> = (&'a str, X<'a>, X<'a>);

fn convert_index(idx: &Index, bases: &BaseSizes) -> Conversion {
    let mut report = ConversionReport::default();
    let mut roots: Vec<Root> = Vec::new();
    for (_, root) in &idx.files {
        if tag(*root) != "catalogue" {
            continue;
        }
        let cat = attr(*root, "id");
        for sec in ["entryLinks", "selectionEntries"] {
            for link in kids(*root, sec).flat_map(|s| s.children().filter(|c| c.is_element())) {
                let Some(ds) = idx.target(link) else { continue };
                if tag(ds) != "selectionEntry"
                    || !matches!(attr(ds, "type"), "unit" | "model")
                    || attr(ds, "hidden") == "true"
                    || attr(link, "hidden") == "true"
                    || path(ds, "categoryLinks", "categoryLink")
                        .any(|c| attr(c, "targetId") == REFERENCE_CATEGORY)
                {
                    continue;
                }
                roots.push((cat, link, ds));
            }
        }
    }
    // The commonest faction of each catalogue's root entries, for those with none.
    let mut by_catalogue: HashMap<&str, HashMap<String, usize>> = HashMap::new();
    for (cat, link, ds) in &roots {
        for f in entry_factions(*link, *ds) {
            *by_catalogue.entry(cat).or_default().entry(f).or_default() += 1;
        }
    }
    let (mut legends, mut crucible) = (HashSet::new(), HashSet::new());
    let mut sheets: Vec<(String, Converted)> = Vec::new();
    let mut done: HashSet<(String, String)> = HashSet::new();
    let mut unknown: HashMap<String, usize> = HashMap::new();
    for (cat, link, ds) in &roots {
        let name = clean_name(attr(*ds, "name"));
        if name.contains("[Legends]") {
            legends.insert(name);
            continue;
        }
        if name.contains("[Crucible]") {
            crucible.insert(name);
            continue;
        }
        let mut factions = entry_factions(*link, *ds);
        if factions.is_empty()
            && let Some(counts) = by_catalogue.get(cat)
            && let Some((f, _)) = counts
                .iter()
                .max_by_key(|(f, n)| (**n, std::cmp::Reverse(*f)))
        {
            factions.push(f.clone());
        }
        if factions.len() > 1 {
            factions.retain(|f| f != ADEPTUS_ASTARTES);
        }
        factions.retain(|f| !done.contains(&(f.clone(), name.to_lowercase())));
        if factions.is_empty() {
            continue;
        }
        let ctx = Ctx {
            idx,
            unit: *ds,
            catalogue: cat,
            models: 1,
            split: &[],
        };
        match ctx.datasheet(*link, *ds) {
            Err(why) => {
                for f in &factions {
                    done.insert((f.clone(), name.to_lowercase()));
                }
                report.skipped.push((name, why));
            }
            Ok(mut c) => {
                for u in &c.unknown_keywords {
                    *unknown.entry(u.clone()).or_default() += 1;
                }
                for (w, why) in &c.skipped_weapons {
                    report
                        .skipped_weapons
                        .push((name.clone(), w.clone(), why.clone()));
                }
                for w in &c.conflicts {
                    report.weapon_conflicts.push((name.clone(), w.clone()));
                }
                if c.factions.is_empty() {
                    c.sheet.faction_keywords = factions.iter().map(|f| f.to_uppercase()).collect();
                }
                for f in &factions {
                    done.insert((f.clone(), name.to_lowercase()));
                    let mut copy = Converted {
                        sheet: c.sheet.clone(),
                        factions: c.factions.clone(),
                        leader_targets: c.leader_targets.clone(),
                        skipped_weapons: Vec::new(),
                        conflicts: Vec::new(),
                        unknown_keywords: Vec::new(),
                    };
                    copy.sheet.base = bases.find(f, &name);
                    sheets.push((f.clone(), copy));
                }
            }
        }
    }
    report.legends = legends.len();
    report.crucible = crucible.len();
    let mut unknown: Vec<(String, usize)> = unknown.into_iter().collect();
    unknown.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    report.unknown_weapon_keywords = unknown;

    // Leader targets: names of datasheets of the same file first, then of any file.
    let mut names_by_faction: HashMap<&str, Vec<String>> = HashMap::new();
    let mut all_names: Vec<String> = Vec::new();
    for (f, c) in &sheets {
        names_by_faction
            .entry(f.as_str())
            .or_default()
            .push(c.sheet.name.clone());
        if !all_names.contains(&c.sheet.name) {
            all_names.push(c.sheet.name.clone());
        }
    }
    let mut resolved: Vec<(String, Datasheet)> = Vec::new();
    for (f, c) in &sheets {
        let mut sheet = c.sheet.clone();
        for t in &c.leader_targets {
            let own = names_by_faction.get(f.as_str()).map_or(&[][..], |v| &v[..]);
            let found = find_datasheet(t, own).or_else(|| find_datasheet(t, &all_names));
            let target = match found {
                Some(n) => n,
                None => {
                    report
                        .unmatched_leader_targets
                        .push((sheet.name.clone(), t.clone()));
                    t.clone()
                }
            };
            if !sheet
                .leader_of
                .iter()
                .any(|x| x.eq_ignore_ascii_case(&target))
            {
                sheet.leader_of.push(target);
            }
        }
        if !sheet.has_keyword("CHARACTER") {
            sheet.leader_of.clear();
        }
        resolved.push((f.clone(), sheet));
    }
    report.unmatched_leader_targets.sort();
    report.unmatched_leader_targets.dedup();

    // Group by faction, check each datasheet as `validate` does.
    let mut by_faction: HashMap<String, Vec<Datasheet>> = HashMap::new();
    for (f, sheet) in resolved {
        let single = DatasheetsFile {
            faction: f.clone(),
            datasheets: vec![sheet.clone()],
        };
        let errors = super::check::datasheets(Path::new(&faction_file_stem(&f)), &single);
        if let Some(e) = errors.first() {
            report.skipped.push((sheet.name.clone(), e.to_string()));
            continue;
        }
        by_faction.entry(f).or_default().push(sheet);
    }
    let mut files: Vec<(String, DatasheetsFile)> = by_faction
        .into_iter()
        .map(|(faction, mut datasheets)| {
            datasheets.sort_by_key(|d| d.name.to_lowercase());
            (
                faction_file_stem(&faction),
                DatasheetsFile {
                    faction,
                    datasheets,
                },
            )
        })
        .collect();
    files.sort_by(|a, b| a.0.cmp(&b.0));
    for (_, file) in &files {
        for d in &file.datasheets {
            report.datasheets += 1;
            report.weapons += d.ranged_weapons.len() + d.melee_weapons.len();
            if d.base.is_none() {
                report
                    .without_base
                    .push((file.faction.clone(), d.name.clone()));
            }
        }
    }
    report.factions = files.len();
    report.skipped.sort();
    report.skipped.dedup();
    Conversion { files, report }
}

/// The datasheet of `names` a Leader's list means by `target`: the same name (any case),
/// else the same words but for plurals ("Sternguard Veterans Squad"), else the only name
/// that starts with it ("Sword Brethren" for "Sword Brethren Squad").
fn find_datasheet(target: &str, names: &[String]) -> Option<String> {
    let target = target.replace("[Legends]", "");
    let target = target.trim();
    if let Some(n) = names.iter().find(|n| n.eq_ignore_ascii_case(target)) {
        return Some(n.clone());
    }
    let singular = |s: &str| -> String {
        normalise_name(s)
            .split(' ')
            .map(|w| w.trim_end_matches('s'))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let key = singular(target);
    if let Some(n) = names.iter().find(|n| singular(n) == key) {
        return Some(n.clone());
    }
    let prefix = format!("{} ", normalise_name(target));
    let starting: Vec<&String> = names
        .iter()
        .filter(|n| normalise_name(n).starts_with(&prefix))
        .collect();
    match starting.as_slice() {
        [one] => Some((*one).clone()),
        _ => None,
    }
}

/// The `Faction:` keywords of a root entry (its entry and its link).
fn entry_factions(link: X, ds: X) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let sources = if link == ds { vec![ds] } else { vec![ds, link] };
    for n in sources {
        for c in path(n, "categoryLinks", "categoryLink") {
            if let Some(f) = attr(c, "name").strip_prefix("Faction: ")
                && !out.iter().any(|x| x == f)
            {
                out.push(f.to_string());
            }
        }
    }
    out
}

/// The RON text of a datasheet file (no header), as `validate` reads it: optional values
/// written bare, empty lists and unset values left out.
///
/// # Errors
/// The data cannot be written as RON (it always can).
pub fn to_ron(file: &DatasheetsFile) -> Result<String, String> {
    let config = ron::ser::PrettyConfig::new()
        .depth_limit(4)
        .struct_names(true)
        .separate_tuple_members(false);
    let text = super::source::ron_options()
        .to_string_pretty(file, config)
        .map_err(|e| e.to_string())?;
    // Fields at their default (empty lists, unset values) say nothing: drop those lines of
    // each datasheet (indented 12: the datasheet's own fields) and those fields of the
    // one-line model profiles, weapon profiles and abilities.
    // The serializer escapes every apostrophe (`\\'`); RON strings need no escape for it.
    let text = text.replace("\\'", "'");
    let mut lines: Vec<String> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let default_field = indent == 12
            && trimmed
                .split_once(": ")
                .is_some_and(|(_, v)| matches!(v, "None," | "[]," | "\"\","));
        if default_field {
            continue;
        }
        let mut line = line.to_string();
        if ["ModelProfile(", "WeaponProfile(", "Ability("]
            .iter()
            .any(|p| trimmed.starts_with(p))
        {
            for field in [
                "movement",
                "toughness",
                "save",
                "invulnerable_save",
                "wounds",
                "leadership",
                "objective_control",
                "base",
                "height",
                "count",
                "range",
            ] {
                line = line.replace(&format!(", {field}: None"), "");
            }
            line = line
                .replace(", abilities: []", "")
                .replace(", text: \"\"", "");
            for field in ["attacks", "damage"] {
                line = bare_number(&line, field);
            }
        }
        lines.push(whole_numbers(&line));
    }
    // Short lists of names or pairs (keywords, points) on one line.
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < lines.len() {
        let line = &lines[i];
        if line.starts_with("            ") && line.ends_with(": [") {
            let items: Vec<&str> = lines[i + 1..]
                .iter()
                .take_while(|l| l.starts_with("                "))
                .map(|l| l.trim())
                .collect();
            let close = lines.get(i + 1 + items.len()).map(String::as_str);
            let simple = items
                .iter()
                .all(|t| (t.starts_with('"') || t.starts_with('(')) && t.ends_with(','));
            if simple && close == Some("            ],") {
                let joined = items
                    .iter()
                    .map(|t| t.trim_end_matches(','))
                    .collect::<Vec<_>>()
                    .join(", ");
                let one = format!("{line}{joined}],");
                if one.len() <= 100 {
                    out.push_str(&one);
                    out.push('\n');
                    i += items.len() + 2;
                    continue;
                }
            }
        }
        out.push_str(line);
        out.push('\n');
        i += 1;
    }
    Ok(out)
}

/// `field: "3"` written `field: 3` (a dice value that is a plain number).
fn bare_number(line: &str, field: &str) -> String {
    let key = format!("{field}: \"");
    let Some(start) = line.find(&key) else {
        return line.to_string();
    };
    let from = start + key.len();
    let Some(len) = line[from..].find('"') else {
        return line.to_string();
    };
    let value = &line[from..from + len];
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return line.to_string();
    }
    format!(
        "{}{field}: {value}{}",
        &line[..start],
        &line[from + len + 1..]
    )
}

/// Numbers such as `6.0` written `6`, outside strings.
fn whole_numbers(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len());
    let mut in_string = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if in_string {
            out.push(c);
            if c == '\\' && i + 1 < chars.len() {
                out.push(chars[i + 1]);
                i += 2;
                continue;
            }
            in_string = c != '"';
            i += 1;
            continue;
        }
        if c == '"' {
            in_string = true;
        }
        let starts_number = c.is_ascii_digit()
            && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_'));
        if starts_number {
            let mut j = i;
            while j < chars.len() && chars[j].is_ascii_digit() {
                j += 1;
            }
            let whole = j + 1 < chars.len()
                && chars[j] == '.'
                && chars[j + 1] == '0'
                && chars
                    .get(j + 2)
                    .is_none_or(|n| matches!(n, ',' | ')' | ' ' | ']'));
            out.extend(&chars[i..j]);
            i = if whole { j + 2 } else { j };
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weapon_keywords_become_core_abilities() {
        use WeaponAbility as A;
        let (a, u) = parse_weapon_keywords("Anti-FLY 4+, Sustained Hits 2");
        assert_eq!(
            a,
            vec![
                A::Anti("FLY".into(), 4),
                A::SustainedHits(DiceExpr::fixed(2))
            ]
        );
        assert!(u.is_empty());
        let (a, u) = parse_weapon_keywords("Rapid Fire D3, Twin Linked, Twin-linked, Conversion");
        assert_eq!(a, vec![A::TwinLinked]);
        assert_eq!(
            u,
            vec!["Rapid Fire D3".to_string(), "Conversion".to_string()]
        );
        assert_eq!(parse_weapon_keywords("-"), (vec![], vec![]));
        assert_eq!(parse_weapon_keywords(""), (vec![], vec![]));
        let (a, _) = parse_weapon_keywords(
            "anti-infantry 2+, Anti Vehicle 3+, Anti-FLY 2, Sustained hits D3, Melta 2, \
             Rapid Fire 1, Ignores cover, Devastating wounds, Indirect Fire, One Shot, \
             Psychic, Assault, Heavy, Hazardous, Pistol, Torrent, Lethal Hits, Lance, \
             Precision, Blast, Extra Attacks, Anti-Epic Hero 2+",
        );
        assert_eq!(a.len(), 22);
        assert!(a.contains(&A::Anti("EPIC HERO".into(), 2)));
        assert!(a.contains(&A::Anti("VEHICLE".into(), 3)));
        assert!(a.contains(&A::Anti("FLY".into(), 2)));
        assert!(a.contains(&A::SustainedHits("D3".parse().unwrap())));
        // Past a limit: not an ability the engine can hold.
        let (a, u) = parse_weapon_keywords("Anti-Infantry 1+, Rapid Fire 200");
        assert!(a.is_empty());
        assert_eq!(u.len(), 2);
    }

    #[test]
    fn texts_give_saves_capacities_and_leader_lists() {
        assert_eq!(
            invulnerable_save(
                "Invulnerable Save",
                "This model has a 4+ invulnerable save."
            ),
            Some((4, false))
        );
        assert_eq!(
            invulnerable_save(
                "Invulnerable Save (5+*)",
                "This model has a 5+ invulnerable save against ranged attacks."
            ),
            Some((5, true))
        );
        assert_eq!(
            invulnerable_save("Storm Shield", "The bearer has a 4+ invulnerable save."),
            None
        );
        assert_eq!(
            invulnerable_save("Ward", "This model has an invulnerable save of 5+."),
            Some((5, false))
        );
        assert_eq!(
            transport_capacity("This model has a transport capacity of 22 ORKS models."),
            Some(22)
        );
        assert_eq!(
            leader_targets(
                "This model can be attached to the following units:\n\n■ Assault Intercessor \
                 Squad\n■ Bladeguard Veteran Squad*\n\n* This model cannot be attached to..."
            ),
            vec!["Assault Intercessor Squad", "Bladeguard Veteran Squad"]
        );
        assert_eq!(
            leader_targets(
                "This model can be attached to the following unit: ^^**Rubric Marines^^**"
            ),
            vec!["Rubric Marines"]
        );
        assert_eq!(
            leader_targets(
                "can be attached to the following units:\n- BOYZ\n- NOBZ (any)\nYou can attach"
            ),
            vec!["BOYZ", "NOBZ"]
        );
        assert_eq!(faction_file_stem("T'au Empire"), "tau-empire");
        assert_eq!(faction_file_stem("Emperor's Children"), "emperors-children");
    }

    const GST: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<gameSystem xmlns="http://www.battlescribe.net/schema/gameSystemSchema" id="sys" name="Warhammer 40,000">
  <sharedRules>
    <rule id="b68a-5ded-65ac-98c" name="Deadly Demise"/>
    <rule id="9bf4-280f-bbe2-6fbb" name="Feel No Pain"/>
    <rule id="b4dd-3e1f-41cb-218f" name="Leader"/>
  </sharedRules>
  <sharedProfiles>
    <profile id="inv5" name="Invulnerable Save (5+)" typeId="9cc3-6d83-4dd3-9b64" typeName="Abilities">
      <characteristics><characteristic name="Description" typeId="d">This model has a 5+ invulnerable save.</characteristic></characteristics>
    </profile>
  </sharedProfiles>
</gameSystem>"#;

    const CAT: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema" id="cat-orks" name="Xenos - Orks" library="false">
  <entryLinks>
    <entryLink id="l1" name="Boyz" type="selectionEntry" targetId="boyz"/>
    <entryLink id="l2" name="Warboss" type="selectionEntry" targetId="boss"/>
    <entryLink id="l3" name="Old Boss [Legends]" type="selectionEntry" targetId="old"/>
  </entryLinks>
  <sharedSelectionEntries>
    <selectionEntry type="unit" name="Boyz" id="boyz">
      <categoryLinks>
        <categoryLink targetId="x1" id="c1" name="Infantry"/>
        <categoryLink targetId="x2" id="c2" name="Battleline" primary="true"/>
        <categoryLink targetId="x3" id="c3" name="Faction: Orks"/>
      </categoryLinks>
      <profiles>
        <profile name="Get Da Good Bitz" typeId="9cc3-6d83-4dd3-9b64" id="p1">
          <characteristics><characteristic name="Description" typeId="d">Rules text.</characteristic></characteristics>
        </profile>
      </profiles>
      <selectionEntryGroups>
        <selectionEntryGroup name="9-19 Boyz" id="g1" defaultSelectionEntryId="boy">
          <constraints>
            <constraint type="min" value="9" field="selections" scope="parent" id="k1"/>
            <constraint type="max" value="19" field="selections" scope="parent" id="k2"/>
          </constraints>
          <selectionEntries>
            <selectionEntry type="model" name="Boy w/ Slugga and choppa" id="boy">
              <constraints><constraint type="max" value="19" field="selections" scope="parent" id="k3"/></constraints>
              <profiles>
                <profile name="Boy" typeId="c547-1836-d8a-ff4f" id="p2"><characteristics>
                  <characteristic name="M">6"</characteristic><characteristic name="T">5</characteristic>
                  <characteristic name="SV">5+</characteristic><characteristic name="W">1</characteristic>
                  <characteristic name="LD">7+</characteristic><characteristic name="OC">2</characteristic>
                </characteristics></profile>
              </profiles>
              <entryLinks>
                <entryLink id="e1" name="Slugga" type="selectionEntry" targetId="slugga">
                  <constraints><constraint type="min" value="1" field="selections" scope="parent" id="k4"/></constraints>
                </entryLink>
              </entryLinks>
              <selectionEntries>
                <selectionEntry type="upgrade" name="Choppa" id="choppa">
                  <constraints><constraint type="min" value="1" field="selections" scope="parent" id="k5"/></constraints>
                  <profiles><profile name="Choppa" typeId="8a40-4aaa-c780-9046" id="p3"><characteristics>
                    <characteristic name="Range">Melee</characteristic><characteristic name="A">3</characteristic>
                    <characteristic name="WS">3+</characteristic><characteristic name="S">4</characteristic>
                    <characteristic name="AP">-1</characteristic><characteristic name="D">1</characteristic>
                    <characteristic name="Keywords">-</characteristic>
                  </characteristics></profile></profiles>
                </selectionEntry>
              </selectionEntries>
            </selectionEntry>
          </selectionEntries>
        </selectionEntryGroup>
        <selectionEntryGroup name="Boss Nob" id="g2">
          <selectionEntries>
            <selectionEntry type="model" name="Boss Nob" id="nob">
              <constraints>
                <constraint type="min" value="1" field="selections" scope="parent" id="k6"/>
                <constraint type="max" value="1" field="selections" scope="parent" id="k7"/>
              </constraints>
              <profiles>
                <profile name="Boss Nob" typeId="c547-1836-d8a-ff4f" id="p4"><characteristics>
                  <characteristic name="M">6"</characteristic><characteristic name="T">5</characteristic>
                  <characteristic name="SV">5+</characteristic><characteristic name="W">2</characteristic>
                  <characteristic name="LD">7+</characteristic><characteristic name="OC">2</characteristic>
                </characteristics></profile>
              </profiles>
              <selectionEntryGroups>
                <selectionEntryGroup name="Weapon" id="g3" defaultSelectionEntryId="pg">
                  <constraints><constraint type="min" value="1" field="selections" scope="parent" id="k8"/></constraints>
                  <selectionEntries>
                    <selectionEntry type="upgrade" name="Plasma gun" id="pg">
                      <profiles>
                        <profile name="➤ Plasma gun - standard" typeId="f77d-b953-8fa4-b762" id="p5"><characteristics>
                          <characteristic name="Range">24"</characteristic><characteristic name="A">1</characteristic>
                          <characteristic name="BS">5+</characteristic><characteristic name="S">7</characteristic>
                          <characteristic name="AP">-2</characteristic><characteristic name="D">1</characteristic>
                          <characteristic name="Keywords">Rapid Fire 1</characteristic>
                        </characteristics></profile>
                        <profile name="➤ Plasma gun - supercharge" typeId="f77d-b953-8fa4-b762" id="p6"><characteristics>
                          <characteristic name="Range">24"</characteristic><characteristic name="A">1</characteristic>
                          <characteristic name="BS">5+</characteristic><characteristic name="S">8</characteristic>
                          <characteristic name="AP">-3</characteristic><characteristic name="D">2</characteristic>
                          <characteristic name="Keywords">Rapid Fire 1, Hazardous, Conversion</characteristic>
                        </characteristics></profile>
                      </profiles>
                    </selectionEntry>
                    <selectionEntry type="upgrade" name="Iron Shield" id="shield">
                      <profiles><profile name="Iron Shield" typeId="9cc3-6d83-4dd3-9b64" id="p7">
                        <characteristics><characteristic name="Description">The bearer has a 4+ invulnerable save.</characteristic></characteristics>
                      </profile></profiles>
                    </selectionEntry>
                  </selectionEntries>
                </selectionEntryGroup>
              </selectionEntryGroups>
            </selectionEntry>
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
      <costs><cost name="pts" typeId="51b2-306e-1021-d207" value="80"/></costs>
      <modifiers>
        <modifier type="set" value="170" field="51b2-306e-1021-d207">
          <conditions><condition type="greaterThan" value="10" field="selections" scope="boyz" childId="model"/></conditions>
        </modifier>
      </modifiers>
      <infoLinks>
        <infoLink id="i1" name="Feel No Pain" type="rule" targetId="9bf4-280f-bbe2-6fbb">
          <modifiers><modifier type="append" field="name" value="6+"/></modifiers>
        </infoLink>
      </infoLinks>
    </selectionEntry>
    <selectionEntry type="model" name="Warboss" id="boss">
      <categoryLinks>
        <categoryLink targetId="x4" id="c4" name="Character"/>
        <categoryLink targetId="x3" id="c5" name="Faction: Orks"/>
      </categoryLinks>
      <profiles>
        <profile name="Warboss" typeId="c547-1836-d8a-ff4f" id="p8"><characteristics>
          <characteristic name="M">6"</characteristic><characteristic name="T">5</characteristic>
          <characteristic name="SV">4+</characteristic><characteristic name="W">6</characteristic>
          <characteristic name="LD">6+</characteristic><characteristic name="OC">1</characteristic>
        </characteristics></profile>
        <profile name="Leader" typeId="9cc3-6d83-4dd3-9b64" id="p9"><characteristics>
          <characteristic name="Description">This model can be attached to the following units:
■ BOYZ
■ Nobz</characteristic></characteristics></profile>
      </profiles>
      <infoLinks>
        <infoLink id="i2" name="Invulnerable Save (5+)" type="profile" targetId="inv5"/>
        <infoLink id="i3" name="Deadly Demise" type="rule" targetId="b68a-5ded-65ac-98c">
          <modifiers><modifier type="append" field="name" value="D3"/></modifiers>
        </infoLink>
      </infoLinks>
      <costs><cost name="pts" typeId="51b2-306e-1021-d207" value="75"/></costs>
    </selectionEntry>
    <selectionEntry type="model" name="Old Boss [Legends]" id="old"/>
    <selectionEntry type="upgrade" name="Slugga" id="slugga">
      <profiles><profile name="Slugga" typeId="f77d-b953-8fa4-b762" id="p10"><characteristics>
        <characteristic name="Range">12"</characteristic><characteristic name="A">1</characteristic>
        <characteristic name="BS">5+</characteristic><characteristic name="S">4</characteristic>
        <characteristic name="AP">0</characteristic><characteristic name="D">1</characteristic>
        <characteristic name="Keywords">Pistol</characteristic>
      </characteristics></profile></profiles>
    </selectionEntry>
  </sharedSelectionEntries>
</catalogue>"#;

    fn sample_bases() -> BaseSizes {
        BaseSizes {
            source: "test".into(),
            licence: "test".into(),
            bases: vec![BaseEntry {
                faction: "Orks".into(),
                datasheet: "boyz".into(),
                base: Base::Round(32.0),
            }],
        }
    }

    #[test]
    fn a_small_catalogue_converts() {
        let docs = vec![
            ("Orks.cat".to_string(), Document::parse(CAT).unwrap()),
            (GAME_SYSTEM_FILE.to_string(), Document::parse(GST).unwrap()),
        ];
        let idx = Index::new(&docs);
        let c = convert_index(&idx, &sample_bases());
        assert_eq!(c.report.skipped, vec![]);
        assert_eq!(c.report.legends, 1);
        assert_eq!(c.files.len(), 1);
        let (stem, file) = &c.files[0];
        assert_eq!(stem, "orks");
        assert_eq!(file.faction, "Orks");
        let boyz = file.datasheets.iter().find(|d| d.name == "Boyz").unwrap();
        assert_eq!(boyz.unit_size, (10, 20));
        assert_eq!(boyz.points, vec![(10, 80), (20, 170)]);
        assert_eq!(boyz.wounds, 1);
        assert_eq!(boyz.base, Some(Base::Round(32.0)));
        assert_eq!(boyz.keywords, vec!["INFANTRY", "BATTLELINE"]);
        assert_eq!(boyz.faction_keywords, vec!["ORKS"]);
        assert_eq!(boyz.feel_no_pain, Some(6));
        let nob = boyz.model_profile("Boss Nob").unwrap();
        assert_eq!(nob.wounds, Some(2));
        assert_eq!(nob.count, Some((1, 1)));
        let alias = boyz.model_profile("Boy w/ Slugga and choppa").unwrap();
        assert_eq!((alias.wounds, alias.count), (None, Some((0, 19))));
        let plasma = boyz.profiles_of("Plasma gun");
        assert_eq!(plasma.len(), 2);
        assert_eq!(plasma[1].profile.as_deref(), Some("supercharge"));
        assert!(plasma[1].has(&WeaponAbility::Hazardous));
        assert_eq!(
            boyz.default_wargear,
            vec!["Choppa".to_string(), "Slugga".into()]
        );
        assert_eq!(boyz.other_wargear, vec!["Iron Shield".to_string()]);
        assert!(
            boyz.abilities
                .iter()
                .any(|a| a.name == "Weapon ability: Conversion (Plasma gun)" && a.text.is_empty())
        );
        assert!(boyz.abilities.iter().all(|a| a.text.is_empty()));
        assert_eq!(boyz.invulnerable_save, None);
        let boss = file
            .datasheets
            .iter()
            .find(|d| d.name == "Warboss")
            .unwrap();
        assert_eq!(boss.invulnerable_save, Some(5));
        assert_eq!(boss.points, vec![(1, 75)]);
        assert_eq!(boss.leader_of, vec!["Boyz".to_string(), "Nobz".into()]);
        assert!(boss.has_core(&CoreAbility::Leader));
        assert_eq!(boss.deadly_demise(), Some("D3".parse().unwrap()));
        assert_eq!(
            c.report.without_base,
            vec![("Orks".into(), "Warboss".into())]
        );
        assert_eq!(
            c.report.unmatched_leader_targets,
            vec![("Warboss".into(), "Nobz".into())]
        );
        // The written text reads back as the same file.
        let text = to_ron(file).unwrap();
        let back: DatasheetsFile =
            super::super::source::parse(Path::new("orks.ron"), &text).unwrap();
        assert_eq!(&back, file);
    }

    #[test]
    fn base_names_match_loosely() {
        let bases = BaseSizes {
            source: String::new(),
            licence: String::new(),
            bases: vec![
                BaseEntry {
                    faction: "Space Marines".into(),
                    datasheet: "Kor’sarro Khan".into(),
                    base: Base::Round(40.0),
                },
                BaseEntry {
                    faction: "Aeldari".into(),
                    datasheet: "Archon".into(),
                    base: Base::Round(32.0),
                },
                BaseEntry {
                    faction: "Drukhari".into(),
                    datasheet: "Archon".into(),
                    base: Base::Round(25.0),
                },
            ],
        };
        assert_eq!(
            bases.find("White Scars", "Kor'sarro  Khan"),
            Some(Base::Round(40.0))
        );
        assert_eq!(bases.find("Drukhari", "ARCHON"), Some(Base::Round(25.0)));
        assert_eq!(bases.find("Ynnari", "Archon"), Some(Base::Round(32.0)));
        assert_eq!(bases.find("Orks", "Archon"), None);
    }
}
