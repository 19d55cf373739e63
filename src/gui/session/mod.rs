//! The game the page shows: its record, who sits in each seat, the turn
//! being viewed, the engines' analysis and the last message. Every change
//! is checked with the rules before it is made, so an illegal placement is
//! refused with its reason before any engine hears of it. Nothing here
//! talks to processes or to the network. The state and its checked changes
//! are in `state`, engine work in `jobs`, what the page draws in `view`,
//! and what it draws over the board from an analysis in `overlay`.

mod jobs;
mod overlay;
mod state;
mod view;

pub use jobs::EngineTurnError;
pub use overlay::{BestTurn, HeatSpot, best_turns, heat_spots};
pub use state::{
    Analysis, EngineInfo, Job, NewGame, Notice, PendingStone, Preview, Seat, Session, SessionError,
};
