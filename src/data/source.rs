//! Where data files come from: the disk, or, for a path that asks for it explicitly
//! (`builtin:scenes/...`, as [`DEFAULT_SCENE`] does), the copy of `scenes/` embedded in the
//! binary so the default scene opens from any directory.
//!
//! Files on disk are read only when they are regular files of at most [`MAX_FILE_BYTES`]
//! bytes: a device (`/dev/zero`), a FIFO or a directory is refused before it is opened for
//! reading, and a missing file is an error naming it, never replaced by the embedded copy.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use serde::de::DeserializeOwned;

use super::error::DataError;

include!(concat!(env!("OUT_DIR"), "/embedded_scenes.rs"));

/// The prefix of a path naming a file of the copy of `scenes/` built into the binary, e.g.
/// `builtin:scenes/default.ron`; files it refers to resolve inside that copy too.
pub const BUILTIN_PREFIX: &str = "builtin:";

/// Path of the built-in default scene (what the scene name `default` means).
pub const DEFAULT_SCENE: &str = "builtin:scenes/default.ron";

/// The largest data file (RON) read from disk, in bytes: 16 MiB, far above any real scene,
/// army or save (the shipped files are under 100 KiB; a save of a long game under 1 MiB).
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Every embedded file: (path relative to the project root, contents).
pub fn embedded_files() -> &'static [(&'static str, &'static str)] {
    EMBEDDED_SCENES
}

/// Removes `.` and resolves `..` without touching the disk: `a/../b` is `b`, while a `..`
/// with nothing before it to cancel is kept (`../../x` stays `../../x`), and `/..` is `/`.
pub fn normalize(path: &Path) -> PathBuf {
    let mut parts: Vec<Component> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match parts.last() {
                Some(Component::Normal(_)) => {
                    parts.pop();
                }
                Some(Component::RootDir) => {}
                _ => parts.push(c),
            },
            other => parts.push(other),
        }
    }
    parts.iter().collect()
}

/// `path` with forward slashes, as the embedded table and save files spell paths.
fn slashed(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// The path of the built-in copy of `key` (a path under the project root such as
/// `scenes/layouts/layout-1.ron`): `builtin:` followed by `key`.
pub fn builtin_path(key: &str) -> PathBuf {
    PathBuf::from(format!("{BUILTIN_PREFIX}{key}"))
}

/// For a `builtin:` path, the normalized part after the prefix (`scenes/default.ron`); None
/// for a path on disk.
pub fn builtin_key(path: &Path) -> Option<String> {
    let rest = path.to_str()?.strip_prefix(BUILTIN_PREFIX)?;
    Some(slashed(&normalize(Path::new(rest))))
}

/// The shipped file `key` (e.g. `scenes/layouts/layout-1.ron`, as [`embedded_files`] names
/// it): the file on disk, relative to the working directory, when it is a regular file there,
/// else its built-in copy ([`builtin_path`]). For callers offering the shipped files by name.
pub fn shipped(key: &str) -> PathBuf {
    if Path::new(key).is_file() {
        PathBuf::from(key)
    } else {
        builtin_path(key)
    }
}

/// The embedded copy of `path`: a `builtin:` path, or a path spelled exactly as the embedded
/// table spells it (`scenes/default.ron`). Never matched on a suffix: `x/scenes/default.ron`
/// has none.
pub fn embedded(path: &Path) -> Option<&'static str> {
    let key = builtin_key(path).unwrap_or_else(|| slashed(&normalize(path)));
    EMBEDDED_SCENES
        .iter()
        .find(|(p, _)| *p == key)
        .map(|(_, t)| *t)
}

/// Says on stderr, once per process, that built-in files are read instead of the disk.
fn note_builtin(path: &Path) {
    static NOTED: std::sync::Once = std::sync::Once::new();
    NOTED.call_once(|| {
        stderr_line!(
            "note: {}: using the copy of scenes/ built into wartable (name a file on disk to \
             use your own)",
            path.display()
        );
    });
}

