//! [`AnyGame`]: any game on any board behind one type, for the layers that
//! choose the game at run time (protocol, match runner, command line).
//! Generic code gets the concrete type back through [`crate::with_game!`].

use crate::game::{Game, GameSpec, Inconsistency, PlayError, SetupError, width_for};
use crate::kind::GameKind;
use crate::moves::{Colour, Stone, TokenError, Turn};
use crate::odd::OddGame;
use crate::onyx::OnyxGame;
use crate::topology::{Cell, Topology};
use crate::xodd_yodd::XoddYoddGame;

// Positions are plain data copied whole; boxing the large boards would add an
// allocation to every copy.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
/// Any game on any board, for the layers that choose the game at run time.
///
/// Each variant is one game type at one bitboard width: the number is how
/// many bits its bitboards hold (128, 256 or 640), the smallest that holds
/// the board's cells ([`crate::width_for`]). [`AnyGame::new`] picks it;
/// [`crate::with_game!`] gives back the concrete game.
pub enum AnyGame {
    /// Xodd or Yodd on a board of at most 128 cells.
    XoddYodd128(XoddYoddGame<2>),
    /// Xodd or Yodd on a board of at most 256 cells.
    XoddYodd256(XoddYoddGame<4>),
    /// Xodd or Yodd on a board of at most 640 cells.
    XoddYodd640(XoddYoddGame<10>),
    /// Odd on a board of at most 128 cells.
    Odd128(OddGame<2>),
    /// Odd on a board of at most 256 cells.
    Odd256(OddGame<4>),
    /// Odd on a board of at most 640 cells.
    Odd640(OddGame<10>),
    /// Onyx on a board of at most 128 cells.
    Onyx128(OnyxGame<2>),
    /// Onyx on a board of at most 256 cells.
    Onyx256(OnyxGame<4>),
    /// Onyx on a board of at most 640 cells.
    Onyx640(OnyxGame<10>),
}

/// Runs `$body` with `$g` bound to the concrete game inside an [`AnyGame`]
/// (by value, reference or mutable reference, as `$any` is).
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::AnyGame::XoddYodd128($g) => $body,
            $crate::AnyGame::XoddYodd256($g) => $body,
            $crate::AnyGame::XoddYodd640($g) => $body,
            $crate::AnyGame::Odd128($g) => $body,
            $crate::AnyGame::Odd256($g) => $body,
            $crate::AnyGame::Odd640($g) => $body,
            $crate::AnyGame::Onyx128($g) => $body,
            $crate::AnyGame::Onyx256($g) => $body,
            $crate::AnyGame::Onyx640($g) => $body,
        }
    };
}

/// Runs `$body` with `$g` bound to the concrete Xodd or Yodd game inside
/// an [`AnyGame`], as [`crate::with_game!`] does, for code that uses what only
/// [`XoddYoddGame`] has (its playouts drawing stones by weight, say).
///
/// # Panics
///
/// When `$any` holds another game.
///
/// ```
/// use oddity_rules::{AnyGame, Colour, DrawnBoard, GameKind, GameSpec, Rules, with_xodd_yodd};
///
/// let start = AnyGame::new(&GameSpec::new(GameKind::Xodd, 4, Rules::default()).unwrap());
/// // No group is next to a point of the empty board.
/// assert_eq!(with_xodd_yodd!(&start, g => g.groups_next_to(0, Colour::Black)), 0);
/// ```
#[macro_export]
macro_rules! with_xodd_yodd {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::AnyGame::XoddYodd128($g) => $body,
            $crate::AnyGame::XoddYodd256($g) => $body,
            $crate::AnyGame::XoddYodd640($g) => $body,
            other => panic!("{} is not Xodd or Yodd", other.spec().kind),
        }
    };
}

/// Evaluates `$make` (a `Result<$G, _>`) with `$G` the concrete game type
/// for `$spec`'s game and bitboard width, and wraps it in [`AnyGame`].
macro_rules! build_any {
    ($spec:expr, $G:ident => $make:expr) => {{
        let spec: &GameSpec = $spec;
        match (spec.kind, width_for(spec.topology().bits)) {
            (GameKind::Xodd | GameKind::Yodd, 2) => {
                type $G = XoddYoddGame<2>;
                $make.map(AnyGame::XoddYodd128)
            }
            (GameKind::Xodd | GameKind::Yodd, 4) => {
                type $G = XoddYoddGame<4>;
                $make.map(AnyGame::XoddYodd256)
            }
            (GameKind::Xodd | GameKind::Yodd, _) => {
                type $G = XoddYoddGame<10>;
                $make.map(AnyGame::XoddYodd640)
            }
            (GameKind::Odd, 2) => {
                type $G = OddGame<2>;
                $make.map(AnyGame::Odd128)
            }
            (GameKind::Odd, 4) => {
                type $G = OddGame<4>;
                $make.map(AnyGame::Odd256)
            }
            (GameKind::Odd, _) => {
                type $G = OddGame<10>;
                $make.map(AnyGame::Odd640)
            }
            (GameKind::Onyx, 2) => {
                type $G = OnyxGame<2>;
                $make.map(AnyGame::Onyx128)
            }
            (GameKind::Onyx, 4) => {
                type $G = OnyxGame<4>;
                $make.map(AnyGame::Onyx256)
            }
            (GameKind::Onyx, _) => {
                type $G = OnyxGame<10>;
                $make.map(AnyGame::Onyx640)
            }
        }
    }};
}

