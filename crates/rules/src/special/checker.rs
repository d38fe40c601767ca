//! Savard's Checker and the compulsory capture of Checkers
//! (rules/ordinary-variant.md 5.1-5.5, A4-A12; seed 001).
//!
//! - A Checker steps to an empty neighbour (Betza `mK`, the generic
//!   generator) or makes a *series* of jumps: over a piece on a neighbouring
//!   square to the empty square beyond, friendly jumps first, then capturing
//!   jumps (F\*C\*), never landing twice on a square, captured pieces gone at
//!   once (5.1 rules 1, 2, 4). A series must go on over an enemy Checker
//!   when such a jump leads to a legal move (rule 3, A6, A7).
//! - En passant: after a Pawn's double step, an adjacent enemy Checker may
//!   jump the passed square as its first jump, taking the Pawn (5.5, A11).
//! - A square is attacked by a Checker when some series (rules 1, 2, 4)
//!   takes a piece there; the en passant jump counts only when judging the
//!   double step itself (5.2, A12, A19).
//! - The compulsory-capture filter of 5.4 (A4, A5) picks the legal moves out
//!   of the moves that keep the King safe.
//!
//! A series is one [`Move`] of kind [`MoveKind::Checker`]: `from`, `to`, and
//! the direction of each leg, 3 bits a leg, packed with the leg count into
//! the `via` and `extra` fields (which no other use of this kind has), so
//! moves stay `Copy` and nothing is allocated ([`MAX_LEGS`] legs at most).
//! One move per (origin, final square, captured squares): among the paths
//! that give it, the shortest, then the smallest landing squares in turn.
//!
//! Hook points (through [`crate::special::Specials`]): [`attacks`] in the
//! attack test (`extra_attack`); [`series`] in pseudo-legal generation
//! (`series_moves`); [`legal_series_all`] and [`filter`] in legal
//! generation (`legal_series`, `filter_legal`); make and unmake walk the
//! path with [`for_each_leg`] (`for_each_series_leg`).

use crate::board::Board;
use crate::geometry::Square;
use crate::moves::{Move, MoveKind};
use crate::piece::{Piece, PieceType, Side};
use std::collections::{HashMap, HashSet};

/// Most legs a series can have: the leg count (4 bits) and 3 bits a leg fill
/// 31 of the 32 bits of `via` and `extra`. A longer series needs ten pieces
/// set out for it; kamil does not generate one (a documented limit).
pub const MAX_LEGS: usize = 9;

/// The eight King directions (files, ranks); the index is a leg's code.
pub use crate::betza::UNIT as DIRECTIONS;

/// The compiled `[special.checker]` table: which type is the Checker, the
/// board offsets of the eight directions, and the rule book's alternatives
/// (section 6), all off by default.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct CheckerRules {
    /// The Checker's piece type.
    pub kind: PieceType,
    /// Board offset of each direction of [`DIRECTIONS`].
    pub offsets: [i16; 8],
    /// The change of compact index (`rank * files + file`) of a step in
    /// each direction of [`DIRECTIONS`].
    pub steps: [i16; 8],
    /// For each direction of [`DIRECTIONS`], the squares (bits of compact
    /// indices) whose neighbour that way is a square of the board.
    pub stays: [u128; 8],
    /// Every square of the board, as bits of compact indices.
    pub squares: u128,
    /// A4 `ov.duty-first-capture`: the duty is met only by a move whose
    /// first capture is the exposed Checker.
    pub duty_first_capture: bool,
    /// A6 `ov.force-geometric`: a series must go on over an enemy Checker
    /// whenever such a jump is there, legal or not.
    pub force_geometric: bool,
    /// A7 `ov.force-after-capture-only`: no forced continuation after a
    /// friendly jump.
    pub force_after_capture_only: bool,
    /// A8 `ov.jumps-any-order`: friendly jumps may follow captures.
    pub jumps_any_order: bool,
    /// A9 `ov.revisit-allowed`: landing squares may repeat; only a series
    /// that captures nothing must end away from its start.
    pub revisit_allowed: bool,
    /// A10 `ov.remove-at-end`: jumped enemies block until the move ends.
    pub remove_at_end: bool,
    /// A11 `ov.ep-any-step`: the en passant jump may come at any step.
    pub ep_any_step: bool,
    /// A12 `ov.check-single-jump`: only a first, direct jump attacks.
    pub check_single_jump: bool,
}

/// The Checker series from `from` to `to` whose legs go in the directions
/// `dirs` (indices of [`DIRECTIONS`], at most [`MAX_LEGS`]).
pub fn series_move(from: Square, to: Square, dirs: &[u8]) -> Move {
    debug_assert!(!dirs.is_empty() && dirs.len() <= MAX_LEGS);
    let mut code = dirs.len() as u32;
    for (i, &d) in dirs.iter().enumerate() {
        code |= (d as u32 & 7) << (4 + 3 * i);
    }
    pack(from, to, code)
}

