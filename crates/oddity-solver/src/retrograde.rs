//! Retrograde analysis: every position that can follow a position valued
//! at once.
//!
//! In Xodd, Yodd and Odd no stone is ever taken off, so every position that
//! follows a root keeps the root's stones and fills some of its empty
//! cells. Such a position can be written as a number of base-3 digits, one
//! per empty cell of the root (0 empty, 1 black, 2 white), and every child
//! of a position has a larger number. Valuing the numbers from the largest
//! down values each position after all of its children. The table holds one
//! byte per number, `3^empty` bytes in all, which puts roots with up to
//! about 20 empty cells in reach (the empty Yodd 3 and Odd 3 boards have
//! 19: 1.1 GiB).
//!
//! What a byte holds, for each seat s to move (bit `3s + k`):
//! - Xodd, Yodd: k = 0 the start of a turn after a stone turn, k = 1 the
//!   start of a turn right after a pass (passing again ends the game),
//!   k = 2 the middle of a turn, after its first stone (the mover may end
//!   the turn, when the groups are odd, or place a second stone anywhere).
//!   A turn start with an even number of groups (a set-up position) has
//!   no pass.
//! - Odd: k = 0, the only state.
//!
//! A bit is set when the seat to move wins. Black's first turn (one stone
//! only) is the one state the table does not hold: it is valued from its
//! turns.
//!
//! The table sees the board as a graph of at most 64 points: the root's
//! empty cells, and each group of the root's stones that touches one of
//! them, as one point weighing its stones. Groups of the root that touch
//! no empty cell can never change: they only add to the counts. So a late
//! position of a large board (Xodd 12, Yodd 8, Odd 7) is in reach as well
//! as a small board.
//!
//! The sweep splits the numbers by their highest digits: the positions
//! whose digit is 2 and those whose digit is 1 never reach each other, so
//! they are valued in parallel, and those whose digit is 0 (which reach
//! both) after them.

use std::sync::atomic::{AtomicU8, Ordering};

use crate::proof::Guide;
use oddity_rules::{Action, Cell, Colour, Game, GameKind, GameSpec, Turn};

/// The most empty cells a table handles (3^21 bytes is 10.5 GB).
pub const MAX_EMPTY: usize = 21;

/// The most points (empty cells and the root's groups next to them) the
/// table's position masks hold.
const MAX_POINTS: usize = 64;

/// Digits valued by one thread without splitting further.
const LEAF_DIGITS: usize = 10;

const T0: u8 = 0;
const T1: u8 = 1;
const MID: u8 = 2;

fn bit(seat: usize, state: u8) -> u8 {
    1 << (3 * seat as u8 + state)
}

/// `bit(seat, state)` when `on`, else nothing.
fn flag(on: bool, seat: usize, state: u8) -> u8 {
    if on { bit(seat, state) } else { 0 }
}

/// Why a table cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RetrogradeError {
    #[error("retrograde analysis is for Xodd, Yodd and Odd (stones are never taken off)")]
    /// Onyx: captures take stones off.
    Game,
    #[error(
        "the position's empty cells and the groups next to them are {points} points; retrograde analysis handles at most {MAX_POINTS}"
    )]
    /// Too many points (empty cells and the groups next to them).
    TooManyPoints {
        /// The position's points.
        points: usize,
    },
    #[error(
        "the position has {empty} empty cells; retrograde analysis handles at most {MAX_EMPTY}"
    )]
    /// Too many empty cells.
    TooManyEmpty {
        /// The position's empty cells.
        empty: usize,
    },
    #[error("the table needs {needed_mb} MiB, more than the {memory_mb} MiB allowed (--memory)")]
    /// More memory than allowed.
    Memory {
        /// What the table needs, in MiB.
        needed_mb: usize,
        /// What is allowed, in MiB.
        memory_mb: usize,
    },
}

/// The bytes a table for the positions that follow `root` takes, if they
/// are in reach at all.
pub fn table_bytes<G: Game>(root: &G) -> Result<u64, RetrogradeError> {
    Ok(3u64.pow(Graph::of(root)?.free.len() as u32))
}

