//! Piece-square terms: what a piece's square is worth, from the variant
//! file alone (its moves, value and promotions), as features whose weights
//! are [`Params`] terms.

use super::weights::{Params, Term};
use kamil_rules::Geometry;
use kamil_rules::piece::Moveset;
use kamil_rules::{Side, Square, Variant};

/// The features of one piece type on one square, before weighting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SquareShape {
    /// Value × (empty-board mobility here − average) / (6 × average),
    /// centipawns ([`Term::Centralisation`], percent).
    pub centralisation: i32,
    /// 45% of the best promotion gain inside a shogi zone, centipawns
    /// ([`Term::PromotionZone`], percent).
    pub promotion_zone: i32,
    /// The share of the best promotion gain earned nearing the zone or the
    /// last rank, centipawns ([`Term::PromotionApproach`], percent).
    pub promotion_approach: i32,
    /// Ranks a pawn that cannot promote has advanced ([`Term::PawnAdvance`]).
    pub pawn_advance: i32,
    /// Ranks (at most 3) a royal stands from its home rank
    /// ([`Term::RoyalAdvance`]).
    pub royal_advance: i32,
    /// Steps a royal stands from the centre ([`Term::RoyalCentre`]).
    pub royal_centre: i32,
    /// Ranks from its side's home rank, for the piece type's own weight
    /// ([`Params::advance_index`]).
    pub advance: i32,
    /// Half-steps from the board's edges toward its centre, files and
    /// ranks added, for the piece type's own weight
    /// ([`Params::centre_index`]).
    pub centre: i32,
}

impl SquareShape {
    /// The features of piece type `t` with their weights: (middle game,
    /// end game), centipawns. Percent terms are truncated toward zero each.
    pub fn weighted(&self, p: &Params, t: usize) -> (i64, i64) {
        let cp = [
            (Term::PawnAdvance, self.pawn_advance),
            (Term::RoyalAdvance, self.royal_advance),
            (Term::RoyalCentre, self.royal_centre),
        ];
        let percent = [
            (Term::Centralisation, self.centralisation),
            (Term::PromotionZone, self.promotion_zone),
            (Term::PromotionApproach, self.promotion_approach),
        ];
        let (mut mg, mut eg) = (0i64, 0i64);
        let own = [
            (p.pairs[p.advance_index(t)], self.advance),
            (p.pairs[p.centre_index(t)], self.centre),
        ];
        for (w, f) in cp.map(|(term, f)| (p.term(term), f)).into_iter().chain(own) {
            mg += i64::from(w.mg) * i64::from(f);
            eg += i64::from(w.eg) * i64::from(f);
        }
        for (term, f) in percent {
            let w = p.term(term);
            mg += i64::from(w.mg) * i64::from(f) / 100;
            eg += i64::from(w.eg) * i64::from(f) / 100;
        }
        (mg, eg)
    }
}

/// The square features of type `t` for `side` on `sq`. `value` holds the
/// piece values (centipawns) the shapes scale by; `avg` is the type's
/// average empty-board mobility ([`average_mobility`]).
pub fn square_shape(
    v: &Variant,
    value: &[i32],
    t: usize,
    side: Side,
    sq: Square,
    avg: f64,
) -> SquareShape {
    let g = &v.geometry;
    let info = &v.pieces[t];
    let ms = &v.movesets[t][side.index()];
    let ranks = g.ranks() as i32;
    let files = g.files() as i32;
    let rank = g.rank(sq) as i32;
    let file = g.file(sq) as i32;
    let adv = advance(g, sq, side);
    let mut s = SquareShape {
        advance: adv,
        centre: (files - 1 - (2 * file - (files - 1)).abs())
            + (ranks - 1 - (2 * rank - (ranks - 1)).abs()),
        ..SquareShape::default()
    };
    if info.royal {
        s.royal_advance = adv.min(3);
        let fx = (2 * file - (files - 1)).abs();
        let fy = (2 * rank - (ranks - 1)).abs();
        s.royal_centre = fx.max(fy) / 2;
        return s;
    }
    if avg > 0.0 {
        let here = mobility(g, ms, sq) as f64;
        s.centralisation = (value[t] as f64 * (here - avg) / (avg * 6.0)) as i32;
    }
    // Promotion potential: the best value the piece can become.
    let gain = promotion_gain(v, value, t);
    if gain > 0 {
        let zone = v.promotion.zone.max(1) as i32;
        let zone_start = ranks - zone;
        let g_f = gain as f64;
        if v.promotion.shogi {
            if adv >= zone_start {
                s.promotion_zone = (0.45 * g_f) as i32;
            } else {
                let d = (zone_start - adv) as f64;
                s.promotion_approach = (0.25 * g_f / (1.0 + d * d)) as i32;
            }
        } else {
            // Chess style: promotion happens on arrival at the far rank.
            let d = (ranks - 1 - adv) as f64;
            if d > 0.0 {
                s.promotion_approach = (0.5 * g_f / (d * d + 0.5)) as i32;
            }
        }
    } else if info.pawn {
        s.pawn_advance = adv;
    }
    s
}

