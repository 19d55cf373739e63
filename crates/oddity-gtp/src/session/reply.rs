//! What a handler gets (the command's id, the output, the reader) and
//! what it answers, with the small helpers every handler uses.

use crate::io::{Output, Reader};
use oddity_rules::Colour;

pub(super) type Out = Output<Box<dyn std::io::Write>>;

/// What a handler answers.
pub enum Reply {
    Ok(String),
    Err(String),
    /// The handler has written the whole response itself (streams).
    Done,
}

pub(super) fn ok(s: impl Into<String>) -> Reply {
    Reply::Ok(s.into())
}

pub(super) fn err(s: impl Into<String>) -> Reply {
    Reply::Err(s.into())
}

pub(super) fn syntax() -> Reply {
    err("syntax error")
}

/// The environment of one command: its id, the output and the reader.
pub struct Ctx<'a> {
    pub id: Option<&'a str>,
    pub out: &'a mut Out,
    pub reader: &'a Reader,
}

pub(super) fn arity(args: &[String], n: usize, f: impl FnOnce() -> Reply) -> Reply {
    if args.len() == n { f() } else { syntax() }
}

pub(super) fn parse_seat(text: &str) -> Option<Colour> {
    Colour::parse(text)
}

pub(super) fn on_off(b: bool) -> &'static str {
    if b { "on" } else { "off" }
}
