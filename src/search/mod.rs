//! Multi-threaded Monte Carlo tree search, shared by all games.
//!
//! # Tree
//! One level per *action* (`crate::rules::game::Game`): an Xodd/Yodd turn of two
//! stones is two levels (lower cell first), a one-stone turn is the stone and
//! then [`Action::END_TURN`]. Results are backed up by the seat that chose
//! each action (`to_move()` of the parent position), never by depth parity,
//! so both actions of one turn are scored for the same player.
//!
//! Nodes live in one arena allocated up front from zeroed memory (pages are
//! mapped by the OS only when first written) and are addressed by `u32`
//! index. A node is 28 bytes: first-child index, visits, wins (all `u32`),
//! action and child count (`u16`), proof and prior (`u8`), AMAF visits and
//! wins (`u32`, for RAVE). The children of a node are
//! created all at once, contiguously, in a random order, when the node is
//! expanded. A leaf is expanded when its visits reach its parent's number of
//! children divided by [`EXPAND_DIVISOR`] (the root at once), so the tree
//! grows by about `EXPAND_DIVISOR` nodes per iteration rather than by a full
//! child list, and most iterations are spent in playouts.
//!
//! # Selection
//! UCT: `q + c * sqrt(ln N / n)` with `q` the child's win rate for the seat
//! choosing it, `N` the parent's visits and `n` the child's; an unvisited
//! child is taken first (the first in the random child order). The constant
//! `c` is [`SearchParams::exploration`], or when unset
//! [`default_exploration`]: `sqrt(2)` for [`Policy::Plain`] (textbook UCB1),
//! and per game for [`Policy::Default`] (see that function; starting values
//! until the match runner tunes them). With [`Policy::Default`], games with
//! knowledge add a progressive-bias term from priors ([`knowledge`]), and
//! with RAVE on the win rate is blended with the child's AMAF rate (see
//! [`tuning`] for the switches and constants).
//!
//! # Threads and virtual loss
//! All threads search one tree without locks. Statistics are relaxed
//! atomics. A visit is counted on the way down and the win on the way up, so
//! an iteration in flight counts as a lost visit for the other threads
//! (virtual loss of one playout), which spreads them over different lines.
//! A leaf is expanded by the thread that wins a compare-and-swap on its
//! first-child field; threads that find it being expanded play out from the
//! leaf instead of waiting. Children are allocated with one compare-and-swap
//! on the arena's fill mark per expansion (expansions are rare, see above).
//! Each thread has its own random generator (seeded from the seed, the
//! thread index and the number of turns played), buffers and iteration count.
//! The root and its children, on every path and read by every selection,
//! get their visits and wins in batches of 128 iterations per thread
//! (selection at the root adds the thread's own pending counts), so their
//! cache lines do not move between cores on every iteration. Virtual loss
//! between threads therefore acts from the second level down; at the root
//! the threads see each other's visits every 128 iterations.
//!
//! # Solver
//! When an action ends the game, its node is marked with the winner. A node
//! is proven won for its side to move when one child is a proven win for it,
//! and proven lost when every child is a proven loss. Selection takes a
//! proven winning child and skips proven losing ones; an iteration that
//! reaches a proven node backs up its winner without a playout. The search
//! stops early once the root is proven.
//!
//! # Memory cap
//! The arena holds `min(max_nodes, memory_mb MiB / 28 B)` nodes. When it is
//! full the tree stops growing and the search goes on with playouts from
//! the leaves; it never aborts. Tree reuse copies the kept subtree into a
//! fresh arena (so the old tree's memory is returned).
//!
//! # Time
//! [`time`] turns clock settings into a per-move budget that stays
//! [`time::SAFETY_MARGIN`] (100 ms) below the most the clock allows for the
//! move; a search stops at [`Limits::time`] (threads check the clock every
//! 16 iterations and the stop flag every iteration, so it returns within a
//! few milliseconds), and from [`Limits::soft_time`] on as soon as the best
//! move is clear.
//!
//! # Example
//! ```
//! use oddity::rules::kind::GameKind;
//! use oddity::rules::game::GameSpec;
//! use oddity::rules::position::AnyGame;
//! use oddity::rules::record::GameRecord;
//! use oddity::search::{Engine, Limits, SearchParams, StopFlag};
//!
//! let spec = GameSpec::default_for(GameKind::Odd);
//! let mut record = GameRecord::new(AnyGame::new(&spec));
//! let mut engine = Engine::new(SearchParams { threads: 1, seed: 7, ..SearchParams::default() });
//! engine.set_position(&record);
//! let limits = Limits { visits: Some(500), ..Limits::default() };
//! let report = engine.search(&limits, &StopFlag::new(), None);
//! let best = report.best.unwrap();
//! println!("{} {:.3}", record.position().token(&best), report.candidates[0].value);
//! let seat = record.position().to_move();
//! record.play(seat, best).unwrap();
//! engine.set_position(&record); // keeps the subtree of `best`
//! ```

