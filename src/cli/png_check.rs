//! `wartable png-check`: is a screenshot there and not blank?

use std::path::Path;
use std::process::ExitCode;

/// Brightness statistics of an image.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PixelStats {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Mean brightness, 0-255.
    pub mean: f64,
    /// Standard deviation of brightness, 0-255.
    pub stddev: f64,
}

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

/// Brightness statistics of an image in memory.
pub fn stats_of(image: &image::DynamicImage) -> PixelStats {
    let img = image.to_luma8();
    let n = f64::from(img.width()) * f64::from(img.height());
    let (sum, sq) = img.pixels().fold((0.0, 0.0), |(s, q), p| {
        let v = f64::from(p.0[0]);
        (s + v, q + v * v)
    });
    let mean = sum / n.max(1.0);
    PixelStats {
        width: img.width(),
        height: img.height(),
        mean,
        stddev: (sq / n.max(1.0) - mean * mean).max(0.0).sqrt(),
    }
}

/// Below this brightness standard deviation an image counts as blank (0-255 scale).
pub const BLANK_STDDEV: f64 = 2.0;

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
            eprintln!(
                "{}: blank image: brightness stddev {:.2} is below {min_stddev}",
                path.display(),
                s.stddev
            );
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("{}: {e}", path.display());
            ExitCode::FAILURE
        }
    }
}
