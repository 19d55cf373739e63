//! The shared search tree: compact nodes in one preallocated arena, the
//! lock-free iteration (selection, expansion, playout, backup, solver) and
//! the subtree copy used for tree reuse.

mod node;
mod tally;
mod worker;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use oddity_rules::moves::{Action, Colour};
use oddity_rules::random::below;
use oddity_rules::topology::Cell;

use crate::filter::MoveFilter;
use crate::knowledge::{Knowledge, PlayoutOptions};
use crate::patterns::Weights;

use Ordering::{Acquire, Relaxed, Release};

pub(crate) use node::{Arena, EXPANDING, MAX_CAPACITY, NO_CHILDREN, Node, VISIT_CAP};
pub use node::{EXPAND_DIVISOR, NODE_BYTES};
pub(crate) use tally::Tally;
pub(crate) use worker::{ROOT_BATCH, STONE_BITS, Worker};

/// Search settings the tree needs on its hot path.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TreeConfig {
    /// UCT exploration constant c in `q + c * sqrt(ln N / n)`.
    pub(crate) exploration: f32,
    /// A leaf is expanded once its visits reach its parent's number of
    /// children divided by this (at least 1).
    pub(crate) expand_divisor: u32,
    /// Ask [`crate::knowledge::priors`] at expansion.
    pub(crate) priors: bool,
    /// Progressive-bias weight: a child with prior 1 counts as having won
    /// this many extra playouts.
    pub(crate) prior_weight: f32,
    /// With `priors`: the learned pattern weights give them
    /// ([`crate::patterns::priors`]) instead of [`crate::knowledge::priors`].
    pub(crate) patterns: Option<&'static Weights>,
    /// Keep AMAF statistics and blend them into selection.
    pub(crate) rave: bool,
    /// Visits at which a child's own rate and its AMAF rate weigh the same.
    pub(crate) rave_equiv: f32,
    /// AMAF is kept below the first this many nodes of a path.
    pub(crate) rave_depth: u32,
    /// With `rave`: the swap, which has no AMAF statistics, takes its
    /// parent's playouts and the first player's wins in them instead.
    pub(crate) swap_mirror: bool,
    /// Playouts per leaf reached (at least 1): each counts as a visit.
    pub(crate) leaf_playouts: u32,
    /// [`crate::knowledge::Knowledge::policy_playout`] instead of the rules' random playout.
    pub(crate) smart_playouts: bool,
    /// [`crate::knowledge::Knowledge::pattern_playout`] with these
    /// weights instead of either of the above.
    pub(crate) pattern_playouts: Option<&'static Weights>,
    /// Their temperature.
    pub(crate) pattern_temperature: f32,
    /// The settings of [`Knowledge::policy_playout`].
    pub(crate) playout: PlayoutOptions,
    /// Leaves with at most this many empty points are proven at once by
    /// [`Knowledge::exact_winner`] (0: never).
    pub(crate) solve_empty: u32,
}

/// A search tree over the game `G`, rooted at `root_game`.
pub(crate) struct Tree<G: Knowledge> {
    pub(crate) arena: Arena,
    pub(crate) root_game: G,
    full: AtomicBool,
    pub(crate) config: TreeConfig,
    /// Unused nodes after the root (see [`ROOT_PAD`]).
    pad: usize,
    /// Turns not to search (applied when a node is expanded).
    pub(crate) filter: Option<Arc<MoveFilter>>,
}

/// Nodes left unused after the root so that no other node shares a 64-byte
/// cache line with it, whatever the arena's alignment.
const ROOT_PAD: usize = 4;

pub(crate) const ROOT: u32 = 0;

/// The AMAF credit of `node` from the iteration's playouts that `table`
/// records (see [`Worker::on_final_board`]): the playouts that ended with
/// its stone on the board, and those of them that `chooser` won. Special
/// actions (pass, swap, end of turn) index entries of no cell, which stay 0.
#[inline(always)]
fn amaf_credit(table: &[[u8; 2]], node: &Node, chooser: Colour) -> (u32, u32) {
    let e = table[usize::from(node.action.load(Relaxed)) & (STONE_BITS - 1)];
    (
        u32::from(e[0]) + u32::from(e[1]),
        u32::from(e[chooser.index()]),
    )
}

/// A prior in `0..=1` in 255ths, at least 1 (0 means "no prior").
fn quantize(p: f32) -> u8 {
    (p.clamp(0.0, 1.0) * 255.0).round().max(1.0) as u8
}

