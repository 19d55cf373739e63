//! The draw both pattern playout policies make: a leaf in proportion to
//! its weight, through sums over blocks of leaves (one pass over the
//! blocks, one within a block).

use oddity_rules::Rng;

/// A leaf index drawn in proportion to `leaves`, whose consecutive blocks
/// of `leaves.len() / blocks.len()` sum to `blocks`; `None` when every
/// weight is 0.
#[inline]
pub(super) fn weighted_leaf(blocks: &[f32], leaves: &[f32], rng: &mut Rng) -> Option<usize> {
    let width = leaves.len() / blocks.len();
    // Four running sums, not one chain of additions.
    let mut lanes = [0.0f32; 4];
    for chunk in blocks.chunks(4) {
        for (lane, &s) in lanes.iter_mut().zip(chunk) {
            *lane += s;
        }
    }
    let total = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
    if total <= 0.0 {
        return None;
    }
    let mut r = (rng.next_u64() >> 40) as f32 * (1.0 / (1u32 << 24) as f32) * total;
    // Rounding may carry `r` past the last block or leaf: the last one
    // with weight is taken then.
    let mut block = blocks.iter().rposition(|&s| s > 0.0)?;
    for (b, &s) in blocks.iter().enumerate() {
        if r < s {
            block = b;
            break;
        }
        r -= s;
    }
    let leaves = &leaves[block * width..(block + 1) * width];
    let mut leaf = leaves.iter().rposition(|&w| w > 0.0)?;
    for (k, &w) in leaves.iter().enumerate() {
        if r < w {
            leaf = k;
            break;
        }
        r -= w;
    }
    Some(block * width + leaf)
}
