//! Hostile files and arguments, second round: names taken from data never make paths, the
//! converter reads `.git` itself and runs no program, writes never follow a symbolic link or
//! replace a file nobody asked to replace, readers are bounded (zip bombs, zips of many
//! entries, deep XML, link loops, FIFOs, devices), counts from files are summed without
//! overflow, an unwritable standard error is no panic, and ids and name searches stay linear.
//! Every run has a wall-clock limit and writes only under the system's temporary folder.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use wartable::data::roster::{self, MAX_INFLATED_BYTES};
use wartable::data::write::{Overwrite, safe_file_name};
use wartable::game::save::{SaveFile, write_save};

// The process helpers the first round's CLI tests already have.
use crate::hostile_cli::{assert_no_panic, finish, root, wartable};

/// The longest any run here may take.
const LIMIT: Duration = Duration::from_secs(60);

/// The Space Wolves app export (imports with `--allow-partial` against scenes/datasheets).
const SAMPLE: &str = "tests/rosters/space-wolves-1990.txt";

/// An Orks list in the app's text export, resolvable against scenes/datasheets/orks.ron.
#[cfg(unix)]
const ORKS_TEXT: &str = concat!(
    "Round two (85 Points)\n\nOrks\nWar Horde\nStrike Force (2,000 Points)\n\n",
    "BATTLELINE\n\nBoyz (85 Points)\n  • 1x Boss Nob\n  • 9x Boyz\n",
);

/// The first four commands of the committed full game (seed 7, scenes/default.ron).
const FOUR_DEPLOYS: &str = concat!(
    "[\n",
    "  Deploy(player: 2, unit: \"boyz-mob\", models: [], transport: None),\n",
    "  Deploy(player: 1, unit: \"intercessors\", models: [], transport: None),\n",
    "  Deploy(player: 2, unit: \"shoota-boyz\", models: [], transport: None),\n",
    "  Deploy(player: 1, unit: \"assault-intercessors\", models: [], transport: None),\n",
    "]\n",
);

/// A fresh, empty folder for one test, under the system's temporary folder.
fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wartable-round2-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `args` with both outputs captured, within `limit`: (exit code, stdout, stderr).
fn captured(args: &[&str], limit: Duration) -> (i32, String, String) {
    let mut child = wartable(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        out.read_to_string(&mut s).ok();
        s
    });
    let mut err = child.stderr.take().unwrap();
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        err.read_to_string(&mut s).ok();
        s
    });
    let (rc, _) = finish(child, limit, &args.join(" "));
    (rc, reader.join().unwrap(), err_reader.join().unwrap())
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

#[cfg(unix)]
fn is_fifo(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path)
        .unwrap()
        .file_type()
        .is_fifo()
}

#[cfg(unix)]
fn is_symlink(path: &Path) -> bool {
    std::fs::symlink_metadata(path)
        .unwrap()
        .file_type()
        .is_symlink()
}

/// A folder under `base` holding only a copy of the shipped Orks datasheets.
fn orks_datasheets(base: &Path) -> PathBuf {
    let d = base.join("datasheets");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::copy(
        root().join("scenes/datasheets/orks.ron"),
        d.join("orks.ron"),
    )
    .unwrap();
    d
}

/// A zip of `entries` (name, bytes), each compressed with `method`.
fn zip_of(entries: &[(&str, &[u8])], method: zip::CompressionMethod) -> Vec<u8> {
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let mut o = zip::write::SimpleFileOptions::default().compression_method(method);
    if method == zip::CompressionMethod::Deflated {
        // The fastest level: the bomb's spaces shrink a thousandfold at any level.
        o = o.compression_level(Some(1));
    }
    for (name, bytes) in entries {
        z.start_file(*name, o).unwrap();
        z.write_all(bytes).unwrap();
    }
    z.finish().unwrap().into_inner()
}

