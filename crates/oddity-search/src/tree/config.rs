//! The search settings the tree needs on its hot path.

use oddity_patterns::Weights;

use crate::knowledge::{PlayoutOptions, RaceWeights};
use crate::tuning::{BoardNetUse, LeafNet};

/// Search settings the tree needs on its hot path.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TreeConfig {
    /// UCT exploration constant c in `q + c * sqrt(ln N / n)`.
    pub(crate) exploration: f32,
    /// A leaf is expanded once its visits reach its parent's number of
    /// children divided by this (at least 1).
    pub(crate) expand_divisor: u32,
    /// Ask for priors at expansion ([`crate::knowledge::action_priors`]).
    pub(crate) priors: bool,
    /// Progressive-bias weight: a child with prior 1 counts as having won
    /// this many extra playouts.
    pub(crate) prior_weight: f32,
    /// With `priors`: the learned pattern weights give them
    /// ([`oddity_patterns::priors`]) instead of the hand-written ones
    /// ([`crate::knowledge::hand_priors`]).
    pub(crate) patterns: Option<&'static Weights>,
    /// With hand-written priors: how the connection race adjusts them
    /// ([`crate::knowledge::race_priors`]).
    pub(crate) race: RaceWeights,
    /// Keep AMAF statistics and blend them into selection.
    pub(crate) rave: bool,
    /// Visits at which a child's own rate and its AMAF rate weigh the same.
    pub(crate) rave_equiv: f32,
    /// AMAF is kept below the first this many nodes of a path.
    pub(crate) rave_depth: u32,
    /// GRAVE: a node with fewer visits than this scores its children by
    /// the AMAF statistics of the nearest node above it with at least this
    /// many visits and the same side to move (0: off).
    pub(crate) grave: u32,
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
    /// The settings of [`crate::knowledge::Knowledge::policy_playout`].
    pub(crate) playout: PlayoutOptions,
    /// Leaves with at most this many empty points are proven at once by
    /// [`crate::knowledge::Knowledge::exact_winner`] (0: never).
    pub(crate) solve_empty: u32,
    /// Keep one move on the cells whose colour cannot change the result
    /// ([`crate::knowledge::Knowledge::keep_one_tempo_move`]).
    pub(crate) settled_moves: bool,
    /// Prove leaves where nothing left to play can change the result
    /// ([`crate::knowledge::Knowledge::settled_winner`]).
    pub(crate) settled_leaves: bool,
    /// A value network mixed into the leaves' values (the share of a
    /// leaf's playouts is rounded at random).
    pub(crate) value_net: Option<LeafNet>,
    /// A board network evaluated at the root and at every node from its
    /// `visits`-th visit: its policy as the node's children's priors
    /// (`priors` is then on), its value as visits of the node.
    pub(crate) board_net: Option<BoardNetUse>,
}
