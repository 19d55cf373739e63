//! The page's requests, by name, with their JSON bodies, and what they
//! answer: one reading of them for `oddity gui`'s HTTP API (`POST
//! /api/NAME`) and for the static page, which runs this crate in the tab.

use oddity_rules::{NodeId, internals::Escaped};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::preview::{PendingStone, Preview};

/// Every request, by the name the page sends it under.
pub const NAMES: [&str; 14] = [
    "new",
    "preview",
    "play",
    "undo",
    "resign",
    "seats",
    "analyze",
    "view",
    "branch",
    "node",
    "name",
    "delete",
    "engine/restart",
    "pause",
];

/// The new-game form.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// `xodd`, `yodd`, `odd` or `onyx`.
    pub game: String,
    /// The board's size (default: the game's standard one).
    pub size: Option<usize>,
    /// Odd: smallest group that counts (default: the board side).
    pub min_group: Option<usize>,
    /// Onyx: start from the empty board.
    #[serde(default)]
    pub open_start: bool,
    /// Onyx: the swap rule (default on).
    pub swap: Option<bool>,
    /// `human` or an engine name, for each seat.
    pub black: String,
    /// `human` or an engine name, for White.
    pub white: String,
    /// Engines' thinking time per turn, seconds.
    pub seconds: Option<f64>,
}

/// A request of the page, read and checked for its form (the session
/// checks the rest when it is answered).
#[derive(Clone, Debug)]
pub enum Request {
    /// `new`: the new-game form.
    New(NewGame),
    /// `preview` `{stones}`: what the rules say of a turn being composed.
    Preview(Vec<PendingStone>),
    /// `play` `{token}`: a person's turn.
    Play(String),
    /// `undo`: back to the person's previous turn.
    Undo,
    /// `resign`: the person resigns.
    Resign,
    /// `seats` `{black, white}`: who plays, keeping the game.
    Seats {
        /// `human` or an engine's name.
        black: String,
        /// `human` or an engine's name.
        white: String,
    },
    /// `analyze` `{on}`: analysis of the person's turn.
    Analyze(bool),
    /// `view` `{turn}`: the position after that many turns of the line.
    View(usize),
    /// `branch`: play on from the turn viewed.
    Branch,
    /// `node` `{node}`: go to a node of the game tree.
    Node(NodeId),
    /// `name` `{node, name}`: name the variation from a node.
    Name {
        /// The node the variation starts at.
        node: NodeId,
        /// Its name (empty: none).
        name: String,
    },
    /// `delete` `{node}`: delete a node and every turn after it.
    Delete(NodeId),
    /// `engine/restart` `{name}`: start a failed or stopped engine again.
    Restart(String),
    /// `pause` `{on}`: stop or resume a game between engines.
    Pause(bool),
}

