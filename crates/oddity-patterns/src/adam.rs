//! What the networks' fits share: minibatch Adam over a vector of
//! parameters, the seeded order of the examples, and the log-loss.

use oddity_rules::Rng;

/// How a network is fitted: minibatch Adam.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdamPlan {
    /// Passes over the examples.
    pub epochs: usize,
    /// Examples per step.
    pub batch: usize,
    /// Adam's step size.
    pub rate: f32,
    /// L2 penalty on the weights, per step.
    pub decay: f32,
    /// Seeds the first weights and everything the fit draws (the order
    /// of the examples, and the symmetries of the value network's fit).
    pub seed: u64,
}

/// Adam's running moments for a vector of parameters.
pub(crate) struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

impl Adam {
    /// Moments at zero for `len` parameters.
    pub(crate) fn new(len: usize) -> Adam {
        Adam {
            m: vec![0.0; len],
            v: vec![0.0; len],
        }
    }

    /// Step `step` (from 1) of `params` down the summed gradient `grad`
    /// of a batch, taken as `grad * scale` plus `decay` times each weight.
    pub(crate) fn step(
        &mut self,
        params: &mut [f32],
        grad: &[f32],
        scale: f32,
        decay: impl Fn(usize) -> f32,
        rate: f32,
        step: i32,
    ) {
        let c1 = 1.0 - BETA1.powi(step);
        let c2 = 1.0 - BETA2.powi(step);
        for (j, w) in params.iter_mut().enumerate() {
            let g = grad[j] * scale + decay(j) * *w;
            let (m, v) = (&mut self.m[j], &mut self.v[j]);
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *w -= rate * (*m / c1) / ((*v / c2).sqrt() + EPSILON);
        }
    }
}

/// Shuffles `order` (Fisher-Yates) with `rng`.
pub(crate) fn shuffle(order: &mut [usize], rng: &mut Rng) {
    for i in (1..order.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
}

/// The log-loss (natural log) of the chance `p` against the target `y`.
pub(crate) fn log_loss(p: f32, y: f32) -> f64 {
    -f64::from(y * p.max(1e-7).ln() + (1.0 - y) * (1.0 - p).max(1e-7).ln())
}
