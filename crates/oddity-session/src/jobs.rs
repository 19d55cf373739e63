//! Engine work: which engine is due to think or analyse, and what comes
//! back from it (analysis, turns, faults). This is the session's side of
//! its engines, whatever runs them: the session says what work it wants
//! ([`Session::next_job`]), and whoever runs the engines reports their
//! state ([`Session::engine_started`], [`Session::set_engine_status`],
//! [`Session::engine_fault`]), their analysis ([`Job::analysis`],
//! [`Session::analysis_update`]) and their turns
//! ([`Session::engine_turn`]). `oddity gui` runs GTP engine processes;
//! the static page runs the engine in a Web Worker of the tab.

use crate::analyses::Analysis;
use crate::error::SessionError;
use crate::overlay::{Candidate, best_turns, heat_spots};
use crate::state::{Job, Seat, Session};
use oddity_rules::moves::{Colour, TokenError, Turn};
use oddity_rules::quote::quoted;

/// Why an engine's answer to `genmove` cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineTurnError {
    #[error("answered a malformed turn: {0}")]
    /// The engine's answer is not a token.
    Malformed(#[source] TokenError),
    /// `why` is the rules' reason, with the cells named on the board.
    #[error("answered an illegal turn {}: {why}", quoted(.token))]
    /// The engine's turn is not legal.
    Illegal {
        /// The engine's answer.
        token: String,
        /// The rules' reason.
        why: String,
    },
}

/// Candidates kept from each analysis, most visited first: enough for the
/// heat map, and the page's updates stay small.
pub const MAX_CANDIDATES: usize = 200;

impl Job {
    /// The analysis of this job's position from an engine's `candidates`
    /// (in the engine's order): the most visited first, at most
    /// [`MAX_CANDIDATES`], with their heat map and best turns.
    pub fn analysis(&self, mut candidates: Vec<Candidate>) -> Analysis {
        candidates.sort_by_key(|c| std::cmp::Reverse(c.visits));
        candidates.truncate(MAX_CANDIDATES);
        let position = self.record.position();
        Analysis {
            engine: self.engine.clone(),
            seat: self.seat,
            turn: self.record.moves().len(),
            heat: heat_spots(position, self.seat, &candidates),
            best: best_turns(position, self.seat, &candidates),
            candidates,
            genmove: self.genmove,
            node: self.node,
        }
    }
}

impl Session {
    /// Turning analysis off also drops what it found; what engines
    /// thought on their own turns stays. Turning it on is refused while
    /// the engine that would analyse is stopped or failed.
    pub fn set_analysis_wanted(&mut self, on: bool) -> Result<(), SessionError> {
        if on
            && let Some(engine) = self.analysis_engine()
            && let Some(e) = self
                .engines
                .iter()
                .find(|e| e.name == engine && e.fault.is_some())
        {
            return Err(SessionError::EngineDown(e.name.clone()));
        }
        self.analyses.set_wanted(on);
        self.changed();
        Ok(())
    }

    /// Starts a failed or stopped engine again (the engine thread starts
    /// it at once); an engine that runs is left as it is.
    pub fn restart_engine(&mut self, name: &str) -> Result<(), SessionError> {
        let e = self
            .engines
            .iter_mut()
            .find(|e| e.name == name)
            .ok_or_else(|| SessionError::NoSuchEngine(name.to_string()))?;
        if e.fault.take().is_some() {
            e.status = "starting";
            e.identity = None;
        }
        self.notices.clear();
        self.changed();
        Ok(())
    }

    /// The engines the engine thread should start now.
    pub fn engines_to_start(&self) -> Vec<String> {
        self.engines
            .iter()
            .filter(|e| e.status == "starting")
            .map(|e| e.name.clone())
            .collect()
    }

    /// An engine started and answered its first commands.
    pub fn engine_started(&mut self, name: &str, identity: Option<String>) {
        if let Some(e) = self.engines.iter_mut().find(|e| e.name == name) {
            e.status = "idle";
            e.fault = None;
            e.identity = identity;
        }
        self.touched();
    }

