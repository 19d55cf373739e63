//! The rules of Xodd, Yodd, Odd and Onyx: boards, bitboards, positions,
//! move tokens, game records and perft. Knows nothing of search or protocol.
//!
//! Layers, lowest first: `topology` (cells, names, neighbours, symmetries,
//! and the geometry pictures are drawn from), `bitboard` and `tables`;
//! `kind` and `moves` (games by name, actions, turns, tokens); `game` (the
//! `Game` trait and specs); the games `parity`, `odd` and `onyx`; then
//! `position` (any game at run time), `record`, `sgf` and `perft`.

pub mod bitboard;
pub mod game;
pub mod kind;
pub mod moves;
pub mod odd;
pub mod onyx;
pub mod parity;
pub mod perft;
pub mod position;
pub mod random;
pub mod record;
pub mod sgf;
pub mod tables;
pub mod topology;
