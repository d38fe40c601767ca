//! Perft: the number of leaf nodes of the legal move tree, the standard
//! check of a move generator. Like Fairy-Stockfish, no moves are counted from
//! a position whose game has ended by a rule ([`crate::outcome::ended_by_rule`]),
//! and the last ply is counted in bulk (its moves are not made).

use crate::movegen::{count_legal, legal_moves};
use crate::moves::Move;
use crate::outcome::ended_by_rule;
use crate::position::Position;

/// Leaf count of the legal move tree of `depth` plies below `pos`.
///
/// # Examples
///
/// ```
/// use kamil_rules::{Position, Variant, perft::perft};
/// use std::sync::Arc;
/// let v = Arc::new(Variant::builtin("sho-shogi", &[]).unwrap());
/// // Fairy-Stockfish counts the same (tests/data/perft.txt).
/// assert_eq!(perft(&mut Position::start(v), 2), 676);
/// ```
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    let mut bufs: Vec<Vec<Move>> = (0..=depth).map(|_| Vec::with_capacity(256)).collect();
    node(pos, depth, &mut bufs)
}

fn node(pos: &mut Position, depth: u32, bufs: &mut [Vec<Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if ended_by_rule(pos).is_some() {
        return 0;
    }
    let (buf, rest) = bufs.split_first_mut().expect("one buffer per ply");
    if depth == 1 {
        return count_legal(pos, buf);
    }
    buf.clear();
    legal_moves(pos, buf);
    let mut n = 0;
    for &m in buf.iter() {
        pos.make(m);
        n += node(pos, depth - 1, rest);
        pos.unmake();
    }
    n
}

/// Perft per root move: `(move, leaf count)` in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = Vec::new();
    if depth == 0 || ended_by_rule(pos).is_some() {
        return Vec::new();
    }
    legal_moves(pos, &mut moves);
    moves
        .into_iter()
        .map(|m| {
            pos.make(m);
            let n = perft(pos, depth - 1);
            pos.unmake();
            (m, n)
        })
        .collect()
}
