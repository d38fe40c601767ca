//! Promotion to a piece of the opponent (rules/frolov-10x10.md 5.2-5.3,
//! 6 B10): a Pawn may promote to the opponent's Gold general, a Berolina
//! to the opponent's Silver general.
//!
//! - Freeze (default on): the opponent may not move the new piece on his
//!   very next turn, and while frozen it attacks nothing (so the promotion
//!   is legal even next to the promoting side's King). The frozen square is
//!   part of the position: FEN field `frozen`, hash, `Position::frozen`.
//! - Drop (default off, `fr.drop`): the promoting player may put the piece
//!   on any empty square instead of the promotion square; each square is a
//!   separate move, the square in [`Move::aux`] (written `@sq`).
//!
//! Hook points: [`expand_drops`] after the pseudo-legal moves of one piece
//! are generated; [`placed_square`] in make and unmake; the frozen square
//! in move generation (a frozen piece has no moves) and attack detection
//! (it attacks nothing).

use crate::board::Board;
use crate::geometry::Square;
use crate::moves::Move;
use crate::piece::PieceType;

/// The compiled `[special.hostile_promotion]` table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostilePromotion {
    /// Bit per type that a promotion gives to the opponent.
    pub hostile: u128,
    /// The opponent may not move the new piece on his next turn (5.3).
    pub freeze: bool,
    /// The promoting player puts the new piece on any empty square (5.3).
    pub drop: bool,
}

impl HostilePromotion {
    /// Does a promotion to `t` give the piece to the opponent?
    #[inline(always)]
    pub fn is_hostile(&self, t: PieceType) -> bool {
        self.hostile & (1u128 << t) != 0
    }
}

/// Where the piece a promotion creates stands after `mv`: the drop square
/// if the move has one, else the promotion square.
#[inline]
pub fn placed_square(hp: &HostilePromotion, mv: Move) -> Square {
    match mv.promotion() {
        Some(t) if hp.is_hostile(t) && mv.aux.is_some() => mv.aux,
        _ => mv.to,
    }
}

/// With the drop rule: adds, for every promotion to a hostile piece among
/// `out[start..]`, one move per other square that is empty after the move
/// (the origin included), the square in `aux`.
pub fn expand_drops<B: Board>(pos: &B, hp: &HostilePromotion, start: usize, out: &mut Vec<Move>) {
    if !hp.drop {
        return;
    }
    let end = out.len();
    let geo = &pos.core().geometry;
    for i in start..end {
        let m = out[i];
        if !m.promotion().is_some_and(|t| hp.is_hostile(t)) {
            continue;
        }
        for s in geo.squares() {
            if s != m.to && (s == m.from || pos.at(s).is_empty()) {
                let mut n = m;
                n.aux = s;
                out.push(n);
            }
        }
    }
}

use crate::variant::context::Context;
use crate::variant::error::VariantError;
use crate::variant::schema::HostilePromotionSpec;

impl HostilePromotion {
    /// Compiles `[special.hostile_promotion]` (rules/frolov-10x10.md 5.3).
    ///
    /// Errors: a key in `pieces` that names no piece.
    pub fn compile(
        spec: &HostilePromotionSpec,
        ctx: &Context,
    ) -> Result<HostilePromotion, VariantError> {
        Ok(HostilePromotion {
            hostile: ctx.type_mask("special.hostile_promotion.pieces", &spec.pieces)?,
            freeze: spec.freeze,
            drop: spec.drop,
        })
    }
}
