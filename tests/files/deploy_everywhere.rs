//! Every sample army deploys automatically on every Chapter Approved 2025-26 layout and every
//! deployment map, in either player's zone, and the engine accepts each set-up (issue 49: a legal 2,000-point list could not start
//! on 36 of the 48 pairings).

use std::path::{Path, PathBuf};

use super::roster_import::import_sample;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file of `dir` ending in `.ron`, sorted.
fn ron_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_sample_army_deploys_automatically_on_every_layout_and_deployment_map() {
    let dir = std::env::temp_dir().join(format!("wartable-deploy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scenes = root().join("scenes");
    let mut armies: Vec<PathBuf> = [
        "space-wolves-1990.txt",
        "genestealer-cults-2000-android.txt",
        "tau-empire-2000.txt",
        "leagues-of-votann-965.rosz",
        "necrons-1205.ros",
    ]
    .iter()
    .map(|f| import_sample(f, &dir).file)
    .collect();
    armies.extend(ron_files(&scenes.join("armies")));
    let mission = scenes.join("missions/take-and-hold.ron");
    let layouts = ron_files(&scenes.join("layouts"));
    let deployments = ron_files(&scenes.join("deployments"));
    assert_eq!((layouts.len(), deployments.len()), (8, 6));
    let mut failures = Vec::new();
    let mut tried = 0;
    for army in &armies {
        for layout in &layouts {
            for deployment in &deployments {
                // The same army in both zones: player 1's is filled in the table's frame,
                // player 2's in its half-turn.
                let scene = dir.join("scene.ron");
                std::fs::write(
                    &scene,
                    format!(
                        "Scene(name: \"Deploy\", layout: {:?}, deployment: {:?}, mission: {:?},\n  armies: [SceneArmy(player: 1, army: {:?}), SceneArmy(player: 2, army: {:?})])\n",
                        layout, deployment, mission, army, army
                    ),
                )
                .unwrap();
                tried += 1;
                match wartable::data::load_scene(&scene) {
                    Ok(s) => {
                        let models: usize = s
                            .armies
                            .iter()
                            .flat_map(|a| &a.units)
                            .map(|u| u.models.len())
                            .sum();
                        assert!(models > 0);
                        // The engine accepts every unit where the set-up put it.
                        let (mut game, _) = wartable::game::Game::start(s, 1);
                        if let Err(r) = game.deploy_as_placed() {
                            failures.push(format!(
                                "{} on {} / {}: the engine refuses the set-up: {r}",
                                army.file_name().unwrap().display(),
                                layout.file_name().unwrap().display(),
                                deployment.file_name().unwrap().display()
                            ));
                        }
                    }
                    Err(e) => failures.push(format!(
                        "{} on {} / {}: {e}",
                        army.file_name().unwrap().display(),
                        layout.file_name().unwrap().display(),
                        deployment.file_name().unwrap().display()
                    )),
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {tried} set-ups fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
