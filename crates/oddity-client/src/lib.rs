//! The engine client: what every front end that drives GTP engines needs,
//! on the rules alone.
//!
//! - [`process`]: starting an engine process and talking GTP to it with a
//!   timeout on every wait;
//! - [`sync`]: bringing an engine's game up to date with a record, sending
//!   only what it lacks.
//!
//! `oddity match` (`tournament`) and `oddity gui` (`gui`) both drive their
//! engines through this layer.

pub mod process;
pub mod sync;

pub use process::{EngineProcess, EngineSpec, EngineSpecError, Fault};
