//! Capture promotion of the capturing piece (rules/frolov-10x10.md 5.4-5.6,
//! 6 B7-B9): pieces are *special* (the variant lists them), *royal*, or
//! *ordinary* (every other piece).
//!
//! - 5.4: an ordinary piece that captures a special one becomes its
//!   compound at once (Rook or Bishop -> Queen, Pawn -> Sergeant...). A
//!   capturer that also promotes on the last rank chooses from its
//!   compound's promotion list instead of its own (B7; option
//!   `last_rank = "promotion-first"`: its own list, no compound).
//! - 5.5: when a royal or special piece captures a special one, the
//!   capturing player may upgrade one of his ordinary pieces anywhere to its
//!   compound; each choice (and "no upgrade", unless the bonus is
//!   compulsory) is a separate move, the upgraded square in [`Move::aux`].
//!   If he then has no ordinary piece at all, the move wins the game (the
//!   only-special win) and carries no upgrade choice.
//!
//! Hook points: [`expand`] after the pseudo-legal moves of one piece are
//! generated (upgrade choices, compound promotion lists), [`changes`] in
//! make (which pieces change type), and [`ended`] in
//! [`crate::outcome::ended_by_rule`].

use crate::board::Board;
use crate::geometry::Square;
use crate::moves::{Move, MoveKind};
use crate::outcome::kinds::{Outcome, Reason};
use crate::piece::{Piece, PieceType, Side};

/// The compiled `[special.capture_promotion]` table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CapturePromotion {
    /// Bit per special type (5.4, the pieces marked in section 3).
    pub special: u128,
    /// Bit per ordinary type: neither special nor royal.
    pub ordinary: u128,
    /// Per type: its compound (5.4 table), if it has one.
    pub compound: Vec<Option<PieceType>>,
    /// The 5.5 upgrade must be taken when possible (B8 `fr.bonus-compulsory`).
    pub bonus_compulsory: bool,
    /// A capturer promoting on the last rank uses its own promotion list and
    /// does not become its compound (B7 `fr.lastrank-first`).
    pub promotion_first: bool,
    /// A player whose non-royal pieces are all special, at least one, wins
    /// at any time, not only by a 5.5 capture (B9 `fr.only-special-anytime`).
    pub only_special_anytime: bool,
}

impl CapturePromotion {
    /// Is `p` a special piece (5.4)?
    #[inline(always)]
    pub fn is_special(&self, p: Piece) -> bool {
        p.is_piece() && self.special & (1u128 << p.kind()) != 0
    }

    /// Is `p` an ordinary piece: neither special nor royal (5.4)?
    #[inline(always)]
    pub fn is_ordinary(&self, p: Piece) -> bool {
        p.is_piece() && self.ordinary & (1u128 << p.kind()) != 0
    }

    /// The compound of `p`'s type, as a piece of the same side.
    fn compound_of(&self, p: Piece) -> Option<Piece> {
        self.compound[p.kind() as usize].map(|c| Piece::new(c, p.side()))
    }
}

/// The piece `m` captures, before it is made (en passant included), or
/// `EMPTY`.
#[inline(always)]
fn victim<B: Board>(pos: &B, m: &Move) -> Piece {
    let sq = if m.kind == MoveKind::EnPassant {
        m.extra
    } else if m.to != m.from {
        m.to
    } else {
        return Piece::EMPTY;
    };
    let p = pos.at(sq);
    if p.is_side(pos.side().flip()) {
        p
    } else {
        Piece::EMPTY
    }
}

/// Rewrites the pseudo-legal moves `out[start..]` of one piece of the side
/// to move (5.4-5.5): a promotion that captures a special piece with an
/// ordinary piece chooses from the compound's list; a capture of a special
/// piece by a royal or special piece gets one move per ordinary piece to
/// upgrade (plus the plain move, unless the bonus is compulsory), or stays
/// one move when there is no ordinary piece (it wins). Order is kept; moves
/// are added at the end. No allocation beyond the list's growth.
pub fn expand<B: Board>(pos: &B, cp: &CapturePromotion, start: usize, out: &mut Vec<Move>) {
    let end = out.len();
    let side = pos.side();
    let v = pos.core();
    let mut removed = false;
    for i in start..end {
        let m = out[i];
        let taken = victim(pos, &m);
        if !cp.is_special(taken) {
            continue;
        }
        let mover = pos.at(m.from);
        if cp.is_ordinary(mover) {
            // 5.6 step 3 (B7): the capturer is its compound by now and
            // promotes from the compound's list.
            if m.promo == 0 || cp.promotion_first {
                continue;
            }
            let Some(c) = cp.compound[mover.kind() as usize] else {
                continue;
            };
            let own = &v.pieces[mover.kind() as usize].promotes_to;
            let list = &v.pieces[c as usize].promotes_to;
            if list.is_empty() {
                continue;
            }
            out[i].from = Square::NONE;
            removed = true;
            // Replace the whole own list once, at its first entry.
            if own.first().is_some_and(|&t| m.promo == t + 1) {
                for &t in list {
                    let mut n = m;
                    n.promo = t + 1;
                    out.push(n);
                }
            }
            continue;
        }
        // 5.5: a royal or special capturer; one move per upgrade choice.
        let mut any = false;
        for &s in pos.pieces(side) {
            if cp.is_ordinary(pos.at(s)) {
                let mut n = m;
                n.aux = s;
                out.push(n);
                any = true;
            }
        }
        if any && cp.bonus_compulsory {
            out[i].from = Square::NONE;
            removed = true;
        }
    }
    if removed {
        let mut k = start;
        for i in start..out.len() {
            if out[i].from.is_some() {
                out[k] = out[i];
                k += 1;
            }
        }
        out.truncate(k);
    }
}