/// The RAVE selection score of a child with `visits` and `wins` of its own
/// and `av`, `aw` AMAF playouts and wins: the blend
/// `(1 - beta) * q + beta * q_amaf` with `beta = av / (av + n + n * av / equiv)`
/// (Gelly and Silver's schedule: the AMAF rate counts for a child with few
/// visits and fades as they grow past `equiv`), plus the exploration term
/// `explore / sqrt(max(n, 1))` and the progressive bias `bias / (n + 1)`.
/// The blend is computed as `(wins * (1 + av / equiv) + aw) / (av + n + n * av / equiv)`,
/// one division, and `1/sqrt(n)` comes from the table: selection scores
/// every child, so this is the search's hot loop.
#[inline(always)]
fn rave_score(
    visits: u32,
    wins: u32,
    (av, aw): (u32, u32),
    inv_equiv: f32,
    explore: f32,
    bias: f32,
    table: &[f32; RSQRT_TABLE],
) -> f32 {
    let n = visits as f32;
    let a = av as f32;
    let damp = a * inv_equiv;
    let value = (wins as f32 * (1.0 + damp) + aw as f32) / (a + n + n * damp);
    let mut score = value;
    // Odd and Onyx explore through the AMAF rates alone (explore 0).
    if explore != 0.0 {
        let r = match table.get(visits.max(1) as usize) {
            Some(&r) => r,
            None => 1.0 / n.sqrt(),
        };
        score += explore * r;
    }
    if bias != 0.0 {
        score += bias / (n + 1.0);
    }
    score
}

/// Entries of the `1/sqrt(n)` table.
const RSQRT_TABLE: usize = 1024;

/// `1/sqrt(n)` for `n < RSQRT_TABLE` (entry 0 unused).
static RSQRT: std::sync::LazyLock<[f32; RSQRT_TABLE]> = std::sync::LazyLock::new(|| {
    let mut t = [0.0; RSQRT_TABLE];
    for (n, r) in t.iter_mut().enumerate().skip(1) {
        *r = 1.0 / (n as f32).sqrt();
    }
    t
});

impl<G: Knowledge> Tree<G> {
    pub(crate) fn new(root_game: G, capacity: usize, config: TreeConfig) -> Tree<G> {
        let arena = Arena::new(capacity);
        let root = arena.alloc(1).expect("capacity >= 1");
        debug_assert_eq!(root, ROOT);
        // Keep the root's cache line free of other nodes: the root is read
        // on every iteration by every thread, its first children are
        // written often.
        let pad = if capacity >= 1024 {
            arena.alloc(ROOT_PAD).map_or(0, |_| ROOT_PAD)
        } else {
            0
        };
        Tree {
            arena,
            root_game,
            full: AtomicBool::new(false),
            config,
            pad,
            filter: None,
        }
    }

    /// Nodes in the tree.
    pub(crate) fn nodes(&self) -> usize {
        self.arena.used() - self.pad
    }

    #[inline(always)]
    pub(crate) fn node(&self, i: u32) -> &Node {
        self.arena.get(i)
    }

    pub(crate) fn root(&self) -> &Node {
        self.node(ROOT)
    }

    pub(crate) fn is_full(&self) -> bool {
        self.full.load(Relaxed)
    }

