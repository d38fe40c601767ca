//! The feature transformer's output for both views, one entry per ply of
//! the search's path: each move copies its parent's entry and adds and
//! subtracts the weight columns of the pieces its change list names
//! ([`kamil_rules::BoardChange`]); the root is computed from the
//! board. With king buckets, a view whose King moved into another bucket
//! is computed from the board instead (its every input changed). Each of these runs on the instruction set of the given
//! [`Simd`], with the same result on each.

use super::features::Features;
use super::network::Network;
use super::simd::{self, Simd};
use kamil_rules::BoardChange;
use kamil_rules::{Position, Side};

/// A stack of accumulators: `2 * H` values per ply (the first player's
/// view, then the second's).
#[derive(Clone, Debug)]
pub struct Accumulators {
    hidden: usize,
    /// Entries `0..=top`, each `2 * hidden` values.
    values: Vec<i16>,
    /// Each entry's king bucket of each view ([`Features::bucket`]).
    buckets: Vec<[u8; 2]>,
    top: usize,
}

impl Accumulators {
    /// The stack with one entry, `pos` computed from scratch with `simd`.
    pub fn new(net: &Network, features: &Features, pos: &Position, simd: Simd) -> Accumulators {
        let mut a = Accumulators {
            hidden: net.hidden,
            values: vec![0; 2 * net.hidden],
            buckets: vec![[0; 2]],
            top: 0,
        };
        a.refresh(net, features, pos, simd);
        a
    }

    /// Recomputes the top entry from the board of `pos`, with `simd`.
    pub fn refresh(&mut self, net: &Network, features: &Features, pos: &Position, simd: Simd) {
        #[cfg(target_arch = "x86_64")]
        if simd.is_avx2() {
            // SAFETY: a `Simd` whose `is_avx2` is true is made only by
            // `Simd::avx2`, after `is_x86_feature_detected!("avx2")` found
            // AVX2 on this processor, the one feature `refresh_avx2` enables.
            unsafe { refresh_avx2(self, net, features, pos) };
            return;
        }
        let _ = simd;
        refresh_body(self, net, features, pos);
    }

    /// Pushes the entry of `pos`, the position a move led to: its
    /// parent's with `changes` applied (none for a null move), or a view
    /// computed from the board where its king bucket changed, with `simd`.
    pub fn push(
        &mut self,
        net: &Network,
        features: &Features,
        pos: &Position,
        changes: &[BoardChange],
        simd: Simd,
    ) {
        #[cfg(target_arch = "x86_64")]
        if simd.is_avx2() {
            // SAFETY: as in `refresh`: AVX2 was detected, the one feature
            // `push_avx2` enables.
            unsafe { push_avx2(self, net, features, pos, changes) };
            return;
        }
        let _ = simd;
        push_body(self, net, features, pos, changes);
    }

    /// Pops the entry of the move taken back (the root entry stays).
    pub fn pop(&mut self) {
        self.top = self.top.saturating_sub(1);
    }

    /// The top entry's view of `side`, H values.
    pub fn view(&self, side: Side) -> &[i16] {
        let h = self.hidden;
        let at = self.top * 2 * h + side.index() * h;
        &self.values[at..at + h]
    }

    fn top_mut(&mut self) -> &mut [i16] {
        let n = 2 * self.hidden;
        &mut self.values[self.top * n..(self.top + 1) * n]
    }
}

/// [`Accumulators::refresh`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn refresh_avx2(a: &mut Accumulators, net: &Network, features: &Features, pos: &Position) {
    refresh_body(a, net, features, pos);
}

/// [`Accumulators::push`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn push_avx2(
    a: &mut Accumulators,
    net: &Network,
    features: &Features,
    pos: &Position,
    changes: &[BoardChange],
) {
    push_body(a, net, features, pos, changes);
}

/// The top entry from the board: the biases plus every piece's column.
#[inline(always)]
fn refresh_body(a: &mut Accumulators, net: &Network, features: &Features, pos: &Position) {
    for view in [Side::First, Side::Second] {
        refresh_view(a, net, features, pos, view);
    }
}

/// `view`'s half of the top entry from the board, and its bucket.
#[inline(always)]
fn refresh_view(
    a: &mut Accumulators,
    net: &Network,
    features: &Features,
    pos: &Position,
    view: Side,
) {
    let h = a.hidden;
    let bucket = features.bucket(view, pos);
    a.buckets[a.top][view.index()] = bucket as u8;
    let top = a.top_mut();
    let acc = &mut top[view.index() * h..(view.index() + 1) * h];
    acc.copy_from_slice(&net.ft_bias);
    for side in [Side::First, Side::Second] {
        for &sq in pos.pieces(side) {
            simd::add(
                acc,
                net.column(features.index_in(view, bucket, pos.at(sq), sq)),
            );
        }
    }
}

/// A new top entry: the parent's with the changes' columns subtracted
/// (the piece before) and added (the piece after); a view whose king
/// bucket changed, from the board.
#[inline(always)]
fn push_body(
    a: &mut Accumulators,
    net: &Network,
    features: &Features,
    pos: &Position,
    changes: &[BoardChange],
) {
    let n = 2 * a.hidden;
    let from = a.top * n;
    if a.values.len() < from + 2 * n {
        a.values.resize(from + 2 * n, 0);
    }
    if a.buckets.len() < a.top + 2 {
        a.buckets.resize(a.top + 2, [0; 2]);
    }
    a.values.copy_within(from..from + n, from + n);
    let parent = a.buckets[a.top];
    a.top += 1;
    a.buckets[a.top] = parent;
    let h = a.hidden;
    for view in [Side::First, Side::Second] {
        let bucket = usize::from(parent[view.index()]);
        if features.kings().is_some() && features.bucket(view, pos) != bucket {
            refresh_view(a, net, features, pos, view);
            continue;
        }
        let top = a.top_mut();
        let acc = &mut top[view.index() * h..(view.index() + 1) * h];
        for c in changes {
            if c.before.is_piece() {
                simd::sub(
                    acc,
                    net.column(features.index_in(view, bucket, c.before, c.square)),
                );
            }
            if c.after.is_piece() {
                simd::add(
                    acc,
                    net.column(features.index_in(view, bucket, c.after, c.square)),
                );
            }
        }
    }
}
