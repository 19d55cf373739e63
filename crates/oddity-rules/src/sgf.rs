//! Game records in SGF (`FF[4]`) for games SGF has no number for.
//!
//! The flavour: `GM[9000]` (outside the registered 1..40) and the game in the
//! private root property `OG[xodd|yodd|odd|onyx]`; rule options in
//! `OR[min_group=5,start=open,swap=on]`; `SZ[n]` the board size. A set-up
//! position uses `AB`/`AW` with cell names and `PL[B|W]`. Each turn is one
//! node with the seat as property and the whole token as value:
//! `;B[B:C3,W:D4]`, `;W[pass]`, `;W[swap]`, `;B[resign]`. `RE[B+]`, `RE[W+R]`,
//! `RE[B+3]` give the result.
//!
//! Variations are standard SGF: after the node they branch from, each in
//! parentheses, the main line's continuation first; `N[name]` names a
//! node. [`read`] gives the main line, [`read_tree`] the whole tree
//! ([`GameTree`]); every variation is checked by the rules.
//! [`read_tree_lenient`] keeps what reads: a variation with a turn that
//! does not read or is illegal is cut there, and the cut is reported
//! ([`CutVariation`]). Reading and writing loop over their own stacks: no
//! depth of nesting recurses.

use std::fmt::Write as _;

use crate::game::{GameSpec, Rules};
use crate::kind::GameKind;
use crate::moves::{Colour, Stone, Turn};
use crate::position::AnyGame;
use crate::quote::{Escaped, quoted};
use crate::record::{GameRecord, next_position};
use crate::tree::{GameTree, NodeId};

/// The SGF game number used for all four games.
pub const GAME_NUMBER: u32 = 9000;

