//! Training data for the patterns: positions valued by perfect play, kept
//! as a file of JSON lines (`docs/patterns.md`), and read back as
//! [`Decision`]s for the fit.
//!
//! Positions come from uniformly random games cut when a drawn number of
//! points is still empty (as `oddity accuracy` draws them). A retrograde
//! table of everything that can follow the position values each of the
//! mover's actions exactly; positions where the choice matters (at least
//! one winning and one losing action) are kept. In Xodd and Yodd an action
//! is a turn's first stone (or a pass): it wins when some turn that starts
//! with it wins.

use std::io::{BufRead, Write};

use serde::{Deserialize, Serialize};

use crate::analysis::accuracy::draw_position;
use crate::rules::game::{Game, GameSpec, Rules};
use crate::rules::kind::GameKind;
use crate::rules::moves::{Action, Turn};
use crate::rules::position::AnyGame;
use crate::rules::random::{below, rng_from_seed};
use crate::rules::record::GameRecord;
use crate::rules::topology::Cell;
use crate::search::knowledge;
use crate::search::patterns::{Decision, FeatureBoard, Layout};
use crate::solver::retrograde::Retrograde;
use crate::with_game;

/// The name and version on a data file's first line.
pub const FORMAT: &str = "oddity-train-data";
pub const VERSION: u32 = 1;

/// A data file's first line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    pub format: String,
    pub version: u32,
    pub game: String,
    pub size: usize,
    /// The rule options as `oddity-rules` spells them, `name=value` joined
    /// by commas (empty for Xodd and Yodd).
    pub rules: String,
    /// How the labels were made: `perfect` (retrograde tables).
    pub source: String,
    /// The command that wrote the file.
    pub command: String,
}

/// One position: the turns from the start, and the mover's winning actions
/// as turn tokens (every other legal action loses).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sample {
    pub moves: String,
    pub wins: Vec<String>,
}

/// What to draw.
#[derive(Clone, Debug)]
pub struct Plan {
    pub spec: GameSpec,
    /// Empty points of the positions, `min..=max`.
    pub empty: (usize, usize),
    /// Positions to keep.
    pub positions: usize,
    pub memory_mb: usize,
    pub seed: u64,
}

/// Counts of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Drawn {
    pub drawn: usize,
    /// Of those, kept (the choice matters).
    pub kept: usize,
}

/// Draws and labels positions, writing the header and one line per kept
/// position to `out`; `progress` is told after each kept one.
pub fn write(
    plan: &Plan,
    command: &str,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(Drawn),
) -> Result<Drawn, String> {
    let header = Header {
        format: FORMAT.into(),
        version: VERSION,
        game: plan.spec.kind.name().into(),
        size: plan.spec.size,
        rules: plan.spec.rules_text(),
        source: "perfect".into(),
        command: command.into(),
    };
    let io = |e: std::io::Error| format!("cannot write the data: {e}");
    writeln!(
        out,
        "{}",
        serde_json::to_string(&header).map_err(|e| e.to_string())?
    )
    .map_err(io)?;
    let mut rng = rng_from_seed(plan.seed);
    let mut counts = Drawn::default();
    let (min, max) = plan.empty;
    let mut attempts = 0;
    while counts.kept < plan.positions {
        attempts += 1;
        if attempts > 1000 * plan.positions {
            return Err(format!(
                "only {} of {} positions found where the choice matters",
                counts.kept, plan.positions
            ));
        }
        let empty = min + below(&mut rng, (max - min + 1) as u32) as usize;
        let Some(record) = draw_position(&plan.spec, empty, &mut rng) else {
            continue;
        };
        counts.drawn += 1;
        let wins = with_game!(record.position(), g => winning_actions(g, plan.memory_mb))?;
        if wins.iter().all(|&(_, w)| w) || wins.iter().all(|&(_, w)| !w) {
            continue;
        }
        let position = record.position();
        let sample = Sample {
            moves: moves_text(&record),
            wins: wins
                .iter()
                .filter(|&&(_, w)| w)
                .map(|&(a, _)| position.token(&turn_of_action(a)))
                .collect(),
        };
        writeln!(
            out,
            "{}",
            serde_json::to_string(&sample).map_err(|e| e.to_string())?
        )
        .map_err(io)?;
        counts.kept += 1;
        progress(counts);
    }
    Ok(counts)
}

/// Every legal action of `game` with whether it keeps a win for the mover.
fn winning_actions<G: Game>(game: &G, memory_mb: usize) -> Result<Vec<(Action, bool)>, String> {
    let table = Retrograde::build(game, memory_mb).map_err(|e| e.to_string())?;
    let mover = game.to_move();
    let mut actions = Vec::new();
    game.legal_actions(&mut actions);
    Ok(actions
        .into_iter()
        .map(|a| {
            let mut next = game.clone();
            next.apply(a);
            (a, table.wins(&next, mover))
        })
        .collect())
}

