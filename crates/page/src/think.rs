//! An engine request: its limits and level from the request, the progress
//! (`info`) and result (`bestmove`) as JSON, and playing its move in the
//! game. [`Job`] carries a search to where it runs (the server's blocking
//! threads, or a Web Worker) and [`run`] runs it.

use crate::error::PageError;
use crate::game::Game;
use crate::json::game_view;
use crate::new_game::{NewGame, new_position};
use crate::variants::Variants;
use kamil_engine::{Engine, Info, Limits, Score, SearchResult, Skill};
use kamil_protocol::session::Core;
use kamil_rules::move_reader::{Accept, Notation, read_move};
use kamil_rules::notation::move_text;
use kamil_rules::{Move, Position, Variant};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::Arc;

/// `POST /api/games/{id}/engine` body: what bounds the search (the
/// back end's own bound on time always applies) and whether to play its
/// move.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Think {
    /// Time for the move, ms.
    #[serde(default)]
    pub movetime_ms: Option<u64>,
    /// Deepest iteration, plies.
    #[serde(default)]
    pub depth: Option<u32>,
    /// Node budget.
    #[serde(default)]
    pub nodes: Option<u64>,
    /// Play the move found (default true); false only analyses.
    #[serde(default)]
    pub play: Option<bool>,
    /// Strength level, 0 to 20 (default 20, full strength).
    #[serde(default)]
    pub skill: Option<u8>,
}

/// Engine time per move when the request sets no bound, ms.
pub const DEFAULT_MOVETIME_MS: u64 = 2000;

/// What a [`Think`] asks for, checked.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The search's limits (always a time, at most the back end's bound).
    pub limits: Limits,
    /// Strength level, 0 to 20.
    pub level: u8,
    /// Whether to play the move found.
    pub play: bool,
}

/// Reads a [`Think`] with the longest search allowed, `max_movetime_ms`.
///
/// Errors: 400 for a zero bound or a level above 20.
pub fn plan(req: &Think, max_movetime_ms: u64) -> Result<Plan, PageError> {
    if req.depth == Some(0) || req.nodes == Some(0) || req.movetime_ms == Some(0) {
        return Err(PageError::bad(
            "depth, nodes and movetime_ms must be positive".into(),
        ));
    }
    let level = match req.skill {
        None => Skill::FULL,
        Some(n) if n <= Skill::FULL => n,
        Some(n) => {
            return Err(PageError::bad(format!(
                "skill {n}: must be 0 to {}",
                Skill::FULL
            )));
        }
    };
    let max = max_movetime_ms;
    let limits = Limits {
        depth: req.depth.map(|d| d.min(64)),
        nodes: req.nodes,
        movetime: Some(match (req.movetime_ms, req.depth, req.nodes) {
            (Some(ms), _, _) => ms.min(max),
            (None, None, None) => DEFAULT_MOVETIME_MS.min(max),
            _ => max,
        }),
        ..Limits::default()
    };
    Ok(Plan {
        limits,
        level,
        play: req.play.unwrap_or(true),
    })
}

/// Errors: 409 when the game is over at `pos`, so nothing is searched.
pub fn check_not_over(pos: &Position) -> Result<(), PageError> {
    let mut pos = pos.clone();
    match pos.outcome() {
        Some(o) => Err(PageError::conflict(format!("the game is over ({o})"))),
        None => Ok(()),
    }
}

/// What a search of a game of `variant` at strength `level` (0 to 20)
/// sets in an engine ([`Core`]: the game's default evaluation, the level).
pub fn engine_core(variant: &Arc<Variant>, level: u8) -> Core {
    let mut core = Core::builtin(variant.clone());
    core.set_level(level);
    core
}

/// A score as JSON: `{"cp": n}` or `{"mate": n}`, for the side to move.
pub fn score_json(s: Score) -> Value {
    match s {
        Score::Cp(c) => json!({ "cp": c }),
        Score::Mate(m) => json!({ "mate": m }),
    }
}

fn pv_texts(v: &Variant, pv: &[Move]) -> Vec<String> {
    pv.iter().map(|&m| move_text(v, m)).collect()
}

/// An `info` event's data: one iteration of a search of a position where
/// `side` (0 or 1) moves.
pub fn info_json(v: &Variant, side: usize, info: &Info) -> Value {
    json!({
        "depth": info.depth,
        "seldepth": info.seldepth,
        "score": score_json(info.score),
        "side": side,
        "nodes": info.nodes,
        "nps": info.nps,
        "time_ms": info.time_ms,
        "pv": pv_texts(v, &info.pv),
    })
}

/// A `bestmove` event's data, and the start of the engine request's
/// answer: `{best, score, side, depth, nodes, time_ms, pv}`.
pub fn result_json(v: &Variant, side: usize, r: &SearchResult) -> Value {
    json!({
        "best": r.best.map(|m| move_text(v, m)),
        "score": score_json(r.score),
        "side": side,
        "depth": r.depth,
        "nodes": r.nodes,
        "time_ms": r.time_ms,
        "pv": pv_texts(v, &r.pv),
    })
}

