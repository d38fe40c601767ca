//! Static exchange evaluation (SEE): what a move wins or loses in
//! material if both sides then capture on its square, each with its least
//! valuable attacker, and each free to stop when going on would lose.
//!
//! The attackers come from the rules library's attack tables
//! ([`kamil_rules::attackers`]), so every variant's leapers,
//! riders, hoppers and walkable multi-leg paths take part, and riders
//! behind a spent attacker join in. Where the exchange on one square does
//! not describe a move, the estimate is only what the move itself takes
//! (and its promotion gains), with no recapture: Checker series, igui and
//! other moves that end on their origin, castling and the other special
//! kinds. That is the conservative side for pruning: such a move never
//! looks like a loss. The attackers' own limits are in the rules module's
//! notes (pins, Bodyguard zones and Lion double captures are ignored).
//! Promotions during the exchange are not counted.

use crate::material::{captured_value, promotion_gain};
use crate::values::PieceValues;
use kamil_rules::attackers_until;
use kamil_rules::piece::MAX_VALUE as MAX_PIECE_VALUE;
use kamil_rules::{Move, MoveKind, PieceType, Position, Square};

/// What a royal counts for in an exchange, centipawns: more than any
/// exchange can win, so a royal recaptures last and never onto a
/// defended square.
pub const ROYAL_VALUE: i32 = 8 * MAX_PIECE_VALUE;

/// Captures one exchange follows at most; the rest is not counted.
const MAX_SWAPS: usize = 32;

/// Reusable buffers for [`see`] and [`see_ge`], so that a search allocates
/// nothing.
#[derive(Clone, Debug, Default)]
pub struct SeeScratch {
    attackers: Vec<Square>,
    gone: Vec<Square>,
}

/// The value of a piece type in an exchange, centipawns.
#[inline]
fn piece_value(pos: &Position, values: &PieceValues, t: PieceType) -> i32 {
    if pos.variant().pieces[t as usize].royal {
        ROYAL_VALUE
    } else {
        values.value(t)
    }
}

/// The exchange `m` opens: the squares taken as already empty (the mover,
/// a Lion's first victim, an en-passant victim), what the move itself
/// gains, and the value of the piece it leaves on the target. `None` where
/// no exchange follows (see the module notes); the gain then stands alone.
fn opening(
    pos: &Position,
    values: &PieceValues,
    m: Move,
    gone: &mut Vec<Square>,
) -> (i32, Option<i32>) {
    let first = captured_value(pos, values, m) + promotion_gain(pos, values, m);
    if !matches!(m.kind, MoveKind::Normal | MoveKind::EnPassant) || m.to == m.from {
        return (first, None);
    }
    let mover = pos.at(m.from);
    if !mover.is_side(pos.side()) {
        return (first, None);
    }
    gone.clear();
    gone.push(m.from);
    // What the move takes off other squares than its target (a Lion's
    // first victim, an en-passant victim) no longer defends or blocks.
    pos.for_each_capture(m, |sq, _| {
        if sq != m.to {
            gone.push(sq);
        }
    });
    let on_target = piece_value(pos, values, m.promotion().unwrap_or(mover.kind()));
    (first, Some(on_target))
}

/// The least valuable piece of `side` that can capture on `target`, the
/// squares in `scratch.gone` taken as empty: its square and exchange value.
fn least_attacker(
    pos: &Position,
    values: &PieceValues,
    target: Square,
    side: kamil_rules::Side,
    scratch: &mut SeeScratch,
) -> Option<(Square, i32)> {
    scratch.attackers.clear();
    // The first attacker worth the least any piece is worth is the answer
    // whatever else attacks: the scan stops there.
    let floor = values.least_value().min(ROYAL_VALUE);
    let value = |s: Square| piece_value(pos, values, pos.at(s).kind());
    attackers_until(
        pos,
        target,
        side,
        &scratch.gone,
        &mut scratch.attackers,
        |s| value(s) <= floor,
    );
    scratch
        .attackers
        .iter()
        .map(|&s| (s, value(s)))
        .min_by_key(|&(_, v)| v)
}

/// The material `m` wins for the side to move (negative: loses), in
/// centipawns, with best play by both sides in the exchange on its final
/// square: each side captures with its least valuable attacker or stops,
/// whichever is better for it (at most 32 captures). The list is cut where
/// a capture would lose material even if nothing answered it (and the
/// capture before it gained): that capture counts as the last, which can
/// make a side's gain smaller than a full count would. `m` must be a move
/// of `pos` (pseudo-legal). `scratch` holds buffers between calls. The
/// search asks [`see_ge`], which answers `see(..) >= threshold` with fewer
/// attacker scans; this is its reference.
pub fn see(pos: &Position, values: &PieceValues, m: Move, scratch: &mut SeeScratch) -> i32 {
    match swap(pos, values, m, None, scratch) {
        Swap::Value(v) => v,
        // Unreachable: a decision needs a threshold.
        Swap::Decided(_) => 0,
    }
}