/// Names and result text written to a record's root node.
#[derive(Clone, Debug, Default)]
pub struct RecordInfo {
    /// Black's player name (`PB`).
    pub black: Option<String>,
    /// White's player name (`PW`).
    pub white: Option<String>,
    /// `RE` value, e.g. `B+`, `W+R`, `B+3`.
    pub result: Option<String>,
    /// `DT` value, e.g. `2026-01-31`.
    pub date: Option<String>,
    /// Free text comment on the root (`GC`).
    pub comment: Option<String>,
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// Writes `record` as SGF.
pub fn write(record: &GameRecord, info: &RecordInfo) -> String {
    write_tree(&GameTree::from_record(record), info)
}

/// Writes `tree` as SGF: its main line as a sequence of nodes, each
/// variation in parentheses after the node it branches from, and each
/// node's name as `N`.
pub fn write_tree(tree: &GameTree, info: &RecordInfo) -> String {
    let start = tree.start();
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
    if let Some(name) = tree.name(GameTree::ROOT) {
        let _ = write!(out, "N[{}]", escape(name));
    }
    if start.turns_played() > 0 || has_stones(start) || !start.looks_like_start() {
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
    // What is left to write, last first: a node (in parentheses when it
    // starts one of several variations), or the end of a variation.
    enum Step {
        Node(NodeId, bool),
        Close,
    }
    let mut steps: Vec<Step> = Vec::new();
    let push_children = |steps: &mut Vec<Step>, id: NodeId| {
        let children = tree.children(id);
        let branches = children.len() > 1;
        for &c in children.iter().rev() {
            steps.push(Step::Node(c, branches));
        }
    };
    push_children(&mut steps, GameTree::ROOT);
    while let Some(step) = steps.pop() {
        let (id, opens) = match step {
            Step::Close => {
                out.push(')');
                continue;
            }
            Step::Node(id, opens) => (id, opens),
        };
        let Some((seat, turn)) = tree.turn(id) else {
            continue;
        };
        out.push('\n');
        if opens {
            out.push('(');
            steps.push(Step::Close);
        }
        let _ = write!(out, ";{}[{}]", seat.letter(), start.token(&turn));
        if let Some(name) = tree.name(id) {
            let _ = write!(out, "N[{}]", escape(name));
        }
        push_children(&mut steps, id);
    }
    out.push_str(")\n");
    out
}

fn has_stones(game: &AnyGame) -> bool {
    let topo = game.topology();
    topo.cells().iter().any(|&c| game.stone_at(c).is_some())
}

/// Why a record could not be read, in words; whatever of the file it
/// quotes is on one line, escaped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SgfError(pub String);

/// One property: its identifier and its values.
type Property = (String, Vec<String>);
type Node = Vec<Property>;

/// A node as read, before the rules look at it.
struct RawNode {
    properties: Node,
    children: Vec<usize>,
}

/// Reads the game tree whose '(' is next, and every game tree after it;
/// returns game `index` (0-based) if there is one, and counts the games.
/// Every game tree is read up to the last, so a malformed one anywhere is
/// an error; text after the last game tree is ignored.
fn parse_collection(text: &str, index: usize) -> Result<(Option<Vec<RawNode>>, usize), SgfError> {
    let mut p = Parser::at_game_tree(text)?;
    let mut chosen = None;
    let mut count = 0;
    while p.peek() == Some('(') {
        let nodes = p
            .game_tree()
            .map_err(|e| SgfError(format!("game {}: {e}", count + 1)))?;
        if count == index {
            chosen = Some(nodes);
        }
        count += 1;
        p.skip_ws();
    }
    Ok((chosen, count))
}

struct Parser {
    chars: Vec<char>,
    i: usize,
}

/// A game tree being read.
struct Tree {
    /// The node it hangs from (none for the outermost tree).
    from: Option<usize>,
    /// The last node of its own sequence.
    last: Option<usize>,
    /// A variation has begun: only more variations or ')' may follow.
    branched: bool,
}

impl Parser {
    /// A parser over `text`, past leading white space, at its first game
    /// tree.
    fn at_game_tree(text: &str) -> Result<Parser, SgfError> {
        let mut p = Parser {
            chars: text.chars().collect(),
            i: 0,
        };
        p.skip_ws();
        if p.peek() != Some('(') {
            return Err(SgfError("not an SGF game tree (no '(')".into()));
        }
        Ok(p)
    }

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

    /// Reads the game tree whose '(' is next: its nodes in the order they
    /// are written, the first the root. The reader keeps its own stack of
    /// open game trees, so any depth of nesting is read in constant call
    /// depth.
    fn game_tree(&mut self) -> Result<Vec<RawNode>, SgfError> {
        let mut nodes: Vec<RawNode> = Vec::new();
        let mut open: Vec<Tree> = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                None => return self.fail("unexpected end of the record"),
                Some('(') => {
                    let from = match open.last_mut() {
                        None => None,
                        Some(parent) => {
                            if parent.last.is_none() {
                                return self.fail("a game tree without a node");
                            }
                            parent.branched = true;
                            parent.last
                        }
                    };
                    self.i += 1;
                    open.push(Tree {
                        from,
                        last: None,
                        branched: false,
                    });
                }
                Some(')') => {
                    let tree = open.pop().expect("a game tree is open here");
                    if tree.last.is_none() {
                        return self.fail("a game tree without a node");
                    }
                    self.i += 1;
                    if open.is_empty() {
                        return Ok(nodes);
                    }
                }
                Some(';') => {
                    let tree = open.last_mut().expect("a game tree is open here");
                    if tree.branched {
                        return self.fail("a node after a variation (expected '(' or ')')");
                    }
                    let id = nodes.len();
                    if let Some(parent) = tree.last.or(tree.from) {
                        nodes[parent].children.push(id);
                    }
                    tree.last = Some(id);
                    nodes.push(RawNode {
                        properties: Vec::new(),
                        children: Vec::new(),
                    });
                    self.i += 1;
                }
                Some(c) if c.is_ascii_uppercase() => {
                    let at = self.i;
                    let tree = open.last().expect("a game tree is open here");
                    let Some(node) = tree.last.filter(|_| !tree.branched) else {
                        return self.fail("a property outside a node");
                    };
                    let property = self.property()?;
                    let node = &mut nodes[node].properties;
                    if node.iter().any(|(id, _)| *id == property.0) {
                        return Err(SgfError(format!(
                            "property {} appears twice in one node at character {at}",
                            property.0
                        )));
                    }
                    node.push(property);
                }
                Some(c) => {
                    return self.fail(&format!("unexpected character {}", quoted(&c.to_string())));
                }
            }
        }
    }

    fn property(&mut self) -> Result<Property, SgfError> {
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

/// Properties that belong to the first node only.
const ROOT_ONLY: [&str; 7] = ["GM", "FF", "CA", "AP", "SZ", "OG", "OR"];
/// Set-up properties: this flavour sets up a position in the first node.
const SET_UP: [&str; 4] = ["AB", "AW", "AE", "PL"];

/// The values of property `ident` in `node`.
fn prop<'a>(node: &'a Node, ident: &str) -> Option<&'a [String]> {
    node.iter()
        .find(|(id, _)| id == ident)
        .map(|(_, v)| v.as_slice())
}

/// The one value of property `ident`, when present; more than one value is
/// an error.
fn single<'a>(node: &'a Node, ident: &str) -> Result<Option<&'a str>, SgfError> {
    match prop(node, ident) {
        None => Ok(None),
        Some([value]) => Ok(Some(value.as_str())),
        Some(values) => Err(SgfError(format!(
            "{ident} has {} values; it takes one",
            values.len()
        ))),
    }
}

/// `ID[value]`, with the value escaped to one line.
fn shown(ident: &str, value: &str) -> String {
    format!("{ident}[{}]", Escaped(value))
}