pub mod bounds;
pub mod endgame;
pub mod knowledge;
pub mod time;
mod tree;
pub mod tuning;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::rules::game::{Game, GameSpec, turn_of};
use crate::rules::kind::GameKind;
use crate::rules::moves::{Action, Colour, Turn};
use crate::rules::position::AnyGame;
use crate::rules::random::rng_from_seed;
use crate::rules::record::GameRecord;
use knowledge::Knowledge;
use tree::{ROOT, Tally, Tree, TreeConfig, VISIT_CAP, Worker};

/// A leaf with `k` siblings is expanded after `k / EXPAND_DIVISOR` visits.
pub const EXPAND_DIVISOR: u32 = 4;

/// Size of one tree node in bytes.
pub const NODE_BYTES: usize = std::mem::size_of::<tree::Node>();

/// What the search knows beyond the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Policy {
    /// Textbook UCT: uniformly random playouts, no game knowledge, c = sqrt(2).
    /// Kept as the yardstick for the strength work.
    Plain,
    /// The engine's own settings: per-game exploration and the knowledge
    /// hooks as they are added.
    #[default]
    Default,
}

/// A policy name that is neither `plain` nor `default`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown policy '{0}' (plain, default)")]
pub struct UnknownPolicy(pub String);

impl FromStr for Policy {
    type Err = UnknownPolicy;
    fn from_str(s: &str) -> Result<Policy, UnknownPolicy> {
        match s.to_ascii_lowercase().as_str() {
            "plain" => Ok(Policy::Plain),
            "default" => Ok(Policy::Default),
            _ => Err(UnknownPolicy(s.to_string())),
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Policy::Plain => "plain",
            Policy::Default => "default",
        })
    }
}

/// The exploration constant used when [`SearchParams::exploration`] is
/// `None`. Plain: `sqrt(2)` for every game. Default: Xodd/Yodd 0.5
/// (measured against 1.0 and 2.0), Odd and Onyx 0, where RAVE explores
/// (measured against 0.05-1.0 at equal time; see STRENGTH.md).
pub fn default_exploration(kind: GameKind, policy: Policy) -> f64 {
    match policy {
        Policy::Plain => std::f64::consts::SQRT_2,
        Policy::Default => match kind {
            // With RAVE the AMAF rates keep every child's estimate moving,
            // and matches at 0.2 s per move favoured no UCT term at all.
            GameKind::Odd | GameKind::Onyx => 0.0,
            GameKind::Xodd | GameKind::Yodd => 0.5,
        },
    }
}

