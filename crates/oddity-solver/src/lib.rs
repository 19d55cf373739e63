//! The exact solver: proves who wins a position with best play, and which
//! of its turns win.
//!
//! # Method
//! Depth-first proof-number search ([`dfpn`]) over the game's actions, with
//! a transposition table ([`table`]) keyed by Zobrist hashes that are the
//! same for every symmetric image of a position ([`keys`]), and children
//! tried in the order of the `order` module. The table has a fixed size (the memory
//! cap); when it is full, the entries with the least work under them make
//! room.
//!
//! A solve first proves the position itself (the root) for the side to
//! move, then, unless only the value is wanted, each legal turn. With
//! several threads, the threads take these jobs from one queue and share
//! the table, so that the turns' searches feed the root's.
//!
//! In Onyx, where captures let positions repeat, a win must be forced in a
//! finite number of moves: a search that fails to prove the side to move's
//! win is followed by one for the other side, and when both fail the
//! position is reported as won by neither (play can be kept going for
//! ever). Proofs never rest on a repetition (see [`dfpn`]).
//!
//! # Checking
//! [`proof::check_win`] walks a proof again from the rules alone: every
//! position where the winner moves must have a legal winning action, every
//! position where the loser moves must have all its actions lead to proven
//! positions, every finished game must be won by the winner, and no line
//! may return to a position of its own path. The solver's table only
//! suggests the winner's actions; a wrong suggestion makes the check fail.
//!
//! # Example
//! Prove Xodd 3 from the start (`docs/solved.md`): the first player wins,
//! and only with a black stone in the centre.
//! ```
//! use std::sync::atomic::AtomicBool;
//!
//! use oddity_rules::{AnyGame, Colour, GameKind, GameSpec, Rules};
//! use oddity_solver::{SolveLimits, Solver, SolverParams, Value};
//!
//! let spec = GameSpec::new(GameKind::Xodd, 3, Rules::default()).unwrap();
//! let start = AnyGame::new(&spec);
//! let mut solver = Solver::new(SolverParams::default());
//! let solution = solver.solve(&start, true, &SolveLimits::default(), &AtomicBool::new(false), None);
//! assert_eq!(solution.winner(), Some(Colour::Black));
//! let winning: Vec<String> = solution
//!     .turns
//!     .iter()
//!     .filter(|t| t.value == Some(Value::Win))
//!     .map(|t| start.token(&t.turn))
//!     .collect();
//! assert_eq!(winning, ["B:B2"]);
//! // Every proof is walked again from the rules alone.
//! solver.check(&start, &solution).unwrap();
//! ```

#![warn(missing_docs)]

pub mod dfpn;
pub mod keys;
pub mod odd_table;
mod order;
mod params;
pub mod proof;
pub mod retrograde;
mod solution;
mod solve;
pub mod table;
pub mod tables;

pub use params::{SolveLimits, SolverParams};
pub use solution::{ProgressFn, Solution, SolveProgress, TurnValue, Value};
pub use solve::{Solver, check_retrograde, solve_retrograde};
pub use tables::AnyTable;
