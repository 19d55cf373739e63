//! A board network: a policy over the stones a mover may place and the
//! chance that Black wins, both read from the whole board by graph
//! convolutions over the board's cells and their neighbours, so the same
//! network shape fits hex-hex boards and Onyx's squares and triangles.
//!
//! Each cell starts with [`FEATURES`] numbers (its stone, its stone's
//! group size, the stones around it, where it lies, and the position's
//! counts, [`features`]). An input layer maps them to `channels` numbers;
//! then each of `blocks` residual blocks adds to every cell
//! `relu(A h + N m + b)`, where `h` is the cell's numbers and `m` the mean
//! of its neighbours'. The policy gives each cell two logits, one per
//! stone colour; the value is a sigmoid of the cells' mean. A position of
//! `n` cells costs about `n * blocks * 2 * channels^2` multiply-adds.
//!
//! Networks are fitted by [`fit_board_net`] (Adam on the policy's
//! cross-entropy against a search's root visits plus the value's log-loss
//! against its root value; one seed gives the same bytes) and kept as text
//! ([`BoardNet::to_text`], [`BoardNet::parse`]).

use std::fmt::Write as _;
use std::ops::Range;
use std::sync::Mutex;

use super::adam::{Adam, AdamPlan, log_loss, shuffle};
use super::kept::{Kept, read_kept};
use oddity_rules::internals::escaped;
use oddity_rules::{Action, Cell, Colour, Game, GameKind, GameSpec, Rng, Topology, UnknownGame};

/// The first line of a board network file.
pub const BOARD_NET_FORMAT: &str = "oddity-board-net 1";
/// Numbers per cell at the input.
pub const FEATURES: usize = 12;
/// The most channels a board network may have.
pub const MAX_CHANNELS: usize = 64;
/// The most residual blocks a board network may have.
pub const MAX_BLOCKS: usize = 8;

/// The cells of a board in order, and each one's neighbours, as the
/// network reads them.
#[derive(Clone, Debug)]
pub struct BoardGraph {
    cells: Vec<Cell>,
    /// The dense number of each cell index; `u32::MAX` off the board.
    dense: Vec<u32>,
    /// Cell `i`'s neighbours are `near[start[i]..start[i + 1]]`.
    start: Vec<u32>,
    near: Vec<u32>,
    /// Each cell's coordinates over the largest, in `0..=1`.
    place: Vec<[f32; 2]>,
    midpoint: Vec<bool>,
}

impl BoardGraph {
    /// The graph of `topology`'s cells.
    pub fn new(topology: &Topology) -> BoardGraph {
        let cells = topology.cells().to_vec();
        let slots = cells.last().map_or(0, |c| c.index() + 1);
        let mut dense = vec![u32::MAX; slots];
        for (i, c) in cells.iter().enumerate() {
            dense[c.index()] = i as u32;
        }
        let mut start = vec![0u32];
        let mut near = Vec::new();
        for &c in &cells {
            near.extend(topology.neighbours(c).iter().map(|n| dense[n.index()]));
            start.push(near.len() as u32);
        }
        let coords: Vec<(usize, usize)> = cells.iter().map(|&c| topology.coords(c)).collect();
        let most_x = coords.iter().map(|c| c.0).max().unwrap_or(0).max(1) as f32;
        let most_y = coords.iter().map(|c| c.1).max().unwrap_or(0).max(1) as f32;
        BoardGraph {
            place: coords
                .iter()
                .map(|&(x, y)| [x as f32 / most_x, y as f32 / most_y])
                .collect(),
            midpoint: cells.iter().map(|&c| topology.is_midpoint(c)).collect(),
            cells,
            dense,
            start,
            near,
        }
    }

    /// Cells on the board.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether the board has no cells.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    fn neighbours(&self, i: usize) -> &[u32] {
        &self.near[self.start[i] as usize..self.start[i + 1] as usize]
    }

    /// The policy output that scores `action`: two per cell, by the
    /// stone's colour; `None` for an action that places no stone.
    pub fn output_of(&self, action: Action) -> Option<usize> {
        if !action.is_stone() {
            return None;
        }
        let i = *self.dense.get(action.cell().index())?;
        (i != u32::MAX).then(|| 2 * i as usize + action.colour().index())
    }
}

/// Writes the [`FEATURES`] numbers of each of `graph`'s cells in `game`'s
/// position into `out` (cell-major): Black's stone, White's, empty; the
/// stone's group size over 8 (at most 1); the shares of the neighbours
/// that hold Black's and White's stones; the cell's two coordinates;
/// whether it is a square's midpoint (Onyx); whether Black is to move; the
/// parity of the groups the game counts; the share of empty cells.
pub fn features<G: Game>(game: &G, graph: &BoardGraph, out: &mut Vec<f32>) {
    let n = graph.len();
    let stones: Vec<Option<Colour>> = graph.cells.iter().map(|&c| game.stone_at(c)).collect();
    // Group sizes by a walk over same-coloured neighbours.
    let mut size = vec![0u32; n];
    let mut seen = vec![false; n];
    let mut group = Vec::new();
    for i in 0..n {
        let Some(colour) = stones[i] else { continue };
        if seen[i] {
            continue;
        }
        group.clear();
        group.push(i);
        seen[i] = true;
        let mut k = 0;
        while k < group.len() {
            for &j in graph.neighbours(group[k]) {
                let j = j as usize;
                if !seen[j] && stones[j] == Some(colour) {
                    seen[j] = true;
                    group.push(j);
                }
            }
            k += 1;
        }
        for &j in &group {
            size[j] = group.len() as u32;
        }
    }
    let [black, white] = game.group_counts();
    let empty = stones.iter().filter(|s| s.is_none()).count() as f32 / n.max(1) as f32;
    let to_move = f32::from(u8::from(game.to_move() == Colour::Black));
    let parity = ((black + white) % 2) as f32;
    out.clear();
    for i in 0..n {
        let near = graph.neighbours(i);
        let share = |c: Colour| {
            near.iter()
                .filter(|&&j| stones[j as usize] == Some(c))
                .count() as f32
                / near.len().max(1) as f32
        };
        out.extend_from_slice(&[
            f32::from(u8::from(stones[i] == Some(Colour::Black))),
            f32::from(u8::from(stones[i] == Some(Colour::White))),
            f32::from(u8::from(stones[i].is_none())),
            (size[i] as f32 / 8.0).min(1.0),
            share(Colour::Black),
            share(Colour::White),
            graph.place[i][0],
            graph.place[i][1],
            f32::from(u8::from(graph.midpoint[i])),
            to_move,
            parity,
            empty,
        ]);
    }
}

