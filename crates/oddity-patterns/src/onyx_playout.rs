//! The softmax playout policy of Onyx (`--param pattern_playouts=on`):
//! each playable point weighs, for the side to move, the product of the
//! gammas of its `shape` (the ring of 8 places and the point's kind, seen
//! from the mover's side) and `capture` features ([`super::onyx`]), and the
//! rules' playout ([`OnyxGame::playout_drawing`]) draws every stone's point
//! in proportion to its weight. The swap keeps the random playout's
//! uniform chance (the weights' swap value is not used).
//!
//! Both features are local: a point's weight depends only on its
//! playability, the stones on its rings (seen from either colour) and those
//! of the squares it is a corner or the midpoint of. The policy keeps the
//! ring codes and a copy of the stones; a stone placed, captured or moved
//! by the swap rewrites one digit of each ring it lies on and marks the
//! points of those rings and of its squares ([`Reach`]), whose weights are
//! recomputed, for both movers, before the next draw. The other Onyx features (`joins`,
//! `touches`, `bridge`, `cut`, `edges`) depend on whole groups, which
//! captures can split, and `distance` changes everywhere with every stone:
//! they are left out. Draws go through per-block sums of [`BLOCK`] weights.
//!
//! With a temperature `t` each gamma is raised to the power `1 / t`
//! (`--param pattern_temperature`). The gamma tables and the reach of each
//! board are built once and shared by every search thread.

use oddity_rules::{
    Cell, Colour, Game, OnyxGame, PointDraw, Rng, Topology,
    internals::{OnceMap, built_once},
};

use super::draw::weighted_leaf;
use super::groups::CAPTURE as CAPTURE_VALUES;
use super::onyx::{ONYX_RING, OnyxLayout, PLACES, canonical};
use super::policy::PlayoutPolicy;
use super::shape::{BLACK, EMPTY, OFF, OFF_BOARD, WHITE};
use super::weights::Weights;

/// Weights per block sum.
const BLOCK: usize = 16;

/// Feature groups the policy uses (see [`super::features::GROUP_NAMES`]).
const SHAPE: usize = 0;
const CAPTURE: usize = 6;

/// Ring codes of one kind of point.
const CODES: usize = 1 << (2 * PLACES);

/// The gammas the policy multiplies, raised to `1 / temperature`.
struct Gammas {
    /// `shape[kind * CODES + code]`: the `shape` gamma of the mover's stone
    /// on a point of `kind` whose ring reads `code` (the mover's stones as
    /// [`BLACK`], the other's as [`WHITE`]).
    shape: Vec<f32>,
    /// Per `capture` value.
    capture: [f32; CAPTURE_VALUES as usize],
}

