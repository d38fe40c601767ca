//! The static evaluation as the search sees it: one interface, whatever
//! evaluates. The hand-written evaluation ([`crate::eval::Evaluator`]) is
//! its first implementation; a learned one (a network with accumulators
//! updated from each move's board changes) is meant to be the next. The
//! search owns one [`StaticEval::State`] per thread, pushes it after each
//! move it makes and pops it at the take-back, and never asks which
//! evaluation it has.

use crate::eval::Evaluator;
use crate::eval::pawn_table::PawnTable;
use crate::values::PieceValues;
use kamil_rules::BoardChange;
use kamil_rules::Position;

/// A static evaluation for the search.
pub trait StaticEval: Sync {
    /// What one search thread keeps between evaluations: caches, or a
    /// stack of incremental state (one entry per ply of the path).
    type State: Send;

    /// The piece values static exchange, ordering and pruning weigh
    /// material by (the evaluation's own scale, so that both agree).
    fn piece_values(&self) -> &PieceValues;

    /// A fresh per-thread state for a search from `root`.
    fn new_state(&self, root: &Position) -> Self::State;

    /// After a move is made on the search's path: `changes` are its board
    /// writes ([`Position::last_changes`]; empty for a null move), `pos`
    /// the position after it.
    fn push(&self, state: &mut Self::State, pos: &Position, changes: &[BoardChange]);

    /// At the take-back of the move last pushed.
    fn pop(&self, state: &mut Self::State);

    /// The score of `pos` in centipawns from the side to move's view,
    /// within ±[`crate::score::MAX_EVAL`]; game ends are the search's.
    /// `state` is the one pushed along the path to `pos`.
    fn evaluate(&self, pos: &Position, state: &mut Self::State) -> i32;
}

/// The hand-written evaluation: its state is the thread's pawn table,
/// which needs nothing at make or take-back.
impl StaticEval for Evaluator {
    type State = PawnTable;

    #[inline]
    fn piece_values(&self) -> &PieceValues {
        self.values()
    }

    fn new_state(&self, _root: &Position) -> PawnTable {
        PawnTable::new()
    }

    #[inline(always)]
    fn push(&self, _state: &mut PawnTable, _pos: &Position, _changes: &[BoardChange]) {}

    #[inline(always)]
    fn pop(&self, _state: &mut PawnTable) {}

    #[inline]
    fn evaluate(&self, pos: &Position, state: &mut PawnTable) -> i32 {
        self.evaluate_cached(pos, state)
    }
}
