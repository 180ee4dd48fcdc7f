//! `wartable import <file> [--out FILE] [--json] [--allow-partial]`: a roster (BattleScribe
//! `.ros`/`.rosz`, New Recruit JSON, or the official app's text export) written as an army
//! file, resolved against the datasheets. Anything it cannot resolve is listed by name with
//! the closest names the datasheets have, and nothing is written (exit 1) unless
//! `--allow-partial`; the file is written whole or not at all.

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
    /// subfolders).
    #[arg(long, default_value = "scenes/datasheets")]
    pub datasheets: PathBuf,
    /// Print a JSON report instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write the army even when some units cannot be resolved (they are left out).
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
    let done = roster::import(
        &args.file.display().to_string(),
        &bytes,
        &args.datasheets,
        args.out.as_deref(),
        args.allow_partial,
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
    if args.json {
        let v = serde_json::json!({
            "file": args.file.display().to_string(),
            "format": format,
            "army": out.display().to_string(),
            "name": a.name,
            "faction": a.faction,
            "units": a.units.len(),
            "models": imported.models,
            "weapons": imported.weapons,
            "roster_points": imported.roster_points,
            "unresolved": imported.unresolved.iter().map(|u| serde_json::json!({
                "unit": u.unit, "what": u.what, "name": u.name, "line": u.line,
                "suggestions": u.suggestions,
            })).collect::<Vec<_>>(),
        });
        return serde_json::to_string_pretty(&v).unwrap_or_default();
    }
    let mut lines = vec![format!(
        "{}: {format}: army '{}' ({}) written to {}: {} units, {} models, {} weapons carried",
        args.file.display(),
        a.name,
        a.faction,
        out.display(),
        a.units.len(),
        imported.models,
        imported.weapons
    )];
    if !imported.unresolved.is_empty() {
        lines.push(format!(
            "left out ({} unresolved):",
            imported.unresolved.len()
        ));
        lines.extend(imported.unresolved.iter().map(|u| format!("  {u}")));
    }
    lines.join("\n")
}
