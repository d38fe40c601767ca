//! A network with the hand-written evaluation beside it, in two ways the
//! net file names (the search builds this where either is set):
//!
//! - for sparse boards: the net scores positions with at least `below`
//!   pieces on the board, the hand-written evaluation the rest (the
//!   file's `hand_below`, [`super::network::Network::hand_below`]).
//!   Stockfish 12's hybrid used its classical evaluation where the net
//!   was weakest, in its case large material imbalances. Measured
//!   motivation: on held-out Courier self-play, the first nets miss the
//!   search's score by 40 cp a position with under 12 pieces, the
//!   hand-written evaluation by 14.
//! - as a correction (the file's residual flag,
//!   [`super::network::Network::residual`]): the score is the
//!   hand-written evaluation's plus the net's, so the net, trained on the
//!   difference, keeps what the hand-written terms know (royal safety,
//!   the hunt) and learns what they miss. Motivated by the first plain
//!   nets of Chu Shogi and Alfonso's game, which lost to the hand-written
//!   evaluation at equal depth as well as at a clock, most often with
//!   their royals captured or mated
//!   (`docs/log/2026-12-05-alfonso-chu-plain-nets-lose.md`); Alfonso's
//!   residual net beat it (`docs/log/2026-12-05-alfonso-residual-net.md`).
//! - for a bare royal (a plain net's; a residual net has the
//!   hand-written terms already): where one side has nothing left but its
//!   sole royal and the other leads by the mop-up terms' lead, the
//!   hand-written evaluation plus [`KNOWN_WIN`] for the hunter. Its
//!   mop-up terms drive the bare royal to the edge and bring the hunter's
//!   royal near, which a net trained on search scores does not learn: a
//!   won ending scores about alike wherever the royals stand. Sho Shogi's
//!   generation-2 net drew 12 of its 100 games against Fairy-Stockfish at
//!   the 500-ply limit a bare King up; played on by kamil against itself,
//!   the net won none of them, the hand-written evaluation all.
//!   Stockfish scores the same ending (KXK) by hand with a known-win
//!   bonus.

use super::Nnue;
use super::accumulator::Accumulators;
use crate::eval::Evaluator;
use crate::eval::pawn_table::PawnTable;
use crate::evaluation::StaticEval;
use crate::score::MAX_EVAL;
use crate::values::PieceValues;
use kamil_rules::BoardChange;
use kamil_rules::Position;

/// A net and the hand-written evaluation, chosen by the pieces on board
/// (the search evaluates every net through one).
pub struct Hybrid {
    /// The network.
    pub net: Nnue,
    /// The hand-written evaluation.
    pub hand: Evaluator,
    /// Positions with fewer pieces (both sides, royals included) are the
    /// hand-written evaluation's alone.
    pub below: usize,
    /// Elsewhere the score is the hand-written evaluation's plus the
    /// net's (`true`) or the net's alone, but for a bare royal's ending
    /// ([`Evaluator::bare_royal`]: the hand-written score plus
    /// [`KNOWN_WIN`] for the hunter).
    pub residual: bool,
}

impl StaticEval for Hybrid {
    type State = (Accumulators, PawnTable);

    fn piece_values(&self) -> &PieceValues {
        self.net.piece_values()
    }

    fn new_state(&self, root: &Position) -> Self::State {
        (self.net.new_state(root), PawnTable::new())
    }

    #[inline]
    fn push(&self, state: &mut Self::State, pos: &Position, changes: &[BoardChange]) {
        self.net.push(&mut state.0, pos, changes);
    }

    #[inline]
    fn pop(&self, state: &mut Self::State) {
        self.net.pop(&mut state.0);
    }

    #[inline]
    fn evaluate(&self, pos: &Position, state: &mut Self::State) -> i32 {
        let n = pos.pieces_on_board();
        if n < self.below {
            self.hand.evaluate_cached(pos, &mut state.1)
        } else if self.residual {
            let hand = self.hand.evaluate_cached(pos, &mut state.1);
            (hand + self.net.evaluate(pos, &mut state.0)).clamp(-MAX_EVAL, MAX_EVAL)
        } else if let Some(weak) = self.hand.bare_royal(pos) {
            let hand = self.hand.evaluate_cached(pos, &mut state.1);
            let won = if weak == pos.side() {
                -KNOWN_WIN
            } else {
                KNOWN_WIN
            };
            (hand + won).clamp(-MAX_EVAL, MAX_EVAL)
        } else {
            self.net.evaluate(pos, &mut state.0)
        }
    }
}

