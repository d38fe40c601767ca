//! The engine as a text protocol, UCI or USI lines in and lines out, for a
//! Web Worker (issue 79 item 1a), as `stockfish.js` and
//! `fairy-stockfish.wasm` are used. The conversation is kamil-protocol's
//! ([`Session::inline`]): each line is handled at once, a `go` returns when
//! its search has ended, its `info` and `bestmove` lines sent as they come.
//!
//! `stop` during a search: a worker's one thread runs the search, so a
//! `stop` message waits in the worker's queue until the search ends. The
//! host that wants it seen at once shares a buffer
//! (`SharedArrayBuffer`, where the page is cross-origin isolated): its
//! first 32-bit integer counts the lines sent that end a search (`stop`,
//! `ponderhit`, `gameover`, `quit`; [`ends_search`]), raised by one before
//! each is posted. The search asks ([`kamil_engine::Engine::set_poll`])
//! whether that count is ahead of the ones the worker has read, and stops
//! if so. `web/wasm/engine.js` does this for its users.

use kamil_protocol::bounds::SessionBounds;
use kamil_protocol::out::Out;
use kamil_protocol::uci::{Dialect, Session};
use std::cell::{Cell, RefCell};
use std::io::Write;
use std::sync::{Arc, Mutex};
use wasm_bindgen::prelude::*;

/// Does `line` end a running search (the lines a host counts in the stop
/// buffer)?
pub fn ends_search(line: &str) -> bool {
    matches!(
        line.split_whitespace().next(),
        Some("stop" | "ponderhit" | "gameover" | "quit")
    )
}

/// The dialect a conversation speaks: `uci` or `usi`.
///
/// Errors: any other name.
pub fn dialect(name: &str) -> Result<Dialect, String> {
    match name.trim() {
        "uci" | "" => Ok(Dialect::Uci),
        "usi" => Ok(Dialect::Usi),
        other => Err(format!(
            "protocol `{other}`: kamil speaks `uci` or `usi` here"
        )),
    }
}

/// Bytes written by the session, cut into lines for `emit` (each without
/// its line ending) as each line is complete.
pub struct LineWriter<F: FnMut(&str)> {
    pending: Vec<u8>,
    emit: F,
}

impl<F: FnMut(&str)> LineWriter<F> {
    /// A writer that calls `emit` with each complete line.
    pub fn new(emit: F) -> Self {
        LineWriter {
            pending: Vec::new(),
            emit,
        }
    }
}

impl<F: FnMut(&str)> Write for LineWriter<F> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(bytes);
        while let Some(i) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=i).collect();
            let text = String::from_utf8_lossy(&line[..i]);
            (self.emit)(text.trim_end_matches('\r'));
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

thread_local! {
    /// Where the worker's lines go (the host's `onLine`).
    static ON_LINE: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
    /// The host's stop count ([`Protocol::new`]'s `stop`), if shared.
    static STOP: RefCell<Option<js_sys::Int32Array>> = const { RefCell::new(None) };
    /// The lines that end a search read so far.
    static ENDS_READ: Cell<i32> = const { Cell::new(0) };
}

/// The search's poll: has the host counted more search-ending lines than
/// the worker has read?
fn host_asks_stop() -> bool {
    STOP.with(|s| {
        s.borrow().as_ref().is_some_and(|counts| {
            js_sys::Atomics::load(counts, 0).is_ok_and(|n| n > ENDS_READ.get())
        })
    })
}

/// Sends one line to the host; a host callback that throws is ignored
/// (the conversation goes on).
fn emit(line: &str) {
    ON_LINE.with(|f| {
        if let Some(f) = f.borrow().as_ref() {
            let _ = f.call1(&JsValue::NULL, &JsValue::from_str(line));
        }
    });
}

/// A UCI or USI conversation with the engine (one search thread, the
/// built-in nets embedded). Lines go to the `onLine` given to the
/// constructor.
#[wasm_bindgen]
pub struct Protocol {
    session: Session,
}

#[wasm_bindgen]
impl Protocol {
    /// A conversation in `dialect` (`uci` or `usi`) whose lines are given
    /// to `on_line` (a function of one string). `stop`, where given, is the
    /// host's stop count (see the module's comment): an `Int32Array` over a
    /// `SharedArrayBuffer`, its first element raised before each line that
    /// ends a search is posted. One conversation per worker.
    ///
    /// Errors: an unknown dialect.
    #[wasm_bindgen(constructor)]
    pub fn new(
        dialect_name: &str,
        on_line: js_sys::Function,
        stop: Option<js_sys::Int32Array>,
    ) -> Result<Protocol, JsError> {
        let dialect = dialect(dialect_name).map_err(|e| JsError::new(&e))?;
        ON_LINE.with(|f| *f.borrow_mut() = Some(on_line));
        let poll: Option<fn() -> bool> = stop.is_some().then_some(host_asks_stop as fn() -> bool);
        STOP.with(|s| *s.borrow_mut() = stop);
        ENDS_READ.set(0);
        let out: Out = Arc::new(Mutex::new(Box::new(LineWriter::new(emit))));
        let session = Session::inline(out, dialect, SessionBounds::default(), poll);
        Ok(Protocol { session })
    }

    /// Handles one line (a search runs to its end before this returns);
    /// false after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        if ends_search(line) {
            ENDS_READ.set(ENDS_READ.get().saturating_add(1));
        }
        self.session.handle(line)
    }
}
