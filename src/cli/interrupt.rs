//! Ctrl-C for the commands that play many games: the first one asks them
//! to stop cleanly, a second one exits at once. SIGTERM (a job scheduler
//! cancelling or requeueing a job) and SIGHUP count as Ctrl-C.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A flag that the first Ctrl-C (or SIGTERM, SIGHUP) sets, printing
/// `message` on stderr; a second one exits with status 130.
pub fn stop_on_ctrl_c(message: &'static str) -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\n{message}");
    });
    stop
}
