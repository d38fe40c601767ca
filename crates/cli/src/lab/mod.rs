//! The lab: the commands that measure and make kamil rather than play it.
//! - [`matches`]: `kamil match`, games between engines with kamil's rules
//!   as referee, over the engine clients of [`engines`] (UCI, USI, CECP);
//! - [`gen_data`]: `kamil gen-data`, labelled positions from self-play, a
//!   PGN or another engine's scores;
//! - [`tune`], [`train_net`], [`data_text`]: `kamil tune`, `train-net` and
//!   `data-text`, thin commands over the `kamil-train` crate.

pub mod data_text;
pub(crate) mod engines;
pub mod gen_data;
pub(crate) mod matches;
pub mod train_net;
pub mod tune;
