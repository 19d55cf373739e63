//! The softmax playout policy of Xodd, Yodd and Odd (`--param
//! pattern_playouts=on`): each stone (empty cell, colour) weighs the
//! product of the gammas of its `shape`, `joins` and `touches` features for
//! the side to move ([`super::features`]), and the rules' playout
//! ([`oddity_rules::XoddYoddGame::playout_drawing`],
//! [`oddity_rules::OddGame::playout_drawing`]) draws every stone in
//! proportion to its weight among the legal ones (in Odd, all of them).
//!
//! The weights are kept for both movers (a feature says whether the stone
//! has the mover's colour) and recomputed only where a placed stone
//! changes them: the empty cells of its ring (their shape), and when it
//! joins two or more groups, the empty cells that touched two or more of
//! them (their `joins` or `touches` count falls; such cells are known from
//! the counts kept per cell). The `distance` feature changes everywhere
//! with every stone and is left out, as are Odd's `size` and `count`: a
//! stone changes them on cells far from it (every cell next to a group
//! that grows, every cell when the count of groups changes). Draws go through per-block sums of
//! [`BLOCK`] weights: one pass over the blocks, one within a block.
//!
//! With a temperature `t` each gamma is raised to the power `1 / t`
//! (`--param pattern_temperature`): above 1 the draws are nearer uniform.
//! The gamma tables (per colour and ring code, the `shape` gamma for a
//! stone of the mover's colour and of the other) are built once per board,
//! weights and temperature and shared by every search thread.

use oddity_rules::{Cell, Colour, DrawnBoard, Game, Rng, StoneDraw, Topology, internals::OnceMap};

use super::draw::weighted_leaf;
use super::policy::PlayoutPolicy;
use super::shape::{BLACK, EMPTY, Layout, OFF, OFF_BOARD, WHITE};
use super::weights::Weights;

/// Weights per block sum (8 cells of two colours).
const BLOCK: usize = 16;

/// Feature groups the policy uses (see [`super::features::GROUP_NAMES`]).
const SHAPE: usize = 0;
const JOINS: usize = 1;
const TOUCHES: usize = 2;

/// The gammas the policy multiplies, raised to `1 / temperature`.
struct Gammas {
    /// `shape[colour * 4^len + code]`: for a stone of `colour` on a cell
    /// with ring `code` (absolute colours), the `shape` gamma when the
    /// colour is not the mover's, then when it is.
    shape: Vec<[f32; 2]>,
    /// Per groups joined (0..3+), then mover's colour or not: the value's
    /// index in the group, as in [`super::features`].
    joins: [f32; 8],
    touches: [f32; 8],
}

impl Gammas {
    /// The shared tables of `weights` on boards of `layout` at `temperature`.
    fn get(
        weights: &'static Weights,
        layout: &'static Layout,
        temperature: f32,
    ) -> &'static Gammas {
        static BUILT: OnceMap<(usize, usize, u32), Gammas> = OnceMap::new();
        let key = (
            weights as *const Weights as usize,
            layout as *const Layout as usize,
            temperature.to_bits(),
        );
        BUILT.get_or_build(key, || {
            let power = 1.0 / f64::from(temperature);
            let gamma =
                |group: usize, v: u32| weights.gamma(weights.index(group, v)).powf(power) as f32;
            let codes = layout.codes();
            let shape = (0..2 * codes)
                .map(|k| {
                    let canon = layout.canonical(k / codes, (k % codes) as u32);
                    [gamma(SHAPE, canon * 2), gamma(SHAPE, canon * 2 + 1)]
                })
                .collect();
            Box::new(Gammas {
                shape,
                joins: std::array::from_fn(|v| gamma(JOINS, v as u32)),
                touches: std::array::from_fn(|v| gamma(TOUCHES, v as u32)),
            })
        })
    }
}

/// The policy's state for one board, weights file and temperature; a
/// search thread keeps one and reuses its buffers for every playout.
#[derive(Clone)]
pub struct PatternPlayout {
    weights: &'static Weights,
    temperature: f32,
    gammas: &'static Gammas,
    layout: &'static Layout,
    topo: &'static Topology,
    /// Per cell index: the ring code with absolute colours.
    codes: Vec<u32>,
    /// Per empty cell and colour: distinct groups of that colour next to it.
    groups: Vec<[u8; 2]>,
    /// Per colour: bit set for the empty cells next to two or more groups
    /// of that colour.
    multi: [Vec<u64>; 2],
    /// Per mover: the weight of a stone of colour `c` on cell `i` at
    /// `2 * i + c` (0 for occupied cells and cells off the board).
    leaves: [Vec<f32>; 2],
    /// Per mover: the sums of [`BLOCK`] leaves.
    blocks: [Vec<f32>; 2],
    /// Cells whose weights a placed stone changed (reused buffer).
    dirty: Vec<u16>,
}

