//! The search over one concrete game type: threads, their stop and
//! progress, and the report of the tree.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use web_time::Instant;

use oddity_rules::{Action, Colour, Game, Rng, Turn, turn_of};

use crate::knowledge::Knowledge;
use crate::limits::{CLEAR_RATIO, Limits, StopFlag};
use crate::params::{SearchParams, default_exploration};
use crate::report::{Candidate, FinalBoards, Progress, Report};
use crate::tree::{ROOT, Tally, Tree, TreeConfig, VISIT_CAP, Worker};

fn tree_config<G: Game>(game: &G, params: &SearchParams) -> TreeConfig {
    let kind = game.spec().kind;
    let r = params.tuning.resolve(kind, params.policy);
    let board_net = params.tuning.board_net_for(game, params.policy);
    TreeConfig {
        exploration: params
            .exploration
            .unwrap_or_else(|| default_exploration(kind, params.policy))
            as f32,
        expand_divisor: r.expand.max(1),
        priors: r.priors || board_net.is_some_and(|b| b.priors),
        prior_weight: r.prior_weight,
        patterns: params.tuning.weights_for(kind).filter(|_| r.patterns),
        race: crate::knowledge::RaceWeights::of(&r),
        rave: r.rave,
        rave_equiv: r.rave_equiv,
        rave_depth: r.rave_depth,
        grave: r.grave,
        swap_mirror: r.swap_mirror,
        leaf_playouts: r.leaf_playouts.max(1),
        smart_playouts: r.playouts,
        pattern_temperature: r.pattern_temperature,
        pattern_playouts: params
            .tuning
            .weights_for(kind)
            .filter(|_| r.pattern_playouts),
        playout: crate::knowledge::PlayoutOptions::of(&r),
        solve_empty: r.tree_solve,
        settled_moves: r.settled_moves,
        settled_leaves: r.settled_leaves,
        value_net: params.tuning.value_net_for(game, params.policy),
        board_net,
    }
}

use crate::threads;

/// The search over one concrete game type.
pub struct Searcher<G: Knowledge> {
    tree: Tree<G>,
}

/// The actions that make up `turn` in `game` (which is not changed).
fn turn_actions<G: Game>(game: &G, turn: &Turn) -> Option<Vec<Action>> {
    let mut g = game.clone();
    let mut out = Vec::with_capacity(2);
    match turn {
        Turn::Pass => out.push(Action::PASS),
        Turn::Swap => out.push(Action::SWAP),
        Turn::Resign => return None,
        Turn::Stones(a, b) => {
            if !g.is_legal(a.action()) {
                return None;
            }
            out.push(a.action());
            g.apply(a.action());
            if g.mid_turn() {
                out.push(b.map_or(Action::END_TURN, |b| b.action()));
            } else if b.is_some() {
                return None;
            }
        }
    }
    Some(out)
}

/// A search thread's random numbers and buffers, for the benchmark walks
/// of [`Searcher`].
#[doc(hidden)]
pub struct BenchWorker(Worker);

impl<G: Knowledge> Searcher<G> {
    /// The search of `game` with `params`, with an empty tree.
    pub fn new(game: G, params: &SearchParams) -> Searcher<G> {
        let config = tree_config(&game, params);
        Searcher {
            tree: Tree::new(game, params.node_capacity(), config),
        }
    }

    /// Searches with `params` (its exploration applies) until `limits` or
    /// `stop`.
    pub fn search(&mut self, params: &SearchParams, limits: &Limits, stop: &StopFlag) -> Report {
        AnySearcher::search(self, params, limits, stop, None)
    }

    /// Walks from the root to a leaf by the selection rule without changing
    /// the tree; returns the leaf's depth. For benchmarks.
    #[doc(hidden)]
    pub fn selection_walk(&self) -> usize {
        self.tree.select_walk()
    }

    /// A thread's state for [`Self::leaf_walk`] and [`Self::amaf_walk`].
    #[doc(hidden)]
    pub fn bench_worker(&self, seed: u64) -> BenchWorker {
        BenchWorker(Worker::new(Rng::seeded(seed)))
    }

    /// Descends by the selection rule without changing the tree and plays
    /// the leaf's playouts (as many as an iteration plays), recording their
    /// final boards for AMAF; returns the wins per seat. For benchmarks.
    #[doc(hidden)]
    pub fn leaf_walk(&self, w: &mut BenchWorker) -> [u32; 2] {
        self.tree.leaf_walk(&mut w.0)
    }

    /// The AMAF update of one iteration, over the path and playouts of the
    /// last [`Self::leaf_walk`] (adds to the tree's AMAF counts). For
    /// benchmarks.
    #[doc(hidden)]
    pub fn amaf_walk(&self, w: &mut BenchWorker) {
        self.tree.amaf_walk(&mut w.0)
    }

