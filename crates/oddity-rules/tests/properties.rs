//! Properties of the rules over generated games: a record written as SGF
//! and read back is the same game, and so is a tree of variations, every legal turn's token parses back to
//! the same turn, and a turn the rules refuse changes nothing.

use oddity_rules::{
    AnyGame, Colour, GameKind, GameRecord, GameSpec, GameTree, Rng, Rules, Turn,
    sgf::{RecordInfo, read, read_tree, write, write_tree},
};
use proptest::prelude::*;

/// Small boards of every game, with their rule variants.
fn specs() -> impl Strategy<Value = GameSpec> {
    (0..4usize, 0..3usize, any::<bool>(), any::<bool>()).prop_map(|(g, s, open, swap)| {
        let kind = GameKind::ALL[g];
        let size = match kind {
            GameKind::Xodd => [3, 4, 5][s],
            GameKind::Yodd | GameKind::Odd => [2, 3, 4][s],
            GameKind::Onyx => [4, 6, 8][s],
        };
        let rules = Rules {
            min_group: (kind == GameKind::Odd && open).then_some(2),
            open_start: open,
            swap,
        };
        GameSpec::new(kind, size, rules).expect("a supported size")
    })
}

/// A game of `spec` after up to `turns` random legal turns (from a set-up
/// position of up to `n` stones for `set_up` `Some(n)`), ending with a
/// resignation when `resign`.
fn game(
    spec: &GameSpec,
    seed: u64,
    set_up: Option<usize>,
    turns: usize,
    resign: bool,
) -> GameRecord {
    let mut rng = Rng::seeded(seed);
    let mut start = AnyGame::new(spec);
    if let Some(set_up) = set_up {
        let topo = spec.topology();
        let mut stones = Vec::new();
        for _ in 0..set_up {
            let cell = topo.cells()[rng.below(topo.cell_count() as u32) as usize];
            let colour = Colour::BOTH[rng.below(2) as usize];
            if stones.iter().all(|s: &oddity_rules::Stone| s.cell != cell) {
                stones.push(oddity_rules::Stone { cell, colour });
            }
        }
        let to_move = Colour::BOTH[rng.below(2) as usize];
        if let Ok(position) = AnyGame::from_setup(spec, &stones, to_move) {
            start = position;
        }
    }
    let mut record = GameRecord::new(start);
    for _ in 0..turns {
        if record.is_over() {
            break;
        }
        let legal = record.position().legal_turns();
        if legal.is_empty() {
            break;
        }
        let turn = legal[rng.below(legal.len() as u32) as usize];
        let seat = record.position().to_move();
        record.play(seat, turn).expect("a legal turn plays");
    }
    if resign && !record.is_over() {
        let seat = record.position().to_move();
        record.play(seat, Turn::Resign).expect("resigning is legal");
    }
    record
}

