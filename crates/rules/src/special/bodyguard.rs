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
//! check and never takes a King (5.2): [`AttackZones`] leaves Bodyguards out.
//!
//! Hook points: [`ZoneBounds`] bounds the generic leap and slide loops
//! (`crate::leaps`) for restricted pieces, [`AttackZones`] bounds the
//! generic attack test, and [`may_expose`] tells the legality shortcut which
//! moves change the zones (so must be made to be judged). Zones follow from
//! the board alone: no state, nothing in the hash.

use crate::board::Board;
use crate::geometry::{Geometry, Square};
use crate::leaps::{AttackBounds, Bounds};
use crate::moves::Move;
use crate::piece::{Piece, Side};
use crate::variant::core::Core;

/// Whose pieces a Bodyguard's zone restricts (5.1, `hia-zone-affects`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Affects {
    /// The opponent's pieces only (default).
    Enemy,
    /// Pieces of both sides; a Bodyguard is not restricted by its own zone.
    All,
}

/// The compiled `[special.bodyguard]` table (rules/hiashatar.md 5.1-5.2).
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

/// Where each side's Bodyguards stand, every one of them: a bit per
/// compact square index (boards of at most 16 x 16, [`crate::geometry::MAX_SIDE`]).
/// Found once per generation call, not once per piece.
#[derive(Clone, Copy, Debug)]
pub struct Guards {
    bits: [[u128; 2]; 2],
}

impl Guards {
    /// The Bodyguards of both sides in `pos`; none when the variant has no
    /// Bodyguard module.
    #[inline]
    pub fn of<B: Board>(bg: Option<&Bodyguard>, pos: &B) -> Guards {
        let mut g = Guards { bits: [[0; 2]; 2] };
        let Some(bg) = bg else {
            return g;
        };
        let geo = &pos.core().geometry;
        for side in Side::BOTH {
            for &sq in pos.pieces(side) {
                if bg.is_guard(pos.at(sq)) {
                    let c = geo.compact(sq);
                    g.bits[side.index()][c / 128] |= 1 << (c % 128);
                }
            }
        }
        g
    }

    /// Is there a Bodyguard of `side` on `sq` (a square of the board)?
    #[inline(always)]
    fn has(&self, geo: &Geometry, side: Side, sq: Square) -> bool {
        let c = geo.compact(sq);
        self.bits[side.index()][c / 128] >> (c % 128) & 1 != 0
    }
}

/// The Bodyguards whose zones restrict one piece: those of `sides` but the
/// piece itself.
#[derive(Clone, Copy)]
struct Zones {
    guards: Guards,
    /// The opponent's, and under `affects = "all"` the own side's too.
    sides: [Option<Side>; 2],
    skip: Square,
}

impl Zones {
    /// The Bodyguards restricting a piece of `side` standing on `on` (the
    /// piece itself excluded).
    #[inline]
    fn restricting(bg: &Bodyguard, guards: &Guards, side: Side, on: Square) -> Zones {
        Zones {
            guards: *guards,
            sides: [
                Some(side.flip()),
                (bg.affects == Affects::All).then_some(side),
            ],
            skip: on,
        }
    }

