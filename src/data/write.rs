//! The one way files are written: into the folder the user named, never over an existing file
//! unless asked, never through a symbolic link, whole or not at all.
//!
//! Every command that writes (`import`, `datasheets`, `run --save`, `undo`, the layout editor,
//! the desktop's autosave) goes through [`write_file`]: the target is checked first (a device, a
//! FIFO, a folder or a symbolic link in its place is refused; an existing file is kept unless
//! [`Overwrite::Replace`]), then the text goes to a fresh temporary file beside it, created
//! exclusively (`O_CREAT | O_EXCL`, which never follows a symbolic link), flushed to disk and
//! renamed over the target. A crash at any moment leaves the old file or the new one whole.
//!
//! File names taken from data (a catalogue's faction, a roster's name) pass [`safe_file_name`]
//! first: no separators, no `..`, nothing absolute or reserved.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Whether [`write_file`] may replace a regular file that is already there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overwrite {
    /// An existing file is an error ("pass --force to replace it"); nothing is written.
    Refuse,
    /// An existing regular file is replaced (the user asked: `--force`, the menu's
    /// confirmation, or a save the command was told to update).
    Replace,
}

impl Overwrite {
    /// [`Overwrite::Replace`] when `force`, else [`Overwrite::Refuse`].
    pub fn when(force: bool) -> Self {
        if force {
            Overwrite::Replace
        } else {
            Overwrite::Refuse
        }
    }
}

/// Why a file was not written. The message names the path.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// Something other than a regular file is at the target.
    #[error(
        "{}: not written: it is {kind}; only a regular file is ever replaced",
        file.display()
    )]
    NotRegular {
        /// The target.
        file: PathBuf,
        /// What is there ("a FIFO (named pipe)", "a symbolic link").
        kind: &'static str,
    },
    /// A file is already there and replacing it was not asked for.
    #[error(
        "{}: already exists and is kept; nothing written (--force, or the menu's Replace, \
         replaces it)",
        file.display()
    )]
    Exists {
        /// The target.
        file: PathBuf,
    },
    /// A name taken from data cannot name a file in the folder.
    #[error("{name:?} cannot name a file: {why}")]
    BadName {
        /// The name.
        name: String,
        /// Why not.
        why: &'static str,
    },
    /// What was to be written does not load back; nothing was replaced.
    #[error("{}: not written: what would be written does not load: {message}", file.display())]
    Check {
        /// The target.
        file: PathBuf,
        /// Why it does not load.
        message: String,
    },
    /// The file system refused.
    #[error("{}: cannot be written: {source}", file.display())]
    Io {
        /// The path the operation failed on.
        file: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
}

impl From<WriteError> for String {
    fn from(e: WriteError) -> Self {
        e.to_string()
    }
}

