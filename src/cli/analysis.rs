//! `oddity analysis`: batch analysis, one JSON query per line on stdin and
//! one JSON result per analysed position on stdout (docs/analysis.md).
//!
//! The main thread reads lines and answers actions at once; the positions
//! wait in a queue, highest priority first and then in input order, for
//! `--parallel` workers. Every line is written whole under one lock.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io::Write;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

use clap::Args;
use serde_json::Value;

use crate::analysis::batch::{Defaults, Job, Request, Viewpoint, request_raw, run_job};
use crate::analysis::result::{DEFAULT_VISITS, Settings};
use crate::lines::LineReader;
use crate::search::{StopFlag, bounds};

/// The longest query line read; a longer one is answered with an error.
const QUERY_LIMIT: usize = 1 << 20;

#[derive(Args, Debug)]
pub struct AnalysisArgs {
    /// Visits per position when a query gives neither maxVisits nor maxTime.
    #[arg(long, default_value_t = DEFAULT_VISITS)]
    pub visits: u64,
    /// Search threads per query.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Positions searched at the same time; results come as they finish.
    #[arg(long, default_value_t = 1)]
    pub parallel: usize,
    /// Seed when a query gives none.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Candidates per result when a query gives no topK.
    #[arg(long, default_value_t = 5)]
    pub top: usize,
    /// Whose win rates answers give when a query does not say
    /// (reportAnalysisWinratesAs): SIDETOMOVE, BLACK or WHITE.
    #[arg(long, value_name = "SIDETOMOVE|BLACK|WHITE", default_value = "SIDETOMOVE", value_parser = parse_viewpoint)]
    pub winrates_as: Viewpoint,
}

fn parse_viewpoint(text: &str) -> Result<Viewpoint, String> {
    Viewpoint::parse(text).ok_or_else(|| format!("'{text}' is not SIDETOMOVE, BLACK or WHITE"))
}

/// A job waiting in the queue, ordered by priority and then input order.
struct Queued {
    priority: i64,
    seq: u64,
    job: Job,
}

impl Queued {
    fn key(&self) -> (i64, Reverse<u64>) {
        (self.priority, Reverse(self.seq))
    }
}

impl PartialEq for Queued {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}
impl Eq for Queued {}
impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Queued {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

/// A job not yet answered, for `terminate`.
struct Open {
    seq: u64,
    id: Value,
    turn: Option<usize>,
    stop: StopFlag,
}

#[derive(Default)]
struct State {
    waiting: BinaryHeap<Queued>,
    open: Vec<Open>,
    next_seq: u64,
    /// The input has ended: workers stop once the queue is empty.
    closed: bool,
}

#[derive(Default)]
struct Queue {
    state: Mutex<State>,
    ready: Condvar,
}

impl Queue {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn push(&self, jobs: Vec<Job>) {
        let mut s = self.lock();
        for job in jobs {
            let seq = s.next_seq;
            s.next_seq += 1;
            s.open.push(Open {
                seq,
                id: job.id.clone(),
                turn: job.turn,
                stop: job.stop.clone(),
            });
            s.waiting.push(Queued {
                priority: job.priority,
                seq,
                job,
            });
        }
        self.ready.notify_all();
    }

    /// The next job, or `None` once the input has ended and none is left.
    fn pop(&self) -> Option<(u64, Job)> {
        let mut s = self.lock();
        loop {
            if let Some(q) = s.waiting.pop() {
                return Some((q.seq, q.job));
            }
            if s.closed {
                return None;
            }
            s = self.ready.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn done(&self, seq: u64) {
        self.lock().open.retain(|o| o.seq != seq);
    }

    /// Stops the open jobs of `id` (all when `None`), of `turns` only when
    /// given.
    fn terminate(&self, id: Option<&Value>, turns: Option<&[usize]>) {
        for o in &self.lock().open {
            let turn_matches = match (turns, o.turn) {
                (None, _) => true,
                (Some(ts), Some(t)) => ts.contains(&t),
                (Some(_), None) => false,
            };
            if id.is_none_or(|id| *id == o.id) && turn_matches {
                o.stop.stop();
            }
        }
    }

    fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_all();
    }
}

pub fn run(args: &AnalysisArgs) -> Result<(), String> {
    if args.visits == 0 || args.parallel == 0 {
        return Err("--visits and --parallel must be at least 1".into());
    }
    bounds::threads("--threads", args.threads).map_err(|e| e.to_string())?;
    let defaults = Defaults {
        settings: Settings {
            visits: Some(args.visits),
            time: None::<Duration>,
            threads: args.threads,
            seed: args.seed,
            top: args.top,
        },
        viewpoint: args.winrates_as,
    };
    let queue = Queue::default();
    let stdout = Mutex::new(std::io::stdout());
    // A closed stdout ends nothing: queries are still read and searched.
    let write = |line: String| {
        let mut out = stdout.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(out, "{line}").and_then(|_| out.flush());
    };
    std::thread::scope(|scope| {
        for _ in 0..args.parallel {
            scope.spawn(|| {
                while let Some((seq, job)) = queue.pop() {
                    run_job(&job, &mut |line| write(line));
                    queue.done(seq);
                }
            });
        }
        for line in LineReader::new(std::io::stdin().lock(), QUERY_LIMIT) {
            match request_raw(&line, &defaults) {
                Request::Nothing => {}
                Request::Now(reply) => write(reply),
                Request::Terminate { id, turns, reply } => {
                    queue.terminate(id.as_ref(), turns.as_deref());
                    write(reply);
                }
                Request::Jobs(jobs) => queue.push(jobs),
            }
        }
        queue.close();
    });
    Ok(())
}
