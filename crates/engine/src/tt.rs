//! Transposition table: search results by zobrist hash, sized in MB.

use kamil_rules::Move;

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

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    key: u64,
    /// Best or refuting move found, if any.
    pub mv: Option<Move>,
    /// Score, relative to the node (see [`crate::score::to_tt`]); scores
    /// stay within ±[`crate::score::INFINITE`], so 16 bits hold them and an
    /// entry (with a 14-byte move) fits 32 bytes.
    pub score: i16,
    /// Static evaluation of the node, centipawns (clamped to ±32,000).
    pub eval: i16,
    /// Remaining depth searched, plies.
    pub depth: i16,
    /// Kind of score.
    pub bound: Bound,
    generation: u8,
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

/// A fixed-size table, one entry per slot, replaced by depth and age.
#[derive(Debug)]
pub struct Table {
    slots: Vec<Option<Entry>>,
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
        self.slots.len() * std::mem::size_of::<Option<Entry>>() / (1024 * 1024)
    }

    /// Forgets every entry (a new game).
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
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

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.slots
            .get(self.index(key))
            .copied()
            .flatten()
            .filter(|e| e.key == key)
    }

    /// Stores a result; keeps a deeper entry of the same search for another
    /// position, and the old move when the new result has none.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &mut self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i16,
        bound: Bound,
    ) {
        let i = self.index(key);
        let generation = self.generation;
        let Some(slot) = self.slots.get_mut(i) else {
            return;
        };
        let mut mv = mv;
        if let Some(old) = slot {
            if old.key != key && old.generation == generation && old.depth > depth + 2 {
                return;
            }
            if old.key == key && mv.is_none() {
                mv = old.mv;
            }
        }
        *slot = Some(Entry {
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
            .filter(|s| s.is_some_and(|e| e.generation == self.generation))
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

/// `mb` megabytes of empty slots (at least one slot), allocated fallibly:
/// a size the GUI offers may be more than the machine has.
fn empty_slots(mb: usize) -> Result<Vec<Option<Entry>>, AllocError> {
    let bytes = mb.max(1).saturating_mul(1024 * 1024);
    let n = (bytes / std::mem::size_of::<Option<Entry>>()).max(1);
    let mut slots = Vec::new();
    slots.try_reserve_exact(n).map_err(|_| AllocError { mb })?;
    slots.resize(n, None);
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
    }

    #[test]
    fn size_follows_megabytes() {
        let a = Table::new(1).len();
        let b = Table::new(4).len();
        assert_eq!(b, 4 * a);
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
}
