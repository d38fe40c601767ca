//! `POST /api/games/{id}/review`: the engine evaluates every position of
//! the game ([`crate::review`]: one engine, a bounded time per position),
//! each as a `review` server-sent event on the game's events as it is
//! done, then judges every move. The review holds the game's one search
//! slot: while it runs, a second review or a search of the same game gets
//! 409, and `POST /api/games/{id}/stop` ends it (the answer then holds
//! what was evaluated, `complete: false`).

use super::api::{SlotGuard, lend_engine, score_json};
use super::error::ApiError;
use super::extract::{Body, Path};
use super::game::SearchSlot;
use super::games::lock;
use super::json::game_view;
use super::state::AppState;
use crate::review::{self, BLUNDER_CP, CAP_CP, INACCURACY_CP, MISTAKE_CP, PlyEval};
use axum::Json;
use axum::extract::State;
use kamil_rules::Variant;
use kamil_rules::notation::move_text;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Engine time per position when the request sets none, ms.
pub const DEFAULT_REVIEW_MS: u64 = 200;
/// Most engine time per position a review may ask for, ms (the server's
/// `--max-movetime` bounds it too).
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
    /// most [`MAX_REVIEW_MS`], the server's bound and a share of
    /// [`MAX_REVIEW_TOTAL_MS`]).
    #[serde(default)]
    movetime_ms: Option<u64>,
}

/// One position's evaluation as JSON: `{ply, plies, side, score, eval_cp,
/// best, depth, ended}` (`eval_cp` for the first player, capped).
fn eval_json(v: &Variant, e: &PlyEval, plies: usize) -> Value {
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

/// `POST /api/games/{id}/review`: reviews the whole game (see the module's
/// text). Returns `{complete, movetime_ms, thresholds, evals, moves,
/// game}`; each of `moves` is `{ply, move, side, loss_cp, judgement,
/// symbol, nag, better}` (`judgement`: `inaccuracy`, `mistake`, `blunder`
/// or null).
///
/// Errors: 400 for a zero time; 422 for an unknown field or a body that
/// is not an object; 404 for an unknown
/// game; 409 when a search or review already runs on it, or the game
/// changed meanwhile; 503 when no engine is free.
pub async fn review_game(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    Body(req): Body<ReviewRequest>,
) -> Result<Json<Value>, ApiError> {
    if req.movetime_ms == Some(0) {
        return Err(ApiError::bad("movetime_ms must be positive".into()));
    }
    let per_ply = req
        .movetime_ms
        .unwrap_or(DEFAULT_REVIEW_MS)
        .min(MAX_REVIEW_MS)
        .min(app.max_movetime_ms);
    let game = app.games.get(&id)?;
    let cancel = Arc::new(AtomicBool::new(false));
    let (start, moves, generation) = {
        let mut g = lock(&game);
        g.last_used = Instant::now();
        if g.search.is_some() {
            return Err(ApiError::conflict(
                "the engine is already busy with this game (a search or a review); stop it first"
                    .into(),
            ));
        }
        g.search = Some(SearchSlot {
            cancel: cancel.clone(),
            engine_stop: None,
        });
        (g.start.clone(), g.moves(), g.generation)
    };
    let positions = moves.len() as u64 + 1;
    let per_ply = per_ply.min((MAX_REVIEW_TOTAL_MS / positions).max(MIN_REVIEW_MS));
    let _slot = SlotGuard {
        game: game.clone(),
        cancel: cancel.clone(),
    };
    let mut lent = lend_engine(&app, &id, &game, &cancel, generation, "review").await?;
    let events = lock(&game).events.clone();
    let v = start.variant().clone();
    let plies = moves.len();
    let task = tokio::task::spawn_blocking(move || {
        let mut on_ply = |e: &PlyEval| {
            let _ = events.send(("review", eval_json(&v, e, plies).to_string()));
        };
        let r = review::review(
            &mut lent.engine,
            &start,
            &moves,
            per_ply,
            &cancel,
            &mut on_ply,
        );
        (lent, r, v)
    });
    let (lent, r, v) = task
        .await
        .map_err(|_| ApiError::unavailable("the review failed".into()))?;
    app.engines.put(lent, &id);
    let mut g = lock(&game);
    g.search = None;
    if g.generation != generation {
        return Err(ApiError::conflict(
            "the game changed during the review".into(),
        ));
    }
    let judged: Vec<Value> = r
        .moves
        .iter()
        .map(|m| {
            json!({
                "ply": m.ply,
                "move": move_text(&v, m.played),
                "side": m.side.index(),
                "loss_cp": m.loss_cp,
                "judgement": m.judgement.map(|j| j.name()),
                "symbol": m.judgement.map(|j| j.symbol()),
                "nag": m.judgement.map(|j| j.nag()),
                "better": m.better.map(|b| move_text(&v, b)),
            })
        })
        .collect();
    let evals: Vec<Value> = r.evals.iter().map(|e| eval_json(&v, e, plies)).collect();
    let plies_now = g.pos.depth();
    Ok(Json(json!({
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
        "game": game_view(&g, plies_now),
    })))
}
