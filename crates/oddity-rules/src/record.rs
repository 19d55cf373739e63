//! A game's record: its start, the turns played, resignation, and undo.
//! This is what a referee or a protocol session keeps.

use crate::game::{GameSpec, PlayError};
use crate::kind::GameKind;
use crate::moves::{Colour, TokenError, Turn};
use crate::position::AnyGame;

/// Why a move token could not be played, in words: the token is malformed,
/// or the rules refuse it (`why` names the cells on the board).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TokenPlayError {
    #[error("{0}")]
    /// The token cannot be read.
    Malformed(#[source] TokenError),
    #[error("illegal move '{token}': {why}")]
    /// The rules refuse the turn: the token as given, and why.
    Illegal {
        /// The token as given.
        token: String,
        /// Why the rules refuse it, with the cells named on the board.
        why: String,
    },
}

/// A token of a replayed list that could not be played: `number` counts
/// from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number}: {error}")]
pub struct ReplayError {
    /// Which token, counting from 1.
    pub number: usize,
    /// Why it could not be played.
    pub error: TokenPlayError,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// How a finished game ended.
pub struct Outcome {
    /// Who won.
    pub winner: Colour,
    /// Whether the loser resigned.
    pub by_resignation: bool,
    /// The rule that decided the game.
    pub decision: Decision,
}

/// What decided a finished game, with the counts the rule looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The loser resigned.
    Resignation,
    /// Xodd, Yodd: both sides passed; fewer groups wins.
    /// Xodd, Yodd: both sides passed; fewer groups wins (the groups of
    /// each colour).
    FewerGroups {
        /// Black's groups.
        black: u32,
        /// White's groups.
        white: u32,
    },
    /// Odd: the board is full; Black wins when the number of groups of at
    /// least `min_group` stones (both colours together) is odd.
    LargeGroups {
        /// Black's counted groups.
        black: u32,
        /// White's counted groups.
        white: u32,
        /// The smallest group that counts.
        min_group: usize,
    },
    /// Onyx: the winner's chain joins its two edges.
    Connection,
}

impl Decision {
    /// The rule that decides the finished position `game`, with its counts.
    pub fn of(game: &AnyGame) -> Decision {
        let [black, white] = game.group_counts();
        match game.kind() {
            GameKind::Xodd | GameKind::Yodd => Decision::FewerGroups { black, white },
            GameKind::Odd => Decision::LargeGroups {
                black,
                white,
                min_group: game.spec().min_group(),
            },
            GameKind::Onyx => Decision::Connection,
        }
    }

    /// The counts the rule looked at, for results files: `groups B 3, W 4`
    /// (Xodd, Yodd), `5 counted groups` (Odd), `connection` (Onyx), empty
    /// after a resignation.
    pub fn counts(&self) -> String {
        match *self {
            Decision::Resignation => String::new(),
            Decision::FewerGroups { black, white } => format!("groups B {black}, W {white}"),
            Decision::LargeGroups { black, white, .. } => {
                format!("{} counted groups", black + white)
            }
            Decision::Connection => "connection".into(),
        }
    }
}

impl Outcome {
    /// The result as GTP's `final_score` and SGF's `RE` give it: `B+3`
    /// (Xodd, Yodd: the difference in groups), `W+` (Odd, Onyx), `B+R`
    /// (resignation).
    pub fn score(&self) -> String {
        let w = self.winner.letter();
        match self.decision {
            Decision::Resignation => format!("{w}+R"),
            Decision::FewerGroups { black, white } => format!("{w}+{}", black.abs_diff(white)),
            Decision::LargeGroups { .. } | Decision::Connection => format!("{w}+"),
        }
    }

