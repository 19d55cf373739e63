//! What the engines found: the latest analysis of each position of the
//! game tree, Black's win rate there, and whether the person asked for
//! analysis of their turns.

use std::collections::HashMap;

use serde::Serialize;

use oddity_rules::{Colour, NodeId};

use crate::overlay::{BestTurn, Candidate, HeatSpot};

/// The latest analysis of one position.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// The engine that made it.
    pub engine: String,
    #[serde(serialize_with = "seat_letter")]
    /// The seat it analysed for.
    pub seat: Colour,
    /// The position analysed: after this many turns.
    pub turn: usize,
    /// Its candidate turns, most visited first.
    pub candidates: Vec<Candidate>,
    /// The candidates' heat map.
    pub heat: Vec<HeatSpot>,
    /// The best turns, drawn as turns (Xodd, Yodd).
    pub best: Vec<BestTurn>,
    /// Made by an engine choosing its turn (else analysis asked for).
    #[serde(skip)]
    pub genmove: bool,
    /// The node of the game tree analysed.
    #[serde(skip)]
    pub node: NodeId,
}

fn seat_letter<S: serde::Serializer>(c: &Colour, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(c.seat())
}

/// The analyses of the game tree's positions.
#[derive(Default)]
pub(crate) struct Analyses {
    /// The person asked for analysis of their turns.
    wanted: bool,
    /// The latest analysis of each node's position.
    by_node: HashMap<NodeId, Analysis>,
    /// Black's win rate in each node's position, as last estimated.
    winrates: HashMap<NodeId, f64>,
}

impl Analyses {
    /// Whether the person asked for analysis of their turns.
    pub(crate) fn wanted(&self) -> bool {
        self.wanted
    }

    /// The person asks for analysis, or no longer: then what it found is
    /// dropped, and what engines thought on their own turns stays.
    pub(crate) fn set_wanted(&mut self, on: bool) {
        self.wanted = on;
        if !on {
            self.by_node.retain(|_, a| a.genmove);
        }
    }

    /// Analysis is no longer asked for (its engine stopped); what it found
    /// stays unless dropped with [`Analyses::forget_engine`].
    pub(crate) fn cancel_request(&mut self) {
        self.wanted = false;
    }

    /// Keeps `analysis` as the latest of its position, and the win rate of
    /// its most visited candidate.
    pub(crate) fn add(&mut self, analysis: Analysis) {
        if let Some(best) = analysis.candidates.first() {
            let black = match analysis.seat {
                Colour::Black => best.winrate,
                Colour::White => 1.0 - best.winrate,
            };
            self.winrates.insert(analysis.node, black);
        }
        self.by_node.insert(analysis.node, analysis);
    }

    /// Drops what engine `name` found, except its analyses of the turns it
    /// chose and played (`played_from` holds for a node a turn was played
    /// from): a search cut short is not shown as if it went on.
    pub(crate) fn forget_engine(&mut self, name: &str, played_from: impl Fn(NodeId) -> bool) {
        let gone: Vec<_> = self
            .by_node
            .iter()
            .filter(|(node, a)| a.engine == name && (!a.genmove || !played_from(**node)))
            .map(|(node, _)| *node)
            .collect();
        for node in gone {
            self.by_node.remove(&node);
            self.winrates.remove(&node);
        }
    }

    /// Keeps what is known of the nodes `keep` holds for.
    pub(crate) fn retain(&mut self, keep: impl Fn(NodeId) -> bool) {
        self.by_node.retain(|node, _| keep(*node));
        self.winrates.retain(|node, _| keep(*node));
    }

    /// Forgets every analysis (a new game); the request stays as it was.
    pub(crate) fn clear(&mut self) {
        self.by_node.clear();
        self.winrates.clear();
    }

    /// The analysis shown at turn `view` of `line`: that position's, else
    /// that of the turn that led to it (an engine's last thoughts stay on
    /// screen after it plays).
    pub(crate) fn shown(&self, line: &[NodeId], view: usize) -> Option<Analysis> {
        let at = |k: usize| self.by_node.get(&line[k]).cloned();
        at(view).or_else(|| view.checked_sub(1).and_then(at))
    }

    /// Black's win rate at each node of `line`, where one was estimated.
    pub(crate) fn winrates(&self, line: &[NodeId]) -> Vec<Option<f64>> {
        line.iter().map(|n| self.winrates.get(n).copied()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analysis(engine: &str, node: NodeId, seat: Colour, genmove: bool) -> Analysis {
        Analysis {
            engine: engine.into(),
            seat,
            turn: node,
            candidates: vec![Candidate {
                token: "A1".into(),
                visits: 10,
                winrate: 0.75,
                pv: Vec::new(),
            }],
            heat: Vec::new(),
            best: Vec::new(),
            genmove,
            node,
        }
    }

    fn shown(a: &Analyses, line: &[NodeId], view: usize) -> Option<(String, NodeId)> {
        a.shown(line, view).map(|a| (a.engine, a.node))
    }

    /// A position shows its own analysis, else the one of the turn before;
    /// win rates are Black's.
    #[test]
    fn a_position_shows_its_analysis_or_the_one_before() {
        let mut a = Analyses::default();
        a.add(analysis("e", 1, Colour::White, true));
        let line = [0, 1, 2];
        assert_eq!(shown(&a, &line, 0), None);
        assert_eq!(shown(&a, &line, 1), Some(("e".into(), 1)));
        assert_eq!(shown(&a, &line, 2), Some(("e".into(), 1)));
        a.add(analysis("f", 2, Colour::Black, false));
        assert_eq!(shown(&a, &line, 2), Some(("f".into(), 2)));
        assert_eq!(a.winrates(&line), [None, Some(0.25), Some(0.75)]);
    }

    /// Turning analysis off drops what it found, not the engines' own
    /// turns; a stopped engine's searches go, but for the turns it played.
    #[test]
    fn what_is_dropped_and_what_stays() {
        let mut a = Analyses::default();
        a.set_wanted(true);
        a.add(analysis("e", 1, Colour::Black, false));
        a.add(analysis("e", 2, Colour::Black, true));
        a.add(analysis("e", 3, Colour::Black, true));
        a.add(analysis("f", 4, Colour::Black, false));
        let line = [1, 2, 3, 4];
        a.forget_engine("e", |node| node == 2);
        assert_eq!(a.winrates(&line), [None, Some(0.75), None, Some(0.75)]);
        a.cancel_request();
        assert!(!a.wanted());
        assert!(a.shown(&line, 3).is_some());
        a.set_wanted(false);
        assert_eq!(shown(&a, &line, 3), None);
        assert_eq!(shown(&a, &line, 2), Some(("e".into(), 2)));
        a.retain(|node| node != 2);
        assert_eq!(shown(&a, &line, 2), None);
        a.add(analysis("e", 1, Colour::Black, false));
        a.clear();
        assert_eq!(a.winrates(&line), [None; 4]);
    }
}
