//! Analysis lines as engines stream them (`kata-analyze`,
//! `genmove_analyze`): `info move T visits N winrate F ... pv T T ...`,
//! repeated for each candidate, read into the session's candidates.

use oddity_session::Candidate;

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
                        "winrate" => c.winrate = win_rate(value),
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

/// A win rate as written, kept within 0..1 (0 when it is not a finite
/// number).
fn win_rate(value: &str) -> f64 {
    value
        .parse::<f64>()
        .ok()
        .filter(|w| w.is_finite())
        .map_or(0.0, |w| w.clamp(0.0, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use oddity_gtp::Params;
    use oddity_gtp::analyze::{Format, info_line};
    use oddity_gtp::think::{Limits, StopFlag, Thinker};
    use oddity_rules::{AnyGame, GameKind, GameRecord, GameSpec};

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

    /// A win rate that is not a number in 0..1 is kept within it.
    #[test]
    fn win_rates_out_of_range_are_bounded() {
        let rates = |line: &str| -> Vec<f64> {
            parse_info(line)
                .unwrap()
                .iter()
                .map(|c| c.winrate)
                .collect()
        };
        assert_eq!(
            rates(
                "info move B:A1 winrate NaN info move B:A2 winrate inf info move B:A3 winrate -2 info move B:A4 winrate 7 info move B:A5 winrate x"
            ),
            vec![0.0, 0.0, 0.0, 1.0, 0.0]
        );
    }

    /// What this engine's own protocol writes reads back as it was meant.
    #[test]
    fn reads_what_the_protocol_writes() {
        let spec = GameSpec::new(GameKind::Yodd, 3, Default::default()).unwrap();
        let record = GameRecord::new(AnyGame::new(&spec));
        let mut params = Params::default();
        params.engine.params.threads = 1;
        let limits = Limits {
            visits: Some(400),
            ..Limits::default()
        };
        let report =
            Thinker::new(&params.engine.params).think(&record, &limits, &StopFlag::new(), None);
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
