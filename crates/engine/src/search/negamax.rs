//! A node of the main search, as labelled steps in Stockfish's order:
//! game end and claims, the table probe, the static evaluation, reverse
//! futility, the null move, then the move loop (late-move pruning,
//! futility, static-exchange pruning, check extension, late-move
//! reductions in a principal variation search) and the table store.

use super::margins::{
    FUTILITY_DEPTH, IIR_DEPTH, LMP_DEPTH, REVERSE_FUTILITY_DEPTH, SEE_PRUNE_DEPTH, futility_margin,
    late_move_count, null_reduction, reverse_futility_margin, see_margin,
};
use super::searcher::{Frame, Searcher};
use crate::evaluation::StaticEval;
use crate::material::is_capture;
use crate::ordering::{MAX_PLY, exchange_known};
use crate::score::{INFINITE, MATE, MATE_BOUND, from_tt, to_tt};
use crate::see::see_ge;
use crate::tt::{Bound, Entry};
use kamil_rules::Move;
use kamil_rules::movegen::fallback_moves;
use kamil_rules::outcome::{claimable, stalemate};
use kamil_rules::{Check, CheckSquares};

/// What a node knows once past its early returns: its window, its table
/// entry and its static evaluation.
struct Node {
    /// Plies left (after the internal iterative reduction).
    depth: i32,
    alpha: i32,
    beta: i32,
    ply: usize,
    /// The side to move's sole royal is attacked.
    in_check: bool,
    /// A node of the principal variation (an open window).
    pv_node: bool,
    key: u64,
    entry: Option<Entry>,
    /// The static evaluation (`-INFINITE` in check).
    static_eval: i32,
    /// The static evaluation, or the table's score where its bound says
    /// it is nearer the truth: what pruning weighs.
    eval: i32,
    /// The side to move stands better than at its last turn.
    improving: bool,
    /// A result the side to move may claim instead of moving.
    claim: Option<i32>,
}

/// The move loop's running results.
struct Moves {
    best: i32,
    best_move: Option<Move>,
    /// Legal moves searched so far.
    legal: i32,
}

