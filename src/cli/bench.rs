//! `oddity bench`: search (or bare playout) speed from the start position.
//! The last stdout line is one JSON object.

use std::time::{Duration, Instant};

use clap::Args;
use cpu_time::ProcessTime;
use serde::Serialize;

use crate::cli::args::{EngineArgs, GameArgs};
use oddity_patterns::{PlayoutPolicies, Weights};
use oddity_rules::{AnyGame, GameRecord, Rng};
use oddity_search::{
    Engine, EngineConfig, Knowledge, Limits, NODE_BYTES, PlayoutOptions, SearchParams, StopFlag,
    Visits,
};

/// How long the benchmark runs when neither --time nor --visits is given.
const DEFAULT_TIME: Duration = Duration::from_secs(2);

#[derive(Args, Debug)]
#[command(
    mut_arg("time", |a| a.help("Seconds to search (default 2 when --visits is not given)").visible_alias("seconds")),
    mut_arg("threads", |a| a.help("Search threads (default: all cores)")),
    mut_arg("visits", |a| a.help("Iterations to search")),
    mut_arg("seed", |a| a.help("Random seed (default 0)"))
)]
pub struct BenchArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Time the bare playout kernel instead of the search.
    #[arg(long)]
    pub playouts: bool,
    /// Time the playouts of --policy as its search plays them (the default
    /// policy's colour choice in Xodd and Yodd, capture replies in Onyx,
    /// the learned patterns' with `--param pattern_playouts=on`, with the
    /// other --param overrides; plain's are the kernel) instead of the search.
    #[arg(long, conflicts_with_all = ["playouts", "stop_latency"])]
    pub policy_playouts: bool,
    /// Search without limits, set the stop flag after --time and report
    /// how long the search took to return (`stop_ms`).
    #[arg(long)]
    pub stop_latency: bool,
    /// Tree node cap.
    #[arg(long)]
    pub max_nodes: Option<usize>,
}

/// The line `--playouts` prints.
#[derive(Serialize)]
struct PlayoutLine {
    game: &'static str,
    size: usize,
    playouts: u64,
    seconds: f64,
    playouts_per_second: u64,
    /// With `--policy-playouts`: the policy whose playouts were timed.
    #[serde(skip_serializing_if = "Option::is_none")]
    policy: Option<String>,
}

/// The line a search benchmark prints.
#[derive(Serialize)]
struct SearchLine {
    game: &'static str,
    size: usize,
    threads: usize,
    policy: String,
    iterations: u64,
    seconds: f64,
    iterations_per_second: u64,
    nodes: usize,
    bytes_per_node: f64,
    root_visits: u64,
    root_value: f64,
    cpu_seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stop_ms: Option<f64>,
    best: Option<String>,
}

/// `v` rounded to `places` decimals, as the line shows it.
fn round(v: f64, places: i32) -> f64 {
    let f = 10f64.powi(places);
    (v * f).round() / f
}

fn print_line<T: Serialize>(line: &T) -> Result<(), String> {
    println!(
        "{}",
        serde_json::to_string(line).map_err(|e| e.to_string())?
    );
    Ok(())
}

