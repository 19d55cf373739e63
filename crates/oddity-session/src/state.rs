//! The session's state and every change to it that the rules check: new
//! games, seats, the person's turns, undo, review, variations and records.
//!
//! The game is a tree of variations ([`GameTree`]); the *line* is the game
//! being played in it, from the start to the turn where play goes on. A
//! turn tried in a position looked back at starts a variation there (or
//! follows the one that already has that turn), and that variation becomes
//! the line; nothing is thrown away but what is deleted.

use serde::Serialize;

use crate::analyses::Analyses;
use crate::clocks::Clocks;
use crate::error::SessionError;
use crate::notices::Notices;
use crate::preview::{PendingStone, Preview};

use oddity_rules::game::{GameSpec, Rules};
use oddity_rules::kind::GameKind;
use oddity_rules::moves::{Colour, Turn};
use oddity_rules::position::AnyGame;
use oddity_rules::quote::is_one_line;
use oddity_rules::record::GameRecord;
use oddity_rules::sgf::{self, RecordInfo};
use oddity_rules::tree::{GameTree, NodeId};

/// Who plays a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person, at the page.
    Human,
    /// An engine, by its name.
    Engine(String),
}

impl Seat {
    pub(crate) fn label(&self) -> String {
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

/// The new-game form.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// `xodd`, `yodd`, `odd` or `onyx`.
    pub game: String,
    /// The board's size (default: the game's standard one).
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
    /// `human` or an engine name, for White.
    pub white: String,
    /// Engines' thinking time per turn, seconds.
    pub seconds: Option<f64>,
}

/// Work for the engines that the current state asks for.
#[derive(Clone)]
pub struct Job {
    /// The engine to do it.
    pub engine: String,
    /// The seat it thinks for.
    pub seat: Colour,
    /// The game up to the position to search.
    pub record: GameRecord,
    /// That position's node in the game tree.
    pub node: NodeId,
    /// True: choose and play a turn; false: analyse until told to stop.
    pub genmove: bool,
    /// The thinking time of a turn, seconds.
    pub seconds: f64,
    /// The state's generation when it was asked for: reports of older jobs are stale.
    pub generation: u64,
}

/// Thinking time per turn when the form gives none.
const DEFAULT_SECONDS: f64 = 3.0;
/// The longest thinking time per turn, seconds.
pub(crate) const MAX_SECONDS: f64 = 600.0;
/// The longest name of a variation, in characters.
pub(crate) const MAX_NAME: usize = 100;

/// The game a page shows, its players and their engines' work (see the crate docs).
pub struct Session {
    /// Every turn tried, with its variations.
    pub(crate) tree: GameTree,
    /// The game being played: the nodes of the tree from the root to the
    /// last turn (`line[k]` after k turns).
    pub(crate) line: Vec<NodeId>,
    /// The game along `line`.
    pub(crate) record: GameRecord,
    pub(crate) seats: [Seat; 2],
    pub(crate) seconds: f64,
    /// Turns shown on the board (the record's length unless reviewing).
    pub(crate) view: usize,
    /// What the engines found.
    pub(crate) analyses: Analyses,
    pub(crate) engines: Vec<EngineInfo>,
    pub(crate) notices: Notices,
    /// Names written to a downloaded record (`PB`, `PW`).
    pub(crate) player_names: [String; 2],
    pub(crate) clocks: Clocks,
    /// Engines do not move until resumed.
    pub(crate) paused: bool,
    /// Bumped by every change that makes a running engine job stale.
    pub(crate) generation: u64,
    /// Bumped by every change the page should see.
    pub(crate) version: u64,
}

impl Session {
    /// A new session: Odd at its standard size, a person as Black and the first of `engines` (if any) as White, every engine starting.
    pub fn new(engines: &[String]) -> Session {
        let spec = GameSpec::default_for(GameKind::Odd);
        let white = engines
            .first()
            .map_or(Seat::Human, |e| Seat::Engine(e.clone()));
        let start = AnyGame::new(&spec);
        let mut s = Session {
            tree: GameTree::new(start.clone()),
            line: vec![GameTree::ROOT],
            record: GameRecord::new(start),
            seats: [Seat::Human, white],
            seconds: DEFAULT_SECONDS,
            view: 0,
            analyses: Analyses::default(),
            engines: engines
                .iter()
                .map(|name| EngineInfo {
                    name: name.clone(),
                    status: "starting",
                    fault: None,
                    identity: None,
                })
                .collect(),
            notices: Notices::default(),
            player_names: [String::new(), String::new()],
            clocks: Clocks::default(),
            paused: false,
            generation: 0,
            version: 0,
        };
        s.name_players();
        s
    }