/// Where each weight lies in a network's one vector of parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Layout {
    channels: usize,
    blocks: usize,
}

impl Layout {
    fn input(&self) -> Range<usize> {
        0..self.channels * FEATURES
    }
    fn input_bias(&self) -> Range<usize> {
        let s = self.channels * FEATURES;
        s..s + self.channels
    }
    /// Block `b`'s self matrix, neighbour matrix and bias.
    fn block(&self, b: usize) -> [Range<usize>; 3] {
        let c = self.channels;
        let s = c * FEATURES + c + b * (2 * c * c + c);
        [
            s..s + c * c,
            s + c * c..s + 2 * c * c,
            s + 2 * c * c..s + 2 * c * c + c,
        ]
    }
    fn heads(&self) -> usize {
        let c = self.channels;
        c * FEATURES + c + self.blocks * (2 * c * c + c)
    }
    fn policy(&self) -> Range<usize> {
        let s = self.heads();
        s..s + 2 * self.channels
    }
    fn policy_bias(&self) -> Range<usize> {
        let s = self.heads() + 2 * self.channels;
        s..s + 2
    }
    fn value(&self) -> Range<usize> {
        let s = self.heads() + 2 * self.channels + 2;
        s..s + self.channels
    }
    fn value_bias(&self) -> usize {
        self.heads() + 3 * self.channels + 2
    }
    fn len(&self) -> usize {
        self.value_bias() + 1
    }
    /// The named rows of the file, in order, each with its range and its
    /// row length.
    fn rows(&self) -> Vec<(&'static str, Range<usize>, usize)> {
        let c = self.channels;
        let mut rows = vec![
            ("input", self.input(), FEATURES),
            ("input_bias", self.input_bias(), c),
        ];
        for b in 0..self.blocks {
            let [a, n, bias] = self.block(b);
            rows.push(("self", a, c));
            rows.push(("near", n, c));
            rows.push(("bias", bias, c));
        }
        rows.push(("policy", self.policy(), c));
        rows.push(("policy_bias", self.policy_bias(), 2));
        rows.push(("value", self.value(), c));
        let v = self.value_bias();
        rows.push(("value_bias", v..v + 1, 1));
        rows
    }
}

/// A board network and the board it was fitted for.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardNet {
    /// The game.
    pub game: GameKind,
    /// The board size.
    pub size: usize,
    /// The rule options as the game spells them (`GameSpec::rules_text`).
    pub rules: String,
    /// Cells on the board.
    pub cells: usize,
    /// Numbers per cell between the input and the heads.
    pub channels: usize,
    /// Residual blocks.
    pub blocks: usize,
    /// Every weight and bias, in the order of the file's rows.
    pub params: Vec<f32>,
}

/// What one evaluation computed, layer by layer; kept between evaluations
/// so that they allocate nothing.
#[derive(Clone, Debug, Default)]
pub struct BoardTrace {
    /// Each layer's output (`blocks + 1` of them), cell-major.
    h: Vec<Vec<f32>>,
    /// Each layer's sums before rectification.
    z: Vec<Vec<f32>>,
    /// Each block's neighbour means.
    m: Vec<Vec<f32>>,
    /// The policy's logits, two per cell.
    pub logits: Vec<f32>,
    /// The chance that Black wins.
    pub value: f32,
    /// The input layer's and the blocks' matrices, each transposed
    /// (input-major), so that a cell's outputs are summed side by side.
    transposed: Vec<f32>,
    /// One cell's sums of a block's two matrices, and the cells' mean.
    sums: [Vec<f32>; 3],
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// `out[o] = sum_i t[i * outputs + o] * x[i]`, each sum taken in the order
/// of `i` (as [`mul_add`] takes it), the outputs side by side.
#[inline(always)]
fn mul_t(t: &[f32], x: &[f32], out: &mut [f32]) {
    out.fill(0.0);
    for (row, &xi) in t.chunks_exact(out.len()).zip(x) {
        for (o, &w) in out.iter_mut().zip(row) {
            *o += w * xi;
        }
    }
}

/// Appends `w` (`outputs` rows of `inputs`) transposed to `out`.
fn push_transposed(w: &[f32], inputs: usize, out: &mut Vec<f32>) {
    let outputs = w.len() / inputs;
    out.extend((0..inputs * outputs).map(|k| w[(k % outputs) * inputs + k / outputs]));
}

/// `out[o] += sum_i w[o * inputs + i] * x[i]`.
#[inline(always)]
fn mul_add(w: &[f32], x: &[f32], out: &mut [f32]) {
    let inputs = x.len();
    for (o, row) in out.iter_mut().zip(w.chunks_exact(inputs)) {
        let mut s = 0.0;
        for (a, b) in row.iter().zip(x) {
            s += a * b;
        }
        *o += s;
    }
}

impl BoardNet {
    fn layout(&self) -> Layout {
        Layout {
            channels: self.channels,
            blocks: self.blocks,
        }
    }

    /// A network with every weight drawn from `rng` (scaled to the layers'
    /// sizes) and zero biases.
    pub fn random(
        game: GameKind,
        size: usize,
        rules: &str,
        cells: usize,
        channels: usize,
        blocks: usize,
        rng: &mut Rng,
    ) -> BoardNet {
        let layout = Layout { channels, blocks };
        let mut params = vec![0.0; layout.len()];
        let mut fill = |range: Range<usize>, scale: f32| {
            for w in &mut params[range] {
                let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
                *w = (2.0 * u - 1.0) * scale;
            }
        };
        fill(layout.input(), (6.0 / FEATURES as f32).sqrt());
        // Blocks start small, so the first network is near its input layer.
        let block = (6.0 / (2 * channels) as f32).sqrt() / blocks.max(1) as f32;
        for b in 0..blocks {
            let [a, n, _] = layout.block(b);
            fill(a, block);
            fill(n, block);
        }
        fill(layout.policy(), (3.0 / channels as f32).sqrt());
        fill(layout.value(), (3.0 / channels as f32).sqrt());
        BoardNet {
            game,
            size,
            rules: rules.into(),
            cells,
            channels,
            blocks,
            params,
        }
    }

