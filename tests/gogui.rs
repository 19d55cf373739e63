//! GoGui mode over pipes: the ruler commands, GoGui's board sizes and
//! vertex names, turns GoGui can show, and turns entered by clicks with
//! waiting stones.

#[path = "support/gtp.rs"]
mod util;

use util::Engine;

#[test]
fn gogui_commands() {
    let mut e = Engine::start(&["--game", "odd", "--size", "3"]);
    let cmds = e.ok("gogui-analyze_commands");
    assert!(cmds.contains("param/"), "{cmds}");
    assert!(cmds.contains("gfx/"), "{cmds}");
    for line in cmds.lines() {
        let parts: Vec<&str> = line.splitn(3, '/').collect();
        assert_eq!(parts.len(), 3, "{line}");
        let name = parts[2].split_whitespace().next().unwrap();
        assert_eq!(e.ok(&format!("known_command {name}")), "true", "{line}");
    }
    let gfx = e.ok("oddity-heatmap");
    assert!(gfx.contains("INFLUENCE") && gfx.contains("TEXT"), "{gfx}");
    e.ok("gogui-interrupt");
}

const RULER_COMMANDS: [&str; 7] = [
    "gogui-rules_game_id",
    "gogui-rules_board_size",
    "gogui-rules_board",
    "gogui-rules_legal_moves",
    "gogui-rules_side_to_move",
    "gogui-rules_final_result",
    "gogui-rules_captured_count",
];

#[test]
fn ruler_commands_only_in_gogui_mode_where_all_answer() {
    for game in ["xodd", "yodd", "odd", "onyx"] {
        // Without --gogui GoGui must not take the engine for a ruler.
        let mut e = Engine::start(&["--game", game]);
        let list = e.ok("list_commands");
        assert!(!list.contains("gogui-rules_"), "{game}: {list}");
        for c in RULER_COMMANDS {
            assert_eq!(e.ok(&format!("known_command {c}")), "false", "{game} {c}");
            assert_eq!(e.fails(c), "unknown command", "{game} {c}");
        }
        // With it, every ruler command is listed and answers.
        let mut e = Engine::start(&["--game", game, "--gogui"]);
        let list = e.ok("list_commands");
        for c in RULER_COMMANDS {
            assert!(list.lines().any(|l| l == c), "{game}: {c} missing");
            assert_eq!(e.ok(&format!("known_command {c}")), "true", "{game} {c}");
            e.ok(c);
        }
        let id = e.ok("gogui-rules_game_id");
        assert!(id.eq_ignore_ascii_case(game), "{game}: {id}");
        assert_eq!(e.ok("gogui-rules_captured_count"), "0 0");
        assert_eq!(e.ok("gogui-rules_final_result"), "unknown");
    }
}

/// GoGui reads the grid side from `gogui-rules_board_size`, sends it back
/// with `boardsize`, and draws `gogui-rules_board` on that grid.
#[test]
fn gogui_board_size_grid_and_vertices_agree() {
    // (game, size n, GoGui's board size, grid side, cells)
    for (game, n, answer, side, cells) in [
        ("xodd", "5", "5", 5, 25),
        ("yodd", "3", "5 hex", 5, 19),
        ("odd", "5", "9 hex", 9, 61),
        ("onyx", "6", "11", 11, 36 + 12),
    ] {
        let mut e = Engine::start(&["--game", game, "--size", n, "--gogui"]);
        assert_eq!(e.ok("gogui-rules_board_size"), answer, "{game}");
        e.ok(&format!("boardsize {side}"));
        assert_eq!(e.ok("oddity-game"), format!("{game} {n}"));
        assert_eq!(e.ok("gogui-rules_board_size"), answer, "{game}");
        let board = e.ok("gogui-rules_board");
        let rows: Vec<&str> = board.lines().collect();
        assert_eq!(rows.len(), side, "{game}: {board}");
        assert!(rows.iter().all(|r| r.len() == side), "{game}: {board}");
        let points = board.chars().filter(|c| "XO.".contains(*c)).count();
        assert_eq!(points, cells, "{game}: {board}");
        // Every legal vertex is a point of the grid that GoGui can name.
        let legal = e.ok("gogui-rules_legal_moves");
        for v in legal.split_whitespace().filter(|v| *v != "pass") {
            assert!(!v.contains('I'), "{game}: {v}");
            let x = (v.as_bytes()[0] - b'A') as usize - usize::from(v.as_bytes()[0] > b'I');
            let y: usize = v[1..].parse().unwrap();
            assert!(x < side && (1..=side).contains(&y), "{game}: {v}");
            let row = rows[side - y].as_bytes();
            assert!(row[x] != b'?', "{game}: {v} is off the board");
        }
    }
    let mut e = Engine::start(&["--game", "odd", "--gogui"]);
    assert_eq!(e.fails("boardsize 8"), "unacceptable size");
    assert_eq!(e.ok("oddity-game"), "odd 5");
}

