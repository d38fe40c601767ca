//! Move generation from compiled atoms, attack detection and legality.
//!
//! Generation is pseudo-legal (every move the pieces' paths allow, with
//! promotions, castling and en passant); [`legal_moves`] keeps those after
//! which the mover's only royal is not attacked (when the variant has that
//! rule). Attacks are found by looking outward from the target square with
//! the reverse of every leap and slide in the variant; pieces whose captures
//! cannot be reversed so simply (hoppers, multi-leg) are asked directly.

use crate::board::EnPassant;
use crate::geometry::Square;
use crate::leaps::{AttackBounds, Free, leaps_and_rides};
use crate::moves::{Move, MoveKind};
use crate::piece::{CompiledLeg, Moveset, Piece, Side};
use crate::position::{CASTLE_BITS, Position};
use crate::push::{push, push_quiet};
use crate::rays::{bent_starts, first_on_ray, pins_back, reaches_back, rider_reaches};
use crate::special::Guards;
use crate::variant::Variant;
use std::sync::Arc;

/// Appends every pseudo-legal move of the side to move to `out`.
pub fn pseudo_moves(pos: &Position, out: &mut Vec<Move>) {
    pseudo_plain(pos, out);
    let sp = &pos.variant().specials;
    if sp.has_series() {
        for &sq in pos.pieces(pos.side()) {
            sp.series_moves(pos, sq, false, out);
        }
    }
}

/// The pseudo-legal moves of [`pseudo_moves`] but the families' move
/// series (the Checker's, which its family generates with its own rules).
pub fn pseudo_plain(pos: &Position, out: &mut Vec<Move>) {
    pseudo_plain_of(pos, |_| true, out);
}

/// [`pseudo_plain`]'s moves, of only the pieces on the squares where
/// `keep` holds (castling, the families' extra moves and a compulsory
/// opening move kept whatever it says), in [`pseudo_plain`]'s order: a
/// search that wants the moves of a few pieces (quiescence's quiet
/// checks) generates no others.
#[inline]
pub fn pseudo_plain_of(pos: &Position, keep: impl Fn(Square) -> bool, out: &mut Vec<Move>) {
    let side = pos.side();
    let v = pos.variant();
    if pos.opening_pending(side) {
        out.extend(v.specials.opening_move(side));
        return;
    }
    let guards = v.specials.guards(pos);
    for &sq in pos.pieces(side) {
        if sq == pos.frozen() || !keep(sq) {
            continue;
        }
        let start = out.len();
        gen_moves::<true>(pos, v, sq, pos.at(sq), &guards, out);
        v.specials.expand_piece_moves(pos, start, out);
    }
    if v.rules.castling.is_some() && pos.castling() != 0 {
        castling_moves(pos, v, out);
    }
    v.specials.extra_moves(pos, out);
}

/// Appends the moves the side to move has only when it has no other legal
/// move (Tamerlane's King swap when stalemated, or when mated under
/// `swap=mated-only`; rules/tamerlane.md 5.4). [`legal_moves`] and
/// [`count_legal`] add them themselves; a search over [`pseudo_moves`]
/// calls this when none of those was legal
/// ([`crate::variant::Capabilities::has_fallback`]). Pseudo-legal.
pub fn fallback_moves(pos: &Position, out: &mut Vec<Move>) {
    pos.variant().specials.fallback_moves(pos, out);
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
    let guards = v.specials.guards(pos);
    for &sq in pos.pieces(side) {
        if sq == pos.frozen() {
            continue;
        }
        let start = out.len();
        gen_moves::<false>(pos, v, sq, pos.at(sq), &guards, out);
        v.specials.expand_piece_moves(pos, start, out);
        if v.specials.has_series() {
            v.specials.series_moves(pos, sq, true, out);
        }
    }
    v.specials.extra_noisy_moves(pos, out);
}

/// Appends the pseudo-legal moves of the piece `p` on `sq` (no castling).
pub fn piece_moves(pos: &Position, v: &Variant, sq: Square, p: Piece, out: &mut Vec<Move>) {
    gen_moves::<true>(pos, v, sq, p, &v.specials.guards(pos), out);
}

