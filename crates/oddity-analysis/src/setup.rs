//! Positions to analyse: a game's start plus move tokens, or a turn of a
//! game record (of its main line, or of a variation chosen by number or
//! name). A record is read leniently: a variation with a turn that does
//! not read is cut there, and the cut is reported with the position.

use oddity_rules::{
    GameRecord, GameTree, ReplayError,
    internals::quoted,
    sgf::{self, CutVariation, SgfError},
};

/// Why the position asked for cannot be set up, in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error("games are numbered from 1")]
    GameZero,
    #[error("cannot read the record: {0}")]
    Sgf(#[source] SgfError),
    #[error("there is no game {game}: the file holds {count} game{}", plural(*.count))]
    NoSuchGame { game: usize, count: usize },
    #[error("the record has {turns} turns; there is no turn {turn}")]
    NoSuchTurn { turn: usize, turns: usize },
    #[error("{turns} turn{} of the record read; there is no turn {turn} ({cuts})", plural(*.turns))]
    NoSuchTurnRead {
        turn: usize,
        turns: usize,
        cuts: String,
    },
    #[error("there is no variation {number}: the game has {count} (1 is the main line)")]
    NoSuchVariation { number: usize, count: usize },
    #[error("no turn of the game is named {}", quoted(.0))]
    NoVariationNamed(String),
}

/// A variation of a game: by its number (1, the main line, then the others
/// in the order the file gives them) or by the name of a turn on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Variation {
    Number(usize),
    Named(String),
}

impl Variation {
    /// A number from 1, or else a name.
    pub fn parse(text: &str) -> Variation {
        match text.parse::<usize>() {
            Ok(n) => Variation::Number(n),
            Err(_) => Variation::Named(text.to_string()),
        }
    }
}

/// The game along `variation` of `tree` (it goes on from a named turn by
/// first variations to its end).
pub fn variation(tree: &GameTree, variation: &Variation) -> Result<GameRecord, PositionError> {
    let end = match variation {
        Variation::Number(number) => {
            let leaves = tree.leaves();
            *number.checked_sub(1).and_then(|k| leaves.get(k)).ok_or(
                PositionError::NoSuchVariation {
                    number: *number,
                    count: leaves.len(),
                },
            )?
        }
        Variation::Named(name) => {
            let node = tree
                .preorder()
                .into_iter()
                .find(|&id| tree.name(id) == Some(name.as_str()))
                .ok_or_else(|| PositionError::NoVariationNamed(name.clone()))?;
            *tree.line_from(node).last().expect("the node itself")
        }
    };
    Ok(tree.record(end))
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The main line of the record in SGF `text` cut after `turn` turns (all
/// turns when `None`).
pub fn from_sgf(text: &str, turn: Option<usize>) -> Result<GameRecord, PositionError> {
    from_sgf_game(text, 1, &Variation::Number(1), turn).map(|p| p.record)
}

/// A position of a game record, and what reading the record found.
#[derive(Clone)]
pub struct SgfPosition {
    /// The game up to the position.
    pub record: GameRecord,
    /// How many games the file holds.
    pub games: usize,
    /// How many variations the game has, once cut.
    pub variations: usize,
    /// The variations cut at a turn that did not read, in the file's order.
    pub cuts: Vec<CutVariation>,
}

/// Game `game` (1 for the first) of the SGF collection `text`, along
/// `which` of its variations, cut after `turn` turns (all turns when
/// `None`). A variation with a turn that does not read is cut there
/// ([`sgf::read_game_tree_lenient`]).
pub fn from_sgf_game(
    text: &str,
    game: usize,
    which: &Variation,
    turn: Option<usize>,
) -> Result<SgfPosition, PositionError> {
    if game == 0 {
        return Err(PositionError::GameZero);
    }
    let (tree, games) = sgf::read_game_tree_lenient(text, game - 1).map_err(PositionError::Sgf)?;
    let Some((tree, cuts)) = tree else {
        return Err(PositionError::NoSuchGame { game, count: games });
    };
    let record = variation(&tree, which)?;
    let record = match turn {
        None => record,
        Some(k) if k <= record.moves().len() => record.truncated(k),
        Some(turn) if cuts.is_empty() => {
            return Err(PositionError::NoSuchTurn {
                turn,
                turns: record.moves().len(),
            });
        }
        Some(turn) => {
            let cuts: Vec<String> = cuts.iter().map(CutVariation::to_string).collect();
            return Err(PositionError::NoSuchTurnRead {
                turn,
                turns: record.moves().len(),
                cuts: cuts.join("; "),
            });
        }
    };
    Ok(SgfPosition {
        record,
        games,
        variations: tree.leaves().len(),
        cuts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TREE: &str =
        "(;GM[9000]OG[odd]SZ[3];B[B:A1](;W[W:B1];B[B:C1])(;W[W:C3]N[try];B[B:B2];W[W:A2]))";

    #[test]
    fn the_main_line_by_default_and_variations_by_number_or_name() {
        let turns = |v: &Variation| {
            from_sgf_game(TREE, 1, v, None).map(|p| (p.record.moves().len(), p.variations))
        };
        assert_eq!(turns(&Variation::Number(1)), Ok((3, 2)));
        assert_eq!(turns(&Variation::Number(2)), Ok((4, 2)));
        assert_eq!(turns(&Variation::parse("try")), Ok((4, 2)));
        assert_eq!(from_sgf(TREE, Some(2)).unwrap().moves().len(), 2);
        let e = turns(&Variation::Number(3)).unwrap_err().to_string();
        assert!(e.contains("no variation 3: the game has 2"), "{e}");
        let e = turns(&Variation::parse("x\ny")).unwrap_err().to_string();
        assert_eq!(e, "no turn of the game is named 'x\\ny'");
    }

    /// A broken variation is cut and reported; the others are there.
    #[test]
    fn a_broken_variation_is_cut_and_reported() {
        let text = "(;GM[9000]OG[yodd]SZ[3](;B[B:B3])(;W[garbage]))";
        let p = from_sgf_game(text, 1, &Variation::Number(1), None).unwrap();
        assert_eq!((p.record.moves().len(), p.variations), (1, 1));
        assert_eq!(p.cuts.len(), 1);
        assert_eq!(
            p.cuts[0].to_string(),
            "variation 2 at turn 1, cut from turn 1: turn 1: bad move token 'garbage': \
             'garbage' is not a point of this board"
        );
        // A turn past a cut is refused with the cut.
        let e = from_sgf(text, Some(2)).err().unwrap().to_string();
        assert!(
            e.starts_with("1 turn of the record read; there is no turn 2 (variation 2"),
            "{e}"
        );
    }
}