impl Gammas {
    /// The shared tables of `weights` at `temperature`.
    fn get(weights: &'static Weights, temperature: f32) -> &'static Gammas {
        static BUILT: OnceMap<(usize, u32), Gammas> = OnceMap::new();
        let key = (weights as *const Weights as usize, temperature.to_bits());
        BUILT.get_or_build(key, || {
            let power = 1.0 / f64::from(temperature);
            let gamma =
                |group: usize, v: u32| weights.gamma(weights.index(group, v)).powf(power) as f32;
            let shape = (0..4 * CODES)
                .map(|k| {
                    gamma(
                        SHAPE,
                        canonical((k % CODES) as u32, (k / CODES) as u8) * 2 + 1,
                    )
                })
                .collect();
            Box::new(Gammas {
                shape,
                capture: std::array::from_fn(|v| gamma(CAPTURE, v as u32)),
            })
        })
    }
}

/// What a change of one point's stone reaches, per point of one board.
struct Reach {
    /// The places of rings that point `q` is: `(p, colour, 2 * place)`
    /// for each ring of `p` seen from `colour` that holds `q` at `place`,
    /// at `rings[ring_start[q]..ring_start[q + 1]]`.
    ring_start: Vec<u32>,
    rings: Vec<(u16, u8, u8)>,
    /// The points of the squares `q` belongs to (their captures and the
    /// midpoint's playability change with it), `q` included, at
    /// `near[near_start[q]..near_start[q + 1]]`.
    near_start: Vec<u32>,
    near: Vec<u16>,
    /// Per point: the squares it is a corner of (none for a midpoint), as
    /// (midpoint, opposite corner, the two other corners), padded with
    /// views that never capture (an empty point's midpoint is itself).
    views: Vec<[[u16; 4]; 2]>,
}

impl Reach {
    fn get(topo: &'static Topology, layout: &OnyxLayout) -> &'static Reach {
        built_once(topo, || Reach::build(topo, layout))
    }

    fn build(topo: &Topology, layout: &OnyxLayout) -> Reach {
        let mut rings: Vec<Vec<(u16, u8, u8)>> = vec![Vec::new(); topo.bits];
        for &p in topo.cells() {
            for colour in Colour::BOTH {
                for (i, &q) in layout.ring(colour, p).iter().enumerate() {
                    if q != OFF {
                        rings[usize::from(q)].push((p.0, colour.index() as u8, 2 * i as u8));
                    }
                }
            }
        }
        let mut near: Vec<Vec<u16>> = (0..topo.bits).map(|q| vec![q as u16]).collect();
        for sq in topo.squares() {
            let points = [sq.corners[0], sq.corners[1], sq.corners[2], sq.corners[3]];
            for a in points.iter().chain([&sq.midpoint]) {
                near[a.index()].extend(points.iter().chain([&sq.midpoint]).map(|b| b.0));
            }
        }
        let views = (0..topo.bits)
            .map(|p| {
                let me = p as u16;
                let mut views = [[me; 4]; 2];
                for (view, &k) in views.iter_mut().zip(topo.squares_of(Cell(me))) {
                    let sq = &topo.squares()[usize::from(k)];
                    let at = sq.corners.iter().position(|c| c.0 == me).expect("a corner");
                    let corner = |d: usize| sq.corners[(at + d) % 4].0;
                    *view = [sq.midpoint.0, corner(2), corner(1), corner(3)];
                }
                views
            })
            .collect();
        let (ring_start, rings) = flatten(rings);
        let (near_start, near) = flatten(near.into_iter().map(|mut list| {
            list.sort_unstable();
            list.dedup();
            list
        }));
        Reach {
            ring_start,
            rings,
            near_start,
            near,
            views,
        }
    }

    fn rings(&self, q: usize) -> &[(u16, u8, u8)] {
        &self.rings[self.ring_start[q] as usize..self.ring_start[q + 1] as usize]
    }

    fn near(&self, q: usize) -> &[u16] {
        &self.near[self.near_start[q] as usize..self.near_start[q + 1] as usize]
    }
}

/// Lists as one vector and the start of each (and the end of the last).
fn flatten<T>(lists: impl IntoIterator<Item = Vec<T>>) -> (Vec<u32>, Vec<T>) {
    let mut start = vec![0];
    let mut all = Vec::new();
    for list in lists {
        all.extend(list);
        start.push(all.len() as u32);
    }
    (start, all)
}

/// The policy's state for one board, weights file and temperature; a
/// search thread keeps one and reuses its buffers for every playout.
#[derive(Clone)]
pub struct OnyxPlayout {
    weights: &'static Weights,
    temperature: f32,
    gammas: &'static Gammas,
    layout: &'static OnyxLayout,
    topo: &'static Topology,
    reach: &'static Reach,
    /// Per point: 0 empty, 1 Black, 2 White (as the policy last heard).
    stones: Vec<u8>,
    /// Per colour and point: the ring code seen from that colour, its
    /// stones as [`BLACK`] and the other's as [`WHITE`].
    codes: [Vec<u32>; 2],
    /// Per mover: the weight of each point (0 where it is not playable,
    /// and for the padding up to a whole block).
    leaves: [Vec<f32>; 2],
    /// Per mover: the sums of [`BLOCK`] leaves.
    blocks: [Vec<f32>; 2],
    /// Points whose weights are stale, each once (`marked`).
    dirty: Vec<u16>,
    marked: Vec<bool>,
}

/// The sum of `leaves`, added in halves: independent additions, which the
/// compiler makes vector ones (a chain of 16 additions waits on each).
#[inline]
fn sum(leaves: &[f32; BLOCK]) -> f32 {
    let mut half: [f32; BLOCK / 2] = std::array::from_fn(|i| leaves[i] + leaves[i + BLOCK / 2]);
    let mut n = BLOCK / 2;
    while n > 1 {
        n /= 2;
        for i in 0..n {
            half[i] += half[i + n];
        }
    }
    half[0]
}

/// The stone code of `colour` in [`OnyxPlayout::stones`].
fn code_of(colour: Option<Colour>) -> u8 {
    colour.map_or(0, |c| c.index() as u8 + 1)
}

/// The ring digit of the stone `code` seen from colour `c` (0 Black).
fn ring_digit(code: u8, c: usize) -> u32 {
    match code {
        0 => EMPTY,
        k if usize::from(k - 1) == c => BLACK,
        _ => WHITE,
    }
}

impl PlayoutPolicy for OnyxPlayout {
    /// The policy for Onyx games on `topo` with `weights` at `temperature`
    /// (above 0); `None` for another board or weights of another ring.
    fn new(
        weights: &'static Weights,
        temperature: f32,
        topo: &'static Topology,
    ) -> Option<OnyxPlayout> {
        if !topo.kind.has_squares() || weights.ring != ONYX_RING {
            return None;
        }
        let layout = OnyxLayout::get(topo);
        let leaves = topo.bits.div_ceil(BLOCK) * BLOCK;
        Some(OnyxPlayout {
            weights,
            temperature,
            gammas: Gammas::get(weights, temperature),
            layout,
            topo,
            reach: Reach::get(topo, layout),
            stones: vec![0; topo.bits],
            codes: [vec![0; topo.bits], vec![0; topo.bits]],
            leaves: [vec![0.0; leaves], vec![0.0; leaves]],
            blocks: [vec![0.0; leaves / BLOCK], vec![0.0; leaves / BLOCK]],
            dirty: Vec::with_capacity(128),
            marked: vec![false; topo.bits],
        })
    }

