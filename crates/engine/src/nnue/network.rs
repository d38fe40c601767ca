//! The network: (inputs -> H) x 2 -> 1. One feature transformer shared by
//! both views (int16 weights, quantised by [`QA`]), squared clipped ReLU,
//! and one output over the side to move's view then the other's (int16,
//! quantised by [`QB`]), scaled to centipawns by [`Network::scale`].

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
    /// Output weights: H for the side to move's view, then H for the other.
    pub(super) out_weights: Vec<i16>,
    /// Output bias, in units of `QA * QB`.
    pub(super) out_bias: i32,
    /// Centipawns per unit of output.
    pub(super) scale: i32,
    /// Positions with fewer pieces than this on the board (both sides,
    /// royals included) are scored by the hand-written evaluation, not
    /// the net (0: none); see [`super::hybrid`].
    pub(super) hand_below: u16,
}

impl Network {
    /// A network of `inputs` inputs and `hidden` hidden units, all weights
    /// 0 and the usual scale (the trainer and tests fill it).
    pub fn zeroed(inputs: usize, hidden: usize) -> Network {
        Network {
            inputs,
            hidden,
            ft_weights: vec![0; inputs * hidden],
            ft_bias: vec![0; hidden],
            out_weights: vec![0; 2 * hidden],
            out_bias: 0,
            scale: DEFAULT_SCALE,
            hand_below: 0,
        }
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

    /// A network for `features` with weights drawn from `seed` (small
    /// values, as a trained net has): for tests and benchmarks of the
    /// machinery, not for play.
    pub fn seeded(features: &Features, hidden: usize, seed: u64) -> Network {
        let mut n = Network::zeroed(features.inputs(), hidden);
        let mut s = seed;
        let mut next = move |range: i32| {
            // splitmix64
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            ((z % (2 * range as u64 + 1)) as i32 - range) as i16
        };
        n.ft_weights.iter_mut().for_each(|w| *w = next(40));
        n.ft_bias.iter_mut().for_each(|w| *w = next(60));
        n.out_weights.iter_mut().for_each(|w| *w = next(60));
        n.out_bias = i32::from(next(1000));
        n
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
    /// to move's first), each H values, computed with `simd`.
    pub fn output(&self, us: &[i16], them: &[i16], simd: Simd) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if simd.is_avx2() {
            // SAFETY: a `Simd` whose `is_avx2` is true is made only by
            // `Simd::avx2`, after `is_x86_feature_detected!("avx2")` found
            // AVX2 on this processor, the one feature `output_avx2` enables.
            return unsafe { output_avx2(self, us, them) };
        }
        let _ = simd;
        output_body(self, us, them)
    }
}

/// [`Network::output`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn output_avx2(n: &Network, us: &[i16], them: &[i16]) -> i32 {
    output_body(n, us, them)
}

/// The output: both views' squared clipped sums, dotted with the output
/// weights, plus the bias, scaled to centipawns.
#[inline(always)]
fn output_body(n: &Network, us: &[i16], them: &[i16]) -> i32 {
    let h = n.hidden;
    let sum = simd::screlu_dot(us, &n.out_weights[..h], QA)
        + simd::screlu_dot(them, &n.out_weights[h..], QA);
    // sum is in QA² · QB units: one QA off to match the bias.
    ((sum / i64::from(QA) + i64::from(n.out_bias)) * i64::from(n.scale) / i64::from(QA * QB)) as i32
}
