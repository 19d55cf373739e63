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
pub use state::Session;

use super::analyze::Format;
use super::board;
use super::io::{Command, Reader};
use reply::{Ctx, Out, Reply, arity, err, ok};

type Handler = fn(&mut Session, &[String], &mut Ctx) -> Reply;

/// Every command, in the order `list_commands` gives them.
const COMMANDS: &[(&str, Handler)] = &[
    ("protocol_version", |_, a, _| arity(a, 0, || ok("2"))),
    ("name", |_, a, _| arity(a, 0, || ok("oddity"))),
    ("version", |s, a, _| arity(a, 0, || ok(s.version()))),
    ("known_command", Session::known_command),
    ("list_commands", Session::list_commands),
    ("quit", Session::quit),
    ("boardsize", Session::boardsize),
    ("clear_board", Session::clear_board),
    ("komi", Session::komi),
    ("play", Session::play),
    ("genmove", Session::genmove),
    ("reg_genmove", Session::reg_genmove),
    ("undo", Session::undo),
    ("showboard", |s, a, _| {
        arity(a, 0, || ok(board::draw(s.record())))
    }),
    ("final_score", Session::final_score),
    ("time_settings", Session::time_settings),
    ("time_left", Session::time_left),
    ("kgs-time_settings", Session::kgs_time_settings),
    ("loadsgf", Session::loadsgf),
    ("printsgf", Session::printsgf),
    ("oddity-game", Session::choose_game),
    ("oddity-rules", Session::rules),
    ("oddity-set_position", Session::set_position),
    ("oddity-param", Session::param),
    ("oddity-legal_moves", Session::legal_moves),
    ("oddity-result", Session::result),
    ("oddity-heatmap", Session::heatmap),
    ("oddity-solve", Session::solve),
    ("gomill-describe_engine", Session::describe),
    ("lz-analyze", |s, a, c| s.analyze(a, c, Format::Lz)),
    ("kata-analyze", |s, a, c| s.analyze(a, c, Format::Kata)),
    ("analyze", |s, a, c| s.analyze(a, c, Format::Kata)),
    ("genmove_analyze", |s, a, c| {
        s.genmove_analyze(a, c, Format::Kata)
    }),
    ("lz-genmove_analyze", |s, a, c| {
        s.genmove_analyze(a, c, Format::Lz)
    }),
    ("kata-genmove_analyze", |s, a, c| {
        s.genmove_analyze(a, c, Format::Kata)
    }),
    ("stop", |_, _, _| ok("")),
    ("gogui-analyze_commands", Session::analyze_commands),
    ("gogui-interrupt", |_, a, _| arity(a, 0, || ok(""))),
    ("gogui-rules_game_id", Session::rules_game_id),
    ("gogui-rules_board_size", Session::rules_board_size),
    ("gogui-rules_board", Session::rules_board),
    ("gogui-rules_legal_moves", Session::rules_legal_moves),
    ("gogui-rules_side_to_move", Session::rules_side_to_move),
    ("gogui-rules_final_result", Session::rules_final_result),
    ("gogui-rules_captured_count", Session::rules_captured_count),
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

impl Session {
    /// The commands this session offers, in `list_commands` order.
    fn offered(&self) -> impl Iterator<Item = &'static str> + '_ {
        command_names().filter(move |n| self.mode().is_on() || !is_ruler_command(n))
    }

    /// Runs one command and writes its response.
    pub fn execute(&mut self, cmd: &Command, out: &mut Out, reader: &Reader) {
        let id = cmd.id.as_deref();
        let handler = COMMANDS
            .iter()
            .find(|(n, _)| *n == cmd.name && (self.mode().is_on() || !is_ruler_command(n)))
            .map(|(_, h)| *h);
        let reply = match handler {
            None => err("unknown command"),
            Some(h) => {
                let mut ctx = Ctx { id, out, reader };
                h(self, &cmd.args, &mut ctx)
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

    fn known_command(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        arity(args, 1, || {
            ok(if self.offered().any(|n| n == args[0]) {
                "true"
            } else {
                "false"
            })
        })
    }

    fn list_commands(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        arity(args, 0, || {
            ok(self.offered().collect::<Vec<_>>().join("\n"))
        })
    }

    fn quit(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        arity(args, 0, || {
            self.request_quit();
            ok("")
        })
    }
}
