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

/// A fixed-size table, one entry per slot, replaced by depth and age.
#[derive(Debug)]
pub struct Table {
    slots: Vec<Option<Entry>>,
    generation: u8,
}

impl Table {
    /// A table taking about `mb` megabytes (at least one slot).
    pub fn new(mb: usize) -> Table {
        let n = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Option<Entry>>()).max(1);
        Table {
            slots: vec![None; n],
            generation: 0,
        }
    }

    /// Number of slots.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Never true: a table has at least one slot.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
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
        self.slots[self.index(key)].filter(|e| e.key == key)
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
        let slot = &mut self.slots[i];
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
}
