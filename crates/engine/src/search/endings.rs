//! Game ends as search scores: endings by rule, repetition (perpetual
//! check where it loses), the move-count rule, draws decided on points, and
//! the score of an ended game at a ply.

use super::searcher::{Searcher, perpetual_counts};
use crate::evaluation::StaticEval;
use crate::score::MATE;
use kamil_rules::Outcome;
use kamil_rules::outcome::{Reason, draw_or_points, ended_by_rule, perpetual_check};

impl<E: StaticEval> Searcher<'_, E> {
    pub(super) fn outcome_score(&self, o: Outcome, ply: usize) -> i32 {
        outcome_score(o, self.pos.side(), ply)
    }

    /// Game ends that do not need the move list: rule endings, repetition
    /// (with perpetual check where it loses), the move-count rule.
    pub(super) fn game_end(&self, ply: usize) -> Option<i32> {
        if let Some(o) = ended_by_rule(&self.pos) {
            return Some(self.outcome_score(o, ply));
        }
        if let Some(s) = self.repetition(ply) {
            return Some(s);
        }
        let rules = &self.pos.variant().rules;
        if rules.move_rule > 0 && self.pos.halfmove() >= rules.move_rule {
            return Some(self.drawn_score(Reason::MoveRule, ply));
        }
        None
    }

    /// The score of an ending that draws in most games: 0, or where the
    /// variant decides it on points (Frolov's material count), that result.
    pub(super) fn drawn_score(&self, reason: Reason, ply: usize) -> i32 {
        if !self.pos.variant().caps.draws_score_points {
            return 0;
        }
        self.outcome_score(draw_or_points(&self.pos, reason), ply)
    }

    /// A repetition of an earlier position (same side to move) scores as
    /// the end of the game: a draw, or where perpetual check loses and the
    /// cycle lies in the search path, a loss for the side that checked on
    /// every move of it.
    pub(super) fn repetition(&self, ply: usize) -> Option<i32> {
        let n = self.keys.len();
        let now = self.keys[n - 1];
        let limit = (self.pos.halfmove() as usize).min(n - 1);
        let mut i = 4;
        while i <= limit {
            let k = self.keys[n - 1 - i];
            if k == 0 {
                return None;
            }
            if k == now {
                let j = n - 1 - i;
                if !perpetual_counts(self.pos.variant()) || j < self.history_base {
                    return Some(self.drawn_score(Reason::Repetition, ply));
                }
                // Positions j..n-1; the side to move now is to move at j, j+2...
                let they_checked = (j + 2..n).step_by(2).all(|x| self.checks[x]);
                let we_checked = (j + 1..n).step_by(2).all(|x| self.checks[x]);
                let us = self.pos.side();
                let v = self.pos.variant();
                return Some(match (we_checked, they_checked) {
                    (true, false) => self.outcome_score(perpetual_check(v, us), ply),
                    (false, true) => self.outcome_score(perpetual_check(v, us.flip()), ply),
                    _ => self.drawn_score(Reason::Repetition, ply),
                });
            }
            i += 2;
        }
        None
    }
}

/// Centipawns per point of a 100-point split: a share of the points short
/// of all of them scores like a material edge (60-40 = +100 for the
/// player with 60), never like a mate.
pub const CP_PER_POINT: f64 = 10.0;

/// The score of the ended game `o` for `side` to move at `ply`: a mate
/// score for a whole win or loss, 0 for a draw, and for points shared out
/// ([`kamil_rules::Scoring::Shared`]) [`CP_PER_POINT`] per point above or
/// below an even split (per cent of the total).
pub fn outcome_score(o: Outcome, side: kamil_rules::Side, ply: usize) -> i32 {
    let value = o.value(side);
    if value >= 1.0 {
        MATE - ply as i32
    } else if value <= 0.0 {
        -(MATE - ply as i32)
    } else {
        ((value - 0.5) * 100.0 * CP_PER_POINT).round() as i32
    }
}
