//! `oddity openings`: an openings file for `oddity match --openings`: short
//! openings whose search value is closest to even, or, with
//! `--check-games`, openings built turn by turn with search and kept by how
//! self-play games from them end.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use clap::Args;

use crate::cli::args::{EngineArgs, GameArgs};
use crate::cli::interrupt::stop_on_ctrl_c;
use oddity_search::{EngineConfig, Limits, SearchParams, Visits, config};

/// Search visits per opening when --visits is not given.
const DEFAULT_VISITS: u64 = 200_000;
use oddity_tournament::opening_games::{self, Check};
use oddity_tournament::openings::{Request, balanced, searched_lines};

#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
    oddity openings --game xodd --candidates 200 --keep 100 --visits 50000 > openings/xodd.txt\n  \
    oddity openings --game odd --plies 4 --candidates 40 --visits 20000 \\\n    \
    --check-games 8 --check-st 0.2 --results odd-openings.jsonl > openings/odd.txt\n\n\
    Without --check-games, random openings of --plies turns are searched and the\n\
    --keep closest to even by the search's value are printed. With it, each\n\
    candidate is built turn by turn (the first player's turns drawn at random,\n\
    the second player's the search's choice after --visits), then --check-games\n\
    games of the engine against itself are played from it, seats swapped, and\n\
    it is kept when the first player won a share within --keep-share.\n\
    Running the same command again resumes the games. See docs/match.md.")]
#[command(
    mut_arg("time", |a| a
        .help("Seconds per opening (with --visits, whichever comes first; not with --check-games, whose candidates are the same on every run)")
        .conflicts_with("check_games")),
    mut_arg("threads", |a| a
        .help("Search threads (default: every core; one with --check-games)")
        .conflicts_with("check_games")),
    mut_arg("visits", |a| a.help("Search visits per opening (with --check-games: per second player's turn of a candidate; default 200000)")),
    mut_arg("seed", |a| a.help("Random seed (default 1)"))
)]
pub struct OpeningsArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Turns per opening.
    #[arg(long, default_value_t = 2)]
    pub plies: usize,
    /// Candidate openings to search (and, with --check-games, to play from).
    #[arg(long, default_value_t = 300)]
    pub candidates: usize,
    /// Most openings to print: the closest to even.
    #[arg(long, default_value_t = 100)]
    pub keep: usize,
    #[command(flatten)]
    pub search: EngineArgs,

    /// Keep openings by their games: play this many games (seat-swapped
    /// pairs, an even number) of the engine against itself from each
    /// candidate.
    #[arg(long, value_name = "N")]
    pub check_games: Option<usize>,
    /// With --check-games: seconds per move of those games.
    #[arg(
        long,
        value_name = "SECS",
        default_value = "0.2",
        value_parser = config::seconds,
        requires = "check_games"
    )]
    pub check_st: Duration,
    /// With --check-games: keep an opening when its first player won this
    /// share of its games (bounds included).
    #[arg(long, value_name = "LO-HI", default_value = "0.35-0.65", value_parser = parse_share, requires = "check_games")]
    pub keep_share: (f64, f64),
    /// With --check-games: the games' results file (one JSON object per
    /// game); an existing file of the same candidates is resumed.
    #[arg(long, value_name = "FILE", requires = "check_games")]
    pub results: Option<PathBuf>,
    /// With --check-games: the engine, playing both seats (the program
    /// `oddity` means this executable).
    #[arg(
        long,
        value_name = "COMMAND",
        default_value = "oddity gtp --threads 1",
        requires = "check_games"
    )]
    pub engine: String,
    /// With --check-games: games played at the same time.
    #[arg(long, default_value_t = 1, requires = "check_games")]
    pub concurrency: usize,
    /// With --check-games: stop a game after this many turns without
    /// result. Default: 4 x the board's points.
    #[arg(long, value_name = "N", requires = "check_games")]
    pub max_turns: Option<usize>,
}

/// `LO-HI`, two shares with 0 <= LO <= HI <= 1.
fn parse_share(text: &str) -> Result<(f64, f64), String> {
    let bad = || format!("'{text}': expected LO-HI with 0 <= LO <= HI <= 1, e.g. 0.35-0.65");
    let (lo, hi) = text.split_once('-').ok_or_else(bad)?;
    let lo: f64 = lo.trim().parse().map_err(|_| bad())?;
    let hi: f64 = hi.trim().parse().map_err(|_| bad())?;
    if !(0.0..=1.0).contains(&lo) || !(0.0..=1.0).contains(&hi) || lo > hi {
        return Err(bad());
    }
    Ok((lo, hi))
}

