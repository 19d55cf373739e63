//! The engine for the page's Web Worker: the search with the solver near
//! the end, one game at a time, within the page's memory budget.

use std::time::Duration;

use oddity_search::{Candidate, Engine as Search, Limits, Report, SearchParams, StopFlag};
use serde::Serialize;
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::game::Game;
use crate::memory;

/// Whether this module was built with WebAssembly threads (and so needs a
/// cross-origin isolated page and `initThreadPool` before searching on
/// more than one thread).
#[wasm_bindgen(js_name = threadsBuilt)]
pub fn threads_built() -> bool {
    cfg!(target_feature = "atomics")
}

/// The search engine of the page's worker.
#[wasm_bindgen]
pub struct Engine {
    search: Search,
    game: Option<Game>,
}

/// A search's report as the page reads it ([`Engine::think`]).
#[derive(Debug, Serialize)]
pub struct Thought {
    /// The turn to play, as a token; `None` when the game is over.
    pub best: Option<String>,
    /// Win probability of the side to move.
    pub value: f64,
    /// Iterations of this search.
    pub iterations: u64,
    /// Visits of the root, kept ones included.
    pub root_visits: u64,
    /// Nodes in the tree.
    pub nodes: usize,
    /// Milliseconds searched.
    pub millis: f64,
    /// The root proven won by `b` or `w`.
    pub proven: Option<&'static str>,
    /// The candidate turns, most visited first.
    pub candidates: Vec<Line>,
}

/// One candidate turn with its line.
#[derive(Debug, Serialize)]
pub struct Line {
    /// The turn, as a token.
    pub turn: String,
    /// The search's visits of the turn.
    pub visits: u64,
    /// Win probability of the side to move after the turn.
    pub value: f64,
    /// The principal variation, starting with `turn`.
    pub pv: Vec<String>,
}

#[wasm_bindgen]
impl Engine {
    /// An engine with `threads` search threads (more than one only in a
    /// module built with threads, after `initThreadPool`) and a memory
    /// budget of `budget_mb` MiB (see [`memory`]); `seed` varies its play.
    #[wasm_bindgen(constructor)]
    pub fn new(budget_mb: usize, threads: usize, seed: u64) -> Result<Engine, String> {
        if threads > 1 && cfg!(target_family = "wasm") && !threads_built() {
            return Err(format!(
                "{threads} threads asked of a module built without WebAssembly threads"
            ));
        }
        let params = SearchParams {
            threads: threads.max(1),
            seed,
            memory_mb: memory::search_mb(budget_mb)?,
            ..SearchParams::default()
        };
        Ok(Engine {
            search: Search::new(params),
            game: None,
        })
    }

    /// Sets the game to think about (a copy: the page keeps its own). The
    /// tree is kept when the game extends the previous one.
    #[wasm_bindgen(js_name = setGame)]
    pub fn set_game(&mut self, game: &Game) {
        self.search.set_position(game.record());
        self.game = Some(game.clone());
    }

    /// Searches for `millis` milliseconds (and at most `visits` iterations
    /// when given), calling `progress` with an interim report (JSON, see
    /// [`Thought`]) every `every_millis`; returns the final report.
    pub fn think(
        &mut self,
        millis: f64,
        visits: Option<f64>,
        progress: Option<js_sys::Function>,
        every_millis: f64,
    ) -> Result<String, String> {
        self.search_with(millis, visits, every_millis, &mut |text| {
            if let Some(f) = &progress {
                // A failing callback is the page's problem; the search goes on.
                let _ = f.call1(&JsValue::NULL, &JsValue::from_str(&text));
            }
        })
    }
}

impl Engine {
    /// [`Engine::think`] with the progress reports given to `progress` as
    /// JSON text.
    pub fn search_with(
        &mut self,
        millis: f64,
        visits: Option<f64>,
        every_millis: f64,
        progress: &mut dyn FnMut(String),
    ) -> Result<String, String> {
        let Some(game) = &self.game else {
            return Err("no game set".into());
        };
        if !(millis.is_finite() && millis >= 0.0) {
            return Err(format!("time {millis} ms"));
        }
        let limits = Limits {
            visits: visits.map(|v| v.max(0.0) as u64),
            time: Some(Duration::from_secs_f64(millis / 1000.0)),
            soft_time: None,
        };
        let position = game.record().position().clone();
        let every = Duration::from_secs_f64(every_millis.max(1.0) / 1000.0);
        let mut forward = |r: &Report| progress(json(&thought(&position, r)));
        let report = self
            .search
            .search(&limits, &StopFlag::new(), Some((&mut forward, every)));
        Ok(json(&thought(&position, &report)))
    }
}

fn json(t: &Thought) -> String {
    serde_json::to_string(t).expect("a report serialises")
}

/// The page's view of `report`, a search of `position`.
pub fn thought(position: &oddity_rules::AnyGame, report: &Report) -> Thought {
    let line = |c: &Candidate| Line {
        turn: position.token(&c.turn),
        visits: c.visits,
        value: c.value,
        pv: c.pv.iter().map(|t| position.token(t)).collect(),
    };
    Thought {
        best: report.best.map(|t| position.token(&t)),
        value: report.root_value,
        iterations: report.iterations,
        root_visits: report.root_visits,
        nodes: report.nodes,
        millis: report.elapsed.as_secs_f64() * 1000.0,
        proven: report.proven.map(|c| c.seat()),
        candidates: report.candidates.iter().map(line).collect(),
    }
}
