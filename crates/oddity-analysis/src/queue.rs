//! The loop of the JSON analysis engine (`oddity analysis`,
//! docs/analysis.md): query lines in, answer lines out.
//!
//! The calling thread reads lines and answers actions at once; the
//! positions wait in a queue, highest priority first and then in input
//! order, for the workers. Every line is written whole under one lock.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io::{BufRead, Write};
use std::num::NonZeroUsize;
use std::sync::{Condvar, Mutex, MutexGuard};

use serde_json::Value;

use crate::batch::{Job, Request, request_raw, run_job};
use crate::query::Defaults;
use oddity_lines::LineReader;
use oddity_search::StopFlag;

/// The longest query line read; a longer one is answered with an error.
pub const QUERY_LIMIT: usize = 1 << 20;

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

/// Answers every query line of `input` on `output`, searching up to
/// `workers` positions at the same time; returns once the input has ended
/// and every queued position is answered. A failed write ends nothing:
/// queries are still read and searched.
pub fn serve(
    input: impl BufRead,
    output: impl Write + Send,
    defaults: &Defaults,
    workers: NonZeroUsize,
) {
    let queue = Queue::default();
    let output = Mutex::new(output);
    let write = |line: String| {
        let mut out = output.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(out, "{line}").and_then(|_| out.flush());
    };
    std::thread::scope(|scope| {
        for _ in 0..workers.get() {
            scope.spawn(|| {
                while let Some((seq, job)) = queue.pop() {
                    run_job(&job, &mut |line| write(line));
                    queue.done(seq);
                }
            });
        }
        for line in LineReader::new(input, QUERY_LIMIT) {
            match request_raw(&line, defaults) {
                Request::Nothing => {}
                Request::Now(reply) => write(reply),
                Request::Terminate { id, turns, reply } => {
                    // Acknowledged before anything stops, so that the
                    // acknowledgement comes before the answers it cuts
                    // short (a worker may take a stopped job at once).
                    write(reply);
                    queue.terminate(id.as_ref(), turns.as_deref());
                }
                Request::Jobs(jobs) => queue.push(jobs),
            }
        }
        queue.close();
    });
}
