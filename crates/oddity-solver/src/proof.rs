//! Checking a proof from the rules alone.
//!
//! A proof that `winner` wins a position is a strategy: in every position
//! where the winner moves it names one action, and following it against
//! every reply ends every game in the winner's win. [`check_win`] walks that
//! strategy depth first with an explicit stack: it asks a [`Guide`] for the
//! winner's action (and checks that it is legal), plays every legal action
//! where the other side moves, requires each finished game to be the
//! winner's and refuses a line that comes back to a position of its own
//! path (a win must not rest on a cycle). Positions already checked are
//! remembered by their full description (stones, side to move, turn state),
//! not by a hash, so the check shares nothing with the solver but the rules
//! and the guide's suggestions. A position and its images under the board's
//! symmetries (see `Images`) are one description: the rules treat them
//! alike, and a proof that holds for one holds for all.

use std::collections::HashSet;
use std::fmt;

use crate::dfpn::{Dfpn, DfpnConfig};
use crate::keys::Keys;
use crate::params::SolverParams;
use crate::solution::{Solution, Value};
use crate::table::Table;
use oddity_rules::{Action, Colour, Game};

/// Why a proof was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckError {
    /// A finished game that the winner did not win.
    WrongWinner {
        /// The actions from the checked position.
        line: Vec<Action>,
    },
    /// No winning action was suggested where the winner moves.
    NoAction {
        /// The actions from the checked position.
        line: Vec<Action>,
    },
    /// The suggested action is not legal there.
    Illegal {
        /// The actions from the checked position.
        line: Vec<Action>,
        /// The suggested action.
        action: Action,
    },
    /// The loser has no move but the game is not over: nobody wins.
    Stalemate {
        /// The actions from the checked position.
        line: Vec<Action>,
    },
    /// A line returns to a position of its own path.
    Cycle {
        /// The actions from the checked position, the repeating one last.
        line: Vec<Action>,
    },
    /// The board has more points than the checker's position keys hold.
    BoardTooLarge,
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let depth = |line: &Vec<Action>| line.len();
        match self {
            CheckError::WrongWinner { line } => write!(
                f,
                "a game of the proof ends with the other side winning, {} actions deep",
                depth(line)
            ),
            CheckError::NoAction { line } => write!(
                f,
                "no winning action is known for a position {} actions deep",
                depth(line)
            ),
            CheckError::Illegal { line, .. } => write!(
                f,
                "the proof plays an illegal action {} actions deep",
                depth(line)
            ),
            CheckError::Stalemate { line } => write!(
                f,
                "a position {} actions deep has no legal move and no winner",
                depth(line)
            ),
            CheckError::Cycle { line } => write!(
                f,
                "the proof returns to a position of its own line, {} actions deep",
                depth(line)
            ),
            CheckError::BoardTooLarge => {
                f.write_str("the checker handles boards of at most 128 points")
            }
        }
    }
}

impl std::error::Error for CheckError {}

/// Suggests the winner's actions in a position where it moves, the most
/// promising first.
pub trait Guide<G> {
    /// The winner's candidate actions in `game`, the most promising first.
    fn actions(&mut self, game: &G) -> Vec<Action>;

    /// Candidates again where every one of [`Guide::actions`] led back to a
    /// position of `line` (the positions above `game`): none by default.
    fn actions_avoiding(&mut self, game: &G, line: &[G]) -> Vec<Action> {
        let _ = (game, line);
        Vec::new()
    }
}

/// The full description of a position: stone words of both colours (at
/// most two words each), the side to move and the turn state.
type PositionKey = [u64; 5];

/// The positions a check has shown won, by their least image's key.
pub(super) trait Shown {
    fn contains(&self, key: &PositionKey) -> bool;
    fn insert(&mut self, key: PositionKey);
    /// Positions kept.
    fn count(&self) -> u64;
}

impl Shown for HashSet<PositionKey> {
    fn contains(&self, key: &PositionKey) -> bool {
        HashSet::contains(self, key)
    }
    fn insert(&mut self, key: PositionKey) {
        HashSet::insert(self, key);
    }
    fn count(&self) -> u64 {
        self.len() as u64
    }
}