#[inline(always)]
fn pack(from: Square, to: Square, code: u32) -> Move {
    let mut m = Move::new(from, to);
    m.kind = MoveKind::Checker;
    m.via = Square(code as u16);
    m.extra = Square((code >> 16) as u16);
    m
}

#[inline(always)]
fn code_of(m: &Move) -> u32 {
    m.via.0 as u32 | (m.extra.0 as u32) << 16
}

/// Number of legs of a series move (0 for any other move).
#[inline(always)]
pub fn leg_count(m: &Move) -> usize {
    if m.kind == MoveKind::Checker {
        (code_of(m) & 15) as usize
    } else {
        0
    }
}

/// The direction (index of [`DIRECTIONS`]) of leg `i` of a series move.
#[inline(always)]
pub fn leg_direction(m: &Move, i: usize) -> usize {
    ((code_of(m) >> (4 + 3 * i)) & 7) as usize
}

/// Calls `f(jumped, landed)` for each leg of the series move `m`, in order.
#[inline]
pub fn for_each_leg(ck: &CheckerRules, m: &Move, mut f: impl FnMut(Square, Square)) {
    let mut cur = m.from;
    for i in 0..leg_count(m) {
        let off = ck.offsets[leg_direction(m, i)];
        let mid = cur.shift(off);
        cur = mid.shift(off);
        f(mid, cur);
    }
}

/// The landing squares of a series move, in order, and their number.
pub fn landings(ck: &CheckerRules, m: &Move) -> ([Square; MAX_LEGS], usize) {
    let mut out = [Square::NONE; MAX_LEGS];
    let mut n = 0;
    for_each_leg(ck, m, |_, land| {
        out[n] = land;
        n += 1;
    });
    (out, n)
}

/// Bit of a square in a 128-bit set of compact indices (boards of at most
/// 128 squares; checked when the variant loads).
#[inline(always)]
fn bit<B: Board>(pos: &B, sq: Square) -> u128 {
    1u128 << pos.core().geometry.compact(sq)
}

/// What a move removes, as a set of squares, and the first square it
/// removes a piece from (in the order of the series), before it is made.
pub fn captures<B: Board>(ck: &CheckerRules, pos: &B, m: &Move) -> (u128, Option<Square>) {
    let enemy = pos.side().flip();
    match m.kind {
        // Relocate and Transfer (Tamerlane's pawn of pawns) may take on `to`.
        MoveKind::Normal | MoveKind::Relocate | MoveKind::Transfer => {
            let mut set = 0;
            let mut first = None;
            if m.via_capture {
                set |= bit(pos, m.via);
                first = Some(m.via);
            }
            if m.to != m.from && pos.at(m.to).is_side(enemy) {
                set |= bit(pos, m.to);
                first = first.or(Some(m.to));
            }
            (set, first)
        }
        MoveKind::EnPassant => (bit(pos, m.extra), Some(m.extra)),
        MoveKind::Checker => {
            let mut set = 0u128;
            let mut first = None;
            for_each_capture(ck, pos, m, |v| {
                set |= bit(pos, v);
                first = first.or(Some(v));
            });
            (set, first)
        }
        MoveKind::Castle | MoveKind::Opening | MoveKind::Swap | MoveKind::CitadelSwap => (0, None),
    }
}

/// Calls `f` with each square whose piece the series `m` takes, before it
/// is made (the jumped enemies and a Pawn taken en passant).
pub fn for_each_capture<B: Board>(ck: &CheckerRules, pos: &B, m: &Move, mut f: impl FnMut(Square)) {
    let enemy = pos.side().flip();
    let ep = pos.en_passant();
    let mut taken = 0u128;
    for_each_leg(ck, m, |mid, _| {
        let p = pos.at(mid);
        let victim = if p.is_side(enemy) {
            Some(mid)
        } else if p.is_empty() {
            // Only the en passant jump passes an empty square.
            ep.map(|e| e.victim)
        } else {
            None
        };
        if let Some(v) = victim
            && taken & bit(pos, v) == 0
        {
            taken |= bit(pos, v);
            f(v);
        }
    });
}

/// One possible jump from a landing square.
#[derive(Clone, Copy)]
struct Jump {
    dir: u8,
    land: Square,
    /// The square whose piece it removes (the jumped one, or the Pawn taken
    /// en passant), if it captures.
    victim: Option<Square>,
    /// It captures an enemy Checker (the jumps rule 3 forces).
    takes_checker: bool,
}

