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
    /// Search or playout speed from the start; prints a JSON line.
    Bench(cli::bench::BenchArgs),
}

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let result = match &cli.command {
        Some(Command::Perft(args)) => cli::perft::run(args),
        Some(Command::Bench(args)) => cli::bench::run(args),
        None => Err("no command given; see `oddity --help`".to_string()),
    };
    if let Err(message) = result {
        eprintln!("oddity: {message}");
        std::process::exit(1);
    }
}
