//! Multi-threaded Monte Carlo tree search, shared by all games.
//!
//! # Tree
//! One level per *action* (`oddity_rules::Game`): an Xodd/Yodd turn of two
//! stones is two levels (lower cell first), a one-stone turn is the stone and
//! then [`oddity_rules::Action::END_TURN`]. Results are backed up by the seat that chose
//! each action (`to_move()` of the parent position), never by depth parity,
//! so both actions of one turn are scored for the same player.
//!
//! Nodes live in one arena allocated up front from zeroed memory (pages are
//! mapped by the OS only when first written) and are addressed by `u32`
//! index. A node is 28 bytes: first-child index, visits, wins (all `u32`),
//! action and child count (`u16`), proof and prior (`u8`), AMAF visits and
//! wins (`u32`, for RAVE). The children of a node are
//! created all at once, contiguously, in a random order, when the node is
//! expanded. A leaf is expanded when its visits reach its parent's number of
//! children divided by [`EXPAND_DIVISOR`] (the root at once), so the tree
//! grows by about `EXPAND_DIVISOR` nodes per iteration rather than by a full
//! child list, and most iterations are spent in playouts.
//!
//! # Selection
//! UCT: `q + c * sqrt(ln N / n)` with `q` the child's win rate for the seat
//! choosing it, `N` the parent's visits and `n` the child's; an unvisited
//! child is taken first (the first in the random child order). The constant
//! `c` is [`SearchParams::exploration`], or when unset
//! [`default_exploration`]: `sqrt(2)` for [`Policy::Plain`] (textbook UCB1),
//! and per game for [`Policy::Default`] (see that function; starting values
//! until the match runner tunes them). With [`Policy::Default`], games with
//! knowledge add a progressive-bias term from priors ([`Knowledge`],
//! [`hand_priors`], [`default_priors`]), and
//! with RAVE on the win rate is blended with the child's AMAF rate (see
//! [`tuning`] for the switches and constants).
//!
//! # Threads and virtual loss
//! All threads search one tree without locks. Statistics are relaxed
//! atomics. A visit is counted on the way down and the win on the way up, so
//! an iteration in flight counts as a lost visit for the other threads
//! (virtual loss of one playout), which spreads them over different lines.
//! A leaf is expanded by the thread that wins a compare-and-swap on its
//! first-child field; threads that find it being expanded play out from the
//! leaf instead of waiting. Children are allocated with one compare-and-swap
//! on the arena's fill mark per expansion (expansions are rare, see above).
//! Each thread has its own random generator (seeded from the seed, the
//! thread index and the number of turns played), buffers and iteration count.
//! The root and its children, on every path and read by every selection,
//! get their visits and wins in batches of 128 iterations per thread
//! (selection at the root adds the thread's own pending counts), so their
//! cache lines do not move between cores on every iteration. Virtual loss
//! between threads therefore acts from the second level down; at the root
//! the threads see each other's visits every 128 iterations.
//!
//! # Solver
//! When an action ends the game, its node is marked with the winner. A node
//! is proven won for its side to move when one child is a proven win for it,
//! and proven lost when every child is a proven loss. Selection takes a
//! proven winning child and skips proven losing ones; an iteration that
//! reaches a proven node backs up its winner without a playout. The search
//! stops early once the root is proven.
//!
//! # Memory cap
//! The arena holds `min(max_nodes, memory_mb MiB / 28 B)` nodes. When it is
//! full the tree stops growing and the search goes on with playouts from
//! the leaves; it never aborts. Tree reuse copies the kept subtree into a
//! fresh arena (so the old tree's memory is returned).
//!
//! # In a browser
//! Built for `wasm32-unknown-unknown` the clock is `performance.now()`
//! (`web-time`), and the calling thread (the page's engine worker)
//! searches itself in 5 ms slices, doing the waiting thread's work between
//! them; with WebAssembly threads the other threads are rayon's pool of Web
//! Workers, without them it searches alone. The solver then runs its jobs
//! on the calling thread, and the retrograde tables on rayon's pool.
//!
//! # Time
//! [`time`] turns clock settings into a per-move budget that stays
//! [`time::margin`] (a quarter of it, 20-100 ms) below the most the clock
//! allows for the move; a search stops at [`Limits::time`] (threads check the clock every
//! 16 iterations and the stop flag every iteration, so it returns within a
//! few milliseconds), and from [`Limits::soft_time`] on as soon as the best
//! move is clear.
//!
//! # Example
//! ```
//! use oddity_rules::{AnyGame, GameKind, GameRecord, GameSpec};
//! use oddity_search::{Engine, Limits, SearchParams, StopFlag};
//!
//! let spec = GameSpec::default_for(GameKind::Odd);
//! let mut record = GameRecord::new(AnyGame::new(&spec));
//! let mut engine = Engine::new(SearchParams { threads: 1, seed: 7, ..SearchParams::default() });
//! engine.set_position(&record);
//! let limits = Limits { visits: Some(500), ..Limits::default() };
//! let report = engine.search(&limits, &StopFlag::new(), None);
//! let best = report.best.unwrap();
//! println!("{} {:.3}", record.position().token(&best), report.candidates[0].value);
//! let seat = record.position().to_move();
//! record.play(seat, best).unwrap();
//! engine.set_position(&record); // keeps the subtree of `best`
//! ```

#![warn(missing_docs)]

pub mod config;
mod endgame;
mod engine;
mod filter;
mod knowledge;
mod limits;
mod params;
mod policy;
mod report;
mod searcher;
mod threads;
pub mod time;
mod tree;
pub mod tuning;

pub use config::{EngineConfig, Visits};
pub use engine::Engine;
pub use filter::{MoveFilter, MoveRule};
pub use knowledge::{
    EXPAND_DIVISOR, Knowledge, PlayoutOptions, Resolved, default_priors, hand_priors, has_priors,
};
pub use limits::{CLEAR_RATIO, Limits, StopFlag};
pub use params::{SearchParams, default_exploration, every_core};
pub use policy::{Policy, UnknownPolicy};
pub use report::{Candidate, FinalBoards, Progress, Report};
pub use searcher::{BenchWorker, Searcher};
pub use tree::NODE_BYTES;

// The protocol searches in a background thread (pondering).
const _: fn() = || {
    fn is_send<T: Send>() {}
    is_send::<Engine>();
    is_send::<StopFlag>();
};
