//! Analysis lines as engines stream them (`kata-analyze`,
//! `genmove_analyze`): `info move T visits N winrate F ... pv T T ...`,
//! repeated for each candidate.

use serde::Serialize;

/// One candidate turn of an engine's analysis.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Candidate {
    pub token: String,
    pub visits: u64,
    /// Win rate of the seat analysed, 0..1.
    pub winrate: f64,
    pub pv: Vec<String>,
}

/// Reads an analysis line with decimal win rates (KataGo's format). Unknown
/// fields are skipped (each is taken as a name and one value); `None` when
/// the line has no candidate.
pub fn parse_info(line: &str) -> Option<Vec<Candidate>> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if words[i] != "info" {
            i += 1;
            continue;
        }
        i += 1;
        let mut c = Candidate {
            token: String::new(),
            visits: 0,
            winrate: 0.0,
            pv: Vec::new(),
        };
        while i < words.len() && words[i] != "info" {
            match words[i] {
                "pv" => {
                    i += 1;
                    while i < words.len() && words[i] != "info" {
                        c.pv.push(words[i].to_string());
                        i += 1;
                    }
                }
                key => {
                    let value = words.get(i + 1).copied().unwrap_or("");
                    match key {
                        "move" => c.token = value.to_string(),
                        "visits" => c.visits = value.parse().unwrap_or(0),
                        "winrate" => c.winrate = value.parse().unwrap_or(0.0),
                        _ => {}
                    }
                    i += 2;
                }
            }
        }
        if !c.token.is_empty() {
            out.push(c);
        }
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gtp::Params;
    use crate::gtp::analyze::{Format, info_line};
    use crate::gtp::think::{Limits, StopFlag, Thinker};
    use crate::rules::game::GameSpec;
    use crate::rules::kind::GameKind;
    use crate::rules::position::AnyGame;
    use crate::rules::record::GameRecord;

    #[test]
    fn reads_analysis_lines() {
        let line = "info move B:E5 visits 120 winrate 0.543300 prior 0 lcb 0.45 order 0 \
                    pv B:E5 W:D4 info move W:C3 visits 80 winrate 0.5 newfield 7 order 1 pv W:C3";
        let c = parse_info(line).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].token, "B:E5");
        assert_eq!(c[0].visits, 120);
        assert!((c[0].winrate - 0.5433).abs() < 1e-9);
        assert_eq!(c[0].pv, vec!["B:E5", "W:D4"]);
        assert_eq!(c[1].token, "W:C3");
        assert_eq!(c[1].pv, vec!["W:C3"]);
        assert!(parse_info("").is_none());
        assert!(parse_info("play B:E5").is_none());
    }

    /// What this engine's own protocol writes reads back as it was meant.
    #[test]
    fn reads_what_the_protocol_writes() {
        let spec = GameSpec::new(GameKind::Yodd, 3, Default::default()).unwrap();
        let record = GameRecord::new(AnyGame::new(&spec));
        let params = Params {
            threads: 1,
            visits: Some(400),
            ..Params::default()
        };
        let limits = Limits {
            visits: Some(400),
            ..Limits::default()
        };
        let report = Thinker::new(&params).think(&record, &limits, &StopFlag::new(), None);
        let pos = record.position();
        let read = parse_info(&info_line(pos, &report, Format::Kata, None)).unwrap();
        let written: Vec<_> = report.candidates.iter().filter(|c| c.visits > 0).collect();
        assert_eq!(read.len(), written.len());
        for (r, w) in read.iter().zip(written) {
            assert_eq!(r.token, pos.token(&w.turn));
            assert_eq!(r.visits, w.visits);
            assert!((r.winrate - w.value).abs() < 1e-6);
            assert_eq!(r.pv[0], r.token);
        }
    }
}