/// Shown positions that follow a root with at most [`DENSE_EMPTY`] empty
/// cells, as one bit each, for proofs with more positions than a set of
/// full descriptions can hold: a position's bit is found from the root's
/// empty cells as base-3 digits (0 empty, 1 black, 2 white), the side to
/// move and whether the last turn was a pass. Positions in the middle of a
/// turn, Black's first turn, and positions without the root's stones (an
/// image of one) are not kept: they are walked again each time they are
/// reached.
pub(super) struct DenseShown {
    /// Per bit of the board's stone words: its digit's place value (3^i
    /// for the i-th empty cell of the root), 0 for the other cells.
    place: Vec<u64>,
    /// The root's stones, as stone words.
    fixed: [[u64; 2]; 2],
    bits: Vec<u64>,
    count: u64,
}

/// The most empty cells a [`DenseShown`] handles: 3^20 positions, 1.7 GiB.
pub(super) const DENSE_EMPTY: usize = 20;

impl DenseShown {
    pub(super) fn new<G: Game>(root: &G) -> Option<DenseShown> {
        let topology = root.topology();
        if topology.bits > 128 {
            return None;
        }
        let mut place = vec![0u64; 128];
        let mut fixed = [[0u64; 2]; 2];
        let mut empty = 0u32;
        for &c in topology.cells() {
            match root.stone_at(c) {
                Some(colour) => fixed[colour.index()][c.index() / 64] |= 1 << (c.index() % 64),
                None if (empty as usize) < DENSE_EMPTY => {
                    place[c.index()] = 3u64.pow(empty);
                    empty += 1;
                }
                None => return None,
            }
        }
        let positions = 3u64.pow(empty) * 4;
        Some(DenseShown {
            place,
            fixed,
            bits: vec![0; positions.div_ceil(64) as usize],
            count: 0,
        })
    }

    /// The bit of a key, unless it is a position that is not kept.
    fn slot(&self, key: &PositionKey) -> Option<u64> {
        let tail = key[4];
        // Black's first turn (flag bit 0) or a remembered point.
        if tail & 0b10 != 0 || tail >> 16 != 0 {
            return None;
        }
        let mut number = 0;
        for (colour, digit) in [(0, 1), (1, 2)] {
            for w in 0..2 {
                let word = key[2 * colour + w];
                let fixed = self.fixed[colour][w];
                if word & fixed != fixed {
                    return None;
                }
                let mut bits = word & !fixed;
                while bits != 0 {
                    number += digit * self.place[w * 64 + bits.trailing_zeros() as usize];
                    bits &= bits - 1;
                }
            }
        }
        // The side to move (tail bit 0) and a pass as the last turn (bit 2).
        Some(number * 4 + (tail & 1) * 2 + (tail >> 2 & 1))
    }
}

impl Shown for DenseShown {
    fn contains(&self, key: &PositionKey) -> bool {
        self.slot(key)
            .is_some_and(|s| self.bits[(s / 64) as usize] >> (s % 64) & 1 == 1)
    }
    fn insert(&mut self, key: PositionKey) {
        if let Some(s) = self.slot(&key) {
            let word = &mut self.bits[(s / 64) as usize];
            if *word >> (s % 64) & 1 == 0 {
                *word |= 1 << (s % 64);
                self.count += 1;
            }
        }
    }
    fn count(&self) -> u64 {
        self.count
    }
}

/// The images of a position that the checker treats as one: the board's
/// symmetries (cell permutations from the topology), and in Odd each also
/// with the colours exchanged (the count of groups ignores colour). Onyx
/// keeps the identity alone: its board's reflections exchange the edges'
/// owners.
struct Images {
    /// Per symmetry: the image of each cell index.
    perms: Vec<Vec<usize>>,
    exchange_colours: bool,
}

impl Images {
    fn of<G: Game>(game: &G, symmetric: bool) -> Images {
        let topo = game.topology();
        let kind = game.spec().kind;
        let perms = if symmetric && kind.board_symmetries_keep_values() {
            topo.symmetries()
                .iter()
                .map(|p| p.iter().map(|c| c.index()).collect())
                .collect()
        } else {
            Vec::new()
        };
        Images {
            perms,
            exchange_colours: symmetric && kind.colour_exchange_keeps_values(),
        }
    }