    /// One iteration: select down to a leaf (counting each visit at once, so
    /// concurrent threads see it as a virtual loss), maybe expand it, play
    /// out (at most `max_playouts` playouts, at least one), and back the
    /// results up.
    pub(crate) fn iterate(&self, w: &mut Worker, max_playouts: u32) {
        let mut game = self.root_game.clone();
        w.path.clear();
        w.pending_visits += 1;
        w.path.push((ROOT, game.to_move()));
        let mut idx = ROOT;
        let mut parent_children: u32 = 0;
        // Visits of `idx` this thread has not yet added to its counter.
        let mut own_pending: u32 = 0;
        if self.config.rave {
            w.clear_final_boards(game.topology());
        }
        // Playouts (or proven results) backed up, and their wins per seat.
        let (playouts, wins) = loop {
            let node = self.node(idx);
            if let Some(winner) = node.proof() {
                if self.config.rave {
                    w.record_final_board(&game, winner);
                }
                let child = w.path.get(1).map(|&(i, _)| (i - w.root_first) as usize);
                if let Some(t) = &mut w.tally
                    && game.is_over()
                {
                    t.record(&game, child);
                }
                let mut wins = [0u32; 2];
                wins[winner.index()] = 1;
                break (1, wins);
            }
            let mut first = node.first_child.load(Acquire);
            if first == NO_CHILDREN
                && (idx == ROOT
                    || node.visits() + own_pending
                        >= (parent_children / self.config.expand_divisor).max(1))
                && !self.is_full()
                && let Some(f) = self.expand(node, &game, w)
            {
                if node.proof().is_some() {
                    // Proven by the expansion: backed up as a proof above.
                    continue;
                }
                first = f;
            }
            if first == NO_CHILDREN || first == EXPANDING {
                if let Some(winner) = self.solve_leaf(&game) {
                    // Backed up as a proof on the next turn of the loop.
                    node.set_proof(winner);
                    continue;
                }
                break self.leaf_playouts(game, w, max_playouts);
            }
            let n = u32::from(node.num_children.load(Relaxed));
            let mover = game.to_move();
            let child = if idx == ROOT {
                if w.root_delta.len() != n as usize || w.root_first != first {
                    self.flush(w);
                    w.root_delta.clear();
                    w.root_delta.resize(n as usize, (0, 0));
                    w.root_amaf.clear();
                    if self.config.rave {
                        w.root_amaf.resize(n as usize, (0, 0));
                    }
                    w.root_first = first;
                }
                let parent_visits = node.visits() + w.pending_visits;
                // The root's wins count for its side to move.
                let mirror = (
                    parent_visits,
                    parent_visits.saturating_sub(node.wins() + w.pending_wins),
                );
                let child = self.select_root(
                    parent_visits,
                    mirror,
                    first,
                    n,
                    mover,
                    &w.root_delta,
                    &w.root_amaf,
                );
                let k = (child - first) as usize;
                if w.root_delta[k].0 == 0 {
                    w.touched.push(k as u32);
                }
                w.root_delta[k].0 += 1;
                own_pending = w.root_delta[k].0;
                child
            } else {
                let child = self.select(node, first, n, mover);
                self.node(child).visits.fetch_add(1, Relaxed);
                own_pending = 0;
                child
            };
            let c = self.node(child);
            game.apply(c.action());
            w.path.push((child, mover));
            if game.is_over() && c.proof().is_none() {
                c.set_proof(game.winner().expect("a finished game has a winner"));
            }
            parent_children = n;
            idx = child;
        };
        if let Some(t) = &mut w.tally {
            t.end_iteration(w.path.get(1).map(|&(i, _)| (i - w.root_first) as usize));
        }
        // Selection counted one visit on every node of the path already.
        let extra = playouts - 1;
        w.pending_visits += extra;
        w.pending_wins += wins[w.path[0].1.index()];
        if let Some(&(i, mover)) = w.path.get(1) {
            let delta = &mut w.root_delta[(i - w.root_first) as usize];
            delta.0 += extra;
            delta.1 += wins[mover.index()];
        }
        for &(i, mover) in w.path.iter().skip(2) {
            let node = self.node(i);
            if extra > 0 {
                node.visits.fetch_add(extra, Relaxed);
            }
            let won = wins[mover.index()];
            if won > 0 {
                node.wins.fetch_add(won, Relaxed);
            }
        }
        if self.config.rave {
            self.update_amaf(w);
        }
        if self.node(idx).proof().is_some() {
            self.propagate_proof(&w.path);
        }
        w.iterations += u64::from(playouts);
        // Counted in iterations: a flush writes every root child's AMAF
        // counts, and with many playouts per leaf a batch of visits would
        // be only a few iterations.
        if w.pending_visits >= ROOT_BATCH * self.config.leaf_playouts {
            self.flush(w);
        }
    }

    /// The winner of the leaf `game` with best play, when it has few
    /// enough empty points ([`TreeConfig::solve_empty`]) and the game a
    /// table for them.
    fn solve_leaf(&self, game: &G) -> Option<Colour> {
        if self.config.solve_empty == 0 || game.is_over() {
            return None;
        }
        let stones: u32 = Colour::BOTH
            .iter()
            .flat_map(|&c| game.stone_words(c))
            .map(|w| w.count_ones())
            .sum();
        let empty = game.topology().cell_count() as u32 - stones;
        (empty <= self.config.solve_empty)
            .then(|| game.exact_winner())
            .flatten()
    }

    /// One playout from `game` (a leaf of the current path) by the
    /// configured policy; returns the winner.
    #[inline(always)]
    fn playout(&self, game: &mut G, w: &mut Worker) -> Colour {
        if let Some(weights) = self.config.pattern_playouts {
            game.pattern_playout(
                &mut w.rng,
                weights,
                self.config.pattern_temperature,
                &mut w.pattern_playout,
            )
        } else if self.config.smart_playouts {
            game.policy_playout(&mut w.rng, self.config.playout)
        } else {
            game.playout(&mut w.rng)
        }
    }

    /// [`TreeConfig::leaf_playouts`] playouts from the leaf `game` (at most
    /// `max_playouts`, at least one), each recorded for RAVE; returns their
    /// number and their wins per seat. The last playout plays `game` itself.
    fn leaf_playouts(&self, game: G, w: &mut Worker, max_playouts: u32) -> (u32, [u32; 2]) {
        let playouts = self.config.leaf_playouts.min(max_playouts).max(1);
        let mut wins = [0u32; 2];
        let mut play_out = |mut end: G, w: &mut Worker| {
            let winner = self.playout(&mut end, w);
            if self.config.rave {
                w.record_final_board(&end, winner);
            }
            let child = w.path.get(1).map(|&(i, _)| (i - w.root_first) as usize);
            if let Some(t) = &mut w.tally {
                t.record(&end, child);
            }
            wins[winner.index()] += 1;
        };
        for _ in 1..playouts {
            play_out(game.clone(), w);
        }
        play_out(game, w);
        (playouts, wins)
    }

