//! `kamil.Engine`: kamil's search from Python. A search runs without the
//! GIL, so searches of several engines run in parallel threads; a callback
//! gets each completed iteration.

use crate::position::PyPosition;
use kamil_engine::eval_choice::EvalChoice;
use kamil_engine::nnue::Nnue;
use kamil_engine::search::MAX_THREADS;
use kamil_engine::skill::elo;
use kamil_engine::{Engine, EngineConfig, Info, Limits, Score, Skill, Strength};
use kamil_rules::Variant;
use kamil_rules::notation::move_text;
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::ThreadId;

/// Largest transposition table, MB.
pub const MAX_HASH_MB: usize = 65_536;

/// `(cp, mate)` of a score: one of them is None.
fn score_parts(s: Score) -> (Option<i32>, Option<i32>) {
    match s {
        Score::Cp(cp) => (Some(cp), None),
        Score::Mate(n) => (None, Some(n)),
    }
}

fn texts(v: &Variant, moves: &[kamil_rules::Move]) -> Vec<String> {
    moves.iter().map(|&m| move_text(v, m)).collect()
}

/// What a search found (`Engine.search`).
#[pyclass(module = "kamil", name = "SearchResult", frozen)]
#[derive(Clone, Debug)]
pub struct PySearchResult {
    /// The move to play (kamil's notation), always legal; None only when
    /// the game is over.
    #[pyo3(get)]
    pub best: Option<String>,
    /// The expected reply, if the principal variation has one.
    #[pyo3(get)]
    pub ponder: Option<String>,
    /// Score for the side to move in centipawns, or None for a mate score.
    #[pyo3(get)]
    pub score_cp: Option<i32>,
    /// Mate in this many of the side to move's moves (negative: mated),
    /// or None for a centipawn score.
    #[pyo3(get)]
    pub mate: Option<i32>,
    /// Principal variation, first move first.
    #[pyo3(get)]
    pub pv: Vec<String>,
    /// Depth of the last completed iteration, plies.
    #[pyo3(get)]
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    #[pyo3(get)]
    pub seldepth: u32,
    /// Nodes searched.
    #[pyo3(get)]
    pub nodes: u64,
    /// Time used, milliseconds.
    #[pyo3(get)]
    pub time_ms: u64,
}

#[pymethods]
impl PySearchResult {
    fn __repr__(&self) -> String {
        let score = match (self.score_cp, self.mate) {
            (_, Some(m)) => format!("mate {m}"),
            (Some(cp), None) => format!("cp {cp}"),
            (None, None) => "none".to_string(),
        };
        format!(
            "<kamil.SearchResult best={} {score} depth={} nodes={} time_ms={} pv=[{}]>",
            self.best.as_deref().unwrap_or("None"),
            self.depth,
            self.nodes,
            self.time_ms,
            self.pv.join(", ")
        )
    }
}

/// One completed iteration of a search, given to `Engine.search`'s
/// callback.
#[pyclass(module = "kamil", name = "SearchInfo", frozen)]
#[derive(Clone, Debug)]
pub struct PySearchInfo {
    /// Iteration depth, plies.
    #[pyo3(get)]
    pub depth: u32,
    /// Deepest ply reached.
    #[pyo3(get)]
    pub seldepth: u32,
    /// Which line (1 = the best).
    #[pyo3(get)]
    pub multipv: u32,
    /// Score in centipawns for the side to move, or None for a mate score.
    #[pyo3(get)]
    pub score_cp: Option<i32>,
    /// Mate in this many moves (negative: mated), or None.
    #[pyo3(get)]
    pub mate: Option<i32>,
    /// Nodes searched so far.
    #[pyo3(get)]
    pub nodes: u64,
    /// Milliseconds since the search started.
    #[pyo3(get)]
    pub time_ms: u64,
    /// Nodes per second.
    #[pyo3(get)]
    pub nps: u64,
    /// The line, first move first.
    #[pyo3(get)]
    pub pv: Vec<String>,
}

