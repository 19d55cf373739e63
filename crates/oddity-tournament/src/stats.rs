//! Match statistics: Elo difference with a 95% interval, likelihood of
//! superiority, and a sequential probability ratio test over game pairs.
//!
//! These games have no draws, so a game scores 1 or 0. Games without a result
//! (the length cap) are left out of every statistic.
//!
//! - Elo (logistic): `elo(s) = -400 log10(1/s - 1)` for the score fraction s.
//! - 95% interval: s +- 1.96 standard errors of the mean game score, mapped
//!   through `elo`; reported as half the width of the mapped interval.
//! - LOS = Phi((W - L) / sqrt(W + L)).
//! - SPRT: pentanomial counts over game pairs (each pair scores 0, 0.5, 1,
//!   1.5 or 2 for the first engine), logistic Elo hypotheses, and the
//!   generalized SPRT's normal approximation of the log-likelihood ratio
//!   (M. Van den Bergh): with pair score x in [0, 1] (half the pair's points),
//!   its mean m and variance v over N pairs, and s_i = 1 / (1 + 10^(-elo_i/400)),
//!   `LLR = N (s1 - s0) (2m - s0 - s1) / (2v)`. Empty pentanomial cells are
//!   given a weight of 1e-3 so that one-sided results have a variance.
//!   The test accepts H1 at `ln((1-beta)/alpha)`, H0 at `ln(beta/(1-alpha))`.
//! - Fisher's exact test of two win-loss records ([`fisher_exact`]).

/// Elo difference of a score fraction (0 < s < 1; infinite at the ends).
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Expected score of an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The standard normal distribution function.
pub fn phi(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// Complementary error function (Numerical Recipes' Chebyshev fit,
/// relative error below 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// Likelihood of superiority from wins and losses (0.5 with no games).
pub fn los(wins: u64, losses: u64) -> f64 {
    if wins + losses == 0 {
        return 0.5;
    }
    phi((wins as f64 - losses as f64) / ((wins + losses) as f64).sqrt())
}

/// Elo difference and the half-width of its 95% interval from wins and
/// losses; `None` without games.
pub fn elo_with_error(wins: u64, losses: u64) -> Option<(f64, f64)> {
    let n = (wins + losses) as f64;
    if n == 0.0 {
        return None;
    }
    let s = wins as f64 / n;
    let se = (s * (1.0 - s) / n).sqrt();
    let lo = elo_from_score((s - 1.96 * se).max(0.0));
    let hi = elo_from_score((s + 1.96 * se).min(1.0));
    Some((elo_from_score(s), (hi - lo) / 2.0))
}

/// SPRT settings: Elo bounds of the hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Why SPRT settings cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SprtError {
    #[error("sprt: '{0}' is not KEY=VALUE")]
    NotKeyValue(String),
    #[error("sprt: '{0}' is not a number")]
    NotNumber(String),
    #[error("sprt: unknown key '{0}' (elo0, elo1, alpha, beta)")]
    UnknownKey(String),
    #[error("sprt: elo0 and elo1 are required")]
    NoBounds,
    #[error("sprt: elo1 must be larger than elo0")]
    BoundsOrder,
    /// `alpha` or `beta` out of range.
    #[error("sprt: {0} must be between 0 and 0.5")]
    ErrorRate(&'static str),
}

/// The state of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Continue,
    AcceptH0,
    AcceptH1,
}

