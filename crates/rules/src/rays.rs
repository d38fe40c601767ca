//! Ray walks over the board, forwards and backwards: the primitives of the
//! attack tests, below both [`crate::movegen`] and the special-rule families.

use crate::board::Board;
use crate::geometry::Square;
use crate::piece::{Piece, Side};
use crate::variant::tables::RiderReach;

/// The first cell that is not empty from `from` along `step` (a piece or a
/// wall), and its distance in steps.
#[inline(always)]
pub(crate) fn first_on_ray<B: Board>(pos: &B, from: Square, step: i16) -> (Square, u32) {
    let mut s = from;
    let mut d = 0;
    loop {
        s = s.shift(step);
        d += 1;
        if !pos.at(s).is_empty() {
            return (s, d);
        }
    }
}

/// Does a rider entry list (types, min and max distance) let piece `p`
/// capture `d` steps away?
#[inline(always)]
pub(crate) fn rider_reaches(list: &[RiderReach], p: Piece, d: u32) -> bool {
    let bit = 1u128 << p.kind();
    list.iter()
        .any(|&(m, min, max)| m & bit != 0 && d >= min as u32 && d <= max as u32)
}

/// Walks the multi-leg path `legs` backwards from `cur`, where its leg `k`
/// ends: is there a piece of `by` with a type in `mask` where the path
/// starts, every square on the way empty?
pub(crate) fn reaches_back<B: Board>(
    pos: &B,
    legs: &[(i16, u8)],
    k: usize,
    cur: Square,
    by: Side,
    mask: u128,
) -> bool {
    let (off, max) = legs[k];
    let mut s = cur;
    for _ in 0..max {
        s = s.shift(-off);
        let c = pos.at(s);
        if k == 0 {
            if c.is_side(by) && mask & (1u128 << c.kind()) != 0 {
                return true;
            }
        } else if c.is_empty() && reaches_back(pos, legs, k - 1, s, by, mask) {
            return true;
        }
        if !c.is_empty() {
            return false;
        }
    }
    false
}

/// As [`reaches_back`], seeing through one piece of `own`: records in
/// `pinned` each such piece that alone stands between an attacker of `by`
/// and the path's end. Returns false when `pinned` is full.
#[allow(clippy::too_many_arguments)]
pub(crate) fn pins_back<B: Board>(
    pos: &B,
    legs: &[(i16, u8)],
    k: usize,
    cur: Square,
    by: Side,
    mask: u128,
    blocker: Square,
    pinned: &mut [Square; 8],
    n: &mut usize,
) -> bool {
    let own = by.flip();
    let (off, max) = legs[k];
    let mut s = cur;
    let mut blocker = blocker;
    for _ in 0..max {
        s = s.shift(-off);
        let c = pos.at(s);
        if k == 0 && c.is_side(by) && mask & (1u128 << c.kind()) != 0 {
            if blocker.is_some() && !pinned[..*n].contains(&blocker) {
                if *n == pinned.len() {
                    return false;
                }
                pinned[*n] = blocker;
                *n += 1;
            }
            return true;
        }
        if c.is_side(own) && !blocker.is_some() {
            blocker = s;
        } else if !c.is_empty() {
            return true;
        }
        if k > 0 && !pins_back(pos, legs, k - 1, s, by, mask, blocker, pinned, n) {
            return false;
        }
    }
    true
}