    /// RAVE: credits every child of every node on the path with the
    /// iteration's playouts that ended with its stone on the board (a stone
    /// action's cell was empty at its parent, so it was placed below it, in
    /// the tree or the playout), and the wins among them for the seat that
    /// chose among those children.
    ///
    /// Every child is read and written without a branch: whether its stone
    /// is on the board is a coin toss, and a mispredicted branch per child
    /// cost more than the store.
    fn update_amaf(&self, w: &mut Worker) {
        w.tally_final_boards();
        let table = &w.on_final_board;
        // The seat choosing among a node's children is the mover recorded
        // with the next node on the path.
        let levels = (w.path.len() - 1).min(self.config.rave_depth as usize);
        for k in 0..levels {
            let (parent, _) = w.path[k];
            let chooser = w.path[k + 1].1;
            let kids = self.node(parent).children();
            if parent == ROOT && kids.start == w.root_first && kids.len() == w.root_amaf.len() {
                for (node, pending) in self
                    .arena
                    .slice(kids.start, kids.len() as u32)
                    .iter()
                    .zip(w.root_amaf.iter_mut())
                {
                    let (hits, won) = amaf_credit(table, node, chooser);
                    pending.0 += hits;
                    pending.1 += won;
                }
                continue;
            }
            for node in self.arena.slice(kids.start, kids.len() as u32) {
                let (hits, won) = amaf_credit(table, node, chooser);
                node.amaf_visits
                    .store(node.amaf_visits.load(Relaxed).wrapping_add(hits), Relaxed);
                node.amaf_wins
                    .store(node.amaf_wins.load(Relaxed).wrapping_add(won), Relaxed);
            }
        }
    }

    /// Adds a thread's pending counts to the root and its children.
    pub(crate) fn flush(&self, w: &mut Worker) {
        let root = self.root();
        root.visits.fetch_add(w.pending_visits, Relaxed);
        root.wins.fetch_add(w.pending_wins, Relaxed);
        w.pending_visits = 0;
        w.pending_wins = 0;
        for &k in &w.touched {
            let (visits, wins) = std::mem::take(&mut w.root_delta[k as usize]);
            let c = self.node(w.root_first + k);
            c.visits.fetch_add(visits, Relaxed);
            if wins > 0 {
                c.wins.fetch_add(wins, Relaxed);
            }
        }
        w.touched.clear();
        for (k, pending) in w.root_amaf.iter_mut().enumerate() {
            let (visits, wins) = std::mem::take(pending);
            if visits > 0 {
                let c = self.node(w.root_first + k as u32);
                c.amaf_visits.fetch_add(visits, Relaxed);
                c.amaf_wins.fetch_add(wins, Relaxed);
            }
        }
    }

    /// Root visits including the thread's pending ones.
    pub(crate) fn root_visits_with(&self, w: &Worker) -> u32 {
        self.root().visits() + w.pending_visits
    }

    /// MCTS-solver backup: a position is won for the side to move if some
    /// child is a proven win for it, and lost if every child is a proven loss.
    fn propagate_proof(&self, path: &[(u32, Colour)]) {
        for k in (1..path.len()).rev() {
            let (child, mover) = path[k];
            let Some(cw) = self.node(child).proof() else {
                return;
            };
            let parent = self.node(path[k - 1].0);
            if parent.proof().is_some() {
                return;
            }
            if cw == mover {
                parent.set_proof(mover);
            } else {
                let all_lost = parent.children().all(|i| self.node(i).proof() == Some(cw));
                if !all_lost {
                    return;
                }
                parent.set_proof(cw);
            }
        }
    }

    /// Creates the children of `node` (position `game`); returns the first
    /// child index, or `None` when another thread is expanding it, the arena
    /// is full or there is no legal action.
    fn expand(&self, node: &Node, game: &G, w: &mut Worker) -> Option<u32> {
        if node
            .first_child
            .compare_exchange(NO_CHILDREN, EXPANDING, Acquire, Relaxed)
            .is_err()
        {
            return None;
        }
        w.actions.clear();
        game.legal_actions(&mut w.actions);
        if let Some(f) = &self.filter {
            let depth = game.turns_played() - self.root_game.turns_played();
            f.retain(&mut w.actions, game.to_move(), depth);
        }
        let n = w.actions.len();
        let first = if n == 0 || n > usize::from(u16::MAX) {
            None
        } else {
            self.arena.alloc(n)
        };
        let Some(first) = first else {
            if n > 0 {
                self.full.store(true, Relaxed);
            }
            node.first_child.store(NO_CHILDREN, Release);
            return None;
        };
        // A random order: "first unvisited child" is then a random one.
        for i in (1..n).rev() {
            let j = below(&mut w.rng, i as u32 + 1) as usize;
            w.actions.swap(i, j);
        }
        let with_priors = self.config.priors
            && crate::knowledge::action_priors(
                game,
                self.config.patterns,
                || self.last_stones(&w.path),
                &w.actions,
                &mut w.features,
                &mut w.priors,
            )
            && w.priors.len() == n;
        if with_priors {
            // Highest prior first (the random order breaks ties), so the
            // first unvisited child is the most promising one.
            let mut order: Vec<(u8, Action)> = w
                .priors
                .iter()
                .zip(&w.actions)
                .map(|(&p, &a)| (quantize(p), a))
                .collect();
            order.sort_by_key(|&(p, _)| std::cmp::Reverse(p));
            for (k, (p, a)) in order.into_iter().enumerate() {
                let c = self.node(first + k as u32);
                c.action.store(a.bits(), Relaxed);
                c.prior.store(p, Relaxed);
            }
        } else {
            for (k, a) in w.actions.iter().enumerate() {
                let c = self.node(first + k as u32);
                c.action.store(a.bits(), Relaxed);
            }
        }
        // A child that wins at once makes the node a proven win for the
        // mover before any child is tried: selection would take untried
        // children in prior order and judge them by AMAF rates, and could
        // pass over the winning one for thousands of visits.
        let mover = game.to_move();
        for k in 0..n as u32 {
            let c = self.node(first + k);
            if game.wins_at_once(c.action()) {
                c.set_proof(mover);
                node.set_proof(mover);
            }
        }
        node.num_children.store(n as u16, Relaxed);
        node.first_child.store(first, Release);
        Some(first)
    }

