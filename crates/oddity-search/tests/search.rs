//! Behaviour of the search: solver, limits, determinism, tree reuse, time
//! management. Tiny boards and visit limits only; no timed assertions.

use std::time::Duration;

use oddity_rules::{AnyGame, Colour, GameKind, GameRecord, GameSpec, Rules, Stone, Turn};
use oddity_search::time::{
    Clock, MIN_MARGIN, Overtime, SAFETY_MARGIN, TimeSettings, TimeUse, hard_limit, margin, plan,
};
use oddity_search::{Engine, Limits, Policy, Report, SearchParams, StopFlag};

/// The games the solver is tested on with generated positions (random Onyx
/// set-ups are mostly already won; Onyx has a hand-made position below).
const GAMES: [(GameKind, usize); 3] =
    [(GameKind::Odd, 2), (GameKind::Xodd, 3), (GameKind::Yodd, 2)];

fn spec(kind: GameKind, size: usize) -> GameSpec {
    GameSpec::new(kind, size, Rules::default()).unwrap()
}

fn params(threads: usize, seed: u64) -> SearchParams {
    SearchParams {
        threads,
        seed,
        memory_mb: 16,
        ..SearchParams::default()
    }
}

fn visits(n: u64) -> Limits {
    Limits {
        visits: Some(n),
        ..Limits::default()
    }
}

fn search(record: &GameRecord, p: SearchParams, limits: Limits) -> Report {
    let mut engine = Engine::new(p);
    engine.set_position(record);
    engine.search(&limits, &StopFlag::new(), None)
}

/// The winner under perfect play (tiny positions only).
fn solve(game: &AnyGame) -> Colour {
    if let Some(w) = game.winner() {
        return w;
    }
    let me = game.to_move();
    for t in game.legal_turns() {
        let mut next = game.clone();
        next.play_turn(&t).unwrap();
        if solve(&next) == me {
            return me;
        }
    }
    me.opposite()
}

/// A small deterministic generator for test positions.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Set-up positions with `empty` empty cells (Black to move) where the
/// mover has both winning and losing turns.
fn decisive_positions(kind: GameKind, size: usize, empty: usize, count: usize) -> Vec<AnyGame> {
    let spec = spec(kind, size);
    let cells = AnyGame::new(&spec).topology().cells().to_vec();
    let mut rng = Lcg(kind as u64 * 1000 + empty as u64);
    let mut found = Vec::new();
    for _ in 0..5000 {
        let mut order = cells.clone();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.next(i + 1));
        }
        let stones: Vec<Stone> = order[empty..]
            .iter()
            .map(|&cell| Stone {
                cell,
                colour: if rng.next(2) == 0 {
                    Colour::Black
                } else {
                    Colour::White
                },
            })
            .collect();
        let Ok(game) = AnyGame::from_setup(&spec, &stones, Colour::Black) else {
            continue;
        };
        if game.is_over() {
            continue;
        }
        let outcomes: Vec<Colour> = game
            .legal_turns()
            .iter()
            .map(|t| {
                let mut next = game.clone();
                next.play_turn(t).unwrap();
                solve(&next)
            })
            .collect();
        if outcomes.contains(&Colour::Black) && outcomes.contains(&Colour::White) {
            found.push(game);
            if found.len() == count {
                break;
            }
        }
    }
    assert_eq!(found.len(), count, "{kind}: not enough test positions");
    found
}

fn wins_for_mover(game: &AnyGame, turn: &Turn) -> bool {
    let mut next = game.clone();
    next.play_turn(turn).unwrap();
    solve(&next) == game.to_move()
}

#[test]
fn solver_finds_an_immediate_win() {
    // One empty cell (Odd, Yodd) or a nearly full board (Xodd): some turns
    // win at once and the others lose.
    for (kind, size) in GAMES {
        let empty = if kind == GameKind::Odd { 1 } else { 2 };
        for (k, game) in decisive_positions(kind, size, empty, 4)
            .into_iter()
            .enumerate()
        {
            let record = GameRecord::new(game.clone());
            // The last position with two threads.
            let threads = if k == 3 { 2 } else { 1 };
            let report = search(&record, params(threads, 1), visits(3000));
            let best = report.best.expect("a move");
            assert!(
                wins_for_mover(&game, &best),
                "{kind}: {best:?} does not win"
            );
            assert_eq!(
                report.proven,
                Some(Colour::Black),
                "{kind}: root not proven"
            );
            assert_eq!(report.candidates[0].proven, Some(Colour::Black));
            assert_eq!(report.candidates[0].value, 1.0);
        }
    }
}

