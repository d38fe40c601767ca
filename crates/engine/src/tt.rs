//! Transposition table: search results by zobrist hash, sized in MB.
//!
//! The table is shared by the threads of a search (Lazy SMP) without locks:
//! a slot is four [`AtomicU64`] words (32 bytes), three of packed data and
//! one holding the key XOR-ed with the three data words (the classic
//! lockless scheme). Writers and readers use relaxed atomic accesses word by
//! word, so a reader may see words of two different stores mixed; the key
//! check then fails (the words no longer XOR to the key probed) and the
//! slot reads as empty. A mix passes only if it happens to decode to the
//! key probed, a chance of about 2^-64 per probe, as for any hash collision.

use kamil_rules::{Move, MoveKind, Square};
use std::sync::atomic::{AtomicU64, Ordering as AtomicOrdering};

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score.
    Exact,
    /// The true score is at least this (a beta cutoff).
    Lower,
    /// The true score is at most this (no move raised alpha).
    Upper,
}

impl Bound {
    /// The bound a search result `best` has in the window it was searched
    /// with (`alpha` before the search, `beta`).
    #[inline]
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    key: u64,
    /// Best or refuting move found, if any.
    pub mv: Option<Move>,
    /// Score, relative to the node (see [`crate::score::to_tt`]); scores
    /// stay within ±[`crate::score::INFINITE`], so 16 bits hold them.
    pub score: i16,
    /// Static evaluation of the node, centipawns (clamped to ±32,000).
    pub eval: i16,
    /// Remaining depth searched, plies.
    pub depth: i16,
    /// Kind of score.
    pub bound: Bound,
    generation: u8,
}

impl Entry {
    /// The entry's score at `ply` (centipawns, relative to the node) where
    /// its bound alone decides the window (`alpha`, `beta`): an exact
    /// score, or a bound beyond the window; `None` otherwise. Depth is for
    /// the caller to judge.
    #[inline]
    pub fn cutoff(&self, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        let s = crate::score::from_tt(i32::from(self.score), ply);
        match self.bound {
            Bound::Exact => Some(s),
            Bound::Lower if s >= beta => Some(s),
            Bound::Upper if s <= alpha => Some(s),
            _ => None,
        }
    }
}

/// `x` clamped to ±[`crate::score::INFINITE`], in 16 bits.
#[inline]
fn narrow(x: i32) -> i16 {
    x.clamp(-crate::score::INFINITE, crate::score::INFINITE) as i16
}

/// A table of the size asked for could not be allocated (not enough
/// memory, or more than the address space holds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllocError {
    /// The size asked for, MB.
    pub mb: usize,
}

impl std::fmt::Display for AllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot allocate a {} MB hash table: not enough memory",
            self.mb
        )
    }
}

impl std::error::Error for AllocError {}

/// Bit set in data word 1 of every stored entry: a zeroed slot is empty.
const USED: u64 = 1 << 63;
/// Bit set in data word 1 when the entry has a move.
const HAS_MOVE: u64 = 1 << 62;

/// The three data words of `e` (everything but the key).
///
/// Word 0: the move's from, to, via, extra (16 bits each). Word 1: aux
/// (bits 0-15), promo (16-23), kind (24-27), via_capture (28), bound
/// (29-30), ep_mark (31), generation (32-39), score (40-55), HAS_MOVE (62), USED (63).
/// Word 2: eval (0-15), depth (16-31).
#[inline]
fn pack(e: &Entry) -> [u64; 3] {
    let mut w0 = 0;
    let mut w1 = USED;
    if let Some(m) = e.mv {
        w0 = u64::from(m.from.0)
            | u64::from(m.to.0) << 16
            | u64::from(m.via.0) << 32
            | u64::from(m.extra.0) << 48;
        w1 |= HAS_MOVE
            | u64::from(m.aux.0)
            | u64::from(m.promo) << 16
            | u64::from(m.kind.code()) << 24
            | u64::from(m.via_capture) << 28
            | u64::from(m.ep_mark) << 31;
    }
    let bound = match e.bound {
        Bound::Exact => 0,
        Bound::Lower => 1,
        Bound::Upper => 2,
    };
    w1 |= bound << 29 | u64::from(e.generation) << 32 | u64::from(e.score as u16) << 40;
    let w2 = u64::from(e.eval as u16) | u64::from(e.depth as u16) << 16;
    [w0, w1, w2]
}

