//! `oddity train-data` (positions valued by perfect play, or the search's
//! choices in games against itself, as a data file) and `oddity train`
//! (pattern weights fitted to data files, with their move-prediction
//! accuracy on held-out positions).

use std::fs::File;
use std::io::{BufReader, BufWriter, IsTerminal, Write};

use clap::Args;

use crate::cli::args::{EngineArgs, GameArgs, typed_command};
use oddity_analysis::self_play::{self, Level};
use oddity_analysis::train_data::{self, Data, Plan, Target};
use oddity_patterns::{Decision, GROUP_NAMES, GROUPS, NONE, Weights, fit, group_sizes, hit_in_top};
use oddity_rules::{GameKind, Rng};
use oddity_search::{EngineConfig, SearchParams, Visits};

/// Where the labels come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Source {
    /// Positions of random games valued by retrograde tables.
    Perfect,
    /// The default search's games against itself: its choices and root
    /// visits.
    Selfplay,
}

#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
    oddity train-data --game odd --size 4 --empty 10-14 --positions 1500 --out odd4.jsonl\n  \
    oddity train-data --game odd --size 5 --source selfplay --visits 20000 --games 100 --out odd5-sp.jsonl\n\n\
    See docs/patterns.md.")]
#[command(
    mut_arg("time", |a| a.help("Self-play: seconds per search").visible_alias("st")),
    mut_arg("threads", |a| a.help("Self-play: search threads (default 1)")),
    mut_arg("visits", |a| a.help("Self-play: iterations per search (with --threads 1 the data repeat exactly)").conflicts_with("time")),
    mut_arg("memory", |a| a.help("Self-play: memory for the search tree, MiB")),
    mut_arg("seed", |a| a.help("Random seed (default 1)")),
    mut_arg("params", |a| a.help("Self-play: a knowledge switch or constant of the engines as NAME=VALUE (repeatable), e.g. `--param weights=FILE` (see protocol.md, `oddity-param`)"))
)]
pub struct TrainDataArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Where the labels come from.
    #[arg(long, value_enum, default_value = "perfect")]
    pub source: Source,
    /// Perfect play: empty points of the positions, as a range like 10-14.
    #[arg(long, default_value = "10-14")]
    pub empty: String,
    /// Perfect play: positions to keep (each with a winning and a losing
    /// action).
    #[arg(long, default_value_t = 1000)]
    pub positions: usize,
    /// Perfect play: memory for one position's retrograde table, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 1024)]
    pub table_memory: usize,
    #[command(flatten)]
    pub search: EngineArgs,
    /// Self-play: games to play.
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// Self-play: the first this many turns of each game are drawn among
    /// the search's candidates in proportion to their visits.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub sample_turns: usize,
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
    /// What self-play positions teach: every candidate weighted by its
    /// share of the root visits, or the search's choice against the rest.
    #[arg(long, value_enum, default_value = "visits")]
    pub target: TargetArg,
    /// Also measure these weights files on the held-out positions
    /// (repeatable).
    #[arg(long, value_name = "FILE")]
    pub compare: Vec<String>,
    /// The weights file to write.
    #[arg(long)]
    pub out: String,
}

/// `--target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TargetArg {
    Visits,
    Chosen,
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
    match args.source {
        Source::Perfect => run_perfect(args),
        Source::Selfplay => run_self_play(args),
    }
}

/// The engine of self-play when no option says otherwise: one thread,
/// seed 1, no time limit.
fn train_defaults() -> EngineConfig {
    EngineConfig {
        params: SearchParams {
            threads: 1,
            seed: 1,
            ..SearchParams::default()
        },
        time: None,
        visits: Visits::Auto,
    }
}

fn run_self_play(args: &TrainDataArgs) -> Result<(), String> {
    let spec = args.game.spec()?;
    let config = args.search.config(train_defaults())?;
    let level = match (config.visits, config.time) {
        (Visits::Cap(n), _) => Level::Visits(n),
        (_, Some(t)) => Level::Seconds(t.as_secs_f64()),
        (_, None) => {
            return Err(
                "self-play needs a level: --visits N (at least 1) or --time SECONDS".into(),
            );
        }
    };
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let plan = self_play::Plan {
        spec,
        level,
        games: args.games,
        sample_turns: args.sample_turns,
        params: config.params,
    };
    let file = File::create(&args.out).map_err(|e| format!("cannot create {}: {e}", args.out))?;
    let mut out = BufWriter::new(file);
    let live = std::io::stderr().is_terminal();
    let counts = self_play::write(&plan, &typed_command(), &mut out, &mut |c| {
        if live {
            eprint!(
                "\r{}/{} games, {} positions   ",
                c.games, plan.games, c.positions
            );
        }
    })?;
    out.flush()
        .map_err(|e| format!("cannot write {}: {e}", args.out))?;
    eprintln!(
        "{}{} positions of {} games in {}",
        if live { "\r" } else { "" },
        counts.positions,
        counts.games,
        args.out
    );
    Ok(())
}

