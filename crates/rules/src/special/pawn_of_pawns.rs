//! Tamerlane's pawn of pawns (rules/tamerlane.md 5.2; seeds 000 and 003).
//!
//! Each stage is a piece type of its own, so the stage is on the board: in
//! the FEN, the hash and make / unmake. The plain promotions of the variant
//! file carry the pawn from stage to stage (`PP` -> `PX` parked on the last
//! rank, `PZ` -> Adventitious King); this module adds what promotion cannot
//! say:
//!
//! - **Relocation** ([`MoveKind::Relocate`]): the parked pawn (`PX`) is put
//!   on a square of ranks 2-9 from which it forks two enemy pieces or traps
//!   one, removing what stood there, and becomes `PY`. [`moves`] offers the
//!   squares with an enemy piece on a capture square; [`relocation_holds`]
//!   judges fork or trap after the move (`Specials::forbids_after_trial`,
//!   the legality hook after make).
//! - **Transfer** ([`MoveKind::Transfer`], three stages only): `PY` reaching
//!   the last rank goes on at once to the pawn-of-kings start square as `PZ`
//!   when that square is empty ([`rewrite_arrival`], after the piece's moves
//!   are generated), else waits there as `PV` until a later move transfers it
//!   ([`moves`]).

use crate::board::Board;
use crate::geometry::Square;
use crate::moves::{Move, MoveKind};
use crate::piece::{Piece, PieceType, Side};
use crate::special::citadel::Citadels;

/// What the relocation square may hold besides nothing (5.2, section 6).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Relocation {
    /// Any piece of either side except a royal or a parked pawn of pawns;
    /// it is removed (seed 003, the default).
    Any,
    /// An enemy piece, captured (seed 000, `pop=two-stage`).
    Enemy,
}

/// The compiled `[special.pawn_of_pawns]` table.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PawnOfPawns {
    /// Stage 1, parked (`PX`).
    pub parked: PieceType,
    /// Stage 2, relocated (`PY`).
    pub relocated: PieceType,
    /// Stage 2 waiting for the transfer square (`PV`), three stages only.
    pub waiting: Option<PieceType>,
    /// Stage 3, transferred (`PZ`), three stages only.
    pub transferred: Option<PieceType>,
    /// Transfer square per side (`f3`, `f8`), or [`Square::NONE`].
    pub transfer: [Square; 2],
    /// What the relocation square may hold.
    pub relocation: Relocation,
    /// Bit per type that can never be on a relocation square: royals and
    /// immune pieces (the parked stages).
    pub untouchable: u128,
}

/// The main-board squares diagonally in front of `sq` for a pawn of `side`
/// ([`Square::NONE`] where there is none): the pawn's capture squares.
fn capture_squares<B: Board>(
    cit: Option<&Citadels>,
    pos: &B,
    sq: Square,
    side: Side,
) -> [Square; 2] {
    let v = pos.core();
    let g = &v.geometry;
    let dy = if side == Side::First { 1 } else { -1 };
    let (f, r) = (g.file(sq) as i32, g.rank(sq) as i32);
    let main = |s: Option<Square>| match (s, cit) {
        (Some(s), Some(c)) if c.is_citadel(s) => Square::NONE,
        (Some(s), _) => s,
        (None, _) => Square::NONE,
    };
    [main(g.square(f - 1, r + dy)), main(g.square(f + 1, r + dy))]
}

/// Appends the relocations of the side to move's parked pawns of pawns
/// that have an enemy piece on a capture square (fork and trap are judged
/// after the move by [`relocation_holds`]), and the transfers of its
/// waiting ones to an empty transfer square.
pub fn moves<B: Board>(pop: &PawnOfPawns, cit: Option<&Citadels>, pos: &B, out: &mut Vec<Move>) {
    let side = pos.side();
    let parked = Piece::new(pop.parked, side);
    let waiting = pop.waiting.map(|w| Piece::new(w, side));
    for &sq in pos.pieces(side) {
        let p = pos.at(sq);
        if p == parked {
            relocations(pop, cit, pos, sq, out);
        } else if Some(p) == waiting {
            let t = pop.transfer[side.index()];
            if t.is_some() && pos.at(t).is_empty() {
                let mut m = Move::new(sq, t);
                m.kind = MoveKind::Transfer;
                m.extra = t;
                m.promo = pop.transferred.map_or(0, |z| z + 1);
                out.push(m);
            }
        }
    }
}

fn relocations<B: Board>(
    pop: &PawnOfPawns,
    cit: Option<&Citadels>,
    pos: &B,
    from: Square,
    out: &mut Vec<Move>,
) {
    let v = pos.core();
    let g = &v.geometry;
    let side = pos.side();
    let enemy = side.flip();
    let last = g.ranks() - 1;
    // Only squares with an enemy piece on a capture square can fork or trap:
    // those diagonally behind each enemy piece, from the pawn's view.
    let dy = if side == Side::First { -1 } else { 1 };
    let start = out.len();
    for &e in pos.pieces(enemy) {
        if cit.is_some_and(|c| c.is_citadel(e)) {
            continue;
        }
        let (f, r) = (g.file(e) as i32, g.rank(e) as i32);
        for dx in [-1, 1] {
            let Some(t) = g.square(f + dx, r + dy) else {
                continue;
            };
            let rank = g.rank(t);
            if rank == 0 || rank == last || cit.is_some_and(|c| c.is_citadel(t)) {
                continue;
            }
            let q = pos.at(t);
            if q.is_piece() {
                if pop.untouchable & (1u128 << q.kind()) != 0 {
                    continue;
                }
                if pop.relocation == Relocation::Enemy && !q.is_side(enemy) {
                    continue;
                }
            }
            if out[start..].iter().any(|m| m.to == t) {
                continue;
            }
            let mut m = Move::new(from, t);
            m.kind = MoveKind::Relocate;
            m.promo = pop.relocated + 1;
            out.push(m);
        }
    }
}

