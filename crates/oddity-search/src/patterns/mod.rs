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
mod policy;
mod prior;
mod shape;
mod weights;

pub use features::{FeatureBoard, Features, GROUP_NAMES, GROUPS, NONE, group_sizes};
pub use fit::{Decision, fit, hit_in_top};
pub use onyx_playout::OnyxPlayout;
pub use playout::PatternPlayout;
pub use policy::{PlayoutPolicies, PlayoutPolicy};
pub use prior::priors;
pub use shape::Layout;
pub use weights::{Weights, WeightsError, WeightsFile};
