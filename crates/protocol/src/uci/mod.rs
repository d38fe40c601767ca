//! The Universal Chess Interface and its shogi sibling, the Universal Shogi
//! Interface, as lines in and lines out. One session serves both
//! (`session.rs`: it only translates text to engine calls and back). What
//! differs is the [`Dialect`] (`dialect.rs`): the handshake's words, how
//! positions, moves, clocks and mate scores are written. What only USI has
//! is `usi.rs`; the options both offer are `options.rs` (one place: an
//! option added there is in both), `go`'s words `go.rs`, the `info` and
//! `bestmove` lines `report.rs`.

mod dialect;
mod go;
mod options;
mod report;
mod session;
pub mod usi;

pub use dialect::Dialect;
pub use go::{Go, parse_go};
pub use report::{bestmove_line, info_line};
pub use session::Session;
