//! Which quiet moves give check, read from the board before the move, so
//! that a search can pick a position's quiet checks out of its move list
//! without making each move (Stockfish's check squares and discovered-check
//! candidates, from the attack tables read backwards).
//!
//! The test covers the attacks of leapers and riders, direct and
//! discovered. Where a side's attacks need more (hoppers, bent and
//! multi-leg paths, lame leaps, Checker jumps, Hiashatar's Bodyguards,
//! Tamerlane's citadels, a frozen piece), [`CheckSquares::new`] says so by
//! giving nothing, and the caller makes the move to know.

use crate::geometry::Square;
use crate::movegen::pseudo_plain_of;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::rays::{first_on_ray, rider_reaches};
use crate::variant::tables::MAX_RAYS;

/// The opponent's royal as the side to move's quiet moves could check it:
/// per ride line of the side to move's attack table, the first cell from
/// the royal that is not empty. Valid for the position it was made from.
pub struct CheckSquares {
    royal: Square,
    /// Per `rides` entry of the mover's attack table: (first cell that is
    /// not empty, its distance in steps from the royal).
    ends: [(Square, u32); MAX_RAYS],
    /// How many of `ends` are lines of the table.
    lines: usize,
}

impl CheckSquares {
    /// The check squares against the royal on `royal` (a royal of the
    /// side not to move) for the side to move of `pos`; `None` where this
    /// test cannot decide (see the module's text) and moves must be made
    /// to tell.
    pub fn new(pos: &Position, royal: Square) -> Option<CheckSquares> {
        let v = pos.variant();
        let t = &v.attacks[pos.side().index()];
        let sp = &v.specials;
        let plain = t.bents.is_empty()
            && t.hops.is_empty()
            && t.multi.is_empty()
            && t.complex == 0
            && t.rides.len() <= MAX_RAYS
            && sp.bodyguard.is_none()
            && sp.checker.is_none()
            && sp.citadels.is_none()
            && !pos.frozen().is_some();
        if !plain {
            return None;
        }
        let mut ends = [(Square::NONE, 0); MAX_RAYS];
        for (end, (step, _)) in ends.iter_mut().zip(&t.rides) {
            *end = first_on_ray(pos, royal, *step);
        }
        Some(CheckSquares {
            royal,
            ends,
            lines: t.rides.len(),
        })
    }

    /// Could the side to move's piece on `sq` give check by a move that
    /// [`CheckSquares::check_kind`] reads? `false` only where it cannot:
    /// it stands farther from the royal than its type's
    /// [`AttackTables::check_reach`](crate::variant::AttackTables::check_reach)
    /// and first on no line from the royal (no discovered check).
    #[inline]
    pub fn may_check_from(&self, pos: &Position, sq: Square) -> bool {
        let v = pos.variant();
        let reach = v.attacks[pos.side().index()]
            .check_reach
            .get(usize::from(pos.at(sq).kind()))
            .copied()
            .unwrap_or(u8::MAX);
        reach == u8::MAX
            || v.geometry.distance(sq, self.royal) <= u32::from(reach)
            || self.ends[..self.lines].iter().any(|&(end, _)| end == sq)
    }

    /// Appends the moves of [`pseudo_plain`](crate::movegen::pseudo_plain) of the pieces that
    /// [`CheckSquares::may_check_from`] keeps, in its order: every quiet
    /// check that [`CheckSquares::check_kind`] tells is among them.
    pub fn candidates(&self, pos: &Position, out: &mut Vec<Move>) {
        pseudo_plain_of(pos, |sq| self.may_check_from(pos, sq), out);
    }

    /// Does the pseudo-legal move `m` of the side to move of `pos` (the
    /// position these check squares were made from) attack the royal once
    /// made, by the moved piece or by a rider behind it? `None` for a move
    /// this test does not read: a capture, a promotion, a move of more
    /// than one leg or of a special kind, a pass.
    #[inline]
    pub fn gives_check(&self, pos: &Position, m: Move) -> Option<bool> {
        self.check_kind(pos, m).map(|c| c != Check::None)
    }

    /// How the pseudo-legal move `m` checks the royal ([`Check`]): as
    /// [`CheckSquares::gives_check`], telling a discovered check (a rider
    /// of the mover's side unmasked, with or without the mover's own
    /// attack) from a check by the moved piece alone. `None` for a move
    /// this test does not read.
    #[inline]
    pub fn check_kind(&self, pos: &Position, m: Move) -> Option<Check> {
        if m.kind != MoveKind::Normal
            || m.promo != 0
            || m.via.is_some()
            || m.aux.is_some()
            || m.to == m.from
            || !pos.at(m.to).is_empty()
        {
            return None;
        }
        let side = pos.side();
        let t = &pos.variant().attacks[side.index()];
        let p = pos.at(m.from);
        let royal = self.royal;
        let to = t.from_offset(i32::from(m.to.0) - i32::from(royal.0));
        let from = t.from_offset(i32::from(m.from.0) - i32::from(royal.0));
        let mut direct = to.leaps & (1u128 << p.kind()) != 0;
        // Only the lines through the mover's start or its destination can
        // change: the others keep their ends.
        let mut lines = to.rides | from.rides;
        while lines != 0 {
            let i = lines.trailing_zeros() as usize;
            lines &= lines - 1;
            let ((step, list), (end, end_d)) = (&t.rides[i], self.ends[i]);
            // The line from the royal with the mover's start emptied.
            let (reach, reach_d) = if end == m.from {
                let (s, d) = first_on_ray(pos, m.from, *step);
                (s, end_d + d)
            } else {
                (end, end_d)
            };
            let to_d = steps_between(royal, m.to, *step).filter(|&d| d < reach_d);
            if let Some(d) = to_d {
                direct |= rider_reaches(list, p, d);
                // The mover stands on this line again, between.
                continue;
            }
            if end == m.from {
                let q = pos.at(reach);
                if q.is_side(side) && rider_reaches(list, q, reach_d) {
                    return Some(Check::Discovered);
                }
            }
        }
        Some(if direct { Check::Direct } else { Check::None })
    }
}

/// How a move checks the opponent's royal ([`CheckSquares::check_kind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// It gives no check.
    None,
    /// The moved piece alone attacks the royal.
    Direct,
    /// A rider of the mover's side attacks the royal through the square
    /// the mover left (the moved piece may attack it too: a double check).
    Discovered,
}

/// How many `step`s lead from `a` to `b`, where `b - a` is a positive
/// multiple of `step`; whether the walk stays on the board is for the
/// caller to know (a distance below a ray's end does).
#[inline(always)]
fn steps_between(a: Square, b: Square, step: i16) -> Option<u32> {
    let diff = i32::from(b.0) - i32::from(a.0);
    let step = i32::from(step);
    (step != 0 && diff % step == 0 && diff / step > 0).then(|| (diff / step) as u32)
}