/// The game, size and rules named in the first node.
fn read_spec(root: &Node) -> Result<GameSpec, SgfError> {
    match single(root, "GM")? {
        None => {}
        Some(gm) if gm.trim() == GAME_NUMBER.to_string() => {}
        Some(gm) => {
            return Err(SgfError(format!(
                "{} is not an oddity record: oddity records have GM[{GAME_NUMBER}]",
                shown("GM", gm)
            )));
        }
    }
    let kind_text = single(root, "OG")?
        .ok_or_else(|| SgfError("no OG[game] property: not an oddity record".into()))?;
    let kind = GameKind::parse(kind_text.trim()).ok_or_else(|| {
        SgfError(format!(
            "unknown game {} (xodd, yodd, odd, onyx)",
            shown("OG", kind_text)
        ))
    })?;
    let size = match single(root, "SZ")? {
        Some(s) => s.trim().parse().map_err(|_| {
            SgfError(format!(
                "{} is not a board size (one whole number)",
                shown("SZ", s)
            ))
        })?,
        None => kind.default_size(),
    };
    let mut rules = Rules::default();
    if let Some(text) = single(root, "OR")? {
        for item in text.split(',').filter(|s| !s.is_empty()) {
            let (name, value) = item.split_once('=').unwrap_or((item, ""));
            rules
                .set(name.trim(), value.trim())
                .map_err(|_| SgfError(format!("OR: {} is not a rule option", quoted(item))))?;
        }
    }
    GameSpec::new(kind, size, rules).map_err(|e| SgfError(format!("SZ[{size}]: {e}")))
}

/// The start position: the game's own, or the set-up of the first node.
fn read_start(root: &Node, spec: &GameSpec) -> Result<AnyGame, SgfError> {
    if !root.iter().any(|(id, _)| SET_UP.contains(&id.as_str())) {
        return Ok(AnyGame::new(spec));
    }
    if prop(root, "AE").is_some() {
        return Err(SgfError(
            "AE (clearing points) is not used by oddity records: list the stones with AB and AW"
                .into(),
        ));
    }
    let topo = spec.topology();
    let mut stones = Vec::new();
    for (tag, colour) in [("AB", Colour::Black), ("AW", Colour::White)] {
        for name in prop(root, tag).unwrap_or(&[]) {
            let cell = topo.parse_cell(name.trim()).ok_or_else(|| {
                SgfError(format!("{}: not a point of this board", shown(tag, name)))
            })?;
            stones.push(Stone { cell, colour });
        }
    }
    let to_move = match single(root, "PL")? {
        Some(p) => Colour::parse(p.trim())
            .ok_or_else(|| SgfError(format!("{}: the player is B or W", shown("PL", p))))?,
        None => Colour::Black,
    };
    let start = AnyGame::from_setup(spec, &stones, to_move)
        .map_err(|e| SgfError(format!("impossible set-up: {}", e.describe(topo))))?;
    // The writer lists the stones of a start that has some (Onyx's
    // standard start): that start is the game's own, with its privileges.
    if start.looks_like_start() {
        return Ok(AnyGame::new(spec));
    }
    Ok(start)
}

/// The move of a node, if it has one: its seat and its token.
fn node_move(node: &Node, number: usize) -> Result<Option<(Colour, &str)>, SgfError> {
    let mut found = None;
    for (tag, seat) in [("B", Colour::Black), ("W", Colour::White)] {
        let Some(token) = single(node, tag).map_err(|e| SgfError(format!("node {number}: {e}")))?
        else {
            continue;
        };
        if found.is_some() {
            return Err(SgfError(format!(
                "node {number} has two moves (B and W): a node holds one turn"
            )));
        }
        found = Some((seat, token.trim()));
    }
    Ok(found)
}

/// Reads a record written in this flavour: its main line (the first
/// variation at every branch). Anything this flavour does not allow, in
/// any variation, is refused with the reason: another game number, a
/// property given twice or with values it does not take, root properties
/// or set-up after the first node, two moves in one node, a malformed or
/// illegal turn.
pub fn read(text: &str) -> Result<GameRecord, SgfError> {
    let tree = read_tree(text)?;
    Ok(tree.record(*tree.main_line().last().expect("the root")))
}

/// Reads the first game tree of `text` whole, its variations and their
/// names included, checked as [`read`] checks it.
pub fn read_tree(text: &str) -> Result<GameTree, SgfError> {
    let mut p = Parser::at_game_tree(text)?;
    tree_of(&p.game_tree()?, Reading::Strict).map(|(tree, _)| tree)
}

/// Reads game `index` (0-based) of a collection of game trees as `read`
/// reads the first (`None` when the collection is shorter), and says how
/// many games the collection holds (the result files of `oddity match`
/// hold one game per tree).
pub fn read_game(text: &str, index: usize) -> Result<(Option<GameRecord>, usize), SgfError> {
    let (tree, count) = read_game_tree(text, index)?;
    let record = tree.map(|tree| tree.record(*tree.main_line().last().expect("the root")));
    Ok((record, count))
}

