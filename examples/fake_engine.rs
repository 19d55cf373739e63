//! A small GTP engine for testing `oddity match`: it plays random legal
//! turns with the crate's rules and can misbehave on purpose.
//!
//! `fake_engine [--mode MODE] [--after N] [--delay-ms D] [--seed S]`
//! MODE: random (default), crash (exit during the Nth genmove), hang (never
//! answer the Nth genmove), illegal (answer the Nth genmove with a move on an
//! occupied point), malformed (an unreadable token), garbage (a line that is
//! not GTP), exit (exit at start, before reading anything), slow (wait D ms
//! before every genmove answer), resign (resign at the Nth genmove).
//! Every command received is echoed to stderr as `got: COMMAND`.

use std::io::{BufRead, Write};

use oddity_rules::{AnyGame, Colour, GameKind, GameSpec, Rng, Rules, Turn};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut mode = "random".to_string();
    let mut after = 3u32;
    let mut delay_ms = 0u64;
    let mut seed = std::process::id() as u64;
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--mode" => mode = value,
            "--after" => after = value.parse().expect("--after N"),
            "--delay-ms" => delay_ms = value.parse().expect("--delay-ms D"),
            "--seed" => seed = value.parse().expect("--seed S"),
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    if mode == "exit" {
        std::process::exit(2);
    }
    let mut rng = Rng::seeded(seed);
    let mut kind = GameKind::Xodd;
    let mut size: Option<usize> = None;
    let mut rules = Rules::default();
    let make = |kind: GameKind, size: Option<usize>, rules: Rules| {
        let spec = GameSpec::new(kind, size.unwrap_or(kind.default_size()), rules).ok()?;
        Some(AnyGame::new(&spec))
    };
    let mut game = make(kind, size, rules).expect("default game");
    let mut genmoves = 0u32;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let line = line.split('#').next().unwrap_or("").trim().to_string();
        if line.is_empty() {
            continue;
        }
        let mut words: Vec<&str> = line.split_whitespace().collect();
        let id = if words[0].chars().all(|c| c.is_ascii_digit()) {
            words.remove(0).to_string()
        } else {
            String::new()
        };
        let Some(&cmd) = words.first() else { continue };
        eprintln!("got: {}", words.join(" "));
        let arg = |k: usize| words.get(k).copied().unwrap_or("");
        let mut reply: Result<String, String> = Ok(String::new());
        match cmd {
            "protocol_version" => reply = Ok("2".into()),
            "name" => reply = Ok("fake_engine".into()),
            "version" => reply = Ok(mode.clone()),
            "quit" => {
                let _ = write!(out, "={id}\n\n");
                let _ = out.flush();
                return;
            }
            "komi" | "time_settings" | "time_left" => {}
            "oddity-game" => match GameKind::parse(arg(1)) {
                Some(k) => {
                    kind = k;
                    size = None;
                    game = make(kind, size, rules).expect("default size");
                }
                None => reply = Err("unknown game".into()),
            },
            "boardsize" => match arg(1).parse().ok().and_then(|n| make(kind, Some(n), rules)) {
                Some(g) => {
                    size = arg(1).parse().ok();
                    game = g;
                }
                None => reply = Err("unacceptable size".into()),
            },
            "oddity-rules" => {
                match (arg(1), arg(2)) {
                    ("min_group", n) => rules.min_group = n.parse().ok(),
                    ("start", s) => rules.open_start = s == "open",
                    ("swap", s) => rules.swap = s == "on",
                    _ => reply = Err("syntax error".into()),
                }
                if let Some(g) = make(kind, size, rules) {
                    game = g;
                }
            }
            "clear_board" => game = make(kind, size, rules).expect("valid game"),
            "play" => {
                let seat = Colour::parse(arg(1));
                reply = match seat {
                    None => Err("syntax error".into()),
                    Some(seat) => {
                        if game.to_move() != seat {
                            game.set_to_move(seat);
                        }
                        match game.parse_turn(arg(2)) {
                            Ok(Turn::Resign) => Ok(String::new()),
                            Ok(turn) => game
                                .play_turn(&turn)
                                .map(|_| String::new())
                                .map_err(|_| "illegal move".to_string()),
                            Err(_) => Err("syntax error".into()),
                        }
                    }
                };
            }
            "genmove" => {
                genmoves += 1;
                let seat = Colour::parse(arg(1)).unwrap_or(Colour::Black);
                if game.to_move() != seat {
                    game.set_to_move(seat);
                }
                let fault = genmoves >= after;
                if mode == "slow" {
                    std::thread::sleep(std::time::Duration::from_millis(delay_ms));
                }
                if fault {
                    match mode.as_str() {
                        "crash" => std::process::exit(3),
                        "hang" => loop {
                            std::thread::sleep(std::time::Duration::from_secs(3600));
                        },
                        "garbage" => {
                            let _ = writeln!(out, "thinking... best move is somewhere");
                            let _ = out.flush();
                            continue;
                        }
                        "malformed" => {
                            let _ = write!(out, "={id} Z:Q99,,\n\n");
                            let _ = out.flush();
                            continue;
                        }
                        "resign" => {
                            let _ = write!(out, "={id} resign\n\n");
                            let _ = out.flush();
                            continue;
                        }
                        "illegal" => {
                            let topo = game.topology();
                            let occupied = topo
                                .cells()
                                .iter()
                                .copied()
                                .find(|&c| game.stone_at(c).is_some());
                            let token = match occupied {
                                Some(c) if kind == GameKind::Onyx => topo.name(c).to_string(),
                                Some(c) => format!("{}:{}", seat.letter(), topo.name(c)),
                                None => "pass".into(),
                            };
                            let _ = write!(out, "={id} {token}\n\n");
                            let _ = out.flush();
                            continue;
                        }
                        _ => {}
                    }
                }
                let turns: Vec<Turn> = game.legal_turns();
                let stones: Vec<Turn> = turns
                    .iter()
                    .copied()
                    .filter(|t| !matches!(t, Turn::Pass | Turn::Resign))
                    .collect();
                let pool = if stones.is_empty() { turns } else { stones };
                reply = if pool.is_empty() {
                    Err("no legal move".into())
                } else {
                    let turn = pool[rng.below(pool.len() as u32) as usize];
                    let token = game.token(&turn);
                    game.play_turn(&turn).expect("legal");
                    Ok(token)
                };
            }
            _ => reply = Err("unknown command".into()),
        }
        let _ = match reply {
            Ok(text) if text.is_empty() => write!(out, "={id}\n\n"),
            Ok(text) => write!(out, "={id} {text}\n\n"),
            Err(text) => write!(out, "?{id} {text}\n\n"),
        };
        let _ = out.flush();
    }
}
