//! Training data files (docs/patterns.md): self-play data repeat exactly
//! for a fixed seed with one thread and a visit limit, read back as one
//! decision per position with the search's choice and visit shares, and a
//! bad file is refused with its line number.

use oddity_analysis::self_play::{self, Level, Plan};
use oddity_analysis::train_data::{self, Data, Header, SELF_PLAY, Sample, Target, ValueLabel};
use oddity_patterns::{GROUP_NAMES, NONE};
use oddity_rules::{GameKind, GameSpec, Rules};
use oddity_search::SearchParams;

fn plan(seed: u64) -> Plan {
    Plan {
        spec: GameSpec::new(GameKind::Odd, 4, Rules::default()).unwrap(),
        level: Level::Visits(300),
        games: 2,
        sample_turns: 2,
        params: SearchParams {
            threads: 1,
            seed,
            ..SearchParams::default()
        },
    }
}

/// The file's text and the number of positions written.
fn self_play_text(seed: u64) -> (String, usize) {
    self_play_text_of(&plan(seed))
}

fn self_play_text_of(plan: &Plan) -> (String, usize) {
    let mut out = Vec::new();
    let played = self_play::write(plan, "oddity test", &mut out, &mut |_| {}).unwrap();
    assert_eq!(played.games, 2);
    (String::from_utf8(out).unwrap(), played.positions)
}

fn read(text: &str, target: Target) -> Result<Data, String> {
    train_data::read("data.jsonl", &mut text.as_bytes(), target)
}

/// The engines search with the plan's `--param` settings: the same seed
/// with RAVE off plays other searches, and repeats itself.
#[test]
fn self_play_searches_with_the_plans_params() {
    let mut plain = plan(5);
    plain.params.tuning.set("rave", "off").unwrap();
    let text = self_play_text_of(&plain).0;
    assert_ne!(text, self_play_text(5).0);
    assert_eq!(text, self_play_text_of(&plain).0);
}