    /// The same weights for another board of its game. Every weight is
    /// shared by all cells and a cell's place is given over the board's
    /// largest coordinates, so a network carries to any size of its game.
    pub fn carried_to(&self, spec: &GameSpec, cells: usize) -> Result<BoardNet, String> {
        if self.game != spec.kind {
            return Err(format!(
                "the network is for {}, not {}",
                self.game, spec.kind
            ));
        }
        Ok(BoardNet {
            size: spec.size,
            rules: spec.rules_text(),
            cells,
            ..self.clone()
        })
    }

    /// Whether the network was fitted for this game, size and rules.
    pub fn fits<G: Game>(&self, game: &G) -> bool {
        let spec = game.spec();
        self.game == spec.kind
            && self.size == spec.size
            && self.rules == spec.rules_text()
            && self.cells == game.topology().cell_count()
    }

    /// Evaluates the position whose [`features`] are `x` on `graph`,
    /// leaving every layer, the logits and the value in `trace`.
    pub fn evaluate(&self, graph: &BoardGraph, x: &[f32], trace: &mut BoardTrace) {
        let (n, c, l) = (graph.len(), self.channels, self.layout());
        let p = &self.params;
        trace.h.resize(self.blocks + 1, Vec::new());
        trace.z.resize(self.blocks + 1, Vec::new());
        trace.m.resize(self.blocks, Vec::new());
        for v in trace.h.iter_mut().chain(&mut trace.z).chain(&mut trace.m) {
            v.clear();
            v.resize(n * c, 0.0);
        }
        trace.transposed.clear();
        push_transposed(&p[l.input()], FEATURES, &mut trace.transposed);
        for k in 0..self.blocks {
            let [a, nr, _] = l.block(k);
            push_transposed(&p[a], c, &mut trace.transposed);
            push_transposed(&p[nr], c, &mut trace.transposed);
        }
        for v in &mut trace.sums {
            v.clear();
            v.resize(c, 0.0);
        }
        let [own, around_sum, mean] = &mut trace.sums;
        let (w_in, rest) = trace.transposed.split_at(FEATURES * c);
        let b = &p[l.input_bias()];
        for i in 0..n {
            let z = &mut trace.z[0][i * c..(i + 1) * c];
            mul_t(w_in, &x[i * FEATURES..(i + 1) * FEATURES], own);
            for ((z, &b), &s) in z.iter_mut().zip(b).zip(own.iter()) {
                *z = b + s;
            }
            for (h, &z) in trace.h[0][i * c..(i + 1) * c].iter_mut().zip(z.iter()) {
                *h = z.max(0.0);
            }
        }
        for k in 0..self.blocks {
            let bias = &p[l.block(k)[2].clone()];
            let a = &rest[2 * k * c * c..(2 * k + 1) * c * c];
            let near = &rest[(2 * k + 1) * c * c..(2 * k + 2) * c * c];
            let (before, after) = trace.h.split_at_mut(k + 1);
            let (h_in, h_out) = (&before[k], &mut after[0]);
            let m = &mut trace.m[k];
            for i in 0..n {
                let around = graph.neighbours(i);
                let mi = &mut m[i * c..(i + 1) * c];
                for &j in around {
                    for (s, &v) in mi
                        .iter_mut()
                        .zip(&h_in[j as usize * c..(j as usize + 1) * c])
                    {
                        *s += v;
                    }
                }
                let scale = 1.0 / around.len().max(1) as f32;
                for s in mi.iter_mut() {
                    *s *= scale;
                }
                let hi = &h_in[i * c..(i + 1) * c];
                mul_t(a, hi, own);
                mul_t(near, mi, around_sum);
                let z = &mut trace.z[k + 1][i * c..(i + 1) * c];
                for (((z, &b), &sa), &sn) in z
                    .iter_mut()
                    .zip(bias)
                    .zip(own.iter())
                    .zip(around_sum.iter())
                {
                    *z = b + sa + sn;
                }
                for ((o, &hi), &zi) in h_out[i * c..(i + 1) * c].iter_mut().zip(hi).zip(z.iter()) {
                    *o = hi + zi.max(0.0);
                }
            }
        }
        let last = &trace.h[self.blocks];
        let (pw, pb) = (&p[l.policy()], &p[l.policy_bias()]);
        trace.logits.clear();
        mean.fill(0.0);
        for i in 0..n {
            let hi = &last[i * c..(i + 1) * c];
            let mut two = [pb[0], pb[1]];
            mul_add(pw, hi, &mut two);
            trace.logits.extend_from_slice(&two);
            for (s, &v) in mean.iter_mut().zip(hi) {
                *s += v / n as f32;
            }
        }
        let mut v = [p[l.value_bias()]];
        mul_add(&p[l.value()], mean, &mut v);
        trace.value = sigmoid(v[0]);
    }

