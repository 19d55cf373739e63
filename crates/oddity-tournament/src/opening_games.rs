//! Openings kept by how their games end: a short self-play batch from each
//! candidate opening (the engine against itself, in seat-swapped pairs),
//! and the openings whose first player won a share of the games inside a
//! window kept. The batches are one tournament whose round k plays
//! candidate k modulo their number, so its results file (one JSON object
//! per game, as every match writes) is resumed like any other.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::runner::{MatchConfig, run};
use crate::balance::{engine_names, level_text};
use crate::referee::{Limits, TimeControl};
use crate::results::{GameResult, read_results};
use crate::schedule::Format;
use oddity_client::EngineSpec;
use oddity_rules::GameSpec;

/// How the candidates are checked.
#[derive(Clone, Debug)]
pub struct Check {
    /// The engine's command line (the program `oddity` means this
    /// executable); it plays both seats.
    pub engine: String,
    /// Games per candidate, in seat-swapped pairs.
    pub games: usize,
    /// Time per move.
    pub per_move: Duration,
    /// Keep an opening when its first player won at least `share.0` and at
    /// most `share.1` of its games with a result.
    pub share: (f64, f64),
    pub results: PathBuf,
    /// The command line recorded with each game.
    pub command: Option<String>,
    pub concurrency: usize,
    pub seed: u64,
    pub max_turns: usize,
    pub progress: bool,
}

/// A candidate and its games.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    pub moves: Vec<String>,
    /// Games won by the first player (the seat that moved first in the
    /// game, `b`) and by the second.
    pub first: u64,
    pub second: u64,
}

impl Checked {
    /// The first player's share of the games with a result.
    pub fn share(&self) -> Option<f64> {
        let n = self.first + self.second;
        (n > 0).then(|| self.first as f64 / n as f64)
    }
}

/// The tournament of the batches: `check.games` games from each line.
pub fn config(
    spec: &GameSpec,
    lines: &[Vec<String>],
    check: &Check,
) -> Result<MatchConfig, String> {
    let level = level_text(check.per_move.as_secs_f64());
    let engines = engine_names(&level)
        .iter()
        .map(|name| EngineSpec::parse(&format!("{name}={}", check.engine)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    Ok(MatchConfig {
        spec: *spec,
        engines,
        format: Format::Gauntlet,
        games: lines.len() * check.games,
        openings: lines.to_vec(),
        limits: Limits {
            time: TimeControl::PerMove(check.per_move),
            margin: Duration::from_secs(1),
            move_timeout: Duration::from_secs(300),
            max_turns: check.max_turns,
        },
        concurrency: check.concurrency.max(1),
        results: Some(check.results.clone()),
        sgf: None,
        resume: true,
        shard: None,
        sprt: None,
        log_dir: None,
        progress: check.progress,
        game_seed: Some(check.seed),
        first_player_stop: None,
        command: check.command.clone(),
    })
}

/// Refuses a results file whose games started from other openings than
/// the schedule gives them now (other candidates, another batch size).
fn check_same_batches(cfg: &MatchConfig, done: &[GameResult]) -> Result<(), String> {
    let scheduled: HashMap<String, usize> =
        cfg.games().into_iter().map(|g| (g.id, g.opening)).collect();
    for r in done {
        let same = scheduled
            .get(&r.id)
            .is_some_and(|&k| cfg.openings[k] == r.opening);
        if !same || r.game != cfg.spec.kind || r.size != cfg.spec.size {
            return Err(format!(
                "{} holds game {} ({} {}, from {}), not one of these candidates' batches: \
                 resume with the arguments of the original run, or name another file",
                cfg.results
                    .as_ref()
                    .map_or(String::new(), |p| p.display().to_string()),
                r.id,
                r.game,
                r.size,
                r.opening.join(" ")
            ));
        }
    }
    Ok(())
}

/// Plays (or resumes) the batches and returns every candidate with its
/// games, in the order of `lines`. `stop` set ends the run early; the
/// tallies then count the games played so far.
pub fn play(
    spec: &GameSpec,
    lines: &[Vec<String>],
    check: &Check,
    stop: Arc<AtomicBool>,
) -> Result<Vec<Checked>, String> {
    if lines.is_empty() {
        return Ok(Vec::new());
    }
    let cfg = config(spec, lines, check)?;
    if check.results.exists() {
        let done = read_results(&check.results).map_err(|e| e.to_string())?;
        check_same_batches(&cfg, &done)?;
    }
    let report = run(&cfg, stop).map_err(|e| e.to_string())?;
    Ok(tally(lines, &report.results))
}

/// Each line's wins by seat over the games that started from it.
pub fn tally(lines: &[Vec<String>], results: &[GameResult]) -> Vec<Checked> {
    let mut out: Vec<Checked> = lines
        .iter()
        .map(|moves| Checked {
            moves: moves.clone(),
            first: 0,
            second: 0,
        })
        .collect();
    let index: HashMap<&[String], usize> = lines
        .iter()
        .enumerate()
        .map(|(k, l)| (l.as_slice(), k))
        .collect();
    for r in results {
        if let Some(&k) = index.get(r.opening.as_slice()) {
            match r.winner_seat.as_deref() {
                Some("b") => out[k].first += 1,
                Some("w") => out[k].second += 1,
                _ => {}
            }
        }
    }
    out
}

/// The candidates whose first player's share lies in `share` (bounds
/// included), the closest to one half first.
pub fn select(checked: &[Checked], share: (f64, f64)) -> Vec<Checked> {
    let mut kept: Vec<Checked> = checked
        .iter()
        .filter(|c| c.share().is_some_and(|s| s >= share.0 && s <= share.1))
        .cloned()
        .collect();
    kept.sort_by(|a, b| {
        let d = |c: &Checked| (c.share().unwrap_or(0.5) - 0.5).abs();
        d(a).total_cmp(&d(b)).then_with(|| a.moves.cmp(&b.moves))
    });
    kept
}
