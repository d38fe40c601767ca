//! Helpers shared by the engine tests: load a built-in variant, set up a
//! position, and a small seeded generator for the self-play games.

// Each test file is its own crate and uses only some of these.
#![allow(dead_code)]

use kamil_engine::eval_choice::EvalChoice;
use kamil_engine::{Engine, EngineConfig};
use kamil_rules::{Position, Variant};
use std::sync::Arc;

/// The built-in variant `name` with its default options; panics with the
/// loader's message if it does not load.
pub fn variant(name: &str) -> Arc<Variant> {
    Arc::new(Variant::builtin(name, &[]).unwrap_or_else(|e| panic!("{name}: {e}")))
}

/// The position `fen` of the built-in variant `name`; panics naming the
/// FEN if it does not load.
pub fn position(name: &str, fen: &str) -> Position {
    Position::from_fen(variant(name), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// A small deterministic generator (64-bit LCG, high bits), so the seeded
/// games are the same on every run.
pub struct Lcg(pub u64);

impl Lcg {
    /// The next 31 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    /// A number in `0..n` (`n` above 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A number in `0..100`.
    pub fn percent(&mut self) -> u64 {
        self.next() % 100
    }
}

/// An engine for the self-play rules tests: a `hash_mb` MB table and the
/// hand-written evaluation, whatever the game's default. Their seeded
/// games were chosen to reach every special rule with it; a built-in net
/// for the game must not change which rules they reach.
pub fn rules_test_engine(hash_mb: usize) -> Engine {
    let mut engine = Engine::new(EngineConfig {
        hash_mb,
        ..EngineConfig::default()
    });
    engine.set_evaluation(EvalChoice::Hand);
    engine
}