// Finding: a catalogue's faction name became the output file name as it was, so a faction
// called "../../scenes/armies/orks" wrote outside the output folder.
#[test]
fn faction_names_become_slugs_and_unsafe_file_names_are_refused() {
    use wartable::data::bsdata::faction_file_stem;
    assert_eq!(
        faction_file_stem("../../scenes/armies/orks"),
        "scenes-armies-orks"
    );
    assert_eq!(faction_file_stem("/etc/x"), "etc-x");
    assert_eq!(faction_file_stem("T'au Empire"), "tau-empire");
    assert_eq!(faction_file_stem("T\u{2019}au Empire"), "tau-empire");
    for hostile in ["", "..", ".", "/", "C:\\Windows\\x", "a\0b", "-rf"] {
        let stem = faction_file_stem(hostile);
        let name = format!("{stem}.ron");
        assert!(
            safe_file_name(&name).is_ok(),
            "{hostile:?} gave the unsafe name {name:?}"
        );
    }
    for bad in [
        "", "../x", "/abs", "a/b", "..", ".hidden", "NUL.ron", "com1", "a\\b",
    ] {
        assert!(safe_file_name(bad).is_err(), "{bad:?} accepted");
    }
    assert_eq!(safe_file_name("orks.ron").unwrap(), "orks.ron");
}

const HASH: &str = "0123456789abcdef0123456789abcdef01234567";
const PACKED: &str = "fedcba9876543210fedcba9876543210fedcba98";

/// A fake checkout under `base`: `.git/HEAD` holding `head`, and `.git/refs/heads/`.
fn fake_checkout(base: &Path, name: &str, head: &str) -> PathBuf {
    let c = base.join(name);
    std::fs::create_dir_all(c.join(".git/refs/heads")).unwrap();
    std::fs::write(c.join(".git/HEAD"), head).unwrap();
    c
}

// Finding: the converter ran `git` in the checkout it was given, so the checkout's own
// `.git/config` chose programs to run; the commit is now read from the files.
#[test]
fn the_checkout_commit_is_read_from_git_files_without_running_git() {
    use wartable::cli::datasheets_cmd::checkout_commit;
    let base = temp_dir("git");
    let loose = fake_checkout(&base, "loose", "ref: refs/heads/main\n");
    std::fs::write(loose.join(".git/refs/heads/main"), format!("{HASH}\n")).unwrap();
    assert_eq!(checkout_commit(&loose), HASH);

    let packed = fake_checkout(&base, "packed", "ref: refs/heads/main\n");
    std::fs::write(
        packed.join(".git/packed-refs"),
        format!(
            "# pack-refs with: peeled fully-peeled sorted\n{HASH} refs/heads/other\n\
             {PACKED} refs/heads/main\n"
        ),
    )
    .unwrap();
    assert_eq!(checkout_commit(&packed), PACKED);

    let detached = fake_checkout(&base, "detached", &format!("{HASH}\n"));
    assert_eq!(checkout_commit(&detached), HASH);

    for (name, head) in [
        ("escape", "ref: refs/../../../etc/passwd\n"),
        ("outside", "ref: /etc/passwd\n"),
        ("garbage", "ref: refs/heads/main\n"),
    ] {
        let c = fake_checkout(&base, name, head);
        if name == "garbage" {
            std::fs::write(c.join(".git/refs/heads/main"), "not a hash at all\n").unwrap();
        }
        assert_eq!(checkout_commit(&c), "unknown", "{name}");
    }
    let plain = base.join("plain");
    std::fs::create_dir_all(&plain).unwrap();
    assert_eq!(checkout_commit(&plain), "unknown");
    std::fs::remove_dir_all(base).ok();
}

// Finding: `git log` in a hostile checkout runs its configured gpg program (and fsmonitor);
// reading the commit must run nothing.
#[cfg(unix)]
#[test]
fn a_checkout_config_naming_programs_runs_none_of_them() {
    use std::os::unix::fs::PermissionsExt;
    use wartable::cli::datasheets_cmd::checkout_commit;
    let base = temp_dir("gpg");
    let marker = base.join("ran.marker");
    let script = base.join("evil.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\ntouch '{}'\nexit 1\n", marker.display()),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let c = fake_checkout(&base, "evil", "ref: refs/heads/main\n");
    std::fs::write(c.join(".git/refs/heads/main"), format!("{HASH}\n")).unwrap();
    std::fs::write(
        c.join(".git/config"),
        format!(
            "[core]\n\tfsmonitor = {0}\n[log]\n\tshowSignature = true\n[gpg]\n\tprogram = {0}\n",
            script.display()
        ),
    )
    .unwrap();
    assert_eq!(checkout_commit(&c), HASH);
    assert!(!marker.exists(), "a program named by .git/config ran");
    std::fs::remove_dir_all(base).ok();
}

