//! The module's API as the page and its worker use it, run natively: the
//! same Rust code the browser runs, with the worker's part played by this
//! test (what `web/static/tab.js` and `engine-worker.js` do in the page).

use oddity_rules::{AnyGame, GameRecord, sgf};
use oddity_search::EngineConfig;
use oddity_web::{Engine, TabSession, set_option};
use serde_json::{Value, json};

/// An engine in a budget of `budget_mb` MiB, with the module's options
/// `options` (name, value).
fn tab_engine(budget_mb: usize, options: &[(&str, &str)]) -> Result<Engine, String> {
    let mut config = EngineConfig::default();
    for (name, value) in options {
        set_option(&mut config, name, value)?;
    }
    Engine::configured(budget_mb, config)
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

fn state(s: &TabSession) -> Value {
    parse(&s.state())
}

fn request(s: &mut TabSession, name: &str, body: Value) -> Value {
    parse(&s.request(name, &body.to_string()))
}

/// Does what the page does with the session's engine work until there is
/// none: starts the engine, runs each search to its end (`visits` at
/// most), passes stops on. Returns the work seen.
fn drive(s: &mut TabSession, engine: &mut Engine, visits: f64) -> Vec<String> {
    let mut seen = Vec::new();
    while let Some(work) = s.engine_work() {
        let w = parse(&work);
        if w.get("boot").is_some() {
            seen.push("boot".into());
            s.engine_started(1, None);
        } else if let Some(job) = w.get("start") {
            seen.push("start".into());
            engine.set_sgf(job["sgf"].as_str().unwrap()).unwrap();
            let generation = job["generation"].as_f64().unwrap();
            let mut reports = Vec::new();
            let last = engine
                .search_with(
                    job["millis"].as_f64().unwrap(),
                    Some(visits),
                    5.0,
                    &mut |r| reports.push(r),
                    &mut || false,
                )
                .unwrap();
            for r in reports {
                s.engine_report(generation, &r, false);
            }
            s.engine_report(generation, &last, true);
        } else {
            seen.push(format!("stop {}", w["stop"]));
            // The worker ends its search; its last report is stale.
            s.engine_report(
                w["stop"].as_f64().unwrap(),
                r#"{"best":null,"candidates":[]}"#,
                true,
            );
        }
    }
    seen
}

/// The record the session plays, read back from its SGF.
fn record(s: &TabSession) -> GameRecord {
    sgf::read(&s.sgf()).unwrap()
}

#[test]
fn a_person_plays_the_tab_engine_to_the_rules_end() {
    let mut s = TabSession::new("oddity", None);
    let mut engine = tab_engine(64, &[("seed", "3")]).unwrap();
    assert_eq!(drive(&mut s, &mut engine, 50.0), ["boot"]);
    assert_eq!(state(&s)["engines"][0]["status"], "idle");
    let form =
        json!({"game": "odd", "size": 3, "black": "human", "white": "oddity", "seconds": 0.5});
    assert_eq!(request(&mut s, "new", form), json!({"ok": true}));
    let mut turns = 0;
    while !state(&s)["over"].as_bool().unwrap() {
        let st = state(&s);
        assert!(st["human_turn"].as_bool().unwrap(), "{st}");
        let position = record(&s).position().clone();
        let token = position.token(&position.legal_turns()[0]);
        assert_eq!(
            request(&mut s, "play", json!({ "token": token })),
            json!({"ok": true})
        );
        drive(&mut s, &mut engine, 50.0);
        let st = state(&s);
        if !st["over"].as_bool().unwrap() {
            // The engine's analysis of the turn it played, with its heat map.
            assert_eq!(st["analysis"]["turn"], st["view"].as_u64().unwrap() - 1);
            assert!(
                !st["analysis"]["heat"].as_array().unwrap().is_empty(),
                "{st}"
            );
        }
        turns += 1;
        assert!(turns < 40, "the game does not end");
    }
    let st = state(&s);
    let played = record(&s);
    let outcome = played.outcome().expect("over by the rules");
    assert_eq!(st["result"]["winner"], outcome.winner.seat());
    assert!(st["counted_groups"].is_array(), "{st}");
    let replayed = GameRecord::replay(
        AnyGame::new(played.start().spec()),
        &played
            .moves()
            .iter()
            .map(|(_, t)| played.start().token(t))
            .collect::<Vec<_>>(),
    )
    .unwrap();
    assert_eq!(replayed.outcome().unwrap().winner, outcome.winner);
}

/// A change while the engine searches makes its job stale: the session
/// asks for a stop, ignores the stopped search's reports, and asks for
/// the work the new state wants.
#[test]
fn stale_searches_are_stopped_and_ignored() {
    let mut s = TabSession::new("oddity", None);
    let mut engine = tab_engine(64, &[("seed", "3")]).unwrap();
    drive(&mut s, &mut engine, 20.0);
    let form = json!({"game": "odd", "size": 3, "black": "human", "white": "oddity"});
    request(&mut s, "new", form);
    assert_eq!(
        request(&mut s, "analyze", json!({"on": true})),
        json!({"ok": true})
    );
    let start = parse(&s.engine_work().expect("analysis of the person's turn"));
    let generation = start["start"]["generation"].as_u64().unwrap();
    assert_eq!(start["start"]["millis"], 10_000.0);
    assert_eq!(state(&s)["engines"][0]["status"], "analysing");
    assert!(s.engine_work().is_none(), "the search runs");
    request(&mut s, "play", json!({"token": "B:C3"}));
    assert_eq!(
        parse(&s.engine_work().unwrap()),
        json!({ "stop": generation })
    );
    assert!(s.engine_work().is_none(), "one stop");
    let old =
        r#"{"best":"W:A1","candidates":[{"turn":"W:A1","visits":9,"value":0.5,"pv":["W:A1"]}]}"#;
    s.engine_report(generation as f64, old, true);
    assert_eq!(record(&s).moves().len(), 1, "a stale turn is not played");
    // An analysis is started again whenever it ends: with it on, there
    // would always be work.
    request(&mut s, "analyze", json!({"on": false}));
    assert_eq!(drive(&mut s, &mut engine, 20.0), ["start"]);
    assert_eq!(record(&s).moves().len(), 2, "the engine's turn");
}

/// Where no flag reaches the worker, the page starts it again; the work
/// waits until it is ready.
#[test]
fn a_restarted_worker_takes_the_work_up() {
    let mut s = TabSession::new("oddity", None);
    drive(&mut s, &mut tab_engine(64, &[("seed", "3")]).unwrap(), 20.0);
    let form = json!({"game": "xodd", "size": 4, "black": "oddity", "white": "human"});
    request(&mut s, "new", form);
    let start = parse(&s.engine_work().unwrap());
    assert!(start.get("start").is_some(), "{start}");
    s.engine_restarting();
    assert_eq!(state(&s)["engines"][0]["status"], "starting");
    assert!(s.engine_work().is_none(), "nothing until it is ready");
    s.engine_started(2, None);
    let st = state(&s);
    assert!(
        st["engines"][0]["identity"]
            .as_str()
            .unwrap()
            .contains("2 threads")
    );
    assert!(parse(&s.engine_work().unwrap()).get("start").is_some());
}

/// An engine that fails keeps the game; Restart starts it again.
#[test]
fn a_failed_engine_keeps_the_game() {
    let mut s = TabSession::new("oddity", None);
    let mut engine = tab_engine(64, &[("seed", "3")]).unwrap();
    drive(&mut s, &mut engine, 20.0);
    request(
        &mut s,
        "new",
        json!({"game": "odd", "size": 3, "black": "human", "white": "oddity"}),
    );
    request(&mut s, "play", json!({"token": "B:C3"}));
    assert!(parse(&s.engine_work().unwrap()).get("start").is_some());
    s.engine_stopped("it ran out of memory");
    let st = state(&s);
    let notice = st["notice"]["text"].as_str().unwrap();
    assert!(
        notice.contains("ran out of memory") && notice.contains("Restart"),
        "{notice}"
    );
    assert_eq!(record(&s).moves().len(), 1);
    assert!(s.sgf().contains("B:C3"));
    assert!(s.engine_work().is_none(), "a stopped engine gets no work");
    assert_eq!(
        request(&mut s, "engine/restart", json!({"name": "oddity"})),
        json!({"ok": true})
    );
    assert_eq!(drive(&mut s, &mut engine, 20.0), ["boot", "start"]);
    assert_eq!(record(&s).moves().len(), 2);
    // A worker that cannot start at all: said, and the person plays on.
    let mut t = TabSession::new("oddity", None);
    assert!(t.engine_work().is_some());
    t.engine_failed("this browser has no Web Workers");
    let st = state(&t);
    assert_eq!(st["engines"][0]["status"], "failed");
    assert!(
        st["engines"][0]["fault"]
            .as_str()
            .unwrap()
            .contains("no Web Workers")
    );
}

/// Requests and records refused with their reason change nothing.
#[test]
fn refused_requests_change_nothing() {
    let mut s = TabSession::new("oddity", None);
    let before = s.state();
    for (name, body) in [
        ("play", "{\"token\":"),
        ("play", "{\"token\":\"B:Z99\"}"),
        ("view", "{\"turn\":9}"),
        ("nothing", "{}"),
    ] {
        let answer = parse(&s.request(name, body));
        assert!(answer["error"].is_string(), "{name} {body}: {answer}");
    }
    let answer = parse(&s.open_sgf("(;FF[4]OG[odd]SZ[5];B[B:A1]", 1));
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("cannot read this SGF")
    );
    assert_eq!(s.state(), before);
    let games = parse(&s.games());
    assert_eq!(games["games"].as_array().unwrap().len(), 4);
    let opened = parse(&s.open_sgf("(;FF[4]OG[odd]SZ[3];B[B:C3];W[W:A1])", 1));
    assert_eq!(opened, json!({"ok": true, "game": 1, "games": 1}));
    assert_eq!(record(&s).moves().len(), 2);
}

