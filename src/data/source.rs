//! Where data files come from: the disk, or the copy of `scenes/` embedded in the binary so the
//! default scene opens from any directory.

use std::path::{Component, Path, PathBuf};

use serde::de::DeserializeOwned;

use super::error::DataError;

include!(concat!(env!("OUT_DIR"), "/embedded_scenes.rs"));

/// Path of the default scene among the embedded files.
pub const DEFAULT_SCENE: &str = "scenes/default.ron";

/// Every embedded file: (path relative to the project root, contents).
pub fn embedded_files() -> &'static [(&'static str, &'static str)] {
    EMBEDDED_SCENES
}

/// Removes `.` and resolves `..` without touching the disk.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The embedded copy of `path`, matched on the part from `scenes/` on.
pub fn embedded(path: &Path) -> Option<&'static str> {
    let norm = normalize(path);
    let text = norm.to_string_lossy().replace('\\', "/");
    let key = match text.find("scenes/") {
        Some(i) if text.starts_with("scenes/") || text[..i].ends_with('/') => &text[i..],
        _ => text.as_str(),
    };
    EMBEDDED_SCENES
        .iter()
        .find(|(p, _)| *p == key)
        .map(|(_, t)| *t)
}

/// Reads a data file from disk, falling back to the embedded copy when the disk has none.
///
/// # Errors
/// [`DataError::Io`] naming the file when neither has it.
pub fn read(path: &Path) -> Result<String, DataError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(text),
        Err(e) => embedded(path).map(str::to_string).ok_or(DataError::Io {
            file: path.to_path_buf(),
            message: e.to_string(),
        }),
    }
}

/// The RON options every data file is read with (`implicit_some` on).
pub fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// Parses `text` (the contents of `file`) as `T`.
///
/// # Errors
/// [`DataError::Syntax`] with the file, line, column and what was expected.
pub fn parse<T: DeserializeOwned>(file: &Path, text: &str) -> Result<T, DataError> {
    ron_options()
        .from_str(text)
        .map_err(|e: ron::error::SpannedError| DataError::Syntax {
            file: file.to_path_buf(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        })
}

/// Reads and parses `file` as `T`.
///
/// # Errors
/// As [`read`] and [`parse`].
pub fn load<T: DeserializeOwned>(file: &Path) -> Result<T, DataError> {
    parse(file, &read(file)?)
}

/// `relative` resolved against the folder of `file`.
pub fn sibling(file: &Path, relative: &str) -> PathBuf {
    normalize(&file.parent().unwrap_or(Path::new("")).join(relative))
}