/// Reads the regular file `path`, refusing other kinds of file before opening them (opening a
/// FIFO blocks) and anything longer than `limit` bytes (read at most `limit + 1` bytes, so a
/// file that grows while it is read is still bounded).
///
/// # Errors
/// [`DataError::Io`] naming the file: missing, unreadable, not a regular file, longer than
/// `limit`.
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, DataError> {
    let io = |message: String| DataError::Io {
        file: path.to_path_buf(),
        message,
    };
    let refuse = |t: std::fs::FileType| {
        io(format!(
            "it is {}; only regular files are read",
            super::write::kind_name(t)
        ))
    };
    let too_big = |len: u64| {
        io(format!(
            "the file is {len} bytes or more; the limit is {limit} bytes ({} MiB)",
            limit / (1024 * 1024)
        ))
    };
    let meta = std::fs::metadata(path).map_err(|e| io(e.to_string()))?;
    if !meta.is_file() {
        return Err(refuse(meta.file_type()));
    }
    if meta.len() > limit {
        return Err(too_big(meta.len()));
    }
    let file = std::fs::File::open(path).map_err(|e| io(e.to_string()))?;
    // The path may have been replaced between the two looks: check what was opened.
    let opened = file.metadata().map_err(|e| io(e.to_string()))?;
    if !opened.is_file() {
        return Err(refuse(opened.file_type()));
    }
    let mut bytes = Vec::with_capacity(opened.len().min(limit) as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io(e.to_string()))?;
    if bytes.len() as u64 > limit {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

/// Reads a data file: a `builtin:` path from the embedded copy (saying so once on stderr),
/// any other path from disk as [`read_bytes`] with [`MAX_FILE_BYTES`], as UTF-8 text.
///
/// # Errors
/// [`DataError::Io`] naming the file: missing (on disk or among the built-in files), not a
/// regular file, too long, or not UTF-8.
pub fn read(path: &Path) -> Result<String, DataError> {
    if let Some(key) = builtin_key(path) {
        let text = embedded(path).ok_or_else(|| DataError::Io {
            file: path.to_path_buf(),
            message: format!("{key} is not one of the files built into wartable"),
        })?;
        note_builtin(path);
        return Ok(text.to_string());
    }
    String::from_utf8(read_bytes(path, MAX_FILE_BYTES)?).map_err(|e| DataError::Io {
        file: path.to_path_buf(),
        message: format!("not UTF-8 text: {e}"),
    })
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

/// `relative` resolved against the folder of `file`. A `builtin:` reference stays one, and a
/// relative reference from a built-in file stays inside the built-in copy.
pub fn sibling(file: &Path, relative: &str) -> PathBuf {
    if let Some(rest) = relative.strip_prefix(BUILTIN_PREFIX) {
        return builtin_path(&slashed(&normalize(Path::new(rest))));
    }
    if let Some(key) = builtin_key(file)
        && Path::new(relative).is_relative()
    {
        let base = Path::new(&key).parent().unwrap_or(Path::new(""));
        return builtin_path(&slashed(&normalize(&base.join(relative))));
    }
    normalize(&file.parent().unwrap_or(Path::new("")).join(relative))
}

/// `target` written relative to the folder `from` (both made absolute first), for the scene
/// path of a save; falls back to `target` as given. A `builtin:` path (a file built into the
/// binary, [`BUILTIN_PREFIX`]) is written as it is.
pub fn relative_path(target: &Path, from: &Path) -> String {
    if let Some(key) = builtin_key(target) {
        return format!("{}{key}", BUILTIN_PREFIX);
    }
    let (Ok(t), Ok(f)) = (target.canonicalize(), from.canonicalize()) else {
        return target.to_string_lossy().into_owned();
    };
    let tc: Vec<Component> = t.components().collect();
    let fc: Vec<Component> = f.components().collect();
    let common = tc.iter().zip(&fc).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..fc.len() {
        out.push("..");
    }
    for c in &tc[common..] {
        out.push(c);
    }
    out.to_string_lossy().replace('\\', "/")
}

/// A file name or id from a display name: ASCII lower-case letters and digits, every other
/// run of characters one `-`; `fallback` when nothing is left.
pub fn slug(name: &str, fallback: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        // Accented Latin letters keep their letter ("Khârn" is "kharn").
        let c = match c {
            'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'À' | 'Á' | 'Â' | 'Ã' | 'Ä' | 'Å' => {
                'a'
            }
            'è' | 'é' | 'ê' | 'ë' | 'È' | 'É' | 'Ê' | 'Ë' => 'e',
            'ì' | 'í' | 'î' | 'ï' | 'Ì' | 'Í' | 'Î' | 'Ï' => 'i',
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'Ò' | 'Ó' | 'Ô' | 'Õ' | 'Ö' => 'o',
            'ù' | 'ú' | 'û' | 'ü' | 'Ù' | 'Ú' | 'Û' | 'Ü' => 'u',
            'ç' | 'Ç' => 'c',
            'ñ' | 'Ñ' => 'n',
            c => c,
        };
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_matches('-').to_string();
    if out.is_empty() {
        fallback.to_string()
    } else {
        out
    }
}

/// An id not yet used by `taken`: `wanted`, else `wanted-2`, `wanted-3`... Linear in the
/// ids taken (they are hashed once); for many ids in a row use [`IdMaker`].
pub fn unique_id<'a>(wanted: &str, taken: impl Iterator<Item = &'a str> + Clone) -> String {
    let taken: std::collections::HashSet<&str> = taken.collect();
    if !taken.contains(wanted) {
        return wanted.to_string();
    }
    (2..)
        .map(|n| format!("{wanted}-{n}"))
        .find(|c| !taken.contains(c.as_str()))
        .expect("some suffix is free")
}

/// Makes ids unique as they come, as [`unique_id`] would one by one, in constant expected
/// time per id (each name remembers the next suffix to try).
#[derive(Debug, Clone, Default)]
pub struct IdMaker {
    taken: std::collections::HashSet<String>,
    next: std::collections::HashMap<String, u64>,
}

impl IdMaker {
    /// `wanted` if not made yet, else `wanted-N` with the smallest free N from 2; remembered.
    pub fn make(&mut self, wanted: &str) -> String {
        let id = if self.taken.contains(wanted) {
            let n = self.next.entry(wanted.to_string()).or_insert(2);
            loop {
                let c = format!("{wanted}-{n}");
                *n += 1;
                if !self.taken.contains(&c) {
                    break c;
                }
            }
        } else {
            wanted.to_string()
        };
        self.taken.insert(id.clone());
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(p: &str) -> String {
        slashed(&normalize(Path::new(p)))
    }

    #[test]
    fn normalize_keeps_every_leading_parent() {
        assert_eq!(n("../../x.ron"), "../../x.ron");
        assert_eq!(n("a/../../x.ron"), "../x.ron");
        assert_eq!(n("a/b/../../../../x.ron"), "../../x.ron");
        assert_eq!(n("saves/../../scenes/default.ron"), "../scenes/default.ron");
        assert_eq!(n("../.././../x"), "../../../x");
    }

    #[test]
    fn normalize_resolves_inner_parents_and_dots() {
        assert_eq!(n("a/./b/../c.ron"), "a/c.ron");
        assert_eq!(n("./a/b/.."), "a");
        assert_eq!(n("a/.."), "");
        assert_eq!(n("/a/../../b"), "/b");
        assert_eq!(n("/.."), "/");
    }

    #[test]
    fn sibling_from_a_subdirectory_climbs_as_far_as_asked() {
        let s = sibling(Path::new("sub/game.save.ron"), "../../scenes/default.ron");
        assert_eq!(slashed(&s), "../scenes/default.ron");
        let s = sibling(Path::new("game.save.ron"), "../../scenes/layout-3.ron");
        assert_eq!(slashed(&s), "../../scenes/layout-3.ron");
    }

    #[test]
    fn builtin_references_stay_builtin() {
        let layout = sibling(Path::new(DEFAULT_SCENE), "layouts/layout-1.ron");
        assert_eq!(slashed(&layout), "builtin:scenes/layouts/layout-1.ron");
        let sheets = sibling(Path::new("builtin:scenes/armies/orks.ron"), "../x/./y.ron");
        assert_eq!(slashed(&sheets), "builtin:scenes/x/y.ron");
        let from_disk = sibling(
            Path::new("saves/a.save.ron"),
            "builtin:scenes/./default.ron",
        );
        assert_eq!(from_disk, PathBuf::from(DEFAULT_SCENE));
        assert!(embedded(Path::new(DEFAULT_SCENE)).is_some());
        assert!(embedded(Path::new("x/scenes/default.ron")).is_none());
    }
}
