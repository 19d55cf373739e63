//! `oddity analyze` from the shell: a fixed-seed one-thread analysis is
//! the same every time, records are analysed at a given turn and checked,
//! pictures and captions number positions as the JSON does, a broken
//! variation is cut with a note, and the blunder check (`--each-turn`) finds a planted blunder.

#[path = "support/command.rs"]
mod command;

use command::{oddity, scratch, stdout};
use oddity_analysis::blunders::check_game;
use oddity_analysis::result::{Settings, analyse};
use oddity_rules::{
    AnyGame, GameKind, GameRecord, GameSpec, Rules,
    sgf::{RecordInfo, write},
};
use oddity_search::Visits;
use serde_json::Value;

fn settings(visits: u64) -> Settings {
    let mut settings = Settings::default();
    settings.engine.visits = Visits::Cap(visits);
    settings.engine.params.threads = 1;
    settings.engine.params.seed = 11;
    settings
}

#[test]
fn fixed_seed_one_thread_analysis_is_stable() {
    for (kind, size, moves) in [
        (GameKind::Xodd, 5, "B:C3"),
        (GameKind::Yodd, 3, "B:C3 W:A1,W:E5"),
        (GameKind::Odd, 4, "B:C3 W:A1"),
        (GameKind::Onyx, 8, "D4"),
    ] {
        let spec = GameSpec::new(kind, size, Rules::default()).unwrap();
        let tokens: Vec<&str> = moves.split_whitespace().collect();
        let record = GameRecord::replay(AnyGame::new(&spec), &tokens).unwrap();
        let s = settings(1500);
        let first = analyse(&mut s.engine(), &record, &s, None);
        let second = analyse(&mut s.engine(), &record, &s, None);
        assert_eq!(first, second, "{kind}");
        assert_eq!(first.root_info.visits, 1500);
        assert_eq!(first.turn_number, tokens.len());
        assert!(!first.move_infos.is_empty() && first.move_infos.len() <= 5);
        for m in &first.move_infos {
            assert_eq!(m.pv[0], m.token, "a pv starts with its move");
            assert!((0.0..=1.0).contains(&m.winrate));
        }
    }
    // The same through the command line, as JSON.
    let args = [
        "analyze",
        "--game",
        "odd",
        "--size",
        "4",
        "--moves",
        "B:D4 W:C3",
        "--visits",
        "2000",
        "--threads",
        "1",
        "--seed",
        "5",
        "--json",
    ];
    let a = oddity(&args, "");
    let b = oddity(&args, "");
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert_eq!(stdout(&a), stdout(&b));
    let json: Value = serde_json::from_str(stdout(&a).trim()).unwrap();
    assert_eq!(json["game"], "odd");
    assert_eq!(json["turnNumber"], 2);
    assert_eq!(json["toMove"], "b");
    assert_eq!(json["rootInfo"]["visits"], 2000);
    assert!(json["moveInfos"][0]["pv"].is_array());
    assert!(json["cells"].as_array().is_some_and(|c| !c.is_empty()));
}

#[test]
fn analyze_prints_board_and_candidates_for_people() {
    let out = oddity(
        &[
            "analyze",
            "--game",
            "xodd",
            "--size",
            "5",
            "--moves",
            "B:C3",
            "--visits",
            "500",
            "--threads",
            "1",
            "--top",
            "3",
        ],
        "",
    );
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("Groups: B 1, W 0, total 1 (odd)"), "{text}");
    assert!(text.contains("To move: w (White)"));
    assert!(text.contains("Analysis: 500 visits; w to move"));
    let rows = text
        .lines()
        .filter(|l| l.trim_start().starts_with(['1', '2', '3']))
        .count();
    assert!(rows >= 3, "{text}");
    // Bad input: a clear error on stderr, nothing on stdout.
    let bad = oddity(&["analyze", "--game", "odd", "--moves", "B:Z9"], "");
    assert!(!bad.status.success());
    assert!(stdout(&bad).is_empty());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("'Z9' is not a point"));
}

