//! `oddity match`: engine-vs-engine tournaments refereed by the rules core.
//!
//! - [`mod@schedule`]: the deterministic schedule, shards and openings;
//! - [`openings`]: balanced openings, searched for the ones closest to even,
//!   or built turn by turn with search for [`opening_games`] to keep by
//!   how self-play games from them end;
//! - [`referee`]: one game, with forfeits for every kind of misbehaviour;
//! - [`results`]: results files, merging, the summary tables;
//! - [`stats`]: Elo, LOS and SPRT arithmetic;
//! - [`balance`]: self-play of one engine against itself for the first
//!   player's share (`oddity balance`), its decision rule and its tables;
//! - [`runner`]: [`run`] plays a tournament with a pool of worker threads,
//!   one process per engine and worker, writing each finished game at once.

pub mod balance;
pub mod balance_report;
pub mod opening_games;
pub mod openings;
pub mod referee;
pub mod results;
pub mod runner;
pub mod schedule;
pub mod stats;

pub use runner::{MatchConfig, MatchError, Report, engine_builds, run};