#[test]
fn solver_avoids_an_immediate_loss() {
    // Two or three empty cells: a wrong turn lets the opponent win next.
    for (kind, size) in GAMES {
        let empty = if kind == GameKind::Odd { 2 } else { 3 };
        for (k, game) in decisive_positions(kind, size, empty, 4)
            .into_iter()
            .enumerate()
        {
            let record = GameRecord::new(game.clone());
            let threads = if k == 3 { 2 } else { 1 };
            let report = search(&record, params(threads, 2), visits(20_000));
            let best = report.best.expect("a move");
            assert!(wins_for_mover(&game, &best), "{kind}: {best:?} loses");
            for c in &report.candidates {
                if let Some(w) = c.proven {
                    assert_eq!(w == Colour::Black, wins_for_mover(&game, &c.turn));
                }
            }
        }
    }
}

fn assert_legal(game: &AnyGame, turn: &Turn) {
    assert!(game.legal_turns().contains(turn), "{turn:?} is not legal");
}

#[test]
fn tiny_node_cap_completes_with_a_legal_move() {
    // 40 nodes: not even the root's children fit; 300: a few levels.
    for cap in [40, 300] {
        for (kind, size) in [(GameKind::Odd, 5), (GameKind::Xodd, 5), (GameKind::Yodd, 3)] {
            let record = GameRecord::new(AnyGame::new(&spec(kind, size)));
            let p = SearchParams {
                max_nodes: Some(cap),
                ..params(2, 3)
            };
            let report = search(&record, p, visits(1500));
            assert!(report.nodes <= cap);
            assert!(report.root_visits >= 1500);
            assert_legal(record.position(), &report.best.unwrap());
        }
    }
}

#[test]
fn same_seed_same_search() {
    for (kind, size) in [(GameKind::Odd, 4), (GameKind::Xodd, 4)] {
        let record = GameRecord::new(AnyGame::new(&spec(kind, size)));
        let a = search(&record, params(1, 42), visits(2000));
        let b = search(&record, params(1, 42), visits(2000));
        assert_eq!(a.best, b.best);
        assert_eq!(a.iterations, 2000);
        assert_eq!(a.root_visits, b.root_visits);
        assert_eq!(a.root_value, b.root_value);
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.candidates, b.candidates);
    }
}

#[test]
fn tree_reuse_keeps_the_subtree() {
    for (kind, size) in [(GameKind::Odd, 4), (GameKind::Xodd, 4), (GameKind::Yodd, 3)] {
        let mut record = GameRecord::new(AnyGame::new(&spec(kind, size)));
        let mut engine = Engine::new(params(1, 5));
        engine.set_position(&record);
        // Two turns: the second one has a two-action turn in Xodd/Yodd.
        for _ in 0..2 {
            let report = engine.search(&visits(3000), &StopFlag::new(), None);
            // The same record again keeps the tree.
            let before = engine.root_visits();
            engine.set_position(&record);
            assert_eq!(engine.root_visits(), before);
            let best = &report.candidates[0];
            assert!(best.visits > 0);
            let seat = record.position().to_move();
            record.play(seat, best.turn).unwrap();
            engine.set_position(&record);
            // The new root is the node of the whole turn: the candidate's
            // own node for a one-action turn, one of the second stones
            // sharing its visits for a two-action turn.
            let kept = engine.root_visits();
            let one_action = kind == GameKind::Odd || best.turn == Turn::Pass;
            if one_action {
                assert_eq!(kept, best.visits, "{kind}");
            } else {
                assert!(kept > 0 && kept <= best.visits, "{kind}: {kept}");
            }
            assert_eq!(engine.report().root_visits, kept);
            // The kept statistics are from the new side to move's view.
            let again = engine.search(&visits(1), &StopFlag::new(), None);
            if one_action {
                assert!((again.root_value - (1.0 - best.value)).abs() < 0.05);
            }
        }
        // A record that does not extend the previous one starts afresh.
        record.undo();
        engine.set_position(&record);
        assert_eq!(engine.root_visits(), 0);
    }
}