#[test]
fn gogui_onyx_plays_on_the_double_grid() {
    let mut e = Engine::start(&["--game", "onyx", "--gogui"]);
    // Onyx D5 is grid point (6, 8): GoGui's G9; midpoint DE910 is H18.
    e.ok("play b G9");
    assert!(e.ok("showboard").contains("played D5"));
    assert!(e.ok("gogui-rules_legal_moves").ends_with(" pass"));
    // `pass` is the swap: D5 becomes a white stone on E4 (GoGui's J7).
    e.ok("play w pass");
    let sgf = e.ok("printsgf");
    assert!(sgf.contains(";W[swap]"), "{sgf}");
    let rows: Vec<String> = e
        .ok("gogui-rules_board")
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(rows[23 - 7].as_bytes()[8], b'O');
    assert_eq!(rows[23 - 9].as_bytes()[6], b'.');
    e.ok("play b H18");
    assert!(e.ok("showboard").contains("played DE910"));
    // Between two points, and a square without a midpoint: not vertices.
    assert_eq!(e.fails("play w B1"), "syntax error");
    assert_eq!(e.fails("play w B2"), "syntax error");
    assert!(!e.ok("gogui-rules_legal_moves").contains("pass"));
    let v = e.ok("genmove w");
    assert!(!v.contains(':') && v != "pass", "{v}");
    assert_eq!(e.ok("gogui-rules_side_to_move"), "black");
    let gfx = e.ok("oddity-heatmap");
    let text = gfx.lines().last().unwrap();
    assert!(text.starts_with("TEXT best "), "{gfx}");
    assert!(!text.contains(':'), "{gfx}");
}

#[test]
fn gogui_counts_onyx_captures() {
    // Square B1-C2 has a midpoint; Black at B1 and C2 takes White's C1 and
    // B2. Grid names: B1 = C1, C1 = E1, B2 = C3, C2 = E3.
    let mut e = Engine::start(&["--game", "onyx", "--gogui"]);
    for (seat, v) in [("b", "C1"), ("w", "E1"), ("b", "R17"), ("w", "C3")] {
        e.ok(&format!("play {seat} {v}"));
    }
    assert_eq!(e.ok("gogui-rules_captured_count"), "0 0");
    e.ok("play b E3");
    let board = e.ok("showboard");
    assert!(board.contains("Stones: B 7, W 4"), "{board}");
    assert_eq!(e.ok("gogui-rules_captured_count"), "2 0");
    e.ok("undo");
    assert_eq!(e.ok("gogui-rules_captured_count"), "0 0");
}