/// The state of a series being walked: where it is, what it visited and
/// removed, and its legs so far.
#[derive(Clone, Copy)]
struct Walk {
    from: Square,
    cur: Square,
    visited: u128,
    removed: u128,
    captured: bool,
    last_captured: bool,
    legs: u32,
    n: usize,
    /// The landing squares in turn, 7 bits each (file, then rank: the
    /// notation's order of paths, 5.1), the first leg highest.
    key: u64,
}

impl Walk {
    fn start<B: Board>(pos: &B, from: Square) -> Walk {
        Walk {
            from,
            cur: from,
            visited: bit(pos, from),
            removed: 0,
            captured: false,
            last_captured: false,
            legs: 0,
            n: 0,
            key: 0,
        }
    }

    fn after<B: Board>(&self, pos: &B, j: &Jump) -> Walk {
        let mut w = *self;
        w.cur = j.land;
        w.visited |= bit(pos, j.land);
        if let Some(v) = j.victim {
            w.removed |= bit(pos, v);
        }
        w.captured |= j.victim.is_some();
        w.last_captured = j.victim.is_some();
        w.legs |= (j.dir as u32) << (3 * w.n);
        let g = &pos.core().geometry;
        let index = g.file(j.land) as u64 * g.ranks() as u64 + g.rank(j.land) as u64;
        w.key |= index << (7 * (MAX_LEGS - 1 - w.n));
        w.n += 1;
        w
    }

    /// The path's place in the notation's order (5.1): fewer legs first,
    /// then the smaller landing squares in turn.
    fn order(&self) -> u128 {
        (self.n as u128) << 64 | self.key as u128
    }

    fn to_move(self) -> Move {
        pack(self.from, self.cur, self.n as u32 | self.legs << 4)
    }

    /// May the series end here (A9: with revisits allowed, a series that
    /// took nothing must not end on its start)?
    fn may_end(&self) -> bool {
        self.n > 0 && (self.cur != self.from || self.captured)
    }
}

/// Who the series belongs to, and what the position allows it.
struct Ctx {
    me: Side,
    /// En passant: (passed square, victim square), when a Checker may take
    /// the Pawn that just double-stepped.
    ep: Option<(Square, Square)>,
    /// A square to treat as holding an enemy piece (an attack test on an
    /// empty square: castling's crossed squares).
    phantom: Square,
}

/// What stands on `sq` during the walk `w`: the origin is empty, captured
/// pieces are gone (A10: unless they stay until the move ends).
#[inline(always)]
fn cell<B: Board>(ck: &CheckerRules, pos: &B, cx: &Ctx, w: &Walk, sq: Square) -> Piece {
    if sq == w.from {
        return Piece::EMPTY;
    }
    if sq == cx.phantom {
        return Piece::new(0, cx.me.flip());
    }
    let p = pos.at(sq);
    if p.is_piece() && !ck.remove_at_end && w.removed & bit(pos, sq) != 0 {
        return Piece::EMPTY;
    }
    p
}

/// The jumps open to the series `w`, by rules 1, 2, 4 and the options;
/// calls `f` for each.
#[inline]
fn jumps<B: Board>(ck: &CheckerRules, pos: &B, cx: &Ctx, w: &Walk, mut f: impl FnMut(Jump)) {
    if w.n >= MAX_LEGS {
        return;
    }
    for (d, &off) in ck.offsets.iter().enumerate() {
        let mid = w.cur.shift(off);
        let land = mid.shift(off);
        if pos.at(land) == Piece::WALL || !cell(ck, pos, cx, w, land).is_empty() {
            continue;
        }
        if !ck.revisit_allowed && w.visited & bit(pos, land) != 0 {
            continue;
        }
        let p = cell(ck, pos, cx, w, mid);
        let jump = |victim: Option<Square>, takes_checker: bool| Jump {
            dir: d as u8,
            land,
            victim,
            takes_checker,
        };
        if p.is_empty() {
            // En passant: over the passed square, taking the Pawn (5.5, A11).
            if let Some((passed, victim)) = cx.ep
                && mid == passed
                && (w.n == 0 || ck.ep_any_step)
                && w.removed & bit(pos, victim) == 0
            {
                f(jump(Some(victim), false));
            }
        } else if p == Piece::WALL {
            continue;
        } else if p.is_side(cx.me) {
            if !w.captured || ck.jumps_any_order {
                f(jump(None, false));
            }
        } else if w.removed & bit(pos, mid) == 0 {
            f(jump(Some(mid), p.kind() == ck.kind));
        }
    }
}