/// In make, after the move's captures and promotion (5.6 steps 2-3): the
/// pieces that change type, as (square, new piece). `moved` is the piece
/// that moved, before any promotion; `taken` what the move captured.
pub fn changes<B: Board>(
    cp: &CapturePromotion,
    pos: &B,
    mv: Move,
    moved: Piece,
    taken: &[(Square, Piece)],
) -> Option<(Square, Piece)> {
    if !taken.iter().any(|&(_, p)| cp.is_special(p)) {
        return None;
    }
    if cp.is_ordinary(moved) {
        // 5.4; a promoting capturer already chose from the compound's list.
        if mv.promotion().is_some() {
            return None;
        }
        return cp.compound_of(moved).map(|c| (mv.to, c));
    }
    if mv.aux.is_some() {
        let p = pos.at(mv.aux);
        if cp.is_ordinary(p) && p.side() == moved.side() {
            return cp.compound_of(p).map(|c| (mv.aux, c));
        }
    }
    None
}

/// Before `m` is made: the piece that it will change into its compound by
/// 5.4 or 5.5, as (the piece now, its compound), if any. For move ordering
/// and evaluation; make itself uses [`changes`].
pub fn upgrade_by<B: Board>(cp: &CapturePromotion, pos: &B, m: Move) -> Option<(Piece, Piece)> {
    if !cp.is_special(victim(pos, &m)) {
        return None;
    }
    let mover = pos.at(m.from);
    let p = if cp.is_ordinary(mover) {
        if m.promotion().is_some() {
            return None;
        }
        mover
    } else if m.aux.is_some() {
        pos.at(m.aux)
    } else {
        return None;
    };
    cp.compound_of(p).map(|c| (p, c))
}

/// Does `side` have an ordinary piece?
fn has_ordinary<B: Board>(cp: &CapturePromotion, pos: &B, side: Side) -> bool {
    pos.pieces(side).iter().any(|&s| cp.is_ordinary(pos.at(s)))
}

/// Has `side` only special pieces besides its royals, at least one (B9)?
fn only_special<B: Board>(cp: &CapturePromotion, pos: &B, side: Side) -> bool {
    pos.non_royal_count(side) > 0 && !has_ordinary(cp, pos, side)
}

/// The only-special win (5.5, B9): the last move captured a special piece
/// with a royal or special piece, took no upgrade, and left its player
/// without ordinary pieces; with `only_special_anytime`, a player with only
/// special pieces (the one who just moved first) wins.
pub fn ended<B: Board>(cp: &CapturePromotion, pos: &B) -> Option<Outcome> {
    let win = |winner: Side| Outcome::Win {
        winner,
        reason: Reason::OnlySpecial,
    };
    if cp.only_special_anytime {
        let mover = pos.side().flip();
        for s in [mover, mover.flip()] {
            if only_special(cp, pos, s) {
                return Some(win(s));
            }
        }
    }
    let (mv, moved, taken) = pos.recent_move(0)?;
    if mv.aux.is_some() || !moved.is_piece() || cp.is_ordinary(moved) {
        return None;
    }
    if !taken.iter().any(|&(_, p)| cp.is_special(p)) {
        return None;
    }
    let mover = moved.side();
    (!has_ordinary(cp, pos, mover)).then(|| win(mover))
}

use crate::variant::context::Context;
use crate::variant::error::VariantError;
use crate::variant::schema::{CaptureBonus, CapturePromotionSpec, LastRank, OnlySpecial};

impl CapturePromotion {
    /// Compiles `[special.capture_promotion]` (rules/frolov-10x10.md
    /// 5.4-5.5, B7-B9): every non-royal piece not listed as special is
    /// ordinary.
    ///
    /// Errors: a key that names no piece, a royal piece listed as special.
    pub fn compile(
        spec: &CapturePromotionSpec,
        ctx: &Context,
    ) -> Result<CapturePromotion, VariantError> {
        let key = "special.capture_promotion";
        let special = ctx.type_mask(&format!("{key}.special"), &spec.special)?;
        let royal = ctx.types_where(|p| p.royal);
        if special & royal != 0 {
            return Err(ctx.err(&format!("{key}.special"), "a royal piece cannot be special"));
        }
        let mut compound = vec![None; ctx.pieces.len()];
        for (from, to) in &spec.compounds {
            let f = ctx.piece(&format!("{key}.compounds"), from)?;
            compound[f as usize] = Some(ctx.piece(&format!("{key}.compounds"), to)?);
        }
        Ok(CapturePromotion {
            special,
            ordinary: ctx.types_where(|_| true) & !special & !royal,
            compound,
            bonus_compulsory: spec.bonus == CaptureBonus::Compulsory,
            promotion_first: spec.last_rank == LastRank::PromotionFirst,
            only_special_anytime: spec.only_special == OnlySpecial::Anytime,
        })
    }
}
