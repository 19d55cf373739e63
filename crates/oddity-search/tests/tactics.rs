//! Tactics: positions whose right turn is known, which the default policy
//! finds within a stated number of visits and the plain policy does not.
//!
//! Each right turn is checked to be a proven win: exactly in Odd, with a
//! deep search (the solver) in the other games. The default policy must choose it with each of five seeds; the
//! plain policy, with the same visits, with at most [`PLAIN_MAX`] of them,
//! and none of its other choices may be a proven win. Single thread, fixed
//! seeds: the searches are deterministic.
//!
//! Onyx stones that win at once are checked apart ([`check_wins_at_once`]):
//! the default policy must find and prove them within a few visits, and
//! the plain policy, which tries every child before any twice, finds them
//! too.

use oddity_rules::{AnyGame, Colour, GameKind, GameRecord, GameSpec, Rules, Stone, Turn};
use oddity_search::{Engine, Limits, Policy, Report, SearchParams, StopFlag};

/// Seeds of the searches.
const SEEDS: [u64; 5] = [1, 2, 3, 4, 5];
/// Seeds with which the plain policy may find the right turn.
const PLAIN_MAX: usize = 2;
/// Visits of the search that proves a turn's result.
const PROOF_VISITS: u64 = 20_000;

struct Tactic {
    kind: GameKind,
    size: usize,
    to_move: Colour,
    /// `B:A1 W:C1 ...`
    stones: &'static str,
    /// The winning turn.
    right: &'static str,
    /// Visits the default policy gets (and the plain policy with it).
    visits: u64,
}

fn position(t: &Tactic) -> AnyGame {
    let spec = GameSpec::new(t.kind, t.size, Rules::default()).unwrap();
    let topo = spec.topology();
    let stones: Vec<Stone> = t
        .stones
        .split_whitespace()
        .map(|s| {
            let (c, cell) = s.split_once(':').unwrap();
            Stone {
                colour: Colour::parse(c).unwrap(),
                cell: topo.parse_cell(cell).unwrap(),
            }
        })
        .collect();
    AnyGame::from_setup(&spec, &stones, t.to_move).unwrap()
}

fn search(pos: &AnyGame, policy: Policy, visits: u64, seed: u64) -> Report {
    let mut engine = Engine::new(SearchParams {
        threads: 1,
        seed,
        policy,
        memory_mb: 256,
        ..SearchParams::default()
    });
    engine.set_position(&GameRecord::new(pos.clone()));
    let limits = Limits {
        visits: Some(visits),
        ..Limits::default()
    };
    engine.search(&limits, &StopFlag::new(), None)
}

/// The proven winner after `turn` (None when the deep search cannot tell).
fn proven_after(pos: &AnyGame, turn: &Turn) -> Option<Colour> {
    let mut next = pos.clone();
    next.play_turn(turn).unwrap();
    if let Some(w) = next.winner() {
        return Some(w);
    }
    if next.kind() == GameKind::Odd {
        return Some(OddSolver::new(&next).winner());
    }
    search(&next, Policy::Default, PROOF_VISITS, 1).proven
}

/// Exact Odd endgames: the result depends only on the final colouring of
/// the empty cells, so each of the `2^e` colourings is scored once and the
/// game tree is a minimax over (filled cells, their colours) with a memo.
struct OddSolver {
    /// Winner of each final colouring (bit i set: empty cell i white).
    leaves: Vec<Colour>,
    cells: usize,
    first: Colour,
    memo: std::collections::HashMap<(u32, u32), Colour>,
}

impl OddSolver {
    fn new(pos: &AnyGame) -> OddSolver {
        let empties: Vec<_> = pos
            .topology()
            .cells()
            .iter()
            .copied()
            .filter(|&c| pos.stone_at(c).is_none())
            .collect();
        assert!(empties.len() <= 16, "too many empty cells to solve");
        let leaves = (0..1u32 << empties.len())
            .map(|colours| {
                let mut g = pos.clone();
                for (i, &cell) in empties.iter().enumerate() {
                    let colour = if colours >> i & 1 == 0 {
                        Colour::Black
                    } else {
                        Colour::White
                    };
                    let turn = Turn::stones(Stone { cell, colour }, None);
                    g.play_turn(&turn).unwrap();
                }
                g.winner().unwrap()
            })
            .collect();
        OddSolver {
            leaves,
            cells: empties.len(),
            first: pos.to_move(),
            memo: Default::default(),
        }
    }

    fn winner(&mut self) -> Colour {
        self.solve(0, 0)
    }

