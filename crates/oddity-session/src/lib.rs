//! The game a page shows, for `oddity gui` and for the static page in the
//! browser alike: its game tree with variations, who sits in each seat,
//! the turn being viewed, the engines' analysis and the last message.
//! Every change is checked with the rules before it is made, so an illegal
//! placement is refused with its reason before any engine hears of it.
//! Nothing here talks to processes or to the network, and nothing reads the
//! system's clock but through `web-time`, so the same code runs natively
//! and compiled to WebAssembly in the tab.
//!
//! - `session`: the session, made of parts that each keep their own
//!   state: `game` (the game tree and the position viewed), `players`
//!   (seats and engines), `clocks`, `analyses` (what the engines found)
//!   and `notices` (the message for the person); every change goes
//!   through the session, made whole across its parts or refused;
//! - `preview`: what the rules say of a turn being composed;
//! - `error`: why a request is refused;
//! - `api`: the page's requests by name with their JSON bodies, and their
//!   answers (the HTTP API's, and the static page's);
//! - `jobs`: engine work, the session's side of its engines, whatever
//!   runs them (GTP processes, or the engine in a Web Worker);
//! - `view`: what the page draws (the state it receives), with `board`
//!   (the picture of the position) and `overlay` (what it draws over the
//!   board from an analysis);
//! - `catalogue`: what the new-game form offers, and the heat palette.

#![warn(missing_docs)]

mod analyses;
mod api;
mod board;
mod catalogue;
mod clocks;
mod error;
mod game;
mod jobs;
mod notices;
mod overlay;
mod players;
mod preview;
mod session;
mod view;

pub use analyses::Analysis;
pub use api::{Answer, NAMES, NewGame, Request, RequestError};
pub use catalogue::{Catalogue, catalogue};
pub use clocks::KeptClocks;
pub use error::SessionError;
pub use jobs::{EngineTurnError, Job, MAX_CANDIDATES};
pub use notices::Notice;
pub use overlay::{BestTurn, Candidate, HeatSpot, best_turns, heat_spots};
pub use players::{EngineInfo, Seat};
pub use preview::{PendingStone, Preview};
pub use session::PageSession;
pub use view::State;