    /// The least key among `game`'s images; only the position itself while
    /// the rules remember a point (Xodd and Yodd's second stone must go on
    /// a higher cell than the first, an order no symmetry keeps). `None`
    /// when the board has more than 128 points.
    fn key<G: Game>(&self, game: &G) -> Option<PositionKey> {
        let mut stones = [[0u64; 2]; 2];
        for (c, colour) in Colour::BOTH.into_iter().enumerate() {
            let words = game.stone_words(colour);
            if words.iter().skip(2).any(|&w| w != 0) {
                return None;
            }
            for (k, &w) in words.iter().take(2).enumerate() {
                stones[c][k] = w;
            }
        }
        let state = game.turn_state();
        let tail = u64::from(game.to_move() == Colour::White)
            | u64::from(state.flags) << 1
            | state.anchor.map_or(0, |c| u64::from(c.0) + 1) << 16;
        let compose = |s: &[[u64; 2]; 2]| [s[0][0], s[0][1], s[1][0], s[1][1], tail];
        let mut best = compose(&stones);
        if state.anchor.is_some() {
            return Some(best);
        }
        let exchanges: &[bool] = if self.exchange_colours {
            &[false, true]
        } else {
            &[false]
        };
        for perm in &self.perms {
            let mut image = [[0u64; 2]; 2];
            for (c, words) in stones.iter().enumerate() {
                for (w, &word) in words.iter().enumerate() {
                    let mut bits = word;
                    while bits != 0 {
                        let to = perm[w * 64 + bits.trailing_zeros() as usize];
                        bits &= bits - 1;
                        image[c][to / 64] |= 1 << (to % 64);
                    }
                }
            }
            for &exchange in exchanges {
                let key = if exchange {
                    compose(&[image[1], image[0]])
                } else {
                    compose(&image)
                };
                best = best.min(key);
            }
        }
        Some(best)
    }
}

/// A position whose children are being checked.
struct Frame<G> {
    game: G,
    key: PositionKey,
    /// The winner's candidate actions (one must work), or all of the
    /// loser's (all must work).
    actions: Vec<Action>,
    next: usize,
    winner_moves: bool,
    /// Why the last candidate failed.
    failure: Option<CheckError>,
    /// Whether the guide was asked again for candidates avoiding the line.
    retried: bool,
}

/// What entering a position gave.
enum Entered<G> {
    /// Settled at once: a finished game, or a position checked before.
    Settled(Result<(), CheckError>),
    Open(Frame<G>),
}

/// Checks that `winner` wins `root`: depth first, with the guide's
/// candidates for the winner's action tried in order until one works, and
/// every action of the other side. With `symmetric`, a position whose image
/// was shown won counts as won (see `Images`); without, only the same
/// position does. Returns the number of positions checked.
///
/// The actions chosen form a strategy with one action per position, and no
/// position of it may be reached again below itself, so the games it allows
/// all end, in the winner's win.
pub fn check_win<G: Game>(
    root: &G,
    winner: Colour,
    guide: &mut dyn Guide<G>,
    symmetric: bool,
) -> Result<u64, CheckError> {
    let images = Images::of(root, symmetric);
    check_win_from(root, winner, guide, &images, &mut HashSet::new())
}

