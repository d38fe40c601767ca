//! Move generation from compiled atoms, attack detection and legality.
//!
//! Generation is pseudo-legal (every move the pieces' paths allow, with
//! promotions, castling and en passant); [`legal_moves`] keeps those after
//! which the mover's only royal is not attacked (when the variant has that
//! rule). Attacks are found by looking outward from the target square with
//! the reverse of every leap and slide in the variant; pieces whose captures
//! cannot be reversed so simply (hoppers, multi-leg) are asked directly.

use crate::geometry::Square;
use crate::moves::{Move, MoveKind};
use crate::piece::{CompiledLeg, Piece, Side};
use crate::position::{CASTLE_BITS, Position};
use crate::special::bodyguard;
use crate::special::checker;
use crate::special::lion::{self, LionTrading};
use crate::special::{capture_promotion, hostile_promotion, king_swap, pawn_of_pawns};
use crate::variant::{PromotionWhen, RiderReach, Variant};

/// Appends every pseudo-legal move of the side to move to `out`.
pub fn pseudo_moves(pos: &Position, out: &mut Vec<Move>) {
    pseudo_plain(pos, out);
    if let Some(ck) = &pos.variant().specials.checker {
        for &sq in pos.pieces(pos.side()) {
            if pos.at(sq).kind() == ck.kind {
                checker::series(ck, pos, sq, out);
            }
        }
    }
}

/// The pseudo-legal moves of [`pseudo_moves`] but the Checker series of
/// `special/checker.rs` (which generates those itself, with its rules).
pub fn pseudo_plain(pos: &Position, out: &mut Vec<Move>) {
    let side = pos.side();
    let v = pos.variant();
    if pos.opening_pending(side) {
        opening_move(pos, out);
        return;
    }
    let guards = bodyguard::Guards::of(pos);
    for &sq in pos.pieces(side) {
        if sq == pos.frozen() {
            continue;
        }
        let start = out.len();
        gen_moves::<true>(pos, v, sq, pos.at(sq), &guards, out);
        special_moves(pos, v, start, out);
    }
    if v.rules.castling.is_some() && pos.castling() != 0 {
        castling_moves(pos, v, out);
    }
    if let Some(pop) = &v.specials.pawn_of_pawns {
        pawn_of_pawns::moves(pop, pos, out);
    }
    if let Some(ks) = &v.specials.king_swap {
        king_swap::pseudo(ks, pos, out);
    }
}

/// Appends the moves the side to move has only when it has no other legal
/// move (Tamerlane's King swap when stalemated, or when mated under
/// `swap=mated-only`; rules/tamerlane.md 5.4). [`legal_moves`] and
/// [`count_legal`] add them themselves; a search over [`pseudo_moves`]
/// calls this when none of those was legal. Pseudo-legal, like those.
pub fn fallback_moves(pos: &Position, out: &mut Vec<Move>) {
    if let Some(ks) = &pos.variant().specials.king_swap {
        king_swap::fallback(ks, pos, out);
    }
}

/// Does the variant have moves that exist only when no other move is
/// legal ([`fallback_moves`])?
#[inline]
pub fn has_fallback(v: &Variant) -> bool {
    v.specials.king_swap.is_some()
}

fn opening_move(pos: &Position, out: &mut Vec<Move>) {
    let v = pos.variant();
    let list = &v
        .specials
        .compulsory_opening
        .as_ref()
        .expect("pending opening needs the module")
        .moves[pos.side().index()];
    let (a, b) = list[0];
    let mut m = Move::new(a, b);
    m.kind = MoveKind::Opening;
    out.push(m);
}

/// Appends the pseudo-legal captures and promotions of the side to move
/// (en passant included; no castling, no compulsory opening): the moves a
/// quiescence search looks at. The same moves as [`pseudo_moves`] keeps
/// when filtered to those, in less time.
pub fn noisy_moves(pos: &Position, out: &mut Vec<Move>) {
    let side = pos.side();
    if pos.opening_pending(side) {
        return;
    }
    let v = pos.variant();
    let guards = bodyguard::Guards::of(pos);
    for &sq in pos.pieces(side) {
        if sq == pos.frozen() {
            continue;
        }
        let start = out.len();
        gen_moves::<false>(pos, v, sq, pos.at(sq), &guards, out);
        special_moves(pos, v, start, out);
        if let Some(ck) = &v.specials.checker
            && pos.at(sq).kind() == ck.kind
        {
            // Checker series that capture (special/checker.rs).
            let start = out.len();
            checker::series(ck, pos, sq, out);
            let mut k = start;
            for i in start..out.len() {
                if checker::captures(ck, pos, &out[i]).0 != 0 {
                    out[k] = out[i];
                    k += 1;
                }
            }
            out.truncate(k);
        }
    }
    // Relocations and transfers change the pawn of pawns' stage: promotions.
    if let Some(pop) = &v.specials.pawn_of_pawns {
        pawn_of_pawns::moves(pop, pos, out);
    }
}

