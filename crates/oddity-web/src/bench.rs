//! Speed in the tab, measured as `oddity bench` measures it natively: bare
//! random playouts from the start position (`--playouts`), and search
//! iterations on one engine (`--threads T --seconds S`), so that the two
//! can be compared on the same machine.

use std::time::Duration;

use oddity_rules::{AnyGame, Game as _, GameKind, GameRecord, GameSpec, Rng, Rules};
use oddity_search::{Engine, Limits, SearchParams, StopFlag};
use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;
use web_time::Instant;

use crate::memory;

/// One benchmark's figure, with the fields of `oddity bench`'s line.
#[derive(Debug, Serialize)]
pub struct Rate {
    /// The game's name (`odd`, ...).
    pub game: &'static str,
    /// The board's size.
    pub size: usize,
    /// Search threads (1 for playouts).
    pub threads: usize,
    /// Playouts or iterations.
    pub count: u64,
    /// Seconds measured (wall clock).
    pub seconds: f64,
    /// `count / seconds`.
    pub per_second: f64,
}

/// Random playouts from the start of `game` at `size` for `millis`
/// milliseconds (in batches of 64, as `oddity bench --playouts`); JSON
/// [`Rate`].
#[wasm_bindgen(js_name = benchPlayouts)]
pub fn bench_playouts(game: &str, size: Option<usize>, millis: f64) -> Result<String, String> {
    let start = &start_of(game, size)?;
    let time = Duration::from_secs_f64(millis.max(0.0) / 1000.0);
    let (count, elapsed) = oddity_rules::with_game!(start, s => {
        let mut rng = Rng::seeded(0);
        let begin = Instant::now();
        let (mut n, mut sink) = (0u64, 0u32);
        while n == 0 || begin.elapsed() < time {
            for _ in 0..64 {
                sink += s.clone().playout(&mut rng) as u32;
            }
            n += 64;
        }
        std::hint::black_box(sink);
        (n, begin.elapsed())
    });
    Ok(rate(start, 1, count, elapsed))
}

/// The default search on `threads` threads from the start of `game` at
/// `size` for `millis` milliseconds within `budget_mb` MiB (as `oddity
/// bench --threads T --seconds S`); JSON [`Rate`] of its iterations.
#[wasm_bindgen(js_name = benchSearch)]
pub fn bench_search(
    game: &str,
    size: Option<usize>,
    millis: f64,
    threads: usize,
    budget_mb: usize,
) -> Result<String, String> {
    let start = &start_of(game, size)?;
    let mut engine = Engine::new(SearchParams {
        threads: threads.max(1),
        memory_mb: memory::search_mb(budget_mb)?,
        ..SearchParams::default()
    });
    engine.set_position(&GameRecord::new(start.clone()));
    let limits = Limits {
        time: Some(Duration::from_secs_f64(millis.max(0.0) / 1000.0)),
        ..Limits::default()
    };
    let report = engine.search(&limits, &StopFlag::new(), None);
    Ok(rate(
        start,
        threads.max(1),
        report.iterations,
        report.elapsed,
    ))
}

/// The standard start of `game` (`xodd`, `yodd`, `odd`, `onyx`) at `size`
/// or the game's standard size.
fn start_of(game: &str, size: Option<usize>) -> Result<AnyGame, String> {
    let kind = GameKind::parse(game).ok_or_else(|| format!("unknown game '{game}'"))?;
    let spec = GameSpec::from_options(kind, size, Rules::default()).map_err(|e| e.to_string())?;
    Ok(AnyGame::new(&spec))
}

fn rate(start: &AnyGame, threads: usize, count: u64, elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64();
    let spec = start.spec();
    serde_json::to_string(&Rate {
        game: spec.kind.name(),
        size: spec.size,
        threads,
        count,
        seconds,
        per_second: count as f64 / seconds.max(1e-9),
    })
    .expect("a rate serialises")
}