    /// Adds to `grad` (as long as `params`) the gradient of the loss whose
    /// derivatives by the logits are `d_logits` (two per cell) and by the
    /// value's logit `d_value`, at the evaluation in `trace` of the
    /// features `x`.
    fn backward(
        &self,
        graph: &BoardGraph,
        x: &[f32],
        trace: &BoardTrace,
        d_logits: &[f32],
        d_value: f32,
        grad: &mut [f32],
    ) {
        let (n, c, l) = (graph.len(), self.channels, self.layout());
        let p = &self.params;
        let last = &trace.h[self.blocks];
        let mut dh = vec![0.0f32; n * c];
        let (pw, vw) = (&p[l.policy()], &p[l.value()]);
        let pr = l.policy();
        let vr = l.value();
        for i in 0..n {
            let hi = &last[i * c..(i + 1) * c];
            let dhi = &mut dh[i * c..(i + 1) * c];
            for k in 0..2 {
                let d = d_logits[2 * i + k];
                if d != 0.0 {
                    grad[l.policy_bias().start + k] += d;
                    for ch in 0..c {
                        grad[pr.start + k * c + ch] += d * hi[ch];
                        dhi[ch] += d * pw[k * c + ch];
                    }
                }
            }
            for ch in 0..c {
                grad[vr.start + ch] += d_value * hi[ch] / n as f32;
                dhi[ch] += d_value * vw[ch] / n as f32;
            }
        }
        grad[l.value_bias()] += d_value;
        let mut dz = vec![0.0f32; n * c];
        let mut d_in = vec![0.0f32; n * c];
        for k in (0..self.blocks).rev() {
            let [ar, nr, br] = l.block(k);
            let (a, near) = (&p[ar.clone()], &p[nr.clone()]);
            let (h_in, z, m) = (&trace.h[k], &trace.z[k + 1], &trace.m[k]);
            for ((d, &g), &zi) in dz.iter_mut().zip(&dh).zip(z) {
                *d = if zi > 0.0 { g } else { 0.0 };
            }
            // The residual passes the gradient through unchanged.
            d_in.copy_from_slice(&dh);
            for i in 0..n {
                let dzi = &dz[i * c..(i + 1) * c];
                let hi = &h_in[i * c..(i + 1) * c];
                let mi = &m[i * c..(i + 1) * c];
                let around = graph.neighbours(i);
                let scale = 1.0 / around.len().max(1) as f32;
                let mut to_near = vec![0.0f32; c];
                for (o, &d) in dzi.iter().enumerate() {
                    if d == 0.0 {
                        continue;
                    }
                    grad[br.start + o] += d;
                    let ga = &mut grad[ar.start + o * c..ar.start + (o + 1) * c];
                    for (g, &v) in ga.iter_mut().zip(hi) {
                        *g += d * v;
                    }
                    let gn = &mut grad[nr.start + o * c..nr.start + (o + 1) * c];
                    for (g, &v) in gn.iter_mut().zip(mi) {
                        *g += d * v;
                    }
                    let row_a = &a[o * c..(o + 1) * c];
                    let row_n = &near[o * c..(o + 1) * c];
                    for ch in 0..c {
                        d_in[i * c + ch] += d * row_a[ch];
                        to_near[ch] += d * row_n[ch] * scale;
                    }
                }
                for &j in around {
                    for (s, &v) in d_in[j as usize * c..(j as usize + 1) * c]
                        .iter_mut()
                        .zip(&to_near)
                    {
                        *s += v;
                    }
                }
            }
            std::mem::swap(&mut dh, &mut d_in);
        }
        let (wr, br) = (l.input(), l.input_bias());
        for i in 0..n {
            let xi = &x[i * FEATURES..(i + 1) * FEATURES];
            for o in 0..c {
                if trace.z[0][i * c + o] <= 0.0 {
                    continue;
                }
                let d = dh[i * c + o];
                grad[br.start + o] += d;
                for (g, &v) in grad[wr.start + o * FEATURES..wr.start + (o + 1) * FEATURES]
                    .iter_mut()
                    .zip(xi)
                {
                    *g += d * v;
                }
            }
        }
    }

    /// The network as text; each `comments` line is written after the
    /// header as `# line`. Numbers are written so they read back exactly.
    pub fn to_text(&self, comments: &[String]) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{BOARD_NET_FORMAT}");
        for c in comments {
            let _ = writeln!(s, "# {c}");
        }
        let _ = writeln!(s, "game {}", self.game);
        let _ = writeln!(s, "size {}", self.size);
        let rules = if self.rules.is_empty() {
            "-"
        } else {
            &self.rules
        };
        let _ = writeln!(s, "rules {rules}");
        let _ = writeln!(s, "cells {}", self.cells);
        let _ = writeln!(s, "channels {}", self.channels);
        let _ = writeln!(s, "blocks {}", self.blocks);
        for (name, range, width) in self.layout().rows() {
            for row in self.params[range].chunks(width) {
                s.push_str(name);
                for v in row {
                    let _ = write!(s, " {v:?}");
                }
                s.push('\n');
            }
        }
        s
    }

    /// Reads a network written by [`Self::to_text`]; the error names the
    /// line (from 1) and what is wrong with it.
    pub fn parse(text: &str) -> Result<BoardNet, String> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(k, l)| (k + 1, l.trim()))
            .filter(|(_, l)| !l.starts_with('#'));
        let bad = |line: usize, why: &str| format!("board net file, line {line}: {why}");
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
        let (k, first) = next("oddity-board-net")?;
        if first != "1" {
            return Err(bad(k, &format!("expected `{BOARD_NET_FORMAT}`")));
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
        let cells = count(k, cells, 4096)?;
        let (k, channels) = next("channels")?;
        let channels = count(k, channels, MAX_CHANNELS)?;
        let (k, blocks) = next("blocks")?;
        let blocks = count(k, blocks, MAX_BLOCKS)?;
        let layout = Layout { channels, blocks };
        let mut params = Vec::with_capacity(layout.len());
        for (name, range, width) in layout.rows() {
            for _ in 0..range.len() / width {
                let (k, row) = next(name)?;
                let values = row
                    .split_whitespace()
                    .map(|t| t.parse::<f32>().ok().filter(|x| x.is_finite()))
                    .collect::<Option<Vec<f32>>>()
                    .ok_or_else(|| bad(k, "expected finite numbers"))?;
                if values.len() != width {
                    return Err(bad(
                        k,
                        &format!("expected {width} numbers, found {}", values.len()),
                    ));
                }
                params.extend(values);
            }
        }
        if let Some((k, _)) = lines.next() {
            return Err(bad(k, "unexpected line after the `value_bias` row"));
        }
        Ok(BoardNet {
            game,
            size,
            rules,
            cells,
            channels,
            blocks,
            params,
        })
    }
}

/// A board network read from a file, kept for the life of the program
/// (the search's settings are `Copy`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardNetFile {
    /// The file the network was read from, as given.
    pub path: &'static str,
    /// The network it holds.
    pub net: &'static BoardNet,
}

