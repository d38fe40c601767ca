//! Positions and legal moves as flat arrays for machine learning, built
//! without the GIL. The functions return `bytes`; the Python module
//! `kamil.arrays` views them as numpy arrays of the documented shapes
//! (numpy is optional: the bytes are usable without it).
//!
//! Squares are numbered `rank * files + file`, 0 = `a1` (the first
//! player's left corner); cells that are no square stay 0 in the planes.
//! Piece types are numbered as in the variant file (`Position.piece_types`).

use crate::errors::fen_error;
use crate::position::PyPosition;
use crate::variants;
use kamil_rules::{Move, Position, Variant};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::Arc;

/// Planes per position: one per (side, piece type), the first player's
/// types first.
pub fn plane_count(v: &Variant) -> usize {
    2 * v.pieces.len()
}

/// Appends `pos`'s planes: `plane_count` planes of `ranks x files` bytes,
/// 1 where that side has that piece type.
pub fn write_planes(pos: &Position, out: &mut Vec<u8>) {
    let v = pos.variant();
    let g = &v.geometry;
    let (files, ranks) = (usize::from(g.files()), usize::from(g.ranks()));
    let types = v.pieces.len();
    let base = out.len();
    out.resize(base + 2 * types * ranks * files, 0);
    for sq in g.squares() {
        let p = pos.at(sq);
        if !p.is_piece() {
            continue;
        }
        let plane = p.side().index() * types + p.kind() as usize;
        let cell = usize::from(g.rank(sq)) * files + usize::from(g.file(sq));
        out[base + plane * ranks * files + cell] = 1;
    }
}

/// The square index of `sq`, or -1 for none.
fn index(v: &Variant, sq: kamil_rules::Square) -> i32 {
    if sq.is_some() && v.geometry.is_square(sq) {
        let g = &v.geometry;
        i32::from(g.rank(sq)) * i32::from(g.files()) + i32::from(g.file(sq))
    } else {
        -1
    }
}

/// Appends the encodings of `moves`: per move four little-endian `i32`
/// (origin, final square, intermediate square or -1, promotion piece type
/// or -1).
pub fn write_moves(v: &Variant, moves: &[Move], out: &mut Vec<u8>) {
    for &m in moves {
        let promo = m.promotion().map_or(-1, i32::from);
        for x in [index(v, m.from), index(v, m.to), index(v, m.via), promo] {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
}

/// The planes of `position` as bytes: shape `(2 * len(piece_types),
/// ranks, files)` of `uint8`.
#[pyfunction]
pub fn position_planes<'py>(
    py: Python<'py>,
    position: &Bound<'py, PyPosition>,
) -> Bound<'py, PyBytes> {
    let mut out = Vec::new();
    write_planes(&position.borrow().pos, &mut out);
    PyBytes::new(py, &out)
}

/// The legal moves of `position` encoded as bytes: shape `(moves, 4)` of
/// little-endian `int32`, in the order of `Position.legal_moves()`.
#[pyfunction]
pub fn position_moves<'py>(
    py: Python<'py>,
    position: &Bound<'py, PyPosition>,
) -> Bound<'py, PyBytes> {
    let mut p = position.borrow_mut();
    let moves = p.pos.legal_moves();
    let mut out = Vec::with_capacity(moves.len() * 16);
    write_moves(p.pos.variant(), &moves, &mut out);
    PyBytes::new(py, &out)
}

fn positions(v: &Arc<Variant>, fens: &[String]) -> PyResult<Vec<Position>> {
    fens.iter()
        .map(|f| Position::from_fen(v.clone(), f).map_err(|e| fen_error(f, &e)))
        .collect()
}

/// The planes of many FENs of one variant (a name or file path, with
/// `options`): bytes of shape `(len(fens), 2 * len(piece_types), ranks,
/// files)`, `uint8`. Runs without the GIL.
///
/// Errors: `VariantError`; `FenError` naming the first bad FEN.
#[pyfunction]
#[pyo3(signature = (variant, fens, options=None))]
pub fn batch_planes<'py>(
    py: Python<'py>,
    variant: &Bound<'py, PyAny>,
    fens: Vec<String>,
    options: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let v = variants::load(
        &variants::source_of(variant)?,
        &variants::options_of(options)?,
    )?;
    let out = py.detach(|| -> PyResult<Vec<u8>> {
        let mut out = Vec::new();
        for pos in positions(&v, &fens)? {
            write_planes(&pos, &mut out);
        }
        Ok(out)
    })?;
    Ok(PyBytes::new(py, &out))
}

/// The legal moves of many FENs of one variant: `(moves, offsets)`, both
/// bytes: `moves` of shape `(total, 4)` little-endian `int32` (as
/// `position_moves`), `offsets` `len(fens) + 1` little-endian `int64`, the
/// moves of FEN `i` being rows `offsets[i]` to `offsets[i + 1]`. Runs
/// without the GIL.
///
/// Errors: `VariantError`; `FenError` naming the first bad FEN.
#[pyfunction]
#[pyo3(signature = (variant, fens, options=None))]
pub fn batch_moves<'py>(
    py: Python<'py>,
    variant: &Bound<'py, PyAny>,
    fens: Vec<String>,
    options: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let v = variants::load(
        &variants::source_of(variant)?,
        &variants::options_of(options)?,
    )?;
    let (moves, offsets) = py.detach(|| -> PyResult<(Vec<u8>, Vec<u8>)> {
        let mut out = Vec::new();
        let mut offsets = 0i64.to_le_bytes().to_vec();
        let mut total = 0i64;
        let mut buf = Vec::new();
        for mut pos in positions(&v, &fens)? {
            buf.clear();
            pos.legal_moves_into(&mut buf);
            write_moves(&v, &buf, &mut out);
            total += buf.len() as i64;
            offsets.extend_from_slice(&total.to_le_bytes());
        }
        Ok((out, offsets))
    })?;
    Ok((PyBytes::new(py, &moves), PyBytes::new(py, &offsets)))
}
