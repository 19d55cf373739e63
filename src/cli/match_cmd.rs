//! `oddity match`: engine-vs-engine tournaments (see `docs/match.md`).

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::cli::args::GameArgs;
use crate::cli::interrupt::stop_on_ctrl_c;
use oddity_client::EngineSpec;
use oddity_rules::AnyGame;
use oddity_search::config;
use oddity_tournament::referee::{Limits, TimeControl};
use oddity_tournament::results::{ResultsWriter, Summary, merge_files};
use oddity_tournament::schedule::{Format, Shard, random_openings, read_openings};
use oddity_tournament::stats::{Sprt, Verdict};
use oddity_tournament::{MatchConfig, run as run_tournament};

/// Engine-vs-engine tournaments, refereed by oddity's own rules.
#[derive(Args, Debug)]
#[command(
    after_help = "Example, 100 games of Xodd between two oddity configurations:\n  \
    oddity match --game xodd --games 100 --random-plies 2 --concurrency 2 \\\n    \
    --engine 'v100=oddity gtp --threads 1 --visits 100' \\\n    \
    --engine 'v400=oddity gtp --threads 1 --visits 400' --results xodd.jsonl\n\n\
    Forfeit reasons, the results format, statistics and a recipe for several\n\
    machines: docs/match.md."
)]
pub struct MatchArgs {
    /// An engine as 'NAME=COMMAND LINE' (repeat; two or more). The command line is
    /// split like a shell does (quotes, backslashes); the program `oddity` means
    /// this executable.
    #[arg(long = "engine", value_name = "NAME=COMMAND")]
    pub engines: Vec<String>,
    /// Working directory of an engine, as NAME=DIR.
    #[arg(long = "engine-dir", value_name = "NAME=DIR")]
    pub engine_dirs: Vec<String>,
    /// A GTP command sent to an engine each time it starts, as 'NAME=COMMAND' (repeat).
    #[arg(long = "engine-init", value_name = "NAME=COMMAND")]
    pub engine_init: Vec<String>,
    /// Every engine plays every other (default: a gauntlet, the first engine
    /// against each of the others).
    #[arg(long)]
    pub round_robin: bool,

    #[command(flatten)]
    pub game: GameArgs,

    /// Games per engine pairing, played in pairs from one opening with the seats swapped.
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// Openings file: one opening per line as space-separated move tokens; the
    /// game pairs use them in order, cycling.
    #[arg(long, value_name = "FILE", conflicts_with = "random_plies")]
    pub openings: Option<PathBuf>,
    /// Start each game pair from K random legal turns (reproducible with --seed).
    #[arg(long, value_name = "K")]
    pub random_plies: Option<usize>,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,

    /// Game clock per side as MAIN+INC in seconds (e.g. 60+0.5), sent with
    /// time_settings/time_left. Default: no clock; limit engines by their own
    /// options (e.g. --visits in the engine command).
    #[arg(long, value_name = "MAIN+INC", conflicts_with = "st")]
    pub tc: Option<String>,
    /// Fixed time per move in seconds.
    #[arg(long, value_name = "SECS", value_parser = config::seconds)]
    pub st: Option<Duration>,
    /// Seconds an engine may overrun its time before it loses on time.
    #[arg(long, value_name = "SECS", default_value = "1", value_parser = config::duration)]
    pub time_margin: Duration,
    /// Without a clock: the longest wait for any answer before the engine
    /// loses with reason `timeout` (also the limit for every other command).
    #[arg(long, value_name = "SECS", default_value = "300", value_parser = config::seconds)]
    pub move_timeout: Duration,
    /// Stop a game after this many turns without result (the rules have no
    /// such limit; Onyx has no repetition rule). Default: 4 x the board's points.
    #[arg(long, value_name = "N")]
    pub max_turns: Option<usize>,

    /// Results file: one JSON object per finished game, appended and flushed at once.
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// SGF collection the records are appended to (default: the results file
    /// with the extension .sgf).
    #[arg(long, value_name = "FILE")]
    pub sgf: Option<PathBuf>,
    /// Continue the tournament in --results: finished games are not replayed.
    #[arg(long, requires = "results")]
    pub resume: bool,
    /// Play only slice I of N of the schedule (I = 1..N), for several machines.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Combine results files (e.g. of shards) and print the table; with
    /// --results, also write the combined file there.
    #[arg(long, value_name = "FILES", num_args = 1.., conflicts_with_all = ["engines", "resume", "shard"])]
    pub merge: Vec<PathBuf>,
    /// Stop when a sequential probability ratio test decides, e.g.
    /// 'elo0=0 elo1=10 alpha=0.05 beta=0.05' (two engines only).
    #[arg(long, value_name = "SETTINGS", value_parser = Sprt::parse)]
    pub sprt: Option<Sprt>,

    /// Print the summary as one JSON object on stdout (the table goes to stderr).
    #[arg(long)]
    pub json: bool,
    /// No live progress line.
    #[arg(long)]
    pub quiet: bool,
    /// Directory for the engines' stderr logs (default: discarded).
    #[arg(long, value_name = "DIR")]
    pub log_dir: Option<PathBuf>,
}

fn keyed<'a>(text: &'a str, what: &str) -> Result<(&'a str, &'a str), String> {
    text.split_once('=')
        .map(|(k, v)| (k.trim(), v))
        .ok_or_else(|| format!("{what} '{text}': expected NAME=VALUE"))
}

