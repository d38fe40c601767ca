//! Pawn terms, for the games with pawns (piece types marked `pawn`): the
//! structure (passed, isolated, doubled pawns and phalanxes, on any board
//! up to [`MAX_SIDE`] files) and the threats pawns make on pieces.

use super::trace::{Accumulator, add};
use super::weights::{Params, Term};
use kamil_rules::MAX_SIDE;
use kamil_rules::{Position, Side, Square, Variant};

/// The pawns' threats on pieces: which squares a pawn captures from, and
/// what a threatened piece counts for ([`Term::PawnThreat`]).
#[derive(Clone, Debug)]
pub struct PawnThreats {
    /// Per attacking side: its pawns' capture leaps, as (offset from the
    /// attacked square to the pawn, pawn types that capture so), from the
    /// rules library's attack tables.
    captures: [Vec<(i16, u128)>; 2],
    /// Per piece type: the feature of one such piece attacked, its value
    /// (centipawns, `value`) in whole pawns; 0 for pawns and royals.
    units: Vec<i32>,
}

impl PawnThreats {
    /// The tables of `v`, with `value` the piece values by type
    /// (centipawns).
    pub fn new(v: &Variant, value: &[i32]) -> PawnThreats {
        let pawn_types = v
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.pawn)
            .fold(0u128, |m, (t, _)| m | 1 << t);
        let captures = Side::BOTH.map(|s| {
            v.attacks[s.index()]
                .leaps
                .iter()
                .filter(|&&(_, mask)| mask & pawn_types != 0)
                .map(|&(off, mask)| (off, mask & pawn_types))
                .collect()
        });
        let units = v
            .pieces
            .iter()
            .zip(value)
            .map(|(p, &val)| if p.pawn || p.royal { 0 } else { val / 100 })
            .collect();
        PawnThreats { captures, units }
    }

    /// Can any pawn threaten any piece that counts?
    pub fn possible(&self) -> bool {
        self.captures.iter().any(|l| !l.is_empty()) && self.units.iter().any(|&u| u > 0)
    }

    /// The feature of a piece of type `t` (a [`kamil_rules::PieceType`])
    /// standing on `sq` for `side`: its units if an enemy pawn attacks it,
    /// else 0.
    #[inline]
    pub fn on(&self, pos: &Position, sq: Square, t: usize, side: Side) -> i32 {
        let units = self.units[t];
        if units == 0 {
            return 0;
        }
        if self.attacked(pos, sq, side.flip()) {
            units
        } else {
            0
        }
    }

    /// Does a pawn of `by` attack `sq` (by its capture leaps)?
    #[inline]
    pub fn attacked(&self, pos: &Position, sq: Square, by: Side) -> bool {
        self.captures[by.index()].iter().any(|&(off, mask)| {
            let p = pos.at(sq.shift(off));
            p.is_side(by) && mask & (1u128 << p.kind()) != 0
        })
    }
}

/// Adds the pawn-structure features of both sides to `acc`. `pawn` marks
/// the pawn types. Per side:
/// - [`Term::PassedPawn`]: pawns with no enemy pawn ahead on their own or
///   a neighbouring file;
/// - [`Term::IsolatedPawn`]: pawns with no friendly pawn on a neighbouring
///   file;
/// - [`Term::DoubledPawn`]: pawns beyond the first on a file;
/// - [`Term::PawnPhalanx`]: pawns with a friendly pawn beside them to the
///   right (each pair of neighbours once).
pub fn structure<A: Accumulator>(pos: &Position, pawn: &[bool], params: &Params, acc: &mut A) {
    let g = &pos.variant().geometry;
    let files = usize::from(g.files()).min(usize::from(MAX_SIDE));
    // Per side and file: pawns, lowest and highest rank (-1: none).
    let mut count = [[0i32; MAX_SIDE as usize]; 2];
    let mut low = [[i32::MAX; MAX_SIDE as usize]; 2];
    let mut high = [[-1i32; MAX_SIDE as usize]; 2];
    let is_pawn = |sq| {
        let pc = pos.at(sq);
        !pc.is_empty() && pawn.get(pc.kind() as usize).copied().unwrap_or(false)
    };
    for side in Side::BOTH {
        let s = side.index();
        for &sq in pos.pieces(side) {
            if !is_pawn(sq) {
                continue;
            }
            let (f, r) = (usize::from(g.file(sq)), i32::from(g.rank(sq)));
            if f >= files {
                continue;
            }
            count[s][f] += 1;
            low[s][f] = low[s][f].min(r);
            high[s][f] = high[s][f].max(r);
        }
    }
    for side in Side::BOTH {
        let (s, o) = (side.index(), side.flip().index());
        let (mut passed, mut isolated, mut phalanx) = (0, 0, 0);
        for &sq in pos.pieces(side) {
            if !is_pawn(sq) {
                continue;
            }
            let (f, r) = (usize::from(g.file(sq)), i32::from(g.rank(sq)));
            if f >= files {
                continue;
            }
            let near = f.saturating_sub(1)..=(f + 1).min(files - 1);
            // The first player's pawns advance up the ranks.
            let blocked = near.clone().any(|x| match side {
                Side::First => high[o][x] > r,
                Side::Second => low[o][x] < r,
            });
            if !blocked {
                passed += 1;
            }
            if near.filter(|&x| x != f).all(|x| count[s][x] == 0) {
                isolated += 1;
            }
            if let Some(right) = g.square(f as i32 + 1, r)
                && pos.at(right).is_side(side)
                && is_pawn(right)
            {
                phalanx += 1;
            }
        }
        let doubled: i32 = count[s][..files].iter().map(|&c| (c - 1).max(0)).sum();
        add(acc, params, side, Term::PassedPawn as usize, passed);
        add(acc, params, side, Term::IsolatedPawn as usize, isolated);
        add(acc, params, side, Term::DoubledPawn as usize, doubled);
        add(acc, params, side, Term::PawnPhalanx as usize, phalanx);
    }
}
