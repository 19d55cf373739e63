//! `oddity balance`: the balance study (`docs/balance.md`). One command
//! plays one cell (a game, board, rule variant and time per move) as
//! self-play of the engine against itself; `--merge` combines shards;
//! `--report` turns results files into the study's tables and pictures.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;

use crate::cli::args::GameArgs;
use crate::cli::interrupt::stop_on_ctrl_c;
use oddity_client::EngineSpec;
use oddity_fairness::Verdict;
use oddity_render::{Style, png_from_svg};
use oddity_search::config;
use oddity_tournament::balance::{self, CellKey, DecisionRule, cells};
use oddity_tournament::balance_report::{self, read_solved, study_plan};
use oddity_tournament::referee::{Limits, TimeControl};
use oddity_tournament::results::{self, ResultsWriter, read_results};
use oddity_tournament::schedule::{Format, Shard};
use oddity_tournament::{MatchConfig, run as run_tournament};

/// Who wins at strong play: self-play of the engine against itself from the
/// start position, counting the first player's wins.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
    oddity balance --game odd --size 5 --min-group 5 --st 0.05 --results odd5-m5.jsonl\n  \
    oddity balance --game xodd --st 0.2 --shard 3/8 --results xodd12-3.jsonl\n  \
    oddity balance --merge xodd12-*.jsonl --results xodd12.jsonl\n  \
    oddity balance --report docs/balance/results/*.jsonl --solved docs/solved.md \\\n    \
    --pictures docs/balance --link balance\n\n\
    A cell stops where the study's decision rule decides (oddity balance --rule);\n\
    otherwise at --max-games. A shard plays its slice to the end: the rule reads\n\
    a whole cell, in the report. Running the same command again resumes the cell.\n\
    See docs/balance.md.")]
pub struct BalanceArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Seconds per move: the level of play.
    #[arg(long, value_name = "SECS", value_parser = config::seconds)]
    pub st: Option<Duration>,
    /// Results file of the cell (one JSON object per game); an existing file
    /// of the same cell is resumed.
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// Play only slice I of N of the cell's games (I = 1..N), for several
    /// machines; merge the files with --merge.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Most games of the cell (of all its shards together); at most the
    /// rule's 200.
    #[arg(long, default_value_t = 200)]
    pub max_games: usize,
    /// Games played at the same time (each engine searches on one thread).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Base of the engines' seeds: each game gives each seat its own.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The engine, playing both seats (the program `oddity` means this
    /// executable).
    #[arg(long, value_name = "COMMAND", default_value = "oddity gtp --threads 1")]
    pub engine: String,
    /// Stop a game after this many turns without result. Default: 4 x the
    /// board's points.
    #[arg(long, value_name = "N")]
    pub max_turns: Option<usize>,

    /// Print the study's decision rule: the wins that decide after each
    /// number of games and its exact chances of each verdict.
    #[arg(long, conflicts_with_all = ["st", "shard", "report", "merge"])]
    pub rule: bool,
    /// Combine results files of a cell's shards into --results.
    #[arg(long, value_name = "FILES", num_args = 1.., conflicts_with_all = ["st", "shard", "report"])]
    pub merge: Vec<PathBuf>,
    /// Print the study's tables (markdown) from these results files.
    #[arg(long, value_name = "FILES", num_args = 1.., conflicts_with_all = ["st", "shard", "results"])]
    pub report: Vec<PathBuf>,
    /// With --report: the proven boards, from the tables of this file
    /// (docs/solved.md).
    #[arg(long, value_name = "FILE", requires = "report")]
    pub solved: Option<PathBuf>,
    /// With --report: write each game's picture there as SVG and PNG.
    #[arg(long, value_name = "DIR", requires = "report")]
    pub pictures: Option<PathBuf>,
    /// With --report: the folder the tables' picture links name (default:
    /// the --pictures folder as given).
    #[arg(long, value_name = "PATH", requires = "report")]
    pub link: Option<String>,
    /// With --report: leave out the study's planned boards without games.
    #[arg(long, requires = "report")]
    pub played_only: bool,
    /// With --report: read a cell whose games were played by several
    /// builds as one cell (else the report refuses it).
    #[arg(long, requires = "report")]
    pub pool_builds: bool,
    /// With --report: also write the summary the engine builds in
    /// (docs/balance/summary.tsv: a line per proven board and per level of
    /// each board), which `--help` and the GUI's new-game form quote.
    #[arg(long, value_name = "FILE", requires = "report")]
    pub summary: Option<PathBuf>,
    /// No line per finished game on stderr.
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(args: &BalanceArgs) -> Result<(), String> {
    if args.rule {
        print!("{}", balance_report::rule_text(&DecisionRule::STUDY));
        return Ok(());
    }
    if !args.report.is_empty() {
        return report(args);
    }
    if !args.merge.is_empty() {
        return merge_files(args);
    }
    play(args)
}

/// The tournament of one cell.
fn config(args: &BalanceArgs) -> Result<MatchConfig, String> {
    let spec = args.game.spec()?;
    let per_move = args
        .st
        .ok_or("--st SECS is required: the seconds per move of the cell")?;
    if args.results.is_none() {
        return Err("--results FILE is required: the cell's games are kept there".into());
    }
    let rule = DecisionRule::STUDY;
    if args.max_games == 0 || args.max_games as u64 > rule.max_games {
        return Err(format!(
            "--max-games must be 1 to {}: the decision rule reads no more games",
            rule.max_games
        ));
    }
    let level = balance::level_text(per_move.as_secs_f64());
    let engines = balance::engine_names(&level)
        .iter()
        .map(|name| EngineSpec::parse(&format!("{name}={}", args.engine)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    Ok(MatchConfig {
        spec,
        engines,
        format: Format::Gauntlet,
        games: args.max_games,
        openings: Vec::new(),
        limits: Limits {
            time: TimeControl::PerMove(per_move),
            margin: Duration::from_secs(1),
            move_timeout: Duration::from_secs(300),
            max_turns: args.max_turns.unwrap_or(4 * spec.topology().cells().len()),
        },
        concurrency: args.concurrency.max(1),
        results: args.results.clone(),
        sgf: None,
        resume: true,
        shard: args.shard,
        sprt: None,
        log_dir: None,
        progress: !args.quiet,
        game_seed: Some(args.seed),
        // A shard sees only its slice; the rule reads the whole cell.
        first_player_stop: args.shard.is_none().then_some(rule),
        command: Some(super::args::command_line()),
    })
}

/// Refuses a results file that holds games of another cell.
fn check_same_cell(cfg: &MatchConfig, path: &Path) -> Result<(), String> {
    if !path.exists() {
        return Ok(());
    }
    let rules = cfg.spec.rules_text();
    for r in read_results(path).map_err(|e| e.to_string())? {
        if r.game != cfg.spec.kind
            || r.size != cfg.spec.size
            || r.rules != rules
            || r.black != cfg.engines[0].name && r.black != cfg.engines[1].name
        {
            return Err(format!(
                "{} holds game {} of another cell ({} {} {} by {}): name another file",
                path.display(),
                r.id,
                r.game,
                r.size,
                r.rules,
                r.black
            ));
        }
    }
    Ok(())
}

fn play(args: &BalanceArgs) -> Result<(), String> {
    let cfg = config(args)?;
    if let Some(path) = &cfg.results {
        check_same_cell(&cfg, path)?;
    }
    let stop = stop_on_ctrl_c("stopping: games in progress are abandoned; run again to resume");
    let report = run_tournament(&cfg, stop).map_err(|e| e.to_string())?;
    let games: Vec<&results::GameResult> = report.results.iter().collect();
    let reading = balance::read_cell(&DecisionRule::STUDY, &games);
    let state = if report.first_player_decided {
        "stopped there"
    } else if report.interrupted {
        "interrupted (run again to resume)"
    } else {
        "played to --max-games"
    };
    println!(
        "{}: {}; {} played now; {state}",
        cfg.spec.title(),
        reading_text(&reading),
        report.played
    );
    Ok(())
}

/// What the rule read, in words: `the first player won 20 of 20 games
/// (100.0%, 95% interval 83.9-100.0%): decided for the first player`.
fn reading_text(reading: &balance::Reading) -> String {
    let (first, n) = (reading.first, reading.games());
    let (lo, hi) = balance::wilson(first, n, balance::Z95);
    let verdict = match reading.verdict {
        Verdict::First => "decided for the first player",
        Verdict::Second => "decided for the second player",
        Verdict::Undecided => "not decided",
    };
    format!(
        "the first player won {first} of {n} games read ({:.1}%, 95% interval {:.1}-{:.1}%): {verdict}",
        if n > 0 {
            100.0 * first as f64 / n as f64
        } else {
            0.0
        },
        100.0 * lo,
        100.0 * hi,
    )
}

fn merge_files(args: &BalanceArgs) -> Result<(), String> {
    let out = args
        .results
        .as_ref()
        .ok_or("--merge needs --results FILE for the combined file")?;
    if out.exists() {
        return Err(format!(
            "{} exists; --merge writes a new file",
            out.display()
        ));
    }
    let (merged, duplicates) = results::merge_files(&args.merge).map_err(|e| e.to_string())?;
    let cells = cells(&DecisionRule::STUDY, &merged);
    if cells.len() > 1 {
        return Err(format!(
            "these files hold {} cells; merge the shards of one cell at a time",
            cells.len()
        ));
    }
    let mut w =
        ResultsWriter::open(out).map_err(|e| format!("cannot open {}: {e}", out.display()))?;
    for r in &merged {
        w.append(r)
            .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    }
    let games: Vec<&results::GameResult> = merged.iter().collect();
    println!(
        "{} games ({duplicates} duplicates dropped): {}",
        merged.len(),
        reading_text(&balance::read_cell(&DecisionRule::STUDY, &games))
    );
    Ok(())
}

fn report(args: &BalanceArgs) -> Result<(), String> {
    let mut all = Vec::new();
    for path in &args.report {
        all.extend(read_results(path).map_err(|e| e.to_string())?);
    }
    // Every cell numbers its games alike: a game is its cell and its id.
    let mut seen = std::collections::HashSet::new();
    for r in &all {
        if let Some(key) = CellKey::of(r)
            && !seen.insert((key, r.id.clone()))
        {
            return Err(format!(
                "game {} of {} {} ({}) appears twice: give each cell's games once",
                r.id, r.game, r.size, r.rules
            ));
        }
    }
    let rule = DecisionRule::STUDY;
    let cells = cells(&rule, &all);
    balance_report::check_builds(&cells, args.pool_builds)?;
    let solved = match &args.solved {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            read_solved(&text)?
        }
        None => Vec::new(),
    };
    let plan = if args.played_only {
        Vec::new()
    } else {
        study_plan()
    };
    let link = args.link.clone().unwrap_or_else(|| {
        args.pictures
            .as_ref()
            .map_or_else(|| ".".into(), |p| p.display().to_string())
    });
    if let Some(dir) = &args.pictures {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        for (stem, svg) in
            balance_report::pictures(&rule, &cells, &solved, &plan, &Style::default())
        {
            let png = png_from_svg(&svg).map_err(|e| e.to_string())?;
            for (ext, bytes) in [("svg", svg.as_bytes()), ("png", png.as_slice())] {
                let path = dir.join(format!("{stem}.{ext}"));
                std::fs::write(&path, bytes)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            }
        }
    }
    if let Some(path) = &args.summary {
        std::fs::write(path, balance_report::summary(&rule, &cells, &solved))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    print!(
        "{}",
        balance_report::markdown(&rule, &cells, &solved, &plan, &link)
    );
    Ok(())
}
