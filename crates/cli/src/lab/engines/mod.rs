//! Outside engines, driven as a GUI drives them: a command speaking UCI,
//! USI or CECP (XBoard), set up from an `--engine cmd=...,proto=...` string.
//! `kamil match` plays games with them and `kamil gen-data --label` asks
//! them for scores, so neither command reaches into the other.
//!
//! `config.rs` reads the engine string and limits; `process.rs` runs a
//! program; `uci.rs`, `usi.rs` and `cecp.rs` speak the protocols behind
//! `client.rs`'s [`client::Client`]; `seat.rs` starts them.

mod cecp;
pub(crate) mod client;
pub(crate) mod config;
pub(crate) mod process;
pub(crate) mod seat;
mod uci;
mod usi;
