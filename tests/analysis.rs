//! Analysis from the shell and from scripts: a fixed-seed one-thread
//! analysis is the same every time, the batch loop answers every bad query
//! with an error naming its id and goes on, records are analysed at a given
//! turn, and the blunder check finds a planted blunder.

use std::io::Write;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use oddity::analysis::blunders::check_game;
use oddity::analysis::query::{Defaults, Viewpoint};
use oddity::analysis::queue::serve;
use oddity::analysis::result::{Settings, analyse};
use oddity::rules::game::{GameSpec, Rules};
use oddity::rules::kind::GameKind;
use oddity::rules::position::AnyGame;
use oddity::rules::record::GameRecord;
use oddity::rules::sgf::{RecordInfo, write};
use serde_json::Value;

fn oddity(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oddity"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// A scratch file name unique to this test process.
fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("oddity-analysis-{}-{name}", std::process::id()))
}

fn settings(visits: u64) -> Settings {
    Settings {
        visits: Some(visits),
        threads: 1,
        seed: 11,
        ..Settings::default()
    }
}

#[test]
fn fixed_seed_one_thread_analysis_is_stable() {
    for (kind, size, moves) in [
        (GameKind::Xodd, 5, "B:C3"),
        (GameKind::Yodd, 3, "B:C3 W:A1,W:E5"),
        (GameKind::Odd, 3, "B:C3 W:A1"),
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

#[test]
fn batch_echoes_numeric_ids_digit_for_digit() {
    // Beyond what a double holds, a negative zero, an exponent: each id
    // comes back as it was written, from a good query, an action and a
    // line that is not JSON.
    let ids = [
        "744444444444444444444444444444444444444444444444444444444444444444444444444444",
        "0.1000000000000000055511151231257827",
        "-0",
        "1e+400",
    ];
    let mut input = String::new();
    for id in ids {
        input += &format!(
            "{{\"id\":{id},\"game\":\"odd\",\"size\":3,\"maxVisits\":20}}\n\
             {{\"id\":{id},\"action\":\"query_version\"}}\n\
             {{\"id\":{id},\"game\":\"odd\n"
        );
    }
    let out = oddity(&["analysis", "--threads", "1"], &input);
    assert!(out.status.success());
    let text = stdout(&out);
    for id in ids {
        let echoed = text
            .lines()
            .filter(|l| l.contains(&format!("\"id\":{id},")))
            .count();
        assert_eq!(echoed, 3, "id {id} in {text}");
    }
    assert_eq!(text.lines().count(), 3 * ids.len(), "{text}");
}

#[test]
fn batch_answers_every_bad_query_with_its_id_and_goes_on() {
    let input = [
        r#"{"id":"good1","game":"odd","size":3,"moves":["B:C3"],"maxVisits":300,"topK":2}"#,
        r#"{"id":"broken", "game": "odd""#,
        r#"{"id":"chess","game":"chess"}"#,
        r#"{"id":"big","game":"xodd","size":40}"#,
        r#"{"id":"token","game":"yodd","size":3,"moves":["B:C3","W:C3"]}"#,
        r#"{"id":"junk","game":"odd","moves":["B:C3 junk"]}"#,
        r#"{"id":"turns","game":"odd","moves":["B:E5"],"analyzeTurns":[2]}"#,
        r#"{"id":"visits","game":"odd","maxVisits":0}"#,
        r#"{"id":7,"game":"odd","moves":"B:E5"}"#,
        r#"{"game":"odd"}"#,
        "",
        r#"{"id":"good2","game":"onyx","size":4,"rules":{"start":"open"},"moves":["B2"],"analyzeTurns":[0,1],"maxVisits":200,"includeCells":true,"extra":1}"#,
    ]
    .join("\n");
    let out = oddity(&["analysis", "--threads", "1"], &(input + "\n"));
    assert!(out.status.success());
    let lines: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let ids: Vec<String> = lines.iter().map(|l| l["id"].to_string()).collect();
    assert_eq!(
        ids,
        [
            "\"good1\"",
            "\"broken\"",
            "\"chess\"",
            "\"big\"",
            "\"token\"",
            "\"junk\"",
            "\"turns\"",
            "\"visits\"",
            "7",
            "null",
            "\"good2\"",
            "\"good2\""
        ]
    );
    let errors: Vec<&Value> = lines.iter().filter(|l| l.get("error").is_some()).collect();
    assert_eq!(errors.len(), 9);
    let error_of = |id: &str| {
        lines
            .iter()
            .find(|l| l["id"] == id)
            .and_then(|l| l["error"].as_str())
            .unwrap_or("")
            .to_string()
    };
    assert!(error_of("broken").starts_with("malformed JSON"));
    assert!(error_of("chess").contains("unknown game 'chess'"));
    assert!(error_of("big").contains("size 40"));
    assert!(error_of("token").contains("move 2"));
    assert!(error_of("junk").contains("B:C3 junk"));
    assert!(error_of("turns").contains("turn 2"));
    assert!(error_of("visits").contains("maxVisits"));
    let good1 = &lines[0];
    assert_eq!(good1["isDuringSearch"], false);
    assert_eq!(good1["turnNumber"], 1);
    assert_eq!(good1["moveInfos"].as_array().unwrap().len(), 2);
    assert!(good1.get("cells").is_none(), "cells only when asked");
    let (g0, g1) = (&lines[10], &lines[11]);
    assert_eq!(
        (g0["turnNumber"].as_u64(), g1["turnNumber"].as_u64()),
        (Some(0), Some(1))
    );
    assert_eq!(g0["toMove"], "b");
    assert_eq!(g1["toMove"], "w");
    assert!(g1["cells"].is_array());
    assert_eq!(g1["warnings"][0], "unknown field 'extra' ignored");
}

/// One answer per query line, whatever the line: bytes that are not
/// UTF-8, an empty list of turns and rules that are not an object each get
/// an error, and the queries after them are answered.
#[test]
fn batch_answers_every_line_even_bad_bytes() {
    let mut input = b"\xff\n".to_vec();
    input.extend_from_slice(b"{\"id\":\"\xff1\",\"game\":\"odd\"}");
    input.push(b'\n');
    for line in [
        r#"{"id":"empty","game":"odd","size":2,"analyzeTurns":[]}"#,
        r#"{"id":"array","game":"odd","size":2,"rules":[5]}"#,
        // Large enough that the endgame solver stays out of it.
        r#"{"id":"b","game":"odd","size":4,"maxVisits":1}"#,
    ] {
        input.extend_from_slice(line.as_bytes());
        input.push(b'\n');
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_oddity"))
        .args(["analysis", "--threads", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap();
    let lines: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5, "{lines:?}");
    for bad in &lines[..2] {
        assert_eq!(bad["id"], Value::Null);
        assert!(
            bad["error"].as_str().unwrap().contains("not UTF-8"),
            "{bad}"
        );
    }
    assert_eq!(lines[2]["id"], "empty");
    assert_eq!(lines[2]["field"], "analyzeTurns");
    assert_eq!(lines[3]["id"], "array");
    assert_eq!(lines[3]["field"], "rules");
    assert_eq!(lines[4]["id"], "b");
    assert_eq!(lines[4]["rootInfo"]["visits"], 1);
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

#[test]
fn batch_in_parallel_answers_every_query() {
    let input: String = (0..6)
        .map(|k| {
            format!(
                "{{\"id\":\"q{k}\",\"game\":\"odd\",\"size\":3,\"maxVisits\":200,\"seed\":3}}\n"
            )
        })
        .collect();
    let out = oddity(&["analysis", "--parallel", "3"], &input);
    let mut ids: Vec<String> = stdout(&out)
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    ids.sort();
    assert_eq!(ids, ["q0", "q1", "q2", "q3", "q4", "q5"]);
    // Same seed, same query: the same answer whichever worker took it.
    let bodies: Vec<String> = stdout(&out)
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            v["id"] = Value::Null;
            v.to_string()
        })
        .collect();
    assert!(bodies.iter().all(|b| *b == bodies[0]));
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
        oddity::rules::moves::Colour::White
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
    use oddity::gtp::board;
    use oddity::rules::moves::{Colour, Turn};
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
            "3",
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

/// The answers of `oddity analysis ARGS` to `queries`, one per line.
fn batch(args: &[&str], queries: &[&str]) -> Vec<Value> {
    let mut all = vec!["analysis", "--threads", "1"];
    all.extend_from_slice(args);
    let out = oddity(&all, &(queries.join("\n") + "\n"));
    assert!(out.status.success());
    stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// An answer without its id, to compare answers of different queries.
fn body(answer: &Value) -> Value {
    let mut v = answer.clone();
    v["id"] = Value::Null;
    v
}

#[test]
fn batch_moves_take_player_pairs_and_every_error_names_its_field() {
    let answers = batch(
        &[],
        &[
            r#"{"id":"tokens","game":"xodd","size":5,"moves":["B:C3","W:A1,B:E5"],"maxVisits":300,"seed":2}"#,
            r#"{"id":"pairs","game":"xodd","size":5,"moves":[["B","C3"],["w","W:A1,B:E5"]],"maxVisits":300,"seed":2}"#,
            r#"{"id":"onyx","game":"onyx","size":8,"rules":{"start":"open"},"moves":[["B","D4"],["W","E5"]],"maxVisits":50}"#,
        ],
    );
    assert_eq!(body(&answers[0]), body(&answers[1]));
    assert_eq!(answers[2]["turnNumber"], 2);
    let errors = batch(
        &[],
        &[
            r#"{"id":"seat","game":"odd","moves":[["W","B:C3"]]}"#,
            r#"{"id":"player","game":"odd","moves":[["X","C3"]]}"#,
            r#"{"id":"shape","game":"odd","moves":[["B"]]}"#,
            r#"{"id":"komi","game":"odd","rules":{"komi":7}}"#,
            r#"{"id":"visits","game":"odd","maxVisits":"many"}"#,
            r#"{"id":"cells","game":"odd","includeCells":1}"#,
            r#"{"id":"stones","game":"odd","initialStones":[["B","Z9"]]}"#,
            r#"{"id":"as","game":"odd","reportAnalysisWinratesAs":"GREEN"}"#,
            r#"{"id":"avoid","game":"odd","avoidMoves":[{"player":"B","moves":["Q7"],"untilDepth":1}]}"#,
            r#"{"id":"allow","game":"odd","allowMoves":[{"player":"B","moves":["C3"],"untilDepth":0}]}"#,
            r#"{"id":"over","game":"odd","overrideSettings":{"nonsense":1}}"#,
            r#"{"id":"prio","game":"odd","analyzeTurns":[0],"priorities":[1,2]}"#,
            r#"{"id":"every","game":"odd","reportDuringSearchEvery":0}"#,
            r#"{"id":"kill","action":"terminate"}"#,
            r#"{"id":"group","game":"odd","size":2,"rules":{"minGroup":50}}"#,
            r#"{"id":"time","game":"odd","maxTime":1e9}"#,
        ],
    );
    let fields: Vec<(&str, &str)> = errors
        .iter()
        .map(|e| {
            assert!(e["error"].is_string(), "{e}");
            (
                e["id"].as_str().unwrap(),
                e["field"].as_str().unwrap_or("none"),
            )
        })
        .collect();
    assert_eq!(
        fields,
        [
            ("seat", "moves"),
            ("player", "moves"),
            ("shape", "moves"),
            ("komi", "rules"),
            ("visits", "maxVisits"),
            ("cells", "includeCells"),
            ("stones", "initialStones"),
            ("as", "reportAnalysisWinratesAs"),
            ("avoid", "avoidMoves"),
            ("allow", "allowMoves"),
            ("over", "overrideSettings"),
            ("prio", "priorities"),
            ("every", "reportDuringSearchEvery"),
            ("kill", "terminateId"),
            ("group", "rules"),
            ("time", "maxTime"),
        ]
    );
    assert!(errors[0]["error"].as_str().unwrap().contains("b's turn"));
    assert!(errors[3]["error"].as_str().unwrap().contains("komi"));
}

#[test]
fn batch_win_rates_are_seen_from_the_side_asked_for() {
    // White to move after one black turn.
    let query = |view: &str| {
        format!(
            r#"{{"id":"{view}","game":"xodd","size":5,"moves":["B:C3"],"maxVisits":400,"seed":4,"includeCells":true,"includeOwnership":true{field}}}"#,
            field = if view.is_empty() {
                String::new()
            } else {
                format!(r#","reportAnalysisWinratesAs":"{view}""#)
            }
        )
    };
    let answers = batch(&[], &[&query(""), &query("BLACK"), &query("white")]);
    let (side, black, white) = (&answers[0], &answers[1], &answers[2]);
    assert_eq!(side["toMove"], "w");
    let root = |a: &Value, f: &str| a["rootInfo"][f].as_f64().unwrap();
    assert_eq!(root(side, "winrate"), root(white, "winrate"));
    assert!((root(side, "winrate") + root(black, "winrate") - 1.0).abs() < 1e-6);
    assert_eq!(root(side, "scoreSelfplay"), -root(black, "scoreSelfplay"));
    let first = |a: &Value, f: &str| a["moveInfos"][0][f].as_f64().unwrap();
    assert!((first(side, "winrate") + first(black, "winrate") - 1.0).abs() < 1e-6);
    assert!(first(black, "lcb") <= first(black, "winrate"));
    let cell = |a: &Value| a["cells"][0]["winrate"].as_f64().unwrap();
    assert!((cell(side) + cell(black) - 1.0).abs() < 1e-6);
    // The command's default viewpoint, which a query may still override.
    let by_option = batch(
        &["--winrates-as", "black"],
        &[&query(""), &query("SIDETOMOVE")],
    );
    assert_eq!(body(&by_option[0]), body(&answers[1]));
    assert_eq!(body(&by_option[1]), body(&answers[0]));
}

#[test]
fn batch_turns_are_searched_alone_to_exactly_max_visits() {
    let query = |turns: &str| {
        format!(
            r#"{{"id":"t","game":"xodd","size":6,"moves":["B:C3","W:D4,B:E5","W:A1,B:B1"],"analyzeTurns":{turns},"maxVisits":700,"seed":5}}"#
        )
    };
    let all = batch(&[], &[&query("[0,1,2,3]"), &query("[2]"), &query("[3,2]")]);
    assert_eq!(all.len(), 7);
    for a in &all {
        assert_eq!(a["rootInfo"]["visits"], 700, "{a}");
    }
    assert_eq!(all[2], all[4]);
    assert_eq!(all[2], all[6]);
    assert_eq!(all[3], all[5]);
}

#[test]
fn batch_reports_pv_visits_ownership_and_score() {
    let answers = batch(
        &[],
        &[
            r#"{"id":"x","game":"xodd","size":5,"moves":["B:C3"],"maxVisits":2000,"seed":6,"includePVVisits":true,"includeOwnership":true}"#,
            r#"{"id":"o","game":"odd","size":4,"moves":["W:D4"],"maxVisits":2000,"seed":6,"includeOwnership":true}"#,
            r#"{"id":"plain","game":"odd","size":4,"maxVisits":200}"#,
            r#"{"id":"moves","game":"xodd","size":5,"moves":["B:C3"],"maxVisits":2000,"seed":6,"includeMovesOwnership":true}"#,
        ],
    );
    // Per turn: the turn's first stone is on every final board below it.
    for m in answers[3]["moveInfos"].as_array().unwrap() {
        let ownership = m["ownership"].as_array().unwrap();
        assert_eq!(ownership.len(), 25);
        let token = m["move"].as_str().unwrap();
        let placed = token.split(',').any(|stone| {
            let (colour, cell) = stone.split_once(':').unwrap();
            let at = ownership.iter().find(|c| c["cell"] == cell).unwrap();
            at[if colour == "B" { "black" } else { "white" }] == 1.0
        });
        assert!(placed || token == "pass", "{m}");
    }
    assert!(answers[3].get("ownership").is_none());
    let x = &answers[0];
    for m in x["moveInfos"].as_array().unwrap() {
        let pv = m["pv"].as_array().unwrap();
        let visits: Vec<u64> = m["pvVisits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        assert_eq!(visits.len(), pv.len());
        assert_eq!(visits[0], m["visits"].as_u64().unwrap());
        assert!(visits.windows(2).all(|w| w[0] >= w[1]), "{visits:?}");
        assert!(m["lcb"].as_f64().unwrap() <= m["winrate"].as_f64().unwrap());
        assert!(m["scoreSelfplay"].is_number());
    }
    let ownership = x["ownership"].as_array().unwrap();
    assert_eq!(ownership.len(), 25);
    for c in ownership {
        let sum: f64 = ["black", "white", "empty"]
            .iter()
            .map(|k| c[k].as_f64().unwrap())
            .sum();
        assert!((sum - 1.0).abs() < 1e-5, "{c}");
    }
    // Nothing is captured in Xodd: the black stone is black at every end.
    let c3 = ownership.iter().find(|c| c["cell"] == "C3").unwrap();
    assert_eq!(c3["black"], 1.0);
    assert!(x["rootInfo"]["scoreSelfplay"].is_number());
    // Odd ends on a full board and has no group margin.
    let o = &answers[1];
    let d4 = o["ownership"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["cell"] == "D4")
        .unwrap();
    assert_eq!(
        (d4["white"].as_f64(), d4["empty"].as_f64()),
        (Some(1.0), Some(0.0))
    );
    // Odd also says how often a cell ended in a group that counts; with
    // groups of 4 or more counting on this board, some stones do, not all.
    let counted: Vec<f64> = o["ownership"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["counted"].as_f64().unwrap())
        .collect();
    assert!(counted.iter().all(|c| (0.0..=1.0).contains(c)));
    assert!(counted.iter().any(|&c| c > 0.0) && counted.iter().any(|&c| c < 1.0));
    assert!(ownership.iter().all(|c| c.get("counted").is_none()));
    assert!(o["rootInfo"].get("scoreSelfplay").is_none());
    let plain = &answers[2];
    assert!(plain.get("ownership").is_none());
    assert!(plain["moveInfos"][0].get("pvVisits").is_none());
    assert!(plain["rootInfo"].get("scoreSelfplay").is_none());
}

/// The cells a turn token puts stones on.
fn cells_of(token: &str) -> Vec<String> {
    token
        .split(',')
        .filter_map(|s| s.split_once(':').map(|(_, c)| c.to_string()))
        .collect()
}

#[test]
fn batch_avoid_and_allow_moves_filter_the_search() {
    let answers = batch(
        &[],
        &[
            r#"{"id":"avoid","game":"odd","size":3,"maxVisits":1500,"topK":100,"avoidMoves":[{"player":"B","moves":["C3","A1","b2"],"untilDepth":1}]}"#,
            r#"{"id":"allow","game":"xodd","size":5,"moves":["B:C3"],"maxVisits":1500,"topK":100,"includePVVisits":true,"allowMoves":[{"player":"W","moves":["A1","B1","E5"],"untilDepth":2}]}"#,
            r#"{"id":"other","game":"odd","size":3,"maxVisits":300,"topK":100,"avoidMoves":[{"player":"W","moves":["C3"],"untilDepth":1}]}"#,
        ],
    );
    let moves = |a: &Value| -> Vec<String> {
        a["moveInfos"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["move"].as_str().unwrap().to_string())
            .collect()
    };
    let avoided = moves(&answers[0]);
    assert!(avoided.len() > 10);
    for m in &avoided {
        assert!(
            !["C3", "A1", "B2"].contains(&cells_of(m)[0].as_str()),
            "{m}"
        );
    }
    // White's own turns, the first and the third of each line, keep to
    // the three cells; Black's are free.
    for m in answers[1]["moveInfos"].as_array().unwrap() {
        let pv: Vec<&str> = m["pv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        for turn in pv.iter().step_by(2).take(2) {
            for cell in cells_of(turn) {
                assert!(["A1", "B1", "E5"].contains(&cell.as_str()), "{pv:?}");
            }
        }
    }
    // A rule for the other seat leaves the side to move alone.
    assert!(moves(&answers[2]).iter().any(|m| cells_of(m)[0] == "C3"));
}

#[test]
fn batch_policy_and_settings_per_query() {
    let answers = batch(
        &[],
        &[
            r#"{"id":"onyx","game":"onyx","size":8,"moves":["D4"],"maxVisits":100,"includePolicy":true}"#,
            r#"{"id":"odd","game":"odd","size":3,"maxVisits":100,"includePolicy":true}"#,
            r#"{"id":"a","game":"odd","size":4,"maxVisits":300,"seed":1}"#,
            r#"{"id":"b","game":"odd","size":4,"maxVisits":300,"seed":1,"overrideSettings":{"rave":false,"leaf_playouts":1,"exploration":1.0}}"#,
        ],
    );
    let policy = answers[0]["policy"].as_array().unwrap();
    assert!(policy.len() > 50);
    let priors: Vec<f64> = policy
        .iter()
        .map(|p| p["prior"].as_f64().unwrap())
        .collect();
    assert!(priors.windows(2).all(|w| w[0] >= w[1]));
    assert!(priors.iter().all(|p| (0.0..=1.0).contains(p)));
    assert!(answers[1].get("policy").is_none());
    assert!(
        answers[1]["warnings"][0]
            .as_str()
            .unwrap()
            .contains("no knowledge prior")
    );
    assert_ne!(body(&answers[2]), body(&answers[3]));
}

#[test]
fn batch_sets_up_positions_without_a_history() {
    let answers = batch(
        &[],
        &[
            r#"{"id":"s","game":"xodd","size":5,"initialStones":[["B","C3"],["W","A1"],["w","E5"]],"initialPlayer":"W","moves":[["W","W:B2,B:D4"]],"maxVisits":200}"#,
            r#"{"id":"p","game":"odd","size":3,"initialPlayer":"W","maxVisits":100}"#,
            r#"{"id":"dup","game":"odd","initialStones":[["B","C3"],["W","C3"]]}"#,
            r#"{"id":"who","game":"odd","initialPlayer":"nobody"}"#,
        ],
    );
    let s = &answers[0];
    assert_eq!(s["turnNumber"], 1);
    assert_eq!(s["toMove"], "b");
    assert_eq!(s["groups"], serde_json::json!({"b": 2, "w": 3}));
    assert_eq!(answers[1]["toMove"], "w");
    assert_eq!(answers[2]["field"], "initialStones");
    assert!(answers[2]["error"].as_str().unwrap().contains("C3"));
    assert_eq!(answers[3]["field"], "initialPlayer");
}

/// A running `oddity analysis`: queries in, answers out as they come.
struct Server {
    child: std::process::Child,
    lines: std::sync::mpsc::Receiver<Value>,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        use std::io::BufRead;
        let mut child = Command::new(env!("CARGO_BIN_EXE_oddity"))
            .arg("analysis")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let out = std::io::BufReader::new(child.stdout.take().unwrap());
        let (send, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in out.lines() {
                let Ok(line) = line else { return };
                if send.send(serde_json::from_str(&line).unwrap()).is_err() {
                    return;
                }
            }
        });
        Server { child, lines }
    }

    fn send(&mut self, query: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{query}").unwrap();
        stdin.flush().unwrap();
    }

    fn next(&self) -> Value {
        self.lines
            .recv_timeout(std::time::Duration::from_secs(300))
            .expect("an answer within five minutes")
    }
}

#[test]
fn batch_answers_actions_at_once_and_terminates_searches() {
    let mut server = Server::start(&["--threads", "1"]);
    server.send(
        r#"{"id":"long","game":"odd","size":6,"maxVisits":1000000000,"reportDuringSearchEvery":0.05,"topK":1}"#,
    );
    let interim = server.next();
    assert_eq!(
        (&interim["id"], &interim["isDuringSearch"]),
        (&"long".into(), &true.into())
    );
    // Queued behind the running search, the later one first.
    server.send(r#"{"id":"low","game":"odd","size":4,"maxVisits":100}"#);
    server.send(r#"{"id":"high","game":"odd","size":4,"maxVisits":100,"priority":3}"#);
    server.send(r#"{"id":"gone","game":"odd","size":4,"analyzeTurns":[0],"maxVisits":100}"#);
    server.send(r#"{"id":"v","action":"query_version"}"#);
    server.send(r#"{"id":"c","action":"clear_cache"}"#);
    server.send(r#"{"id":"t1","action":"terminate","terminateId":"gone","turnNumbers":[0]}"#);
    let mut seen = Vec::new();
    while seen.len() < 3 {
        let a = server.next();
        if a["id"] != "long" {
            seen.push(a);
        }
    }
    assert_eq!(seen[0]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(
        seen[1],
        serde_json::json!({"id": "c", "action": "clear_cache"})
    );
    assert_eq!(seen[2]["terminateId"], "gone");
    server.send(r#"{"id":"t2","action":"terminate_all"}"#);
    let mut rest = Vec::new();
    loop {
        let a = server.next();
        let last = a["id"] == "gone";
        if a["isDuringSearch"] != true {
            rest.push(a);
        }
        if last {
            break;
        }
    }
    let ids: Vec<&str> = rest.iter().map(|a| a["id"].as_str().unwrap()).collect();
    assert!(ids.contains(&"t2"));
    rest.retain(|a| a["id"] != "t2");
    let ids: Vec<&str> = rest.iter().map(|a| a["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["long", "high", "low", "gone"]);
    let long = &rest[0];
    assert_eq!(long["isDuringSearch"], false);
    assert!(long["rootInfo"]["visits"].as_u64().unwrap() < 1_000_000_000);
    // terminate_all stopped the queued queries too, before they began.
    for a in &rest[1..] {
        assert_eq!(a["noResults"], true, "{a}");
        assert_eq!(a["isDuringSearch"], false);
    }
    drop(server.child.stdin.take());
    assert!(server.child.wait().unwrap().success());
}

/// An output that takes a millisecond per write, so that workers are often
/// in the middle of writing when the reader acts.
struct SlowOutput<'a>(&'a mut Vec<u8>);

impl Write for SlowOutput<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        std::thread::sleep(std::time::Duration::from_millis(1));
        self.0.write(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn batch_acknowledges_terminate_before_the_answers_it_cuts_short() {
    let defaults = Defaults {
        settings: settings(1),
        viewpoint: Viewpoint::SideToMove,
    };
    let mut input: String = (0..40)
        .map(|k| format!("{{\"id\":{k},\"game\":\"odd\",\"size\":3}}\n"))
        .collect();
    input.push_str("{\"id\":\"t\",\"action\":\"terminate_all\"}\n");
    // docs/analysis.md: "The acknowledgement comes first". Without that
    // care the order depends on the threads' timing: try it a few times.
    for _ in 0..10 {
        let mut output = Vec::new();
        let workers = NonZeroUsize::new(2).unwrap();
        serve(
            input.as_bytes(),
            SlowOutput(&mut output),
            &defaults,
            workers,
        );
        let answers: Vec<Value> = String::from_utf8(output)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(answers.len(), 41);
        let ack = answers.iter().position(|a| a["id"] == "t").unwrap();
        for (k, a) in answers.iter().enumerate() {
            if a["noResults"] == true {
                assert!(k > ack, "noResults before the acknowledgement: {a}");
            }
        }
    }
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