pub fn run(args: &OpeningsArgs) -> Result<(), String> {
    let spec = args.game.spec()?;
    if args.plies == 0 || args.candidates == 0 || args.keep == 0 {
        return Err("--plies, --candidates and --keep must be at least 1".into());
    }
    let config = args.search.config(EngineConfig {
        params: SearchParams {
            seed: 1,
            ..SearchParams::default()
        },
        time: None,
        visits: Visits::Cap(DEFAULT_VISITS),
    })?;
    let limits = config.limits(Some(DEFAULT_VISITS));
    let Some(visits) = limits.visits else {
        return Err("--visits must be at least 1".into());
    };
    if let Some(games) = args.check_games {
        return by_games(args, games, &config.params, &limits);
    }
    let live = std::io::stderr().is_terminal();
    let request = Request {
        spec,
        plies: args.plies,
        candidates: args.candidates,
        keep: args.keep,
        seed: config.params.seed,
        params: config.params.clone(),
        limits,
    };
    let found = balanced(&request, &mut |k, n| {
        if live {
            eprint!("\ropening {k}/{n}   ");
        }
    })
    .map_err(|e| e.to_string())?;
    if live {
        eprint!("\r{:30}\r", "");
    }
    println!(
        "# {}: {} openings of {} turns, the closest to even of {} random ones by {} visits each (oddity openings, seed {})",
        spec.title(),
        found.len(),
        args.plies,
        args.candidates,
        visits,
        config.params.seed
    );
    for o in found {
        println!("{}  # {:.3}", o.moves.join(" "), o.value);
    }
    Ok(())
}

/// `--check-games`: candidates built turn by turn, kept by their games.
fn by_games(
    args: &OpeningsArgs,
    games: usize,
    params: &SearchParams,
    limits: &Limits,
) -> Result<(), String> {
    let spec = args.game.spec()?;
    if games == 0 || games % 2 == 1 {
        return Err(format!(
            "--check-games: {games} is not a positive even number (the games come in seat-swapped pairs)"
        ));
    }
    let per_move = args.check_st;
    let results = args
        .results
        .clone()
        .ok_or("--check-games needs --results FILE: the candidates' games are kept there")?;
    let live = std::io::stderr().is_terminal();
    let lines = searched_lines(
        &spec,
        args.plies,
        args.candidates,
        params.seed,
        params,
        limits,
        &mut |k, n| {
            if live {
                eprint!("\rcandidate {k}/{n}   ");
            }
        },
    )
    .map_err(|e| e.to_string())?;
    if live {
        eprint!("\r{:30}\r", "");
    }
    let check = Check {
        engine: args.engine.clone(),
        games,
        per_move,
        share: args.keep_share,
        results,
        command: Some(super::args::command_line()),
        concurrency: args.concurrency,
        seed: params.seed,
        max_turns: args.max_turns.unwrap_or(4 * spec.topology().cells().len()),
        progress: live,
    };
    let stop = stop_on_ctrl_c("stopping: games in progress are abandoned; run again to resume");
    let checked = opening_games::play(&spec, &lines, &check, Arc::clone(&stop))?;
    if stop.load(Ordering::SeqCst) {
        return Err(
            "interrupted before every candidate's games were played: run again to resume".into(),
        );
    }
    let mut kept = opening_games::select(&checked, check.share);
    kept.truncate(args.keep);
    let (first, second) = checked
        .iter()
        .fold((0, 0), |(f, s), c| (f + c.first, s + c.second));
    eprintln!(
        "{} of {} candidates kept; over all candidates the first player won {first} of {} games",
        kept.len(),
        checked.len(),
        first + second
    );
    println!(
        "# {}: {} openings of up to {} turns, of {} candidates built turn by turn (the first player's turns random, the second's searched {} visits), \
         kept where the first player won {}-{}% of {} self-play games at {} s per move (oddity openings --check-games, seed {})",
        spec.title(),
        kept.len(),
        args.plies,
        checked.len(),
        limits.visits.unwrap_or_default(),
        percent(check.share.0),
        percent(check.share.1),
        games,
        args.check_st.as_secs_f64(),
        params.seed
    );
    for c in kept {
        println!(
            "{}  # first player {} of {}",
            c.moves.join(" "),
            c.first,
            c.first + c.second
        );
    }
    Ok(())
}

/// A share as a percentage without float noise (0.55 as `55`, 0.375 as
/// `37.5`).
fn percent(share: f64) -> f64 {
    (share * 10_000.0).round() / 100.0
}
