//! The feature groups of a candidate action, the vocabulary the weights
//! files, the boards and the playouts share.
//!
//! A candidate stone (cell, colour) has one value in each group:
//! - `shape`: the canonical pattern of its ring ([`super::shape`]), seen
//!   from the stone's colour, times two plus whether the colour is the
//!   mover's; special actions (pass, end of turn, swap) have values of
//!   their own after the patterns;
//! - `joins`: groups of its colour it joins (0 a new group, 1, 2, 3 or
//!   more), times two plus mover's colour or not;
//! - `touches`: groups of the other colour it touches (0..3+), likewise;
//! - `size` (only where a smallest group counts, Odd): whether the group
//!   it makes stays below the smallest counted size, reaches it, or joins
//!   a group already counted, likewise;
//! - `count` (Odd): how the stone changes the number of counted groups
//!   (-2 or less, -1, 0, +1), times two plus whether the count after it
//!   has the parity the mover wins with (Black odd, White even,
//!   `docs/rules.md`);
//! - `distance`: steps on the board to the nearer of the last two stones
//!   placed (1, 2, 3, 4 or more, or none known).
//!
//! - `capture`, `bridge`, `cut`, `edges`: Onyx only ([`super::onyx`],
//!   which also gives Onyx its own `shape`).
//!
//! Special actions have only a `shape` value.

/// Feature groups of a candidate.
pub const GROUPS: usize = 10;
/// The groups' names, as the weights file spells them; the last four are
/// Onyx's.
pub const GROUP_NAMES: [&str; GROUPS] = [
    "shape", "joins", "touches", "size", "count", "distance", "capture", "bridge", "cut", "edges",
];
/// No value in this group.
pub const NONE: u32 = u32::MAX;

/// One value per group ([`NONE`] where the group says nothing).
pub type Features = [u32; GROUPS];

/// Values of the groups after `shape`.
const JOINS: u32 = 8;
const TOUCHES: u32 = 8;
const SIZE: u32 = 6;
const COUNT: u32 = 8;
pub(crate) const DISTANCE: u32 = 5;
/// Values of the Onyx groups.
pub(crate) const CAPTURE: u32 = 6;
const BRIDGE: u32 = 9;
const CUT: u32 = 3;
const EDGES: u32 = 3;

/// How many values each group has on a board whose ring has `len` points.
pub fn group_sizes(len: usize) -> [u32; GROUPS] {
    [
        (2u32 << (2 * len)) + 3,
        JOINS,
        TOUCHES,
        SIZE,
        COUNT,
        DISTANCE,
        CAPTURE,
        BRIDGE,
        CUT,
        EDGES,
    ]
}
