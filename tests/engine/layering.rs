//! The crate's module layering: which top-level module may use which.
//!
//! Every `src/**/*.rs` file is read; comment lines (`//`, `//!`, `///`) are skipped, and every
//! `crate::<top>` path (also inside `use crate::{a, b::c}` groups, and `super::super::<top>`
//! chains that climb to the crate root) is an edge from the file's top-level module to `<top>`.
//! An edge that [`ALLOWED`] does not list fails the test, naming the file and line.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Each top-level module and the top-level modules it may use (besides itself), in the
/// layering order: a module uses only modules listed before it.
const ALLOWED: &[(&str, &[&str])] = &[
    ("geometry", &[]),
    ("rules", &["geometry"]),
    ("data", &["geometry", "rules"]),
    ("game", &["geometry", "rules", "data"]),
    ("ai", &["geometry", "rules", "data", "game"]),
    ("design", &["geometry", "rules", "data"]),
    ("sim", &["geometry", "rules", "data", "game", "ai"]),
    (
        "app",
        &["geometry", "rules", "data", "game", "ai", "design", "sim"],
    ),
    (
        "cli",
        &[
            "geometry", "rules", "data", "game", "ai", "design", "sim", "app",
        ],
    ),
];

/// One use of another top-level module.
#[derive(Debug)]
struct Edge {
    from: String,
    to: String,
    file: PathBuf,
    line: usize,
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file below `src/`: `game/mod.rs` is `[game]`, `game/save.rs` is
/// `[game, save]`. `lib.rs` and `main.rs` give an empty path (the crate root, not checked).
fn module_path(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src_dir()).expect("file under src/");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    if !matches!(last.as_str(), "mod.rs" | "lib.rs" | "main.rs") {
        parts.push(last.trim_end_matches(".rs").to_string());
    }
    parts
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The identifier starting at `i` (after any spaces or newlines), and where it ends.
fn ident_at(text: &[u8], mut i: usize) -> (String, usize) {
    while i < text.len() && text[i].is_ascii_whitespace() {
        i += 1;
    }
    let start = i;
    while i < text.len() && is_ident_char(text[i]) {
        i += 1;
    }
    (String::from_utf8_lossy(&text[start..i]).into_owned(), i)
}

/// The text of a file with comment lines blanked (line numbers kept) and `// ...` tails
/// removed.
fn code_only(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.trim_start().starts_with("//") {
                ""
            } else if let Some(i) = l.find(" // ") {
                &l[..i]
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `crate::<top>` (or `super::...` to the root) path in `code`: (top, byte offset).
fn crate_paths(code: &str, depth: usize) -> Vec<(String, usize)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let preceded_by_ident = i > 0 && is_ident_char(b[i - 1]);
        if !preceded_by_ident && b[i..].starts_with(b"crate::") {
            // `$crate::` (in a macro) is the crate root too.
            let after = i + "crate::".len();
            let j = skip_space(b, after);
            if j < b.len() && b[j] == b'{' {
                out.extend(group_heads(b, j));
            } else {
                let (name, _) = ident_at(b, after);
                out.push((name, after));
            }
            i = after;
            continue;
        }
        if !preceded_by_ident && b[i..].starts_with(b"super::") {
            let mut k = 0;
            let mut j = i;
            while b[j..].starts_with(b"super::") {
                k += 1;
                j += "super::".len();
            }
            // From a file at module depth `depth`, `depth` supers reach the crate root; more
            // (inside an inline `mod tests`) are counted the same, and only a top-level
            // module's name after them is taken as an edge.
            if k >= depth && depth > 0 {
                let (name, _) = ident_at(b, j);
                if ALLOWED.iter().any(|(m, _)| *m == name) {
                    out.push((name, j));
                }
            }
            i = j;
            continue;
        }
        i += 1;
    }
    out
}

fn skip_space(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The first identifier of each item of the `{...}` group opening at `open`.
fn group_heads(b: &[u8], open: usize) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut expect_head = true;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'{' => {
                depth += 1;
                if depth == 1 {
                    expect_head = true;
                }
                i += 1;
            }
            b'}' => {
                depth -= 1;
                i += 1;
                if depth == 0 {
                    break;
                }
            }
            b',' => {
                if depth == 1 {
                    expect_head = true;
                }
                i += 1;
            }
            c if depth == 1 && expect_head && is_ident_char(c) => {
                let (name, end) = ident_at(b, i);
                if name != "self" {
                    out.push((name, i));
                }
                expect_head = false;
                i = end;
            }
            _ => i += 1,
        }
    }
    out
}

fn line_of(code: &str, offset: usize) -> usize {
    code[..offset].bytes().filter(|c| *c == b'\n').count() + 1
}

