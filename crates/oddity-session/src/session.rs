//! The session: its parts put together, and every change the page or an
//! engine asks for, made whole across the parts or refused changing
//! nothing.
//!
//! Each part keeps its own state: [`Game`] the game tree and the position
//! viewed, [`Players`] the seats and the engines, [`Clocks`] the time of
//! each turn, [`Analyses`] what the engines found and [`Notices`] the
//! message for the person. The session holds them and two counters: the
//! version the page is told of and the generation that makes engine work
//! stale.

use oddity_rules::{
    AnyGame, Colour, GameKind, GameRecord, GameSpec, GameTree, NodeId, Rules, Turn, sgf,
};

use crate::analyses::{Analyses, Analysis};
use crate::api::{Answer, NewGame, Request};
use crate::clocks::{Clocks, KeptClocks};
use crate::error::SessionError;
use crate::game::{Game, Played};
use crate::jobs::{EngineTurnError, Job};
use crate::notices::Notices;
use crate::players::{Players, Seat};
use crate::preview::{PendingStone, Preview};
use crate::view::State;

/// The game a page shows, its players and their engines' work (see the crate docs).
pub struct PageSession {
    game: Game,
    players: Players,
    clocks: Clocks,
    analyses: Analyses,
    notices: Notices,
    /// Bumped by every change that makes a running engine job stale.
    generation: u64,
    /// Bumped by every change the page should see.
    version: u64,
}

impl PageSession {
    /// A new session: Odd at its standard size, a person as Black and the first of `engines` (if any) as White, every engine starting.
    pub fn new(engines: &[String]) -> PageSession {
        let start = AnyGame::new(&GameSpec::default_for(GameKind::Odd));
        PageSession {
            game: Game::new(GameTree::new(start)),
            players: Players::new(engines),
            clocks: Clocks::default(),
            analyses: Analyses::default(),
            notices: Notices::default(),
            generation: 0,
            version: 0,
        }
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
        self.game.record()
    }

    /// The turn viewed: the position after that many turns of the line.
    pub fn view(&self) -> usize {
        self.game.view()
    }

    /// Everything the page draws, for the position viewed.
    pub fn state(&self) -> State {
        State::new(
            self.version,
            &self.game,
            &self.players,
            &self.analyses,
            &self.clocks,
            self.notices.shown(self.players.stalled(&self.game)),
            self.next_job(),
        )
    }

    /// Answers `request`: a change is made whole or refused with its
    /// reason, changing nothing.
    pub fn answer(&mut self, request: Request) -> Result<Answer, SessionError> {
        match request {
            Request::Preview(stones) => return Ok(Answer::Preview(self.preview(&stones))),
            Request::New(form) => self.new_game(&form)?,
            Request::Play(token) => self.play_human(&token)?,
            Request::Undo => self.undo()?,
            Request::Resign => self.resign()?,
            Request::Seats { black, white } => self.set_seats(&black, &white)?,
            Request::Analyze(on) => self.set_analysis_wanted(on)?,
            Request::View(turn) => self.set_view(turn)?,
            Request::Branch => self.branch_here(),
            Request::Node(node) => self.go_to_node(node)?,
            Request::Name { node, name } => self.name_node(node, &name)?,
            Request::Delete(node) => self.delete_node(node)?,
            Request::Restart(name) => self.restart_engine(&name)?,
            Request::Pause(on) => self.set_paused(on)?,
        }
        Ok(Answer::Done)
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
        self.players
            .seat_new_game(&form.black, &form.white, form.seconds)?;
        self.forget(GameTree::new(AnyGame::new(&spec)));
        self.notices.clear();
        self.changed();
        Ok(())
    }

    /// Changes who plays each seat, keeping the game. An old engine fault
    /// is no longer news (a stopped engine still seated is reported anew).
    pub fn set_seats(&mut self, black: &str, white: &str) -> Result<(), SessionError> {
        self.players.set_seats(black, white)?;
        self.notices.clear();
        self.changed();
        Ok(())
    }

