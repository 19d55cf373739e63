//! The rules of Xodd, Yodd, Odd and Onyx: boards, bitboards, positions,
//! move tokens, game records and perft. Knows nothing of search or protocol.
//!
//! Layers, lowest first: `once_map` (what is built once and kept: per
//! board, per weights file), `topology` (cells, names, neighbours, symmetries,
//! and the geometry pictures are drawn from), `bitboard` and `tables`;
//! `kind` and `moves` (games by name, actions, turns, tokens); `game` (the
//! `Game` trait and specs); the games `parity`, `odd` and `onyx`; then
//! `position` (any game at run time), `record`, `tree` (games with
//! variations), `sgf` and `perft`; `quote` writes outside input into
//! messages.
//!
//! Each game's facts that the layers above need (whether colours are
//! chosen, captures, the smallest group, symmetries) are asked of
//! [`kind::GameKind`], never decided by comparing game kinds elsewhere.
//!
//! # Example
//! Play a few turns of Xodd 3 from their tokens, read the groups, and count
//! the turn sequences that can follow (`docs/rules.md` section 6):
//! ```
//! use oddity_rules::game::{GameSpec, Rules};
//! use oddity_rules::kind::GameKind;
//! use oddity_rules::position::AnyGame;
//! use oddity_rules::record::GameRecord;
//!
//! let spec = GameSpec::new(GameKind::Xodd, 3, Rules::default()).unwrap();
//! assert_eq!(AnyGame::new(&spec).perft(2), 1338);
//!
//! let record = GameRecord::replay(AnyGame::new(&spec), &["B:B2", "W:A1,W:C3"]).unwrap();
//! let position = record.position();
//! assert_eq!(position.group_counts(), [1, 2]);
//! assert!(!position.is_over());
//! // A stone on an occupied point is refused, and the record is unchanged.
//! let mut copy = record.clone();
//! assert!(copy.play_token("B:B2").is_err());
//! assert_eq!(copy.moves().len(), 2);
//! println!("{} turns can follow", position.perft(1));
//! ```

pub mod bitboard;
pub mod drawn;
mod forest;
pub mod game;
pub mod kind;
pub mod moves;
pub mod odd;
pub mod once_map;
pub mod onyx;
pub mod parity;
pub mod perft;
pub mod position;
pub mod quote;
pub mod random;
pub mod record;
pub mod sgf;
pub mod tables;
pub mod topology;
pub mod tree;
