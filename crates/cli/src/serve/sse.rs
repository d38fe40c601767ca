//! `GET /api/games/{id}/events`: a game's events as server-sent events.
//! `state` (the game changed: `{generation, plies}`), `info` (a search
//! iteration: depth, score, nodes, PV), `bestmove` (a search ended) and
//! `review` (a review evaluated one more position: see `review.rs`).

use super::error::ApiError;
use super::extract::Path;
use super::games::lock;
use super::state::AppState;
use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use std::convert::Infallible;
use std::sync::Arc;
use tokio_stream::wrappers::BroadcastStream;
use tokio_stream::{Stream, StreamExt};

/// The event stream of a game; it ends when the game is removed. A watcher
/// too slow to keep up misses events rather than holding the game back.
///
/// Errors: 404 for an unknown game.
pub async fn events(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let game = app.games.get(&id)?;
    let (rx, hello) = {
        let g = lock(&game);
        let hello = format!(
            "{{\"generation\":{},\"plies\":{}}}",
            g.generation,
            g.pos.depth()
        );
        (g.events.subscribe(), hello)
    };
    let first = tokio_stream::once(Ok(Event::default().event("state").data(hello)));
    let rest = BroadcastStream::new(rx).filter_map(|r| {
        r.ok()
            .map(|(name, data)| Ok(Event::default().event(name).data(data)))
    });
    Ok(Sse::new(first.chain(rest)).keep_alive(KeepAlive::default()))
}
