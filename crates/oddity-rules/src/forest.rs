//! A union-find over the cells of a board, for groups of stones that are
//! never removed (Xodd and Yodd keep their groups in one, Odd's drawn
//! playouts too). Each occupied cell has a parent; a root is its own
//! parent. Cells are indexed `[i / 64][i % 64]`, and indices are reduced
//! modulo the length, which changes no cell index and drops the bounds
//! checks.

#[derive(Clone)]
pub(crate) struct Forest<const W: usize> {
    parent: [[u16; 64]; W],
}

impl<const W: usize> Forest<W> {
    pub(crate) fn new() -> Self {
        Forest {
            parent: [[0; 64]; W],
        }
    }

    #[inline(always)]
    fn parent_of(&self, i: usize) -> usize {
        self.parent.as_flattened()[i % (64 * W)] as usize
    }

    #[inline(always)]
    pub(crate) fn set_parent(&mut self, i: usize, p: usize) {
        self.parent.as_flattened_mut()[i % (64 * W)] = p as u16;
    }

    /// The root of `i`. Trees are shallow: two steps at a time (a root is
    /// its own parent) leave the loop branch predictable.
    #[inline(always)]
    pub(crate) fn find(&self, i: usize) -> usize {
        let mut r = self.parent_of(self.parent_of(i));
        while self.parent_of(r) != r {
            r = self.parent_of(self.parent_of(r));
        }
        r
    }

    /// `find` with path halving.
    #[inline(always)]
    pub(crate) fn find_compress(&mut self, mut i: usize) -> usize {
        loop {
            let gp = self.parent_of(self.parent_of(i));
            self.set_parent(i, gp);
            if self.parent_of(gp) == gp {
                return gp;
            }
            i = gp;
        }
    }
}
