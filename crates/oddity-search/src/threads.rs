//! How the search threads run on each platform: the system's threads
//! natively, with the calling thread waiting for them; in a browser, the
//! calling thread searches itself in slices (see `Searcher`) beside the
//! Web Workers of rayon's pool when the module is built with WebAssembly
//! threads (`atomics`), and alone without them.

use std::time::Duration;

#[cfg(not(target_family = "wasm"))]
use std::sync::atomic::{AtomicUsize, Ordering};
#[cfg(not(target_family = "wasm"))]
use std::time::Instant;

/// How often the thread waiting for the search threads wakes to check the
/// soft deadline and send progress: rarely enough not to take a core from
/// the search, since a finishing thread wakes it at once.
pub(crate) const WATCH_INTERVAL: Duration = Duration::from_millis(5);

/// Counts a finished search thread when dropped.
#[cfg(not(target_family = "wasm"))]
struct Finished<'a>(&'a AtomicUsize, std::thread::Thread);

#[cfg(not(target_family = "wasm"))]
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

/// In a browser: runs `main` on the calling thread (a dedicated worker of
/// the page, which may block) and `work` once per seed on rayon's pool
/// (Web Workers started by the page) when the module has WebAssembly
/// threads; returns `main`'s result first, then the others in seed order.
/// Without threads the seeds are left out.
#[cfg(target_family = "wasm")]
pub(crate) fn beside<R: Send>(
    seeds: &[u64],
    work: impl Fn(u64) -> R + Sync,
    main: impl FnOnce() -> R,
) -> Vec<R> {
    #[cfg(target_feature = "atomics")]
    {
        use std::sync::Mutex;
        let results: Mutex<Vec<(usize, R)>> = Mutex::new(Vec::with_capacity(seeds.len()));
        let first = rayon::in_place_scope(|s| {
            for (i, &seed) in seeds.iter().enumerate() {
                let (work, results) = (&work, &results);
                s.spawn(move |_| {
                    let r = work(seed);
                    results
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((i, r));
                });
            }
            main()
        });
        let mut rest = results.into_inner().unwrap_or_else(|e| e.into_inner());
        rest.sort_by_key(|(i, _)| *i);
        std::iter::once(first)
            .chain(rest.into_iter().map(|(_, r)| r))
            .collect()
    }
    #[cfg(not(target_feature = "atomics"))]
    {
        let _ = (seeds, work);
        vec![main()]
    }
}

/// A search thread's wait for the stop condition once the visit counters
/// are full; without threads there is nobody to wait for, and the search
/// loop checks its deadline and stop flag itself.
pub(crate) fn pause() {
    #[cfg(not(all(target_family = "wasm", not(target_feature = "atomics"))))]
    std::thread::sleep(Duration::from_millis(1));
}
