//! The session's state and every change to it that the rules check: new
//! games, seats, the person's turns, undo, review and records.

use std::time::Instant;

use serde::Serialize;

use super::heat::HeatSpot;
use crate::engine::info::Candidate;
use crate::rules::game::{GameSpec, Rules, SpecError};
use crate::rules::kind::{GameKind, UnknownGame};
use crate::rules::moves::{Colour, Stone, TokenError, Turn};
use crate::rules::position::AnyGame;
use crate::rules::record::GameRecord;
use crate::rules::sgf::{self, RecordInfo, SgfError};

/// Why the page's request is refused; the page shows the message as it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    #[error(transparent)]
    UnknownGame(#[from] UnknownGame),
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error(
        "unknown player '{name}': 'human' or an engine given on the command line ({})",
        .engines.join(", ")
    )]
    UnknownPlayer { name: String, engines: Vec<String> },
    #[error("seconds per turn must be above 0 and at most {MAX_SECONDS}")]
    Seconds,
    #[error("pause is for games between engines: a person plays here")]
    PauseWithPerson,
    #[error("you are looking at turn {view} of {turns}: go to the end or press 'Play from here'")]
    NotAtEnd { view: usize, turns: usize },
    #[error("the game is over")]
    GameOver,
    #[error("it is {engine}'s turn ({})", .seat.name())]
    EngineToMove { engine: String, seat: Colour },
    #[error("'{0}' is not a stone colour (B or W)")]
    BadColour(String),
    #[error(transparent)]
    Token(#[from] TokenError),
    /// The rules' reason, with the cells named on the board.
    #[error("{0}")]
    Illegal(String),
    #[error("no person plays in this game")]
    NoPerson,
    #[error("there is no turn to take back")]
    NothingToUndo,
    #[error("turn {turn} does not exist (the game has {turns})")]
    NoSuchTurn { turn: usize, turns: usize },
    #[error("games in a file are numbered from 1")]
    GameZero,
    #[error("cannot read this SGF: {0}")]
    Sgf(#[source] SgfError),
    #[error("this file holds {count} game(s): there is no game {game}")]
    NoSuchGame { game: usize, count: usize },
    #[error("no engine named '{0}'")]
    NoSuchEngine(String),
}

/// Who plays a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    Human,
    Engine(String),
}

impl Seat {
    pub(super) fn label(&self) -> String {
        match self {
            Seat::Human => "human".into(),
            Seat::Engine(name) => name.clone(),
        }
    }
}

/// The latest analysis of one position.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    pub engine: String,
    #[serde(serialize_with = "seat_letter")]
    pub seat: Colour,
    /// The position analysed: after this many turns.
    pub turn: usize,
    pub candidates: Vec<Candidate>,
    /// The candidates' heat map.
    pub heat: Vec<HeatSpot>,
    /// Made by an engine choosing its turn (else analysis asked for).
    #[serde(skip)]
    pub genmove: bool,
}

/// What an engine is doing, as the page shows it.
#[derive(Clone, Debug, Serialize)]
pub struct EngineInfo {
    pub name: String,
    /// `starting`, `idle` (started and ready), `thinking`, `analysing`,
    /// `failed` (could not be started) or `stopped` (crashed, hung or
    /// misbehaved after it started).
    pub status: &'static str,
    /// Why it failed or stopped.
    pub fault: Option<String>,
    /// What it answered to `name` and `version`, once started.
    pub identity: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Notice {
    /// `error` or `info`.
    pub level: &'static str,
    pub text: String,
}

/// The new-game form.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    pub game: String,
    pub size: Option<usize>,
    /// Odd: smallest group that counts (default: the board side).
    pub min_group: Option<usize>,
    /// Onyx: start from the empty board.
    #[serde(default)]
    pub open_start: bool,
    /// Onyx: the swap rule (default on).
    pub swap: Option<bool>,
    /// `human` or an engine name, for each seat.
    pub black: String,
    pub white: String,
    /// Engines' thinking time per turn, seconds.
    pub seconds: Option<f64>,
}

/// A stone the person has placed while composing a turn.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PendingStone {
    pub cell: String,
    /// `B` or `W`.
    pub colour: String,
}

