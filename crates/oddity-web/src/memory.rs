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
}
