//! `oddity train-data` (positions valued by perfect play, as a data file)
//! and `oddity train` (pattern weights fitted to data files, with their
//! move-prediction accuracy on held-out positions).

use std::fs::File;
use std::io::{BufReader, BufWriter, IsTerminal, Write};

use clap::Args;

use crate::analysis::train_data::{self, Data, Plan};
use crate::cli::args::GameArgs;
use crate::rules::random::{below, rng_from_seed};
use crate::search::patterns::{Decision, GROUP_NAMES, GROUPS, NONE, fit, group_sizes, hit_in_top};

#[derive(Args, Debug)]
pub struct TrainDataArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Empty points of the positions, as a range like 10-14.
    #[arg(long, default_value = "10-14")]
    pub empty: String,
    /// Positions to keep (each with a winning and a losing action).
    #[arg(long, default_value_t = 1000)]
    pub positions: usize,
    /// Memory for one position's retrograde table, in MiB.
    #[arg(long, default_value_t = 1024)]
    pub memory: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The data file to write.
    #[arg(long)]
    pub out: String,
}

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Data files of one game, from `oddity train-data` (repeatable).
    #[arg(long = "data", required = true)]
    pub data: Vec<String>,
    /// Every this many-th position is held out of the fit and measured.
    #[arg(long, default_value_t = 5)]
    pub holdout: usize,
    /// Passes of minorization-maximization over the feature groups.
    #[arg(long, default_value_t = 30)]
    pub sweeps: usize,
    /// Seeds the order that breaks ties in the predictions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The weights file to write.
    #[arg(long)]
    pub out: String,
}

/// The command line as typed, with the program named `oddity`.
fn command_line() -> String {
    let mut words: Vec<String> = std::env::args().skip(1).collect();
    words.insert(0, "oddity".into());
    words.join(" ")
}

fn empty_range(text: &str) -> Result<(usize, usize), String> {
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    match (a.trim().parse::<usize>(), b.trim().parse::<usize>()) {
        (Ok(min), Ok(max)) if min >= 1 && min <= max && max <= 40 => Ok((min, max)),
        _ => Err(format!(
            "--empty: '{text}' is not a range of empty points like 10-14 (at most 40)"
        )),
    }
}

pub fn run_data(args: &TrainDataArgs) -> Result<(), String> {
    let spec = args.game.spec()?;
    if spec.kind.has_captures() {
        return Err(format!(
            "{} has no retrograde tables to label positions",
            spec.kind
        ));
    }
    if args.positions == 0 {
        return Err("--positions must be at least 1".into());
    }
    let plan = Plan {
        spec,
        empty: empty_range(&args.empty)?,
        positions: args.positions,
        memory_mb: args.memory.max(1),
        seed: args.seed,
    };
    let file = File::create(&args.out).map_err(|e| format!("cannot create {}: {e}", args.out))?;
    let mut out = BufWriter::new(file);
    let live = std::io::stderr().is_terminal();
    let counts = train_data::write(&plan, &command_line(), &mut out, &mut |c| {
        if live {
            eprint!(
                "\r{}/{} positions ({} drawn)   ",
                c.kept, plan.positions, c.drawn
            );
        }
    })?;
    out.flush()
        .map_err(|e| format!("cannot write {}: {e}", args.out))?;
    eprintln!(
        "{}{} positions where the choice matters, of {} drawn, in {}",
        if live { "\r" } else { "" },
        counts.kept,
        counts.drawn,
        args.out
    );
    Ok(())
}

/// Top-1 and top-5 hits of one way of ranking the candidates.
#[derive(Default)]
struct Hits {
    top1: usize,
    top5: usize,
    positions: usize,
}

impl Hits {
    fn add(&mut self, scores: &[f64], d: &Decision, order: &[usize]) {
        self.positions += 1;
        self.top1 += usize::from(hit_in_top(scores, &d.wins, order, 1));
        self.top5 += usize::from(hit_in_top(scores, &d.wins, order, 5));
    }

    fn row(&self, name: &str) -> String {
        let pct = |k: usize| 100.0 * k as f64 / self.positions.max(1) as f64;
        format!(
            "| {name} | {} | {:.1}% | {:.1}% |",
            self.positions,
            pct(self.top1),
            pct(self.top5)
        )
    }
}