/// `--turn K` is the position after K turns, whatever nodes without a
/// turn the record holds; records that are wrong are refused in words, and
/// a record nested deeper than any call stack is read.
#[test]
fn records_are_read_by_turns_and_checked() {
    let read = |text: &str, turn: &str| {
        let sgf = scratch(&format!("turns-{turn}.sgf"));
        std::fs::write(&sgf, text).unwrap();
        let out = oddity(
            &[
                "analyze",
                "--position",
                sgf.to_str().unwrap(),
                "--turn",
                turn,
                "--visits",
                "10",
                "--threads",
                "1",
                "--json",
            ],
            "",
        );
        let _ = std::fs::remove_file(&sgf);
        out
    };
    let text = "(;GM[9000]OG[odd]SZ[3];C[a comment];B[B:A1];C[another];W[W:B1];B[B:C1])";
    let out = read(text, "1");
    let json: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(json["turnNumber"], 1);
    assert_eq!(json["toMove"], "w");
    let out = read("(;GM[9000]OG[odd]SZ[3];B[B:A1]W[W:B1];B[B:C1])", "1");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("two moves"));
    let out = read(&"(".repeat(22_600), "1");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read the record"));
    let deep = format!(
        "(;GM[9000]OG[odd]SZ[3]{}B[B:A1]{})",
        "(;".repeat(50_000),
        ")".repeat(50_000)
    );
    let out = read(&deep, "1");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A record whose second variation holds a bad turn is analysed along
/// its main line, whole; the cut variation is named on stderr with its
/// turn and why.
#[test]
fn a_broken_variation_is_cut_with_a_note() {
    let sgf = scratch("broken-variation.sgf");
    std::fs::write(&sgf, "(;GM[9000]OG[yodd]SZ[3](;B[B:B3])(;W[garbage]))").unwrap();
    let path = sgf.to_str().unwrap();
    let args = [
        "analyze",
        "--position",
        path,
        "--visits",
        "10",
        "--threads",
        "1",
        "--json",
    ];
    let out = oddity(&args, "");
    let _ = std::fs::remove_file(&sgf);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let json: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(json["turnNumber"], 1);
    assert!(
        stderr.contains(&format!(
            "{path}: variation 2 at turn 1, cut from turn 1: turn 1: bad move token 'garbage'"
        )),
        "{stderr}"
    );
}

/// Odd on side 2 (minimum group 2): a ring of six cells around B2, then
/// Black fills B2. A black centre joins the black run A2-A1-B1 and the
/// single C3 into one group, leaving one counted group: odd, Black wins. A
/// white centre makes two: even, White wins.
fn planted_game(last: &str) -> Vec<&str> {
    vec!["B:A1", "B:B1", "W:C2", "B:C3", "W:B3", "B:A2", last]
}

#[test]
fn blunder_check_finds_a_planted_blunder() {
    let spec = GameSpec::new(GameKind::Odd, 2, Rules::default()).unwrap();
    let record = GameRecord::replay(AnyGame::new(&spec), &planted_game("W:B2")).unwrap();
    assert_eq!(
        record.outcome().unwrap().winner,
        oddity_rules::Colour::White
    );
    let check = check_game(&record, &settings(3000), 0.3, 10, &mut |_, _| {});
    assert_eq!(check.turns.len(), 7);
    assert_eq!(check.black_winrates.len(), 8);
    let planted = check
        .blunders
        .iter()
        .find(|t| t.turn == 7)
        .expect("turn 7 is a blunder");
    assert_eq!(planted.seat, "b");
    assert_eq!(planted.token, "W:B2");
    assert_eq!(planted.winrate_before, 1.0);
    assert_eq!(planted.winrate_after, 0.0);
    assert_eq!(planted.best.as_deref(), Some("B:B2"));
    // Played right, the last turn loses nothing.
    let record = GameRecord::replay(AnyGame::new(&spec), &planted_game("B:B2")).unwrap();
    let check = check_game(&record, &settings(3000), 0.3, 10, &mut |_, _| {});
    assert_eq!(check.turns[6].drop, 0.0);
    assert!(check.blunders.iter().all(|t| t.turn != 7));
}

