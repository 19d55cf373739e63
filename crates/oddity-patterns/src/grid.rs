//! The features of Xodd, Yodd and Odd boards ([`GridBoard`]), read from a
//! position from scratch or kept up to date as stones are placed
//! ([`GridBoard::place`]); both give the same features (a test over random
//! games checks it after every action). Group connectivity is the rules'
//! (orthogonal on the square board); stones are never removed in these
//! games, so their groups are kept in a union-find.

use oddity_rules::{Action, BoardKind, Cell, Colour, Game, Topology};

use super::groups::{DISTANCE, Features, GROUPS, NONE};
use super::shape::{BLACK, EMPTY, Layout, OFF, OFF_BOARD, WHITE};

/// What a stone joins and touches.
struct Merge {
    /// Groups of its colour it joins.
    joined: usize,
    /// Groups of the other colour it touches.
    touched: usize,
    /// The size of the group it makes.
    size: usize,
    /// Whether a joined group was counted already (Odd).
    counted_before: bool,
    /// How the number of counted groups changes (Odd).
    count_change: i32,
}

/// A square or hex-hex board's stones, ring codes and groups.
#[derive(Clone)]
pub struct GridBoard {
    pub(crate) layout: &'static Layout,
    pub(crate) topo: &'static Topology,
    /// Odd: the smallest group that counts.
    min_group: Option<usize>,
    /// Per cell index: [`EMPTY`], [`BLACK`] or [`WHITE`].
    stones: Vec<u8>,
    /// Per cell index: the ring code with absolute colours.
    codes: Vec<u32>,
    parent: Vec<u16>,
    size: Vec<u16>,
    /// The last two stones placed, the newest first.
    last: [Option<Cell>; 2],
    /// Odd: groups of at least the smallest counted size, both colours.
    counted: u32,
}

fn digit(colour: Colour) -> u32 {
    match colour {
        Colour::Black => BLACK,
        Colour::White => WHITE,
    }
}

impl GridBoard {
    /// The board of `game` from scratch; `None` for an Onyx board.
    pub(crate) fn new<G: Game>(game: &G, last: &[Cell]) -> Option<GridBoard> {
        let topo = game.topology();
        let layout = Layout::get(topo)?;
        let mut board = GridBoard {
            layout,
            topo,
            min_group: None,
            stones: Vec::new(),
            codes: Vec::new(),
            parent: Vec::new(),
            size: Vec::new(),
            last: [None; 2],
            counted: 0,
        };
        board.load(game, last);
        Some(board)
    }

    pub(crate) fn load<G: Game>(&mut self, game: &G, last: &[Cell]) {
        debug_assert!(std::ptr::eq(game.topology(), self.topo));
        let bits = self.topo.bits;
        self.min_group = game
            .spec()
            .kind
            .has_min_group()
            .then(|| game.spec().min_group());
        self.stones.clear();
        self.stones.resize(bits, EMPTY as u8);
        for &c in self.topo.cells() {
            if let Some(colour) = game.stone_at(c) {
                self.stones[c.index()] = digit(colour) as u8;
            }
        }
        self.codes.clear();
        self.codes.resize(bits, 0);
        for &c in self.topo.cells() {
            self.codes[c.index()] =
                self.layout
                    .ring(c)
                    .iter()
                    .enumerate()
                    .fold(0, |code, (i, &n)| {
                        let d = if n == OFF {
                            OFF_BOARD
                        } else {
                            u32::from(self.stones[n as usize])
                        };
                        code | d << (2 * i)
                    });
        }
        self.parent.clear();
        self.parent.extend(0..bits as u16);
        self.size.clear();
        self.size.resize(bits, 1);
        for &c in self.topo.cells() {
            if self.stones[c.index()] != EMPTY as u8 {
                self.join_neighbours(c);
            }
        }
        self.last = [last.first().copied(), last.get(1).copied()];
        self.counted = match self.min_group {
            Some(m) => self
                .topo
                .cells()
                .iter()
                .filter(|c| {
                    let i = c.index();
                    self.stones[i] != EMPTY as u8
                        && self.parent[i] as usize == i
                        && usize::from(self.size[i]) >= m
                })
                .count() as u32,
            None => 0,
        };
    }

