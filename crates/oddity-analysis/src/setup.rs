//! Positions to analyse: a game's start plus move tokens, or a turn of a
//! game record (of its main line, or of a variation chosen by number or
//! name).

use oddity_rules::{
    GameRecord, GameTree, ReplayError,
    internals::quoted,
    sgf::{self, SgfError},
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
    from_sgf_game(text, 1, &Variation::Number(1), turn).map(|(record, _, _)| record)
}

/// Game `game` (1 for the first) of the SGF collection `text`, along
/// `which` of its variations, cut after `turn` turns (all turns when
/// `None`); with how many games the collection holds and how many
/// variations the game has.
pub fn from_sgf_game(
    text: &str,
    game: usize,
    which: &Variation,
    turn: Option<usize>,
) -> Result<(GameRecord, usize, usize), PositionError> {
    if game == 0 {
        return Err(PositionError::GameZero);
    }
    let (tree, count) = sgf::read_game_tree(text, game - 1).map_err(PositionError::Sgf)?;
    let Some(tree) = tree else {
        return Err(PositionError::NoSuchGame { game, count });
    };
    let record = variation(&tree, which)?;
    let variations = tree.leaves().len();
    match turn {
        None => Ok((record, count, variations)),
        Some(k) if k <= record.moves().len() => Ok((record.truncated(k), count, variations)),
        Some(turn) => Err(PositionError::NoSuchTurn {
            turn,
            turns: record.moves().len(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TREE: &str =
        "(;GM[9000]OG[odd]SZ[3];B[B:A1](;W[W:B1];B[B:C1])(;W[W:C3]N[try];B[B:B2];W[W:A2]))";

    #[test]
    fn the_main_line_by_default_and_variations_by_number_or_name() {
        let turns =
            |v: &Variation| from_sgf_game(TREE, 1, v, None).map(|(r, _, n)| (r.moves().len(), n));
        assert_eq!(turns(&Variation::Number(1)), Ok((3, 2)));
        assert_eq!(turns(&Variation::Number(2)), Ok((4, 2)));
        assert_eq!(turns(&Variation::parse("try")), Ok((4, 2)));
        assert_eq!(from_sgf(TREE, Some(2)).unwrap().moves().len(), 2);
        let e = turns(&Variation::Number(3)).unwrap_err().to_string();
        assert!(e.contains("no variation 3: the game has 2"), "{e}");
        let e = turns(&Variation::parse("x\ny")).unwrap_err().to_string();
        assert_eq!(e, "no turn of the game is named 'x\\ny'");
    }
}
