//! The solver's transposition table: a fixed array of entries shared by
//! every thread without locks.
//!
//! An entry is two atomic words: the key XOR the data word, and the data
//! word (proof and disproof numbers of 28 bits each, the logarithm of the
//! work under the position, and a flag). A reader accepts an entry only when
//! the XOR of the two words gives its key back, so a half-written entry
//! reads as a miss, never as another position's numbers. Entries sit in
//! buckets of four, one cache line; a new position takes an empty entry of
//! its bucket, or else the one with the least work under it.

use std::sync::atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering};

use oddity_rules::Colour;

/// Entries per bucket.
const BUCKET: usize = 4;

/// Bytes per entry.
pub const ENTRY_BYTES: usize = std::mem::size_of::<Slot>();

/// The largest proof or disproof number an entry holds: infinity.
pub const NUMBER_MAX: u32 = (1 << 28) - 1;

/// What the table knows of a position, for the search's attacker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Proof number: how many more leaves at least must be proven to prove
    /// the attacker's win (0: proven), at most [`NUMBER_MAX`].
    pub pn: u32,
    /// Disproof number (0: the attacker cannot win).
    pub dn: u32,
    /// Expansions spent under this position (kept to a power of two).
    pub work: u64,
    /// The disproof rests on a repetition of a position on the path it was
    /// found from (Onyx).
    pub path_dependent: bool,
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The transposition table the solver's threads share: a fixed number of
/// buckets of entries, keyed by position key, written without locks.
pub struct Table {
    /// Per key, how many threads are searching the position now (keys
    /// share counters modulo the length): the other threads steer round it.
    busy: Box<[AtomicU8]>,
    slots: Box<[Slot]>,
    /// The first slot of the first bucket: buckets start on a cache line.
    first: usize,
    buckets: usize,
    used: AtomicUsize,
}

const CACHE_LINE: usize = 64;
const BUSY_COUNTERS: usize = 1 << 16;

const PATH_DEPENDENT: u64 = 1 << 63;

impl Table {
    /// Whether the table proves `key`'s position won by `winner`, for a
    /// search whose attacker is `attacker`; with the work under it.
    pub fn proven_for(&self, key: u64, attacker: Colour, winner: Colour) -> Option<u64> {
        let e = self.get(key)?;
        let proven = if winner == attacker {
            e.pn == 0
        } else {
            e.dn == 0 && !e.path_dependent
        };
        proven.then_some(e.work)
    }

    /// A table of at most `bytes` bytes (at least one bucket).
    pub fn with_bytes(bytes: usize) -> Table {
        let buckets = (bytes / (ENTRY_BYTES * BUCKET)).max(1);
        // Zeroed memory of the slots' own alignment comes from the system
        // already zero and is mapped only when first written, so a large
        // table costs nothing until it fills (a stricter alignment would be
        // zeroed by hand, all of it at once). One bucket more leaves room
        // to start the buckets on a cache line.
        let zeroed = Box::<[Slot]>::new_zeroed_slice((buckets + 1) * BUCKET);
        // SAFETY: a slot is two atomic integers, for which all-zero bits
        // are a valid value (an empty entry).
        let slots = unsafe { zeroed.assume_init() };
        let address = slots.as_ptr() as usize;
        let first = (CACHE_LINE - address % CACHE_LINE) % CACHE_LINE / ENTRY_BYTES;
        Table {
            busy: (0..BUSY_COUNTERS).map(|_| AtomicU8::new(0)).collect(),
            slots,
            first,
            buckets,
            used: AtomicUsize::new(0),
        }
    }

    /// Entries the table can hold.
    pub fn capacity(&self) -> usize {
        self.buckets * BUCKET
    }

    /// Entries in use.
    pub fn used(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }

    fn bucket(&self, key: u64) -> &[Slot] {
        // The high bits choose the bucket; the whole key checks the entry.
        let b = ((u128::from(key) * self.buckets as u128) >> 64) as usize;
        let start = self.first + b * BUCKET;
        &self.slots[start..start + BUCKET]
    }

    /// Asks the processor to fetch `key`'s bucket into the cache before it
    /// is read.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.bucket(key).as_ptr() as *const i8;
            // SAFETY: a prefetch hint reads nothing and has no effect on
            // memory; the pointer is into the table.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// A thread starts searching `key`'s position.
    pub fn enter(&self, key: u64) {
        self.busy[key as usize % BUSY_COUNTERS].fetch_add(1, Ordering::Relaxed);
    }

    /// ... and is done with it.
    pub fn leave(&self, key: u64) {
        self.busy[key as usize % BUSY_COUNTERS].fetch_sub(1, Ordering::Relaxed);
    }

