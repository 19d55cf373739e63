//! The schedule: which engines meet, with which opening, in which seats.
//!
//! It is a pure function of the arguments, so every shard of a tournament
//! and every resumed run sees the same games under the same ids.
//!
//! Games come in pairs: both games of a pair start from the same opening with
//! the seats swapped. Pairs are numbered round by round: round k holds pair k
//! of every engine pairing, so a stopped tournament is balanced. The opening
//! of round k is the same for every pairing.

use oddity_lines::LineError;
use oddity_rules::{AnyGame, Rng, TokenError, Turn};

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The first engine against each of the others.
    Gauntlet,
    /// Every engine against every other.
    RoundRobin,
}

/// One game of the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// Stable id: `p{pairing}.r{round}.{a|b}` (`a`: the pairing's first
    /// engine has the first seat).
    pub id: String,
    /// Position in the whole schedule.
    pub index: usize,
    /// Index of the game pair in the whole schedule (shards split by pairs).
    pub pair: usize,
    pub pairing: usize,
    pub round: usize,
    /// Engine indices in seat order: black (first player), white.
    pub black: usize,
    pub white: usize,
    /// Index into the opening list (`round` modulo the number of openings).
    pub opening: usize,
}

/// The engine pairings of a format, as (first, second) engine indices.
pub fn pairings(format: Format, engines: usize) -> Vec<(usize, usize)> {
    match format {
        Format::Gauntlet => (1..engines).map(|j| (0, j)).collect(),
        Format::RoundRobin => (0..engines)
            .flat_map(|i| (i + 1..engines).map(move |j| (i, j)))
            .collect(),
    }
}

/// The whole schedule: `games` games per pairing (an odd count leaves the
/// last pair with one game).
pub fn schedule(
    format: Format,
    engines: usize,
    games: usize,
    openings: usize,
) -> Vec<ScheduledGame> {
    let pairs = pairings(format, engines);
    let rounds = games.div_ceil(2);
    let mut out = Vec::new();
    let mut pair_index = 0;
    for round in 0..rounds {
        for (p, &(a, b)) in pairs.iter().enumerate() {
            for swap in 0..2 {
                if 2 * round + swap >= games {
                    break;
                }
                let (black, white) = if swap == 0 { (a, b) } else { (b, a) };
                out.push(ScheduledGame {
                    id: format!("p{p}.r{round}.{}", if swap == 0 { 'a' } else { 'b' }),
                    index: out.len(),
                    pair: pair_index,
                    pairing: p,
                    round,
                    black,
                    white,
                    opening: if openings == 0 { 0 } else { round % openings },
                });
            }
            pair_index += 1;
        }
    }
    out
}

/// A slice `I/N` of the schedule (`I` counts from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

/// A shard that is not `I/N` with `1 <= I <= N`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("shard '{0}': expected I/N with 1 <= I <= N")]
pub struct ShardError(pub String);

impl Shard {
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(text.to_string());
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether a game belongs to this shard: pairs are dealt out in turn, so
    /// both games of a pair stay together and each shard gets every pairing.
    pub fn contains(&self, game: &ScheduledGame) -> bool {
        game.pair % self.count == self.index - 1
    }
}

/// Reads an openings file: one opening per line as space-separated move
/// tokens; blank lines and `#` comments are skipped. Each opening is checked
/// against the rules; a bad one is an error naming its line.
pub fn read_openings(bytes: &[u8], start: &AnyGame) -> Result<Vec<Vec<String>>, OpeningsError> {
    let mut out = Vec::new();
    for (line, text) in oddity_lines::numbered(bytes) {
        let at = |problem| OpeningsError::Line { line, problem };
        let text = text.map_err(|e| at(OpeningProblem::Unreadable(e)))?;
        let text = text.split('#').next().unwrap_or("").trim();
        if text.is_empty() {
            continue;
        }
        let mut game = start.clone();
        let mut tokens = Vec::new();
        for token in text.split_whitespace() {
            let turn = game
                .parse_turn(token)
                .map_err(|e| at(OpeningProblem::Token(e)))?;
            if turn == Turn::Resign {
                return Err(at(OpeningProblem::Resign));
            }
            game.play_turn(&turn).map_err(|e| {
                at(OpeningProblem::Illegal {
                    token: token.to_string(),
                    why: e.describe(game.topology()),
                })
            })?;
            if game.is_over() {
                return Err(at(OpeningProblem::Over));
            }
            tokens.push(game.token(&turn));
        }
        out.push(tokens);
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty);
    }
    Ok(out)
}