/// The entry of `key` packed as `w` by [`pack`]; `None` for an empty slot
/// or words no store wrote together (an unknown kind or bound).
#[inline]
fn unpack(key: u64, w: [u64; 3]) -> Option<Entry> {
    let [w0, w1, w2] = w;
    if w1 & USED == 0 {
        return None;
    }
    let sq = |x: u64| Square(x as u16);
    let mv = if w1 & HAS_MOVE != 0 {
        Some(Move {
            from: sq(w0),
            to: sq(w0 >> 16),
            via: sq(w0 >> 32),
            extra: sq(w0 >> 48),
            aux: sq(w1),
            promo: (w1 >> 16) as u8,
            kind: MoveKind::from_code(((w1 >> 24) & 15) as u8)?,
            via_capture: w1 >> 28 & 1 != 0,
            ep_mark: w1 >> 31 & 1 != 0,
        })
    } else {
        None
    };
    let bound = match w1 >> 29 & 3 {
        0 => Bound::Exact,
        1 => Bound::Lower,
        2 => Bound::Upper,
        _ => return None,
    };
    Some(Entry {
        key,
        mv,
        score: (w1 >> 40) as u16 as i16,
        eval: w2 as u16 as i16,
        depth: (w2 >> 16) as u16 as i16,
        bound,
        generation: (w1 >> 32) as u8,
    })
}

/// One slot: the key XOR-ed with the data words, then the data words;
/// all zero when empty. Aligned so that a slot never straddles two cache
/// lines.
#[derive(Debug, Default)]
#[repr(align(32))]
struct Slot([AtomicU64; 4]);

impl Slot {
    /// The entry held, whichever key it has (`None` when empty or torn).
    #[inline]
    fn read(&self) -> Option<Entry> {
        let w = [
            self.0[1].load(AtomicOrdering::Relaxed),
            self.0[2].load(AtomicOrdering::Relaxed),
            self.0[3].load(AtomicOrdering::Relaxed),
        ];
        let key = self.0[0].load(AtomicOrdering::Relaxed) ^ w[0] ^ w[1] ^ w[2];
        unpack(key, w)
    }

    #[inline]
    fn write(&self, e: &Entry) {
        let w = pack(e);
        self.0[0].store(e.key ^ w[0] ^ w[1] ^ w[2], AtomicOrdering::Relaxed);
        self.0[1].store(w[0], AtomicOrdering::Relaxed);
        self.0[2].store(w[1], AtomicOrdering::Relaxed);
        self.0[3].store(w[2], AtomicOrdering::Relaxed);
    }

    fn clear(&mut self) {
        self.0.iter_mut().for_each(|w| *w.get_mut() = 0);
    }
}

/// A fixed-size table, one entry per slot, replaced by depth and age.
/// [`Table::probe`] and [`Table::store`] take `&self`: the threads of a
/// search share one table (it is `Sync`).
#[derive(Debug)]
pub struct Table {
    slots: Vec<Slot>,
    generation: u8,
}

impl Table {
    /// A table taking about `mb` megabytes (at least one slot), or if that
    /// much memory cannot be had, one of 1 MB (an empty table, which stores
    /// nothing, if not even that can). The size obtained is [`Table::mb`];
    /// [`Table::try_new`] fails instead.
    pub fn new(mb: usize) -> Table {
        Table::try_new(mb)
            .or_else(|_| Table::try_new(1))
            .unwrap_or(Table {
                slots: Vec::new(),
                generation: 0,
            })
    }

    /// A table taking about `mb` megabytes (at least one slot).
    ///
    /// Errors: that much memory cannot be allocated.
    pub fn try_new(mb: usize) -> Result<Table, AllocError> {
        Ok(Table {
            slots: empty_slots(mb)?,
            generation: 0,
        })
    }

    /// Replaces the table by an empty one of about `mb` megabytes.
    ///
    /// Errors: that much memory cannot be allocated; the table is then
    /// left as it was, entries included.
    pub fn resize(&mut self, mb: usize) -> Result<(), AllocError> {
        // The old table stays until the new one exists.
        self.slots = empty_slots(mb)?;
        self.generation = 0;
        Ok(())
    }

