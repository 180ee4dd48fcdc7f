//! The agent protocol (docs/agent.md): an outside program plays one side through
//! `simulate --p1-agent/--p2-agent`; `wartable agent` is the built-in computer speaking it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh folder under the system's temporary folder for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wartable-agent-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch folder");
    d
}

/// Runs `wartable simulate` with `args` and returns its JSON summary.
fn simulate(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_wartable"))
        .arg("simulate")
        .args(args)
        .args(["--json", "--quiet", "--threads", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run wartable");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "simulate failed: {stderr}");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"))
}

/// The saves a `--save-games` folder holds, by file name.
fn saves(dir: &Path) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("saves folder")
        .map(|e| {
            let e = e.expect("entry");
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read_to_string(e.path()).expect("save"),
            )
        })
        .collect();
    out.sort();
    out
}

/// `wartable replay --json` of a save.
fn replay(save: &Path) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_wartable"))
        .args(["replay", &save.to_string_lossy(), "--json"])
        .output()
        .expect("run wartable");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("replay JSON")
}

#[test]
fn the_computer_as_an_agent_plays_the_same_games_as_in_process() {
    // hard against `wartable agent --ai hard` on both seats (alternating) gives the very games
    // of hard against hard: the agent's copy of the game follows the protocol's commands.
    let (through, inside) = (scratch("through"), scratch("inside"));
    let agent = format!("{} agent --ai hard", env!("CARGO_BIN_EXE_wartable"));
    let common = ["default", "--games", "2", "--seed", "41", "--alternate"];
    let a = simulate(
        &[
            &common[..],
            &[
                "--p2-agent",
                &agent,
                "--save-games",
                &through.to_string_lossy(),
            ],
        ]
        .concat(),
    );
    let b = simulate(&[&common[..], &["--save-games", &inside.to_string_lossy()]].concat());
    assert_eq!(a["rejected_commands"], 0, "{}", a["rejected_examples"]);
    assert_eq!(a["players"][1]["agent"], agent.as_str());
    let (sa, sb) = (saves(&through), saves(&inside));
    assert_eq!(sa.len(), 2);
    assert_eq!(sa, sb, "the agent's games differ from the in-process ones");
    assert_eq!(a["mean_vp"], b["mean_vp"]);
    // Each save replays to the end of the battle.
    for (name, _) in &sa {
        let end = replay(&through.join(name));
        assert_eq!(end["stage"], "GameOver", "{name}: {end}");
    }
    // An existing save is not replaced.
    let again = Command::new(env!("CARGO_BIN_EXE_wartable"))
        .args([
            "simulate", "default", "--games", "1", "--seed", "41", "--quiet",
        ])
        .args(["--save-games", &through.to_string_lossy()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run wartable");
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("game-41.ron"));
    assert_eq!(saves(&through), sa);
}

#[test]
fn the_example_agent_in_the_docs_plays_a_whole_game_with_no_refused_command() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/agent.md"))
        .expect("docs/agent.md");
    let start = doc.find("```python\n").expect("a python block") + "```python\n".len();
    let code = &doc[start..start + doc[start..].find("```").expect("its end")];
    assert!(
        code.lines().count() <= 30,
        "the example is no longer 30 lines"
    );
    let dir = scratch("example");
    let script = dir.join("agent.py");
    std::fs::write(&script, code).expect("write the example");
    let games = dir.join("games");
    let agent = format!("python3 {}", script.display());
    let v = simulate(&[
        "default",
        "--games",
        "1",
        "--seed",
        "7",
        "--p2-agent",
        &agent,
        "--save-games",
        &games.to_string_lossy(),
    ]);
    assert_eq!(v["games"], 1);
    assert_eq!(v["rejected_commands"], 0, "{}", v["rejected_examples"]);
    // The whole game: the save replays to its end, and player 2 (the agent) gave commands in
    // every battle round.
    let (name, text) = saves(&games).pop().expect("one save");
    let end = replay(&games.join(&name));
    assert_eq!(end["stage"], "GameOver", "{end}");
    assert_eq!(end["battle_round"], 5, "{end}");
    assert!(
        text.matches("player: 2").count() > 50,
        "player 2 hardly acted"
    );
    // It kept its CP: no Stratagem but Command Re-rolls by player 2.
    let save: wartable::game::save::SaveFile = ron::from_str(&text).expect("the save parses");
    for c in &save.commands {
        if let wartable::game::Command::UseStratagem {
            player, stratagem, ..
        } = c
        {
            assert!(
                *player != 2 || *stratagem == wartable::rules::stratagem::Stratagem::CommandReroll,
                "the example agent used {stratagem:?}"
            );
        }
    }
}