/// [`check_win`] that starts from positions `done` already shown won for
/// `winner` and adds the ones it shows: checks of several positions of one
/// game share their common part. Returns the size of `done` after it.
fn check_win_from<G: Game>(
    root: &G,
    winner: Colour,
    guide: &mut dyn Guide<G>,
    images: &Images,
    done: &mut dyn Shown,
) -> Result<u64, CheckError> {
    if root.topology().bits > 128 {
        return Err(CheckError::BoardTooLarge);
    }
    let mut on_path: HashSet<PositionKey> = HashSet::new();
    let mut stack: Vec<Frame<G>> = Vec::new();
    let mut line: Vec<Action> = Vec::new();
    let enter = |guide: &mut dyn Guide<G>,
                 game: G,
                 line: &Vec<Action>,
                 done: &dyn Shown,
                 on_path: &HashSet<PositionKey>|
     -> Entered<G> {
        if let Some(w) = game.winner() {
            return Entered::Settled(if w == winner {
                Ok(())
            } else {
                Err(CheckError::WrongWinner { line: line.clone() })
            });
        }
        let Some(key) = images.key(&game) else {
            return Entered::Settled(Err(CheckError::BoardTooLarge));
        };
        if done.contains(&key) {
            return Entered::Settled(Ok(()));
        }
        if on_path.contains(&key) {
            return Entered::Settled(Err(CheckError::Cycle { line: line.clone() }));
        }
        let winner_moves = game.to_move() == winner;
        let mut actions = Vec::new();
        if winner_moves {
            actions = guide.actions(&game);
            if let Some(&a) = actions.iter().find(|&&a| !game.is_legal(a)) {
                return Entered::Settled(Err(CheckError::Illegal {
                    line: line.clone(),
                    action: a,
                }));
            }
            // Candidates that lead to positions checked already go first.
            actions.sort_by_cached_key(|&a| {
                let mut next = game.clone();
                next.apply(a);
                let settled = next.winner() == Some(winner)
                    || images.key(&next).is_some_and(|k| done.contains(&k));
                !settled
            });
        } else {
            game.legal_actions(&mut actions);
            if actions.is_empty() {
                return Entered::Settled(Err(CheckError::Stalemate { line: line.clone() }));
            }
        }
        Entered::Open(Frame {
            game,
            key,
            actions,
            next: 0,
            winner_moves,
            failure: None,
            retried: false,
        })
    };
    let mut outcome = match enter(guide, root.clone(), &line, done, &on_path) {
        Entered::Settled(result) => return result.map(|()| done.count()),
        Entered::Open(frame) => {
            on_path.insert(frame.key);
            stack.push(frame);
            None
        }
    };
    while let Some(top) = stack.last_mut() {
        // The result of the child just checked, if any.
        let finished = match outcome.take() {
            Some(Ok(())) if top.winner_moves => Some(Ok(())),
            Some(Err(e)) if !top.winner_moves => Some(Err(e)),
            Some(Err(e)) => {
                top.failure = Some(e);
                None
            }
            Some(Ok(())) | None => None,
        };
        // Every candidate came back into the line: the guide may know
        // another way that avoids it.
        let retry = finished.is_none()
            && top.winner_moves
            && !top.retried
            && top.next == top.actions.len()
            && matches!(top.failure, Some(CheckError::Cycle { .. }));
        if retry {
            let depth = stack.len();
            let above: Vec<G> = stack[..depth - 1].iter().map(|f| f.game.clone()).collect();
            let game = stack[depth - 1].game.clone();
            let fresh = guide.actions_avoiding(&game, &above);
            let top = stack.last_mut().expect("not empty");
            top.retried = true;
            top.actions = fresh;
            top.next = 0;
            continue;
        }
        let finished = finished.or_else(|| {
            (top.next == top.actions.len()).then(|| {
                if top.winner_moves {
                    Err(top
                        .failure
                        .take()
                        .unwrap_or_else(|| CheckError::NoAction { line: line.clone() }))
                } else {
                    Ok(())
                }
            })
        });
        if let Some(result) = finished {
            let frame = stack.pop().expect("not empty");
            on_path.remove(&frame.key);
            if result.is_ok() {
                done.insert(frame.key);
            }
            line.pop();
            outcome = Some(result);
            continue;
        }
        let a = top.actions[top.next];
        top.next += 1;
        let mut child = top.game.clone();
        child.apply(a);
        line.push(a);
        match enter(guide, child, &line, done, &on_path) {
            Entered::Open(frame) => {
                on_path.insert(frame.key);
                stack.push(frame);
            }
            Entered::Settled(result) => {
                line.pop();
                outcome = Some(result);
            }
        }
    }
    outcome.unwrap_or(Ok(())).map(|()| done.count())
}

/// The solver's table as a guide: the winner's cheapest proven action;
/// where the table has lost it, a new search of that position finds one.
struct TableGuide<'a> {
    table: &'a Table,
    keys: &'a Keys,
    /// The attacker of the searches that proved the win.
    attacker: Colour,
    winner: Colour,
    config: DfpnConfig,
    searches: u64,
}

impl<G: Game> Guide<G> for TableGuide<'_> {
    fn actions(&mut self, game: &G) -> Vec<Action> {
        for attempt in 0..2 {
            let h = self.keys.hashes(game);
            let mut actions = Vec::new();
            game.legal_actions(&mut actions);
            // Every child's key first, its bucket fetched while the next
            // is computed; then the table read.
            let mut children: Vec<(Action, Result<u64, bool>)> = Vec::with_capacity(actions.len());
            for &a in &actions {
                let mut child = game.clone();
                child.apply(a);
                let looked = match child.winner() {
                    Some(w) => Err(w == self.winner),
                    None => {
                        let ch = self.keys.after(&h, a, &child);
                        let key = self.keys.key(&child, &ch, self.attacker);
                        self.table.prefetch(key);
                        Ok(key)
                    }
                };
                children.push((a, looked));
            }
            let mut proven: Vec<(u64, Action)> = Vec::new();
            for (a, looked) in children {
                let work = match looked {
                    Err(won) => won.then_some(0),
                    Ok(key) => self.table.proven_for(key, self.attacker, self.winner),
                };
                if let Some(w) = work {
                    proven.push((w, a));
                }
            }
            if !proven.is_empty() || attempt == 1 {
                proven.sort_by_key(|&(w, _)| w);
                return proven.into_iter().map(|(_, a)| a).collect();
            }
            // The table lost this position's proof: prove it again.
            self.search(game, &[]);
        }
        Vec::new()
    }

    /// A proof read from the table can lean on positions above it (a
    /// proven entry whose own proof was replaced in the table, then proven
    /// again through them): prove the position again with the line above
    /// it counting as repetitions.
    fn actions_avoiding(&mut self, game: &G, line: &[G]) -> Vec<Action> {
        let avoid: Vec<u64> = line
            .iter()
            .map(|g| self.keys.key(g, &self.keys.hashes(g), self.attacker))
            .collect();
        self.search(game, &avoid);
        self.actions(game)
    }
}