#[test]
fn finished_game_has_no_best_move() {
    let spec = spec(GameKind::Odd, 2);
    let mut game = AnyGame::new(&spec);
    while !game.is_over() {
        let t = game.legal_turns()[0];
        game.play_turn(&t).unwrap();
    }
    let report = search(&GameRecord::new(game), params(1, 0), visits(100));
    assert_eq!(report.best, None);
    let mut record = GameRecord::new(AnyGame::new(&spec));
    record.play(Colour::Black, Turn::Resign).unwrap();
    assert_eq!(search(&record, params(1, 0), visits(100)).best, None);
}

#[test]
fn stop_flag_ends_an_unlimited_search() {
    let record = GameRecord::new(AnyGame::new(&spec(GameKind::Odd, 5)));
    let mut engine = Engine::new(params(2, 0));
    engine.set_position(&record);
    let stop = StopFlag::new();
    let stopper = stop.clone();
    // Stopped once the search is seen to run, however slow the machine.
    let (running, started) = std::sync::mpsc::channel();
    let handle = std::thread::spawn(move || {
        let mut on_progress = |r: &Report| {
            if r.root_visits > 0 {
                let _ = running.send(());
            }
        };
        let progress = Some((
            &mut on_progress as &mut dyn FnMut(&Report),
            Duration::from_millis(1),
        ));
        let report = engine.search(&Limits::default(), &stop, progress);
        (engine, report)
    });
    started.recv().expect("the search reports progress");
    stopper.stop();
    let (_, report) = handle.join().unwrap();
    assert!(report.best.is_some());
    assert!(report.iterations > 0);
}

#[test]
fn progress_and_pv_are_consistent() {
    let record = GameRecord::new(AnyGame::new(&spec(GameKind::Xodd, 4)));
    let mut engine = Engine::new(SearchParams {
        policy: Policy::Plain,
        ..params(2, 9)
    });
    engine.set_position(&record);
    let mut calls = 0;
    let mut on_progress = |r: &Report| {
        calls += 1;
        assert!(r.root_visits > 0 || r.candidates.is_empty());
    };
    let limits = Limits {
        visits: Some(4000),
        time: Some(Duration::from_secs(30)),
        soft_time: None,
    };
    let report = engine.search(
        &limits,
        &StopFlag::new(),
        Some((&mut on_progress, Duration::from_millis(1))),
    );
    assert!(report.root_visits >= 4000);
    for c in &report.candidates {
        assert_eq!(c.pv[0], c.turn);
        let mut game = record.position().clone();
        for t in &c.pv {
            game.play_turn(t).unwrap();
        }
        assert!((0.0..=1.0).contains(&c.value));
    }
    let total: u64 = report.candidates.iter().map(|c| c.visits).sum();
    assert!(total <= report.root_visits);
}

#[test]
fn a_proven_root_ends_the_search() {
    // A won position: once the root is solved the search returns, long
    // before its visit or time limit.
    let game = decisive_positions(GameKind::Odd, 2, 2, 1).remove(0);
    let record = GameRecord::new(game);
    let limits = Limits {
        visits: Some(u64::from(u32::MAX)),
        time: Some(Duration::from_secs(600)),
        soft_time: None,
    };
    let report = search(&record, params(2, 0), limits);
    assert_eq!(report.proven, Some(Colour::Black));
    assert!(report.iterations < 1_000_000);
}

#[test]
fn policy_names_round_trip() {
    for p in [Policy::Plain, Policy::Default] {
        assert_eq!(p.to_string().parse::<Policy>().unwrap(), p);
    }
    assert!("fancy".parse::<Policy>().is_err());
}

