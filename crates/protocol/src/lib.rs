//! kamil's sessions without a transport: what a front end sets
//! ([`session::Core`]: the game, evaluation, strength), loading games and
//! files with bounded reads ([`loading`], [`input`]), and the UCI and USI
//! conversation ([`uci::Session`]) as lines in and lines out.
//!
//! The command line's `kamil uci` and `kamil usi` run a session on
//! standard input and output with the search in its own thread; the
//! WebAssembly module runs one in a Web Worker with the search inline
//! ([`uci::Session::inline`]), since a browser's worker has no threads.

#![deny(missing_docs)]

pub mod bounds;
pub mod input;
pub mod loading;
pub mod out;
pub mod session;
pub mod uci;