/// The jumps open to the series `w`, as [`jumps`] gives them; where
/// revisits are allowed (A9), in the order of their landing squares (file,
/// then rank), so that a depth-first walk meets paths in [`Walk::order`]
/// and the first path to reach a [`state`] is the one the notation keeps.
#[inline]
fn next_jumps<B: Board>(
    ck: &CheckerRules,
    pos: &B,
    cx: &Ctx,
    w: &Walk,
) -> ([Option<Jump>; 8], usize) {
    let mut next = [None; 8];
    let mut k = 0;
    jumps(ck, pos, cx, w, |j| {
        next[k] = Some(j);
        k += 1;
    });
    if ck.revisit_allowed {
        let g = &pos.core().geometry;
        next[..k].sort_by_key(|j| j.map(|j| (g.file(j.land), g.rank(j.land))));
    }
    (next, k)
}

/// Where revisits are allowed (A9), what a series can still do depends only
/// on this: where it stands, what it removed, whether it captured (and
/// last captured), and its legs so far. Paths that meet one state are
/// walked once, from the first: without this, friendly jumps back and
/// forth multiply the paths up to [`MAX_LEGS`] legs (a perft of 2 took
/// 25 s on a board of Checkers).
type State = (u16, u128, u8);

fn state(w: &Walk) -> State {
    let flags = w.captured as u8 | (w.last_captured as u8) << 1 | (w.n as u8) << 2;
    (w.cur.0, w.removed, flags)
}

/// The en passant chance of the side to move's Checkers, if any.
fn ep_for_mover<B: Board>(pos: &B) -> Option<(Square, Square)> {
    let e = pos.en_passant()?;
    pos.at(e.victim)
        .is_side(pos.side().flip())
        .then_some((e.squares[0], e.victim))
}

/// The series of one Checker found so far, one per (final square, captured
/// squares), since those make one move (5.1, move identity): of the paths
/// that give it, the first in [`Walk::order`]. The moves are `out[start..]`,
/// in the order of `seen`.
struct Ends {
    start: usize,
    /// Final square, captured squares and order of each move kept.
    seen: Vec<(Square, u128, u128)>,
}

impl Ends {
    fn new(out: &[Move]) -> Ends {
        Ends {
            start: out.len(),
            seen: Vec::new(),
        }
    }

    /// Adds the series `w` ends, unless a path before it in the order gives
    /// the same move.
    fn add(&mut self, out: &mut Vec<Move>, w: &Walk) {
        let order = w.order();
        for (j, e) in self.seen.iter_mut().enumerate() {
            if e.0 == w.cur && e.1 == w.removed {
                if order < e.2 {
                    e.2 = order;
                    out[self.start + j] = w.to_move();
                }
                return;
            }
        }
        self.seen.push((w.cur, w.removed, order));
        out.push(w.to_move());
    }
}

/// Appends every series of the Checker on `from` allowed by 5.1 rules 1, 2
/// and 4 (no forced continuation, King safety not judged): the Checker's
/// part of the pseudo-legal moves `PL` (5.3).
pub fn series<B: Board>(ck: &CheckerRules, pos: &B, from: Square, out: &mut Vec<Move>) {
    let cx = Ctx {
        me: pos.side(),
        ep: ep_for_mover(pos),
        phantom: Square::NONE,
    };
    fn walk<B: Board>(
        ck: &CheckerRules,
        pos: &B,
        cx: &Ctx,
        w: &Walk,
        ends: &mut Ends,
        seen: &mut HashSet<State>,
        out: &mut Vec<Move>,
    ) {
        if ck.revisit_allowed && !seen.insert(state(w)) {
            return;
        }
        if w.may_end() {
            ends.add(out, w);
        }
        let (next, k) = next_jumps(ck, pos, cx, w);
        for j in next.iter().take(k).flatten() {
            walk(ck, pos, cx, &w.after(pos, j), ends, seen, out);
        }
    }
    let mut ends = Ends::new(out);
    let mut seen = HashSet::new();
    walk(
        ck,
        pos,
        &cx,
        &Walk::start(pos, from),
        &mut ends,
        &mut seen,
        out,
    );
}

/// Appends the legal series of the Checker on `from` (5.1 with rule 3, King
/// safety). With `only_first`, only series whose first jump is in that
/// direction. Returns whether any was found.
fn legal_series<B: Board>(
    ck: &CheckerRules,
    pos: &mut B,
    from: Square,
    only_first: Option<usize>,
    out: Option<&mut Vec<Move>>,
) -> bool {
    let mut out = Legal {
        ends: out.map(|o| (Ends::new(o), o)),
        known: HashMap::new(),
    };
    let cx = Ctx {
        me: pos.side(),
        ep: ep_for_mover(pos),
        phantom: Square::NONE,
    };
    let w = Walk::start(pos, from);
    let (firsts, k) = next_jumps(ck, pos, &cx, &w);
    let mut any = false;
    for j in firsts.iter().take(k).flatten() {
        if only_first.is_some_and(|d| d != j.dir as usize) {
            continue;
        }
        let next = w.after(pos, j);
        any |= legal_walk(ck, pos, &cx, &next, &mut out);
        if any && out.ends.is_none() {
            return true;
        }
    }
    any
}

