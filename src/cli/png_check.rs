//! `wartable png-check`: is a screenshot there and not blank?

use std::path::Path;
use std::process::ExitCode;

/// The brightness statistics, computed by the app's screenshot code (which retries blank
/// captures) and shared here.
pub use crate::app::screenshot::{BLANK_STDDEV, PixelStats, stats_of};

/// The largest PNG `png-check` reads (bytes): 64 MiB.
pub const MAX_PNG_BYTES: u64 = 64 * 1024 * 1024;

/// Brightness statistics of the PNG at `path`, read only if it is a regular file of at most
/// [`MAX_PNG_BYTES`] (a FIFO or device is refused without blocking).
///
/// # Errors
/// The file is missing, not a regular file, too large, or not a readable image.
pub fn stats(path: &Path) -> Result<PixelStats, image::ImageError> {
    let bytes = crate::data::source::read_bytes(path, MAX_PNG_BYTES)
        .map_err(|e| image::ImageError::IoError(std::io::Error::other(e.to_string())))?;
    Ok(stats_of(&image::load_from_memory(&bytes)?))
}

/// Prints the statistics; fails when the file is missing or blank.
pub fn run(path: &Path, min_stddev: f64) -> ExitCode {
    match stats(path) {
        Ok(s) if s.stddev >= min_stddev => super::print_then(
            &format!(
                "{}: ok: {}x{}, mean brightness {:.1}, stddev {:.1}",
                path.display(),
                s.width,
                s.height,
                s.mean,
                s.stddev
            ),
            ExitCode::SUCCESS,
        ),
        Ok(s) => {
            stderr_line!(
                "{}: blank image: brightness stddev {:.2} is below {min_stddev}",
                path.display(),
                s.stddev
            );
            ExitCode::FAILURE
        }
        Err(e) => {
            stderr_line!("{}: {e}", path.display());
            ExitCode::FAILURE
        }
    }
}
