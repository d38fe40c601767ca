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

impl MoveKind {
    /// Every kind, in the order of [`MoveKind::code`].
    pub const ALL: [MoveKind; 9] = [
        MoveKind::Normal,
        MoveKind::Castle,
        MoveKind::EnPassant,
        MoveKind::Opening,
        MoveKind::Checker,
        MoveKind::Swap,
        MoveKind::Relocate,
        MoveKind::Transfer,
        MoveKind::CitadelSwap,
    ];

    /// A small number for the kind (0 to 8), for packing a move in a few
    /// bits (the search's table); [`MoveKind::from_code`] reads it back.
    /// Exhaustive: a new kind does not compile until it has a code.
    #[inline]
    pub const fn code(self) -> u8 {
        match self {
            MoveKind::Normal => 0,
            MoveKind::Castle => 1,
            MoveKind::EnPassant => 2,
            MoveKind::Opening => 3,
            MoveKind::Checker => 4,
            MoveKind::Swap => 5,
            MoveKind::Relocate => 6,
            MoveKind::Transfer => 7,
            MoveKind::CitadelSwap => 8,
        }
    }

    /// The kind of [`MoveKind::code`] `c`; `None` for a number that is no
    /// kind's code.
    #[inline]
    pub fn from_code(c: u8) -> Option<MoveKind> {
        MoveKind::ALL.get(usize::from(c)).copied()
    }

    /// The kind's name in kamil's JSON and Python views: `normal`,
    /// `castle`, `en-passant`, `opening`, `checker`, `swap`, `relocate`,
    /// `transfer`, `citadel-swap`.
    pub const fn name(self) -> &'static str {
        match self {
            MoveKind::Normal => "normal",
            MoveKind::Castle => "castle",
            MoveKind::EnPassant => "en-passant",
            MoveKind::Opening => "opening",
            MoveKind::Checker => "checker",
            MoveKind::Swap => "swap",
            MoveKind::Relocate => "relocate",
            MoveKind::Transfer => "transfer",
            MoveKind::CitadelSwap => "citadel-swap",
        }
    }
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

#[cfg(test)]
mod tests {
    use super::MoveKind;

    #[test]
    fn every_kind_reads_back_from_its_code_and_has_its_own_name() {
        for (i, &k) in MoveKind::ALL.iter().enumerate() {
            assert_eq!(usize::from(k.code()), i);
            assert_eq!(MoveKind::from_code(k.code()), Some(k));
        }
        assert_eq!(MoveKind::from_code(MoveKind::ALL.len() as u8), None);
        let mut names: Vec<&str> = MoveKind::ALL.iter().map(|k| k.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), MoveKind::ALL.len());
    }
}
