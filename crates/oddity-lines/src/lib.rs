//! Text lines read as bytes. Every line loop of the program (GTP commands,
//! analysis queries, engine output, results and openings files) reads raw
//! bytes up to each line feed and decodes each line on its own, so that a
//! line that is not UTF-8, or one far too long, gets its own error and the
//! lines after it are read as usual.

use std::io::{BufRead, ErrorKind};

/// Why one line could not be taken as text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("the line is not UTF-8 text (invalid byte at position {0})")]
    NotUtf8(usize),
    #[error("the line is longer than {0} bytes")]
    TooLong(usize),
}

/// One line as read: its bytes without the line feed (and without a
/// carriage return before it), or the note that it was too long, in which
/// case its bytes up to the limit are kept and the rest was skipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawLine {
    pub bytes: Vec<u8>,
    pub too_long: bool,
    limit: usize,
}

impl RawLine {
    /// The line as text, or why it is not.
    pub fn text(&self) -> Result<&str, LineError> {
        if self.too_long {
            return Err(LineError::TooLong(self.limit));
        }
        utf8(&self.bytes)
    }

    /// The line as text with invalid bytes replaced (for error messages
    /// that quote it).
    pub fn lossy(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}

/// `bytes` as text, or the position of the first invalid byte.
pub fn utf8(bytes: &[u8]) -> Result<&str, LineError> {
    std::str::from_utf8(bytes).map_err(|e| LineError::NotUtf8(e.valid_up_to()))
}

/// Reads lines of at most `limit` bytes from `input`.
pub struct LineReader<R> {
    input: R,
    limit: usize,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(input: R, limit: usize) -> LineReader<R> {
        LineReader { input, limit }
    }

    /// The next line; `None` at the end of input or on a read error (the
    /// input is then gone: there is nothing more to read).
    pub fn next_line(&mut self) -> Option<RawLine> {
        let mut line = RawLine {
            bytes: Vec::new(),
            too_long: false,
            limit: self.limit,
        };
        let mut read_any = false;
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => {
                    log::warn!("cannot read input: {e}");
                    return None;
                }
            };
            if chunk.is_empty() {
                return read_any.then(|| finish(line));
            }
            read_any = true;
            let (take, end) = match chunk.iter().position(|&b| b == b'\n') {
                Some(at) => (at, true),
                None => (chunk.len(), false),
            };
            let room = self.limit.saturating_sub(line.bytes.len());
            if take > room {
                line.too_long = true;
            }
            line.bytes.extend_from_slice(&chunk[..take.min(room)]);
            self.input.consume(take + usize::from(end));
            if end {
                return Some(finish(line));
            }
        }
    }
}

fn finish(mut line: RawLine) -> RawLine {
    if line.bytes.last() == Some(&b'\r') && !line.too_long {
        line.bytes.pop();
    }
    line
}

impl<R: BufRead> Iterator for LineReader<R> {
    type Item = RawLine;

    fn next(&mut self) -> Option<RawLine> {
        self.next_line()
    }
}

/// The lines of a whole file's bytes, numbered from 1, each as text or
/// with the reason it is not.
pub fn numbered(bytes: &[u8]) -> impl Iterator<Item = (usize, Result<&str, LineError>)> {
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let lines = (!bytes.is_empty()).then(|| body.split(|&b| b == b'\n'));
    lines.into_iter().flatten().enumerate().map(|(k, line)| {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        (k + 1, utf8(line))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(input: &[u8], limit: usize) -> Vec<RawLine> {
        LineReader::new(input, limit).collect()
    }

    #[test]
    fn lines_are_read_one_by_one() {
        let lines = read_all(b"one\r\n\xff\xfe\nthree", 100);
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0].text(), Ok("one"));
        assert_eq!(lines[1].text(), Err(LineError::NotUtf8(0)));
        assert_eq!(lines[2].text(), Ok("three"));
        assert!(read_all(b"", 100).is_empty());
        assert_eq!(read_all(b"\n", 100)[0].text(), Ok(""));
    }

    #[test]
    fn long_lines_are_cut_and_reported() {
        let mut input = vec![b'x'; 10_000];
        input.extend_from_slice(b"\nnext\n");
        // A small buffer, so the long line arrives in many chunks.
        let reader = std::io::BufReader::with_capacity(7, &input[..]);
        let lines: Vec<RawLine> = LineReader::new(reader, 100).collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].text(), Err(LineError::TooLong(100)));
        assert_eq!(lines[0].bytes.len(), 100);
        assert_eq!(lines[1].text(), Ok("next"));
    }

    #[test]
    fn file_lines_are_numbered() {
        let lines: Vec<_> = numbered(b"a\r\nb\xff\n\nc").collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0], (1, Ok("a")));
        assert_eq!(lines[1], (2, Err(LineError::NotUtf8(1))));
        assert_eq!(lines[2], (3, Ok("")));
        assert_eq!(lines[3], (4, Ok("c")));
        assert_eq!(numbered(b"").count(), 0);
        assert_eq!(numbered(b"x\n").count(), 1);
    }
}
