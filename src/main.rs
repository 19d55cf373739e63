use oddity::cli::{self, Command};

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = cli::parse_or_exit(std::env::args_os().collect());
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
        Some(Command::TrainValue(args)) => cli::train_value::run(args),
        Some(Command::TrainNet(args)) => cli::train_net::run(args),
        None => cli::gtp::run(&cli.gtp),
    };
    if let Err(message) = result {
        // Each line of the message as one line: nothing it quotes breaks it.
        for line in message.lines() {
            eprintln!("oddity: {}", oddity_rules::internals::escaped(line));
        }
        std::process::exit(1);
    }
}
