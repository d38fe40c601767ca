//! Chu Shogi's Lion-trading rules (rules/chu-shogi.md 6.4, A3-A5).
//!
//! - LT1: a Lion may always take a Lion adjacent to its starting square.
//! - LT2: a Lion may not take a *protected* Lion two squares from its
//!   starting square, unless it also took a piece other than an unpromoted
//!   Pawn or Go-Between on the intermediate square (bridge). Protection is
//!   judged after the move (X-ray through the vacated origin included); in
//!   the JCSA reading a Pawn or Go-Between taken on the intermediate square
//!   that attacked the target before the move still protects it.
//! - LT3: after a player's Lion was taken by a non-Lion, that player's next
//!   move may not take a Lion with a non-Lion, except on the square where
//!   its own Lion was taken.
//!
//! Hook points (through [`crate::special::Specials`]): [`captures_lion`]
//! before a move (`needs_trial`, the cheap filter of legal generation),
//! [`violated`] after it (`forbids`, asked after every make), and
//! [`state_key`] in make and in the
//! hash from scratch: the counter-strike state is derived from the last move
//! (the undo stack keeps the mover and its captures), never stored.

use crate::board::Board;
use crate::geometry::Square;
use crate::moves::Move;
use crate::piece::{Piece, PieceType, Side};
use crate::variant::core::Core;

/// Who counts as a protector of a distant Lion (6.4 LT2, A4).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Protection {
    /// JCSA: the pieces able to recapture after the move, and also an
    /// unpromoted Pawn or Go-Between taken on the intermediate square that
    /// attacked the target before the move (default).
    Jcsa,
    /// H. G. Muller: only pieces still on the board after the move.
    Recapture,
}

/// Scope of the counter-strike rule (6.4 LT3, A5).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CounterStrike {
    /// Every Lion capture by a non-Lion is banned, anywhere in the move,
    /// except on the square where the own Lion was just taken (default).
    Strict,
    /// Okazaki / JCSA 2004: as strict, but only a protected Lion is off
    /// limits (protection judged after the move).
    Okazaki,
    /// HaChu: as strict, without the exception for the square of the
    /// previous capture.
    Everywhere,
    /// lishogi: as strict, but only the move's final square is checked (an
    /// igui on a Lion is allowed).
    FinalSquareOnly,
}

/// The compiled `[special.lion_trading]` table (6.4): which types are Lions
/// and which are pawn-like (no bridge), and the rule options in force.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LionTrading {
    /// Bit per Lion type (Lion, promoted Kirin).
    pub lions: u128,
    /// Bit per pawn-like type (unpromoted Pawn and Go-Between): not a
    /// bridge, and a protector after capture in the JCSA reading.
    pub pawn_like: u128,
    /// LT2's bridge exception (modern rules; off under `lion-trading=seed`).
    pub bridge: bool,
    /// Who protects a distant Lion (`Recapture` under `lion-trading=seed`).
    pub protection: Protection,
    /// LT3, if in force (none under `lion-trading=seed`).
    pub counterstrike: Option<CounterStrike>,
}

impl LionTrading {
    /// Is `p` a Lion (6.4: Lion or promoted Kirin)?
    #[inline(always)]
    pub fn is_lion(&self, p: Piece) -> bool {
        p.is_piece() && self.lions & (1u128 << p.kind()) != 0
    }

    /// Is `p` pawn-like (6.4 LT2: unpromoted Pawn or Go-Between)?
    #[inline(always)]
    pub fn is_pawn_like(&self, p: Piece) -> bool {
        p.is_piece() && self.pawn_like & (1u128 << p.kind()) != 0
    }
}

/// Before the move: does `m` take a Lion? Only such moves can break a
/// Lion-trading rule (6.4), so every other move needs no further test.
#[inline(always)]
pub fn captures_lion<B: Board>(lt: &LionTrading, pos: &B, m: Move) -> bool {
    let enemy = pos.side().flip();
    (m.via_capture && lt.is_lion(pos.at(m.via)))
        || (m.to != m.from && pos.at(m.to).is_side(enemy) && lt.is_lion(pos.at(m.to)))
}

