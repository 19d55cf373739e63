//! PNG pictures: the SVG rasterised by resvg.
//!
//! Labels need a font; the system's fonts are loaded once. Without any font
//! the picture is still drawn, only its text is missing. Built without the
//! `png` feature, every PNG is refused with [`PngError::NotBuilt`].

#[cfg(feature = "png")]
use std::sync::{Arc, OnceLock};

#[cfg(feature = "png")]
use resvg::{tiny_skia, usvg};

#[cfg(feature = "png")]
fn fonts() -> Arc<usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = usvg::fontdb::Database::new();
            db.load_system_fonts();
            // Generic `sans-serif` falls back to a font that is there.
            let preferred = ["DejaVu Sans", "Liberation Sans", "Arial"];
            let family = preferred
                .iter()
                .find(|name| {
                    db.faces()
                        .any(|f| f.families.iter().any(|(family, _)| family == *name))
                })
                .map(|name| name.to_string())
                .or_else(|| {
                    db.faces()
                        .next()
                        .and_then(|f| f.families.first().map(|(family, _)| family.clone()))
                });
            if let Some(family) = family {
                db.set_sans_serif_family(family);
            }
            Arc::new(db)
        })
        .clone()
}

/// Why a picture could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum PngError {
    #[error("bad SVG: {0}")]
    /// The SVG cannot be read.
    Svg(String),
    #[error("cannot draw a {0}x{1} picture")]
    /// A picture of this width and height cannot be made.
    Size(u32, u32),
    #[error("cannot encode PNG: {0}")]
    /// The PNG cannot be written.
    Encode(String),
    #[error("this oddity was built without PNG output (cargo feature `png`): write SVG instead")]
    /// The `png` feature was not built in.
    NotBuilt,
}

/// Rasterises an SVG document at the size its `width` and `height` give.
#[cfg(feature = "png")]
pub fn png_from_svg(svg: &str) -> Result<Vec<u8>, PngError> {
    let options = usvg::Options {
        fontdb: fonts(),
        ..Default::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| PngError::Svg(e.to_string()))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or(PngError::Size(size.width(), size.height()))?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|e| PngError::Encode(e.to_string()))
}

/// Without the `png` feature there is no rasteriser.
#[cfg(not(feature = "png"))]
pub fn png_from_svg(_svg: &str) -> Result<Vec<u8>, PngError> {
    Err(PngError::NotBuilt)
}
