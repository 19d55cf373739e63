//! A search thread's own state: random numbers, reused buffers, the
//! final boards of its playouts for RAVE, and its batched root counts.

use oddity_patterns::{
    BoardGraph, BoardNet, BoardTrace, FeatureBoard, PlayoutPolicies, board_priors,
};
use oddity_rules::{Action, Colour, Game, Rng, Topology};

use std::sync::atomic::Ordering::Relaxed;

use super::node::Node;
use super::tally::Tally;

/// Per-thread state: random numbers and reused buffers, so an iteration
/// allocates nothing.
pub(crate) struct Worker {
    pub(crate) rng: Rng,
    /// The nodes of the current iteration with the seat that chose each
    /// (for the root: the root's side to move).
    pub(crate) path: Vec<(u32, Colour)>,
    pub(crate) actions: Vec<Action>,
    pub(crate) priors: Vec<f32>,
    /// The learned priors' board, kept to reuse its buffers.
    pub(crate) features: Option<FeatureBoard>,
    /// The board network's graph and buffers, for the board it was made on.
    board_net: Option<BoardNetState>,
    /// The pattern playout policy's state, kept to reuse its buffers.
    pub(crate) pattern_playout: PlayoutPolicies,
    /// RAVE: indexed by a stone action's bits (see [`STONE_BITS`]), how
    /// many of the current iteration's playouts ended with that stone on
    /// the board, counted by the winner's colour.
    pub(crate) on_final_board: Vec<[u8; 2]>,
    /// RAVE: the final boards of the current iteration's playouts not yet
    /// added to `on_final_board`, as bit-sliced counters: per winner and
    /// stone colour, [`COUNT_PLANES`] words per bitboard word, plane `p`
    /// holding bit `p` of each cell's count (see [`Self::final_slot`]).
    pub(crate) final_counts: Vec<u64>,
    /// Bitboard words in use in `final_counts` (0: nothing to add).
    pub(crate) counted_words: usize,
    /// Playouts counted in `final_counts`: no count exceeds it, so planes
    /// from its bit length up are empty.
    pub(crate) counted_playouts: u32,
    pub(crate) iterations: u64,
    /// Root visits and wins not yet added to the shared root: the root is
    /// on every path, so its counters are updated in batches of
    /// [`ROOT_BATCH`] to keep its cache line from bouncing between threads.
    pub(crate) pending_visits: u32,
    pub(crate) pending_wins: u32,
    /// The same for the root's children (visits, wins), indexed from
    /// `root_first`; `touched` lists the entries in use.
    pub(crate) root_delta: Vec<(u32, u32)>,
    pub(crate) touched: Vec<u32>,
    pub(crate) root_first: u32,
    /// RAVE: the root's children's AMAF playouts and wins not yet added to
    /// them, indexed like `root_delta`. Every iteration credits about half
    /// of the root's children; writing them at once made two threads fight
    /// over those cache lines on every iteration.
    pub(crate) root_amaf: Vec<(u32, u32)>,
    /// The playouts' final boards, counted only when asked for.
    pub(crate) tally: Option<Tally>,
    /// GRAVE ([`super::config::TreeConfig::grave`]), per side to move.
    pub(crate) grave: [GraveSource; 2],
}

/// GRAVE: for one side to move, the node of the current path whose
/// children's AMAF statistics stand in for those of the nodes below it
/// with too few visits.
pub(crate) struct GraveSource {
    /// The deepest node of the path so far with enough visits and this
    /// side to move ([`NO_SOURCE`]: none yet).
    node: u32,
    /// Whether `amaf` holds `node`'s children's statistics in this
    /// iteration (they change with every iteration).
    filled: bool,
    /// Indexed by [`stone_index`]: the AMAF playouts and wins of `node`'s
    /// child of that stone.
    amaf: Vec<(u32, u32)>,
    /// The entries of `amaf` that are set.
    keys: Vec<usize>,
}

/// [`GraveSource::node`] before any node of the path qualifies.
const NO_SOURCE: u32 = u32::MAX;

impl GraveSource {
    fn new() -> GraveSource {
        GraveSource {
            node: NO_SOURCE,
            filled: false,
            amaf: vec![(0, 0); STONE_BITS],
            keys: Vec::new(),
        }
    }