#[pymethods]
impl PySearchInfo {
    fn __repr__(&self) -> String {
        let score = match (self.score_cp, self.mate) {
            (_, Some(m)) => format!("mate {m}"),
            (Some(cp), None) => format!("cp {cp}"),
            (None, None) => "none".to_string(),
        };
        format!(
            "<kamil.SearchInfo depth={} {score} nodes={} pv=[{}]>",
            self.depth,
            self.nodes,
            self.pv.join(", ")
        )
    }
}

/// kamil's engine: `Engine(hash_mb=16, threads=1, eval_file=None,
/// skill=20, elo=None, use_nnue=True)`.
/// `hash_mb` is the transposition table's size in megabytes (1 to 65536),
/// `threads` the search threads (1 to 64; more than one: Lazy SMP),
/// `eval_file` a network file (`kamil train-net`'s `.nnue`, at most 64 MB,
/// a regular file) of a built-in game, which then evaluates that game's
/// positions (the other games play the hand-written evaluation, not their
/// built-in networks), `use_nnue=False` the hand-written
/// evaluation in every game (UCI's `Use NNUE`), `skill` the strength level, 0 (weakest) to
/// 20 (full strength; below it the engine searches shallow and plays one
/// of several good lines by a seeded draw), `elo` a strength on the Elo
/// scale of the levels (`UCI_Elo`: 1000 is level 0 in every game; each
/// search plays the level nearest it on the ladder measured for the
/// position's game, in place of `skill`). What the engine learnt (table, move
/// ordering) is kept between searches until `new_game()`.
///
/// Errors: `ValueError` for a size, thread count, level or Elo out of
/// range, `skill` and `elo` both given, `eval_file` with
/// `use_nnue=False`, or a
/// network file that cannot be used (unreadable, damaged, not a network,
/// of a game that is not built in: the message names the file and what
/// is wrong); `MemoryError` when the table cannot be allocated.
#[pyclass(module = "kamil", name = "Engine", frozen)]
pub struct PyEngine {
    engine: Mutex<Engine>,
    stop: Arc<AtomicBool>,
    /// The thread whose search holds `engine`: a call from that search's
    /// own callback would wait for itself for ever, so it is refused.
    owner: Mutex<Option<ThreadId>>,
    /// The settings, kept apart so that reading them never waits for a
    /// running search.
    hash_mb: usize,
    threads: usize,
    /// The network file searched with, as given.
    eval_file: Option<String>,
    /// The strength level, 0 to 20.
    skill: u8,
    /// The Elo asked for, which replaces `skill` in each search.
    elo: Option<i32>,
    /// Whether networks evaluate (`eval_file`'s, else the built-in ones).
    use_nnue: bool,
}

