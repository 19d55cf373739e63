//! Who plays: the seats, the engines' thinking time, whether a game
//! between engines is paused, and what each engine is doing.

use std::time::Duration;

use serde::Serialize;

use oddity_rules::Colour;
use oddity_search::config;

use crate::error::SessionError;
use crate::game::Game;

/// Thinking time per turn when the form gives none.
const DEFAULT_TIME: Duration = Duration::from_secs(3);

/// Who plays a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person, at the page.
    Human,
    /// An engine, by its name.
    Engine(String),
}

impl Seat {
    fn label(&self) -> String {
        match self {
            Seat::Human => "human".into(),
            Seat::Engine(name) => name.clone(),
        }
    }
}

/// What an engine is doing, as the page shows it.
#[derive(Clone, Debug, Serialize)]
pub struct EngineInfo {
    /// Its name, as given on the command line (or the tab's).
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

/// The seats, the engines and their time.
pub(crate) struct Players {
    /// Black's, then White's.
    seats: [Seat; 2],
    /// Engines' thinking time per turn.
    time: Duration,
    /// Engines do not move until resumed.
    paused: bool,
    /// Every engine given, in the order given.
    engines: Vec<EngineInfo>,
}

impl Players {
    /// A person as Black and the first of `engines` (if any) as White,
    /// every engine starting.
    pub(crate) fn new(engines: &[String]) -> Players {
        let white = engines
            .first()
            .map_or(Seat::Human, |e| Seat::Engine(e.clone()));
        Players {
            seats: [Seat::Human, white],
            time: DEFAULT_TIME,
            paused: false,
            engines: engines
                .iter()
                .map(|name| EngineInfo {
                    name: name.clone(),
                    status: "starting",
                    fault: None,
                    identity: None,
                })
                .collect(),
        }
    }

    /// Who plays `seat`.
    pub(crate) fn seat(&self, seat: Colour) -> &Seat {
        &self.seats[seat.index()]
    }

    /// `human` or the engine's name, black first: the names of the players.
    pub(crate) fn labels(&self) -> [String; 2] {
        [self.seats[0].label(), self.seats[1].label()]
    }

    /// Whether a person plays a seat.
    pub(crate) fn has_person(&self) -> bool {
        self.seats.contains(&Seat::Human)
    }

    /// Whether a person plays `seat`.
    pub(crate) fn is_person(&self, seat: Colour) -> bool {
        *self.seat(seat) == Seat::Human
    }

    /// Engines' thinking time per turn.
    pub(crate) fn time(&self) -> Duration {
        self.time
    }

    /// Whether a game between engines waits until resumed.
    pub(crate) fn paused(&self) -> bool {
        self.paused
    }

    /// Every engine, in the order given.
    pub(crate) fn engines(&self) -> &[EngineInfo] {
        &self.engines
    }

    /// Seats the players of a new game (`human` or an engine's name) with
    /// the engines' thinking time (the last game's when none is given),
    /// or refuses them changing nothing.
    pub(crate) fn seat_new_game(
        &mut self,
        black: &str,
        white: &str,
        seconds: Option<f64>,
    ) -> Result<(), SessionError> {
        let seats = [self.player(black)?, self.player(white)?];
        let time = seconds.map_or(Ok(self.time), config::check_seconds)?;
        self.seats = seats;
        self.time = time;
        Ok(())
    }

    /// Changes who plays each seat; a game a person plays is not paused.
    pub(crate) fn set_seats(&mut self, black: &str, white: &str) -> Result<(), SessionError> {
        self.seats = [self.player(black)?, self.player(white)?];
        if self.has_person() {
            self.paused = false;
        }
        Ok(())
    }

    /// People in both seats (a record opened to review).
    pub(crate) fn seat_people(&mut self) {
        self.seats = [Seat::Human, Seat::Human];
    }

    /// Pauses a game between engines; refused where a person plays.
    pub(crate) fn pause(&mut self) -> Result<(), SessionError> {
        if self.has_person() {
            return Err(SessionError::PauseWithPerson);
        }
        self.paused = true;
        Ok(())
    }

    /// Lets the engines move again.
    pub(crate) fn resume(&mut self) {
        self.paused = false;
    }

    /// The player named `text`; an engine that failed to start is refused.
    fn player(&self, text: &str) -> Result<Seat, SessionError> {
        if text.eq_ignore_ascii_case("human") {
            return Ok(Seat::Human);
        }
        if let Some(e) = self.engine(text) {
            if e.status == "failed" {
                return Err(SessionError::FailedEngine(e.name.clone()));
            }
            return Ok(Seat::Engine(text.to_string()));
        }
        Err(SessionError::UnknownPlayer {
            name: text.to_string(),
            engines: self.engines.iter().map(|e| e.name.clone()).collect(),
        })
    }

