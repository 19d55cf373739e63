//! One forward evaluation of a small graph-convolutional board network,
//! written three ways: plain Rust loops ([`hand`]), candle ([`candle_net`])
//! and ndarray ([`ndarray_net`]).
//!
//! The network, per cell `i` of the board (the cells on the board, numbered
//! `0..cells` in increasing index order):
//! - input: `F` features `x_i`;
//! - input layer: `h_i = relu(W_in x_i + b_in)`, `W_in` is `C x F`;
//! - [`BLOCKS`] residual blocks: `h_i <- h_i + relu(A h_i + N m_i + b)`,
//!   where `m_i` is the mean of `h_j` over the neighbours `j` of cell `i`
//!   (every cell reads the previous layer);
//! - policy head: `logit_{i,k} = P_k . h_i + p_k` for `k` in 0..2;
//! - value head: `v = sigmoid(V . mean_i h_i + v0)`.
//!
//! Inputs of a batch of `B` positions are laid out cell-major,
//! `x[(i * B + b) * F + f]`, and the policy logits the same way,
//! `policy[(i * B + b) * 2 + k]`; a single position is the case `B = 1`.

pub mod candle_net;
pub mod hand;
pub mod ndarray_net;

use oddity_rules::{GameKind, GameSpec, Rules};

/// Input features per cell.
pub const F: usize = 8;
/// Residual blocks.
pub const BLOCKS: usize = 3;
/// Logits per cell.
pub const HEADS: usize = 2;

/// A board as the network sees it: its cells and their neighbours.
#[derive(Clone, Debug)]
pub struct Board {
    /// The board's name, as `Odd 5`.
    pub name: String,
    /// The cells on the board.
    pub cells: usize,
    /// The neighbours of each cell, as indices in `0..cells`.
    pub neighbours: Vec<Vec<usize>>,
}

impl Board {
    /// The board of `kind` at `size` with the default rules: the cells that
    /// are on the board and their neighbours as the topology defines them.
    pub fn new(kind: GameKind, size: usize) -> Board {
        let spec = GameSpec::new(kind, size, Rules::default()).expect("a valid board size");
        let topology = spec.topology();
        let cells = topology.cells();
        // Cell indices have gaps (the hex-hex board's cut-off corners): number
        // the cells on the board densely.
        let slots = cells.last().map_or(0, |c| c.index() + 1);
        let mut dense = vec![usize::MAX; slots];
        for (i, c) in cells.iter().enumerate() {
            dense[c.index()] = i;
        }
        let neighbours = cells
            .iter()
            .map(|&c| {
                topology
                    .neighbours(c)
                    .iter()
                    .map(|n| dense[n.index()])
                    .collect()
            })
            .collect();
        Board {
            name: format!("{kind:?} {size}"),
            cells: cells.len(),
            neighbours,
        }
    }

    /// The row-normalised adjacency matrix, `cells x cells` row-major:
    /// row `i` holds `1 / degree(i)` at each neighbour of `i`.
    pub fn mean_matrix(&self) -> Vec<f32> {
        let n = self.cells;
        let mut a = vec![0.0; n * n];
        for (i, ns) in self.neighbours.iter().enumerate() {
            let w = if ns.is_empty() {
                0.0
            } else {
                1.0 / ns.len() as f32
            };
            for &j in ns {
                a[i * n + j] += w;
            }
        }
        a
    }
}

/// A small seeded generator (SplitMix64) for weights and inputs.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[-1, 1)`.
    pub fn uniform(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }

    /// `len` values uniform in `[-scale, scale)`.
    pub fn vec(&mut self, len: usize, scale: f32) -> Vec<f32> {
        (0..len).map(|_| scale * self.uniform()).collect()
    }
}

/// One residual block's weights.
#[derive(Clone, Debug)]
pub struct Block {
    /// `A`, `C x C` row-major (output-major).
    pub a: Vec<f32>,
    /// `N`, `C x C` row-major.
    pub n: Vec<f32>,
    /// `b`, `C`.
    pub b: Vec<f32>,
}

/// The network's weights, all matrices row-major with one row per output.
#[derive(Clone, Debug)]
pub struct Weights {
    /// Channels.
    pub c: usize,
    /// `W_in`, `C x F`.
    pub w_in: Vec<f32>,
    /// `b_in`, `C`.
    pub b_in: Vec<f32>,
    /// The residual blocks.
    pub blocks: Vec<Block>,
    /// `P`, `2 x C`.
    pub p: Vec<f32>,
    /// `p`, `2`.
    pub p_bias: Vec<f32>,
    /// `V`, `C`.
    pub v: Vec<f32>,
    /// `v0`.
    pub v0: f32,
}

impl Weights {
    /// Random weights for `c` channels, uniform and scaled by the fan-in so
    /// that the activations stay of order one.
    pub fn random(c: usize, seed: u64) -> Weights {
        let mut rng = SplitMix::new(seed);
        let s_in = 1.0 / (F as f32).sqrt();
        let s_c = 1.0 / (c as f32).sqrt();
        let w_in = rng.vec(c * F, s_in);
        let b_in = rng.vec(c, 0.1);
        let blocks = (0..BLOCKS)
            .map(|_| Block {
                a: rng.vec(c * c, 0.5 * s_c),
                n: rng.vec(c * c, 0.5 * s_c),
                b: rng.vec(c, 0.1),
            })
            .collect();
        Weights {
            c,
            w_in,
            b_in,
            blocks,
            p: rng.vec(HEADS * c, s_c),
            p_bias: rng.vec(HEADS, 0.1),
            v: rng.vec(c, s_c),
            v0: 0.1 * rng.uniform(),
        }
    }
}

