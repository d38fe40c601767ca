//! The network: (inputs -> H) x 2 -> 1. One feature transformer shared by
//! both views (int16 weights, quantised by [`QA`]), squared clipped ReLU,
//! and one output over the side to move's view then the other's (int16,
//! quantised by [`QB`]), scaled to centipawns by `Network::scale`. The
//! output may have several buckets, one chosen by the pieces on the board
//! ([`Buckets`]), as Stockfish's output layer is chosen by its piece count.

use super::features::Features;
use super::simd::{self, Simd};

/// Quantisation of the feature transformer: 1.0 is `QA`.
pub const QA: i32 = 255;
/// Quantisation of the output weights: 1.0 is `QB`.
pub const QB: i32 = 64;
/// The usual output scale: a net output of 1.0 is this many centipawns.
pub const DEFAULT_SCALE: i32 = 400;
/// Widest hidden layer a network file may declare.
pub const MAX_HIDDEN: usize = 4096;

/// Most output buckets a network may have.
pub const MAX_BUCKETS: u16 = 64;

/// The output buckets: which of a network's outputs scores a position, by
/// the pieces on its board (both sides, royals included): bucket
/// `min(count - 1, (pieces - 1) / size)`, so the fullest boards take the
/// last bucket and the sparsest the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Buckets {
    /// How many outputs, 1 to [`MAX_BUCKETS`].
    count: u16,
    /// Pieces per bucket, at least 1.
    size: u16,
}

impl Buckets {
    /// One output for every position.
    pub const ONE: Buckets = Buckets { count: 1, size: 1 };

    /// `count` buckets (clamped to 1 to [`MAX_BUCKETS`]) of `size` pieces
    /// each (at least 1).
    pub fn new(count: u16, size: u16) -> Buckets {
        Buckets {
            count: count.clamp(1, MAX_BUCKETS),
            size: size.max(1),
        }
    }

    /// `count` buckets that share out a board of `full` pieces (a start
    /// position's) evenly: the size is `full / count` rounded up.
    pub fn spread(count: u16, full: usize) -> Buckets {
        let count = count.clamp(1, MAX_BUCKETS);
        let size = full
            .div_ceil(usize::from(count))
            .clamp(1, usize::from(u16::MAX));
        Buckets::new(count, size as u16)
    }

    /// How many outputs.
    pub fn count(self) -> usize {
        usize::from(self.count)
    }

    /// Pieces per bucket.
    pub fn size(self) -> u16 {
        self.size
    }

    /// The bucket of a board with `pieces` pieces, `0..count`.
    #[inline]
    pub fn index(self, pieces: usize) -> usize {
        (pieces.saturating_sub(1) / usize::from(self.size)).min(usize::from(self.count) - 1)
    }
}

/// A quantised network for one variant's feature layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// Inputs of one view ([`Features::inputs`]).
    pub(super) inputs: usize,
    /// Hidden width H.
    pub(super) hidden: usize,
    /// Feature transformer: H weights per input, input-major.
    pub(super) ft_weights: Vec<i16>,
    /// Feature transformer biases, H.
    pub(super) ft_bias: Vec<i16>,
    /// Output weights, per bucket: H for the side to move's view, then H
    /// for the other (bucket-major, 2H a bucket).
    pub(super) out_weights: Vec<i16>,
    /// Output biases, one per bucket, in units of `QA * QB`.
    pub(super) out_bias: Vec<i32>,
    /// The output buckets.
    pub(super) buckets: Buckets,
    /// Centipawns per unit of output.
    pub(super) scale: i32,
    /// Positions with fewer pieces than this on the board (both sides,
    /// royals included) are scored by the hand-written evaluation, not
    /// the net (0: none); see [`super::hybrid`].
    pub(super) hand_below: u16,
    /// The net is a correction to the hand-written evaluation: a
    /// position's score is the hand-written score plus the net's output
    /// (trained so by `kamil train-net --residual`); see [`super::hybrid`].
    pub(super) residual: bool,
}

