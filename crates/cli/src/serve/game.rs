//! One game of the server: where it began, the moves played since, its
//! running search and its watchers.

use kamil_rules::{Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::sync::broadcast;

/// Events a game sends to its watchers, as (SSE event name, JSON data).
pub type Event = (&'static str, String);

/// A search in progress on a game.
pub struct SearchSlot {
    /// Set by `stop` before the engine is found; checked when it is.
    pub cancel: Arc<AtomicBool>,
    /// The engine's own stop flag, once the search runs.
    pub engine_stop: Option<Arc<AtomicBool>>,
}

impl SearchSlot {
    /// Asks the search to stop (now, or as soon as it starts).
    pub fn stop(&self) {
        self.cancel.store(true, Ordering::SeqCst);
        if let Some(s) = &self.engine_stop {
            s.store(true, Ordering::SeqCst);
        }
    }
}

/// One game: where it began and the moves played since.
pub struct Game {
    /// The game's id in URLs.
    pub id: String,
    /// The position the game began from (from the start or a FEN).
    pub start: Position,
    /// The position after every move played: `start` plus the game's moves.
    pub pos: Position,
    /// Bumped at every change, so a search result can tell it is stale.
    pub generation: u64,
    /// The running search, if any.
    pub search: Option<SearchSlot>,
    /// Last request that touched the game (for eviction).
    pub last_used: Instant,
    /// Watchers of this game (analysis, changes).
    pub events: broadcast::Sender<Event>,
}

impl Game {
    /// A new game from `start` (which may carry moves: they become the
    /// game's moves, played from the position before them).
    pub fn new(id: String, pos: Position) -> Game {
        let mut start = pos.clone();
        while start.depth() > 0 {
            start.unmake();
        }
        let (events, _) = broadcast::channel(64);
        Game {
            id,
            start,
            pos,
            generation: 0,
            search: None,
            last_used: Instant::now(),
            events,
        }
    }

    /// The moves played from `start`, in order.
    pub fn moves(&self) -> Vec<Move> {
        self.pos.moves_played().collect()
    }

    /// The position after the first `ply` moves (`ply` at most the number
    /// of moves played, which callers check).
    pub fn position_at(&self, ply: usize) -> Position {
        let mut p = self.start.clone();
        for m in self.pos.moves_played().take(ply) {
            p.make(m);
        }
        p
    }

    /// Records a change: stops any search (its result no longer applies)
    /// and tells the watchers.
    pub fn changed(&mut self) {
        self.generation += 1;
        if let Some(s) = &self.search {
            s.stop();
        }
        let data = format!(
            "{{\"generation\":{},\"plies\":{}}}",
            self.generation,
            self.pos.depth()
        );
        // No watcher is not an error.
        let _ = self.events.send(("state", data));
    }
}

/// A game shared between request handlers.
pub type SharedGame = Arc<Mutex<Game>>;
