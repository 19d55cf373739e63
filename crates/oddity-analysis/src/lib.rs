//! Analysis of positions for people and scripts: setting up positions,
//! the analysis of one position, batch queries in JSON, and the blunder
//! check over a whole game. Uses the search's public API; knows nothing of
//! the protocol or of pictures.

pub mod accuracy;
pub mod batch;
pub mod blunders;
mod prepare;
pub mod query;
pub mod queue;
pub mod result;
pub mod self_play;
pub mod setup;
pub mod train_data;