fn seconds(text: &str, what: &str) -> Result<Duration, String> {
    config::duration(text).map_err(|e| format!("{what}: '{text}': {e}"))
}

/// Builds the tournament from the arguments.
pub fn config(args: &MatchArgs) -> Result<MatchConfig, String> {
    let spec = args.game.spec()?;
    let mut engines = args
        .engines
        .iter()
        .map(|e| EngineSpec::parse(e))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    if engines.len() < 2 {
        return Err("give two or more engines with --engine 'NAME=COMMAND LINE'".into());
    }
    let find = |engines: &mut Vec<EngineSpec>, name: &str, what: &str| {
        engines
            .iter()
            .position(|e| e.name == name)
            .ok_or_else(|| format!("{what}: no engine is named '{name}'"))
    };
    for d in &args.engine_dirs {
        let (name, dir) = keyed(d, "--engine-dir")?;
        let i = find(&mut engines, name, "--engine-dir")?;
        engines[i].dir = Some(PathBuf::from(dir));
    }
    for c in &args.engine_init {
        let (name, cmd) = keyed(c, "--engine-init")?;
        let i = find(&mut engines, name, "--engine-init")?;
        engines[i].init.push(cmd.trim().to_string());
    }
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let start = AnyGame::new(&spec);
    let rounds = args.games.div_ceil(2);
    let openings = if let Some(path) = &args.openings {
        let bytes = std::fs::read(path)
            .map_err(|e| format!("cannot read openings file {}: {e}", path.display()))?;
        read_openings(&bytes, &start).map_err(|e| e.to_string())?
    } else if let Some(k) = args.random_plies {
        random_openings(&start, k, rounds, args.seed)
    } else {
        Vec::new()
    };
    let time = match (&args.tc, args.st) {
        (Some(tc), _) => {
            let (main, inc) = tc.split_once('+').unwrap_or((tc.as_str(), "0"));
            TimeControl::Clock {
                main: seconds(main, "--tc")?,
                increment: seconds(inc, "--tc")?,
            }
        }
        (None, Some(st)) => TimeControl::PerMove(st),
        (None, None) => TimeControl::None,
    };
    let (shard, sprt) = (args.shard, args.sprt);
    if sprt.is_some() && engines.len() != 2 {
        return Err("--sprt needs exactly two engines".into());
    }
    let sgf = args.sgf.clone().or_else(|| {
        args.results
            .as_ref()
            .map(|r| r.with_extension("sgf"))
            .filter(|s| Some(s) != args.results.as_ref())
    });
    Ok(MatchConfig {
        spec,
        engines,
        format: if args.round_robin {
            Format::RoundRobin
        } else {
            Format::Gauntlet
        },
        games: args.games,
        openings,
        limits: Limits {
            time,
            margin: args.time_margin,
            move_timeout: args.move_timeout,
            max_turns: args.max_turns.unwrap_or(4 * spec.topology().cells().len()),
        },
        concurrency: args.concurrency.max(1),
        results: args.results.clone(),
        sgf,
        resume: args.resume,
        shard,
        sprt,
        log_dir: args.log_dir.clone(),
        progress: !args.quiet,
        game_seed: None,
        first_player_stop: None,
        command: Some(super::args::command_line()),
    })
}

fn print_summary(
    summary: &Summary,
    sprt: Option<&Sprt>,
    json: bool,
    extra: &[(&str, serde_json::Value)],
) {
    let table = summary.table(sprt);
    if json {
        eprint!("{table}");
        let mut value = summary.to_json(sprt);
        for (key, v) in extra {
            value[*key] = v.clone();
        }
        println!("{value}");
    } else {
        print!("{table}");
    }
}

/// Runs `oddity match`.
pub fn run(args: &MatchArgs) -> Result<(), String> {
    let sprt = args.sprt;
    if !args.merge.is_empty() {
        let (merged, duplicates) = merge_files(&args.merge).map_err(|e| e.to_string())?;
        if duplicates > 0 {
            eprintln!("merge: {duplicates} duplicate games ignored");
        }
        if let Some(out) = &args.results {
            if out.exists() {
                return Err(format!(
                    "{} exists; --merge writes a new file",
                    out.display()
                ));
            }
            let mut w = ResultsWriter::open(out)
                .map_err(|e| format!("cannot open {}: {e}", out.display()))?;
            for r in &merged {
                w.append(r)
                    .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            }
        }
        print_summary(
            &Summary::new(&merged, &[]),
            sprt.as_ref(),
            args.json,
            &[("duplicates", duplicates.into())],
        );
        return Ok(());
    }
    let cfg = config(args)?;
    let stop = stop_on_ctrl_c(
        "stopping: games in progress are abandoned (--resume replays them); \
         Ctrl-C again to quit at once",
    );
    let report = run_tournament(&cfg, stop).map_err(|e| e.to_string())?;
    if report.interrupted {
        eprintln!(
            "interrupted: {} of {} games finished",
            report.results.len(),
            report.scheduled
        );
    }
    match report.sprt_stopped {
        Some(Verdict::AcceptH1) => eprintln!("SPRT: H1 accepted, tournament stopped"),
        Some(Verdict::AcceptH0) => eprintln!("SPRT: H0 accepted, tournament stopped"),
        _ => {}
    }
    print_summary(
        &report.summary,
        cfg.sprt.as_ref(),
        args.json,
        &[
            ("scheduled", report.scheduled.into()),
            ("played_now", report.played.into()),
            ("interrupted", report.interrupted.into()),
        ],
    );
    Ok(())
}
