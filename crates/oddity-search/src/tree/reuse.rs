//! Tree reuse: the subtree of the move played, copied into a fresh arena.

use std::sync::atomic::Ordering::{Relaxed, Release};

use oddity_rules::Action;

use crate::knowledge::Knowledge;

use super::node::ROOT;
use super::search_tree::Tree;

impl<G: Knowledge> Tree<G> {
    /// A new tree rooted at child path `path` of this one (a list of child
    /// indices from the root), with that subtree's nodes and statistics
    /// copied contiguously into a fresh arena.
    pub(crate) fn reroot(&self, path: &[u32], new_game: G, capacity: usize) -> Tree<G> {
        let fresh = Tree::new(new_game, capacity, self.config);
        let old_root = *path.last().unwrap_or(&ROOT);
        // The root's wins count for its side to move; a child's count for the
        // seat that chose it. Every playout has a winner, so the other
        // seat's wins are visits - wins.
        let old_mover_is_new_to_move = if path.is_empty() {
            true
        } else {
            let mut g = self.root_game.clone();
            let mut mover = g.to_move();
            for &c in path {
                mover = g.to_move();
                g.apply(self.node(c).action());
            }
            mover == fresh.root_game.to_move()
        };
        let src = self.node(old_root);
        let dst = fresh.root();
        let (v, w) = (src.visits(), src.wins());
        dst.visits.store(v, Relaxed);
        dst.wins
            .store(if old_mover_is_new_to_move { w } else { v - w }, Relaxed);
        dst.proof.store(src.proof.load(Relaxed), Relaxed);
        let mut queue = std::collections::VecDeque::new();
        queue.push_back((old_root, ROOT));
        while let Some((from, to)) = queue.pop_front() {
            let kids = self.node(from).children();
            if kids.is_empty() {
                continue;
            }
            let Some(first) = fresh.arena.alloc(kids.len()) else {
                fresh.set_full();
                continue;
            };
            for (k, c) in kids.clone().enumerate() {
                let s = self.node(c);
                let d = fresh.node(first + k as u32);
                d.action.store(s.action.load(Relaxed), Relaxed);
                d.visits.store(s.visits(), Relaxed);
                d.wins.store(s.wins(), Relaxed);
                d.proof.store(s.proof.load(Relaxed), Relaxed);
                d.prior.store(s.prior.load(Relaxed), Relaxed);
                d.board_net.store(s.board_net.load(Relaxed), Relaxed);
                d.amaf_visits.store(s.amaf_visits.load(Relaxed), Relaxed);
                d.amaf_wins.store(s.amaf_wins.load(Relaxed), Relaxed);
                queue.push_back((c, first + k as u32));
            }
            let t = fresh.node(to);
            t.num_children.store(kids.len() as u16, Relaxed);
            t.first_child.store(first, Release);
        }
        fresh
    }

    /// The child of `i` reached by `action`.
    pub(crate) fn child_by_action(&self, i: u32, action: Action) -> Option<u32> {
        self.node(i)
            .children()
            .find(|&c| self.node(c).action() == action)
    }
}
