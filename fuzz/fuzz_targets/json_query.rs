//! The whole `oddity analysis` loop ([`serve`]: the reader, the queue of
//! positions, the actions, `terminate`) on any bytes as its input, once
//! with one worker and once with two. Checked (docs/analysis.md):
//!
//! - it returns, and every answer is one JSON object with an `id`;
//! - every error and warning is one line with no character that breaks or
//!   hides text (what it quotes of the input is escaped);
//! - every line that is not blank is answered: an action or a bad line by
//!   one line, a query by one final answer per position (after any interim
//!   ones);
//! - `noResults` comes only for a position that a `terminate` or
//!   `terminate_all` read after its query covers, and after that action's
//!   acknowledgement;
//! - with one worker and equal priorities, the queued work is answered in
//!   input order.
//!
//! Lines asking for long searches or proofs, and Odd positions valued by a
//! retrograde table before any search, are left out of the input
//! (searching is not what is fuzzed here).
#![no_main]

use std::collections::BTreeMap;
use std::num::NonZeroUsize;

use libfuzzer_sys::fuzz_target;
use oddity_analysis::batch::{Request, request_raw};
use oddity_analysis::query::{Defaults, Viewpoint};
use oddity_analysis::queue::{QUERY_LIMIT, serve};
use oddity_analysis::result::Settings;
use oddity_lines::LineReader;
use oddity_rules::{GameKind, internals::is_one_line};
use serde_json::Value;

/// Whether a query line asks for more search than a fuzz run can give.
fn costly(line: &[u8]) -> bool {
    let Ok(Value::Object(query)) = serde_json::from_slice::<Value>(line) else {
        return false;
    };
    let number = |field: &str| query.get(field).and_then(Value::as_f64);
    let turns = query
        .get("analyzeTurns")
        .and_then(Value::as_array)
        .map_or(1, Vec::len);
    let (proof_time, proof_nodes) = (number("proofTime"), number("proofNodes"));
    let short_proof =
        proof_time.is_some_and(|t| t <= 0.05) || proof_nodes.is_some_and(|n| n <= 1000.0);
    number("maxTime").is_some()
        || valued_by_table(&query)
        || number("maxVisits").is_some_and(|v| v > 50.0)
        || turns > 20
        || ((proof_time.is_some() || proof_nodes.is_some()) && !short_proof)
}

/// Whether a query's position is one of Odd that the engine values by a
/// retrograde table before searching, whatever its visits: at most
/// `endgame_table` (18) empty points on a board of more than 12 cells, up
/// to 3^18 positions, seconds in a fuzz build. (Odd 2's proven answers
/// stay in.)
fn valued_by_table(query: &serde_json::Map<String, Value>) -> bool {
    let odd = query
        .get("game")
        .and_then(Value::as_str)
        .is_some_and(|g| g.eq_ignore_ascii_case("odd"));
    let side = query
        .get("size")
        .and_then(Value::as_f64)
        .unwrap_or(GameKind::Odd.default_size() as f64);
    let cells = 3.0 * side * (side - 1.0) + 1.0;
    let listed = |field: &str| {
        query
            .get(field)
            .and_then(Value::as_array)
            .map_or(0, Vec::len)
    };
    let stones = (listed("moves") + listed("initialStones")) as f64;
    odd && cells > 12.0 && cells - stones <= 18.0
}

/// An answer's key: its `id` as JSON text and its `turnNumber`, if any.
type Key = (String, Option<usize>);

fn key(id: &Value, turn: Option<usize>) -> Key {
    (id.to_string(), turn)
}

/// A job the input queues: a position to analyse or an error line.
struct Queued {
    id: Value,
    turn: Option<usize>,
    priority: i64,
    /// A `terminate` read after it covers it.
    terminable: bool,
}

/// Whether a `terminate` of `target` (all when `None`), of `turns` only
/// when given, covers the position `turn` of query `id`.
fn covers(target: Option<&Value>, turns: Option<&[usize]>, id: &Value, turn: usize) -> bool {
    target.is_none_or(|t| t == id) && turns.is_none_or(|ts| ts.contains(&turn))
}