/// King-step distance between two squares.
fn distance(v: &Core, a: Square, b: Square) -> u32 {
    let g = &v.geometry;
    let dx = (g.file(a) as i32 - g.file(b) as i32).unsigned_abs();
    let dy = (g.rank(a) as i32 - g.rank(b) as i32).unsigned_abs();
    dx.max(dy)
}

/// Could `p` on `from` capture on `target` by one of its steps or slides?
/// (For the Pawn / Go-Between protector clause: they attack by steps only.)
fn attacks_directly(v: &Core, p: Piece, from: Square, target: Square) -> bool {
    let off = target.0 as i32 - from.0 as i32;
    let ms = &v.movesets[p.kind() as usize][p.side().index()];
    ms.leaps
        .iter()
        .any(|l| l.capture && l.off as i32 == off && l.lame.is_empty())
        || ms.rides.iter().any(|r| r.capture && r.off as i32 == off)
}

/// After a move has been made: did it break LT1-LT3 (6.4)? Looks at the
/// last move (and, for LT3, the one before) on the undo stack.
pub fn violated<B: Board>(lt: &LionTrading, pos: &B) -> bool {
    let Some((mv, moved, caps)) = pos.recent_move(0) else {
        return false;
    };
    if !caps.iter().any(|&(_, p)| lt.is_lion(p)) {
        return false;
    }
    let v = pos.core();
    // After the move the victim's side is to move.
    let victim = pos.side();
    if lt.is_lion(moved) {
        // LT1: adjacent Lions are always fair game. LT2: distant ones only
        // unprotected, or over a bridge.
        for &(sq, p) in caps {
            if !lt.is_lion(p) || distance(v, mv.from, sq) != 2 {
                continue;
            }
            let bridge = caps.iter().find(|&&(s, _)| mv.via_capture && s == mv.via);
            if lt.bridge && bridge.is_some_and(|&(_, b)| !lt.is_pawn_like(b)) {
                continue;
            }
            if pos.is_attacked(sq, victim) {
                return true;
            }
            if lt.protection == Protection::Jcsa
                && let Some(&(s, b)) = bridge
                && lt.is_pawn_like(b)
                && attacks_directly(v, b, s, sq)
            {
                return true;
            }
        }
        return false;
    }
    let Some(cs) = lt.counterstrike else {
        return false;
    };
    // LT3: was the mover's Lion taken by a non-Lion on the move before?
    let Some((_, before, struck)) = pos.recent_move(1) else {
        return false;
    };
    let mover = moved.side();
    if lt.is_lion(before)
        || !struck
            .iter()
            .any(|&(_, p)| p.is_side(mover) && lt.is_lion(p))
    {
        return false;
    }
    for &(sq, p) in caps {
        if !lt.is_lion(p) {
            continue;
        }
        if cs == CounterStrike::FinalSquareOnly && (mv.to == mv.from || sq != mv.to) {
            continue;
        }
        let exempt = cs != CounterStrike::Everywhere
            && struck
                .iter()
                .any(|&(s, q)| s == sq && q.is_side(mover) && lt.is_lion(q));
        if exempt {
            continue;
        }
        if cs == CounterStrike::Okazaki && !pos.is_attacked(sq, victim) {
            continue;
        }
        return true;
    }
    false
}

/// The hash key of the counter-strike state (6.4 LT3, 6.5: part of the
/// position) that the move `back` plies before the last one created: zero
/// unless it took a Lion with a non-Lion; else a key of the squares where
/// it did.
pub fn state_key<B: Board>(lt: &LionTrading, pos: &B, back: usize) -> u64 {
    if lt.counterstrike.is_none() {
        return 0;
    }
    let Some((_, moved, caps)) = pos.recent_move(back) else {
        return 0;
    };
    if lt.is_lion(moved) {
        return 0;
    }
    let v = pos.core();
    let z = &v.zobrist;
    let mut key = 0;
    let mut any = false;
    for &(sq, p) in caps {
        if lt.is_lion(p) {
            key ^= z.ep(v.geometry.compact(sq)).rotate_left(17);
            any = true;
        }
    }
    if any {
        key ^= z.state[2];
    }
    key
}

