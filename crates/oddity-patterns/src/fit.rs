//! Fitting feature gammas to decisions by minorization-maximization
//! (Hunter 2004; Coulom 2007, "Computing Elo ratings of move patterns").
//!
//! A decision is a position's candidates, each with its features and
//! whether it wins. Each winning candidate makes one competition against
//! all the losing ones (weight `1 / winners`, so every position counts
//! once): under the Bradley-Terry model it wins with probability
//! `strength / (strength + sum of losers' strengths)`. A decision may
//! instead give each candidate a share (the search's root visits, summing
//! to 1): each candidate then wins a competition against all candidates,
//! itself included, with its share as weight. The gammas of one
//! group are updated at a time, `gamma = (W + 1) / (C + 2 / (gamma + 1))`
//! with `W` the group value's weighted wins and `C` the sum over the
//! competitions it took part in of its team-mates' strength over the total;
//! the `+ 1` and `2 / (gamma + 1)` are one virtual win and one virtual loss
//! against a gamma of 1, which keeps rare values near 1. Values never seen
//! keep gamma 1. Sums run in a fixed order: the fit is deterministic.

use super::groups::{Features, GROUPS, NONE, group_sizes};
use super::weights::Weights;
use oddity_rules::GameKind;

/// One position's candidates and which of them win.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The features of each candidate action.
    pub candidates: Vec<Features>,
    /// The candidates a prediction should rank first (the winning
    /// actions, or the search's choice); without `shares`, the fit's
    /// winners.
    pub wins: Vec<bool>,
    /// Each candidate's share of the position's weight in the fit (summing
    /// to 1), instead of `wins`.
    pub shares: Option<Vec<f64>>,
}

impl Decision {
    /// Whether the position can teach anything: at least one winning and
    /// one losing candidate, or with shares, two candidates.
    pub fn informative(&self) -> bool {
        match &self.shares {
            Some(s) => s.len() >= 2 && s.iter().sum::<f64>() > 0.0,
            None => self.wins.iter().any(|&w| w) && self.wins.iter().any(|&w| !w),
        }
    }
}

/// Fits gammas for `game` (rings of `ring` points) to `decisions` with
/// `sweeps` passes over the groups; `report` is told each pass's
/// log-likelihood per decision.
pub fn fit(
    game: GameKind,
    ring: usize,
    decisions: &[Decision],
    sweeps: usize,
    report: &mut dyn FnMut(usize, f64),
) -> Weights {
    let mut w = Weights::uniform(game, ring);
    let sizes = group_sizes(ring);
    let used: Vec<&Decision> = decisions.iter().filter(|d| d.informative()).collect();
    let mut strengths = Vec::new();
    for sweep in 0..sweeps {
        for g in 0..GROUPS {
            let mut wins = vec![0.0f64; sizes[g] as usize];
            let mut sums = vec![0.0f64; sizes[g] as usize];
            for d in &used {
                strengths.clear();
                strengths.extend(d.candidates.iter().map(|f| w.strength(f)));
                if let Some(shares) = &d.shares {
                    // One competition of all candidates, won by each with
                    // its share.
                    let total: f64 = strengths.iter().sum();
                    for ((f, s), &p) in d.candidates.iter().zip(&strengths).zip(shares) {
                        let v = f[g];
                        if v == NONE {
                            continue;
                        }
                        wins[v as usize] += p;
                        sums[v as usize] += s / w.gamma(w.index(g, v)) / total;
                    }
                    continue;
                }
                let winners = d.wins.iter().filter(|&&x| x).count() as f64;
                let losers: f64 = strengths
                    .iter()
                    .zip(&d.wins)
                    .filter(|(_, x)| !**x)
                    .map(|(s, _)| s)
                    .sum();
                // Each loser takes part in every winner's competition.
                let mut loser_share = 0.0;
                for (s, &x) in strengths.iter().zip(&d.wins) {
                    if x {
                        loser_share += 1.0 / (winners * (losers + s));
                    }
                }
                for ((f, s), &x) in d.candidates.iter().zip(&strengths).zip(&d.wins) {
                    let v = f[g];
                    if v == NONE {
                        continue;
                    }
                    let mates = s / w.gamma(w.index(g, v));
                    if x {
                        wins[v as usize] += 1.0 / winners;
                        sums[v as usize] += mates / (winners * (losers + s));
                    } else {
                        sums[v as usize] += mates * loser_share;
                    }
                }
            }
            for v in 0..sizes[g] as usize {
                if sums[v] > 0.0 {
                    let i = w.index(g, v as u32);
                    let gamma = w.gamma(i);
                    w.set_gamma(i, (wins[v] + 1.0) / (sums[v] + 2.0 / (gamma + 1.0)));
                }
            }
        }
        report(sweep, log_likelihood(&w, &used));
    }
    w
}

/// Mean log-probability of the decisions' outcomes under `w` (with
/// shares, the share-weighted log-probability of each candidate).
fn log_likelihood(w: &Weights, decisions: &[&Decision]) -> f64 {
    let mut total = 0.0;
    for d in decisions {
        let s: Vec<f64> = d.candidates.iter().map(|f| w.strength(f)).collect();
        if let Some(shares) = &d.shares {
            let sum: f64 = s.iter().sum();
            total += s
                .iter()
                .zip(shares)
                .filter(|(_, p)| **p > 0.0)
                .map(|(x, p)| p * (x / sum).ln())
                .sum::<f64>();
            continue;
        }
        let win: f64 = s
            .iter()
            .zip(&d.wins)
            .filter(|(_, x)| **x)
            .map(|(s, _)| s)
            .sum();
        total += (win / s.iter().sum::<f64>()).ln();
    }
    total / decisions.len().max(1) as f64
}