    fn solve(&mut self, filled: u32, colours: u32) -> Colour {
        if filled.count_ones() as usize == self.cells {
            return self.leaves[colours as usize];
        }
        if let Some(&w) = self.memo.get(&(filled, colours)) {
            return w;
        }
        let mover = if filled.count_ones().is_multiple_of(2) {
            self.first
        } else {
            self.first.opposite()
        };
        let mut result = mover.opposite();
        'cells: for i in 0..self.cells {
            if filled >> i & 1 == 1 {
                continue;
            }
            for white in [0, 1] {
                if self.solve(filled | 1 << i, colours | white << i) == mover {
                    result = mover;
                    break 'cells;
                }
            }
        }
        self.memo.insert((filled, colours), result);
        result
    }
}

fn check(t: &Tactic) {
    let pos = position(t);
    let right = pos.parse_turn(t.right).unwrap();
    assert_eq!(
        proven_after(&pos, &right),
        Some(t.to_move),
        "{} is not a proven win",
        t.right
    );
    for seed in SEEDS {
        let best = search(&pos, Policy::Default, t.visits, seed).best.unwrap();
        assert_eq!(
            pos.token(&best),
            t.right,
            "default, seed {seed}, {} visits",
            t.visits
        );
    }
    let mut found = 0;
    for seed in SEEDS {
        let plain = search(&pos, Policy::Plain, t.visits, seed).best.unwrap();
        if pos.token(&plain) == t.right {
            found += 1;
        } else {
            assert_ne!(
                proven_after(&pos, &plain),
                Some(t.to_move),
                "plain's {} wins as well",
                pos.token(&plain)
            );
        }
    }
    assert!(found <= PLAIN_MAX, "plain found it with {found} seeds of 5");
}

#[test]
fn onyx_white_connects_with_a2() {
    check(&Tactic {
        kind: GameKind::Onyx,
        size: 8,
        to_move: Colour::White,
        stones: "B:A1 W:C1 W:D1 W:E1 W:F1 W:G1 W:B2 B:A3 B:A4 B:B4 B:C4 B:H4 B:A5 B:E5 \
                 B:H5 B:A7 W:D8 W:E8 B:H8 W:BC12 W:EF23 B:GH23 W:FG34 W:BC56 B:DE56 \
                 W:GH67 B:BC78",
        right: "A2",
        visits: 200,
    });
}

/// Odd side 4 (groups of 4 count), 12 empty cells: B:G5 is the only
/// winning turn of 24 (the exact solve checks every turn plain chooses).
#[test]
fn odd_white_wins_only_with_black_g5() {
    check(&Tactic {
        kind: GameKind::Odd,
        size: 4,
        to_move: Colour::White,
        stones: "W:A1 W:C1 B:D1 W:A2 W:B2 B:C2 W:D2 B:E2 W:A3 W:C3 W:D3 B:F3 W:A4 W:B4 \
                 B:C4 B:D4 B:E4 W:F4 B:G4 W:D5 B:F5 B:E6 W:G6 W:E7 B:F7",
        right: "B:G5",
        visits: 200,
    });
}

/// Xodd 6x6, 8 empty points: W:A2 joins the white stones A1, B2 and A3 into
/// one group (white 7 groups to 5), and W:C3 takes the point where a black
/// stone would join three black groups (B3, C4-D4 and the chain on row 1).
#[test]
fn xodd_white_joins_with_a2_and_blocks_c3() {
    check(&Tactic {
        kind: GameKind::Xodd,
        size: 6,
        to_move: Colour::White,
        stones: "W:A1 B:B1 B:C1 B:D1 B:E1 W:F1 W:B2 B:C2 W:D2 B:E2 W:F2 W:A3 B:B3 W:D3 \
                 B:E3 B:A4 W:B4 B:C4 B:D4 W:F4 W:B5 W:C5 W:D5 W:E5 W:B6 W:C6 W:E6 W:F6",
        right: "W:A2,W:C3",
        visits: 1000,
    });
}

/// Yodd side 4, 8 empty cells: B:C4,B:D5 fills the last two cells beside the
/// white stone C5 with black, so C5 stays a white group of its own and White
/// can no longer join it to its neighbours (Black keeps 3 groups to White's 4).
#[test]
fn yodd_black_isolates_c5() {
    check(&Tactic {
        kind: GameKind::Yodd,
        size: 4,
        to_move: Colour::Black,
        stones: "W:A1 W:B1 B:C1 W:D1 B:A2 W:B2 W:C2 B:D2 W:E2 W:A3 B:B3 W:C3 W:D3 W:E3 \
                 W:A4 B:B4 B:E4 W:F4 B:G4 B:B5 W:C5 W:E5 B:F5 B:G5 B:C6 B:D6 W:E6 B:D7 W:F7",
        right: "B:C4,B:D5",
        visits: 1000,
    });
}

/// Visits within which the default policy must find a stone that wins at
/// once (and report the win proven).
const AT_ONCE_VISITS: u64 = 10;

