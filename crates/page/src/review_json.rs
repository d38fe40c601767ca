//! The review of a game as JSON (`POST /api/games/{id}/review`): the time
//! a position gets, each position's evaluation (a `review` event), the
//! answer; and a review [`Job`] run elsewhere, its evaluations read back.

use crate::error::PageError;
use crate::review::{self, BLUNDER_CP, CAP_CP, INACCURACY_CP, MISTAKE_CP, PlyEval, Review};
use crate::think::{Job, score_json};
use crate::variants::Variants;
use kamil_engine::{Engine, Score};
use kamil_rules::move_reader::{Accept, Notation, read_move};
use kamil_rules::notation::move_text;
use kamil_rules::{Move, Position, Side, Variant};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::atomic::AtomicBool;

/// Engine time per position when the request sets none, ms.
pub const DEFAULT_REVIEW_MS: u64 = 200;
/// Most engine time per position a review may ask for, ms (the back
/// end's longest search bounds it too).
pub const MAX_REVIEW_MS: u64 = 2000;
/// Most engine time a whole review may take, ms: a long game gets less
/// time a position (but at least [`MIN_REVIEW_MS`]).
pub const MAX_REVIEW_TOTAL_MS: u64 = 10 * 60 * 1000;
/// Least engine time a position gets when [`MAX_REVIEW_TOTAL_MS`] shares
/// out, ms.
pub const MIN_REVIEW_MS: u64 = 10;

/// `POST /api/games/{id}/review` body.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ReviewRequest {
    /// Engine time per position, ms (default [`DEFAULT_REVIEW_MS`], at
    /// most [`MAX_REVIEW_MS`], the back end's bound and a share of
    /// [`MAX_REVIEW_TOTAL_MS`]).
    #[serde(default)]
    pub movetime_ms: Option<u64>,
}

/// The time a position of a review asks for, ms, with the longest
/// search allowed `max_movetime_ms` (before [`shared_ms`]).
///
/// Errors: 400 for a zero time.
pub fn review_ms(req: &ReviewRequest, max_movetime_ms: u64) -> Result<u64, PageError> {
    if req.movetime_ms == Some(0) {
        return Err(PageError::bad("movetime_ms must be positive".into()));
    }
    Ok(req
        .movetime_ms
        .unwrap_or(DEFAULT_REVIEW_MS)
        .min(MAX_REVIEW_MS)
        .min(max_movetime_ms))
}

/// The time each of a review's `positions` gets, ms, when each asks for
/// `per_ply` ([`review_ms`]): at most a share of [`MAX_REVIEW_TOTAL_MS`].
pub fn shared_ms(per_ply: u64, positions: u64) -> u64 {
    per_ply.min((MAX_REVIEW_TOTAL_MS / positions.max(1)).max(MIN_REVIEW_MS))
}

/// One position's evaluation as JSON: `{ply, plies, side, score, eval_cp,
/// best, depth, ended}` (`eval_cp` for the first player, capped).
pub fn eval_json(v: &Variant, e: &PlyEval, plies: usize) -> Value {
    json!({
        "ply": e.ply,
        "plies": plies,
        "side": e.side.index(),
        "score": score_json(e.score),
        "eval_cp": e.eval_cp,
        "best": e.best.map(|m| move_text(v, m)),
        "depth": e.depth,
        "ended": e.ended,
    })
}

/// The review's answer: `{complete, movetime_ms, thresholds, evals,
/// moves, game}`; each of `moves` is `{ply, move, side, loss_cp,
/// judgement, symbol, nag, better}`. `game`: the game's view.
pub fn review_answer(v: &Variant, r: &Review, plies: usize, per_ply: u64, game: Value) -> Value {
    let judged: Vec<Value> = r
        .moves
        .iter()
        .map(|m| {
            json!({
                "ply": m.ply,
                "move": move_text(v, m.played),
                "side": m.side.index(),
                "loss_cp": m.loss_cp,
                "judgement": m.judgement.map(|j| j.name()),
                "symbol": m.judgement.map(|j| j.symbol()),
                "nag": m.judgement.map(|j| j.nag()),
                "better": m.better.map(|b| move_text(v, b)),
            })
        })
        .collect();
    let evals: Vec<Value> = r.evals.iter().map(|e| eval_json(v, e, plies)).collect();
    json!({
        "complete": r.complete,
        "movetime_ms": per_ply,
        "thresholds": {
            "inaccuracy": INACCURACY_CP,
            "mistake": MISTAKE_CP,
            "blunder": BLUNDER_CP,
            "cap": CAP_CP,
        },
        "evals": evals,
        "moves": judged,
        "game": game,
    })
}

/// Runs a review [`Job`] (`movetime_ms` a position) with `engine`,
/// calling `on_ply` with each position's `review` data ([`eval_json`]);
/// returns them all, as a JSON array.
///
/// Errors: 400 when the job's game does not set up.
pub fn run(
    engine: &mut Engine,
    variants: &Variants,
    job: &Job,
    on_ply: &mut dyn FnMut(Value),
) -> Result<Value, PageError> {
    let game = job.game(variants)?;
    let moves = game.moves();
    let v = game.pos.variant().clone();
    kamil_protocol::session::Core::builtin(v.clone()).apply(engine);
    let plies = moves.len();
    let r = review::review(
        engine,
        &game.start,
        &moves,
        job.movetime_ms.max(1),
        &AtomicBool::new(false),
        &mut |e| on_ply(eval_json(&v, e, plies)),
    );
    Ok(Value::Array(
        r.evals.iter().map(|e| eval_json(&v, e, plies)).collect(),
    ))
}

/// Reads back the evaluations that [`run`] (or its `review` events) gave
/// for the game from `start` with `moves`: those of the first positions,
/// in order, up to the first that does not read; then judges the moves.
/// `complete` when every position has one.
pub fn read_back(start: &Position, moves: &[Move], evals: &[Value]) -> Review {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for (ply, e) in evals.iter().enumerate().take(moves.len() + 1) {
        let Some(pe) = read_eval(&mut pos, ply, e) else {
            break;
        };
        out.push(pe);
        if let Some(&m) = moves.get(ply) {
            pos.make(m);
        }
    }
    let complete = out.len() == moves.len() + 1;
    Review {
        moves: review::judge(moves, &out),
        evals: out,
        complete,
    }
}

/// One evaluation of [`eval_json`] at `pos` (ply `ply`), read back.
fn read_eval(pos: &mut Position, ply: usize, e: &Value) -> Option<PlyEval> {
    if e["ply"].as_u64()? != ply as u64 {
        return None;
    }
    let score = match (&e["score"]["cp"], &e["score"]["mate"]) {
        (Value::Number(c), _) => Score::Cp(i32::try_from(c.as_i64()?).ok()?),
        (_, Value::Number(m)) => Score::Mate(i32::try_from(m.as_i64()?).ok()?),
        _ => return None,
    };
    let best = match &e["best"] {
        Value::String(t) => Some(read_move(pos, t, Accept::First(Notation::Kamil)).ok()?.0),
        _ => None,
    };
    Some(PlyEval {
        ply,
        side: if e["side"].as_u64()? == 0 {
            Side::First
        } else {
            Side::Second
        },
        score,
        eval_cp: i32::try_from(e["eval_cp"].as_i64()?).ok()?,
        best,
        depth: u32::try_from(e["depth"].as_u64()?).ok()?,
        ended: e["ended"].as_bool()?,
    })
}
