use clap::{Parser, Subcommand};

use oddity::cli;

/// oddity: an engine for Xodd, Yodd, Odd and Onyx.
///
/// With no subcommand it runs the GTP engine (see protocol.md).
#[derive(Parser, Debug)]
#[command(name = "oddity", version = oddity::BUILD, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    gtp: cli::gtp::GtpArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The GTP engine on stdin/stdout (also the default).
    Gtp(cli::gtp::GtpArgs),
    /// Count legal turn sequences (move-generator check).
    Perft(cli::perft::PerftArgs),
    /// Search or playout speed from the start; prints a JSON line.
    Bench(cli::bench::BenchArgs),
    /// Engine-vs-engine tournaments refereed by oddity's rules.
    Match(Box<cli::match_cmd::MatchArgs>),
    /// A web page to play and watch the games against GTP engines.
    #[cfg(feature = "gui")]
    Gui(cli::gui::GuiArgs),
    /// A picture of a position: SVG on stdout, or --out FILE.svg|FILE.png.
    Render(cli::render::RenderArgs),
    /// Analyse a position (or every turn of a game) for a person, or as JSON.
    Analyze(Box<cli::analyze::AnalyzeArgs>),
    /// Batch analysis: JSON queries on stdin, JSON results on stdout.
    Analysis(cli::analysis::AnalysisArgs),
    /// Prove who wins a position with best play, and which turns win.
    Solve(Box<cli::solve::SolveArgs>),
    /// How often engines find a winning turn, judged by the solver.
    Accuracy(Box<cli::accuracy::AccuracyArgs>),
    /// An openings file for `match`: openings closest to even by search, or
    /// kept by how self-play games from them end (--check-games).
    Openings(Box<cli::openings::OpeningsArgs>),
    /// Who wins at strong play: the first player's share in self-play,
    /// one study cell per command; tables and pictures of the study.
    Balance(Box<cli::balance::BalanceArgs>),
    /// Positions valued by perfect play, or the search's choices in games
    /// against itself, as a data file for `train`.
    TrainData(Box<cli::train::TrainDataArgs>),
    /// Pattern weights fitted to data files, with their accuracy.
    Train(Box<cli::train::TrainArgs>),
}

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let result = match &cli.command {
        Some(Command::Perft(args)) => cli::perft::run(args),
        Some(Command::Bench(args)) => cli::bench::run(args),
        Some(Command::Match(args)) => cli::match_cmd::run(args),
        Some(Command::Gtp(args)) => cli::gtp::run(args),
        #[cfg(feature = "gui")]
        Some(Command::Gui(args)) => cli::gui::run(args),
        Some(Command::Render(args)) => cli::render::run(args),
        Some(Command::Analyze(args)) => cli::analyze::run(args),
        Some(Command::Analysis(args)) => cli::analysis::run(args),
        Some(Command::Solve(args)) => cli::solve::run(args),
        Some(Command::Accuracy(args)) => cli::accuracy::run(args),
        Some(Command::Openings(args)) => cli::openings::run(args),
        Some(Command::Balance(args)) => cli::balance::run(args),
        Some(Command::TrainData(args)) => cli::train::run_data(args),
        Some(Command::Train(args)) => cli::train::run(args),
        None => cli::gtp::run(&cli.gtp),
    };
    if let Err(message) = result {
        eprintln!("oddity: {message}");
        std::process::exit(1);
    }
}