#[test]
fn time_budget_never_overruns_the_clock() {
    let s = Duration::from_secs;
    let ms = Duration::from_millis;
    let settings = [
        TimeSettings {
            main: s(60),
            ..TimeSettings::default()
        },
        TimeSettings {
            main: s(1),
            ..TimeSettings::default()
        },
        TimeSettings {
            main: s(30),
            overtime: Overtime::ByoYomi {
                period: s(2),
                periods: 3,
            },
            per_move: None,
        },
        TimeSettings {
            main: Duration::ZERO,
            overtime: Overtime::Canadian {
                period: s(10),
                stones: 7,
            },
            per_move: None,
        },
        TimeSettings {
            main: s(5),
            overtime: Overtime::Canadian {
                period: ms(900),
                stones: 3,
            },
            per_move: None,
        },
        TimeSettings {
            per_move: Some(ms(750)),
            ..TimeSettings::default()
        },
    ];
    let mut rng = Lcg(7);
    for style in [TimeUse::Full, TimeUse::Cautious] {
        for &settings in &settings {
            for cells in [19, 61, 144, 271] {
                let mut clock = Clock::new(settings);
                for moves_played in 0..300 {
                    let (remaining, stones) = clock.time_left();
                    let p = plan(&settings, remaining, stones, moves_played, cells, style);
                    assert!(p.target <= p.max);
                    let hard = hard_limit(&settings, remaining, stones);
                    let kept = margin(hard, style);
                    assert!(kept >= MIN_MARGIN && kept <= SAFETY_MARGIN);
                    assert!(
                        p.max + kept <= hard || p.max.is_zero(),
                        "{settings:?} {remaining:?} {stones}: {p:?} over {hard:?}"
                    );
                    // The search may stop late by less than the margin.
                    let late = kept * rng.next(100) as u32 / 100;
                    if hard < kept {
                        // Too little left to promise anything: the engine was
                        // already flagged by the simulation's own lateness.
                        break;
                    }
                    assert!(
                        clock.spend(p.max + late),
                        "{settings:?}: lost on time at move {moves_played}"
                    );
                }
            }
        }
    }
}

/// Time that a move leaves unused and no later move gets is spent whole:
/// a fixed time per move, the last stone of a Canadian period, a Japanese
/// byo-yomi period. The margin is a quarter of the move's time, 20 ms at
/// least and 100 ms at most; the cautious plan keeps 100 ms and targets
/// half the move's time in overtime.
#[test]
fn time_that_cannot_be_kept_is_spent() {
    let ms = Duration::from_millis;
    let per_move = TimeSettings {
        per_move: Some(ms(200)),
        ..TimeSettings::default()
    };
    let canadian = |stones: u64| TimeSettings {
        main: Duration::ZERO,
        overtime: Overtime::Canadian {
            period: ms(200 * stones),
            stones: stones as u32,
        },
        per_move: None,
    };
    let full = plan(&per_move, ms(200), 0, 10, 61, TimeUse::Full);
    assert_eq!((full.target, full.max), (ms(150), ms(150)));
    let cautious = plan(&per_move, ms(200), 0, 10, 61, TimeUse::Cautious);
    assert_eq!((cautious.target, cautious.max), (ms(100), ms(100)));
    // `time_settings 0 0.2 1`, as `oddity match --st 0.2` sends.
    let last_stone = plan(&canadian(1), ms(200), 1, 10, 61, TimeUse::Full);
    assert_eq!((last_stone.target, last_stone.max), (ms(150), ms(150)));
    let before = plan(&canadian(1), ms(200), 1, 10, 61, TimeUse::Cautious);
    assert_eq!((before.target, before.max), (ms(50), ms(100)));
    // Two stones left: what the first saves, the second may use.
    let shared = plan(&canadian(2), ms(400), 2, 10, 61, TimeUse::Full);
    assert_eq!((shared.target, shared.max), (ms(150) / 2, ms(150)));
    let byo = TimeSettings {
        main: Duration::ZERO,
        overtime: Overtime::ByoYomi {
            period: ms(1000),
            periods: 3,
        },
        per_move: None,
    };
    let period = plan(&byo, ms(1000), 1, 10, 61, TimeUse::Full);
    assert_eq!((period.target, period.max), (ms(900), ms(900)));
    assert_eq!(margin(ms(60), TimeUse::Full), MIN_MARGIN);
    assert_eq!(margin(ms(5000), TimeUse::Full), SAFETY_MARGIN);
}

