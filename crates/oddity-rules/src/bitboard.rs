//! Fixed-width bitboards: `W` 64-bit words, bit `i` is the cell with index `i`.
//!
//! The width is a const generic so that small boards (2 or 4 words) stay in
//! registers; see [`crate::width_for`] for how a board picks its width.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
/// A set of cell indices as `W` 64-bit words: bit `i % 64` of word
/// `i / 64` is the cell with index `i`. The games keep their stones, empty
/// points and masks in these.
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
    /// No cell.
    pub const EMPTY: Self = Bitboard([0; W]);
    /// Number of bits a bitboard of this width holds.
    pub const CAPACITY: usize = 64 * W;

    #[inline]
    /// The set of `indices`.
    pub fn from_indices(indices: impl IntoIterator<Item = usize>) -> Self {
        let mut b = Self::EMPTY;
        for i in indices {
            b.set(i);
        }
        b
    }

    #[inline(always)]
    /// Whether index `i` is in the set.
    pub fn get(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 != 0
    }

    #[inline(always)]
    /// Adds index `i`.
    pub fn set(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }

    #[inline(always)]
    /// Removes index `i`.
    pub fn clear(&mut self, i: usize) {
        self.0[i >> 6] &= !(1 << (i & 63));
    }

    #[inline(always)]
    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline(always)]
    /// Whether the set holds any index.
    pub fn any(&self) -> bool {
        !self.is_empty()
    }

    #[inline(always)]
    /// The number of indices in the set.
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    #[inline(always)]
    /// Whether the two sets share an index.
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

    /// The `n`-th set bit (0-based) in index order. Branch-free: for a
    /// random `n` every branch here would be a coin toss for the predictor.
    #[inline]
    pub fn nth(&self, n: u32) -> Option<usize> {
        let (mut word, mut before, mut total) = (0, 0, 0);
        for &w in &self.0 {
            total += w.count_ones();
            let past = n >= total;
            word += usize::from(past);
            before = if past { total } else { before };
        }
        (word < W).then(|| 64 * word + select_in_word(self.0[word], n - before) as usize)
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
    /// The indices of `self` that are not in `other`.
    pub fn and_not(&self, other: &Self) -> Self {
        let mut out = *self;
        for k in 0..W {
            out.0[k] &= !other.0[k];
        }
        out
    }

    /// The indices of the set, lowest first.
    pub fn iter(&self) -> BitIter<W> {
        BitIter {
            words: self.0,
            word: 0,
        }
    }
}

/// The position of the `k`-th set bit of `word` (k < its popcount): byte-wise
/// popcounts and their prefix sums find the byte that holds it, and a table
/// finishes inside that byte.
#[inline(always)]
pub(crate) fn select_in_word(word: u64, k: u32) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut bytes = word - ((word >> 1) & 0x5555_5555_5555_5555);
    bytes = (bytes & 0x3333_3333_3333_3333) + ((bytes >> 2) & 0x3333_3333_3333_3333);
    bytes = (bytes + (bytes >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    // Byte i of `prefix`: the set bits in bytes 0..=i.
    let prefix = bytes.wrapping_mul(ONES);
    // The high bit of byte i is set iff prefix_i <= k (all values are < 128).
    let at_most_k = (((u64::from(k) * ONES) | HIGHS) - prefix) & HIGHS;
    // Those bytes are the lowest ones; count them by summing the bytes of
    // the 0/1 flags with a multiply (no popcount instruction is assumed).
    let shift = (((at_most_k >> 7).wrapping_mul(ONES) >> 56) * 8) as u32;
    let below = ((prefix << 8) >> shift) as u32 & 0xFF;
    let byte = (word >> shift) as usize & 0xFF;
    shift + u32::from(SELECT_IN_BYTE[byte][(k - below) as usize])
}

/// `SELECT_IN_BYTE[b][r]`: the position of the `r`-th set bit of the byte `b`.
static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[0; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut rank) = (0, 0);
        while bit < 8 {
            if b >> bit & 1 != 0 {
                table[b][rank] = bit as u8;
                rank += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    table
};

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

    #[test]
    fn nth_matches_iteration() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..300 {
            let b = Bitboard::<3>([next() & next(), next(), u64::MAX >> (next() % 64)]);
            let bits: Vec<usize> = b.iter().collect();
            for k in 0..=bits.len() as u32 {
                assert_eq!(b.nth(k), bits.get(k as usize).copied());
            }
        }
    }
}
