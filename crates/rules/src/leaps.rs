//! The leaps and slides of one piece, under optional bounds: the generic
//! loops of move generation, below both [`crate::movegen`] and the
//! special-rule families. A family that bounds where pieces may go
//! (Hiashatar's Bodyguard zones, rules/hiashatar.md 5.1-5.2) gives a
//! [`Bounds`]; every other piece runs with [`Free`], which the compiler
//! reduces to the plain loops.

use crate::board::Board;
use crate::geometry::Square;
use crate::moves::Move;
use crate::piece::{Moveset, Piece};
use crate::push::{push, push_quiet};
use crate::variant::core::Core;

/// Limits on one piece's leaps and slides from its square.
pub trait Bounds {
    /// Only one-square moves are allowed (the piece starts in a zone).
    fn steps_only(&self) -> bool;
    /// Is the offset `off` a one-square step?
    fn is_step(&self, off: i16) -> bool;
    /// Does a slide, or a lame leap passing it, end on `sq`?
    fn stops_at(&self, sq: Square) -> bool;
    /// May the piece capture the enemy piece `c`?
    fn may_take(&self, c: Piece) -> bool;
}

/// No bounds: the plain leaps and slides.
#[derive(Clone, Copy, Debug, Default)]
pub struct Free;

impl Bounds for Free {
    #[inline(always)]
    fn steps_only(&self) -> bool {
        false
    }
    #[inline(always)]
    fn is_step(&self, _off: i16) -> bool {
        true
    }
    #[inline(always)]
    fn stops_at(&self, _sq: Square) -> bool {
        false
    }
    #[inline(always)]
    fn may_take(&self, _c: Piece) -> bool {
        true
    }
}

/// Appends the leaps and slides of `p` on `sq` (`ms`: its moveset) under
/// `bounds`: quiet moves
/// (without `QUIET`, only their promoting forms) and captures, with their
/// promotion choices. `initial`: `p` stands on an initial square;
/// `promotable`: `p` can promote (checked only without `QUIET`).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn leaps_and_rides<B: Board, Z: Bounds, const QUIET: bool>(
    pos: &B,
    v: &Core,
    ms: &Moveset,
    sq: Square,
    p: Piece,
    initial: bool,
    promotable: bool,
    bounds: &Z,
    out: &mut Vec<Move>,
) {
    let enemy = p.side().flip();
    for l in &ms.leaps {
        if (l.initial && !initial) || (bounds.steps_only() && !bounds.is_step(l.off)) {
            continue;
        }
        let t = sq.shift(l.off);
        let c = pos.at(t);
        if c == Piece::WALL {
            continue;
        }
        if !l.lame.is_empty()
            && l.lame.iter().any(|&o| {
                let s = sq.shift(o);
                !pos.at(s).is_empty() || bounds.stops_at(s)
            })
        {
            continue;
        }
        if c.is_empty() {
            if l.quiet {
                push_quiet::<QUIET>(v, p, promotable, sq, t, out);
            }
        } else if l.capture && c.is_side(enemy) && bounds.may_take(c) {
            push(v, p, sq, t, Square::NONE, false, true, out);
        }
    }
    for r in &ms.rides {
        if r.initial && !initial {
            continue;
        }
        let max = if bounds.steps_only() { 1 } else { r.max };
        let mut t = sq;
        for k in 1..=max {
            t = t.shift(r.off);
            let c = pos.at(t);
            if c.is_empty() {
                if r.quiet && k >= r.min {
                    push_quiet::<QUIET>(v, p, promotable, sq, t, out);
                }
                if bounds.stops_at(t) {
                    break;
                }
                continue;
            }
            if r.capture && k >= r.min && c.is_side(enemy) && bounds.may_take(c) {
                push(v, p, sq, t, Square::NONE, false, true, out);
            }
            break;
        }
    }
}

/// Limits on attacks, the counterpart of [`Bounds`] for the attack test:
/// which attackers count and from where (Hiashatar: Bodyguards give no
/// check and zones bound the others, rules/hiashatar.md 5.1 rule 3, 5.2).
pub trait AttackBounds {
    /// Bit per piece type that may attack at all.
    fn attackers(&self) -> u128;
    /// Does the piece `p` on `from` attack along the leap `off` (from the
    /// target towards `from`)?
    fn leap_attacks(&self, p: Piece, from: Square, off: i16) -> bool;
    /// Does the rider `p` on `from`, `d` steps of `step` from `target`
    /// (every square between empty), attack it?
    fn ride_attacks(&self, p: Piece, from: Square, target: Square, step: i16, d: u32) -> bool;
    /// May multi-leg attacks be found by walking their paths back; if not,
    /// the generator (which applies the bounds) is asked.
    fn walks_back(&self) -> bool;
}

impl AttackBounds for Free {
    #[inline(always)]
    fn attackers(&self) -> u128 {
        u128::MAX
    }
    #[inline(always)]
    fn leap_attacks(&self, _p: Piece, _from: Square, _off: i16) -> bool {
        true
    }
    #[inline(always)]
    fn ride_attacks(&self, _p: Piece, _from: Square, _target: Square, _step: i16, _d: u32) -> bool {
        true
    }
    #[inline(always)]
    fn walks_back(&self) -> bool {
        true
    }
}
