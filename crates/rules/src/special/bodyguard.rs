//! Hiashatar's Bodyguard (Hia) and its zone (rules/hiashatar.md 5.1-5.2).
//!
//! The **zone** of a Bodyguard is the set of squares next to it. A piece
//! other than an immune one (the Knight) is restricted by the zones of the
//! opponent's Bodyguards (`affects = "enemy"`, default) or of every
//! Bodyguard but itself (`affects = "all"`):
//! - step rule: starting on a zone square it moves one square only;
//! - stop rule (`zone = "stop-and-step"`, default; off under `step-only`):
//!   a slide, a Bodyguard's two-square move or a pawn's double step that
//!   enters a zone square ends there.
//!
//! The same rules bound attacks (5.1 rule 3), and a Bodyguard gives no
//! check and never takes a King (5.2): [`is_attacked`] ignores Bodyguards.
//!
//! Hook points: [`leaps_and_rides`] replaces the generic leap and slide loops
//! of [`crate::movegen`] for restricted pieces, [`is_attacked`] replaces the
//! generic attack test, and [`may_expose`] tells the legality shortcut which
//! moves change the zones (so must be made to be judged). Zones follow from
//! the board alone: no state, nothing in the hash.

use crate::geometry::Square;
use crate::movegen::{first_on_ray, piece_moves, push, push_quiet, rider_reaches};
use crate::moves::Move;
use crate::piece::{Piece, Side};
use crate::position::Position;
use crate::variant::Variant;

/// Whose pieces a Bodyguard's zone restricts (5.1, `hia-zone-affects`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Affects {
    /// The opponent's pieces only (default).
    Enemy,
    /// Pieces of both sides; a Bodyguard is not restricted by its own zone.
    All,
}

/// The compiled `[special.specials.bodyguard]` table (rules/hiashatar.md 5.1-5.2).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Bodyguard {
    /// Bit per Bodyguard type.
    pub guards: u128,
    /// Bit per type that ignores zones (the Knight).
    pub immune: u128,
    /// Whose pieces the zones restrict.
    pub affects: Affects,
    /// The stop rule is in force (`hia-zone=stop-and-step`); without it only
    /// the step rule applies (`step-only`).
    pub stop: bool,
    /// Board offsets of the eight neighbours of a square.
    pub neighbours: [i16; 8],
}

/// Most Bodyguards a side may have for their zones to be looked at; more
/// are ignored (a game has two a side and cannot gain any by promotion).
const MAX_GUARDS: usize = 4;

/// Where each side's Bodyguards stand: found once per generation call, not
/// once per piece.
#[derive(Clone, Copy, Debug)]
pub struct Guards {
    squares: [[Square; MAX_GUARDS]; 2],
    n: [usize; 2],
}

impl Guards {
    /// The Bodyguards of both sides in `pos`; none when the variant has no
    /// Bodyguard module.
    #[inline]
    pub fn of(pos: &Position) -> Guards {
        let mut g = Guards {
            squares: [[Square::NONE; MAX_GUARDS]; 2],
            n: [0, 0],
        };
        let Some(bg) = &pos.variant().specials.bodyguard else {
            return g;
        };
        for side in Side::BOTH {
            let s = side.index();
            for &sq in pos.pieces(side) {
                if g.n[s] < MAX_GUARDS && bg.is_guard(pos.at(sq)) {
                    g.squares[s][g.n[s]] = sq;
                    g.n[s] += 1;
                }
            }
        }
        g
    }
}

/// The squares of the Bodyguards whose zones restrict one piece.
struct Zones {
    squares: [Square; 2 * MAX_GUARDS],
    n: usize,
}

impl Zones {
    /// The Bodyguards restricting a piece of `side` standing on `on` (the
    /// piece itself excluded).
    #[inline]
    fn restricting(bg: &Bodyguard, guards: &Guards, side: Side, on: Square) -> Zones {
        let mut z = Zones {
            squares: [Square::NONE; 2 * MAX_GUARDS],
            n: 0,
        };
        z.collect(guards, side.flip(), on);
        if bg.affects == Affects::All {
            z.collect(guards, side, on);
        }
        z
    }