/// With the smallest memory the search fills its tree: the report says
/// so, the engine still answers a turn and searches on, and the page is
/// told once.
#[test]
fn a_full_tree_keeps_playing_and_is_said_once() {
    let mut engine = tab_engine(16, &[("seed", "3")]).unwrap();
    engine.set_sgf("(;FF[4]OG[xodd]SZ[19])").unwrap();
    let think = |engine: &mut Engine| {
        let text = engine
            .search_with(600_000.0, Some(50_000.0), 1000.0, &mut |_| {}, &mut || {
                false
            })
            .unwrap();
        parse(&text)
    };
    // Searched on (the tree is kept) until it is full (6 MiB of nodes).
    let mut first = think(&mut engine);
    for _ in 0..20 {
        if first["full"] == true {
            break;
        }
        first = think(&mut engine);
    }
    assert_eq!(first["full"], true, "{}", first["nodes"]);
    assert!(first["best"].is_string());
    let again = think(&mut engine);
    assert_eq!(again["full"], true);
    assert!(
        again["best"].is_string() && again["root_visits"].as_u64() > first["root_visits"].as_u64()
    );

    let mut s = TabSession::new("oddity", None);
    drive(&mut s, &mut tab_engine(64, &[("seed", "3")]).unwrap(), 20.0);
    request(
        &mut s,
        "new",
        json!({"game": "xodd", "size": 19, "black": "oddity", "white": "human", "seconds": 1}),
    );
    let said = |s: &TabSession| state(s)["notice"]["text"].as_str().map(str::to_string);
    let job = parse(&s.engine_work().unwrap());
    let generation = job["start"]["generation"].as_f64().unwrap();
    s.engine_report(generation, &first.to_string(), false);
    let text = said(&s).expect("the full tree is said");
    assert!(
        text.contains("search tree reached its memory bound"),
        "{text}"
    );
    s.engine_report(generation, &first.to_string(), true);
    assert_eq!(record(&s).moves().len(), 1, "the engine played on");
    request(
        &mut s,
        "seats",
        json!({"black": "oddity", "white": "human"}),
    );
    assert_eq!(said(&s), None);
    request(&mut s, "analyze", json!({"on": true}));
    let job = parse(&s.engine_work().unwrap());
    let generation = job["start"]["generation"].as_f64().unwrap();
    s.engine_report(generation, &again.to_string(), false);
    assert_eq!(said(&s), None, "said once");
}

