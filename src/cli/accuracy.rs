//! `oddity accuracy`: how often the engine finds a winning turn, judged by
//! the exact solver.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::time::Duration;

use clap::Args;

use crate::cli::args::{EngineArgs, GameArgs};
use oddity_analysis::accuracy::{
    Contender, Plan, Stage, StageResult, measure, pooled, solve_limits,
};
use oddity_search::config;
use oddity_search::{EngineConfig, Policy, SearchParams, Visits};

/// The time each engine gets per position when `--time` is not given.
const DEFAULT_TIME: Duration = Duration::from_millis(100);

#[derive(Args, Debug)]
#[command(
    mut_arg("time", |a| a.help("Seconds each engine gets per position (as `genmove` at this time; default 0.1)")),
    mut_arg("threads", |a| a.help("Search threads of each engine (default 1)")),
    mut_arg("params", |a| a.help("A parameter of the default policy as NAME=VALUE for `default` and `search` (repeatable)")),
    mut_arg("seed", |a| a.help("Random seed (default 1)"))
)]
pub struct AccuracyArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Stages as ranges of empty points, e.g. "4-8,9-12,13-16".
    #[arg(long, default_value = "4-8,9-12")]
    pub stages: String,
    /// Positions drawn per stage.
    #[arg(long, default_value_t = 50)]
    pub positions: usize,
    #[command(flatten)]
    pub search: EngineArgs,
    /// Seconds the solver gets per position, and again per choice judged.
    #[arg(long, default_value = "60", value_parser = config::seconds)]
    pub solve_time: Duration,
    /// The solver's table in MiB.
    #[arg(long, default_value_t = 1024)]
    pub solve_memory: usize,
    /// Positions with at most this many empty points are judged by a
    /// retrograde table of every position that can follow them (Xodd,
    /// Yodd, Odd; 3^empty bytes within --solve-memory) instead of df-pn;
    /// 0 for never.
    #[arg(long, default_value_t = 16)]
    pub table_empty: usize,
    /// Keep only positions where the choice matters: at least one winning
    /// and one losing turn (every stage must lie within --table-empty).
    #[arg(long)]
    pub contested: bool,
    /// Engines to judge: `default` (the engine as it plays), `search` (the
    /// default without its endgame solver), `plain` (textbook UCT). A
    /// `default` or `search` may carry parameters of its own after colons,
    /// `default:tree_solve=10:endgame_table=14`, on top of --param.
    #[arg(long, default_value = "default,search,plain")]
    pub contenders: String,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

fn stages(text: &str) -> Result<Vec<Stage>, String> {
    text.split(',')
        .map(|item| {
            let (a, b) = item.split_once('-').unwrap_or((item, item));
            match (a.trim().parse::<usize>(), b.trim().parse::<usize>()) {
                (Ok(min), Ok(max)) if min >= 1 && min <= max => Ok(Stage { min, max }),
                _ => Err(format!(
                    "--stages: '{item}' is not a range of empty points like 4-8"
                )),
            }
        })
        .collect()
}

fn contenders(args: &AccuracyArgs, base: &SearchParams) -> Result<Vec<Contender>, String> {
    args.contenders
        .split(',')
        .map(|spec| {
            let spec = spec.trim();
            let mut parts = spec.split(':');
            let name = parts.next().unwrap_or_default();
            let own: Vec<String> = parts.map(str::to_string).collect();
            let with_own = |mut p: SearchParams| -> Result<SearchParams, String> {
                for item in &own {
                    let (key, value) = item.split_once('=').ok_or_else(|| {
                        format!("--contenders: '{item}' in '{spec}' is not NAME=VALUE")
                    })?;
                    p.tuning
                        .set(key, value)
                        .map_err(|e| format!("--contenders: {key}={value} in '{spec}': {e}"))?;
                }
                Ok(p)
            };
            let params = match name {
                "default" => with_own(base.clone())?,
                "search" => {
                    let mut p = with_own(base.clone())?;
                    p.tuning.endgame = Some(false);
                    p
                }
                "plain" => SearchParams {
                    policy: Policy::Plain,
                    tuning: Default::default(),
                    ..base.clone()
                },
                other => {
                    return Err(format!(
                        "--contenders: unknown '{other}' (default, search, plain)"
                    ));
                }
            };
            if name == "plain" && !own.is_empty() {
                return Err(format!("--contenders: '{spec}': plain takes no parameters"));
            }
            Ok(Contender {
                name: spec.to_string(),
                params,
            })
        })
        .collect()
}

