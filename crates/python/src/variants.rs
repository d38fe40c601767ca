//! Loading variants: a built-in name or a variant file's path, with
//! options; the built-in ones are cached, so positions of the same game
//! share one compiled variant. `variants()` lists the built-in games.

use crate::errors::variant_error;
use kamil_engine::files;
use kamil_rules::Variant;
use kamil_rules::excerpt;
use kamil_rules::variant::{BUILTIN, aliases};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Largest variant file read, bytes (as the command line:
/// [`files::MAX_TEXT`], 4 MB).
pub const MAX_FILE: u64 = files::MAX_TEXT;

/// Most compiled built-in variants kept (name and options); past it the
/// cache is emptied, so any number of option sets cannot grow it forever.
const CACHE_SIZE: usize = 64;

/// Where a variant comes from: what a pickled position needs to load it
/// again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A built-in game by name.
    Builtin(String),
    /// A variant file: its path (for messages) and its text as read.
    File {
        /// The path given.
        path: String,
        /// The file's text.
        text: String,
    },
}

/// Options as `(key, value)` texts, the rules library's form.
pub type Options = Vec<(String, String)>;

type Cache = Mutex<HashMap<(String, Options), Arc<Variant>>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Does `name` name a file rather than a built-in variant (as on the
/// command line: it ends in `.toml` or holds a path separator)?
pub fn is_path(name: &str) -> bool {
    name.ends_with(".toml") || name.contains('/') || name.contains('\\')
}

/// Reads a variant file of at most [`MAX_FILE`] bytes of UTF-8 text,
/// through the engine's one reader of files ([`files::read`]: regular
/// files only).
///
/// Errors (`VariantError`, the command line's messages): it cannot be read,
/// is not a regular file (a FIFO, a device, a folder), is too large, or is
/// not UTF-8.
pub fn read_variant_file(path: &str) -> PyResult<String> {
    let bytes = files::read(std::path::Path::new(path), "variant file", MAX_FILE)
        .map_err(|e| variant_error(excerpt_path(&kamil_rules::error_chain(&e), path)))?;
    String::from_utf8(bytes).map_err(|e| {
        variant_error(format!(
            "variant file `{}` is not UTF-8 text (byte {})",
            excerpt(path),
            e.utf8_error().valid_up_to()
        ))
    })
}

/// `message` with the path in it cut to its [`excerpt`].
fn excerpt_path(message: &str, path: &str) -> String {
    message.replace(path, &excerpt(path))
}

/// The source of `variant` as Python gives it: a built-in name, or a path
/// (a `str` that looks like one, or any `os.PathLike`), whose file is read.
///
/// Errors: `TypeError` for another type; `VariantError` for a file that
/// cannot be read.
pub fn source_of(variant: &Bound<'_, PyAny>) -> PyResult<Source> {
    if let Ok(name) = variant.extract::<String>() {
        if is_path(&name) {
            let text = read_variant_file(&name)?;
            return Ok(Source::File { path: name, text });
        }
        return Ok(Source::Builtin(name));
    }
    let path: std::path::PathBuf = variant.extract().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(
            "variant must be a built-in variant's name (str) or a variant file's path",
        )
    })?;
    let path = path.to_string_lossy().into_owned();
    let text = read_variant_file(&path)?;
    Ok(Source::File { path, text })
}

/// Options from Python: `None`, or a mapping of option names to `str`,
/// `bool` or `int` values (`{"albers-castling": True}`), in the mapping's
/// order.
///
/// Errors: `TypeError` for another type of mapping or value.
pub fn options_of(options: Option<&Bound<'_, PyAny>>) -> PyResult<Options> {
    let Some(options) = options else {
        return Ok(Vec::new());
    };
    if options.is_none() {
        return Ok(Vec::new());
    }
    let dict = options.cast::<PyDict>().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(
            "options must be a dict of option names to str, bool or int values",
        )
    })?;
    let mut out = Vec::new();
    for (k, v) in dict.iter() {
        let key: String = k
            .extract()
            .map_err(|_| pyo3::exceptions::PyTypeError::new_err("option names must be str"))?;
        let value = if let Ok(b) = v.extract::<bool>() {
            b.to_string()
        } else if let Ok(i) = v.extract::<i64>() {
            i.to_string()
        } else if let Ok(s) = v.extract::<String>() {
            s
        } else {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "option `{}`: the value must be str, bool or int",
                excerpt(&key)
            )));
        };
        out.push((key.trim().to_string(), value.trim().to_string()));
    }
    Ok(out)
}