    /// Plays `action` on the board: a stone updates its neighbours' rings
    /// and the groups; other actions change nothing.
    pub fn place(&mut self, action: Action) {
        if !action.is_stone() {
            return;
        }
        let (c, d) = (action.cell(), digit(action.colour()));
        debug_assert_eq!(self.stones[c.index()], EMPTY as u8);
        if self.min_group.is_some() {
            let change = self.merge(c, d as u8).count_change;
            self.counted = self.counted.wrapping_add_signed(change);
        }
        self.stones[c.index()] = d as u8;
        for (i, &n) in self.layout.ring(c).iter().enumerate() {
            if n != OFF {
                self.codes[n as usize] |= d << (2 * self.layout.opposite(i));
            }
        }
        self.join_neighbours(c);
        self.last = [Some(c), self.last[0]];
    }

    fn find(&mut self, c: usize) -> usize {
        let mut root = c;
        while self.parent[root] as usize != root {
            root = self.parent[root] as usize;
        }
        let mut at = c;
        while self.parent[at] as usize != root {
            let next = self.parent[at] as usize;
            self.parent[at] = root as u16;
            at = next;
        }
        root
    }

    fn root(&self, mut c: usize) -> usize {
        while self.parent[c] as usize != c {
            c = self.parent[c] as usize;
        }
        c
    }

    fn join_neighbours(&mut self, c: Cell) {
        let colour = self.stones[c.index()];
        for &n in self.topo.neighbours(c) {
            if self.stones[n.index()] != colour {
                continue;
            }
            let (a, b) = (self.find(c.index()), self.find(n.index()));
            if a != b {
                let (big, small) = if self.size[a] >= self.size[b] {
                    (a, b)
                } else {
                    (b, a)
                };
                self.parent[small] = big as u16;
                self.size[big] += self.size[small];
            }
        }
    }

    /// The stone on `cell`: 0 (empty), 1 (black) or 2 (white).
    pub fn stone(&self, cell: Cell) -> u32 {
        u32::from(self.stones[cell.index()])
    }

    /// The ring code of `cell` (absolute colours).
    pub fn code(&self, cell: Cell) -> u32 {
        self.codes[cell.index()]
    }

    /// The features of `action` (legal here) for `mover`; `specials` is
    /// the first special `shape` value.
    pub(crate) fn features(&self, action: Action, mover: Colour, specials: u32) -> Features {
        let special = |k: u32| {
            let mut f = [NONE; GROUPS];
            f[0] = specials + k;
            f
        };
        match action {
            Action::PASS => return special(0),
            Action::END_TURN => return special(1),
            Action::SWAP => return special(2),
            _ => {}
        }
        let (c, colour) = (action.cell(), action.colour());
        let mine = u32::from(colour == mover);
        let Merge {
            joined,
            touched,
            size,
            counted_before,
            count_change,
        } = self.merge(c, digit(colour) as u8);
        let shape = self.layout.canonical(colour.index(), self.codes[c.index()]) * 2 + mine;
        let joins = (joined.min(3) as u32) * 2 + mine;
        let touches = (touched.min(3) as u32) * 2 + mine;
        let size_class = match self.min_group {
            None => NONE,
            Some(_) if counted_before => 2 * 2 + mine,
            Some(m) if size >= m => 2 + mine,
            Some(_) => mine,
        };
        let count = match self.min_group {
            None => NONE,
            Some(_) => {
                let after = self.counted.wrapping_add_signed(count_change);
                // Black wins with an odd count, White with an even one.
                let wins = (after % 2 == 1) == (mover == Colour::Black);
                (count_change.clamp(-2, 1) + 2) as u32 * 2 + u32::from(wins)
            }
        };
        let distance = self
            .last
            .iter()
            .flatten()
            .map(|&l| self.steps(c, l))
            .min()
            .map_or(DISTANCE - 1, |d| (d.clamp(1, 4) - 1) as u32);
        [
            shape, joins, touches, size_class, count, distance, NONE, NONE, NONE, NONE,
        ]
    }

