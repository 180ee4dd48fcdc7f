//! Hostile input: every shipped data file, save and command list, every sample roster and the
//! miniature BSData checkout, mutated (byte flips, truncation, numeric extremes and NaN, lines
//! dropped or repeated, deep nesting), through the real binary: `validate` for data files,
//! `replay` for saves, `run` for command lists, `import` for rosters (`.ros` XML, `.rosz` zip,
//! the app's text), `datasheets --from-bsdata` for catalogues. Each case runs in its own
//! process under a memory limit (`ulimit -v`) and a time limit, and must end without a panic
//! or a signal, within the limits, and either succeed or fail with a message that names the
//! mutated file; an import or a conversion writes nothing outside the `out/` folder it names.
//!
//! The cases are drawn by proptest from a fixed seed, so a run is repeatable; a failing case
//! keeps its file and prints how to reproduce it. `WARTABLE_FUZZ_CASES=N` runs N cases (default
//! [`DEFAULT_CASES`]); `WARTABLE_FUZZ_SEED=S` draws another set.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// Cases run by `cargo test` (each is one process of the binary).
const DEFAULT_CASES: usize = 48;

/// The first cases, one per kind of input (a data file, a roster, a save, a command list),
/// run on the undamaged file: each must succeed.
const UNDAMAGED: usize = 4;

/// Address space a case may use (KiB, `ulimit -v`): the binary's normal runs use well under
/// half of it.
const MEMORY_LIMIT_KIB: u64 = 4 * 1024 * 1024;

/// Wall-clock seconds after which a case counts as hung and is killed.
const TIME_LIMIT_SECONDS: u64 = 60;

/// Replacements for a number in a file.
const EXTREMES: [&str; 12] = [
    "NaN",
    "inf",
    "-inf",
    "1e30",
    "-1e30",
    "1e-30",
    "-1",
    "0",
    "4294967296",
    "18446744073709551616",
    "99999999999999999999999999",
    "-0.0",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// How a file is damaged.
#[derive(Debug, Clone)]
enum Mutation {
    /// XOR the byte at (position fraction) with a value.
    FlipByte(f64, u8),
    /// Keep only the first (fraction) of the file.
    Truncate(f64),
    /// Replace the number at (index fraction) with an extreme.
    Number(f64, usize),
    /// Drop the line at (fraction).
    DropLine(f64),
    /// Repeat the line at (fraction).
    RepeatLine(f64),
    /// Insert this many nested brackets at (fraction).
    Nest(f64, usize),
    /// Insert this many nested XML `selection` elements at (fraction).
    NestXml(f64, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = 0.0f64..1.0;
    prop_oneof![
        (at.clone(), 1u8..=255).prop_map(|(p, x)| Mutation::FlipByte(p, x)),
        at.clone().prop_map(Mutation::Truncate),
        (at.clone(), 0..EXTREMES.len()).prop_map(|(p, i)| Mutation::Number(p, i)),
        at.clone().prop_map(Mutation::DropLine),
        at.clone().prop_map(Mutation::RepeatLine),
        (at.clone(), prop_oneof![Just(64usize), Just(100_000usize)])
            .prop_map(|(p, n)| Mutation::Nest(p, n)),
        (at, prop_oneof![Just(64usize), Just(200_000usize)])
            .prop_map(|(p, n)| Mutation::NestXml(p, n)),
    ]
}

/// Byte ranges of the numbers in `text`.
fn numbers(text: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let starts = text[i].is_ascii_digit()
            && (i == 0 || !(text[i - 1].is_ascii_alphanumeric() || text[i - 1] == b'_'));
        if starts {
            let s = if i > 0 && text[i - 1] == b'-' {
                i - 1
            } else {
                i
            };
            let mut e = i;
            while e < text.len() && (text[e].is_ascii_digit() || text[e] == b'.') {
                e += 1;
            }
            out.push((s, e));
            i = e;
        } else {
            i += 1;
        }
    }
    out
}

fn line_spans(text: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut s = 0;
    for (i, b) in text.iter().enumerate() {
        if *b == b'\n' {
            out.push((s, i + 1));
            s = i + 1;
        }
    }
    if s < text.len() {
        out.push((s, text.len()));
    }
    out
}

fn pick(len: usize, fraction: f64) -> usize {
    ((len as f64 * fraction) as usize).min(len.saturating_sub(1))
}

fn apply(text: &[u8], m: &Mutation) -> Vec<u8> {
    let mut out = text.to_vec();
    match *m {
        Mutation::FlipByte(p, x) => {
            if !out.is_empty() {
                let i = pick(out.len(), p);
                out[i] ^= x;
            }
        }
        Mutation::Truncate(p) => out.truncate(pick(out.len() + 1, p)),
        Mutation::Number(p, v) => {
            let n = numbers(text);
            if !n.is_empty() {
                let (s, e) = n[pick(n.len(), p)];
                out.splice(s..e, EXTREMES[v].bytes());
            }
        }
        Mutation::DropLine(p) => {
            let l = line_spans(text);
            if !l.is_empty() {
                let (s, e) = l[pick(l.len(), p)];
                out.drain(s..e);
            }
        }
        Mutation::RepeatLine(p) => {
            let l = line_spans(text);
            if !l.is_empty() {
                let (s, e) = l[pick(l.len(), p)];
                let line = text[s..e].to_vec();
                out.splice(e..e, line);
            }
        }
        Mutation::Nest(p, n) => {
            let i = pick(out.len() + 1, p);
            let nested = format!("{}{}", "[".repeat(n), "]".repeat(n));
            out.splice(i..i, nested.bytes());
        }
        Mutation::NestXml(p, n) => {
            let i = pick(out.len() + 1, p);
            let nested = format!("{}{}", "<selection>".repeat(n), "</selection>".repeat(n));
            out.splice(i..i, nested.bytes());
        }
    }
    out
}

/// A file to damage and how the binary reads it (arguments after the binary, `{}` standing
/// for the damaged file's path).
struct Target {
    file: PathBuf,
    args: Vec<String>,
}

fn ron_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            ron_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "ron") {
            out.push(p);
        }
    }
}