/// Why an openings file was refused.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    #[error("openings line {line}: {problem}")]
    Line {
        line: usize,
        problem: OpeningProblem,
    },
    #[error("the openings file has no openings")]
    Empty,
}

/// What is wrong with one line of an openings file.
#[derive(Debug, thiserror::Error)]
pub enum OpeningProblem {
    #[error(transparent)]
    Unreadable(LineError),
    #[error(transparent)]
    Token(TokenError),
    #[error("'resign' in an opening")]
    Resign,
    #[error("illegal move '{token}': {why}")]
    Illegal { token: String, why: String },
    #[error("the game is over")]
    Over,
}

/// The random numbers of opening `k` of a file made with `seed`.
pub fn opening_rng(seed: u64, k: usize) -> Rng {
    Rng::seeded(seed ^ (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// A legal turn of stones (no pass, no swap) chosen at random; `None` when
/// there is none.
pub fn random_stone_turn(game: &AnyGame, rng: &mut Rng) -> Option<Turn> {
    let turns: Vec<Turn> = game
        .legal_turns()
        .into_iter()
        .filter(|t| matches!(t, Turn::Stones(..)))
        .collect();
    (!turns.is_empty()).then(|| turns[rng.below(turns.len() as u32) as usize])
}

/// `count` openings of `plies` random legal turns each (no pass, swap or
/// resignation), reproducible from `seed`.
pub fn random_openings(start: &AnyGame, plies: usize, count: usize, seed: u64) -> Vec<Vec<String>> {
    (0..count)
        .map(|k| {
            let mut rng = opening_rng(seed, k);
            let mut game = start.clone();
            let mut tokens = Vec::new();
            for _ in 0..plies {
                let Some(turn) = random_stone_turn(&game, &mut rng) else {
                    break;
                };
                let mut next = game.clone();
                next.play_turn(&turn).expect("a legal turn plays");
                if next.is_over() {
                    break;
                }
                tokens.push(game.token(&turn));
                game = next;
            }
            tokens
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use oddity_rules::{GameKind, GameSpec};

    #[test]
    fn pairs_swap_seats_and_share_openings() {
        let s = schedule(Format::Gauntlet, 3, 4, 5);
        assert_eq!(s.len(), 8);
        assert_eq!((s[0].black, s[0].white), (0, 1));
        assert_eq!((s[1].black, s[1].white), (1, 0));
        assert_eq!((s[2].black, s[2].white), (0, 2));
        assert_eq!(s[0].opening, s[3].opening);
        assert_eq!(s[4].opening, 1);
        assert_eq!(s[5].id, "p0.r1.b");
        assert_eq!(s[5].pair, 2);
        let rr = schedule(Format::RoundRobin, 3, 2, 0);
        assert_eq!(rr.len(), 6);
        let odd = schedule(Format::RoundRobin, 2, 3, 1);
        assert_eq!(odd.len(), 3);
    }

    #[test]
    fn shards_partition_the_schedule_by_pairs() {
        let s = schedule(Format::RoundRobin, 3, 6, 1);
        let shards: Vec<Shard> = (1..=4).map(|i| Shard { index: i, count: 4 }).collect();
        for g in &s {
            assert_eq!(shards.iter().filter(|sh| sh.contains(g)).count(), 1);
        }
        assert!(Shard::parse("0/3").is_err());
        assert!(Shard::parse("4/3").is_err());
        assert_eq!(Shard::parse("2/3").unwrap(), Shard { index: 2, count: 3 });
    }

    #[test]
    fn openings_are_checked_and_reproducible() {
        let start = AnyGame::new(&GameSpec::new(GameKind::Odd, 3, Default::default()).unwrap());
        let o = read_openings(b"# c\nb:a1 W:B2\n\nC3\n", &start);
        assert!(o.is_err());
        let o = read_openings(b"b:a1 W:B2 # two\n", &start).unwrap();
        assert_eq!(o, vec![vec!["B:A1".to_string(), "W:B2".to_string()]]);
        assert!(read_openings(b"B:A1 W:A1\n", &start).is_err());
        let r1 = random_openings(&start, 3, 4, 7);
        let r2 = random_openings(&start, 3, 4, 7);
        assert_eq!(r1, r2);
        assert_eq!(r1[0].len(), 3);
        assert_ne!(r1[0], r1[1]);
    }
}