#[test]
fn gogui_one_stone_plays() {
    let mut e = Engine::start(&["--game", "odd", "--size", "3", "--gogui"]);
    assert_eq!(e.ok("gogui-rules_game_id"), "Odd");
    assert_eq!(e.ok("gogui-rules_side_to_move"), "black");
    let legal = e.ok("gogui-rules_legal_moves");
    assert!(legal.split(' ').any(|p| p == "A1"), "{legal}");
    // The colour names the stone: Black puts a white stone.
    e.ok("play w A1");
    assert_eq!(e.ok("gogui-rules_side_to_move"), "white");
    assert!(e.ok("printsgf").contains(";B[W:A1]"));
    assert!(e.ok("gogui-rules_board").contains('O'));
    assert_eq!(e.fails("play b pass"), "illegal move");
    // genmove answers a vertex: a stone of the seat's own colour.
    let mut e = Engine::start(&["--game", "odd", "--gogui"]);
    for seat in ["b", "w", "b", "w", "b", "w"] {
        let v = e.ok(&format!("genmove {seat}"));
        assert!(!v.contains(':'), "{v}");
        let colour = seat.to_uppercase();
        assert!(e.ok("printsgf").ends_with(&format!("[{colour}:{v}])")));
    }
    let mut e = Engine::start(&["--game", "xodd", "--size", "3", "--gogui"]);
    e.ok("play b A1");
    // Two stones make a turn: the first one waits for the second.
    e.ok("play w B2");
    // It cannot end the turn alone; a refused pass keeps it waiting.
    assert!(!e.ok("gogui-rules_legal_moves").contains("pass"));
    assert_eq!(e.fails("play w pass"), "illegal move");
    assert_eq!(e.ok("gogui-rules_board"), "...\n.O.\nX..");
    e.ok("play b C3");
    let sgf = e.ok("printsgf");
    assert!(sgf.contains(";W[W:B2,B:C3]"), "{sgf}");
    e.ok("play w B1");
    e.ok("undo");
    e.ok("play b pass");
    assert!(e.ok("printsgf").ends_with(";B[pass])"));
    e.ok("play w resign");
    assert_eq!(e.ok("final_score"), "B+R");
}

/// The heat map labels a point only where its candidate has 100 visits or
/// more, and in GoGui mode names the best turn as GoGui does.
#[test]
fn gogui_heat_map_labels_and_names() {
    let mut e = Engine::start(&["--game", "odd", "--gogui"]);
    let gfx = e.ok("oddity-heatmap");
    assert!(gfx.starts_with("INFLUENCE "), "{gfx}");
    assert!(!gfx.contains("LABEL"), "64 visits label nothing: {gfx}");
    e.ok("oddity-param visits 3000");
    let gfx = e.ok("oddity-heatmap");
    let count = |tag: &str| {
        let line = gfx.lines().find(|l| l.starts_with(tag)).unwrap();
        line.split(' ').count() / 2
    };
    assert!((1..=count("INFLUENCE")).contains(&count("LABEL")), "{gfx}");
    let text = gfx.lines().last().unwrap();
    assert!(
        text.starts_with("TEXT best ") && !text.contains(':'),
        "{gfx}"
    );
    // A turn GoGui cannot show is named by its stones.
    let mut e = Engine::start(&["--game", "odd", "--gogui", "--param", "turns=all"]);
    e.ok("oddity-param visits 3000");
    let text = e.ok("oddity-heatmap");
    let text = text.lines().last().unwrap();
    let best = text
        .strip_prefix("TEXT best ")
        .unwrap()
        .split(',')
        .next()
        .unwrap();
    assert!(!best.contains(' ') || best.starts_with("White "), "{text}");
    assert!(!text.contains(':'), "{text}");
}

/// Plays a whole game with `genmove` alone, the seats taking turns; returns
/// the answers.
fn genmove_to_the_end(e: &mut Engine) -> Vec<String> {
    let mut answers = Vec::new();
    for seat in ["b", "w"].into_iter().cycle() {
        if e.ok("oddity-result") != "running" {
            break;
        }
        answers.push(e.ok(&format!("genmove {seat}")));
        assert!(answers.len() < 200, "{answers:?}");
    }
    answers
}