/// The root's board as the table sees it. Points `0..free.len()` are the
/// root's empty cells (point d is digit d of a position's number); the
/// points after them are the root's groups that touch an empty cell.
pub(crate) struct Graph {
    pub(crate) free: Vec<Cell>,
    /// Per point: its neighbours' bits.
    neighbours: Vec<u64>,
    /// Per point: the stones it stands for (1 for an empty cell).
    weight: Vec<u32>,
    /// The root's groups that touch an empty cell, per colour.
    pub(crate) fixed: [u64; 2],
    /// The root's groups that touch no empty cell, per colour: they stay
    /// as they are.
    closed: [u32; 2],
    /// Of those, the groups of at least the smallest counted size (Odd).
    pub(crate) closed_large: u32,
    /// The root's stones.
    stones: Vec<(Cell, Colour)>,
}

impl Graph {
    pub(crate) fn of<G: Game>(root: &G) -> Result<Graph, RetrogradeError> {
        if root.spec().kind.has_captures() {
            return Err(RetrogradeError::Game);
        }
        let topo = root.topology();
        let cells = topo.cells();
        let free: Vec<Cell> = cells
            .iter()
            .copied()
            .filter(|&c| root.stone_at(c).is_none())
            .collect();
        if free.len() > MAX_EMPTY {
            return Err(RetrogradeError::TooManyEmpty { empty: free.len() });
        }
        // Point of each cell: the empty cells first, then each group that
        // touches one of them; `usize::MAX` for a group closed off.
        let mut point = vec![usize::MAX; topo.bits];
        for (d, c) in free.iter().enumerate() {
            point[c.index()] = d;
        }
        let mut open_groups: Vec<(Colour, Vec<Cell>)> = Vec::new();
        let (mut closed, mut closed_large) = ([0u32; 2], 0);
        let mut seen = vec![false; topo.bits];
        let mut stones = Vec::new();
        for &start in cells {
            let Some(colour) = root.stone_at(start) else {
                continue;
            };
            stones.push((start, colour));
            if seen[start.index()] {
                continue;
            }
            seen[start.index()] = true;
            let (mut group, mut at, mut open) = (vec![start], 0, false);
            while at < group.len() {
                for &n in topo.neighbours(group[at]) {
                    match root.stone_at(n) {
                        None => open = true,
                        Some(c) if c == colour && !seen[n.index()] => {
                            seen[n.index()] = true;
                            group.push(n);
                        }
                        Some(_) => {}
                    }
                }
                at += 1;
            }
            if open {
                open_groups.push((colour, group));
            } else {
                closed[colour.index()] += 1;
                closed_large += u32::from(group.len() >= root.spec().min_group());
            }
        }
        let points = free.len() + open_groups.len();
        if points > MAX_POINTS {
            return Err(RetrogradeError::TooManyPoints { points });
        }
        let mut weight = vec![1; free.len()];
        let mut fixed = [0u64; 2];
        for (colour, group) in open_groups {
            let p = weight.len();
            weight.push(group.len() as u32);
            fixed[colour.index()] |= 1 << p;
            for c in group {
                point[c.index()] = p;
            }
        }
        let mut neighbours = vec![0u64; weight.len()];
        for &c in cells {
            let p = point[c.index()];
            for &n in topo.neighbours(c) {
                let q = point[n.index()];
                // Points meet where an empty cell touches a cell of another
                // point (never two groups: those are of two colours).
                if p != usize::MAX
                    && q != usize::MAX
                    && p != q
                    && (p < free.len() || q < free.len())
                {
                    neighbours[p] |= 1 << q;
                }
            }
        }
        Ok(Graph {
            free,
            neighbours,
            weight,
            fixed,
            closed,
            closed_large,
            stones,
        })
    }

    /// The group of `stones` that holds the stone `seed`, and the points
    /// next to it (its own included).
    pub(crate) fn group_of(&self, seed: u64, stones: u64) -> (u64, u64) {
        let (mut group, mut frontier, mut around) = (seed, seed, 0u64);
        while frontier != 0 {
            let mut next = 0;
            let mut f = frontier;
            while f != 0 {
                next |= self.neighbours[f.trailing_zeros() as usize];
                f &= f - 1;
            }
            around |= next;
            frontier = next & stones & !group;
            group |= frontier;
        }
        (group, around)
    }

    /// Groups of `stones` with at least `m` of them.
    pub(crate) fn large_groups(&self, stones: u64, m: u32) -> u32 {
        let mut count = 0;
        let mut rest = stones;
        while rest != 0 {
            let (group, _) = self.group_of(rest & rest.wrapping_neg(), stones);
            count += u32::from(self.weight_of(group) >= m);
            rest &= !group;
        }
        count
    }