    /// Counts every change: the page is told of a state whose version moved.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Counts the changes that make engine work stale.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The game's record along the line being played.
    pub fn record(&self) -> &GameRecord {
        &self.record
    }

    /// The turn viewed: the position after that many turns of the line.
    pub fn view(&self) -> usize {
        self.view
    }

    /// A change the page should see.
    pub(crate) fn touched(&mut self) {
        self.version += 1;
    }

    /// A change of the game: running engine work is stale.
    pub(crate) fn changed(&mut self) {
        self.generation += 1;
        self.retime();
        self.touched();
    }

    /// A new game or record (`tree`, played along its main line): nothing
    /// known of its positions.
    pub(crate) fn forget(&mut self, tree: GameTree) {
        self.tree = tree;
        self.set_line(self.tree.main_line());
        self.view = self.line.len() - 1;
        self.analyses.clear();
        self.clocks.clear();
        self.paused = false;
    }

    /// Plays on along `line` (nodes of the tree from the root).
    pub(crate) fn set_line(&mut self, line: Vec<NodeId>) {
        self.record = self.tree.record(*line.last().expect("the root"));
        self.line = line;
    }

    /// The node of the position viewed.
    pub(crate) fn viewed_node(&self) -> NodeId {
        self.line[self.view]
    }

    /// The position viewed.
    pub(crate) fn viewed_position(&self) -> AnyGame {
        if self.at_end() {
            self.record.position().clone()
        } else {
            self.record.position_after(self.view)
        }
    }

    /// Drops what was kept about nodes no longer in the tree.
    fn forget_removed(&mut self) {
        let tree = &self.tree;
        self.analyses.retain(|node| tree.contains(node));
        self.clocks.retain(|node| tree.contains(node));
    }

    /// The clock runs while the player to move can play: not after the
    /// end, not while paused, not for a stopped engine.
    pub(crate) fn clock_should_run(&self) -> bool {
        !self.record.is_over() && !self.paused && self.stalled().is_none()
    }

    /// Starts or stops the clock of the turn being played as the state
    /// asks.
    pub(crate) fn retime(&mut self) {
        self.clocks.run(self.clock_should_run());
    }

    pub(crate) fn name_players(&mut self) {
        for (i, seat) in self.seats.iter().enumerate() {
            self.player_names[i] = match seat {
                Seat::Human => "human".into(),
                Seat::Engine(name) => name.clone(),
            };
        }
    }