/// The turn a first action names: one stone, or a pass or swap.
fn turn_of_action(a: Action) -> Turn {
    crate::rules::game::turn_of(a, None)
}

fn moves_text(record: &GameRecord) -> String {
    let start = record.start();
    let tokens: Vec<String> = record.moves().iter().map(|(_, t)| start.token(t)).collect();
    tokens.join(" ")
}

/// A read data file: its header, and per position the decision (features
/// of every legal action) and the hand-written priors' scores of the same
/// actions (`None` where the game has none).
pub struct Data {
    pub header: Header,
    pub spec: GameSpec,
    /// Points per ring of the board.
    pub ring: usize,
    pub decisions: Vec<Decision>,
    pub hand: Vec<Option<Vec<f64>>>,
}

/// Reads a data file; `name` names it in errors.
pub fn read(name: &str, input: &mut dyn BufRead) -> Result<Data, String> {
    let mut lines = input.lines().enumerate();
    let err = |k: usize, why: String| format!("{name}, line {}: {why}", k + 1);
    let (_, first) = lines
        .next()
        .ok_or_else(|| format!("{name}: the file is empty"))?;
    let first = first.map_err(|e| format!("{name}: {e}"))?;
    let header: Header = serde_json::from_str(&first).map_err(|e| err(0, e.to_string()))?;
    if header.format != FORMAT || header.version != VERSION {
        return Err(err(0, format!("not a {FORMAT} file of version {VERSION}")));
    }
    let spec = spec_of(&header).map_err(|e| err(0, e))?;
    let start = AnyGame::new(&spec);
    let ring = Layout::get(start.topology())
        .ok_or_else(|| err(0, format!("{} has no patterns", header.game)))?
        .len;
    let mut data = Data {
        header,
        spec,
        ring,
        decisions: Vec::new(),
        hand: Vec::new(),
    };
    for (k, line) in lines {
        let line = line.map_err(|e| format!("{name}: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let sample: Sample = serde_json::from_str(&line).map_err(|e| err(k, e.to_string()))?;
        let tokens: Vec<&str> = sample.moves.split_whitespace().collect();
        let record =
            GameRecord::replay(start.clone(), &tokens).map_err(|e| err(k, e.to_string()))?;
        let position = record.position();
        let mut wins = Vec::new();
        for token in &sample.wins {
            let turn = position
                .parse_turn(token)
                .map_err(|e| err(k, e.to_string()))?;
            wins.push(match turn {
                Turn::Pass => Action::PASS,
                Turn::Swap => Action::SWAP,
                Turn::Stones(s, None) => s.action(),
                _ => return Err(err(k, format!("{token} is not one action"))),
            });
        }
        let last = last_stones(&record);
        let (decision, hand) = with_game!(position, g => decision_of(g, &last, &wins));
        if decision.wins.iter().filter(|&&w| w).count() != wins.len() {
            return Err(err(
                k,
                "a winning action is not legal in the position".into(),
            ));
        }
        data.decisions.push(decision);
        data.hand.push(hand);
    }
    Ok(data)
}

fn spec_of(header: &Header) -> Result<GameSpec, String> {
    let kind = GameKind::ALL
        .into_iter()
        .find(|k| k.name() == header.game)
        .ok_or_else(|| format!("unknown game {}", header.game))?;
    let mut rules = Rules::default();
    for item in header.rules.split(',').filter(|s| !s.is_empty()) {
        let (n, v) = item
            .split_once('=')
            .ok_or_else(|| format!("rule option {item} is not NAME=VALUE"))?;
        rules
            .set(n, v)
            .map_err(|_| format!("rule option {item} is not understood"))?;
    }
    GameSpec::new(kind, header.size, rules).map_err(|e| e.to_string())
}

/// The last two stones placed, newest first.
pub fn last_stones(record: &GameRecord) -> Vec<Cell> {
    let mut last = Vec::new();
    for (_, turn) in record.moves().iter().rev() {
        if let Turn::Stones(a, b) = turn {
            last.extend(b.iter().map(|s| s.cell));
            last.push(a.cell);
        }
        if last.len() >= 2 {
            break;
        }
    }
    last.truncate(2);
    last
}

fn decision_of<G: knowledge::Knowledge>(
    game: &G,
    last: &[Cell],
    wins: &[Action],
) -> (Decision, Option<Vec<f64>>) {
    let board = FeatureBoard::new(game, last).expect("a game with patterns");
    let mut actions = Vec::new();
    game.legal_actions(&mut actions);
    let mover = game.to_move();
    let decision = Decision {
        candidates: actions.iter().map(|&a| board.features(a, mover)).collect(),
        wins: actions.iter().map(|a| wins.contains(a)).collect(),
    };
    let mut priors = Vec::new();
    let hand = knowledge::priors(game, &actions, &mut priors)
        .then(|| priors.iter().map(|&p| f64::from(p)).collect());
    (decision, hand)
}