    /// Forgets the source at the start of an iteration.
    pub(crate) fn reset(&mut self) {
        self.set(NO_SOURCE);
    }

    /// Makes `node` the source; its children's statistics are read when
    /// first asked for.
    pub(crate) fn set(&mut self, node: u32) {
        self.node = node;
        self.filled = false;
    }

    /// The source node, if the path has one.
    pub(crate) fn node(&self) -> Option<u32> {
        (self.node != NO_SOURCE).then_some(self.node)
    }

    /// The source's children's statistics by [`stone_index`], read from
    /// `children` (the source's) on the first call since it was set.
    pub(crate) fn statistics(&mut self, children: &[Node]) -> &[(u32, u32)] {
        if !self.filled {
            for &k in &self.keys {
                self.amaf[k] = (0, 0);
            }
            self.keys.clear();
            for c in children {
                let key = stone_index(c);
                self.amaf[key] = c.amaf();
                self.keys.push(key);
            }
            self.filled = true;
        }
        &self.amaf
    }
}

/// The entry of a table by stone action ([`Worker::on_final_board`],
/// [`GraveSource`]) for `node`'s action. Special actions (pass, swap, end
/// of turn) index entries of no cell.
#[inline(always)]
pub(crate) fn stone_index(node: &Node) -> usize {
    usize::from(node.action.load(Relaxed)) & (STONE_BITS - 1)
}

/// Entries of [`Worker::on_final_board`]: a stone action's bits are below
/// this (see [`Action::bits`]).
pub(crate) const STONE_BITS: usize = 1 << 13;
/// The colour bit of a stone action's bits (see [`Action::stone`]).
const WHITE_BIT: usize = 1 << 12;

/// Bit planes of [`Worker::final_counts`]: counts up to 127 playouts, more
/// than the 64 a leaf may play.
const COUNT_PLANES: usize = 7;
/// Bitboard words of the largest board: cell indices are below 4096.
const MAX_WORDS: usize = 64;

/// Iterations a thread counts locally before updating the root and its
/// children (in visits: this many times the playouts per leaf).
pub(crate) const ROOT_BATCH: u32 = 128;

/// What a thread keeps to evaluate a board network: the board's graph
/// and the evaluation's buffers.
struct BoardNetState {
    topology: &'static Topology,
    graph: BoardGraph,
    features: Vec<f32>,
    trace: BoardTrace,
}

impl BoardNetState {
    /// The state kept in `slot`, made anew unless it is for `topology`.
    fn kept<'a>(
        slot: &'a mut Option<BoardNetState>,
        topology: &'static Topology,
    ) -> &'a mut BoardNetState {
        if !slot
            .as_ref()
            .is_some_and(|s| std::ptr::eq(s.topology, topology))
        {
            *slot = Some(BoardNetState {
                topology,
                graph: BoardGraph::new(topology),
                features: Vec::new(),
                trace: BoardTrace::default(),
            });
        }
        slot.as_mut().expect("just filled")
    }
}

impl Worker {
    /// Fills [`Worker::priors`] with `net`'s priors of [`Worker::actions`]
    /// in `game`'s position ([`board_priors`]); returns its value there,
    /// the chance that Black wins.
    pub(crate) fn board_net_priors<G: Game>(&mut self, net: &BoardNet, game: &G) -> f32 {
        let state = BoardNetState::kept(&mut self.board_net, game.topology());
        board_priors(
            net,
            &state.graph,
            game,
            &self.actions,
            &mut state.features,
            &mut state.trace,
            &mut self.priors,
        );
        state.trace.value
    }

    /// Empties [`Worker::on_final_board`] for a new iteration: only entries
    /// of cells on the board are ever written.
    pub(crate) fn clear_final_boards(&mut self, topo: &Topology) {
        for &cell in topo.cells() {
            let i = usize::from(cell.0);
            self.on_final_board[i] = [0; 2];
            self.on_final_board[i | WHITE_BIT] = [0; 2];
        }
    }