#[pymethods]
impl PyEngine {
    #[new]
    #[pyo3(signature = (hash_mb=16, threads=1, eval_file=None, skill=20, elo=None, use_nnue=true))]
    fn new(
        hash_mb: usize,
        threads: usize,
        eval_file: Option<String>,
        skill: i64,
        elo: Option<i64>,
        use_nnue: bool,
    ) -> PyResult<PyEngine> {
        if eval_file.is_some() && !use_nnue {
            return Err(PyValueError::new_err(
                "give eval_file or use_nnue=False, not both: use_nnue=False sets networks aside",
            ));
        }
        // Taken as any integer so that -1 or 300 is a ValueError too.
        let skill = u8::try_from(skill)
            .ok()
            .filter(|&n| n <= Skill::FULL)
            .ok_or_else(|| {
                PyValueError::new_err(format!("skill {skill}: must be 0 to {}", Skill::FULL))
            })?;
        let elo = elo.map(checked_elo).transpose()?;
        if elo.is_some() && skill != Skill::FULL {
            return Err(PyValueError::new_err(
                "give skill or elo, not both: elo chooses the level",
            ));
        }
        if !(1..=MAX_HASH_MB).contains(&hash_mb) {
            return Err(PyValueError::new_err(format!(
                "hash_mb {hash_mb}: the table's size must be 1 to {MAX_HASH_MB} MB"
            )));
        }
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(PyValueError::new_err(format!(
                "threads {threads}: must be 1 to {MAX_THREADS}"
            )));
        }
        let config = EngineConfig {
            hash_mb,
            threads,
            ..EngineConfig::default()
        };
        let net = match &eval_file {
            Some(path) => Some(Nnue::load_builtin(std::path::Path::new(path)).map_err(|e| {
                PyValueError::new_err(format!("eval_file: {}", kamil_rules::error_chain(&e)))
            })?),
            None => None,
        };
        let mut engine =
            Engine::try_new(config).map_err(|e| PyMemoryError::new_err(e.to_string()))?;
        if let Some(n) = net {
            engine.set_evaluation(EvalChoice::Net(Box::new(n)));
        } else if !use_nnue {
            engine.set_evaluation(EvalChoice::Hand);
        }
        engine.set_skill(Skill::new(skill), 0);
        let stop = engine.stop_handle();
        let (hash_mb, threads) = (engine.config().hash_mb, engine.config().threads);
        Ok(PyEngine {
            engine: Mutex::new(engine),
            stop,
            owner: Mutex::new(None),
            hash_mb,
            threads,
            eval_file,
            skill,
            elo,
            use_nnue,
        })
    }

    /// The Elo asked for (`Engine(elo=...)`), or None.
    #[getter]
    fn elo(&self) -> Option<i32> {
        self.elo
    }

    /// The strength level, 0 to 20 (20: full strength).
    #[getter]
    fn skill(&self) -> u8 {
        self.skill
    }

    /// The network file searched with, as given, or None.
    #[getter]
    fn eval_file(&self) -> Option<String> {
        self.eval_file.clone()
    }

    /// Whether networks evaluate (`False`: the hand-written evaluation in
    /// every game).
    #[getter]
    fn use_nnue(&self) -> bool {
        self.use_nnue
    }

    /// The transposition table's size, MB.
    #[getter]
    fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// The search threads.
    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }

    /// Searches `position` (a `kamil.Position`, copied: it may change
    /// during the search) within the limits given, and returns a
    /// `SearchResult`. `depth`: plies; `nodes`: a node budget; `movetime`:
    /// milliseconds; the search stops at the first limit reached, or when
    /// `stop()` is called from another thread. At least one limit is
    /// required. `callback`, if given, is called with a `SearchInfo` after
    /// every completed iteration; if it raises, the search stops and the
    /// exception propagates. The search runs without the GIL (the callback
    /// takes it); one engine runs one search at a time (a second call from
    /// another thread waits).
    ///
    /// Errors: `ValueError` when no limit is given or one is 0;
    /// `RuntimeError` when called from the callback of a search on the same
    /// engine (it would wait for itself).
    #[pyo3(signature = (position, depth=None, nodes=None, movetime=None, callback=None))]
    fn search(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyPosition>,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<u64>,
        callback: Option<Py<PyAny>>,
    ) -> PyResult<PySearchResult> {
        if depth.is_none() && nodes.is_none() && movetime.is_none() {
            return Err(PyValueError::new_err(
                "give a limit: depth (plies), nodes or movetime (ms)",
            ));
        }
        if depth == Some(0) || nodes == Some(0) || movetime == Some(0) {
            return Err(PyValueError::new_err(
                "depth, nodes and movetime must be at least 1",
            ));
        }
        self.refuse_reentry("search")?;
        let limits = Limits {
            depth,
            nodes,
            movetime,
            ..Limits::default()
        };
        let pos = position.borrow().pos.clone();
        let v = pos.variant().clone();
        if let Some(elo) = self.elo {
            warn_outside_ladder(py, elo, &v)?;
        }
        let stop = self.stop.clone();
        let mut failure: Option<PyErr> = None;
        let result = py.detach(|| {
            let mut engine = self.lock();
            let _owner = Owner::claim(&self.owner);
            stop.store(false, Ordering::Relaxed);
            if let Some(elo) = self.elo {
                let strength = Strength {
                    level: Skill::FULL,
                    limit: true,
                    elo,
                };
                engine.set_level(strength.skill(&v));
            }
            let mut on_info = |info: &Info| {
                let Some(cb) = &callback else { return };
                if failure.is_some() {
                    return;
                }
                let (score_cp, mate) = score_parts(info.score);
                let report = PySearchInfo {
                    depth: info.depth,
                    seldepth: info.seldepth,
                    multipv: info.multipv,
                    score_cp,
                    mate,
                    nodes: info.nodes,
                    time_ms: info.time_ms,
                    nps: info.nps,
                    pv: texts(&v, &info.pv),
                };
                Python::attach(|py| {
                    if let Err(e) = cb.call1(py, (report,)) {
                        failure = Some(e);
                        stop.store(true, Ordering::Relaxed);
                    }
                });
            };
            engine.search(&pos, &limits, &mut on_info)
        });
        if let Some(e) = failure {
            return Err(e);
        }
        let (score_cp, mate) = score_parts(result.score);
        Ok(PySearchResult {
            best: result.best.map(|m| move_text(&v, m)),
            ponder: result.ponder.map(|m| move_text(&v, m)),
            score_cp,
            mate,
            pv: texts(&v, &result.pv),
            depth: result.depth,
            seldepth: result.seldepth,
            nodes: result.nodes,
            time_ms: result.time_ms,
        })
    }

    /// Stops the running search (from another thread); it returns the best
    /// move found so far. Does nothing when no search runs.
    fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Forgets what was learnt (a new game): clears the table and the move
    /// ordering.
    ///
    /// Errors: `RuntimeError` when called from a search's callback on the
    /// same engine.
    fn new_game(&self, py: Python<'_>) -> PyResult<()> {
        self.refuse_reentry("new_game")?;
        py.detach(|| self.lock().new_game());
        Ok(())
    }

    fn __repr__(&self) -> String {
        let net = match &self.eval_file {
            Some(f) => format!(" eval_file={f:?}"),
            None if !self.use_nnue => " use_nnue=False".to_string(),
            None => String::new(),
        };
        let skill = match self.elo {
            Some(elo) => format!(" elo={elo}"),
            None if self.skill < Skill::FULL => format!(" skill={}", self.skill),
            None => String::new(),
        };
        format!(
            "<kamil.Engine hash_mb={} threads={}{net}{skill}>",
            self.hash_mb, self.threads
        )
    }
}