/// Settings of the engine.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    /// Search threads (at least 1).
    pub threads: usize,
    pub seed: u64,
    pub policy: Policy,
    /// Memory for the tree in MiB.
    pub memory_mb: usize,
    /// UCT exploration constant; `None` = [`default_exploration`].
    pub exploration: Option<f64>,
    /// A cap on tree nodes besides `memory_mb`.
    pub max_nodes: Option<usize>,
    /// Knowledge switches and constants of [`Policy::Default`].
    pub tuning: tuning::Tuning,
    /// Turns the search may not consider (analysis); the endgame solver
    /// is not tried while one is set.
    pub filter: Option<Arc<MoveFilter>>,
    /// Count what the playouts' final boards hold ([`Report::final_boards`]).
    pub final_boards: bool,
    /// With `final_boards`, also per root turn ([`Candidate::final_stones`]).
    pub final_boards_per_turn: bool,
}

/// Cells a seat may not play, or may only play, in the first turns of the
/// searched line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRule {
    pub seat: Colour,
    /// `true`: only these moves; `false`: none of them.
    pub allow: bool,
    /// Indexed by cell index: a stone of either colour there.
    pub cells: Vec<bool>,
    pub pass: bool,
    pub swap: bool,
    /// Applies to the turns numbered below this from the root (0 = the
    /// root's own turn).
    pub until_depth: u32,
    /// `Some(c)`: `cells` lists stones of colour `c` only.
    pub colour: Option<Colour>,
    /// `false`: turns of one stone; where a turn may end after its first
    /// stone, it ends there.
    pub second_stone: bool,
}

/// A set of [`MoveRule`]s, all of which a searched action must pass.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveFilter {
    pub rules: Vec<MoveRule>,
}

impl MoveRule {
    fn admits(&self, a: Action) -> bool {
        let listed = match a {
            Action::END_TURN => return true,
            Action::PASS => self.pass,
            Action::SWAP => self.swap,
            _ => {
                self.colour.is_none_or(|c| c == a.colour())
                    && self.cells.get(a.cell().index()).copied().unwrap_or(false)
            }
        };
        listed == self.allow
    }
}

impl MoveFilter {
    /// Removes from `actions` (of a position where `mover` moves, `depth`
    /// turns below the root) those a rule forbids, unless that would leave
    /// none: a filter never makes a position a dead end.
    pub fn retain(&self, actions: &mut Vec<Action>, mover: Colour, depth: u32) {
        let applies = |r: &&MoveRule| r.seat == mover && depth < r.until_depth;
        if !self.rules.iter().any(|r| applies(&r)) {
            return;
        }
        let one_stone = self.rules.iter().filter(applies).any(|r| !r.second_stone);
        if one_stone && actions.contains(&Action::END_TURN) {
            actions.retain(|&a| a == Action::END_TURN);
            return;
        }
        let admitted = |a: &Action| self.rules.iter().filter(applies).all(|r| r.admits(*a));
        if actions.iter().any(admitted) {
            actions.retain(admitted);
        }
    }
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 0,
            policy: Policy::Default,
            memory_mb: 1024,
            exploration: None,
            max_nodes: None,
            tuning: tuning::Tuning::default(),
            filter: None,
            final_boards: false,
            final_boards_per_turn: false,
        }
    }
}

impl SearchParams {
    /// Nodes the arena may hold.
    pub fn node_capacity(&self) -> usize {
        let by_memory = self.memory_mb.saturating_mul(1 << 20) / NODE_BYTES;
        by_memory
            .min(self.max_nodes.unwrap_or(usize::MAX))
            .clamp(1, tree::MAX_CAPACITY)
    }
}

/// When to stop. All `None` = until stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Iterations of this search (not counting visits kept from earlier).
    pub visits: Option<u64>,
    /// Hard time limit.
    pub time: Option<Duration>,
    /// From here on, stop as soon as the best move is clear (its visits at
    /// least [`CLEAR_RATIO`] times the runner-up's); at the latest at `time`.
    pub soft_time: Option<Duration>,
}

/// A progress callback and its interval, for [`Engine::search`].
pub type Progress<'a> = Option<(&'a mut dyn FnMut(&Report), Duration)>;