    /// Stops or resumes the engines of a game between engines. A turn an
    /// engine is thinking about is abandoned and thought again on resume.
    pub fn set_paused(&mut self, on: bool) -> Result<(), SessionError> {
        if on {
            self.players.pause()?;
        } else {
            self.players.resume();
        }
        self.changed();
        Ok(())
    }

    /// Checks a turn being composed from one or two stones.
    pub fn preview(&self, stones: &[PendingStone]) -> Preview {
        match self.players.may_play(&self.game) {
            Ok(_) => Preview::of(&self.game.viewed_position(), stones),
            Err(why) => Preview::refused(why.to_string()),
        }
    }

    /// Plays a person's turn given as a token (`pass`, `swap` and `resign`
    /// included) in the position viewed.
    pub fn play_human(&mut self, token: &str) -> Result<(), SessionError> {
        if token.trim().eq_ignore_ascii_case("resign") {
            return self.resign();
        }
        let seat = self.players.may_play(&self.game)?;
        let turn = self.game.viewed_position().parse_turn(token.trim())?;
        self.play_in_view(seat, turn)?;
        self.notices.clear();
        self.changed();
        Ok(())
    }

    /// The person resigns: the human seat (the one to move when both are).
    pub fn resign(&mut self) -> Result<(), SessionError> {
        let to_move = self.game.resignable()?;
        let seat = self.players.resigning(to_move)?;
        self.play_in_view(seat, Turn::Resign)?;
        self.changed();
        Ok(())
    }

    /// Takes back turns until a person is to move (one turn when engines
    /// play both seats or people both). The turns taken back are
    /// forgotten, unless a variation branches from them: then they stay in
    /// the tree.
    pub fn undo(&mut self) -> Result<(), SessionError> {
        let anyone_human = self.players.has_person();
        let players = &self.players;
        self.game
            .undo(|to_move| !anyone_human || players.is_person(to_move))?;
        self.forget_removed();
        self.clocks.restart_turn();
        self.notices.clear();
        self.changed();
        Ok(())
    }

    /// Shows the position after `turn` turns of the line (reviewing).
    pub fn set_view(&mut self, turn: usize) -> Result<(), SessionError> {
        self.game.set_view(turn)?;
        self.changed();
        Ok(())
    }

    /// Shows node `node` of the tree: the line becomes the variation
    /// through it, on to its end by first variations.
    pub fn go_to_node(&mut self, node: NodeId) -> Result<(), SessionError> {
        if self.game.go_to(node)? {
            self.clocks.restart_turn();
        }
        self.changed();
        Ok(())
    }

    /// Plays on from the position viewed: the line ends there, and the
    /// turns after it stay in the tree as a variation.
    pub fn branch_here(&mut self) {
        if self.game.branch_here() {
            self.clocks.restart_turn();
            self.changed();
        }
    }

    /// Names the variation that starts at `node` (an empty name removes
    /// it).
    pub fn name_node(&mut self, node: NodeId, name: &str) -> Result<(), SessionError> {
        self.game.name(node, name)?;
        self.touched();
        Ok(())
    }

    /// Deletes `node` and every turn after it. When the line ran through
    /// it, play goes on from the turn before it.
    pub fn delete_node(&mut self, node: NodeId) -> Result<(), SessionError> {
        let line_changed = self.game.delete(node)?;
        self.forget_removed();
        if line_changed {
            self.clocks.restart_turn();
        }
        self.notices.clear();
        self.changed();
        Ok(())
    }

