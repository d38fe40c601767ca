//! Adam (Kingma and Ba, 2015), the one optimiser of both trainers: the
//! network trainer ([`crate::nnue`], `f32`, mini-batches, lazily on the
//! rows a batch touches) and Texel's method ([`crate::texel`], `f64`,
//! full batch). The bias corrections are folded into the step size
//! ([`Adam::rate`]), as in the paper's section 2; decoupled weight decay
//! (AdamW) is optional per call.

use std::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};

/// The float type of a model: `f32` to train, `f64` to check gradients
/// and to tune (Texel's method).
pub trait Real:
    Copy
    + Default
    + PartialOrd
    + std::fmt::Debug
    + Send
    + Sync
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
{
    /// `x` in this type (rounded).
    fn of(x: f64) -> Self;
    /// This value as `f64`.
    fn f64(self) -> f64;
    /// `e^self`.
    fn exp(self) -> Self;
    /// The square root.
    fn sqrt(self) -> Self;
    /// `self^n`.
    fn powi(self, n: i32) -> Self;
}

impl Real for f32 {
    fn of(x: f64) -> f32 {
        x as f32
    }
    fn f64(self) -> f64 {
        f64::from(self)
    }
    fn exp(self) -> f32 {
        f32::exp(self)
    }
    fn sqrt(self) -> f32 {
        f32::sqrt(self)
    }
    fn powi(self, n: i32) -> f32 {
        f32::powi(self, n)
    }
}

impl Real for f64 {
    fn of(x: f64) -> f64 {
        x
    }
    fn f64(self) -> f64 {
        self
    }
    fn exp(self) -> f64 {
        f64::exp(self)
    }
    fn sqrt(self) -> f64 {
        f64::sqrt(self)
    }
    fn powi(self, n: i32) -> f64 {
        f64::powi(self, n)
    }
}

/// Adam's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Adam<T> {
    /// The step size, in the weights' units.
    pub lr: T,
    /// The decay of the first moment (0.9 usually).
    pub beta1: T,
    /// The decay of the second moment (0.999 usually).
    pub beta2: T,
    /// The ε added to the second moment's square root.
    pub eps: T,
}

impl<T: Real> Adam<T> {
    /// The step size of step `t` (from 1) with both bias corrections
    /// folded in: `lr · √(1 - β2^t) / (1 - β1^t)`.
    pub fn rate(&self, t: i32) -> T {
        let one = T::of(1.0);
        self.lr * (one - self.beta2.powi(t)).sqrt() / (one - self.beta1.powi(t))
    }

    /// One weight's step: the moments `m` and `v` take the gradient `g`,
    /// then `w` moves by `rate · m / (√v + ε)` against it and shrinks by
    /// `decay · w` (0: no decay).
    #[inline]
    pub fn update(&self, rate: T, w: &mut T, g: T, m: &mut T, v: &mut T, decay: T) {
        let one = T::of(1.0);
        *m = self.beta1 * *m + (one - self.beta1) * g;
        *v = self.beta2 * *v + (one - self.beta2) * g * g;
        *w -= rate * *m / (v.sqrt() + self.eps) + decay * *w;
    }

    /// [`Adam::update`] over slices of one length (a shorter one ends it).
    #[inline]
    pub fn update_slice(&self, rate: T, w: &mut [T], g: &[T], m: &mut [T], v: &mut [T], decay: T) {
        for (((w, &g), m), v) in w.iter_mut().zip(g).zip(m.iter_mut()).zip(v.iter_mut()) {
            self.update(rate, w, g, m, v, decay);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Adam finds the minimum of a bowl, `(w - 3)²`, from 0.
    #[test]
    fn adam_descends_a_bowl() {
        let opt = Adam {
            lr: 0.1,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
        };
        let (mut w, mut m, mut v) = (0.0f64, 0.0, 0.0);
        for t in 1..=500 {
            let g = 2.0 * (w - 3.0);
            opt.update(opt.rate(t), &mut w, g, &mut m, &mut v, 0.0);
        }
        assert!((w - 3.0).abs() < 1e-3, "{w}");
    }

    /// The first step moves each weight by about the step size against
    /// its gradient's sign, whatever the gradient's size (Adam's scale
    /// invariance); decay shrinks a weight with no gradient.
    #[test]
    fn the_first_step_is_the_step_size_and_decay_shrinks() {
        let opt = Adam {
            lr: 0.01f32,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
        };
        let mut w = [1.0f32, 1.0, 1.0];
        let (mut m, mut v) = ([0.0f32; 3], [0.0f32; 3]);
        opt.update_slice(
            opt.rate(1),
            &mut w,
            &[1e-3, -50.0, 0.0],
            &mut m,
            &mut v,
            0.5,
        );
        assert!((w[0] - (1.0 - 0.01 - 0.5)).abs() < 1e-4, "{w:?}");
        assert!((w[1] - (1.0 + 0.01 - 0.5)).abs() < 1e-4, "{w:?}");
        assert_eq!(w[2], 0.5);
    }
}
