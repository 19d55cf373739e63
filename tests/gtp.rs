//! Protocol tests: the real binary over pipes (its GoGui mode:
//! `tests/gogui.rs`).

#[path = "support/gtp.rs"]
mod util;

use util::{Engine, self_play};

#[test]
fn framing_ids_comments_tabs_crlf_blank_lines() {
    let mut e = Engine::start(&[]);
    e.send_bytes(b"\n   \n# a comment line\n\t\n");
    e.send_bytes(b"1 protocol_version\r\n");
    assert_eq!(e.response(), "=1 2");
    e.send_bytes(b"name # trailing comment\n");
    assert_eq!(e.response(), "= oddity");
    e.send_bytes(b"22\tknown_command\tplay\n");
    assert_eq!(e.response(), "=22 true");
    e.send_bytes(b"known_command frobnicate\n");
    assert_eq!(e.response(), "= false");
    e.send_bytes(b"7 frobnicate\n");
    assert_eq!(e.response(), "?7 unknown command");
    e.send_bytes(b"pro\x01tocol_ver\x00sion\x7f\n");
    assert_eq!(e.response(), "= 2");
    let list = e.ok("list_commands");
    for c in [
        "protocol_version",
        "name",
        "version",
        "known_command",
        "list_commands",
        "quit",
        "boardsize",
        "clear_board",
        "komi",
        "play",
        "genmove",
        "undo",
        "showboard",
        "final_score",
        "lz-analyze",
        "kata-analyze",
        "analyze",
        "gogui-analyze_commands",
        "gogui-interrupt",
    ] {
        assert!(list.lines().any(|l| l == c), "{c} missing");
        assert_eq!(e.ok(&format!("known_command {c}")), "true");
    }
    e.send("99 quit");
    assert_eq!(e.response(), "=99 ");
    assert_eq!(e.rest(), "");
    assert_eq!(e.wait(), 0);
}

#[test]
fn hostile_input_gets_exact_answers() {
    let mut e = Engine::start(&[]);
    e.send_bytes(b"\xff\xfe name\n");
    assert_eq!(e.response(), "? unknown command");
    e.send_bytes(b"name \xc3\x28\n");
    assert_eq!(e.response(), "? syntax error");
    // A line of several megabytes.
    let mut big = b"known_command ".to_vec();
    big.extend(std::iter::repeat_n(b'x', 4 << 20));
    big.push(b'\n');
    e.send_bytes(&big);
    assert_eq!(e.response(), "= false");
    assert_eq!(e.fails("protocol_version extra"), "syntax error");
    assert_eq!(e.fails("known_command"), "syntax error");
    assert_eq!(e.fails("boardsize"), "syntax error");
    assert_eq!(e.fails("boardsize x"), "syntax error");
    assert_eq!(e.fails("boardsize 1"), "unacceptable size");
    assert_eq!(e.fails("boardsize 13"), "unacceptable size");
    assert_eq!(e.fails("komi"), "syntax error");
    assert_eq!(e.fails("komi abc"), "syntax error");
    e.ok("komi 6.5");
    assert_eq!(e.fails("play"), "syntax error");
    assert_eq!(e.fails("play b"), "syntax error");
    assert_eq!(e.fails("play x B:E5"), "syntax error");
    assert_eq!(e.fails("play b B:E5 junk"), "syntax error");
    assert_eq!(e.fails("play b B:E5,"), "syntax error");
    // Well-formed GTP vertices that Odd forbids: illegal moves.
    assert_eq!(e.fails("play b E5"), "illegal move");
    assert_eq!(e.fails("play b B:Z99"), "syntax error");
    assert_eq!(e.fails("play b pass"), "illegal move");
    assert_eq!(e.fails("genmove"), "syntax error");
    assert_eq!(e.fails("genmove x"), "syntax error");
    assert_eq!(e.fails("undo"), "cannot undo");
    assert_eq!(e.fails("final_score"), "cannot score");
    assert_eq!(e.fails("loadsgf /nonexistent/file.sgf"), "cannot load file");
    assert_eq!(e.fails("oddity-param nonsense 1"), "unknown parameter");
    assert_eq!(e.fails("oddity-param threads zero"), "syntax error");
    // Still alive and sane.
    assert_eq!(e.ok("protocol_version"), "2");
    e.close();
    assert_eq!(e.rest(), "");
    assert_eq!(e.wait(), 0);
}

