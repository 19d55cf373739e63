//! Analysis of positions for people and scripts: setting up positions,
//! queries and their results, and the blunder check over a whole game.

pub mod setup;
