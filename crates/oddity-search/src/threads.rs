//! How the search threads run on each platform: the system's threads
//! natively; in a browser, the Web Workers of rayon's pool when the module
//! is built with WebAssembly threads (`atomics`), and none at all without
//! them (the searcher then runs its one loop in slices, see `Searcher`).

use std::time::Duration;

#[cfg(not(all(target_family = "wasm", not(target_feature = "atomics"))))]
use std::sync::atomic::{AtomicUsize, Ordering};
#[cfg(not(all(target_family = "wasm", not(target_feature = "atomics"))))]
use web_time::Instant;

/// How often the thread waiting for the search threads wakes to check the
/// soft deadline and send progress: rarely enough not to take a core from
/// the search, since a finishing thread wakes it at once.
pub(crate) const WATCH_INTERVAL: Duration = Duration::from_millis(5);

/// Counts a finished search thread when dropped.
#[cfg(not(all(target_family = "wasm", not(target_feature = "atomics"))))]
struct Finished<'a>(&'a AtomicUsize, std::thread::Thread);

#[cfg(not(all(target_family = "wasm", not(target_feature = "atomics"))))]
impl Drop for Finished<'_> {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::Release);
        self.1.unpark();
    }
}

/// Runs `work` once per seed, each on a thread of its own, while the
/// calling thread calls `watch` every [`WATCH_INTERVAL`] and whenever a
/// thread finishes, until all have finished. Returns the results in seed
/// order; a thread's panic is passed on.
#[cfg(not(target_family = "wasm"))]
pub(crate) fn on_threads<R: Send>(
    seeds: &[u64],
    work: impl Fn(u64) -> R + Sync,
    mut watch: impl FnMut(Instant),
) -> Vec<R> {
    let finished = AtomicUsize::new(0);
    let watcher = std::thread::current();
    std::thread::scope(|s| {
        let handles: Vec<_> = seeds
            .iter()
            .map(|&seed| {
                let (work, finished) = (&work, &finished);
                let watcher = watcher.clone();
                s.spawn(move || {
                    // Counted even if the thread panics, so the loop below
                    // ends and `join` passes the panic on.
                    let _done = Finished(finished, watcher);
                    work(seed)
                })
            })
            .collect();
        while finished.load(Ordering::Acquire) < seeds.len() {
            std::thread::park_timeout(WATCH_INTERVAL);
            watch(Instant::now());
        }
        handles
            .into_iter()
            .map(|h| h.join().expect("search thread panicked"))
            .collect()
    })
}

/// [`on_threads`] in a browser with WebAssembly threads: the work goes to
/// rayon's pool (Web Workers started by the page) and the calling thread,
/// a dedicated worker of the page's own, watches (it may block; a page's
/// main thread may not).
#[cfg(all(target_family = "wasm", target_feature = "atomics"))]
pub(crate) fn on_threads<R: Send>(
    seeds: &[u64],
    work: impl Fn(u64) -> R + Sync,
    mut watch: impl FnMut(Instant),
) -> Vec<R> {
    use std::sync::Mutex;
    let finished = AtomicUsize::new(0);
    let watcher = std::thread::current();
    let results: Mutex<Vec<(usize, R)>> = Mutex::new(Vec::with_capacity(seeds.len()));
    rayon::in_place_scope(|s| {
        for (i, &seed) in seeds.iter().enumerate() {
            let (work, finished, results) = (&work, &finished, &results);
            let watcher = watcher.clone();
            s.spawn(move |_| {
                let _done = Finished(finished, watcher);
                let r = work(seed);
                results
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((i, r));
            });
        }
        while finished.load(Ordering::Acquire) < seeds.len() {
            std::thread::park_timeout(WATCH_INTERVAL);
            watch(Instant::now());
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

/// A search thread's wait for the stop condition once the visit counters
/// are full; without threads there is nobody to wait for, and the search
/// loop checks its deadline and stop flag itself.
pub(crate) fn pause() {
    #[cfg(not(all(target_family = "wasm", not(target_feature = "atomics"))))]
    std::thread::sleep(Duration::from_millis(1));
}
