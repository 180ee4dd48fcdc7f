//! `wartable datasheets --from-bsdata <checkout> --out <dir>`: datasheets for every faction,
//! converted from a checkout of the public BSData `wh40k-10e` catalogues.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::data::army::DatasheetsFile;
use crate::data::bsdata::{self, BaseSizes, Conversion};
use crate::data::source;
use crate::data::write::{self, Overwrite};

/// The base-size table used when `--bases` is not given.
pub const DEFAULT_BASES: &str = "scenes/datasheets/base-sizes.ron";

/// The arguments of `datasheets`.
#[derive(Debug, clap::Args)]
pub struct DatasheetsArgs {
    /// A checkout (or extracted copy) of the BSData wh40k-10e repository: the folder holding
    /// `Warhammer 40,000.gst` and the `.cat` files.
    #[arg(long)]
    pub from_bsdata: PathBuf,
    /// The folder to write one datasheets file per faction into.
    #[arg(long)]
    pub out: PathBuf,
    /// The base-size table (default: scenes/datasheets/base-sizes.ron).
    #[arg(long)]
    pub bases: Option<PathBuf>,
    /// The commit to record in each file's header (default: read from the checkout's `.git`).
    #[arg(long)]
    pub source_commit: Option<String>,
    /// Replace faction files already in `--out` (without it, nothing is written when one is
    /// there).
    #[arg(long)]
    pub force: bool,
}

/// Runs `datasheets`: converts the checkout, writes one file per faction into `--out` (each
/// whole, through a temporary file), prints a one-line summary and exits 0; exits 1 with a
/// message naming the path when the checkout, the base-size table or the output folder
/// cannot be used.
pub fn run(args: &DatasheetsArgs) -> ExitCode {
    match convert_and_write(args) {
        Ok(summary) => super::print_then(&summary, ExitCode::SUCCESS),
        Err(message) => {
            stderr_line!("datasheets: {message}");
            ExitCode::FAILURE
        }
    }
}

fn convert_and_write(args: &DatasheetsArgs) -> Result<String, String> {
    let checkout = &args.from_bsdata;
    if !checkout.is_dir() {
        return Err(format!(
            "{}: no such folder (expected a checkout of BSData/wh40k-10e)",
            checkout.display()
        ));
    }
    let bases_path = args
        .bases
        .clone()
        .unwrap_or_else(|| source::shipped(DEFAULT_BASES));
    let bases = BaseSizes::load(&bases_path)?;
    let conversion = bsdata::convert(checkout, &bases)?;
    std::fs::create_dir_all(&args.out)
        .map_err(|e| format!("{}: cannot create the folder: {e}", args.out.display()))?;
    let commit = match &args.source_commit {
        Some(c) => one_line(c).chars().take(100).collect(),
        None => checkout_commit(checkout),
    };
    // Every file's name and target checked before the first is written: all or none.
    let overwrite = Overwrite::when(args.force);
    let mut outs = Vec::new();
    for (stem, _) in &conversion.files {
        let out = write::file_in(&args.out, &format!("{stem}.ron"))?;
        if outs.contains(&out) {
            return Err(format!(
                "{}: two factions would be written to this one file",
                out.display()
            ));
        }
        write::check_target(&out, overwrite)?;
        outs.push(out);
    }
    for ((_, file), out) in conversion.files.iter().zip(&outs) {
        let body = bsdata::to_ron(file).map_err(|e| format!("{}: {e}", out.display()))?;
        let text = format!(
            "{}{body}",
            header(file, &commit, &bases_path, &bases, &conversion)
        );
        write::write_file(out, &text, overwrite)?;
    }
    Ok(summary(&conversion, &args.out))
}

/// The largest git metadata file read (`HEAD`, a ref, `packed-refs`): 4 MiB.
const MAX_GIT_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// The commit a git checkout is at, read from its `.git` files (`HEAD`, then the branch's
/// ref file or `packed-refs`); no program is run. "unknown" for a folder that is not a
/// checkout or whose metadata cannot be read.
pub fn checkout_commit(checkout: &Path) -> String {
    read_head(checkout).unwrap_or_else(|| "unknown".to_string())
}

