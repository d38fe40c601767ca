//! The server's stores: the games in play, each behind its own lock, with a
//! bound on their number; the pool of engines that searches borrow; and the
//! compiled variants, shared between games ([`kamil_page::Variants`]).

use super::error::ApiError;
use super::game::{Game, SharedGame};
use kamil_engine::{Engine, EngineConfig};
use kamil_rules::Position;
use kamil_rules::excerpt;
use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

pub use kamil_page::Variants;

/// Locks a mutex; a panic elsewhere while it was held (which the release
/// build turns into an abort anyway) does not make it unusable.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The games in play, at most `max` of them.
pub struct Store {
    games: Mutex<HashMap<String, SharedGame>>,
    max: usize,
    counter: AtomicU64,
    salt: RandomState,
}

impl Store {
    /// An empty store that holds at most `max` games (at least 1).
    pub fn new(max: usize) -> Store {
        Store {
            games: Mutex::new(HashMap::new()),
            max: max.max(1),
            counter: AtomicU64::new(1),
            salt: RandomState::new(),
        }
    }

    /// Number of games held.
    pub fn len(&self) -> usize {
        lock(&self.games).len()
    }

    /// The most games held at once.
    pub fn max(&self) -> usize {
        self.max
    }

    /// Adds a game at `pos` and returns it. When the store is full, the
    /// game used least recently that is not searching makes room.
    ///
    /// Errors: 503 when every game held is searching.
    pub fn insert(&self, pos: Position) -> Result<SharedGame, ApiError> {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        // Hard to guess, so one client does not stumble on another's game.
        let id = format!("{n:x}{:012x}", self.salt.hash_one(n) & 0xffff_ffff_ffff);
        let game = Arc::new(Mutex::new(Game::new(id.clone(), pos)));
        let mut games = lock(&self.games);
        if games.len() >= self.max {
            let oldest = games
                .iter()
                .filter_map(|(k, g)| {
                    // A game locked right now is in use: not a candidate.
                    let g = g.try_lock().ok()?;
                    g.search.is_none().then(|| (g.last_used, k.clone()))
                })
                .min();
            match oldest {
                Some((_, k)) => {
                    games.remove(&k);
                }
                None => {
                    return Err(ApiError::unavailable(format!(
                        "the server holds {} games, all busy; try again later",
                        self.max
                    )));
                }
            }
        }
        games.insert(id, game.clone());
        Ok(game)
    }

    /// The game with this id.
    ///
    /// Errors: 404 for an unknown id.
    pub fn get(&self, id: &str) -> Result<SharedGame, ApiError> {
        lock(&self.games).get(id).cloned().ok_or_else(|| {
            ApiError::not_found(format!(
                "no game `{}` (it may have ended or been evicted)",
                excerpt(id)
            ))
        })
    }

    /// Removes a game, stopping its search.
    ///
    /// Errors: 404 for an unknown id.
    pub fn remove(&self, id: &str) -> Result<(), ApiError> {
        let g = lock(&self.games)
            .remove(id)
            .ok_or_else(|| ApiError::not_found(format!("no game `{}`", excerpt(id))))?;
        if let Some(s) = &lock(&g).search {
            s.stop();
        }
        Ok(())
    }
}

/// Engines lent to searches: at most `count` search at once; each engine
/// keeps its hash table between searches of the same game.
pub struct Engines {
    permits: Arc<Semaphore>,
    idle: Mutex<Vec<(Engine, String)>>,
    hash_mb: usize,
    wait: Duration,
}

/// An engine lent to one search; goes back to the pool with [`Engines::put`].
pub struct Lent {
    /// The engine.
    pub engine: Engine,
    _permit: OwnedSemaphorePermit,
}

impl Engines {
    /// A pool of `count` engines (at least 1) of `hash_mb` MB each; a
    /// search waits at most `wait` for one.
    pub fn new(count: usize, hash_mb: usize, wait: Duration) -> Engines {
        Engines {
            permits: Arc::new(Semaphore::new(count.max(1))),
            idle: Mutex::new(Vec::new()),
            hash_mb: hash_mb.max(1),
            wait,
        }
    }

    /// Searches running now.
    pub fn busy(&self, count: usize) -> usize {
        count.max(1) - self.permits.available_permits()
    }

    /// Borrows an engine for game `game_id`, waiting for one to be free.
    ///
    /// Errors: 503 when none is free within the wait, or when a new
    /// engine's hash table cannot be allocated (never an abort).
    pub async fn take(&self, game_id: &str) -> Result<Lent, ApiError> {
        let permit = tokio::time::timeout(self.wait, self.permits.clone().acquire_owned())
            .await
            .ok()
            .and_then(Result::ok)
            .ok_or_else(|| ApiError::unavailable("every engine is busy; try again later".into()))?;
        let mut idle = lock(&self.idle);
        // Prefer the engine that last searched this game: its table still helps.
        let at = idle.iter().position(|(_, g)| g == game_id);
        let engine = match at.or(idle.len().checked_sub(1)) {
            Some(i) => {
                let (mut e, last) = idle.swap_remove(i);
                if last != game_id {
                    e.new_game();
                }
                e
            }
            None => Engine::try_new(EngineConfig {
                hash_mb: self.hash_mb,
                // One thread per engine: the server runs several at once.
                threads: 1,
                ..EngineConfig::default()
            })
            .map_err(|e| ApiError::unavailable(format!("no engine can start: {e}")))?,
        };
        Ok(Lent {
            engine,
            _permit: permit,
        })
    }

    /// Returns an engine after a search of game `game_id`.
    pub fn put(&self, lent: Lent, game_id: &str) {
        lock(&self.idle).push((lent.engine, game_id.to_string()));
    }
}
