//! Where the evaluation's features go: summed with their weights for the
//! search ([`Sum`]), or also recorded as coefficients for tuning
//! ([`Tracer`]). The evaluation is written once, generic over an
//! [`Accumulator`], so the trace cannot drift from what the search sees.

use super::squares::SquareShape;
use super::weights::{Pair, Params, Term};
use kamil_rules::Side;

/// The sink of the evaluation's features, per side.
pub trait Accumulator {
    /// Must terms whose weight is 0 be computed too? (A trace needs every
    /// feature; the search skips the costly ones that weigh nothing.)
    const EVERY_TERM: bool;

    /// The running weighted sums.
    fn sum(&mut self) -> &mut Sum;

    /// Records `count` units of the feature of pair `index` for `side`
    /// (already added to [`Accumulator::sum`] by [`add`]).
    fn record(&mut self, side: Side, index: usize, count: f64);

    /// Records the square features of one piece of type `t` of `side`.
    fn record_square(&mut self, side: Side, t: usize, shape: &SquareShape);

    /// The phase and the progress scaling, once every feature is in:
    /// `phase` of `total` is the middle-game share, `scale` the factor
    /// applied to all but the tempo.
    fn finish(&mut self, us: Side, phase: i64, total: i64, scale: f64);
}

/// Adds `count` units of pair `index`'s feature (not a piece value) for
/// `side` to the sums and the record.
#[inline(always)]
pub fn add<A: Accumulator>(acc: &mut A, params: &Params, side: Side, index: usize, count: i32) {
    acc.sum().add(side, params.pairs[index], count);
    if A::EVERY_TERM {
        acc.record(side, index, f64::from(count));
    }
}

/// Adds one piece of type `t` for `side` to the material sums and the
/// record.
#[inline(always)]
pub fn add_material<A: Accumulator>(acc: &mut A, params: &Params, side: Side, t: usize) {
    let index = params.piece_value_index(t);
    acc.sum().add_material(side, params.pairs[index]);
    if A::EVERY_TERM {
        acc.record(side, index, 1.0);
    }
}

/// Running sums per side, centipawns: material and the other terms, each
/// in middle-game and end-game weight.
#[derive(Clone, Debug, Default)]
pub struct Sum {
    /// Piece values, middle game, per side.
    pub material_mg: [i64; 2],
    /// Piece values, end game, per side.
    pub material_eg: [i64; 2],
    /// Other terms, middle game, per side.
    pub mg: [i64; 2],
    /// Other terms, end game, per side.
    pub eg: [i64; 2],
}

impl Sum {
    /// Adds `count` units of a feature weighing `w` for `side`.
    #[inline(always)]
    pub fn add(&mut self, side: Side, w: Pair, count: i32) {
        let s = side.index();
        let c = i64::from(count);
        self.mg[s] += i64::from(w.mg) * c;
        self.eg[s] += i64::from(w.eg) * c;
    }

    /// Adds a piece worth `w` to `side`'s material.
    #[inline(always)]
    pub fn add_material(&mut self, side: Side, w: Pair) {
        let s = side.index();
        self.material_mg[s] += i64::from(w.mg);
        self.material_eg[s] += i64::from(w.eg);
    }

    /// Adds a weighted piece-square entry (middle game, end game) for
    /// `side`.
    #[inline(always)]
    pub fn add_square(&mut self, side: Side, entry: [i16; 2]) {
        self.mg[side.index()] += i64::from(entry[0]);
        self.eg[side.index()] += i64::from(entry[1]);
    }
}

impl Accumulator for Sum {
    const EVERY_TERM: bool = false;

    #[inline(always)]
    fn sum(&mut self) -> &mut Sum {
        self
    }

    #[inline(always)]
    fn record(&mut self, _: Side, _: usize, _: f64) {}

    #[inline(always)]
    fn record_square(&mut self, _: Side, _: usize, _: &SquareShape) {}

    #[inline(always)]
    fn finish(&mut self, _: Side, _: i64, _: i64, _: f64) {}
}

