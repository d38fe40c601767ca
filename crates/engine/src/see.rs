//! Static exchange evaluation (SEE): what a move wins or loses in
//! material if both sides then capture on its square, each with its least
//! valuable attacker, and each free to stop when going on would lose.
//!
//! The attackers come from the rules library's attack tables
//! ([`kamil_rules::attackers::attackers`]), so every variant's leapers,
//! riders, hoppers and walkable multi-leg paths take part, and riders
//! behind a spent attacker join in. Where the exchange on one square does
//! not describe a move, the estimate is only what the move itself takes
//! (and its promotion gains), with no recapture: Checker series, igui and
//! other moves that end on their origin, castling and the other special
//! kinds. That is the conservative side for pruning: such a move never
//! looks like a loss. The attackers' own limits are in the rules module's
//! notes (pins, Bodyguard zones and Lion double captures are ignored).
//! Promotions during the exchange are not counted.

use crate::eval::{Evaluator, MAX_PIECE_VALUE};
use crate::material::{captured_value, promotion_gain};
use kamil_rules::attackers::attackers;
use kamil_rules::{Move, MoveKind, PieceType, Position, Square};

/// What a royal counts for in an exchange, centipawns: more than any
/// exchange can win, so a royal recaptures last and never onto a
/// defended square.
pub const ROYAL_VALUE: i32 = 8 * MAX_PIECE_VALUE;

/// Captures one exchange follows at most; the rest is not counted.
const MAX_SWAPS: usize = 32;

/// Reusable buffers for [`see`], so that a search allocates nothing.
#[derive(Clone, Debug, Default)]
pub struct SeeScratch {
    attackers: Vec<Square>,
    gone: Vec<Square>,
}

/// The value of a piece type in an exchange, centipawns.
#[inline]
fn piece_value(pos: &Position, ev: &Evaluator, t: PieceType) -> i32 {
    if pos.variant().pieces[t as usize].royal {
        ROYAL_VALUE
    } else {
        ev.value(t)
    }
}

/// The material `m` wins for the side to move (negative: loses), in
/// centipawns, with best play by both sides in the exchange on its final
/// square. `m` must be a move of `pos` (pseudo-legal). `scratch` holds
/// buffers between calls.
pub fn see(pos: &Position, ev: &Evaluator, m: Move, scratch: &mut SeeScratch) -> i32 {
    let first = captured_value(pos, ev, m) + promotion_gain(pos, ev, m);
    if !matches!(m.kind, MoveKind::Normal | MoveKind::EnPassant) || m.to == m.from {
        return first;
    }
    let us = pos.side();
    let mover = pos.at(m.from);
    if !mover.is_side(us) {
        return first;
    }
    let mut on_target = piece_value(pos, ev, m.promotion().unwrap_or(mover.kind()));
    let gone = &mut scratch.gone;
    gone.clear();
    gone.push(m.from);
    if m.via_capture {
        gone.push(m.via);
    }
    if m.kind == MoveKind::EnPassant && m.extra.is_some() {
        gone.push(m.extra);
    }
    let mut gains = [0i32; MAX_SWAPS + 1];
    gains[0] = first;
    let mut d = 0;
    let mut side = us.flip();
    while d < MAX_SWAPS {
        scratch.attackers.clear();
        attackers(pos, m.to, side, gone, &mut scratch.attackers);
        let Some((sq, value)) = scratch
            .attackers
            .iter()
            .map(|&s| (s, piece_value(pos, ev, pos.at(s).kind())))
            .min_by_key(|&(_, v)| v)
        else {
            break;
        };
        d += 1;
        gains[d] = on_target - gains[d - 1];
        // Neither side can do better by going on: stop here.
        if (-gains[d - 1]).max(gains[d]) < 0 {
            break;
        }
        on_target = value;
        gone.push(sq);
        side = side.flip();
    }
    while d > 0 {
        gains[d - 1] = -(-gains[d - 1]).max(gains[d]);
        d -= 1;
    }
    gains[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::EvalMode;
    use kamil_rules::Variant;
    use std::sync::Arc;

    /// SEE of the plain move `text` (origin and final square, as `e3e6`;
    /// legal or not) in the Courier position `fen`.
    fn courier_see(fen: &str, text: &str) -> i32 {
        let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
        let pos = Position::from_fen(v.clone(), fen).unwrap();
        let g = &v.geometry;
        let from = g.parse_square(&text[..2]).unwrap();
        let to = g.parse_square(&text[2..]).unwrap();
        let m = Move::new(from, to);
        let ev = Evaluator::new(v, EvalMode::Full);
        see(&pos, &ev, m, &mut SeeScratch::default())
    }

    #[test]
    fn a_rook_taking_a_defended_pawn_loses_the_difference() {
        assert_eq!(
            courier_see("11k/3p8/4p7/12/12/4R7/12/K11 w - - 0 1", "e3e6"),
            100 - 500
        );
        assert_eq!(
            courier_see("11k/12/4p7/12/12/4R7/12/K11 w - - 0 1", "e3e6"),
            100
        );
    }

    #[test]
    fn a_rook_behind_the_first_attacker_joins_the_exchange() {
        // Re3xe6 Re8xe6 Re2xe6: a Rook up. Without the x-ray the second
        // White Rook would not count and the exchange would be level.
        assert_eq!(
            courier_see("4r6k/12/4r7/12/12/4R7/4R7/K11 w - - 0 1", "e3e6"),
            500
        );
        assert_eq!(
            courier_see("4r6k/12/4r7/12/12/4R7/12/K11 w - - 0 1", "e3e6"),
            0
        );
    }

    #[test]
    fn a_king_never_takes_onto_a_defended_square() {
        assert!(courier_see("11k/3p8/4p7/3K8/12/12/12/12 w - - 0 1", "d5e6") < -MAX_PIECE_VALUE);
        assert_eq!(
            courier_see("11k/12/4p7/3K8/12/12/12/12 w - - 0 1", "d5e6"),
            100
        );
    }

    #[test]
    fn a_quiet_move_onto_an_attacked_square_loses_the_piece() {
        assert_eq!(
            courier_see("11k/12/3p8/12/12/4R7/12/K11 w - - 0 1", "e3e5"),
            -500
        );
        assert_eq!(
            courier_see("11k/12/3p8/12/12/4R7/12/K11 w - - 0 1", "e3e4"),
            0
        );
    }

    #[test]
    fn the_side_to_recapture_may_stop() {
        // Nxe6 (a Rook) dxe6? Black's pawn recaptures: White wins 500 - 300.
        // Black's Rook on e8 behind cannot make it worse for White.
        assert_eq!(
            courier_see("4r6k/3p8/4r7/12/3N8/12/12/K11 w - - 0 1", "d4e6"),
            500 - 300
        );
    }
}