impl BoardNetFile {
    /// Reads and checks a board network file; the error names the file
    /// and, for a file that cannot be read as a network, the line.
    pub fn load(path: &str) -> Result<BoardNetFile, String> {
        static LOADED: Mutex<Vec<Kept<BoardNet>>> = Mutex::new(Vec::new());
        let (path, net) = read_kept(path, &LOADED, BoardNet::parse)?;
        Ok(BoardNetFile { path, net })
    }
}

/// A position a board network learns from: its features, the search's
/// share of the root visits of each stone the mover could place, the
/// search's choice and value, and its game's winner.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardExample {
    /// [`features`] of the position.
    pub features: Vec<f32>,
    /// The policy output of every stone the mover could place
    /// ([`BoardGraph::output_of`]) with its share of the root visits.
    pub moves: Vec<(u32, f32)>,
    /// The policy output of the search's choice, if it placed a stone.
    pub chosen: Option<u32>,
    /// The search's chance that Black wins.
    pub value: f32,
    /// Whether Black won the position's game.
    pub black_wins: bool,
}

/// How [`fit_board_net`] fits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardFitPlan {
    /// The steps: epochs, batch, rate, decay and seed.
    pub adam: AdamPlan,
    /// The value's log-loss counts this many times the policy's
    /// cross-entropy.
    pub value_weight: f32,
}

/// The policy's cross-entropy against the visit shares and the gradient by
/// the logits (written into `d_logits`, zero elsewhere).
fn policy_loss(logits: &[f32], moves: &[(u32, f32)], d_logits: &mut [f32]) -> f64 {
    d_logits.fill(0.0);
    if moves.is_empty() {
        return 0.0;
    }
    let top = moves
        .iter()
        .map(|&(o, _)| logits[o as usize])
        .fold(f32::NEG_INFINITY, f32::max);
    let sum: f32 = moves
        .iter()
        .map(|&(o, _)| (logits[o as usize] - top).exp())
        .sum();
    let mut loss = 0.0;
    for &(o, share) in moves {
        let p = (logits[o as usize] - top).exp() / sum;
        loss -= f64::from(share) * f64::from(p.max(1e-9)).ln();
        d_logits[o as usize] = p - share;
    }
    loss
}

/// Fits `net` to `examples`: each step's gradient is the mean over a
/// minibatch of the policy's cross-entropy and `value_weight` times the
/// value's log-loss against the search's value. `progress` is told each
/// epoch's number and its mean training losses (policy, value).
pub fn fit_board_net(
    net: &mut BoardNet,
    graph: &BoardGraph,
    examples: &[BoardExample],
    plan: &BoardFitPlan,
    progress: &mut dyn FnMut(usize, f64, f64),
) {
    let adam = &plan.adam;
    let mut rng = Rng::seeded(adam.seed);
    let layout = net.layout();
    let size = net.params.len();
    let (mut moments, mut g) = (Adam::new(size), vec![0.0f32; size]);
    // Weights decay; biases do not.
    let mut decays = vec![0.0f32; size];
    let mut weights = vec![layout.input(), layout.policy(), layout.value()];
    for b in 0..layout.blocks {
        let [a, n, _] = layout.block(b);
        weights.extend([a, n]);
    }
    for range in weights {
        decays[range].fill(adam.decay);
    }
    let mut order: Vec<usize> = (0..examples.len()).collect();
    let mut step = 0i32;
    let mut trace = BoardTrace::default();
    let mut d_logits = vec![0.0f32; 2 * graph.len()];
    for epoch in 0..adam.epochs {
        shuffle(&mut order, &mut rng);
        let (mut policy_total, mut value_total) = (0.0f64, 0.0f64);
        for batch in order.chunks(adam.batch.max(1)) {
            g.fill(0.0);
            for &i in batch {
                let e = &examples[i];
                net.evaluate(graph, &e.features, &mut trace);
                policy_total += policy_loss(&trace.logits, &e.moves, &mut d_logits);
                let p = trace.value;
                let y = e.value;
                value_total += log_loss(p, y);
                let d_value = plan.value_weight * (p - y);
                net.backward(graph, &e.features, &trace, &d_logits, d_value, &mut g);
            }
            step += 1;
            let scale = 1.0 / batch.len() as f32;
            moments.step(&mut net.params, &g, scale, |j| decays[j], adam.rate, step);
        }
        let n = examples.len().max(1) as f64;
        progress(epoch + 1, policy_total / n, value_total / n);
    }
}

/// What a board network scores on examples.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BoardScore {
    /// Share of the examples whose search's choice is the policy's first.
    pub top1: f64,
    /// Share whose search's choice is among the policy's first five.
    pub top5: f64,
    /// Mean cross-entropy against the visit shares.
    pub policy_loss: f64,
    /// Mean distance of the value from the search's value.
    pub value_distance: f64,
    /// Mean log-loss of the value against the games' winners.
    pub winner_loss: f64,
}

/// Scores `net` on `examples`.
pub fn score_board_net(
    net: &BoardNet,
    graph: &BoardGraph,
    examples: &[BoardExample],
) -> BoardScore {
    let mut trace = BoardTrace::default();
    let mut d = vec![0.0f32; 2 * graph.len()];
    let mut s = BoardScore::default();
    for e in examples {
        net.evaluate(graph, &e.features, &mut trace);
        s.policy_loss += policy_loss(&trace.logits, &e.moves, &mut d);
        if let Some(chosen) = e.chosen {
            let mine = trace.logits[chosen as usize];
            let above = e
                .moves
                .iter()
                .filter(|&&(o, _)| o != chosen && trace.logits[o as usize] > mine)
                .count();
            s.top1 += f64::from(u8::from(above == 0));
            s.top5 += f64::from(u8::from(above < 5));
        }
        s.value_distance += f64::from((trace.value - e.value).abs());
        let p = f64::from(trace.value).clamp(1e-7, 1.0 - 1e-7);
        s.winner_loss -= if e.black_wins { p.ln() } else { (1.0 - p).ln() };
    }
    let n = examples.len().max(1) as f64;
    BoardScore {
        top1: s.top1 / n,
        top5: s.top5 / n,
        policy_loss: s.policy_loss / n,
        value_distance: s.value_distance / n,
        winner_loss: s.winner_loss / n,
    }
}

