//! The GTP engine: GTP version 2 on stdin/stdout with this engine's
//! extensions. `protocol.md` at the top of the repository is the
//! specification; this module follows it.
//!
//! - [`io`]: reading lines (as bytes, on a thread of their own), preprocessing,
//!   writing responses;
//! - [`session`]: the session state and the command table;
//! - [`board`]: `showboard` diagrams;
//! - [`analyze`]: analysis output for GUIs;
//! - [`gogui`]: GoGui mode's grids and vertex names;
//! - [`clock`]: clock settings and thinking time;
//! - [`think`]: the search as the protocol sees it;
//! - [`values`]: engine parameters read from text into their types.

pub mod analyze;
pub mod board;
pub mod clock;
pub mod gogui;
pub mod io;
pub mod session;
pub mod think;
pub mod values;

pub use session::GtpSession;
pub use think::Params;

use std::panic::{AssertUnwindSafe, catch_unwind};

use io::{Input, Output, Reader, preprocess};

/// Runs a session on `input` and `output` until `quit` or the end of input.
/// Returns the process exit status (0).
pub fn run<R, W>(mut session: GtpSession, input: R, output: W) -> i32
where
    R: std::io::Read + Send + 'static,
    W: std::io::Write + 'static,
{
    let mut reader = Reader::spawn(input);
    let mut out = Output::new(Box::new(output) as Box<dyn std::io::Write>);
    loop {
        session.ponder(&reader);
        let raw = match reader.next_input() {
            Input::Eof => break,
            Input::Line(raw) => raw,
            Input::TooLong(start) => {
                let id = preprocess(&start).and_then(|c| c.id);
                out.respond(false, id.as_deref(), "command line too long");
                continue;
            }
        };
        let Some(cmd) = preprocess(&raw) else {
            continue;
        };
        let result = catch_unwind(AssertUnwindSafe(|| {
            session::execute(&mut session, &cmd, &mut out, &reader)
        }));
        if result.is_err() {
            log::error!("command '{}' failed with an internal error", cmd.name);
            out.respond(false, cmd.id.as_deref(), "internal error");
            session.recover();
        }
        if session.quit_requested() || out.broken {
            break;
        }
    }
    0
}

/// Runs on the process's stdin and stdout.
pub fn run_stdio(session: GtpSession) -> i32 {
    run(session, std::io::stdin(), std::io::stdout())
}
