//! Hostile use of the command line: unwritable or closed standard output, huge counts, bad
//! floats, contradictory flags and unwritable saves end with a clear error and a non-zero exit
//! status, never a panic, a hang or a half-changed file.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use wartable::cli::BROKEN_PIPE_EXIT;
use wartable::cli::attack_cmd::MAX_MONTE_CARLO_TRIALS;
use wartable::cli::simulate_cmd::{MAX_GAMES, last_seed};
use wartable::data::source::load;
use wartable::game::Command as GameCommand;
use wartable::game::save::{SaveFile, write_save};

pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn wartable(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_wartable"));
    c.args(args).current_dir(root()).stdin(Stdio::null());
    c
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wartable-hostile-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Waits for `child` at most `limit`, killing it and failing the test when it runs longer;
/// gives its exit code (-1 when a signal ended it) and standard error.
pub(crate) fn finish(mut child: Child, limit: Duration, what: &str) -> (i32, String) {
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > limit {
            child.kill().ok();
            child.wait().ok();
            panic!("{what}: still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        e.read_to_string(&mut err).unwrap();
    }
    (status.code().unwrap_or(-1), err)
}

/// Runs `args` with standard output on /dev/full (every write fails with "no space left").
fn into_full_disk(args: &[&str]) -> (i32, String) {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let child = wartable(args)
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    finish(child, Duration::from_secs(120), &args.join(" "))
}

/// Runs `args` with standard output captured, within `limit`.
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
    let (rc, err) = finish(child, limit, &args.join(" "));
    (rc, reader.join().unwrap(), err)
}

pub(crate) fn assert_no_panic(rc: i32, err: &str, what: &str) {
    assert_ne!(rc, 101, "{what} panicked: {err}");
    assert!(!err.contains("panicked"), "{what} panicked: {err}");
}

const BOLT_RIFLES: &[&str] = &[
    "attack",
    "default",
    "--attacker",
    "intercessors",
    "--weapon",
    "bolt rifle",
    "--target",
    "boyz-mob",
];

fn attack_with<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = BOLT_RIFLES.to_vec();
    args.extend_from_slice(extra);
    args
}