/// The priors of `actions` (legal in `game`, which `net` fits) from the
/// policy: each stone's chance under the softmax over `actions`' stones,
/// over the largest, so the most likely has prior 1; actions that place no
/// stone get 1. `trace` and `x` are kept between calls.
pub fn board_priors<G: Game>(
    net: &BoardNet,
    graph: &BoardGraph,
    game: &G,
    actions: &[Action],
    x: &mut Vec<f32>,
    trace: &mut BoardTrace,
    out: &mut Vec<f32>,
) {
    features(game, graph, x);
    net.evaluate(graph, x, trace);
    out.clear();
    let top = actions
        .iter()
        .filter_map(|&a| graph.output_of(a))
        .map(|o| trace.logits[o])
        .fold(f32::NEG_INFINITY, f32::max);
    out.extend(actions.iter().map(|&a| match graph.output_of(a) {
        Some(o) => (trace.logits[o] - top).exp(),
        None => 1.0,
    }));
}

#[cfg(test)]
mod tests {
    use super::*;
    use oddity_rules::{AnyGame, OddGame, Rules};

    fn odd(size: usize) -> OddGame<1> {
        OddGame::new(&GameSpec::new(GameKind::Odd, size, Rules::default()).unwrap())
    }

    fn net_for<G: Game>(game: &G, channels: usize, blocks: usize, seed: u64) -> BoardNet {
        let spec = game.spec();
        BoardNet::random(
            spec.kind,
            spec.size,
            &spec.rules_text(),
            game.topology().cell_count(),
            channels,
            blocks,
            &mut Rng::seeded(seed),
        )
    }

    /// A position of `game` after `turns` random turns.
    fn played<G: Game + Clone>(mut game: G, turns: usize, seed: u64) -> G {
        let mut rng = Rng::seeded(seed);
        let mut actions = Vec::new();
        for _ in 0..turns {
            if game.is_over() {
                break;
            }
            actions.clear();
            game.legal_actions(&mut actions);
            game.apply(actions[rng.below(actions.len() as u32) as usize]);
        }
        game
    }

    /// The network as its definition reads (module docs), one dot product
    /// after another: the logits and the value.
    fn by_definition(net: &BoardNet, graph: &BoardGraph, x: &[f32]) -> (Vec<f32>, f32) {
        let (n, c, l, p) = (graph.len(), net.channels, net.layout(), &net.params);
        let dot = |w: &[f32], x: &[f32]| w.iter().zip(x).fold(0.0f32, |s, (a, b)| s + a * b);
        let rows = |w: &[f32], x: &[f32]| -> Vec<f32> {
            w.chunks_exact(x.len()).map(|row| dot(row, x)).collect()
        };
        let mut h: Vec<Vec<f32>> = (0..n)
            .map(|i| {
                let s = rows(&p[l.input()], &x[i * FEATURES..(i + 1) * FEATURES]);
                s.iter()
                    .zip(&p[l.input_bias()])
                    .map(|(s, b)| (b + s).max(0.0))
                    .collect()
            })
            .collect();
        for k in 0..net.blocks {
            let [a, near, bias] = l.block(k);
            h = (0..n)
                .map(|i| {
                    let around = graph.neighbours(i);
                    let mut m = vec![0.0f32; c];
                    for &j in around {
                        for (s, v) in m.iter_mut().zip(&h[j as usize]) {
                            *s += v;
                        }
                    }
                    let scale = 1.0 / around.len().max(1) as f32;
                    m.iter_mut().for_each(|s| *s *= scale);
                    let (sa, sn) = (rows(&p[a.clone()], &h[i]), rows(&p[near.clone()], &m));
                    (0..c)
                        .map(|o| h[i][o] + (p[bias.start + o] + sa[o] + sn[o]).max(0.0))
                        .collect()
                })
                .collect();
        }
        let (pw, pb) = (&p[l.policy()], &p[l.policy_bias()]);
        let logits = h
            .iter()
            .flat_map(|hi| [pb[0] + dot(&pw[..c], hi), pb[1] + dot(&pw[c..], hi)])
            .collect();
        let mut mean = vec![0.0f32; c];
        for hi in &h {
            for (s, v) in mean.iter_mut().zip(hi) {
                *s += v / n as f32;
            }
        }
        (
            logits,
            sigmoid(p[l.value_bias()] + dot(&p[l.value()], &mean)),
        )
    }

    /// `evaluate`'s loops give the definition's numbers bit for bit, on
    /// Odd and Onyx positions, whatever the shape.
    #[test]
    fn evaluation_is_the_definition_bit_for_bit() {
        // Every parameter moved, so that the biases (zero when drawn)
        // count in the order of the sums.
        let shifted = |mut net: BoardNet| {
            for (k, w) in net.params.iter_mut().enumerate() {
                *w += ((k * 7919 % 13) as f32 - 6.0) * 0.01;
            }
            net
        };
        let onyx = AnyGame::new(&GameSpec::new(GameKind::Onyx, 10, Rules::default()).unwrap());
        for (shape, seed) in [((4, 1), 1), ((16, 3), 2), ((8, 2), 3)] {
            for turns in [0, 9, 30] {
                let odd = played(odd(4), turns, seed);
                oddity_rules::with_game!(&onyx, g => {
                    let onyx = played(g.clone(), turns, seed);
                    for (graph, x, net) in [
                        {
                            let graph = BoardGraph::new(odd.topology());
                            let mut x = Vec::new();
                            features(&odd, &graph, &mut x);
                            (graph, x, shifted(net_for(&odd, shape.0, shape.1, seed)))
                        },
                        {
                            let graph = BoardGraph::new(onyx.topology());
                            let mut x = Vec::new();
                            features(&onyx, &graph, &mut x);
                            (graph, x, shifted(net_for(&onyx, shape.0, shape.1, seed)))
                        },
                    ] {
                        let mut trace = BoardTrace::default();
                        net.evaluate(&graph, &x, &mut trace);
                        let (logits, value) = by_definition(&net, &graph, &x);
                        let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
                        assert_eq!(bits(&trace.logits), bits(&logits));
                        assert_eq!(trace.value.to_bits(), value.to_bits());
                    }
                });
            }
        }
    }

