//! `oddity analysis`, the batch loop of JSON queries: it answers every
//! bad query with an error naming its id and goes on, answers queries in
//! parallel, reports what a query asks for, filters the search as asked,
//! and answers actions at once, also while searches run.

#[path = "support/command.rs"]
mod command;

use std::io::Write;
use std::num::NonZeroUsize;
use std::process::{Command, Stdio};

use command::{oddity, stdout};
use oddity_analysis::query::{Defaults, Viewpoint};
use oddity_analysis::queue::serve;
use oddity_analysis::result::Settings;
use oddity_search::Visits;
use serde_json::Value;

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
            r#"{"id":"limit","game":"odd","overrideSettings":{"threads":2}}"#,
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
            ("limit", "overrideSettings"),
        ]
    );
    assert!(errors[0]["error"].as_str().unwrap().contains("b's turn"));
    assert!(errors[3]["error"].as_str().unwrap().contains("komi"));
    let limit = errors[16]["error"].as_str().unwrap();
    assert!(limit.contains("threads: a limit"), "{limit}");
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
        settings: {
            let mut settings = Settings::default();
            settings.engine.visits = Visits::Cap(1);
            settings.engine.params.threads = 1;
            settings.engine.params.seed = 11;
            settings
        },
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