/// Colours as the ring code's digits.
fn digit(colour: Colour) -> u32 {
    match colour {
        Colour::Black => BLACK,
        Colour::White => WHITE,
    }
}

impl PlayoutPolicy for PatternPlayout {
    /// The policy for games on `topo` with `weights` at `temperature`
    /// (above 0); `None` for a board without patterns.
    fn new(
        weights: &'static Weights,
        temperature: f32,
        topo: &'static Topology,
    ) -> Option<PatternPlayout> {
        let layout = Layout::get(topo)?;
        let leaves = (2 * topo.bits).div_ceil(BLOCK) * BLOCK;
        // Placing a stone marks the blocks to sum again in one word.
        assert!(leaves / BLOCK <= 64, "a board of {} cells", topo.bits);
        let words = topo.bits.div_ceil(64);
        Some(PatternPlayout {
            weights,
            temperature,
            gammas: Gammas::get(weights, layout, temperature),
            layout,
            topo,
            codes: vec![0; topo.bits],
            groups: vec![[0; 2]; topo.bits],
            multi: [vec![0; words], vec![0; words]],
            leaves: [vec![0.0; leaves], vec![0.0; leaves]],
            blocks: [vec![0.0; leaves / BLOCK], vec![0.0; leaves / BLOCK]],
            dirty: Vec::with_capacity(64),
        })
    }

    fn made_for(&self) -> (&'static Weights, f32, &'static Topology) {
        (self.weights, self.temperature, self.topo)
    }
}

impl PatternPlayout {
    /// The weights of a stone of `colour` on the empty `cell` when the
    /// colour is not the mover's, then when it is.
    #[inline]
    fn weights_of(&self, cell: usize, colour: Colour) -> [f32; 2] {
        let g = &self.gammas;
        let shape = g.shape[(colour.index() << (2 * self.layout.len)) + self.codes[cell] as usize];
        let n = self.groups[cell];
        let own = 2 * usize::from(n[colour.index()].min(3));
        let other = 2 * usize::from(n[colour.opposite().index()].min(3));
        [0, 1].map(|mine| shape[mine] * g.joins[own + mine] * g.touches[other + mine])
    }

    /// Recomputes the four leaves of `cell` (0 when it is occupied).
    #[inline]
    fn update_leaves(&mut self, cell: usize, empty: bool) {
        for colour in Colour::BOTH {
            let w = if empty {
                self.weights_of(cell, colour)
            } else {
                [0.0; 2]
            };
            let (own, other) = (colour.index(), colour.opposite().index());
            self.leaves[own][2 * cell + own] = w[1];
            self.leaves[other][2 * cell + own] = w[0];
        }
    }

    fn sum_block(&mut self, block: usize) {
        for m in 0..2 {
            self.blocks[m][block] = self.leaves[m][block * BLOCK..(block + 1) * BLOCK]
                .iter()
                .sum();
        }
    }

    /// Records that the empty `cell` touches `n` groups of `colour`.
    #[inline]
    fn set_groups(&mut self, cell: usize, colour: Colour, n: u32) {
        self.groups[cell][colour.index()] = n as u8;
        let bit = 1u64 << (cell % 64);
        let word = &mut self.multi[colour.index()][cell / 64];
        if n >= 2 {
            *word |= bit;
        } else {
            *word &= !bit;
        }
    }

    /// The weights kept for `mover`, as (cell index, colour, weight) for
    /// every empty cell (tests compare them with a fresh policy's).
    #[cfg(test)]
    fn weights_for(&self, mover: Colour) -> Vec<(usize, Colour, f32)> {
        self.topo
            .cells()
            .iter()
            .flat_map(|c| Colour::BOTH.map(|k| (c.index(), k)))
            .map(|(i, k)| (i, k, self.leaves[mover.index()][2 * i + k.index()]))
            .collect()
    }
}