impl TableGuide<'_> {
    /// Proves `game` again into the table, with the positions `avoid`
    /// counting as repetitions.
    fn search<G: Game>(&mut self, game: &G, avoid: &[u64]) {
        let stop = std::sync::atomic::AtomicBool::new(false);
        let nodes = std::sync::atomic::AtomicU64::new(0);
        let mut search = Dfpn::new(
            self.table,
            self.keys,
            self.attacker,
            &stop,
            &nodes,
            self.config,
        );
        search.avoid(avoid);
        search.solve(game);
        self.searches += 1;
    }
}

/// Checks `solution`'s root value and every proven turn's value (a value
/// of neither side winning has no proof to walk and is left out), with the
/// solver's table as the guide.
pub(super) fn check_solution<G: Game>(
    game: &G,
    solution: &Solution,
    params: SolverParams,
    table: &Table,
) -> Result<u64, CheckError> {
    let kind = game.spec().kind;
    let keys = Keys::new(kind, game.topology(), params.symmetry);
    let config = params.dfpn_config(kind, false);
    let cyclic = config.cyclic;
    let mover = game.to_move();
    check_values(game, solution, params.symmetry, false, |winner| {
        // The searches of a game without repetitions prove the loser's
        // defeat as the mover's disproof; in Onyx the winner attacks.
        let attacker = if cyclic { winner } else { mover };
        TableGuide {
            table,
            keys: &keys,
            attacker,
            winner,
            config,
            searches: 0,
        }
    })
}

/// Checks `solution`'s values with the guide `guide_for(winner)` gives
/// for each; returns the positions checked. With `dense`, the positions
/// shown are kept as bits (see [`DenseShown`]) where the board allows.
pub(super) fn check_values<G: Game, D: Guide<G>>(
    game: &G,
    solution: &Solution,
    symmetric: bool,
    dense: bool,
    mut guide_for: impl FnMut(Colour) -> D,
) -> Result<u64, CheckError> {
    let mover = game.to_move();
    let cells = game.topology().cells();
    let empty = cells
        .iter()
        .filter(|&&c| game.stone_at(c).is_none())
        .count();
    let dense = dense && empty <= DENSE_EMPTY;
    // A dense set keeps the positions with the root's stones: images that
    // move them would not be kept.
    let images = Images::of(game, symmetric && !(dense && empty < cells.len()));
    // Positions shown won, for Black and for White, made when first needed.
    let mut done: [Option<Box<dyn Shown>>; 2] = [None, None];
    let mut check = |position: &G, value: Value| -> Result<(), CheckError> {
        let winner = match value {
            Value::Win => mover,
            Value::Loss => mover.opposite(),
            Value::Neither => return Ok(()),
        };
        let mut guide = guide_for(winner);
        let shown = done[usize::from(winner == Colour::White)].get_or_insert_with(|| {
            match dense.then(|| DenseShown::new(game)).flatten() {
                Some(d) => Box::new(d),
                None => Box::new(HashSet::<PositionKey>::new()),
            }
        });
        check_win_from(position, winner, &mut guide, &images, shown.as_mut())?;
        Ok(())
    };
    if let Some(value) = solution.value {
        check(game, value)?;
    }
    for t in &solution.turns {
        if let Some(value) = t.value {
            let mut position = game.clone();
            position.play_turn(&t.turn).expect("a legal turn");
            check(&position, value)?;
        }
    }
    Ok(done.iter().flatten().map(|d| d.count()).sum())
}
