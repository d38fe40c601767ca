//! Issue 17 at the engine's level: no setting, position or variant file
//! makes a search abort or run without end.

mod common;
use common::variant;

use kamil_engine::{Engine, EngineConfig, Limits};
use kamil_rules::Position;

/// More memory than any machine has, MB.
const IMPOSSIBLE_MB: usize = usize::MAX / 2 / (1024 * 1024);

#[test]
fn a_hash_size_beyond_the_memory_keeps_the_table_and_the_engine_plays() {
    let mut e = Engine::new(EngineConfig {
        hash_mb: 4,
        ..EngineConfig::default()
    });
    let err = e.set_hash_mb(IMPOSSIBLE_MB).unwrap_err();
    assert_eq!(err.mb, IMPOSSIBLE_MB);
    assert_eq!(e.config().hash_mb, 4);
    let pos = Position::start(variant("courier"));
    assert!(
        e.search(&pos, &Limits::depth(2), &mut |_| {})
            .best
            .is_some()
    );
    e.set_hash_mb(2).expect("2 MB");
    assert_eq!(e.config().hash_mb, 2);
}

#[test]
fn an_engine_asked_for_an_impossible_table_fails_or_settles() {
    let config = EngineConfig {
        hash_mb: IMPOSSIBLE_MB,
        ..EngineConfig::default()
    };
    assert!(Engine::try_new(config.clone()).is_err());
    let mut e = Engine::new(config);
    assert_eq!(e.config().hash_mb, 1);
    let pos = Position::start(variant("courier"));
    assert!(
        e.search(&pos, &Limits::depth(1), &mut |_| {})
            .best
            .is_some()
    );
}
