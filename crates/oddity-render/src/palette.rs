//! The colours and sizes of pictures: [`Rgb`] and the [`Style`] every
//! picture (boards, graphs, tables) is drawn in.

use oddity_rules::Colour;

/// An sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// `#rrggbb`.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }

    /// The colour a fraction `t` (0..=1) of the way from `self` to `other`.
    pub fn mix(self, other: Rgb, t: f64) -> Rgb {
        let t = t.clamp(0.0, 1.0);
        let m = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * t).round() as u8;
        Rgb(m(self.0, other.0), m(self.1, other.1), m(self.2, other.2))
    }
}

/// Colours and sizes of a picture.
#[derive(Clone, Debug)]
pub struct Style {
    /// Pixels per board unit: sets the picture's width and height.
    pub scale: f64,
    /// Around the board.
    pub background: Rgb,
    /// The board itself.
    pub board: Rgb,
    /// Onyx: the fill of the squares.
    pub square: Rgb,
    /// Its lines.
    pub line: Rgb,
    /// In board units.
    pub line_width: f64,
    /// Black's stones.
    pub black: Rgb,
    /// White's stones.
    pub white: Rgb,
    /// The edge of every stone.
    pub stone_edge: Rgb,
    /// The coordinates' text.
    pub label: Rgb,
    /// The font of every text.
    pub font_family: String,
    /// The dot on the stones of the last turn.
    pub last_turn: Rgb,
    /// Heat map colours for the lowest and the highest value.
    pub heat_low: Rgb,
    /// The highest value's colour.
    pub heat_high: Rgb,
    /// How opaque the heat is.
    pub heat_opacity: f64,
    /// Verdict marks: a cell whose turns win, lose, or some of each.
    pub won: Rgb,
    /// Cells lost for the side to move.
    pub lost: Rgb,
    /// Cells whose value is mixed.
    pub mixed: Rgb,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            scale: 40.0,
            background: Rgb(0xf6, 0xf1, 0xe7),
            board: Rgb(0xe3, 0xc1, 0x6f),
            square: Rgb(0xcf, 0xa5, 0x52),
            line: Rgb(0x3b, 0x2f, 0x1e),
            line_width: 0.04,
            black: Rgb(0x1c, 0x1c, 0x1c),
            white: Rgb(0xfa, 0xfa, 0xfa),
            stone_edge: Rgb(0x10, 0x10, 0x10),
            label: Rgb(0x40, 0x36, 0x28),
            font_family: "DejaVu Sans, Liberation Sans, Arial, sans-serif".into(),
            last_turn: Rgb(0xd6, 0x27, 0x28),
            heat_low: Rgb(0x31, 0x82, 0xbd),
            heat_high: Rgb(0xde, 0x2d, 0x26),
            heat_opacity: 0.75,
            won: Rgb(0x1a, 0x98, 0x50),
            lost: Rgb(0xd7, 0x30, 0x27),
            mixed: Rgb(0xf4, 0xa5, 0x1c),
        }
    }
}

impl Style {
    /// The colour of `colour`'s stones.
    pub fn stone(&self, colour: Colour) -> Rgb {
        match colour {
            Colour::Black => self.black,
            Colour::White => self.white,
        }
    }

    /// The heat map colour of a value in 0..=1.
    pub fn heat(&self, value: f64) -> Rgb {
        self.heat_low.mix(self.heat_high, value)
    }

    /// The opacity of a value's heat: low values fade, so the few cells
    /// that matter stand out.
    pub fn heat_alpha(&self, value: f64) -> f64 {
        self.heat_opacity * (0.25 + 0.75 * value.clamp(0.0, 1.0))
    }
}