/// Why a request cannot be read; nothing is changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// No request has this name.
    #[error("no request {0:?}")]
    Unknown(String),
    /// The body is not the request's JSON.
    #[error("malformed JSON: {0}")]
    Malformed(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PreviewBody {
    stones: Vec<PendingStone>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayBody {
    token: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatsBody {
    black: String,
    white: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OnBody {
    on: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ViewBody {
    turn: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NodeBody {
    node: NodeId,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NameBody {
    node: NodeId,
    name: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RestartBody {
    name: String,
}

fn body<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, RequestError> {
    serde_json::from_slice(bytes)
        .map_err(|e| RequestError::Malformed(Escaped(&e.to_string()).to_string()))
}

impl Request {
    /// Reads request `name` with its JSON `body` (requests that take none
    /// ignore it).
    pub fn read(name: &str, bytes: &[u8]) -> Result<Request, RequestError> {
        Ok(match name {
            "new" => Request::New(body(bytes)?),
            "preview" => Request::Preview(body::<PreviewBody>(bytes)?.stones),
            "play" => Request::Play(body::<PlayBody>(bytes)?.token),
            "undo" => Request::Undo,
            "resign" => Request::Resign,
            "seats" => {
                let b: SeatsBody = body(bytes)?;
                Request::Seats {
                    black: b.black,
                    white: b.white,
                }
            }
            "analyze" => Request::Analyze(body::<OnBody>(bytes)?.on),
            "view" => Request::View(body::<ViewBody>(bytes)?.turn),
            "branch" => Request::Branch,
            "node" => Request::Node(body::<NodeBody>(bytes)?.node),
            "name" => {
                let b: NameBody = body(bytes)?;
                Request::Name {
                    node: b.node,
                    name: b.name,
                }
            }
            "delete" => Request::Delete(body::<NodeBody>(bytes)?.node),
            "engine/restart" => Request::Restart(body::<RestartBody>(bytes)?.name),
            "pause" => Request::Pause(body::<OnBody>(bytes)?.on),
            _ => return Err(RequestError::Unknown(name.to_string())),
        })
    }
}

/// What a request answers when the session takes it
/// ([`PageSession::answer`](crate::PageSession::answer)).
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// A change made: `{"ok":true}`.
    Done,
    /// The rules' verdict on a turn being composed.
    Preview(Preview),
}

impl Answer {
    /// The answer as the page reads it.
    pub fn json(&self) -> String {
        match self {
            Answer::Done => r#"{"ok":true}"#.to_string(),
            Answer::Preview(p) => serde_json::to_string(p).expect("a preview serialises"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::PageSession;

    /// Every name is read; bodies of the wrong shape, unknown fields and
    /// unknown names are refused.
    #[test]
    fn requests_are_read_by_name() {
        for name in NAMES {
            let refused = Request::read(name, b"[1,2]");
            let takes_none = matches!(name, "undo" | "resign" | "branch");
            assert_eq!(refused.is_ok(), takes_none, "{name}");
        }
        assert!(matches!(
            Request::read("play", br#"{"token":"B:A1"}"#),
            Ok(Request::Play(t)) if t == "B:A1"
        ));
        let e = Request::read("play", br#"{"token":"B:A1","extra":1}"#).unwrap_err();
        assert!(e.to_string().starts_with("malformed JSON"), "{e}");
        assert!(Request::read("view", br#"{"turn":-1}"#).is_err());
        assert_eq!(
            Request::read("nothing", b"{}").unwrap_err(),
            RequestError::Unknown("nothing".into())
        );
    }

    #[test]
    fn answers_are_changes_or_previews() {
        let mut s = PageSession::new(&[]);
        let play = Request::read("play", br#"{"token":"B:C3"}"#).unwrap();
        assert_eq!(s.answer(play).unwrap().json(), r#"{"ok":true}"#);
        assert_eq!(s.record().moves().len(), 1);
        let again = Request::read("play", br#"{"token":"W:C3"}"#).unwrap();
        assert!(s.answer(again).is_err());
        assert_eq!(s.record().moves().len(), 1);
        let preview = Request::read("preview", br#"{"stones":[{"cell":"A1","colour":"W"}]}"#);
        let answer = s.answer(preview.unwrap()).unwrap().json();
        assert!(answer.contains(r#""ok":true"#), "{answer}");
    }

    /// An unknown game's name is quoted escaped: a control character in
    /// the request shows as an escape, and the game is unchanged.
    #[test]
    fn an_unknown_game_is_quoted_on_one_line() {
        let mut s = PageSession::new(&[]);
        let body = r#"{"game":"x\u007fdd","size":4,"black":"human","white":"human"}"#;
        let e = s
            .answer(Request::read("new", body.as_bytes()).unwrap())
            .unwrap_err()
            .to_string();
        assert_eq!(e, r"unknown game 'x\u{7f}dd' (xodd, yodd, odd, onyx)");
        assert_eq!(s.record().moves().len(), 0);
    }
}