    /// Opens game `game` (from 1) of a record or collection to review it,
    /// its variations included: people in both seats, the last turn of
    /// the main line shown. A variation with a turn that does not read is
    /// cut there, and the notice says which and why. Returns how many
    /// games the file holds.
    pub fn load_sgf(&mut self, text: &str, game: usize) -> Result<usize, SessionError> {
        let index = game.checked_sub(1).ok_or(SessionError::GameZero)?;
        let (read, count) = sgf::read_game_tree_lenient(text, index).map_err(SessionError::Sgf)?;
        let (tree, cuts) = read.ok_or(SessionError::NoSuchGame { game, count })?;
        self.players.seat_people();
        self.forget(tree);
        self.notices.record_opened(game, count, &cuts);
        self.changed();
        Ok(count)
    }

    /// The game as SGF, as `printsgf` writes it, with its variations; the
    /// result is the main line's.
    pub fn sgf(&self) -> String {
        self.game.sgf(self.players.labels())
    }

    /// The clocks, to be kept with [`PageSession::sgf`] across a reload of the
    /// page.
    pub fn kept_clocks(&self) -> KeptClocks {
        self.clocks.keep(self.game.tree())
    }

    /// Sets the clocks kept with this game's SGF before a reload: the time
    /// of each turn, and the time of the turn being played, whose clock
    /// runs on from there when the game has it run.
    pub fn restore_clocks(&mut self, kept: &KeptClocks) {
        self.clocks.restore(self.game.tree(), kept);
        self.touched();
    }

    /// Turning analysis off also drops what it found; what engines
    /// thought on their own turns stays. Turning it on is refused while
    /// the engine that would analyse is stopped or failed.
    pub fn set_analysis_wanted(&mut self, on: bool) -> Result<(), SessionError> {
        if on
            && let Some(engine) = self.players.analysis_engine()
            && self.players.is_down(engine)
        {
            return Err(SessionError::EngineDown(engine.to_string()));
        }
        self.analyses.set_wanted(on);
        self.changed();
        Ok(())
    }

    /// Starts a failed or stopped engine again (the engine thread starts
    /// it at once); an engine that runs is left as it is.
    pub fn restart_engine(&mut self, name: &str) -> Result<(), SessionError> {
        self.players.restart_engine(name)?;
        self.notices.clear();
        self.changed();
        Ok(())
    }

    /// The engines the engine thread should start now.
    pub fn engines_to_start(&self) -> Vec<String> {
        self.players.engines_to_start()
    }

    /// An engine started and answered its first commands.
    pub fn engine_started(&mut self, name: &str, identity: Option<String>) {
        self.players.engine_started(name, identity);
        self.notices.engine_started(name);
        self.touched();
    }

    /// An engine's search tree reached its memory bound and stopped
    /// growing; the engine plays on. The person is told once after each
    /// start of the engine.
    pub fn engine_tree_full(&mut self, name: &str) {
        if self.notices.tree_full(name) {
            self.touched();
        }
    }

    /// An engine could not be started (missing program, no answer, a
    /// refused `protocol_version`): listed as failed, with the reason.
    pub fn engine_start_failed(&mut self, name: &str, why: String) {
        self.players.engine_start_failed(name, why);
        self.forget_analyses_of(name);
        self.retime();
        self.touched();
    }

    /// Sets what an engine is doing (`idle`, `thinking`, `analysing`, ...).
    pub fn set_engine_status(&mut self, name: &str, status: &'static str) {
        if self.players.set_engine_status(name, status) {
            self.touched();
        }
    }

    /// An engine misbehaved: it is stopped until restarted; the game stays.
    pub fn engine_fault(&mut self, name: &str, why: String) {
        self.notices.engine_stopped(name, &why);
        self.players.engine_fault(name, why);
        self.forget_analyses_of(name);
        self.retime();
        self.touched();
    }