/// The special modules' hook after one piece's moves `out[start..]` are
/// generated: drop squares of hostile promotions (rules/frolov-10x10.md
/// 5.3), then upgrade choices and compound promotion lists (5.4-5.5).
#[inline(always)]
fn special_moves(pos: &Position, v: &Variant, start: usize, out: &mut Vec<Move>) {
    if let Some(hp) = &v.specials.hostile_promotion {
        hostile_promotion::expand_drops(pos, hp, start, out);
    }
    if let Some(cp) = &v.specials.capture_promotion {
        capture_promotion::expand(pos, cp, start, out);
    }
}

/// Appends the pseudo-legal moves of the piece `p` on `sq` (no castling).
pub fn piece_moves(pos: &Position, v: &Variant, sq: Square, p: Piece, out: &mut Vec<Move>) {
    gen_moves::<true>(pos, v, sq, p, &bodyguard::Guards::of(pos), out);
}

/// A non-capture to `t`: pushed when generating every move; when only
/// noisy moves are wanted, only its promoting forms.
#[inline(always)]
pub(crate) fn push_quiet<const QUIET: bool>(
    v: &Variant,
    p: Piece,
    promotable: bool,
    sq: Square,
    t: Square,
    out: &mut Vec<Move>,
) {
    if QUIET {
        push(v, p, sq, t, Square::NONE, false, false, out);
    } else if promotable {
        let before = out.len();
        push(v, p, sq, t, Square::NONE, false, false, out);
        keep_promotions(out, before);
    }
}

fn keep_promotions(out: &mut Vec<Move>, start: usize) {
    let mut k = start;
    for i in start..out.len() {
        if out[i].promo != 0 {
            out[k] = out[i];
            k += 1;
        }
    }
    out.truncate(k);
}