/// Every shipped data file, save and command list (paths relative to the tree copy).
fn targets() -> Vec<Target> {
    let mut files = Vec::new();
    ron_files(&root().join("scenes"), &mut files);
    ron_files(&root().join("tests/scenes"), &mut files);
    let mut out: Vec<Target> = files
        .into_iter()
        .map(|f| Target {
            file: f.strip_prefix(root()).unwrap().to_path_buf(),
            args: vec!["validate".into(), "{}".into()],
        })
        .collect();
    // The first import is one of the undamaged cases.
    for roster in IMPORTED {
        out.push(Target {
            file: roster.into(),
            args: ["import", "{}", "--out", "out/army.ron", "--allow-partial"]
                .map(String::from)
                .to_vec(),
        });
    }
    for catalogue in [
        "tests/bsdata-mini/Orks.cat",
        "tests/bsdata-mini/Warhammer 40,000.gst",
    ] {
        out.push(Target {
            file: catalogue.into(),
            args: [
                "datasheets",
                "--from-bsdata",
                "tests/bsdata-mini",
                "--out",
                "out",
                "--source-commit",
                "fuzz",
            ]
            .map(String::from)
            .to_vec(),
        });
    }
    out.push(Target {
        file: "tests/games/full-game.save.ron".into(),
        args: vec!["replay".into(), "{}".into()],
    });
    for (scene, commands, seed) in [
        (
            "scenes/default.ron",
            "tests/games/full-game.commands.ron",
            "7",
        ),
        (
            "tests/scenes/audit.ron",
            "tests/games/audit.commands.ron",
            "6",
        ),
    ] {
        out.push(Target {
            file: commands.into(),
            args: vec![
                "run".into(),
                scene.into(),
                "--commands".into(),
                "{}".into(),
                "--seed".into(),
                seed.into(),
            ],
        });
    }
    out
}

/// The sample rosters imported (each format once; the New Recruit JSON is made from the
/// Necrons `.ros` by [`copy_tree`]).
const IMPORTED: [&str; 4] = [
    "tests/rosters/space-wolves-1990.txt",
    "tests/rosters/necrons-1205.ros",
    "tests/rosters/leagues-of-votann-965.rosz",
    "tests/rosters/necrons-1205.json",
];

/// Copies the folders the files refer to into `to`, so a damaged file keeps its neighbours,
/// and makes the `out/` folder imports and conversions write into.
fn copy_tree(to: &Path) {
    for dir in ["scenes", "tests/scenes", "tests/games"] {
        let mut files = Vec::new();
        ron_files(&root().join(dir), &mut files);
        for f in files {
            let rel = f.strip_prefix(root()).unwrap();
            let dest = to.join(rel);
            std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
            std::fs::copy(&f, dest).unwrap();
        }
    }
    for dir in ["tests/rosters", "tests/bsdata-mini"] {
        std::fs::create_dir_all(to.join(dir)).unwrap();
        for f in std::fs::read_dir(root().join(dir)).unwrap() {
            let f = f.unwrap().path();
            std::fs::copy(&f, to.join(dir).join(f.file_name().unwrap())).unwrap();
        }
    }
    let ros = std::fs::read_to_string(root().join("tests/rosters/necrons-1205.ros")).unwrap();
    std::fs::write(
        to.join("tests/rosters/necrons-1205.json"),
        crate::roster_import::new_recruit_json(&ros),
    )
    .unwrap();
    std::fs::create_dir_all(to.join("out")).unwrap();
}