    /// The engine work the state asks for now, if any.
    pub fn next_job(&self) -> Option<Job> {
        let game = &self.game;
        let record = game.record();
        if record.is_over() && game.at_end() {
            return None;
        }
        let seat = record.position().to_move();
        if game.at_end()
            && !self.players.paused()
            && let Seat::Engine(name) = self.players.seat(seat)
        {
            return self.players.usable(name).then(|| Job {
                engine: name.clone(),
                seat,
                record: record.clone(),
                node: game.viewed_node(),
                genmove: true,
                time: self.players.time(),
                generation: self.generation,
            });
        }
        if !self.analyses.wanted() {
            return None;
        }
        let record = record.truncated(game.view());
        if record.is_over() {
            return None;
        }
        let engine = self.players.analysis_engine()?;
        self.players.usable(engine).then(|| Job {
            engine: engine.to_string(),
            seat: record.position().to_move(),
            record,
            node: game.viewed_node(),
            genmove: false,
            time: self.players.time(),
            generation: self.generation,
        })
    }

    /// New analysis from a job of `generation` (ignored when stale).
    pub fn analysis_update(&mut self, generation: u64, analysis: Analysis) {
        if generation != self.generation || !self.game.tree().contains(analysis.node) {
            return;
        }
        self.analyses.add(analysis);
        self.touched();
    }

    /// An engine's answer to `genmove`: played if still wanted and legal.
    pub fn engine_turn(
        &mut self,
        generation: u64,
        seat: Colour,
        token: &str,
    ) -> Result<(), EngineTurnError> {
        if generation != self.generation {
            return Ok(());
        }
        let pos = self.game.record().position();
        let turn = Turn::parse(token, pos.kind(), pos.topology(), seat)
            .map_err(EngineTurnError::Malformed)?;
        // The job was for the end of the line, and nothing has changed
        // since (same generation): the engine's turn goes on with the game.
        self.game.view_end();
        self.play_in_view(seat, turn)
            .map_err(|e| EngineTurnError::Illegal {
                token: token.to_string(),
                why: e.to_string(),
            })?;
        self.changed();
        Ok(())
    }

    /// A change the page should see.
    fn touched(&mut self) {
        self.version += 1;
    }

    /// A change of the game: running engine work is stale.
    fn changed(&mut self) {
        self.generation += 1;
        self.retime();
        self.touched();
    }

    /// Starts or stops the clock of the turn being played as the state
    /// asks: it runs while the player to move can play (not after the
    /// end, not while paused, not for a stopped engine).
    fn retime(&mut self) {
        let run = !self.game.record().is_over()
            && !self.players.paused()
            && self.players.stalled(&self.game).is_none();
        self.clocks.run(run);
    }

    /// A new game or record (`tree`, played along its main line): nothing
    /// known of its positions.
    fn forget(&mut self, tree: GameTree) {
        self.game = Game::new(tree);
        self.analyses.clear();
        self.clocks.clear();
        self.players.resume();
    }

    /// Drops what was kept about nodes no longer in the tree.
    fn forget_removed(&mut self) {
        let tree = self.game.tree();
        self.analyses.retain(|node| tree.contains(node));
        self.clocks.retain(|node| tree.contains(node));
    }

    /// Drops what a stopped engine found, but for the turns it played;
    /// analysis asked of a person's turn is no longer asked when its
    /// engine stops.
    fn forget_analyses_of(&mut self, name: &str) {
        let tree = self.game.tree();
        self.analyses
            .forget_engine(name, |node| !tree.children(node).is_empty());
        if self.players.analysis_engine() == Some(name) {
            self.analyses.cancel_request();
        }
    }

