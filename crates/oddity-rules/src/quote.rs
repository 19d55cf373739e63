//! Outside input quoted in messages: on one line, with every character
//! that would break the line or hide or reorder text written as an escape
//! (`\n`, `\t`, `\u{1b}`), so that no message carries such a character
//! raw, whatever it quotes.

use std::fmt;

/// Whether `c` is written as an escape: control characters, the Unicode
/// line and paragraph separators, and the marks that reorder text.
pub fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}' | '\u{feff}'
        )
}

/// Whether `text` shows as it is, on one line.
pub fn is_one_line(text: &str) -> bool {
    !text.chars().any(needs_escape)
}

/// `text` with the characters [`needs_escape`] picks written as escapes.
pub struct Escaped<'a>(pub &'a str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            if needs_escape(c) {
                write!(f, "{}", c.escape_default())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

/// `text` escaped as [`Escaped`] writes it.
pub fn escaped(text: &str) -> String {
    Escaped(text).to_string()
}

/// `'text'`, escaped as [`Escaped`] writes it.
pub fn quoted(text: &str) -> String {
    format!("'{}'", Escaped(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(quoted("\n\tHI910"), "'\\n\\tHI910'");
        assert_eq!(escaped("a\u{1b}[2Jb\u{2028}é"), "a\\u{1b}[2Jb\\u{2028}é");
        assert_eq!(escaped("B:C3,W:D4 x"), "B:C3,W:D4 x");
        assert!(is_one_line(&escaped("\r\n\u{85}\u{202e}\u{0}")));
        assert!(!is_one_line("a\nb"));
    }
}
