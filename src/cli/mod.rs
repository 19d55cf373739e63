//! Command-line front ends: thin layers over the library.

pub mod accuracy;
pub mod analysis;
pub mod analyze;
pub mod args;
pub mod balance;
pub mod bench;
pub mod fit_data;
pub mod gtp;
#[cfg(feature = "gui")]
pub mod gui;
pub mod interrupt;
pub mod match_cmd;
pub mod openings;
pub mod perft;
pub mod position;
pub mod render;
pub mod solve;
pub mod train;
pub mod train_net;
pub mod train_value;

pub use args::{GameArgs, parse_game_kind};

use std::ffi::OsString;

use clap::{Parser, Subcommand};

use oddity_rules::internals::{escaped, needs_escape};

/// oddity: an engine for Xodd, Yodd, Odd and Onyx.
///
/// With no subcommand it runs the GTP engine (see protocol.md).
#[derive(Parser, Debug)]
#[command(name = "oddity", version = crate::version::BUILD, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub gtp: gtp::GtpArgs,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// The GTP engine on stdin/stdout (also the default).
    Gtp(gtp::GtpArgs),
    /// Count legal turn sequences (move-generator check).
    Perft(perft::PerftArgs),
    /// Search or playout speed from the start; prints a JSON line.
    Bench(bench::BenchArgs),
    /// Engine-vs-engine tournaments refereed by oddity's rules.
    Match(Box<match_cmd::MatchArgs>),
    /// A web page to play and watch the games against GTP engines.
    #[cfg(feature = "gui")]
    Gui(gui::GuiArgs),
    /// A picture of a position: SVG on stdout, or --out FILE.svg|FILE.png.
    Render(render::RenderArgs),
    /// Analyse a position (or every turn of a game) for a person, or as JSON.
    Analyze(Box<analyze::AnalyzeArgs>),
    /// Batch analysis: JSON queries on stdin, JSON results on stdout.
    Analysis(analysis::AnalysisArgs),
    /// Prove who wins a position with best play, and which turns win.
    Solve(Box<solve::SolveArgs>),
    /// How often engines find a winning turn, judged by the solver.
    Accuracy(Box<accuracy::AccuracyArgs>),
    /// An openings file for `match`: openings closest to even by search, or
    /// kept by how self-play games from them end (--check-games).
    Openings(Box<openings::OpeningsArgs>),
    /// Who wins at strong play: the first player's share in self-play,
    /// one study cell per command; tables and pictures of the study.
    Balance(Box<balance::BalanceArgs>),
    /// Positions valued by perfect play, or the search's choices in games
    /// against itself, as a data file for `train`.
    TrainData(Box<train::TrainDataArgs>),
    /// Pattern weights fitted to data files, with their accuracy.
    Train(Box<train::TrainArgs>),
    /// A small value network fitted to the game outcomes of self-play
    /// data files, with its held-out accuracy.
    TrainValue(Box<train_value::TrainValueArgs>),
    /// A policy and value network over the whole board fitted to the root
    /// visits and values of self-play searches, with its held-out scores.
    TrainNet(Box<train_net::TrainNetArgs>),
}

/// Reads the command line `args` (the program's name first). A refusal's
/// message quotes the arguments with their control characters escaped, so
/// its lines are clap's own.
pub fn parse(args: &[OsString]) -> Result<Cli, String> {
    Cli::try_parse_from(args).map_err(|e| refusal(&e, args))
}

/// Reads the command line as [`parse`] does; on a refusal says why on
/// stderr and exits (help and the version go to stdout).
pub fn parse_or_exit(args: Vec<OsString>) -> Cli {
    match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => {
            eprint!("{}", refusal(&e, &args));
            std::process::exit(e.exit_code());
        }
    }
}

/// clap's message for `e`, with every argument that holds a character to
/// escape (and the value after its `=`) written escaped. clap sometimes
/// quotes only part of an argument (the flag `-\r` of `-\r:E5`), so any
/// such character left over is escaped too, line by line.
fn refusal(e: &clap::Error, args: &[OsString]) -> String {
    let mut text = e.render().to_string();
    for arg in args {
        let arg = arg.to_string_lossy();
        let after = arg.split_once('=').map(|(_, v)| v);
        for raw in std::iter::once(arg.as_ref()).chain(after) {
            if raw.chars().any(needs_escape) {
                text = text.replace(raw, &escaped(raw));
            }
        }
    }
    text.split_inclusive('\n')
        .map(|line| match line.strip_suffix('\n') {
            Some(line) => format!("{}\n", escaped(line)),
            None => escaped(line),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use oddity_rules::internals::is_one_line;

    fn refusal_for(args: &[&str]) -> String {
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        match parse(&args) {
            Err(message) => message,
            Ok(_) => panic!("{args:?} is accepted"),
        }
    }

    #[test]
    fn a_refusal_quoting_part_of_an_argument_escapes_it() {
        let message = refusal_for(&["oddity", "analyze", "--game", "odd", "-\r:E5", "\u{1b}W:D4"]);
        assert!(message.contains("-\\r"), "{message:?}");
        assert!(message.lines().all(is_one_line), "{message:?}");
    }

    #[test]
    fn a_refusal_escapes_a_whole_argument_across_its_line_break() {
        let message = refusal_for(&["oddity", "analyze", "--time", "1\nx"]);
        assert!(message.contains("1\\nx"), "{message:?}");
        assert!(message.lines().all(is_one_line), "{message:?}");
    }
}
