//! Every margin of the search's pruning and reductions, a named function
//! or constant (Stockfish's habit): late-move pruning counts, futility,
//! reverse futility, null-move reduction, static-exchange pruning, delta
//! pruning, late-move reductions, aspiration windows.

/// Late-move reduction in plies by depth and move number.
pub(super) fn lmr_table() -> Vec<[u8; 64]> {
    (0..64)
        .map(|d| {
            let mut row = [0u8; 64];
            for (m, r) in row.iter_mut().enumerate() {
                if d > 0 && m > 0 {
                    let x = 0.5 + (d as f64).ln() * (m as f64).ln() / 2.25;
                    *r = x.max(0.0) as u8;
                }
            }
            row
        })
        .collect()
}

/// Depth (plies) up to which quiet moves past [`late_move_count`] are
/// pruned.
pub(super) const LMP_DEPTH: i32 = 8;

/// Moves searched at `depth` before the remaining quiet ones are pruned
/// (late-move pruning), in a node of `moves` moves: `(5 + depth²) / 2`,
/// twice that when the side to move is `improving` (Stockfish 11's counts,
/// for chess's few dozen moves a node), scaled up by `moves` beyond
/// [`LMP_MOVES`] (the shogi games' hundreds of moves).
pub(super) fn late_move_count(depth: i32, improving: bool, moves: usize) -> i32 {
    let count = (5 + depth * depth) * (1 + i32::from(improving)) / 2;
    let moves = i32::try_from(moves).unwrap_or(i32::MAX);
    count.max(count.saturating_mul(moves) / LMP_MOVES)
}

/// Moves in a node up to which [`late_move_count`] is Stockfish's.
pub(super) const LMP_MOVES: i32 = 64;

/// Reduced depth (plies, the depth a late move would get by late-move
/// reductions) below which quiet moves are pruned by [`futility_margin`].
pub(super) const FUTILITY_DEPTH: i32 = 6;

/// How far (centipawns) the evaluation may stand below alpha before a
/// quiet move whose reduced depth is `lmr_depth` plies is pruned: about
/// Stockfish 11's `235 + 172 · lmr_depth` in its units, converted by its
/// end-game Pawn of 213 to centipawns.
pub(super) fn futility_margin(lmr_depth: i32) -> i32 {
    110 + 80 * lmr_depth
}

/// Depth (plies) from which a node without a hash move is reduced by one.
pub(super) const IIR_DEPTH: i32 = 4;

/// Plies a null move takes off the depth, besides its own: three, a
/// quarter of the `depth` left, and one per 200 centipawns the evaluation
/// stands above beta (`margin`), at most three more (a side far ahead can
/// pass with a shallower check).
pub(super) fn null_reduction(depth: i32, margin: i32) -> i32 {
    3 + depth / 4 + (margin / 200).clamp(0, 3)
}

/// Depth (plies) up to which moves that lose material by static exchange
/// are pruned ([`see_margin`]).
pub(super) const SEE_PRUNE_DEPTH: i32 = 6;

/// The static-exchange loss (centipawns) a move may show at `depth` plies
/// before it is pruned: a quiet move less the more plies it has to make
/// good, a capture or promotion more (it changes the material at once).
pub(super) fn see_margin(depth: i32, quiet: bool) -> i32 {
    if quiet {
        30 * depth * depth
    } else {
        120 * depth
    }
}

/// How far (centipawns) the evaluation must stand above beta at `depth`
/// plies (at most [`REVERSE_FUTILITY_DEPTH`]) for the node to return it
/// unsearched (reverse futility).
pub(super) fn reverse_futility_margin(depth: i32) -> i32 {
    90 * depth
}

/// Depth (plies) up to which reverse futility prunes.
pub(super) const REVERSE_FUTILITY_DEPTH: i32 = 4;

/// Quiescence's delta pruning: a capture whose gain leaves the stand-pat
/// score this far (centipawns) below alpha is not tried.
pub(super) const DELTA_MARGIN: i32 = 200;

/// A lean quiescence skips a capture on a defended square by a piece worth
/// this much (centipawns) more than the capture gains.
pub(super) const LEAN_CAPTURE_MARGIN: i32 = 50;

/// The first aspiration window's half width (centipawns) around the last
/// iteration's score, from [`ASPIRATION_DEPTH`] on; it doubles on each
/// fail, and past [`ASPIRATION_LIMIT`] the window opens fully.
pub(super) const ASPIRATION_WINDOW: i32 = 30;

/// Depth (plies) from which iterations search in an aspiration window.
pub(super) const ASPIRATION_DEPTH: u32 = 5;

/// Half width (centipawns) past which an aspiration window opens fully.
pub(super) const ASPIRATION_LIMIT: i32 = 1000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_null_move_reduction_grows_with_the_margin_over_beta_up_to_three_plies() {
        assert_eq!(null_reduction(8, -40), 5);
        assert_eq!(null_reduction(8, 199), 5);
        assert_eq!(null_reduction(8, 200), 6);
        assert_eq!(null_reduction(8, 650), 8);
        assert_eq!(null_reduction(8, 100_000), 8);
        assert_eq!(null_reduction(3, 0), 3);
    }

    #[test]
    fn late_moves_are_pruned_sooner_when_not_improving_and_at_low_depth() {
        assert_eq!(late_move_count(1, false, 40), 3);
        assert_eq!(late_move_count(1, true, 40), 6);
        assert_eq!(late_move_count(4, false, 40), 10);
        assert_eq!(late_move_count(4, true, 40), 21);
        assert_eq!(late_move_count(LMP_DEPTH, false, 40), 34);
        for d in 1..LMP_DEPTH {
            assert!(late_move_count(d, false, 40) < late_move_count(d + 1, false, 40));
            assert!(late_move_count(d, false, 40) < late_move_count(d, true, 40));
        }
    }

    #[test]
    fn late_move_pruning_keeps_more_moves_in_nodes_with_hundreds() {
        assert_eq!(late_move_count(4, false, 64), 10);
        assert_eq!(late_move_count(4, false, 256), 40);
        assert_eq!(late_move_count(1, true, 640), 60);
        assert_eq!(late_move_count(8, true, usize::MAX), i32::MAX / LMP_MOVES);
    }

    #[test]
    fn the_futility_margin_grows_with_the_reduced_depth() {
        assert_eq!(futility_margin(0), 110);
        assert_eq!(futility_margin(FUTILITY_DEPTH - 1), 510);
    }
}