    /// The stones the points of `group` stand for.
    fn weight_of(&self, mut group: u64) -> u32 {
        let mut stones = 0;
        while group != 0 {
            stones += self.weight[group.trailing_zeros() as usize];
            group &= group - 1;
        }
        stones
    }
}

/// The value of every position that can follow a root.
pub struct Retrograde {
    spec: GameSpec,
    graph: Graph,
    /// Per digit d: 3^d.
    powers: Vec<usize>,
    values: Vec<AtomicU8>,
}

impl Retrograde {
    /// Values every position that can follow `root`, with up to
    /// `memory_mb` MiB.
    pub fn build<G: Game>(root: &G, memory_mb: usize) -> Result<Retrograde, RetrogradeError> {
        let graph = Graph::of(root)?;
        let bytes = 3u64.pow(graph.free.len() as u32);
        let needed_mb = bytes.div_ceil(1 << 20) as usize;
        if needed_mb > memory_mb {
            return Err(RetrogradeError::Memory {
                needed_mb,
                memory_mb,
            });
        }
        let powers: Vec<usize> = (0..=graph.free.len())
            .map(|i| 3usize.pow(i as u32))
            .collect();
        let [black, white] = graph.fixed;
        let table = Retrograde {
            spec: *root.spec(),
            powers,
            values: std::iter::repeat_with(|| AtomicU8::new(0))
                .take(bytes as usize)
                .collect(),
            graph,
        };
        table.sweep(table.graph.free.len(), 0, black, white);
        Ok(table)
    }

    /// Positions valued.
    pub fn positions(&self) -> u64 {
        self.values.len() as u64
    }

    /// Values the numbers `base + [0, 3^free)`, whose digits from `free` up
    /// are fixed and give the stones `black`, `white`.
    fn sweep(&self, free: usize, base: usize, black: u64, white: u64) {
        if free <= LEAF_DIGITS {
            self.leaf(free, base, black, white);
            return;
        }
        let d = free - 1;
        let p = self.powers[d];
        let at = 1u64 << d;
        rayon::join(
            || self.sweep(d, base + 2 * p, black, white | at),
            || self.sweep(d, base + p, black | at, white),
        );
        self.sweep(d, base, black, white);
    }

    fn leaf(&self, free: usize, base: usize, black: u64, white: u64) {
        let all_free = (1u64 << self.graph.free.len()) - 1;
        // The low digits as an odometer counting down from all 2s (white).
        let mut digits = [2u8; LEAF_DIGITS];
        let (mut b, mut w) = (black, white);
        w |= (1u64 << free) - 1;
        for low in (0..self.powers[free]).rev() {
            let at = base + low;
            let empty = all_free & !(b | w);
            let value = match self.spec.kind {
                GameKind::Odd => self.value_odd(at, b, w, empty),
                GameKind::Xodd | GameKind::Yodd => self.value_parity(at, b, w, empty),
                GameKind::Onyx => unreachable!("no table is made for a game with captures"),
            };
            self.values[at].store(value, Ordering::Relaxed);
            count_down(&mut digits[..free], 0, &mut b, &mut w);
        }
    }

    fn get(&self, at: usize) -> u8 {
        self.values[at].load(Ordering::Relaxed)
    }

    /// The groups of `stones`: how many, and per point the parity of the
    /// number of groups it touches.
    fn groups(&self, stones: u64) -> (u32, u64) {
        let (mut count, mut touching_odd) = (0, 0);
        let mut rest = stones;
        while rest != 0 {
            let (group, around) = self.graph.group_of(rest & rest.wrapping_neg(), stones);
            count += 1;
            touching_odd ^= around & !stones;
            rest &= !group;
        }
        (count, touching_odd)
    }