/// Added to the hand-written score of a bare royal's ending for its
/// hunter, centipawns. The net scores such endings higher than the
/// hand-written evaluation does (by up to about 900 in the Sho Shogi
/// endings that motivated this), so without the bonus the search would
/// keep the last enemy piece on the board rather than take it.
/// Stockfish's `VALUE_KNOWN_WIN` in its KXK ending.
pub const KNOWN_WIN: i32 = 2000;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EvalMode;
    use crate::nnue::features::Features;
    use crate::nnue::network::{Buckets, Network};
    use kamil_rules::Variant;
    use std::sync::Arc;

    /// Courier, a seeded net of 16 hidden units and the hand-written
    /// evaluation.
    fn courier(seed: u64) -> (Arc<Variant>, Nnue, Evaluator) {
        let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
        let f = Features::new(&v);
        let net = Nnue::new(&v, f.clone(), Network::seeded(&f, 16, Buckets::ONE, seed));
        let hand = Evaluator::new(v.clone(), EvalMode::Full);
        (v, net, hand)
    }

    #[test]
    fn fewer_pieces_than_the_threshold_are_the_hand_written_evaluations() {
        let (v, net, hand) = courier(5);
        let mut pos = Position::start(v.clone());
        let on_board = pos.pieces_on_board();
        let by_hand = hand.evaluate_cached(&pos, &mut PawnTable::new());
        let by_net = net.evaluate_fresh(&pos);
        assert_ne!(by_hand, by_net);
        for (below, want) in [(on_board + 1, by_hand), (on_board, by_net), (1, by_net)] {
            let h = Hybrid {
                net: net.clone(),
                hand: Evaluator::new(v.clone(), EvalMode::Full),
                below,
                residual: false,
            };
            let mut state = h.new_state(&pos);
            assert_eq!(h.evaluate(&pos, &mut state), want, "below {below}");
        }
        // Pushed along moves, the net's part stays the net's fresh score.
        let h = Hybrid {
            net: net.clone(),
            hand,
            below: 2,
            residual: false,
        };
        let mut state = h.new_state(&pos);
        for _ in 0..4 {
            let mv = pos.legal_moves()[1];
            pos.make(mv);
            let changes = pos.last_changes().to_vec();
            h.push(&mut state, &pos, &changes);
            assert_eq!(h.evaluate(&pos, &mut state), net.evaluate_fresh(&pos));
        }
    }

    /// Sho Shogi's position `fen`, a plain seeded net of 16 hidden units
    /// beside the hand-written evaluation: the hybrid's score, the
    /// hand-written one and the net's.
    fn sho_scores(fen: &str) -> (i32, i32, i32) {
        let v = Arc::new(Variant::builtin("sho-shogi", &[]).unwrap());
        let f = Features::new(&v);
        let net = Nnue::new(&v, f.clone(), Network::seeded(&f, 16, Buckets::ONE, 3));
        let pos = Position::from_fen(v.clone(), fen).unwrap();
        let hand = Evaluator::new(v.clone(), EvalMode::Full);
        let by_hand = hand.evaluate(&pos);
        let by_net = net.evaluate_fresh(&pos);
        let h = Hybrid {
            net,
            hand,
            below: 0,
            residual: false,
        };
        let mut state = h.new_state(&pos);
        (h.evaluate(&pos, &mut state), by_hand, by_net)
    }

    #[test]
    fn a_bare_royal_is_scored_by_hand_with_a_known_win_for_its_hunter() {
        // The second player's King is bare against King, Gold, Tokin and
        // two promoted Lances (from a game Sho Shogi's net did not win).
        let board = "4+L4/2K6/9/9/1G7/9/1+P7/6k2/4+L4";
        let (score, hand, net) = sho_scores(&format!("{board} b"));
        assert_ne!(hand, net);
        assert_eq!(score, hand + KNOWN_WIN);
        // The bare side to move: the same from its view.
        let (score, hand, _) = sho_scores(&format!("{board} w"));
        assert_eq!(score, hand - KNOWN_WIN);
        // One more piece, a Pawn, for that side: the net's again.
        let (score, _, net) = sho_scores("4+L4/2K6/9/9/1G7/9/1+P7/p5k2/4+L4 b");
        assert_eq!(score, net);
        // A bare King against King and Pawn: a lead below the mop-up
        // terms' (250), so no hunt and no known win: the net's.
        let (score, _, net) = sho_scores("9/2K6/9/9/9/9/1P7/6k2/9 b");
        assert_eq!(score, net);
    }

    #[test]
    fn a_residual_net_adds_its_score_to_the_hand_written_one() {
        let (v, net, hand) = courier(7);
        let mut pos = Position::start(v.clone());
        // Off the symmetric start, where both evaluations are not 0.
        for i in [3, 5, 2] {
            let mv = pos.legal_moves()[i];
            pos.make(mv);
        }
        let by_hand = hand.evaluate(&pos);
        let by_net = net.evaluate_fresh(&pos);
        assert_ne!(by_hand, 0);
        assert_ne!(by_net, 0);
        let h = Hybrid {
            net: net.clone(),
            hand,
            below: 0,
            residual: true,
        };
        let mut state = h.new_state(&pos);
        assert_eq!(h.evaluate(&pos, &mut state), by_hand + by_net);
        // Under `below` pieces the hand-written evaluation alone.
        let h = Hybrid {
            below: pos.pieces_on_board() + 1,
            ..h
        };
        let mut state = h.new_state(&pos);
        assert_eq!(h.evaluate(&pos, &mut state), by_hand);
    }
}
