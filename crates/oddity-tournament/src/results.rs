//! Results files (one JSON object per line and game) and the summary that
//! is computed from them: the live progress line, the final table, `--json`.

use std::collections::{BTreeMap, HashMap};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::stats::{Sprt, Verdict, elo_with_error, los};
use oddity_rules::GameKind;
use oddity_rules::internals::{Escaped, escaped};

/// Reason of a game that hit the runner's length cap. The rules have no such
/// limit; the game has no result and is left out of all statistics.
pub const LENGTH_CAP: &str = "length cap (not a rule)";

/// Reasons that are an engine's fault (the loser's).
pub const FAULTS: [&str; 7] = [
    "crash",
    "timeout",
    "time forfeit",
    "garbage output",
    "protocol error",
    "illegal move",
    "malformed move",
];

/// Seconds each seat spent thinking (`genmove` round trips).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TimeUsed {
    pub black: f64,
    pub white: f64,
}

/// One finished game, as written to the results file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// Stable schedule id `p{pairing}.r{round}.{a|b}`.
    pub id: String,
    /// Index of the game pair in the whole schedule.
    pub pair: usize,
    /// Engine names by seat; `black` moves first.
    pub black: String,
    pub white: String,
    /// The winning engine, or `null` for a game without result.
    pub winner: Option<String>,
    /// `b`, `w` or `null`.
    pub winner_seat: Option<String>,
    /// `rules`, `resignation`, a fault (see [`FAULTS`]) or [`LENGTH_CAP`].
    pub reason: String,
    /// Free text: the final group counts, the fault's details.
    #[serde(default)]
    pub detail: String,
    /// The game, by name in the file.
    #[serde(with = "game_name")]
    pub game: GameKind,
    pub size: usize,
    #[serde(default)]
    pub rules: String,
    /// Opening turns played by the referee before the engines took over.
    pub opening: Vec<String>,
    /// Every turn of the game from the start, the opening included.
    pub turns: Vec<String>,
    pub time_used: TimeUsed,
    /// Unix time (seconds) when the game ended.
    #[serde(default)]
    pub finished: u64,
    /// The build of each seat's engine as the engine names itself over GTP
    /// (`name` and `version`: `oddity 0.1.0 (88c9764)`); absent where it
    /// did not say, and in records made before builds were kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_build: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_build: Option<String>,
    /// The command line that played the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
}

/// A game in a results file: its name (`odd`), read in any letter case.
mod game_name {
    use oddity_rules::GameKind;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(kind: &GameKind, out: S) -> Result<S::Ok, S::Error> {
        out.serialize_str(kind.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(input: D) -> Result<GameKind, D::Error> {
        let name = String::deserialize(input)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

impl GameResult {
    /// The pairing's engines in schedule order (first, second).
    pub fn pairing(&self) -> (&str, &str) {
        if self.id.ends_with(".b") {
            (&self.white, &self.black)
        } else {
            (&self.black, &self.white)
        }
    }

    pub fn loser(&self) -> Option<&str> {
        let w = self.winner.as_deref()?;
        Some(if w == self.black {
            &self.white
        } else {
            &self.black
        })
    }
}

/// Appends lines to a results file, flushing each to disk at once.
pub struct ResultsWriter {
    file: File,
}

impl ResultsWriter {
    pub fn open(path: &Path) -> std::io::Result<ResultsWriter> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(ResultsWriter { file })
    }

    pub fn append(&mut self, result: &GameResult) -> std::io::Result<()> {
        let mut line = serde_json::to_string(result).map_err(std::io::Error::other)?;
        line.push('\n');
        self.file.write_all(line.as_bytes())?;
        self.file.flush()?;
        self.file.sync_data()
    }
}

/// Appends SGF game trees to one file (an SGF collection).
pub struct SgfWriter {
    file: File,
}

impl SgfWriter {
    pub fn open(path: &Path) -> std::io::Result<SgfWriter> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(SgfWriter { file })
    }

    pub fn append(&mut self, sgf: &str) -> std::io::Result<()> {
        self.file.write_all(sgf.as_bytes())?;
        self.file.flush()?;
        self.file.sync_data()
    }
}

/// Why a results file could not be read or merged.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    #[error("cannot read results file {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} line {line}: {why}", path.display())]
    BadLine {
        path: PathBuf,
        line: usize,
        why: String,
    },
    #[error(
        "game {} appears with different engines or games ({} vs {} in {} / {} vs {} in {}): \
         are these files from the same tournament?",
        Escaped(id), Escaped(&first.black), Escaped(&first.white), first.game,
        Escaped(&second.black), Escaped(&second.white), second.game
    )]
    Conflict {
        id: String,
        first: Box<GameResult>,
        second: Box<GameResult>,
    },
}

