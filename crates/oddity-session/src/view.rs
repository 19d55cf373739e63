//! What the page draws for the position viewed: the state sent to the page,
//! the clocks, captures, the result with its explanation, and the game
//! tree laid out for drawing, from the parts of the session.

use serde::Serialize;

use crate::analyses::{Analyses, Analysis};
use crate::board;
use crate::clocks::Clocks;
use crate::game::Game;
use crate::jobs::Job;
use crate::notices::Notice;
use crate::players::{EngineInfo, Players};
use oddity_rules::{AnyGame, Cell, Colour, Decision, GameTree, NodeId, Outcome, Turn};

impl State {
    /// What the page draws for the position viewed of `game`, with its
    /// `players`, what the engines found (`analyses`), the clocks, the
    /// message for the person and the engine work the state asks for
    /// (`job`).
    pub(crate) fn new(
        version: u64,
        game: &Game,
        players: &Players,
        analyses: &Analyses,
        clocks: &Clocks,
        notice: Option<Notice>,
        job: Option<Job>,
    ) -> State {
        let pos = game.viewed_position();
        let spec = *pos.spec();
        let topo = pos.topology();
        let record = game.record();
        let tree = game.tree();
        let result = result(game, &pos);
        // A game ended by its rules is shown clean, without the last turn's
        // marks; one counted by groups with its groups.
        let decided = result
            .as_ref()
            .map(|r| r.decision)
            .filter(|d| *d != Decision::Resignation);
        let counted_groups = decided
            .is_some_and(|d| {
                matches!(
                    d,
                    Decision::FewerGroups { .. } | Decision::LargeGroups { .. }
                )
            })
            .then(|| group_marks(&pos));
        let last = game
            .view()
            .checked_sub(1)
            .map(|k| record.moves()[k].1)
            .filter(|t| *t != Turn::Resign && decided.is_none());
        let stones = topo
            .cells()
            .iter()
            .filter_map(|&c| {
                pos.stone_at(c)
                    .map(|col| (topo.name(c).to_string(), col.letter().to_string()))
            })
            .collect();
        let moves = record
            .moves()
            .iter()
            .zip(&game.line()[1..])
            .map(|((seat, turn), &node)| {
                let parent = tree.parent(node).expect("a turn's node has a parent");
                MoveEntry {
                    seat: seat.seat(),
                    token: record.start().token(turn),
                    node,
                    others: tree.children(parent).len() - 1,
                    name: tree.name(node).map(str::to_string),
                }
            })
            .collect();
        let to_move = pos.to_move();
        let try_turn = |t: Turn| !pos.is_over() && pos.clone().play_turn(&t).is_ok();
        let may_play = players.may_play(game);
        let human_turn = may_play.is_ok();
        let node = game.viewed_node();
        // An engine searches the position viewed now: the work the state
        // asks for is about it, and its engine is at it.
        let analysis_live =
            job.is_some_and(|job| job.node == node && players.searching(&job.engine));
        State {
            version,
            game: spec.kind.name(),
            size: spec.size,
            rules: spec.rules_text(),
            min_group: spec.kind.has_min_group().then(|| spec.min_group()),
            seats: players.labels(),
            engines: players.engines().to_vec(),
            seconds: players.time().as_secs_f64(),
            moves,
            view: game.view(),
            node,
            node_name: tree.name(node).map(str::to_string),
            tree: tree_dots(tree, game.line()),
            why_not: may_play.err().map(|e| e.to_string()),
            to_move: to_move.seat(),
            human_turn,
            can_pass: human_turn && try_turn(Turn::Pass),
            can_swap: human_turn && try_turn(Turn::Swap),
            stones,
            groups: pos.group_counts(),
            result: result.map(|r| ResultInfo {
                winner: r.winner.seat(),
                text: r.text,
                code: record.outcome().map(|o| o.score()).unwrap_or_default(),
                chain: r.chain.iter().map(|&c| topo.name(c).to_string()).collect(),
            }),
            over: record.is_over(),
            finished: record.outcome().map(|o| Finished {
                winner: o.winner.seat(),
                code: o.score(),
                text: o.describe(pos.spec()),
            }),
            counted_groups,
            analysis_wanted: analyses.wanted(),
            analysis: analyses.shown(game.line(), game.view()),
            analysis_live,
            winrates: analyses.winrates(game.line()),
            notice,
            clock: Clock::new(game, clocks),
            // Stones of each colour captured up to the position viewed.
            captured: spec
                .kind
                .has_captures()
                .then(|| record.captured(game.view())),
            paused: players.paused(),
            board: board::svg(&pos, last),
        }
    }
}