#[inline(always)]
fn gen_moves<const QUIET: bool>(
    pos: &Position,
    v: &Variant,
    sq: Square,
    p: Piece,
    guards: &bodyguard::Guards,
    out: &mut Vec<Move>,
) {
    let side = p.side();
    let kind = p.kind() as usize;
    let ms = &v.movesets[kind][side.index()];
    let start = out.len();
    let promotable = !QUIET && v.any_promotion && {
        let info = &v.pieces[kind];
        info.promoted.is_some() || !info.promotes_to.is_empty()
    };
    let initial = pos.on_initial(sq, p);
    // Hiashatar's zones (special/bodyguard.rs) bound leaps and slides.
    let zoned = v.specials.bodyguard.as_ref().is_some_and(|bg| {
        bodyguard::leaps_and_rides::<QUIET>(bg, guards, pos, v, sq, p, initial, promotable, out)
    });
    let (leaps, rides) = if zoned {
        (&[][..], &[][..])
    } else {
        (&ms.leaps[..], &ms.rides[..])
    };
    for l in leaps {
        if l.initial && !initial {
            continue;
        }
        let t = sq.shift(l.off);
        let c = pos.at(t);
        if c == Piece::WALL {
            continue;
        }
        if !l.lame.is_empty() && l.lame.iter().any(|&o| !pos.at(sq.shift(o)).is_empty()) {
            continue;
        }
        if c.is_empty() {
            if l.quiet {
                push_quiet::<QUIET>(v, p, promotable, sq, t, out);
            }
        } else if l.capture && c.is_side(side.flip()) {
            push(v, p, sq, t, Square::NONE, false, true, out);
        }
    }
    for r in rides {
        if r.initial && !initial {
            continue;
        }
        let mut t = sq;
        for k in 1..=r.max {
            t = t.shift(r.off);
            let c = pos.at(t);
            if c.is_empty() {
                if r.quiet && k >= r.min {
                    push_quiet::<QUIET>(v, p, promotable, sq, t, out);
                }
                continue;
            }
            if r.capture && k >= r.min && c.is_side(side.flip()) {
                push(v, p, sq, t, Square::NONE, false, true, out);
            }
            break;
        }
    }
    for (r, grasshopper) in &ms.hops {
        if r.initial && !initial {
            continue;
        }
        let mut t = sq;
        let mut k = 0;
        // Find the screen.
        loop {
            t = t.shift(r.off);
            k += 1;
            if k > r.max || pos.at(t) != Piece::EMPTY {
                break;
            }
        }
        if k > r.max || pos.at(t) == Piece::WALL {
            continue;
        }
        loop {
            t = t.shift(r.off);
            k += 1;
            if k > r.max {
                break;
            }
            let c = pos.at(t);
            if c == Piece::WALL {
                break;
            }
            if c.is_empty() {
                if r.quiet {
                    push_quiet::<QUIET>(v, p, promotable, sq, t, out);
                }
            } else {
                if r.capture && c.is_side(side.flip()) {
                    push(v, p, sq, t, Square::NONE, false, true, out);
                }
                break;
            }
            if *grasshopper {
                break;
            }
        }
    }
    if !ms.multi.is_empty() {
        for (legs, init) in &ms.multi {
            if *init && !initial {
                continue;
            }
            walk(pos, v, p, sq, legs, 0, sq, Square::NONE, false, out);
        }
        dedupe(out, start);
        if !QUIET {
            let enemy = side.flip();
            let mut k = start;
            for i in start..out.len() {
                let m = out[i];
                if m.via_capture || m.promo != 0 || (m.to != m.from && pos.at(m.to).is_side(enemy))
                {
                    out[k] = m;
                    k += 1;
                }
            }
            out.truncate(k);
        }
    }
    if v.rules.en_passant
        && let Some(ep) = pos.en_passant()
        && v.pieces[kind].pawn
        && pos.at(ep.victim).is_side(side.flip())
    {
        for l in &ms.leaps {
            if !(l.en_passant || (l.capture && !l.quiet)) {
                continue;
            }
            let t = sq.shift(l.off);
            if ep.squares[..ep.count as usize].contains(&t) && pos.at(t).is_empty() {
                let before = out.len();
                push(v, p, sq, t, Square::NONE, false, true, out);
                for m in &mut out[before..] {
                    m.kind = MoveKind::EnPassant;
                    m.extra = ep.victim;
                }
            }
        }
    }
    if v.restricts {
        restrict(pos, v, p, out, start);
    }
}

/// The special modules' say on a piece's generated moves `out[start..]`:
/// no capture of an immune piece, citadels entered only as allowed
/// (rules/tamerlane.md 5.5), the pawn of pawns' second arrival (5.2).
fn restrict(pos: &Position, v: &Variant, p: Piece, out: &mut Vec<Move>, start: usize) {
    if v.immune != 0 {
        let immune = |sq: Square| {
            let c = pos.at(sq);
            c.is_piece() && v.immune & (1u128 << c.kind()) != 0
        };
        let mut k = start;
        for i in start..out.len() {
            let m = out[i];
            if !((m.to != m.from && immune(m.to)) || (m.via_capture && immune(m.via))) {
                out[k] = m;
                k += 1;
            }
        }
        out.truncate(k);
    }
    if let Some(c) = &v.specials.citadels {
        c.restrict(pos, p, out, start);
    }
    if let Some(pop) = &v.specials.pawn_of_pawns
        && p.kind() == pop.relocated
    {
        pawn_of_pawns::rewrite_arrival(pop, pos, p, out, start);
    }
}

/// Keeps one move per (final square, captured squares, promotion).
fn dedupe(out: &mut Vec<Move>, start: usize) {
    let key = |x: &Move| {
        (
            x.to,
            if x.via_capture { x.via } else { Square::NONE },
            x.promo,
        )
    };
    let mut kept = start;
    for i in start..out.len() {
        let m = out[i];
        if !out[start..kept].iter().any(|o| key(o) == key(&m)) {
            out[kept] = m;
            kept += 1;
        }
    }
    out.truncate(kept);
}

