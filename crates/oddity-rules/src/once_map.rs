//! Values built on first use of their key and kept for the life of the
//! program: board topologies, per-board tables, policy gamma tables.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Mutex, OnceLock};

/// A map whose values are built the first time their key is asked for and
/// never freed, so that readers hold plain `&'static` references. Meant for
/// a `static`: the keys are few (one per board, weights file and so on).
pub struct OnceMap<K, V: ?Sized + 'static> {
    map: OnceLock<Mutex<HashMap<K, &'static V>>>,
}

impl<K: Eq + Hash, V: ?Sized + Sync> OnceMap<K, V> {
    /// An empty map.
    pub const fn new() -> Self {
        OnceMap {
            map: OnceLock::new(),
        }
    }

    /// The value of `key`, built by `build` on its first use. The lock is
    /// not held while building, so one value's build may ask for another's;
    /// threads that race on a new key may each build it, and all get the
    /// first one stored.
    pub fn get_or_build(&self, key: K, build: impl FnOnce() -> Box<V>) -> &'static V {
        let lock = || {
            self.map
                .get_or_init(Default::default)
                .lock()
                .unwrap_or_else(|e| e.into_inner())
        };
        if let Some(&found) = lock().get(&key) {
            return found;
        }
        let built: &'static V = Box::leak(build());
        lock().entry(key).or_insert(built)
    }
}

impl<K: Eq + Hash, V: ?Sized + Sync> Default for OnceMap<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_each_key_once_and_nests() {
        static SQUARES: OnceMap<u32, u32> = OnceMap::new();
        let mut builds = 0;
        let four = SQUARES.get_or_build(2, || {
            builds += 1;
            // A build may ask the same map for another key.
            Box::new(*SQUARES.get_or_build(1, || Box::new(1)) * 4)
        });
        let again = SQUARES.get_or_build(2, || unreachable!("built once"));
        assert_eq!((*four, builds), (4, 1));
        assert!(std::ptr::eq(four, again));
    }
}
