//! Training data for the patterns: positions valued by perfect play or
//! played by the search against itself ([`crate::self_play`]),
//! kept as a file of JSON lines (`docs/patterns.md`), and read back as
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

use crate::accuracy::draw_position;
use oddity_patterns::{
    BoardExample, BoardGraph, Decision, Example, FeatureBoard, NetInput, features,
};
use oddity_rules::{
    Action, AnyGame, Cell, Colour, Game, GameKind, GameRecord, GameSpec, Rng, Rules, Turn,
    with_game,
};
use oddity_search::{Knowledge, hand_priors};
use oddity_solver::retrograde::Retrograde;

/// The name and version on a data file's first line. Version 2 added
/// self-play data (`level`, `chosen`, `visits`); version 1 files (perfect
/// play only) read as before.
pub const FORMAT: &str = "oddity-train-data";
pub const VERSION: u32 = 2;

/// The `source` of positions valued by perfect play.
pub const PERFECT: &str = "perfect";
/// The `source` of positions from the search's games against itself.
pub const SELF_PLAY: &str = "selfplay";

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
    /// How the labels were made: `perfect` (retrograde tables) or
    /// `selfplay` (the search's choices and root visits).
    pub source: String,
    /// Self-play: the search's level, e.g. `visits=20000 threads=1`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    /// The command that wrote the file.
    pub command: String,
}

/// One position: the turns from the start, then its labels as action
/// tokens (a stone, or a pass or swap; in Xodd and Yodd a turn's first
/// stone). Perfect play: `wins`, the mover's winning actions (every other
/// legal action loses). Self-play: `chosen`, the action the search chose,
/// and `visits`, each root candidate's visits (candidates not named had
/// none), `value`, Black's chance of winning by the search's root, and
/// `winner`, the seat (`b` or `w`) that won the game the position was
/// played in (the labels of a value network).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sample {
    pub moves: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wins: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub visits: Option<Vec<(String, u64)>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
}

/// What a self-play position teaches the fit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Target {
    /// Every candidate, weighted by its share of the root visits.
    #[default]
    Visits,
    /// The search's choice against every other action.
    Chosen,
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
    write_line(out, &Header::new(&plan.spec, PERFECT, None, command))?;
    let mut rng = Rng::seeded(plan.seed);
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
        let empty = min + rng.below((max - min + 1) as u32) as usize;
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
            wins: Some(
                wins.iter()
                    .filter(|&&(_, w)| w)
                    .map(|&(a, _)| action_token(position, a))
                    .collect(),
            ),
            chosen: None,
            visits: None,
            value: None,
            winner: None,
        };
        write_line(out, &sample)?;
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

impl Header {
    pub fn new(spec: &GameSpec, source: &str, level: Option<String>, command: &str) -> Header {
        Header {
            format: FORMAT.into(),
            version: VERSION,
            game: spec.kind.name().into(),
            size: spec.size,
            rules: spec.rules_text(),
            source: source.into(),
            level,
            command: command.into(),
        }
    }
}

/// Writes one JSON line.
pub fn write_line<T: Serialize>(out: &mut dyn Write, value: &T) -> Result<(), String> {
    let text = serde_json::to_string(value).map_err(|e| e.to_string())?;
    writeln!(out, "{text}").map_err(|e| format!("cannot write the data: {e}"))
}

/// An action's token: the turn of that one stone, or the pass or swap.
pub fn action_token(position: &AnyGame, a: Action) -> String {
    position.token(&oddity_rules::turn_of(a, None))
}

/// The first action of a turn (in Xodd and Yodd its first stone); `None`
/// for a resignation.
pub fn first_action(turn: &Turn) -> Option<Action> {
    match turn {
        Turn::Pass => Some(Action::PASS),
        Turn::Swap => Some(Action::SWAP),
        Turn::Stones(s, _) => Some(s.action()),
        Turn::Resign => None,
    }
}

/// The turns from the start as move tokens.
pub fn moves_text(record: &GameRecord) -> String {
    let start = record.start();
    let tokens: Vec<String> = record.moves().iter().map(|(_, t)| start.token(t)).collect();
    tokens.join(" ")
}

/// A read data file: its header, and per position the decision (features
/// of every legal action) and the hand-written priors' scores of the same
/// actions (`None` where the game has none).
#[derive(Debug)]
pub struct Data {
    pub header: Header,
    pub spec: GameSpec,
    /// Points per ring of the board.
    pub ring: usize,
    pub decisions: Vec<Decision>,
    pub hand: Vec<Option<Vec<f64>>>,
}