impl Sprt {
    /// Parses `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order; spaces or commas).
    pub fn parse(text: &str) -> Result<Sprt, SprtError> {
        let mut s = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for part in text.split([' ', ',']).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| SprtError::NotKeyValue(part.to_string()))?;
            let v: f64 = value
                .parse()
                .map_err(|_| SprtError::NotNumber(value.to_string()))?;
            match key {
                "elo0" => s.elo0 = v,
                "elo1" => s.elo1 = v,
                "alpha" => s.alpha = v,
                "beta" => s.beta = v,
                _ => return Err(SprtError::UnknownKey(key.to_string())),
            }
        }
        if !s.elo0.is_finite() || !s.elo1.is_finite() {
            return Err(SprtError::NoBounds);
        }
        if s.elo1 <= s.elo0 {
            return Err(SprtError::BoundsOrder);
        }
        for (name, v) in [("alpha", s.alpha), ("beta", s.beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(SprtError::ErrorRate(name));
            }
        }
        Ok(s)
    }

    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of pentanomial pair counts
    /// (`penta[k]`: pairs in which the first engine scored k/2 points).
    pub fn llr(&self, penta: &[u64; 5]) -> f64 {
        let pairs: u64 = penta.iter().sum();
        if pairs == 0 {
            return 0.0;
        }
        let weights: Vec<f64> = penta
            .iter()
            .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
            .collect();
        let total: f64 = weights.iter().sum();
        let x = |k: usize| k as f64 / 4.0;
        let mean: f64 = (0..5).map(|k| weights[k] * x(k)).sum::<f64>() / total;
        let var: f64 = (0..5)
            .map(|k| weights[k] * (x(k) - mean).powi(2))
            .sum::<f64>()
            / total;
        if var <= 0.0 {
            return 0.0;
        }
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        pairs as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    pub fn verdict(&self, penta: &[u64; 5]) -> Verdict {
        let llr = self.llr(penta);
        if llr >= self.upper_bound() {
            Verdict::AcceptH1
        } else if llr <= self.lower_bound() {
            Verdict::AcceptH0
        } else {
            Verdict::Continue
        }
    }
}

/// Fisher's exact test, two-sided, of whether two records of wins and
/// losses (`a` wins and `b` losses against `c` and `d`) share one chance
/// of a win: the chance, given the margins, of a table no more likely than
/// the one seen (ties within a relative 1e-7 count as equally likely).
pub fn fisher_exact(a: u64, b: u64, c: u64, d: u64) -> f64 {
    let n = (a + b + c + d) as usize;
    let mut ln_fact = vec![0.0f64; n + 1];
    for k in 1..=n {
        ln_fact[k] = ln_fact[k - 1] + (k as f64).ln();
    }
    let (row1, col1) = (a + b, a + c);
    let (row2, col2) = (c + d, b + d);
    let ln_p = |x: u64| {
        // The table with x in the top-left corner and the same margins.
        let (b, c) = (row1 - x, col1 - x);
        let d = row2 - c;
        ln_fact[row1 as usize]
            + ln_fact[row2 as usize]
            + ln_fact[col1 as usize]
            + ln_fact[col2 as usize]
            - ln_fact[n]
            - ln_fact[x as usize]
            - ln_fact[b as usize]
            - ln_fact[c as usize]
            - ln_fact[d as usize]
    };
    let seen = ln_p(a);
    let low = col1.saturating_sub(row2);
    let high = row1.min(col1);
    (low..=high)
        .map(ln_p)
        .filter(|&l| l <= seen + 1e-7)
        .map(f64::exp)
        .sum::<f64>()
        .min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_three_quarters() {
        assert!((elo_from_score(0.75) - 190.848).abs() < 1e-3);
        assert!((elo_from_score(0.5)).abs() < 1e-12);
        assert!((score_from_elo(190.848_501_887) - 0.75).abs() < 1e-9);
    }

    #[test]
    fn los_of_sixty_forty() {
        assert!((los(60, 40) - 0.977_25).abs() < 1e-4);
        assert_eq!(los(0, 0), 0.5);
        assert!((phi(0.0) - 0.5).abs() < 1e-7);
        assert!((phi(1.96) - 0.975).abs() < 1e-4);
    }

    #[test]
    fn fishers_test_matches_the_textbook_values() {
        // The tea-tasting table (3 1 / 1 3): p = 0.4857 two-sided.
        assert!((fisher_exact(3, 1, 1, 3) - 0.485_714).abs() < 1e-5);
        // 69-41 against 17-3: p = 0.07147.
        assert!((fisher_exact(69, 41, 17, 3) - 0.071_47).abs() < 1e-5);
        assert!((fisher_exact(5, 5, 5, 5) - 1.0).abs() < 1e-12);
        assert!(fisher_exact(20, 0, 0, 20) < 1e-10);
    }
}