#[inline(always)]
fn gen_moves<const QUIET: bool>(
    pos: &Position,
    v: &Variant,
    sq: Square,
    p: Piece,
    guards: &Guards,
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
    if !v
        .specials
        .bounded_moves::<_, QUIET>(guards, pos, ms, sq, p, initial, promotable, out)
    {
        leaps_and_rides::<_, _, QUIET>(pos, v, ms, sq, p, initial, promotable, &Free, out);
    }
    if !ms.hops.is_empty() {
        hop_moves::<QUIET>(pos, v, ms, sq, p, initial, promotable, out);
    }
    if !ms.multi.is_empty() {
        multi_leg_moves::<QUIET>(pos, v, ms, sq, p, initial, start, out);
    }
    if v.rules.en_passant
        && let Some(ep) = pos.en_passant()
        && v.pieces[kind].pawn
        && pos.at(ep.victim).is_side(side.flip())
    {
        en_passant_moves(pos, v, ms, ep, sq, p, out);
    }
    if v.caps.restricts {
        v.specials.restrict_piece_moves(pos, p, out, start);
    }
}

/// The hoppers' moves of `p` on `sq` (a screen, then on), as
/// [`gen_moves`] makes them.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn hop_moves<const QUIET: bool>(
    pos: &Position,
    v: &Variant,
    ms: &Moveset,
    sq: Square,
    p: Piece,
    initial: bool,
    promotable: bool,
    out: &mut Vec<Move>,
) {
    let side = p.side();
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
}

/// The multi-leg moves of `p` on `sq`, one per (final square, captured
/// squares, promotion); without `QUIET` only captures and promotions.
/// `start`: where `p`'s moves begin in `out`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn multi_leg_moves<const QUIET: bool>(
    pos: &Position,
    v: &Variant,
    ms: &Moveset,
    sq: Square,
    p: Piece,
    initial: bool,
    start: usize,
    out: &mut Vec<Move>,
) {
    let side = p.side();
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
            if m.via_capture || m.promo != 0 || (m.to != m.from && pos.at(m.to).is_side(enemy)) {
                out[k] = m;
                k += 1;
            }
        }
        out.truncate(k);
    }
}