/// See [`Limits::soft_time`].
pub const CLEAR_RATIO: f64 = 2.0;

/// A stop signal shared with other threads.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    pub fn new() -> StopFlag {
        StopFlag::default()
    }
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
    pub fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }
    /// The flag itself, for code that polls an `AtomicBool`.
    pub fn flag(&self) -> &AtomicBool {
        &self.0
    }
}

/// One candidate turn at the root.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub turn: Turn,
    /// Visits the search gave this choice: those of the turn's first
    /// action, the root's child (a two-stone turn's second stone is the
    /// most promising continuation under it, and shares its visits with
    /// the other second stones).
    pub visits: u64,
    /// Win probability for the side to move at the root after this turn
    /// (of the turn's first action, as `visits`).
    pub value: f64,
    pub prior: Option<f64>,
    /// Principal variation in whole turns, starting with `turn`.
    pub pv: Vec<Turn>,
    /// The visits of each turn of `pv` (of its first action's node, as
    /// `visits`); 0 for turns the solver added.
    pub pv_visits: Vec<u64>,
    /// The proven winner after this turn, when solved.
    pub proven: Option<Colour>,
    /// With [`SearchParams::final_boards`] in Xodd and Yodd: Black's mean
    /// lead in groups (White's groups minus Black's) on the final boards
    /// of this search's playouts through this turn.
    pub black_lead: Option<f64>,
    /// With [`SearchParams::final_boards_per_turn`]: the playouts through
    /// this turn, and per cell index how many ended with a black and with a
    /// white stone there.
    pub final_stones: Option<(u64, Vec<[u64; 2]>)>,
}

/// What the final boards of a search's playouts held, counted when
/// [`SearchParams::final_boards`] is set.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FinalBoards {
    /// Playouts counted.
    pub playouts: u64,
    /// Indexed by cell index: the playouts that ended with a black stone
    /// there, and with a white one.
    pub stones: Vec<[u64; 2]>,
    /// Xodd and Yodd: Black's mean lead in groups (White's groups minus
    /// Black's) over those playouts.
    pub black_lead: Option<f64>,
    /// Odd, indexed by cell index: the playouts that ended with that cell
    /// in a group that counts (empty in the other games).
    pub counted: Vec<u64>,
}

/// What a search found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// `None` when the game is over (or no position is set).
    pub best: Option<Turn>,
    pub root_visits: u64,
    /// Win probability for the side to move at the root.
    pub root_value: f64,
    /// Best first.
    pub candidates: Vec<Candidate>,
    /// Iterations of this search.
    pub iterations: u64,
    /// Nodes in the tree.
    pub nodes: usize,
    pub elapsed: Duration,
    /// The root position is solved: its winner.
    pub proven: Option<Colour>,
    /// With [`SearchParams::final_boards`]: this search's playouts' final
    /// boards (`None` in interim reports and when no playout was played).
    pub final_boards: Option<FinalBoards>,
}

/// The search engine: one tree for the current position, any game.
pub struct Engine {
    params: SearchParams,
    searcher: Option<Box<dyn AnySearcher>>,
    key: Option<RecordKey>,
    over: bool,
    /// The position searched.
    position: Option<AnyGame>,
    endgame: endgame::Endgame,
}

/// What identifies a record for tree reuse: its start and its moves.
#[derive(Clone, PartialEq)]
struct RecordKey {
    spec: GameSpec,
    start_to_move: Colour,
    start_turns: u32,
    start_stones: Vec<Option<Colour>>,
    moves: Vec<(Colour, Turn)>,
}

impl RecordKey {
    fn of(record: &GameRecord) -> RecordKey {
        let start = record.start();
        let topo = start.topology();
        RecordKey {
            spec: *start.spec(),
            start_to_move: start.to_move(),
            start_turns: start.turns_played(),
            start_stones: topo.cells().iter().map(|&c| start.stone_at(c)).collect(),
            moves: record.moves().to_vec(),
        }
    }

