//! `oddity train-value`: a small value network ([`oddity_patterns::ValueNet`])
//! fitted to the game outcomes of self-play data files, with its log-loss
//! and accuracy on held-out games against always predicting the first
//! player's rate.

use clap::Args;

use super::args::typed_command;
use super::fit_data::{self, AdamArgs, FitDataArgs, Split};
use oddity_analysis::train_data::{self, ValueLabel};
use oddity_patterns::{
    Example, FitPlan, MAX_HIDDEN, ValueNet, cell_slots, fit_net, net_loss, net_target_error,
};
use oddity_rules::{AnyGame, Rng, with_game};

#[derive(Args, Debug)]
#[command(after_help = "Example:\n  \
    oddity train-data --game odd --size 5 --source selfplay --visits 3000 --games 1000 --out odd5-sp.jsonl\n  \
    oddity train-value --data odd5-sp.jsonl --out odd5-net.txt\n\n\
    See docs/patterns.md.")]
// This fit's own step defaults, over those of `AdamArgs`.
#[command(mut_arg("epochs", |a| a.default_value("20")))]
#[command(mut_arg("batch", |a| a.default_value("64")))]
#[command(mut_arg("rate", |a| a.default_value("0.001")))]
pub struct TrainValueArgs {
    #[command(flatten)]
    pub fit: FitDataArgs,
    /// What each position's value is fitted to: its game's winner, or its
    /// search's root value.
    #[arg(long, value_enum, default_value = "winner")]
    pub label: LabelArg,
    /// Hidden units.
    #[arg(long, default_value_t = 32)]
    pub hidden: usize,
    #[command(flatten)]
    pub adam: AdamArgs,
    /// The network file to write.
    #[arg(long)]
    pub out: String,
}

/// `--label`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LabelArg {
    Winner,
    Search,
}

pub fn run(args: &TrainValueArgs) -> Result<(), String> {
    if !(1..=MAX_HIDDEN).contains(&args.hidden) {
        return Err(format!("--hidden must be from 1 to {MAX_HIDDEN}"));
    }
    let adam = args.adam.plan()?;
    let label = match args.label {
        LabelArg::Winner => ValueLabel::Winner,
        LabelArg::Search => ValueLabel::Search,
    };
    let (spec, sets) = fit_data::read_sets(&args.fit, |name, input| {
        let set = train_data::read_outcomes(name, input, args.fit.min_turns, label)?;
        Ok((set.spec, set.positions))
    })?;
    let Split { train, held, games } = fit_data::split(sets, args.fit.holdout)?;
    let start = AnyGame::new(&spec);
    let topology = with_game!(&start, g => oddity_rules::Game::topology(g));
    let cells = cell_slots(topology);
    // Where every symmetry of the board keeps a position's value, each
    // position is seen under one drawn at random; in Onyx, whose transpose
    // exchanges the sides' edges, only as it is.
    let symmetries: Vec<Vec<usize>> = if spec.kind.board_symmetries_keep_values() {
        topology
            .symmetries()
            .iter()
            .map(|p| p.iter().map(|c| c.index()).collect())
            .collect()
    } else {
        vec![(0..cells).collect()]
    };
    let mut net = ValueNet::random(
        spec.kind,
        spec.size,
        &spec.rules_text(),
        cells,
        args.hidden,
        &mut Rng::seeded(adam.seed),
    );
    let plan = FitPlan {
        hidden: args.hidden,
        adam,
    };
    fit_net(&mut net, &train, &symmetries, &plan, &mut |epoch, loss| {
        eprintln!("epoch {epoch}: training log-loss {loss:.4}");
    });
    let rate = train.iter().filter(|e| e.black_wins).count() as f64 / train.len() as f64;
    let (base_loss, base_acc) = constant_loss(rate, &held);
    let (loss, acc) = net_loss(&net, &held);
    let (train_loss, train_acc) = net_loss(&net, &train);
    println!(
        "{} positions of {games} games: {} fitted, {} held out (every {}-th game)",
        train.len() + held.len(),
        train.len(),
        held.len(),
        args.fit.holdout
    );
    println!("| predictor | held-out log-loss | held-out accuracy |");
    println!("|---|---|---|");
    println!("| value net | {loss:.4} | {:.1}% |", 100.0 * acc);
    println!(
        "| the first player's rate ({:.1}%) | {base_loss:.4} | {:.1}% |",
        100.0 * rate,
        100.0 * base_acc
    );
    println!(
        "(on the fitted positions: log-loss {train_loss:.4}, accuracy {:.1}%)",
        100.0 * train_acc
    );
    if args.label == LabelArg::Search {
        let search = search_loss(&held);
        println!(
            "held out: mean distance from the search's values {:.4}; the search's values themselves: log-loss {:.4}, accuracy {:.1}%",
            net_target_error(&net, &held),
            search.0,
            100.0 * search.1
        );
    }
    let comments = vec![
        "oddity value network (docs/patterns.md)".to_string(),
        format!("made by: {}", typed_command()),
        format!(
            "from {} positions fitted; held out {}: log-loss {loss:.4}, accuracy {:.1}% (the first player's rate: {base_loss:.4}, {:.1}%)",
            train.len(),
            held.len(),
            100.0 * acc,
            100.0 * base_acc
        ),
    ];
    std::fs::write(&args.out, net.to_text(&comments))
        .map_err(|e| format!("cannot write {}: {e}", args.out))?;
    eprintln!("network written to {}", args.out);
    Ok(())
}

/// The log-loss and accuracy against the games' winners of always giving
/// Black the chance `rate`.
fn constant_loss(rate: f64, examples: &[Example]) -> (f64, f64) {
    winner_loss(examples, |_| rate)
}

/// The log-loss and accuracy against the games' winners of the examples'
/// targets (the search's values) taken as predictions.
fn search_loss(examples: &[Example]) -> (f64, f64) {
    winner_loss(examples, |e| f64::from(e.target))
}

fn winner_loss(examples: &[Example], black: impl Fn(&Example) -> f64) -> (f64, f64) {
    let mut loss = 0.0;
    let mut right = 0;
    for e in examples {
        let p = black(e).clamp(1e-7, 1.0 - 1e-7);
        let q = if e.black_wins { p } else { 1.0 - p };
        loss -= q.ln();
        right += usize::from(q > 0.5);
    }
    let n = examples.len().max(1) as f64;
    (loss / n, right as f64 / n)
}