/// Reads a results file. A last line cut short by a kill is skipped with a
/// warning; a bad line elsewhere is an error.
pub fn read_results(path: &Path) -> Result<Vec<GameResult>, ResultsError> {
    let bytes = std::fs::read(path).map_err(|source| ResultsError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let (results, unfinished) = parse_results(&bytes, path)?;
    if let Some(why) = unfinished {
        eprintln!(
            "warning: {}: ignoring the unfinished last line ({why})",
            path.display()
        );
    }
    Ok(results)
}

/// The games of a results file's bytes (`path` names it in errors), and
/// why its last line was skipped when a kill left it unfinished (no
/// newline after it and not a whole record).
pub fn parse_results(
    bytes: &[u8],
    path: &Path,
) -> Result<(Vec<GameResult>, Option<String>), ResultsError> {
    let count = oddity_lines::numbered(bytes).count();
    let mut out = Vec::new();
    let mut unfinished = None;
    for (n, line) in oddity_lines::numbered(bytes) {
        let parsed = line
            .map_err(|e| e.to_string())
            .and_then(|line| match line.trim() {
                "" => Ok(None),
                line => serde_json::from_str::<GameResult>(line)
                    .map(Some)
                    .map_err(|e| escaped(&e.to_string())),
            });
        match parsed {
            Ok(r) => out.extend(r),
            Err(why) if n == count && !bytes.ends_with(b"\n") => unfinished = Some(why),
            Err(why) => {
                return Err(ResultsError::BadLine {
                    path: path.to_path_buf(),
                    line: n,
                    why,
                });
            }
        }
    }
    Ok((out, unfinished))
}

/// Cuts a last line left unfinished by a killed run, so that appended
/// results start on a line of their own. Returns whether it cut anything.
pub fn repair_tail(path: &Path) -> std::io::Result<bool> {
    let bytes = std::fs::read(path)?;
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        return Ok(false);
    }
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let file = OpenOptions::new().write(true).open(path)?;
    file.set_len(keep as u64)?;
    file.sync_all()?;
    Ok(true)
}

/// Reads and merges results files (the shards of one tournament), keeping
/// the first copy of each game id. Returns the merged list and the number
/// of duplicates dropped; two different results under one id (files from
/// different tournaments) are an error.
pub fn merge_files(paths: &[PathBuf]) -> Result<(Vec<GameResult>, usize), ResultsError> {
    let mut seen: HashMap<String, GameResult> = HashMap::new();
    let mut out = Vec::new();
    let mut duplicates = 0;
    for path in paths {
        for r in read_results(path)? {
            if let Some(old) = seen.get(&r.id) {
                if old.black != r.black || old.white != r.white || old.game != r.game {
                    return Err(ResultsError::Conflict {
                        id: r.id.clone(),
                        first: Box::new(old.clone()),
                        second: Box::new(r),
                    });
                }
                duplicates += 1;
                continue;
            }
            seen.insert(r.id.clone(), r.clone());
            out.push(r);
        }
    }
    out.sort_by_key(|r| (r.pair, r.id.clone()));
    Ok((out, duplicates))
}