    /// The deciding rule in one word: `resign`, `groups` or `connection`.
    pub fn rule(&self) -> &'static str {
        match self.decision {
            Decision::Resignation => "resign",
            Decision::FewerGroups { .. } | Decision::LargeGroups { .. } => "groups",
            Decision::Connection => "connection",
        }
    }

    /// Who won and why, in words: "Black wins with fewer groups (Black 1,
    /// White 2)", "White wins: 2 groups of 5+ stones, even", "Black wins by
    /// connecting rows 1 and 12", "White wins: Black resigned".
    pub fn describe(&self, spec: &GameSpec) -> String {
        let name = self.winner.name();
        match self.decision {
            Decision::Resignation => {
                format!("{name} wins: {} resigned", self.winner.opposite().name())
            }
            Decision::FewerGroups { black, white } => {
                format!("{name} wins with fewer groups (Black {black}, White {white})")
            }
            Decision::LargeGroups {
                black,
                white,
                min_group,
            } => {
                let total = black + white;
                format!(
                    "{name} wins: {total} group{} of {min_group}+ stones, {}",
                    if total == 1 { "" } else { "s" },
                    if total % 2 == 1 { "odd" } else { "even" }
                )
            }
            Decision::Connection => {
                let n = spec.size;
                let goal = match self.winner {
                    Colour::Black => format!("rows 1 and {n}"),
                    Colour::White => {
                        format!("columns A and {}", char::from(b'A' + (n - 1) as u8))
                    }
                };
                format!("{name} wins by connecting {goal}")
            }
        }
    }
}

/// The position after `seat` plays `turn` in `position`, as a record
/// plays it: nothing once the game is over (`resigned`, or the position's
/// end); a seat that is not to move takes the turn; a resignation leaves
/// the stones as they are.
pub(crate) fn next_position(
    position: &AnyGame,
    resigned: bool,
    seat: Colour,
    turn: Turn,
) -> Result<AnyGame, PlayError> {
    if resigned || position.is_over() {
        return Err(PlayError::GameOver);
    }
    let mut next = position.clone();
    if turn == Turn::Resign {
        return Ok(next);
    }
    if next.to_move() != seat {
        next.set_to_move(seat);
    }
    next.play_turn(&turn)?;
    Ok(next)
}

#[derive(Clone)]
/// A game: its start, the turns played by each seat, and a resignation.
pub struct GameRecord {
    start: AnyGame,
    moves: Vec<(Colour, Turn)>,
    current: AnyGame,
    resigned: Option<Colour>,
}

impl GameRecord {
    /// A game from `start` with no turn played yet.
    pub fn new(start: AnyGame) -> GameRecord {
        GameRecord {
            current: start.clone(),
            start,
            moves: Vec::new(),
            resigned: None,
        }
    }

    /// The position after every turn played.
    pub fn position(&self) -> &AnyGame {
        &self.current
    }

    /// The position the game started from.
    pub fn start(&self) -> &AnyGame {
        &self.start
    }

    /// The turns played, with the seat that played each.
    pub fn moves(&self) -> &[(Colour, Turn)] {
        &self.moves
    }

    /// Plays `turn` for `seat`, or changes nothing and says why not. A seat
    /// that is not to move takes the turn (GTP allows it); `Turn::Resign`
    /// ends the game.
    pub fn play(&mut self, seat: Colour, turn: Turn) -> Result<(), PlayError> {
        self.current = next_position(&self.current, self.resigned.is_some(), seat, turn)?;
        if turn == Turn::Resign {
            self.resigned = Some(seat);
        }
        self.moves.push((seat, turn));
        Ok(())
    }

    /// Reads `token` as a turn of the position and plays it for the side to
    /// move; on an error the record is unchanged.
    pub fn play_token(&mut self, token: &str) -> Result<Turn, TokenPlayError> {
        let position = self.position();
        let turn = position
            .parse_turn(token)
            .map_err(TokenPlayError::Malformed)?;
        let seat = position.to_move();
        self.play(seat, turn).map_err(|e| TokenPlayError::Illegal {
            token: token.to_string(),
            why: e.describe(self.position().topology()),
        })?;
        Ok(turn)
    }

    /// The record of `tokens` played from `start`, each for the side to
    /// move; the error names the first token that is malformed or illegal.
    pub fn replay<S: AsRef<str>>(start: AnyGame, tokens: &[S]) -> Result<GameRecord, ReplayError> {
        let mut record = GameRecord::new(start);
        for (k, token) in tokens.iter().enumerate() {
            record
                .play_token(token.as_ref())
                .map_err(|error| ReplayError {
                    number: k + 1,
                    error,
                })?;
        }
        Ok(record)
    }

