//! Iterative-deepening principal variation search with a transposition
//! table, quiescence search, null-move pruning, late-move reductions and
//! check extension, scoring game ends by each variant's rules. Near the
//! horizon it prunes by reverse futility, late-move counts
//! (`late_move_count`), futility by the reduced depth
//! (`futility_margin`) and static exchange (`see_margin`).

use crate::eval::pawn_table::PawnTable;
use crate::eval::weights::Weights;
use crate::eval::{EvalMode, Evaluator};
use crate::limits::Limits;
use crate::material::{captured_value, is_capture, promotion_gain};
use crate::ordering::{Key, MAX_PLY, Ordering, exchange_known, resolve};
use crate::score::{INFINITE, MATE, MATE_BOUND, Score, from_tt, to_tt};
use crate::see::{SeeScratch, see_ge};
use crate::time::Budget;
use crate::tt::{AllocError, Bound, Table};
use kamil_rules::movegen::{
    fallback_moves, in_check, is_attacked, legal_moves, made_illegal, noisy_moves, pseudo_moves,
};
use kamil_rules::outcome::{
    Reason, claimable, draw_or_points, ended_by_rule, perpetual_check, stalemate,
};
use kamil_rules::{Move, Outcome, Position};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering as AtomicOrdering};
use std::time::Instant;

/// Engine settings a front end may change between searches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Transposition table size, MB.
    pub hash_mb: usize,
    /// Number of best lines to report (1 = normal play).
    pub multipv: u32,
    /// Evaluation terms.
    pub eval: EvalMode,
    /// Search threads (Lazy SMP), 1 to [`MAX_THREADS`]; 1 searches exactly
    /// as a single-threaded engine (deterministic node counts).
    pub threads: usize,
}

/// Most search threads an engine runs ([`Engine::set_threads`]).
pub const MAX_THREADS: usize = 64;

impl Default for EngineConfig {
    fn default() -> EngineConfig {
        EngineConfig {
            hash_mb: 64,
            multipv: 1,
            eval: EvalMode::Full,
            threads: 1,
        }
    }
}

/// Progress of a search: one line per completed iteration and PV line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Iteration depth, plies.
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// Which line (1 = best) when several are searched.
    pub multipv: u32,
    /// Score of the line for the side to move.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started, ms.
    pub time_ms: u64,
    /// Nodes per second.
    pub nps: u64,
    /// The line, first move first.
    pub pv: Vec<Move>,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play: always legal; `None` only if the game is over
    /// (no legal move or ended by rule).
    pub best: Option<Move>,
    /// The expected reply, if the PV has one.
    pub ponder: Option<Move>,
    /// Score for the side to move.
    pub score: Score,
    /// Depth of the last completed iteration, plies.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time used, ms.
    pub time_ms: u64,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// A game-playing engine: settings, transposition table and move-ordering
/// tables, kept between searches of one game.
pub struct Engine {
    config: EngineConfig,
    tt: Table,
    ordering: Option<Ordering>,
    evaluator: Option<Evaluator>,
    /// Evaluation weights given by the front end (a user variant's
    /// `NAME.eval.toml`); `None`: the variant's built-in ones.
    weights: Option<Weights>,
    stop: Arc<AtomicBool>,
    /// Move-ordering tables of the helper threads, kept between searches
    /// like the main thread's.
    helper_orderings: Vec<Ordering>,
}

impl Engine {
    /// A new engine with `config`. If the transposition table of
    /// `config.hash_mb` MB cannot be allocated, it has a 1 MB one instead
    /// (see [`Engine::config`]); [`Engine::try_new`] fails instead.
    pub fn new(config: EngineConfig) -> Engine {
        let tt = Table::new(config.hash_mb);
        Engine::with_table(config, tt)
    }

    /// A new engine with `config`.
    ///
    /// Errors: the transposition table of `config.hash_mb` MB cannot be
    /// allocated.
    pub fn try_new(config: EngineConfig) -> Result<Engine, AllocError> {
        let tt = Table::try_new(config.hash_mb)?;
        Ok(Engine::with_table(config, tt))
    }

    fn with_table(mut config: EngineConfig, tt: Table) -> Engine {
        config.hash_mb = tt.mb();
        config.threads = config.threads.clamp(1, MAX_THREADS);
        Engine {
            tt,
            config,
            ordering: None,
            evaluator: None,
            weights: None,
            stop: Arc::new(AtomicBool::new(false)),
            helper_orderings: Vec::new(),
        }
    }

    /// The settings in force.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Resizes the transposition table to `mb` megabytes (at least 1) and
    /// clears it.
    ///
    /// Errors: that much memory cannot be allocated; the table is then kept
    /// as it was (size and entries).
    pub fn set_hash_mb(&mut self, mb: usize) -> Result<(), AllocError> {
        self.tt.resize(mb.max(1))?;
        self.config.hash_mb = self.tt.mb();
        Ok(())
    }

