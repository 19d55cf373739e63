//! The tournament runner: [`run`] plays a tournament with a pool of worker
//! threads. Each worker owns one process per engine and reuses it from
//! game to game (`clear_board`); an engine that misbehaved is killed and
//! started afresh for its next game. The main thread writes each finished
//! game at once to the results file (flushed and synced) and to the SGF
//! collection, updates the progress line, and checks the SPRT.

use std::collections::{HashMap, HashSet, VecDeque};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread;

use indicatif::{ProgressBar, ProgressStyle};

use oddity_client::{EngineProcess, EngineSpec, Fault};
use oddity_rules::{
    GameSpec,
    sgf::{RecordInfo, write as write_sgf},
};

use super::balance;
use super::referee::{Fixture, Limits, Played, play_game, sgf_result};
use super::results::{GameResult, ResultsError, ResultsWriter, SgfWriter, Summary, read_results};
use super::schedule::{Format, ScheduledGame, Shard, schedule};
use super::stats::{Sprt, Verdict};

/// Everything a tournament needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub spec: GameSpec,
    pub engines: Vec<EngineSpec>,
    pub format: Format,
    /// Games per engine pairing.
    pub games: usize,
    /// Opening turn lists; round k uses opening k modulo their number.
    /// An empty list means the start position.
    pub openings: Vec<Vec<String>>,
    pub limits: Limits,
    pub concurrency: usize,
    pub results: Option<PathBuf>,
    pub sgf: Option<PathBuf>,
    pub resume: bool,
    pub shard: Option<Shard>,
    pub sprt: Option<Sprt>,
    /// Directory for the engines' stderr logs (`NAME.log`); none: discarded.
    pub log_dir: Option<PathBuf>,
    /// Show the live progress line on stderr.
    pub progress: bool,
    /// Before each game, each engine is sent `oddity-param seed S`, with S
    /// from this base seed, the game's index and the seat
    /// ([`balance::game_seed`]): engines that search with random playouts
    /// (oddity's) then play different games against themselves.
    pub game_seed: Option<u64>,
    /// Stop where this rule decides who wins (`oddity balance`): the games
    /// are written in schedule order and read by the rule as they are, and
    /// at its verdict the games in progress are abandoned, so the file ends
    /// at the game that decided.
    pub first_player_stop: Option<balance::DecisionRule>,
    /// The command line recorded with each game.
    pub command: Option<String>,
}

/// What a finished run reports.
pub struct Report {
    /// All results of this schedule (slice): earlier runs' and this one's.
    pub results: Vec<GameResult>,
    pub summary: Summary,
    /// Games in this schedule (slice).
    pub scheduled: usize,
    /// Games played by this run.
    pub played: usize,
    /// True when stopped by the stop flag (Ctrl-C) before the end, or by an
    /// engine stopped from outside.
    pub interrupted: bool,
    /// The SPRT decided before the schedule ended.
    pub sprt_stopped: Option<Verdict>,
    /// The first player's share is decided ([`MatchConfig::first_player_stop`]).
    pub first_player_decided: bool,
}

impl MatchConfig {
    /// Engine pairings as names, in schedule order.
    pub fn pairing_names(&self) -> Vec<(String, String)> {
        super::schedule::pairings(self.format, self.engines.len())
            .into_iter()
            .map(|(a, b)| (self.engines[a].name.clone(), self.engines[b].name.clone()))
            .collect()
    }

    /// The games this run is responsible for (its shard of the schedule).
    pub fn games(&self) -> Vec<ScheduledGame> {
        let all = schedule(
            self.format,
            self.engines.len(),
            self.games,
            self.openings.len(),
        );
        match self.shard {
            Some(shard) => all.into_iter().filter(|g| shard.contains(g)).collect(),
            None => all,
        }
    }
}