/// What the rules say about a turn being composed.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Preview {
    /// The stones are a legal start of a turn.
    pub ok: bool,
    /// They make a whole turn that may be confirmed as it is.
    pub complete: bool,
    /// Why not, or what is still needed.
    pub reason: Option<String>,
    /// The token the turn would be sent as.
    pub token: Option<String>,
}

/// Work for the engines that the current state asks for.
#[derive(Clone)]
pub struct Job {
    pub engine: String,
    pub seat: Colour,
    /// The game up to the position to search.
    pub record: GameRecord,
    /// True: choose and play a turn; false: analyse until told to stop.
    pub genmove: bool,
    pub seconds: f64,
    pub generation: u64,
}

/// Thinking time per turn when the form gives none.
const DEFAULT_SECONDS: f64 = 3.0;
const MAX_SECONDS: f64 = 600.0;

pub struct Session {
    pub(super) record: GameRecord,
    pub(super) seats: [Seat; 2],
    pub(super) seconds: f64,
    /// Turns shown on the board (the record's length unless reviewing).
    pub(super) view: usize,
    pub(super) analysis_wanted: bool,
    /// The latest analysis of the position after k turns.
    pub(super) analyses: Vec<Option<Analysis>>,
    /// Black's win rate in the position after k turns, as last estimated.
    pub(super) winrates: Vec<Option<f64>>,
    pub(super) engines: Vec<EngineInfo>,
    pub(super) notice: Option<Notice>,
    /// Names written to a downloaded record (`PB`, `PW`).
    pub(super) player_names: [String; 2],
    /// Seconds each turn's player spent on it.
    pub(super) times: Vec<f64>,
    /// Seconds spent on the turn being played, before `since`.
    pub(super) spent: f64,
    /// When the clock of the turn being played last started.
    pub(super) since: Option<Instant>,
    /// Engines do not move until resumed.
    pub(super) paused: bool,
    /// Bumped by every change that makes a running engine job stale.
    pub(super) generation: u64,
    /// Bumped by every change the page should see.
    pub(super) version: u64,
}

fn seat_letter<S: serde::Serializer>(c: &Colour, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(c.seat())
}

impl Session {
    pub fn new(engines: &[String]) -> Session {
        let spec = GameSpec::default_for(GameKind::Odd);
        let white = engines
            .first()
            .map_or(Seat::Human, |e| Seat::Engine(e.clone()));
        let mut s = Session {
            record: GameRecord::new(AnyGame::new(&spec)),
            seats: [Seat::Human, white],
            seconds: DEFAULT_SECONDS,
            view: 0,
            analysis_wanted: false,
            analyses: vec![None],
            winrates: vec![None],
            engines: engines
                .iter()
                .map(|name| EngineInfo {
                    name: name.clone(),
                    status: "starting",
                    fault: None,
                    identity: None,
                })
                .collect(),
            notice: None,
            player_names: [String::new(), String::new()],
            times: Vec::new(),
            spent: 0.0,
            since: None,
            paused: false,
            generation: 0,
            version: 0,
        };
        s.name_players();
        s
    }

    pub fn version(&self) -> u64 {
        self.version
    }

    pub fn generation(&self) -> u64 {
        self.generation
    }

    pub fn record(&self) -> &GameRecord {
        &self.record
    }

    pub fn view(&self) -> usize {
        self.view
    }

    /// A change the page should see.
    pub(super) fn touched(&mut self) {
        self.version += 1;
    }

    /// A change of the game: running engine work is stale.
    pub(super) fn changed(&mut self) {
        self.generation += 1;
        let turns = self.record.moves().len();
        self.winrates.resize(turns + 1, None);
        self.analyses.resize(turns + 1, None);
        self.times.truncate(turns);
        self.retime();
        self.touched();
    }

    /// A new game or record: nothing known of its positions.
    pub(super) fn forget(&mut self) {
        let positions = self.record.moves().len() + 1;
        self.view = positions - 1;
        self.winrates = vec![None; positions];
        self.analyses = vec![None; positions];
        self.times = vec![0.0; positions - 1];
        self.paused = false;
        self.reset_clock();
    }

    /// The clock runs while the player to move can play: not after the
    /// end, not while paused, not for a stopped engine.
    pub(super) fn clock_should_run(&self) -> bool {
        !self.record.is_over() && !self.paused && self.stalled().is_none()
    }