impl<E: StaticEval> Searcher<'_, E> {
    /// Negamax alpha-beta at `ply` with `depth` plies left; `in_check`:
    /// the side to move's sole royal is attacked. A node with depth left
    /// and not in check opens its own quiescence budget; a node in check
    /// (an extension, not a branching) shares its parent's.
    pub(super) fn negamax(
        &mut self,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
        allow_null: bool,
    ) -> i32 {
        if depth >= 1 && !in_check {
            let outer = std::mem::replace(&mut self.q_used, 0);
            let s = self.negamax_node(depth, alpha, beta, ply, in_check, allow_null);
            self.q_used = outer;
            s
        } else {
            self.negamax_node(depth, alpha, beta, ply, in_check, allow_null)
        }
    }

    /// The body of [`Self::negamax`], step by step.
    fn negamax_node(
        &mut self,
        mut depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
        allow_null: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv[ply].clear();
        // Step 1: the game's end, a claim, mate distance.
        let (alpha, claim) = match self.ended_or_claimed(alpha, beta, ply) {
            Ok(window) => window,
            Err(score) => return score,
        };
        if ply >= MAX_PLY - 1 {
            return self.evaluate();
        }
        if depth <= 0 {
            if in_check {
                depth = 1;
            } else {
                return self.qsearch(alpha, beta, ply, in_check, 0);
            }
        }
        // A stopped search counts no more nodes: a re-search after a
        // stopped child (which returns 0) must not pass the node limit.
        if self.stopped {
            return 0;
        }
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        // Step 2: the table.
        let key = self.pos.hash();
        let entry = self.tt.probe(key);
        if let Some(s) = table_cutoff(entry, pv_node, ply, depth, alpha, beta) {
            return s;
        }
        // Internal iterative reduction: a deep node with no hash move to
        // try first is searched a ply shallower (it fills the table for
        // the next iteration at less cost).
        if entry.and_then(|e| e.mv).is_none() && depth >= IIR_DEPTH && !in_check {
            depth -= 1;
        }
        // Step 3: the static evaluation.
        let (static_eval, eval) = self.node_eval(entry, in_check, ply);
        // Improving: the side to move stands better than at its last
        // turn (two plies up; four when it was in check then), so fewer of
        // its late moves are pruned.
        self.static_evals[ply] = static_eval;
        let improving = !in_check && self.improving(ply, static_eval);
        let mut node = Node {
            depth,
            alpha,
            beta,
            ply,
            in_check,
            pv_node,
            key,
            entry,
            static_eval,
            eval,
            improving,
            claim,
        };
        // Step 4: reverse futility.
        if reverse_futile(&node) {
            return node.eval;
        }
        // Step 5: the null move.
        if allow_null && let Some(s) = self.null_move(&node) {
            return s;
        }
        // Step 6: the moves.
        self.search_moves(&mut node)
    }

    /// A node's game end (by rule, repetition, the move-count rule) as
    /// `Err(score)`, or its window: alpha raised to a claim the side to
    /// move may make instead of moving (Dynamic Scoring's bare King) and
    /// the claim, with mate-distance pruning (no line here beats a quicker
    /// mate: `Err` when the window closes). The root (ply 0) is searched
    /// whatever.
    fn ended_or_claimed(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Result<(i32, Option<i32>), i32> {
        if ply == 0 {
            return Ok((alpha, None));
        }
        if let Some(s) = self.game_end(ply) {
            return Err(s);
        }
        let mut claim = None;
        if let Some(c) = claimable(&self.pos) {
            let s = self.outcome_score(c, ply);
            if s >= beta {
                return Err(s);
            }
            alpha = alpha.max(s);
            claim = Some(s);
        }
        let a = alpha.max(-(MATE - ply as i32));
        let b = beta.min(MATE - ply as i32 - 1);
        if a >= b {
            return Err(a);
        }
        Ok((alpha, claim))
    }

    /// The static evaluation (the table's where it has one; `-INFINITE`
    /// in check), and what pruning weighs: the table's score where its
    /// bound says it is nearer the truth than the static evaluation.
    fn node_eval(&mut self, entry: Option<Entry>, in_check: bool, ply: usize) -> (i32, i32) {
        let static_eval = if in_check {
            -INFINITE
        } else if let Some(e) = entry {
            i32::from(e.eval)
        } else {
            self.evaluate()
        };
        let eval = match entry {
            Some(e) if !in_check => {
                let s = from_tt(i32::from(e.score), ply);
                let nearer = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s > static_eval,
                    Bound::Upper => s < static_eval,
                };
                if nearer && s.abs() < MATE_BOUND {
                    s
                } else {
                    static_eval
                }
            }
            _ => static_eval,
        };
        (static_eval, eval)
    }

    /// Null move: if passing still fails high, a real move will. The score
    /// to return, if the node is cut.
    fn null_move(&mut self, n: &Node) -> Option<i32> {
        let worth_trying = self.null_ok
            && !n.pv_node
            && !n.in_check
            && n.ply > 0
            && n.depth >= 3
            && n.eval >= n.beta
            && self.values.has_pieces(&self.pos, self.pos.side());
        if !worth_trying {
            return None;
        }
        let r = null_reduction(n.depth, n.eval - n.beta);
        self.play_null();
        let s = -self.negamax(
            n.depth - 1 - r,
            -n.beta,
            -n.beta + 1,
            n.ply + 1,
            false,
            false,
        );
        self.take_back();
        if self.stopped {
            return Some(0);
        }
        (s >= n.beta).then_some(if s >= MATE_BOUND { n.beta } else { s })
    }

    /// The move loop, the game's end when no move is legal, and the table
    /// store: the node's score.
    fn search_moves(&mut self, n: &mut Node) -> i32 {
        let ply = n.ply;
        let mut frame = std::mem::take(&mut self.frames[ply]);
        frame.moves.clear();
        frame.scores.clear();
        frame.unsure.clear();
        frame.quiets.clear();
        self.node_moves(&mut frame.moves);
        // The hash move goes first; the others are scored only if it does
        // not cut off.
        let mut scored = false;
        if let Some(h) = n.entry.and_then(|e| e.mv)
            && let Some(i) = frame.moves.iter().position(|&m| m == h)
        {
            frame.moves.swap(0, i);
        } else {
            self.score_moves(&mut frame, None, ply, 0);
            scored = true;
        }
        let mut r = Moves {
            best: -INFINITE,
            best_move: None,
            legal: 0,
        };
        let orig_alpha = n.alpha;
        // The node's check squares, made when the first quiet move asks.
        let mut squares: Option<Option<CheckSquares>> = None;
        let mut first = 0;
        let mut fallback_tried = false;
        'moves: loop {
            for idx in first..frame.moves.len() {
                if !scored && idx == 1 {
                    self.score_moves(&mut frame, None, ply, 1);
                    scored = true;
                }
                if scored {
                    self.pick(&mut frame, idx);
                }
                let m = frame.moves[idx];
                if ply == 0 && self.root_excluded.contains(&m) {
                    continue;
                }
                let quiet = !is_capture(&self.pos, m) && m.promo == 0;
                if self.prunes(n, &frame, idx, quiet, &mut squares, &r) {
                    continue;
                }
                let Some(mut gives_check) = self.play(m, n.in_check) else {
                    continue;
                };
                // Whether a check earns its extension is read before the
                // move, so the rare checking move is taken back to ask:
                // cheaper than asking of every move.
                let mut extend = false;
                if gives_check {
                    self.take_back();
                    let check = if quiet {
                        self.quiet_check(&mut squares, m)
                    } else {
                        None
                    };
                    extend = self.check_sound(&frame, idx, check);
                    match self.play(m, n.in_check) {
                        Some(g) => gives_check = g,
                        None => continue,
                    }
                }
                r.legal += 1;
                let score = self.search_move(n, r.legal, quiet, gives_check, extend);
                self.take_back();
                if self.stopped {
                    self.frames[ply] = frame;
                    return 0;
                }
                if self.record(n, &mut r, m, score, quiet, &frame) {
                    break 'moves;
                }
                if quiet {
                    frame.quiets.push(m);
                }
            }
            // Moves that exist only when no other is legal (Tamerlane's King
            // swap when stalemated): searched like the others, after them.
            if r.legal > 0 || fallback_tried || !self.pos.variant().caps.has_fallback {
                break;
            }
            fallback_tried = true;
            first = frame.moves.len();
            fallback_moves(&self.pos, &mut frame.moves);
            self.score_moves(&mut frame, None, ply, first);
            scored = true;
        }
        self.frames[ply] = frame;
        self.finish(n, r, orig_alpha)
    }

    /// Late-move pruning, futility and static-exchange pruning: is the
    /// move at `idx` of `frame` (`quiet`: neither capture nor promotion;
    /// `check`: how a quiet move checks, where the node's check squares
    /// tell) skipped unsearched? As in Stockfish 11, a quiet check is
    /// spared futility and held to the captures' exchange margin; late-move
    /// pruning skips it like any quiet move.
    fn prunes(
        &mut self,
        n: &Node,
        frame: &Frame,
        idx: usize,
        quiet: bool,
        squares: &mut Option<Option<CheckSquares>>,
        r: &Moves,
    ) -> bool {
        let m = frame.moves[idx];
        let (depth, legal) = (n.depth, r.legal);
        let frontier = !n.in_check && n.ply > 0 && legal > 0 && r.best > -MATE_BOUND;
        // Whether a quiet move checks, asked only of a move about to be
        // pruned (most are not).
        let mut checks =
            |s: &mut Self| quiet && s.quiet_check(squares, m).is_some_and(|c| c != Check::None);
        if frontier && !n.pv_node && quiet {
            // Late-move pruning and futility at the frontier.
            if depth <= LMP_DEPTH && legal >= late_move_count(depth, n.improving, frame.moves.len())
            {
                return true;
            }
            let lmr_depth = depth - 1 - self.reduction(depth, legal + 1);
            if lmr_depth < FUTILITY_DEPTH
                && n.eval + futility_margin(lmr_depth.max(0)) <= n.alpha
                && !checks(self)
            {
                return true;
            }
        }
        // Static-exchange pruning: near the horizon, a move that loses
        // more material by static exchange than the depth can make up. A
        // capture whose sort key says it does not lose (SEE 0 or more)
        // cannot lose more than the margin: no second SEE.
        if !(frontier
            && depth <= SEE_PRUNE_DEPTH
            && frame.scores.get(idx).copied().and_then(exchange_known) != Some(false))
        {
            return false;
        }
        if !quiet {
            return self.loses_by_exchange(m, see_margin(depth, false));
        }
        // A quiet check is held to the captures' margin. A loss beyond the
        // larger margin is one beyond the smaller too: the smaller first,
        // and the check asked only of a move that loses by it.
        let (plain, check) = (see_margin(depth, true), see_margin(depth, false));
        let small = plain.min(check);
        if !self.loses_by_exchange(m, small) {
            return false;
        }
        let margin = if checks(self) { check } else { plain };
        margin == small || self.loses_by_exchange(m, margin)
    }

    /// How the quiet move `m` checks, from the node's check squares
    /// (`squares`, made on the first ask); `None` where they cannot tell.
    fn quiet_check(&self, squares: &mut Option<Option<CheckSquares>>, m: Move) -> Option<Check> {
        let cs = squares.get_or_insert_with(|| self.check_squares());
        cs.as_ref().and_then(|cs| cs.check_kind(&self.pos, m))
    }

    /// Is a check by the move at `idx` of `frame` worth its extension, as
    /// Stockfish 11 judges it: a discovered check, or one whose move does
    /// not lose material by static exchange. `check` is how a quiet move
    /// checks where the node's check squares tell; a capture's sort key
    /// says whether it loses where it knows. Where neither tells (a
    /// game the check squares do not serve, a promotion), every check is
    /// extended.
    fn check_sound(&mut self, frame: &Frame, idx: usize, check: Option<Check>) -> bool {
        let m = frame.moves[idx];
        match check {
            Some(Check::None) | Some(Check::Discovered) => true,
            Some(Check::Direct) => see_ge(&self.pos, self.values, m, 0, &mut self.see_scratch),
            None => frame.scores.get(idx).copied().and_then(exchange_known) != Some(true),
        }
    }

    /// Searches the move just played, the `legal`th of the node: a ply
    /// more where `extend` (a sound check, [`Self::check_sound`]), then
    /// the first move with the full window, the others with a null window,
    /// reduced when late and quiet, checks included as in Stockfish 11
    /// (late-move reductions), and searched again where they beat alpha.
    /// `gives_check`: the move checks the side now to move. The score from
    /// the node's side.
    fn search_move(
        &mut self,
        n: &Node,
        legal: i32,
        quiet: bool,
        gives_check: bool,
        extend: bool,
    ) -> i32 {
        let (alpha, beta, ply) = (n.alpha, n.beta, n.ply);
        let ext = i32::from(extend && ply < 2 * MAX_PLY / 3);
        let new_depth = n.depth - 1 + ext;
        if legal == 1 {
            return -self.negamax(new_depth, -beta, -alpha, ply + 1, gives_check, true);
        }
        let mut r = 0;
        if n.depth >= 3 && quiet && !n.in_check && legal > 2 {
            r = self.reduction(n.depth, legal);
            if n.pv_node {
                r -= 1;
            }
            r = r.clamp(0, (new_depth - 1).max(0));
        }
        let mut score = -self.negamax(
            new_depth - r,
            -alpha - 1,
            -alpha,
            ply + 1,
            gives_check,
            true,
        );
        if score > alpha && r > 0 {
            score = -self.negamax(new_depth, -alpha - 1, -alpha, ply + 1, gives_check, true);
        }
        if score > alpha && score < beta {
            score = -self.negamax(new_depth, -beta, -alpha, ply + 1, gives_check, true);
        }
        score
    }

    /// Takes in `m`'s `score`: a new best raises alpha and the PV; a
    /// cutoff updates the ordering tables (for a quiet move) and returns
    /// true.
    fn record(
        &mut self,
        n: &mut Node,
        r: &mut Moves,
        m: Move,
        score: i32,
        quiet: bool,
        frame: &Frame,
    ) -> bool {
        if score <= r.best {
            return false;
        }
        r.best = score;
        if score <= n.alpha {
            return false;
        }
        let ply = n.ply;
        r.best_move = Some(m);
        n.alpha = score;
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
        if ply == 0 {
            self.iter_best = Some((score, line.clone()));
        }
        if n.alpha < n.beta {
            return false;
        }
        if quiet {
            self.ord.cutoff(&self.pos, m, &frame.quiets, n.depth, ply);
        }
        true
    }

    /// The node's score after its moves (mate or the variant's stalemate
    /// when none was legal; at least a claim), stored in the table.
    fn finish(&mut self, n: &Node, r: Moves, orig_alpha: i32) -> i32 {
        let ply = n.ply;
        let mut best = r.best;
        if let Some(c) = n.claim {
            best = best.max(c);
        }
        if r.legal == 0 {
            if ply == 0 && !self.root_excluded.is_empty() {
                return -INFINITE;
            }
            let side = self.pos.side();
            let ended = if n.in_check {
                -(MATE - ply as i32)
            } else {
                self.outcome_score(stalemate(self.pos.variant(), side), ply)
            };
            return ended.max(n.claim.unwrap_or(-INFINITE));
        }
        if ply > 0 || self.root_excluded.is_empty() {
            let bound = Bound::of(best, orig_alpha, n.beta);
            let eval = if n.in_check { 0 } else { n.static_eval };
            self.tt.store(
                n.key,
                r.best_move,
                to_tt(best, ply),
                eval,
                n.depth as i16,
                bound,
            );
        }
        best
    }
}

/// The table's score where its entry decides the node outside the
/// principal variation: deep enough, and an exact score or a bound beyond
/// the window.
fn table_cutoff(
    entry: Option<Entry>,
    pv_node: bool,
    ply: usize,
    depth: i32,
    alpha: i32,
    beta: i32,
) -> Option<i32> {
    let e = entry?;
    if pv_node || ply == 0 || (e.depth as i32) < depth {
        return None;
    }
    e.cutoff(ply, alpha, beta)
}

/// Reverse futility: far above beta with little depth left, the node
/// returns its evaluation.
fn reverse_futile(n: &Node) -> bool {
    !n.pv_node
        && !n.in_check
        && n.ply > 0
        && n.depth <= REVERSE_FUTILITY_DEPTH
        && n.beta.abs() < MATE_BOUND
        && n.eval - reverse_futility_margin(n.depth) >= n.beta
}
