//! oddity: rules, search and tools for Xodd, Yodd, Odd and Onyx.
//!
//! The library crates below the application: `oddity-rules` (re-exported as
//! [`rules`]), `oddity-solver` ([`solver`], on the rules),
//! `oddity-patterns` ([`patterns`], on the rules) and `oddity-search`
//! ([`search`], on the rules, the solver and the patterns). This crate is
//! the application over them: `gtp` (the engine protocol), `engine` (engine
//! processes, as a client), `tournament`, `analysis`, `render` (board
//! pictures, on the rules alone), `gui` (the web page, on `render` and the
//! engine processes, not on `search`) and `cli`; `heat` (per-cell heat of
//! candidate turns), `lines` (text lines read as bytes), `fairness` (what
//! the balance study found for each board) and `version` (which build this
//! is) serve several of them.

pub use oddity_fairness as fairness;
pub use oddity_patterns as patterns;
pub use oddity_render as render;
pub use oddity_rules as rules;
pub use oddity_rules::with_game;
pub use oddity_search as search;
#[cfg(feature = "gui")]
pub use oddity_session as session;
pub use oddity_solver as solver;

pub mod analysis;
pub mod cli;
pub mod engine;
pub mod gtp;
#[cfg(feature = "gui")]
pub mod gui;
pub mod lines;
pub mod tournament;
pub mod version;

pub use version::BUILD;
