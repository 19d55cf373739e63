//! A small value network: the chance that the first player (Black) wins a
//! position, from its stones and a few counts, for a search to mix into
//! the value of its leaves (`--param value_net`).
//!
//! The inputs are one bit per cell and stone colour (`2 * cells`, where
//! `cells` counts the board's cell indices, [`cell_slots`]) and
//! [`GLOBALS`] numbers: whether Black is to move, the groups each colour
//! counts (as the game counts them, over 8), whether their sum is odd, and
//! the share of empty cells. One hidden layer of rectified units feeds a
//! sigmoid. The stone bits are sparse, so the first layer adds one row of
//! weights per stone instead of multiplying a dense vector: a position of
//! `s` stones costs about `(s + GLOBALS + 1) * hidden` additions.
//!
//! Networks are fitted by [`fit_net`] (Adam on the log-loss, minibatches
//! drawn by a seeded generator, each position under a symmetry of the
//! board drawn the same way, so one seed gives the same bytes) and kept as
//! text ([`ValueNet::to_text`], [`ValueNet::parse`]).

use std::fmt::Write as _;
use std::sync::Mutex;

use super::adam::{Adam, AdamPlan, log_loss, shuffle};
use super::kept::{Kept, read_kept};
use oddity_rules::internals::escaped;
use oddity_rules::{Colour, Game, GameKind, Rng, Topology, UnknownGame};

/// The first line of a network file.
pub const NET_FORMAT: &str = "oddity-value-net 1";
/// Inputs after the stone bits.
pub const GLOBALS: usize = 5;
/// The most hidden units a network may have.
pub const MAX_HIDDEN: usize = 256;
/// The most cells a network's board may have.
pub const MAX_CELLS: usize = 1024;

/// A network and the board it was fitted for.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueNet {
    /// The game (its name in the file: `odd`, `onyx`, ...).
    pub game: GameKind,
    /// The board size.
    pub size: usize,
    /// The rule options as the game spells them (`GameSpec::rules_text`).
    pub rules: String,
    /// Cell indices of the board ([`cell_slots`]).
    pub cells: usize,
    /// Hidden units.
    pub hidden: usize,
    /// First layer, input-major: row `i` (of `2 * cells + GLOBALS`) holds
    /// input `i`'s weight into each hidden unit.
    pub w1: Vec<f32>,
    /// Hidden biases.
    pub b1: Vec<f32>,
    /// Output weights.
    pub w2: Vec<f32>,
    /// Output bias.
    pub b2: f32,
}

/// A position as the network reads it: the stone inputs that are on and
/// the global inputs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NetInput {
    /// Indices of the stone inputs that are 1: `cell` for Black,
    /// `cells + cell` for White.
    pub active: Vec<u16>,
    /// The [`GLOBALS`] numbers.
    pub globals: [f32; GLOBALS],
}

impl NetInput {
    /// The inputs of `game`'s position.
    pub fn of<G: Game>(game: &G) -> NetInput {
        let cells = cell_slots(game.topology());
        let mut active = Vec::with_capacity(cells);
        for c in Colour::BOTH {
            for_each_stone(game, c, cells, |i| {
                active.push((c.index() * cells + i) as u16);
            });
        }
        NetInput {
            active,
            globals: globals(game),
        }
    }

    /// The same position under a symmetry of the board (`perm[i]` is the
    /// image of cell `i`).
    pub fn mapped(&self, cells: usize, perm: &[usize]) -> NetInput {
        NetInput {
            active: self
                .active
                .iter()
                .map(|&a| {
                    let (colour, cell) = (a as usize / cells, a as usize % cells);
                    (colour * cells + perm[cell]) as u16
                })
                .collect(),
            globals: self.globals,
        }
    }
}

/// The number of cell indices of a board: its highest cell index plus one
/// (a hex-hex board's cells are numbered in a grid with gaps).
pub fn cell_slots(topology: &Topology) -> usize {
    topology.cells().last().map_or(0, |c| c.index() + 1)
}

