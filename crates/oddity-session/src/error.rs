//! Why a request of the page is refused: one error for every part of the
//! session, with the message the page shows.

use oddity_rules::{
    Colour, NodeId, SpecError, TokenError, UnknownGame, internals::quoted, sgf::SgfError,
};
use oddity_search::config::BadValue;

/// The longest name of a variation, in characters.
pub(crate) const MAX_NAME: usize = 100;

/// Why the page's request is refused; the page shows the message as it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    #[error("unknown game {} (xodd, yodd, odd, onyx)", quoted(&.0.0))]
    /// The game's name is not one of the four (quoted escaped: the
    /// request's text).
    UnknownGame(#[from] UnknownGame),
    #[error(transparent)]
    /// The game's size or rules cannot be.
    Spec(#[from] SpecError),
    #[error(
        "unknown player {}: 'human' or an engine given on the command line ({})",
        quoted(.name), .engines.join(", ")
    )]
    /// A seat given to no one known.
    UnknownPlayer {
        /// The player asked for.
        name: String,
        /// The engines there are.
        engines: Vec<String>,
    },
    #[error("engine time per turn: {0}")]
    /// The thinking time is not one the engines take.
    Seconds(#[from] BadValue),
    #[error("pause is for games between engines: a person plays here")]
    /// Pause asked for a game a person plays.
    PauseWithPerson,
    #[error("you are looking at turn {view} of {turns}: go to the end to resign")]
    /// Resign asked while reviewing an earlier turn.
    NotAtEnd {
        /// The turn viewed.
        view: usize,
        /// The turns of the line.
        turns: usize,
    },
    #[error("the game is over")]
    /// The game is over.
    GameOver,
    #[error("it is {engine}'s turn ({})", .seat.name())]
    /// A person's turn asked for where an engine is to move.
    EngineToMove {
        /// The engine whose turn it is.
        engine: String,
        /// Its seat.
        seat: Colour,
    },
    #[error("{} is not a stone colour (B or W)", quoted(.0))]
    /// A stone colour that is neither `B` nor `W`.
    BadColour(String),
    #[error(transparent)]
    /// A turn's token that cannot be read.
    Token(#[from] TokenError),
    /// The rules' reason, with the cells named on the board.
    #[error("{0}")]
    Illegal(String),
    #[error("no person plays in this game")]
    /// Undo or resign asked where no person plays.
    NoPerson,
    #[error("there is no turn to take back")]
    /// Undo asked before the person has played.
    NothingToUndo,
    #[error("turn {turn} does not exist (the game has {turns})")]
    /// A turn past the end of the line.
    NoSuchTurn {
        /// The turn asked for.
        turn: usize,
        /// The turns of the line.
        turns: usize,
    },
    #[error("games in a file are numbered from 1")]
    /// Game 0 of a file asked for.
    GameZero,
    #[error("cannot read this SGF: {0}")]
    /// An SGF file that cannot be read.
    Sgf(#[source] SgfError),
    #[error("this file holds {count} game(s): there is no game {game}")]
    /// A game the file does not hold.
    NoSuchGame {
        /// The game asked for, from 1.
        game: usize,
        /// The games the file holds.
        count: usize,
    },
    #[error("no engine named {}", quoted(.0))]
    /// No engine has this name.
    NoSuchEngine(String),
    #[error("no turn {0} in the game tree")]
    /// No node of the game tree has this id.
    NoSuchNode(NodeId),
    #[error("the start of the game cannot be deleted")]
    /// The root of the game tree cannot be deleted.
    DeleteStart,
    #[error(
        "a variation's name is one line of at most {MAX_NAME} characters, without control \
         characters"
    )]
    /// A variation's name that is not one short line.
    BadName,
    #[error("engine {0} failed to start: restart it under Engines, or choose another player")]
    /// A seat given to an engine that could not start.
    FailedEngine(String),
    #[error("engine {0} is stopped: restart it under Engines to analyse")]
    /// Analysis asked of a stopped engine.
    EngineDown(String),
}
