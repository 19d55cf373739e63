//! Times one forward evaluation of the network on each board, for each
//! channel count and each version, on one thread, and prints a Markdown
//! table of the median microseconds per position over rounds.
//!
//! `cargo run --release -- [--rounds N] [--round-ms MS]`

use std::hint::black_box;
use std::time::{Duration, Instant};

use net_bench::candle_net::CandleNet;
use net_bench::hand::hand_net;
use net_bench::ndarray_net::NdNet;
use net_bench::{Board, HEADS, Weights, boards, random_inputs, single_thread, thread_count};

/// The batch of the batched runs.
const BATCH: usize = 32;
/// Channel counts measured.
const CHANNELS: [usize; 2] = [16, 32];

struct Settings {
    rounds: usize,
    round: Duration,
}

fn settings() -> Settings {
    let mut s = Settings {
        rounds: 15,
        round: Duration::from_millis(50),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || -> u64 {
            args.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{a} wants a number"))
        };
        match a.as_str() {
            "--rounds" => s.rounds = value().max(1) as usize,
            "--round-ms" => s.round = Duration::from_millis(value().max(1)),
            _ => panic!("usage: net-bench [--rounds N] [--round-ms MS]"),
        }
    }
    s
}

/// One version to time: its name, its batch, and a call that evaluates
/// `batch` positions.
struct Version<'a> {
    name: &'static str,
    batch: usize,
    eval: Box<dyn FnMut() + 'a>,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Times the versions, the first being the reference: each is warmed up
/// (which also sizes its rounds to about `s.round`), then the rounds go
/// through all the versions in turn, so that a change of the machine's
/// load falls on all of them alike. Returns, per version, the median
/// microseconds per position over rounds and the median over rounds of
/// its time over the reference's time in the same round.
fn time(s: &Settings, versions: &mut [Version]) -> Vec<(f64, f64)> {
    let reps: Vec<u64> = versions
        .iter_mut()
        .map(|v| {
            let warm_up = s.round / 2;
            let start = Instant::now();
            let mut calls = 0u64;
            while calls < 3 || start.elapsed() < warm_up {
                (v.eval)();
                calls += 1;
            }
            let per_call = start.elapsed().as_secs_f64() / calls as f64;
            ((s.round.as_secs_f64() / per_call) as u64).max(1)
        })
        .collect();
    // micros[version][round]
    let mut micros = vec![Vec::with_capacity(s.rounds); versions.len()];
    for _ in 0..s.rounds {
        for ((v, &reps), m) in versions.iter_mut().zip(&reps).zip(&mut micros) {
            let t = Instant::now();
            for _ in 0..reps {
                (v.eval)();
            }
            m.push(t.elapsed().as_secs_f64() * 1e6 / (reps as f64 * v.batch as f64));
        }
    }
    micros
        .iter()
        .map(|m| {
            let ratios = m.iter().zip(&micros[0]).map(|(a, r)| a / r).collect();
            (median(m.clone()), median(ratios))
        })
        .collect()
}

struct Row {
    board: String,
    cells: usize,
    c: usize,
    version: &'static str,
    batch: usize,
    micros: f64,
    ratio: f64,
}

fn measure(s: &Settings, board: &Board, c: usize, rows: &mut Vec<Row>) {
    let w = Weights::random(c, 1000 + c as u64);
    let one = random_inputs(board.cells, 1, 1);
    let many = random_inputs(board.cells, BATCH, 2);
    let mut hand = hand_net(board, &w);
    let candle = CandleNet::new(board, &w).expect("candle network");
    let nd = NdNet::new(board, &w);
    let mut policy = vec![0.0; board.cells * HEADS];
    let mut versions = [
        Version {
            name: "hand-written",
            batch: 1,
            eval: Box::new(|| {
                black_box(hand.evaluate(black_box(&one), &mut policy));
                black_box(&policy);
            }),
        },
        Version {
            name: "candle",
            batch: 1,
            eval: Box::new(|| {
                black_box(candle.evaluate(black_box(&one), 1).expect("candle"));
            }),
        },
        Version {
            name: "candle",
            batch: BATCH,
            eval: Box::new(|| {
                black_box(candle.evaluate(black_box(&many), BATCH).expect("candle"));
            }),
        },
        Version {
            name: "ndarray",
            batch: 1,
            eval: Box::new(|| {
                black_box(nd.evaluate(black_box(&one), 1));
            }),
        },
        Version {
            name: "ndarray",
            batch: BATCH,
            eval: Box::new(|| {
                black_box(nd.evaluate(black_box(&many), BATCH));
            }),
        },
    ];
    let times = time(s, &mut versions);
    for (v, (micros, ratio)) in versions.iter().zip(times) {
        rows.push(Row {
            board: board.name.clone(),
            cells: board.cells,
            c,
            version: v.name,
            batch: v.batch,
            micros,
            ratio,
        });
    }
}

fn main() {
    // SAFETY: no other thread has started yet.
    unsafe { single_thread() };
    let s = settings();
    let mut rows = Vec::new();
    for board in boards() {
        for c in CHANNELS {
            measure(&s, &board, c, &mut rows);
            eprintln!("{} C={c} done", board.name);
        }
    }
    println!(
        "{} rounds of about {} ms per version, the versions in turn in each round; \
         medians over rounds (the last column: of the per-round ratio to the \
         hand-written version).\n",
        s.rounds,
        s.round.as_millis()
    );
    println!("| board | cells | C | version | batch | median µs per position | vs hand-written |");
    println!("|---|---:|---:|---|---:|---:|---:|");
    for r in &rows {
        println!(
            "| {} | {} | {} | {} | {} | {:.2} | {:.2}x |",
            r.board, r.cells, r.c, r.version, r.batch, r.micros, r.ratio
        );
    }
    match thread_count() {
        Some(n) => println!("\nThreads of the process at the end: {n}."),
        None => println!("\nThreads of the process: unknown on this system."),
    }
}