/// In GoGui mode the engine chooses among the turns GoGui can show (one
/// stone of its own colour, or a pass) and plays every game to its end as
/// either seat; after the end, `genmove` answers `pass` and `play pass` is
/// accepted, so that gogui-twogtp's two closing passes find no error.
#[test]
fn gogui_engine_plays_every_game_to_the_end() {
    for (game, size) in [("xodd", "4"), ("yodd", "3"), ("odd", "3"), ("onyx", "4")] {
        let mut e = Engine::start(&["--game", game, "--size", size, "--gogui"]);
        assert!(e.ok("oddity-param").lines().any(|l| l == "turns auto"));
        let answers = genmove_to_the_end(&mut e);
        for v in &answers {
            assert!(!v.contains(':') && !v.contains(','), "{game}: {answers:?}");
        }
        let result = e.ok("gogui-rules_final_result");
        assert!(
            result.starts_with("B+") || result.starts_with("W+"),
            "{game}: {result}"
        );
        assert_eq!(e.ok("final_score"), result);
        assert_eq!(e.ok("gogui-rules_legal_moves"), "", "{game}");
        let sgf = e.ok("printsgf");
        assert_eq!(e.ok("genmove b"), "pass", "{game}");
        e.ok("play w pass");
        assert_eq!(e.ok("genmove w"), "pass", "{game}");
        e.ok("play b pass");
        assert_eq!(e.fails("play b A1"), "illegal move", "{game}");
        assert_eq!(e.ok("printsgf"), sgf, "{game}: the passes changed the game");
        assert_eq!(e.ok("gogui-rules_final_result"), result);
    }
}

/// `turns gogui` outside GoGui mode: the same choice, in the usual tokens
/// (how `oddity match` measures what it costs). `turns all` lifts it.
#[test]
fn turns_parameter_limits_genmove_to_gogui_turns() {
    for (game, size) in [("xodd", "4"), ("yodd", "3"), ("odd", "3")] {
        let mut e = Engine::start(&["--game", game, "--size", size, "--param", "turns=gogui"]);
        let answers = genmove_to_the_end(&mut e);
        for (k, t) in answers.iter().enumerate() {
            let own = if k % 2 == 0 { "B:" } else { "W:" };
            assert!(
                t == "pass" || (t.starts_with(own) && !t.contains(',')),
                "{game}: {answers:?}"
            );
        }
    }
    let mut e = Engine::start(&["--gogui"]);
    e.ok("oddity-param turns all");
    assert!(e.ok("oddity-param").lines().any(|l| l == "turns all"));
    e.ok("oddity-param turns GoGui");
    assert!(e.ok("oddity-param").lines().any(|l| l == "turns gogui"));
    assert_eq!(e.fails("oddity-param turns some"), "syntax error");
    assert!(e.ok("oddity-param").lines().any(|l| l == "turns gogui"));
}

/// The side to move, the points GoGui may click, the last turn of the
/// game record and the board, as the ruler gives them.
fn side(e: &mut Engine) -> String {
    e.ok("gogui-rules_side_to_move")
}

fn legal(e: &mut Engine) -> Vec<String> {
    let list = e.ok("gogui-rules_legal_moves");
    list.split(' ').map(String::from).collect()
}

fn last_turn(e: &mut Engine) -> String {
    let sgf = e.ok("printsgf");
    let k = sgf.rfind(';').unwrap();
    sgf[k + 1..].trim_end_matches(')').to_string()
}

fn board(e: &mut Engine) -> String {
    e.ok("gogui-rules_board")
}

