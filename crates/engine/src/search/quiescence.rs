//! Quiescence: captures and promotions until the position is quiet
//! (every move when in check), with stand-pat, delta pruning and static
//! exchange, within a node budget per main-search node; at its first ply,
//! quiet checks too (Stockfish 11).

use super::margins::{DELTA_MARGIN, LEAN_CAPTURE_MARGIN};
use super::picker::{best_version_only, pick_unresolved};
use super::searcher::{Frame, Searcher};
use crate::evaluation::StaticEval;
use crate::material::{captured_value, promotion_gain};
use crate::ordering::{MAX_PLY, exchange_known};
use crate::score::{INFINITE, MATE, to_tt};
use crate::see::see_ge;
use crate::tt::Bound;
use kamil_rules::CheckSquares;
use kamil_rules::Move;
use kamil_rules::movegen::{fallback_moves, is_attacked};
use kamil_rules::outcome::ended_by_rule;

impl<E: StaticEval> Searcher<'_, E> {
    /// Quiescence: captures and promotions until the position is quiet;
    /// every move when in check.
    /// `qdepth`: plies of quiescence above this node.
    pub(super) fn qsearch(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
        qdepth: u32,
    ) -> i32 {
        if self.stopped {
            return 0;
        }
        self.nodes += 1;
        self.q_used += 1;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if let Some(o) = ended_by_rule(&self.pos) {
            return self.outcome_score(o, ply);
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate();
        }
        if self.q_used > QUIESCENCE_BUDGET {
            return self.evaluate();
        }
        // Deep in a lean quiescence a check is answered by captures only,
        // with the static evaluation as the floor: mutual checks (Cannons
        // checking through a moving King) would otherwise run to the ply
        // limit.
        let royal_attacked = in_check;
        let in_check = in_check && !(self.lean_quiescence && qdepth >= LEAN_CHECK_PLIES);
        let key = self.pos.hash();
        let entry = self.tt.probe(key);
        if let Some(s) = entry.and_then(|e| e.cutoff(ply, alpha, beta)) {
            return s;
        }
        // Out of check, an entry of this position holds its static
        // evaluation (a node in check stores 0), as the main search reads
        // it: exact but for the move-count scaling of a transposition
        // reached with another count, which the key does not hold.
        let stand = match entry {
            _ if in_check => -INFINITE,
            Some(e) if !royal_attacked => i32::from(e.eval),
            _ => self.evaluate(),
        };
        if !in_check {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        }
        let orig_alpha = alpha;
        let hash_move = entry.and_then(|e| e.mv);
        let mut best_move = None;
        let mut frame = std::mem::take(&mut self.frames[ply]);
        frame.moves.clear();
        frame.scores.clear();
        frame.unsure.clear();
        if in_check {
            self.node_moves(&mut frame.moves);
        } else {
            self.noisy_node_moves(&mut frame.moves);
        }
        if self.pos.variant().caps.upgrade_choices {
            best_version_only(&self.pos, self.values, &mut frame.moves);
        }
        self.score_moves(&mut frame, hash_move, ply, 0);
        let mut best = stand;
        let mut legal = 0;
        let mut first = 0;
        let mut fallback_tried = false;
        'moves: loop {
            for idx in first..frame.moves.len() {
                // Budget spent: no more tries (but find an answer to check).
                if self.q_used > QUIESCENCE_BUDGET && (legal > 0 || !in_check) {
                    break 'moves;
                }
                // Out of check every capture that loses by static exchange
                // is skipped, so the exchange need not be known to order
                // the moves: it is asked last, after the cheaper tests.
                if in_check {
                    self.pick(&mut frame, idx);
                } else {
                    pick_unresolved(&mut frame, idx);
                }
                let m = frame.moves[idx];
                if !in_check && self.q_skips(&frame, idx, stand, alpha) {
                    continue;
                }
                let Some(child_check) = self.play(m, in_check) else {
                    continue;
                };
                legal += 1;
                let score = -self.qsearch(-beta, -alpha, ply + 1, child_check, qdepth + 1);
                self.take_back();
                if self.stopped {
                    self.frames[ply] = frame;
                    return 0;
                }
                if score > best {
                    best = score;
                    if score > alpha {
                        alpha = score;
                        best_move = Some(m);
                        if alpha >= beta {
                            break 'moves;
                        }
                    }
                }
            }
            // In check with no legal move: the moves kept for that case.
            if !in_check || legal > 0 || fallback_tried || !self.pos.variant().caps.has_fallback {
                break;
            }
            fallback_tried = true;
            first = frame.moves.len();
            fallback_moves(&self.pos, &mut frame.moves);
            self.score_moves(&mut frame, None, ply, first);
        }
        // Quiet checks at the first ply, after the captures and only where
        // they did not cut off.
        if !in_check && qdepth == 0 && alpha < beta {
            self.quiet_checks(&mut frame, (alpha, beta), ply, &mut best, &mut best_move);
        }
        self.frames[ply] = frame;
        if self.stopped {
            return 0;
        }
        if in_check && legal == 0 {
            return -(MATE - ply as i32);
        }
        // Kept unless the table holds a main-search result for the position.
        if entry.is_none_or(|e| e.depth <= 0) {
            let bound = Bound::of(best, orig_alpha, beta);
            let eval = if in_check { 0 } else { stand };
            self.tt
                .store(key, best_move, to_tt(best, ply), eval, 0, bound);
        }
        best
    }

    /// Quiescence's quiet checks, where [`Self::quiet_check_squares`]
    /// serves: each quiet move of the side to move that gives check and
    /// holds by static exchange, searched in `window` (alpha, beta) until
    /// one reaches beta. Appends the moves to `frame`; raises `best` (the
    /// node's best score) and sets `best_move` where a check raises alpha.
    /// After a stop (`self.stopped`) the scores mean nothing.
    fn quiet_checks(
        &mut self,
        frame: &mut Frame,
        (mut alpha, beta): (i32, i32),
        ply: usize,
        best: &mut i32,
        best_move: &mut Option<Move>,
    ) {
        let Some(cs) = self.quiet_check_squares() else {
            return;
        };
        let first = frame.moves.len();
        cs.candidates(&self.pos, &mut frame.moves);
        for idx in first..frame.moves.len() {
            if self.q_used > QUIESCENCE_BUDGET {
                break;
            }
            let m = frame.moves[idx];
            if cs.gives_check(&self.pos, m) != Some(true)
                || !see_ge(&self.pos, self.values, m, 0, &mut self.see_scratch)
            {
                continue;
            }
            let Some(child_check) = self.play(m, false) else {
                continue;
            };
            let score = -self.qsearch(-beta, -alpha, ply + 1, child_check, 1);
            self.take_back();
            if self.stopped {
                return;
            }
            if score > *best {
                *best = score;
                if score > alpha {
                    alpha = score;
                    *best_move = Some(m);
                    if alpha >= beta {
                        return;
                    }
                }
            }
        }
    }

    /// The check squares that quiescence's quiet checks at its first ply
    /// are read from, where it tries them: where check binds a sole royal
    /// (the search's check), pseudo-legal lists serve (not a lean
    /// quiescence, nor legal lists: compulsory captures, Checker series)
    /// and [`CheckSquares`] can tell a check without making the move. In
    /// the other games the main search alone finds quiet checks: making
    /// every quiet move to test it took a third of the search's time in
    /// Courier (issue 45, ninth session:
    /// `docs/log/2026-12-06-stockfish-11-search-on-nets.md`).
    fn quiet_check_squares(&self) -> Option<CheckSquares> {
        if self.lean_quiescence {
            return None;
        }
        self.check_squares()
    }

    /// Out of check, is the capture or promotion at `idx` of `frame`
    /// skipped unsearched? Delta pruning (even its gain leaves the
    /// stand-pat score `stand` below `alpha`), a lean quiescence's
    /// defended-square test, and a loss by static exchange.
    fn q_skips(&mut self, frame: &Frame, idx: usize, stand: i32, alpha: i32) -> bool {
        let m = frame.moves[idx];
        let gain =
            captured_value(&self.pos, self.values, m) + promotion_gain(&self.pos, self.values, m);
        // Delta pruning: even this capture cannot reach alpha.
        if stand + gain + DELTA_MARGIN <= alpha {
            return true;
        }
        // A capture by a piece worth more than it wins, on a defended
        // square, loses material: skip it (a rough static exchange test;
        // see `lean_quiescence`).
        let attacker = self.values.value(self.pos.at(m.from).kind());
        if self.lean_quiescence
            && attacker > gain + LEAN_CAPTURE_MARGIN
            && is_attacked(&self.pos, m.to, self.pos.side().flip())
        {
            return true;
        }
        // A capture or promotion that loses material by static exchange
        // cannot raise the score. A sure key may say so already; an
        // unsure one (unresolved) does not.
        let known = exchange_known(frame.scores[idx]).filter(|_| !frame.unsure[idx]);
        match known {
            Some(loses) => loses,
            None => attacker > gain && !see_ge(&self.pos, self.values, m, 0, &mut self.see_scratch),
        }
    }
}

/// Quiescence plies in which a lean quiescence answers a check with every
/// move (see `Searcher::lean_quiescence`).
pub(super) const LEAN_CHECK_PLIES: u32 = 4;

/// Quiescence nodes that the horizon children of one main-search node (and
/// of its in-check children, which extend the line rather than branch) may
/// use between them; past it, positions take the static evaluation. Where
/// every move captures or promotes (crowded boards, armies in the enemy's
/// promotion zone, boards of Kings), quiescence is otherwise a full-width
/// search to the ply limit: a depth-1 search of the Sho Shogi start with
/// colours swapped took 17 million nodes. Ordinary positions stay far below:
/// the bench's largest at depth 7 is 17,939 (unchanged signature), though
/// the Dai Shogi start reaches 1.3 million at depth 9.
pub const QUIESCENCE_BUDGET: u64 = 32_768;