/// Every edge between two different top-level modules in `src/`.
fn edges() -> Vec<Edge> {
    let mut files = Vec::new();
    rust_files(&src_dir(), &mut files);
    let mut out = Vec::new();
    for file in files {
        let path = module_path(&file);
        let Some(from) = path.first() else { continue };
        let text = std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("reading {}: {e}", file.display()));
        let code = code_only(&text);
        for (to, offset) in crate_paths(&code, path.len()) {
            if to.is_empty() || &to == from {
                continue;
            }
            out.push(Edge {
                from: from.clone(),
                to,
                file: file.clone(),
                line: line_of(&code, offset),
            });
        }
    }
    out
}

fn allowed(from: &str, to: &str) -> bool {
    ALLOWED
        .iter()
        .find(|(m, _)| *m == from)
        .is_some_and(|(_, deps)| deps.contains(&to))
}

#[test]
fn every_module_uses_only_the_modules_the_layering_allows() {
    let all = edges();
    assert!(
        all.iter().any(|e| e.from == "cli" && e.to == "game"),
        "the scanner found no cli -> game edge: it is not reading the sources"
    );
    let top: Vec<&str> = ALLOWED.iter().map(|(m, _)| *m).collect();
    let bad: Vec<String> = all
        .iter()
        .filter(|e| top.contains(&e.from.as_str()) && !allowed(&e.from, &e.to))
        .map(|e| {
            let rel = e
                .file
                .strip_prefix(env!("CARGO_MANIFEST_DIR"))
                .unwrap_or(&e.file);
            format!("{}:{}: {} -> {}", rel.display(), e.line, e.from, e.to)
        })
        .collect();
    assert!(
        bad.is_empty(),
        "{} use(s) outside the allowed layering (see ALLOWED in tests/layering.rs):\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn every_top_level_module_is_in_the_layering_table() {
    let lib = std::fs::read_to_string(src_dir().join("lib.rs")).expect("src/lib.rs");
    let declared: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|m| m.trim_end_matches(';').trim())
        .collect();
    assert!(!declared.is_empty());
    for m in &declared {
        assert!(
            ALLOWED.iter().any(|(n, _)| n == m),
            "module {m} is missing from ALLOWED in tests/layering.rs"
        );
    }
}

#[test]
fn the_layering_table_is_acyclic_and_names_known_modules() {
    let graph: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    for (m, deps) in &graph {
        for d in *deps {
            assert!(graph.contains_key(d), "{m} lists unknown module {d}");
            assert_ne!(m, d, "{m} lists itself");
        }
    }
    // Kahn's algorithm: repeatedly remove the modules whose dependencies are all removed.
    let mut done: Vec<&str> = Vec::new();
    while done.len() < graph.len() {
        let next = graph
            .iter()
            .find(|(m, deps)| !done.contains(m) && deps.iter().all(|d| done.contains(d)))
            .map(|(m, _)| *m);
        match next {
            Some(m) => done.push(m),
            None => {
                let rest: Vec<_> = graph.keys().filter(|m| !done.contains(m)).collect();
                panic!("the layering table has a cycle among {rest:?}");
            }
        }
    }
    // The table lists each module after everything it may use.
    for (i, (m, deps)) in ALLOWED.iter().enumerate() {
        for d in *deps {
            let j = ALLOWED.iter().position(|(n, _)| n == d).expect("known");
            assert!(j < i, "{m} may use {d}, which is listed after it");
        }
    }
}

#[test]
fn geometry_names_nothing_of_the_rules() {
    let mut files = Vec::new();
    rust_files(&src_dir().join("geometry"), &mut files);
    assert!(!files.is_empty());
    let mut bad = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable");
        for (n, line) in text.lines().enumerate() {
            if line.contains("crate::rules") {
                bad.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "src/geometry must not use crate::rules (comments included):\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_scanner_reads_groups_super_chains_and_skips_comments() {
    let code = code_only(
        "use crate::{geometry::Vec3, rules::{coherency, cover}};\n\
         /// [`crate::app::editor`]\n\
         // crate::cli\n\
         let x = super::super::game::Game::new(); // crate::sim\n\
         use crate::{\n    self,\n    data::load,\n};\n",
    );
    let found: Vec<(String, usize)> = crate_paths(&code, 2)
        .into_iter()
        .map(|(m, o)| (m, line_of(&code, o)))
        .collect();
    let want: Vec<(String, usize)> = [("geometry", 1), ("rules", 1), ("game", 4), ("data", 7)]
        .iter()
        .map(|(m, l)| (m.to_string(), *l))
        .collect();
    assert_eq!(found, want);
}
