//! kamil-engine: search and evaluation for every variant of `kamil-rules`.
//!
//! One API for every front end: an [`Engine`] takes a position and
//! [`Limits`] and returns a [`SearchResult`] (best move, PV, score, stats),
//! reporting progress through a callback as [`Info`]. A search is stopped
//! from another thread through [`Engine::stop_handle`]. The engine knows
//! nothing of protocols or text.
//!
//! ```
//! use kamil_engine::{Engine, EngineConfig, Limits};
//! use kamil_rules::{Position, Variant};
//! use std::sync::Arc;
//! let v = Arc::new(Variant::builtin("courier", &[]).unwrap());
//! let pos = Position::start(v);
//! let mut engine = Engine::new(EngineConfig::default());
//! let r = engine.search(&pos, &Limits::depth(3), &mut |_| {});
//! assert!(r.best.is_some());
//! ```

#![deny(missing_docs)]

pub mod builtin;
pub mod clock;
pub mod eval;
pub mod eval_choice;
pub mod evaluation;
pub mod files;
pub mod fingerprint;
pub mod limits;
pub mod material;
pub mod nnue;
pub mod ordering;
pub mod score;
pub mod search;
pub mod see;
pub mod skill;
pub mod time;
pub mod tt;
pub mod values;

pub use eval::{EvalMode, Evaluator};
pub use limits::{Clock, Limits};
pub use score::Score;
pub use search::{Engine, EngineConfig, Info, SearchResult};
pub use skill::Skill;
pub use skill::elo::Strength;
