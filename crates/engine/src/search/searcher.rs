//! One thread's search state ([`Searcher`]): the position, the path's
//! stacks (keys, checks, static evaluations, the evaluation's state), the
//! move buffers per ply, node and time limits; and the one make and
//! take-back of the search ([`Searcher::play`], [`Searcher::take_back`]).

use super::margins::lmr_table;
use crate::clock::Instant;
use crate::evaluation::StaticEval;
use crate::limits::Limits;
use crate::material::{captured_value, promotion_gain};
use crate::ordering::{MAX_PLY, Ordering};
use crate::score::INFINITE;
use crate::see::{SeeScratch, see_ge};
use crate::time::Budget;
use crate::tt::Table;
use crate::values::PieceValues;
use kamil_rules::CheckSquares;
use kamil_rules::NullUndo;
use kamil_rules::movegen::{
    in_check, is_attacked, legal_moves, made_illegal, noisy_moves, pseudo_moves,
};
use kamil_rules::{Move, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering as AtomicOrdering};

/// Move buffers of one ply.
#[derive(Default)]
pub(super) struct Frame {
    pub(super) moves: Vec<Move>,
    /// Sort keys of `moves` ([`Ordering::key`]).
    pub(super) scores: Vec<i32>,
    /// Whether each key is [`Key::Unsure`] still.
    pub(super) unsure: Vec<bool>,
    pub(super) quiets: Vec<Move>,
}

/// One thread's search: its position, path stacks and buffers, and what
/// it shares (table, stop flag, evaluation).
pub(super) struct Searcher<'a, E: StaticEval> {
    pub(super) pos: Position,
    pub(super) ev: &'a E,
    /// The evaluation's piece values (static exchange, ordering, pruning).
    pub(super) values: &'a PieceValues,
    pub(super) tt: &'a Table,
    pub(super) ord: &'a mut Ordering,
    pub(super) stop: &'a AtomicBool,
    pub(super) start: Instant,
    pub(super) budget: Budget,
    /// The node count that stops the search: none until the first
    /// iteration is complete (so that a search always plays a searched
    /// move, however small its budget), then [`Searcher::node_budget`].
    pub(super) node_limit: u64,
    /// The node budget of the limits (`go nodes N`), `u64::MAX` for none.
    pub(super) node_budget: u64,
    pub(super) nodes: u64,
    pub(super) seldepth: usize,
    pub(super) stopped: bool,
    /// The engine's poll ([`super::Engine::set_poll`]), on the main
    /// thread only.
    pub(super) poll: Option<fn() -> bool>,
    /// Position hashes: game history, then the search path; 0 after a null move.
    pub(super) keys: Vec<u64>,
    /// Per entry of `keys` in the search path: was the side to move in check?
    pub(super) checks: Vec<bool>,
    /// Index in `keys` of the root position.
    pub(super) root_key: usize,
    /// Index in `keys` of the first position whose entry in `checks` is known.
    pub(super) history_base: usize,
    pub(super) pv: Vec<Vec<Move>>,
    pub(super) frames: Vec<Frame>,
    /// Per ply of the path: the node's static evaluation (centipawns,
    /// side to move), `-INFINITE` when in check (for the improving flag).
    pub(super) static_evals: Vec<i32>,
    pub(super) lmr: Vec<[u8; 64]>,
    pub(super) root_excluded: Vec<Move>,
    /// Best root move of the running iteration, with its score and PV.
    pub(super) iter_best: Option<(i32, Vec<Move>)>,
    pub(super) null_ok: bool,
    /// The variant's legal moves need the whole list (a compulsory-capture
    /// filter, Checker series): nodes generate legal moves, not pseudo-legal.
    pub(super) legal_lists: bool,
    /// A lean quiescence: it skips captures of defended pieces by more
    /// valuable ones, and answers checks with every move only in its first
    /// [`LEAN_CHECK_PLIES`] plies. On where measured: Frolov's game
    /// (rules/frolov-10x10.md), whose quiescence otherwise runs 40 plies
    /// deep (a depth-1 search of a middlegame: 86141 nodes, 363 with it)
    /// and can chase mutual checks to the ply limit. Other games keep the
    /// full quiescence until an A/B test says otherwise (the defended-capture
    /// test alone would take the bench from 1389014 to 685845 nodes).
    pub(super) lean_quiescence: bool,
    /// Quiescence nodes used so far by the horizon children of the current
    /// main-search node (see [`QUIESCENCE_BUDGET`]).
    pub(super) q_used: u64,
    /// Buffers of the static exchange evaluation.
    pub(super) see_scratch: SeeScratch,
    /// This thread's evaluation state ([`StaticEval::State`]).
    pub(super) eval_state: E::State,
    /// Per ply of the path made by [`Searcher::play`] or
    /// [`Searcher::play_null`]: what a null move's take-back restores.
    pub(super) nulls: Vec<Option<NullUndo>>,
    /// Lazy SMP: 0 for the main thread, else the helper's number (it skips
    /// some depths: `helper_skips` in the iterate module).
    pub(super) helper: usize,
    /// Lazy SMP: the helpers' node count, which helpers add to and the
    /// main thread reads; `None` when searching alone.
    pub(super) helper_nodes: Option<&'a AtomicU64>,
    /// Nodes a helper has added to `helper_nodes` so far.
    pub(super) shared: u64,
}