/// GoGui mode with `--gogui-wait`, Xodd, as a person clicks (GoGui's
/// click always sends the mover's colour): every stone waits (the side to
/// move stays), a click on a waiting stone changes its colour, and Pass
/// ends the turn with the waiting stones. Every case of the parity rule:
/// stones of either colour, first or second, alone or two, and passes.
#[test]
fn gogui_clicks_enter_xodd_turns() {
    let wait = ["--game", "xodd", "--size", "4", "--gogui", "--gogui-wait"];
    let mut e = Engine::start(&wait);
    // Black's first turn is one stone, of either colour: the stone waits,
    // no second may follow, and a click on it makes it white.
    e.ok("play b A1");
    assert_eq!(side(&mut e), "black");
    assert_eq!(board(&mut e), "....\n....\n....\nX...");
    assert_eq!(legal(&mut e), ["A1", "pass"]);
    assert_eq!(e.fails("play b B2"), "illegal move");
    e.ok("play b A1");
    assert_eq!(board(&mut e), "....\n....\n....\nO...");
    e.ok("play b A1");
    assert_eq!(board(&mut e), "....\n....\n....\nX...");
    e.ok("play b A1");
    e.ok("play b pass");
    assert_eq!(last_turn(&mut e), "B[W:A1]");
    assert_eq!(side(&mut e), "white");
    // White: a black stone on D4 is a new group and leaves the total even,
    // so it cannot end the turn alone (no pass); a new white group (C1)
    // makes it odd again. Stones of the other colour, first and second.
    e.ok("play w D4");
    e.ok("play w D4");
    assert_eq!(board(&mut e), "...X\n....\n....\nO...");
    assert_eq!(side(&mut e), "white");
    let l = legal(&mut e);
    assert!(!l.contains(&"pass".into()), "{l:?}");
    assert!(
        l.contains(&"D4".into()) && l.contains(&"C1".into()),
        "{l:?}"
    );
    assert!(!l.contains(&"A1".into()), "{l:?}");
    assert_eq!(e.fails("play w pass"), "illegal move");
    // An occupied point, a point that is no point: refused, changing nothing.
    assert_eq!(e.fails("play w A1"), "illegal move");
    assert_eq!(e.fails("play w Z9"), "syntax error");
    assert_eq!(board(&mut e), "...X\n....\n....\nO...");
    e.ok("play w C1");
    assert_eq!(board(&mut e), "...X\n....\n....\nO.O.");
    assert_eq!(legal(&mut e), ["C1", "D4", "pass"]);
    // A third stone is refused; the two wait until Pass.
    assert_eq!(e.fails("play w B2"), "illegal move");
    assert_eq!(side(&mut e), "white");
    e.ok("play w pass");
    assert_eq!(last_turn(&mut e), "W[W:C1,B:D4]");
    assert_eq!(side(&mut e), "black");
    // Black, two stones of the other colour: white B1 joins A1 and C1 (the
    // total goes from 3 to 2), a white B3 is a new group (3 again).
    for p in ["B1", "B1", "B3"] {
        e.ok(&format!("play b {p}"));
    }
    assert_eq!(board(&mut e), "...X\n.X..\n....\nOOO.");
    // Black B3 with white B1 makes 3 too: Pass is listed either way.
    assert!(legal(&mut e).contains(&"pass".into()));
    e.ok("play b B3");
    assert_eq!(board(&mut e), "...X\n.O..\n....\nOOO.");
    e.ok("play b pass");
    assert_eq!(last_turn(&mut e), "B[W:B1,W:B3]");
    // `undo` takes back one move as GoGui counts them: the pass (the
    // stones wait again), then the colour change, then the stone.
    e.ok("undo");
    assert_eq!(side(&mut e), "black");
    assert_eq!(last_turn(&mut e), "W[W:C1,B:D4]");
    assert_eq!(board(&mut e), "...X\n.O..\n....\nOOO.");
    e.ok("undo");
    assert_eq!(board(&mut e), "...X\n.X..\n....\nOOO.");
    e.ok("undo");
    assert_eq!(board(&mut e), "...X\n....\n....\nOOO.");
    // A mixed turn instead: white B1 (total 2), black B3 (a new group: 3).
    e.ok("play b B3");
    e.ok("play b pass");
    assert_eq!(last_turn(&mut e), "B[W:B1,B:B3]");
    // White: a stone of its own colour that may end the turn alone (A2
    // joins the white group: the total stays 3), then Pass.
    e.ok("play w A2");
    assert!(legal(&mut e).contains(&"pass".into()));
    e.ok("play w pass");
    assert_eq!(last_turn(&mut e), "W[W:A2]");
    // With nothing waiting, `pass` is a pass; two end the game, and then
    // `pass` is accepted and changes nothing, and `undo` takes it back.
    e.ok("play b pass");
    e.ok("play w pass");
    assert_eq!(e.ok("gogui-rules_legal_moves"), "");
    let result = e.ok("gogui-rules_final_result");
    assert!(result.starts_with("B+") || result.starts_with("W+"));
    assert_eq!(e.fails("play b C3"), "illegal move");
    e.ok("play b pass");
    e.ok("undo");
    assert_eq!(e.ok("gogui-rules_final_result"), result);
    e.ok("undo");
    assert_eq!(e.ok("gogui-rules_final_result"), "unknown");
    assert_eq!(side(&mut e), "white");
}