/// The winner and why, when the viewed position `pos` of `game` ends the
/// game; Onyx adds the winning chain.
fn result(game: &Game, pos: &AnyGame) -> Option<GameResult> {
    let outcome = match game.record().outcome() {
        Some(o) if game.at_end() && o.by_resignation => o,
        _ => Outcome {
            winner: pos.winner()?,
            by_resignation: false,
            decision: Decision::of(pos),
        },
    };
    let mut text = outcome.describe(pos.spec());
    let chain = if outcome.decision == Decision::Connection {
        onyx_chain(pos, outcome.winner)
    } else {
        Vec::new()
    };
    if !chain.is_empty() {
        let topo = pos.topology();
        let names: Vec<&str> = chain.iter().map(|&c| topo.name(c)).collect();
        text = format!("{text}: {}", names.join("-"));
    }
    Some(GameResult {
        winner: outcome.winner,
        decision: outcome.decision,
        text,
        chain,
    })
}

struct GameResult {
    winner: Colour,
    decision: Decision,
    text: String,
    chain: Vec<Cell>,
}

/// A group of stones of a finished position, as the rules count groups.
#[derive(Debug, Serialize)]
pub struct GroupMark {
    /// `B` or `W`.
    colour: char,
    /// Large enough to count: every group in Xodd and Yodd, groups of at
    /// least the smallest group size in Odd.
    counted: bool,
    cells: Vec<String>,
    /// The neighbouring pairs of its cells, to draw the group joined.
    links: Vec<[String; 2]>,
}

/// Every group of `pos` (maximal sets of neighbouring stones of one
/// colour), in the order of their first cells.
fn group_marks(pos: &AnyGame) -> Vec<GroupMark> {
    let topo = pos.topology();
    let smallest = if pos.kind().has_min_group() {
        pos.spec().min_group()
    } else {
        1
    };
    let mut seen = vec![false; topo.bits];
    let mut marks = Vec::new();
    for &start in topo.cells() {
        let Some(colour) = pos.stone_at(start) else {
            continue;
        };
        if seen[start.index()] {
            continue;
        }
        seen[start.index()] = true;
        let mut group = vec![start];
        let mut next = 0;
        while let Some(&c) = group.get(next) {
            next += 1;
            for &d in topo.neighbours(c) {
                if !seen[d.index()] && pos.stone_at(d) == Some(colour) {
                    seen[d.index()] = true;
                    group.push(d);
                }
            }
        }
        group.sort_by_key(|c| c.index());
        let links = group
            .iter()
            .flat_map(|&c| {
                topo.neighbours(c)
                    .iter()
                    .filter(move |d| d.index() > c.index() && pos.stone_at(**d) == Some(colour))
                    .map(move |&d| [topo.name(c).to_string(), topo.name(d).to_string()])
            })
            .collect();
        marks.push(GroupMark {
            colour: colour.letter(),
            counted: group.len() >= smallest,
            cells: group.iter().map(|&c| topo.name(c).to_string()).collect(),
            links,
        });
    }
    marks
}