    /// Starts or stops the clock of the turn being played as the state
    /// asks.
    pub(super) fn retime(&mut self) {
        match (self.since, self.clock_should_run()) {
            (Some(t), false) => {
                self.spent += t.elapsed().as_secs_f64();
                self.since = None;
            }
            (None, true) => self.since = Some(Instant::now()),
            _ => {}
        }
    }

    /// Seconds spent on the turn being played so far.
    pub(super) fn spent_now(&self) -> f64 {
        self.spent + self.since.map_or(0.0, |t| t.elapsed().as_secs_f64())
    }

    /// The turn being played has just been added to the record.
    pub(super) fn turn_done(&mut self) {
        self.times.push(self.spent_now());
        self.reset_clock();
    }

    pub(super) fn reset_clock(&mut self) {
        self.spent = 0.0;
        self.since = None;
    }

    pub(super) fn name_players(&mut self) {
        for (i, seat) in self.seats.iter().enumerate() {
            self.player_names[i] = match seat {
                Seat::Human => "human".into(),
                Seat::Engine(name) => name.clone(),
            };
        }
    }

    pub(super) fn parse_seat(&self, text: &str) -> Result<Seat, SessionError> {
        if text.eq_ignore_ascii_case("human") {
            return Ok(Seat::Human);
        }
        if self.engines.iter().any(|e| e.name == text) {
            return Ok(Seat::Engine(text.to_string()));
        }
        Err(SessionError::UnknownPlayer {
            name: text.to_string(),
            engines: self.engines.iter().map(|e| e.name.clone()).collect(),
        })
    }

    pub fn new_game(&mut self, form: &NewGame) -> Result<(), SessionError> {
        let kind: GameKind = form.game.parse()?;
        let rules = Rules {
            min_group: form.min_group,
            open_start: form.open_start,
            swap: form.swap.unwrap_or(true),
        };
        let spec = GameSpec::from_options(kind, form.size, rules)?;
        let seats = [self.parse_seat(&form.black)?, self.parse_seat(&form.white)?];
        let seconds = form.seconds.unwrap_or(self.seconds);
        if !(seconds > 0.0 && seconds <= MAX_SECONDS) {
            return Err(SessionError::Seconds);
        }
        self.record = GameRecord::new(AnyGame::new(&spec));
        self.seats = seats;
        self.seconds = seconds;
        self.forget();
        self.notice = None;
        self.name_players();
        self.changed();
        Ok(())
    }

    /// Changes who plays each seat, keeping the game. An old engine fault
    /// is no longer news (a stopped engine still seated is reported anew).
    pub fn set_seats(&mut self, black: &str, white: &str) -> Result<(), SessionError> {
        self.seats = [self.parse_seat(black)?, self.parse_seat(white)?];
        if self.seats.contains(&Seat::Human) {
            self.paused = false;
        }
        self.notice = None;
        self.name_players();
        self.changed();
        Ok(())
    }

    /// Stops or resumes the engines of a game between engines. A turn an
    /// engine is thinking about is abandoned and thought again on resume.
    pub fn set_paused(&mut self, on: bool) -> Result<(), SessionError> {
        if on && self.seats.contains(&Seat::Human) {
            return Err(SessionError::PauseWithPerson);
        }
        self.paused = on;
        self.changed();
        Ok(())
    }

    /// The engine in the seat to move, when it is stopped: the game waits.
    pub(super) fn stalled(&self) -> Option<&EngineInfo> {
        if self.record.is_over() {
            return None;
        }
        match self.seat(self.record.position().to_move()) {
            Seat::Engine(name) => self
                .engines
                .iter()
                .find(|e| &e.name == name && e.fault.is_some()),
            Seat::Human => None,
        }
    }

    pub(super) fn stalled_notice(&self) -> Option<Notice> {
        let e = self.stalled()?;
        let seat = self.record.position().to_move().name();
        Some(Notice {
            level: "error",
            text: format!(
                "engine {} is stopped ({}), so {seat} cannot move. Press Restart under Engines, \
                 or choose other players and press Change players only.",
                e.name,
                e.fault.as_deref().unwrap_or("stopped")
            ),
        })
    }

    pub(super) fn seat(&self, c: Colour) -> &Seat {
        &self.seats[c.index()]
    }

    pub(super) fn at_end(&self) -> bool {
        self.view == self.record.moves().len()
    }

