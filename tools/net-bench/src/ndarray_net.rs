//! The network in ndarray (matrixmultiply underneath), in the same dense
//! formulation as the candle version: a batch of `B` positions is held
//! cell-major, `(cells * B, C)`, and the adjacency matrix multiplies it
//! viewed as `(cells, B * C)`.

use ndarray::linalg::general_mat_mul;
use ndarray::{Array1, Array2, ArrayView2, Axis};

use crate::{Board, F, HEADS, Weights, sigmoid, transpose};

struct BlockT {
    a_t: Array2<f32>,
    n_t: Array2<f32>,
    b: Array1<f32>,
}

/// The network's arrays for one board.
pub struct NdNet {
    c: usize,
    cells: usize,
    /// The mean matrix, `cells x cells`.
    adjacency: Array2<f32>,
    w_in_t: Array2<f32>,
    b_in: Array1<f32>,
    blocks: Vec<BlockT>,
    p_t: Array2<f32>,
    p_bias: Array1<f32>,
    v: Array1<f32>,
    v0: f32,
}

fn matrix(rows: usize, cols: usize, data: Vec<f32>) -> Array2<f32> {
    Array2::from_shape_vec((rows, cols), data).expect("rows x cols values")
}

impl NdNet {
    /// The network of `weights` on `board`.
    pub fn new(board: &Board, weights: &Weights) -> NdNet {
        let c = weights.c;
        let n = board.cells;
        NdNet {
            c,
            cells: n,
            adjacency: matrix(n, n, board.mean_matrix()),
            w_in_t: matrix(F, c, transpose(&weights.w_in, c, F)),
            b_in: Array1::from(weights.b_in.clone()),
            blocks: weights
                .blocks
                .iter()
                .map(|b| BlockT {
                    a_t: matrix(c, c, transpose(&b.a, c, c)),
                    n_t: matrix(c, c, transpose(&b.n, c, c)),
                    b: Array1::from(b.b.clone()),
                })
                .collect(),
            p_t: matrix(c, HEADS, transpose(&weights.p, HEADS, c)),
            p_bias: Array1::from(weights.p_bias.clone()),
            v: Array1::from(weights.v.clone()),
            v0: weights.v0,
        }
    }

    /// Evaluates `batch` positions: `x` is `cells x batch x F`. Returns the
    /// logits (`cells x batch x 2`) and the values (`batch`).
    pub fn evaluate(&self, x: &[f32], batch: usize) -> (Vec<f32>, Vec<f32>) {
        let (n, c) = (self.cells, self.c);
        let x = ArrayView2::from_shape((n * batch, F), x).expect("cells x batch x F inputs");
        let mut h = x.dot(&self.w_in_t) + &self.b_in;
        h.mapv_inplace(|v| v.max(0.0));
        for block in &self.blocks {
            let wide = h
                .view()
                .into_shape_with_order((n, batch * c))
                .expect("standard layout");
            let m = self.adjacency.dot(&wide);
            let m = m
                .into_shape_with_order((n * batch, c))
                .expect("standard layout");
            let mut u = h.dot(&block.a_t);
            general_mat_mul(1.0, &m, &block.n_t, 1.0, &mut u);
            u += &block.b;
            u.mapv_inplace(|v| v.max(0.0));
            h += &u;
        }
        let policy = h.dot(&self.p_t) + &self.p_bias;
        let wide = h
            .view()
            .into_shape_with_order((n, batch * c))
            .expect("standard layout");
        let mean = wide.mean_axis(Axis(0)).expect("cells");
        let mean = mean
            .into_shape_with_order((batch, c))
            .expect("standard layout");
        let value = mean.dot(&self.v).mapv(|z| sigmoid(z + self.v0));
        (
            policy.into_raw_vec_and_offset().0,
            value.into_raw_vec_and_offset().0,
        )
    }
}
