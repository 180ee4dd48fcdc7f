//! wartable's entry point: parse the command line, run a headless command or open the app.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = wartable::cli::Cli::parse();
    match wartable::cli::run(cli) {
        Ok(code) => code,
        Err(play) => wartable::app::run(*play),
    }
}