/// What [`legal_walk`] collects: the legal ends (when asked for them), and
/// where revisits are allowed (A9) whether the walk below each [`state`]
/// met holds a legal end.
struct Legal<'a> {
    ends: Option<(Ends, &'a mut Vec<Move>)>,
    known: HashMap<State, bool>,
}

/// Post-order walk of the series tree below `w` (which has made at least
/// one jump): pushes each legal end and returns whether the subtree holds
/// one. An end is legal when the King is safe and no forced continuation
/// over an enemy Checker leads to a legal end (rule 3; A6: any such jump
/// forces under `ov.force-geometric`; A7: only after a capture under
/// `ov.force-after-capture-only`).
fn legal_walk<B: Board>(
    ck: &CheckerRules,
    pos: &mut B,
    cx: &Ctx,
    w: &Walk,
    out: &mut Legal,
) -> bool {
    if ck.revisit_allowed {
        // The same state gives the same answer; its ends are in already,
        // through the first path that met it.
        if let Some(&known) = out.known.get(&state(w)) {
            return known;
        }
        let r = legal_walk_below(ck, pos, cx, w, out);
        out.known.insert(state(w), r);
        return r;
    }
    legal_walk_below(ck, pos, cx, w, out)
}

/// [`legal_walk`] at `w`, its state not met before.
fn legal_walk_below<B: Board>(
    ck: &CheckerRules,
    pos: &mut B,
    cx: &Ctx,
    w: &Walk,
    out: &mut Legal,
) -> bool {
    let (next, k) = next_jumps(ck, pos, cx, w);
    let forcing_here = !ck.force_after_capture_only || w.last_captured;
    let mut any_below = false;
    let mut forced = false;
    for j in next.iter().take(k).flatten() {
        let child = w.after(pos, j);
        let below = legal_walk(ck, pos, cx, &child, out);
        any_below |= below;
        if j.takes_checker && forcing_here && (below || ck.force_geometric) {
            forced = true;
        }
        if any_below && out.ends.is_none() {
            return true;
        }
    }
    let mut ends = false;
    if !forced && w.may_end() {
        let m = w.to_move();
        pos.make(m);
        let exposed = pos.mover_exposed();
        pos.unmake();
        if !exposed {
            ends = true;
            if let Some((e, o)) = &mut out.ends {
                e.add(o, w);
            }
        }
    }
    ends || any_below
}

/// Is `target` attacked by a Checker of `by` (5.2)? Some series of rules 1,
/// 2 and 4 must take a piece on `target` (an empty target counts as holding
/// a piece of the other side: castling's crossed squares, 5.6). The en
/// passant jump counts only when `by` is to move just after a double step,
/// that is when the double step itself is judged (5.2, A19). Under
/// `ov.check-single-jump` only a first jump counts (A12).
pub fn attacks<B: Board>(ck: &CheckerRules, pos: &B, target: Square, by: Side) -> bool {
    let checker = Piece::new(ck.kind, by);
    let cx = Ctx {
        me: by,
        ep: if pos.side() == by {
            ep_for_mover(pos)
        } else {
            None
        },
        phantom: if pos.at(target).is_empty() {
            target
        } else {
            Square::NONE
        },
    };
    fn walk<B: Board>(
        ck: &CheckerRules,
        pos: &B,
        cx: &Ctx,
        w: &Walk,
        target: Square,
        useful: u128,
        seen: &mut HashSet<State>,
    ) -> bool {
        if ck.revisit_allowed && !seen.insert(state(w)) {
            return false;
        }
        let (next, k) = next_jumps(ck, pos, cx, w);
        let next = &next[..k];
        if next.iter().flatten().any(|j| j.victim == Some(target)) {
            return true;
        }
        if ck.check_single_jump {
            return false;
        }
        next.iter().flatten().any(|j| {
            useful & bit(pos, j.land) != 0
                && walk(ck, pos, cx, &w.after(pos, j), target, useful, seen)
        })
    }
    // With an en passant chance the over-estimate does not hold (its jump
    // passes an empty square): every square may be useful.
    let useful = if cx.ep.is_none() {
        match useful_squares(ck, pos, &cx, target, by) {
            Some(u) => u,
            None => return false,
        }
    } else {
        !0
    };
    pos.pieces(by).iter().any(|&sq| {
        pos.at(sq) == checker
            && useful & bit(pos, sq) != 0
            && walk(
                ck,
                pos,
                &cx,
                &Walk::start(pos, sq),
                target,
                useful,
                &mut HashSet::new(),
            )
    })
}