    /// The gradient `backward` adds equals the loss's change when each
    /// parameter moves a little, on an Odd and an Onyx position.
    #[test]
    fn the_gradient_is_the_losss_slope() {
        let spec = GameSpec::new(GameKind::Onyx, 4, Rules::default()).unwrap();
        check_gradient(played(odd(3), 9, 2));
        let onyx = AnyGame::new(&spec);
        oddity_rules::with_game!(&onyx, g => check_gradient(played(g.clone(), 7, 3)));
    }

    fn check_gradient<G: Game + Clone>(game: G) {
        let graph = BoardGraph::new(game.topology());
        let mut net = net_for(&game, 4, 2, 5);
        // Biases away from zero, so that rectified units are on and off.
        for (k, w) in net.params.iter_mut().enumerate() {
            *w += 0.05 * ((k * 7919) % 13) as f32 / 13.0;
        }
        let mut x = Vec::new();
        features(&game, &graph, &mut x);
        let mut actions = Vec::new();
        game.legal_actions(&mut actions);
        let outs: Vec<u32> = actions
            .iter()
            .filter_map(|&a| graph.output_of(a))
            .map(|o| o as u32)
            .collect();
        let share = 1.0 / outs.len() as f32;
        let moves: Vec<(u32, f32)> = outs.iter().map(|&o| (o, share)).collect();
        let target = 0.3f32;
        let loss = |net: &BoardNet| {
            let mut t = BoardTrace::default();
            net.evaluate(&graph, &x, &mut t);
            let mut d = vec![0.0; 2 * graph.len()];
            let p = f64::from(t.value);
            let y = f64::from(target);
            policy_loss(&t.logits, &moves, &mut d) - (y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        };
        let mut trace = BoardTrace::default();
        net.evaluate(&graph, &x, &mut trace);
        let mut d_logits = vec![0.0; 2 * graph.len()];
        policy_loss(&trace.logits, &moves, &mut d_logits);
        let mut grad = vec![0.0; net.params.len()];
        net.backward(
            &graph,
            &x,
            &trace,
            &d_logits,
            trace.value - target,
            &mut grad,
        );
        let h = 1e-3f32;
        let mut checked = 0;
        for (k, &g) in grad.iter().enumerate() {
            let keep = net.params[k];
            net.params[k] = keep + h;
            let up = loss(&net);
            net.params[k] = keep - h;
            let down = loss(&net);
            net.params[k] = keep;
            let slope = (up - down) / (2.0 * f64::from(h));
            let g = f64::from(g);
            assert!(
                (slope - g).abs() < 2e-3 + 0.02 * slope.abs(),
                "parameter {k}: slope {slope}, gradient {g}"
            );
            checked += usize::from(g.abs() > 1e-4);
        }
        // Most parameters matter, so the comparison is not between zeros.
        assert!(checked > net.params.len() / 2, "{checked}");
    }

    #[test]
    fn features_describe_the_position() {
        let game = played(odd(3), 12, 4);
        let graph = BoardGraph::new(game.topology());
        let mut x = Vec::new();
        features(&game, &graph, &mut x);
        assert_eq!(x.len(), graph.len() * FEATURES);
        let stones: f32 = x.chunks(FEATURES).map(|f| f[0] + f[1]).sum();
        assert_eq!(stones as u32, game.turns_played());
        for (i, f) in x.chunks(FEATURES).enumerate() {
            let stone = game.stone_at(graph.cells[i]);
            assert_eq!(f[0] == 1.0, stone == Some(Colour::Black));
            assert_eq!(f[1] == 1.0, stone == Some(Colour::White));
            assert_eq!(f[2] == 1.0, stone.is_none());
            assert_eq!(f[3] > 0.0, stone.is_some());
        }
    }

    #[test]
    fn a_network_carries_to_another_size_of_its_game() {
        let net = net_for(&odd(3), 3, 2, 7);
        let bigger = odd(4);
        let carried = net
            .carried_to(bigger.spec(), bigger.topology().cell_count())
            .unwrap();
        assert!(carried.fits(&bigger) && !carried.fits(&odd(3)));
        assert_eq!(carried.params, net.params);
        let graph = BoardGraph::new(bigger.topology());
        let (mut x, mut trace) = (Vec::new(), BoardTrace::default());
        features(&played(bigger, 10, 3), &graph, &mut x);
        carried.evaluate(&graph, &x, &mut trace);
        assert_eq!(trace.logits.len(), 2 * graph.len());
        assert!(trace.value > 0.0 && trace.value < 1.0);
        let onyx = GameSpec::new(GameKind::Onyx, 4, Rules::default()).unwrap();
        let refused = net.carried_to(&onyx, 10).unwrap_err();
        assert!(
            refused.contains("odd") && refused.contains("onyx"),
            "{refused}"
        );
    }

    #[test]
    fn the_text_reads_back_exactly() {
        let net = net_for(&odd(3), 3, 2, 5);
        let text = net.to_text(&["a comment".into()]);
        let back = BoardNet::parse(&text).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.to_text(&["a comment".into()]), text);
    }

    #[test]
    fn bad_files_are_refused_with_their_line() {
        let good = net_for(&odd(2), 2, 1, 1).to_text(&[]);
        let lines: Vec<&str> = good.lines().collect();
        let with = |k: usize, line: &str| {
            let mut l = lines.clone();
            l[k] = line;
            l.join("\n")
        };
        let cases = [
            (String::new(), 1),
            (with(0, "oddity-board-net 2"), 1),
            (with(2, "size x"), 3),
            (with(5, "channels 0"), 6),
            (with(6, "blocks 99"), 7),
            (with(7, "input 1"), 8),
            (with(8, "input 1 x 1 1 1 1 1 1 1 1 1 1"), 9),
            (lines[..lines.len() - 1].join("\n"), lines.len()),
            (format!("{good}value_bias 1\n"), lines.len() + 1),
        ];
        for (text, line) in cases {
            let e = BoardNet::parse(&text).unwrap_err();
            assert!(e.contains(&format!("line {line}:")), "{e} (line {line})");
        }
    }

