//! Random numbers for playouts and search.

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng as _, SeedableRng};

use crate::bitboard::Bitboard;

/// The random number generator of playouts and search threads.
pub type Rng = Xoshiro256PlusPlus;

pub fn rng_from_seed(seed: u64) -> Rng {
    Rng::seed_from_u64(seed)
}

#[inline(always)]
pub fn next_u64(rng: &mut Rng) -> u64 {
    rng.next_u64()
}

/// A number in `0..n` (`n` > 0), by multiply-shift: the bias is below 2^-32.
#[inline(always)]
pub fn below(rng: &mut Rng, n: u32) -> u32 {
    (((rng.next_u64() >> 32) * n as u64) >> 32) as u32
}

/// A number in `0..bound` from all 64 bits of one draw (multiply-shift;
/// the bias is below `bound / 2^64`, far too small to matter).
#[inline(always)]
pub fn random_below(rng: &mut Rng, bound: u32) -> u32 {
    ((u128::from(rng.next_u64()) * u128::from(bound)) >> 64) as u32
}

/// A uniformly chosen set bit of `b`, if any.
#[inline]
pub fn random_bit<const W: usize>(b: &Bitboard<W>, rng: &mut Rng) -> Option<usize> {
    let count = b.count();
    if count == 0 {
        return None;
    }
    b.nth(below(rng, count))
}
