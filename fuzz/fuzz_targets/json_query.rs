//! `oddity analysis` on any bytes: lines are read as the command reads
//! them, and every line that is not blank gets at least one answer, each
//! one JSON object with an `id`. Queries asking for long searches are
//! skipped (searching is not what is fuzzed here).
#![no_main]

use libfuzzer_sys::fuzz_target;
use oddity::analysis::batch::{Defaults, Viewpoint, answer_raw};
use oddity::analysis::result::Settings;
use oddity::lines::LineReader;
use serde_json::Value;

/// Whether a query line asks for more search than a fuzz run can give.
fn costly(line: &[u8]) -> bool {
    let Ok(Value::Object(query)) = serde_json::from_slice::<Value>(line) else {
        return false;
    };
    let visits = query.get("maxVisits").and_then(Value::as_f64);
    let turns = query
        .get("analyzeTurns")
        .and_then(Value::as_array)
        .map_or(1, Vec::len);
    query.contains_key("maxTime") || visits.is_some_and(|v| v > 50.0) || turns > 20
}

fuzz_target!(|data: &[u8]| {
    let defaults = Defaults {
        settings: Settings {
            visits: Some(20),
            threads: 1,
            ..Settings::default()
        },
        viewpoint: Viewpoint::SideToMove,
    };
    for line in LineReader::new(data, 1 << 16) {
        if costly(&line.bytes) {
            continue;
        }
        let answers = answer_raw(&line, &defaults);
        let blank = line.text().is_ok_and(|t| t.trim().is_empty());
        assert_eq!(answers.is_empty(), blank, "{:?}", line.lossy());
        for a in answers {
            let value: Value = serde_json::from_str(&a).expect("answers are JSON");
            assert!(value.get("id").is_some(), "{a}");
        }
    }
});