#[allow(clippy::too_many_arguments)]
fn walk(
    pos: &Position,
    v: &Variant,
    p: Piece,
    from: Square,
    legs: &[CompiledLeg],
    k: usize,
    cur: Square,
    via: Square,
    via_cap: bool,
    out: &mut Vec<Move>,
) {
    let leg = legs[k];
    let last = k + 1 == legs.len();
    let enemy = p.side().flip();
    let mut s = cur;
    for _ in 0..leg.max {
        s = s.shift(leg.off);
        let mut c = pos.at(s);
        if s == from || (via_cap && s == via) {
            c = Piece::EMPTY;
        }
        if c == Piece::WALL {
            break;
        }
        if last {
            if c.is_empty() {
                if leg.mode.to_empty {
                    // Only passes and captures on the way need the first stop to identify the move.
                    let keep = via_cap || s == from;
                    let first = if k == 0 { Square::NONE } else { via };
                    push(
                        v,
                        p,
                        from,
                        s,
                        if keep { first } else { Square::NONE },
                        via_cap,
                        false,
                        out,
                    );
                }
            } else if leg.mode.capture && c.is_side(enemy) {
                let first = if via_cap { via } else { Square::NONE };
                push(v, p, from, s, first, via_cap, true, out);
            }
        } else if c.is_empty() {
            if leg.mode.to_empty {
                let nv = if k == 0 { s } else { via };
                walk(pos, v, p, from, legs, k + 1, s, nv, via_cap, out);
            }
        } else if leg.mode.capture && c.is_side(enemy) && !via_cap && k == 0 {
            walk(pos, v, p, from, legs, k + 1, s, s, true, out);
        } else if leg.mode.hop_any {
            let nv = if k == 0 { s } else { via };
            walk(pos, v, p, from, legs, k + 1, s, nv, via_cap, out);
        }
        if !c.is_empty() {
            break;
        }
    }
}

/// Adds the move from `from` to `to` with the promotion choices it has.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn push(
    v: &Variant,
    p: Piece,
    from: Square,
    to: Square,
    via: Square,
    via_cap: bool,
    capture: bool,
    out: &mut Vec<Move>,
) {
    let mut m = Move::new(from, to);
    m.via = via;
    m.via_capture = via_cap;
    if !v.any_promotion {
        out.push(m);
        return;
    }
    let info = &v.pieces[p.kind() as usize];
    let side = p.side();
    if !info.promotes_to.is_empty() {
        if v.in_zone(to, side) {
            for &t in &info.promotes_to {
                m.promo = t + 1;
                out.push(m);
            }
        } else {
            out.push(m);
        }
        return;
    }
    let Some(promoted) = info.promoted else {
        out.push(m);
        return;
    };
    let pr = &v.promotion;
    let (zf, zt) = (v.in_zone(from, side), v.in_zone(to, side));
    let captured = capture || via_cap;
    let dead = v.dead[p.kind() as usize][side.index()][v.geometry.compact(to)];
    let may = match pr.when {
        PromotionWhen::StartOrEnd => zf || zt,
        PromotionWhen::End => zt,
        PromotionWhen::Chu => (!zf && zt) || (zf && captured),
    } || (pr.relief[p.kind() as usize] && !captured && dead);
    if !may {
        out.push(m);
        return;
    }
    if !(pr.forced_if_dead && dead) {
        out.push(m);
    }
    m.promo = promoted + 1;
    out.push(m);
}

fn castling_moves(pos: &Position, v: &Variant, out: &mut Vec<Move>) {
    let rule = v.rules.castling.as_ref().expect("checked by caller");
    let side = pos.side();
    let s = side.index();
    let g = &v.geometry;
    let king = rule.king[s];
    let kp = pos.at(king);
    if !kp.is_side(side) || !v.pieces[kp.kind() as usize].royal {
        return;
    }
    let mut checked = None;
    for (wing, bit) in CASTLE_BITS[s].iter().enumerate() {
        if pos.castling() & bit == 0 {
            continue;
        }
        let rook = rule.rooks[s][wing];
        if !pos.at(rook).is_side(side) {
            continue;
        }
        let (kf, rf, rank) = (
            g.file(king) as i32,
            g.file(rook) as i32,
            g.rank(king) as i32,
        );
        let dir = if rf > kf { 1 } else { -1 };
        // Every square strictly between King and Rook must be empty.
        let mut f = kf + dir;
        let mut clear = true;
        while f != rf {
            match g.square(f, rank) {
                Some(q) if pos.at(q).is_empty() => {}
                _ => clear = false,
            }
            f += dir;
        }
        if !clear {
            continue;
        }
        for &d in &rule.distances {
            let kt = kf + dir * d as i32;
            if (rf - kt) * dir <= 0 {
                continue;
            }
            if *checked.get_or_insert_with(|| is_attacked(pos, king, side.flip())) {
                return;
            }
            // The King may not cross an attacked square; its landing square is
            // tested by the legality check after the move.
            let crosses = (1..d as i32).any(|i| {
                g.square(kf + dir * i, rank)
                    .is_none_or(|q| is_attacked(pos, q, side.flip()))
            });
            if crosses {
                continue;
            }
            let Some(to) = g.square(kt, rank) else {
                continue;
            };
            let mut m = Move::new(king, to);
            m.kind = MoveKind::Castle;
            m.extra = rook;
            out.push(m);
        }
    }
}