/// The header line of a data file (`name` names it in errors), checked
/// for this format and a version this build reads.
fn read_header(
    name: &str,
    lines: &mut impl Iterator<Item = (usize, std::io::Result<String>)>,
) -> Result<Header, String> {
    let (_, first) = lines
        .next()
        .ok_or_else(|| format!("{name}: the file is empty"))?;
    let first = first.map_err(|e| format!("{name}: {e}"))?;
    let header: Header =
        serde_json::from_str(&first).map_err(|e| format!("{name}, line 1: {e}"))?;
    if header.format != FORMAT || !(1..=VERSION).contains(&header.version) {
        return Err(format!(
            "{name}, line 1: not a {FORMAT} file of version 1 to {VERSION}"
        ));
    }
    Ok(header)
}

/// Reads a data file; `name` names it in errors. Self-play positions teach
/// the fit as `target` says; in every decision `wins` marks what a
/// prediction should rank first: the winning actions, or the search's
/// choice.
pub fn read(name: &str, input: &mut dyn BufRead, target: Target) -> Result<Data, String> {
    let mut lines = input.lines().enumerate();
    let err = |k: usize, why: String| format!("{name}, line {}: {why}", k + 1);
    let header = read_header(name, &mut lines)?;
    let self_play = match header.source.as_str() {
        PERFECT => false,
        SELF_PLAY if header.version >= 2 => true,
        other => return Err(err(0, format!("unknown source `{other}`"))),
    };
    let spec = spec_of(&header).map_err(|e| err(0, e))?;
    let start = AnyGame::new(&spec);
    let ring = with_game!(&start, g => FeatureBoard::new(g, &[]).ring());
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
        let labels = if self_play {
            self_play_labels(&sample, record.position(), target)
        } else {
            perfect_labels(&sample, record.position())
        }
        .map_err(|e| err(k, e))?;
        let last = last_stones(&record);
        let (decision, hand) = with_game!(record.position(), g => decision_of(g, &last, &labels))
            .map_err(|e| err(k, e))?;
        data.decisions.push(decision);
        data.hand.push(hand);
    }
    Ok(data)
}

/// A position's labels as actions: those a prediction should rank first,
/// and for the fit, each action's share of the position's weight (`None`:
/// the first ones win against all the others).
struct Labels {
    best: Vec<Action>,
    shares: Option<Vec<(Action, f64)>>,
    /// Every action named, with its token (for errors).
    named: Vec<(Action, String)>,
}

fn perfect_labels(sample: &Sample, position: &AnyGame) -> Result<Labels, String> {
    if sample.chosen.is_some() || sample.visits.is_some() {
        return Err("`chosen` and `visits` belong to self-play data".into());
    }
    let wins = sample
        .wins
        .as_ref()
        .ok_or("a position of perfect play needs `wins`")?;
    let named = actions_of(position, wins.iter())?;
    Ok(Labels {
        best: named.iter().map(|(a, _)| *a).collect(),
        shares: None,
        named,
    })
}

fn self_play_labels(sample: &Sample, position: &AnyGame, target: Target) -> Result<Labels, String> {
    if sample.wins.is_some() {
        return Err("`wins` belongs to data of perfect play".into());
    }
    let (Some(chosen), Some(visits)) = (&sample.chosen, &sample.visits) else {
        return Err("a self-play position needs `chosen` and `visits`".into());
    };
    let mut named = actions_of(position, std::iter::once(chosen))?;
    let best = vec![named[0].0];
    let actions: Vec<Action> = actions_of(position, visits.iter().map(|(t, _)| t))?
        .into_iter()
        .map(|(a, token)| {
            named.push((a, token));
            a
        })
        .collect();
    if actions
        .iter()
        .enumerate()
        .any(|(i, a)| actions[..i].contains(a))
    {
        return Err("an action appears twice in `visits`".into());
    }
    let total = visits
        .iter()
        .try_fold(0u64, |total, &(_, n)| total.checked_add(n))
        .ok_or("`visits` has more visits than a count holds")?;
    if total == 0 {
        return Err("`visits` has no visits".into());
    }
    let shares = match target {
        Target::Visits => Some(
            actions
                .into_iter()
                .zip(visits)
                .map(|(a, &(_, n))| (a, n as f64 / total as f64))
                .collect(),
        ),
        Target::Chosen => None,
    };
    Ok(Labels {
        best,
        shares,
        named,
    })
}