impl<B: DrawnBoard> StoneDraw<B> for PatternPlayout {
    fn start(&mut self, board: &B) {
        let game = board.game();
        debug_assert!(std::ptr::eq(game.topology(), self.topo));
        let digit_at = |n: u16| -> u32 {
            if n == OFF {
                OFF_BOARD
            } else {
                game.stone_at(Cell(n)).map_or(EMPTY, digit)
            }
        };
        self.leaves.iter_mut().for_each(|l| l.fill(0.0));
        self.multi.iter_mut().for_each(|m| m.fill(0));
        for &c in self.topo.cells() {
            let i = c.index();
            self.codes[i] = self
                .layout
                .ring(c)
                .iter()
                .enumerate()
                .fold(0, |code, (k, &n)| code | digit_at(n) << (2 * k));
            if game.stone_at(c).is_none() {
                for colour in Colour::BOTH {
                    self.set_groups(i, colour, board.groups_next_to(i, colour));
                }
                self.update_leaves(i, true);
            }
        }
        for b in 0..self.blocks[0].len() {
            self.sum_block(b);
        }
    }

    fn placed(&mut self, board: &B, cell: usize, colour: Colour) {
        let game = board.game();
        let empty = |i: usize| game.stone_at(Cell(i as u16)).is_none();
        let joined_several = self.groups[cell][colour.index()] >= 2;
        for c in Colour::BOTH {
            self.set_groups(cell, c, 0);
        }
        self.update_leaves(cell, false);
        self.dirty.clear();
        let d = digit(colour);
        for (k, &n) in self.layout.ring(Cell(cell as u16)).iter().enumerate() {
            if n != OFF {
                self.codes[n as usize] |= d << (2 * self.layout.opposite(k));
                if empty(n as usize) {
                    self.dirty.push(n);
                }
            }
        }
        for &n in self.topo.neighbours(Cell(cell as u16)) {
            let i = n.index();
            if empty(i) {
                self.set_groups(i, colour, board.groups_next_to(i, colour));
            }
        }
        if joined_several {
            // Cells next to two or more of the joined groups now count one
            // group fewer (or more fewer); only cells that counted two or
            // more groups of this colour can be among them.
            for w in 0..self.multi[colour.index()].len() {
                let mut bits = self.multi[colour.index()][w];
                while bits != 0 {
                    let i = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let n = board.groups_next_to(i, colour);
                    if u32::from(self.groups[i][colour.index()]) != n {
                        self.set_groups(i, colour, n);
                        self.dirty.push(i as u16);
                    }
                }
            }
        }
        let mut blocks = 1u64 << (2 * cell / BLOCK);
        for k in 0..self.dirty.len() {
            let i = usize::from(self.dirty[k]);
            self.update_leaves(i, true);
            blocks |= 1 << (2 * i / BLOCK);
        }
        while blocks != 0 {
            self.sum_block(blocks.trailing_zeros() as usize);
            blocks &= blocks - 1;
        }
    }

    fn draw(&self, board: &B, rng: &mut Rng) -> Option<(usize, Colour)> {
        let m = board.game().to_move().index();
        let i = weighted_leaf(&self.blocks[m], &self.leaves[m], rng)?;
        let colour = if i & 1 == 0 {
            Colour::Black
        } else {
            Colour::White
        };
        Some((i / 2, colour))
    }

