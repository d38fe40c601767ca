//! kamil-train: how kamil's evaluations are made, apart from the engine
//! that uses them (the engine keeps inference only).
//!
//! - [`data`]: the binary training data file (`kamil gen-data --format
//!   binary`), and [`text`]: the text lines `FEN;RESULT;SCORE`; one reader
//!   each;
//! - [`self_play`]: the self-play generator's core, seeded games at a
//!   fixed node count, written in game order to a sink;
//! - [`samples`]: the net trainer's samples from either format;
//! - [`optim`]: Adam, the one optimiser of both trainers;
//! - [`texel`]: Texel's method for the hand-written evaluation's weights;
//! - [`nnue`]: the network trainer, float weights quantised to the
//!   engine's [`kamil_engine::nnue::network::Network`].
//!
//! The command line (`kamil gen-data`, `tune`, `train-net`, `data-text`)
//! reads files and arguments and calls these.

#![deny(missing_docs)]

pub mod data;
pub mod nnue;
pub mod optim;
pub mod samples;
pub mod self_play;
pub mod texel;
pub mod text;