/// Onyx: a shortest chain of `winner`'s stones joining its two edges.
fn onyx_chain(pos: &AnyGame, winner: Colour) -> Vec<Cell> {
    let topo = pos.topology();
    let n = topo.size;
    let corner_points = n * n;
    // Which goal edges a point lies on: bit 0 the first, bit 1 the second.
    let edges = |c: Cell| -> u8 {
        if c.index() >= corner_points {
            return 0;
        }
        let (x, y) = topo.coords(c);
        let along = if winner == Colour::Black { y } else { x };
        u8::from(along == 0) | (u8::from(along == n - 1) << 1)
    };
    let mine = |c: Cell| pos.stone_at(c) == Some(winner);
    let mut from: Vec<Option<Cell>> = vec![None; topo.bits];
    let mut seen = vec![false; topo.bits];
    let mut queue = std::collections::VecDeque::new();
    for &c in topo.cells() {
        if mine(c) && edges(c) & 1 != 0 {
            seen[c.index()] = true;
            queue.push_back(c);
        }
    }
    while let Some(c) = queue.pop_front() {
        if edges(c) & 2 != 0 {
            let mut chain = vec![c];
            let mut at = c;
            while let Some(prev) = from[at.index()] {
                chain.push(prev);
                at = prev;
            }
            chain.reverse();
            return chain;
        }
        for &d in topo.neighbours(c) {
            if mine(d) && !seen[d.index()] {
                seen[d.index()] = true;
                from[d.index()] = Some(c);
                queue.push_back(d);
            }
        }
    }
    Vec::new()
}

/// A turn of the line.
#[derive(Serialize)]
pub struct MoveEntry {
    seat: &'static str,
    token: String,
    /// Its node in the game tree.
    node: NodeId,
    /// Other turns tried in the same position (variations).
    others: usize,
    name: Option<String>,
}

/// A node of the game tree, placed for drawing: the turns from the start
/// across, the variations down, each variation on a row of its own.
#[derive(Serialize)]
pub struct TreeDot {
    node: NodeId,
    parent: Option<NodeId>,
    /// Turns from the start.
    depth: usize,
    /// The row: the main line is row 0; a variation's first node starts
    /// the next row not taken.
    row: usize,
    /// `b` or `w`: who played the turn (none at the start).
    seat: Option<&'static str>,
    /// On the line being played.
    line: bool,
    name: Option<String>,
}

/// The tree's nodes in SGF order, each on the row of the first leaf under
/// it (so a node shares its first child's row).
fn tree_dots(tree: &GameTree, line: &[NodeId]) -> Vec<TreeDot> {
    let on_line: std::collections::HashSet<NodeId> = line.iter().copied().collect();
    let mut dots = Vec::new();
    let mut rows_taken = 0;
    let mut stack = vec![(GameTree::ROOT, 0)];
    while let Some((node, depth)) = stack.pop() {
        let children = tree.children(node);
        dots.push(TreeDot {
            node,
            parent: tree.parent(node),
            depth,
            row: rows_taken,
            seat: tree.turn(node).map(|(seat, _)| seat.seat()),
            line: on_line.contains(&node),
            name: tree.name(node).map(str::to_string),
        });
        if children.is_empty() {
            rows_taken += 1;
        }
        stack.extend(children.iter().rev().map(|&c| (c, depth + 1)));
    }
    dots
}

/// The result of the position viewed, when it ends the game.
#[derive(Serialize)]
pub struct ResultInfo {
    winner: &'static str,
    text: String,
    /// As `final_score` gives it.
    code: String,
    /// Onyx: the winning chain.
    chain: Vec<String>,
}

/// The result of a finished game, for the page to say while reviewing it.
#[derive(Serialize)]
pub struct Finished {
    winner: &'static str,
    /// As `final_score` gives it.
    code: String,
    text: String,
}

