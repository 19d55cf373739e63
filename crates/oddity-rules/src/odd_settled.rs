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
//! - **Inside one counted group**: the colour's stones next to the cell all
//!   belong to one group G that already counts, and every empty cell next
//!   to it touches G. A stone of the colour there only joins G's group
//!   (every stone of the colour that can ever touch it is in G's group), so
//!   it neither adds nor merges a counted group. (With a smallest size of
//!   one, the cell must touch G itself: a lone stone counts.)
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
    /// completion of the board ([`crate::game::Game::playout`] gives one).
    pub fn all_settled(&self) -> bool {
        self.settled_cells() == self.empty
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
        // Inside one counted group G: no neighbour that is an own stone
        // outside G or an empty cell not next to G.
        let mut rest = own;
        while rest.any() {
            let group = t.flood(rest.lowest_bit(), &own);
            rest = rest.and_not(&group);
            if group.count() < m {
                continue;
            }
            let touching = t.expand(&group);
            let outside = own.and_not(&group) | self.empty.and_not(&touching);
            let mut inside = self.empty.and_not(&t.expand(&outside));
            if m <= 1 {
                inside &= touching;
            }
            neutral |= inside;
        }
        neutral
    }
}
