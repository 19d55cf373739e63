//! The thread that drives the engine processes. It starts every engine
//! at once (each on a thread of its own, asking `protocol_version`, `name`
//! and `version`) and again on Restart, then waits until the session
//! asks for engine work (an engine's turn, or analysis of the position
//! shown), brings that engine's game up to date over GTP, runs
//! `genmove_analyze` or `kata-analyze`, and streams the candidates back.
//! A crash, a hang past the time allowed, a refused command or an illegal
//! turn stops the engine and is reported; the game is kept.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, mpsc};
use std::time::{Duration, Instant};

use tokio::sync::watch;

use super::info::parse_info;
use oddity_client::sync::{EngineGame, TimeSetting};
use oddity_client::{EngineProcess, EngineSpec, Fault};
use oddity_rules::Turn;
use oddity_session::{Analysis, EngineTurnError, Job, PageSession};

/// The version sent when the server stops.
pub const STOPPED: u64 = u64::MAX;

/// The session and the means to tell others it changed.
pub struct Shared {
    session: Mutex<PageSession>,
    /// Woken when the game changes (engine work may be due).
    wake: Condvar,
    /// The session's version, for the page's event stream.
    changes: watch::Sender<u64>,
    quit: AtomicBool,
}

impl Shared {
    pub fn new(session: PageSession) -> Shared {
        let (changes, _) = watch::channel(session.version());
        Shared {
            session: Mutex::new(session),
            wake: Condvar::new(),
            changes,
            quit: AtomicBool::new(false),
        }
    }

    /// Runs `f` on the session, then tells the page and the engine thread
    /// about what changed.
    pub fn update<R>(&self, f: impl FnOnce(&mut PageSession) -> R) -> R {
        let mut s = self.lock();
        let before = (s.version(), s.generation());
        let r = f(&mut s);
        let after = (s.version(), s.generation());
        drop(s);
        // Once stopped, the streams stay ended.
        if after.0 != before.0 && !self.stopping() {
            self.changes.send_replace(after.0);
        }
        if after.1 != before.1 {
            self.wake.notify_all();
        }
        r
    }

    pub fn lock(&self) -> std::sync::MutexGuard<'_, PageSession> {
        // A panic while holding the lock leaves a session that is still
        // consistent (every change is made whole or not at all).
        self.session.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// Stops the engine thread (it quits the engines) and ends the event
    /// streams (they end at [`STOPPED`]).
    pub fn stop(&self) {
        self.quit.store(true, Ordering::SeqCst);
        self.wake.notify_all();
        self.changes.send_replace(STOPPED);
    }

    fn stopping(&self) -> bool {
        self.quit.load(Ordering::SeqCst)
    }
}

/// The longest wait for an answer to a command that does not think.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(30);
/// Lateness forgiven on top of the thinking time before an engine is
/// declared hung.
const MOVE_MARGIN: Duration = Duration::from_secs(10);
/// Interval between the engine's analysis lines, in centiseconds: short,
/// so that an engine that answers within a second is seen thinking.
const INTERVAL_CS: u32 = 10;
/// The shortest wait between two analyses passed to the page; the first
/// and the last of each search always pass.
const PAGE_INTERVAL: Duration = Duration::from_millis(300);

struct Running {
    process: EngineProcess,
    game: EngineGame,
}

/// A started engine and what it says it is, or why it could not start.
type StartOutcome = Result<(Running, Option<String>), String>;

/// What the engine thread does next.
enum Work {
    /// An engine's start has ended, well or not.
    Started(String, StartOutcome),
    Job(Box<Job>),
}

