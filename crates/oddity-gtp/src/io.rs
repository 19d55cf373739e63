//! Framing: reading command lines as bytes on a thread of their own,
//! GTP preprocessing, and writing responses.
//!
//! The reader thread forwards every line over a channel and, when a search is
//! running, stops it: any line stops an analysis stream or a ponder search,
//! and a `# interrupt` line (GoGui) stops a `genmove`. The end of input
//! stops only what no later line could have stopped (analysis streams,
//! pondering, a search without limits): every command read before it is
//! answered as if input had stayed open, and then the session ends.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};

use super::think::StopFlag;
use oddity_lines::LineReader;
use oddity_rules::internals::escaped;

/// The longest command line; a longer one is answered with an error.
pub const LINE_LIMIT: usize = 16 << 20;

/// One raw input line (without its LF), or the end of input.
pub enum Input {
    Line(Vec<u8>),
    /// A line longer than [`LINE_LIMIT`]: its first bytes.
    TooLong(Vec<u8>),
    Eof,
}

/// What stops the search that is running.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StopOn {
    /// Any input line, or the end of input (analysis streams, pondering).
    AnyLine,
    /// Only `# interrupt` (a `genmove` within its limits).
    Interrupt,
    /// `# interrupt` or the end of input (a `genmove` without limits,
    /// which nothing else would end).
    InterruptOrEof,
}

impl StopOn {
    fn on_eof(self) -> bool {
        self != StopOn::Interrupt
    }
}

#[derive(Default)]
struct Shared {
    received: AtomicU64,
    /// `received` when the last `# interrupt` came (0: none yet): it is
    /// meant for the command read just before it.
    interrupt_after: AtomicU64,
    eof: AtomicBool,
    watch: Mutex<Option<(StopFlag, StopOn)>>,
}

/// The main thread's end of the reader.
pub struct Reader {
    rx: Receiver<Input>,
    shared: Arc<Shared>,
    consumed: u64,
    done: bool,
}

/// A GoGui interrupt line: a comment that asks a running `genmove` to stop.
fn is_interrupt(raw: &[u8]) -> bool {
    let text = String::from_utf8_lossy(raw);
    let t = text.trim();
    t.starts_with('#') && t[1..].trim_start().starts_with("interrupt")
}

impl Reader {
    /// Starts the reader thread on `input`.
    pub fn spawn<R: std::io::Read + Send + 'static>(input: R) -> Reader {
        let (tx, rx) = channel();
        let shared = Arc::new(Shared::default());
        let s = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("gtp-reader".into())
            .spawn(move || {
                let input = std::io::BufReader::new(input);
                for line in LineReader::new(input, LINE_LIMIT) {
                    let interrupt = !line.too_long && is_interrupt(&line.bytes);
                    if interrupt {
                        let n = s.received.load(Ordering::SeqCst);
                        s.interrupt_after.store(n, Ordering::SeqCst);
                    } else {
                        s.received.fetch_add(1, Ordering::SeqCst);
                    }
                    if let Ok(watch) = s.watch.lock()
                        && let Some((flag, on)) = watch.as_ref()
                        && (interrupt || *on == StopOn::AnyLine)
                    {
                        flag.stop();
                    }
                    if interrupt {
                        continue;
                    }
                    let input = if line.too_long {
                        Input::TooLong(line.bytes)
                    } else {
                        Input::Line(line.bytes)
                    };
                    if tx.send(input).is_err() {
                        return;
                    }
                }
                s.eof.store(true, Ordering::SeqCst);
                if let Ok(watch) = s.watch.lock()
                    && let Some((flag, on)) = watch.as_ref()
                    && on.on_eof()
                {
                    flag.stop();
                }
                let _ = tx.send(Input::Eof);
            })
            .expect("spawning the input thread");
        Reader {
            rx,
            shared,
            consumed: 0,
            done: false,
        }
    }

    /// The next line, waiting for it.
    pub fn next_input(&mut self) -> Input {
        if self.done {
            return Input::Eof;
        }
        match self.rx.recv() {
            Ok(Input::Eof) | Err(_) => {
                self.done = true;
                Input::Eof
            }
            Ok(line) => {
                self.consumed += 1;
                line
            }
        }
    }

    /// Whether input has ended (the remaining lines may still be queued).
    pub fn at_eof(&self) -> bool {
        self.shared.eof.load(Ordering::SeqCst)
    }

    /// Whether a line is waiting to be read.
    pub fn line_waiting(&self) -> bool {
        self.shared.received.load(Ordering::SeqCst) > self.consumed
    }

    /// Arms `flag` to be stopped by the reader as `on` says, and stops it at
    /// once when that has already happened.
    pub fn watch(&self, flag: &StopFlag, on: StopOn) {
        flag.reset();
        if let Ok(mut w) = self.shared.watch.lock() {
            *w = Some((flag.clone(), on));
        }
        let interrupted = self.consumed > 0
            && self.shared.interrupt_after.load(Ordering::SeqCst) == self.consumed;
        let ended = self.at_eof() && on.on_eof();
        if ended || interrupted || (on == StopOn::AnyLine && self.line_waiting()) {
            flag.stop();
        }
    }

    /// Disarms the flag set by [`Self::watch`].
    pub fn unwatch(&self) {
        if let Ok(mut w) = self.shared.watch.lock() {
            *w = None;
        }
    }
}

