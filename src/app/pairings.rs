//! The Chapter Approved 2025-26 Tournament Companion's mission pool as data: which terrain
//! layouts each deployment map is played on and which primary missions go with it, and the
//! Fixed secondary cards a player may choose. The new-game menu offers only these pairings
//! while its "Tournament pairings only" toggle is on.
//!
//! Every path here is spelled as the embedded data table spells it
//! (`scenes/layouts/layout-1.ron`), the way the menu's form holds its choices.

use std::path::Path;

use crate::data::resolve::{load_mission, load_secondary_deck};
use crate::data::source::{embedded_files, shipped, sibling};
use crate::rules::secondary::{SecondaryDeck, SecondaryMode};

/// One deployment map of the tournament pool: the layouts it is played on and its primaries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pairing {
    /// Deployment map file, e.g. `scenes/deployments/tipping-point.ron`.
    pub deployment: &'static str,
    /// Terrain layout numbers (`scenes/layouts/layout-N.ron`).
    pub layouts: &'static [u8],
    /// Primary mission files, in the Companion's order.
    pub missions: &'static [&'static str],
}

/// The Tournament Companion's pairings (Chapter Approved 2025-26): each deployment map with
/// its layouts and primary missions. The one place the pool is written down.
pub const PAIRINGS: &[Pairing] = &[
    Pairing {
        deployment: "scenes/deployments/tipping-point.ron",
        layouts: &[1, 2, 4, 6, 7, 8],
        missions: &[
            "scenes/missions/take-and-hold.ron",
            "scenes/missions/supply-drop.ron",
            "scenes/missions/linchpin.ron",
            "scenes/missions/scorched-earth.ron",
        ],
    },
    Pairing {
        deployment: "scenes/deployments/hammer-and-anvil.ron",
        layouts: &[1, 7, 8],
        missions: &[
            "scenes/missions/take-and-hold.ron",
            "scenes/missions/hidden-supplies.ron",
            "scenes/missions/purge-the-foe.ron",
            "scenes/missions/supply-drop.ron",
        ],
    },
    Pairing {
        deployment: "scenes/deployments/search-and-destroy.ron",
        layouts: &[1, 2, 3, 4, 6],
        missions: &[
            "scenes/missions/hidden-supplies.ron",
            "scenes/missions/linchpin.ron",
            "scenes/missions/scorched-earth.ron",
            "scenes/missions/take-and-hold.ron",
        ],
    },
    Pairing {
        deployment: "scenes/deployments/crucible-of-battle.ron",
        layouts: &[1, 2, 4, 6, 8],
        missions: &[
            "scenes/missions/purge-the-foe.ron",
            "scenes/missions/hidden-supplies.ron",
            "scenes/missions/terraform.ron",
            "scenes/missions/scorched-earth.ron",
        ],
    },
    Pairing {
        deployment: "scenes/deployments/sweeping-engagement.ron",
        layouts: &[3, 5],
        missions: &[
            "scenes/missions/supply-drop.ron",
            "scenes/missions/terraform.ron",
        ],
    },
    Pairing {
        deployment: "scenes/deployments/dawn-of-war.ron",
        layouts: &[5],
        missions: &[
            "scenes/missions/linchpin.ron",
            "scenes/missions/purge-the-foe.ron",
        ],
    },
];

/// The layout file of layout number `n`.
pub fn layout_file(n: u8) -> String {
    format!("scenes/layouts/layout-{n}.ron")
}

/// Every layout of the tournament pool, in number order.
pub fn tournament_layouts() -> Vec<String> {
    let mut n: Vec<u8> = PAIRINGS
        .iter()
        .flat_map(|p| p.layouts.iter().copied())
        .collect();
    n.sort_unstable();
    n.dedup();
    n.into_iter().map(layout_file).collect()
}

/// Every deployment map of the tournament pool, in the Companion's order.
pub fn tournament_deployments() -> Vec<String> {
    PAIRINGS.iter().map(|p| p.deployment.to_string()).collect()
}

