#![warn(missing_docs)]
//! wartable: a desktop 3D tabletop simulator for Warhammer 40,000 (10th edition core rules).
//!
//! Layout: pure [`geometry`] and [`rules`] (no Bevy), [`data`] (RON formats), headless [`sim`]
//! plugins, the desktop [`app`], and the headless [`cli`].

pub mod ai;
pub mod app;
pub mod cli;
pub mod data;
pub mod design;
pub mod geometry;
pub mod rules;
pub mod sim;