#[test]
fn records_are_analysed_at_a_turn_and_checked_from_the_shell() {
    let spec = GameSpec::new(GameKind::Odd, 2, Rules::default()).unwrap();
    let record = GameRecord::replay(AnyGame::new(&spec), &planted_game("W:B2")).unwrap();
    let sgf = scratch("planted.sgf");
    std::fs::write(&sgf, write(&record, &RecordInfo::default())).unwrap();
    let path = sgf.to_str().unwrap();
    let out = oddity(
        &[
            "analyze",
            "--position",
            path,
            "--turn",
            "6",
            "--visits",
            "500",
            "--threads",
            "1",
            "--json",
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(json["turnNumber"], 6);
    assert_eq!(json["moveInfos"][0]["move"], "B:B2");
    assert_eq!(json["rootInfo"]["proven"], "b");
    let beyond = oddity(&["analyze", "--position", path, "--turn", "9"], "");
    assert!(!beyond.status.success());
    assert!(String::from_utf8_lossy(&beyond.stderr).contains("no turn 9"));

    let graph = scratch("graph.svg");
    let out = oddity(
        &[
            "analyze",
            "--position",
            path,
            "--each-turn",
            "--visits",
            "1000",
            "--threads",
            "1",
            "--threshold",
            "0.5",
            "--graph",
            graph.to_str().unwrap(),
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(
        text.contains("turn 7 by b: W:B2 dropped 100.0% -> 0.0%"),
        "{text}"
    );
    let svg = std::fs::read_to_string(&graph).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert!(
        doc.descendants()
            .any(|n| n.attribute("data-turn") == Some("7"))
    );

    let picture = scratch("odd.png");
    let out = oddity(
        &[
            "analyze",
            "--position",
            path,
            "--turn",
            "6",
            "--visits",
            "300",
            "--threads",
            "1",
            "--png",
            picture.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success());
    let png = std::fs::read(&picture).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    for f in [sgf, graph, picture] {
        let _ = std::fs::remove_file(f);
    }
}

/// The text of a picture's caption, its lines joined by spaces.
fn caption_of(svg: &str) -> String {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let caption = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("caption"))
        .expect("a caption");
    caption
        .descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Pictures number a position as the JSON does: by the turns played before
/// it (`turnNumber`, `--turn K`), with the last turn; the start is "start".
/// The issue's picture shows one real stone and the suggested line as
/// smaller discs.
#[test]
fn pictures_number_positions_as_the_json_does() {
    let svg = scratch("numbering.svg");
    let path = svg.to_str().unwrap();
    let common = ["--visits", "300", "--threads", "1", "--seed", "1"];
    for (moves, turn_number, words) in [
        ("", 0, "xodd 3 · start · black to move"),
        ("B:B2", 1, "xodd 3 · after turn 1 (B:B2) · white to move"),
        (
            "B:B2 W:A1,B:C3",
            2,
            "xodd 3 · after turn 2 (W:A1,B:C3) · black to move",
        ),
    ] {
        let mut args = vec![
            "analyze", "--game", "xodd", "--size", "3", "--moves", moves, "--json", "--svg", path,
        ];
        args.extend(common);
        let out = oddity(&args, "");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let json: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        assert_eq!(json["turnNumber"], turn_number);
        let text = std::fs::read_to_string(&svg).unwrap();
        let caption = caption_of(&text).replace(" · ", " ");
        assert!(
            caption.starts_with(&words.replace(" · ", " ")),
            "{caption} does not start with {words}"
        );
        if moves == "B:B2" {
            let doc = roxmltree::Document::parse(&text).unwrap();
            let circles = |prefix: &str| -> Vec<f64> {
                doc.descendants()
                    .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with(prefix)))
                    .map(|n| n.attribute("r").unwrap().parse().unwrap())
                    .collect()
            };
            let real = circles("stone ");
            let line = circles("line-stone");
            assert_eq!(real.len(), 1);
            assert!(!line.is_empty());
            assert!(
                line.iter().all(|&r| r < real[0] * 0.75),
                "{line:?} {real:?}"
            );
        }
    }
    // `render --position --turn K` says the same.
    let spec = GameSpec::new(GameKind::Odd, 2, Rules::default()).unwrap();
    let record = GameRecord::replay(AnyGame::new(&spec), &planted_game("W:B2")).unwrap();
    let sgf = scratch("numbering.sgf");
    std::fs::write(&sgf, write(&record, &RecordInfo::default())).unwrap();
    let out = oddity(
        &["render", "--position", sgf.to_str().unwrap(), "--turn", "3"],
        "",
    );
    assert!(out.status.success());
    let caption = caption_of(&stdout(&out)).replace(" · ", " ");
    assert!(
        caption.starts_with("odd 2 after turn 3 (W:C2) white to move"),
        "{caption}"
    );
    let _ = std::fs::remove_file(&sgf);
    let _ = std::fs::remove_file(&svg);
}

/// A finished game's caption and board status say who won and by which
/// rule.
#[test]
fn finished_games_say_who_won_and_why() {
    use oddity::cli::render::caption;
    use oddity_gtp::board;
    use oddity_rules::{Colour, Turn};
    let spec = |kind, size, open| {
        let rules = Rules {
            open_start: open,
            swap: false,
            ..Rules::default()
        };
        GameSpec::new(kind, size, rules).unwrap()
    };
    for (spec, moves, words) in [
        (
            spec(GameKind::Xodd, 3, false),
            "B:B2 pass pass",
            "game over: White wins with fewer groups (Black 1, White 0)",
        ),
        (
            spec(GameKind::Yodd, 2, false),
            "B:B2 W:A1,W:C3 pass pass",
            "game over: Black wins with fewer groups (Black 1, White 2)",
        ),
        (
            spec(GameKind::Odd, 2, false),
            "B:A1 B:B1 W:C2 B:C3 W:B3 B:A2 W:B2",
            "game over: White wins: 2 groups of 2+ stones, even",
        ),
        (
            spec(GameKind::Odd, 2, false),
            "B:A1 B:B1 W:C2 B:C3 W:B3 B:A2 B:B2",
            "game over: Black wins: 1 group of 2+ stones, odd",
        ),
        (
            spec(GameKind::Onyx, 4, true),
            "B1 D1 B2 D2 B3 D3 B4",
            "game over: Black wins by connecting rows 1 and 4",
        ),
        (
            spec(GameKind::Onyx, 4, true),
            "A1 A3 B1 B3 C1 C3 D1 D3",
            "game over: White wins by connecting columns A and D",
        ),
    ] {
        let tokens: Vec<&str> = moves.split_whitespace().collect();
        let record = GameRecord::replay(AnyGame::new(&spec), &tokens).unwrap();
        assert!(record.is_over(), "{moves}");
        let text = caption(&record);
        assert!(text.ends_with(words), "{text}");
        let status = board::status(&record);
        let reason = words.trim_start_matches("game over: ");
        assert!(status.contains(&format!("Game over: {reason}")), "{status}");
    }
    let mut record =
        GameRecord::replay(AnyGame::new(&spec(GameKind::Odd, 3, false)), &["B:C3"]).unwrap();
    record.play(Colour::White, Turn::Resign).unwrap();
    assert!(
        caption(&record).ends_with("after turn 2 (resign) · game over: Black wins: White resigned"),
        "{}",
        caption(&record)
    );
}

/// `--position` on a file of several games takes `--game-index N` (1 for
/// the first, the default) and says on stderr which game of how many it
/// used; a number past the last is an error naming how many there are.
#[test]
fn game_index_picks_a_game_of_a_collection() {
    let games = [
        ("odd", 3, vec!["B:C3", "W:A1"]),
        ("xodd", 3, vec!["B:B2"]),
        ("onyx", 8, vec!["D4", "swap", "E5"]),
    ];
    let mut text = String::new();
    for (game, size, moves) in &games {
        let kind = GameKind::parse(game).unwrap();
        let spec = GameSpec::new(kind, *size, Rules::default()).unwrap();
        text.push_str(&write(
            &GameRecord::replay(AnyGame::new(&spec), moves).unwrap(),
            &RecordInfo::default(),
        ));
    }
    let file = scratch("collection.sgf");
    std::fs::write(&file, &text).unwrap();
    let path = file.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "analyze",
            "--position",
            path,
            "--visits",
            "50",
            "--threads",
            "1",
            "--json",
        ];
        args.extend(extra);
        oddity(&args, "")
    };
    for (k, (game, _, moves)) in games.iter().enumerate() {
        let n = (k + 1).to_string();
        let out = run(&["--game-index", &n]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let json: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        assert_eq!(json["game"], *game);
        assert_eq!(json["turnNumber"], moves.len());
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(err.trim(), format!("{path}: game {n} of 3"));
    }
    let out = run(&["--turn", "1"]);
    let json: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(
        (json["game"].as_str(), json["turnNumber"].as_u64()),
        (Some("odd"), Some(1))
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("game 1 of 3"));
    let out = run(&["--game-index", "4"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("there is no game 4: the file holds 3 games"),
        "{err}"
    );
    let out = run(&["--game-index", "0"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 for the first"));
    // A file of one game says nothing on stderr.
    let (first, _) = text.split_at(text.find(")\n(").unwrap() + 2);
    std::fs::write(&file, first).unwrap();
    let out = run(&[]);
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_file(&file);
}

/// `--heat winrate` colours each cell by the win rate of the most visited
/// candidate that puts a stone there, as `--help` says, spread from the
/// lowest to the highest over the cells.
#[test]
fn heat_winrate_shows_the_most_visited_turn_per_cell() {
    let help = stdout(&oddity(&["analyze", "--help"], ""));
    assert!(
        help.contains("The win rate, for the side to move, of the most visited candidate turn that puts a stone on the cell"),
        "{help}"
    );
    let svg = scratch("heat.svg");
    let out = oddity(
        &[
            "analyze",
            "--game",
            "odd",
            "--size",
            "4",
            "--moves",
            "B:C3",
            "--visits",
            "2000",
            "--threads",
            "1",
            "--seed",
            "3",
            "--top",
            "10000",
            "--json",
            "--heat",
            "winrate",
            "--svg",
            svg.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success());
    let json: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let candidates = json["moveInfos"].as_array().unwrap();
    let cells = json["cells"].as_array().unwrap();
    let rate = |c: &Value| c["winrate"].as_f64().unwrap();
    for cell in cells {
        let name = cell["cell"].as_str().unwrap();
        let using: Vec<&Value> = candidates
            .iter()
            .filter(|m| {
                m["move"]
                    .as_str()
                    .unwrap()
                    .split(',')
                    .any(|s| s.split(':').nth(1) == Some(name))
            })
            .collect();
        let most = using
            .iter()
            .map(|m| m["visits"].as_u64().unwrap())
            .max()
            .unwrap();
        assert!(
            using
                .iter()
                .filter(|m| m["visits"].as_u64() == Some(most))
                .any(|m| (rate(m) - rate(cell)).abs() < 1e-9),
            "{name}: {} is not the win rate of its most visited turn",
            rate(cell)
        );
    }
    // Cells no visit reached have no win rate and stay uncoloured.
    let visited: Vec<&Value> = cells.iter().filter(|c| c["visits"] != 0).collect();
    assert!(visited.len() >= 2 && visited.len() < cells.len());
    let lo = visited
        .iter()
        .map(|c| rate(c))
        .fold(f64::INFINITY, f64::min);
    let hi = visited
        .iter()
        .map(|c| rate(c))
        .fold(f64::NEG_INFINITY, f64::max);
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let mut seen = 0;
    for n in doc
        .descendants()
        .filter(|n| n.attribute("data-heat").is_some())
    {
        let name = n.attribute("data-heat").unwrap();
        let value: f64 = n.attribute("data-value").unwrap().parse().unwrap();
        let cell = visited.iter().find(|c| c["cell"] == name).unwrap();
        assert!(
            ((rate(cell) - lo) / (hi - lo) - value).abs() < 1e-3,
            "{name}"
        );
        seen += 1;
    }
    assert_eq!(seen, visited.len());
    let _ = std::fs::remove_file(&svg);
}

/// `--position` on a game with variations reads its main line, says on
/// stderr which of how many variations it used, and takes `--variation`
/// by number or by a turn's name.
#[test]
fn variation_picks_a_line_of_a_game_tree() {
    let text = "(;GM[9000]OG[odd]SZ[3];B[B:A1](;W[W:B1];B[B:C1])(;W[W:C3]N[try];B[B:B2];W[W:A2]))";
    let file = scratch("variations.sgf");
    std::fs::write(&file, text).unwrap();
    let path = file.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["analyze", "--position", path, "--visits", "10", "--json"];
        args.extend(extra);
        oddity(&args, "")
    };
    for (extra, turns, which) in [
        (vec![], 3, "the main line"),
        (vec!["--variation", "2"], 4, "variation 2"),
        (vec!["--variation", "try"], 4, "the variation through 'try'"),
    ] {
        let out = run(&extra);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{err}");
        let json: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        assert_eq!(json["turnNumber"], turns, "{extra:?}");
        assert_eq!(err.trim(), format!("{path}: {which} of 2 variations"));
    }
    let out = run(&["--variation", "3"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no variation 3"));
}
