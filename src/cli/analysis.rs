//! `oddity analysis`: batch analysis, one JSON query per line on stdin and
//! one JSON result per analysed position on stdout (docs/analysis.md).

use std::io::Write;
use std::sync::{Mutex, mpsc};
use std::time::Duration;

use clap::Args;

use crate::analysis::batch::{Defaults, answer_raw};
use crate::analysis::result::{DEFAULT_VISITS, Settings};
use crate::lines::{LineReader, RawLine};

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
    /// Queries searched at the same time; results come as they finish.
    #[arg(long, default_value_t = 1)]
    pub parallel: usize,
    /// Seed when a query gives none.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Candidates per result when a query gives no topK.
    #[arg(long, default_value_t = 5)]
    pub top: usize,
}

pub fn run(args: &AnalysisArgs) -> Result<(), String> {
    if args.visits == 0 || args.threads == 0 || args.parallel == 0 {
        return Err("--visits, --threads and --parallel must be at least 1".into());
    }
    let defaults = Defaults {
        settings: Settings {
            visits: Some(args.visits),
            time: None::<Duration>,
            threads: args.threads,
            seed: args.seed,
            top: args.top,
        },
    };
    let (send, receive) = mpsc::channel::<RawLine>();
    let receive = Mutex::new(receive);
    let stdout = Mutex::new(std::io::stdout());
    std::thread::scope(|scope| {
        for _ in 0..args.parallel {
            scope.spawn(|| {
                loop {
                    let line = match receive.lock() {
                        Ok(r) => r.recv(),
                        Err(_) => return,
                    };
                    let Ok(line) = line else { return };
                    let answers = answer_raw(&line, &defaults);
                    let Ok(mut out) = stdout.lock() else { return };
                    for a in answers {
                        if writeln!(out, "{a}").and_then(|_| out.flush()).is_err() {
                            return;
                        }
                    }
                }
            });
        }
        for line in LineReader::new(std::io::stdin().lock(), QUERY_LIMIT) {
            if send.send(line).is_err() {
                break;
            }
        }
        drop(send);
    });
    Ok(())
}
