//! `wartable import <file> [--out FILE] [--json] [--allow-partial]`: a roster (BattleScribe
//! `.ros`/`.rosz`, New Recruit JSON, or the official app's text export) written as an army
//! file, resolved against the datasheets. Anything it cannot resolve is listed by name with
//! the closest names the datasheets have, and nothing is written (exit 1) unless
//! `--allow-partial`; the file is written whole or not at all.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::data::roster::{self, Catalog, Imported};

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
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

/// The army file name for a roster called `name`: lower case, words joined by '-'.
pub fn file_stem(name: &str) -> String {
    let mut s: String = name
        .to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect();
    while s.contains("--") {
        s = s.replace("--", "-");
    }
    let s = s.trim_matches('-').to_string();
    if s.is_empty() { "imported".into() } else { s }
}

fn import(args: &ImportArgs) -> Result<String, String> {
    let (roster, format) = roster::read_file(&args.file).map_err(|e| e.to_string())?;
    let catalog = Catalog::load(&args.datasheets)?;
    let out = args.out.clone().unwrap_or_else(|| {
        Path::new("scenes/armies").join(format!("{}.ron", file_stem(&roster.name)))
    });
    let mut imported = roster::resolve(&roster, &catalog, &out);
    imported.army.source = Some(format!("{} ({format})", args.file.display()));
    let ok = imported.unresolved.is_empty() || args.allow_partial;
    if !ok {
        let mut lines = vec![format!(
            "{}: {} name(s) could not be resolved against {}; nothing written (--allow-partial writes the rest):",
            args.file.display(),
            imported.unresolved.len(),
            args.datasheets.display()
        )];
        lines.extend(imported.unresolved.iter().map(|u| format!("  {u}")));
        return Err(lines.join("\n"));
    }
    if imported.army.units.is_empty() {
        return Err(format!(
            "{}: no unit could be resolved; nothing written",
            args.file.display()
        ));
    }
    let text = army_text(&imported, &out)?;
    write_whole(&out, &text)?;
    // What was written must load as an army: checked now, so a bad import is never silent.
    if let Err(e) = crate::data::load_army(&out, 1) {
        return Err(format!(
            "{}: the army written at {} does not load: {e}",
            args.file.display(),
            out.display()
        ));
    }
    Ok(report(args, &imported, &out, &format.to_string()))
}

/// The army file's text: a comment naming where it came from, then the RON.
fn army_text(imported: &Imported, out: &Path) -> Result<String, String> {
    let config = ron::ser::PrettyConfig::new()
        .depth_limit(4)
        .struct_names(true)
        .separate_tuple_members(false);
    let body = ron::ser::to_string_pretty(&imported.army, config)
        .map_err(|e| format!("{}: cannot be written: {e}", out.display()))?;
    Ok(format!(
        "// Imported by `wartable import` from {}.\n// {} units, {} models; roster total {} points.\n{body}\n",
        imported.army.source.as_deref().unwrap_or("a roster"),
        imported.army.units.len(),
        imported.models,
        imported
            .roster_points
            .map_or_else(|| "unknown".to_string(), |p| p.to_string())
    ))
}

/// Writes `text` to `file` whole: into a temporary file beside it, then renamed over it.
fn write_whole(file: &Path, text: &str) -> Result<(), String> {
    let dir = file.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(d) = dir {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let tmp = file.with_extension("ron.part");
    std::fs::write(&tmp, text).map_err(|e| format!("{}: cannot be written: {e}", tmp.display()))?;
    std::fs::rename(&tmp, file).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("{}: cannot be written: {e}", file.display())
    })
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