fn for_each_stone<G: Game>(game: &G, colour: Colour, cells: usize, mut f: impl FnMut(usize)) {
    for (k, &word) in game.stone_words(colour).iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let i = 64 * k + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if i < cells {
                f(i);
            }
        }
    }
}

fn globals<G: Game>(game: &G) -> [f32; GLOBALS] {
    let [black, white] = game.group_counts();
    let points = game.topology().cell_count() as f32;
    let stones: u32 = Colour::BOTH
        .iter()
        .flat_map(|&c| game.stone_words(c))
        .map(|w| w.count_ones())
        .sum();
    [
        f32::from(u8::from(game.to_move() == Colour::Black)),
        black as f32 / 8.0,
        white as f32 / 8.0,
        ((black + white) % 2) as f32,
        (points - stones as f32) / points,
    ]
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl ValueNet {
    /// Inputs of the first layer.
    pub fn inputs(&self) -> usize {
        2 * self.cells + GLOBALS
    }

    /// A network with every weight drawn from `rng` (scaled to the
    /// layers' sizes) and zero biases.
    pub fn random(
        game: GameKind,
        size: usize,
        rules: &str,
        cells: usize,
        hidden: usize,
        rng: &mut Rng,
    ) -> ValueNet {
        let inputs = 2 * cells + GLOBALS;
        let mut draw = |scale: f32| {
            let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * u - 1.0) * scale
        };
        // Each position has about cells / 2 stones on.
        let s1 = (3.0 / (cells as f32 / 2.0 + GLOBALS as f32)).sqrt();
        let w1 = (0..inputs * hidden).map(|_| draw(s1)).collect();
        let s2 = (3.0 / hidden as f32).sqrt();
        let w2 = (0..hidden).map(|_| draw(s2)).collect();
        ValueNet {
            game,
            size,
            rules: rules.into(),
            cells,
            hidden,
            w1,
            b1: vec![0.0; hidden],
            w2,
            b2: 0.0,
        }
    }

    /// Whether the network was fitted for this game, size and rules.
    pub fn fits<G: Game>(&self, game: &G) -> bool {
        let spec = game.spec();
        self.game == spec.kind
            && self.size == spec.size
            && self.rules == spec.rules_text()
            && self.cells == cell_slots(game.topology())
    }

    /// The chance that Black wins `game`'s position (which the network
    /// [`Self::fits`]), without allocating.
    pub fn black_wins<G: Game>(&self, game: &G) -> f32 {
        let mut h = [0.0f32; MAX_HIDDEN];
        let h = &mut h[..self.hidden];
        h.copy_from_slice(&self.b1);
        for c in Colour::BOTH {
            for_each_stone(game, c, self.cells, |i| {
                self.add_row(h, c.index() * self.cells + i, 1.0);
            });
        }
        let g = globals(game);
        for (k, &x) in g.iter().enumerate() {
            self.add_row(h, 2 * self.cells + k, x);
        }
        self.output(h)
    }

    /// The chance that Black wins the position `x`.
    pub fn black_wins_input(&self, x: &NetInput) -> f32 {
        let mut h = vec![0.0; self.hidden];
        self.hidden_of(x, &mut h);
        self.output(&h)
    }

    #[inline(always)]
    fn add_row(&self, h: &mut [f32], input: usize, x: f32) {
        let row = &self.w1[input * self.hidden..(input + 1) * self.hidden];
        for (a, &w) in h.iter_mut().zip(row) {
            *a += x * w;
        }
    }

    /// The hidden layer's sums before rectification.
    fn hidden_of(&self, x: &NetInput, h: &mut [f32]) {
        h.copy_from_slice(&self.b1);
        for &a in &x.active {
            self.add_row(h, a as usize, 1.0);
        }
        for (k, &g) in x.globals.iter().enumerate() {
            self.add_row(h, 2 * self.cells + k, g);
        }
    }

    #[inline(always)]
    fn output(&self, h: &[f32]) -> f32 {
        let mut z = self.b2;
        for (&a, &w) in h.iter().zip(&self.w2) {
            z += a.max(0.0) * w;
        }
        sigmoid(z)
    }

    /// The network as text; each `comments` line is written after the
    /// header as `# line`. Numbers are written so they read back exactly.
    pub fn to_text(&self, comments: &[String]) -> String {
        let mut s = String::new();
        let row = |s: &mut String, name: &str, values: &[f32]| {
            s.push_str(name);
            for v in values {
                let _ = write!(s, " {v:?}");
            }
            s.push('\n');
        };
        let _ = writeln!(s, "{NET_FORMAT}");
        for c in comments {
            let _ = writeln!(s, "# {c}");
        }
        let _ = writeln!(s, "game {}", self.game);
        let _ = writeln!(s, "size {}", self.size);
        let _ = writeln!(
            s,
            "rules {}",
            if self.rules.is_empty() {
                "-"
            } else {
                &self.rules
            }
        );
        let _ = writeln!(s, "cells {}", self.cells);
        let _ = writeln!(s, "hidden {}", self.hidden);
        let _ = writeln!(s, "b2 {:?}", self.b2);
        row(&mut s, "b1", &self.b1);
        row(&mut s, "w2", &self.w2);
        for r in self.w1.chunks(self.hidden) {
            row(&mut s, "w1", r);
        }
        s
    }

    /// Reads a network written by [`Self::to_text`]; the error names the
    /// line (from 1) and what is wrong with it.
    pub fn parse(text: &str) -> Result<ValueNet, String> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(k, l)| (k + 1, l.trim()))
            .filter(|(_, l)| !l.starts_with('#'));
        let bad = |line: usize, why: &str| format!("value net file, line {line}: {why}");
        let mut last = 0;
        let mut next = |name: &str| -> Result<(usize, &str), String> {
            let (k, l) = lines
                .next()
                .ok_or_else(|| bad(last + 1, &format!("missing `{name}` line")))?;
            last = k;
            let rest = l
                .strip_prefix(name)
                .filter(|r| r.is_empty() || r.starts_with(' '))
                .ok_or_else(|| bad(k, &format!("expected `{name}`")))?;
            Ok((k, rest.trim()))
        };
        let (k, first) = next("oddity-value-net")?;
        if first != "1" {
            return Err(bad(k, &format!("expected `{NET_FORMAT}`")));
        }
        let count = |k: usize, v: &str, most: usize| -> Result<usize, String> {
            v.parse::<usize>()
                .ok()
                .filter(|&n| (1..=most).contains(&n))
                .ok_or_else(|| bad(k, &format!("expected a number from 1 to {most}")))
        };
        let (k, game) = next("game")?;
        let game: GameKind = game
            .parse()
            .map_err(|e: UnknownGame| bad(k, &escaped(&e.to_string())))?;
        let (k, size) = next("size")?;
        let size = count(k, size, 64)?;
        let (_, rules) = next("rules")?;
        let rules = if rules == "-" { "" } else { rules }.to_string();
        let (k, cells) = next("cells")?;
        let cells = count(k, cells, MAX_CELLS)?;
        let (k, hidden) = next("hidden")?;
        let hidden = count(k, hidden, MAX_HIDDEN)?;
        let numbers = |k: usize, v: &str, n: usize| -> Result<Vec<f32>, String> {
            let values = v
                .split_whitespace()
                .map(|t| t.parse::<f32>().ok().filter(|x| x.is_finite()))
                .collect::<Option<Vec<f32>>>()
                .ok_or_else(|| bad(k, "expected finite numbers"))?;
            if values.len() != n {
                return Err(bad(
                    k,
                    &format!("expected {n} numbers, found {}", values.len()),
                ));
            }
            Ok(values)
        };
        let (k, b2) = next("b2")?;
        let b2 = numbers(k, b2, 1)?[0];
        let (k, b1) = next("b1")?;
        let b1 = numbers(k, b1, hidden)?;
        let (k, w2) = next("w2")?;
        let w2 = numbers(k, w2, hidden)?;
        let mut w1 = Vec::with_capacity((2 * cells + GLOBALS) * hidden);
        for _ in 0..2 * cells + GLOBALS {
            let (k, r) = next("w1")?;
            w1.extend(numbers(k, r, hidden)?);
        }
        if let Some((k, _)) = lines.next() {
            return Err(bad(k, "unexpected line after the last `w1` row"));
        }
        Ok(ValueNet {
            game,
            size,
            rules,
            cells,
            hidden,
            w1,
            b1,
            w2,
            b2,
        })
    }
}

