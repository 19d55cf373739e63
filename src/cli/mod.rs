//! Command-line front ends: thin layers over the library.

pub mod accuracy;
pub mod analysis;
pub mod analyze;
pub mod args;
pub mod balance;
pub mod bench;
pub mod gtp;
#[cfg(feature = "gui")]
pub mod gui;
pub mod interrupt;
pub mod match_cmd;
pub mod openings;
pub mod perft;
pub mod position;
pub mod render;
pub mod solve;
pub mod train;

pub use args::{GameArgs, parse_game_kind, parse_tuning};