    /// The seat a person may play a turn for in the position viewed of
    /// `game`: the seat to move, when the game goes on there and a person
    /// plays it (earlier than the end, the turn starts a variation).
    pub(crate) fn may_play(&self, game: &Game) -> Result<Colour, SessionError> {
        let seat = game.viewed_to_move()?;
        match self.seat(seat) {
            Seat::Human => Ok(seat),
            Seat::Engine(name) => Err(SessionError::EngineToMove {
                engine: name.clone(),
                seat,
            }),
        }
    }

    /// The seat a person resigns when `to_move` is to move: the person's,
    /// the one to move when people play both.
    pub(crate) fn resigning(&self, to_move: Colour) -> Result<Colour, SessionError> {
        [to_move, to_move.opposite()]
            .into_iter()
            .find(|&seat| self.is_person(seat))
            .ok_or(SessionError::NoPerson)
    }

    /// The engine that analyses a person's turn: an engine in a seat, else
    /// the first one given.
    pub(crate) fn analysis_engine(&self) -> Option<&str> {
        self.seats
            .iter()
            .find_map(|s| match s {
                Seat::Engine(name) => Some(name.as_str()),
                Seat::Human => None,
            })
            .or_else(|| self.engines.first().map(|e| e.name.as_str()))
    }

    /// The engine to move at the end of `game`'s line, when it is stopped
    /// (the game waits for it), with its seat.
    pub(crate) fn stalled(&self, game: &Game) -> Option<(&EngineInfo, Colour)> {
        let record = game.record();
        if record.is_over() {
            return None;
        }
        let seat = record.position().to_move();
        match self.seat(seat) {
            Seat::Engine(name) => self
                .engine(name)
                .filter(|e| e.fault.is_some())
                .map(|e| (e, seat)),
            Seat::Human => None,
        }
    }

    /// Whether engine `name` may be given work: started and not stopped
    /// (one still starting is waited for).
    pub(crate) fn usable(&self, name: &str) -> bool {
        self.engine(name)
            .is_some_and(|e| e.fault.is_none() && e.status != "starting")
    }

    /// Whether engine `name` failed or stopped.
    pub(crate) fn is_down(&self, name: &str) -> bool {
        self.engine(name).is_some_and(|e| e.fault.is_some())
    }

    /// Whether engine `name` is thinking or analysing.
    pub(crate) fn searching(&self, name: &str) -> bool {
        self.engine(name)
            .is_some_and(|e| matches!(e.status, "thinking" | "analysing"))
    }

    /// The engines to start now.
    pub(crate) fn engines_to_start(&self) -> Vec<String> {
        self.engines
            .iter()
            .filter(|e| e.status == "starting")
            .map(|e| e.name.clone())
            .collect()
    }

    /// Engine `name` started and answered its first commands.
    pub(crate) fn engine_started(&mut self, name: &str, identity: Option<String>) {
        if let Some(e) = self.engine_mut(name) {
            e.status = "idle";
            e.fault = None;
            e.identity = identity;
        }
    }

    /// Engine `name` could not be started.
    pub(crate) fn engine_start_failed(&mut self, name: &str, why: String) {
        if let Some(e) = self.engine_mut(name) {
            e.status = "failed";
            e.fault = Some(why);
        }
    }

    /// Engine `name` misbehaved: stopped until restarted.
    pub(crate) fn engine_fault(&mut self, name: &str, why: String) {
        if let Some(e) = self.engine_mut(name) {
            e.status = "stopped";
            e.fault = Some(why);
        }
    }

    /// Starts a failed or stopped engine again; one that runs is left as
    /// it is.
    pub(crate) fn restart_engine(&mut self, name: &str) -> Result<(), SessionError> {
        let e = self
            .engine_mut(name)
            .ok_or_else(|| SessionError::NoSuchEngine(name.to_string()))?;
        if e.fault.take().is_some() {
            e.status = "starting";
            e.identity = None;
        }
        Ok(())
    }

    /// Sets what engine `name` is doing; says whether that changed.
    pub(crate) fn set_engine_status(&mut self, name: &str, status: &'static str) -> bool {
        match self.engine_mut(name) {
            Some(e) if e.status != status => {
                e.status = status;
                true
            }
            _ => false,
        }
    }

    fn engine(&self, name: &str) -> Option<&EngineInfo> {
        self.engines.iter().find(|e| e.name == name)
    }