/// Without `--gogui-wait` (the engines' mode, gogui-twogtp's): a stone
/// ends the turn at once where the stones with it make a legal turn, and
/// waits where they do not; a click on a waiting stone changes its colour
/// there too.
#[test]
fn gogui_stones_wait_only_where_needed_without_gogui_wait() {
    let mut e = Engine::start(&["--game", "xodd", "--size", "4", "--gogui"]);
    e.ok("play b A1");
    assert_eq!(last_turn(&mut e), "B[B:A1]");
    // A new white group leaves the total even: it waits, and turned black
    // it still does (two black groups).
    e.ok("play w D4");
    e.ok("play w D4");
    assert_eq!(side(&mut e), "white");
    assert_eq!(board(&mut e), "...X\n....\n....\nX...");
    // A white C1 with it makes the total 3: the turn ends at once.
    e.ok("play w C1");
    assert_eq!(last_turn(&mut e), "W[W:C1,B:D4]");
    assert_eq!(side(&mut e), "black");
    // B1 joins A1: one stone ends the turn.
    e.ok("play b B1");
    assert_eq!(last_turn(&mut e), "B[B:B1]");
    e.ok("undo");
    assert_eq!(last_turn(&mut e), "W[W:C1,B:D4]");
    assert_eq!(board(&mut e), "...X\n....\n....\nX.O.");
    // Odd: every stone is a whole turn; the colour of `play` names it.
    let mut e = Engine::start(&["--game", "odd", "--size", "3", "--gogui"]);
    e.ok("play b C3");
    assert_eq!(last_turn(&mut e), "B[B:C3]");
    e.ok("play b A1");
    assert_eq!(last_turn(&mut e), "W[B:A1]");
}

/// Odd with `--gogui-wait`: each turn is one stone, of either colour: the
/// stone waits for a click on it (its colour changes) or Pass.
#[test]
fn gogui_clicks_enter_odd_turns_of_either_colour() {
    let mut e = Engine::start(&["--game", "odd", "--size", "3", "--gogui", "--gogui-wait"]);
    e.ok("play b C3");
    assert_eq!(side(&mut e), "black");
    assert_eq!(legal(&mut e), ["C3", "pass"]);
    assert_eq!(e.fails("play b A1"), "illegal move");
    e.ok("play b C3");
    e.ok("play b pass");
    assert_eq!(last_turn(&mut e), "B[W:C3]");
    assert_eq!(side(&mut e), "white");
    // With nothing waiting there is no pass in Odd.
    assert!(!legal(&mut e).contains(&"pass".into()));
    assert_eq!(e.fails("play w pass"), "illegal move");
    e.ok("play w A1");
    e.ok("play w pass");
    assert_eq!(last_turn(&mut e), "W[W:A1]");
    e.ok("undo");
    e.ok("undo");
    assert_eq!(side(&mut e), "white");
    assert!(!board(&mut e).contains('X'));
    // Yodd: the same on the hex-hex board; a black stone for White waits
    // for a second one.
    let mut e = Engine::start(&["--game", "yodd", "--size", "3", "--gogui", "--gogui-wait"]);
    e.ok("play b C3");
    e.ok("play b pass");
    e.ok("play w A1");
    e.ok("play w A1");
    assert!(!legal(&mut e).contains(&"pass".into()));
    e.ok("play w E5");
    e.ok("play w pass");
    assert_eq!(last_turn(&mut e), "W[B:A1,W:E5]");
}

