//! Pictures of boards: geometry for every board, SVG and PNG writers.
//! A layer over `rules`; it knows nothing of search. Analyses reach it as
//! per-cell shades ([`HeatMap`]) and lines of play.

pub mod board;
pub mod geometry;
pub mod graph;
pub mod palette;
pub mod png;
pub mod primitives;
pub mod table;

pub use board::{HeatMap, Mark, Picture, Verdict, svg};
pub use geometry::Geometry;
pub use graph::win_rate_graph;
pub use palette::{Rgb, Style};
pub use png::png_from_svg;
