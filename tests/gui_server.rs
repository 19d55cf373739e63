//! `oddity gui` over HTTP, without a browser: the request guards, the rules
//! checks, records, and engines that play, misbehave or die.

#[path = "support/gui.rs"]
mod gui;

use std::time::Duration;

use gui::{FAST_ENGINE, Gui};

/// Generous: only guards against hangs, on a busy machine.
const LIMIT: Duration = Duration::from_secs(300);

fn moves(s: &serde_json::Value) -> usize {
    s["moves"].as_array().unwrap().len()
}

/// A human-vs-human Xodd 4x4 game with one turn played.
fn started() -> Gui {
    let g = Gui::start(&["--engine", FAST_ENGINE]);
    let (status, body) = g.post(
        "/api/new",
        r#"{"game":"xodd","size":4,"black":"human","white":"human"}"#,
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(g.post("/api/play", r#"{"token":"B:B2"}"#).0, 200);
    g
}

#[test]
fn foreign_host_and_origin_are_refused() {
    let g = started();
    for headers in [
        vec![("Host", "evil.example")],
        vec![("Host", "evil.example:80")],
        vec![("Origin", "http://evil.example")],
        vec![("Origin", "null")],
        vec![("Origin", "https://127.0.0.1")],
    ] {
        let (status, body) = g.request("POST", "/api/undo", &headers, b"");
        assert_eq!(status, 403, "{headers:?}: {body}");
        assert!(body.contains("refused"), "{body}");
        let (status, _) = g.request("GET", "/api/state", &headers, b"");
        assert_eq!(status, 403, "{headers:?}");
    }
    // Nothing was undone; the own origin is served.
    assert_eq!(moves(&g.state()), 1);
    let own = format!("http://{}", g.authority);
    let (status, _) = g.request("GET", "/", &[("Origin", &own)], b"");
    assert_eq!(status, 200);
    let host = format!("localhost:{}", g.authority.rsplit(':').next().unwrap());
    assert_eq!(g.request("GET", "/", &[("Host", &host)], b"").0, 200);
}

#[test]
fn repeated_host_or_origin_and_foreign_targets_are_refused() {
    let g = started();
    let own = g.authority.clone();
    let new_game = r#"{"game":"odd","size":3,"black":"human","white":"human"}"#;
    let post = |target: &str, extra: &str| {
        format!(
            "POST {target} HTTP/1.1\r\nHost: {own}\r\n{extra}Content-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{new_game}",
            new_game.len()
        )
    };
    for (raw, status) in [
        (post("/api/new", "Host: evil.example\r\n"), "400"),
        (
            post(
                "/api/new",
                &format!("Origin: http://{own}\r\nOrigin: http://evil.example\r\n"),
            ),
            "400",
        ),
        (post("http://evil.example/api/new", ""), "403"),
        (post(&format!("https://{own}/api/new"), ""), "403"),
    ] {
        let (line, body) = g.raw(raw.as_bytes());
        assert!(line.contains(status), "{raw}: {line} {body}");
        assert!(body.contains("refused"), "{body}");
    }
    // The game was not replaced; the own absolute-form target is served.
    assert_eq!(g.state()["game"], "xodd");
    let (line, _) = g.raw(post(&format!("http://{own}/api/new"), "").as_bytes());
    assert!(line.contains("200"), "{line}");
    assert_eq!(g.state()["game"], "odd");
}

#[test]
fn a_deeply_nested_upload_is_refused_and_the_server_lives() {
    let g = started();
    let nested = "(".repeat(5_600);
    let (status, body) = g.request("POST", "/api/sgf", &[], nested.as_bytes());
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("cannot read this SGF"), "{body}");
    let deep = format!(
        "(;GM[9000]OG[odd]SZ[3]{}B[B:A1]{})",
        "(;".repeat(100_000),
        ")".repeat(100_000)
    );
    let (status, body) = g.request("POST", "/api/sgf", &[], deep.as_bytes());
    assert_eq!(status, 200, "{body}");
    assert_eq!(moves(&g.state()), 1);
}

/// Opens `count` connections that send nothing, or the start of a request
/// head and no more, as idle and slow clients do.
#[cfg(unix)]
fn idle_connections(g: &Gui, count: usize) -> Vec<std::net::TcpStream> {
    use std::io::Write;
    raise_file_limit(count as u64 + 256);
    (0..count)
        .map(|k| {
            let mut s = std::net::TcpStream::connect(&g.authority).unwrap();
            if k % 2 == 0 {
                let _ = write!(s, "GET / HTTP/1.1\r\nHost: {}\r\nX-Slow: ", g.authority);
            }
            s
        })
        .collect()
}

/// Lets this process open `files` files, when its hard limit allows.
#[cfg(unix)]
fn raise_file_limit(files: u64) {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct given.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < files as _ {
            limit.rlim_cur = limit.rlim_max.min(files as _);
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}

/// `GET path` on a new connection: whether a `200` answer arrives within
/// `bound`.
fn answered_within(g: &Gui, path: &str, bound: Duration) -> Result<(), String> {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(&g.authority).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(bound)).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        g.authority
    )
    .map_err(|e| e.to_string())?;
    let mut answer = Vec::new();
    s.read_to_end(&mut answer)
        .map_err(|e| format!("no whole answer within {bound:?}: {e}"))?;
    let text = String::from_utf8_lossy(&answer);
    match text.starts_with("HTTP/1.1 200") {
        true => Ok(()),
        false => Err(format!("answered {text:?}")),
    }
}

/// Hundreds of idle and slow connections, more than the server keeps open
/// (it may open only 256 files), cannot keep the page waiting: it is
/// answered while they are still there, not once their head deadline
/// (5 s) has dropped them in turns, which took over 20 s. The bound is
/// generous: the answer takes milliseconds.
#[cfg(unix)]
#[test]
fn idle_connections_do_not_keep_the_page_waiting() {
    let g = Gui::start_with_file_limit(256, &["--engine", FAST_ENGINE]);
    let idle = idle_connections(&g, 600);
    for path in ["/", "/api/state"] {
        answered_within(&g, path, Duration::from_secs(15))
            .unwrap_or_else(|e| panic!("{path}: {e}"));
    }
    drop(idle);
    assert_eq!(g.get("/api/state").0, 200);
}

/// A page's event stream is a request in flight: connections piling up
/// close idle ones, never it.
#[cfg(unix)]
#[test]
fn idle_connections_do_not_cut_the_event_stream() {
    use std::io::{BufRead, BufReader, Write};
    let g = Gui::start_with_file_limit(256, &["--engine", FAST_ENGINE]);
    let (status, body) = g.post(
        "/api/new",
        r#"{"game":"xodd","size":4,"black":"human","white":"human"}"#,
    );
    assert_eq!(status, 200, "{body}");
    let mut stream = std::net::TcpStream::connect(&g.authority).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    write!(
        stream,
        "GET /api/events HTTP/1.1\r\nHost: {}\r\n\r\n",
        g.authority
    )
    .unwrap();
    let mut events = BufReader::new(stream);
    let mut next_state = || loop {
        let mut line = String::new();
        let n = events
            .read_line(&mut line)
            .expect("the event stream is open");
        assert!(n > 0, "the event stream was closed");
        if let Some(data) = line.strip_prefix("data: ") {
            return serde_json::from_str::<serde_json::Value>(data).unwrap();
        }
    };
    assert_eq!(moves(&next_state()), 0);
    let idle = idle_connections(&g, 600);
    assert_eq!(g.post("/api/play", r#"{"token":"B:B2"}"#).0, 200);
    while moves(&next_state()) != 1 {}
    drop(idle);
}

#[test]
fn oversized_and_malformed_bodies_are_refused_and_change_nothing() {
    let g = started();
    let before = g.state();
    let big = format!(r#"{{"token":"{}"}}"#, "x".repeat(100_000));
    let (status, body) = g.post("/api/play", &big);
    assert_eq!(status, 413, "{body}");
    assert!(body.contains("larger than"), "{body}");
    let (status, body) = g.request("POST", "/api/sgf", &[], &vec![b'('; 2_000_000]);
    assert_eq!(status, 413, "{body}");
    for (path, text) in [
        ("/api/play", "{\"token\":"),
        ("/api/play", "[1,2]"),
        ("/api/play", "{\"token\":\"B:A1\",\"extra\":1}"),
        ("/api/new", "{\"game\":\"xodd\"}"),
        ("/api/view", "{\"turn\":-1}"),
        ("/api/preview", "not json"),
    ] {
        let (status, body) = g.post(path, text);
        assert_eq!(status, 400, "{path} {text}: {body}");
        assert!(body.contains("malformed JSON"), "{body}");
    }
    for sgf in [
        "",
        "(;FF[4]GM[1]SZ[9])",
        "(;FF[4]OG[xodd]SZ[40])",
        "(;FF[4]OG[odd]SZ[5];B[B:A1]",
    ] {
        let (status, body) = g.request("POST", "/api/sgf", &[], sgf.as_bytes());
        assert_eq!(status, 400, "{sgf}: {body}");
        assert!(body.contains("cannot read this SGF"), "{body}");
    }
    let (status, body) = g.request("POST", "/api/sgf", &[], &[0xff, 0xfe, b'(']);
    assert_eq!(status, 400, "{body}");
    let after = g.state();
    assert_eq!(before["moves"], after["moves"]);
    assert_eq!(before["stones"], after["stones"]);
    assert_eq!(g.get("/nothing").0, 404);
    // A record with a bad turn opens with that line cut there, and says so.
    let sgf = "(;FF[4]OG[odd]SZ[5];B[B:A1];W[W:A1])";
    let (status, body) = g.request("POST", "/api/sgf", &[], sgf.as_bytes());
    assert_eq!(status, 200, "{body}");
    let opened = g.state();
    assert_eq!(opened["moves"].as_array().map(Vec::len), Some(1));
    let notice = opened["notice"]["text"].as_str().unwrap_or_default();
    assert!(
        notice.contains("the main line, cut from turn 2: turn 2 (W:A1) is illegal"),
        "{notice}"
    );
}

#[test]
fn illegal_turns_are_refused_with_the_reason() {
    let g = started();
    let (status, body) = g.post("/api/play", r#"{"token":"B:B2"}"#);
    assert_eq!(status, 409);
    assert!(body.contains("B2 is not empty"), "{body}");
    let (_, body) = g.post("/api/play", r#"{"token":"B:Z9"}"#);
    assert!(body.contains("not a point of this board"), "{body}");
    // One white stone next to nothing makes the total even: not alone.
    let (status, body) = g.post("/api/preview", r#"{"stones":[{"cell":"D4","colour":"W"}]}"#);
    assert_eq!(status, 200);
    let p: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(p["ok"], true, "{p}");
    assert_eq!(p["complete"], false, "{p}");
    let (_, body) = g.post(
        "/api/preview",
        r#"{"stones":[{"cell":"D4","colour":"W"},{"cell":"C2","colour":"B"}]}"#,
    );
    let p: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(p["ok"], false, "{p}");
    assert!(p["reason"].as_str().unwrap().contains("even"), "{p}");
    let (_, body) = g.post(
        "/api/preview",
        r#"{"stones":[{"cell":"D4","colour":"W"},{"cell":"A4","colour":"B"}]}"#,
    );
    let p: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(p["complete"], true, "{p}");
    assert_eq!(p["token"], "B:A4,W:D4", "{p}");
    assert_eq!(moves(&g.state()), 1);
    assert_eq!(g.post("/api/play", r#"{"token":"W:D4,B:A4"}"#).0, 200);
    assert_eq!(moves(&g.state()), 2);
}

#[test]
fn records_download_and_open_for_review() {
    let g = started();
    assert_eq!(g.post("/api/play", r#"{"token":"pass"}"#).0, 200);
    let (status, sgf) = g.get("/api/sgf");
    assert_eq!(status, 200);
    assert!(sgf.starts_with("(;FF[4]GM[9000]"), "{sgf}");
    assert!(sgf.contains("OG[xodd]SZ[4]"), "{sgf}");
    assert!(sgf.contains(";B[B:B2]\n;W[pass]"), "{sgf}");
    let odd = "(;FF[4]GM[9000]OG[odd]SZ[3]OR[min_group=2]\n;B[B:C3]\n;W[W:A1]\n;B[B:D4])";
    let (status, body) = g.request("POST", "/api/sgf", &[], odd.as_bytes());
    assert_eq!(status, 200, "{body}");
    let s = g.state();
    assert_eq!(s["game"], "odd");
    assert_eq!(s["view"], 3);
    assert_eq!(s["seats"], serde_json::json!(["human", "human"]));
    assert_eq!(g.post("/api/view", r#"{"turn":1}"#).0, 200);
    let s = g.state();
    assert_eq!(s["stones"], serde_json::json!({"C3": "B"}));
    assert_eq!(g.post("/api/view", r#"{"turn":9}"#).0, 409);
    assert_eq!(g.post("/api/branch", "").0, 200);
    assert_eq!(moves(&g.state()), 1);
    assert_eq!(g.post("/api/play", r#"{"token":"W:E5"}"#).0, 200);
}

/// A turn tried while looking back starts a variation; the tree is walked,
/// named, deleted, and downloaded as standard SGF variations that open
/// again.
#[test]
fn variations_are_made_walked_named_deleted_and_saved() {
    let g = Gui::start(&["--engine", FAST_ENGINE]);
    let odd = "(;FF[4]GM[9000]OG[odd]SZ[3]OR[min_group=2]\n;B[B:C3]\n;W[W:A1]\n;B[B:D4])";
    assert_eq!(g.request("POST", "/api/sgf", &[], odd.as_bytes()).0, 200);
    assert_eq!(g.post("/api/view", r#"{"turn":1}"#).0, 200);
    let (status, body) = g.post("/api/play", r#"{"token":"W:E5"}"#);
    assert_eq!(status, 200, "{body}");
    let s = g.state();
    assert_eq!((moves(&s), s["view"].as_u64()), (2, Some(2)), "{s}");
    assert_eq!(s["tree"].as_array().unwrap().len(), 5, "{s}");
    let branch = s["node"].as_u64().unwrap();
    assert_eq!(s["moves"][1]["others"], 1, "{s}");
    let (status, body) = g.post(
        "/api/name",
        &format!(r#"{{"node":{branch},"name":"E5 instead"}}"#),
    );
    assert_eq!(status, 200, "{body}");
    let (status, body) = g.post(
        "/api/name",
        &format!(r#"{{"node":{branch},"name":"a\nb"}}"#),
    );
    assert_eq!(status, 409, "{body}");
    let (status, sgf) = g.get("/api/sgf");
    assert_eq!(status, 200);
    assert!(
        sgf.contains("\n(;W[W:A1]\n;B[B:D4])\n(;W[W:E5]N[E5 instead])"),
        "{sgf}"
    );
    // The main line's last turn, by its node.
    let main_end = g.state()["tree"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["depth"] == 3)
        .unwrap()["node"]
        .clone();
    assert_eq!(
        g.post("/api/node", &format!(r#"{{"node":{main_end}}}"#)).0,
        200
    );
    assert_eq!(moves(&g.state()), 3);
    assert_eq!(g.post("/api/node", r#"{"node":999}"#).0, 409);
    assert_eq!(
        g.post("/api/delete", &format!(r#"{{"node":{branch}}}"#)).0,
        200
    );
    assert_eq!(g.state()["tree"].as_array().unwrap().len(), 4);
    assert_eq!(g.post("/api/delete", r#"{"node":0}"#).0, 409);
    // The saved file opens with its variation.
    assert_eq!(g.request("POST", "/api/sgf", &[], sgf.as_bytes()).0, 200);
    let s = g.state();
    assert_eq!(
        (s["tree"].as_array().unwrap().len(), moves(&s)),
        (5, 3),
        "{s}"
    );
    assert_eq!(g.get("/api/sgf").1, sgf);
}

/// Onyx 12 with the defaults: Black plays, White swaps, play goes on; the
/// record downloaded (the standard start's stones listed) opens again.
#[test]
fn an_onyx_record_with_a_swap_opens_again() {
    let g = Gui::start(&["--engine", FAST_ENGINE]);
    let (status, body) = g.post(
        "/api/new",
        r#"{"game":"onyx","black":"human","white":"human"}"#,
    );
    assert_eq!(status, 200, "{body}");
    for token in ["E5", "swap", "D4", "H8"] {
        let (status, body) = g.post("/api/play", &format!(r#"{{"token":"{token}"}}"#));
        assert_eq!(status, 200, "{token}: {body}");
    }
    let (status, sgf) = g.get("/api/sgf");
    assert_eq!(status, 200);
    assert!(
        sgf.contains("AB[A6][L6][A7][L7]AW[F1][G1][F12][G12]PL[B]"),
        "{sgf}"
    );
    let (status, body) = g.request("POST", "/api/sgf", &[], sgf.as_bytes());
    assert_eq!(status, 200, "{body}");
    assert_eq!(moves(&g.state()), 4);
    assert_eq!(g.get("/api/sgf").1, sgf);
}

#[test]
fn two_engines_play_a_whole_game() {
    let g = Gui::start(&[
        "--engine",
        "quick=oddity gtp --threads 1 --visits 50 --seed 1",
        "--engine",
        "slow=oddity gtp --threads 1 --visits 400 --seed 2",
    ]);
    let (status, body) = g.post(
        "/api/new",
        r#"{"game":"onyx","size":4,"open_start":true,"black":"quick","white":"slow","seconds":2}"#,
    );
    assert_eq!(status, 200, "{body}");
    let s = g.wait_for(LIMIT, "the end of the game", |s| s["over"] == true);
    let result = &s["result"];
    let text = result["text"].as_str().unwrap();
    let winner = if result["winner"] == "b" {
        "Black"
    } else {
        "White"
    };
    assert!(text.starts_with(&format!("{winner} wins")), "{s}");
    let connected = !result["chain"].as_array().unwrap().is_empty();
    assert!(connected == text.contains("by connecting"), "{s}");
    assert!(connected || text.contains("resigned"), "{s}");
    assert!(moves(&s) >= 4, "{s}");
    assert!(s["winrates"].as_array().unwrap().iter().any(|w| w.is_f64()));
}

/// An engine that answers the set-up, then an illegal turn to every genmove.
const LIAR: &str = r#"liar=sh -c 'while read -r id cmd rest; do
    case "$cmd" in
      genmove_analyze) printf "=%s\nplay B:A1\n\n" "$id" ;;
      *) printf "=%s\n\n" "$id" ;;
    esac; done'"#;

#[test]
fn a_misbehaving_engine_is_reported_and_the_game_is_kept() {
    let g = Gui::start(&["--engine", LIAR]);
    let (status, body) = g.post(
        "/api/new",
        r#"{"game":"xodd","size":4,"black":"human","white":"liar"}"#,
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(g.post("/api/play", r#"{"token":"B:A1"}"#).0, 200);
    let s = g.wait_for(LIMIT, "the fault", |s| !s["notice"].is_null());
    let notice = s["notice"]["text"].as_str().unwrap();
    assert!(notice.contains("illegal turn 'B:A1'"), "{notice}");
    assert!(notice.contains("A1 is not empty"), "{notice}");
    assert_eq!(s["engines"][0]["status"], "stopped");
    assert_eq!(moves(&s), 1);
    // The person takes over the seat and plays on.
    assert_eq!(
        g.post("/api/seats", r#"{"black":"human","white":"human"}"#)
            .0,
        200
    );
    assert_eq!(g.post("/api/play", r#"{"token":"pass"}"#).0, 200);
    assert_eq!(moves(&g.state()), 2);
    assert_eq!(
        g.post("/api/seats", r#"{"black":"human","white":"nobody"}"#)
            .0,
        409
    );
}

#[test]
fn a_killed_engine_is_reported_and_can_be_restarted() {
    let g = Gui::start(&["--engine", FAST_ENGINE]);
    let (status, body) = g.post(
        "/api/new",
        r#"{"game":"odd","size":3,"black":"human","white":"e"}"#,
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(g.post("/api/play", r#"{"token":"B:C3"}"#).0, 200);
    let s = g.wait_for(LIMIT, "the engine's turn", |s| moves(s) == 2);
    let pid = engine_pid(g.pid()).expect("the engine process");
    let _ = std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status();
    let after = g.wait_for(LIMIT, "the crash report", |s| !s["notice"].is_null());
    assert!(
        after["notice"]["text"]
            .as_str()
            .unwrap()
            .contains("stopped"),
        "{after}"
    );
    assert_eq!(s["stones"], after["stones"]);
    assert_eq!(g.post("/api/engine/restart", r#"{"name":"e"}"#).0, 200);
    let token = first_empty_turn(&after);
    assert_eq!(
        g.post("/api/play", &format!(r#"{{"token":"{token}"}}"#)).0,
        200
    );
    g.wait_for(LIMIT, "the restarted engine's turn", |s| moves(s) == 4);
}

/// A one-stone Odd turn on some empty cell of side 3.
fn first_empty_turn(s: &serde_json::Value) -> String {
    let stones = s["stones"].as_object().unwrap();
    let cells = ["A1", "B1", "C1", "A2", "B2", "C2", "D2", "E4", "E5", "D5"];
    let cell = cells.iter().find(|c| !stones.contains_key(**c)).unwrap();
    format!("B:{cell}")
}

/// The child process of `parent` (Linux /proc).
fn engine_pid(parent: u32) -> Option<u32> {
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // Fields after the command name, which ends with the last ')'.
        let rest = &stat[stat.rfind(')')? + 2..];
        let ppid: u32 = rest.split_whitespace().nth(1)?.parse().ok()?;
        if ppid == parent {
            return Some(pid);
        }
    }
    None
}

#[test]
fn a_hung_engine_is_stopped_after_its_time() {
    // Answers everything but never finishes a genmove.
    let hung = r#"hung=sh -c 'while read -r id cmd rest; do
        case "$cmd" in
          genmove_analyze) printf "=%s\n" "$id"; sleep 20 ;;
          *) printf "=%s\n\n" "$id" ;;
        esac; done'"#;
    let g = Gui::start(&["--engine", hung]);
    let (status, body) = g.post(
        "/api/new",
        r#"{"game":"odd","size":3,"black":"human","white":"hung","seconds":0.2}"#,
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(g.post("/api/play", r#"{"token":"B:C3"}"#).0, 200);
    let s = g.wait_for(LIMIT, "the timeout", |s| !s["notice"].is_null());
    let notice = s["notice"]["text"].as_str().unwrap();
    assert!(notice.contains("timeout"), "{notice}");
    assert_eq!(moves(&s), 1);
    assert_eq!(s["engines"][0]["status"], "stopped");
}

/// An engine that stopped and still sits in the seat to move is reported
/// for as long as the game waits for it; changing the players clears it.
#[test]
fn a_stopped_engine_in_the_seat_to_move_is_reported_until_replaced() {
    let g = Gui::start(&["--engine", LIAR]);
    let (status, body) = g.post(
        "/api/new",
        r#"{"game":"odd","size":3,"black":"human","white":"liar"}"#,
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(g.post("/api/play", r#"{"token":"B:A1"}"#).0, 200);
    g.wait_for(LIMIT, "the fault", |s| {
        s["engines"][0]["status"] == "stopped"
    });
    // Undo drops the old report; after the person's turn the game waits
    // for the stopped engine again, and says so.
    assert_eq!(g.post("/api/undo", "").0, 200);
    assert!(g.state()["notice"].is_null());
    assert_eq!(g.post("/api/play", r#"{"token":"B:B2"}"#).0, 200);
    let s = g.state();
    let text = s["notice"]["text"].as_str().unwrap_or_default();
    assert!(text.contains("engine liar is stopped"), "{s}");
    assert!(text.contains("Restart"), "{text}");
    assert_eq!(s["notice"]["level"], "error");
    assert!(s["clock"]["running"].is_null(), "{s}");
    // The same players again: still waiting, still said.
    assert_eq!(
        g.post("/api/seats", r#"{"black":"human","white":"liar"}"#)
            .0,
        200
    );
    assert!(!g.state()["notice"].is_null());
    // Other players: the report goes.
    assert_eq!(
        g.post("/api/seats", r#"{"black":"human","white":"human"}"#)
            .0,
        200
    );
    let s = g.state();
    assert!(s["notice"].is_null(), "{s}");
    assert_eq!(s["clock"]["running"], "w", "{s}");
}

/// An old crash report goes when the players change.
#[test]
fn changing_players_clears_an_old_crash_report() {
    let g = Gui::start(&["--engine", FAST_ENGINE]);
    let (status, body) = g.post(
        "/api/new",
        r#"{"game":"odd","size":3,"black":"human","white":"e"}"#,
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(g.post("/api/play", r#"{"token":"B:C3"}"#).0, 200);
    g.wait_for(LIMIT, "the engine's turn", |s| moves(s) == 2);
    let pid = engine_pid(g.pid()).expect("the engine process");
    let _ = std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status();
    g.wait_for(LIMIT, "the crash report", |s| !s["notice"].is_null());
    assert_eq!(
        g.post("/api/seats", r#"{"black":"human","white":"human"}"#)
            .0,
        200
    );
    let s = g.state();
    assert!(s["notice"].is_null(), "{s}");
}

#[test]
fn a_finished_game_refuses_turns_at_its_end_and_takes_variations_before() {
    let g = Gui::start(&["--engine", FAST_ENGINE]);
    let full =
        "(;FF[4]GM[9000]OG[odd]SZ[2];B[B:A1];W[W:B1];B[B:A2];W[W:B2];B[B:C2];W[W:B3];B[B:C3])";
    let (status, body) = g.request("POST", "/api/sgf", &[], full.as_bytes());
    assert_eq!(status, 200, "{body}");
    assert_eq!(g.state()["over"], true);
    let (status, body) = g.post("/api/play", r#"{"token":"B:A1"}"#);
    assert_eq!(status, 409);
    assert!(body.contains("the game is over"), "{body}");
    assert_eq!(
        g.state()["why_not"].as_str(),
        Some("the game is over"),
        "the page's hint"
    );
    // Earlier, a person may try another turn: a variation.
    assert_eq!(g.post("/api/view", r#"{"turn":3}"#).0, 200);
    let s = g.state();
    assert!(s["why_not"].is_null() && s["human_turn"] == true, "{s}");
    let (_, body) = g.post("/api/preview", r#"{"stones":[{"cell":"C3","colour":"B"}]}"#);
    assert!(body.contains(r#""ok":true"#), "{body}");
}

/// The engine's last analysis of its turn stays with the game after it
/// plays, its final line included.
#[test]
fn an_engine_turn_leaves_its_analysis() {
    let g = Gui::start(&["--engine", FAST_ENGINE]);
    let (status, body) = g.post(
        "/api/new",
        r#"{"game":"odd","size":5,"black":"human","white":"e","seconds":5}"#,
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(g.post("/api/play", r#"{"token":"B:E5"}"#).0, 200);
    let s = g.wait_for(LIMIT, "the engine's turn", |s| moves(s) == 2);
    let a = &s["analysis"];
    assert_eq!(a["engine"], "e", "{s}");
    assert_eq!(a["turn"], 1, "{a}");
    assert_eq!(a["seat"], "w", "{a}");
    let candidates = a["candidates"].as_array().unwrap();
    assert!(!candidates.is_empty(), "{a}");
    // The final line: all 300 visits of the search.
    let visits: u64 = candidates
        .iter()
        .map(|c| c["visits"].as_u64().unwrap())
        .sum();
    assert!(visits >= 290, "{visits}: {a}");
    assert!(s["winrates"][1].is_f64(), "{s}");
    assert!(s["clock"]["used"][1].as_f64().unwrap() > 0.0, "{s}");
    // Looking back at the position before the engine's turn shows it too.
    assert_eq!(g.post("/api/view", r#"{"turn":1}"#).0, 200);
    assert_eq!(g.state()["analysis"]["turn"], 1);
}

#[test]
fn a_collection_opens_any_of_its_games() {
    let g = started();
    let games = "(;FF[4]GM[9000]OG[odd]SZ[3];B[B:C3])\n\
                 (;FF[4]GM[9000]OG[xodd]SZ[5];B[B:C3];W[pass])\n\
                 (;FF[4]GM[9000]OG[onyx]SZ[4]OR[start=open];B[B2])\n";
    let (status, body) = g.request("POST", "/api/sgf", &[], games.as_bytes());
    assert_eq!(status, 200, "{body}");
    let answer: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answer["games"], 3, "{answer}");
    assert_eq!(answer["game"], 1, "{answer}");
    let s = g.state();
    assert_eq!(s["game"], "odd");
    assert!(
        s["notice"]["text"]
            .as_str()
            .unwrap()
            .contains("game 1 of 3"),
        "{s}"
    );
    let (status, body) = g.request("POST", "/api/sgf?game=2", &[], games.as_bytes());
    assert_eq!(status, 200, "{body}");
    let s = g.state();
    assert_eq!((s["game"].as_str(), moves(&s)), (Some("xodd"), 2), "{s}");
    for (query, why) in [
        ("game=4", "there is no game 4"),
        ("game=0", "from 1"),
        ("game=x", "from 1"),
        ("game=-1", "from 1"),
        ("turn=2", "only game=K"),
    ] {
        let (status, body) = g.request("POST", &format!("/api/sgf?{query}"), &[], games.as_bytes());
        assert_eq!(status, 400, "{query}: {body}");
        assert!(body.contains(why), "{query}: {body}");
    }
    assert_eq!(g.state()["game"], "xodd");
}

#[test]
fn odds_smallest_group_is_bounded_by_the_board() {
    let g = started();
    let (status, body) = g.post(
        "/api/new",
        r#"{"game":"odd","size":5,"min_group":99,"black":"human","white":"human"}"#,
    );
    assert_eq!(status, 409, "{body}");
    assert!(body.contains("between 1 and 61"), "{body}");
    assert_eq!(g.state()["game"], "xodd");
    let (status, body) = g.post(
        "/api/new",
        r#"{"game":"odd","size":5,"min_group":61,"black":"human","white":"human","seconds":0.25}"#,
    );
    assert_eq!(status, 200, "{body}");
    let s = g.state();
    assert_eq!(
        (s["min_group"].as_u64(), s["seconds"].as_f64()),
        (Some(61), Some(0.25))
    );
}

#[test]
fn onyx_captures_are_counted() {
    let g = Gui::start(&["--engine", FAST_ENGINE]);
    let (status, body) = g.post(
        "/api/new",
        r#"{"game":"onyx","size":4,"open_start":true,"black":"human","white":"human"}"#,
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(g.state()["captured"], serde_json::json!([0, 0]));
    // B3 takes B2 and A3 of the square A2-B3, whose midpoint is empty.
    for token in ["A2", "B2", "D4", "A3", "B3"] {
        let (status, body) = g.post("/api/play", &format!(r#"{{"token":"{token}"}}"#));
        assert_eq!(status, 200, "{token}: {body}");
    }
    let s = g.state();
    assert_eq!(s["captured"], serde_json::json!([0, 2]), "{s}");
    assert_eq!(g.post("/api/view", r#"{"turn":4}"#).0, 200);
    assert_eq!(g.state()["captured"], serde_json::json!([0, 0]));
    assert!(started().state()["captured"].is_null());
}

#[test]
fn games_between_engines_pause_and_resume() {
    let g = Gui::start(&[
        "--engine",
        "quick=oddity gtp --threads 1 --visits 50 --seed 1",
        "--engine",
        "other=oddity gtp --threads 1 --visits 50 --seed 2",
    ]);
    let (status, body) = g.post(
        "/api/new",
        r#"{"game":"xodd","size":9,"black":"quick","white":"other","seconds":1}"#,
    );
    assert_eq!(status, 200, "{body}");
    g.wait_for(LIMIT, "a few turns", |s| moves(s) >= 2);
    assert_eq!(g.post("/api/pause", r#"{"on":true}"#).0, 200);
    let paused = g.state();
    assert_eq!(paused["paused"], true);
    // The turn being thought about is dropped: once the engines are idle
    // nothing can move.
    let s = g.wait_for(LIMIT, "the engines to stop", |s| {
        s["engines"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["status"] == "idle")
    });
    assert_eq!(moves(&s), moves(&paused), "{s}");
    assert!(s["clock"]["running"].is_null(), "{s}");
    assert_eq!(g.post("/api/pause", r#"{"on":false}"#).0, 200);
    g.wait_for(LIMIT, "play to go on", |s| moves(s) > moves(&paused));
    // A person plays: nothing to pause.
    assert_eq!(
        g.post("/api/seats", r#"{"black":"human","white":"other"}"#)
            .0,
        200
    );
    let (status, body) = g.post("/api/pause", r#"{"on":true}"#);
    assert_eq!(status, 409, "{body}");
    assert!(body.contains("a person plays"), "{body}");
    assert_eq!(g.post("/api/pause", r#"{"on":"yes"}"#).0, 400);
}

#[test]
fn the_form_and_the_palette_come_from_the_rules_and_the_renderer() {
    let g = Gui::start(&["--engine", FAST_ENGINE]);
    let (status, body) = g.get("/api/games");
    assert_eq!(status, 200, "{body}");
    let c: serde_json::Value = serde_json::from_str(&body).unwrap();
    let ids: Vec<_> = c["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["xodd", "yodd", "odd", "onyx"]);
    // Every size the list offers starts a game, and the one past it is refused.
    for game in c["games"].as_array().unwrap() {
        let sizes = game["sizes"].as_array().unwrap();
        let last = sizes.last().unwrap()["size"].as_u64().unwrap();
        for size in [sizes[0]["size"].as_u64().unwrap(), last] {
            let form = format!(
                r#"{{"game":{},"size":{size},"black":"human","white":"human"}}"#,
                game["id"]
            );
            assert_eq!(g.post("/api/new", &form).0, 200, "{form}");
        }
        let form = format!(
            r#"{{"game":{},"size":{},"black":"human","white":"human"}}"#,
            game["id"],
            last + 1
        );
        assert_eq!(g.post("/api/new", &form).0, 409, "{form}");
    }
    // Odd's largest smallest group is its board's cell count.
    let odd = &c["games"][2];
    let five = odd["sizes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["size"] == 5);
    assert_eq!(five.unwrap()["cells"], 61);
    assert_eq!(c["heat"]["low"].as_array().unwrap().len(), 3);
}
