//! `wartable rules <army-or-scene> [--json]`, `wartable rules --all [--json]`: every ability,
//! army rule, Detachment rule, Enhancement and Stratagem of an army with its status (`applied`
//! by the engine, `manual` with the referee override, `list-building`) and the totals; with
//! `--all`, over every converted faction's datasheets (scenes/datasheets/bsdata).

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::{Value, json};

use crate::data::faction_rules::{
    self as fr, AbilityStatus, ArmyRules, RuleStatus, ability_statuses, every_rule,
};

/// Arguments of `rules`.
#[derive(Debug, Clone, clap::Args)]
pub struct RulesArgs {
    /// An army file or a scene ("default" for the built-in scene); not with --all.
    #[arg(required_unless_present = "all", conflicts_with = "all")]
    pub file: Option<PathBuf>,
    /// Every converted faction's datasheets and rules files.
    #[arg(long)]
    pub all: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// How many of the abilities most often applied by hand `--all` lists.
pub const MOST_COMMON_MANUAL: usize = 40;

/// Counts of statuses.
#[derive(Debug, Clone, Copy, Default)]
struct Totals {
    applied: usize,
    manual: usize,
    list_building: usize,
}

impl Totals {
    fn add(&mut self, s: RuleStatus) {
        match s {
            RuleStatus::Applied => self.applied += 1,
            RuleStatus::Manual => self.manual += 1,
            RuleStatus::ListBuilding => self.list_building += 1,
        }
    }
    fn total(&self) -> usize {
        self.applied + self.manual + self.list_building
    }
    fn percent_applied(&self) -> f64 {
        if self.total() == 0 {
            0.0
        } else {
            100.0 * self.applied as f64 / self.total() as f64
        }
    }
    fn json(&self) -> Value {
        json!({
            "instances": self.total(),
            "applied": self.applied,
            "manual": self.manual,
            "list_building": self.list_building,
            "percent_applied": (self.percent_applied() * 10.0).round() / 10.0,
        })
    }
    fn line(&self) -> String {
        format!(
            "{} ability instances: {} applied ({:.1}%), {} by hand, {} list-building",
            self.total(),
            self.applied,
            self.percent_applied(),
            self.manual,
            self.list_building
        )
    }
}

/// Runs `rules`.
pub fn run(args: &RulesArgs) -> ExitCode {
    let out = if args.all {
        all()
    } else {
        let file = super::scene_path(args.file.as_deref());
        army_or_scene(&file)
    };
    match out {
        Ok((json, text)) => {
            let s = if args.json {
                serde_json::to_string_pretty(&json).expect("JSON")
            } else {
                text
            };
            super::print_then(&s, ExitCode::SUCCESS)
        }
        Err(e) => {
            stderr_line!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn statuses_json(list: &[AbilityStatus]) -> Value {
    json!(
        list.iter()
            .map(|a| json!({"name": a.name, "status": a.status.label(), "by": a.by}))
            .collect::<Vec<_>>()
    )
}

/// An army's (or a scene's armies') rules.
fn army_or_scene(file: &std::path::Path) -> Result<(Value, String), String> {
    let text = crate::data::source::read(file).map_err(|e| e.to_string())?;
    let kind = crate::data::FileKind::sniff(file, &text).map_err(|e| e.to_string())?;
    let armies = match kind {
        crate::data::FileKind::Army => {
            vec![crate::data::load_army(file, 1).map_err(|e| e.to_string())?]
        }
        crate::data::FileKind::Scene => {
            crate::data::load_scene(file)
                .map_err(|e| e.to_string())?
                .armies
        }
        _ => return Err(format!("{}: not an army or scene file", file.display())),
    };
    let mut out = Vec::new();
    let mut lines = Vec::new();
    let mut grand = Totals::default();
    for a in &armies {
        let (j, t, l) = army(a);
        out.push(j);
        lines.extend(l);
        grand.applied += t.applied;
        grand.manual += t.manual;
        grand.list_building += t.list_building;
    }
    lines.push(format!("total: {}", grand.line()));
    Ok((
        json!({"armies": out, "totals": grand.json()}),
        lines.join("\n"),
    ))
}

fn army(a: &crate::data::Army) -> (Value, Totals, Vec<String>) {
    let rules: &ArmyRules = &a.rules;
    let mut lines = vec![format!(
        "{} ({}){}",
        a.name,
        a.faction,
        rules
            .detachment
            .as_ref()
            .map(|d| format!(", {}", d.name))
            .unwrap_or_default()
    )];
    let offered: Vec<&fr::Rule> = rules
        .army_rules
        .iter()
        .chain(rules.detachment.iter().flat_map(|d| &d.rules))
        .chain(&rules.abilities)
        .collect();
    let mut totals = Totals::default();
    let mut rule_items = Vec::new();
    for r in rules.rules() {
        rule_items.push(json!({"name": r.name, "status": r.status().label()}));
        lines.push(format!("  rule {}: {}", r.name, r.status().label()));
    }
    let mut stratagems = Vec::new();
    for s in rules.detachment.iter().flat_map(|d| &d.stratagems) {
        let st = RuleStatus::of(&s.effects, false);
        stratagems.push(json!({"name": s.name, "cp": s.cp, "status": st.label()}));
        lines.push(format!(
            "  Stratagem {} ({} CP): {}",
            s.name,
            s.cp,
            st.label()
        ));
    }
    let mut units = Vec::new();
    for u in &a.units {
        let list = ability_statuses(&u.datasheet, &offered);
        for s in &list {
            totals.add(s.status);
        }
        let enhancements: Vec<Value> = u
            .enhancements
            .iter()
            .map(|e| {
                let st = RuleStatus::of(&e.effects, false);
                totals.add(st);
                lines.push(format!(
                    "  {}: Enhancement {}: {}",
                    u.id,
                    e.name,
                    st.label()
                ));
                json!({"name": e.name, "points": e.points, "status": st.label()})
            })
            .collect();
        for s in &list {
            lines.push(format!(
                "  {}: {} ({}): {}",
                u.id,
                s.name,
                s.by,
                s.status.label()
            ));
        }
        units.push(json!({
            "unit": u.id,
            "datasheet": u.datasheet.name,
            "abilities": statuses_json(&list),
            "enhancements": enhancements,
        }));
    }
    lines.push(format!("  {}", totals.line()));
    (
        json!({
            "army": a.name,
            "faction": a.faction,
            "rules_file": rules.file.as_ref().map(|f| f.display().to_string()),
            "detachment": rules.detachment.as_ref().map(|d| d.name.clone()),
            "rules": rule_items,
            "stratagems": stratagems,
            "units": units,
            "totals": totals.json(),
        }),
        totals,
        lines,
    )
}

/// Every converted faction (the built-in scenes/datasheets/bsdata files).
fn all() -> Result<(Value, String), String> {
    let mut factions = Vec::new();
    let mut lines = Vec::new();
    let mut grand = Totals::default();
    let mut army_rules = Totals::default();
    let mut manual: Vec<(String, usize)> = Vec::new();
    for (key, _) in crate::data::source::embedded_files()
        .iter()
        .filter(|(p, _)| p.starts_with("scenes/datasheets/bsdata/") && p.ends_with(".ron"))
    {
        let path = crate::data::source::builtin_path(key);
        let file = crate::data::resolve::load_datasheets(&path).map_err(|e| e.to_string())?;
        let keywords: Vec<&String> = file
            .datasheets
            .iter()
            .flat_map(|d| &d.faction_keywords)
            .collect();
        let found = fr::for_faction(&file.faction).or_else(|| {
            fr::shipped()
                .iter()
                .find(|(_, r)| keywords.iter().any(|k| k.eq_ignore_ascii_case(&r.keyword)))
                .cloned()
        });
        let offered: Vec<&fr::Rule> = found
            .as_ref()
            .map(|(_, f)| every_rule(f))
            .unwrap_or_default();
        let mut t = Totals::default();
        for d in &file.datasheets {
            for s in ability_statuses(d, &offered) {
                t.add(s.status);
                if s.status == RuleStatus::Manual {
                    match manual.iter_mut().find(|(n, _)| *n == s.name) {
                        Some((_, k)) => *k += 1,
                        None => manual.push((s.name.clone(), 1)),
                    }
                }
            }
        }
        let rules: Vec<Value> = found
            .as_ref()
            .map(|(_, f)| {
                f.army_rules
                    .iter()
                    .map(|r| json!({"name": r.name, "status": r.status().label()}))
                    .collect()
            })
            .unwrap_or_default();
        lines.push(format!(
            "{}: {} datasheets, {}; army rules: {}",
            file.faction,
            file.datasheets.len(),
            t.line(),
            found
                .as_ref()
                .map(|(_, f)| f
                    .army_rules
                    .iter()
                    .map(|r| format!("{} ({})", r.name, r.status().label()))
                    .collect::<Vec<_>>()
                    .join(", "))
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| "none".into())
        ));
        factions.push(json!({
            "faction": file.faction,
            "datasheets": file.datasheets.len(),
            "rules_file": found.as_ref().map(|(p, _)| p.display().to_string()),
            "army_rules": rules,
            "totals": t.json(),
        }));
        grand.applied += t.applied;
        grand.manual += t.manual;
        grand.list_building += t.list_building;
    }
    for (_, f) in fr::shipped() {
        for r in &f.army_rules {
            army_rules.add(r.status());
        }
    }
    manual.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    manual.truncate(MOST_COMMON_MANUAL);
    lines.push(format!(
        "most common abilities applied by hand: {}",
        manual
            .iter()
            .map(|(n, k)| format!("{n} ({k})"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    lines.push(format!("total: {}", grand.line()));
    lines.push(format!(
        "army rules in scenes/rules: {} of the {} that matter in play applied ({} by hand, {} list-building)",
        army_rules.applied,
        army_rules.applied + army_rules.manual,
        army_rules.manual,
        army_rules.list_building
    ));
    Ok((
        json!({
            "factions": factions,
            "totals": grand.json(),
            "army_rules": army_rules.json(),
            "most_common_manual": manual
                .iter()
                .map(|(n, k)| json!({"name": n, "instances": k}))
                .collect::<Vec<_>>(),
        }),
        lines.join("\n"),
    ))
}
