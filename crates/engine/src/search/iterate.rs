//! Iterative deepening: one search per depth (and per line of a MultiPV
//! search) in an aspiration window around the last score, reporting each
//! completed iteration; Lazy SMP's helper threads skip some depths.

use super::margins::{ASPIRATION_DEPTH, ASPIRATION_LIMIT, ASPIRATION_WINDOW};
use super::searcher::Searcher;
use super::{Info, SearchResult};
use crate::evaluation::StaticEval;
use crate::limits::Limits;
use crate::ordering::MAX_PLY;
use crate::score::{INFINITE, MATE, MATE_BOUND, Score, mate_plies};
use kamil_rules::Move;
use std::sync::atomic::Ordering as AtomicOrdering;

impl<E: StaticEval> Searcher<'_, E> {
    pub(super) fn iterate(
        &mut self,
        limits: &Limits,
        multipv: u32,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let mut root_moves = Vec::new();
        self.pos.legal_moves_into(&mut root_moves);
        let mut result = SearchResult {
            best: root_moves.first().copied(),
            pv: root_moves.first().copied().into_iter().collect(),
            ..SearchResult::none()
        };
        if root_moves.is_empty() {
            return result;
        }
        let root_check = self.side_in_check();
        self.checks[self.root_key] = self.check_for_repetition(root_check);
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .clamp(1, MAX_PLY as u32 - 8);
        let lines = (multipv as usize).min(root_moves.len()).max(1);
        let mut prev_score = 0;
        for depth in 1..=max_depth {
            if helper_skips(self.helper, depth) {
                continue;
            }
            let mut found: Vec<(i32, Vec<Move>)> = Vec::new();
            self.root_excluded.clear();
            for line in 0..lines {
                self.iter_best = None;
                let d = depth as i32;
                let mut delta = ASPIRATION_WINDOW;
                let (mut alpha, mut beta) = if depth >= ASPIRATION_DEPTH && line == 0 {
                    (prev_score - delta, prev_score + delta)
                } else {
                    (-INFINITE, INFINITE)
                };
                let score = loop {
                    self.q_used = 0;
                    let s = self.negamax(d, alpha, beta, 0, root_check, false);
                    if self.stopped {
                        break s;
                    }
                    // A bound already at ±INFINITE cannot widen: the
                    // score stands.
                    if s <= alpha && alpha > -INFINITE {
                        alpha = (alpha - delta).max(-INFINITE);
                    } else if s >= beta && beta < INFINITE {
                        beta = (beta + delta).min(INFINITE);
                    } else {
                        break s;
                    }
                    delta *= 2;
                    if delta > ASPIRATION_LIMIT {
                        alpha = -INFINITE;
                        beta = INFINITE;
                    }
                };
                if self.stopped {
                    // A fully searched move that beat the previous best is
                    // kept; otherwise the last completed iteration stands.
                    if line == 0
                        && let Some((s, pv)) = self.iter_best.take()
                        && !pv.is_empty()
                    {
                        result.best = Some(pv[0]);
                        result.ponder = pv.get(1).copied();
                        result.score = Score::from_internal(s);
                        result.pv = pv;
                    }
                    break;
                }
                let pv = self.pv[0].clone();
                if pv.is_empty() {
                    break;
                }
                self.root_excluded.push(pv[0]);
                if line == 0 {
                    prev_score = score;
                }
                found.push((score, pv));
                let (s, pv) = found.last().expect("just pushed");
                let time_ms = self.elapsed_ms();
                let nodes = self.total_nodes();
                on_info(&Info {
                    depth,
                    seldepth: self.seldepth as u32,
                    multipv: line as u32 + 1,
                    score: Score::from_internal(*s),
                    mate_plies: mate_plies(*s),
                    nodes,
                    time_ms,
                    nps: nodes * 1000 / time_ms.max(1),
                    pv: pv.clone(),
                    hashfull: self.tt.hashfull(),
                });
            }
            if self.stopped {
                break;
            }
            // A node budget binds once an iteration is complete.
            self.node_limit = self.node_budget;
            if let Some((s, pv)) = found.first() {
                result.best = Some(pv[0]);
                result.ponder = pv.get(1).copied();
                result.score = Score::from_internal(*s);
                result.pv = pv.clone();
                result.depth = depth;
                if !limits.infinite && s.abs() >= MATE_BOUND && (MATE - s.abs()) < depth as i32 {
                    break;
                }
            }
            if let Some(soft) = self.budget.soft
                && self.elapsed_ms() * 2 >= soft
            {
                break;
            }
            if self.total_nodes() >= self.node_limit {
                break;
            }
        }
        if limits.infinite {
            // UCI: `bestmove` only after `stop`, even when the search is done.
            while !self.stop.load(AtomicOrdering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        }
        result.nodes = self.nodes;
        result.seldepth = self.seldepth as u32;
        result.time_ms = self.elapsed_ms();
        result
    }
}

/// Lazy SMP: does helper `helper` (1, 2, ...) skip the iteration of
/// `depth`? Helpers alternate skipping blocks of depths of sizes 1 to 4 in
/// different phases (the pattern of Stockfish 8's helpers), so that they
/// run ahead of the main thread at different depths; the main thread (0)
/// skips none.
fn helper_skips(helper: usize, depth: u32) -> bool {
    const SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
    const PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
    if helper == 0 {
        return false;
    }
    let i = (helper - 1) % 20;
    !((depth + PHASE[i]) / SIZE[i]).is_multiple_of(2)
}