/// Ends an engine request on `game` searched at `generation`: plays
/// `best` if `play` (and the game has not changed), and returns the
/// answer, `result` ([`result_json`]) with `played` and the game (no
/// search running); the flag says whether the game changed (its
/// generation bumped).
///
/// Errors: 409 when the game changed during the search; 500 when the
/// engine's move is not legal.
pub fn finish(
    game: &mut Game,
    generation: u64,
    best: Option<Move>,
    play: bool,
    result: Value,
) -> Result<(Value, bool), PageError> {
    if game.generation != generation {
        return Err(PageError::conflict(
            "the game changed while the engine was thinking".into(),
        ));
    }
    let mut changed = false;
    if play && let Some(m) = best {
        // The game takes only what the rules allow, whoever proposes it.
        if !game.pos.is_legal(m) {
            let v = game.pos.variant().clone();
            return Err(PageError::internal(format!(
                "the engine's move {} is not legal here",
                move_text(&v, m)
            )));
        }
        game.pos.make(m);
        game.generation += 1;
        changed = true;
    }
    let plies = game.pos.depth();
    let mut out = result;
    out["played"] = json!(play && best.is_some());
    out["game"] = game_view(game, plies, false);
    Ok((out, changed))
}

/// A search or review to run elsewhere (a Web Worker): the game as it
/// can be set up again, and what to do.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Job {
    /// The game's variant.
    pub variant: String,
    /// Its options in force.
    pub options: BTreeMap<String, Value>,
    /// The game's start, as FEN.
    pub start_fen: String,
    /// The moves played since, in kamil's text.
    pub moves: Vec<String>,
    /// The game's generation when the job began.
    pub generation: u64,
    /// Deepest iteration, plies (a search).
    #[serde(default)]
    pub depth: Option<u32>,
    /// Node budget (a search).
    #[serde(default)]
    pub nodes: Option<u64>,
    /// Time for the move (a search) or for each position (a review), ms.
    pub movetime_ms: u64,
    /// Strength level, 0 to 20 (a search).
    #[serde(default)]
    pub level: u8,
    /// Whether to play the move found (a search).
    #[serde(default)]
    pub play: bool,
}

impl Job {
    /// The job of `game` with the moves and settings as given.
    pub fn of(game: &Game, movetime_ms: u64) -> Job {
        let v = game.pos.variant();
        let mut walk = game.start.clone();
        let mut moves = Vec::new();
        for m in game.moves() {
            moves.push(move_text(v, m));
            walk.make(m);
        }
        Job {
            variant: v.name.clone(),
            options: v
                .chosen
                .iter()
                .map(|(k, x)| (k.clone(), Value::String(x.clone())))
                .collect(),
            start_fen: game.start.fen(),
            moves,
            generation: game.generation,
            depth: None,
            nodes: None,
            movetime_ms,
            level: Skill::FULL,
            play: true,
        }
    }

    /// The game's start and its moves, set up again.
    ///
    /// Errors: 400 when they do not read (not from [`Job::of`]).
    pub fn game(&self, variants: &Variants) -> Result<Game, PageError> {
        let pos = new_position(
            variants,
            NewGame {
                variant: Some(self.variant.clone()),
                options: self.options.clone(),
                fen: Some(self.start_fen.clone()),
                moves: self.moves.clone(),
                pgn: None,
            },
        )?;
        Ok(Game::new(String::new(), pos))
    }
}

/// Runs a search [`Job`] with `engine` (its table kept), calling `on_info`
/// with each iteration's `info` data; returns the `bestmove` data
/// ([`result_json`]).
///
/// Errors: 400 when the job's game does not set up, 409 when it is over.
pub fn run(
    engine: &mut Engine,
    variants: &Variants,
    job: &Job,
    on_info: &mut dyn FnMut(Value),
) -> Result<Value, PageError> {
    let game = job.game(variants)?;
    check_not_over(&game.pos)?;
    let v = game.pos.variant().clone();
    engine_core(&v, job.level).apply(engine);
    let limits = Limits {
        depth: job.depth.map(|d| d.min(64)),
        nodes: job.nodes,
        movetime: Some(job.movetime_ms.max(1)),
        ..Limits::default()
    };
    let side = game.pos.side().index();
    let r = engine.search(&game.pos, &limits, &mut |info: &Info| {
        on_info(info_json(&v, side, info))
    });
    Ok(result_json(&v, side, &r))
}

/// The move `text` (kamil's) in `game`'s latest position.
///
/// Errors: 500 when it is not legal there.
pub fn read_best(game: &Game, text: &str) -> Result<Move, PageError> {
    let mut pos = game.pos.clone();
    read_move(&mut pos, text, Accept::First(Notation::Kamil))
        .map(|(m, _)| m)
        .map_err(|e| PageError::internal(format!("the engine's move {text}: {e}")))
}