/// Whether a winning candidate is among the `k` best by `scores`; ties are
/// broken by `order` (a permutation of the candidates, earlier first).
pub fn hit_in_top(scores: &[f64], wins: &[bool], order: &[usize], k: usize) -> bool {
    let mut ranked: Vec<usize> = order.to_vec();
    ranked.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
    ranked.iter().take(k).any(|&i| wins[i])
}

#[cfg(test)]
mod tests {
    use super::*;
    use oddity_rules::Rng;

    /// Decisions drawn from known gammas (one winner each, with the
    /// model's probabilities) give those gammas back.
    #[test]
    fn the_fit_recovers_the_gammas_that_made_the_data() {
        let mut rng = Rng::seeded(11);
        let mut truth = Weights::uniform(GameKind::Odd, 6);
        let shapes = 12u32;
        let joins = 8u32;
        for v in 0..shapes {
            let i = truth.index(0, v);
            truth.set_gamma(i, 0.2 + f64::from(rng.below(1000)) / 200.0);
        }
        for v in 0..joins {
            let i = truth.index(1, v);
            truth.set_gamma(i, 0.3 + f64::from(rng.below(1000)) / 400.0);
        }
        let decisions: Vec<Decision> = (0..12_000)
            .map(|_| {
                let candidates: Vec<Features> = (0..8)
                    .map(|_| {
                        let mut f = [NONE; GROUPS];
                        f[0] = rng.below(shapes);
                        f[1] = rng.below(joins);
                        f
                    })
                    .collect();
                let s: Vec<f64> = candidates.iter().map(|f| truth.strength(f)).collect();
                let mut pick =
                    f64::from(rng.below(1 << 30)) / f64::from(1 << 30) * s.iter().sum::<f64>();
                let mut winner = s.len() - 1;
                for (i, x) in s.iter().enumerate() {
                    if pick < *x {
                        winner = i;
                        break;
                    }
                    pick -= x;
                }
                let wins = (0..s.len()).map(|i| i == winner).collect();
                Decision {
                    candidates,
                    wins,
                    shares: None,
                }
            })
            .collect();
        let mut likelihoods = Vec::new();
        let fitted = fit(GameKind::Odd, 6, &decisions, 40, &mut |_, l| {
            likelihoods.push(l)
        });
        assert!(likelihoods.windows(2).all(|p| p[1] >= p[0] - 1e-9));
        // Each group's gammas are known up to a common factor: compare
        // them relative to their geometric mean.
        for (g, n) in [(0, shapes), (1, joins)] {
            let logs = |w: &Weights| -> Vec<f64> {
                let l: Vec<f64> = (0..n).map(|v| w.gamma(w.index(g, v)).ln()).collect();
                let mean = l.iter().sum::<f64>() / f64::from(n);
                l.iter().map(|x| x - mean).collect()
            };
            for (t, f) in logs(&truth).iter().zip(logs(&fitted)) {
                assert!((t - f).abs() < 0.12, "group {g}: {t} against {f}");
            }
        }
        // And the same data give the same gammas.
        assert_eq!(
            fit(GameKind::Odd, 6, &decisions, 40, &mut |_, _| {}),
            fitted
        );
    }

    /// Decisions whose shares are the model's own probabilities under
    /// known gammas give those gammas back.
    #[test]
    fn the_fit_to_shares_recovers_the_gammas_that_made_them() {
        let mut rng = Rng::seeded(12);
        let mut truth = Weights::uniform(GameKind::Odd, 6);
        for v in 0..6 {
            let i = truth.index(1, v);
            truth.set_gamma(i, 0.25 + f64::from(rng.below(1000)) / 250.0);
        }
        let decisions: Vec<Decision> = (0..500)
            .map(|_| {
                let candidates: Vec<Features> = (0..6)
                    .map(|_| {
                        let mut f = [NONE; GROUPS];
                        f[1] = rng.below(6);
                        f
                    })
                    .collect();
                let s: Vec<f64> = candidates.iter().map(|f| truth.strength(f)).collect();
                let total: f64 = s.iter().sum();
                Decision {
                    wins: vec![false; s.len()],
                    shares: Some(s.iter().map(|x| x / total).collect()),
                    candidates,
                }
            })
            .collect();
        let fitted = fit(GameKind::Odd, 6, &decisions, 60, &mut |_, _| {});
        let logs = |w: &Weights| -> Vec<f64> {
            let l: Vec<f64> = (0..6).map(|v| w.gamma(w.index(1, v)).ln()).collect();
            let mean = l.iter().sum::<f64>() / 6.0;
            l.iter().map(|x| x - mean).collect()
        };
        // The virtual win and loss pull a little towards 1.
        for (t, f) in logs(&truth).iter().zip(logs(&fitted)) {
            assert!((t - f).abs() < 0.1, "{t} against {f}");
        }
    }

    #[test]
    fn ties_in_the_ranking_follow_the_given_order() {
        let scores = [1.0, 2.0, 2.0, 0.5];
        let wins = [true, false, true, false];
        assert!(!hit_in_top(&scores, &wins, &[1, 2, 0, 3], 1));
        assert!(hit_in_top(&scores, &wins, &[2, 1, 0, 3], 1));
        assert!(hit_in_top(&scores, &wins, &[1, 2, 0, 3], 2));
    }
}
