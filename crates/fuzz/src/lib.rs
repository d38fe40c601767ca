//! kamil-fuzz: the fuzz targets of kamil, one function per target. Each
//! takes any bytes, feeds them to one of kamil's readers (FEN, move text,
//! PGN, variant files and Betza, rules texts, UCI, USI and CECP sessions, the web server's
//! API, network and training data files) and checks what must hold of the answer: no panic, and where the
//! input is accepted, the round trip or the invariant named in the
//! function's documentation. A violated property panics (`assert!`); kamil's
//! own code must never panic on input, so any panic is a finding.
//!
//! Two runners call these functions: `fuzz/` at the repository root
//! (cargo-fuzz and libFuzzer, on nightly, for as long as asked) and this
//! crate's test `tests/bounded.rs` (stable, part of `cargo test`), which
//! runs every target over the seed corpus in `fuzz/corpus/<target>/` and a
//! fixed number of deterministic mutations of it.
//!
//! Every input is bounded, so that no input can take long: the first
//! [`MAX_INPUT`] bytes are used ([`MAX_VARIANT_FILE`] for variant files),
//! at most [`MAX_LINES`] protocol lines and [`MAX_REQUESTS`] HTTP requests,
//! and every engine search ends within a node budget or a few
//! milliseconds.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod files;
mod http;
mod protocols;
mod rules;
mod variants;

pub use files::{MAX_DATA_FILE, MAX_NET_FILE, data_file, net_file};
pub use http::http;
pub use protocols::{cecp, uci, usi};
pub use rules::{betza, fen, move_text, pgn, rules_text, variant_file};

/// Bytes of an input used (the rest is ignored): a FEN, a move, a PGN
/// game, a protocol session or a series of API requests fits easily.
pub const MAX_INPUT: usize = 4096;

/// Bytes of a variant file used: the built-in files are up to 40 KB.
pub const MAX_VARIANT_FILE: usize = 64 << 10;

/// Protocol lines of a UCI, USI or CECP input used.
pub const MAX_LINES: usize = 64;

/// HTTP requests of an input used (parts separated by a zero byte).
pub const MAX_REQUESTS: usize = 16;

/// A fuzz target: takes any bytes, panics only when a property fails.
pub type Target = fn(&[u8]);

/// Every target by name, as `fuzz/fuzz_targets/<name>.rs` and
/// `fuzz/corpus/<name>/` name them.
pub const TARGETS: &[(&str, Target)] = &[
    ("fen", fen),
    ("move_text", move_text),
    ("pgn", pgn),
    ("variant_file", variant_file),
    ("betza", betza),
    ("rules_text", rules_text),
    ("uci", uci),
    ("usi", usi),
    ("cecp", cecp),
    ("http", http),
    ("net_file", net_file),
    ("data_file", data_file),
];

/// The first `max` bytes of `data`, as text (bytes that are not UTF-8
/// replaced, as kamil's line reader does).
fn text(data: &[u8], max: usize) -> String {
    String::from_utf8_lossy(&data[..data.len().min(max)]).into_owned()
}
