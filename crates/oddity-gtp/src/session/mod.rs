//! The session: one game of the protocol and the command table with a
//! handler per command. This is the table and the commands about commands;
//! the session is in `state`, made of parts with their own files (`game`,
//! `engine`, `mode`, and the crate's clock); what handlers get and answer
//! is in `reply`, and the handlers live by concern: `setup` (games and
//! rules), `play`, `records`, `analysis`, `params`, and GoGui's `ruler`.

mod analysis;
mod engine;
mod entry;
mod game;
mod mode;
mod params;
mod play;
mod records;
mod reply;
mod ruler;
mod setup;
mod state;

pub use engine::{ParamError, set_param};
pub use game::Unavailable;
pub use state::GtpSession;

use super::analyze::Format;
use super::board;
use super::io::{Command, Reader};
use reply::{Ctx, Out, Reply, arity, err, ok};

type Handler = fn(&mut GtpSession, &[String], &mut Ctx) -> Reply;

/// Every command, in the order `list_commands` gives them.
const COMMANDS: &[(&str, Handler)] = &[
    ("protocol_version", |_, a, _| arity(a, 0, || ok("2"))),
    ("name", |_, a, _| arity(a, 0, || ok("oddity"))),
    ("version", |s, a, _| arity(a, 0, || ok(s.version()))),
    ("known_command", known_command),
    ("list_commands", list_commands),
    ("quit", quit),
    ("boardsize", setup::boardsize),
    ("clear_board", setup::clear_board),
    ("komi", setup::komi),
    ("play", play::play),
    ("genmove", play::genmove),
    ("reg_genmove", play::reg_genmove),
    ("undo", play::undo),
    ("showboard", |s, a, _| {
        arity(a, 0, || ok(board::draw(s.record())))
    }),
    ("final_score", records::final_score),
    ("time_settings", play::time_settings),
    ("time_left", play::time_left),
    ("kgs-time_settings", play::kgs_time_settings),
    ("loadsgf", records::loadsgf),
    ("printsgf", records::printsgf),
    ("oddity-game", setup::choose_game),
    ("oddity-rules", setup::rules),
    ("oddity-set_position", records::set_position),
    ("oddity-param", params::param),
    ("oddity-legal_moves", records::legal_moves),
    ("oddity-result", records::result),
    ("oddity-heatmap", analysis::heatmap),
    ("oddity-solve", analysis::solve),
    ("gomill-describe_engine", params::describe),
    ("lz-analyze", |s, a, c| {
        analysis::analyze(s, a, c, Format::Lz)
    }),
    ("kata-analyze", |s, a, c| {
        analysis::analyze(s, a, c, Format::Kata)
    }),
    ("analyze", |s, a, c| {
        analysis::analyze(s, a, c, Format::Kata)
    }),
    ("genmove_analyze", |s, a, c| {
        analysis::genmove_analyze(s, a, c, Format::Kata)
    }),
    ("lz-genmove_analyze", |s, a, c| {
        analysis::genmove_analyze(s, a, c, Format::Lz)
    }),
    ("kata-genmove_analyze", |s, a, c| {
        analysis::genmove_analyze(s, a, c, Format::Kata)
    }),
    ("stop", |_, _, _| ok("")),
    ("gogui-analyze_commands", ruler::analyze_commands),
    ("gogui-interrupt", |_, a, _| arity(a, 0, || ok(""))),
    ("gogui-rules_game_id", ruler::rules_game_id),
    ("gogui-rules_board_size", ruler::rules_board_size),
    ("gogui-rules_board", ruler::rules_board),
    ("gogui-rules_legal_moves", ruler::rules_legal_moves),
    ("gogui-rules_side_to_move", ruler::rules_side_to_move),
    ("gogui-rules_final_result", ruler::rules_final_result),
    ("gogui-rules_captured_count", ruler::rules_captured_count),
];

/// The names of all commands.
pub fn command_names() -> impl Iterator<Item = &'static str> {
    COMMANDS.iter().map(|(n, _)| *n)
}

/// GoGui's ruler commands: offered in GoGui mode only, where all of them
/// answer and agree with the grid GoGui draws.
fn is_ruler_command(name: &str) -> bool {
    name.starts_with("gogui-rules_")
}

/// The commands this session offers, in `list_commands` order.
fn offered(session: &GtpSession) -> impl Iterator<Item = &'static str> + '_ {
    command_names().filter(move |n| session.mode().is_on() || !is_ruler_command(n))
}

/// Runs one command and writes its response.
pub fn execute(session: &mut GtpSession, cmd: &Command, out: &mut Out, reader: &Reader) {
    let id = cmd.id.as_deref();
    let handler = COMMANDS
        .iter()
        .find(|(n, _)| *n == cmd.name && (session.mode().is_on() || !is_ruler_command(n)))
        .map(|(_, h)| *h);
    let reply = match handler {
        None => err("unknown command"),
        Some(h) => {
            let mut ctx = Ctx { id, out, reader };
            h(session, &cmd.args, &mut ctx)
        }
    };
    match reply {
        Reply::Ok(text) => out.respond(true, id, &text),
        Reply::Err(text) => {
            log::info!("{} {:?}: {text}", cmd.name, cmd.args);
            out.respond(false, id, &text)
        }
        Reply::Done => {}
    }
}

fn known_command(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    arity(args, 1, || {
        ok(if offered(session).any(|n| n == args[0]) {
            "true"
        } else {
            "false"
        })
    })
}

fn list_commands(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    arity(args, 0, || {
        ok(offered(session).collect::<Vec<_>>().join("\n"))
    })
}

fn quit(session: &mut GtpSession, args: &[String], _: &mut Ctx) -> Reply {
    arity(args, 0, || {
        session.request_quit();
        ok("")
    })
}
