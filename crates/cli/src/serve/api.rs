//! The JSON API's handlers. Every failure is an [`ApiError`]: a 4xx (or
//! 503) status with `{"error": "..."}` naming what was wrong; nothing a
//! client sends panics the server or touches another game.

use super::error::ApiError;
use super::extract::{Body, Path, Query};
use super::game::{SearchSlot, SharedGame};
use super::games::{Lent, lock};
use super::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use kamil_engine::Info;
use kamil_page::json::legal_views;
use kamil_page::new_game::{NewGame, new_position};
use kamil_page::play::{PlayMove, Undo, check_ply};
use kamil_page::think::{self, Think};
use kamil_protocol::session::Core;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

pub use kamil_page::think::engine_core;

type Reply = Result<Json<Value>, ApiError>;
type AppS = State<Arc<AppState>>;

/// `GET /api/variants`: the built-in games, their titles and options.
pub async fn list_variants(State(app): AppS) -> Reply {
    Ok(Json(app.variants.list()?))
}

/// `GET /api/variants/{name}`: one game with its default options, drawn.
pub async fn get_variant(State(app): AppS, Path(name): Path<String>) -> Reply {
    Ok(Json(app.variants.drawn(&name)?))
}

/// `POST /api/games`: a new game; returns it and its variant.
pub async fn create_game(
    State(app): AppS,
    Body(req): Body<NewGame>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let pos = new_position(&app.variants, req)?;
    let variant = app.variants.view(pos.variant());
    let game = app.games.insert(pos)?;
    let g = lock(&game);
    let mut view = g.view(g.pos.depth());
    view["variant_info"] = variant;
    Ok((StatusCode::CREATED, Json(view)))
}

/// `?ply=N` of a game view.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlyQuery {
    #[serde(default)]
    ply: Option<usize>,
}

/// `GET /api/games/{id}[?ply=N]`: the game, at ply N (default: the latest).
pub async fn get_game(
    State(app): AppS,
    Path(id): Path<String>,
    Query(q): Query<PlyQuery>,
) -> Reply {
    let game = app.games.get(&id)?;
    let mut g = lock(&game);
    g.last_used = Instant::now();
    let ply = check_ply(&g, q.ply)?;
    Ok(Json(g.view(ply)))
}

