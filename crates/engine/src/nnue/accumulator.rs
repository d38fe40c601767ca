//! The feature transformer's output for both views, one entry per ply of
//! the search's path, updated lazily (as Stockfish does): a move only
//! records its board changes ([`kamil_rules::BoardChange`]); when a
//! position is evaluated, each view is brought up to date from the last
//! entry computed for it, adding and subtracting the weight columns of the
//! pieces each move changed, so the positions the search never evaluates
//! (a hash-table cut, an ending the hand-written evaluation scores) cost
//! nothing. With king buckets, a view whose King is in another bucket
//! than at that entry (or was, on the way) is computed from the board
//! instead. The root is computed from the board. Each of these runs on the
//! instruction set of the given [`Simd`], with the same result on each.

use super::features::Features;
use super::network::Network;
use super::simd::{self, Simd};
use kamil_rules::BoardChange;
use kamil_rules::{Position, Side};

/// A stack of accumulators: `2 * H` values per ply (the first player's
/// view, then the second's), each view computed or not yet.
#[derive(Clone, Debug)]
pub struct Accumulators {
    hidden: usize,
    /// Entries `0..=top`, each `2 * hidden` values.
    values: Vec<i16>,
    /// Each entry's king bucket of each view ([`Features::bucket`]).
    buckets: Vec<[u8; 2]>,
    /// Whether each entry's view has been computed.
    computed: Vec<[bool; 2]>,
    /// Each entry's board changes from its parent: where they start in
    /// `changes` (they end where the next entry's start, or at its end).
    starts: Vec<usize>,
    changes: Vec<BoardChange>,
    top: usize,
}

impl Accumulators {
    /// The stack with one entry, `pos` computed from scratch with `simd`.
    pub fn new(net: &Network, features: &Features, pos: &Position, simd: Simd) -> Accumulators {
        let mut a = Accumulators {
            hidden: net.hidden,
            values: vec![0; 2 * net.hidden],
            buckets: vec![[0; 2]],
            computed: vec![[false; 2]],
            starts: vec![0],
            changes: Vec::new(),
            top: 0,
        };
        a.refresh(net, features, pos, simd);
        a
    }

    /// Recomputes the top entry from the board of `pos`, with `simd`.
    pub fn refresh(&mut self, net: &Network, features: &Features, pos: &Position, simd: Simd) {
        for view in [Side::First, Side::Second] {
            self.buckets[self.top][view.index()] = features.bucket(view, pos) as u8;
        }
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

    /// Pushes the entry of `pos`, the position a move led to, recording
    /// `changes` (none for a null move); nothing is computed until
    /// [`Accumulators::update`].
    pub fn push(&mut self, features: &Features, pos: &Position, changes: &[BoardChange]) {
        self.top += 1;
        let top = self.top;
        let buckets = if features.kings().is_some() {
            [
                features.bucket(Side::First, pos) as u8,
                features.bucket(Side::Second, pos) as u8,
            ]
        } else {
            [0; 2]
        };
        if self.buckets.len() <= top {
            self.buckets.resize(top + 1, [0; 2]);
            self.computed.resize(top + 1, [false; 2]);
            self.starts.resize(top + 1, 0);
        }
        let n = 2 * self.hidden;
        if self.values.len() < (top + 1) * n {
            self.values.resize((top + 1) * n, 0);
        }
        self.buckets[top] = buckets;
        self.computed[top] = [false; 2];
        self.starts[top] = self.changes.len();
        self.changes.extend_from_slice(changes);
    }

    /// Pops the entry of the move taken back (the root entry stays).
    pub fn pop(&mut self) {
        if self.top > 0 {
            self.changes.truncate(self.starts[self.top]);
            self.top -= 1;
        }
    }

    /// Brings both views of the top entry up to date; `pos` is the
    /// position of the top entry.
    pub fn update(&mut self, net: &Network, features: &Features, pos: &Position, simd: Simd) {
        if self.computed[self.top] == [true; 2] {
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if simd.is_avx2() {
            // SAFETY: as in `refresh`: AVX2 was detected, the one feature
            // `update_avx2` enables.
            unsafe { update_avx2(self, net, features, pos) };
            return;
        }
        let _ = simd;
        update_body(self, net, features, pos);
    }

    /// The top entry's view of `side`, H values: up to date after
    /// [`Accumulators::new`], [`Accumulators::refresh`] or
    /// [`Accumulators::update`].
    pub fn view(&self, side: Side) -> &[i16] {
        let h = self.hidden;
        let at = self.top * 2 * h + side.index() * h;
        &self.values[at..at + h]
    }

    /// Entry `i`'s view of `view`, mutable.
    fn slot(&mut self, i: usize, view: Side) -> &mut [i16] {
        let h = self.hidden;
        if self.values.len() < (i + 1) * 2 * h {
            self.values.resize((i + 1) * 2 * h, 0);
        }
        let at = i * 2 * h + view.index() * h;
        &mut self.values[at..at + h]
    }

    /// Entry `i`'s board changes.
    fn changes_of(&self, i: usize) -> std::ops::Range<usize> {
        let end = if i < self.top {
            self.starts[i + 1]
        } else {
            self.changes.len()
        };
        self.starts[i]..end
    }
}

/// [`Accumulators::refresh`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn refresh_avx2(a: &mut Accumulators, net: &Network, features: &Features, pos: &Position) {
    refresh_body(a, net, features, pos);
}

/// [`Accumulators::update`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn update_avx2(a: &mut Accumulators, net: &Network, features: &Features, pos: &Position) {
    update_body(a, net, features, pos);
}

