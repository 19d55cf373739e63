//! The network as plain Rust loops over neighbour lists: one position at a
//! time, cell-major buffers made once, nothing allocated per evaluation.
//! The channel count is a constant of the type (`[f32; C]` per cell), so
//! the compiler keeps a cell's accumulator in registers and unrolls the
//! loops over channels.

use crate::{BLOCKS, Board, F, HEADS, Weights, sigmoid};

/// One position's evaluation, whatever the channel count.
pub trait Evaluate {
    /// Evaluates one position: `x` is `cells x F`; writes the logits to
    /// `policy` (`cells x 2`) and returns the value.
    fn evaluate(&mut self, x: &[f32], policy: &mut [f32]) -> f32;
}

/// The hand-written network of `weights` on `board`, for the channel
/// counts 8, 16, 32 and 64.
pub fn hand_net(board: &Board, weights: &Weights) -> Box<dyn Evaluate> {
    match weights.c {
        8 => Box::new(HandNet::<8>::new(board, weights)),
        16 => Box::new(HandNet::<16>::new(board, weights)),
        32 => Box::new(HandNet::<32>::new(board, weights)),
        64 => Box::new(HandNet::<64>::new(board, weights)),
        c => panic!("no hand-written network of {c} channels"),
    }
}

/// The network and its scratch buffers for one board, `C` channels.
#[derive(Clone, Debug)]
pub struct HandNet<const C: usize> {
    /// Neighbours of cell `i`: `adjacency[start[i]..start[i + 1]]`.
    start: Vec<u32>,
    adjacency: Vec<u32>,
    /// `1 / degree` of each cell.
    inverse_degree: Vec<f32>,
    /// `W_in` transposed, input-major: row `f` holds input `f`'s weight into
    /// each channel.
    w_in_t: [[f32; C]; F],
    b_in: [f32; C],
    /// Per block, `A` and `N` transposed (input-major) and `b`.
    a_t: Vec<[[f32; C]; C]>,
    n_t: Vec<[[f32; C]; C]>,
    b: Vec<[f32; C]>,
    p: [[f32; C]; HEADS],
    p_bias: [f32; HEADS],
    v: [f32; C],
    v0: f32,
    /// `h`, one row per cell.
    h: Vec<[f32; C]>,
    /// `m`, one row per cell.
    m: Vec<[f32; C]>,
}

/// `rows x C` row-major (output-major), transposed to input-major rows.
fn input_major<const R: usize, const C: usize>(m: &[f32]) -> [[f32; C]; R] {
    assert_eq!(m.len(), R * C);
    std::array::from_fn(|r| std::array::from_fn(|o| m[o * R + r]))
}

fn row<const C: usize>(v: &[f32]) -> [f32; C] {
    v.try_into().expect("C values")
}

impl<const C: usize> HandNet<C> {
    /// The network of `weights` on `board`.
    pub fn new(board: &Board, weights: &Weights) -> HandNet<C> {
        assert_eq!(weights.c, C);
        let cells = board.cells;
        let mut start = vec![0u32];
        let mut adjacency = Vec::new();
        let mut inverse_degree = Vec::with_capacity(cells);
        for ns in &board.neighbours {
            adjacency.extend(ns.iter().map(|&j| j as u32));
            start.push(adjacency.len() as u32);
            inverse_degree.push(if ns.is_empty() {
                0.0
            } else {
                1.0 / ns.len() as f32
            });
        }
        HandNet {
            start,
            adjacency,
            inverse_degree,
            w_in_t: input_major(&weights.w_in),
            b_in: row(&weights.b_in),
            a_t: weights.blocks.iter().map(|b| input_major(&b.a)).collect(),
            n_t: weights.blocks.iter().map(|b| input_major(&b.n)).collect(),
            b: weights.blocks.iter().map(|b| row(&b.b)).collect(),
            p: std::array::from_fn(|k| row(&weights.p[k * C..(k + 1) * C])),
            p_bias: row(&weights.p_bias),
            v: row(&weights.v),
            v0: weights.v0,
            h: vec![[0.0; C]; cells],
            m: vec![[0.0; C]; cells],
        }
    }
}

impl<const C: usize> Evaluate for HandNet<C> {
    fn evaluate(&mut self, x: &[f32], policy: &mut [f32]) -> f32 {
        let cells = self.h.len();
        assert_eq!(x.len(), cells * F);
        assert_eq!(policy.len(), cells * HEADS);
        // Input layer.
        for (h, x) in self.h.iter_mut().zip(x.chunks_exact(F)) {
            let mut acc = self.b_in;
            for (&xf, w) in x.iter().zip(&self.w_in_t) {
                for o in 0..C {
                    acc[o] += w[o] * xf;
                }
            }
            *h = acc.map(|a| a.max(0.0));
        }
        for block in 0..BLOCKS {
            // The neighbours' means, all from the previous layer.
            for (i, m) in self.m.iter_mut().enumerate() {
                let mut sum = [0.0; C];
                let ns = &self.adjacency[self.start[i] as usize..self.start[i + 1] as usize];
                for &j in ns {
                    let hj = &self.h[j as usize];
                    for o in 0..C {
                        sum[o] += hj[o];
                    }
                }
                let s = self.inverse_degree[i];
                *m = sum.map(|v| v * s);
            }
            // Each cell's update reads only its own h and m: in place.
            let (a_t, n_t) = (&self.a_t[block], &self.n_t[block]);
            for (h, m) in self.h.iter_mut().zip(&self.m) {
                let mut acc = self.b[block];
                for k in 0..C {
                    let (hk, mk) = (h[k], m[k]);
                    for o in 0..C {
                        acc[o] += a_t[k][o] * hk + n_t[k][o] * mk;
                    }
                }
                for o in 0..C {
                    h[o] += acc[o].max(0.0);
                }
            }
        }
        // Heads.
        let mut sum = [0.0; C];
        for (h, out) in self.h.iter().zip(policy.chunks_exact_mut(HEADS)) {
            for ((out, p), &bias) in out.iter_mut().zip(&self.p).zip(&self.p_bias) {
                let l: f32 = p.iter().zip(h).map(|(&p, &h)| p * h).sum();
                *out = l + bias;
            }
            for o in 0..C {
                sum[o] += h[o];
            }
        }
        let inv = 1.0 / cells as f32;
        let dot: f32 = (0..C).map(|o| sum[o] * inv * self.v[o]).sum();
        sigmoid(dot + self.v0)
    }
}