#[test]
fn illegal_play_changes_nothing() {
    let mut e = Engine::start(&["--game", "xodd", "--size", "5"]);
    e.ok("play b B:C3");
    let before = e.ok("printsgf");
    let board = e.ok("showboard");
    // White's turn leaves the total even: illegal.
    assert_eq!(e.fails("play w W:A1"), "illegal move");
    assert_eq!(e.fails("play w B:C3"), "illegal move");
    assert_eq!(e.fails("play w W:A1,W:A1"), "syntax error");
    assert_eq!(e.ok("printsgf"), before);
    assert_eq!(e.ok("showboard"), board);
    e.ok("play w W:A1,W:E5");
    e.ok("undo");
    assert_eq!(e.ok("printsgf"), before);
}

#[test]
fn xodd_scores_and_undo() {
    let mut e = Engine::start(&["--game", "xodd", "--size", "3"]);
    e.ok("play b B:A1");
    e.ok("play w pass");
    assert_eq!(e.fails("final_score"), "cannot score");
    e.ok("play b pass");
    assert_eq!(e.ok("final_score"), "W+1");
    assert!(e.ok("oddity-result").starts_with("over w groups"));
    assert_eq!(e.fails("play w W:C3"), "illegal move");
    assert_eq!(e.fails("genmove w"), "game is over");
    e.ok("undo");
    assert_eq!(e.fails("final_score"), "cannot score");
    e.ok("play b resign");
    assert_eq!(e.ok("final_score"), "W+R");
    e.ok("undo");
    assert_eq!(e.ok("oddity-result"), "running");
    e.ok("undo");
    e.ok("undo");
    assert_eq!(e.fails("undo"), "cannot undo");
}

#[test]
fn either_seat_may_play_at_any_time() {
    let mut e = Engine::start(&["--game", "odd", "--size", "3"]);
    e.ok("play b B:A1");
    e.ok("play b W:B1");
    let sgf = e.ok("printsgf");
    assert!(sgf.contains(";B[B:A1]\n;B[W:B1]"), "{sgf}");
    let m = e.ok("genmove b");
    assert!(m.starts_with("B:") || m.starts_with("W:"), "{m}");
}

#[test]
fn full_games_of_each_kind() {
    for (game, size, max) in [("xodd", "4", 60), ("yodd", "3", 60), ("odd", "3", 40)] {
        let mut e = Engine::start(&["--game", game, "--size", size]);
        let moves = self_play(&mut e, max);
        assert!(!moves.is_empty());
        let score = e.ok("final_score");
        assert!(
            score.starts_with("B+") || score.starts_with("W+"),
            "{score}"
        );
        assert!(e.ok("showboard").contains("Game over"));
    }
}

#[test]
fn onyx_full_game() {
    let mut e = Engine::start(&["--game", "onyx", "--size", "8", "--open"]);
    let board = e.ok("showboard");
    assert!(board.contains("To move"), "{board}");
    self_play(&mut e, 400);
    let score = e.ok("final_score");
    assert!(score == "B+" || score == "W+", "{score}");
}

/// Onyx with the learned patterns as priors (`patterns` on, off by
/// default there) plays a whole game, the swap included.
#[test]
fn onyx_full_game_with_patterns() {
    let mut e = Engine::start(&["--game", "onyx", "--size", "8", "--open"]);
    assert!(e.ok("oddity-param").lines().any(|l| l == "patterns auto"));
    e.ok("oddity-param patterns on");
    e.ok("play b D4");
    e.ok("play w swap");
    self_play(&mut e, 300);
    let score = e.ok("final_score");
    assert!(score == "B+" || score == "W+", "{score}");
}