/// `rows x cols` row-major, transposed to `cols x rows` row-major.
pub fn transpose(m: &[f32], rows: usize, cols: usize) -> Vec<f32> {
    let mut t = vec![0.0; m.len()];
    for r in 0..rows {
        for c in 0..cols {
            t[c * rows + r] = m[r * cols + c];
        }
    }
    t
}

/// Random inputs for `batch` positions of `cells` cells, cell-major.
pub fn random_inputs(cells: usize, batch: usize, seed: u64) -> Vec<f32> {
    SplitMix::new(seed).vec(cells * batch * F, 1.0)
}

/// The logistic function.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The boards measured: Odd 5, Onyx 12, Odd 7 and Onyx 16.
pub fn boards() -> Vec<Board> {
    [
        (GameKind::Odd, 5),
        (GameKind::Onyx, 12),
        (GameKind::Odd, 7),
        (GameKind::Onyx, 16),
    ]
    .into_iter()
    .map(|(kind, size)| Board::new(kind, size))
    .collect()
}

/// Keeps every library on the calling thread: rayon, gemm (through candle)
/// and candle's own pool read these variables when they first start.
///
/// # Safety
/// Call before any other thread is started (it sets environment variables).
pub unsafe fn single_thread() {
    // SAFETY: the caller promises no other thread runs yet.
    unsafe {
        std::env::set_var("RAYON_NUM_THREADS", "1");
        std::env::set_var("CANDLE_NUM_THREADS", "1");
    }
}

/// The number of threads of this process (Linux; `None` elsewhere).
pub fn thread_count() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .and_then(|n| n.trim().parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOLERANCE: f32 = 1e-4;

    fn close(what: &str, a: &[f32], b: &[f32]) {
        assert_eq!(a.len(), b.len(), "{what}: lengths");
        for (i, (x, y)) in a.iter().zip(b).enumerate() {
            assert!((x - y).abs() <= TOLERANCE, "{what}[{i}]: {x} vs {y}");
        }
    }

    #[test]
    fn boards_have_their_cells() {
        let b = boards();
        assert_eq!(b[0].cells, 61);
        assert_eq!(b[2].cells, 127);
        for board in &b {
            for (i, ns) in board.neighbours.iter().enumerate() {
                assert!(!ns.is_empty());
                for &j in ns {
                    assert!(board.neighbours[j].contains(&i), "{}: {i}-{j}", board.name);
                }
            }
        }
        // Onyx has squares and triangles: its degrees vary.
        let degrees: std::collections::BTreeSet<usize> =
            b[1].neighbours.iter().map(Vec::len).collect();
        assert!(degrees.len() > 2, "{degrees:?}");
    }

    #[test]
    fn the_three_versions_agree() {
        unsafe { single_thread() };
        for board in boards() {
            for c in [16, 32] {
                let w = Weights::random(c, 7 + c as u64);
                let mut hand = hand::hand_net(&board, &w);
                let candle = candle_net::CandleNet::new(&board, &w).unwrap();
                let nd = ndarray_net::NdNet::new(&board, &w);
                let batch = 5;
                let x = random_inputs(board.cells, batch, 11);
                // Each position alone, through all three.
                let mut want_policy = vec![0.0; board.cells * batch * HEADS];
                let mut want_value = vec![0.0; batch];
                for b in 0..batch {
                    let one: Vec<f32> = (0..board.cells)
                        .flat_map(|i| &x[(i * batch + b) * F..(i * batch + b + 1) * F])
                        .copied()
                        .collect();
                    let mut policy = vec![0.0; board.cells * HEADS];
                    let value = hand.evaluate(&one, &mut policy);
                    assert!(policy.iter().all(|p| p.is_finite()));
                    // Not a network whose units all died: the logits differ.
                    assert!(policy.iter().any(|&p| (p - policy[0]).abs() > 0.1));
                    assert!(value > 0.0 && value < 1.0);
                    let (cp, cv) = candle.evaluate(&one, 1).unwrap();
                    let (np, nv) = nd.evaluate(&one, 1);
                    let what = format!("{} C={c} position {b}", board.name);
                    close(&format!("{what} candle policy"), &cp, &policy);
                    close(&format!("{what} ndarray policy"), &np, &policy);
                    close(&format!("{what} candle value"), &cv, &[value]);
                    close(&format!("{what} ndarray value"), &nv, &[value]);
                    for i in 0..board.cells {
                        for k in 0..HEADS {
                            want_policy[(i * batch + b) * HEADS + k] = policy[i * HEADS + k];
                        }
                    }
                    want_value[b] = value;
                }
                // The batch at once, through the batched versions.
                let what = format!("{} C={c} batch", board.name);
                let (cp, cv) = candle.evaluate(&x, batch).unwrap();
                let (np, nv) = nd.evaluate(&x, batch);
                close(&format!("{what} candle policy"), &cp, &want_policy);
                close(&format!("{what} ndarray policy"), &np, &want_policy);
                close(&format!("{what} candle value"), &cv, &want_value);
                close(&format!("{what} ndarray value"), &nv, &want_value);
            }
        }
    }
}