    #[inline]
    fn collect(&mut self, guards: &Guards, side: Side, skip: Square) {
        let s = side.index();
        for &sq in &guards.squares[s][..guards.n[s]] {
            if sq != skip {
                self.squares[self.n] = sq;
                self.n += 1;
            }
        }
    }

    /// Is `sq` next to one of these Bodyguards?
    #[inline(always)]
    fn covers(&self, bg: &Bodyguard, sq: Square) -> bool {
        self.squares[..self.n].iter().any(|g| {
            bg.neighbours
                .contains(&(sq.0 as i16).wrapping_sub(g.0 as i16))
        })
    }
}

impl Bodyguard {
    /// Is `p` a Bodyguard?
    #[inline(always)]
    pub fn is_guard(&self, p: Piece) -> bool {
        p.is_piece() && self.guards & (1u128 << p.kind()) != 0
    }

    /// Does `p` ignore zones (the Knight)?
    #[inline(always)]
    pub fn is_immune(&self, p: Piece) -> bool {
        self.immune & (1u128 << p.kind()) != 0
    }

    /// Is the offset `off` a one-square step?
    #[inline(always)]
    fn is_step(&self, off: i16) -> bool {
        self.neighbours.contains(&off)
    }
}

/// Appends the leaps and slides of `p` on `sq` under the zone rules (5.1)
/// and without Bodyguard captures of a royal (5.2), as
/// [`crate::movegen`]'s loops would; `guards`: [`Guards::of`] this
/// position; `initial`: `p` stands on an initial square; `promotable`,
/// `QUIET`: as there. Returns `false`, appending nothing, for an immune
/// piece, whose moves the generic loops make.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn leaps_and_rides<const QUIET: bool>(
    bg: &Bodyguard,
    guards: &Guards,
    pos: &Position,
    v: &Variant,
    sq: Square,
    p: Piece,
    initial: bool,
    promotable: bool,
    out: &mut Vec<Move>,
) -> bool {
    if bg.is_immune(p) {
        return false;
    }
    let side = p.side();
    let enemy = side.flip();
    let zones = Zones::restricting(bg, guards, side, sq);
    // 5.1 rule 1: from a zone square, one square only.
    let in_zone = zones.covers(bg, sq);
    // 5.2: a Bodyguard never takes a King.
    let guard = bg.is_guard(p);
    let takes = |c: Piece| c.is_side(enemy) && !(guard && v.pieces[c.kind() as usize].royal);
    let ms = &v.movesets[p.kind() as usize][side.index()];
    for l in &ms.leaps {
        if (l.initial && !initial) || (in_zone && !bg.is_step(l.off)) {
            continue;
        }
        let t = sq.shift(l.off);
        let c = pos.at(t);
        if c == Piece::WALL {
            continue;
        }
        // 5.1 rule 2: a double step may not go on past a zone square.
        let passed = |o: &i16| {
            let s = sq.shift(*o);
            !pos.at(s).is_empty() || (bg.stop && zones.covers(bg, s))
        };
        if l.lame.iter().any(passed) {
            continue;
        }
        if c.is_empty() {
            if l.quiet {
                push_quiet::<QUIET>(v, p, promotable, sq, t, out);
            }
        } else if l.capture && takes(c) {
            push(v, p, sq, t, Square::NONE, false, true, out);
        }
    }
    for r in &ms.rides {
        if r.initial && !initial {
            continue;
        }
        let max = if in_zone { 1 } else { r.max };
        let mut t = sq;
        for _ in 0..max {
            t = t.shift(r.off);
            let c = pos.at(t);
            if c.is_empty() {
                if r.quiet {
                    push_quiet::<QUIET>(v, p, promotable, sq, t, out);
                }
                // 5.1 rule 2: a slide that enters a zone square ends there.
                if bg.stop && zones.covers(bg, t) {
                    break;
                }
                continue;
            }
            if r.capture && takes(c) {
                push(v, p, sq, t, Square::NONE, false, true, out);
            }
            break;
        }
    }
    true
}