impl AnyGame {
    /// The start position of `spec`.
    pub fn new(spec: &GameSpec) -> AnyGame {
        let built: Result<AnyGame, SetupError> = build_any!(spec, G => Ok(G::new(spec)));
        built.expect("a start position always exists")
    }

    /// A set-up position: `stones` on the board, `to_move` to play.
    pub fn from_setup(
        spec: &GameSpec,
        stones: &[Stone],
        to_move: Colour,
    ) -> Result<AnyGame, SetupError> {
        build_any!(spec, G => G::from_setup(spec, stones, to_move))
    }

    /// The game, board size and rule options.
    pub fn spec(&self) -> &GameSpec {
        with_game!(self, g => g.spec())
    }

    /// The game.
    pub fn kind(&self) -> GameKind {
        self.spec().kind
    }

    /// The board.
    pub fn topology(&self) -> &'static Topology {
        with_game!(self, g => g.topology())
    }

    /// The seat to move.
    pub fn to_move(&self) -> Colour {
        with_game!(self, g => g.to_move())
    }

    /// Gives the next turn to `seat`; only between turns.
    pub fn set_to_move(&mut self, seat: Colour) {
        with_game!(self, g => g.set_to_move(seat))
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        with_game!(self, g => g.is_over())
    }

    /// The winner once the game is over.
    pub fn winner(&self) -> Option<Colour> {
        with_game!(self, g => g.winner())
    }

    /// The colour of the stone on `cell`, if any.
    pub fn stone_at(&self, cell: Cell) -> Option<Colour> {
        with_game!(self, g => g.stone_at(cell))
    }

    /// The groups that count, Black's and White's: all groups in Xodd and
    /// Yodd, those of at least the smallest counted size in Odd, all chains in
    /// Onyx.
    pub fn group_counts(&self) -> [u32; 2] {
        with_game!(self, g => g.group_counts())
    }

    /// Whole turns played since the start.
    pub fn turns_played(&self) -> u32 {
        with_game!(self, g => g.turns_played())
    }

    /// Every legal turn, each once.
    pub fn legal_turns(&self) -> Vec<Turn> {
        with_game!(self, g => g.legal_turns())
    }

    /// Plays a whole turn, or says why it is illegal (the position is then
    /// unchanged).
    pub fn play_turn(&mut self, turn: &Turn) -> Result<(), PlayError> {
        with_game!(self, g => g.play_turn(turn))
    }

    /// Checks the position's derived state against a recount from its stones
    /// (for tests and fuzzing).
    pub fn check_consistency(&self) -> Result<(), Inconsistency> {
        with_game!(self, g => g.check_consistency())
    }

    /// perft(depth), with the first actions' subtrees counted on rayon's
    /// threads when the `parallel` feature is on.
    pub fn perft(&self, depth: u32) -> u64 {
        #[cfg(feature = "parallel")]
        return with_game!(self, g => crate::perft::perft_parallel(g, depth));
        #[cfg(not(feature = "parallel"))]
        return with_game!(self, g => crate::perft::perft(g, depth));
    }

    /// Points that hold no stone.
    pub fn empty_points(&self) -> usize {
        let stones: u32 = Colour::BOTH
            .iter()
            .map(|&c| {
                with_game!(self, g => g.stone_words(c)
                    .iter()
                    .map(|w| w.count_ones())
                    .sum::<u32>())
            })
            .sum();
        self.topology().cell_count() - stones as usize
    }

    /// Whether the board and the side to move are those of the start of
    /// this game (a set-up may repeat them).
    pub fn looks_like_start(&self) -> bool {
        let start = AnyGame::new(self.spec());
        self.to_move() == start.to_move()
            && self
                .topology()
                .cells()
                .iter()
                .all(|&c| self.stone_at(c) == start.stone_at(c))
    }

    /// Reads a token for the side to move.
    pub fn parse_turn(&self, token: &str) -> Result<Turn, TokenError> {
        Turn::parse(token, self.kind(), self.topology(), self.to_move())
    }

    /// The canonical token of `turn` on this board.
    pub fn token(&self, turn: &Turn) -> String {
        turn.to_token(self.kind(), self.topology())
    }

    /// The cells whose stones `turn` put down, asked of the position right
    /// after it: a turn's own stones, and for Onyx's swap the white stone
    /// that took the place of Black's first (the one white stone the
    /// game's start lacks). A pass or a resignation puts down none.
    pub fn placed_by(&self, turn: &Turn) -> Vec<Cell> {
        match turn {
            Turn::Stones(a, b) => std::iter::once(a)
                .chain(b.as_ref())
                .map(|s| s.cell)
                .collect(),
            Turn::Swap => {
                let start = AnyGame::new(self.spec());
                self.topology()
                    .cells()
                    .iter()
                    .copied()
                    .filter(|&c| {
                        self.stone_at(c) == Some(Colour::White)
                            && start.stone_at(c) != Some(Colour::White)
                    })
                    .collect()
            }
            Turn::Pass | Turn::Resign => Vec::new(),
        }
    }
}
