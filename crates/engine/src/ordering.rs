//! Move ordering: hash move, captures that do not lose material by
//! MVV-LVA, promotions, killer moves, quiet moves by the history of those
//! that caused cutoffs, and last the captures that lose material by static
//! exchange ([`crate::see`]).

use crate::material::{captured_value, promotion_gain};
use crate::see::{SeeScratch, see_ge};
use crate::values::PieceValues;
use kamil_rules::{Move, MoveKind, Position};

/// Deepest ply the search tables reach.
pub const MAX_PLY: usize = 128;

const HASH_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const PROMOTION: i32 = 1 << 27;
const KILLER: i32 = 1 << 26;
const HISTORY_MAX: i32 = 1 << 20;
/// Captures that lose material by static exchange: after every quiet move
/// (history scores stay within ±[`HISTORY_MAX`]).
const BAD_CAPTURE: i32 = -(1 << 29);

/// Half the width of the bands of good and losing captures' sort keys
/// around [`GOOD_CAPTURE`] and [`BAD_CAPTURE`]: wider than any MVV-LVA
/// term (piece values are at most 100,000 centipawns), clear of the other
/// keys.
const CAPTURE_BAND: i32 = 1 << 25;

/// What the sort key `key` from `Ordering::score` already says of its
/// move's static exchange: `Some(true)` for a capture that loses material
/// (its SEE was below 0), `Some(false)` for a capture that does not (it
/// takes at least its mover's worth, or its SEE was 0 or more), `None` when
/// the key does not say (hash move, promotions, quiet moves), so that the
/// search asks [`see_ge`] only once a capture.
#[inline]
pub fn exchange_known(key: i32) -> Option<bool> {
    if (key - GOOD_CAPTURE).abs() < CAPTURE_BAND {
        Some(false)
    } else if (key - BAD_CAPTURE).abs() < CAPTURE_BAND {
        Some(true)
    } else {
        None
    }
}

/// A sort key from [`Ordering::key`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// The key.
    Sure(i32),
    /// A capture's key if it does not lose material; [`resolve`] says.
    Unsure(i32),
}

/// The true key of `m`, whose key was [`Key::Unsure`]`(key)`: `key`, or
/// the losing captures' key if `m` loses material by static exchange.
#[inline]
pub fn resolve(
    pos: &Position,
    values: &PieceValues,
    m: Move,
    key: i32,
    scratch: &mut SeeScratch,
) -> i32 {
    if !see_ge(pos, values, m, 0, scratch) {
        key - GOOD_CAPTURE + BAD_CAPTURE
    } else {
        key
    }
}

/// Killer moves per ply and the history of quiet moves.
#[derive(Clone, Debug)]
pub struct Ordering {
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    squares: usize,
}