/// Is `target` attacked by a piece of `by` in the sense of check (5.1 rule
/// 3, 5.2): could one of `by`'s pieces other than a Bodyguard capture there
/// under the zone rules, whatever that would do to its own royal?
pub fn is_attacked(bg: &Bodyguard, pos: &Position, target: Square, by: Side) -> bool {
    let v = pos.variant();
    let t = &v.attacks[by.index()];
    let not_guard = !bg.guards;
    let guards = Guards::of(pos);
    for &(off, mask) in &t.leaps {
        let s = target.shift(off);
        let p = pos.at(s);
        if !p.is_side(by) || mask & not_guard & (1u128 << p.kind()) == 0 {
            continue;
        }
        if bg.is_step(off) || bg.is_immune(p) {
            return true;
        }
        // A longer leap is barred from a zone square (rule 1).
        if !Zones::restricting(bg, &guards, by, s).covers(bg, s) {
            return true;
        }
    }
    for (step, list) in &t.rides {
        let (s, d) = first_on_ray(pos, target, *step);
        let p = pos.at(s);
        if !p.is_side(by) || bg.is_guard(p) || !rider_reaches(list, p, d) {
            continue;
        }
        if d == 1 || bg.is_immune(p) {
            return true;
        }
        let zones = Zones::restricting(bg, &guards, by, s);
        if zones.covers(bg, s) {
            continue;
        }
        // Squares passed between the slider and the target (rule 2).
        let blocked = bg.stop && (1..d).any(|i| zones.covers(bg, target.shift(*step * i as i16)));
        if !blocked {
            return true;
        }
    }
    // Lame, initial or multi-leg captures: ask the (zone-aware) generator.
    let ask = (t.complex | t.multi.iter().fold(0, |m, (_, b)| m | b)) & not_guard;
    if ask != 0 {
        let mut buf = Vec::new();
        for &sq in pos.pieces(by) {
            let p = pos.at(sq);
            if ask & (1u128 << p.kind()) == 0 {
                continue;
            }
            buf.clear();
            piece_moves(pos, v, sq, p, &mut buf);
            if buf
                .iter()
                .any(|m| m.to == target && pos.at(target).is_piece())
            {
                return true;
            }
        }
    }
    false
}

/// Before the move: can `m` change the zones, so that a royal it does not
/// seem to touch becomes attacked? A Bodyguard that moves or is taken.
#[inline(always)]
pub fn may_expose(bg: &Bodyguard, pos: &Position, m: &Move) -> bool {
    bg.is_guard(pos.at(m.from)) || (m.to != m.from && bg.is_guard(pos.at(m.to)))
}

use crate::variant::context::Context;
use crate::variant::error::VariantError;
use crate::variant::schema::{BodyguardAffects, BodyguardSpec, BodyguardZone};

impl Bodyguard {
    /// Compiles `[special.bodyguard]` (rules/hiashatar.md 5.1-5.2).
    ///
    /// Errors: a key that names no piece; a piece neither immune nor a
    /// plain leaper or slider (zones bound leaps and slides only).
    pub fn compile(spec: &BodyguardSpec, ctx: &Context) -> Result<Bodyguard, VariantError> {
        let key = "special.bodyguard";
        let guards = ctx.type_mask(key, &spec.guards)?;
        let immune = ctx.type_mask(key, &spec.immune)?;
        let affects = match spec.affects {
            BodyguardAffects::Enemy => Affects::Enemy,
            BodyguardAffects::All => Affects::All,
        };
        // Zones bound leaps and slides; hops and multi-leg moves are not built for them.
        if let Some(i) = (0..ctx.movesets.len()).find(|&i| {
            immune & (1u128 << i) == 0
                && ctx.movesets[i]
                    .iter()
                    .any(|m| !m.hops.is_empty() || !m.multi.is_empty())
        }) {
            return Err(ctx.err(
                key,
                format!(
                    "piece `{}` hops or moves in several legs: zones restrict only leapers and sliders; make it immune",
                    ctx.pieces[i].key
                ),
            ));
        }
        let mut neighbours = [0i16; 8];
        let around = (-1..=1).flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)));
        for (n, (dx, dy)) in neighbours.iter_mut().zip(around.filter(|&d| d != (0, 0))) {
            *n = ctx.geometry.offset(dx, dy);
        }
        Ok(Bodyguard {
            guards,
            immune,
            affects,
            stop: spec.zone == BodyguardZone::StopAndStep,
            neighbours,
        })
    }
}
