//! Game records in SGF (FF[4]) for games SGF has no number for.
//!
//! The flavour: `GM[9000]` (outside the registered 1..40) and the game in the
//! private root property `OG[xodd|yodd|odd|onyx]`; rule options in
//! `OR[min_group=5,start=open,swap=on]`; `SZ[n]` the board size. A set-up
//! position uses `AB`/`AW` with cell names and `PL[B|W]`. Each turn is one
//! node with the seat as property and the whole token as value:
//! `;B[B:C3,W:D4]`, `;W[pass]`, `;W[swap]`, `;B[resign]`. `RE[B+]`, `RE[W+R]`,
//! `RE[B+3]` give the result.

use std::fmt::Write as _;

use crate::rules::game::{GameSpec, Rules};
use crate::rules::kind::GameKind;
use crate::rules::moves::{Colour, Stone, Turn};
use crate::rules::position::AnyGame;
use crate::rules::record::GameRecord;

/// The SGF game number used for all four games.
pub const GAME_NUMBER: u32 = 9000;

/// Names and result text written to a record's root node.
#[derive(Clone, Debug, Default)]
pub struct RecordInfo {
    pub black: Option<String>,
    pub white: Option<String>,
    /// `RE` value, e.g. `B+`, `W+R`, `B+3`.
    pub result: Option<String>,
    pub date: Option<String>,
    /// Free text comment on the root (`GC`).
    pub comment: Option<String>,
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// Writes `record` as SGF.
pub fn write(record: &GameRecord, info: &RecordInfo) -> String {
    let start = record.start();
    let spec = start.spec();
    let topo = start.topology();
    let mut out = String::new();
    let _ = write!(
        out,
        "(;FF[4]GM[{GAME_NUMBER}]CA[UTF-8]AP[oddity:{}]OG[{}]SZ[{}]",
        env!("CARGO_PKG_VERSION"),
        spec.kind,
        spec.size,
    );
    let rules = spec.rules_text();
    if !rules.is_empty() {
        let _ = write!(out, "OR[{rules}]");
    }
    for (tag, value) in [
        ("PB", &info.black),
        ("PW", &info.white),
        ("RE", &info.result),
        ("DT", &info.date),
        ("GC", &info.comment),
    ] {
        if let Some(v) = value {
            let _ = write!(out, "{tag}[{}]", escape(v));
        }
    }
    if start.turns_played() > 0 || has_stones(start) {
        for (tag, colour) in [("AB", Colour::Black), ("AW", Colour::White)] {
            let cells: Vec<_> = topo
                .cells()
                .iter()
                .filter(|&&c| start.stone_at(c) == Some(colour))
                .collect();
            if !cells.is_empty() {
                out.push_str(tag);
                for c in cells {
                    let _ = write!(out, "[{}]", topo.name(*c));
                }
            }
        }
        let _ = write!(out, "PL[{}]", start.to_move().letter());
    }
    for (seat, turn) in record.moves() {
        let _ = write!(out, "\n;{}[{}]", seat.letter(), start.token(turn));
    }
    out.push_str(")\n");
    out
}

fn has_stones(game: &AnyGame) -> bool {
    let topo = game.topology();
    topo.cells().iter().any(|&c| game.stone_at(c).is_some())
}

/// Why a record could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfError(pub String);

impl std::fmt::Display for SgfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SgfError {}

type Node = Vec<(String, Vec<String>)>;

/// Reads the main line of the first game tree: its nodes' properties.
/// The main line follows the first variation at every branch.
fn parse_nodes(text: &str) -> Result<Vec<Node>, SgfError> {
    let mut p = Parser {
        chars: text.chars().collect(),
        i: 0,
    };
    p.skip_ws();
    if p.peek() != Some('(') {
        return Err(SgfError("not an SGF game tree (no '(')".into()));
    }
    p.i += 1;
    let mut nodes = Vec::new();
    p.sequence(&mut nodes)?;
    Ok(nodes)
}

struct Parser {
    chars: Vec<char>,
    i: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.i += 1;
        }
    }

    fn fail<T>(&self, what: &str) -> Result<T, SgfError> {
        Err(SgfError(format!("{what} at character {}", self.i)))
    }

    /// Reads nodes up to the ')' closing the tree whose '(' was just read.
    fn sequence(&mut self, nodes: &mut Vec<Node>) -> Result<(), SgfError> {
        loop {
            self.skip_ws();
            match self.peek() {
                None => return self.fail("unexpected end of the record"),
                Some(';') => {
                    self.i += 1;
                    nodes.push(Vec::new());
                }
                Some(')') => {
                    self.i += 1;
                    return Ok(());
                }
                Some('(') => {
                    self.i += 1;
                    self.sequence(nodes)?;
                    // Later variations are not part of the main line.
                    loop {
                        self.skip_ws();
                        match self.peek() {
                            Some('(') => {
                                self.i += 1;
                                self.sequence(&mut Vec::new())?;
                            }
                            Some(')') => {
                                self.i += 1;
                                return Ok(());
                            }
                            _ => return self.fail("expected a variation or ')'"),
                        }
                    }
                }
                Some(c) if c.is_ascii_uppercase() => {
                    let property = self.property()?;
                    match nodes.last_mut() {
                        Some(node) => node.push(property),
                        None => return self.fail("property before the first node"),
                    }
                }
                Some(c) => return self.fail(&format!("unexpected character '{c}'")),
            }
        }
    }

    fn property(&mut self) -> Result<(String, Vec<String>), SgfError> {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_uppercase()) {
            self.i += 1;
        }
        let ident: String = self.chars[start..self.i].iter().collect();
        let mut values = Vec::new();
        loop {
            self.skip_ws();
            if self.peek() != Some('[') {
                break;
            }
            self.i += 1;
            let mut value = String::new();
            loop {
                match self.peek() {
                    None => return self.fail("unterminated property value"),
                    Some('\\') => {
                        self.i += 1;
                        if let Some(c) = self.peek() {
                            value.push(c);
                            self.i += 1;
                        }
                    }
                    Some(']') => {
                        self.i += 1;
                        break;
                    }
                    Some(c) => {
                        value.push(c);
                        self.i += 1;
                    }
                }
            }
            values.push(value);
        }
        if values.is_empty() {
            return self.fail(&format!("property {ident} without a value"));
        }
        Ok((ident, values))
    }
}

