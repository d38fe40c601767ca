//! Citadels: squares beside the board that only some pieces may enter
//! (rules/tamerlane.md 5.5; seeds 000 and 003).
//!
//! Each citadel belongs to one side. A piece may step into its own side's
//! citadel only if its type is in `enter_own` (Tamerlane: the Adventitious
//! King) and into the opponent's only if its type is in `enter_enemy` (the
//! King); every other move onto a citadel, captures included, does not
//! exist. A citadel holds one piece at most, and with `sanctuary` a piece on
//! it cannot be captured and the square is never attacked.
//!
//! Hook points (through [`crate::special::Specials`]): [`Citadels::restrict`]
//! after a piece's moves are generated (`restrict_piece_moves`),
//! [`Citadels::is_sanctuary`] in the attack test (`is_sanctuary`), and
//! [`Citadels::ended`] among the rule endings (`ended_first`: entering the
//! opponent's citadel draws).

use crate::board::Board;
use crate::geometry::Square;
use crate::moves::{Move, MoveKind};
use crate::outcome::kinds::{Outcome, Reason};
use crate::piece::{Piece, Side};

/// What entering the opponent's citadel does (rules/tamerlane.md 5.5).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Entry {
    /// Nothing: the citadel is only a refuge.
    None,
    /// The game ends at once, drawn (`citadel=draw`, the default).
    Draw,
    /// Drawn, unless the entering piece trades places with a piece of
    /// `swap_with` as part of the same move (`citadel=draw-unless-swap`,
    /// seed 000); the game then goes on.
    DrawUnlessSwap,
}

/// The compiled `[special.citadel]` table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Citadels {
    /// Every citadel square with its owner.
    pub squares: Vec<(Square, Side)>,
    /// Bit per type that may enter its own side's citadel.
    pub enter_own: u128,
    /// Bit per type that may enter the opponent's citadel.
    pub enter_enemy: u128,
    /// Pieces on a citadel cannot be captured; citadels are never attacked.
    pub sanctuary: bool,
    /// The effect of entering the opponent's citadel.
    pub entry: Entry,
    /// With [`Entry::DrawUnlessSwap`]: bit per type the entering piece may
    /// trade places with.
    pub swap_with: u128,
}

impl Citadels {
    /// The owner of `sq` if it is a citadel.
    #[inline(always)]
    pub fn owner(&self, sq: Square) -> Option<Side> {
        self.squares
            .iter()
            .find(|&&(s, _)| s == sq)
            .map(|&(_, o)| o)
    }

    /// Is `sq` a citadel?
    #[inline(always)]
    pub fn is_citadel(&self, sq: Square) -> bool {
        self.squares.iter().any(|&(s, _)| s == sq)
    }

    /// Is `sq` a citadel whose piece cannot be captured (and which no
    /// piece attacks)?
    #[inline(always)]
    pub fn is_sanctuary(&self, sq: Square) -> bool {
        self.sanctuary && self.is_citadel(sq)
    }

    /// May `p` step into the citadel `sq` (owned by `owner`), if empty?
    #[inline(always)]
    pub fn may_enter(&self, p: Piece, owner: Side) -> bool {
        let mask = if p.side() == owner {
            self.enter_own
        } else {
            self.enter_enemy
        };
        mask & (1u128 << p.kind()) != 0
    }

    /// Keeps, of the moves `out[start..]` of the piece `p`, those that enter
    /// no citadel or enter one `p` may enter while it is empty; with
    /// [`Entry::DrawUnlessSwap`] adds to each entry into the opponent's
    /// citadel the same move followed by a trade of places with each
    /// friendly piece of `swap_with` on the main board.
    pub fn restrict<B: Board>(&self, pos: &B, p: Piece, out: &mut Vec<Move>, start: usize) {
        let mut k = start;
        let mut entries = 0usize;
        for i in start..out.len() {
            let m = out[i];
            let keep = match self.owner(m.to) {
                None => !(m.via_capture && self.is_sanctuary(m.via)),
                Some(owner) => {
                    let ok = m.to != m.from && pos.at(m.to).is_empty() && self.may_enter(p, owner);
                    if ok && owner != p.side() {
                        entries += 1;
                    }
                    ok
                }
            };
            if keep {
                out[k] = m;
                k += 1;
            }
        }
        out.truncate(k);
        if entries == 0 || self.entry != Entry::DrawUnlessSwap {
            return;
        }
        let side = p.side();
        for i in start..k {
            let m = out[i];
            if self.owner(m.to).is_none_or(|o| o == side) {
                continue;
            }
            for &sq in pos.pieces(side) {
                let q = pos.at(sq);
                if sq == m.from || self.is_citadel(sq) || self.swap_with & (1u128 << q.kind()) == 0
                {
                    continue;
                }
                let mut s = m;
                s.kind = MoveKind::CitadelSwap;
                s.extra = sq;
                out.push(s);
            }
        }
    }

    /// Has the game ended by a citadel entry: does a piece of
    /// `enter_enemy` stand in its opponent's citadel (draw by default)?
    pub fn ended<B: Board>(&self, pos: &B) -> Option<Outcome> {
        if self.entry == Entry::None {
            return None;
        }
        for &(sq, owner) in &self.squares {
            let p = pos.at(sq);
            if p.is_side(owner.flip()) && self.enter_enemy & (1u128 << p.kind()) != 0 {
                return Some(Outcome::Draw {
                    reason: Reason::Citadel,
                });
            }
        }
        None
    }
}

use crate::variant::context::Context;
use crate::variant::error::VariantError;
use crate::variant::schema::{CitadelEntry, CitadelSpec};

impl Citadels {
    /// Compiles `[special.citadel]` (rules/tamerlane.md 5.5).
    ///
    /// Errors: a name that is no square of the board or is listed twice, a
    /// key that names no piece.
    pub fn compile(spec: &CitadelSpec, ctx: &Context) -> Result<Citadels, VariantError> {
        let key = "special.citadel";
        let mut squares = Vec::new();
        for (side, list) in [(Side::First, &spec.first), (Side::Second, &spec.second)] {
            for name in list {
                let q = ctx.square(key, name)?;
                if squares.iter().any(|&(s, _)| s == q) {
                    return Err(ctx.err(key, format!("`{name}` is listed twice")));
                }
                squares.push((q, side));
            }
        }
        Ok(Citadels {
            squares,
            enter_own: ctx.type_mask("special.citadel.enter_own", &spec.enter_own)?,
            enter_enemy: ctx.type_mask("special.citadel.enter_enemy", &spec.enter_enemy)?,
            sanctuary: spec.sanctuary,
            entry: match spec.entry {
                CitadelEntry::None => Entry::None,
                CitadelEntry::Draw => Entry::Draw,
                CitadelEntry::DrawUnlessSwap => Entry::DrawUnlessSwap,
            },
            swap_with: ctx.type_mask("special.citadel.swap_with", &spec.swap_with)?,
        })
    }
}
