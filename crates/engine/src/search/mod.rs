//! Iterative-deepening principal variation search with a transposition
//! table, quiescence search, null-move pruning, late-move reductions and
//! check extension, scoring game ends by each variant's rules. The engine
//! and its reports are here; the search itself is in rooms:
//! - `searcher`: one thread's search state, and the one place where the
//!   search makes and takes back moves (`searcher::Searcher::play`);
//! - `iterate`: iterative deepening, aspiration windows, Lazy SMP's
//!   helper depths;
//! - `negamax`: a node of the main search as labelled steps (game end,
//!   table probe, static evaluation, reverse futility, null move, the
//!   move loop with its pruning and reductions);
//! - `quiescence`: captures and promotions to a quiet position;
//! - `picker`: move ordering's picks (staged by sort keys);
//! - `endings`: game ends, repetition and perpetual check as scores;
//! - `margins`: every pruning and reduction margin, a named function.
//!
//! The search reaches the static evaluation only through
//! [`crate::evaluation::StaticEval`], and weighs material by its
//! [`crate::values::PieceValues`].

mod endings;
mod iterate;
mod margins;
mod negamax;
mod picker;
mod quiescence;
mod searcher;

pub use endings::{CP_PER_POINT, outcome_score};
pub use quiescence::QUIESCENCE_BUDGET;

