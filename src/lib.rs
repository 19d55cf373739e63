//! oddity: rules, search and tools for Xodd, Yodd, Odd and Onyx.
//!
//! Layers: `rules` ← `search` ← {`gtp`, `tournament`, `analysis`} ← `cli`;
//! `render` (board pictures) sits on `rules` alone; `gui` (the web page) on
//! `rules`, `render` and the engine processes of `tournament`, not on
//! `search`.

pub mod analysis;
pub mod cli;
pub mod engine;
pub mod gtp;
pub mod gui;
pub mod lines;
pub mod render;
pub mod rules;
pub mod search;
pub mod solver;
pub mod tournament;