    /// Sets the number of search threads, clamped to 1..=[`MAX_THREADS`]
    /// (front ends offer at most the machine's cores). With more than one,
    /// helper threads search the same position sharing the transposition
    /// table (Lazy SMP); the main thread alone reports and decides.
    pub fn set_threads(&mut self, n: usize) {
        self.config.threads = n.clamp(1, MAX_THREADS);
    }

    /// Sets the number of lines searched (at least 1).
    pub fn set_multipv(&mut self, n: u32) {
        self.config.multipv = n.max(1);
    }

    /// Sets the evaluation terms.
    pub fn set_eval_mode(&mut self, mode: EvalMode) {
        self.config.eval = mode;
        self.evaluator = None;
    }

    /// Sets the evaluation weights: `Some` for a weights file read by the
    /// front end (over the defaults), `None` for the variant's built-in
    /// weights. Weights that do not fit the variant searched (a piece it
    /// lacks) are ignored for the built-in ones.
    pub fn set_weights(&mut self, weights: Option<Weights>) {
        self.weights = weights;
        self.evaluator = None;
    }

    /// Forgets everything learnt (a new game).
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.ordering = None;
        self.helper_orderings.clear();
    }

    /// The flag that stops a running search when set to true (from any
    /// thread). A search only reads it: the front end clears it before
    /// starting the next search.
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Searches `pos` within `limits`, calling `on_info` after each
    /// completed iteration (once per line). Returns the best move found,
    /// which is always legal when any move is, and the PV, score and stats.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let start = Instant::now();
        let v = pos.variant();
        let reuse = self.evaluator.as_ref().is_some_and(|e| {
            e.mode() == self.config.eval
                && (Arc::ptr_eq(e.variant(), v)
                    || (e.variant().name == v.name && e.variant().chosen == v.chosen))
        });
        if !reuse {
            let mode = self.config.eval;
            let ev = match &self.weights {
                Some(w) => Evaluator::with_weights(v.clone(), mode, w)
                    .unwrap_or_else(|_| Evaluator::new(v.clone(), mode)),
                None => Evaluator::new(v.clone(), mode),
            };
            self.evaluator = Some(ev);
            self.ordering = None;
            self.helper_orderings.clear();
        }
        let squares = v.geometry.compact_len();
        let codes = 2 + 2 * v.pieces.len();
        let mut ordering = self
            .ordering
            .take()
            .unwrap_or_else(|| Ordering::new(squares, codes));
        ordering.age();
        self.tt.new_search();
        let Some(ev) = self.evaluator.as_ref() else {
            // Unreachable: set above.
            return SearchResult::none();
        };
        let helpers = self.config.threads.clamp(1, MAX_THREADS) - 1;
        if helpers == 0 {
            let mut s = Searcher::new(
                pos.clone(),
                ev,
                &self.tt,
                &mut ordering,
                &self.stop,
                start,
                Budget::new(limits, pos.side()),
                limits,
            );
            let result = s.iterate(limits, self.config.multipv, on_info);
            self.ordering = Some(ordering);
            return result;
        }
        while self.helper_orderings.len() < helpers {
            self.helper_orderings.push(Ordering::new(squares, codes));
        }
        let helper_orderings = &mut self.helper_orderings[..helpers];
        helper_orderings.iter_mut().for_each(Ordering::age);
        let tt = &self.tt;
        // Stops the helpers when the main thread is done; the user's stop
        // flag is only read (the front end clears it).
        let done = AtomicBool::new(false);
        let helper_nodes = AtomicU64::new(0);
        // Helpers: the same depth limit, no other (the main thread decides
        // when to stop).
        let helper_limits = Limits {
            depth: limits.depth,
            ..Limits::default()
        };
        let mut result = std::thread::scope(|scope| {
            for (i, ord) in helper_orderings.iter_mut().enumerate() {
                let (done, helper_nodes, helper_limits) = (&done, &helper_nodes, &helper_limits);
                let pos = pos.clone();
                // A helper that cannot be started is done without.
                let _ = std::thread::Builder::new()
                    .name(format!("kamil-helper-{}", i + 1))
                    .spawn_scoped(scope, move || {
                        let side = pos.side();
                        let mut s = Searcher::new(
                            pos,
                            ev,
                            tt,
                            ord,
                            done,
                            start,
                            Budget::new(helper_limits, side),
                            helper_limits,
                        );
                        s.helper = i + 1;
                        s.helper_nodes = Some(helper_nodes);
                        s.iterate(helper_limits, 1, &mut |_| {});
                        s.share_nodes();
                    });
            }
            let mut s = Searcher::new(
                pos.clone(),
                ev,
                tt,
                &mut ordering,
                &self.stop,
                start,
                Budget::new(limits, pos.side()),
                limits,
            );
            s.helper_nodes = Some(&helper_nodes);
            let result = s.iterate(limits, self.config.multipv, on_info);
            done.store(true, AtomicOrdering::Relaxed);
            result
        });
        // Every helper has joined and shared its count.
        result.nodes += helper_nodes.load(AtomicOrdering::Relaxed);
        self.ordering = Some(ordering);
        result
    }
}

