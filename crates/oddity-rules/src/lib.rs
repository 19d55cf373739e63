//! The rules of Xodd, Yodd, Odd and Onyx: boards, bitboards, positions,
//! move tokens, game records, SGF and perft. Knows nothing of search or
//! protocol: it is what a GUI, a referee or another engine needs to play
//! these games (`docs/rules.md` of the oddity repository is the rules'
//! specification).
//!
//! A first program needs only the names at the crate root: a game is chosen
//! by a [`GameSpec`] (the game, the board size and rule options), played on
//! an [`AnyGame`] (any game on any board behind one type) and kept with its
//! moves in a [`GameRecord`]. Turns are read and written as the protocol's
//! tokens (`B:B2`, `W:A1,W:C3`, `pass`, `swap`). Code that wants one game's
//! own type, for speed, gets it from an [`AnyGame`] with [`with_game!`] and
//! uses the [`Game`] trait. A game with variations is a [`tree::GameTree`],
//! read and written as SGF by [`sgf`].
//!
//! # Xodd
//! Each turn places one or two stones of either colour, and leaves the
//! number of groups of both colours together odd; when both sides pass in
//! a row, the colour with fewer groups wins. Play two turns on the 3x3 board,
//! count the groups, and count the turn sequences from the start
//! (`docs/rules.md` section 6):
//! ```
//! use oddity_rules::{AnyGame, GameKind, GameRecord, GameSpec, Rules};
//!
//! let spec = GameSpec::new(GameKind::Xodd, 3, Rules::default()).unwrap();
//! let record = GameRecord::replay(AnyGame::new(&spec), &["B:B2", "W:A1,W:C3"]).unwrap();
//! assert_eq!(record.position().group_counts(), [1, 2]);
//! assert!(!record.is_over());
//! // A stone on an occupied point is refused, and the record is unchanged.
//! let mut copy = record.clone();
//! assert!(copy.play_token("B:B2").is_err());
//! assert_eq!(copy.moves(), record.moves());
//! assert_eq!(AnyGame::new(&spec).perft(2), 1338);
//! ```
//!
//! # Yodd
//! Xodd's rules on the hex-hex board. Play a game of side 2 to its end (two
//! passes) and read who won and why:
//! ```
//! use oddity_rules::{AnyGame, Colour, Decision, GameKind, GameRecord, GameSpec, Rules};
//!
//! let spec = GameSpec::new(GameKind::Yodd, 2, Rules::default()).unwrap();
//! let start = AnyGame::new(&spec);
//! assert_eq!(start.perft(2), 470);
//! let record = GameRecord::replay(start, &["B:B2", "W:A1,W:C3", "pass", "pass"]).unwrap();
//! let outcome = record.outcome().unwrap();
//! assert_eq!(outcome.winner, Colour::Black);
//! assert_eq!(outcome.decision, Decision::FewerGroups { black: 1, white: 2 });
//! ```
//!
//! # Odd
//! One stone of either colour per turn until the hex-hex board is full;
//! Black wins when the number of groups of at least the smallest counted
//! size (the board side by default) is odd. Fill the board of side 2:
//! ```
//! use oddity_rules::{AnyGame, Colour, GameKind, GameRecord, GameSpec, Rules};
//!
//! let spec = GameSpec::new(GameKind::Odd, 2, Rules::default()).unwrap();
//! let start = AnyGame::new(&spec);
//! assert_eq!(start.perft(3), 1680);
//! let tokens = ["B:A1", "B:B1", "W:C2", "B:C3", "W:B3", "B:A2", "B:B2"];
//! let record = GameRecord::replay(start, &tokens).unwrap();
//! assert_eq!(record.position().empty_points(), 0);
//! // One black group of five stones counts; White's two stones are apart.
//! assert_eq!(record.position().group_counts(), [1, 0]);
//! assert_eq!(record.outcome().unwrap().winner, Colour::Black);
//! ```
//!
//! # Onyx
//! One stone of one's own colour per turn on the corner points of a grid
//! and the midpoints of some of its cells; a stone on a corner point
//! captures the two stones of the other colour on a square's other
//! diagonal when the square's fourth corner is one's own, and a chain
//! joining one's two edges wins (Black rows 1 and n, White the first and
//! last columns). From the empty 4x4 board without
//! the swap, Black joins rows 1 and 4:
//! ```
//! use oddity_rules::{AnyGame, Colour, GameKind, GameRecord, GameSpec, Rules};
//!
//! let rules = Rules { open_start: true, swap: false, ..Rules::default() };
//! let spec = GameSpec::new(GameKind::Onyx, 4, rules).unwrap();
//! let tokens = ["B1", "D1", "B2", "D2", "B3", "D3", "B4"];
//! let record = GameRecord::replay(AnyGame::new(&spec), &tokens).unwrap();
//! assert_eq!(record.outcome().unwrap().winner, Colour::Black);
//! let open_six = GameSpec::new(GameKind::Onyx, 6, Rules { open_start: true, ..Rules::default() });
//! assert_eq!(AnyGame::new(&open_six.unwrap()).perft(2), 2256);
//! ```
//!
//! # Modules
//! Lowest first: `topology` (cells, names, neighbours, symmetries, and the
//! geometry pictures are drawn from) and `bitboard`; `kind` and `moves`
//! (games by name and each game's facts, actions, turns, tokens); `game`
//! (the [`Game`] trait and specs) and `drawn` (playouts whose stones a
//! policy draws); the games `xodd_yodd`, `odd` and `onyx`; then `position`
//! (any game at run time), `record`, `tree` (a game with variations),
//! `sgf` and `perft`; `quote` (outside input quoted on one line in
//! messages) serves them all.
//!
//! Each game's facts that the layers above need (whether colours are
//! chosen, captures, the smallest group, symmetries) are asked of
//! [`GameKind`], never decided by comparing game kinds elsewhere.

#![warn(missing_docs)]

pub mod bitboard;
pub mod drawn;
mod forest;
pub mod game;
pub mod kind;
pub mod moves;
pub mod odd;
pub mod odd_ending;
pub mod odd_settled;
mod once_map;
pub mod onyx;
pub mod perft;
pub mod position;
pub mod quote;
mod random;
pub mod record;
pub mod sgf;
mod tables;
pub mod topology;
pub mod tree;
pub mod xodd_yodd;

pub use bitboard::Bitboard;
pub use game::{Game, GameSpec, PlayError, RuleError, Rules, SetupError, SpecError};
pub use kind::{GameKind, UnknownGame};
pub use moves::{Action, Colour, Stone, TokenError, Turn};
pub use odd::OddGame;
pub use onyx::OnyxGame;
pub use position::AnyGame;
pub use random::Rng;
pub use record::{Decision, GameRecord, Outcome, ReplayError, TokenPlayError};
pub use sgf::{Branch, CutVariation, read_game_tree_lenient, read_tree_lenient};
pub use topology::{BoardKind, Cell, SizeError, Topology};
pub use tree::GameTree;
pub use xodd_yodd::XoddYoddGame;

/// Building blocks that oddity's other crates share with the rules: values
/// built once per board or per file and kept for the life of the program.
/// Not part of the rules' API: they may change in any release.
#[doc(hidden)]
pub mod internals {
    pub use crate::once_map::OnceMap;
    pub use crate::tables::built_once;
}

// The README's first program is compiled and run with the doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
