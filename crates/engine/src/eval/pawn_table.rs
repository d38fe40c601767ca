//! The pawn hash table: the evaluation terms that depend on the pawns
//! alone (pawn structure, space, and which files hold pawns), kept by a
//! zobrist key of the pawns. Pawns move rarely, so most evaluations in a
//! search find their pawn terms here instead of walking the board again;
//! Stockfish keeps one per search thread for the same reason.
//!
//! An entry is exact for its key (the full 64-bit key is compared), so the
//! cache changes the speed of an evaluation, never its value.

use super::files::PawnFiles;

/// Entries in a table: a power of two (under 64 bytes each: under 0.5 MiB).
const ENTRIES: usize = 1 << 13;

/// The pawn terms of one pawn placement.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PawnEntry {
    /// Weighted middle-game sum of the pawn terms, per side, centipawns.
    pub mg: [i64; 2],
    /// Weighted end-game sum, per side, centipawns.
    pub eg: [i64; 2],
    /// Per side: the files that hold its pawns.
    pub files: [PawnFiles; 2],
}

/// A slot: the key it holds, if any, and the entry.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: Option<u64>,
    entry: PawnEntry,
}

/// A direct-mapped table of [`PawnEntry`] by pawn key, for one search
/// thread (one evaluator and its weights: a table must not be shared
/// between evaluators of different weights).
#[derive(Clone, Debug)]
pub struct PawnTable {
    slots: Vec<Slot>,
    /// Probes answered from the table, and probes in all.
    hits: u64,
    probes: u64,
}

impl Default for PawnTable {
    fn default() -> PawnTable {
        PawnTable::new()
    }
}

impl PawnTable {
    /// An empty table. Its slots are allocated at the first probe: a
    /// search whose weights count no pawn term never probes it.
    pub fn new() -> PawnTable {
        PawnTable {
            slots: Vec::new(),
            hits: 0,
            probes: 0,
        }
    }

    /// The entry of pawn key `key`: from the table, or made by `compute`
    /// and stored (replacing what the slot held).
    #[inline]
    pub fn get_or_insert(&mut self, key: u64, compute: impl FnOnce() -> PawnEntry) -> PawnEntry {
        self.probes += 1;
        if self.slots.is_empty() {
            self.slots = vec![Slot::default(); ENTRIES];
        }
        let slot = &mut self.slots[key as usize & (ENTRIES - 1)];
        if slot.key == Some(key) {
            self.hits += 1;
            return slot.entry;
        }
        let entry = compute();
        *slot = Slot {
            key: Some(key),
            entry,
        };
        entry
    }

    /// Share of probes answered from the table, 0 to 1 (0 before any).
    pub fn hit_rate(&self) -> f64 {
        if self.probes == 0 {
            0.0
        } else {
            self.hits as f64 / self.probes as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_computed_once_and_a_colliding_slot_is_replaced() {
        let mut t = PawnTable::new();
        let a = PawnEntry {
            mg: [1, 2],
            ..PawnEntry::default()
        };
        let b = PawnEntry {
            eg: [3, 4],
            ..PawnEntry::default()
        };
        let mut calls = 0;
        let mut get = |t: &mut PawnTable, key, e| {
            t.get_or_insert(key, || {
                calls += 1;
                e
            })
        };
        assert_eq!(get(&mut t, 7, a), a);
        assert_eq!(
            get(&mut t, 7, b),
            a,
            "a stored key is answered from the table"
        );
        // Same slot, other key: computed, and it takes the slot.
        let other = 7 + ENTRIES as u64;
        assert_eq!(get(&mut t, other, b), b);
        assert_eq!(get(&mut t, 7, b), b, "the replaced key is computed again");
        assert_eq!(calls, 3);
        assert!((t.hit_rate() - 0.25).abs() < 1e-9);
    }

    #[test]
    fn a_table_takes_no_memory_before_its_first_probe() {
        let mut t = PawnTable::new();
        assert!(t.slots.is_empty());
        t.get_or_insert(1, PawnEntry::default);
        assert_eq!(t.slots.len(), ENTRIES);
    }

    #[test]
    fn a_table_stays_under_half_a_mebibyte() {
        assert!(std::mem::size_of::<Slot>() <= 64);
        assert!(ENTRIES * std::mem::size_of::<Slot>() < 1 << 19);
    }

    #[test]
    fn key_zero_is_not_taken_for_an_empty_slot() {
        let mut t = PawnTable::new();
        let e = PawnEntry {
            files: [1, 0],
            ..PawnEntry::default()
        };
        assert_eq!(t.get_or_insert(0, || e), e);
    }
}
