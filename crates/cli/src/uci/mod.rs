//! `kamil uci` and `kamil usi`: the Universal Chess Interface and its
//! shogi sibling, the Universal Shogi Interface, on standard input and
//! output. The conversation is kamil-protocol's ([`Session`], with the
//! search in its own thread so that `stop` and `isready` are answered while
//! it thinks); this module reads the lines and chooses the protocol.

pub use kamil_protocol::uci::{Dialect, Go, Session, bestmove_line, info_line, parse_go};

/// USI's own words (kamil-protocol's), and the arguments of `kamil usi`.
pub mod usi {
    pub use kamil_protocol::uci::usi::*;

    /// Arguments of `kamil usi` (none: everything is set through the
    /// protocol); it runs as [`super::run_usi`].
    #[derive(clap::Args, Debug)]
    pub struct Args {}
}

use crate::input::{self, ProtocolLine};
use crate::out;
use anyhow::Result;

/// Arguments of `kamil uci` (none: everything is set through the protocol).
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs UCI until `quit` or the end of input. A first line `xboard`
/// switches to CECP (`kamil xboard`), `usi` to USI, for GUIs that start
/// every engine the same way.
pub fn run(_args: Args) -> Result<()> {
    run_with(None)
}

/// Runs UCI; `first` is a line already read (by the protocol
/// autodetection of a bare `kamil`).
pub fn run_with(first: Option<String>) -> Result<()> {
    serve(first, Dialect::Uci)
}

/// Runs `kamil usi` (see `usi.rs`) until `quit` or the end of input. A
/// first line `xboard` or `uci` switches to that protocol.
pub fn run_usi(_args: usi::Args) -> Result<()> {
    run_usi_with(None)
}

/// Runs USI; `first` is a line already read (by the protocol
/// autodetection of a bare `kamil`).
pub fn run_usi_with(first: Option<String>) -> Result<()> {
    serve(first, Dialect::Usi)
}

/// Runs a session of `dialect` until `quit` or the end of input; `first`
/// is a line already read. The first command chooses the protocol where it
/// names one: `xboard` (CECP), `uci` or `usi`.
fn serve(first: Option<String>, dialect: Dialect) -> Result<()> {
    let mut session: Option<Session> = None;
    let mut stdin = std::io::stdin().lock();
    let mut first = first;
    loop {
        let line = match first.take() {
            Some(l) => l,
            None => match input::read_protocol_line(&mut stdin)? {
                None => break,
                Some(ProtocolLine::TooLong) => {
                    let s =
                        session.get_or_insert_with(|| Session::speaking(out::stdout(), dialect));
                    s.info(&format!(
                        "a line longer than {} was ignored",
                        input::size(input::MAX_LINE)
                    ));
                    continue;
                }
                Some(ProtocolLine::Line(l)) => l,
            },
        };
        let s = match session.as_mut() {
            Some(s) => s,
            None if line.trim().is_empty() => continue,
            None => {
                let chosen = match line.trim() {
                    "xboard" => {
                        drop(stdin);
                        return crate::xboard::run_with(Some(line));
                    }
                    "uci" => Dialect::Uci,
                    "usi" => Dialect::Usi,
                    _ => dialect,
                };
                session.insert(Session::speaking(out::stdout(), chosen))
            }
        };
        if !s.handle(&line) {
            break;
        }
    }
    if let Some(s) = session.as_mut() {
        s.finish();
    }
    Ok(())
}
