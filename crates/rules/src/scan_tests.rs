//! The attack scans ([`crate::attackers::attackers`],
//! [`crate::movegen::is_attacked`]) share one walk per line through the
//! tables' [`crate::variant::tables::RayPlan`] and stop early where they
//! can. These tests hold them to the straightforward scans they replaced,
//! kept here: every entry walking its own line, nothing cut short. The
//! attacker lists must match square for square and in order, since a
//! static exchange takes the first of the least valuable.

use crate::attackers::{attackers, attackers_until};
use crate::geometry::Square;
use crate::leaps::{AttackBounds, Free};
use crate::movegen::{is_attacked, legal_moves, piece_moves};
use crate::piece::{Piece, Side};
use crate::position::Position;
use crate::rays::{first_on_ray, reaches_back, rider_reaches};
use crate::variant::{BUILTIN, Variant};
use std::sync::Arc;

/// The attackers as first written: each table entry walks its own line.
fn reference_attackers(pos: &Position, target: Square, by: Side, gone: &[Square]) -> Vec<Square> {
    let mut out = Vec::new();
    let v = pos.variant();
    if v.specials.is_sanctuary(target) {
        return out;
    }
    let at = |s: Square| {
        let p = pos.at(s);
        if p.is_piece() && gone.contains(&s) {
            Piece::EMPTY
        } else {
            p
        }
    };
    let frozen = pos.frozen();
    let add = |s: Square, out: &mut Vec<Square>| {
        if s != frozen && !out.contains(&s) {
            out.push(s);
        }
    };
    let t = &v.attacks[by.index()];
    for &(off, mask) in &t.leaps {
        let s = target.shift(off);
        let p = at(s);
        if p.is_side(by) && mask & (1u128 << p.kind()) != 0 {
            add(s, &mut out);
        }
    }
    for (step, list) in &t.rides {
        let mut s = target;
        let mut d = 0u32;
        let p = loop {
            s = s.shift(*step);
            d += 1;
            let p = at(s);
            if !p.is_empty() {
                break p;
            }
        };
        if p.is_side(by) && rider_reaches(list, p, d) {
            add(s, &mut out);
        }
    }
    for &(first, slide, max, mask) in &t.bents {
        let mut s = target;
        for _ in 0..max {
            s = s.shift(-slide);
            if !at(s).is_empty() {
                break;
            }
            let a = s.shift(-first);
            let p = at(a);
            if p.is_side(by) && mask & (1u128 << p.kind()) != 0 {
                add(a, &mut out);
            }
        }
    }
    for &(step, mask, max, grasshopper) in &t.hops {
        let mut s = target;
        let mut d = 0u32;
        loop {
            s = s.shift(step);
            d += 1;
            if !at(s).is_empty() {
                break;
            }
        }
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
            if p.is_side(by) && mask & (1u128 << p.kind()) != 0 && d <= u32::from(max) {
                add(s, &mut out);
            }
            break;
        }
    }
    for (legs, mask) in &t.multi {
        if let Some(k) = legs.len().checked_sub(1) {
            walk_back(&at, legs, k, target, by, *mask, &mut |s| add(s, &mut out));
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
            if takes {
                add(sq, &mut out);
            }
        }
    }
    out
}

/// The multi-leg walk of [`reference_attackers`].
fn walk_back(
    at: &impl Fn(Square) -> Piece,
    legs: &[(i16, u8)],
    k: usize,
    cur: Square,
    by: Side,
    mask: u128,
    found: &mut impl FnMut(Square),
) {
    let (off, max) = legs[k];
    let mut s = cur;
    for _ in 0..max {
        s = s.shift(-off);
        let c = at(s);
        if k == 0 {
            if c.is_side(by) && mask & (1u128 << c.kind()) != 0 {
                found(s);
            }
        } else if c.is_empty() {
            walk_back(at, legs, k - 1, s, by, mask, found);
        }
        if !c.is_empty() {
            return;
        }
    }
}

