//! A game checked by the rules, for the page: the same rules code as the
//! native programs, so that no rule is written a second time in
//! JavaScript.

use oddity_rules::sgf::{self, RecordInfo};
use oddity_rules::{AnyGame, GameKind, GameRecord, GameSpec, Rules};
use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;

/// A game from its start, checked by the rules.
#[wasm_bindgen]
#[derive(Clone)]
pub struct Game {
    record: GameRecord,
}

/// What the page shows of a game ([`Game::state`]).
#[derive(Debug, Serialize)]
pub struct State {
    /// The game's name (`odd`, ...).
    pub game: &'static str,
    /// The board's size.
    pub size: usize,
    /// The game with its size and rule options, for people.
    pub title: String,
    /// `b` or `w`; the seat that would move when the game is over.
    pub to_move: &'static str,
    /// Whether the game has ended.
    pub over: bool,
    /// `b` or `w` once the game is over.
    pub winner: Option<&'static str>,
    /// The result as SGF writes it (`B+`, `W+3`, `B+R`).
    pub score: Option<String>,
    /// Who won and why, in words.
    pub result: Option<String>,
    /// Groups on the board per colour, Black's first.
    pub groups: [u32; 2],
    /// The turns played, as tokens.
    pub moves: Vec<String>,
}

#[wasm_bindgen]
impl Game {
    /// A new game of `game` (`xodd`, `yodd`, `odd`, `onyx`) on its standard
    /// start, at `size` or the game's standard size.
    #[wasm_bindgen(constructor)]
    pub fn new(game: &str, size: Option<usize>) -> Result<Game, String> {
        let kind = GameKind::parse(game).ok_or_else(|| format!("unknown game '{game}'"))?;
        let spec =
            GameSpec::from_options(kind, size, Rules::default()).map_err(|e| e.to_string())?;
        Ok(Game {
            record: GameRecord::new(AnyGame::new(&spec)),
        })
    }

    /// The game of an SGF record (its main line).
    #[wasm_bindgen(js_name = fromSgf)]
    pub fn from_sgf(text: &str) -> Result<Game, String> {
        let record = sgf::read(text).map_err(|e| e.to_string())?;
        Ok(Game { record })
    }

    /// Plays `token` (e.g. `B:C3`, `B:C3,D4`, `pass`) for the side to
    /// move; returns the turn as the rules write it. On an error the game
    /// is unchanged.
    pub fn play(&mut self, token: &str) -> Result<String, String> {
        let turn = self.record.play_token(token).map_err(|e| e.to_string())?;
        Ok(self.record.position().token(&turn))
    }

    /// Takes back the last turn; false when there is none.
    pub fn undo(&mut self) -> bool {
        self.record.undo()
    }

    /// The game as JSON ([`State`]).
    pub fn state(&self) -> String {
        serde_json::to_string(&self.state_of()).expect("a state serialises")
    }

    /// Every legal turn of the side to move, as tokens (JSON array).
    #[wasm_bindgen(js_name = legalTurns)]
    pub fn legal_turns(&self) -> String {
        let p = self.record.position();
        let turns: Vec<String> = if self.record.is_over() {
            Vec::new()
        } else {
            p.legal_turns().iter().map(|t| p.token(t)).collect()
        };
        serde_json::to_string(&turns).expect("tokens serialise")
    }

    /// The game as SGF, with its result once it is over.
    pub fn sgf(&self) -> String {
        let info = RecordInfo {
            result: self.record.outcome().map(|o| o.score()),
            ..RecordInfo::default()
        };
        sgf::write(&self.record, &info)
    }
}

impl Game {
    /// The game's record: its start and turns.
    pub fn record(&self) -> &GameRecord {
        &self.record
    }

    /// The state [`Game::state`] writes.
    pub fn state_of(&self) -> State {
        let position = self.record.position();
        let spec = position.spec();
        let outcome = self.record.outcome();
        let moves = self
            .record
            .moves()
            .iter()
            .map(|(_, turn)| position.token(turn))
            .collect();
        State {
            game: spec.kind.name(),
            size: spec.size,
            title: spec.title(),
            to_move: position.to_move().seat(),
            over: self.record.is_over(),
            winner: outcome.map(|o| o.winner.seat()),
            score: outcome.map(|o| o.score()),
            result: outcome.map(|o| o.describe(spec)),
            groups: position.group_counts(),
            moves,
        }
    }
}