    fn made_for(&self) -> (&'static Weights, f32, &'static Topology) {
        (self.weights, self.temperature, self.topo)
    }
}

impl OnyxPlayout {
    /// Stones a stone of colour `c` (0 Black) on the empty `point` captures
    /// divided by 2 (squares it captures in), as the rules' captures.
    #[inline]
    fn captures(&self, point: usize, c: u8) -> u32 {
        let (me, them) = (c + 1, 2 - c);
        let s = &self.stones;
        self.reach.views[point]
            .iter()
            .map(|&[mid, opposite, a, b]| {
                u32::from(
                    (s[usize::from(mid)] == 0)
                        & (s[usize::from(opposite)] == me)
                        & (s[usize::from(a)] == them)
                        & (s[usize::from(b)] == them),
                )
            })
            .sum()
    }

    /// Recomputes both movers' weights of `point` of `game`: 0 where it is
    /// not playable.
    #[inline]
    fn update<const W: usize>(&mut self, game: &OnyxGame<W>, point: usize) {
        let p = Cell(point as u16);
        if !game.is_playable(p) {
            self.leaves[0][point] = 0.0;
            self.leaves[1][point] = 0.0;
            return;
        }
        let captures = [0, 1].map(|c| self.captures(point, c));
        for mover in Colour::BOTH {
            let c = mover.index();
            let kind = usize::from(self.layout.kind(mover, p));
            let capture = captures[c].min(2) * 2 + u32::from(captures[1 - c] > 0);
            let code = self.codes[c][point] as usize;
            self.leaves[c][point] =
                self.gammas.shape[kind * CODES + code] * self.gammas.capture[capture as usize];
        }
    }

