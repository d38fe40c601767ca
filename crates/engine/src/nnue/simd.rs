//! The instruction set the network's arithmetic runs with, chosen at run
//! time: AVX2 on an x86-64 processor that has it, else the plain path
//! (what the target compiles to by default). Both run the same loops
//! ([`add`], [`sub`], [`screlu_dot`]), integer arithmetic whose result
//! does not depend on how it is vectorised: int16 sums wrap alike in any
//! order, and the output's products are exact in i32 and summed in i64.
//! So the two paths give bit-identical accumulators and scores; tests
//! compare them.
//!
//! Setting the environment variable `KAMIL_NNUE_PLAIN` (to anything)
//! before the first network is built makes [`Simd::best`] the plain path.

use std::sync::OnceLock;

/// The instruction set of the network's loops. An AVX2 value exists only
/// where the processor has been found to have AVX2 ([`Simd::avx2`]), which
/// is what makes the calls of the AVX2 functions sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Simd {
    /// True only where AVX2 was detected.
    avx2: bool,
}

impl Simd {
    /// The plain path: no instruction beyond the target's baseline.
    pub const fn plain() -> Simd {
        Simd { avx2: false }
    }

    /// The AVX2 path, if this processor has AVX2 (None elsewhere, and on
    /// other architectures than x86-64).
    pub fn avx2() -> Option<Simd> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Some(Simd { avx2: true });
        }
        None
    }

    /// The fastest path this processor has, detected once per process; the
    /// plain one if `KAMIL_NNUE_PLAIN` is set.
    pub fn best() -> Simd {
        static BEST: OnceLock<Simd> = OnceLock::new();
        *BEST.get_or_init(|| {
            if std::env::var_os("KAMIL_NNUE_PLAIN").is_some() {
                Simd::plain()
            } else {
                Simd::avx2().unwrap_or(Simd::plain())
            }
        })
    }

    /// Is this the AVX2 path?
    #[inline(always)]
    pub fn is_avx2(self) -> bool {
        self.avx2
    }

    /// Its name, for messages: `avx2` or `plain`.
    pub fn name(self) -> &'static str {
        if self.avx2 { "avx2" } else { "plain" }
    }
}

/// `acc += w`, element by element, wrapping as int16 arithmetic does (a
/// trained net keeps sums in range; wrapping keeps every order of adds and
/// subtracts, and every vector width, equal anyway).
#[inline(always)]
pub fn add(acc: &mut [i16], w: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(w) {
        *a = a.wrapping_add(w);
    }
}

/// `acc -= w`, element by element, wrapping.
#[inline(always)]
pub fn sub(acc: &mut [i16], w: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(w) {
        *a = a.wrapping_sub(w);
    }
}

/// Σ clamp(a, 0, clip)² · w, exactly for `clip` up to 255 (the network's
/// `QA`): each product is then at most 255² · 32768 < 2³¹ in magnitude, so
/// exact in i32, and the sum is taken in i64 (H up to
/// [`super::network::MAX_HIDDEN`] cannot overflow it), so any order of
/// summing gives the same value.
#[inline(always)]
pub fn screlu_dot(acc: &[i16], w: &[i16], clip: i32) -> i64 {
    debug_assert!((0..=255).contains(&clip));
    acc.iter()
        .zip(w)
        .map(|(&a, &w)| {
            let c = i32::from(a).clamp(0, clip);
            i64::from(c * c * i32::from(w))
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::network::QA;
    use proptest::prelude::*;

    /// The kernels compiled for AVX2, as the accumulator and network call
    /// them (their bodies are the same inlined loops).
    #[cfg(target_arch = "x86_64")]
    mod avx2 {
        #[target_feature(enable = "avx2")]
        pub fn add(acc: &mut [i16], w: &[i16]) {
            super::add(acc, w)
        }
        #[target_feature(enable = "avx2")]
        pub fn sub(acc: &mut [i16], w: &[i16]) {
            super::sub(acc, w)
        }
        #[target_feature(enable = "avx2")]
        pub fn screlu_dot(acc: &[i16], w: &[i16]) -> i64 {
            super::screlu_dot(acc, w, super::QA)
        }
    }

    #[test]
    fn the_plain_path_is_always_there_and_best_is_one_of_the_two() {
        assert!(!Simd::plain().is_avx2());
        let best = Simd::best();
        assert!(best == Simd::plain() || Some(best) == Simd::avx2());
        assert_eq!(Simd::plain().name(), "plain");
    }

    #[test]
    fn screlu_dot_is_exact_at_the_extremes() {
        // Every product at its largest magnitude: 256 of them overflow i32
        // many times over, the i64 sum does not.
        let acc = vec![i16::MAX; 256];
        let w = vec![i16::MIN; 256];
        let want = 256 * i64::from(QA * QA) * i64::from(i16::MIN);
        assert_eq!(screlu_dot(&acc, &w, QA), want);
        #[cfg(target_arch = "x86_64")]
        if Simd::avx2().is_some() {
            // SAFETY: AVX2 was detected on this processor just above.
            assert_eq!(unsafe { avx2::screlu_dot(&acc, &w) }, want);
        }
    }

    proptest! {
        /// Any values, any length (tails shorter than a vector included):
        /// the AVX2 kernels give the plain ones' results bit for bit.
        #[test]
        fn avx2_kernels_equal_the_plain_ones(
            pairs in proptest::collection::vec((any::<i16>(), any::<i16>()), 0..300),
        ) {
            let (acc, w): (Vec<i16>, Vec<i16>) = pairs.into_iter().unzip();
            let exact: i64 = acc.iter().zip(&w)
                .map(|(&a, &w)| i64::from(a.clamp(0, QA as i16)).pow(2) * i64::from(w))
                .sum();
            prop_assert_eq!(screlu_dot(&acc, &w, QA), exact);
            let (mut plus, mut minus) = (acc.clone(), acc.clone());
            add(&mut plus, &w);
            sub(&mut minus, &w);
            #[cfg(target_arch = "x86_64")]
            if Simd::avx2().is_some() {
                let (mut p2, mut m2) = (acc.clone(), acc.clone());
                // SAFETY: AVX2 was detected on this processor just above.
                unsafe {
                    avx2::add(&mut p2, &w);
                    avx2::sub(&mut m2, &w);
                    prop_assert_eq!(avx2::screlu_dot(&acc, &w), exact);
                }
                prop_assert_eq!(&p2, &plus);
                prop_assert_eq!(&m2, &minus);
            }
            for i in 0..acc.len() {
                prop_assert_eq!(plus[i], acc[i].wrapping_add(w[i]));
                prop_assert_eq!(minus[i], acc[i].wrapping_sub(w[i]));
            }
        }
    }
}