    /// Is `sq` next to one of these Bodyguards?
    #[inline(always)]
    fn covers(&self, bg: &Bodyguard, geo: &Geometry, sq: Square) -> bool {
        bg.neighbours.iter().any(|&off| {
            let n = sq.shift(off);
            n != self.skip
                && geo.is_square(n)
                && self
                    .sides
                    .iter()
                    .flatten()
                    .any(|&s| self.guards.has(geo, s, n))
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

/// The zone rules (5.1) and the Bodyguard's ban on taking a royal (5.2)
/// as bounds on one piece's leaps and slides (`crate::leaps::Bounds`).
pub struct ZoneBounds<'a> {
    bg: &'a Bodyguard,
    zones: Zones,
    /// The piece starts on a zone square: one square only (rule 1).
    in_zone: bool,
    /// The piece is a Bodyguard, which never takes a royal (5.2).
    guard: bool,
    /// The variant's pieces, to tell a royal.
    v: &'a Core,
}

impl<'a> ZoneBounds<'a> {
    /// The bounds on `p` standing on `sq`, with the Bodyguards `guards`;
    /// `None` for a piece that ignores zones (the Knight).
    #[inline]
    pub fn of(
        bg: &'a Bodyguard,
        guards: &Guards,
        v: &'a Core,
        sq: Square,
        p: Piece,
    ) -> Option<ZoneBounds<'a>> {
        if bg.is_immune(p) {
            return None;
        }
        let zones = Zones::restricting(bg, guards, p.side(), sq);
        let in_zone = zones.covers(bg, &v.geometry, sq);
        Some(ZoneBounds {
            bg,
            zones,
            in_zone,
            guard: bg.is_guard(p),
            v,
        })
    }
}

impl Bounds for ZoneBounds<'_> {
    #[inline(always)]
    fn steps_only(&self) -> bool {
        self.in_zone
    }
    #[inline(always)]
    fn is_step(&self, off: i16) -> bool {
        self.bg.is_step(off)
    }
    #[inline(always)]
    fn stops_at(&self, sq: Square) -> bool {
        // 5.1 rule 2: a slide or a double step that enters a zone square ends there.
        self.bg.stop && self.zones.covers(self.bg, &self.v.geometry, sq)
    }
    #[inline(always)]
    fn may_take(&self, c: Piece) -> bool {
        !(self.guard && self.v.pieces[c.kind() as usize].royal)
    }
}

/// The sense of check under the zones (5.1 rule 3, 5.2) as bounds on the
/// generic attack test (`crate::leaps::AttackBounds`): a Bodyguard gives
/// no check, and the zones bound the other attackers of `by` as they bound
/// their moves.
pub struct AttackZones<'a> {
    bg: &'a Bodyguard,
    guards: Guards,
    by: Side,
    geo: &'a Geometry,
}

impl<'a> AttackZones<'a> {
    /// The bounds on the attackers of `by` in `pos`.
    #[inline]
    pub fn of<B: Board>(bg: &'a Bodyguard, pos: &'a B, by: Side) -> AttackZones<'a> {
        AttackZones {
            bg,
            guards: Guards::of(Some(bg), pos),
            by,
            geo: &pos.core().geometry,
        }
    }
}

impl AttackBounds for AttackZones<'_> {
    #[inline(always)]
    fn attackers(&self) -> u128 {
        !self.bg.guards
    }
    #[inline]
    fn leap_attacks(&self, p: Piece, from: Square, off: i16) -> bool {
        // A longer leap is barred from a zone square (rule 1).
        self.bg.is_step(off)
            || self.bg.is_immune(p)
            || !Zones::restricting(self.bg, &self.guards, self.by, from)
                .covers(self.bg, self.geo, from)
    }
    #[inline]
    fn ride_attacks(&self, p: Piece, from: Square, target: Square, step: i16, d: u32) -> bool {
        if d == 1 || self.bg.is_immune(p) {
            return true;
        }
        let zones = Zones::restricting(self.bg, &self.guards, self.by, from);
        if zones.covers(self.bg, self.geo, from) {
            return false;
        }
        // Squares passed between the slider and the target (rule 2).
        !(self.bg.stop
            && (1..d).any(|i| zones.covers(self.bg, self.geo, target.shift(step * i as i16))))
    }
    #[inline(always)]
    fn walks_back(&self) -> bool {
        // Lame, initial or multi-leg captures: the zone-aware generator.
        false
    }
}

/// Before the move: can `m` change the zones, so that a royal it does not
/// seem to touch becomes attacked? A Bodyguard that moves or is taken.
#[inline(always)]
pub fn may_expose<B: Board>(bg: &Bodyguard, pos: &B, m: &Move) -> bool {
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