/// Is the side to move under the counter-strike rule (6.4 LT3): did the
/// last move take one of its Lions with a non-Lion? This state is part of
/// the position but not of the FEN (rules/chu-shogi.md section 8).
pub fn counterstrike_pending<B: Board>(lt: &LionTrading, pos: &B) -> bool {
    if lt.counterstrike.is_none() {
        return false;
    }
    let Some((_, moved, caps)) = pos.recent_move(0) else {
        return false;
    };
    let side = pos.side();
    !lt.is_lion(moved) && caps.iter().any(|&(_, p)| p.is_side(side) && lt.is_lion(p))
}

/// The square of the last Lion of the side to move that the last move
/// took with a non-Lion (6.4 LT3), or `None`: the counter-strike state as
/// SFEN writes it (lishogi keeps one square; a move's final square is
/// taken after its intermediate one).
pub fn strike_square<B: Board>(lt: &LionTrading, pos: &B) -> Option<Square> {
    let (_, moved, caps) = pos.recent_move(0)?;
    if lt.is_lion(moved) {
        return None;
    }
    let side = pos.side();
    caps.iter()
        .rev()
        .find(|&&(_, p)| p.is_side(side) && lt.is_lion(p))
        .map(|&(sq, _)| sq)
}

/// A non-Lion of the side that just moved (`on_square` if it is one) and a
/// Lion of `to_move`: the pieces of a Lion capture recorded before a
/// position's history ([`strike_square`] read back from an SFEN).
pub fn strike_pieces(lt: &LionTrading, to_move: Side, on_square: Piece) -> (Piece, Piece) {
    let mover = to_move.flip();
    let moved = if on_square.is_side(mover) && !lt.is_lion(on_square) {
        on_square
    } else {
        Piece::new((!lt.lions).trailing_zeros() as PieceType, mover)
    };
    let lion = Piece::new(lt.lions.trailing_zeros() as PieceType, to_move);
    (moved, lion)
}

use crate::variant::context::Context;
use crate::variant::error::VariantError;
use crate::variant::schema::{LionCounterstrike, LionMode, LionProtection, LionTradingSpec};

impl LionTrading {
    /// Compiles `[special.lion_trading]` (rules/chu-shogi.md 6.4, A3-A5):
    /// the rules in force, or `None` under `mode = "off"`. `seed` keeps LT1
    /// and LT2 without the bridge, protection by recapture only.
    ///
    /// Errors: a key in `lions` or `pawn_like` that names no piece.
    pub fn compile(
        spec: &LionTradingSpec,
        ctx: &Context,
    ) -> Result<Option<LionTrading>, VariantError> {
        let lions = ctx.type_mask("special.lion_trading.lions", &spec.lions)?;
        let pawn_like = ctx.type_mask("special.lion_trading.pawn_like", &spec.pawn_like)?;
        let protection = match spec.protection {
            LionProtection::Jcsa => Protection::Jcsa,
            LionProtection::Recapture => Protection::Recapture,
        };
        let counterstrike = match spec.counterstrike {
            LionCounterstrike::Strict => Some(CounterStrike::Strict),
            LionCounterstrike::Okazaki => Some(CounterStrike::Okazaki),
            LionCounterstrike::Everywhere => Some(CounterStrike::Everywhere),
            LionCounterstrike::FinalSquareOnly => Some(CounterStrike::FinalSquareOnly),
            LionCounterstrike::Off => None,
        };
        Ok(match spec.mode {
            LionMode::Modern => Some(LionTrading {
                lions,
                pawn_like,
                bridge: true,
                protection,
                counterstrike,
            }),
            LionMode::Seed => Some(LionTrading {
                lions,
                pawn_like,
                bridge: false,
                protection: Protection::Recapture,
                counterstrike: None,
            }),
            LionMode::Off => None,
        })
    }
}