/// Wins and losses of a pairing's first engine, seat by seat.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PairStats {
    pub first: String,
    pub second: String,
    pub games: u64,
    pub wins: u64,
    pub losses: u64,
    pub no_result: u64,
    /// The first engine's wins/losses in the first seat (b) and second seat (w).
    pub first_as_black: [u64; 2],
    pub first_as_white: [u64; 2],
    /// Complete game pairs by the first engine's points: 0, 0.5, .., 2.
    pub penta: [u64; 5],
}

/// Everything the tables show.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub pairs: Vec<PairStats>,
    pub games: u64,
    pub no_result: u64,
    pub black_wins: u64,
    pub white_wins: u64,
    pub reasons: BTreeMap<String, u64>,
    /// engine -> fault reason -> count.
    pub faults: BTreeMap<String, BTreeMap<String, u64>>,
}

impl Summary {
    /// Summarises results; `order` lists the pairings (first, second) in
    /// display order (pairings found only in the results follow).
    pub fn new(results: &[GameResult], order: &[(String, String)]) -> Summary {
        let mut s = Summary::default();
        let mut index: HashMap<(String, String), usize> = HashMap::new();
        for (a, b) in order {
            index.insert((a.clone(), b.clone()), s.pairs.len());
            s.pairs.push(PairStats {
                first: a.clone(),
                second: b.clone(),
                ..Default::default()
            });
        }
        let mut by_pair: HashMap<usize, Vec<&GameResult>> = HashMap::new();
        for r in results {
            let (a, b) = r.pairing();
            let key = (a.to_string(), b.to_string());
            let i = *index.entry(key).or_insert_with(|| {
                s.pairs.push(PairStats {
                    first: a.to_string(),
                    second: b.to_string(),
                    ..Default::default()
                });
                s.pairs.len() - 1
            });
            let p = &mut s.pairs[i];
            p.games += 1;
            s.games += 1;
            *s.reasons.entry(r.reason.clone()).or_default() += 1;
            let Some(winner) = r.winner.as_deref() else {
                p.no_result += 1;
                s.no_result += 1;
                continue;
            };
            if winner == r.black {
                s.black_wins += 1;
            } else {
                s.white_wins += 1;
            }
            let first_won = winner == a;
            let seat = if r.black == a {
                &mut p.first_as_black
            } else {
                &mut p.first_as_white
            };
            if first_won {
                p.wins += 1;
                seat[0] += 1;
            } else {
                p.losses += 1;
                seat[1] += 1;
            }
            if FAULTS.contains(&r.reason.as_str())
                && let Some(loser) = r.loser()
            {
                *s.faults
                    .entry(loser.to_string())
                    .or_default()
                    .entry(r.reason.clone())
                    .or_default() += 1;
            }
            by_pair.entry(r.pair).or_default().push(r);
        }
        for games in by_pair.values() {
            if games.len() != 2 {
                continue;
            }
            let (a, b) = games[0].pairing();
            let points = games
                .iter()
                .filter(|g| g.winner.as_deref() == Some(a))
                .count();
            let i = index[&(a.to_string(), b.to_string())];
            s.pairs[i].penta[2 * points] += 1;
        }
        s
    }

    /// One line for the live display: games played and the standings.
    pub fn progress(&self, total: usize) -> String {
        format!("games {}/{}{}", self.games, total, self.standings())
    }

    /// The first pairings' scores, each after ` | `.
    pub fn standings(&self) -> String {
        let mut line = String::new();
        for p in self.pairs.iter().take(3) {
            line.push_str(&format!(
                " | {} vs {} {}-{}",
                p.first, p.second, p.wins, p.losses
            ));
            if let Some((elo, err)) = elo_with_error(p.wins, p.losses) {
                line.push_str(&format!(
                    " {:.1}% Elo {}",
                    100.0 * p.wins as f64 / (p.wins + p.losses) as f64,
                    fmt_elo(elo, err)
                ));
            }
        }
        if self.pairs.len() > 3 {
            line.push_str(" | …");
        }
        line
    }