    /// An engine could not be started (missing program, no answer, a
    /// refused `protocol_version`): listed as failed, with the reason.
    pub fn engine_start_failed(&mut self, name: &str, why: String) {
        if let Some(e) = self.engines.iter_mut().find(|e| e.name == name) {
            e.status = "failed";
            e.fault = Some(why);
        }
        self.forget_analyses_of(name);
        self.retime();
        self.touched();
    }

    /// Drops what a stopped engine found, except its analyses of the
    /// turns it chose and played: a search cut short by a crash is not
    /// shown as if it went on. Analysis asked of a person's turn is no
    /// longer asked when its engine stops.
    fn forget_analyses_of(&mut self, name: &str) {
        let tree = &self.tree;
        self.analyses
            .forget_engine(name, |node| !tree.children(node).is_empty());
        if self.analysis_engine().as_deref() == Some(name) {
            self.analyses.cancel_request();
        }
    }

    /// The engine work the state asks for now, if any.
    pub fn next_job(&self) -> Option<Job> {
        // Engines still starting are waited for.
        let usable = |name: &str| {
            self.engines
                .iter()
                .any(|e| e.name == name && e.fault.is_none() && e.status != "starting")
        };
        if self.record.is_over() && self.at_end() {
            return None;
        }
        let seat = self.record.position().to_move();
        if self.at_end()
            && !self.paused
            && let Seat::Engine(name) = self.seat(seat)
        {
            return usable(name).then(|| Job {
                engine: name.clone(),
                seat,
                record: self.record.clone(),
                node: self.viewed_node(),
                genmove: true,
                seconds: self.seconds,
                generation: self.generation,
            });
        }
        if !self.analyses.wanted() {
            return None;
        }
        let record = self.record.truncated(self.view);
        if record.is_over() {
            return None;
        }
        let engine = self.analysis_engine()?;
        usable(&engine).then(|| Job {
            engine,
            seat: record.position().to_move(),
            record,
            node: self.viewed_node(),
            genmove: false,
            seconds: self.seconds,
            generation: self.generation,
        })
    }

    /// The engine that analyses a person's turn: an engine in a seat, else
    /// the first one given.
    pub(crate) fn analysis_engine(&self) -> Option<String> {
        self.seats
            .iter()
            .find_map(|s| match s {
                Seat::Engine(name) => Some(name.clone()),
                Seat::Human => None,
            })
            .or_else(|| self.engines.first().map(|e| e.name.clone()))
    }

    /// Sets what an engine is doing (`idle`, `thinking`, `analysing`, ...).
    pub fn set_engine_status(&mut self, name: &str, status: &'static str) {
        if let Some(e) = self.engines.iter_mut().find(|e| e.name == name)
            && e.status != status
        {
            e.status = status;
            self.touched();
        }
    }

    /// An engine misbehaved: it is stopped until restarted; the game stays.
    pub fn engine_fault(&mut self, name: &str, why: String) {
        self.notices.engine_stopped(name, &why);
        if let Some(e) = self.engines.iter_mut().find(|e| e.name == name) {
            e.status = "stopped";
            e.fault = Some(why.clone());
        }
        self.forget_analyses_of(name);
        self.retime();
        self.touched();
    }

    /// New analysis from a job of `generation` (ignored when stale).
    pub fn analysis_update(&mut self, generation: u64, analysis: Analysis) {
        if generation != self.generation {
            return;
        }
        if !self.tree.contains(analysis.node) {
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
        let pos = self.record.position();
        let topo = pos.topology();
        let turn =
            Turn::parse(token, pos.kind(), topo, seat).map_err(EngineTurnError::Malformed)?;
        // The job was for the end of the line, and nothing has changed
        // since (same generation): the engine's turn goes on with the game.
        self.view = self.line.len() - 1;
        self.play_in_view(seat, turn)
            .map_err(|e| EngineTurnError::Illegal {
                token: token.to_string(),
                why: e.to_string(),
            })?;
        self.changed();
        Ok(())
    }
}