#[test]
fn every_command_exits_1_without_a_panic_when_stdout_is_a_full_disk() {
    let (dir, save) = short_save("full", 8);
    let commands: Vec<Vec<&str>> = vec![
        vec!["validate", "scenes/default.ron"],
        vec!["scene", "default", "--json"],
        vec!["replay", save.to_str().unwrap(), "--json"],
        vec!["replay", save.to_str().unwrap()],
        vec![
            "los",
            "default",
            "--observer",
            "intercessors",
            "--target",
            "boyz-mob",
        ],
        vec![
            "measure",
            "default",
            "--from",
            "intercessors",
            "--to",
            "boyz-mob",
            "--json",
        ],
        vec!["coherency", "default", "--unit", "intercessors"],
        attack_with(&["--distance", "10", "--json"]),
        vec!["--help"],
        vec!["--version"],
    ];
    for args in commands {
        let what = args.join(" ");
        let (rc, err) = into_full_disk(&args);
        assert_no_panic(rc, &err, &what);
        assert_eq!(rc, 1, "{what}: {err}");
        assert_eq!(
            err.lines()
                .filter(|l| l.contains("standard output"))
                .count(),
            1,
            "{what}: one line says why: {err}"
        );
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_closed_pipe_ends_the_output_quietly_with_status_141() {
    // `| head -1` on a report far larger than a pipe holds (about 200 kB of events).
    let mut child = wartable(&[
        "run",
        "scenes/default.ron",
        "--commands",
        "tests/games/full-game.commands.ron",
        "--seed",
        "7",
        "--events",
        "--json",
    ])
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first.trim(), "{");
    // The reader is gone now: the rest of the output meets a closed pipe.
    let (rc, err) = finish(child, Duration::from_secs(120), "run | head -1");
    assert_no_panic(rc, &err, "run | head -1");
    assert_eq!(i32::from(BROKEN_PIPE_EXIT), rc, "{err}");
    assert!(
        err.trim().is_empty(),
        "a closed pipe is not reported: {err}"
    );

    // A pipe closed before anything is written.
    let mut child = wartable(&["scene", "default", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let (rc, err) = finish(child, Duration::from_secs(60), "scene | closed");
    assert_no_panic(rc, &err, "scene | closed");
    assert_eq!(i32::from(BROKEN_PIPE_EXIT), rc, "{err}");
}

/// A save of the committed full game's first `n` commands (the deployment) in a fresh folder.
fn short_save(name: &str, n: usize) -> (PathBuf, PathBuf) {
    let dir = temp_dir(name);
    let commands: Vec<GameCommand> =
        load(&root().join("tests/games/full-game.commands.ron")).unwrap();
    let save = SaveFile::new(
        root().join("scenes/default.ron").to_string_lossy(),
        7,
        commands.into_iter().take(n).collect(),
    );
    let file = dir.join("game.save.ron");
    write_save(&file, &save).unwrap();
    (dir, file)
}

fn commands_in(file: &Path) -> usize {
    load::<SaveFile>(file).unwrap().commands.len()
}

#[test]
fn undo_takes_back_one_command_per_successful_call_and_none_when_output_fails() {
    let (dir, file) = short_save("undo", 8);
    let n = commands_in(&file);
    let before = std::fs::read(&file).unwrap();
    let path = file.to_str().unwrap();

    // Output fails: no panic, exit 1, the save is untouched; retrying changes nothing either.
    for _ in 0..2 {
        let (rc, err) = into_full_disk(&["undo", path]);
        assert_no_panic(rc, &err, "undo > /dev/full");
        assert_eq!(rc, 1, "{err}");
        assert_eq!(
            std::fs::read(&file).unwrap(),
            before,
            "the save is unchanged"
        );
    }
    // A closed pipe: the same, with status 141.
    let mut child = wartable(&["undo", path])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let (rc, err) = finish(child, Duration::from_secs(60), "undo | closed");
    assert_no_panic(rc, &err, "undo | closed");
    assert_eq!(rc, i32::from(BROKEN_PIPE_EXIT), "{err}");
    assert_eq!(
        std::fs::read(&file).unwrap(),
        before,
        "the save is unchanged"
    );
    // Output works: exactly one command per call.
    for k in 1..=2 {
        let (rc, out, err) = captured(&["undo", path], Duration::from_secs(60));
        assert_eq!(rc, 0, "{err}");
        assert!(out.starts_with("undid "), "{out}");
        assert_eq!(commands_in(&file), n - k);
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn simulate_refuses_game_counts_past_the_limit_and_overflowing_seeds() {
    for games in ["2305843009213693952", "1000000000", "0"] {
        let (rc, _, err) = captured(
            &["simulate", "default", "--quiet", "--games", games],
            Duration::from_secs(60),
        );
        assert_no_panic(rc, &err, games);
        assert_eq!(rc, 2, "--games {games}: {err}");
        assert!(err.contains(&MAX_GAMES.to_string()), "{err}");
    }
    let max = u64::MAX.to_string();
    let (rc, _, err) = captured(
        &[
            "simulate", "default", "--quiet", "--games", "3", "--seed", &max,
        ],
        Duration::from_secs(60),
    );
    assert_no_panic(rc, &err, "--seed MAX");
    assert_eq!(rc, 1, "{err}");
    assert!(err.contains("--seed"), "{err}");
    assert_eq!(last_seed(u64::MAX, 1), Ok(u64::MAX));
    assert_eq!(last_seed(u64::MAX - 2, 3), Ok(u64::MAX));
    assert!(last_seed(u64::MAX - 1, 3).is_err());
    for threads in ["0", "100000"] {
        let (rc, _, err) = captured(
            &["simulate", "default", "--threads", threads],
            Duration::from_secs(60),
        );
        assert_eq!(rc, 2, "--threads {threads}: {err}");
    }
}

#[test]
fn attack_monte_carlo_trials_are_capped() {
    let (rc, _, err) = captured(
        &attack_with(&["--distance", "10", "--monte-carlo", "4294967295"]),
        Duration::from_secs(60),
    );
    assert_no_panic(rc, &err, "--monte-carlo 4294967295");
    assert_eq!(rc, 2, "{err}");
    assert!(err.contains(&MAX_MONTE_CARLO_TRIALS.to_string()), "{err}");
    let (rc, out, err) = captured(
        &attack_with(&["--distance", "10", "--monte-carlo", "1000", "--json"]),
        Duration::from_secs(60),
    );
    assert_eq!(rc, 0, "{err}");
    assert!(out.contains("monte_carlo"), "{out}");
}

#[test]
fn float_arguments_must_be_finite_and_in_range() {
    for d in ["-3", "NaN", "inf", "-0.5", "1e30"] {
        let (rc, _, err) = captured(
            &attack_with(&[&format!("--distance={d}")]),
            Duration::from_secs(60),
        );
        assert_no_panic(rc, &err, d);
        assert_eq!(rc, 2, "--distance {d}: {err}");
        assert!(err.contains("--distance"), "{err}");
    }
    for c in ["NaN", "0", "-1", "100"] {
        let (rc, _, err) = captured(
            &["analyze", "default", "--quiet", &format!("--cell={c}")],
            Duration::from_secs(60),
        );
        assert_eq!(rc, 2, "--cell {c}: {err}");
        assert!(err.contains("--cell"), "{err}");
    }
    for s in ["NaN", "-1", "inf"] {
        let (rc, _, err) = captured(
            &["png-check", "missing.png", &format!("--min-stddev={s}")],
            Duration::from_secs(60),
        );
        assert_eq!(rc, 2, "--min-stddev {s}: {err}");
        assert!(err.contains("--min-stddev"), "{err}");
    }
}

#[test]
fn attack_refuses_contradictory_flags() {
    for flags in [
        &["--distance", "10", "--advanced", "--charged"][..],
        &["--distance", "10", "--advanced", "--remained-stationary"],
        &["--distance", "10", "--roll", "--monte-carlo", "100"],
    ] {
        let (rc, _, err) = captured(&attack_with(flags), Duration::from_secs(60));
        assert_eq!(rc, 2, "{flags:?}: {err}");
        assert!(err.contains("cannot be used with"), "{flags:?}: {err}");
    }
}

#[test]
fn run_with_a_save_in_a_missing_folder_fails_once_before_playing() {
    let dir = temp_dir("missing");
    let missing = dir.join("no-such-folder");
    let save = missing.join("game.save.ron");
    let (rc, out, err) = captured(
        &[
            "run",
            "scenes/default.ron",
            "--commands",
            "tests/games/full-game.commands.ron",
            "--seed",
            "7",
            "--save",
            save.to_str().unwrap(),
        ],
        Duration::from_secs(120),
    );
    assert_no_panic(rc, &err, "run --save missing/");
    assert_eq!(rc, 1, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "one error: {err}");
    assert!(err.contains("does not exist"), "{err}");
    assert!(out.is_empty(), "nothing played: {out}");
    assert!(!missing.exists(), "no folder is created");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn run_stops_at_the_first_autosave_that_cannot_be_written() {
    let dir = temp_dir("vanish");
    let folder = dir.join("saves");
    std::fs::create_dir_all(&folder).unwrap();
    let save = folder.join("game.save.ron");
    let mut child = wartable(&[
        "run",
        "scenes/default.ron",
        "--commands",
        "tests/games/full-game.commands.ron",
        "--seed",
        "7",
        "--step-delay-ms",
        "20",
        "--save",
        save.to_str().unwrap(),
    ])
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
    // Once the first commands are saved, the folder disappears under the running game.
    let start = Instant::now();
    while load::<SaveFile>(&save).map_or(0, |s| s.commands.len()) < 3 {
        assert!(start.elapsed().as_secs() < 120, "the run never saved");
        std::thread::sleep(Duration::from_millis(5));
    }
    std::fs::remove_dir_all(&folder).unwrap();
    let (rc, err) = finish(child, Duration::from_secs(120), "run --save vanished/");
    let _ = reader.join().unwrap();
    assert_no_panic(rc, &err, "run --save vanished/");
    assert_eq!(rc, 1, "{err}");
    assert_eq!(
        err.lines()
            .filter(|l| l.contains("cannot write the save"))
            .count(),
        1,
        "one error, then the run stops: {err}"
    );
    assert!(!folder.exists(), "no folder is created");
    std::fs::remove_dir_all(dir).ok();
}
