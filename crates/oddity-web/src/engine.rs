//! The engine for the page's Web Worker: the search with the solver near
//! the end, one game at a time, within the page's memory budget. The game
//! comes as an SGF record (the session's job, see [`crate::session`]), so
//! that its rule options travel with it.

use std::time::Duration;

use oddity_rules::{AnyGame, GameRecord, sgf};
use oddity_search::{Candidate, Engine as Search, EngineConfig, Limits, Report, StopFlag, config};
use serde::Serialize;
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;
use web_time::Instant;

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
    record: Option<GameRecord>,
}

/// How often a search looks at its stop flag: a stopped search ends within
/// about this long.
const STOP_POLL: Duration = Duration::from_millis(20);

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
    /// The tree reached its memory bound and no longer grows.
    pub full: bool,
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
    /// An engine within a memory budget of `budget_mb` MiB (see
    /// [`memory`]), configured by `options`: an object of option names and
    /// their values as text, the names of `oddity_search::EngineConfig`
    /// (`threads`, `seed`, `policy`, `exploration` and the policy's
    /// tuning; the budget sets the memory). More than one thread only in a
    /// module built with threads, after `initThreadPool`.
    #[wasm_bindgen(constructor)]
    pub fn new(budget_mb: usize, options: &js_sys::Object) -> Result<Engine, String> {
        let mut config = EngineConfig::default();
        for entry in js_sys::Object::entries(options).iter() {
            let pair = js_sys::Array::from(&entry);
            let name = pair.get(0).as_string().unwrap_or_default();
            let value = pair
                .get(1)
                .as_string()
                .ok_or_else(|| format!("option {name}: give its value as text"))?;
            set_option(&mut config, &name, &value)?;
        }
        Engine::configured(budget_mb, config)
    }

    /// Sets the game to think about: the main line of an SGF record (its
    /// rule options included). The tree is kept when the game extends the
    /// previous one. On an error the engine's game is unchanged.
    #[wasm_bindgen(js_name = setSgf)]
    pub fn set_sgf(&mut self, text: &str) -> Result<(), String> {
        let record = sgf::read(text).map_err(|e| e.to_string())?;
        self.set_record(record);
        Ok(())
    }

    /// Searches for `millis` milliseconds (and at most `visits` iterations
    /// when given), calling `progress` with an interim report (JSON, see
    /// [`Thought`]) every `every_millis`; returns the final report. The
    /// search ends early once element 0 of `stop` (an `Int32Array`, on a
    /// `SharedArrayBuffer` the page can write while the worker searches)
    /// is not 0.
    pub fn think(
        &mut self,
        millis: f64,
        visits: Option<f64>,
        progress: Option<js_sys::Function>,
        every_millis: f64,
        stop: Option<js_sys::Int32Array>,
    ) -> Result<String, String> {
        let mut stopped = || {
            stop.as_ref()
                .is_some_and(|flag| js_sys::Atomics::load(flag, 0).is_ok_and(|v| v != 0))
        };
        let mut report = |text: String| {
            if let Some(f) = &progress {
                // A failing callback is the page's problem; the search goes on.
                let _ = f.call1(&JsValue::NULL, &JsValue::from_str(&text));
            }
        };
        self.search_with(millis, visits, every_millis, &mut report, &mut stopped)
    }
}

/// Sets `name` of `config` as the module's options do: every name of
/// `EngineConfig::set` but the memory, which the page's budget sets.
pub fn set_option(config: &mut EngineConfig, name: &str, value: &str) -> Result<(), String> {
    if name == "memory" {
        return Err("option memory: the page's budget sets the memory".into());
    }
    config.set(name, value).map_err(|e| e.to_string())
}

impl Engine {
    /// An engine within a memory budget of `budget_mb` MiB, searching as
    /// `config` says ([`Engine::new`]); its memory is the budget's share.
    pub fn configured(budget_mb: usize, mut config: EngineConfig) -> Result<Engine, String> {
        let threads = config.params.threads;
        if threads > 1 && cfg!(target_family = "wasm") && !threads_built() {
            return Err(format!(
                "{threads} threads asked of a module built without WebAssembly threads"
            ));
        }
        config.params.memory_mb = memory::search_mb(budget_mb)?;
        Ok(Engine {
            search: Search::new(config.params),
            record: None,
        })
    }

    /// Sets the game to think about ([`Engine::set_sgf`]).
    pub fn set_record(&mut self, record: GameRecord) {
        self.search.set_position(&record);
        self.record = Some(record);
    }

    /// [`Engine::think`] with the progress reports given to `progress` as
    /// JSON text, and the search stopped once `stopped` says so (asked
    /// every few milliseconds).
    pub fn search_with(
        &mut self,
        millis: f64,
        visits: Option<f64>,
        every_millis: f64,
        progress: &mut dyn FnMut(String),
        stopped: &mut dyn FnMut() -> bool,
    ) -> Result<String, String> {
        let Some(record) = &self.record else {
            return Err("no game set".into());
        };
        let time = config::check_seconds(millis / 1000.0).map_err(|e| format!("time: {e}"))?;
        let limits = Limits {
            visits: visits.map(|v| v.max(0.0) as u64),
            time: Some(time),
            soft_time: None,
        };
        let position = record.position().clone();
        let every = Duration::from_secs_f64(every_millis.max(1.0) / 1000.0);
        let flag = StopFlag::new();
        let mut next_report = Instant::now() + every;
        // Called every STOP_POLL: the stop flag each time, a report every
        // `every`.
        let mut watch = |r: &Report| {
            if stopped() {
                flag.stop();
            }
            let now = Instant::now();
            if now >= next_report {
                next_report = now + every;
                progress(json(&thought(&position, r)));
            }
        };
        let report = self
            .search
            .search(&limits, &flag, Some((&mut watch, STOP_POLL.min(every))));
        Ok(json(&thought(&position, &report)))
    }
}

fn json(t: &Thought) -> String {
    serde_json::to_string(t).expect("a report serialises")
}

/// The page's view of `report`, a search of `position`.
pub fn thought(position: &AnyGame, report: &Report) -> Thought {
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
        full: report.tree_full,
        millis: report.elapsed.as_secs_f64() * 1000.0,
        proven: report.proven.map(|c| c.seat()),
        candidates: report.candidates.iter().map(line).collect(),
    }
}