    fn value_parity(&self, at: usize, b: u64, w: u64, empty: u64) -> u8 {
        let (nb, odd_b) = self.groups(b);
        let (nw, odd_w) = self.groups(w);
        let (nb, nw) = (nb + self.graph.closed[0], nw + self.graph.closed[1]);
        let odd = (nb + nw) % 2 == 1;
        // A stone next to k groups of its colour changes the total by
        // 1 - k: the total stays odd after it where k has the parity
        // that keeps it.
        let odd_after = |touching_odd: u64| if odd { touching_odd } else { !touching_odd };
        let mut stone_wins = [false; 2];
        let mut second_wins = [false; 2];
        for (colour, odd_child) in [(1, odd_after(odd_b)), (2, odd_after(odd_w))] {
            let mut e = empty;
            while e != 0 {
                let d = e.trailing_zeros() as usize;
                e &= e - 1;
                let child = self.get(at + colour * self.powers[d]);
                for s in 0..2 {
                    stone_wins[s] |= child & bit(s, MID) != 0;
                    if odd_child >> d & 1 == 1 {
                        second_wins[s] |= child & bit(1 - s, T0) == 0;
                    }
                }
            }
        }
        let mut value = 0;
        if odd {
            let fewer = [nb < nw, nw < nb];
            let t1 = [stone_wins[0] || fewer[0], stone_wins[1] || fewer[1]];
            let t0 = [stone_wins[0] || !t1[1], stone_wins[1] || !t1[0]];
            for s in 0..2 {
                value |= flag(t0[s], s, T0) | flag(t1[s], s, T1);
                // Ending the turn here.
                second_wins[s] |= !t0[1 - s];
            }
        } else {
            // An even turn start (only a set-up position has one): no pass,
            // stones only.
            for (s, &wins) in stone_wins.iter().enumerate() {
                value |= flag(wins, s, T0) | flag(wins, s, T1);
            }
        }
        for (s, &wins) in second_wins.iter().enumerate() {
            value |= flag(wins, s, MID);
        }
        value
    }

    fn value_odd(&self, at: usize, b: u64, w: u64, empty: u64) -> u8 {
        if empty == 0 {
            let m = self.spec.min_group() as u32;
            let large = self.graph.large_groups(b, m)
                + self.graph.large_groups(w, m)
                + self.graph.closed_large;
            let black_wins = large % 2 == 1;
            return if black_wins { bit(0, T0) } else { bit(1, T0) };
        }
        let mut wins = [false; 2];
        'children: for colour in [1, 2] {
            let mut e = empty;
            while e != 0 {
                let d = e.trailing_zeros() as usize;
                e &= e - 1;
                let child = self.get(at + colour * self.powers[d]);
                for (s, win) in wins.iter_mut().enumerate() {
                    *win |= child & bit(1 - s, T0) == 0;
                }
                if wins == [true, true] {
                    break 'children;
                }
            }
        }
        flag(wins[0], 0, T0) | flag(wins[1], 1, T0)
    }

    /// The number of `game`'s stones, which must include the root's.
    fn number_of<G: Game>(&self, game: &G) -> usize {
        debug_assert!(
            self.graph
                .stones
                .iter()
                .all(|&(c, colour)| game.stone_at(c) == Some(colour)),
            "a position that keeps the root's stones"
        );
        self.graph
            .free
            .iter()
            .enumerate()
            .map(|(d, &c)| match game.stone_at(c) {
                Some(Colour::Black) => self.powers[d],
                Some(Colour::White) => 2 * self.powers[d],
                None => 0,
            })
            .sum()
    }

    /// Whether `seat` wins `game` with best play from both sides. `game`
    /// must follow this table's root: the same game and board, with the
    /// root's stones.
    pub fn wins<G: Game>(&self, game: &G, seat: Colour) -> bool {
        debug_assert_eq!(game.spec(), &self.spec);
        if let Some(w) = game.winner() {
            return w == seat;
        }
        let mover = game.to_move();
        let state = game.turn_state();
        // Bit 0 of the flags is Xodd and Yodd's restricted first turn (Odd
        // keeps none, and no table is made for Onyx).
        let mover_wins = if state.flags & 1 != 0 {
            // Black's first turn: one stone, valued through its turns.
            game.legal_turns().iter().any(|t| {
                let mut next = game.clone();
                next.play_turn(t).expect("a legal turn");
                self.wins(&next, mover)
            })
        } else {
            let s = mover.index();
            let k = match self.spec.kind {
                GameKind::Odd => T0,
                GameKind::Xodd | GameKind::Yodd if game.mid_turn() => MID,
                GameKind::Xodd | GameKind::Yodd if state.flags & 2 != 0 => T1,
                GameKind::Xodd | GameKind::Yodd => T0,
                GameKind::Onyx => unreachable!("no table is made for a game with captures"),
            };
            self.get(self.number_of(game)) & bit(s, k) != 0
        };
        mover_wins == (seat == mover)
    }
}

