//! The pattern playout policies one search thread keeps between
//! playouts, one per kind of game.

use super::onyx_playout::OnyxPlayout;
use super::playout::PatternPlayout;

/// The pattern playout policies' state of one search thread, kept between
/// playouts to reuse its buffers: the stone policy of the games that place
/// stones only ([`PatternPlayout`]) and the point policy of Onyx
/// ([`OnyxPlayout`]).
#[derive(Clone, Default)]
pub struct PlayoutPolicies {
    /// The policy of Xodd, Yodd and Odd, once a playout has needed it.
    pub stones: Option<PatternPlayout>,
    /// The policy of Onyx, once a playout has needed it.
    pub onyx: Option<OnyxPlayout>,
}
