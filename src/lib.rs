//! oddity: rules, search and tools for Xodd, Yodd, Odd and Onyx.

pub mod bitboard;
pub mod game;
pub mod moves;
pub mod tables;
pub mod topology;
pub mod perft;
pub mod onyx;