/// Runs until [`Shared::stop`]; quits the engines on the way out.
pub fn drive(shared: Arc<Shared>, specs: Vec<EngineSpec>) {
    let mut running: HashMap<String, Running> = HashMap::new();
    // Engines being started, each on a thread of its own, so that one slow
    // to answer holds up neither the others nor the game.
    let mut starting: HashSet<String> = HashSet::new();
    let (started_tx, started) = mpsc::channel();
    let never = AtomicBool::new(false);
    loop {
        let work = {
            let mut s = shared.lock();
            loop {
                if shared.stopping() {
                    break None;
                }
                let mut refused = None;
                for name in s.engines_to_start() {
                    if starting.contains(&name) {
                        continue;
                    }
                    match spawn_start(&shared, &specs, &name, started_tx.clone()) {
                        Ok(()) => {
                            starting.insert(name);
                        }
                        Err(e) => {
                            refused = Some((name, Err(format!("cannot start a thread: {e}"))))
                        }
                    }
                }
                if let Some((name, outcome)) = refused.or_else(|| started.try_recv().ok()) {
                    break Some(Work::Started(name, outcome));
                }
                if let Some(job) = s.next_job() {
                    break Some(Work::Job(Box::new(job)));
                }
                let (guard, timeout) = shared
                    .wake
                    .wait_timeout(s, Duration::from_millis(300))
                    .unwrap_or_else(|e| e.into_inner());
                s = guard;
                if timeout.timed_out() {
                    drop(s);
                    notice_deaths(&shared, &mut running);
                    s = shared.lock();
                }
            }
        };
        let job = match work {
            None => break,
            Some(Work::Started(name, outcome)) => {
                starting.remove(&name);
                match outcome {
                    Ok((r, identity)) => {
                        if let Some(mut old) = running.insert(name.clone(), r) {
                            old.process.kill();
                        }
                        shared.update(|s| s.engine_started(&name, identity));
                    }
                    Err(why) => {
                        log::warn!("engine {name}: {why}");
                        shared.update(|s| s.engine_start_failed(&name, why));
                    }
                }
                continue;
            }
            Some(Work::Job(job)) => *job,
        };
        let Some(spec) = specs.iter().find(|s| s.name == job.engine) else {
            shared.update(|s| s.engine_fault(&job.engine, "no such engine".into()));
            continue;
        };
        let outcome = run_job(&shared, spec, &mut running, &job, &never);
        shared.update(|s| s.set_engine_status(&job.engine, "idle"));
        if let Err(why) = outcome {
            if let Some(mut r) = running.remove(&job.engine) {
                r.process.kill();
            }
            log::warn!("engine {}: {why}", job.engine);
            shared.update(|s| s.engine_fault(&job.engine, why.to_string()));
        }
    }
    for (_, r) in running.drain() {
        r.process.quit();
    }
}

/// Starts engine `name` on a thread of its own; its outcome comes back
/// through `done`, and wakes the engine thread.
fn spawn_start(
    shared: &Arc<Shared>,
    specs: &[EngineSpec],
    name: &str,
    done: mpsc::Sender<(String, StartOutcome)>,
) -> std::io::Result<()> {
    let spec = specs.iter().find(|s| s.name == name).cloned();
    let shared = shared.clone();
    let name = name.to_string();
    std::thread::Builder::new()
        .name(format!("start-{name}"))
        .spawn(move || {
            let outcome = match spec {
                Some(spec) => start_engine(&spec, &shared.quit).map_err(|e| e.to_string()),
                None => Err("no such engine".to_string()),
            };
            // Once the server stops nobody receives: the engine is dropped,
            // which kills it.
            if done.send((name, outcome)).is_ok() {
                // Taking the lock orders this after the engine thread's look
                // at the channel: it is waiting, and the wake reaches it.
                drop(shared.lock());
                shared.wake.notify_all();
            }
        })
        .map(drop)
}

/// Reports engines that died while nobody was talking to them.
fn notice_deaths(shared: &Shared, running: &mut HashMap<String, Running>) {
    let dead: Vec<(String, String)> = running
        .iter_mut()
        .filter_map(|(name, r)| r.process.exited().map(|why| (name.clone(), why)))
        .collect();
    for (name, why) in dead {
        running.remove(&name);
        shared.update(|s| s.engine_fault(&name, why));
    }
}

