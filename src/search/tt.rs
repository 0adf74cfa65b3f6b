//! The transposition table: one entry per slot, keyed by the full hash,
//! holding depth, bound, score and best move; shared by search threads.

use std::sync::atomic::{AtomicU64, Ordering};

/// Starts loading `item`'s cache line, ahead of a read; a no-op where the
/// target has no prefetch hint.
#[inline(always)]
pub(super) fn prefetch<T>(item: &T) {
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
pub(super) enum Bound {
    Exact,
    /// The true score is at least this (a beta cut-off).
    Lower,
    /// The true score is at most this (no move raised alpha).
    Upper,
}

/// One stored search result. Scores are stored relative to the node (mate
/// distances from this node, not from the root): see `score_to_tt`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Entry {
    /// How many plies the search below this position went.
    pub(super) depth: u8,
    pub(super) bound: Bound,
    pub(super) score: i32,
    /// The best move as the game packs it.
    pub(super) best_move: Option<u16>,
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

/// Slots per bucket: one bucket fills a cache line, so a probe that reads
/// all of them costs one memory access.
const BUCKET_SLOTS: usize = 4;

#[derive(Default)]
#[repr(align(64))]
struct Bucket([SharedSlot; BUCKET_SLOTS]);

/// `count` empty buckets, if the memory can be had: written at once, so
/// that no search pays for the pages later.
fn allocate_buckets(count: usize) -> Option<Buckets> {
    let mut buckets = reserve_table(count)?;
    advise_huge_pages(buckets.as_ptr(), buckets.capacity() * std::mem::size_of::<Bucket>());
    buckets.resize_with(count, Bucket::default);
    Some(Buckets::Written(buckets))
}

/// `count` empty buckets, if the memory can be had, as zeroed memory that
/// the system backs page by page as it is first written (`calloc` maps
/// fresh pages for a large block and writes nothing): a search that uses
/// little of the table takes little memory, and pays for the pages it uses
/// as it goes. Huge pages are not asked for: one would be written whole
/// the first time any of its 2 MiB is.
fn zeroed_buckets(count: usize) -> Option<Buckets> {
    let bytes = count.checked_mul(std::mem::size_of::<Bucket>())?;
    // `alloc_zeroed` goes to `calloc` only for an alignment it gives by
    // itself: the block is over-allocated and the buckets start at its
    // first cache line.
    let layout = std::alloc::Layout::from_size_align(bytes.checked_add(BUCKET_ALIGN)?, 16).ok()?;
    // SAFETY: the layout's size is not zero.
    let base = std::ptr::NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
    let mut spare: Vec<u8> = Vec::new();
    if spare.try_reserve_exact(HEADROOM_BYTES).is_err() {
        // SAFETY: allocated just above with this layout.
        unsafe { std::alloc::dealloc(base.as_ptr(), layout) };
        return None;
    }
    let offset = base.as_ptr().align_offset(BUCKET_ALIGN);
    // SAFETY: `offset` < BUCKET_ALIGN, so the buckets lie inside the block.
    let first = unsafe { base.add(offset) }.cast::<Bucket>();
    Some(Buckets::Zeroed { base, layout, first, count })
}

const BUCKET_ALIGN: usize = std::mem::align_of::<Bucket>();

/// A table's buckets: written when made, or zeroed pages the system backs
/// as they are first written.
enum Buckets {
    Written(Vec<Bucket>),
    Zeroed {
        /// The block allocated, with its layout, to free it.
        base: std::ptr::NonNull<u8>,
        layout: std::alloc::Layout,
        /// The first bucket, aligned inside the block, and how many.
        first: std::ptr::NonNull<Bucket>,
        count: usize,
    },
}

// SAFETY: the block is owned, and a bucket is atomics only.
unsafe impl Send for Buckets {}
// SAFETY: shared access goes through the buckets' atomics.
unsafe impl Sync for Buckets {}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];

    fn deref(&self) -> &[Bucket] {
        match self {
            Buckets::Written(buckets) => buckets,
            // SAFETY: `count` buckets from `first` lie inside the owned block,
            // zeroed, and all zeros is an empty bucket (atomics of 0).
            Buckets::Zeroed { first, count, .. } => unsafe { std::slice::from_raw_parts(first.as_ptr(), *count) },
        }
    }
}