    /// The last two stones placed on the way from the root to the current
    /// node, newest first (the root's own history is not known here).
    fn last_stones(&self, path: &[(u32, Colour)]) -> [Option<Cell>; 2] {
        let mut last = [None; 2];
        let mut k = 0;
        for &(i, _) in path[1..].iter().rev() {
            let a = Action::from_bits(self.node(i).action.load(Relaxed));
            if a.is_stone() {
                last[k] = Some(a.cell());
                k += 1;
                if k == 2 {
                    break;
                }
            }
        }
        last
    }

    /// UCT selection among the children `first..first + n` of `parent` for
    /// `mover`.
    ///
    /// `w/n + e/sqrt(n)` is computed as `(w * r + e) * r` with
    /// `r = 1/sqrt(n)` from a table for small `n`, so a child costs two
    /// multiplications and no division or square root in most of the tree.
    /// Four independent running maxima break the loop's dependency chain;
    /// ties go to the lowest index, as in a plain scan.
    #[inline]
    fn select(&self, parent: &Node, first: u32, n: u32, mover: Colour) -> u32 {
        let v = parent.visits();
        // A node's wins count for the seat that chose it.
        let m = (v, parent.wins());
        match (self.config.priors, self.config.rave) {
            (true, true) => self.select_with::<true, false, true>(v, m, first, n, mover, &[], &[]),
            (true, false) => {
                self.select_with::<true, false, false>(v, m, first, n, mover, &[], &[])
            }
            (false, true) => {
                self.select_with::<false, false, true>(v, m, first, n, mover, &[], &[])
            }
            (false, false) => {
                self.select_with::<false, false, false>(v, m, first, n, mover, &[], &[])
            }
        }
    }

