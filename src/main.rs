//! wartable's entry point: parse the command line, run a headless command or open the app.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

/// mimalloc instead of the system allocator: the computer player copies games and builds
/// small lists by the thousand while it weighs a move, and glibc's malloc and free took
/// about a tenth of a `hard` game.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = match wartable::cli::Cli::try_parse() {
        Ok(cli) => cli,
        // Help, version or a usage error: clap's own exit would hide an unwritable stdout.
        Err(e) => return usage(&e),
    };
    match wartable::cli::run(cli) {
        Ok(code) => code,
        Err(play) => wartable::app::run(*play),
    }
}

/// Prints clap's message (help and version on stdout, errors on stderr) and gives its exit
/// code, or the output failure's code when the help or version cannot be written.
fn usage(e: &clap::Error) -> ExitCode {
    let printed = e.print().and_then(|()| {
        if e.use_stderr() {
            std::io::stderr().flush()
        } else {
            std::io::stdout().flush()
        }
    });
    match printed {
        Err(io) if !e.use_stderr() => wartable::cli::output_failed(&io),
        _ => ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2)),
    }
}