#[test]
fn game_and_rules_selection() {
    let mut e = Engine::start(&[]);
    assert_eq!(e.ok("oddity-game"), "odd 5");
    e.ok("oddity-game yodd");
    assert_eq!(e.ok("oddity-game"), "yodd 8");
    e.ok("boardsize 4");
    assert_eq!(e.ok("oddity-game"), "yodd 4");
    assert_eq!(e.fails("oddity-game chess"), "syntax error");
    e.ok("oddity-game odd 7");
    let rules = e.ok("oddity-rules");
    assert!(rules.contains("min_group default"), "{rules}");
    assert!(rules.contains("swap on"), "{rules}");
    e.ok("oddity-rules min_group 3");
    // Effective only at the next clear_board.
    assert!(e.ok("showboard").contains("min_group 7"));
    e.ok("clear_board");
    assert!(e.ok("showboard").contains("min_group 3"));
    assert_eq!(e.fails("oddity-rules min_group 0"), "syntax error");
    assert_eq!(e.fails("oddity-rules start sideways"), "syntax error");
    e.ok("oddity-rules start open");
    e.ok("oddity-rules swap off");
    assert_eq!(e.fails("oddity-rules colour red"), "unknown rule");
}

#[test]
fn set_position_for_analysis() {
    let mut e = Engine::start(&["--game", "odd", "--size", "3"]);
    e.ok("oddity-set_position w B:A1 W:B1 B:C3");
    let board = e.ok("showboard");
    assert!(board.contains("To move: w"), "{board}");
    assert_eq!(
        e.fails("oddity-set_position w B:A1 W:A1"),
        "illegal position"
    );
    assert_eq!(e.fails("oddity-set_position w A1"), "syntax error");
    assert_eq!(e.fails("oddity-set_position"), "syntax error");
    let moves = e.ok("oddity-legal_moves");
    assert!(!moves.contains("B:A1"));
    assert!(moves.contains("W:E5"));
}

#[test]
fn params_and_description() {
    let mut e = Engine::start_raw(&["--threads", "1", "--visits", "30", "--seed", "42"]);
    let params = e.ok("oddity-param");
    for l in ["threads 1", "visits 30", "seed 42", "ponder off"] {
        assert!(params.lines().any(|x| x == l), "{params}");
    }
    e.ok("oddity-param visits 50");
    e.ok("oddity-param ponder on");
    assert!(e.ok("oddity-param").lines().any(|l| l == "time_use full"));
    e.ok("oddity-param time_use cautious");
    assert!(e.ok("oddity-param").contains("time_use cautious"));
    assert_eq!(e.fails("oddity-param time_use some"), "syntax error");
    e.ok("oddity-param time 0");
    assert!(e.ok("oddity-param").contains("visits 50"));
    e.ok("oddity-param visits auto");
    assert!(e.ok("oddity-param").lines().any(|x| x == "visits auto"));
    assert_eq!(e.fails("oddity-param visits some"), "syntax error");
    let d = e.ok("gomill-describe_engine");
    assert!(d.contains("seed 42"), "{d}");
    // Pondering stops on every new line: commands still answer.
    e.ok("play b B:E5");
    assert_eq!(e.ok("name"), "oddity");
    e.ok("oddity-param ponder off");
}

#[test]
fn a_weights_file_is_read_when_set_and_a_bad_one_refused() {
    let mut e = Engine::start_raw(&["--threads", "1", "--visits", "30"]);
    let missing = e.fails("oddity-param weights /nonexistent/odd.txt");
    assert!(
        missing.starts_with("cannot read /nonexistent/odd.txt"),
        "{missing}"
    );
    let bad = std::env::temp_dir().join(format!("oddity-bad-weights-{}.txt", std::process::id()));
    std::fs::write(&bad, "game odd\nring 6\nshape 1 x\n").unwrap();
    let corrupt = e.fails(&format!("oddity-param weights {}", bad.display()));
    std::fs::remove_file(&bad).unwrap();
    assert!(corrupt.contains("weights file, line 3: gamma"), "{corrupt}");
    assert!(e.ok("oddity-param").lines().any(|l| l == "weights builtin"));
    // Weights of another game leave this game's built-in ones in use.
    for game in ["xodd", "odd"] {
        let file = format!(
            "{}/crates/oddity-patterns/weights/{game}.txt",
            env!("CARGO_MANIFEST_DIR")
        );
        e.ok(&format!("oddity-param weights {file}"));
        assert!(e.ok("oddity-param").contains(&format!("weights {file}")));
        e.ok("oddity-param patterns on");
        e.ok("clear_board");
        e.ok("genmove b");
    }
}

