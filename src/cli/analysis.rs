//! `oddity analysis`: batch analysis, one JSON query per line on stdin and
//! one JSON result per analysed position on stdout (docs/analysis.md). The
//! loop itself is [`oddity_analysis::queue::serve`].

use std::num::NonZeroUsize;

use clap::Args;

use crate::cli::args::SearchBudget;
use oddity_analysis::query::{Defaults, Viewpoint};
use oddity_analysis::queue::serve;
use oddity_analysis::result::{DEFAULT_VISITS, Settings};

#[derive(Args, Debug)]
#[command(
    mut_arg("time", |a| a.help("Seconds per position when a query gives neither maxVisits nor maxTime (with --visits, whichever comes first)")),
    mut_arg("threads", |a| a.help("Search threads per query").default_value("1"))
)]
pub struct AnalysisArgs {
    /// Visits per position when a query gives neither maxVisits nor maxTime.
    #[arg(long, default_value_t = DEFAULT_VISITS)]
    pub visits: u64,
    #[command(flatten)]
    pub budget: SearchBudget,
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

pub fn run(args: &AnalysisArgs) -> Result<(), String> {
    let (Some(workers), true) = (NonZeroUsize::new(args.parallel), args.visits > 0) else {
        return Err("--visits and --parallel must be at least 1".into());
    };
    let defaults = Defaults {
        settings: Settings {
            visits: Some(args.visits),
            time: args.budget.duration(),
            threads: args.budget.threads_or(1),
            seed: args.seed,
            top: args.top,
        },
        viewpoint: args.winrates_as,
    };
    serve(
        std::io::stdin().lock(),
        std::io::stdout(),
        &defaults,
        workers,
    );
    Ok(())
}