    fn engine_mut(&mut self, name: &str) -> Option<&mut EngineInfo> {
        self.engines.iter_mut().find(|e| e.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oddity_rules::{AnyGame, GameKind, GameSpec, GameTree};

    fn players(names: &[&str]) -> Players {
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        Players::new(&names)
    }

    fn statuses(p: &Players) -> Vec<(&'static str, bool)> {
        p.engines()
            .iter()
            .map(|e| (e.status, e.fault.is_some()))
            .collect()
    }

    /// Engines start, fail, stop and restart; only a started one that has
    /// not stopped is given work.
    #[test]
    fn engines_start_fail_stop_and_restart() {
        let mut p = players(&["a", "b"]);
        assert_eq!(p.engines_to_start(), ["a", "b"]);
        assert!(!p.usable("a"));
        p.engine_started("a", Some("oddity 1.0".into()));
        p.engine_start_failed("b", "not found".into());
        assert_eq!(statuses(&p), [("idle", false), ("failed", true)]);
        assert!(p.usable("a") && !p.usable("b") && p.is_down("b"));
        assert!(p.set_engine_status("a", "thinking"));
        assert!(!p.set_engine_status("a", "thinking"));
        assert!(p.searching("a"));
        p.engine_fault("a", "exited".into());
        assert!(!p.usable("a") && !p.searching("a"));
        p.restart_engine("a").unwrap();
        assert_eq!(statuses(&p), [("starting", false), ("failed", true)]);
        assert_eq!(
            p.restart_engine("c"),
            Err(SessionError::NoSuchEngine("c".into()))
        );
    }

    /// A seat goes to a person or a known engine that has not failed; a
    /// new game's time is checked before anything changes.
    #[test]
    fn seats_are_checked_before_they_change() {
        let mut p = players(&["e", "bad"]);
        assert_eq!(p.labels(), ["human", "e"]);
        p.engine_start_failed("bad", "not found".into());
        assert_eq!(
            p.set_seats("human", "bad"),
            Err(SessionError::FailedEngine("bad".into()))
        );
        assert!(matches!(
            p.set_seats("nobody", "e"),
            Err(SessionError::UnknownPlayer { .. })
        ));
        assert_eq!(
            p.seat_new_game("e", "Human", Some(0.0)),
            Err(SessionError::Seconds(
                config::check_seconds(0.0).unwrap_err()
            ))
        );
        assert_eq!(p.labels(), ["human", "e"]);
        p.seat_new_game("e", "Human", None).unwrap();
        assert_eq!(
            (p.labels(), p.time()),
            (["e".into(), "human".into()], DEFAULT_TIME)
        );
        assert!(p.is_person(Colour::White) && !p.is_person(Colour::Black));
    }

    /// Only a game between engines pauses; seating a person resumes it.
    #[test]
    fn only_games_between_engines_pause() {
        let mut p = players(&["e"]);
        assert_eq!(p.pause(), Err(SessionError::PauseWithPerson));
        p.set_seats("e", "e").unwrap();
        p.pause().unwrap();
        assert!(p.paused());
        p.set_seats("e", "human").unwrap();
        assert!(!p.paused());
    }

    /// The engine in a seat analyses, else the first given; a person
    /// resigns their own seat, the one to move when people play both.
    #[test]
    fn who_analyses_and_who_resigns() {
        let mut p = players(&["a", "b"]);
        p.set_seats("human", "b").unwrap();
        assert_eq!(p.analysis_engine(), Some("b"));
        assert_eq!(p.resigning(Colour::White), Ok(Colour::Black));
        p.set_seats("human", "human").unwrap();
        assert_eq!(p.analysis_engine(), Some("a"));
        assert_eq!(p.resigning(Colour::White), Ok(Colour::White));
        p.set_seats("a", "b").unwrap();
        assert_eq!(p.resigning(Colour::Black), Err(SessionError::NoPerson));
        assert_eq!(players(&[]).analysis_engine(), None);
    }

    /// The game waits on a stopped engine in the seat to move, and a
    /// person plays only their own seat.
    #[test]
    fn a_stopped_engine_to_move_stalls_the_game() {
        let game = Game::new(GameTree::new(AnyGame::new(&GameSpec::default_for(
            GameKind::Odd,
        ))));
        let mut p = players(&["e"]);
        p.engine_started("e", None);
        p.set_seats("e", "human").unwrap();
        assert!(p.stalled(&game).is_none());
        assert!(matches!(
            p.may_play(&game),
            Err(SessionError::EngineToMove {
                seat: Colour::Black,
                ..
            })
        ));
        p.engine_fault("e", "exited".into());
        let (e, seat) = p.stalled(&game).expect("black's engine is stopped");
        assert_eq!((e.name.as_str(), seat), ("e", Colour::Black));
        p.set_seats("human", "e").unwrap();
        assert!(p.stalled(&game).is_none());
        assert_eq!(p.may_play(&game), Ok(Colour::Black));
    }
}
