//! Tamerlane's King swap (rules/tamerlane.md 5.4; seeds 000 and 003).
//!
//! Once per game a player may, as a whole move, exchange the King with any
//! other friendly piece on the main board (not a parked pawn of pawns, not a
//! piece in a citadel), at any distance ([`MoveKind::Swap`], written King's
//! square then partner's square). A swap may not put a pawn on its own last
//! rank. The right is part of the position (FEN field, hash, undo).
//!
//! When swaps exist depends on the trigger: while the King is attacked
//! ([`pseudo`], with the other pseudo-legal moves), and when the player has
//! no other legal move ([`fallback`], reached through
//! `Specials::fallback_moves`, which legal generation and the search call
//! only then).

use crate::board::Board;
use crate::geometry::Square;
use crate::moves::{Move, MoveKind};
use crate::piece::{PieceType, Side};
use crate::special::citadel::Citadels;

/// When swap moves exist (5.4).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Trigger {
    /// While the King is attacked, or when there is no other legal move
    /// (default; Wikipedia).
    CheckOrStalemate,
    /// Only when there is no other legal move, i.e. mated or stalemated
    /// (`swap=mated-only`, seed 000).
    MatedOnly,
    /// Only while the King is attacked (`swap=check-only`, seed 003, Ludii).
    CheckOnly,
}

/// The compiled `[special.king_swap]` table.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct KingSwap {
    /// The King's type.
    pub king: PieceType,
    /// Bit per type that may not be the partner (parked pawns of pawns).
    pub not_with: u128,
    /// When swaps exist.
    pub trigger: Trigger,
}

/// The bit of `side` in `Position::swap_rights`.
#[inline(always)]
pub const fn right(side: Side) -> u8 {
    crate::board::swap_right(side)
}

/// The squares of `side`'s Kings on the main board. A FEN may set up more
/// than one: each may then swap, so that the moves depend on the board
/// alone and not on the order of the piece lists (which make and unmake
/// change).
fn kings<'a, B: Board>(
    ks: &'a KingSwap,
    cit: Option<&'a Citadels>,
    pos: &'a B,
    side: Side,
) -> impl Iterator<Item = Square> + 'a {
    pos.pieces(side)
        .iter()
        .copied()
        .filter(move |&s| pos.at(s).kind() == ks.king)
        .filter(move |&s| cit.is_none_or(|c| !c.is_citadel(s)))
}

/// Appends the swaps of the side to move for each of its Kings that is
/// attacked, if the trigger offers swaps in check (5.4). They are
/// pseudo-legal: the mover's royal safety is judged after make, as for
/// every move.
pub fn pseudo<B: Board>(ks: &KingSwap, cit: Option<&Citadels>, pos: &B, out: &mut Vec<Move>) {
    if ks.trigger == Trigger::MatedOnly {
        return;
    }
    let side = pos.side();
    if pos.swap_rights() & right(side) == 0 {
        return;
    }
    for k in kings(ks, cit, pos, side) {
        if pos.is_attacked(k, side.flip()) {
            swaps(ks, cit, pos, k, out);
        }
    }
}

/// Appends the swaps the side to move has when it has no other legal move
/// (5.4: under `check-or-stalemate` those of the Kings not attacked, since
/// [`pseudo`] already offered the others; under `mated-only` all).
pub fn fallback<B: Board>(ks: &KingSwap, cit: Option<&Citadels>, pos: &B, out: &mut Vec<Move>) {
    let side = pos.side();
    if ks.trigger == Trigger::CheckOnly || pos.swap_rights() & right(side) == 0 {
        return;
    }
    for k in kings(ks, cit, pos, side) {
        if ks.trigger == Trigger::CheckOrStalemate && pos.is_attacked(k, side.flip()) {
            continue;
        }
        swaps(ks, cit, pos, k, out);
    }
}

fn swaps<B: Board>(ks: &KingSwap, cit: Option<&Citadels>, pos: &B, k: Square, out: &mut Vec<Move>) {
    let v = pos.core();
    let g = &v.geometry;
    let side = pos.side();
    // The partner lands on the King's square: a pawn may not land on its last rank.
    let last = if side == Side::First {
        g.ranks() - 1
    } else {
        0
    };
    let on_last = g.rank(k) == last;
    for &sq in pos.pieces(side) {
        let q = pos.at(sq);
        if sq == k
            || ks.not_with & (1u128 << q.kind()) != 0
            || (on_last && v.pieces[q.kind() as usize].pawn)
            || cit.is_some_and(|c| c.is_citadel(sq))
        {
            continue;
        }
        let mut m = Move::new(k, sq);
        m.kind = MoveKind::Swap;
        out.push(m);
    }
}

use crate::variant::context::Context;
use crate::variant::error::VariantError;
use crate::variant::schema::{KingSwapSpec, SwapTrigger};
use crate::variant::tables::FenField;

impl KingSwap {
    /// Compiles `[special.king_swap]` (rules/tamerlane.md 5.4).
    ///
    /// Errors: a key that names no piece; FEN conventions without a `swap`
    /// field for the swap rights.
    pub fn compile(spec: &KingSwapSpec, ctx: &Context) -> Result<KingSwap, VariantError> {
        let swap = KingSwap {
            king: ctx.piece("special.king_swap.king", &spec.king)?,
            not_with: ctx.type_mask("special.king_swap.not_with", &spec.not_with)?,
            trigger: match spec.trigger {
                SwapTrigger::CheckOrStalemate => Trigger::CheckOrStalemate,
                SwapTrigger::MatedOnly => Trigger::MatedOnly,
                SwapTrigger::CheckOnly => Trigger::CheckOnly,
            },
        };
        if !ctx.fen.fields.contains(&FenField::Swap) {
            return Err(ctx.err(
                "fen.fields",
                "the King swap needs a `swap` field for its rights",
            ));
        }
        Ok(swap)
    }
}