    fn root_seed(&self, params: &SearchParams, thread: usize) -> u64 {
        let turns = u64::from(self.tree.root_game.turns_played());
        params.seed
            ^ (thread as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ turns.wrapping_mul(0xD1B5_4A32_D192_ED03)
    }

    /// The report of the tree as it stands, with the final boards the
    /// search threads counted, if any.
    fn report(&self, iterations: u64, elapsed: Duration, tally: Option<&Tally>) -> Report {
        let t = &self.tree;
        let game = &t.root_game;
        let root = t.root();
        let side = game.to_move();
        let scored = game.spec().kind.fewer_groups_wins();
        let lead = |(sum, n): (i64, u64)| (scored && n > 0).then(|| sum as f64 / n as f64);
        // Ranked by the visits of the root's own child, the choice the
        // search made (a two-stone turn's own node shares its visits with
        // the other second stones, so ranking by it would favour
        // one-action turns such as a pass).
        let mut candidates: Vec<Candidate> = root
            .children()
            .enumerate()
            .map(|(k, c)| {
                let mut candidate = self.candidate(c, side);
                let counts = tally.map(|t| t.child_leads.get(k).copied().unwrap_or_default());
                candidate.black_lead = counts.and_then(lead);
                candidate.final_stones = tally.filter(|t| t.per_child).map(|t| {
                    let stones = t.child_stones.get(k).cloned().unwrap_or_default();
                    (counts.map_or(0, |(_, n)| n), stones)
                });
                candidate
            })
            .collect();
        candidates.sort_by(|a, b| {
            let rank = |c: &Candidate| match c.proven {
                Some(w) if w == side => 2,
                Some(_) => 0,
                None => 1,
            };
            rank(b)
                .cmp(&rank(a))
                .then(b.visits.cmp(&a.visits))
                .then(b.value.total_cmp(&a.value))
        });
        let best = if game.is_over() {
            None
        } else if let Some(c) = candidates.first() {
            Some(c.turn)
        } else {
            // Not expanded yet (a zero-time search): any legal turn.
            game.legal_turns().first().copied()
        };
        let rv = root.visits();
        Report {
            best,
            root_visits: u64::from(rv),
            root_value: if root.proof().is_some() {
                f64::from(root.proof() == Some(side))
            } else if rv > 0 {
                f64::from(root.wins()) / f64::from(rv)
            } else {
                0.5
            },
            candidates,
            iterations,
            nodes: t.nodes(),
            tree_full: t.is_full(),
            elapsed,
            proven: root.proof(),
            final_boards: tally.filter(|t| t.playouts > 0).map(|t| FinalBoards {
                playouts: t.playouts,
                stones: t.stones.clone(),
                black_lead: lead((t.lead, t.playouts)),
                counted: t.counted.clone(),
            }),
        }
    }

    fn node_value(&self, i: u32, side: Colour) -> f64 {
        let n = self.tree.node(i);
        match n.proof() {
            Some(w) => f64::from(w == side),
            None if n.visits() == 0 => 0.5,
            None => f64::from(n.wins()) / f64::from(n.visits()),
        }
    }

    /// The candidate of root child `c` (completed to a whole turn).
    fn candidate(&self, c: u32, side: Colour) -> Candidate {
        let t = &self.tree;
        let mut game = t.root_game.clone();
        let a = t.node(c).action();
        game.apply(a);
        let mut last = c;
        let needs_second = game.mid_turn();
        let turn = if needs_second {
            match t.best_child(c, side) {
                Some(gc) if t.node(gc).visits() > 0 => {
                    last = gc;
                    let b = t.node(gc).action();
                    game.apply(b);
                    turn_of(a, (b != Action::END_TURN).then_some(b))
                }
                _ => {
                    let mut acts = Vec::new();
                    game.legal_actions(&mut acts);
                    if let Some(f) = &t.filter {
                        f.retain(&mut acts, side, 0);
                    }
                    let b = if acts.contains(&Action::END_TURN) {
                        Action::END_TURN
                    } else {
                        acts[0]
                    };
                    game.apply(b);
                    turn_of(a, (b != Action::END_TURN).then_some(b))
                }
            }
        } else {
            turn_of(a, None)
        };
        let first = t.node(c);
        let node = t.node(last);
        let proven = first.proof().or(node.proof());
        // The value of the same node as the visits: the first action's
        // mean over its second stones, which the search drives towards the
        // best of them (the second stone's own mean, over few visits, is
        // the noisy maximum of many).
        let value = match proven {
            Some(w) => f64::from(w == side),
            None => self.node_value(c, side),
        };
        let mut pv = vec![turn];
        let mut pv_visits = vec![u64::from(first.visits())];
        // A completed turn without a node (`last == c` mid-turn) ends the pv.
        if last != c || !needs_second {
            self.extend_pv(last, game, &mut pv, &mut pv_visits);
        }
        Candidate {
            turn,
            visits: u64::from(first.visits()),
            value,
            prior: first.prior(),
            pv,
            pv_visits,
            proven,
            black_lead: None,
            final_stones: None,
        }
    }

    /// Follows the best children from node `i` (position `game`), adding
    /// whole turns to `pv` and the visits of each turn's first action to
    /// `visits`.
    fn extend_pv(&self, mut i: u32, mut game: G, pv: &mut Vec<Turn>, visits: &mut Vec<u64>) {
        let t = &self.tree;
        let mut pending: Option<(Action, u32)> = None;
        while pv.len() < 64 {
            let Some(c) = t.best_child(i, game.to_move()) else {
                break;
            };
            if t.node(c).visits() == 0 {
                break;
            }
            let a = t.node(c).action();
            game.apply(a);
            if game.mid_turn() {
                pending = Some((a, t.node(c).visits()));
            } else {
                let (turn, first_visits) = match pending.take() {
                    Some((f, v)) => (turn_of(f, (a != Action::END_TURN).then_some(a)), v),
                    None => (turn_of(a, None), t.node(c).visits()),
                };
                pv.push(turn);
                visits.push(u64::from(first_visits));
            }
            i = c;
        }
    }

    fn run(
        &mut self,
        params: &SearchParams,
        limits: &Limits,
        stop: &StopFlag,
        mut progress: Progress<'_>,
    ) -> Report {
        let start = Instant::now();
        let tree = &self.tree;
        if tree.root_game.is_over() {
            return Report {
                elapsed: start.elapsed(),
                nodes: tree.nodes(),
                ..Report::default()
            };
        }
        let threads = params.threads.max(1);
        let deadline = limits.time.map(|t| start + t);
        let soft_deadline = limits.soft_time.map(|t| start + t);
        let start_visits = u64::from(tree.root().visits());
        let target = limits
            .visits
            .map(|v| start_visits.saturating_add(v).min(u64::from(VISIT_CAP)));
        let halt = AtomicBool::new(false);
        let seeds: Vec<u64> = (0..threads).map(|t| self.root_seed(params, t)).collect();
        let this = &*self;
        let mut next_progress = progress.as_ref().map(|(_, every)| start + *every);
        // What the waiting thread does between waits: the soft deadline
        // and progress.
        let watch = |now: Instant| {
            if let Some(soft) = soft_deadline
                && now >= soft
                && this.best_is_clear()
            {
                halt.store(true, Ordering::Relaxed);
            }
            if let (Some((f, every)), Some(at)) = (progress.as_mut(), next_progress)
                && now >= at
            {
                let done = u64::from(tree.root().visits()).saturating_sub(start_visits);
                f(&this.report(done, now - start, None));
                next_progress = Some(at + (*every).max(Duration::from_millis(1)));
            }
        };
        let new_worker = |seed: u64| {
            let mut w = Worker::new(Rng::seeded(seed));
            if params.final_boards {
                w.tally = Some(Tally::new(params.final_boards_per_turn));
            }
            w
        };
        let finish = |mut w: Worker| (w.iterations, w.tally.take());
        let pooled = |seed: u64| {
            let mut w = new_worker(seed);
            this.work(&mut w, stop, &halt, deadline, target);
            finish(w)
        };
        #[cfg(not(target_family = "wasm"))]
        let results = threads::on_threads(&seeds, pooled, watch);
        // In a browser the calling thread searches too, from the first
        // seed, so that the search starts at once however long the pool's
        // workers take to wake; it stops every watch interval to do the
        // waiting thread's work. The other seeds go to the pool (with
        // WebAssembly threads).
        #[cfg(target_family = "wasm")]
        let results = threads::beside(&seeds[1..], pooled, || {
            let mut watch = watch;
            let mut w = new_worker(seeds[0]);
            loop {
                let slice = Instant::now() + threads::WATCH_INTERVAL;
                let until = deadline.map_or(slice, |d| d.min(slice));
                this.work(&mut w, stop, &halt, Some(until), target);
                let now = Instant::now();
                if deadline.is_some_and(|d| now >= d) || this.should_stop(&w, stop, &halt, target) {
                    break;
                }
                watch(now);
            }
            finish(w)
        });
        let mut iterations = 0;
        let mut tally: Option<Tally> = None;
        for (n, t) in results {
            iterations += n;
            if let Some(t) = t {
                match &mut tally {
                    Some(sum) => sum.add(&t),
                    None => tally = Some(t),
                }
            }
        }
        self.report(iterations, start.elapsed(), tally.as_ref())
    }

    /// Whether the most visited root child leads the runner-up clearly.
    fn best_is_clear(&self) -> bool {
        let t = &self.tree;
        let mut top = [0u32; 2];
        for c in t.root().children() {
            let v = t.node(c).visits();
            if v > top[0] {
                top = [v, top[0]];
            } else if v > top[1] {
                top[1] = v;
            }
        }
        top[0] > 0 && f64::from(top[0]) >= CLEAR_RATIO * f64::from(top[1])
    }

    /// Whether the search loop would stop at once: a stop, a halt, a
    /// proven root, or the visit target reached.
    #[cfg(target_family = "wasm")]
    fn should_stop(
        &self,
        w: &Worker,
        stop: &StopFlag,
        halt: &AtomicBool,
        target: Option<u64>,
    ) -> bool {
        stop.is_stopped()
            || halt.load(Ordering::Relaxed)
            || self.tree.root().proof().is_some()
            || target.is_some_and(|t| u64::from(self.tree.root_visits_with(w)) >= t)
    }

    /// A search thread's loop.
    fn work(
        &self,
        w: &mut Worker,
        stop: &StopFlag,
        halt: &AtomicBool,
        deadline: Option<Instant>,
        target: Option<u64>,
    ) {
        let tree = &self.tree;
        let root = tree.root();
        let mut k: u32 = 0;
        loop {
            if stop.is_stopped() || halt.load(Ordering::Relaxed) || root.proof().is_some() {
                break;
            }
            let visits = tree.root_visits_with(w);
            if let Some(t) = target
                && u64::from(visits) >= t
            {
                break;
            }
            if k & 15 == 0
                && let Some(d) = deadline
                && Instant::now() >= d
            {
                break;
            }
            k = k.wrapping_add(1);
            if visits >= VISIT_CAP {
                // The counters are full: wait for the stop condition.
                tree.flush(w);
                threads::pause();
                continue;
            }
            // The last iteration before a visit target plays only the
            // playouts still missing.
            let room = target.map_or(u32::MAX, |t| {
                u32::try_from(t - u64::from(visits)).unwrap_or(u32::MAX)
            });
            tree.iterate(w, room);
        }
        tree.flush(w);
    }
}

/// The game-independent face of [`Searcher`], which the engine keeps for
/// the game of its position.
pub(crate) trait AnySearcher: Send {
    fn advance(&mut self, moves: &[(Colour, Turn)], params: &SearchParams) -> bool;
    fn search(
        &mut self,
        params: &SearchParams,
        limits: &Limits,
        stop: &StopFlag,
        progress: Progress<'_>,
    ) -> Report;
    fn clear(&mut self, params: &SearchParams);
    fn report(&self) -> Report;
    fn nodes(&self) -> usize;
    fn root_visits(&self) -> u64;
}

impl<G: Knowledge> AnySearcher for Searcher<G> {
    fn advance(&mut self, moves: &[(Colour, Turn)], params: &SearchParams) -> bool {
        if moves.iter().all(|(_, turn)| *turn == Turn::Resign) {
            // Same position: keep the tree as it is.
            return true;
        }
        let t = &self.tree;
        let mut game = t.root_game.clone();
        let mut path = Vec::new();
        let mut node = ROOT;
        let mut in_tree = true;
        for (seat, turn) in moves {
            if *turn == Turn::Resign {
                continue;
            }
            if game.is_over() || game.to_move() != *seat {
                return false;
            }
            let Some(actions) = turn_actions(&game, turn) else {
                return false;
            };
            for a in actions {
                if !game.is_legal(a) {
                    return false;
                }
                game.apply(a);
                if in_tree {
                    match t.child_by_action(node, a) {
                        Some(c) => {
                            path.push(c);
                            node = c;
                        }
                        None => in_tree = false,
                    }
                }
            }
        }
        let mut config = tree_config(&game, params);
        config.expand_divisor = t.config.expand_divisor;
        self.tree = if in_tree {
            let mut fresh = t.reroot(&path, game, params.node_capacity());
            fresh.config = config;
            fresh
        } else {
            Tree::new(game, params.node_capacity(), config)
        };
        true
    }

    fn search(
        &mut self,
        params: &SearchParams,
        limits: &Limits,
        stop: &StopFlag,
        progress: Progress<'_>,
    ) -> Report {
        self.tree.config = tree_config(&self.tree.root_game, params);
        self.tree.filter = params.filter.clone();
        self.run(params, limits, stop, progress)
    }

    fn clear(&mut self, params: &SearchParams) {
        let game = self.tree.root_game.clone();
        *self = Searcher::new(game, params);
    }

    fn report(&self) -> Report {
        Searcher::report(self, 0, Duration::ZERO, None)
    }

    fn nodes(&self) -> usize {
        self.tree.nodes()
    }

    fn root_visits(&self) -> u64 {
        u64::from(self.tree.root().visits())
    }
}