#[test]
fn the_engine_stops_when_told_and_refuses_bad_settings() {
    assert!(tab_engine(1, &[]).is_err());
    assert!(tab_engine(1 << 20, &[]).is_err());
    // Natively threads are the system's.
    assert!(tab_engine(64, &[("threads", "2")]).is_ok());
    // The engine's options are read as every front end reads them; the
    // budget, not an option, sets the memory.
    assert_eq!(
        tab_engine(64, &[("threads", "0")]).err().as_deref(),
        Some("threads: expected 1 to 1024 threads")
    );
    assert!(tab_engine(64, &[("memory", "8")]).is_err());
    assert!(tab_engine(64, &[("nonsense", "1")]).is_err());
    let mut e = tab_engine(64, &[]).unwrap();
    assert!(
        e.search_with(10.0, None, 1.0, &mut |_| {}, &mut || false)
            .is_err()
    );
    assert!(e.set_sgf("(;GM[nonsense").is_err());
    e.set_sgf("(;FF[4]OG[onyx]SZ[8])").unwrap();
    assert!(
        e.search_with(f64::NAN, None, 1.0, &mut |_| {}, &mut || false)
            .is_err()
    );
    assert!(
        e.search_with(-1.0, None, 1.0, &mut |_| {}, &mut || false)
            .is_err()
    );
    // Told to stop after a while, a search of a minute ends before it.
    let mut asked = 0;
    let last = e
        .search_with(60_000.0, None, 1000.0, &mut |_| {}, &mut || {
            asked += 1;
            asked > 3
        })
        .unwrap();
    let last = parse(&last);
    assert!(last["millis"].as_f64().unwrap() < 60_000.0, "{last}");
    assert!(last["best"].is_string(), "{last}");
}