/// The en-passant captures of the pawn `p` on `sq` (`ms`: its moveset)
/// onto the passed squares of `ep`, whose victim is an enemy.
#[inline(always)]
fn en_passant_moves(
    pos: &Position,
    v: &Variant,
    ms: &Moveset,
    ep: EnPassant,
    sq: Square,
    p: Piece,
    out: &mut Vec<Move>,
) {
    for l in &ms.leaps {
        if !(l.en_passant || (l.capture && !l.quiet)) {
            continue;
        }
        let t = sq.shift(l.off);
        if ep.squares[..ep.count as usize].contains(&t) && pos.at(t).is_empty() {
            // A plain step to `t` is a different move with the same squares.
            let twin = ms.leaps.iter().any(|q| q.quiet && q.off == l.off)
                || ms
                    .rides
                    .iter()
                    .any(|r| r.quiet && r.off == l.off && r.min <= 1);
            let before = out.len();
            push(v, p, sq, t, Square::NONE, false, true, out);
            for m in &mut out[before..] {
                m.kind = MoveKind::EnPassant;
                m.extra = ep.victim;
                m.ep_mark = twin;
            }
        }
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

/// Is `target` attacked by a piece of `by`: could one of `by`'s pieces
/// capture there by its movement, whatever that would do to its own royal?
/// In Hiashatar, in the sense of check: Bodyguards do not count and zones
/// bound the others (special/bodyguard.rs).
/// A frozen piece ([`Position::frozen`]) attacks nothing.
pub fn is_attacked(pos: &Position, target: Square, by: Side) -> bool {
    let v = pos.variant();
    if v.specials.is_sanctuary(target) {
        return false;
    }
    match v.specials.attack_bounds(pos, by) {
        Some(bounds) => attacked_with(pos, v, target, by, &bounds),
        None => attacked_with(pos, v, target, by, &Free),
    }
}

/// [`is_attacked`] under `bounds` on the attackers.
#[inline(always)]
fn attacked_with<Z: AttackBounds>(
    pos: &Position,
    v: &Variant,
    target: Square,
    by: Side,
    bounds: &Z,
) -> bool {
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
            if p.is_side(by) && mask & allowed & (1u128 << p.kind()) != 0 && a != frozen {
                return true;
            }
        }
    }
    for &(step, mask, max, grasshopper) in &t.hops {
        // Walk back to the screen, then on to the hopper.
        let (mut s, mut d) = first_on_ray(pos, target, step);
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
        // Unlike `attackers`, no line's end is remembered: a royal, the
        // usual target, mostly stands among its own pieces, where lines
        // end at once and remembering costs more than it saves.
        let at = |s: Square| pos.at(s);
        for ((legs, mask), straight) in t.multi.iter().zip(&t.plan.multi) {
            let mask = *mask & allowed;
            let found = match straight {
                // A path with a slide (a Giraffe's) reads each square of it
                // once. Like `reaches_back`, it does not ask about the frozen
                // piece (kept so, so that no search changes).
                Some(b) => {
                    let (_, end) = first_on_ray(pos, target, b.step);
                    bent_starts(b, target, end, by, mask, &at, |_| true)
                }
                None => reaches_back(pos, legs, legs.len() - 1, target, by, mask),
            };
            if found {
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

/// Is any royal of `side` attacked?
pub fn in_check(pos: &Position, side: Side) -> bool {
    pos.royals(side)
        .iter()
        .any(|&r| is_attacked(pos, r, side.flip()))
}

/// After a move has been made: did it leave the mover's only royal attacked
/// where the variant forbids that, or break a rule of a family that
/// forbids moves (Chu's Lion trading, rules/chu-shogi.md 6.4; a relocation
/// of Tamerlane's pawn of pawns that neither forks nor traps, 5.2)? A
/// search that makes pseudo-legal moves calls this after each make (or
/// [`made_illegal`], which adds the repetition ban) and takes the move back
/// when it says yes; variants without such a family pay one branch. The
/// position is the same afterwards.
#[inline]
pub fn mover_exposed(pos: &mut Position) -> bool {
    if !pos.variant().caps.bans_moves {
        return royal_exposed(pos);
    }
    let sp = &pos.variant().specials;
    if sp.forbids(pos) {
        return true;
    }
    if royal_exposed(pos) {
        return true;
    }
    sp.needs_reply_trial(pos) && Arc::clone(pos.variant()).specials.forbids_after_trial(pos)
}

/// After a move has been made: does any rule forbid it (royal safety, the
/// families' bans, the repetition ban)? The one test of a move made
/// pseudo-legally; the position is the same afterwards.
#[inline]
pub fn made_illegal(pos: &mut Position) -> bool {
    mover_exposed(pos) || repetition_banned(pos)
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
    if !v.caps.pin_shortcut[side.index()] {
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

/// Before the move: is `m`, pseudo-legal here, allowed by the families
/// that forbid moves (Chu's Lion trading, rules/chu-shogi.md 6.4;
/// Tamerlane's relocation rule, 5.2)? Royal safety is not judged. Makes and
/// unmakes `m` only when it takes a Lion under those rules or relocates a
/// pawn of pawns.
pub fn special_legal(pos: &mut Position, m: Move) -> bool {
    let v = Arc::clone(pos.variant());
    v.specials.allows(pos, m)
}

/// Must `m` be made to be judged: does a family need it made, or can it
/// expose the royal?
#[inline(always)]
fn trial(
    pos: &Position,
    family: bool,
    safety: bool,
    fast: &Option<(Square, [Square; 8], usize)>,
    m: &Move,
) -> bool {
    if family && pos.variant().specials.needs_trial(pos, m, safety) {
        return true;
    }
    safety
        && match fast {
            Some((k, pinned, n)) => needs_trial(m, *k, &pinned[..*n]),
            None => true,
        }
}

/// Appends the legal moves of the side to move (game-end rules aside: see
/// [`crate::outcome`]): royal safety where the variant has it, the
/// families' bans (Lion trading, rules/chu-shogi.md 6.4), their move series
/// and filters (the Checker's, rules/ordinary-variant.md 5.3-5.4), the
/// fallback moves when nothing else is legal.
pub fn legal_moves(pos: &mut Position, out: &mut Vec<Move>) {
    let start = out.len();
    let caps = pos.variant().caps;
    if caps.whole_legal_lists {
        // The families generate their series legal, then filter the list.
        let v = Arc::clone(pos.variant());
        pseudo_plain(pos, out);
        keep_legal(pos, out, start);
        v.specials.legal_series(pos, out);
        v.specials.filter_legal(pos, out, start);
        return;
    }
    pseudo_moves(pos, out);
    keep_legal(pos, out, start);
    if out.len() == start && caps.has_fallback {
        fallback_moves(pos, out);
        keep_legal(pos, out, start);
    }
}

/// Keeps the legal moves of `out[start..]`.
fn keep_legal(pos: &mut Position, out: &mut Vec<Move>, start: usize) {
    let safety = pos.variant().rules.royal_safety;
    let no_repeats = pos.variant().rules.repetition_forbidden;
    if !safety && !pos.variant().caps.bans_moves {
        return;
    }
    let family = pos.variant().caps.family_trials;
    let fast = if safety { shortcut(pos) } else { None };
    let mut i = start;
    while i < out.len() {
        let m = out[i];
        if !no_repeats && !trial(pos, family, safety, &fast, &m) {
            i += 1;
            continue;
        }
        pos.make(m);
        let bad = made_illegal(pos);
        pos.unmake();
        if bad {
            out.swap_remove(i);
        } else {
            i += 1;
        }
    }
}

/// Number of legal moves, without keeping them; `buf` is scratch space.
pub fn count_legal(pos: &mut Position, buf: &mut Vec<Move>) -> u64 {
    buf.clear();
    let caps = pos.variant().caps;
    if caps.whole_legal_lists {
        legal_moves(pos, buf);
        return buf.len() as u64;
    }
    pseudo_moves(pos, buf);
    let n = count_kept(pos, buf);
    if n > 0 || !caps.has_fallback {
        return n;
    }
    buf.clear();
    fallback_moves(pos, buf);
    count_kept(pos, buf)
}

/// Number of legal moves in `buf`.
fn count_kept(pos: &mut Position, buf: &[Move]) -> u64 {
    let safety = pos.variant().rules.royal_safety;
    let no_repeats = pos.variant().rules.repetition_forbidden;
    if !safety && !pos.variant().caps.bans_moves {
        return buf.len() as u64;
    }
    let family = pos.variant().caps.family_trials;
    let fast = if safety { shortcut(pos) } else { None };
    let mut n = 0;
    for &m in buf.iter() {
        if !no_repeats && !trial(pos, family, safety, &fast, &m) {
            n += 1;
            continue;
        }
        pos.make(m);
        if !made_illegal(pos) {
            n += 1;
        }
        pos.unmake();
    }
    n
}

/// A [`Position`] as the special-rule families see it
/// ([`crate::board::Board`]): the state accessors, and this module's
/// attack tests and generation as the services they call.
impl crate::board::Board for Position {
    #[inline(always)]
    fn core(&self) -> &crate::variant::core::Core {
        self.variant()
    }
    #[inline(always)]
    fn at(&self, sq: Square) -> Piece {
        Position::at(self, sq)
    }
    #[inline(always)]
    fn side(&self) -> Side {
        Position::side(self)
    }
    #[inline(always)]
    fn pieces(&self, side: Side) -> &[Square] {
        Position::pieces(self, side)
    }
    #[inline(always)]
    fn royals(&self, side: Side) -> &[Square] {
        Position::royals(self, side)
    }
    #[inline(always)]
    fn non_royal_count(&self, side: Side) -> usize {
        Position::non_royal_count(self, side)
    }
    #[inline(always)]
    fn en_passant(&self) -> Option<crate::board::EnPassant> {
        Position::en_passant(self)
    }
    #[inline(always)]
    fn swap_rights(&self) -> u8 {
        Position::swap_rights(self)
    }
    #[inline(always)]
    fn last_move(&self) -> Option<Move> {
        Position::last_move(self)
    }
    #[inline(always)]
    fn recent_move(&self, back: usize) -> Option<crate::board::RecentMove<'_>> {
        Position::recent_move(self, back)
    }
    #[inline(always)]
    fn is_attacked(&self, target: Square, by: Side) -> bool {
        is_attacked(self, target, by)
    }
    #[inline(always)]
    fn in_check(&self, side: Side) -> bool {
        in_check(self, side)
    }
    #[inline(always)]
    fn piece_moves(&self, sq: Square, p: Piece, out: &mut Vec<Move>) {
        piece_moves(self, self.variant(), sq, p, out)
    }
    #[inline(always)]
    fn pseudo_plain(&self, out: &mut Vec<Move>) {
        pseudo_plain(self, out)
    }
    #[inline(always)]
    fn royal_exposed(&self) -> bool {
        royal_exposed(self)
    }
    #[inline(always)]
    fn mover_exposed(&mut self) -> bool {
        mover_exposed(self)
    }
    #[inline(always)]
    fn make(&mut self, m: Move) {
        Position::make(self, m)
    }
    #[inline(always)]
    fn unmake(&mut self) {
        Position::unmake(self)
    }
    #[inline(always)]
    fn make_null(&mut self) -> crate::board::NullUndo {
        Position::make_null(self)
    }
    #[inline(always)]
    fn unmake_null(&mut self, u: crate::board::NullUndo) {
        Position::unmake_null(self, u)
    }
}
