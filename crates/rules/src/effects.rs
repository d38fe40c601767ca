//! What a move does to the board, told by the rules so that no caller
//! works it out again: the changes [`crate::position::Position::make`]
//! wrote (read after the move with `Position::last_changes`), the pieces a
//! move will capture (asked before it is made) and the squares it touches
//! (for showing it). An evaluation that updates incrementally (a network's
//! accumulators), static exchange, move ordering and the front ends all
//! read these.

use crate::board::Board;
use crate::geometry::Square;
use crate::moves::{Move, MoveKind};
use crate::piece::{Piece, Side};
use crate::variant::Variant;

/// One write of a move to one board square: the piece there before and
/// after it ([`Piece::EMPTY`] for none). A move's changes, applied in order
/// to the board before it, give the board after it; a square may appear
/// more than once (a capture, then the mover arriving; a promotion).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BoardChange {
    /// The square written.
    pub square: Square,
    /// Its piece before this write ([`Piece::EMPTY`]: none).
    pub before: Piece,
    /// Its piece after this write ([`Piece::EMPTY`]: none).
    pub after: Piece,
}

/// Calls `f(square, piece)` for each piece the pseudo-legal move `m` of
/// `pos` will capture (remove from the board), in the order
/// [`crate::position::Position::make`] removes them: a Lion's or igui's
/// first victim, then the piece on the destination (any piece a Tamerlane
/// relocation or transfer lands on), the en-passant victim, every piece a
/// Checker series takes (rules/ordinary-variant.md 5.1). Castling, Kings'
/// swaps, citadel swaps and Courier's opening capture nothing.
#[inline(always)]
pub fn for_each_capture<B: Board>(v: &Variant, pos: &B, m: Move, mut f: impl FnMut(Square, Piece)) {
    match m.kind {
        MoveKind::Normal | MoveKind::Relocate | MoveKind::Transfer => {
            if m.via_capture {
                f(m.via, pos.at(m.via));
            }
            if m.to != m.from {
                let t = pos.at(m.to);
                if t.is_piece() {
                    f(m.to, t);
                }
            }
        }
        MoveKind::EnPassant => f(m.extra, pos.at(m.extra)),
        MoveKind::Checker => v
            .specials
            .for_each_series_capture(pos, &m, |sq| f(sq, pos.at(sq))),
        MoveKind::Castle | MoveKind::Opening | MoveKind::Swap | MoveKind::CitadelSwap => {}
    }
}

/// Does `m` capture a piece of the side not to move in `pos`?
#[inline(always)]
pub fn captures_enemy<B: Board>(v: &Variant, pos: &B, m: Move) -> bool {
    let enemy = pos.side().flip();
    let mut any = false;
    for_each_capture(v, pos, m, |_, p| any |= p.is_side(enemy));
    any
}

/// The squares a move touches, for marking it on a board: origin,
/// intermediate stop and destination, where a Tamerlane transfer or citadel
/// swap ends (its `extra`), every landing of a Checker series, and for
/// Courier's compulsory opening every advance of it (both squares of each).
pub fn touched_squares(v: &Variant, m: Move) -> Vec<Square> {
    let g = &v.geometry;
    if m.kind == MoveKind::Opening && v.specials.has_compulsory_opening() {
        let side = if g.rank(m.from) < g.ranks() / 2 {
            Side::First
        } else {
            Side::Second
        };
        return v
            .specials
            .opening_advances(side)
            .iter()
            .flat_map(|&(a, b)| [a, b])
            .collect();
    }
    let mut out = vec![m.from];
    if m.kind == MoveKind::Checker {
        // A Checker series: every landing square (`via` holds its legs).
        out.extend(v.specials.series_landings(&m));
        return out;
    }
    if m.via.is_some() {
        out.push(m.via);
    }
    out.push(m.to);
    if matches!(m.kind, MoveKind::Transfer | MoveKind::CitadelSwap) && !out.contains(&m.extra) {
        out.push(m.extra);
    }
    out
}
