//! Rule tables of one Onyx board, shared by all games of that size and
//! width: each point's neighbours, the squares it is a corner of and the
//! goal edges it lies on.

use crate::bitboard::Bitboard;
use crate::moves::Colour;
use crate::tables::{BoardTables, built_once};
use crate::topology::{Cell, Topology};

/// Room for the neighbours of an Onyx point (7 for an interior corner point).
pub(super) const MAX_NEIGHBOURS: usize = 8;

/// One square as seen from one of its corners: what a stone placed on that
/// corner needs for a capture, and which points it blocks.
#[derive(Clone, Copy)]
pub(super) struct SquareView {
    pub(super) midpoint: u16,
    /// The corner diagonally opposite the viewing corner.
    pub(super) opposite: u16,
    /// The two corners a capture removes.
    pub(super) sides: [u16; 2],
}

/// What a placement on one point needs to know, kept together so that a
/// move touches one small record.
#[derive(Clone, Copy)]
pub(super) struct PointInfo {
    /// The neighbours, padded with the point itself.
    pub(super) neighbours: [u16; MAX_NEIGHBOURS],
    /// The squares the point is a corner of (0, 1 or 2), padded to two with
    /// views in which every point is the point itself. Such a view never
    /// captures (its midpoint, the point, is occupied when it is judged) and
    /// never makes playable anything but the point, so the hot paths can
    /// always look at two squares without branching on how many there are.
    pub(super) squares: [SquareView; 2],
    /// `back[j]`: the bit of this point in the neighbour mask
    /// (`OnyxGame::own_near`) of `neighbours[j]`; 0 for padding.
    pub(super) back: [u8; MAX_NEIGHBOURS],
    /// Per colour: the goal edges the point lies on (bit 0: row 1 for Black,
    /// column A for White; bit 1: row n / column n). Midpoints: none.
    pub(super) edges: [u8; 2],
}

/// Rule tables of one Onyx board, shared by all games of that size and width.
pub(super) struct OnyxTables<const W: usize> {
    pub(super) board: &'static BoardTables<W>,
    /// Corner points are the cells `0..corner_count`; midpoints follow them.
    pub(super) corner_count: usize,
    pub(super) points: Vec<PointInfo>,
    /// Per colour, its two goal edges as point sets.
    pub(super) edge_masks: [[Bitboard<W>; 2]; 2],
}

impl<const W: usize> OnyxTables<W> {
    pub(super) fn get(topo: &'static Topology) -> &'static Self {
        built_once(topo, || Self::build(topo))
    }

    pub(super) fn build(topo: &'static Topology) -> Self {
        let n = topo.size;
        let corner_count = n * n;
        let edges: Vec<[u8; 2]> = (0..topo.bits)
            .map(|i| {
                if i >= corner_count {
                    return [0, 0];
                }
                let (col, row) = (i % n, i / n);
                let flags = |first: bool, last: bool| u8::from(first) | u8::from(last) << 1;
                [flags(row == 0, row == n - 1), flags(col == 0, col == n - 1)]
            })
            .collect();
        let edge_masks = [0, 1].map(|colour| {
            [0, 1].map(|edge| {
                Bitboard::from_indices(
                    (0..topo.bits).filter(|&i| edges[i][colour] >> edge & 1 != 0),
                )
            })
        });
        let points = (0..topo.bits)
            .map(|p| {
                let me = p as u16;
                assert!(topo.neighbours(Cell(me)).len() <= MAX_NEIGHBOURS);
                let mut neighbours = [me; MAX_NEIGHBOURS];
                for (slot, q) in neighbours.iter_mut().zip(topo.neighbours(Cell(me))) {
                    *slot = q.0;
                }
                let mut squares = [SquareView {
                    midpoint: me,
                    opposite: me,
                    sides: [me, me],
                }; 2];
                for (view, &k) in squares.iter_mut().zip(topo.squares_of(Cell(me))) {
                    let sq = &topo.squares()[k as usize];
                    let at = sq
                        .corners
                        .iter()
                        .position(|&c| c.0 == me)
                        .expect("a corner");
                    *view = SquareView {
                        midpoint: sq.midpoint.0,
                        opposite: sq.corners[(at + 2) % 4].0,
                        sides: [sq.corners[(at + 1) % 4].0, sq.corners[(at + 3) % 4].0],
                    };
                }
                let mut back = [0u8; MAX_NEIGHBOURS];
                for (slot, q) in back.iter_mut().zip(topo.neighbours(Cell(me))) {
                    let at = topo
                        .neighbours(*q)
                        .iter()
                        .position(|r| r.0 == me)
                        .expect("neighbourhood is symmetric");
                    *slot = 1 << at;
                }
                PointInfo {
                    neighbours,
                    back,
                    squares,
                    edges: edges[p],
                }
            })
            .collect();
        OnyxTables {
            board: BoardTables::get(topo),
            corner_count,
            points,
            edge_masks,
        }
    }

    /// The connected part of `within` that contains `seed`.
    #[inline(always)]
    pub(super) fn flood(&self, seed: usize, within: &Bitboard<W>) -> Bitboard<W> {
        let mut group = Bitboard::EMPTY;
        let mut frontier = Bitboard::EMPTY;
        frontier.set(seed);
        while frontier.any() {
            group |= frontier;
            let mut next = Bitboard::EMPTY;
            for c in frontier.iter() {
                next |= self.board.neighbours[c];
            }
            frontier = (next & *within).and_not(&group);
        }
        group
    }

    /// The goal edges of `colour` that the points of `group` touch.
    #[inline(always)]
    pub(super) fn edges_of(&self, group: &Bitboard<W>, colour: Colour) -> u8 {
        let [first, last] = &self.edge_masks[colour.index()];
        u8::from(group.intersects(first)) | u8::from(group.intersects(last)) << 1
    }
}
