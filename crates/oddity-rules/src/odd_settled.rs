//! Odd's settled cells: empty cells whose colour cannot change the count.
//!
//! A stone's colour matters only through the groups it joins. A cell is
//! *neutral for a colour* when a stone of that colour there leaves the
//! number of counted groups of that colour the same as a stone of the other
//! colour would, whatever is played on the other empty cells. It is
//! *settled* when it is neutral for both colours: then every colouring of
//! the board that differs only there has the same winner, so a move there
//! changes nothing but who moves next. Every move on a settled cell is
//! then worth the same (a tempo move), and once every empty cell is settled
//! the winner is known.
//!
//! Two sufficient tests, each checked against every completion by the
//! tests (`tests/odd_settled.rs`):
//! - **Too small**: the cell's region of empty cells and stones of the
//!   colour (connected through them) holds fewer than the smallest counted
//!   size; no group of that colour through the cell can ever count, and any
//!   groups it would join lie in that region too.
//! - **Beside one counted group**: the cell touches a group G that already
//!   counts, and each of its other neighbours that is empty or of the
//!   colour either touches G (so it is in G's group whenever it is of the
//!   colour) or lies in a region of empty cells and stones of the colour,
//!   not counting the cell, that holds no part of G and is too small. A
//!   stone of the colour there joins G's group and, at most, groups that
//!   can never count on their own: it neither adds nor removes a counted
//!   group. A cell that does not touch G qualifies when every neighbour
//!   that is empty or of the colour touches G (the stone is then alone or
//!   in G's group) and the smallest counted size is above one.
//!
//! Both tests only get easier as the board fills (regions shrink, groups
//! grow), so a settled cell stays settled, and settled cells are settled
//! together: changing their colours one at a time never changes the count.

use crate::bitboard::Bitboard;
use crate::odd::OddGame;

impl<const W: usize> OddGame<W> {
    /// The empty cells whose colour cannot change the count (the module's
    /// two tests, for both colours).
    pub fn settled_cells(&self) -> Bitboard<W> {
        let neutral = [0, 1].map(|c| self.neutral_cells(c));
        neutral[0] & neutral[1] & self.empty
    }

    /// Whether every empty cell is settled: the winner is then that of any
    /// completion of the board ([`crate::Game::playout`] gives one).
    pub fn all_settled(&self) -> bool {
        // Black's test first: most positions fail it and skip White's.
        (0..2).all(|c| self.neutral_cells(c) & self.empty == self.empty)
    }

    /// The empty cells where a stone of colour `c` (its index) changes
    /// nothing that a stone of the other colour would not.
    fn neutral_cells(&self, c: usize) -> Bitboard<W> {
        let t = self.tables;
        let m = self.min_group;
        let own = self.stones[c];
        let mut neutral = Bitboard::EMPTY;
        // Too small: regions of empty cells and own stones under m cells.
        let passable = own | self.empty;
        let mut rest = self.empty;
        while rest.any() {
            let region = t.flood(rest.lowest_bit(), &passable);
            if region.count() < m {
                neutral |= region & self.empty;
            }
            rest = rest.and_not(&region);
        }
        // Beside one counted group G: the cell touches G, and each of its
        // other neighbours of the colour or empty either touches G or lies
        // in a region (without the cell) that holds no part of G and is
        // too small.
        let mut rest = own;
        while rest.any() {
            let group = t.flood(rest.lowest_bit(), &own);
            rest = rest.and_not(&group);
            if group.count() < m {
                continue;
            }
            let touching = t.expand(&group);
            let joins_group = group | (self.empty & touching);
            // Not touching G, but with every neighbour of the colour or
            // empty touching it: the stone is alone or in G's group.
            if m >= 2 {
                let outside = passable.and_not(&joins_group);
                neutral |= self.empty.and_not(&touching).and_not(&t.expand(&outside));
            }
            for e in (self.empty & touching).and_not(&neutral).iter() {
                let mut cell = Bitboard::EMPTY;
                cell.set(e);
                let mut others = (t.expand(&cell) & passable).and_not(&joins_group);
                let without = passable.and_not(&cell);
                let mut small = true;
                while small && others.any() {
                    let region = t.flood(others.lowest_bit(), &without);
                    small = region.count() < m && !region.intersects(&group);
                    others = others.and_not(&region);
                }
                if small {
                    neutral |= cell;
                }
            }
        }
        neutral
    }
}
