//! One game of the server: the game itself ([`kamil_page::Game`]: where it
//! began, the moves played since), its running search and its watchers.

use serde_json::Value;
use std::ops::{Deref, DerefMut};
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

/// One game of the server: the game, its search, its watchers.
pub struct Game {
    /// The game: start, moves, generation.
    pub core: kamil_page::Game,
    /// The running search, if any.
    pub search: Option<SearchSlot>,
    /// Last request that touched the game (for eviction).
    pub last_used: Instant,
    /// Watchers of this game (analysis, changes).
    pub events: broadcast::Sender<Event>,
}

impl Deref for Game {
    type Target = kamil_page::Game;

    fn deref(&self) -> &kamil_page::Game {
        &self.core
    }
}

impl DerefMut for Game {
    fn deref_mut(&mut self) -> &mut kamil_page::Game {
        &mut self.core
    }
}

impl Game {
    /// A new game at `pos` (see [`kamil_page::Game::new`]).
    pub fn new(id: String, pos: kamil_rules::Position) -> Game {
        let (events, _) = broadcast::channel(64);
        Game {
            core: kamil_page::Game::new(id, pos),
            search: None,
            last_used: Instant::now(),
            events,
        }
    }

    /// The game as the page draws it at ply `ply`
    /// ([`kamil_page::json::game_view`]).
    pub fn view(&self, ply: usize) -> Value {
        kamil_page::json::game_view(&self.core, ply, self.search.is_some())
    }

    /// Records a change: stops any search (its result no longer applies)
    /// and tells the watchers.
    pub fn changed(&mut self) {
        self.core.generation += 1;
        if let Some(s) = &self.search {
            s.stop();
        }
        self.notify();
    }

    /// Tells the watchers the game's generation and plies (a `state` event).
    pub fn notify(&self) {
        // No watcher is not an error.
        let _ = self.events.send(("state", self.core.state_data()));
    }
}

/// A game shared between request handlers.
pub type SharedGame = Arc<Mutex<Game>>;