impl Network {
    /// A network of `inputs` inputs, `hidden` hidden units and one output
    /// per bucket of `buckets`, all weights 0 and the usual scale (the
    /// trainer and tests fill it).
    pub fn zeroed(inputs: usize, hidden: usize, buckets: Buckets) -> Network {
        Network {
            inputs,
            hidden,
            ft_weights: vec![0; inputs * hidden],
            ft_bias: vec![0; hidden],
            out_weights: vec![0; buckets.count() * 2 * hidden],
            out_bias: vec![0; buckets.count()],
            buckets,
            scale: DEFAULT_SCALE,
            hand_below: 0,
            residual: false,
        }
    }

    /// The output buckets.
    pub fn buckets(&self) -> Buckets {
        self.buckets
    }

    /// Pieces on the board under which the hand-written evaluation scores
    /// a position instead of this net (0: never).
    pub fn hand_below(&self) -> u16 {
        self.hand_below
    }

    /// Sets [`Network::hand_below`].
    pub fn set_hand_below(&mut self, pieces: u16) {
        self.hand_below = pieces;
    }

    /// Is the net's output added to the hand-written evaluation's score
    /// (a correction to it) rather than a score of its own?
    pub fn residual(&self) -> bool {
        self.residual
    }

    /// Sets [`Network::residual`].
    pub fn set_residual(&mut self, residual: bool) {
        self.residual = residual;
    }

    /// A network for `features` with weights drawn from `seed` (small
    /// values, as a trained net has): for tests and benchmarks of the
    /// machinery, not for play.
    pub fn seeded(features: &Features, hidden: usize, buckets: Buckets, seed: u64) -> Network {
        let mut n = Network::zeroed(features.inputs(), hidden, buckets);
        let mut rng = kamil_rules::splitmix::SplitMix64::new(seed);
        let mut next =
            move |range: i32| ((rng.next_u64() % (2 * range as u64 + 1)) as i32 - range) as i16;
        n.ft_weights.iter_mut().for_each(|w| *w = next(40));
        n.ft_bias.iter_mut().for_each(|w| *w = next(60));
        n.out_weights.iter_mut().for_each(|w| *w = next(60));
        n.out_bias
            .iter_mut()
            .for_each(|b| *b = i32::from(next(1000)));
        n
    }

    /// The quantised weights, to read (the trainer's start from a net).
    pub fn weights(&self) -> Weights<'_> {
        Weights {
            ft_weights: &self.ft_weights,
            ft_bias: &self.ft_bias,
            out_weights: &self.out_weights,
            out_bias: &self.out_bias,
            scale: self.scale,
        }
    }

    /// The quantised weights, to write in place (the trainer's
    /// quantisation fills a [`Network::zeroed`]): their lengths are the
    /// network's shape and cannot change.
    pub fn weights_mut(&mut self) -> WeightsMut<'_> {
        WeightsMut {
            ft_weights: &mut self.ft_weights,
            ft_bias: &mut self.ft_bias,
            out_weights: &mut self.out_weights,
            out_bias: &mut self.out_bias,
        }
    }

    /// Sets the centipawns per unit of output (at least 1).
    pub fn set_scale(&mut self, scale: i32) {
        self.scale = scale.max(1);
    }

    /// Inputs of one view.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// Hidden width.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The weights of input `i`, one per hidden unit.
    #[inline(always)]
    pub(super) fn column(&self, i: usize) -> &[i16] {
        &self.ft_weights[i * self.hidden..(i + 1) * self.hidden]
    }

    /// The output in centipawns of the two views' accumulators (the side
    /// to move's first), each H values, for a board of `pieces` pieces
    /// (both sides: it picks the bucket), computed with `simd`.
    pub fn output(&self, us: &[i16], them: &[i16], pieces: usize, simd: Simd) -> i32 {
        let b = self.buckets.index(pieces);
        #[cfg(target_arch = "x86_64")]
        if simd.is_avx2() {
            // SAFETY: a `Simd` whose `is_avx2` is true is made only by
            // `Simd::avx2`, after `is_x86_feature_detected!("avx2")` found
            // AVX2 on this processor, the one feature `output_avx2` enables.
            return unsafe { output_avx2(self, us, them, b) };
        }
        let _ = simd;
        output_body(self, us, them, b)
    }
}