// Finding: the save was written through `NAME.tmp`/`NAME.part`, opened with truncation, so a
// symbolic link planted there overwrote whatever it pointed to.
#[cfg(unix)]
#[test]
fn write_save_never_follows_a_link_at_a_temporary_name() {
    use std::os::unix::fs::symlink;
    let dir = temp_dir("tmp-links");
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "keep me").unwrap();
    symlink(&notes, dir.join("game.ron.tmp")).unwrap();
    symlink(&notes, dir.join("game.ron.part")).unwrap();
    let save = SaveFile::new("builtin:scenes/default.ron", 1, Vec::new());
    write_save(&dir.join("game.ron"), &save).unwrap();
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "keep me");
    let written = std::fs::read_to_string(dir.join("game.ron")).unwrap();
    assert!(written.contains("builtin:scenes/default.ron"), "{written}");
    assert!(!is_symlink(&dir.join("game.ron")));
    assert!(is_symlink(&dir.join("game.ron.tmp")) && is_symlink(&dir.join("game.ron.part")));
    std::fs::remove_dir_all(dir).ok();
}

// Finding: a save written onto a symbolic link replaced its target, and onto a FIFO blocked.
#[cfg(unix)]
#[test]
fn write_save_refuses_a_link_or_a_fifo_at_the_target() {
    use std::os::unix::fs::symlink;
    let dir = temp_dir("target-links");
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "keep me").unwrap();
    let save = SaveFile::new("builtin:scenes/default.ron", 1, Vec::new());
    let link = dir.join("game.ron");
    symlink(&notes, &link).unwrap();
    let e = write_save(&link, &save).unwrap_err().to_string();
    assert!(e.contains("symbolic link"), "{e}");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "keep me");
    assert!(is_symlink(&link));
    // A dangling link: nothing is created where it points.
    let dangling = dir.join("dangling.ron");
    symlink(dir.join("elsewhere.txt"), &dangling).unwrap();
    assert!(write_save(&dangling, &save).is_err());
    assert!(!dir.join("elsewhere.txt").exists());
    // A FIFO (never opened here: a reader would block until the writer came).
    let fifo = dir.join("fifo.ron");
    mkfifo(&fifo);
    let e = write_save(&fifo, &save).unwrap_err().to_string();
    assert!(e.contains("FIFO"), "{e}");
    assert!(is_fifo(&fifo));
    std::fs::remove_dir_all(dir).ok();
}

// Finding: `run --save` wrote its autosave through a fixed temporary name, following a link.
#[cfg(unix)]
#[test]
fn run_save_beside_a_planted_link_leaves_its_target_alone() {
    let dir = temp_dir("run-link");
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "keep me").unwrap();
    std::os::unix::fs::symlink(&notes, dir.join("game.ron.tmp")).unwrap();
    std::os::unix::fs::symlink(&notes, dir.join("game.ron.part")).unwrap();
    let commands = dir.join("four.commands.ron");
    std::fs::write(&commands, FOUR_DEPLOYS).unwrap();
    let save = dir.join("game.ron");
    let args = [
        "run",
        "scenes/default.ron",
        "--commands",
        s(&commands),
        "--seed",
        "7",
        "--save",
        s(&save),
    ];
    let (rc, out, err) = captured(&args, LIMIT);
    assert_no_panic(rc, &err, "run --save");
    assert_eq!(rc, 0, "{err}");
    assert!(out.contains("4 of 4 commands accepted"), "{out}");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "keep me");
    let saved: SaveFile = wartable::data::source::load(&save).unwrap();
    assert_eq!(saved.commands.len(), 4);
    assert!(is_symlink(&dir.join("game.ron.tmp")));
    std::fs::remove_dir_all(dir).ok();
}