    /// The first plane of winner `w`'s, stone colour `c`'s counters in
    /// [`Worker::final_counts`]; plane `p` of word `k` is at
    /// `slot + p * MAX_WORDS + k`.
    #[inline(always)]
    fn final_slot(w: usize, c: usize) -> usize {
        (w * 2 + c) * COUNT_PLANES * MAX_WORDS
    }

    /// Counts the stones of the final board `end` of a playout that
    /// `winner` won: each stone word is added to its bit-sliced counter (a
    /// ripple carry over a plane or two on average). This runs once per
    /// playout, and one increment per stone cost a tenth of an Odd
    /// playout; [`Self::tally_final_boards`] turns the counts into
    /// [`Worker::on_final_board`] once per iteration.
    pub(crate) fn record_final_board<G: Game>(&mut self, end: &G, winner: Colour) {
        for c in Colour::BOTH {
            let words = end.stone_words(c);
            self.counted_words = self.counted_words.max(words.len().min(MAX_WORDS));
            self.counted_playouts += u32::from(c == Colour::Black);
            let slot = Self::final_slot(winner.index(), c.index());
            for (k, &word) in words.iter().enumerate().take(MAX_WORDS) {
                let mut carry = word;
                let mut at = slot + k;
                while carry != 0 && at < slot + COUNT_PLANES * MAX_WORDS {
                    let plane = &mut self.final_counts[at];
                    let next = *plane & carry;
                    *plane ^= carry;
                    carry = next;
                    at += MAX_WORDS;
                }
            }
        }
    }

    /// Adds the counts of [`Self::record_final_board`] to
    /// [`Worker::on_final_board`] and empties the counters: bit `i` of a
    /// word is the cell with index `i`, whose stone action has bits `i` for
    /// Black and `i | WHITE_BIT` for White, and plane `p` adds `2^p`.
    pub(crate) fn tally_final_boards(&mut self) {
        let planes =
            ((u32::BITS - self.counted_playouts.leading_zeros()) as usize).min(COUNT_PLANES);
        for w in 0..2 {
            for (c, colour_bit) in [(0, 0), (1, WHITE_BIT)] {
                let slot = Self::final_slot(w, c);
                for p in 0..planes {
                    for k in 0..self.counted_words {
                        let at = slot + p * MAX_WORDS + k;
                        let mut bits = std::mem::take(&mut self.final_counts[at]);
                        while bits != 0 {
                            let i = (k * 64 + bits.trailing_zeros() as usize) | colour_bit;
                            let e = &mut self.on_final_board[i & (STONE_BITS - 1)][w];
                            *e = e.wrapping_add(1 << p);
                            bits &= bits - 1;
                        }
                    }
                }
            }
        }
        self.counted_words = 0;
        self.counted_playouts = 0;
    }

    pub(crate) fn new(rng: Rng) -> Worker {
        Worker {
            rng,
            path: Vec::with_capacity(512),
            actions: Vec::with_capacity(1024),
            priors: Vec::with_capacity(1024),
            features: None,
            board_net: None,
            pattern_playout: PlayoutPolicies::default(),
            on_final_board: vec![[0; 2]; STONE_BITS],
            final_counts: vec![0; 4 * COUNT_PLANES * MAX_WORDS],
            counted_words: 0,
            counted_playouts: 0,
            iterations: 0,
            pending_visits: 0,
            pending_wins: 0,
            root_delta: Vec::new(),
            touched: Vec::new(),
            root_first: 0,
            root_amaf: Vec::new(),
            tally: None,
            grave: [GraveSource::new(), GraveSource::new()],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oddity_rules::{GameKind, GameSpec, Rng};

    /// The final-board table filled by walking the stone words holds, for
    /// every cell and colour, what a lookup of each cell's stone gives, on
    /// the finished boards of random playouts of every game.
    #[test]
    fn final_board_recording_matches_a_per_cell_recount() {
        use oddity_rules::AnyGame;
        for kind in [
            GameKind::Xodd,
            GameKind::Yodd,
            GameKind::Odd,
            GameKind::Onyx,
        ] {
            let game = AnyGame::new(&GameSpec::default_for(kind));
            oddity_rules::with_game!(&game, g => {
                let mut w = Worker::new(Rng::seeded(3));
                let mut rng = Rng::seeded(4);
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
