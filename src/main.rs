use clap::{Parser, Subcommand};

use oddity::cli;

/// oddity: an engine for Xodd, Yodd, Odd and Onyx.
#[derive(Parser, Debug)]
#[command(name = "oddity", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count legal turn sequences (move-generator check).
    Perft(cli::perft::PerftArgs),
    /// Engine-vs-engine tournaments refereed by oddity's rules.
    Match(Box<cli::match_cmd::MatchArgs>),
}

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let result = match &cli.command {
        Some(Command::Perft(args)) => cli::perft::run(args),
        Some(Command::Match(args)) => cli::match_cmd::run(args),
        None => Err("no command given; see `oddity --help`".to_string()),
    };
    if let Err(message) = result {
        eprintln!("oddity: {message}");
        std::process::exit(1);
    }
}