    /// Takes back the last turn; false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some((_, last)) = self.moves.pop() else {
            return false;
        };
        if last == Turn::Resign {
            self.resigned = None;
            return true;
        }
        self.current = self.position_after(self.moves.len());
        true
    }

    /// The position after the first `k` turns (resignations change nothing).
    pub fn position_after(&self, k: usize) -> AnyGame {
        let mut replay = self.start.clone();
        for (seat, turn) in self.moves.iter().take(k) {
            if *turn == Turn::Resign {
                continue;
            }
            if replay.to_move() != *seat {
                replay.set_to_move(*seat);
            }
            replay
                .play_turn(turn)
                .expect("a recorded turn replays legally");
        }
        replay
    }

    /// The record of the first `k` turns only.
    pub fn truncated(&self, k: usize) -> GameRecord {
        let mut out = GameRecord::new(self.start.clone());
        for (seat, turn) in self.moves.iter().take(k) {
            out.play(*seat, *turn)
                .expect("a recorded turn replays legally");
        }
        out
    }

    /// Stones of each colour (indexed by colour) captured in the first
    /// `turns` turns: the stones a turn took off the board beyond what it
    /// placed. The swap moves a stone and captures nothing.
    pub fn captured(&self, turns: usize) -> [u32; 2] {
        let count = |p: &AnyGame| {
            let mut n = [0u32; 2];
            for &c in p.topology().cells() {
                if let Some(colour) = p.stone_at(c) {
                    n[colour.index()] += 1;
                }
            }
            n
        };
        let mut pos = self.start.clone();
        let mut taken = [0u32; 2];
        for (seat, turn) in self.moves.iter().take(turns) {
            let before = count(&pos);
            if pos.to_move() != *seat {
                pos.set_to_move(*seat);
            }
            if *turn == Turn::Resign || pos.play_turn(turn).is_err() {
                break;
            }
            if let Turn::Stones(a, b) = turn {
                let after = count(&pos);
                for colour in Colour::BOTH {
                    let placed = std::iter::once(a)
                        .chain(b)
                        .filter(|s| s.colour == colour)
                        .count() as u32;
                    let i = colour.index();
                    taken[i] += (before[i] + placed).saturating_sub(after[i]);
                }
            }
        }
        taken
    }

    /// Whether the game has ended, by the rules or by a resignation.
    pub fn is_over(&self) -> bool {
        self.resigned.is_some() || self.current.is_over()
    }

    /// How the game ended, once it has.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(loser) = self.resigned {
            return Some(Outcome {
                winner: loser.opposite(),
                by_resignation: true,
                decision: Decision::Resignation,
            });
        }
        self.current.winner().map(|winner| Outcome {
            winner,
            by_resignation: false,
            decision: Decision::of(&self.current),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_rules_name_each_decision() {
        let outcome = |winner, decision| Outcome {
            winner,
            by_resignation: decision == Decision::Resignation,
            decision,
        };
        let fewer = outcome(Colour::White, Decision::FewerGroups { black: 4, white: 1 });
        assert_eq!((fewer.score(), fewer.rule()), ("W+3".into(), "groups"));
        assert_eq!(fewer.decision.counts(), "groups B 4, W 1");
        let large = Decision::LargeGroups {
            black: 2,
            white: 1,
            min_group: 5,
        };
        let odd = outcome(Colour::Black, large);
        assert_eq!((odd.score(), odd.rule()), ("B+".into(), "groups"));
        assert_eq!(large.counts(), "3 counted groups");
        let onyx = outcome(Colour::White, Decision::Connection);
        assert_eq!((onyx.score(), onyx.rule()), ("W+".into(), "connection"));
        let resigned = outcome(Colour::Black, Decision::Resignation);
        assert_eq!(
            (resigned.score(), resigned.rule()),
            ("B+R".into(), "resign")
        );
        assert_eq!(Decision::Resignation.counts(), "");
    }
}