// Finding: `run --save FILE` silently replaced an existing file; now it needs --force.
#[test]
fn run_save_keeps_an_existing_file_unless_forced() {
    let dir = temp_dir("run-exists");
    let commands = dir.join("four.commands.ron");
    std::fs::write(&commands, FOUR_DEPLOYS).unwrap();
    let save = dir.join("precious.ron");
    std::fs::write(&save, "precious").unwrap();
    let mut args = vec![
        "run",
        "scenes/default.ron",
        "--commands",
        s(&commands),
        "--seed",
        "7",
        "--save",
        s(&save),
    ];
    let (rc, out, err) = captured(&args, LIMIT);
    assert_no_panic(rc, &err, "run --save existing");
    assert_eq!(rc, 1, "{err}");
    assert!(err.contains("already exists"), "{err}");
    assert!(out.is_empty(), "nothing is played: {out}");
    assert_eq!(std::fs::read_to_string(&save).unwrap(), "precious");
    args.push("--force");
    let (rc, _, err) = captured(&args, LIMIT);
    assert_eq!(rc, 0, "{err}");
    let text = std::fs::read_to_string(&save).unwrap();
    assert!(text.starts_with('(') || text.contains("commands"), "{text}");
    assert!(!text.contains("precious"));
    std::fs::remove_dir_all(dir).ok();
}