use crate::clock::Instant;
use crate::eval::{EvalMode, Evaluator};
use crate::eval_choice::EvalChoice;
use crate::evaluation::StaticEval;
use crate::limits::Limits;
use crate::nnue::Nnue;
use crate::nnue::hybrid::Hybrid;
use crate::ordering::Ordering;
use crate::score::Score;
use crate::skill::{self, Line, Skill};
use crate::time::Budget;
use crate::tt::{AllocError, Table};
use kamil_rules::{Move, Position, Variant};
use searcher::Searcher;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering as AtomicOrdering};

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
    /// For a mate score, the plies to the end of the game (negative: the
    /// side to move loses), exact where [`Score::Mate`] counts moves.
    pub mate_plies: Option<i32>,
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
    /// The evaluation built for the last variant searched.
    evaluator: Option<Built>,
    /// The evaluation chosen by the front end.
    choice: EvalChoice,
    stop: Arc<AtomicBool>,
    /// Move-ordering tables of the helper threads, kept between searches
    /// like the main thread's.
    helper_orderings: Vec<Ordering>,
    /// The strength level ([`Skill`]); full strength by default.
    skill: Skill,
    /// The seed of the level's chance draws.
    skill_seed: u64,
    /// Asked by the search, as it reads the stop flag, whether to stop
    /// ([`Engine::set_poll`]).
    poll: Option<fn() -> bool>,
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
            choice: EvalChoice::Builtin,
            stop: Arc::new(AtomicBool::new(false)),
            helper_orderings: Vec::new(),
            skill: Skill::default(),
            skill_seed: 0,
            poll: None,
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
        if self.config.eval != mode {
            self.evaluator = None;
        }
        self.config.eval = mode;
    }

    /// Chooses the static evaluation ([`EvalChoice`]); the next search
    /// builds it for its variant. The same default choice again keeps the
    /// evaluation built (a front end sets its choice before each search).
    pub fn set_evaluation(&mut self, choice: EvalChoice) {
        let same = matches!(
            (&self.choice, &choice),
            (EvalChoice::Builtin, EvalChoice::Builtin) | (EvalChoice::Hand, EvalChoice::Hand)
        );
        if !same {
            self.evaluator = None;
        }
        self.choice = choice;
    }

    /// The static evaluation chosen ([`Engine::set_evaluation`]).
    pub fn evaluation(&self) -> &EvalChoice {
        &self.choice
    }

    /// Sets the strength level ([`Skill`]) of the searches to come, with
    /// the seed of its chance draws (the same seed, position and level
    /// give the same move).
    pub fn set_skill(&mut self, skill: Skill, seed: u64) {
        self.set_level(skill);
        self.skill_seed = seed;
    }

    /// Sets the strength level of the searches to come, keeping the seed
    /// of its chance draws (what every front end's option does).
    pub fn set_level(&mut self, skill: Skill) {
        // A weakened level searches with the hand-written evaluation
        // (see [`EvalChoice::Builtin`]): crossing full strength rebuilds it.
        if skill.weakens() != self.skill.weakens() {
            self.evaluator = None;
        }
        self.skill = skill;
    }

    /// The strength level in force.
    pub fn skill(&self) -> Skill {
        self.skill
    }

    /// The seed of the level's chance draws (each [`Engine::new_game`]
    /// moves it on, so a level's games differ).
    pub fn skill_seed(&self) -> u64 {
        self.skill_seed
    }

    /// Forgets everything learnt (a new game).
    pub fn new_game(&mut self) {
        self.skill_seed = self.skill_seed.wrapping_add(1);
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

    /// Sets a function that the search calls every 1,024 nodes, on the
    /// thread that searches; an answer of true stops the search as the
    /// flag does. For a host where nothing can set the flag while the
    /// search runs: a Web Worker's WebAssembly has one thread, so only the
    /// search itself can look at a stop request (kamil-wasm's reads a
    /// shared buffer). `None` (the default) calls nothing. It is not
    /// called while a `go infinite` search waits for `stop`.
    pub fn set_poll(&mut self, poll: Option<fn() -> bool>) {
        self.poll = poll;
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
        if self.skill.weakens() {
            return self.search_at_level(pos, limits, on_info);
        }
        self.search_fully(pos, limits, on_info)
    }

    /// [`Engine::search`] at a level below full strength: the level's
    /// depth, at least [`Skill::LINES`] lines, and the move of the line
    /// [`Skill::pick`] chooses among the last completed iteration's.
    fn search_at_level(
        &mut self,
        pos: &Position,
        limits: &Limits,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let limits = self.skill.limit(limits);
        let multipv = self.config.multipv;
        self.config.multipv = multipv.max(Skill::LINES);
        let mut lines: Vec<Info> = Vec::new();
        let mut result = self.search_fully(pos, &limits, &mut |info| {
            // A new iteration's first line starts the list again.
            if info.multipv == 1 {
                lines.clear();
            }
            lines.push(info.clone());
            if info.multipv <= multipv {
                on_info(info);
            }
        });
        self.config.multipv = multipv;
        // Only the lines of the deepest iteration, and only whole ones.
        let depth = lines.first().map_or(0, |l| l.depth);
        let choices: Vec<Line> = lines
            .iter()
            .filter(|l| l.depth == depth && !l.pv.is_empty())
            .map(|l| Line {
                pv: l.pv.clone(),
                score: l.score,
            })
            .collect();
        let mut rng = skill::rng(self.skill_seed, pos.hash());
        if let Some(line) = choices.get(self.skill.pick(&choices, &mut rng))
            && result.best.is_some()
        {
            result.best = line.pv.first().copied();
            result.ponder = line.pv.get(1).copied();
            result.score = line.score;
            result.pv = line.pv.clone();
        }
        result
    }

    /// [`Engine::search`] at full strength.
    fn search_fully(
        &mut self,
        pos: &Position,
        limits: &Limits,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let start = Instant::now();
        self.prepare_evaluation(pos.variant());
        let Some(built) = self.evaluator.take() else {
            // Unreachable: prepared above.
            return SearchResult::none();
        };
        let result = match &built {
            Built::Hand(ev) => self.run(&**ev, pos, limits, on_info, start),
            Built::Hybrid(ev) => self.run(&**ev, pos, limits, on_info, start),
        };
        self.evaluator = Some(built);
        result
    }

    /// Builds the chosen evaluation for `v` unless the one built fits it
    /// (a new one clears the move-ordering tables, whose scale it sets).
    fn prepare_evaluation(&mut self, v: &Arc<Variant>) {
        let mode = self.config.eval;
        if self.evaluator.as_ref().is_some_and(|b| b.fits(v, mode)) {
            return;
        }
        let net = match &self.choice {
            _ if mode != EvalMode::Full => None,
            EvalChoice::Net(n) if n.fits(v) => Some((**n).clone()),
            // A built-in network that does not fit `v` (an option that
            // changes the pieces) leaves the hand-written evaluation.
            EvalChoice::Builtin if !self.skill.weakens() => Nnue::builtin(v).and_then(Result::ok),
            _ => None,
        };
        let built = match (net, &self.choice) {
            (Some(net), _) => {
                let (below, residual) = (net.network().hand_below(), net.network().residual());
                // Always beside the hand-written evaluation: it scores the
                // endings of a bare royal (see `Hybrid`).
                Built::Hybrid(Box::new(Hybrid {
                    net,
                    hand: Evaluator::new(v.clone(), mode),
                    below: usize::from(below),
                    residual,
                }))
            }
            (None, EvalChoice::HandWeights(w)) => Built::Hand(Box::new(
                Evaluator::with_weights(v.clone(), mode, w)
                    .unwrap_or_else(|_| Evaluator::new(v.clone(), mode)),
            )),
            _ => Built::Hand(Box::new(Evaluator::new(v.clone(), mode))),
        };
        self.evaluator = Some(built);
        self.ordering = None;
        self.helper_orderings.clear();
    }

    /// [`Engine::search`] with the evaluation `ev`: on this thread alone,
    /// or with helper threads (Lazy SMP).
    fn run<E: StaticEval>(
        &mut self,
        ev: &E,
        pos: &Position,
        limits: &Limits,
        on_info: &mut dyn FnMut(&Info),
        start: Instant,
    ) -> SearchResult {
        let v = pos.variant();
        let squares = v.geometry.compact_len();
        let codes = 2 + 2 * v.pieces.len();
        let mut ordering = self
            .ordering
            .take()
            .unwrap_or_else(|| Ordering::new(squares, codes));
        ordering.age();
        self.tt.new_search();
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
            s.poll = self.poll;
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
        let poll = self.poll;
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
            s.poll = poll;
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

/// An evaluation built for one variant.
enum Built {
    Hand(Box<Evaluator>),
    Hybrid(Box<Hybrid>),
}

impl Built {
    /// Was it built for `v` (same file and options) in `mode`?
    fn fits(&self, v: &Arc<Variant>, mode: EvalMode) -> bool {
        match self {
            Built::Hand(e) => {
                e.mode() == mode
                    && (Arc::ptr_eq(e.variant(), v)
                        || (e.variant().name == v.name && e.variant().chosen == v.chosen))
            }
            Built::Hybrid(h) => mode == EvalMode::Full && h.net.fits(v),
        }
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
