//! Which table of every position that can follow a root a position gets:
//! Odd's one-bit table ([`OddTable`]) where it serves, else the byte table
//! ([`Retrograde`]).

use crate::odd_table::OddTable;
use crate::retrograde::{ExactTable, Retrograde, RetrogradeError};
use oddity_rules::{Colour, Game};

/// A table of every position that can follow a root.
pub enum AnyTable {
    /// Odd's table of one bit per position.
    Bits(OddTable),
    /// The table of one byte per position, every game.
    Bytes(Retrograde),
}

impl AnyTable {
    /// Values every position that can follow `root` within `memory_mb`
    /// MiB, in the best table for its game; the one-bit table's sweep is
    /// shared among the threads of the current rayon pool when `parallel`
    /// (the byte table's always is).
    pub fn build<G: Game>(
        root: &G,
        memory_mb: usize,
        parallel: bool,
    ) -> Result<AnyTable, RetrogradeError> {
        if OddTable::serves(root.spec().kind) {
            OddTable::build(root, memory_mb, parallel).map(AnyTable::Bits)
        } else {
            Retrograde::build(root, memory_mb).map(AnyTable::Bytes)
        }
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> u64 {
        match self {
            AnyTable::Bits(t) => t.bytes(),
            AnyTable::Bytes(t) => t.positions(),
        }
    }
}

impl ExactTable for AnyTable {
    fn wins<G: Game>(&self, game: &G, seat: Colour) -> bool {
        match self {
            AnyTable::Bits(t) => t.wins(game, seat),
            AnyTable::Bytes(t) => t.wins(game, seat),
        }
    }

    fn positions(&self) -> u64 {
        match self {
            AnyTable::Bits(t) => t.positions(),
            AnyTable::Bytes(t) => t.positions(),
        }
    }
}