/// The first cell that is not empty from `from` along `step` (a piece or a
/// wall), and its distance in steps.
#[inline(always)]
pub(crate) fn first_on_ray(pos: &Position, from: Square, step: i16) -> (Square, u32) {
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
fn reaches_back(
    pos: &Position,
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
fn pins_back(
    pos: &Position,
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

/// Is `target` attacked by a piece of `by`: could one of `by`'s pieces
/// capture there by its movement, whatever that would do to its own royal?
/// In Hiashatar, in the sense of check: Bodyguards do not count and zones
/// bound the others (special/bodyguard.rs).
/// A frozen piece ([`Position::frozen`]) attacks nothing.
pub fn is_attacked(pos: &Position, target: Square, by: Side) -> bool {
    let v = pos.variant();
    if let Some(c) = &v.specials.citadels
        && c.is_sanctuary(target)
    {
        return false;
    }
    if let Some(bg) = &v.specials.bodyguard {
        return bodyguard::is_attacked(bg, pos, target, by);
    }
    let t = &v.attacks[by.index()];
    let frozen = pos.frozen();
    for &(off, mask) in &t.leaps {
        let s = target.shift(off);
        let p = pos.at(s);
        if p.is_side(by) && mask & (1u128 << p.kind()) != 0 && s != frozen {
            return true;
        }
    }
    for (step, list) in &t.rides {
        let (s, d) = first_on_ray(pos, target, *step);
        let p = pos.at(s);
        if p.is_side(by) && rider_reaches(list, p, d) && s != frozen {
            return true;
        }
    }
    for &(first, slide, max, mask) in &t.bents {
        // Walk back along the slide over empty squares; each may be the
        // first stop, with the attacker one first step behind it.
        let mut s = target;
        for _ in 0..max {
            s = s.shift(-slide);
            if !pos.at(s).is_empty() {
                break;
            }
            let a = s.shift(-first);
            let p = pos.at(a);
            if p.is_side(by) && mask & (1u128 << p.kind()) != 0 && a != frozen {
                return true;
            }
        }
    }
    for &(step, mask, max, grasshopper) in &t.hops {
        // Walk back to the screen, then on to the hopper.
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
            if p.is_side(by) && mask & (1u128 << p.kind()) != 0 && d <= max as u32 && s != frozen {
                return true;
            }
            break;
        }
    }
    if let Some(ck) = &v.specials.checker
        && checker::attacks(ck, pos, target, by)
    {
        return true;
    }
    for (legs, mask) in &t.multi {
        if reaches_back(pos, legs, legs.len() - 1, target, by, *mask) {
            return true;
        }
    }
    if t.complex != 0 {
        let mut buf = Vec::new();
        for &sq in pos.pieces(by) {
            let p = pos.at(sq);
            if t.complex & (1u128 << p.kind()) == 0 || sq == frozen {
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

/// Is any royal of `side` attacked?
pub fn in_check(pos: &Position, side: Side) -> bool {
    pos.royals(side)
        .iter()
        .any(|&r| is_attacked(pos, r, side.flip()))
}

/// After a move has been made: did it leave the mover's only royal attacked
/// where the variant forbids that, or break a rule of a special module that
/// forbids moves (Chu's Lion trading, rules/chu-shogi.md 6.4; a relocation
/// of Tamerlane's pawn of pawns that neither forks nor traps, 5.2)? A
/// search that makes pseudo-legal moves calls this after each make and takes
/// the move back when it says yes; variants without such a module pay one
/// branch. The position is the same afterwards (the relocation test makes
/// and takes back the opponent's replies).
#[inline]
pub fn mover_exposed(pos: &mut Position) -> bool {
    let v = pos.variant();
    if let Some(lt) = &v.specials.lion_trading
        && lion::violated(lt, pos)
    {
        return true;
    }
    if royal_exposed(pos) {
        return true;
    }
    v.specials.pawn_of_pawns.is_some()
        && pos
            .last_move()
            .is_some_and(|m| m.kind == MoveKind::Relocate)
        && !pawn_of_pawns::relocation_holds(pos)
}

/// After a move has been made: is the mover's only royal attacked where the
/// variant forbids that (the check rule alone, without the special
/// modules' bans)?
#[inline]
pub fn royal_exposed(pos: &Position) -> bool {
    let v = pos.variant();
    if !v.rules.royal_safety {
        return false;
    }
    let mover = pos.side().flip();
    let r = pos.royals(mover);
    if v.rules.royals_counted_before_move
        && r.len() == 2
        && let Some(m) = pos.last_move()
        && m.promotion().is_some_and(|t| v.pieces[t as usize].royal)
    {
        // Fairy-Stockfish's reading: a royal made by this very promotion does
        // not yet relieve the one the mover had.
        let old = if r[0] == m.to { r[1] } else { r[0] };
        return is_attacked(pos, old, pos.side());
    }
    r.len() == 1 && is_attacked(pos, r[0], pos.side())
}

/// After a move has been made: does the variant forbid it as a repetition
/// (rules/chu-shogi.md 6.5, `repetition=forbidden`)? True when the position
/// now on the board occurred before with the same side to move and the mover
/// had no royal attacked before the move. Only positions since the start of
/// the game record count. Takes the move back and remakes it to judge the
/// check, which happens only when the position repeats.
pub fn repetition_banned(pos: &mut Position) -> bool {
    if !pos.variant().rules.repetition_forbidden {
        return false;
    }
    let h = pos.history();
    let last = h.len() - 1;
    let now = h[last];
    let repeats = (2..=last).step_by(2).any(|back| h[last - back] == now);
    if !repeats {
        return false;
    }
    let Some(m) = pos.last_move() else {
        return false;
    };
    pos.unmake();
    let was_in_check = in_check(pos, pos.side());
    pos.make(m);
    !was_in_check
}

/// When the side to move has one royal, is not in check and the opponent
/// attacks only by leaps and slides, a move is legal unless it moves the
/// royal, moves a pinned piece, or removes a piece other than on its
/// destination. Returns the royal square and the pinned squares, or `None`
/// when every move must be tried.
fn shortcut(pos: &Position) -> Option<(Square, [Square; 8], usize)> {
    let v = pos.variant();
    let side = pos.side();
    let opp = side.flip();
    let t = &v.attacks[opp.index()];
    if !v.rules.royal_safety
        || t.complex != 0
        || !t.hops.is_empty()
        || !t.bents.is_empty()
        || v.ripening
        || v.specials.capture_promotion.is_some()
        || v.specials.hostile_promotion.is_some()
    {
        return None;
    }
    let r = pos.royals(side);
    if r.len() != 1 || pos.opening_pending(side) {
        return None;
    }
    let k = r[0];
    if is_attacked(pos, k, opp) {
        return None;
    }
    let mut pinned = [Square::NONE; 8];
    let mut n = 0;
    for (legs, mask) in &t.multi {
        if !pins_back(
            pos,
            legs,
            legs.len() - 1,
            k,
            opp,
            *mask,
            Square::NONE,
            &mut pinned,
            &mut n,
        ) {
            return None;
        }
    }
    for (step, list) in &t.rides {
        let (blocker, d0) = first_on_ray(pos, k, *step);
        if !pos.at(blocker).is_side(side) {
            continue;
        }
        let (s, d) = first_on_ray(pos, blocker, *step);
        let p = pos.at(s);
        if p.is_side(opp) && rider_reaches(list, p, d0 + d) {
            if n == pinned.len() {
                return None;
            }
            pinned[n] = blocker;
            n += 1;
        }
    }
    Some((k, pinned, n))
}

#[inline(always)]
fn needs_trial(m: &Move, k: Square, pinned: &[Square]) -> bool {
    m.from == k || m.via_capture || m.kind != MoveKind::Normal || pinned.contains(&m.from)
}

/// Before the move: is `m`, pseudo-legal here, allowed by the special
/// modules that forbid moves (Chu's Lion trading, rules/chu-shogi.md 6.4;
/// Tamerlane's relocation rule, 5.2)? Royal safety is not judged. Makes and
/// unmakes `m` only when it takes a Lion under those rules or relocates a
/// pawn of pawns.
pub fn special_legal(pos: &mut Position, m: Move) -> bool {
    if m.kind == MoveKind::Relocate {
        pos.make(m);
        let ok = pawn_of_pawns::relocation_holds(pos);
        pos.unmake();
        return ok;
    }
    let Some(lt) = pos.variant().specials.lion_trading else {
        return true;
    };
    if !lion::captures_lion(&lt, pos, m) {
        return true;
    }
    pos.make(m);
    let bad = lion::violated(&lt, pos);
    pos.unmake();
    !bad
}

/// Must `m` be made to judge it: does it take a Lion under the Lion-trading
/// rules, or can it expose the royal?
#[inline(always)]
fn trial(
    pos: &Position,
    lt: &Option<LionTrading>,
    safety: bool,
    fast: &Option<(Square, [Square; 8], usize)>,
    m: &Move,
) -> bool {
    if let Some(lt) = lt
        && lion::captures_lion(lt, pos, *m)
    {
        return true;
    }
    if m.kind == MoveKind::Relocate {
        return true;
    }
    if let Some(bg) = &pos.variant().specials.bodyguard
        && safety
        && bodyguard::may_expose(bg, pos, m)
    {
        return true;
    }
    safety
        && match fast {
            Some((k, pinned, n)) => needs_trial(m, *k, &pinned[..*n]),
            None => true,
        }
}

/// Appends the legal moves of the side to move (game-end rules aside: see
/// [`crate::outcome`]): royal safety where the variant has it, and the
/// special modules' bans (Lion trading, rules/chu-shogi.md 6.4).
pub fn legal_moves(pos: &mut Position, out: &mut Vec<Move>) {
    if let Some(ck) = pos.variant().specials.checker {
        // Series, forced continuations and the compulsory-capture filter.
        checker::legal_moves(&ck, pos, out);
        return;
    }
    let start = out.len();
    pseudo_moves(pos, out);
    keep_legal(pos, out, start);
    if out.len() == start && has_fallback(pos.variant()) {
        fallback_moves(pos, out);
        keep_legal(pos, out, start);
    }
}

/// Keeps the legal moves of `out[start..]`.
fn keep_legal(pos: &mut Position, out: &mut Vec<Move>, start: usize) {
    let lt = pos.variant().specials.lion_trading;
    let safety = pos.variant().rules.royal_safety;
    let no_repeats = pos.variant().rules.repetition_forbidden;
    if !safety && lt.is_none() && !no_repeats && pos.variant().specials.pawn_of_pawns.is_none() {
        return;
    }
    let fast = if safety { shortcut(pos) } else { None };
    let mut i = start;
    while i < out.len() {
        let m = out[i];
        if !no_repeats && !trial(pos, &lt, safety, &fast, &m) {
            i += 1;
            continue;
        }
        pos.make(m);
        let bad = mover_exposed(pos) || repetition_banned(pos);
        pos.unmake();
        if bad {
            out.swap_remove(i);
        } else {
            i += 1;
        }
    }
}

/// Number of legal moves, without keeping them.
pub fn count_legal(pos: &mut Position, buf: &mut Vec<Move>) -> u64 {
    buf.clear();
    if pos.variant().specials.checker.is_some() {
        legal_moves(pos, buf);
        return buf.len() as u64;
    }
    pseudo_moves(pos, buf);
    let n = count_kept(pos, buf);
    if n > 0 || !has_fallback(pos.variant()) {
        return n;
    }
    buf.clear();
    fallback_moves(pos, buf);
    count_kept(pos, buf)
}

/// Number of legal moves in `buf`.
fn count_kept(pos: &mut Position, buf: &[Move]) -> u64 {
    let lt = pos.variant().specials.lion_trading;
    let safety = pos.variant().rules.royal_safety;
    let no_repeats = pos.variant().rules.repetition_forbidden;
    if !safety && lt.is_none() && !no_repeats && pos.variant().specials.pawn_of_pawns.is_none() {
        return buf.len() as u64;
    }
    let fast = if safety { shortcut(pos) } else { None };
    let mut n = 0;
    for &m in buf.iter() {
        if !no_repeats && !trial(pos, &lt, safety, &fast, &m) {
            n += 1;
            continue;
        }
        pos.make(m);
        if !mover_exposed(pos) && !repetition_banned(pos) {
            n += 1;
        }
        pos.unmake();
    }
    n
}
