//! `oddity render`: a picture of a position, as SVG or PNG.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::cli::position::PositionArgs;
use oddity_render::{Picture, Style};
use oddity_rules::{GameRecord, Turn};

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

/// One line under a picture: game, size, the position's number (the turns
/// played before it, as `turnNumber` in the analysis JSON and `--turn K`
/// count), the last turn, and the side to move or who won and why.
pub fn caption(record: &GameRecord) -> String {
    let position = record.position();
    let spec = position.spec();
    let mut text = format!("{} {}", spec.kind, spec.size);
    match record.moves().last() {
        Some((_, turn)) => text.push_str(&format!(
            " · after turn {} ({})",
            record.moves().len(),
            position.token(turn)
        )),
        None => text.push_str(" · start"),
    }
    match record.outcome() {
        Some(outcome) => {
            text.push_str(&format!(" · game over: {}", outcome.describe(spec)));
        }
        None => text.push_str(&format!(
            " · {} to move",
            position.to_move().name().to_lowercase()
        )),
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
        oddity_render::png_from_svg(svg).map_err(|e| e.to_string())?
    } else {
        svg.as_bytes().to_vec()
    };
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// `--scale` and `--png` of a command that draws: a sane scale, and a PNG
/// file name that says it is one.
pub fn check_picture_options(scale: f64, png: Option<&Path>) -> Result<(), String> {
    check_scale(scale)?;
    match png {
        Some(path)
            if !path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("png")) =>
        {
            Err(format!(
                "--png {}: give a file name ending in .png",
                path.display()
            ))
        }
        _ => Ok(()),
    }
}

fn check_scale(scale: f64) -> Result<(), String> {
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
    write_picture(&oddity_render::svg(&picture, &style), args.out.as_ref())
}