#[test]
fn reg_genmove_does_not_play_and_is_reproducible() {
    // A second search continues the first one's tree, so reproducible
    // means: the same commands give the same answer in another process.
    let mut e = Engine::start(&[]);
    let a = e.ok("reg_genmove b");
    let mut f = Engine::start(&[]);
    assert_eq!(a, f.ok("reg_genmove b"));
    assert_eq!(e.fails("undo"), "cannot undo");
}

#[test]
fn clocks_are_accepted() {
    let mut e = Engine::start_raw(&["--visits", "0"]);
    e.ok("time_settings 30 0 0");
    e.ok("time_left b 1 0");
    e.ok("genmove b");
    e.ok("kgs-time_settings byoyomi 0 1 3");
    e.ok("kgs-time_settings canadian 0 2 5");
    e.ok("kgs-time_settings absolute 60");
    e.ok("kgs-time_settings none");
    assert_eq!(e.fails("kgs-time_settings sometimes"), "syntax error");
    assert_eq!(e.fails("time_settings 1 2"), "syntax error");
    assert_eq!(e.fails("time_left b x 0"), "syntax error");
    // Seconds are read as every duration: 0 to a day; a clock past its
    // time may say so with seconds below 0.
    e.ok("time_left w -2.5 0");
    assert_eq!(e.fails("time_settings 90000 0 0"), "syntax error");
    assert_eq!(e.fails("time_settings -1 0 0"), "syntax error");
    assert_eq!(e.fails("kgs-time_settings absolute inf"), "syntax error");
    assert_eq!(e.fails("kgs-time_settings canadian 0 2 0"), "syntax error");
}

