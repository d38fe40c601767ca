//! The feature transformer's output for both views, one entry per ply of
//! the search's path: each move copies its parent's entry and adds and
//! subtracts the weight columns of the pieces its change list names
//! ([`kamil_rules::effects::BoardChange`]); the root is computed from the
//! board.

use super::features::Features;
use super::network::Network;
use kamil_rules::effects::BoardChange;
use kamil_rules::{Position, Side};

/// A stack of accumulators: `2 * H` values per ply (the first player's
/// view, then the second's).
#[derive(Clone, Debug)]
pub struct Accumulators {
    hidden: usize,
    /// Entries `0..=top`, each `2 * hidden` values.
    values: Vec<i16>,
    top: usize,
}

impl Accumulators {
    /// The stack with one entry, `pos` computed from scratch.
    pub fn new(net: &Network, features: &Features, pos: &Position) -> Accumulators {
        let mut a = Accumulators {
            hidden: net.hidden,
            values: vec![0; 2 * net.hidden],
            top: 0,
        };
        a.refresh(net, features, pos);
        a
    }

    /// Recomputes the top entry from the board of `pos`.
    pub fn refresh(&mut self, net: &Network, features: &Features, pos: &Position) {
        let h = self.hidden;
        let top = self.top_mut();
        for view in [Side::First, Side::Second] {
            let acc = &mut top[view.index() * h..(view.index() + 1) * h];
            acc.copy_from_slice(&net.ft_bias);
            for side in [Side::First, Side::Second] {
                for &sq in pos.pieces(side) {
                    add(acc, net.column(features.index(view, pos.at(sq), sq)));
                }
            }
        }
    }

    /// Pushes the entry of the position a move led to: its parent's with
    /// `changes` applied (none for a null move).
    pub fn push(&mut self, net: &Network, features: &Features, changes: &[BoardChange]) {
        let n = 2 * self.hidden;
        let from = self.top * n;
        if self.values.len() < from + 2 * n {
            self.values.resize(from + 2 * n, 0);
        }
        self.values.copy_within(from..from + n, from + n);
        self.top += 1;
        let h = self.hidden;
        let top = self.top_mut();
        for view in [Side::First, Side::Second] {
            let acc = &mut top[view.index() * h..(view.index() + 1) * h];
            for c in changes {
                if c.before.is_piece() {
                    sub(acc, net.column(features.index(view, c.before, c.square)));
                }
                if c.after.is_piece() {
                    add(acc, net.column(features.index(view, c.after, c.square)));
                }
            }
        }
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

/// `acc += w`, wrapping as int16 arithmetic does (a trained net keeps
/// sums in range; wrapping keeps incremental and fresh sums equal anyway).
#[inline]
fn add(acc: &mut [i16], w: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(w) {
        *a = a.wrapping_add(w);
    }
}

/// `acc -= w`, wrapping.
#[inline]
fn sub(acc: &mut [i16], w: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(w) {
        *a = a.wrapping_sub(w);
    }
}