/// An Elo outside the game's own ladder plays that ladder's nearest end,
/// as `UCI_Elo` is clamped in UCI, USI and XBoard; Python says so with a
/// `UserWarning` naming the game and its range.
///
/// Errors: the warning turned into an exception (`-W error`).
fn warn_outside_ladder(py: Python<'_>, elo: i32, v: &Variant) -> PyResult<()> {
    let (lo, hi) = elo::ladder(v).range();
    if (lo..=hi).contains(&elo) {
        return Ok(());
    }
    let message = std::ffi::CString::new(format!(
        "elo {elo} is outside {}'s range, {lo} to {hi}: playing at {}",
        v.name,
        elo.clamp(lo, hi)
    ))
    .unwrap_or_default();
    PyErr::warn(py, &py.get_type::<PyUserWarning>(), &message, 1)
}

/// `elo` if it lies in `UCI_Elo`'s range, else a `ValueError` naming it.
fn checked_elo(elo: i64) -> PyResult<i32> {
    let (lo, hi) = elo::elo_range();
    i32::try_from(elo)
        .ok()
        .filter(|e| (lo..=hi).contains(e))
        .ok_or_else(|| PyValueError::new_err(format!("elo {elo}: must be {lo} to {hi}")))
}

impl PyEngine {
    fn lock(&self) -> std::sync::MutexGuard<'_, Engine> {
        self.engine.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `RuntimeError` when this thread's own search holds the engine (the
    /// call comes from its callback).
    fn refuse_reentry(&self, what: &str) -> PyResult<()> {
        let owner = *self.owner.lock().unwrap_or_else(|e| e.into_inner());
        if owner == Some(std::thread::current().id()) {
            return Err(PyRuntimeError::new_err(format!(
                "Engine.{what}: the engine is busy with the search whose callback this is; \
                 use another Engine, or call it after that search returns"
            )));
        }
        Ok(())
    }
}

/// Marks the current thread as the one searching until dropped.
struct Owner<'a>(&'a Mutex<Option<ThreadId>>);

impl<'a> Owner<'a> {
    fn claim(owner: &'a Mutex<Option<ThreadId>>) -> Owner<'a> {
        *owner.lock().unwrap_or_else(|e| e.into_inner()) = Some(std::thread::current().id());
        Owner(owner)
    }
}

impl Drop for Owner<'_> {
    fn drop(&mut self) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}