impl<'a, E: StaticEval> Searcher<'a, E> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        pos: Position,
        ev: &'a E,
        tt: &'a Table,
        ord: &'a mut Ordering,
        stop: &'a AtomicBool,
        start: Instant,
        budget: Budget,
        limits: &Limits,
    ) -> Searcher<'a, E> {
        let keys: Vec<u64> = pos.history().to_vec();
        let root_key = keys.len() - 1;
        let checks = history_checks(&pos);
        let v = pos.variant();
        // A pass is no sound test where the rules change with each own move
        // (Albers' ripening) or a compulsory turn is pending.
        let null_ok = v.caps.null_move_sound;
        let legal_lists = v.caps.whole_legal_lists;
        let lean_quiescence = v.caps.upgrade_choices;
        let eval_state = ev.new_state(&pos);
        Searcher {
            checks,
            keys,
            root_key,
            history_base: root_key.saturating_sub(pos.depth()),
            pos,
            ev,
            values: ev.piece_values(),
            tt,
            ord,
            stop,
            start,
            budget,
            node_limit: u64::MAX,
            node_budget: limits.nodes.unwrap_or(u64::MAX),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            poll: None,
            pv: vec![Vec::new(); MAX_PLY + 2],
            frames: (0..MAX_PLY + 2).map(|_| Frame::default()).collect(),
            static_evals: vec![-INFINITE; MAX_PLY + 2],
            lmr: lmr_table(),
            root_excluded: Vec::new(),
            lean_quiescence,
            q_used: 0,
            see_scratch: SeeScratch::default(),
            eval_state,
            nulls: Vec::with_capacity(MAX_PLY + 2),
            helper: 0,
            helper_nodes: None,
            shared: 0,
            iter_best: None,
            null_ok,
            legal_lists,
        }
    }

    pub(super) fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    #[inline]
    pub(super) fn check_limits(&mut self) {
        // Nodes that build whole legal lists are slower: look more often.
        let mask = if self.legal_lists { 63 } else { 1023 };
        if self.nodes & mask == 0 {
            if self.stop.load(AtomicOrdering::Relaxed) {
                self.stopped = true;
            }
            // The poll may cross into the host (WebAssembly calling
            // JavaScript): every 1,024 nodes is soon enough for a `stop`.
            if self.nodes & 1023 == 0 && self.poll.is_some_and(|p| p()) {
                self.stopped = true;
            }
            if let Some(h) = self.budget.hard
                && self.elapsed_ms() >= h
            {
                self.stopped = true;
            }
            if self.helper_nodes.is_some() {
                self.share_nodes();
                if self.total_nodes() >= self.node_limit {
                    self.stopped = true;
                }
            }
        }
        if self.nodes >= self.node_limit {
            self.stopped = true;
        }
    }

    /// Lazy SMP: a helper adds the nodes it has searched since it last did
    /// to the shared count (the main thread does nothing).
    #[cold]
    pub(super) fn share_nodes(&mut self) {
        if self.helper > 0
            && let Some(h) = self.helper_nodes
        {
            h.fetch_add(self.nodes - self.shared, AtomicOrdering::Relaxed);
            self.shared = self.nodes;
        }
    }

    /// Nodes searched by every thread so far: the main thread's own, plus
    /// what the helpers have shared (a little behind).
    pub(super) fn total_nodes(&self) -> u64 {
        match self.helper_nodes {
            Some(h) if self.helper == 0 => self.nodes + h.load(AtomicOrdering::Relaxed),
            _ => self.nodes,
        }
    }

    /// The side to move's sole royal is attacked where the rules forbid it
    /// (the condition for check extension and for checkmate).
    #[inline]
    pub(super) fn side_in_check(&self) -> bool {
        let pos = &self.pos;
        let v = pos.variant();
        if !v.rules.royal_safety {
            return false;
        }
        let s = pos.side();
        let r = pos.royals(s);
        r.len() == 1 && is_attacked(pos, r[0], s.flip())
    }

    /// The check squares of the side to move against the opponent's sole
    /// royal, where check binds it, pseudo-legal lists serve (not legal
    /// lists: compulsory captures, Checker series) and [`CheckSquares`]
    /// can tell a quiet move's check without making it; else `None`.
    pub(super) fn check_squares(&self) -> Option<CheckSquares> {
        let pos = &self.pos;
        let royals = pos.royals(pos.side().flip());
        let applies = !self.legal_lists && pos.variant().rules.royal_safety && royals.len() == 1;
        if !applies {
            return None;
        }
        CheckSquares::new(pos, royals[0])
    }

    /// Is the side to move in check, as the perpetual-check rule counts it
    /// (any royal attacked)? `single` is [`Self::side_in_check`], known.
    #[inline]
    pub(super) fn check_for_repetition(&self, single: bool) -> bool {
        let v = self.pos.variant();
        single
            || (perpetual_counts(v)
                && self.pos.royals(self.pos.side()).len() > 1
                && in_check(&self.pos, self.pos.side()))
    }

    /// Whether `static_eval` at `ply` is above the side to move's last
    /// static evaluation (two plies up, or four when in check there; true
    /// when neither is known).
    pub(super) fn improving(&self, ply: usize, static_eval: i32) -> bool {
        let earlier = |back: usize| {
            ply.checked_sub(back)
                .map(|p| self.static_evals[p])
                .filter(|&e| e > -INFINITE)
        };
        match earlier(2).or_else(|| earlier(4)) {
            Some(e) => static_eval > e,
            None => true,
        }
    }

    /// Late-move reduction (plies) of the `move_number`th move (from 1)
    /// searched at `depth` plies, before its adjustments.
    #[inline]
    pub(super) fn reduction(&self, depth: i32, move_number: i32) -> i32 {
        let d = depth.clamp(0, 63) as usize;
        let m = move_number.clamp(0, 63) as usize;
        i32::from(self.lmr[d][m])
    }

    /// Appends the moves a node searches: pseudo-legal (tried by
    /// [`Self::make_legal`]), or legal where the variant needs whole lists.
    pub(super) fn node_moves(&mut self, out: &mut Vec<Move>) {
        if self.legal_lists {
            legal_moves(&mut self.pos, out);
        } else {
            pseudo_moves(&self.pos, out);
        }
    }

    /// The quiescence moves: captures and promotions, pseudo-legal
    /// (Checker series that capture included). Where the variant needs whole
    /// legal lists, quiescence takes these as they are, tried for King
    /// safety only ([`Self::make_safe`]): a quick estimate, while the main
    /// search keeps to the exact rules (forced continuations, compulsory
    /// captures).
    pub(super) fn noisy_node_moves(&mut self, out: &mut Vec<Move>) {
        noisy_moves(&self.pos, out);
    }

    /// Does `m` lose more than `margin` centipawns by static exchange?
    /// Moves that take at least their mover's worth are not asked.
    #[inline]
    pub(super) fn loses_by_exchange(&mut self, m: Move, margin: i32) -> bool {
        let gain =
            captured_value(&self.pos, self.values, m) + promotion_gain(&self.pos, self.values, m);
        let mover = self.values.value(self.pos.at(m.from).kind());
        mover > gain + margin && !see_ge(&self.pos, self.values, m, -margin, &mut self.see_scratch)
    }

    /// Makes `m`, a move of the node's list, for the search: the one make
    /// of the search. Checked in full when `in_check` (or where the variant
    /// needs whole legal lists), else for the mover's royal only; then the
    /// position's key, whether the mover now gives check (as repetition
    /// counts it) and the evaluation's state are pushed. Returns whether
    /// `m` gives check (the side to move's sole royal attacked), or `None`
    /// when it is not legal and nothing was made.
    #[inline]
    pub(super) fn play(&mut self, m: Move, in_check: bool) -> Option<bool> {
        if !self.make_tried(m, in_check) {
            return None;
        }
        let gives_check = self.side_in_check();
        self.keys.push(self.pos.hash());
        self.checks.push(self.check_for_repetition(gives_check));
        self.ev
            .push(&mut self.eval_state, &self.pos, self.pos.last_changes());
        self.nulls.push(None);
        Some(gives_check)
    }

    /// Passes the turn (null-move pruning): the null move's key (0, so no
    /// repetition is found across it), no check, and an evaluation state
    /// pushed with no board change.
    #[inline]
    pub(super) fn play_null(&mut self) {
        let u = self.pos.make_null();
        self.keys.push(0);
        self.checks.push(false);
        self.ev.push(&mut self.eval_state, &self.pos, &[]);
        self.nulls.push(Some(u));
    }

    /// Takes back the last move of [`Self::play`] or [`Self::play_null`]:
    /// the one take-back of the search.
    #[inline]
    pub(super) fn take_back(&mut self) {
        self.ev.pop(&mut self.eval_state);
        self.keys.pop();
        self.checks.pop();
        match self.nulls.pop() {
            Some(Some(u)) => self.pos.unmake_null(u),
            _ => self.pos.unmake(),
        }
    }

    /// The static evaluation of the position, side to move's view.
    #[inline]
    pub(super) fn evaluate(&mut self) -> i32 {
        self.ev.evaluate(&self.pos, &mut self.eval_state)
    }

    /// Makes a pseudo-legal move; takes it back and returns false if it
    /// leaves the mover's sole royal attacked where the rules forbid that,
    /// or repeats a position where repetition is forbidden.
    #[inline]
    fn make_legal(&mut self, m: Move) -> bool {
        self.pos.make(m);
        if self.legal_lists {
            return true;
        }
        if made_illegal(&mut self.pos) {
            self.pos.unmake();
            return false;
        }
        true
    }

    /// Makes a move of a node's list: checked in full when in check
    /// ([`Self::make_legal`]), else by [`Self::make_safe`]; returns whether
    /// it was made.
    #[inline]
    fn make_tried(&mut self, m: Move, in_check: bool) -> bool {
        if in_check {
            self.make_legal(m)
        } else {
            self.make_safe(m)
        }
    }

    /// Makes a pseudo-legal move unless it leaves the mover's royal
    /// attacked; returns whether it was made.
    #[inline]
    fn make_safe(&mut self, m: Move) -> bool {
        self.pos.make(m);
        if made_illegal(&mut self.pos) {
            self.pos.unmake();
            return false;
        }
        true
    }
}

/// Per position of the game so far (as [`Position::history`]): was the
/// side to move in check? Entries before the FEN's position are false. Only
/// the perpetual-check rule needs them, so other variants get all false.
pub(super) fn history_checks(pos: &Position) -> Vec<bool> {
    let n = pos.history().len();
    let mut checks = vec![false; n];
    if !perpetual_counts(pos.variant()) {
        return checks;
    }
    let mut p = pos.clone();
    let moves: Vec<Move> = p.moves_played().collect();
    for _ in 0..moves.len() {
        p.unmake();
    }
    let Some(base) = (n - 1).checked_sub(moves.len()) else {
        return checks;
    };
    checks[base] = in_check(&p, p.side());
    for (i, m) in moves.into_iter().enumerate() {
        p.make(m);
        checks[base + i + 1] = in_check(&p, p.side());
    }
    checks
}

/// Does a repetition in which one side checked on every move score other
/// than a draw (perpetual check loses, or Dynamic Scoring credits it)?
pub(super) fn perpetual_counts(v: &kamil_rules::Variant) -> bool {
    v.caps.perpetual_counts
}
