//! Per-board precomputed bitboards: the on-board mask, neighbour masks, and
//! shift-based neighbourhood expansion for the grid boards.

use std::any::{Any, TypeId};

use crate::bitboard::Bitboard;
use crate::once_map::OnceMap;
use crate::topology::{BoardKind, Cell, Topology};

/// Entries of [`BoardTables::ring`]: a power of two above every cell index,
/// so that hot paths index it modulo its length without a bounds check.
pub const RING_CELLS: usize = 1024;

/// Tables of type `T` for a board, built on first use and kept for the life
/// of the program: one per (type, board).
pub fn built_once<T: Any + Send + Sync>(
    topo: &'static Topology,
    build: impl FnOnce() -> T,
) -> &'static T {
    static BUILT: OnceMap<(TypeId, BoardKind, usize), dyn Any + Send + Sync> = OnceMap::new();
    let key = (TypeId::of::<T>(), topo.kind, topo.size);
    BUILT
        .get_or_build(key, || Box::new(build()))
        .downcast_ref::<T>()
        .expect("cache keyed by type")
}

#[derive(Debug)]
pub struct BoardTables<const W: usize> {
    pub topo: &'static Topology,
    pub on_board: Bitboard<W>,
    pub neighbours: Vec<Bitboard<W>>,
    /// Cells with an index above `i`, for each cell `i`.
    pub above: Vec<Bitboard<W>>,
    /// Square and hex-hex boards: the neighbours of each cell in cyclic
    /// order around it, a missing neighbour (board edge) and the unused
    /// slots of a square board padded with the cell itself.
    /// Entries past the board's cells are unused.
    pub ring: Box<[[u16; 6]; RING_CELLS]>,
    /// Bit `j` set: ring slots `j` and `j + 1` (mod 6) are neighbours of each
    /// other whenever both are cells (hex-hex: all; square: none). A run of
    /// occupied slots joined this way is one connected piece.
    pub ring_links: u8,
    /// `ring_back_bit[j]`: the bit of the slot in which the neighbour in
    /// ring slot `j` sees the cell (the opposite direction); 0 for slots a
    /// square board does not use.
    pub ring_back_bit: [u8; 6],
    /// Grid boards: cells not in the first / last column of the array.
    not_first_col: Bitboard<W>,
    not_last_col: Bitboard<W>,
}

impl<const W: usize> BoardTables<W> {
    /// The shared tables of a board, built once per (board, width).
    pub fn get(topo: &'static Topology) -> &'static BoardTables<W> {
        built_once(topo, || BoardTables::<W>::build(topo))
    }

    fn build(topo: &'static Topology) -> Self {
        assert!(
            topo.bits <= Bitboard::<W>::CAPACITY,
            "board too large for width"
        );
        let on_board = Bitboard::from_indices(topo.cells().iter().map(|c| c.index()));
        let neighbours = (0..topo.bits)
            .map(|i| {
                Bitboard::from_indices(topo.neighbours(Cell(i as u16)).iter().map(|c| c.index()))
            })
            .collect();
        let above = (0..topo.bits)
            .map(|i| Bitboard::from_indices(i + 1..topo.bits) & on_board)
            .collect();
        let s = topo.stride;
        let (dirs, ring_links, ring_back_bit): (&[(isize, isize)], u8, [u8; 6]) = match topo.kind {
            BoardKind::HexHex => (
                &[(1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1)],
                0x3F,
                [1 << 3, 1 << 4, 1 << 5, 1, 1 << 1, 1 << 2],
            ),
            _ => (
                &[(1, 0), (0, 1), (-1, 0), (0, -1)],
                0,
                [1 << 2, 1 << 3, 1, 1 << 1, 0, 0],
            ),
        };
        assert!(topo.bits <= RING_CELLS);
        let mut ring = Box::new([[0u16; 6]; RING_CELLS]);
        let rings = (0..topo.bits).map(|i| {
            let me = Cell(i as u16);
            let mut slots = [i as u16; 6];
            if topo.kind == BoardKind::Onyx || !topo.is_on_board(me) {
                return slots;
            }
            let nbs = topo.neighbours(me);
            let (x, y) = ((i % s) as isize, (i / s) as isize);
            let mut found = 0;
            for (slot, &(dx, dy)) in slots.iter_mut().zip(dirs) {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx as usize >= s || ny as usize >= s {
                    continue;
                }
                let j = Cell((ny as usize * s + nx as usize) as u16);
                if nbs.contains(&j) {
                    *slot = j.0;
                    found += 1;
                }
            }
            assert_eq!(
                found,
                nbs.len(),
                "ring of {} misses neighbours",
                topo.name(me)
            );
            for j in 0..6 {
                let (a, b) = (slots[j], slots[(j + 1) % 6]);
                if ring_links >> j & 1 != 0 && a != me.0 && b != me.0 {
                    assert!(topo.neighbours(Cell(a)).contains(&Cell(b)), "ring link");
                }
            }
            slots
        });
        for (entry, slots) in ring.iter_mut().zip(rings) {
            *entry = slots;
        }
        let not_first_col = Bitboard::from_indices((0..topo.bits).filter(|i| i % s != 0));
        let not_last_col = Bitboard::from_indices((0..topo.bits).filter(|i| i % s != s - 1));
        BoardTables {
            topo,
            on_board,
            neighbours,
            above,
            ring,
            ring_links,
            ring_back_bit,
            not_first_col,
            not_last_col,
        }
    }

    /// All on-board cells adjacent to a cell of `b` (square and hex-hex boards).
    #[inline(always)]
    pub fn expand(&self, b: &Bitboard<W>) -> Bitboard<W> {
        let s = self.topo.stride;
        let east = (*b & self.not_last_col).shl(1);
        let west = (*b & self.not_first_col).shr(1);
        let mut out = east | west | b.shl(s) | b.shr(s);
        if self.topo.kind == BoardKind::HexHex {
            out |= (*b & self.not_last_col).shl(s + 1);
            out |= (*b & self.not_first_col).shr(s + 1);
        }
        out & self.on_board
    }

    /// The group of `seed` within `stones` (square and hex-hex boards).
    #[inline(always)]
    pub fn flood(&self, seed: Bitboard<W>, stones: &Bitboard<W>) -> Bitboard<W> {
        let mut group = seed;
        loop {
            let next = (self.expand(&group) & *stones) | group;
            if next == group {
                return group;
            }
            group = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansion_matches_neighbour_lists() {
        for (kind, n) in [
            (BoardKind::Square, 7),
            (BoardKind::HexHex, 5),
            (BoardKind::HexHex, 12),
        ] {
            let topo = Topology::get(kind, n).unwrap();
            let t = BoardTables::<10>::get(topo);
            for &c in topo.cells() {
                let mut one = Bitboard::EMPTY;
                one.set(c.index());
                assert_eq!(
                    t.expand(&one),
                    t.neighbours[c.index()],
                    "{kind:?} {}",
                    topo.name(c)
                );
            }
        }
    }
}
