//! When a search stops: its limits and the stop flag shared with other
//! threads.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// When to stop. All `None` = until stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Iterations of this search (not counting visits kept from earlier).
    pub visits: Option<u64>,
    /// Hard time limit.
    pub time: Option<Duration>,
    /// From here on, stop as soon as the best move is clear (its visits at
    /// least [`CLEAR_RATIO`] times the runner-up's); at the latest at `time`.
    pub soft_time: Option<Duration>,
}

/// See [`Limits::soft_time`].
pub const CLEAR_RATIO: f64 = 2.0;

/// A stop signal shared with other threads.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// A flag not set.
    pub fn new() -> StopFlag {
        StopFlag::default()
    }
    /// Sets the flag: searches that poll it stop.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    /// Whether the flag is set.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
    /// Clears the flag for the next search.
    pub fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }
    /// The flag itself, for code that polls an `AtomicBool`.
    pub fn flag(&self) -> &AtomicBool {
        &self.0
    }
}