/// The top entry from the board: the biases plus every piece's column.
#[inline(always)]
fn refresh_body(a: &mut Accumulators, net: &Network, features: &Features, pos: &Position) {
    for view in [Side::First, Side::Second] {
        refresh_view(a, net, features, pos, view);
    }
}

/// `view`'s half of the top entry from the board (its bucket already
/// recorded).
#[inline(always)]
fn refresh_view(
    a: &mut Accumulators,
    net: &Network,
    features: &Features,
    pos: &Position,
    view: Side,
) {
    let top = a.top;
    let bucket = usize::from(a.buckets[top][view.index()]);
    let acc = a.slot(top, view);
    acc.copy_from_slice(&net.ft_bias);
    for side in [Side::First, Side::Second] {
        for &sq in pos.pieces(side) {
            simd::add(
                acc,
                net.column(features.index_in(view, bucket, pos.at(sq), sq)),
            );
        }
    }
    a.computed[top][view.index()] = true;
}

/// Each view of the top entry not yet computed: from the nearest entry
/// computed for it, through every move since, where all share the top's
/// bucket; else from the board.
#[inline(always)]
fn update_body(a: &mut Accumulators, net: &Network, features: &Features, pos: &Position) {
    let top = a.top;
    for view in [Side::First, Side::Second] {
        let v = view.index();
        if a.computed[top][v] {
            continue;
        }
        let bucket = a.buckets[top][v];
        let mut from = top;
        while !a.computed[from][v] && a.buckets[from][v] == bucket {
            // The root is always computed, so this ends.
            from -= 1;
        }
        if !a.computed[from][v] || a.buckets[from][v] != bucket {
            refresh_view(a, net, features, pos, view);
            continue;
        }
        let b = usize::from(bucket);
        for i in from + 1..=top {
            let h = a.hidden;
            let moved = a.changes_of(i);
            let (done, rest) = a.values.split_at_mut(i * 2 * h);
            let parent = &done[(i - 1) * 2 * h + v * h..(i - 1) * 2 * h + (v + 1) * h];
            let acc = &mut rest[v * h..(v + 1) * h];
            acc.copy_from_slice(parent);
            for c in &a.changes[moved] {
                if c.before.is_piece() {
                    simd::sub(
                        acc,
                        net.column(features.index_in(view, b, c.before, c.square)),
                    );
                }
                if c.after.is_piece() {
                    simd::add(
                        acc,
                        net.column(features.index_in(view, b, c.after, c.square)),
                    );
                }
            }
            a.computed[i][v] = true;
        }
    }
}