/// The case: Xodd 9, E5; White E2 and G6; then D5, which could end
/// Black's turn alone, and C5 with it: entered as one two-stone turn with
/// `--gogui-wait`; without it D5 ends the turn.
#[test]
fn gogui_clicks_enter_a_two_stone_turn_whose_first_stone_may_end_it() {
    let args = ["--game", "xodd", "--size", "9", "--gogui", "--gogui-wait"];
    let mut e = Engine::start(&args[..5]);
    for p in ["b E5", "w E2", "w G6", "b D5"] {
        e.ok(&format!("play {p}"));
    }
    assert_eq!(side(&mut e), "white");
    let mut e = Engine::start(&args);
    for p in ["b E5", "b pass", "w E2", "w G6", "w pass", "b D5"] {
        e.ok(&format!("play {p}"));
    }
    assert_eq!(side(&mut e), "black");
    assert!(legal(&mut e).contains(&"pass".into()));
    e.ok("play b C5");
    e.ok("play b pass");
    assert!(e.ok("printsgf").ends_with(";W[W:E2,W:G6]\n;B[B:C5,B:D5])"));
    assert_eq!(side(&mut e), "white");
}

/// The moves a GoGui window sends: the engine asked again for the same
/// seat after a stone that waits (its own included) answers `pass`, ending
/// that turn with the one stone. Plays a game that way and a second engine,
/// as GoGui's ruler, takes the same moves; and a game as gogui-twogtp
/// plays it (seats taking turns, each move sent to the other engine and a
/// referee), where a waiting stone ends its turn when the other seat moves.
#[test]
fn gogui_computer_and_twogtp_play_with_waiting_stones() {
    for (game, size, wait) in [
        ("xodd", "4", true),
        ("yodd", "3", true),
        ("xodd", "4", false),
    ] {
        let all = ["--game", game, "--size", size, "--gogui", "--gogui-wait"];
        let args = if wait { &all[..] } else { &all[..5] };
        // GoGui: the engine plays the side to move, as the ruler says.
        let mut engine = Engine::start(args);
        let mut ruler = Engine::start(args);
        let mut closing = 0;
        let mut last = String::new();
        while ruler.ok("gogui-rules_final_result") == "unknown" {
            let seat = ruler.ok("gogui-rules_side_to_move");
            let v = engine.ok(&format!("genmove {seat}"));
            if v == "pass" && last == format!("{seat} stone") {
                closing += 1;
            }
            last = format!("{seat} {}", if v == "pass" { "pass" } else { "stone" });
            ruler.ok(&format!("play {seat} {v}"));
            assert_eq!(
                ruler.ok("gogui-rules_board"),
                engine.ok("gogui-rules_board")
            );
            assert!(closing < 100, "{game}");
        }
        // Only with --gogui-wait do the engine's own stones wait.
        assert_eq!(closing > 0, wait, "{game}: {closing} closing passes");
        assert_eq!(engine.ok("printsgf"), ruler.ok("printsgf"), "{game}");
        // gogui-twogtp: seats strictly alternate.
        let (mut black, mut white) = (Engine::start(args), Engine::start(args));
        let mut referee = Engine::start(args);
        for k in 0.. {
            let (seat, mover, other) = if k % 2 == 0 {
                ("b", &mut black, &mut white)
            } else {
                ("w", &mut white, &mut black)
            };
            let v = mover.ok(&format!("genmove {seat}"));
            other.ok(&format!("play {seat} {v}"));
            referee.ok(&format!("play {seat} {v}"));
            if referee.ok("gogui-rules_final_result") != "unknown" {
                break;
            }
            assert!(k < 200, "{game}");
        }
        let result = referee.ok("gogui-rules_final_result");
        assert!(
            result.starts_with("B+") || result.starts_with("W+"),
            "{result}"
        );
        assert_eq!(black.ok("final_score"), result, "{game}");
        assert_eq!(white.ok("final_score"), result, "{game}");
    }
}