/// Runs the benchmark; `Err` is a one-line message for stderr.
pub fn run(args: &BenchArgs) -> Result<(), String> {
    let spec = args.game.spec()?;
    let start = AnyGame::new(&spec);
    let config = args.engine.config(EngineConfig::default())?;
    let seconds = match (config.time, config.visits) {
        (Some(s), _) => Some(s),
        (None, Visits::Auto) => Some(DEFAULT_TIME),
        (None, _) => None,
    };
    let policy = config.params.policy;
    if args.playouts || args.policy_playouts {
        let secs = seconds.unwrap_or(DEFAULT_TIME);
        let seed = config.params.seed;
        let settings = config.params.tuning.resolve(spec.kind, policy);
        let playout = Playout {
            smart: args.policy_playouts && settings.playouts,
            patterns: (args.policy_playouts && settings.pattern_playouts)
                .then(|| Weights::builtin(spec.kind))
                .flatten(),
            temperature: settings.pattern_temperature,
            options: PlayoutOptions::of(&settings),
        };
        let (playouts, elapsed) =
            oddity_rules::with_game!(&start, g => playout_loop(g, seed, secs, playout));
        let s = elapsed.as_secs_f64();
        return print_line(&PlayoutLine {
            game: spec.kind.name(),
            size: spec.size,
            playouts,
            seconds: round(s, 3),
            playouts_per_second: (playouts as f64 / s).round() as u64,
            policy: args.policy_playouts.then(|| policy.to_string()),
        });
    }
    let params = SearchParams {
        max_nodes: args.max_nodes,
        ..config.params.clone()
    };
    let threads = params.threads;
    let mut engine = Engine::new(params);
    let record = GameRecord::new(start.clone());
    engine.set_position(&record);
    let limits = Limits {
        visits: config.visits.cap_or(None),
        time: seconds,
        soft_time: None,
    };
    let cpu_before = ProcessTime::try_now().ok();
    let mut stop_ms = None;
    let report = if args.stop_latency {
        let wait = seconds.unwrap_or(DEFAULT_TIME);
        let stop = StopFlag::new();
        let (report, latency) = std::thread::scope(|s| {
            let flag = stop.clone();
            let search = s.spawn(|| engine.search(&Limits::default(), &stop, None));
            std::thread::sleep(wait);
            let t0 = Instant::now();
            flag.stop();
            let report = search.join().expect("search thread panicked");
            (report, t0.elapsed())
        });
        stop_ms = Some(round(latency.as_secs_f64() * 1000.0, 3));
        report
    } else {
        engine.search(&limits, &StopFlag::new(), None)
    };
    // CPU time of all threads of this process; None where the system has no such clock.
    let cpu = cpu_before
        .and_then(|t| t.try_elapsed().ok())
        .map(|d| round(d.as_secs_f64(), 2));
    let s = report.elapsed.as_secs_f64();
    let best = report.best.map(|t| start.token(&t));
    if let Some(c) = report.candidates.first() {
        eprintln!(
            "best {} visits {} value {:.3} root value {:.3} pv {}",
            best.as_deref().unwrap_or("none"),
            c.visits,
            c.value,
            report.root_value,
            c.pv.iter()
                .map(|t| start.token(t))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    print_line(&SearchLine {
        game: spec.kind.name(),
        size: spec.size,
        threads,
        policy: policy.to_string(),
        iterations: report.iterations,
        seconds: round(s, 3),
        iterations_per_second: (report.iterations as f64 / s.max(1e-9)).round() as u64,
        nodes: report.nodes,
        bytes_per_node: round(NODE_BYTES as f64, 1),
        root_visits: report.root_visits,
        root_value: round(report.root_value, 4),
        cpu_seconds: cpu,
        stop_ms,
        best,
    })
}

/// Which playouts [`playout_loop`] times: the bare kernel, the default
/// policy's with its reply settings, or the learned patterns'.
#[derive(Clone, Copy)]
struct Playout {
    smart: bool,
    patterns: Option<&'static Weights>,
    temperature: f32,
    options: PlayoutOptions,
}

/// Clones the start and plays it out until `time` has passed.
fn playout_loop<G: Knowledge>(
    start: &G,
    seed: u64,
    time: Duration,
    playout: Playout,
) -> (u64, Duration) {
    let mut rng = Rng::seeded(seed);
    let begin = Instant::now();
    let mut n = 0u64;
    let mut sink = 0u32;
    let mut policy = PlayoutPolicies::default();
    loop {
        for _ in 0..64 {
            let mut g = start.clone();
            let winner = if let Some(weights) = playout.patterns {
                g.pattern_playout(&mut rng, weights, playout.temperature, &mut policy)
            } else if playout.smart {
                g.policy_playout(&mut rng, playout.options)
            } else {
                g.playout(&mut rng)
            };
            sink += winner as u32;
        }
        n += 64;
        if begin.elapsed() >= time {
            break;
        }
    }
    std::hint::black_box(sink);
    (n, begin.elapsed())
}
