//! Parts of an iteration on their own, for the benchmarks of selection,
//! playouts and the AMAF update (`benches/search.rs`): nothing is backed
//! up.

use crate::knowledge::Knowledge;

use super::amaf::update_amaf;
use super::node::ROOT;
use super::search_tree::Tree;
use super::worker::Worker;

impl<G: Knowledge> Tree<G> {
    /// Descends from the root by UCT without changing anything; returns
    /// the leaf's depth (for benchmarks of selection alone).
    pub(crate) fn select_walk(&self) -> usize {
        let mut game = self.root_game.clone();
        let mut idx = ROOT;
        let mut depth = 0;
        loop {
            let node = self.node(idx);
            let kids = node.children();
            if kids.is_empty() {
                return depth;
            }
            let mover = game.to_move();
            idx = self.select(node, kids.start, kids.len() as u32, mover, None);
            game.apply(self.node(idx).action());
            depth += 1;
        }
    }

    /// The parts of an iteration after selection, for benchmarks: descends
    /// like [`Self::select_walk`] keeping the path in `w`, then plays the
    /// leaf's playouts with their AMAF recording (nothing is backed up);
    /// returns the wins per seat.
    pub(crate) fn leaf_walk(&self, w: &mut Worker) -> [u32; 2] {
        let mut game = self.root_game.clone();
        w.path.clear();
        w.path.push((ROOT, game.to_move()));
        if self.config.rave {
            w.clear_final_boards(game.topology());
        }
        let mut idx = ROOT;
        loop {
            let node = self.node(idx);
            let kids = node.children();
            if kids.is_empty() || game.is_over() {
                break;
            }
            let mover = game.to_move();
            idx = self.select(node, kids.start, kids.len() as u32, mover, None);
            game.apply(self.node(idx).action());
            w.path.push((idx, mover));
        }
        self.leaf_playouts(game, w, u32::MAX).1
    }

    /// The AMAF update of an iteration over the path and playouts of the
    /// last [`Self::leaf_walk`] with `w`, for benchmarks.
    pub(crate) fn amaf_walk(&self, w: &mut Worker) {
        if self.config.rave {
            update_amaf(&self.arena, w, self.config.rave_depth);
        }
    }
}