    /// The final table.
    pub fn table(&self, sprt: Option<&Sprt>) -> String {
        let mut out = String::new();
        let name_width = self
            .pairs
            .iter()
            .map(|p| p.first.len() + p.second.len() + 4)
            .max()
            .unwrap_or(10)
            .max(12);
        out.push_str(&format!(
            "{:<name_width$}  {:>5}  {:>9}  {:>6}  {:>16}  {:>6}  {:>9}  {:>9}\n",
            "pairing", "games", "W-L", "score", "Elo (95%)", "LOS", "as b W-L", "as w W-L"
        ));
        for p in &self.pairs {
            let decided = p.wins + p.losses;
            let score = if decided > 0 {
                format!("{:.1}%", 100.0 * p.wins as f64 / decided as f64)
            } else {
                "-".into()
            };
            let elo = match elo_with_error(p.wins, p.losses) {
                Some((e, err)) => fmt_elo(e, err),
                None => "-".into(),
            };
            out.push_str(&format!(
                "{:<name_width$}  {:>5}  {:>9}  {:>6}  {:>16}  {:>6}  {:>9}  {:>9}\n",
                format!("{} vs {}", p.first, p.second),
                p.games,
                format!("{}-{}", p.wins, p.losses),
                score,
                elo,
                format!("{:.1}%", 100.0 * los(p.wins, p.losses)),
                format!("{}-{}", p.first_as_black[0], p.first_as_black[1]),
                format!("{}-{}", p.first_as_white[0], p.first_as_white[1]),
            ));
            let pairs: u64 = p.penta.iter().sum();
            if pairs > 0 {
                out.push_str(&format!(
                    "{:<name_width$}  pairs {pairs}, pentanomial [0, 0.5, 1, 1.5, 2] = {:?}\n",
                    "", p.penta
                ));
            }
        }
        let decided = self.black_wins + self.white_wins;
        if decided > 0 {
            out.push_str(&format!(
                "first player (b) won {} of {} decided games ({:.1}%)\n",
                self.black_wins,
                decided,
                100.0 * self.black_wins as f64 / decided as f64
            ));
        }
        if self.no_result > 0 {
            out.push_str(&format!(
                "{} games without result ({LENGTH_CAP}), left out of the statistics\n",
                self.no_result
            ));
        }
        let reasons: Vec<String> = self
            .reasons
            .iter()
            .map(|(r, n)| format!("{r} {n}"))
            .collect();
        if !reasons.is_empty() {
            out.push_str(&format!("endings: {}\n", reasons.join(", ")));
        }
        for (engine, faults) in &self.faults {
            let list: Vec<String> = faults.iter().map(|(r, n)| format!("{r} {n}")).collect();
            out.push_str(&format!("faults of {engine}: {}\n", list.join(", ")));
        }
        if let (Some(sprt), Some(p)) = (sprt, self.pairs.first()) {
            let llr = sprt.llr(&p.penta);
            let verdict = match sprt.verdict(&p.penta) {
                Verdict::AcceptH1 => "H1 accepted",
                Verdict::AcceptH0 => "H0 accepted",
                Verdict::Continue => "no decision yet",
            };
            out.push_str(&format!(
                "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.3} [{:.3}, {:.3}] {verdict}\n",
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta,
                llr,
                sprt.lower_bound(),
                sprt.upper_bound()
            ));
        }
        out
    }

