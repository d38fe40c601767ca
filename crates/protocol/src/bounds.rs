//! What a protocol session (`kamil uci`, `kamil xboard`) lets its engine
//! use, whatever the other side asks: the largest hash table, and for tests
//! and fuzzing a node budget on every search, so that any search (`go
//! infinite`, `analyze`, a long clock) reaches its end quickly and only
//! waits for `stop`.

use kamil_engine::search::MAX_THREADS;
use kamil_engine::{EngineConfig, Limits};

/// Most search threads a session offers (UCI `Threads`, CECP `cores`): the
/// machine's hardware threads ([`std::thread::available_parallelism`]; 1 if
/// unknown), at most [`MAX_THREADS`].
pub fn machine_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, std::num::NonZero::get)
        .clamp(1, MAX_THREADS)
}

/// The bounds of one protocol session. The default ([`SessionBounds::default`])
/// is what `kamil uci` and `kamil xboard` use: no node budget, and tables
/// up to 64 GB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionBounds {
    /// Most nodes of any one search, on top of the limits the protocol
    /// sets (`None`: only those).
    pub max_nodes: Option<u64>,
    /// Largest hash table, MB: a larger `Hash` or `memory` is refused (UCI)
    /// or cut to this (CECP); the session's first table is no larger either.
    pub max_hash_mb: usize,
}

impl Default for SessionBounds {
    fn default() -> SessionBounds {
        SessionBounds {
            max_nodes: None,
            max_hash_mb: 65_536,
        }
    }
}

impl SessionBounds {
    /// `limits` with the node budget added (the smaller one wins).
    pub fn limit(&self, mut limits: Limits) -> Limits {
        if let Some(n) = self.max_nodes {
            limits.nodes = Some(limits.nodes.map_or(n, |m| m.min(n)));
        }
        limits
    }

    /// The configuration of the session's engine: the default one, with a
    /// table no larger than [`SessionBounds::max_hash_mb`].
    pub fn engine_config(&self) -> EngineConfig {
        let config = EngineConfig::default();
        EngineConfig {
            hash_mb: config.hash_mb.min(self.max_hash_mb.max(1)),
            ..config
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_node_budget_caps_every_search_and_keeps_smaller_ones() {
        let b = SessionBounds {
            max_nodes: Some(1000),
            max_hash_mb: 2,
        };
        assert_eq!(b.limit(Limits::default()).nodes, Some(1000));
        assert_eq!(b.limit(Limits::nodes(10)).nodes, Some(10));
        assert_eq!(b.limit(Limits::nodes(10_000)).nodes, Some(1000));
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        assert!(b.limit(infinite).infinite);
        assert_eq!(b.engine_config().hash_mb, 2);
        let none = SessionBounds::default();
        assert_eq!(none.limit(Limits::depth(3)), Limits::depth(3));
        assert_eq!(
            none.engine_config().hash_mb,
            EngineConfig::default().hash_mb
        );
    }
}
