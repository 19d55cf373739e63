//! oddity: rules, search and tools for Xodd, Yodd, Odd and Onyx.
//!
//! Layers: `rules` ← `search` ← {`gtp`, `tournament`, `cli`}.

pub mod cli;
pub mod gtp;
pub mod gui;
pub mod rules;
pub mod search;
pub mod tournament;