#[test]
fn sgf_round_trip_through_a_file() {
    let dir = std::env::temp_dir().join(format!("oddity-gtp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.sgf");
    let path = file.to_str().unwrap();
    let mut e = Engine::start(&["--game", "xodd", "--size", "5"]);
    e.ok("play b B:C3");
    e.ok("play w W:A1,B:E5");
    e.ok(&format!("printsgf {path}"));
    let text = e.ok("printsgf");
    e.ok("oddity-game odd");
    e.ok(&format!("loadsgf {path}"));
    assert_eq!(e.ok("printsgf"), text);
    e.ok(&format!("loadsgf {path} 2"));
    assert!(!e.ok("printsgf").contains(";W["));
    std::fs::write(&file, "(;FF[4]GM[1]SZ[19])").unwrap();
    assert_eq!(e.fails(&format!("loadsgf {path}")), "cannot load file");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An Onyx game with White's swap, on either start, is saved with
/// `printsgf` and opened again with `loadsgf`, and play goes on from it.
#[test]
fn onyx_records_with_a_swap_load_back() {
    let dir = std::env::temp_dir().join(format!("oddity-gtp-swap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("swap.sgf");
    let path = file.to_str().unwrap();
    for (args, first) in [
        (&["--game", "onyx"][..], "E5"),
        (&["--game", "onyx", "--size", "8", "--open"][..], "C3"),
    ] {
        let mut e = Engine::start(args);
        e.ok(&format!("play b {first}"));
        e.ok("play w swap");
        e.ok("genmove b");
        e.ok("genmove w");
        e.ok(&format!("printsgf {path}"));
        let text = e.ok("printsgf");
        assert!(text.contains("\n;W[swap]\n"), "{text}");
        e.ok("clear_board");
        e.ok(&format!("loadsgf {path}"));
        assert_eq!(e.ok("printsgf"), text, "{args:?}");
        e.ok("genmove b");
        e.ok(&format!("loadsgf {path} 3"));
        assert!(e.ok("printsgf").ends_with(";W[swap])"), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn check_info_line(line: &str, floats: bool) {
    assert!(line.starts_with("info move "), "{line}");
    for part in line.split("info move ").skip(1) {
        let words: Vec<&str> = part.split_whitespace().collect();
        let key = |k: &str| {
            let i = words.iter().position(|w| *w == k).expect(k);
            words[i + 1]
        };
        key("visits").parse::<u64>().unwrap();
        let w = key("winrate");
        if floats {
            assert!((0.0..=1.0).contains(&w.parse::<f64>().unwrap()));
        } else {
            assert!((0..=10000).contains(&w.parse::<i64>().unwrap()), "{w}");
        }
        assert!(words.contains(&"pv"));
    }
}

#[test]
fn analysis_streams_stop_on_any_line() {
    for (cmd, floats) in [
        ("lz-analyze b 1", false),
        ("kata-analyze interval 1", true),
        ("analyze w 1", true),
    ] {
        let mut e = Engine::start_raw(&["--game", "odd", "--size", "3"]);
        e.send(&format!("5 {cmd}"));
        assert_eq!(e.line().unwrap(), "=5");
        let mut infos = 0;
        let first = e.line().unwrap();
        check_info_line(&first, floats);
        e.send("");
        loop {
            let l = e.line().unwrap();
            if l.is_empty() {
                break;
            }
            check_info_line(&l, floats);
            infos += 1;
        }
        let _ = infos;
        // The empty line got no answer; the next command does.
        assert_eq!(e.ok("name"), "oddity");
    }
}

#[test]
fn genmove_analyze_ends_with_play() {
    let mut e = Engine::start(&["--game", "odd", "--size", "3"]);
    e.send("genmove_analyze b 1");
    assert_eq!(e.line().unwrap(), "=");
    let r = e.response();
    let last = r.lines().last().unwrap();
    assert!(
        last.starts_with("play B:") || last.starts_with("play W:"),
        "{r}"
    );
    assert!(e.ok("printsgf").contains(";B["));
}

#[test]
fn eof_and_quit_end_a_search() {
    // End of input in the middle of an analysis.
    let mut e = Engine::start_raw(&["--game", "odd"]);
    e.send("lz-analyze 10");
    assert_eq!(e.line().unwrap(), "=");
    e.close();
    let rest = e.rest();
    assert!(rest == "\n" || rest.ends_with("\n\n"), "{rest:?}");
    assert_eq!(e.wait(), 0);
    // End of input during an unlimited genmove.
    let mut e = Engine::start_raw(&["--game", "odd", "--visits", "0", "--time", "0"]);
    e.send("genmove b");
    std::thread::sleep(std::time::Duration::from_millis(200));
    e.close();
    let rest = e.rest();
    assert!(
        rest.starts_with("= B:") || rest.starts_with("= W:"),
        "{rest:?}"
    );
    assert_eq!(e.wait(), 0);
    // GoGui's interrupt stops a genmove, which still answers.
    let mut e = Engine::start_raw(&["--game", "odd", "--visits", "0", "--time", "0"]);
    e.send("genmove b");
    e.send("# interrupt");
    let m = e.response();
    assert!(m.starts_with("= B:") || m.starts_with("= W:"), "{m}");
    assert_eq!(e.ok("name"), "oddity");
}

/// Commands read before the end of input are answered as they would be
/// with input open: the searches of queued genmoves run to their limits.
#[test]
fn end_of_input_answers_queued_genmoves_in_full() {
    let args = ["--game", "onyx", "--param", "visits=3000"];
    let mut open = Engine::start(&args);
    let expected = format!(
        "= {}\n\n= {}\n\n",
        open.ok("genmove b"),
        open.ok("genmove w")
    );
    let mut closed = Engine::start(&args);
    closed.send_bytes(b"genmove b\ngenmove w\n");
    closed.close();
    assert_eq!(closed.rest(), expected);
    assert_eq!(closed.wait(), 0);
}

#[test]
fn deep_records_and_long_lines_get_errors_and_the_session_goes_on() {
    let dir = std::env::temp_dir().join(format!("oddity-deep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("deep.sgf");
    std::fs::write(&file, "(".repeat(22_600)).unwrap();
    let mut e = Engine::start(&[]);
    let path = file.to_str().unwrap();
    assert_eq!(e.fails(&format!("loadsgf {path}")), "cannot load file");
    let deep = format!(
        "(;GM[9000]OG[odd]SZ[3]{}B[B:A1]{})",
        "(;".repeat(50_000),
        ")".repeat(50_000)
    );
    std::fs::write(&file, deep).unwrap();
    e.ok(&format!("loadsgf {path}"));
    assert!(e.ok("printsgf").contains(";B[B:A1]"));
    let mut long = b"3 play b ".to_vec();
    long.extend(std::iter::repeat_n(b'x', 17 << 20));
    long.push(b'\n');
    e.send_bytes(&long);
    assert_eq!(e.response(), "?3 command line too long");
    assert_eq!(e.ok("name"), "oddity");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn showboard_draws_every_board() {
    let mut e = Engine::start(&["--game", "xodd", "--size", "5"]);
    e.ok("play b B:C3");
    let b = e.ok("showboard");
    assert!(b.contains("(B)"), "{b}");
    assert!(b.contains("A  B  C  D  E"), "{b}");
    assert!(b.contains("total 1 (odd)"), "{b}");
    assert!(b.contains("To move: w"), "{b}");
    e.ok("oddity-game yodd 2");
    let b = e.ok("showboard");
    assert!(b.contains("B2"[..1].to_string().as_str()));
    assert_eq!(b.lines().filter(|l| l.contains(" . ")).count(), 3, "{b}");
}

/// `pass` is a well-formed vertex: where the rules forbid it, and for every
/// other well-formed token a game does not allow, `play` answers
/// `illegal move`; only malformed tokens are syntax errors.
#[test]
fn forbidden_tokens_are_illegal_moves_in_every_game() {
    for game in ["xodd", "yodd", "odd", "onyx"] {
        let mut e = Engine::start(&["--game", game]);
        // No game lets Black pass on the first turn.
        assert_eq!(e.fails("play b pass"), "illegal move", "{game}");
        assert_eq!(e.fails("play b B:C3,B:C3"), "syntax error", "{game}");
        assert_eq!(e.fails("play b X:C3"), "syntax error", "{game}");
        assert_eq!(e.fails("play b C3,"), "syntax error", "{game}");
        assert_eq!(e.fails("play b B:Z99"), "syntax error", "{game}");
    }
    let mut e = Engine::start(&["--game", "odd"]);
    assert_eq!(e.fails("play b B:C3,W:D4"), "illegal move");
    assert_eq!(e.fails("play b swap"), "illegal move");
    assert_eq!(e.fails("play b C3"), "illegal move");
    let mut e = Engine::start(&["--game", "onyx"]);
    assert_eq!(e.fails("play b W:D5"), "illegal move");
    assert_eq!(e.fails("play b swap"), "illegal move");
    let mut e = Engine::start(&["--game", "xodd", "--size", "3"]);
    e.ok("play b B:A1");
    e.ok("play w pass");
}

#[test]
fn knowledge_parameters_on_the_command_line_and_in_the_protocol() {
    let mut e = Engine::start(&["--param", "rave=off", "--param", "exploration=0.7"]);
    let params = e.ok("oddity-param");
    for l in [
        "rave off",
        "exploration 0.7",
        "priors auto",
        "rave_equiv auto",
    ] {
        assert!(params.lines().any(|x| x == l), "{params}");
    }
    e.ok("oddity-param prior_weight 8");
    e.ok("oddity-param rave auto");
    e.ok("oddity-param exploration auto");
    assert_eq!(e.fails("oddity-param rave maybe"), "syntax error");
    assert_eq!(e.fails("oddity-param expand 0"), "syntax error");
    assert_eq!(e.fails("oddity-param exploration -1"), "syntax error");
    let params = e.ok("oddity-param");
    for l in [
        "prior_weight 8",
        "rave auto",
        "exploration auto",
        "expand auto",
    ] {
        assert!(params.lines().any(|x| x == l), "{params}");
    }
    // The engine still plays with knowledge switched off.
    e.ok("oddity-param playouts off");
    e.ok("oddity-game xodd 5");
    assert!(!e.ok("genmove b").is_empty());
}

#[test]
fn bad_param_option_is_refused() {
    for bad in ["rave", "rave=maybe", "nonsense=1"] {
        let out = std::process::Command::new(util::binary())
            .args(["--param", bad])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "--param {bad} was accepted");
        assert!(out.stdout.is_empty());
        assert!(String::from_utf8_lossy(&out.stderr).contains("--param"));
    }
}

#[test]
fn xodd_does_not_pass_early() {
    let mut e = Engine::start(&[]);
    e.ok("oddity-game xodd 12");
    e.ok("oddity-param visits 3000");
    e.ok("play b B:F6");
    assert_ne!(e.ok("genmove w"), "pass");
    assert_ne!(e.ok("genmove b"), "pass");
}