/// A network read from a file, kept for the life of the program (the
/// search's settings are `Copy`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NetFile {
    /// The file the network was read from, as given.
    pub path: &'static str,
    /// The network it holds.
    pub net: &'static ValueNet,
}

impl NetFile {
    /// Reads and checks a network file; the error names the file and, for
    /// a file that cannot be read as a network, the line.
    pub fn load(path: &str) -> Result<NetFile, String> {
        static LOADED: Mutex<Vec<Kept<ValueNet>>> = Mutex::new(Vec::new());
        let (path, net) = read_kept(path, &LOADED, ValueNet::parse)?;
        Ok(NetFile { path, net })
    }
}

/// A position with its outcome and what the fit aims at.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    /// The position.
    pub input: NetInput,
    /// Whether Black won the game the position was played in.
    pub black_wins: bool,
    /// Black's chance of winning that the fit aims at: 1 or 0 by the
    /// game's winner, or a search's value of the position.
    pub target: f32,
}

/// How [`fit_net`] fits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitPlan {
    /// Hidden units.
    pub hidden: usize,
    /// The steps: epochs, batch, rate, decay and seed (which also draws
    /// the symmetries).
    pub adam: AdamPlan,
}

/// The mean log-loss (natural log) and the share of examples whose winner
/// the network gives more than even chances: both against the games'
/// winners, whatever the fit aimed at.
pub fn net_loss(net: &ValueNet, examples: &[Example]) -> (f64, f64) {
    if examples.is_empty() {
        return (0.0, 0.0);
    }
    let mut loss = 0.0;
    let mut right = 0usize;
    for e in examples {
        let p = f64::from(net.black_wins_input(&e.input)).clamp(1e-7, 1.0 - 1e-7);
        let q = if e.black_wins { p } else { 1.0 - p };
        loss -= q.ln();
        right += usize::from(q > 0.5);
    }
    let n = examples.len() as f64;
    (loss / n, right as f64 / n)
}

