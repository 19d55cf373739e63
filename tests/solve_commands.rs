//! The solver as users meet it: `oddity solve`, the protocol's
//! `oddity-solve`, the analysis engine's `proofTime`, and perfect endgames
//! in play.

#[path = "support/gtp.rs"]
mod util;

use std::process::Command;

use oddity_rules::{AnyGame, Colour, GameKind, GameRecord, GameSpec, Rules};
use oddity_search::{Engine as Search, Limits, SearchParams, StopFlag};
use serde_json::Value;
use util::Engine;

fn oddity(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(util::binary())
        .args(args)
        .output()
        .expect("oddity runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn solve_prints_every_turn_and_checks_its_proofs() {
    let (ok, out, err) = oddity(&["solve", "--game", "xodd", "--size", "3", "--check"]);
    assert!(ok, "{err}");
    assert!(
        out.contains("value: win for Black, the side to move"),
        "{out}"
    );
    assert!(out.contains("winning turns (1 of 18): B:B2"), "{out}");
    assert!(out.contains("checked: every proven value"), "{out}");

    let (ok, out, err) = oddity(&[
        "solve", "--game", "odd", "--size", "2", "--moves", "B:B2", "--json", "--check",
    ]);
    assert!(ok, "{err}");
    let json: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(json["to_move"], "w");
    assert!(["win", "loss"].contains(&json["value"].as_str().unwrap()));
    let turns = json["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 12, "six empty cells, two colours");
    for t in turns {
        assert!(["win", "loss"].contains(&t["value"].as_str().unwrap()));
        assert!(t["turn"].as_str().unwrap().contains(':'));
    }
    // The root is won exactly when one of its turns is.
    let any_win = turns.iter().any(|t| t["value"] == "win");
    assert_eq!(json["value"] == "win", any_win);
    assert_eq!(json["checked"]["ok"], true);

    let (ok, _, err) = oddity(&["solve", "--game", "odd", "--size", "2", "--time", "0"]);
    assert!(!ok && err.contains("--time"), "{err}");
}

#[test]
fn solve_by_retrograde_analysis_gives_the_same_answers_and_checks_them() {
    for args in [
        ["--game", "xodd", "--size", "3", "--moves", ""],
        ["--game", "odd", "--size", "2", "--moves", "B:B2 W:A1"],
        ["--game", "yodd", "--size", "2", "--moves", "B:B2 pass"],
    ] {
        let answer = |extra: &[&str]| -> Value {
            let mut all = vec!["solve"];
            all.extend(args);
            all.extend(extra);
            all.push("--json");
            let (ok, out, err) = oddity(&all);
            assert!(ok, "{args:?} {extra:?}: {err}");
            serde_json::from_str(out.lines().last().unwrap()).unwrap()
        };
        let searched = answer(&["--check"]);
        let table = answer(&["--retrograde", "--check"]);
        assert_eq!(table["method"], "retrograde");
        assert_eq!(searched["method"], "df-pn");
        assert_eq!(table["value"], searched["value"], "{args:?}");
        assert_eq!(table["turns"], searched["turns"], "{args:?}");
        assert_eq!(table["checked"]["ok"], true, "{args:?}");
        // Odd keeps a bit per position (its mover follows from the stones
        // placed), 27 positions to a word of 8 bytes; the others a byte.
        let per_entry = table["bytes_per_entry"].as_f64().unwrap();
        if args[1] == "odd" {
            assert_eq!(per_entry, 8.0 / 27.0);
        } else {
            assert_eq!(per_entry, 1.0);
        }
    }

    let (ok, out, err) = oddity(&["solve", "--game", "yodd", "--size", "2", "--retrograde"]);
    assert!(ok, "{err}");
    assert!(out.contains("winning turns (1 of 14): B:B2"), "{out}");
    assert!(
        out.contains("every position that can follow valued: 2187 positions"),
        "{out}"
    );

    for (args, says) in [
        ("--game onyx --size 4", "Xodd, Yodd and Odd"),
        ("--game xodd --size 5", "25 empty cells"),
        ("--game yodd --size 3 --memory 100", "1109 MiB"),
        ("--game xodd --size 3 --time 5", "--time"),
    ] {
        let mut all = vec!["solve", "--retrograde"];
        all.extend(args.split_whitespace());
        let (ok, _, err) = oddity(&all);
        assert!(!ok && err.contains(says), "{args}: {err}");
    }
}

#[test]
fn solve_draws_each_turn_won_or_lost() {
    let dir = std::env::temp_dir().join(format!("oddity-solve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("x.svg");
    let (ok, _, err) = oddity(&[
        "solve",
        "--game",
        "xodd",
        "--size",
        "3",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let marks: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("data-mark").is_some())
        .collect();
    assert_eq!(marks.len(), 9, "every cell of Xodd 3 has a turn");
    // B2 wins with a black stone and loses with a white one.
    let b2 = marks
        .iter()
        .find(|n| n.attribute("data-mark") == Some("B2"))
        .unwrap();
    assert!(b2.attribute("class").unwrap().contains("mixed"));
    let lost = marks
        .iter()
        .filter(|n| n.attribute("class").unwrap().contains("lost"))
        .count();
    assert_eq!(lost, 8);
    assert!(text.contains("Black wins"));
}

#[test]
fn oddity_solve_answers_the_value_and_the_turns() {
    let mut e = Engine::start(&["--game", "odd"]);
    e.ok("boardsize 2");
    e.ok("play b B:B2");
    let answer = e.ok("oddity-solve");
    let lines: Vec<&str> = answer.lines().collect();
    assert!(["win", "loss"].contains(&lines[0]), "{answer}");
    assert!(lines[1].starts_with("winning"), "{answer}");
    assert!(lines[2].starts_with("losing"), "{answer}");
    assert!(answer.contains("\npv "), "{answer}");
    assert!(answer.contains("\nnodes "), "{answer}");
    let tokens = lines[1].split_whitespace().count() + lines[2].split_whitespace().count() - 2;
    assert_eq!(tokens, 12);
    // For the other seat, with a time limit.
    let other = e.ok("oddity-solve b 5");
    assert!(["win", "loss"].contains(&other.lines().next().unwrap()));
    assert_eq!(e.cmd("oddity-solve x"), Err("syntax error".into()));
    assert_eq!(e.cmd("oddity-solve b -3"), Err("syntax error".into()));
    assert_eq!(e.cmd("oddity-solve b 1 2"), Err("syntax error".into()));
    // Nothing was played.
    assert!(e.ok("showboard").contains('B'));
    e.ok("quit");
}

#[test]
fn analysis_queries_can_ask_for_a_proof() {
    let query = r#"{"id":"p","game":"odd","size":2,"moves":["B:B2","W:A1"],"maxVisits":200,"proofTime":10}"#;
    let out = Command::new(util::binary())
        .arg("analysis")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(format!("{query}\n").as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    let line = String::from_utf8(out.stdout).unwrap();
    let json: Value = serde_json::from_str(line.trim()).unwrap();
    let proof = &json["proof"];
    assert!(
        ["win", "loss"].contains(&proof["value"].as_str().unwrap()),
        "{line}"
    );
    assert_eq!(proof["turns"].as_array().unwrap().len(), 10);
    assert!(proof["nodes"].as_u64().unwrap() > 0);
    let bad = r#"{"id":"q","game":"odd","size":2,"proofTime":-1}"#;
    let out = Command::new(util::binary())
        .arg("analysis")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(format!("{bad}\n").as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    let json: Value = serde_json::from_str(String::from_utf8(out.stdout).unwrap().trim()).unwrap();
    assert_eq!(json["field"], "proofTime");
}

/// Plays `record` to its end: `engine` for `seat`, and for the other seat
/// the first legal turn (a fixed, simple defence); returns the winner.
fn play_out(record: &mut GameRecord, engine: &mut Search, seat: Colour) -> Colour {
    let limits = Limits {
        visits: Some(300),
        ..Limits::default()
    };
    while !record.is_over() {
        let mover = record.position().to_move();
        let turn = if mover == seat {
            engine.set_position(record);
            engine
                .search(&limits, &StopFlag::new(), None)
                .best
                .expect("a turn")
        } else {
            // The defender: the solver's longest resistance.
            let mut defender = Search::new(SearchParams {
                threads: 1,
                ..SearchParams::default()
            });
            defender.set_position(record);
            let s = defender
                .solve(
                    true,
                    &oddity_solver::SolveLimits::default(),
                    &StopFlag::new(),
                )
                .unwrap();
            s.best_turn().unwrap_or(record.position().legal_turns()[0])
        };
        record.play(mover, turn).unwrap();
    }
    record.outcome().unwrap().winner
}

/// A position after `plies` random turns from the start of `spec`.
fn random_record(spec: &GameSpec, plies: usize, seed: u64) -> GameRecord {
    let mut rng = oddity_rules::Rng::seeded(seed);
    let mut record = GameRecord::new(oddity_rules::AnyGame::new(spec));
    for _ in 0..plies {
        let turns = record.position().legal_turns();
        let pick = turns[rng.below(turns.len() as u32) as usize];
        let mover = record.position().to_move();
        let mut next = record.clone();
        next.play(mover, pick).unwrap();
        if next.is_over() {
            break;
        }
        record = next;
    }
    record
}

#[test]
fn won_endgames_are_converted_against_the_best_defence() {
    let cases = [
        (GameKind::Odd, 3, 9),
        (GameKind::Xodd, 4, 4),
        (GameKind::Yodd, 3, 5),
        (GameKind::Onyx, 4, 2),
    ];
    for (kind, size, plies) in cases {
        let spec = GameSpec::new(kind, size, Rules::default()).unwrap();
        for seed in 0..3 {
            let mut record = random_record(&spec, plies, seed);
            let mut engine = Search::new(SearchParams {
                threads: 1,
                seed: 3,
                ..SearchParams::default()
            });
            engine.set_position(&record);
            let solution = engine
                .solve(
                    false,
                    &oddity_solver::SolveLimits::default(),
                    &StopFlag::new(),
                )
                .unwrap();
            let Some(winner) = solution.winner() else {
                continue;
            };
            assert_eq!(
                play_out(&mut record, &mut engine, winner),
                winner,
                "{kind} {size} seed {seed}"
            );
        }
    }
}

/// An Odd 4 position with 11 empty cells that df-pn needs 90,764 nodes
/// to prove: three of its 22 turns win. The retrograde table finds one
/// within a search of 100 visits, whose share of solver work is 60 nodes.
/// (The mover, Black, may play either colour: the winning turns place
/// white stones.)
#[test]
fn small_endgames_are_played_perfectly_from_a_table() {
    let spec = GameSpec::new(GameKind::Odd, 4, Rules::default()).unwrap();
    let moves = "B:A2 W:E2 W:A3 W:B5 B:C3 W:A4 B:C4 W:B4 W:D4 W:F5 W:B3 W:B2 W:C1 W:D6 \
                 B:G5 B:D2 W:C2 W:D3 W:E3 B:E4 B:D1 W:A1 W:D7 B:F6 B:C5 W:G6";
    let tokens: Vec<&str> = moves.split_whitespace().collect();
    let record = GameRecord::replay(AnyGame::new(&spec), &tokens).unwrap();
    let limits = Limits {
        visits: Some(100),
        ..Limits::default()
    };
    let choice = |table: &str| {
        let mut params = SearchParams {
            threads: 1,
            seed: 3,
            ..SearchParams::default()
        };
        params.tuning.set("endgame_table", table).unwrap();
        let mut engine = Search::new(params);
        engine.set_position(&record);
        engine.search(&limits, &StopFlag::new(), None)
    };
    let report = choice("11");
    let best = record.position().token(&report.best.unwrap());
    assert!(["W:E6", "W:E7", "W:F7"].contains(&best.as_str()), "{best}");
    assert_eq!(report.proven, Some(Colour::Black));
    // Without the table the solver's share proves nothing here.
    assert_eq!(choice("0").proven, None);
}

#[test]
fn a_lost_position_is_played_on_unless_resigning_is_asked_for() {
    // Xodd 3: B2 is Black's only winning first turn, so White is lost.
    let mut e = Engine::start(&["--game", "xodd"]);
    e.ok("boardsize 3");
    e.ok("play b B:B2");
    assert!(e.ok("oddity-solve w").starts_with("loss"));
    assert_ne!(e.ok("reg_genmove w"), "resign");
    e.ok("oddity-param resign 0.5");
    assert_eq!(e.ok("reg_genmove w"), "resign");
    e.ok("quit");
}

/// The `oddity-solve` example of protocol.md, run: every line as written
/// but the time.
#[test]
fn the_protocol_example_of_oddity_solve_is_what_the_engine_answers() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md")).unwrap();
    let section = &doc[doc.find("### oddity-solve").unwrap()..];
    let block = section
        .split("```")
        .nth(1)
        .unwrap()
        .trim_start_matches('\n');
    // The block alternates commands and their responses, separated by
    // blank lines.
    let mut e = Engine::start(&[]);
    let mut lines = block.lines().peekable();
    while let Some(command) = lines.next() {
        if command.is_empty() {
            continue;
        }
        let mut expected = Vec::new();
        while let Some(line) = lines.next_if(|l| !l.is_empty()) {
            expected.push(line.to_string());
        }
        e.send(command);
        let got = e.response();
        let seconds = |text: &str| {
            text.lines()
                .map(|l| match l.find(" seconds ") {
                    Some(at) => l[..at].to_string(),
                    None => l.trim_end().to_string(),
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(seconds(&got), seconds(&expected.join("\n")), "{command}");
    }
    e.ok("quit");
}

/// The `proof` example of docs/analysis.md, run: the object as written but
/// the time.
#[test]
fn the_analysis_proof_example_is_what_the_engine_answers() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/analysis.md")).unwrap();
    let section = &doc[doc.find("### Proofs").unwrap()..];
    let block = section.split("```").nth(1).unwrap();
    let mut lines = block.lines().filter(|l| !l.is_empty());
    let command = lines.next().unwrap();
    let query = command.split('\'').nth(1).unwrap();
    let expected = lines.next().unwrap().trim_start_matches("... \"proof\":");
    let out = Command::new(util::binary())
        .arg("analysis")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(format!("{query}\n").as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    let answer: Value =
        serde_json::from_str(String::from_utf8(out.stdout).unwrap().trim()).unwrap();
    let mut got = answer["proof"].clone();
    let mut want: Value = serde_json::from_str(expected).unwrap();
    got["seconds"] = Value::Null;
    want["seconds"] = Value::Null;
    assert_eq!(got, want);
}

/// The `oddity solve` example of the README, run: every line as written but
/// the last (the solver's node count and time).
#[test]
fn the_readme_example_of_solve_is_what_it_prints() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = doc.find("$ oddity solve").unwrap();
    let block = &doc[start..start + doc[start..].find("```").unwrap()];
    let mut lines = block.lines();
    let command = lines.next().unwrap().trim_start_matches("$ oddity ");
    let expected: Vec<&str> = lines.collect();
    let args: Vec<&str> = command.split_whitespace().collect();
    let (ok, out, err) = oddity(&args);
    assert!(ok, "{err}");
    let got: Vec<&str> = out.lines().collect();
    assert_eq!(got.len(), expected.len());
    assert_eq!(got[..got.len() - 1], expected[..expected.len() - 1]);
    assert!(got.last().unwrap().starts_with("nodes "));
}

/// `oddity accuracy` on small Odd 3 positions with `extra` options, as
/// JSON.
fn small_accuracy(extra: &[&str]) -> Value {
    let mut args = vec![
        "accuracy",
        "--game",
        "odd",
        "--size",
        "3",
        "--stages",
        "2-4,5-7",
        "--positions",
        "6",
        "--time",
        "0.02",
        "--solve-time",
        "20",
        "--json",
    ];
    args.extend(extra);
    let (ok, out, err) = oddity(&args);
    assert!(ok, "{err}");
    serde_json::from_str(out.lines().last().unwrap()).unwrap()
}

#[test]
fn accuracy_judges_each_engine_by_the_solver() {
    let json = small_accuracy(&[]);
    let stages = json["stages"].as_array().unwrap();
    assert_eq!(stages.len(), 2);
    for s in stages {
        let drawn = s["drawn"].as_u64().unwrap();
        let parts = s["unsolved"].as_u64().unwrap()
            + s["lost"].as_u64().unwrap()
            + s["judged"].as_u64().unwrap();
        assert_eq!(drawn, 6);
        assert_eq!(parts, drawn);
        let names: Vec<&str> = s["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["contender"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["default", "search", "plain"]);
        for c in s["scores"].as_array().unwrap() {
            assert_eq!(c["positions"], s["judged"]);
            assert!(c["correct"].as_u64().unwrap() <= c["positions"].as_u64().unwrap());
            assert!(c["low"].as_f64().unwrap() <= c["high"].as_f64().unwrap());
        }
    }
    // The same positions judged by df-pn instead of retrograde tables get
    // the same values.
    assert_eq!(json["table_empty"], 16);
    let searched = small_accuracy(&["--table-empty", "0", "--contenders", "plain"]);
    for (a, b) in stages.iter().zip(searched["stages"].as_array().unwrap()) {
        for field in ["drawn", "unsolved", "lost", "judged"] {
            assert_eq!(a[field], b[field], "{field}");
        }
    }
    // Every losing choice is listed, with the moves that set it up.
    for s in stages {
        let lost: u64 = s["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["positions"].as_u64().unwrap() - c["correct"].as_u64().unwrap())
            .sum();
        let misses = s["misses"].as_array().unwrap();
        assert_eq!(misses.len() as u64, lost, "{s}");
        for m in misses {
            let (ok, _, err) = oddity(&[
                "solve",
                "--game",
                "odd",
                "--size",
                "3",
                "--moves",
                m["moves"].as_str().unwrap(),
                "--value-only",
                "--json",
            ]);
            assert!(ok, "{m}: {err}");
        }
    }
    // The stages together.
    let all = &json["all"];
    assert_eq!(all["drawn"], 12);
    let judged: u64 = stages.iter().map(|s| s["judged"].as_u64().unwrap()).sum();
    assert_eq!(all["judged"], judged);
    assert_eq!(all["scores"][0]["positions"], judged);
    let (ok, _, err) = oddity(&["accuracy", "--game", "odd", "--stages", "9-4"]);
    assert!(!ok && err.contains("--stages"), "{err}");
    let (ok, _, err) = oddity(&["accuracy", "--game", "odd", "--contenders", "best"]);
    assert!(!ok && err.contains("--contenders"), "{err}");
    for bad in ["default:rave", "default:nonsense=1", "plain:rave=off"] {
        let (ok, _, err) = oddity(&["accuracy", "--game", "odd", "--contenders", bad]);
        assert!(!ok && err.contains(bad), "{bad}: {err}");
    }
}

/// A contender may carry parameters of its own: the same positions, judged
/// for each under its own name.
#[test]
fn accuracy_contenders_take_parameters_of_their_own() {
    let json = small_accuracy(&["--contenders", "default,default:endgame=off:rave=off"]);
    let names: Vec<&str> = json["all"]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["contender"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["default", "default:endgame=off:rave=off"]);
}

/// `--contested` draws the same positions and keeps those where some turn
/// also loses: the won positions split into the contested ones judged and
/// the ones every turn wins.
#[test]
fn contested_accuracy_keeps_the_positions_where_the_choice_matters() {
    let all = small_accuracy(&["--contenders", "plain"]);
    let contested = small_accuracy(&["--contenders", "plain", "--contested"]);
    assert_eq!(contested["contested"], true);
    let (a, c) = (&all["all"], &contested["all"]);
    assert_eq!(a["uncontested"], 0);
    for field in ["drawn", "unsolved", "lost"] {
        assert_eq!(a[field], c[field], "{field}");
    }
    let (won, judged, every) = (
        a["judged"].as_u64().unwrap(),
        c["judged"].as_u64().unwrap(),
        c["uncontested"].as_u64().unwrap(),
    );
    assert_eq!(won, judged + every, "{c}");
    // Odd 3 at 2-7 empty points has both kinds among 12 positions.
    assert!(judged > 0 && every > 0, "{c}");
    let (ok, _, err) = oddity(&[
        "accuracy",
        "--game",
        "odd",
        "--stages",
        "15-18",
        "--contested",
    ]);
    assert!(!ok && err.contains("--contested needs"), "{err}");
}

/// The rows of docs/solved.md that take the solver under a second, run:
/// the winner, the winning first turns and the number of turns as the
/// table gives them.
#[test]
fn the_quick_rows_of_the_solved_boards_are_what_the_solver_proves() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/solved.md")).unwrap();
    let mut rows = 0;
    for line in doc.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 9 || !cells[2].starts_with("`oddity solve ") {
            continue;
        }
        let nodes: u64 = cells[6].replace(',', "").parse().unwrap_or(u64::MAX);
        if nodes > 100_000 {
            continue;
        }
        rows += 1;
        let command = cells[2].trim_matches('`').trim_start_matches("oddity ");
        let mut args: Vec<&str> = command.split_whitespace().collect();
        args.push("--json");
        let (ok, out, err) = oddity(&args);
        assert!(ok, "{command}: {err}");
        let answer: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
        let value = match cells[3] {
            "first player" => "win",
            "second player" => "loss",
            other => panic!("{command}: winner {other}"),
        };
        assert_eq!(answer["value"], value, "{command}");
        let turns = answer["turns"].as_array().unwrap();
        assert_eq!(cells[5], turns.len().to_string(), "{command}");
        let winning: Vec<&str> = turns
            .iter()
            .filter(|t| t["value"] == "win")
            .map(|t| t["turn"].as_str().unwrap())
            .collect();
        let expected: Vec<&str> = match cells[4] {
            "none" => Vec::new(),
            "all" => turns.iter().map(|t| t["turn"].as_str().unwrap()).collect(),
            listed => listed.split_whitespace().collect(),
        };
        assert_eq!(winning, expected, "{command}");
    }
    assert!(rows >= 10, "only {rows} quick rows");
}
