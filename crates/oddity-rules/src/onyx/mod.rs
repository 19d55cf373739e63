//! Onyx (`docs/rules.md` section 4): a connection game on the Onyx board with
//! square captures, the midpoint restriction and the swap-pieces pie rule.
//!
//! Win detection is incremental. A disjoint-set forest over the cells links
//! every stone to its group, and each root records which of its colour's goal
//! edges the group touches. A placement only ever joins groups. A capture
//! removes opponent stones and may split the groups they were in; only those
//! groups are repaired, by flood fills from the captured stones' neighbours.
//!
//! Modules, lowest first: `tables` (each board's rule tables), `groups`
//! (the union-find of stones, on the crate's `forest`, as Xodd's and
//! Yodd's), `game` (the position and its rules), `playout` (random and
//! policy-drawn playouts), `race` (each colour's distance to connect its
//! edges) and `game_trait` (the [`crate::Game`] interface).

mod game;
mod game_trait;
mod groups;
mod playout;
mod race;
mod tables;

pub use game::OnyxGame;
pub use playout::PointDraw;
pub use race::Race;
