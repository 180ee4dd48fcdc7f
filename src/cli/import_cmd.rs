//! `wartable import <file> [--out FILE] [--json] [--allow-partial] [--attach LEADER=UNIT]`: a
//! roster (BattleScribe `.ros`/`.rosz`, New Recruit JSON or text, or the official app's text
//! export) written as an army file, resolved against the datasheets, with a summary table.
//! A datasheet that does not exist at all is listed with the closest names the datasheets
//! have, and nothing is written (exit 1) unless `--allow-partial`; other names the datasheets
//! lack are warnings. The file is written whole or not at all.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::data::roster::{self, Imported};

use super::write_stdout;

/// The arguments of `import`.
#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// The roster file: .ros, .rosz, New Recruit .json, or the app's text export (.txt).
    pub file: PathBuf,
    /// The army file to write (default: scenes/armies/NAME.ron, NAME from the roster's name).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The datasheets to resolve against: a folder of datasheet files (searched with its
    /// subfolders). Default: scenes/datasheets in the working directory when there is one,
    /// else the copy built into wartable.
    #[arg(long)]
    pub datasheets: Option<PathBuf>,
    /// Attach a Leader to a unit before the game: LEADER=UNIT, each a unit id of the army
    /// written or a datasheet name with an optional [N] for the N-th unit of that name
    /// (e.g. --attach "Warboss=Boyz[2]"); checked against the datasheets. Repeatable.
    #[arg(long, value_name = "LEADER=UNIT")]
    pub attach: Vec<String>,
    /// Print a JSON report instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write the army even when some datasheets do not exist at all (their units are left
    /// out). Names the datasheets spell differently, unknown weapons and sizes outside the
    /// datasheet's range never need it: they are imported with a warning.
    #[arg(long)]
    pub allow_partial: bool,
    /// Replace the army file when one is already there (without it, an existing army is kept
    /// and nothing is written).
    #[arg(long)]
    pub force: bool,
}

/// Runs `import`: exit 0 when the army was written, 1 when the roster cannot be read or has
/// unresolved names (without `--allow-partial`), or the army cannot be written.
pub fn run(args: &ImportArgs) -> ExitCode {
    match import(args) {
        Ok(report) => {
            if let Err(e) = write_stdout(&report) {
                return super::output_failed(&e);
            }
            ExitCode::SUCCESS
        }
        Err(message) => {
            stderr_line!("{message}");
            ExitCode::FAILURE
        }
    }
}

fn import(args: &ImportArgs) -> Result<String, String> {
    let bytes = crate::data::source::read_bytes(&args.file, roster::MAX_ROSTER_BYTES)
        .map_err(|e| e.to_string())?;
    let mut attach = Vec::new();
    for a in &args.attach {
        let (l, b) = a
            .split_once('=')
            .ok_or_else(|| format!("--attach '{a}': give LEADER=UNIT"))?;
        attach.push((l.trim().to_string(), b.trim().to_string()));
    }
    let datasheets = args
        .datasheets
        .clone()
        .unwrap_or_else(|| roster::default_datasheets(Path::new(".")));
    let done = roster::import(
        &args.file.display().to_string(),
        &bytes,
        &datasheets,
        args.out.as_deref(),
        &roster::ImportOptions {
            allow_partial: args.allow_partial,
            attach,
        },
        crate::data::write::Overwrite::when(args.force),
    )?;
    Ok(report(
        args,
        &done.imported,
        &done.file,
        &done.format.to_string(),
    ))
}

fn report(args: &ImportArgs, imported: &Imported, out: &Path, format: &str) -> String {
    let a = &imported.army;
    let said = |list: &[roster::Unresolved]| {
        list.iter()
            .map(|u| {
                serde_json::json!({
                    "unit": u.unit, "what": u.what.trim_start_matches('!'), "name": u.name,
                    "line": u.line, "suggestions": u.suggestions, "message": u.to_string(),
                })
            })
            .collect::<Vec<_>>()
    };
    if args.json {
        let v = serde_json::json!({
            "file": args.file.display().to_string(),
            "format": format,
            "army": out.display().to_string(),
            "name": a.name,
            "faction": a.faction,
            "detachments": a.detachments,
            "units": a.units.len(),
            "models": imported.models,
            "weapons": imported.weapons,
            "roster_points": imported.roster_points,
            "datasheet_points": imported.datasheet_points(),
            "unit_list": imported.units.iter().map(|u| serde_json::json!({
                "id": u.id, "datasheet": u.datasheet, "models": u.models, "weapons": u.weapons,
                "roster_points": u.roster_points, "datasheet_points": u.datasheet_points,
                "enhancements": u.enhancements, "attached_to": u.attached_to,
            })).collect::<Vec<_>>(),
            "warnings": said(&imported.warnings),
            "unresolved": said(&imported.unresolved),
        });
        return serde_json::to_string_pretty(&v).unwrap_or_default();
    }
    let mut lines = vec![format!(
        "{}: read as {format}; army '{}' ({}) written to {}",
        args.file.display(),
        a.name,
        a.faction,
        out.display(),
    )];
    lines.push(format!(
        "detachment: {}",
        if a.detachments.is_empty() {
            "(none given)".to_string()
        } else {
            a.detachments.join(", ")
        }
    ));
    lines.push(summary_table(imported));
    if !imported.warnings.is_empty() {
        lines.push(format!("warnings ({}):", imported.warnings.len()));
        lines.extend(imported.warnings.iter().map(|u| format!("  {u}")));
    }
    if !imported.unresolved.is_empty() {
        lines.push(format!(
            "left out ({} unknown datasheets):",
            imported.unresolved.len()
        ));
        lines.extend(imported.unresolved.iter().map(|u| format!("  {u}")));
    }
    lines.join("\n")
}

/// The import's units as a table: id, datasheet, models, weapons, points by the roster and
/// by the datasheets, enhancements and the unit a Leader leads; then the totals.
fn summary_table(imported: &Imported) -> String {
    let points = |p: Option<u32>| p.map_or_else(|| "-".to_string(), |p| p.to_string());
    let mut rows: Vec<[String; 7]> = vec![[
        "unit".into(),
        "datasheet".into(),
        "models".into(),
        "weapons".into(),
        "points (roster / datasheets)".into(),
        "enhancements".into(),
        "leads".into(),
    ]];
    for u in &imported.units {
        rows.push([
            u.id.clone(),
            u.datasheet.clone(),
            u.models.to_string(),
            u.weapons.to_string(),
            format!(
                "{} / {}",
                points(u.roster_points),
                points(u.datasheet_points)
            ),
            u.enhancements.join(", "),
            u.attached_to.clone().unwrap_or_default(),
        ]);
    }
    rows.push([
        "total".into(),
        format!("{} units", imported.units.len()),
        imported.models.to_string(),
        imported.weapons.to_string(),
        format!(
            "{} / {}",
            points(imported.roster_points),
            imported.datasheet_points()
        ),
        imported
            .units
            .iter()
            .map(|u| u.enhancements.len())
            .sum::<usize>()
            .to_string(),
        imported
            .units
            .iter()
            .filter(|u| u.attached_to.is_some())
            .count()
            .to_string(),
    ]);
    let widths: Vec<usize> = (0..7)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    rows.iter()
        .map(|r| {
            r.iter()
                .zip(&widths)
                .map(|(cell, w)| format!("{cell:<w$}"))
                .collect::<Vec<_>>()
                .join("  ")
                .trim_end()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}