/// A preprocessed command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    pub id: Option<String>,
    pub name: String,
    pub args: Vec<String>,
}

/// GTP preprocessing of one raw line: invalid UTF-8 is replaced, control
/// characters other than HT are dropped (so CR goes), a `#` starts a comment,
/// HT becomes a space. `None` for a line that is then empty.
pub fn preprocess(raw: &[u8]) -> Option<Command> {
    let text = String::from_utf8_lossy(raw);
    let mut clean = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '#' {
            break;
        }
        if c == '\t' {
            clean.push(' ');
        } else if !c.is_control() {
            clean.push(c);
        }
    }
    let mut words = clean.split(' ').filter(|w| !w.is_empty());
    let first = words.next()?;
    let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
        (
            Some(first.to_string()),
            words.next().unwrap_or("").to_string(),
        )
    } else {
        (None, first.to_string())
    };
    Some(Command {
        id,
        name,
        args: words.map(str::to_string).collect(),
    })
}

/// Response writer on stdout. A write error (the controller went away) is
/// remembered; the session then ends.
pub struct Output<W: Write> {
    out: W,
    pub broken: bool,
}

impl<W: Write> Output<W> {
    pub fn new(out: W) -> Self {
        Output { out, broken: false }
    }

    fn raw(&mut self, text: &str) {
        if self.broken {
            return;
        }
        if self.out.write_all(text.as_bytes()).is_err() || self.out.flush().is_err() {
            self.broken = true;
        }
    }

    /// A complete response: `=id result` or `?id message`, then a blank line.
    /// Empty lines inside a result are dropped: they would end it early. A
    /// message is one line: whatever of the input it quotes has its
    /// control characters written as escapes.
    pub fn respond(&mut self, ok: bool, id: Option<&str>, text: &str) {
        let mut s = String::with_capacity(text.len() + 8);
        s.push(if ok { '=' } else { '?' });
        s.push_str(id.unwrap_or(""));
        s.push(' ');
        if !ok {
            s.push_str(&escaped(text.trim()));
            s.push_str("\n\n");
            self.raw(&s);
            return;
        }
        let body: Vec<&str> = text
            .lines()
            .map(|l| l.trim_end())
            .filter(|l| !l.is_empty())
            .collect();
        s.push_str(&body.join("\n"));
        s.push_str("\n\n");
        self.raw(&s);
    }

    /// Starts a streamed response (`=id` and a newline).
    pub fn stream_start(&mut self, id: Option<&str>) {
        self.raw(&format!("={}\n", id.unwrap_or("")));
    }

    /// One line of a streamed response (must not be empty).
    pub fn stream_line(&mut self, line: &str) {
        if !line.trim().is_empty() {
            self.raw(&format!("{}\n", line.trim_end()));
        }
    }

    /// Ends a streamed response with the blank line.
    pub fn stream_end(&mut self) {
        self.raw("\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preprocessing() {
        assert_eq!(preprocess(b""), None);
        assert_eq!(preprocess(b"  \t \r"), None);
        assert_eq!(preprocess(b"# just a comment"), None);
        let c = preprocess(b"12\tplay  b B:C3 # comment\r").unwrap();
        assert_eq!(c.id.as_deref(), Some("12"));
        assert_eq!(c.name, "play");
        assert_eq!(c.args, vec!["b", "B:C3"]);
        let c = preprocess(b"na\x00me\x01 x\xff").unwrap();
        assert_eq!(c.name, "name");
        assert_eq!(c.args, vec!["x\u{fffd}"]);
        let c = preprocess(b"7").unwrap();
        assert_eq!((c.id.as_deref(), c.name.as_str()), (Some("7"), ""));
    }

    #[test]
    fn responses() {
        let mut out = Output::new(Vec::new());
        out.respond(true, Some("3"), "");
        out.respond(false, None, "unknown command");
        out.respond(true, None, "a\n\nb\n");
        assert_eq!(
            String::from_utf8(out.out).unwrap(),
            "=3 \n\n? unknown command\n\n= a\nb\n\n"
        );
    }

    #[test]
    fn interrupt_lines() {
        assert!(is_interrupt(b"# interrupt"));
        assert!(is_interrupt(b"#interrupt\r"));
        assert!(!is_interrupt(b"play b a1 # interrupt"));
    }
}
