//! Pictures of boards for Xodd, Yodd, Odd and Onyx: geometry for every
//! board, SVG and (with the `png` feature) PNG writers, win-rate graphs and
//! the balance study's tables, and the per-cell heat of an analysis that
//! every heat map shades cells by. A layer over the rules; it knows nothing
//! of search. Analyses reach it as per-cell shades ([`HeatMap`],
//! [`heat`]) and lines of play.
//!
//! The same code draws the pictures of the command line, of `oddity gui`
//! and of the static page in the browser (compiled to WebAssembly there).

#![warn(missing_docs)]

pub mod board;
pub mod geometry;
pub mod graph;
pub mod heat;
pub mod palette;
pub mod png;
pub mod primitives;
pub mod table;

pub use board::{HeatMap, Mark, Picture, Verdict, svg};
pub use geometry::Geometry;
pub use graph::win_rate_graph;
pub use palette::{Rgb, Style};
pub use png::png_from_svg;