/// Reads action tokens of `position`, each kept with its action.
fn actions_of<'a>(
    position: &AnyGame,
    tokens: impl Iterator<Item = &'a String>,
) -> Result<Vec<(Action, String)>, String> {
    tokens
        .map(|token| {
            let turn = position
                .parse_turn(token)
                .map_err(|e| format!("{token}: {e}"))?;
            let action = match turn {
                Turn::Pass => Action::PASS,
                Turn::Swap => Action::SWAP,
                Turn::Stones(s, None) => s.action(),
                _ => return Err(format!("{token} is not one action")),
            };
            Ok((action, token.clone()))
        })
        .collect()
}

fn spec_of(header: &Header) -> Result<GameSpec, String> {
    let kind =
        GameKind::parse(&header.game).ok_or_else(|| format!("unknown game {}", header.game))?;
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

fn decision_of<G: Knowledge>(
    game: &G,
    last: &[Cell],
    labels: &Labels,
) -> Result<(Decision, Option<Vec<f64>>), String> {
    let board = FeatureBoard::new(game, last);
    let mut actions = Vec::new();
    game.legal_actions(&mut actions);
    if let Some((_, token)) = labels.named.iter().find(|(a, _)| !actions.contains(a)) {
        return Err(format!("{token} is not a legal action in the position"));
    }
    let mover = game.to_move();
    let decision = Decision {
        candidates: actions.iter().map(|&a| board.features(a, mover)).collect(),
        wins: actions.iter().map(|a| labels.best.contains(a)).collect(),
        shares: labels.shares.as_ref().map(|shares| {
            actions
                .iter()
                .map(|a| shares.iter().find(|(b, _)| b == a).map_or(0.0, |&(_, p)| p))
                .collect()
        }),
    };
    let mut priors = Vec::new();
    let hand = hand_priors(game, &actions, &mut priors)
        .then(|| priors.iter().map(|&p| f64::from(p)).collect());
    Ok((decision, hand))
}

/// The positions of a self-play data file with their games' winners, for a
/// value network: per position its game's number in the file (a game's
/// positions come one after another, each with more turns than the last)
/// and the example.
pub struct Outcomes {
    pub header: Header,
    pub spec: GameSpec,
    pub positions: Vec<(usize, Example)>,
}

/// What a value network is fitted to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ValueLabel {
    /// The winner of the position's game.
    #[default]
    Winner,
    /// The search's root value of the position (`value`).
    Search,
}

/// A self-play position as the value fits read it.
struct Played<'a> {
    sample: &'a Sample,
    record: &'a GameRecord,
    /// Its game's number in the file.
    game: usize,
    winner: Colour,
}

