//! The messages for the person: the last one, shown until the next
//! change, and the one a game waiting on a stopped engine shows instead.

use std::fmt::Write as _;

use serde::Serialize;

use oddity_rules::Colour;
use oddity_rules::sgf::CutVariation;

use crate::players::EngineInfo;

#[derive(Clone, Debug, Serialize)]
/// A message for the person, shown until the next change.
pub struct Notice {
    /// `error` or `info`.
    pub level: &'static str,
    /// The message.
    pub text: String,
}

/// The last message for the person.
#[derive(Default)]
pub(crate) struct Notices {
    last: Option<Notice>,
    /// Engines told of as having filled their search tree, since they
    /// last started.
    full_said: Vec<String>,
}

impl Notices {
    /// The last message is no longer news.
    pub(crate) fn clear(&mut self) {
        self.last = None;
    }

    /// Engine `name` stopped, for `why`; the game stays.
    pub(crate) fn engine_stopped(&mut self, name: &str, why: &str) {
        self.last = Some(Notice {
            level: "error",
            text: format!(
                "engine {name} stopped: {why}. The game is kept: restart the engine or change the players."
            ),
        });
    }

    /// Engine `name`'s search tree reached its memory bound: said once
    /// after each start of the engine. Returns whether it was said now.
    pub(crate) fn tree_full(&mut self, name: &str) -> bool {
        if self.full_said.iter().any(|n| n == name) {
            return false;
        }
        self.full_said.push(name.to_string());
        self.last = Some(Notice {
            level: "info",
            text: format!(
                "engine {name}'s search tree reached its memory bound: the tree stops growing \
                 and the engine plays on, searching from the tree it has (more memory under \
                 Engines lets it grow further where the browser or the machine can give it)"
            ),
        });
        true
    }

    /// Engine `name` started (again): a full tree is news again.
    pub(crate) fn engine_started(&mut self, name: &str) {
        self.full_said.retain(|n| n != name);
    }

    /// Game `game` (from 1) of a file of `count` games was opened, with
    /// the variations `cuts` cut where they did not read.
    pub(crate) fn record_opened(&mut self, game: usize, count: usize, cuts: &[CutVariation]) {
        let which = if count > 1 {
            format!(" (game {game} of {count} in the file)")
        } else {
            String::new()
        };
        let mut text =
            format!("record opened{which}: both seats are people; choose players to go on");
        if !cuts.is_empty() {
            let cuts: Vec<String> = cuts.iter().map(CutVariation::to_string).collect();
            let _ = write!(
                text,
                ". Left out, as it did not read: {}; the rest is kept",
                cuts.join("; ")
            );
        }
        self.last = Some(Notice {
            level: if cuts.is_empty() { "info" } else { "error" },
            text,
        });
    }

    /// What the page shows: while the game waits on a stopped engine
    /// (`stalled`, with the seat it plays), that, in place of the last
    /// message; else the last message.
    pub(crate) fn shown(&self, stalled: Option<(&EngineInfo, Colour)>) -> Option<Notice> {
        let Some((engine, seat)) = stalled else {
            return self.last.clone();
        };
        Some(Notice {
            level: "error",
            text: format!(
                "engine {} is stopped ({}), so {} cannot move. Press Restart under Engines, \
                 or choose other players and press Change players only.",
                engine.name,
                engine.fault.as_deref().unwrap_or("stopped"),
                seat.name()
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stopped(name: &str) -> EngineInfo {
        EngineInfo {
            name: name.into(),
            status: "stopped",
            fault: Some("engine exited".into()),
            identity: None,
        }
    }

    /// A stall is said once: its message replaces the engine's stop
    /// rather than joining it, and the last message is back after it.
    #[test]
    fn a_stall_is_said_once() {
        let mut n = Notices::default();
        assert!(n.shown(None).is_none());
        n.engine_stopped("e", "engine exited");
        let e = stopped("e");
        let shown = n.shown(Some((&e, Colour::White))).expect("the stall");
        assert_eq!(shown.level, "error");
        assert!(
            shown
                .text
                .starts_with("engine e is stopped (engine exited), so White cannot move"),
            "{}",
            shown.text
        );
        assert!(!shown.text.contains("The game is kept"), "{}", shown.text);
        let last = n.shown(None).expect("the engine's stop");
        assert!(
            last.text.starts_with("engine e stopped: engine exited."),
            "{}",
            last.text
        );
        n.clear();
        assert!(n.shown(None).is_none());
    }

    /// Opening a record says which game of the file it is, when it holds
    /// more than one.
    #[test]
    fn records_opened_say_which_game() {
        let mut n = Notices::default();
        n.record_opened(1, 1, &[]);
        let one = n.shown(None).unwrap();
        assert_eq!(one.level, "info");
        assert!(
            one.text.starts_with("record opened: both seats"),
            "{}",
            one.text
        );
        n.record_opened(2, 3, &[]);
        let text = n.shown(None).unwrap().text;
        assert!(
            text.starts_with("record opened (game 2 of 3 in the file):"),
            "{text}"
        );
    }
}