    /// [`Self::select`] at the root, adding the thread's pending counts
    /// (visits and wins, and AMAF when RAVE is on).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn select_root(
        &self,
        parent_visits: u32,
        mirror: (u32, u32),
        first: u32,
        n: u32,
        mover: Colour,
        deltas: &[(u32, u32)],
        amaf: &[(u32, u32)],
    ) -> u32 {
        let (v, m, d, a) = (parent_visits, mirror, deltas, amaf);
        match (self.config.priors, self.config.rave) {
            (true, true) => self.select_with::<true, true, true>(v, m, first, n, mover, d, a),
            (true, false) => self.select_with::<true, true, false>(v, m, first, n, mover, d, a),
            (false, true) => self.select_with::<false, true, true>(v, m, first, n, mover, d, a),
            (false, false) => self.select_with::<false, true, false>(v, m, first, n, mover, d, a),
        }
    }

    /// `mirror`: the parent's playouts and the wins in them of the seat
    /// that chose it, which stand in for the swap's AMAF statistics.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn select_with<const BIAS: bool, const DELTA: bool, const RAVE: bool>(
        &self,
        parent_visits: u32,
        mirror: (u32, u32),
        first: u32,
        n: u32,
        mover: Colour,
        deltas: &[(u32, u32)],
        amaf_deltas: &[(u32, u32)],
    ) -> u32 {
        const LANES: usize = 4;
        let bias_scale = self.config.prior_weight / 255.0;
        let inv_equiv = 1.0 / self.config.rave_equiv;
        let explore = self.config.exploration * (parent_visits.max(1) as f32).ln().sqrt();
        let table: &[f32; RSQRT_TABLE] = &RSQRT;
        let kids = self.arena.slice(first, n);
        let mine = 1 + mover as u8;
        let swap_mirror = self.config.swap_mirror;
        // The score of child `k`, or `Err` to take it at once (unvisited or
        // a proven win) or `None` to skip it (a proven loss).
        let score = |c: &Node, k: usize| -> Result<Option<f32>, ()> {
            let (mut visits, mut wins) = (c.visits.load(Relaxed), c.wins.load(Relaxed));
            if DELTA {
                let (v, w) = deltas[k];
                visits += v;
                wins += w;
            }
            let proof = c.proof.load(Relaxed);
            if proof != 0 {
                return if proof == mine { Err(()) } else { Ok(None) };
            }
            if RAVE {
                let (mut av, mut aw) = c.amaf();
                if DELTA && let Some(&(v, w)) = amaf_deltas.get(k) {
                    av += v;
                    aw += w;
                }
                // The swap puts no stone of its own on a cell, so it has no
                // AMAF statistics; the position after it is the parent's
                // mirrored with the seats exchanged, so the first player's
                // rate there is a sample of the swapper's.
                if av == 0 && swap_mirror && c.action() == Action::SWAP {
                    (av, aw) = mirror;
                }
                if visits == 0 && av == 0 {
                    return Err(());
                }
                let bias = if BIAS {
                    bias_scale * f32::from(c.prior.load(Relaxed))
                } else {
                    0.0
                };
                return Ok(Some(rave_score(
                    visits,
                    wins,
                    (av, aw),
                    inv_equiv,
                    explore,
                    bias,
                    table,
                )));
            }
            if visits == 0 {
                return Err(());
            }
            let r = match table.get(visits as usize) {
                Some(&r) => r,
                None => 1.0 / (visits as f32).sqrt(),
            };
            // Progressive bias: prior_weight * prior / n, folded into wins.
            let wins = if BIAS {
                wins as f32 + bias_scale * f32::from(c.prior.load(Relaxed))
            } else {
                wins as f32
            };
            Ok(Some((wins * r + explore) * r))
        };
        let mut best_score = [f32::NEG_INFINITY; LANES];
        let mut best = [usize::MAX; LANES];
        let chunks = kids.chunks_exact(LANES);
        let tail = chunks.remainder();
        for (ci, chunk) in chunks.enumerate() {
            for lane in 0..LANES {
                let k = ci * LANES + lane;
                match score(&chunk[lane], k) {
                    Err(()) => return first + k as u32,
                    Ok(Some(s)) if s > best_score[lane] => {
                        best_score[lane] = s;
                        best[lane] = k;
                    }
                    Ok(_) => {}
                }
            }
        }
        let base = kids.len() - tail.len();
        for (j, c) in tail.iter().enumerate() {
            let k = base + j;
            let lane = j % LANES;
            match score(c, k) {
                Err(()) => return first + k as u32,
                Ok(Some(s)) if s > best_score[lane] => {
                    best_score[lane] = s;
                    best[lane] = k;
                }
                Ok(_) => {}
            }
        }
        let mut pick = usize::MAX;
        let mut pick_score = f32::NEG_INFINITY;
        for lane in 0..LANES {
            let (s, k) = (best_score[lane], best[lane]);
            if k != usize::MAX
                && (pick == usize::MAX || s > pick_score || (s == pick_score && k < pick))
            {
                pick = k;
                pick_score = s;
            }
        }
        // Every child a proven loss: any will do.
        first + if pick == usize::MAX { 0 } else { pick as u32 }
    }

    /// Descends from the root by UCT without changing anything; returns
    /// the leaf's depth (for benchmarks of selection alone).
    pub(crate) fn select_walk(&self) -> usize {
        let mut game = self.root_game.clone();
        let mut idx = ROOT;
        let mut depth = 0;
        loop {
            let node = self.node(idx);
            let kids = node.children();
            if kids.is_empty() {
                return depth;
            }
            let mover = game.to_move();
            idx = self.select(node, kids.start, kids.len() as u32, mover);
            game.apply(self.node(idx).action());
            depth += 1;
        }
    }

    /// The parts of an iteration after selection, for benchmarks: descends
    /// like [`Self::select_walk`] keeping the path in `w`, then plays the
    /// leaf's playouts with their AMAF recording (nothing is backed up);
    /// returns the wins per seat.
    pub(crate) fn leaf_walk(&self, w: &mut Worker) -> [u32; 2] {
        let mut game = self.root_game.clone();
        w.path.clear();
        w.path.push((ROOT, game.to_move()));
        if self.config.rave {
            w.clear_final_boards(game.topology());
        }
        let mut idx = ROOT;
        loop {
            let node = self.node(idx);
            let kids = node.children();
            if kids.is_empty() || game.is_over() {
                break;
            }
            let mover = game.to_move();
            idx = self.select(node, kids.start, kids.len() as u32, mover);
            game.apply(self.node(idx).action());
            w.path.push((idx, mover));
        }
        self.leaf_playouts(game, w, u32::MAX).1
    }

    /// The AMAF update of an iteration over the path and playouts of the
    /// last [`Self::leaf_walk`] with `w`, for benchmarks.
    pub(crate) fn amaf_walk(&self, w: &mut Worker) {
        if self.config.rave {
            self.update_amaf(w);
        }
    }

    /// The most promising child of `i` for reporting: a proven win for
    /// `mover`, else the most visited that is not a proven loss.
    pub(crate) fn best_child(&self, i: u32, mover: Colour) -> Option<u32> {
        let mut best: Option<(u32, (u8, u32, u32))> = None;
        for c in self.node(i).children() {
            let node = self.node(c);
            let rank = match node.proof() {
                Some(w) if w == mover => 2,
                Some(_) => 0,
                None => 1,
            };
            let key = (rank, node.visits(), node.wins());
            if best.is_none_or(|(_, k)| key > k) {
                best = Some((c, key));
            }
        }
        best.map(|(c, _)| c)
    }

    /// A new tree rooted at child path `path` of this one (a list of child
    /// indices from the root), with that subtree's nodes and statistics
    /// copied contiguously into a fresh arena.
    pub(crate) fn reroot(&self, path: &[u32], new_game: G, capacity: usize) -> Tree<G> {
        let fresh = Tree::new(new_game, capacity, self.config);
        let old_root = *path.last().unwrap_or(&ROOT);
        // The root's wins count for its side to move; a child's count for the
        // seat that chose it. Every playout has a winner, so the other
        // seat's wins are visits - wins.
        let old_mover_is_new_to_move = if path.is_empty() {
            true
        } else {
            let mut g = self.root_game.clone();
            let mut mover = g.to_move();
            for &c in path {
                mover = g.to_move();
                g.apply(self.node(c).action());
            }
            mover == fresh.root_game.to_move()
        };
        let src = self.node(old_root);
        let dst = fresh.root();
        let (v, w) = (src.visits(), src.wins());
        dst.visits.store(v, Relaxed);
        dst.wins
            .store(if old_mover_is_new_to_move { w } else { v - w }, Relaxed);
        dst.proof.store(src.proof.load(Relaxed), Relaxed);
        let mut queue = std::collections::VecDeque::new();
        queue.push_back((old_root, ROOT));
        while let Some((from, to)) = queue.pop_front() {
            let kids = self.node(from).children();
            if kids.is_empty() {
                continue;
            }
            let Some(first) = fresh.arena.alloc(kids.len()) else {
                fresh.full.store(true, Relaxed);
                continue;
            };
            for (k, c) in kids.clone().enumerate() {
                let s = self.node(c);
                let d = fresh.node(first + k as u32);
                d.action.store(s.action.load(Relaxed), Relaxed);
                d.visits.store(s.visits(), Relaxed);
                d.wins.store(s.wins(), Relaxed);
                d.proof.store(s.proof.load(Relaxed), Relaxed);
                d.prior.store(s.prior.load(Relaxed), Relaxed);
                d.amaf_visits.store(s.amaf_visits.load(Relaxed), Relaxed);
                d.amaf_wins.store(s.amaf_wins.load(Relaxed), Relaxed);
                queue.push_back((c, first + k as u32));
            }
            let t = fresh.node(to);
            t.num_children.store(kids.len() as u16, Relaxed);
            t.first_child.store(first, Release);
        }
        fresh
    }

    /// The child of `i` reached by `action`.
    pub(crate) fn child_by_action(&self, i: u32, action: Action) -> Option<u32> {
        self.node(i)
            .children()
            .find(|&c| self.node(c).action() == action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oddity_rules::game::Game;
    use oddity_rules::game::{GameSpec, Rules};
    use oddity_rules::kind::GameKind;
    use oddity_rules::odd::OddGame;
    use oddity_rules::random::rng_from_seed;

    fn rave_config() -> TreeConfig {
        TreeConfig {
            exploration: 1.0,
            expand_divisor: 4,
            priors: false,
            prior_weight: 0.0,
            patterns: None,
            rave: true,
            rave_equiv: 1000.0,
            rave_depth: u32::MAX,
            swap_mirror: true,
            leaf_playouts: 1,
            playout: PlayoutOptions::default(),
            smart_playouts: false,
            pattern_playouts: None,
            pattern_temperature: 1.0,
            solve_empty: 0,
        }
    }

    /// An Odd board ends full, so every playout puts exactly one of each
    /// empty cell's two stones on the final board: the root's children
    /// together gain one AMAF playout per empty cell and playout, whether
    /// a thread credits them at once or from its pending counts, and
    /// whether a leaf is played out once or several times.
    #[test]
    fn root_amaf_counts_every_playout_once_per_cell() {
        for leaf_playouts in [1, 4] {
            root_amaf_counts(leaf_playouts);
        }
    }

    fn root_amaf_counts(leaf_playouts: u32) {
        let spec = GameSpec::new(GameKind::Odd, 3, Rules::default()).unwrap();
        let game = OddGame::<10>::new(&spec);
        let empty = game.topology().cells().len() as u64;
        let config = TreeConfig {
            leaf_playouts,
            ..rave_config()
        };
        let tree = Tree::new(game, 1 << 16, config);
        let mut workers = [Worker::new(rng_from_seed(1)), Worker::new(rng_from_seed(2))];
        // Interleaved, as two threads would be, ending between flushes.
        for k in 0..1001 {
            tree.iterate(&mut workers[k % 2], u32::MAX);
        }
        for w in &mut workers {
            tree.flush(w);
        }
        let root_visits = u64::from(tree.root().visits());
        assert_eq!(root_visits, 1001 * u64::from(leaf_playouts));
        let played: u64 = workers.iter().map(|w| w.iterations).sum();
        assert_eq!(played, root_visits);
        let child_visits: u64 = tree
            .root()
            .children()
            .map(|c| u64::from(tree.node(c).visits()))
            .sum();
        // The root is expanded at once, so every playout is below a child.
        assert_eq!(child_visits, root_visits);
        let credited: u64 = tree
            .root()
            .children()
            .map(|c| u64::from(tree.node(c).amaf().0))
            .sum();
        assert_eq!(credited, root_visits * empty);
        for c in tree.root().children() {
            let (visits, wins) = tree.node(c).amaf();
            assert!(wins <= visits && u64::from(visits) <= root_visits);
        }
    }

    /// A filter keeps the seat's forbidden stones out of the tree down to
    /// its depth, leaves the other seat alone, and is dropped where it
    /// would leave no action.
    #[test]
    fn move_filter_shapes_the_children() {
        use crate::filter::MoveRule;
        let spec = GameSpec::new(GameKind::Odd, 2, Rules::default()).unwrap();
        let game = OddGame::<10>::new(&spec);
        let topo = game.topology();
        let size = topo.cells().iter().map(|c| c.index() + 1).max().unwrap();
        let rule = |allow: bool, names: &[&str]| {
            let mut cells = vec![false; size];
            for n in names {
                cells[topo.parse_cell(n).unwrap().index()] = true;
            }
            MoveRule {
                seat: Colour::Black,
                allow,
                cells,
                pass: false,
                swap: false,
                until_depth: 1,
                colour: None,
                second_stone: true,
            }
        };
        let cells_at = |filter: MoveFilter| {
            let mut tree = Tree::new(game.clone(), 1 << 12, rave_config());
            tree.filter = Some(Arc::new(filter));
            let mut w = Worker::new(rng_from_seed(5));
            for _ in 0..200 {
                tree.iterate(&mut w, u32::MAX);
            }
            let mut root: Vec<String> = tree
                .root()
                .children()
                .map(|c| topo.name(tree.node(c).action().cell()).to_string())
                .collect();
            root.sort();
            root.dedup();
            // White's replies below the root are not filtered.
            let below = tree
                .root()
                .children()
                .flat_map(|c| tree.node(c).children())
                .any(|g| topo.name(tree.node(g).action().cell()) == "B2");
            (root, below)
        };
        let (root, below) = cells_at(MoveFilter {
            rules: vec![rule(false, &["B2", "A1"])],
        });
        assert_eq!(root, ["A2", "B1", "B3", "C2", "C3"]);
        assert!(below);
        let (root, _) = cells_at(MoveFilter {
            rules: vec![rule(true, &["C3"])],
        });
        assert_eq!(root, ["C3"]);
        let all = ["A1", "A2", "B1", "B2", "B3", "C2", "C3"];
        let (root, _) = cells_at(MoveFilter {
            rules: vec![rule(false, &all)],
        });
        assert_eq!(root, all);
    }

    /// The final-board table filled by walking the stone words holds, for
    /// every cell and colour, what a lookup of each cell's stone gives, on
    /// the finished boards of random playouts of every game.
    #[test]
    fn final_board_recording_matches_a_per_cell_recount() {
        use oddity_rules::position::AnyGame;
        for kind in [
            GameKind::Xodd,
            GameKind::Yodd,
            GameKind::Odd,
            GameKind::Onyx,
        ] {
            let game = AnyGame::new(&GameSpec::default_for(kind));
            oddity_rules::with_game!(&game, g => {
                let mut w = Worker::new(rng_from_seed(3));
                let mut rng = rng_from_seed(4);
                w.clear_final_boards(g.topology());
                let mut expected = vec![[0u8; 2]; STONE_BITS];
                // Forty playouts counted before one tally carry into the
                // sixth plane; a second tally adds to the first.
                for playouts in [40, 3] {
                    for _ in 0..playouts {
                        let mut end = g.clone();
                        let winner = end.playout(&mut rng);
                        w.record_final_board(&end, winner);
                        for &cell in end.topology().cells() {
                            if let Some(c) = end.stone_at(cell) {
                                expected[usize::from(Action::stone(cell, c).bits())]
                                    [winner.index()] += 1;
                            }
                        }
                    }
                    w.tally_final_boards();
                    assert_eq!(w.on_final_board, expected, "{kind:?}");
                }
            });
        }
    }
}
