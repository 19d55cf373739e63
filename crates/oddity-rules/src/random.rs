//! Random numbers for playouts and search: [`Rng`].

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng as _, SeedableRng};

use crate::bitboard::Bitboard;

/// The random number generator of playouts and search threads: a small,
/// fast generator (xoshiro256++) made from a seed, so that a seed gives
/// the same numbers on every run and machine.
#[derive(Clone, Debug)]
pub struct Rng(Xoshiro256PlusPlus);

impl Rng {
    /// The generator of `seed`.
    pub fn seeded(seed: u64) -> Rng {
        Rng(Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    /// 64 random bits.
    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n` (`n` > 0) from the high 32 bits of one draw, by
    /// multiply-shift: the bias is below 2^-32.
    #[inline(always)]
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * n as u64) >> 32) as u32
    }

    /// A number in `0..bound` from all 64 bits of one draw (multiply-shift;
    /// the bias is below `bound / 2^64`, far too small to matter).
    #[inline(always)]
    pub fn below_precise(&mut self, bound: u32) -> u32 {
        ((u128::from(self.next_u64()) * u128::from(bound)) >> 64) as u32
    }
}

/// A uniformly chosen set bit of `b`, if any.
#[inline]
pub(crate) fn random_bit<const W: usize>(b: &Bitboard<W>, rng: &mut Rng) -> Option<usize> {
    let count = b.count();
    if count == 0 {
        return None;
    }
    b.nth(rng.below(count))
}