#[test]
fn an_agent_that_does_not_answer_with_commands_is_counted_refused() {
    // A reply that is not a command is a refusal, and the game still ends.
    let v = simulate(&[
        "default",
        "--games",
        "1",
        "--seed",
        "3",
        "--p2-agent",
        "while read line; do echo '{\"NotACommand\": 1}'; done",
    ]);
    assert_eq!(v["games"], 1);
    assert!(v["rejected_commands"].as_u64().unwrap_or(0) >= 1);
    let why = v["rejected_examples"][0].as_str().unwrap_or_default();
    assert!(why.contains("is not a command"), "{why}");
    // A process that stops at once is one failure, not one per question.
    let v = simulate(&[
        "default",
        "--games",
        "1",
        "--seed",
        "3",
        "--p2-agent",
        "true",
    ]);
    assert_eq!(v["rejected_commands"], 1, "{}", v["rejected_examples"]);
    assert!(
        v["rejected_examples"][0]
            .as_str()
            .unwrap_or_default()
            .contains("agent ("),
        "{}",
        v["rejected_examples"]
    );
}

#[test]
fn run_with_the_computer_on_both_sides_plays_a_whole_game_into_a_save() {
    let dir = scratch("both");
    let commands = dir.join("none.ron");
    std::fs::write(&commands, "[]").expect("write the command list");
    let save = dir.join("game.ron");
    let out = Command::new(env!("CARGO_BIN_EXE_wartable"))
        .args([
            "run",
            "scenes/default.ron",
            "--computer",
            "both",
            "--ai",
            "normal",
            "--json",
        ])
        .args(["--seed", "5", "--commands", &commands.to_string_lossy()])
        .args(["--save", &save.to_string_lossy()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run wartable");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["final"]["stage"], "GameOver", "{}", v["final"]);
    let refused = v["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| r["accepted"] == false)
        .count();
    assert_eq!(refused, 0);
    // The save replays to the same end.
    let end = replay(&save);
    assert_eq!(end["stage"], "GameOver");
    assert_eq!(end["vp"], v["final"]["vp"]);
    // Not 3 nor "all".
    let bad = Command::new(env!("CARGO_BIN_EXE_wartable"))
        .args(["run", "scenes/default.ron", "--computer", "3", "--commands"])
        .arg(&commands)
        .output()
        .expect("run wartable");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not 1, 2 or both"));
}

#[test]
fn the_computer_as_an_agent_plays_the_same_games_under_eleventh_edition() {
    // The start message names the ruleset: the agent's copy plays under 11th as the game does.
    let (through, inside) = (scratch("through-11"), scratch("inside-11"));
    let agent = format!("{} agent --ai hard", env!("CARGO_BIN_EXE_wartable"));
    let common = ["default", "--ruleset", "11", "--games", "1", "--seed", "43"];
    let a = simulate(
        &[
            &common[..],
            &[
                "--p1-agent",
                &agent,
                "--save-games",
                &through.to_string_lossy(),
            ],
        ]
        .concat(),
    );
    simulate(&[&common[..], &["--save-games", &inside.to_string_lossy()]].concat());
    assert_eq!(a["rejected_commands"], 0, "{}", a["rejected_examples"]);
    assert_eq!(a["ruleset"], "Eleventh");
    let (sa, sb) = (saves(&through), saves(&inside));
    assert_eq!(sa.len(), 1);
    assert!(sa[0].1.contains("Eleventh"), "the save records the ruleset");
    assert_eq!(sa, sb, "the agent's game differs from the in-process one");
}