/// The squares from which a series of `by` could still go on to take on
/// `target` (no en passant in `cx`), or `None` if no series can: a quick
/// over-estimate run before the exact walk of [`attacks`], whose paths
/// multiply on crowded boards, and which then steps only on these squares.
///
/// It forgets the order of the phases, the squares visited and which
/// captures came first. A square is *open* (a series may land there) if it
/// is empty now or a Checker's origin; the reachable squares grow from the
/// Checkers by jumps over pieces onto open squares until nothing changes.
/// A square a series captured on is never one it lands on later (rule 4
/// of rules/ordinary-variant.md 5.1 would allow it): a jump moves the
/// Checker two squares along a file, rank or diagonal, so it lands only on
/// squares an even number of files and of ranks from its origin, while
/// each square it jumps over is an odd number of files or ranks away. (En
/// passant breaks this; [`attacks`] does not call this with it.) Every leg
/// of a real series is such a jump between reachable squares, so the
/// reachable squares from which such jumps lead to a jump over `target`
/// hold every square of every series that takes there: `None` is exact,
/// and so is walking only on the squares returned. Sets of squares are
/// bits of compact indices, moved a square at a time by [`step`].
fn useful_squares<B: Board>(
    ck: &CheckerRules,
    pos: &B,
    cx: &Ctx,
    target: Square,
    by: Side,
) -> Option<u128> {
    let enemy = by.flip();
    if cx.phantom != target && !pos.at(target).is_side(enemy) {
        return None;
    }
    let checker = Piece::new(ck.kind, by);
    // Most often no Checker has a first jump (its land taken by a piece of
    // its own): then nothing is reached.
    let jumps_first = |&sq: &Square| {
        pos.at(sq) == checker
            && ck.offsets.iter().any(|&off| {
                let mid = sq.shift(off);
                let land = pos.at(mid.shift(off));
                (mid == cx.phantom || pos.at(mid).is_piece())
                    && land != Piece::WALL
                    && (!land.is_side(by) || land == checker)
            })
    };
    if !pos.pieces(by).iter().any(jumps_first) {
        return None;
    }
    let (mut own, mut theirs, mut origins) = (0u128, 0u128, 0u128);
    for &sq in pos.pieces(by) {
        let b = bit(pos, sq);
        own |= b;
        if pos.at(sq) == checker {
            origins |= b;
        }
    }
    for &sq in pos.pieces(enemy) {
        theirs |= bit(pos, sq);
    }
    let victim = bit(pos, target);
    // An empty target counts as an enemy to jump, and stays a square to
    // land on.
    let phantom = if cx.phantom == target { victim } else { 0 };
    let jumpable = own | theirs | phantom;
    let lands_ok = (ck.squares & !(own | theirs)) | origins;
    let mut reach = origins;
    loop {
        let before = reach;
        for d in 0..8 {
            reach |= step(ck, step(ck, reach, d) & jumpable, d) & lands_ok;
        }
        if reach == before {
            break;
        }
    }
    // Backwards: first the squares that jump over `target` onto an open
    // square, then those that jump onto a useful square. DIRECTIONS turn
    // counter-clockwise: d + 4 is the way back from d.
    let mut useful = 0u128;
    for d in 0..8 {
        if step(ck, victim, d) & lands_ok != 0 {
            useful |= step(ck, victim, (d + 4) % 8) & reach;
        }
    }
    loop {
        let before = useful;
        for d in 0..8 {
            let back = (d + 4) % 8;
            useful |= step(ck, step(ck, useful, back) & jumpable, back) & reach;
        }
        if useful == before {
            break;
        }
    }
    (useful != 0).then_some(useful)
}

/// The squares of `set` (bits of compact indices) moved one square in
/// direction `d` of [`DIRECTIONS`]; those that would leave the board
/// (or land on a hole) are dropped.
#[inline(always)]
fn step(ck: &CheckerRules, set: u128, d: usize) -> u128 {
    let s = set & ck.stays[d];
    let k = ck.steps[d];
    if k >= 0 { s << k } else { s >> -k }
}

/// The Checkers of the side not to move that a Pawn or Checker of the side
/// to move could take by a Checker-first capture among the pseudo-legal
/// moves, King safety aside: `PX` of 5.4.
pub fn en_prise<B: Board>(ck: &CheckerRules, pos: &B) -> u128 {
    let v = pos.core();
    let me = pos.side();
    let their_checker = Piece::new(ck.kind, me.flip());
    let mut set = 0u128;
    for &sq in pos.pieces(me) {
        let p = pos.at(sq);
        if p.kind() == ck.kind {
            for &off in &ck.offsets {
                let mid = sq.shift(off);
                let land = mid.shift(off);
                if pos.at(mid) == their_checker && pos.at(land).is_empty() {
                    set |= bit(pos, mid);
                }
            }
        } else if v.pieces[p.kind() as usize].pawn {
            for l in &v.movesets[p.kind() as usize][me.index()].leaps {
                let t = sq.shift(l.off);
                if l.capture && pos.at(t) == their_checker {
                    set |= bit(pos, t);
                }
            }
        }
    }
    set
}