    fn sum_block(&mut self, block: usize) {
        for m in 0..2 {
            let leaves = &self.leaves[m][block * BLOCK..(block + 1) * BLOCK];
            self.blocks[m][block] = sum(leaves.try_into().expect("a block"));
        }
    }

    fn mark(&mut self, point: usize) {
        let marked = &mut self.marked[point];
        if !*marked {
            *marked = true;
            self.dirty.push(point as u16);
        }
    }

    /// Recomputes the weights of the stale points and their blocks' sums.
    fn refresh<const W: usize>(&mut self, game: &OnyxGame<W>) {
        // Blocks to sum again, as bits of words.
        let mut stale = [0u64; 2];
        let mut more = Vec::new();
        for k in 0..self.dirty.len() {
            let p = usize::from(self.dirty[k]);
            self.marked[p] = false;
            self.update(game, p);
            let b = p / BLOCK;
            match stale.get_mut(b / 64) {
                Some(word) => *word |= 1 << (b % 64),
                None => more.push(b),
            }
        }
        self.dirty.clear();
        for (w, mut bits) in stale.into_iter().enumerate() {
            while bits != 0 {
                self.sum_block(w * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
        more.sort_unstable();
        more.dedup();
        for b in more {
            self.sum_block(b);
        }
    }

    /// The weights kept for `mover` and their block sums, brought up to
    /// date (tests compare them with a fresh policy's).
    #[cfg(test)]
    fn kept<const W: usize>(&mut self, game: &OnyxGame<W>, mover: Colour) -> (Vec<f32>, Vec<f32>) {
        self.refresh(game);
        (
            self.leaves[mover.index()].clone(),
            self.blocks[mover.index()].clone(),
        )
    }
}

impl<const W: usize> PointDraw<W> for OnyxPlayout {
    fn start(&mut self, game: &OnyxGame<W>) {
        debug_assert!(std::ptr::eq(game.topology(), self.topo));
        let topo = self.topo;
        self.dirty.clear();
        self.marked.fill(false);
        for p in 0..topo.bits {
            self.stones[p] = code_of(game.stone_at(Cell(p as u16)));
        }
        for p in 0..topo.bits {
            for colour in Colour::BOTH {
                let c = colour.index();
                let ring = self.layout.ring(colour, Cell(p as u16));
                self.codes[c][p] = ring.iter().enumerate().fold(0, |code, (i, &q)| {
                    let d = match q {
                        OFF => OFF_BOARD,
                        q => ring_digit(self.stones[usize::from(q)], c),
                    };
                    code | d << (2 * i)
                });
            }
            self.update(game, p);
        }
        for b in 0..self.blocks[0].len() {
            self.sum_block(b);
        }
    }

    fn changed(&mut self, game: &OnyxGame<W>, point: usize) {
        let code = code_of(game.stone_at(Cell(point as u16)));
        self.stones[point] = code;
        let reach = self.reach;
        for &(p, c, shift) in reach.rings(point) {
            let (p, c) = (usize::from(p), usize::from(c));
            let d = ring_digit(code, c);
            let ring = &mut self.codes[c][p];
            *ring = *ring & !(3 << shift) | d << shift;
            self.mark(p);
        }
        for &q in reach.near(point) {
            self.mark(usize::from(q));
        }
    }

    fn draw(&mut self, game: &OnyxGame<W>, rng: &mut Rng) -> Option<usize> {
        self.refresh(game);
        let m = game.to_move().index();
        weighted_leaf(&self.blocks[m], &self.leaves[m], rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::FeatureBoard;
    use oddity_rules::{Action, AnyGame, GameKind, GameSpec, Rng, Rules, with_game};

    fn start(size: usize, open: bool) -> AnyGame {
        let rules = Rules {
            open_start: open,
            ..Rules::default()
        };
        AnyGame::new(&GameSpec::new(GameKind::Onyx, size, rules).unwrap())
    }

    /// Checks the policy at every draw of a playout and counts what the
    /// playout did.
    struct Checked {
        policy: OnyxPlayout,
        /// The turns played at the next draw unless a move was not drawn.
        turns: u32,
        draws: usize,
        removed: usize,
        swaps: usize,
    }

    impl<const W: usize> PointDraw<W> for Checked {
        fn start(&mut self, game: &OnyxGame<W>) {
            self.turns = game.turns_played();
            self.policy.start(game);
        }

        fn changed(&mut self, game: &OnyxGame<W>, point: usize) {
            self.removed += usize::from(game.stone_at(Cell(point as u16)).is_none());
            self.policy.changed(game, point);
        }

        /// The weights kept up to date equal those of a policy started
        /// from the position, and each is the product of the `shape` and
        /// `capture` gammas of the point as the feature board reads them
        /// from scratch (0 where the point is not playable).
        fn draw(&mut self, game: &OnyxGame<W>, rng: &mut Rng) -> Option<usize> {
            // The swap is the only move that is not drawn.
            self.swaps += usize::from(game.turns_played() != self.turns);
            self.turns = game.turns_played() + 1;
            self.draws += 1;
            let weights = self.policy.weights;
            let mut fresh = self.policy.clone();
            fresh.start(game);
            let board = FeatureBoard::new(game, &[]);
            for mover in Colour::BOTH {
                assert_eq!(self.policy.kept(game, mover), fresh.kept(game, mover));
                let (leaves, _) = fresh.kept(game, mover);
                for &c in game.topology().cells() {
                    let w = f64::from(leaves[c.index()]);
                    if !game.is_playable(c) {
                        assert_eq!(w, 0.0);
                        continue;
                    }
                    let f = board.features(Action::stone(c, mover), mover);
                    let expected: f64 = [SHAPE, CAPTURE]
                        .iter()
                        .map(|&g| weights.gamma(weights.index(g, f[g])))
                        .product();
                    assert!((w / expected - 1.0).abs() < 1e-5, "{c:?} {mover:?}");
                }
            }
            self.policy.draw(game, rng)
        }
    }

    /// A playout of the Onyx game `game` drawn by `policy`.
    fn playout(game: &mut AnyGame, rng: &mut Rng, policy: &mut impl PointDraw2) -> Colour {
        match game {
            AnyGame::Onyx128(g) => g.playout_drawing(rng, policy),
            AnyGame::Onyx256(g) => g.playout_drawing(rng, policy),
            AnyGame::Onyx640(g) => g.playout_drawing(rng, policy),
            other => panic!("{} is not Onyx", other.spec().kind),
        }
    }

    /// A policy for every bitboard width of the tests' boards.
    trait PointDraw2: PointDraw<2> + PointDraw<4> + PointDraw<10> {}
    impl<T: PointDraw<2> + PointDraw<4> + PointDraw<10>> PointDraw2 for T {}

    #[test]
    fn weights_kept_up_to_date_equal_weights_from_scratch() {
        let weights = Weights::builtin(GameKind::Onyx).unwrap();
        // From Black's first stone on A4 of the 5 board, far from its
        // transpose D1, the swap has a chance in about 30.
        for (size, open, first, games) in [
            (4, true, None, 100),
            (5, true, Some("A4"), 200),
            (8, false, None, 10),
            (12, false, None, 3),
        ] {
            let mut game = start(size, open);
            let topo = with_game!(&game, g => g.topology());
            if let Some(name) = first {
                let a = Action::stone(topo.parse_cell(name).unwrap(), Colour::Black);
                with_game!(&mut game, g => g.apply(a));
            }
            let mut checked = Checked {
                policy: OnyxPlayout::new(weights, 1.0, topo).unwrap(),
                turns: 0,
                draws: 0,
                removed: 0,
                swaps: 0,
            };
            for seed in 0..games {
                let mut rng = Rng::seeded(seed);
                playout(&mut game.clone(), &mut rng, &mut checked);
            }
            assert!(checked.draws > 10 * games as usize, "size {size}");
            assert!(
                checked.removed >= 4,
                "size {size}: {} removed",
                checked.removed
            );
            if first.is_some() {
                assert!(checked.swaps >= 2, "{} swaps", checked.swaps);
            }
        }
    }

    /// Delegates to the policy and notes the first point drawn.
    struct First(OnyxPlayout, Option<usize>);

    impl<const W: usize> PointDraw<W> for First {
        fn start(&mut self, game: &OnyxGame<W>) {
            self.1 = None;
            self.0.start(game);
        }
        fn changed(&mut self, game: &OnyxGame<W>, point: usize) {
            self.0.changed(game, point);
        }
        fn draw(&mut self, game: &OnyxGame<W>, rng: &mut Rng) -> Option<usize> {
            let p = self.0.draw(game, rng);
            self.1 = self.1.or(p);
            p
        }
    }

    /// With every gamma 1 a playout's first point is uniform over the
    /// playable points (each count within 6 standard deviations of its
    /// expectation, with a fixed seed), in random positions after the swap
    /// (some with captured stones, all with unplayable empty midpoints).
    #[test]
    fn with_every_gamma_1_the_draw_is_uniform_over_playable_points() {
        let uniform: &'static Weights =
            Box::leak(Box::new(Weights::uniform(GameKind::Onyx, ONYX_RING)));
        let mut with_unplayable = 0;
        for (size, open) in [(4, true), (5, true), (8, false)] {
            for seed in 0..6u64 {
                let mut rng = Rng::seeded(seed);
                let mut game = start(size, open);
                let mut actions = Vec::new();
                let turns = 2 + rng.below(3 * size as u32);
                while with_game!(&game, g => g.turns_played() < turns && !g.is_over()) {
                    actions.clear();
                    with_game!(&game, g => g.legal_actions(&mut actions));
                    let a = actions[rng.below(actions.len() as u32) as usize];
                    with_game!(&mut game, g => g.apply(a));
                }
                if with_game!(&game, g => g.is_over()) {
                    continue;
                }
                actions.clear();
                with_game!(&game, g => g.legal_actions(&mut actions));
                let mut legal: Vec<usize> = actions.iter().map(|a| a.cell().index()).collect();
                legal.sort_unstable();
                let topo = with_game!(&game, g => g.topology());
                let empty = topo
                    .cells()
                    .iter()
                    .filter(|&&c| with_game!(&game, g => g.stone_at(c)).is_none())
                    .count();
                with_unplayable += usize::from(legal.len() < empty);
                let mut first = First(OnyxPlayout::new(uniform, 1.0, topo).unwrap(), None);
                let mut counts = vec![0u32; legal.len()];
                let samples = 200 * legal.len() as u32;
                for _ in 0..samples {
                    playout(&mut game.clone(), &mut rng, &mut first);
                    let p = first.1.expect("a point was drawn");
                    let k = legal.binary_search(&p).expect("a playable point");
                    counts[k] += 1;
                }
                let p = 1.0 / legal.len() as f64;
                let (expected, sd) = (200.0, (200.0 * (1.0 - p)).sqrt());
                for (q, &n) in legal.iter().zip(&counts) {
                    assert!(
                        (f64::from(n) - expected).abs() <= 6.0 * sd,
                        "size {size} point {q}: {n} draws of {samples}"
                    );
                }
            }
        }
        assert!(with_unplayable >= 6, "{with_unplayable} positions");
    }
}
