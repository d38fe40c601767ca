//! Move ordering: hash move, captures that do not lose material by
//! MVV-LVA, promotions, killer moves, quiet moves by the history of those
//! that caused cutoffs, and last the captures that lose material by static
//! exchange ([`crate::see`]).

use crate::eval::Evaluator;
use crate::material::{captured_value, promotion_gain};
use crate::see::{SeeScratch, see};
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

    /// Sort key of `m` at `ply`: larger is searched first. `scratch`:
    /// buffers for the static exchange of captures that may lose.
    #[inline]
    pub fn score(
        &self,
        pos: &Position,
        eval: &Evaluator,
        m: Move,
        hash: Option<Move>,
        ply: usize,
        scratch: &mut SeeScratch,
    ) -> i32 {
        if Some(m) == hash {
            return HASH_MOVE;
        }
        let cap = captured_value(pos, eval, m);
        let gain = promotion_gain(pos, eval, m);
        if cap > 0 || m.kind == MoveKind::EnPassant {
            let attacker = eval.value(pos.at(m.from).kind());
            let mvv_lva = (cap + gain) * 16 - attacker / 16;
            // Taking at least the attacker's worth cannot lose: no exchange.
            if attacker > cap + gain && see(pos, eval, m, scratch) < 0 {
                return BAD_CAPTURE + mvv_lva;
            }
            return GOOD_CAPTURE + mvv_lva;
        }
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
