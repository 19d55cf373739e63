//! Pictures of positions for the page, drawn by the board-picture module.
//! The page adds its own overlays (heat map, previewed lines, the turn being
//! composed) over the cells, which carry `data-cell`.

use oddity_render::{Picture, Style, svg as render_svg};
use oddity_rules::{AnyGame, Turn};

/// `position` as SVG, with the stones of `last_turn` marked.
pub fn svg(position: &AnyGame, last_turn: Option<Turn>) -> String {
    let mut picture = Picture::new(position);
    picture.last_turn = last_turn;
    render_svg(&picture, &Style::default())
}
