//! Engine work: what an engine is asked to do, and what comes back from
//! it. This is the session's side of its engines, whatever runs them: the
//! session says what work it wants (`PageSession::next_job`), and whoever
//! runs the engines reports their state (`PageSession::engine_started`,
//! `PageSession::set_engine_status`, `PageSession::engine_fault`), their analysis
//! ([`Job::analysis`], `PageSession::analysis_update`) and their turns
//! (`PageSession::engine_turn`). `oddity gui` runs GTP engine processes; the
//! static page runs the engine in a Web Worker of the tab.

use std::time::Duration;

use oddity_rules::{Colour, GameRecord, NodeId, TokenError, internals::quoted};

use crate::analyses::Analysis;
use crate::overlay::{Candidate, best_turns, heat_spots};

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
    /// The thinking time of a turn.
    pub time: Duration,
    /// The state's generation when it was asked for: reports of older jobs are stale.
    pub generation: u64,
}

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