impl std::ops::DerefMut for Buckets {
    fn deref_mut(&mut self) -> &mut [Bucket] {
        match self {
            Buckets::Written(buckets) => buckets,
            // SAFETY: as for `deref`, and `&mut self` makes the access exclusive.
            Buckets::Zeroed { first, count, .. } => unsafe { std::slice::from_raw_parts_mut(first.as_ptr(), *count) },
        }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        if let Buckets::Zeroed { base, layout, .. } = self {
            // SAFETY: allocated by `zeroed_buckets` with this layout; buckets need no drop.
            unsafe { std::alloc::dealloc(base.as_ptr(), *layout) };
        }
    }
}

/// Address space a table leaves free for everything else the engine
/// allocates (threads' stacks, buffers, the move-ordering statistics): the
/// tables' allocations are fallible and give way, the others would end the
/// process. It matters where address space is limited (`ulimit -v`).
const HEADROOM_BYTES: usize = 32 << 20;

/// How many entries of `entry_bytes` the tables whose key's low bits pick
/// the slot hold in `megabytes` (at least 1): the most that fit, at least
/// `least` (a power of two), rounded down to a power of two.
pub(super) fn power_of_two_entries(megabytes: usize, entry_bytes: usize, least: usize) -> usize {
    let fit = ((megabytes.max(1) << 20) / entry_bytes).max(least);
    1 << (usize::BITS - 1 - fit.leading_zeros())
}

/// Room for `count` items of a table, reserved but not yet written, if
/// that much can be had with `HEADROOM_BYTES` still to spare.
pub(super) fn reserve_table<T>(count: usize) -> Option<Vec<T>> {
    let mut items = Vec::new();
    items.try_reserve_exact(count).ok()?;
    let mut spare: Vec<u8> = Vec::new();
    spare.try_reserve_exact(HEADROOM_BYTES).ok()?;
    Some(items)
}

/// Sets every item to its default, the work shared out over `threads`
/// threads (as Stockfish clears its table with its search threads); what
/// a thread that cannot start would have done, the others do.
pub(super) fn clear_on_threads<T: Default + Send>(items: &mut [T], threads: usize) {
    // Below this a thread costs more than it saves.
    const MIN_SHARE_BYTES: usize = 4 << 20;
    let share = items.len().div_ceil(threads.max(1)).max(MIN_SHARE_BYTES / std::mem::size_of::<T>().max(1));
    let parts = std::sync::Mutex::new(items.chunks_mut(share).collect::<Vec<_>>());
    let work = || {
        while let Some(part) = parts.lock().unwrap_or_else(std::sync::PoisonError::into_inner).pop() {
            part.iter_mut().for_each(|item| *item = T::default());
        }
    };
    let helpers = parts.lock().unwrap_or_else(std::sync::PoisonError::into_inner).len().saturating_sub(1);
    std::thread::scope(|scope| {
        for _ in 0..helpers {
            if let Err(error) = std::thread::Builder::new().spawn_scoped(scope, work) {
                log::debug!("clearing the table on fewer threads: {error}");
                break;
            }
        }
        work();
    });
}