    fn weight(&self, board: &B, cell: usize, colour: Colour) -> f64 {
        f64::from(self.leaves[board.game().to_move().index()][2 * cell + colour.index()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::FeatureBoard;
    use oddity_rules::{
        Action, AnyGame, GameKind, GameSpec, GroupedOdd, OddGame, Rng, Rules, XoddYoddGame,
        with_xodd_yodd,
    };

    fn start(kind: GameKind, size: usize) -> AnyGame {
        AnyGame::new(&GameSpec::new(kind, size, Rules::default()).unwrap())
    }

    /// Plays random games from `start`, `step` playing one random action
    /// and returning the stone it placed, and tells the policy of every
    /// stone; after each one the weights and block sums kept up to date
    /// equal those of a policy started from the position, and each weight
    /// is the product of the gammas of the stone's features as the feature
    /// board reads them from scratch.
    fn kept_weights_equal_fresh_ones<B: DrawnBoard + Clone>(
        start: &B,
        games: u64,
        step: fn(&mut B, &mut Rng) -> Option<(usize, Colour)>,
    ) {
        let kind = start.game().spec().kind;
        let weights = Weights::builtin(kind).unwrap();
        for seed in 0..games {
            let mut rng = Rng::seeded(seed);
            let mut board = start.clone();
            let topo = board.game().topology();
            let mut kept = PatternPlayout::new(weights, 1.0, topo).unwrap();
            kept.start(&board);
            while !board.game().is_over() {
                let mut fresh = kept.clone();
                fresh.start(&board);
                let features = FeatureBoard::new(board.game(), &[]);
                for mover in Colour::BOTH {
                    assert_eq!(kept.weights_for(mover), fresh.weights_for(mover));
                    assert_eq!(kept.blocks[mover.index()], fresh.blocks[mover.index()]);
                    for &c in topo.cells() {
                        if board.game().stone_at(c).is_some() {
                            continue;
                        }
                        for colour in Colour::BOTH {
                            let f = features.features(Action::stone(c, colour), mover);
                            let expected: f64 = [SHAPE, JOINS, TOUCHES]
                                .iter()
                                .map(|&g| weights.gamma(weights.index(g, f[g])))
                                .product();
                            let mine = usize::from(colour == mover);
                            let w = f64::from(kept.weights_of(c.index(), colour)[mine]);
                            assert!((w / expected - 1.0).abs() < 1e-5, "{kind} {c:?} {colour:?}");
                        }
                    }
                }
                if let Some((cell, colour)) = step(&mut board, &mut rng) {
                    kept.placed(&board, cell, colour);
                }
            }
        }
    }

    /// A random legal action of Xodd or Yodd; the stone if it is one.
    fn parity_step<const W: usize>(
        game: &mut XoddYoddGame<W>,
        rng: &mut Rng,
    ) -> Option<(usize, Colour)> {
        let mut actions = Vec::new();
        game.legal_actions(&mut actions);
        let a = actions[rng.below(actions.len() as u32) as usize];
        game.apply(a);
        a.is_stone().then(|| (a.cell().index(), a.colour()))
    }

    /// The empty cells of an Odd position.
    fn odd_empty<const W: usize>(board: &GroupedOdd<W>) -> Vec<usize> {
        let game = board.game();
        let cells = game.topology().cells().iter();
        cells
            .filter(|&&c| game.stone_at(c).is_none())
            .map(|c| c.index())
            .collect()
    }

    /// A random Odd stone.
    fn odd_step<const W: usize>(
        board: &mut GroupedOdd<W>,
        rng: &mut Rng,
    ) -> Option<(usize, Colour)> {
        let empty = odd_empty(board);
        let cell = empty[rng.below(empty.len() as u32) as usize];
        let colour = Colour::BOTH[rng.below(2) as usize];
        board.place(cell, colour);
        Some((cell, colour))
    }

    fn odd_start<const W: usize>(size: usize) -> GroupedOdd<W> {
        let spec = GameSpec::new(GameKind::Odd, size, Rules::default()).unwrap();
        GroupedOdd::new(OddGame::new(&spec))
    }

    #[test]
    fn weights_kept_up_to_date_equal_weights_from_scratch() {
        for (kind, size, games) in [
            (GameKind::Xodd, 5, 20),
            (GameKind::Xodd, 12, 2),
            (GameKind::Yodd, 4, 20),
            (GameKind::Yodd, 8, 2),
        ] {
            with_xodd_yodd!(&start(kind, size), g => kept_weights_equal_fresh_ones(g, games, parity_step));
        }
        kept_weights_equal_fresh_ones(&odd_start::<2>(3), 20, odd_step);
        kept_weights_equal_fresh_ones(&odd_start::<2>(5), 4, odd_step);
        kept_weights_equal_fresh_ones(&odd_start::<4>(7), 1, odd_step);
    }

    /// Delegates to a pattern policy and notes the first stone placed.
    struct First(PatternPlayout, Option<(usize, Colour)>);

    impl<B: DrawnBoard> StoneDraw<B> for First {
        fn start(&mut self, board: &B) {
            self.1 = None;
            self.0.start(board);
        }
        fn placed(&mut self, board: &B, cell: usize, colour: Colour) {
            self.1.get_or_insert((cell, colour));
            self.0.placed(board, cell, colour);
        }
        fn draw(&self, board: &B, rng: &mut Rng) -> Option<(usize, Colour)> {
            self.0.draw(board, rng)
        }
        fn weight(&self, board: &B, cell: usize, colour: Colour) -> f64 {
            self.0.weight(board, cell, colour)
        }
    }

    /// The stones of every legal turn of `game` (at a turn's start): the
    /// stones a playout may start a turn with.
    fn turn_stones<const W: usize>(game: &XoddYoddGame<W>) -> Vec<(usize, Colour)> {
        let (mut firsts, mut seconds) = (Vec::new(), Vec::new());
        game.legal_actions(&mut firsts);
        let mut stones = Vec::new();
        for &a in firsts.iter().filter(|a| a.is_stone()) {
            stones.push((a.cell().index(), a.colour()));
            let mut next = game.clone();
            next.apply(a);
            if next.mid_turn() {
                seconds.clear();
                next.legal_actions(&mut seconds);
                let more = seconds.iter().filter(|b| b.is_stone());
                stones.extend(more.map(|b| (b.cell().index(), b.colour())));
            }
        }
        stones.sort();
        stones.dedup();
        stones
    }

    /// The policy of `weights` with every gamma 1, for rings of `ring`
    /// points.
    fn uniform_policy(ring: usize, topo: &'static Topology) -> First {
        let uniform: &'static Weights = Box::leak(Box::new(Weights::uniform(GameKind::Odd, ring)));
        First(PatternPlayout::new(uniform, 1.0, topo).unwrap(), None)
    }

    /// The first stones of `200 * legal.len()` playouts (`first` plays one
    /// and returns its first stone) are uniform over the sorted `legal`
    /// stones: each count within 6 standard deviations of its expectation,
    /// with a fixed seed.
    fn first_stones_are_uniform(
        legal: &[(usize, Colour)],
        seed: u64,
        mut first: impl FnMut(&mut Rng) -> (usize, Colour),
    ) {
        let mut counts = vec![0u32; legal.len()];
        let samples = 200 * legal.len() as u32;
        let mut rng = Rng::seeded(seed);
        for _ in 0..samples {
            let k = legal
                .binary_search(&first(&mut rng))
                .expect("a legal first stone");
            counts[k] += 1;
        }
        let p = 1.0 / legal.len() as f64;
        let (expected, sd) = (200.0, (200.0 * (1.0 - p)).sqrt());
        for (s, &n) in legal.iter().zip(&counts) {
            assert!(
                (f64::from(n) - expected).abs() <= 6.0 * sd,
                "{s:?}: {n} draws of {samples}"
            );
        }
    }

    /// With every gamma 1 a playout's first stone is uniform over the
    /// stones that can start a turn; whether some stones cannot.
    fn first_stone_is_uniform<const W: usize>(game: &XoddYoddGame<W>, seed: u64) -> bool {
        let legal = turn_stones(game);
        if legal.is_empty() {
            return false;
        }
        let ring = if game.spec().kind == GameKind::Xodd {
            8
        } else {
            6
        };
        let mut policy = uniform_policy(ring, game.topology());
        first_stones_are_uniform(&legal, seed, |rng| {
            game.clone().playout_drawing(rng, &mut policy);
            policy.1.expect("a legal stone was placed")
        });
        let empty = game.empty().count() as usize;
        legal.len() < 2 * empty
    }

    #[test]
    fn with_every_gamma_1_the_draw_is_uniform_over_legal_stones() {
        let mut with_illegal = 0;
        for (kind, size) in [(GameKind::Xodd, 4), (GameKind::Yodd, 3)] {
            let cells = start(kind, size).topology().cell_count();
            for seed in 0..12u64 {
                let mut rng = Rng::seeded(seed);
                let mut game = start(kind, size);
                let mut actions = Vec::new();
                // A random position at a turn's start, often a late one.
                let turns = rng.below(cells as u32) as usize;
                with_xodd_yodd!(&mut game, g => {
                    while (g.turns_played() as usize) < turns && !g.is_over() || g.mid_turn() {
                        actions.clear();
                        g.legal_actions(&mut actions);
                        g.apply(actions[rng.below(actions.len() as u32) as usize]);
                    }
                    if g.turns_played() > 0 && !g.is_over() {
                        with_illegal += usize::from(first_stone_is_uniform(g, seed));
                    }
                });
            }
        }
        assert!(
            with_illegal >= 2,
            "{with_illegal} positions with illegal stones"
        );
    }

    #[test]
    fn with_every_gamma_1_the_odd_draw_is_uniform_over_every_stone() {
        for seed in 0..6u64 {
            let mut rng = Rng::seeded(seed);
            let mut board = odd_start::<2>(3);
            for _ in 0..rng.below(18) {
                odd_step(&mut board, &mut rng);
            }
            let game = board.game().clone();
            let mut legal: Vec<(usize, Colour)> = odd_empty(&board)
                .into_iter()
                .flat_map(|cell| Colour::BOTH.map(|c| (cell, c)))
                .collect();
            legal.sort();
            let mut policy = uniform_policy(6, game.topology());
            first_stones_are_uniform(&legal, seed, |rng| {
                game.clone().playout_drawing(rng, &mut policy);
                policy.1.expect("a stone was placed")
            });
        }
    }
}