impl SearchResult {
    /// No move, no score: a game already over.
    fn none() -> SearchResult {
        SearchResult {
            best: None,
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
            seldepth: 0,
            nodes: 0,
            time_ms: 0,
            pv: Vec::new(),
        }
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

/// Per position of the game so far (as [`Position::history`]): was the
/// side to move in check? Entries before the FEN's position are false. Only
/// the perpetual-check rule needs them, so other variants get all false.
fn history_checks(pos: &Position) -> Vec<bool> {
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
fn perpetual_counts(v: &kamil_rules::Variant) -> bool {
    v.caps.perpetual_counts
}

/// Late-move reduction in plies by depth and move number.
fn lmr_table() -> Vec<[u8; 64]> {
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

/// Move buffers of one ply.
#[derive(Default)]
struct Frame {
    moves: Vec<Move>,
    /// Sort keys of `moves` ([`Ordering::key`]).
    scores: Vec<i32>,
    /// Whether each key is [`Key::Unsure`] still.
    unsure: Vec<bool>,
    quiets: Vec<Move>,
}

struct Searcher<'a> {
    pos: Position,
    ev: &'a Evaluator,
    tt: &'a Table,
    ord: &'a mut Ordering,
    stop: &'a AtomicBool,
    start: Instant,
    budget: Budget,
    node_limit: u64,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    /// Position hashes: game history, then the search path; 0 after a null move.
    keys: Vec<u64>,
    /// Per entry of `keys` in the search path: was the side to move in check?
    checks: Vec<bool>,
    /// Index in `keys` of the root position.
    root_key: usize,
    /// Index in `keys` of the first position whose entry in `checks` is known.
    history_base: usize,
    pv: Vec<Vec<Move>>,
    frames: Vec<Frame>,
    /// Per ply of the path: the node's static evaluation (centipawns,
    /// side to move), `-INFINITE` when in check (for the improving flag).
    static_evals: Vec<i32>,
    lmr: Vec<[u8; 64]>,
    root_excluded: Vec<Move>,
    /// Best root move of the running iteration, with its score and PV.
    iter_best: Option<(i32, Vec<Move>)>,
    null_ok: bool,
    /// The variant's legal moves need the whole list (a compulsory-capture
    /// filter, Checker series): nodes generate legal moves, not pseudo-legal.
    legal_lists: bool,
    /// A lean quiescence: it skips captures of defended pieces by more
    /// valuable ones, and answers checks with every move only in its first
    /// [`LEAN_CHECK_PLIES`] plies. On where measured: Frolov's game
    /// (rules/frolov-10x10.md), whose quiescence otherwise runs 40 plies
    /// deep (a depth-1 search of a middlegame: 86141 nodes, 363 with it)
    /// and can chase mutual checks to the ply limit. Other games keep the
    /// full quiescence until an A/B test says otherwise (the defended-capture
    /// test alone would take the bench from 1389014 to 685845 nodes).
    lean_quiescence: bool,
    /// Quiescence nodes used so far by the horizon children of the current
    /// main-search node (see [`QUIESCENCE_BUDGET`]).
    q_used: u64,
    /// Buffers of the static exchange evaluation.
    see_scratch: SeeScratch,
    /// This thread's pawn terms, by pawn placement.
    pawn_table: PawnTable,
    /// Lazy SMP: 0 for the main thread, else the helper's number (it skips
    /// some depths, see [`helper_skips`]).
    helper: usize,
    /// Lazy SMP: the helpers' node count, which helpers add to and the
    /// main thread reads; `None` when searching alone.
    helper_nodes: Option<&'a AtomicU64>,
    /// Nodes a helper has added to `helper_nodes` so far.
    shared: u64,
}

impl<'a> Searcher<'a> {
    #[allow(clippy::too_many_arguments)]
    fn new(
        pos: Position,
        ev: &'a Evaluator,
        tt: &'a Table,
        ord: &'a mut Ordering,
        stop: &'a AtomicBool,
        start: Instant,
        budget: Budget,
        limits: &Limits,
    ) -> Searcher<'a> {
        let keys: Vec<u64> = pos.history().to_vec();
        let root_key = keys.len() - 1;
        let checks = history_checks(&pos);
        let v = pos.variant();
        // A pass is no sound test where the rules change with each own move
        // (Albers' ripening) or a compulsory turn is pending.
        let null_ok = v.caps.null_move_sound;
        let legal_lists = v.caps.whole_legal_lists;
        let lean_quiescence = v.caps.upgrade_choices;
        Searcher {
            checks,
            keys,
            root_key,
            history_base: root_key.saturating_sub(pos.depth()),
            pos,
            ev,
            tt,
            ord,
            stop,
            start,
            budget,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            pv: vec![Vec::new(); MAX_PLY + 2],
            frames: (0..MAX_PLY + 2).map(|_| Frame::default()).collect(),
            static_evals: vec![-INFINITE; MAX_PLY + 2],
            lmr: lmr_table(),
            root_excluded: Vec::new(),
            lean_quiescence,
            q_used: 0,
            see_scratch: SeeScratch::default(),
            pawn_table: PawnTable::new(),
            helper: 0,
            helper_nodes: None,
            shared: 0,
            iter_best: None,
            null_ok,
            legal_lists,
        }
    }

    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    #[inline]
    fn check_limits(&mut self) {
        // Nodes that build whole legal lists are slower: look more often.
        let mask = if self.legal_lists { 63 } else { 1023 };
        if self.nodes & mask == 0 {
            if self.stop.load(AtomicOrdering::Relaxed) {
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
    fn share_nodes(&mut self) {
        if self.helper > 0
            && let Some(h) = self.helper_nodes
        {
            h.fetch_add(self.nodes - self.shared, AtomicOrdering::Relaxed);
            self.shared = self.nodes;
        }
    }

    /// Nodes searched by every thread so far: the main thread's own, plus
    /// what the helpers have shared (a little behind).
    fn total_nodes(&self) -> u64 {
        match self.helper_nodes {
            Some(h) if self.helper == 0 => self.nodes + h.load(AtomicOrdering::Relaxed),
            _ => self.nodes,
        }
    }

    /// The side to move's sole royal is attacked where the rules forbid it
    /// (the condition for check extension and for checkmate).
    #[inline]
    fn side_in_check(&self) -> bool {
        let pos = &self.pos;
        let v = pos.variant();
        if !v.rules.royal_safety {
            return false;
        }
        let s = pos.side();
        let r = pos.royals(s);
        r.len() == 1 && is_attacked(pos, r[0], s.flip())
    }

    /// Is the side to move in check, as the perpetual-check rule counts it
    /// (any royal attacked)? `single` is [`Self::side_in_check`], known.
    #[inline]
    fn check_for_repetition(&self, single: bool) -> bool {
        let v = self.pos.variant();
        single
            || (perpetual_counts(v)
                && self.pos.royals(self.pos.side()).len() > 1
                && in_check(&self.pos, self.pos.side()))
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

    fn outcome_score(&self, o: Outcome, ply: usize) -> i32 {
        outcome_score(o, self.pos.side(), ply)
    }

    /// Whether `static_eval` at `ply` is above the side to move's last
    /// static evaluation (two plies up, or four when in check there; true
    /// when neither is known).
    fn improving(&self, ply: usize, static_eval: i32) -> bool {
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
    fn reduction(&self, depth: i32, move_number: i32) -> i32 {
        let d = depth.clamp(0, 63) as usize;
        let m = move_number.clamp(0, 63) as usize;
        i32::from(self.lmr[d][m])
    }

    /// Appends the moves a node searches: pseudo-legal (tried by
    /// [`Self::make_legal`]), or legal where the variant needs whole lists.
    fn node_moves(&mut self, out: &mut Vec<Move>) {
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
    fn noisy_node_moves(&mut self, out: &mut Vec<Move>) {
        noisy_moves(&self.pos, out);
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

    /// Does `m` lose more than `margin` centipawns by static exchange?
    /// Moves that take at least their mover's worth are not asked.
    #[inline]
    fn loses_by_exchange(&mut self, m: Move, margin: i32) -> bool {
        let gain = captured_value(&self.pos, self.ev, m) + promotion_gain(&self.pos, self.ev, m);
        let mover = self.ev.value(self.pos.at(m.from).kind());
        mover > gain + margin && !see_ge(&self.pos, self.ev, m, -margin, &mut self.see_scratch)
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

    /// Game ends that do not need the move list: rule endings, repetition
    /// (with perpetual check where it loses), the move-count rule.
    fn game_end(&self, ply: usize) -> Option<i32> {
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
    fn drawn_score(&self, reason: Reason, ply: usize) -> i32 {
        if !self.pos.variant().caps.draws_score_points {
            return 0;
        }
        self.outcome_score(draw_or_points(&self.pos, reason), ply)
    }

    /// A repetition of an earlier position (same side to move) scores as
    /// the end of the game: a draw, or where perpetual check loses and the
    /// cycle lies in the search path, a loss for the side that checked on
    /// every move of it.
    fn repetition(&self, ply: usize) -> Option<i32> {
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

    fn iterate(
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
                let mut delta = 30;
                let (mut alpha, mut beta) = if depth >= 5 && line == 0 {
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
                    if delta > 1000 {
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

    /// Negamax alpha-beta at `ply` with `depth` plies left; `in_check`:
    /// the side to move's sole royal is attacked. A node with depth left
    /// and not in check opens its own quiescence budget; a node in check
    /// (an extension, not a branching) shares its parent's.
    fn negamax(
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

    /// The body of [`Self::negamax`].
    fn negamax_node(
        &mut self,
        mut depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
        allow_null: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv[ply].clear();
        // A result the side to move may claim instead of moving (Dynamic
        // Scoring's bare King): the node is worth at least that.
        let mut claim = None;
        if ply > 0 {
            if let Some(s) = self.game_end(ply) {
                return s;
            }
            if let Some(c) = claimable(&self.pos) {
                let s = self.outcome_score(c, ply);
                if s >= beta {
                    return s;
                }
                alpha = alpha.max(s);
                claim = Some(s);
            }
            // Mate-distance pruning: no line here beats a quicker mate.
            let a = alpha.max(-(MATE - ply as i32));
            let b = beta.min(MATE - ply as i32 - 1);
            if a >= b {
                return a;
            }
        }
        if ply >= MAX_PLY - 1 {
            return self.ev.evaluate_cached(&self.pos, &mut self.pawn_table);
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
        let key = self.pos.hash();
        let entry = self.tt.probe(key);
        let hash_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry
            && !pv_node
            && ply > 0
            && e.depth as i32 >= depth
        {
            let s = from_tt(i32::from(e.score), ply);
            match e.bound {
                Bound::Exact => return s,
                Bound::Lower if s >= beta => return s,
                Bound::Upper if s <= alpha => return s,
                _ => {}
            }
        }
        // Internal iterative reduction: a deep node with no hash move to
        // try first is searched a ply shallower (it fills the table for
        // the next iteration at less cost).
        if hash_move.is_none() && depth >= IIR_DEPTH && !in_check {
            depth -= 1;
        }
        let static_eval = if in_check {
            -INFINITE
        } else if let Some(e) = entry {
            i32::from(e.eval)
        } else {
            self.ev.evaluate_cached(&self.pos, &mut self.pawn_table)
        };
        // The pruning tests below weigh the table's score where its bound
        // says it is nearer the truth than the static evaluation.
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
        // Improving: the side to move stands better than at its last
        // turn (two plies up; four when it was in check then), so fewer of
        // its late moves are pruned.
        self.static_evals[ply] = static_eval;
        let improving = !in_check && self.improving(ply, static_eval);
        // Reverse futility: far above beta with little depth left.
        if !pv_node
            && !in_check
            && ply > 0
            && depth <= 4
            && beta.abs() < MATE_BOUND
            && eval - 90 * depth >= beta
        {
            return eval;
        }
        // Null move: if passing still fails high, a real move will.
        if allow_null
            && self.null_ok
            && !pv_node
            && !in_check
            && ply > 0
            && depth >= 3
            && eval >= beta
            && self.ev.has_pieces(&self.pos, self.pos.side())
        {
            let r = null_reduction(depth, eval - beta);
            let u = self.pos.make_null();
            self.keys.push(0);
            self.checks.push(false);
            let s = -self.negamax(depth - 1 - r, -beta, -beta + 1, ply + 1, false, false);
            self.keys.pop();
            self.checks.pop();
            self.pos.unmake_null(u);
            if self.stopped {
                return 0;
            }
            if s >= beta {
                return if s >= MATE_BOUND { beta } else { s };
            }
        }

        let mut frame = std::mem::take(&mut self.frames[ply]);
        frame.moves.clear();
        frame.scores.clear();
        frame.unsure.clear();
        frame.quiets.clear();
        self.node_moves(&mut frame.moves);
        // The hash move goes first; the others are scored only if it does
        // not cut off.
        let mut scored = false;
        if let Some(h) = hash_move
            && let Some(i) = frame.moves.iter().position(|&m| m == h)
        {
            frame.moves.swap(0, i);
        } else {
            self.score_moves(&mut frame, None, ply, 0);
            scored = true;
        }
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut legal = 0;
        let orig_alpha = alpha;
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
                let capture = is_capture(&self.pos, m);
                let quiet = !capture && m.promo == 0;
                if !pv_node && !in_check && quiet && legal > 0 && best > -MATE_BOUND && ply > 0 {
                    // Late-move pruning and futility at the frontier.
                    if depth <= LMP_DEPTH
                        && legal >= late_move_count(depth, improving, frame.moves.len())
                    {
                        continue;
                    }
                    let lmr_depth = depth - 1 - self.reduction(depth, legal + 1);
                    if lmr_depth < FUTILITY_DEPTH
                        && eval + futility_margin(lmr_depth.max(0)) <= alpha
                    {
                        continue;
                    }
                }
                // SEE pruning: near the horizon, a move that loses more
                // material by static exchange than the depth can make up.
                // A capture whose sort key says it does not lose (SEE 0 or
                // more) cannot lose more than the margin: no second SEE.
                if !in_check
                    && ply > 0
                    && legal > 0
                    && best > -MATE_BOUND
                    && depth <= SEE_PRUNE_DEPTH
                    && frame.scores.get(idx).copied().and_then(exchange_known) != Some(false)
                    && self.loses_by_exchange(m, see_margin(depth, quiet))
                {
                    continue;
                }
                if !self.make_tried(m, in_check) {
                    continue;
                }
                legal += 1;
                let gives_check = self.side_in_check();
                self.keys.push(self.pos.hash());
                self.checks.push(self.check_for_repetition(gives_check));
                let ext = i32::from(gives_check && ply < 2 * MAX_PLY / 3);
                let new_depth = depth - 1 + ext;
                let mut score;
                if legal == 1 {
                    score = -self.negamax(new_depth, -beta, -alpha, ply + 1, gives_check, true);
                } else {
                    let mut r = 0;
                    if depth >= 3 && quiet && !in_check && !gives_check && legal > 2 {
                        r = self.reduction(depth, legal);
                        if pv_node {
                            r -= 1;
                        }
                        r = r.clamp(0, (new_depth - 1).max(0));
                    }
                    score = -self.negamax(
                        new_depth - r,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        gives_check,
                        true,
                    );
                    if score > alpha && r > 0 {
                        score = -self.negamax(
                            new_depth,
                            -alpha - 1,
                            -alpha,
                            ply + 1,
                            gives_check,
                            true,
                        );
                    }
                    if score > alpha && score < beta {
                        score = -self.negamax(new_depth, -beta, -alpha, ply + 1, gives_check, true);
                    }
                }
                self.keys.pop();
                self.checks.pop();
                self.pos.unmake();
                if self.stopped {
                    self.frames[ply] = frame;
                    return 0;
                }
                if score > best {
                    best = score;
                    if score > alpha {
                        best_move = Some(m);
                        alpha = score;
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        let line = &mut head[ply];
                        line.clear();
                        line.push(m);
                        line.extend_from_slice(&tail[0]);
                        if ply == 0 {
                            self.iter_best = Some((score, line.clone()));
                        }
                        if alpha >= beta {
                            if quiet {
                                self.ord.cutoff(&self.pos, m, &frame.quiets, depth, ply);
                            }
                            break 'moves;
                        }
                    }
                }
                if quiet {
                    frame.quiets.push(m);
                }
            }
            // Moves that exist only when no other is legal (Tamerlane's King
            // swap when stalemated): searched like the others, after them.
            if legal > 0 || fallback_tried || !self.pos.variant().caps.has_fallback {
                break;
            }
            fallback_tried = true;
            first = frame.moves.len();
            fallback_moves(&self.pos, &mut frame.moves);
            self.score_moves(&mut frame, None, ply, first);
            scored = true;
        }
        self.frames[ply] = frame;
        if let Some(c) = claim {
            best = best.max(c);
        }
        if legal == 0 {
            if ply == 0 && !self.root_excluded.is_empty() {
                return -INFINITE;
            }
            let side = self.pos.side();
            let ended = if in_check {
                -(MATE - ply as i32)
            } else {
                self.outcome_score(stalemate(self.pos.variant(), side), ply)
            };
            return ended.max(claim.unwrap_or(-INFINITE));
        }
        if ply > 0 || self.root_excluded.is_empty() {
            let bound = if best >= beta {
                Bound::Lower
            } else if alpha > orig_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(
                key,
                best_move,
                to_tt(best, ply),
                if in_check { 0 } else { static_eval },
                depth as i16,
                bound,
            );
        }
        best
    }

    /// Quiescence: captures and promotions until the position is quiet;
    /// every move when in check.
    /// `qdepth`: plies of quiescence above this node.
    fn qsearch(
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
            return self.ev.evaluate_cached(&self.pos, &mut self.pawn_table);
        }
        if self.q_used > QUIESCENCE_BUDGET {
            return self.ev.evaluate_cached(&self.pos, &mut self.pawn_table);
        }
        // Deep in a lean quiescence a check is answered by captures only,
        // with the static evaluation as the floor: mutual checks (Cannons
        // checking through a moving King) would otherwise run to the ply
        // limit.
        let royal_attacked = in_check;
        let in_check = in_check && !(self.lean_quiescence && qdepth >= LEAN_CHECK_PLIES);
        let key = self.pos.hash();
        let entry = self.tt.probe(key);
        if let Some(e) = entry {
            let s = from_tt(i32::from(e.score), ply);
            match e.bound {
                Bound::Exact => return s,
                Bound::Lower if s >= beta => return s,
                Bound::Upper if s <= alpha => return s,
                _ => {}
            }
        }
        // Out of check, an entry of this position holds its static
        // evaluation (a node in check stores 0), as the main search reads
        // it: exact but for the move-count scaling of a transposition
        // reached with another count, which the key does not hold.
        let stand = match entry {
            _ if in_check => -INFINITE,
            Some(e) if !royal_attacked => i32::from(e.eval),
            _ => self.ev.evaluate_cached(&self.pos, &mut self.pawn_table),
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
            best_version_only(&self.pos, self.ev, &mut frame.moves);
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
                if !in_check {
                    let gain = captured_value(&self.pos, self.ev, m)
                        + promotion_gain(&self.pos, self.ev, m);
                    // Delta pruning: even this capture cannot reach alpha.
                    if stand + gain + 200 <= alpha {
                        continue;
                    }
                    // A capture by a piece worth more than it wins, on a
                    // defended square, loses material: skip it (a rough
                    // static exchange test; see `lean_quiescence`).
                    let attacker = self.ev.value(self.pos.at(m.from).kind());
                    if self.lean_quiescence
                        && attacker > gain + 50
                        && is_attacked(&self.pos, m.to, self.pos.side().flip())
                    {
                        continue;
                    }
                    // A capture or promotion that loses material by static
                    // exchange cannot raise the score. A sure key may say
                    // so already; an unsure one (unresolved) does not.
                    let known = exchange_known(frame.scores[idx]).filter(|_| !frame.unsure[idx]);
                    let loses = match known {
                        Some(l) => l,
                        None => {
                            attacker > gain
                                && !see_ge(&self.pos, self.ev, m, 0, &mut self.see_scratch)
                        }
                    };
                    if loses {
                        continue;
                    }
                }
                if !self.make_tried(m, in_check) {
                    continue;
                }
                legal += 1;
                let child_check = self.side_in_check();
                let score = -self.qsearch(-beta, -alpha, ply + 1, child_check, qdepth + 1);
                self.pos.unmake();
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
        self.frames[ply] = frame;
        if in_check && legal == 0 {
            return -(MATE - ply as i32);
        }
        // Kept unless the table holds a main-search result for the position.
        if entry.is_none_or(|e| e.depth <= 0) {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > orig_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let eval = if in_check { 0 } else { stand };
            self.tt
                .store(key, best_move, to_tt(best, ply), eval, 0, bound);
        }
        best
    }
}

/// Depth (plies) up to which quiet moves past [`late_move_count`] are
/// pruned.
const LMP_DEPTH: i32 = 8;

/// Moves searched at `depth` before the remaining quiet ones are pruned
/// (late-move pruning), in a node of `moves` moves: `(5 + depth²) / 2`,
/// twice that when the side to move is `improving` (Stockfish 11's counts,
/// for chess's few dozen moves a node), scaled up by `moves` beyond
/// [`LMP_MOVES`] (the shogi games' hundreds of moves).
fn late_move_count(depth: i32, improving: bool, moves: usize) -> i32 {
    let count = (5 + depth * depth) * (1 + i32::from(improving)) / 2;
    let moves = i32::try_from(moves).unwrap_or(i32::MAX);
    count.max(count.saturating_mul(moves) / LMP_MOVES)
}

/// Moves in a node up to which [`late_move_count`] is Stockfish's.
const LMP_MOVES: i32 = 64;

/// Reduced depth (plies, the depth a late move would get by late-move
/// reductions) below which quiet moves are pruned by [`futility_margin`].
const FUTILITY_DEPTH: i32 = 6;

/// How far (centipawns) the evaluation may stand below alpha before a
/// quiet move whose reduced depth is `lmr_depth` plies is pruned: about
/// Stockfish 11's `235 + 172 · lmr_depth` in its units, converted by its
/// end-game Pawn of 213 to centipawns.
fn futility_margin(lmr_depth: i32) -> i32 {
    110 + 80 * lmr_depth
}

/// Depth (plies) from which a node without a hash move is reduced by one.
const IIR_DEPTH: i32 = 4;

/// Plies a null move takes off the depth, besides its own: three, a
/// quarter of the `depth` left, and one per 200 centipawns the evaluation
/// stands above beta (`margin`), at most three more (a side far ahead can
/// pass with a shallower check).
fn null_reduction(depth: i32, margin: i32) -> i32 {
    3 + depth / 4 + (margin / 200).clamp(0, 3)
}

/// Depth (plies) up to which moves that lose material by static exchange
/// are pruned ([`see_margin`]).
const SEE_PRUNE_DEPTH: i32 = 6;

/// The static-exchange loss (centipawns) a move may show at `depth` plies
/// before it is pruned: a quiet move less the more plies it has to make
/// good, a capture or promotion more (it changes the material at once).
fn see_margin(depth: i32, quiet: bool) -> i32 {
    if quiet {
        30 * depth * depth
    } else {
        120 * depth
    }
}

/// Quiescence plies in which a lean quiescence answers a check with every
/// move (see `Searcher::lean_quiescence`).
const LEAN_CHECK_PLIES: u32 = 4;

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

impl Searcher<'_> {
    /// Fills `frame.scores` for the moves from `from` on (entries before it
    /// are left as they are).
    #[inline]
    fn score_moves(&mut self, frame: &mut Frame, hash: Option<Move>, ply: usize, from: usize) {
        frame.scores.resize(from, i32::MAX);
        frame.unsure.resize(from, false);
        for &m in &frame.moves[from..] {
            let (s, unsure) = match self.ord.key(&self.pos, self.ev, m, hash, ply) {
                Key::Sure(k) => (k, false),
                Key::Unsure(k) => (k, true),
            };
            frame.scores.push(s);
            frame.unsure.push(unsure);
        }
    }

    /// Selection sort step: brings the best-keyed remaining move to `idx`,
    /// resolving unsure keys (by static exchange) only of moves that would
    /// come next. That picks the same move as sorting by resolved keys: an
    /// unsure key is never below its true key.
    #[inline]
    fn pick(&mut self, frame: &mut Frame, idx: usize) {
        loop {
            let best = first_highest(&frame.scores, idx);
            if frame.unsure[best] {
                frame.unsure[best] = false;
                let k = frame.scores[best];
                let true_key = resolve(
                    &self.pos,
                    self.ev,
                    frame.moves[best],
                    k,
                    &mut self.see_scratch,
                );
                frame.scores[best] = true_key;
                if true_key != k {
                    continue;
                }
            }
            frame.moves.swap(idx, best);
            frame.scores.swap(idx, best);
            frame.unsure.swap(idx, best);
            return;
        }
    }
}

/// The index of the first of the highest keys in `scores` from `idx` on
/// (`idx` itself when there are none), by a scan that keeps the best key
/// in hand (no bounds checks in the loop).
#[inline]
fn first_highest(scores: &[i32], idx: usize) -> usize {
    let mut best = idx;
    if let Some((&first, tail)) = scores.get(idx..).and_then(<[i32]>::split_first) {
        let mut top = first;
        for (j, &k) in tail.iter().enumerate() {
            if k > top {
                top = k;
                best = idx + 1 + j;
            }
        }
    }
    best
}

/// Selection sort step without static exchanges: brings the move with the
/// highest key, sure or not, to `idx` (the first of equals, as
/// [`Searcher::pick`]). For a search that skips every capture found to
/// lose, this tries the moves it keeps in the order of their keys, as
/// `pick` would (`pick` only moves such captures later), though moves of
/// equal keys may come in another order.
#[inline]
fn pick_unresolved(frame: &mut Frame, idx: usize) {
    let best = first_highest(&frame.scores, idx);
    frame.moves.swap(idx, best);
    frame.scores.swap(idx, best);
    frame.unsure.swap(idx, best);
}

/// Where the variant's captures come in versions that differ only in the
/// piece they upgrade ([`kamil_rules::variant::Capabilities::upgrade_choices`]),
/// quiescence looks at one: the one that gains most (the first of equals);
/// upgrading never loses material.
fn best_version_only(pos: &Position, ev: &Evaluator, moves: &mut Vec<Move>) {
    let n = moves.len();
    if n > 512 || !moves.iter().any(|m| m.aux.is_some()) {
        return;
    }
    let same = |a: &Move, b: &Move| {
        a.from == b.from && a.to == b.to && a.promo == b.promo && a.kind == b.kind
    };
    // Dropped moves, one bit each (no allocation in the search).
    let mut drop = [0u64; 8];
    for i in 0..n {
        let m = moves[i];
        if !m.aux.is_some() {
            continue;
        }
        let gain = promotion_gain(pos, ev, m);
        for (j, o) in moves.iter().enumerate() {
            if j == i || !same(&m, o) {
                continue;
            }
            if !o.aux.is_some() {
                drop[j / 64] |= 1 << (j % 64);
            } else {
                let g = promotion_gain(pos, ev, *o);
                if g > gain || (g == gain && j < i) {
                    drop[i / 64] |= 1 << (i % 64);
                }
            }
        }
    }
    let mut k = 0;
    for i in 0..n {
        if drop[i / 64] & (1 << (i % 64)) == 0 {
            moves[k] = moves[i];
            k += 1;
        }
    }
    moves.truncate(k);
}

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
    fn an_unresolved_pick_takes_the_first_highest_key_and_moves_its_flag_along() {
        use kamil_rules::Square;
        let m = |i: u16| Move::new(Square(i), Square(i + 1));
        let mut frame = Frame {
            moves: (0..5).map(m).collect(),
            scores: vec![3, 9, 1, 9, 4],
            unsure: vec![false, true, false, false, false],
            quiets: Vec::new(),
        };
        pick_unresolved(&mut frame, 0);
        assert_eq!(
            (frame.moves[0], frame.scores[0], frame.unsure[0]),
            (m(1), 9, true)
        );
        assert_eq!(
            (frame.moves[1], frame.scores[1], frame.unsure[1]),
            (m(0), 3, false)
        );
        pick_unresolved(&mut frame, 1);
        assert_eq!(
            (frame.moves[1], frame.scores[1], frame.unsure[1]),
            (m(3), 9, false)
        );
        pick_unresolved(&mut frame, 2);
        assert_eq!(frame.scores[2..], [4, 3, 1]);
        assert_eq!(frame.unsure, [true, false, false, false, false]);
    }

    #[test]
    fn the_futility_margin_grows_with_the_reduced_depth() {
        assert_eq!(futility_margin(0), 110);
        assert_eq!(futility_margin(FUTILITY_DEPTH - 1), 510);
    }
}