/// Why a tournament cannot be played (or go on).
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    #[error("a tournament needs at least two engines")]
    TooFewEngines,
    #[error("two engines are named '{0}'")]
    SameName(String),
    #[error("engine '{name}' cannot be started: `{command}`: {source}")]
    EngineStart {
        name: String,
        command: String,
        source: std::io::Error,
    },
    #[error(
        "results file {0} exists; use --resume to continue that tournament, or name another file"
    )]
    ResultsExist(PathBuf),
    /// The results file could not be read back (the message says where).
    #[error("{0}")]
    ResultsUnreadable(ResultsError),
    #[error(
        "results file: game {id} was {played}, the schedule says {scheduled}: \
         resume with the arguments of the original run"
    )]
    OtherSchedule {
        id: String,
        played: String,
        scheduled: String,
    },
    #[error("cannot {what} {}: {source}", path.display())]
    File {
        what: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write the {what}: {source}")]
    Write {
        what: &'static str,
        source: std::io::Error,
    },
    #[error("cannot start a worker thread: {0}")]
    Thread(std::io::Error),
}

/// Checks that every engine can be started and asks each for its build
/// (GTP `name` and `version`: `oddity 0.1.0 (88c9764)`), by engine name;
/// `None` where an engine does not answer them. The error names the engine
/// and the reason. Run before any game, so that a typo stops everything.
pub fn engine_builds(
    engines: &[EngineSpec],
    timeout: std::time::Duration,
    stop: &AtomicBool,
) -> Result<HashMap<String, Option<String>>, MatchError> {
    let mut builds = HashMap::new();
    for e in engines {
        match EngineProcess::start(e, None) {
            Ok(mut p) => {
                let build = p.command("name", timeout, stop).and_then(|name| {
                    let version = p.command("version", timeout, stop)?;
                    Ok(format!("{name} {version}"))
                });
                p.kill();
                builds.insert(e.name.clone(), build.ok());
            }
            Err(source) => {
                return Err(MatchError::EngineStart {
                    name: e.name.clone(),
                    command: e.command_line(),
                    source,
                });
            }
        }
    }
    Ok(builds)
}

/// Holds games that finish before an earlier game of the schedule until
/// that one has finished too, so they are written in schedule order.
struct InOrder {
    /// Ids of the games not yet written, in schedule order.
    next: VecDeque<String>,
    waiting: HashMap<String, Played>,
}

impl InOrder {
    /// Takes a finished game; returns the games now ready, in order.
    fn arrive(&mut self, played: Played) -> Vec<Played> {
        self.waiting.insert(played.result.id.clone(), played);
        let mut ready = Vec::new();
        while let Some(p) = self.next.front().and_then(|id| self.waiting.remove(id)) {
            self.next.pop_front();
            ready.push(p);
        }
        ready
    }
}