fn stones(position: &AnyGame) -> Vec<Option<Colour>> {
    let topo = position.topology();
    topo.cells().iter().map(|&c| position.stone_at(c)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_record_written_and_read_back_is_the_same_game(
        spec in specs(),
        seed in any::<u64>(),
        set_up in prop_oneof![Just(None), (0..6usize).prop_map(Some)],
        turns in 0..40usize,
        resign in any::<bool>(),
    ) {
        let record = game(&spec, seed, set_up, turns, resign);
        let text = write(&record, &RecordInfo::default());
        let back = read(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        // The same game: kind, size and the options that apply to it.
        let (a, b) = (back.start().spec(), record.start().spec());
        prop_assert_eq!((a.kind, a.size, a.rules_text()), (b.kind, b.size, b.rules_text()));
        prop_assert_eq!(stones(back.start()), stones(record.start()));
        prop_assert_eq!(back.start().to_move(), record.start().to_move());
        prop_assert_eq!(back.moves(), record.moves());
        prop_assert_eq!(back.outcome(), record.outcome());
        prop_assert_eq!(stones(back.position()), stones(record.position()));
        prop_assert_eq!(write(&back, &RecordInfo::default()), text);
        // Every prefix reads back as the same prefix.
        let k = turns.min(record.moves().len());
        let cut = record.truncated(k);
        let cut_back = read(&write(&cut, &RecordInfo::default())).unwrap();
        prop_assert_eq!(cut_back.moves(), cut.moves());
    }

    #[test]
    fn a_tree_of_variations_written_and_read_back_is_the_same_tree(
        spec in specs(),
        seed in any::<u64>(),
        branches in 1..6usize,
        turns in 0..12usize,
    ) {
        // Variations from random nodes of the tree so far, some named.
        let mut rng = Rng::seeded(seed);
        let mut tree = GameTree::from_record(&game(&spec, seed, None, turns, false));
        for b in 0..branches {
            let nodes = tree.preorder();
            let mut at = nodes[rng.below(nodes.len() as u32) as usize];
            for _ in 0..rng.below(5) {
                let record = tree.record(at);
                let position = record.position();
                let legal = position.legal_turns();
                if record.is_over() || legal.is_empty() {
                    break;
                }
                let turn = legal[rng.below(legal.len() as u32) as usize];
                at = tree.play(at, position.to_move(), turn).expect("a legal turn");
            }
            if b % 2 == 0 {
                tree.set_name(at, Some(format!("v{b}]\\")));
            }
        }
        let shape = |t: &GameTree| -> Vec<_> {
            t.preorder()
                .into_iter()
                .map(|id| (t.depth(id), t.turn(id), t.name(id).map(str::to_string)))
                .collect()
        };
        let text = write_tree(&tree, &RecordInfo::default());
        let back = read_tree(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(shape(&back), shape(&tree));
        prop_assert_eq!(write_tree(&back, &RecordInfo::default()), text.clone());
        // A plain reader sees the main line.
        let main = tree.record(*tree.main_line().last().unwrap());
        let plain = read(&text).unwrap();
        prop_assert_eq!(plain.moves(), main.moves());
    }

    #[test]
    fn every_legal_turns_token_parses_back_to_the_same_turn(
        spec in specs(),
        seed in any::<u64>(),
        turns in 0..30usize,
    ) {
        let record = game(&spec, seed, None, turns, false);
        let position = record.position();
        for turn in position.legal_turns() {
            let token = position.token(&turn);
            prop_assert_eq!(position.parse_turn(&token), Ok(turn), "{}", token);
            let lower = token.to_ascii_lowercase();
            prop_assert_eq!(position.parse_turn(&lower), Ok(turn), "{}", lower);
            let mut next = position.clone();
            prop_assert!(next.play_turn(&turn).is_ok(), "{} is legal", token);
        }
    }

    #[test]
    fn a_refused_turn_changes_nothing(
        spec in specs(),
        seed in any::<u64>(),
        turns in 0..30usize,
        token in "(pass|swap|resign|[BWbwx]:[A-Ha-h][1-9](,[BW]:[A-H][1-9])?|[A-H]{1,2}[0-9]{1,4})",
    ) {
        let mut record = game(&spec, seed, None, turns, false);
        let before = stones(record.position());
        let (to_move, moves) = (record.position().to_move(), record.moves().len());
        let Ok(turn) = record.position().parse_turn(&token) else {
            return Ok(());
        };
        let seat = record.position().to_move();
        if record.play(seat, turn).is_err() {
            prop_assert_eq!(stones(record.position()), before);
            prop_assert_eq!(record.position().to_move(), to_move);
            prop_assert_eq!(record.moves().len(), moves);
        }
    }
}

/// A whole game of `spec` from its start: random legal turns, White's
/// first turn a swap wherever the rules offer one, up to `limit` turns.
fn game_with_swap(spec: &GameSpec, seed: u64, limit: usize) -> GameRecord {
    let mut rng = Rng::seeded(seed);
    let mut record = GameRecord::new(AnyGame::new(spec));
    while !record.is_over() && record.moves().len() < limit {
        let legal = record.position().legal_turns();
        let turn = if legal.contains(&Turn::Swap) {
            Turn::Swap
        } else {
            legal[rng.below(legal.len() as u32) as usize]
        };
        let seat = record.position().to_move();
        record.play(seat, turn).expect("a legal turn plays");
    }
    record
}

/// Every game, both starts and both swap rules (options a game does not
/// have are ignored by it), with Onyx's swap played where it is legal: the
/// record reads back as the same game at every turn, and writes the same
/// text again; so does the record of an Onyx 12 game with a swap as
/// `printsgf` and the GUI write it, set-up of the standard start included.
#[test]
fn every_game_start_and_swap_rule_reads_back_with_its_swap() {
    let mut swaps = 0;
    for kind in GameKind::ALL {
        let sizes: &[usize] = match kind {
            GameKind::Xodd => &[3, 5],
            GameKind::Yodd | GameKind::Odd => &[2, 4],
            GameKind::Onyx => &[4, 8, 12],
        };
        for &size in sizes {
            for open_start in [false, true] {
                for swap in [true, false] {
                    let rules = Rules {
                        open_start,
                        swap,
                        ..Rules::default()
                    };
                    let spec = GameSpec::new(kind, size, rules).unwrap();
                    let label = format!("{kind} {size} {}", spec.rules_text());
                    let record = game_with_swap(&spec, size as u64, 400);
                    let played_swap = record.moves().iter().any(|(_, t)| *t == Turn::Swap);
                    assert_eq!(
                        played_swap,
                        kind == GameKind::Onyx && swap,
                        "{label}: a swap where the rules have one"
                    );
                    swaps += usize::from(played_swap);
                    let info = RecordInfo {
                        black: Some("b".into()),
                        white: Some("w".into()),
                        result: record.outcome().map(|o| format!("{}+", o.winner.letter())),
                        ..RecordInfo::default()
                    };
                    for k in 0..=record.moves().len() {
                        let cut = record.truncated(k);
                        let text = write(&cut, &info);
                        let back = read(&text)
                            .unwrap_or_else(|e| panic!("{label}, {k} turns: {e}\n{text}"));
                        assert_eq!(back.moves(), cut.moves(), "{label}, {k} turns");
                        assert_eq!(back.outcome(), cut.outcome(), "{label}, {k} turns");
                        assert_eq!(stones(back.position()), stones(cut.position()));
                        assert_eq!(back.position().to_move(), cut.position().to_move());
                        assert_eq!(
                            back.position().legal_turns(),
                            cut.position().legal_turns(),
                            "{label}, {k} turns: the same turns are legal next"
                        );
                        assert_eq!(write(&back, &info), text, "{label}, {k} turns");
                    }
                }
            }
        }
    }
    assert_eq!(swaps, 6, "Onyx at three sizes and two starts, with swap");
    // The record of the report: the standard start's stones listed.
    let text = "(;FF[4]GM[9000]CA[UTF-8]AP[oddity:0.1.0]OG[onyx]SZ[12]OR[start=standard,swap=on]\
                PB[human]PW[oddity]AB[A6][L6][A7][L7]AW[F1][G1][F12][G12]PL[B]\n;B[E5]\n;W[swap]\n;B[JK910]\n;W[D4])";
    let back = read(text).unwrap();
    assert_eq!(back.moves().len(), 4);
    assert_eq!(back.moves()[1], (Colour::White, Turn::Swap));
}
