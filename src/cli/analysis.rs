//! `oddity analysis`: batch analysis, one JSON query per line on stdin and
//! one JSON result per analysed position on stdout (docs/analysis.md). The
//! loop itself is [`oddity_analysis::queue::serve`].

use std::num::NonZeroUsize;

use clap::Args;

use crate::cli::args::EngineArgs;
use oddity_analysis::query::{Defaults, Viewpoint};
use oddity_analysis::queue::serve;
use oddity_analysis::result::Settings;
use oddity_search::Limits;

#[derive(Args, Debug)]
#[command(
    mut_arg("time", |a| a.help("Seconds per position when a query gives neither maxVisits nor maxTime (with --visits, whichever comes first)")),
    mut_arg("visits", |a| a.help("Visits per position when a query gives neither maxVisits nor maxTime (default 10000 unless --time is given)")),
    mut_arg("threads", |a| a.help("Search threads per query (default 1)")),
    mut_arg("seed", |a| a.help("Seed when a query gives none (default 0)"))
)]
pub struct AnalysisArgs {
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Positions searched at the same time; results come as they finish.
    #[arg(long, default_value_t = 1)]
    pub parallel: usize,
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
    let Some(workers) = NonZeroUsize::new(args.parallel) else {
        return Err("--parallel must be at least 1".into());
    };
    let settings = Settings {
        engine: args.engine.config(Settings::default().engine)?,
        top: args.top,
    };
    if settings.limits() == Limits::default() {
        return Err("--visits 0 (no cap) needs --time".into());
    }
    let defaults = Defaults {
        settings,
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
