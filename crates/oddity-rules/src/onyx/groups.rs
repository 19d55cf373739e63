//! The groups of an Onyx position: a union-find over the points that links
//! every stone to its group, with the goal edges each group touches.

use crate::bitboard::Bitboard;
use crate::forest::Forest;

use super::tables::{MAX_NEIGHBOURS, OnyxTables};

/// Stone groups of both colours as one disjoint-set forest over the cells
/// ([`Forest`], as Xodd's and Yodd's; a group never mixes colours), with
/// the goal edges each group touches. Entries of empty cells are
/// meaningless.
#[derive(Clone)]
pub(super) struct Groups<const W: usize> {
    forest: Forest<W>,
    /// At a root: the goal edges its group touches.
    pub(super) edges: [[u8; 64]; W],
}

impl<const W: usize> Groups<W> {
    pub(super) fn new() -> Self {
        Groups {
            forest: Forest::new(),
            edges: [[0; 64]; W],
        }
    }

    /// Makes the connected part of `within` that holds `root` one group
    /// with that root, linking each stone as the flood fill reaches it;
    /// returns the group.
    pub(super) fn make_group_from(
        &mut self,
        tables: &OnyxTables<W>,
        root: usize,
        within: &Bitboard<W>,
    ) -> Bitboard<W> {
        let mut group = Bitboard::EMPTY;
        let mut frontier = Bitboard::EMPTY;
        frontier.set(root);
        while frontier.any() {
            group |= frontier;
            let mut next = Bitboard::EMPTY;
            for c in frontier.iter() {
                next |= tables.board.neighbours[c];
                self.forest.set_parent(c, root);
            }
            frontier = (next & *within).and_not(&group);
        }
        group
    }

    /// The root of `x`, halving the path on the way.
    #[inline(always)]
    pub(super) fn find(&mut self, x: usize) -> usize {
        self.forest.find_compress(x)
    }

    /// The root of `x`, leaving the forest as it is.
    pub(super) fn root(&self, x: usize) -> usize {
        self.forest.find(x)
    }

    /// Adds the stone `x` to a group made of it and the groups of its
    /// same-coloured neighbours: `neighbours[j]` for each bit j of `linked`.
    /// Returns the goal edges of that group, given those of `x`, and how
    /// many groups merged into it.
    #[inline(always)]
    pub(super) fn add_stone(
        &mut self,
        x: usize,
        mut edges: u8,
        neighbours: &[u16; MAX_NEIGHBOURS],
        mut linked: u32,
    ) -> (u8, u32) {
        self.forest.set_parent(x, x);
        let mut root = x;
        let mut merged = 0;
        while linked != 0 {
            let q = neighbours[linked.trailing_zeros() as usize] as usize;
            linked &= linked - 1;
            let other = self.find(q);
            if other != root {
                // The first neighbouring group takes `x` in, so a growing
                // chain keeps its root; later groups hang under that root.
                let (child, parent) = if root == x { (x, other) } else { (other, root) };
                self.forest.set_parent(child, parent);
                edges |= self.edges.as_flattened()[other];
                root = parent;
                merged += 1;
            }
        }
        self.edges.as_flattened_mut()[root] = edges;
        (edges, merged)
    }
}