fn read_head(checkout: &Path) -> Option<String> {
    let small = |p: &Path| {
        source::read_bytes(p, MAX_GIT_FILE_BYTES)
            .ok()
            .and_then(|b| String::from_utf8(b).ok())
    };
    let dot_git = checkout.join(".git");
    // A worktree or submodule has a `.git` file naming its git folder.
    let git = if dot_git.is_dir() {
        dot_git
    } else {
        let text = small(&dot_git)?;
        checkout.join(text.trim().strip_prefix("gitdir:")?.trim())
    };
    let head = small(&git.join("HEAD"))?;
    let head = head.trim();
    let hash = match head.strip_prefix("ref:") {
        None => head.to_string(),
        Some(name) => {
            let name = name.trim();
            if !name.starts_with("refs/") || name.split('/').any(|p| p.is_empty() || p == "..") {
                return None;
            }
            match small(&git.join(name)) {
                Some(h) => h.trim().to_string(),
                None => small(&git.join("packed-refs"))?
                    .lines()
                    .filter_map(|l| l.split_once(' '))
                    .find(|(_, r)| r.trim() == name)
                    .map(|(h, _)| h.to_string())?,
            }
        }
    };
    let hex = hash.len() >= 40 && hash.len() <= 64 && hash.chars().all(|c| c.is_ascii_hexdigit());
    hex.then_some(hash)
}

/// The comment every written file starts with: where the data comes from, its licence
/// status, what was taken and where the base sizes come from.
fn header(
    file: &DatasheetsFile,
    commit: &str,
    bases_path: &Path,
    bases: &BaseSizes,
    conversion: &Conversion,
) -> String {
    let without = conversion
        .report
        .without_base
        .iter()
        .filter(|(f, _)| *f == file.faction)
        .count();
    let text = format!(
        "{} datasheets, Warhammer 40,000 10th edition: {} datasheets, {without} of them without a \
         base size.\n\
         Generated by `wartable datasheets --from-bsdata` from BSData/wh40k-10e \
         (https://github.com/BSData/wh40k-10e) at commit {commit}.\n\
         The BSData repository has no licence file; its data is community-maintained \
         (\"Maintained by community, in no way endorsed by BattleScribe or any other \
         company/publisher\"). Only names and numbers are taken from it (characteristics, \
         weapon profiles, keywords, unit sizes, points, ability names): no rules text is \
         copied, and every ability's `text` is left empty.\n\
         [Legends] and [Crucible] datasheets are left out. Weapon keywords that are no core \
         weapon ability are listed as abilities named \"Weapon ability: ...\".\n\
         Base sizes: {} ({}; {}). A datasheet with no size in millimetres there (a hull, a \
         flying base, a unique base, or a name not in the table) has no `base`: \
         it gets its hull or an assumed base when loaded (scenes/datasheets/hull-sizes.ron).\n",
        file.faction,
        file.datasheets.len(),
        bases_path.display().to_string().replace('\\', "/"),
        one_line(&bases.source),
        one_line(&bases.licence),
    );
    text.lines().map(|l| wrap_comment(l, 98)).collect()
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` as `//` comment lines of at most `width` characters (longer words kept whole).
fn wrap_comment(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::from("//");
    for word in text.split_whitespace() {
        if line.len() > 2 && line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(&line);
            out.push('\n');
            line = String::from("//");
        }
        line.push(' ');
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// The one-line summary printed after a run.
fn summary(c: &Conversion, out: &Path) -> String {
    let r = &c.report;
    format!(
        "datasheets: wrote {} faction files to {}: {} datasheets, {} weapon profiles, {} \
         datasheets without a base; left out {} [Legends], {} [Crucible] and {} unreadable \
         datasheets",
        r.factions,
        out.display(),
        r.datasheets,
        r.weapons,
        r.without_base.len(),
        r.legends,
        r.crucible,
        r.skipped.len()
    )
}