/// Ranks `sq` stands from `side`'s home rank (0 = home rank).
#[inline]
pub fn advance(g: &Geometry, sq: Square, side: Side) -> i32 {
    let rank = g.rank(sq) as i32;
    if side == Side::First {
        rank
    } else {
        g.ranks() as i32 - 1 - rank
    }
}

/// The largest value increase from promoting a piece of type `t`.
pub fn promotion_gain(v: &Variant, value: &[i32], t: usize) -> i32 {
    let info = &v.pieces[t];
    let mut best = 0;
    if let Some(p) = info.promoted {
        best = best.max(value[p as usize] - value[t]);
    }
    for &p in &info.promotes_to {
        best = best.max(value[p as usize] - value[t]);
    }
    if let Some(p) = info.ripens_to {
        best = best.max(value[v.final_form(p) as usize] - value[t]);
    }
    best.max(0)
}

/// Moves of a piece from `sq` on an otherwise empty board.
pub fn mobility(g: &Geometry, ms: &Moveset, sq: Square) -> usize {
    let mut n = 0;
    for l in &ms.leaps {
        if !l.initial && g.is_square(sq.shift(l.off)) {
            n += 1;
        }
    }
    for r in ms.rides.iter().filter(|r| !r.initial) {
        let mut t = sq.shift(r.off);
        let mut k = 0;
        while k < r.max && g.is_square(t) {
            n += 1;
            k += 1;
            t = t.shift(r.off);
        }
    }
    for (legs, initial) in &ms.multi {
        if !initial && legs.first().is_some_and(|l| g.is_square(sq.shift(l.off))) {
            n += 1;
        }
    }
    n
}

/// A moveset's [`mobility`] averaged over the board's squares.
pub fn average_mobility(g: &Geometry, ms: &Moveset) -> f64 {
    let mut total = 0;
    let mut count = 0;
    for sq in g.squares() {
        total += mobility(g, ms, sq);
        count += 1;
    }
    if count == 0 {
        0.0
    } else {
        total as f64 / count as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advance_counts_from_each_sides_home_rank_and_centre_from_the_edges() {
        let v = Variant::builtin("courier", &[]).unwrap();
        let g = &v.geometry;
        let pawn = v.piece_by_key("pawn").unwrap() as usize;
        let value: Vec<i32> = v.pieces.iter().map(|p| p.value).collect();
        let at = |name: &str, side: Side| {
            let sq = g.parse_square(name).unwrap();
            square_shape(&v, &value, pawn, side, sq, 1.0)
        };
        // Courier's board: 12 files, 8 ranks.
        assert_eq!(at("a2", Side::First).advance, 1);
        assert_eq!(at("a2", Side::Second).advance, 6);
        // a2: no half-step in from the a-file, two up from the first rank.
        assert_eq!(at("a2", Side::First).centre, 2);
        // f4: ten half-steps from the files' edges, six from the ranks'.
        assert_eq!(at("f4", Side::First).centre, 16);
        assert_eq!(at("g5", Side::Second).centre, 16, "the centre is symmetric");
    }
}
