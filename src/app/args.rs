//! The arguments of `wartable play` (the desktop app), and how a scene argument names a file.

use std::path::{Path, PathBuf};

use crate::data::source::DEFAULT_SCENE;
use crate::game::sight::UnitSelector;

/// Arguments of `play`.
#[derive(Debug, Clone, clap::Args, Default)]
pub struct PlayArgs {
    /// Scene file ("default" or nothing for the built-in default scene).
    pub scene: Option<PathBuf>,
    /// Ruleset to play under, overriding the scene's: 10 (10th edition) or 11.
    #[arg(long)]
    pub ruleset: Option<crate::rules::Ruleset>,
    /// Render, save a screenshot to this PNG, then exit.
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    /// Frames to render before the screenshot.
    #[arg(long, default_value_t = 30, requires = "screenshot")]
    pub frames: u32,
    /// Select this unit at start (its card opens), e.g. for a screenshot: UNIT or 2:UNIT.
    #[arg(long)]
    pub select: Option<UnitSelector>,
    /// Open the main menu (over the scene) instead of starting a game on the scene.
    #[arg(long)]
    pub menu: bool,
    /// Load this save file and play on (it keeps autosaving to it).
    #[arg(long, conflicts_with = "scene")]
    pub load: Option<PathBuf>,
    /// Dice seed of a game started on the scene.
    #[arg(long, default_value_t = 7)]
    pub seed: u64,
    /// Folder for autosaves.
    #[arg(long, default_value = "saves")]
    pub saves: PathBuf,
    /// The window's size in logical pixels, WIDTHxHEIGHT (e.g. 1920x1080).
    #[arg(long, value_parser = parse_window, default_value = "1280x720")]
    pub window: (u32, u32),
    /// Play a scripted start for screenshots (see `crate::app::scenario::SCENARIOS`): overview,
    /// los, drag-refused, shooting, eye, reaction, log, summary or strip.
    #[arg(long)]
    pub scenario: Option<String>,
    /// One person plays both sides: no hand-over screens.
    #[arg(long, conflicts_with = "computer")]
    pub solo: bool,
    /// Play against the computer: it plays this player (1 or 2).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub computer: Option<u8>,
    /// How strongly the computer plays: easy, normal or hard.
    #[arg(long, value_enum, default_value_t = crate::ai::Level::Hard)]
    pub ai: crate::ai::Level,
    /// Open the layout editor on the scene's layout and deployment map.
    #[arg(long)]
    pub editor: bool,
    /// With --editor: start in mirror mode (the 180° image follows every edit).
    #[arg(long, requires = "editor")]
    pub mirror: bool,
}

impl PlayArgs {
    /// Whether `play` starts a game at once rather than opening the main menu: a scene or a
    /// save names one, and asking for the computer (`--computer`) or a solo game (`--solo`)
    /// with neither starts one on the default scene (found playing by hand: `play --computer
    /// 2` opened the menu with hot-seat ticked). `--menu` and `--editor` open their screens.
    pub fn starts_game(&self) -> bool {
        let asked =
            self.scene.is_some() || self.load.is_some() || self.computer.is_some() || self.solo;
        asked && !self.menu && !self.editor
    }

    /// Who sits at the table as the arguments ask: the computer as `--computer`'s player,
    /// one person with `--solo`, else hot-seat.
    pub fn seats(&self) -> crate::app::play::Seats {
        use crate::app::play::Seats;
        match self.computer {
            Some(p) => Seats::Computer(p),
            None if self.solo => Seats::Solo,
            None => Seats::HotSeat,
        }
    }
}

/// Parses a window size "WIDTHxHEIGHT" (each 320 to 7680).
///
/// # Errors
/// Not two numbers joined by "x", or one out of range.
pub fn parse_window(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("'{s}' is not WIDTHxHEIGHT, e.g. 1920x1080"))?;
    let n = |v: &str| -> Result<u32, String> {
        let x: u32 = v
            .trim()
            .parse()
            .map_err(|_| format!("'{v}' in '{s}' is not a whole number of pixels"))?;
        if (320..=7680).contains(&x) {
            Ok(x)
        } else {
            Err(format!("{x} pixels in '{s}' is outside 320 to 7680"))
        }
    };
    Ok((n(w)?, n(h)?))
}

/// The scene path a user argument names: "default" or nothing means the built-in one.
pub fn scene_path(arg: Option<&Path>) -> PathBuf {
    match arg {
        None => PathBuf::from(DEFAULT_SCENE),
        Some(p) if p == Path::new("default") => PathBuf::from(DEFAULT_SCENE),
        Some(p) => p.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        play: PlayArgs,
    }

    fn parse(args: &[&str]) -> PlayArgs {
        Cli::try_parse_from(std::iter::once("play").chain(args.iter().copied()))
            .expect("valid arguments")
            .play
    }

    #[test]
    fn asking_for_the_computer_or_solo_starts_a_game_on_the_default_scene() {
        assert!(!parse(&[]).starts_game(), "no arguments open the menu");
        assert!(parse(&["--computer", "2", "--ai", "hard"]).starts_game());
        assert!(parse(&["--solo"]).starts_game());
        assert!(parse(&["default"]).starts_game());
        assert!(!parse(&["--computer", "2", "--menu"]).starts_game());
        assert!(!parse(&["--editor"]).starts_game());
    }
}
