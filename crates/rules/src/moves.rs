//! The move value: small, `Copy`, enough for every game's move kinds.

use crate::geometry::Square;
use crate::piece::PieceType;

/// What kind of move this is, beyond from/to.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum MoveKind {
    /// A move along Betza paths: step, leap, slide, hop, multi-leg.
    Normal,
    /// Castling: the King's move; `extra` = the Rook's square.
    Castle,
    /// A pawn capture onto an en-passant square; `extra` = the victim's square.
    EnPassant,
    /// Courier's compulsory opening: every prescribed advance as one turn.
    Opening,
    /// A Checker's series of jumps (rules/ordinary-variant.md 5.1): `via`
    /// and `extra` hold the legs, see [`crate::special::checker`].
    Checker,
    /// Tamerlane's King swap (rules/tamerlane.md 5.4): the King on `from`
    /// and the friendly piece on `to` trade places.
    Swap,
    /// Relocation of a parked pawn of pawns (rules/tamerlane.md 5.2): the
    /// pawn on `from` is put on `to`, removing any piece there, and becomes
    /// the `promo` stage.
    Relocate,
    /// Transfer of the pawn of pawns to the pawn-of-kings square
    /// (rules/tamerlane.md 5.2): the pawn leaves `from` (for `to`, capturing
    /// there, when it arrives on the last rank) and is placed on `extra` as
    /// the `promo` stage.
    Transfer,
    /// Entry into the opponent's citadel with a swap (rules/tamerlane.md
    /// 5.5, `citadel=draw-unless-swap`): the King steps from `from` into
    /// the citadel `to`, then trades places with the piece on `extra`.
    CitadelSwap,
}

/// A move. `via` is the first stop of a multi-leg move (a Lion's first
/// step) or [`Square::NONE`]; `promo` is the type after promotion plus one
/// (0 = none).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Move {
    /// Origin.
    pub from: Square,
    /// Final square (the origin again for igui and passes).
    pub to: Square,
    /// First stop of a two-leg move, or `NONE`.
    pub via: Square,
    /// Promotion target type + 1, or 0.
    pub promo: u8,
    /// The kind.
    pub kind: MoveKind,
    /// `via` held an enemy piece that this move captures.
    pub via_capture: bool,
    /// Castle: Rook square; en passant: victim square; transfer: where
    /// the pawn ends; citadel swap: the partner's square.
    pub extra: Square,
    /// A second square the move acts on, or `NONE`: the piece upgraded by
    /// a bonus upgrade (rules/frolov-10x10.md 5.5, written `/sq`), or where
    /// a hostile general is dropped (5.3 `fr.drop`, written `@sq`).
    pub aux: Square,
    /// An en-passant capture whose piece may also step to `to` without
    /// capturing (Frolov's Sergeant, rules/frolov-10x10.md 5.1): its text
    /// ends in `ep` so that the two moves read differently.
    pub ep_mark: bool,
}

impl Move {
    /// A plain move from `from` to `to`.
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            via: Square::NONE,
            promo: 0,
            kind: MoveKind::Normal,
            via_capture: false,
            extra: Square::NONE,
            aux: Square::NONE,
            ep_mark: false,
        }
    }

    /// The promotion target, if any.
    pub fn promotion(&self) -> Option<PieceType> {
        (self.promo != 0).then(|| self.promo - 1)
    }
}