/// The attack test as first written, under `bounds`.
fn reference_attacked<Z: AttackBounds>(
    pos: &Position,
    target: Square,
    by: Side,
    bounds: &Z,
) -> bool {
    let v = &**pos.variant();
    let allowed = bounds.attackers();
    let t = &v.attacks[by.index()];
    let frozen = pos.frozen();
    for &(off, mask) in &t.leaps {
        let s = target.shift(off);
        let p = pos.at(s);
        if p.is_side(by)
            && mask & allowed & (1u128 << p.kind()) != 0
            && s != frozen
            && bounds.leap_attacks(p, s, off)
        {
            return true;
        }
    }
    for (step, list) in &t.rides {
        let (s, d) = first_on_ray(pos, target, *step);
        let p = pos.at(s);
        if p.is_side(by)
            && allowed & (1u128 << p.kind()) != 0
            && rider_reaches(list, p, d)
            && s != frozen
            && bounds.ride_attacks(p, s, target, *step, d)
        {
            return true;
        }
    }
    for &(first, slide, max, mask) in &t.bents {
        let mut s = target;
        for _ in 0..max {
            s = s.shift(-slide);
            if !pos.at(s).is_empty() {
                break;
            }
            let a = s.shift(-first);
            let p = pos.at(a);
            if p.is_side(by) && mask & allowed & (1u128 << p.kind()) != 0 && a != frozen {
                return true;
            }
        }
    }
    for &(step, mask, max, grasshopper) in &t.hops {
        let mut s = target;
        let mut d = 0u32;
        loop {
            s = s.shift(step);
            d += 1;
            if !pos.at(s).is_empty() {
                break;
            }
        }
        if pos.at(s) == Piece::WALL || (grasshopper && d != 1) {
            continue;
        }
        loop {
            s = s.shift(step);
            d += 1;
            let p = pos.at(s);
            if p.is_empty() {
                continue;
            }
            if p.is_side(by)
                && mask & allowed & (1u128 << p.kind()) != 0
                && d <= max as u32
                && s != frozen
            {
                return true;
            }
            break;
        }
    }
    if v.specials.extra_attack(pos, target, by) {
        return true;
    }
    let mut ask = t.complex;
    if bounds.walks_back() {
        for (legs, mask) in &t.multi {
            if reaches_back(pos, legs, legs.len() - 1, target, by, *mask & allowed) {
                return true;
            }
        }
    } else {
        ask |= t.multi.iter().fold(0, |m, (_, b)| m | b);
    }
    ask &= allowed;
    if ask != 0 {
        let mut buf = Vec::new();
        for &sq in pos.pieces(by) {
            let p = pos.at(sq);
            if ask & (1u128 << p.kind()) == 0
                || sq == frozen
                || !t.within_full_reach(p.kind(), v.geometry.distance(sq, target))
            {
                continue;
            }
            buf.clear();
            piece_moves(pos, v, sq, p, &mut buf);
            if buf.iter().any(|m| {
                (m.to == target && m.to != m.from && pos.at(target).is_piece())
                    || (m.via_capture && m.via == target)
            }) {
                return true;
            }
        }
    }
    false
}

/// [`is_attacked`] as first written.
fn reference_is_attacked(pos: &Position, target: Square, by: Side) -> bool {
    let v = pos.variant();
    if v.specials.is_sanctuary(target) {
        return false;
    }
    match v.specials.attack_bounds(pos, by) {
        Some(bounds) => reference_attacked(pos, target, by, &bounds),
        None => reference_attacked(pos, target, by, &Free),
    }
}

/// On every square of positions reached by seeded random play in every
/// built-in game, for both sides, with a few random pieces taken as gone:
/// the attackers are the first scan's, in its order; a scan told to stop
/// at one of them gives the list up to it; the attack test agrees.
#[test]
fn scans_agree_with_the_straightforward_ones() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut moves = Vec::new();
    let mut found = Vec::new();
    let mut checked = 0u64;
    for &(name, _) in BUILTIN {
        let v = Arc::new(Variant::builtin(name, &[]).unwrap());
        for _game in 0..2 {
            let mut pos = Position::start(v.clone());
            for _ply in 0..50 {
                for target in v.geometry.squares() {
                    for by in Side::BOTH {
                        let mut gone = Vec::new();
                        for _ in 0..next() % 4 {
                            let all = pos.pieces(Side::BOTH[(next() % 2) as usize]);
                            if let Some(&s) = all.get((next() % 64) as usize) {
                                gone.push(s);
                            }
                        }
                        let expected = reference_attackers(&pos, target, by, &gone);
                        found.clear();
                        attackers(&pos, target, by, &gone, &mut found);
                        assert_eq!(
                            found,
                            expected,
                            "{name} {} target {target:?} by {by:?} gone {gone:?}",
                            pos.fen()
                        );
                        if !expected.is_empty() {
                            let cut = expected[(next() % expected.len() as u64) as usize];
                            found.clear();
                            attackers_until(&pos, target, by, &gone, &mut found, |s| s == cut);
                            let upto = expected.iter().position(|&s| s == cut).unwrap();
                            assert_eq!(
                                found,
                                expected[..=upto],
                                "{name} {} cut at {cut:?}",
                                pos.fen()
                            );
                        }
                        assert_eq!(
                            is_attacked(&pos, target, by),
                            reference_is_attacked(&pos, target, by),
                            "{name} {} target {target:?} by {by:?}",
                            pos.fen()
                        );
                        checked += 1;
                    }
                }
                moves.clear();
                legal_moves(&mut pos, &mut moves);
                if moves.is_empty() {
                    break;
                }
                pos.make(moves[(next() % moves.len() as u64) as usize]);
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}