/// `DELETE /api/games/{id}`.
pub async fn delete_game(State(app): AppS, Path(id): Path<String>) -> Result<StatusCode, ApiError> {
    app.games.remove(&id)?;
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /api/games/{id}/variant`: the game's variant, drawn.
pub async fn game_variant(State(app): AppS, Path(id): Path<String>) -> Reply {
    let game = app.games.get(&id)?;
    let v = lock(&game).pos.variant().clone();
    Ok(Json(app.variants.view(&v)))
}

/// `GET /api/games/{id}/moves`: the legal moves now.
pub async fn legal(State(app): AppS, Path(id): Path<String>) -> Reply {
    let game = app.games.get(&id)?;
    let mut g = lock(&game);
    g.last_used = Instant::now();
    let moves = legal_views(&mut g.pos);
    Ok(Json(serde_json::to_value(moves).unwrap_or_default()))
}

/// `POST /api/games/{id}/moves`: plays a move; returns the game.
pub async fn play(State(app): AppS, Path(id): Path<String>, Body(req): Body<PlayMove>) -> Reply {
    let game = app.games.get(&id)?;
    let mut g = lock(&game);
    g.last_used = Instant::now();
    check_ply(&g, req.ply)?;
    if g.search.is_some() {
        return Err(ApiError::conflict(
            "the engine is thinking; stop it first".into(),
        ));
    }
    kamil_page::play::play(&mut g, &req)?;
    g.changed();
    let n = g.pos.depth();
    Ok(Json(g.view(n)))
}

/// `POST /api/games/{id}/undo`: takes moves back; returns the game.
pub async fn undo(State(app): AppS, Path(id): Path<String>, Body(req): Body<Undo>) -> Reply {
    let game = app.games.get(&id)?;
    let mut g = lock(&game);
    g.last_used = Instant::now();
    kamil_page::play::undo(&mut g, &req)?;
    g.changed();
    let plies = g.pos.depth();
    Ok(Json(g.view(plies)))
}

/// Ends a game's search when the request ends, however it ends (a client
/// that goes away mid-search stops it): stops the engine and frees the
/// game's search slot if it is still this search's.
pub(super) struct SlotGuard {
    /// The game searched.
    pub(super) game: SharedGame,
    /// The search's own cancel flag (which tells it from a later search).
    pub(super) cancel: Arc<AtomicBool>,
}

impl Drop for SlotGuard {
    fn drop(&mut self) {
        let mut g = lock(&self.game);
        if g.search
            .as_ref()
            .is_some_and(|s| Arc::ptr_eq(&s.cancel, &self.cancel))
        {
            if let Some(s) = &g.search {
                s.stop();
            }
            g.search = None;
        }
    }
}

/// Lends a free engine to the work that holds `game`'s search slot (its
/// cancel flag `cancel`, taken at the game's `generation`), and gives the
/// slot the engine's stop flag, so that `stop` reaches it. `what` names the
/// work in the error.
///
/// Errors: 503 when no engine is free; 409 when the work was stopped or
/// the game changed before the engine came (the engine goes back).
pub(super) async fn lend_engine(
    app: &AppState,
    id: &str,
    game: &SharedGame,
    cancel: &Arc<AtomicBool>,
    generation: u64,
    what: &str,
) -> Result<Lent, ApiError> {
    let mut lent = app.engines.take(id).await?;
    let stop = lent.engine.stop_handle();
    stop.store(false, Ordering::SeqCst);
    let mut g = lock(game);
    // Engines are shared between games and works: the game's settings at
    // full strength unless the work sets a level itself.
    Core::builtin(g.pos.variant().clone()).apply(&mut lent.engine);
    if cancel.load(Ordering::SeqCst) || g.generation != generation {
        drop(g);
        app.engines.put(lent, id);
        return Err(ApiError::conflict(format!(
            "the {what} was stopped before it began"
        )));
    }
    if let Some(slot) = g.search.as_mut() {
        slot.engine_stop = Some(stop);
    }
    Ok(lent)
}

/// `POST /api/games/{id}/engine`: the engine searches the latest position
/// (analysis streams to the game's events) and, unless `play` is false,
/// plays its move. Returns the move, score, depth, PV and the game.
pub async fn think(State(app): AppS, Path(id): Path<String>, Body(req): Body<Think>) -> Reply {
    let plan = think::plan(&req, app.max_movetime_ms)?;
    let limits = plan.limits.clone();
    let game = app.games.get(&id)?;
    let cancel = Arc::new(AtomicBool::new(false));
    let (pos, generation) = {
        let mut g = lock(&game);
        g.last_used = Instant::now();
        if g.search.is_some() {
            return Err(ApiError::conflict(
                "the engine is already thinking on this game".into(),
            ));
        }
        let pos = g.pos.clone();
        think::check_not_over(&pos)?;
        g.search = Some(SearchSlot {
            cancel: cancel.clone(),
            engine_stop: None,
        });
        (pos, g.generation)
    };
    let _slot = SlotGuard {
        game: game.clone(),
        cancel: cancel.clone(),
    };
    let mut lent = lend_engine(&app, &id, &game, &cancel, generation, "search").await?;
    engine_core(pos.variant(), plan.level).apply(&mut lent.engine);
    let events = lock(&game).events.clone();
    let v = pos.variant().clone();
    let side = pos.side().index();
    let task = tokio::task::spawn_blocking(move || {
        let mut on_info = |info: &Info| {
            let data = think::info_json(&v, side, info);
            let _ = events.send(("info", data.to_string()));
        };
        let r = lent.engine.search(&pos, &limits, &mut on_info);
        (lent, r)
    });
    let (lent, r) = task
        .await
        .map_err(|_| ApiError::unavailable("the search failed".into()))?;
    app.engines.put(lent, &id);
    let mut g = lock(&game);
    g.search = None;
    let v = g.pos.variant().clone();
    let result = think::result_json(&v, side, &r);
    let _ = g.events.send(("bestmove", result.to_string()));
    let (out, changed) = think::finish(&mut g, generation, r.best, plan.play, result)?;
    if changed {
        g.notify();
    }
    Ok(Json(out))
}

/// `POST /api/games/{id}/stop`: stops the game's search; the engine plays
/// (or reports) the best move found so far.
pub async fn stop(State(app): AppS, Path(id): Path<String>) -> Reply {
    let game = app.games.get(&id)?;
    let g = lock(&game);
    let running = g.search.is_some();
    if let Some(s) = &g.search {
        s.stop();
    }
    Ok(Json(json!({ "stopped": running })))
}

/// `GET /api/games/{id}/pgn`: the game as PGN.
pub async fn export_pgn(State(app): AppS, Path(id): Path<String>) -> Reply {
    let game = app.games.get(&id)?;
    let g = lock(&game);
    Ok(Json(kamil_page::play::pgn_json(&g, "kamil serve")))
}

/// `GET /api/status`: games held, searches running, the server's bounds.
pub async fn status(State(app): AppS) -> Reply {
    Ok(Json(json!({
        "games": app.games.len(),
        "max_games": app.games.max(),
        "searches": app.engines.busy(app.engine_count),
        "engines": app.engine_count,
        "max_movetime_ms": app.max_movetime_ms,
    })))
}

/// Any other `/api/...` path.
pub async fn no_such_api() -> ApiError {
    ApiError::not_found("no such API path; see /api/variants and /api/games".into())
}