/// The mean absolute difference between the network's chance for Black
/// and the examples' targets.
pub fn net_target_error(net: &ValueNet, examples: &[Example]) -> f64 {
    let total: f64 = examples
        .iter()
        .map(|e| f64::from((net.black_wins_input(&e.input) - e.target).abs()))
        .sum();
    total / examples.len().max(1) as f64
}

/// Fits `net` (made by [`ValueNet::random`] or a previous fit) to
/// `examples`' targets by their log-loss; each use of an example maps it by one of `symmetries`
/// (cell permutations; give only the identity where the game has none that
/// keeps the colours' roles). `progress` is told each epoch's number and
/// the mean training log-loss.
pub fn fit_net(
    net: &mut ValueNet,
    examples: &[Example],
    symmetries: &[Vec<usize>],
    plan: &FitPlan,
    progress: &mut dyn FnMut(usize, f64),
) {
    let adam = &plan.adam;
    let mut rng = Rng::seeded(adam.seed);
    let hidden = net.hidden;
    let cells = net.cells;
    let sizes = [net.w1.len(), hidden, hidden, 1];
    let mut moments: Vec<Adam> = sizes.iter().map(|&n| Adam::new(n)).collect();
    let mut g: Vec<Vec<f32>> = sizes.iter().map(|&n| vec![0.0; n]).collect();
    let mut order: Vec<usize> = (0..examples.len()).collect();
    let mut step = 0i32;
    let mut h = vec![0.0f32; hidden];
    let mut dh = vec![0.0f32; hidden];
    for epoch in 0..adam.epochs {
        shuffle(&mut order, &mut rng);
        let mut total = 0.0f64;
        for batch in order.chunks(adam.batch.max(1)) {
            for grad in &mut g {
                grad.fill(0.0);
            }
            for &i in batch {
                let e = &examples[i];
                let sym = &symmetries[(rng.next_u64() % symmetries.len() as u64) as usize];
                let x = e.input.mapped(cells, sym);
                net.hidden_of(&x, &mut h);
                let p = net.output(&h);
                let y = e.target;
                total += log_loss(p, y);
                let dz = p - y;
                g[3][0] += dz;
                for k in 0..hidden {
                    let a = h[k].max(0.0);
                    g[2][k] += dz * a;
                    dh[k] = if h[k] > 0.0 { dz * net.w2[k] } else { 0.0 };
                    g[1][k] += dh[k];
                }
                let mut add = |input: usize, xv: f32| {
                    let row = &mut g[0][input * hidden..(input + 1) * hidden];
                    for (r, &d) in row.iter_mut().zip(&dh) {
                        *r += xv * d;
                    }
                };
                for &a in &x.active {
                    add(a as usize, 1.0);
                }
                for (k, &gv) in x.globals.iter().enumerate() {
                    add(2 * cells + k, gv);
                }
            }
            step += 1;
            let scale = 1.0 / batch.len() as f32;
            let params: [&mut [f32]; 4] = [
                &mut net.w1,
                &mut net.b1,
                &mut net.w2,
                std::slice::from_mut(&mut net.b2),
            ];
            for (layer, p) in params.into_iter().enumerate() {
                // Weights (layers 0 and 2) decay; biases do not.
                let decay = if layer % 2 == 0 { adam.decay } else { 0.0 };
                moments[layer].step(p, &g[layer], scale, |_| decay, adam.rate, step);
            }
        }
        progress(epoch + 1, total / examples.len().max(1) as f64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oddity_rules::{GameKind, GameSpec, OddGame, Rules};

    fn odd(size: usize) -> OddGame<1> {
        OddGame::new(&GameSpec::new(GameKind::Odd, size, Rules::default()).unwrap())
    }

    fn small_net(game: &OddGame<1>, hidden: usize, seed: u64) -> ValueNet {
        let spec = game.spec();
        ValueNet::random(
            spec.kind,
            spec.size,
            &spec.rules_text(),
            cell_slots(game.topology()),
            hidden,
            &mut Rng::seeded(seed),
        )
    }

    #[test]
    fn the_fast_path_equals_the_inputs_path() {
        let mut game = odd(3);
        let net = small_net(&game, 8, 3);
        let mut rng = Rng::seeded(9);
        let mut actions = Vec::new();
        while !game.is_over() {
            let p = net.black_wins(&game);
            let input = NetInput::of(&game);
            let q = net.black_wins_input(&input);
            assert!((p - q).abs() < 1e-6, "{p} {q}");
            // Every stone is an input, on its own cell and colour.
            assert_eq!(input.active.len(), game.turns_played() as usize);
            for &a in &input.active {
                let (colour, cell) = (a as usize / net.cells, a as usize % net.cells);
                let cell = oddity_rules::Cell(cell as u16);
                assert_eq!(game.stone_at(cell), Some(Colour::BOTH[colour]));
            }
            actions.clear();
            game.legal_actions(&mut actions);
            game.apply(actions[rng.below(actions.len() as u32) as usize]);
        }
    }

    #[test]
    fn the_text_reads_back_exactly() {
        let net = small_net(&odd(3), 4, 5);
        let text = net.to_text(&["a comment".into()]);
        let back = ValueNet::parse(&text).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.to_text(&["a comment".into()]), text);
    }

    #[test]
    fn bad_files_are_refused_with_their_line() {
        let good = small_net(&odd(2), 2, 1).to_text(&[]);
        let lines: Vec<&str> = good.lines().collect();
        let with = |k: usize, line: &str| {
            let mut l = lines.clone();
            l[k] = line;
            l.join("\n")
        };
        let cases = [
            (String::new(), 1),
            (with(0, "oddity-value-net 2"), 1),
            (with(2, "size x"), 3),
            (with(5, "hidden 0"), 6),
            (with(6, "b2 nan"), 7),
            (with(7, "b1 1"), 8),
            (with(9, "w1 1 x"), 10),
            (lines[..lines.len() - 1].join("\n"), lines.len()),
            (format!("{good}w1 1 1\n"), lines.len() + 1),
        ];
        for (text, line) in cases {
            let e = ValueNet::parse(&text).unwrap_err();
            assert!(e.contains(&format!("line {line}:")), "{e} (line {line})");
        }
    }

    #[test]
    fn missing_and_corrupt_files_name_the_file() {
        let dir = std::env::temp_dir().join(format!("oddity-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, "oddity-value-net 1\ngame odd\nsize 0\n").unwrap();
        let e = NetFile::load(bad.to_str().unwrap()).unwrap_err();
        assert!(e.contains("bad.txt: value net file, line 3"), "{e}");
        let e = NetFile::load(dir.join("none.txt").to_str().unwrap()).unwrap_err();
        assert!(e.starts_with("cannot read "), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Odd 2 with m = 1 is won by Black exactly when the count of groups is
    /// odd at the end; a net fitted to finished positions learns the
    /// parity input, and the same seed gives the same bytes.
    #[test]
    fn fitting_learns_and_repeats() {
        let spec = GameSpec::new(GameKind::Odd, 2, Rules::default()).unwrap();
        let mut rng = Rng::seeded(4);
        let mut examples = Vec::new();
        let mut actions = Vec::new();
        for _ in 0..300 {
            let mut game = OddGame::<1>::new(&spec);
            while !game.is_over() {
                actions.clear();
                game.legal_actions(&mut actions);
                game.apply(actions[rng.below(actions.len() as u32) as usize]);
            }
            let black_wins = game.winner() == Some(Colour::Black);
            examples.push(Example {
                input: NetInput::of(&game),
                black_wins,
                target: f32::from(u8::from(black_wins)),
            });
        }
        let cells = game_cells(&spec);
        let identity: Vec<usize> = (0..cells).collect();
        let plan = FitPlan {
            hidden: 8,
            adam: AdamPlan {
                epochs: 40,
                batch: 16,
                rate: 0.01,
                decay: 0.0,
                seed: 7,
            },
        };
        let fitted = || {
            let mut net = ValueNet::random(
                GameKind::Odd,
                2,
                &spec.rules_text(),
                cells,
                8,
                &mut Rng::seeded(1),
            );
            let before = net_loss(&net, &examples).0;
            fit_net(
                &mut net,
                &examples,
                std::slice::from_ref(&identity),
                &plan,
                &mut |_, _| {},
            );
            (before, net)
        };
        let (before, a) = fitted();
        let (loss, accuracy) = net_loss(&a, &examples);
        assert!(loss < before / 2.0, "{before} -> {loss}");
        assert!(accuracy > 0.95, "{accuracy}");
        assert_eq!(fitted().1.to_text(&[]), a.to_text(&[]));
    }

    /// The Odd 5 network fitted to deep searches' values (docs/patterns.md
    /// gives the command) reads, fits Odd 5 and no other board, and gives
    /// a chance for the empty board.
    #[test]
    fn the_odd5_network_of_the_repository_reads() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/nets/odd5-search.txt");
        let file = NetFile::load(path).unwrap();
        let spec = GameSpec::new(GameKind::Odd, 5, Rules::default()).unwrap();
        let odd5 = OddGame::<2>::new(&spec);
        assert!(file.net.fits(&odd5));
        assert!(!file.net.fits(&odd(4)));
        let p = file.net.black_wins(&odd5);
        assert!(p > 0.0 && p < 1.0, "{p}");
        let text = std::fs::read_to_string(path).unwrap();
        assert!(text.contains("--label search --min-turns 31 --hidden 16 --epochs 5 --seed 1"));
    }

    fn game_cells(spec: &GameSpec) -> usize {
        cell_slots(OddGame::<1>::new(spec).topology())
    }
}