/// A turn that ends the game at once is found and proven within
/// [`AT_ONCE_VISITS`] with each seed. There is no plain comparison: plain
/// tries every child once before any twice, so it finds such a turn too;
/// the default's RAVE selection scores untried children by their AMAF
/// rates and could pass over it for 10,000 visits.
fn check_wins_at_once(record: &GameRecord, right: &str) {
    let pos = record.position();
    let mut after = pos.clone();
    after.play_turn(&pos.parse_turn(right).unwrap()).unwrap();
    assert_eq!(after.winner(), Some(pos.to_move()), "{right} does not win");
    for seed in SEEDS {
        let mut engine = Engine::new(SearchParams {
            threads: 1,
            seed,
            memory_mb: 256,
            ..SearchParams::default()
        });
        engine.set_position(record);
        let limits = Limits {
            visits: Some(AT_ONCE_VISITS),
            ..Limits::default()
        };
        let report = engine.search(&limits, &StopFlag::new(), None);
        assert_eq!(pos.token(&report.best.unwrap()), right, "seed {seed}");
        assert_eq!(report.proven, Some(pos.to_move()), "seed {seed}");
    }
}

/// Onyx 12, from self-play at 10,000 visits, where the search chose K12:
/// Black's I12 joins the chain from D1 up through the I7-K10 stones to row
/// 12, the only stone that wins at once.
#[test]
fn onyx_black_wins_at_once_with_i12() {
    let pos = position(&Tactic {
        kind: GameKind::Onyx,
        size: 12,
        to_move: Colour::Black,
        stones: "B:D1 W:F1 W:G1 W:C2 B:D2 W:E2 W:C3 B:D3 B:E3 B:H3 W:D4 B:F4 B:G4 W:H4 \
                 W:J4 W:D5 W:E5 B:F5 B:A6 B:E6 B:F6 B:L6 B:A7 B:E7 W:F7 B:I7 B:L7 B:F8 \
                 W:I8 W:J8 W:K8 W:D9 W:E9 B:F9 B:G9 B:H9 B:I9 B:J9 B:K9 W:D10 B:E10 \
                 W:F10 W:G10 W:H10 W:I10 W:J10 B:K10 B:I11 B:J11 W:K11 W:F12 W:G12 \
                 W:J12 W:GH89",
        right: "I12",
        visits: AT_ONCE_VISITS,
    });
    check_wins_at_once(&GameRecord::new(pos), "I12");
}

/// Onyx 12, from self-play at 10,000 visits, where the search chose A10:
/// White's A12 joins the row-12 stones B12-H12 to column A.
#[test]
fn onyx_white_wins_at_once_with_a12() {
    let pos = position(&Tactic {
        kind: GameKind::Onyx,
        size: 12,
        to_move: Colour::White,
        stones: "W:F1 W:G1 B:K3 B:B4 W:J4 B:K4 W:A5 B:C5 W:G5 B:J5 W:K5 B:A6 B:D6 B:E6 \
                 B:J6 B:L6 B:A7 B:C7 B:I7 B:L7 B:D8 W:E8 B:I8 W:J8 W:D9 B:E9 B:B10 \
                 W:C10 W:D10 B:G10 B:I10 B:J10 W:K10 W:L10 B:A11 W:B11 W:C11 B:D11 \
                 B:E11 W:H11 W:I11 W:J11 B:K11 W:L11 W:B12 B:C12 W:D12 W:E12 W:F12 \
                 W:G12 W:H12",
        right: "A12",
        visits: AT_ONCE_VISITS,
    });
    check_wins_at_once(&GameRecord::new(pos), "A12");
}

/// Onyx 8 games with a swap (the seats keep their colours), where one
/// stone wins at once: for Black (A7) and for White (G1).
#[test]
fn onyx_wins_at_once_after_a_swap() {
    let spec = GameSpec::new(GameKind::Onyx, 8, Rules::default()).unwrap();
    let games = [
        (
            "E6 swap D2 G7 C4 G4 A6 B6 A1 G3 EF23 G1 A3 G8 A2 B3 E4 EF67 F8 E3 B4 D7 B8 F4",
            Colour::Black,
            "A7",
        ),
        (
            "A3 swap AB23 F8 G3 B1 B4 B7 F7 G8 C3 B3 E2 C8 BC56 B2 B5 H2 F6 H3 CD45 F1 E6 A3 G5",
            Colour::White,
            "G1",
        ),
    ];
    for (moves, mover, right) in games {
        let tokens: Vec<&str> = moves.split_whitespace().collect();
        let record = GameRecord::replay(AnyGame::new(&spec), &tokens).unwrap();
        assert_eq!(record.position().to_move(), mover);
        check_wins_at_once(&record, right);
    }
}
