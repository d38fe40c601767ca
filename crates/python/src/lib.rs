//! kamil in Python: the extension module `kamil._kamil`, which the Python
//! package `kamil` (crates/python/python/kamil) re-exports.
//!
//! Thin: every rule comes from `kamil-rules`, every search from
//! `kamil-engine`; this crate only converts between Python values and
//! theirs, turns their errors into Python exceptions with the same
//! messages as the command line's, and releases the GIL around work that
//! takes long (perft, searches, batches of positions).

#![deny(missing_docs)]

pub mod arrays;
pub mod engine;
pub mod errors;
pub mod position;
pub mod variants;

use pyo3::prelude::*;

/// The module `kamil._kamil`: exceptions, `variants()`, `Position`,
/// `Outcome`, `Engine`, `SearchResult`, `SearchInfo` and the array
/// helpers.
#[pymodule]
fn _kamil(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("KamilError", py.get_type::<errors::KamilError>())?;
    m.add("FenError", py.get_type::<errors::FenError>())?;
    m.add("MoveError", py.get_type::<errors::MoveError>())?;
    m.add("VariantError", py.get_type::<errors::VariantError>())?;
    m.add_function(wrap_pyfunction!(variants::variants, m)?)?;
    m.add_function(wrap_pyfunction!(variants::start_fen, m)?)?;
    m.add_function(wrap_pyfunction!(position::restore_position, m)?)?;
    m.add_function(wrap_pyfunction!(arrays::batch_planes, m)?)?;
    m.add_function(wrap_pyfunction!(arrays::batch_moves, m)?)?;
    m.add_function(wrap_pyfunction!(arrays::position_planes, m)?)?;
    m.add_function(wrap_pyfunction!(arrays::position_moves, m)?)?;
    m.add_class::<position::PyPosition>()?;
    m.add_class::<position::PyOutcome>()?;
    m.add_class::<engine::PyEngine>()?;
    m.add_class::<engine::PySearchResult>()?;
    m.add_class::<engine::PySearchInfo>()?;
    Ok(())
}