/// What kind of file `t` is, in words, for a refusal.
pub fn kind_name(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_symlink() {
        "a symbolic link"
    } else if t.is_dir() {
        "a directory"
    } else if t.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

/// Checks that `file` may be written with `overwrite`: nothing there, or (with
/// [`Overwrite::Replace`]) a regular file. The target itself is looked at, not what a
/// symbolic link there points to.
///
/// # Errors
/// [`WriteError::NotRegular`], [`WriteError::Exists`], or [`WriteError::Io`] when the target
/// cannot be looked at.
pub fn check_target(file: &Path, overwrite: Overwrite) -> Result<(), WriteError> {
    match std::fs::symlink_metadata(file) {
        Ok(meta) if !meta.file_type().is_file() => Err(WriteError::NotRegular {
            file: file.to_path_buf(),
            kind: kind_name(meta.file_type()),
        }),
        Ok(_) if overwrite == Overwrite::Refuse => Err(WriteError::Exists {
            file: file.to_path_buf(),
        }),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(source) => Err(WriteError::Io {
            file: file.to_path_buf(),
            source,
        }),
    }
}

/// Names that Windows reserves in every folder (with any extension).
const RESERVED: [&str; 22] = [
    "con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8",
    "com9", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
];

/// The longest file name written, in bytes (most file systems allow 255).
pub const MAX_FILE_NAME_BYTES: usize = 200;

/// Checks that `name`, taken from data, names a file directly inside a folder: not empty, no
/// `/`, `\` or NUL, not `.` or `..`, not starting with `.` or `-`, not a reserved device name
/// (`CON`, `NUL`, `COM1`... with any extension), at most [`MAX_FILE_NAME_BYTES`] bytes.
///
/// # Errors
/// [`WriteError::BadName`] saying which.
pub fn safe_file_name(name: &str) -> Result<&str, WriteError> {
    let bad = |why| {
        Err(WriteError::BadName {
            name: name.chars().take(80).collect(),
            why,
        })
    };
    if name.is_empty() {
        return bad("it is empty");
    }
    if name.len() > MAX_FILE_NAME_BYTES {
        return bad("it is too long");
    }
    if name.contains(['/', '\\', '\0']) {
        return bad("it holds a path separator or NUL");
    }
    if name == "." || name == ".." || name.starts_with('.') || name.starts_with('-') {
        return bad("it starts with '.' or '-'");
    }
    let stem = name.split('.').next().unwrap_or(name).to_ascii_lowercase();
    if RESERVED.contains(&stem.as_str()) {
        return bad("it is a reserved device name");
    }
    Ok(name)
}

/// `folder/name`, `name` checked with [`safe_file_name`].
///
/// # Errors
/// As [`safe_file_name`].
pub fn file_in(folder: &Path, name: &str) -> Result<PathBuf, WriteError> {
    Ok(folder.join(safe_file_name(name)?))
}

/// Writes `text` to `file` whole or not at all (see the module documentation): the target
/// checked with [`check_target`], the text written to a fresh temporary file beside it
/// (created exclusively, so a symbolic link or any file already at that name is never
/// followed or truncated), flushed, then renamed over `file`. The folder must exist.
///
/// # Errors
/// As [`check_target`]; [`WriteError::Io`] when the temporary file cannot be made or written,
/// or the rename fails (the temporary file is removed then).
pub fn write_file(
    file: &Path,
    contents: impl AsRef<[u8]>,
    overwrite: Overwrite,
) -> Result<(), WriteError> {
    write_file_checked(file, contents, overwrite, |_| Ok(()))
}

/// Writes an 8-bit RGB image (`rgb`: `width * height * 3` bytes, rows top to bottom) as a PNG
/// file through [`write_file`], replacing an earlier image at `file` (a picture is an output
/// the user names to have it made again) but never a device, FIFO, folder or link.
///
/// # Errors
/// The image cannot be encoded (the sizes do not match), or [`write_file`]'s errors.
pub fn write_png(file: &Path, width: u32, height: u32, rgb: &[u8]) -> Result<(), WriteError> {
    use image::ImageEncoder;
    let mut png = Vec::new();
    image::codecs::png::PngEncoder::new(&mut png)
        .write_image(rgb, width, height, image::ExtendedColorType::Rgb8)
        .map_err(|e| WriteError::Io {
            file: file.to_path_buf(),
            source: std::io::Error::other(e),
        })?;
    write_file(file, png, Overwrite::Replace)
}

/// As [`write_file`], with `check` run on the temporary file once it is written and flushed
/// (it sits in the target's folder, so relative paths in it resolve as they will): the
/// target is replaced only when `check` accepts, and the old file stays whole otherwise.
///
/// # Errors
/// As [`write_file`]; [`WriteError::Check`] with `check`'s message.
pub fn write_file_checked(
    file: &Path,
    contents: impl AsRef<[u8]>,
    overwrite: Overwrite,
    check: impl FnOnce(&Path) -> Result<(), String>,
) -> Result<(), WriteError> {
    check_target(file, overwrite)?;
    let io = |f: &Path| {
        let f = f.to_path_buf();
        move |source| WriteError::Io { file: f, source }
    };
    let (tmp, mut out) = temporary_beside(file).map_err(io(file))?;
    let written = out
        .write_all(contents.as_ref())
        .and_then(|()| out.sync_all());
    drop(out);
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(io(&tmp)(e));
    }
    if let Err(message) = check(&tmp) {
        let _ = std::fs::remove_file(&tmp);
        return Err(WriteError::Check {
            file: file.to_path_buf(),
            message,
        });
    }
    // Looked at again just before the rename: a FIFO or link put there meanwhile is kept.
    if let Err(e) = check_target(file, Overwrite::Replace) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    std::fs::rename(&tmp, file).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io(file)(e)
    })
}