    fn same_start(&self, other: &RecordKey) -> bool {
        self.spec == other.spec
            && self.start_to_move == other.start_to_move
            && self.start_turns == other.start_turns
            && self.start_stones == other.start_stones
    }
}

impl Engine {
    pub fn new(params: SearchParams) -> Engine {
        Engine {
            endgame: endgame::Endgame::new(params.memory_mb),
            params,
            searcher: None,
            key: None,
            over: false,
            position: None,
        }
    }

    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// New settings; they apply to the next search (a changed memory cap to
    /// the next tree).
    pub fn set_params(&mut self, p: SearchParams) {
        self.params = p;
    }

    /// Sets the position to search. When `record` extends the previous one
    /// (same start, previous moves as a prefix), the tree is re-rooted on the
    /// new position and keeps that subtree; otherwise it starts afresh.
    pub fn set_position(&mut self, record: &GameRecord) {
        let key = RecordKey::of(record);
        self.over = record.is_over();
        self.position = Some(record.position().clone());
        let reused = match (&self.key, &mut self.searcher) {
            (Some(old), Some(s)) if old.same_start(&key) && key.moves.starts_with(&old.moves) => {
                s.advance(&key.moves[old.moves.len()..], &self.params)
            }
            _ => false,
        };
        if !reused {
            let params = &self.params;
            let searcher: Box<dyn AnySearcher> = crate::with_game!(record.position(), g => Box::new(Searcher::new(g.clone(), params)));
            self.searcher = Some(searcher);
        }
        self.key = Some(key);
    }

    /// Searches the current position until a limit is reached or `stop` is
    /// set. `progress`, when given, is called with an interim report every
    /// interval. Returns at once (with `best` `None`) if the game is over.
    /// A small enough position goes to the exact solver first (see
    /// [`endgame`]).
    pub fn search(&mut self, limits: &Limits, stop: &StopFlag, progress: Progress<'_>) -> Report {
        let (Some(s), Some(game)) = (&mut self.searcher, &self.position) else {
            return Report::default();
        };
        if self.over {
            return Report::default();
        }
        let start = Instant::now();
        let settings = self.params.tuning.resolve(game.kind(), self.params.policy);
        let solution = if self.params.filter.is_some() {
            None
        } else {
            self.endgame
                .attempt(game, &settings, limits, stop, self.params.threads)
        };
        if let Some(sol) = &solution
            && sol.value == Some(crate::solver::Value::Win)
        {
            return endgame::won_report(game, sol, start.elapsed());
        }
        let rest = endgame::remaining(limits, start);
        let mut report = s.search(&self.params, &rest, stop, progress);
        if let Some(sol) = &solution
            && sol.value == Some(crate::solver::Value::Loss)
            && let Some(winner) = sol.winner()
        {
            endgame::mark_lost(&mut report, winner);
        }
        report
    }

    /// Proves the value of the current position (and with `classify`,
    /// every turn's) with the exact solver, within `limits`.
    pub fn solve(
        &mut self,
        classify: bool,
        limits: &crate::solver::SolveLimits,
        stop: &StopFlag,
    ) -> Option<crate::solver::Solution> {
        let game = self.position.as_ref()?;
        Some(
            self.endgame
                .solve(game, self.params.threads, classify, limits, stop),
        )
    }

    /// The report of the current tree without searching (e.g. after a
    /// ponder search was stopped); `iterations` and `elapsed` are zero.
    pub fn report(&self) -> Report {
        match &self.searcher {
            Some(s) if !self.over => s.report(),
            _ => Report::default(),
        }
    }

    /// Drops the tree and what the solver proved (the position stays set).
    pub fn clear(&mut self) {
        if let Some(s) = &mut self.searcher {
            s.clear(&self.params);
        }
        self.endgame.clear();
    }

