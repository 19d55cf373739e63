//! oddity: rules, search and tools for Xodd, Yodd, Odd and Onyx.

pub mod bitboard;
pub mod cli;
pub mod game;
pub mod gtp;
pub mod moves;
pub mod odd;
pub mod onyx;
pub mod parity;
pub mod perft;
pub mod position;
pub mod random;
pub mod record;
pub mod search;
pub mod sgf;
pub mod tables;
pub mod topology;
pub mod tournament;
