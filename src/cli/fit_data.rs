//! What the networks' fits (`train-value`, `train-net`) share: their
//! self-play data files, all of one game, every `holdout`-th game kept
//! out of the fit to be measured, and the steps of Adam.

use std::fs::File;
use std::io::{BufRead, BufReader};

use clap::Args;

use oddity_patterns::AdamPlan;
use oddity_rules::GameSpec;

/// The data a fit reads and the games it holds out.
#[derive(Args, Debug)]
pub struct FitDataArgs {
    /// Self-play data files of one game, from `oddity train-data --source
    /// selfplay` (repeatable).
    #[arg(long = "data", required = true)]
    pub data: Vec<String>,
    /// Only positions with at least this many turns played are fitted and
    /// measured.
    #[arg(long, default_value_t = 0)]
    pub min_turns: usize,
    /// Every this many-th game is held out of the fit and measured.
    #[arg(long, default_value_t = 5)]
    pub holdout: usize,
}

/// How a fit steps: `train-net`'s defaults here, `train-value` sets its
/// own (`mut_arg`).
#[derive(Args, Debug)]
pub struct AdamArgs {
    /// Passes over the fitted positions.
    #[arg(long, default_value_t = 10)]
    pub epochs: usize,
    /// Positions per step.
    #[arg(long, default_value_t = 32)]
    pub batch: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.002)]
    pub rate: f32,
    /// L2 penalty on the weights.
    #[arg(long, default_value_t = 0.0001)]
    pub decay: f32,
    /// Seeds the first weights and all the fit draws: the order of the
    /// positions (and, in `train-value`, the board symmetries).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl AdamArgs {
    /// The plan, or why the numbers are refused.
    pub fn plan(&self) -> Result<AdamPlan, String> {
        if !(self.rate.is_finite()
            && self.rate > 0.0
            && self.decay.is_finite()
            && self.decay >= 0.0)
        {
            return Err("--rate must be above 0 and --decay at least 0".into());
        }
        Ok(AdamPlan {
            epochs: self.epochs,
            batch: self.batch,
            rate: self.rate,
            decay: self.decay,
            seed: self.seed,
        })
    }
}

/// A data file's positions, each with its game's number in the file.
pub type Positions<E> = Vec<(usize, E)>;

/// Reads every data file of `args` by `read`, which gives its game and
/// its positions, each with its game's number in the file; refuses files
/// of different games, and a `--holdout` below 2.
pub fn read_sets<E>(
    args: &FitDataArgs,
    mut read: impl FnMut(&str, &mut dyn BufRead) -> Result<(GameSpec, Positions<E>), String>,
) -> Result<(GameSpec, Vec<Positions<E>>), String> {
    if args.holdout < 2 {
        return Err("--holdout must be at least 2".into());
    }
    let mut first: Option<GameSpec> = None;
    let mut sets = Vec::new();
    for name in &args.data {
        let file = File::open(name).map_err(|e| format!("cannot open {name}: {e}"))?;
        let (spec, positions) = read(name, &mut BufReader::new(file))?;
        if let Some(first) = first
            && first != spec
        {
            return Err(format!(
                "{name} is {} {} ({}), the other data files {} {} ({})",
                spec.kind,
                spec.size,
                spec.rules_text(),
                first.kind,
                first.size,
                first.rules_text()
            ));
        }
        first = Some(spec);
        sets.push(positions);
    }
    let spec = first.ok_or("no data file")?;
    Ok((spec, sets))
}

/// The positions to fit and those held out, and the games they came from.
pub struct Split<E> {
    pub train: Vec<E>,
    pub held: Vec<E>,
    pub games: usize,
}

/// Splits `sets` (as [`read_sets`] gives them) by game: every
/// `holdout`-th game, counted over the files in turn, is held out; refused
/// when either part is empty.
pub fn split<E>(sets: Vec<Positions<E>>, holdout: usize) -> Result<Split<E>, String> {
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let mut games = 0;
    for set in sets {
        let in_set = set.last().map_or(0, |(g, _)| g + 1);
        for (g, e) in set {
            if (games + g) % holdout == 0 {
                held.push(e);
            } else {
                train.push(e);
            }
        }
        games += in_set;
    }
    if train.is_empty() || held.is_empty() {
        return Err(format!(
            "{} positions of {games} games: too few to fit and hold out",
            train.len() + held.len()
        ));
    }
    Ok(Split { train, held, games })
}