/// Onyx 4, open start: Black's chain B1-B2-B3 reaches row 4 only through B4.
fn onyx_threat(to_move: Colour) -> GameRecord {
    let rules = Rules {
        open_start: true,
        ..Rules::default()
    };
    let spec = GameSpec::new(GameKind::Onyx, 4, rules).unwrap();
    let topo = spec.topology();
    let stone = |name: &str, colour| Stone {
        cell: topo.parse_cell(name).unwrap(),
        colour,
    };
    let stones = [
        stone("B1", Colour::Black),
        stone("B2", Colour::Black),
        stone("B3", Colour::Black),
        stone("C1", Colour::White),
        stone("C2", Colour::White),
    ];
    GameRecord::new(AnyGame::from_setup(&spec, &stones, to_move).unwrap())
}

#[test]
fn onyx_solver_wins_and_defends() {
    let record = onyx_threat(Colour::Black);
    let b4 = record.position().parse_turn("B4").unwrap();
    let report = search(&record, params(1, 4), visits(3000));
    assert_eq!(report.best, Some(b4));
    assert_eq!(report.proven, Some(Colour::Black));

    let record = onyx_threat(Colour::White);
    let b4 = record.position().parse_turn("B4").unwrap();
    let report = search(&record, params(2, 5), visits(20_000));
    assert_eq!(report.best, Some(b4), "White must block at B4");
    for c in report.candidates.iter().filter(|c| c.turn != b4) {
        assert_ne!(c.proven, Some(Colour::White));
    }
}

#[test]
fn several_playouts_per_leaf_count_as_visits() {
    let record = GameRecord::new(AnyGame::new(&spec(GameKind::Odd, 5)));
    for k in ["1", "4"] {
        let mut p = params(1, 3);
        p.tuning.set("leaf_playouts", k).unwrap();
        let r = search(&record, p, visits(2000));
        assert!(
            (2000..2004).contains(&r.root_visits),
            "leaf_playouts {k}: {} root visits",
            r.root_visits
        );
        let children: u64 = r.candidates.iter().map(|c| c.visits).sum();
        assert_eq!(children, r.root_visits, "leaf_playouts {k}");
        assert!((0.0..=1.0).contains(&r.root_value));
    }
}

/// Open Onyx 4: each of these first stones wins for Black without the swap
/// (docs/solved.md), and the board with the swap is a second-player win,
/// so after any of them the swap is White's only winning reply. The swap
/// puts no stone of its own, so it has no AMAF statistics: judged by its
/// mirror (its parent's rate for Black) the search finds it with every
/// seed; judged by its own playouts alone (`swap_mirror=off`) it finds it
/// in 4 of the 15 searches. (After the other winning first stones, A2, D2
/// and D3, the search misjudges White's replies at these visits either way.)
#[test]
fn onyx_swaps_a_winning_first_stone() {
    let rules = Rules {
        open_start: true,
        ..Rules::default()
    };
    let spec = GameSpec::new(GameKind::Onyx, 4, rules).unwrap();
    let mut found_without_mirror = 0;
    for first in ["C2", "A3", "B3"] {
        let record = GameRecord::replay(AnyGame::new(&spec), &[first]).unwrap();
        let swap = record.position().parse_turn("swap").unwrap();
        for seed in 1..=5 {
            let report = search(&record, params(1, seed), visits(5000));
            assert_eq!(report.best, Some(swap), "after {first}, seed {seed}");
            let mut without = params(1, seed);
            without.tuning.set("swap_mirror", "off").unwrap();
            if search(&record, without, visits(5000)).best == Some(swap) {
                found_without_mirror += 1;
            }
        }
    }
    assert!(found_without_mirror <= 7, "{found_without_mirror} of 15");
}