/// The features of a position as coefficients of the weights: the
/// evaluation is `Σ coefficient × weight` (see [`Trace::dot`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    /// Nonzero coefficients `(k, c)`: `k = 2 i` is the middle-game weight
    /// of pair `i` of [`Params::pairs`], `k = 2 i + 1` its end-game weight;
    /// `c` already holds the phase share and the progress scaling, from the
    /// side to move's view.
    pub coefficients: Vec<(u32, f64)>,
    /// The evaluation of the position, centipawns, side to move's view.
    pub score: i32,
}

impl Trace {
    /// `Σ coefficient × weight` over `params`, centipawns: the evaluation
    /// but for rounding (see [`super::Evaluator::trace`]) and clamps.
    pub fn dot(&self, params: &Params) -> f64 {
        self.coefficients
            .iter()
            .map(|&(k, c)| {
                let p = params.pairs[k as usize / 2];
                c * f64::from(if k % 2 == 0 { p.mg } else { p.eg })
            })
            .sum()
    }
}

/// An accumulator that sums (so the evaluation's decisions are the
/// search's) and records every feature's count per side.
#[derive(Clone, Debug)]
pub struct Tracer {
    sum: Sum,
    /// Per pair, per side: the feature's count.
    counts: Vec<[f64; 2]>,
    /// The coefficients once [`Accumulator::finish`] has run.
    done: Vec<(u32, f64)>,
    /// Index of piece type 0's advance weight, then its centre weight.
    own_square: [usize; 2],
}

impl Tracer {
    /// An empty record over the weights `params`.
    pub fn new(params: &Params) -> Tracer {
        Tracer {
            sum: Sum::default(),
            counts: vec![[0.0; 2]; params.pairs.len()],
            done: Vec::new(),
            own_square: [params.advance_index(0), params.centre_index(0)],
        }
    }

    /// The coefficients (see [`Trace::coefficients`]).
    pub fn into_coefficients(self) -> Vec<(u32, f64)> {
        self.done
    }
}

impl Accumulator for Tracer {
    const EVERY_TERM: bool = true;

    fn sum(&mut self) -> &mut Sum {
        &mut self.sum
    }

    fn record(&mut self, side: Side, index: usize, count: f64) {
        self.counts[index][side.index()] += count;
    }

    fn record_square(&mut self, side: Side, t: usize, shape: &SquareShape) {
        let s = side.index();
        self.counts[self.own_square[0] + t][s] += f64::from(shape.advance);
        self.counts[self.own_square[1] + t][s] += f64::from(shape.centre);
        let cp = [
            (Term::PawnAdvance, shape.pawn_advance),
            (Term::RoyalAdvance, shape.royal_advance),
            (Term::RoyalCentre, shape.royal_centre),
        ];
        let percent = [
            (Term::Centralisation, shape.centralisation),
            (Term::PromotionZone, shape.promotion_zone),
            (Term::PromotionApproach, shape.promotion_approach),
        ];
        for (t, f) in cp {
            self.counts[t as usize][s] += f64::from(f);
        }
        for (t, f) in percent {
            self.counts[t as usize][s] += f64::from(f) / 100.0;
        }
    }

    fn finish(&mut self, us: Side, phase: i64, total: i64, scale: f64) {
        let (u, o) = (us.index(), us.flip().index());
        let mg_share = phase as f64 / total as f64;
        let eg_share = 1.0 - mg_share;
        self.done.clear();
        for (i, c) in self.counts.iter().enumerate() {
            let net = c[u] - c[o];
            if net == 0.0 {
                continue;
            }
            let scale = if i == Term::Tempo as usize {
                1.0
            } else {
                scale
            };
            if mg_share != 0.0 {
                self.done.push((2 * i as u32, net * mg_share * scale));
            }
            if eg_share != 0.0 {
                self.done.push((2 * i as u32 + 1, net * eg_share * scale));
            }
        }
    }
}