/// A genmove with a waiting stone of the seat's own that cannot end the
/// turn alone is refused and changes nothing; `reg_genmove` ends a waiting
/// turn without playing; the engine's own waiting stone is taken back by
/// `undo`.
#[test]
fn gogui_genmove_with_a_waiting_stone() {
    let args = ["--game", "xodd", "--size", "4", "--gogui", "--gogui-wait"];
    let mut e = Engine::start(&args);
    e.ok("play b A1");
    e.ok("play w D4");
    assert_eq!(
        e.fails("genmove w"),
        "the waiting stones are not a legal turn"
    );
    assert_eq!(e.ok("gogui-rules_board"), "...O\n....\n....\nX...");
    e.ok("play w B3");
    e.ok("play w pass");
    e.ok("play b A2");
    assert_eq!(e.ok("reg_genmove b"), "pass");
    assert_eq!(e.ok("gogui-rules_side_to_move"), "black");
    assert_eq!(e.ok("genmove b"), "pass");
    assert!(e.ok("printsgf").ends_with(";B[B:A2])"));
    // The engine's stone waits too, and `undo` takes it back.
    let before = e.ok("gogui-rules_board");
    let v = e.ok("genmove w");
    assert_eq!(e.ok("gogui-rules_side_to_move"), "white", "{v}");
    assert_ne!(e.ok("gogui-rules_board"), before, "{v}");
    e.ok("undo");
    assert_eq!(e.ok("gogui-rules_board"), before);
    assert_eq!(e.ok("gogui-rules_side_to_move"), "white");
}

/// With `--gogui-wait` and `turns all` the engine plays every turn, one
/// GoGui move at a time as a person clicks it: its first stone, a move on
/// a stone of the other colour (GoGui asking again), the second stone, and
/// the pass that ends the turn. A second engine as GoGui's ruler takes the
/// same moves and keeps the same game.
#[test]
fn gogui_engine_plays_every_turn_with_waiting_stones() {
    for (game, size) in [("odd", "3"), ("xodd", "4"), ("yodd", "3")] {
        let args = [
            "--game",
            game,
            "--size",
            size,
            "--gogui",
            "--gogui-wait",
            "--param",
            "turns=all",
        ];
        let mut engine = Engine::start(&args);
        let mut ruler = Engine::start(&args);
        let mut moves = 0;
        while ruler.ok("gogui-rules_final_result") == "unknown" {
            let seat = ruler.ok("gogui-rules_side_to_move");
            let v = engine.ok(&format!("genmove {seat}"));
            assert!(!v.contains(':') && !v.contains(','), "{game}: {v}");
            ruler.ok(&format!("play {seat} {v}"));
            assert_eq!(board(&mut ruler), board(&mut engine), "{game}");
            moves += 1;
            assert!(moves < 500, "{game}");
        }
        let sgf = engine.ok("printsgf");
        assert_eq!(sgf, ruler.ok("printsgf"), "{game}");
        // Some turn had a stone of the other colour or two stones.
        let other = sgf.contains(";B[W:") || sgf.contains(";W[B:") || sgf.contains(',');
        assert!(other, "{game}: {sgf}");
    }
}

/// GoGui's "Rules for the next game" dialog: in GoGui mode the listing is
/// GoGui's typed parameter lines (plain values: a text field, a list, a
/// check box), and a value sent back with the listing's help text after
/// it, or quoted, or as the check box's 1/0, is taken.
#[test]
fn gogui_rules_dialog_values_are_plain_and_edited_lines_are_taken() {
    let mut e = Engine::start(&["--gogui"]);
    assert_eq!(
        e.ok("oddity-rules"),
        "[string] min_group default\n[list/standard/open] start standard\n[bool] swap 1"
    );
    e.ok("oddity-rules swap 0");
    assert!(e.ok("oddity-rules").ends_with("[bool] swap 0"));
    e.ok("oddity-rules swap 1");
    e.ok("oddity-rules start open");
    assert!(
        e.ok("oddity-rules")
            .contains("[list/standard/open] start open")
    );
    let mut e = Engine::start(&[]);
    e.ok("oddity-rules swap off (onyx: on|off)");
    assert!(e.ok("oddity-rules").contains("swap off (onyx: on|off)"));
    e.ok("oddity-rules swap \"on (onyx: on|off)\"");
    e.ok("oddity-rules min_group 3 (odd: smallest group that counts; a number or 'default' = the board side)");
    assert!(e.ok("oddity-rules").starts_with("min_group 3 "));
    assert_eq!(e.fails("oddity-rules swap off on"), "syntax error");
    assert_eq!(e.fails("oddity-rules swap"), "syntax error");
}