    /// The player named `text`; an engine that failed to start is refused.
    pub(crate) fn parse_seat(&self, text: &str) -> Result<Seat, SessionError> {
        if text.eq_ignore_ascii_case("human") {
            return Ok(Seat::Human);
        }
        if let Some(e) = self.engines.iter().find(|e| e.name == text) {
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

    /// Starts the game of the new-game form, or refuses it changing nothing.
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
        self.seats = seats;
        self.seconds = seconds;
        self.forget(GameTree::new(AnyGame::new(&spec)));
        self.notices.clear();
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
        self.notices.clear();
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
    pub(crate) fn stalled(&self) -> Option<&EngineInfo> {
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

    pub(crate) fn seat(&self, c: Colour) -> &Seat {
        &self.seats[c.index()]
    }

    pub(crate) fn at_end(&self) -> bool {
        self.view == self.record.moves().len()
    }

    /// Refuses a person's turn unless a person plays the seat to move in
    /// the position viewed: at the end of the game, or earlier (a turn
    /// there starts a variation).
    pub(crate) fn human_may_play(&self) -> Result<Colour, SessionError> {
        let pos = self.viewed_position();
        if pos.is_over() || (self.at_end() && self.record.is_over()) {
            return Err(SessionError::GameOver);
        }
        let seat = pos.to_move();
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
        match self.human_may_play() {
            Ok(_) => Preview::of(&self.viewed_position(), stones),
            Err(why) => Preview::refused(why.to_string()),
        }
    }

    /// Plays a person's turn given as a token (`pass`, `swap` and `resign`
    /// included) in the position viewed.
    pub fn play_human(&mut self, token: &str) -> Result<(), SessionError> {
        if token.trim().eq_ignore_ascii_case("resign") {
            return self.resign();
        }
        let seat = self.human_may_play()?;
        let turn = self.viewed_position().parse_turn(token.trim())?;
        self.play_in_view(seat, turn)?;
        self.notices.clear();
        self.changed();
        Ok(())
    }

    /// Plays `turn` for `seat` in the position viewed. At the end of the
    /// line it goes on with the game; earlier, the game's own next turn
    /// steps forward, and any other starts a variation there (or follows
    /// the one that has that turn already), which becomes the line.
    pub(crate) fn play_in_view(&mut self, seat: Colour, turn: Turn) -> Result<(), SessionError> {
        let parent = self.viewed_node();
        let known = self.tree.child_with(parent, seat, turn);
        if known.is_some() && known == self.line.get(self.view + 1).copied() {
            self.view += 1;
            return Ok(());
        }
        let topo = self.record.start().topology();
        let node = self
            .tree
            .play(parent, seat, turn)
            .map_err(|e| SessionError::Illegal(e.describe(topo)))?;
        let mut line = self.line[..=self.view].to_vec();
        line.push(node);
        self.set_line(line);
        self.view = self.line.len() - 1;
        if known.is_none() {
            self.clocks.turn_done(node);
        } else {
            self.clocks.restart_turn();
        }
        Ok(())
    }

    /// The person resigns: the human seat (the one to move when both are).
    pub fn resign(&mut self) -> Result<(), SessionError> {
        if self.record.is_over() {
            return Err(SessionError::GameOver);
        }
        if !self.at_end() {
            return Err(SessionError::NotAtEnd {
                view: self.view,
                turns: self.record.moves().len(),
            });
        }
        let to_move = self.record.position().to_move();
        let seat = if *self.seat(to_move) == Seat::Human {
            to_move
        } else if *self.seat(to_move.opposite()) == Seat::Human {
            to_move.opposite()
        } else {
            return Err(SessionError::NoPerson);
        };
        self.play_in_view(seat, Turn::Resign)?;
        self.changed();
        Ok(())
    }

    /// Takes back turns until a person is to move (one turn when engines
    /// play both seats or people both). The turns taken back are
    /// forgotten, unless a variation branches from them: then they stay in
    /// the tree.
    pub fn undo(&mut self) -> Result<(), SessionError> {
        let last = self.line.len() - 1;
        if last == 0 {
            return Err(SessionError::NothingToUndo);
        }
        let anyone_human = self.seats.contains(&Seat::Human);
        let mut end = last;
        loop {
            end -= 1;
            let seat = self.record.position_after(end).to_move();
            let human_to_move = *self.seat(seat) == Seat::Human;
            if !anyone_human || human_to_move || end == 0 {
                break;
            }
        }
        let first_gone = self.line[end + 1];
        if self.tree.subtree_len(first_gone) == last - end {
            self.tree.remove(first_gone);
            self.forget_removed();
        }
        self.set_line(self.line[..=end].to_vec());
        self.clocks.restart_turn();
        self.view = end;
        self.notices.clear();
        self.changed();
        Ok(())
    }

    /// Shows the position after `turn` turns of the line (reviewing).
    pub fn set_view(&mut self, turn: usize) -> Result<(), SessionError> {
        let turns = self.record.moves().len();
        if turn > turns {
            return Err(SessionError::NoSuchTurn { turn, turns });
        }
        self.view = turn;
        self.changed();
        Ok(())
    }

    /// Shows node `node` of the tree: the line becomes the variation
    /// through it, on to its end by first variations.
    pub fn go_to_node(&mut self, node: NodeId) -> Result<(), SessionError> {
        if !self.tree.contains(node) {
            return Err(SessionError::NoSuchNode(node));
        }
        let mut line = self.tree.path(node);
        self.view = line.len() - 1;
        line.extend(self.tree.line_from(node).into_iter().skip(1));
        if line != self.line {
            self.set_line(line);
            self.clocks.restart_turn();
        }
        self.changed();
        Ok(())
    }

    /// Plays on from the position viewed: the line ends there, and the
    /// turns after it stay in the tree as a variation.
    pub fn branch_here(&mut self) {
        if !self.at_end() {
            self.set_line(self.line[..=self.view].to_vec());
            self.clocks.restart_turn();
            self.changed();
        }
    }

    /// Names the variation that starts at `node` (an empty name removes
    /// it).
    pub fn name_node(&mut self, node: NodeId, name: &str) -> Result<(), SessionError> {
        if !self.tree.contains(node) {
            return Err(SessionError::NoSuchNode(node));
        }
        let name = name.trim();
        if name.chars().count() > MAX_NAME || !is_one_line(name) {
            return Err(SessionError::BadName);
        }
        self.tree.set_name(node, Some(name.to_string()));
        self.touched();
        Ok(())
    }

    /// Deletes `node` and every turn after it. When the line ran through
    /// it, play goes on from the turn before it.
    pub fn delete_node(&mut self, node: NodeId) -> Result<(), SessionError> {
        if node == GameTree::ROOT {
            return Err(SessionError::DeleteStart);
        }
        let parent = self
            .tree
            .parent(node)
            .ok_or(SessionError::NoSuchNode(node))?;
        self.tree.remove(node);
        self.forget_removed();
        if let Some(k) = self.line.iter().position(|&n| n == node) {
            self.set_line(self.tree.path(parent));
            self.view = self.view.min(k - 1);
            self.clocks.restart_turn();
        }
        self.notices.clear();
        self.changed();
        Ok(())
    }

    /// Opens game `game` (from 1) of a record or collection to review it,
    /// its variations included: people in both seats, the last turn of
    /// the main line shown. Returns how many games the file holds.
    pub fn load_sgf(&mut self, text: &str, game: usize) -> Result<usize, SessionError> {
        let index = game.checked_sub(1).ok_or(SessionError::GameZero)?;
        let (tree, count) = sgf::read_game_tree(text, index).map_err(SessionError::Sgf)?;
        let tree = tree.ok_or(SessionError::NoSuchGame { game, count })?;
        self.seats = [Seat::Human, Seat::Human];
        self.forget(tree);
        self.notices.record_opened(game, count);
        self.name_players();
        self.changed();
        Ok(count)
    }

    /// The game as SGF, as `printsgf` writes it, with its variations; the
    /// result is the main line's.
    pub fn sgf(&self) -> String {
        let main = self.tree.main_line();
        let result = self
            .tree
            .record(*main.last().expect("the root"))
            .outcome()
            .map(|o| o.score());
        let info = RecordInfo {
            black: Some(self.player_names[0].clone()),
            white: Some(self.player_names[1].clone()),
            result,
            ..Default::default()
        };
        sgf::write_tree(&self.tree, &info)
    }

    /// `B+3`, `W+`, `B+R`, as `final_score` gives the result.
    pub(crate) fn result_code(&self) -> Option<String> {
        self.record.outcome().map(|o| o.score())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyses::Analysis;
    use crate::overlay::Candidate;

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

    /// An analysis of the position after `turn` turns of the line.
    fn analysis(s: &Session, turn: usize, genmove: bool) -> Analysis {
        Analysis {
            node: s.line[turn],
            engine: "e".into(),
            seat: if turn.is_multiple_of(2) {
                Colour::Black
            } else {
                Colour::White
            },
            turn,
            candidates: vec![candidate("B:A1", 10, 0.5)],
            heat: Vec::new(),
            best: Vec::new(),
            genmove,
        }
    }

    fn shown(s: &Session) -> Option<(usize, bool)> {
        s.state().analysis.map(|a| (a.turn, a.genmove))
    }

    #[test]
    fn analyses_stay_with_their_positions() {
        let mut s = Session::new(&["e".to_string()]);
        s.new_game(&form("odd", 3, "human", "e")).unwrap();
        s.set_analysis_wanted(true).unwrap();
        s.analysis_update(s.generation(), analysis(&s, 0, false));
        assert_eq!(shown(&s), Some((0, false)));
        // A stale update is dropped.
        s.analysis_update(s.generation() - 1, analysis(&s, 0, true));
        assert_eq!(shown(&s), Some((0, false)));
        s.play_human("B:C3").unwrap();
        // The person's analysis until the engine's arrives.
        assert_eq!(shown(&s), Some((0, false)));
        s.analysis_update(s.generation(), analysis(&s, 1, true));
        s.engine_turn(s.generation(), Colour::White, "W:A1")
            .unwrap();
        // After its turn, the engine's last analysis stays.
        assert_eq!(shown(&s), Some((1, true)));
        s.set_view(0).unwrap();
        assert_eq!(shown(&s), Some((0, false)));
        s.set_view(2).unwrap();
        // Turning analysis off drops what it found, not the engine's.
        s.set_analysis_wanted(false).unwrap();
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
        s.analysis_update(s.generation(), analysis(&s, 1, true));
        s.engine_turn(s.generation(), Colour::White, "W:A1")
            .unwrap();
        s.play_human("B:B2").unwrap();
        s.analysis_update(s.generation(), analysis(&s, 3, true));
        assert_eq!(shown(&s), Some((3, true)));
        s.engine_fault("e", "engine exited (signal: 9)".into());
        // The fallback is the analysis of the turn before, by the person's
        // request or none: here none.
        assert_eq!(shown(&s), None);
        assert_eq!(s.analyses.winrates(&s.line)[3], None);
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

    fn tokens(s: &Session) -> Vec<String> {
        s.record()
            .moves()
            .iter()
            .map(|(_, t)| s.record().start().token(t))
            .collect()
    }

    /// A turn tried in a position looked back at starts a variation; the
    /// game's own next turn only steps forward; the variations are walked,
    /// named, deleted and saved.
    #[test]
    fn turns_tried_while_reviewing_make_variations() {
        let mut s = Session::new(&[]);
        s.new_game(&form("odd", 3, "human", "human")).unwrap();
        for t in ["B:A1", "W:B1", "B:C1"] {
            s.play_human(t).unwrap();
        }
        let main = s.line.clone();
        s.set_view(1).unwrap();
        s.play_human("W:B1").unwrap();
        assert_eq!((s.view, s.line.clone()), (2, main.clone()));
        s.set_view(1).unwrap();
        s.play_human("W:C3").unwrap();
        assert_eq!(tokens(&s), ["B:A1", "W:C3"]);
        assert!(s.at_end());
        let branch = s.viewed_node();
        s.play_human("B:B2").unwrap();
        assert_eq!(s.tree.len(), 6);
        // Walking: to the main line's last turn and back into the variation.
        s.go_to_node(main[3]).unwrap();
        assert_eq!(tokens(&s), ["B:A1", "W:B1", "B:C1"]);
        s.go_to_node(branch).unwrap();
        assert_eq!((s.view, tokens(&s).len()), (2, 3));
        assert!(s.go_to_node(99).is_err());
        // Named, and saved with its name; the main line stays first.
        s.name_node(branch, "  try C3 ").unwrap();
        assert_eq!(s.tree.name(branch), Some("try C3"));
        assert!(s.name_node(branch, "a\nb").is_err());
        assert!(s.name_node(branch, &"x".repeat(101)).is_err());
        let text = s.sgf();
        assert!(text.contains("(;W[W:C3]N[try C3]"), "{text}");
        assert_eq!(sgf::read(&text).unwrap().moves().len(), 3);
        let mut t = Session::new(&[]);
        t.load_sgf(&text, 1).unwrap();
        assert_eq!((t.tree.len(), tokens(&t).len()), (6, 3));
        assert_eq!(t.sgf(), text);
        // Deleted: the line ran through it, so play goes on before it.
        s.delete_node(branch).unwrap();
        assert_eq!((tokens(&s), s.view), (vec!["B:A1".to_string()], 1));
        assert_eq!(s.tree.len(), 4);
        assert!(s.delete_node(GameTree::ROOT).is_err());
        assert!(s.delete_node(branch).is_err());
    }

    /// Play from here keeps the later turns as a variation; undo forgets
    /// the turns it takes back unless a variation hangs from them.
    #[test]
    fn play_from_here_and_undo_keep_variations() {
        let mut s = Session::new(&[]);
        s.new_game(&form("odd", 3, "human", "human")).unwrap();
        for t in ["B:A1", "W:B1", "B:C1"] {
            s.play_human(t).unwrap();
        }
        s.set_view(1).unwrap();
        s.branch_here();
        assert_eq!((tokens(&s).len(), s.tree.len()), (1, 4));
        s.play_human("W:C3").unwrap();
        assert_eq!(s.tree.children(s.line[1]).len(), 2);
        s.undo().unwrap();
        // W:C3 hung from nothing else: forgotten.
        assert_eq!((tokens(&s).len(), s.tree.len()), (1, 4));
        s.undo().unwrap();
        // B:A1 carries the main line's W:B1: kept.
        assert_eq!((tokens(&s).len(), s.tree.len()), (0, 4));
    }

    /// An engine's turn in a variation goes on with it; the analysis of a
    /// node stays with that node.
    #[test]
    fn engines_play_on_in_a_variation() {
        let mut s = Session::new(&["e".to_string()]);
        s.engine_started("e", None);
        s.new_game(&form("odd", 3, "human", "e")).unwrap();
        s.play_human("B:C3").unwrap();
        s.engine_turn(s.generation(), Colour::White, "W:A1")
            .unwrap();
        s.set_view(0).unwrap();
        assert!(s.next_job().is_none());
        s.play_human("B:B2").unwrap();
        let job = s.next_job().expect("the engine answers the variation");
        assert!(job.genmove && job.record.moves().len() == 1);
        s.analysis_update(s.generation(), analysis(&s, 1, true));
        s.engine_turn(s.generation(), Colour::White, "W:A2")
            .unwrap();
        assert_eq!(tokens(&s), ["B:B2", "W:A2"]);
        assert_eq!(shown(&s), Some((1, true)));
        s.go_to_node(s.tree.main_line()[1]).unwrap();
        assert_eq!(tokens(&s), ["B:C3", "W:A1"]);
        assert_eq!(shown(&s), None);
    }

    /// "Analyse my turn" goes off when its engine stops, and cannot be
    /// turned on while it is stopped.
    #[test]
    fn analysis_is_unticked_when_its_engine_stops() {
        let mut s = Session::new(&["e".to_string()]);
        s.engine_started("e", None);
        s.new_game(&form("odd", 3, "human", "e")).unwrap();
        s.set_analysis_wanted(true).unwrap();
        s.engine_fault("e", "engine exited (signal: 9)".into());
        assert!(!s.analyses.wanted());
        let e = s.set_analysis_wanted(true).unwrap_err();
        assert!(e.to_string().contains("engine e is stopped"), "{e}");
        s.restart_engine("e").unwrap();
        s.engine_started("e", None);
        s.set_analysis_wanted(true).unwrap();
    }

    /// An engine that failed to start cannot be given a seat.
    #[test]
    fn a_failed_engine_is_refused_for_a_seat() {
        let mut s = Session::new(&["e".to_string(), "bad".to_string()]);
        s.engine_started("e", None);
        s.engine_start_failed("bad", "cannot start '/nonexistent/prog'".into());
        let e = s
            .new_game(&form("odd", 3, "human", "bad"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("engine bad failed to start"), "{e}");
        assert!(s.set_seats("bad", "human").is_err());
        s.new_game(&form("odd", 3, "human", "e")).unwrap();
    }

    #[test]
    fn onyx_results_name_the_chain() {
        let mut s = Session::new(&[]);
        s.new_game(&form("onyx", 4, "human", "human")).unwrap();
        for t in ["A1", "D4", "A2", "D3", "A3", "D2", "A4"] {
            s.play_human(t).unwrap();
        }
        let st = s.state();
        let r = st.result.expect("black has connected");
        assert_eq!(r.winner, "b");
        assert_eq!(r.chain, vec!["A1", "A2", "A3", "A4"]);
        assert!(r.text.contains("rows 1 and 4"), "{}", r.text);
        assert_eq!(r.code, "B+");
    }
}
