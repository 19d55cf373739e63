//! What both pattern playout policies share: each is made for one weights
//! file, temperature and board, and a search thread keeps it between
//! playouts while those stay the same ([`PlayoutPolicy::kept`]).

use oddity_rules::Topology;

use super::weights::Weights;

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