/// What the page receives.
#[derive(Serialize)]
pub struct State {
    version: u64,
    game: &'static str,
    size: usize,
    rules: String,
    min_group: Option<usize>,
    /// `human` or an engine name, black first.
    seats: [String; 2],
    engines: Vec<EngineInfo>,
    seconds: f64,
    moves: Vec<MoveEntry>,
    view: usize,
    /// The node viewed, and its name.
    node: NodeId,
    node_name: Option<String>,
    /// Every node of the game tree.
    tree: Vec<TreeDot>,
    /// Why a click on the board is not a turn now (the review, the end, an
    /// engine's seat), if it is not.
    why_not: Option<String>,
    to_move: &'static str,
    /// A person may place stones now.
    human_turn: bool,
    can_pass: bool,
    can_swap: bool,
    /// Cell name -> `B` / `W` in the viewed position.
    stones: std::collections::BTreeMap<String, String>,
    /// Groups as the game counts them, black then white.
    groups: [u32; 2],
    result: Option<ResultInfo>,
    over: bool,
    /// The record's result when the game is over, whatever turn is viewed.
    finished: Option<Finished>,
    /// At the end of a game decided by counting groups: every group of the
    /// final position, counted or too small to count.
    counted_groups: Option<Vec<GroupMark>>,
    analysis_wanted: bool,
    analysis: Option<Analysis>,
    /// An engine is searching the position viewed now.
    analysis_live: bool,
    winrates: Vec<Option<f64>>,
    notice: Option<Notice>,
    clock: Clock,
    /// Onyx: stones of each colour captured, black first.
    captured: Option<[u32; 2]>,
    /// Engines wait until resumed.
    paused: bool,
    /// The board picture, SVG.
    board: String,
}

/// The thinking time each seat has used.
#[derive(Serialize)]
pub struct Clock {
    /// Seconds, black first, the turn being played included.
    used: [f64; 2],
    /// `b` or `w` while the seat to move's clock runs.
    running: Option<&'static str>,
}

impl Clock {
    /// The clocks of `game`'s line, with the turn being played while the
    /// game goes on.
    fn new(game: &Game, clocks: &Clocks) -> Clock {
        let record = game.record();
        let to_move = record.position().to_move();
        let playing = (!record.is_over()).then_some(to_move);
        Clock {
            used: clocks.used(game.turns(), playing),
            running: clocks.running().then(|| to_move.seat()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oddity_rules::{GameKind, GameSpec, Rules};

    /// The groups marked are the rules' groups: as many counted groups of
    /// each colour as `group_counts` gives, every stone in one group, and
    /// Odd's small groups marked as not counted.
    #[test]
    fn marked_groups_are_the_groups_the_rules_count() {
        let specs = [
            GameSpec::new(GameKind::Xodd, 5, Rules::default()).unwrap(),
            GameSpec::new(GameKind::Yodd, 3, Rules::default()).unwrap(),
            GameSpec::new(GameKind::Odd, 3, Rules::default()).unwrap(),
            GameSpec::new(
                GameKind::Odd,
                4,
                Rules {
                    min_group: Some(2),
                    ..Rules::default()
                },
            )
            .unwrap(),
        ];
        let mut seed = 7u64;
        let mut small_seen = false;
        for spec in specs {
            for _ in 0..20 {
                let mut pos = AnyGame::new(&spec);
                while !pos.is_over() {
                    // Passes (which end Xodd and Yodd) only late, or when
                    // nothing else is legal.
                    let legal = pos.legal_turns();
                    let mut turns: Vec<Turn> = legal
                        .iter()
                        .copied()
                        .filter(|t| *t != Turn::Pass || pos.turns_played() > 12)
                        .collect();
                    if turns.is_empty() {
                        turns = legal;
                    }
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let turn = turns[(seed >> 33) as usize % turns.len()];
                    pos.play_turn(&turn).unwrap();
                    let marks = group_marks(&pos);
                    let counted = |c: char| {
                        marks.iter().filter(|m| m.colour == c && m.counted).count() as u32
                    };
                    assert_eq!([counted('B'), counted('W')], pos.group_counts());
                    let stones: usize = marks.iter().map(|m| m.cells.len()).sum();
                    let on_board = pos
                        .topology()
                        .cells()
                        .iter()
                        .filter(|&&c| pos.stone_at(c).is_some())
                        .count();
                    assert_eq!(stones, on_board);
                    for m in &marks {
                        // A group of n stones is joined by at least n - 1 links.
                        assert!(m.links.len() + 1 >= m.cells.len(), "{m:?}");
                        small_seen |= !m.counted;
                    }
                }
            }
        }
        assert!(small_seen, "no Odd group too small to count was met");
    }
}