    /// Refuses a person's turn unless it is a person's turn at the end of
    /// the game.
    pub(super) fn human_may_play(&self) -> Result<Colour, SessionError> {
        if !self.at_end() {
            return Err(SessionError::NotAtEnd {
                view: self.view,
                turns: self.record.moves().len(),
            });
        }
        if self.record.is_over() {
            return Err(SessionError::GameOver);
        }
        let seat = self.record.position().to_move();
        match self.seat(seat) {
            Seat::Human => Ok(seat),
            Seat::Engine(name) => Err(SessionError::EngineToMove {
                engine: name.clone(),
                seat,
            }),
        }
    }

    /// Checks a turn being composed from one or two stones.
    pub fn preview(&self, stones: &[PendingStone]) -> Preview {
        let refuse = |reason: String| Preview {
            ok: false,
            complete: false,
            reason: Some(reason),
            token: None,
        };
        if let Err(why) = self.human_may_play() {
            return refuse(why.to_string());
        }
        if stones.is_empty() || stones.len() > 2 {
            return refuse("a turn has one or two stones".into());
        }
        let pos = self.record.position();
        let token = match stone_token(pos, stones) {
            Ok(t) => t,
            Err(why) => return refuse(why.to_string()),
        };
        let turn = match pos.parse_turn(&token) {
            Ok(t) => t,
            Err(e) => return refuse(e.to_string()),
        };
        let topo = pos.topology();
        let mut next = pos.clone();
        let played = next.play_turn(&turn);
        if played.is_ok() {
            return Preview {
                ok: true,
                complete: true,
                reason: None,
                token: Some(pos.token(&turn)),
            };
        }
        let why = played.unwrap_err().describe(topo);
        let Turn::Stones(first, None) = turn else {
            return refuse(why);
        };
        // A single stone that cannot end the turn: fine as the first of
        // two if some second stone completes a legal turn.
        if pos.stone_at(first.cell).is_some() || !self.has_second_stone(first) {
            return refuse(why);
        }
        Preview {
            ok: true,
            complete: false,
            reason: Some(format!("{why}: place a second stone")),
            token: None,
        }
    }

    pub(super) fn has_second_stone(&self, first: Stone) -> bool {
        let pos = self.record.position();
        pos.topology().cells().iter().any(|&cell| {
            cell != first.cell
                && pos.stone_at(cell).is_none()
                && Colour::BOTH.iter().any(|&colour| {
                    let turn = Turn::stones(first, Some(Stone { cell, colour }));
                    pos.clone().play_turn(&turn).is_ok()
                })
        })
    }

    /// Plays a person's turn given as a token (`pass`, `swap` and `resign`
    /// included).
    pub fn play_human(&mut self, token: &str) -> Result<(), SessionError> {
        if token.trim().eq_ignore_ascii_case("resign") {
            return self.resign();
        }
        let seat = self.human_may_play()?;
        let pos = self.record.position();
        let turn = pos.parse_turn(token.trim())?;
        let topo = pos.topology();
        self.record
            .play(seat, turn)
            .map_err(|e| SessionError::Illegal(e.describe(topo)))?;
        self.turn_done();
        self.view = self.record.moves().len();
        self.notice = None;
        self.changed();
        Ok(())
    }

    /// The person resigns: the human seat (the one to move when both are).
    pub fn resign(&mut self) -> Result<(), SessionError> {
        if self.record.is_over() {
            return Err(SessionError::GameOver);
        }
        let to_move = self.record.position().to_move();
        let seat = if *self.seat(to_move) == Seat::Human {
            to_move
        } else if *self.seat(to_move.opposite()) == Seat::Human {
            to_move.opposite()
        } else {
            return Err(SessionError::NoPerson);
        };
        self.record
            .play(seat, Turn::Resign)
            .map_err(|e| SessionError::Illegal(e.describe(self.record.position().topology())))?;
        self.turn_done();
        self.view = self.record.moves().len();
        self.changed();
        Ok(())
    }

    /// Takes back turns until a person is to move (one turn when engines
    /// play both seats or people both).
    pub fn undo(&mut self) -> Result<(), SessionError> {
        if self.record.moves().is_empty() {
            return Err(SessionError::NothingToUndo);
        }
        let anyone_human = self.seats.contains(&Seat::Human);
        loop {
            self.record.undo();
            let seat = self.record.position().to_move();
            let human_to_move = *self.seat(seat) == Seat::Human;
            if !anyone_human || human_to_move || self.record.moves().is_empty() {
                break;
            }
        }
        self.reset_clock();
        self.view = self.record.moves().len();
        self.notice = None;
        self.changed();
        Ok(())
    }

