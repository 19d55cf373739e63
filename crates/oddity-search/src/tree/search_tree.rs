//! The tree the search threads share: its nodes, root position and
//! settings, and one lock-free iteration (selection, expansion, playouts,
//! backup, proofs).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use oddity_rules::{Action, Cell, Colour};

use crate::filter::MoveFilter;
use crate::knowledge::{Knowledge, action_priors};
use crate::tuning::{BoardNetUse, LeafNet};

use super::amaf::update_amaf;
use super::config::TreeConfig;
use super::node::{Arena, EXPANDING, NO_CHILDREN, Node, ROOT};
use super::select::select_with;
use super::worker::{GraveSource, ROOT_BATCH, Worker};

use Ordering::{Acquire, Relaxed, Release};

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

/// A prior in `0..=1` in 255ths, at least 1 (0 means "no prior").
fn quantize(p: f32) -> u8 {
    (p.clamp(0.0, 1.0) * 255.0).round().max(1.0) as u8
}

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

    /// Marks the arena full: the tree stops growing.
    pub(crate) fn set_full(&self) {
        self.full.store(true, Relaxed);
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
        if self.config.grave > 0 {
            w.grave.iter_mut().for_each(GraveSource::reset);
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
            if let Some(b) = self.config.board_net
                && idx != ROOT
                && node.visits() + own_pending >= b.visits
                && node.board_net.load(Relaxed) == 0
                && node
                    .board_net
                    .compare_exchange(0, 1, Relaxed, Relaxed)
                    .is_ok()
            {
                self.apply_board_net(b, &game, node, first, n, w);
            }
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
                if self.config.grave > 0 && parent_visits >= self.config.grave {
                    w.grave[mover.index()].set(ROOT);
                }
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
                let grave = if self.config.rave && self.config.grave > 0 {
                    self.grave_table(w, idx, node, mover)
                } else {
                    None
                };
                let child = self.select(node, first, n, mover, grave);
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
            update_amaf(&self.arena, w, self.config.rave_depth);
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

    /// GRAVE: the AMAF statistics by stone action that the children of
    /// `node` (index `idx`, `mover` to move) are scored by: its own
    /// children's (`None`) once it has [`TreeConfig::grave`] visits, and
    /// then it becomes `mover`'s source for the nodes below it; before,
    /// the children's of the path's deepest such node with the same side
    /// to move, if there is one.
    fn grave_table<'w>(
        &self,
        w: &'w mut Worker,
        idx: u32,
        node: &Node,
        mover: Colour,
    ) -> Option<&'w [(u32, u32)]> {
        let source = &mut w.grave[mover.index()];
        if node.visits() >= self.config.grave {
            source.set(idx);
            return None;
        }
        let kids = self.node(source.node()?).children();
        Some(source.statistics(self.arena.slice(kids.start, kids.len() as u32)))
    }

    /// The winner of the leaf `game` with best play, when nothing left to
    /// play can change it ([`TreeConfig::settled_leaves`]), or when it has
    /// few enough empty points ([`TreeConfig::solve_empty`]) and the game a
    /// table for them.
    fn solve_leaf(&self, game: &G) -> Option<Colour> {
        if self.config.settled_leaves
            && let Some(winner) = game.settled_winner()
        {
            return Some(winner);
        }
        if self.config.solve_empty == 0 || game.is_over() {
            return None;
        }
        (empty_points(game) <= self.config.solve_empty)
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
    pub(crate) fn leaf_playouts(
        &self,
        game: G,
        w: &mut Worker,
        max_playouts: u32,
    ) -> (u32, [u32; 2]) {
        let playouts = self.config.leaf_playouts.min(max_playouts).max(1);
        let mut wins = [0u32; 2];
        // With a value network, its share of the leaf's visits takes the
        // network's value instead of playouts (rounded at random to whole
        // visits and wins, so that the expected result is the mix).
        let mut from_net = 0;
        if let Some(LeafNet {
            net,
            share,
            most_empty,
        }) = self.config.value_net
            && !game.is_over()
            && empty_points(&game) <= most_empty
        {
            from_net = ((share * playouts as f32 + unit(&mut w.rng)) as u32).min(playouts);
            if from_net > 0 {
                let black = net.black_wins(&game) * from_net as f32 + unit(&mut w.rng);
                let black = (black as u32).min(from_net);
                wins[Colour::Black.index()] += black;
                wins[Colour::White.index()] += from_net - black;
            }
            if from_net == playouts {
                return (playouts, wins);
            }
        }
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
        for _ in 1..playouts - from_net {
            play_out(game.clone(), w);
        }
        play_out(game, w);
        (playouts, wins)
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
        if self.config.settled_moves {
            game.keep_one_tempo_move(&mut w.actions);
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
            let j = w.rng.below(i as u32 + 1) as usize;
            w.actions.swap(i, j);
        }
        let at_root = std::ptr::eq(node, self.root());
        let with_priors = self.config.priors
            && match self.config.board_net {
                Some(b) if at_root && b.priors => {
                    let own = if b.mix < 1.0 && self.own_priors(game, w) {
                        std::mem::take(&mut w.priors)
                    } else {
                        Vec::new()
                    };
                    w.board_net_priors(b.net, game);
                    for (k, p) in w.priors.iter_mut().enumerate() {
                        *p = b.mixed(*p, own.get(k).copied().unwrap_or(0.0));
                    }
                    true
                }
                _ => self.own_priors(game, w),
            }
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

    /// Fills `w.priors` with the game's own priors of `w.actions` (the
    /// hand-written ones, or the patterns'); false where it has none.
    fn own_priors(&self, game: &G, w: &mut Worker) -> bool {
        action_priors(
            game,
            self.config.patterns,
            self.config.race,
            || self.last_stones(&w.path),
            &w.actions,
            &mut w.features,
            &mut w.priors,
        )
    }

    /// Evaluates the board network at `node`, the last of `w`'s path,
    /// whose position is `game`: its policy as the priors of the children
    /// `first..first + n`, its value as visits of `node`.
    fn apply_board_net(
        &self,
        b: BoardNetUse,
        game: &G,
        node: &Node,
        first: u32,
        n: u32,
        w: &mut Worker,
    ) {
        w.actions.clear();
        w.actions
            .extend((first..first + n).map(|k| self.node(k).action()));
        let black_wins = w.board_net_priors(b.net, game);
        if b.priors {
            for (k, &p) in w.priors.iter().enumerate() {
                let child = self.node(first + k as u32);
                let own = f32::from(child.prior.load(Relaxed)) / 255.0;
                child.prior.store(quantize(b.mixed(p, own)), Relaxed);
            }
        }
        if b.value_visits > 0 {
            // The node's wins count for the side that moved into it.
            let mover = w.path.last().expect("the path ends at the node").1;
            let won = match mover {
                Colour::Black => black_wins,
                Colour::White => 1.0 - black_wins,
            };
            node.visits.fetch_add(b.value_visits, Relaxed);
            node.wins
                .fetch_add((won * b.value_visits as f32).round() as u32, Relaxed);
        }
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
    pub(crate) fn select(
        &self,
        parent: &Node,
        first: u32,
        n: u32,
        mover: Colour,
        grave: Option<&[(u32, u32)]>,
    ) -> u32 {
        let v = parent.visits();
        // A node's wins count for the seat that chose it.
        let m = (v, parent.wins());
        match (self.config.priors, self.config.rave) {
            (true, true) => select_with::<true, false, true>(
                &self.config,
                &self.arena,
                v,
                m,
                first,
                n,
                mover,
                &[],
                &[],
                grave,
            ),
            (true, false) => select_with::<true, false, false>(
                &self.config,
                &self.arena,
                v,
                m,
                first,
                n,
                mover,
                &[],
                &[],
                grave,
            ),
            (false, true) => select_with::<false, false, true>(
                &self.config,
                &self.arena,
                v,
                m,
                first,
                n,
                mover,
                &[],
                &[],
                grave,
            ),
            (false, false) => select_with::<false, false, false>(
                &self.config,
                &self.arena,
                v,
                m,
                first,
                n,
                mover,
                &[],
                &[],
                grave,
            ),
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
            (true, true) => select_with::<true, true, true>(
                &self.config,
                &self.arena,
                v,
                m,
                first,
                n,
                mover,
                d,
                a,
                None,
            ),
            (true, false) => select_with::<true, true, false>(
                &self.config,
                &self.arena,
                v,
                m,
                first,
                n,
                mover,
                d,
                a,
                None,
            ),
            (false, true) => select_with::<false, true, true>(
                &self.config,
                &self.arena,
                v,
                m,
                first,
                n,
                mover,
                d,
                a,
                None,
            ),
            (false, false) => select_with::<false, true, false>(
                &self.config,
                &self.arena,
                v,
                m,
                first,
                n,
                mover,
                d,
                a,
                None,
            ),
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
}

/// A uniform draw from `[0, 1)`, 24 bits.
#[inline(always)]
fn unit(rng: &mut oddity_rules::Rng) -> f32 {
    (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32
}

/// The empty points of `game`'s board.
fn empty_points<G: Knowledge>(game: &G) -> u32 {
    let stones: u32 = Colour::BOTH
        .iter()
        .flat_map(|&c| game.stone_words(c))
        .map(|w| w.count_ones())
        .sum();
    game.topology().cell_count() as u32 - stones
}

#[cfg(test)]
mod tests {
    use super::super::worker::stone_index;
    use super::*;
    use crate::knowledge::{PlayoutOptions, RaceWeights};
    use oddity_patterns::Weights;
    use oddity_rules::{Game, GameKind, GameSpec, OddGame, Rng, Rules};

    fn rave_config() -> TreeConfig {
        TreeConfig {
            exploration: 1.0,
            expand_divisor: 4,
            priors: false,
            prior_weight: 0.0,
            patterns: None,
            race: RaceWeights {
                near: 0.0,
                capture_grade: 1.0,
                block: false,
            },
            rave: true,
            rave_equiv: 1000.0,
            rave_depth: u32::MAX,
            grave: 0,
            swap_mirror: true,
            leaf_playouts: 1,
            playout: PlayoutOptions::default(),
            solve_empty: 0,
            settled_moves: false,
            settled_leaves: false,
            value_net: None,
            board_net: None,
            smart_playouts: false,
            pattern_playouts: None,
            pattern_temperature: 1.0,
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
        let mut workers = [Worker::new(Rng::seeded(1)), Worker::new(Rng::seeded(2))];
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

    /// The empty Odd 3 board and a small board network drawn for it.
    fn odd3_board_net() -> (OddGame<10>, oddity_patterns::BoardNet) {
        let spec = GameSpec::new(GameKind::Odd, 3, Rules::default()).unwrap();
        let game = OddGame::<10>::new(&spec);
        let net = oddity_patterns::BoardNet::random(
            GameKind::Odd,
            3,
            &spec.rules_text(),
            game.topology().cell_count(),
            2,
            1,
            &mut Rng::seeded(1),
        );
        (game, net)
    }

    /// The empty Odd 3 board and a board network whose policy likes all
    /// of Black's stones alike, far above White's.
    fn odd3_black_liking_net() -> (OddGame<10>, &'static oddity_patterns::BoardNet) {
        let (game, mut net) = odd3_board_net();
        // Only the policy's biases speak. The file's last rows are the
        // policy (two rows of the channels), its two biases, the value's
        // weights and its bias.
        let (n, c) = (net.params.len(), net.channels);
        let biases = n - 1 - c - 2;
        net.params[biases - 2 * c..biases].fill(0.0);
        net.params[biases] = 0.0;
        net.params[biases + 1] = -3.0;
        (game, Box::leak(Box::new(net)))
    }

    /// Each child's prior and the colour of its stone.
    fn child_priors<G: Knowledge>(tree: &Tree<G>, node: &Node) -> Vec<(u8, Colour)> {
        node.children()
            .map(|c| {
                (
                    tree.node(c).prior.load(Relaxed),
                    tree.node(c).action().colour(),
                )
            })
            .collect()
    }

    /// A tree of `game` under `config` after `iterations` iterations of one
    /// worker, its counts flushed.
    fn searched<G: Knowledge>(game: &G, config: TreeConfig, iterations: usize) -> Tree<G> {
        let tree = Tree::new(game.clone(), 1 << 16, config);
        let mut w = Worker::new(Rng::seeded(1));
        for _ in 0..iterations {
            tree.iterate(&mut w, u32::MAX);
        }
        tree.flush(&mut w);
        tree
    }

    /// GRAVE: a node with enough visits scores its children by their own
    /// AMAF statistics and becomes its side's source; a node below it with
    /// fewer visits and the same side to move scores each child by the
    /// source's child of the same stone; a side without a source on the
    /// path keeps the children's own.
    #[test]
    fn grave_scores_a_young_node_by_its_sides_source() {
        let spec = GameSpec::new(GameKind::Odd, 3, Rules::default()).unwrap();
        let game = OddGame::<10>::new(&spec);
        let grave = 50;
        // Every leaf is expanded on its first visit.
        let config = TreeConfig {
            grave,
            expand_divisor: 1000,
            ..rave_config()
        };
        let tree = searched(&game, config, 5000);
        let expanded = |i: u32| !tree.node(i).children().is_empty();
        // A root child (White to move) old enough to be a source, and a
        // young grandchild of it where White moves again.
        let (source, young) = tree
            .root()
            .children()
            .filter(|&a| tree.node(a).visits() >= grave)
            .find_map(|a| {
                let young = tree
                    .node(a)
                    .children()
                    .flat_map(|b| tree.node(b).children())
                    .find(|&n| expanded(n) && tree.node(n).visits() < grave)?;
                Some((a, young))
            })
            .expect("a young grandchild under an old root child");
        let mut w = Worker::new(Rng::seeded(1));
        w.grave.iter_mut().for_each(GraveSource::reset);
        let old = tree.node(source);
        assert!(
            tree.grave_table(&mut w, source, old, Colour::White)
                .is_none()
        );
        assert_eq!(w.grave[Colour::White.index()].node(), Some(source));
        // Black has no source on this path.
        let node = tree.node(young);
        assert!(
            tree.grave_table(&mut w, young, node, Colour::Black)
                .is_none()
        );
        let table = tree
            .grave_table(&mut w, young, node, Colour::White)
            .expect("the source's statistics")
            .to_vec();
        let by_action: std::collections::HashMap<Action, (u32, u32)> = old
            .children()
            .map(|c| (tree.node(c).action(), tree.node(c).amaf()))
            .collect();
        let mut credited = 0;
        for c in node.children() {
            let action = tree.node(c).action();
            let key = stone_index(tree.node(c));
            assert_eq!(table[key], by_action[&action], "{action:?}");
            credited += u32::from(table[key].0 > 0);
        }
        assert!(credited > 0);
    }

    /// With a board network's priors, the root's children are ordered by
    /// the policy (a network that likes one cell's Black stone puts it
    /// first, with prior 255), and a node's children take priors once it
    /// reaches the visits asked for (80), not before.
    #[test]
    fn the_board_net_gives_priors_where_the_search_goes() {
        let (game, net) = odd3_black_liking_net();
        let config = TreeConfig {
            priors: true,
            board_net: Some(BoardNetUse {
                net,
                visits: 80,
                priors: true,
                mix: 1.0,
                value_visits: 0,
            }),
            ..rave_config()
        };
        // The root's priors are given once, when it is expanded.
        let tree = searched(&game, config, 3000);
        let priors = |node: &Node| child_priors(&tree, node);
        let root = priors(tree.root());
        assert_eq!(root.len(), 38);
        // Black's 19 stones first, at 255; White's at exp(-3) of them.
        for (k, &(p, colour)) in root.iter().enumerate() {
            let black = k < 19;
            assert_eq!(colour == Colour::Black, black, "{root:?}");
            assert_eq!(
                p,
                if black {
                    255
                } else {
                    quantize((-3.0f32).exp())
                }
            );
        }
        let mut seen = [false; 2];
        for c in tree.root().children() {
            let node = tree.node(c);
            let first = node.first_child.load(Relaxed);
            if first == NO_CHILDREN || first == EXPANDING {
                continue;
            }
            let given = priors(node).iter().any(|&(p, _)| p > 0);
            assert_eq!(given, node.visits() >= 80, "{} visits", node.visits());
            seen[usize::from(given)] = true;
        }
        assert_eq!(seen, [true, true]);
    }

    /// At `mix` 0.5 the policy gives half of a child's prior and the
    /// game's own priors the rest, at the root and at the nodes the
    /// network evaluates. Odd has no hand-written priors: Black's stones,
    /// which the policy gives 1, then take half of 255; with the
    /// patterns' priors they take more, and never less.
    #[test]
    fn the_board_net_mixes_its_priors_with_the_games_own() {
        for patterns in [false, true] {
            let (game, net) = odd3_black_liking_net();
            let config = TreeConfig {
                priors: true,
                patterns: patterns.then(|| Weights::builtin(GameKind::Odd).unwrap()),
                board_net: Some(BoardNetUse {
                    net,
                    visits: 80,
                    priors: true,
                    mix: 0.5,
                    value_visits: 0,
                }),
                ..rave_config()
            };
            let tree = searched(&game, config, 3000);
            let mut black = child_priors(&tree, tree.root());
            let evaluated = tree
                .root()
                .children()
                .map(|c| tree.node(c))
                .filter(|node| node.board_net.load(Relaxed) == 1);
            let mut nodes = 0;
            for node in evaluated {
                black.extend(child_priors(&tree, node));
                nodes += 1;
            }
            black.retain(|&(_, colour)| colour == Colour::Black);
            assert!(nodes > 0 && black.len() > 19 * nodes, "{nodes} nodes");
            let half = quantize(0.5);
            if patterns {
                assert!(black.iter().all(|&(p, _)| p >= half), "{black:?}");
                assert!(black.iter().any(|&(p, _)| p > half), "{black:?}");
            } else {
                assert!(black.iter().all(|&(p, _)| p == half), "{black:?}");
            }
        }
    }

    /// A board network sure that Black wins, used for its value alone:
    /// every node it evaluates (those that reached 3 visits) gains 100
    /// visits, won for Black, lost for White, and no child has a prior.
    #[test]
    fn the_board_net_value_counts_where_the_search_goes() {
        let (game, mut net) = odd3_board_net();
        // The value's weights (the channels) and its bias end the file.
        let (n, c) = (net.params.len(), net.channels);
        net.params[n - 1 - c..n - 1].fill(0.0);
        net.params[n - 1] = 30.0;
        let net: &'static _ = Box::leak(Box::new(net));
        let config = TreeConfig {
            board_net: Some(BoardNetUse {
                net,
                visits: 3,
                priors: false,
                mix: 1.0,
                value_visits: 100,
            }),
            // Every node is expanded at its first visit.
            expand_divisor: 64,
            ..rave_config()
        };
        let tree = searched(&game, config, 3000);
        let mut evaluated = [0; 2];
        for c in tree.root().children() {
            let child = tree.node(c);
            assert_eq!(child.prior.load(Relaxed), 0);
            if child.board_net.load(Relaxed) == 0 {
                assert!(child.visits() < 3, "{} visits", child.visits());
                continue;
            }
            // Black moved into the root's children: the value won.
            assert!(child.visits() >= 103 && child.wins() >= 100);
            evaluated[0] += 1;
            for g in child.children() {
                let grandchild = tree.node(g);
                if grandchild.board_net.load(Relaxed) == 1 {
                    // White moved: 100 visits, none won.
                    assert!(grandchild.visits() >= 103);
                    assert!(grandchild.wins() <= grandchild.visits() - 100);
                    evaluated[1] += 1;
                }
            }
        }
        assert!(evaluated[0] > 0 && evaluated[1] > 0, "{evaluated:?}");
    }

    /// With `value_net` at share 1, a network sure that Black wins values
    /// every leaf: the root's children (Black's moves) win every visit, and
    /// the visits still count one per leaf playout. At share 0.5 about
    /// half of them come from playouts, and none does where the leaves
    /// have more empty points than `most_empty`.
    #[test]
    fn the_value_net_values_the_leaves_by_its_share() {
        let spec = GameSpec::new(GameKind::Odd, 3, Rules::default()).unwrap();
        let game = OddGame::<10>::new(&spec);
        let mut net = oddity_patterns::ValueNet::random(
            GameKind::Odd,
            3,
            &spec.rules_text(),
            oddity_patterns::cell_slots(game.topology()),
            4,
            &mut Rng::seeded(1),
        );
        net.w2.fill(0.0);
        net.b2 = 40.0;
        let net: &'static _ = Box::leak(Box::new(net));
        let black_share = |share: f32, most_empty: u32| {
            let config = TreeConfig {
                leaf_playouts: 4,
                value_net: Some(LeafNet {
                    net,
                    share,
                    most_empty,
                }),
                ..rave_config()
            };
            let tree = searched(&game, config, 400);
            assert_eq!(tree.root().visits(), 1600);
            let (visits, wins) = tree.root().children().fold((0, 0), |(v, x), c| {
                (v + tree.node(c).visits(), x + tree.node(c).wins())
            });
            assert_eq!(visits, 1600);
            f64::from(wins) / f64::from(visits)
        };
        assert_eq!(black_share(1.0, u32::MAX), 1.0);
        let half = black_share(0.5, u32::MAX);
        let none = black_share(0.0, u32::MAX);
        assert!(none < 0.8 && half > none && half < 1.0, "{none} {half}");
        // Only leaves with at most 2 empty points of Odd 3's 19 take the
        // network's value: near the root, the playouts alone.
        let late = black_share(1.0, 2);
        assert!(late < 0.8, "{late}");
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
            let mut w = Worker::new(Rng::seeded(5));
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
}