impl Ordering {
    /// Empty tables for a board of `squares` compact squares and `codes`
    /// piece codes.
    pub fn new(squares: usize, codes: usize) -> Ordering {
        Ordering {
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; squares * codes.max(2)],
            squares,
        }
    }

    /// Forgets killers and ages the history (between searches).
    pub fn age(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h /= 4);
    }

    #[inline]
    fn history_index(&self, pos: &Position, m: Move) -> usize {
        let g = &pos.variant().geometry;
        pos.at(m.from).0 as usize * self.squares + g.compact(m.to)
    }

    /// Sort key of `m` at `ply`, leaving open whether a capture that may
    /// lose material does ([`Key::Unsure`]: its key is the good capture's,
    /// and [`resolve`] gives the true one). Searching the moves in the
    /// order of the true keys, resolving an unsure key only when its move
    /// is next, gives the order of the true keys with fewer static
    /// exchanges.
    #[inline(always)]
    pub fn key(
        &self,
        pos: &Position,
        values: &PieceValues,
        m: Move,
        hash: Option<Move>,
        ply: usize,
    ) -> Key {
        if Some(m) == hash {
            return Key::Sure(HASH_MOVE);
        }
        let cap = captured_value(pos, values, m);
        let gain = promotion_gain(pos, values, m);
        if cap > 0 || m.kind == MoveKind::EnPassant {
            let attacker = values.value(pos.at(m.from).kind());
            let mvv_lva = (cap + gain) * 16 - attacker / 16;
            // Taking at least the attacker's worth cannot lose: no exchange.
            if attacker > cap + gain {
                return Key::Unsure(GOOD_CAPTURE + mvv_lva);
            }
            return Key::Sure(GOOD_CAPTURE + mvv_lva);
        }
        Key::Sure(self.quiet_key(pos, m, gain, ply))
    }

    /// Sort key of a move that captures nothing, with promotion gain `gain`.
    #[inline]
    fn quiet_key(&self, pos: &Position, m: Move, gain: i32, ply: usize) -> i32 {
        if gain > 0 {
            return PROMOTION + gain;
        }
        let k = &self.killers[ply.min(MAX_PLY)];
        if k[0] == Some(m) {
            return KILLER + 1;
        }
        if k[1] == Some(m) {
            return KILLER;
        }
        self.history[self.history_index(pos, m)]
    }

    /// After a quiet move `best` caused a cutoff at `ply` with `depth` left:
    /// makes it a killer, rewards it and penalises the quiets tried before it.
    pub fn cutoff(&mut self, pos: &Position, best: Move, tried: &[Move], depth: i32, ply: usize) {
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if k[0] != Some(best) {
            k[1] = k[0];
            k[0] = Some(best);
        }
        let bonus = (depth * depth).min(400);
        let i = self.history_index(pos, best);
        self.bump(i, bonus);
        for &m in tried {
            if m != best {
                let j = self.history_index(pos, m);
                self.bump(j, -bonus);
            }
        }
    }

    #[inline]
    fn bump(&mut self, i: usize, bonus: i32) {
        let h = &mut self.history[i];
        // Gravity: entries saturate instead of overflowing.
        *h += bonus * 32 - *h * bonus.abs() / 512;
        *h = (*h).clamp(-HISTORY_MAX, HISTORY_MAX);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::PieceValues;
    use kamil_rules::Variant;
    use std::sync::Arc;

    /// The key of the move `text` in the Courier position `fen`, resolved.
    fn courier_key(fen: &str, text: &str) -> (Key, i32) {
        let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
        let pos = Position::from_fen(v.clone(), fen).unwrap();
        let g = &v.geometry;
        let m = Move::new(
            g.parse_square(&text[..2]).unwrap(),
            g.parse_square(&text[2..]).unwrap(),
        );
        let ev = PieceValues::new(&v.clone());
        let ord = Ordering::new(g.compact_len(), 64);
        let key = ord.key(&pos, &ev, m, None, 0);
        let resolved = match key {
            Key::Sure(k) => k,
            Key::Unsure(k) => resolve(&pos, &ev, m, k, &mut SeeScratch::default()),
        };
        (key, resolved)
    }

    #[test]
    fn a_capture_that_may_lose_is_unsure_until_resolved() {
        // Rook takes a Pawn defended by a Pawn: unsure, then losing.
        let (key, k) = courier_key("11k/3p8/4p7/12/12/4R7/12/K11 w - - 0 1", "e3e6");
        assert!(matches!(key, Key::Unsure(u) if exchange_known(u) == Some(false)));
        assert_eq!(exchange_known(k), Some(true));
        // The same Pawn undefended: unsure, then good, with the same key.
        let (key, k) = courier_key("11k/12/4p7/12/12/4R7/12/K11 w - - 0 1", "e3e6");
        assert_eq!(key, Key::Unsure(k));
        assert_eq!(exchange_known(k), Some(false));
        // Pawn takes Rook: sure at once.
        let (key, k) = courier_key("11k/12/4r7/3P8/12/12/12/K11 w - - 0 1", "d5e6");
        assert_eq!(key, Key::Sure(k));
        assert_eq!(exchange_known(k), Some(false));
        // A quiet move's key says nothing of exchanges.
        let (_, k) = courier_key("11k/12/4r7/3P8/12/12/12/K11 w - - 0 1", "a1b1");
        assert_eq!(exchange_known(k), None);
    }
}