    /// The summary as one JSON object.
    pub fn to_json(&self, sprt: Option<&Sprt>) -> serde_json::Value {
        let pairs: Vec<serde_json::Value> = self
            .pairs
            .iter()
            .map(|p| {
                let decided = p.wins + p.losses;
                let (elo, err) = match elo_with_error(p.wins, p.losses) {
                    Some((e, err)) => (finite(e), finite(err)),
                    None => (None, None),
                };
                serde_json::json!({
                    "first": p.first,
                    "second": p.second,
                    "games": p.games,
                    "wins": p.wins,
                    "losses": p.losses,
                    "no_result": p.no_result,
                    "score": if decided > 0 { Some(p.wins as f64 / decided as f64) } else { None },
                    "elo": elo,
                    "elo_95": err,
                    "los": los(p.wins, p.losses),
                    "first_as_black": {"wins": p.first_as_black[0], "losses": p.first_as_black[1]},
                    "first_as_white": {"wins": p.first_as_white[0], "losses": p.first_as_white[1]},
                    "pentanomial": p.penta,
                })
            })
            .collect();
        let mut value = serde_json::json!({
            "games": self.games,
            "no_result": self.no_result,
            "black_wins": self.black_wins,
            "white_wins": self.white_wins,
            "pairings": pairs,
            "reasons": self.reasons,
            "faults": self.faults,
        });
        if let (Some(sprt), Some(p)) = (sprt, self.pairs.first()) {
            let verdict = match sprt.verdict(&p.penta) {
                Verdict::AcceptH1 => "H1",
                Verdict::AcceptH0 => "H0",
                Verdict::Continue => "continue",
            };
            value["sprt"] = serde_json::json!({
                "elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha, "beta": sprt.beta,
                "llr": sprt.llr(&p.penta),
                "lower": sprt.lower_bound(), "upper": sprt.upper_bound(),
                "verdict": verdict,
            });
        }
        value
    }
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

fn fmt_elo(elo: f64, err: f64) -> String {
    let elo = elo + 0.0; // no "-0.0"
    if elo.is_finite() && err.is_finite() {
        format!("{elo:+.1} ± {err:.1}")
    } else if elo.is_finite() {
        format!("{elo:+.1} ± inf")
    } else if elo > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oddity_rules::internals::is_one_line;

    const GAME: &str = r#"{"id":"p0.r0.a","pair":0,"black":"a","white":"b","winner":"a","winner_seat":"b","reason":"rules","game":"odd","size":3,"opening":[],"turns":["B:A1"],"time_used":{"black":0.5,"white":0.25}}"#;

    #[test]
    fn an_unfinished_last_line_is_set_aside_and_a_bad_line_elsewhere_refused() {
        let path = Path::new("r.jsonl");
        let text = format!("{GAME}\n{}", &GAME[..40]);
        let (games, unfinished) = parse_results(text.as_bytes(), path).unwrap();
        assert_eq!((games.len(), unfinished.is_some()), (1, true));
        let text = format!("{}\n{GAME}\n", &GAME[..40]);
        let e = parse_results(text.as_bytes(), path).unwrap_err();
        assert!(matches!(e, ResultsError::BadLine { line: 1, .. }), "{e}");
    }

    #[test]
    fn a_game_is_read_by_name_and_an_unknown_one_refused() {
        let path = Path::new("r.jsonl");
        let (games, _) =
            parse_results(GAME.replace("\"odd\"", "\"ODD\"").as_bytes(), path).unwrap();
        assert_eq!(games[0].game, GameKind::Odd);
        assert!(
            serde_json::to_string(&games[0])
                .unwrap()
                .contains(r#""game":"odd""#)
        );
        let text = GAME.replace("\"odd\"", "\"chess\\n\"") + "\n";
        let e = parse_results(text.as_bytes(), path)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("unknown game 'chess\\n'") && is_one_line(&e),
            "{e}"
        );
    }

    #[test]
    fn a_conflict_names_the_engines_escaped() {
        let (games, _) = parse_results(GAME.as_bytes(), Path::new("r.jsonl")).unwrap();
        let mut other = games[0].clone();
        other.black = "x\n\u{1b}[2J".to_string();
        let e = ResultsError::Conflict {
            id: other.id.clone(),
            first: Box::new(games[0].clone()),
            second: Box::new(other),
        };
        let message = e.to_string();
        assert!(is_one_line(&message), "{message:?}");
        assert!(message.contains("x\\n\\u{1b}[2J"), "{message}");
    }
}