    /// Shows the position after `turn` turns (reviewing).
    pub fn set_view(&mut self, turn: usize) -> Result<(), SessionError> {
        let turns = self.record.moves().len();
        if turn > turns {
            return Err(SessionError::NoSuchTurn { turn, turns });
        }
        self.view = turn;
        self.changed();
        Ok(())
    }

    /// Drops the turns after the one viewed, to play on from there.
    pub fn branch_here(&mut self) {
        if !self.at_end() {
            self.record = self.record.truncated(self.view);
            self.reset_clock();
            self.changed();
        }
    }

    /// Opens game `game` (from 1) of a record or collection to review it:
    /// people in both seats, the last turn shown. Returns how many games
    /// the file holds.
    pub fn load_sgf(&mut self, text: &str, game: usize) -> Result<usize, SessionError> {
        let index = game.checked_sub(1).ok_or(SessionError::GameZero)?;
        let (record, count) = sgf::read_game(text, index).map_err(SessionError::Sgf)?;
        let record = record.ok_or(SessionError::NoSuchGame { game, count })?;
        self.record = record;
        self.seats = [Seat::Human, Seat::Human];
        self.forget();
        let which = if count > 1 {
            format!(" (game {game} of {count} in the file)")
        } else {
            String::new()
        };
        self.notice = Some(Notice {
            level: "info",
            text: format!("record opened{which}: both seats are people; choose players to go on"),
        });
        self.name_players();
        self.changed();
        Ok(count)
    }

    /// The record as SGF, as `printsgf` writes it.
    pub fn sgf(&self) -> String {
        let info = RecordInfo {
            black: Some(self.player_names[0].clone()),
            white: Some(self.player_names[1].clone()),
            result: self.result_code(),
            ..Default::default()
        };
        sgf::write(&self.record, &info)
    }

    /// `B+3`, `W+`, `B+R`, as `final_score` gives the result.
    pub(super) fn result_code(&self) -> Option<String> {
        self.record.outcome().map(|o| o.score())
    }
}

