//! Scores: centipawns, with mate scores at the ends of the range.

/// Internal score bound: larger than any evaluation, smaller than `i32` limits.
pub const INFINITE: i32 = 32_000;
/// Score of a won game (royal captured, mated) at the root; a win found
/// `n` plies from the root scores `MATE - n`.
pub const MATE: i32 = 31_000;
/// Scores beyond this in magnitude are wins or losses, not evaluations.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Largest static evaluation in magnitude, centipawns: below every mate
/// score, with room for the margins search adds to an evaluation.
pub const MAX_EVAL: i32 = MATE_BOUND - 1_000;

/// A score for reporting, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Win in this many moves (the side to move's moves); negative: loss in
    /// this many moves.
    Mate(i32),
}

impl Score {
    /// The report form of an internal score (centipawns or `MATE - plies`).
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-((MATE + v + 1) / 2))
        } else {
            Score::Cp(v)
        }
    }
}

/// The plies from the root to the end of the game of an internal score:
/// positive for a win of the side to move, negative for a loss, `None`
/// for an evaluation. The exact count behind [`Score::Mate`]'s moves, for
/// protocols that count plies (USI's `score mate`).
pub fn mate_plies(v: i32) -> Option<i32> {
    if v >= MATE_BOUND {
        Some(MATE - v)
    } else if v <= -MATE_BOUND {
        Some(-(MATE + v))
    } else {
        None
    }
}

/// Converts a score relative to the root into one relative to a node `ply`
/// plies deep, for storing in the transposition table.
#[inline]
pub fn to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

/// The inverse of [`to_tt`].
#[inline]
pub fn from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_count_moves_of_the_side_to_move() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(-(MATE - 4)), Score::Mate(-2));
        assert_eq!(Score::from_internal(57), Score::Cp(57));
    }

    #[test]
    fn mate_plies_count_from_the_root() {
        assert_eq!(mate_plies(MATE - 1), Some(1));
        assert_eq!(mate_plies(MATE - 4), Some(4));
        assert_eq!(mate_plies(-(MATE - 2)), Some(-2));
        assert_eq!(mate_plies(57), None);
        assert_eq!(mate_plies(-MATE_BOUND + 1), None);
    }

    #[test]
    fn tt_conversion_round_trips() {
        for v in [MATE - 5, -(MATE - 7), 120, -40] {
            assert_eq!(from_tt(to_tt(v, 9), 9), v);
        }
        assert_eq!(to_tt(MATE - 5, 3), MATE - 2);
    }
}
