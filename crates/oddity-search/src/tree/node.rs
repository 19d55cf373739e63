//! Tree nodes and the arena that holds them.

use std::alloc::{Layout, alloc_zeroed};
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicUsize, Ordering};

use oddity_rules::{Action, Colour};

use Ordering::{Acquire, Relaxed};

/// The root's index: the first node of the arena.
pub(crate) const ROOT: u32 = 0;
/// `first_child` of a node without children (index 0 is the root, which is
/// nobody's child).
pub(crate) const NO_CHILDREN: u32 = 0;
/// `first_child` while one thread expands the node.
pub(crate) const EXPANDING: u32 = u32::MAX;

/// Size of one tree node in bytes.
pub const NODE_BYTES: usize = std::mem::size_of::<Node>();

/// Largest arena: indices must stay below [`EXPANDING`].
pub(crate) const MAX_CAPACITY: usize = (u32::MAX - 1) as usize;
/// Visits are 32-bit counters: a search stops iterating before the root
/// reaches this many visits (it then waits for its stop condition).
pub(crate) const VISIT_CAP: u32 = 1 << 31;

/// One tree node: 28 bytes. All fields are atomics so that any thread can
/// read and update any node without a lock; an all-zero node is a fresh,
/// unvisited leaf.
#[derive(Default)]
pub(crate) struct Node {
    /// Index of the first child (children are contiguous), [`NO_CHILDREN`]
    /// or [`EXPANDING`]. Published with release ordering after the children
    /// and `num_children` are written.
    pub(crate) first_child: AtomicU32,
    /// Times an iteration went through this node (counted on the way down:
    /// an iteration in flight is a virtual loss).
    pub(crate) visits: AtomicU32,
    /// Playouts won by the player who chose this node's action.
    pub(crate) wins: AtomicU32,
    /// The action leading here ([`Action::bits`]).
    pub(crate) action: AtomicU16,
    pub(crate) num_children: AtomicU16,
    /// 0 unknown, 1 + colour index: the proven winner of this position.
    pub(crate) proof: AtomicU8,
    /// The action's prior from [`crate::knowledge`], in 255ths (0 = none).
    pub(crate) prior: AtomicU8,
    /// 1 once the board network has evaluated this node
    /// (`TreeConfig::board_net`).
    pub(crate) board_net: AtomicU8,
    /// AMAF ("all moves as first") playouts: those in which this node's
    /// stone (cell and colour) was on the final board, whoever placed it
    /// and whenever below the parent; and of them, those won by the seat
    /// choosing this node. Only kept when RAVE is on. Updated by a plain
    /// load and store, not a read-modify-write: a rare lost update between
    /// threads costs nothing measurable and the atomic add would cost
    /// more than the playout.
    pub(crate) amaf_visits: AtomicU32,
    pub(crate) amaf_wins: AtomicU32,
}

const _: () = assert!(std::mem::size_of::<Node>() == 28);

impl Node {
    pub(crate) fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }
    pub(crate) fn wins(&self) -> u32 {
        self.wins.load(Relaxed)
    }
    pub(crate) fn action(&self) -> Action {
        Action::from_bits(self.action.load(Relaxed))
    }
    /// The prior in `0..=1`, if the node has one.
    pub(crate) fn prior(&self) -> Option<f64> {
        let p = self.prior.load(Relaxed);
        (p > 0).then(|| f64::from(p) / 255.0)
    }
    /// AMAF playouts and wins (see the fields).
    pub(crate) fn amaf(&self) -> (u32, u32) {
        (self.amaf_visits.load(Relaxed), self.amaf_wins.load(Relaxed))
    }
    pub(crate) fn proof(&self) -> Option<Colour> {
        match self.proof.load(Relaxed) {
            1 => Some(Colour::Black),
            2 => Some(Colour::White),
            _ => None,
        }
    }
    pub(crate) fn set_proof(&self, winner: Colour) {
        self.proof.store(1 + winner as u8, Relaxed);
    }
    /// The children as an index range (empty for a leaf).
    pub(crate) fn children(&self) -> std::ops::Range<u32> {
        let first = self.first_child.load(Acquire);
        if first == NO_CHILDREN || first == EXPANDING {
            return 0..0;
        }
        first..first + u32::from(self.num_children.load(Relaxed))
    }
}

/// All nodes of a tree, allocated up front from zeroed memory: the operating
/// system maps pages only when they are first written, so the resident size
/// grows with the nodes in use, not with the capacity.
pub(crate) struct Arena {
    nodes: Box<[Node]>,
    next: AtomicUsize,
}

impl Arena {
    pub(crate) fn new(capacity: usize) -> Arena {
        let mut capacity = capacity.clamp(1, MAX_CAPACITY);
        // A refused allocation halves the arena instead of aborting.
        loop {
            if let Some(nodes) = Self::zeroed(capacity) {
                return Arena {
                    nodes,
                    next: AtomicUsize::new(0),
                };
            }
            if capacity == 1 {
                let layout = Layout::new::<Node>();
                std::alloc::handle_alloc_error(layout);
            }
            capacity /= 2;
        }
    }

    /// `capacity` (>= 1) zeroed nodes, or `None` if the allocator refuses.
    fn zeroed(capacity: usize) -> Option<Box<[Node]>> {
        let layout = Layout::array::<Node>(capacity).ok()?;
        // SAFETY: `layout` has a non-zero size (capacity >= 1 and Node is not
        // zero-sized). `Node` consists of atomic integers only, for which the
        // all-zero bit pattern is a valid value, so the zeroed block is
        // `capacity` initialised nodes. The pointer comes from the global
        // allocator with the layout of `[Node; capacity]`, which is what
        // `Box<[Node]>` frees it with.
        unsafe {
            let ptr = alloc_zeroed(layout) as *mut Node;
            if ptr.is_null() {
                return None;
            }
            Some(Box::from_raw(std::ptr::slice_from_raw_parts_mut(
                ptr, capacity,
            )))
        }
    }

    /// Nodes handed out so far.
    pub(crate) fn used(&self) -> usize {
        self.next.load(Relaxed).min(self.nodes.len())
    }

    /// Reserves `n` contiguous nodes; `None` when the arena is full.
    pub(crate) fn alloc(&self, n: usize) -> Option<u32> {
        let mut cur = self.next.load(Relaxed);
        loop {
            if cur + n > self.nodes.len() {
                return None;
            }
            match self
                .next
                .compare_exchange_weak(cur, cur + n, Relaxed, Relaxed)
            {
                Ok(_) => return Some(cur as u32),
                Err(now) => cur = now,
            }
        }
    }

    /// The `n` nodes from `first`.
    #[inline(always)]
    pub(crate) fn slice(&self, first: u32, n: u32) -> &[Node] {
        &self.nodes[first as usize..(first + n) as usize]
    }

    #[inline(always)]
    pub(crate) fn get(&self, i: u32) -> &Node {
        &self.nodes[i as usize]
    }
}