/// What the loop owes for `input`, each line read as `serve` reads it
/// (what is checked here is the loop, not the reading of one line): the
/// final answers it must give, by key, and the jobs in input order.
fn owed(input: &[u8], defaults: &Defaults) -> (BTreeMap<Key, usize>, Vec<Queued>) {
    let mut finals = BTreeMap::new();
    let mut jobs: Vec<Queued> = Vec::new();
    for line in LineReader::new(input, QUERY_LIMIT) {
        let blank = line.text().is_ok_and(|t| t.trim().is_empty());
        let request = request_raw(&line, defaults);
        assert_eq!(
            matches!(request, Request::Nothing),
            blank,
            "{:?}",
            line.lossy()
        );
        match request {
            Request::Nothing => {}
            Request::Now(reply) => {
                let reply: Value = serde_json::from_str(&reply).unwrap();
                *finals.entry(key(&reply["id"], None)).or_default() += 1;
            }
            Request::Terminate { id, turns, reply } => {
                let reply: Value = serde_json::from_str(&reply).unwrap();
                *finals.entry(key(&reply["id"], None)).or_default() += 1;
                for job in &mut jobs {
                    if let Some(turn) = job.turn
                        && covers(id.as_ref(), turns.as_deref(), &job.id, turn)
                    {
                        job.terminable = true;
                    }
                }
            }
            Request::Jobs(new) => {
                assert!(!new.is_empty(), "{:?}", line.lossy());
                for job in new {
                    *finals.entry(key(&job.id, job.turn)).or_default() += 1;
                    jobs.push(Queued {
                        id: job.id,
                        turn: job.turn,
                        priority: job.priority,
                        terminable: false,
                    });
                }
            }
        }
    }
    (finals, jobs)
}

/// Checks what `serve` wrote against what it owed.
fn check(output: Vec<u8>, finals: &BTreeMap<Key, usize>, jobs: &[Queued], one_worker: bool) {
    let text = String::from_utf8(output).expect("answers are UTF-8");
    assert!(text.is_empty() || text.ends_with('\n'), "{text}");
    let mut given: BTreeMap<Key, usize> = BTreeMap::new();
    // The jobs' final answers in the order written.
    let mut order = Vec::new();
    let mut acks: Vec<Value> = Vec::new();
    let mut no_results: BTreeMap<Key, usize> = BTreeMap::new();
    for line in text.lines() {
        let answer: Value = serde_json::from_str(line).expect("answers are JSON");
        assert!(answer.is_object(), "{line}");
        let texts = answer.get("error").into_iter().chain(
            answer
                .get("warnings")
                .and_then(Value::as_array)
                .into_iter()
                .flatten(),
        );
        for text in texts {
            assert!(text.as_str().is_some_and(is_one_line), "{line}");
        }
        let id = answer.get("id").expect("answers have an id");
        let turn = answer
            .get("turnNumber")
            .map(|t| t.as_u64().expect("turn numbers are numbers") as usize);
        if answer["isDuringSearch"] == true {
            assert!(
                jobs.iter()
                    .any(|j| j.turn.is_some() && key(&j.id, j.turn) == key(id, turn)),
                "an interim answer of no position: {line}"
            );
            continue;
        }
        *given.entry(key(id, turn)).or_default() += 1;
        match answer.get("action").and_then(Value::as_str) {
            Some("terminate" | "terminate_all") => acks.push(answer.clone()),
            Some(_) => {}
            None => order.push(key(id, turn)),
        }
        if answer.get("noResults").is_some() {
            assert_eq!(answer["noResults"], true, "{line}");
            let turn = turn.expect("noResults has a turnNumber");
            *no_results.entry(key(id, Some(turn))).or_default() += 1;
            let acknowledged = acks.iter().any(|ack| {
                let turns: Option<Vec<usize>> = ack
                    .get("turnNumbers")
                    .map(|t| serde_json::from_value(t.clone()).unwrap());
                covers(ack.get("terminateId"), turns.as_deref(), id, turn)
            });
            assert!(acknowledged, "noResults before its terminate: {line}");
        }
    }
    assert_eq!(&given, finals, "final answers by (id, turnNumber)");
    for (k, n) in &no_results {
        let terminable = jobs
            .iter()
            .filter(|j| j.terminable && key(&j.id, j.turn) == *k)
            .count();
        assert!(*n <= terminable, "noResults for {k:?} never terminated");
    }
    if one_worker && jobs.windows(2).all(|w| w[0].priority == w[1].priority) {
        let input_order: Vec<Key> = jobs.iter().map(|j| key(&j.id, j.turn)).collect();
        assert_eq!(order, input_order, "answers out of input order");
    }
}

fuzz_target!(|data: &[u8]| {
    let defaults = Defaults {
        settings: {
            let mut settings = Settings::default();
            settings.engine.set("visits", "20").expect("20 visits");
            settings.engine.set("threads", "1").expect("one thread");
            settings
        },
        viewpoint: Viewpoint::SideToMove,
    };
    let input = data
        .split(|&b| b == b'\n')
        .filter(|line| !costly(line))
        .collect::<Vec<_>>()
        .join(&b'\n');
    let (finals, jobs) = owed(&input, &defaults);
    for workers in [1, 2] {
        let mut output = Vec::new();
        serve(
            &input[..],
            &mut output,
            &defaults,
            NonZeroUsize::new(workers).unwrap(),
        );
        check(output, &finals, &jobs, workers == 1);
    }
});
