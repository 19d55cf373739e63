//! The engine's memory budget, as a page chooses it: a browser tab has at
//! most 4 GiB of WebAssembly memory and a phone far less.
//!
//! With `m` MiB for the search (`SearchParams::memory_mb`) the engine may
//! hold at once: the tree, `m`; a second tree while a move keeps the
//! subtree it leads to (the subtree is copied into a fresh arena), `m`;
//! the solver's transposition table, `m / 4` (at most 256 MiB); and during
//! a search a retrograde endgame table, at most `m` (a larger one is not
//! built). The tree and the retrograde table never coexist with the second
//! tree, so the peak is `2.25 m`; the page's budget `b` gives
//! `m = 2 b / 5` (a peak of `0.9 b`), the rest for the module, the stacks
//! and the buffers.
//!
//! When the tree is full it stops growing and the search goes on with
//! playouts from its leaves; an arena the allocator refuses is halved
//! (`oddity_search`'s memory cap). A retrograde table that would not fit is
//! not built and the tree search plays instead.
//!
//! In the browser the budget is also a hard bound: the engine's worker
//! gives it to [`set_limit`], and the module's allocator then refuses
//! whatever would take its heap past it, as a phone's browser refuses to
//! grow the memory. What cannot do with less then fails (a WebAssembly
//! trap), and [`refused`] tells the worker that memory ran out, so that
//! the page can say so.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The budget a page gets unless it chooses one: sized for a phone.
pub const DEFAULT_BUDGET_MB: usize = 256;
/// The smallest budget: the module, a tiny tree and the solver's table.
pub const MIN_BUDGET_MB: usize = 16;
/// The largest budget: a WebAssembly memory holds at most 4 GiB.
pub const MAX_BUDGET_MB: usize = 4096;

/// The search's memory (`SearchParams::memory_mb`) for a budget of
/// `budget_mb` MiB, which must lie within [`MIN_BUDGET_MB`] and
/// [`MAX_BUDGET_MB`].
pub fn search_mb(budget_mb: usize) -> Result<usize, String> {
    if !(MIN_BUDGET_MB..=MAX_BUDGET_MB).contains(&budget_mb) {
        return Err(format!(
            "memory {budget_mb} MiB: give {MIN_BUDGET_MB} to {MAX_BUDGET_MB} MiB"
        ));
    }
    Ok(budget_mb * 2 / 5)
}

/// The heap's bound in bytes (none until set).
static LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);
/// Bytes the heap holds now.
static USED: AtomicUsize = AtomicUsize::new(0);
/// An allocation was refused.
static REFUSED: AtomicBool = AtomicBool::new(false);

/// Bounds the module's heap to `budget_mb` MiB from now on.
#[wasm_bindgen::prelude::wasm_bindgen(js_name = setMemoryLimit)]
pub fn set_limit(budget_mb: usize) {
    LIMIT.store(budget_mb.saturating_mul(1 << 20), Ordering::Relaxed);
}

/// Whether an allocation has been refused since the module started: the
/// heap reached its bound, or the browser would not grow the memory.
#[wasm_bindgen::prelude::wasm_bindgen(js_name = memoryRefused)]
pub fn refused() -> bool {
    REFUSED.load(Ordering::Relaxed)
}

/// The system's allocator, bounded by [`set_limit`]. The module's global
/// allocator in the browser.
pub struct Bounded;

impl Bounded {
    /// Counts `bytes` more in the heap, unless that passes the bound.
    fn take(bytes: usize) -> bool {
        let limit = LIMIT.load(Ordering::Relaxed);
        let taken = USED.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |used| {
            used.checked_add(bytes).filter(|&after| after <= limit)
        });
        if taken.is_err() {
            REFUSED.store(true, Ordering::Relaxed);
        }
        taken.is_ok()
    }

    fn give_back(bytes: usize) {
        USED.fetch_sub(bytes, Ordering::Relaxed);
    }

    /// `p` from the system's allocator, counted as `bytes` taken.
    fn kept(p: *mut u8, bytes: usize) -> *mut u8 {
        if p.is_null() {
            Bounded::give_back(bytes);
            REFUSED.store(true, Ordering::Relaxed);
        }
        p
    }
}

// SAFETY: every call is passed on to the system's allocator with the same
// arguments; only the counting is added.
unsafe impl GlobalAlloc for Bounded {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !Bounded::take(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's layout, as GlobalAlloc::alloc requires.
        Bounded::kept(unsafe { System.alloc(layout) }, layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !Bounded::take(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: as for alloc.
        Bounded::kept(unsafe { System.alloc_zeroed(layout) }, layout.size())
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        Bounded::give_back(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old = layout.size();
        if new_size > old && !Bounded::take(new_size - old) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's arguments, as GlobalAlloc::realloc requires.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            if new_size > old {
                Bounded::give_back(new_size - old);
            }
            REFUSED.store(true, Ordering::Relaxed);
        } else if new_size < old {
            Bounded::give_back(old - new_size);
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_peak_stays_within_the_budget() {
        for b in [MIN_BUDGET_MB, DEFAULT_BUDGET_MB, 1000, MAX_BUDGET_MB] {
            let m = search_mb(b).unwrap();
            // Two trees, or a tree and a retrograde table, with the
            // solver's table.
            let peak = 2 * m + (m / 4).clamp(1, 256);
            assert!(peak <= b, "{b} MiB: peak {peak}");
        }
        assert!(search_mb(MIN_BUDGET_MB - 1).is_err());
        assert!(search_mb(MAX_BUDGET_MB + 1).is_err());
    }

    /// The bound refuses what would pass it, and counts what is given
    /// back (the test's own allocations go to the system's allocator: the
    /// bounded one is the module's only in the browser).
    #[test]
    fn the_bound_refuses_and_counts() {
        let a = Bounded;
        let layout = Layout::from_size_align(1 << 20, 8).unwrap();
        // Alone in this process's use of the counters.
        set_limit(2);
        let p = unsafe { a.alloc(layout) };
        assert!(!p.is_null() && !refused());
        let q = unsafe { a.realloc(p, layout, 3 << 20) };
        assert!(q.is_null() && refused(), "3 MiB in a 2 MiB heap");
        let r = unsafe { a.realloc(p, layout, 2 << 20) };
        assert!(!r.is_null());
        unsafe { a.dealloc(r, Layout::from_size_align(2 << 20, 8).unwrap()) };
        assert_eq!(USED.load(Ordering::Relaxed), 0);
    }
}