/// Plays the tournament. `stop` set (by Ctrl-C) ends it: games in progress
/// are abandoned, not recorded, so a later `--resume` replays them.
pub fn run(cfg: &MatchConfig, stop: Arc<AtomicBool>) -> Result<Report, MatchError> {
    if cfg.engines.len() < 2 {
        return Err(MatchError::TooFewEngines);
    }
    let mut names = HashSet::new();
    for e in &cfg.engines {
        if !names.insert(e.name.as_str()) {
            return Err(MatchError::SameName(e.name.clone()));
        }
    }
    let games = cfg.games();
    let scheduled = games.len();

    // Earlier results of this tournament.
    let mut done: Vec<GameResult> = Vec::new();
    if let Some(path) = &cfg.results
        && path.exists()
        && std::fs::metadata(path)
            .map(|m| m.len() > 0)
            .unwrap_or(false)
    {
        if !cfg.resume {
            return Err(MatchError::ResultsExist(path.clone()));
        }
        done = read_results(path).map_err(MatchError::ResultsUnreadable)?;
        if super::results::repair_tail(path).map_err(|source| MatchError::File {
            what: "repair results file",
            path: path.clone(),
            source,
        })? {
            eprintln!(
                "resume: the unfinished last line of {} was removed",
                path.display()
            );
        }
    }
    let by_id: HashMap<&str, &ScheduledGame> = games.iter().map(|g| (g.id.as_str(), g)).collect();
    let mut finished: HashSet<String> = HashSet::new();
    for r in &done {
        if let Some(g) = by_id.get(r.id.as_str()) {
            let (b, w) = (&cfg.engines[g.black].name, &cfg.engines[g.white].name);
            if &r.black != b || &r.white != w || r.game != cfg.spec.kind || r.size != cfg.spec.size
            {
                return Err(MatchError::OtherSchedule {
                    id: r.id.clone(),
                    played: format!("{} vs {} ({} {})", r.black, r.white, r.game, r.size),
                    scheduled: format!("{b} vs {w} ({} {})", cfg.spec.kind, cfg.spec.size),
                });
            }
        }
        finished.insert(r.id.clone());
    }
    done.retain(|r| by_id.contains_key(r.id.as_str()));
    let queue: VecDeque<ScheduledGame> = games
        .iter()
        .filter(|g| !finished.contains(&g.id))
        .cloned()
        .collect();

    let answer_within = cfg
        .limits
        .move_timeout
        .min(std::time::Duration::from_secs(30));
    let builds = engine_builds(&cfg.engines, answer_within, &stop)?;
    if let Some(dir) = &cfg.log_dir {
        std::fs::create_dir_all(dir).map_err(|source| MatchError::File {
            what: "create log directory",
            path: dir.clone(),
            source,
        })?;
    }
    let mut writer = match &cfg.results {
        Some(p) => Some(ResultsWriter::open(p).map_err(|source| MatchError::File {
            what: "open results file",
            path: p.clone(),
            source,
        })?),
        None => None,
    };
    let mut sgf_writer = match &cfg.sgf {
        Some(p) => Some(SgfWriter::open(p).map_err(|source| MatchError::File {
            what: "open SGF file",
            path: p.clone(),
            source,
        })?),
        None => None,
    };

    let order = cfg.pairing_names();
    let mut all = done;
    let mut played = 0;
    let mut sprt_stopped = None;
    if let Some(sprt) = &cfg.sprt {
        let v = sprt_verdict(sprt, &all, &order);
        if v != Verdict::Continue {
            sprt_stopped = Some(v);
        }
    }
    let decided = |all: &[GameResult]| {
        cfg.first_player_stop.is_some_and(|rule| {
            let games: Vec<&GameResult> = all.iter().collect();
            balance::read_cell(&rule, &games).verdict != oddity_fairness::Verdict::Undecided
        })
    };
    let mut first_player_decided = decided(&all);
    // Set when an engine is stopped from outside (SIGTERM ...).
    let outside = Arc::new(AtomicBool::new(false));

    if sprt_stopped.is_none() && !first_player_decided && !queue.is_empty() {
        let mut in_order = cfg.first_player_stop.map(|_| InOrder {
            next: queue.iter().map(|g| g.id.clone()).collect(),
            waiting: HashMap::new(),
        });
        let queue = Arc::new(Mutex::new(queue));
        let drain = Arc::new(AtomicBool::new(false));
        // The workers' stop: set by Ctrl-C (relayed from `stop` below) or by
        // the first-player rule's verdict, and abandons games in progress.
        let halt = Arc::new(AtomicBool::new(false));
        // A rendezvous: a worker hands over a game only when the collector
        // takes it, so an SPRT stop is seen by each worker at most one game
        // late however busy the machine is.
        let (tx, rx) = sync_channel::<Played>(0);
        let workers = cfg.concurrency.max(1).min(queue.lock().unwrap().len());
        let mut handles = Vec::new();
        for w in 0..workers {
            let queue = Arc::clone(&queue);
            let drain = Arc::clone(&drain);
            let halt = Arc::clone(&halt);
            let outside = Arc::clone(&outside);
            let tx = tx.clone();
            let cfg = cfg.clone();
            handles.push(
                thread::Builder::new()
                    .name(format!("match-worker-{w}"))
                    .spawn(move || worker(&cfg, w, &queue, &drain, &halt, &outside, &tx))
                    .map_err(MatchError::Thread)?,
            );
        }
        drop(tx);
        let display = cfg.progress.then(|| Display::new(scheduled));
        if let Some(d) = &display {
            d.update(&Summary::new(&all, &order), scheduled, None);
        }
        loop {
            let arrived = rx.recv_timeout(std::time::Duration::from_millis(100));
            if stop.load(Ordering::Relaxed) {
                halt.store(true, Ordering::Relaxed);
            }
            let p = match arrived {
                Ok(p) => p,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => break,
            };
            // Past the rule's verdict nothing more is kept.
            if first_player_decided {
                continue;
            }
            let ready = match &mut in_order {
                Some(order) => order.arrive(p),
                None => vec![p],
            };
            for p in ready {
                let Played {
                    mut result, record, ..
                } = p;
                result.black_build = builds.get(&result.black).cloned().flatten();
                result.white_build = builds.get(&result.white).cloned().flatten();
                result.command = cfg.command.clone();
                if let Some(sgf) = &mut sgf_writer {
                    let info = RecordInfo {
                        black: Some(result.black.clone()),
                        white: Some(result.white.clone()),
                        result: Some(sgf_result(&result)),
                        date: None,
                        comment: Some(format!(
                            "game {}: {}{}",
                            result.id,
                            result.reason,
                            if result.detail.is_empty() {
                                String::new()
                            } else {
                                format!(" ({})", result.detail)
                            }
                        )),
                    };
                    sgf.append(&write_sgf(&record, &info))
                        .map_err(|source| MatchError::Write {
                            what: "SGF file",
                            source,
                        })?;
                }
                if let Some(w) = &mut writer {
                    w.append(&result).map_err(|source| MatchError::Write {
                        what: "results file",
                        source,
                    })?;
                }
                played += 1;
                all.push(result);
                let summary = Summary::new(&all, &order);
                if let Some(d) = &display {
                    d.update(&summary, scheduled, all.last());
                }
                if let Some(sprt) = &cfg.sprt {
                    let v = sprt_verdict(sprt, &all, &order);
                    if v != Verdict::Continue && sprt_stopped.is_none() {
                        sprt_stopped = Some(v);
                        drain.store(true, Ordering::Relaxed);
                    }
                }
                if decided(&all) {
                    first_player_decided = true;
                    halt.store(true, Ordering::Relaxed);
                    break;
                }
            }
        }
        for h in handles {
            let _ = h.join();
        }
        if let Some(d) = &display {
            d.finish();
        }
    }
    let interrupted = stop.load(Ordering::Relaxed) || outside.load(Ordering::Relaxed);
    let summary = Summary::new(&all, &order);
    Ok(Report {
        results: all,
        summary,
        scheduled,
        played,
        interrupted,
        sprt_stopped,
        first_player_decided,
    })
}