/// Builds the token of a composed turn.
fn stone_token(pos: &AnyGame, stones: &[PendingStone]) -> Result<String, SessionError> {
    let mut parts = Vec::new();
    for s in stones {
        let colour =
            Colour::parse(&s.colour).ok_or_else(|| SessionError::BadColour(s.colour.clone()))?;
        if pos.kind().colour_is_chosen() {
            parts.push(format!("{}:{}", colour.letter(), s.cell));
        } else {
            parts.push(s.cell.clone());
        }
    }
    Ok(parts.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::session::heat_spots;

    fn form(game: &str, size: usize, black: &str, white: &str) -> NewGame {
        NewGame {
            game: game.into(),
            size: Some(size),
            min_group: None,
            open_start: true,
            swap: Some(false),
            black: black.into(),
            white: white.into(),
            seconds: Some(1.0),
        }
    }

    fn stone(cell: &str, colour: &str) -> PendingStone {
        PendingStone {
            cell: cell.into(),
            colour: colour.into(),
        }
    }

    fn candidate(token: &str, visits: u64, winrate: f64) -> Candidate {
        Candidate {
            token: token.into(),
            visits,
            winrate,
            pv: Vec::new(),
        }
    }

    /// The page draws the server's heat map: shares of the most visited
    /// cell, the majority colour where a stone's colour is free, and the
    /// most visited candidate per cell; unreadable tokens count nowhere.
    #[test]
    fn heat_spots_sum_the_candidates_per_cell() {
        let odd = AnyGame::new(&GameSpec::new(GameKind::Odd, 3, Rules::default()).unwrap());
        let candidates = [
            candidate("B:A1", 30, 0.6),
            candidate("W:A1", 20, 0.4),
            candidate("W:B2", 10, 0.7),
            candidate("Z9", 50, 0.9),
        ];
        let heat = heat_spots(&odd, Colour::Black, &candidates);
        let seen: Vec<_> = heat
            .iter()
            .map(|h| (h.cell.as_str(), h.share, h.colour, h.top, h.winrate))
            .collect();
        assert_eq!(
            seen,
            [
                ("A1", 1.0, Some('B'), 0, 0.6),
                ("B2", 0.2, Some('W'), 2, 0.7)
            ]
        );
        let onyx = AnyGame::new(&GameSpec::default_for(GameKind::Onyx));
        let heat = heat_spots(&onyx, Colour::Black, &[candidate("E5", 5, 0.5)]);
        assert_eq!(heat.len(), 1);
        assert_eq!((heat[0].share, heat[0].colour), (1.0, None));
    }

    #[test]
    fn undo_goes_back_to_the_person() {
        let mut s = Session::new(&["e".to_string()]);
        s.engine_started("e", None);
        s.new_game(&form("odd", 3, "human", "e")).unwrap();
        s.play_human("B:C3").unwrap();
        let g = s.generation();
        assert!(s.next_job().is_some_and(|j| j.genmove));
        s.engine_turn(g, Colour::White, "W:A1").unwrap();
        s.play_human("B:B2").unwrap();
        assert_eq!(s.record().moves().len(), 3);
        s.undo().unwrap();
        // Back to Black's turn: the engine's turn and the person's go.
        assert_eq!(s.record().moves().len(), 2);
        s.undo().unwrap();
        assert_eq!(s.record().moves().len(), 0);
        assert!(s.undo().is_err());
    }

    #[test]
    fn stale_and_illegal_engine_turns() {
        let mut s = Session::new(&["e".to_string()]);
        s.new_game(&form("odd", 3, "human", "e")).unwrap();
        s.play_human("B:C3").unwrap();
        let g = s.generation();
        // A turn from an old generation is dropped silently.
        s.engine_turn(g - 1, Colour::White, "W:A1").unwrap();
        assert_eq!(s.record().moves().len(), 1);
        let e = s.engine_turn(g, Colour::White, "W:C3").unwrap_err();
        assert!(e.to_string().contains("C3 is not empty"), "{e}");
        let e = s.engine_turn(g, Colour::White, "pass").unwrap_err();
        assert!(e.to_string().contains("malformed"), "{e}");
        assert_eq!(s.record().moves().len(), 1);
    }

    #[test]
    fn previews_of_composed_turns() {
        let mut s = Session::new(&[]);
        s.new_game(&form("xodd", 4, "human", "human")).unwrap();
        let p = s.preview(&[stone("B2", "B"), stone("C3", "W")]);
        assert!(!p.ok);
        assert!(p.reason.unwrap().contains("only one stone"));
        s.play_human("B:B2").unwrap();
        let p = s.preview(&[stone("D4", "W")]);
        assert!(p.ok && !p.complete, "{p:?}");
        let p = s.preview(&[stone("B2", "W")]);
        assert!(!p.ok && p.reason.unwrap().contains("not empty"));
        let p = s.preview(&[stone("D4", "W"), stone("A4", "B")]);
        assert_eq!(p.token.as_deref(), Some("B:A4,W:D4"));
        let p = s.preview(&[stone("D4", "X")]);
        assert!(!p.ok);
    }

    fn analysis(turn: usize, genmove: bool) -> Analysis {
        Analysis {
            engine: "e".into(),
            seat: if turn.is_multiple_of(2) {
                Colour::Black
            } else {
                Colour::White
            },
            turn,
            candidates: vec![candidate("B:A1", 10, 0.5)],
            heat: Vec::new(),
            genmove,
        }
    }

    fn shown(s: &Session) -> Option<(usize, bool)> {
        s.state(|_, _| String::new())
            .analysis
            .map(|a| (a.turn, a.genmove))
    }

    #[test]
    fn analyses_stay_with_their_positions() {
        let mut s = Session::new(&["e".to_string()]);
        s.new_game(&form("odd", 3, "human", "e")).unwrap();
        s.set_analysis_wanted(true);
        s.analysis_update(s.generation(), analysis(0, false));
        assert_eq!(shown(&s), Some((0, false)));
        // A stale update is dropped.
        s.analysis_update(s.generation() - 1, analysis(0, true));
        assert_eq!(shown(&s), Some((0, false)));
        s.play_human("B:C3").unwrap();
        // The person's analysis until the engine's arrives.
        assert_eq!(shown(&s), Some((0, false)));
        s.analysis_update(s.generation(), analysis(1, true));
        s.engine_turn(s.generation(), Colour::White, "W:A1")
            .unwrap();
        // After its turn, the engine's last analysis stays.
        assert_eq!(shown(&s), Some((1, true)));
        s.set_view(0).unwrap();
        assert_eq!(shown(&s), Some((0, false)));
        s.set_view(2).unwrap();
        // Turning analysis off drops what it found, not the engine's.
        s.set_analysis_wanted(false);
        assert_eq!(shown(&s), Some((1, true)));
        s.set_view(0).unwrap();
        assert_eq!(shown(&s), None);
        // Taking turns back forgets the analyses of the positions gone.
        s.set_view(2).unwrap();
        s.undo().unwrap();
        assert_eq!(s.record().moves().len(), 0);
        s.play_human("B:B2").unwrap();
        assert_eq!(shown(&s), None);
    }

    /// A stopped engine's unfinished search is not shown; what it thought
    /// about the turns it played stays.
    #[test]
    fn a_stopped_engines_analysis_is_dropped() {
        let mut s = Session::new(&["e".to_string()]);
        s.new_game(&form("odd", 3, "human", "e")).unwrap();
        s.play_human("B:C3").unwrap();
        s.analysis_update(s.generation(), analysis(1, true));
        s.engine_turn(s.generation(), Colour::White, "W:A1")
            .unwrap();
        s.play_human("B:B2").unwrap();
        s.analysis_update(s.generation(), analysis(3, true));
        assert_eq!(shown(&s), Some((3, true)));
        s.engine_fault("e", "engine exited (signal: 9)".into());
        // The fallback is the analysis of the turn before, by the person's
        // request or none: here none.
        assert_eq!(shown(&s), None);
        assert_eq!(s.winrates[3], None);
        s.set_view(1).unwrap();
        assert_eq!(shown(&s), Some((1, true)));
    }

    /// Engines are listed as starting until the engine thread has started
    /// them; Restart starts a failed one again.
    #[test]
    fn engines_start_fail_and_restart() {
        let mut s = Session::new(&["a".to_string(), "b".to_string()]);
        assert_eq!(s.engines_to_start(), ["a", "b"]);
        s.engine_started("a", Some("oddity 1.0".into()));
        s.engine_start_failed("b", "cannot start 'x': not found".into());
        assert!(s.engines_to_start().is_empty());
        let st = |s: &Session| {
            s.engines
                .iter()
                .map(|e| (e.status, e.fault.is_some()))
                .collect::<Vec<_>>()
        };
        assert_eq!(st(&s), [("idle", false), ("failed", true)]);
        // Restarting a running engine changes nothing.
        s.restart_engine("a").unwrap();
        s.restart_engine("b").unwrap();
        assert_eq!(st(&s), [("idle", false), ("starting", false)]);
        assert_eq!(s.engines_to_start(), ["b"]);
        assert!(s.restart_engine("c").is_err());
    }

    #[test]
    fn clocks_count_each_seats_time() {
        let mut s = Session::new(&["e".to_string()]);
        s.new_game(&form("odd", 3, "human", "human")).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(30));
        s.play_human("B:C3").unwrap();
        let c = s.clock();
        assert!(c.used[0] >= 0.03 && c.used[1] < 0.03, "{:?}", c.used);
        assert_eq!(c.running, Some("w"));
        s.set_seats("e", "e").unwrap();
        s.set_paused(true).unwrap();
        let c = s.clock();
        assert_eq!(c.running, None);
        std::thread::sleep(std::time::Duration::from_millis(30));
        assert_eq!(s.clock().used, c.used);
        s.set_paused(false).unwrap();
        assert_eq!(s.clock().running, Some("w"));
        s.undo().unwrap();
        let c = s.clock();
        assert!(c.used[0] < 0.03 && c.used[1] == 0.0, "{:?}", c.used);
    }

    #[test]
    fn onyx_results_name_the_chain() {
        let mut s = Session::new(&[]);
        s.new_game(&form("onyx", 4, "human", "human")).unwrap();
        for t in ["A1", "D4", "A2", "D3", "A3", "D2", "A4"] {
            s.play_human(t).unwrap();
        }
        let st = s.state(|_, _| String::new());
        let r = st.result.expect("black has connected");
        assert_eq!(r.winner, "b");
        assert_eq!(r.chain, vec!["A1", "A2", "A3", "A4"]);
        assert!(r.text.contains("rows 1 and 4"), "{}", r.text);
        assert_eq!(r.code, "B+");
    }
}