/// Every file under `dir` (paths relative to it) but those under `out/`: what a case must
/// leave as it found it.
fn listing(dir: &Path) -> Vec<(PathBuf, u64)> {
    fn walk(base: &Path, d: &Path, out: &mut Vec<(PathBuf, u64)>) {
        for e in std::fs::read_dir(d).into_iter().flatten().flatten() {
            let p = e.path();
            let rel = p.strip_prefix(base).unwrap().to_path_buf();
            if rel.starts_with("out") {
                continue;
            }
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                walk(base, &p, out);
            } else {
                out.push((rel, e.metadata().map_or(0, |m| m.len())));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// How a case ended.
struct Outcome {
    code: Option<i32>,
    signal: Option<i32>,
    stderr: String,
    stdout: String,
    hung: bool,
}

/// Runs the binary with `args` in `dir` under the memory and time limits.
fn run_limited(dir: &Path, args: &[String]) -> Outcome {
    use std::os::unix::process::ExitStatusExt;
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {MEMORY_LIMIT_KIB}; ulimit -t {TIME_LIMIT_SECONDS}; exec \"$@\""
        ))
        .arg("sh")
        .arg(env!("CARGO_BIN_EXE_wartable"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Drain both pipes on threads so a chatty case cannot block on a full pipe.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut s = Vec::new();
        out.read_to_end(&mut s).ok();
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = Vec::new();
        err.read_to_end(&mut s).ok();
        s
    });
    let start = Instant::now();
    let mut hung = false;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > Duration::from_secs(TIME_LIMIT_SECONDS + 5) {
            hung = true;
            child.kill().ok();
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Outcome {
        code: status.code(),
        signal: status.signal(),
        stdout: String::from_utf8_lossy(&t_out.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&t_err.join().unwrap()).into_owned(),
        hung,
    }
}

/// The first lines of `text`, at most 300 characters.
fn head(text: &str) -> String {
    let s = text.lines().take(3).collect::<Vec<_>>().join(" | ");
    match s.char_indices().nth(300) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s,
    }
}

/// What is wrong with an outcome, if anything.
fn verdict(o: &Outcome, file: &Path) -> Option<String> {
    if o.hung {
        return Some(format!("hung (killed after {TIME_LIMIT_SECONDS} s)"));
    }
    if o.stderr.contains("panicked") || o.code == Some(101) {
        return Some(format!("panicked: {}", head(&o.stderr)));
    }
    if let Some(s) = o.signal {
        return Some(format!(
            "killed by signal {s} (memory or time limit, or an abort)"
        ));
    }
    if o.code != Some(0) {
        let name = file.file_name().unwrap().to_string_lossy();
        let said = format!("{}{}", o.stderr, o.stdout);
        if !said.contains(name.as_ref()) {
            return Some(format!("failed without naming {name}: {}", head(&said)));
        }
    }
    None
}

#[test]
fn damaged_data_files_saves_and_command_lists_fail_cleanly() {
    let cases: usize = std::env::var("WARTABLE_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_CASES);
    let seed: u64 = std::env::var("WARTABLE_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(22);
    let targets = targets();
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes),
    );
    let strategy = (0..targets.len(), mutation());
    let drawn: Vec<(usize, Mutation)> = (0..cases)
        .map(|i| {
            // The first case of each kind of input is the undamaged file: it must succeed.
            if i < UNDAMAGED {
                let first_import = targets.iter().position(|t| t.args[0] == "import").unwrap();
                let t = [0, first_import, targets.len() - 3, targets.len() - 1][i];
                return (t, Mutation::Truncate(1.0));
            }
            strategy.new_tree(&mut runner).unwrap().current()
        })
        .collect();
    let base = std::env::temp_dir().join(format!("wartable-fuzz-{}", std::process::id()));
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let (drawn, targets, base) = (&drawn, &targets, &base);
                s.spawn(move || {
                    let mut failures = Vec::new();
                    for (i, (t, m)) in drawn.iter().enumerate().skip(w).step_by(workers) {
                        let target = &targets[*t];
                        let dir = base.join(format!("case-{i}"));
                        copy_tree(&dir);
                        let path = dir.join(&target.file);
                        let text = std::fs::read(&path).unwrap();
                        std::fs::write(&path, apply(&text, m)).unwrap();
                        let args: Vec<String> = target
                            .args
                            .iter()
                            .map(|a| {
                                if a == "{}" {
                                    target.file.to_string_lossy().into_owned()
                                } else {
                                    a.clone()
                                }
                            })
                            .collect();
                        let before = listing(&dir);
                        let o = run_limited(&dir, &args);
                        let undamaged = i < UNDAMAGED;
                        let bad = if undamaged && o.code != Some(0) {
                            Some(format!("the undamaged file failed: {}", head(&o.stderr)))
                        } else if listing(&dir) != before {
                            Some("it wrote or changed a file outside out/".to_string())
                        } else {
                            verdict(&o, &target.file)
                        };
                        match bad {
                            Some(why) => failures.push(format!(
                                "case {i}: {} with {m:?}: {why}\n  reproduce: cd {} && wartable {}",
                                target.file.display(),
                                dir.display(),
                                args.join(" ")
                            )),
                            None => {
                                std::fs::remove_dir_all(&dir).ok();
                            }
                        }
                    }
                    failures
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    eprintln!(
        "{cases} damaged inputs (seed {seed}) over {} files: {} failures",
        targets.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    std::fs::remove_dir_all(&base).ok();
}
