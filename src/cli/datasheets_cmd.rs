//! `wartable datasheets --from-bsdata <checkout> --out <dir>`: datasheets for every faction,
//! converted from a checkout of the public BSData `wh40k-10e` catalogues.

use std::path::PathBuf;
use std::process::ExitCode;

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
}

/// Runs `datasheets`.
pub fn run(args: &DatasheetsArgs) -> ExitCode {
    eprintln!(
        "datasheets: converting {} into {} is not built yet",
        args.from_bsdata.display(),
        args.out.display()
    );
    ExitCode::FAILURE
}