/// Does `m` win at least `threshold` centipawns by static exchange
/// (negative: lose at most `-threshold`)? The same answer as
/// `see(..) >= threshold`, but the exchange is followed only until bounds
/// on its value decide it: most often the first recapture does, and the
/// mover's defenders are never looked for (a Rook moving onto a square a
/// Pawn attacks costs one attacker scan, not two). Takes what [`see`]
/// takes.
pub fn see_ge(
    pos: &Position,
    values: &PieceValues,
    m: Move,
    threshold: i32,
    scratch: &mut SeeScratch,
) -> bool {
    match swap(pos, values, m, Some(threshold), scratch) {
        Swap::Value(v) => v >= threshold,
        Swap::Decided(b) => b,
    }
}

/// What [`swap`] found: the exchange's value, or with a threshold, the
/// answer to `value >= threshold` once bounds decide it.
enum Swap {
    Value(i32),
    Decided(bool),
}

/// The swap list of [`see`], stopped early when `threshold` is given and
/// the value's bounds fall on one side of it.
fn swap(
    pos: &Position,
    values: &PieceValues,
    m: Move,
    threshold: Option<i32>,
    scratch: &mut SeeScratch,
) -> Swap {
    let (first, on_target) = opening(pos, values, m, &mut scratch.gone);
    let Some(mut on_target) = on_target else {
        return Swap::Value(first);
    };
    // Whatever follows, the mover keeps at most `first` and loses at most
    // the piece it leaves on the target.
    if let Some(t) = threshold {
        if first < t {
            return Swap::Decided(false);
        }
        if first - on_target >= t {
            return Swap::Decided(true);
        }
    }
    // gains[d]: what the side making capture d nets if none follows.
    let mut gains = [0i32; MAX_SWAPS + 1];
    gains[0] = first;
    let mut d = 0;
    let mut side = pos.side().flip();
    while d < MAX_SWAPS {
        let Some((sq, value)) = least_attacker(pos, values, m.to, side, scratch) else {
            break;
        };
        d += 1;
        gains[d] = on_target - gains[d - 1];
        // Neither side can do better by going on: stop here.
        if (-gains[d - 1]).max(gains[d]) < 0 {
            break;
        }
        // Taken back: the mover's side may retake the attacker (worth
        // `value`) and stop, or not retake at all, so the value lies
        // between these two, whoever defends the square.
        if d == 1
            && let Some(t) = threshold
        {
            if gains[0].min(-gains[1]) >= t {
                return Swap::Decided(true);
            }
            if gains[0].min(value - gains[1]) < t {
                return Swap::Decided(false);
            }
        }
        on_target = value;
        scratch.gone.push(sq);
        side = side.flip();
    }
    while d > 0 {
        gains[d - 1] = -(-gains[d - 1]).max(gains[d]);
        d -= 1;
    }
    Swap::Value(gains[0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::PieceValues;
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
        let ev = PieceValues::new(&v);
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

    /// `see_ge` answers `see(..) >= threshold` for every move of positions
    /// reached by seeded random play in every built-in game, at thresholds
    /// around the piece values (including the royal's).
    #[test]
    fn see_ge_agrees_with_the_exchange_value() {
        let thresholds = [
            -ROYAL_VALUE,
            -1000,
            -450,
            -300,
            -101,
            -100,
            -1,
            0,
            1,
            99,
            100,
            300,
            1000,
            ROYAL_VALUE,
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut checked = 0;
        let mut scratch = SeeScratch::default();
        for &(name, _) in kamil_rules::variant::BUILTIN {
            let v = Arc::new(Variant::builtin(name, &[]).unwrap());
            let ev = PieceValues::new(&v.clone());
            for _game in 0..3 {
                let mut pos = Position::from_fen(v.clone(), &v.start_fen).unwrap();
                let mut moves = Vec::new();
                for _ply in 0..60 {
                    moves.clear();
                    pos.legal_moves_into(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    for &m in &moves {
                        let value = see(&pos, &ev, m, &mut scratch);
                        for &t in &thresholds {
                            assert_eq!(
                                see_ge(&pos, &ev, m, t, &mut scratch),
                                value >= t,
                                "{name} {} {m:?}: see {value}, threshold {t}",
                                pos.fen()
                            );
                            checked += 1;
                        }
                    }
                    pos.make(moves[(next() % moves.len() as u64) as usize]);
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }
}
