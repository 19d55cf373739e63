//! The session: game, rules for the next game, record, engine parameters and
//! clock, and the command table with a handler per command. The handlers
//! live by concern: [`play`], [`records`], [`analysis`], [`params`], and
//! GoGui's [`ruler`]; here are the table, the session's state, and the
//! commands that start games and set rules.

mod analysis;
mod entry;
mod params;
mod play;
mod records;
mod ruler;

pub use params::{ParamError, set_param};

use std::panic::catch_unwind;

use super::analyze::Format;
use super::board;
use super::clock::Clock;
use super::gogui::Grid;
use super::io::{Command, Output, Reader, StopOn};
use super::think::{Limits, Params, StopFlag, Thinker};
use crate::rules::game::{GameSpec, RuleError, Rules};
use crate::rules::kind::GameKind;
use crate::rules::moves::Colour;
use crate::rules::position::AnyGame;
use crate::rules::record::GameRecord;

type Out = Output<Box<dyn std::io::Write>>;

/// What a handler answers.
pub enum Reply {
    Ok(String),
    Err(String),
    /// The handler has written the whole response itself (streams).
    Done,
}

fn ok(s: impl Into<String>) -> Reply {
    Reply::Ok(s.into())
}

fn err(s: impl Into<String>) -> Reply {
    Reply::Err(s.into())
}

fn syntax() -> Reply {
    err("syntax error")
}

/// The environment of one command: its id, the output and the reader.
pub struct Ctx<'a> {
    pub id: Option<&'a str>,
    pub out: &'a mut Out,
    pub reader: &'a Reader,
}

type Handler = fn(&mut Session, &[String], &mut Ctx) -> Reply;

/// Every command, in the order `list_commands` gives them.
const COMMANDS: &[(&str, Handler)] = &[
    ("protocol_version", |_, a, _| arity(a, 0, || ok("2"))),
    ("name", |_, a, _| arity(a, 0, || ok("oddity"))),
    ("version", |_, a, _| {
        arity(a, 0, || ok(env!("CARGO_PKG_VERSION")))
    }),
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
        arity(a, 0, || ok(board::draw(&s.record)))
    }),
    ("final_score", Session::final_score),
    ("time_settings", Session::time_settings),
    ("time_left", Session::time_left),
    ("kgs-time_settings", Session::kgs_time_settings),
    ("loadsgf", Session::loadsgf),
    ("printsgf", Session::printsgf),
    ("oddity-game", Session::game),
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

fn arity(args: &[String], n: usize, f: impl FnOnce() -> Reply) -> Reply {
    if args.len() == n { f() } else { syntax() }
}

fn parse_seat(text: &str) -> Option<Colour> {
    Colour::parse(text)
}

fn on_off(b: bool) -> &'static str {
    if b { "on" } else { "off" }
}

/// A game this build cannot play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0} is not available")]
pub struct Unavailable(pub GameKind);

/// Builds a start position; `Err` when this build cannot play that game.
fn make_game(spec: &GameSpec) -> Result<AnyGame, Unavailable> {
    catch_unwind(|| AnyGame::new(spec)).map_err(|_| Unavailable(spec.kind))
}

pub struct Session {
    /// The game being played.
    record: GameRecord,
    /// Rules for the next game (`oddity-rules`); the game and size come from
    /// the current game unless `boardsize` / `oddity-game` change them.
    next_rules: Rules,
    params: Params,
    thinker: Thinker,
    clock: Clock,
    /// GoGui mode (`--gogui`): ruler commands, GoGui's grid and vertex names,
    /// and one stone per `play` in Odd, Xodd and Yodd.
    gogui: bool,
    /// GoGui mode, Odd/Xodd/Yodd: the turn being entered one stone at a
    /// time.
    entry: entry::Entry,
    /// GoGui mode: every first stone that a second may follow waits for it
    /// (`--gogui-wait`), not only those that cannot end the turn alone.
    wait_always: bool,
    quit: bool,
    stop: StopFlag,
}

impl Session {
    pub fn new(spec: GameSpec, params: Params) -> Result<Session, Unavailable> {
        let start = make_game(&spec)?;
        Ok(Session {
            record: GameRecord::new(start),
            next_rules: spec.rules,
            thinker: Thinker::new(&params),
            params,
            clock: Clock::none(),
            gogui: false,
            entry: Default::default(),
            wait_always: false,
            quit: false,
            stop: StopFlag::new(),
        })
    }

    /// Turns GoGui mode on or off; the command list depends on it, so it is
    /// chosen before the session starts.
    pub fn with_gogui(mut self, on: bool) -> Session {
        self.gogui = on;
        self
    }