/// After the last move was a relocation (the opponent to move): does the
/// pawn on its square fork two enemy pieces or trap one (5.2)? Fork: both
/// capture squares hold enemy pieces. Trap: a capture square holds an enemy
/// piece none of whose legal moves (swaps aside) leads off the two capture
/// squares; taking the pawn counts as an escape.
pub fn relocation_holds<B: Board>(cit: Option<&Citadels>, pos: &mut B) -> bool {
    let Some(m) = pos.last_move() else {
        return false;
    };
    let pawn = pos.at(m.to);
    let side = pawn.side();
    let enemy = side.flip();
    let caps = capture_squares(cit, pos, m.to, side);
    let held = caps.map(|c| c.is_some() && pos.at(c).is_side(enemy));
    if held[0] && held[1] {
        return true;
    }
    let mut buf = Vec::new();
    for (i, &c) in caps.iter().enumerate() {
        if held[i] && trapped(pos, c, caps, &mut buf) {
            return true;
        }
    }
    false
}

/// Has the piece on `sq` (of the side to move) no legal move to a square
/// other than `caps`?
fn trapped<B: Board>(pos: &mut B, sq: Square, caps: [Square; 2], buf: &mut Vec<Move>) -> bool {
    let p = pos.at(sq);
    buf.clear();
    pos.piece_moves(sq, p, buf);
    for &m in buf.iter() {
        if m.to != m.from && caps.contains(&m.to) {
            continue;
        }
        pos.make(m);
        let exposed = pos.royal_exposed();
        pos.unmake();
        if !exposed {
            return false;
        }
    }
    true
}

/// After the moves of a relocated pawn (`p`, stage 2) were generated into
/// `out[start..]`: each arrival on the last rank (a promotion to the
/// waiting stage) goes on at once to an empty transfer square as a
/// [`MoveKind::Transfer`] to stage 3.
pub fn rewrite_arrival<B: Board>(
    pop: &PawnOfPawns,
    pos: &B,
    p: Piece,
    out: &mut [Move],
    start: usize,
) {
    let (Some(w), Some(z)) = (pop.waiting, pop.transferred) else {
        return;
    };
    let t = pop.transfer[p.side().index()];
    if !t.is_some() || !pos.at(t).is_empty() {
        return;
    }
    for m in &mut out[start..] {
        if m.promo == w + 1 {
            m.kind = MoveKind::Transfer;
            m.extra = t;
            m.promo = z + 1;
        }
    }
}

use crate::variant::context::Context;
use crate::variant::error::VariantError;
use crate::variant::schema::{PawnOfPawnsSpec, PawnRelocation};

impl PawnOfPawns {
    /// Compiles `[special.pawn_of_pawns]` (rules/tamerlane.md 5.2): with
    /// three stages, the second player's transfer square is the point
    /// reflection of the first player's.
    ///
    /// Errors: a key that names no piece, stages other than 2 or 3, a
    /// transfer square that is not on the board or whose reflection is not,
    /// three stages without `waiting`, `transferred` and `transfer`.
    pub fn compile(spec: &PawnOfPawnsSpec, ctx: &Context) -> Result<PawnOfPawns, VariantError> {
        let key = "special.pawn_of_pawns";
        let ty = |k: &str| ctx.piece(key, k);
        let three = match spec.stages {
            2 => false,
            3 => true,
            n => {
                return Err(ctx.err(
                    "special.pawn_of_pawns.stages",
                    format!("{n}: expected 2 or 3"),
                ));
            }
        };
        let waiting = spec
            .waiting
            .as_deref()
            .filter(|_| three)
            .map(ty)
            .transpose()?;
        let transferred = spec
            .transferred
            .as_deref()
            .filter(|_| three)
            .map(ty)
            .transpose()?;
        let transfer = match spec.transfer.as_ref().filter(|_| three) {
            Some(name) => {
                let at = "special.pawn_of_pawns.transfer";
                let t = ctx.square(at, name)?;
                let r = ctx
                    .geometry
                    .reflect(t)
                    .ok_or_else(|| ctx.err(at, "the reflected square does not exist"))?;
                [t, r]
            }
            None => [Square::NONE; 2],
        };
        if three && (waiting.is_none() || transferred.is_none() || !transfer[0].is_some()) {
            return Err(ctx.err(
                key,
                "three stages need `waiting`, `transferred` and `transfer`",
            ));
        }
        Ok(PawnOfPawns {
            parked: ty(&spec.parked)?,
            relocated: ty(&spec.relocated)?,
            waiting,
            transferred,
            transfer,
            relocation: match spec.relocation {
                PawnRelocation::Any => Relocation::Any,
                PawnRelocation::Enemy => Relocation::Enemy,
            },
            untouchable: ctx.types_where(|p| p.royal || p.immune),
        })
    }
}