fn prop<'a>(node: &'a Node, ident: &str) -> Option<&'a [String]> {
    node.iter()
        .find(|(id, _)| id == ident)
        .map(|(_, v)| v.as_slice())
}

/// Reads a record written in this flavour, keeping the first `max_turns`
/// turns (all when `None`).
pub fn read(text: &str, max_turns: Option<usize>) -> Result<GameRecord, SgfError> {
    let nodes = parse_nodes(text)?;
    let root = nodes.first().ok_or_else(|| SgfError("no nodes".into()))?;
    let kind_text = prop(root, "OG")
        .and_then(|v| v.first())
        .ok_or_else(|| SgfError("no OG[game] property: not an oddity record".into()))?;
    let kind = GameKind::parse(kind_text)
        .ok_or_else(|| SgfError(format!("unknown game '{kind_text}'")))?;
    let size = match prop(root, "SZ").and_then(|v| v.first()) {
        Some(s) => s
            .trim()
            .parse()
            .map_err(|_| SgfError(format!("bad size '{s}'")))?,
        None => kind.default_size(),
    };
    let mut rules = Rules::default();
    if let Some(text) = prop(root, "OR").and_then(|v| v.first()) {
        for item in text.split(',').filter(|s| !s.is_empty()) {
            let (name, value) = item.split_once('=').unwrap_or((item, ""));
            rules
                .set(name, value)
                .map_err(|_| SgfError(format!("bad rule option '{item}'")))?;
        }
    }
    let spec = GameSpec::new(kind, size, rules).map_err(|e| SgfError(e.to_string()))?;
    let topo = spec.topology();
    let mut start = AnyGame::new(&spec);
    let setup_tags = ["AB", "AW", "PL"];
    if root.iter().any(|(id, _)| setup_tags.contains(&id.as_str())) {
        let mut stones = Vec::new();
        for (tag, colour) in [("AB", Colour::Black), ("AW", Colour::White)] {
            for name in prop(root, tag).unwrap_or(&[]) {
                let cell = topo
                    .parse_cell(name)
                    .ok_or_else(|| SgfError(format!("{tag}: '{name}' is not a point")))?;
                stones.push(Stone { cell, colour });
            }
        }
        let to_move = match prop(root, "PL").and_then(|v| v.first()) {
            Some(p) => Colour::parse(p).ok_or_else(|| SgfError(format!("bad PL '{p}'")))?,
            None => Colour::Black,
        };
        start = AnyGame::from_setup(&spec, &stones, to_move)
            .map_err(|e| SgfError(format!("impossible set-up: {e:?}")))?;
    }
    let mut record = GameRecord::new(start);
    let mut played = 0;
    for node in &nodes[1..] {
        if max_turns.is_some_and(|m| played >= m) {
            break;
        }
        for (ident, values) in node {
            let seat = match ident.as_str() {
                "B" => Colour::Black,
                "W" => Colour::White,
                _ => continue,
            };
            let token = values[0].trim();
            let turn = Turn::parse(token, kind, topo, seat)
                .map_err(|e| SgfError(format!("turn {}: {e}", played + 1)))?;
            record.play(seat, turn).map_err(|e| {
                SgfError(format!(
                    "turn {} ({token}) is illegal: {}",
                    played + 1,
                    e.describe(topo)
                ))
            })?;
            played += 1;
        }
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_of_a_played_record() {
        let spec = GameSpec::new(GameKind::Xodd, 5, Rules::default()).unwrap();
        let mut record = GameRecord::new(AnyGame::new(&spec));
        for (seat, token) in [
            (Colour::Black, "B:C3"),
            (Colour::White, "W:A1,B:E5"),
            (Colour::Black, "pass"),
        ] {
            let turn = record.position().parse_turn(token).unwrap();
            record.play(seat, turn).unwrap();
        }
        let info = RecordInfo {
            black: Some("a]b".into()),
            ..Default::default()
        };
        let text = write(&record, &info);
        assert!(text.contains("PB[a\\]b]"));
        assert!(text.contains(";W[W:A1,B:E5]"), "{text}");
        let back = read(&text, None).unwrap();
        assert_eq!(back.moves(), record.moves());
        let partial = read(&text, Some(1)).unwrap();
        assert_eq!(partial.moves().len(), 1);
    }

    #[test]
    fn bad_records_are_refused() {
        assert!(read("", None).is_err());
        assert!(read("(;FF[4]GM[1]SZ[9])", None).is_err());
        assert!(read("(;FF[4]OG[odd]SZ[5];B[B:Z99])", None).is_err());
        assert!(read("(;FF[4]OG[odd]SZ[5];B[B:A1];W[W:A1])", None).is_err());
        assert!(read("(;FF[4]OG[odd]SZ[5];B[B:A1]", None).is_err());
    }
}
