//! `POST /api/games/{id}/review`: the engine evaluates every position of
//! the game ([`crate::review`]: one engine, a bounded time per position),
//! each as a `review` server-sent event on the game's events as it is
//! done, then judges every move. The review holds the game's one search
//! slot: while it runs, a second review or a search of the same game gets
//! 409, and `POST /api/games/{id}/stop` ends it (the answer then holds
//! what was evaluated, `complete: false`).

use super::api::{SlotGuard, lend_engine};
use super::error::ApiError;
use super::extract::{Body, Path};
use super::game::SearchSlot;
use super::games::lock;
use super::state::AppState;
use crate::review::{self, PlyEval};
use axum::Json;
use axum::extract::State;
use kamil_page::review_json::{ReviewRequest, eval_json, review_answer, review_ms, shared_ms};
use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

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
    let per_ply = review_ms(&req, app.max_movetime_ms)?;
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
    let per_ply = shared_ms(per_ply, positions);
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
    let plies_now = g.pos.depth();
    Ok(Json(review_answer(
        &v,
        &r,
        plies,
        per_ply,
        g.view(plies_now),
    )))
}