/// Asks the kernel to back the whole 2 MiB pages inside `length` bytes at
/// `start` (an allocation of ours, reserved but not yet touched) with huge
/// pages. Probes land anywhere in a table of many megabytes: with 4 KiB
/// pages nearly every one also misses the TLB, and a prefetch then stalls
/// on the page walk. Linux only; elsewhere, or if the kernel declines,
/// pages stay small.
pub(super) fn advise_huge_pages<T>(start: *const T, length: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE_PAGE: usize = 2 << 20;
        const MADV_HUGEPAGE: i32 = 14;
        unsafe extern "C" {
            fn madvise(address: *mut std::ffi::c_void, length: usize, advice: i32) -> i32;
        }
        let first = (start as usize).next_multiple_of(HUGE_PAGE);
        let end = (start as usize + length) / HUGE_PAGE * HUGE_PAGE;
        if end > first {
            // SAFETY: the range lies inside an allocation we own; the advice
            // changes how pages are backed, never their contents.
            let result = unsafe { madvise(first as *mut std::ffi::c_void, end - first, MADV_HUGEPAGE) };
            if result != 0 {
                log::debug!("huge pages not available for the table: {}", std::io::Error::last_os_error());
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, length);
}

/// Search results by position key, shared by the threads of a search
/// without locks: buckets of four slots, one cache line each.
pub(super) struct TranspositionTable {
    buckets: Buckets,
    /// Bumped for every new search, so old entries give way first.
    generation: u8,
}

impl TranspositionTable {
    /// A table of `megabytes`, or, where that much memory cannot be had, of
    /// the largest half, quarter, ... of it that can (see `megabytes`).
    pub(super) fn new(megabytes: usize) -> TranspositionTable {
        TranspositionTable::allocate(megabytes, allocate_buckets)
    }

    /// `new`, but the memory is taken page by page as the search first
    /// writes it (see `zeroed_buckets`): for a single search whose work, not
    /// the size asked, should decide what it costs.
    pub(super) fn on_demand(megabytes: usize) -> TranspositionTable {
        TranspositionTable::allocate(megabytes, zeroed_buckets)
    }

    /// `new` with the allocation given: it answers `None` when the memory
    /// for that many buckets cannot be had.
    fn allocate(megabytes: usize, allocate: impl Fn(usize) -> Option<Buckets>) -> TranspositionTable {
        let mut count = (megabytes.max(1) * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1);
        loop {
            if let Some(buckets) = allocate(count) {
                return TranspositionTable { buckets, generation: 0 };
            }
            if count == 1 {
                // Without memory for one bucket nothing else would run either.
                return TranspositionTable { buckets: Buckets::Written(vec![Bucket::default()]), generation: 0 };
            }
            count /= 2;
        }
    }

    /// The table's size.
    pub(super) fn megabytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Empties the table, on `threads` threads.
    pub(super) fn clear(&mut self, threads: usize) {
        clear_on_threads(&mut self.buckets, threads);
        self.generation = 0;
    }

    /// Marks what is stored from now on as the new search's.
    pub(super) fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto any table size without a modulo.
        &self.buckets[((key as u128 * self.buckets.len() as u128) >> 64) as usize]
    }

    /// Starts loading the bucket of `key` into the cache, ahead of a probe.
    #[inline(always)]
    pub(super) fn prefetch(&self, key: u64) {
        prefetch(self.bucket(key));
    }

    /// The entry stored for `key`, if any.
    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.bucket(key).0.iter().map(SharedSlot::load).find(|slot| slot.key == key)?;
        let bound = match slot.bound() {
            BOUND_NONE => return None,
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Entry { depth: slot.depth(), bound, score: slot.data as u16 as i16 as i32, best_move: slot.best_move() })
    }

    /// Stores in the bucket's slot for this position if it has one, else
    /// in the slot least worth keeping: empty, then from an older search,
    /// then the shallowest.
    pub(super) fn store(&self, key: u64, entry: Entry) {
        let bucket = &self.bucket(key).0;
        // Each slot read once: the choice and the old move come from these.
        let slots: [Slot; BUCKET_SLOTS] = std::array::from_fn(|index| bucket[index].load());
        let worth = |slot: Slot| {
            if slot.bound() == BOUND_NONE {
                -1
            } else if slot.generation() != self.generation {
                slot.depth() as i32
            } else {
                slot.depth() as i32 + 256
            }
        };
        let index = (0..BUCKET_SLOTS)
            .find(|&index| slots[index].key == key)
            .or_else(|| (0..BUCKET_SLOTS).min_by_key(|&index| worth(slots[index])))
            .unwrap_or(0);
        let old = slots[index];
        // Keep the old best move when the new result has none for this position.
        let best_move = entry.best_move.or(if old.key == key { old.best_move() } else { None });
        let bound = match entry.bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let score = entry.score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
        bucket[index].save(Slot {
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
    pub(super) fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(1000 / BUCKET_SLOTS);
        let used = self.buckets[..sample]
            .iter()
            .flat_map(|bucket| bucket.0.iter().map(SharedSlot::load))
            .filter(|slot| slot.bound() != BOUND_NONE && slot.generation() == self.generation)
            .count();
        (used * 1000 / (sample * BUCKET_SLOTS).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_too_big_for_the_memory_falls_back_to_the_largest_that_fits() {
        let at_most_8_megabytes = |count: usize| {
            (count * std::mem::size_of::<Bucket>() <= 8 << 20).then(|| allocate_buckets(count)).flatten()
        };
        let table = TranspositionTable::allocate(1024, at_most_8_megabytes);
        assert_eq!(table.megabytes(), 8);
        let table = TranspositionTable::allocate(1024, |_| None);
        assert_eq!(table.buckets.len(), 1);
        table.store(7, Entry { depth: 1, bound: Bound::Exact, score: 3, best_move: None });
        assert_eq!(table.probe(7).map(|entry| entry.score), Some(3));
    }

    #[test]
    fn a_table_cleared_on_several_threads_is_empty_everywhere() {
        let mut table = TranspositionTable::new(16);
        let keys: Vec<u64> = (1..=200_000u64).map(|key| key.wrapping_mul(0x9e37_79b9_7f4a_7c15)).collect();
        for &key in &keys {
            table.store(key, Entry { depth: 1, bound: Bound::Exact, score: 0, best_move: None });
        }
        assert!(keys.iter().filter(|&&key| table.probe(key).is_some()).count() > 100_000);
        table.clear(3);
        assert!(keys.iter().all(|&key| table.probe(key).is_none()));
        let mut slots = vec![7u64; 1 << 22];
        clear_on_threads(&mut slots, 4);
        assert!(slots.iter().all(|&slot| slot == 0));
    }

    #[test]
    fn stored_entries_come_back_and_other_keys_miss() {
        let mut table = TranspositionTable::new(1);
        let entry = Entry { depth: 7, bound: Bound::Lower, score: -12345, best_move: Some(0x1abc) };
        table.store(42, entry);
        assert_eq!(table.probe(42), Some(entry));
        assert_eq!(table.probe(43), None);
        table.clear(1);
        assert_eq!(table.probe(42), None);
    }

    #[test]
    fn a_full_bucket_gives_up_an_old_search_s_entries_first_then_the_shallowest() {
        let mut table = TranspositionTable::new(1);
        let buckets = table.buckets.len() as u64;
        // Keys one bucket's share of the key space apart share a bucket
        // (bucket = key * len >> 64) only while they stay inside it.
        let share = u64::MAX / buckets;
        let keys: Vec<u64> = (0..6).map(|index| 5 + index * (share / 8)).collect();
        assert!(keys.iter().all(|&key| std::ptr::eq(table.bucket(key), table.bucket(keys[0]))));
        let entry = |depth| Entry { depth, bound: Bound::Exact, score: 5, best_move: Some(0) };
        for (&key, depth) in keys.iter().zip([9, 3, 7, 8]) {
            table.store(key, entry(depth));
        }
        table.store(keys[4], entry(2));
        assert_eq!(table.probe(keys[1]), None, "the shallowest goes");
        for (&key, depth) in [keys[0], keys[2], keys[3], keys[4]].iter().zip([9, 7, 8, 2]) {
            assert_eq!(table.probe(key), Some(entry(depth)));
        }
        // In a new search, the old results go first, shallowest first,
        // even before shallower new ones.
        table.new_search();
        table.store(keys[1], entry(1));
        assert_eq!(table.probe(keys[4]), None);
        table.store(keys[5], entry(1));
        assert_eq!(table.probe(keys[2]), None);
        assert_eq!(table.probe(keys[1]), Some(entry(1)));
        assert_eq!(table.probe(keys[0]), Some(entry(9)));
        // The same position's slot is rewritten, keeping its move.
        table.store(keys[1], Entry { best_move: None, ..entry(4) });
        assert_eq!(table.probe(keys[1]), Some(entry(4)));
    }

    #[test]
    fn hashfull_counts_this_search_only() {
        let mut table = TranspositionTable::new(1);
        assert_eq!(table.hashfull(), 0);
        for key in 0..(table.buckets.len() * BUCKET_SLOTS) as u64 {
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
