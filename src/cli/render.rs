//! `oddity render`: a picture of a position, as SVG or PNG.

use std::path::PathBuf;

use clap::Args;

use super::position::PositionArgs;
use crate::render::{self, Picture, Style};
use crate::rules::moves::Turn;
use crate::rules::record::GameRecord;

#[derive(Args, Debug)]
pub struct RenderArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Write the picture here: `.png` for PNG, anything else for SVG.
    /// Default: SVG on stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Pixels per board unit (the distance between neighbouring cells).
    #[arg(long, default_value_t = 40.0)]
    pub scale: f64,
}

/// The last turn that put stones on the board, for the last-turn marks.
pub fn last_turn(record: &GameRecord) -> Option<Turn> {
    record.moves().last().map(|&(_, turn)| turn)
}

/// One line under a picture: game, size, side to move, last turn.
pub fn caption(record: &GameRecord) -> String {
    let position = record.position();
    let mut text = format!(
        "{} {} · turn {}",
        position.kind(),
        position.topology().size,
        record.moves().len() + 1
    );
    if let Some(turn) = last_turn(record) {
        text.push_str(&format!(" · last {}", position.token(&turn)));
    }
    if record.is_over() {
        text.push_str(" · game over");
    } else {
        let mover = match position.to_move() {
            crate::rules::moves::Colour::Black => "black",
            crate::rules::moves::Colour::White => "white",
        };
        text.push_str(&format!(" · {mover} to move"));
    }
    text
}

/// Writes `svg` to `out` (PNG when it ends in `.png`), or prints it.
pub fn write_picture(svg: &str, out: Option<&PathBuf>) -> Result<(), String> {
    let Some(path) = out else {
        print!("{svg}");
        return Ok(());
    };
    let is_png = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    let bytes = if is_png {
        render::png_from_svg(svg)?
    } else {
        svg.as_bytes().to_vec()
    };
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

pub fn check_scale(scale: f64) -> Result<(), String> {
    if scale.is_finite() && (1.0..=400.0).contains(&scale) {
        Ok(())
    } else {
        Err(format!(
            "--scale {scale}: give 1 to 400 pixels per board unit"
        ))
    }
}

pub fn run(args: &RenderArgs) -> Result<(), String> {
    check_scale(args.scale)?;
    let record = args.position.record()?;
    let style = Style {
        scale: args.scale,
        ..Style::default()
    };
    let picture = Picture {
        last_turn: last_turn(&record),
        caption: Some(caption(&record)),
        ..Picture::new(record.position())
    };
    write_picture(&render::svg(&picture, &style), args.out.as_ref())
}
