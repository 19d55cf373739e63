//! Learned knowledge: local patterns and other features of candidate
//! actions, their Bradley-Terry gammas fitted to positions valued by perfect
//! play, the tree priors they give (`--param patterns=on`) and softmax
//! playout policies (`--param pattern_playouts=on`).
//! `docs/patterns.md` describes the features, the data and weights files
//! and how the built-in weights were made.

mod draw;
mod features;
mod fit;
mod onyx;
mod onyx_playout;
mod playout;
mod prior;
mod shape;
mod weights;

pub use features::{FeatureBoard, Features, GROUP_NAMES, GROUPS, NONE, group_sizes};
pub use fit::{Decision, fit, hit_in_top};
pub use onyx_playout::OnyxPlayout;
pub use playout::PatternPlayout;
pub use prior::priors;
pub use shape::Layout;
pub use weights::{Weights, WeightsError, WeightsFile};

use oddity_rules::topology::Topology;

/// A pattern playout policy, made for one weights file, temperature and
/// board.
pub trait PlayoutPolicy: Sized {
    /// The policy for games on `topo` with `weights` at `temperature`
    /// (above 0); `None` where the weights do not fit the board.
    fn new(weights: &'static Weights, temperature: f32, topo: &'static Topology) -> Option<Self>;

    /// The weights, temperature and board it was made for.
    fn made_for(&self) -> (&'static Weights, f32, &'static Topology);

    /// The policy kept in `slot`, made anew unless it is the one for
    /// `weights` at `temperature` on `topo`.
    fn kept<'a>(
        slot: &'a mut Option<Self>,
        weights: &'static Weights,
        temperature: f32,
        topo: &'static Topology,
    ) -> Option<&'a mut Self> {
        let fits = |p: &Self| {
            let (w, t, b) = p.made_for();
            std::ptr::eq(w, weights) && t == temperature && std::ptr::eq(b, topo)
        };
        if !slot.as_ref().is_some_and(fits) {
            *slot = Self::new(weights, temperature, topo);
        }
        slot.as_mut()
    }
}

/// The pattern playout policies' state of one search thread, kept between
/// playouts to reuse its buffers: the stone policy of the games that place
/// stones only ([`PatternPlayout`]) and the point policy of Onyx
/// ([`OnyxPlayout`]).
#[derive(Clone, Default)]
pub struct PlayoutPolicies {
    pub stones: Option<PatternPlayout>,
    pub onyx: Option<OnyxPlayout>,
}
