//! The session of the static page, in the tab: the same session as
//! `oddity gui`'s (`oddity_session`: the game tree, the rules' checks, what
//! the page draws, the page's requests by name with the same JSON), with
//! the engine in the page's Web Worker instead of GTP processes.
//!
//! The page calls [`TabSession::request`] as `oddity gui`'s page posts to
//! `/api/NAME`, and hears of every change through the callback it gives
//! (as `oddity gui`'s page hears of them through its event stream). The
//! engine's side is a small driver: [`TabSession::engine_work`] says what the
//! worker should do next (start the engine, start a search, stop one), and
//! the worker's news comes back through the `engine...` methods.

use oddity_rules::sgf::{self, RecordInfo};
use oddity_session::{self as session, Candidate, Job, Request};
use serde::Deserialize;
use serde_json::json;
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

/// How long one search of an analysis runs before it is started again from
/// its tree (so that the exact solver near the end, which does not look at
/// the stop flag, never holds a stop up for long).
const ANALYSIS_MILLIS: f64 = 10_000.0;
/// How often the worker reports an analysis while it searches.
const REPORT_MILLIS: f64 = 250.0;

/// The session of the page, with the engine of its tab.
#[wasm_bindgen]
pub struct TabSession {
    session: session::PageSession,
    /// The tab's engine, by name.
    engine: String,
    /// Told the state (JSON) after every change.
    on_change: Option<js_sys::Function>,
    /// The version the page was last told of.
    told: u64,
    /// The job the worker is running, until it reports it done.
    running: Option<Job>,
    /// Whether the running job was asked to stop.
    stopping: bool,
    /// Whether the page is starting the worker.
    booting: bool,
}

/// What the worker reports of a search: the fields of the engine's
/// [`Thought`](crate::engine::Thought) that the session reads.
#[derive(Deserialize)]
struct Report {
    best: Option<String>,
    candidates: Vec<Line>,
    /// The search tree reached its memory bound.
    #[serde(default)]
    full: bool,
}

#[derive(Deserialize)]
struct Line {
    turn: String,
    visits: u64,
    value: f64,
    pv: Vec<String>,
}

fn error(text: impl std::fmt::Display) -> String {
    json!({ "error": text.to_string() }).to_string()
}

#[wasm_bindgen]
impl TabSession {
    /// A session whose one engine, `engine`, runs in the tab; `on_change`
    /// is called with the state (JSON) after every change.
    #[wasm_bindgen(constructor)]
    pub fn new(engine: &str, on_change: Option<js_sys::Function>) -> TabSession {
        let session = session::PageSession::new(&[engine.to_string()]);
        TabSession {
            told: session.version(),
            session,
            engine: engine.to_string(),
            on_change,
            running: None,
            stopping: false,
            booting: false,
        }
    }

    /// What the new-game form offers (`GET /api/games`), JSON.
    pub fn games(&self) -> String {
        serde_json::to_string(&session::catalogue()).expect("the catalogue serialises")
    }

    /// Everything the page draws (`GET /api/state`), JSON.
    pub fn state(&self) -> String {
        serde_json::to_string(&self.session.state()).expect("the state serialises")
    }

    /// Request `name` with its JSON body (`POST /api/NAME`): its answer,
    /// or `{"error": ...}` when it is refused (nothing changes then).
    pub fn request(&mut self, name: &str, body: &str) -> String {
        let answer = match Request::read(name, body.as_bytes()) {
            Ok(request) => match self.session.answer(request) {
                Ok(answer) => answer.json(),
                Err(why) => error(why),
            },
            Err(why) => error(why),
        };
        self.tell();
        answer
    }

    /// The game with its variations as SGF (`GET /api/sgf`).
    pub fn sgf(&self) -> String {
        self.session.sgf()
    }

    /// Opens game `game` (from 1) of an SGF file's text (`POST
    /// /api/sgf?game=K`): `{"ok":true,"game":K,"games":N}` or the error.
    #[wasm_bindgen(js_name = openSgf)]
    pub fn open_sgf(&mut self, text: &str, game: usize) -> String {
        let answer = match self.session.load_sgf(text, game) {
            Ok(games) => json!({ "ok": true, "game": game, "games": games }).to_string(),
            Err(why) => error(why),
        };
        self.tell();
        answer
    }

    /// The clocks (JSON), kept with [`TabSession::sgf`] across a reload.
    pub fn clocks(&self) -> String {
        serde_json::to_string(&self.session.kept_clocks()).expect("the clocks serialise")
    }

    /// Sets the clocks (JSON, from [`TabSession::clocks`]) kept with the
    /// game just opened from its SGF: `{"ok":true}` or the error.
    #[wasm_bindgen(js_name = restoreClocks)]
    pub fn restore_clocks(&mut self, kept: &str) -> String {
        let answer = match serde_json::from_str(kept) {
            Ok(kept) => {
                self.session.restore_clocks(&kept);
                json!({ "ok": true }).to_string()
            }
            Err(why) => error(format!("the kept clocks do not read: {why}")),
        };
        self.tell();
        answer
    }

    /// What the page should have the engine's worker do now, JSON, or
    /// nothing: `{"boot":true}` (start the worker), `{"start":{generation,
    /// sgf, millis}}` (search the game of `sgf`, a record, for `millis`)
    /// or `{"stop":generation}` (end the search running). Asked until it
    /// answers nothing, after every change.
    #[wasm_bindgen(js_name = engineWork)]
    pub fn engine_work(&mut self) -> Option<String> {
        let work = self.next_work();
        self.tell();
        work
    }