/// Exact values of every position that can follow a root, as a table
/// holds them.
pub trait ExactTable {
    /// Whether `seat` wins `game` with best play from both sides. `game`
    /// must follow the table's root: the same game and board, with the
    /// root's stones.
    fn wins<G: Game>(&self, game: &G, seat: Colour) -> bool;

    /// Positions valued.
    fn positions(&self) -> u64;

    /// The winner's actions that keep the win in `game` (where the winner
    /// moves): first those that end the game, then those that end the turn.
    fn winning_actions<G: Game>(&self, game: &G, winner: Colour) -> Vec<Action> {
        let mut actions = Vec::new();
        game.legal_actions(&mut actions);
        let mut keep: Vec<(u8, Action)> = actions
            .into_iter()
            .filter_map(|a| {
                let mut next = game.clone();
                next.apply(a);
                let rank = if next.is_over() {
                    0
                } else if !next.mid_turn() {
                    1
                } else {
                    2
                };
                self.wins(&next, winner).then_some((rank, a))
            })
            .collect();
        keep.sort_by_key(|&(rank, _)| rank);
        keep.into_iter().map(|(_, a)| a).collect()
    }

    /// A line of best play from `game` to the end: the winner's winning
    /// turns, and for the loser the turn that leaves the winner the fewest
    /// winning replies.
    fn principal_line<G: Game>(&self, game: &G) -> Vec<Turn> {
        let mut line = Vec::new();
        let mut at = game.clone();
        let empty = game
            .topology()
            .cells()
            .iter()
            .filter(|&&c| game.stone_at(c).is_none())
            .count();
        while !at.is_over() && line.len() < 4 * empty + 4 {
            let mover = at.to_move();
            let after: Vec<(Turn, G)> = at
                .legal_turns()
                .into_iter()
                .map(|t| {
                    let mut next = at.clone();
                    next.play_turn(&t).expect("a legal turn");
                    (t, next)
                })
                .collect();
            let pick = if self.wins(&at, mover) {
                after.into_iter().find(|(_, next)| self.wins(next, mover))
            } else {
                let winning_replies = |next: &G| {
                    if next.is_over() {
                        return usize::MAX;
                    }
                    let replier = next.to_move();
                    next.legal_turns()
                        .iter()
                        .filter(|t| {
                            let mut reply = next.clone();
                            reply.play_turn(t).expect("a legal turn");
                            self.wins(&reply, replier)
                        })
                        .count()
                };
                after
                    .into_iter()
                    .min_by_key(|(_, next)| winning_replies(next))
            };
            let Some((turn, next)) = pick else { break };
            line.push(turn);
            at = next;
        }
        line
    }
}

impl ExactTable for Retrograde {
    fn wins<G: Game>(&self, game: &G, seat: Colour) -> bool {
        Retrograde::wins(self, game, seat)
    }

    fn positions(&self) -> u64 {
        Retrograde::positions(self)
    }
}

/// The table as a proof checker's guide: the winner's actions that keep
/// the win.
pub struct RetrogradeGuide<'a, T: ExactTable> {
    /// The table.
    pub table: &'a T,
    /// The side whose win is checked.
    pub winner: Colour,
}

impl<G: Game, T: ExactTable> Guide<G> for RetrogradeGuide<'_, T> {
    fn actions(&mut self, game: &G) -> Vec<Action> {
        self.table.winning_actions(game, self.winner)
    }
}

/// One step down of an odometer of base-3 digits (0 empty, 1 black, 2
/// white) whose digit `d` is the cell at bit `first + d` of the stone
/// masks `black` and `white`, which follow the digits.
#[inline]
pub(crate) fn count_down(digits: &mut [u8], first: usize, black: &mut u64, white: &mut u64) {
    for (d, digit) in digits.iter_mut().enumerate() {
        let bit = 1u64 << (first + d);
        match *digit {
            2 => {
                *digit = 1;
                *white &= !bit;
                *black |= bit;
                return;
            }
            1 => {
                *digit = 0;
                *black &= !bit;
                return;
            }
            _ => {
                // Borrow: this digit wraps round to 2.
                *digit = 2;
                *white |= bit;
            }
        }
    }
}
