//! Feature weights (the gammas of a Bradley-Terry model: a candidate's
//! strength is the product of its features' gammas) and their text file.
//!
//! The file (`docs/patterns.md`): lines starting with `#` are comments
//! (the first ones say which command made it), then `game NAME`, `ring N`
//! (points per ring: 6 hex-hex, 8 square; Onyx 9, its 8 places and the
//! point's kind), and one line per feature whose
//! gamma is not 1: `GROUP VALUE GAMMA`, e.g. `shape 1234 0.8125`.

use std::fmt::Write as _;
use std::sync::{Mutex, OnceLock};

use oddity_rules::GameKind;
use oddity_rules::internals::escaped;

use super::groups::{Features, GROUP_NAMES, GROUPS, NONE, group_sizes};
use super::kept::{Kept, read_kept};

/// Gammas for every feature value of a board's ring size.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// The game the weights were fitted for.
    pub game: GameKind,
    /// Points per ring.
    pub ring: usize,
    offsets: [usize; GROUPS],
    gammas: Vec<f64>,
}

/// Why a weights file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("weights file, line {line}: {why}")]
pub struct WeightsError {
    /// The line of the file (counting from 1).
    pub line: usize,
    /// What is wrong with it.
    pub why: String,
}

impl Weights {
    /// Every gamma 1 (no knowledge), for `game` with rings of `ring` points.
    pub fn uniform(game: GameKind, ring: usize) -> Weights {
        let sizes = group_sizes(ring);
        let mut offsets = [0; GROUPS];
        for g in 1..GROUPS {
            offsets[g] = offsets[g - 1] + sizes[g - 1] as usize;
        }
        Weights {
            game,
            ring,
            offsets,
            gammas: vec![1.0; offsets[GROUPS - 1] + sizes[GROUPS - 1] as usize],
        }
    }

    /// The index of value `value` of group `group` among all gammas.
    #[inline]
    pub fn index(&self, group: usize, value: u32) -> usize {
        self.offsets[group] + value as usize
    }

    /// The gamma at `index` (see [`Weights::index`]).
    pub fn gamma(&self, index: usize) -> f64 {
        self.gammas[index]
    }

    /// Sets the gamma at `index` (see [`Weights::index`]).
    pub fn set_gamma(&mut self, index: usize, gamma: f64) {
        self.gammas[index] = gamma;
    }

    /// Gammas in all.
    pub fn len(&self) -> usize {
        self.gammas.len()
    }

    /// Whether there are no gammas at all.
    pub fn is_empty(&self) -> bool {
        self.gammas.is_empty()
    }

    /// A candidate's strength: the product of its features' gammas.
    #[inline]
    pub fn strength(&self, features: &Features) -> f64 {
        let mut s = 1.0;
        for (g, &v) in features.iter().enumerate() {
            if v != NONE {
                s *= self.gammas[self.offsets[g] + v as usize];
            }
        }
        s
    }

    /// The file text: `header` lines as comments, then the gammas other
    /// than 1.
    pub fn to_text(&self, header: &[String]) -> String {
        let mut out = String::new();
        for line in header {
            let _ = writeln!(out, "# {line}");
        }
        let _ = writeln!(out, "game {}", self.game);
        let _ = writeln!(out, "ring {}", self.ring);
        for (g, name) in GROUP_NAMES.iter().enumerate() {
            let end = self
                .offsets
                .get(g + 1)
                .copied()
                .unwrap_or(self.gammas.len());
            for i in self.offsets[g]..end {
                if self.gammas[i] != 1.0 {
                    let _ = writeln!(out, "{name} {} {:.6e}", i - self.offsets[g], self.gammas[i]);
                }
            }
        }
        out
    }

