//! `oddity openings`: an openings file for `oddity match --openings`, of
//! short openings whose value is closest to even.

use std::io::IsTerminal;
use std::time::Duration;

use clap::Args;

use crate::cli::args::GameArgs;
use crate::search::{Limits, SearchParams, bounds};
use crate::tournament::openings::{Request, balanced};

#[derive(Args, Debug)]
pub struct OpeningsArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Turns per opening.
    #[arg(long, default_value_t = 2)]
    pub plies: usize,
    /// Random openings to search.
    #[arg(long, default_value_t = 300)]
    pub candidates: usize,
    /// Openings to keep: the closest to even.
    #[arg(long, default_value_t = 100)]
    pub keep: usize,
    /// Search visits per opening.
    #[arg(long, default_value_t = 200_000)]
    pub visits: u64,
    /// Seconds per opening (with --visits, whichever comes first).
    #[arg(long, value_name = "S")]
    pub time: Option<f64>,
    /// Search threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

pub fn run(args: &OpeningsArgs) -> Result<(), String> {
    let spec = args.game.spec()?;
    if args.plies == 0 || args.candidates == 0 || args.keep == 0 || args.visits == 0 {
        return Err("--plies, --candidates, --keep and --visits must be at least 1".into());
    }
    if let Some(t) = args.time {
        bounds::seconds("--time", t).map_err(|e| e.to_string())?;
    }
    let params = SearchParams {
        threads: args
            .threads
            .unwrap_or_else(crate::search::every_core)
            .max(1),
        seed: args.seed,
        ..SearchParams::default()
    };
    let limits = Limits {
        visits: Some(args.visits),
        time: args.time.map(Duration::from_secs_f64),
        soft_time: None,
    };
    let live = std::io::stderr().is_terminal();
    let request = Request {
        spec,
        plies: args.plies,
        candidates: args.candidates,
        keep: args.keep,
        seed: args.seed,
        params,
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
        args.visits,
        args.seed
    );
    for o in found {
        println!("{}  # {:.3}", o.moves.join(" "), o.value);
    }
    Ok(())
}