/// A new temporary file beside `file` (`.NAME.PID-N.tmp`), created exclusively.
fn temporary_beside(file: &Path) -> std::io::Result<(PathBuf, std::fs::File)> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let folder = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = file
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy());
    let mut last = None;
    for _ in 0..64 {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let tmp = folder.join(format!(".{name}.{}-{n}.tmp", std::process::id()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no free temporary name")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("wartable-write-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn names_from_data_stay_in_the_folder() {
        for bad in [
            "",
            "../orks.ron",
            "/etc/passwd",
            "a/b.ron",
            "..",
            ".hidden",
            "NUL.ron",
            "com1",
        ] {
            assert!(safe_file_name(bad).is_err(), "{bad:?} accepted");
        }
        assert_eq!(safe_file_name("orks.ron").unwrap(), "orks.ron");
    }

    #[test]
    fn an_existing_file_is_kept_unless_replacing_is_asked() {
        let d = dir("exists");
        let f = d.join("army.ron");
        std::fs::write(&f, "old").unwrap();
        assert!(matches!(
            write_file(&f, "new", Overwrite::Refuse),
            Err(WriteError::Exists { .. })
        ));
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "old");
        write_file(&f, "new", Overwrite::Replace).unwrap();
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "new");
        assert_eq!(
            std::fs::read_dir(&d).unwrap().count(),
            1,
            "no temporary left"
        );
        std::fs::remove_dir_all(d).ok();
    }

    #[test]
    fn what_does_not_load_never_replaces_the_old_file() {
        let d = dir("checked");
        let f = d.join("army.ron");
        std::fs::write(&f, "old").unwrap();
        let e = write_file_checked(&f, "broken", Overwrite::Replace, |tmp| {
            let text = std::fs::read_to_string(tmp).unwrap();
            Err(format!("'{text}' does not load"))
        })
        .unwrap_err();
        assert!(matches!(e, WriteError::Check { .. }), "{e}");
        assert!(e.to_string().contains("'broken' does not load"), "{e}");
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "old");
        assert_eq!(
            std::fs::read_dir(&d).unwrap().count(),
            1,
            "no temporary left"
        );
        std::fs::remove_dir_all(d).ok();
    }

    #[cfg(unix)]
    #[test]
    fn symbolic_links_are_never_followed() {
        let d = dir("links");
        let notes = d.join("notes.txt");
        std::fs::write(&notes, "keep me").unwrap();
        // A link at the target is refused even with Replace.
        let target = d.join("game.ron");
        std::os::unix::fs::symlink(&notes, &target).unwrap();
        assert!(matches!(
            write_file(&target, "x", Overwrite::Replace),
            Err(WriteError::NotRegular { .. })
        ));
        // Links at every temporary name of the old scheme change nothing.
        std::os::unix::fs::symlink(&notes, d.join("save.ron.tmp")).unwrap();
        std::os::unix::fs::symlink(&notes, d.join("save.ron.part")).unwrap();
        write_file(&d.join("save.ron"), "saved", Overwrite::Refuse).unwrap();
        assert_eq!(std::fs::read_to_string(&notes).unwrap(), "keep me");
        assert_eq!(
            std::fs::read_to_string(d.join("save.ron")).unwrap(),
            "saved"
        );
        std::fs::remove_dir_all(d).ok();
    }
}
