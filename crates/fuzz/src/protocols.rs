//! The targets of the protocol sessions: UCI, USI and CECP (XBoard), each
//! fed the input's lines as a GUI would send them.

use crate::{MAX_INPUT, MAX_LINES, text};
use kamil_cli::bounds::SessionBounds;
use kamil_cli::out::Out;
use kamil_cli::uci::Dialect;
use kamil_cli::{uci as kuci, xboard};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};

/// What a fuzzed session may use: every search ends within 1000 nodes
/// (then an infinite one waits for `stop`), and no table is larger than
/// 2 MB (a GUI may ask for 64 GB, which is its right, not a bug).
const BOUNDS: SessionBounds = SessionBounds {
    max_nodes: Some(1000),
    max_hash_mb: 2,
};

/// Output nobody reads.
fn sink() -> Out {
    Arc::new(Mutex::new(Box::new(std::io::sink())))
}

/// The input's lines (at most [`MAX_LINES`] of the first [`MAX_INPUT`]
/// bytes).
fn lines(data: &[u8]) -> Vec<String> {
    text(data, MAX_INPUT)
        .lines()
        .take(MAX_LINES)
        .map(str::to_string)
        .collect()
}

/// Target `uci`: the bytes are a UCI session, one command a line, ended as
/// `kamil uci` ends one (at `quit`, or at the end of input: the search
/// stopped and joined). Holds: no panic, no hang.
///
/// `setoption name UCI_Variant value PATH` lines that name a file (a `/`,
/// `\` or `.toml`) are left out: they read the file system, which is not
/// this target's business (variant files have their own target).
pub fn uci(data: &[u8]) {
    session(data, Dialect::Uci);
}

/// Target `usi`: the bytes are a USI session (`kamil usi`: Chu Shogi
/// first, SFEN positions, USI moves, `byoyomi`, `ponderhit`, `gameover`),
/// run as [`uci`] runs a UCI one. Holds: no panic, no hang.
pub fn usi(data: &[u8]) {
    session(data, Dialect::Usi);
}

/// A UCI or USI session over the input's lines, without the lines that
/// name a variant file.
fn session(data: &[u8], dialect: Dialect) {
    let mut session = kuci::Session::with_dialect(sink(), dialect, BOUNDS);
    for line in lines(data) {
        if names_a_file(&line) {
            continue;
        }
        if !session.handle(&line) {
            break;
        }
    }
    session.finish();
}

/// Target `cecp`: the bytes are an XBoard (CECP v2) session, one command a
/// line, then the end of input, run as `kamil xboard` runs one: searches
/// report their end through the session's queue, and the end of input
/// stops any search. Holds: no panic, no hang.
pub fn cecp(data: &[u8]) {
    let (tx, rx) = channel();
    let mut session = xboard::Session::with_bounds(sink(), tx.clone(), BOUNDS);
    for line in lines(data) {
        let _ = tx.send(xboard::Event::Line(line));
    }
    let _ = tx.send(xboard::Event::Eof);
    session.run(&rx);
}

/// A UCI or USI line that makes the session read a file: `setoption name
/// UCI_Variant value` (or `USI_Variant`) with a path.
fn names_a_file(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    (lower.contains("uci_variant") || lower.contains("usi_variant"))
        && (lower.contains('/') || lower.contains('\\') || lower.contains(".toml"))
}