/// As [`read_game`], the game's whole tree.
pub fn read_game_tree(text: &str, index: usize) -> Result<(Option<GameTree>, usize), SgfError> {
    let (nodes, count) = parse_collection(text, index)?;
    let tree = nodes
        .map(|nodes| tree_of(&nodes, Reading::Strict).map(|(tree, _)| tree))
        .transpose()?;
    Ok((tree, count))
}

/// Reads the first game tree of `text` as [`read_tree`] does, but keeps
/// what reads: a node after the first that [`read_tree`] would refuse (a
/// turn that does not read or is illegal, a property out of place) is
/// left out with every turn after it in its variation, and each such cut
/// is returned in the order of the record. The first node, and the SGF
/// text itself, must still read.
pub fn read_tree_lenient(text: &str) -> Result<(GameTree, Vec<CutVariation>), SgfError> {
    let mut p = Parser::at_game_tree(text)?;
    tree_of(&p.game_tree()?, Reading::Lenient)
}

/// As [`read_game_tree`], read as [`read_tree_lenient`] reads.
#[allow(clippy::type_complexity)]
pub fn read_game_tree_lenient(
    text: &str,
    index: usize,
) -> Result<(Option<(GameTree, Vec<CutVariation>)>, usize), SgfError> {
    let (nodes, count) = parse_collection(text, index)?;
    let tree = nodes
        .map(|nodes| tree_of(&nodes, Reading::Lenient))
        .transpose()?;
    Ok((tree, count))
}

/// A variation cut by [`read_tree_lenient`] at a node that did not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CutVariation {
    /// The way from the start to the cut: at each point where the record
    /// branches off its first variation, the turn and the variation taken
    /// there (none on the main line).
    pub branches: Vec<Branch>,
    /// The turn the cut node would have played (from 1).
    pub turn: usize,
    /// Why the node did not read, as [`read_tree`] says it.
    pub why: SgfError,
}

/// One branch on the way to a [`CutVariation`]: variation `variation`
/// (from 1, the first being the main line's continuation) of those that
/// follow turn `turn - 1`, with turn `turn` its first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Branch {
    /// The turn where the variations part (from 1).
    pub turn: usize,
    /// Which variation is taken there (from 1).
    pub variation: usize,
}

impl std::fmt::Display for CutVariation {
    /// `variation 2 at turn 1, cut from turn 1: turn 1: bad move token
    /// 'garbage'`, or `the main line, cut from turn 3: ...`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.branches.is_empty() {
            write!(f, "the main line")?;
        }
        for (i, b) in self.branches.iter().enumerate() {
            let then = if i == 0 { "" } else { ", then " };
            write!(f, "{then}variation {} at turn {}", b.variation, b.turn)?;
        }
        write!(f, ", cut from turn {}: {}", self.turn, self.why)
    }
}

/// Whether a node that does not read refuses the record or is cut.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    Strict,
    Lenient,
}

/// The game just before a node: its position, whether a seat has
/// resigned, the turns played, and the branches taken to reach it.
#[derive(Clone)]
struct Before {
    position: AnyGame,
    resigned: bool,
    turns: usize,
    branches: Vec<Branch>,
}

/// The tree of one game tree's nodes, checked by the rules, with the
/// variations cut (none when `reading` is strict: the first node that does
/// not read refuses the record). A node after the first without a move (a
/// comment, say) is folded into the node before it: its variations hang
/// from that node, and its name goes there when that node has none.
fn tree_of(nodes: &[RawNode], reading: Reading) -> Result<(GameTree, Vec<CutVariation>), SgfError> {
    let root = &nodes
        .first()
        .ok_or_else(|| SgfError("no nodes".into()))?
        .properties;
    let spec = read_spec(root)?;
    let start = read_start(root, &spec)?;
    let set_up = root.iter().any(|(id, _)| SET_UP.contains(&id.as_str()));
    if node_move(root, 1)?.is_some() && set_up {
        return Err(SgfError(
            "node 1 mixes set-up and a move: a turn goes in a node of its own".into(),
        ));
    }
    let mut tree = GameTree::new(start.clone());
    if let Some(name) = single(root, "N")? {
        tree.set_name(GameTree::ROOT, Some(name.to_string()));
    }
    let mut cuts = Vec::new();
    // Raw nodes still to read, last first: each with the tree node it
    // hangs from and the game there.
    let before = Before {
        position: start,
        resigned: false,
        turns: 0,
        branches: Vec::new(),
    };
    let mut stack = vec![(0, GameTree::ROOT, before)];
    while let Some((raw, parent, before)) = stack.pop() {
        let (at, after) = match add_node(&mut tree, &spec, nodes, raw, parent, &before) {
            Ok(added) => added,
            Err(why) if reading == Reading::Lenient && raw != 0 => {
                cuts.push(CutVariation {
                    branches: before.branches,
                    turn: before.turns + 1,
                    why,
                });
                continue;
            }
            Err(why) => return Err(why),
        };
        for (i, &child) in nodes[raw].children.iter().enumerate().rev() {
            let mut next = after.clone();
            if i > 0 {
                next.branches.push(Branch {
                    turn: after.turns + 1,
                    variation: i + 1,
                });
            }
            stack.push((child, at, next));
        }
    }
    Ok((tree, cuts))
}