    /// Nodes in the current tree.
    pub fn nodes(&self) -> usize {
        self.searcher.as_ref().map_or(0, |s| s.nodes())
    }

    /// Visits of the current root.
    pub fn root_visits(&self) -> u64 {
        self.searcher.as_ref().map_or(0, |s| s.root_visits())
    }
}

/// The game-independent face of [`Searcher`].
trait AnySearcher: Send {
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

fn tree_config(kind: GameKind, params: &SearchParams) -> TreeConfig {
    let r = params.tuning.resolve(kind, params.policy);
    TreeConfig {
        exploration: params
            .exploration
            .unwrap_or_else(|| default_exploration(kind, params.policy))
            as f32,
        expand_divisor: r.expand.max(1),
        priors: r.priors,
        prior_weight: r.prior_weight,
        rave: r.rave,
        rave_equiv: r.rave_equiv,
        rave_depth: r.rave_depth,
        leaf_playouts: r.leaf_playouts.max(1),
        smart_playouts: r.playouts,
        reply_percent: r.replies,
        bridge_replies: r.bridges,
    }
}

/// Counts a finished search thread when dropped.
struct Finished<'a>(&'a AtomicUsize, std::thread::Thread);

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::Release);
        self.1.unpark();
    }
}

/// How often the thread waiting for the search threads wakes to check the
/// soft deadline and send progress: rarely enough not to take a core from
/// the search, since a finishing thread wakes it at once.
const WATCH_INTERVAL: Duration = Duration::from_millis(5);

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
    pub fn new(game: G, params: &SearchParams) -> Searcher<G> {
        let config = tree_config(game.spec().kind, params);
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
        BenchWorker(Worker::new(rng_from_seed(seed)))
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
        let scored = matches!(game.spec().kind, GameKind::Xodd | GameKind::Yodd);
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
        let finished = AtomicUsize::new(0);
        let seeds: Vec<u64> = (0..threads).map(|t| self.root_seed(params, t)).collect();
        let this = &*self;
        let watcher = std::thread::current();
        let (iterations, tally) = std::thread::scope(|s| {
            let handles: Vec<_> = seeds
                .iter()
                .map(|&seed| {
                    let (halt, finished) = (&halt, &finished);
                    let watcher = watcher.clone();
                    s.spawn(move || {
                        // Counted even if the thread panics, so the loop
                        // below ends and `join` passes the panic on.
                        let _done = Finished(finished, watcher);
                        let mut w = Worker::new(rng_from_seed(seed));
                        if params.final_boards {
                            w.tally = Some(Tally::new(params.final_boards_per_turn));
                        }
                        this.work(&mut w, stop, halt, deadline, target);
                        (w.iterations, w.tally.take())
                    })
                })
                .collect();
            let mut next_progress = progress.as_ref().map(|(_, every)| start + *every);
            while finished.load(Ordering::Acquire) < threads {
                std::thread::park_timeout(WATCH_INTERVAL);
                let now = Instant::now();
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
            }
            let mut iterations = 0;
            let mut tally: Option<Tally> = None;
            for h in handles {
                let (n, t) = h.join().expect("search thread panicked");
                iterations += n;
                if let Some(t) = t {
                    match &mut tally {
                        Some(sum) => sum.add(&t),
                        None => tally = Some(t),
                    }
                }
            }
            (iterations, tally)
        });
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
                std::thread::sleep(Duration::from_millis(1));
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
        let mut config = tree_config(game.spec().kind, params);
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
        self.tree.config = tree_config(self.tree.root_game.spec().kind, params);
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

/// Cells of the board, for time management.
pub fn board_cells(game: &AnyGame) -> u32 {
    game.topology().cells().len() as u32
}

// The protocol searches in a background thread (pondering).
const _: fn() = || {
    fn is_send<T: Send>() {}
    is_send::<Engine>();
    is_send::<StopFlag>();
};