/// With `tree_solve`, Odd leaves with that few empty points are proven at
/// once by their table: a root with one point more is proven within a few
/// visits per child, with the value and the winning turns its own table
/// gives; without it, the same visits prove nothing.
#[test]
fn odd_leaves_are_proven_by_their_tables() {
    use oddity_solver::solve_retrograde;
    let spec = spec(GameKind::Odd, 4);
    let mut rng = oddity_rules::Rng::seeded(9);
    let mut values = std::collections::HashSet::new();
    for _ in 0..6 {
        let mut record = GameRecord::new(AnyGame::new(&spec));
        while record.position().topology().cell_count() - stones(record.position()) > 11 {
            let turns = record.position().legal_turns();
            let k = rng.below(turns.len() as u32) as usize;
            let mover = record.position().to_move();
            record.play(mover, turns[k]).unwrap();
        }
        let (exact, _) = solve_retrograde(record.position(), 64).unwrap();
        let winner = exact.winner().unwrap();
        values.insert(winner == record.position().to_move());
        let with = |tree_solve: &str| {
            let mut p = params(1, 4);
            p.tuning.set("endgame", "off").unwrap();
            p.tuning.set("tree_solve", tree_solve).unwrap();
            search(&record, p, visits(3000))
        };
        let report = with("10");
        assert_eq!(report.proven, Some(winner));
        if winner == record.position().to_move() {
            let best = report.best.unwrap();
            let wins = exact
                .turns
                .iter()
                .any(|t| t.turn == best && t.value == Some(oddity_solver::Value::Win));
            assert!(wins, "{best:?}");
        }
        assert_eq!(with("0").proven, None);
    }
    assert_eq!(values.len(), 2, "won and lost roots both searched");
}

/// Stones on the board of `game`.
fn stones(game: &AnyGame) -> usize {
    game.topology()
        .cells()
        .iter()
        .filter(|&&c| game.stone_at(c).is_some())
        .count()
}

/// Odd's settled points in the tree: with `settled_moves` the root keeps
/// one move on its settled points (`OddGame::settled_cells`) and both
/// stones on every other empty point; with `settled_leaves` as well, a
/// proof the search finds is the value the retrograde table gives, and
/// leaves whose points are all settled let it prove roots that the same
/// visits leave open without them.
#[test]
fn odd_settled_points_keep_one_move_and_prove_leaves() {
    use oddity_rules::{Game, OddGame};
    use oddity_solver::solve_retrograde;
    let spec = spec(GameKind::Odd, 4);
    let mut rng = oddity_rules::Rng::seeded(12);
    let (mut pruned, mut proven_with, mut proven_without) = (0, 0, 0);
    for _ in 0..16 {
        let mut record = GameRecord::new(AnyGame::new(&spec));
        while record.position().topology().cell_count() - stones(record.position()) > 9 {
            let turns = record.position().legal_turns();
            let k = rng.below(turns.len() as u32) as usize;
            let mover = record.position().to_move();
            record.play(mover, turns[k]).unwrap();
        }
        let position = record.position();
        let setup: Vec<Stone> = position
            .topology()
            .cells()
            .iter()
            .filter_map(|&cell| position.stone_at(cell).map(|colour| Stone { cell, colour }))
            .collect();
        let odd = OddGame::<1>::from_setup(&spec, &setup, position.to_move()).unwrap();
        let settled = odd.settled_cells().count() as usize;
        let empty = position.topology().cell_count() - stones(position);
        let with = |on: &str| {
            let mut p = params(1, 4);
            p.tuning.set("endgame", "off").unwrap();
            p.tuning.set("settled_moves", on).unwrap();
            p.tuning.set("settled_leaves", on).unwrap();
            search(&record, p, visits(3000))
        };
        let report = with("on");
        let expected = if settled > 0 {
            pruned += 1;
            2 * (empty - settled) + 1
        } else {
            2 * empty
        };
        assert_eq!(report.candidates.len(), expected);
        let (exact, _) = solve_retrograde(position, 64).unwrap();
        if let Some(proof) = report.proven {
            assert_eq!(Some(proof), exact.winner());
            proven_with += 1;
        }
        let without = with("off");
        assert_eq!(without.candidates.len(), 2 * empty);
        if let Some(proof) = without.proven {
            assert_eq!(Some(proof), exact.winner());
            proven_without += 1;
        }
    }
    assert!(pruned >= 4, "{pruned} roots with settled points");
    assert!(
        proven_with > proven_without,
        "{proven_with} proven with, {proven_without} without"
    );
}