    /// Threads searching `key`'s position now (or a position sharing its
    /// counter).
    pub fn busy(&self, key: u64) -> u32 {
        u32::from(self.busy[key as usize % BUSY_COUNTERS].load(Ordering::Relaxed))
    }

    fn read(slot: &Slot) -> (u64, u64) {
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        (check ^ data, data)
    }

    /// The entry of `key`, if the table holds one.
    pub fn get(&self, key: u64) -> Option<Entry> {
        self.bucket(key).iter().find_map(|slot| {
            let (k, data) = Self::read(slot);
            (k == key && data != 0).then(|| unpack(data))
        })
    }

    /// Stores `e` as the entry of `key`, in place of the entry with the least
    /// work under it when the bucket is full.
    pub fn put(&self, key: u64, e: Entry) {
        let data = pack(&e);
        let mut target: Option<&Slot> = None;
        let mut least = u64::MAX;
        let mut fresh = false;
        for slot in self.bucket(key) {
            let (k, d) = Self::read(slot);
            if d == 0 {
                if least > 0 {
                    target = Some(slot);
                    least = 0;
                    fresh = true;
                }
                continue;
            }
            if k == key {
                // A settled value stays: another thread may store the
                // numbers it had before the value was settled, and a proof
                // rebuilt on top of them could lean on itself.
                if settled(&unpack(d)) && !settled(&e) {
                    return;
                }
                target = Some(slot);
                fresh = false;
                break;
            }
            let work = work_log(d);
            if work < least {
                least = work;
                target = Some(slot);
            }
        }
        let Some(slot) = target else {
            return;
        };
        if fresh {
            self.used.fetch_add(1, Ordering::Relaxed);
        }
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }
}

/// A proof or a disproof that holds on every path.
fn settled(e: &Entry) -> bool {
    (e.pn == 0 || e.dn == 0) && !e.path_dependent
}

fn work_log(data: u64) -> u64 {
    (data >> 56) & 0x3F
}

fn pack(e: &Entry) -> u64 {
    let log = u64::from(64 - e.work.leading_zeros()).min(0x3F);
    u64::from(e.pn.min(NUMBER_MAX))
        | u64::from(e.dn.min(NUMBER_MAX)) << 28
        | log << 56
        | if e.path_dependent { PATH_DEPENDENT } else { 0 }
        // Never all zero: an all-zero word is an empty entry.
        | if e.pn == 0 && e.dn == 0 { 1 << 62 } else { 0 }
}

fn unpack(data: u64) -> Entry {
    let log = work_log(data);
    Entry {
        pn: (data & u64::from(NUMBER_MAX)) as u32,
        dn: ((data >> 28) & u64::from(NUMBER_MAX)) as u32,
        work: if log == 0 { 0 } else { 1 << (log - 1) },
        path_dependent: data & PATH_DEPENDENT != 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_read_back_and_the_least_work_is_replaced() {
        let t = Table::with_bytes(64);
        assert_eq!(t.capacity(), 4);
        assert_eq!(ENTRY_BYTES, 16);
        let e = |work| Entry {
            pn: 3,
            dn: NUMBER_MAX,
            work,
            path_dependent: false,
        };
        for k in 1..=4u64 {
            t.put(k, e(1 << (k * 3)));
        }
        assert_eq!(t.used(), 4);
        assert_eq!(t.get(2).unwrap().work, 64);
        assert_eq!(t.get(3).unwrap().dn, NUMBER_MAX);
        // A fifth position replaces the one with the least work (key 1).
        t.put(5, e(1));
        assert_eq!(t.get(1), None);
        assert_eq!(t.get(5).unwrap().work, 1);
        // Updating an entry keeps its place.
        t.put(
            5,
            Entry {
                pn: 0,
                dn: 0,
                work: 0,
                path_dependent: true,
            },
        );
        let back = t.get(5).unwrap();
        assert!(back.path_dependent && back.pn == 0 && back.dn == 0);
        assert_eq!(t.used(), 4);
    }

    #[test]
    fn a_settled_value_is_not_replaced_by_open_numbers() {
        let t = Table::with_bytes(64);
        let e = |pn, dn, path_dependent| Entry {
            pn,
            dn,
            work: 8,
            path_dependent,
        };
        t.put(7, e(0, NUMBER_MAX, false));
        t.put(7, e(2, 5, false));
        assert_eq!(t.get(7).unwrap().pn, 0);
        t.put(7, e(NUMBER_MAX, 0, true));
        assert_eq!(
            t.get(7).unwrap().pn,
            0,
            "a path's disproof does not undo a proof"
        );
        // A disproof that holds on one path only is open elsewhere.
        t.put(8, e(NUMBER_MAX, 0, true));
        t.put(8, e(4, 4, false));
        assert_eq!(t.get(8).unwrap().pn, 4);
    }
}