/// Reads a self-play data file's header and then each position that
/// names its game's winner and has at least `min_turns` turns played (the
/// others are skipped before games are told apart), handing it to `each`;
/// `name` names the file in errors, `each`'s with the position's line.
fn read_played(
    name: &str,
    input: &mut dyn BufRead,
    min_turns: usize,
    mut each: impl FnMut(Played) -> Result<(), String>,
) -> Result<(Header, GameSpec), String> {
    let mut lines = input.lines().enumerate();
    let err = |k: usize, why: String| format!("{name}, line {}: {why}", k + 1);
    let header = read_header(name, &mut lines)?;
    if header.source != SELF_PLAY {
        return Err(err(
            0,
            format!("the source is `{}`, not `{SELF_PLAY}`", header.source),
        ));
    }
    let spec = spec_of(&header).map_err(|e| err(0, e))?;
    let start = AnyGame::new(&spec);
    let (mut game, mut last_turns) = (0usize, None);
    for (k, line) in lines {
        let line = line.map_err(|e| format!("{name}: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let sample: Sample = serde_json::from_str(&line).map_err(|e| err(k, e.to_string()))?;
        let winner = match sample.winner.as_deref() {
            Some("b") => Colour::Black,
            Some("w") => Colour::White,
            Some(other) => return Err(err(k, format!("unknown winner `{other}`"))),
            None => return Err(err(k, "the position names no winner".into())),
        };
        let tokens: Vec<&str> = sample.moves.split_whitespace().collect();
        if tokens.len() < min_turns {
            continue;
        }
        if last_turns.is_some_and(|n| tokens.len() <= n) {
            game += 1;
        }
        last_turns = Some(tokens.len());
        let record =
            GameRecord::replay(start.clone(), &tokens).map_err(|e| err(k, e.to_string()))?;
        each(Played {
            sample: &sample,
            record: &record,
            game,
            winner,
        })
        .map_err(|e| err(k, e))?;
    }
    Ok((header, spec))
}

/// A position's search value (`value`), checked to be a chance.
fn search_value(sample: &Sample) -> Result<f32, String> {
    match sample.value {
        Some(v) if (0.0..=1.0).contains(&v) => Ok(v as f32),
        Some(v) => Err(format!("value {v} is not from 0 to 1")),
        None => Err("the position has no search `value`".into()),
    }
}

/// Reads a self-play data file whose positions name their game's winner
/// (and with [`ValueLabel::Search`] their search's value), keeping those
/// with at least `min_turns` turns played (the others are skipped before
/// games are told apart); `name` names it in errors.
pub fn read_outcomes(
    name: &str,
    input: &mut dyn BufRead,
    min_turns: usize,
    label: ValueLabel,
) -> Result<Outcomes, String> {
    let mut positions = Vec::new();
    let (header, spec) = read_played(name, input, min_turns, |p| {
        let black_wins = p.winner == Colour::Black;
        let target = match label {
            ValueLabel::Winner => f32::from(u8::from(black_wins)),
            ValueLabel::Search => search_value(p.sample)?,
        };
        let input = with_game!(p.record.position(), g => NetInput::of(g));
        positions.push((
            p.game,
            Example {
                input,
                black_wins,
                target,
            },
        ));
        Ok(())
    })?;
    Ok(Outcomes {
        header,
        spec,
        positions,
    })
}

/// The positions of a self-play data file as a board network learns them.
pub struct Searches {
    pub header: Header,
    pub spec: GameSpec,
    /// The board the examples' features are read on.
    pub graph: BoardGraph,
    /// Per position its game's number in the file and the example.
    pub positions: Vec<(usize, BoardExample)>,
}

/// Reads a self-play data file whose positions name their search's root
/// visits, choice and value and their game's winner, for a board network
/// ([`oddity_patterns::BoardNet`]), keeping those with at least
/// `min_turns` turns played; `name` names it in errors. The visit shares
/// are over the stones the mover could place; actions that place none
/// (a pass, Onyx's swap) are left out.
pub fn read_searches(
    name: &str,
    input: &mut dyn BufRead,
    min_turns: usize,
) -> Result<Searches, String> {
    let mut graph: Option<BoardGraph> = None;
    let mut positions = Vec::new();
    let mut legal = Vec::new();
    let (header, spec) = read_played(name, input, min_turns, |p| {
        let value = search_value(p.sample)?;
        let position = p.record.position();
        let graph = graph.get_or_insert_with(|| BoardGraph::new(position.topology()));
        let labels = self_play_labels(p.sample, position, Target::Visits)?;
        legal.clear();
        with_game!(position, g => g.legal_actions(&mut legal));
        if let Some((_, token)) = labels.named.iter().find(|(a, _)| !legal.contains(a)) {
            return Err(format!("{token} is not legal in the position"));
        }
        let shares = labels.shares.unwrap_or_default();
        let placed: f64 = shares
            .iter()
            .filter(|(a, _)| graph.output_of(*a).is_some())
            .map(|(_, s)| s)
            .sum();
        let moves = legal
            .iter()
            .filter_map(|&a| {
                let o = graph.output_of(a)? as u32;
                let share = shares
                    .iter()
                    .find(|(b, _)| *b == a)
                    .map_or(0.0, |(_, s)| *s);
                Some((
                    o,
                    if placed > 0.0 {
                        (share / placed) as f32
                    } else {
                        0.0
                    },
                ))
            })
            .collect();
        let mut x = Vec::new();
        with_game!(position, g => features(g, graph, &mut x));
        positions.push((
            p.game,
            BoardExample {
                features: x,
                moves,
                chosen: graph.output_of(labels.best[0]).map(|o| o as u32),
                value,
                black_wins: p.winner == Colour::Black,
            },
        ));
        Ok(())
    })?;
    let graph = graph.unwrap_or_else(|| BoardGraph::new(AnyGame::new(&spec).topology()));
    Ok(Searches {
        header,
        spec,
        graph,
        positions,
    })
}
