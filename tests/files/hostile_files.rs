//! Hostile input files: devices, FIFOs and huge files are refused at once, `..` in paths is
//! resolved lexically (a leading `..` after another one is kept), and the copy of `scenes/`
//! built into the binary stands in for nothing but the `default` scene and `builtin:` paths.
//! Unix only: the runs go through `sh` (for `ulimit`) and FIFOs come from `mkfifo`.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Command as Process, Output, Stdio};
use std::time::{Duration, Instant};

use wartable::data::load_scene;
use wartable::data::source::{self, DEFAULT_SCENE, MAX_FILE_BYTES};
use wartable::game::save::{SaveFile, load_save, write_save};
use wartable::game::{Command, Game};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh, empty folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wartable-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Copies the folder `from` into `to`, recursively.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Runs wartable in `cwd` under a 2 GiB address-space limit (so a read without limit fails
/// instead of filling the machine), killing it after `deadline`. None if it was killed.
fn wartable_within(cwd: &Path, args: &[&str], deadline: Duration) -> Option<Output> {
    let mut child = Process::new("sh")
        .arg("-c")
        .arg("ulimit -v 2097152; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_wartable"))
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Drain both pipes while waiting, so a long output cannot stall the child.
    let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Some(Output {
        status,
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    })
}

/// Runs wartable in `cwd`; returns (success, stdout, stderr).
fn wartable(cwd: &Path, args: &[&str]) -> (bool, String, String) {
    let out = wartable_within(cwd, args, Duration::from_secs(120)).expect("wartable hung");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn dev_zero_and_dev_urandom_are_refused_at_once() {
    for device in ["/dev/zero", "/dev/urandom"] {
        let out = wartable_within(
            Path::new("/"),
            &["validate", device],
            Duration::from_secs(20),
        )
        .unwrap_or_else(|| panic!("validate {device} never ended"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert!(
            err.contains(&format!("{device}: cannot read file"))
                && err.contains("character device")
                && err.contains("only regular files"),
            "{err}"
        );
    }
}

#[test]
fn a_fifo_is_refused_without_blocking() {
    let dir = temp_dir("fifo");
    let fifo = dir.join("scene.ron");
    assert!(
        Process::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let fifo_arg = fifo.to_str().unwrap();
    for args in [
        vec!["validate", fifo_arg],
        vec!["scene", fifo_arg, "--json"],
        vec!["replay", fifo_arg],
    ] {
        let out = wartable_within(&dir, &args, Duration::from_secs(20))
            .unwrap_or_else(|| panic!("{args:?} blocked on the FIFO"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(
            err.contains(fifo_arg) && err.contains("FIFO"),
            "{args:?}: {err}"
        );
    }
    let e = source::read(&fifo).unwrap_err().to_string();
    assert!(e.contains("FIFO"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_over_the_size_limit_is_refused_naming_the_limit() {
    assert_eq!(MAX_FILE_BYTES, 16 * 1024 * 1024);
    let dir = temp_dir("big");
    let big = dir.join("big.ron");
    // Sparse: takes no room on disk.
    std::fs::File::create(&big)
        .unwrap()
        .set_len(MAX_FILE_BYTES + 1)
        .unwrap();
    let (ok, _, err) = wartable(&dir, &["validate", "big.ron"]);
    assert!(!ok);
    assert!(
        err.contains("big.ron: cannot read file")
            && err.contains("limit")
            && err.contains("16 MiB"),
        "{err}"
    );
    // A file of exactly the limit is read (and then fails as RON, not as too long).
    std::fs::File::create(&big)
        .unwrap()
        .set_len(MAX_FILE_BYTES)
        .unwrap();
    let e = source::read_bytes(&big, MAX_FILE_BYTES).map(|b| b.len());
    assert_eq!(e.unwrap() as u64, MAX_FILE_BYTES);
    let e = source::read_bytes(&big, 1000).unwrap_err().to_string();
    assert!(e.contains("limit is 1000 bytes"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A copy of the shipped scenes/ under `base`, its layout 1 renamed "Hostile copy".
fn scenes_copy(base: &Path) -> PathBuf {
    let scenes = base.join("scenes");
    copy_tree(&root().join("scenes"), &scenes);
    let layout = scenes.join("layouts/layout-1.ron");
    let text = std::fs::read_to_string(&layout).unwrap().replacen(
        "name: \"Chapter Approved 2025-26 Layout 1\"",
        "name: \"Hostile copy\"",
        1,
    );
    std::fs::write(&layout, text).unwrap();
    scenes
}

#[test]
fn a_scene_read_from_two_folders_up_loads_its_own_layout() {
    let base = temp_dir("up");
    scenes_copy(&base);
    let cwd = base.join("a/b");
    std::fs::create_dir_all(&cwd).unwrap();
    let (ok, out, err) = wartable(&cwd, &["scene", "../../scenes/default.ron", "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["layout"], "Hostile copy", "the layout beside the scene");
    let (ok, out, err) = wartable(&cwd, &["validate", "../../scenes/default.ron"]);
    assert!(ok && out.contains("ok"), "{err}");
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn a_save_read_from_a_subdirectory_replays_against_its_own_scene() {
    let base = temp_dir("save-up");
    let scenes = scenes_copy(&base);
    // The copy's default scene is another one, so the two cannot be mistaken.
    std::fs::copy(scenes.join("layout-3.ron"), scenes.join("default.ron")).unwrap();
    std::fs::create_dir_all(base.join("s/t")).unwrap();
    let save = SaveFile::new("../scenes/default.ron", 7, Vec::new());
    write_save(&base.join("s/g.save.ron"), &save).unwrap();
    let own = Game::start(load_scene(&scenes.join("default.ron")).unwrap(), 7).0;
    let built_in = Game::start(load_scene(Path::new(DEFAULT_SCENE)).unwrap(), 7).0;
    assert_ne!(own.state_hash(), built_in.state_hash());
    let (ok, out, err) = wartable(&base.join("s/t"), &["replay", "../g.save.ron"]);
    assert!(ok, "{err}");
    assert!(
        out.contains(&format!("state {}", own.state_hash())),
        "replayed against the wrong scene: {out}"
    );
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn a_missing_scene_is_an_error_naming_it_not_the_built_in_copy() {
    let base = temp_dir("missing");
    let missing = base.join("nowhere/scenes/default.ron");
    let e = load_scene(&missing).unwrap_err().to_string();
    assert!(
        e.contains(&format!("{}: cannot read file", missing.display())),
        "{e}"
    );
    // Not even a project-relative spelling of a shipped file, outside the project.
    let (ok, _, err) = wartable(&base, &["validate", "scenes/default.ron"]);
    assert!(!ok);
    assert!(
        err.contains("scenes/default.ron: cannot read file"),
        "{err}"
    );
    let (ok, _, err) = wartable(&base, &["scene", "scenes/layout-3.ron", "--json"]);
    assert!(!ok, "{err}");
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn a_directory_named_like_a_shipped_file_is_refused() {
    let base = temp_dir("dir");
    let dir = base.join("x/scenes/default.ron");
    std::fs::create_dir_all(&dir).unwrap();
    let (ok, _, err) = wartable(&base, &["validate", "x/scenes/default.ron"]);
    assert!(!ok);
    assert!(
        err.contains("x/scenes/default.ron: cannot read file") && err.contains("a directory"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn a_save_whose_scene_is_missing_is_refused_by_replay_and_undo() {
    let base = temp_dir("save-missing");
    let commands: Vec<Command> = source::load(&root().join("tests/games/full-game.commands.ron"))
        .expect("the full game's commands");
    let file = base.join("saves/g.save.ron");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    // What the desktop app used to write when run outside the project folder.
    let save = SaveFile::new("scenes/default.ron", 7, commands[..1].to_vec());
    write_save(&file, &save).unwrap();
    let before = std::fs::read_to_string(&file).unwrap();
    for cmd in ["replay", "undo"] {
        let (ok, _, err) = wartable(&base, &[cmd, "saves/g.save.ron"]);
        assert!(!ok, "{cmd} used another scene");
        assert!(
            err.contains("saves/scenes/default.ron: cannot read file"),
            "{cmd}: {err}"
        );
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
    assert!(load_save(&file).is_err());
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn the_default_scene_name_uses_the_built_in_copy_and_says_so() {
    let base = temp_dir("default");
    let (ok, out, err) = wartable(&base, &["scene", "default", "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["name"], "Layout 1 - Search and Destroy");
    assert!(
        err.contains("builtin:scenes/default.ron") && err.contains("built into wartable"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn builtin_paths_name_the_embedded_copy_and_nothing_else() {
    let scene = load_scene(Path::new(DEFAULT_SCENE)).unwrap();
    assert_eq!(scene.layout.pieces.len(), 16);
    assert_eq!(scene.armies.len(), 2);
    // A save anywhere may refer to it explicitly.
    let base = temp_dir("builtin");
    let file = base.join("g.save.ron");
    let save = SaveFile::new(DEFAULT_SCENE, 7, Vec::new());
    write_save(&file, &save).unwrap();
    let (game, _) = load_save(&file).unwrap();
    assert_eq!(game.state_hash(), Game::start(scene, 7).0.state_hash());
    let e = source::read(Path::new("builtin:scenes/nope.ron"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("not one of the files built into wartable"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&base);
}

/// A file that a scene or an army names but that cannot be read is an error of the naming
/// file too, at the line and column of the name (found by the fuzz suite: the error named
/// only the missing file, not the file that refers to it).
#[test]
fn a_missing_referenced_file_is_named_where_it_is_referred_to() {
    use wartable::data::load_army;
    let base = temp_dir("referred");
    let scenes = scenes_copy(&base);
    std::fs::remove_file(scenes.join("deployments/search-and-destroy.ron")).unwrap();
    let errors = load_scene(&scenes.join("default.ron"))
        .unwrap_err()
        .to_string();
    let first = errors.lines().next().unwrap();
    assert!(
        first.contains("default.ron:") && first.contains("deployment map file"),
        "{errors}"
    );
    std::fs::remove_file(scenes.join("datasheets/orks.ron")).unwrap();
    let errors = load_army(&scenes.join("armies/orks.ron"), 2)
        .unwrap_err()
        .to_string();
    let first = errors.lines().next().unwrap();
    assert!(
        first.contains("orks.ron:") && first.contains("datasheets file"),
        "{errors}"
    );
    let _ = std::fs::remove_dir_all(&base);
}
