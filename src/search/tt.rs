//! The transposition table: one entry per slot, keyed by the full hash,
//! holding depth, bound, score and best move; shared by search threads.

use std::sync::atomic::{AtomicU64, Ordering};

/// Starts loading `item`'s cache line, ahead of a read; a no-op where the
/// target has no prefetch hint.
#[inline(always)]
pub(crate) fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch is only a hint; SSE is part of every x86_64 target.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

/// What a stored score says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    /// The true score is at least this (a beta cut-off).
    Lower,
    /// The true score is at most this (no move raised alpha).
    Upper,
}

/// One stored search result. Scores are stored relative to the node (mate
/// distances from this node, not from the root): see `score_to_tt`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    pub depth: u8,
    pub bound: Bound,
    pub score: i32,
    /// The best move as the game packs it.
    pub best_move: Option<u16>,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    /// score (i16) | move (u16) << 16 | depth << 32 | bound << 40 | generation << 48 | has move << 56
    data: u64,
}

const BOUND_NONE: u64 = 0;

impl Slot {
    fn bound(self) -> u64 {
        self.data >> 40 & 0xff
    }

    fn depth(self) -> u8 {
        (self.data >> 32) as u8
    }

    fn generation(self) -> u8 {
        (self.data >> 48) as u8
    }

    fn best_move(self) -> Option<u16> {
        (self.data >> 56 != 0).then_some((self.data >> 16) as u16)
    }
}

/// A slot shared by search threads without locks: it stores `key ^ data`
/// beside `data`, so a slot torn by two threads writing at once fails the key
/// check instead of passing off one position's data as another's.
#[derive(Default)]
struct SharedSlot {
    checked_key: AtomicU64,
    data: AtomicU64,
}

impl SharedSlot {
    fn load(&self) -> Slot {
        let data = self.data.load(Ordering::Relaxed);
        Slot { key: self.checked_key.load(Ordering::Relaxed) ^ data, data }
    }

    fn save(&self, slot: Slot) {
        self.checked_key.store(slot.key ^ slot.data, Ordering::Relaxed);
        self.data.store(slot.data, Ordering::Relaxed);
    }
}

/// `count` empty slots, if the memory can be had.
fn allocate_slots(count: usize) -> Option<Vec<SharedSlot>> {
    let mut slots = Vec::new();
    slots.try_reserve_exact(count).ok()?;
    slots.resize_with(count, SharedSlot::default);
    Some(slots)
}

pub struct TranspositionTable {
    slots: Vec<SharedSlot>,
    /// Bumped for every new search, so old entries give way first.
    generation: u8,
}

impl TranspositionTable {
    /// A table of `megabytes`, or, where that much memory cannot be had, of
    /// the largest half, quarter, ... of it that can (see `megabytes`).
    pub fn new(megabytes: usize) -> TranspositionTable {
        TranspositionTable::allocate(megabytes, allocate_slots)
    }

    /// `new` with the allocation given: it answers `None` when the memory
    /// for that many slots cannot be had.
    fn allocate(megabytes: usize, allocate: impl Fn(usize) -> Option<Vec<SharedSlot>>) -> TranspositionTable {
        let mut count = (megabytes.max(1) * 1024 * 1024 / std::mem::size_of::<SharedSlot>()).max(1);
        loop {
            if let Some(slots) = allocate(count) {
                return TranspositionTable { slots, generation: 0 };
            }
            if count == 1 {
                // Without memory for one slot nothing else would run either.
                return TranspositionTable { slots: vec![SharedSlot::default()], generation: 0 };
            }
            count /= 2;
        }
    }

    pub fn megabytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<SharedSlot>() / (1024 * 1024)
    }

    pub fn clear(&mut self) {
        for slot in &mut self.slots {
            *slot = SharedSlot::default();
        }
        self.generation = 0;
    }

    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn index(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto any table size without a modulo.
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// Starts loading the slot of `key` into the cache, ahead of a probe.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        prefetch(&self.slots[self.index(key)]);
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slots[self.index(key)].load();
        if slot.key != key || slot.bound() == BOUND_NONE {
            return None;
        }
        let bound = match slot.bound() {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Entry { depth: slot.depth(), bound, score: slot.data as u16 as i16 as i32, best_move: slot.best_move() })
    }

    /// Stores unless the slot holds a deeper result of this search for another position.
    pub fn store(&self, key: u64, entry: Entry) {
        let shared = &self.slots[self.index(key)];
        let old = shared.load();
        let replace = old.key == key
            || old.bound() == BOUND_NONE
            || old.generation() != self.generation
            || entry.depth >= old.depth();
        if !replace {
            return;
        }
        // Keep the old best move when the new result has none for this position.
        let best_move = entry.best_move.or(if old.key == key { old.best_move() } else { None });
        let bound = match entry.bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let score = entry.score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
        shared.save(Slot {
            key,
            data: score
                | (best_move.unwrap_or(0) as u64) << 16
                | (entry.depth as u64) << 32
                | bound << 40
                | (self.generation as u64) << 48
                | (best_move.is_some() as u64) << 56,
        });
    }

    /// Permille of sampled slots filled during the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .map(SharedSlot::load)
            .filter(|slot| slot.bound() != BOUND_NONE && slot.generation() == self.generation)
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_too_big_for_the_memory_falls_back_to_the_largest_that_fits() {
        let at_most_8_megabytes = |count: usize| {
            (count * std::mem::size_of::<SharedSlot>() <= 8 << 20).then(|| allocate_slots(count)).flatten()
        };
        let table = TranspositionTable::allocate(1024, at_most_8_megabytes);
        assert_eq!(table.megabytes(), 8);
        let table = TranspositionTable::allocate(1024, |_| None);
        assert_eq!(table.slots.len(), 1);
        table.store(7, Entry { depth: 1, bound: Bound::Exact, score: 3, best_move: None });
        assert_eq!(table.probe(7).map(|entry| entry.score), Some(3));
    }

    #[test]
    fn stored_entries_come_back_and_other_keys_miss() {
        let mut table = TranspositionTable::new(1);
        let entry = Entry { depth: 7, bound: Bound::Lower, score: -12345, best_move: Some(0x1abc) };
        table.store(42, entry);
        assert_eq!(table.probe(42), Some(entry));
        assert_eq!(table.probe(43), None);
        table.clear();
        assert_eq!(table.probe(42), None);
    }

    #[test]
    fn a_shallower_result_does_not_evict_a_deeper_one_of_the_same_search() {
        let mut table = TranspositionTable::new(1);
        let slots = table.slots.len() as u64;
        // Two keys that map to the same slot: index = key * len >> 64.
        let first = 5u64;
        let second = first + (u64::MAX / slots) / 4;
        assert_eq!(table.index(first), table.index(second));
        let deep = Entry { depth: 9, bound: Bound::Exact, score: 5, best_move: Some(0) };
        table.store(first, deep);
        table.store(second, Entry { depth: 2, ..deep });
        assert_eq!(table.probe(first), Some(deep));
        table.new_search();
        table.store(second, Entry { depth: 2, ..deep });
        assert_eq!(table.probe(second).map(|e| e.depth), Some(2));
    }

    #[test]
    fn hashfull_counts_this_search_only() {
        let mut table = TranspositionTable::new(1);
        assert_eq!(table.hashfull(), 0);
        for key in 0..table.slots.len() as u64 {
            table.store(
                key.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                Entry { depth: 1, bound: Bound::Exact, score: 0, best_move: None },
            );
        }
        assert!(table.hashfull() > 500);
        table.new_search();
        assert_eq!(table.hashfull(), 0);
    }
}