pub fn run(args: &AccuracyArgs) -> Result<(), String> {
    let spec = args.game.spec()?;
    let config = args.search.config(EngineConfig {
        params: SearchParams {
            threads: 1,
            seed: 1,
            ..SearchParams::default()
        },
        time: Some(DEFAULT_TIME),
        visits: Visits::Unlimited,
    })?;
    let Some(time) = config.time else {
        return Err("--time must be above 0: each engine is judged at a time per position".into());
    };
    let seed = config.params.seed;
    if args.positions == 0 {
        return Err("--positions must be at least 1".into());
    }
    let stages = stages(&args.stages)?;
    if args.contested && stages.iter().any(|s| s.max > args.table_empty) {
        return Err(format!(
            "--contested needs every stage within --table-empty ({} empty points)",
            args.table_empty
        ));
    }
    let plan = Plan {
        spec,
        stages,
        positions: args.positions,
        limits: config.limits(None),
        solve: solve_limits(args.solve_time.as_secs_f64()),
        solver_memory_mb: args.solve_memory.max(1),
        table_empty: args.table_empty,
        contested: args.contested,
        seed,
    };
    let contenders = contenders(args, &config.params)?;
    let live = std::io::stderr().is_terminal();
    let results = measure(&plan, &contenders, &mut |stage, k| {
        if live {
            eprint!(
                "\rstage {}/{}: position {k}/{}   ",
                stage + 1,
                plan.stages.len(),
                plan.positions
            );
        }
    });
    if live {
        eprint!("\r{:50}\r", "");
    }
    if args.json {
        let object = serde_json::json!({
            "game": spec.kind.name(),
            "size": spec.size,
            "rules": spec.rules_text(),
            "time": time.as_secs_f64(),
            "solve_time": args.solve_time.as_secs_f64(),
            "table_empty": args.table_empty,
            "contested": args.contested,
            "seed": seed,
            "stages": results,
            "all": pooled(&results),
        });
        println!("{object}");
    } else {
        print!("{}", table(args, time.as_secs_f64(), seed, &results));
    }
    Ok(())
}

fn table(args: &AccuracyArgs, time: f64, seed: u64, results: &[StageResult]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {}, {} s per position, solver budget {} s (tables up to {} empty), seed {}",
        args.game.game.map_or("?", |g| g.name()),
        args.game
            .size
            .map_or(String::from("default size"), |n| n.to_string()),
        time,
        args.solve_time.as_secs_f64(),
        args.table_empty,
        seed
    );
    let _ = write!(out, "empty   drawn unsolved lost");
    if args.contested {
        let _ = write!(out, " all-win");
    }
    let _ = write!(out, " judged");
    if let Some(first) = results.first() {
        for s in &first.scores {
            let _ = write!(out, "  {:>22}", s.contender);
        }
    }
    out.push('\n');
    let all = (results.len() > 1).then(|| pooled(results)).flatten();
    for (r, name) in results
        .iter()
        .map(|r| (r, format!("{}-{}", r.stage.min, r.stage.max)))
        .chain(all.iter().map(|r| (r, String::from("all"))))
    {
        let _ = write!(
            out,
            "{:>5} {:>7} {:>8} {:>4}",
            name, r.drawn, r.unsolved, r.lost
        );
        if args.contested {
            let _ = write!(out, " {:>7}", r.uncontested);
        }
        let _ = write!(out, " {:>6}", r.judged);
        for s in &r.scores {
            let _ = write!(
                out,
                "  {:>6.1}% ({:>5.1}-{:>5.1})",
                100.0 * s.share,
                100.0 * s.low,
                100.0 * s.high
            );
        }
        out.push('\n');
    }
    for m in results.iter().flat_map(|r| &r.misses) {
        let _ = writeln!(
            out,
            "{} chose {} with {} empty after: {}",
            m.contender, m.choice, m.empty, m.moves
        );
    }
    out
}
