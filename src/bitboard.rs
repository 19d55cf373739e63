//! Fixed-width bitboards: `W` 64-bit words, bit `i` is the cell with index `i`.
//!
//! The width is a const generic so that small boards (2 or 4 words) stay in
//! registers; see [`crate::game::width_for`] for how a board picks its width.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bitboard<const W: usize>(pub [u64; W]);

impl<const W: usize> Default for Bitboard<W> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const W: usize> std::fmt::Debug for Bitboard<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<const W: usize> Bitboard<W> {
    pub const EMPTY: Self = Bitboard([0; W]);
    /// Number of bits a bitboard of this width holds.
    pub const CAPACITY: usize = 64 * W;

    #[inline]
    pub fn from_indices(indices: impl IntoIterator<Item = usize>) -> Self {
        let mut b = Self::EMPTY;
        for i in indices {
            b.set(i);
        }
        b
    }

    #[inline(always)]
    pub fn get(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 != 0
    }

    #[inline(always)]
    pub fn set(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }

    #[inline(always)]
    pub fn clear(&mut self, i: usize) {
        self.0[i >> 6] &= !(1 << (i & 63));
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline(always)]
    pub fn any(&self) -> bool {
        !self.is_empty()
    }

    #[inline(always)]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    #[inline(always)]
    pub fn intersects(&self, other: &Self) -> bool {
        self.0.iter().zip(other.0.iter()).any(|(a, b)| a & b != 0)
    }

    /// Index of the lowest set bit.
    #[inline(always)]
    pub fn lowest(&self) -> Option<usize> {
        for (k, &w) in self.0.iter().enumerate() {
            if w != 0 {
                return Some(k * 64 + w.trailing_zeros() as usize);
            }
        }
        None
    }

    /// Only the lowest set bit, or empty.
    #[inline(always)]
    pub fn lowest_bit(&self) -> Self {
        let mut out = Self::EMPTY;
        for k in 0..W {
            let w = self.0[k];
            if w != 0 {
                out.0[k] = w & w.wrapping_neg();
                break;
            }
        }
        out
    }

    /// The `n`-th set bit (0-based) in index order.
    #[inline]
    pub fn nth(&self, mut n: u32) -> Option<usize> {
        for (k, &w) in self.0.iter().enumerate() {
            let c = w.count_ones();
            if n < c {
                return Some(k * 64 + select_in_word(w, n) as usize);
            }
            n -= c;
        }
        None
    }

    /// Shift towards higher indices by `n` bits (`n` < 64 * W).
    #[inline(always)]
    pub fn shl(&self, n: usize) -> Self {
        let (words, bits) = (n >> 6, n & 63);
        let mut out = Self::EMPTY;
        for k in (words..W).rev() {
            let src = k - words;
            let mut w = self.0[src] << bits;
            if bits != 0 && src > 0 {
                w |= self.0[src - 1] >> (64 - bits);
            }
            out.0[k] = w;
        }
        out
    }

    /// Shift towards lower indices by `n` bits (`n` < 64 * W).
    #[inline(always)]
    pub fn shr(&self, n: usize) -> Self {
        let (words, bits) = (n >> 6, n & 63);
        let mut out = Self::EMPTY;
        for k in 0..W - words {
            let src = k + words;
            let mut w = self.0[src] >> bits;
            if bits != 0 && src + 1 < W {
                w |= self.0[src + 1] << (64 - bits);
            }
            out.0[k] = w;
        }
        out
    }

    #[inline(always)]
    pub fn and_not(&self, other: &Self) -> Self {
        let mut out = *self;
        for k in 0..W {
            out.0[k] &= !other.0[k];
        }
        out
    }

    pub fn iter(&self) -> BitIter<W> {
        BitIter {
            words: self.0,
            word: 0,
        }
    }
}

/// Position of the `n`-th set bit of `w` (`n` < popcount): skips 16-bit
/// chunks by popcount, then clears the remaining lower bits.
#[inline(always)]
fn select_in_word(mut w: u64, mut n: u32) -> u32 {
    let mut base = 0;
    loop {
        let c = (w & 0xFFFF).count_ones();
        if n < c {
            break;
        }
        n -= c;
        w >>= 16;
        base += 16;
    }
    for _ in 0..n {
        w &= w - 1;
    }
    base + w.trailing_zeros()
}

/// Iterates the set bits of a bitboard in increasing index order.
pub struct BitIter<const W: usize> {
    words: [u64; W],
    word: usize,
}

impl<const W: usize> Iterator for BitIter<W> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.word < W {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(self.word * 64 + w.trailing_zeros() as usize);
            }
            self.word += 1;
        }
        None
    }
}

macro_rules! word_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl<const W: usize> $tr for Bitboard<W> {
            type Output = Self;
            #[inline(always)]
            fn $f(mut self, rhs: Self) -> Self {
                for k in 0..W {
                    self.0[k] $op rhs.0[k];
                }
                self
            }
        }
        impl<const W: usize> $tra for Bitboard<W> {
            #[inline(always)]
            fn $fa(&mut self, rhs: Self) {
                for k in 0..W {
                    self.0[k] $op rhs.0[k];
                }
            }
        }
    };
}

word_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &=);
word_op!(BitOr, bitor, BitOrAssign, bitor_assign, |=);
word_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^=);

impl<const W: usize> Not for Bitboard<W> {
    type Output = Self;
    #[inline(always)]
    fn not(mut self) -> Self {
        for k in 0..W {
            self.0[k] = !self.0[k];
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_cross_word_boundaries() {
        let b = Bitboard::<3>::from_indices([0, 63, 64, 130]);
        assert_eq!(b.shl(1).iter().collect::<Vec<_>>(), vec![1, 64, 65, 131]);
        assert_eq!(b.shl(70).iter().collect::<Vec<_>>(), vec![70, 133, 134]);
        assert_eq!(b.shr(1).iter().collect::<Vec<_>>(), vec![62, 63, 129]);
        assert_eq!(b.shr(64).iter().collect::<Vec<_>>(), vec![0, 66]);
        assert_eq!(b.count(), 4);
        assert_eq!(b.nth(2), Some(64));
        assert_eq!(b.nth(4), None);
        assert_eq!(b.lowest_bit().iter().collect::<Vec<_>>(), vec![0]);
    }
}