fn sprt_verdict(sprt: &Sprt, results: &[GameResult], order: &[(String, String)]) -> Verdict {
    let s = Summary::new(results, order);
    match s.pairs.first() {
        Some(p) => sprt.verdict(&p.penta),
        None => Verdict::Continue,
    }
}

/// The live display on stderr: a progress bar on a terminal, one line per
/// finished game otherwise (logs).
enum Display {
    Bar(ProgressBar),
    Lines,
}

impl Display {
    fn new(total: usize) -> Display {
        if !std::io::stderr().is_terminal() {
            return Display::Lines;
        }
        let bar = ProgressBar::new(total as u64);
        let template = "[{bar:30}] {pos}/{len} games, {elapsed_precise} (eta {eta}){msg}";
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style.progress_chars("=> "));
        }
        Display::Bar(bar)
    }

    fn update(&self, s: &Summary, total: usize, last: Option<&GameResult>) {
        match self {
            Display::Bar(bar) => {
                bar.set_position(s.games);
                bar.set_message(s.standings());
            }
            Display::Lines => {
                if let Some(r) = last {
                    eprintln!(
                        "game {} {} vs {}: {} ({}) | {}",
                        r.id,
                        r.black,
                        r.white,
                        r.winner.as_deref().unwrap_or("no result"),
                        r.reason,
                        s.progress(total)
                    );
                }
            }
        }
    }

    fn finish(&self) {
        if let Display::Bar(bar) = self {
            bar.finish_and_clear();
        }
    }
}

