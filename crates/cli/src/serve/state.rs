//! What every handler of `kamil serve` shares.

use super::games::{Engines, Store, Variants};

/// The one state of the server, behind an `Arc` in every handler.
pub struct AppState {
    /// The games in play.
    pub(super) games: Store,
    /// The engines searches borrow.
    pub(super) engines: Engines,
    /// How many engines the pool has.
    pub(super) engine_count: usize,
    /// The compiled variants.
    pub(super) variants: Variants,
    /// Longest search a request may ask for, ms.
    pub(super) max_movetime_ms: u64,
    /// How long a request's headers, then its body, may take to arrive.
    pub(super) read_timeout: std::time::Duration,
}