    /// `--gogui-wait`: see [`entry`].
    pub fn with_gogui_wait(mut self, on: bool) -> Session {
        self.wait_always = on;
        self
    }

    /// The commands this session offers, in `list_commands` order.
    fn offered(&self) -> impl Iterator<Item = &'static str> + '_ {
        command_names().filter(move |n| self.gogui || !is_ruler_command(n))
    }

    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    pub fn record(&self) -> &GameRecord {
        &self.record
    }

    fn spec(&self) -> GameSpec {
        *self.record.position().spec()
    }

    fn pos(&self) -> &AnyGame {
        self.record.position()
    }

    /// After an internal error: drop half-done state.
    pub fn recover(&mut self) {
        self.entry = Default::default();
        self.thinker.clear();
    }

    /// Runs one command and writes its response.
    pub fn execute(&mut self, cmd: &Command, out: &mut Out, reader: &Reader) {
        let id = cmd.id.as_deref();
        let handler = COMMANDS
            .iter()
            .find(|(n, _)| *n == cmd.name && (self.gogui || !is_ruler_command(n)))
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

    /// Thinks on the opponent's time until a line arrives, when pondering
    /// is on.
    pub fn ponder(&mut self, reader: &Reader) {
        if !self.params.ponder || self.record.is_over() || reader.line_waiting() || reader.at_eof()
        {
            return;
        }
        reader.watch(&self.stop, StopOn::AnyLine);
        let limits = Limits::default();
        self.thinker.think(&self.record, &limits, &self.stop, None);
        reader.unwatch();
    }

    /// Starts a new game of `spec`.
    fn new_game(&mut self, spec: GameSpec) -> Result<(), Unavailable> {
        let start = make_game(&spec)?;
        self.record = GameRecord::new(start);
        self.entry = Default::default();
        self.thinker.clear();
        self.clock.left = [None, None];
        Ok(())
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
            self.quit = true;
            ok("")
        })
    }

    fn boardsize(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        let [size] = args else { return syntax() };
        let Ok(mut size) = size.parse::<usize>() else {
            return syntax();
        };
        if self.gogui {
            // GoGui gives the side of the grid it draws.
            match Grid::size_for_side(self.pos().topology().kind, size) {
                Some(n) => size = n,
                None => return err("unacceptable size"),
            }
        }
        let Ok(spec) = GameSpec::new(self.spec().kind, size, self.next_rules) else {
            return err("unacceptable size");
        };
        match self.new_game(spec) {
            Ok(()) => ok(""),
            Err(_) => err("unacceptable size"),
        }
    }

    fn clear_board(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        if !args.is_empty() {
            return syntax();
        }
        let spec = self.spec();
        let spec = match GameSpec::new(spec.kind, spec.size, self.next_rules) {
            Ok(s) => s,
            Err(e) => return err(e.to_string()),
        };
        match self.new_game(spec) {
            Ok(()) => ok(""),
            Err(e) => err(e.to_string()),
        }
    }

    fn komi(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        let [k] = args else { return syntax() };
        match k.parse::<f64>() {
            Ok(_) => ok(""),
            Err(_) => syntax(),
        }
    }

    fn game(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        let (kind, size) = match args {
            [] => return ok(format!("{} {}", self.spec().kind, self.spec().size)),
            [k] => (k, None),
            [k, s] => match s.parse::<usize>() {
                Ok(s) => (k, Some(s)),
                Err(_) => return syntax(),
            },
            _ => return syntax(),
        };
        let Some(kind) = GameKind::parse(kind) else {
            return syntax();
        };
        let Ok(spec) = GameSpec::new(kind, size.unwrap_or(kind.default_size()), self.next_rules)
        else {
            return err("unacceptable size");
        };
        match self.new_game(spec) {
            Ok(()) => ok(""),
            Err(e) => err(e.to_string()),
        }
    }

    fn rules_list(&self) -> String {
        let r = &self.next_rules;
        format!(
            "min_group {} (odd: smallest group that counts; a number or 'default' = the board side)\n\
             start {} (onyx: standard|open)\n\
             swap {} (onyx: on|off)",
            r.min_group.map_or("default".to_string(), |m| m.to_string()),
            if r.open_start { "open" } else { "standard" },
            on_off(r.swap)
        )
    }

    fn rules(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        let [name, value] = args else {
            return if args.is_empty() {
                ok(self.rules_list())
            } else {
                syntax()
            };
        };
        match self.next_rules.set(name, value) {
            Ok(()) => ok(""),
            Err(RuleError::UnknownRule) => err("unknown rule"),
            Err(RuleError::BadValue) => syntax(),
        }
    }
}