/// Why an engine is stopped.
#[derive(Debug, thiserror::Error)]
enum EngineFailure {
    #[error("cannot start '{command}': {source}")]
    Start {
        command: String,
        source: std::io::Error,
    },
    #[error("{}: {}", .0.reason(), .0.detail())]
    Fault(Fault),
    #[error("answered genmove_analyze without a 'play' line")]
    NoPlay,
    #[error(transparent)]
    Turn(#[from] EngineTurnError),
}

/// Starts an engine and asks it `protocol_version`, then `name` and
/// `version` (optional commands: a refusal leaves them out). Returns it
/// with what it says it is (`oddity 0.1.0`).
fn start_engine(
    spec: &EngineSpec,
    never: &AtomicBool,
) -> Result<(Running, Option<String>), EngineFailure> {
    let process = EngineProcess::start(spec, None).map_err(|source| EngineFailure::Start {
        command: spec.command_line(),
        source,
    })?;
    let mut r = Running {
        process,
        game: EngineGame::default(),
    };
    r.process
        .command("protocol_version", COMMAND_TIMEOUT, never)
        .map_err(EngineFailure::Fault)?;
    let mut identity = Vec::new();
    for command in ["name", "version"] {
        match r.process.command(command, COMMAND_TIMEOUT, never) {
            Ok(text) if !text.is_empty() => identity.push(text),
            Ok(_) | Err(Fault::Refused { .. }) => {}
            Err(fault) => return Err(EngineFailure::Fault(fault)),
        }
    }
    let identity = (!identity.is_empty()).then(|| identity.join(" "));
    Ok((r, identity))
}

/// One job; `Err` says why the engine must be stopped.
fn run_job(
    shared: &Shared,
    spec: &EngineSpec,
    running: &mut HashMap<String, Running>,
    job: &Job,
    never: &AtomicBool,
) -> Result<(), EngineFailure> {
    if !running.contains_key(&spec.name) {
        let (r, _) = start_engine(spec, never)?;
        running.insert(spec.name.clone(), r);
    }
    let r = running.get_mut(&spec.name).expect("started above");
    let time = TimeSetting::PerMove(job.time);
    r.game
        .sync_to(&mut r.process, &job.record, time, COMMAND_TIMEOUT, never)
        .map_err(EngineFailure::Fault)?;
    let status = if job.genmove { "thinking" } else { "analysing" };
    shared.update(|s| s.set_engine_status(&job.engine, status));

    let stale = || shared.stopping() || shared.lock().generation() != job.generation;
    let mut played: Option<String> = None;
    let mut last_sent: Option<Instant> = None;
    // The latest analysis not yet passed to the page.
    let mut held: Option<Analysis> = None;
    let send = |analysis: Analysis| {
        shared.update(|s| s.analysis_update(job.generation, analysis));
    };
    let mut on_line = |line: &str| {
        if let Some(token) = line.strip_prefix("play ") {
            played = Some(token.trim().to_string());
            // The final analysis, before the turn replaces the position.
            if let Some(a) = held.take() {
                send(a);
            }
        } else if let Some(candidates) = parse_info(line) {
            let analysis = job.analysis(candidates);
            if last_sent.is_none_or(|t| t.elapsed() >= PAGE_INTERVAL) {
                last_sent = Some(Instant::now());
                held = None;
                send(analysis);
            } else {
                held = Some(analysis);
            }
        }
    };
    let seat = job.seat.seat();
    if !job.genmove {
        return r
            .process
            .stream(
                &format!("kata-analyze {seat} {INTERVAL_CS}"),
                None,
                &mut || stale(),
                "",
                &mut on_line,
            )
            .map_err(EngineFailure::Fault);
    }
    let allowed = job.time + MOVE_MARGIN;
    r.process
        .stream(
            &format!("genmove_analyze {seat} {INTERVAL_CS}"),
            Some(allowed),
            &mut || stale(),
            "# interrupt",
            &mut on_line,
        )
        .map_err(EngineFailure::Fault)?;
    let token = played.ok_or(EngineFailure::NoPlay)?;
    let pos = job.record.position();
    let turn = Turn::parse(&token, pos.kind(), pos.topology(), job.seat);
    // The engine has played its turn in its own game.
    match turn {
        Ok(turn) => r.game.played(job.seat, turn),
        Err(_) => r.game.forget(),
    }
    shared.update(|s| s.engine_turn(job.generation, job.seat, &token))?;
    Ok(())
}