/// The target of `m` if it is a Checker-first capture (5.4): a Pawn taking
/// an enemy Checker, or a series whose first jump takes one.
fn cfc_target<B: Board>(ck: &CheckerRules, pos: &B, m: &Move) -> Option<Square> {
    let their_checker = Piece::new(ck.kind, pos.side().flip());
    match m.kind {
        MoveKind::Checker => {
            let mid = m.from.shift(ck.offsets[leg_direction(m, 0)]);
            (pos.at(mid) == their_checker).then_some(mid)
        }
        MoveKind::Normal => {
            let v = pos.core();
            (v.pieces[pos.at(m.from).kind() as usize].pawn && pos.at(m.to) == their_checker)
                .then_some(m.to)
        }
        _ => None,
    }
}

/// Is there a legal Checker-first capture for the side to move? (`LX`
/// non-empty, 5.4.)
fn any_legal_cfc<B: Board>(ck: &CheckerRules, pos: &mut B) -> bool {
    let me = pos.side();
    let their_checker = Piece::new(ck.kind, me.flip());
    let mut own = [Square::NONE; 128];
    let n = pos.pieces(me).len().min(own.len());
    own[..n].copy_from_slice(&pos.pieces(me)[..n]);
    for &sq in &own[..n] {
        let p = pos.at(sq);
        if p.kind() == ck.kind {
            for d in 0..8 {
                let off = ck.offsets[d];
                let mid = sq.shift(off);
                if pos.at(mid) == their_checker
                    && pos.at(mid.shift(off)).is_empty()
                    && legal_series(ck, pos, sq, Some(d), None)
                {
                    return true;
                }
            }
        } else if pos.core().pieces[p.kind() as usize].pawn {
            // The targets first: the trial makes below change the board.
            let leaps = &pos.core().movesets[p.kind() as usize][me.index()].leaps;
            let targets: Vec<Square> = leaps
                .iter()
                .map(|l| (l.capture, sq.shift(l.off)))
                .filter(|&(c, t)| c && pos.at(t) == their_checker)
                .map(|(_, t)| t)
                .collect();
            for t in targets {
                {
                    // The promotion choice cannot matter to the King's safety.
                    pos.make(Move::new(sq, t));
                    let exposed = pos.mover_exposed();
                    pos.unmake();
                    if !exposed {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// `Sit` of 5.4 after the move `m` of the side to move: with the move given
/// back to that side (no en passant square), some Checker is en prise from
/// a Pawn or Checker but every such capture would expose the King.
fn situation_after<B: Board>(ck: &CheckerRules, pos: &mut B, m: Move) -> bool {
    pos.make(m);
    let null = pos.make_null();
    let sit = en_prise(ck, pos) != 0 && !any_legal_cfc(ck, pos);
    pos.unmake_null(null);
    pos.unmake();
    sit
}

/// Keeps the moves of `out[start..]` for which `keep` holds, unless none
/// does (the filter never empties a non-empty list, 5.3).
fn keep_some(out: &mut Vec<Move>, start: usize, mut keep: impl FnMut(&Move) -> bool) {
    let mut k = start;
    for i in start..out.len() {
        if keep(&out[i]) {
            out.swap(k, i);
            k += 1;
        }
    }
    if k > start {
        out.truncate(k);
    }
}

/// Appends the moves `L` of 5.3 (the King kept safe, the forced
/// continuation of series applied): the pseudo-legal moves of every piece
/// that keep the King safe, then the legal Checker series. Checkmate and
/// stalemate are judged on these; [`filter`] then applies 5.4.
pub fn safe_moves<B: Board>(ck: &CheckerRules, pos: &mut B, out: &mut Vec<Move>) {
    let start = out.len();
    pos.pseudo_plain(out);
    if pos.core().rules.royal_safety {
        let mut i = start;
        while i < out.len() {
            pos.make(out[i]);
            let bad = pos.mover_exposed();
            pos.unmake();
            if bad {
                out.swap_remove(i);
            } else {
                i += 1;
            }
        }
    }
    legal_series_all(ck, pos, out);
}

/// Appends the legal series (5.1 with rule 3, King safety) of every
/// Checker of the side to move.
pub fn legal_series_all<B: Board>(ck: &CheckerRules, pos: &mut B, out: &mut Vec<Move>) {
    let me = pos.side();
    let checker = Piece::new(ck.kind, me);
    let mut own = [Square::NONE; 128];
    let mut n = 0;
    for &sq in pos.pieces(me) {
        if pos.at(sq) == checker && n < own.len() {
            own[n] = sq;
            n += 1;
        }
    }
    for &sq in &own[..n] {
        legal_series(ck, pos, sq, None, Some(out));
    }
}

/// The compulsory-capture filter of 5.4 on the moves `L` in `out[start..]`
/// (never empties a non-empty list).
pub fn filter<B: Board>(ck: &CheckerRules, pos: &mut B, out: &mut Vec<Move>, start: usize) {
    let px = en_prise(ck, pos);
    if px == 0 || out.len() == start {
        return;
    }
    // 1. In check: escapes that take a Checker en prise come first.
    if pos.in_check(pos.side()) {
        let p = &*pos;
        keep_some(out, start, |m| captures(ck, p, m).0 & px != 0);
        return;
    }
    // 2. A legal Checker-first capture exists: take an exposed Checker.
    let mut lx = 0u128;
    for m in &out[start..] {
        if let Some(t) = cfc_target(ck, pos, m) {
            lx |= bit(pos, t);
        }
    }
    if lx != 0 {
        let p = &*pos;
        keep_some(out, start, |m| {
            let (set, first) = captures(ck, p, m);
            if ck.duty_first_capture {
                first.is_some_and(|f| bit(p, f) & lx != 0)
            } else {
                set & lx != 0
            }
        });
        return;
    }
    // 3. Every such capture would expose the King: end that situation.
    let mut k = start;
    for i in start..out.len() {
        if !situation_after(ck, pos, out[i]) {
            out.swap(k, i);
            k += 1;
        }
    }
    if k > start {
        out.truncate(k);
    }
}

/// A Checker series written through other landing squares than ours: the
/// legal series with the same origin, final square and captured squares
/// (rules/ordinary-variant.md 5.1, move identity), if `sqs` is a path of
/// two-square jumps.
pub fn path_move<B: Board>(
    ck: &CheckerRules,
    pos: &B,
    sqs: &[Square],
    legal: &[Move],
) -> Option<Move> {
    let mut dirs = [0u8; MAX_LEGS];
    let n = sqs.len() - 1;
    if n == 0 || n > MAX_LEGS {
        return None;
    }
    for i in 0..n {
        let d = (0..8).find(|&d| {
            sqs[i].shift(ck.offsets[d]).shift(ck.offsets[d]) == sqs[i + 1]
                && pos.core().geometry.is_square(sqs[i + 1])
        })?;
        dirs[i] = d as u8;
    }
    let m = series_move(sqs[0], sqs[n], &dirs[..n]);
    let caps = captures(ck, pos, &m).0;
    legal
        .iter()
        .find(|l| {
            l.kind == MoveKind::Checker
                && l.from == m.from
                && l.to == m.to
                && captures(ck, pos, l).0 == caps
        })
        .copied()
}

use crate::variant::context::Context;
use crate::variant::error::VariantError;
use crate::variant::schema::CheckerSpec;

impl CheckerRules {
    /// Compiles `[special.checker]` (rules/ordinary-variant.md 5.1-5.5,
    /// alternatives A4-A12).
    ///
    /// Errors: `piece` names no piece; a board of more than 128 squares
    /// (the capture masks hold a bit per square).
    pub fn compile(spec: &CheckerSpec, ctx: &Context) -> Result<CheckerRules, VariantError> {
        let key = "special.checker.piece";
        let kind = ctx.piece(key, &spec.piece)?;
        if ctx.geometry.compact_len() > 128 {
            return Err(ctx.err(key, "Checkers need a board of at most 128 squares"));
        }
        let g = &ctx.geometry;
        let offsets = DIRECTIONS.map(|(dx, dy)| g.offset(i32::from(dx), i32::from(dy)));
        let files = i16::from(g.files());
        let steps = DIRECTIONS.map(|(dx, dy)| i16::from(dy) * files + i16::from(dx));
        let bit = |sq: Square| 1u128 << g.compact(sq);
        let squares = g.squares().fold(0, |set, sq| set | bit(sq));
        let stays = DIRECTIONS.map(|(dx, dy)| {
            g.squares()
                .filter(|&sq| {
                    let (f, r) = (i32::from(g.file(sq)), i32::from(g.rank(sq)));
                    g.square(f + i32::from(dx), r + i32::from(dy)).is_some()
                })
                .fold(0, |set, sq| set | bit(sq))
        });
        Ok(CheckerRules {
            kind,
            offsets,
            steps,
            stays,
            squares,
            duty_first_capture: spec.duty_first_capture,
            force_geometric: spec.force_geometric,
            force_after_capture_only: spec.force_after_capture_only,
            jumps_any_order: spec.jumps_any_order,
            revisit_allowed: spec.revisit_allowed,
            remove_at_end: spec.remove_at_end,
            ep_any_step: spec.ep_any_step,
            check_single_jump: spec.check_single_jump,
        })
    }
}
