//! RAVE's AMAF statistics: crediting the children along an iteration's
//! path with the playouts that ended with their stones on the board.

use std::sync::atomic::Ordering::Relaxed;

use oddity_rules::Colour;

use super::node::{Arena, Node, ROOT};
use super::worker::{Worker, stone_index};

/// The AMAF credit of `node` from the iteration's playouts that `table`
/// records (see [`Worker::on_final_board`]): the playouts that ended with
/// its stone on the board, and those of them that `chooser` won. Special
/// actions (pass, swap, end of turn) index entries of no cell, which stay 0.
#[inline(always)]
fn amaf_credit(table: &[[u8; 2]], node: &Node, chooser: Colour) -> (u32, u32) {
    let e = table[stone_index(node)];
    (
        u32::from(e[0]) + u32::from(e[1]),
        u32::from(e[chooser.index()]),
    )
}

/// RAVE: credits every child of every node on the path with the
/// iteration's playouts that ended with its stone on the board (a stone
/// action's cell was empty at its parent, so it was placed below it, in
/// the tree or the playout), and the wins among them for the seat that
/// chose among those children.
///
/// Every child is read and written without a branch: whether its stone
/// is on the board is a coin toss, and a mispredicted branch per child
/// cost more than the store.
pub(crate) fn update_amaf(arena: &Arena, w: &mut Worker, rave_depth: u32) {
    w.tally_final_boards();
    let table = &w.on_final_board;
    // The seat choosing among a node's children is the mover recorded
    // with the next node on the path.
    let levels = (w.path.len() - 1).min(rave_depth as usize);
    for k in 0..levels {
        let (parent, _) = w.path[k];
        let chooser = w.path[k + 1].1;
        let kids = arena.get(parent).children();
        if parent == ROOT && kids.start == w.root_first && kids.len() == w.root_amaf.len() {
            for (node, pending) in arena
                .slice(kids.start, kids.len() as u32)
                .iter()
                .zip(w.root_amaf.iter_mut())
            {
                let (hits, won) = amaf_credit(table, node, chooser);
                pending.0 += hits;
                pending.1 += won;
            }
            continue;
        }
        for node in arena.slice(kids.start, kids.len() as u32) {
            let (hits, won) = amaf_credit(table, node, chooser);
            node.amaf_visits
                .store(node.amaf_visits.load(Relaxed).wrapping_add(hits), Relaxed);
            node.amaf_wins
                .store(node.amaf_wins.load(Relaxed).wrapping_add(won), Relaxed);
        }
    }
}