fn run_perfect(args: &TrainDataArgs) -> Result<(), String> {
    let spec = args.game.spec()?;
    let search = &args.search;
    if search.visits.is_some()
        || search.time.is_some()
        || search.memory.is_some()
        || search.policy.is_some()
        || search.exploration.is_some()
        || !search.params.is_empty()
    {
        return Err(
            "--visits, --time, --memory, --policy, --exploration and --param are for --source selfplay"
                .into(),
        );
    }
    let seed = search.options(train_defaults())?.params.seed;
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
        memory_mb: args.table_memory.max(1),
        seed,
    };
    let file = File::create(&args.out).map_err(|e| format!("cannot create {}: {e}", args.out))?;
    let mut out = BufWriter::new(file);
    let live = std::io::stderr().is_terminal();
    let counts = train_data::write(&plan, &typed_command(), &mut out, &mut |c| {
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
        let target = match args.target {
            TargetArg::Visits => Target::Visits,
            TargetArg::Chosen => Target::Chosen,
        };
        let data = train_data::read(name, &mut BufReader::new(file), target)?;
        if let Some(first) = sets.first()
            && first.spec.kind != data.spec.kind
        {
            return Err(format!(
                "{name} is {}, the other data files are {}",
                data.header.game, first.header.game
            ));
        }
        sets.push(data);
    }
    let ring = sets[0].ring;
    let mut others: Vec<(String, Weights)> = Vec::new();
    if let Some(w) = Weights::builtin(sets[0].spec.kind) {
        others.push(("built-in weights".into(), w.clone()));
    }
    for name in &args.compare {
        others.push((name.clone(), read_weights(name, sets[0].spec.kind, ring)?));
    }
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
    let weights = fit(
        sets[0].spec.kind,
        ring,
        &train,
        args.sweeps,
        &mut |sweep, ll| {
            eprintln!("sweep {}: mean log-likelihood {ll:.4}", sweep + 1);
        },
    );
    let mut rng = Rng::seeded(args.seed);
    let (mut learned, mut hand, mut random) = (Hits::default(), Hits::default(), Hits::default());
    let mut other_hits: Vec<Hits> = others.iter().map(|_| Hits::default()).collect();
    let mut has_hand = false;
    for (d, hand_scores) in &held {
        let n = d.candidates.len();
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            order.swap(i, rng.below(i as u32 + 1) as usize);
        }
        let scores =
            |w: &Weights| -> Vec<f64> { d.candidates.iter().map(|f| w.strength(f)).collect() };
        learned.add(&scores(&weights), d, &order);
        for ((_, w), hits) in others.iter().zip(&mut other_hits) {
            hits.add(&scores(w), d, &order);
        }
        random.add(&vec![0.0; n], d, &order);
        if let Some(h) = hand_scores {
            has_hand = true;
            hand.add(h, d, &order);
        }
    }
    let self_play = sets
        .iter()
        .filter(|s| s.header.source == train_data::SELF_PLAY)
        .count();
    println!(
        "{} positions: {} fitted, {} held out (every {}-th)",
        k,
        train.len(),
        held.len(),
        args.holdout
    );
    // A hit: a winning action (perfect play), the search's choice
    // (self-play).
    println!(
        "{}",
        match self_play {
            0 => "| ranking | positions | top-1 wins | top-5 has a win |",
            n if n == sets.len() => {
                "| ranking | positions | top-1 is the search's choice | top-5 has it |"
            }
            _ => "| ranking | positions | top-1 hit | top-5 hit |",
        }
    );
    println!("|---|---|---|---|");
    println!("{}", learned.row("patterns (fitted)"));
    for ((name, _), hits) in others.iter().zip(&other_hits) {
        println!("{}", hits.row(name));
    }
    if has_hand {
        println!("{}", hand.row("hand-written priors"));
    }
    println!("{}", random.row("random order"));
    let header = vec![
        "oddity pattern weights (docs/patterns.md)".to_string(),
        format!("made by: {}", typed_command()),
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

/// A weights file for `kind` with rings of `ring` points.
fn read_weights(name: &str, kind: GameKind, ring: usize) -> Result<Weights, String> {
    let text = std::fs::read_to_string(name).map_err(|e| format!("cannot read {name}: {e}"))?;
    let w = Weights::parse(&text).map_err(|e| format!("{name}: {e}"))?;
    if w.game != kind || w.ring != ring {
        return Err(format!(
            "{name} holds weights for {} (ring {}), the data are {kind} (ring {ring})",
            w.game, w.ring
        ));
    }
    Ok(w)
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