    /// The worker has started, with `threads` search threads; `why`, when
    /// given, says why it has no more (shown beside the engine's name).
    #[wasm_bindgen(js_name = engineStarted)]
    pub fn engine_started(&mut self, threads: usize, why: Option<String>) {
        self.booting = false;
        let threads = match threads {
            1 => "one thread".to_string(),
            n => format!("{n} threads"),
        };
        let why = why.map(|w| format!(": {w}")).unwrap_or_default();
        let identity = format!(
            "oddity {} in this tab, {threads}{why}",
            env!("CARGO_PKG_VERSION")
        );
        self.session.engine_started(&self.engine, Some(identity));
        self.tell();
    }

    /// The worker could not be started: why, in words.
    #[wasm_bindgen(js_name = engineFailed)]
    pub fn engine_failed(&mut self, why: &str) {
        self.booting = false;
        self.running = None;
        self.session
            .engine_start_failed(&self.engine, why.to_string());
        self.tell();
    }

    /// The worker stopped working (it ran out of memory, or its module
    /// failed): why, in words. The game is kept; Restart starts it again.
    #[wasm_bindgen(js_name = engineStopped)]
    pub fn engine_stopped(&mut self, why: &str) {
        self.booting = false;
        self.running = None;
        self.stopping = false;
        self.session.engine_fault(&self.engine, why.to_string());
        self.tell();
    }

    /// The page is starting the worker again (to stop a search where no
    /// flag can reach it, or with a new memory budget): the search running
    /// is abandoned, and work waits until the worker is ready.
    #[wasm_bindgen(js_name = engineRestarting)]
    pub fn engine_restarting(&mut self) {
        self.running = None;
        self.stopping = false;
        self.booting = true;
        self.session.set_engine_status(&self.engine, "starting");
        self.tell();
    }

    /// A report of the search of job `generation` (JSON, the worker's
    /// [`Thought`](crate::engine::Thought)); `done` when it is the
    /// search's last. The last report of an engine's turn plays its best
    /// turn.
    #[wasm_bindgen(js_name = engineReport)]
    pub fn engine_report(&mut self, generation: f64, report: &str, done: bool) {
        let Some(job) = self
            .running
            .as_ref()
            .filter(|j| j.generation as f64 == generation)
            .cloned()
        else {
            return;
        };
        if done {
            self.running = None;
            self.stopping = false;
            self.session.set_engine_status(&self.engine, "idle");
        }
        match serde_json::from_str::<Report>(report) {
            Ok(r) => self.take_report(&job, r, done),
            Err(e) => self
                .session
                .engine_fault(&self.engine, format!("sent an unreadable report: {e}")),
        }
        self.tell();
    }
}

impl TabSession {
    /// The session itself.
    pub fn session(&self) -> &session::PageSession {
        &self.session
    }

    fn next_work(&mut self) -> Option<String> {
        if !self.booting && self.session.engines_to_start().contains(&self.engine) {
            self.booting = true;
            return Some(json!({ "boot": true }).to_string());
        }
        let wanted = self.session.next_job();
        if let Some(running) = &self.running {
            let same = wanted.as_ref().is_some_and(|w| {
                w.generation == running.generation && w.genmove == running.genmove
            });
            if same || self.stopping {
                return None;
            }
            self.stopping = true;
            return Some(json!({ "stop": running.generation }).to_string());
        }
        let job = wanted?;
        let millis = if job.genmove {
            job.time.as_secs_f64() * 1000.0
        } else {
            ANALYSIS_MILLIS
        };
        let status = if job.genmove { "thinking" } else { "analysing" };
        self.session.set_engine_status(&self.engine, status);
        let record = sgf::write(&job.record, &RecordInfo::default());
        let start = json!({ "start": {
            "generation": job.generation,
            "sgf": record,
            "millis": millis,
            "every": REPORT_MILLIS,
        }});
        self.running = Some(job);
        Some(start.to_string())
    }

    fn take_report(&mut self, job: &Job, report: Report, done: bool) {
        if report.full {
            self.session.engine_tree_full(&self.engine);
        }
        let candidates = report
            .candidates
            .into_iter()
            .map(|l| Candidate {
                token: l.turn,
                visits: l.visits,
                winrate: l.value,
                pv: l.pv,
            })
            .collect();
        self.session
            .analysis_update(job.generation, job.analysis(candidates));
        if !(done && job.genmove) || job.generation != self.session.generation() {
            return;
        }
        let result = match &report.best {
            Some(token) => self
                .session
                .engine_turn(job.generation, job.seat, token)
                .map_err(|e| e.to_string()),
            None => Err("answered no turn".to_string()),
        };
        if let Err(why) = result {
            self.session.engine_fault(&self.engine, why);
        }
    }

    /// Tells the page of a change since it was last told.
    fn tell(&mut self) {
        let version = self.session.version();
        if version == self.told {
            return;
        }
        self.told = version;
        if let Some(f) = &self.on_change {
            // A failing callback is the page's problem; the session goes on.
            let _ = f.call1(&JsValue::NULL, &JsValue::from_str(&self.state()));
        }
    }
}