    /// What a stone of `own` colour on `c` would join and touch.
    fn merge(&self, c: Cell, own: u8) -> Merge {
        let mut roots = [usize::MAX; 6];
        let mut other_roots = [usize::MAX; 6];
        let mut m = Merge {
            joined: 0,
            touched: 0,
            size: 1,
            counted_before: false,
            count_change: 0,
        };
        let counts = |size: usize| self.min_group.is_some_and(|g| size >= g);
        for &n in self.topo.neighbours(c) {
            let s = self.stones[n.index()];
            if s == EMPTY as u8 {
                continue;
            }
            let r = self.root(n.index());
            if s == own {
                if !roots[..m.joined].contains(&r) {
                    roots[m.joined] = r;
                    m.joined += 1;
                    m.size += usize::from(self.size[r]);
                    if counts(usize::from(self.size[r])) {
                        m.counted_before = true;
                        m.count_change -= 1;
                    }
                }
            } else if !other_roots[..m.touched].contains(&r) {
                other_roots[m.touched] = r;
                m.touched += 1;
            }
        }
        m.count_change += i32::from(counts(m.size));
        m
    }

    /// Steps between two cells: king steps on the square board (its ring
    /// has the diagonals), hex steps on hex-hex boards.
    fn steps(&self, a: Cell, b: Cell) -> usize {
        let (ax, ay) = self.topo.coords(a);
        let (bx, by) = self.topo.coords(b);
        let (dx, dy) = (ax as isize - bx as isize, ay as isize - by as isize);
        match self.layout.kind {
            BoardKind::Square => dx.unsigned_abs().max(dy.unsigned_abs()),
            // Neighbours differ by (1, 0), (0, 1) or (1, 1) up to sign.
            BoardKind::HexHex | BoardKind::Onyx => {
                if (dx >= 0) == (dy >= 0) {
                    dx.unsigned_abs().max(dy.unsigned_abs())
                } else {
                    dx.unsigned_abs() + dy.unsigned_abs()
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oddity_rules::{AnyGame, GameKind, GameSpec, Rng, Rules, with_game};

    /// Plays random games action by action; after every action the board
    /// kept up to date equals the board read from scratch, ring codes and
    /// the features of every legal action alike.
    fn incremental_equals_scratch<G: Game>(start: &G, games: u64) {
        let mut actions = Vec::new();
        for seed in 0..games {
            let mut rng = Rng::seeded(seed);
            let mut game = start.clone();
            let mut board = GridBoard::new(&game, &[]).unwrap();
            let mut last: Vec<Cell> = Vec::new();
            while !game.is_over() {
                actions.clear();
                game.legal_actions(&mut actions);
                let scratch = GridBoard::new(&game, &last).unwrap();
                for &c in game.topology().cells() {
                    assert_eq!(board.code(c), scratch.code(c), "ring of {c:?}");
                    assert_eq!(board.stone(c), scratch.stone(c));
                }
                assert_eq!(board.counted, scratch.counted);
                let mover = game.to_move();
                for &a in &actions {
                    assert_eq!(
                        board.features(a, mover, 0),
                        scratch.features(a, mover, 0),
                        "{a:?}"
                    );
                }
                let a = actions[rng.below(actions.len() as u32) as usize];
                game.apply(a);
                board.place(a);
                if a.is_stone() {
                    last.insert(0, a.cell());
                    last.truncate(2);
                }
            }
        }
    }

    #[test]
    fn features_kept_up_to_date_equal_features_from_scratch() {
        for (kind, size, games) in [
            (GameKind::Odd, 4, 30),
            (GameKind::Odd, 5, 10),
            (GameKind::Xodd, 5, 30),
            (GameKind::Xodd, 12, 3),
            (GameKind::Yodd, 4, 30),
        ] {
            let spec = GameSpec::new(kind, size, Rules::default()).unwrap();
            with_game!(AnyGame::new(&spec), g => incremental_equals_scratch(&g, games));
        }
    }
}