    #[test]
    fn missing_and_corrupt_files_name_the_file() {
        let dir = std::env::temp_dir().join(format!("oddity-board-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, "oddity-board-net 1\ngame odd\nsize 0\n").unwrap();
        let e = BoardNetFile::load(bad.to_str().unwrap()).unwrap_err();
        assert!(e.contains("bad.txt: board net file, line 3"), "{e}");
        let e = BoardNetFile::load(dir.join("none.txt").to_str().unwrap()).unwrap_err();
        assert!(e.starts_with("cannot read "), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// On Odd 2, a policy fitted to always choose one cell's Black stone
    /// learns it, a value fitted to Black winning where the first cell is
    /// Black learns that, and one seed gives the same bytes.
    #[test]
    fn fitting_learns_and_repeats() {
        let start = odd(2);
        let graph = BoardGraph::new(start.topology());
        let mut examples = Vec::new();
        let mut actions = Vec::new();
        for seed in 0..200 {
            let game = played(start.clone(), (seed % 5) as usize, seed);
            if game.is_over() {
                continue;
            }
            let mut x = Vec::new();
            features(&game, &graph, &mut x);
            actions.clear();
            game.legal_actions(&mut actions);
            // The favourite: the Black stone on the last empty cell.
            let favourite = actions
                .iter()
                .filter(|a| a.is_stone() && a.colour() == Colour::Black)
                .filter_map(|&a| graph.output_of(a))
                .max()
                .unwrap() as u32;
            let moves = actions
                .iter()
                .filter_map(|&a| graph.output_of(a))
                .map(|o| (o as u32, f32::from(u8::from(o as u32 == favourite))))
                .collect();
            let black = game.stone_at(graph.cells[0]) == Some(Colour::Black);
            examples.push(BoardExample {
                features: x,
                moves,
                chosen: Some(favourite),
                value: if black { 0.9 } else { 0.1 },
                black_wins: black,
            });
        }
        let plan = BoardFitPlan {
            adam: AdamPlan {
                epochs: 60,
                batch: 16,
                rate: 0.01,
                decay: 0.0,
                seed: 7,
            },
            value_weight: 1.0,
        };
        let fitted = || {
            let mut net = net_for(&start, 8, 2, 1);
            let before = score_board_net(&net, &graph, &examples);
            fit_board_net(&mut net, &graph, &examples, &plan, &mut |_, _, _| {});
            (before, net)
        };
        let (before, net) = fitted();
        let after = score_board_net(&net, &graph, &examples);
        assert!(after.top1 > 0.95, "{before:?} -> {after:?}");
        assert!(after.value_distance < 0.1, "{before:?} -> {after:?}");
        assert_eq!(fitted().1.to_text(&[]), net.to_text(&[]));
    }

    /// The Odd 5 network fitted to deep searches (docs/patterns.md gives
    /// the command) reads, fits Odd 5 and no other board, and gives a
    /// policy over every stone of the empty board and a chance.
    #[test]
    fn the_odd5_network_of_the_repository_reads() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/nets/odd5-board.txt");
        let file = BoardNetFile::load(path).unwrap();
        let spec = GameSpec::new(GameKind::Odd, 5, Rules::default()).unwrap();
        let odd5 = OddGame::<2>::new(&spec);
        assert!(file.net.fits(&odd5));
        assert!(!file.net.fits(&odd(4)));
        let graph = BoardGraph::new(odd5.topology());
        let mut actions = Vec::new();
        odd5.legal_actions(&mut actions);
        let (mut x, mut trace, mut out) = (Vec::new(), BoardTrace::default(), Vec::new());
        board_priors(
            file.net, &graph, &odd5, &actions, &mut x, &mut trace, &mut out,
        );
        assert_eq!(out.len(), 2 * 61);
        assert!(out.iter().all(|&p| p > 0.0 && p <= 1.0));
        assert!(trace.value > 0.0 && trace.value < 1.0);
        let text = std::fs::read_to_string(path).unwrap();
        assert!(text.contains("--epochs 20 --channels 32 --blocks 4 --seed 1"));
    }

    /// The Onyx 12 networks of the repository read and fit Onyx 12 alone.
    #[test]
    fn the_onyx12_networks_of_the_repository_read() {
        let nets = [
            (
                concat!(env!("CARGO_MANIFEST_DIR"), "/nets/onyx12-board.txt"),
                (16, 3),
            ),
            (
                concat!(env!("CARGO_MANIFEST_DIR"), "/nets/onyx12-board-32x4.txt"),
                (32, 4),
            ),
        ];
        for (path, shape) in nets {
            let file = BoardNetFile::load(path).unwrap();
            let spec = |size| GameSpec::new(GameKind::Onyx, size, Rules::default()).unwrap();
            let fits = |size| {
                let game = AnyGame::new(&spec(size));
                oddity_rules::with_game!(&game, g => file.net.fits(g))
            };
            assert!(fits(12), "{path}");
            assert!(!fits(10), "{path}");
            assert_eq!((file.net.channels, file.net.blocks), shape, "{path}");
        }
    }

    #[test]
    fn priors_follow_the_policy() {
        let game = played(odd(3), 5, 8);
        let graph = BoardGraph::new(game.topology());
        let net = net_for(&game, 4, 1, 3);
        let mut actions = Vec::new();
        game.legal_actions(&mut actions);
        let (mut x, mut trace, mut out) = (Vec::new(), BoardTrace::default(), Vec::new());
        board_priors(&net, &graph, &game, &actions, &mut x, &mut trace, &mut out);
        assert_eq!(out.len(), actions.len());
        assert!(out.iter().all(|&p| p > 0.0 && p <= 1.0));
        assert!(out.contains(&1.0));
        let best = actions[out.iter().position(|&p| p == 1.0).unwrap()];
        let o = graph.output_of(best).unwrap();
        for &a in &actions {
            assert!(trace.logits[graph.output_of(a).unwrap()] <= trace.logits[o]);
        }
    }
}