/// Adds raw node `raw` (hanging from `parent`, with the game `before` it)
/// to `tree`: its turn as a child of `parent`, or, for a node without a
/// move, its name on `parent`. Returns the node it became and the game
/// after it; a node that does not read is refused with the reason,
/// changing nothing.
fn add_node(
    tree: &mut GameTree,
    spec: &GameSpec,
    nodes: &[RawNode],
    raw: usize,
    parent: NodeId,
    before: &Before,
) -> Result<(NodeId, Before), SgfError> {
    let number = raw + 1;
    let node = &nodes[raw].properties;
    let first = raw == 0;
    if !first {
        if let Some((id, _)) = node.iter().find(|(id, _)| ROOT_ONLY.contains(&id.as_str())) {
            return Err(SgfError(format!(
                "node {number}: {id} belongs to the first node only"
            )));
        }
        if let Some((id, _)) = node.iter().find(|(id, _)| SET_UP.contains(&id.as_str())) {
            return Err(SgfError(format!(
                "node {number}: set-up ({id}) after the first node; oddity records set up \
                 a position only in the first node"
            )));
        }
    }
    let name = single(node, "N").map_err(|e| SgfError(format!("node {number}: {e}")))?;
    let Some((seat, token)) = node_move(node, number)? else {
        if !first && tree.name(parent).is_none() {
            tree.set_name(parent, name.map(str::to_string));
        }
        return Ok((parent, before.clone()));
    };
    let topo = spec.topology();
    let turn_number = before.turns + 1;
    let turn = Turn::parse(token, spec.kind, topo, seat)
        .map_err(|e| SgfError(format!("turn {turn_number}: {e}")))?;
    let next = next_position(&before.position, before.resigned, seat, turn).map_err(|e| {
        SgfError(format!(
            "turn {turn_number} ({}) is illegal: {}",
            Escaped(token),
            e.describe(topo)
        ))
    })?;
    let id = match tree.child_with(parent, seat, turn) {
        Some(id) => id,
        None => tree.push(parent, seat, turn),
    };
    if let Some(name) = name {
        tree.set_name(id, Some(name.to_string()));
    }
    let after = Before {
        position: next,
        resigned: before.resigned || turn == Turn::Resign,
        turns: turn_number,
        branches: before.branches.clone(),
    };
    Ok((id, after))
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
        let back = read(&text).unwrap();
        assert_eq!(back.moves(), record.moves());
    }

    #[test]
    fn bad_records_are_refused() {
        assert!(read("").is_err());
        assert!(read("(;FF[4]GM[1]SZ[9])").is_err());
        assert!(read("(;FF[4]OG[odd]SZ[5];B[B:Z99])").is_err());
        assert!(read("(;FF[4]OG[odd]SZ[5];B[B:A1];W[W:A1])").is_err());
        assert!(read("(;FF[4]OG[odd]SZ[5];B[B:A1]").is_err());
    }

    /// The reason a record is refused.
    fn refusal(text: &str) -> String {
        match read(text) {
            Ok(_) => panic!("{text} was accepted"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn deep_nesting_is_read_without_recursion() {
        // Far deeper than any call stack: the reader keeps its own stack.
        let depth = 200_000;
        let mut text = String::from("(;GM[9000]OG[odd]SZ[3]");
        for _ in 0..depth {
            text.push_str("(;");
        }
        text.push_str("B[B:A1]");
        text.push_str(&")".repeat(depth + 1));
        assert_eq!(read(&text).unwrap().moves().len(), 1);
        // Unclosed, and bare parentheses: refused in words.
        let open = "(".repeat(depth);
        assert!(refusal(&open).contains("game tree without a node"));
        let unclosed = format!("(;GM[9000]OG[odd]SZ[3]{}", "(;".repeat(depth));
        assert!(refusal(&unclosed).contains("unexpected end"));
    }

    #[test]
    fn a_collection_is_read_game_by_game() {
        let text = "(;GM[9000]OG[odd]SZ[3];B[B:A1])\n(;GM[9000]OG[xodd]SZ[3];B[B:B2];W[pass])\n";
        let (first, count) = read_game(text, 0).unwrap();
        assert_eq!((first.unwrap().moves().len(), count), (1, 2));
        let (second, _) = read_game(text, 1).unwrap();
        assert_eq!(second.unwrap().position().kind(), GameKind::Xodd);
        assert!(read_game(text, 2).unwrap().0.is_none());
        let broken = format!("{text}(;GM[9000]OG[odd]SZ[3];B[B:A1]");
        let Err(e) = read_game(&broken, 0) else {
            panic!("a broken third game is an error")
        };
        assert!(e.0.starts_with("game 3: "), "{e}");
        assert_eq!(read(&broken).unwrap().moves().len(), 1);
    }

    #[test]
    fn the_main_line_follows_first_variations() {
        let text = "(;GM[9000]OG[odd]SZ[3];B[B:A1](;W[W:B1](;B[B:C1])(;B[B:C2]))(;W[W:C3]))";
        let record = read(text).unwrap();
        let tokens: Vec<String> = record
            .moves()
            .iter()
            .map(|(_, t)| record.start().token(t))
            .collect();
        assert_eq!(tokens, ["B:A1", "W:B1", "B:C1"]);
        assert!(refusal("(;GM[9000]OG[odd]SZ[3](;B[B:A1]);W[W:B1])").contains("after a variation"));
        assert!(refusal("(;GM[9000]OG[odd]SZ[3]()").contains("without a node"));
    }

    /// Every node of `tree` in SGF order: its depth, token and name.
    fn shape(tree: &GameTree) -> Vec<(usize, String, Option<String>)> {
        tree.preorder()
            .into_iter()
            .map(|id| {
                let token = tree
                    .turn(id)
                    .map(|(seat, t)| format!("{}[{}]", seat.letter(), tree.start().token(&t)));
                (
                    tree.depth(id),
                    token.unwrap_or_default(),
                    tree.name(id).map(str::to_string),
                )
            })
            .collect()
    }

    #[test]
    fn variations_and_their_names_round_trip() {
        let text = "(;GM[9000]OG[odd]SZ[3]N[game];B[B:A1](;W[W:B1]N[main](;B[B:C1])\
                    (;B[B:C2]N[a\\]b]))(;W[W:C3]N[try];B[B:B2]))";
        let tree = read_tree(text).unwrap();
        let want = |depth: usize, token: &str, name: Option<&str>| {
            (depth, token.to_string(), name.map(str::to_string))
        };
        assert_eq!(
            shape(&tree),
            [
                want(0, "", Some("game")),
                want(1, "B[B:A1]", None),
                want(2, "W[W:B1]", Some("main")),
                want(3, "B[B:C1]", None),
                want(3, "B[B:C2]", Some("a]b")),
                want(2, "W[W:C3]", Some("try")),
                want(3, "B[B:B2]", None),
            ]
        );
        let written = write_tree(&tree, &RecordInfo::default());
        assert!(written.contains("(;B[B:C2]N[a\\]b])"), "{written}");
        let back = read_tree(&written).unwrap();
        assert_eq!(shape(&back), shape(&tree));
        assert_eq!(write_tree(&back, &RecordInfo::default()), written);
        // The main line is what a plain reader sees.
        assert_eq!(read(&written).unwrap().moves().len(), 3);
        // A single line is written without parentheses inside.
        let line = write(&read(text).unwrap(), &RecordInfo::default());
        assert_eq!(line.matches('(').count(), 1, "{line}");
    }

    #[test]
    fn nodes_without_a_move_fold_into_the_node_before() {
        let text = "(;GM[9000]OG[odd]SZ[3];C[x];B[B:A1];N[here](;W[W:B1])(;W[W:C1]))";
        let tree = read_tree(text).unwrap();
        let a1 = tree.children(GameTree::ROOT)[0];
        assert_eq!(tree.name(a1), Some("here"));
        assert_eq!(tree.children(a1).len(), 2);
        // The same turn twice from one node is one variation.
        let twice = read_tree("(;GM[9000]OG[odd]SZ[3](;B[B:A1])(;B[B:A1];W[W:B1]))").unwrap();
        assert_eq!(twice.len(), 3);
    }

    #[test]
    fn an_illegal_turn_in_any_variation_is_refused() {
        let why = refusal("(;GM[9000]OG[odd]SZ[3];B[B:A1](;W[W:B1])(;W[W:A1]))");
        assert!(
            why.contains("turn 2 (W:A1) is illegal: A1 is not empty"),
            "{why}"
        );
        let why = refusal("(;GM[9000]OG[odd]SZ[3];B[B:A1](;W[W:B1])(;SZ[4]))");
        assert!(
            why.contains("node 4: SZ belongs to the first node"),
            "{why}"
        );
    }

    /// The turns of a tree's main line.
    fn main_tokens(tree: &GameTree) -> Vec<String> {
        let record = tree.record(*tree.main_line().last().unwrap());
        record
            .moves()
            .iter()
            .map(|(_, t)| record.start().token(t))
            .collect()
    }

    /// A variation that does not read is cut at its bad turn, named by
    /// its way from the start; the main line and the other variations
    /// stay whole. The strict read refuses the same record.
    #[test]
    fn the_lenient_read_cuts_only_the_broken_variation() {
        let text = "(;GM[9000]OG[yodd]SZ[3](;B[B:B3])(;W[garbage]))";
        assert!(read_tree(text).is_err());
        let (tree, cuts) = read_tree_lenient(text).unwrap();
        assert_eq!(main_tokens(&tree), ["B:B3"]);
        assert_eq!(tree.len(), 2);
        assert_eq!(cuts.len(), 1);
        let cut = &cuts[0];
        assert_eq!(
            (cut.branches.as_slice(), cut.turn),
            (
                &[Branch {
                    turn: 1,
                    variation: 2
                }][..],
                1
            )
        );
        assert_eq!(
            cut.to_string(),
            "variation 2 at turn 1, cut from turn 1: turn 1: bad move token 'garbage': \
             'garbage' is not a point of this board"
        );

        // Deeper: the third variation at turn 2, then the second at turn
        // 3, illegal at its turn 4; its turns before the bad one, the main
        // line and the other variations are kept.
        let text = "(;GM[9000]OG[odd]SZ[3];B[B:A1](;W[W:B1];B[B:C1])(;W[W:A2])\
                    (;W[W:A3](;B[B:B2])(;B[B:C2];W[W:C2];B[B:B3])))";
        let (tree, cuts) = read_tree_lenient(text).unwrap();
        assert_eq!(main_tokens(&tree), ["B:A1", "W:B1", "B:C1"]);
        let branches = [
            Branch {
                turn: 2,
                variation: 3,
            },
            Branch {
                turn: 3,
                variation: 2,
            },
        ];
        assert_eq!(cuts.len(), 1);
        assert_eq!(
            (cuts[0].branches.as_slice(), cuts[0].turn),
            (&branches[..], 4)
        );
        let note = cuts[0].to_string();
        assert!(
            note.starts_with(
                "variation 3 at turn 2, then variation 2 at turn 3, cut from turn 4: "
            ) && note.contains("C2 is not empty"),
            "{note}"
        );
        // root, A1, B1, C1, A2, A3, B2, C2 (its W:C2 and after cut).
        assert_eq!(tree.len(), 8);
        assert_eq!(tree.leaves().len(), 4);

        // A bad turn on the main line ends it there; nodes out of place
        // are cut as bad turns are; what reads whole is read as the
        // strict read reads it.
        let text = "(;GM[9000]OG[odd]SZ[3];B[B:A1];W[W:A1](;B[B:B1])(;B[B:C1]))";
        let (tree, cuts) = read_tree_lenient(text).unwrap();
        assert_eq!(
            (main_tokens(&tree), tree.len()),
            (vec!["B:A1".to_string()], 2)
        );
        assert_eq!(
            cuts[0].to_string().split(':').next(),
            Some("the main line, cut from turn 2")
        );
        let (_, cuts) =
            read_tree_lenient("(;GM[9000]OG[odd]SZ[3];B[B:A1](;W[W:B1])(;SZ[4]))").unwrap();
        assert!(
            cuts[0]
                .to_string()
                .contains("node 4: SZ belongs to the first node"),
            "{}",
            cuts[0]
        );
        let whole = "(;GM[9000]OG[odd]SZ[3];B[B:A1](;W[W:B1])(;W[W:C1]))";
        let (tree, cuts) = read_tree_lenient(whole).unwrap();
        assert!(cuts.is_empty());
        assert_eq!(
            write_tree(&tree, &RecordInfo::default()),
            write_tree(&read_tree(whole).unwrap(), &RecordInfo::default())
        );
        // The first node and the text itself must still read.
        assert!(read_tree_lenient("(;GM[9000]OG[odd]SZ[3];B[B:A1]").is_err());
        assert!(read_tree_lenient("(;GM[9000]OG[odd]SZ[3]B[garbage])").is_err());
        let (game, count) = read_game_tree_lenient(&format!("{whole}{text}"), 1).unwrap();
        assert_eq!((game.unwrap().1.len(), count), (1, 2));
    }

    #[test]
    fn quoted_input_is_escaped_on_one_line() {
        for text in [
            "(;GM[9000]OG[odd]SZ[3];B[\n\tHI910])",
            "(;GM[9000]OG[od\nd]SZ[3])",
            "(;GM[9\u{1b}]OG[odd]SZ[3])",
            "(;GM[9000]OG[odd]SZ[3\rx])",
            "(;GM[9000]OG[odd]SZ[3]AB[A\n1])",
            "(;GM[9000]OG[odd]SZ[3]OR[sw\nap=on])",
            "(;GM[9000]OG[odd]SZ[3]\u{7}",
        ] {
            let why = refusal(text);
            assert!(crate::quote::is_one_line(&why), "{why:?}");
        }
        let why = refusal("(;GM[9000]OG[onyx]SZ[12];B[HI\n\t910])");
        assert!(
            why.contains("'HI\\n\\t910'") && why.contains("a line break"),
            "{why}"
        );
    }

    #[test]
    fn wrong_records_are_refused_in_words() {
        for (text, reason) in [
            ("(;GM[1]OG[odd]SZ[3])", "GM[1] is not an oddity record"),
            ("(;GM[]OG[odd]SZ[3])", "GM[] is not an oddity record"),
            ("(;GM[9000][9000]OG[odd]SZ[3])", "GM has 2 values"),
            ("(;GM[9000]OG[odd]SZ[3:3])", "SZ[3:3] is not a board size"),
            ("(;GM[9000]OG[odd]SZ[3]SZ[4])", "SZ appears twice"),
            ("(;GM[9000]OG[odd]SZ[99])", "size 99 is not supported"),
            ("(;GM[9000]OG[chess]SZ[3])", "unknown game OG[chess]"),
            (
                "(;GM[9000]OG[odd]SZ[3]OR[colour=red])",
                "'colour=red' is not a rule option",
            ),
            (
                "(;GM[9000]OG[odd]SZ[3];AB[A1];W[W:A1])",
                "node 2: set-up (AB) after the first node",
            ),
            (
                "(;GM[9000]OG[odd]SZ[3];B[B:A1];SZ[5])",
                "node 3: SZ belongs to the first node",
            ),
            (
                "(;GM[9000]OG[odd]SZ[3];B[B:A1][B:Z99])",
                "node 2: B has 2 values",
            ),
            (
                "(;GM[9000]OG[odd]SZ[3];B[B:A1]W[W:B1])",
                "node 2 has two moves",
            ),
            (
                "(;GM[9000]OG[odd]SZ[3]AB[A1]B[B:B1])",
                "mixes set-up and a move",
            ),
            (
                "(;GM[9000]OG[odd]SZ[3]AB[A1][A1])",
                "impossible set-up: two stones on A1",
            ),
            (
                "(;GM[9000]OG[odd]SZ[3]AB[Z9])",
                "AB[Z9]: not a point of this board",
            ),
            (
                "(;GM[9000]OG[odd]SZ[3]AE[A1])",
                "AE (clearing points) is not used",
            ),
            (
                "(;GM[9000]OG[odd]SZ[3]PL[X])",
                "PL[X]: the player is B or W",
            ),
            (
                "(;GM[9000]OG[odd]SZ[3];B[B:A1];W[W:A1])",
                "turn 2 (W:A1) is illegal: A1 is not empty",
            ),
        ] {
            let why = refusal(text);
            assert!(why.contains(reason), "{text}: {why}");
            assert!(!why.contains("Cell("), "{text}: {why}");
        }
    }

    #[test]
    fn onyx_standard_start_keeps_the_swap() {
        let spec = GameSpec::default_for(GameKind::Onyx);
        let mut record = GameRecord::new(AnyGame::new(&spec));
        for token in ["E5", "swap"] {
            let seat = record.position().to_move();
            let turn = record.position().parse_turn(token).unwrap();
            record.play(seat, turn).unwrap();
        }
        let text = write(&record, &RecordInfo::default());
        let back = read(&text).unwrap();
        assert_eq!(back.moves(), record.moves());
    }

    #[test]
    fn an_empty_set_up_keeps_its_player() {
        for text in [
            "(;GM[9000]OG[onyx]SZ[8]PL[B])",
            "(;GM[9000]OG[odd]SZ[3]PL[W])",
        ] {
            let record = read(text).unwrap();
            let written = write(&record, &RecordInfo::default());
            let back = read(&written).unwrap();
            assert_eq!(back.position().to_move(), record.position().to_move());
            assert_eq!(write(&back, &RecordInfo::default()), written);
        }
    }

    #[test]
    fn set_up_in_the_first_node_is_kept() {
        let record = read("(;GM[9000]OG[odd]SZ[3]AB[A1]AW[B1]PL[W];W[W:C1])").unwrap();
        let start = record.start();
        let topo = start.topology();
        assert_eq!(
            start.stone_at(topo.parse_cell("A1").unwrap()),
            Some(Colour::Black)
        );
        assert_eq!(
            start.stone_at(topo.parse_cell("B1").unwrap()),
            Some(Colour::White)
        );
        assert_eq!(record.moves().len(), 1);
    }
}
