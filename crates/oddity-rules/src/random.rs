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
        let x = self.next_u64();
        if cfg!(target_family = "wasm") {
            high_word(x, bound)
        } else {
            ((u128::from(x) * u128::from(bound)) >> 64) as u32
        }
    }
}

/// `(x * b) >> 64` from two 64-bit products: WebAssembly has no 64 x 64
/// -> 128-bit multiply, and a `u128` product there is a library call.
/// Exact: `x * b = hi * 2^32 + lo`, and the dropped low half of `lo`
/// cannot carry into bit 64.
#[inline(always)]
fn high_word(x: u64, b: u32) -> u32 {
    let b = u64::from(b);
    let lo = (x & 0xFFFF_FFFF) * b;
    let hi = (x >> 32) * b;
    ((hi + (lo >> 32)) >> 32) as u32
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_high_word_of_two_products_is_the_wide_products() {
        let mut rng = Rng::seeded(11);
        let edges = [0, 1, 0xFFFF_FFFF, 1 << 32, u64::MAX - 1, u64::MAX];
        for _ in 0..100_000 {
            let (x, b) = (rng.next_u64(), rng.next_u64() as u32);
            for (x, b) in [
                (x, b),
                (edges[x as usize % 6], b),
                (x, u32::MAX),
                (u64::MAX, b),
            ] {
                let wide = ((u128::from(x) * u128::from(b)) >> 64) as u32;
                assert_eq!(high_word(x, b), wide, "{x} * {b}");
            }
        }
    }
}
