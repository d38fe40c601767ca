//! The exceptions of `kamil`: `KamilError` (a `ValueError`) and its kinds
//! `FenError`, `MoveError` and `VariantError`, with the rules library's
//! messages as the command line prints them.

use kamil_rules::excerpt;
use pyo3::PyErr;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;

create_exception!(
    kamil,
    KamilError,
    PyValueError,
    "Base of kamil's errors: a FEN, move, variant or option that kamil refused."
);
create_exception!(
    kamil,
    FenError,
    KamilError,
    "A FEN (or, in the shogi games, an SFEN) that could not be read: the message names the field and what is wrong."
);
create_exception!(
    kamil,
    MoveError,
    KamilError,
    "A move text that is malformed or not legal in the position: the message lists the legal moves of the piece."
);
create_exception!(
    kamil,
    VariantError,
    KamilError,
    "A variant that could not be loaded: unknown name, bad option, unreadable or invalid variant file."
);

/// A `FenError` for `fen` (as the command line says it:
/// ``bad FEN `TEXT`: FEN board: ...``).
pub fn fen_error(fen: &str, e: &kamil_rules::fen::FenError) -> PyErr {
    FenError::new_err(format!("bad FEN `{}`: {e}", excerpt(fen)))
}

/// A `FenError` for a position text read as a FEN or an SFEN
/// (``bad SFEN `TEXT`: SFEN board: ...`` for an SFEN).
pub fn position_error(text: &str, e: &kamil_rules::sfen::PositionTextError) -> PyErr {
    match e {
        kamil_rules::sfen::PositionTextError::Fen(f) => fen_error(text, f),
        kamil_rules::sfen::PositionTextError::Sfen(s) => {
            FenError::new_err(format!("bad SFEN `{}`: {s}", excerpt(text)))
        }
    }
}

/// A `MoveError` for a move text read in any notation.
pub fn any_move_error(e: &kamil_rules::move_reader::AnyMoveError) -> PyErr {
    MoveError::new_err(e.to_string())
}

/// A `MoveError` with the rules library's message (``move `TEXT`: ...``).
pub fn move_error(e: &kamil_rules::notation::MoveError) -> PyErr {
    MoveError::new_err(e.to_string())
}

/// A `VariantError` with `message`.
pub fn variant_error(message: impl Into<String>) -> PyErr {
    VariantError::new_err(message.into())
}