    /// Number of slots.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// True only for the table [`Table::new`] leaves when not even one
    /// megabyte can be allocated.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Size of the slots, MB (rounded down; 0 for an empty table).
    pub fn mb(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>() / (1024 * 1024)
    }

    /// Forgets every entry (a new game).
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(Slot::clear);
        self.generation = 0;
    }

    /// Marks a new search: older entries become easier to replace.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// The entry for `key`, if stored (and not being overwritten by
    /// another thread at the same moment).
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.slots
            .get(self.index(key))
            .and_then(Slot::read)
            .filter(|e| e.key == key)
    }

    /// Stores a result; keeps a deeper entry of the same search for another
    /// position, and the old move when the new result has none. `score`
    /// and `eval` are clamped to ±[`crate::score::INFINITE`]; `depth` in
    /// plies. Safe to call from several threads at once: the last write
    /// of a slot wins, and a torn slot reads as empty.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i16,
        bound: Bound,
    ) {
        let i = self.index(key);
        let generation = self.generation;
        let Some(slot) = self.slots.get(i) else {
            return;
        };
        let mut mv = mv;
        if let Some(old) = slot.read() {
            if old.key != key && old.generation == generation && old.depth > depth + 2 {
                return;
            }
            if old.key == key && mv.is_none() {
                mv = old.mv;
            }
        }
        slot.write(&Entry {
            key,
            mv,
            score: narrow(score),
            eval: narrow(eval),
            depth,
            bound,
            generation,
        });
    }

    /// Permille of a sample of slots filled in this search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| s.read().is_some_and(|e| e.generation == self.generation))
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

