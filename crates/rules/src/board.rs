//! What a special-rule family sees of a position: the board and its state,
//! and the few services of the layers above it that a rule needs (attack
//! tests, a piece's moves, trial makes).
//!
//! The families sit below [`crate::position`] and [`crate::movegen`] (which
//! call them through [`crate::special::Specials`]), so they reach a position
//! through this trait rather than by naming those modules: the rules crate
//! imports downward only. [`crate::position::Position`] is the one
//! implementation; every family function is generic over it, so the calls
//! are resolved at compile time and cost what direct calls cost.

use crate::geometry::Square;
use crate::moves::Move;
use crate::piece::{Piece, Side};
use crate::variant::core::Core;

/// En-passant state: squares a pawn just passed over and the pawn itself.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct EnPassant {
    /// Passed squares (first `count` valid).
    pub squares: [Square; 2],
    /// How many squares were passed.
    pub count: u8,
    /// Where the pawn that passed them stands.
    pub victim: Square,
}

/// A move of the history as [`Board::recent_move`] gives it: the move, the
/// piece that made it (before any promotion), the pieces it captured with
/// their squares.
pub type RecentMove<'a> = (Move, Piece, &'a [(Square, Piece)]);

/// The bit of `side` in [`Board::swap_rights`] (Tamerlane's King swap,
/// rules/tamerlane.md 5.4).
#[inline(always)]
pub const fn swap_right(side: Side) -> u8 {
    1 << side as u8
}

/// What `Board::unmake_null` restores.
#[derive(Clone, Copy, Debug)]
pub struct NullUndo {
    pub(crate) ep: Option<EnPassant>,
    pub(crate) hash: u64,
    pub(crate) frozen: Square,
}

/// A position as the special-rule families see it (see the module comment).
/// Squares are padded mailbox cells ([`Square`]); `side` arguments name a
/// player.
pub trait Board {
    /// The variant's generic rules.
    fn core(&self) -> &Core;
    /// The piece on a cell (`Piece::WALL` off the board).
    fn at(&self, sq: Square) -> Piece;
    /// The side to move.
    fn side(&self) -> Side;
    /// Squares of `side`'s pieces, in no particular order.
    fn pieces(&self, side: Side) -> &[Square];
    /// Squares of `side`'s royal pieces.
    fn royals(&self, side: Side) -> &[Square];
    /// Number of `side`'s pieces that are not royal.
    fn non_royal_count(&self, side: Side) -> usize;
    /// The en-passant state, if the last move was a pawn's multi-square step.
    fn en_passant(&self) -> Option<EnPassant>;
    /// Unused King-swap rights (rules/tamerlane.md 5.4): bit
    /// `crate::special::king_swap::right(side)` per side.
    fn swap_rights(&self) -> u8;
    /// The last move made, if any.
    fn last_move(&self) -> Option<Move>;
    /// The move made `back` plies before the last one (0 = the last), with
    /// its piece and captures; `None` past the start of the history.
    fn recent_move(&self, back: usize) -> Option<RecentMove<'_>>;
    /// Could a piece of `by` capture on `target` by its movement (the
    /// variant's sense of attack, every family included)?
    fn is_attacked(&self, target: Square, by: Side) -> bool;
    /// Is any royal of `side` attacked?
    fn in_check(&self, side: Side) -> bool;
    /// Appends the pseudo-legal moves of the piece `p` on `sq`.
    fn piece_moves(&self, sq: Square, p: Piece, out: &mut Vec<Move>);
    /// Appends the pseudo-legal moves of the side to move but those of the
    /// families that generate whole move series themselves (the Checker).
    fn pseudo_plain(&self, out: &mut Vec<Move>);
    /// After a move: is the mover's only royal attacked where the variant
    /// forbids that (the check rule alone)?
    fn royal_exposed(&self) -> bool;
    /// After a move: is it illegal for any reason (royal safety or a
    /// family's ban)?
    fn mover_exposed(&mut self) -> bool;
    /// Plays a move the generator produced here.
    fn make(&mut self, m: Move);
    /// Takes back the last move.
    fn unmake(&mut self);
    /// Passes the turn (no move of any game); see [`Board::unmake_null`].
    fn make_null(&mut self) -> NullUndo;
    /// Takes back [`Board::make_null`].
    fn unmake_null(&mut self, u: NullUndo);
}
