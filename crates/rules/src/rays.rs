//! Ray walks over the board, forwards and backwards: the primitives of the
//! attack tests, below both [`crate::movegen`] and the special-rule families.

use crate::board::Board;
use crate::geometry::Square;
use crate::piece::{Piece, Side};
use crate::variant::tables::{BentPath, MAX_RAYS, NO_RAY, RiderReach};

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

/// Where the rays of a [`crate::variant::tables::RayPlan`] first meet a
/// cell that is not empty, each walked at most once per scan, and only
/// when some entry asks (a test that stops early walks no more than it
/// needs). Valid for one target and one view of the board.
pub(crate) struct RayEnds {
    /// Per ray: the distance in steps to its end, 0 while not yet walked.
    dist: [u8; MAX_RAYS],
}

impl RayEnds {
    /// Nothing walked yet.
    #[inline(always)]
    pub(crate) fn new() -> RayEnds {
        RayEnds {
            dist: [0; MAX_RAYS],
        }
    }

    /// The first cell from `from` along `step` that `at` shows not empty,
    /// and its distance in steps. `ray` is the step's index in the plan
    /// ([`crate::variant::tables::NO_RAY`]: walked every time).
    #[inline(always)]
    pub(crate) fn end(
        &mut self,
        ray: u8,
        from: Square,
        step: i16,
        at: &impl Fn(Square) -> Piece,
    ) -> (Square, u32) {
        let walk = || {
            let mut s = from;
            let mut d = 0;
            loop {
                s = s.shift(step);
                d += 1;
                if !at(s).is_empty() {
                    return (s, d);
                }
            }
        };
        if ray == NO_RAY {
            return walk();
        }
        match self.dist.get_mut(usize::from(ray)) {
            Some(&mut d) if d != 0 => (along(from, step, u32::from(d)), u32::from(d)),
            Some(d) => {
                let (s, n) = walk();
                // A ray crosses at most a board side before the guard band.
                *d = n as u8;
                (s, n)
            }
            None => walk(),
        }
    }
}

/// The cell `d` steps from `from` along `step`.
#[inline(always)]
pub(crate) fn along(from: Square, step: i16, d: u32) -> Square {
    Square((i32::from(from.0) + i32::from(step) * d as i32) as u16)
}

/// Reads each square where an attacker along `path` could start, nearest
/// first, given `end`, the distance from `target` to the first cell that
/// is not empty along `path.step` ([`RayEnds::end`]): calls `found` with
/// each that holds a piece of `by` of a type in `mask`, and stops (returns
/// true) as soon as it returns true.
#[inline(always)]
pub(crate) fn bent_starts(
    path: &BentPath,
    target: Square,
    end: u32,
    by: Side,
    mask: u128,
    at: &impl Fn(Square) -> Piece,
    mut found: impl FnMut(Square) -> bool,
) -> bool {
    // The slide's squares up to the start must be empty: it starts short
    // of the end.
    let last = u32::from(path.max).min(end - 1);
    let first = u32::from(path.min);
    if first > last {
        return false;
    }
    let mut a = along(target, path.step, first).shift(-path.first);
    for _ in first..=last {
        let p = at(a);
        if p.is_side(by) && mask & (1u128 << p.kind()) != 0 && found(a) {
            return true;
        }
        a = a.shift(path.step);
    }
    false
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
