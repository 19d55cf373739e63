//! What a search found: the candidate turns at the root and the counts of
//! the playouts' final boards, and the callback that receives interim
//! reports.

use std::time::Duration;

use oddity_rules::{Colour, Turn};

/// One candidate turn at the root.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The turn.
    pub turn: Turn,
    /// Visits the search gave this choice: those of the turn's first
    /// action, the root's child (a two-stone turn's second stone is the
    /// most promising continuation under it, and shares its visits with
    /// the other second stones).
    pub visits: u64,
    /// Win probability for the side to move at the root after this turn
    /// (of the turn's first action, as `visits`).
    pub value: f64,
    /// Its prior from game knowledge, in `0..=1`, when it has one.
    pub prior: Option<f64>,
    /// Principal variation in whole turns, starting with `turn`.
    pub pv: Vec<Turn>,
    /// The visits of each turn of `pv` (of its first action's node, as
    /// `visits`); 0 for turns the solver added.
    pub pv_visits: Vec<u64>,
    /// The proven winner after this turn, when solved.
    pub proven: Option<Colour>,
    /// With [`crate::SearchParams::final_boards`] in Xodd and Yodd: Black's mean
    /// lead in groups (White's groups minus Black's) on the final boards
    /// of this search's playouts through this turn.
    pub black_lead: Option<f64>,
    /// With [`crate::SearchParams::final_boards_per_turn`]: the playouts through
    /// this turn, and per cell index how many ended with a black and with a
    /// white stone there.
    pub final_stones: Option<(u64, Vec<[u64; 2]>)>,
}

/// What the final boards of a search's playouts held, counted when
/// [`crate::SearchParams::final_boards`] is set.
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

/// A progress callback and its interval, for [`crate::Engine::search`]:
/// it is called with an interim report every interval.
pub type Progress<'a> = Option<(&'a mut dyn FnMut(&Report), Duration)>;

/// What a search found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// `None` when the game is over (or no position is set).
    pub best: Option<Turn>,
    /// Visits of the root, kept from earlier searches included.
    pub root_visits: u64,
    /// Win probability for the side to move at the root.
    pub root_value: f64,
    /// Best first.
    pub candidates: Vec<Candidate>,
    /// Iterations of this search.
    pub iterations: u64,
    /// Nodes in the tree.
    pub nodes: usize,
    /// The tree reached its memory bound ([`crate::SearchParams::memory_mb`]):
    /// it no longer grows, and the search goes on from its leaves.
    pub tree_full: bool,
    /// How long the search took.
    pub elapsed: Duration,
    /// The root position is solved: its winner.
    pub proven: Option<Colour>,
    /// With [`crate::SearchParams::final_boards`]: this search's playouts' final
    /// boards (`None` in interim reports and when no playout was played).
    pub final_boards: Option<FinalBoards>,
}
