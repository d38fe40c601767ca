//! Move ordering's picks: sort keys for a node's moves from the ordering
//! tables ([`crate::ordering`]), and selection steps that bring the best
//! remaining move forward, resolving a key's static exchange only for the
//! move that would come next.

use super::searcher::{Frame, Searcher};
use crate::evaluation::StaticEval;
use crate::material::promotion_gain;
use crate::ordering::{Key, resolve};
use crate::values::PieceValues;
use kamil_rules::{Move, Position};

impl<E: StaticEval> Searcher<'_, E> {
    /// Fills `frame.scores` for the moves from `from` on (entries before it
    /// are left as they are).
    #[inline]
    pub(super) fn score_moves(
        &mut self,
        frame: &mut Frame,
        hash: Option<Move>,
        ply: usize,
        from: usize,
    ) {
        frame.scores.resize(from, i32::MAX);
        frame.unsure.resize(from, false);
        for &m in &frame.moves[from..] {
            let (s, unsure) = match self.ord.key(&self.pos, self.values, m, hash, ply) {
                Key::Sure(k) => (k, false),
                Key::Unsure(k) => (k, true),
            };
            frame.scores.push(s);
            frame.unsure.push(unsure);
        }
    }

    /// Selection sort step: brings the best-keyed remaining move to `idx`,
    /// resolving unsure keys (by static exchange) only of moves that would
    /// come next. That picks the same move as sorting by resolved keys: an
    /// unsure key is never below its true key.
    #[inline]
    pub(super) fn pick(&mut self, frame: &mut Frame, idx: usize) {
        loop {
            let best = first_highest(&frame.scores, idx);
            if frame.unsure[best] {
                frame.unsure[best] = false;
                let k = frame.scores[best];
                let true_key = resolve(
                    &self.pos,
                    self.values,
                    frame.moves[best],
                    k,
                    &mut self.see_scratch,
                );
                frame.scores[best] = true_key;
                if true_key != k {
                    continue;
                }
            }
            frame.moves.swap(idx, best);
            frame.scores.swap(idx, best);
            frame.unsure.swap(idx, best);
            return;
        }
    }
}

/// The index of the first of the highest keys in `scores` from `idx` on
/// (`idx` itself when there are none), by a scan that keeps the best key
/// in hand (no bounds checks in the loop).
#[inline]
fn first_highest(scores: &[i32], idx: usize) -> usize {
    let mut best = idx;
    if let Some((&first, tail)) = scores.get(idx..).and_then(<[i32]>::split_first) {
        let mut top = first;
        for (j, &k) in tail.iter().enumerate() {
            if k > top {
                top = k;
                best = idx + 1 + j;
            }
        }
    }
    best
}

/// Selection sort step without static exchanges: brings the move with the
/// highest key, sure or not, to `idx` (the first of equals, as
/// [`Searcher::pick`]). For a search that skips every capture found to
/// lose, this tries the moves it keeps in the order of their keys, as
/// `pick` would (`pick` only moves such captures later), though moves of
/// equal keys may come in another order.
#[inline]
pub(super) fn pick_unresolved(frame: &mut Frame, idx: usize) {
    let best = first_highest(&frame.scores, idx);
    frame.moves.swap(idx, best);
    frame.scores.swap(idx, best);
    frame.unsure.swap(idx, best);
}

/// Where the variant's captures come in versions that differ only in the
/// piece they upgrade ([`kamil_rules::variant::Capabilities::upgrade_choices`]),
/// quiescence looks at one: the one that gains most (the first of equals);
/// upgrading never loses material.
pub(super) fn best_version_only(pos: &Position, values: &PieceValues, moves: &mut Vec<Move>) {
    let n = moves.len();
    if n > 512 || !moves.iter().any(|m| m.aux.is_some()) {
        return;
    }
    let same = |a: &Move, b: &Move| {
        a.from == b.from && a.to == b.to && a.promo == b.promo && a.kind == b.kind
    };
    // Dropped moves, one bit each (no allocation in the search).
    let mut drop = [0u64; 8];
    for i in 0..n {
        let m = moves[i];
        if !m.aux.is_some() {
            continue;
        }
        let gain = promotion_gain(pos, values, m);
        for (j, o) in moves.iter().enumerate() {
            if j == i || !same(&m, o) {
                continue;
            }
            if !o.aux.is_some() {
                drop[j / 64] |= 1 << (j % 64);
            } else {
                let g = promotion_gain(pos, values, *o);
                if g > gain || (g == gain && j < i) {
                    drop[i / 64] |= 1 << (i % 64);
                }
            }
        }
    }
    let mut k = 0;
    for i in 0..n {
        if drop[i / 64] & (1 << (i % 64)) == 0 {
            moves[k] = moves[i];
            k += 1;
        }
    }
    moves.truncate(k);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unresolved_pick_takes_the_first_highest_key_and_moves_its_flag_along() {
        use kamil_rules::Square;
        let m = |i: u16| Move::new(Square(i), Square(i + 1));
        let mut frame = Frame {
            moves: (0..5).map(m).collect(),
            scores: vec![3, 9, 1, 9, 4],
            unsure: vec![false, true, false, false, false],
            quiets: Vec::new(),
        };
        pick_unresolved(&mut frame, 0);
        assert_eq!(
            (frame.moves[0], frame.scores[0], frame.unsure[0]),
            (m(1), 9, true)
        );
        assert_eq!(
            (frame.moves[1], frame.scores[1], frame.unsure[1]),
            (m(0), 3, false)
        );
        pick_unresolved(&mut frame, 1);
        assert_eq!(
            (frame.moves[1], frame.scores[1], frame.unsure[1]),
            (m(3), 9, false)
        );
        pick_unresolved(&mut frame, 2);
        assert_eq!(frame.scores[2..], [4, 3, 1]);
        assert_eq!(frame.unsure, [true, false, false, false, false]);
    }
}