    /// Reads a weights file.
    pub fn parse(text: &str) -> Result<Weights, WeightsError> {
        let mut game = None;
        let mut weights: Option<Weights> = None;
        for (k, raw) in text.lines().enumerate() {
            let line = raw.trim();
            let err = |why: String| WeightsError { line: k + 1, why };
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["game", name] if game.is_none() => {
                    let kind = name
                        .parse::<GameKind>()
                        .map_err(|e| err(escaped(&e.to_string())))?;
                    game = Some(kind);
                }
                ["ring", n] if weights.is_none() => {
                    let ring = match n.parse::<usize>() {
                        Ok(r @ (6 | 8 | 9)) => r,
                        _ => return Err(err(format!("ring must be 6, 8 or 9, not {n}"))),
                    };
                    let kind =
                        game.ok_or_else(|| err("`game NAME` must come before `ring`".into()))?;
                    weights = Some(Weights::uniform(kind, ring));
                }
                [group, value, gamma] => {
                    let w = weights
                        .as_mut()
                        .ok_or_else(|| err("`ring N` must come before the gammas".into()))?;
                    let g = GROUP_NAMES
                        .iter()
                        .position(|n| n == group)
                        .ok_or_else(|| err(format!("unknown feature group `{group}`")))?;
                    let sizes = group_sizes(w.ring);
                    let v = value
                        .parse::<u32>()
                        .ok()
                        .filter(|&v| v < sizes[g])
                        .ok_or_else(|| {
                            err(format!(
                                "{group} value must be below {}, not {value}",
                                sizes[g]
                            ))
                        })?;
                    let gamma = gamma
                        .parse::<f64>()
                        .ok()
                        .filter(|x| x.is_finite() && *x > 0.0)
                        .ok_or_else(|| {
                            err(format!("gamma must be a positive number, not {gamma}"))
                        })?;
                    let i = w.index(g, v);
                    w.gammas[i] = gamma;
                }
                _ => return Err(err(format!("cannot read `{line}`"))),
            }
        }
        weights.ok_or(WeightsError {
            line: text.lines().count(),
            why: "no `game` and `ring` lines".into(),
        })
    }

    /// The weights built into the program for `kind` (every game has
    /// them; `None` is kept for a game without).
    pub fn builtin(kind: GameKind) -> Option<&'static Weights> {
        static ODD: OnceLock<Weights> = OnceLock::new();
        static XODD: OnceLock<Weights> = OnceLock::new();
        static YODD: OnceLock<Weights> = OnceLock::new();
        static ONYX: OnceLock<Weights> = OnceLock::new();
        let (cell, text) = match kind {
            GameKind::Odd => (&ODD, include_str!("../weights/odd.txt")),
            GameKind::Xodd => (&XODD, include_str!("../weights/xodd.txt")),
            GameKind::Yodd => (&YODD, include_str!("../weights/yodd.txt")),
            GameKind::Onyx => (&ONYX, include_str!("../weights/onyx.txt")),
        };
        // The files are part of the source; a test reads each of them.
        Some(cell.get_or_init(|| Weights::parse(text).expect("built-in weights file")))
    }
}

/// Weights read from a file at run time (`--param weights=FILE`), with
/// the file's name. Loaded weights live as long as the program (the tree
/// keeps a plain reference); loading the same content again reuses them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WeightsFile {
    /// The file the weights were read from, as given.
    pub path: &'static str,
    /// The weights it holds.
    pub weights: &'static Weights,
}

impl WeightsFile {
    /// Reads and checks a weights file; the error names the file and, for
    /// a file that cannot be read as weights, the line.
    pub fn load(path: &str) -> Result<WeightsFile, String> {
        static LOADED: Mutex<Vec<Kept<Weights>>> = Mutex::new(Vec::new());
        let (path, weights) = read_kept(path, &LOADED, Weights::parse)?;
        Ok(WeightsFile { path, weights })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_reads_back() {
        let mut w = Weights::uniform(GameKind::Odd, 6);
        w.set_gamma(w.index(0, 17), 2.5);
        w.set_gamma(w.index(5, 3), 0.125);
        let text = w.to_text(&["made by hand".into()]);
        assert_eq!(Weights::parse(&text).unwrap(), w);
    }

    #[test]
    fn bad_files_are_refused_with_their_line() {
        let bad = [
            ("game odd\nring 7\n", 2),
            ("game odd\nring 6\nshape x 1\n", 3),
            ("game odd\nring 6\njoins 8 1\n", 3),
            ("game odd\nring 6\nsize 1 -2\n", 3),
            ("game odd\nring 6\ncolour 1 1\n", 3),
            ("shape 1 1\n", 1),
            ("game chess\nring 6\n", 1),
            ("", 0),
        ];
        for (text, line) in bad {
            assert_eq!(Weights::parse(text).unwrap_err().line, line, "{text:?}");
        }
    }

    #[test]
    fn a_weights_file_loads_once_or_is_refused_with_its_name() {
        let dir = std::env::temp_dir().join(format!("oddity-weights-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.txt");
        let mut w = Weights::uniform(GameKind::Odd, 6);
        w.set_gamma(w.index(0, 3), 2.0);
        std::fs::write(&good, w.to_text(&[])).unwrap();
        let path = good.to_str().unwrap();
        let a = WeightsFile::load(path).unwrap();
        assert_eq!(*a.weights, w);
        assert!(std::ptr::eq(
            a.weights,
            WeightsFile::load(path).unwrap().weights
        ));
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, "game odd\nring 6\nshape 3 -1\n").unwrap();
        let e = WeightsFile::load(bad.to_str().unwrap()).unwrap_err();
        assert!(e.contains("bad.txt: weights file, line 3"), "{e}");
        let e = WeightsFile::load(dir.join("none.txt").to_str().unwrap()).unwrap_err();
        assert!(e.starts_with("cannot read "), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_built_in_weights_read() {
        for kind in GameKind::ALL {
            let w = Weights::builtin(kind).unwrap();
            assert_eq!(w.game, kind);
        }
    }
}
