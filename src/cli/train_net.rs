//! `oddity train-net`: a board network ([`oddity_patterns::BoardNet`]), a
//! policy and a value over the whole board, fitted to the root visits and
//! values of self-play searches, with its held-out scores against the
//! simplest predictors.

use clap::Args;

use super::args::typed_command;
use super::fit_data::{self, AdamArgs, FitDataArgs, Split};
use oddity_analysis::train_data;
use oddity_patterns::{
    BoardExample, BoardFitPlan, BoardNet, BoardNetFile, MAX_BLOCKS, MAX_CHANNELS, fit_board_net,
    score_board_net,
};
use oddity_rules::Rng;

#[derive(Args, Debug)]
#[command(after_help = "Example:\n  \
    oddity train-data --game odd --size 5 --source selfplay --visits 30000 --games 100 --out odd5-deep.jsonl\n  \
    oddity train-net --data odd5-deep.jsonl --out odd5-board.txt\n  \
    oddity train-net --data odd7-deep.jsonl --start odd5-board.txt --epochs 0 --out odd5-on-7.txt\n\n\
    See docs/patterns.md.")]
pub struct TrainNetArgs {
    #[command(flatten)]
    pub fit: FitDataArgs,
    /// Start from this network file's weights instead of random ones: a
    /// network of the data's game, for its board or another size of it
    /// (the file's channels and blocks are kept). With `--epochs 0` the
    /// network is only measured on the data.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["channels", "blocks"])]
    pub start: Option<String>,
    /// Numbers per cell between the input and the heads.
    #[arg(long, default_value_t = 16)]
    pub channels: usize,
    /// Residual blocks (each looks one step further across the board).
    #[arg(long, default_value_t = 3)]
    pub blocks: usize,
    #[command(flatten)]
    pub adam: AdamArgs,
    /// How much the value's log-loss counts against the policy's
    /// cross-entropy.
    #[arg(long, default_value_t = 1.0)]
    pub value_weight: f32,
    /// The network file to write.
    #[arg(long)]
    pub out: String,
}

pub fn run(args: &TrainNetArgs) -> Result<(), String> {
    if !(1..=MAX_CHANNELS).contains(&args.channels) {
        return Err(format!("--channels must be from 1 to {MAX_CHANNELS}"));
    }
    if !(1..=MAX_BLOCKS).contains(&args.blocks) {
        return Err(format!("--blocks must be from 1 to {MAX_BLOCKS}"));
    }
    let adam = args.adam.plan()?;
    if !(args.value_weight.is_finite() && args.value_weight >= 0.0) {
        return Err("--value-weight must be at least 0".into());
    }
    let mut graph = None;
    let (spec, sets) = fit_data::read_sets(&args.fit, |name, input| {
        let set = train_data::read_searches(name, input, args.fit.min_turns)?;
        graph.get_or_insert(set.graph);
        Ok((set.spec, set.positions))
    })?;
    let graph = graph.expect("at least one data file");
    let Split { train, held, games } = fit_data::split(sets, args.fit.holdout)?;
    let mut net = match &args.start {
        Some(path) => BoardNetFile::load(path)?
            .net
            .carried_to(&spec, graph.len())
            .map_err(|e| format!("{path}: {e}"))?,
        None => BoardNet::random(
            spec.kind,
            spec.size,
            &spec.rules_text(),
            graph.len(),
            args.channels,
            args.blocks,
            &mut Rng::seeded(adam.seed),
        ),
    };
    let plan = BoardFitPlan {
        adam,
        value_weight: args.value_weight,
    };
    fit_board_net(
        &mut net,
        &graph,
        &train,
        &plan,
        &mut |epoch, policy, value| {
            eprintln!("epoch {epoch}: training policy loss {policy:.4}, value log-loss {value:.4}");
        },
    );
    let score = score_board_net(&net, &graph, &held);
    let fitted = score_board_net(&net, &graph, &train);
    let uniform = uniform_top(&held);
    let median = median_distance(&train, &held);
    println!(
        "{} positions of {games} games: {} fitted, {} held out (every {}-th game)",
        train.len() + held.len(),
        train.len(),
        held.len(),
        args.fit.holdout
    );
    println!("| held out | board net | simplest predictor |");
    println!("|---|---|---|");
    println!(
        "| the search's choice first | {:.1}% | {:.1}% (uniform) |",
        100.0 * score.top1,
        100.0 * uniform.0
    );
    println!(
        "| the search's choice in the first five | {:.1}% | {:.1}% (uniform) |",
        100.0 * score.top5,
        100.0 * uniform.1
    );
    println!(
        "| mean distance from the search's values | {:.4} | {:.4} (the fitted values' median) |",
        score.value_distance, median
    );
    println!(
        "(on the fitted positions: first {:.1}%, first five {:.1}%, value distance {:.4})",
        100.0 * fitted.top1,
        100.0 * fitted.top5,
        fitted.value_distance
    );
    let comments = vec![
        "oddity board network (docs/patterns.md)".to_string(),
        format!("made by: {}", typed_command()),
        format!(
            "from {} positions fitted; held out {}: the search's choice first {:.1}%, in the first five {:.1}%, mean distance from the search's values {:.4} (median {median:.4})",
            train.len(),
            held.len(),
            100.0 * score.top1,
            100.0 * score.top5,
            score.value_distance
        ),
    ];
    std::fs::write(&args.out, net.to_text(&comments))
        .map_err(|e| format!("cannot write {}: {e}", args.out))?;
    eprintln!("network written to {}", args.out);
    Ok(())
}

/// How often a uniformly random order of the stones puts the search's
/// choice first and in the first five, in expectation.
fn uniform_top(examples: &[BoardExample]) -> (f64, f64) {
    let mut top = (0.0, 0.0);
    for e in examples.iter().filter(|e| e.chosen.is_some()) {
        let n = e.moves.len().max(1) as f64;
        top.0 += 1.0 / n;
        top.1 += (5.0 / n).min(1.0);
    }
    let n = examples.len().max(1) as f64;
    (top.0 / n, top.1 / n)
}

/// The mean distance of `held`'s search values from the median of
/// `train`'s.
fn median_distance(train: &[BoardExample], held: &[BoardExample]) -> f64 {
    let mut values: Vec<f32> = train.iter().map(|e| e.value).collect();
    values.sort_by(f32::total_cmp);
    let median = values.get(values.len() / 2).copied().unwrap_or(0.5);
    held.iter()
        .map(|e| f64::from((e.value - median).abs()))
        .sum::<f64>()
        / held.len().max(1) as f64
}
