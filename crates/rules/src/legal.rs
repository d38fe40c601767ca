//! The one legality API: what a player may play in a position, every rule
//! applied. Front ends, protocols and tests ask these, so that the web
//! page, the command line, UCI, XBoard and `kamil match` cannot disagree.
//!
//! A game that has ended by a rule the board decides
//! ([`crate::outcome::ended_by_rule`]: royals captured, a bare King, a
//! citadel entered...) has no legal move, as in Fairy-Stockfish. The other
//! endings (mate, stalemate, repetition, move-count rules) are given by
//! [`Position::outcome`]; moves are still listed there, and a front end
//! asks the outcome first.

use crate::movegen;
use crate::moves::Move;
use crate::outcome::{self, Outcome};
use crate::position::Position;

impl Position {
    /// The legal moves of the side to move, in generation order: none once
    /// the game has ended by a rule of the board, else every move royal
    /// safety and the variant's families allow.
    ///
    /// # Examples
    ///
    /// ```
    /// use kamil_rules::notation::move_text;
    /// use kamil_rules::{Position, Variant};
    /// use std::sync::Arc;
    /// let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
    /// let mut pos = Position::start(v);
    /// let moves = pos.legal_moves();
    /// assert_eq!(moves.len(), 26);
    /// let m = moves[0];
    /// pos.make(m);
    /// assert!(!pos.legal_moves().is_empty());
    /// pos.unmake();
    /// assert_eq!(move_text(pos.variant(), m).len(), 4);
    /// ```
    pub fn legal_moves(&mut self) -> Vec<Move> {
        let mut out = Vec::new();
        self.legal_moves_into(&mut out);
        out
    }

    /// [`Position::legal_moves`] appended to `out` (no allocation beyond
    /// its growth).
    pub fn legal_moves_into(&mut self, out: &mut Vec<Move>) {
        if outcome::ended_by_rule(self).is_none() {
            movegen::legal_moves(self, out);
        }
    }

    /// Is `m` one of [`Position::legal_moves`]?
    pub fn is_legal(&mut self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }

    /// The number of [`Position::legal_moves`], counted without keeping
    /// them.
    pub fn count_legal(&mut self) -> u64 {
        if outcome::ended_by_rule(self).is_some() {
            return 0;
        }
        movegen::count_legal(self, &mut Vec::new())
    }

    /// The result of the game if it has ended here (see
    /// [`crate::outcome::outcome`]).
    pub fn outcome(&mut self) -> Option<Outcome> {
        outcome::outcome(self)
    }
}
