#![warn(missing_docs)]
//! wartable: a desktop 3D tabletop simulator for Warhammer 40,000 (10th edition core rules).
//!
//! Layout: pure [`geometry`] and [`rules`] (no Bevy), [`data`] (RON formats), the pure battle
//! engine [`game`] (with its sight index and attack inputs), headless [`sim`]
//! plugins, the desktop [`app`], and the headless [`cli`].

pub mod ai;
pub mod app;
pub mod cli;
pub mod data;
pub mod design;
pub mod game;
pub mod geometry;
pub mod rules;
pub mod sim;
