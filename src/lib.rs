#![warn(missing_docs)]
//! wartable: a desktop 3D tabletop simulator for Warhammer 40,000 (10th edition core rules).
//!
//! Layout: pure [`geometry`] and [`rules`] (no Bevy), [`data`] (RON formats), the pure battle
//! engine [`game`] (with its sight index and attack inputs), headless [`sim`]
//! plugins, the desktop [`app`], and the headless [`cli`].

/// Writes one line to standard error, as `eprintln!` does, but never panics: when standard
/// error cannot be written (`2>/dev/full`, a closed pipe) the line is dropped, since there is
/// nowhere left to report anything. Every message of the command line goes through it.
#[macro_export]
macro_rules! stderr_line {
    ($($arg:tt)*) => {{
        use ::std::io::Write as _;
        let _ = ::std::writeln!(::std::io::stderr(), $($arg)*);
    }};
}

pub mod ai;
pub mod app;
pub mod cli;
pub mod data;
pub mod design;
pub mod game;
pub mod geometry;
pub mod rules;
pub mod sim;
