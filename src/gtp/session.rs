//! The session: game, rules for the next game, record, engine parameters and
//! clock, and the command table with a handler per command.

use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use super::analyze::{self, Format};
use super::board;
use super::clock::Clock;
use super::gogui::Grid;
use super::io::{Command, Output, Reader, StopOn};
use super::think::{Limits, Params, Report, StopFlag, Thinker};
use crate::rules::game::{Game, GameSpec, RuleError, Rules};
use crate::rules::kind::GameKind;
use crate::rules::moves::{Action, Colour, Stone, TokenErrorKind, Turn};
use crate::rules::position::AnyGame;
use crate::rules::record::GameRecord;
use crate::rules::sgf;
use crate::search::tuning;
use crate::solver::{SolveLimits, Value};

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

fn parse_bool(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "on" | "true" | "1" | "yes" => Some(true),
        "off" | "false" | "0" | "no" => Some(false),
        _ => None,
    }
}

fn on_off(b: bool) -> &'static str {
    if b { "on" } else { "off" }
}

/// Builds a start position; `Err` when this build cannot play that game.
fn make_game(spec: &GameSpec) -> Result<AnyGame, String> {
    catch_unwind(|| AnyGame::new(spec)).map_err(|_| format!("{} is not available", spec.kind))
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
    /// GoGui mode: the first stone of an Xodd/Yodd turn, not yet played.
    half_turn: Option<(Colour, Stone)>,
    quit: bool,
    stop: StopFlag,
}