/// The deployment maps played on `layout` (empty for a layout outside the pool).
pub fn deployments_for_layout(layout: &str) -> Vec<String> {
    PAIRINGS
        .iter()
        .filter(|p| p.layouts.iter().any(|&n| layout_file(n) == layout))
        .map(|p| p.deployment.to_string())
        .collect()
}

/// The layouts `deployment` is played on (empty for a map outside the pool).
pub fn layouts_for_deployment(deployment: &str) -> Vec<String> {
    PAIRINGS
        .iter()
        .filter(|p| p.deployment == deployment)
        .flat_map(|p| p.layouts.iter().map(|&n| layout_file(n)))
        .collect()
}

/// The primary missions played on `deployment` (empty for a map outside the pool).
pub fn missions_for_deployment(deployment: &str) -> Vec<String> {
    PAIRINGS
        .iter()
        .filter(|p| p.deployment == deployment)
        .flat_map(|p| p.missions.iter().map(|m| m.to_string()))
        .collect()
}

/// True when `layout`, `deployment` and `mission` make a tournament pairing.
pub fn is_pairing(layout: &str, deployment: &str, mission: &str) -> bool {
    deployments_for_layout(layout)
        .iter()
        .any(|d| d == deployment)
        && missions_for_deployment(deployment)
            .iter()
            .any(|m| m == mission)
}

/// The embedded mission files under `scenes/missions/` (the secondary deck file, which lives
/// beside them, left out), sorted: the free choice.
pub fn mission_files() -> Vec<String> {
    let mut v: Vec<String> = embedded_files()
        .iter()
        .filter(|(p, text)| {
            p.starts_with("scenes/missions/")
                && p.ends_with(".ron")
                && text.lines().any(|l| l.trim_start().starts_with("Mission("))
        })
        .map(|(p, _)| p.to_string())
        .collect();
    v.sort();
    v
}

/// The secondary deck of the mission `mission` (a shipped file such as
/// `scenes/missions/take-and-hold.ron`, read from disk when there, else built in), loaded
/// relative to the mission file; None when the mission has no deck.
///
/// # Errors
/// The mission or its deck does not load (the first problem, naming its file).
pub fn mission_deck(mission: &str) -> Result<Option<SecondaryDeck>, String> {
    mission_deck_at(&shipped(mission))
}

/// [`mission_deck`] for a mission file at `path`.
///
/// # Errors
/// The mission or its deck does not load.
pub fn mission_deck_at(path: &Path) -> Result<Option<SecondaryDeck>, String> {
    let first =
        |e: crate::data::DataErrors| e.to_string().lines().next().unwrap_or_default().to_string();
    let mission = load_mission(path).map_err(first)?;
    match &mission.secondary_deck {
        Some(deck) => load_secondary_deck(&sibling(path, deck))
            .map(Some)
            .map_err(first),
        None => Ok(None),
    }
}

/// The cards a player may choose as Fixed ([`SecondaryDeck::fixed_choices`]).
pub fn fixed_choices(deck: &SecondaryDeck, tournament: bool) -> Vec<String> {
    deck.fixed_choices(tournament)
}

/// Checks a player's secondary choice against `deck` ([`SecondaryDeck::check_mode`]).
///
/// # Errors
/// Why the choice is not allowed ("the two Fixed cards must differ").
pub fn check_secondaries(
    deck: &SecondaryDeck,
    tournament: bool,
    mode: &SecondaryMode,
) -> Result<(), String> {
    deck.check_mode(mode, tournament)
}

/// The first two allowed Fixed cards, the choice offered when a player switches to Fixed
/// (Tactical when the deck has fewer than two).
pub fn default_fixed(deck: &SecondaryDeck, tournament: bool) -> SecondaryMode {
    match fixed_choices(deck, tournament).as_slice() {
        [a, b, ..] => SecondaryMode::Fixed(a.clone(), b.clone()),
        _ => SecondaryMode::Tactical,
    }
}