/// A network's quantised weights, read-only: the shapes and units of
/// [`Network`]'s fields (`ft_weights` H per input, input-major, in units
/// of 1/[`QA`]; `ft_bias` H; `out_weights` 2H per bucket, in 1/[`QB`];
/// `out_bias` one per bucket in 1/(`QA`·`QB`); `scale` centipawns per
/// unit of output).
#[derive(Clone, Copy, Debug)]
pub struct Weights<'a> {
    /// Feature transformer weights.
    pub ft_weights: &'a [i16],
    /// Feature transformer biases.
    pub ft_bias: &'a [i16],
    /// Output weights.
    pub out_weights: &'a [i16],
    /// Output biases.
    pub out_bias: &'a [i32],
    /// Centipawns per unit of output.
    pub scale: i32,
}

/// A network's quantised weights, writable in place: as [`Weights`].
#[derive(Debug)]
pub struct WeightsMut<'a> {
    /// Feature transformer weights.
    pub ft_weights: &'a mut [i16],
    /// Feature transformer biases.
    pub ft_bias: &'a mut [i16],
    /// Output weights.
    pub out_weights: &'a mut [i16],
    /// Output biases.
    pub out_bias: &'a mut [i32],
}

/// [`Network::output`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn output_avx2(n: &Network, us: &[i16], them: &[i16], bucket: usize) -> i32 {
    output_body(n, us, them, bucket)
}

/// The output of `bucket`: both views' squared clipped sums, dotted with
/// its output weights, plus its bias, scaled to centipawns.
#[inline(always)]
fn output_body(n: &Network, us: &[i16], them: &[i16], bucket: usize) -> i32 {
    let h = n.hidden;
    let w = &n.out_weights[bucket * 2 * h..(bucket + 1) * 2 * h];
    let sum = simd::screlu_dot(us, &w[..h], QA) + simd::screlu_dot(them, &w[h..], QA);
    // sum is in QA² · QB units: one QA off to match the bias.
    ((sum / i64::from(QA) + i64::from(n.out_bias[bucket])) * i64::from(n.scale)
        / i64::from(QA * QB)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_run_from_the_sparsest_board_to_the_fullest() {
        // Courier's 48 pieces in 8 buckets of 6.
        let b = Buckets::spread(8, 48);
        assert_eq!((b.count(), b.size()), (8, 6));
        assert_eq!(b.index(0), 0);
        assert_eq!(b.index(2), 0);
        assert_eq!(b.index(6), 0);
        assert_eq!(b.index(7), 1);
        assert_eq!(b.index(47), 7);
        assert_eq!(b.index(48), 7);
        // More pieces than a start position's (a variant's option): the last.
        assert_eq!(b.index(60), 7);
        assert_eq!(Buckets::ONE.index(48), 0);
        // Out-of-range requests are clamped, never a division by 0.
        assert_eq!(Buckets::new(0, 0), Buckets::ONE);
        assert_eq!(Buckets::spread(200, 10).count(), usize::from(MAX_BUCKETS));
        assert_eq!(Buckets::spread(3, 0).index(5), 2);
    }

    #[test]
    fn each_bucket_scores_with_its_own_weights() {
        let mut n = Network::zeroed(4, 2, Buckets::new(2, 10));
        // Bucket 1 weights twice bucket 0's; biases differ by 1.0 net units.
        n.out_weights = vec![64, 0, 0, 0, 128, 0, 0, 0];
        n.out_bias = vec![0, QA * QB];
        let us = [QA as i16, 0];
        let them = [0, 0];
        let plain = Simd::plain();
        assert_eq!(n.output(&us, &them, 10, plain), 400);
        assert_eq!(n.output(&us, &them, 11, plain), 2 * 400 + 400);
    }
}