impl Session {
    pub fn new(spec: GameSpec, params: Params) -> Result<Session, String> {
        let start = make_game(&spec)?;
        Ok(Session {
            record: GameRecord::new(start),
            next_rules: spec.rules,
            thinker: Thinker::new(&params),
            params,
            clock: Clock::none(),
            gogui: false,
            half_turn: None,
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
        self.half_turn = None;
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
    fn new_game(&mut self, spec: GameSpec) -> Result<(), String> {
        let start = make_game(&spec)?;
        self.record = GameRecord::new(start);
        self.half_turn = None;
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
            Err(e) => err(e),
        }
    }

    fn komi(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        let [k] = args else { return syntax() };
        match k.parse::<f64>() {
            Ok(_) => ok(""),
            Err(_) => syntax(),
        }
    }

    fn play(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        let [seat, token] = args else {
            return syntax();
        };
        let Some(seat) = parse_seat(seat) else {
            return syntax();
        };
        if self.gogui {
            return match self.spec().kind {
                GameKind::Onyx => self.play_gogui_onyx(seat, token),
                _ => self.play_one_stone(seat, token),
            };
        }
        let pos = self.pos();
        let turn = match Turn::parse(token, pos.kind(), pos.topology(), seat) {
            Ok(t) => t,
            Err(e) => {
                log::info!("{e}");
                return if well_formed_elsewhere(token, pos, seat) {
                    err("illegal move")
                } else {
                    syntax()
                };
            }
        };
        match self.record.play(seat, turn) {
            Ok(()) => ok(""),
            Err(e) => {
                log::info!("{}", e.describe(self.pos().topology()));
                err("illegal move")
            }
        }
    }

    /// GoGui mode, Onyx: `play <seat> <vertex>` with GoGui's grid names; `pass`
    /// is the swap, the one turn GoGui cannot name otherwise.
    fn play_gogui_onyx(&mut self, seat: Colour, token: &str) -> Reply {
        let turn = if token.eq_ignore_ascii_case("pass") {
            Turn::Swap
        } else if token.eq_ignore_ascii_case("resign") {
            Turn::Resign
        } else {
            match Grid::new(self.pos().topology()).parse(token) {
                Some(cell) => Turn::Stones(Stone { cell, colour: seat }, None),
                None => return syntax(),
            }
        };
        match self.record.play(seat, turn) {
            Ok(()) => ok(""),
            Err(e) => {
                log::info!("{}", e.describe(self.pos().topology()));
                err("illegal move")
            }
        }
    }

    /// GoGui mode, Odd/Xodd/Yodd: `play <colour> <point>` puts one stone of that colour
    /// for the seat to move; in Xodd/Yodd a second `play` completes the turn
    /// and `play <colour> pass` ends it after one stone (or passes).
    fn play_one_stone(&mut self, colour: Colour, token: &str) -> Reply {
        let pos = self.pos().clone();
        let topo = pos.topology();
        let mover = pos.to_move();
        if self.record.is_over() {
            return err("illegal move");
        }
        if token.eq_ignore_ascii_case("pass") || token.eq_ignore_ascii_case("resign") {
            let turn = match self.half_turn {
                _ if token.eq_ignore_ascii_case("resign") => Turn::Resign,
                Some((_, s)) => Turn::Stones(s, None),
                None => Turn::Pass,
            };
            // A refused pass keeps a waiting first stone.
            return match self.record.play(mover, turn) {
                Ok(()) => {
                    self.half_turn = None;
                    ok("")
                }
                Err(_) => err("illegal move"),
            };
        }
        let Some(cell) = Grid::new(topo).parse(token) else {
            return syntax();
        };
        let stone = Stone { cell, colour };
        let turn = match self.half_turn {
            None => Turn::Stones(stone, None),
            Some((_, first)) if first.cell == cell => return err("illegal move"),
            Some((_, first)) => Turn::stones(first, Some(stone)),
        };
        let mut trial = pos.clone();
        if trial.play_turn(&turn).is_ok() {
            if self.record.play(mover, turn).is_err() {
                return err("illegal move");
            }
            self.half_turn = None;
            return ok("");
        }
        // A first stone that cannot end the turn may still start one.
        if self.half_turn.is_none() {
            let starts = crate::with_game!(&pos, g => {
                g.is_legal(stone.action()) && {
                    let mut h = g.clone();
                    h.apply(stone.action());
                    h.mid_turn()
                }
            });
            if starts {
                self.half_turn = Some((mover, stone));
                return ok("");
            }
        }
        err("illegal move")
    }

    fn think_limits(&self, seat: Colour) -> Limits {
        let pos = self.pos();
        let cells = pos.topology().cell_count() as u32;
        let (soft_time, time) = match self.clock.budget(seat.index(), pos.turns_played(), cells) {
            Some((soft, hard)) => (Some(soft), Some(hard)),
            None if self.params.time > 0.0 => {
                (None, Some(Duration::from_secs_f64(self.params.time)))
            }
            None => (None, None),
        };
        Limits {
            visits: (self.params.visits > 0).then_some(self.params.visits),
            time,
            soft_time,
        }
    }

    /// The record to search for `seat`: the game itself, or a copy of its
    /// position with `seat` to move.
    fn record_for(&self, seat: Colour) -> GameRecord {
        if self.pos().to_move() == seat {
            self.record.clone()
        } else {
            let mut p = self.pos().clone();
            p.set_to_move(seat);
            GameRecord::new(p)
        }
    }

    /// Searches for `seat`, with progress lines when `progress` is given.
    fn search(
        &mut self,
        seat: Colour,
        limits: Limits,
        ctx: &mut Ctx,
        progress: Option<(Format, Duration)>,
    ) -> Report {
        let record = self.record_for(seat);
        // A search that no limit ends is ended by the end of input too.
        let on = if limits == Limits::default() {
            StopOn::InterruptOrEof
        } else {
            StopOn::Interrupt
        };
        ctx.reader.watch(&self.stop, on);
        let out = &mut *ctx.out;
        let report = match progress {
            Some((format, every)) => {
                let pos = record.position().clone();
                let mut f =
                    |r: &Report| out.stream_line(&analyze::info_line(&pos, r, format, None));
                self.thinker
                    .think(&record, &limits, &self.stop, Some((&mut f, every)))
            }
            None => self.thinker.think(&record, &limits, &self.stop, None),
        };
        ctx.reader.unwatch();
        report
    }

    /// The turn to play from a finished search. With the `resign`
    /// parameter above 0: `resign` when the loss is proven or the win rate
    /// is under it. At 0 the engine never resigns: a proven loss is played
    /// on with the turn the search found hardest to answer.
    fn choose(&self, seat: Colour, report: &Report) -> Option<Turn> {
        let best = report.best?;
        let lost = report.proven == Some(seat.opposite())
            || report
                .candidates
                .first()
                .is_some_and(|c| c.proven == Some(seat.opposite()));
        let hopeless = self.params.resign > 0.0
            && (lost || (report.root_visits >= 100 && report.root_value < self.params.resign));
        Some(if hopeless { Turn::Resign } else { best })
    }

    fn genmove_common(&mut self, args: &[String], ctx: &mut Ctx, commit: bool) -> Reply {
        let [seat] = args else { return syntax() };
        let Some(seat) = parse_seat(seat) else {
            return syntax();
        };
        if self.record.is_over() {
            return err("game is over");
        }
        self.half_turn = None;
        let limits = self.think_limits(seat);
        let report = self.search(seat, limits, ctx, None);
        let Some(turn) = self.choose(seat, &report) else {
            return err("game is over");
        };
        let token = match (self.gogui, self.gogui_vertex(seat, &turn)) {
            (false, _) => self.pos().token(&turn),
            (true, Some(vertex)) => vertex,
            // GoGui would take any other answer for a malformed vertex, and
            // its game would part from the engine's: play nothing.
            (true, None) => {
                return err(format!("{} is not a GoGui move", self.pos().token(&turn)));
            }
        };
        if commit && self.record.play(seat, turn).is_err() {
            return err("internal error");
        }
        ok(token)
    }

    /// A turn as GoGui names it, if it can: one stone of the seat's colour
    /// (every Onyx stone) is its vertex, a pass or the Onyx swap is `pass`.
    /// GoGui has no name for a stone of the other colour or two stones.
    fn gogui_vertex(&self, seat: Colour, turn: &Turn) -> Option<String> {
        match turn {
            Turn::Stones(s, None) if s.colour == seat => {
                Some(Grid::new(self.pos().topology()).name(s.cell))
            }
            Turn::Pass | Turn::Swap => Some("pass".into()),
            Turn::Resign => Some("resign".into()),
            Turn::Stones(..) => None,
        }
    }

    fn genmove(&mut self, args: &[String], ctx: &mut Ctx) -> Reply {
        self.genmove_common(args, ctx, true)
    }

    fn reg_genmove(&mut self, args: &[String], ctx: &mut Ctx) -> Reply {
        self.genmove_common(args, ctx, false)
    }

    fn undo(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        if !args.is_empty() {
            return syntax();
        }
        if self.half_turn.take().is_some() {
            return ok("");
        }
        if self.record.undo() {
            ok("")
        } else {
            err("cannot undo")
        }
    }

    /// `B+3`, `W+`, `B+R`: the result in the form `final_score` gives it.
    fn score_text(&self) -> Option<String> {
        let o = self.record.outcome()?;
        let w = o.winner.letter();
        if o.by_resignation {
            return Some(format!("{w}+R"));
        }
        Some(match self.spec().kind {
            GameKind::Xodd | GameKind::Yodd => {
                let [b, wh] = self.pos().group_counts();
                format!("{w}+{}", b.abs_diff(wh))
            }
            _ => format!("{w}+"),
        })
    }

    fn final_score(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        arity(args, 0, || match self.score_text() {
            Some(s) => ok(s),
            None => err("cannot score"),
        })
    }

    fn time_settings(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        let [main, byo, stones] = args else {
            return syntax();
        };
        let (Ok(main), Ok(byo), Ok(stones)) = (
            main.parse::<f64>(),
            byo.parse::<f64>(),
            stones.parse::<u32>(),
        ) else {
            return syntax();
        };
        if main < 0.0 || byo < 0.0 || !main.is_finite() || !byo.is_finite() {
            return syntax();
        }
        self.clock = Clock::settings(main, byo, stones);
        ok("")
    }

    fn kgs_time_settings(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        let nums: Option<Vec<f64>> = args
            .iter()
            .skip(1)
            .map(|a| a.parse::<f64>().ok().filter(|x| *x >= 0.0 && x.is_finite()))
            .collect();
        let Some(nums) = nums else { return syntax() };
        let clock = match (args.first().map(|s| s.as_str()), nums.as_slice()) {
            (Some("none"), []) => Clock::none(),
            (Some("absolute"), [main]) => Clock::settings(*main, 0.0, 0),
            // Japanese byo-yomi: each period covers one move.
            (Some("byoyomi"), [main, period, _periods]) => Clock::settings(*main, *period, 1),
            (Some("canadian"), [main, byo, stones]) if *stones >= 1.0 => {
                Clock::settings(*main, *byo, *stones as u32)
            }
            _ => return syntax(),
        };
        self.clock = clock;
        ok("")
    }

    fn time_left(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        let [seat, secs, stones] = args else {
            return syntax();
        };
        let (Some(seat), Ok(secs), Ok(stones)) =
            (parse_seat(seat), secs.parse::<f64>(), stones.parse::<u32>())
        else {
            return syntax();
        };
        if !secs.is_finite() {
            return syntax();
        }
        self.clock.left[seat.index()] = Some((secs.max(0.0), stones));
        ok("")
    }

    fn loadsgf(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        let (file, upto) = match args {
            [f] => (f, None),
            [f, n] => match n.parse::<usize>() {
                Ok(n) if n >= 1 => (f, Some(n - 1)),
                _ => return syntax(),
            },
            _ => return syntax(),
        };
        let Ok(bytes) = std::fs::read(file) else {
            return err("cannot load file");
        };
        let text = String::from_utf8_lossy(&bytes);
        let loaded = catch_unwind(AssertUnwindSafe(|| sgf::read(&text)));
        match loaded {
            Ok(Ok(record)) => {
                let record = match upto {
                    Some(k) if k < record.moves().len() => record.truncated(k),
                    _ => record,
                };
                self.next_rules = record.position().spec().rules;
                self.record = record;
                self.half_turn = None;
                self.thinker.clear();
                ok("")
            }
            Ok(Err(e)) => {
                log::info!("loadsgf {file}: {e}");
                err("cannot load file")
            }
            Err(_) => err("cannot load file"),
        }
    }

    fn sgf_text(&self) -> String {
        let info = sgf::RecordInfo {
            result: self.score_text(),
            ..Default::default()
        };
        sgf::write(&self.record, &info)
    }

    fn printsgf(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        match args {
            [] => ok(self.sgf_text().trim_end()),
            [file] => match std::fs::write(file, self.sgf_text()) {
                Ok(()) => ok(""),
                Err(_) => err("cannot save file"),
            },
            _ => syntax(),
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
            Err(e) => err(e),
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

    fn set_position(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        let Some((seat, stones)) = args.split_first() else {
            return syntax();
        };
        let Some(seat) = parse_seat(seat) else {
            return syntax();
        };
        let topo = self.pos().topology();
        let mut list = Vec::new();
        for s in stones {
            let Some((c, name)) = s.split_once(':') else {
                return syntax();
            };
            let (Some(colour), Some(cell)) = (Colour::parse(c), topo.parse_cell(name)) else {
                return syntax();
            };
            list.push(Stone { cell, colour });
        }
        let spec = self.spec();
        match catch_unwind(|| AnyGame::from_setup(&spec, &list, seat)) {
            Ok(Ok(pos)) => {
                self.record = GameRecord::new(pos);
                self.half_turn = None;
                self.thinker.clear();
                ok("")
            }
            Ok(Err(e)) => {
                log::info!("oddity-set_position: {e:?}");
                err("illegal position")
            }
            Err(_) => err("illegal position"),
        }
    }

    fn params_list(&self) -> String {
        let p = &self.params;
        let mut text = format!(
            "threads {}\nvisits {}\ntime {}\nmemory {}\nseed {}\nponder {}\nresign {}\npolicy {}\nexploration {}",
            p.threads,
            p.visits,
            p.time,
            p.memory_mb,
            p.seed,
            on_off(p.ponder),
            p.resign,
            p.policy,
            p.exploration
                .map_or_else(|| "auto".to_string(), |c| c.to_string()),
        );
        for name in tuning::NAMES {
            let value = p.tuning.get(name).unwrap_or_default();
            let _ = write!(text, "\n{name} {value}");
        }
        text
    }

    fn param(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        let [name, value] = args else {
            return if args.is_empty() {
                ok(self.params_list())
            } else {
                syntax()
            };
        };
        match set_param(&mut self.params, name, value) {
            Ok(()) => {
                self.thinker.set_params(&self.params);
                ok("")
            }
            Err(e) => err(e),
        }
    }

    fn legal_moves(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        let pos = match args {
            [] => self.pos().clone(),
            [seat] => match parse_seat(seat) {
                Some(s) => self.record_for(s).position().clone(),
                None => return syntax(),
            },
            _ => return syntax(),
        };
        if self.record.is_over() {
            return ok("");
        }
        let mut tokens: Vec<String> = pos.legal_turns().iter().map(|t| pos.token(t)).collect();
        tokens.sort();
        let lines: Vec<String> = tokens.chunks(16).map(|c| c.join(" ")).collect();
        ok(lines.join("\n"))
    }

    fn result(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        arity(args, 0, || match self.record.outcome() {
            None => ok("running"),
            Some(o) => {
                let why = if o.by_resignation {
                    "resign"
                } else if self.spec().kind == GameKind::Onyx {
                    "connection"
                } else {
                    "groups"
                };
                ok(format!(
                    "over {} {why} {}",
                    if o.winner == Colour::Black { "b" } else { "w" },
                    self.score_text().unwrap_or_default()
                ))
            }
        })
    }

    fn heatmap(&mut self, args: &[String], ctx: &mut Ctx) -> Reply {
        let seat = match args {
            [] => self.pos().to_move(),
            [s] => match parse_seat(s) {
                Some(s) => s,
                None => return syntax(),
            },
            _ => return syntax(),
        };
        if self.record.is_over() {
            return ok("");
        }
        let limits = self.think_limits(seat);
        let report = self.search(seat, limits, ctx, None);
        let topo = self.pos().topology();
        let grid = self.gogui.then(|| Grid::new(topo));
        let name = |c| match &grid {
            Some(g) => g.name(c),
            None => topo.name(c).to_string(),
        };
        let token = |t: &Turn| match self.gogui_vertex(seat, t).filter(|_| self.gogui) {
            Some(vertex) => vertex,
            None => self.pos().token(t),
        };
        ok(analyze::heat_map(&report, &name, &token))
    }

    /// `oddity-solve [seat] [seconds]`: the exact value of the position for
    /// the seat (default: the side to move) and every turn's, within the
    /// seconds (default 10).
    fn solve(&mut self, args: &[String], ctx: &mut Ctx) -> Reply {
        let seconds = |s: &str| {
            s.parse::<f64>()
                .ok()
                .filter(|t| t.is_finite() && *t > 0.0 && *t <= 1e6)
        };
        let (seat, time) = match args {
            [] => (self.pos().to_move(), 10.0),
            [a] => match (parse_seat(a), seconds(a)) {
                (Some(seat), _) => (seat, 10.0),
                (None, Some(t)) => (self.pos().to_move(), t),
                _ => return syntax(),
            },
            [a, b] => match (parse_seat(a), seconds(b)) {
                (Some(seat), Some(t)) => (seat, t),
                _ => return syntax(),
            },
            _ => return syntax(),
        };
        if self.record.is_over() {
            return err("game is over");
        }
        self.half_turn = None;
        let record = self.record_for(seat);
        let limits = SolveLimits {
            time: Some(Duration::from_secs_f64(time)),
            nodes: None,
        };
        ctx.reader.watch(&self.stop, StopOn::Interrupt);
        let solution = self.thinker.solve(&record, &limits, &self.stop);
        ctx.reader.unwatch();
        let Some(s) = solution else {
            return err("game is over");
        };
        let pos = record.position();
        let list = |v: Option<Value>| -> Vec<String> {
            s.turns
                .iter()
                .filter(|t| t.value == v)
                .map(|t| pos.token(&t.turn))
                .collect()
        };
        let mut text = s.value.map_or("unknown", Value::name).to_string();
        for (label, v) in [
            ("winning", Some(Value::Win)),
            ("losing", Some(Value::Loss)),
            ("neither", Some(Value::Neither)),
            ("unproven", None),
        ] {
            let tokens = list(v);
            if !tokens.is_empty() || label == "winning" || label == "losing" {
                let _ = write!(text, "\n{label}");
                for t in tokens {
                    let _ = write!(text, " {t}");
                }
            }
        }
        let pv: Vec<String> = s.pv.iter().map(|t| pos.token(t)).collect();
        let _ = write!(
            text,
            "\npv {}\nnodes {} seconds {:.3}",
            pv.join(" "),
            s.nodes,
            s.elapsed.as_secs_f64()
        );
        ok(text)
    }

    fn describe(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        arity(args, 0, || {
            let spec = self.spec();
            let mut s = format!(
                "oddity {} (Xodd, Yodd, Odd and Onyx)\ngame {} size {}\n",
                env!("CARGO_PKG_VERSION"),
                spec.kind,
                spec.size
            );
            for line in self.params_list().lines() {
                let _ = writeln!(s, "param {line}");
            }
            ok(s)
        })
    }

    fn analyze(&mut self, args: &[String], ctx: &mut Ctx, format: Format) -> Reply {
        let Some(a) = analyze::parse_args(args) else {
            return syntax();
        };
        let seat = a.seat.unwrap_or(self.pos().to_move());
        ctx.out.stream_start(ctx.id);
        if !self.record.is_over() {
            let record = self.record_for(seat);
            let pos = record.position().clone();
            ctx.reader.watch(&self.stop, StopOn::AnyLine);
            let every = Duration::from_millis(a.interval.max(1) * 10);
            let out = &mut *ctx.out;
            let mut f =
                |r: &Report| out.stream_line(&analyze::info_line(&pos, r, format, a.max_moves));
            let limits = Limits::default();
            self.thinker
                .think(&record, &limits, &self.stop, Some((&mut f, every)));
            ctx.reader.unwatch();
        }
        ctx.out.stream_end();
        Reply::Done
    }

    fn genmove_analyze(&mut self, args: &[String], ctx: &mut Ctx, format: Format) -> Reply {
        let Some(a) = analyze::parse_args(args) else {
            return syntax();
        };
        let seat = a.seat.unwrap_or(self.pos().to_move());
        if self.record.is_over() {
            return err("game is over");
        }
        self.half_turn = None;
        ctx.out.stream_start(ctx.id);
        let limits = self.think_limits(seat);
        let every = Duration::from_millis(a.interval.max(1) * 10);
        let report = self.search(seat, limits, ctx, Some((format, every)));
        let pos = self.record_for(seat).position().clone();
        ctx.out
            .stream_line(&analyze::info_line(&pos, &report, format, a.max_moves));
        if let Some(turn) = self.choose(seat, &report)
            && self.record.play(seat, turn).is_ok()
        {
            ctx.out.stream_line(&format!("play {}", pos.token(&turn)));
        }
        ctx.out.stream_end();
        Reply::Done
    }

    fn analyze_commands(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        arity(args, 0, || {
            ok("param/Engine parameters/oddity-param\n\
                param/Rules for the next game/oddity-rules\n\
                string/Legal moves/oddity-legal_moves %m\n\
                gfx/Visit heat map/oddity-heatmap %m\n\
                string/Solve (10 s)/oddity-solve %m 10\n\
                string/Result/oddity-result\n\
                string/Describe engine/gomill-describe_engine")
        })
    }

    fn rules_game_id(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        arity(args, 0, || {
            ok(match self.spec().kind {
                GameKind::Xodd => "Xodd",
                GameKind::Yodd => "Yodd",
                GameKind::Odd => "Odd",
                GameKind::Onyx => "Onyx",
            })
        })
    }

    fn rules_board_size(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        arity(
            args,
            0,
            || ok(Grid::new(self.pos().topology()).board_size()),
        )
    }

    /// GoGui's grid row by row from the top, one character a point: `X`
    /// black, `O` white, `.` empty, `?` not on the board. A waiting first
    /// stone of an Xodd/Yodd turn is shown.
    fn rules_board(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        arity(args, 0, || {
            let pos = self.pos();
            let grid = Grid::new(pos.topology());
            let waiting = self.half_turn.map(|(_, s)| s);
            let lines: Vec<String> = (0..grid.side)
                .rev()
                .map(|y| {
                    (0..grid.side)
                        .map(|x| match grid.cell(x, y) {
                            None => '?',
                            Some(c) => match waiting
                                .filter(|s| s.cell == c)
                                .map(|s| s.colour)
                                .or_else(|| pos.stone_at(c))
                            {
                                Some(Colour::Black) => 'X',
                                Some(Colour::White) => 'O',
                                None => '.',
                            },
                        })
                        .collect()
                })
                .collect();
            ok(lines.join("\n"))
        })
    }

    /// One-stone points legal now for the stone colour of the seat to move
    /// (Onyx: the mover's colour), and `pass` where a turn may end or pass.
    fn rules_legal_moves(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        arity(args, 0, || {
            if self.record.is_over() {
                return ok("");
            }
            let mut pos = self.pos().clone();
            let colour = pos.to_move();
            let mut actions = Vec::new();
            crate::with_game!(&mut pos, g => {
                if let Some((_, s)) = self.half_turn {
                    g.apply(s.action());
                }
                g.legal_actions(&mut actions);
            });
            let grid = Grid::new(pos.topology());
            let mut names: Vec<String> = actions
                .iter()
                .filter(|a| a.is_stone() && a.colour() == colour)
                .map(|a| grid.name(a.cell()))
                .collect();
            // GoGui's `pass`: a pass, the end of an Xodd/Yodd turn, or the swap.
            if actions
                .iter()
                .any(|a| [Action::PASS, Action::END_TURN, Action::SWAP].contains(a))
            {
                names.push("pass".into());
            }
            ok(names.join(" "))
        })
    }

    fn rules_side_to_move(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        arity(args, 0, || {
            ok(match self.pos().to_move() {
                Colour::Black => "black",
                Colour::White => "white",
            })
        })
    }

    fn rules_final_result(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        arity(args, 0, || {
            ok(self.score_text().unwrap_or_else(|| "unknown".into()))
        })
    }

    /// Stones captured by Black, then by White (GoGui's order).
    fn rules_captured_count(&mut self, args: &[String], _: &mut Ctx) -> Reply {
        arity(args, 0, || {
            let [of_black, of_white] = captured(&self.record);
            ok(format!("{of_white} {of_black}"))
        })
    }
}

/// Whether a token that this game rejects is well formed in some game on this
/// board (`pass` in Odd, a bare point in Xodd, two stones in Onyx): such a
/// token is an illegal move here, not a syntax error.
fn well_formed_elsewhere(token: &str, pos: &AnyGame, seat: Colour) -> bool {
    let own = Turn::parse(token, pos.kind(), pos.topology(), seat);
    if matches!(&own, Err(e) if e.kind == TokenErrorKind::WrongColour) {
        return true;
    }
    GameKind::ALL
        .into_iter()
        .any(|kind| Turn::parse(token, kind, pos.topology(), seat).is_ok())
}

/// Stones of each colour (indexed by colour) captured so far: the stones a
/// turn took off the board beyond what it placed. The swap moves a stone and
/// captures nothing.
fn captured(record: &GameRecord) -> [u32; 2] {
    let mut pos = record.start().clone();
    let count = |p: &AnyGame| {
        let mut n = [0u32; 2];
        for &c in p.topology().cells() {
            if let Some(colour) = p.stone_at(c) {
                n[colour.index()] += 1;
            }
        }
        n
    };
    let mut taken = [0u32; 2];
    for (seat, turn) in record.moves() {
        let before = count(&pos);
        if pos.to_move() != *seat {
            pos.set_to_move(*seat);
        }
        if *turn == Turn::Resign || pos.play_turn(turn).is_err() {
            break;
        }
        if let Turn::Stones(a, b) = turn {
            let after = count(&pos);
            for colour in [Colour::Black, Colour::White] {
                let placed = std::iter::once(a)
                    .chain(b)
                    .filter(|s| s.colour == colour)
                    .count() as u32;
                let i = colour.index();
                taken[i] += (before[i] + placed).saturating_sub(after[i]);
            }
        }
    }
    taken
}

/// Sets one engine parameter from text.
pub fn set_param(p: &mut Params, name: &str, value: &str) -> Result<(), String> {
    let bad = || "syntax error".to_string();
    match name {
        "threads" => match value.parse::<usize>() {
            Ok(n) if (1..=1024).contains(&n) => p.threads = n,
            _ => return Err(bad()),
        },
        "visits" => p.visits = value.parse().map_err(|_| bad())?,
        "time" => match value.parse::<f64>() {
            Ok(t) if t >= 0.0 && t.is_finite() => p.time = t,
            _ => return Err(bad()),
        },
        "memory" => match value.parse::<usize>() {
            Ok(m) if m >= 1 => p.memory_mb = m,
            _ => return Err(bad()),
        },
        "seed" => p.seed = value.parse().map_err(|_| bad())?,
        "ponder" => p.ponder = parse_bool(value).ok_or_else(bad)?,
        "resign" => match value.parse::<f64>() {
            Ok(r) if (0.0..=1.0).contains(&r) => p.resign = r,
            _ => return Err(bad()),
        },
        "policy" => p.policy = value.parse().map_err(|_| bad())?,
        "exploration" => match value.parse::<f64>() {
            _ if value.eq_ignore_ascii_case("auto") => p.exploration = None,
            Ok(c) if c >= 0.0 && c.is_finite() => p.exploration = Some(c),
            _ => return Err(bad()),
        },
        _ => return p.tuning.set(name, value).map_err(|e| e.to_string()),
    }
    Ok(())
}