fn worker(
    cfg: &MatchConfig,
    w: usize,
    queue: &Mutex<VecDeque<ScheduledGame>>,
    drain: &AtomicBool,
    stop: &AtomicBool,
    outside: &AtomicBool,
    tx: &SyncSender<Played>,
) {
    let mut procs: HashMap<usize, EngineProcess> = HashMap::new();
    loop {
        if stop.load(Ordering::Relaxed) || drain.load(Ordering::Relaxed) {
            break;
        }
        let Some(game) = queue.lock().unwrap().pop_front() else {
            break;
        };
        let seats = [game.black, game.white];
        let mut start_error = None;
        for (k, &e) in seats.iter().enumerate() {
            if procs.get(&e).is_some_and(|p| p.is_dead()) {
                procs.remove(&e);
            }
            if let std::collections::hash_map::Entry::Vacant(slot) = procs.entry(e) {
                match start_engine(cfg, e, w, stop) {
                    Ok(p) => {
                        slot.insert(p);
                    }
                    Err(fault) => {
                        start_error = Some((k, fault));
                        break;
                    }
                }
            }
        }
        let names = [
            cfg.engines[game.black].name.as_str(),
            cfg.engines[game.white].name.as_str(),
        ];
        let opening: &[String] = cfg
            .openings
            .get(game.opening)
            .map(|o| o.as_slice())
            .unwrap_or(&[]);
        let fixture = Fixture {
            id: &game.id,
            pair: game.pair,
            spec: &cfg.spec,
            opening,
            names,
        };
        if start_error.is_none()
            && let Some(base) = cfg.game_seed
        {
            start_error = send_seeds(&mut procs, &game, base, cfg.limits.move_timeout, stop);
        }
        let played = if let Some((k, fault)) = start_error {
            if fault == Fault::Aborted {
                stopped_from_outside(stop, outside);
                break;
            }
            Some(super::referee::forfeit_at_start(&fixture, k, &fault))
        } else {
            let mut a = procs.remove(&game.black).expect("started");
            let mut b = procs.remove(&game.white).expect("started");
            let played = play_game(&fixture, [&mut a, &mut b], &cfg.limits, stop);
            let faulty = played.as_ref().and_then(|p| p.faulty);
            for (seat, mut p) in [
                (oddity_rules::Colour::Black, a),
                (oddity_rules::Colour::White, b),
            ] {
                if faulty == Some(seat) || p.is_dead() {
                    p.kill();
                } else {
                    procs.insert(seats[seat.index()], p);
                }
            }
            played
        };
        match played {
            Some(p) => {
                if tx.send(p).is_err() {
                    break;
                }
            }
            None => {
                stopped_from_outside(stop, outside);
                break;
            }
        }
    }
    for (_, p) in procs {
        p.quit();
    }
}

/// A game abandoned while the tournament was not stopping: an engine was
/// stopped from outside (a job scheduler stopping the job). The whole run
/// stops, as if interrupted; a later run replays the game.
fn stopped_from_outside(stop: &AtomicBool, outside: &AtomicBool) {
    if !stop.swap(true, Ordering::Relaxed) {
        outside.store(true, Ordering::Relaxed);
    }
}

/// Sends each seat's engine its seed for this game; the seat whose engine
/// refuses loses the game before it begins.
fn send_seeds(
    procs: &mut HashMap<usize, EngineProcess>,
    game: &ScheduledGame,
    base: u64,
    timeout: std::time::Duration,
    stop: &AtomicBool,
) -> Option<(usize, Fault)> {
    for (k, e) in [game.black, game.white].into_iter().enumerate() {
        let p = procs.get_mut(&e).expect("started");
        let command = format!(
            "oddity-param seed {}",
            balance::game_seed(base, game.index, k)
        );
        if let Err(fault) = p.command(&command, timeout, stop) {
            p.kill();
            procs.remove(&e);
            return Some((k, fault));
        }
    }
    None
}

/// Starts engine `e` and sends its init commands.
fn start_engine(
    cfg: &MatchConfig,
    e: usize,
    worker: usize,
    stop: &AtomicBool,
) -> Result<EngineProcess, Fault> {
    let spec = &cfg.engines[e];
    let log = cfg
        .log_dir
        .as_ref()
        .map(|d| d.join(format!("{}-{worker}.log", spec.name)));
    let mut p = EngineProcess::start(spec, log.as_ref())
        .map_err(|err| Fault::Crash(format!("cannot start: {err}")))?;
    for cmd in &spec.init {
        if let Err(f) = p.command(cmd, cfg.limits.move_timeout, stop) {
            p.kill();
            return Err(f);
        }
    }
    Ok(p)
}
