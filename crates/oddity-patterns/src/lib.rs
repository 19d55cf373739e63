//! Learned knowledge for Xodd, Yodd, Odd and Onyx: local patterns and
//! other features of candidate actions, their Bradley-Terry gammas fitted
//! to positions valued by perfect play, the tree priors they give and
//! softmax playout policies drawn by them. It builds on the rules
//! ([`oddity_rules`]) alone; the search (`oddity-search`) uses it for
//! priors (`--param patterns=on`) and playouts
//! (`--param pattern_playouts=on`). `docs/patterns.md` of the oddity
//! repository describes the features, the data and weights files and how
//! the built-in weights were made.
//!
//! Modules, lowest first: `groups` (the feature groups and their values),
//! `shape` (the rings of points around a cell), `grid` (the features of
//! Xodd, Yodd and Odd boards, kept up to date) and `onyx` (Onyx's, read
//! from scratch), `features` ([`FeatureBoard`] over both), `weights`
//! ([`Weights`] and their files), `fit` (fitting them), `prior` (tree
//! priors), `draw` and `policy` (what the playout policies share),
//! `playout` ([`PatternPlayout`]) and `onyx_playout` ([`OnyxPlayout`]),
//! `policies` (the policies a search thread keeps), `kept` (files read
//! once and kept for the program's life), `net` (a small
//! value network, [`ValueNet`], its files and its fit), and `board_net` (a
//! policy and value network over the whole board, [`BoardNet`]).

#![warn(missing_docs)]

mod adam;
mod board_net;
mod draw;
mod features;
mod fit;
mod grid;
mod groups;
mod kept;
mod net;
mod onyx;
mod onyx_playout;
mod playout;
mod policies;
mod policy;
mod prior;
mod shape;
mod weights;

pub use adam::AdamPlan;
pub use board_net::{
    BOARD_NET_FORMAT, BoardExample, BoardFitPlan, BoardGraph, BoardNet, BoardNetFile, BoardScore,
    BoardTrace, FEATURES, MAX_BLOCKS, MAX_CHANNELS, board_priors, features, fit_board_net,
    score_board_net,
};
pub use features::FeatureBoard;
pub use fit::{Decision, fit, hit_in_top};
pub use grid::GridBoard;
pub use groups::{Features, GROUP_NAMES, GROUPS, NONE, group_sizes};
pub use net::{
    Example, FitPlan, GLOBALS, MAX_HIDDEN, NET_FORMAT, NetFile, NetInput, ValueNet, cell_slots,
    fit_net, net_loss, net_target_error,
};
pub use onyx::OnyxBoard;
pub use onyx_playout::OnyxPlayout;
pub use playout::PatternPlayout;
pub use policies::PlayoutPolicies;
pub use policy::PlayoutPolicy;
pub use prior::priors;
pub use shape::Layout;
pub use weights::{Weights, WeightsError, WeightsFile};
