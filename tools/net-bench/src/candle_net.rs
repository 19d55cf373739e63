//! The network in candle on the CPU, in the dense formulation: the
//! neighbours' mean is a matmul by the row-normalised adjacency matrix, and
//! the per-cell linear maps are matmuls. A batch of `B` positions is held
//! cell-major, `(cells * B, C)`, so that every step is one 2-D matmul: the
//! adjacency matrix multiplies it viewed as `(cells, B * C)`.

use candle_core::{Device, Result, Tensor};

use crate::{Board, F, HEADS, Weights, transpose};

struct BlockT {
    /// `A` transposed, `C x C`.
    a_t: Tensor,
    /// `N` transposed, `C x C`.
    n_t: Tensor,
    /// `b`, `(1, C)`.
    b: Tensor,
}

/// The network's tensors for one board.
pub struct CandleNet {
    device: Device,
    c: usize,
    cells: usize,
    /// The mean matrix, `cells x cells`.
    adjacency: Tensor,
    w_in_t: Tensor,
    b_in: Tensor,
    blocks: Vec<BlockT>,
    p_t: Tensor,
    p_bias: Tensor,
    v_col: Tensor,
    v0: f64,
}

impl CandleNet {
    /// The network of `weights` on `board`, on the CPU.
    pub fn new(board: &Board, weights: &Weights) -> Result<CandleNet> {
        let device = Device::Cpu;
        let c = weights.c;
        let n = board.cells;
        let d = &device;
        let blocks = weights
            .blocks
            .iter()
            .map(|b| {
                Ok(BlockT {
                    a_t: Tensor::from_vec(transpose(&b.a, c, c), (c, c), d)?,
                    n_t: Tensor::from_vec(transpose(&b.n, c, c), (c, c), d)?,
                    b: Tensor::from_slice(&b.b, (1, c), d)?,
                })
            })
            .collect::<Result<_>>()?;
        Ok(CandleNet {
            c,
            cells: n,
            adjacency: Tensor::from_vec(board.mean_matrix(), (n, n), d)?,
            w_in_t: Tensor::from_vec(transpose(&weights.w_in, c, F), (F, c), d)?,
            b_in: Tensor::from_slice(&weights.b_in, (1, c), d)?,
            blocks,
            p_t: Tensor::from_vec(transpose(&weights.p, HEADS, c), (c, HEADS), d)?,
            p_bias: Tensor::from_slice(&weights.p_bias, (1, HEADS), d)?,
            v_col: Tensor::from_slice(&weights.v, (c, 1), d)?,
            v0: f64::from(weights.v0),
            device,
        })
    }

    /// Evaluates `batch` positions: `x` is `cells x batch x F`. Returns the
    /// logits (`cells x batch x 2`) and the values (`batch`).
    pub fn evaluate(&self, x: &[f32], batch: usize) -> Result<(Vec<f32>, Vec<f32>)> {
        let (n, c) = (self.cells, self.c);
        let x = Tensor::from_slice(x, (n * batch, F), &self.device)?;
        let mut h = x.matmul(&self.w_in_t)?.broadcast_add(&self.b_in)?.relu()?;
        for block in &self.blocks {
            let m = self
                .adjacency
                .matmul(&h.reshape((n, batch * c))?)?
                .reshape((n * batch, c))?;
            let u = (h.matmul(&block.a_t)? + m.matmul(&block.n_t)?)?
                .broadcast_add(&block.b)?
                .relu()?;
            h = (h + u)?;
        }
        let policy = h.matmul(&self.p_t)?.broadcast_add(&self.p_bias)?;
        let mean = h.reshape((n, batch * c))?.mean(0)?.reshape((batch, c))?;
        let z = mean.matmul(&self.v_col)?.affine(1.0, self.v0)?;
        // The logistic function: 1 / (1 + exp(-z)).
        let value = z.neg()?.exp()?.affine(1.0, 1.0)?.recip()?;
        Ok((
            policy.flatten_all()?.to_vec1()?,
            value.flatten_all()?.to_vec1()?,
        ))
    }
}
