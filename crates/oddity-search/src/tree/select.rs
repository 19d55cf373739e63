//! Selection's scores: UCT with the progressive bias of priors, or the
//! RAVE blend with AMAF rates, over the children of one node. Selection
//! scores every child on every path, so this is the search's hot loop.

use std::sync::atomic::Ordering::Relaxed;

use oddity_rules::{Action, Colour};

use super::config::TreeConfig;
use super::node::{Arena, Node};
use super::worker::stone_index;

/// The RAVE selection score of a child with `visits` and `wins` of its own
/// and `av`, `aw` AMAF playouts and wins: the blend
/// `(1 - beta) * q + beta * q_amaf` with `beta = av / (av + n + n * av / equiv)`
/// (Gelly and Silver's schedule: the AMAF rate counts for a child with few
/// visits and fades as they grow past `equiv`), plus the exploration term
/// `explore / sqrt(max(n, 1))` and the progressive bias `bias / (n + 1)`.
/// The blend is computed as `(wins * (1 + av / equiv) + aw) / (av + n + n * av / equiv)`,
/// one division, and `1/sqrt(n)` comes from the table: selection scores
/// every child, so this is the search's hot loop.
#[inline(always)]
fn rave_score(
    visits: u32,
    wins: u32,
    (av, aw): (u32, u32),
    inv_equiv: f32,
    explore: f32,
    bias: f32,
    table: &[f32; RSQRT_TABLE],
) -> f32 {
    let n = visits as f32;
    let a = av as f32;
    let damp = a * inv_equiv;
    let value = (wins as f32 * (1.0 + damp) + aw as f32) / (a + n + n * damp);
    let mut score = value;
    // Odd and Onyx explore through the AMAF rates alone (explore 0).
    if explore != 0.0 {
        let r = match table.get(visits.max(1) as usize) {
            Some(&r) => r,
            None => 1.0 / n.sqrt(),
        };
        score += explore * r;
    }
    if bias != 0.0 {
        score += bias / (n + 1.0);
    }
    score
}

/// Entries of the `1/sqrt(n)` table.
const RSQRT_TABLE: usize = 1024;

/// `1/sqrt(n)` for `n < RSQRT_TABLE` (entry 0 unused).
static RSQRT: std::sync::LazyLock<[f32; RSQRT_TABLE]> = std::sync::LazyLock::new(|| {
    let mut t = [0.0; RSQRT_TABLE];
    for (n, r) in t.iter_mut().enumerate().skip(1) {
        *r = 1.0 / (n as f32).sqrt();
    }
    t
});

/// The child of `first..first + n` (nodes of `arena`) that selection
/// takes for `mover`: see [`super::search_tree::Tree`]'s `select`.
/// `mirror`: the parent's playouts and the wins in them of the seat
/// that chose it, which stand in for the swap's AMAF statistics.
/// `grave`: AMAF statistics by stone action that replace the children's
/// own (GRAVE, [`TreeConfig::grave`]).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn select_with<const BIAS: bool, const DELTA: bool, const RAVE: bool>(
    config: &TreeConfig,
    arena: &Arena,
    parent_visits: u32,
    mirror: (u32, u32),
    first: u32,
    n: u32,
    mover: Colour,
    deltas: &[(u32, u32)],
    amaf_deltas: &[(u32, u32)],
    grave: Option<&[(u32, u32)]>,
) -> u32 {
    const LANES: usize = 4;
    let bias_scale = config.prior_weight / 255.0;
    let inv_equiv = 1.0 / config.rave_equiv;
    let explore = config.exploration * (parent_visits.max(1) as f32).ln().sqrt();
    let table: &[f32; RSQRT_TABLE] = &RSQRT;
    let kids = arena.slice(first, n);
    let mine = 1 + mover as u8;
    let swap_mirror = config.swap_mirror;
    // The score of child `k`, or `Err` to take it at once (unvisited or
    // a proven win) or `None` to skip it (a proven loss).
    let score = |c: &Node, k: usize| -> Result<Option<f32>, ()> {
        let (mut visits, mut wins) = (c.visits.load(Relaxed), c.wins.load(Relaxed));
        if DELTA {
            let (v, w) = deltas[k];
            visits += v;
            wins += w;
        }
        let proof = c.proof.load(Relaxed);
        if proof != 0 {
            return if proof == mine { Err(()) } else { Ok(None) };
        }
        if RAVE {
            let (mut av, mut aw) = match grave {
                Some(table) => table[stone_index(c)],
                None => c.amaf(),
            };
            if DELTA && let Some(&(v, w)) = amaf_deltas.get(k) {
                av += v;
                aw += w;
            }
            // The swap puts no stone of its own on a cell, so it has no
            // AMAF statistics; the position after it is the parent's
            // mirrored with the seats exchanged, so the first player's
            // rate there is a sample of the swapper's.
            if av == 0 && swap_mirror && c.action() == Action::SWAP {
                (av, aw) = mirror;
            }
            if visits == 0 && av == 0 {
                return Err(());
            }
            let bias = if BIAS {
                bias_scale * f32::from(c.prior.load(Relaxed))
            } else {
                0.0
            };
            return Ok(Some(rave_score(
                visits,
                wins,
                (av, aw),
                inv_equiv,
                explore,
                bias,
                table,
            )));
        }
        if visits == 0 {
            return Err(());
        }
        let r = match table.get(visits as usize) {
            Some(&r) => r,
            None => 1.0 / (visits as f32).sqrt(),
        };
        // Progressive bias: prior_weight * prior / n, folded into wins.
        let wins = if BIAS {
            wins as f32 + bias_scale * f32::from(c.prior.load(Relaxed))
        } else {
            wins as f32
        };
        Ok(Some((wins * r + explore) * r))
    };
    let mut best_score = [f32::NEG_INFINITY; LANES];
    let mut best = [usize::MAX; LANES];
    let chunks = kids.chunks_exact(LANES);
    let tail = chunks.remainder();
    for (ci, chunk) in chunks.enumerate() {
        for lane in 0..LANES {
            let k = ci * LANES + lane;
            match score(&chunk[lane], k) {
                Err(()) => return first + k as u32,
                Ok(Some(s)) if s > best_score[lane] => {
                    best_score[lane] = s;
                    best[lane] = k;
                }
                Ok(_) => {}
            }
        }
    }
    let base = kids.len() - tail.len();
    for (j, c) in tail.iter().enumerate() {
        let k = base + j;
        let lane = j % LANES;
        match score(c, k) {
            Err(()) => return first + k as u32,
            Ok(Some(s)) if s > best_score[lane] => {
                best_score[lane] = s;
                best[lane] = k;
            }
            Ok(_) => {}
        }
    }
    let mut pick = usize::MAX;
    let mut pick_score = f32::NEG_INFINITY;
    for lane in 0..LANES {
        let (s, k) = (best_score[lane], best[lane]);
        if k != usize::MAX
            && (pick == usize::MAX || s > pick_score || (s == pick_score && k < pick))
        {
            pick = k;
            pick_score = s;
        }
    }
    // Every child a proven loss: any will do.
    first + if pick == usize::MAX { 0 } else { pick as u32 }
}