/// `mb` megabytes of empty slots (at least one slot), allocated fallibly:
/// a size the GUI offers may be more than the machine has.
fn empty_slots(mb: usize) -> Result<Vec<Slot>, AllocError> {
    let bytes = mb.max(1).saturating_mul(1024 * 1024);
    let n = (bytes / std::mem::size_of::<Slot>()).max(1);
    let mut slots = Vec::new();
    slots.try_reserve_exact(n).map_err(|_| AllocError { mb })?;
    slots.resize_with(n, Slot::default);
    Ok(slots)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_by_key() {
        let mut t = Table::new(1);
        t.store(12345, None, 42, 7, 5, Bound::Exact);
        let e = t.probe(12345).unwrap();
        assert_eq!(
            (e.score, e.eval, e.depth, e.bound),
            (42, 7, 5, Bound::Exact)
        );
        assert!(t.probe(54321).is_none());
        t.clear();
        assert!(t.probe(12345).is_none());
    }

    #[test]
    fn an_entry_fits_32_bytes() {
        assert!(std::mem::size_of::<Option<Entry>>() <= 32);
        assert_eq!(std::mem::size_of::<Slot>(), 32);
        assert_eq!(std::mem::align_of::<Slot>(), 32);
    }

    #[test]
    fn size_follows_megabytes() {
        let a = Table::new(1).len();
        let b = Table::new(4).len();
        assert_eq!(b, 4 * a);
        assert_eq!(a, 1024 * 1024 / 32);
    }

    /// More memory than any machine has: the table keeps its size and
    /// entries, and says why.
    #[test]
    fn an_impossible_size_keeps_the_old_table() {
        let huge = usize::MAX / 2 / (1024 * 1024);
        let mut t = Table::new(1);
        let len = t.len();
        t.store(777, None, 5, 5, 3, Bound::Lower);
        let err = t.resize(huge).unwrap_err();
        assert_eq!(err.mb, huge);
        assert!(err.to_string().contains("cannot allocate"), "{err}");
        assert_eq!(t.len(), len);
        assert!(t.probe(777).is_some());
        assert!(Table::try_new(huge).is_err());
        assert!(Table::try_new(usize::MAX).is_err());
    }

    /// `new` settles for 1 MB rather than abort.
    #[test]
    fn new_settles_for_one_megabyte() {
        assert_eq!(Table::new(usize::MAX / 2 / (1024 * 1024)).mb(), 1);
        assert_eq!(Table::new(2).mb(), 2);
    }

    /// An empty table stores and finds nothing, without panicking.
    #[test]
    fn an_empty_table_stores_nothing() {
        let mut t = Table {
            slots: Vec::new(),
            generation: 0,
        };
        t.store(1, None, 0, 0, 1, Bound::Exact);
        assert!(t.probe(1).is_none());
        assert_eq!(t.hashfull(), 0);
        t.clear();
    }

    /// A move with every field set to a value other than the default.
    fn full_move(kind: MoveKind) -> Move {
        Move {
            from: Square(1),
            to: Square(0x7fff),
            via: Square(0xfffe),
            promo: 0xfe,
            kind,
            via_capture: true,
            extra: Square(0x1234),
            aux: Square(u16::MAX),
            ep_mark: true,
        }
    }

    /// Every field comes back as stored: each move kind, extreme scores,
    /// depths and evaluations, every bound, with and without a move.
    #[test]
    fn every_field_round_trips() {
        let mut t = Table::new(1);
        t.new_search();
        t.new_search();
        let inf = crate::score::INFINITE;
        let mut key = 0x9e37_79b9_7f4a_7c15_u64;
        for kind in MoveKind::ALL {
            // Four bits of the packed entry hold the code.
            assert!(kind.code() < 16);
            for (score, eval, depth, bound) in [
                (inf, -inf, i16::MAX, Bound::Exact),
                (-inf, inf, i16::MIN, Bound::Lower),
                (-1, 1, -1, Bound::Upper),
                (0, 0, 0, Bound::Exact),
            ] {
                for mv in [
                    Some(full_move(kind)),
                    Some(Move::new(Square(0), Square(0))),
                    None,
                ] {
                    key = key
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    t.store(key, mv, score, eval, depth, bound);
                    let e = t.probe(key).expect("just stored");
                    assert_eq!(e.key, key);
                    assert_eq!(e.mv, mv);
                    assert_eq!(
                        (e.score, e.eval, e.depth, e.bound, e.generation),
                        (score as i16, eval as i16, depth, bound, 2)
                    );
                }
            }
        }
        // Out-of-range scores are clamped, not wrapped.
        t.store(5, None, 100_000, -100_000, 1, Bound::Exact);
        let e = t.probe(5).unwrap();
        assert_eq!((e.score, e.eval), (inf as i16, -inf as i16));
    }

    /// A store with no move keeps the old one of the same key; a shallow
    /// store of another key does not replace a deep one of this search.
    #[test]
    fn replacement_keeps_moves_and_depth() {
        let t = Table::new(1);
        let m = full_move(MoveKind::Castle);
        t.store(7, Some(m), 10, 0, 3, Bound::Lower);
        t.store(7, None, 20, 0, 4, Bound::Upper);
        let e = t.probe(7).unwrap();
        assert_eq!((e.mv, e.score, e.bound), (Some(m), 20, Bound::Upper));
        // Same slot (index is the key's high bits), other key.
        let other = 7 ^ 1;
        assert_eq!(t.index(other), t.index(7));
        t.store(other, None, 0, 0, 1, Bound::Exact);
        assert!(t.probe(other).is_none());
        assert!(t.probe(7).is_some());
        t.store(other, None, 0, 0, 2, Bound::Exact);
        assert!(t.probe(other).is_some());
    }

    /// A slot whose words do not belong together (a write torn by another
    /// thread, or any corruption) is not returned.
    #[test]
    fn a_torn_slot_is_not_returned() {
        let t = Table::new(1);
        let (a, b) = (0x1111_2222_3333_4444_u64, 0x1111_2222_3333_4445_u64);
        assert_eq!(t.index(a), t.index(b));
        t.store(a, Some(full_move(MoveKind::Swap)), 11, 12, 5, Bound::Exact);
        let slot = &t.slots[t.index(a)];
        let first: Vec<u64> = slot
            .0
            .iter()
            .map(|w| w.load(AtomicOrdering::Relaxed))
            .collect();
        let other = Move::new(Square(5), Square(6));
        t.store(b, Some(other), 21, 22, 6, Bound::Lower);
        let second: Vec<u64> = slot
            .0
            .iter()
            .map(|w| w.load(AtomicOrdering::Relaxed))
            .collect();
        // Every mix of the two writes, word by word, other than the two
        // writes themselves: neither key finds anything.
        for mask in 1..15u32 {
            for (i, w) in slot.0.iter().enumerate() {
                let v = if mask >> i & 1 != 0 {
                    second[i]
                } else {
                    first[i]
                };
                w.store(v, AtomicOrdering::Relaxed);
            }
            assert!(t.probe(a).is_none(), "mix {mask:04b} found a");
            assert!(t.probe(b).is_none(), "mix {mask:04b} found b");
        }
        // A flipped bit anywhere in the data is caught too.
        for i in 0..4 {
            for bit in [0, 17, 40, 63] {
                for (j, w) in slot.0.iter().enumerate() {
                    w.store(first[j] ^ u64::from(i == j) << bit, AtomicOrdering::Relaxed);
                }
                assert!(t.probe(a).is_none(), "word {i} bit {bit}");
            }
        }
        // An unknown kind or bound with a matching key is no entry either.
        let e = Entry {
            key: a,
            mv: Some(full_move(MoveKind::Transfer)),
            score: 1,
            eval: 2,
            depth: 3,
            bound: Bound::Exact,
            generation: 0,
        };
        assert!(unpack(a, pack(&e)).is_some());
        let mut w = pack(&e);
        w[1] |= 15 << 24;
        assert!(unpack(a, w).is_none());
        let mut w = pack(&e);
        w[1] |= 3 << 29;
        assert!(unpack(a, w).is_none());
    }

    /// The fields an entry of `key` gets in the concurrency test: each a
    /// function of the key, so that a mix of two entries shows.
    fn fields_of(key: u64) -> (Option<Move>, i32, i32, i16, Bound) {
        let h = key.wrapping_mul(0x2545_f491_4f6c_dd1d);
        let mv = (h & 1 == 0).then(|| Move {
            from: Square(h as u16),
            to: Square((h >> 16) as u16),
            via: Square((h >> 32) as u16),
            promo: (h >> 48) as u8,
            kind: MoveKind::ALL[(h >> 56) as usize % MoveKind::ALL.len()],
            via_capture: h >> 60 & 1 != 0,
            extra: Square((h >> 8) as u16),
            aux: Square((h >> 24) as u16),
            ep_mark: h >> 61 & 1 != 0,
        });
        let score = (h >> 20) as i32 % 30_000;
        let eval = (h >> 36) as i32 % 30_000;
        // Depths 0-2: a store always replaces (never kept out by depth).
        let depth = (h >> 50) as i16 % 3;
        let bound = [Bound::Exact, Bound::Lower, Bound::Upper][(h >> 61) as usize % 3];
        (mv, score, eval, depth, bound)
    }

    /// Four threads store and probe the same two slots at once: every hit
    /// holds fields that belong to its key. (Checked to fail, within a few
    /// runs, if the key word is not XOR-ed with the data.)
    #[test]
    fn concurrent_stores_never_mix_entries() {
        let t = Table::new(1);
        assert_eq!(t.len(), 1 << 15);
        // 16 keys, eight to a slot (the index is the key's top 15 bits).
        let key_of = |i: u64| (i % 2) << 49 | i << 8 | 1;
        let hits = AtomicU64::new(0);
        std::thread::scope(|s| {
            for thread in 0..4u64 {
                let t = &t;
                let hits = &hits;
                s.spawn(move || {
                    let mut x = thread + 1;
                    for _ in 0..400_000 {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        let key = key_of(x % 16);
                        let (mv, score, eval, depth, bound) = fields_of(key);
                        t.store(key, mv, score, eval, depth, bound);
                        let key = key_of((x >> 8) % 16);
                        if let Some(e) = t.probe(key) {
                            hits.fetch_add(1, AtomicOrdering::Relaxed);
                            let (mv, score, eval, depth, bound) = fields_of(key);
                            assert_eq!(e.key, key);
                            assert_eq!(
                                (e.mv, e.score, e.eval, e.depth, e.bound),
                                (mv, score as i16, eval as i16, depth, bound),
                                "key {key:x}"
                            );
                        }
                    }
                });
            }
        });
        assert!(hits.load(AtomicOrdering::Relaxed) > 0, "no probe ever hit");
    }

    /// A table can be shared between threads.
    #[test]
    fn the_table_is_sync() {
        fn sync<T: Sync + Send>() {}
        sync::<Table>();
    }
}