pub fn run(args: &TrainArgs) -> Result<(), String> {
    if args.holdout < 2 {
        return Err("--holdout must be at least 2".into());
    }
    let mut sets: Vec<Data> = Vec::new();
    for name in &args.data {
        let file = File::open(name).map_err(|e| format!("cannot open {name}: {e}"))?;
        let data = train_data::read(name, &mut BufReader::new(file))?;
        if let Some(first) = sets.first()
            && first.header.game != data.header.game
        {
            return Err(format!(
                "{name} is {}, the other data files are {}",
                data.header.game, first.header.game
            ));
        }
        sets.push(data);
    }
    let game = sets[0].header.game.clone();
    let ring = sets[0].ring;
    let mut train = Vec::new();
    let mut held: Vec<(&Decision, &Option<Vec<f64>>)> = Vec::new();
    let mut k = 0;
    for set in &sets {
        for (d, hand) in set.decisions.iter().zip(&set.hand) {
            if k % args.holdout == 0 {
                held.push((d, hand));
            } else {
                train.push(d.clone());
            }
            k += 1;
        }
    }
    print_frequencies(&sets);
    let weights = fit(&game, ring, &train, args.sweeps, &mut |sweep, ll| {
        eprintln!("sweep {}: mean log-likelihood {ll:.4}", sweep + 1);
    });
    let mut rng = rng_from_seed(args.seed);
    let (mut learned, mut hand, mut random) = (Hits::default(), Hits::default(), Hits::default());
    let mut has_hand = false;
    for (d, hand_scores) in &held {
        let n = d.candidates.len();
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            order.swap(i, below(&mut rng, i as u32 + 1) as usize);
        }
        let scores: Vec<f64> = d.candidates.iter().map(|f| weights.strength(f)).collect();
        learned.add(&scores, d, &order);
        random.add(&vec![0.0; n], d, &order);
        if let Some(h) = hand_scores {
            has_hand = true;
            hand.add(h, d, &order);
        }
    }
    println!(
        "{} positions: {} fitted, {} held out (every {}-th)",
        k,
        train.len(),
        held.len(),
        args.holdout
    );
    println!("| ranking | positions | top-1 wins | top-5 has a win |");
    println!("|---|---|---|---|");
    println!("{}", learned.row("patterns (fitted)"));
    if has_hand {
        println!("{}", hand.row("hand-written priors"));
    }
    println!("{}", random.row("random order"));
    let header = vec![
        "oddity pattern weights (docs/patterns.md)".to_string(),
        format!("made by: {}", command_line()),
        format!(
            "from {} positions fitted; held out {}: top-1 {:.1}%, top-5 {:.1}% (random order {:.1}%, {:.1}%)",
            train.len(),
            held.len(),
            100.0 * learned.top1 as f64 / held.len().max(1) as f64,
            100.0 * learned.top5 as f64 / held.len().max(1) as f64,
            100.0 * random.top1 as f64 / held.len().max(1) as f64,
            100.0 * random.top5 as f64 / held.len().max(1) as f64,
        ),
    ];
    std::fs::write(&args.out, weights.to_text(&header))
        .map_err(|e| format!("cannot write {}: {e}", args.out))?;
    eprintln!("weights written to {}", args.out);
    Ok(())
}

/// How often each feature value appears among the candidates, and how
/// often a candidate with it wins; for `shape`, how many patterns appear.
fn print_frequencies(sets: &[Data]) {
    let sizes = group_sizes(sets[0].ring);
    let mut seen: Vec<Vec<(usize, usize)>> =
        sizes.iter().map(|&n| vec![(0, 0); n as usize]).collect();
    let mut candidates = 0;
    for d in sets.iter().flat_map(|s| &s.decisions) {
        for (f, &win) in d.candidates.iter().zip(&d.wins) {
            candidates += 1;
            for g in 0..GROUPS {
                if f[g] != NONE {
                    let e = &mut seen[g][f[g] as usize];
                    e.0 += 1;
                    e.1 += usize::from(win);
                }
            }
        }
    }
    let shapes = seen[0].iter().filter(|e| e.0 > 0).count();
    println!("{candidates} candidates; {shapes} distinct shape values appear");
    println!("| group | value | share of candidates | of them winning |");
    println!("|---|---|---|---|");
    for g in 1..GROUPS {
        for (v, &(n, w)) in seen[g].iter().enumerate() {
            if n > 0 {
                println!(
                    "| {} | {v} | {:.1}% | {:.1}% |",
                    GROUP_NAMES[g],
                    100.0 * n as f64 / candidates as f64,
                    100.0 * w as f64 / n as f64
                );
            }
        }
    }
}