    /// Plays `turn` for `seat` in the position viewed, and keeps the
    /// time of a new turn.
    fn play_in_view(&mut self, seat: Colour, turn: Turn) -> Result<(), SessionError> {
        match self.game.play(seat, turn)? {
            Played::Stepped => {}
            Played::Followed => self.clocks.restart_turn(),
            Played::Added(node) => self.clocks.turn_done(node),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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

    #[test]
    fn undo_goes_back_to_the_person() {
        let mut s = PageSession::new(&["e".to_string()]);
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
        let mut s = PageSession::new(&["e".to_string()]);
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
        let mut s = PageSession::new(&[]);
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
    fn analysis(s: &PageSession, turn: usize, genmove: bool) -> Analysis {
        Analysis {
            node: s.game.line()[turn],
            engine: "e".into(),
            seat: if turn.is_multiple_of(2) {
                Colour::Black
            } else {
                Colour::White
            },
            turn,
            candidates: vec![Candidate::bare("B:A1", 10, 0.5)],
            heat: Vec::new(),
            best: Vec::new(),
            genmove,
        }
    }

    /// The turn and kind of the analysis shown.
    fn shown(s: &PageSession) -> Option<(usize, bool)> {
        let shown = s.analyses.shown(s.game.line(), s.view());
        // The page receives the same analysis.
        let state = serde_json::to_value(s.state()).unwrap();
        assert_eq!(
            state["analysis"]["turn"].as_u64(),
            shown.as_ref().map(|a| a.turn as u64)
        );
        shown.map(|a| (a.turn, a.genmove))
    }

    #[test]
    fn analyses_stay_with_their_positions() {
        let mut s = PageSession::new(&["e".to_string()]);
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
        let mut s = PageSession::new(&["e".to_string()]);
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
        assert_eq!(s.analyses.winrates(s.game.line())[3], None);
        s.set_view(1).unwrap();
        assert_eq!(shown(&s), Some((1, true)));
    }

    /// A full search tree is said once per start of its engine, and
    /// changes nothing else.
    #[test]
    fn a_full_tree_is_said_once_per_start() {
        let mut s = PageSession::new(&["e".to_string()]);
        s.engine_started("e", None);
        s.new_game(&form("odd", 3, "human", "e")).unwrap();
        let notice =
            |s: &PageSession| serde_json::to_value(s.state()).unwrap()["notice"]["text"].clone();
        let (version, generation) = (s.version(), s.generation());
        s.engine_tree_full("e");
        let said = notice(&s);
        assert!(
            said.as_str()
                .unwrap()
                .contains("engine e's search tree reached its memory bound"),
            "{said}"
        );
        assert_eq!((s.version(), s.generation()), (version + 1, generation));
        s.play_human("B:C3").unwrap();
        assert!(notice(&s).is_null());
        s.engine_tree_full("e");
        assert!(notice(&s).is_null());
        s.engine_started("e", None);
        s.engine_tree_full("e");
        assert_eq!(notice(&s), said);
    }

    /// Engines are listed as starting until the engine thread has started
    /// them; Restart starts a failed one again.
    #[test]
    fn engines_start_fail_and_restart() {
        let mut s = PageSession::new(&["a".to_string(), "b".to_string()]);
        assert_eq!(s.engines_to_start(), ["a", "b"]);
        s.engine_started("a", Some("oddity 1.0".into()));
        s.engine_start_failed("b", "cannot start 'x': not found".into());
        assert!(s.engines_to_start().is_empty());
        let st = |s: &PageSession| {
            s.players
                .engines()
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

    /// The clocks the page receives: seconds used, black first, and the
    /// seat whose clock runs.
    fn clock(s: &PageSession) -> ([f64; 2], Option<String>) {
        let state = serde_json::to_value(s.state()).unwrap();
        let clock = &state["clock"];
        let used = |k: usize| clock["used"][k].as_f64().unwrap();
        (
            [used(0), used(1)],
            clock["running"].as_str().map(str::to_string),
        )
    }

    #[test]
    fn clocks_count_each_seats_time() {
        let mut s = PageSession::new(&["e".to_string()]);
        s.new_game(&form("odd", 3, "human", "human")).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(30));
        let played = std::time::Instant::now();
        s.play_human("B:C3").unwrap();
        let (used, running) = clock(&s);
        // Black's clock ran through the sleep; White's only since the turn.
        assert!(
            used[0] >= 0.03 && used[1] <= played.elapsed().as_secs_f64(),
            "{used:?}"
        );
        assert_eq!(running.as_deref(), Some("w"));
        s.set_seats("e", "e").unwrap();
        s.set_paused(true).unwrap();
        let (used, running) = clock(&s);
        assert_eq!(running, None);
        std::thread::sleep(std::time::Duration::from_millis(30));
        assert_eq!(clock(&s).0, used);
        s.set_paused(false).unwrap();
        assert_eq!(clock(&s).1.as_deref(), Some("w"));
        let undone = std::time::Instant::now();
        s.undo().unwrap();
        let (used, _) = clock(&s);
        // Back at the start: Black's clock runs again from 0.
        assert!(
            used[0] <= undone.elapsed().as_secs_f64() && used[1] == 0.0,
            "{used:?}"
        );
    }

    /// The clocks kept with the SGF come back on the game read from it,
    /// the turn being played's running on from what it had.
    #[test]
    fn clocks_come_back_with_the_record() {
        let mut s = PageSession::new(&[]);
        s.new_game(&form("odd", 3, "human", "human")).unwrap();
        for t in ["B:A1", "W:B1"] {
            std::thread::sleep(std::time::Duration::from_millis(10));
            s.play_human(t).unwrap();
        }
        s.set_view(1).unwrap();
        s.play_human("W:C1").unwrap();
        std::thread::sleep(std::time::Duration::from_millis(10));
        let (before, running) = clock(&s);
        assert_eq!(running.as_deref(), Some("b"));
        let kept = s.kept_clocks();
        let line = s.game.viewed_node();

        let mut t = PageSession::new(&[]);
        t.load_sgf(&s.sgf(), 1).unwrap();
        t.go_to_node(line).unwrap();
        assert_eq!(clock(&t).0[1], 0.0);
        t.restore_clocks(&kept);
        let (after, running) = clock(&t);
        assert_eq!(running.as_deref(), Some("b"));
        assert!(
            after[0] >= before[0] && after[1] == before[1],
            "{before:?} {after:?}"
        );
        assert!(after[1] > 0.0);
    }

    /// A record whose second variation holds a bad turn opens with that
    /// variation cut and a notice naming it; the main line is whole.
    #[test]
    fn a_broken_variation_is_cut_with_a_notice() {
        let mut s = PageSession::new(&[]);
        s.load_sgf("(;GM[9000]OG[yodd]SZ[3](;B[B:B3])(;W[garbage]))", 1)
            .unwrap();
        assert_eq!(tokens(&s), ["B:B3"]);
        assert_eq!(s.game.tree().len(), 2);
        let state = serde_json::to_value(s.state()).unwrap();
        let notice = &state["notice"];
        assert_eq!(notice["level"], "error");
        let text = notice["text"].as_str().unwrap();
        assert!(
            text.starts_with("record opened: both seats are people")
                && text.contains("Left out, as it did not read: variation 2 at turn 1, cut from turn 1: turn 1: bad move token 'garbage'"),
            "{text}"
        );
        // A record that reads whole says nothing of cuts.
        s.load_sgf("(;GM[9000]OG[yodd]SZ[3];B[B:B3])", 1).unwrap();
        let state = serde_json::to_value(s.state()).unwrap();
        assert_eq!(state["notice"]["level"], "info");
    }

    fn tokens(s: &PageSession) -> Vec<String> {
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
        let mut s = PageSession::new(&[]);
        s.new_game(&form("odd", 3, "human", "human")).unwrap();
        for t in ["B:A1", "W:B1", "B:C1"] {
            s.play_human(t).unwrap();
        }
        let main = s.game.line().to_vec();
        s.set_view(1).unwrap();
        s.play_human("W:B1").unwrap();
        assert_eq!((s.view(), s.game.line()), (2, &main[..]));
        s.set_view(1).unwrap();
        s.play_human("W:C3").unwrap();
        assert_eq!(tokens(&s), ["B:A1", "W:C3"]);
        assert!(s.game.at_end());
        let branch = s.game.viewed_node();
        s.play_human("B:B2").unwrap();
        assert_eq!(s.game.tree().len(), 6);
        // Walking: to the main line's last turn and back into the variation.
        s.go_to_node(main[3]).unwrap();
        assert_eq!(tokens(&s), ["B:A1", "W:B1", "B:C1"]);
        s.go_to_node(branch).unwrap();
        assert_eq!((s.view(), tokens(&s).len()), (2, 3));
        assert!(s.go_to_node(99).is_err());
        // Named, and saved with its name; the main line stays first.
        s.name_node(branch, "  try C3 ").unwrap();
        assert_eq!(s.game.tree().name(branch), Some("try C3"));
        assert!(s.name_node(branch, "a\nb").is_err());
        assert!(s.name_node(branch, &"x".repeat(101)).is_err());
        let text = s.sgf();
        assert!(text.contains("(;W[W:C3]N[try C3]"), "{text}");
        assert_eq!(sgf::read(&text).unwrap().moves().len(), 3);
        let mut t = PageSession::new(&[]);
        t.load_sgf(&text, 1).unwrap();
        assert_eq!((t.game.tree().len(), tokens(&t).len()), (6, 3));
        assert_eq!(t.sgf(), text);
        // Deleted: the line ran through it, so play goes on before it.
        s.delete_node(branch).unwrap();
        assert_eq!((tokens(&s), s.view()), (vec!["B:A1".to_string()], 1));
        assert_eq!(s.game.tree().len(), 4);
        assert!(s.delete_node(GameTree::ROOT).is_err());
        assert!(s.delete_node(branch).is_err());
    }

    /// Play from here keeps the later turns as a variation; undo forgets
    /// the turns it takes back unless a variation hangs from them.
    #[test]
    fn play_from_here_and_undo_keep_variations() {
        let mut s = PageSession::new(&[]);
        s.new_game(&form("odd", 3, "human", "human")).unwrap();
        for t in ["B:A1", "W:B1", "B:C1"] {
            s.play_human(t).unwrap();
        }
        s.set_view(1).unwrap();
        s.branch_here();
        assert_eq!((tokens(&s).len(), s.game.tree().len()), (1, 4));
        s.play_human("W:C3").unwrap();
        assert_eq!(s.game.tree().children(s.game.line()[1]).len(), 2);
        s.undo().unwrap();
        // W:C3 hung from nothing else: forgotten.
        assert_eq!((tokens(&s).len(), s.game.tree().len()), (1, 4));
        s.undo().unwrap();
        // B:A1 carries the main line's W:B1: kept.
        assert_eq!((tokens(&s).len(), s.game.tree().len()), (0, 4));
    }

    /// An engine's turn in a variation goes on with it; the analysis of a
    /// node stays with that node.
    #[test]
    fn engines_play_on_in_a_variation() {
        let mut s = PageSession::new(&["e".to_string()]);
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
        s.go_to_node(s.game.tree().main_line()[1]).unwrap();
        assert_eq!(tokens(&s), ["B:C3", "W:A1"]);
        assert_eq!(shown(&s), None);
    }

    /// "Analyse my turn" goes off when its engine stops, and cannot be
    /// turned on while it is stopped.
    #[test]
    fn analysis_is_unticked_when_its_engine_stops() {
        let mut s = PageSession::new(&["e".to_string()]);
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
        let mut s = PageSession::new(&["e".to_string(), "bad".to_string()]);
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
        let mut s = PageSession::new(&[]);
        s.new_game(&form("onyx", 4, "human", "human")).unwrap();
        for t in ["A1", "D4", "A2", "D3", "A3", "D2", "A4"] {
            s.play_human(t).unwrap();
        }
        let state = serde_json::to_value(s.state()).unwrap();
        let r = &state["result"];
        assert_eq!(r["winner"], "b");
        assert_eq!(r["chain"], serde_json::json!(["A1", "A2", "A3", "A4"]));
        let text = r["text"].as_str().expect("black has connected");
        assert!(text.contains("rows 1 and 4"), "{text}");
        assert_eq!(r["code"], "B+");
    }
}
