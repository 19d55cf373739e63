//! Pictures of boards: geometry for every board, SVG and PNG writers.
//! A layer over `rules`; it knows nothing of search. Analyses reach it as
//! per-cell shades ([`HeatMap`]) and lines of play.

pub mod geometry;
pub mod graph;
pub mod png;
pub mod svg;
pub mod table;

pub use geometry::Geometry;
pub use graph::win_rate_graph;
pub use png::png_from_svg;
pub use svg::{HeatMap, Mark, Picture, Rgb, Style, Verdict, svg};