// Finding: `import --out FILE` replaced an existing army (a shipped one included) unasked.
#[test]
fn import_keeps_an_existing_army_unless_forced() {
    let dir = temp_dir("import-exists");
    let out = dir.join("army.ron");
    std::fs::write(&out, "precious").unwrap();
    let mut args = vec!["import", SAMPLE, "--allow-partial", "--out", s(&out)];
    let (rc, _, err) = captured(&args, LIMIT);
    assert_no_panic(rc, &err, "import over an existing file");
    assert_eq!(rc, 1, "{err}");
    assert!(err.contains("already exists"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "precious");
    args.push("--force");
    let (rc, _, err) = captured(&args, LIMIT);
    assert_eq!(rc, 0, "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("Imported by `wartable import`"), "{text}");
    std::fs::remove_dir_all(dir).ok();
}

// Finding: `import --out FIFO` opened the FIFO for writing and blocked (or replaced it).
#[cfg(unix)]
#[test]
fn import_out_to_a_fifo_is_refused_and_the_fifo_kept() {
    let dir = temp_dir("import-fifo-out");
    let fifo = dir.join("army.ron");
    mkfifo(&fifo);
    for force in [false, true] {
        let mut args = vec!["import", SAMPLE, "--allow-partial", "--out", s(&fifo)];
        if force {
            args.push("--force");
        }
        let (rc, _, err) = captured(&args, LIMIT);
        assert_no_panic(rc, &err, "import --out FIFO");
        assert_eq!(rc, 1, "force {force}: {err}");
        assert!(err.contains("not written") && err.contains("FIFO"), "{err}");
        assert!(is_fifo(&fifo), "the FIFO is still there");
    }
    std::fs::remove_dir_all(dir).ok();
}

// Finding: a roster argument that is a FIFO blocked `import` forever, and /dev/zero read
// without end.
#[cfg(unix)]
#[test]
fn import_of_a_fifo_or_a_device_is_refused_at_once() {
    let dir = temp_dir("import-fifo-in");
    let fifo = dir.join("list.ros");
    mkfifo(&fifo);
    let out = dir.join("x.ron");
    for file in [s(&fifo), "/dev/zero"] {
        let (rc, _, err) = captured(&["import", file, "--out", s(&out)], LIMIT);
        assert_no_panic(rc, &err, file);
        assert_eq!(rc, 1, "{file}: {err}");
        assert!(
            err.contains(file) && err.contains("only regular files are read"),
            "{file}: {err}"
        );
        assert!(!out.exists());
    }
    std::fs::remove_dir_all(dir).ok();
}

// Finding: a `.rosz` was inflated without limit: a 20 KB zip could fill the memory.
#[test]
fn a_rosz_zip_bomb_is_refused_past_the_inflation_limit() {
    let dir = temp_dir("bomb");
    let spaces = vec![b' '; (MAX_INFLATED_BYTES + 4 * 1024 * 1024) as usize];
    let bytes = zip_of(
        &[("list.ros", &spaces[..])],
        zip::CompressionMethod::Deflated,
    );
    drop(spaces);
    assert!(bytes.len() < 1024 * 1024, "{} bytes", bytes.len());
    let e = roster::read("bomb.rosz", &bytes).unwrap_err().to_string();
    assert!(e.contains("inflates to more than"), "{e}");
    let bomb = dir.join("bomb.rosz");
    std::fs::write(&bomb, &bytes).unwrap();
    let out = dir.join("x.ron");
    let (rc, _, err) = captured(&["import", s(&bomb), "--out", s(&out)], LIMIT);
    assert_no_panic(rc, &err, "import bomb.rosz");
    assert_eq!(rc, 1, "{err}");
    assert!(err.contains("inflates to more than"), "{err}");
    assert!(!out.exists());
    std::fs::remove_dir_all(dir).ok();
}

// Finding: the error for a `.rosz` of many entries listed every name (megabytes for a zip of
// a million entries).
#[test]
fn a_rosz_of_many_entries_names_only_a_few() {
    let dir = temp_dir("many");
    let names: Vec<String> = (0..1000).map(|i| format!("entry-{i:04}.ros")).collect();
    let entries: Vec<(&str, &[u8])> = names
        .iter()
        .map(|n| (n.as_str(), &b"<roster/>"[..]))
        .collect();
    let bytes = zip_of(&entries, zip::CompressionMethod::Stored);
    let many = dir.join("many.rosz");
    std::fs::write(&many, &bytes).unwrap();
    let out = dir.join("x.ron");
    let (rc, _, err) = captured(&["import", s(&many), "--out", s(&out)], LIMIT);
    assert_no_panic(rc, &err, "import many.rosz");
    assert_eq!(rc, 1, "{err}");
    assert!(err.contains("1000 entries"), "{err}");
    assert!(err.len() < 2000, "{} bytes of error", err.len());
    let listed = err.matches("entry-").count();
    assert!((1..=5).contains(&listed), "{listed} names: {err}");
    std::fs::remove_dir_all(dir).ok();
}

// Finding: the roster and catalogue walks recursed once per XML level: a `.ros` nested
// 200,000 deep overflowed the stack.
#[test]
fn a_ros_nested_200000_deep_is_refused_without_overflowing_the_stack() {
    let deep = |n: usize| {
        let mut t = String::with_capacity(n * 24 + 200);
        t.push_str("<roster name=\"deep\"><forces><force catalogueName=\"Orks\"><selections>");
        for _ in 0..n {
            t.push_str("<selection>");
        }
        for _ in 0..n {
            t.push_str("</selection>");
        }
        t.push_str("</selections></force></forces></roster>");
        t
    };
    let text = deep(200_000);
    let e = roster::read("deep.ros", text.as_bytes())
        .unwrap_err()
        .to_string();
    assert!(e.contains("nest"), "{e}");
    // Within the limit, the same shape reads.
    let text = deep(100);
    assert!(roster::read("ok.ros", text.as_bytes()).is_ok());
}

// Finding: the datasheets folder was walked following links (`a -> .` looped until the
// path grew too long, or forever) and a FIFO named `*.ron` in it blocked the import.
#[cfg(unix)]
#[test]
fn a_datasheets_folder_with_link_loops_and_a_fifo_does_not_hang_import() {
    let dir = temp_dir("loops");
    let sheets = orks_datasheets(&dir);
    std::os::unix::fs::symlink(".", sheets.join("a")).unwrap();
    std::os::unix::fs::symlink(".", sheets.join("b")).unwrap();
    mkfifo(&sheets.join("x.ron"));
    let list = dir.join("orks.txt");
    std::fs::write(&list, ORKS_TEXT).unwrap();
    let out_dir = dir.join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    let out = out_dir.join("orks.ron");
    let (rc, _, err) = captured(
        &[
            "import",
            s(&list),
            "--datasheets",
            s(&sheets),
            "--out",
            s(&out),
        ],
        Duration::from_secs(30),
    );
    assert_no_panic(rc, &err, "import against a looping folder");
    assert!(rc == 0 || rc == 1, "exit {rc}: {err}");
    if rc == 0 {
        assert!(out.is_file(), "{err}");
    }
    assert!(is_fifo(&sheets.join("x.ron")));
    std::fs::remove_dir_all(dir).ok();
}

// Finding: model counts were summed in 32 bits: `4294967295x Boyz` plus `11x Boyz` aborted
// the import (overflow panic in debug, a wrong size in release).
#[test]
fn huge_model_counts_are_summed_without_overflow() {
    let dir = temp_dir("overflow");
    let sheets = orks_datasheets(&dir);
    let list = dir.join("overflow.txt");
    std::fs::write(
        &list,
        concat!(
            "Overflow (85 Points)\n\nOrks\nWar Horde\nStrike Force (2,000 Points)\n\n",
            "BATTLELINE\n\nBoyz (85 Points)\n  • 4294967295x Boyz\n  • 11x Boyz\n",
            "  • 4294967295x Slugga\n  • 4294967295x Slugga\n",
        ),
    )
    .unwrap();
    let out = dir.join("x.ron");
    for partial in [false, true] {
        let mut args = vec![
            "import",
            s(&list),
            "--datasheets",
            s(&sheets),
            "--out",
            s(&out),
        ];
        if partial {
            args.push("--allow-partial");
        }
        let (rc, _, err) = captured(&args, LIMIT);
        assert_no_panic(rc, &err, "import of huge counts");
        assert_eq!(rc, 1, "partial {partial}: {err}");
        if !partial {
            assert!(err.contains("4294967306 models"), "{err}");
        }
        assert!(!out.exists());
    }
    std::fs::remove_dir_all(dir).ok();
}

/// Runs `args` with standard error on /dev/full (every write fails), within the limit.
#[cfg(unix)]
fn with_full_stderr(args: &[&str]) -> i32 {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let child = wartable(args)
        .stdout(Stdio::null())
        .stderr(Stdio::from(full))
        .spawn()
        .unwrap();
    finish(child, LIMIT, &args.join(" ")).0
}

// Finding: errors were written with `eprintln!`, which panics (exit 101) when standard error
// cannot be written.
#[cfg(unix)]
#[test]
fn an_unwritable_standard_error_is_no_panic() {
    let dir = temp_dir("stderr-full");
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "Scene(this is not RON").unwrap();
    assert_eq!(with_full_stderr(&["validate", s(&bad)]), 1);
    let missing = dir.join("no-such-roster.ros");
    assert_eq!(with_full_stderr(&["import", s(&missing)]), 1);
    std::fs::remove_dir_all(dir).ok();
}

// Finding: each id was made by trying `name-2`, `name-3`... against every id so far (cubic
// in a roster of many units of one name); now each name remembers its next suffix.
#[test]
fn ids_are_made_unique_in_a_long_run_of_one_name() {
    use wartable::data::source::IdMaker;
    let mut ids = IdMaker::default();
    let made: Vec<String> = (0..20_000).map(|_| ids.make("boyz")).collect();
    assert_eq!(made[0], "boyz");
    assert_eq!(made[1], "boyz-2");
    assert_eq!(made[19_999], "boyz-20000");
    let distinct: std::collections::HashSet<&String> = made.iter().collect();
    assert_eq!(distinct.len(), 20_000);
    // A suffix already taken by another name is skipped, as unique_id would.
    let mut ids = IdMaker::default();
    assert_eq!(ids.make("nobz-2"), "nobz-2");
    assert_eq!(ids.make("nobz"), "nobz");
    assert_eq!(ids.make("nobz"), "nobz-3");
}

// Finding: the closest-name search compared whole names from the file: a megabyte name
// took minutes against every datasheet.
#[test]
fn the_closest_name_search_compares_only_the_start_of_a_huge_name() {
    use wartable::data::roster::resolve::closest;
    let none = closest(&"x".repeat(1_000_000), ["Boyz", "Nobz"]);
    assert!(none.is_empty(), "{none:?}");
    let long = format!("Boyz{}", " ".repeat(1_000_000));
    let found = closest(&long, ["Boyz", "Nobz"]);
    assert_eq!(found.first().map(String::as_str), Some("Boyz"), "{found:?}");
}

// Finding: `roster::import` replaced the army at `out` whatever was there; now an existing
// file is kept unless Overwrite::Replace.
#[test]
fn library_import_keeps_an_existing_file_unless_replacing() {
    let dir = temp_dir("lib-import");
    let out = dir.join("army.ron");
    std::fs::write(&out, "precious").unwrap();
    let bytes = std::fs::read(root().join(SAMPLE)).unwrap();
    let sheets = root().join("scenes/datasheets");
    let e = roster::import(
        "space-wolves-1990.txt",
        &bytes,
        &sheets,
        Some(&out),
        &roster::ImportOptions {
            allow_partial: true,
            ..Default::default()
        },
        Overwrite::Refuse,
    )
    .unwrap_err();
    assert!(e.contains("already exists"), "{e}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "precious");
    let done = roster::import(
        "space-wolves-1990.txt",
        &bytes,
        &sheets,
        Some(&out),
        &roster::ImportOptions {
            allow_partial: true,
            ..Default::default()
        },
        Overwrite::Replace,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(done.file, out);
    wartable::data::load_army(&out, 1).unwrap_or_else(|e| panic!("the army does not load: {e}"));
    std::fs::remove_dir_all(dir).ok();
}

// ---------------------------------------------------------------------------------------
// Minor findings still open from the first round
// ---------------------------------------------------------------------------------------

// Finding: `UNIT#3` was taken as the whole unit where a unit is expected.
#[test]
fn a_model_where_a_unit_is_expected_is_refused() {
    let limit = Duration::from_secs(60);
    let (rc, _, err) = captured(&["coherency", "default", "--unit", "boyz-mob#3"], limit);
    assert_eq!(rc, 1, "{err}");
    assert!(err.contains("names one model"), "{err}");
    let (rc, _, err) = captured(
        &[
            "attack",
            "default",
            "--attacker",
            "intercessors",
            "--weapon",
            "bolt rifle",
            "--target",
            "boyz-mob#3",
            "--distance",
            "10",
        ],
        limit,
    );
    assert_eq!(rc, 1, "{err}");
    assert!(err.contains("names a unit, not a model"), "{err}");
}

// Finding: a melee weapon was accepted at `--distance 100`.
#[test]
fn a_melee_weapon_at_a_distance_is_refused() {
    let limit = Duration::from_secs(60);
    let attack = |distance: &str| {
        captured(
            &[
                "attack",
                "default",
                "--attacker",
                "boyz-mob",
                "--weapon",
                "choppa",
                "--target",
                "intercessors",
                "--distance",
                distance,
            ],
            limit,
        )
    };
    let (rc, _, err) = attack("100");
    assert_eq!(rc, 1, "{err}");
    assert!(err.contains("melee weapon"), "{err}");
    let (rc, _, err) = attack("0.5");
    assert_eq!(rc, 0, "within Engagement Range it attacks: {err}");
}

// Finding: `attacks: "D6-5"` (a roll that can give -4 attacks) validated.
#[test]
fn attacks_that_can_roll_below_one_are_refused() {
    let dir = temp_dir("d6-5");
    let text = std::fs::read_to_string(root().join("scenes/datasheets/orks.ron")).unwrap();
    let bad = text.replacen("attacks: 5,", "attacks: \"D6-5\",", 1);
    assert_ne!(bad, text, "the sample has a weapon with 5 attacks");
    let file = dir.join("orks.ron");
    std::fs::write(&file, bad).unwrap();
    let e = wartable::data::validate_file(&file)
        .unwrap_err()
        .to_string();
    assert!(e.contains("at least 1"), "{e}");
    assert!(e.contains("D6-5"), "{e}");
    std::fs::remove_dir_all(dir).ok();
}

// Findings: a floor larger than its footprint, and an empty piece id, validated.
#[test]
fn a_floor_outside_its_footprint_and_an_empty_piece_id_are_refused() {
    let dir = temp_dir("floor");
    let text = std::fs::read_to_string(root().join("tests/scenes/open-field-layout.ron")).unwrap();
    let wide = text.replace(
        "Polygon([(-1.5, -4), (1.5, -4), (1.5, 4), (-1.5, 4)])",
        "Polygon([(-1.5, -4), (6, -4), (6, 4), (-1.5, 4)])",
    );
    assert_ne!(wide, text, "the floor of the test layout");
    let file = dir.join("wide-floor.ron");
    std::fs::write(&file, wide).unwrap();
    let e = wartable::data::validate_file(&file)
        .unwrap_err()
        .to_string();
    assert!(e.contains("outside the piece's footprint"), "{e}");
    let empty = text.replace("id: \"ruin-centre\"", "id: \"\"");
    let file = dir.join("empty-id.ron");
    std::fs::write(&file, empty).unwrap();
    let e = wartable::data::validate_file(&file)
        .unwrap_err()
        .to_string();
    assert!(e.contains("needs an id"), "{e}");
    std::fs::remove_dir_all(dir).ok();
}

// Finding: an army listing one datasheets file twice validated.
#[test]
fn a_datasheets_file_listed_twice_is_refused() {
    let dir = temp_dir("twice");
    let sheets = root().join("scenes/datasheets/orks.ron");
    let text = std::fs::read_to_string(root().join("scenes/armies/orks.ron")).unwrap();
    let s = sheets.to_str().unwrap();
    let twice = text.replace(
        "datasheets: [\"../datasheets/orks.ron\"]",
        &format!("datasheets: [\"{s}\", \"{s}\"]"),
    );
    assert_ne!(twice, text);
    let file = dir.join("orks.ron");
    std::fs::write(&file, twice).unwrap();
    let e = wartable::data::validate_file(&file)
        .unwrap_err()
        .to_string();
    assert!(e.contains("listed twice"), "{e}");
    std::fs::remove_dir_all(dir).ok();
}

// Finding: placements outside the deployment zone validated, and `simulate` then played 0-0
// draws with exit 0. Now `validate` warns and `simulate` refuses the scene.
#[test]
fn placements_outside_the_deployment_zone_are_warned_and_not_simulated() {
    let dir = temp_dir("zone");
    let text = std::fs::read_to_string(root().join("tests/scenes/big-table.ron")).unwrap();
    // Player 1's Warboss moved to the middle of the table.
    let moved = text
        .replace("models: [(x: 7.4, y: 1.2)]", "models: [(x: 30, y: 10)]")
        .replace(
            "\"orks-3000-army.ron\"",
            &format!("\"{}\"", s(&root().join("tests/scenes/orks-3000-army.ron"))),
        )
        .replace(
            "\"open-field-layout.ron\"",
            &format!(
                "\"{}\"",
                s(&root().join("tests/scenes/open-field-layout.ron"))
            ),
        )
        .replace(
            "\"../../scenes/",
            &format!("\"{}/", s(&root().join("scenes"))),
        );
    assert_ne!(moved, text);
    let file = dir.join("outside.ron");
    std::fs::write(&file, moved).unwrap();
    let limit = Duration::from_secs(60);
    let (rc, _, err) = captured(&["validate", s(&file)], limit);
    assert_eq!(rc, 0, "still a valid scene: {err}");
    assert!(err.contains("outside player 1's deployment zone"), "{err}");
    let (rc, out, err) = captured(&["simulate", s(&file), "--games", "1", "--quiet"], limit);
    assert_eq!(rc, 1, "{out}{err}");
    assert!(err.contains("legal deployment"), "{err}");
    std::fs::remove_dir_all(dir).ok();
}

// Finding: a 200 MB text export aborted on allocation. Anything past the roster limit is
// refused before it is parsed.
#[test]
fn a_roster_past_the_size_limit_is_refused_unread() {
    let dir = temp_dir("huge-text");
    let file = dir.join("huge.txt");
    let line = "Boyz (85 Points)\n  • 10x Boy\n";
    let copies = (roster::MAX_ROSTER_BYTES as usize / line.len()) + 10;
    std::fs::write(&file, line.repeat(copies)).unwrap();
    let out = dir.join("army.ron");
    let (rc, _, err) = captured(
        &["import", s(&file), "--out", s(&out)],
        Duration::from_secs(60),
    );
    assert_eq!(rc, 1, "{err}");
    assert!(err.contains("limit"), "{err}");
    assert!(!out.exists());
    std::fs::remove_dir_all(dir).ok();
}

// Finding: a FIFO as a `.cat` in the checkout blocked the converter forever.
#[cfg(unix)]
#[test]
fn a_fifo_catalogue_is_refused_without_blocking() {
    let dir = temp_dir("fifo-cat");
    let checkout = dir.join("checkout");
    std::fs::create_dir_all(&checkout).unwrap();
    std::fs::copy(
        root().join("tests/bsdata-mini/Warhammer 40,000.gst"),
        checkout.join("Warhammer 40,000.gst"),
    )
    .unwrap();
    mkfifo(&checkout.join("Orks.cat"));
    let out = dir.join("out");
    let (rc, _, err) = captured(
        &[
            "datasheets",
            "--from-bsdata",
            s(&checkout),
            "--out",
            s(&out),
            "--source-commit",
            "test",
        ],
        Duration::from_secs(30),
    );
    assert_eq!(rc, 1, "{err}");
    assert!(err.contains("FIFO"), "{err}");
    assert!(is_fifo(&checkout.join("Orks.cat")));
    std::fs::remove_dir_all(dir).ok();
}