#[test]
fn self_play_repeats_for_a_seed_and_reads_back() {
    let (text, positions) = self_play_text(5);
    assert!(positions > 10, "{positions} positions");
    assert_eq!(text, self_play_text(5).0);
    assert_ne!(text, self_play_text(6).0);

    let mut lines = text.lines();
    let header: Header = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(header.source, SELF_PLAY);
    assert_eq!(header.level.as_deref(), Some("visits=300 threads=1"));
    assert_eq!((header.game.as_str(), header.size), ("odd", 4));
    // Each line reads and writes back to the same text.
    for line in lines {
        let sample: Sample = serde_json::from_str(line).unwrap();
        assert_eq!(serde_json::to_string(&sample).unwrap(), line);
        assert!(sample.wins.is_none());
        let visits = sample.visits.unwrap();
        assert!(visits.iter().all(|&(_, n)| n > 0));
        assert!(
            visits
                .iter()
                .any(|(t, _)| Some(t) == sample.chosen.as_ref())
        );
    }

    let data = read(&text, Target::Visits).unwrap();
    assert_eq!(data.decisions.len(), positions);
    for d in &data.decisions {
        assert_eq!(d.wins.iter().filter(|&&w| w).count(), 1);
        let shares = d.shares.as_ref().unwrap();
        assert_eq!(shares.len(), d.candidates.len());
        assert!((shares.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }
    let chosen = read(&text, Target::Chosen).unwrap();
    assert!(chosen.decisions.iter().all(|d| d.shares.is_none()));
    let wins =
        |data: &Data| -> Vec<Vec<bool>> { data.decisions.iter().map(|d| d.wins.clone()).collect() };
    assert_eq!(wins(&data), wins(&chosen));
}

/// Each self-play position names its game's winner: the positions of a
/// game share one, and the value network's reader numbers the games as
/// they were played.
#[test]
fn self_play_positions_name_their_games_winner() {
    let (text, positions) = self_play_text(5);
    let samples: Vec<Sample> = text
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let outcomes =
        train_data::read_outcomes("data.jsonl", &mut text.as_bytes(), 0, ValueLabel::Winner)
            .unwrap();
    assert_eq!(outcomes.positions.len(), positions);
    let games: Vec<usize> = outcomes.positions.iter().map(|(g, _)| *g).collect();
    assert_eq!(games.first(), Some(&0));
    assert_eq!(games.last(), Some(&1));
    for ((g, e), s) in outcomes.positions.iter().zip(&samples) {
        let winner = s.winner.as_deref().unwrap();
        assert_eq!(e.black_wins, winner == "b");
        // One winner per game.
        let first = outcomes.positions.iter().find(|(h, _)| h == g).unwrap();
        assert_eq!(first.1.black_wins, e.black_wins);
    }
    // The first position of each game is the empty board.
    for (k, s) in samples.iter().enumerate() {
        let starts = s.moves.is_empty();
        assert_eq!(starts, k == 0 || games[k] != games[k - 1], "{k}");
    }
    // From the tenth turn on: the games' later positions, numbered alike.
    let late =
        train_data::read_outcomes("data.jsonl", &mut text.as_bytes(), 10, ValueLabel::Winner)
            .unwrap();
    let kept: Vec<usize> = samples
        .iter()
        .enumerate()
        .filter(|(_, s)| s.moves.split_whitespace().count() >= 10)
        .map(|(k, _)| games[k])
        .collect();
    let late_games: Vec<usize> = late.positions.iter().map(|(g, _)| *g).collect();
    assert_eq!(late_games, kept);
    let without = text
        .replace(r#","winner":"b""#, "")
        .replace(r#","winner":"w""#, "");
    let e = train_data::read_outcomes("data.jsonl", &mut without.as_bytes(), 0, ValueLabel::Winner)
        .err()
        .unwrap();
    assert!(
        e.contains("data.jsonl, line 2: the position names no winner"),
        "{e}"
    );
}

/// Each self-play position keeps its search's root value as Black's
/// chance, which the value network's reader takes as the target with
/// `ValueLabel::Search`; the values lean towards the games' winners, and a
/// file without them, or with one out of range, is refused at its line.
#[test]
fn self_play_positions_keep_the_searchs_value_for_black() {
    // Yodd, whose values lean more than Odd's at this level.
    let plan = Plan {
        spec: GameSpec::new(GameKind::Yodd, 4, Rules::default()).unwrap(),
        games: 8,
        sample_turns: 4,
        ..plan(3)
    };
    let mut out = Vec::new();
    self_play::write(&plan, "oddity test", &mut out, &mut |_| {}).unwrap();
    let text = String::from_utf8(out).unwrap();
    let samples: Vec<Sample> = text
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let search =
        train_data::read_outcomes("data.jsonl", &mut text.as_bytes(), 0, ValueLabel::Search)
            .unwrap();
    assert_eq!(search.positions.len(), samples.len());
    let (mut won, mut lost) = (Vec::new(), Vec::new());
    for ((_, e), s) in search.positions.iter().zip(&samples) {
        let value = s.value.unwrap();
        assert!((0.0..=1.0).contains(&value), "{value}");
        assert_eq!(e.target, value as f32);
        if e.black_wins { &mut won } else { &mut lost }.push(value);
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    assert!(!won.is_empty() && !lost.is_empty());
    assert!(
        mean(&won) > mean(&lost) + 0.1,
        "Black's value where Black won {}, where White won {}",
        mean(&won),
        mean(&lost)
    );
    // By the winner the targets are 1 and 0.
    let winner =
        train_data::read_outcomes("data.jsonl", &mut text.as_bytes(), 0, ValueLabel::Winner)
            .unwrap();
    for (_, e) in &winner.positions {
        assert_eq!(e.target, f32::from(u8::from(e.black_wins)));
    }
    let first = samples[0].value.unwrap().to_string();
    let cases = [
        (
            text.replacen(&format!(r#","value":{first}"#), "", 1),
            "the position has no search `value`",
        ),
        (
            text.replacen(&format!(r#""value":{first}"#), r#""value":1.5"#, 1),
            "value 1.5 is not from 0 to 1",
        ),
    ];
    for (bad, why) in cases {
        assert_ne!(bad, text);
        let e = train_data::read_outcomes("data.jsonl", &mut bad.as_bytes(), 0, ValueLabel::Search)
            .err()
            .unwrap();
        assert!(e.contains(&format!("data.jsonl, line 2: {why}")), "{e}");
    }
}

/// Onyx self-play data read back with the Onyx features: every stone has
/// a `capture` value, and White's first position offers the swap.
#[test]
fn onyx_self_play_reads_back_with_its_features() {
    let rules = Rules {
        open_start: true,
        ..Rules::default()
    };
    let plan = Plan {
        spec: GameSpec::new(GameKind::Onyx, 6, rules).unwrap(),
        games: 1,
        ..plan(3)
    };
    let mut out = Vec::new();
    let played = self_play::write(&plan, "oddity test", &mut out, &mut |_| {}).unwrap();
    let data = read(std::str::from_utf8(&out).unwrap(), Target::Visits).unwrap();
    assert_eq!(data.decisions.len(), played.positions);
    assert_eq!(data.ring, 9);
    let capture = GROUP_NAMES.iter().position(|&g| g == "capture").unwrap();
    for d in &data.decisions {
        // Stones have every Onyx group; the swap has only its shape.
        let stones = d.candidates.iter().filter(|f| f[capture] != NONE).count();
        assert!(stones + 1 >= d.candidates.len());
    }
    // White's first position: the swap is the one candidate without groups.
    let second = &data.decisions[1];
    assert_eq!(
        second
            .candidates
            .iter()
            .filter(|f| f[capture] == NONE)
            .count(),
        1
    );
}

#[test]
fn bad_files_are_refused_with_their_line() {
    let header = r#"{"format":"oddity-train-data","version":2,"game":"odd","size":4,"rules":"min_group=4","source":"selfplay","level":"visits=300 threads=1","command":"oddity"}"#;
    let good = r#"{"moves":"B:C3","chosen":"W:D4","visits":[["W:D4",30],["B:A1",10]]}"#;
    assert!(read(&format!("{header}\n{good}\n"), Target::Visits).is_ok());
    let cases = [
        (
            good.replace("W:D4\",30", "W:D4\",0").replace("10", "0"),
            "no visits",
        ),
        (
            good.replace("30", &u64::MAX.to_string()),
            "more visits than a count holds",
        ),
        (good.replace("\"chosen\":\"W:D4\",", ""), "needs `chosen`"),
        (good.replace("B:A1", "W:D4"), "appears twice"),
        (good.replace("B:A1", "B:C3"), "B:C3 is not a legal action"),
        (
            good.replace("\"chosen\"", "\"wins\":[],\"chosen\""),
            "`wins` belongs",
        ),
        (good.replace("B:A1", "B:Z9"), "B:Z9"),
        (good.replace("moves", "mooves"), "unknown field"),
        ("{\"moves\":".into(), "EOF"),
    ];
    for (line, why) in cases {
        let text = format!("{header}\n{good}\n{line}\n");
        let e = read(&text, Target::Visits).unwrap_err();
        assert!(e.starts_with("data.jsonl, line 3: "), "{e}");
        assert!(e.contains(why), "{e} (expected {why})");
    }
    for (bad, why) in [
        (
            header.replace("\"version\":2", "\"version\":3"),
            "version 1 to 2",
        ),
        (header.replace("selfplay", "guesswork"), "unknown source"),
        (
            header.replace("\"version\":2", "\"version\":1"),
            "unknown source `selfplay`",
        ),
    ] {
        let e = read(&format!("{bad}\n{good}\n"), Target::Visits).unwrap_err();
        assert!(e.starts_with("data.jsonl, line 1: "), "{e}");
        assert!(e.contains(why), "{e} (expected {why})");
    }
    // Perfect play's lines take `wins` only.
    let perfect = header.replace("selfplay", "perfect");
    let e = read(&format!("{perfect}\n{good}\n"), Target::Visits).unwrap_err();
    assert!(e.contains("line 2: `chosen` and `visits` belong to self-play data"));
    let wins = r#"{"moves":"B:C3","wins":["W:D4"]}"#;
    assert!(read(&format!("{perfect}\n{wins}\n"), Target::Visits).is_ok());
}