/// The compiled variant of `source` with `options` (built-in ones from the
/// cache). A built-in name may be another program's for one of our games
/// (`chushogi`: [`aliases`]).
///
/// Errors: `VariantError` with the rules library's message (unknown
/// variant, unknown option or value, invalid file), echoes of long input
/// cut as the command line cuts them.
pub fn load(source: &Source, options: &Options) -> PyResult<Arc<Variant>> {
    let fail = |e: kamil_rules::VariantError, name: &str| {
        let mut message = e.to_string();
        for t in
            std::iter::once(name).chain(options.iter().flat_map(|(k, v)| [k.as_str(), v.as_str()]))
        {
            let short = excerpt(t);
            if short.len() < t.len() {
                message = message.replace(t, &short);
            }
        }
        variant_error(message)
    };
    match source {
        Source::Builtin(name) => {
            // Other programs' names for our games (`chushogi`, `shoshogi`),
            // as UCI and USI take them: ours, with that program's rule
            // options before the user's.
            let (name, options) = aliases::resolve_pairs(name, options);
            let (name, options) = (&name, &options);
            let key = (name.clone(), options.clone());
            let mut cache = cache().lock().unwrap_or_else(|e| e.into_inner());
            if let Some(v) = cache.get(&key) {
                return Ok(v.clone());
            }
            let v = Arc::new(Variant::builtin(name, options).map_err(|e| fail(e, name))?);
            if cache.len() >= CACHE_SIZE {
                cache.clear();
            }
            cache.insert(key, v.clone());
            Ok(v)
        }
        Source::File { path, text } => Ok(Arc::new(
            Variant::from_toml(path, text, options).map_err(|e| fail(e, path))?,
        )),
    }
}

/// The built-in games: a list of dicts `{"name", "title", "description",
/// "files", "ranks", "start_fen", "options"}`, each option a dict
/// `{"name", "default", "values", "description"}` (`values` empty for a
/// numeric option), in the command line's order (`kamil variants`).
#[pyfunction]
pub fn variants(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for (name, _) in BUILTIN {
        let v = load(&Source::Builtin((*name).to_string()), &Vec::new())?;
        let d = PyDict::new(py);
        d.set_item("name", &v.name)?;
        d.set_item("title", &v.title)?;
        d.set_item("description", &v.description)?;
        d.set_item("files", v.geometry.files())?;
        d.set_item("ranks", v.geometry.ranks())?;
        d.set_item("start_fen", &v.start_fen)?;
        d.set_item("elo_range", kamil_engine::skill::elo::ladder(&v).range())?;
        let opts = PyList::empty(py);
        for o in &v.options {
            let od = PyDict::new(py);
            od.set_item("name", &o.name)?;
            od.set_item("label", &o.label)?;
            od.set_item("summary", &o.summary)?;
            od.set_item("default", &o.default)?;
            od.set_item("values", &o.values)?;
            od.set_item("value_labels", &o.value_labels)?;
            od.set_item("description", &o.description)?;
            opts.append(od)?;
        }
        d.set_item("options", opts)?;
        list.append(d)?;
    }
    Ok(list)
}

/// The start FEN of `variant` (a built-in name or a variant file's path)
/// with `options` (a dict, or None).
///
/// Errors: `VariantError` (unknown variant, bad option, bad file);
/// `TypeError` for arguments of the wrong type.
#[pyfunction]
#[pyo3(signature = (variant, options=None))]
pub fn start_fen(
    variant: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let v = load(&source_of(variant)?, &options_of(options)?)?;
    Ok(v.start_fen.clone())
}
