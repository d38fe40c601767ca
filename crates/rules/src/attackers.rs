//! Every attacker of a square, as a static exchange evaluation needs them:
//! the attack tables of [`crate::movegen::is_attacked`] read outwards from
//! the target, collecting every attacker instead of stopping at the first,
//! with some squares taken as already emptied (the pieces spent earlier in
//! the exchange), so that riders and hoppers lined up behind them join in.
//!
//! It answers "who could capture here by movement", which is what an
//! exchange estimate needs, and is not a legality test. What it leaves out,
//! on purpose (each makes an exchange look better for the side that starts
//! it, never worse, so a pruning test built on it errs towards searching):
//! - pins and royal safety (a pinned piece still recaptures);
//! - Hiashatar's Bodyguard zones (special/bodyguard.rs), which bound
//!   check, not capture;
//! - Checker series (special/checker.rs): a series' captures are not on
//!   one square;
//! - a second capture in the same move (Lion double captures): each
//!   attacker takes only on the target.
//!
//! Pieces whose captures need the full generator (lame leaps, initial-only
//! moves, multi-leg paths that cannot be walked back) are asked on the
//! board as it stands, so for them emptied squares do not open lines.

use crate::geometry::Square;
use crate::movegen::piece_moves;
use crate::piece::{Piece, Side};
use crate::position::Position;
use crate::rays::{RayEnds, bent_starts, rider_reaches};

/// Appends to `out` the squares of `by`'s pieces that could capture on
/// `target` by their movement, with every square in `gone` taken as empty
/// (and its piece as spent). A frozen piece ([`Position::frozen`]) attacks
/// nothing, nor does anything attack a sanctuary. Each attacker appears
/// once. See the module notes for what is left out.
pub fn attackers(pos: &Position, target: Square, by: Side, gone: &[Square], out: &mut Vec<Square>) {
    attackers_until(pos, target, by, gone, out, |_| false);
}

/// [`attackers`], stopping right after appending an attacker for which
/// `enough` says yes: the list is then [`attackers`]' list cut after that
/// square (the same squares in the same order up to it). A static exchange
/// wants only the first of the least valuable attackers, and once one of
/// the least value any piece has turns up, none later can be preferred.
pub fn attackers_until(
    pos: &Position,
    target: Square,
    by: Side,
    gone: &[Square],
    out: &mut Vec<Square>,
    mut enough: impl FnMut(Square) -> bool,
) {
    let v = pos.variant();
    if v.specials.is_sanctuary(target) {
        return;
    }
    // Most squares looked at are empty: ask the short `gone` list only
    // about pieces.
    let at = |s: Square| {
        let p = pos.at(s);
        if p.is_piece() && gone.contains(&s) {
            Piece::EMPTY
        } else {
            p
        }
    };
    let frozen = pos.frozen();
    let start = out.len();
    // Appends `s` unless frozen or already there; true: stop the scan.
    let mut add = |s: Square, out: &mut Vec<Square>| {
        if s != frozen && !out[start..].contains(&s) {
            out.push(s);
            return enough(s);
        }
        false
    };
    let t = &v.attacks[by.index()];
    let plan = &t.plan;
    // Rides, hops and bent paths along one line share one walk to its end.
    let mut ends = RayEnds::new();
    for &(off, mask) in &t.leaps {
        let s = target.shift(off);
        let p = at(s);
        if p.is_side(by) && mask & (1u128 << p.kind()) != 0 && add(s, out) {
            return;
        }
    }
    for ((step, list), &ray) in t.rides.iter().zip(&plan.rides) {
        let (s, d) = ends.end(ray, target, *step, &at);
        let p = at(s);
        if p.is_side(by) && rider_reaches(list, p, d) && add(s, out) {
            return;
        }
    }
    for b in &plan.bents {
        let (_, end) = ends.end(b.ray, target, b.step, &at);
        if bent_starts(b, target, end, by, b.mask, &at, |a| add(a, out)) {
            return;
        }
    }
    for (&(step, mask, max, grasshopper), &ray) in t.hops.iter().zip(&plan.hops) {
        // The screen is the line's end; the hopper is the next piece on.
        let (mut s, mut d) = ends.end(ray, target, step, &at);
        if at(s) == Piece::WALL || (grasshopper && d != 1) {
            continue;
        }
        loop {
            s = s.shift(step);
            d += 1;
            let p = at(s);
            if p.is_empty() {
                continue;
            }
            if p.is_side(by)
                && mask & (1u128 << p.kind()) != 0
                && d <= u32::from(max)
                && add(s, out)
            {
                return;
            }
            break;
        }
    }
    for ((legs, mask), straight) in t.multi.iter().zip(&plan.multi) {
        let stop = match straight {
            Some(b) => {
                let (_, end) = ends.end(b.ray, target, b.step, &at);
                bent_starts(b, target, end, by, *mask, &at, |a| add(a, out))
            }
            None => legs
                .len()
                .checked_sub(1)
                .is_some_and(|k| walk_back(&at, legs, k, target, by, *mask, &mut |s| add(s, out))),
        };
        if stop {
            return;
        }
    }
    if t.complex != 0 {
        let mut buf = Vec::new();
        let here = pos.at(target);
        for &sq in pos.pieces(by) {
            let p = pos.at(sq);
            if t.complex & (1u128 << p.kind()) == 0
                || !t.within_full_reach(p.kind(), v.geometry.distance(sq, target))
                || gone.contains(&sq)
            {
                continue;
            }
            buf.clear();
            piece_moves(pos, v, sq, p, &mut buf);
            let takes = buf.iter().any(|m| {
                (m.to == target && m.to != m.from && here.is_piece())
                    || (m.via_capture && m.via == target)
            });
            if takes && add(sq, out) {
                return;
            }
        }
    }
}

/// Walks the multi-leg path `legs` backwards from `cur`, where its leg `k`
/// ends, over squares empty under `at`; calls `found` with each square
/// where a piece of `by` with a type in `mask` starts the path, and stops
/// (returns true) as soon as it returns true.
fn walk_back(
    at: &impl Fn(Square) -> Piece,
    legs: &[(i16, u8)],
    k: usize,
    cur: Square,
    by: Side,
    mask: u128,
    found: &mut impl FnMut(Square) -> bool,
) -> bool {
    let (off, max) = legs[k];
    let mut s = cur;
    for _ in 0..max {
        s = s.shift(-off);
        let c = at(s);
        if k == 0 {
            if c.is_side(by) && mask & (1u128 << c.kind()) != 0 && found(s) {
                return true;
            }
        } else if c.is_empty() && walk_back(at, legs, k - 1, s, by, mask, found) {
            return true;
        }
        if !c.is_empty() {
            return false;
        }
    }
    false
}
